//! Fringe search (Björnsson, Enzenberger, Holte and Schaeffer, "Fringe Search: Beating A*
//! at Pathfinding on Game Maps", IEEE CIG 2005): iterative deepening on `f = g + h` over
//! one list of cells, with no priority queue.
//!
//! The paper's *now* and *later* lists are one doubly linked list. Each iteration walks it
//! from the head with an f-limit: a cell with `f` above the limit stays where it is (it is
//! *later*), the smallest such `f` becomes the next iteration's limit; a cell within the
//! limit is expanded and removed, its improved children inserted right after it, so that
//! they are visited in the same iteration. A child already in the list with a worse `g`
//! is moved there; an expanded child whose `g` improves (an inconsistent heuristic) is
//! inserted again. The search ends when the goal is visited within the limit, or when the
//! list is empty (the goal is unreachable).
//!
//! # The heuristic's contract
//!
//! The cost is optimal when the heuristic is *admissible*: `h(n)` never exceeds the cost
//! of a cheapest path from `n` to the goal, for every cell `n` from which the goal can be
//! reached (so `h(goal) = 0`). Consistency is not needed: a cell whose `g` improves after
//! its expansion is inserted again and expanded again. Why it is optimal: some cell of an
//! optimal path is always in the list with its optimal `g`, so its `f` is at most the
//! optimal cost `C*`; every limit is the smallest `f` left in the list, hence at most `C*`,
//! and the goal is expanded with `g = f ≤ limit ≤ C*`. An inadmissible heuristic (weighted
//! octile) gives a valid path, possibly dearer than optimal, and its cost.
//!
//! # Per-cell state
//!
//! One 16-byte node per cell, in one flat array allocated by [`Fringe::new`]: the
//! A*'s 8-byte [`CellState`] (a cost, a generation stamp, the direction of the parent) and
//! the list's two links. The cost kept is the cell's `f = g + h`, not `g`: a visit, by far
//! the most frequent step (tens per expansion on game maps), then compares one loaded
//! word with the limit; `h` is computed once per move looked at, as in the A*, and once
//! per expansion to recover `g` (so the heuristic must give a cell the same estimate
//! throughout a search, as every [`Heuristic`] does). `f` must fit 32 bits, as in the A*:
//! a search that would exceed it fails with [`SearchError::CostOverflow`].
//!
//! The stamp says where a cell is: below the search's open stamp it is untouched, equal it
//! is in the list, one above it was expanded and is out of the list. New stamps make every
//! cell untouched, so nothing map-sized is cleared between searches (the array is reset
//! once every 2²⁷ searches, when the stamps would overflow). The list is circular around a
//! sentinel, the grid's top-left border cell (index 0): the border is blocked, never a
//! start and never a move's target, so its node is free, and inserting or unlinking needs
//! no test for the ends.
//!
//! # Complexity
//!
//! Each iteration visits every cell in the list once: a search takes O(I · L + X) time for
//! I iterations (distinct f-limits; at most the number of distinct `f` values not above
//! `C*`), a list of at most L cells and X expansions (each a constant, at most 8 moves).
//! With a consistent heuristic every cell is expanded at most once: each iteration then
//! expands only cells whose `f` equals its limit, and a cheaper path to one of them would
//! pass a cell whose `f` is below the limit, which the list does not hold. Many distinct `f`
//! values (fine costs, weighted terrain, the zero heuristic) mean many iterations: that is
//! the algorithm's weak point, and what timing it beside the A* shows. Memory: 16 bytes a
//! cell, allocated once per map; a search allocates nothing.
//!
//! # Measured
//!
//! One pass over 200 problems of `dao/brc202d` (every 1/200th of its scenario), octile,
//! fine costs, a release build on the shared 2-core machine under load (load average
//! 6–7, so rough figures): fringe search visits 41 cells an expansion, and expands about as
//! many cells as the A* (3.12 M). Three runs each, ns an expansion:
//!
//! | variant | fringe | the A* with std's heap, same runs |
//! |---|---|---|
//! | `g` kept, `h` computed at every visit | 368 | 150 |
//! | `f` kept (this file) | 258–273 | 151–158 |
//! | `f` kept, range-checked node accesses instead of `unsafe` | 284–301 | 150–192 |
//!
//! Later, the load down to 3.6: fringe search 115 ns an expansion (2.8 ns a visit), the A*
//! 64–69, so fringe search takes about 1.7 times the A*'s time here.
//!
//! # Counters
//!
//! The A*'s [`Counters`], as they apply to a list:
//!
//! | counter | in fringe search |
//! |---|---|
//! | `expansions` | visits within the f-limit: the cell is expanded and removed (the goal's visit included) |
//! | `pushes` | cells inserted into the list: new cells, and expanded cells inserted again |
//! | `pops` | list visits, in every iteration |
//! | `stale_pops` | visits above the f-limit: the cell stays for a later iteration (`pops = expansions + stale_pops`) |
//! | `decrease_keys` | cells in the list moved after the current cell because their `g` improved |
//! | `reopenings` | expanded cells inserted again because their `g` improved (inconsistent heuristics only) |
//! | `max_frontier` | the most cells the list held at once |
//! | `max_open` | the same: a cell is in the list at most once |
//!
//! # Example
//!
//! ```
//! use pqlab::maps::generate::{MapKind, MapSpec};
//! use pqlab::maps::grid::Rules;
//! use pqlab::search::fringe::Fringe;
//! use pqlab::search::heuristic::{Geometric, HeuristicKind};
//!
//! let grid = MapSpec { kind: MapKind::Random { density: 20 }, size: 64, seed: 1 }.build();
//! let rules = Rules::default(); // 8-connected, fine costs
//! let mut search = Fringe::new(&grid, rules);
//! let mut octile = Geometric::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale);
//! let outcome = search.search(&grid, &mut octile, None, (0, 0), (63, 63)).unwrap();
//! if let Some(cost) = outcome.cost {
//!     let path = search.path(&grid, (63, 63)).unwrap();
//!     assert_eq!(path.first(), Some(&(0, 0)));
//!     println!("{} straight steps, {} cells", rules.scale.to_units(cost), path.len());
//! }
//! ```

use std::marker::PhantomData;

use crate::maps::grid::Grid;
use crate::maps::grid::Rules;
use crate::maps::moves::{Components, Moves, DIRECTIONS, OPPOSITE};
use crate::search::astar::{endpoints, known_unreachable, Divider};
use crate::search::grid_loop::{GridLoop, Target};
use crate::search::heuristic::{AnyHeuristic, Heuristic};
use crate::search::outcome::{Counters, Outcome, SearchError};
use crate::search::store::CellState;

/// The sentinel of the circular list: the top-left border cell, blocked, so never a start
/// nor a move's target.
const SENTINEL: u32 = 0;

/// One cell's state: the A*'s 8-byte state, whose cost is the cell's `f` (not `g`), and
/// the cell's links in the list (meaningful only while the cell's stamp says it is in the
/// list, and for the sentinel).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Node {
    state: CellState,
    prev: u32,
    next: u32,
}

/// A fringe search context for one map: the per-cell nodes and the compiled moves, reused
/// by every search so that only [`Fringe::new`] allocates.
pub struct Fringe {
    /// One node per cell of the map the context was built for.
    ///
    /// Invariant: every link followed from the sentinel in the current search is below
    /// `nodes.len()` (links are only ever set to the sentinel, the start, or a target of a
    /// legal move), and every stamp is at most `open + 1`.
    nodes: Vec<Node>,
    /// The stamp of cells in the list in the current (or last) search; `open + 1` marks
    /// expanded cells.
    open: u32,
    moves: Moves,
}

impl Fringe {
    /// Its id in results (a `loop` row, timed beside the A*'s queues).
    pub const ID: &'static str = "fringe-search";
    /// A context for searches on `grid` under `rules`. O(cells).
    pub fn new(grid: &Grid, rules: Rules) -> Self {
        Fringe {
            nodes: vec![Node::default(); grid.cells()],
            open: 0,
            moves: Moves::new(grid, rules.connectivity, rules.scale),
        }
    }

    /// Starts a search: new stamps, so every cell is untouched, and an empty list.
    /// O(1), except once every 2²⁷ searches, when the stamps wrap and the array is reset.
    fn begin(&mut self) {
        if self.open >= CellState::MAX_STAMP - 2 {
            self.nodes.fill(Node::default());
            self.open = 0;
        }
        self.open += 2;
        self.nodes[SENTINEL as usize].prev = SENTINEL;
        self.nodes[SENTINEL as usize].next = SENTINEL;
    }

    /// Finds a cheapest path from `start` to `goal` (cells `(x, y)`) with `heuristic`.
    ///
    /// Optimal when the heuristic is admissible (see the module's contract), consistent or
    /// not; with an inadmissible one, the cost of a valid path. With `components`, a goal
    /// in another component is answered at once; without, the search ends when the list
    /// empties. A goal of another terrain class than the start is unreachable.
    pub fn search<H: Heuristic>(
        &mut self,
        grid: &Grid,
        heuristic: &mut H,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        let (start, goal) = endpoints(grid, self.nodes.len(), start, goal)?;
        let mut counters = Counters::default();
        self.begin();
        if known_unreachable(grid, components, start, goal) {
            return Ok(Outcome { cost: None, counters });
        }
        heuristic.set_goal(grid, goal);
        let mut cost = self.run(grid, heuristic, start, goal, &mut counters)?;
        counters.max_frontier = counters.max_open;
        // As in the A*: a reinserted cell may have improved after the goal's cost was set
        // through it, so its parents trace a cheaper path; the answer is that path's cost.
        if cost.is_some() && counters.reopenings > 0 {
            let path = self.path(grid, grid.coords(goal)).expect("the goal was reached");
            cost = super::check::path_cost(grid, &self.moves, &path);
        }
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
        let divide = Divider::new(grid.stride());
        let weights = grid.weights();
        let offsets = *self.moves.offsets();
        let steps = *self.moves.steps();
        let moves = &self.moves;
        // SAFETY: `list` is only given the sentinel, the start (checked inside the map by
        // `endpoints`), cells reached by following links from the sentinel, and targets of
        // set bits of a cell's mask; links are only set to such cells, and a mask's bits
        // name cells inside the map (`Moves`' invariant), so every cell is below the map's
        // cells, `self.nodes.len()` (checked against `grid` by `endpoints`).
        let mut list = unsafe { List::new(&mut self.nodes) };

        // The list holds the start alone.
        let (x, y) = divide.coords(start);
        let mut limit = heuristic.estimate(x, y, start);
        if limit > u64::from(u32::MAX) {
            return Err(SearchError::CostOverflow { f: limit });
        }
        list.insert_after(SENTINEL, start, CellState::new(limit as u32, open, CellState::START));
        let mut in_list: u64 = 1;
        counters.pushes = 1;
        counters.max_open = 1;

        loop {
            // The smallest f above the limit seen in this iteration.
            let mut next_limit = u64::MAX;
            let mut cell = list.at(SENTINEL).next;
            while cell != SENTINEL {
                counters.pops += 1;
                let node = *list.at(cell);
                let f = u64::from(node.state.g);
                if f > limit {
                    next_limit = next_limit.min(f);
                    counters.stale_pops += 1;
                    cell = node.next;
                    continue;
                }
                counters.expansions += 1;
                let (x, y) = divide.coords(cell);
                let g = f - heuristic.estimate(x, y, cell);
                if cell == goal {
                    list.at(cell).state.restamp(closed);
                    return Ok(Some(g));
                }
                if super::stop::poll(counters.expansions) {
                    return Err(SearchError::Stopped);
                }
                let mut mask = moves.mask(cell) & !skipped(moves, &offsets, cell, node.state);
                while mask != 0 {
                    let d = mask.trailing_zeros() as usize & 7;
                    mask &= mask - 1;
                    let next = cell.wrapping_add_signed(offsets[d]);
                    let step = match weights {
                        None => steps[d],
                        Some(w) => steps[d] * u64::from(w[next as usize]),
                    };
                    let (dx, dy) = DIRECTIONS[d];
                    let f_next = g
                        + step
                        + heuristic.estimate(
                            x.wrapping_add_signed(dx.into()),
                            y.wrapping_add_signed(dy.into()),
                            next,
                        );
                    // `h` is the same for both: comparing `f` compares `g`.
                    let seen = list.at(next).state;
                    let stamp = seen.stamp();
                    if stamp >= open && f_next >= u64::from(seen.g) {
                        continue;
                    }
                    if f_next > u64::from(u32::MAX) {
                        return Err(SearchError::CostOverflow { f: f_next });
                    }
                    if stamp == open {
                        // In the list: moved after this cell.
                        list.unlink(next);
                        counters.decrease_keys += 1;
                    } else {
                        counters.pushes += 1;
                        counters.reopenings += u64::from(stamp == closed);
                        in_list += 1;
                    }
                    list.insert_after(cell, next, CellState::new(f_next as u32, open, d as u32));
                }
                // Remove the expanded cell; its children, right after it, come next.
                let next = list.unlink(cell);
                list.at(cell).state.restamp(closed);
                counters.max_open = counters.max_open.max(in_list);
                in_list -= 1;
                cell = next;
            }
            if list.at(SENTINEL).next == SENTINEL {
                return Ok(None);
            }
            // Every cell left in the list was visited above the limit since its `f` last
            // changed, so `next_limit` is finite and above `limit`.
            limit = next_limit;
        }
    }

    /// The cells of the path found by the last search, start first, when it reached
    /// `goal`; `None` otherwise.
    pub fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        if !grid.contains(goal.0, goal.1) || grid.cells() != self.nodes.len() {
            return None;
        }
        let mut cell = grid.index(goal.0, goal.1);
        if self.nodes[cell as usize].state.stamp() != self.open + 1 {
            return None;
        }
        let mut path = vec![grid.coords(cell)];
        loop {
            let via = self.nodes[cell as usize].state.via();
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

/// The moves out of `cell` (whose state is `state`) that cannot improve their targets, as
/// in the A*: the move back to the parent, and the moves whose targets the parent enters
/// at no greater cost ([`Moves::dominated`]). The parent's expansion set this cell's `g`
/// through `via` and left each such target's `g` no higher than through here; `g` only
/// falls.
#[inline(always)]
fn skipped(moves: &Moves, offsets: &[i32; 8], cell: u32, state: CellState) -> u8 {
    match state.via() {
        CellState::START => 0,
        via => {
            let parent = cell.wrapping_add_signed(-offsets[via as usize & 7]);
            1u8 << OPPOSITE[via as usize & 7] | moves.dominated(via as usize, moves.mask(parent))
        }
    }
}

/// The nodes of a search in progress, reached without range checks, and the list's
/// operations on them.
struct List<'a> {
    nodes: *mut Node,
    _nodes: PhantomData<&'a mut [Node]>,
}

impl<'a> List<'a> {
    /// The list over `nodes`.
    ///
    /// # Safety
    ///
    /// Every cell given to the list's methods must be below `nodes.len()`.
    unsafe fn new(nodes: &'a mut [Node]) -> Self {
        List { nodes: nodes.as_mut_ptr(), _nodes: PhantomData }
    }

    /// The node of `cell`.
    #[inline(always)]
    fn at(&mut self, cell: u32) -> &mut Node {
        // SAFETY: `cell` is below the nodes' length, as `List::new`'s caller promised, and
        // the reference borrows `self` mutably, so no two are alive at once.
        unsafe { &mut *self.nodes.add(cell as usize) }
    }

    /// Unlinks `cell`, which is in the list; gives the cell that followed it.
    #[inline(always)]
    fn unlink(&mut self, cell: u32) -> u32 {
        let Node { prev, next, .. } = *self.at(cell);
        self.at(prev).next = next;
        self.at(next).prev = prev;
        next
    }

    /// Links `cell`, with `state`, right after `before`, which is in the list.
    #[inline(always)]
    fn insert_after(&mut self, before: u32, cell: u32, state: CellState) {
        let after = self.at(before).next;
        *self.at(cell) = Node { state, prev: before, next: after };
        self.at(after).prev = cell;
        self.at(before).next = cell;
    }
}

impl GridLoop for Fringe {
    fn search(
        &mut self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        Fringe::search(self, grid, heuristic, components, start, goal)
    }

    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        Fringe::path(self, grid, goal)
    }
}

/// The registry's hook ([`super::registry::LOOPS`]): fringe search on `target` where
/// `heuristic` is admissible, so that it is exact; why not otherwise. O(cells).
pub fn build(target: &Target<'_>, heuristic: &AnyHeuristic) -> Result<Box<dyn GridLoop>, String> {
    if !heuristic.admissible() {
        return Err(format!(
            "fringe search is timed where it is exact, under an admissible heuristic, and {} is not",
            target.series.heuristic
        ));
    }
    Ok(Box::new(Fringe::new(target.grid, target.rules())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_16_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
    }
}
