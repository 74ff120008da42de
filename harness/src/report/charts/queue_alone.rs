//! The queue alone: nanoseconds per operation at held frontier sizes, in small multiples by
//! family, each queue's sizes joined (one workload shape at growing sizes), with std's
//! BinaryHeap in every panel.

use pqlab_queues::registry::BASELINE;

use super::{cut_off, group_of, point, styles, GROUPS, OTHER, WIDTH};
use crate::analysis::Findings;
use crate::format::{axis_time, short};
use crate::report::draw::{Figure, Legend, Panel, PointSet, Points};
use crate::results::{Kind, Status};

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let held: Vec<_> = run.of(Kind::Synthetic).collect();
    if held.is_empty() {
        return None;
    }
    let mut panels = Vec::new();
    for (g, (title, _)) in GROUPS.iter().chain([&OTHER]).enumerate() {
        let mut queues: Vec<&str> = held
            .iter()
            .flat_map(|w| w.rows.values())
            .filter(|r| r.family.is_some_and(|f| group_of(f) == g) && r.queue != BASELINE)
            .filter(|r| r.status != Status::NotApplicable)
            .map(|r| r.queue.as_str())
            .collect();
        queues.sort_unstable();
        queues.dedup();
        // A group none of whose queues can be held (soft heaps) gets no panel.
        if queues.is_empty() {
            continue;
        }
        if !queues.contains(&BASELINE) {
            queues.push(BASELINE);
        }
        let names = styles(queues.iter().copied());
        let mut series = Vec::new();
        let mut cut_offs = Vec::new();
        for &queue in &queues {
            let style = names[queue];
            let points: Vec<_> =
                held.iter().filter_map(|w| Some(point(w.size, w.ok(queue)?))).collect();
            cut_offs.extend(cut_off(
                queue,
                style,
                held.iter().filter_map(|w| Some((w.size, *w.rows.get(queue)?))),
            ));
            if !points.is_empty() {
                series.push(PointSet {
                    name: queue.to_owned(),
                    style,
                    points,
                    join: true,
                    label: true,
                });
            }
        }
        panels.push(Panel::Points(Points {
            title: (*title).to_owned(),
            x_label: "entries held".into(),
            y_label: "time per operation".into(),
            x_format: short,
            y_format: axis_time,
            rule: None,
            sets: series,
            cut_offs,
        }));
    }
    let rows = panels.len().div_ceil(2) as u32;
    Some(Figure {
        name: "queue-alone",
        title: "The queue alone: time per operation with the frontier held at a size (black: std's BinaryHeap)".into(),
        size: (WIDTH, 120 + 560 * rows),
        columns: 2,
        panels,
        legend: Legend::default(),
    })
}
