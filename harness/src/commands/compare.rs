//! `pqlab compare`: pqlab's A* with some queues against the `pathfinding` and `petgraph`
//! crates' A* on the same problems, every cost checked, timed in interleaved rounds by the
//! lab's own sampler (so the lab's peer rows are the same measurement); per map, and as a
//! geometric mean over maps. Beside them, the oracle floor: pqlab's A* replaying std's
//! recorded pops, a frontier that costs nothing, so `pathfinding ÷ oracle` is the most any
//! queue could reach. A progress bar on stderr counts the maps and says what is running.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use pqlab_queues::registry::{self, Entry};

use crate::analysis::geomean;
use crate::format::ratio;
use crate::lab::sampler::{interleave, Plan, Shuffler};
use crate::lab::searches::{
    check_oracle, check_peer, record_within, CheckQueue, Prepared, Untimed,
};
use crate::lab::suites::{Role, Source, Suite};
use crate::maps::grid::CostScale;
use crate::maps::instance::Sample;
use crate::results::quantile;
use crate::say;
use crate::search::heuristic::HeuristicKind;
use crate::search::peers::{PathfindingAstar, Peer, PetgraphAstar};
use crate::search::store::StoreKind;

/// The most memory the oracle's recorded pops may hold on one map: 1 GiB, so that
/// `compare` fits an 8 GB laptop beside its maps (a whole 1024² scenario's traces, at
/// about 3.5 MB a problem, need about 13 GB on `NewYork_0_1024`). Past it the map is
/// compared without the oracle, and says so.
const ORACLE_TRACE_BYTES: usize = 1 << 30;

/// Compares on every map of `maps`.
pub fn compare(
    maps: &[PathBuf],
    queues: &[&'static Entry],
    limit: Option<usize>,
    rounds: u32,
) -> Result<ExitCode> {
    let mut ratios: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let bar = super::progress(maps.len() as u64, "maps");
    for map in maps {
        bar.set_message(format!("maps: checking on {}", map.display()));
        let suite = Suite {
            source: Source::MovingAi {
                map: map.clone(),
                sample: limit.map_or(Sample::All, Sample::Spread),
            },
            setup: crate::search::Setup::GRID_ASTAR,
            heuristic: HeuristicKind::Octile,
            scale: CostScale::FINE,
            store: StoreKind::Flat,
            role: Role::Real,
            replay: false,
        };
        let prepared =
            Prepared::new(&suite).with_context(|| format!("loading {}", map.display()))?;
        let searches = prepared.instance.problems.len() as u64;
        let traces = record_within::<pqlab_queues::std_binary_heap::StdBinaryHeap>(
            &prepared,
            ORACLE_TRACE_BYTES,
        )
        .map_err(|why| anyhow::anyhow!("recording on {}: {why}", prepared.instance.name))?;
        if traces.is_none() {
            bar.suspend(|| {
                say!(
                    "{}: the oracle floor is left out: its recorded pops would hold more than {} MiB (give --limit)",
                    prepared.instance.name,
                    ORACLE_TRACE_BYTES >> 20
                )
            });
        }
        let mut entrants = Vec::new();
        let mut expansions = 0.0;
        for entry in queues {
            let check = match registry::visit(
                entry.id,
                CheckQueue { prepared: &prepared, limit: Duration::MAX },
            )
            .expect("registered")
            {
                Ok(check) => check,
                Err(why) => {
                    bar.finish_and_clear();
                    return Ok(untimed(entry.id, &why));
                }
            };
            if expansions == 0.0 {
                expansions = check.counters.iter().map(|c| c.expansions as f64).sum::<f64>()
                    / searches.max(1) as f64;
            }
            entrants.push(check.entrant(format!("pqlab ({})", entry.id), searches));
        }
        // After the queues, in this order: the oracle (where its traces fit), pathfinding,
        // petgraph.
        let oracle = traces
            .as_deref()
            .map(|t| ("oracle floor (no frontier cost)", check_oracle(&prepared, t)));
        let pathfinding_at = queues.len() + usize::from(oracle.is_some());
        for (id, check) in oracle.into_iter().chain([
            (PathfindingAstar::ID, check_peer::<PathfindingAstar>(&prepared, Duration::MAX)),
            (PetgraphAstar::ID, check_peer::<PetgraphAstar>(&prepared, Duration::MAX)),
        ]) {
            let check = match check {
                Ok(check) => check,
                Err(why) => {
                    bar.finish_and_clear();
                    return Ok(untimed(id, &why));
                }
            };
            entrants.push(check.entrant(id, searches));
        }
        let plan = Plan {
            sample: Duration::from_millis(20),
            budget: Duration::ZERO,
            min_rounds: rounds,
            max_rounds: rounds,
        };
        let reps: Vec<u32> = entrants.iter().map(|e| plan.reps(e.pass)).collect();
        let round: Duration = entrants.iter().zip(&reps).map(|(e, &r)| e.pass * r).sum();
        bar.set_message(format!(
            "maps: timing {} rounds on {}, about {:.0} s",
            rounds,
            prepared.instance.name,
            (round * rounds).as_secs_f64()
        ));
        let samples =
            interleave(&mut entrants, &reps, rounds, &mut Shuffler::for_workload(&suite.name()));
        let medians: Vec<f64> = samples.iter().map(|s| quantile(&s.cpu, 0.5)).collect();
        bar.inc(1);
        bar.suspend(|| say!(
            "{}: {} problems, {} interleaved rounds, {:.0} expansions per search; thread CPU time per search (median of the rounds):",
            prepared.instance.name,
            searches,
            rounds,
            expansions
        ));
        let pathfinding = medians[pathfinding_at];
        for (entrant, &median) in entrants.iter().zip(&medians) {
            bar.suspend(|| {
                say!(
                    "  {:<36} {:>10.1} us {:>8.1} ns per expansion   pathfinding ÷ this: {}",
                    entrant.label,
                    median / 1e3,
                    median / expansions.max(1.0),
                    ratio(pathfinding / median)
                )
            });
        }
        for (i, (entrant, &median)) in entrants.iter().zip(&medians).enumerate() {
            if i != pathfinding_at {
                ratios.entry(entrant.label.clone()).or_default().push(pathfinding / median);
            }
        }
    }
    bar.finish_and_clear();
    if maps.len() > 1 {
        say!(
            "\ngeometric mean over {} maps of the pathfinding crate's time ÷ each one's:",
            maps.len()
        );
        for (label, r) in &ratios {
            let over = if r.len() < maps.len() {
                format!(" (over {} maps)", r.len())
            } else {
                String::new()
            };
            say!("  {label:<36} {}{over}", ratio(geomean(r.iter().copied())));
        }
    }
    Ok(ExitCode::SUCCESS)
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
