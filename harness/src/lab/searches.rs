//! Whole A* searches as contenders: every queue (with the suite's per-cell store), the
//! oracle and the peers, each checked on every problem before it may be timed.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use pqlab_queues::astar::takes;
use pqlab_queues::registry::{Entry, Visitor};
use pqlab_queues::{Frontier, KeyRule};

use super::clock::thread_cpu_ns;
use super::sampler::Contender;
use super::suites::{Source, Suite};
use crate::maps::grid::CostKind;
use crate::maps::instance::Instance;
use crate::maps::moves::{Components, Moves};
use crate::search::astar::{AStar, Counters, Outcome, Rules, SearchError};
use crate::search::bfs::Bfs;
use crate::search::check::{self, Checked};
use crate::search::fringe::Fringe;
use crate::search::generic::GenericGrid;
use crate::search::heuristic::{AnyHeuristic, Heuristic, HeuristicKind};
use crate::search::peers::Peer;
use crate::search::store::{
    ClearedStore, FlatStore, FxHashStore, NodeStore, StdHashStore, StoreKind,
};
use crate::search::trace::{Oracle, Trace};
use crate::search::SearchKind;

/// A suite ready to run: everything parsed, generated and built before any timing.
pub struct Prepared {
    /// The suite.
    pub suite: Suite,
    /// Its map and problems.
    pub instance: Instance,
    /// The movement rules.
    pub rules: Rules,
    /// The map's components (unreachable goals are answered at once).
    pub components: Components,
    /// The heuristic, built for the map.
    pub heuristic: AnyHeuristic,
}

impl Prepared {
    /// Builds the map, the problems and the heuristic.
    pub fn new(suite: &Suite) -> anyhow::Result<Prepared> {
        let rules = suite.rules();
        let instance = match &suite.source {
            Source::Generated { map, problems } => {
                Instance::generated(*map, rules.connectivity, rules.scale, *problems)
            }
            Source::MovingAi { map, sample } => Instance::movingai(map, None, *sample)?,
        };
        anyhow::ensure!(!instance.problems.is_empty(), "{} has no problems", suite.name());
        let components = Components::new(&instance.grid);
        let heuristic =
            AnyHeuristic::new(suite.heuristic, &instance.grid, rules.connectivity, rules.scale);
        Ok(Prepared { suite: suite.clone(), instance, rules, components, heuristic })
    }

    /// Whether every search must be optimal: an admissible heuristic (the queue's order is
    /// the caller's to know).
    fn admissible(&self) -> bool {
        self.heuristic.admissible()
    }

    /// Weighted A*'s bound on the path's excess, if the heuristic is weighted octile.
    fn bound(&self) -> Option<f64> {
        match self.suite.heuristic {
            HeuristicKind::WeightedOctile(w) => Some(w),
            _ => None,
        }
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

/// One way of solving a prepared suite's problems: pqlab's A\* with a queue and a store,
/// the oracle, a peer's A\*. [`check`] checks every answer of a solver, then
/// [`Timed`] times it: every contender of a search workload goes through these two.
pub trait Solver {
    /// Solves problem `i` of `prepared`.
    fn solve(&mut self, prepared: &Prepared, i: usize) -> Result<Outcome, SearchError>;

    /// The cost of the path the last [`Solver::solve`] (of problem `i`) returned, added up
    /// again from its moves, where the solver gives its path: `Some(None)` when a step is
    /// not a legal move. Checked where a search need not be exact.
    fn path_cost(&self, _prepared: &Prepared, _i: usize) -> Option<Option<u64>> {
        None
    }
}

/// A grid search loop guided by a heuristic: pqlab's A\* (with a frontier and a store)
/// or fringe search.
trait GuidedLoop {
    /// Searches from `start` to `goal` (see [`AStar::search`]).
    fn run(
        &mut self,
        p: &Prepared,
        heuristic: &mut AnyHeuristic,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError>;
    /// The last search's path to `goal`.
    fn path(&self, p: &Prepared, goal: (u32, u32)) -> Option<Vec<(u32, u32)>>;
}

impl<F: Frontier, S: NodeStore> GuidedLoop for AStar<F, S> {
    fn run(
        &mut self,
        p: &Prepared,
        h: &mut AnyHeuristic,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        self.search(&p.instance.grid, h, Some(&p.components), start, goal)
    }

    fn path(&self, p: &Prepared, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        AStar::path(self, &p.instance.grid, goal)
    }
}

impl GuidedLoop for Fringe {
    fn run(
        &mut self,
        p: &Prepared,
        h: &mut AnyHeuristic,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        self.search(&p.instance.grid, h, Some(&p.components), start, goal)
    }

    fn path(&self, p: &Prepared, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        Fringe::path(self, &p.instance.grid, goal)
    }
}

/// A guided loop with its heuristic, and the moves its paths are added up with.
struct GuidedSolver<L> {
    search: L,
    heuristic: AnyHeuristic,
    moves: Moves,
}

impl<L: GuidedLoop> GuidedSolver<L> {
    fn new(prepared: &Prepared, search: L) -> Self {
        let rules = prepared.rules;
        GuidedSolver {
            search,
            heuristic: prepared.heuristic.clone(),
            moves: Moves::new(&prepared.instance.grid, rules.connectivity, rules.scale),
        }
    }
}

impl<L: GuidedLoop> Solver for GuidedSolver<L> {
    fn solve(&mut self, p: &Prepared, i: usize) -> Result<Outcome, SearchError> {
        let problem = &p.instance.problems[i];
        self.search.run(p, &mut self.heuristic, problem.start, problem.goal)
    }

    fn path_cost(&self, p: &Prepared, i: usize) -> Option<Option<u64>> {
        let path = self.search.path(p, p.instance.problems[i].goal).unwrap_or_default();
        Some(check::path_cost(&p.instance.grid, &self.moves, &path))
    }
}

/// Breadth-first search: exact where every move costs the same.
struct BfsSolver(Bfs);

impl Solver for BfsSolver {
    fn solve(&mut self, p: &Prepared, i: usize) -> Result<Outcome, SearchError> {
        let problem = &p.instance.problems[i];
        self.0.search(&p.instance.grid, Some(&p.components), problem.start, problem.goal)
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

/// A checked solver as a contender: a pass solves every problem once, and each search's
/// wall time is kept for the latency columns. One clock read per search (about 25 ns on
/// the lab's machines, a percent or two of the smallest workloads' searches) is paid
/// alike by every contender.
struct Timed<'a, V> {
    prepared: &'a Prepared,
    solver: V,
    /// Nanoseconds per search since the sampler last took them.
    latencies: Vec<u64>,
}

impl<V: Solver> Contender for Timed<'_, V> {
    fn pass(&mut self) -> u64 {
        let mut checksum = 0u64;
        let mut last = Instant::now();
        for i in 0..self.prepared.instance.problems.len() {
            let outcome = self.solver.solve(self.prepared, i);
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
}

/// Checks `solver` on every problem of `prepared` (untimed), within `limit`: an `exact`
/// solver must give every expected cost; any other a valid path no cheaper than the
/// optimum (within weighted A\*'s bound), whose excess is kept. Then it may be timed.
fn check<'a, V: Solver + 'a>(
    prepared: &'a Prepared,
    mut solver: V,
    exact: bool,
    limit: Duration,
) -> Checking<'a> {
    // On the thread's CPU clock, like the timed rounds: a pass preempted by another
    // process is not cut off for the time it was not running.
    let started = thread_cpu_ns();
    let ran = || Duration::from_nanos(thread_cpu_ns().saturating_sub(started));
    let mut counters = Vec::with_capacity(prepared.instance.problems.len());
    let mut excess = Vec::new();
    for (i, problem) in prepared.instance.problems.iter().enumerate() {
        let failed = |e: String| Untimed::Failed(format!("{}: {e}", prepared.instance.locate(i)));
        let outcome = solver.solve(prepared, i).map_err(|e| failed(e.to_string()))?;
        let checked = check::answer(
            problem.expected,
            outcome.cost,
            prepared.rules.scale,
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
            return Err(Untimed::cut_off(
                format!("its check pass ran over the {:.3} s limit", limit.as_secs_f64()),
                ran(),
            ));
        }
    }
    let excess = (!excess.is_empty()).then(|| {
        let mean = excess.iter().sum::<f64>() / excess.len() as f64;
        (mean, excess.iter().copied().fold(0.0, f64::max))
    });
    Ok(Check {
        contender: Box::new(Timed { prepared, solver, latencies: Vec::new() }),
        counters,
        excess,
        pass: ran(),
        bytes_per_entry: None,
    })
}

/// Whether queue `F` can search `prepared`: `n/a` with the reason when it cannot.
fn applicable<F: Frontier>(prepared: &Prepared) -> Result<(), Untimed> {
    if F::KEYS.is_monotone() && !prepared.heuristic.consistent() {
        return Err(Untimed::NotApplicable(format!(
            "it needs monotone keys, and {} is inconsistent",
            prepared.suite.heuristic
        )));
    }
    if !F::ORDER.is_exact() && !prepared.admissible() {
        return Err(Untimed::NotApplicable(format!(
            "approximate queues are measured with admissible heuristics only, and {} is not",
            prepared.suite.heuristic
        )));
    }
    Ok(())
}

/// Checks queue `F` with store `S` on `prepared` (untimed), within `limit`.
fn check_queue<'a, F: Frontier + 'a, S: NodeStore + 'a>(
    prepared: &'a Prepared,
    limit: Duration,
) -> Checking<'a> {
    applicable::<F>(prepared)?;
    let solver =
        GuidedSolver::new(prepared, AStar::<F, S>::new(&prepared.instance.grid, prepared.rules));
    check(prepared, solver, F::ORDER.is_exact() && prepared.admissible(), limit)
}

/// Checks a registry queue on a prepared suite with the suite's store.
pub struct CheckQueue<'a> {
    /// The suite.
    pub prepared: &'a Prepared,
    /// The longest its check pass may take.
    pub limit: Duration,
}

impl<'a> Visitor for CheckQueue<'a> {
    type Output = Checking<'a>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Checking<'a> {
        let CheckQueue { prepared, limit } = self;
        match (prepared.suite.setup.search, prepared.suite.store) {
            (SearchKind::Generic, _) => check_generic::<F>(prepared, limit),
            (SearchKind::Astar, StoreKind::Flat) => check_queue::<F, FlatStore>(prepared, limit),
            (SearchKind::Astar, StoreKind::Cleared) => {
                check_queue::<F, ClearedStore>(prepared, limit)
            }
            (SearchKind::Astar, StoreKind::FxHash) => {
                check_queue::<F, FxHashStore>(prepared, limit)
            }
            (SearchKind::Astar, StoreKind::StdHash) => {
                check_queue::<F, StdHashStore>(prepared, limit)
            }
        }
    }
}

/// The generic A\* of `pqlab-queues` with queue `F`, on the grid as users hand it over.
struct GenericSolver<F> {
    grid: GenericGrid,
    heuristic: AnyHeuristic,
    queue: PhantomData<F>,
}

impl<F: Frontier> Solver for GenericSolver<F> {
    fn solve(&mut self, p: &Prepared, i: usize) -> Result<Outcome, SearchError> {
        let problem = &p.instance.problems[i];
        let grid = &p.instance.grid;
        let components = Some(&p.components);
        Ok(self.grid.solve::<F>(
            grid,
            &mut self.heuristic,
            components,
            problem.start,
            problem.goal,
        )?)
    }
}

/// Checks queue `F` in the generic A\* on `prepared` within `limit`: `n/a` where it
/// cannot take the costs' keys (a bounded-span queue and float keys) or the heuristic's.
fn check_generic<'a, F: Frontier + 'a>(prepared: &'a Prepared, limit: Duration) -> Checking<'a> {
    applicable::<F>(prepared)?;
    let (costs, heuristic) = (prepared.suite.setup.costs, prepared.suite.heuristic);
    GenericGrid::supports(costs, heuristic).map_err(Untimed::NotApplicable)?;
    if costs == CostKind::Float {
        takes::<F, f64>().map_err(|why| Untimed::NotApplicable(why.to_owned()))?;
    }
    let grid = &prepared.instance.grid;
    let solver = GenericSolver::<F> {
        grid: GenericGrid::new(grid, prepared.rules, costs, heuristic),
        heuristic: prepared.heuristic.clone(),
        queue: PhantomData,
    };
    check(prepared, solver, F::ORDER.is_exact() && prepared.admissible(), limit)
}

/// Checks peer `P` on `prepared` (octile suites only).
pub fn check_peer<'a, P: Peer + 'a>(prepared: &'a Prepared, limit: Duration) -> Checking<'a> {
    let peer = P::new(&prepared.instance.grid, prepared.rules);
    check(prepared, PeerSolver(peer), true, limit)
}

/// Checks fringe search on `prepared` within `limit`: exact under an admissible heuristic
/// (under the others, a valid path and its excess).
pub fn check_fringe(prepared: &Prepared, limit: Duration) -> Checking<'_> {
    let solver = GuidedSolver::new(prepared, Fringe::new(&prepared.instance.grid, prepared.rules));
    check(prepared, solver, prepared.admissible(), limit)
}

/// Checks breadth-first search on `prepared` within `limit`: `n/a` unless every move costs
/// the same there (it is exact then).
pub fn check_bfs(prepared: &Prepared, limit: Duration) -> Checking<'_> {
    let bfs = Bfs::new(&prepared.instance.grid, prepared.rules);
    bfs.exact_on(&prepared.instance.grid).map_err(|why| {
        Untimed::NotApplicable(format!(
            "breadth-first search is exact only when every move costs the same: {why}"
        ))
    })?;
    check(prepared, BfsSolver(bfs), true, limit)
}

/// Checks the oracle on `prepared` with `traces`, the baseline's recorded searches.
pub fn check_oracle<'a>(prepared: &'a Prepared, traces: &'a [Trace]) -> Checking<'a> {
    debug_assert_eq!(traces.len(), prepared.instance.problems.len());
    let solver = OracleSolver {
        traces,
        search: AStar::new(&prepared.instance.grid, prepared.rules),
        heuristic: prepared.heuristic.clone(),
    };
    check(prepared, solver, true, Duration::MAX)
}

/// Whether a queue with these keys can search a suite with this heuristic.
pub fn takes_keys(keys: KeyRule, heuristic: &AnyHeuristic) -> bool {
    !keys.is_monotone() || heuristic.consistent()
}

/// Searches `prepared` with queue `F` recording its frontier operations: one trace per
/// problem.
pub fn record<F: Frontier>(prepared: &Prepared) -> Result<Vec<Trace>, SearchError> {
    Ok(record_within::<F>(prepared, usize::MAX)?.expect("no cap"))
}

/// [`record`], stopped as soon as the traces hold more than `max_bytes` of operations:
/// `None` then (a trace is about 3.5 MB a problem on a 1024² map, so a whole scenario's
/// can need gigabytes). Memory stays within `max_bytes` plus one trace.
pub fn record_within<F: Frontier>(
    prepared: &Prepared,
    max_bytes: usize,
) -> Result<Option<Vec<Trace>>, SearchError> {
    use crate::search::trace::Recorder;
    let mut search = AStar::<Recorder<F>>::new(&prepared.instance.grid, prepared.rules);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::suites::Role;
    use crate::maps::grid::CostScale;
    use crate::search::store::StoreKind;
    use pqlab_queues::std_binary_heap::StdBinaryHeap;

    #[test]
    fn recording_stops_once_the_traces_pass_their_cap() {
        let suite = Suite {
            source: Source::Generated { map: "random-d20-64-s1".parse().unwrap(), problems: 8 },
            setup: crate::search::Setup::GRID_ASTAR,
            heuristic: HeuristicKind::Octile,
            scale: CostScale::FINE,
            store: StoreKind::Flat,
            role: Role::Trade,
            replay: false,
        };
        let prepared = Prepared::new(&suite).unwrap();
        let all = record::<StdBinaryHeap>(&prepared).unwrap();
        assert_eq!(all.len(), 8);
        let bytes: usize =
            all.iter().map(|t| t.ops.len() * std::mem::size_of::<crate::search::trace::Op>()).sum();
        let fits = record_within::<StdBinaryHeap>(&prepared, bytes).unwrap();
        assert_eq!(fits.map(|t| t.len()), Some(8));
        assert!(record_within::<StdBinaryHeap>(&prepared, bytes - 1).unwrap().is_none());
    }
}
