//! Membership and approximate order: the stores' and the soft heap's verdicts.

use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;

use super::charts;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = vec![Block::Heading(2, "Membership and approximate order".into())];
    blocks.extend(charts(ctx, Section::Factors));
    for v in ctx.verdicts.iter().filter(|v| matches!(v.id, "hash-table" | "soft-heap")) {
        blocks.push(Block::Paragraph(format!("**“{}”: {}.** {}", v.claim, v.outcome, v.summary)));
        blocks.push(Block::List(v.details.clone()));
    }
    blocks
}
