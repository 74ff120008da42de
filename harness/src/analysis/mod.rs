//! What the report, `pqlab pick` and `pqlab diff` compute from a run's rows: workloads,
//! rankings with their tie groups, frontier-size bands, the verdicts, and the run's noise,
//! each computed once per run and held by [`Findings`].
//!
//! Every comparison is made inside workloads: a queue's time is only ever divided by
//! another queue's time on the same workload (measured in the same rounds), and ratios are
//! combined across workloads by geometric mean, so a slow workload does not outweigh a
//! fast one. Rankings use the thread CPU time (see `lab::clock`).

pub mod bands;
pub mod diff;
pub mod findings;
pub mod latency;
pub mod memory;
pub mod noise;
pub mod rank;
pub mod replays;
pub mod trades;
pub mod transfer;
pub mod verdicts;
pub mod workloads;

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod tests;

pub use bands::{Band, BandRanking, Eligible, Evidence};
pub use findings::Findings;
pub use rank::{rank, versus, Standing, Versus, EXECUTION_SPREAD, TIE_MARGIN};
pub use workloads::{Run, Timing, Workload};

/// The geometric mean of `values` (NaN when empty).
pub fn geomean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values.into_iter().fold((0.0, 0u32), |(sum, n), v| (sum + v.ln(), n + 1));
    (sum / f64::from(n)).exp()
}
