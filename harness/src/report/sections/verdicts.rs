//! The verdicts: the folklore checked against the run, as a table and, on the page, each
//! claim in detail.

use crate::analysis::rank::TIE_MARGIN;
use crate::analysis::verdicts::Verdict;
use crate::format::{plural, ratio};
use crate::report::page::Block;
use crate::report::Context;

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    blocks(&ctx.verdicts, true)
}

/// The verdicts' heading, rule and table, and with `details` each claim's figures.
pub fn blocks(verdicts: &[Verdict], details: bool) -> Vec<Block> {
    let mut blocks = vec![
        Block::Heading(2, "Verdicts".into()),
        Block::Paragraph(format!(
            "The folklore, checked against this run. Each side of a claim is represented by \
             its best queue over the workloads concerned, and the two are compared on the \
             workloads both ran: the geometric mean of their time ratios, with its 95% \
             bootstrap interval. A difference counts only when the interval clears {}; a \
             claim whose ratio leans its way while the interval does not clear {} is \
             undecided, neither shown nor contradicted; a verdict backed by fewer than three \
             workloads is marked weak.",
            ratio(TIE_MARGIN),
            ratio(TIE_MARGIN)
        )),
        Block::Table(
            vec!["claim".into(), "verdict".into(), "figures".into()],
            verdicts.iter().map(verdict_row).collect(),
        ),
    ];
    if details {
        for verdict in verdicts {
            blocks.push(Block::Heading(3, format!("“{}”: {}", verdict.claim, verdict.outcome)));
            if let Some(source) = verdict.source {
                blocks.push(Block::Paragraph(format!("**Quoted from:** {source}.")));
            }
            blocks.push(Block::Paragraph(format!("**What it asks:** {}", verdict.asks)));
            if !verdict.details.is_empty() {
                blocks.push(Block::List(verdict.details.clone()));
            }
        }
    }
    blocks
}

fn verdict_row(v: &Verdict) -> Vec<String> {
    let weak = if v.weak() {
        format!(" (weak: {})", plural(v.workloads, "workload"))
    } else {
        String::new()
    };
    let source = v.source.map_or(String::new(), |s| format!(" ({s})"));
    vec![format!("“{}”{source}", v.claim), format!("**{}**{weak}", v.outcome), v.summary.clone()]
}
