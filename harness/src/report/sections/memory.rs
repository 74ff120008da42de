//! Memory: entries per open cell and bytes per entry.

use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;

use super::charts;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = vec![Block::Heading(2, "Memory".into())];
    blocks.extend(charts(ctx, Section::Memory));
    blocks.push(Block::Paragraph(
        "Left: the most entries a duplicate-insertion queue held, over the most cells open at \
         once (decrease-key queues hold exactly the open cells). Right: the heap bytes each \
         queue allocated per entry held, counted by the lab's allocator while it filled the \
         queue (decrease-key queues include their node-indexed tables)."
            .into(),
    ));
    blocks
}
