//! How a run's time budget is shared among its workloads: by what a round of each costs,
//! times its role's weight, so that the workloads of a role get about as many rounds each,
//! and the cheap workloads measured first do not spend what the costly ones need later.
//!
//! A round's cost is estimated before anything is measured, from the baseline's checked
//! pass on each workload ([`Estimate`]): every contender's sample lasts at least
//! [`Settings::sample`](super::settings::Settings::sample) and about
//! [`CONTENDER_RATIO`] times the baseline's pass. Shared by role weight alone, the
//! workloads measured first spend the whole budget, most of them at 25 rounds, and the
//! rest run at the floor of 4 past it (measured, see METHODOLOGY.md).
//!
//! Every workload gets its floor (a checked pass and the fewest rounds) whatever its
//! share, so [`BudgetShares`] sets the floors of the workloads still to come aside first, and
//! shares only what is left beyond them: shared by weight alone, the band workloads
//! measured first took more than their floor while the floors still to come already
//! exceeded what was left (a fresh clone's run had spent 387 of its 600 s when the
//! workloads after the bands began).

use std::time::{Duration, Instant};

use pqlab_queues::registry;

use super::measure::TWIN_CONTENDERS;
use super::sampler::REFERENCE_EVERY;
use super::searches::{AnyPrepared, Check, CheckQueue, Searchable};
use super::workloads::{Role, WorkloadSpec};

/// A contender's pass over the baseline's on the same workload, on average: a default run
/// timed its contenders at 41 to 84 times the baseline's pass
/// together on the workloads with every queue (median 60, over about 46 contenders, cut-offs
/// counted at their limit): 60 / 46 ≈ 1.3.
pub const CONTENDER_RATIO: f64 = 1.3;

/// What a workload's share of the budget is weighed by, in its role's weight. Set without a
/// measurement (and kept when rounds' costs came to weigh the shares), they share
/// only what is left beyond the floors: in a default run the bands' workloads
/// got a median of 5 rounds (4 to 12), the series' 4 (4 to 9), the stores' 5 (4 to 7) and
/// the trades' 4 (all at the floor), from the rows' `samples`. The generic A\*'s workloads
/// weigh as a band's: every queue they time is a leader of their band twin, and at the
/// series' weight, every queue timed, they moved most between two quiet runs
/// (METHODOLOGY.md; 228 of the 541 leaders'
/// changes `shared/tools/between-runs.py` compares, p90 1.25 against the octile bands' 1.07).
/// The unreachable-goal workloads, every queue timed, weigh as a series'.
fn role_weight(spec: &WorkloadSpec) -> f64 {
    match spec.role {
        Role::Bands | Role::Real | Role::Generic => 1.0,
        Role::OtherSeries | Role::Unreachable => 0.6,
        Role::Store | Role::Ties => 0.25,
        Role::Trade => 0.05,
    }
}

/// How many contenders a round of `workload` times: every queue (twice with replays, the
/// queue alone too), the baseline and the store contenders, or the baseline alone. A
/// store, tie or generic workload also times what its series timed before it: its count is
/// its first workload's, so the later ones take more than their share's estimate.
fn contenders(spec: &WorkloadSpec) -> usize {
    let queues = registry::ENTRIES.len();
    match spec.role {
        Role::Bands | Role::OtherSeries | Role::Real if spec.replay => 2 * queues,
        Role::Bands | Role::OtherSeries | Role::Real | Role::Unreachable => queues,
        Role::Store => TWIN_CONTENDERS + 1,
        // The baseline, the twin's fastest and its fastest of each key rule, some the same.
        Role::Ties | Role::Generic => TWIN_CONTENDERS + 3,
        Role::Trade => 1,
    }
}

/// The estimated seconds of one round of `workload`, from the baseline's checked pass on it
/// (`None` when it could not be checked: a round of samples of `sample` each), with the
/// reference's slices.
pub fn round_secs(spec: &WorkloadSpec, baseline: Option<Duration>, sample: Duration) -> f64 {
    let pass = baseline.map_or(0.0, |p| p.as_secs_f64() * CONTENDER_RATIO);
    let contenders = contenders(spec);
    // A slice of the reference every REFERENCE_EVERY contender slices (none when it times
    // alone).
    let references = if contenders > 1 { 1.0 / REFERENCE_EVERY as f64 } else { 0.0 };
    contenders as f64 * pass.max(sample.as_secs_f64()) * (1.0 + references)
}

/// A workload's weight in the shares of the budget: its role's weight times a round's cost.
pub fn weight(spec: &WorkloadSpec, baseline: Option<Duration>, sample: Duration) -> f64 {
    role_weight(spec) * round_secs(spec, baseline, sample)
}

/// The weight of one held size of the synthetic workload: every queue's samples at the
/// series' weight.
pub fn synthetic_weight(sample: Duration) -> f64 {
    0.6 * synthetic_round_secs(sample)
}

/// The estimated seconds of one round of a held size: a sample of every queue.
fn synthetic_round_secs(sample: Duration) -> f64 {
    registry::ENTRIES.len() as f64 * sample.as_secs_f64()
}

/// The estimated seconds of a workload's floor: its checked pass, about a round's time
/// (a default run spent 99 s on check passes and 103 s on a round of every
/// workload, from its CSV), and `min_rounds` rounds of `round` seconds.
pub fn floor_secs(round: f64, min_rounds: u32) -> f64 {
    (1.0 + f64::from(min_rounds)) * round
}

/// [`floor_secs`] of `workload`.
pub fn floor(
    spec: &WorkloadSpec,
    baseline: Option<Duration>,
    sample: Duration,
    min_rounds: u32,
) -> f64 {
    floor_secs(round_secs(spec, baseline, sample), min_rounds)
}

/// [`floor_secs`] of a held size.
pub fn synthetic_floor(sample: Duration, min_rounds: u32) -> f64 {
    floor_secs(synthetic_round_secs(sample), min_rounds)
}

/// The run's budget shared among the workloads still to come, in turn.
///
/// Invariant: `weight` and `floors` are the sums over the workloads not yet given a share;
/// `estimated` and `took` the sums of the floors measured so far, as estimated and as
/// they took. Each gets its floor plus, of the time left beyond every remaining floor, its
/// weight's part, and never more than is left beyond the other floors still to come: when
/// the floors alone need more than is left, no workload takes a round past its floor, and
/// the run overruns by what the floors need beyond the budget, no more.
///
/// The floors still to come are scaled by how the floors so far took against their
/// estimates ([`BudgetShares::floor_ratio`]), a workload's floor being its time but its rounds
/// past the leaders': the estimates count neither the leaders' rounds past a spent share
/// nor the cut-off checks, and the machine may be slower than during the estimate.
/// Measured (METHODOLOGY.md): with `PQLAB_BUDGET=1` (every workload at its floor), a
/// default run's floors were estimated at 444 s and took 558 s.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetShares {
    weight: f64,
    floors: f64,
    estimated: f64,
    took: f64,
}

impl BudgetShares {
    /// BudgetShares for workloads of these `(weight, floor)`s, in any order.
    pub fn new(workloads: impl IntoIterator<Item = (f64, f64)>) -> BudgetShares {
        let (weight, floors) =
            workloads.into_iter().fold((0.0, 0.0), |(w, f), (wi, fi)| (w + wi, f + fi));
        BudgetShares { weight, floors, estimated: 0.0, took: 0.0 }
    }

    /// How much longer the floors measured so far took than estimated, at least 1 (a
    /// floor that took less leaves its time to the workloads after it anyway), 1 before
    /// any. O(1).
    pub fn floor_ratio(&self) -> f64 {
        if self.estimated > 0.0 {
            (self.took / self.estimated).max(1.0)
        } else {
            1.0
        }
    }

    /// The seconds the next workload, of `weight` and `floor`, may take when `left` seconds
    /// remain of the budget: never more than is left beyond the other floors still to
    /// come, so that when the floors alone need more than is left, no workload takes a
    /// round past its floor. O(1).
    pub fn next(&mut self, left: f64, weight: f64, floor: f64) -> f64 {
        let ratio = self.floor_ratio();
        let surplus = (left - self.floors * ratio).max(0.0);
        let part = if self.weight > 0.0 { (weight / self.weight).min(1.0) } else { 0.0 };
        self.weight = (self.weight - weight).max(0.0);
        self.floors = (self.floors - floor).max(0.0);
        let beyond_others = (left - self.floors * ratio).max(0.0);
        (floor * ratio + surplus * part).min(beyond_others)
    }

    /// Records that a workload whose floor was estimated at `estimated` seconds took
    /// `took` seconds for it. O(1).
    pub fn floor_took(&mut self, estimated: f64, took: f64) {
        self.estimated += estimated;
        self.took += took;
    }
}

/// The baseline's checked pass on every workload; and how long it all took.
pub struct Estimate {
    /// Per workload, in order: the baseline's pass (`None` when it failed its check: the
    /// workload's own turn says why), or why the workload could not be prepared (a malformed
    /// map, said before anything is measured).
    pub passes: Vec<anyhow::Result<Option<Duration>>>,
    /// The time the estimate took.
    pub took: Duration,
}

impl Estimate {
    /// Prepares every workload and checks the baseline on it, one at a time (each is freed
    /// before the next): about 17 s for the default workloads (`pqlab workloads`, which prints
    /// the same passes).
    pub fn of(specs: &[WorkloadSpec]) -> Estimate {
        let started = Instant::now();
        let passes = specs
            .iter()
            .map(|spec| {
                Ok(match AnyPrepared::new(spec)? {
                    AnyPrepared::Grid(grid) => check_baseline(&grid).ok().map(|c| c.pass),
                    AnyPrepared::Road(road) => check_baseline(&road).ok().map(|c| c.pass),
                })
            })
            .collect();
        Estimate { passes, took: started.elapsed() }
    }
}

/// The baseline's checked pass on `prepared`, with no limit.
pub fn check_baseline<P: Searchable>(prepared: &P) -> anyhow::Result<Check<'_>> {
    registry::visit(registry::BASELINE, CheckQueue { prepared, limit: Duration::MAX })
        .expect("the baseline is registered")
        .map_err(|why| anyhow::anyhow!("{}: the baseline {why:?}", prepared.spec().name()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::settings::Profile;
    use crate::lab::workloads::builtin;

    #[test]
    fn a_round_costs_every_contender_at_least_a_sample_and_roles_weigh_in() {
        let specs = builtin(Profile::Default);
        let find = |role: Role, replay: bool| {
            specs.iter().find(|s| s.role == role && s.replay == replay).expect("in the catalogue")
        };
        let sample = Duration::from_millis(5);
        let queues = registry::ENTRIES.len() as f64;
        let bands = find(Role::Bands, false);
        // With a reference slice every REFERENCE_EVERY contender slices.
        let paired = 1.0 + 1.0 / REFERENCE_EVERY as f64;
        // A cheap pass: every sample lasts `sample`.
        let cheap = round_secs(bands, Some(Duration::from_micros(10)), sample);
        assert!((cheap - queues * 0.005 * paired).abs() < 1e-9, "{cheap}");
        // A costly one: CONTENDER_RATIO times the baseline's pass each.
        let costly = round_secs(bands, Some(Duration::from_millis(100)), sample);
        assert!((costly - queues * 0.1 * CONTENDER_RATIO * paired).abs() < 1e-9, "{costly}");
        let replayed =
            round_secs(find(Role::Bands, true), Some(Duration::from_millis(100)), sample);
        assert!((replayed - 2.0 * costly).abs() < 1e-9);
        assert_eq!(floor(bands, None, sample, 4), 5.0 * cheap);
        let trade = find(Role::Trade, false);
        assert!(weight(trade, Some(Duration::from_millis(100)), sample) < 0.01);
        // The same cost weighs less in a series than in a band.
        let series = find(Role::OtherSeries, false);
        let pass = Some(Duration::from_millis(30));
        assert!(weight(series, pass, sample) < weight(bands, pass, sample));
        assert_eq!(round_secs(bands, None, sample), cheap);
    }

    #[test]
    fn every_workload_gets_its_floor_and_the_rest_goes_by_weight() {
        // Three workloads: (weight, floor) seconds.
        let workloads = [(1.0, 10.0), (3.0, 20.0), (1.0, 30.0)];
        // 100 s for 60 s of floors: the 40 s beyond go by weight, 8, 24 and 8.
        let mut shares = BudgetShares::new(workloads);
        let mut left = 100.0;
        let mut given = Vec::new();
        for (w, f) in workloads {
            let share = shares.next(left, w, f);
            given.push(share);
            left -= share;
        }
        assert_eq!(given, [18.0, 44.0, 38.0]);
        assert!(left.abs() < 1e-9, "the budget is spent, not overrun: {left}");
        // 45 s for 60 s of floors: no workload gets more than is left beyond the others'
        // floors, down to nothing (each still takes its floor, and no round more).
        let mut shares = BudgetShares::new(workloads);
        let mut left = 45.0;
        let mut given = Vec::new();
        for (w, f) in workloads {
            let share = shares.next(left, w, f);
            given.push(share);
            left -= f;
        }
        assert_eq!(given, [0.0, 5.0, 15.0]);
        // A workload that spent less than its share leaves it to those after it.
        let mut shares = BudgetShares::new(workloads);
        assert_eq!(shares.next(100.0, 1.0, 10.0), 18.0);
        assert_eq!(shares.next(100.0 - 5.0, 3.0, 20.0), 20.0 + (95.0 - 50.0) * 0.75);
    }

    /// The seconds a run takes within `budget` of 20 workloads of weight 3 then 20 of
    /// weight 0.1 when each floor, estimated at 10 s, takes `took` s and a workload spends
    /// the rest of its share in rounds; with `learn`, the shares are told how each floor
    /// took.
    fn run_with_floors(took: f64, budget: f64, learn: bool) -> f64 {
        let weights = || std::iter::repeat_n(3.0, 20).chain(std::iter::repeat_n(0.1, 20));
        let mut shares = BudgetShares::new(weights().map(|w| (w, 10.0)));
        let mut spent = 0.0;
        for weight in weights() {
            let share = shares.next((budget - spent).max(0.0), weight, 10.0);
            if learn {
                shares.floor_took(10.0, took);
            }
            spent += share.max(took);
        }
        spent
    }

    /// Rule: floors that take longer than estimated (a slower machine, leaders' rounds)
    /// shrink what the later workloads get beyond theirs, so the run ends within its
    /// budget when the floors fit it, instead of overrunning by what the first shares gave
    /// away.
    #[test]
    fn floors_longer_than_estimated_shrink_the_surplus_rather_than_overrun() {
        // 40 floors estimated at 10 s take 13 s: 520 s of a 600 s budget.
        let learned = run_with_floors(13.0, 600.0, true);
        assert!((learned - 600.0).abs() < 1e-9, "within the budget, and all of it: {learned}");
        let unlearned = run_with_floors(13.0, 600.0, false);
        assert!(unlearned > 650.0, "the estimates alone overrun: {unlearned}");
        // Floors that take less than estimated leave their time to the later workloads.
        let quick = run_with_floors(7.0, 600.0, true);
        assert!((quick - 600.0).abs() < 1e-9, "{quick}");
        let mut shares = BudgetShares::new([(1.0, 10.0)]);
        shares.floor_took(10.0, 5.0);
        assert_eq!(shares.floor_ratio(), 1.0);
        // Floors that alone overrun the budget overrun it by no more than they need.
        let over = run_with_floors(20.0, 600.0, true);
        assert!((over - 800.0).abs() < 1e-9, "{over}");
    }
}
