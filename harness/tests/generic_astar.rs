//! The queue crate's generic A* (`pqlab_queues::astar`, `astar_dense`) with every
//! registered queue against the independent reference Dijkstra: on generated maps, both
//! connectivities, uniform and weighted, with the octile and the zero heuristic; and on a
//! sample of every Moving AI map when `$PQLAB_MAPS` or `../shared/movingai` exists.
//!
//! The hashed search gets `u32` costs (any-key queues then fold `g` into the key) and the
//! dense one `u64` costs (the key is `f` alone), so both key shapes are checked.

mod common;

use common::{pairs, shared_maps, Cell};
use pqlab::maps::generate::{MapKind, MapSpec};
use pqlab::maps::grid::{Connectivity, CostScale, Grid};
use pqlab::maps::moves::{for_each_move, Direction, Moves};
use pqlab::maps::movingai::{find_maps, parse_map, parse_scen};
use pqlab::maps::reference;
use pqlab::search::heuristic::{AnyHeuristic, Heuristic, HeuristicKind};
use pqlab_queues::astar::{takes, AstarError};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{astar, astar_dense, Frontier};

/// One problem on one map: the rules, the heuristic and the reference cost.
struct Problem<'a> {
    grid: &'a Grid,
    moves: &'a Moves,
    heuristic: &'a AnyHeuristic,
    start: Cell,
    goal: Cell,
    expected: Option<u64>,
}

impl Problem<'_> {
    fn successors(&self, &(x, y): &Cell) -> Vec<(Cell, u64)> {
        let mut next = Vec::with_capacity(8);
        for_each_move(self.grid, self.moves, Direction::Forward, self.grid.index(x, y), |m| {
            next.push((self.grid.coords(m.cell), m.cost))
        });
        next
    }

    fn estimate(&self, &(x, y): &Cell) -> u64 {
        self.heuristic.estimate(x, y, self.grid.index(x, y))
    }

    /// Solves the problem with `F` both ways and checks each answer: the reference cost
    /// with an exact queue, a valid path no cheaper with an approximate one, and a path
    /// that costs what was returned.
    fn check<F: Frontier>(&self, entry: &Entry, place: &str) {
        let what = format!("{} on {place}, {:?} -> {:?}", entry.id, self.start, self.goal);
        let narrow = |cost: u64| u32::try_from(cost).expect("grid costs fit u32");
        let hashed = astar::<F, _, _, _>(
            &self.start,
            |cell| self.successors(cell).into_iter().map(|(c, cost)| (c, narrow(cost))),
            |cell| narrow(self.estimate(cell)),
            |&cell| cell == self.goal,
        )
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .map(|(path, cost)| (path, u64::from(cost)));
        let dense = astar_dense::<F, _, _, _>(
            &self.start,
            |cell| self.successors(cell),
            |cell| self.estimate(cell),
            |&cell| cell == self.goal,
            self.grid.cells(),
            |&(x, y)| self.grid.index(x, y) as usize,
        );
        // A narrow queue takes no 64-bit costs: the search says so at once.
        let dense = match (dense, takes::<F, u64>()) {
            (Err(AstarError::Refused(why)), Err(reason)) if why == reason => None,
            (found, _) => Some(found.unwrap_or_else(|e| panic!("{what} (dense): {e}"))),
        };
        for found in std::iter::once(hashed).chain(dense) {
            let cost = found.as_ref().map(|(_, cost)| *cost);
            if F::ORDER.is_exact() {
                assert_eq!(cost, self.expected, "{what}");
            } else {
                assert_eq!(cost.is_some(), self.expected.is_some(), "{what}");
                assert!(cost >= self.expected, "{what} beat the optimum");
            }
            if let Some((path, cost)) = found {
                assert_eq!((path[0], path[path.len() - 1]), (self.start, self.goal), "{what}");
                let walked: u64 = path
                    .windows(2)
                    .map(|pair| {
                        let step = self.successors(&pair[0]).into_iter().find(|s| s.0 == pair[1]);
                        step.unwrap_or_else(|| panic!("{what}: {pair:?} is not a move")).1
                    })
                    .sum();
                assert_eq!(walked, cost, "{what}: the path does not cost what was returned");
            }
        }
    }
}

/// Every problem of one map, each queue in turn.
struct Map<'a> {
    name: &'a str,
    grid: &'a Grid,
    connectivity: Connectivity,
    kinds: &'a [HeuristicKind],
    problems: &'a [(Cell, Cell)],
}

impl Visitor for &Map<'_> {
    type Output = ();

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        let (grid, scale) = (self.grid, CostScale::FINE);
        let moves = Moves::new(grid, self.connectivity, scale);
        for &kind in self.kinds {
            let mut heuristic = AnyHeuristic::new(kind, grid, self.connectivity, scale).unwrap();
            for &(start, goal) in self.problems {
                heuristic.set_goal(grid, grid.index(goal.0, goal.1));
                let expected = reference::cost(grid, self.connectivity, scale, start, goal);
                let problem =
                    Problem { grid, moves: &moves, heuristic: &heuristic, start, goal, expected };
                let place = format!("{} ({:?}, {kind})", self.name, self.connectivity);
                problem.check::<F>(entry, &place);
            }
        }
    }
}

#[test]
fn every_queue_finds_the_reference_costs_on_generated_maps() {
    let spec = |kind, size, seed| MapSpec { kind, size, seed }.build();
    let maps = [
        ("random", spec(MapKind::Random { density: 25 }, 40, 3)),
        ("maze", spec(MapKind::Maze { corridor: 2 }, 32, 4)),
        ("rooms", spec(MapKind::Rooms { room: 8 }, 40, 5)),
        ("cave", spec(MapKind::Cave { fill: 45, steps: 4 }, 40, 6)),
        ("weighted", spec(MapKind::Weighted { feature: 8 }, 32, 7)),
    ];
    for (m, (name, grid)) in maps.iter().enumerate() {
        let problems = pairs(grid, 12, m as u64 * 7 + 1);
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let map = Map {
                name,
                grid,
                connectivity,
                kinds: &[HeuristicKind::Octile, HeuristicKind::Zero],
                problems: &problems,
            };
            for entry in registry::ENTRIES {
                registry::visit(entry.id, &map);
            }
        }
    }
}

/// Per Moving AI map, this many scenario problems, spread over its length buckets (up to
/// bucket 40, so that the reference Dijkstra and 40 queues × 2 searches stay within a
/// minute of the test profile). `pqlab validate` checks the harness A* on every problem.
const PER_MAP: usize = 2;

#[test]
fn every_queue_finds_the_reference_costs_on_a_moving_ai_sample() {
    let Some(dir) = shared_maps() else { return };
    for (map, scen) in find_maps(&dir).expect("the maps folder lists") {
        let grid = parse_map(&map).unwrap_or_else(|e| panic!("{e}"));
        let all = parse_scen(&scen, &grid).unwrap_or_else(|e| panic!("{e}"));
        let short: Vec<_> = all.iter().filter(|p| p.bucket <= 40).collect();
        let problems: Vec<(Cell, Cell)> = (0..PER_MAP)
            .filter_map(|i| short.get(i * short.len() / PER_MAP + short.len() / (2 * PER_MAP)))
            .map(|p| (p.start, p.goal))
            .collect();
        let name = map.file_name().unwrap_or_default().to_string_lossy();
        let map = Map {
            name: &name,
            grid: &grid,
            connectivity: Connectivity::Eight,
            kinds: &[HeuristicKind::Octile],
            problems: &problems,
        };
        for entry in registry::ENTRIES {
            registry::visit(entry.id, &map);
        }
    }
}
