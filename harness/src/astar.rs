//! One A*, generic over the frontier, the heuristic and the map's movement rules.
//!
//! Written as a grid A* should be: per-cell state in one flat array indexed by cell,
//! generation stamps so a new search clears nothing map-sized, `h` computed once per
//! cell per search, neighbour offsets precomputed ([`Moves`]), no hashing, and one
//! [`AStar`] context reused across every search on a map.
//!
//! # Keys and ties
//!
//! For queues that accept any key, the key is `f << 32 | (u32::MAX - g)`: the smallest
//! `f` first and, among equal `f`, the largest `g` (the deepest node, usually nearest the
//! goal). Restricted (monotone) queues are given `f` alone, since a child with the same `f`
//! has a larger `g` and its composite key would fall below the last popped key; their own
//! tie order (LIFO for bucket-based queues) then decides.
//!
//! # Strategies
//!
//! The same loop serves both. A cell whose `g` improves is pushed again: a duplicate
//! queue adds an entry (the old one pops later and is skipped as stale), a decrease-key
//! queue lowers the cell's key. With an inconsistent heuristic (weighted octile) a closed
//! cell can improve: it is reopened and pushed again.

use pqlab_queues::{Frontier, Key, KeyRule, PushError, Pushed, Spec};

use crate::grid::{Connectivity, CostScale, Grid, Terrain};
use crate::heuristic::Heuristic;
use crate::moves::{neighbours, Components, Direction, Move, Moves};

/// The movement rules a search runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// What one search did: the figures every benchmark row records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Closed cells reopened because a cheaper path was found (inconsistent heuristics).
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
    /// A cost too large for the composite key (`f` must stay below 2³²).
    #[error("f = {f} does not fit the 32 bits of the tie-breaking key: use a coarser cost scale")]
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

/// Per-cell search state. A cell is untouched in this search when `stamp < open`.
#[derive(Clone, Copy, Debug, Default)]
struct CellState {
    g: u64,
    h: u64,
    parent: u32,
    stamp: u32,
}

/// A search context for one map: the per-cell state and the frontier, reused by every
/// search so that only the first one allocates map-sized memory.
pub struct AStar<F> {
    cells: Vec<CellState>,
    /// The stamp of cells open in the current search; `open + 1` marks them closed.
    open: u32,
    frontier: F,
    moves: Moves,
    span: Key,
}

impl<F: Frontier> AStar<F> {
    /// A context for searches on `grid` under `rules`; its frontier is built for node ids
    /// below `grid.cells()` and the key span [`AStar::span`].
    pub fn new(grid: &Grid, rules: Rules) -> Self {
        let moves = Moves::new(grid, rules.connectivity, rules.scale);
        let span = Self::span_for(grid, &moves);
        AStar {
            cells: vec![CellState::default(); grid.cells()],
            open: 0,
            frontier: F::new(Spec { capacity: grid.cells(), span }),
            moves,
            span,
        }
    }

    /// The key span a consistent heuristic can produce on `grid`: a child's `f` exceeds
    /// its parent's by at most the move cost plus the same again in `h`, and every parent
    /// in the frontier's history has `f` at most the last popped key.
    fn span_for(grid: &Grid, moves: &Moves) -> Key {
        2 * moves.max_cost(grid)
    }

    /// The key span given to bounded-span frontiers.
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

    /// Starts a new search: new stamps (clearing the state only when they wrap, once every
    /// 2³¹ searches) and an empty frontier.
    fn begin(&mut self) {
        if self.open >= u32::MAX - 2 {
            self.cells.fill(CellState::default());
            self.open = 0;
        }
        self.open += 2;
        self.frontier.clear();
    }

    #[inline(always)]
    fn key(f: u64, g: u64) -> Result<Key, SearchError> {
        if F::KEYS == KeyRule::Any {
            if f > u32::MAX as u64 {
                return Err(SearchError::CostOverflow { f });
            }
            Ok(f << 32 | (u32::MAX as u64 - g))
        } else {
            Ok(f)
        }
    }

    /// Finds a cheapest path from `start` to `goal` (cells `(x, y)`) with `heuristic`.
    ///
    /// The path is optimal when the heuristic is admissible, and at most `w` times optimal
    /// for weighted octile. With `components`, a goal in another component is answered
    /// at once. A goal of another terrain class than the start is unreachable.
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
        let class = grid.terrain(start);
        let mut counters = Counters::default();
        self.begin();
        if grid.terrain(goal) != class || components.is_some_and(|c| !c.connected(start, goal)) {
            return Ok(Outcome { cost: None, counters });
        }
        heuristic.set_goal(grid, goal);
        let (open, closed) = (self.open, self.open + 1);
        let stride = grid.stride();
        let h = heuristic.estimate(start % stride, start / stride, start);
        self.cells[start as usize] = CellState { g: 0, h, parent: start, stamp: open };
        self.push(start, h, 0, &mut counters, heuristic)?;
        let mut open_cells: u64 = 1;
        let mut moves = [Move::default(); 8];
        counters.max_open = 1;

        while let Some((cell, key)) = self.frontier.pop() {
            counters.pops += 1;
            let state = self.cells[cell as usize];
            if state.stamp == closed || key != Self::key(state.g + state.h, state.g)? {
                counters.stale_pops += 1;
                continue;
            }
            self.cells[cell as usize].stamp = closed;
            open_cells -= 1;
            counters.expansions += 1;
            if cell == goal {
                return Ok(Outcome { cost: Some(state.g), counters });
            }
            let (x, y) = (cell % stride, cell / stride);
            let count = neighbours(grid, &self.moves, Direction::Forward, cell, class, &mut moves);
            for m in &moves[..count] {
                let g = state.g + m.cost;
                let seen = &mut self.cells[m.cell as usize];
                let h = if seen.stamp < open {
                    open_cells += 1;
                    let (nx, ny) =
                        (x.wrapping_add_signed(m.dx.into()), y.wrapping_add_signed(m.dy.into()));
                    heuristic.estimate(nx, ny, m.cell)
                } else if g < seen.g {
                    if seen.stamp == closed {
                        counters.reopenings += 1;
                        open_cells += 1;
                    }
                    seen.h
                } else {
                    continue;
                };
                *seen = CellState { g, h, parent: cell, stamp: open };
                let key = Self::key(g + h, g)?;
                match self.frontier.push(m.cell, key).map_err(|e| frontier_error(e, heuristic))? {
                    Pushed::Added => counters.pushes += 1,
                    Pushed::Decreased => counters.decrease_keys += 1,
                    Pushed::Kept => {}
                }
            }
            counters.max_frontier = counters.max_frontier.max(self.frontier.len() as u64);
            counters.max_open = counters.max_open.max(open_cells);
        }
        Ok(Outcome { cost: None, counters })
    }

    fn push<H: Heuristic>(
        &mut self,
        cell: u32,
        f: u64,
        g: u64,
        counters: &mut Counters,
        heuristic: &H,
    ) -> Result<(), SearchError> {
        let key = Self::key(f, g)?;
        self.frontier.push(cell, key).map_err(|source| frontier_error(source, heuristic))?;
        counters.pushes += 1;
        counters.max_frontier = counters.max_frontier.max(self.frontier.len() as u64);
        Ok(())
    }

    /// The cells of the path found by the last search, start first, when it reached
    /// `goal`; `None` otherwise.
    pub fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        if !grid.contains(goal.0, goal.1) {
            return None;
        }
        let mut cell = grid.index(goal.0, goal.1);
        if self.cells[cell as usize].stamp != self.open + 1 {
            return None;
        }
        let mut path = vec![grid.coords(cell)];
        while self.cells[cell as usize].parent != cell {
            cell = self.cells[cell as usize].parent;
            path.push(grid.coords(cell));
        }
        path.reverse();
        Some(path)
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
