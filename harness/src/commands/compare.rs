//! `pqlab compare`: pqlab's A* with some queues against the `pathfinding` and `petgraph`
//! crates' A* on the same problems, every cost checked, timed in interleaved rounds on demand
//! ([`crate::lab::ondemand`]: the lab's sampler, so the lab's peer rows are the same
//! measurement); per map, and as a
//! geometric mean over maps. Beside them, the oracle floor: pqlab's A* replaying std's
//! recorded pops, a frontier that costs nothing, so `pathfinding ÷ oracle` is the most any
//! queue could reach. A progress bar on stderr counts the maps and says what is running.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use indicatif::ProgressBar;
use pqlab_queues::registry::Entry;

use crate::analysis::geomean;
use crate::format::ratio;
use crate::lab::ondemand::{search_facts, OnDemand, Racing};
use crate::lab::searches::{record_baseline, Prepared};
use crate::lab::workloads::{Role, Source, WorkloadSpec};
use crate::maps::instance::Sample;
use crate::results::{Kind, Row, Status};
use crate::say;
use crate::search::peers::{PathfindingAstar, Peer};
use crate::search::trace::Trace;
use crate::search::Series;

/// The most memory the oracle's recorded pops may hold on one map: 1 GiB, so that
/// `compare` fits an 8 GB laptop beside its maps (a whole 1024² scenario's traces, at
/// about 3.5 MB a problem, need about 13 GB on `NewYork_0_1024`). Past it the map is
/// compared without the oracle, and says so.
const ORACLE_TRACE_BYTES: usize = 1 << 30;

/// The oracle's label in `compare`'s table.
const ORACLE_LABEL: &str = "oracle floor (no frontier cost)";

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
        let loaded = Prepared::new(&spec(map, limit))
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
        let medians = match time_map(&prepared, traces.as_deref(), queues, rounds, &bar) {
            Ok(medians) => medians,
            Err(code) => {
                bar.finish_and_clear();
                return Ok(code);
            }
        };
        let expansions = medians.first().map_or(0.0, |m| m.2);
        let medians: Vec<(String, f64)> = medians.into_iter().map(|(l, t, _)| (l, t)).collect();
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

/// The workload of a map's problems (at most `limit`, spread over its scenario) searched as
/// the lab's real-map workloads do: octile A\* with fine costs and the flat store.
fn spec(map: &Path, limit: Option<usize>) -> WorkloadSpec {
    WorkloadSpec {
        source: Source::MovingAi {
            map: map.to_path_buf(),
            sample: limit.map_or(Sample::All, Sample::Spread),
        },
        series: Series::OCTILE,
        role: Role::Real,
        replay: false,
    }
}

/// Checks and times on `prepared`, in this order, pqlab's A\* with each of `queues`, the
/// oracle (where its `traces` fit) and the peers' A\*, every one in full for `rounds`
/// rounds: each one's label, median time per search and mean expansions per search; or
/// the exit status when one cannot be timed.
fn time_map(
    prepared: &Prepared,
    traces: Option<&[Trace]>,
    queues: &[&'static Entry],
    rounds: u32,
    bar: &ProgressBar,
) -> Result<Vec<(String, f64, f64)>, ExitCode> {
    let facts = search_facts(prepared, "compared");
    let mut timing = OnDemand::new(facts, "-compare", Racing::Off);
    timing.check_searches(prepared, queues);
    timing.check_floor_and_peers(prepared, traces);
    if let Some(code) = refused(timing.untimed()) {
        return Err(code);
    }
    bar.set_message(format!(
        "maps: timing {} rounds on {}, about {:.0} s",
        rounds,
        prepared.instance.name,
        (timing.round() * rounds).as_secs_f64()
    ));
    timing.time(rounds);
    bar.inc(1);
    Ok(timing.finish().iter().map(|r| (label(r), r.median_ns, r.expansions)).collect())
}

/// `compare`'s label of a row: `pqlab (ID)` for pqlab's A\* with a queue, the oracle's, or
/// the peer's id.
fn label(row: &Row) -> String {
    match row.kind {
        Kind::Oracle => ORACLE_LABEL.to_owned(),
        Kind::Peer => row.queue.clone(),
        _ => format!("pqlab ({})", row.queue),
    }
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

/// Says why each of `untimed` was not timed and gives the exit status, if any was not: 1
/// for a wrong answer (the scenario's or the search's), 2 when one cannot search these
/// maps at all.
fn refused(untimed: &[Row]) -> Option<ExitCode> {
    let mut code = None;
    for row in untimed {
        if row.status == Status::Failed {
            eprintln!("pqlab: FAILED {}: {}", label(row), row.note);
            code = Some(ExitCode::FAILURE);
        } else {
            eprintln!("pqlab: {} cannot be compared here: {}", label(row), row.note);
            code = code.or(Some(ExitCode::from(2)));
        }
    }
    code
}
