//! `pqlab diff RUN_A RUN_B`: two runs compared, per workload and band, and their verdicts.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::analysis::diff::{caveat, diff, told_by_both, Diff, APART, CHECK, LEAD, TAU_PAIRS};
use crate::analysis::{Findings, Run};
use crate::report::update_between_markers;
use crate::results::files::{is_partial, load_run, partial_note};
use crate::say;

/// Prints the comparison of the runs at `a` and `b`; with `readme`, also writes its
/// paragraph into the README's `stability-<readme>` section; with `check`, exits with
/// status 1 when a band ranked in one run is missing from the other, or when fewer than
/// [`CHECK`]'s share of band winners repeat both ways, and refuses a run against itself.
pub fn run(a: &Path, b: &Path, readme: Option<&str>, check: bool) -> Result<ExitCode> {
    let (rows_a, rows_b) = (load_run(a)?, load_run(b)?);
    for (path, rows) in [(a, &rows_a), (b, &rows_b)] {
        if is_partial(path) {
            say!("Note: {}", partial_note(path, rows));
        }
    }
    let (run_a, run_b) = (Run::new(&rows_a), Run::new(&rows_b));
    if check && run_a.run_id() == run_b.run_id() {
        bail!(
            "diff --check compares two runs: {} and {} are the same run ({}), which always agrees with itself",
            a.display(),
            b.display(),
            run_a.run_id()
        );
    }
    let (findings_a, findings_b) = (Findings::of(&run_a), Findings::of(&run_b));
    let d = diff(&findings_a, &findings_b);
    if let Some(first) = cpus(&d) {
        say!("{first}");
    }
    say!("A: {} on {}", d.runs.0, d.machines.0);
    say!("B: {} on {}", d.runs.1, d.machines.1);
    if let Some(caveat) = caveat(&run_a, &run_b) {
        say!("{caveat}");
    }
    print_workloads(&d);
    print_bands(&d);
    print_parts(&d);
    print_machine(&d);
    print_verdicts(&d);
    let (agree, bands) = d.bands_agreeing();
    say!(
        "\nSummary: τ ≥ {} on every workload with {TAU_PAIRS} or more pairs apart; {}; {}; {agree} of {bands} band winners in the other run's tie group both ways{}; {}.",
        d.min_tau().map_or("–".into(), |t| format!("{t:.2}")),
        leaders(&d),
        covered(&d),
        tie_groups(&d),
        verdicts(&d)
    );
    if let Some(section) = readme {
        write_readme(&d, (a, b), section)?;
    }
    // Each run's own bands, compared with themselves: the bands the other run lacks.
    let ranked = |f: &Findings| diff(f, f).bands.len();
    let (in_a, in_b) = (ranked(&findings_a), ranked(&findings_b));
    let missing = in_a.max(in_b) - bands;
    if missing > 0 {
        say!(
            "\n{missing} of {} bands are ranked in one run only (A ranks {in_a}, B {in_b}): they are not compared.",
            in_a.max(in_b)
        );
    }
    if check && missing > 0 {
        say!("\nCheck failed: a run without {missing} of the bands cannot show they repeat.");
        return Ok(ExitCode::from(1));
    }
    if check && !d.check() {
        say!(
            "\nCheck failed: {agree} of {bands} band winners repeat both ways, fewer than {:.0}%.",
            CHECK * 100.0
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The per-workload table: τ, the pairs apart, each run's winner and whether it is in
/// the other's tie group.
fn print_workloads(d: &Diff) {
    say!("\nPer workload: Kendall's τ over the queue pairs more than {:.0}% apart in either run (given over {TAU_PAIRS} or more of them); each run's winner, and whether it is in the other's tie group.", (APART - 1.0) * 100.0);
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
}

/// The per-band table: each run's winner and whether each is in the other's tie group.
fn print_bands(d: &Diff) {
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
}

/// The leaders' moves by part, the part whose moves add up to most first.
fn print_parts(d: &Diff) {
    say!("\nLeaders by part: the queues within {LEAD}× of a workload's fastest, how far their times against the baseline moved, and how many moves the two runs' 95% intervals covered (95% wanted); the part whose moves add up to most first.");
    say!("  {:<52} {:>6} {:>8} {:>8} {:>8}", "part", "pairs", "median", "p90", "covered");
    for p in &d.parts {
        say!(
            "  {:<52} {:>6} {:>7.1}% {:>7.1}% {:>7.0}%",
            p.part,
            p.pairs,
            (p.median - 1.0) * 100.0,
            (p.p90 - 1.0) * 100.0,
            share(p.covered, p.pairs)
        );
    }
}

/// How the machine's speed moved between the runs, where it can be told.
fn print_machine(d: &Diff) {
    if let Some(s) = d.shift {
        say!("\n{}", shift(&s));
    }
    if let Some(r) = d.regime {
        say!(
            "\nThe machine's speed: workload by workload, the baseline's own time moved a standard deviation of {:.1}% between the runs; the leaders' median move follows it with a correlation of {:.2} (a slope of {:.2} on a log scale) over {} workloads. A pairing that cancelled the machine's speed entirely would leave none: above 0, the leaders slowed more than the baseline where a run was slower.",
            r.level_spread * 100.0,
            r.correlation,
            r.slope,
            r.workloads
        );
    }
}

/// Each verdict in both runs, and whether they agree.
fn print_verdicts(d: &Diff) {
    say!("\nVerdicts:");
    for (claim, a, b) in &d.verdicts {
        let said = match (a == b, told_by_both(*a, *b)) {
            (true, false) => "same",
            (_, false) => "open",
            (true, _) => "same",
            (false, _) => "DIFF",
        };
        say!("  {said} “{claim}”: {a} / {b}");
    }
}

/// Writes the comparison's paragraph into the README's `stability-<section>` section.
fn write_readme(d: &Diff, runs: (&Path, &Path), section: &str) -> Result<()> {
    let checkout = crate::results::location::checkout()?;
    let readme_path = checkout.join("README.md");
    let section = format!("stability-{section}");
    let text = paragraph(d, runs, &checkout);
    if !update_between_markers(&readme_path, &section, &text)? {
        anyhow::bail!(
            "{}: no <!-- pqlab:{section}:start --> and end markers to write between",
            readme_path.display()
        );
    }
    say!("\nwrote the paragraph in {} ({section})", readme_path.display());
    Ok(())
}

/// The first line when the runs' CPUs differ, or cannot be told apart: which CPUs, and what
/// still holds across them.
fn cpus(d: &Diff) -> Option<String> {
    let (a, b) = (d.platforms.0.kind(), d.platforms.1.kind());
    let (agree, bands) = d.bands_agreeing();
    let holds = format!(
        "{agree} of {bands} band winners are in the other's tie group both ways, {}",
        verdicts(d)
    );
    match d.other_cpus() {
        Some(false) => None,
        Some(true) => Some(format!(
            "Different CPUs: A ran on {a}, B on {b}. What holds across them: {holds}. The ratios move with the CPU: the workload-wide shift below is mostly the CPU, not noise."
        )),
        None => Some(format!(
            "The CPUs cannot be told apart ({a} and {b}: a run did not record its family): {holds}."
        )),
    }
}

/// The workload-wide shift and the leaders' change without it, in words.
fn shift(s: &crate::analysis::diff::Shift) -> String {
    format!(
        "Workload-wide shift: per workload, the median over its queues of how far their time against the baseline moved; a median {:.1}%, {:.1}% at the 90th percentile, over {} workloads, with one sign on {:.0}% of them (a CPU, or one slow state of the baseline, moves a whole workload; noise has no sign). With each workload's shift removed, the leaders moved a median {:.1}%, {:.1}% at the 90th percentile: what ranks the queues differently.",
        (s.median - 1.0) * 100.0,
        (s.p90 - 1.0) * 100.0,
        s.workloads,
        s.one_sign * 100.0,
        (s.leaders_without.0 - 1.0) * 100.0,
        (s.leaders_without.1 - 1.0) * 100.0
    )
}

/// The leaders' change between the runs, in words.
fn leaders(d: &Diff) -> String {
    match d.leaders {
        Some(c) => format!(
            "the leaders' times against the baseline (queues within {LEAD}× of a workload's fastest) moved a median {:.1}%, {:.1}% at the 90th percentile, over {} pairs; the fastest queue differs on {} of {} workloads",
            (c.median - 1.0) * 100.0,
            (c.p90 - 1.0) * 100.0,
            c.pairs,
            c.fastest_differs.0,
            c.fastest_differs.1
        ),
        None => "no workload has the baseline and five queues in both runs".into(),
    }
}

/// How many of the leaders' moves the intervals covered, in words: over the searches and
/// over the queue alone.
fn covered(d: &Diff) -> String {
    let part = |what: &str, (c, n): (usize, usize)| {
        (n > 0).then(|| format!("{what} {:.0}% of {n}", share(c, n)))
    };
    let parts: Vec<String> = [
        part("searches", d.covered(|alone| !alone)),
        part("the queue alone", d.covered(|alone| alone)),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        return "no leader's move could be set against its intervals".into();
    }
    format!("the 95% intervals covered the leaders' moves for {}", parts.join(", "))
}

/// `part` of `whole` in percent (0 of nothing).
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The median band's tie group in each run, in words (nothing when no band was compared).
fn tie_groups(d: &Diff) -> String {
    d.median_tie_groups().map_or(String::new(), |(a, b)| {
        format!(", the median band's tie group holding {a} and {b} queues")
    })
}

/// "23 of 24 verdicts the same, 1 more undecided in one run": a claim one run left open is
/// not counted as a difference.
fn verdicts(d: &Diff) -> String {
    let (same, told) = d.verdicts_agreeing();
    match d.verdicts_open() {
        0 => format!("{same} of {told} verdicts the same"),
        open => format!("{same} of {told} verdicts the same, {open} more undecided in one run"),
    }
}

/// The comparison as a README paragraph, generated (never written by hand): the runs, the
/// smallest and median τ, the band winners and verdicts that agree, and every exception;
/// each run linked where it lies in `checkout` (under `results/runs/` when outside it).
fn paragraph(d: &Diff, files: (&Path, &Path), checkout: &Path) -> String {
    let name = |p: &Path| p.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let link = |p: &Path| {
        let inside = p
            .canonicalize()
            .ok()
            .zip(checkout.canonicalize().ok())
            .and_then(|(p, c)| p.strip_prefix(c).ok().map(|r| r.display().to_string()));
        let target = inside.unwrap_or_else(|| format!("results/runs/{}", name(p)));
        format!("[`{}`]({target})", name(p))
    };
    let machines = if d.machines.0 == d.machines.1 {
        format!("both on {}", d.machines.0)
    } else {
        format!("on {} and on {}", d.machines.0, d.machines.1)
    };
    let mut taus: Vec<f64> = d.workloads.iter().filter_map(|w| w.tau).collect();
    taus.sort_by(f64::total_cmp);
    let median = taus.get(taus.len() / 2).copied();
    let low: Vec<String> = d
        .workloads
        .iter()
        .filter(|w| w.tau.is_some_and(|t| t < TAU_GOOD))
        .map(|w| format!("`{}` ({}, τ {:.3})", w.name, w.kind.name(), w.tau.unwrap_or(0.0)))
        .collect();
    let (agree, bands) = d.bands_agreeing();
    let mut text = format!(
        "Generated by `pqlab diff {} {} --readme …`; do not edit between the markers. \
         Runs {} and {}, {machines}. Over the queue pairs more than {:.0}% apart, Kendall's τ \
         between the two runs' times is at least {} on every one of {} workloads with {} or \
         more such pairs (median {}); \
         {}; {}. {agree} of {bands} band winners are in the other run's tie group both ways{}, \
         and {}.",
        name(files.0),
        name(files.1),
        link(files.0),
        link(files.1),
        (APART - 1.0) * 100.0,
        d.min_tau().map_or("–".into(), |t| format!("{t:.2}")),
        taus.len(),
        TAU_PAIRS,
        median.map_or("–".into(), |t| format!("{t:.2}")),
        leaders(d),
        covered(d),
        tie_groups(d),
        verdicts(d),
    );
    if !low.is_empty() {
        text += &format!(" τ is under {TAU_GOOD} on {}.", low.join(", "));
    }
    let apart: Vec<String> = d
        .bands
        .iter()
        .filter(|b| !(b.crossed.0 && b.crossed.1))
        .map(|b| format!("{} {} (`{}` against `{}`)", b.series, b.band, b.winners.0, b.winners.1))
        .collect();
    if !apart.is_empty() {
        text += &format!(" Band winners outside the other's tie group: {}.", apart.join("; "));
    }
    let differ: Vec<String> = d
        .verdicts
        .iter()
        .filter(|(_, a, b)| a != b)
        .map(|(claim, a, b)| format!("“{claim}” ({a} / {b})"))
        .collect();
    if !differ.is_empty() {
        text += &format!(" Verdicts that differ: {}.", differ.join("; "));
    }
    text + "\n\n"
}

/// The τ two quiet runs must reach on a workload; workloads under it are named.
const TAU_GOOD: f64 = 0.9;
