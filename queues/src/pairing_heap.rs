//! Our pairing heap (Fredman, Sedgewick, Sleator, Tarjan, "The pairing heap: a new form of
//! self-adjusting heap", Algorithmica 1986), in both strategies: heap-ordered multiway
//! trees in a flat arena of slots linked by `u32` indices, two-pass pairing on pop, and
//! decrease-key by cutting the node's subtree and linking it with the root.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(1) | O(1) |
//! | push (held node, smaller key) | O(1), adds an entry | O(1) work, amortized o(log n) ¹ |
//! | pop | O(log n) amortized | O(log n) amortized |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! ¹ Amortized O(4^√(log log n)) with pop O(log n) (Pettie, FOCS 2005), and no better than
//! Ω(log log n) (Fredman, JACM 1999).
//!
//! Slots (`arena.rs`): with `Dk` the arena is indexed by node id (one slot per node,
//! sized to the capacity once); with `Dup` it holds entries, grows as needed and reuses
//! popped slots through a free list, so neither strategy allocates per entry after
//! warm-up. Every traversal (pairing, clear) is a loop: degenerate trees (a root with n
//! children, or a chain n deep) cost no stack.
//!
//! Keys: any. Ties: unspecified but deterministic, shape-dependent (a link between equal
//! keys keeps its first tree's root on top).
//! Should win: pushes and decrease-keys are one comparison and a few link writes, so
//! searches that push much more than they pop, or lower keys often (dense graphs with
//! inconsistent heuristics), favour it; pops chase links across the arena, so it loses to
//! implicit heaps when the frontier outgrows the cache (Larkin, Sen, Tarjan, "A
//! back-to-basics empirical study of priority queues", ALENEX 2014).
//!
//! ```
//! use pqlab_queues::{pairing_heap::PairingHeap, Dk, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = PairingHeap::<Dk>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use std::marker::PhantomData;

use crate::arena::{self, Arena};
use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PushError, Pushed, Spec, Strategy,
    StrategyKind, Ties,
};

/// No link: the end of a sibling list, no child, or a root's `prev`.
const NIL: u32 = u32::MAX;
/// The `prev` of a slot that holds no entry (with `Dk`: a node that is not held).
const FREE: u32 = u32::MAX - 1;

/// One tree node: an entry, its leftmost child and its siblings (24 bytes).
#[derive(Clone, Copy, Debug)]
struct PairingSlot {
    key: Key,
    /// The node this entry stands for (with `Dk`, the slot's own index).
    node: Node,
    /// The leftmost child, or `NIL`.
    child: u32,
    /// The next sibling to the right, or `NIL`; in a free `Dup` slot, the next free slot.
    next: u32,
    /// The left sibling, or the parent of a leftmost child; `NIL` for the root; `FREE` when
    /// the slot holds no entry.
    prev: u32,
}

impl arena::ArenaSlot for PairingSlot {
    // Node ids and slot indices stay clear of the two sentinels.
    const LIMIT: u32 = FREE;
    const VACANT: PairingSlot = PairingSlot { key: 0, node: 0, child: NIL, next: NIL, prev: FREE };

    #[inline]
    fn vacate(&mut self) {
        self.prev = FREE;
    }

    #[inline]
    fn free_link(&mut self) -> &mut u32 {
        &mut self.next
    }
}

/// A min-first pairing heap; with `S = Dk` a node is its own slot, which gives O(1)
/// membership and decrease-key without a position table.
///
/// Invariants: the slots reachable from `root` through `child` and `next` are exactly the
/// `len` entries held, each key at least its parent's; `prev` mirrors those links; the
/// root's `next` and `prev` are `NIL`; every other slot's `prev` is `FREE` and, with
/// `Dup`, is on the arena's free list.
#[derive(Debug)]
pub struct PairingHeap<S> {
    slots: Arena<PairingSlot, S>,
    root: u32,
    len: usize,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> PairingHeap<S> {
    /// Makes the root with the larger key the leftmost child of the other (ties: `a` stays
    /// on top); returns the new root, whose own `next` and `prev` are left as they were.
    #[inline]
    fn link(&mut self, a: u32, b: u32) -> u32 {
        let (winner, loser) =
            if self.slots[b as usize].key < self.slots[a as usize].key { (b, a) } else { (a, b) };
        let first = self.slots[winner as usize].child;
        if first != NIL {
            self.slots[first as usize].prev = loser;
        }
        let slot = &mut self.slots[loser as usize];
        slot.next = first;
        slot.prev = winner;
        self.slots[winner as usize].child = loser;
        winner
    }

    /// Melds the sibling list starting at `first` into one tree, two-pass: link pairs left
    /// to right, then link the winners right to left into one root. Both passes thread
    /// their lists through `next`, so this needs no stack and no scratch buffer.
    fn pair_siblings(&mut self, first: u32) -> u32 {
        // Pass 1: pair winners, prepended to `pairs`, which ends up rightmost first.
        let mut pairs = NIL;
        let mut a = first;
        while a != NIL {
            let b = self.slots[a as usize].next;
            if b == NIL {
                self.slots[a as usize].next = pairs;
                pairs = a;
                break;
            }
            let rest = self.slots[b as usize].next;
            let winner = self.link(a, b);
            self.slots[winner as usize].next = pairs;
            pairs = winner;
            a = rest;
        }
        // Pass 2: accumulate from the rightmost pair leftwards.
        let mut root = pairs;
        let mut next = self.slots[root as usize].next;
        while next != NIL {
            let after = self.slots[next as usize].next;
            root = self.link(root, next);
            next = after;
        }
        let slot = &mut self.slots[root as usize];
        slot.next = NIL;
        slot.prev = NIL;
        root
    }

    /// Lowers the key of the held, non-root `slot`, or of the root, to `key`: cuts its
    /// subtree out of its sibling list and links it with the root.
    #[inline]
    fn decrease(&mut self, slot: u32, key: Key) {
        self.slots[slot as usize].key = key;
        if slot == self.root {
            return;
        }
        let PairingSlot { prev, next, .. } = self.slots[slot as usize];
        if self.slots[prev as usize].child == slot {
            self.slots[prev as usize].child = next;
        } else {
            self.slots[prev as usize].next = next;
        }
        if next != NIL {
            self.slots[next as usize].prev = prev;
        }
        let cut = &mut self.slots[slot as usize];
        cut.next = NIL;
        cut.prev = NIL;
        self.root = self.link(self.root, slot);
    }
}

impl<S: StrategyKind> Frontier for PairingHeap<S> {
    const FAMILY: Family = Family::PairingHeap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        PairingHeap {
            slots: Arena::new(spec.capacity),
            root: NIL,
            len: 0,
            capacity: spec.capacity,
            strategy: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            let held = self.slots[node as usize];
            if held.prev != FREE {
                if key >= held.key {
                    return Ok(Pushed::Kept);
                }
                self.decrease(node, key);
                return Ok(Pushed::Decreased);
            }
        }
        let slot =
            self.slots.take(node, PairingSlot { key, node, child: NIL, next: NIL, prev: NIL });
        self.root = if self.root == NIL { slot } else { self.link(self.root, slot) };
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let top = self.root;
        if top == NIL {
            return None;
        }
        let PairingSlot { key, node, child, .. } = self.slots[top as usize];
        self.root = if child == NIL { NIL } else { self.pair_siblings(child) };
        self.slots.release(top);
        self.len -= 1;
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            // Visit every held slot once: a work list threaded through `next` (each slot's
            // own `next` has been read before it is overwritten).
            let mut todo = self.root;
            while todo != NIL {
                let slot = todo;
                todo = self.slots[slot as usize].next;
                let mut child = self.slots[slot as usize].child;
                while child != NIL {
                    let sibling = self.slots[child as usize].next;
                    self.slots[child as usize].next = todo;
                    todo = child;
                    child = sibling;
                }
                self.slots.release(slot);
            }
        }
        self.slots.clear();
        self.root = NIL;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    const N: u32 = 100_000;

    /// The two degenerate shapes, built, decreased, popped and cleared on a 64 KiB stack:
    /// keys pushed in increasing order hang off the root as one sibling list of n - 1;
    /// keys pushed in decreasing order make a chain n deep.
    fn degenerate_shapes<S: StrategyKind>() {
        let mut heap = PairingHeap::<S>::new(Spec { capacity: N as usize, span: 0 });
        for node in 0..N {
            heap.push(node, Key::from(node) + 10).unwrap();
        }
        for node in 0..N {
            assert_eq!(heap.pop(), Some((node, Key::from(node) + 10)));
        }
        assert_eq!(heap.pop(), None);
        for node in 0..N {
            heap.push(node, Key::from(N - node) + 10).unwrap();
        }
        // With Dk this cuts the chain's bottom entry; with Dup it adds one above the root.
        heap.push(0, 0).unwrap();
        assert_eq!(heap.pop(), Some((0, 0)));
        assert_eq!(heap.pop(), Some((N - 1, 11)));
        heap.clear();
        assert_eq!(heap.len(), 0);
        for node in 0..N {
            heap.push(node, Key::from(N - node)).unwrap();
        }
        // Dropped as a chain: the arena is a flat vector.
    }

    fn on_a_small_stack(f: fn()) {
        std::thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(f)
            .expect("spawn a test thread")
            .join()
            .expect("the test thread panicked");
    }

    #[test]
    fn degenerate_shapes_need_no_stack() {
        on_a_small_stack(degenerate_shapes::<Dup>);
        on_a_small_stack(degenerate_shapes::<Dk>);
    }
}
