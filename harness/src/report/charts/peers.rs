//! pqlab's A* against other crates' A* on the same problems, and each queue's whole search
//! against the oracle floor (the same A* with a frontier that replays a recorded order).

use pqlab_queues::registry::BASELINE;

use super::{most_often_tied, ratio_point, styles, CONTEXT, WIDTH};
use crate::analysis::bands;
use crate::analysis::Findings;
use crate::format::{axis_ratio, short};
use crate::report::draw::{Figure, Legend, Panel, PointSet, Points};
use crate::results::{Kind, ORACLE};
use crate::search::Series;

/// The series that stands for pqlab itself in the peers panel.
const FASTEST: &str = "pqlab, fastest queue";

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let peers = peers_panel(findings);
    match oracle_panel(findings) {
        Some((oracle, legend)) => {
            let panels: Vec<Panel> = peers.into_iter().chain([oracle]).collect();
            Some(Figure {
                name: "peers-and-oracle",
                title: "Against other crates' A*, and against the oracle floor".into(),
                size: (WIDTH, 760),
                columns: panels.len(),
                panels,
                legend,
            })
        }
        None => peers.map(|panel| Figure {
            name: "peers-and-oracle",
            title: "Against other crates' A*".into(),
            size: (WIDTH, 760),
            columns: 1,
            panels: vec![panel],
            legend: Legend::default(),
        }),
    }
}

/// Each peer crate's time over pqlab's with the baseline, beside pqlab's fastest queue's;
/// `None` when the run has no peer rows.
fn peers_panel(findings: &Findings<'_, '_>) -> Option<Panel> {
    let run = findings.run;
    let peers: Vec<_> = run.of(Kind::Peer).collect();
    if peers.is_empty() {
        return None;
    }
    let mut ids: Vec<&str> = findings.peers().iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let names = styles(ids.iter().copied().chain([FASTEST]));
    let mut series = Vec::new();
    for &id in &ids {
        let points: Vec<_> = findings
            .peers()
            .iter()
            .filter(|p| p.id == id)
            .map(|p| ratio_point(p.size, p.row, p.by))
            .collect();
        if !points.is_empty() {
            series.push(PointSet {
                name: id.to_owned(),
                style: names[id],
                points,
                join: false,
                label: true,
            });
        }
    }
    let fastest: Vec<_> = peers
        .iter()
        .filter_map(|p| {
            let searched = run.twin(p, Kind::Astar)?;
            let best = searched.fastest(bands::exact)?;
            Some(ratio_point(searched.size, best, searched.ok(BASELINE)?))
        })
        .collect();
    if !fastest.is_empty() {
        series.push(PointSet {
            name: FASTEST.into(),
            style: names[FASTEST],
            points: fastest,
            join: false,
            label: true,
        });
    }
    Some(Panel::Points(Points {
        title: "against pqlab with std's heap".into(),
        x_label: "most open cells at once".into(),
        y_label: "time ÷ pqlab's (std-binary-heap-dup)".into(),
        x_format: short,
        y_format: axis_ratio,
        rule: Some(1.0),
        sets: series,
        cut_offs: Vec::new(),
    }))
}

/// Every queue's time over the oracle floor's on the octile A\* workloads (the series the
/// peers ran), the five most often in a workload's tie group and the baseline named, with
/// the figure's legend; `None` when the run has no such oracle rows.
fn oracle_panel(findings: &Findings<'_, '_>) -> Option<(Panel, Legend)> {
    let run = findings.run;
    let floored: Vec<_> = run
        .of(Kind::Astar)
        .filter(|w| Series::OCTILE.admits(w) && run.twin(w, Kind::Oracle).is_some())
        .collect();
    if floored.is_empty() {
        return None;
    }
    let named = most_often_tied(findings, floored.iter().copied());
    let names = styles(named.iter().take(5).copied().chain([BASELINE]));
    let mut queues: Vec<&str> = floored.iter().flat_map(|w| w.rows.keys().copied()).collect();
    queues.sort_unstable();
    queues.dedup();
    let (mut context, mut strong) = (Vec::new(), Vec::new());
    for queue in queues {
        let points: Vec<_> = floored
            .iter()
            .filter_map(|w| {
                Some(ratio_point(w.size, w.ok(queue)?, run.twin(w, Kind::Oracle)?.ok(ORACLE)?))
            })
            .collect();
        if points.is_empty() {
            continue;
        }
        let (style, into) = match names.get(queue) {
            Some(&style) => (style, &mut strong),
            None => (CONTEXT, &mut context),
        };
        into.push(PointSet { name: queue.into(), style, points, join: false, label: false });
    }
    context.extend(strong);
    let panel = Panel::Points(Points {
        title: "each queue's time ÷ the oracle floor's".into(),
        x_label: "most open cells at once".into(),
        y_label: "time ÷ oracle time".into(),
        x_format: short,
        y_format: axis_ratio,
        rule: Some(1.0),
        sets: context,
        cut_offs: Vec::new(),
    });
    let mut legend = Legend::default();
    for (name, style) in &names {
        legend.entries.push(((*name).to_owned(), *style));
    }
    legend.entries.push(("every other queue".into(), CONTEXT));
    legend.notes =
        vec!["right panel, named: most often".into(), "in a workload's tie group".into()];
    Some((panel, legend))
}
