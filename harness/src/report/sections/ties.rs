//! The page's section on tie-breaking: each tie map under the A\*'s own rule and the
//! registry's other rules (the same problems), std's BinaryHeap and the fastest queues with
//! their time and expansions.

use pqlab_queues::registry::{self, BASELINE};

use crate::analysis::{bands, Workload};
use crate::format::ratio;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::{Kind, Row};
use crate::search::SearchKind;

/// The rules in the table's order, the A\*'s own first.
const RULES: [(SearchKind, &str); 5] = [
    (SearchKind::Astar, "larger g (the A*'s own)"),
    (SearchKind::AstarTiesQueue, "the queue's order (f alone)"),
    (SearchKind::AstarTiesSmallerG, "smaller g"),
    (SearchKind::AstarTiesFifo, "FIFO"),
    (SearchKind::AstarTiesLifo, "LIFO"),
];

/// The section's blocks; empty when the run has no tie workload with its A\* twin.
pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let run = ctx.run;
    let mut rows = Vec::new();
    let maps = run.of(Kind::Astar).filter(|w| w.facts.search == Some(SearchKind::AstarTiesQueue));
    for unbroken in maps {
        let Some(own) = run.search_twin(unbroken, SearchKind::Astar) else { continue };
        let Some(std_own) = own.ok(BASELINE) else { continue };
        for (rule, label) in RULES {
            let Some(w) = run.search_twin(unbroken, rule) else { continue };
            let Some(std) = w.ok(BASELINE) else { continue };
            rows.push(vec![
                format!("{} ({} problems)", w.facts.map, w.units()),
                label.to_owned(),
                figures(std),
                ratio(std.median_ns / std_own.median_ns),
                ratio(std.expansions / std_own.expansions.max(1.0)),
                fastest(w, |_| true),
                fastest(w, |row| registry::find(&row.queue).is_some_and(|e| e.keys.is_monotone())),
            ]);
        }
    }
    if rows.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Heading(2, "Tie-breaking".into()),
        Block::Paragraph(
            "Among cells of equal f, the A* takes the one with the larger g (the deepest, \
             usually nearest the goal) where the queue takes any key; a restricted \
             (monotone) queue is given f alone and its own order decides (LIFO for the \
             bucket queues). The other rules are searched here on an open map and a maze, \
             the same problems as their band workloads, checked against the same optimal \
             costs: f alone for every queue (the queue's order), smaller g first, first in \
             first out, last in first out. A rule whose keys a queue cannot take is `n/a` \
             for it: last in first out falls below the last popped key, and bounded-span \
             and 32-bit queues take f alone. Each tie workload times std's BinaryHeap, the \
             fastest queues of its band twin and the fastest of each key rule. Times are µs \
             per search, expansions and pushes per search (a rule that reaches cells by \
             worse paths first pushes them again: as many expansions, more pushes and stale \
             pops); the ratios are std's against std under the A*'s own rule on that map."
                .into(),
        ),
        Block::Table(
            [
                "map",
                "ties",
                "std: µs, expansions, pushes",
                "std ÷ A*'s rule, time",
                "std ÷ A*'s rule, expansions",
                "fastest exact queue",
                "fastest monotone queue",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        ),
    ]
}

/// "12.3 µs, 840, 1210": time, expansions and pushes a search.
fn figures(row: &Row) -> String {
    format!("{:.1} µs, {:.0}, {:.0}", row.median_ns / 1e3, row.expansions, row.pushes)
}

/// The fastest exact queue on `w` that `admits` takes, with its figures, or `n/a`.
fn fastest(w: &Workload<'_>, admits: impl Fn(&Row) -> bool) -> String {
    let best = w.fastest(|row| bands::exact(row) && admits(row));
    best.map_or("n/a".into(), |row| format!("`{}`: {}", row.queue, figures(row)))
}
