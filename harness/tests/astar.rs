//! The A* with every registered queue against the independent reference Dijkstra, on
//! generated maps under both connectivities, uniform and weighted; the paths it returns;
//! the heuristics' admissibility and consistency where they claim it; traces and the
//! oracle.

mod common;

use common::pairs;
use pqlab::maps::generate::{MapKind, MapSpec};
use pqlab::maps::grid::Rules;
use pqlab::maps::grid::{Connectivity, CostScale, Grid, Terrain};
use pqlab::maps::moves::{for_each_move, Components, Direction, Moves};
use pqlab::maps::reference;
use pqlab::search::astar::AStar;
use pqlab::search::heuristic::{AnyHeuristic, Heuristic, HeuristicKind};
use pqlab::search::outcome::SearchError;
use pqlab::search::trace::{replay, Oracle, Recorder};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{Frontier, KeyRule, PushError};

fn maps() -> Vec<Grid> {
    let spec = |kind, size, seed| MapSpec { kind, size, seed }.build();
    vec![
        spec(MapKind::Random { density: 25 }, 48, 3),
        spec(MapKind::Maze { corridor: 2 }, 40, 4),
        spec(MapKind::Rooms { room: 8 }, 48, 5),
        spec(MapKind::Cave { fill: 45, steps: 4 }, 48, 6),
        spec(MapKind::Weighted { feature: 8 }, 40, 7),
    ]
}

/// Checks that `path` runs from `start` to `goal` by legal moves and costs `cost`.
fn check_path(grid: &Grid, rules: Rules, path: &[(u32, u32)], cost: u64) {
    let moves = Moves::new(grid, rules.connectivity, rules.scale);
    let mut total = 0;
    for pair in path.windows(2) {
        let (from, to) = (grid.index(pair[0].0, pair[0].1), grid.index(pair[1].0, pair[1].1));
        let mut step = None;
        for_each_move(grid, &moves, Direction::Forward, from, |m| {
            if m.cell == to {
                step = Some(m.cost);
            }
        });
        total +=
            step.unwrap_or_else(|| panic!("{:?} -> {:?} is not a legal move", pair[0], pair[1]));
    }
    assert_eq!(total, cost, "the path's moves do not add up to its cost");
}

struct AgreesWithReference {
    heuristic: HeuristicKind,
}

impl Visitor for AgreesWithReference {
    type Output = ();

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        for (m, grid) in maps().iter().enumerate() {
            for connectivity in [Connectivity::Four, Connectivity::Eight] {
                let rules = Rules { connectivity, scale: CostScale::FINE };
                let mut search = AStar::<F>::new(grid, rules);
                let mut h =
                    AnyHeuristic::new(self.heuristic, grid, connectivity, rules.scale).unwrap();
                let components = Components::new(grid);
                for (i, &(start, goal)) in pairs(grid, 30, m as u64 * 7 + 1).iter().enumerate() {
                    let expected = reference::cost(grid, connectivity, rules.scale, start, goal);
                    let use_components = (i % 2 == 0).then_some(&components);
                    let outcome = search
                        .search(grid, &mut h, use_components, start, goal)
                        .unwrap_or_else(|e| panic!("{} on map {m}: {e}", entry.id));
                    if F::ORDER.is_exact() {
                        assert_eq!(
                            outcome.cost, expected,
                            "{} with {} on map {m} ({connectivity:?}), {start:?} -> {goal:?}",
                            entry.id, self.heuristic
                        );
                    } else {
                        // Approximate order: a path exactly when one exists, never
                        // cheaper than optimal.
                        assert_eq!(outcome.cost.is_some(), expected.is_some(), "{}", entry.id);
                        assert!(outcome.cost >= expected, "{} beat the optimum", entry.id);
                    }
                    if let Some(cost) = outcome.cost {
                        let path = search.path(grid, goal).expect("a path");
                        assert_eq!((path[0], *path.last().unwrap()), (start, goal));
                        check_path(grid, rules, &path, cost);
                        let c = outcome.counters;
                        assert!(c.expansions >= 1 && c.pops >= c.expansions && c.max_open >= 1);
                        assert_eq!(c.pops, c.expansions + c.stale_pops);
                        if F::ORDER.is_exact() && h.consistent() {
                            assert_eq!(
                                c.reopenings, 0,
                                "{}: a consistent search reopened",
                                entry.id
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn every_queue_finds_the_reference_costs_with_octile() {
    for entry in registry::ENTRIES {
        registry::visit(entry.id, AgreesWithReference { heuristic: HeuristicKind::Octile });
    }
}

#[test]
fn every_queue_finds_the_reference_costs_with_dijkstra_and_landmarks() {
    for entry in registry::ENTRIES {
        registry::visit(entry.id, AgreesWithReference { heuristic: HeuristicKind::Zero });
        registry::visit(
            entry.id,
            AgreesWithReference { heuristic: HeuristicKind::Differential(3) },
        );
    }
}

/// Weighted octile overestimates: queues taking any key find a path within w of the
/// optimum, reopening closed cells; monotone queues report the broken rule clearly.
struct WeightedOctile;

impl Visitor for WeightedOctile {
    type Output = ();

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        let grid = MapSpec { kind: MapKind::Random { density: 30 }, size: 64, seed: 9 }.build();
        let rules = Rules::default();
        let mut search = AStar::<F>::new(&grid, rules);
        let mut h = AnyHeuristic::new(
            HeuristicKind::WeightedOctile(2.0),
            &grid,
            rules.connectivity,
            rules.scale,
        )
        .unwrap();
        assert!(!h.admissible() && !h.consistent());
        let mut rejected = 0;
        for (start, goal) in pairs(&grid, 40, 11) {
            let optimal = reference::cost(&grid, rules.connectivity, rules.scale, start, goal);
            match search.search(&grid, &mut h, None, start, goal) {
                Ok(outcome) => match (outcome.cost, optimal) {
                    (Some(cost), Some(optimal)) => {
                        assert!(
                            cost >= optimal && cost <= 2 * optimal,
                            "{}: {cost} vs {optimal}",
                            entry.id
                        );
                        check_path(&grid, rules, &search.path(&grid, goal).unwrap(), cost);
                    }
                    (found, optimal) => assert_eq!(found, optimal, "{}", entry.id),
                },
                Err(SearchError::Frontier { source: PushError::BelowFloor { .. }, hint }) => {
                    assert!(F::KEYS.is_monotone(), "{} accepts any key but rejected one", entry.id);
                    assert!(hint.contains("inconsistent"), "{hint}");
                    rejected += 1;
                }
                Err(SearchError::Frontier { source: PushError::BeyondSpan { .. }, hint }) => {
                    assert_eq!(
                        F::KEYS,
                        KeyRule::BoundedSpan,
                        "{} has no span but rejected a key",
                        entry.id
                    );
                    assert!(hint.contains("consistent"), "{hint}");
                    rejected += 1;
                }
                Err(other) => panic!("{}: {other}", entry.id),
            }
        }
        if F::KEYS.is_monotone() {
            assert!(
                rejected > 0,
                "{}: weighted octile never produced a non-monotone key",
                entry.id
            );
        }
    }
}

#[test]
fn weighted_octile_is_bounded_suboptimal_or_rejected_by_monotone_queues() {
    for entry in registry::ENTRIES {
        registry::visit(entry.id, WeightedOctile);
    }
}

#[test]
fn reopenings_happen_under_weighted_octile() {
    let grid = MapSpec { kind: MapKind::Random { density: 30 }, size: 64, seed: 9 }.build();
    let rules = Rules::default();
    let mut search =
        AStar::<pqlab_queues::dary_heap::DaryHeap<2, pqlab_queues::Dk>>::new(&grid, rules);
    let mut h = AnyHeuristic::new(
        HeuristicKind::WeightedOctile(3.0),
        &grid,
        rules.connectivity,
        rules.scale,
    )
    .unwrap();
    let reopened: u64 = pairs(&grid, 60, 5)
        .into_iter()
        .map(|(s, g)| search.search(&grid, &mut h, None, s, g).unwrap().counters.reopenings)
        .sum();
    assert!(reopened > 0, "no search reopened a closed cell");
}

#[test]
fn admissible_heuristics_never_overestimate_and_consistent_ones_are_consistent() {
    for grid in maps() {
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let rules = Rules { connectivity, scale: CostScale::FINE };
            let moves = Moves::new(&grid, connectivity, rules.scale);
            for kind in [
                HeuristicKind::Zero,
                HeuristicKind::Manhattan,
                HeuristicKind::Octile,
                HeuristicKind::Chebyshev,
                HeuristicKind::Differential(4),
            ] {
                let mut h = AnyHeuristic::new(kind, &grid, connectivity, rules.scale).unwrap();
                assert_eq!(
                    h.admissible(),
                    !(kind == HeuristicKind::Manhattan && connectivity == Connectivity::Eight),
                    "{kind}"
                );
                for (cell, goal) in pairs(&grid, 20, 3) {
                    let goal_index = grid.index(goal.0, goal.1);
                    h.set_goal(&grid, goal_index);
                    let stride = grid.stride();
                    let estimate = |i: u32| h.estimate(i % stride, i / stride, i);
                    let index = grid.index(cell.0, cell.1);
                    if h.admissible() {
                        if let Some(cost) =
                            reference::cost(&grid, connectivity, rules.scale, cell, goal)
                        {
                            assert!(
                                estimate(index) <= cost,
                                "{kind} overestimates: {} > {cost}",
                                estimate(index)
                            );
                        }
                    }
                    if h.consistent() {
                        for_each_move(&grid, &moves, Direction::Forward, index, |m| {
                            assert!(
                                estimate(index) <= m.cost + estimate(m.cell),
                                "{kind} is inconsistent"
                            );
                        });
                    }
                }
            }
        }
    }
}

#[test]
fn unreachable_goals_are_answered_at_once_with_components() {
    // Two open halves split by a wall.
    let grid =
        Grid::from_fn(20, 10, |x, _| if x == 10 { Terrain::Blocked } else { Terrain::Ground });
    let rules = Rules::default();
    let components = Components::new(&grid);
    let mut search = AStar::<pqlab_queues::std_binary_heap::StdBinaryHeap>::new(&grid, rules);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale).unwrap();
    let with = search.search(&grid, &mut h, Some(&components), (0, 0), (19, 9)).unwrap();
    assert_eq!((with.cost, with.counters.expansions), (None, 0));
    let without = search.search(&grid, &mut h, None, (0, 0), (19, 9)).unwrap();
    assert_eq!(without.cost, None);
    assert_eq!(without.counters.expansions, 100, "the whole left half is expanded");
    assert!(matches!(
        search.search(&grid, &mut h, None, (10, 0), (0, 0)),
        Err(SearchError::BadStart { .. })
    ));
    assert!(matches!(
        search.search(&grid, &mut h, None, (0, 0), (20, 0)),
        Err(SearchError::BadGoal { .. })
    ));
    // A context is for the map it was built for.
    let other = Grid::from_fn(21, 10, |_, _| Terrain::Ground);
    assert!(matches!(
        search.search(&other, &mut h, None, (0, 0), (1, 1)),
        Err(SearchError::OtherMap { cells: 276, built: 264 })
    ));
}

/// Records a search's trace with `F`, replays it personalised on every other queue of the
/// same strategy and key rule, and runs the oracle on it.
struct TracesReplay;

impl Visitor for TracesReplay {
    type Output = ();

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        if !F::ORDER.is_exact() {
            return; // traces replay exact pops; approximate queues are checked above
        }
        let grid = MapSpec { kind: MapKind::Rooms { room: 8 }, size: 64, seed: 2 }.build();
        let rules = Rules::default();
        let mut recorder = AStar::<Recorder<F>>::new(&grid, rules);
        let mut oracle = AStar::<Oracle>::new(&grid, rules);
        let mut h =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale)
                .unwrap();
        for (start, goal) in pairs(&grid, 5, 1) {
            let recorded = recorder.search(&grid, &mut h, None, start, goal).unwrap();
            let trace = recorder.frontier().trace().clone();
            let personal = trace.personalize::<F>().expect("a queue follows its own trace");
            let mut queue =
                F::new(pqlab_queues::Spec { capacity: trace.capacity, span: trace.span });
            replay(&mut queue, &personal);
            assert!(queue.is_empty() || recorded.cost.is_some());
            if F::KEYS == KeyRule::Any && F::STRATEGY == pqlab_queues::Strategy::Duplicates {
                oracle.frontier_mut().load(&trace);
                let replayed = oracle.search(&grid, &mut h, None, start, goal).unwrap();
                assert_eq!(replayed.cost, recorded.cost, "{}: the oracle diverged", entry.id);
                assert_eq!(replayed.counters.expansions, recorded.counters.expansions);
            }
            // Every queue of the same strategy and key rule follows the trace.
            for other in registry::ENTRIES.iter().filter(|e| e.is_exact()) {
                if other.strategy == entry.strategy
                    && (other.keys == KeyRule::Any) == (entry.keys == KeyRule::Any)
                {
                    registry::visit(other.id, Follow(&trace));
                }
            }
        }
    }
}

struct Follow<'a>(&'a pqlab::search::trace::Trace);

impl Visitor for Follow<'_> {
    type Output = ();
    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        self.0
            .personalize::<F>()
            .unwrap_or_else(|e| panic!("{} cannot follow the trace: {e}", entry.id));
    }
}

#[test]
fn traces_replay_on_every_queue_and_the_oracle_reproduces_the_search() {
    for entry in registry::ENTRIES {
        registry::visit(entry.id, TracesReplay);
    }
}

/// A frontier that lists the pops of each cell's current entry: the entry pushed last for
/// it (a duplicate queue's older entries for the cell are stale when they pop).
struct Watch<F> {
    inner: F,
    last_key: std::collections::HashMap<u32, u64>,
    popped_current: Vec<u32>,
}

impl<F: Frontier> Frontier for Watch<F> {
    const FAMILY: pqlab_queues::Family = F::FAMILY;
    const ORIGIN: pqlab_queues::Origin = F::ORIGIN;
    const STRATEGY: pqlab_queues::Strategy = F::STRATEGY;
    const KEYS: KeyRule = F::KEYS;
    const TIES: pqlab_queues::Ties = F::TIES;

    fn new(spec: pqlab_queues::Spec) -> Self {
        Watch { inner: F::new(spec), last_key: Default::default(), popped_current: Vec::new() }
    }
    fn push(&mut self, node: u32, key: u64) -> Result<pqlab_queues::Pushed, PushError> {
        let pushed = self.inner.push(node, key)?;
        self.last_key.insert(node, key);
        Ok(pushed)
    }
    fn pop(&mut self) -> Option<(u32, u64)> {
        let (node, key) = self.inner.pop()?;
        if self.last_key.get(&node) == Some(&key) {
            self.popped_current.push(node);
        }
        Some((node, key))
    }
    fn len(&self) -> usize {
        self.inner.len()
    }
    fn clear(&mut self) {
        self.inner.clear();
        self.last_key.clear();
        self.popped_current.clear();
    }
}

/// A stale pop (an entry whose cell was since pushed with a better key, or already
/// expanded) must not be expanded: with duplicates and a consistent heuristic every cell
/// is expanded at most once, exactly when its current entry pops.
#[test]
fn stale_pops_are_skipped_not_expanded() {
    let grid = MapSpec { kind: MapKind::Random { density: 25 }, size: 64, seed: 3 }.build();
    let rules = Rules::default();
    let mut search =
        AStar::<Watch<pqlab_queues::std_binary_heap::StdBinaryHeap>>::new(&grid, rules);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale).unwrap();
    let mut stale = 0;
    for (start, goal) in pairs(&grid, 40, 17) {
        let outcome = search.search(&grid, &mut h, None, start, goal).unwrap();
        let c = outcome.counters;
        let current = &search.frontier().popped_current;
        let distinct: std::collections::HashSet<_> = current.iter().collect();
        assert_eq!(distinct.len(), current.len(), "a cell's current entry popped twice");
        // Every expansion is of a cell's current entry, each cell once.
        assert_eq!(c.expansions as usize, current.len(), "{start:?} -> {goal:?}");
        stale += c.stale_pops;
    }
    assert!(stale > 0, "the searches never popped a stale entry: the test proves nothing");
}

/// A queue that pops out of order reopens cells; one improved after the goal's cost was
/// set through it must not leave a path cheaper than the cost reported (found by the lab:
/// `soft-heap-e2-dup`, problem 2 of `rugged-h30-1024-s1`). Path and cost agree, and the
/// cost is never below the optimum.
#[test]
fn out_of_order_pops_report_the_cost_of_the_path_they_return() {
    use pqlab::maps::generate::problems;
    use pqlab_queues::soft_heap::SoftHeap;
    let spec = MapSpec { kind: MapKind::Rugged { heavy: 30 }, size: 1024, seed: 1 };
    let grid = spec.build();
    let rules = Rules::default();
    let mut search = AStar::<SoftHeap<2>>::new(&grid, rules);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale).unwrap();
    let mut reopened = 0;
    for problem in problems(&grid, rules.connectivity, rules.scale, 3, spec.seed) {
        let outcome = search.search(&grid, &mut h, None, problem.start, problem.goal).unwrap();
        let cost = outcome.cost.expect("generated problems are reachable");
        check_path(&grid, rules, &search.path(&grid, problem.goal).unwrap(), cost);
        let pqlab::maps::scenario::Expected::Cost(optimal) = problem.expected else {
            panic!("generated problems have exact costs")
        };
        assert!(cost >= optimal, "{cost} beat the optimum {optimal}");
        reopened += outcome.counters.reopenings;
    }
    assert!(reopened > 0, "the soft heap never popped out of order here");
}

/// The differential heuristic is the octile distance raised by landmark bounds: on every
/// map and both connectivities it expands no more cells than its floor, in all.
#[test]
fn the_differential_heuristic_expands_no_more_than_octile() {
    for grid in maps() {
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let rules = Rules { connectivity, scale: CostScale::FINE };
            let floor = match connectivity {
                Connectivity::Eight => HeuristicKind::Octile,
                Connectivity::Four => HeuristicKind::Manhattan,
            };
            let expansions = |kind: HeuristicKind| -> u64 {
                let mut search =
                    AStar::<pqlab_queues::std_binary_heap::StdBinaryHeap>::new(&grid, rules);
                let mut h = AnyHeuristic::new(kind, &grid, connectivity, rules.scale).unwrap();
                pairs(&grid, 30, 11)
                    .into_iter()
                    .map(|(s, g)| {
                        search.search(&grid, &mut h, None, s, g).unwrap().counters.expansions
                    })
                    .sum()
            };
            let (base, landmarks) = (expansions(floor), expansions(HeuristicKind::Differential(8)));
            assert!(landmarks <= base, "{connectivity:?}: {landmarks} > {base}");
        }
    }
}
