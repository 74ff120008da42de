//! The pages of the report as blocks: the same document becomes `README.md` and
//! `index.html`. Each section has a file of its own and [`SECTIONS`] lists them in page
//! order: adding a section is one file here and one line there. Charts are placed by their
//! declaration's section (`charts::CHARTS`).

mod adopt;
mod alone;
mod bands;
mod calibration;
mod factors;
mod head;
mod jps;
mod machines;
mod memory;
mod method;
mod other_searches;
mod peers;
mod queues;
mod searches;
mod series;
mod strategies;
mod ties;
mod untimed;
mod verdicts;

use crate::report::charts::{Section, CHARTS};
use crate::report::page::Block;
use crate::report::Context;

/// Every section of the page, in page order; each is empty when the run has nothing for it.
const SECTIONS: &[fn(&Context<'_>) -> Vec<Block>] = &[
    verdicts::section,
    bands::section,
    series::section,
    queues::section,
    searches::section,
    other_searches::section,
    jps::section,
    ties::section,
    alone::section,
    strategies::section,
    memory::section,
    factors::section,
    peers::section,
    calibration::section,
    machines::section,
    untimed::section,
    method::section,
];

/// The whole page.
pub fn document(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = head::page(ctx);
    for section in SECTIONS {
        blocks.extend(section(ctx));
    }
    blocks
}

/// The summary the repository's README shows between its markers: the verdicts' table and
/// the best queue per frontier size, without their headings.
pub fn summary(ctx: &Context<'_>) -> Vec<Block> {
    let mut blocks = head::summary(ctx);
    blocks.extend(verdicts::blocks(&ctx.verdicts, false).into_iter().skip(1));
    blocks.extend(bands::section(ctx).into_iter().skip(1));
    blocks
}

/// The queue crate's README block ([`adopt::block`]).
pub fn adopt(ctx: &Context<'_>) -> Vec<Block> {
    adopt::block(ctx)
}

/// Footnotes of one table: every "–" says why.
#[derive(Default)]
struct Notes(Vec<String>);

impl Notes {
    /// A dash with the footnote mark of `why` (one mark per distinct reason).
    fn dash(&mut self, why: &str) -> String {
        let i = self.0.iter().position(|w| w == why).unwrap_or_else(|| {
            self.0.push(why.to_owned());
            self.0.len() - 1
        });
        format!("–{}", superscript(i + 1))
    }

    /// The footnotes as a paragraph, if any.
    fn block(self) -> Option<Block> {
        (!self.0.is_empty()).then(|| {
            let notes: Vec<String> = self
                .0
                .iter()
                .enumerate()
                .map(|(i, why)| format!("{} {why}", superscript(i + 1)))
                .collect();
            Block::Paragraph(notes.join("; "))
        })
    }
}

/// `n` in superscript digits, the footnote mark.
fn superscript(n: usize) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string().chars().map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize]).collect()
}

/// The charts of `section`, or what stands in for a chart not drawn.
fn charts(ctx: &Context<'_>, section: Section) -> Vec<Block> {
    CHARTS
        .iter()
        .filter(|c| c.section == section)
        .map(|c| {
            if ctx.drawn.contains(c.name) {
                Block::Chart(c.name, c.alt.into())
            } else {
                Block::Paragraph(format!("No “{}” chart: {}", c.alt, c.absent))
            }
        })
        .collect()
}

/// A band's tie group as code spans, the winner first.
fn tie_text(group: &[&crate::analysis::Standing<'_>]) -> String {
    group.iter().map(|s| format!("`{}`", s.queue)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests;
