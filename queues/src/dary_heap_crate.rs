//! The `dary_heap` crate (0.3): `DaryHeap<T, 4>`, a drop-in replacement for
//! `std::collections::BinaryHeap` with the arity as a const generic, used with duplicate
//! insertion. d = 4 is the arity the crate's documentation suggests starting from.
//!
//! | operation | cost (per the crate's docs) |
//! |---|---|
//! | push | O(log_4 n) worst, O(1) expected for random keys |
//! | pop | O(4 log_4 n) (sift down to the bottom, then up, as std does) |
//! | clear | O(1) (entries are `Copy`; the buffer is kept) |
//!
//! Keys: any. Ties: unspecified heap order (entries compare by key alone).
//! Should win: against std's binary heap, when the frontier is large enough for the
//! shallower tree to save cache misses; against our `dary4-dup`, never by design (same
//! structure): the pair measures what the crate's std-style sift code costs or saves.

use dary_heap::DaryHeap;

use crate::max_heap_adapter::{MaxHeap, MaxHeapFrontier, MinEntry};
use crate::{Family, Origin};

/// The `dary_heap` crate's 4-ary heap of `(key, node)`, duplicates allowed.
pub type DaryHeapCrate = MaxHeapFrontier<DaryHeap<MinEntry, 4>>;

impl MaxHeap for DaryHeap<MinEntry, 4> {
    const FAMILY: Family = Family::DaryHeap;
    const ORIGIN: Origin = Origin::Crate {
        name: "dary_heap",
        version: "0.3",
        feature: "dary-heap-crate",
        usage: "`dary_heap::QuaternaryHeap::new()` for `BinaryHeap::new()`: the same API, pushes and pops unchanged",
    };

    #[inline]
    fn push(&mut self, entry: MinEntry) {
        DaryHeap::push(self, entry);
    }

    #[inline]
    fn pop(&mut self) -> Option<MinEntry> {
        DaryHeap::pop(self)
    }

    fn len(&self) -> usize {
        DaryHeap::len(self)
    }

    fn clear(&mut self) {
        DaryHeap::clear(self);
    }
}
