//! `pqlab validate`: checks queues on every Moving AI map under a folder.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use pqlab_queues::registry::Entry;

use crate::maps::instance::Sample;
use crate::maps::movingai;
use crate::say;
use crate::validate::{validate, workers, MapReport, SHOWN};

/// Runs the checks and prints one line per map as it finishes, its failures (the first
/// [`SHOWN`], and how many more), the approximate queues' excess, and a summary.
pub fn run(
    dir: &Path,
    queues: &[&'static Entry],
    per_map: Option<usize>,
    threads: usize,
) -> Result<ExitCode> {
    let queues: Vec<&'static Entry> = queues
        .iter()
        .copied()
        .filter(|e| {
            let why = pqlab_queues::registry::available(e.id);
            why.map_err(|why| eprintln!("pqlab: {} is n/a here, and is not validated: {why}", e.id))
                .is_ok()
        })
        .collect();
    anyhow::ensure!(
        !queues.is_empty(),
        "no queue to validate: every queue asked is n/a here (said above)"
    );
    let queues = &queues[..];
    let maps = movingai::find_maps(dir)?;
    anyhow::ensure!(!maps.is_empty(), "no X.map with X.map.scen under {}", dir.display());
    let started = Instant::now();
    let bar = crate::format::progress(0, "searches");
    let sample = per_map.map_or(Sample::All, Sample::Spread);
    let (reports, ran) = validate(
        &maps,
        queues,
        sample,
        threads,
        &|r| bar.suspend(|| print_map(r, queues.len())),
        &|done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let passed: usize = reports.iter().map(|r| r.passed).sum();
    let failed: usize = reports.iter().map(|r| r.failures.len()).sum();
    let broken: Vec<&str> =
        reports.iter().filter(|r| r.error.is_some()).map(|r| r.name.as_str()).collect();
    say!(
        "validated {} maps with {} queues in {:.1} s on {ran} threads{}",
        maps.len() - broken.len(),
        queues.len(),
        started.elapsed().as_secs_f64(),
        if workers(threads) < threads {
            format!(
                " (--threads {threads} capped at {} a core: {})",
                crate::validate::THREADS_PER_CORE,
                workers(threads)
            )
        } else {
            String::new()
        }
    );
    let beyond: usize = reports.iter().map(|r| r.beyond.len()).sum();
    say!(
        "{passed} passed, {failed} failed{}",
        if beyond > 0 {
            format!(", {beyond} beyond 32-bit fine costs (not checked)")
        } else {
            String::new()
        }
    );
    if !broken.is_empty() {
        say!("{} could not be read: {}", broken.len(), broken.join(", "));
    }
    // A wrong answer outranks bad input: exit 1 must not be masked by an unreadable map.
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else if broken.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// One map's lines: its checks, its first [`SHOWN`] failures (and how many more), the
/// searches not checked, and the approximate queues' excess.
fn print_map(r: &MapReport, queues: usize) {
    if let Some(error) = &r.error {
        say!("{}: NOT CHECKED: {error}", r.name);
        return;
    }
    say!(
        "{}: {} problems x {} queues: {} passed, {} failed ({:.1} s of work)",
        r.name,
        r.problems,
        queues,
        r.passed,
        r.failures.len(),
        r.seconds
    );
    for failure in r.failures.iter().take(SHOWN) {
        say!("  FAILED {failure}");
    }
    if r.failures.len() > SHOWN {
        say!("  ... and {} more failures on this map", r.failures.len() - SHOWN);
    }
    if let Some(first) = r.beyond.first() {
        say!(
            "  NOT CHECKED: {} searches beyond 32-bit fine costs (a limit of the cost representation, not a wrong answer; `pqlab run --map MAP --scale coarse` searches them with coarse costs), the first: {first}",
            r.beyond.len()
        );
    }
    for (queue, mean, max) in &r.excess {
        say!(
            "  {queue}: valid paths, {:.3}% longer than optimal on average, {:.3}% at worst",
            mean * 100.0,
            max * 100.0
        );
    }
}
