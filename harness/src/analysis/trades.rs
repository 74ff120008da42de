//! Ways of trading path length for time, each against exact octile A\* with the baseline
//! on the same problems: the soft heaps (approximate order) and weighted A\*. Computed
//! once per run ([`super::Findings::trades`]) and read by the soft-heap verdict and its
//! chart, so the two cannot disagree.

use pqlab_queues::registry::BASELINE;

use super::{geomean, Run, Workload};
use crate::results::{Kind, Row};
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::Series;

/// A way of trading path length for time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Way<'a> {
    /// A soft heap (its queue id and ε) in octile A\* itself.
    SoftHeap {
        /// The queue.
        queue: &'a str,
        /// Its error rate.
        epsilon: f64,
    },
    /// Weighted A\* with the baseline, at this weight.
    Weighted {
        /// The heuristic's weight.
        weight: f64,
    },
}

/// One way on one workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TradePoint {
    /// Its time over exact octile A\* with the baseline on the same problems.
    pub time: f64,
    /// Its paths' mean excess over optimal (0.01: 1% longer).
    pub excess_mean: f64,
    /// Its paths' largest excess over optimal.
    pub excess_max: f64,
}

/// One way on every workload where it and its exact yardstick were measured (never
/// empty).
#[derive(Clone, Debug, PartialEq)]
pub struct Trade<'a> {
    /// The way.
    pub way: Way<'a>,
    /// One point a workload.
    pub points: Vec<TradePoint>,
}

impl Trade<'_> {
    /// The geometric mean of its time ratios.
    pub fn time(&self) -> f64 {
        geomean(self.points.iter().map(|p| p.time))
    }

    /// The mean of its workloads' mean excess.
    pub fn excess_mean(&self) -> f64 {
        self.points.iter().map(|p| p.excess_mean).sum::<f64>() / self.points.len() as f64
    }

    /// The largest excess on any workload.
    pub fn excess_max(&self) -> f64 {
        self.points.iter().map(|p| p.excess_max).fold(0.0, f64::max)
    }
}

/// Every way the run measured: the soft heaps, the largest ε first (then by id), then
/// weighted A\*, the smallest weight first.
pub fn trades<'a>(run: &Run<'a>) -> Vec<Trade<'a>> {
    let mut found = soft_heaps(run);
    found.extend(weighted(run));
    found
}

/// Each soft heap on the octile workloads themselves, against the baseline there.
fn soft_heaps<'a>(run: &Run<'a>) -> Vec<Trade<'a>> {
    let octile: Vec<&Workload<'a>> =
        run.workloads.iter().filter(|w| Series::OCTILE.admits(w)).collect();
    let mut epsilons: Vec<(&'a str, f64)> =
        run.rows.iter().filter_map(|r| Some((r.queue.as_str(), r.epsilon?))).collect();
    epsilons.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    epsilons.dedup();
    epsilons
        .into_iter()
        .filter_map(|(queue, epsilon)| {
            let points = octile.iter().filter_map(|w| point(w.ok(queue)?, w.ok(BASELINE)?));
            trade(Way::SoftHeap { queue, epsilon }, points.collect())
        })
        .collect()
}

/// Weighted A\* with the baseline at each weight, against exact octile A\* with the
/// baseline on the same searches ([`Run::sibling`]).
fn weighted<'a>(run: &Run<'a>) -> Vec<Trade<'a>> {
    let mut weights: Vec<f64> = run
        .of(Kind::Astar)
        .filter_map(|w| match w.heuristic() {
            Some(HeuristicKind::WeightedOctile(weight)) => Some(weight),
            _ => None,
        })
        .collect();
    weights.sort_by(f64::total_cmp);
    weights.dedup();
    weights
        .into_iter()
        .filter_map(|weight| {
            let points = run
                .of(Kind::Astar)
                .filter(|w| {
                    w.heuristic() == Some(HeuristicKind::WeightedOctile(weight))
                        && w.store() == Some(StoreKind::Flat)
                })
                .filter_map(|w| {
                    let exact = run.sibling(w, HeuristicKind::Octile, StoreKind::Flat)?;
                    point(w.ok(BASELINE)?, exact.ok(BASELINE)?)
                });
            trade(Way::Weighted { weight }, points.collect())
        })
        .collect()
}

/// A way's point from its row and the exact yardstick's row.
fn point(row: &Row, exact: &Row) -> Option<TradePoint> {
    Some(TradePoint {
        time: row.median_ns / exact.median_ns,
        excess_mean: row.excess_mean.unwrap_or(0.0),
        excess_max: row.excess_max.unwrap_or(0.0),
    })
}

/// The trade, when it has a point.
fn trade(way: Way<'_>, points: Vec<TradePoint>) -> Option<Trade<'_>> {
    (!points.is_empty()).then_some(Trade { way, points })
}
