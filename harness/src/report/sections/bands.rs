//! The best queue per frontier size: each band's tie group, std's time over its winner's,
//! and the queue's share of the search.

use pqlab_queues::registry::BASELINE;

use crate::analysis::bands::Eligible;

use crate::analysis::rank::TIE_MARGIN;
use crate::format::{ratio, ratio_interval, share_interval};
use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::Kind;
use crate::search::Series;

use super::{charts, tie_text, Notes};

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = vec![Block::Heading(2, "The best queue per frontier size".into())];
    blocks.extend(charts(ctx, Section::Bands));
    blocks.push(Block::Paragraph(format!(
        "Bands of frontier size: a workload's most open cells at once (the median over its \
         queues). A band is ranked from its octile A* workloads (fine costs, a flat per-cell \
         array); a band no octile search reached is ranked from the queue alone at held \
         sizes, and says so. Each queue's score is the geometric mean over the band's \
         workloads of its time ÷ the fastest time there; the best score wins, and its tie \
         group holds every queue the measurement cannot put more than {} behind it with 95% \
         confidence. A band with fewer than three workloads is weak. \"std-binary-heap-dup \
         takes\": its time ÷ the winner's, with the interval. \"The queue's share of the \
         search\": 1 − the oracle floor's time ÷ the queue's (the same A* replaying the \
         baseline's pops with a frontier that costs nothing), over the band's workloads with \
         an oracle row, with its 95% interval: what a faster queue can save at most.",
        ratio(TIE_MARGIN)
    )));
    let ranked = ctx.findings.bands(&Series::OCTILE, Eligible::Exact);
    let mut notes = Notes::default();
    let mut rows = Vec::new();
    let generic = ctx.findings.bands(&Series::OCTILE, Eligible::AnyKeys);
    for band in &ranked {
        let Some(winner) = band.winner() else { continue };
        let e = &band.evidence;
        let std = if winner.queue == BASELINE {
            "1× (it wins)".into()
        } else {
            band.baseline_takes().map_or_else(
                || notes.dash("std-binary-heap-dup was not measured on these workloads"),
                |v| ratio_interval(v.ratio),
            )
        };
        let any = match generic.iter().find(|g| g.evidence.band == e.band).map(|g| g.tie_group()) {
            Some(g) if g.iter().any(|s| s.queue == winner.queue) => "the same".into(),
            Some(g) if !g.is_empty() => tie_text(&g),
            _ => notes.dash("no exact queue that accepts any key was measured here"),
        };
        let cut: Vec<String> = band.cut_off().map(|q| format!("`{q}`")).collect();
        let weighted: Vec<_> = e.workloads.iter().map(|w| (*w, 1.0)).collect();
        let share = |q: &str| ctx.findings.frontier_share(&weighted, q);
        let shares = match (share(BASELINE), share(winner.queue)) {
            (Some(s), Some(w)) => format!(
                "{} / {} ({} of {})",
                share_interval(s.share),
                share_interval(w.share),
                w.workloads,
                e.workloads.len()
            ),
            _ => notes.dash("no oracle row on these workloads"),
        };
        rows.push(vec![
            e.band.label(),
            if e.kind == Kind::Astar { "A*".into() } else { "held sizes".into() },
            format!("{}{}", e.workloads.len(), if e.weak() { " (weak)" } else { "" }),
            e.map_kinds().join(", "),
            tie_text(&band.tie_group()),
            std,
            shares,
            any,
            if cut.is_empty() { "none".into() } else { cut.join(", ") },
        ]);
    }
    if !rows.is_empty() {
        let head = [
            "open cells",
            "from",
            "workloads",
            "map kinds",
            "best (tie group)",
            "std-binary-heap-dup takes",
            "the queue's share of the search: std / best",
            "best with any keys",
            "cut off",
        ];
        blocks.push(Block::Table(head.map(String::from).to_vec(), rows));
        blocks.extend(notes.block());
    }
    blocks
}
