//! The charts of the report, built from the rows: each function returns its figure, or
//! `None` when the run has nothing to draw in it.

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::{
    bands, by_family_and_heuristic, ratio_spread, twin, versus, Lab, Workload, BASELINE,
};
use crate::format::{self, plural, ratio};
use crate::report::chart::{
    self, Bar, Bars, Figure, Legend, Lines, Palette, Panel, Point, Series, Strip, Strips, Style,
};
use crate::report::verdicts;
use crate::results::{Kind, Row, Status};

/// What the legend of a line chart says beneath the queues.
const LINE_NOTES: [&str; 4] = [
    "solid line: duplicate insertion",
    "dashed line: decrease-key",
    "bar: p25–p75 of the samples",
    "× on the top edge: cut off there",
];

const WIDE: (u32, u32) = (1500, 860);

/// A point with a row's median and quartiles.
fn spread_point(x: f64, row: &Row) -> Point {
    Point { x, y: row.median_ns, lo: row.p25_ns, hi: row.p75_ns }
}

/// `a ÷ b` as a point, with the widest ratio of values inside their quartiles as spread.
fn ratio_point(x: f64, a: &Row, b: &Row) -> Point {
    let (lo, y, hi) = ratio_spread(a, b);
    Point { x, y, lo, hi }
}

/// One series per queue over `workloads`: `point` gives a measured row's point (or
/// none); a cut-off row becomes a cross at its workload's size.
fn per_queue<'w, 'a: 'w>(
    workloads: impl IntoIterator<Item = &'w Workload<'a>>,
    palette: &Palette,
    point: impl Fn(&Workload<'a>, &'a Row) -> Option<Point>,
) -> Vec<(&'a str, Series)> {
    let mut series: BTreeMap<&'a str, Series> = BTreeMap::new();
    for workload in workloads {
        for (&queue, &row) in &workload.rows {
            let entry = series.entry(queue).or_insert_with(|| Series {
                style: palette.style(queue),
                points: Vec::new(),
                cut_offs: Vec::new(),
            });
            match row.status {
                Status::Ok => entry.points.extend(point(workload, row)),
                Status::CutOff if workload.size.is_finite() => entry.cut_offs.push(workload.size),
                _ => {}
            }
        }
    }
    series.into_iter().filter(|(_, s)| !s.points.is_empty() || !s.cut_offs.is_empty()).collect()
}

/// A figure of line panels with one legend for all their queues.
fn line_figure(
    name: &'static str,
    title: String,
    palette: &Palette,
    panels: Vec<(Lines, Vec<&str>)>,
) -> Option<Figure> {
    if panels.is_empty() {
        return None;
    }
    let queues: BTreeSet<&str> = panels.iter().flat_map(|(_, q)| q.iter().copied()).collect();
    Some(Figure {
        name,
        title,
        size: WIDE,
        legend: palette.legend(queues.into_iter().map(|q| (q, q.to_owned())), &LINE_NOTES),
        panels: panels.into_iter().map(|(lines, _)| Panel::Lines(lines)).collect(),
    })
}

/// Splits `(queue, series)` pairs into the series and the queue list.
fn unzip(named: Vec<(&str, Series)>) -> (Vec<Series>, Vec<&str>) {
    let queues = named.iter().map(|(q, _)| *q).collect();
    (named.into_iter().map(|(_, s)| s).collect(), queues)
}

/// Time per A* search against the row's frontier size, one line per queue.
pub fn search_time(lab: &Lab<'_>, palette: &Palette) -> Option<Figure> {
    let named = per_queue(&lab.astar, palette, |_, row| Some(spread_point(row.max_open, row)));
    if named.is_empty() {
        return None;
    }
    let (series, queues) = unzip(named);
    let lines = Lines {
        title: String::new(),
        x_label: "most open cells at once (mean over the suite's searches)".into(),
        y_label: "time per search (median)".into(),
        y_format: format::axis_time,
        rule: None,
        series,
    };
    line_figure(
        "search-time",
        "Whole A* searches: time per search against the frontier size".into(),
        palette,
        vec![(lines, queues)],
    )
}

/// Each queue's speed relative to the baseline on the same A* workloads.
pub fn relative_speed(lab: &Lab<'_>, palette: &Palette) -> Option<Figure> {
    let named: Vec<_> =
        per_queue(&lab.astar, palette, |w, row| Some(ratio_point(w.size, w.ok(BASELINE)?, row)))
            .into_iter()
            .filter(|(q, s)| *q != BASELINE && !s.points.is_empty())
            .collect();
    if named.is_empty() {
        return None;
    }
    let (series, queues) = unzip(named);
    let lines = Lines {
        title: String::new(),
        x_label: "most open cells at once (the workload's median over queues)".into(),
        y_label: format!("{BASELINE}'s time ÷ this queue's"),
        y_format: format::axis_ratio,
        rule: Some(1.0),
        series,
    };
    line_figure(
        "relative-speed",
        format!("Speed relative to {BASELINE} in whole A* searches (above 1: faster)"),
        palette,
        vec![(lines, queues)],
    )
}

/// Nanoseconds per frontier operation: trace replays and synthetic held sizes.
pub fn queue_alone(lab: &Lab<'_>, palette: &Palette) -> Option<Figure> {
    let panels = [
        (&lab.replay, "replaying recorded A* traces", "most open cells in the recorded searches"),
        (&lab.synthetic, "synthetic A*-shaped workload at a held size", "entries held"),
    ]
    .into_iter()
    .filter_map(|(workloads, title, x_label)| {
        let named = per_queue(workloads, palette, |_, row| Some(spread_point(row.max_open, row)));
        if named.is_empty() {
            return None;
        }
        let (series, queues) = unzip(named);
        let lines = Lines {
            title: title.into(),
            x_label: x_label.into(),
            y_label: "time per frontier operation (median)".into(),
            y_format: format::axis_time,
            rule: None,
            series,
        };
        Some((lines, queues))
    })
    .collect();
    line_figure(
        "queue-alone",
        "The queue alone: nanoseconds per operation against the frontier size".into(),
        palette,
        panels,
    )
}

/// Decrease-key time ÷ duplicates time for every structure built both ways.
pub fn decrease_key(lab: &Lab<'_>, palette: &Palette) -> Option<Figure> {
    let mut entries = Vec::new();
    let mut series = Vec::new();
    for (structure, dup, dk) in verdicts::decrease_key_pairs(lab.rows) {
        let mut line = Series {
            style: Style { dashed: false, ..palette.style(&dup) },
            points: Vec::new(),
            cut_offs: Vec::new(),
        };
        for w in lab.astar.iter().filter(|w| w.size.is_finite()) {
            match (w.rows.get(dk.as_str()), w.rows.get(dup.as_str())) {
                (Some(a), Some(b)) if a.status == Status::Ok && b.status == Status::Ok => {
                    line.points.push(ratio_point(w.size, a, b));
                }
                (a, b) if [a, b].iter().any(|r| r.is_some_and(|r| r.status == Status::CutOff)) => {
                    line.cut_offs.push(w.size);
                }
                _ => {}
            }
        }
        if !line.points.is_empty() || !line.cut_offs.is_empty() {
            entries.push((dup, structure));
            series.push(line);
        }
    }
    if series.is_empty() {
        return None;
    }
    let mut legend = palette.legend(entries.iter().map(|(q, s)| (q.as_str(), s.clone())), &[]);
    legend.entries.iter_mut().for_each(|entry| entry.2.dashed = false);
    legend.notes = vec![
        "one line per structure built both ways".into(),
        LINE_NOTES[2].into(),
        "× on the top edge: either way cut off".into(),
    ];
    Some(Figure {
        name: "decrease-key",
        title: "Decrease-key against duplicate insertion, per structure (whole A* searches)".into(),
        size: WIDE,
        panels: vec![Panel::Lines(Lines {
            title: String::new(),
            x_label: "most open cells at once (the workload's median over queues)".into(),
            y_label: "decrease-key's time ÷ duplicates' (above 1: duplicates faster)".into(),
            y_format: format::axis_ratio,
            rule: Some(1.0),
            series,
        })],
        legend,
    })
}

/// The best queue of each frontier-size band, with its margin over the runner-up.
pub fn best_by_band(lab: &Lab<'_>, palette: &Palette) -> Option<Figure> {
    let mut winners = BTreeSet::new();
    let bars: Vec<Bar> = bands(lab, |_| true)
        .iter()
        .filter_map(|band| {
            let winner = band.winner()?.queue;
            winners.insert(winner);
            let against = band
                .runner_up()
                .and_then(|r| Some((r.queue, versus(&band.workloads, r.queue, winner)?)));
            let text = match against {
                Some((runner, v)) => {
                    format!(
                        "{winner}: {} over {runner} ({})",
                        ratio(v.ratio),
                        plural(v.n, "workload")
                    )
                }
                None => format!("{winner}: the only contender"),
            };
            let source = if band.kind == Kind::Astar { "" } else { " (synthetic)" };
            Some(Bar {
                category: format!("{}{source}", band.band.label()),
                value: against.map_or(1.0, |(_, v)| v.ratio.max(1.0)),
                color: palette.style(winner).color,
                text,
            })
        })
        .collect();
    if bars.is_empty() {
        return None;
    }
    let height = 200 + 46 * bars.len() as u32;
    let mut legend = palette.legend(winners.iter().map(|q| (*q, (*q).to_owned())), &[]);
    legend.notes = vec!["colour: the winner's family".into()];
    Some(Figure {
        name: "best-by-band",
        title: "The best queue in each frontier-size band, and its margin".into(),
        size: (WIDE.0, height.max(420)),
        panels: vec![Panel::Bars(Bars {
            title: String::new(),
            x_label:
                "the runner-up's time ÷ the winner's (geometric mean over the workloads both ran)"
                    .into(),
            bars,
        })],
        legend,
    })
}

/// The frontier sizes of the A* workloads, per scenario family and heuristic.
pub fn frontier_sizes(lab: &Lab<'_>) -> Option<Figure> {
    let groups = by_family_and_heuristic(&lab.astar);
    if groups.is_empty() {
        return None;
    }
    let families: Vec<&str> =
        groups.keys().map(|(f, _)| *f).collect::<BTreeSet<_>>().into_iter().collect();
    let strips: Vec<Strip> = groups
        .iter()
        .map(|((family, heuristic), workloads)| Strip {
            label: format!("{family} · {heuristic}"),
            points: workloads.iter().map(|w| w.size).collect(),
            color: chart::color(families.iter().position(|f| f == family).unwrap_or(0)),
        })
        .collect();
    Some(Figure {
        name: "frontier-sizes",
        title: "The frontier sizes each scenario family and heuristic produces".into(),
        size: (1300, (170 + 34 * strips.len() as u32).max(360)),
        panels: vec![Panel::Strips(Strips {
            title: String::new(),
            x_label:
                "most open cells at once (one dot per suite: the workload's median over queues)"
                    .into(),
            strips,
        })],
        legend: Legend::default(),
    })
}

/// The series name for the fastest pqlab queue on each workload.
const FASTEST_LABEL: &str = "pqlab A*, fastest queue";

/// pqlab's A* against other crates' and the oracle floor; each queue ÷ the floor.
pub fn peers_and_oracle(lab: &Lab<'_>, palette: &Palette) -> Option<Figure> {
    let mut panels = Vec::new();
    let mut legend = Legend::default();
    if !lab.peer.is_empty() || !lab.oracle.is_empty() {
        let mut named = per_queue(&lab.peer, palette, |w, row| {
            w.size.is_finite().then(|| spread_point(w.size, row))
        });
        named.extend(per_queue(&lab.oracle, palette, |w, row| {
            w.size.is_finite().then(|| spread_point(w.size, row))
        }));
        // pqlab on the same problems: with the baseline queue, and with each workload's
        // fastest queue.
        let shared: Vec<&Workload<'_>> = lab
            .astar
            .iter()
            .filter(|w| twin(&lab.peer, w).is_some() || twin(&lab.oracle, w).is_some())
            .collect();
        let baseline: Vec<Point> =
            shared.iter().filter_map(|w| Some(spread_point(w.size, w.ok(BASELINE)?))).collect();
        if !baseline.is_empty() {
            named.push((
                BASELINE,
                Series { style: palette.style(BASELINE), points: baseline, cut_offs: Vec::new() },
            ));
        }
        let points: Vec<Point> = shared
            .iter()
            .filter_map(|w| Some(spread_point(w.size, w.fastest(|_| true)?)))
            .collect();
        let (mut series, queues) = unzip(named);
        if !points.is_empty() {
            series.push(Series { style: chart::FASTEST, points, cut_offs: Vec::new() });
        }
        legend = palette.legend(queues.iter().map(|q| (*q, (*q).to_owned())), &[]);
        if series.len() > queues.len() {
            legend.entries.push(("pqlab".into(), FASTEST_LABEL.into(), chart::FASTEST));
        }
        panels.push(Panel::Lines(Lines {
            title: "pqlab's A* against other crates' A* and the oracle floor".into(),
            x_label: "most open cells at once".into(),
            y_label: "time per search (median)".into(),
            y_format: format::axis_time,
            rule: None,
            series,
        }));
    }
    if !lab.oracle.is_empty() {
        let floored = lab.astar.iter().filter(|w| twin(&lab.oracle, w).is_some());
        let named = per_queue(floored, palette, |w, row| {
            let floor = twin(&lab.oracle, w)?.ok("oracle")?;
            Some(ratio_point(w.size, row, floor))
        });
        let named: Vec<_> = named.into_iter().filter(|(_, s)| !s.points.is_empty()).collect();
        if !named.is_empty() {
            let (series, queues) = unzip(named);
            let more = palette.legend(queues.iter().map(|q| (*q, (*q).to_owned())), &[]);
            for entry in more.entries {
                if !legend.entries.contains(&entry) {
                    legend.entries.push(entry);
                }
            }
            panels.push(Panel::Lines(Lines {
                title: "each queue's time ÷ the oracle floor's".into(),
                x_label: "most open cells at once".into(),
                y_label: "time ÷ oracle time".into(),
                y_format: format::axis_ratio,
                rule: Some(1.0),
                series,
            }));
        }
    }
    if panels.is_empty() {
        return None;
    }
    legend.notes = LINE_NOTES.iter().map(|n| (*n).to_owned()).collect();
    Some(Figure {
        name: "peers-and-oracle",
        title: "Against other crates' A*, and against the oracle floor".into(),
        size: (1700, 860),
        panels,
        legend,
    })
}
