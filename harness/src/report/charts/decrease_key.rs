//! Decrease-key's time over duplicates' for every structure built both ways, on each octile
//! A* workload, one panel per class.

use pqlab_queues::registry;
use pqlab_queues::Class;

use super::{ratio_point, styles, WIDTH};
use crate::analysis::Findings;
use crate::format::{axis_ratio, short};
use crate::report::draw::{Figure, Legend, Panel, PointSet, Points};
use crate::search::Series;

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let workloads: Vec<_> = run.workloads.iter().filter(|w| Series::OCTILE.admits(w)).collect();
    let pairs = findings.strategy_pairs();
    let mut panels = Vec::new();
    for (title, classes) in [
        ("heaps", &[Class::Heap][..]),
        ("bucketing", &[Class::Bucketing][..]),
        ("arrays and ordered sets", &[Class::Array, Class::Ordered][..]),
    ] {
        let mine: Vec<_> = pairs
            .iter()
            .filter(|(_, dup, _)| registry::find(dup).is_some_and(|e| classes.contains(&e.class())))
            .collect();
        let names = styles(mine.iter().map(|(s, _, _)| s.as_str()));
        let series: Vec<PointSet> = mine
            .iter()
            .filter_map(|(structure, dup, dk)| {
                let points: Vec<_> = workloads
                    .iter()
                    .filter_map(|w| Some(ratio_point(w.size, w.ok(dk)?, w.ok(dup)?)))
                    .collect();
                (!points.is_empty()).then(|| PointSet {
                    name: structure.clone(),
                    style: names[structure.as_str()],
                    points,
                    join: false,
                    label: true,
                })
            })
            .collect();
        if !series.is_empty() {
            panels.push(Panel::Points(Points {
                title: title.into(),
                x_label: "most open cells at once".into(),
                y_label: "decrease-key's time ÷ duplicates'".into(),
                x_format: short,
                y_format: axis_ratio,
                rule: Some(1.0),
                sets: series,
                cut_offs: Vec::new(),
            }));
        }
    }
    if panels.is_empty() {
        return None;
    }
    let count = panels.len() as u32;
    Some(Figure {
        name: "decrease-key",
        title: "Decrease-key against duplicate insertion, per structure, octile A* (above 1: duplicates faster)".into(),
        size: (WIDTH, 120 + 560 * count.div_ceil(2)),
        columns: 2,
        panels,
        legend: Legend::default(),
    })
}
