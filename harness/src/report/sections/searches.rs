//! Time per search, and its 99th percentile.

use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;

use super::charts;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = vec![Block::Heading(2, "Time per search".into())];
    blocks.extend(charts(ctx, Section::Searches));
    blocks.push(Block::Paragraph(
        "One point per queue and workload: the median time per whole search, its bar the \
         p25–p75 of the rounds. Points are not joined: workloads of similar frontier size on \
         different maps differ in search length, so compare queues at the same x. The \
         latency chart plots the 99th-percentile search instead (each problem's median over \
         the rounds, so a round preempted by another process does not count, while a \
         queue's own spike, which recurs on the same problem, does): what a frame budget \
         asks. `pqlab pick --latency` ranks by it."
            .into(),
    ));
    blocks
}
