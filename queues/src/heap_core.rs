//! The d-ary heap core shared by the d-ary heaps ([`crate::dary_heap`]) and the heap kept
//! on top of unsorted storage by the HOT queue ([`crate::hot_queue`]) and the two-level
//! queue ([`crate::two_level`]): a heap of `(key, node)` with `D` children per entry that
//! can be refilled in bulk (Floyd's O(k) build), and that reports every index it moves an
//! entry to, so a decrease-key queue's location table can tell "in the heap at `i`" from
//! "in a bucket / in the array" in its own encoding.
//!
//! Invariant: every entry's key is at least its parent's (`entries[(i - 1) / D]`). Ties:
//! unspecified heap order (entries compare by key alone).
//!
//! Two measured choices (recorded A* traces, see `hot_queue::THRESHOLD`): sifting down
//! picks the smallest child by selects rather than branches, which cut the two-level
//! queue's time by a third (70 to 46 ms) and a plain binary heap's from 81 to 55 ms; and pop
//! sifts the last entry down from the root, stopping where it fits, rather than walking
//! the hole to a leaf first as `std` does: the HOT queue heaps whole buckets of equal keys,
//! where this stops at once, and the leaf walk made it 15 to 40% slower (the two-level
//! queue 6% slower); the d-ary heaps, whose last entry is among the largest, pop by the leaf
//! walk ([`HeapCore::pop_to_leaf`]). Binary rather than wider: these heaps stay small (tens to hundreds of
//! entries), so depth matters less than comparisons per level.

use std::marker::PhantomData;

use crate::{Key, Node, PositionTable, StrategyKind};

/// Where a decrease-key queue records the heap index of each entry the heap moves.
pub(crate) trait HeapSlots {
    /// `node`'s entry now sits at `index` in the heap.
    fn set_heap_index(&mut self, node: Node, index: usize);
}

impl HeapSlots for PositionTable {
    #[inline]
    fn set_heap_index(&mut self, node: Node, index: usize) {
        self.set(node, index as u32);
    }
}

/// A min-first `D`-ary heap of `(key, node)`; with `S = Dk` every move is reported through
/// [`HeapSlots`] (with `Dup` the slot argument is never touched).
#[derive(Debug)]
pub(crate) struct HeapCore<const D: usize, S> {
    entries: Vec<(Key, Node)>,
    strategy: PhantomData<S>,
}

impl<const D: usize, S: StrategyKind> HeapCore<D, S> {
    pub(crate) fn new() -> Self {
        const { assert!(D >= 2, "a d-ary heap needs at least two children per entry") };
        HeapCore { entries: Vec::new(), strategy: PhantomData }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The key of the entry at `index`.
    #[inline]
    pub(crate) fn key(&self, index: usize) -> Key {
        self.entries[index].0
    }

    /// Every entry, in heap order.
    pub(crate) fn entries(&self) -> &[(Key, Node)] {
        &self.entries
    }

    /// Removes every entry, keeping the allocation.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// Adds an entry. O(log_D h).
    #[inline]
    pub(crate) fn push(&mut self, entry: (Key, Node), slots: &mut impl HeapSlots) {
        self.entries.push(entry);
        self.sift_up(self.entries.len() - 1, entry, slots);
    }

    /// Lowers the key of the entry at `index` to `key` (`key <=` its key). O(log_D h).
    #[inline]
    pub(crate) fn decrease(&mut self, index: usize, key: Key, slots: &mut impl HeapSlots) {
        debug_assert!(key <= self.entries[index].0);
        let node = self.entries[index].1;
        self.sift_up(index, (key, node), slots);
    }

    /// Removes and returns an entry with the smallest key. O(D log_D h).
    ///
    /// The caller forgets the popped node in its location table.
    #[inline]
    pub(crate) fn pop(&mut self, slots: &mut impl HeapSlots) -> Option<(Key, Node)> {
        let last = self.entries.pop()?;
        let Some(&top) = self.entries.first() else {
            return Some(last);
        };
        self.sift_down(0, last, slots);
        Some(top)
    }

    /// Removes and returns an entry with the smallest key as `std`'s `BinaryHeap` does: the
    /// hole left at the root walks down to a leaf through the smaller children, one compare
    /// a level fewer than [`HeapCore::pop`], and the last entry is sifted up from there,
    /// which in A* (the last entry is among the largest) stops at once. O(D log_D h).
    ///
    /// The d-ary heaps pop this way, with both strategies, so that pqlab's duplicate
    /// binary heap is engineered as std's is and the two strategies of one structure differ
    /// by the strategy alone (with [`HeapCore::pop`], `dary2-dup` takes about 1.6× std's
    /// time in the lab's runs).
    #[inline]
    pub(crate) fn pop_to_leaf(&mut self, slots: &mut impl HeapSlots) -> Option<(Key, Node)> {
        let last = self.entries.pop()?;
        let Some(&top) = self.entries.first() else {
            return Some(last);
        };
        let mut index = 0;
        while let Some(child) = self.smallest_child(index) {
            let below = self.entries[child];
            self.place(index, below, slots);
            index = child;
        }
        self.sift_up(index, last, slots);
        Some(top)
    }

    /// Adds `entries` and rebuilds the heap bottom-up (Floyd): O(h) in all, against
    /// O(h log h) worst case for pushing them one by one.
    pub(crate) fn fill(
        &mut self,
        entries: impl IntoIterator<Item = (Key, Node)>,
        slots: &mut impl HeapSlots,
    ) {
        self.entries.extend(entries);
        if S::DECREASE_KEY {
            // Sifting reports only the entries it moves; record the others first.
            for (index, &(_, node)) in self.entries.iter().enumerate() {
                slots.set_heap_index(node, index);
            }
        }
        let parents = (self.entries.len().saturating_sub(1)).div_ceil(D);
        for index in (0..parents).rev() {
            self.sift_down(index, self.entries[index], slots);
        }
    }

    /// Moves `entry` up from the hole at `index` while its parent's key is larger.
    #[inline]
    fn sift_up(&mut self, mut index: usize, entry: (Key, Node), slots: &mut impl HeapSlots) {
        while index > 0 {
            let parent = (index - 1) / D;
            let above = self.entries[parent];
            if above.0 <= entry.0 {
                break;
            }
            self.place(index, above, slots);
            index = parent;
        }
        self.place(index, entry, slots);
    }

    /// Moves `entry` down from the hole at `index` while a child's key is smaller.
    #[inline]
    fn sift_down(&mut self, mut index: usize, entry: (Key, Node), slots: &mut impl HeapSlots) {
        while let Some(child) = self.smallest_child(index) {
            let below = self.entries[child];
            if below.0 >= entry.0 {
                break;
            }
            self.place(index, below, slots);
            index = child;
        }
        self.place(index, entry, slots);
    }

    /// The child of `index` with the smallest key, `None` at a leaf.
    #[inline]
    fn smallest_child(&self, index: usize) -> Option<usize> {
        let len = self.entries.len();
        let first = D * index + 1;
        if first >= len {
            return None;
        }
        // The smallest child chosen without a branch: which child is smallest is a coin
        // toss the branch predictor loses half the time. Plain selects (and `+= bool as
        // usize`) were compiled to a branch once inlined into the d-ary heap's pop: 3.2 M of
        // its 6.7 M mispredictions on 40 brc202d searches (`valgrind --tool=cachegrind
        // --branch-sim=yes pqlab run --map dao/brc202d.map --limit 40 --queue dary2-dup`).
        let mut child = first;
        for next in first + 1..(first + D).min(len) {
            let smaller = self.entries[next].0 < self.entries[child].0;
            child = std::hint::select_unpredictable(smaller, next, child);
        }
        Some(child)
    }

    #[inline]
    fn place(&mut self, index: usize, entry: (Key, Node), slots: &mut impl HeapSlots) {
        self.entries[index] = entry;
        if S::DECREASE_KEY {
            slots.set_heap_index(entry.1, index);
        }
    }
}
