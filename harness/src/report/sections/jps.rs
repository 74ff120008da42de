//! The page's section on jump point search: each JPS workload against its octile A\* twin
//! (the same problems), time and expansions, and what the queue changes under each.

use pqlab_queues::registry::BASELINE;

use crate::analysis::bands;
use crate::analysis::Workload;
use crate::format::ratio;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::Kind;
use crate::search::SearchKind;

/// The section's blocks; empty when the run has no JPS workload with an A\* twin.
pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let run = ctx.run;
    let mut rows = Vec::new();
    for w in run.of(Kind::Astar).filter(|w| w.facts.search == Some(SearchKind::Jps)) {
        let Some(astar) = run.search_twin(w, SearchKind::Astar) else { continue };
        let (Some(j), Some(a)) = (w.ok(BASELINE), astar.ok(BASELINE)) else { continue };
        let us = |ns: f64| format!("{:.1}", ns / 1e3);
        rows.push(vec![
            format!("{} ({} problems)", w.facts.map, w.units()),
            format!("{:.0}", astar.size),
            us(a.median_ns),
            us(j.median_ns),
            ratio(j.median_ns / a.median_ns),
            format!("{:.0} / {:.0}", a.expansions, j.expansions),
            format!("{:.0} / {:.0}", a.max_frontier, j.max_frontier),
            spread(astar),
            spread(w),
        ]);
    }
    if rows.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Heading(2, "Jump point search".into()),
        Block::Paragraph(
            "Jump point search (Harabor and Grastien, AAAI 2011) on 8-connected uniform-cost \
             grids, corners never cut, octile estimate: the same problems as the octile A* \
             workloads beside it, checked against the same optimal costs and timed with every \
             queue that takes its keys (bounded-span queues refuse its span, twice its longest \
             jump, on the larger maps, and are `n/a` there). JPS pushes a few far cells where \
             A* pushes every cell it reaches, so the scans, not the queue, take most of its \
             time. Times are std's BinaryHeap's, per search; expansions and the largest \
             frontier are A*'s / JPS's, mean per search. The queue's share of JPS's time has \
             no oracle figure (the oracle replays the tuned A*'s recorded pops only): what \
             the queue can change is shown instead, std's time over the fastest exact \
             queue's under each search. The verdicts above decide whether the queue matters \
             less under JPS; published: about 11× over A* on dao/arena2 in the \
             `grid_pathfinding` crate, and A* spends about 40% of its time generating \
             successors against JPS's 90% (Harabor and Grastien, ICAPS 2014)."
                .into(),
        ),
        Block::Table(
            [
                "map",
                "A* open cells",
                "A* µs",
                "JPS µs",
                "JPS ÷ A*",
                "expansions",
                "largest frontier",
                "std ÷ best, A*",
                "std ÷ best, JPS",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        ),
    ]
}

/// Std's time over the fastest exact queue's on `w`, with that queue: "1.13× (`radix-heap-dup`)".
fn spread(w: &Workload<'_>) -> String {
    match (w.ok(BASELINE), w.fastest(bands::exact)) {
        (Some(std), Some(best)) => {
            format!("{} (`{}`)", ratio(std.median_ns / best.median_ns), best.queue)
        }
        _ => "n/a".into(),
    }
}
