//! Approximate order against weighted A*: each way of trading path length for time, as its
//! time over exact octile A* with std's BinaryHeap against its paths' length over optimal.

use super::{styles, CONTEXT, WIDTH};
use crate::analysis::trades::{self, Trade};
use crate::analysis::{geomean, Findings};
use crate::format::axis_ratio;
use crate::report::draw::{Figure, Legend, Panel, Point, PointSet, Points};

/// One way of trading path length for time, named, with one `(time ratio, path ratio)`
/// per workload.
type TradeCurve = (String, Vec<(f64, f64)>);

/// The run's trades ([`Findings::trades`]) as the chart names and orders them: the soft
/// heaps by id, then weighted A* by weight; each point `(time ratio, path length ÷
/// optimal)`.
fn ways(trades: &[Trade<'_>]) -> Vec<TradeCurve> {
    let points = |t: &Trade<'_>| t.points.iter().map(|p| (p.time, 1.0 + p.excess_mean)).collect();
    let mut soft: Vec<TradeCurve> = Vec::new();
    let mut weighted: Vec<TradeCurve> = Vec::new();
    for t in trades {
        match t.way {
            trades::Way::SoftHeap { queue, .. } => soft.push((queue.to_owned(), points(t))),
            trades::Way::Weighted { weight } => {
                weighted.push((format!("weighted A*, w = {weight}"), points(t)))
            }
        }
    }
    soft.sort_by(|a, b| a.0.cmp(&b.0));
    soft.extend(weighted);
    soft
}

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let ways = ways(findings.trades());
    if ways.is_empty() {
        return None;
    }
    let names = styles(ways.iter().map(|(n, _)| n.as_str()));
    let mut series = Vec::new();
    for (name, points) in &ways {
        series.push(PointSet {
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
        series.push(PointSet {
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
            sets: series,
            cut_offs: Vec::new(),
        })],
        legend: Legend {
            entries: Vec::new(),
            notes: vec!["down and left is better".into(), "grey: one workload each".into()],
        },
    })
}
