//! Our radix heap (R. K. Ahuja, K. Mehlhorn, J. B. Orlin, R. E. Tarjan, "Faster algorithms
//! for the shortest path problem", JACM 37(2), 1990), in its one-bucket-per-bit form for
//! `u64` keys, in both strategies. Bucket `b` holds the keys whose highest bit differing from
//! the floor `last` is bit `b - 1` (`b = 64 - (key ^ last).leading_zeros()`, 65 buckets;
//! bucket 0 holds keys equal to `last`). A pop takes from bucket 0, or first redistributes
//! the lowest non-empty bucket around its minimum, which becomes the new `last`: every entry
//! of that bucket lands in a strictly lower one.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(1) | O(1) |
//! | push (held node, smaller key) | O(1), adds an entry | O(1), in place or moved (swap-remove) |
//! | pop | O(log C) amortised | O(log C) amortised |
//! | clear | O(1) (65 buckets) | O(n) (forgets each held node) |
//!
//! `C` bounds `key - floor` at push time: an entry starts at most `1 + log2 C` buckets up
//! and each redistribution moves it down at least one, so a pop pays for the entries it
//! moves out of their pushes' budget. A bitmask of non-empty buckets finds the lowest one in
//! one instruction. Memory: 16 bytes per entry in 65 vectors kept across `clear`;
//! decrease-key adds an 8-byte position (bucket, index) per node.
//!
//! Keys: monotone ([`KeyRule::Monotone`]); no span to declare, any `u64`.
//!
//! Ties: entries of one key always share a bucket, and redistribution and pops keep their
//! order, so duplicates pop last in, first out. Decrease-key lowers a key in place when the
//! bucket does not change, and a swap-remove moves another entry when it does: its tie
//! order is last in, first out only as long as no decrease-key disturbs it.
//!
//! Should win: A* with monotone keys whose span is large or unknown (the fine cost scale):
//! O(1) pushes, no span-sized table, and each entry moves at most `log2 C` times, in
//! sequential passes over small vectors.
//!
//! ```
//! use pqlab_queues::{radix_heap::RadixHeap, Dup, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = RadixHeap::<Dup>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use std::marker::PhantomData;

use crate::{
    check_node, Family, Frontier, Key, KeyFloor, KeyRule, Node, Origin, PushError, Pushed, Spec,
    Strategy, StrategyKind, Ties,
};

/// One bucket per bit of a key, plus bucket 0 for keys equal to the floor.
const BUCKETS: usize = Key::BITS as usize + 1;

/// Where a decrease-key node's entry is: `buckets[bucket][index]`.
#[derive(Clone, Copy, Debug)]
struct Position {
    index: u32,
    /// [`Position::ABSENT`] when the node is not held.
    bucket: u8,
}

impl Position {
    const ABSENT: u8 = u8::MAX;
}

/// The bucket of `key` relative to the floor `last` (`key >= last`).
#[inline]
fn bucket_of(key: Key, last: Key) -> usize {
    (Key::BITS - (key ^ last).leading_zeros()) as usize
}

/// A radix heap of `(key, node)` entries; with `S = Dk`, node-indexed positions allow
/// decrease-key.
///
/// Invariants: every entry `(k, _)` is in `buckets[bucket_of(k, floor)]`; bit `b` of
/// `occupied` is set iff `buckets[b]` is non-empty; with `Dk`, `positions` locates each
/// held node's entry and marks every other node absent.
#[derive(Debug)]
pub struct RadixHeap<S> {
    buckets: [Vec<(Key, Node)>; BUCKETS],
    occupied: u128,
    floor: KeyFloor,
    len: usize,
    capacity: usize,
    /// Decrease-key only: one position per node.
    positions: Vec<Position>,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> RadixHeap<S> {
    /// Appends `(key, node)` to bucket `b`, recording its position for decrease-key.
    #[inline]
    fn insert(&mut self, b: usize, key: Key, node: Node) {
        let bucket = &mut self.buckets[b];
        if S::DECREASE_KEY {
            self.positions[node as usize] =
                Position { index: bucket.len() as u32, bucket: b as u8 };
        }
        bucket.push((key, node));
        self.occupied |= 1 << b;
    }

    /// Decrease-key: removes the entry at `buckets[b][index]`, the last entry taking its place.
    #[inline]
    fn remove(&mut self, b: usize, index: usize) {
        let bucket = &mut self.buckets[b];
        bucket.swap_remove(index);
        if let Some(&(_, moved)) = bucket.get(index) {
            self.positions[moved as usize].index = index as u32;
        } else if bucket.is_empty() {
            self.occupied &= !(1 << b);
        }
    }

    /// Refills the empty bucket 0: redistributes the lowest non-empty bucket around its
    /// minimum key, the floor-to-be. Needs `len > 0`.
    fn redistribute(&mut self) {
        let from = self.occupied.trailing_zeros() as usize;
        let mut moving = std::mem::take(&mut self.buckets[from]);
        let last = moving.iter().fold(Key::MAX, |min, &(key, _)| min.min(key));
        for &(key, node) in &moving {
            self.insert(bucket_of(key, last), key, node);
        }
        moving.clear();
        self.buckets[from] = moving;
        self.occupied &= !(1 << from);
    }
}

impl<S: StrategyKind> Frontier for RadixHeap<S> {
    const FAMILY: Family = Family::RadixHeap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Monotone;
    const TIES: Ties = if S::DECREASE_KEY { Ties::LifoUntilMoved } else { Ties::Lifo };

    fn new(spec: Spec) -> Self {
        let positions = if S::DECREASE_KEY {
            vec![Position { index: 0, bucket: Position::ABSENT }; spec.capacity]
        } else {
            Vec::new()
        };
        RadixHeap {
            buckets: std::array::from_fn(|_| Vec::new()),
            occupied: 0,
            floor: KeyFloor::new(KeyRule::Monotone, spec),
            len: 0,
            capacity: spec.capacity,
            positions,
            strategy: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        self.floor.check(key)?;
        let to = bucket_of(key, self.floor.get());
        if S::DECREASE_KEY {
            let at = self.positions[node as usize];
            if at.bucket != Position::ABSENT {
                let (from, index) = (at.bucket as usize, at.index as usize);
                let held = &mut self.buckets[from][index];
                if key >= held.0 {
                    return Ok(Pushed::Kept);
                }
                if to == from {
                    held.0 = key;
                } else {
                    self.remove(from, index);
                    self.insert(to, key, node);
                }
                return Ok(Pushed::Decreased);
            }
        }
        self.insert(to, key, node);
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.len == 0 {
            return None;
        }
        if self.occupied & 1 == 0 {
            self.redistribute();
        }
        let (key, node) = self.buckets[0].pop()?;
        if self.buckets[0].is_empty() {
            self.occupied &= !1;
        }
        if S::DECREASE_KEY {
            self.positions[node as usize].bucket = Position::ABSENT;
        }
        self.len -= 1;
        self.floor.popped(key);
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        let mut occupied = std::mem::take(&mut self.occupied);
        while occupied != 0 {
            let bucket = &mut self.buckets[occupied.trailing_zeros() as usize];
            if S::DECREASE_KEY {
                for &(_, node) in bucket.iter() {
                    self.positions[node as usize].bucket = Position::ABSENT;
                }
            }
            bucket.clear();
            occupied &= occupied - 1;
        }
        self.len = 0;
        self.floor.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dup;

    #[test]
    fn duplicates_pop_ties_last_in_first_out_across_redistributions() {
        let mut heap = RadixHeap::<Dup>::new(Spec { capacity: 8, span: 0 });
        for (node, key) in [(0, 9), (1, 12), (2, 9), (3, 12), (4, 9)] {
            heap.push(node, key).unwrap();
        }
        assert_eq!(heap.pop(), Some((4, 9)));
        heap.push(5, 12).unwrap();
        heap.push(6, 9).unwrap();
        let rest: Vec<_> = std::iter::from_fn(|| heap.pop()).collect();
        assert_eq!(rest, [(6, 9), (2, 9), (0, 9), (5, 12), (3, 12), (1, 12)]);
    }
}
