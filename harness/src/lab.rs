//! The lab: what `cargo bench` runs. Every queue on every scenario suite, checked before
//! it is timed; the queue alone on recorded traces and on a synthetic workload; the peers
//! and the oracle floor; then one CSV per run and the report.
//!
//! # What is measured, in order
//!
//! For each suite (smallest frontiers first):
//! 1. **Check.** Every queue solves every problem once, untimed. A wrong cost or a rejected
//!    key makes a `failed` row with the reason, and the queue is not timed on that suite.
//!    This pass also gives the counters (expansions, pushes, ...) and the frontier sizes.
//! 2. **Time.** Criterion times whole passes over the suite's problems
//!    (`suite/queue/heuristic`); the row holds our own samples' median and quartiles per
//!    search.
//! 3. **The queue alone.** The searches' frontier operations are recorded once per strategy
//!    and key rule, personalised to each queue ([`crate::search::trace`]) and replayed
//!    (`replay/suite/queue`); times are per operation.
//! 4. **The floor and the peers.** The same A* with the [`Oracle`] frontier, and the A* of
//!    the `pathfinding` and `petgraph` crates, checked and timed the same way.
//!
//! Then the synthetic workload ([`crate::lab::synthetic`]): frontiers held at fixed sizes
//! from 10 to 10,000,000, with key increments and the decrease-key share measured above.
//!
//! # Cut-offs
//!
//! A queue that would run far too long is not timed and gets a `cut-off` row saying why.
//! "Far too long" is a pass over the suite's problems taking more than the profile's
//! budget (1 s) *and* more than [`Settings::slowdown`] (8) times the baseline's pass (the
//! baseline, `std-binary-heap-dup`, is never cut off), since timing costs about 12 passes.
//! Before a suite, a queue whose time relative to the baseline grew with the frontier is
//! predicted from its last suite (its ratio to the baseline, scaled by the growth of the
//! frontier) and cut off if the prediction is far too long. A check pass that turns out
//! far too long anyway is stopped after the problem that crossed the limit.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{Frontier, Strategy};

use crate::maps::generate::{self, MapKind, MapSpec};
use crate::maps::grid::{CostScale, Grid};
use crate::maps::moves::Components;
use crate::maps::movingai;
use crate::maps::scenario::Problem;
use crate::results::{self, Kind, Provenance, Row, Spread, Status};
use crate::search::astar::{AStar, Counters, Outcome, Rules, SearchError};
use crate::search::heuristic::{AnyHeuristic, HeuristicKind};
use crate::search::peers::{PathfindingAstar, Peer, PetgraphAstar};
use crate::search::trace::{replay, Op, Oracle, Recorder, Trace};
use crate::validate::sample;

pub mod synthetic;

/// How much the lab measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The default `cargo bench`: every suite, synthetic sizes up to 10,000,000. The
    /// budget is 15 minutes on 2 cores, build included; the committed run measured for
    /// 693 s (11.6 min) after a 2-minute build from a fresh clone.
    Full,
    /// `PQLAB_QUICK=1`: small suites and short measurements, a smoke test of the whole
    /// pipeline (under 2 minutes once built).
    Quick,
}

/// The knobs of a profile.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The profile.
    pub profile: Profile,
    /// Criterion's warm-up per benchmark.
    pub warm_up: Duration,
    /// Criterion's measurement time per benchmark.
    pub measure: Duration,
    /// Samples per benchmark (criterion's minimum is 10).
    pub samples: usize,
    /// A pass over a suite's problems longer than this and than `slowdown` times the
    /// baseline's pass is far too long: its queue is cut off there.
    pub budget: Duration,
    /// See `budget`.
    pub slowdown: f64,
    /// The longest filling a synthetic frontier may take before its queue is cut off.
    pub fill_budget: Duration,
    /// Synthetic workload sizes.
    pub synthetic_sizes: Vec<usize>,
    /// Where the run's CSV and the report go.
    pub results_dir: PathBuf,
    /// Moving AI maps to add as suites (`PQLAB_MAPS`).
    pub maps: Option<PathBuf>,
}

impl Settings {
    /// The settings of `profile`, reading `PQLAB_MAPS` and `PQLAB_RESULTS` from the
    /// environment.
    pub fn from_env(profile: Profile) -> Settings {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let results_dir = std::env::var_os("PQLAB_RESULTS")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("results"));
        let maps = std::env::var_os("PQLAB_MAPS").map(PathBuf::from);
        match profile {
            Profile::Full => Settings {
                profile,
                warm_up: Duration::from_millis(50),
                measure: Duration::from_millis(350),
                samples: 10,
                budget: Duration::from_secs(1),
                slowdown: 8.0,
                fill_budget: Duration::from_secs(8),
                synthetic_sizes: vec![10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000],
                results_dir,
                maps,
            },
            Profile::Quick => Settings {
                profile,
                warm_up: Duration::from_millis(20),
                measure: Duration::from_millis(60),
                samples: 10,
                budget: Duration::from_millis(250),
                slowdown: 8.0,
                fill_budget: Duration::from_secs(2),
                synthetic_sizes: vec![10, 1_000, 100_000],
                results_dir: results_dir.join("quick"),
                maps,
            },
        }
    }
}

/// Where a suite's map and problems come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A built-in generated map with `problems` generated problems (exact expected costs).
    Generated {
        /// The map.
        map: MapSpec,
        /// How many problems.
        problems: usize,
    },
    /// A Moving AI map and scenario, sampled to `problems` problems.
    MovingAi {
        /// The `.map` file.
        map: PathBuf,
        /// The `.map.scen` file.
        scen: PathBuf,
        /// How many problems, spread over the buckets.
        problems: usize,
    },
}

/// A scenario suite: a map, problems on it, the movement rules and the heuristic.
#[derive(Clone, Debug)]
pub struct Suite {
    /// A stable name, used in benchmark ids and results.
    pub name: String,
    /// The scenario family (`maze`, `movingai-dao`, ...).
    pub family: String,
    /// The map and problems.
    pub source: Source,
    /// The heuristic.
    pub heuristic: HeuristicKind,
    /// The movement rules.
    pub rules: Rules,
}

fn generated(
    kind: MapKind,
    size: u32,
    problems: usize,
    heuristic: HeuristicKind,
    scale: CostScale,
) -> Suite {
    let map = MapSpec { kind, size, seed: 1 };
    let family = map.to_string().split('-').next().unwrap_or("generated").to_owned();
    let mut name = map.to_string();
    if heuristic != HeuristicKind::Octile {
        name = format!("{name}-{heuristic}");
    }
    if scale != CostScale::FINE {
        name = format!("{name}-{}", scale.name());
    }
    Suite {
        name,
        family,
        source: Source::Generated { map, problems },
        heuristic,
        rules: Rules { scale, ..Rules::default() },
    }
}

/// The built-in suites of a profile, smallest frontiers first. Together they span
/// maximum frontiers from about 10 to beyond 100,000 open cells: small maps under the
/// octile heuristic, larger ones under Dijkstra (zero heuristic), whose frontier is the
/// whole wave front, and rugged terrain, whose front is a thick band. Two suites repeat
/// with the coarse cost scale (10/14), whose small key span is what bucket queues need.
///
/// Problem counts are set so each suite's baseline pass takes roughly 20 to 150 ms: every
/// queue runs each suite about 12 times (a check pass, a warm-up, 10 samples), and the
/// whole default run is meant to stay within 15 minutes on 2 cores (`pqlab suites` prints each
/// suite's frontier sizes and pass time).
pub fn builtin_suites(profile: Profile) -> Vec<Suite> {
    use HeuristicKind::{Octile, Zero};
    let (fine, coarse) = (CostScale::FINE, CostScale::COARSE);
    match profile {
        Profile::Full => vec![
            generated(MapKind::Random { density: 20 }, 32, 100, Octile, fine),
            generated(MapKind::Maze { corridor: 4 }, 256, 6, Octile, fine),
            generated(MapKind::Rooms { room: 8 }, 128, 40, Octile, fine),
            generated(MapKind::Random { density: 25 }, 256, 30, Octile, fine),
            generated(MapKind::Random { density: 25 }, 256, 30, Octile, coarse),
            generated(MapKind::Cave { fill: 45, steps: 4 }, 512, 12, Octile, fine),
            generated(MapKind::Rooms { room: 32 }, 512, 3, Zero, fine),
            generated(MapKind::Weighted { feature: 16 }, 512, 1, Zero, fine),
            generated(MapKind::Rugged { heavy: 4 }, 384, 1, Zero, fine),
            generated(MapKind::Rugged { heavy: 10 }, 512, 1, Zero, fine),
            generated(MapKind::Rugged { heavy: 30 }, 512, 1, Zero, fine),
            generated(MapKind::Rugged { heavy: 30 }, 512, 1, Zero, coarse),
            generated(MapKind::Rugged { heavy: 55 }, 1100, 1, Zero, fine),
        ],
        Profile::Quick => vec![
            generated(MapKind::Random { density: 20 }, 32, 50, Octile, fine),
            generated(MapKind::Maze { corridor: 4 }, 128, 10, Octile, fine),
            generated(MapKind::Rugged { heavy: 30 }, 256, 1, Zero, coarse),
        ],
    }
}

/// One suite per Moving AI map under `dir`.
pub fn movingai_suites(dir: &Path, problems: usize) -> Result<Vec<Suite>> {
    Ok(movingai::find_maps(dir)?
        .into_iter()
        .map(|(map, scen)| {
            let name = map.file_stem().map_or("map".into(), |s| s.to_string_lossy().into_owned());
            let set = map
                .parent()
                .and_then(|p| p.file_name())
                .map_or("movingai".into(), |s| s.to_string_lossy().into_owned());
            Suite {
                name: format!("movingai-{set}-{name}"),
                family: format!("movingai-{set}"),
                source: Source::MovingAi { map, scen, problems },
                heuristic: HeuristicKind::Octile,
                rules: Rules::default(),
            }
        })
        .collect())
}

/// A suite ready to run: everything parsed, built and allocated before timing.
pub struct Prepared {
    /// The suite.
    pub suite: Suite,
    /// Its map.
    pub grid: Grid,
    /// Its problems.
    pub problems: Vec<Problem>,
    /// The map's components.
    pub components: Components,
    /// The heuristic, built for the map.
    pub heuristic: AnyHeuristic,
}

impl Prepared {
    /// Solves `problem` with `search`, components checked first.
    #[inline]
    pub fn solve<F: Frontier>(
        &self,
        search: &mut AStar<F>,
        heuristic: &mut AnyHeuristic,
        problem: &Problem,
    ) -> Result<Outcome, SearchError> {
        search.search(&self.grid, heuristic, Some(&self.components), problem.start, problem.goal)
    }
}

impl Suite {
    /// Builds the map, the problems and the heuristic.
    pub fn prepare(&self) -> Result<Prepared> {
        let (grid, problems) = match &self.source {
            Source::Generated { map, problems } => {
                let grid = map.build();
                let problems = generate::problems(
                    &grid,
                    self.rules.connectivity,
                    self.rules.scale,
                    *problems,
                    map.seed,
                );
                (grid, problems)
            }
            Source::MovingAi { map, scen, problems } => {
                let grid = movingai::parse_map(map)?;
                let all = movingai::parse_scen(scen, &grid)?;
                (grid, sample(&all, Some(*problems)))
            }
        };
        anyhow::ensure!(!problems.is_empty(), "suite {} has no problems", self.name);
        let components = Components::new(&grid);
        let heuristic =
            AnyHeuristic::new(self.heuristic, &grid, self.rules.connectivity, self.rules.scale);
        Ok(Prepared { suite: self.clone(), grid, problems, components, heuristic })
    }
}

/// Collects the durations criterion's `iter_custom` routine measured. Criterion runs the
/// warm-up calls first and then exactly `sample_size` calls, so the last `sample_size`
/// entries are the samples: the one place this module relies on how criterion drives a
/// routine.
#[derive(Default)]
struct Samples(RefCell<Vec<f64>>);

impl Samples {
    /// Records one call: `elapsed` for `iters` iterations of `units` units each.
    fn record(&self, elapsed: Duration, iters: u64, units: u64) {
        self.0.borrow_mut().push(elapsed.as_nanos() as f64 / (iters * units.max(1)) as f64);
    }

    /// The spread of the last `n` calls, or `None` when criterion skipped the benchmark
    /// (a filter on the command line).
    fn spread(&self, n: usize) -> Option<(Spread, u32)> {
        let all = self.0.borrow();
        if all.is_empty() {
            return None;
        }
        let samples = &all[all.len().saturating_sub(n)..];
        Some((Spread::of(samples), samples.len() as u32))
    }
}

/// The means of counters over searches.
fn mean_counters(all: &[Counters]) -> [f64; 8] {
    let n = all.len().max(1) as f64;
    let sum = |f: fn(&Counters) -> u64| all.iter().map(f).sum::<u64>() as f64 / n;
    [
        sum(|c| c.expansions),
        sum(|c| c.pushes),
        sum(|c| c.pops),
        sum(|c| c.stale_pops),
        sum(|c| c.decrease_keys),
        sum(|c| c.reopenings),
        sum(|c| c.max_frontier),
        sum(|c| c.max_open),
    ]
}

/// Where a queue stood after its last suite: for predicting cut-offs.
#[derive(Clone, Copy, Debug)]
struct Standing {
    /// Its check pass time over the baseline's.
    ratio: f64,
    /// The suite's mean most-open cells.
    frontier: f64,
    /// Whether the ratio grew from the suite before (a queue slower with size).
    growing: bool,
}

/// The lab's state over one run.
pub struct Lab {
    /// How much to measure.
    pub settings: Settings,
    /// The run's machine, compiler and revision.
    pub provenance: Provenance,
    criterion: Criterion,
    rows: Vec<Row>,
    standing: std::collections::HashMap<&'static str, Standing>,
    /// Key increments (pushed key minus last popped key) seen in recorded traces.
    increments: Vec<u64>,
    /// Decrease-key pushes and all pushes seen with the baseline decrease-key queue.
    decrease_share: (u64, u64),
    started: Instant,
}

/// A row with the provenance and the registry's columns filled in.
fn row(lab: &Lab, kind: Kind, suite: &Suite, queue: &str, entry: Option<&Entry>) -> Row {
    Row {
        schema: results::SCHEMA_VERSION,
        run: lab.provenance.run.clone(),
        kind,
        suite: suite.name.clone(),
        family: suite.family.clone(),
        heuristic: suite.heuristic.to_string(),
        scale: suite.rules.scale.name(),
        queue: queue.to_owned(),
        queue_family: entry.map_or("-".into(), |e| e.family.to_string()),
        strategy: entry.map_or("-".into(), |e| e.strategy.to_string()),
        keys: entry.map_or("-".into(), |e| e.keys.to_string()),
        status: Status::Ok,
        note: String::new(),
        unit: "search".into(),
        units: 0,
        samples: 0,
        median_ns: 0.0,
        p25_ns: 0.0,
        p75_ns: 0.0,
        min_ns: 0.0,
        max_ns: 0.0,
        expansions: 0.0,
        pushes: 0.0,
        pops: 0.0,
        stale_pops: 0.0,
        decrease_keys: 0.0,
        reopenings: 0.0,
        max_frontier: 0.0,
        max_open: 0.0,
        machine: lab.provenance.machine.clone(),
        rustc: lab.provenance.rustc.clone(),
        git: lab.provenance.git.clone(),
    }
}

fn set_spread(row: &mut Row, (spread, samples): (Spread, u32)) {
    row.samples = samples;
    row.median_ns = spread.median;
    row.p25_ns = spread.p25;
    row.p75_ns = spread.p75;
    row.min_ns = spread.min;
    row.max_ns = spread.max;
}

fn set_counters(row: &mut Row, counters: &[Counters]) {
    let [expansions, pushes, pops, stale, dec, reopen, frontier, open] = mean_counters(counters);
    row.expansions = expansions;
    row.pushes = pushes;
    row.pops = pops;
    row.stale_pops = stale;
    row.decrease_keys = dec;
    row.reopenings = reopen;
    row.max_frontier = frontier;
    row.max_open = open;
}

/// What the check pass of one queue on one suite found.
struct Checked {
    counters: Vec<Counters>,
    elapsed: Duration,
}

/// Solves every problem once with `search`, checking each answer; stops with an error at
/// the first wrong one, and with `Ok(None)` as soon as the pass exceeds `limit` (also on
/// its last problem: a one-problem suite's pass that took too long is not timed either).
fn check_pass<F: Frontier>(
    prepared: &Prepared,
    search: &mut AStar<F>,
    limit: Duration,
) -> Result<Option<Checked>, String> {
    let mut heuristic = prepared.heuristic.clone();
    let started = Instant::now();
    let mut counters = Vec::with_capacity(prepared.problems.len());
    for (i, p) in prepared.problems.iter().enumerate() {
        let outcome =
            prepared.solve(search, &mut heuristic, p).map_err(|e| format!("problem {i}: {e}"))?;
        if !p.expected.accepts(outcome.cost, prepared.suite.rules.scale) {
            return Err(format!(
                "problem {i} {:?} -> {:?}: expected {:?}, found {:?}",
                p.start, p.goal, p.expected, outcome.cost
            ));
        }
        counters.push(outcome.counters);
        if started.elapsed() > limit {
            return Ok(None);
        }
    }
    Ok(Some(Checked { counters, elapsed: started.elapsed() }))
}

/// Runs a whole suite with one registry queue: check, time, record the row.
struct MeasureQueue<'a, 'g> {
    lab: &'a mut Lab,
    group: &'a mut BenchmarkGroup<'g, WallTime>,
    prepared: &'a Prepared,
    baseline: Option<(f64, f64)>,
}

impl Visitor for MeasureQueue<'_, '_> {
    /// The check pass time in seconds, when the queue was measured.
    type Output = Option<(f64, Vec<Counters>)>;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Self::Output {
        let MeasureQueue { lab, group, prepared, baseline } = self;
        let suite = &prepared.suite;
        let mut out = row(lab, Kind::Astar, suite, entry.id, Some(entry));
        out.units = prepared.problems.len() as u64;

        // Predicted cut-off: a queue that grows slower with the frontier, far too slow here.
        let limit = lab.pass_limit(baseline.map(|b| b.0));
        if let (Some(standing), Some((base_secs, frontier))) =
            (lab.standing.get(entry.id), baseline)
        {
            let predicted = standing.ratio * base_secs * (frontier / standing.frontier).max(1.0);
            if standing.growing && predicted > limit.as_secs_f64() {
                out.status = Status::CutOff;
                out.note = format!(
                    "predicted {predicted:.1} s per pass (it ran {:.1}x the baseline at {:.0} open cells, and slows with the frontier); limit {:.1} s",
                    standing.ratio,
                    standing.frontier,
                    limit.as_secs_f64()
                );
                out.max_open = frontier;
                lab.rows.push(out);
                return None;
            }
        }

        let mut search = AStar::<F>::new(&prepared.grid, suite.rules);
        let checked = match check_pass(prepared, &mut search, limit) {
            Err(reason) => {
                out.status = Status::Failed;
                out.note = reason;
                lab.rows.push(out);
                return None;
            }
            Ok(None) => {
                out.status = Status::CutOff;
                out.note =
                    format!("the check pass exceeded the {:.1} s limit", limit.as_secs_f64());
                out.max_open = baseline.map_or(0.0, |b| b.1);
                lab.rows.push(out);
                return None;
            }
            Ok(Some(checked)) => checked,
        };
        set_counters(&mut out, &checked.counters);

        let samples = Samples::default();
        let mut heuristic = prepared.heuristic.clone();
        group.bench_function(format!("{}/{}", entry.id, suite.heuristic), |b| {
            b.iter_custom(|iters| {
                let started = Instant::now();
                for _ in 0..iters {
                    for p in &prepared.problems {
                        let outcome = prepared.solve(&mut search, &mut heuristic, p);
                        std::hint::black_box(outcome.ok());
                    }
                }
                let elapsed = started.elapsed();
                samples.record(elapsed, iters, prepared.problems.len() as u64);
                elapsed
            })
        });
        let spread = samples.spread(lab.settings.samples)?;
        set_spread(&mut out, spread);
        lab.rows.push(out);
        Some((checked.elapsed.as_secs_f64(), checked.counters))
    }
}

/// Records the frontier operations of every problem of a suite with queue `F`.
struct RecordTraces<'a> {
    prepared: &'a Prepared,
}

impl Visitor for RecordTraces<'_> {
    type Output = Result<Vec<Trace>, String>;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Self::Output {
        let prepared = self.prepared;
        let mut search = AStar::<Recorder<F>>::new(&prepared.grid, prepared.suite.rules);
        let mut heuristic = prepared.heuristic.clone();
        let mut traces = Vec::new();
        for p in &prepared.problems {
            prepared
                .solve(&mut search, &mut heuristic, p)
                .map_err(|e| format!("recording with {}: {e}", entry.id))?;
            traces.push(search.frontier().trace().clone());
        }
        Ok(traces)
    }
}

/// Replays a suite's traces against one queue.
struct ReplayQueue<'a, 'g> {
    lab: &'a mut Lab,
    group: &'a mut BenchmarkGroup<'g, WallTime>,
    suite: &'a Suite,
    traces: &'a [Trace],
    max_open: f64,
    /// The seconds the group's first queue took to personalise the traces (a full replay
    /// and more); `None` for that first queue.
    baseline: Option<f64>,
}

impl Visitor for ReplayQueue<'_, '_> {
    /// The seconds personalising the traces took.
    type Output = f64;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> f64 {
        let ReplayQueue { lab, group, suite, traces, max_open, baseline } = self;
        let mut out = row(lab, Kind::Replay, suite, entry.id, Some(entry));
        out.unit = "op".into();
        out.max_open = max_open;
        let started = Instant::now();
        let personal: Result<Vec<Trace>, _> = traces.iter().map(Trace::personalize::<F>).collect();
        let secs = started.elapsed().as_secs_f64();
        let personal = match personal {
            Ok(personal) => personal,
            Err(error) => {
                out.status = Status::Failed;
                out.note = error.to_string();
                lab.rows.push(out);
                return secs;
            }
        };
        // Personalising replays every trace once: a queue far too slow at it is cut off.
        let limit = lab.pass_limit(baseline);
        if secs > limit.as_secs_f64() {
            out.status = Status::CutOff;
            out.note = format!(
                "one pass over the traces took {secs:.1} s, over the {:.1} s limit",
                limit.as_secs_f64()
            );
            lab.rows.push(out);
            return secs;
        }
        let ops: u64 = personal.iter().map(|t| t.ops.len() as u64).sum();
        out.units = ops;
        let mut queues: Vec<F> = personal
            .iter()
            .map(|t| F::new(pqlab_queues::Spec { capacity: t.capacity, span: t.span }))
            .collect();
        let samples = Samples::default();
        group.bench_function(format!("{}/replay", entry.id), |b| {
            b.iter_custom(|iters| {
                let started = Instant::now();
                for _ in 0..iters {
                    for (queue, trace) in queues.iter_mut().zip(&personal) {
                        std::hint::black_box(replay(queue, trace));
                    }
                }
                let elapsed = started.elapsed();
                samples.record(elapsed, iters, ops);
                elapsed
            })
        });
        if let Some(spread) = samples.spread(lab.settings.samples) {
            set_spread(&mut out, spread);
            lab.rows.push(out);
        }
        secs
    }
}

impl Lab {
    /// The longest a queue's pass may take on a suite whose baseline pass took
    /// `baseline` seconds (`None`: this is the baseline, never cut off).
    fn pass_limit(&self, baseline: Option<f64>) -> Duration {
        match baseline {
            None => Duration::MAX,
            Some(secs) => {
                self.settings.budget.max(Duration::from_secs_f64(self.settings.slowdown * secs))
            }
        }
    }

    /// A lab with `settings`; criterion reads its command-line options (filters, `--test`).
    pub fn new(settings: Settings) -> Lab {
        let criterion = Criterion::default()
            .warm_up_time(settings.warm_up)
            .measurement_time(settings.measure)
            .sample_size(settings.samples)
            .nresamples(2_000)
            .without_plots()
            .configure_from_args();
        let suffix = if settings.profile == Profile::Quick { "-quick" } else { "" };
        Lab {
            provenance: Provenance::detect(suffix),
            settings,
            criterion,
            rows: Vec::new(),
            standing: Default::default(),
            increments: Vec::new(),
            decrease_share: (0, 0),
            started: Instant::now(),
        }
    }

    /// Seconds since the lab was created, for progress lines.
    pub fn elapsed_secs(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// The rows measured so far.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Measures one suite: every queue, the traces, the oracle and the peers.
    pub fn run_suite(&mut self, prepared: &Prepared) {
        let suite = &prepared.suite;
        let queues: Vec<&'static Entry> = registry::ENTRIES.iter().collect();
        let mut criterion = std::mem::take(&mut self.criterion);
        let mut group = criterion.benchmark_group(&suite.name);
        group.sampling_mode(SamplingMode::Flat);

        // 1 and 2: check and time every queue; the first entry is the baseline.
        let mut baseline: Option<(f64, f64)> = None;
        let mut measured = Vec::new();
        for entry in &queues {
            let visitor = MeasureQueue { lab: self, group: &mut group, prepared, baseline };
            let result = registry::visit(entry.id, visitor).expect("registered");
            if let Some((secs, counters)) = result {
                let frontier = mean_counters(&counters)[7];
                if baseline.is_none() {
                    baseline = Some((secs, frontier));
                }
                if entry.strategy == Strategy::DecreaseKey && self.decrease_share.1 == 0 {
                    let (dec, pushes) = counters.iter().fold((0, 0), |(d, p), c| {
                        (d + c.decrease_keys, p + c.pushes + c.decrease_keys)
                    });
                    self.decrease_share = (dec, pushes);
                }
                measured.push((*entry, secs, frontier));
            }
        }
        if let Some((base_secs, frontier)) = baseline {
            for &(entry, secs, _) in &measured {
                let ratio = secs / base_secs.max(1e-9);
                let growing = self
                    .standing
                    .get(entry.id)
                    .is_some_and(|s| ratio > s.ratio * 1.5 && ratio > 3.0);
                self.standing.insert(entry.id, Standing { ratio, frontier, growing });
            }
        }
        let max_open = baseline.map_or(0.0, |b| b.1);

        // 3: the queue alone, on traces recorded once per strategy and key rule.
        for strategy in [Strategy::Duplicates, Strategy::DecreaseKey] {
            for monotone in [false, true] {
                let matching =
                    |e: &&&Entry| e.strategy == strategy && e.keys.is_monotone() == monotone;
                let Some(recorder) = queues.iter().find(matching) else { continue };
                let traces = match registry::visit(recorder.id, RecordTraces { prepared })
                    .expect("registered")
                {
                    Ok(traces) => traces,
                    Err(error) => {
                        eprintln!(
                            "pqlab: no traces for {} on {}: {error}",
                            recorder.id, suite.name
                        );
                        continue;
                    }
                };
                if monotone && strategy == Strategy::Duplicates {
                    self.collect_increments(&traces);
                }
                let mut first: Option<f64> = None;
                for entry in queues.iter().filter(matching) {
                    // A queue cut off (or failed) in whole searches is not replayed: its
                    // replay would take about as long. Its row says so.
                    let searched = self
                        .rows
                        .iter()
                        .find(|r| {
                            r.kind == Kind::Astar && r.suite == suite.name && r.queue == entry.id
                        })
                        .map(|r| r.status);
                    match searched {
                        Some(Status::Ok) => {
                            let visitor = ReplayQueue {
                                lab: self,
                                group: &mut group,
                                suite,
                                traces: &traces,
                                max_open,
                                baseline: first,
                            };
                            let secs = registry::visit(entry.id, visitor).expect("registered");
                            first.get_or_insert(secs);
                        }
                        Some(status) => {
                            let mut out = row(self, Kind::Replay, suite, entry.id, Some(entry));
                            out.unit = "op".into();
                            out.max_open = max_open;
                            out.status = status;
                            out.note = format!(
                                "not replayed: its whole searches on this suite were {}",
                                if status == Status::CutOff { "cut off" } else { "failed" }
                            );
                            self.rows.push(out);
                        }
                        None => {} // filtered out on criterion's command line
                    }
                }
                if !monotone && strategy == Strategy::Duplicates {
                    self.oracle(&mut group, prepared, &traces, max_open);
                }
            }
        }

        // 4: the peers.
        let base_secs = baseline.map(|b| b.0);
        self.peer::<PathfindingAstar>(&mut group, prepared, max_open, base_secs);
        self.peer::<PetgraphAstar>(&mut group, prepared, max_open, base_secs);
        group.finish();
        self.criterion = criterion;
    }

    fn collect_increments(&mut self, traces: &[Trace]) {
        const KEEP: usize = 1 << 16;
        for trace in traces {
            let mut floor = None;
            for op in &trace.ops {
                match *op {
                    Op::Pop(_, key) => floor = Some(key),
                    Op::Push(_, key) => {
                        if let Some(floor) = floor {
                            if self.increments.len() < KEEP {
                                self.increments.push(key - floor);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The same A* with the oracle frontier replaying the baseline's pop order.
    fn oracle(
        &mut self,
        group: &mut BenchmarkGroup<'_, WallTime>,
        prepared: &Prepared,
        traces: &[Trace],
        max_open: f64,
    ) {
        let suite = &prepared.suite;
        let mut out = row(self, Kind::Oracle, suite, "oracle", None);
        out.units = prepared.problems.len() as u64;
        out.max_open = max_open;
        let mut search = AStar::<Oracle>::new(&prepared.grid, suite.rules);
        let mut heuristic = prepared.heuristic.clone();
        let mut counters = Vec::new();
        for (p, trace) in prepared.problems.iter().zip(traces) {
            search.frontier_mut().load(trace);
            let outcome = prepared.solve(&mut search, &mut heuristic, p);
            match outcome {
                Ok(o) if p.expected.accepts(o.cost, suite.rules.scale) => counters.push(o.counters),
                other => {
                    out.status = Status::Failed;
                    out.note = format!(
                        "the oracle's search answered {other:?}, expected {:?}",
                        p.expected
                    );
                    self.rows.push(out);
                    return;
                }
            }
        }
        set_counters(&mut out, &counters);
        let samples = Samples::default();
        group.bench_function(format!("oracle/{}", suite.heuristic), |b| {
            b.iter_custom(|iters| {
                let mut elapsed = Duration::ZERO;
                for _ in 0..iters {
                    for (p, trace) in prepared.problems.iter().zip(traces) {
                        search.frontier_mut().load(trace);
                        let started = Instant::now();
                        let outcome = prepared.solve(&mut search, &mut heuristic, p);
                        elapsed += started.elapsed();
                        std::hint::black_box(outcome.ok());
                    }
                }
                samples.record(elapsed, iters, prepared.problems.len() as u64);
                elapsed
            })
        });
        if let Some(spread) = samples.spread(self.settings.samples) {
            set_spread(&mut out, spread);
            self.rows.push(out);
        }
    }

    /// Another crate's A*: checked on every problem, then timed.
    fn peer<P: Peer>(
        &mut self,
        group: &mut BenchmarkGroup<'_, WallTime>,
        prepared: &Prepared,
        max_open: f64,
        baseline: Option<f64>,
    ) {
        let suite = &prepared.suite;
        let mut out = row(self, Kind::Peer, suite, P::ID, None);
        out.units = prepared.problems.len() as u64;
        out.max_open = max_open;
        if suite.heuristic != HeuristicKind::Octile {
            return; // peers run with the octile heuristic only
        }
        let limit = self.pass_limit(baseline);
        let mut peer = P::new(&prepared.grid, suite.rules);
        let started = Instant::now();
        for (i, p) in prepared.problems.iter().enumerate() {
            let cost = peer.search(&prepared.grid, p.start, p.goal);
            if !p.expected.accepts(cost, suite.rules.scale) {
                out.status = Status::Failed;
                out.note = format!("problem {i}: expected {:?}, found {cost:?}", p.expected);
                self.rows.push(out);
                return;
            }
            if started.elapsed() > limit {
                out.status = Status::CutOff;
                out.note =
                    format!("the check pass exceeded the {:.1} s limit", limit.as_secs_f64());
                self.rows.push(out);
                return;
            }
        }
        let samples = Samples::default();
        group.bench_function(format!("{}/octile", P::ID), |b| {
            b.iter_custom(|iters| {
                let started = Instant::now();
                for _ in 0..iters {
                    for p in &prepared.problems {
                        std::hint::black_box(peer.search(&prepared.grid, p.start, p.goal));
                    }
                }
                let elapsed = started.elapsed();
                samples.record(elapsed, iters, prepared.problems.len() as u64);
                elapsed
            })
        });
        if let Some(spread) = samples.spread(self.settings.samples) {
            set_spread(&mut out, spread);
            self.rows.push(out);
        }
    }

    /// Runs the synthetic workload at every size of the profile.
    pub fn run_synthetic(&mut self) {
        let mut criterion = std::mem::take(&mut self.criterion);
        synthetic::run(self, &mut criterion);
        self.criterion = criterion;
    }

    /// Saves the run's rows as a new CSV under the results folder; returns its path.
    pub fn save(&self) -> Result<PathBuf> {
        results::save_run(&self.settings.results_dir, &self.provenance.run, &self.rows)
    }
}

/// Whether criterion was started to list or test the benchmarks rather than measure them
/// (`cargo bench -- --list`, `cargo test --benches`): then nothing is saved.
pub fn criterion_is_measuring() -> bool {
    !std::env::args().any(|a| a == "--list" || a == "--test")
}

/// Every suite of a run: the built-in ones, then one per Moving AI map when `maps` is set.
pub fn suites(settings: &Settings) -> Result<Vec<Suite>> {
    let mut suites = builtin_suites(settings.profile);
    if let Some(dir) = &settings.maps {
        let per_map = if settings.profile == Profile::Quick { 3 } else { 10 };
        suites.extend(movingai_suites(dir, per_map)?);
    }
    Ok(suites)
}

impl Lab {
    /// Key increments for the synthetic workload: those of the recorded traces, or when
    /// none was recorded the A* increments of the coarse scale.
    fn increments_or_default(&self) -> Vec<u64> {
        if self.increments.is_empty() {
            let scale = CostScale::COARSE;
            vec![0, scale.straight as u64, scale.diagonal as u64, 2 * scale.diagonal as u64]
        } else {
            self.increments.clone()
        }
    }

    /// The share of pushes that lowered a held key, with the baseline decrease-key queue.
    fn decrease_share(&self) -> f64 {
        let (dec, all) = self.decrease_share;
        if all == 0 {
            0.0
        } else {
            dec as f64 / all as f64
        }
    }
}

/// Writes the report for the run saved at `csv` into `results_dir`; returns the files.
pub fn publish(results_dir: &Path, csv: &Path) -> Result<Vec<PathBuf>> {
    let rows = results::load_run(csv)?;
    crate::report::generate(results_dir, &rows, csv)
}

#[cfg(test)]
mod tests {
    use pqlab_queues::dary_heap::DaryHeap;
    use pqlab_queues::Dup;

    use super::*;
    use crate::maps::scenario::Expected;

    fn one_problem_suite() -> Prepared {
        let suite = generated(
            MapKind::Random { density: 20 },
            32,
            1,
            HeuristicKind::Octile,
            CostScale::FINE,
        );
        suite.prepare().expect("a generated suite prepares")
    }

    #[test]
    fn a_check_pass_over_its_limit_is_cut_off_even_on_its_last_problem() {
        let prepared = one_problem_suite();
        assert_eq!(prepared.problems.len(), 1);
        let mut search = AStar::<DaryHeap<4, Dup>>::new(&prepared.grid, prepared.suite.rules);
        let within = check_pass(&prepared, &mut search, Duration::MAX).expect("correct answers");
        assert_eq!(within.map(|c| c.counters.len()), Some(1));
        let over = check_pass(&prepared, &mut search, Duration::ZERO).expect("correct answers");
        assert!(over.is_none(), "a pass longer than its limit must not go on to timing");
    }

    #[test]
    fn a_check_pass_rejects_a_wrong_cost() {
        let mut prepared = one_problem_suite();
        let Expected::Cost(cost) = prepared.problems[0].expected else {
            panic!("generated problems expect exact costs")
        };
        prepared.problems[0].expected = Expected::Cost(cost + 1);
        let mut search = AStar::<DaryHeap<4, Dup>>::new(&prepared.grid, prepared.suite.rules);
        let error = check_pass(&prepared, &mut search, Duration::MAX).err().expect("rejected");
        assert!(error.contains("expected"), "{error}");
    }
}
