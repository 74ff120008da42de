//! Our d-ary heap, the arity a const generic, in both strategies. `DaryHeap<2, Dk>` is the
//! classic indexed binary heap: decrease-key through a position table.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(log_d n) | O(log_d n) |
//! | push (held node, smaller key) | O(log_d n), adds an entry | O(log_d n), sifts up in place |
//! | pop | O(d log_d n) | O(d log_d n) |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! Keys: any. Ties: unspecified heap order (entries compare by key alone).
//! Should win: larger arities make the heap shallower, so pushes (the most frequent A*
//! operation) get cheaper and the children scanned by a pop share cache lines; 4 is the
//! usual sweet spot for 16-byte entries (four children fill one 64-byte line).

use std::marker::PhantomData;

use crate::{
    check_node, Frontier, Key, KeyRule, Node, PositionTable, PushError, Pushed, Spec, Strategy,
    StrategyKind,
};

/// A min-first d-ary heap of `(key, node)`; with `S = Dk`, a position table finds a node's
/// entry for decrease-key.
///
/// Invariant: every entry's key is at least its parent's (`heap[(i - 1) / D]`), and with
/// `Dk`, `positions` maps each held node to its index in `heap`.
#[derive(Debug)]
pub struct DaryHeap<const D: usize, S> {
    heap: Vec<(Key, Node)>,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<const D: usize, S: StrategyKind> DaryHeap<D, S> {
    /// Moves `entry` up from the hole at `index` until its parent's key is not larger.
    #[inline]
    fn sift_up(&mut self, mut index: usize, entry: (Key, Node)) {
        while index > 0 {
            let parent = (index - 1) / D;
            let above = self.heap[parent];
            if above.0 <= entry.0 {
                break;
            }
            self.place(index, above);
            index = parent;
        }
        self.place(index, entry);
    }

    /// Moves `entry` down from the hole at `index` until no child has a smaller key.
    #[inline]
    fn sift_down(&mut self, mut index: usize, entry: (Key, Node)) {
        let len = self.heap.len();
        loop {
            let first = index * D + 1;
            if first >= len {
                break;
            }
            let last = (first + D).min(len);
            let mut best = first;
            for child in first + 1..last {
                if self.heap[child].0 < self.heap[best].0 {
                    best = child;
                }
            }
            let below = self.heap[best];
            if below.0 >= entry.0 {
                break;
            }
            self.place(index, below);
            index = best;
        }
        self.place(index, entry);
    }

    #[inline]
    fn place(&mut self, index: usize, entry: (Key, Node)) {
        self.heap[index] = entry;
        if S::DECREASE_KEY {
            self.positions.set(entry.1, index as u32);
        }
    }
}

impl<const D: usize, S: StrategyKind> Frontier for DaryHeap<D, S> {
    const FAMILY: &'static str = "d-ary heap";
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;

    fn new(spec: Spec) -> Self {
        const { assert!(D >= 2, "a d-ary heap needs at least two children per node") };
        let positions = if S::DECREASE_KEY {
            PositionTable::new(spec.capacity)
        } else {
            PositionTable::default()
        };
        DaryHeap { heap: Vec::new(), positions, capacity: spec.capacity, strategy: PhantomData }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            if let Some(index) = self.positions.get(node) {
                let index = index as usize;
                if key >= self.heap[index].0 {
                    return Ok(Pushed::Kept);
                }
                self.sift_up(index, (key, node));
                return Ok(Pushed::Decreased);
            }
        }
        self.heap.push((key, node));
        self.sift_up(self.heap.len() - 1, (key, node));
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let last = self.heap.pop()?;
        let top = if self.heap.is_empty() {
            last
        } else {
            let top = self.heap[0];
            self.sift_down(0, last);
            top
        };
        if S::DECREASE_KEY {
            self.positions.remove(top.1);
        }
        Some((top.1, top.0))
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            for &(_, node) in &self.heap {
                self.positions.remove(node);
            }
        }
        self.heap.clear();
    }
}
