//! `std::collections::BinaryHeap` with duplicate insertion: what most Rust A* code uses.
//!
//! | operation | cost |
//! |---|---|
//! | push | O(log n) worst, O(1) expected for random keys |
//! | pop | O(log n) |
//! | clear | O(1) (entries are `Copy`) |
//!
//! Keys: any. Ties: unspecified heap order (entries compare by key alone).
//! Should win: as the baseline every other queue is measured against; it is hard to beat
//! for mid-sized frontiers because its sift-down-to-the-bottom pop is branch-light.
//!
//! ```
//! use pqlab_queues::{std_binary_heap::StdBinaryHeap, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = StdBinaryHeap::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use std::collections::BinaryHeap;

use crate::max_heap_adapter::{MaxHeap, MaxHeapFrontier, MinEntry};
use crate::{Family, Origin};

/// `std::collections::BinaryHeap` holding `(key, node)` entries, duplicates allowed.
pub type StdBinaryHeap = MaxHeapFrontier<BinaryHeap<MinEntry>>;

impl MaxHeap for BinaryHeap<MinEntry> {
    const FAMILY: Family = Family::BinaryHeap;
    const ORIGIN: Origin = Origin::Std { path: "std::collections::BinaryHeap" };

    #[inline]
    fn push(&mut self, entry: MinEntry) {
        BinaryHeap::push(self, entry);
    }

    #[inline]
    fn pop(&mut self) -> Option<MinEntry> {
        BinaryHeap::pop(self)
    }

    fn len(&self) -> usize {
        BinaryHeap::len(self)
    }

    fn clear(&mut self) {
        BinaryHeap::clear(self);
    }
}
