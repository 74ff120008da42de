//! Our B-heap (Poul-Henning Kamp, "You're doing it wrong", ACM Queue 8(6), 2010; the
//! blocked heaps of LaMarca and Ladner, "The influence of caches on the performance of
//! heaps", JEA 1996), in both strategies: a binary heap whose slots are laid out in blocks
//! of `B` slots, each block holding whole subtrees, so a root-to-leaf path touches about
//! log n / log(B/2) blocks instead of log n. Two block sizes are registered: a 64-byte
//! cache line ([`BHeapLine`], 4 slots) and a 4 KiB page ([`BHeapPage`], 256 slots, Kamp's).
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(log n) | O(log n) |
//! | push (held node, smaller key) | O(log n), adds an entry | O(log n), sifts up in place |
//! | pop | O(log n) | O(log n) |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! A sift touches O(log n / log B) blocks.
//!
//! # Layout
//!
//! Slot `i` lies in block `i >> k` at offset `s = i & (B - 1)`, `B = 2^k`. Every block
//! holds two sibling subtrees in breadth-first order: offsets 0 and 1 are their roots, and
//! offset `s` has its children at offsets `2s + 2` and `2s + 3` while these fall in the
//! block (`s < B/2 - 1`). The other `B/2 + 1` offsets, `B/2 - 1 ..= B - 1`, are the
//! block's *exits*: exit `e` (offset `B/2 - 1 + e`) has as its two children the two roots
//! of block `b·(B/2 + 1) + 1 + e`. Block 0's roots are the heap's two roots, as if a
//! virtual root sat above them: the minimum is the smaller of slots 0 and 1.
//!
//! So the blocks form a complete `(B/2 + 1)`-ary tree in breadth-first order, a parent's
//! slot is always below its children's, and the first `n` slots are always a heap-shaped
//! tree: a push appends slot `n`, a pop refills the hole from slot `n - 1`, and the heap
//! stays compact (`n` entries in `⌈n / 256⌉` 4 KiB pages). A path crosses `k - 1` levels
//! of most blocks (`k` through two exits of `B/2 + 1`), so on average the tree is about as
//! deep as a binary heap; because blocks fill one at a time, a slot in a partly filled
//! level of blocks can sit up to `k + 2` levels deeper than in a binary heap of as many
//! entries (a test checks this up to 2²⁰ slots). Siblings always share a 64-byte line
//! (slots are 16 bytes, pairs start at even slots, and slot 0 starts a 4 KiB page, so no
//! block straddles a page either).
//!
//! Deviations from Kamp (Varnish's `binheap.c`): his first page is a single subtree with
//! 1-based arithmetic (slot 0 unused), and every other page starts with two roots that
//! have a single child each ("the first two elements are magical"), so every page has
//! `B/2` exits and the page arithmetic is shifts alone. Here there are no single-child
//! nodes and no unused slot: a path crosses 7 levels of a 256-slot page (Kamp: 8, one
//! spent on a single-child root) for a fan-out of 129 pages (his 128), and the heap has
//! two roots. The price is a division by the constant `B/2 + 1` (a multiply and shifts)
//! when a sift-up leaves a block; the sift-down's child index needs no division (see
//! `Layout::first_child`). It also makes small blocks usable: with a cache line
//! (`B = 4`) Kamp's layout would gain one binary level of fan-out per two levels of depth;
//! this one has 3 exits per line. The sift-down stops where the moved entry fits (as
//! heap_core's) but picks the smaller sibling by a branch (unlike heap_core; measured at
//! `BHeap::sift_down`).
//!
//! # Block size
//!
//! Measured with the hold model (`measure::block_sizes` at the end of this file: fill with
//! `n` entries, then 10⁶ rounds of a pop and a push of the popped node, random 64-bit keys
//! or A*-like keys, the popped key plus up to 1000), best of 3 interleaved runs, thread
//! CPU time (counted in 4 ms ticks; a run lasts 55 ms to 2 s), ns per pop and push,
//! duplicates; on a 2-vCPU Xeon VM shared with other jobs (2 MiB L2 a core, 4 KiB pages,
//! transparent huge pages only on request):
//!
//! | `n` | keys | `B` = 4 | 8 | 16 | 64 | 256 | `dary2` | `dary4` |
//! |---|---|---|---|---|---|---|---|---|
//! | 10⁵ | random | 76 | 90 | 75 | 83 | 84 | 60 | 57 |
//! | 10⁶ | random | 244 | 239 | 244 | 282 | 227 | 216 | 316 |
//! | 10⁷ | random | 594 | 579 | 592 | 703 | 789 | 519 | 1215 |
//! | 10⁵ | A*-like | 91 | 89 | 92 | 95 | 98 | 94 | 57 |
//! | 10⁶ | A*-like | 137 | 137 | 159 | 183 | 184 | 138 | 186 |
//! | 10⁷ | A*-like | 264 | 278 | 336 | 442 | 607 | 243 | 760 |
//!
//! Decrease-key ran up to 25% slower, with the same order between line and page. The
//! line (4; 8 ties with it) is the better block from 10⁶ entries up: inside a page a path
//! still takes a new cache line on nearly every level, as in a binary heap, and the TLB
//! misses the page saves did not show here (cachegrind, 10⁷ entries, a 2 MiB last-level
//! cache: 4.7 misses a pop with pages, 3.2 with lines). Kamp's page is registered too, as
//! the claim under test is his. `cargo test -p pqlab-queues --release --lib b_heap::measure
//! -- --ignored --nocapture` reruns it (about 10 minutes).
//!
//! Keys: any. Ties: unspecified heap order (entries compare by key alone).
//! Should win: against the binary heap when the frontier outgrows the caches (10⁶ entries
//! and up), the line by touching fewer cache lines per path and the page by touching
//! fewer pages (four 4 KiB pages from root to leaf at 10⁷ entries). In the measurement
//! above neither beat the binary heap (`dary2`): the blocked index arithmetic costs about
//! as much as the lines it saves, and a 10⁵-entry heap pays it without gain.
//!
//! ```
//! use pqlab_queues::{b_heap::BHeapLine, Dup, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = BHeapLine::<Dup>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use std::marker::PhantomData;

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PositionTable, PushError, Pushed,
    Spec, Strategy, StrategyKind, Ties,
};

/// One heap entry (16 bytes).
type BHeapEntry = (Key, Node);

/// Slots in a 4 KiB page: the largest block. Slot 0 sits at the start of a page, so no
/// block straddles a page or a 64-byte line.
const PAGE_SLOTS: usize = 256;
/// The alignment of slot 0: Linux x86-64's page size (`getconf PAGESIZE` prints 4096 on
/// the lab's machines).
const PAGE_BYTES: usize = 4096;

/// Blocks of one 64-byte cache line: the better block measured (see "Block size").
pub type BHeapLine<S> = BHeap<4, S>;

/// Blocks of one 4 KiB page, Kamp's B-heap (see "Block size").
pub type BHeapPage<S> = BHeap<256, S>;

/// The layout's index arithmetic for blocks of `B` slots (see the module documentation).
struct Layout<const B: usize>;

impl<const B: usize> Layout<B> {
    /// `log₂ B`.
    const SHIFT: u32 = B.trailing_zeros();
    /// The offset of the first exit, `B/2 - 1`: offsets below it have their children in
    /// the block.
    const FIRST_EXIT: usize = B / 2 - 1;
    /// Exits per block, the block tree's fan-out: `B/2 + 1`.
    const EXITS: usize = B / 2 + 1;

    /// Checked at compile time for every `B` used.
    const VALID: () = assert!(
        B.is_power_of_two() && B >= 4 && B <= PAGE_SLOTS,
        "a B-heap's block is a power of two from 4 to 256 slots"
    );

    /// The first of slot `i`'s two children (the second is the next slot). It may lie
    /// beyond the slots in use; it is always above `i`.
    #[inline]
    fn first_child(i: usize) -> usize {
        let s = i & (B - 1);
        // In the block: offset 2s + 2.
        let inside = i + s + 2;
        // Exit s - FIRST_EXIT: the roots of block b·EXITS + 1 + (s - FIRST_EXIT), times B,
        // with b = (i - s) / B. Expanded to EXITS·i + FIRST_EXIT·s - (B²/2 - 2B) it does not
        // wait for the block number: this is the sift-down's critical path. (It wraps when
        // `s` is no exit, and is not used then.)
        let below = (Self::EXITS * i + Self::FIRST_EXIT * s).wrapping_sub(B * B / 2 - 2 * B);
        if s < Self::FIRST_EXIT {
            inside
        } else {
            below
        }
    }

    /// The parent of slot `i >= 2` (slots 0 and 1 are the roots); always below `i`.
    #[inline]
    fn parent(i: usize) -> usize {
        debug_assert!(i >= 2, "the roots have no parent");
        let s = i & (B - 1);
        if s >= 2 {
            // In the block: offset (s - 2) / 2.
            i - s + (s >> 1) - 1
        } else {
            // A block root: an exit of the parent block.
            let above = (i >> Self::SHIFT) - 1;
            ((above / Self::EXITS) << Self::SHIFT) + Self::FIRST_EXIT + above % Self::EXITS
        }
    }
}

/// A min-first B-heap of `(key, node)` with blocks of `B` slots; with `S = Dk`, a position
/// table finds a node's slot for decrease-key.
///
/// Invariants: the slots are stored in `store[base..]`, whole pages of them, slot 0's page
/// 4 KiB-aligned (when the allocator's alignment allows it: the heap is correct either
/// way); slots `0..len` hold the entries, every key at least its parent's (`Layout::parent`);
/// with `Dk`, `positions` maps each held node to its slot and every other node to absent.
/// `store` never shrinks, so a refill after `clear` allocates nothing.
#[derive(Debug)]
pub struct BHeap<const B: usize, S> {
    store: Vec<BHeapEntry>,
    /// The index in `store` of slot 0's place (padding below it aligns the pages).
    base: usize,
    len: usize,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<const B: usize, S: StrategyKind> BHeap<B, S> {
    /// The slots in use and the position table, borrowed apart for the sifts.
    #[inline]
    fn parts(&mut self) -> (&mut [BHeapEntry], &mut PositionTable) {
        (&mut self.store[self.base..self.base + self.len], &mut self.positions)
    }

    #[inline]
    fn get(&self, i: usize) -> BHeapEntry {
        self.store[self.base + i]
    }

    /// Adds a page for slot `len`: in place when the allocation has room, else moved to an
    /// allocation twice as large, slot 0 at the start of a page.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let pages = &self.store[self.base..];
        if self.store.len() + PAGE_SLOTS <= self.store.capacity() {
            self.store.resize(self.store.len() + PAGE_SLOTS, (0, 0));
            return;
        }
        let mut store: Vec<BHeapEntry> =
            Vec::with_capacity((2 * pages.len()).max(PAGE_SLOTS) + PAGE_SLOTS);
        let base = store.as_ptr().align_offset(PAGE_BYTES);
        let base = if base < PAGE_SLOTS { base } else { 0 };
        store.resize(base, (0, 0));
        store.extend_from_slice(pages);
        store.resize(store.len() + PAGE_SLOTS, (0, 0));
        self.store = store;
        self.base = base;
    }

    /// Writes `entry` to slot `i`, and with `Dk` records where its node now is.
    #[inline]
    fn place(slots: &mut [BHeapEntry], positions: &mut PositionTable, i: usize, entry: BHeapEntry) {
        slots[i] = entry;
        if S::DECREASE_KEY {
            positions.set(entry.1, i as u32);
        }
    }

    /// Moves `entry` up from the hole at `i` while its parent's key is larger.
    #[inline]
    fn sift_up(
        slots: &mut [BHeapEntry],
        positions: &mut PositionTable,
        mut i: usize,
        entry: BHeapEntry,
    ) {
        while i >= 2 {
            let parent = Layout::<B>::parent(i);
            let above = slots[parent];
            if above.0 <= entry.0 {
                break;
            }
            Self::place(slots, positions, i, above);
            i = parent;
        }
        Self::place(slots, positions, i, entry);
    }

    /// Moves `entry` down from the hole at `i` while a child's key is smaller.
    #[inline]
    fn sift_down(
        slots: &mut [BHeapEntry],
        positions: &mut PositionTable,
        mut i: usize,
        entry: BHeapEntry,
    ) {
        let len = slots.len();
        loop {
            let mut child = Layout::<B>::first_child(i);
            if child >= len {
                break;
            }
            // The smaller sibling picked by a branch, not a select (unlike heap_core): the
            // branch lets the CPU run ahead into the predicted child, where a select waits
            // for both keys. Measured (the hold model below, the page heap, 10⁵ entries,
            // random keys): 79 ns a pop and push with the branch, 146 ns with the select.
            let mut below = slots[child];
            if child + 1 < len && slots[child + 1].0 < below.0 {
                child += 1;
                below = slots[child];
            }
            if below.0 >= entry.0 {
                break;
            }
            Self::place(slots, positions, i, below);
            i = child;
        }
        Self::place(slots, positions, i, entry);
    }

    /// Checks every invariant; for tests.
    #[cfg(test)]
    fn check(&self) {
        assert!(self.base < PAGE_SLOTS);
        assert_eq!((self.store.len() - self.base) % PAGE_SLOTS, 0);
        assert!(self.len <= self.store.len() - self.base);
        for i in 2..self.len {
            let parent = Layout::<B>::parent(i);
            assert!(self.get(parent).0 <= self.get(i).0, "slot {i} is above its parent {parent}");
        }
        if S::DECREASE_KEY {
            let mut held = 0;
            for node in 0..self.capacity as Node {
                if let Some(slot) = self.positions.get(node) {
                    assert!((slot as usize) < self.len);
                    assert_eq!(self.get(slot as usize).1, node, "node {node} is not at {slot}");
                    held += 1;
                }
            }
            assert_eq!(held, self.len, "the position table holds other nodes");
        }
    }
}

impl<const B: usize, S: StrategyKind> Frontier for BHeap<B, S> {
    const FAMILY: Family = Family::BHeap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        let () = Layout::<B>::VALID;
        BHeap {
            store: Vec::new(),
            base: 0,
            len: 0,
            positions: PositionTable::for_strategy::<S>(spec.capacity),
            capacity: spec.capacity,
            strategy: PhantomData,
        }
    }

    #[inline(always)]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            if let Some(slot) = self.positions.get(node) {
                let slot = slot as usize;
                if key >= self.get(slot).0 {
                    return Ok(Pushed::Kept);
                }
                let (slots, positions) = self.parts();
                Self::sift_up(slots, positions, slot, (key, node));
                return Ok(Pushed::Decreased);
            }
        }
        if self.base + self.len == self.store.len() {
            self.grow();
        }
        let i = self.len;
        self.len += 1;
        let (slots, positions) = self.parts();
        Self::sift_up(slots, positions, i, (key, node));
        Ok(Pushed::Added)
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let len = self.len.checked_sub(1)?;
        self.len = len;
        let last = self.get(len);
        let top = if len < 2 {
            // One or two entries: `last` is the only one, or the second root.
            let first = self.get(0);
            if len == 0 || last.0 < first.0 {
                last
            } else {
                let (slots, positions) = self.parts();
                Self::place(slots, positions, 0, last);
                first
            }
        } else {
            // The smaller of the two roots; `last` fills the hole it leaves.
            let (first, second) = (self.get(0), self.get(1));
            let (root, top) = if second.0 < first.0 { (1, second) } else { (0, first) };
            let (slots, positions) = self.parts();
            Self::sift_down(slots, positions, root, last);
            top
        };
        if S::DECREASE_KEY {
            self.positions.remove(top.1);
        }
        Some((top.1, top.0))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            for i in 0..self.len {
                self.positions.remove(self.get(i).1);
            }
        }
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;
    use crate::{Dk, Dup};

    /// The layout built the slow way: blocks numbered breadth-first by walking the block
    /// tree with a queue, each block's exits handing out the next block numbers in order.
    /// Returns each slot's parent (`usize::MAX` for the two roots) for the first `n` slots.
    fn reference_parents<const B: usize>(n: usize) -> Vec<usize> {
        let mut parent = vec![usize::MAX; n];
        let mut next_block = 1;
        let mut queue = std::collections::VecDeque::from([0usize]);
        while let Some(block) = queue.pop_front() {
            let base = block * B;
            if base >= n {
                break;
            }
            for s in 0..B {
                if 2 * s + 3 < B {
                    for child in [2 * s + 2, 2 * s + 3] {
                        if base + child < n {
                            parent[base + child] = base + s;
                        }
                    }
                } else {
                    let child_base = next_block * B;
                    for child in [child_base, child_base + 1] {
                        if child < n {
                            parent[child] = base + s;
                        }
                    }
                    queue.push_back(next_block);
                    next_block += 1;
                }
            }
        }
        parent
    }

    fn layout_matches_the_reference<const B: usize>() {
        let n = 200_000;
        let reference = reference_parents::<B>(n);
        assert_eq!(reference[..2], [usize::MAX, usize::MAX]);
        for (i, &expected) in reference.iter().enumerate().skip(2) {
            let parent = Layout::<B>::parent(i);
            assert_eq!(parent, expected, "B = {B}: the parent of {i}");
            assert!(parent < i, "B = {B}: slot {i}'s parent {parent} is not below it");
            // Siblings are an even slot and the next one.
            assert_eq!(
                Layout::<B>::first_child(parent),
                i & !1,
                "B = {B}: the children of {parent}"
            );
            // A slot whose parent is in another block is a block root: blocks hold subtrees.
            if parent / B != i / B {
                assert!(i % B < 2, "B = {B}: {i} leaves its parent's block but is no root");
            }
        }
        // Every slot is the first child of at most one slot (the layout is a bijection);
        // with the parents above, the first n slots are a forest of the two roots.
        let mut seen = std::collections::HashSet::new();
        for i in 0..n {
            let child = Layout::<B>::first_child(i);
            assert!(child > i);
            assert!(seen.insert(child), "B = {B}: slot {child} has two parents");
        }
    }

    #[test]
    fn the_layout_matches_a_reference_built_breadth_first() {
        layout_matches_the_reference::<4>();
        layout_matches_the_reference::<8>();
        layout_matches_the_reference::<16>();
        layout_matches_the_reference::<64>();
        layout_matches_the_reference::<256>();
    }

    /// The depth of slot `i` below the virtual root (the roots have depth 1).
    fn depth<const B: usize>(mut i: usize) -> u32 {
        let mut depth = 1;
        while i >= 2 {
            i = Layout::<B>::parent(i);
            depth += 1;
        }
        depth
    }

    fn no_deeper_than_a_binary_heap_and_a_block<const B: usize>() {
        // A binary heap puts slot i at depth ⌊log₂(i + 1)⌋ + 1. Here blocks fill one at a
        // time, so a slot in a partly filled level of blocks sits up to a block's height
        // deeper (and the virtual root adds one level).
        let worst =
            (0..1 << 20).map(|i: usize| depth::<B>(i).saturating_sub((i + 1).ilog2() + 1)).max();
        assert!(worst <= Some(Layout::<B>::SHIFT + 2), "B = {B}: {worst:?} levels deeper");
    }

    #[test]
    fn the_tree_is_about_as_deep_as_a_binary_heap() {
        no_deeper_than_a_binary_heap_and_a_block::<4>();
        no_deeper_than_a_binary_heap_and_a_block::<16>();
        no_deeper_than_a_binary_heap_and_a_block::<256>();
    }

    /// A multiset of keys: the reference queue.
    #[derive(Default)]
    struct Multiset {
        counts: std::collections::BTreeMap<Key, usize>,
        len: usize,
    }

    impl Multiset {
        fn push(&mut self, key: Key) {
            *self.counts.entry(key).or_default() += 1;
            self.len += 1;
        }

        fn remove(&mut self, key: Key) {
            let count = self.counts.get_mut(&key).expect("the key is held");
            *count -= 1;
            if *count == 0 {
                self.counts.remove(&key);
            }
            self.len -= 1;
        }

        fn pop(&mut self) -> Option<Key> {
            let key = *self.counts.keys().next()?;
            self.remove(key);
            Some(key)
        }

        fn len(&self) -> usize {
            self.len
        }

        fn clear(&mut self) {
            self.counts.clear();
            self.len = 0;
        }
    }

    /// Random pushes, decrease-keys, pops and clears against a sorted reference, checking
    /// the invariants as it goes; enough entries to fill several pages.
    fn keeps_its_invariants<const B: usize, S: StrategyKind>() {
        let capacity = 3_000;
        let mut heap = BHeap::<B, S>::new(Spec { capacity, span: 0 });
        let mut next = xorshift(B as u64 + S::DECREASE_KEY as u64);
        // The model: the multiset of held keys, and with Dk the key of each held node.
        let mut model = Multiset::default();
        let mut held: Vec<Option<Key>> = vec![None; capacity];
        for round in 0..6 {
            for step in 0..20_000 {
                let pop = step % 3 == 0 && round % 2 == 0 || next().is_multiple_of(4);
                if pop {
                    let popped = heap.pop();
                    assert_eq!(popped.map(|(_, key)| key), model.pop());
                    if let Some((node, key)) = popped {
                        if S::DECREASE_KEY {
                            assert_eq!(held[node as usize].take(), Some(key));
                        }
                    }
                } else {
                    let node = (next() % capacity as u64) as Node;
                    let key = next() % 5_000;
                    let pushed = heap.push(node, key).unwrap();
                    match held[node as usize] {
                        Some(old) if S::DECREASE_KEY => {
                            if key < old {
                                assert_eq!(pushed, Pushed::Decreased);
                                model.remove(old);
                                model.push(key);
                                held[node as usize] = Some(key);
                            } else {
                                assert_eq!(pushed, Pushed::Kept);
                            }
                        }
                        _ => {
                            assert_eq!(pushed, Pushed::Added);
                            model.push(key);
                            held[node as usize] = Some(key);
                        }
                    }
                }
                assert_eq!(heap.len(), model.len());
                if step % 997 == 0 {
                    heap.check();
                }
            }
            heap.check();
            if round % 3 == 2 {
                heap.clear();
                model.clear();
                held.fill(None);
                heap.check();
            }
        }
        while let Some((_, key)) = heap.pop() {
            assert_eq!(Some(key), model.pop());
        }
        assert_eq!(model.len(), 0);
        heap.check();
    }

    #[test]
    fn keeps_its_invariants_with_every_block_size() {
        keeps_its_invariants::<4, Dup>();
        keeps_its_invariants::<4, Dk>();
        keeps_its_invariants::<16, Dup>();
        keeps_its_invariants::<16, Dk>();
        keeps_its_invariants::<256, Dup>();
        keeps_its_invariants::<256, Dk>();
    }

    #[test]
    fn degenerate_shapes() {
        // Ascending, descending and equal keys, past several pages; clear keeps the pages.
        let n = 5 * PAGE_SLOTS as u32 + 7;
        let mut heap = BHeap::<256, Dk>::new(Spec { capacity: n as usize, span: 0 });
        for keys in [
            (0..n).map(u64::from).collect::<Vec<_>>(),
            (0..n).rev().map(u64::from).collect(),
            vec![u64::MAX; n as usize],
        ] {
            for (node, &key) in keys.iter().enumerate() {
                heap.push(node as Node, key).unwrap();
            }
            heap.check();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            let popped: Vec<Key> = std::iter::from_fn(|| heap.pop()).map(|(_, key)| key).collect();
            assert_eq!(popped, sorted);
            heap.check();
        }
        let store = heap.store.as_ptr();
        for node in 0..n {
            heap.push(node, 1).unwrap();
        }
        heap.clear();
        heap.check();
        assert_eq!(heap.store.as_ptr(), store, "clear keeps the allocation");
        assert_eq!(heap.store.as_ptr().align_offset(PAGE_BYTES), heap.base, "slot 0 is aligned");
        assert_eq!(heap.pop(), None);
    }
}

/// The measurement that chose the block size: not run by `cargo test`. Run it with
/// `cargo test -p pqlab-queues --release --lib b_heap::measure -- --ignored --nocapture`
/// (`PQLAB_SIZES=100000,1000000` to pick frontier sizes, `PQLAB_QUEUES=b256-dup,dary4-dup`
/// to pick queues, `PQLAB_RUNS=3` for repetitions, `PQLAB_OPS=1000000` rounds a run).
#[cfg(test)]
mod measure {
    use std::hint::black_box;
    use std::time::Duration;

    use super::BHeap;
    use crate::dary_heap::DaryHeap;
    use crate::std_binary_heap::StdBinaryHeap;
    use crate::testing::xorshift;
    use crate::{Dk, Dup, Frontier, Key, Node, Spec};

    /// This thread's CPU time (from `/proc/thread-self/schedstat`): the machine is shared,
    /// and wall time counts the other processes' turns. It advances in scheduler ticks
    /// (4 ms here), so a run should last well over that: 10⁶ rounds take 50 ms or more.
    fn cpu_time() -> Duration {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
        Duration::from_nanos(stat.split(' ').next().unwrap().parse().unwrap())
    }

    /// The hold model: `n` entries pushed (untimed), then `ops` rounds of a pop and a
    /// push of the popped node, timed. `step` 0: the new key is random (uniform over
    /// `u64`); otherwise it is the popped key plus a uniform increment below `step`, as an
    /// A* pushes a child a little above its parent.
    fn hold<F: Frontier>(n: usize, ops: usize, step: u64) -> (Duration, u64) {
        let mut queue = F::new(Spec { capacity: n, span: 0 });
        let mut next = xorshift(n as u64 ^ step);
        for node in 0..n {
            let key = if step == 0 { next() } else { next() % (step * 64) };
            queue.push(node as Node, key).unwrap();
        }
        let mut checksum = 0;
        let start = cpu_time();
        for _ in 0..ops {
            let (node, key) = queue.pop().unwrap();
            checksum ^= key;
            let key: Key = if step == 0 { next() } else { key + next() % step };
            queue.push(node, key).unwrap();
        }
        let elapsed = cpu_time() - start;
        black_box(&queue);
        (elapsed, checksum)
    }

    type Run = fn(usize, usize, u64) -> (Duration, u64);

    const QUEUES: &[(&str, Run)] = &[
        ("std-dup", hold::<StdBinaryHeap>),
        ("b4-dup", hold::<BHeap<4, Dup>>),
        ("b8-dup", hold::<BHeap<8, Dup>>),
        ("b16-dup", hold::<BHeap<16, Dup>>),
        ("b64-dup", hold::<BHeap<64, Dup>>),
        ("b256-dup", hold::<BHeap<256, Dup>>),
        ("dary2-dup", hold::<DaryHeap<2, Dup>>),
        ("dary4-dup", hold::<DaryHeap<4, Dup>>),
        ("dary8-dup", hold::<DaryHeap<8, Dup>>),
        ("b4-dk", hold::<BHeap<4, Dk>>),
        ("b8-dk", hold::<BHeap<8, Dk>>),
        ("b16-dk", hold::<BHeap<16, Dk>>),
        ("b64-dk", hold::<BHeap<64, Dk>>),
        ("b256-dk", hold::<BHeap<256, Dk>>),
        ("dary2-dk", hold::<DaryHeap<2, Dk>>),
        ("dary4-dk", hold::<DaryHeap<4, Dk>>),
        ("dary8-dk", hold::<DaryHeap<8, Dk>>),
    ];

    fn list(var: &str, default: &str) -> Vec<String> {
        std::env::var(var).unwrap_or(default.into()).split(',').map(str::to_owned).collect()
    }

    #[test]
    #[ignore = "a measurement, minutes long: run it with --release --ignored --nocapture"]
    fn block_sizes() {
        let sizes: Vec<usize> = list("PQLAB_SIZES", "100000,1000000,10000000")
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let wanted = list("PQLAB_QUEUES", "");
        let runs: usize = std::env::var("PQLAB_RUNS").map_or(3, |r| r.parse().unwrap());
        let ops: usize = std::env::var("PQLAB_OPS").map_or(1_000_000, |o| o.parse().unwrap());
        let queues: Vec<_> = QUEUES
            .iter()
            .filter(|(id, _)| wanted == [""] || wanted.iter().any(|w| w == id))
            .collect();
        for step in [0, 1000] {
            for &n in &sizes {
                // Interleaved: every queue once per run, the best run kept.
                let mut best = vec![Duration::MAX; queues.len()];
                let mut checksum = None;
                for _ in 0..runs {
                    for (q, (id, run)) in queues.iter().enumerate() {
                        let (time, sum) = run(n, ops, step);
                        best[q] = best[q].min(time);
                        // Every exact queue pops the same keys in the same order.
                        assert_eq!(*checksum.get_or_insert(sum), sum, "{id} popped other keys");
                    }
                }
                for (q, (id, _)) in queues.iter().enumerate() {
                    let ns = best[q].as_secs_f64() * 1e9 / ops as f64;
                    println!("step {step:>4} n {n:>9} {id:>10} {ns:7.1} ns per pop+push");
                }
            }
        }
    }
}
