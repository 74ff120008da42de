//! The lab: what `cargo bench` runs. Every queue on every workload, checked before it is
//! timed, timed interleaved with the others; the queue alone on recorded traces and on a
//! synthetic workload; the peers and the oracle floor; a sentinel that re-measures the
//! baseline through the run; then one CSV per run and the report.
//!
//! # What is measured, in order
//!
//! 1. **The sentinel**: the baseline on one small fixed workload, measured at the start, after
//!    every few workloads and at the end ([`Kind::Sentinel`] rows): the run's drift and noise.
//! 2. **Each workload** ([`workloads`]), smallest first:
//!    - *Check.* Every queue (and on band workloads the oracle and the peers) solves every
//!      problem once, untimed, with the answer checked ([`searches`]). A wrong answer or a
//!      rejected key makes a `failed` row, a queue that cannot take the keys an `n/a` row,
//!      and one far too slow a `cut-off` row; none of them is timed. The check pass also
//!      gives the counters and the frontier sizes.
//!    - *Time.* The checked contenders are timed together in rounds, each round in a
//!      fresh random order, on the thread's CPU clock with wall time beside: a
//!      [`contest::Contest`], which only a passed check enters ([`sampler`] times it).
//!    - *The queue alone*, on workloads marked for it: their searches recorded and replayed
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
//! every workload before anything is measured: [`budget`]). A slower machine so takes fewer
//! rounds rather than more time; the floors still to come are scaled by how the floors so
//! far took against their estimates ([`budget::BudgetShares`]), so the run overruns its budget
//! only by what the floors need beyond it (the README's runs table gives each committed
//! run's time measured). No queue is cut off for the machine's speed: cut-offs
//! compare a queue's pass with the baseline's on the same workload.
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
pub mod contest;
mod held;
pub mod measure;
pub mod memory;
pub mod ondemand;
pub mod replay;
pub mod rows;
pub mod sampler;
pub mod searches;
pub mod settings;
#[cfg(test)]
pub mod sim;
pub mod synthetic;
pub mod workloads;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use pqlab_queues::registry;

use crate::results::{self, Kind, Provenance, Row, Status, Unit};
use contest::Contest;
pub use measure::RACE_FACTOR;
use rows::{describe, untimed, WorkloadFacts};
use searches::{AnyPrepared, CheckQueue, Prepared, Searchable};
pub use settings::{Profile, Settings};
use workloads::{Role, WorkloadSpec};

/// The sentinel's median on the reference machine (an Intel Xeon, 2 cores): the lab's pace
/// is this machine's first sentinel over it, and scales the cut-off floor, so a slower
/// machine cuts off the same queues. Measured on two quiet runs there (METHODOLOGY.md):
/// 16.2 and 16.6 µs (the median of each run's seven sentinels).
const REFERENCE_SENTINEL_NS: f64 = 16_300.0;

/// The lab's state over one run.
pub struct Lab {
    /// How much to measure.
    pub settings: Settings,
    /// The run's machine, compiler and revision.
    pub provenance: Provenance,
    rows: Vec<Row>,
    started: Instant,
    /// The budget's shares for the workloads and sizes not yet measured.
    shares: budget::BudgetShares,
    /// This machine's first sentinel median over the reference machine's (`None` before
    /// the first sentinel: a pace of 1).
    pace: Option<f64>,
    sentinel: Option<Prepared>,
    /// What later workloads use of the workloads measured so far.
    measured: Vec<measure::Measured>,
    /// The run's partial file, saved as each workload ends (after [`Lab::reserve`]).
    journal: Option<results::Journal>,
    /// Whether saving the partial run failed already (said once).
    journal_failed: bool,
}

/// Rounds of one sentinel measurement: nine samples of the baseline alone give its median
/// and quartiles, at about 9 × 5 ms a measurement. Chosen, not tuned.
const SENTINEL_ROUNDS: u32 = 9;

/// Workloads between two sentinel measurements. Chosen, not tuned: a default run takes a
/// dozen or more sentinels, enough for the drift's interquartile range, at about a
/// twentieth of a second each.
const SENTINEL_EVERY: usize = 8;

impl Lab {
    /// A lab with `settings`.
    pub fn new(settings: Settings) -> Lab {
        let provenance = Provenance::detect(settings.run_suffix(), &settings.conditions);
        Lab {
            settings,
            provenance,
            rows: Vec::new(),
            started: Instant::now(),
            shares: budget::BudgetShares::new([]),
            pace: None,
            sentinel: None,
            measured: Vec::new(),
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

    /// Measures `workloads` and the synthetic workload at the held `sizes`, with sentinels.
    pub fn run(&mut self, specs: &[WorkloadSpec], sizes: &[usize]) -> Result<()> {
        let real = specs.iter().filter(|s| s.role == Role::Real).count();
        let budget = self.settings.budget
            + if real > 0 { self.settings.maps_budget } else { Duration::ZERO };
        // Every workload is prepared and its baseline checked before anything is measured:
        // the shares of the budget follow what a round of each costs, and a malformed map
        // is said now, and gets a failed row in its turn.
        eprintln!("pqlab: checking the baseline on {} workloads to share the budget", specs.len());
        let estimate = budget::Estimate::of(specs);
        eprintln!("pqlab: done in {:.0} s", estimate.took.as_secs_f64());
        let mut broken = HashMap::new();
        let (sample, min_rounds) = (self.settings.sample, self.settings.min_rounds);
        let weights: Vec<(f64, f64)> = specs
            .iter()
            .zip(estimate.passes)
            .map(|(spec, pass)| match pass {
                Ok(pass) => (
                    budget::weight(spec, pass, sample),
                    budget::floor(spec, pass, sample, min_rounds),
                ),
                Err(error) => {
                    eprintln!("pqlab: {error:#}: this map will not be measured");
                    broken.insert(spec.name(), error);
                    (0.0, 0.0)
                }
            })
            .collect();
        let held = (budget::synthetic_weight(sample), budget::synthetic_floor(sample, min_rounds));
        self.shares = budget::BudgetShares::new(
            weights.iter().copied().chain(std::iter::repeat_n(held, sizes.len())),
        );
        self.sentinel()?;
        self.checkpoint("the first sentinel");
        for (i, spec) in specs.iter().enumerate() {
            eprintln!(
                "pqlab: [{}/{}] {} ({:.0} s so far, {:.0} s left)",
                i + 1,
                specs.len(),
                spec.name(),
                self.elapsed_secs(),
                self.left(budget).as_secs_f64()
            );
            let started = Instant::now();
            let deadline = self.deadline(weights[i], budget);
            let beyond_floor =
                match broken.remove(&spec.name()).map_or_else(|| AnyPrepared::new(spec), Err) {
                    Ok(AnyPrepared::Grid(prepared)) => self.measure(&prepared, deadline),
                    Ok(AnyPrepared::Road(prepared)) => self.measure(&prepared, deadline),
                    Err(error) => {
                        eprintln!("pqlab: {error:#}: a failed row, and on to the next workload");
                        self.rows.push(failed_workload(spec, &self.provenance, &error));
                        Duration::ZERO
                    }
                };
            let floor = started.elapsed().saturating_sub(beyond_floor);
            self.shares.floor_took(weights[i].1, floor.as_secs_f64());
            self.checkpoint(&spec.name());
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
            let rows = held::measure(self.view(), size, deadline);
            self.rows.extend(rows);
            self.checkpoint(&format!("held-{size}"));
        }
        self.sentinel()?;
        self.checkpoint("the last sentinel");
        Ok(())
    }

    /// Measures one workload by `deadline` ([`measure::Measuring`]) and keeps its rows and
    /// what later workloads use of it; returns the time it took beyond its floor.
    fn measure<P: Searchable>(&mut self, prepared: &P, deadline: Instant) -> Duration {
        let (timed, measured) = measure::Measuring { lab: self.view() }.spec(prepared, deadline);
        self.measured.push(measured);
        self.rows.extend(timed.rows);
        timed.beyond_floor
    }

    /// When a workload of `(weight, floor)`, starting now, must be done: its share of the
    /// time left ([`budget::BudgetShares`]).
    fn deadline(&mut self, (weight, floor): (f64, f64), budget: Duration) -> Instant {
        let share = self.shares.next(self.left(budget).as_secs_f64(), weight, floor);
        Instant::now() + Duration::from_secs_f64(share.clamp(0.0, 1e9))
    }

    /// What measuring one workload reads of the lab.
    fn view(&self) -> measure::LabView<'_> {
        measure::LabView {
            settings: &self.settings,
            provenance: &self.provenance,
            pace: self.pace.unwrap_or(1.0),
            measured: &self.measured,
        }
    }

    /// Measures the baseline on the sentinel workload: one `sentinel` row.
    fn sentinel(&mut self) -> Result<()> {
        if self.sentinel.is_none() {
            let spec = WorkloadSpec {
                source: workloads::Source::Generated {
                    map: "random-d20-64-s1".parse().expect("a map name"),
                    problems: 20,
                },
                series: crate::search::Series::OCTILE,
                role: Role::Trade,
                replay: false,
            };
            self.sentinel = Some(Prepared::new(&spec)?);
        }
        let prepared = self.sentinel.as_ref().expect("prepared above");
        let workload = WorkloadFacts {
            kind: Kind::Sentinel,
            name: "sentinel".into(),
            ..describe(prepared, Kind::Sentinel)
        };
        let entry = registry::baseline();
        let mut row = workload.row(&self.provenance, entry.id, Some(entry));
        let check = registry::visit(entry.id, CheckQueue { prepared, limit: Duration::MAX })
            .expect("registered")
            .map_err(|u| anyhow::anyhow!("the baseline failed the sentinel workload: {u:?}"))?;
        row.units = prepared.count() as u64;
        row.set_counters(&check.counters);
        let mut contest = Contest::new("sentinel", self.settings.sample);
        contest.enter((), row.units, check);
        contest.time(SENTINEL_ROUNDS);
        let ((), samples) = contest.finish().pop().expect("the baseline entered");
        samples.write(&mut row);
        self.pace.get_or_insert((row.median_ns / REFERENCE_SENTINEL_NS).max(0.1));
        self.rows.push(row);
        Ok(())
    }

    /// Saves the run: as `runs/<run>.csv` when `complete` (every row then carries the run's
    /// measuring time and peak memory), else as the partial run; when
    /// the results folder fails, somewhere that works ([`results::files::rescue`]).
    /// Returns the file and whether it is the rescue.
    pub fn save(&mut self, complete: bool) -> Result<(PathBuf, bool)> {
        if complete {
            let (measured, peak) = (self.elapsed_secs(), memory::peak_rss_mib());
            for row in &mut self.rows {
                (row.measured_s, row.peak_rss_mib) = (Some(measured), peak);
            }
        }
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

/// The row of a workload that could not be prepared (a malformed map): the baseline's, failed,
/// with the error as its note.
fn failed_workload(spec: &WorkloadSpec, provenance: &Provenance, error: &anyhow::Error) -> Row {
    let (map, map_kind, real) = match &spec.source {
        workloads::Source::Generated { map, .. } | workloads::Source::Unreachable { map, .. } => {
            (map.to_string(), "generated", false)
        }
        workloads::Source::Road { spec: road, .. } => (road.to_string(), "road", false),
        workloads::Source::MovingAi { map, .. } => (map.display().to_string(), "movingai", true),
    };
    let workload = WorkloadFacts {
        kind: Kind::Astar,
        name: spec.name(),
        map,
        map_kind: map_kind.into(),
        real,
        series: Some(spec.series),
        unit: Unit::Search,
    };
    let baseline = registry::baseline();
    let row = workload.row(provenance, baseline.id, Some(baseline));
    untimed(row, Status::Failed, format!("not measured: {error:#}"))
}

/// Whether the binary was started to list or test the benchmarks rather than measure
/// them (`cargo bench -- --list`, `cargo test --benches`): then nothing is saved.
pub fn measuring(args: &[String]) -> bool {
    !args.iter().any(|a| a == "--list" || a == "--test")
}
