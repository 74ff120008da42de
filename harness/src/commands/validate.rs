//! `pqlab validate`: checks queues with a registry search on every Moving AI map under a
//! folder.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use pqlab_queues::registry::Entry;

use crate::maps::grid::{CostKind, Rules};
use crate::maps::instance::Sample;
use crate::maps::movingai;
use crate::maps::GraphKind;
use crate::say;
use crate::search::SearchKind;
use crate::validate::{validate, workers, MapReport, SHOWN};

/// Runs the checks with `search` and prints one line per map as it finishes, its failures
/// (the first [`SHOWN`], and how many more), the queues the search cannot take there, the
/// approximate queues' excess, and a summary. No queue to run (every one n/a here, or
/// refused by the search on every map) is an error, not an empty pass.
pub fn run(
    dir: &Path,
    queues: &[&'static Entry],
    search: SearchKind,
    per_map: Option<usize>,
    threads: usize,
) -> Result<ExitCode> {
    let queues = runnable(queues, pqlab_queues::registry::available)?;
    let queues = &queues[..];
    let rules = Rules::default();
    search
        .entry()
        .needs
        .setup(GraphKind::Grid, Some(rules.connectivity), CostKind::Integer)
        .map_err(|why| anyhow::anyhow!("--search {}: {why}", search.token()))?;
    let maps = movingai::find_maps(dir)?;
    anyhow::ensure!(!maps.is_empty(), "no X.map with X.map.scen under {}", dir.display());
    let started = Instant::now();
    let bar = crate::format::progress(0, "searches");
    let sample = per_map.map_or(Sample::All, Sample::Spread);
    let (reports, ran) = validate(
        &maps,
        queues,
        search,
        sample,
        threads,
        &|r| bar.suspend(|| print_map(r, queues.len())),
        &|done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let tally = Tally::of(&reports);
    say!(
        "validated {} maps with {} queues and {} ({}) in {:.1} s on {ran} threads{}",
        maps.len() - tally.broken.len(),
        queues.len(),
        search.entry().name,
        search.token(),
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
    tally.conclude(search)
}

/// The checks of every map, counted.
struct Tally<'r> {
    /// Searches that gave the right answer.
    passed: usize,
    /// Searches that gave a wrong one.
    failed: usize,
    /// Searches beyond 32-bit fine costs, not checked.
    beyond: usize,
    /// Queue-map pairs the search cannot take, not checked.
    refused: usize,
    /// The maps that could not be read.
    broken: Vec<&'r str>,
}

impl<'r> Tally<'r> {
    /// The counts over `reports`.
    fn of(reports: &'r [MapReport]) -> Self {
        Tally {
            passed: reports.iter().map(|r| r.passed).sum(),
            failed: reports.iter().map(|r| r.failures.len()).sum(),
            beyond: reports.iter().map(|r| r.beyond.len()).sum(),
            refused: reports.iter().map(|r| r.refused.len()).sum(),
            broken: reports.iter().filter(|r| r.error.is_some()).map(|r| r.name.as_str()).collect(),
        }
    }

    /// Prints the counts and the unreadable maps, and gives the exit code: 1 for a wrong
    /// answer, else 2 for an unreadable map, else success. Nothing checked, because
    /// `search` refused every queue it was asked, is an error.
    fn conclude(self, search: SearchKind) -> Result<ExitCode> {
        let Tally { passed, failed, beyond, refused, broken } = self;
        say!(
            "{passed} passed, {failed} failed{}{}",
            if beyond > 0 {
                format!(", {beyond} beyond 32-bit fine costs (not checked)")
            } else {
                String::new()
            },
            if refused > 0 {
                format!(", {refused} queue-map pairs {} cannot take (not checked)", search.token())
            } else {
                String::new()
            }
        );
        if !broken.is_empty() {
            say!("{} could not be read: {}", broken.len(), broken.join(", "));
        }
        anyhow::ensure!(
            refused == 0 || passed + failed + beyond > 0,
            "no queue asked could run --search {} on these maps (said above): nothing was checked",
            search.token()
        );
        // A wrong answer outranks bad input: exit 1 must not be masked by an unreadable map.
        Ok(if failed > 0 {
            ExitCode::FAILURE
        } else if broken.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        })
    }
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
    for refused in &r.refused {
        say!("  NOT CHECKED: the search cannot take {refused}");
    }
    for (queue, mean, max) in &r.excess {
        say!(
            "  {queue}: valid paths, {:.3}% longer than optimal on average, {:.3}% at worst",
            mean * 100.0,
            max * 100.0
        );
    }
}

/// The queues of `queues` that `available` says run here, each other one said on stderr
/// with its reason; an error when none does.
fn runnable(
    queues: &[&'static Entry],
    available: impl Fn(&str) -> Result<(), &'static str>,
) -> Result<Vec<&'static Entry>> {
    let runnable: Vec<&'static Entry> = queues
        .iter()
        .copied()
        .filter(|e| {
            available(e.id)
                .map_err(|why| {
                    eprintln!("pqlab: {} is n/a here, and is not validated: {why}", e.id)
                })
                .is_ok()
        })
        .collect();
    anyhow::ensure!(
        !runnable.is_empty(),
        "no queue to validate: every queue asked is n/a here (said above)"
    );
    Ok(runnable)
}

#[cfg(test)]
mod tests {
    use super::runnable;
    use pqlab_queues::registry;

    /// A queue that is n/a here is left out, and none left is an error, not an empty pass.
    #[test]
    fn validate_needs_a_queue_that_runs_here() {
        let asked = [registry::baseline(), registry::find("dary4-dk").unwrap()];
        let only_std = |id: &str| if id == registry::BASELINE { Ok(()) } else { Err("not built") };
        let kept = runnable(&asked, only_std).unwrap();
        assert_eq!(kept.iter().map(|e| e.id).collect::<Vec<_>>(), [registry::BASELINE]);
        let error = runnable(&asked, |_| Err("not built")).unwrap_err().to_string();
        assert!(error.contains("every queue asked is n/a here"), "{error}");
    }
}
