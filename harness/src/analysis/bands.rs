//! Frontier-size bands, and the one rule for which workloads answer for a size.
//!
//! A series of search workloads is a [`Series`]: one setup, heuristic, cost scale and
//! per-cell store. Which workloads answer for sizes is decided here alone ([`answering`]
//! for a size range, [`evidence`] for a band), and the report's band tables, `pqlab pick`
//! and the verdicts all ask it, so they cannot disagree:
//!
//! 1. the series' own searches whose frontier size lies in the range;
//! 2. else, for the series the held sizes model (octile A\*, fine integer costs: their key
//!    increments were measured there), the queue alone at the held sizes in the range;
//! 3. else, for a band, the nearest band that the series' searches reached, which the
//!    evidence names, so an answer from another band always says so.
//!
//! No series ever answers for another: a band that none of a series' searches reached
//! and that its held sizes cannot answer is answered from the series' nearest band, or not
//! at all.

use crate::analysis::rank::{versus, Standing, Versus};
use crate::analysis::{Run, Workload};
use crate::format::short;
use crate::results::{Kind, Row};
use crate::search::Series;

/// A frontier-size band `lo..hi` (open cells).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Inclusive lower edge.
    pub lo: f64,
    /// Exclusive upper edge (infinite for the last band).
    pub hi: f64,
}

/// The band edges: about half a decade each, whole decades at the extremes. A convention,
/// not a measurement: 1, 3, 10 on a log scale, 3 being about √10.
const BAND_EDGES: [f64; 12] =
    [0.0, 30.0, 100.0, 300.0, 1e3, 3e3, 1e4, 3e4, 1e5, 1e6, 1e7, f64::INFINITY];

impl Band {
    /// Every band, smallest first; they cover all sizes.
    pub fn all() -> impl Iterator<Item = Band> {
        BAND_EDGES.windows(2).map(|edges| Band { lo: edges[0], hi: edges[1] })
    }

    /// The band holding `size`.
    pub fn of(size: f64) -> Band {
        Band::all().find(|b| b.contains(size)).unwrap_or(Band { lo: 0.0, hi: 30.0 })
    }

    /// Whether `size` lies in the band.
    pub fn contains(&self, size: f64) -> bool {
        self.lo <= size && size < self.hi
    }

    /// `<30`, `30–100`, `1k–3k`, `≥10M`.
    pub fn label(&self) -> String {
        match (self.lo, self.hi) {
            (0.0, hi) => format!("<{}", short(hi)),
            (lo, hi) if hi.is_infinite() => format!("≥{}", short(lo)),
            (lo, hi) => format!("{}–{}", short(lo), short(hi)),
        }
    }
}

/// Which workloads belong to a series, as the analysis reads them.
impl Series {
    /// The series an A\* `workload` belongs to; `None` when a row lacks one of its facts.
    pub fn of(workload: &Workload<'_>) -> Option<Series> {
        Some(Series {
            setup: workload.facts.setup()?,
            heuristic: workload.heuristic()?,
            scale: workload.scale()?,
            store: workload.store()?,
        })
    }

    /// Whether `workload` belongs to the series.
    pub fn admits(&self, workload: &Workload<'_>) -> bool {
        workload.kind == Kind::Astar
            && workload.facts.setup() == Some(self.setup)
            && workload.heuristic() == Some(self.heuristic)
            && workload.scale() == Some(self.scale)
            && workload.store() == Some(self.store)
    }
}

/// The workloads that answer for one band.
#[derive(Clone, Debug)]
pub struct Evidence<'w, 'a> {
    /// The band whose workloads answer: the band asked for, or the nearest band the
    /// series' searches reached (see the module's rule).
    pub band: Band,
    /// `Astar` (whole searches of the series) or `Synthetic` (the queue alone at held
    /// sizes, where no search of the series reached the band).
    pub kind: Kind,
    /// The workloads.
    pub workloads: Vec<&'w Workload<'a>>,
}

/// Fewer workloads than this make a band's answer weak, and the report says so. A
/// convention, set without a measurement; the default catalogue gives each
/// octile band from 30 to 100,000 open cells at least three (`lab::workloads`).
pub const STRONG: usize = 3;

impl Evidence<'_, '_> {
    /// Whether fewer than [`STRONG`] workloads back it.
    pub fn weak(&self) -> bool {
        self.workloads.len() < STRONG
    }

    /// The distinct map kinds behind it.
    pub fn map_kinds(&self) -> Vec<&str> {
        let mut kinds: Vec<&str> = self.workloads.iter().map(|w| w.map_kind()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }

    /// Whether any workload is a real Moving AI map.
    pub fn real(&self) -> bool {
        self.workloads.iter().any(|w| w.real())
    }
}

/// The workloads that answer for the sizes `within` admits in `selection`: its searches
/// there, else the held sizes there when they model the series; with their kind. The
/// first two steps of the module's rule.
pub fn answering<'w, 'a>(
    run: &'w Run<'a>,
    selection: &Series,
    within: impl Fn(f64) -> bool,
) -> Option<(Kind, Vec<&'w Workload<'a>>)> {
    let searches: Vec<&Workload<'a>> =
        run.workloads.iter().filter(|w| selection.admits(w) && within(w.size)).collect();
    if !searches.is_empty() {
        return Some((Kind::Astar, searches));
    }
    if !selection.held_sizes_model() {
        return None;
    }
    let held: Vec<&Workload<'a>> = run.of(Kind::Synthetic).filter(|w| within(w.size)).collect();
    (!held.is_empty()).then_some((Kind::Synthetic, held))
}

/// The workloads that answer for `band` in `selection`, by the module's rule: the band's
/// own searches or held sizes ([`answering`]), else the nearest band's searches (the
/// smaller of two at the same distance); `None` when the series has no search at all and
/// no held size answers.
pub fn evidence<'w, 'a>(
    run: &'w Run<'a>,
    selection: &Series,
    band: Band,
) -> Option<Evidence<'w, 'a>> {
    let own =
        |band: Band| {
            answering(run, selection, |size| band.contains(size))
                .map(|(kind, workloads)| Evidence { band, kind, workloads })
        };
    if let Some(found) = own(band) {
        return Some(found);
    }
    let all: Vec<Band> = Band::all().collect();
    let at = all.iter().position(|b| *b == band)?;
    (1..all.len()).find_map(|d| {
        [at.checked_sub(d), Some(at + d)]
            .into_iter()
            .flatten()
            .filter_map(|i| all.get(i).copied())
            .find_map(|near| own(near).filter(|e| e.kind == Kind::Astar))
    })
}

/// One band's ranking.
#[derive(Clone, Debug)]
pub struct BandRanking<'w, 'a> {
    /// What answers for it.
    pub evidence: Evidence<'w, 'a>,
    /// Every eligible queue measured there, contenders first.
    pub standings: Vec<Standing<'a>>,
}

impl<'a> BandRanking<'_, 'a> {
    /// The best contender.
    pub fn winner(&self) -> Option<&Standing<'a>> {
        self.standings.first().filter(|s| s.contends)
    }

    /// The winner's tie group, the winner first.
    pub fn tie_group(&self) -> Vec<&Standing<'a>> {
        crate::analysis::rank::tie_group(&self.standings).collect()
    }

    /// std's BinaryHeap (the baseline) against the winner over the band's workloads: `None`
    /// without a winner, or when the baseline was not measured there.
    pub fn baseline_takes(&self) -> Option<Versus> {
        let winner = self.winner()?;
        versus(&self.evidence.workloads, pqlab_queues::registry::BASELINE, winner.queue)
    }

    /// The queues cut off somewhere in the band.
    pub fn cut_off(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.standings.iter().filter(|s| s.cut_off > 0).map(|s| s.queue)
    }
}

/// Which queues a ranking admits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eligible {
    /// Every registered queue, the approximate ones too (their paths may be longer).
    Any,
    /// Exact order (no soft heap), any key rule: what a consistent heuristic can use.
    Exact,
    /// Exact queues that accept any key: what a search with an inconsistent heuristic, or
    /// a programmer who does not want to think about keys, can use.
    AnyKeys,
}

impl Eligible {
    /// What `selection`'s searches can use: any exact queue when they are exact, else
    /// those that accept any key.
    pub fn for_series(selection: &Series) -> Eligible {
        if selection.exact() {
            Eligible::Exact
        } else {
            Eligible::AnyKeys
        }
    }

    /// Whether the rule admits `row`'s queue.
    pub fn admits(self, row: &Row) -> bool {
        match self {
            Eligible::Any => row.family.is_some(),
            Eligible::Exact => exact(row),
            Eligible::AnyKeys => any_keys(row),
        }
    }
}

/// Queues an exact answer may rank: exact order (no soft heap), any key rule.
pub fn exact(row: &Row) -> bool {
    row.is_exact() && row.family.is_some()
}

/// Exact queues that accept any key: what a search with an inconsistent heuristic, or a
/// programmer who does not want to think about keys, can use.
pub fn any_keys(row: &Row) -> bool {
    exact(row) && row.keys == Some(pqlab_queues::KeyRule::Any)
}

/// The search series a run measured (setup, heuristic, scale, store), octile A* first.
pub fn series(run: &Run<'_>) -> Vec<Series> {
    let mut found: Vec<Series> = Vec::new();
    for selection in run.of(Kind::Astar).filter_map(Series::of) {
        if !found.contains(&selection) {
            found.push(selection);
        }
    }
    found.sort_by_key(|s| s != &Series::OCTILE);
    found
}
