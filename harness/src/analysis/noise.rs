//! The run's own noise, and whether it could move the answers: from the sentinel (the
//! baseline re-measured on one fixed workload through the run, its rows in the file in the
//! order they were measured) and, in runs timed in paired slices (schema 5), from every
//! workload's reference slices.
//!
//! A run is *quiet* when nothing shows the machine's speed moving; *busy* when it moved
//! (slow periods in the reference slices, or a sentinel drift) but the paired slices
//! cancelled it, so the samples rankings use spread no more than on a quiet machine; and
//! *noisy* when the samples rankings use spread more than that, or the speed moved in a run
//! that was not timed in pairs. See `METHODOLOGY.md`.

use crate::analysis::rank::TIE_MARGIN;
use crate::analysis::Run;
use crate::lab::sampler::JUMP;
use crate::results::{quantile, Kind, Row, Status};

/// The sentinel drift beyond which the machine's speed moved under the run: 20% between
/// the 10th and 90th percentiles of its warm medians. The rule: above every quiet run's,
/// below every run whose sentinels fell in two clusters. Measured on the committed Intel
/// Xeon and AMD EPYC runs: 3.7% to 13.9% on the quiet ones (the two quiet runs of the
/// shared `intel-xeon-quiet` pair: 12.7% and 3.7%), 25.1% to 50.9% on the ones whose
/// sentinels sat in two clusters, 27.1% on the one the former rule (the interquartile
/// range, 18.6%) called quiet.
pub const TROUBLING_DRIFT: f64 = 0.20;

/// The share of a run's reference slices in slow periods beyond which the machine was
/// busy: 5%. The rule: a quiet machine's reference slices stay within [`JUMP`] of their
/// workload's fast level all but a few times a run.
pub const SLOW_SHARE: f64 = 0.05;

/// How much the pairing leaves beyond which a run is noisy: 5.5%, as the median over
/// workloads of the interquartile range (over the median) of the reference's own paired
/// ratios (each reference slice ÷ the geometric mean of its neighbours: what a contender's
/// ratio sees of the machine, whatever its number of rounds). The rule: above the runs
/// whose answers another such run repeated best, below those a run beside neighbours
/// contradicted. Measured on the AMD EPYC (METHODOLOGY.md): 2.9% and 4.8% for two
/// consecutive runs with nothing of ours beside them (leaders moved 3.3% between them),
/// 6.0% to 9.1% for five runs beside a neighbour or on a busier host (leaders moved 5.0%
/// to 6.0% against the others).
pub const RESIDUAL_LIMIT: f64 = 0.055;

/// What the sentinel and the reference slices say of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// How many times the sentinel was measured (the warm-up included).
    pub measurements: usize,
    /// How much the machine's speed moved through the run: `p90 / p10 - 1` of the
    /// sentinel's medians after the first (a warm-up, on cold caches and a cold clock).
    pub drift: f64,
    /// How much the samples rankings use disagree within a workload: the median, over the
    /// run's timed rows (the sentinel's where a run has no others), of `p75 / p25 - 1`.
    pub spread: f64,
    /// What the paired slices saw, in runs timed with a reference.
    pub paired: Option<Paired>,
}

/// What a run's reference slices saw of the machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// The share of reference slices more than [`JUMP`] slower than their workload's fast
    /// level (the 10th percentile of its reference slices): time in slow periods.
    pub slow: f64,
    /// The spread the rows' own slice times had, as [`Noise::spread`] measures it: what
    /// rankings would have seen without the pairing.
    pub raw_spread: f64,
    /// The share of slices timed again because their bracket saw the speed change.
    pub retimed: f64,
    /// What the pairing leaves of the machine's noise: see [`RESIDUAL_LIMIT`]; `None` when
    /// no workload has five reference slices.
    pub residual: Option<f64>,
}

/// The three states of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calm {
    /// Nothing shows the machine's speed moving.
    Quiet,
    /// The speed moved, and the paired slices cancelled it.
    Busy,
    /// The samples rankings use spread beyond twice the tie margin, the pairing left more
    /// than [`RESIDUAL_LIMIT`], or the speed moved in a run not timed in pairs.
    Noisy,
}

impl Noise {
    /// The spread beyond which rankings within a workload are troubled: twice the tie
    /// margin.
    fn spread_limit() -> f64 {
        2.0 * (TIE_MARGIN - 1.0)
    }

    /// Whether anything shows the machine's speed moving under the run.
    fn moved(&self) -> bool {
        self.drift > TROUBLING_DRIFT
            || self
                .paired
                .is_some_and(|p| p.slow > SLOW_SHARE || p.raw_spread > Self::spread_limit())
    }

    /// The run's state.
    pub fn calm(&self) -> Calm {
        let residual = self.paired.and_then(|p| p.residual).is_some_and(|r| r > RESIDUAL_LIMIT);
        if self.spread > Self::spread_limit() || residual || (self.moved() && self.paired.is_none())
        {
            Calm::Noisy
        } else if self.moved() {
            Calm::Busy
        } else {
            Calm::Quiet
        }
    }

    /// Whether the noise could change rankings: a noisy run.
    pub fn troubling(&self) -> bool {
        self.calm() == Calm::Noisy
    }

    /// How close two queues' times may be in a noisy run and their order still change from
    /// run to run: where the pairing's residual was measured, the larger of it and the
    /// spread, at least 5%; else the larger of the spread and the drift.
    pub fn unsettled(&self) -> f64 {
        match self.paired.and_then(|p| p.residual) {
            Some(residual) => residual.max(self.spread).max(0.05),
            None => self.spread.max(self.drift),
        }
    }

    /// One sentence for the report and for `pqlab pick`'s evidence.
    pub fn sentence(&self) -> String {
        let sentinel = format!(
            "the baseline, re-measured {} times on one workload, drifted {:.1}% through the run (10th to 90th percentile of its medians, the first, warm-up one left out)",
            self.measurements,
            self.drift * 100.0
        );
        let spread = format!("the samples rankings use spread {:.1}%", self.spread * 100.0);
        match (self.calm(), self.paired) {
            (Calm::Quiet, None) => format!("This run was quiet: {sentinel}, and {spread}."),
            (Calm::Quiet, Some(p)) => format!(
                "This run was quiet: {sentinel}; {:.1}% of the reference slices fell in slow periods, and {spread}.",
                p.slow * 100.0
            ),
            (Calm::Busy, Some(p)) => format!(
                "This run met a busy machine: {sentinel}, and {:.1}% of the reference slices fell in slow periods ({:.1}% of slices were timed again). Every queue was timed against the baseline in adjacent slices, which cancels them: {spread}, where the slices' own times spread {:.1}%, and the pairing left {} of noise (under {:.1}%).",
                p.slow * 100.0,
                p.retimed * 100.0,
                p.raw_spread * 100.0,
                p.residual.map_or("no measure".to_owned(), |r| format!("{:.1}%", r * 100.0)),
                RESIDUAL_LIMIT * 100.0
            ),
            (Calm::Noisy, Some(Paired { residual: Some(residual), slow, .. })) => format!(
                "This run was noisy: {sentinel}, and {:.1}% of the reference slices fell in slow periods. Pairing each slice with the baseline's beside it left {:.1}% of noise (the interquartile range of the baseline's own paired slices; the runs whose answers the next run repeated stayed under {:.1}%), and {spread}. Rankings closer than {:.0}% may change from run to run.",
                slow * 100.0,
                residual * 100.0,
                RESIDUAL_LIMIT * 100.0,
                self.unsettled() * 100.0
            ),
            _ => format!(
                "This run was noisy: {sentinel}, and {spread}. Rankings closer than {:.0}% may change from run to run.",
                self.unsettled() * 100.0
            ),
        }
    }
}

/// `p75 / p25 - 1` of a list of samples (0 for fewer than two).
fn iqr(samples: &[f64]) -> f64 {
    let low = quantile(samples, 0.25);
    if samples.len() < 2 || low <= 0.0 {
        return 0.0;
    }
    quantile(samples, 0.75) / low - 1.0
}

/// How much a workload's level (the reference's median time on it, which every figure of
/// the workload is scaled by) moves with the machine's speed from one workload to another,
/// as the standard deviation of its logarithm: from the sentinel's warm medians (the
/// baseline timed alone on one fixed workload every few workloads), robustly, as
/// `ln(p90 / p10) / 2.563` (a normal's). `None` with fewer than three warm measurements.
/// The paired slices cancel the machine's speed within a workload, never between two, so
/// a comparison across two workloads varies by this much more from run to run: on the AMD
/// EPYC (two consecutive quiet runs) the generic A\*'s integer and float twins'
/// levels moved up to 1.58× between two consecutive runs, and the sentinel's warm medians
/// ranged 9.3–16.2 µs in one of them.
pub fn level_spread(rows: &[Row]) -> Option<f64> {
    let medians: Vec<f64> = rows
        .iter()
        .filter(|r| r.kind == Kind::Sentinel && r.status == Status::Ok)
        .map(|r| r.median_ns)
        .collect();
    let warm = medians.get(1..).filter(|w| w.len() >= 3)?;
    Some((quantile(warm, 0.9) / quantile(warm, 0.1)).ln() / 2.563)
}

/// The sentinel's and the reference slices' verdict on `run`, if the sentinel was
/// measured.
pub fn noise(run: &Run<'_>) -> Option<Noise> {
    let measured: Vec<&Row> =
        run.rows.iter().filter(|r| r.kind == Kind::Sentinel && r.status == Status::Ok).collect();
    if measured.is_empty() {
        return None;
    }
    let medians: Vec<f64> = measured.iter().map(|r| r.median_ns).collect();
    let warm = if medians.len() > 2 { &medians[1..] } else { &medians[..] };
    let timed = timed(run.rows);
    let spreads = |of: fn(&Row) -> &[f64], rows: &[&Row]| -> f64 {
        let list: Vec<f64> = rows.iter().map(|r| iqr(of(r))).collect();
        quantile(&list, 0.5)
    };
    let spread = if timed.is_empty() {
        spreads(|r| &r.samples_ns.0, &measured)
    } else {
        spreads(|r| &r.samples_ns.0, &timed)
    };
    Some(Noise {
        measurements: measured.len(),
        drift: quantile(warm, 0.9) / quantile(warm, 0.1) - 1.0,
        spread,
        paired: paired(&timed),
    })
}

/// The rows a run timed: measured, with more than one round, the sentinel's apart.
fn timed(rows: &[Row]) -> Vec<&Row> {
    rows.iter()
        .filter(|r| r.kind != Kind::Sentinel && r.status == Status::Ok && r.samples_ns.0.len() > 1)
        .collect()
}

/// What the pairing leaves of the machine's noise in `rows` ([`Paired::residual`]) as the
/// standard deviation of one slice's logarithm, if a workload has five reference slices.
/// A run's intervals take it as what varies between runs when it exceeds a workload's
/// [`execution_floor`](crate::analysis::rank::execution_floor): a run that saw more noise than
/// that cannot promise another run more. The rule: a normal variable's interquartile range
/// is 1.349 standard deviations, and a slice over its two neighbours' geometric mean has
/// √1.5 times one slice's. Measured (METHODOLOGY.md): with it, the AMD EPYC runs' leaders'
/// changes between a noisy run and another run (four runs) sit a median 0.67 to 0.74 combined standard deviations apart (0.67 wanted),
/// against 0.87 to 0.94 with the fixed spread alone.
pub fn slice_spread(rows: &[Row]) -> Option<f64> {
    residual_of(&timed(rows)).map(|residual| residual / (1.349 * 1.5f64.sqrt()))
}

/// [`residual`] over the timed rows.
fn residual_of(timed: &[&Row]) -> Option<f64> {
    let residuals: Vec<f64> = timed
        .iter()
        .map(|r| &r.reference_ns.0[..])
        .filter(|slices| slices.len() >= 5)
        .map(|slices| {
            let ratios: Vec<f64> = slices.windows(3).map(|w| w[1] / (w[0] * w[2]).sqrt()).collect();
            iqr(&ratios)
        })
        .collect();
    (!residuals.is_empty()).then(|| quantile(&residuals, 0.5))
}

/// What the reference slices of `timed` saw, if any row carries them.
fn paired(timed: &[&Row]) -> Option<Paired> {
    let references: Vec<&[f64]> =
        timed.iter().map(|r| &r.reference_ns.0[..]).filter(|slices| slices.len() > 1).collect();
    if references.is_empty() {
        return None;
    }
    let (mut slow, mut slices) = (0usize, 0usize);
    for reference in &references {
        let fast = quantile(reference, 0.1);
        slow += reference.iter().filter(|&&s| s > JUMP * fast).count();
        slices += reference.len();
    }
    let with_raw: Vec<&Row> =
        timed.iter().copied().filter(|r| r.raw_samples_ns.0.len() > 1).collect();
    let raw: Vec<f64> = with_raw.iter().map(|r| iqr(&r.raw_samples_ns.0)).collect();
    let kept: usize = timed.iter().map(|r| r.samples_ns.0.len()).sum();
    let retimed: u32 = timed.iter().map(|r| r.retimed).sum();
    Some(Paired {
        slow: slow as f64 / slices as f64,
        raw_spread: quantile(&raw, 0.5),
        retimed: f64::from(retimed) / (kept as f64 + f64::from(retimed)).max(1.0),
        residual: residual_of(timed),
    })
}
