//! `pqlab diff RUN_A RUN_B`: two runs compared, per workload and band, and their verdicts.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use crate::analysis::diff::{diff, APART};
use crate::analysis::Run;
use crate::results::files::load_run;
use crate::say;

/// Prints the comparison of the runs at `a` and `b`.
pub fn run(a: &Path, b: &Path) -> Result<ExitCode> {
    let (rows_a, rows_b) = (load_run(a)?, load_run(b)?);
    let (run_a, run_b) = (Run::new(&rows_a), Run::new(&rows_b));
    let d = diff(&run_a, &run_b);
    say!("A: {} on {}", d.runs.0, d.machines.0);
    say!("B: {} on {}", d.runs.1, d.machines.1);
    say!("\nPer workload: Kendall's τ over the queue pairs more than {:.0}% apart in either run; each run's winner, and whether it is in the other's tie group.", (APART - 1.0) * 100.0);
    say!(
        "{:<9} {:<48} {:>6} {:>6}  {:<26} {:<26} {}",
        "kind",
        "workload",
        "τ",
        "pairs",
        "winner A",
        "winner B",
        "A in B's / B in A's"
    );
    for w in &d.workloads {
        say!(
            "{:<9} {:<48} {:>6} {:>6}  {:<26} {:<26} {} / {}",
            w.kind.name(),
            w.name,
            w.tau.map_or("–".into(), |t| format!("{t:.2}")),
            w.pairs,
            w.winners.0,
            w.winners.1,
            if w.crossed.0 { "yes" } else { "NO" },
            if w.crossed.1 { "yes" } else { "NO" }
        );
    }
    say!("\nPer band:");
    for b in &d.bands {
        say!(
            "  {:<34} {:<9} A {:<26} B {:<26} {}",
            b.series,
            b.band,
            b.winners.0,
            b.winners.1,
            if b.crossed.0 && b.crossed.1 {
                "each in the other's tie group"
            } else {
                "NOT in each other's tie group"
            }
        );
    }
    say!("\nVerdicts:");
    for (claim, a, b) in &d.verdicts {
        say!("  {} “{claim}”: {a} / {b}", if a == b { "same" } else { "DIFF" });
    }
    let (agree, bands) = d.bands_agreeing();
    let (same, claims) = d.verdicts_agreeing();
    say!(
        "\nSummary: τ ≥ {} on every workload; {agree} of {bands} band winners in the other run's tie group both ways; {same} of {claims} verdicts the same.",
        d.min_tau().map_or("–".into(), |t| format!("{t:.2}"))
    );
    Ok(ExitCode::SUCCESS)
}
