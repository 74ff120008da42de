//! The run's own noise, from the sentinel: the baseline re-measured on one fixed workload
//! through the run (its rows appear in the file in the order they were measured).

use crate::analysis::rank::TIE_MARGIN;
use crate::analysis::Run;
use crate::results::{Kind, Status};

/// The drift that makes a run noisy: 20%, nearly twice the largest drift of any run whose
/// `pqlab diff` against the run beside it agreed. Calibrated on the seven runs with
/// sentinels (five Intel Xeon, two AMD EPYC): their drifts, as [`noise`] measures them,
/// were 2.6%, 11.5%, 8.5% (a core kept busy), 6.8%, 1.8%, 1.1% and 0.9%, and consecutive
/// runs among them put 26–31 of 31 band winners in each other's tie groups with 14 or 15
/// of 15 verdicts the same (τ ≥ 0.60 on every workload; 0.87 on the AMD pair). A drift
/// beyond every agreeing run's is what says the machine changed under the run. Before the
/// warm-up was left out and the range made robust, one cold first sentinel (13.8 µs
/// against 9.6) made the second AMD run read 44.5%, "noisy", although it agreed with the
/// run before it.
pub const TROUBLING_DRIFT: f64 = 0.20;

/// What the sentinel says of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// How many times it was measured (the warm-up included).
    pub measurements: usize,
    /// How much the machine's speed moved through the run: the interquartile ratio
    /// (`p75 / p25 - 1`) of its medians after the first, a warm-up left out (the first
    /// measurement runs on cold caches and a cold clock); a robust spread, so that one
    /// disturbed measurement does not decide it. Interleaving spreads a drift over every
    /// queue of a workload alike.
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
            "the baseline, re-measured {} times on one workload, drifted {:.1}% through the run (interquartile range of its medians, the first, warm-up one left out) and its rounds spread {:.1}%",
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
    let warm = if medians.len() > 2 { &medians[1..] } else { &medians[..] };
    let spreads: Vec<f64> = measured.iter().map(|r| r.p75_ns / r.p25_ns - 1.0).collect();
    Some(Noise {
        measurements: measured.len(),
        drift: crate::results::quantile(warm, 0.75) / crate::results::quantile(warm, 0.25) - 1.0,
        spread: crate::results::quantile(&spreads, 0.5),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::rows::Workload;
    use crate::results::{Provenance, Row, Unit};

    fn sentinels(medians: &[f64]) -> Vec<Row> {
        let shape = Workload {
            kind: Kind::Sentinel,
            name: "sentinel".into(),
            map: "m".into(),
            map_kind: "random".into(),
            real: false,
            heuristic: None,
            scale: None,
            store: None,
            setup: None,
            unit: Unit::Search,
        };
        let provenance = Provenance {
            run: "r".into(),
            machine: "m".into(),
            cpu: "c".into(),
            rustc: "x".into(),
            git: "g".into(),
        };
        medians
            .iter()
            .map(|&m| {
                let mut row = shape.row(&provenance, "std-binary-heap-dup", None);
                row.set_samples(&[m * 0.995, m, m * 1.005], &[m, m, m]);
                row
            })
            .collect()
    }

    #[test]
    fn a_cold_first_sentinel_does_not_make_a_run_noisy() {
        // The second AMD EPYC default run of e47ca6b, in µs.
        let rows = sentinels(&[13.8, 9.6, 9.7, 9.6, 10.6, 9.6, 9.6, 9.6]);
        let noise = noise(&Run::new(&rows)).unwrap();
        assert_eq!(noise.measurements, 8);
        assert!(noise.drift < 0.02, "{noise:?}");
        assert!(!noise.troubling());
        assert!(noise.sentence().starts_with("This run was quiet"));
    }

    #[test]
    fn a_machine_that_slows_through_the_run_is_noisy() {
        let rows = sentinels(&[10.0, 10.0, 10.5, 11.0, 12.5, 13.0, 14.0, 14.5]);
        let noise = noise(&Run::new(&rows)).unwrap();
        assert!(noise.drift > TROUBLING_DRIFT && noise.troubling(), "{noise:?}");
        assert!(noise.sentence().starts_with("This run was noisy"));
    }
}
