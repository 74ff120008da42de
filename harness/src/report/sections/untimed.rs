//! Rows with no figures, and why.

use crate::format::{axis_ratio, ratio};
use crate::lab::Profile;
use crate::report::page::Block;
use crate::report::Context;
use crate::results::{Row, Status};

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let rows = ctx.run.rows;
    let untimed: Vec<&Row> = rows.iter().filter(|r| r.status != Status::Ok).collect();
    if untimed.is_empty() {
        return Vec::new();
    }
    // One line per queue, kind, status and note.
    type Line<'r> = (Vec<&'r str>, &'r str, Vec<f64>);
    let mut lines: std::collections::BTreeMap<(String, &str, &str), Line<'_>> = Default::default();
    for r in &untimed {
        let key = (r.queue.clone(), r.kind.name(), r.status.name());
        let entry = lines.entry(key).or_insert((Vec::new(), r.note.as_str(), Vec::new()));
        entry.0.push(r.workload.as_str());
        entry.2.extend(r.bound);
    }
    let table: Vec<Vec<String>> = lines
        .into_iter()
        .map(|((queue, kind, status), (workloads, note, bounds))| {
            let bound = match bounds.iter().copied().reduce(f64::min) {
                None => "–".to_owned(),
                Some(lo) => {
                    let hi = bounds.iter().copied().fold(lo, f64::max);
                    if hi > lo * 1.005 {
                        format!("≥ {}–{}", ratio(lo), ratio(hi))
                    } else {
                        format!("≥ {}", ratio(lo))
                    }
                }
            };
            vec![
                format!("`{queue}`"),
                kind.into(),
                status.into(),
                if workloads.len() > 3 {
                    format!("{} workloads", workloads.len())
                } else {
                    workloads.join(", ")
                },
                bound,
                note.into(),
            ]
        })
        .collect();
    vec![
        Block::Heading(2, "Not timed".into()),
        Block::Paragraph(format!(
            "Rows with no figures, and why: `cut off` (its check pass on that workload was \
             stopped once it ran over the limit, {} the baseline's pass (the run's profile's \
             setting) and at least \
             the floor; a queue is cut off only on its own evidence on that workload), \
             `failed` (a wrong answer or a rejected key), `not applicable` (a monotone queue \
             under an inconsistent heuristic, an approximate queue where exact pops are \
             needed, a held queue that did not fit in memory). A cut-off's measured lower \
             bound, the stopped pass's time over the baseline's, is censored evidence: \
             rankings and verdicts count the queue there as taking at least that multiple \
             of the baseline's time, never drop it.",
            axis_ratio(Profile::of_run(&untimed[0].run).slowdown())
        )),
        Block::Table(
            ["queue", "kind", "status", "where", "at least (× the baseline)", "why (the first)"]
                .map(String::from)
                .to_vec(),
            table,
        ),
    ]
}
