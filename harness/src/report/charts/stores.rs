//! The A* with its per-cell state in a hash table or in an array reset every search,
//! against the same queue with the stamped flat array on the same problems.

use super::{styles, WIDTH};
use crate::analysis::{geomean, Findings};
use crate::format::{axis_ratio, plural, ratio};
use crate::report::draw::{Bar, Bars, Figure, Legend, Panel};
use crate::results::Kind;
use crate::search::store::StoreKind;

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let names = styles(StoreKind::ALTERNATIVES.map(StoreKind::token));
    let mut bars = Vec::new();
    for store in StoreKind::ALTERNATIVES {
        let mut per_queue: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
        for w in run.of(Kind::Astar).filter(|w| w.store() == Some(store)) {
            let Some(flat) = w.heuristic().and_then(|h| run.sibling(w, h, StoreKind::Flat)) else {
                continue;
            };
            for (queue, row) in w.rows.iter() {
                if let (Some(h), Some(f)) = (w.ok(queue), flat.ok(queue)) {
                    let _ = row;
                    per_queue.entry(queue).or_default().push(h.median_ns / f.median_ns);
                }
            }
        }
        for (queue, ratios) in per_queue {
            let g = geomean(ratios.iter().copied());
            bars.push(Bar {
                label: format!("{queue}, {store}"),
                value: g,
                interval: None,
                style: names[store.token()],
                text: format!("{} ({})", ratio(g), plural(ratios.len(), "workload")),
            });
        }
    }
    if bars.is_empty() {
        return None;
    }
    let height = 220 + 40 * bars.len() as u32;
    Some(Figure {
        name: "stores",
        title: "Membership: time ÷ the same queue's with the stamped flat array".into(),
        size: (WIDTH, height),
        columns: 1,
        panels: vec![Panel::Bars(Bars {
            title: String::new(),
            x_label: "time with this store ÷ time with the stamped flat array (geometric mean over workloads)".into(),
            x_format: axis_ratio,
            rule: Some(1.0),
            bars,
        })],
        legend: Legend::default(),
    })
}
