//! Rankings over a set of workloads, and the tie group that cannot be told from the best.
//!
//! # The rule
//!
//! A queue's *score* over a set of workloads is the geometric mean of its time divided by
//! the fastest eligible time on each workload (the smallest censored bound where every
//! eligible queue was cut off). Contenders are the queues with evidence on every workload
//! of the set where anyone eligible has evidence, and no failure: evidence is a
//! measurement, or a **cut-off's censored bound** (the stopped check pass had run `bound`
//! times the baseline's whole pass, so the queue takes at least `bound ×` the baseline's
//! time there). A contender with a censored workload has a score that is a lower bound
//! ("at least"): it is ranked after the fully measured contenders, by that bound, and it
//! can neither win nor tie, since how much slower it is was not measured. The best fully
//! measured score wins. The **tie group** holds the winner and every fully measured
//! contender that the measurement cannot put more than [`TIE_MARGIN`] behind it: the lower
//! end of the 95% bootstrap interval of its time ratio to the winner is at most
//! `TIE_MARGIN`. A cut-off without a bound (schema 2 files) is not evidence: such a queue
//! does not contend where it has one.
//!
//! The interval comes from resampling rounds: on each workload, rounds are drawn with
//! replacement (the same round indices for both queues when they were timed in the same
//! rounds, so a disturbance common to a round cancels), each queue's median is taken, the
//! ratio varied by what varies between runs ([`execution_floor`], which one run cannot
//! see), and the ratios' geometric mean over the workloads is one bootstrap value; 400 of
//! them give the 2.5th and 97.5th percentiles. Rows from before per-sample times were kept (schema 1)
//! use the widest ratio of values inside their quartiles instead ([`Spread::over`]), each
//! end's geometric mean over the workloads.

use std::collections::BTreeMap;

use crate::analysis::{Timing, Workload};
use crate::format::{plural, ratio, ratio_interval};
use crate::results::{quantile, Kind, Row, Spread, Status};
use crate::rng::SplitMix64;

/// How far behind the best a queue may be and still tie with it, when the measurement
/// cannot tell: 2%. Two quiet default runs of one commit on one machine
/// (METHODOLOGY.md) put the same queue's time ratio to the
/// winner a median 1.2% apart on a workload, 2.6% at the third quartile (1,148 pairs of
/// a queue and a workload), so a smaller lead than 2% is one another run would often not
/// repeat.
pub const TIE_MARGIN: f64 = 1.02;

/// What varies between executions (runs) beyond what a run's own slices show, for a queue
/// inside a search: the standard deviation, on a log scale, of a queue's time ratio to
/// another on one workload, added to each workload's ratio in every bootstrap resample
/// (see the [module](self)), as the executions level of Kalibera and Jones' design. The
/// rule: the 95% intervals must cover the leaders' moves to the next run 95% of the time
/// (`pqlab diff`'s "covered"). Measured (METHODOLOGY.md): on four pairs of runs (one
/// quiet pair on an Intel Xeon, three on an AMD EPYC) 3% covered 96, 91, 90 and 86% of
/// the searches' moves, 4.5% 98, 95, 95 and 91%; on two pairs held out (a quiet pair, and
/// a quiet run against a loaded one), 86 and 86% against 94 and 93%; the median band's tie group stayed at 4 queues or fewer.
pub const EXECUTION_SPREAD: f64 = 0.045;

/// [`EXECUTION_SPREAD`] for the queue alone (trace replays, held sizes): its time is all
/// the queue's, so what moves a queue from one execution to the next is not diluted by a
/// search around it. Measured on the same pairs: at 3% the intervals covered 95, 79, 87 and
/// 81% of the queue-alone moves, at 10% 98, 95, 96 and 95%; held out, 51 and 66% against
/// 94 and 94%.
pub const ALONE_EXECUTION_SPREAD: f64 = 0.10;

/// The least a workload of `kind` takes as varying between executions: a run that saw more
/// noise takes its own ([`Workload::execution_spread`]).
pub fn execution_floor(kind: Kind) -> f64 {
    match kind {
        Kind::Replay | Kind::Synthetic => ALONE_EXECUTION_SPREAD,
        Kind::Astar | Kind::Peer | Kind::Loop | Kind::Oracle | Kind::Sentinel => EXECUTION_SPREAD,
    }
}

/// Bootstrap resamples per interval. Set without a measurement; measured on a default
/// run (`pqlab report --run`, release, the seed varied by a salt
/// not committed): three other seeds moved 4 to 9 of the 284 members of its 66 tie groups
/// at 400 resamples, one moved 2 at 4,000, no verdict changed, and a report took 3.0 s
/// against 20.6 s.
const RESAMPLES: usize = 400;

/// Where a queue stands over a set of workloads.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing<'a> {
    /// The queue id.
    pub queue: &'a str,
    /// The geometric mean, over the workloads where it was measured, of its time divided
    /// by the fastest eligible time there (1 = fastest everywhere). NaN if never measured.
    pub score: f64,
    /// Its time ÷ the winner's with the 95% interval ([`Versus::ratio`]); `None` for the
    /// winner and non-contenders.
    pub against_winner: Option<Spread>,
    /// Whether it is in the winner's tie group (the winner is).
    pub tied: bool,
    /// Workloads where it was measured.
    pub ok: usize,
    /// Workloads where it was cut off (too slow to time).
    pub cut_off: usize,
    /// Of those, the workloads whose cut-off bound entered its score as censored evidence:
    /// when above 0, `score` and `against_winner` are lower bounds.
    pub censored: usize,
    /// Workloads where it failed (a wrong answer or a rejected key).
    pub failed: usize,
    /// Whether it competes: measured or censored on every workload of the set where anyone
    /// it competes with has evidence, failed nowhere.
    pub contends: bool,
}

impl Standing<'_> {
    /// Whether its score is a lower bound (it was cut off on some workload).
    pub fn censored(&self) -> bool {
        self.censored > 0
    }
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
    let mut evidence_workloads = 0;
    for &(workload, weight) in workloads {
        let Some(fastest) = fastest_evidence(workload, &eligible) else { continue };
        evidence_workloads += 1;
        for (&queue, row) in workload.rows.iter().filter(|(_, row)| eligible(row)) {
            let (log_sum, weights, standing) = logs.entry(queue).or_insert_with(|| {
                let empty = Standing {
                    queue,
                    score: f64::NAN,
                    against_winner: None,
                    tied: false,
                    ok: 0,
                    cut_off: 0,
                    censored: 0,
                    failed: 0,
                    contends: false,
                };
                (0.0, 0.0, empty)
            });
            match row.status {
                Status::Ok => standing.ok += 1,
                Status::CutOff => standing.cut_off += 1,
                Status::Failed => standing.failed += 1,
                Status::NotApplicable => {}
            }
            if let Some(timing) = workload.timing(queue) {
                standing.censored += usize::from(timing.censored);
                *log_sum += weight * (timing.median() / fastest).ln();
                *weights += weight;
            }
        }
    }
    let mut list: Vec<Standing<'a>> = logs
        .into_values()
        .map(|(log_sum, weights, mut s)| {
            s.score = (log_sum / weights).exp();
            s.contends =
                s.ok + s.censored == evidence_workloads && s.cut_off == s.censored && s.failed == 0;
            s
        })
        .collect();
    list.sort_by(|a, b| {
        (!a.contends, a.censored(), a.ok == 0)
            .cmp(&(!b.contends, b.censored(), b.ok == 0))
            .then(a.score.total_cmp(&b.score))
            .then(a.queue.cmp(b.queue))
    });
    if let Some(winner) = list.first().filter(|s| s.contends && !s.censored()).map(|s| s.queue) {
        for standing in list.iter_mut() {
            if standing.queue == winner {
                standing.tied = true;
            } else if standing.contends {
                let v = versus_weighted(workloads, standing.queue, winner)
                    .expect("contenders share workloads");
                standing.against_winner = Some(v.ratio);
                standing.tied = !standing.censored() && v.ratio.low <= TIE_MARGIN;
            }
        }
    }
    list
}

/// The fastest eligible time on `workload`: the fastest measured one, or when every
/// eligible queue there was cut off, the smallest censored bound (so that a family cut off
/// on a whole workload still has its evidence, "at least", counted there). `None` when no
/// eligible queue has evidence.
fn fastest_evidence(workload: &Workload<'_>, eligible: impl Fn(&Row) -> bool) -> Option<f64> {
    if let Some(row) = workload.fastest(&eligible) {
        return Some(row.median_ns);
    }
    workload
        .rows
        .iter()
        .filter(|(_, row)| eligible(row))
        .filter_map(|(queue, _)| workload.timing(queue).map(|t| t.median()))
        .min_by(f64::total_cmp)
}

/// The winner and its tie group, in rank order.
pub fn tie_group<'s, 'a>(standings: &'s [Standing<'a>]) -> impl Iterator<Item = &'s Standing<'a>> {
    standings.iter().filter(|s| s.contends && s.tied)
}

/// Two queues head to head over the workloads where both have evidence (a measurement,
/// or one side's censored cut-off bound).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    /// The geometric mean of the first queue's time divided by the second's (below 1: the
    /// first is faster), between the ends of its 95% interval. The middle is a lower bound
    /// when the first was cut off somewhere, an upper bound when the second was. The low
    /// end is 0 when the second queue's time is censored somewhere (nothing bounds the
    /// ratio from below then); the high end is infinite when the first queue's is.
    pub ratio: Spread,
    /// Workloads where both have evidence.
    pub n: usize,
    /// Of those, the workloads where one side's time is a cut-off's censored bound.
    pub censored: usize,
}

impl Versus {
    /// Whether the interval says the first queue is faster beyond the tie margin.
    pub fn faster(&self) -> bool {
        self.ratio.high * TIE_MARGIN < 1.0
    }

    /// Whether the interval says the first queue is slower beyond the tie margin.
    pub fn slower(&self) -> bool {
        self.ratio.low > TIE_MARGIN
    }

    /// Where the first queue stands beyond the tie margin: `Less` when faster, `Greater`
    /// when slower, `Equal` when the interval cannot tell them apart.
    pub fn beyond_margin(&self) -> std::cmp::Ordering {
        if self.faster() {
            std::cmp::Ordering::Less
        } else if self.slower() {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }

    /// Whether the ratio itself (not its interval) puts the first queue on `side` of the
    /// second beyond the tie margin: the measurement leans that way, shown or not.
    pub fn leans(&self, side: std::cmp::Ordering) -> bool {
        match side {
            std::cmp::Ordering::Greater => self.ratio.mid > TIE_MARGIN,
            std::cmp::Ordering::Less => self.ratio.mid * TIE_MARGIN < 1.0,
            std::cmp::Ordering::Equal => self.ratio.mid.max(1.0 / self.ratio.mid) <= TIE_MARGIN,
        }
    }

    /// The ratio and its 95% interval as a table prints them, a censored figure never bare:
    /// "1.07× (1.05–1.09×)"; "at least 1.52× (95% lower bound 1.48×; cut off on 2
    /// workloads)"; "at most 0.596× (95% upper bound 0.614×; cut off on 2 workloads)"; with
    /// cut-offs on both sides, "1.2×, bounded neither way (cut off on 3 workloads)".
    pub fn reads(&self) -> String {
        let (r, cut) = (self.ratio, plural(self.censored, "workload"));
        match (r.low == 0.0 && self.censored > 0, r.high.is_infinite()) {
            (false, false) => ratio_interval(r),
            (false, true) => format!(
                "at least {} (95% lower bound {}; cut off on {cut})",
                ratio(r.mid),
                ratio(r.low)
            ),
            (true, false) => format!(
                "at most {} (95% upper bound {}; cut off on {cut})",
                ratio(r.mid),
                ratio(r.high)
            ),
            (true, true) => {
                format!("{}, bounded neither way (cut off on {cut})", ratio(r.mid))
            }
        }
    }

    /// How the ratio reads: "at least " when it is a lower bound, "at most " when an upper
    /// bound, nothing when both sides were measured everywhere.
    pub fn qualifier(&self) -> &'static str {
        match (self.ratio.high.is_infinite(), self.ratio.low == 0.0 && self.censored > 0) {
            (true, false) => "at least ",
            (false, true) => "at most ",
            _ => "",
        }
    }
}

/// `a` against `b` over `workloads`: their time ratio with its interval; `None` if no
/// workload has evidence of both.
pub fn versus(workloads: &[&Workload<'_>], a: &str, b: &str) -> Option<Versus> {
    let weighted: Vec<(&Workload<'_>, f64)> = workloads.iter().map(|w| (*w, 1.0)).collect();
    versus_weighted(&weighted, a, b)
}

/// How many cells `a`'s searches expanded against `b`'s, over the workloads where both were
/// measured: the geometric mean of the ratios and the largest. Exact queues expand different
/// cells only through their tie order, so a ratio away from 1 beside a time ratio says how
/// much of a win or loss came from the order of ties rather than the queue's speed.
pub fn expansions_versus(workloads: &[&Workload<'_>], a: &str, b: &str) -> Option<(f64, f64)> {
    let ratios: Vec<f64> = workloads
        .iter()
        .filter_map(|w| Some(w.ok(a)?.expansions / w.ok(b)?.expansions))
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect();
    let largest =
        ratios.iter().copied().fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))))?;
    Some((crate::analysis::geomean(ratios.iter().copied()), largest))
}

/// [`versus`] with a weight per workload. A workload where both were cut off says nothing
/// of their ratio and is left out.
pub fn versus_weighted(workloads: &[(&Workload<'_>, f64)], a: &str, b: &str) -> Option<Versus> {
    let pairs: Vec<(Timing<'_>, Timing<'_>, f64)> = workloads
        .iter()
        .filter_map(|(w, weight)| Some((w.timing(a)?, w.timing(b)?, *weight)))
        .collect();
    versus_pairs(pairs, a, b, true)
}

/// Two searches of the same problems in two workloads (the same queue under two heuristics,
/// say): each pair is `a`'s timing in one workload and `b`'s in the other, named `a` and
/// `b` for the resampling's seed. They were not timed in the same rounds, so rounds are
/// drawn independently for each side. A pair where both were cut off is left out.
pub fn versus_across(pairs: &[(Timing<'_>, Timing<'_>)], a: &str, b: &str) -> Option<Versus> {
    versus_pairs(pairs.iter().map(|&(ta, tb)| (ta, tb, 1.0)).collect(), a, b, false)
}

/// Pairs of timings each taken in the same rounds of one workload (the two sides may be
/// different queues from one workload to the next: each size range's best, say), pooled.
/// A pair where both were cut off is left out.
pub fn versus_paired(pairs: &[(Timing<'_>, Timing<'_>)], a: &str, b: &str) -> Option<Versus> {
    versus_pairs(pairs.iter().map(|&(ta, tb)| (ta, tb, 1.0)).collect(), a, b, true)
}

/// Weighted pairs of timings, each from one workload or two: a pair's rounds are drawn
/// together when its sides were timed in the same group, independently otherwise. A pair
/// where both were cut off is left out.
pub fn versus_timings(pairs: &[(Timing<'_>, Timing<'_>, f64)], a: &str, b: &str) -> Option<Versus> {
    versus_pairs(pairs.to_vec(), a, b, true)
}

/// The ratio of `a`'s time to `b`'s over weighted pairs of timings, with its interval;
/// `same_rounds` when each pair's sides were timed in the same rounds of one workload.
fn versus_pairs(
    pairs: Vec<(Timing<'_>, Timing<'_>, f64)>,
    a: &str,
    b: &str,
    same_rounds: bool,
) -> Option<Versus> {
    let pairs: Vec<(Timing<'_>, Timing<'_>, f64)> =
        pairs.into_iter().filter(|(ta, tb, _)| !(ta.censored && tb.censored)).collect();
    if pairs.is_empty() {
        return None;
    }
    let total: f64 = pairs.iter().map(|p| p.2).sum();
    let mean = |f: &dyn Fn(&Timing<'_>, &Timing<'_>) -> f64| {
        (pairs.iter().map(|(a, b, w)| w * f(a, b).ln()).sum::<f64>() / total).exp()
    };
    let mid = mean(&|a, b| a.median() / b.median());
    let (low, high) = if pairs
        .iter()
        .any(|(a, b, _)| a.row.samples_ns.0.is_empty() || b.row.samples_ns.0.is_empty())
    {
        // Schema 1 rows: each workload's quartiles over the other's (`Spread::over`).
        (
            mean(&|a, b| a.spread().over(&b.spread()).low),
            mean(&|a, b| a.spread().over(&b.spread()).high),
        )
    } else {
        interval(&pairs, total, a, b, same_rounds)
    };
    let (low, high) = (low.min(mid), high.max(mid));
    let a_censored = pairs.iter().any(|(ta, _, _)| ta.censored);
    let b_censored = pairs.iter().any(|(_, tb, _)| tb.censored);
    Some(Versus {
        ratio: Spread {
            low: if b_censored { 0.0 } else { low },
            mid,
            high: if a_censored { f64::INFINITY } else { high },
        },
        n: pairs.len(),
        censored: pairs.iter().filter(|(ta, tb, _)| ta.censored || tb.censored).count(),
    })
}

/// The 95% interval of the weighted geometric mean of `a ÷ b` medians over `pairs` (a
/// censored side resamples the baseline's rounds, scaled by its bound); rounds are drawn
/// with the same indices for both sides only when `same_rounds` and the pair was timed in
/// the same group, and each pair's ratio varies by its workloads' execution spread
/// ([`execution_floor`] at least) as another run would vary it, and a pair across two
/// workloads also by their level spreads ([`Workload::level_spread`]).
fn interval(
    pairs: &[(Timing<'_>, Timing<'_>, f64)],
    total: f64,
    a: &str,
    b: &str,
    same_rounds: bool,
) -> (f64, f64) {
    // Seeded from the two queue ids, so that a report is reproducible.
    let mut rng = SplitMix64::from_name(a.bytes().chain([0]).chain(b.bytes()));
    let mut values = Vec::with_capacity(RESAMPLES);
    let mut draw_a = Vec::new();
    let mut draw_b = Vec::new();
    for _ in 0..RESAMPLES {
        let mut log_sum = 0.0;
        for (ta, tb, weight) in pairs {
            let (sa, sb) = (&ta.row.samples_ns.0, &tb.row.samples_ns.0);
            let paired = same_rounds && ta.row.group == tb.row.group && sa.len() == sb.len();
            draw_a.clear();
            draw_b.clear();
            for _ in 0..sa.len().max(sb.len()) {
                let i = rng.below(sa.len());
                draw_a.push(sa[i]);
                draw_b.push(sb[if paired { i } else { rng.below(sb.len()) }]);
            }
            draw_a.truncate(sa.len());
            draw_b.truncate(sb.len());
            let (ma, mb) = (quantile(&draw_a, 0.5) * ta.factor, quantile(&draw_b, 0.5) * tb.factor);
            let spread = ta.execution_spread.max(tb.execution_spread);
            // Two workloads' levels move with the machine apart: each side's too.
            let level = if ta.row.workload == tb.row.workload {
                0.0
            } else {
                ta.level_spread.hypot(tb.level_spread)
            };
            log_sum += weight * ((ma / mb).ln() + spread * normal(&mut rng));
            if level > 0.0 {
                log_sum += weight * level * normal(&mut rng);
            }
        }
        values.push((log_sum / total).exp());
    }
    (quantile(&values, 0.025), quantile(&values, 0.975))
}

/// A standard normal draw from `rng` (Box–Muller).
fn normal(rng: &mut SplitMix64) -> f64 {
    let uniform =
        |rng: &mut SplitMix64| ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Run;
    use crate::lab::rows::{untimed, WorkloadFacts};
    use crate::results::{Kind, Provenance, Unit};

    /// One A* workload: `(queue, Some(median) | None for a cut-off with `bound`)`.
    fn workload(name: &str, queues: &[(&str, Option<f64>)], bound: Option<f64>) -> Vec<Row> {
        let shape = WorkloadFacts {
            kind: Kind::Astar,
            name: name.into(),
            map: name.into(),
            map_kind: "rooms".into(),
            real: false,
            series: None,
            unit: Unit::Search,
        };
        let provenance = Provenance::fixed("r", "c");
        queues
            .iter()
            .map(|&(queue, median)| {
                let entry = pqlab_queues::registry::find(queue);
                let row = shape.row(&provenance, queue, entry);
                match median {
                    Some(m) => {
                        let mut row = row;
                        let samples: Vec<f64> =
                            (0..9).map(|i| m * (1.0 + 0.001 * i as f64)).collect();
                        row.set_samples(&samples, &samples);
                        row.max_open = 100.0;
                        row
                    }
                    None => {
                        let mut row = untimed(row, Status::CutOff, "over the limit");
                        row.bound = bound;
                        row
                    }
                }
            })
            .collect()
    }

    const STD: &str = pqlab_queues::registry::BASELINE;

    #[test]
    fn a_cut_off_with_a_bound_is_censored_evidence_never_dropped() {
        let mut rows = workload(
            "a",
            &[(STD, Some(100.0)), ("dary4-dk", Some(80.0)), ("sorted-array-dk", Some(150.0))],
            None,
        );
        rows.extend(workload(
            "b",
            &[(STD, Some(100.0)), ("dary4-dk", Some(80.0)), ("sorted-array-dk", None)],
            Some(5.0),
        ));
        let run = Run::new(&rows);
        let workloads: Vec<&Workload<'_>> = run.workloads.iter().collect();
        let standings = rank(&workloads, |_| true);
        let array = standings.iter().find(|s| s.queue == "sorted-array-dk").unwrap();
        assert!(array.contends, "a cut-off with a bound is evidence: {array:?}");
        assert_eq!((array.cut_off, array.censored), (1, 1));
        assert!(!array.tied);
        // Its score is a lower bound: sqrt(150/80 × 500/80).
        assert!((array.score - (150.0f64 / 80.0 * 500.0 / 80.0).sqrt()).abs() < 1e-9);
        assert_eq!(standings[0].queue, "dary4-dk");
        assert_eq!(standings.last().unwrap().queue, "sorted-array-dk");

        let v = versus(&workloads, "sorted-array-dk", STD).unwrap();
        assert_eq!((v.n, v.censored), (2, 1));
        assert!(v.ratio.high.is_infinite() && v.slower() && !v.faster(), "{v:?}");
        assert_eq!(v.qualifier(), "at least ");
        let back = versus(&workloads, STD, "sorted-array-dk").unwrap();
        assert!(back.ratio.low == 0.0 && back.faster(), "{back:?}");
        assert_eq!(back.qualifier(), "at most ");
    }

    #[test]
    fn a_cut_off_without_a_bound_does_not_contend() {
        let rows = workload("a", &[(STD, Some(100.0)), ("sorted-array-dk", None)], None);
        let run = Run::new(&rows);
        let workloads: Vec<&Workload<'_>> = run.workloads.iter().collect();
        let standings = rank(&workloads, |_| true);
        let array = standings.iter().find(|s| s.queue == "sorted-array-dk").unwrap();
        assert!(!array.contends && array.censored == 0);
        assert!(versus(&workloads, "sorted-array-dk", STD).is_none());
    }
}
