//! Timing outside `cargo bench`: `pqlab pick --map --measure`, `pqlab pick --trace` and
//! `pqlab compare` time their contenders here, and nowhere else.
//!
//! The rules are the lab's, taken from the default [`Profile`]: one sample length
//! ([`Profile::sample`]), one cut-off ([`Profile::slowdown`] times the reference's check
//! pass, never below [`Profile::floor`]), the lab's entries (a failed, n/a or cut-off
//! contender keeps its row, a cut-off one with its bound) and [`Contest`] with its racing.
//! What comes out is rows, as a run's: the caller ranks them as it ranks any run's, and
//! never reads an answer from here.

use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use pqlab_queues::registry::{self, Entry};

use super::contest::Contest;
use super::measure::{heat, Entries, RACE_FACTOR};
use super::replay::CheckReplay;
use super::rows::{describe, untimed, WorkloadFacts};
use super::searches::{check_oracle, check_peers, CheckQueue, Checking, Prepared};
use super::settings::Profile;
use crate::results::{Kind, Provenance, Row, Status};
use crate::search::trace::Trace;

/// The profile whose sample length and cut-off on-demand timing uses.
const PROFILE: Profile = Profile::Default;

/// How the contenders are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Racing {
    /// As the lab answers: contenders over the cut-off are not timed, and those clearly
    /// behind their heat's leader are raced out ([`OnDemand::time_until`]). Progress bars
    /// on stderr.
    Lab,
    /// Every contender in full, with no cut-off and no racing, for a table of every one
    /// ([`OnDemand::time`]); the caller draws its own progress.
    Off,
}

/// How long [`OnDemand::time_until`] may go on.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The most rounds.
    pub rounds: u32,
    /// The time the whole command may take, check passes included.
    pub budget: Duration,
    /// When the command started.
    pub started: Instant,
}

impl Plan {
    /// At most `rounds` within `budget` from now.
    pub fn from_now(rounds: u32, budget: Duration) -> Plan {
        Plan { rounds, budget, started: Instant::now() }
    }
}

/// Why [`OnDemand::time_until`] stopped, after how many rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every round asked for was timed.
    AllRounds(u32),
    /// The winner's tie group held for two batches.
    Decided(u32),
    /// The next batch would overrun the budget.
    Budget(u32),
}

impl Stop {
    /// The sentence saying so, `budget` being the `--budget` given.
    pub fn sentence(&self, budget: Duration) -> String {
        match self {
            Stop::AllRounds(done) => format!("Timed in all {done} rounds."),
            Stop::Decided(done) => format!(
                "Timed in {done} rounds: stopped once the winner's tie group held for four more."
            ),
            Stop::Budget(done) => format!(
                "Timed in {done} rounds: the next would overrun the {} s budget (--budget).",
                budget.as_secs()
            ),
        }
    }
}

/// The most rounds of the first batch, before timing may stop early: fewer give intervals
/// too wide for the tie rule to separate anyone.
const FIRST_BATCH: u32 = 5;

/// One workload's contenders checked and timed on demand. The first contender entered
/// that passes its check sets the cut-off; the baseline's row is the contest's reference.
pub struct OnDemand<'p> {
    workload: WorkloadFacts,
    provenance: Provenance,
    entries: Entries<'p>,
    racing: Racing,
}

impl<'p> OnDemand<'p> {
    /// No contender yet on `workload`, timed as `racing` says; its rows' run id ends in
    /// `suffix` (`-measure`, `-trace`, `-compare`).
    pub fn new(workload: WorkloadFacts, suffix: &str, racing: Racing) -> Self {
        let contest = Contest::new(&workload.name, PROFILE.sample());
        OnDemand::in_contest(workload, suffix, racing, contest)
    }

    /// [`OnDemand::new`], timed in `contest`.
    fn in_contest(
        workload: WorkloadFacts,
        suffix: &str,
        racing: Racing,
        contest: Contest<'p, Row>,
    ) -> Self {
        OnDemand {
            provenance: Provenance::detect(suffix, "plain"),
            workload,
            entries: Entries::new(contest),
            racing,
        }
    }

    /// The longest the next check pass may take: unbounded until one passed, then the
    /// cut-off over it (unbounded under [`Racing::Off`]).
    fn limit(&self) -> Duration {
        let base = self.entries.base_pass;
        if self.racing == Racing::Off || base == Duration::MAX {
            return Duration::MAX;
        }
        base.mul_f64(PROFILE.slowdown()).max(PROFILE.floor())
    }

    /// Takes `row` with its check's `outcome` (see [`Entries::add`]); the first pass
    /// checked sets the cut-off.
    fn add(&mut self, row: Row, outcome: Checking<'p>, own_counters: bool) {
        if let (Ok(check), Duration::MAX) = (&outcome, self.entries.base_pass) {
            self.entries.base_pass = check.pass.max(Duration::from_nanos(1));
        }
        self.entries.add(row, outcome, own_counters);
    }

    /// A bar counting `len` check passes, hidden under [`Racing::Off`].
    fn bar(&self, len: usize) -> ProgressBar {
        match self.racing {
            Racing::Lab => crate::format::progress(len as u64, "check passes"),
            Racing::Off => ProgressBar::hidden(),
        }
    }

    /// Checks pqlab's A\* with each of `entries` on every problem of `prepared`, in order,
    /// and enters the ones that pass.
    pub fn check_searches(&mut self, prepared: &'p Prepared, entries: &[&'static Entry]) {
        let bar = self.bar(entries.len());
        for &entry in entries {
            let mut row = self.workload.row(&self.provenance, entry.id, Some(entry));
            row.units = prepared.instance.problems.len() as u64;
            let limit = self.limit();
            let outcome =
                registry::visit(entry.id, CheckQueue { prepared, limit }).expect("registered");
            self.add(row, outcome, true);
            bar.inc(1);
        }
        bar.finish_and_clear();
    }

    /// Checks and enters the oracle floor replaying `traces` (the baseline's recorded
    /// searches of `prepared`, where they were kept), then the peers' A\*.
    pub fn check_floor_and_peers(&mut self, prepared: &'p Prepared, traces: Option<&'p [Trace]>) {
        let units = prepared.instance.problems.len() as u64;
        if let Some(traces) = traces {
            let facts = WorkloadFacts { kind: Kind::Oracle, ..self.workload.clone() };
            let mut row = facts.row(&self.provenance, crate::results::ORACLE, None);
            row.units = units;
            self.add(row, check_oracle(prepared, traces), true);
        }
        let facts = WorkloadFacts { kind: Kind::Peer, ..self.workload.clone() };
        for (id, outcome) in check_peers(prepared, self.limit(), |check| check()) {
            let mut row = facts.row(&self.provenance, id, None);
            row.units = units;
            self.add(row, outcome, true);
        }
    }

    /// Checks `entry` replaying `traces`, `units` operations a pass, and enters it with
    /// its queues and traces released until its slices build them.
    pub fn check_replay(&mut self, entry: &'static Entry, traces: &'p [Trace], units: u64) {
        let mut row = self.workload.row(&self.provenance, entry.id, Some(entry));
        row.units = units;
        let limit = self.limit();
        let outcome = registry::visit(entry.id, CheckReplay { traces, limit })
            .expect("registered")
            .map(|mut check| {
                check.contender.release();
                check.parked = true;
                check
            });
        self.add(row, outcome, true);
    }

    /// Records `entry` as not timed here, with why.
    pub fn skip(&mut self, entry: &'static Entry, status: Status, why: String) {
        let row = self.workload.row(&self.provenance, entry.id, Some(entry));
        self.entries.untimed.push(untimed(row, status, why));
    }

    /// The rows of the contenders not timed so far: n/a, failed or cut off.
    pub fn untimed(&self) -> &[Row] {
        &self.entries.untimed
    }

    /// Whether no contender passed its check.
    pub fn is_empty(&self) -> bool {
        self.entries.contest.is_empty()
    }

    /// How long a round takes, from the check passes.
    pub fn round(&self) -> Duration {
        self.entries.contest.round()
    }

    /// Times `rounds` interleaved rounds of every contender.
    pub fn time(&mut self, rounds: u32) {
        self.entries.contest.time(rounds);
    }

    /// Times in batches, with a progress bar: first as many rounds as what is left of the
    /// budget holds (3 to 5), then two at a time, racing the contenders
    /// after each batch as the lab does, until `decided` (the winner's tie group, from the
    /// rows so far) has not changed for two batches, the next batch would overrun the
    /// budget, or every round is done.
    pub fn time_until(
        &mut self,
        plan: Plan,
        mut decided: impl FnMut(&[Row]) -> Vec<String>,
    ) -> Stop {
        let bar = crate::format::progress(u64::from(plan.rounds), "rounds (stops once decided)");
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} {msg}, at most {eta} left",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        let contest = &mut self.entries.contest;
        let mut last: Option<Vec<String>> = None;
        let (mut steady, mut done) = (0, 0);
        let stop = loop {
            if done >= plan.rounds {
                break Stop::AllRounds(done);
            }
            let batch = if done == 0 {
                let left = plan.budget.saturating_sub(plan.started.elapsed());
                contest.rounds_within(left, 3.min(plan.rounds), FIRST_BATCH.min(plan.rounds))
            } else {
                2.min(plan.rounds - done)
            };
            if done > 0 && plan.started.elapsed() + contest.round() * batch > plan.budget {
                break Stop::Budget(done);
            }
            contest.time(batch);
            done += batch;
            bar.set_position(u64::from(done));
            contest.race(RACE_FACTOR, heat);
            let group = decided(&rows_so_far(contest));
            steady = if last.as_ref() == Some(&group) { steady + 1 } else { 0 };
            last = Some(group);
            if done >= plan.rounds {
                break Stop::AllRounds(done);
            }
            if steady >= 2 {
                break Stop::Decided(done);
            }
        };
        bar.finish_and_clear();
        stop
    }

    /// Every row: the timed ones with their samples, in the order of entry, then the
    /// untimed.
    pub fn finish(self) -> Vec<Row> {
        let mut rows: Vec<Row> = self
            .entries
            .contest
            .finish()
            .into_iter()
            .map(|(mut row, samples)| {
                samples.write(&mut row);
                row
            })
            .collect();
        rows.extend(self.entries.untimed);
        rows
    }
}

/// The facts of a workload of whole searches on `prepared`, named after its map and
/// `what` (`measured`, `compared`).
pub fn search_facts(prepared: &Prepared, what: &str) -> WorkloadFacts {
    let name = format!("{}/{what}", prepared.instance.name);
    WorkloadFacts { name, ..describe(prepared, Kind::Astar) }
}

/// The timed rows with their samples so far.
fn rows_so_far(contest: &mut Contest<'_, Row>) -> Vec<Row> {
    contest
        .results_mut()
        .map(|(row, samples)| {
            samples.write(row);
            row.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use pqlab_queues::registry::BASELINE;

    use super::*;
    use crate::lab::searches::Untimed;
    use crate::lab::sim::{check, Machine, SimClock};

    /// On-demand timing of `racing` on a steady simulated machine.
    fn on_demand(racing: Racing) -> (OnDemand<'static>, std::rc::Rc<Machine>) {
        let machine = Machine::steady();
        let workload = WorkloadFacts::held(0);
        let clock = Box::new(SimClock(machine.clone()));
        let contest = Contest::with_clock(&workload.name, PROFILE.sample(), clock);
        (OnDemand::in_contest(workload, "-test", racing, contest), machine)
    }

    /// The row of registered queue `id` on the test workload.
    fn row(timing: &OnDemand<'_>, id: &str) -> Row {
        let entry = registry::find(id).expect("registered");
        timing.workload.row(&timing.provenance, entry.id, Some(entry))
    }

    /// The cut-off is the lab's: none before a pass is checked, then the default profile's
    /// slowdown over the first pass, never below its floor; none at all when racing is off.
    #[test]
    fn the_first_pass_sets_the_labs_cut_off() {
        let (mut timing, machine) = on_demand(Racing::Lab);
        assert_eq!(timing.limit(), Duration::MAX);
        let mut first = check(&machine, 1e6);
        first.pass = Duration::from_millis(10);
        timing.add(row(&timing, BASELINE), Ok(first), true);
        assert_eq!(timing.limit(), Duration::from_millis(10).mul_f64(PROFILE.slowdown()));

        let (mut short, machine) = on_demand(Racing::Lab);
        short.add(row(&short, BASELINE), Ok(check(&machine, 1e3)), true);
        assert_eq!(short.limit(), PROFILE.floor());

        let (mut off, machine) = on_demand(Racing::Off);
        off.add(row(&off, BASELINE), Ok(check(&machine, 1e6)), true);
        assert_eq!(off.limit(), Duration::MAX);
    }

    /// A cut-off contender keeps its row, with the time it ran over the first pass as its
    /// bound, after the timed rows; an n/a one keeps its reason.
    #[test]
    fn an_untimed_contender_keeps_its_row_and_a_cut_off_its_bound() {
        let (mut timing, machine) = on_demand(Racing::Lab);
        let mut first = check(&machine, 1e6);
        first.pass = Duration::from_millis(10);
        timing.add(row(&timing, BASELINE), Ok(first), true);
        let ran = Duration::from_millis(50);
        timing.add(row(&timing, "sorted-array-dk"), Err(Untimed::cut_off("slow", ran)), true);
        timing.skip(
            registry::find("bucket-queue-dup").unwrap(),
            Status::NotApplicable,
            "keys".into(),
        );
        timing.time(2);
        let rows = timing.finish();
        let queues: Vec<&str> = rows.iter().map(|r| r.queue.as_str()).collect();
        assert_eq!(queues, [BASELINE, "sorted-array-dk", "bucket-queue-dup"]);
        assert_eq!(rows[0].samples, 2);
        assert_eq!((rows[1].status, rows[1].bound), (Status::CutOff, Some(5.0)));
        assert_eq!((rows[2].status, rows[2].note.as_str()), (Status::NotApplicable, "keys"));
    }

    /// Timing stops once the tie group held for two batches after the first, when the next
    /// batch would overrun the budget, or after every round asked.
    #[test]
    fn timing_stops_once_decided_out_of_budget_or_out_of_rounds() {
        let run = |rounds: u32, budget: Duration, decided: &mut dyn FnMut() -> Vec<String>| {
            let (mut timing, machine) = on_demand(Racing::Lab);
            timing.add(row(&timing, BASELINE), Ok(check(&machine, 1e5)), true);
            timing.add(row(&timing, "sorted-array-dk"), Ok(check(&machine, 2e5)), true);
            let plan = Plan::from_now(rounds, budget);
            timing.time_until(plan, |_| decided())
        };
        let hour = Duration::from_secs(3600);
        let same = &mut || vec![BASELINE.to_owned()];
        // A first batch of five, then two batches of two with the same group.
        assert_eq!(run(25, hour, same), Stop::Decided(FIRST_BATCH + 4));
        let mut flip = 0;
        let changing = &mut || {
            flip += 1;
            vec![flip.to_string()]
        };
        assert_eq!(run(8, hour, changing), Stop::AllRounds(8));
        assert_eq!(run(25, Duration::ZERO, same), Stop::Budget(3));
    }
}
