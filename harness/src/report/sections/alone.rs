//! The queue alone: held sizes, and recorded searches replayed.

use pqlab_queues::registry::BASELINE;

use crate::analysis::bands::Eligible;
use crate::analysis::Run;
use crate::format::{count, plural, time};
use crate::report::charts::Section;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::{Kind, Status};

use super::{charts, tie_text};

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let run = ctx.run;
    let mut blocks = vec![Block::Heading(2, "The queue alone".into())];
    blocks.extend(charts(ctx, Section::Alone));
    blocks.push(Block::Paragraph(
        "A frontier held at a fixed size by A*-shaped operations (pop the best, push a node a \
         little above it, now and then lower a held key): nanoseconds per operation, each \
         size's queues timed in the same rounds. The largest sizes, too big to hold every \
         queue at once, are timed in groups, each with the baseline."
            .into(),
    ));
    blocks.extend(held_sizes(run).map(Block::Paragraph));
    let replays: Vec<_> = run.of(Kind::Replay).collect();
    if !replays.is_empty() {
        let rows: Vec<Vec<String>> = replays
            .iter()
            .filter_map(|w| {
                let standings = ctx.findings.rank(&[*w], Eligible::Exact);
                let group = crate::analysis::rank::tie_group(&standings).collect::<Vec<_>>();
                let best = group.first()?;
                Some(vec![
                    w.name.to_owned(),
                    count(w.size),
                    tie_text(&group),
                    time(w.ok(best.queue)?.median_ns),
                ])
            })
            .collect();
        blocks.push(Block::Paragraph(
            "Recorded A* searches replayed against each queue alone (the trace relabelled \
             so each queue pops exactly the recorded keys):"
                .into(),
        ));
        blocks.push(Block::Table(
            ["workload", "open cells", "fastest (tie group)", "per operation"]
                .map(String::from)
                .to_vec(),
            rows,
        ));
        if let Some(agreement) = crate::analysis::replays::agreement(ctx.findings) {
            blocks.push(Block::Paragraph(format!(
                "{} This is how far `pqlab pick --trace`, which replays a user's trace, can be trusted.",
                agreement.sentence()
            )));
        }
    }
    blocks
}

/// Which held sizes this machine held, in how many groups the largest, and what the next
/// size would need from the bytes per entry measured at the largest; `None` without held
/// sizes. An exact queue with an `n/a` row at a held size did not fit the memory limit.
pub(super) fn held_sizes(run: &Run<'_>) -> Option<String> {
    run.of(Kind::Synthetic).next()?;
    let mut held: Vec<_> = run.of(Kind::Synthetic).filter(|w| w.ok(BASELINE).is_some()).collect();
    held.sort_by(|a, b| a.size.total_cmp(&b.size));
    let mut text = match (held.first(), held.last()) {
        (Some(first), Some(last)) => {
            let sizes = if held.len() == 1 {
                format!("{} entries", count(last.size))
            } else {
                format!("{} to {} entries, the largest", count(first.size), count(last.size))
            };
            let groups = last.rows.values().map(|r| r.group).max().unwrap_or(0).max(1);
            format!(
                "This machine held the synthetic workload at {sizes} in {} (the queues of a \
                 size are held in groups that fit the memory limit, `PQLAB_MEMORY`, by \
                 default half the available memory and at most 1 GiB).",
                plural(groups as usize, "group")
            )
        }
        _ => "This machine held none of the synthetic workload's sizes asked for (the \
              memory limit is `PQLAB_MEMORY`, by default half the available memory and at \
              most 1 GiB)."
            .to_owned(),
    };
    let unheld: Vec<String> = run
        .of(Kind::Synthetic)
        .filter_map(|w| {
            let n = w
                .rows
                .values()
                .filter(|r| r.is_exact() && r.status == Status::NotApplicable)
                .count();
            (n > 0).then(|| format!("{} at {}", plural(n, "queue"), count(w.size)))
        })
        .collect();
    if !unheld.is_empty() {
        text += &format!(" Not held, over the memory limit: {}.", unheld.join(", "));
    }
    let Some(last) = held.last() else { return Some(text) };
    let hold = crate::lab::synthetic::HOLD_BYTES_PER_ENTRY as f64;
    let per_entry: f64 =
        last.rows.values().filter_map(|r| r.bytes_per_entry).map(|b| b + hold).sum();
    if per_entry > 0.0 {
        text += &format!(
            " The next size, {} entries, would need about {} MiB to hold every queue at \
             once (their bytes per entry at {}); `PQLAB_HELD_MAX` adds it where the memory \
             allows.",
            count(last.size * 10.0),
            count(per_entry * last.size * 10.0 / f64::from(1 << 20)),
            count(last.size)
        );
    }
    Some(text)
}
