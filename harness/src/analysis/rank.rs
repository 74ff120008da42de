//! Rankings over a set of workloads, and the tie group that cannot be told from the best.
//!
//! # The rule
//!
//! A queue's *score* over a set of workloads is the geometric mean of its time divided by
//! the fastest eligible time on each workload. Contenders are the queues measured on every
//! workload of the set that measured anyone eligible (never cut off, never failed); the
//! best score wins. The **tie group** holds the winner and every contender that the
//! measurement cannot put more than [`TIE_MARGIN`] behind it: the lower end of the 95%
//! bootstrap interval of its time ratio to the winner is at most `TIE_MARGIN`.
//!
//! The interval comes from resampling rounds: on each workload, rounds are drawn with
//! replacement (the same round indices for both queues when they were timed in the same
//! rounds, so a disturbance common to a round cancels), each queue's median is taken, and
//! the ratios' geometric mean over the workloads is one bootstrap value; 400 of them give
//! the 2.5th and 97.5th percentiles. Rows from before per-sample times were kept (schema 1)
//! use the widest ratio of values inside their quartiles instead.

use std::collections::BTreeMap;

use crate::analysis::Workload;
use crate::results::{quantile, Row, Status};

/// How far behind the best a queue may be and still tie with it, when the measurement
/// cannot tell: 2%. Two quiet default runs of one commit on one machine put the same
/// queue's time ratio to the winner up to 2% apart on a workload, so a smaller lead than
/// that is not an answer another run would repeat.
pub const TIE_MARGIN: f64 = 1.02;

/// Bootstrap resamples per interval.
const RESAMPLES: usize = 400;

/// Where a queue stands over a set of workloads.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing<'a> {
    /// The queue id.
    pub queue: &'a str,
    /// The geometric mean, over the workloads where it was measured, of its time divided
    /// by the fastest eligible time there (1 = fastest everywhere). NaN if never measured.
    pub score: f64,
    /// Its time ÷ the winner's with the 95% interval: `(low, ratio, high)`; `None` for the
    /// winner and non-contenders.
    pub against_winner: Option<(f64, f64, f64)>,
    /// Whether it is in the winner's tie group (the winner is).
    pub tied: bool,
    /// Workloads where it was measured.
    pub ok: usize,
    /// Workloads where it was cut off (too slow to time).
    pub cut_off: usize,
    /// Workloads where it failed (a wrong answer or a rejected key).
    pub failed: usize,
    /// Whether it competes: measured on every workload of the set that measured anyone it
    /// competes with, cut off and failed nowhere.
    pub contends: bool,
}

/// Ranks the queues whose rows `eligible` admits over `workloads`: contenders by score
/// (the winner first), then the others.
pub fn rank<'a>(workloads: &[&Workload<'a>], eligible: impl Fn(&Row) -> bool) -> Vec<Standing<'a>> {
    let weighted: Vec<(&Workload<'a>, f64)> = workloads.iter().map(|w| (*w, 1.0)).collect();
    rank_weighted(&weighted, eligible)
}

/// [`rank`] with a weight per workload: scores and ratios are weighted geometric means
/// (`pqlab pick --map` weights each band by the share of the map's searches in it).
pub fn rank_weighted<'a>(
    workloads: &[(&Workload<'a>, f64)],
    eligible: impl Fn(&Row) -> bool,
) -> Vec<Standing<'a>> {
    let mut logs: BTreeMap<&'a str, (f64, f64, Standing<'a>)> = BTreeMap::new();
    let mut measured_workloads = 0;
    for &(workload, weight) in workloads {
        let Some(fastest) = workload.fastest(&eligible).map(|row| row.median_ns) else {
            continue;
        };
        measured_workloads += 1;
        for (&queue, row) in workload.rows.iter().filter(|(_, row)| eligible(row)) {
            let (log_sum, weights, standing) = logs.entry(queue).or_insert_with(|| {
                let empty = Standing {
                    queue,
                    score: f64::NAN,
                    against_winner: None,
                    tied: false,
                    ok: 0,
                    cut_off: 0,
                    failed: 0,
                    contends: false,
                };
                (0.0, 0.0, empty)
            });
            match row.status {
                Status::Ok => {
                    standing.ok += 1;
                    *log_sum += weight * (row.median_ns / fastest).ln();
                    *weights += weight;
                }
                Status::CutOff => standing.cut_off += 1,
                Status::Failed => standing.failed += 1,
                Status::NotApplicable => {}
            }
        }
    }
    let mut list: Vec<Standing<'a>> = logs
        .into_values()
        .map(|(log_sum, weights, mut s)| {
            s.score = (log_sum / weights).exp();
            s.contends = s.ok == measured_workloads && s.cut_off == 0 && s.failed == 0;
            s
        })
        .collect();
    list.sort_by(|a, b| {
        (!a.contends, a.ok == 0)
            .cmp(&(!b.contends, b.ok == 0))
            .then(a.score.total_cmp(&b.score))
            .then(a.queue.cmp(b.queue))
    });
    if let Some(winner) = list.first().filter(|s| s.contends).map(|s| s.queue) {
        for standing in list.iter_mut() {
            if standing.queue == winner {
                standing.tied = true;
            } else if standing.contends {
                let v = versus_weighted(workloads, standing.queue, winner)
                    .expect("contenders share workloads");
                standing.against_winner = Some((v.low, v.ratio, v.high));
                standing.tied = v.low <= TIE_MARGIN;
            }
        }
    }
    list
}

/// The winner and its tie group, in rank order.
pub fn tie_group<'s, 'a>(standings: &'s [Standing<'a>]) -> impl Iterator<Item = &'s Standing<'a>> {
    standings.iter().filter(|s| s.contends && s.tied)
}

/// Two queues head to head over the workloads where both were measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    /// The geometric mean of the first queue's time divided by the second's (below 1: the
    /// first is faster).
    pub ratio: f64,
    /// The 95% interval's low end.
    pub low: f64,
    /// The 95% interval's high end.
    pub high: f64,
    /// Workloads where both were measured.
    pub n: usize,
}

impl Versus {
    /// Whether the interval says the first queue is faster beyond the tie margin.
    pub fn faster(&self) -> bool {
        self.high * TIE_MARGIN < 1.0
    }

    /// Whether the interval says the first queue is slower beyond the tie margin.
    pub fn slower(&self) -> bool {
        self.low > TIE_MARGIN
    }
}

/// `a` against `b` over `workloads`: their time ratio with its interval; `None` if no
/// workload measured both.
pub fn versus(workloads: &[&Workload<'_>], a: &str, b: &str) -> Option<Versus> {
    let weighted: Vec<(&Workload<'_>, f64)> = workloads.iter().map(|w| (*w, 1.0)).collect();
    versus_weighted(&weighted, a, b)
}

/// [`versus`] with a weight per workload.
pub fn versus_weighted(workloads: &[(&Workload<'_>, f64)], a: &str, b: &str) -> Option<Versus> {
    let pairs: Vec<(&Row, &Row, f64)> =
        workloads.iter().filter_map(|(w, weight)| Some((w.ok(a)?, w.ok(b)?, *weight))).collect();
    if pairs.is_empty() {
        return None;
    }
    let total: f64 = pairs.iter().map(|p| p.2).sum();
    let mean = |f: &dyn Fn(&Row, &Row) -> f64| {
        (pairs.iter().map(|(a, b, w)| w * f(a, b).ln()).sum::<f64>() / total).exp()
    };
    let ratio = mean(&|a, b| a.median_ns / b.median_ns);
    let (low, high) =
        if pairs.iter().any(|(a, b, _)| a.samples_ns.0.is_empty() || b.samples_ns.0.is_empty()) {
            // Schema 1 rows: the widest ratio of values inside the quartiles.
            (mean(&|a, b| a.p25_ns / b.p75_ns), mean(&|a, b| a.p75_ns / b.p25_ns))
        } else {
            interval(&pairs, total, a, b)
        };
    Some(Versus { ratio, low: low.min(ratio), high: high.max(ratio), n: pairs.len() })
}

/// The 95% interval of the weighted geometric mean of `a ÷ b` medians over `pairs`.
fn interval(pairs: &[(&Row, &Row, f64)], total: f64, a: &str, b: &str) -> (f64, f64) {
    let mut rng = Rng::seeded(a, b);
    let mut values = Vec::with_capacity(RESAMPLES);
    let mut draw_a = Vec::new();
    let mut draw_b = Vec::new();
    for _ in 0..RESAMPLES {
        let mut log_sum = 0.0;
        for (row_a, row_b, weight) in pairs {
            let (sa, sb) = (&row_a.samples_ns.0, &row_b.samples_ns.0);
            let paired = row_a.group == row_b.group && sa.len() == sb.len();
            draw_a.clear();
            draw_b.clear();
            for _ in 0..sa.len().max(sb.len()) {
                let i = rng.below(sa.len());
                draw_a.push(sa[i]);
                draw_b.push(sb[if paired { i } else { rng.below(sb.len()) }]);
            }
            draw_a.truncate(sa.len());
            draw_b.truncate(sb.len());
            log_sum += weight * (quantile(&draw_a, 0.5) / quantile(&draw_b, 0.5)).ln();
        }
        values.push((log_sum / total).exp());
    }
    (quantile(&values, 0.025), quantile(&values, 0.975))
}

/// SplitMix64, seeded from the two queue ids so that a report is reproducible.
struct Rng(u64);

impl Rng {
    fn seeded(a: &str, b: &str) -> Rng {
        let seed = a.bytes().chain([0]).chain(b.bytes()).fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
            (h ^ u64::from(c)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        Rng(seed)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((u128::from(z ^ (z >> 31)) * n as u128) >> 64) as usize
    }
}
