//! Where the A* keeps what it knows of each cell during a search: a flat array indexed by
//! cell (the default), or a hash table keyed by cell, as searches over implicit or huge
//! graphs do (and as the `pathfinding` crate does). The lab times the A* with each store,
//! so a report can say what membership through a hash table costs against an indexed array.
//!
//! | store | lookup | a new search | memory |
//! |---|---|---|---|
//! | [`FlatStore`] | one indexed load | O(1): new stamps (O(cells) once every 2³¹ searches) | 16 bytes × cells, allocated once |
//! | [`HashStore`] with `FxBuildHasher` | a multiply-shift hash and a probe | O(table): the table's control bytes are reset | ~17 bytes × cells touched, grown per search after a clear |
//! | [`HashStore`] with std's SipHash | SipHash-1-3 and a probe | same | same |

use std::collections::HashMap;
use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

/// One cell's search state, 16 bytes.
///
/// `g` and `h` fit 32 bits: the A* rejects a search whose `f = g + h` would not
/// ([`SearchError::CostOverflow`](crate::search::astar::SearchError::CostOverflow)), so
/// no sum here can overflow. A cell is untouched in the current search when
/// `stamp < open` (the store's open stamp), open when `stamp == open`, closed when
/// `stamp == open + 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct CellState {
    /// The cost of the best path found so far.
    pub g: u32,
    /// The heuristic's estimate, computed once when the cell is first reached.
    pub h: u32,
    /// Which search touched the cell last, and whether it is open or closed there.
    pub stamp: u32,
    /// The direction of the move that reached the cell (an index into
    /// [`DIRECTIONS`](crate::maps::moves::DIRECTIONS)), or [`CellState::START`].
    pub via: u32,
}

impl CellState {
    /// `via` of the start cell.
    pub const START: u32 = u32::MAX;
}

/// Which per-cell store a search ran with: a column of the lab's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreKind {
    /// A flat array indexed by cell, with generation stamps.
    Flat,
    /// `HashMap<u32, CellState, FxBuildHasher>` (rustc-hash), cleared per search.
    FxHash,
    /// `std::collections::HashMap` with its default SipHash, cleared per search.
    StdHash,
}

impl std::fmt::Display for StoreKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(match self {
            StoreKind::Flat => "flat array",
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
    fn get(&self, cell: u32) -> CellState;
    /// The state of `cell` to update; an untouched cell is created with stamp 0.
    fn slot(&mut self, cell: u32) -> &mut CellState;
}

/// The default store: one [`CellState`] per cell, stamped rather than cleared.
///
/// Invariant: every state's stamp is at most `open + 1`, so a new open stamp `open + 2`
/// makes every cell untouched without touching memory.
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

    /// O(1), except once every 2³¹ searches, when the stamps wrap and the array is reset.
    #[inline]
    fn begin(&mut self) -> u32 {
        if self.open >= u32::MAX - 2 {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamps_mark_new_searches<S: NodeStore>() {
        let mut store = S::new(10);
        let open = store.begin();
        assert!(store.get(3).stamp < open);
        *store.slot(3) = CellState { g: 5, h: 1, stamp: open + 1, via: 0 };
        assert_eq!(store.get(3).g, 5);
        let next = store.begin();
        assert!(store.get(3).stamp < next, "a new search sees every cell untouched");
    }

    #[test]
    fn every_store_starts_each_search_untouched() {
        stamps_mark_new_searches::<FlatStore>();
        stamps_mark_new_searches::<FxHashStore>();
        stamps_mark_new_searches::<StdHashStore>();
    }

    #[test]
    fn the_cell_state_is_16_bytes() {
        assert_eq!(std::mem::size_of::<CellState>(), 16);
    }
}
