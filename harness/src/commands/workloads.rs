//! `pqlab workloads`: the built-in workloads with the frontier sizes they produce (one untimed
//! pass with std's BinaryHeap; every answer checked).

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use crate::lab::budget::check_baseline as baseline;
use crate::lab::searches::{AnyPrepared, Searchable};
use crate::lab::settings::Profile;
use crate::lab::workloads::builtin;
use crate::results::quantile;
use crate::say;

/// Prints every workload of `profile` with its searches' frontier sizes.
pub fn run(profile: Profile) -> Result<ExitCode> {
    say!(
        "{:<44} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "workload",
        "problems",
        "prepare s",
        "pass ms",
        "median",
        "p90",
        "largest",
        "band"
    );
    for spec in builtin(profile) {
        let started = Instant::now();
        let prepared = AnyPrepared::new(&spec)?;
        let prepare = started.elapsed().as_secs_f64();
        let (problems, check) = match &prepared {
            AnyPrepared::Grid(grid) => (grid.count(), baseline(grid)?),
            AnyPrepared::Road(road) => (road.count(), baseline(road)?),
        };
        let open: Vec<f64> = check.counters.iter().map(|c| c.max_open as f64).collect();
        let median = quantile(&open, 0.5);
        say!(
            "{:<44} {:>8} {:>9.1} {:>9.1} {:>9.0} {:>9.0} {:>9.0} {:>9}",
            spec.name(),
            problems,
            prepare,
            check.pass.as_secs_f64() * 1e3,
            median,
            quantile(&open, 0.9),
            quantile(&open, 1.0),
            crate::analysis::Band::of(open.iter().sum::<f64>() / open.len().max(1) as f64).label()
        );
    }
    Ok(ExitCode::SUCCESS)
}
