//! Two runs compared (`pqlab diff`): per workload, how well their queue orders agree
//! (Kendall's τ) and whether each run's winner is in the other's tie group; how far the
//! leaders' times against the baseline moved ([`Change`]); per band, the same for the band
//! winners; and which verdicts agree.
//!
//! τ is computed over the queue pairs measured in both runs whose times differ by more than
//! [`APART`] in at least one of them: pairs closer than that in both runs are ties that no
//! measurement is expected to order. It is `(concordant - discordant) / pairs`.

use crate::analysis::bands::{series, Band, BandRanking, Eligible};

use crate::analysis::rank::{versus, Standing, Versus};
use crate::analysis::verdicts::{self, Outcome};
use crate::analysis::{Findings, Run, Workload};
use crate::search::Series;
use std::collections::BTreeMap;

use crate::results::{quantile, Kind, Platform, Status};

/// Time ratios closer to 1 than this, in both runs, are not counted by τ. Set without a
/// measurement, and τ hardly depends on it: its median is 0.985, 0.996 and 1.000
/// at 1.02, 1.05 and 1.10 over the workloads of two quiet runs, and 0.959, 0.988 and
/// 1.000 over those of a busy pair (METHODOLOGY.md), recomputed from the rows' `median_ns` as [`tau`] does.
pub const APART: f64 = 1.05;

/// The fewest pairs apart τ is given over: with fewer, one swapped pair moves it by more
/// than 0.4 (2 ÷ pairs). The rule: a workload of four contenders (a store or tie workload)
/// with one pair apart had τ −1.00 in a quiet pair of runs (METHODOLOGY.md), and stood
/// as the runs' least τ.
pub const TAU_PAIRS: usize = 5;

/// The leaders of a workload, for [`Change`]: the queues within 1.15 times its fastest in
/// either run, the ones that decide its answers (as `shared/tools/between-runs.py` takes
/// them, so the figures are the ones that script prints).
pub const LEAD: f64 = 1.15;

/// The share of band winners that must be in the other run's tie group both ways for
/// `pqlab diff --check` to pass: 90%, what answers that hold on a busy machine must
/// show between any two runs of one commit on one machine.
pub const CHECK: f64 = 0.9;

/// How far the leaders' times against the baseline moved between the two runs: over every
/// workload both measured with the baseline and at least five common queues, and every
/// queue but the baseline within [`LEAD`] of the workload's fastest in either run, the
/// factor `exp |ln(a ÷ a_base) − ln(b ÷ b_base)|`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The median factor (1.023: 2.3%).
    pub median: f64,
    /// Its 90th percentile.
    pub p90: f64,
    /// How many (workload, queue) pairs it is over.
    pub pairs: usize,
    /// The workloads whose fastest queue differs, of those compared.
    pub fastest_differs: (usize, usize),
}

/// The leaders of one part of the runs (a search series, the trace replays, the held
/// sizes) and how far their times against the baseline moved: over every workload of the
/// part with the baseline measured in both runs, every queue of the workload's own rows
/// within [`LEAD`] of its fastest in either run. A move is *covered* when it lies within
/// 1.96 combined standard deviations of the two runs' 95% intervals of the queue's time
/// against the baseline (each interval's width on a log scale over 3.92): what the
/// intervals must do 95% of the time for a tie group to hold in the next run.
#[derive(Clone, Debug, PartialEq)]
pub struct PartChange {
    /// The series' description, or the kind's name for the queue alone.
    pub part: String,
    /// Whether the part times the queue alone (trace replays, held sizes), not a search.
    pub alone: bool,
    /// The median factor `exp |ln(a ÷ a_base) − ln(b ÷ b_base)|`.
    pub median: f64,
    /// Its 90th percentile.
    pub p90: f64,
    /// The (workload, queue) pairs it is over.
    pub pairs: usize,
    /// Of those, the moves the intervals covered.
    pub covered: usize,
}

impl Diff {
    /// Whether the runs were made on different CPU kinds: `None` when a run did not record
    /// enough to tell ([`Platform::same_cpu`]).
    pub fn other_cpus(&self) -> Option<bool> {
        self.platforms.0.same_cpu(&self.platforms.1).map(|same| !same)
    }

    /// The leaders' moves the intervals covered, out of all, over the parts `alone` admits.
    pub fn covered(&self, alone: impl Fn(bool) -> bool) -> (usize, usize) {
        self.parts
            .iter()
            .filter(|p| alone(p.alone))
            .fold((0, 0), |(c, n), p| (c + p.covered, n + p.pairs))
    }
}

/// One workload in both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadDiff {
    /// What was measured.
    pub kind: Kind,
    /// The workload's name.
    pub name: String,
    /// Kendall's τ over the pairs apart; `None` under [`TAU_PAIRS`] of them.
    pub tau: Option<f64>,
    /// The pairs it was computed over.
    pub pairs: usize,
    /// Each run's winner.
    pub winners: (String, String),
    /// Whether run A's winner is in run B's tie group, and B's in A's.
    pub crossed: (bool, bool),
}

/// One band (of one series) in both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct BandDiff {
    /// The series.
    pub series: String,
    /// The band's label.
    pub band: String,
    /// Each run's winner.
    pub winners: (String, String),
    /// Whether run A's winner is in run B's tie group, and B's in A's.
    pub crossed: (bool, bool),
    /// How many queues each run's tie group holds (the winner included).
    pub tie_groups: (usize, usize),
}

/// Two runs compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Diff {
    /// The runs' ids.
    pub runs: (String, String),
    /// The runs' machines.
    pub machines: (String, String),
    /// The runs' machines as recorded ([`Platform::kind`] tells CPUs apart).
    pub platforms: (Platform, Platform),
    /// Every workload measured in both.
    pub workloads: Vec<WorkloadDiff>,
    /// Every band ranked in both.
    pub bands: Vec<BandDiff>,
    /// Every claim: its outcome in each run.
    pub verdicts: Vec<(&'static str, Outcome, Outcome)>,
    /// How far the leaders moved; `None` when no workload could be compared.
    pub leaders: Option<Change>,
    /// The same by part of the runs, the part whose leaders moved most first.
    pub parts: Vec<PartChange>,
    /// How much of it follows the machine's speed; `None` when it cannot be told.
    pub regime: Option<Regime>,
    /// What moved every ratio of a workload together; `None` when no workload could be
    /// compared.
    pub shift: Option<Shift>,
}

impl Diff {
    /// The smallest τ over the workloads.
    pub fn min_tau(&self) -> Option<f64> {
        self.workloads.iter().filter_map(|w| w.tau).min_by(f64::total_cmp)
    }

    /// The bands whose winner is in the other run's tie group, both ways, out of all.
    pub fn bands_agreeing(&self) -> (usize, usize) {
        (self.bands.iter().filter(|b| b.crossed.0 && b.crossed.1).count(), self.bands.len())
    }

    /// The median band's tie group in each run, in queues (the lower middle of an even
    /// count); `None` when no band was compared. A tie group that covers what varies
    /// between runs must still say something: the lab aims at four queues at most.
    pub fn median_tie_groups(&self) -> Option<(usize, usize)> {
        let middle = |side: fn(&BandDiff) -> usize| {
            let mut sizes: Vec<usize> = self.bands.iter().map(side).collect();
            sizes.sort_unstable();
            sizes.get(sizes.len().saturating_sub(1) / 2).copied()
        };
        Some((middle(|b| b.tie_groups.0)?, middle(|b| b.tie_groups.1)?))
    }

    /// Whether [`CHECK`]'s share of band winners repeats (both ways), and at least one band
    /// was compared.
    pub fn check(&self) -> bool {
        let (agree, bands) = self.bands_agreeing();
        bands > 0 && agree as f64 >= CHECK * bands as f64
    }

    /// The verdicts with the same outcome in both runs, out of those both runs told: a
    /// claim one run could not tell is neither a difference nor an agreement.
    pub fn verdicts_agreeing(&self) -> (usize, usize) {
        let told: Vec<_> = self.verdicts.iter().filter(|(_, a, b)| told_by_both(*a, *b)).collect();
        (told.iter().filter(|(_, a, b)| a == b).count(), told.len())
    }

    /// The verdicts measured in both runs that one run left [`Outcome::Undecided`] and the
    /// other did not: counted apart, since an open question is not contradicted.
    pub fn verdicts_open(&self) -> usize {
        let open = |o: Outcome| o == Outcome::Undecided;
        let measured = |o: Outcome| o != Outcome::Unmeasured;
        self.verdicts
            .iter()
            .filter(|(_, a, b)| measured(*a) && measured(*b) && open(*a) != open(*b))
            .count()
    }
}

/// Whether both runs told a claim: neither outcome is [`Outcome::Unmeasured`] nor
/// [`Outcome::Undecided`].
pub fn told_by_both(a: Outcome, b: Outcome) -> bool {
    let told = |o: Outcome| o != Outcome::Unmeasured && o != Outcome::Undecided;
    told(a) && told(b)
}

/// What to keep in mind before reading two runs' differences: they ran on other machines,
/// in other schemas or in other profiles (the quick profile's run ids end in `-quick`).
pub fn caveat(a: &Run<'_>, b: &Run<'_>) -> Option<String> {
    let schema = |run: &Run<'_>| run.rows.first().map_or(0, |r| r.schema);
    let profile =
        |run: &Run<'_>| if run.run_id().ends_with("-quick") { "quick" } else { "default" };
    let mut differ = Vec::new();
    let (pa, pb) = (a.platform(), b.platform());
    match pa.same_cpu(&pb) {
        Some(false) => differ.push(format!("CPUs ({} and {})", pa.kind(), pb.kind())),
        None if a.machine() != b.machine() => {
            differ.push(format!("machines ({} and {})", a.machine(), b.machine()))
        }
        _ => {}
    }
    if schema(a) != schema(b) {
        differ.push(format!("schemas ({} and {})", schema(a), schema(b)));
    }
    if profile(a) != profile(b) {
        differ.push(format!("profiles ({} and {})", profile(a), profile(b)));
    }
    (!differ.is_empty()).then(|| {
        format!(
            "Caveat: the runs differ in {}: a difference below may be that, not the queues.",
            differ.join(", ")
        )
    })
}

/// Kendall's τ between two runs' times of the same queues, over the pairs apart; `None`
/// under [`TAU_PAIRS`] of them. Returns the pairs apart too.
pub fn tau(times: &[(f64, f64)]) -> (Option<f64>, usize) {
    let (mut concordant, mut discordant) = (0usize, 0usize);
    for (i, &(a1, b1)) in times.iter().enumerate() {
        for &(a2, b2) in &times[i + 1..] {
            let (ra, rb) = (a1 / a2, b1 / b2);
            let apart = |r: f64| r.ln().abs() > APART.ln();
            if !apart(ra) && !apart(rb) {
                continue;
            }
            if (ra > 1.0) == (rb > 1.0) {
                concordant += 1;
            } else {
                discordant += 1;
            }
        }
    }
    let pairs = concordant + discordant;
    let tau = (pairs >= TAU_PAIRS).then(|| (concordant as f64 - discordant as f64) / pairs as f64);
    (tau, pairs)
}

/// Compares run `a` with run `b`, from their findings.
pub fn diff(fa: &Findings<'_, '_>, fb: &Findings<'_, '_>) -> Diff {
    let (a, b) = (fa.run, fb.run);
    let mut workloads = Vec::new();
    for wa in a
        .workloads
        .iter()
        .filter(|w| matches!(w.kind, Kind::Astar | Kind::Replay | Kind::Synthetic))
    {
        let Some(wb) = b.workloads.iter().find(|w| w.kind == wa.kind && w.name == wa.name) else {
            continue;
        };
        let times: Vec<(f64, f64)> = wa
            .rows
            .keys()
            .filter_map(|q| Some((wa.ok(q)?.median_ns, wb.ok(q)?.median_ns)))
            .collect();
        let (tau, pairs) = tau(&times);
        let (ra, rb) = (fa.rank(&[wa], Eligible::Exact), fb.rank(&[wb], Eligible::Exact));
        let winner =
            |r: &[Standing<'_>]| r.first().filter(|s| s.contends).map(|s| s.queue.to_owned());
        let (Some(win_a), Some(win_b)) = (winner(&ra), winner(&rb)) else { continue };
        let tied = |r: &[Standing<'_>], q: &str| r.iter().any(|s| s.queue == q && s.tied);
        workloads.push(WorkloadDiff {
            kind: wa.kind,
            name: wa.name.to_owned(),
            tau,
            pairs,
            crossed: (tied(&rb, &win_a), tied(&ra, &win_b)),
            winners: (win_a, win_b),
        });
    }
    let mut band_diffs = Vec::new();
    for selection in series(a) {
        let eligible = Eligible::for_series(&selection);
        let (ba, bb) = (fa.bands(&selection, eligible), fb.bands(&selection, eligible));
        for band in Band::all() {
            // A band no search of the series reached falls back to the held sizes: the
            // same synthetic rows for every series, so compared once, with the octile one.
            let own = |r: &&BandRanking<'_, '_>| {
                r.evidence.kind == Kind::Astar || selection == Series::OCTILE
            };
            let find = |list: &[BandRanking<'_, '_>]| {
                list.iter().filter(own).find(|r| r.evidence.band == band).and_then(|r| {
                    let ties: Vec<String> =
                        r.tie_group().iter().map(|s| s.queue.to_owned()).collect();
                    Some((r.winner()?.queue.to_owned(), ties))
                })
            };
            let (Some((win_a, ties_a)), Some((win_b, ties_b))) = (find(&ba), find(&bb)) else {
                continue;
            };
            band_diffs.push(BandDiff {
                series: selection.describe(),
                band: band.label(),
                crossed: (ties_b.contains(&win_a), ties_a.contains(&win_b)),
                tie_groups: (ties_a.len(), ties_b.len()),
                winners: (win_a, win_b),
            });
        }
    }
    let moved = workload_leaders(a, b);
    // Matched by claim, not by position: two runs' lists need not hold the same claims.
    let theirs = verdicts::verdicts(fb);
    let verdicts = verdicts::verdicts(fa)
        .iter()
        .filter_map(|x| Some((x.claim, x.outcome, verdicts::on(&theirs, x.claim)?.outcome)))
        .collect();
    Diff {
        runs: (a.run_id(), b.run_id()),
        machines: (a.machine(), b.machine()),
        workloads,
        bands: band_diffs,
        verdicts,
        platforms: (a.platform(), b.platform()),
        leaders: leaders(a, b),
        parts: parts(&moved),
        regime: regime(&moved),
        shift: shift(&moved),
    }
}

/// One workload's leaders in both runs, for [`PartChange`] and [`Regime`].
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadLeaders {
    /// Its part ([`PartChange::part`]).
    pub part: String,
    /// Whether it times the queue alone.
    pub alone: bool,
    /// How far the baseline's own time moved, `ln(a_base ÷ b_base)`: the machine's speed
    /// when each run measured the workload, as far as the baseline shows it.
    pub level: f64,
    /// Each leader's move `ln(a ÷ a_base) − ln(b ÷ b_base)`, and whether the two runs'
    /// intervals covered it.
    pub moves: Vec<(f64, bool)>,
    /// The workload-wide shift: the median of that move over every queue of the workload
    /// measured in both runs, leaders or not.
    pub shift: f64,
}

/// The leaders of every workload both runs measured with the baseline (see
/// [`PartChange`]), in `a`'s order.
pub fn workload_leaders(a: &Run<'_>, b: &Run<'_>) -> Vec<WorkloadLeaders> {
    let base = pqlab_queues::registry::BASELINE;
    let mut found = Vec::new();
    for wa in &a.workloads {
        let Some(wb) = b.workloads.iter().find(|w| w.kind == wa.kind && w.name == wa.name) else {
            continue;
        };
        let (Some(base_a), Some(base_b)) = (wa.ok(base), wb.ok(base)) else { continue };
        let fastest = |w: &Workload<'_>| {
            w.rows.values().filter(|r| r.status == Status::Ok).map(|r| r.median_ns).reduce(f64::min)
        };
        let (Some(fa), Some(fb)) = (fastest(wa), fastest(wb)) else { continue };
        let mut moves = Vec::new();
        let mut every = Vec::new();
        for queue in wa.rows.keys().filter(|q| **q != base) {
            let (Some(ra), Some(rb)) = (wa.ok(queue), wb.ok(queue)) else { continue };
            every
                .push(((ra.median_ns / base_a.median_ns) / (rb.median_ns / base_b.median_ns)).ln());
            if ra.median_ns / fa > LEAD && rb.median_ns / fb > LEAD {
                continue;
            }
            let (Some(va), Some(vb)) = (versus(&[wa], queue, base), versus(&[wb], queue, base))
            else {
                continue;
            };
            let moved =
                ((ra.median_ns / base_a.median_ns) / (rb.median_ns / base_b.median_ns)).ln();
            let sigma = |v: &Versus| (v.ratio.high / v.ratio.low).ln() / 3.92;
            moves.push((moved, moved.abs() <= 1.96 * sigma(&va).hypot(sigma(&vb))));
        }
        if moves.is_empty() {
            continue;
        }
        found.push(WorkloadLeaders {
            part: match wa.kind {
                Kind::Astar => Series::of(wa).map_or_else(|| "A*".to_owned(), |s| s.describe()),
                Kind::Synthetic => "the queue alone at held sizes".to_owned(),
                kind => kind.name().to_owned(),
            },
            alone: matches!(wa.kind, Kind::Synthetic | Kind::Replay),
            level: (base_a.median_ns / base_b.median_ns).ln(),
            moves,
            shift: quantile(&every, 0.5),
        });
    }
    found
}

/// The leaders' [`PartChange`]s, the part whose moves add up to most first.
pub fn parts(leaders: &[WorkloadLeaders]) -> Vec<PartChange> {
    let mut moves: BTreeMap<(bool, &str), Vec<(f64, bool)>> = BTreeMap::new();
    for w in leaders {
        let part = moves.entry((w.alone, w.part.as_str())).or_default();
        part.extend(w.moves.iter().map(|&(moved, covered)| (moved.abs(), covered)));
    }
    let mut parts: Vec<(f64, PartChange)> = moves
        .into_iter()
        .map(|((alone, part), moved)| {
            let mut logs: Vec<f64> = moved.iter().map(|m| m.0).collect();
            logs.sort_by(f64::total_cmp);
            let change = PartChange {
                part: part.to_owned(),
                alone,
                median: at(&logs, 0.5).exp(),
                p90: at(&logs, 0.9).exp(),
                pairs: moved.len(),
                covered: moved.iter().filter(|m| m.1).count(),
            };
            (logs.iter().sum::<f64>(), change)
        })
        .collect();
    parts.sort_by(|x, y| y.0.total_cmp(&x.0));
    parts.into_iter().map(|(_, p)| p).collect()
}

/// What moved every ratio of a workload together between two runs: per workload, the
/// median over its queues of `ln(a ÷ a_base) − ln(b ÷ b_base)` ([`WorkloadLeaders::shift`]).
/// Between two runs on one CPU it is what a reference state slow for a whole workload
/// leaves; between two CPUs, mostly the CPU: one sign on most workloads says so. Removing
/// it from each leader's move leaves what ranks the queues differently.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shift {
    /// The workloads it is over.
    pub workloads: usize,
    /// The median factor `exp |shift|` over the workloads (1.038: 3.8%).
    pub median: f64,
    /// Its 90th percentile.
    pub p90: f64,
    /// The share of workloads whose shift has the more common sign (0.5 to 1).
    pub one_sign: f64,
    /// The leaders' moves with their workload's shift removed: the median and 90th
    /// percentile factor `exp |move − shift|`.
    pub leaders_without: (f64, f64),
}

/// The [`Shift`] of `leaders`; `None` when there is no workload.
pub fn shift(leaders: &[WorkloadLeaders]) -> Option<Shift> {
    if leaders.is_empty() {
        return None;
    }
    let sizes: Vec<f64> = leaders.iter().map(|w| w.shift.abs()).collect();
    let up = leaders.iter().filter(|w| w.shift > 0.0).count();
    let down = leaders.iter().filter(|w| w.shift < 0.0).count();
    let without: Vec<f64> =
        leaders.iter().flat_map(|w| w.moves.iter().map(move |m| (m.0 - w.shift).abs())).collect();
    Some(Shift {
        workloads: leaders.len(),
        median: quantile(&sizes, 0.5).exp(),
        p90: quantile(&sizes, 0.9).exp(),
        one_sign: up.max(down) as f64 / leaders.len() as f64,
        leaders_without: (quantile(&without, 0.5).exp(), quantile(&without, 0.9).exp()),
    })
}

/// How much of the leaders' change follows the machine's speed when each workload was
/// measured: over the workloads of both runs, the baseline's own time moved by
/// [`WorkloadLeaders::level`], and the workload's leaders by the median of their moves. A
/// pairing that cancelled the machine's speed entirely would leave no correlation; a
/// queue slowed more than the baseline in a slow period leaves a positive one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Regime {
    /// The workloads it is over.
    pub workloads: usize,
    /// The standard deviation of the baseline's moves (on a log scale).
    pub level_spread: f64,
    /// The correlation of the leaders' median move with the baseline's.
    pub correlation: f64,
    /// The leaders' median move per unit of the baseline's (least squares).
    pub slope: f64,
}

/// The [`Regime`] of `leaders`; `None` under three workloads or when the baseline never
/// moved.
pub fn regime(leaders: &[WorkloadLeaders]) -> Option<Regime> {
    let points: Vec<(f64, f64)> = leaders
        .iter()
        .map(|w| {
            let moves: Vec<f64> = w.moves.iter().map(|m| m.0).collect();
            (w.level, quantile(&moves, 0.5))
        })
        .collect();
    let n = points.len() as f64;
    if points.len() < 3 {
        return None;
    }
    let (mx, my) =
        (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n);
    let sxx = points.iter().map(|p| (p.0 - mx).powi(2)).sum::<f64>() / n;
    let syy = points.iter().map(|p| (p.1 - my).powi(2)).sum::<f64>() / n;
    let sxy = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / n;
    (sxx > 0.0 && syy > 0.0).then(|| Regime {
        workloads: points.len(),
        level_spread: sxx.sqrt(),
        correlation: sxy / (sxx * syy).sqrt(),
        slope: sxy / sxx,
    })
}

/// The leaders' [`Change`] between `a` and `b`, computed as `shared/tools/between-runs.py`
/// computes it, so that the two agree: every measured row by workload name and queue (a
/// later row of the same pair, in file order, replacing an earlier one), so the oracle,
/// peers and other loops count among a workload's times.
pub fn leaders(a: &Run<'_>, b: &Run<'_>) -> Option<Change> {
    let base = pqlab_queues::registry::BASELINE;
    let times = |run: &Run<'_>| {
        let mut map: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for row in run.rows.iter().filter(|r| r.status == Status::Ok) {
            map.entry(row.workload.clone()).or_default().insert(row.queue.clone(), row.median_ns);
        }
        map
    };
    let (ta, tb) = (times(a), times(b));
    let (mut changes, mut differs, mut compared) = (Vec::new(), 0, 0);
    for (workload, qa) in &ta {
        let Some(qb) = tb.get(workload) else { continue };
        let common: Vec<(&str, f64, f64)> =
            qa.iter().filter_map(|(q, &x)| Some((q.as_str(), x, *qb.get(q)?))).collect();
        let Some(&(_, base_a, base_b)) = common.iter().find(|(q, _, _)| *q == base) else {
            continue;
        };
        if common.len() < 5 {
            continue;
        }
        compared += 1;
        let fastest = |pick: fn(&(&str, f64, f64)) -> f64| {
            *common.iter().min_by(|x, y| pick(x).total_cmp(&pick(y))).expect("five or more")
        };
        let (fa, fb) = (fastest(|x| x.1), fastest(|x| x.2));
        differs += usize::from(fa.0 != fb.0);
        for &(_, xa, xb) in common.iter().filter(|(q, _, _)| *q != base) {
            if xa / fa.1 <= LEAD || xb / fb.2 <= LEAD {
                changes.push(((xa / base_a) / (xb / base_b)).ln().abs());
            }
        }
    }
    if changes.is_empty() {
        return None;
    }
    changes.sort_by(f64::total_cmp);
    Some(Change {
        median: at(&changes, 0.5).exp(),
        p90: at(&changes, 0.9).exp(),
        pairs: changes.len(),
        fastest_differs: (differs, compared),
    })
}

/// `shared/tools/between-runs.py`'s quantile of sorted, non-empty `values`: the value at
/// index ⌊p × n⌋.
fn at(values: &[f64], p: f64) -> f64 {
    values[((p * values.len() as f64) as usize).min(values.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tau_counts_only_pairs_apart_in_either_run() {
        // a < b < c < d by far in both runs: τ = 1 over 6 pairs.
        let far = [(1.0, 1.0), (2.0, 2.1), (4.0, 3.9), (8.0, 8.0)];
        assert_eq!(tau(&far), (Some(1.0), 6));
        // a and b within 5% in both: not counted; d swapped with c: discordant.
        let (t, n) = tau(&[(1.0, 1.01), (1.02, 1.0), (4.0, 3.9), (5.0, 1.5)]);
        assert_eq!(n, 5);
        assert_eq!(t, Some((4.0 - 1.0) / 5.0));
        // Under five pairs apart, τ is not given: one swap would move it by half.
        assert_eq!(tau(&far[..3]), (None, 3));
        assert_eq!(tau(&[(1.0, 1.0), (1.01, 1.02)]), (None, 0));
    }
}
