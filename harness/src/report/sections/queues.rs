//! Every queue against std's BinaryHeap over the octile A* workloads.

use pqlab_queues::registry::{self, BASELINE};

use crate::analysis::bands::Eligible;

use crate::analysis::rank::{expansions_versus, versus};
use crate::format::{ratio, significant};
use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;
use crate::search::Series;

use super::{charts, Notes};

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let run = ctx.run;
    let mut blocks = vec![Block::Heading(2, "Every queue against std's BinaryHeap".into())];
    blocks.extend(charts(ctx, Section::Queues));
    let workloads: Vec<_> = run.workloads.iter().filter(|w| Series::OCTILE.admits(w)).collect();
    if workloads.is_empty() {
        return blocks;
    }
    blocks.push(Block::Paragraph(format!(
        "Over all {} octile A* workloads, every queue by score (the geometric mean of its time ÷ \
         the fastest's on each workload it was measured on), fastest first. \"Takes\": its time ÷ \
         std-binary-heap-dup's, geometric mean over the workloads both ran, a cut-off counting \
         as its measured lower bound (\"at least\"). \"Expands\": the cells its searches \
         expanded ÷ std's on the same workloads, geometric mean and the largest: exact queues \
         differ there only by their tie order, so a time won with fewer expansions was won \
         partly by the order of ties. Queues cut off somewhere are listed after the others, \
         their score a lower bound.",
        workloads.len()
    )));
    let mut notes = Notes::default();
    let standings = ctx.findings.rank(&workloads, Eligible::Any);
    let rows: Vec<Vec<String>> = standings
        .iter()
        .map(|s| {
            let entry = registry::find(s.queue);
            let takes = versus(&workloads, s.queue, BASELINE)
                .map_or_else(|| notes.dash("never measured beside the baseline"), |v| v.reads());
            vec![
                format!("`{}`", s.queue),
                entry.map_or_else(
                    || notes.dash("not in this build's registry"),
                    |e| e.family.to_string(),
                ),
                entry.map_or_else(
                    || notes.dash("not in this build's registry"),
                    |e| e.keys.to_string(),
                ),
                if s.ok > 0 { significant(s.score, 3) } else { notes.dash("never measured") },
                takes,
                expansions_versus(&workloads, s.queue, BASELINE).map_or_else(
                    || notes.dash("never measured beside the baseline"),
                    |(mean, largest)| format!("{} (up to {})", ratio(mean), ratio(largest)),
                ),
                format!("{} of {}", s.ok, s.ok + s.cut_off + s.failed),
            ]
        })
        .collect();
    blocks.push(Block::Table(
        [
            "queue",
            "family",
            "keys",
            "score",
            "takes (std = 1)",
            "expands (std = 1)",
            "workloads timed",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    ));
    blocks.extend(notes.block());
    blocks
}
