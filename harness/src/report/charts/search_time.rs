//! Time per whole search against the frontier size, one panel per heuristic and scale:
//! every workload a point per queue, the queues in some workload's tie group and the
//! baseline named, the rest grey. Points are never joined: workloads of similar size on
//! different maps differ in search length.

use std::collections::BTreeMap;

use pqlab_queues::registry::BASELINE;

use super::{most_often_tied, styles, CONTEXT, WIDTH};
use crate::analysis::bands::series;
use crate::analysis::{Findings, Workload};
use crate::format::{axis_time, short};
use crate::report::draw::{Figure, Legend, Panel, Point, PointSet, Points, Style};
use crate::results::{Row, Spread};

/// The most queues named (besides the baseline): as many as
/// [`COLORS`](crate::report::draw::COLORS) has colours, so that each named queue has a
/// colour of its own (the baseline is black).
const NAMED: usize = 7;

/// One figure of a row plotted against its workload's frontier size: the marker at its
/// middle, the bar between its ends.
type Measure = fn(&Row) -> Option<Spread>;

/// Time per search: the median round, the bar its quartiles.
pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    by_size(
        findings,
        ("search-time", "Time per search against the frontier size, per heuristic"),
        ("time per search", "bar: p25–p75 of the rounds"),
        |row| Some(row.spread()),
    )
}

/// Latency: the 99th-percentile search, the bar from the median search to the slowest
/// (rows of runs before schema 4 have none, and are left out).
pub fn latency(findings: &Findings<'_, '_>) -> Option<Figure> {
    by_size(
        findings,
        ("latency", "The 99th-percentile search against the frontier size, per series"),
        ("p99 of one search", "bar: median to slowest search"),
        |row| {
            Some(Spread {
                low: row.search_p50_ns?,
                mid: row.search_p99_ns?,
                high: row.search_max_ns?,
            })
        },
    )
}

/// `measure` of every row against its workload's frontier size, one panel per series:
/// the queues most often in a workload's tie group and the baseline named, the rest grey.
fn by_size(
    findings: &Findings<'_, '_>,
    (name, title): (&'static str, &str),
    (y_label, bar): (&str, &str),
    measure: Measure,
) -> Option<Figure> {
    // The queues most often in a workload's tie group over every series, and the baseline,
    // named with one style each for the whole figure.
    let run = findings.run;
    let selections = series(run);
    let tied = most_often_tied(
        findings,
        run.workloads.iter().filter(|w| selections.iter().any(|s| s.admits(w))),
    );
    let mut names: Vec<&str> = tied.into_iter().filter(|q| *q != BASELINE).take(NAMED).collect();
    names.push(BASELINE);
    let styles = styles(names.iter().copied());
    let panels: Vec<Panel> = selections
        .iter()
        .filter_map(|selection| {
            let workloads: Vec<_> = run.workloads.iter().filter(|w| selection.admits(w)).collect();
            let series = panel_series(&workloads, &styles, measure);
            (!series.is_empty()).then(|| {
                Panel::Points(Points {
                    title: selection.describe(),
                    x_label: "most open cells at once".into(),
                    y_label: y_label.into(),
                    x_format: short,
                    y_format: axis_time,
                    rule: None,
                    sets: series,
                    cut_offs: Vec::new(),
                })
            })
        })
        .collect();
    if panels.is_empty() {
        return None;
    }
    let mut legend = Legend::default();
    for name in &names {
        legend.entries.push(((*name).to_owned(), styles[name]));
    }
    legend.entries.push(("every other queue".into(), CONTEXT));
    legend.notes =
        vec!["named: in some workload's tie".into(), "group, and the baseline".into(), bar.into()];
    let rows = panels.len().div_ceil(2) as u32;
    Some(Figure {
        name,
        title: title.into(),
        size: (WIDTH, 120 + 560 * rows),
        columns: 2,
        panels,
        legend,
    })
}

/// One series per queue measured on `workloads`: the grey context first, then the named
/// queues (in `styles`), so they are drawn on top; empty when nothing was measured.
fn panel_series(
    workloads: &[&Workload<'_>],
    styles: &BTreeMap<&str, Style>,
    measure: Measure,
) -> Vec<PointSet> {
    let mut queues: Vec<&str> = workloads.iter().flat_map(|w| w.rows.keys().copied()).collect();
    queues.sort_unstable();
    queues.dedup();
    let mut context = Vec::new();
    let mut strong = Vec::new();
    for queue in queues {
        let points: Vec<_> = workloads
            .iter()
            .filter_map(|w| Some(Point { x: w.size, y: measure(w.ok(queue)?)? }))
            .collect();
        if points.is_empty() {
            continue;
        }
        let (style, into) = match styles.get(queue) {
            Some(&style) => (style, &mut strong),
            None => (CONTEXT, &mut context),
        };
        into.push(PointSet { name: queue.to_owned(), style, points, join: false, label: false });
    }
    context.extend(strong);
    context
}
