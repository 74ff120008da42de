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

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::{check_node, Frontier, Key, KeyRule, Node, PushError, Pushed, Spec, Strategy};

/// An entry ordered by key alone, reversed so that std's max-heap pops the smallest key.
#[derive(Clone, Copy, Debug)]
struct MinEntry {
    key: Key,
    node: Node,
}

impl PartialEq for MinEntry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for MinEntry {}

impl PartialOrd for MinEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for MinEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

/// `std::collections::BinaryHeap` holding `(key, node)` entries, duplicates allowed.
#[derive(Debug)]
pub struct StdBinaryHeap {
    heap: BinaryHeap<MinEntry>,
    capacity: usize,
}

impl Frontier for StdBinaryHeap {
    const FAMILY: &'static str = "binary heap (std)";
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Any;

    fn new(spec: Spec) -> Self {
        StdBinaryHeap { heap: BinaryHeap::new(), capacity: spec.capacity }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        self.heap.push(MinEntry { key, node });
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        self.heap.pop().map(|entry| (entry.node, entry.key))
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn clear(&mut self) {
        self.heap.clear();
    }
}
