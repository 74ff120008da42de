//! The other series, each ranked band by band on its own workloads.

use crate::analysis::bands::series;
use crate::analysis::bands::Eligible;
use crate::format::ratio;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::Kind;
use crate::search::Series;

use super::tie_text;

/// The other series (Dijkstra, weighted A*, the differential heuristic, coarse costs,
/// hash stores): each its own band table, never blended into the octile answer.
pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let findings = ctx.findings;
    let run = findings.run;
    let others: Vec<Series> = series(run).into_iter().filter(|s| *s != Series::OCTILE).collect();
    if others.is_empty() {
        return Vec::new();
    }
    let mut blocks = vec![
        Block::Heading(2, "Other heuristics and cost scales, each its own series".into()),
        Block::Paragraph(
            "Each series is ranked on its own workloads, band by band, by the same rule; none is \
             blended into the octile answer above. Under an inconsistent heuristic (weighted \
             A*) queues that need monotone keys cannot run: their rows say `n/a`."
                .into(),
        ),
    ];
    for selection in others {
        let ranked = findings.bands(&selection, Eligible::for_series(&selection));
        let rows: Vec<Vec<String>> = ranked
            .iter()
            .filter(|b| b.evidence.kind == Kind::Astar)
            .filter_map(|b| {
                let winner = b.winner()?;
                let std = b.baseline_takes().map_or("1× (it wins)".into(), |v| ratio(v.ratio.mid));
                let contenders = b.standings.iter().filter(|s| s.contends).count();
                let best = if contenders < 2 {
                    format!("`{}` alone: not a ranking (one queue was measured)", winner.queue)
                } else {
                    tie_text(&b.tie_group())
                };
                Some(vec![
                    b.evidence.band.label(),
                    format!(
                        "{}{}",
                        b.evidence.workloads.len(),
                        if b.evidence.weak() { " (weak)" } else { "" }
                    ),
                    best,
                    std,
                ])
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        blocks.push(Block::Heading(3, selection.describe()));
        blocks.push(Block::Table(
            ["open cells", "workloads", "best (tie group)", "std-binary-heap-dup takes"]
                .map(String::from)
                .to_vec(),
            rows,
        ));
    }
    blocks
}
