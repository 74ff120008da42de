//! Our Fibonacci heap (Fredman and Tarjan, "Fibonacci heaps and their uses in improved
//! network optimization algorithms", JACM 34(3), 1987), in both strategies: heap-ordered
//! trees in a flat arena of slots linked by `u32` indices, lazy insertion into a root
//! list, pop by consolidating the roots by degree, and decrease-key by cutting the node
//! and cascading cuts up its marked ancestors.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(1) | O(1) |
//! | push (held node, smaller key) | O(1), adds an entry | O(1) amortized |
//! | pop | O(log n) amortized | O(log n) amortized |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! TODO: layout, measurements.

use std::marker::PhantomData;
use std::mem;

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PushError, Pushed, Spec, Strategy,
    StrategyKind, Ties,
};

/// No link: no parent (a root), no child, the end of a child list.
const NIL: u32 = u32::MAX;
/// `meta` of a slot that holds no entry (with `Dk`: a node that is not held). A held
/// slot's `meta` is at most `2 * MAX_DEGREE + 1`.
const FREE: u32 = u32::MAX;
/// The mark bit of `meta`: the node lost a child since it last became a child.
const MARK: u32 = 1;
/// One degree in `meta` (the degree sits above the mark bit).
const DEGREE_ONE: u32 = 2;
/// Degrees the consolidation table covers. A node of degree `k` roots at least
/// `F(k + 2) ≥ φ^k` entries (Fredman and Tarjan, Lemma 1), and fewer than 2^32 entries
/// are held, so degrees stay below `log_φ 2^32 < 47`.
const DEGREES: usize = 48;

/// One tree node: an entry, its links, and its degree and mark (32 bytes).
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Key,
    /// The node this entry stands for (with `Dk`, the slot's own index).
    node: Node,
    /// `degree << 1 | mark` for a held slot; `FREE` otherwise.
    meta: u32,
    /// The parent, or `NIL` for a root.
    parent: u32,
    /// The first child, or `NIL`.
    child: u32,
    /// The previous sibling, or `NIL` for a first child; unused for a root.
    left: u32,
    /// The next sibling, or `NIL` for a last child; unused for a root; in a free `Dup`
    /// slot, the next free slot.
    right: u32,
}

impl Slot {
    const EMPTY: Slot =
        Slot { key: 0, node: 0, meta: FREE, parent: NIL, child: NIL, left: NIL, right: NIL };
}

/// A min-first Fibonacci heap; with `S = Dk` a node is its own slot, which gives O(1)
/// membership and decrease-key without a position table.
///
/// Invariants: `roots` lists the roots of the heap-ordered trees whose slots are exactly
/// the `len` entries held; each child list is doubly linked through `left` and `right`
/// from its parent's `child`, each child's `parent` names that parent, and each node's
/// degree is its number of children; roots are unmarked; `min` is a root of the smallest
/// key, `min_key` its key (or `NIL` when empty); `table` is all `NIL` between operations;
/// every slot that holds no entry has `meta == FREE` and, with `Dup`, is on the free list
/// starting at `free`.
#[derive(Debug)]
pub struct FibonacciHeap<S> {
    slots: Vec<Slot>,
    roots: Vec<u32>,
    min: u32,
    min_key: Key,
    len: usize,
    /// The consolidation's degree table: `table[d]` is the root of degree `d` filed so far.
    table: [u32; DEGREES],
    /// `Dup` only: the first free slot, or `NIL`.
    free: u32,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> FibonacciHeap<S> {
    /// Makes root `child` (whose key is at least `parent`'s) the first child of root
    /// `parent`.
    #[inline]
    fn link(&mut self, parent: u32, child: u32) {
        let first = self.slots[parent as usize].child;
        if first != NIL {
            self.slots[first as usize].left = child;
        }
        let slot = &mut self.slots[child as usize];
        slot.parent = parent;
        slot.left = NIL;
        slot.right = first;
        let slot = &mut self.slots[parent as usize];
        slot.child = child;
        slot.meta += DEGREE_ONE;
    }

    /// Files root `x` in the degree table, linking it with the root of equal degree filed
    /// before (that one stays on top on equal keys) until its degree's entry is free.
    /// Raises `*high` to the highest degree filed.
    #[inline]
    fn file(&mut self, mut x: u32, high: &mut usize) {
        let Slot { key, meta, .. } = self.slots[x as usize];
        let mut key = key;
        let mut degree = (meta >> 1) as usize;
        loop {
            let y = self.table[degree];
            if y == NIL {
                break;
            }
            self.table[degree] = NIL;
            let y_key = self.slots[y as usize].key;
            if y_key <= key {
                self.link(y, x);
                x = y;
                key = y_key;
            } else {
                self.link(x, y);
            }
            degree += 1;
        }
        self.table[degree] = x;
        *high = (*high).max(degree);
    }

    /// Cuts `x` from its parent `parent` and makes it an unmarked root.
    #[inline]
    fn cut(&mut self, x: u32, parent: u32) {
        let Slot { left, right, .. } = self.slots[x as usize];
        if left == NIL {
            self.slots[parent as usize].child = right;
        } else {
            self.slots[left as usize].right = right;
        }
        if right != NIL {
            self.slots[right as usize].left = left;
        }
        self.slots[parent as usize].meta -= DEGREE_ONE;
        let slot = &mut self.slots[x as usize];
        slot.parent = NIL;
        slot.meta &= !MARK;
        self.roots.push(x);
    }

    /// The cascading cut from `x`, which just lost a child: marks it if it is an unmarked
    /// non-root, else cuts it and goes on with its parent.
    #[inline]
    fn cascade(&mut self, mut x: u32) {
        loop {
            let Slot { parent, meta, .. } = self.slots[x as usize];
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
        let parent = slot.parent;
        if parent != NIL && key < self.slots[parent as usize].key {
            self.cut(x, parent);
            self.cascade(parent);
        }
        if key < self.min_key {
            self.min = x;
            self.min_key = key;
        }
    }

    /// Takes a slot for a new entry: the node's own with `Dk`, else a free or new one.
    #[inline]
    fn take_slot(&mut self, node: Node, key: Key) -> u32 {
        let fresh = Slot { key, node, meta: 0, parent: NIL, child: NIL, left: NIL, right: NIL };
        let slot = if S::DECREASE_KEY {
            node
        } else if self.free != NIL {
            let slot = self.free;
            self.free = self.slots[slot as usize].right;
            slot
        } else {
            let slot = self.slots.len();
            assert!(slot < NIL as usize, "a Fibonacci heap holds fewer than 2^32 - 1 entries");
            self.slots.push(fresh);
            return slot as u32;
        };
        self.slots[slot as usize] = fresh;
        slot
    }

    /// Marks `slot` as holding no entry, and with `Dup` puts it on the free list.
    #[inline]
    fn release(&mut self, slot: u32) {
        let entry = &mut self.slots[slot as usize];
        entry.meta = FREE;
        if !S::DECREASE_KEY {
            entry.right = self.free;
            self.free = slot;
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
        let slots = if S::DECREASE_KEY {
            // Node ids must stay clear of the sentinel.
            assert!(
                spec.capacity <= NIL as usize,
                "a Fibonacci heap takes node ids below 2^32 - 1"
            );
            vec![Slot::EMPTY; spec.capacity]
        } else {
            Vec::new()
        };
        FibonacciHeap {
            slots,
            roots: Vec::new(),
            min: NIL,
            min_key: 0,
            len: 0,
            table: [NIL; DEGREES],
            free: NIL,
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
        let slot = self.take_slot(node, key);
        self.roots.push(slot);
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
        let Slot { key, node, child, .. } = self.slots[top as usize];
        // File every other root, then the popped root's children (now unmarked roots).
        let mut roots = mem::take(&mut self.roots);
        let mut high = 0;
        for &root in &roots {
            if root != top {
                self.file(root, &mut high);
            }
        }
        let mut child = child;
        while child != NIL {
            let slot = &mut self.slots[child as usize];
            let next = slot.right;
            slot.parent = NIL;
            slot.meta &= !MARK;
            self.file(child, &mut high);
            child = next;
        }
        // The filed roots are the new root list; the smallest key (lowest degree among
        // equals) is the new minimum.
        roots.clear();
        self.min = NIL;
        for degree in 0..=high {
            let root = mem::replace(&mut self.table[degree], NIL);
            if root != NIL {
                roots.push(root);
                let root_key = self.slots[root as usize].key;
                if self.min == NIL || root_key < self.min_key {
                    self.min = root;
                    self.min_key = root_key;
                }
            }
        }
        self.roots = roots;
        self.release(top);
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
            for &root in &self.roots {
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
                self.slots[slot as usize].meta = FREE;
            }
        } else {
            self.slots.clear();
            self.free = NIL;
        }
        self.roots.clear();
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
            let mut count = 0;
            // Iterative post-order: subtree sizes of each tree.
            let mut size = vec![0usize; self.slots.len()];
            let mut fib = vec![1usize, 1];
            while fib.len() < DEGREES + 2 {
                fib.push(fib[fib.len() - 1].saturating_add(fib[fib.len() - 2]));
            }
            for &root in &self.roots {
                let slot = self.slots[root as usize];
                assert_eq!(slot.parent, NIL, "root {root} has a parent");
                assert_eq!(slot.meta & MARK, 0, "root {root} is marked");
                assert!(slot.key >= self.min_key, "root {root} is below the minimum");
                let mut order = Vec::new();
                let mut stack = vec![root];
                while let Some(x) = stack.pop() {
                    assert!(!seen[x as usize], "slot {x} is reached twice");
                    seen[x as usize] = true;
                    count += 1;
                    order.push(x);
                    let parent = self.slots[x as usize];
                    assert_ne!(parent.meta, FREE, "slot {x} is held but free");
                    let (mut child, mut left, mut degree) = (parent.child, NIL, 0);
                    while child != NIL {
                        let slot = self.slots[child as usize];
                        assert_eq!(slot.parent, x, "child {child} names another parent");
                        assert_eq!(slot.left, left, "child {child}'s left link is wrong");
                        assert!(slot.key >= parent.key, "child {child} is above its parent");
                        stack.push(child);
                        degree += 1;
                        left = child;
                        child = slot.right;
                    }
                    assert_eq!(parent.meta >> 1, degree, "slot {x}'s degree is wrong");
                }
                for &x in order.iter().rev() {
                    let slot = self.slots[x as usize];
                    size[x as usize] += 1;
                    let degree = (slot.meta >> 1) as usize;
                    assert!(
                        size[x as usize] >= fib[degree + 1],
                        "slot {x}: too few for its degree"
                    );
                    if slot.parent != NIL {
                        size[slot.parent as usize] += size[x as usize];
                    }
                }
            }
            assert_eq!(count, self.len, "the trees hold another count than len");
            if self.len > 0 {
                assert!(self.roots.contains(&self.min), "the minimum is not a root");
                assert_eq!(self.slots[self.min as usize].key, self.min_key);
            } else {
                assert_eq!(self.min, NIL);
            }
            assert!(self.table.iter().all(|&t| t == NIL), "the degree table is not empty");
            let mut free = self.free;
            while free != NIL {
                assert!(!seen[free as usize], "slot {free} is held and free");
                seen[free as usize] = true;
                free = self.slots[free as usize].right;
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
        assert_eq!(heap.roots.len(), N as usize);
        // The first pop consolidates 10^5 roots into binomial trees.
        assert_eq!(heap.pop(), Some((N - 1, 11)));
        assert!(heap.roots.len() <= 17);
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
