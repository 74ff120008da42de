//! Where the A* keeps what it knows of each cell during a search: a flat array indexed by
//! cell (the default), or a hash table keyed by cell, as searches over implicit or huge
//! graphs do (and as the `pathfinding` crate does). The lab times the A* with each store,
//! so a report can say what membership through a hash table costs against an indexed array.
//!
//! | store | lookup | a new search | memory |
//! |---|---|---|---|
//! | [`FlatStore`] | one indexed load | O(1): new stamps (O(cells) once every 2²⁷ searches) | 8 bytes × cells, allocated once |
//! | [`ClearedStore`] | one indexed load | O(cells): the whole array is reset, as a search without stamps must | 8 bytes × cells, allocated once |
//! | [`HashStore`] with `FxBuildHasher` | a multiply-shift hash and a probe | O(table): the table's control bytes are reset | ~13 bytes × cells touched, grown per search after a clear |
//! | [`HashStore`] with std's SipHash | SipHash-1-3 and a probe | same | same |

use std::collections::HashMap;
use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

/// One cell's search state, 8 bytes: the best cost found so far, and in one word the
/// search's stamp and the direction the cell was reached from.
///
/// `h` is not kept: the A* computes it when it needs it (a cell's first arrival, an
/// improvement of a known cell, and with monotone keys the stale check of a pop), which
/// halves the state against keeping it (16 bytes), so twice the map fits in each cache
/// level. `g` fits 32 bits: the A* rejects a search whose `f = g + h` would not
/// ([`SearchError::CostOverflow`](crate::search::outcome::SearchError::CostOverflow)). A
/// cell is untouched in the current search when its stamp is below the store's open stamp,
/// open when equal, closed when `open + 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct CellState {
    /// The cost of the best path found so far.
    pub g: u32,
    /// `stamp << 4 | via`.
    meta: u32,
}

impl CellState {
    /// `via` of the start cell.
    pub const START: u32 = 15;
    /// The largest stamp a state holds (28 bits).
    pub const MAX_STAMP: u32 = u32::MAX >> 4;

    /// A state with cost `g`, stamp `stamp` (at most [`CellState::MAX_STAMP`]) and
    /// direction `via` (an index into [`DIRECTIONS`](crate::maps::moves::DIRECTIONS), or
    /// [`CellState::START`]).
    #[inline(always)]
    pub fn new(g: u32, stamp: u32, via: u32) -> CellState {
        debug_assert!(stamp <= Self::MAX_STAMP && via < 16);
        CellState { g, meta: stamp << 4 | via }
    }

    /// Which search touched the cell last, and whether it is open or closed there.
    #[inline(always)]
    pub fn stamp(self) -> u32 {
        self.meta >> 4
    }

    /// The direction of the move that reached the cell, or [`CellState::START`].
    #[inline(always)]
    pub fn via(self) -> u32 {
        self.meta & 15
    }

    /// Marks the cell with another stamp, keeping its cost and direction.
    #[inline(always)]
    pub fn restamp(&mut self, stamp: u32) {
        self.meta = stamp << 4 | (self.meta & 15);
    }
}

/// Which per-cell store a search ran with: a column of the lab's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreKind {
    /// A flat array indexed by cell, with generation stamps.
    Flat,
    /// A flat array indexed by cell, reset at the start of every search: what a hash
    /// table's advocates say it saves.
    Cleared,
    /// `HashMap<u32, CellState, FxBuildHasher>` (rustc-hash), cleared per search.
    FxHash,
    /// `std::collections::HashMap` with its default SipHash, cleared per search.
    StdHash,
}

impl StoreKind {
    /// The stores measured against the flat array, in the order the report lists them.
    pub const ALTERNATIVES: [StoreKind; 3] =
        [StoreKind::Cleared, StoreKind::FxHash, StoreKind::StdHash];

    /// The token a store is written as in workload names and results.
    pub fn token(self) -> &'static str {
        match self {
            StoreKind::Flat => "flat",
            StoreKind::Cleared => "cleared",
            StoreKind::FxHash => "fx-hash",
            StoreKind::StdHash => "std-hash",
        }
    }
}

impl std::fmt::Display for StoreKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(match self {
            StoreKind::Flat => "flat array",
            StoreKind::Cleared => "flat array cleared per search",
            StoreKind::FxHash => "FxHashMap",
            StoreKind::StdHash => "std HashMap",
        })
    }
}

/// The per-cell state of searches on one map.
pub trait NodeStore {
    /// Which store this is.
    const KIND: StoreKind;
    /// A store for cell indices below `cells`.
    fn new(cells: usize) -> Self;
    /// Starts a new search, in which every cell is untouched; returns the open stamp.
    fn begin(&mut self) -> u32;
    /// The state of `cell`; an untouched cell reads with a stamp below the open stamp.
    /// Panics if `cell` is not below the `cells` the store was built for.
    fn get(&self, cell: u32) -> CellState;
    /// The state of `cell` to update; an untouched cell is created with stamp 0. Panics
    /// if `cell` is not below the `cells` the store was built for.
    fn slot(&mut self, cell: u32) -> &mut CellState;
    /// [`NodeStore::get`] without the range check, for the search's inner loop.
    ///
    /// # Safety
    /// `cell` must be below the `cells` the store was built for.
    unsafe fn get_unchecked(&self, cell: u32) -> CellState;
    /// [`NodeStore::slot`] without the range check, for the search's inner loop.
    ///
    /// # Safety
    /// `cell` must be below the `cells` the store was built for.
    unsafe fn slot_unchecked(&mut self, cell: u32) -> &mut CellState;
}

/// The default store: one [`CellState`] per cell, stamped rather than cleared.
///
/// Invariant: every state's stamp is at most `open + 1`, so a new open stamp `open + 2`
/// makes every cell untouched without touching memory; when stamps would pass
/// [`CellState::MAX_STAMP`] (every 2²⁷ searches), the array is reset.
#[derive(Clone, Debug)]
pub struct FlatStore {
    cells: Vec<CellState>,
    open: u32,
}

impl NodeStore for FlatStore {
    const KIND: StoreKind = StoreKind::Flat;

    fn new(cells: usize) -> Self {
        FlatStore { cells: vec![CellState::default(); cells], open: 0 }
    }

    /// O(1), except once every 2²⁷ searches, when the stamps wrap and the array is reset.
    #[inline]
    fn begin(&mut self) -> u32 {
        if self.open >= CellState::MAX_STAMP - 2 {
            self.cells.fill(CellState::default());
            self.open = 0;
        }
        self.open += 2;
        self.open
    }

    #[inline(always)]
    fn get(&self, cell: u32) -> CellState {
        self.cells[cell as usize]
    }

    #[inline(always)]
    fn slot(&mut self, cell: u32) -> &mut CellState {
        &mut self.cells[cell as usize]
    }

    #[inline(always)]
    unsafe fn get_unchecked(&self, cell: u32) -> CellState {
        // SAFETY: the caller promises `cell < cells.len()` (the `cells` of `new`).
        unsafe { *self.cells.get_unchecked(cell as usize) }
    }

    /// Measured: the range checks of the neighbours' states cost std-binary-heap-dup 9% of
    /// its search time (`pqlab compare`, brc202d, Paris_0_1024 and 32room_000, 100
    /// problems, three interleaved runs each: 852 against 930 µs a search on brc202d).
    #[inline(always)]
    unsafe fn slot_unchecked(&mut self, cell: u32) -> &mut CellState {
        // SAFETY: the caller promises `cell < cells.len()` (the `cells` of `new`).
        unsafe { self.cells.get_unchecked_mut(cell as usize) }
    }
}

/// A [`FlatStore`] reset in full at the start of every search, as a search without
/// generation stamps must: the per-search cost a hash table's advocates say it saves.
#[derive(Clone, Debug)]
pub struct ClearedStore(FlatStore);

impl NodeStore for ClearedStore {
    const KIND: StoreKind = StoreKind::Cleared;

    fn new(cells: usize) -> Self {
        ClearedStore(FlatStore::new(cells))
    }

    /// O(cells): every state is reset; the open stamp is always 2.
    #[inline]
    fn begin(&mut self) -> u32 {
        self.0.cells.fill(CellState::default());
        self.0.open = 2;
        2
    }

    #[inline(always)]
    fn get(&self, cell: u32) -> CellState {
        self.0.get(cell)
    }

    #[inline(always)]
    fn slot(&mut self, cell: u32) -> &mut CellState {
        self.0.slot(cell)
    }

    #[inline(always)]
    unsafe fn get_unchecked(&self, cell: u32) -> CellState {
        // SAFETY: the caller's promise is the inner store's.
        unsafe { self.0.get_unchecked(cell) }
    }

    #[inline(always)]
    unsafe fn slot_unchecked(&mut self, cell: u32) -> &mut CellState {
        // SAFETY: the caller's promise is the inner store's.
        unsafe { self.0.slot_unchecked(cell) }
    }
}

/// A hash table from cell to state, cleared at the start of every search (its allocation
/// is kept). The open stamp is always 2: absent cells read as stamp 0.
#[derive(Clone, Debug)]
pub struct HashStore<H> {
    cells: HashMap<u32, CellState, H>,
}

/// [`HashStore`] with rustc-hash's Fx hasher.
pub type FxHashStore = HashStore<FxBuildHasher>;

/// [`HashStore`] with std's default hasher (SipHash-1-3, randomly keyed).
pub type StdHashStore = HashStore<std::collections::hash_map::RandomState>;

/// The store kind of each hasher, so one generic store serves both.
pub trait StoreHasher: BuildHasher + Default {
    /// The store kind a [`HashStore`] with this hasher is.
    const KIND: StoreKind;
}

impl StoreHasher for FxBuildHasher {
    const KIND: StoreKind = StoreKind::FxHash;
}

impl StoreHasher for std::collections::hash_map::RandomState {
    const KIND: StoreKind = StoreKind::StdHash;
}

impl<H: StoreHasher> NodeStore for HashStore<H> {
    const KIND: StoreKind = H::KIND;

    fn new(_: usize) -> Self {
        HashStore { cells: HashMap::default() }
    }

    #[inline]
    fn begin(&mut self) -> u32 {
        self.cells.clear();
        2
    }

    #[inline(always)]
    fn get(&self, cell: u32) -> CellState {
        self.cells.get(&cell).copied().unwrap_or_default()
    }

    #[inline(always)]
    fn slot(&mut self, cell: u32) -> &mut CellState {
        self.cells.entry(cell).or_default()
    }

    #[inline(always)]
    unsafe fn get_unchecked(&self, cell: u32) -> CellState {
        self.get(cell)
    }

    #[inline(always)]
    unsafe fn slot_unchecked(&mut self, cell: u32) -> &mut CellState {
        self.slot(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamps_mark_new_searches<S: NodeStore>() {
        let mut store = S::new(10);
        let open = store.begin();
        assert!(store.get(3).stamp() < open);
        *store.slot(3) = CellState::new(5, open + 1, 7);
        assert_eq!((store.get(3).g, store.get(3).stamp(), store.get(3).via()), (5, open + 1, 7));
        let next = store.begin();
        assert!(store.get(3).stamp() < next, "a new search sees every cell untouched");
    }

    #[test]
    fn every_store_starts_each_search_untouched() {
        stamps_mark_new_searches::<FlatStore>();
        stamps_mark_new_searches::<ClearedStore>();
        stamps_mark_new_searches::<FxHashStore>();
        stamps_mark_new_searches::<StdHashStore>();
    }

    #[test]
    fn the_cell_state_is_8_bytes() {
        assert_eq!(std::mem::size_of::<CellState>(), 8);
    }

    #[test]
    fn stamps_wrap_by_resetting_the_array() {
        let mut store = FlatStore::new(4);
        store.open = CellState::MAX_STAMP - 1; // its closed stamp is the largest
        *store.slot(1) = CellState::new(9, store.open + 1, 2);
        let open = store.begin();
        assert_eq!(open, 2);
        assert!(store.get(1).stamp() < open, "the reset left a cell touched");
    }
}
