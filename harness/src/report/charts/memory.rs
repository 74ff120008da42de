//! Memory: entries held per open cell in octile A* (duplicates keep stale entries), and
//! the heap bytes each queue holds per entry at a held size.

use std::collections::BTreeMap;

use pqlab_queues::registry::BASELINE;
use pqlab_queues::Strategy;

use super::{styles, CONTEXT, WIDTH};
use crate::analysis::memory;
use crate::analysis::{Findings, Run};
use crate::format::{short, significant};
use crate::report::draw::axis_count;
use crate::report::draw::{Bar, Bars, Figure, Legend, Panel, Point, PointSet, Points, Style};
use crate::results::Row;
use crate::search::Series;

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let names = styles([BASELINE, "duplicates (every other)", "decrease-key"]);
    let panels: Vec<Panel> =
        entries_panel(run, &names).into_iter().chain(bytes_panel(run, &names)).collect();
    if panels.is_empty() {
        return None;
    }
    let bars = panels
        .iter()
        .map(|p| match p {
            Panel::Bars(b) => b.bars.len(),
            _ => 0,
        })
        .sum::<usize>() as u32;
    Some(Figure {
        name: "memory",
        title: "Memory: entries held, and bytes per entry".into(),
        size: (WIDTH, 700.max(200 + 28 * bars)),
        columns: panels.len(),
        panels,
        legend: Legend {
            entries: vec![
                (BASELINE.into(), names[BASELINE]),
                ("other duplicates queues".into(), CONTEXT),
                ("decrease-key queues".into(), names["decrease-key"]),
            ],
            notes: vec![
                "left: one point per queue".into(),
                "and workload; decrease-key".into(),
                "holds one entry per open cell".into(),
            ],
        },
    })
}

/// Entries held per open cell on every octile A* workload: one point per queue and
/// workload, duplicates grey, decrease-key and the baseline named; `None` when no queue
/// counted its frontier.
fn entries_panel(run: &Run<'_>, names: &BTreeMap<&str, Style>) -> Option<Panel> {
    let workloads: Vec<_> = run.workloads.iter().filter(|w| Series::OCTILE.admits(w)).collect();
    let strategies =
        [(Strategy::Duplicates, "duplicates"), (Strategy::DecreaseKey, "decrease-key")];
    let mut series = Vec::new();
    for (strategy, label) in strategies {
        let points: Vec<Point> = workloads
            .iter()
            .flat_map(|w| w.rows.values().map(move |r| (w, r)))
            .filter(|(_, r)| {
                r.strategy == Some(strategy)
                    && r.queue != BASELINE
                    && r.max_open > 0.0
                    && r.max_frontier > 0.0
            })
            .map(|(w, r)| held_point(w.size, r))
            .collect();
        let style = if strategy == Strategy::Duplicates { CONTEXT } else { names["decrease-key"] };
        if !points.is_empty() {
            series.push(PointSet { name: label.into(), style, points, join: false, label: false });
        }
    }
    let base: Vec<Point> =
        workloads.iter().filter_map(|w| Some(held_point(w.size, w.ok(BASELINE)?))).collect();
    if !base.is_empty() {
        series.push(PointSet {
            name: BASELINE.into(),
            style: names[BASELINE],
            points: base,
            join: false,
            label: false,
        });
    }
    (!series.is_empty()).then(|| {
        Panel::Points(Points {
            title: "entries held per open cell (octile A*)".into(),
            x_label: "most open cells at once".into(),
            y_label: "most entries held ÷ most open cells".into(),
            x_format: short,
            y_format: |v| significant(v, 3),
            rule: Some(1.0),
            sets: series,
            cut_offs: Vec::new(),
        })
    })
}

/// Heap bytes per entry of every queue that counted them, at the held size the memory
/// figures quote ([`memory::bytes_workload`]), fewest first; `None` when none did.
fn bytes_panel(run: &Run<'_>, names: &BTreeMap<&str, Style>) -> Option<Panel> {
    let held = memory::bytes_workload(run)?;
    let mut measured: Vec<(&Row, f64)> = held
        .rows
        .values()
        .filter_map(|r| Some((*r, memory::bytes_per_entry(run, &r.queue)?)))
        .collect();
    measured.sort_by(|a, b| a.1.total_cmp(&b.1));
    let bars: Vec<Bar> = measured
        .iter()
        .map(|&(r, bytes)| {
            Bar {
                label: r.queue.clone(),
                value: bytes,
                interval: None,
                // Coloured as the legend and the left panel: decrease-key orange,
                // duplicates grey.
                style: if r.queue == BASELINE {
                    names[BASELINE]
                } else if r.strategy == Some(Strategy::DecreaseKey) {
                    Style { strong: false, ..names["decrease-key"] }
                } else {
                    Style { strong: true, ..CONTEXT }
                },
                text: format!("{} B", significant(bytes, 3)),
            }
        })
        .collect();
    (!bars.is_empty()).then(|| {
        Panel::Bars(Bars {
            title: format!("heap bytes per entry, held at {}", short(held.size)),
            x_label: "bytes per entry (the queue's own allocations)".into(),
            x_format: axis_count,
            rule: None,
            bars,
        })
    })
}

/// Entries held over open cells at `x` ([`memory::entries_per_open`]).
fn held_point(x: f64, row: &Row) -> Point {
    Point::at(x, memory::entries_per_open(row).unwrap_or(0.0))
}
