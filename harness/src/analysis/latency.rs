//! Per-search latency: what a frame budget asks of a queue, where total time is what a
//! batch of searches asks. Each row's `search_p99_ns` is the 99th percentile over its
//! workload's problems of one search's wall time (each problem's median over the timed
//! passes; see `results`), so a queue's amortised spikes (a HOT queue's refill, a radix
//! heap's redistribution) show here and in no total.

use serde::Serialize;

use super::Workload;

/// A queue's latency over weighted workloads: geometric means (by weight) of its own
/// figures, and of its p99 over the best p99 on each workload.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Latency {
    /// The median search, ns.
    pub p50_ns: f64,
    /// The 99th-percentile search, ns.
    pub p99_ns: f64,
    /// The slowest search, ns.
    pub max_ns: f64,
    /// Its p99 over the lowest p99 among the admitted queues, per workload (1 for the
    /// best on every workload).
    pub p99_vs_best: f64,
}

/// The latency of `queue` over `workloads` (weighted), against the best p99 of the queues
/// `admits` accepts on each; `None` unless it has latency figures on every workload.
/// O(workloads × queues).
pub fn latency(
    workloads: &[(&Workload<'_>, f64)],
    queue: &str,
    admits: impl Fn(&crate::results::Row) -> bool,
) -> Option<Latency> {
    let mut sums = [0.0f64; 4];
    let mut total = 0.0;
    for (w, weight) in workloads {
        let row = w.ok(queue)?;
        let (p50, p99, max) = (row.search_p50_ns?, row.search_p99_ns?, row.search_max_ns?);
        let best = w
            .rows
            .values()
            .filter(|r| r.status == crate::results::Status::Ok && admits(r))
            .filter_map(|r| r.search_p99_ns)
            .fold(f64::INFINITY, f64::min);
        for (sum, v) in sums.iter_mut().zip([p50, p99, max, p99 / best.min(p99)]) {
            *sum += weight * v.max(f64::MIN_POSITIVE).ln();
        }
        total += weight;
    }
    (total > 0.0).then(|| {
        let [p50, p99, max, vs] = sums.map(|s| (s / total).exp());
        Latency { p50_ns: p50, p99_ns: p99, max_ns: max, p99_vs_best: vs }
    })
}
