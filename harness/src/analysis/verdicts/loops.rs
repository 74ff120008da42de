//! Claims about the search itself rather than its queue: fringe search instead of an OPEN
//! set, breadth-first search on unit-cost grids, and Manhattan distance on 8 moves.
//!
//! Fringe search and BFS are timed in the same rounds as the queues, as rows of their own
//! kind (`loop`) beside each A\* workload; [`Run::with_loops`] puts them back in one workload, so a
//! loop and a queue are compared round by round like two queues.

use std::cmp::Ordering;

use pqlab_queues::registry::BASELINE;

use super::{best, compare, ratio_of, Outcome, Verdict};
use crate::analysis::bands::series;
use crate::analysis::rank::versus_across;
use crate::analysis::{Findings, Run, Workload};
use crate::format::{plural, ratio};
use crate::maps::grid::{Connectivity, CostScale};
use crate::search::bfs::Bfs;
use crate::search::fringe::Fringe;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::Series;
use crate::search::Setup;

/// The series' workloads where `id` has evidence, each with its loop rows: a measurement,
/// or a cut-off's censored bound (the loop takes at least that multiple of the baseline's
/// time there), never dropped.
fn with_loop<'a>(run: &Run<'a>, selection: &Series, id: &str) -> Vec<Workload<'a>> {
    run.workloads
        .iter()
        .filter(|w| selection.admits(w))
        .filter_map(|w| run.with_loops(w))
        .filter(|w| w.timing(id).is_some())
        .collect()
}

/// A unit-cost grid series: `moves` with `heuristic`.
fn unit(moves: Connectivity, heuristic: HeuristicKind) -> Series {
    Series {
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
            ratio_of(&v),
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

/// "Fringe search beats A\* with a heap on grids": the seeds only suggest "processing
/// nodes in batches, as fringe search does"; the claim is Björnsson, Enzenberger, Holte
/// and Schaeffer's (2005), who report it 10–40% faster than a tuned A\* on game maps.
/// Fringe search against pqlab's A\* with std's BinaryHeap, the heap the sentence means,
/// on every series where fringe search ran (each cost scale the lab runs), reported one
/// by one: holds when it is faster beyond the margin on every series, fails when on none.
pub fn fringe_beats_astar(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let (mut faster_series, mut measured, mut total) = (0, Vec::new(), 0);
    let mut details = Vec::new();
    for selection in series(run) {
        let workloads = with_loop(run, &selection, Fringe::ID);
        let refs: Vec<&Workload<'_>> = workloads.iter().collect();
        let Some((v, sentence)) = compare(&refs, Fringe::ID, BASELINE) else { continue };
        let (faster, slower, lines) = per_workload(&workloads, Fringe::ID);
        faster_series += usize::from(v.faster());
        total += workloads.len();
        let described = selection.describe();
        measured.push(format!("{described}: {}", ratio_of(&v)));
        details.push(format!(
            "{described}: {sentence}; faster on {faster}, slower on {slower}, of {}.",
            plural(workloads.len(), "workload")
        ));
        if let Some(best) = best(&refs, |_| true) {
            if let Some((_, against_best)) = compare(&refs, Fringe::ID, best) {
                details.push(format!("{described}, against the best queue: {against_best}."));
            }
        }
        details.extend(lines);
    }
    if measured.is_empty() {
        return Verdict::unmeasured("Fringe search was not timed on any series.");
    }
    let outcome = match faster_series {
        0 => Outcome::Fails,
        n if n == measured.len() => Outcome::Holds,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "Fringe search against A* with `{BASELINE}`, series by series: {}; faster beyond the tie margin on {faster_series} of {} series.",
        measured.join("; "),
        measured.len()
    );
    Verdict::new(outcome, summary, details, total)
}

/// BFS against A\* with std's BinaryHeap on one unit-cost series: the comparison, the
/// workloads where BFS is faster (with what A\* saves there: BFS's expansions over A\*'s,
/// unknown where BFS was cut off, and the map kind), those where it is slower, and one
/// line each.
struct BfsSeries<'a> {
    sentence: String,
    workloads: usize,
    wins: Vec<(Option<f64>, &'a str)>,
    losses: Vec<Option<f64>>,
    details: Vec<String>,
}

impl BfsSeries<'_> {
    /// Whether BFS is faster only where A\* saves least: each workload where it is faster
    /// saves less than every one where it is slower (none faster: vacuously so).
    fn only_where_little(&self) -> bool {
        let least = self.losses.iter().flatten().copied().fold(f64::INFINITY, f64::min);
        self.wins.iter().all(|(saves, _)| saves.is_some_and(|s| s < least))
    }
}

fn bfs_series<'a>(run: &Run<'a>, selection: &Series) -> Option<BfsSeries<'a>> {
    let workloads = with_loop(run, selection, Bfs::ID);
    let refs: Vec<&Workload<'_>> = workloads.iter().collect();
    let (_, sentence) = compare(&refs, Bfs::ID, BASELINE)?;
    let described = selection.describe();
    let (mut wins, mut losses, mut details) = (Vec::new(), Vec::new(), Vec::new());
    if let Some(best) = best(&refs, |_| true) {
        if let Some((_, against_best)) = compare(&refs, Bfs::ID, best) {
            details.push(format!("{described}, against A* with the best queue: {against_best}."));
        }
    }
    for w in &workloads {
        let Some((v, _)) = compare(&[w], Bfs::ID, BASELINE) else { continue };
        let saves = w.ok(Bfs::ID).zip(w.ok(BASELINE)).map(|(b, a)| b.expansions / a.expansions);
        if v.faster() {
            let facts: &'a crate::results::Row = w.facts;
            wins.push((saves, facts.map_kind.as_str()));
        } else if v.slower() {
            losses.push(saves);
        }
        details.push(format!(
            "{} ({:.0} open cells): bfs takes {} the time of A* with `{BASELINE}`, {}; {}.",
            w.name,
            w.size,
            ratio_of(&v),
            if v.faster() {
                "faster"
            } else if v.slower() {
                "slower"
            } else {
                "tied"
            },
            saves.map_or("A* saves an unmeasured share (BFS cut off)".to_owned(), |s| format!(
                "BFS expands {} the cells A* does",
                ratio(s)
            ))
        ));
    }
    let sentence = format!("{described}: {sentence}");
    Some(BfsSeries { sentence, workloads: workloads.len(), wins, losses, details })
}

/// "In most game maps, exploring fewer nodes is worth the slowdown from the other
/// algorithms. There are some maps though where you don't save much, and it might be
/// better to use Breadth First Search" (Red Blob): on both unit-cost series, 4 moves
/// (A\* with Manhattan distance) and 8 moves (A\* with Chebyshev), BFS against A\* with
/// std's BinaryHeap, the search it would replace, beside what A\* saves there (BFS's
/// expansions ÷ A\*'s). Both halves of the sentence: A\* is faster on most workloads of
/// the two series, and in each series the workloads where BFS is faster are those where
/// A\* saves least. Both hold: holds; neither: fails. A cut-off BFS counts as slower.
pub fn bfs_is_enough(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let measured: Vec<BfsSeries<'_>> = [
        unit(Connectivity::Four, HeuristicKind::Manhattan),
        unit(Connectivity::Eight, HeuristicKind::Chebyshev),
    ]
    .iter()
    .filter_map(|selection| bfs_series(run, selection))
    .collect();
    if measured.is_empty() {
        return Verdict::unmeasured("BFS was not timed on a unit-cost workload.");
    }
    let workloads: usize = measured.iter().map(|m| m.workloads).sum();
    let losses: usize = measured.iter().map(|m| m.losses.len()).sum();
    let wins: usize = measured.iter().map(|m| m.wins.len()).sum();
    let most = 2 * losses > workloads;
    let only_where_little = wins > 0 && measured.iter().all(BfsSeries::only_where_little);
    let outcome = match (most, only_where_little) {
        (true, true) => Outcome::Holds,
        (false, false) => Outcome::Fails,
        _ => Outcome::Partly,
    };
    let mut kinds: Vec<&str> =
        measured.iter().flat_map(|m| m.wins.iter().map(|(_, kind)| *kind)).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let sentences: Vec<&str> = measured.iter().map(|m| m.sentence.as_str()).collect();
    let summary = format!(
        "{}; A* is faster on {losses} of {}; BFS is faster on {} ({}), {} where A* saves least in its series.",
        sentences.join("; "),
        plural(workloads, "workload"),
        plural(wins, "workload"),
        if kinds.is_empty() {
            "none".to_owned()
        } else {
            format!("map kinds: {}", kinds.join(", "))
        },
        if only_where_little { "each" } else { "not each" },
    );
    let details = measured.into_iter().flat_map(|m| m.details).collect();
    Verdict::new(outcome, summary, details, workloads)
}

/// The speed-up the roguelike log measured from Manhattan distance on 8 moves: "2.76 ±
/// 0.13 times faster", its paths a little longer. Map by map on 8-connected unit-cost
/// grids, std's BinaryHeap with Chebyshev (exact) over the same heap with Manhattan
/// (inadmissible) on the same problems, with its 95% interval; the maps pooled decide
/// ([`super::pooled_rule`]: partly when a map shows Manhattan slower), at the log's own
/// figure: faster with an interval wholly below 2.76 − 0.13× is partly. The paths' excess
/// is reported beside it.
pub fn manhattan_on_eight_moves(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let exact = unit(Connectivity::Eight, HeuristicKind::Chebyshev);
    let trick = unit(Connectivity::Eight, HeuristicKind::Manhattan);
    let (mut holds, mut reaches, mut maps, mut details, mut excess) =
        (0, 0, 0, Vec::new(), Vec::new());
    let (mut pairs, mut parts) = (Vec::new(), Vec::new());
    for c in run.workloads.iter().filter(|w| exact.admits(w)) {
        let Some(m) = run.workloads.iter().find(|m| trick.admits(m) && m.facts.map == c.facts.map)
        else {
            continue;
        };
        let (Some(time_c), Some(time_m)) = (c.timing(BASELINE), m.timing(BASELINE)) else {
            continue;
        };
        let (Some(base_c), Some(base_m)) = (c.ok(BASELINE), m.ok(BASELINE)) else { continue };
        let Some(v) = versus_across(&[(time_c, time_m)], "chebyshev", "manhattan") else {
            continue;
        };
        maps += 1;
        pairs.push((time_c, time_m));
        parts.push(v.beyond_margin());
        // `v` is Chebyshev's time over Manhattan's: the speed-up, slower beyond the margin
        // meaning Manhattan is faster.
        holds += usize::from(v.slower());
        reaches += usize::from(v.ratio.high >= LOG_SPEEDUP.0 - LOG_SPEEDUP.1);
        let (mean, max) = (base_m.excess_mean.unwrap_or(0.0), base_m.excess_max.unwrap_or(0.0));
        excess.push(mean);
        details.push(format!(
            "{}: Manhattan speeds `{BASELINE}` up {} (95% interval {}–{}) and cuts its expansions {}, with paths {:.2}% longer on average ({:.2}% at worst).",
            c.facts.map,
            ratio(v.ratio.mid),
            ratio(v.ratio.low),
            ratio(v.ratio.high),
            ratio(base_c.expansions / base_m.expansions.max(1.0)),
            100.0 * mean,
            100.0 * max,
        ));
    }
    let Some(pooled) = versus_across(&pairs, "chebyshev", "manhattan") else {
        return Verdict::unmeasured(
            "No 8-connected unit-cost map was searched with both Chebyshev and Manhattan.",
        );
    };
    // Each map's two sides come from two workloads, not timed in the same rounds: a map
    // alone cannot make the verdict partly by a tie, the maps pooled decide. At the log's
    // own figure: faster, but with an interval wholly below its 2.76 ± 0.13×, partly.
    let faster = super::pooled_rule(Ordering::Greater, &pooled, parts);
    let as_much = pooled.ratio.high >= LOG_SPEEDUP.0 - LOG_SPEEDUP.1;
    let outcome = if faster == Outcome::Holds && !as_much { Outcome::Partly } else { faster };
    let summary = format!(
        "Over the maps pooled, Manhattan speeds std's heap up {} ({}): {} the log's {}× (the interval reaching {}×); beyond the tie margin on {holds} of {}, and as much as the log's on {reaches}; paths are {:.2}%–{:.2}% longer on average, map by map.",
        ratio_of(&pooled),
        super::evidence(&pooled),
        if as_much { "as much as" } else { "less than" },
        LOG_SPEEDUP.0,
        LOG_SPEEDUP.0 - LOG_SPEEDUP.1,
        plural(maps, "map"),
        100.0 * excess.iter().copied().fold(f64::INFINITY, f64::min),
        100.0 * excess.iter().copied().fold(0.0, f64::max)
    );
    Verdict::new(outcome, summary, details, maps)
}

/// The roguelike log's measured speed-up from Manhattan on 8 moves, and its ± spread.
const LOG_SPEEDUP: (f64, f64) = (2.76, 0.13);

/// "I believe (but don't know for sure) that some already-visited elements may need to be
/// visited again even after they've been taken out of the frontier" (Red Blob, of an
/// inadmissible heuristic): over the A\* workloads whose heuristic is not consistent on
/// their moves (Manhattan on 8 moves, weighted octile), whether std's BinaryHeap's searches
/// expanded a closed cell again (the `reopenings` counter). "May need to" holds where one
/// workload shows it and fails where none does; the consistent heuristics, where an exact
/// queue reopens nothing, are the control beside it. The counts are exact: no interval.
pub fn reopenings_under_inadmissible(findings: &Findings<'_, '_>) -> Verdict {
    let (mut inconsistent, mut consistent) = (Vec::new(), Vec::new());
    for w in findings.run.of(crate::results::Kind::Astar) {
        let (Some(h), Some(row)) = (w.heuristic(), w.ok(BASELINE)) else { continue };
        let moves = w.facts.setup().and_then(|s| s.moves).unwrap_or(Connectivity::Eight);
        let side = if h.consistent_on(moves) { &mut consistent } else { &mut inconsistent };
        side.push((row.reopenings, row.expansions));
    }
    if inconsistent.is_empty() {
        return Verdict::unmeasured("No A* workload searched with an inconsistent heuristic.");
    }
    // How many workloads reopened a cell, and the reopenings' share of the expansions.
    let share = |rows: &[(f64, f64)]| {
        let reopened = rows.iter().filter(|(r, _)| *r > 0.0).count();
        let pooled =
            rows.iter().map(|p| p.0).sum::<f64>() / rows.iter().map(|p| p.1).sum::<f64>().max(1.0);
        (reopened, pooled)
    };
    let (reopened, pooled) = share(&inconsistent);
    let outcome = if reopened > 0 { Outcome::Holds } else { Outcome::Fails };
    let control = (!consistent.is_empty()).then(|| {
        let (n, p) = share(&consistent);
        format!(
            " Under consistent heuristics it reopened cells on {n} of {} ({:.2}% of its expansions).",
            plural(consistent.len(), "workload"),
            100.0 * p
        )
    });
    let summary = format!(
        "With an inconsistent heuristic (Manhattan on 8 moves, weighted octile), `{BASELINE}`'s searches expanded closed cells again on {reopened} of {} ({:.2}% of their expansions were reopenings).{}",
        plural(inconsistent.len(), "workload"),
        100.0 * pooled,
        control.unwrap_or_default()
    );
    Verdict::new(outcome, summary, Vec::new(), inconsistent.len())
}
