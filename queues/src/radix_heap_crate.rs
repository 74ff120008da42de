//! The `radix-heap` crate's `RadixHeapMap` with duplicate insertion, beside our
//! [`RadixHeap`](crate::radix_heap::RadixHeap): the same one-bucket-per-bit radix heap
//! (65 `Vec` buckets for `u64`), written as a max-heap with monotone decreasing keys, so our
//! keys go in as `Reverse(key)`.
//!
//! | operation | cost |
//! |---|---|
//! | push | O(1) |
//! | pop | O(log C) amortised (`C` bounds `key - floor` at push time) |
//! | clear | O(65) (clears every bucket) |
//!
//! Keys: monotone ([`KeyRule::Monotone`]). The crate asserts (panics) on a key past its
//! "top", which after a pop is the popped key and after `clear` is unset, exactly our floor;
//! the adapter checks [`KeyFloor`] first, so misuse is answered with [`PushError::BelowFloor`]
//! and never reaches the assertion.
//!
//! Ties: last in, first out (the crate pops bucket 0 from its end and keeps entries in order
//! when it redistributes).
//!
//! Should win: where our radix heap does; it differs in holding entries in a separate
//! bucket until the first pop and in re-checking the floor inside the crate.

use std::cmp::Reverse;

use radix_heap::RadixHeapMap;

use crate::{
    check_node, Family, Frontier, Key, KeyFloor, KeyRule, Node, Origin, PushError, Pushed, Spec,
    Strategy, Ties,
};

/// `radix_heap::RadixHeapMap<Reverse<Key>, Node>`, duplicates allowed, behind our floor check.
#[derive(Debug)]
pub struct RadixHeapCrate {
    heap: RadixHeapMap<Reverse<Key>, Node>,
    floor: KeyFloor,
    capacity: usize,
}

impl Frontier for RadixHeapCrate {
    const FAMILY: Family = Family::RadixHeap;
    const ORIGIN: Origin = Origin::Crate {
        name: "radix-heap",
        version: "0.4",
        feature: "radix-heap-crate",
        usage: "`radix_heap::RadixHeapMap::new()` for `BinaryHeap::new()`, and `open.push(Reverse(f), node)` for `open.push(Reverse((f, node)))`",
    };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Monotone;
    const TIES: Ties = Ties::Lifo;

    fn new(spec: Spec) -> Self {
        RadixHeapCrate {
            heap: RadixHeapMap::new(),
            floor: KeyFloor::new(KeyRule::Monotone, spec),
            capacity: spec.capacity,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        self.floor.check(key)?;
        self.heap.push(Reverse(key), node);
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let (Reverse(key), node) = self.heap.pop()?;
        self.floor.popped(key);
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.floor.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_pop_last_in_first_out_and_clear_forgets_the_floor() {
        let mut heap = RadixHeapCrate::new(Spec { capacity: 4, span: 0 });
        for node in 0..3 {
            heap.push(node, 9).unwrap();
        }
        heap.push(3, 12).unwrap();
        let popped: Vec<_> = std::iter::from_fn(|| heap.pop()).collect();
        assert_eq!(popped, [(2, 9), (1, 9), (0, 9), (3, 12)]);
        heap.clear();
        assert_eq!(heap.push(0, 1), Ok(Pushed::Added));
        assert_eq!(heap.pop(), Some((0, 1)));
    }
}
