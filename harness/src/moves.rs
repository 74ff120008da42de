//! The movement rules, written once: the A*, the landmark Dijkstras of the differential
//! heuristic and the connected components all enumerate moves through [`for_each_move`].
//!
//! A move joins two cells of the same terrain class. Straight moves cost
//! `scale.straight`, diagonal moves `scale.diagonal`, and a diagonal is allowed only when
//! both orthogonal cells it passes are of the class too (no corner cutting). On weighted
//! maps, entering a cell multiplies the step cost by that cell's weight.

use crate::grid::{Connectivity, CostScale, Grid, Terrain};

/// The direction of a move relative to the cell it starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Column change: -1, 0 or 1.
    pub dx: i32,
    /// Row change: -1, 0 or 1.
    pub dy: i32,
}

/// Which way costs are read on weighted maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Moves out of the cell: the cost is the weight of the cell entered.
    Forward,
    /// Moves into the cell, for searches run backwards from a goal: the cost is the weight
    /// of the given cell, which the move enters.
    Backward,
}

/// Precomputed index offsets and costs of a grid's moves.
#[derive(Clone, Copy, Debug)]
pub struct Moves {
    stride: isize,
    straight: u64,
    diagonal: u64,
    eight: bool,
}

impl Moves {
    /// The moves of `grid` under `connectivity` with costs in `scale`.
    pub fn new(grid: &Grid, connectivity: Connectivity, scale: CostScale) -> Self {
        Moves {
            stride: grid.stride() as isize,
            straight: scale.straight as u64,
            diagonal: scale.diagonal as u64,
            eight: connectivity == Connectivity::Eight,
        }
    }

    /// The most one move can cost on `grid` (a step times the largest weight).
    pub fn max_cost(&self, grid: &Grid) -> u64 {
        let step = if self.eight { self.diagonal } else { self.straight };
        step * grid.weights().map_or(1, |w| w.iter().copied().max().unwrap_or(1)) as u64
    }
}

/// Calls `visit(neighbour, cost, step)` for every move out of (or, `Backward`, into)
/// `index` within the terrain class `class`.
///
/// `index` must be a cell inside the map: the blocked border keeps every neighbour index
/// in bounds.
#[inline(always)]
pub fn for_each_move(
    grid: &Grid,
    moves: &Moves,
    direction: Direction,
    index: u32,
    class: Terrain,
    mut visit: impl FnMut(u32, u64, Step),
) {
    let terrain = grid.terrains();
    let weights = grid.weights();
    let i = index as isize;
    let s = moves.stride;
    let open = |j: isize| terrain[j as usize] == class;
    let mut go = |j: isize, step: u64, dx: i32, dy: i32| {
        let cost = match weights {
            None => step,
            Some(w) => {
                let weighed = if direction == Direction::Forward { j } else { i };
                step * w[weighed as usize] as u64
            }
        };
        visit(j as u32, cost, Step { dx, dy });
    };
    let (north, east, south, west) = (open(i - s), open(i + 1), open(i + s), open(i - 1));
    if north {
        go(i - s, moves.straight, 0, -1);
    }
    if east {
        go(i + 1, moves.straight, 1, 0);
    }
    if south {
        go(i + s, moves.straight, 0, 1);
    }
    if west {
        go(i - 1, moves.straight, -1, 0);
    }
    if moves.eight {
        if north && east && open(i - s + 1) {
            go(i - s + 1, moves.diagonal, 1, -1);
        }
        if south && east && open(i + s + 1) {
            go(i + s + 1, moves.diagonal, 1, 1);
        }
        if south && west && open(i + s - 1) {
            go(i + s - 1, moves.diagonal, -1, 1);
        }
        if north && west && open(i - s - 1) {
            go(i - s - 1, moves.diagonal, -1, -1);
        }
    }
}

/// Connected components per terrain class: two cells share a label exactly when a path
/// joins them (diagonals never join what orthogonal moves cannot, since they may not cut
/// corners). Lets a search answer an unreachable goal at once.
#[derive(Clone, Debug)]
pub struct Components {
    labels: Vec<u32>,
}

impl Components {
    /// Labels every cell of `grid` by flood fill (O(cells)).
    pub fn new(grid: &Grid) -> Self {
        const UNLABELLED: u32 = u32::MAX;
        let mut labels = vec![UNLABELLED; grid.cells()];
        let moves = Moves::new(grid, Connectivity::Four, CostScale::COARSE);
        let mut stack = Vec::new();
        let mut next = 0;
        for index in 0..grid.cells() as u32 {
            let class = grid.terrain(index);
            if class == Terrain::Blocked || labels[index as usize] != UNLABELLED {
                continue;
            }
            labels[index as usize] = next;
            stack.push(index);
            while let Some(cell) = stack.pop() {
                for_each_move(grid, &moves, Direction::Forward, cell, class, |nb, _, _| {
                    if labels[nb as usize] == UNLABELLED {
                        labels[nb as usize] = next;
                        stack.push(nb);
                    }
                });
            }
            next += 1;
        }
        Components { labels }
    }

    /// Whether a path can join the cells `a` and `b` (both passable).
    pub fn connected(&self, a: u32, b: u32) -> bool {
        self.labels[a as usize] == self.labels[b as usize]
    }
}
