//! Whole A* searches as contenders: every queue (with the workload's per-cell store), the
//! oracle and the peers, each checked on every problem before it may be timed; on grids
//! ([`Prepared`]) and on road graphs ([`PreparedRoad`]), through the same check-then-time
//! body (`check`, `Timed`), which asks a prepared workload only what [`Searchable`] says.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use pqlab_queues::astar::{astar_dense_with_stats, takes};
use pqlab_queues::registry::{Entry, Visitor};
use pqlab_queues::{Frontier, KeyRule};
use std::cell::Cell;

use super::clock::thread_cpu_ns;
use super::sampler::Contender;
use super::workloads::{Source, WorkloadSpec};
use crate::maps::grid::CostKind;
use crate::maps::instance::Instance;
use crate::maps::moves::{Components, Moves};
use crate::maps::road::{RoadInstance, SCALE as ROAD_SCALE};
use crate::maps::scenario::Expected;
use crate::rng::SplitMix64;
use crate::search::astar::AStar;
use crate::search::check::{self, Checked};
use crate::search::generic;
use crate::search::grid_loop::{GridLoop, Target};
use crate::search::heuristic::{AnyHeuristic, Heuristic, HeuristicKind};
use crate::search::outcome::{Counters, Outcome, SearchError};
use crate::search::peers::{self, Peer, PeerVisitor};
use crate::search::registry::LoopEntry;
use crate::search::stop::{Armed, Ticker};
use crate::search::store::{FlatStore, NodeStore};
use crate::search::trace::{Oracle, Trace};

/// A workload ready to run: everything parsed, generated and built before any timing.
pub struct Prepared {
    /// The workload.
    pub spec: WorkloadSpec,
    /// Its map and problems.
    pub instance: Instance,
    /// The map's components (unreachable goals are answered at once).
    pub components: Components,
    /// The heuristic, built for the map.
    pub heuristic: AnyHeuristic,
    /// The moves under the series' rules, compiled once for every queue's search context.
    pub moves: Moves,
}

impl Prepared {
    /// Builds the map, the problems and the heuristic.
    pub fn new(spec: &WorkloadSpec) -> anyhow::Result<Prepared> {
        let rules = spec.series.rules();
        let instance = match &spec.source {
            Source::Generated { map, problems } => {
                Instance::generated(*map, rules.connectivity, rules.scale, *problems)
            }
            Source::Unreachable { map, problems } => Instance::drawn(*map, |grid| {
                let (moves, scale) = (rules.connectivity, rules.scale);
                crate::maps::generate::unreachable_problems(grid, moves, scale, *problems, map.seed)
            }),
            Source::MovingAi { map, sample } => Instance::movingai(map, None, *sample)?,
            Source::Road { .. } => {
                anyhow::bail!("{} is a road workload, prepared as a road graph", spec.name())
            }
        };
        anyhow::ensure!(!instance.problems.is_empty(), "{} has no problems", spec.name());
        Prepared::with_instance(spec.clone(), instance)
    }

    /// `workload` on an instance already loaded, searched under its series' rules: its
    /// components, its heuristic and its moves built (O(cells) each).
    pub fn with_instance(spec: WorkloadSpec, instance: Instance) -> anyhow::Result<Prepared> {
        let rules = spec.series.rules();
        let components = Components::new(&instance.grid);
        let heuristic = AnyHeuristic::new(
            spec.series.heuristic,
            &instance.grid,
            rules.connectivity,
            rules.scale,
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}", spec.name()))?;
        let moves = Moves::new(&instance.grid, rules.connectivity, rules.scale);
        Ok(Prepared { spec, instance, components, heuristic, moves })
    }

    /// A search context on the map with the workload's compiled moves.
    pub fn search<F: Frontier, S: NodeStore>(&self) -> AStar<F, S> {
        AStar::with_moves(&self.instance.grid, self.moves.clone())
    }

    /// What the workload's search is built for ([`crate::search::grid_loop::Build`]).
    pub fn target(&self) -> Target<'_> {
        Target { grid: &self.instance.grid, moves: &self.moves, series: self.spec.series }
    }
}

/// A road workload ready to run: the graph built and its problems solved by the reference
/// Dijkstras before any timing.
pub struct PreparedRoad {
    /// The workload.
    pub spec: WorkloadSpec,
    /// Its graph and problems.
    pub instance: RoadInstance,
}

impl PreparedRoad {
    /// Builds the graph and its problems: an error unless `workload` is a road workload with the
    /// straight-line heuristic (the one road heuristic, consistent in both cost kinds).
    pub fn new(spec: &WorkloadSpec) -> anyhow::Result<PreparedRoad> {
        let Source::Road { spec: road, problems } = &spec.source else {
            anyhow::bail!("{} is not a road workload", spec.name());
        };
        anyhow::ensure!(
            spec.series.heuristic == HeuristicKind::StraightLine,
            "{}: road graphs are searched with straight-line, not {}",
            spec.name(),
            spec.series.heuristic
        );
        let instance = RoadInstance::generated(*road, *problems)?;
        anyhow::ensure!(!instance.problems.is_empty(), "{} has no problems", spec.name());
        Ok(PreparedRoad { spec: spec.clone(), instance })
    }
}

/// A prepared workload of either graph.
#[allow(clippy::large_enum_variant, reason = "one a workload, moved once: its size costs nothing")]
pub enum AnyPrepared {
    /// A grid workload.
    Grid(Prepared),
    /// A road workload.
    Road(PreparedRoad),
}

impl AnyPrepared {
    /// Prepares `workload` as its source says.
    pub fn new(spec: &WorkloadSpec) -> anyhow::Result<AnyPrepared> {
        Ok(match spec.source {
            Source::Road { .. } => AnyPrepared::Road(PreparedRoad::new(spec)?),
            _ => AnyPrepared::Grid(Prepared::new(spec)?),
        })
    }
}

/// What the check-then-time body (`check`, `Timed`) and the lab need from a prepared
/// workload, grid or road: its problems' count, expected answers and where each comes from,
/// the workload (its cost scale, heuristic and weighted A\*'s bound), whether its heuristic
/// is admissible and consistent, and how a registry queue searches it.
pub trait Searchable {
    /// The workload.
    fn spec(&self) -> &WorkloadSpec;
    /// How many problems.
    fn count(&self) -> usize;
    /// Problem `i`'s expected answer, in the workload's cost scale.
    fn expected(&self, i: usize) -> Expected;
    /// Where problem `i` comes from, for messages.
    fn locate(&self, i: usize) -> String;
    /// The map's name and kind in results, and whether it is a real map.
    fn map(&self) -> (String, String, bool);
    /// Whether every search must be optimal: an admissible heuristic (the queue's order
    /// is the caller's to know).
    fn admissible(&self) -> bool;
    /// Whether the heuristic is consistent (monotone queues need it).
    fn consistent(&self) -> bool;
    /// The grid workload, where it is one: the oracle, the peers, the other loops and the
    /// replays run on grids only.
    fn grid(&self) -> Option<&Prepared>;
    /// Checks registry queue `F` (`queue`) on it within `limit`.
    fn check_queue<'a, F: Frontier + 'a>(
        &'a self,
        queue: &'static Entry,
        limit: Duration,
    ) -> Checking<'a>;

    /// Weighted A\*'s bound on the path's excess, if the heuristic is weighted octile.
    fn bound(&self) -> Option<f64> {
        match self.spec().series.heuristic {
            HeuristicKind::WeightedOctile(w) => Some(w),
            _ => None,
        }
    }
}

impl Searchable for Prepared {
    fn spec(&self) -> &WorkloadSpec {
        &self.spec
    }

    fn count(&self) -> usize {
        self.instance.problems.len()
    }

    fn expected(&self, i: usize) -> Expected {
        self.instance.problems[i].expected
    }

    fn locate(&self, i: usize) -> String {
        self.instance.locate(i)
    }

    fn map(&self) -> (String, String, bool) {
        (self.instance.name.clone(), self.instance.kind.clone(), self.instance.real)
    }

    fn admissible(&self) -> bool {
        self.heuristic.admissible()
    }

    fn consistent(&self) -> bool {
        self.heuristic.consistent()
    }

    fn grid(&self) -> Option<&Prepared> {
        Some(self)
    }

    fn check_queue<'a, F: Frontier + 'a>(
        &'a self,
        queue: &'static Entry,
        limit: Duration,
    ) -> Checking<'a> {
        check_queue::<F>(self, queue, limit)
    }
}

impl Searchable for PreparedRoad {
    fn spec(&self) -> &WorkloadSpec {
        &self.spec
    }

    fn count(&self) -> usize {
        self.instance.problems.len()
    }

    /// The reference Dijkstra's cost in the workload's representation: the integer cost
    /// exactly, or the float one within [`Expected::FLOAT_TOLERANCE`].
    fn expected(&self, i: usize) -> Expected {
        let problem = &self.instance.problems[i];
        match self.spec.series.setup.costs {
            CostKind::Integer => Expected::Cost(problem.cost),
            CostKind::Float => Expected::Float(problem.cost_f64),
        }
    }

    fn locate(&self, i: usize) -> String {
        let problem = &self.instance.problems[i];
        format!(
            "problem {} of {} (node {} to {})",
            i + 1,
            self.instance.spec,
            problem.start,
            problem.goal
        )
    }

    fn map(&self) -> (String, String, bool) {
        (self.instance.spec.to_string(), "road".into(), false)
    }

    /// Straight-line, the one road heuristic ([`PreparedRoad::new`]), is admissible and
    /// consistent in both cost kinds (proved at [`crate::maps::road::StraightLine`]).
    fn admissible(&self) -> bool {
        true
    }

    fn consistent(&self) -> bool {
        true
    }

    fn grid(&self) -> Option<&Prepared> {
        None
    }

    fn check_queue<'a, F: Frontier + 'a>(
        &'a self,
        _: &'static Entry,
        limit: Duration,
    ) -> Checking<'a> {
        check_road::<F>(self, limit)
    }
}

/// What a check pass found.
pub struct Check<'a> {
    /// The contender, ready to time.
    pub contender: Box<dyn Contender + 'a>,
    /// Every search's counters.
    pub counters: Vec<Counters>,
    /// The mean and largest excess over the optimum, when some path was longer or the
    /// search is not required to be exact.
    pub excess: Option<(f64, f64)>,
    /// The check pass's time on the thread's CPU clock.
    pub pass: Duration,
    /// Heap bytes the queue holds per entry, where it was counted (held frontiers).
    pub bytes_per_entry: Option<f64>,
    /// Heap bytes the contender held after its check pass (a search's store, queue and
    /// moves), where the lab's allocator counted them ([`crate::lab::memory::Keep`]).
    pub held_bytes: Option<usize>,
    /// Whether the contender's state was released after the check, to be built for each
    /// sample ([`crate::lab::memory::Keep`]).
    pub parked: bool,
}

/// Why a contender is not timed.
#[derive(Clone, Debug, PartialEq)]
pub enum Untimed {
    /// It cannot take the workload's keys.
    NotApplicable(String),
    /// A wrong answer or a rejected key.
    Failed(String),
    /// Its check pass was stopped once it ran over the limit, after `ran`: measured
    /// evidence from this workload alone, a lower bound on its pass.
    CutOff {
        /// Why, in words.
        note: String,
        /// How long the stopped pass had run: the pass takes at least this long.
        ran: Duration,
    },
}

impl Untimed {
    /// A cut-off after `ran`, with why.
    pub fn cut_off(note: impl Into<String>, ran: Duration) -> Untimed {
        Untimed::CutOff { note: note.into(), ran }
    }
}

/// The outcome of checking one contender.
pub type Checking<'a> = Result<Check<'a>, Untimed>;

/// One way of solving a prepared workload's problems: pqlab's A\* with a queue and a store,
/// the oracle, a peer's A\*, the generic A\* on a road graph. `check` checks every
/// answer of a solver, then `Timed` times it: every contender of a search workload goes
/// through these two.
pub trait Solver<P = Prepared> {
    /// Solves problem `i` of `prepared`.
    fn solve(&mut self, prepared: &P, i: usize) -> Result<Outcome, SearchError>;

    /// The cost of the path the last [`Solver::solve`] (of problem `i`) returned, added up
    /// again from its moves, where the solver gives its path: `Some(None)` when a step is
    /// not a legal move. Checked where a search need not be exact.
    fn path_cost(&self, _prepared: &P, _i: usize) -> Option<Option<u64>> {
        None
    }
}

/// A grid loop with its heuristic, and the moves its paths are added up with.
struct GuidedSolver<L> {
    search: L,
    heuristic: AnyHeuristic,
    moves: Moves,
}

impl<L: GridLoop + ?Sized> GuidedSolver<Box<L>> {
    fn new(prepared: &Prepared, search: Box<L>) -> Self {
        GuidedSolver {
            search,
            heuristic: prepared.heuristic.clone(),
            moves: prepared.moves.clone(),
        }
    }
}

impl<L: GridLoop + ?Sized> Solver for GuidedSolver<Box<L>> {
    fn solve(&mut self, p: &Prepared, i: usize) -> Result<Outcome, SearchError> {
        let problem = &p.instance.problems[i];
        let (grid, components) = (&p.instance.grid, Some(&p.components));
        self.search.search(grid, &mut self.heuristic, components, problem.start, problem.goal)
    }

    fn path_cost(&self, p: &Prepared, i: usize) -> Option<Option<u64>> {
        let path = self.search.path(&p.instance.grid, p.instance.problems[i].goal)?;
        Some(check::path_cost(&p.instance.grid, &self.moves, &path))
    }
}

/// A peer's A\* (another crate's): the cost alone, no counters.
struct PeerSolver<P>(P);

impl<P: Peer> Solver for PeerSolver<P> {
    fn solve(&mut self, p: &Prepared, i: usize) -> Result<Outcome, SearchError> {
        let problem = &p.instance.problems[i];
        let cost = self.0.search(&p.instance.grid, problem.start, problem.goal);
        Ok(Outcome { cost, counters: Counters::default() })
    }
}

/// The same A\* with the oracle frontier, replaying the recorded search of each problem.
struct OracleSolver<'a> {
    traces: &'a [Trace],
    search: AStar<Oracle>,
    heuristic: AnyHeuristic,
}

impl Solver for OracleSolver<'_> {
    fn solve(&mut self, p: &Prepared, i: usize) -> Result<Outcome, SearchError> {
        self.search.frontier_mut().load(&self.traces[i]);
        let problem = &p.instance.problems[i];
        let grid = &p.instance.grid;
        self.search.search(
            grid,
            &mut self.heuristic,
            Some(&p.components),
            problem.start,
            problem.goal,
        )
    }
}

/// The most bytes a renewed solver is moved by in memory ([`Contender::renew`]): it is
/// built after a block of 0 to 64 KiB, in whole cache lines. The rule: the span of a
/// 512 KiB 8-way L2's sets (1,024 sets of 64 bytes), and so of L1's and of a page's
/// offsets, so that every placement of a state against the caches is drawn.
pub const SHIFT_MAX: usize = 64 * 1024;

/// A checked solver as a contender: a pass solves every problem once, and each search's
/// wall time is kept for the latency columns. One clock read per search (about 25 ns on
/// the lab's machines, a percent or two of the smallest workloads' searches) is paid
/// alike by every contender. `make` builds the solver anew for each slice
/// ([`Contender::renew`]).
struct Timed<'a, P, V, M> {
    prepared: &'a P,
    make: M,
    /// The solver with its search state; `None` while released.
    solver: Option<V>,
    /// The block allocated just before the solver, of a random size below [`SHIFT_MAX`],
    /// that moves it in memory; held as long as the solver.
    shift: Vec<u8>,
    /// Draws the shifts.
    placements: SplitMix64,
    /// Nanoseconds per search since the sampler last took them.
    latencies: Vec<u64>,
}

impl<P: Searchable, V: Solver<P>, M: Fn() -> V> Contender for Timed<'_, P, V, M> {
    fn pass(&mut self) -> u64 {
        // Never built here, inside the clock: the sampler renews it before each slice.
        let solver = self.solver.as_mut().expect("prepared before its pass");
        let mut checksum = 0u64;
        let mut last = Instant::now();
        for i in 0..self.prepared.count() {
            let outcome = solver.solve(self.prepared, i);
            let now = Instant::now();
            self.latencies.push(now.duration_since(last).as_nanos() as u64);
            last = now;
            let cost = outcome.map_or(u64::MAX, |o| o.cost.unwrap_or(0));
            checksum = checksum.wrapping_mul(31).wrapping_add(cost);
        }
        checksum
    }

    fn take_latencies(&mut self, into: &mut Vec<u64>) {
        into.append(&mut self.latencies);
    }

    fn renew(&mut self) {
        let lines = self.placements.below(SHIFT_MAX / 64);
        let shift = vec![1u8; lines * 64];
        // Built before the old solver is dropped, so never in its place.
        let solver = (self.make)();
        (self.shift, self.solver) = (shift, Some(solver));
    }

    fn release(&mut self) {
        (self.shift, self.solver) = (Vec::new(), None);
    }
}

/// Checks the solver `make` builds on every problem of `prepared` (untimed), within
/// `limit`: an `exact` solver must give every expected cost; any other a valid path no
/// cheaper than the optimum (within weighted A\*'s bound), whose excess is kept. Then it
/// may be timed, on the same solver (or one `make` builds alike, once released).
fn check<'a, P: Searchable, V: Solver<P> + 'a>(
    prepared: &'a P,
    make: impl Fn() -> V + 'a,
    exact: bool,
    limit: Duration,
) -> Checking<'a> {
    let mut solver = make();
    // On the thread's CPU clock, like the timed rounds: a pass preempted by another
    // process is not cut off for the time it was not running.
    let started = thread_cpu_ns();
    let ran = || Duration::from_nanos(thread_cpu_ns().saturating_sub(started));
    let cut_off = || {
        let note = format!("its check pass ran over the {:.3} s limit", limit.as_secs_f64());
        Untimed::cut_off(note, ran())
    };
    // The stop ends a search over the limit within itself (see `search::stop`).
    let deadline = u64::try_from(limit.as_nanos()).ok().and_then(|l| started.checked_add(l));
    let armed = deadline.map(|deadline| Armed::new(thread_cpu_ns, deadline));
    let mut counters = Vec::with_capacity(prepared.count());
    let mut excess = Vec::new();
    for i in 0..prepared.count() {
        let failed = |e: String| Untimed::Failed(format!("{}: {e}", prepared.locate(i)));
        let solved = solver.solve(prepared, i);
        if armed.as_ref().is_some_and(Armed::stopped) {
            return Err(cut_off());
        }
        let outcome = solved.map_err(|e| failed(e.to_string()))?;
        let checked = check::answer(
            prepared.expected(i),
            outcome.cost,
            prepared.spec().series.scale,
            exact,
            prepared.bound(),
        )
        .map_err(failed)?;
        if !exact {
            if let (Some(cost), Some(path)) = (outcome.cost, solver.path_cost(prepared, i)) {
                if path != Some(cost) {
                    return Err(failed("the path returned does not add up to its cost".into()));
                }
            }
            excess.push(checked.excess());
        } else {
            debug_assert_eq!(checked, Checked::Optimal);
        }
        counters.push(outcome.counters);
        if ran() > limit {
            return Err(cut_off());
        }
    }
    drop(armed);
    let excess = (!excess.is_empty()).then(|| {
        let mean = excess.iter().sum::<f64>() / excess.len() as f64;
        (mean, excess.iter().copied().fold(0.0, f64::max))
    });
    Ok(Check {
        contender: Box::new(Timed {
            prepared,
            make,
            solver: Some(solver),
            shift: Vec::new(),
            placements: SplitMix64::from_name(*b"placements"),
            latencies: Vec::new(),
        }),
        counters,
        excess,
        pass: ran(),
        bytes_per_entry: None,
        held_bytes: None,
        parked: false,
    })
}

/// Whether queue `F` can search `prepared`: `n/a` with the reason when it cannot.
fn applicable<F: Frontier>(prepared: &impl Searchable) -> Result<(), Untimed> {
    F::available().map_err(|why| Untimed::NotApplicable(why.to_owned()))?;
    if F::KEYS.is_monotone() && !prepared.consistent() {
        return Err(Untimed::NotApplicable(format!(
            "it needs monotone keys, and {} is inconsistent",
            prepared.spec().series.heuristic
        )));
    }
    if !F::ORDER.is_exact() && !prepared.admissible() {
        return Err(Untimed::NotApplicable(format!(
            "approximate queues are measured with admissible heuristics only, and {} is not",
            prepared.spec().series.heuristic
        )));
    }
    Ok(())
}

/// Checks queue `F` (`queue`) in the workload's search on `prepared` (untimed), within
/// `limit`: `n/a` where the search's registry entry refuses the workload or the queue.
fn check_queue<'a, F: Frontier + 'a>(
    prepared: &'a Prepared,
    queue: &'static Entry,
    limit: Duration,
) -> Checking<'a> {
    applicable::<F>(prepared)?;
    let search = prepared.spec.series.setup.search.entry();
    let na = |why: String| Untimed::NotApplicable(format!("{}: {why}", search.name));
    search.needs.workload(&prepared.instance.grid, prepared.spec.series.heuristic).map_err(na)?;
    let target = prepared.target();
    let make = reusing(prepared, move || (search.build)(&target, queue)).map_err(na)?;
    check(prepared, make, F::ORDER.is_exact() && prepared.admissible(), limit)
}

/// The solvers of the loop `build` builds on `prepared`, or why it refuses the workload.
/// Built once here to learn that; the check's first solver takes this one, and a released
/// contender builds its own.
fn reusing<'a>(
    prepared: &'a Prepared,
    build: impl Fn() -> Result<Box<dyn GridLoop>, String> + 'a,
) -> Result<impl Fn() -> GuidedSolver<Box<dyn GridLoop>> + 'a, String> {
    let first = Cell::new(Some(build()?));
    Ok(move || {
        let built = first.take().unwrap_or_else(|| build().expect("built once"));
        GuidedSolver::new(prepared, built)
    })
}

/// Checks a registry queue on a prepared workload (a grid's with the workload's store, or a
/// road's).
pub struct CheckQueue<'a, P = Prepared> {
    /// The workload.
    pub prepared: &'a P,
    /// The longest its check pass may take.
    pub limit: Duration,
}

impl<'a, P: Searchable> Visitor for CheckQueue<'a, P> {
    type Output = Checking<'a>;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Checking<'a> {
        self.prepared.check_queue::<F>(entry, self.limit)
    }
}

/// The generic A\* of `pqlab-queues` with queue `F` on a road graph, as routing code
/// writes it: dense node ids ([`astar_dense_with_stats`]), the graph's successors with
/// `u64` or `f64` costs, and the straight-line heuristic. A float answer is reported in the
/// road's fixed point, rounded (see [`Expected::Float`]).
struct RoadSolver<F>(PhantomData<F>);

impl<F: Frontier> Solver<PreparedRoad> for RoadSolver<F> {
    fn solve(&mut self, p: &PreparedRoad, i: usize) -> Result<Outcome, SearchError> {
        let graph = &p.instance.graph;
        let problem = p.instance.problems[i];
        let (goal, nodes) = (problem.goal, graph.nodes());
        let straight = graph.heuristic(goal);
        // An armed stop ends the search by declaring the goal found (see `search::stop`).
        let mut stop = Ticker::default();
        let (found, stats) = match p.spec.series.setup.costs {
            CostKind::Integer => {
                let (found, stats) = astar_dense_with_stats::<F, u32, u64, _>(
                    &problem.start,
                    |&n| graph.successors(n),
                    |&n| straight.estimate(n),
                    |&n| n == goal || stop.tick(),
                    nodes,
                    |&n| n as usize,
                )?;
                (found.map(|(_, cost)| cost), stats)
            }
            CostKind::Float => {
                let (found, stats) = astar_dense_with_stats::<F, u32, f64, _>(
                    &problem.start,
                    |&n| graph.successors_f64(n),
                    |&n| straight.estimate_f64(n),
                    |&n| n == goal || stop.tick(),
                    nodes,
                    |&n| n as usize,
                )?;
                (found.map(|(_, cost)| (cost * ROAD_SCALE as f64).round() as u64), stats)
            }
        };
        Ok(generic::outcome(found, stats))
    }
}

/// Whether queue `F` takes the keys of `costs` (`u64` or `f64`): `n/a` with the reason
/// when it does not (a bounded-span queue and float keys, a narrow queue and 64-bit keys).
fn takes_costs<F: Frontier>(costs: CostKind) -> Result<(), Untimed> {
    match costs {
        CostKind::Integer => takes::<F, u64>(),
        CostKind::Float => takes::<F, f64>(),
    }
    .map_err(|why| Untimed::NotApplicable(why.to_owned()))
}

/// Checks queue `F` on road workload `prepared` within `limit`: `n/a` where it cannot take
/// the keys ([`takes_costs`]). Every exact queue must give every expected cost (the
/// straight-line heuristic is admissible); an approximate one a cost no cheaper than the
/// optimum, whose excess is kept.
fn check_road<'a, F: Frontier + 'a>(prepared: &'a PreparedRoad, limit: Duration) -> Checking<'a> {
    applicable::<F>(prepared)?;
    takes_costs::<F>(prepared.spec.series.setup.costs)?;
    check(prepared, || RoadSolver::<F>(PhantomData), F::ORDER.is_exact(), limit)
}

/// Checks peer `P` on `prepared` (octile workloads only).
pub fn check_peer<'a, P: Peer + 'a>(prepared: &'a Prepared, limit: Duration) -> Checking<'a> {
    let make = || PeerSolver(P::new(&prepared.instance.grid, prepared.spec.series.rules()));
    check(prepared, make, true, limit)
}

/// Checks every peer on `prepared` within `limit` ([`peers::each`]), each check run
/// through `around` (the lab counts what it holds): each peer's id and outcome.
pub fn check_peers<'a>(
    prepared: &'a Prepared,
    limit: Duration,
    around: impl FnMut(&mut dyn FnMut() -> Checking<'a>) -> Checking<'a>,
) -> Vec<(&'static str, Checking<'a>)> {
    struct CheckPeer<'a, A> {
        prepared: &'a Prepared,
        limit: Duration,
        around: A,
    }
    impl<'a, A: FnMut(&mut dyn FnMut() -> Checking<'a>) -> Checking<'a>> PeerVisitor
        for CheckPeer<'a, A>
    {
        type Output = (&'static str, Checking<'a>);
        fn visit<P: Peer + 'static>(&mut self) -> Self::Output {
            let (prepared, limit) = (self.prepared, self.limit);
            (P::ID, (self.around)(&mut || check_peer::<P>(prepared, limit)))
        }
    }
    peers::each(&mut CheckPeer { prepared, limit, around })
}

/// Checks loop `entry` (a search without a queue) on `prepared` within `limit`: `n/a`
/// where its hook refuses the workload; built only where it is exact, it must give every
/// expected cost.
pub fn check_loop<'a>(
    entry: &'static LoopEntry,
    prepared: &'a Prepared,
    limit: Duration,
) -> Checking<'a> {
    let target = prepared.target();
    let make = reusing(prepared, move || (entry.build)(&target, &prepared.heuristic))
        .map_err(Untimed::NotApplicable)?;
    check(prepared, make, true, limit)
}

/// Checks the oracle on `prepared` with `traces`, the baseline's recorded searches.
pub fn check_oracle<'a>(prepared: &'a Prepared, traces: &'a [Trace]) -> Checking<'a> {
    debug_assert_eq!(traces.len(), prepared.instance.problems.len());
    let make = || OracleSolver {
        traces,
        search: prepared.search(),
        heuristic: prepared.heuristic.clone(),
    };
    check(prepared, make, true, Duration::MAX)
}

/// Whether a queue with these keys can search a workload with this heuristic.
pub fn takes_keys(keys: KeyRule, heuristic: &AnyHeuristic) -> bool {
    !keys.is_monotone() || heuristic.consistent()
}

/// Searches `prepared` with queue `F` recording its frontier operations, one trace per
/// problem, stopped as soon as the traces hold more than `max_bytes` of operations:
/// `None` then (a trace is about 3.5 MB a problem on a 1024² map, so a whole scenario's
/// can need gigabytes). Memory stays within `max_bytes` plus one trace.
pub fn record_within<F: Frontier>(
    prepared: &Prepared,
    max_bytes: usize,
) -> Result<Option<Vec<Trace>>, SearchError> {
    use crate::search::trace::Recorder;
    let mut search = prepared.search::<Recorder<F>, FlatStore>();
    let mut heuristic = prepared.heuristic.clone();
    let mut traces = Vec::with_capacity(prepared.instance.problems.len());
    let mut bytes = 0usize;
    for problem in &prepared.instance.problems {
        search.search(
            &prepared.instance.grid,
            &mut heuristic,
            Some(&prepared.components),
            problem.start,
            problem.goal,
        )?;
        let trace = search.frontier().trace();
        bytes =
            bytes.saturating_add(trace.ops.len() * std::mem::size_of::<crate::search::trace::Op>());
        if bytes > max_bytes {
            return Ok(None);
        }
        traces.push(trace.clone());
    }
    Ok(Some(traces))
}

/// Records a workload's searches with the registry queue it visits, stopped past `max_bytes`
/// (see [`record_within`]).
pub struct Record<'a> {
    /// The workload.
    pub prepared: &'a Prepared,
    /// The most bytes of operations the traces may hold.
    pub max_bytes: usize,
}

impl pqlab_queues::registry::Visitor for Record<'_> {
    type Output = Result<Option<Vec<Trace>>, SearchError>;

    fn visit<F: Frontier + 'static>(
        self,
        _: &'static pqlab_queues::registry::Entry,
    ) -> Self::Output {
        record_within::<F>(self.prepared, self.max_bytes)
    }
}

/// The baseline's searches of `prepared`, recorded for the oracle to replay; `None` past
/// `max_bytes` (see [`record_within`]).
pub fn record_baseline(
    prepared: &Prepared,
    max_bytes: usize,
) -> Result<Option<Vec<Trace>>, SearchError> {
    let record = Record { prepared, max_bytes };
    pqlab_queues::registry::visit(pqlab_queues::registry::BASELINE, record).expect("registered")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::workloads::Role;
    use crate::maps::grid::CostScale;
    use crate::search::registry::LOOPS;
    use crate::search::store::StoreKind;
    use crate::search::Series;
    use pqlab_queues::std_binary_heap::StdBinaryHeap;

    #[test]
    fn recording_stops_once_the_traces_pass_their_cap() {
        let spec = WorkloadSpec {
            source: Source::Generated { map: "random-d20-64-s1".parse().unwrap(), problems: 8 },
            series: crate::search::Series::OCTILE,
            role: Role::Trade,
            replay: false,
        };
        let prepared = Prepared::new(&spec).unwrap();
        let all = record_within::<StdBinaryHeap>(&prepared, usize::MAX).unwrap().unwrap();
        assert_eq!(all.len(), 8);
        let bytes: usize =
            all.iter().map(|t| t.ops.len() * std::mem::size_of::<crate::search::trace::Op>()).sum();
        let fits = record_within::<StdBinaryHeap>(&prepared, bytes).unwrap();
        assert_eq!(fits.map(|t| t.len()), Some(8));
        assert!(record_within::<StdBinaryHeap>(&prepared, bytes - 1).unwrap().is_none());
    }

    #[test]
    fn a_check_over_its_limit_is_a_cut_off_for_every_loop_even_one_stopped_mid_search() {
        use crate::maps::grid::Connectivity;
        use crate::search::{peers, Setup};
        let spec = |setup, heuristic, scale| WorkloadSpec {
            source: Source::Generated { map: "rooms-r16-256-s1".parse().unwrap(), problems: 3 },
            series: Series { setup, heuristic, scale, store: StoreKind::Flat },
            role: Role::OtherSeries,
            replay: false,
        };
        let grid = |setup, heuristic, scale| Prepared::new(&spec(setup, heuristic, scale)).unwrap();
        let octile = grid(Setup::GRID_ASTAR, HeuristicKind::Octile, CostScale::FINE);
        let four = Setup { moves: Some(Connectivity::Four), ..Setup::GRID_ASTAR };
        let unit = grid(four, HeuristicKind::Manhattan, CostScale::UNIT);
        let generic = Setup { search: crate::search::SearchKind::Generic, ..Setup::GRID_ASTAR };
        let generic = grid(generic, HeuristicKind::Octile, CostScale::FINE);
        let AnyPrepared::Road(road) = AnyPrepared::new(&road_workload(CostKind::Integer)).unwrap()
        else {
            panic!("a road workload")
        };
        let limit = Duration::from_nanos(1);
        fn queue<'a>(id: &str, prepared: &'a Prepared, limit: Duration) -> Checking<'a> {
            pqlab_queues::registry::visit(id, CheckQueue { prepared, limit }).expect("registered")
        }
        let mut checks: Vec<(&str, Checking<'_>)> = vec![
            ("std", queue(pqlab_queues::registry::BASELINE, &octile, limit)),
            ("unsorted array", queue("unsorted-array-dup", &octile, limit)),
            ("generic", queue(pqlab_queues::registry::BASELINE, &generic, limit)),
            ("pathfinding", check_peer::<peers::PathfindingAstar>(&octile, limit)),
            ("petgraph", check_peer::<peers::PetgraphAstar>(&octile, limit)),
            (
                "road",
                pqlab_queues::registry::visit(
                    pqlab_queues::registry::BASELINE,
                    CheckQueue { prepared: &road, limit },
                )
                .expect("registered"),
            ),
        ];
        // Every loop without a queue is exact on unit costs under Manhattan on 4 moves.
        checks.extend(LOOPS.iter().map(|entry| (entry.id, check_loop(entry, &unit, limit))));
        for (what, check) in checks {
            assert!(matches!(check, Err(Untimed::CutOff { .. })), "{what}: {:?}", check.err());
        }
        // Disarmed once the check ends: the same check without a limit passes.
        assert!(queue(pqlab_queues::registry::BASELINE, &octile, Duration::MAX).is_ok());
    }

    /// The quick profile's road workload (float costs), with `costs`.
    fn road_workload(costs: CostKind) -> WorkloadSpec {
        let spec = crate::lab::workloads::builtin(crate::lab::Profile::Quick)
            .into_iter()
            .find(|s| matches!(s.source, Source::Road { .. }))
            .expect("the quick profile has a road workload");
        spec.with_setup(crate::search::Setup { costs, ..spec.series.setup })
    }

    /// Every registered queue on `prepared`: its id, and `None` when it checked, else why
    /// not.
    fn check_all(prepared: &PreparedRoad) -> Vec<(&'static str, Option<Untimed>)> {
        pqlab_queues::registry::ENTRIES
            .iter()
            .map(|entry| {
                let check = pqlab_queues::registry::visit(
                    entry.id,
                    CheckQueue { prepared, limit: Duration::MAX },
                )
                .expect("registered");
                (entry.id, check.err())
            })
            .collect()
    }

    #[test]
    fn a_road_workload_checks_every_queue_and_bounded_span_queues_take_no_float_keys() {
        for costs in [CostKind::Integer, CostKind::Float] {
            let spec = road_workload(costs);
            let prepared = AnyPrepared::new(&spec).unwrap();
            let AnyPrepared::Road(prepared) = prepared else { panic!("a road workload") };
            assert!(prepared.count() > 0);
            assert_eq!(prepared.map().1, "road");
            let (mut timed, mut na) = (0, 0);
            for (id, why) in check_all(&prepared) {
                let entry = pqlab_queues::registry::find(id).unwrap();
                let bounded = entry.keys == pqlab_queues::KeyRule::BoundedSpan;
                let narrow = entry.keys == pqlab_queues::KeyRule::Narrow;
                match why {
                    None => timed += 1,
                    Some(Untimed::NotApplicable(note)) if bounded && costs == CostKind::Float => {
                        assert!(note.contains("float keys"), "{id}: {note}");
                        na += 1;
                    }
                    Some(Untimed::NotApplicable(note)) if narrow => {
                        assert!(note.contains("below 2^32"), "{id}: {note}");
                    }
                    Some(why) => panic!("{id} with {costs:?} costs: {why:?}"),
                }
            }
            assert!(timed >= 5, "{timed} queues checked with {costs:?} costs");
            if costs == CostKind::Float {
                assert!(na > 0, "no bounded-span queue was refused float keys");
            }
        }
    }

    #[test]
    fn a_wrong_road_answer_fails_its_check() {
        for costs in [CostKind::Integer, CostKind::Float] {
            let AnyPrepared::Road(mut prepared) = AnyPrepared::new(&road_workload(costs)).unwrap()
            else {
                panic!("a road workload")
            };
            prepared.instance.problems[1].cost += 1;
            prepared.instance.problems[1].cost_f64 *= 1.0 + 1e-6;
            let check = pqlab_queues::registry::visit(
                pqlab_queues::registry::BASELINE,
                CheckQueue { prepared: &prepared, limit: Duration::MAX },
            )
            .unwrap();
            match check.err() {
                Some(Untimed::Failed(note)) => assert!(note.contains("problem 2 of"), "{note}"),
                other => panic!("{costs:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_road_workload_is_no_grid() {
        let spec = road_workload(CostKind::Integer);
        assert!(Prepared::new(&spec).is_err());
        assert!(!spec.with_oracle() && !spec.with_loops() && !spec.with_peers(0));
    }
}
