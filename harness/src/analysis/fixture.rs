//! The analysis floor's test fixture: result rows made with the lab's own constructor
//! (`lab::rows::WorkloadFacts::row`, so a new column needs no edit here), with figures chosen
//! so that every rule's answer can be worked out by hand.
//!
//! Most rows are *steady*: five rounds of one time, so their median and both quartiles
//! are that time, and with no execution spread (`Run::with_execution_spread(0.0)`) the
//! bootstrap interval between two steady rows collapses to their ratio. A lead of 1.5% is
//! then exactly inside the tie margin and 2.5% exactly outside.

use pqlab_queues::registry::{self, BASELINE};

use crate::lab::rows::WorkloadFacts;
use crate::results::{Kind, Provenance, Row, Status, Unit};
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::Series;

/// The run every fixture row belongs to.
pub(crate) const RUN: &str = "2026-01-01T00-00-00Z";

/// An A* workload named `name` on `map`, fine costs.
pub(crate) fn search(
    name: &str,
    map: &str,
    heuristic: HeuristicKind,
    store: StoreKind,
) -> WorkloadFacts {
    WorkloadFacts {
        kind: Kind::Astar,
        name: name.into(),
        map: map.into(),
        map_kind: "rooms".into(),
        real: false,
        series: Some(Series { heuristic, store, ..Series::OCTILE }),
        unit: Unit::Search,
    }
}

/// An octile A* workload with the flat store (the series users run), on a map of its name.
pub(crate) fn octile(name: &str) -> WorkloadFacts {
    search(name, name, HeuristicKind::Octile, StoreKind::Flat)
}

/// A workload without a search: the synthetic one or the sentinel.
fn searchless(kind: Kind, name: &str) -> WorkloadFacts {
    WorkloadFacts { kind, name: name.into(), ..WorkloadFacts::held(0) }
}

/// The synthetic workload holding `size` entries.
pub(crate) fn held(size: f64) -> WorkloadFacts {
    searchless(Kind::Synthetic, &format!("held-{size}"))
}

/// `queue`'s measured row on `workload` at frontier size `size`, with these per-round CPU
/// times (the wall times alike).
pub(crate) fn timed(workload: &WorkloadFacts, queue: &str, size: f64, samples: &[f64]) -> Row {
    let provenance = Provenance::fixed(RUN, "fixture cpu");
    let mut row = workload.row(&provenance, queue, registry::find(queue));
    row.units = 10;
    row.max_open = size;
    row.set_samples(samples, samples);
    row
}

/// `queue` on `workload` at `size`, every one of five rounds taking `ns`.
pub(crate) fn steady(workload: &WorkloadFacts, queue: &str, size: f64, ns: f64) -> Row {
    timed(workload, queue, size, &[ns; 5])
}

/// Every `(queue, ns)` of `times`, steady on `workload` at `size`.
pub(crate) fn steadies(workload: &WorkloadFacts, size: f64, times: &[(&str, f64)]) -> Vec<Row> {
    times.iter().map(|&(queue, ns)| steady(workload, queue, size, ns)).collect()
}

/// The oracle floor on the octile workload `name` at `size`, every round taking `ns`.
pub(crate) fn oracle(name: &str, size: f64, ns: f64) -> Row {
    let workload = WorkloadFacts { kind: Kind::Oracle, ..octile(name) };
    steady(&workload, crate::results::ORACLE, size, ns)
}

/// `queue` cut off on `workload`, as the lab writes it: untimed, no frontier size, and the
/// measured lower bound of its time over the baseline's.
pub(crate) fn cut_off(workload: &WorkloadFacts, queue: &str, bound: f64) -> Row {
    let mut row = timed(workload, queue, 0.0, &[]);
    row.status = Status::CutOff;
    row.note = "more than eight times the baseline's time".into();
    row.bound = Some(bound);
    row
}

/// The baseline on the sentinel workload, with these rounds.
pub(crate) fn sentinel_rounds(rounds: &[f64]) -> Row {
    timed(&searchless(Kind::Sentinel, "sentinel"), BASELINE, 0.0, rounds)
}

/// The sentinel with median `ns` and rounds 1% either side of it: quartiles `0.99 ns` and
/// `1.01 ns`.
pub(crate) fn sentinel(ns: f64) -> Row {
    sentinel_rounds(&[0.99 * ns, 0.99 * ns, ns, 1.01 * ns, 1.01 * ns])
}

/// The shared run. Octile A* workloads (times in ns; the fastest in bold):
///
/// | workload | size | `std-binary-heap-dup` | `unsorted-array-dup` | `bucket-queue-dup` | `sorted-array-dk` |
/// |---|---|---|---|---|---|
/// | `small` | 20 | 100 | **60** | 150 | 60.9 (1.015: tied) |
/// | `middle` | 1,500 | **1,000** | 3,000 | 1,025 (1.025: not tied) | 2,000 |
/// | `large` | 50,000 | 40,000 | 900,000 | **20,000** | cut off, bound 8 |
///
/// and, off that series: `dijkstra` (zero heuristic) at 5,000, where the bucket queue
/// (4,000) beats the baseline (5,000); the held sizes 20 (baseline 10, unsorted array 5)
/// and 300,000 (baseline 50, bucket queue **30**, `dary4-dup` 45); and the sentinel
/// measured three times, at 100, 110 and 105 (drift 10%, spread 101/99 - 1 ≈ 2.0%).
pub(crate) fn sample() -> Vec<Row> {
    let queues = [BASELINE, "unsorted-array-dup", "bucket-queue-dup", "sorted-array-dk"];
    let mut rows = Vec::new();
    for (name, size, times) in [
        ("small", 20.0, [100.0, 60.0, 150.0, 60.9]),
        ("middle", 1500.0, [1000.0, 3000.0, 1025.0, 2000.0]),
        ("large", 50_000.0, [40_000.0, 900_000.0, 20_000.0, f64::NAN]),
    ] {
        let workload = octile(name);
        for (queue, ns) in queues.into_iter().zip(times) {
            rows.push(if ns.is_nan() {
                cut_off(&workload, queue, 8.0)
            } else {
                steady(&workload, queue, size, ns)
            });
        }
    }
    let dijkstra = search("dijkstra", "small", HeuristicKind::Zero, StoreKind::Flat);
    rows.extend(steadies(&dijkstra, 5000.0, &[(BASELINE, 5000.0), ("bucket-queue-dup", 4000.0)]));
    rows.extend(steadies(&held(20.0), 20.0, &[(BASELINE, 10.0), ("unsorted-array-dup", 5.0)]));
    rows.extend(steadies(
        &held(300_000.0),
        300_000.0,
        &[(BASELINE, 50.0), ("bucket-queue-dup", 30.0), ("dary4-dup", 45.0)],
    ));
    rows.extend([sentinel(100.0), sentinel(110.0), sentinel(105.0)]);
    rows
}
