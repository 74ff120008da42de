//! Claims about the search itself rather than its queue: fringe search instead of an OPEN
//! set, breadth-first search on unit-cost grids, and Manhattan distance on 8 moves.
//!
//! Fringe search and BFS are timed in the same rounds as the queues, as rows of their own
//! kind (`loop`) beside each A\* workload; [`beside`] puts them back in one workload, so a
//! loop and a queue are compared round by round like two queues.

use pqlab_queues::registry::BASELINE;

use super::{best, compare, Outcome, Verdict};
use crate::analysis::bands::Selection;
use crate::analysis::{Findings, Run, Workload};
use crate::format::{plural, ratio};
use crate::maps::grid::{Connectivity, CostScale};
use crate::results::Kind;
use crate::search::bfs::Bfs;
use crate::search::fringe::Fringe;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::Setup;

/// `w` with the rows of its `loop` twin (fringe search, BFS), measured in the same rounds.
fn beside<'a>(run: &Run<'a>, w: &Workload<'a>) -> Option<Workload<'a>> {
    let loops = run.twin(w, Kind::Loop)?;
    let mut merged = w.clone();
    merged.rows.extend(loops.rows.iter().map(|(k, v)| (*k, *v)));
    Some(merged)
}

/// The series' workloads where `id` was measured, each with its loop rows.
fn with_loop<'a>(run: &Run<'a>, selection: &Selection, id: &str) -> Vec<Workload<'a>> {
    run.workloads
        .iter()
        .filter(|w| selection.admits(w))
        .filter_map(|w| beside(run, w))
        .filter(|w| w.ok(id).is_some())
        .collect()
}

/// A unit-cost grid series: `moves` with `heuristic`.
fn unit(moves: Connectivity, heuristic: HeuristicKind) -> Selection {
    Selection {
        setup: Setup { moves: Some(moves), ..Setup::GRID_ASTAR },
        heuristic,
        scale: CostScale::UNIT,
        store: StoreKind::Flat,
    }
}

/// How a loop fares against A\* with std's heap, workload by workload: faster, tied or
/// slower beyond the tie margin, and the sizes where it is faster.
fn per_workload(workloads: &[Workload<'_>], id: &str) -> (usize, usize, Vec<String>) {
    let (mut faster, mut slower, mut lines) = (0, 0, Vec::new());
    for w in workloads {
        let Some((v, _)) = compare(&[w], id, BASELINE) else { continue };
        faster += usize::from(v.faster());
        slower += usize::from(v.slower());
        lines.push(format!(
            "{} ({:.0} open cells): {} takes {} the time of A* with `{BASELINE}`{}.",
            w.name,
            w.size,
            id,
            ratio(v.ratio.mid),
            if v.faster() {
                ", faster"
            } else if v.slower() {
                ", slower"
            } else {
                ", tied"
            }
        ));
    }
    (faster, slower, lines)
}

/// "Fringe search beats A\* with a heap on grids" (Björnsson et al. 2005 report it 10–40%
/// faster than a tuned A\* on game maps): fringe search against pqlab's A\* with std's
/// BinaryHeap, the heap the sentence means, on the octile A\* workloads; the best queue is
/// the second comparator.
pub fn fringe_beats_astar(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    const CLAIM: &str = "fringe search beats A* with a heap on grids";
    let workloads = with_loop(run, &Selection::OCTILE, Fringe::ID);
    let refs: Vec<&Workload<'_>> = workloads.iter().collect();
    let Some((v, sentence)) = compare(&refs, Fringe::ID, BASELINE) else {
        return Verdict::unmeasured(CLAIM, "Fringe search was not timed on an octile workload.");
    };
    let (faster, slower, mut details) = per_workload(&workloads, Fringe::ID);
    if let Some(best) = best(&refs, |_| true) {
        if let Some((_, against_best)) = compare(&refs, Fringe::ID, best) {
            details.insert(0, format!("Against the best queue: {against_best}."));
        }
    }
    let outcome = match (faster, slower) {
        (_, 0) if v.faster() => Outcome::Holds,
        (0, _) => Outcome::Fails,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "{sentence}; it is faster on {faster}, slower on {slower}, of {}.",
        plural(workloads.len(), "workload")
    );
    Verdict { claim: CLAIM, asks: "", outcome, summary, details, workloads: workloads.len() }
}

/// "BFS is enough on unit-cost 4-connected maps" (Red Blob: on some maps a breadth-first
/// search is all you need): BFS against A\* with Manhattan distance and std's BinaryHeap,
/// the search it would replace, on 4-connected unit-cost workloads; the best queue is the
/// second comparator.
pub fn bfs_is_enough(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    const CLAIM: &str = "BFS is enough on unit-cost 4-connected maps";
    let workloads = with_loop(run, &unit(Connectivity::Four, HeuristicKind::Manhattan), Bfs::ID);
    let refs: Vec<&Workload<'_>> = workloads.iter().collect();
    let Some((_, sentence)) = compare(&refs, Bfs::ID, BASELINE) else {
        return Verdict::unmeasured(
            CLAIM,
            "BFS was not timed on a 4-connected unit-cost workload.",
        );
    };
    let (faster, slower, mut details) = per_workload(&workloads, Bfs::ID);
    if let Some(best) = best(&refs, |_| true) {
        if let Some((_, against_best)) = compare(&refs, Bfs::ID, best) {
            details.insert(0, format!("Against A* with the best queue: {against_best}."));
        }
    }
    let expands: Vec<f64> = workloads
        .iter()
        .filter_map(|w| Some(w.ok(Bfs::ID)?.expansions / w.ok(BASELINE)?.expansions))
        .collect();
    if !expands.is_empty() {
        details.push(format!(
            "BFS expands {} the cells A* does (geometric mean): it pays for a wider search with a FIFO's cheaper steps.",
            ratio(crate::analysis::geomean(expands))
        ));
    }
    // "Enough": no slower than the A* it replaces, beyond the tie margin.
    let outcome = match slower {
        0 => Outcome::Holds,
        n if n == workloads.len() => Outcome::Fails,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "{sentence}; it is faster on {faster}, slower on {slower}, of {}.",
        plural(workloads.len(), "workload")
    );
    Verdict { claim: CLAIM, asks: "", outcome, summary, details, workloads: workloads.len() }
}

/// "Manhattan on 8 moves is the cheapest speed-up" (the roguelike log measured 2.76× from
/// it): on 8-connected unit-cost maps, std's BinaryHeap with Manhattan distance (an
/// inadmissible estimate) against the same heap with Chebyshev (the exact one) on the
/// same problems, beside the gain the best queue buys under Chebyshev, with the longer
/// paths it costs.
pub fn manhattan_on_eight_moves(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    const CLAIM: &str = "Manhattan on 8 moves is the cheapest speed-up";
    let exact = unit(Connectivity::Eight, HeuristicKind::Chebyshev);
    let trick = unit(Connectivity::Eight, HeuristicKind::Manhattan);
    let (mut holds, mut maps, mut details, mut excess) = (0, 0, Vec::new(), Vec::new());
    for c in run.workloads.iter().filter(|w| exact.admits(w)) {
        let Some(m) = run.workloads.iter().find(|m| trick.admits(m) && m.facts.map == c.facts.map)
        else {
            continue;
        };
        let (Some(base_c), Some(base_m)) = (c.ok(BASELINE), m.ok(BASELINE)) else { continue };
        let Some(best) = best(&[c], |_| true) else { continue };
        let Some(best_row) = c.ok(best) else { continue };
        let heuristic_gain = base_c.median_ns / base_m.median_ns;
        let queue_gain = base_c.median_ns / best_row.median_ns;
        maps += 1;
        holds += usize::from(heuristic_gain > queue_gain);
        let (mean, max) = (base_m.excess_mean.unwrap_or(0.0), base_m.excess_max.unwrap_or(0.0));
        excess.push(max);
        details.push(format!(
            "{}: Manhattan cuts `{BASELINE}`'s time {} and its expansions {}, with paths {:.2}% longer on average ({:.2}% at worst); the best queue under Chebyshev, `{best}`, cuts the time {}.",
            c.facts.map,
            ratio(heuristic_gain),
            ratio(base_c.expansions / base_m.expansions.max(1.0)),
            100.0 * mean,
            100.0 * max,
            ratio(queue_gain),
        ));
    }
    if maps == 0 {
        return Verdict::unmeasured(
            CLAIM,
            "No 8-connected unit-cost map was searched with both Chebyshev and Manhattan.",
        );
    }
    let outcome = match holds {
        0 => Outcome::Fails,
        n if n == maps => Outcome::Holds,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "On {holds} of {}, switching std's heap from Chebyshev to Manhattan saves more time than the best queue does under Chebyshev; its paths are up to {:.1}% longer.",
        plural(maps, "map"),
        100.0 * excess.iter().copied().fold(0.0, f64::max)
    );
    Verdict { claim: CLAIM, asks: "", outcome, summary, details, workloads: maps }
}
