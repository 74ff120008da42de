//! `pqlab validate`: every selected queue solves every problem of a map, each cost is
//! checked against the scenario's expected answer, and all queues against each other
//! exactly (same cost to the last fixed-point unit).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::Frontier;

use crate::maps::grid::Grid;
use crate::maps::moves::Components;
use crate::maps::scenario::{Expected, Problem};
use crate::search::astar::{AStar, Rules, SearchError};
use crate::search::heuristic::{Geometric, HeuristicKind};

/// A map with the problems to check on it.
#[derive(Clone, Debug)]
pub struct MapCase {
    /// How reports name it (e.g. `dao/arena.map`).
    pub name: String,
    /// The map.
    pub grid: Grid,
    /// The problems to solve.
    pub problems: Vec<Problem>,
}

/// Up to `n` problems spread evenly over `problems` (all of them when `n` is `None`), so
/// a sample covers every length bucket.
pub fn sample(problems: &[Problem], n: Option<usize>) -> Vec<Problem> {
    match n {
        Some(n) if n < problems.len() => (0..n).map(|i| problems[i * problems.len() / n]).collect(),
        _ => problems.to_vec(),
    }
}

/// What one search answered: a cost, no path (`None`), or an error.
pub type Answer = Result<Option<u64>, SearchError>;

/// One wrong answer.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The queue's id.
    pub queue: &'static str,
    /// The problem's position in the map's (sampled) list.
    pub problem: usize,
    /// What the scenario says.
    pub expected: Expected,
    /// What the queue's search answered.
    pub found: Answer,
    /// What the first selected queue answered (all must agree exactly).
    pub reference: Option<u64>,
}

/// The checks of one map.
#[derive(Clone, Debug)]
pub struct MapReport {
    /// The map's name.
    pub name: String,
    /// Problems solved by each queue.
    pub problems: usize,
    /// Queue × problem checks that passed.
    pub passed: usize,
    /// The checks that failed.
    pub failures: Vec<Failure>,
}

/// Solves every problem with queue `F` (octile heuristic, components checked first).
pub fn solve_all<F: Frontier>(
    grid: &Grid,
    rules: Rules,
    components: &Components,
    problems: &[Problem],
) -> Vec<Answer> {
    let mut search = AStar::<F>::new(grid, rules);
    let mut heuristic =
        Geometric::new(HeuristicKind::Octile, grid, rules.connectivity, rules.scale);
    problems
        .iter()
        .map(|p| {
            search.search(grid, &mut heuristic, Some(components), p.start, p.goal).map(|o| o.cost)
        })
        .collect()
}

struct SolveAll<'a> {
    case: &'a MapCase,
    rules: Rules,
    components: &'a Components,
}

impl Visitor for SolveAll<'_> {
    type Output = Vec<Answer>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
        solve_all::<F>(&self.case.grid, self.rules, self.components, &self.case.problems)
    }
}

/// Runs every queue in `queues` over `case` on `threads` threads, and checks the answers.
/// `finished` is called with the number of queues done so far each time one finishes (for
/// progress: one queue over a large map can take a minute).
pub fn check_map(
    case: &MapCase,
    queues: &[&'static Entry],
    rules: Rules,
    threads: usize,
    finished: &(dyn Fn(usize) + Sync),
) -> MapReport {
    let components = Components::new(&case.grid);
    let answers: Vec<Mutex<Vec<Answer>>> = queues.iter().map(|_| Mutex::new(Vec::new())).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, queues.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(entry) = queues.get(i) else { break };
                let solved =
                    registry::visit(entry.id, SolveAll { case, rules, components: &components })
                        .expect("queues come from the registry");
                *answers[i].lock().unwrap() = solved;
                finished(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    let answers: Vec<_> = answers.into_iter().map(|a| a.into_inner().unwrap()).collect();

    let mut report = MapReport {
        name: case.name.clone(),
        problems: case.problems.len(),
        passed: 0,
        failures: Vec::new(),
    };
    for (p, problem) in case.problems.iter().enumerate() {
        let reference = answers.first().and_then(|a| a[p].clone().ok()).flatten();
        for (entry, answer) in queues.iter().zip(&answers) {
            let found = answer[p].clone();
            let ok = match found {
                Ok(cost) => problem.expected.accepts(cost, rules.scale) && cost == reference,
                Err(_) => false,
            };
            if ok {
                report.passed += 1;
            } else {
                report.failures.push(Failure {
                    queue: entry.id,
                    problem: p,
                    expected: problem.expected,
                    found,
                    reference,
                });
            }
        }
    }
    report
}
