//! Fringe search and breadth-first search against the independent reference Dijkstra: on
//! generated maps, on random small grids (proptest), and on a sample of the Moving AI maps
//! when `$PQLAB_MAPS` or `../shared/movingai` exists. Fringe search under every admissible
//! heuristic (octile, Manhattan on 4 moves, Chebyshev on unit-cost 8 moves, zero), an
//! admissible but inconsistent one (it must reopen cells and still be exact), and weighted
//! octile (a valid path, no cheaper than optimal); breadth-first search on unit-cost 4 and
//! 8 moves, and its refusal under any rules where moves differ in cost.

mod common;

use common::{pairs, shared_maps, Cell};
use pqlab::maps::generate::{MapKind, MapSpec};
use pqlab::maps::grid::Rules;
use pqlab::maps::grid::{Connectivity, CostScale, Grid, Terrain};
use pqlab::maps::moves::{Components, Moves};
use pqlab::maps::movingai::{find_maps, parse_map, parse_scen, terrain_of};
use pqlab::maps::reference::{self, CostField};
use pqlab::search::bfs::Bfs;
use pqlab::search::check::path_cost;
use pqlab::search::fringe::Fringe;
use pqlab::search::heuristic::{AnyHeuristic, Heuristic, HeuristicKind};
use pqlab::search::outcome::{Counters, SearchError};
use proptest::prelude::*;

const FOUR_FINE: Rules = Rules { connectivity: Connectivity::Four, scale: CostScale::FINE };
const EIGHT_FINE: Rules = Rules { connectivity: Connectivity::Eight, scale: CostScale::FINE };
const FOUR_UNIT: Rules = Rules { connectivity: Connectivity::Four, scale: CostScale::UNIT };
const EIGHT_UNIT: Rules = Rules { connectivity: Connectivity::Eight, scale: CostScale::UNIT };

fn spec(kind: MapKind, size: u32, seed: u64) -> Grid {
    MapSpec { kind, size, seed }.build()
}

/// Uniform-cost generated maps of four kinds, some with several components.
fn uniform_maps() -> Vec<Grid> {
    vec![
        spec(MapKind::Random { density: 25 }, 40, 3),
        spec(MapKind::Maze { corridor: 2 }, 32, 4),
        spec(MapKind::Rooms { room: 8 }, 40, 5),
        spec(MapKind::Cave { fill: 45, steps: 4 }, 40, 6),
    ]
}

/// Weighted generated maps.
fn weighted_maps() -> Vec<Grid> {
    vec![spec(MapKind::Weighted { feature: 8 }, 32, 7), spec(MapKind::Rugged { heavy: 30 }, 32, 8)]
}

/// The path runs from `start` to `goal` by legal moves and costs `cost`.
fn check_path(
    grid: &Grid,
    rules: Rules,
    path: Option<Vec<Cell>>,
    (start, goal): (Cell, Cell),
    cost: u64,
) {
    let path = path.expect("a search that reached its goal returns a path");
    assert_eq!((path[0], path[path.len() - 1]), (start, goal));
    let moves = Moves::new(grid, rules.connectivity, rules.scale);
    assert_eq!(path_cost(grid, &moves, &path), Some(cost), "the path does not cost {cost}");
}

/// The counters' relations in a list search: every visit expands or is left for later,
/// one entry per cell.
fn check_fringe_counters(c: Counters, consistent: bool) {
    assert_eq!(c.pops, c.expansions + c.stale_pops, "{c:?}");
    assert_eq!(c.max_frontier, c.max_open, "{c:?}");
    assert!(c.expansions >= 1 && c.pushes >= 1 && c.max_open >= 1, "{c:?}");
    if consistent {
        assert_eq!(c.reopenings, 0, "a consistent heuristic reopened a cell: {c:?}");
    }
}

/// Fringe search with `kind` under `rules` finds the reference cost of every problem on
/// every map, with a path of that cost; with components half the time.
fn fringe_agrees(maps: &[Grid], rules: Rules, kind: HeuristicKind) {
    for (m, grid) in maps.iter().enumerate() {
        let mut search = Fringe::new(grid, rules);
        let mut h = AnyHeuristic::new(kind, grid, rules.connectivity, rules.scale).unwrap();
        assert!(h.admissible(), "{kind} is not admissible under {rules:?}");
        let components = Components::new(grid);
        for (i, &(start, goal)) in pairs(grid, 30, m as u64 * 7 + 1).iter().enumerate() {
            let expected = reference::cost(grid, rules.connectivity, rules.scale, start, goal);
            let outcome = search
                .search(grid, &mut h, (i % 2 == 0).then_some(&components), start, goal)
                .unwrap_or_else(|e| panic!("map {m}: {e}"));
            assert_eq!(outcome.cost, expected, "{kind}, {rules:?}, map {m}, {start:?} -> {goal:?}");
            if let Some(cost) = outcome.cost {
                check_path(grid, rules, search.path(grid, goal), (start, goal), cost);
                check_fringe_counters(outcome.counters, h.consistent());
            }
        }
    }
}

#[test]
fn fringe_finds_the_reference_costs_with_octile() {
    fringe_agrees(&uniform_maps(), EIGHT_FINE, HeuristicKind::Octile);
    fringe_agrees(&weighted_maps(), EIGHT_FINE, HeuristicKind::Octile);
}

#[test]
fn fringe_finds_the_reference_costs_with_manhattan_on_4_moves() {
    fringe_agrees(&uniform_maps(), FOUR_FINE, HeuristicKind::Manhattan);
    fringe_agrees(&weighted_maps(), FOUR_FINE, HeuristicKind::Manhattan);
}

#[test]
fn fringe_finds_the_reference_costs_with_chebyshev_on_unit_8_moves() {
    fringe_agrees(&uniform_maps(), EIGHT_UNIT, HeuristicKind::Chebyshev);
    fringe_agrees(&weighted_maps(), EIGHT_UNIT, HeuristicKind::Chebyshev);
}

#[test]
fn fringe_finds_the_reference_costs_with_zero_and_landmarks() {
    fringe_agrees(&uniform_maps(), EIGHT_FINE, HeuristicKind::Zero);
    fringe_agrees(&weighted_maps(), FOUR_FINE, HeuristicKind::Zero);
    fringe_agrees(&uniform_maps(), EIGHT_FINE, HeuristicKind::Differential(3));
}

/// An admissible, inconsistent heuristic: the exact remaining cost on a pseudo-random
/// quarter of the cells, zero on the others. Between two neighbours it can drop from the
/// exact cost to zero, far more than the move's cost.
struct Patchy {
    exact: Option<CostField>,
    stride: u32,
}

impl Heuristic for Patchy {
    fn set_goal(&mut self, grid: &Grid, goal: u32) {
        // From the goal: the same costs as to it, since the maps used have no weights.
        assert!(grid.weights().is_none());
        let goal = grid.coords(goal);
        self.exact = Some(CostField::from_start(grid, Connectivity::Eight, CostScale::FINE, goal));
        self.stride = grid.stride();
    }

    fn estimate(&self, _: u32, _: u32, index: u32) -> u64 {
        if index.wrapping_mul(0x9e37_79b9) >> 30 != 0 {
            return 0;
        }
        let cell = (index % self.stride - 1, index / self.stride - 1);
        self.exact.as_ref().and_then(|field| field.cost(cell)).unwrap_or(0)
    }

    fn admissible(&self) -> bool {
        true
    }

    fn consistent(&self) -> bool {
        false
    }
}

#[test]
fn fringe_is_exact_with_an_admissible_inconsistent_heuristic() {
    let mut reopened = 0;
    for (m, grid) in uniform_maps().iter().enumerate() {
        let mut search = Fringe::new(grid, EIGHT_FINE);
        let mut h = Patchy { exact: None, stride: 0 };
        for (start, goal) in pairs(grid, 30, m as u64 * 5 + 3) {
            let expected = reference::cost(grid, Connectivity::Eight, CostScale::FINE, start, goal);
            let outcome = search.search(grid, &mut h, None, start, goal).unwrap();
            assert_eq!(outcome.cost, expected, "map {m}, {start:?} -> {goal:?}");
            if let Some(cost) = outcome.cost {
                check_path(grid, EIGHT_FINE, search.path(grid, goal), (start, goal), cost);
                check_fringe_counters(outcome.counters, false);
            }
            reopened += outcome.counters.reopenings;
        }
    }
    assert!(reopened > 0, "no search reinserted an expanded cell: the test proves nothing");
}

/// Weighted octile overestimates: fringe search finds a valid path exactly when one
/// exists, never cheaper than optimal.
#[test]
fn fringe_with_weighted_octile_finds_valid_paths_no_cheaper_than_optimal() {
    for (m, grid) in uniform_maps().iter().chain(&weighted_maps()).enumerate() {
        let mut search = Fringe::new(grid, EIGHT_FINE);
        let kind = HeuristicKind::WeightedOctile(2.0);
        let mut h = AnyHeuristic::new(kind, grid, Connectivity::Eight, CostScale::FINE).unwrap();
        for (start, goal) in pairs(grid, 30, m as u64 + 11) {
            let optimal = reference::cost(grid, Connectivity::Eight, CostScale::FINE, start, goal);
            let outcome = search.search(grid, &mut h, None, start, goal).unwrap();
            assert_eq!(outcome.cost.is_some(), optimal.is_some(), "map {m}");
            if let Some(cost) = outcome.cost {
                assert!(outcome.cost >= optimal, "map {m}: {cost} beat the optimum {optimal:?}");
                check_path(grid, EIGHT_FINE, search.path(grid, goal), (start, goal), cost);
            }
        }
    }
}

#[test]
fn bfs_finds_the_reference_costs_on_unit_moves() {
    let coarse_four = Rules { connectivity: Connectivity::Four, scale: CostScale::COARSE };
    for rules in [FOUR_UNIT, EIGHT_UNIT, FOUR_FINE, coarse_four] {
        for (m, grid) in uniform_maps().iter().enumerate() {
            let mut search = Bfs::new(grid, rules);
            let components = Components::new(grid);
            for (i, &(start, goal)) in pairs(grid, 40, m as u64 * 3 + 2).iter().enumerate() {
                let expected = reference::cost(grid, rules.connectivity, rules.scale, start, goal);
                let outcome = search
                    .search(grid, (i % 2 == 1).then_some(&components), start, goal)
                    .unwrap_or_else(|e| panic!("{rules:?}, map {m}: {e}"));
                assert_eq!(outcome.cost, expected, "{rules:?}, map {m}, {start:?} -> {goal:?}");
                let c = outcome.counters;
                assert_eq!(
                    (c.pops, c.stale_pops, c.decrease_keys, c.reopenings),
                    (c.expansions, 0, 0, 0)
                );
                assert_eq!(c.max_frontier, c.max_open);
                if let Some(cost) = outcome.cost {
                    check_path(grid, rules, search.path(grid, goal), (start, goal), cost);
                    assert!(c.pushes >= 1 && c.pushes <= c.expansions * 8 + 1, "{c:?}");
                }
            }
        }
    }
}

#[test]
fn bfs_refuses_moves_of_different_costs() {
    let uniform = spec(MapKind::Random { density: 10 }, 16, 1);
    let weighted = spec(MapKind::Weighted { feature: 4 }, 16, 1);
    let cases = [
        (&uniform, EIGHT_FINE, "diagonal steps cost 275807 and straight steps 195025"),
        (&uniform, Rules { connectivity: Connectivity::Eight, scale: CostScale::COARSE }, "14"),
        (&weighted, FOUR_UNIT, "cell weights"),
        (&weighted, EIGHT_UNIT, "cell weights"),
        (&weighted, FOUR_FINE, "cell weights"),
    ];
    for (grid, rules, why) in cases {
        let mut search = Bfs::new(grid, rules);
        match search.search(grid, None, (0, 0), (15, 15)) {
            Err(error @ SearchError::UnequalCosts { .. }) => {
                let message = error.to_string();
                assert!(
                    message.contains(why) && message.contains("every move costs the same"),
                    "{message}"
                );
            }
            other => panic!("{rules:?} on {grid:?}: expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn unreachable_goals_are_answered_at_once_with_components_and_by_exhaustion_without() {
    // Two open halves split by a wall.
    let grid =
        Grid::from_fn(20, 10, |x, _| if x == 10 { Terrain::Blocked } else { Terrain::Ground });
    let components = Components::new(&grid);
    let mut fringe = Fringe::new(&grid, EIGHT_FINE);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, &grid, Connectivity::Eight, CostScale::FINE)
            .unwrap();
    let mut bfs = Bfs::new(&grid, EIGHT_UNIT);
    let with = fringe.search(&grid, &mut h, Some(&components), (0, 0), (19, 9)).unwrap();
    assert_eq!((with.cost, with.counters.expansions), (None, 0));
    let with = bfs.search(&grid, Some(&components), (0, 0), (19, 9)).unwrap();
    assert_eq!((with.cost, with.counters.expansions), (None, 0));
    let without = fringe.search(&grid, &mut h, None, (0, 0), (19, 9)).unwrap();
    assert_eq!(without.cost, None);
    assert_eq!(without.counters.expansions, 100, "the whole left half is expanded");
    assert_eq!(fringe.path(&grid, (19, 9)), None);
    let without = bfs.search(&grid, None, (0, 0), (19, 9)).unwrap();
    assert_eq!(
        (without.cost, without.counters.expansions, without.counters.pushes),
        (None, 100, 100)
    );
    assert_eq!(bfs.path(&grid, (19, 9)), None);
    // The start is the goal.
    let same = fringe.search(&grid, &mut h, None, (3, 4), (3, 4)).unwrap();
    assert_eq!((same.cost, same.counters.expansions), (Some(0), 1));
    assert_eq!(fringe.path(&grid, (3, 4)), Some(vec![(3, 4)]));
    assert_eq!(bfs.search(&grid, None, (3, 4), (3, 4)).unwrap().cost, Some(0));
    assert_eq!(bfs.path(&grid, (3, 4)), Some(vec![(3, 4)]));
    // Bad endpoints and another map are errors, not answers.
    for (start, goal) in [((10, 0), (0, 0)), ((20, 0), (0, 0))] {
        assert!(matches!(
            fringe.search(&grid, &mut h, None, start, goal),
            Err(SearchError::BadStart { .. })
        ));
        assert!(matches!(bfs.search(&grid, None, start, goal), Err(SearchError::BadStart { .. })));
    }
    assert!(matches!(
        fringe.search(&grid, &mut h, None, (0, 0), (0, 10)),
        Err(SearchError::BadGoal { .. })
    ));
    assert!(matches!(bfs.search(&grid, None, (0, 0), (0, 10)), Err(SearchError::BadGoal { .. })));
    let other = Grid::from_fn(21, 10, |_, _| Terrain::Ground);
    assert!(matches!(
        fringe.search(&other, &mut h, None, (0, 0), (1, 1)),
        Err(SearchError::OtherMap { cells: 276, built: 264 })
    ));
    assert!(matches!(
        bfs.search(&other, None, (0, 0), (1, 1)),
        Err(SearchError::OtherMap { cells: 276, built: 264 })
    ));
}

/// Many searches on one context: the stamps keep each search independent of the last.
#[test]
fn a_context_answers_many_searches_in_turn() {
    let grid = spec(MapKind::Rooms { room: 6 }, 24, 2);
    let mut fringe = Fringe::new(&grid, EIGHT_FINE);
    let mut bfs = Bfs::new(&grid, EIGHT_UNIT);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, &grid, Connectivity::Eight, CostScale::FINE)
            .unwrap();
    for (start, goal) in pairs(&grid, 300, 99) {
        let fine = reference::cost(&grid, Connectivity::Eight, CostScale::FINE, start, goal);
        assert_eq!(fringe.search(&grid, &mut h, None, start, goal).unwrap().cost, fine);
        let unit = reference::cost(&grid, Connectivity::Eight, CostScale::UNIT, start, goal);
        assert_eq!(bfs.search(&grid, None, start, goal).unwrap().cost, unit);
    }
}

proptest! {
    /// Random 7×7 grids of every terrain class, with and without weights, under both
    /// connectivities: fringe search with the admissible heuristic of the moves, and zero;
    /// breadth-first search with unit costs (refusing on weighted grids).
    #[test]
    fn both_loops_agree_with_the_reference_on_random_grids(
        chars in proptest::collection::vec(
            proptest::sample::select(&['.', '.', '.', '.', '.', 'W', 'T', '@'][..]), 49),
        weights in proptest::collection::vec(1u8..10, 49),
        weighted in any::<bool>(),
        eight in any::<bool>(),
        zero in any::<bool>(),
        problems in proptest::collection::vec(((0u32..7, 0u32..7), (0u32..7, 0u32..7)), 8),
    ) {
        let mut grid = Grid::from_fn(7, 7, |x, y| terrain_of(chars[(y * 7 + x) as usize]).unwrap());
        if weighted {
            grid = grid.with_weights(|x, y| weights[(y * 7 + x) as usize]);
        }
        let (connectivity, kind) = match (eight, zero) {
            (_, true) => (if eight { Connectivity::Eight } else { Connectivity::Four }, HeuristicKind::Zero),
            (true, false) => (Connectivity::Eight, HeuristicKind::Octile),
            (false, false) => (Connectivity::Four, HeuristicKind::Manhattan),
        };
        let fine = Rules { connectivity, scale: CostScale::FINE };
        let unit = Rules { connectivity, scale: CostScale::UNIT };
        let mut fringe = Fringe::new(&grid, fine);
        let mut h = AnyHeuristic::new(kind, &grid, connectivity, fine.scale).unwrap();
        let mut bfs = Bfs::new(&grid, unit);
        for (start, goal) in problems {
            let blocked = grid.terrain(grid.index(start.0, start.1)) == Terrain::Blocked;
            let found = fringe.search(&grid, &mut h, None, start, goal);
            let bfs_found = bfs.search(&grid, None, start, goal);
            if blocked {
                prop_assert!(matches!(found, Err(SearchError::BadStart { .. })), "{:?}", found);
                prop_assert!(matches!(bfs_found, Err(SearchError::BadStart { .. })), "{:?}", bfs_found);
                continue;
            }
            let outcome = found.unwrap();
            prop_assert_eq!(outcome.cost, reference::cost(&grid, connectivity, fine.scale, start, goal));
            if let Some(cost) = outcome.cost {
                check_path(&grid, fine, fringe.path(&grid, goal), (start, goal), cost);
                check_fringe_counters(outcome.counters, true);
            }
            if weighted {
                prop_assert!(matches!(bfs_found, Err(SearchError::UnequalCosts { .. })), "{:?}", bfs_found);
            } else {
                let outcome = bfs_found.unwrap();
                prop_assert_eq!(outcome.cost, reference::cost(&grid, connectivity, unit.scale, start, goal));
                if let Some(cost) = outcome.cost {
                    check_path(&grid, unit, bfs.path(&grid, goal), (start, goal), cost);
                }
            }
        }
    }
}

/// Per Moving AI map, this many scenario problems, spread over the length buckets up to 40
/// (longer ones make the reference Dijkstra of the unit-cost check slow in the test
/// profile).
const PER_MAP: usize = 3;

/// Fringe search with octile reproduces the scenarios' optimal lengths; breadth-first
/// search with unit 8 moves the reference Dijkstra's costs.
#[test]
fn both_loops_on_a_moving_ai_sample() {
    let Some(dir) = shared_maps() else { return };
    for (map, scen) in find_maps(&dir).expect("the maps folder lists") {
        let grid = parse_map(&map).unwrap_or_else(|e| panic!("{e}"));
        let all = parse_scen(&scen, &grid).unwrap_or_else(|e| panic!("{e}"));
        let short: Vec<_> = all.iter().filter(|p| p.bucket <= 40).collect();
        let name = map.display();
        let components = Components::new(&grid);
        let mut fringe = Fringe::new(&grid, EIGHT_FINE);
        let mut h =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, Connectivity::Eight, CostScale::FINE)
                .unwrap();
        let mut bfs = Bfs::new(&grid, EIGHT_UNIT);
        for i in 0..PER_MAP {
            let Some(p) = short.get(i * short.len() / PER_MAP + short.len() / (2 * PER_MAP)) else {
                continue;
            };
            let outcome = fringe.search(&grid, &mut h, Some(&components), p.start, p.goal).unwrap();
            assert!(
                p.expected.accepts(outcome.cost, CostScale::FINE),
                "fringe on {name}: {p:?}, found {:?}",
                outcome.cost
            );
            let expected =
                reference::cost(&grid, Connectivity::Eight, CostScale::UNIT, p.start, p.goal);
            let found = bfs.search(&grid, Some(&components), p.start, p.goal).unwrap().cost;
            assert_eq!(found, expected, "bfs on {name}: {p:?}");
        }
    }
}
