//! Every chart of the report, declared once: its file name, what it shows, where the page
//! puts it, and the function that builds it from a run. The chart list, the drawing and the
//! page all read [`CHARTS`]; adding a chart is one file here and one line there.

mod best_by_band;
mod calibration;
mod decrease_key;
mod memory;
mod peers;
mod queue_alone;
mod relative_speed;
mod search_time;
mod soft_heap;
mod stores;

use std::collections::BTreeMap;

use pqlab_queues::registry::BASELINE;
use pqlab_queues::Family;

use crate::analysis::bands::Eligible;
use crate::analysis::rank::tie_group;
use crate::analysis::{Findings, Workload};
use crate::report::draw::{CutOff, Figure, Marker, Point, Style, BLACK_INK, COLORS, GREY, MARKERS};
use crate::results::{Row, Status};

/// Where the page puts a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// The best queue per frontier size.
    Bands,
    /// Every queue against the baseline.
    Queues,
    /// Whole searches, in time per search.
    Searches,
    /// The queue alone.
    Alone,
    /// Decrease-key against duplicates.
    Strategies,
    /// Memory.
    Memory,
    /// The other factors: stores, approximate order.
    Factors,
    /// Peers and the oracle floor.
    Peers,
    /// How the generated maps stand for real ones.
    Calibration,
}

/// One chart's declaration.
pub struct Chart {
    /// The file stem (`<name>.png`, `<name>.svg`).
    pub name: &'static str,
    /// What it shows, in one line (the image's alternative text and caption).
    pub alt: &'static str,
    /// Where the page puts it.
    pub section: Section,
    /// Builds it, or `None` when the run has nothing to draw in it.
    pub build: fn(&Findings<'_, '_>) -> Option<Figure>,
    /// What the page says instead when it is not drawn.
    pub absent: &'static str,
}

/// Every chart, in page order within each section.
pub const CHARTS: &[Chart] = &[
    Chart {
        name: "best-by-band",
        alt: "The best queue in each frontier-size band, its tie group, and its gain over std's BinaryHeap",
        section: Section::Bands,
        build: best_by_band::build,
        absent: "no band has a measured queue.",
    },
    Chart {
        name: "relative-speed",
        alt: "Every queue's time against std's BinaryHeap on each octile A* workload, by family",
        section: Section::Queues,
        build: relative_speed::build,
        absent: "this run has no octile A* workload measured with the baseline.",
    },
    Chart {
        name: "search-time",
        alt: "Time per search against the frontier size, per heuristic: the tie groups and the baseline",
        section: Section::Searches,
        build: search_time::build,
        absent: "this run has no A* rows.",
    },
    Chart {
        name: "latency",
        alt: "The 99th-percentile time of one search against the frontier size, per series: what a frame budget asks",
        section: Section::Searches,
        build: search_time::latency,
        absent: "this run has no per-search latency (runs before schema 4 did not time searches one by one).",
    },
    Chart {
        name: "queue-alone",
        alt: "The queue alone: nanoseconds per operation at held frontier sizes, by family",
        section: Section::Alone,
        build: queue_alone::build,
        absent: "this run has no synthetic rows.",
    },
    Chart {
        name: "decrease-key",
        alt: "Decrease-key's time over duplicates' for every structure built both ways",
        section: Section::Strategies,
        build: decrease_key::build,
        absent: "no structure was measured both ways.",
    },
    Chart {
        name: "memory",
        alt: "Entries held per open cell, and bytes per entry",
        section: Section::Memory,
        build: memory::build,
        absent: "this run measured no frontier sizes.",
    },
    Chart {
        name: "stores",
        alt: "The A* with its per-cell state in a hash table, or in an array reset every search, against the stamped flat array",
        section: Section::Factors,
        build: stores::build,
        absent: "this run has no hash-table workloads.",
    },
    Chart {
        name: "soft-heap",
        alt: "Approximate order against weighted A*: time against path excess",
        section: Section::Factors,
        build: soft_heap::build,
        absent: "this run timed no soft heap, or no weighted A*, on octile maps.",
    },
    Chart {
        name: "peers-and-oracle",
        alt: "pqlab's A* against other crates' A*, and each queue against the oracle floor",
        section: Section::Peers,
        build: peers::build,
        absent: "this run has no peer or oracle rows.",
    },
    Chart {
        name: "frontier-sizes",
        alt: "The frontier sizes of the generated workloads beside the Moving AI maps'",
        section: Section::Calibration,
        build: calibration::build,
        absent: "this run has no octile A* rows.",
    },
];

/// Figures are drawn this wide (and shown at the page's width): a layout choice, not a
/// measurement.
pub const WIDTH: u32 = 1600;

/// The family groups of the small multiples: every family is in one (families added later
/// fall in "other").
pub const GROUPS: [(&str, &[Family]); 8] = [
    ("binary heaps", &[Family::BinaryHeap]),
    ("d-ary heaps", &[Family::DaryHeap]),
    ("B-heaps and the sequence heap", &[Family::BHeap, Family::SequenceHeap]),
    ("pairing and Fibonacci heaps", &[Family::PairingHeap, Family::FibonacciHeap]),
    ("arrays", &[Family::UnsortedArray, Family::SortedArray, Family::TwoLevel]),
    ("bucketing", &[Family::BucketQueue, Family::RadixHeap, Family::HotQueue]),
    ("skip lists and splay trees", &[Family::SkipList, Family::SplayTree]),
    ("soft heaps (approximate)", &[Family::SoftHeap]),
];

/// The group of families no other group holds.
pub const OTHER: (&str, &[Family]) = ("other", &[]);

/// The group of a family: its index in [`GROUPS`], or `GROUPS.len()` for "other".
pub fn group_of(family: Family) -> usize {
    GROUPS.iter().position(|(_, families)| families.contains(&family)).unwrap_or(GROUPS.len())
}

/// Distinct styles for `names`, in order: colour first, then marker; the baseline is
/// always black circles.
pub fn styles<'n>(names: impl IntoIterator<Item = &'n str>) -> BTreeMap<&'n str, Style> {
    let mut styles = BTreeMap::new();
    let mut i = 0;
    for name in names {
        let style = if name == BASELINE {
            Style { color: BLACK_INK, marker: Marker::Circle, strong: true }
        } else {
            let style = Style {
                color: COLORS[i % COLORS.len()],
                marker: MARKERS[(i / COLORS.len()) % MARKERS.len()],
                strong: true,
            };
            i += 1;
            style
        };
        styles.entry(name).or_insert(style);
    }
    styles
}

/// A row's median with its quartiles, at `x`.
pub fn point(x: f64, row: &Row) -> Point {
    Point { x, y: row.spread() }
}

/// `a ÷ b` at `x`, with the widest ratio of values inside their quartiles as the bar
/// ([`Spread::over`](crate::results::Spread::over)).
pub fn ratio_point(x: f64, a: &Row, b: &Row) -> Point {
    Point { x, y: a.spread().over(&b.spread()) }
}

/// The queues in some workload's tie group, each workload of `workloads` ranked alone
/// among the exact queues: the most often tied first, then by name.
pub fn most_often_tied<'w, 'a: 'w>(
    findings: &Findings<'_, 'a>,
    workloads: impl IntoIterator<Item = &'w Workload<'a>>,
) -> Vec<&'a str> {
    let mut wins: BTreeMap<&str, usize> = BTreeMap::new();
    for w in workloads {
        for s in tie_group(&findings.rank(&[w], Eligible::Exact)) {
            *wins.entry(s.queue).or_default() += 1;
        }
    }
    let mut named: Vec<(&str, usize)> = wins.into_iter().collect();
    named.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    named.into_iter().map(|(queue, _)| queue).collect()
}

/// The cut-off rows of `queue` among `rows_at` (`(x, row)` pairs), as one named row of
/// crosses; `None` when it was never cut off.
pub fn cut_off<'r>(
    queue: &str,
    style: Style,
    rows_at: impl IntoIterator<Item = (f64, &'r Row)>,
) -> Option<CutOff> {
    let at: Vec<f64> = rows_at
        .into_iter()
        .filter(|(_, r)| r.queue == queue && r.status == Status::CutOff)
        .map(|(x, _)| x)
        .collect();
    (!at.is_empty()).then(|| CutOff { name: queue.to_owned(), style, at })
}

/// A grey context style.
pub const CONTEXT: Style = Style { color: GREY, marker: Marker::Circle, strong: false };
