//! The run's own noise, from the sentinel: the baseline re-measured on one fixed workload
//! through the run (its rows appear in the file in the order they were measured).

use crate::analysis::rank::TIE_MARGIN;
use crate::analysis::Run;
use crate::results::{Kind, Status};

/// The drift that makes a run noisy: 25%. Quiet runs on the reference machine drift 9–17%
/// (the slowest sentinel is the one measured after the synthetic workload has held 10⁷
/// entries), and the two quiet default runs agree on every octile band winner.
pub const TROUBLING_DRIFT: f64 = 0.25;

/// What the sentinel says of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// How many times it was measured.
    pub measurements: usize,
    /// Its slowest median over its fastest, minus one: how much the machine's speed moved
    /// through the run (interleaving spreads that over every queue of a workload alike).
    pub drift: f64,
    /// The median over its measurements of `p75 / p25 - 1`: how much rounds disagree
    /// within a workload, the noise a ranking must see through.
    pub spread: f64,
}

impl Noise {
    /// Whether the noise could change rankings: rounds spread by more than twice the tie
    /// margin, or the machine's speed moved by more than [`TROUBLING_DRIFT`]. Rankings
    /// compare queues within a workload, timed interleaved, so a slow drift moves them
    /// all alike; only a large one says the machine's conditions changed under the run.
    pub fn troubling(&self) -> bool {
        self.spread > 2.0 * (TIE_MARGIN - 1.0) || self.drift > TROUBLING_DRIFT
    }

    /// One sentence for the top of the report and of `pqlab pick`.
    pub fn sentence(&self) -> String {
        let what = format!(
            "the baseline, re-measured {} times on one workload, drifted {:.1}% through the run and its rounds spread {:.1}%",
            self.measurements,
            self.drift * 100.0,
            self.spread * 100.0
        );
        if self.troubling() {
            format!(
                "This run was noisy: {what}. Rankings closer than {:.0}% may change from run to run.",
                self.spread.max(self.drift) * 100.0
            )
        } else {
            format!("This run was quiet: {what}.")
        }
    }
}

/// The sentinel's verdict on `run`, if it was measured.
pub fn noise(run: &Run<'_>) -> Option<Noise> {
    let measured: Vec<_> =
        run.rows.iter().filter(|r| r.kind == Kind::Sentinel && r.status == Status::Ok).collect();
    if measured.is_empty() {
        return None;
    }
    let medians: Vec<f64> = measured.iter().map(|r| r.median_ns).collect();
    let (lo, hi) =
        medians.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &m| (lo.min(m), hi.max(m)));
    let spreads: Vec<f64> = measured.iter().map(|r| r.p75_ns / r.p25_ns - 1.0).collect();
    Some(Noise {
        measurements: measured.len(),
        drift: hi / lo - 1.0,
        spread: crate::results::quantile(&spreads, 0.5),
    })
}
