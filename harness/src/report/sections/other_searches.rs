//! The page's section on searches other than the tuned grid A\*: pqlab's other loops
//! (fringe search, BFS) beside it, the generic A\* users write with a library, and what
//! float costs cost. Every figure is a ratio inside workloads timed in the same rounds.

use pqlab_queues::registry::BASELINE;

use crate::analysis::bands::series;
use crate::analysis::bands::{self, Eligible};
use crate::analysis::rank::{versus, versus_paired};
use crate::analysis::{geomean, Findings, Run, Workload};
use crate::format::{plural, ratio};
use crate::maps::grid::CostKind;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::Kind;
use crate::search::Series;
use crate::search::{SearchKind, Setup};

/// The section's blocks; empty when the run has none of these searches.
pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let findings = ctx.findings;
    let mut blocks = Vec::new();
    blocks.extend(loops(findings.run));
    blocks.extend(generic(findings));
    blocks.extend(float(findings.run));
    if blocks.is_empty() {
        return blocks;
    }
    blocks.insert(0, Block::Heading(2, "Other searches: fringe search, BFS, a generic A*".into()));
    blocks
}

/// Fringe search and BFS against the A\* with std's heap and with the best queue, per
/// series, round by round inside each workload; a cut-off loop counts as its censored bound
/// ("at least"), never dropped.
fn loops(run: &Run<'_>) -> Vec<Block> {
    let mut rows = Vec::new();
    for selection in series(run) {
        let merged: Vec<Workload<'_>> = run
            .workloads
            .iter()
            .filter(|w| selection.admits(w))
            .filter_map(|w| run.with_loops(w))
            .collect();
        let mut ids: Vec<&str> = merged
            .iter()
            .flat_map(|w| w.rows.iter())
            .filter(|(_, row)| row.kind == Kind::Loop)
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let refs: Vec<&Workload<'_>> =
                merged.iter().filter(|w| w.timing(id).is_some()).collect();
            let Some(std) = versus(&refs, id, BASELINE) else { continue };
            let best: Vec<_> = refs
                .iter()
                .filter_map(|w| {
                    let fastest = w.fastest(bands::exact)?;
                    Some((w.timing(id)?, w.timing(&fastest.queue)?))
                })
                .collect();
            rows.push(vec![
                selection.describe(),
                format!("`{id}`"),
                std.n.to_string(),
                std.reads(),
                versus_paired(&best, id, "the best queue").map_or("n/a".into(), |v| v.reads()),
            ]);
        }
    }
    if rows.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Heading(3, "Fringe search and breadth-first search beside the A*".into()),
        Block::Paragraph(
            "pqlab's fringe search (one list, an f-limit, no queue) and breadth-first search \
             (a FIFO; run where every move costs the same, where it is exact) solve the same \
             problems as the A*, checked the same way and timed in the same rounds. Their \
             time over the A*'s, geometric mean over the series' workloads with its 95% \
             interval, a cut-off counting as its measured lower bound (\"at least\"); the \
             verdicts above decide the claims about them."
                .into(),
        ),
        Block::Table(
            ["series", "search", "workloads", "÷ A* with std's heap", "÷ A* with the best queue"]
                .map(String::from)
                .to_vec(),
            rows,
        ),
    ]
}

/// The generic A\*'s series against the tuned A\*'s band by band: the winner in each and
/// what std's heap takes against it, so a gain measured in the tuned search can be read as
/// the gain in a search like the user's.
fn generic(findings: &Findings<'_, '_>) -> Vec<Block> {
    let generic = Series {
        setup: Setup { search: SearchKind::Generic, ..Setup::GRID_ASTAR },
        ..Series::OCTILE
    };
    let tuned = findings.bands(&Series::OCTILE, Eligible::Exact);
    let mut rows = Vec::new();
    for band in findings.bands(&generic, Eligible::Exact) {
        if band.evidence.kind != Kind::Astar {
            continue;
        }
        let Some(g) = band.winner() else { continue };
        let std_takes = |b: &bands::BandRanking<'_, '_>| {
            b.baseline_takes().map_or("1× (it wins)".into(), |v| ratio(v.ratio.mid))
        };
        let same = tuned.iter().find(|t| t.evidence.band == band.evidence.band);
        let (t_winner, t_std) = match same.and_then(|t| Some((t, t.winner()?))) {
            Some((t, w)) => (format!("`{}`", w.queue), std_takes(t)),
            None => ("not measured".into(), "n/a".into()),
        };
        rows.push(vec![
            band.evidence.band.label(),
            t_winner,
            t_std,
            format!("`{}`", g.queue),
            std_takes(&band),
            band.evidence.workloads.len().to_string(),
        ]);
    }
    if rows.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Heading(3, "The gain in a generic A*".into()),
        Block::Paragraph(
            "The generic A* of `pqlab-queues` (a successors closure returning `(node, cost)` \
             pairs, the node states in a hash map, `u64` costs: the `pathfinding` crate's \
             shape) spends more of its time outside the queue than pqlab's tuned grid A*, so \
             a queue buys less there. It times std's BinaryHeap, its band twin's three \
             fastest exact queues, the twin's fastest of each key rule, and every queue the \
             generic A* timed on the smaller maps before it. Band by band, \
             each search's winner and what std's BinaryHeap takes against it:"
                .into(),
        ),
        Block::Table(
            [
                "open cells",
                "tuned A*: best",
                "std takes",
                "generic A*: best",
                "std takes",
                "generic workloads",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        ),
    ]
}

/// Float costs against integer costs in the generic A\*, map by map, with std's heap and
/// with each series' fastest queue.
fn float(run: &Run<'_>) -> Vec<Block> {
    let of = |costs| Series {
        setup: Setup { search: SearchKind::Generic, costs, ..Setup::GRID_ASTAR },
        ..Series::OCTILE
    };
    let (integer, float) = (of(CostKind::Integer), of(CostKind::Float));
    let (mut std, mut best, mut maps) = (Vec::new(), Vec::new(), 0);
    for f in run.workloads.iter().filter(|w| float.admits(w)) {
        let Some(i) =
            run.workloads.iter().find(|i| integer.admits(i) && i.facts.map == f.facts.map)
        else {
            continue;
        };
        maps += 1;
        if let (Some(a), Some(b)) = (f.ok(BASELINE), i.ok(BASELINE)) {
            std.push(a.median_ns / b.median_ns);
        }
        if let (Some(a), Some(b)) = (f.fastest(bands::exact), i.fastest(bands::exact)) {
            best.push(a.median_ns / b.median_ns);
        }
    }
    if std.is_empty() {
        return Vec::new();
    }
    let mut text = format!(
        "On {}, the generic A* with `f64` costs takes {} the time of the same search with \
         integer costs with std's BinaryHeap",
        plural(maps, "map"),
        ratio(geomean(std))
    );
    if !best.is_empty() {
        text.push_str(&format!(
            ", and the fastest float-cost queue {} the time of the fastest integer-cost one",
            ratio(geomean(best))
        ));
    }
    text.push_str(
        ": what converting your costs to integers buys. Bounded-span queues (bucket queues) \
         cannot take float keys and are `n/a` there; radix heaps take the keys' bit patterns, \
         with pathmax (a key below the last popped is raised to it, as rounding can make a \
         consistent estimate inconsistent by an ulp).",
    );
    vec![Block::Heading(3, "Float costs".into()), Block::Paragraph(text)]
}
