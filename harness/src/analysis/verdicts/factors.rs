//! Claims about what surrounds the queue: membership through a hash table, approximate
//! order against weighted A*, a better heuristic against a better queue, Dijkstra against
//! A*, integer costs against floats, jump point search against A\*, and a cached heuristic.

use std::cmp::Ordering;

use pqlab_queues::registry::BASELINE;

use super::{evidence, evidence_over, ratio_of, Outcome, Verdict};
use crate::analysis::bands::Eligible;
use crate::analysis::rank::{versus, versus_across, Versus, TIE_MARGIN};
use crate::analysis::trades::{Trade, Way};
use crate::analysis::{geomean, Findings, Run, Timing, Workload};
use crate::format::{count, plural, ratio};
use crate::maps::generate::MapSpec;
use crate::maps::grid::{Connectivity, CostKind};
use crate::maps::TerrainKind;
use crate::results::Kind;
use crate::search::heuristic::HeuristicKind;
use crate::search::peers::{PathfindingAstar, Peer};
use crate::search::store::StoreKind;
use crate::search::Series;
use crate::search::{SearchKind, Setup};

/// A queue's time on `a` over its time on `b` (two workloads of one map).
fn across(a: &Workload<'_>, b: &Workload<'_>, queue: &str) -> Option<f64> {
    Some(a.ok(queue)?.median_ns / b.ok(queue)?.median_ns)
}

/// "Hash tables perform similarly to indexed arrays, but they can take up a lot less memory
/// in the common case": two halves. Time: the comparator the seeds mean is an indexed array
/// reset every search (the stamped flat array, which clears nothing, where that was not
/// run), every queue on the same problems, pooled by the 95% interval ([`versus_across`],
/// a cut-off counting as its bound); "similarly" holds when the hash table is not slower
/// beyond the tie margin, is undecided when its ratio leans slower but the interval does
/// not show it. Memory: "a lot less" holds when the baseline's search held at most half
/// the bytes with FxHashMap as with the flat array on the largest map counted. Both halves:
/// holds; neither: fails; one: partly.
pub fn hash_table_membership(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let mut details = Vec::new();
    let mut workloads = 0;
    let mut against = |store: StoreKind, base: StoreKind, details: &mut Vec<String>| {
        let (v, n, line) = stores(run, store, base)?;
        workloads += if base == StoreKind::Flat { n } else { 0 };
        details.push(line);
        Some(v)
    };
    let mut fx = None;
    for store in StoreKind::ALTERNATIVES {
        let v = against(store, StoreKind::Flat, &mut details);
        if store == StoreKind::FxHash {
            fx = v;
        }
    }
    let fx_cleared = against(StoreKind::FxHash, StoreKind::Cleared, &mut details);
    let Some(fx) = fx else {
        return Verdict::unmeasured("No workload was searched with a hash-table store.");
    };
    let memory = store_memory(run);
    details.extend(memory.iter().map(|m| m.sentence()));
    details.extend(pathfinding_gap(findings, &fx));
    // The seed's question: against the array it says must be cleared, when that was run.
    let (deciding, comparator) = match fx_cleared {
        Some(v) => (v, StoreKind::Cleared),
        None => (fx, StoreKind::Flat),
    };
    let similar = if !deciding.slower() && !deciding.leans(Ordering::Greater) {
        Some(true)
    } else if deciding.slower() {
        Some(false)
    } else {
        None
    };
    let largest = memory.iter().max_by_key(|m| m.cells);
    let less_memory = largest.map(StoreMemory::a_lot_less);
    let outcome = match (similar, less_memory) {
        (None, _) => Outcome::Undecided,
        (Some(true), Some(true) | None) => Outcome::Holds,
        (Some(false), Some(false) | None) => Outcome::Fails,
        _ => Outcome::Partly,
    };
    let memory_text = largest.map_or(
        " The bytes each store held were not counted: memory is not decided.".to_owned(),
        StoreMemory::sentence_of_largest,
    );
    let summary = format!(
        "A hash table (FxHashMap) for the per-cell state takes {} the time of a {comparator} ({}): {}; and {} that of a flat array with generation stamps, which clears nothing.{memory_text}",
        ratio_of(&deciding),
        evidence_over(&deciding, PAIR),
        match similar {
            Some(true) => "similar",
            Some(false) => "slower beyond the tie margin",
            None => "undecided",
        },
        ratio_of(&fx)
    );
    Verdict::new(outcome, summary, details, workloads)
}

/// How much of the `pathfinding` crate's gap a hash table explains: the crate's time over
/// pqlab's (baseline, flat) on band workloads, against FxHashMap's own ratio `fx`; `None`
/// when the crate was not timed.
fn pathfinding_gap(findings: &Findings<'_, '_>, fx: &Versus) -> Option<String> {
    let gaps: Vec<f64> = findings
        .peers()
        .iter()
        .filter(|p| p.id == PathfindingAstar::ID)
        .map(|p| p.ratio())
        .collect();
    if gaps.is_empty() {
        return None;
    }
    let gap = geomean(gaps.iter().copied());
    Some(format!(
        "The `pathfinding` crate takes {} the time of pqlab's A* with `{BASELINE}`; FxHashMap membership alone accounts for {}, {:.0}% of that gap on a log scale.",
        ratio(gap),
        ratio_of(fx),
        100.0 * fx.ratio.mid.ln() / gap.ln()
    ))
}

/// What a store or search comparison's pairs are: one queue on two sibling workloads.
const PAIR: &str = "queue-and-workload pair";

/// `store` against `base` over every queue timed on both of each pair of sibling workloads
/// (the same problems), pooled with its 95% interval ([`versus_across`]), a cut-off at its
/// bound: the comparison, the workloads with `store`, and its sentence.
fn stores(run: &Run<'_>, store: StoreKind, base: StoreKind) -> Option<(Versus, usize, String)> {
    let (mut pairs, mut workloads) = (Vec::new(), 0);
    for w in run.of(Kind::Astar).filter(|w| w.store() == Some(store)) {
        let Some(other) = w.heuristic().and_then(|h| run.sibling(w, h, base)) else { continue };
        workloads += 1;
        pairs.extend(
            w.rows.keys().filter_map(|queue| Some((w.timing(queue)?, other.timing(queue)?))),
        );
    }
    let v = versus_across(&pairs, &store.to_string(), &base.to_string())?;
    let line = format!(
        "{store}: the same queues on the same problems take {} the time of the {base} ({}).",
        ratio_of(&v),
        evidence_over(&v, PAIR)
    );
    Some((v, workloads, line))
}

/// "The last thing you will want to do in such cases is spend time zero-ing everything out
/// after a pathfinding call, especially if you have a large map.": the flat array cleared
/// every search against the stamped flat array (the article's own trick: a counter raised
/// each call, nothing cleared), every queue on the same problems, pooled by the 95% interval
/// and the tie margin ([`super::pooled_rule`]: the cleared array slower); the largest maps'
/// comparison beside it.
pub fn do_not_zero_arrays(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let Some((v, n, line)) = stores(run, StoreKind::Cleared, StoreKind::Flat) else {
        return Verdict::unmeasured(
            "No workload was searched with the flat array cleared per search.",
        );
    };
    let outcome = super::pooled_rule(Ordering::Greater, &v, []);
    let summary = format!(
        "Clearing the flat array every search takes {} the time of stamping it ({}).",
        ratio_of(&v),
        evidence_over(&v, PAIR)
    );
    Verdict::new(outcome, summary, vec![line], n)
}

/// What the baseline's search held on one map with each store (the seeds' other reason for
/// a hash table: "a lot less memory"), from the rows' `held_bytes`.
struct StoreMemory<'a> {
    map: &'a str,
    cells: u64,
    flat: f64,
    fx_hash: f64,
    others: Vec<(StoreKind, f64)>,
}

impl StoreMemory<'_> {
    fn sentence(&self) -> String {
        let others: String = self
            .others
            .iter()
            .map(|(store, b)| format!(", {} with the {store}", mebibytes(*b)))
            .collect();
        format!(
            "{} ({} cells): `{BASELINE}`'s search held {} with FxHashMap against {} with the flat array{others}.",
            self.map,
            count(self.cells as f64),
            mebibytes(self.fx_hash),
            mebibytes(self.flat)
        )
    }

    /// The memory half's sentence, of the largest map searched both ways: "a lot less"
    /// read as at most half.
    fn sentence_of_largest(&self) -> String {
        format!(
            " On the largest map searched both ways ({}, {} cells), `{BASELINE}`'s search held {} with FxHashMap against {} with the flat array: {} (\"a lot less\" read as at most half).",
            self.map,
            count(self.cells as f64),
            mebibytes(self.fx_hash),
            mebibytes(self.flat),
            if self.a_lot_less() { "a lot less" } else { "not a lot less" }
        )
    }

    /// Whether FxHashMap held at most half the flat array's bytes.
    fn a_lot_less(&self) -> bool {
        2.0 * self.fx_hash <= self.flat
    }
}

/// Every map whose FxHashMap workload and flat sibling both counted the baseline's bytes.
fn store_memory<'a>(run: &Run<'a>) -> Vec<StoreMemory<'a>> {
    let held = |w: &Workload<'_>| w.ok(BASELINE).and_then(|r| r.held_bytes);
    let mut found = Vec::new();
    for fx in run.of(Kind::Astar).filter(|w| w.store() == Some(StoreKind::FxHash)) {
        let Some(h) = fx.heuristic() else { continue };
        let sibling = |store| run.sibling(fx, h, store).filter(|s| s.units() == fx.units());
        let (Some(fx_bytes), Some(flat)) = (held(fx), sibling(StoreKind::Flat).and_then(held))
        else {
            continue;
        };
        let others = [StoreKind::Cleared, StoreKind::StdHash]
            .into_iter()
            .filter_map(|store| Some((store, sibling(store).and_then(held)?)))
            .collect();
        let cells = fx.facts.map.parse::<MapSpec>().map_or(0, |m| u64::from(m.size).pow(2));
        found.push(StoreMemory { map: &fx.facts.map, cells, flat, fx_hash: fx_bytes, others });
    }
    found
}

/// Bytes in MiB: "12.3 MiB".
fn mebibytes(bytes: f64) -> String {
    format!("{:.1} MiB", bytes / f64::from(1 << 20))
}

/// The size of one number of the landmark tables: their entries are `u32`
/// ([`Differential`](crate::search::heuristic::Differential)).
const LANDMARK_NUMBER_BYTES: f64 = 4.0;

/// "Storing the landmark data requires one number per node": on each generated uniform
/// map searched under `differential:K` and under its floor (octile on 8 moves, Manhattan on
/// 4) with the same store and scale, the baseline's `held_bytes` difference is the
/// landmark tables; divided by the padded cells (`(side + 2)²`, the grid's blocked border
/// included, as the tables are laid out) and by `K`, it is the bytes per node per landmark.
/// Rounded to whole numbers of [`LANDMARK_NUMBER_BYTES`] (the two searches' queues and
/// stores may differ by a fraction of a number per node), a map holds where that is one.
/// Weighted maps are left out: their directions differ, so the lab stores two tables per
/// landmark there. Every map: holds; some: partly; none: fails.
pub fn landmark_memory(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let held = |w: &Workload<'_>| w.ok(BASELINE).and_then(|r| r.held_bytes);
    let mut maps = Vec::new();
    for w in run.of(Kind::Astar) {
        let (Some(HeuristicKind::Differential(k)), Some(store)) = (w.heuristic(), w.store()) else {
            continue;
        };
        let floor = match w.facts.moves {
            Some(Connectivity::Four) => HeuristicKind::Manhattan,
            _ => HeuristicKind::Octile,
        };
        let (Some(TerrainKind::Uniform), Ok(spec)) = (w.terrain(), w.facts.map.parse::<MapSpec>())
        else {
            continue;
        };
        let Some((with, without)) = held(w).zip(run.sibling(w, floor, store).and_then(held)) else {
            continue;
        };
        let cells = (f64::from(spec.size) + 2.0).powi(2);
        let per = (with - without) / (cells * f64::from(k));
        let numbers = (per / LANDMARK_NUMBER_BYTES).round();
        maps.push((numbers == 1.0, format!(
            "{} ({} cells with the border, {k} landmarks): `{BASELINE}`'s search held {} more under differential:{k} than under {floor} ({} against {}), {per:.2} bytes per node per landmark, {} of {} bytes.",
            w.facts.map,
            count(cells),
            count(with - without),
            count(with),
            count(without),
            plural(numbers as usize, "number"),
            LANDMARK_NUMBER_BYTES
        )));
    }
    if maps.is_empty() {
        return Verdict::unmeasured(
            "No generated uniform map counted the baseline's bytes under both the differential heuristic and its floor.",
        );
    }
    let one = maps.iter().filter(|(one, _)| *one).count();
    let outcome = match one {
        0 => Outcome::Fails,
        n if n == maps.len() => Outcome::Holds,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "The landmark tables took one {LANDMARK_NUMBER_BYTES}-byte number per node per landmark on {one} of {}.",
        plural(maps.len(), "map")
    );
    let n = maps.len();
    Verdict::new(outcome, summary, maps.into_iter().map(|(_, line)| line).collect(), n)
}

/// "A soft heap's approximate order is a good trade for games": its time and path excess
/// against weighted A*'s, both against exact octile A* with the baseline on the same maps.
pub fn soft_heap_trade(findings: &Findings<'_, '_>) -> Verdict {
    let (soft, weighted): (Vec<&Trade<'_>>, Vec<&Trade<'_>>) =
        findings.trades().iter().partition(|t| matches!(t.way, Way::SoftHeap { .. }));
    if soft.is_empty() {
        return Verdict::unmeasured("No octile A* workload timed a soft heap.");
    }
    let details: Vec<String> = soft
        .iter()
        .chain(&weighted)
        .map(|t| {
            format!(
                "{}: takes {} the time of exact octile A* with `{BASELINE}`; paths {:.2}% longer on average, {:.2}% at worst ({}).",
                what(t),
                ratio(t.time()),
                t.excess_mean() * 100.0,
                t.excess_max() * 100.0,
                plural(t.points.len(), "workload")
            )
        })
        .collect();
    let dominated = |s: &Trade<'_>| {
        weighted.iter().any(|w| w.time() <= s.time() && w.excess_mean() <= s.excess_mean())
    };
    let good: Vec<&&Trade<'_>> = soft
        .iter()
        .filter(|s| s.time() * crate::analysis::TIE_MARGIN < 1.0 && !dominated(s))
        .collect();
    let outcome = if !good.is_empty() {
        Outcome::Holds
    } else if weighted.is_empty() {
        Outcome::Partly
    } else {
        Outcome::Fails
    };
    let summary = match good.first() {
        Some(best) => format!(
            "{} soft heap setting{} save time and no weighted A* is both faster and closer to optimal: {} takes {} the time, paths {:.2}% longer on average.",
            good.len(),
            if good.len() == 1 { "" } else { "s" },
            what(best),
            ratio(best.time()),
            best.excess_mean() * 100.0
        ),
        None => no_good_trade(&soft, &weighted),
    };
    let workloads = soft.iter().chain(&weighted).map(|t| t.points.len()).max().unwrap_or(0);
    Verdict::new(outcome, summary, details, workloads)
}

/// A way of trading, as the verdict names it.
fn what(trade: &Trade<'_>) -> String {
    match trade.way {
        Way::SoftHeap { queue, epsilon } => format!("`{queue}` (ε = {epsilon})"),
        Way::Weighted { weight } => format!("weighted A* (w = {weight}) with `{BASELINE}`"),
    }
}

/// The summary when no soft heap is a good trade: the fastest soft heap against the
/// fastest weighted A*, when one was measured.
fn no_good_trade(soft: &[&Trade<'_>], weighted: &[&Trade<'_>]) -> String {
    let s = fastest(soft).expect("a soft heap was measured");
    format!(
        "The fastest soft heap, {}, takes {} the time of exact A* with paths {:.2}% longer; {}",
        what(s),
        ratio(s.time()),
        s.excess_mean() * 100.0,
        match fastest(weighted) {
            Some(w) => format!("{} takes {} the time with paths {:.2}% longer, so weighted A* is the better trade.", what(w), ratio(w.time()), w.excess_mean() * 100.0),
            None => "no weighted A* was measured to compare.".into(),
        }
    )
}

/// The trade that takes the least time.
fn fastest<'t>(trades: &[&'t Trade<'t>]) -> Option<&'t Trade<'t>> {
    trades.iter().copied().min_by(|a, b| a.time().total_cmp(&b.time()))
}

/// "A better heuristic matters more than a better queue": map by map, std's heap with the
/// differential heuristic against the best queue under octile on the same problems (the
/// heuristic's gain over octile beats the queue's exactly when this time is lower), decided
/// by the 95% interval and the tie margin, the maps pooled ([`super::pooled_rule`]); each
/// map's standing, its frontier and its expansions (the draft's own measure) beside it.
pub fn better_heuristic_over_better_queue<'a>(findings: &Findings<'_, 'a>) -> Verdict {
    let run = findings.run;
    let (mut details, mut pairs) = (Vec::new(), Vec::new());
    let mut parts = Vec::new();
    for better in run
        .of(Kind::Astar)
        .filter(|w| matches!(w.heuristic(), Some(HeuristicKind::Differential(_))))
    {
        let Some(octile) = run.sibling(better, HeuristicKind::Octile, StoreKind::Flat) else {
            continue;
        };
        let (Some(heuristic_gain), Some(base), Some(base_better)) =
            (across(octile, better, BASELINE), octile.ok(BASELINE), better.ok(BASELINE))
        else {
            continue;
        };
        let winner = |w: &Workload<'a>| {
            let standings = findings.rank(&[w], Eligible::Exact);
            standings.first().filter(|s| s.contends).map(|s| s.queue.to_owned())
        };
        let (Some(best_octile), Some(best_better)) = (winner(octile), winner(better)) else {
            continue;
        };
        let (Some(time_better), Some(time_best)) =
            (better.timing(BASELINE), octile.timing(&best_octile))
        else {
            continue;
        };
        let heuristic = better.heuristic().map_or(String::new(), |h| h.to_string());
        let Some(v) = versus_across(&[(time_better, time_best)], &heuristic, &best_octile) else {
            continue;
        };
        let queue_gain = base.median_ns / time_best.median();
        pairs.push((time_better, time_best));
        parts.push(v.beyond_margin());
        let frontier = if better.size <= octile.size {
            format!("shrinks the frontier {}", ratio(octile.size / better.size))
        } else {
            format!("grows the frontier {}", ratio(better.size / octile.size))
        };
        let expansions = base_better.expansions / base.expansions.max(1.0);
        let standing = match v.beyond_margin() {
            Ordering::Less => "faster",
            Ordering::Equal => "tied",
            Ordering::Greater => "slower",
        };
        let best_with_better = versus(&[better], &best_better, BASELINE);
        details.push(format!(
            "{}: {heuristic} {frontier} ({:.0} to {:.0} open cells), expands {} octile's cells, and cuts `{BASELINE}`'s time {}×; the best queue under octile, `{best_octile}`, cuts it {}×. `{BASELINE}` with {heuristic} takes {} the time of `{best_octile}` with octile (95% interval {}–{}): {standing}. With the better heuristic the best queue is `{best_better}`{}.",
            better.facts.map,
            octile.size,
            better.size,
            ratio(expansions),
            ratio(heuristic_gain).trim_end_matches('×'),
            ratio(queue_gain).trim_end_matches('×'),
            ratio(v.ratio.mid),
            ratio(v.ratio.low),
            ratio(v.ratio.high),
            best_with_better.map_or(String::new(), |v| format!(", taking {} the baseline's time", ratio(v.ratio.mid)))
        ));
    }
    let Some(pooled) = versus_across(&pairs, "better heuristic", "better queue") else {
        return Verdict::unmeasured(
            "No map was searched with both octile and the differential heuristic.",
        );
    };
    // Each map's two sides come from two workloads, not timed in the same rounds: a map
    // alone cannot make the verdict partly, the maps pooled decide.
    let outcome = super::pooled_rule(Ordering::Less, &pooled, []);
    let (holds, tied, fails) = super::counted(&parts);
    let summary = format!(
        "Over the maps pooled, std's heap with the differential heuristic takes {} the time of the best queue under octile ({}); map by map it is faster beyond the tie margin on {holds} of {} (slower on {fails}, tied on {}).",
        ratio_of(&pooled),
        evidence(&pooled),
        plural(parts.len(), "map"),
        tied
    );
    let workloads = parts.len();
    Verdict::new(outcome, summary, details, workloads)
}

/// "The pure version of Dijkstra's Algorithm starts the priority queue with all nodes …":
/// each textbook Dijkstra workload against its twin, the lab's Dijkstra (the A\* with
/// `h = 0`) on the same problems, every decrease-key queue timed on both, in three parts.
/// Faster: the start-only search's time over the textbook's, every queue-and-workload pair
/// pooled ([`super::pooled_rule`], each workload pooled as a part; a cut-off is its bound).
/// Smaller: the textbook queue's peak entries over the start-only one's, larger beyond the
/// tie margin on every pair shows it, pooled alone leans (the held bytes beside). Cheap
/// inserts: of the start-only search's key updates, the share that were inserts, above
/// one half on every pair shows "most of the time". The parts decide together
/// ([`super::of_parts`]).
pub fn start_only_against_textbook(findings: &Findings<'_, '_>) -> Verdict {
    use super::folklore::{CountRatio, MOST};
    use pqlab_queues::Strategy;
    const START_ONLY: &str = "the start-only Dijkstra";
    const TEXTBOOK: &str = "the textbook Dijkstra";
    let run = findings.run;
    let (mut pairs, mut parts, mut details) = (Vec::new(), Vec::new(), Vec::new());
    let (mut entries, mut inserts, mut bytes) = (Vec::new(), Vec::new(), Vec::new());
    let textbooks =
        run.of(Kind::Astar).filter(|w| w.facts.search == Some(SearchKind::DijkstraTextbook));
    for w in textbooks {
        let Some(twin) = run.search_twin(w, SearchKind::Astar) else { continue };
        let dk = w.rows.values().filter(|r| r.strategy == Some(Strategy::DecreaseKey));
        let mut own = Vec::new();
        for row in dk {
            let q = row.queue.as_str();
            if let (Some(s), Some(t)) = (twin.timing(q), w.timing(q)) {
                own.push((s, t));
            }
            let (Some(s), Some(t)) = (twin.ok(q), w.ok(q)) else { continue };
            if s.max_frontier > 0.0 {
                entries.push((t.max_frontier, s.max_frontier));
            }
            if s.pushes + s.decrease_keys > 0.0 {
                inserts.push((s.pushes, s.pushes + s.decrease_keys));
            }
            if let (Some(sb), Some(tb)) = (s.held_bytes, t.held_bytes) {
                bytes.push((tb, sb));
            }
        }
        let Some(v) = versus_across(&own, START_ONLY, TEXTBOOK) else { continue };
        parts.push(v.beyond_margin());
        details.push(format!(
            "{}: the start-only search takes {} the time of the textbook one over {} ({}).",
            w.facts.map,
            ratio_of(&v),
            plural(own.len(), "decrease-key queue"),
            evidence_over(&v, "queue")
        ));
        pairs.extend(own);
    }
    let (Some(time), Some(entries), Some(inserts)) = (
        versus_across(&pairs, START_ONLY, TEXTBOOK),
        CountRatio::of(&entries),
        CountRatio::of(&inserts),
    ) else {
        return Verdict::unmeasured(
            "No textbook Dijkstra workload was measured beside its start-only twin with a decrease-key queue.",
        );
    };
    let outcomes = [
        super::pooled_rule(Ordering::Less, &time, parts.iter().copied()),
        entries.outcome(),
        inserts.above(MOST),
    ];
    let held = CountRatio::of(&bytes).map_or(String::new(), |b| {
        format!(", the search's held bytes {} ({})", ratio(b.pooled), b.range(PAIR))
    });
    let summary = format!(
        "The start-only Dijkstra with early exit takes {} the time of the textbook one on the same problems and decrease-key queues ({}): faster {}; the textbook queue peaks at {} its entries ({}{held}): smaller {}; inserts are {:.1}% of the start-only search's key updates ({:.1}–{:.1}% across {}): most of the time {}.",
        ratio_of(&time),
        evidence_over(&time, PAIR),
        outcomes[0],
        ratio(entries.pooled),
        entries.range(PAIR),
        outcomes[1],
        100.0 * inserts.pooled,
        100.0 * inserts.low,
        100.0 * inserts.high,
        plural(inserts.n, PAIR),
        outcomes[2]
    );
    Verdict::new(super::of_parts(&outcomes), summary, details, parts.len())
}

/// "Dijkstra's usually ends up exploring a much larger area … This generally makes it
/// slower than A\*": the heuristic alone changed. Map by map (a Dijkstra workload and the
/// octile A\* workload searching the same problems, [`Run::sibling`] with as many
/// searches), std's BinaryHeap with h = 0 against itself under octile, with its 95%
/// interval and both searches' expansions; the maps pooled decide
/// ([`super::pooled_rule`]). The fastest exact queue on each side is the second comparator.
pub fn dijkstra_slower_than_astar(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let (mut details, mut same, mut bests, mut parts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for dijkstra in run.of(Kind::Astar).filter(|w| w.heuristic() == Some(HeuristicKind::Zero)) {
        let Some(store) = dijkstra.store() else { continue };
        let Some(astar) = run
            .sibling(dijkstra, HeuristicKind::Octile, store)
            .filter(|a| a.units() == dijkstra.units())
        else {
            continue;
        };
        let (Some(time_dijkstra), Some(time_astar), Some(d), Some(a)) = (
            dijkstra.timing(BASELINE),
            astar.timing(BASELINE),
            dijkstra.ok(BASELINE),
            astar.ok(BASELINE),
        ) else {
            continue;
        };
        let Some(v) = versus_across(&[(time_dijkstra, time_astar)], DIJKSTRA, ASTAR) else {
            continue;
        };
        same.push((time_dijkstra, time_astar));
        parts.push(v.beyond_margin());
        let standing = match v.beyond_margin() {
            Ordering::Greater => "Dijkstra slower",
            Ordering::Equal => "tied",
            Ordering::Less => "Dijkstra faster",
        };
        let best = fastest_each(findings, dijkstra, astar).map(|(best_dijkstra, best_astar, p, v)| {
            bests.push(p);
            format!(
                " The fastest queue for Dijkstra, `{best_dijkstra}`, takes {} the time of the fastest for A*, `{best_astar}` ({}).",
                ratio_of(&v),
                evidence(&v)
            )
        });
        details.push(format!(
            "{} ({} searches): Dijkstra expands {} A*'s cells ({:.0} against {:.0} a search) and holds {} its open cells; with `{BASELINE}` it takes {} the time of A* ({}): {standing}.{}",
            dijkstra.facts.map,
            dijkstra.units(),
            ratio(d.expansions / a.expansions.max(1.0)),
            d.expansions,
            a.expansions,
            ratio(dijkstra.size / astar.size.max(1.0)),
            ratio_of(&v),
            evidence(&v),
            best.unwrap_or_default()
        ));
    }
    let Some(overall) = versus_across(&same, DIJKSTRA, ASTAR) else {
        return Verdict::unmeasured(
            "No map was searched with both h = 0 and octile on the same problems.",
        );
    };
    // `overall` is Dijkstra's time over A*'s: the claim puts it slower. Each map's sides
    // come from two workloads, not timed in the same rounds: a map alone cannot make the
    // verdict partly, the maps pooled decide.
    let outcome = super::pooled_rule(Ordering::Greater, &overall, []);
    let fastest = versus_across(&bests, DIJKSTRA, ASTAR).map_or(String::new(), |v| {
        format!(
            "; the fastest queue for Dijkstra takes {} the time of the fastest for A* ({})",
            ratio_of(&v),
            evidence(&v)
        )
    });
    let (faster, tied, slower) = super::counted(&parts);
    let summary = format!(
        "Over the maps pooled, Dijkstra with `{BASELINE}` takes {} the time of octile A* with it on the same problems ({}); it is slower beyond the tie margin on {slower} of {} (faster on {faster}, tied on {tied}){fastest}.",
        ratio_of(&overall),
        evidence(&overall),
        plural(parts.len(), "map"),
    );
    let workloads = parts.len();
    Verdict::new(outcome, summary, details, workloads)
}

/// The fastest exact queue on `a` against the fastest on `b` (each workload ranked alone):
/// their ids, their times paired, and the comparison; `None` when either has no
/// contending queue or a time is missing.
fn fastest_each<'a>(
    findings: &Findings<'_, 'a>,
    a: &Workload<'a>,
    b: &Workload<'a>,
) -> Option<(&'a str, &'a str, (Timing<'a>, Timing<'a>), Versus)> {
    let winner = |w: &Workload<'a>| {
        let standings = findings.rank(&[w], Eligible::Exact);
        standings.first().filter(|s| s.contends).map(|s| s.queue)
    };
    let (best_a, best_b) = (winner(a)?, winner(b)?);
    let pair = (a.timing(best_a)?, b.timing(best_b)?);
    let v = versus_across(&[pair], best_a, best_b)?;
    Some((best_a, best_b, pair, v))
}

/// The name Dijkstra's side is seeded with.
const DIJKSTRA: &str = "Dijkstra";
/// The name A\*'s side is seeded with.
const ASTAR: &str = "octile A*";

/// "Using whole numbers like these is a lot faster for the computer, too": the number type
/// of the costs, the search and its problems unchanged. Pair by pair (a workload of the
/// generic A\* with `f64` costs and its twin with integer costs: the same map or road graph,
/// heuristic, store and problems), std's BinaryHeap, which takes both key types, under
/// floats against itself under integers, with its 95% interval; a pair holds where the
/// integer search is faster beyond the tie margin; the pairs pooled decide
/// ([`super::pooled_rule`]), at "a lot" ([`A_LOT`]): faster with the interval's low end
/// below it is partly, undecided when the ratio itself reaches it. Only the generic A\*
/// runs with `f64` costs. The fastest exact queue on each side, against each other, is the
/// second comparator, beside it.
pub fn integer_costs_faster(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let (mut details, mut same, mut bests, mut parts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for float in run.of(Kind::Astar).filter(|w| w.facts.costs == Some(CostKind::Float)) {
        let Some(integer) = integer_twin(run, float) else { continue };
        let (Some(time_float), Some(time_integer)) =
            (float.timing(BASELINE), integer.timing(BASELINE))
        else {
            continue;
        };
        let Some(v) = versus_across(&[(time_float, time_integer)], FLOAT, INTEGER) else {
            continue;
        };
        same.push((time_float, time_integer));
        // `v` is the float search's time over the integer one's: slower beyond the margin
        // means integers are faster.
        parts.push(v.beyond_margin());
        let standing = match v.beyond_margin() {
            Ordering::Greater => "integers faster",
            Ordering::Equal => "tied",
            Ordering::Less => "floats faster",
        };
        let expansions = match (float.ok(BASELINE), integer.ok(BASELINE)) {
            (Some(f), Some(i)) => format!(
                "; it expands {} the integer search's cells",
                ratio(f.expansions / i.expansions.max(1.0))
            ),
            _ => String::new(),
        };
        let best = fastest_each(findings, float, integer).map(|(best_float, best_integer, p, v)| {
            bests.push(p);
            format!(
                " The fastest queue with `f64` costs, `{best_float}`, takes {} the time of the fastest with integer costs, `{best_integer}` ({}).",
                ratio_of(&v),
                evidence(&v)
            )
        });
        let series = Series::of(integer).map_or(String::new(), |s| format!(", {}", s.describe()));
        details.push(format!(
            "{}{series} ({:.0} open cells): with `{BASELINE}`, `f64` costs take {} the time of integer costs ({}): {standing}{expansions}.{}",
            float.facts.map,
            integer.size,
            ratio_of(&v),
            evidence(&v),
            best.unwrap_or_default()
        ));
    }
    let Some(overall) = versus_across(&same, FLOAT, INTEGER) else {
        return Verdict::unmeasured(
            "No generic A* workload was searched with both integer and `f64` costs.",
        );
    };
    let pairs = same.len();
    let outcome = a_lot_faster(&overall);
    let fastest = versus_across(&bests, FLOAT, INTEGER).map_or(String::new(), |v| {
        format!(
            "; the fastest queue with `f64` costs takes {} the time of the fastest with integer costs ({})",
            ratio_of(&v),
            evidence(&v)
        )
    });
    let (fails, tied, holds) = super::counted(&parts);
    let summary = format!(
        "The generic A* with `f64` costs takes {} the time of the same search with integer costs, both with `{BASELINE}` ({}; \"a lot faster\" read as at least {}); integers are faster beyond the tie margin on {holds} of {} (floats faster on {fails}, tied on {tied}){fastest}.",
        ratio_of(&overall),
        evidence(&overall),
        ratio(A_LOT),
        plural(pairs, "workload pair"),
    );
    Verdict::new(outcome, summary, details, pairs)
}

/// The rule of "a lot faster" on `overall`, the float search's time over the integer
/// one's (the claim puts it slower). Each pair's sides come from two workloads, not timed in
/// the same rounds: a pair alone cannot make the verdict partly, the pairs pooled decide;
/// faster with the interval's low end below [`A_LOT`] is partly, undecided when the ratio
/// itself reaches it.
fn a_lot_faster(overall: &Versus) -> Outcome {
    match super::pooled_rule(Ordering::Greater, overall, []) {
        Outcome::Holds if overall.ratio.low < A_LOT => {
            if overall.ratio.mid >= A_LOT {
                Outcome::Undecided
            } else {
                Outcome::Partly
            }
        }
        other => other,
    }
}

/// How much faster "a lot faster" is: floats taking at least 1.25× the integer search's
/// time. The text gives no figure; this is the lab's reading.
const A_LOT: f64 = 1.25;

/// The name the float side of the cost types' comparisons is seeded with.
const FLOAT: &str = "f64 costs";
/// The name the integer side is seeded with.
const INTEGER: &str = "integer costs";

/// The workload that searches `float`'s problems with integer costs: the same kind, map,
/// search loop, graph and moves, heuristic, scale, store and number of problems.
fn integer_twin<'w, 'a>(run: &'w Run<'a>, float: &Workload<'_>) -> Option<&'w Workload<'a>> {
    let setup = Setup { costs: CostKind::Integer, ..float.facts.setup()? };
    run.of(float.kind).find(|i| {
        i.facts.map == float.facts.map
            && i.facts.setup() == Some(setup)
            && i.heuristic() == float.heuristic()
            && i.scale() == float.scale()
            && i.store() == float.store()
            && i.units() == float.units()
    })
}

/// Std's heap under a variant of the A\* against itself under the A\* on the same problems
/// (each variant workload's A\* twin): each pair's timings, where it stands beyond the tie
/// margin, its workload, and its line.
struct AgainstAstar<'w, 'a> {
    pairs: Vec<(Timing<'a>, Timing<'a>)>,
    parts: Vec<Ordering>,
    workloads: Vec<&'w Workload<'a>>,
    details: Vec<String>,
}

/// Every workload of `search` with its A\* twin, std's heap on both sides timed: `name` is
/// the variant's side in the lines and the resampling's seed, `label` a workload's opening
/// words ("maze-w4-256-s1 (135 open cells under A*)").
fn against_astar<'w, 'a>(
    run: &'w Run<'a>,
    search: SearchKind,
    name: &str,
    label: impl Fn(&Workload<'a>, &Workload<'a>) -> String,
) -> AgainstAstar<'w, 'a> {
    let mut found = AgainstAstar {
        pairs: Vec::new(),
        parts: Vec::new(),
        workloads: Vec::new(),
        details: Vec::new(),
    };
    for w in run.of(Kind::Astar).filter(|w| w.facts.search == Some(search)) {
        let Some(twin) = run.search_twin(w, SearchKind::Astar) else { continue };
        let (Some(j), Some(a)) = (w.timing(BASELINE), twin.timing(BASELINE)) else { continue };
        let Some(v) = versus_across(&[(j, a)], name, ASTAR) else { continue };
        found.pairs.push((j, a));
        found.parts.push(v.beyond_margin());
        found.workloads.push(w);
        let expansions = match (w.ok(BASELINE), twin.ok(BASELINE)) {
            (Some(jr), Some(ar)) => {
                format!("; it expands {} A*'s cells", ratio(jr.expansions / ar.expansions.max(1.0)))
            }
            _ => String::new(),
        };
        found.details.push(format!(
            "{}: with `{BASELINE}`, {name} takes {} the time of A* ({}){expansions}.",
            label(w, twin),
            ratio_of(&v),
            evidence(&v)
        ));
    }
    found
}

/// "If the cost for each cell in your grid is the same …, you could look into Jump-point
/// search": the log's question, whether JPS is faster than A\* there. Map by map, std's
/// BinaryHeap under JPS against itself under octile A\* on the same problems (the JPS
/// workload's A\* twin), with its 95% interval and both searches' expansions; the maps
/// pooled decide ([`super::pooled_rule`]).
pub fn jps_faster_than_astar(findings: &Findings<'_, '_>) -> Verdict {
    let found = against_astar(findings.run, SearchKind::Jps, JPS, |w, twin| {
        format!("{} ({:.0} open cells under A*)", w.facts.map, twin.size)
    });
    let Some(pooled) = versus_across(&found.pairs, JPS, ASTAR) else {
        return Verdict::unmeasured(
            "No JPS workload was measured beside its octile A* twin with std's heap.",
        );
    };
    // Each map's sides come from two workloads, not timed in the same rounds: the maps
    // pooled decide.
    let outcome = super::pooled_rule(Ordering::Less, &pooled, []);
    let (faster, tied, slower) = super::counted(&found.parts);
    let summary = format!(
        "On uniform-cost grids, JPS with `{BASELINE}` takes {} the time of octile A* with it on the same problems ({}); faster beyond the tie margin on {faster} of {} (slower on {slower}, tied on {tied}).",
        ratio_of(&pooled),
        evidence(&pooled),
        plural(found.parts.len(), "map")
    );
    Verdict::new(outcome, summary, found.details, found.parts.len())
}

/// "The heuristic function is called for every open node. Consider caching its result.":
/// std's BinaryHeap under the A\* with each cell's estimate cached against itself under the
/// A\* on the same problems, workload by workload (each map under each heuristic), with the
/// 95% intervals. The text gives no threshold; the lab takes "faster beyond the tie margin"
/// with the workloads pooled ([`super::pooled_rule`]), each heuristic pooled over its maps
/// as a part: partly when one heuristic shows the opposite (caching an estimate that costs
/// less than a load does not pay), undecided when the pooled ratio leans faster but its
/// interval reaches the margin.
pub fn caching_the_heuristic(findings: &Findings<'_, '_>) -> Verdict {
    const CACHED: &str = "the cached A*";
    let found = against_astar(findings.run, SearchKind::AstarCachedH, CACHED, |w, _| {
        let h = w.heuristic().map_or_else(String::new, |h| h.to_string());
        format!("{} under {h}", w.facts.map)
    });
    let Some(pooled) = versus_across(&found.pairs, CACHED, ASTAR) else {
        return Verdict::unmeasured(
            "No A* with its heuristic cached was measured beside its A* twin with std's heap.",
        );
    };
    let mut heuristics: Vec<HeuristicKind> = Vec::new();
    for h in found.workloads.iter().filter_map(|w| w.heuristic()) {
        if !heuristics.contains(&h) {
            heuristics.push(h);
        }
    }
    let mut lines = Vec::new();
    let parts: Vec<Ordering> = heuristics
        .iter()
        .filter_map(|&h| {
            let pairs: Vec<_> = found
                .pairs
                .iter()
                .zip(&found.workloads)
                .filter(|(_, w)| w.heuristic() == Some(h))
                .map(|(&pair, _)| pair)
                .collect();
            let v = versus_across(&pairs, CACHED, ASTAR)?;
            lines.push(format!("under {h} {} ({})", ratio_of(&v), evidence(&v)));
            Some(v.beyond_margin())
        })
        .collect();
    let outcome = super::pooled_rule(Ordering::Less, &pooled, parts);
    let summary = format!(
        "With `{BASELINE}`, the A* with each cell's estimate cached takes {} the time of the A* computing it at every move looked at, on the same problems ({}): {}.",
        ratio_of(&pooled),
        evidence(&pooled),
        lines.join("; ")
    );
    Verdict::new(outcome, summary, found.details, found.parts.len())
}

/// The name JPS's side is seeded with.
const JPS: &str = "JPS";

/// What std's heap takes against the fastest exact queue on `w`: the queue's gain there.
fn gain<'a>(findings: &Findings<'_, 'a>, w: &Workload<'a>) -> Option<(Versus, String)> {
    let standings = findings.rank(&[w], Eligible::Exact);
    let best = standings.first().filter(|s| s.contends)?.queue;
    Some((versus(&[w], BASELINE, best)?, best.to_owned()))
}

/// "With JPS the queue matters less" (a claim of the JPS papers, not of the sources; the
/// roguelike log points uniform-cost grids to jump point search): on each JPS workload and its A\* twin (the same problems), the gain of
/// the fastest exact queue over std's heap under each search. A map shows the claim when
/// JPS's interval lies wholly below A\*'s, the opposite when wholly above; the maps pooled
/// decide ([`super::pooled_rule`]), comparing the geometric means of the gains.
pub fn queue_matters_less_with_jps<'a>(findings: &Findings<'_, 'a>) -> Verdict {
    let run = findings.run;
    let (mut details, mut parts, mut jps_gains, mut astar_gains) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let jps = run.of(Kind::Astar).filter(|w| w.facts.search == Some(SearchKind::Jps));
    for w in jps {
        let Some(twin) = run.search_twin(w, SearchKind::Astar) else { continue };
        let (Some((j, j_best)), Some((a, a_best))) = (gain(findings, w), gain(findings, twin))
        else {
            continue;
        };
        let part = separated(&j, &a);
        parts.push(part);
        jps_gains.push(j.ratio.mid);
        astar_gains.push(a.ratio.mid);
        let time = match (w.ok(BASELINE), twin.ok(BASELINE)) {
            (Some(jr), Some(ar)) => format!(
                "; with `{BASELINE}` JPS takes {} the A*'s time and expands {} its cells",
                ratio(jr.median_ns / ar.median_ns),
                ratio(jr.expansions / ar.expansions.max(1.0))
            ),
            _ => String::new(),
        };
        details.push(format!(
            "{} ({:.0} open cells under A*): `{BASELINE}` takes {} the time of `{j_best}` under JPS ({}), {} the time of `{a_best}` under A* ({}): {}{time}.",
            w.facts.map,
            twin.size,
            ratio_of(&j),
            evidence(&j),
            ratio_of(&a),
            evidence(&a),
            match part {
                Ordering::Less => "the queue matters less under JPS",
                Ordering::Equal => "no clear difference",
                Ordering::Greater => "the queue matters more under JPS",
            },
        ));
    }
    if parts.is_empty() {
        return Verdict::unmeasured("No JPS workload was measured beside its octile A* twin with std's heap and a faster queue.",
        );
    }
    let (jps_gain, astar_gain) = (geomean(jps_gains), geomean(astar_gains));
    let pooled = if jps_gain * TIE_MARGIN < astar_gain {
        Ordering::Less
    } else if astar_gain * TIE_MARGIN < jps_gain {
        Ordering::Greater
    } else {
        Ordering::Equal
    };
    // No interval pools the gains: their geometric means decide (shown when they lean).
    let outcome = super::rule(Ordering::Less, pooled, false, parts.iter().copied());
    let (less, tied, more) = super::counted(&parts);
    let summary = format!(
        "With JPS the queue matters {}: std's heap takes {} the fastest queue's time under JPS against {} under A* on the same problems (geometric means over {}); less under JPS beyond the intervals on {less}, more on {more}, no clear difference on {tied}. Published: JPS about 11× faster than A* on dao/arena2 in the `grid_pathfinding` crate; A* spends about 40% of its time generating successors against JPS's 90% (Harabor and Grastien, ICAPS 2014), which leaves the queue less of JPS's time.",
        match pooled {
            Ordering::Less => "less",
            Ordering::Equal => "about as much",
            Ordering::Greater => "more",
        },
        ratio(jps_gain),
        ratio(astar_gain),
        plural(parts.len(), "map"),
    );
    Verdict::new(outcome, summary, details, parts.len())
}

/// Where `a`'s interval lies against `b`'s: wholly below beyond the tie margin, wholly
/// above, or overlapping.
fn separated(a: &Versus, b: &Versus) -> Ordering {
    if a.ratio.high * TIE_MARGIN < b.ratio.low {
        Ordering::Less
    } else if b.ratio.high * TIE_MARGIN < a.ratio.low {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}
