//! The `orx-priority-queue` crate (1.x): `DaryHeapOfIndices<node, key, 4>`, a d-ary
//! min-heap of `(node, key)` with a position array over node ids (`with_index_bound`),
//! used with decrease-key through `try_decrease_key_or_push`. d = 4 because the crate's
//! benchmarks find it faster than d = 2 and no slower than d = 8, and its docs offer it as
//! the `QuaternaryHeapOfIndices` alias.
//!
//! | operation | cost |
//! |---|---|
//! | push (new node) | O(log_4 n) |
//! | push (held node, smaller key) | O(log_4 n), sifts up in place |
//! | push (held node, equal or larger key) | O(1), nothing changes |
//! | pop | O(4 log_4 n) |
//! | clear | O(capacity): the crate refills its whole position array (skipped when empty) |
//!
//! Keys: any. Ties: unspecified heap order (entries compare by key alone).
//! Should win: it is the same design as our `dary4-dk` (heap array plus node-indexed
//! positions), so the two should run close; the pair measures implementation detail (the
//! crate pads its array with d - 1 unused slots so that parent and child indices are
//! shifts, and keeps positions as `usize`, twice our table's width).

use orx_priority_queue::{
    PriorityQueue, PriorityQueueDecKey, QuaternaryHeapOfIndices, ResTryDecreaseKeyOrPush,
};

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PushError, Pushed, Spec, Strategy,
    Ties,
};

/// `orx_priority_queue::QuaternaryHeapOfIndices<Node, Key>` sized to the capacity.
///
/// Invariant: the crate's index bound is the capacity, and `push` checks nodes against it
/// before the crate sees them (the crate panics on an index beyond its bound).
#[derive(Debug)]
pub struct OrxDaryHeap {
    heap: QuaternaryHeapOfIndices<Node, Key>,
}

impl Frontier for OrxDaryHeap {
    const FAMILY: Family = Family::DaryHeap;
    const ORIGIN: Origin = Origin::Crate {
        name: "orx-priority-queue",
        version: "1.7",
        feature: "orx-dary-heap",
        usage: "`orx_priority_queue::QuaternaryHeapOfIndices::with_index_bound(nodes)` for the heap, nodes numbered below `nodes`; `open.try_decrease_key_or_push(&node, f)` lowers a held node's key in place, so no stale pops",
    };
    const STRATEGY: Strategy = Strategy::DecreaseKey;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        OrxDaryHeap { heap: QuaternaryHeapOfIndices::with_index_bound(spec.capacity) }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.heap.index_bound())?;
        Ok(match self.heap.try_decrease_key_or_push(&node, key) {
            ResTryDecreaseKeyOrPush::Pushed => Pushed::Added,
            ResTryDecreaseKeyOrPush::Decreased => Pushed::Decreased,
            ResTryDecreaseKeyOrPush::Unchanged => Pushed::Kept,
        })
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        self.heap.pop()
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn clear(&mut self) {
        // An empty heap has every position cleared already: each pop removes its node.
        if !self.heap.is_empty() {
            self.heap.clear();
        }
    }
}
