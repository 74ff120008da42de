//! Every queue's time over the baseline's on each octile A* workload, in small multiples by
//! family: each queue of a panel has its own colour and marker and is named at its end.
//! With a single workload, a sorted bar chart instead.

use pqlab_queues::registry::BASELINE;

use super::{cut_off, group_of, ratio_point, styles, GROUPS, OTHER, WIDTH};
use crate::analysis::{Findings, Run, Workload};
use crate::format::{axis_ratio, ratio, short};
use crate::report::draw::{Bar, Bars, Figure, Legend, Panel, PointSet, Points};
use crate::results::Status;
use crate::search::Series;

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let workloads: Vec<_> = run
        .workloads
        .iter()
        .filter(|w| Series::OCTILE.admits(w) && w.ok(BASELINE).is_some())
        .collect();
    if workloads.is_empty() {
        return None;
    }
    if let [only] = workloads.as_slice() {
        return one_workload(only);
    }
    let panels: Vec<Panel> = GROUPS
        .iter()
        .chain([&OTHER])
        .enumerate()
        .filter_map(|(g, (title, _))| family_panel(run, &workloads, g, title))
        .collect();
    let rows = panels.len().div_ceil(2) as u32;
    Some(Figure {
        name: "relative-speed",
        title: "Each queue's time ÷ std's BinaryHeap's, octile A* workloads (below 1: faster)"
            .into(),
        size: (WIDTH, 120 + 560 * rows),
        columns: 2,
        panels,
        legend: Legend::default(),
    })
}

/// A run with a single octile workload: every measured queue's time over the baseline's,
/// as sorted bars.
fn one_workload(only: &Workload<'_>) -> Option<Figure> {
    let base = only.ok(BASELINE)?;
    let mut measured: Vec<_> = only.rows.values().filter(|r| r.status == Status::Ok).collect();
    measured.sort_by(|a, b| a.median_ns.total_cmp(&b.median_ns));
    let names = styles(measured.iter().map(|r| r.queue.as_str()));
    let bars = measured
        .iter()
        .map(|r| {
            let against = r.spread().over(&base.spread());
            Bar {
                label: r.queue.clone(),
                value: against.mid,
                interval: Some(against),
                style: names[r.queue.as_str()],
                text: ratio(against.mid),
            }
        })
        .collect::<Vec<_>>();
    let height = 220 + 34 * bars.len() as u32;
    Some(Figure {
        name: "relative-speed",
        title: format!("Time against std's BinaryHeap on {} (below 1: faster)", only.name),
        size: (WIDTH, height),
        columns: 1,
        panels: vec![Panel::Bars(Bars {
            title: String::new(),
            x_label: "time ÷ std-binary-heap-dup's time (bar: p25–p75)".into(),
            x_format: axis_ratio,
            rule: Some(1.0),
            bars,
        })],
        legend: Legend::default(),
    })
}

/// The panel of family group `g` (an index of [`GROUPS`], or `GROUPS.len()` for
/// [`OTHER`]): each of its queues' time over the baseline's on every workload, and its
/// cut-offs; `None` when the run has no queue of the group.
fn family_panel(
    run: &Run<'_>,
    workloads: &[&Workload<'_>],
    g: usize,
    title: &str,
) -> Option<Panel> {
    let mut queues: Vec<&str> = run
        .rows
        .iter()
        .filter(|r| r.family.is_some_and(|f| group_of(f) == g))
        .map(|r| r.queue.as_str())
        .collect();
    queues.sort_unstable();
    queues.dedup();
    if queues.is_empty() {
        return None;
    }
    let names = styles(queues.iter().copied());
    let mut series = Vec::new();
    let mut cut_offs = Vec::new();
    for &queue in &queues {
        let points: Vec<_> = workloads
            .iter()
            .filter_map(|w| Some(ratio_point(w.size, w.ok(queue)?, w.ok(BASELINE)?)))
            .collect();
        let style = names[queue];
        cut_offs.extend(cut_off(
            queue,
            style,
            workloads.iter().filter_map(|w| Some((w.size, *w.rows.get(queue)?))),
        ));
        if !points.is_empty() {
            series.push(PointSet {
                name: queue.to_owned(),
                style,
                points,
                join: false,
                label: true,
            });
        }
    }
    Some(Panel::Points(Points {
        title: title.to_owned(),
        x_label: "most open cells at once (the workload's median)".into(),
        y_label: "time ÷ std's".into(),
        x_format: short,
        y_format: axis_ratio,
        rule: Some(1.0),
        sets: series,
        cut_offs,
    }))
}
