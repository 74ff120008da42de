//! What the report and `pqlab pick` compute from a run's rows: workloads, rankings,
//! head-to-head ratios and frontier-size bands.
//!
//! A *workload* is one suite, heuristic and cost scale of one kind (A* searches, trace
//! replays, synthetic held sizes, peers, the oracle), measured with many queues. Every
//! comparison here is made inside workloads: a queue's time is only ever divided by
//! another queue's time on the same workload, and ratios are combined across workloads by
//! geometric mean, so a slow suite does not outweigh a fast one.

use std::collections::BTreeMap;

use pqlab_queues::{KeyRule, Strategy};

use crate::format::{plural, short};
use crate::results::{Kind, Row, Status};

/// The reference queue every ratio is also given against: `std`'s `BinaryHeap` with
/// duplicate insertion, what a Rust A* uses when nobody chose.
pub const BASELINE: &str = "std-binary-heap-dup";

/// Two speeds within this factor of each other count as the same in verdicts.
pub const SAME_SPEED: f64 = 1.05;

/// The strategy a row's `strategy` column names (the registry's display form,
/// `duplicates` / `decrease-key`, or its id suffix, `dup` / `dk`); `None` for peers and
/// the oracle.
pub fn strategy(row: &Row) -> Option<Strategy> {
    [Strategy::Duplicates, Strategy::DecreaseKey]
        .into_iter()
        .find(|s| row.strategy == s.to_string() || row.strategy == s.suffix())
}

/// Whether a row's queue accepts any keys (its `keys` column is the registry's
/// `any keys`), rather than only monotone ones.
pub fn accepts_any_keys(row: &Row) -> bool {
    row.keys == KeyRule::Any.to_string()
}

/// A queue id without its strategy suffix: the two strategies of one structure share it.
pub fn structure(queue: &str) -> &str {
    queue.strip_suffix("-dup").or_else(|| queue.strip_suffix("-dk")).unwrap_or(queue)
}

/// The geometric mean of `values` (NaN when empty).
pub fn geomean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values.into_iter().fold((0.0, 0u32), |(sum, n), v| (sum + v.ln(), n + 1));
    (sum / f64::from(n)).exp()
}

/// `a ÷ b` on medians, with a conservative spread: `(a.p25 ÷ b.p75, median ratio,
/// a.p75 ÷ b.p25)`, the widest the ratio of two values inside the quartiles can be.
pub fn ratio_spread(a: &Row, b: &Row) -> (f64, f64, f64) {
    (a.p25_ns / b.p75_ns, a.median_ns / b.median_ns, a.p75_ns / b.p25_ns)
}

/// Whether two rows' p25–p75 spreads overlap (their order may be noise).
pub fn overlap(a: &Row, b: &Row) -> bool {
    a.p25_ns <= b.p75_ns && b.p25_ns <= a.p75_ns
}

/// `suite/heuristic/scale`, without the parts that do not apply (`-`): how the report
/// and `pqlab pick` name a workload.
pub fn workload_name(suite: &str, heuristic: &str, scale: &str) -> String {
    [suite, heuristic, scale].into_iter().filter(|part| *part != "-").collect::<Vec<_>>().join("/")
}

/// One workload: a suite, heuristic and scale of one kind, with each queue's row.
#[derive(Clone, Debug)]
pub struct Workload<'a> {
    /// What was measured.
    pub kind: Kind,
    /// The suite.
    pub suite: &'a str,
    /// The scenario family.
    pub family: &'a str,
    /// The heuristic.
    pub heuristic: &'a str,
    /// The cost scale.
    pub scale: &'a str,
    /// The frontier size: the median `max_open` of its measured rows (of all its rows
    /// when none was measured; NaN when no row reports one). Queues break ties
    /// differently, so their sizes differ a little; one size per workload puts it in one
    /// band for every queue.
    pub size: f64,
    /// Its rows by queue id (the first, should a run repeat one).
    pub rows: BTreeMap<&'a str, &'a Row>,
}

impl<'a> Workload<'a> {
    /// `suite/heuristic/scale`, without the parts that do not apply (`-`).
    pub fn name(&self) -> String {
        workload_name(self.suite, self.heuristic, self.scale)
    }

    /// The queue's row, if it was measured (status `ok`).
    pub fn ok(&self, queue: &str) -> Option<&'a Row> {
        self.rows.get(queue).copied().filter(|row| row.status == Status::Ok)
    }

    /// The fastest measured row among those `eligible` admits.
    pub fn fastest(&self, eligible: impl Fn(&Row) -> bool) -> Option<&'a Row> {
        self.rows
            .values()
            .copied()
            .filter(|row| row.status == Status::Ok && eligible(row))
            .min_by(|a, b| a.median_ns.total_cmp(&b.median_ns))
    }
}

/// The workloads of `kind` in `rows`, smallest first; a workload none of whose rows
/// reports a frontier size (`max_open` 0, as peers may) has size NaN and comes last.
pub fn workloads(rows: &[Row], kind: Kind) -> Vec<Workload<'_>> {
    let mut by_key: BTreeMap<(&str, &str, &str), Workload<'_>> = BTreeMap::new();
    for row in rows.iter().filter(|row| row.kind == kind) {
        let workload = by_key
            .entry((row.suite.as_str(), row.heuristic.as_str(), row.scale.as_str()))
            .or_insert_with(|| Workload {
                kind,
                suite: &row.suite,
                family: &row.family,
                heuristic: &row.heuristic,
                scale: &row.scale,
                size: f64::NAN,
                rows: BTreeMap::new(),
            });
        workload.rows.entry(row.queue.as_str()).or_insert(row);
    }
    let mut list: Vec<Workload<'_>> = by_key.into_values().collect();
    for workload in &mut list {
        let sizes = |ok_only: bool| -> Vec<f64> {
            workload
                .rows
                .values()
                .filter(|row| row.max_open > 0.0 && (!ok_only || row.status == Status::Ok))
                .map(|row| row.max_open)
                .collect()
        };
        let measured = sizes(true);
        let sizes = if measured.is_empty() { sizes(false) } else { measured };
        if !sizes.is_empty() {
            workload.size = crate::results::Spread::of(&sizes).median;
        }
    }
    sort_by_size(&mut list);
    list
}

fn sort_by_size(list: &mut [Workload<'_>]) {
    list.sort_by(|a, b| {
        (a.size.is_nan(), a.size)
            .partial_cmp(&(b.size.is_nan(), b.size))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.name().cmp(&b.name()))
    });
}

/// A run's rows, grouped into workloads per kind.
#[derive(Clone, Debug)]
pub struct Lab<'a> {
    /// Every row of the run.
    pub rows: &'a [Row],
    /// Whole A* searches.
    pub astar: Vec<Workload<'a>>,
    /// The queue alone on recorded traces.
    pub replay: Vec<Workload<'a>>,
    /// The queue alone at held sizes.
    pub synthetic: Vec<Workload<'a>>,
    /// Other crates' A*.
    pub peer: Vec<Workload<'a>>,
    /// The oracle floor.
    pub oracle: Vec<Workload<'a>>,
}

impl<'a> Lab<'a> {
    /// Groups `rows`.
    pub fn new(rows: &'a [Row]) -> Lab<'a> {
        let astar = workloads(rows, Kind::Astar);
        // Peers (and the oracle) ran the A* workloads' problems: where their own rows give
        // no size, the A* workload's is theirs.
        let sized_like_astar = |kind| {
            let mut list = workloads(rows, kind);
            for workload in &mut list {
                if let (true, Some(same)) = (workload.size.is_nan(), twin(&astar, workload)) {
                    workload.size = same.size;
                }
            }
            sort_by_size(&mut list);
            list
        };
        Lab {
            rows,
            peer: sized_like_astar(Kind::Peer),
            oracle: sized_like_astar(Kind::Oracle),
            replay: workloads(rows, Kind::Replay),
            synthetic: workloads(rows, Kind::Synthetic),
            astar,
        }
    }

    /// The workloads whose size `within` admits: A* searches when any was such a size,
    /// else synthetic held sizes; `None` when neither was.
    pub fn sized(&self, within: impl Fn(f64) -> bool) -> Option<(Kind, Vec<&Workload<'a>>)> {
        [(Kind::Astar, &self.astar), (Kind::Synthetic, &self.synthetic)].into_iter().find_map(
            |(kind, list)| {
                let found: Vec<_> = list.iter().filter(|w| within(w.size)).collect();
                (!found.is_empty()).then_some((kind, found))
            },
        )
    }
}

/// The workload in `list` with `of`'s suite, heuristic and scale: the same problems
/// measured another way (peers and the oracle carry no frontier counters of their own).
pub fn twin<'w, 'a>(list: &'w [Workload<'a>], of: &Workload<'_>) -> Option<&'w Workload<'a>> {
    list.iter().find(|w| (w.suite, w.heuristic, w.scale) == (of.suite, of.heuristic, of.scale))
}

/// A* workloads with a known size, grouped by scenario family and heuristic.
pub fn by_family_and_heuristic<'w, 'a>(
    list: &'w [Workload<'a>],
) -> BTreeMap<(&'a str, &'a str), Vec<&'w Workload<'a>>> {
    let mut groups: BTreeMap<(&str, &str), Vec<&Workload<'_>>> = BTreeMap::new();
    for workload in list.iter().filter(|w| w.size.is_finite()) {
        groups.entry((workload.family, workload.heuristic)).or_default().push(workload);
    }
    groups
}

/// A kind as the report names it: `A*`, `trace replay`, `synthetic`, `peer`, `oracle`.
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Astar => "A*",
        Kind::Replay => "trace replay",
        Kind::Synthetic => "synthetic",
        Kind::Peer => "peer",
        Kind::Oracle => "oracle",
    }
}

/// Where a queue stands over a set of workloads.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing<'a> {
    /// The queue id.
    pub queue: &'a str,
    /// The geometric mean, over the workloads where it was measured, of its time divided
    /// by the fastest eligible time there (1 = fastest everywhere). NaN if never measured.
    pub score: f64,
    /// Workloads where it was measured.
    pub ok: usize,
    /// Workloads where it was cut off (too slow to time).
    pub cut_off: usize,
    /// Workloads where it failed (a wrong answer or a rejected key).
    pub failed: usize,
}

impl Standing<'_> {
    /// Whether it competes: measured somewhere and cut off nowhere (a cut-off queue is
    /// too slow for these sizes, whatever its other figures).
    pub fn contends(&self) -> bool {
        self.ok > 0 && self.cut_off == 0
    }
}

/// Ranks the queues whose rows `eligible` admits over `workloads`: contenders by score,
/// then the cut-off and never-measured ones. O(rows).
pub fn rank<'a>(workloads: &[&Workload<'a>], eligible: impl Fn(&Row) -> bool) -> Vec<Standing<'a>> {
    let mut standings: BTreeMap<&'a str, (f64, Standing<'a>)> = BTreeMap::new();
    for workload in workloads {
        let fastest = workload.fastest(&eligible).map(|row| row.median_ns);
        for (&queue, row) in workload.rows.iter().filter(|(_, row)| eligible(row)) {
            let (log_sum, standing) = standings.entry(queue).or_insert_with(|| {
                (0.0, Standing { queue, score: f64::NAN, ok: 0, cut_off: 0, failed: 0 })
            });
            match row.status {
                Status::Ok => {
                    standing.ok += 1;
                    *log_sum += (row.median_ns / fastest.expect("an ok row is eligible")).ln();
                }
                Status::CutOff => standing.cut_off += 1,
                Status::Failed => standing.failed += 1,
            }
        }
    }
    let mut list: Vec<Standing<'a>> = standings
        .into_values()
        .map(|(log_sum, mut standing)| {
            standing.score = (log_sum / standing.ok as f64).exp();
            standing
        })
        .collect();
    list.sort_by(|a, b| {
        (!a.contends(), a.ok == 0)
            .cmp(&(!b.contends(), b.ok == 0))
            .then(a.score.total_cmp(&b.score))
            .then(a.queue.cmp(b.queue))
    });
    list
}

/// Two queues head to head over the workloads where both were measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    /// The geometric mean of the first queue's time divided by the second's
    /// (below 1: the first is faster).
    pub ratio: f64,
    /// Workloads where both were measured.
    pub n: usize,
    /// Of those, the workloads where their p25–p75 spreads do not overlap.
    pub distinct: usize,
}

impl Versus {
    /// What backs the ratio: "geometric mean over 7 workloads, p25–p75 spreads apart in 5".
    pub fn backing(&self) -> String {
        format!(
            "geometric mean over {}, p25–p75 spreads apart in {}",
            plural(self.n, "workload"),
            self.distinct
        )
    }
}

/// `a` against `b` over `workloads`; `None` if no workload measured both.
pub fn versus(workloads: &[&Workload<'_>], a: &str, b: &str) -> Option<Versus> {
    let pairs: Vec<(&Row, &Row)> =
        workloads.iter().filter_map(|w| Some((w.ok(a)?, w.ok(b)?))).collect();
    (!pairs.is_empty()).then(|| Versus {
        ratio: geomean(pairs.iter().map(|(a, b)| a.median_ns / b.median_ns)),
        n: pairs.len(),
        distinct: pairs.iter().filter(|(a, b)| !overlap(a, b)).count(),
    })
}

/// A frontier-size band `lo..hi` (open cells).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Inclusive lower edge.
    pub lo: f64,
    /// Exclusive upper edge (infinite for the last band).
    pub hi: f64,
}

/// The band edges: about half a decade each, whole decades at the extremes.
const BAND_EDGES: [f64; 12] =
    [0.0, 30.0, 100.0, 300.0, 1e3, 3e3, 1e4, 3e4, 1e5, 1e6, 1e7, f64::INFINITY];

impl Band {
    /// Every band, smallest first; they cover all sizes.
    pub fn all() -> impl Iterator<Item = Band> {
        BAND_EDGES.windows(2).map(|edges| Band { lo: edges[0], hi: edges[1] })
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

/// The ranking inside one band.
#[derive(Clone, Debug)]
pub struct BandResult<'w, 'a> {
    /// The band.
    pub band: Band,
    /// Where its figures come from: A* searches, or synthetic held sizes where no A*
    /// search had a frontier that size.
    pub kind: Kind,
    /// Its workloads.
    pub workloads: Vec<&'w Workload<'a>>,
    /// Every queue measured there, contenders first.
    pub standings: Vec<Standing<'a>>,
}

impl<'a> BandResult<'_, 'a> {
    /// The best contender.
    pub fn winner(&self) -> Option<&Standing<'a>> {
        self.standings.first().filter(|s| s.contends())
    }

    /// The second contender.
    pub fn runner_up(&self) -> Option<&Standing<'a>> {
        self.standings.get(1).filter(|s| s.contends())
    }

    /// The queues cut off somewhere in this band.
    pub fn cut_off(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.standings.iter().filter(|s| s.cut_off > 0).map(|s| s.queue)
    }
}

/// The ranking of the queues `eligible` admits in every band that has workloads.
pub fn bands<'w, 'a>(
    lab: &'w Lab<'a>,
    eligible: impl Fn(&Row) -> bool + Copy,
) -> Vec<BandResult<'w, 'a>> {
    Band::all()
        .filter_map(|band| {
            let (kind, workloads) = lab.sized(|size| band.contains(size))?;
            let standings = rank(&workloads, eligible);
            (!standings.is_empty()).then_some(BandResult { band, kind, workloads, standings })
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A hand-made row: `queue` on `suite` (octile, fine) at frontier size `size`, with
    /// median `ns` and a ±5% spread.
    pub(crate) fn row(kind: Kind, suite: &str, queue: &str, size: f64, ns: f64) -> Row {
        let (family, strategy) = match queue.rsplit_once('-') {
            Some((structure, "dk")) => (structure, "decrease-key"),
            Some((structure, _)) => (structure, "duplicates"),
            None => (queue, "-"),
        };
        let keys = if queue.starts_with("bucket") { "monotone" } else { "any keys" };
        Row {
            schema: crate::results::SCHEMA_VERSION,
            run: "2025-01-01T00-00-00Z".into(),
            kind,
            suite: suite.into(),
            family: if kind == Kind::Synthetic { "synthetic" } else { "maze" }.into(),
            heuristic: if kind == Kind::Synthetic { "-" } else { "octile" }.into(),
            scale: "fine".into(),
            queue: queue.into(),
            queue_family: family.into(),
            strategy: strategy.into(),
            keys: keys.into(),
            status: Status::Ok,
            note: String::new(),
            unit: if kind == Kind::Synthetic { "op" } else { "search" }.into(),
            units: 10,
            samples: 20,
            median_ns: ns,
            p25_ns: ns * 0.95,
            p75_ns: ns * 1.05,
            min_ns: ns * 0.9,
            max_ns: ns * 1.2,
            expansions: size * 3.0,
            pushes: size * 4.0,
            pops: size * 3.5,
            stale_pops: 0.0,
            decrease_keys: 0.0,
            reopenings: 0.0,
            max_frontier: size * 1.2,
            max_open: size,
            machine: "test machine".into(),
            rustc: "rustc 1.0".into(),
            git: "abc".into(),
        }
    }

    /// The row, cut off.
    pub(crate) fn cut(mut row: Row) -> Row {
        row.status = Status::CutOff;
        row.note = "would take too long".into();
        row
    }

    /// Three queues at three sizes: the unsorted array wins small, the heap middle, the
    /// bucket queue large; the sorted array is cut off at the largest size.
    pub(crate) fn sample() -> Vec<Row> {
        let mut rows = Vec::new();
        for (suite, size, times) in [
            ("small", 20.0, [100.0, 60.0, 150.0, 70.0]),
            ("middle", 1500.0, [1000.0, 3000.0, 1200.0, 2000.0]),
            ("large", 50_000.0, [40_000.0, 900_000.0, 20_000.0, f64::NAN]),
        ] {
            for (queue, ns) in
                [BASELINE, "unsorted-array-dup", "bucket-queue-dup", "sorted-array-dk"]
                    .into_iter()
                    .zip(times)
            {
                let measured = row(Kind::Astar, suite, queue, size, ns);
                rows.push(if ns.is_nan() { cut(measured) } else { measured });
            }
        }
        rows
    }

    #[test]
    fn workloads_group_by_suite_and_sort_by_size() {
        let rows = sample();
        let list = workloads(&rows, Kind::Astar);
        let names: Vec<_> = list.iter().map(|w| (w.suite, w.size)).collect();
        assert_eq!(names, [("small", 20.0), ("middle", 1500.0), ("large", 50_000.0)]);
        assert_eq!(list[2].rows.len(), 4);
        assert!(list[2].ok("sorted-array-dk").is_none());
    }

    #[test]
    fn rank_scores_against_the_fastest_and_puts_cut_off_queues_last() {
        let rows = sample();
        let list = workloads(&rows, Kind::Astar);
        let all: Vec<_> = list.iter().collect();
        let standings = rank(&all, |_| true);
        let order: Vec<_> = standings.iter().map(|s| s.queue).collect();
        // Scores: heap (100/60, 1, 40/20) -> geomean 1.49; bucket (150/60, 1.2, 1) -> 1.44;
        // unsorted (1, 3, 45); sorted array cut off at "large".
        assert_eq!(order, ["bucket-queue-dup", BASELINE, "unsorted-array-dup", "sorted-array-dk"]);
        assert!(!standings[3].contends());
        assert_eq!((standings[3].ok, standings[3].cut_off), (2, 1));
        let heap = &standings[1];
        assert!((heap.score - (100.0f64 / 60.0 * 2.0).cbrt()).abs() < 1e-12);
    }

    #[test]
    fn versus_is_a_geometric_mean_over_shared_workloads() {
        let rows = sample();
        let list = workloads(&rows, Kind::Astar);
        let all: Vec<_> = list.iter().collect();
        let v = versus(&all, "sorted-array-dk", BASELINE).unwrap();
        assert_eq!(v.n, 2);
        assert!((v.ratio - (0.7f64 * 2.0).sqrt()).abs() < 1e-12);
        assert_eq!(v.distinct, 2);
        assert!(versus(&all, "no-such-queue", BASELINE).is_none());
    }

    #[test]
    fn bands_cover_every_size_once_with_readable_labels() {
        let labels: Vec<_> = Band::all().map(|b| b.label()).collect();
        assert_eq!(labels[0], "<30");
        assert_eq!(labels[4], "1k–3k");
        assert_eq!(labels.last().unwrap(), "≥10M");
        for size in [0.0, 29.9, 30.0, 999.0, 1e9] {
            assert_eq!(Band::all().filter(|b| b.contains(size)).count(), 1);
        }
    }

    #[test]
    fn band_winners_per_size() {
        let rows = sample();
        let lab = Lab::new(&rows);
        let bands = bands(&lab, |_| true);
        let winners: Vec<_> =
            bands.iter().map(|b| (b.band.label(), b.winner().unwrap().queue)).collect();
        assert_eq!(
            winners,
            [
                ("<30".to_owned(), "unsorted-array-dup"),
                ("1k–3k".to_owned(), BASELINE),
                ("30k–100k".to_owned(), "bucket-queue-dup"),
            ]
        );
        assert_eq!(bands[2].cut_off().collect::<Vec<_>>(), ["sorted-array-dk"]);
        assert_eq!(bands[2].runner_up().unwrap().queue, BASELINE);
    }

    #[test]
    fn strategy_and_keys_read_the_registry_spellings() {
        let dk = row(Kind::Astar, "s", "dary4-dk", 1.0, 1.0);
        assert_eq!(strategy(&dk), Some(Strategy::DecreaseKey));
        let mut short = dk.clone();
        short.strategy = "dup".into();
        assert_eq!(strategy(&short), Some(Strategy::Duplicates));
        assert!(accepts_any_keys(&dk));
        assert!(!accepts_any_keys(&row(Kind::Astar, "s", "bucket-queue-dk", 1.0, 1.0)));
        assert_eq!(structure("dary4-dk"), "dary4");
        assert_eq!(structure("pathfinding-astar"), "pathfinding-astar");
    }
}
