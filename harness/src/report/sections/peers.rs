//! Other crates' A*, and the oracle floor.

use crate::analysis::geomean;
use crate::format::{plural, ratio};
use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;

use super::charts;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = vec![Block::Heading(2, "Other crates' A*, and the oracle floor".into())];
    blocks.extend(charts(ctx, Section::Peers));
    let peers = ctx.findings.peers();
    let mut ids: Vec<&str> = peers.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let rows: Vec<Vec<String>> = ids
        .into_iter()
        .map(|id| {
            let ratios: Vec<f64> = peers.iter().filter(|p| p.id == id).map(|p| p.ratio()).collect();
            vec![
                format!("`{id}`"),
                ratio(geomean(ratios.iter().copied())),
                ratios.len().to_string(),
            ]
        })
        .collect();
    let floors: Vec<f64> = ctx.findings.floors().iter().map(|f| f.ratio()).collect();
    if !rows.is_empty() {
        blocks.push(Block::Paragraph(
            "The `pathfinding` and `petgraph` crates' A* on the same problems with the same \
             movement rules and octile heuristic, timed in the same rounds as the queues; every \
             cost checked. Their time ÷ pqlab's A* with std-binary-heap-dup:"
                .into(),
        ));
        blocks.push(Block::Table(
            ["peer", "takes (pqlab = 1)", "workloads"].map(String::from).to_vec(),
            rows,
        ));
    }
    if !floors.is_empty() {
        blocks.push(Block::Paragraph(format!(
            "The oracle is the same A* with a frontier that replays a recorded pop order at \
             almost no cost: the search's own cost. On {}, the fastest queue takes {} the \
             oracle's time (geometric mean; from {} to {}).",
            plural(floors.len(), "workload"),
            ratio(geomean(floors.iter().copied())),
            ratio(floors.iter().copied().fold(f64::INFINITY, f64::min)),
            ratio(floors.iter().copied().fold(0.0, f64::max)),
        )));
    }
    blocks
}
