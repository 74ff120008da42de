//! Our Fibonacci heap (Fredman and Tarjan, "Fibonacci heaps and their uses in improved
//! network optimization algorithms", JACM 34(3), 1987), in both strategies: heap-ordered
//! trees in a flat arena of slots linked by `u32` indices, lazy insertion into the root
//! list, pop by linking roots of equal degree through a degree table, and decrease-key by
//! cutting the node and cascading cuts up its marked ancestors.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(1) | O(1) |
//! | push (held node, smaller key) | O(1), adds an entry | O(1) amortized (cut, cascading cuts) |
//! | pop | O(log n) amortized | O(log n) amortized |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! Slots (32 bytes, aligned to 32 so none straddles a cache line; a large `Vec` starts
//! 16 bytes into a line, which would split every other one): key (8), node, `meta`
//! (degree and mark share one word: `degree << 1 | mark`, or `FREE`), parent, first
//! child, left and right sibling (4 each). With `Dk` the arena (`arena.rs`) is indexed by
//! node id (one slot per node, sized to the capacity once); with `Dup` it holds entries,
//! grows as needed and reuses popped slots through a free list, so neither strategy
//! allocates per entry after warm-up. Every traversal (consolidation, clear) is a loop
//! over lists or the degree table: a root list of 10^5 or a tree of 10^5 costs no stack.
//!
//! Where this follows the paper and where it deviates (same trees, same bounds):
//! * The paper keeps all roots in one circular list and a pop links the whole list by
//!   rank. Here the roots the last pop consolidated stay filed in the degree table (one
//!   per degree, their keys cached beside them), and only the roots added since (pushes,
//!   cuts) wait in a `pending` vector; a pop files those and the popped root's children.
//!   Re-walking the filed roots, as the paper does, would link none of them with each
//!   other (their degrees are distinct), so only the walk is saved; a filed root that loses a child
//!   changes degree and goes back to pending. The new minimum is read from the table's
//!   cached keys, not from the slots.
//! * Child lists are doubly linked but not circular (a first child's `left` is `NIL`):
//!   a link writes the old first child only, a cut unlinks in O(1) as in the paper.
//! * Marks are cleared when a node becomes a root (a cut, or its parent popped), so
//!   every root and every newly linked child is unmarked, as the paper requires.
//! * With `Dup` nothing is ever cut, so `parent`, `left` and the mark are never written
//!   or read: without decrease-key a Fibonacci heap is a lazy binomial queue.
//!
//! Keys: any. Ties: unspecified but deterministic and shape-dependent: a link between
//! equal keys keeps the root filed first on top; after a pop the minimum is the root of
//! lowest degree among equal keys; a push or decrease-key takes the minimum's place only
//! with a strictly smaller key.
//!
//! Should win (a hypothesis the lab measures, against the survey's "good in theory, not
//! used in practice"): searches that lower keys much more often than they pop (dense
//! graphs, inconsistent heuristics), where its O(1) decrease-key beats the O(log n) sift
//! of an indexed heap. On grids it should lose: each pop chases the popped root's
//! children through the arena and files them one by one, and whether a degree is taken
//! or which root wins is a coin toss for the branch predictor.
//!
//! Measured (the `measure` module below; callgrind, `PQLAB_SIDE=512`: 4 A* and 4
//! Dijkstra searches on a random 8-connected grid, search loop included; counts in
//! millions, dup / dk):
//!
//! | queue | instructions | mispredicted branches | L1 data misses (48 KiB) |
//! |---|---|---|---|
//! | this heap | 894 / 956 | 14.4 / 15.1 | 5.45 / 7.05 |
//! | this heap, re-filing every root each pop (the paper's walk) | 1005 / 1059 | 14.6 / 15.0 | 5.44 / 7.05 |
//! | this heap, slots not aligned | 916 / 934 | 13.1 / 15.7 | 5.36 / 7.34 |
//! | `pairing-heap` | 919 / 879 | 12.3 / 10.3 | 5.10 / 7.10 |
//! | `dary4-dk`, `std-binary-heap-dup` | 657 (std) / 794 | 7.9 / 8.3 | 4.48 / 6.31 |
//!
//! Choosing the winner of a link and the new minimum by selects rather than branches took
//! the mispredictions from 19.9 / 19.4 to 14.4 / 14.2 million (`--branch-sim=yes`
//! alone) and the median A* time on a 1024 × 1024 grid from 761 to 639 ms (dup) and
//! 1078 to 894 ms (dk). Reading the popped root's children into a buffer before filing
//! them (to overlap their loads) cost 12% more instructions and was no faster. On that
//! grid (medians of 7 interleaved runs on a busy 2-core machine, search included) this
//! heap took 1.5 to 1.6 times the time of `std-binary-heap-dup` with duplicates, 2.0
//! times `dary4-dk`'s with decrease-key, and 1.05 to 1.23 times the pairing heap's.
//!
//! ```
//! use pqlab_queues::{fibonacci_heap::FibonacciHeap, Dk, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = FibonacciHeap::<Dk>::new(Spec { capacity: 10, span: 16 });
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

/// No link: no parent (a root), no child, the end of a child list.
const NIL: u32 = u32::MAX;
/// `meta` of a slot that holds no entry (with `Dk`: a node that is not held). A held
/// slot's `meta` is below `2 * DEGREES`.
const FREE: u32 = u32::MAX;
/// The mark bit of `meta`: the node lost a child since it last became a child.
const MARK: u32 = 1;
/// One degree in `meta` (the degree sits above the mark bit).
const DEGREE_ONE: u32 = 2;
/// Degrees the consolidation table covers: one bit each in a `u64`. A node of degree `k`
/// roots at least `F(k + 2) ≥ φ^k` entries (the bound that names the heap), and fewer
/// than 2^32 entries are held, so degrees stay below `log_φ 2^32 < 47`. Indices into the
/// table are taken modulo `DEGREES`, a no-op that spares the bounds checks (0.3 to 0.8%
/// fewer instructions on the grid searches below).
const DEGREES: usize = 64;

/// One tree node: an entry, its links, and its degree and mark (32 bytes).
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct FibSlot {
    key: Key,
    /// The node this entry stands for (with `Dk`, the slot's own index).
    node: Node,
    /// `degree << 1 | mark` for a held slot; `FREE` otherwise.
    meta: u32,
    /// The parent, or `NIL` for a root (`Dk` only: always `NIL` with `Dup`).
    parent: u32,
    /// The first child, or `NIL`.
    child: u32,
    /// The previous sibling, or `NIL` for a first child; unused for a root and with `Dup`.
    left: u32,
    /// The next sibling, or `NIL` for a last child; unused for a root; in a free `Dup`
    /// slot, the next free slot.
    right: u32,
}

impl arena::ArenaSlot for FibSlot {
    // Node ids and slot indices stay clear of the link sentinel.
    const LIMIT: u32 = NIL;
    const VACANT: FibSlot =
        FibSlot { key: 0, node: 0, meta: FREE, parent: NIL, child: NIL, left: NIL, right: NIL };

    #[inline]
    fn vacate(&mut self) {
        self.meta = FREE;
    }

    #[inline]
    fn free_link(&mut self) -> &mut u32 {
        &mut self.right
    }
}

/// A min-first Fibonacci heap; with `S = Dk` a node is its own slot, which gives O(1)
/// membership and decrease-key without a position table.
///
/// Invariants: the roots of the heap-ordered trees, whose slots are exactly the `len`
/// entries held, are the roots filed in `table` and those listed in `pending` (each once);
/// each child list runs through `right` from its parent's `child`, and each node's degree
/// is its number of children; with `Dk` the lists are also linked back through `left`,
/// each child's `parent` names that parent, and only non-roots are marked (with `Dup`
/// `parent`, `left` and the marks are never written); where bit `d` of `filed` is set,
/// `table[d]` is a root of degree `d` whose key is `table_key[d]` (other entries are
/// stale); `min` is a root of the smallest key and `min_key` its key, or `min` is `NIL`
/// when empty; every slot that holds no entry has `meta == FREE` and, with `Dup`, is on
/// the arena's free list.
#[derive(Debug)]
pub struct FibonacciHeap<S> {
    slots: Arena<FibSlot, S>,
    /// The roots not filed in `table`: pushed or cut since the last pop.
    pending: Vec<u32>,
    /// The filed roots, one per degree: what the last pop's consolidation left, minus the
    /// roots popped or since cut from (their degree changed: they are pending).
    table: [u32; DEGREES],
    /// `table_key[d]` is the key of `table[d]`, so finding the minimum reads no slot.
    table_key: [Key; DEGREES],
    /// Bit `d` set when `table[d]` holds a root.
    filed: u64,
    min: u32,
    min_key: Key,
    len: usize,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> FibonacciHeap<S> {
    /// Makes root `child` (whose key is at least `parent`'s) the first child of root
    /// `parent`.
    #[inline]
    fn link(&mut self, parent: u32, child: u32) {
        let first = self.slots[parent as usize].child;
        if S::DECREASE_KEY && first != NIL {
            self.slots[first as usize].left = child;
        }
        let slot = &mut self.slots[child as usize];
        if S::DECREASE_KEY {
            slot.parent = parent;
            slot.left = NIL;
        }
        slot.right = first;
        let slot = &mut self.slots[parent as usize];
        slot.child = child;
        slot.meta += DEGREE_ONE;
    }

    /// Files root `x`, of key `key` and degree `degree`, in the degree table, linking it
    /// with the root of equal degree filed before (that one stays on top on equal keys)
    /// until its degree's entry is free.
    #[inline(always)]
    fn file(&mut self, mut x: u32, mut key: Key, mut degree: usize) {
        let mut filed = self.filed;
        while filed >> degree & 1 != 0 {
            let y = self.table[degree % DEGREES];
            let y_key = self.table_key[degree % DEGREES];
            filed ^= 1 << degree;
            // Which one stays on top is a coin toss for the branch predictor: select it.
            let y_wins = y_key <= key;
            let (winner, loser) = if y_wins { (y, x) } else { (x, y) };
            self.link(winner, loser);
            x = winner;
            key = key.min(y_key);
            degree += 1;
        }
        self.table[degree % DEGREES] = x;
        self.table_key[degree % DEGREES] = key;
        self.filed = filed | 1 << degree;
    }

    /// Takes root `x` out of the degree table if it is filed there under `degree`; says
    /// whether it was.
    #[inline]
    fn unfile(&mut self, x: u32, degree: usize) -> bool {
        let filed = self.filed >> degree & 1 != 0 && self.table[degree % DEGREES] == x;
        if filed {
            self.filed ^= 1 << degree;
        }
        filed
    }

    /// Cuts `x` from its parent `parent` and makes it an unmarked pending root; a filed
    /// root `parent` changes degree, so it becomes pending too.
    #[inline]
    fn cut(&mut self, x: u32, parent: u32) {
        let FibSlot { left, right, .. } = self.slots[x as usize];
        if left == NIL {
            self.slots[parent as usize].child = right;
        } else {
            self.slots[left as usize].right = right;
        }
        if right != NIL {
            self.slots[right as usize].left = left;
        }
        let FibSlot { meta, parent: grandparent, .. } = self.slots[parent as usize];
        self.slots[parent as usize].meta = meta - DEGREE_ONE;
        if grandparent == NIL && self.unfile(parent, (meta >> 1) as usize) {
            self.pending.push(parent);
        }
        let slot = &mut self.slots[x as usize];
        slot.parent = NIL;
        slot.meta &= !MARK;
        self.pending.push(x);
    }

    /// The cascading cut from `x`, which just lost a child: marks it if it is an unmarked
    /// non-root, else cuts it and goes on with its parent.
    #[inline]
    fn cascade(&mut self, mut x: u32) {
        loop {
            let FibSlot { parent, meta, .. } = self.slots[x as usize];
            if parent == NIL {
                return;
            }
            if meta & MARK == 0 {
                self.slots[x as usize].meta = meta | MARK;
                return;
            }
            self.cut(x, parent);
            x = parent;
        }
    }

    /// Lowers the key of the held `x` to `key`.
    #[inline]
    fn decrease(&mut self, x: u32, key: Key) {
        let slot = &mut self.slots[x as usize];
        slot.key = key;
        let FibSlot { parent, meta, .. } = *slot;
        if parent == NIL {
            let degree = (meta >> 1) as usize;
            if self.filed >> degree & 1 != 0 && self.table[degree % DEGREES] == x {
                self.table_key[degree % DEGREES] = key;
            }
        } else if key < self.slots[parent as usize].key {
            self.cut(x, parent);
            self.cascade(parent);
        }
        if key < self.min_key {
            self.min = x;
            self.min_key = key;
        }
    }
}

impl<S: StrategyKind> Frontier for FibonacciHeap<S> {
    const FAMILY: Family = Family::FibonacciHeap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        FibonacciHeap {
            slots: Arena::new(spec.capacity),
            pending: Vec::new(),
            table: [NIL; DEGREES],
            table_key: [0; DEGREES],
            filed: 0,
            min: NIL,
            min_key: 0,
            len: 0,
            capacity: spec.capacity,
            strategy: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            let held = &self.slots[node as usize];
            if held.meta != FREE {
                if key >= held.key {
                    return Ok(Pushed::Kept);
                }
                self.decrease(node, key);
                return Ok(Pushed::Decreased);
            }
        }
        let fresh = FibSlot { key, node, meta: 0, parent: NIL, child: NIL, left: NIL, right: NIL };
        let slot = self.slots.take(node, fresh);
        self.pending.push(slot);
        if self.min == NIL || key < self.min_key {
            self.min = slot;
            self.min_key = key;
        }
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let top = self.min;
        if top == NIL {
            return None;
        }
        let FibSlot { key, node, meta, child, .. } = self.slots[top as usize];
        self.unfile(top, (meta >> 1) as usize);
        // File the pending roots, then the popped root's children (now unmarked roots).
        for at in 0..self.pending.len() {
            let root = self.pending[at];
            if root != top {
                let FibSlot { key, meta, .. } = self.slots[root as usize];
                self.file(root, key, (meta >> 1) as usize);
            }
        }
        self.pending.clear();
        let mut child = child;
        while child != NIL {
            let slot = &mut self.slots[child as usize];
            let FibSlot { key, meta, right, .. } = *slot;
            if S::DECREASE_KEY {
                slot.parent = NIL;
                slot.meta = meta & !MARK;
            }
            self.file(child, key, (meta >> 1) as usize);
            child = right;
        }
        // The new minimum: the filed root of the smallest key (lowest degree among equals).
        let mut filed = self.filed;
        if filed == 0 {
            self.min = NIL;
        } else {
            let mut best = filed.trailing_zeros() as usize % DEGREES;
            let mut best_key = self.table_key[best];
            filed &= filed - 1;
            while filed != 0 {
                let degree = filed.trailing_zeros() as usize % DEGREES;
                filed &= filed - 1;
                let root_key = self.table_key[degree];
                // Selects, not branches: which root is smaller is unpredictable.
                let better = root_key < best_key;
                best = if better { degree } else { best };
                best_key = if better { root_key } else { best_key };
            }
            self.min = self.table[best];
            self.min_key = best_key;
        }
        self.slots.release(top);
        self.len -= 1;
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            // Visit every held slot once: a work list threaded through `right` (each
            // slot's own `right` has been read before it is overwritten).
            let mut todo = NIL;
            let mut filed = self.filed;
            while filed != 0 {
                let root = self.table[filed.trailing_zeros() as usize % DEGREES];
                filed &= filed - 1;
                self.slots[root as usize].right = todo;
                todo = root;
            }
            for &root in &self.pending {
                self.slots[root as usize].right = todo;
                todo = root;
            }
            while todo != NIL {
                let slot = todo;
                todo = self.slots[slot as usize].right;
                let mut child = self.slots[slot as usize].child;
                while child != NIL {
                    let sibling = self.slots[child as usize].right;
                    self.slots[child as usize].right = todo;
                    todo = child;
                    child = sibling;
                }
                self.slots.release(slot);
            }
        }
        self.slots.clear();
        self.pending.clear();
        self.filed = 0;
        self.min = NIL;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    const N: u32 = 100_000;

    impl<S: StrategyKind> FibonacciHeap<S> {
        /// Checks every invariant, and that a node of degree `k` roots at least `F(k + 2)`
        /// entries (what cascading cuts guarantee); panics on the first breach.
        fn check(&self) {
            let mut seen = vec![false; self.slots.len()];
            let mut size = vec![0usize; self.slots.len()];
            let mut fib = vec![1usize, 1];
            while fib.len() < DEGREES + 2 {
                fib.push(fib[fib.len() - 1].saturating_add(fib[fib.len() - 2]));
            }
            let roots = self.check_roots();
            let count: usize =
                roots.iter().map(|&root| self.check_tree(root, &mut seen, &mut size, &fib)).sum();
            assert_eq!(count, self.len, "the trees hold another count than len");
            if self.len > 0 {
                assert!(roots.contains(&self.min), "the minimum is not a root");
                assert_eq!(self.slots[self.min as usize].key, self.min_key);
            } else {
                assert_eq!(self.min, NIL);
            }
            self.check_free(&mut seen);
        }

        /// The roots, pending then filed, each filed one checked against its table entry.
        fn check_roots(&self) -> Vec<u32> {
            let mut roots = self.pending.clone();
            for degree in 0..DEGREES {
                if self.filed >> degree & 1 != 0 {
                    let root = self.table[degree % DEGREES];
                    assert_eq!(self.slots[root as usize].meta >> 1, degree as u32, "filed wrong");
                    assert_eq!(self.slots[root as usize].key, self.table_key[degree % DEGREES]);
                    assert!(!self.pending.contains(&root), "root {root} is filed and pending");
                    roots.push(root);
                }
            }
            roots
        }

        /// Checks the tree under `root`: an unmarked root, heap order, links and degrees,
        /// each slot reached once (marked in `seen`), and every subtree's size (kept in
        /// `size`) at least `fib[degree + 1]`. Returns its entries.
        fn check_tree(
            &self,
            root: u32,
            seen: &mut [bool],
            size: &mut [usize],
            fib: &[usize],
        ) -> usize {
            let slot = self.slots[root as usize];
            assert_eq!(slot.parent, NIL, "root {root} has a parent");
            assert_eq!(slot.meta & MARK, 0, "root {root} is marked");
            assert!(slot.key >= self.min_key, "root {root} is below the minimum");
            let mut order = Vec::new();
            let mut stack = vec![root];
            while let Some(x) = stack.pop() {
                assert!(!seen[x as usize], "slot {x} is reached twice");
                seen[x as usize] = true;
                order.push(x);
                let parent = self.slots[x as usize];
                assert_ne!(parent.meta, FREE, "slot {x} is held but free");
                let (mut child, mut left, mut degree) = (parent.child, NIL, 0);
                while child != NIL {
                    let slot = self.slots[child as usize];
                    if S::DECREASE_KEY {
                        assert_eq!(slot.parent, x, "child {child} names another parent");
                        assert_eq!(slot.left, left, "child {child}'s left link is wrong");
                    }
                    assert!(slot.key >= parent.key, "child {child} is above its parent");
                    stack.push(child);
                    degree += 1;
                    left = child;
                    child = slot.right;
                }
                assert_eq!(parent.meta >> 1, degree, "slot {x}'s degree is wrong");
            }
            // Subtree sizes, children before their parents (the reverse of the walk above).
            for &x in order.iter().rev() {
                let slot = self.slots[x as usize];
                size[x as usize] = 1;
                let mut child = slot.child;
                while child != NIL {
                    size[x as usize] += size[child as usize];
                    child = self.slots[child as usize].right;
                }
                let degree = (slot.meta >> 1) as usize;
                assert!(size[x as usize] >= fib[degree + 1], "slot {x}: too few for its degree");
            }
            order.len()
        }

        /// Every slot not in a tree (`seen` false) is free, and with `Dup` on the free list
        /// exactly once.
        fn check_free(&self, seen: &mut [bool]) {
            for free in self.slots.free_slots() {
                assert!(!seen[free as usize], "slot {free} is held and free");
                seen[free as usize] = true;
            }
            for (x, slot) in self.slots.iter().enumerate() {
                if !seen[x] {
                    assert_eq!(slot.meta, FREE, "slot {x} is neither held nor free");
                    assert!(S::DECREASE_KEY, "slot {x} is lost from the free list");
                }
            }
        }
    }

    /// A random mix of pushes, decrease-keys and pops, checked against a sorted model and
    /// the invariants after every operation.
    fn random_operations<S: StrategyKind>() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let capacity = 300;
        let mut heap = FibonacciHeap::<S>::new(Spec { capacity, span: 0 });
        let mut model: Vec<(Key, Node)> = Vec::new();
        for step in 0..20_000 {
            if next() % 3 != 0 {
                let node = (next() % capacity as u64) as Node;
                let key = next() % 1000;
                let pushed = heap.push(node, key).unwrap();
                if S::DECREASE_KEY {
                    if let Some(held) = model.iter_mut().find(|(_, n)| *n == node) {
                        assert_eq!(pushed == Pushed::Decreased, key < held.0);
                        held.0 = held.0.min(key);
                    } else {
                        model.push((key, node));
                    }
                } else {
                    model.push((key, node));
                }
            } else if let Some((node, key)) = heap.pop() {
                let at = model.iter().position(|&e| e == (key, node)).expect("popped a held entry");
                assert!(model.iter().all(|&(k, _)| k >= key), "popped above the minimum");
                model.swap_remove(at);
            } else {
                assert!(model.is_empty());
            }
            if step % 5000 == 4999 {
                heap.clear();
                model.clear();
            }
            heap.check();
        }
    }

    #[test]
    fn keeps_its_invariants() {
        random_operations::<Dup>();
        random_operations::<Dk>();
    }

    /// Degenerate shapes, built, decreased, popped and cleared on a 64 KiB stack: a root
    /// list of n, one tree of n (a binomial tree after one pop), and chains of cuts.
    fn degenerate_shapes<S: StrategyKind>() {
        let mut heap = FibonacciHeap::<S>::new(Spec { capacity: N as usize, span: 0 });
        for node in 0..N {
            heap.push(node, Key::from(N - node) + 10).unwrap();
        }
        assert_eq!(heap.pending.len(), N as usize);
        // The first pop consolidates 10^5 roots into binomial trees.
        assert_eq!(heap.pop(), Some((N - 1, 11)));
        assert!(heap.pending.is_empty() && heap.filed.count_ones() <= 17);
        if S::DECREASE_KEY {
            // Lower every leaf to the bottom, cutting and cascading all over the trees.
            for node in 0..N - 1 {
                assert_eq!(heap.push(node, Key::from(node) % 7).unwrap(), Pushed::Decreased);
            }
            heap.check();
        }
        for _ in 0..N / 2 {
            heap.pop().unwrap();
        }
        heap.check();
        heap.clear();
        assert_eq!(heap.len(), 0);
        assert_eq!(heap.pop(), None);
        for node in 0..N {
            heap.push(node, Key::from(node)).unwrap();
        }
        for node in 0..N {
            assert_eq!(heap.pop(), Some((node, Key::from(node))));
        }
        for node in 0..N {
            heap.push(node, Key::from(N - node)).unwrap();
        }
        heap.pop().unwrap();
        heap.clear();
        heap.check();
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

/// The workload behind the measurements in this file's header: grid searches shaped like
/// the lab's, run with any registered queue, so a change here can be compared with the
/// other heaps without building the harness.
#[cfg(test)]
mod measure {
    use std::time::Instant;

    use crate::registry::{self, Entry, Visitor};
    use crate::{Frontier, Key, Spec};

    /// The lab's fine costs (straight, diagonal): 195025 / 275807 ≈ √2.
    const STRAIGHT: u64 = 195_025;
    const DIAGONAL: u64 = 275_807;

    /// A random 8-connected grid, `side` cells square, about 30% blocked.
    struct Grid {
        side: usize,
        open: Vec<bool>,
    }

    impl Grid {
        fn random(side: usize, seed: u64) -> Grid {
            let mut rng = seed | 1;
            let open = (0..side * side)
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    rng % 10 >= 3
                })
                .collect();
            Grid { side, open }
        }

        fn octile(&self, a: usize, b: usize) -> u64 {
            let dx = (a % self.side).abs_diff(b % self.side) as u64;
            let dy = (a / self.side).abs_diff(b / self.side) as u64;
            let (lo, hi) = (dx.min(dy), dx.max(dy));
            lo * DIAGONAL + (hi - lo) * STRAIGHT
        }
    }

    /// Runs searches between fixed open cells with A* (octile) or Dijkstra (`zero_h`),
    /// keys `f << 32 | (u32::MAX - g)` as the lab's A* makes them, both strategies through
    /// one loop (stale pops skipped); returns the sum of path costs and the pops.
    fn searches<F: Frontier>(grid: &Grid, pairs: &[(usize, usize)], zero_h: bool) -> (u64, u64) {
        let cells = grid.side * grid.side;
        let mut queue = F::new(Spec { capacity: cells, span: 0 });
        let mut g = vec![u64::MAX; cells];
        let mut closed = vec![false; cells];
        let mut touched: Vec<usize> = Vec::new();
        let (mut total, mut pops) = (0, 0);
        let side = grid.side as isize;
        for &(start, goal) in pairs {
            for &cell in &touched {
                g[cell] = u64::MAX;
                closed[cell] = false;
            }
            touched.clear();
            queue.clear();
            let h = |cell: usize| if zero_h { 0 } else { grid.octile(cell, goal) };
            let key = |cell: usize, cost: u64| (cost + h(cell)) << 32 | (u32::MAX as u64 - cost);
            g[start] = 0;
            touched.push(start);
            queue.push(start as u32, key(start, 0)).unwrap();
            while let Some((node, k)) = queue.pop() {
                pops += 1;
                let cell = node as usize;
                let cost = u32::MAX as u64 - (k & u32::MAX as u64);
                if closed[cell] || cost > g[cell] {
                    continue;
                }
                closed[cell] = true;
                if cell == goal {
                    total += cost;
                    break;
                }
                let (x, y) = ((cell % grid.side) as isize, (cell / grid.side) as isize);
                for (dx, dy) in
                    [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
                {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= side || ny >= side {
                        continue;
                    }
                    let next = (ny * side + nx) as usize;
                    let corner_a = (y * side + nx) as usize;
                    let corner_b = (ny * side + x) as usize;
                    if !grid.open[next] || !grid.open[corner_a] || !grid.open[corner_b] {
                        continue;
                    }
                    let step = if dx != 0 && dy != 0 { DIAGONAL } else { STRAIGHT };
                    let through = cost + step;
                    if through < g[next] {
                        if g[next] == u64::MAX {
                            touched.push(next);
                        }
                        g[next] = through;
                        closed[next] = false;
                        queue.push(next as u32, key(next, through) as Key).unwrap();
                    }
                }
            }
        }
        (total, pops)
    }

    struct Run<'a> {
        grid: &'a Grid,
        pairs: &'a [(usize, usize)],
        zero_h: bool,
    }

    impl Visitor for Run<'_> {
        type Output = (f64, u64, u64);
        fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> (f64, u64, u64) {
            let started = Instant::now();
            let (total, pops) = searches::<F>(self.grid, self.pairs, self.zero_h);
            (started.elapsed().as_secs_f64(), total, pops)
        }
    }

    /// `PQLAB_QUEUES=fibonacci-heap-dk,pairing-heap-dk PQLAB_REPEATS=5 cargo test --release
    /// -p pqlab-queues --lib fibonacci_heap::measure -- --ignored --nocapture`: the best
    /// and median time of each queue on A* and Dijkstra over a 1024 × 1024 random grid
    /// (`PQLAB_SIDE` changes the side), the ids taken in turn in every repeat so a busy
    /// machine hurts them alike. The counts in this file's header ran one id at a time,
    /// `PQLAB_SIDE=512 PQLAB_REPEATS=1`, under `valgrind --tool=callgrind --branch-sim=yes
    /// --cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64` on the test binary (arguments
    /// `fibonacci_heap::measure --ignored`).
    #[test]
    #[ignore = "a measurement, not a test: run it by hand"]
    fn grid_searches() {
        let var = |name: &str, default: &str| std::env::var(name).unwrap_or(default.into());
        let ids = var("PQLAB_QUEUES", "fibonacci-heap-dup,fibonacci-heap-dk");
        let repeats: usize = var("PQLAB_REPEATS", "3").parse().unwrap();
        let side: usize = var("PQLAB_SIDE", "1024").parse().unwrap();
        let grid = Grid::random(side, 0x9e37_79b9_7f4a_7c15);
        // Corner-to-corner-ish pairs of open cells.
        let open_near = |cell: usize| (cell..).find(|&c| grid.open[c % (side * side)]).unwrap();
        let pairs: Vec<(usize, usize)> = (0..4)
            .map(|i| {
                let a = open_near(side * (side / 16 * (1 + i)) + side / 32);
                let b = open_near(side * (side - side / 16 * (1 + i)) - side / 32) % (side * side);
                (a, b)
            })
            .collect();
        let ids: Vec<&str> = ids.split(',').collect();
        for zero_h in [false, true] {
            let mut times = vec![Vec::new(); ids.len()];
            let mut answers = vec![(0, 0); ids.len()];
            for _ in 0..repeats {
                for (at, id) in ids.iter().enumerate() {
                    let run = Run { grid: &grid, pairs: &pairs, zero_h };
                    let (time, total, pops) =
                        registry::visit(id, run).unwrap_or_else(|| panic!("no queue {id}"));
                    times[at].push(time * 1e3);
                    answers[at] = (total, pops);
                }
            }
            for (at, id) in ids.iter().enumerate() {
                let times = &mut times[at];
                times.sort_by(f64::total_cmp);
                let what = if zero_h { "dijkstra" } else { "a*" };
                let (total, pops) = answers[at];
                println!(
                    "{what:8} {id:24} best {:7.1} ms  median {:7.1} ms  cost {total}  pops {pops}",
                    times[0],
                    times[times.len() / 2]
                );
            }
        }
    }
}
