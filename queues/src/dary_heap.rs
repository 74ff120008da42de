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
//!
//! ```
//! use pqlab_queues::{dary_heap::DaryHeap, Dk, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = DaryHeap::<4, Dk>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use crate::heap_core::HeapCore;
use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PositionTable, PushError, Pushed,
    Spec, Strategy, StrategyKind, Ties,
};

/// A min-first d-ary heap of `(key, node)` (the sifting lives in `heap_core::HeapCore`); with
/// `S = Dk`, a position table finds a node's entry for decrease-key.
///
/// Invariant: with `Dk`, `positions` maps each held node to its index in the heap.
#[derive(Debug)]
pub struct DaryHeap<const D: usize, S> {
    heap: HeapCore<D, S>,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
}

impl<const D: usize, S: StrategyKind> Frontier for DaryHeap<D, S> {
    const FAMILY: Family = if D == 2 { Family::BinaryHeap } else { Family::DaryHeap };
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        DaryHeap {
            heap: HeapCore::new(),
            positions: PositionTable::for_strategy::<S>(spec.capacity),
            capacity: spec.capacity,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            if let Some(index) = self.positions.get(node) {
                let index = index as usize;
                if key >= self.heap.key(index) {
                    return Ok(Pushed::Kept);
                }
                self.heap.decrease(index, key, &mut self.positions);
                return Ok(Pushed::Decreased);
            }
        }
        self.heap.push((key, node), &mut self.positions);
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let (key, node) = self.heap.pop_to_leaf(&mut self.positions)?;
        if S::DECREASE_KEY {
            self.positions.remove(node);
        }
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            for &(_, node) in self.heap.entries() {
                self.positions.remove(node);
            }
        }
        self.heap.clear();
    }
}
