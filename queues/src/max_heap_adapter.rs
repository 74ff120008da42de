//! The shared shell of the duplicate-insertion adapters over library max-heaps with a
//! std-like `push`/`pop` API (std's `BinaryHeap` and crates'): the entry type that turns a
//! max-heap into a min-first queue, and one [`Frontier`] implementation for all of them, so
//! an adapter file only says how its heap pushes, pops, counts and clears.

use std::cmp::Ordering;

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PushError, Pushed, Spec, Strategy,
    Ties,
};

/// A `(key, node)` entry ordered by key alone and reversed, so that a max-heap pops the
/// smallest key first. Equal keys compare equal: ties are left to the heap.
#[derive(Clone, Copy, Debug)]
pub struct MinEntry {
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

/// A max-heap of [`MinEntry`] from some crate, as its adapter uses it.
// `Frontier::is_empty` is derived from `len`; the heaps need no `is_empty` of their own.
#[allow(clippy::len_without_is_empty)]
pub trait MaxHeap: Default {
    /// The family reported by the [`Frontier`] built on it.
    const FAMILY: Family;
    /// Where the heap comes from.
    const ORIGIN: Origin;
    /// Adds an entry.
    fn push(&mut self, entry: MinEntry);
    /// Removes a greatest entry (the smallest key).
    fn pop(&mut self) -> Option<MinEntry>;
    /// The number of entries held.
    fn len(&self) -> usize;
    /// Removes every entry, keeping allocations where the crate allows.
    fn clear(&mut self);
}

/// A duplicates frontier over the max-heap `H`: checks the node, then delegates.
#[derive(Debug)]
pub struct MaxHeapFrontier<H> {
    heap: H,
    capacity: usize,
}

impl<H: MaxHeap> Frontier for MaxHeapFrontier<H> {
    const FAMILY: Family = H::FAMILY;
    const ORIGIN: Origin = H::ORIGIN;
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        MaxHeapFrontier { heap: H::default(), capacity: spec.capacity }
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
