//! One A*, generic over the frontier, the per-cell store and (per search) the heuristic.
//!
//! Written as a tuned grid A* is: per-cell state packed in 8 bytes ([`CellState`]: `g`, and
//! a generation stamp with the move that entered the cell) in one flat array, so a new
//! search clears nothing map-sized; `h` computed when needed rather than stored (see the
//! table below); one byte per cell giving its legal moves ([`Moves`]); no hashing; and one
//! [`AStar`] context reused by every search on a map.
//!
//! # Keys and ties
//!
//! The tie rule `T` ([`super::ties`]) makes the key. By default ([`LargerG`]), for queues
//! that accept any key, it is `f << 32 | (u32::MAX - g)`: the smallest `f` first and,
//! among equal `f`, the largest `g` (the deepest node, usually nearest the goal).
//! Restricted (monotone) queues are given `f` alone, since a child with the same `f` has a
//! larger `g` and its composite key would fall below the last popped key; their own tie
//! order (LIFO for bucket-based queues) then decides. The other rules are searches of the
//! registry. `g` and `f` must fit 32 bits: a search that would exceed that fails with
//! [`SearchError::CostOverflow`] (the fine cost scale keeps paths up to about 22,000
//! straight steps within it).
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
//! Each candidate, measured one by one: instructions inside `AStar::search`
//! with `valgrind --tool=callgrind` (`pqlab run --map dao/brc202d.map --limit 40 --queue
//! std-binary-heap-dup`: 620,326 expansions), and thread CPU time per search with
//! `pqlab compare --map … --limit 100 --rounds 5` on brc202d, Paris_0_1024 and
//! 32room_000, the two builds alternated three times. Timings move by ±5% with code
//! layout alone, so only changes beyond that are counted as gains.
//!
//! | candidate | effect | kept |
//! |---|---|---|
//! | per-cell masks of legal moves (corner rule applied), walked bit by bit | 818 → 662 instructions per expansion, with the three below | yes |
//! | `g` and `h` in `u32`: a 16-byte state (from 24) | (in the above) | yes, then 8 |
//! | not re-examining the parent (`via`, its opposite bit cleared) | (in the above) | yes |
//! | stride division as a multiply-high | (in the above) | yes |
//! | branch-free octile (`a·min + b·max`, selects) | (in the above) | yes |
//! | an 8-byte state, `h` computed again when needed (lazily) instead of kept | std 5–7% faster on Paris_0_1024 (1M cells), 2–5% slower on brc202d: the state of a 512² map fits the 2 MiB L2 either way | yes: maps only grow |
//! | no range checks on the neighbours' states (`unsafe`, proven by the masks) | std 852 against 930 µs a search on brc202d (9%) | yes |
//! | the counters in locals, uniform and weighted maps in separate loops | 5–8% slower for std (code layout), no gain for the radix heap | no |
//! | the improvement test without short-circuit (`&`) and branch-free counting | within ±3% | no |
//! | frontier entries of 8 bytes where the key fits 32 bits | not tried: any-key queues get `f << 32 \| (MAX − g)`, 64 bits, so an 8-byte entry would drop the tie-break or the node; monotone queues get `f` alone and lay out their own entries. On brc202d the whole frontier costs `dary4-dk` 8 of its 41 ns an expansion, which bounds what smaller entries could buy | – |
//! | prefetching the neighbours' states | not tried: a cell's eight neighbours span three cache lines the hardware prefetcher already follows row by row | – |
//! | skipping the moves whose target the parent enters at no greater cost ([`Moves::dominated`], one table load per expansion) | 675 → 629 instructions per expansion (same 40 problems, counters identical); std's heap 3–5% faster, the radix heap 0–2% (four maps, two alternations) | yes |
//! | reading and comparing all eight neighbours without a branch, then walking only the improving moves | simulated mispredictions 2.98 → 1.79 M, but 43 more instructions per expansion: within ±2% | no |
//! | weighted octile's weight folded into the estimate's coefficients instead of applied per estimate (`heuristic::Geometric`) | std 2.5% faster; the `pathfinding` peer, which shares the estimate, 36% | yes |
//! | the states cache-blocked, in 4×4 tiles (128 bytes; the store indexed tile by tile, each neighbour's offset read from a table by its position in the tile; masks, frontier ids and paths left row by row) | 605 → 644 instructions per expansion (radix heap 693 → 725); on Paris_0_1024 (40 problems) 854 → 900, and simulated D1 read misses 4.27 → 3.85 per expansion (8×8 tiles, 512 bytes: the same instructions, 4.33 misses). Time per expansion, new ÷ old, median of paired runs with quartiles in brackets (`pqlab run --map … --limit 100 --queue std-binary-heap-dup --queue radix-heap-dup`, the builds alternated 30 times on brc202d, 20 on Paris_0_1024 and 32room_000): std 1.03 [0.98, 1.10] on brc202d, 0.99 [0.85, 1.02] on Paris_0_1024, 1.01 [0.95, 1.08] on 32room_000; the radix heap 1.03 [1.00, 1.14], 0.95 [0.86, 1.07], 1.08 [0.97, 1.16]. 8×8 tiles (20 and 12 alternations): std 1.02 [0.94, 1.10] and 0.99 [0.94, 1.10], the radix heap 1.03 [0.94, 1.14] and 0.97 [0.87, 1.06]. `pqlab compare` (three alternations) agrees: std 1.00 (0.99–1.17) on brc202d, 0.88 (0.84–0.96) on Paris_0_1024. Measured on 2 cores shared with two compilers, so a few percent either way is noise: no gain on the 512² maps, at most a few percent on the 1024² one | no |
//! | SIMD neighbour evaluation: the eight neighbours' states read with six SSE2 loads (a row above, a row below, the cells beside), the eight candidate `g`s and stamps compared at once into a bit mask of improving moves (checked in the assembly: `shufps`, `pcmpgtd`, `pmovmskb`), only those walked; scalar on weighted maps and near `g`'s 32-bit limit | 605 → 630 instructions per expansion (radix heap 693 → 724), Paris_0_1024 854 → 891; simulated mispredictions 2.27 → 1.56 M. Time per expansion, new ÷ old, as for the tiles (same runs): std 1.00 [0.96, 1.07] on brc202d, 1.02 [0.93, 1.13] on Paris_0_1024, 1.04 [0.93, 1.07] on 32room_000; the radix heap 1.04 [0.97, 1.18], 0.93 [0.85, 1.08], 1.02 [0.93, 1.14]. `pqlab compare` (three alternations): std 1.01 (0.94–1.23) and 0.96 (0.82–1.19), the radix heap 1.13 (1.07–1.38) and 1.03 (0.81–1.28). Like the branch-free variant above: the mispredictions saved are paid back in instructions | no |
//! | a pop of a cell not yet closed taken as current without the tie rule's test where the queue guarantees it (`open_pop_is_current`: decrease-key, or exact and monotone, whose test recomputed `h` on every expansion) | `stacked-bitmap-bucket-queue-dup` 501 → 480 instructions per expansion (the 40 problems on brc202d; counters identical), std's heap, whose test stays, 603 → 596 by code layout alone. `pqlab compare --maps DIR --limit 50 --rounds 3 --queue std-binary-heap-dup --queue stacked-bitmap-bucket-queue-dup` over one map of each of 8 Moving AI kinds (AR0011SR, ht_chantry, brc202d, maze512-8-0, random512-25-0, 32room_000, Aftershock, Paris_0_1024), the two builds alternated twice, new ÷ old, geometric mean: the stacked queue 0.97 and 1.01, std 0.97 and 0.99, the oracle floor 1.03 and 1.02; the stacked queue ÷ the floor 1.32 → 1.24 and 1.29 → 1.28. The committed build against the old, once so and once with `--limit 100 --rounds 5` (the issue's runs): the stacked queue 1.00 and 0.96, std 0.99 and 0.96, the floor 1.02 and 0.99; the stacked queue ÷ the floor 1.28 → 1.25 and 1.30 → 1.26 | yes: fewer instructions for every monotone queue, no loss measured |//!
//!
//! Where the time goes (`pqlab compare --maps DIR --limit 150 --rounds 5`, eight Moving AI
//! maps): on brc202d the oracle floor (this loop replaying std's recorded pops, a
//! frontier that costs nothing) takes 33 ns an expansion, std's heap adds 23, `dary4-dk`
//! 8. The `pathfinding` crate takes 118 (its own heap, a hash map for every state, a `Vec`
//! per expansion). Over the eight maps `pathfinding` takes 4.29× the oracle floor's time
//! (geometric mean): no queue in this loop can be more than that much faster than it.
//!
//! # Example
//!
//! ```
//! use pqlab::maps::generate::{MapKind, MapSpec};
//! use pqlab::search::astar::AStar;
//! use pqlab::maps::grid::Rules;
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

use std::marker::PhantomData;

use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{Frontier, Key, PushError, Pushed, Spec, Strategy};

use crate::maps::grid::{Grid, Rules, Terrain};
use crate::maps::moves::{Components, Moves, DIRECTIONS, OPPOSITE};
use crate::search::grid_loop::{GridLoop, Target};
use crate::search::heuristic::{AnyHeuristic, Heuristic};
use crate::search::outcome::{Counters, Outcome, SearchError};
use crate::search::store::{
    CellState, ClearedStore, FlatStore, FxHashStore, NodeStore, StdHashStore, StoreKind,
};
use crate::search::ties::{LargerG, TieRule};

/// A search context for one map: the per-cell store, the frontier and the compiled moves,
/// reused by every search so that only the first one allocates map-sized memory.
pub struct AStar<F, S = FlatStore, T = LargerG> {
    store: S,
    /// The cells of the map the context was built for: every search must be on it.
    cells: usize,
    /// The store's open stamp for the current (or last) search; `open + 1` marks closed.
    open: u32,
    frontier: F,
    moves: Moves,
    span: Key,
    ties: PhantomData<T>,
}

impl<F: Frontier, S: NodeStore, T: TieRule> AStar<F, S, T> {
    /// A context for searches on `grid` under `rules`; its frontier is built for node ids
    /// below `grid.cells()` and the key span [`AStar::span`]. O(cells).
    pub fn new(grid: &Grid, rules: Rules) -> Self {
        Self::with_moves(grid, Moves::new(grid, rules.connectivity, rules.scale))
    }

    /// [`AStar::new`] with the moves already compiled for `grid` under the rules to search
    /// by (a clone shares them), so contexts for many queues on one map compile them once.
    /// The lab builds a context per queue, and on its largest maps one per sample: compiled
    /// each time, the moves took 32% of `perf record`'s samples of the lab on
    /// `cave-f45-i4-2048-s1/octile/fine/flat`. O(cells) for the store and the
    /// frontier.
    ///
    /// # Panics
    /// If `moves` were compiled for a grid with another number of cells.
    pub fn with_moves(grid: &Grid, moves: Moves) -> Self {
        assert_eq!(moves.masks().len(), grid.cells(), "moves compiled for another grid");
        let span = 2 * moves.max_cost(grid);
        AStar {
            store: S::new(grid.cells()),
            cells: grid.cells(),
            open: 0,
            frontier: F::new(Spec { capacity: grid.cells(), span }),
            moves,
            span,
            ties: PhantomData,
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
        let (start, goal) = endpoints(grid, self.cells, start, goal)?;
        let mut counters = Counters::default();
        self.open = self.store.begin();
        self.frontier.clear();
        if known_unreachable(grid, components, start, goal) {
            return Ok(Outcome { cost: None, counters });
        }
        heuristic.set_goal(grid, goal);
        let mut cost = self.run(grid, heuristic, start, goal, &mut counters)?;
        // A reopened cell (an inconsistent heuristic, or a queue that pops out of order)
        // may have been improved after the goal's cost was set through it, and not yet
        // expanded again: the parents then trace a path cheaper than that cost. The answer
        // is the path's own cost, so that path and cost always agree.
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
        *self.store.slot(start) = CellState::new(0, open, CellState::START);
        // The pushes so far, for the tie rules that order by them.
        let mut seq: u32 = 0;
        self.push(start, T::key(F::KEYS, h, 0, seq), heuristic)?;
        counters.pushes += 1;
        let mut open_cells: u64 = 1;
        counters.max_open = 1;
        counters.max_frontier = 1;

        while let Some((cell, key)) = self.frontier.pop() {
            counters.pops += 1;
            // A queue pops only nodes it was given (its contract), all below `cells`;
            // checked once here so the accesses below need no range checks.
            assert!((cell as usize) < self.cells, "the frontier popped node {cell}, never pushed");
            // SAFETY: `cell < self.cells`, the store's size, just checked.
            let state = unsafe { self.store.get_unchecked(cell) };
            let g = u64::from(state.g);
            let (x, y) = divide.coords(cell);
            // A pop is stale when its cell is closed, or was pushed again with a lower g
            // (the tie rule reads g from the key, or h again for f − h). An open cell's pop
            // is current without that test for the queues of `open_pop_is_current`.
            let current = || T::current(F::KEYS, key, state.g, || heuristic.estimate(x, y, cell));
            debug_assert!(state.stamp() == closed || !open_pop_is_current::<F>() || current());
            if state.stamp() == closed || !(open_pop_is_current::<F>() || current()) {
                counters.stale_pops += 1;
                continue;
            }
            // SAFETY: as above.
            unsafe { self.store.slot_unchecked(cell) }.restamp(closed);
            open_cells -= 1;
            counters.expansions += 1;
            if cell == goal {
                return Ok(Some(g));
            }
            if super::stop::poll(counters.expansions) {
                return Err(SearchError::Stopped);
            }
            // The move back along `via` reaches a cell no cheaper than this one's parent,
            // and the parent's own moves reach some neighbours at no greater cost
            // ([`Moves::dominated`]): none of those can improve, so none is looked at.
            let skip = match state.via() {
                CellState::START => 0,
                via => {
                    let parent = cell.wrapping_add_signed(-offsets[via as usize & 7]);
                    1u8 << OPPOSITE[via as usize & 7]
                        | self.moves.dominated(via as usize, self.moves.mask(parent))
                }
            };
            #[cfg(debug_assertions)]
            self.check_skipped(grid, cell, g, skip, open);
            let mut mask = self.moves.mask(cell) & !skip;
            while mask != 0 {
                // `& 7` proves the index in range to the compiler (a set bit of a `u8`).
                let d = mask.trailing_zeros() as usize & 7;
                mask &= mask - 1;
                let next = cell.wrapping_add_signed(offsets[d]);
                let step = match weights {
                    None => steps[d],
                    Some(w) => steps[d] * u64::from(w[next as usize]),
                };
                let g_next = g + step;
                // SAFETY: `cell` is a cell of the map (checked above against the store's
                // size, which is the cells of the map the context was built for, which
                // `search` checked is `grid`), and a set bit of its mask names a neighbour
                // inside the map (`Moves`' invariant: the blocked border is never a move's
                // target), so `next < self.cells`.
                let seen = unsafe { self.store.slot_unchecked(next) };
                let stamp = seen.stamp();
                if stamp >= open && g_next >= u64::from(seen.g) {
                    continue;
                }
                if stamp != open {
                    // New, or closed and reopened.
                    open_cells += 1;
                    counters.reopenings += u64::from(stamp == closed);
                }
                let (dx, dy) = DIRECTIONS[d];
                let h = heuristic.estimate(
                    x.wrapping_add_signed(dx.into()),
                    y.wrapping_add_signed(dy.into()),
                    next,
                );
                let f_next = g_next + h;
                if f_next > u64::from(u32::MAX) {
                    return Err(SearchError::CostOverflow { f: f_next });
                }
                *seen = CellState::new(g_next as u32, open, d as u32);
                seq = seq.wrapping_add(1);
                match self.push(next, T::key(F::KEYS, f_next, g_next, seq), heuristic)? {
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

    /// Debug builds: no skipped move out of `cell` (cost `g`) would have improved its target.
    #[cfg(debug_assertions)]
    fn check_skipped(&self, grid: &Grid, cell: u32, g: u64, skipped: u8, open: u32) {
        use crate::maps::moves::{for_each_move, Direction};
        for_each_move(grid, &self.moves, Direction::Forward, cell, |m| {
            let seen = self.store.get(m.cell);
            assert!(
                skipped & 1 << m.direction == 0
                    || seen.stamp() >= open && g + m.cost >= u64::from(seen.g),
                "the move {} out of cell {cell} was skipped but improves its target",
                m.direction
            );
        });
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
        if self.store.get(cell).stamp() != self.open + 1 {
            return None;
        }
        let mut path = vec![grid.coords(cell)];
        loop {
            let via = self.store.get(cell).via();
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

impl<F: Frontier, S: NodeStore, T: TieRule> GridLoop for AStar<F, S, T> {
    fn search(
        &mut self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        AStar::search(self, grid, heuristic, components, start, goal)
    }

    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        AStar::path(self, grid, goal)
    }
}

/// The registry's hook ([`super::grid_loop::Build`]): this A\* with `queue` and the
/// target's store, on its compiled moves. Every queue takes it: O(cells).
pub fn build(target: &Target<'_>, queue: &'static Entry) -> Result<Box<dyn GridLoop>, String> {
    Ok(registry::visit(queue.id, MakeAstar(target)).expect("a registered queue"))
}

/// The registry's hook for the A\* without the components shortcut: the A\* of
/// [`build`] with `queue` and the target's store. O(cells).
pub fn build_flood(
    target: &Target<'_>,
    queue: &'static Entry,
) -> Result<Box<dyn GridLoop>, String> {
    Ok(Box::new(Flood(build(target, queue)?)))
}

/// An A\* that is never told the map's components: a goal in another component is found
/// unreachable only once the start's whole component has been expanded, as in a game that
/// does not label its components first.
struct Flood(Box<dyn GridLoop>);

impl GridLoop for Flood {
    fn search(
        &mut self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        _components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        self.0.search(grid, heuristic, None, start, goal)
    }

    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        self.0.path(grid, goal)
    }
}

/// Builds the A\* with the queue it visits.
struct MakeAstar<'t, 'a>(&'t Target<'a>);

impl Visitor for MakeAstar<'_, '_> {
    type Output = Box<dyn GridLoop>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Box<dyn GridLoop> {
        let Target { grid, moves, series } = *self.0;
        let moves = moves.clone();
        match series.store {
            StoreKind::Flat => Box::new(AStar::<F, FlatStore>::with_moves(grid, moves)),
            StoreKind::Cleared => Box::new(AStar::<F, ClearedStore>::with_moves(grid, moves)),
            StoreKind::FxHash => Box::new(AStar::<F, FxHashStore>::with_moves(grid, moves)),
            StoreKind::StdHash => Box::new(AStar::<F, StdHashStore>::with_moves(grid, moves)),
        }
    }
}

/// The registry's hook for tie rule `T` ([`super::ties`]): this A\* with `queue` and the
/// flat store, or why not (`T`'s keys do not fit the queue's key rule, [`TieRule::takes`];
/// another store: the tie rules are measured with the flat array alone, which keeps their
/// code to one A\* per queue and rule). O(cells).
pub fn build_tied<T: TieRule>(
    target: &Target<'_>,
    queue: &'static Entry,
) -> Result<Box<dyn GridLoop>, String> {
    target.flat_store_only("a tie rule")?;
    registry::visit(queue.id, Tied::<T>(target, PhantomData)).expect("a registered queue")
}

/// Builds the A\* under tie rule `T` with the queue it visits.
struct Tied<'t, 'a, T>(&'t Target<'a>, PhantomData<T>);

impl<T: TieRule> Visitor for Tied<'_, '_, T> {
    type Output = Result<Box<dyn GridLoop>, String>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
        T::takes(F::KEYS)?;
        let Target { grid, moves, .. } = *self.0;
        Ok(Box::new(AStar::<F, FlatStore, T>::with_moves(grid, moves.clone())))
    }
}

/// Whether every pop of a cell not yet closed is current, so the A\* need not ask its tie
/// rule: a decrease-key queue holds each cell once; an exact monotone queue pops a cell's
/// lowest `g` (its smallest key, as `h` is fixed) before its stale entries, and takes no
/// reopening (a reopened cell's key falls below the last popped one, and is refused).
/// Monotone queues are given `f` alone, so the test it saves is an estimate of `h` on every
/// expansion.
#[inline(always)]
fn open_pop_is_current<F: Frontier>() -> bool {
    F::STRATEGY == Strategy::DecreaseKey || F::KEYS.is_monotone() && F::ORDER.is_exact()
}

/// The indices of `start` and `goal` for a search on `grid` by a context built for a map
/// of `cells` cells, or why the search cannot run: the checks every search loop makes
/// before it starts.
pub(crate) fn endpoints(
    grid: &Grid,
    cells: usize,
    start: (u32, u32),
    goal: (u32, u32),
) -> Result<(u32, u32), SearchError> {
    if grid.cells() != cells {
        return Err(SearchError::OtherMap { cells: grid.cells(), built: cells });
    }
    if !grid.contains(start.0, start.1)
        || grid.terrain(grid.index(start.0, start.1)) == Terrain::Blocked
    {
        return Err(SearchError::BadStart { x: start.0, y: start.1 });
    }
    if !grid.contains(goal.0, goal.1) {
        return Err(SearchError::BadGoal { x: goal.0, y: goal.1 });
    }
    Ok((grid.index(start.0, start.1), grid.index(goal.0, goal.1)))
}

/// Whether the goal (an index) is unreachable from the start without searching: it is of
/// another terrain class, or `components` puts it in another component.
pub(crate) fn known_unreachable(
    grid: &Grid,
    components: Option<&Components>,
    start: u32,
    goal: u32,
) -> bool {
    grid.terrain(goal) != grid.terrain(start)
        || components.is_some_and(|c| !c.connected(start, goal))
}

/// Division of cell indices by the grid's stride as a multiply-high (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019: exact for every 32-bit
/// dividend), since a hardware division in every expansion costs tens of cycles.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divider {
    stride: u32,
    /// `ceil(2^64 / stride)`.
    magic: u64,
}

impl Divider {
    pub(crate) fn new(stride: u32) -> Self {
        debug_assert!(stride > 1, "a padded grid is at least 3 cells wide");
        Divider { stride, magic: u64::MAX / u64::from(stride) + 1 }
    }

    /// `(index % stride, index / stride)`.
    #[inline(always)]
    pub(crate) fn coords(self, index: u32) -> (u32, u32) {
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
    fn contexts_sharing_compiled_moves_search_as_contexts_compiling_their_own() {
        use crate::maps::generate::{MapKind, MapSpec};
        use crate::search::heuristic::{Geometric, HeuristicKind};
        use pqlab_queues::radix_heap::RadixHeap;
        use pqlab_queues::std_binary_heap::StdBinaryHeap;
        use pqlab_queues::Dup;
        let grid =
            MapSpec { kind: MapKind::Cave { fill: 45, steps: 4 }, size: 64, seed: 3 }.build();
        let rules = Rules::default();
        let moves = Moves::new(&grid, rules.connectivity, rules.scale);
        let mut own = AStar::<StdBinaryHeap>::new(&grid, rules);
        let mut shared = AStar::<StdBinaryHeap>::with_moves(&grid, moves.clone());
        let mut other = AStar::<RadixHeap<Dup>>::with_moves(&grid, moves);
        let mut h = Geometric::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale);
        let open: Vec<(u32, u32)> = (0..64u32)
            .flat_map(|y| (0..64u32).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.terrain(grid.index(x, y)) != crate::maps::grid::Terrain::Blocked)
            .step_by(97)
            .collect();
        for (&start, &goal) in open.iter().zip(open.iter().rev()) {
            let a = own.search(&grid, &mut h, None, start, goal).expect("searched").cost;
            let b = shared.search(&grid, &mut h, None, start, goal).expect("searched").cost;
            let c = other.search(&grid, &mut h, None, start, goal).expect("searched").cost;
            assert_eq!((a, a), (b, c), "{start:?} to {goal:?}");
        }
    }

    /// Rule: the A* never told the components (the registry's `build_flood`) expands the
    /// start's whole component on a goal outside it, told the components or not, and answers
    /// no path; the A* told them answers at once; a path found there is a wrong answer.
    #[test]
    fn the_flood_expands_the_start_component_and_the_lookup_nothing() {
        use crate::maps::generate::{unreachable_problems, MapSpec};
        use crate::search::heuristic::HeuristicKind;
        use crate::search::{check, SearchKind, Series};
        let grid = "cave-f45-i4-64-s3".parse::<MapSpec>().expect("a map name").build();
        let rules = Rules::default();
        let moves = Moves::new(&grid, rules.connectivity, rules.scale);
        let series = Series::on_grid(SearchKind::Astar, rules, HeuristicKind::Octile);
        let target = Target { grid: &grid, moves: &moves, series };
        let mut flood = build_flood(&target, registry::baseline()).expect("built");
        let mut lookup = build(&target, registry::baseline()).expect("built");
        let mut h =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale)
                .expect("octile");
        let components = Components::new(&grid);
        let problems = unreachable_problems(&grid, rules.connectivity, rules.scale, 4, 1);
        assert_eq!(problems.len(), 4);
        for p in problems {
            let label = components.label(grid.index(p.start.0, p.start.1)).expect("passable");
            let (start, goal) = (p.start, p.goal);
            let flooded = flood.search(&grid, &mut h, Some(&components), start, goal).unwrap();
            let size = components.size(label) as u64;
            assert_eq!((flooded.cost, flooded.counters.expansions), (None, size), "{p:?}");
            let looked_up = lookup.search(&grid, &mut h, Some(&components), start, goal).unwrap();
            assert_eq!((looked_up.cost, looked_up.counters.expansions), (None, 0), "{p:?}");
            assert!(check::answer(p.expected, flooded.cost, rules.scale, true, None).is_ok());
            let step = Some(u64::from(rules.scale.straight));
            let found = check::answer(p.expected, step, rules.scale, false, None);
            assert_eq!(found, Err("expected no path, found length 1.0000".into()));
        }
    }

    #[test]
    #[should_panic(expected = "moves compiled for another grid")]
    fn moves_compiled_for_another_grid_are_refused() {
        use crate::maps::generate::{MapKind, MapSpec};
        let small = MapSpec { kind: MapKind::Random { density: 20 }, size: 32, seed: 1 }.build();
        let large = MapSpec { kind: MapKind::Random { density: 20 }, size: 64, seed: 1 }.build();
        let rules = Rules::default();
        let moves = Moves::new(&small, rules.connectivity, rules.scale);
        let _ = AStar::<pqlab_queues::std_binary_heap::StdBinaryHeap>::with_moves(&large, moves);
    }

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
