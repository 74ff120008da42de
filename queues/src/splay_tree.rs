//! Our splay tree (Sleator, Tarjan, "Self-adjusting binary search trees", JACM 1985), in
//! both strategies: a binary search tree ordered by `(key, node)` in a flat arena of slots
//! linked by `u32` indices, restructured by top-down splaying on every operation.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(log n) amortized | O(log n) amortized |
//! | push (held node, smaller key) | O(log n) amortized, adds an entry | O(log n) amortized: delete, reinsert |
//! | pop | O(log n) amortized | O(log n) amortized |
//! | clear | O(1) | O(slots used since the last clear) ¹ |
//!
//! ¹ It forgets each held node in the position table by one sequential pass over the
//! arena, which holds no more slots than the most entries held since the last clear.
//!
//! Paper followed: top-down splaying in its simplified form, which the paper gives beside
//! the full one and which keeps the O(log n) amortized bounds (a zig-zig step rotates, then
//! links; a zig-zag step is done as a zig, one link, and the walk goes on), the left and
//! right side trees assembled once at the end; insert by splaying at the new entry and
//! splitting the tree at the root it leaves; delete by splaying the entry to the root and
//! joining its subtrees (splay the left subtree's maximum to its root, hang the right
//! subtree there). Pop is the splay at minus infinity written as its own loop: no
//! comparison, every step rotates right and links right. Deviations: none in the
//! restructuring. The side trees' headers live in a scratch slot of the arena (slot 0), so
//! linking needs no branch for "the first link".
//!
//! Slots: both strategies keep entries in one arena (`arena.rs`, placing entries as for
//! `Dup`) that grows as needed and reuses popped slots through a free list, so nothing
//! is allocated per entry after warm-up; with `Dk`, a position table (node to slot) finds
//! a held node's entry in O(1), and the entry's own `(key, node)` is what splays it to the
//! root. No parent pointers, no recursion: every splay and the clear are loops, so
//! degenerate shapes (a spine 10^5 deep, from keys pushed in order) cost no stack.
//!
//! Keys: any. Ties: unspecified but deterministic. Entries are ordered by `(key, node)`,
//! so equal keys pop in ascending node id. With `Dup` the same `(key, node)` may be held
//! twice; such entries are indistinguishable, and an insert places the new one just right
//! of the equal entry its splay reaches (the in-order sequence stays sorted).
//!
//! Should win: a splay tree caches, it keeps recently touched entries near the root, and
//! A* pops near what it just pushed. When an expansion's best child is the new minimum (a
//! search running straight down a corridor toward the goal, ties on `f` going to the
//! larger `g`) that child was inserted at the root with nothing smaller, so the next pop
//! is one step: on a 512 × 512 map with a quarter of the cells blocked, a quarter of the
//! `Dup` pops found the minimum at the root and its mean depth was 3 (12% and 4.7 on an
//! open map). That should show on searches whose frontier stays narrow and is popped in
//! the order it was pushed (corridors, mazes, good heuristics), against the other
//! pointer-based heaps first. It should lose where pops come from all over a wide
//! frontier (weak heuristics, Dijkstra-like searches, frontiers that outgrow the cache)
//! and with many decrease-keys (three splays each): every operation then walks and
//! rewrites links of scattered slots, and mispredicts its way down, where an implicit heap
//! reads one contiguous array. In the `measure` workload below the whole search took 1.56
//! times as long as with `dary4-dup` on the blocked map (`pairing-heap-dup`: 1.33), and 1.31
//! times as long on the open one (`pairing-heap-dup`: 1.59).
//!
//! Measured choices (the `measure` workload at the end of this file: 40 grid A* searches
//! with the harness's keys, on a 512 × 512 map with a quarter of the cells blocked and on an
//! open one; instruction counts from callgrind, CPU times the median of 4 to 6 interleaved
//! runs of the best of 5, on a shared 2-core machine):
//! * Pop splays: walking to the leftmost entry and unlinking it without restructuring cost
//!   2.82 rather than 2.68 billion instructions (the whole workload) on the blocked map,
//!   and 21.0 rather than 5.04 billion on the open one, where increasing pushes grow spines
//!   that only splaying shortens. A cached leftmost pointer would not help either: without
//!   parent pointers it cannot be kept after a pop, and the minimum is shallow anyway. The
//!   splay at minus infinity pays as its own loop: the general splay toward `(0, 0)` did
//!   the same restructuring for 2.62 rather than 2.25 billion instructions (`Dup`).
//! * `Dk` finds entries through a position table over the shared arena rather than giving
//!   every node its own slot in an arena of the capacity: CPU time 99.9 rather than 128.4
//!   ms (blocked map) and 97.4 rather than 127.9 ms (open): the tree's slots stay packed
//!   in an arena the size of the frontier instead of spread over one the size of the map.
//! * Indexing is bounds-checked: `get_unchecked` everywhere measured 92.1 against 95.5 ms
//!   (`Dup`) and 102.8 against 99.9 ms (`Dk`), within the noise.
//! * The splay step branches, as in the paper. A branch-free step (the direction as an
//!   index into `[left, right]`, the zig-zig rotation as selects) had 12 to 17% fewer
//!   mispredicted branches in callgrind's model but 19% more instructions, and was slower:
//!   98.5 rather than 87.0 ms (`Dup`, blocked map), 125.0 rather than 85.4 ms (open).
//! * Ranks compare as a `(key, node)` tuple: as one `u128` they cost 12% more instructions
//!   (2.52 rather than 2.25 billion, `Dup`), for times equal within the noise.
//! * Decrease-key is the paper's delete and insert. Splitting the left subtree at the new
//!   key instead (two splays, a third only to join the part between the keys) saved 1.3%
//!   (blocked map) and 2.9% (open) of the workload's instructions: not worth a second path.
//!
//! ```
//! use pqlab_queues::{splay_tree::SplayTree, Dk, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = SplayTree::<Dk>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use std::marker::PhantomData;

use crate::arena::{self, Arena};
use crate::{
    check_node, Dup, Family, Frontier, Key, KeyRule, Node, Origin, PositionTable, PushError,
    Pushed, Spec, Strategy, StrategyKind, Ties,
};

/// No link: an empty subtree.
const NIL: u32 = u32::MAX;
/// The `left` of a slot that holds no entry.
const FREE: u32 = u32::MAX - 1;
/// The scratch slot of the top-down splay, which never holds an entry.
const HEADER: u32 = 0;

/// One tree node: an entry and its two subtrees (24 bytes).
#[derive(Clone, Copy, Debug)]
struct SplaySlot {
    key: Key,
    /// The node this entry stands for.
    node: Node,
    /// The left subtree (smaller `(key, node)`), `NIL`, or `FREE` if the slot is unused.
    left: u32,
    /// The right subtree (larger or equal `(key, node)`), or `NIL`; in a free slot, the
    /// next free slot.
    right: u32,
}

impl arena::ArenaSlot for SplaySlot {
    // SplaySlot indices stay clear of the two sentinels.
    const LIMIT: u32 = FREE;
    const VACANT: SplaySlot = SplaySlot { key: 0, node: 0, left: FREE, right: NIL };

    #[inline]
    fn vacate(&mut self) {
        self.left = FREE;
    }

    #[inline]
    fn free_link(&mut self) -> &mut u32 {
        &mut self.right
    }
}

/// A min-first splay tree of `(key, node)` entries; with `S = Dk` a position table gives
/// O(1) membership and finds the entry to splay for a decrease-key.
///
/// Invariants: the slots reachable from `root` through `left` and `right` form a binary
/// tree of exactly the `len` entries held, whose in-order sequence is sorted by
/// `(key, node)`; every other slot but the header (`HEADER`, slot 0) has `left == FREE`
/// and is on the arena's free list. With `Dk`, `positions` maps exactly the held nodes to
/// their slots. The header holds no entry: a splay uses its links as the roots of its side
/// trees, and writes them before it reads them.
#[derive(Debug)]
pub struct SplayTree<S> {
    /// Entries take free or new slots in both strategies (`Dk` finds them in `positions`);
    /// slot 0 is the header, reserved.
    slots: Arena<SplaySlot, Dup>,
    root: u32,
    len: usize,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> SplayTree<S> {
    /// The rank of the entry in `slot`: the tree's order is `(key, node)`, lexicographic.
    #[inline(always)]
    fn rank_of(&self, slot: u32) -> (Key, Node) {
        let entry = &self.slots[slot as usize];
        (entry.key, entry.node)
    }

    /// Splays the tree rooted at `t` (not `NIL`) at `target`, top-down: returns the new
    /// root, the last slot on `target`'s search path (an entry equal to `target` if the
    /// search meets one). The in-order sequence is unchanged.
    ///
    /// While it descends, slots left of the path are linked into the left side tree (at
    /// its right end, `l`) and slots right of it into the right side tree (at its left
    /// end, `r`); the header's `right` and `left` hold those side trees' roots.
    #[inline]
    fn splay(&mut self, mut t: u32, target: (Key, Node)) -> u32 {
        let (mut l, mut r) = (HEADER, HEADER);
        loop {
            let here = self.rank_of(t);
            if target < here {
                let mut y = self.slots[t as usize].left;
                if y == NIL {
                    break;
                }
                if target < self.rank_of(y) {
                    // Zig-zig: rotate right, then link the new top.
                    self.slots[t as usize].left = self.slots[y as usize].right;
                    self.slots[y as usize].right = t;
                    t = y;
                    y = self.slots[t as usize].left;
                    if y == NIL {
                        break;
                    }
                }
                self.slots[r as usize].left = t;
                r = t;
                t = y;
            } else if target > here {
                let mut y = self.slots[t as usize].right;
                if y == NIL {
                    break;
                }
                if target > self.rank_of(y) {
                    // Zag-zag: rotate left, then link the new top.
                    self.slots[t as usize].right = self.slots[y as usize].left;
                    self.slots[y as usize].left = t;
                    t = y;
                    y = self.slots[t as usize].right;
                    if y == NIL {
                        break;
                    }
                }
                self.slots[l as usize].right = t;
                l = t;
                t = y;
            } else {
                break;
            }
        }
        self.assemble(t, l, r)
    }

    /// The end of a top-down splay: `t`'s subtrees go to the inner ends of the side trees
    /// (`l`, `r`, the header when a side tree is empty), the side trees become `t`'s.
    #[inline(always)]
    fn assemble(&mut self, t: u32, l: u32, r: u32) -> u32 {
        let h = HEADER as usize;
        let SplaySlot { left, right, .. } = self.slots[t as usize];
        self.slots[l as usize].right = left;
        self.slots[r as usize].left = right;
        // With an empty side tree the header's link was just set to `t`'s own subtree.
        let (side_left, side_right) = (self.slots[h].right, self.slots[h].left);
        let top = &mut self.slots[t as usize];
        top.left = side_left;
        top.right = side_right;
        t
    }

    /// Splays the minimum of the tree rooted at `t` (not `NIL`) to its root and returns it;
    /// the returned slot has no left subtree. The splay at minus infinity: every step
    /// rotates right (a zig-zig) and links right; the left side tree stays empty.
    #[inline]
    fn splay_min(&mut self, mut t: u32) -> u32 {
        let mut r = HEADER;
        loop {
            let mut y = self.slots[t as usize].left;
            if y == NIL {
                break;
            }
            self.slots[t as usize].left = self.slots[y as usize].right;
            self.slots[y as usize].right = t;
            t = y;
            y = self.slots[t as usize].left;
            if y == NIL {
                break;
            }
            self.slots[r as usize].left = t;
            r = t;
            t = y;
        }
        let right = self.slots[t as usize].right;
        self.slots[r as usize].left = right;
        // If nothing was linked (`r == HEADER`) this reads back `right`.
        self.slots[t as usize].right = self.slots[HEADER as usize].left;
        t
    }

    /// The mirror of [`Self::splay_min`]: splays the maximum of the tree rooted at `t` (not
    /// `NIL`) to its root and returns it; the returned slot has no right subtree.
    #[inline]
    fn splay_max(&mut self, mut t: u32) -> u32 {
        let mut l = HEADER;
        loop {
            let mut y = self.slots[t as usize].right;
            if y == NIL {
                break;
            }
            self.slots[t as usize].right = self.slots[y as usize].left;
            self.slots[y as usize].left = t;
            t = y;
            y = self.slots[t as usize].right;
            if y == NIL {
                break;
            }
            self.slots[l as usize].right = t;
            l = t;
            t = y;
        }
        let left = self.slots[t as usize].left;
        self.slots[l as usize].right = left;
        self.slots[t as usize].left = self.slots[HEADER as usize].right;
        t
    }

    /// Inserts the entry in `slot` (its key and node set, its links anything) as the new
    /// root: splays at it, then splits the tree at the old root.
    #[inline]
    fn insert(&mut self, slot: u32) {
        if self.root == NIL {
            let entry = &mut self.slots[slot as usize];
            entry.left = NIL;
            entry.right = NIL;
        } else {
            let target = self.rank_of(slot);
            let t = self.splay(self.root, target);
            let SplaySlot { left, right, .. } = self.slots[t as usize];
            let (left, right) = if target < self.rank_of(t) {
                self.slots[t as usize].left = NIL;
                (left, t)
            } else {
                // Equal ranks (a `Dup` entry held twice) go right of the one splayed up.
                self.slots[t as usize].right = NIL;
                (t, right)
            };
            let entry = &mut self.slots[slot as usize];
            entry.left = left;
            entry.right = right;
        }
        self.root = slot;
    }

    /// Unlinks the held entry in `slot` (`Dk` only, where ranks are unique): splays it to
    /// the root, then joins its subtrees under the left one's maximum. The slot stays the
    /// node's, to be inserted again.
    #[inline]
    fn remove(&mut self, slot: u32) {
        let top = self.splay(self.root, self.rank_of(slot));
        debug_assert_eq!(top, slot, "a held entry splays to the root");
        let SplaySlot { left, right, .. } = self.slots[top as usize];
        self.root = if left == NIL {
            right
        } else {
            let max = self.splay_max(left);
            self.slots[max as usize].right = right;
            max
        };
    }
}

impl<S: StrategyKind> Frontier for SplayTree<S> {
    const FAMILY: Family = Family::SplayTree;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        SplayTree {
            slots: Arena::with_reserved(1), // the header
            root: NIL,
            len: 0,
            positions: PositionTable::for_strategy::<S>(spec.capacity),
            capacity: spec.capacity,
            strategy: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            if let Some(slot) = self.positions.get(node) {
                if key >= self.slots[slot as usize].key {
                    return Ok(Pushed::Kept);
                }
                self.remove(slot);
                self.slots[slot as usize].key = key;
                self.insert(slot);
                return Ok(Pushed::Decreased);
            }
        }
        let slot = self.slots.take(node, SplaySlot { key, node, left: NIL, right: NIL });
        if S::DECREASE_KEY {
            self.positions.set(node, slot);
        }
        self.insert(slot);
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.root == NIL {
            return None;
        }
        let top = self.splay_min(self.root);
        let SplaySlot { key, node, right, .. } = self.slots[top as usize];
        self.root = right;
        self.slots.release(top);
        if S::DECREASE_KEY {
            self.positions.remove(node);
        }
        self.len -= 1;
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            // The arena holds every entry (and free slots): one pass, no tree walk.
            for entry in &self.slots[1..] {
                if entry.left != FREE {
                    self.positions.remove(entry.node);
                }
            }
        }
        self.slots.clear(); // keeps the header and the allocation
        self.root = NIL;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    const N: u32 = 100_000;

    impl<S: StrategyKind> SplayTree<S> {
        /// Checks every invariant of [`SplayTree`], walking the tree without recursion;
        /// returns the depth of the deepest entry.
        fn check(&self) -> usize {
            let mut held = vec![false; self.slots.len()];
            let mut count = 0;
            let mut deepest = 0;
            let mut last: Option<(Key, Node)> = None;
            // In-order walk with an explicit stack of (slot, depth).
            let mut stack = Vec::new();
            let mut t = (self.root, 1);
            loop {
                while t.0 != NIL {
                    stack.push(t);
                    t = (self.slots[t.0 as usize].left, t.1 + 1);
                }
                let Some((slot, depth)) = stack.pop() else { break };
                assert_ne!(slot, HEADER, "the header is in the tree");
                assert!(!held[slot as usize], "slot {slot} is reached twice");
                held[slot as usize] = true;
                let entry = self.slots[slot as usize];
                if S::DECREASE_KEY {
                    assert_eq!(self.positions.get(entry.node), Some(slot), "position of a node");
                }
                let here = (entry.key, entry.node);
                assert!(last.is_none_or(|last| last <= here), "in-order sequence not sorted");
                last = Some(here);
                count += 1;
                deepest = deepest.max(depth);
                t = (entry.right, depth + 1);
            }
            assert_eq!(count, self.len, "len does not count the entries in the tree");
            let mut free = vec![false; self.slots.len()];
            for f in self.slots.free_slots() {
                assert!(!free[f as usize] && !held[f as usize], "free slot {f} is in use");
                free[f as usize] = true;
            }
            for (slot, entry) in self.slots.iter().enumerate() {
                if slot == HEADER as usize {
                    continue;
                }
                assert_eq!(held[slot], entry.left != FREE, "slot {slot}: held but marked free");
                assert_eq!(held[slot], !free[slot], "slot {slot} is neither held nor free");
            }
            if S::DECREASE_KEY {
                let positions = (0..self.capacity as Node).filter_map(|n| self.positions.get(n));
                assert_eq!(positions.count(), self.len, "the position table holds other nodes");
            }
            deepest
        }
    }

    fn tree<S: StrategyKind>(capacity: u32) -> SplayTree<S> {
        SplayTree::new(Spec { capacity: capacity as usize, span: 0 })
    }

    /// The degenerate shapes, built, decreased, popped and cleared on a 64 KiB stack: keys
    /// pushed in increasing order make a left spine n deep (each new root takes the old
    /// tree as its left subtree), keys pushed in decreasing order a right spine.
    fn degenerate_shapes<S: StrategyKind>() {
        let mut t = tree::<S>(N);
        for node in 0..N {
            t.push(node, Key::from(node) + 10).unwrap();
        }
        assert_eq!(t.check(), N as usize, "increasing keys make a spine");
        for node in 0..N {
            assert_eq!(t.pop(), Some((node, Key::from(node) + 10)));
        }
        assert_eq!(t.pop(), None);
        for node in 0..N {
            t.push(node, Key::from(N - node) + 10).unwrap();
        }
        assert_eq!(t.check(), N as usize, "decreasing keys make a spine");
        // With Dk this splays the spine's far end up and lowers it; with Dup it adds one.
        t.push(0, 0).unwrap();
        t.check();
        assert_eq!(t.pop(), Some((0, 0)));
        assert_eq!(t.pop(), Some((N - 1, 11)));
        t.clear();
        assert_eq!(t.len(), 0);
        t.check();
        for node in 0..N {
            t.push(node, Key::from(N - node)).unwrap();
        }
        t.clear();
        t.check();
        for node in 0..N {
            t.push(node, Key::from(node)).unwrap();
        }
        // Dropped as a spine: the arena is a flat vector.
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

    /// A splay at minus infinity halves the depth of the path it walks: popping the
    /// minimum of an n-deep spine leaves a tree about n / 2 deep.
    #[test]
    fn a_pop_halves_a_spine() {
        let mut t = tree::<Dup>(1000);
        for node in 0..1000 {
            t.push(node, 5).unwrap();
        }
        assert_eq!(t.pop(), Some((0, 5)));
        let depth = t.check();
        assert!((499..=502).contains(&depth), "depth {depth} after one pop of a 1000-spine");
    }

    /// Random operations with many ties and repeated nodes, every invariant checked after
    /// each one, and the pops checked against a sorted reference.
    fn keeps_its_invariants<S: StrategyKind>() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut t = tree::<S>(64);
        let mut model: Vec<(Key, Node)> = Vec::new();
        for step in 0..20_000 {
            let roll = next() % 100;
            if roll < 55 {
                let (node, key) = ((next() % 64) as Node, next() % 40);
                let pushed = t.push(node, key).unwrap();
                let held = model.iter().position(|&(_, n)| n == node);
                match (S::DECREASE_KEY, held) {
                    (true, Some(at)) if key < model[at].0 => {
                        assert_eq!(pushed, Pushed::Decreased);
                        model[at].0 = key;
                    }
                    (true, Some(_)) => assert_eq!(pushed, Pushed::Kept),
                    _ => {
                        assert_eq!(pushed, Pushed::Added);
                        model.push((key, node));
                    }
                }
            } else if roll < 98 {
                model.sort_unstable();
                let expected = (!model.is_empty()).then(|| model.remove(0));
                assert_eq!(t.pop(), expected.map(|(key, node)| (node, key)), "step {step}");
            } else {
                t.clear();
                model.clear();
            }
            t.check();
        }
    }

    #[test]
    fn keeps_its_invariants_under_random_operations() {
        keeps_its_invariants::<Dup>();
        keeps_its_invariants::<Dk>();
    }

    /// Equal keys pop in ascending node id, whatever order they were pushed in.
    #[test]
    fn equal_keys_pop_in_node_order() {
        let mut t = tree::<Dk>(16);
        for node in [3, 1, 4, 0, 5] {
            t.push(node, 50).unwrap();
        }
        let popped: Vec<Node> = std::iter::from_fn(|| t.pop()).map(|(n, _)| n).collect();
        assert_eq!(popped, [0, 1, 3, 4, 5]);
    }
}

/// The A*-shaped workload the design choices in this file were measured on (an `#[ignore]`d
/// test): 40 grid A* searches with the harness's keys, each queue running all of them five
/// times and printing its best CPU time with the searches' counts. Timed, or counted under
/// callgrind (with `--cache-sim=yes` or `--branch-sim=yes` for the other figures):
///
/// ```text
/// cargo test --release -p pqlab-queues --lib splay_tree::measure -- --ignored --nocapture
/// PQLAB_QUEUE=splay-tree-dk PQLAB_MAP=open valgrind --tool=callgrind \
///     --toggle-collect='*a_star_runs*' target/release/deps/pqlab_queues-<hash> \
///     splay_tree::measure --ignored
/// ```
///
/// `PQLAB_QUEUE` names registered queues, comma-separated (default: both splay trees);
/// `PQLAB_MAP` is `random` (512 × 512, a quarter of the cells blocked at random, like
/// Moving AI's random512-25) or `open` (512 × 512, no obstacle but a wall across most of
/// the middle).
#[cfg(test)]
mod measure {
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    use crate::registry::{self, Entry, Visitor};
    use crate::{Frontier, Key, Node, Pushed, Spec};

    const SIDE: usize = 512;
    const STRAIGHT: u64 = 195_025;
    const DIAGONAL: u64 = 275_807;
    const SEARCHES: usize = 40;

    struct Map {
        blocked: Vec<bool>,
        problems: Vec<(usize, usize)>,
    }

    fn map(kind: &str) -> Map {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let blocked: Vec<bool> = (0..SIDE * SIDE)
            .map(|cell| {
                let (x, y) = (cell % SIDE, cell / SIDE);
                let edge = x == 0 || y == 0 || x == SIDE - 1 || y == SIDE - 1;
                edge || match kind {
                    "open" => y == SIDE / 2 && x < SIDE * 7 / 8,
                    _ => next() % 4 == 0,
                }
            })
            .collect();
        let mut problems = Vec::new();
        while problems.len() < SEARCHES {
            let (a, b) = ((next() as usize) % blocked.len(), (next() as usize) % blocked.len());
            if !blocked[a] && !blocked[b] {
                problems.push((a, b));
            }
        }
        Map { blocked, problems }
    }

    fn octile(a: usize, b: usize) -> u64 {
        let dx = (a % SIDE).abs_diff(b % SIDE) as u64;
        let dy = (a / SIDE).abs_diff(b / SIDE) as u64;
        STRAIGHT * dx.max(dy) + (DIAGONAL - STRAIGHT) * dx.min(dy)
    }

    /// Every search of `map`, with the harness's keys (`f << 32 | (u32::MAX - g)`), no
    /// corner cutting; returns the sum of the path costs, the expansions, the pushes that
    /// lowered a held node's key, and the pops.
    #[inline(never)]
    fn a_star_runs<F: Frontier>(queue: &mut F, map: &Map) -> (u64, u64, u64, u64) {
        // Each cell's g and stamp: seen in search i if the stamp is at least 2i + 1,
        // closed if it is 2i + 2 (so no map-sized reset between searches).
        let mut cells = vec![(0u64, 0u32); map.blocked.len()];
        let (mut cost, mut expansions, mut decreases, mut pops) = (0, 0, 0, 0);
        let side = SIDE as isize;
        let steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
        for (search, &(start, goal)) in map.problems.iter().enumerate() {
            let (open, closed) = (2 * search as u32 + 1, 2 * search as u32 + 2);
            queue.clear();
            let key = |g: u64, cell: usize| (g + octile(cell, goal)) << 32 | (u32::MAX as u64 - g);
            cells[start] = (0, open);
            queue.push(start as Node, key(0, start)).unwrap();
            while let Some((cell, k)) = queue.pop() {
                pops += 1;
                let cell = cell as usize;
                let (g, stamp) = cells[cell];
                if stamp == closed || k != key(g, cell) {
                    continue;
                }
                cells[cell].1 = closed;
                expansions += 1;
                if cell == goal {
                    cost += g;
                    break;
                }
                for &(dx, dy) in &steps {
                    let to = (cell as isize + dx + dy * side) as usize;
                    let diagonal = dx != 0 && dy != 0;
                    if map.blocked[to]
                        || diagonal
                            && (map.blocked[(cell as isize + dx) as usize]
                                || map.blocked[(cell as isize + dy * side) as usize])
                    {
                        continue;
                    }
                    let through = g + if diagonal { DIAGONAL } else { STRAIGHT };
                    let (seen_g, seen) = cells[to];
                    // A consistent heuristic: a closed cell never improves.
                    if seen < open || seen != closed && through < seen_g {
                        cells[to] = (through, open);
                        let pushed = queue.push(to as Node, key(through, to)).unwrap();
                        decreases += u64::from(pushed == Pushed::Decreased);
                    }
                }
            }
        }
        (cost, expansions, decreases, pops)
    }

    /// This thread's time on a CPU (Linux's schedstat), else the wall time: the machine
    /// this was tuned on was shared, and waiting for a CPU inflates wall times.
    fn cpu_time() -> Duration {
        static EPOCH: OnceLock<Instant> = OnceLock::new();
        let epoch = *EPOCH.get_or_init(Instant::now);
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse().ok())
            .map_or_else(|| epoch.elapsed(), Duration::from_nanos)
    }

    struct Run<'a>(&'a Map);

    impl Visitor for Run<'_> {
        type Output = ();
        fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
            let mut queue = F::new(Spec { capacity: self.0.blocked.len(), span: Key::MAX });
            // The best of five runs of every search (the first also warms the arena up).
            let mut best = Duration::MAX;
            let mut counts = (0, 0, 0, 0);
            for _ in 0..5 {
                let started = cpu_time();
                counts = a_star_runs(&mut queue, self.0);
                best = best.min(cpu_time() - started);
            }
            let (cost, expansions, decreases, pops) = counts;
            println!(
                "{}: {best:.2?}, cost {cost}, {expansions} expansions, {decreases} decrease-keys, \
                 {pops} pops",
                entry.id
            );
        }
    }

    #[test]
    #[ignore = "a measurement, not a test: run it in release mode"]
    fn a_star() {
        let kind = std::env::var("PQLAB_MAP").unwrap_or_else(|_| "random".into());
        let queues =
            std::env::var("PQLAB_QUEUE").unwrap_or_else(|_| "splay-tree-dup,splay-tree-dk".into());
        let map = map(&kind);
        for id in queues.split(',') {
            registry::visit(id, Run(&map)).expect("a registered queue");
        }
    }
}
