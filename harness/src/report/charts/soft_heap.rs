//! Approximate order against weighted A*: each way of trading path length for time, as its
//! time over exact octile A* with std's BinaryHeap against its paths' length over optimal.

use pqlab_queues::registry::BASELINE;

use super::{styles, CONTEXT, WIDTH};
use crate::analysis::bands::Selection;
use crate::analysis::{geomean, Findings, Run, Workload};
use crate::format::axis_ratio;
use crate::report::draw::{Figure, Legend, Panel, Point, Points, Series};
use crate::results::Kind;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;

/// One way of trading path length for time, named, with one `(time ratio, path ratio)`
/// per workload.
type Way = (String, Vec<(f64, f64)>);

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let octile: Vec<_> = run.workloads.iter().filter(|w| Selection::OCTILE.admits(w)).collect();
    let mut ways = soft_heaps(run, &octile);
    ways.extend(weighted(run, &octile));
    if ways.is_empty() {
        return None;
    }
    let names = styles(ways.iter().map(|(n, _)| n.as_str()));
    let mut series = Vec::new();
    for (name, points) in &ways {
        series.push(Series {
            name: format!("{name} (one workload)"),
            style: CONTEXT,
            points: points.iter().map(|&(x, y)| Point::at(x, y)).collect(),
            join: false,
            label: false,
        });
    }
    for (name, points) in &ways {
        let x = geomean(points.iter().map(|p| p.0));
        let y = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
        series.push(Series {
            name: name.clone(),
            style: names[name.as_str()],
            points: vec![Point::at(x, y)],
            join: false,
            label: true,
        });
    }
    Some(Figure {
        name: "soft-heap",
        title: "Path length for time: soft heaps (octile A*) and weighted A* (std's BinaryHeap)".into(),
        size: (WIDTH, 900),
        columns: 1,
        panels: vec![Panel::Points(Points {
            title: String::new(),
            x_label: "time ÷ exact octile A* with std-binary-heap-dup (geometric mean; grey: each workload)".into(),
            y_label: "path length ÷ optimal (mean)".into(),
            x_format: axis_ratio,
            y_format: axis_ratio,
            rule: Some(1.0),
            series,
            cut_offs: Vec::new(),
        })],
        legend: Legend {
            entries: Vec::new(),
            notes: vec!["down and left is better".into(), "grey: one workload each".into()],
        },
    })
}

/// Each soft heap on the octile workloads, against the baseline on the same workload.
fn soft_heaps(run: &Run<'_>, octile: &[&Workload<'_>]) -> Vec<Way> {
    let mut soft: Vec<&str> =
        run.rows.iter().filter(|r| r.epsilon.is_some()).map(|r| r.queue.as_str()).collect();
    soft.sort_unstable();
    soft.dedup();
    soft.into_iter()
        .filter_map(|queue| {
            let points: Vec<(f64, f64)> = octile
                .iter()
                .filter_map(|w| {
                    let (r, base) = (w.ok(queue)?, w.ok(BASELINE)?);
                    Some((r.median_ns / base.median_ns, 1.0 + r.excess_mean.unwrap_or(0.0)))
                })
                .collect();
            (!points.is_empty()).then(|| (queue.to_owned(), points))
        })
        .collect()
}

/// Weighted A* with the baseline at each weight the run measured, against exact octile A*
/// on the same map and scale.
fn weighted(run: &Run<'_>, octile: &[&Workload<'_>]) -> Vec<Way> {
    let mut weights: Vec<f64> = run
        .of(Kind::Astar)
        .filter_map(|w| match w.heuristic() {
            Some(HeuristicKind::WeightedOctile(weight)) => Some(weight),
            _ => None,
        })
        .collect();
    weights.sort_by(f64::total_cmp);
    weights.dedup();
    weights
        .into_iter()
        .filter_map(|weight| {
            let points: Vec<(f64, f64)> = run
                .of(Kind::Astar)
                .filter(|w| {
                    w.heuristic() == Some(HeuristicKind::WeightedOctile(weight))
                        && w.store() == Some(StoreKind::Flat)
                })
                .filter_map(|w| {
                    let exact = octile
                        .iter()
                        .find(|o| o.facts.map == w.facts.map && o.scale() == w.scale())?;
                    let (r, base) = (w.ok(BASELINE)?, exact.ok(BASELINE)?);
                    Some((r.median_ns / base.median_ns, 1.0 + r.excess_mean.unwrap_or(0.0)))
                })
                .collect();
            (!points.is_empty()).then(|| (format!("weighted A*, w = {weight}"), points))
        })
        .collect()
}
