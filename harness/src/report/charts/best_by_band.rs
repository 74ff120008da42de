//! The best queue of each frontier-size band (octile A*, or held sizes where no search
//! reached), its tie group, and what std's BinaryHeap takes over it.

use pqlab_queues::registry::BASELINE;

use super::WIDTH;
use crate::analysis::bands::{self, Eligible};
use crate::analysis::Findings;
use crate::format::{axis_ratio, plural, ratio};
use crate::report::draw::{Bar, Bars, Figure, Legend, Marker, Panel, Style, COLORS};
use crate::results::Kind;
use crate::search::Series;

/// Bands with fewer workloads than this are drawn light and marked weak.
const STRONG: usize = bands::STRONG;

/// The tie group's members named after the winner; the rest are counted ("+2 more"), and
/// the band table beside the chart names them all. Five run past the chart's right edge
/// behind a 1.8× bar; three fit behind every bar up to about 1.8×.
const NAMED_TIES: usize = 3;

pub fn build(findings: &Findings<'_, '_>) -> Option<Figure> {
    let ranked = findings.bands(&Series::OCTILE, Eligible::Exact);
    let strong = Style { color: COLORS[0], marker: Marker::Square, strong: true };
    let weak = Style { color: COLORS[0], marker: Marker::Square, strong: false };
    let bars: Vec<Bar> = ranked
        .iter()
        .filter_map(|band| {
            let winner = band.winner()?.queue;
            let ties: Vec<&str> = band.tie_group().iter().skip(1).map(|s| s.queue).collect();
            let v = band.baseline_takes();
            let n = band.evidence.workloads.len();
            let source = if band.evidence.kind == Kind::Synthetic { "held" } else { "A*" };
            let mut text = winner.to_string();
            if !ties.is_empty() {
                let named = ties.len().min(NAMED_TIES);
                text.push_str(&format!(" ≈ {}", ties[..named].join(", ")));
                if ties.len() > named {
                    text.push_str(&format!(" +{} more", ties.len() - named));
                }
            }
            if let Some(v) = v.filter(|_| winner != BASELINE) {
                text.push_str(&format!("  (std: {})", ratio(v.ratio.mid)));
            }
            let weak_band = n < STRONG;
            Some(Bar {
                label: format!(
                    "{} ({source}, {}{})",
                    band.evidence.band.label(),
                    plural(n, "workload"),
                    if weak_band { ", weak" } else { "" }
                ),
                value: v.map_or(1.0, |v| v.ratio.mid.max(1.0)),
                interval: v.filter(|_| winner != BASELINE).map(|v| v.ratio),
                style: if weak_band { weak } else { strong },
                text,
            })
        })
        .collect();
    if bars.is_empty() {
        return None;
    }
    let height = 260 + 70 * bars.len() as u32;
    Some(Figure {
        name: "best-by-band",
        title: "The best queue per frontier size: its tie group, and std's BinaryHeap's time over it".into(),
        size: (WIDTH, height),
        columns: 1,
        panels: vec![Panel::Bars(Bars {
            title: String::new(),
            x_label: "std-binary-heap-dup's time ÷ the winner's (whole searches; the whisker is the 95% interval)".into(),
            x_format: axis_ratio,
            rule: Some(1.0),
            bars,
        })],
        legend: Legend {
            entries: vec![
                ("3 workloads or more".into(), strong),
                ("weak: fewer than 3".into(), weak),
            ],
            notes: vec![
                "≈: in the winner's tie group".into(),
                "(cannot be told apart from it)".into(),
                "held: no octile search reached".into(),
                "the band; the queue alone".into(),
            ],
        },
    })
}
