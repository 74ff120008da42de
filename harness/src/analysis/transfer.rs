//! How well evidence transfers to real maps it did not measure: each real map's measured
//! answer against what other evidence predicted for it (the generated bands, or the other
//! maps of its kind, each left out in turn), and the errors of the gain promised, which
//! calibrate `pick --map`'s interval for a new map.

use pqlab_queues::registry::BASELINE;
use serde::Serialize;

use super::rank::{rank_weighted, versus_weighted};
use super::{Run, Workload};
use crate::format::{plural, ratio};
use crate::results::{Platform, Row};
use crate::search::Series;

/// What a transfer check asks of the evidence: the workloads of one series, ranked among
/// the rows it admits (`pick`'s query).
pub trait Question {
    /// The series whose workloads answer.
    fn series(&self) -> Series;
    /// Whether `row`'s queue may be ranked.
    fn admits(&self, row: &Row) -> bool;
}

/// How well one kind of prediction held on real maps: per map kind, the maps where the
/// predicted queue was in the measured tie group, and the predicted queue's time ÷ the
/// measured winner's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Transfer {
    /// The run the real maps come from.
    pub run: String,
    /// Per map kind: `(kind, maps, hits, geometric mean of predicted ÷ winner, largest)`.
    pub kinds: Vec<(String, usize, usize, f64, f64)>,
    /// Each map's error in the gain promised: `ln` of std's heap's time ÷ the predicted
    /// queue's measured on the map, less `ln` of the same ratio promised by the evidence.
    pub errors: Vec<f64>,
}

impl Transfer {
    /// The share of maps where the prediction was in the tie group, over `kind` when it
    /// was checked, else over every kind.
    pub fn hit_rate(&self, kind: Option<&str>) -> Option<f64> {
        let (maps, hits, _) = self.over(kind);
        (maps > 0).then(|| hits as f64 / maps as f64)
    }

    /// The geometric mean of the predicted queue's time ÷ the measured winner's, over
    /// `kind` when it was checked, else over every kind.
    pub fn mean_ratio(&self, kind: Option<&str>) -> Option<f64> {
        let (maps, _, logs) = self.over(kind);
        (maps > 0).then(|| (logs / maps as f64).exp())
    }

    /// Over `kind` when it was checked, else over every kind: the maps, the hits and the
    /// sum of the log ratios.
    fn over(&self, kind: Option<&str>) -> (usize, usize, f64) {
        let of = self.kinds.iter().filter(|k| kind.is_none_or(|kind| k.0 == kind));
        of.fold((0, 0, 0.0), |(maps, hits, logs), k| {
            (maps + k.1, hits + k.2, logs + k.1 as f64 * k.3.ln())
        })
    }

    /// One sentence: `On the 30 real maps of run R, ...: movingai-dao 3/3 (1.00×), ...`.
    pub fn sentence(&self, what: &str) -> String {
        let maps: usize = self.kinds.iter().map(|k| k.1).sum();
        let hits: usize = self.kinds.iter().map(|k| k.2).sum();
        let kinds: Vec<String> = self
            .kinds
            .iter()
            .map(|(kind, maps, hits, mean, worst)| {
                format!("{kind} {hits}/{maps} (mean {}, worst {})", ratio(*mean), ratio(*worst))
            })
            .collect();
        format!(
            "How well this transfers: on the {} of run {}, {what} named a queue in the measured tie group on {hits} of {maps}; per kind, with the named queue's time ÷ the measured winner's: {}.",
            plural(maps, "real map"),
            self.run,
            kinds.join(", ")
        )
    }
}

/// One left-out map's check: its kind, whether the predicted queue was in the measured tie
/// group, its time ÷ the measured winner's, and the error in the promised gain.
pub type MapCheck = (String, bool, f64, f64);

/// The measured answer on one workload: whether `predicted` is in its tie group, its time ÷
/// the winner's, and the error of `promised` (std's heap's time ÷ `predicted`'s) against
/// the same ratio measured there; `None` when the workload did not time both.
pub fn against(
    workload: &Workload<'_>,
    question: &impl Question,
    predicted: &str,
    promised: f64,
) -> Option<(bool, f64, f64)> {
    let standings = rank_weighted(&[(workload, 1.0)], |r| question.admits(r));
    let winner = standings.first().filter(|s| s.contends)?;
    let mine = standings.iter().find(|s| s.queue == predicted && s.contends)?;
    let time = |q: &str| workload.ok(q).map(|r| r.median_ns);
    let gain = time(BASELINE)? / time(predicted)?;
    Some((mine.tied, time(predicted)? / time(winner.queue)?, (gain / promised).ln()))
}

/// Tallies the checks per kind.
pub fn tally(run: String, checks: Vec<MapCheck>) -> Transfer {
    let mut kinds: Vec<(String, usize, usize, f64, f64)> = Vec::new();
    let errors = checks.iter().map(|c| c.3).collect();
    for (kind, hit, r, _) in checks {
        let at = match kinds.iter().position(|k| k.0 == kind) {
            Some(at) => at,
            None => {
                kinds.push((kind, 0, 0, 0.0, 1.0));
                kinds.len() - 1
            }
        };
        let k = &mut kinds[at];
        k.1 += 1;
        k.2 += usize::from(hit);
        k.3 += r.ln();
        k.4 = k.4.max(r);
    }
    for k in &mut kinds {
        k.3 = (k.3 / k.1 as f64).exp();
    }
    Transfer { run, kinds, errors }
}

/// The real-map workloads of `run` in the query's series.
pub fn real<'w, 'a>(run: &'w Run<'a>, question: &impl Question) -> Vec<&'w Workload<'a>> {
    let selection = question.series();
    run.workloads.iter().filter(|w| w.real() && selection.admits(w)).collect()
}

/// How the other real maps of `kind` predict each one of them (each left out in turn).
pub fn kind_transfer(run: &Run<'_>, question: &impl Question, kind: &str) -> Transfer {
    let same: Vec<&Workload<'_>> =
        real(run, question).into_iter().filter(|w| w.map_kind() == kind).collect();
    let checks = (0..same.len())
        .filter(|_| same.len() > 1)
        .filter_map(|out| {
            let others: Vec<(&Workload<'_>, f64)> = same
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != out)
                .map(|(_, w)| (*w, 1.0))
                .collect();
            let standings = rank_weighted(&others, |r| question.admits(r));
            let predicted = standings.first().filter(|s| s.contends)?.queue;
            let promised = versus_weighted(&others, BASELINE, predicted)?.ratio.mid;
            let (hit, r, error) = against(same[out], question, predicted, promised)?;
            Some((kind.to_owned(), hit, r, error))
        })
        .collect();
    tally(run.run_id(), checks)
}

/// The promised gain's errors of every map kind's maps predicting each other (each left
/// out in turn), pooled: one kind holds too few maps to calibrate an interval on.
pub fn kind_errors(run: &Run<'_>, question: &impl Question) -> Vec<f64> {
    let kinds: std::collections::BTreeSet<&str> =
        real(run, question).into_iter().map(|w| w.map_kind()).collect();
    kinds.into_iter().flat_map(|kind| kind_transfer(run, question, kind).errors).collect()
}

/// How far another CPU moves the ratios, when this machine's CPU is not (or cannot be told
/// to be) the evidence run's: the 90th percentile of the workload-wide shift
/// ([`super::diff::Shift`]) between the newest run among `runs` that recorded its
/// CPU and the newest that recorded another; `None` on the evidence's CPU, or where no two
/// such runs exist.
pub fn cpu_widening(runs: &[Vec<Row>], evidence: &[Row]) -> Option<f64> {
    let cpu = |rows: &Vec<Row>| rows.first().map(Row::platform).filter(Platform::identified);
    let evidence = evidence.first().map(Row::platform).unwrap_or_default();
    if Platform::detect().same_cpu(&evidence) == Some(true) {
        return None;
    }
    let mut identified = runs.iter().rev().filter_map(|rows| Some((rows, cpu(rows)?)));
    let (newest, its) = identified.next()?;
    let (other, _) = identified.find(|(_, p)| p.same_cpu(&its) == Some(false))?;
    let moved = super::diff::workload_leaders(&Run::new(newest), &Run::new(other));
    super::diff::shift(&moved).map(|s| s.p90)
}
