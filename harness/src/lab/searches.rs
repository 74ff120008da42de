//! Whole A* searches as contenders: every queue (with the suite's per-cell store), the
//! oracle and the peers, each checked on every problem before it may be timed.

use std::time::{Duration, Instant};

use pqlab_queues::registry::{Entry, Visitor};
use pqlab_queues::{Frontier, KeyRule};

use super::sampler::Contender;
use super::suites::{Source, Suite};
use crate::maps::instance::Instance;
use crate::maps::moves::{Components, Moves};
use crate::search::astar::{AStar, Counters, Rules, SearchError};
use crate::search::check::{self, Checked};
use crate::search::heuristic::{AnyHeuristic, Heuristic, HeuristicKind};
use crate::search::peers::Peer;
use crate::search::store::{
    ClearedStore, FlatStore, FxHashStore, NodeStore, StdHashStore, StoreKind,
};
use crate::search::trace::{Oracle, Trace};

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
    /// The check pass's wall time.
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

/// One queue's searches over a suite: `pass` solves every problem once.
struct Searches<'a, F, S> {
    prepared: &'a Prepared,
    search: AStar<F, S>,
    heuristic: AnyHeuristic,
}

impl<F: Frontier, S: NodeStore> Contender for Searches<'_, F, S> {
    fn pass(&mut self) -> u64 {
        let p = self.prepared;
        let mut checksum = 0u64;
        for problem in &p.instance.problems {
            let outcome = self.search.search(
                &p.instance.grid,
                &mut self.heuristic,
                Some(&p.components),
                problem.start,
                problem.goal,
            );
            let cost = outcome.map_or(u64::MAX, |o| o.cost.unwrap_or(0));
            checksum = checksum.wrapping_mul(31).wrapping_add(cost);
        }
        checksum
    }
}

/// Checks queue `F` with store `S` on `prepared` (untimed), within `limit`.
fn check_queue<'a, F: Frontier + 'a, S: NodeStore + 'a>(
    prepared: &'a Prepared,
    limit: Duration,
) -> Checking<'a> {
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
    let mut searches = Searches {
        prepared,
        search: AStar::<F, S>::new(&prepared.instance.grid, prepared.rules),
        heuristic: prepared.heuristic.clone(),
    };
    let exact = F::ORDER.is_exact() && prepared.admissible();
    let moves =
        Moves::new(&prepared.instance.grid, prepared.rules.connectivity, prepared.rules.scale);
    let started = Instant::now();
    let mut counters = Vec::with_capacity(prepared.instance.problems.len());
    let mut excess = Vec::new();
    for (i, problem) in prepared.instance.problems.iter().enumerate() {
        let grid = &prepared.instance.grid;
        let outcome = searches
            .search
            .search(
                grid,
                &mut searches.heuristic,
                Some(&prepared.components),
                problem.start,
                problem.goal,
            )
            .map_err(|e| Untimed::Failed(format!("{}: {e}", prepared.instance.locate(i))))?;
        let checked = check::answer(
            problem.expected,
            outcome.cost,
            prepared.rules.scale,
            exact,
            prepared.bound(),
        )
        .map_err(|e| Untimed::Failed(format!("{}: {e}", prepared.instance.locate(i))))?;
        if !exact {
            if let Some(cost) = outcome.cost {
                let path = searches.search.path(grid, problem.goal).unwrap_or_default();
                if check::path_cost(grid, &moves, &path) != Some(cost) {
                    return Err(Untimed::Failed(format!(
                        "{}: the path returned does not add up to its cost",
                        prepared.instance.locate(i)
                    )));
                }
            }
            excess.push(checked.excess());
        } else {
            debug_assert_eq!(checked, Checked::Optimal);
        }
        counters.push(outcome.counters);
        if started.elapsed() > limit {
            return Err(Untimed::cut_off(
                format!("its check pass ran over the {:.2} s limit", limit.as_secs_f64()),
                started.elapsed(),
            ));
        }
    }
    let excess = (!excess.is_empty()).then(|| {
        let mean = excess.iter().sum::<f64>() / excess.len() as f64;
        (mean, excess.iter().copied().fold(0.0, f64::max))
    });
    Ok(Check {
        contender: Box::new(searches),
        counters,
        excess,
        pass: started.elapsed(),
        bytes_per_entry: None,
    })
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
        match prepared.suite.store {
            StoreKind::Flat => check_queue::<F, FlatStore>(prepared, limit),
            StoreKind::Cleared => check_queue::<F, ClearedStore>(prepared, limit),
            StoreKind::FxHash => check_queue::<F, FxHashStore>(prepared, limit),
            StoreKind::StdHash => check_queue::<F, StdHashStore>(prepared, limit),
        }
    }
}

/// A peer's searches over a suite.
struct PeerSearches<'a, P> {
    prepared: &'a Prepared,
    peer: P,
}

impl<P: Peer> Contender for PeerSearches<'_, P> {
    fn pass(&mut self) -> u64 {
        let p = self.prepared;
        p.instance.problems.iter().fold(0u64, |sum, problem| {
            let cost = self.peer.search(&p.instance.grid, problem.start, problem.goal);
            sum.wrapping_mul(31).wrapping_add(cost.unwrap_or(0))
        })
    }
}

/// Checks peer `P` on `prepared` (octile suites only).
pub fn check_peer<'a, P: Peer + 'a>(prepared: &'a Prepared, limit: Duration) -> Checking<'a> {
    let mut peer = P::new(&prepared.instance.grid, prepared.rules);
    let started = Instant::now();
    for (i, problem) in prepared.instance.problems.iter().enumerate() {
        let cost = peer.search(&prepared.instance.grid, problem.start, problem.goal);
        check::answer(problem.expected, cost, prepared.rules.scale, true, None)
            .map_err(|e| Untimed::Failed(format!("{}: {e}", prepared.instance.locate(i))))?;
        if started.elapsed() > limit {
            return Err(Untimed::cut_off(
                format!("its check pass ran over the {:.2} s limit", limit.as_secs_f64()),
                started.elapsed(),
            ));
        }
    }
    Ok(Check {
        contender: Box::new(PeerSearches { prepared, peer }),
        counters: Vec::new(),
        excess: None,
        pass: started.elapsed(),
        bytes_per_entry: None,
    })
}

/// The same A* with the oracle frontier, replaying a recorded search per problem.
struct OracleSearches<'a> {
    prepared: &'a Prepared,
    traces: &'a [Trace],
    search: AStar<Oracle>,
    heuristic: AnyHeuristic,
}

impl Contender for OracleSearches<'_> {
    fn pass(&mut self) -> u64 {
        let p = self.prepared;
        let mut checksum = 0u64;
        for (problem, trace) in p.instance.problems.iter().zip(self.traces) {
            self.search.frontier_mut().load(trace);
            let outcome = self.search.search(
                &p.instance.grid,
                &mut self.heuristic,
                Some(&p.components),
                problem.start,
                problem.goal,
            );
            checksum = checksum.wrapping_add(outcome.map_or(0, |o| o.cost.unwrap_or(0)));
        }
        checksum
    }
}

/// Checks the oracle on `prepared` with `traces`, the baseline's recorded searches.
pub fn check_oracle<'a>(prepared: &'a Prepared, traces: &'a [Trace]) -> Checking<'a> {
    debug_assert_eq!(traces.len(), prepared.instance.problems.len());
    let mut oracle = OracleSearches {
        prepared,
        traces,
        search: AStar::new(&prepared.instance.grid, prepared.rules),
        heuristic: prepared.heuristic.clone(),
    };
    let started = Instant::now();
    let mut counters = Vec::new();
    for (i, (problem, trace)) in prepared.instance.problems.iter().zip(traces).enumerate() {
        oracle.search.frontier_mut().load(trace);
        let outcome = oracle
            .search
            .search(
                &prepared.instance.grid,
                &mut oracle.heuristic,
                Some(&prepared.components),
                problem.start,
                problem.goal,
            )
            .map_err(|e| Untimed::Failed(format!("{}: {e}", prepared.instance.locate(i))))?;
        check::answer(problem.expected, outcome.cost, prepared.rules.scale, true, None)
            .map_err(|e| Untimed::Failed(format!("{}: {e}", prepared.instance.locate(i))))?;
        counters.push(outcome.counters);
    }
    Ok(Check {
        contender: Box::new(oracle),
        counters,
        excess: None,
        pass: started.elapsed(),
        bytes_per_entry: None,
    })
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
