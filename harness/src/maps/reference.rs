//! The reference Dijkstra: the oracle that computes the expected costs of generated
//! problems, and so checks the lab's A* on generated maps.
//!
//! Written to be obviously right rather than fast, and independent of the A*: it works on
//! `(x, y)` coordinates with explicit bounds checks (not on the padded indices), uses
//! `std::collections::BinaryHeap` with lazy deletion, and restates the movement rules of
//! [`crate::maps::grid`] itself:
//!
//! - a move joins two cells of the same terrain class, and never a blocked cell;
//! - 4-connectivity allows the straight steps; 8-connectivity adds the diagonal steps
//!   `(x, y) -> (x+dx, y+dy)`, allowed only when both `(x+dx, y)` and `(x, y+dy)` are of
//!   that class too (no corner cutting);
//! - a step costs `scale.straight` or `scale.diagonal`, times the weight of the cell it
//!   enters (1 on maps without weights).
//!
//! A search from a blocked cell reaches nothing. Each run takes O(C log C) time and O(W·H)
//! memory, where C is the number of cells reached.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

use crate::maps::grid::{Connectivity, CostScale, Grid, Terrain};

/// The straight steps, then the diagonal steps.
const STEPS: [(i64, i64); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The cost of the cheapest path from `start` to `goal`, or `None` when there is none
/// (different components, or a blocked cell). The search stops once `goal` is settled.
pub fn cost(
    grid: &Grid,
    connectivity: Connectivity,
    scale: CostScale,
    start: (u32, u32),
    goal: (u32, u32),
) -> Option<u64> {
    let mut found = None;
    dijkstra(grid, connectivity, scale, start, |cell, cost| {
        if cell == goal {
            found = Some(cost);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    found
}

/// The costs from one start to every cell it reaches, and the order Dijkstra settled them
/// in. About 12 bytes a cell.
#[derive(Clone, Debug)]
pub struct CostField {
    width: u32,
    /// The cost of each cell (row-major), `u64::MAX` where unreached.
    cost: Vec<u64>,
    /// The reached cells (row-major ids) by nondecreasing cost; the start comes first.
    order: Vec<u32>,
}

impl CostField {
    /// Runs Dijkstra from `start` to exhaustion.
    pub fn from_start(
        grid: &Grid,
        connectivity: Connectivity,
        scale: CostScale,
        start: (u32, u32),
    ) -> Self {
        let width = grid.width();
        let mut order = Vec::new();
        let cost = dijkstra(grid, connectivity, scale, start, |(x, y), _| {
            order.push(y * width + x);
            ControlFlow::Continue(())
        });
        CostField { width, cost, order }
    }

    /// The number of cells reached, the start included.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether nothing was reached (the start is blocked).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The `rank`-th cell settled (0 is the start) and its cost.
    ///
    /// # Panics
    /// If `rank >= self.len()`.
    pub fn settled(&self, rank: usize) -> ((u32, u32), u64) {
        let id = self.order[rank];
        ((id % self.width, id / self.width), self.cost[id as usize])
    }

    /// How many reached cells cost less than `cost`: the rank of the first one costing at
    /// least `cost`. O(log n).
    pub fn rank_of(&self, cost: u64) -> usize {
        self.order.partition_point(|&id| self.cost[id as usize] < cost)
    }

    /// The cost of reaching `(x, y)`, or `None` if it is unreached or off the map.
    pub fn cost(&self, (x, y): (u32, u32)) -> Option<u64> {
        let id = y as usize * self.width as usize + x as usize;
        (x < self.width).then(|| self.cost.get(id)).flatten().copied().filter(|&c| c != u64::MAX)
    }
}

/// The terrain of `(x, y)`, or [`Terrain::Blocked`] off the map.
fn terrain_at(grid: &Grid, x: i64, y: i64) -> Terrain {
    match (u32::try_from(x), u32::try_from(y)) {
        (Ok(x), Ok(y)) if grid.contains(x, y) => grid.terrain(grid.index(x, y)),
        _ => Terrain::Blocked,
    }
}

/// The moves out of `(x, y)`: each neighbour with the cost of stepping onto it.
fn moves(
    grid: &Grid,
    connectivity: Connectivity,
    scale: CostScale,
    (x, y): (u32, u32),
) -> impl Iterator<Item = ((u32, u32), u64)> + '_ {
    let (x, y) = (i64::from(x), i64::from(y));
    let class = terrain_at(grid, x, y);
    let steps = match connectivity {
        Connectivity::Four => &STEPS[..4],
        Connectivity::Eight => &STEPS[..],
    };
    steps.iter().filter_map(move |&(dx, dy)| {
        let diagonal = dx != 0 && dy != 0;
        let allowed = class != Terrain::Blocked
            && terrain_at(grid, x + dx, y + dy) == class
            && (!diagonal
                || (terrain_at(grid, x + dx, y) == class && terrain_at(grid, x, y + dy) == class));
        if !allowed {
            return None;
        }
        // On the map, since its terrain is `class` and not the `Blocked` of off-map cells.
        let next = ((x + dx) as u32, (y + dy) as u32);
        let weight = grid.weights().map_or(1, |w| w[grid.index(next.0, next.1) as usize]);
        let step = if diagonal { scale.diagonal } else { scale.straight };
        Some((next, u64::from(step) * u64::from(weight)))
    })
}

/// Dijkstra from `start`: calls `settle(cell, cost)` once per reached cell, by nondecreasing
/// cost, until it breaks or every reachable cell is settled. Returns the cost of every cell
/// (row-major, `u64::MAX` where unreached), final for the settled cells.
fn dijkstra(
    grid: &Grid,
    connectivity: Connectivity,
    scale: CostScale,
    start: (u32, u32),
    mut settle: impl FnMut((u32, u32), u64) -> ControlFlow<()>,
) -> Vec<u64> {
    let (width, height) = (grid.width() as usize, grid.height() as usize);
    let id = |(x, y): (u32, u32)| y as usize * width + x as usize;
    let mut best = vec![u64::MAX; width * height];
    if terrain_at(grid, start.0.into(), start.1.into()) == Terrain::Blocked {
        return best;
    }
    let mut heap = BinaryHeap::new();
    best[id(start)] = 0;
    heap.push(Reverse((0, start.1, start.0)));
    while let Some(Reverse((cost, y, x))) = heap.pop() {
        if cost > best[id((x, y))] {
            continue; // a stale entry: the cell was settled at a lower cost
        }
        if settle((x, y), cost).is_break() {
            break;
        }
        for (next, step) in moves(grid, connectivity, scale, (x, y)) {
            let through = cost + step;
            if through < best[id(next)] {
                best[id(next)] = through;
                heap.push(Reverse((through, next.1, next.0)));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maps::movingai::{self, terrain_of};
    use crate::maps::scenario::Expected;
    use proptest::prelude::*;

    const FINE: CostScale = CostScale::FINE;
    const S: u64 = FINE.straight as u64;
    const D: u64 = FINE.diagonal as u64;

    /// A grid from rows of Moving AI characters.
    fn grid(rows: &[&str]) -> Grid {
        let rows: Vec<Vec<char>> = rows.iter().map(|row| row.chars().collect()).collect();
        Grid::from_fn(rows[0].len() as u32, rows.len() as u32, |x, y| {
            terrain_of(rows[y as usize][x as usize]).expect("a terrain character")
        })
    }

    #[test]
    fn corners_are_not_cut() {
        // The top left of `dao/arena.map`: the diagonal (1,3) -> (2,2) would cut the tree
        // at (1,2), so the path is (1,3) -> (2,3) -> (3,2) -> (3,1).
        let arena = grid(&["TTTTT", "TTT..", "TT...", "T....", "T...."]);
        let cost = cost(&arena, Connectivity::Eight, FINE, (1, 3), (3, 1));
        assert_eq!(cost, Some(2 * S + D));
        assert!((FINE.to_units(cost.unwrap()) - (2.0 + 2f64.sqrt())).abs() < 1e-9);
        // Nor between two blocked cells: (0,0) -> (1,1) needs (1,0) or (0,1) open.
        let pinch = grid(&[".@", "@."]);
        assert_eq!(super::cost(&pinch, Connectivity::Eight, FINE, (0, 0), (1, 1)), None);
    }

    #[test]
    fn four_and_eight_connectivity() {
        let open = grid(&["...", "...", "..."]);
        assert_eq!(cost(&open, Connectivity::Four, FINE, (0, 0), (2, 2)), Some(4 * S));
        assert_eq!(cost(&open, Connectivity::Eight, FINE, (0, 0), (2, 2)), Some(2 * D));
        assert_eq!(cost(&open, Connectivity::Eight, FINE, (0, 0), (2, 1)), Some(S + D));
        assert_eq!(cost(&open, Connectivity::Eight, CostScale::COARSE, (0, 0), (2, 1)), Some(24));
        assert_eq!(cost(&open, Connectivity::Eight, FINE, (1, 1), (1, 1)), Some(0));
        // Around a wall: (0,0) -> (1,1) -> (1,2) -> (2,2) -> (3,2) -> (4,1) -> (4,0), with
        // straight steps past the wall's end, where a diagonal would cut its corner.
        let wall = grid(&["..@..", "..@..", "....."]);
        assert_eq!(cost(&wall, Connectivity::Four, FINE, (0, 0), (4, 0)), Some(8 * S));
        assert_eq!(cost(&wall, Connectivity::Eight, FINE, (0, 0), (4, 0)), Some(4 * S + 2 * D));
    }

    #[test]
    fn moves_stay_within_a_terrain_class() {
        let classes = grid(&["..WW..", "TTWWTT", "@@@@@@"]);
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let cost = |start, goal| cost(&classes, connectivity, FINE, start, goal);
            assert_eq!(cost((0, 0), (5, 0)), None, "ground is split by water");
            assert_eq!(cost((0, 0), (1, 0)), Some(S));
            assert_eq!(cost((0, 0), (0, 1)), None, "ground to trees");
            assert_eq!(
                cost((2, 0), (3, 1)),
                Some(if connectivity == Connectivity::Four { 2 * S } else { D })
            );
            assert_eq!(cost((0, 1), (1, 1)), Some(S), "trees to trees");
            assert_eq!(cost((0, 2), (0, 2)), None, "a blocked start reaches nothing");
            assert!(CostField::from_start(&classes, connectivity, FINE, (0, 2)).is_empty());
        }
    }

    #[test]
    fn entering_a_cell_costs_its_weight() {
        let line = grid(&["..."]).with_weights(|x, _| [1, 5, 2][x as usize]);
        assert_eq!(cost(&line, Connectivity::Four, FINE, (0, 0), (2, 0)), Some(7 * S));
        assert_eq!(cost(&line, Connectivity::Four, FINE, (2, 0), (0, 0)), Some(6 * S));
        // To the weight-9 corner: two straight steps (3 + 9) beat one diagonal (9) with
        // FINE's √2, 12 · 195025 < 9 · 275807, and likewise 120 < 126 in COARSE.
        let square =
            grid(&["..", ".."]).with_weights(|x, y| [[1, 3], [3, 9]][y as usize][x as usize]);
        assert_eq!(cost(&square, Connectivity::Eight, FINE, (0, 0), (1, 1)), Some(12 * S));
        assert_eq!(
            cost(&square, Connectivity::Eight, CostScale::COARSE, (0, 0), (1, 1)),
            Some(120)
        );
        // Back to the weight-1 corner the diagonal wins: 1 · D < (3 + 1) · S.
        assert_eq!(cost(&square, Connectivity::Eight, FINE, (1, 1), (0, 0)), Some(D));
    }

    #[test]
    fn cost_field_settles_in_cost_order() {
        let open = grid(&["...", ".T.", "..."]);
        let field = CostField::from_start(&open, Connectivity::Eight, FINE, (0, 0));
        assert_eq!(field.len(), 8);
        assert_eq!(field.settled(0), ((0, 0), 0));
        assert!((1..8).all(|rank| field.settled(rank - 1).1 <= field.settled(rank).1));
        assert_eq!(field.cost((2, 2)), Some(4 * S));
        assert_eq!(field.cost((1, 1)), None, "the tree");
        assert_eq!(field.cost((3, 0)), None, "off the map");
        assert_eq!(
            (field.rank_of(0), field.rank_of(1), field.rank_of(S + 1), field.rank_of(u64::MAX)),
            (0, 1, 3, 8)
        );
    }

    /// The oracle reproduces published optimal lengths: every `arena` problem, the
    /// unreachable lines of `brc000d`, and the water and tree problems of `nighthaven`.
    #[test]
    fn reproduces_moving_ai_lengths() {
        let Some(dir) = movingai::tests::shared_maps() else { return };
        type Pick = fn(Terrain, Expected) -> bool;
        let cases: [(&str, Pick, usize); 3] = [
            ("dao/arena", |_, _| true, 160),
            ("dao/brc000d", |_, expected| expected == Expected::Unreachable, 10),
            ("wc3maps512/nighthaven", |terrain, _| terrain != Terrain::Ground, 96),
        ];
        for (name, pick, count) in cases {
            let map = movingai::parse_map(dir.join(format!("{name}.map"))).unwrap();
            let scen = movingai::parse_scen(dir.join(format!("{name}.map.scen")), &map).unwrap();
            let mut checked = 0;
            for problem in scen {
                let terrain = map.terrain(map.index(problem.start.0, problem.start.1));
                if !pick(terrain, problem.expected) {
                    continue;
                }
                let found = cost(&map, Connectivity::Eight, FINE, problem.start, problem.goal);
                assert!(
                    problem.expected.accepts(found, FINE),
                    "{name}: {problem:?}, found {found:?}"
                );
                checked += 1;
            }
            assert_eq!(checked, count, "{name}");
        }
    }

    /// Bellman-Ford over the same moves: relax every edge until nothing changes.
    fn bellman_ford(
        grid: &Grid,
        connectivity: Connectivity,
        start: (u32, u32),
    ) -> Vec<Option<u64>> {
        let width = grid.width() as usize;
        let cells: Vec<(u32, u32)> =
            (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| (x, y))).collect();
        let mut best = vec![None; cells.len()];
        if grid.terrain(grid.index(start.0, start.1)) != Terrain::Blocked {
            best[start.1 as usize * width + start.0 as usize] = Some(0);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &cell in &cells {
                let Some(here) = best[cell.1 as usize * width + cell.0 as usize] else { continue };
                for (next, step) in moves(grid, connectivity, FINE, cell) {
                    let slot = &mut best[next.1 as usize * width + next.0 as usize];
                    if slot.is_none_or(|old| here + step < old) {
                        *slot = Some(here + step);
                        changed = true;
                    }
                }
            }
        }
        best
    }

    proptest! {
        #[test]
        fn dijkstra_agrees_with_bellman_ford(
            chars in proptest::collection::vec(
                proptest::sample::select(&['.', '.', '.', '.', '.', 'W', 'T', '@'][..]), 36),
            weights in proptest::collection::vec(1u8..10, 36),
            weighted in any::<bool>(),
            eight in any::<bool>(),
            start in (0u32..6, 0u32..6),
        ) {
            let mut map = Grid::from_fn(6, 6, |x, y| terrain_of(chars[(y * 6 + x) as usize]).unwrap());
            if weighted {
                map = map.with_weights(|x, y| weights[(y * 6 + x) as usize]);
            }
            let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
            let expected = bellman_ford(&map, connectivity, start);
            let field = CostField::from_start(&map, connectivity, FINE, start);
            let mut from_field = vec![None; 36];
            for rank in 0..field.len() {
                let ((x, y), cost) = field.settled(rank);
                prop_assert!(from_field[(y * 6 + x) as usize].is_none(), "settled twice");
                prop_assert!(rank == 0 || field.settled(rank - 1).1 <= cost, "out of order");
                from_field[(y * 6 + x) as usize] = Some(cost);
            }
            prop_assert_eq!(&from_field, &expected);
            for (i, &expected) in expected.iter().enumerate() {
                prop_assert_eq!(field.cost((i as u32 % 6, i as u32 / 6)), expected);
            }
            for (i, &expected) in expected.iter().enumerate() {
                let goal = (i as u32 % 6, i as u32 / 6);
                prop_assert_eq!(cost(&map, connectivity, FINE, start, goal), expected);
            }
        }
    }
}
