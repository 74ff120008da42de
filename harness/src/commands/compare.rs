//! `pqlab compare`: pqlab's A* with some queues against the `pathfinding` and `petgraph`
//! crates' A* on the same problems, every cost checked, timed in interleaved rounds by the
//! lab's own sampler (so the lab's peer rows are the same measurement); per map, and as a
//! geometric mean over maps. Beside them, the oracle floor: pqlab's A* replaying std's
//! recorded pops, a frontier that costs nothing, so `pathfinding ÷ oracle` is the most any
//! queue could reach. A progress bar on stderr counts the maps and says what is running.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use pqlab_queues::registry::{self, Entry};

use crate::analysis::geomean;
use crate::format::ratio;
use crate::lab::contest::Contest;
use crate::lab::searches::{
    check_oracle, check_peers, record_baseline, CheckQueue, Prepared, Untimed,
};
use crate::lab::suites::{Role, Source, WorkloadSpec};
use crate::maps::grid::CostScale;
use crate::maps::instance::Sample;
use crate::results::quantile;
use crate::say;
use crate::search::heuristic::HeuristicKind;
use crate::search::peers::{PathfindingAstar, Peer};
use crate::search::store::StoreKind;
use crate::search::trace::Trace;

/// The most memory the oracle's recorded pops may hold on one map: 1 GiB, so that
/// `compare` fits an 8 GB laptop beside its maps (a whole 1024² scenario's traces, at
/// about 3.5 MB a problem, need about 13 GB on `NewYork_0_1024`). Past it the map is
/// compared without the oracle, and says so.
const ORACLE_TRACE_BYTES: usize = 1 << 30;

/// The oracle's label in `compare`'s table.
const ORACLE_LABEL: &str = "oracle floor (no frontier cost)";

/// How long each sample lasts at least: whole passes over a map's problems repeat until
/// one does. Not tuned by a measurement: a pass over a whole scenario takes longer than
/// this (so a sample is one pass); with `--limit` a sample holds several short passes.
const SAMPLE: Duration = Duration::from_millis(20);

/// Compares on every map of `maps`.
pub fn compare(
    maps: &[PathBuf],
    queues: &[&'static Entry],
    limit: Option<usize>,
    rounds: u32,
) -> Result<ExitCode> {
    let mut ratios: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let bar = crate::format::progress(maps.len() as u64, "maps");
    // A map that cannot be read is said and counted, and the others are compared.
    let mut bad = Vec::new();
    for map in maps {
        bar.set_message(format!("maps: checking on {}", map.display()));
        let loaded = Prepared::new(&suite(map, limit))
            .with_context(|| format!("loading {}", map.display()))
            .and_then(|prepared| {
                let traces = record_baseline(&prepared, ORACLE_TRACE_BYTES).map_err(|why| {
                    anyhow::anyhow!("recording on {}: {why}", prepared.instance.name)
                })?;
                Ok((prepared, traces))
            });
        let (prepared, traces) = match loaded {
            Ok(loaded) => loaded,
            Err(error) => {
                bar.suspend(|| eprintln!("pqlab: {error:#}"));
                bad.push(map.display().to_string());
                bar.inc(1);
                continue;
            }
        };
        if traces.is_none() {
            bar.suspend(|| {
                say!(
                    "{}: the oracle floor is left out: its recorded pops would hold more than {} MiB (give --limit)",
                    prepared.instance.name,
                    ORACLE_TRACE_BYTES >> 20
                )
            });
        }
        let mut contest = Contest::new(&prepared.suite.name(), SAMPLE);
        let expansions = match enter(&prepared, queues, traces.as_deref(), &mut contest) {
            Ok(expansions) => expansions,
            Err(code) => {
                bar.finish_and_clear();
                return Ok(code);
            }
        };
        bar.set_message(format!(
            "maps: timing {} rounds on {}, about {:.0} s",
            rounds,
            prepared.instance.name,
            (contest.round() * rounds).as_secs_f64()
        ));
        contest.time(rounds);
        bar.inc(1);
        let medians: Vec<(String, f64)> =
            contest.finish().into_iter().map(|(label, s)| (label, quantile(&s.cpu, 0.5))).collect();
        bar.suspend(|| say_map(&prepared, rounds, expansions, &medians, &mut ratios));
    }
    bar.finish_and_clear();
    let compared = maps.len() - bad.len();
    if compared > 1 {
        say!("\ngeometric mean over {compared} maps of the pathfinding crate's time ÷ each one's:");
        for (label, r) in &ratios {
            let over = if r.len() < compared {
                format!(" (over {} maps)", r.len())
            } else {
                String::new()
            };
            say!("  {label:<36} {}{over}", ratio(geomean(r.iter().copied())));
        }
    }
    if !bad.is_empty() {
        eprintln!(
            "pqlab: {} of {} maps could not be read, and were not compared: {}",
            bad.len(),
            maps.len(),
            bad.join(", ")
        );
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// The suite of a map's problems (at most `limit`, spread over its scenario) searched as
/// the lab's real-map suites do: octile A\* with fine costs and the flat store.
fn suite(map: &Path, limit: Option<usize>) -> WorkloadSpec {
    WorkloadSpec {
        source: Source::MovingAi {
            map: map.to_path_buf(),
            sample: limit.map_or(Sample::All, Sample::Spread),
        },
        setup: crate::search::Setup::GRID_ASTAR,
        heuristic: HeuristicKind::Octile,
        scale: CostScale::FINE,
        store: StoreKind::Flat,
        role: Role::Real,
        replay: false,
    }
}

/// Checks and enters, in this order, pqlab's A\* with each of `queues`, the oracle (where
/// its `traces` fit), the pathfinding crate's and petgraph's A\*. Returns the mean
/// expansions of a search, or the exit status when one cannot be timed.
fn enter<'p>(
    prepared: &'p Prepared,
    queues: &[&'static Entry],
    traces: Option<&'p [Trace]>,
    contest: &mut Contest<'p, String>,
) -> Result<f64, ExitCode> {
    let searches = prepared.instance.problems.len() as u64;
    let mut expansions = None;
    let queues = queues.iter().map(|entry| {
        let check = registry::visit(entry.id, CheckQueue { prepared, limit: Duration::MAX });
        (format!("pqlab ({})", entry.id), check.expect("registered"))
    });
    let oracle = traces.map(|t| (ORACLE_LABEL.to_owned(), check_oracle(prepared, t)));
    let peers = check_peers(prepared, Duration::MAX, |check| check())
        .into_iter()
        .map(|(id, outcome)| (id.to_owned(), outcome));
    for (label, check) in queues.chain(oracle).chain(peers) {
        let check = check.map_err(|why| untimed(&label, &why))?;
        let searched = check.counters.iter().map(|c| c.expansions as f64).sum::<f64>();
        // The first of pqlab's queues is the reference the others are timed against.
        let first = expansions.is_none();
        expansions.get_or_insert(searched / searches.max(1) as f64);
        if first {
            contest.enter_reference(label, searches, check);
        } else {
            contest.enter(label, searches, check);
        }
    }
    Ok(expansions.unwrap_or(0.0))
}

/// Says each contender's median time on one map and adds its ratio to `ratios`.
fn say_map(
    prepared: &Prepared,
    rounds: u32,
    expansions: f64,
    medians: &[(String, f64)],
    ratios: &mut BTreeMap<String, Vec<f64>>,
) {
    say!(
        "{}: {} problems, {} interleaved rounds, {:.0} expansions per search; thread CPU time per search (median of the rounds):",
        prepared.instance.name,
        prepared.instance.problems.len(),
        rounds,
        expansions
    );
    let pathfinding =
        medians.iter().find(|(label, _)| label == PathfindingAstar::ID).map_or(f64::NAN, |m| m.1);
    for (label, median) in medians {
        say!(
            "  {:<36} {:>10.1} us {:>8.1} ns per expansion   pathfinding ÷ this: {}",
            label,
            median / 1e3,
            median / expansions.max(1.0),
            ratio(pathfinding / median)
        );
        if label != PathfindingAstar::ID {
            ratios.entry(label.clone()).or_default().push(pathfinding / median);
        }
    }
}

/// Says why `who` was not timed and gives the exit status: 1 for a wrong answer (the
/// scenario's or the search's), 2 when it cannot search these maps at all.
fn untimed(who: &str, why: &Untimed) -> ExitCode {
    match why {
        Untimed::Failed(what) => {
            eprintln!("pqlab: FAILED {who}: {what}");
            ExitCode::FAILURE
        }
        Untimed::NotApplicable(what) | Untimed::CutOff { note: what, .. } => {
            eprintln!("pqlab: {who} cannot be compared here: {what}");
            ExitCode::from(2)
        }
    }
}
