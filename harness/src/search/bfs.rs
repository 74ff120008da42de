//! Breadth-first search: a FIFO of cells, each reached once, at its fewest moves.
//!
//! The fewest moves are the cheapest path exactly when every move costs the same: no cell
//! weights, and on 8 moves a diagonal step costing a straight one
//! ([`CostScale::UNIT`](crate::maps::grid::CostScale::UNIT) and the like); on 4 moves any scale, since only straight steps are taken. Under any
//! other rules [`Bfs::search`] refuses with [`SearchError::UnequalCosts`] rather than
//! answer with a path that may not be the cheapest. The cost reported is the number of
//! moves times the step cost.
//!
//! The goal is recognised when first reached, not when dequeued: in a FIFO every cell
//! reached later is no fewer moves away, so the search stops one layer earlier.
//!
//! # Per-cell state
//!
//! The A*'s [`FlatStore`]: an 8-byte [`CellState`] per cell (the number of moves in `g`,
//! the direction of the parent, a generation stamp: reached in this search when equal to
//! the open stamp), so nothing map-sized is cleared between searches. The FIFO is a
//! `Vec` with the capacity of every cell, allocated once: each cell enters it at most once
//! a search, so it never grows and needs no ring. The A*'s move masks and its skipping of
//! the moves the parent dominates ([`Moves::dominated`]) apply unchanged: the parent,
//! dequeued earlier, reached all its own neighbours.
//!
//! # Complexity
//!
//! O(C) time for the C cells reached (at most 8 moves each), O(1) to start a search;
//! memory 12 bytes a cell (state and FIFO), allocated once per map.
//!
//! # Counters
//!
//! The A*'s [`Counters`], as they apply to a FIFO:
//!
//! | counter | in breadth-first search |
//! |---|---|
//! | `expansions` | cells dequeued and expanded (the goal is never expanded: it ends the search when reached) |
//! | `pushes` | cells enqueued (each at most once; the start included) |
//! | `pops` | cells dequeued (equal to `expansions`) |
//! | `stale_pops` | 0: a cell is enqueued once |
//! | `decrease_keys` | 0 |
//! | `reopenings` | 0 |
//! | `max_frontier` | the most cells the FIFO held at once |
//! | `max_open` | the same |
//!
//! # Example
//!
//! ```
//! use pqlab::maps::generate::{MapKind, MapSpec};
//! use pqlab::maps::grid::{Connectivity, CostScale};
//! use pqlab::maps::grid::Rules;
//! use pqlab::search::bfs::Bfs;
//!
//! let grid = MapSpec { kind: MapKind::Maze { corridor: 2 }, size: 32, seed: 1 }.build();
//! let rules = Rules { connectivity: Connectivity::Eight, scale: CostScale::UNIT };
//! let mut search = Bfs::new(&grid, rules);
//! let outcome = search.search(&grid, None, (0, 0), (30, 30)).unwrap();
//! if let Some(moves) = outcome.cost {
//!     assert_eq!(search.path(&grid, (30, 30)).unwrap().len() as u64, moves + 1);
//! }
//! // Fine costs make diagonals dearer: breadth-first search refuses.
//! let mut fine = Bfs::new(&grid, Rules::default());
//! assert!(fine.search(&grid, None, (0, 0), (30, 30)).is_err());
//! ```

use crate::maps::grid::Rules;
use crate::maps::grid::{Connectivity, Grid};
use crate::maps::moves::{Components, Moves, OPPOSITE};
use crate::search::astar::{endpoints, known_unreachable};
use crate::search::grid_loop::{GridLoop, Target};
use crate::search::heuristic::AnyHeuristic;
use crate::search::outcome::{Counters, Outcome, SearchError};
use crate::search::store::{CellState, FlatStore, NodeStore};

/// A breadth-first search context for one map: the per-cell store, the FIFO and the
/// compiled moves, reused by every search so that only [`Bfs::new`] allocates.
pub struct Bfs {
    store: FlatStore,
    /// The cells of the map the context was built for: every search must be on it.
    cells: usize,
    /// The store's stamp of the cells reached in the current (or last) search.
    open: u32,
    /// The FIFO: the cells reached in this search, in order; `fifo[head..]` are waiting.
    fifo: Vec<u32>,
    moves: Moves,
    /// The cost of every move, or why moves differ in cost under these rules.
    step: Result<u64, String>,
}

impl Bfs {
    /// Its id in results (a `loop` row, timed beside the A*'s queues).
    pub const ID: &'static str = "bfs";
    /// A context for searches on `grid` under `rules`. O(cells).
    pub fn new(grid: &Grid, rules: Rules) -> Self {
        let scale = rules.scale;
        let step = if rules.connectivity == Connectivity::Eight && scale.straight != scale.diagonal
        {
            Err(format!(
                "diagonal steps cost {} and straight steps {} (scale {scale})",
                scale.diagonal, scale.straight
            ))
        } else {
            Ok(u64::from(scale.straight))
        };
        Bfs {
            store: FlatStore::new(grid.cells()),
            cells: grid.cells(),
            open: 0,
            fifo: Vec::with_capacity(grid.cells()),
            moves: Moves::new(grid, rules.connectivity, rules.scale),
            step,
        }
    }

    /// The cost of every move on `grid` under this context's rules, or why moves differ
    /// in cost there (cell weights, or diagonals dearer than straight steps), so that
    /// breadth-first search would not be exact.
    pub fn exact_on(&self, grid: &Grid) -> Result<u64, String> {
        if grid.weights().is_some() {
            return Err("the map has cell weights".into());
        }
        self.step.clone()
    }

    /// Finds a path from `start` to `goal` (cells `(x, y)`) with the fewest moves, and its
    /// cost: the cheapest, since every move costs the same. Fails with
    /// [`SearchError::UnequalCosts`] when they do not (a map with cell weights, or 8 moves
    /// with diagonals dearer than straight steps). With `components`, a goal in another
    /// component is answered at once; without, the search ends when the FIFO empties. A
    /// goal of another terrain class than the start is unreachable.
    pub fn search(
        &mut self,
        grid: &Grid,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        let (start, goal) = endpoints(grid, self.cells, start, goal)?;
        let step = self.exact_on(grid).map_err(|why| SearchError::UnequalCosts { why })?;
        let mut counters = Counters::default();
        self.open = self.store.begin();
        self.fifo.clear();
        if known_unreachable(grid, components, start, goal) {
            return Ok(Outcome { cost: None, counters });
        }
        let moves = self.run(start, goal, &mut counters)?;
        Ok(Outcome { cost: moves.map(|moves| moves * step), counters })
    }

    /// The search loop proper: the fewest moves from `start` to `goal`.
    #[inline(always)]
    fn run(
        &mut self,
        start: u32,
        goal: u32,
        counters: &mut Counters,
    ) -> Result<Option<u64>, SearchError> {
        let open = self.open;
        let offsets = *self.moves.offsets();
        *self.store.slot(start) = CellState::new(0, open, CellState::START);
        counters.pushes = 1;
        counters.max_open = 1;
        if start == goal {
            counters.max_frontier = 1;
            return Ok(Some(0));
        }
        self.fifo.push(start);
        let mut head = 0;
        let mut found = None;
        'search: while let Some(&cell) = self.fifo.get(head) {
            counters.max_open = counters.max_open.max((self.fifo.len() - head) as u64);
            head += 1;
            counters.expansions += 1;
            if super::stop::poll(counters.expansions) {
                return Err(SearchError::Stopped);
            }
            // SAFETY: `cell` came from the FIFO, which holds the start (checked inside the
            // map by `endpoints`) and targets of legal moves (inside the map by `Moves`'
            // invariant), so it is below the store's size, the map's cells.
            let state = unsafe { self.store.get_unchecked(cell) };
            let skip = match state.via() {
                CellState::START => 0,
                via => {
                    let parent = cell.wrapping_add_signed(-offsets[via as usize & 7]);
                    1u8 << OPPOSITE[via as usize & 7]
                        | self.moves.dominated(via as usize, self.moves.mask(parent))
                }
            };
            let mut mask = self.moves.mask(cell) & !skip;
            while mask != 0 {
                let d = mask.trailing_zeros() as usize & 7;
                mask &= mask - 1;
                let next = cell.wrapping_add_signed(offsets[d]);
                // SAFETY: a set bit of a cell's mask names a cell inside the map (`Moves`'
                // invariant), below the store's size.
                let seen = unsafe { self.store.slot_unchecked(next) };
                if seen.stamp() == open {
                    continue;
                }
                *seen = CellState::new(state.g + 1, open, d as u32);
                counters.pushes += 1;
                if next == goal {
                    found = Some(u64::from(state.g) + 1);
                    break 'search;
                }
                self.fifo.push(next);
            }
        }
        counters.max_open = counters.max_open.max((self.fifo.len() - head) as u64);
        counters.pops = counters.expansions;
        counters.max_frontier = counters.max_open;
        Ok(found)
    }

    /// The cells of a path with the fewest moves from the last search's start to `goal`,
    /// start first, when the last search reached `goal`; `None` otherwise.
    pub fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        if !grid.contains(goal.0, goal.1) || grid.cells() != self.cells {
            return None;
        }
        let mut cell = grid.index(goal.0, goal.1);
        if self.store.get(cell).stamp() != self.open {
            return None;
        }
        let mut path = vec![grid.coords(cell)];
        loop {
            let via = self.store.get(cell).via();
            if via == CellState::START {
                break;
            }
            cell = cell.wrapping_add_signed(-self.moves.offsets()[via as usize & 7]);
            path.push(grid.coords(cell));
        }
        path.reverse();
        Some(path)
    }
}

impl GridLoop for Bfs {
    fn search(
        &mut self,
        grid: &Grid,
        _: &mut AnyHeuristic,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        Bfs::search(self, grid, components, start, goal)
    }

    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        Bfs::path(self, grid, goal)
    }
}

/// The registry's hook ([`super::registry::LOOPS`]): breadth-first search on `target`
/// where every move costs the same, so that it is exact; why not otherwise. It takes no
/// heuristic. O(cells).
pub fn build(target: &Target<'_>, _: &AnyHeuristic) -> Result<Box<dyn GridLoop>, String> {
    let bfs = Bfs::new(target.grid, target.rules());
    bfs.exact_on(target.grid).map_err(|why| {
        format!("breadth-first search is exact only when every move costs the same: {why}")
    })?;
    Ok(Box::new(bfs))
}
