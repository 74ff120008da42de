//! The `priority-queue` crate (2.x): `PriorityQueue`, a binary max-heap of indices into an
//! `IndexMap` from item to priority, so an item's priority can be changed in place; used
//! with decrease-key through `push_increase` on `Reverse` keys.
//!
//! | operation | cost (the crate's docs; lookups counted in its source) |
//! |---|---|
//! | push (new node) | O(log n), plus two hash lookups |
//! | push (held node, smaller key) | O(log n), plus two hash lookups |
//! | push (held node, equal or larger key) | one hash lookup, nothing changes |
//! | pop | O(log n), plus a hash-map swap-remove |
//! | clear | O(largest n so far): resets the hash table's control bytes; buffers are kept |
//!
//! Keys: any. Ties: unspecified heap order.
//! Configuration: the map hashes node ids with `rustc_hash::FxBuildHasher` instead of the
//! default SipHash, as a careful user with integer items would: SipHash's resistance to
//! hash flooding buys nothing for node ids and costs time on every lookup.
//! Should win: never against an indexed heap when nodes are dense ids (a hash map does
//! what a position array does, slower); it is here as what a Rust user reaches for when
//! a search needs decrease-key, and to price that choice.

use std::cmp::Reverse;

use priority_queue::PriorityQueue;
use rustc_hash::FxBuildHasher;

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PushError, Pushed, Spec, Strategy,
    Ties,
};

/// `priority_queue::PriorityQueue<node, Reverse<key>>` with an Fx hasher.
///
/// Invariant: every node held is below `capacity`, at most once (the map's keys).
/// (No `Debug`: `FxBuildHasher` does not implement it.)
pub struct PriorityQueueCrate {
    queue: PriorityQueue<Node, Reverse<Key>, FxBuildHasher>,
    capacity: usize,
}

impl Frontier for PriorityQueueCrate {
    const FAMILY: Family = Family::BinaryHeap;
    const ORIGIN: Origin = Origin::Crate {
        name: "priority-queue",
        version: "2",
        feature: "priority-queue-crate",
        usage: "`priority_queue::PriorityQueue::<_, Reverse<_>, rustc_hash::FxBuildHasher>::with_default_hasher()` for the heap; `open.push_increase(node, Reverse(f))` lowers a held node's key in place, so no stale pops",
    };
    const STRATEGY: Strategy = Strategy::DecreaseKey;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        PriorityQueueCrate { queue: PriorityQueue::with_default_hasher(), capacity: spec.capacity }
    }

    /// `push_increase` inserts an absent node, raises a held node's priority (lowers its
    /// key) and returns the old one, or returns the priority given when it changes nothing.
    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        Ok(match self.queue.push_increase(node, Reverse(key)) {
            None => Pushed::Added,
            // A held key equal to `key` also lands here: nothing changed either way.
            Some(Reverse(held)) if held == key => Pushed::Kept,
            Some(_) => Pushed::Decreased,
        })
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        self.queue.pop().map(|(node, Reverse(key))| (node, key))
    }

    fn len(&self) -> usize {
        self.queue.len()
    }

    fn clear(&mut self) {
        self.queue.clear();
    }
}
