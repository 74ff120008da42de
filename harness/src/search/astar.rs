//! One A*, generic over the frontier, the per-cell store and (per search) the heuristic.
//!
//! Written as a tuned grid A* is: per-cell state packed in 16 bytes ([`CellState`]) in one
//! flat array, generation stamps so a new search clears nothing map-sized, `h` computed
//! once per cell per search, one byte per cell giving its legal moves ([`Moves`]), no
//! hashing, and one [`AStar`] context reused by every search on a map.
//!
//! # Keys and ties
//!
//! For queues that accept any key, the key is `f << 32 | (u32::MAX - g)`: the smallest
//! `f` first and, among equal `f`, the largest `g` (the deepest node, usually nearest the
//! goal). Restricted (monotone) queues are given `f` alone, since a child with the same `f`
//! has a larger `g` and its composite key would fall below the last popped key; their own
//! tie order (LIFO for bucket-based queues) then decides. `g` and `f` must fit 32 bits: a
//! search that would exceed that fails with [`SearchError::CostOverflow`] (the fine cost
//! scale keeps paths up to about 22,000 straight steps within it).
//!
//! # Strategies
//!
//! The same loop serves both. A cell whose `g` improves is pushed again: a duplicate
//! queue adds an entry (the old one pops later and is skipped as stale), a decrease-key
//! queue lowers the cell's key. With an inconsistent heuristic (weighted octile), or an
//! approximate frontier (a soft heap), a closed cell can improve: it is reopened and
//! pushed again.
//!
//! # What made it fast
//!
//! Measured with `valgrind --tool=callgrind` on `pqlab compare` (brc202d, 150 problems,
//! `std-binary-heap-dup`), instructions per expansion, each step on the one before:
//!
//! | step | instructions per expansion |
//! |---|---|
//! | the first turn's loop (24-byte state, neighbours tested one by one into an array of moves) | 618 |
//! | 16-byte state (`u32` `g` and `h`), directions instead of parent indices | see the commit |
//! | per-cell masks of legal moves, walked bit by bit | see the commit |
//! | the move back to the parent skipped | see the commit |
//!
//! The README's "How it is built" keeps the table of what each technique bought, in
//! seconds as well, and what did not pay.
//!
//! # Example
//!
//! ```
//! use pqlab::maps::generate::{MapKind, MapSpec};
//! use pqlab::search::astar::{AStar, Rules};
//! use pqlab::search::heuristic::{Geometric, HeuristicKind};
//! use pqlab_queues::std_binary_heap::StdBinaryHeap;
//!
//! let grid = MapSpec { kind: MapKind::Random { density: 20 }, size: 64, seed: 1 }.build();
//! let rules = Rules::default(); // 8-connected, fine costs
//! let mut search = AStar::<StdBinaryHeap>::new(&grid, rules);
//! let mut octile = Geometric::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale);
//! let outcome = search.search(&grid, &mut octile, None, (0, 0), (63, 63)).unwrap();
//! if let Some(cost) = outcome.cost {
//!     let path = search.path(&grid, (63, 63)).unwrap();
//!     assert_eq!(path.first(), Some(&(0, 0)));
//!     println!("{} straight steps, {} cells", rules.scale.to_units(cost), path.len());
//! }
//! ```

use pqlab_queues::{Frontier, Key, KeyRule, PushError, Pushed, Spec};
use serde::{Deserialize, Serialize};

use crate::maps::grid::{Connectivity, CostScale, Grid, Terrain};
use crate::maps::moves::{Components, Moves, DIRECTIONS, OPPOSITE};
use crate::search::heuristic::Heuristic;
use crate::search::store::{CellState, FlatStore, NodeStore};

/// The movement rules a search runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// 4- or 8-connected.
    pub connectivity: Connectivity,
    /// Step costs.
    pub scale: CostScale,
}

impl Default for Rules {
    /// The Moving AI rules: 8-connected, fine scale.
    fn default() -> Self {
        Rules { connectivity: Connectivity::Eight, scale: CostScale::FINE }
    }
}

/// What one search did: the figures every result row records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Cells expanded (popped while open).
    pub expansions: u64,
    /// Pushes that added an entry (for duplicate queues, every push).
    pub pushes: u64,
    /// Entries popped, stale ones included.
    pub pops: u64,
    /// Popped entries skipped because their cell was already expanded at that cost.
    pub stale_pops: u64,
    /// Pushes that lowered a held cell's key (decrease-key queues only).
    pub decrease_keys: u64,
    /// Closed cells reopened because a cheaper path was found (inconsistent heuristics,
    /// approximate frontiers).
    pub reopenings: u64,
    /// The most entries the frontier held at once (stale entries included).
    pub max_frontier: u64,
    /// The most cells open at once (what the frontier would hold without duplicates).
    pub max_open: u64,
}

/// A search's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The cost of the path found, or `None` when the goal is unreachable.
    pub cost: Option<u64>,
    /// What the search did.
    pub counters: Counters,
}

/// Why a search could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The frontier rejected a key (a monotone queue given a non-monotone key).
    #[error("the frontier rejected a push: {source}{hint}")]
    Frontier {
        /// What the queue said.
        source: PushError,
        /// Why it likely happened.
        hint: &'static str,
    },
    /// A cost too large for the packed state and the composite key (32 bits).
    #[error("f = {f} does not fit 32 bits: use a coarser cost scale or a smaller map")]
    CostOverflow {
        /// The cost that did not fit.
        f: u64,
    },
    /// The start cell is blocked or outside the map.
    #[error("the start cell ({x}, {y}) is blocked or outside the map")]
    BadStart {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// The goal cell is outside the map.
    #[error("the goal cell ({x}, {y}) is outside the map")]
    BadGoal {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
}

/// A search context for one map: the per-cell store, the frontier and the compiled moves,
/// reused by every search so that only the first one allocates map-sized memory.
pub struct AStar<F, S = FlatStore> {
    store: S,
    /// The store's open stamp for the current (or last) search; `open + 1` marks closed.
    open: u32,
    frontier: F,
    moves: Moves,
    span: Key,
}

impl<F: Frontier, S: NodeStore> AStar<F, S> {
    /// A context for searches on `grid` under `rules`; its frontier is built for node ids
    /// below `grid.cells()` and the key span [`AStar::span`]. O(cells).
    pub fn new(grid: &Grid, rules: Rules) -> Self {
        let moves = Moves::new(grid, rules.connectivity, rules.scale);
        let span = 2 * moves.max_cost(grid);
        AStar {
            store: S::new(grid.cells()),
            open: 0,
            frontier: F::new(Spec { capacity: grid.cells(), span }),
            moves,
            span,
        }
    }

    /// The key span given to bounded-span frontiers: a child's `f` exceeds its parent's by
    /// at most the move cost plus the same again in `h` (consistent heuristics), and every
    /// parent in the frontier's history has `f` at most the last popped key.
    pub fn span(&self) -> Key {
        self.span
    }

    /// The frontier, e.g. to read a recorded trace after a search.
    pub fn frontier(&self) -> &F {
        &self.frontier
    }

    /// The frontier, e.g. to load an oracle's pop order before a search.
    pub fn frontier_mut(&mut self) -> &mut F {
        &mut self.frontier
    }

    /// The key of a cell with `f` and `g`, both below 2³².
    #[inline(always)]
    fn key(f: u64, g: u64) -> Key {
        if F::KEYS == KeyRule::Any {
            f << 32 | (u64::from(u32::MAX) - g)
        } else {
            f
        }
    }

    /// Finds a cheapest path from `start` to `goal` (cells `(x, y)`) with `heuristic`.
    ///
    /// The path is optimal when the heuristic is admissible and the frontier exact, at
    /// most `w` times optimal for weighted octile. With `components`, a goal in another
    /// component is answered at once. A goal of another terrain class than the start is
    /// unreachable.
    pub fn search<H: Heuristic>(
        &mut self,
        grid: &Grid,
        heuristic: &mut H,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        if !grid.contains(start.0, start.1)
            || grid.terrain(grid.index(start.0, start.1)) == Terrain::Blocked
        {
            return Err(SearchError::BadStart { x: start.0, y: start.1 });
        }
        if !grid.contains(goal.0, goal.1) {
            return Err(SearchError::BadGoal { x: goal.0, y: goal.1 });
        }
        let (start, goal) = (grid.index(start.0, start.1), grid.index(goal.0, goal.1));
        let mut counters = Counters::default();
        self.open = self.store.begin();
        self.frontier.clear();
        if grid.terrain(goal) != grid.terrain(start)
            || components.is_some_and(|c| !c.connected(start, goal))
        {
            return Ok(Outcome { cost: None, counters });
        }
        heuristic.set_goal(grid, goal);
        let cost = self.run(grid, heuristic, start, goal, &mut counters)?;
        Ok(Outcome { cost, counters })
    }

    /// The search loop proper.
    #[inline(always)]
    fn run<H: Heuristic>(
        &mut self,
        grid: &Grid,
        heuristic: &H,
        start: u32,
        goal: u32,
        counters: &mut Counters,
    ) -> Result<Option<u64>, SearchError> {
        let (open, closed) = (self.open, self.open + 1);
        let stride = grid.stride();
        let divide = Divider::new(stride);
        let weights = grid.weights();
        let offsets = *self.moves.offsets();
        let steps = *self.moves.steps();
        let (x, y) = divide.coords(start);
        let h = heuristic.estimate(x, y, start);
        if h > u64::from(u32::MAX) {
            return Err(SearchError::CostOverflow { f: h });
        }
        *self.store.slot(start) =
            CellState { g: 0, h: h as u32, stamp: open, via: CellState::START };
        self.push(start, Self::key(h, 0), heuristic)?;
        counters.pushes += 1;
        let mut open_cells: u64 = 1;
        counters.max_open = 1;
        counters.max_frontier = 1;

        while let Some((cell, key)) = self.frontier.pop() {
            counters.pops += 1;
            let state = self.store.get(cell);
            let (g, f) = (u64::from(state.g), u64::from(state.g) + u64::from(state.h));
            if state.stamp == closed || key != Self::key(f, g) {
                counters.stale_pops += 1;
                continue;
            }
            self.store.slot(cell).stamp = closed;
            open_cells -= 1;
            counters.expansions += 1;
            if cell == goal {
                return Ok(Some(g));
            }
            let (x, y) = divide.coords(cell);
            // The move back along `via` reaches a cell no cheaper than this one's parent:
            // skipping it saves a state load per expansion.
            let back = match state.via {
                CellState::START => 0,
                via => 1u8 << OPPOSITE[via as usize],
            };
            let mut mask = self.moves.mask(cell) & !back;
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = cell.wrapping_add_signed(offsets[d]);
                let step = match weights {
                    None => steps[d],
                    Some(w) => steps[d] * u64::from(w[next as usize]),
                };
                let g_next = g + step;
                let seen = self.store.slot(next);
                let h = if seen.stamp < open {
                    open_cells += 1;
                    let (dx, dy) = DIRECTIONS[d];
                    heuristic.estimate(
                        x.wrapping_add_signed(dx.into()),
                        y.wrapping_add_signed(dy.into()),
                        next,
                    )
                } else if g_next < u64::from(seen.g) {
                    if seen.stamp == closed {
                        counters.reopenings += 1;
                        open_cells += 1;
                    }
                    u64::from(seen.h)
                } else {
                    continue;
                };
                let f_next = g_next + h;
                if f_next > u64::from(u32::MAX) {
                    return Err(SearchError::CostOverflow { f: f_next });
                }
                *seen = CellState { g: g_next as u32, h: h as u32, stamp: open, via: d as u32 };
                match self.push(next, Self::key(f_next, g_next), heuristic)? {
                    Pushed::Added => counters.pushes += 1,
                    Pushed::Decreased => counters.decrease_keys += 1,
                    Pushed::Kept => {}
                }
            }
            counters.max_frontier = counters.max_frontier.max(self.frontier.len() as u64);
            counters.max_open = counters.max_open.max(open_cells);
        }
        Ok(None)
    }

    #[inline(always)]
    fn push<H: Heuristic>(
        &mut self,
        cell: u32,
        key: Key,
        heuristic: &H,
    ) -> Result<Pushed, SearchError> {
        self.frontier.push(cell, key).map_err(|source| frontier_error(source, heuristic))
    }

    /// The cells of the path found by the last search, start first, when it reached
    /// `goal`; `None` otherwise.
    pub fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        if !grid.contains(goal.0, goal.1) {
            return None;
        }
        let mut cell = grid.index(goal.0, goal.1);
        if self.store.get(cell).stamp != self.open + 1 {
            return None;
        }
        let mut path = vec![grid.coords(cell)];
        loop {
            let via = self.store.get(cell).via;
            if via == CellState::START {
                break;
            }
            cell = cell.wrapping_add_signed(-self.moves.offsets()[via as usize]);
            path.push(grid.coords(cell));
        }
        path.reverse();
        Some(path)
    }
}

/// Division of cell indices by the grid's stride as a multiply-high (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019: exact for every 32-bit
/// dividend), since a hardware division in every expansion costs tens of cycles.
#[derive(Clone, Copy, Debug)]
struct Divider {
    stride: u32,
    /// `ceil(2^64 / stride)`.
    magic: u64,
}

impl Divider {
    fn new(stride: u32) -> Self {
        debug_assert!(stride > 1, "a padded grid is at least 3 cells wide");
        Divider { stride, magic: u64::MAX / u64::from(stride) + 1 }
    }

    /// `(index % stride, index / stride)`.
    #[inline(always)]
    fn coords(self, index: u32) -> (u32, u32) {
        let y = ((u128::from(self.magic) * u128::from(index)) >> 64) as u32;
        (index - y * self.stride, y)
    }
}

fn frontier_error<H: Heuristic>(source: PushError, heuristic: &H) -> SearchError {
    let hint = match source {
        PushError::BelowFloor { .. } if !heuristic.consistent() => {
            " (the heuristic is inconsistent, so f can fall below the last popped key: use a queue that accepts any keys)"
        }
        PushError::BeyondSpan { .. } => " (the key span was computed for consistent heuristics)",
        _ => "",
    };
    SearchError::Frontier { source, hint }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_divider_agrees_with_division() {
        for stride in [3u32, 7, 34, 258, 1026, 4098, 65_537, 1 << 20] {
            let divide = Divider::new(stride);
            for index in [0, 1, stride - 1, stride, stride + 1, 12_345_678, u32::MAX - 1, u32::MAX]
            {
                assert_eq!(
                    divide.coords(index),
                    (index % stride, index / stride),
                    "{index} / {stride}"
                );
            }
        }
    }
}
