//! pqlab's A* against other crates' A* on the same problems, and each queue's whole search
//! against the oracle floor (the same A* with a frontier that replays a recorded order).

use std::collections::BTreeMap;

use pqlab_queues::registry::BASELINE;

use super::{ratio_point, styles, CONTEXT, WIDTH};
use crate::analysis::bands::{self, Eligible};
use crate::analysis::rank::tie_group;
use crate::analysis::Findings;
use crate::format::{axis_ratio, short};
use crate::report::draw::{Figure, Legend, Panel, Points, Series};
use crate::results::{Kind, ORACLE};

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let mut panels = Vec::new();
    let peers: Vec<_> = run.of(Kind::Peer).collect();
    if !peers.is_empty() {
        let mut ids: Vec<&str> = findings.peers().iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        let names = styles(ids.iter().copied().chain(["pqlab, fastest queue"]));
        let mut series = Vec::new();
        for &id in &ids {
            let points: Vec<_> = findings
                .peers()
                .iter()
                .filter(|p| p.id == id)
                .map(|p| ratio_point(p.size, p.row, p.by))
                .collect();
            if !points.is_empty() {
                series.push(Series {
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
            let name = "pqlab, fastest queue";
            series.push(Series {
                name: name.into(),
                style: names[name],
                points: fastest,
                join: false,
                label: true,
            });
        }
        panels.push(Panel::Points(Points {
            title: "against pqlab with std's heap".into(),
            x_label: "most open cells at once".into(),
            y_label: "time ÷ pqlab's (std-binary-heap-dup)".into(),
            x_format: short,
            y_format: axis_ratio,
            rule: Some(1.0),
            series,
            cut_offs: Vec::new(),
        }));
    }
    let floored: Vec<_> =
        run.of(Kind::Astar).filter(|w| run.twin(w, Kind::Oracle).is_some()).collect();
    if !floored.is_empty() {
        let mut wins: BTreeMap<&str, usize> = BTreeMap::new();
        for w in &floored {
            for s in tie_group(&findings.rank(&[*w], Eligible::Exact)) {
                *wins.entry(s.queue).or_default() += 1;
            }
        }
        let mut named: Vec<(&str, usize)> = wins.into_iter().collect();
        named.sort_by_key(|&(_, wins)| std::cmp::Reverse(wins));
        let names = styles(named.iter().take(5).map(|(q, _)| *q).chain([BASELINE]));
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
            match names.get(queue) {
                Some(&style) => strong.push(Series {
                    name: queue.into(),
                    style,
                    points,
                    join: false,
                    label: false,
                }),
                None => context.push(Series {
                    name: queue.into(),
                    style: CONTEXT,
                    points,
                    join: false,
                    label: false,
                }),
            }
        }
        context.extend(strong);
        panels.push(Panel::Points(Points {
            title: "each queue's time ÷ the oracle floor's".into(),
            x_label: "most open cells at once".into(),
            y_label: "time ÷ oracle time".into(),
            x_format: short,
            y_format: axis_ratio,
            rule: Some(1.0),
            series: context,
            cut_offs: Vec::new(),
        }));
        let mut legend = Legend::default();
        for (name, style) in &names {
            legend.entries.push(((*name).to_owned(), *style));
        }
        legend.entries.push(("every other queue".into(), CONTEXT));
        legend.notes =
            vec!["right panel, named: most often".into(), "in a workload's tie group".into()];
        return Some(Figure {
            name: "peers-and-oracle",
            title: "Against other crates' A*, and against the oracle floor".into(),
            size: (WIDTH, 760),
            columns: panels.len(),
            panels,
            legend,
        });
    }
    (!panels.is_empty()).then(|| Figure {
        name: "peers-and-oracle",
        title: "Against other crates' A*".into(),
        size: (WIDTH, 760),
        columns: 1,
        panels,
        legend: Legend::default(),
    })
}
