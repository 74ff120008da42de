//! The lab: what `cargo bench` runs. Every queue on every suite, checked before it is
//! timed, timed interleaved with the others; the queue alone on recorded traces and on a
//! synthetic workload; the peers and the oracle floor; a sentinel that re-measures the
//! baseline through the run; then one CSV per run and the report.
//!
//! # What is measured, in order
//!
//! 1. **The sentinel**: the baseline on one small fixed suite, measured at the start, after
//!    every few suites and at the end ([`Kind::Sentinel`] rows): the run's drift and noise.
//! 2. **Each suite** ([`suites`]), smallest first:
//!    - *Check.* Every queue (and on band suites the oracle and the peers) solves every
//!      problem once, untimed, with the answer checked ([`searches`]). A wrong answer or a
//!      rejected key makes a `failed` row, a queue that cannot take the keys an `n/a` row,
//!      and one far too slow a `cut-off` row; none of them is timed. The check pass also
//!      gives the counters and the frontier sizes.
//!    - *Time.* The checked contenders are timed together in rounds, each round in a
//!      fresh random order ([`sampler`]), on the thread's CPU clock with wall time beside.
//!    - *The queue alone*, on suites marked for it: their searches recorded and replayed
//!      against each queue ([`replay`]), interleaved the same way.
//! 3. **The synthetic workload** ([`synthetic`]): frontiers held at sizes up to 10⁶ (10⁷
//!    with `PQLAB_HELD_MAX=1e7`), in groups that fit the memory limit.
//!
//! # Budget
//!
//! The run has a time budget ([`Settings::budget`]); each workload gets its floor (its
//! untimed work: checks, recorded traces, filled queues; and [`Settings::min_rounds`]
//! rounds) and a share of what is left beyond the floors still to come, by its weight (its
//! role's, times what a round of it costs, estimated from the baseline's checked pass on
//! every suite before anything is measured: [`budget`]). A slower machine so takes fewer
//! rounds rather than more time; the run overruns its budget only by what the floors need
//! beyond it, as far as the floors are estimated right (three fresh clones measured for
//! 664, 700 and 664 s for 600 on 2026-11-26: the floors of every queue on 91 workloads
//! come to about the budget there, and the estimate falls short for the workloads after
//! the bands). No queue is cut off for the machine's speed: cut-offs compare a queue's
//! pass with the baseline's on the same workload.
//!
//! # Memory
//!
//! A workload's contenders keep their search state built between samples while together
//! they fit [`Settings::memory`], as counted when each is checked; the others are built
//! before each of their samples and freed after it, outside the clock
//! ([`memory::Keep`]). On the 2048² maps that is what keeps a run within 2 GiB.
//!
//! # Cut-offs
//!
//! A queue is cut off on a workload when its check pass takes more than
//! [`Settings::slowdown`] times the baseline's and more than [`Settings::floor`] (scaled by
//! the machine's pace, from the sentinel): its check pass is stopped there, and the row
//! keeps what was measured, the stopped pass's time over the baseline's, as a lower bound
//! (`bound`). A queue is cut off only on its own evidence on that workload, never
//! predicted from another workload; the baseline is never cut off.

pub mod budget;
pub mod clock;
pub mod memory;
pub mod replay;
pub mod rows;
pub mod sampler;
pub mod searches;
pub mod settings;
pub mod suites;
pub mod synthetic;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use pqlab_queues::registry::{self, Entry};
use pqlab_queues::Strategy;

use crate::results::{self, Kind, Provenance, Row, Status, Unit};
use crate::search::bfs::Bfs;
use crate::search::fringe::Fringe;
use crate::search::heuristic::Heuristic;
use crate::search::peers::{PathfindingAstar, Peer, PetgraphAstar};
use crate::search::store::StoreKind;
use crate::search::trace::Trace;
use rows::{untimed, Workload};
use sampler::{interleave, Entrant, Plan, Shuffler};
use searches::{AnyPrepared, Check, CheckQueue, Prepared, Searchable, Untimed};
pub use settings::{Profile, Settings};
use suites::{Role, Suite};

/// The sentinel's median on the machine that made the committed default runs (an Intel
/// Xeon, 2 cores; 15.8–17.2 µs over the seven sentinels of the 22:58 run of 2026-11-22):
/// the lab's pace is this machine's first sentinel over it, and scales the cut-off floor,
/// so a slower machine cuts off the same queues.
const REFERENCE_SENTINEL_NS: f64 = 16_300.0;

/// The lab's state over one run.
pub struct Lab {
    /// How much to measure.
    pub settings: Settings,
    /// The run's machine, compiler and revision.
    pub provenance: Provenance,
    rows: Vec<Row>,
    started: Instant,
    /// The budget's shares for the suites and sizes not yet measured.
    shares: budget::Shares,
    /// This machine's sentinel median over the reference machine's.
    pace: f64,
    sentinel: Option<Prepared>,
    /// The run's partial file, saved as each workload ends (after [`Lab::reserve`]).
    journal: Option<results::Journal>,
    /// Whether saving the partial run failed already (said once).
    journal_failed: bool,
}

/// The fastest queues of a store suite's flat twin that it measures beside the baseline:
/// three show whether the store changes the order at the top, at a fifth of the cost of
/// every queue.
const STORE_CONTENDERS: usize = 3;

/// Suites between two sentinel measurements.
const SENTINEL_EVERY: usize = 8;

impl Lab {
    /// A lab with `settings`.
    pub fn new(settings: Settings) -> Lab {
        let provenance = Provenance::detect(settings.run_suffix());
        Lab {
            settings,
            provenance,
            rows: Vec::new(),
            started: Instant::now(),
            shares: budget::Shares::new([]),
            pace: 1.0,
            sentinel: None,
            journal: None,
            journal_failed: false,
        }
    }

    /// Reserves the run's id and partial file under the results folder before anything is
    /// measured (see [`results::Journal`]): a folder that cannot be written fails here.
    /// Returns a note when another run is measuring into the same folder.
    pub fn reserve(&mut self) -> Result<Option<String>> {
        let suffix = self.settings.run_suffix();
        let (journal, note) = results::Journal::reserve(&self.settings.results_dir, || {
            format!("{}{suffix}", results::utc_now())
        })?;
        self.provenance.run = journal.run().to_owned();
        self.journal = Some(journal);
        Ok(note)
    }

    /// Saves the rows so far as the partial run, and says so (`saved N rows`); a failure is
    /// said once and measuring goes on (the final save tries elsewhere).
    fn checkpoint(&mut self, workload: &str) {
        let Some(journal) = &self.journal else { return };
        match journal.save(&self.rows) {
            Ok(()) => eprintln!(
                "pqlab: saved {} rows after {workload} in {}",
                self.rows.len(),
                journal.partial().display()
            ),
            Err(error) if !self.journal_failed => {
                self.journal_failed = true;
                eprintln!("pqlab: saving the partial run failed, measuring goes on: {error:#}");
            }
            Err(_) => {}
        }
    }

    /// Seconds since the lab started, for progress lines.
    pub fn elapsed_secs(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// The rows measured so far.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The time left of the budget (zero when it is spent).
    fn left(&self, budget: Duration) -> Duration {
        budget.saturating_sub(self.started.elapsed())
    }

    /// Measures `suites` and the synthetic workload at the held `sizes`, with sentinels.
    pub fn run(&mut self, suites: &[Suite], sizes: &[usize]) -> Result<()> {
        let real = suites.iter().filter(|s| s.role == Role::Real).count();
        let budget = self.settings.budget
            + if real > 0 { self.settings.maps_budget } else { Duration::ZERO };
        // Every suite is prepared and its baseline checked before anything is measured:
        // the shares of the budget follow what a round of each costs, and a malformed map
        // is said now, and gets a failed row in its turn.
        eprintln!("pqlab: checking the baseline on {} workloads to share the budget", suites.len());
        let estimate = budget::Estimate::of(suites);
        eprintln!("pqlab: done in {:.0} s", estimate.took.as_secs_f64());
        let mut broken = HashMap::new();
        let (sample, min_rounds) = (self.settings.sample, self.settings.min_rounds);
        let weights: Vec<(f64, f64)> = suites
            .iter()
            .zip(estimate.passes)
            .map(|(suite, pass)| match pass {
                Ok(pass) => (
                    budget::weight(suite, pass, sample),
                    budget::floor(suite, pass, sample, min_rounds),
                ),
                Err(error) => {
                    eprintln!("pqlab: {error:#}: this map will not be measured");
                    broken.insert(suite.name(), error);
                    (0.0, 0.0)
                }
            })
            .collect();
        let held = (budget::synthetic_weight(sample), budget::synthetic_floor(sample, min_rounds));
        self.shares = budget::Shares::new(
            weights.iter().copied().chain(std::iter::repeat_n(held, sizes.len())),
        );
        self.sentinel()?;
        self.checkpoint("the first sentinel");
        for (i, suite) in suites.iter().enumerate() {
            eprintln!(
                "pqlab: [{}/{}] {} ({:.0} s so far, {:.0} s left)",
                i + 1,
                suites.len(),
                suite.name(),
                self.elapsed_secs(),
                self.left(budget).as_secs_f64()
            );
            let deadline = self.deadline(weights[i], budget);
            match broken.remove(&suite.name()).map_or_else(|| AnyPrepared::new(suite), Err) {
                Ok(AnyPrepared::Grid(prepared)) => self.run_suite(&prepared, deadline)?,
                Ok(AnyPrepared::Road(prepared)) => self.run_suite(&prepared, deadline)?,
                Err(error) => {
                    eprintln!("pqlab: {error:#}: a failed row, and on to the next workload");
                    self.rows.push(failed_suite(suite, &self.provenance, &error));
                }
            }
            self.checkpoint(&suite.name());
            if (i + 1) % SENTINEL_EVERY == 0 {
                self.sentinel()?;
            }
        }
        for &size in sizes {
            eprintln!(
                "pqlab: synthetic workload held at {size} entries ({:.0} s so far)",
                self.elapsed_secs()
            );
            let deadline = self.deadline(held, budget);
            self.run_synthetic(size, deadline);
            self.checkpoint(&format!("held-{size}"));
        }
        self.sentinel()?;
        self.checkpoint("the last sentinel");
        Ok(())
    }

    /// When a workload of `(weight, floor)`, starting now, must be done: its share of the
    /// time left ([`budget::Shares`]).
    fn deadline(&mut self, (weight, floor): (f64, f64), budget: Duration) -> Instant {
        let share = self.shares.next(self.left(budget).as_secs_f64(), weight, floor);
        Instant::now() + Duration::from_secs_f64(share.clamp(0.0, 1e9))
    }

    /// The sampling plan for a workload allowed `budget` for its rounds.
    fn plan(&self, budget: Duration) -> Plan {
        Plan {
            sample: self.settings.sample,
            budget,
            min_rounds: self.settings.min_rounds,
            max_rounds: self.settings.max_rounds,
        }
    }

    /// The longest a contender's pass may take on a workload whose baseline pass took
    /// `baseline`.
    fn limit(&self, baseline: Duration) -> Duration {
        self.settings.floor.mul_f64(self.pace).max(baseline.mul_f64(self.settings.slowdown))
    }

    /// Measures the baseline on the sentinel suite: one `sentinel` row.
    fn sentinel(&mut self) -> Result<()> {
        if self.sentinel.is_none() {
            let suite = Suite {
                source: suites::Source::Generated {
                    map: "random-d20-64-s1".parse().expect("a map name"),
                    problems: 20,
                },
                setup: crate::search::Setup::GRID_ASTAR,
                heuristic: crate::search::heuristic::HeuristicKind::Octile,
                scale: crate::maps::grid::CostScale::FINE,
                store: crate::search::store::StoreKind::Flat,
                role: Role::Trade,
                replay: false,
            };
            self.sentinel = Some(Prepared::new(&suite)?);
        }
        let prepared = self.sentinel.as_ref().expect("prepared above");
        let workload = Workload {
            kind: Kind::Sentinel,
            name: "sentinel".into(),
            ..describe(prepared, Kind::Sentinel)
        };
        let entry = registry::baseline();
        let mut row = workload.row(&self.provenance, entry.id, Some(entry));
        let check = registry::visit(entry.id, CheckQueue { prepared, limit: Duration::MAX })
            .expect("registered")
            .map_err(|u| anyhow::anyhow!("the baseline failed the sentinel suite: {u:?}"))?;
        row.units = prepared.count() as u64;
        row.set_counters(&check.counters);
        let plan = self.plan(Duration::ZERO);
        let reps = [plan.reps(check.pass)];
        let mut entrants = vec![check.entrant(entry.id, row.units)];
        let samples = interleave(&mut entrants, &reps, 9, &mut Shuffler::for_workload("sentinel"));
        row.set_samples(&samples[0].cpu, &samples[0].wall);
        if self.rows.iter().all(|r| r.kind != Kind::Sentinel) {
            self.pace = (row.median_ns / REFERENCE_SENTINEL_NS).max(0.1);
        }
        self.rows.push(row);
        Ok(())
    }

    /// Measures one suite, grid or road: every queue (on grids, with the other loops, the
    /// oracle and peers where it has them), then its replays.
    fn run_suite<P: Searchable>(&mut self, prepared: &P, deadline: Instant) -> Result<()> {
        let workload = describe(prepared, Kind::Astar);
        let suite = prepared.suite();
        let grid = prepared.grid();
        // The oracle replays the baseline's searches: recorded first, as the contenders
        // checked below borrow them.
        let traces = grid
            .filter(|g| g.suite.with_oracle())
            .and_then(|g| searches::record::<pqlab_queues::std_binary_heap::StdBinaryHeap>(g).ok());
        let baseline = registry::baseline();
        let mut checked: Vec<(Row, Check<'_>)> = Vec::new();
        let mut untimed_rows = Vec::new();
        let mut keep = memory::Keep::new(self.settings.memory);
        let check = keep.check(|| {
            registry::visit(baseline.id, CheckQueue { prepared, limit: Duration::MAX })
                .expect("registered")
        });
        let base_pass = match &check {
            Ok(c) => c.pass,
            Err(_) => Duration::MAX,
        };
        let limit = self.limit(base_pass);
        let mut outcomes = vec![(baseline, check)];
        for entry in self.contenders(suite).into_iter().filter(|e| e.id != baseline.id) {
            let check = keep.check(|| {
                registry::visit(entry.id, CheckQueue { prepared, limit }).expect("registered")
            });
            outcomes.push((entry, check));
        }
        for (entry, outcome) in outcomes {
            let mut row = workload.row(&self.provenance, entry.id, Some(entry));
            row.units = prepared.count() as u64;
            match outcome {
                Ok(check) => {
                    row.set_counters(&check.counters);
                    if let Some((mean, max)) = check.excess {
                        (row.excess_mean, row.excess_max) = (Some(mean), Some(max));
                    }
                    checked.push((row, check));
                }
                Err(why) => untimed_rows.push(untimed_row(row, why, base_pass)),
            }
        }
        let baseline_row =
            checked.iter().find(|(r, _)| r.queue == baseline.id).map(|(r, _)| r.clone());

        // pqlab's other search loops: fringe search where the heuristic is admissible
        // (it is exact then), breadth-first search where every move costs the same.
        let mut loops: Vec<(&str, searches::Checking<'_>)> = Vec::new();
        if let Some(grid) = grid.filter(|g| g.suite.with_loops()) {
            if grid.heuristic.admissible() {
                loops.push((Fringe::ID, keep.check(|| searches::check_fringe(grid, limit))));
            }
            match keep.check(|| searches::check_bfs(grid, limit)) {
                Err(Untimed::NotApplicable(_)) => {}
                bfs => loops.push((Bfs::ID, bfs)),
            }
        }
        for (id, outcome) in loops {
            let mut row =
                Workload { kind: Kind::Loop, ..workload.clone() }.row(&self.provenance, id, None);
            row.units = prepared.count() as u64;
            match outcome {
                Ok(check) => {
                    row.set_counters(&check.counters);
                    checked.push((row, check));
                }
                Err(why) => untimed_rows.push(untimed_row(row, why, base_pass)),
            }
        }
        // The oracle (replaying the baseline's recorded searches) and the peers.
        if let (Some(traces), Some(base), Some(grid)) = (&traces, &baseline_row, grid) {
            let oracle = keep.check(|| searches::check_oracle(grid, traces));
            let mut extras: Vec<(&str, Kind, searches::Checking<'_>)> =
                vec![(crate::results::ORACLE, Kind::Oracle, oracle)];
            if grid.suite.with_peers(grid.instance.grid.cells()) {
                extras.push((
                    PathfindingAstar::ID,
                    Kind::Peer,
                    keep.check(|| searches::check_peer::<PathfindingAstar>(grid, limit)),
                ));
                extras.push((
                    PetgraphAstar::ID,
                    Kind::Peer,
                    keep.check(|| searches::check_peer::<PetgraphAstar>(grid, limit)),
                ));
            }
            for (id, kind, outcome) in extras {
                let mut row = Workload { kind, ..workload.clone() }.row(&self.provenance, id, None);
                row.units = base.units;
                copy_counters(&mut row, base);
                match outcome {
                    Ok(check) => {
                        if kind == Kind::Oracle {
                            row.set_counters(&check.counters);
                        }
                        checked.push((row, check));
                    }
                    Err(why) => untimed_rows.push(untimed_row(row, why, base_pass)),
                }
            }
        }
        // With replays, the searches' rounds get two thirds of what the checks left, and
        // the replays (their recording included) the rest.
        let replayed = grid.filter(|g| g.suite.replay);
        let part = if replayed.is_some() { 0.67 } else { 1.0 };
        let rounds = deadline.saturating_duration_since(Instant::now()).mul_f64(part);
        self.time(&workload.name, checked, rounds, 0);
        self.rows.extend(untimed_rows);
        if let Some(grid) = replayed {
            self.run_replays(grid, deadline)?;
        }
        Ok(())
    }

    /// The queues a suite is measured with, by its role: every queue on band, series and
    /// real-map suites; the baseline alone on a trade suite (the yardstick of approximate
    /// order); on a store suite the baseline and the [`STORE_CONTENDERS`] fastest exact
    /// queues of the same searches with the flat store, measured earlier in the run (every
    /// queue when there are none).
    fn contenders(&self, suite: &Suite) -> Vec<&'static Entry> {
        match suite.role {
            Role::Bands | Role::Series | Role::Real => ordered_entries().collect(),
            Role::Trade => vec![registry::baseline()],
            Role::Store => {
                let flat = Suite { store: StoreKind::Flat, ..suite.clone() }.name();
                let mut twins: Vec<&Row> = self
                    .rows
                    .iter()
                    .filter(|r| {
                        r.kind == Kind::Astar
                            && r.workload == flat
                            && r.status == Status::Ok
                            && r.is_exact()
                    })
                    .collect();
                if twins.is_empty() {
                    return ordered_entries().collect();
                }
                twins.sort_by(|a, b| a.median_ns.total_cmp(&b.median_ns));
                let fastest = twins.iter().take(STORE_CONTENDERS).map(|r| r.queue.as_str());
                let mut chosen = vec![registry::baseline()];
                chosen.extend(
                    fastest.filter_map(registry::find).filter(|e| e.id != registry::BASELINE),
                );
                chosen
            }
        }
    }

    /// Times checked contenders interleaved within `share` as rounds' group `group`, and
    /// keeps their rows.
    fn time(
        &mut self,
        workload: &str,
        checked: Vec<(Row, Check<'_>)>,
        share: Duration,
        group: u32,
    ) {
        if checked.is_empty() {
            return;
        }
        let plan = self.plan(share);
        let (mut rows, mut entrants): (Vec<Row>, Vec<Entrant<'_>>) = checked
            .into_iter()
            .map(|(mut row, check)| {
                row.bytes_per_entry = check.bytes_per_entry;
                let entrant = check.entrant(row.queue.clone(), row.units);
                (row, entrant)
            })
            .unzip();
        let reps: Vec<u32> = entrants.iter().map(|e| plan.reps(e.pass)).collect();
        let rounds = plan.rounds(&entrants.iter().map(|e| e.pass).collect::<Vec<_>>());
        let mut shuffler = Shuffler::for_workload(&format!("{workload}#{group}"));
        let samples = interleave(&mut entrants, &reps, rounds, &mut shuffler);
        for (row, samples) in rows.iter_mut().zip(samples) {
            row.set_samples(&samples.cpu, &samples.wall);
            row.set_latencies(&samples.searches, row.units as usize);
            row.group = group;
        }
        self.rows.extend(rows);
    }

    /// Records the suite's searches per strategy and key class, and times every queue
    /// replaying them, done by `deadline`.
    fn run_replays(&mut self, prepared: &Prepared, deadline: Instant) -> Result<()> {
        let workload = describe(prepared, Kind::Replay);
        let searched_workload = describe(prepared, Kind::Astar).name;
        let classes = [
            (Strategy::Duplicates, false),
            (Strategy::Duplicates, true),
            (Strategy::DecreaseKey, false),
            (Strategy::DecreaseKey, true),
        ];
        let mut recorded = Vec::new();
        for (strategy, monotone) in classes {
            let Some(recorder) = replay::recorder(strategy, monotone) else { continue };
            if !searches::takes_keys(recorder.keys, &prepared.heuristic) {
                continue;
            }
            match registry::visit(recorder.id, Record { prepared }).expect("registered") {
                Ok(traces) => recorded.push((strategy, monotone, traces)),
                Err(error) => {
                    eprintln!("pqlab: no traces for {} on {}: {error}", recorder.id, workload.name)
                }
            }
        }
        let mut checked = Vec::new();
        let mut untimed_rows = Vec::new();
        for (strategy, monotone, traces) in &recorded {
            let units = replay::operations(traces);
            let class = ordered_entries().filter(|e| {
                e.is_exact() && e.strategy == *strategy && e.keys.is_monotone() == *monotone
            });
            let mut base: Option<Duration> = None;
            for entry in class {
                let mut row = workload.row(&self.provenance, entry.id, Some(entry));
                copy_counters_from_searches(&mut row, &self.rows, &searched_workload);
                row.units = units;
                let searched = self.rows.iter().find(|r| {
                    r.kind == Kind::Astar && r.workload == searched_workload && r.queue == entry.id
                });
                if let Some(status) = searched.map(|r| r.status).filter(|s| *s != Status::Ok) {
                    let note =
                        format!("not replayed: its whole searches here were {}", status.name());
                    untimed_rows.push(untimed(row, status, note));
                    continue;
                }
                let limit = base.map_or(Duration::MAX, |b| self.limit(b));
                let check = replay::CheckReplay { traces, limit };
                match registry::visit(entry.id, check).expect("registered") {
                    Ok(check) => {
                        base.get_or_insert(check.pass);
                        checked.push((row, check));
                    }
                    Err(why) => {
                        untimed_rows.push(untimed_row(row, why, base.unwrap_or(Duration::MAX)))
                    }
                }
            }
        }
        let rounds = deadline.saturating_duration_since(Instant::now());
        self.time(&workload.name, checked, rounds, 0);
        self.rows.extend(untimed_rows);
        Ok(())
    }

    /// Measures every exact queue held at `size` entries, in groups that fit the memory
    /// limit ([`Settings::memory`]), each group with the baseline.
    ///
    /// The baseline is held first (it is never cut off); each other queue's memory at this
    /// size is estimated from a probe fill a tenth the size ([`synthetic::Probe`]) times
    /// [`synthetic::MEMORY_MARGIN`], and what the size needs is printed before any other queue is
    /// filled. The queues are then held in id order: when the next one would take the
    /// group's bytes (counted by the lab's allocator) past the limit, the group is timed
    /// and dropped, and a new one starts with a new baseline. A queue that would not fit
    /// beside the baseline alone is not held at this size (`n/a`), nor is any queue when
    /// the baseline alone does not fit. Each group's rounds get the time left until
    /// `deadline` in proportion to its share of the queues not yet timed.
    ///
    /// Cut-offs come from this size alone ([`synthetic::CheckHold`]): the fill and warm-up
    /// limit is [`Settings::slowdown`] times the baseline's fill, warm-up and first pass (or its
    /// `size` operations, if longer: std's heap fills in O(1) a push, an unfair yardstick
    /// alone), the pass limit `slowdown` times the baseline's first pass, each at least
    /// the floor. A stopped pass's row keeps its time over the baseline's pass as `bound`.
    fn run_synthetic(&mut self, size: usize, deadline: Instant) {
        let workload = Workload {
            kind: Kind::Synthetic,
            name: format!("held-{size}"),
            map: "-".into(),
            map_kind: "synthetic".into(),
            real: false,
            heuristic: None,
            scale: None,
            store: None,
            setup: None,
            unit: Unit::Op,
        };
        let row_for = |lab: &Lab, entry: &'static Entry| {
            let mut row = workload.row(&lab.provenance, entry.id, Some(entry));
            row.units = synthetic::BATCH;
            row.max_open = size as f64;
            row
        };
        let hold = |entry: &'static Entry, fill_limit, pass_limit| {
            let check = synthetic::CheckHold { size, fill_limit, pass_limit };
            registry::visit(entry.id, check).expect("registered")
        };
        // The bytes a queue is expected to hold at this size, from a probe a tenth the size.
        let estimate = |entry: &'static Entry, limit| {
            let probe = synthetic::Probe { size: (size / 10).max(1), limit };
            let per_entry = registry::visit(entry.id, probe).expect("registered");
            per_entry.map(|b| b * size as f64 * synthetic::MEMORY_MARGIN)
        };
        let memory = self.settings.memory as f64;
        let mib = |bytes: f64| format!("{:.1} MiB", bytes / f64::from(1 << 20));
        let not_held = |lab: &Lab, entry, needs: f64, beside: &str| {
            let note = format!(
                "not held: needs about {}{beside}, over the memory limit of {} (PQLAB_MEMORY)",
                mib(needs),
                mib(memory)
            );
            untimed(row_for(lab, entry), Status::NotApplicable, note)
        };

        let baseline = registry::baseline();
        let others: Vec<&'static Entry> =
            ordered_entries().filter(|e| e.id != baseline.id).collect();
        if let Some(needs) = estimate(baseline, Duration::MAX).filter(|b| *b > memory) {
            eprintln!(
                "pqlab: held-{size} is not held: the baseline alone needs about {}",
                mib(needs)
            );
            let rows: Vec<Row> = std::iter::once(baseline)
                .chain(others.iter().copied())
                .map(|e| not_held(self, e, needs, " for the baseline"))
                .collect();
            self.rows.extend(rows);
            return;
        }
        let started = Instant::now();
        let first = match hold(baseline, Duration::MAX, Duration::MAX) {
            Ok(check) => check,
            Err(stopped) => {
                let row = stopped_row(row_for(self, baseline), stopped, Duration::MAX);
                self.rows.push(row);
                return;
            }
        };
        let base_pass = first.pass;
        let base_ns = base_pass.as_secs_f64() * 1e9 / synthetic::BATCH as f64;
        let yardstick =
            started.elapsed().max(Duration::from_secs_f64(base_ns * 1e-9 * size as f64));
        let (fill_limit, pass_limit) = (self.limit(yardstick), self.limit(base_pass));
        let held_bytes = |check: &Check<'_>| {
            let per_entry = check.bytes_per_entry.unwrap_or(0.0);
            (per_entry + synthetic::HOLD_BYTES_PER_ENTRY as f64) * size as f64
        };
        let base_bytes = held_bytes(&first);
        let needs: Vec<Option<f64>> =
            others.iter().map(|&e| estimate(e, fill_limit.mul_f64(0.1))).collect();
        let total = base_bytes + needs.iter().flatten().sum::<f64>();
        let largest = needs.iter().flatten().copied().fold(0.0, f64::max);
        eprintln!(
            "pqlab: held-{size} needs about {} for every queue at once (the baseline {}, the \
             largest other {}); the memory limit is {}",
            mib(total),
            mib(base_bytes),
            mib(largest),
            mib(memory)
        );

        let mut untimed_rows = Vec::new();
        let mut group = vec![(row_for(self, baseline), first)];
        let mut group_bytes = base_bytes;
        let mut group_number = 0;
        for (i, (&entry, need)) in others.iter().zip(&needs).enumerate() {
            let need = need.unwrap_or(0.0);
            if base_bytes + need > memory {
                untimed_rows.push(not_held(self, entry, need, " beside the baseline"));
                continue;
            }
            if group_bytes + need > memory && group.len() > 1 {
                group_number += 1;
                let untimed = group.len() + others.len() - i;
                let part = deadline
                    .saturating_duration_since(Instant::now())
                    .mul_f64(group.len() as f64 / untimed as f64);
                self.time(&workload.name, std::mem::take(&mut group), part, group_number);
                match hold(baseline, Duration::MAX, Duration::MAX) {
                    Ok(check) => {
                        group_bytes = held_bytes(&check);
                        group.push((row_for(self, baseline), check));
                    }
                    Err(stopped) => {
                        let row = stopped_row(row_for(self, baseline), stopped, Duration::MAX);
                        untimed_rows.push(row);
                        break;
                    }
                }
            }
            match hold(entry, fill_limit, pass_limit) {
                Ok(check) => {
                    group_bytes += held_bytes(&check);
                    group.push((row_for(self, entry), check));
                }
                Err(stopped) => {
                    untimed_rows.push(stopped_row(row_for(self, entry), stopped, base_pass))
                }
            }
        }
        let number = if group_number > 0 { group_number + 1 } else { 0 };
        let part = deadline.saturating_duration_since(Instant::now());
        self.time(&workload.name, group, part, number);
        self.rows.extend(untimed_rows);
    }

    /// Saves the run: as `runs/<run>.csv` when `complete`, else as the partial run; when
    /// the results folder fails, somewhere that works ([`results::files::rescue`]).
    /// Returns the file and whether it is the rescue.
    pub fn save(&mut self, complete: bool) -> Result<(PathBuf, bool)> {
        let saved = match self.journal.take() {
            Some(journal) => journal.finish(&self.rows, complete),
            None => Err(anyhow::anyhow!("no run id was reserved (Lab::reserve)")),
        };
        match saved {
            Ok(path) => Ok((path, false)),
            Err(error) => {
                let path = results::files::rescue(&self.provenance.run, &self.rows, &error)?;
                eprintln!(
                    "pqlab: saving in {} failed ({error:#}); the run is in {}",
                    self.settings.results_dir.display(),
                    path.display()
                );
                Ok((path, true))
            }
        }
    }
}

/// Records a suite's searches with a registry queue.
struct Record<'a> {
    prepared: &'a Prepared,
}

impl registry::Visitor for Record<'_> {
    type Output = Result<Vec<Trace>, crate::search::astar::SearchError>;

    fn visit<F: pqlab_queues::Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
        searches::record::<F>(self.prepared)
    }
}

/// The registry's entries in id order: the order checks and rows follow (no result depends
/// on it; it only fixes the file's row order).
fn ordered_entries() -> impl Iterator<Item = &'static Entry> {
    let mut entries: Vec<&'static Entry> = registry::ENTRIES.iter().collect();
    entries.sort_by_key(|e| e.id);
    entries.into_iter()
}

/// What the rows of a prepared suite share.
fn describe(prepared: &impl Searchable, kind: Kind) -> Workload {
    let suite = prepared.suite();
    let (map, map_kind, real) = prepared.map();
    Workload {
        kind,
        name: suite.name(),
        map,
        map_kind,
        real,
        heuristic: Some(suite.heuristic),
        scale: Some(suite.scale),
        store: Some(suite.store),
        setup: Some(suite.setup),
        unit: if kind == Kind::Replay { Unit::Op } else { Unit::Search },
    }
}

/// `row` marked with why it was not timed; a cut-off row gets its censored bound, the
/// stopped pass's time over `base` (the baseline's whole pass on the same workload).
fn untimed_row(row: Row, why: Untimed, base: Duration) -> Row {
    match why {
        Untimed::NotApplicable(note) => untimed(row, Status::NotApplicable, note),
        Untimed::Failed(note) => untimed(row, Status::Failed, note),
        Untimed::CutOff { note, ran } => {
            let mut row = untimed(row, Status::CutOff, note);
            row.bound = (base > Duration::ZERO && base < Duration::MAX)
                .then(|| ran.as_secs_f64() / base.as_secs_f64());
            row
        }
    }
}

/// The row of a suite that could not be prepared (a malformed map): the baseline's, failed,
/// with the error as its note.
fn failed_suite(suite: &Suite, provenance: &Provenance, error: &anyhow::Error) -> Row {
    let (map, map_kind, real) = match &suite.source {
        suites::Source::Generated { map, .. } => (map.to_string(), "generated", false),
        suites::Source::Road { spec, .. } => (spec.to_string(), "road", false),
        suites::Source::MovingAi { map, .. } => (map.display().to_string(), "movingai", true),
    };
    let workload = Workload {
        kind: Kind::Astar,
        name: suite.name(),
        map,
        map_kind: map_kind.into(),
        real,
        heuristic: Some(suite.heuristic),
        scale: Some(suite.scale),
        store: Some(suite.store),
        setup: Some(suite.setup),
        unit: Unit::Search,
    };
    let baseline = registry::baseline();
    let row = workload.row(provenance, baseline.id, Some(baseline));
    untimed(row, Status::Failed, format!("not measured: {error:#}"))
}

/// `row` marked with why its held queue was not timed: a stopped fill or warm-up has no
/// bound (no operation was timed); otherwise as [`untimed_row`], over the baseline's pass `base`.
fn stopped_row(row: Row, stopped: synthetic::Stopped, base: Duration) -> Row {
    match stopped {
        synthetic::Stopped::Untimed(why) => untimed_row(row, why, base),
        synthetic::Stopped::Setup(note) => untimed(row, Status::CutOff, note),
    }
}

/// Copies the search counters of `from` (the same problems, searched by the baseline).
fn copy_counters(row: &mut Row, from: &Row) {
    row.expansions = from.expansions;
    row.pushes = from.pushes;
    row.pops = from.pops;
    row.stale_pops = from.stale_pops;
    row.decrease_keys = from.decrease_keys;
    row.reopenings = from.reopenings;
    row.max_frontier = from.max_frontier;
    row.max_open = from.max_open;
    row.open_p50 = from.open_p50;
    row.open_p90 = from.open_p90;
    row.open_p99 = from.open_p99;
    row.open_max = from.open_max;
}

/// A replay row's sizes: those of the same queue's searches of the suite (its recorded
/// searches), or the baseline's.
fn copy_counters_from_searches(row: &mut Row, rows: &[Row], workload: &str) {
    let searched = |queue: &str| {
        rows.iter().find(|r| {
            r.kind == Kind::Astar
                && r.workload == workload
                && r.queue == queue
                && r.status == Status::Ok
        })
    };
    if let Some(from) = searched(&row.queue).or_else(|| searched(registry::BASELINE)) {
        let units = row.units;
        copy_counters(row, from);
        row.units = units;
    }
}

/// Whether the binary was started to list or test the benchmarks rather than measure
/// them (`cargo bench -- --list`, `cargo test --benches`): then nothing is saved.
pub fn measuring(args: &[String]) -> bool {
    !args.iter().any(|a| a == "--list" || a == "--test")
}
