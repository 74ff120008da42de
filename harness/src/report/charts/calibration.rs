//! How the generated workloads stand for real maps: each octile A* workload's frontier sizes
//! (median to p90, and the largest), generated workloads beside the Moving AI maps.

use pqlab_queues::registry::BASELINE;

use super::{styles, WIDTH};
use crate::analysis::Findings;
use crate::format::short;
use crate::report::draw::axis_count;
use crate::report::draw::{Bar, Bars, Figure, Legend, Panel};
use crate::results::Spread;
use crate::search::Series;

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let run = findings.run;
    let names = styles(["generated", "Moving AI"]);
    // The baseline's searches give each workload's sizes (every queue solves the same
    // problems; sizes differ a little with tie order).
    let mut workloads: Vec<_> = run
        .workloads
        .iter()
        .filter(|w| Series::OCTILE.admits(w))
        .filter_map(|w| Some((w, w.ok(BASELINE).filter(|r| r.open_max > 0.0)?)))
        .collect();
    if workloads.is_empty() {
        return None;
    }
    workloads.sort_by(|(a, ra), (b, rb)| {
        (a.real(), ra.open_p50)
            .partial_cmp(&(b.real(), rb.open_p50))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let bars: Vec<Bar> = workloads
        .iter()
        .map(|(w, f)| {
            let sizes = f.open_sizes();
            Bar {
                label: f.map.clone(),
                value: sizes.largest,
                // The whisker: the median, and the sizes above it up to p90.
                interval: Some(Spread { low: sizes.median, mid: sizes.median, high: sizes.p90 }),
                style: names[if w.real() { "Moving AI" } else { "generated" }],
                text: format!(
                    "median {}, p90 {}, max {}",
                    short(sizes.median),
                    short(sizes.p90),
                    short(sizes.largest)
                ),
            }
        })
        .collect();
    // Only the kinds drawn: a run without Moving AI maps has no Moving AI entry.
    let entries = names
        .into_iter()
        .filter(|(_, s)| bars.iter().any(|b| b.style == *s))
        .map(|(n, s)| (n.to_owned(), s))
        .collect();
    let height = 220 + 30 * bars.len() as u32;
    Some(Figure {
        name: "frontier-sizes",
        title: "Frontier sizes of octile A*: the generated workloads and the Moving AI maps".into(),
        size: (WIDTH, height),
        columns: 1,
        panels: vec![Panel::Bars(Bars {
            title: String::new(),
            x_label: "most open cells at once per search: the bar reaches the largest, the whisker spans median to p90".into(),
            x_format: axis_count,
            rule: None,
            bars,
        })],
        legend: Legend {
            entries,
            notes: Vec::new(),
        },
    })
}
