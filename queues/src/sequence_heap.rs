//! Our sequence heap (Peter Sanders, "Fast priority queues for cached memory", ACM JEA 5,
//! 2000), with duplicate insertion: a small insertion heap in front of groups of sorted
//! runs, each group read through a k-way loser tree into a group buffer, and a deletion
//! buffer fed by a merge of the group buffers. Nearly every access is a sequential scan of
//! a sorted run, so a large frontier costs cache lines read in order instead of a binary
//! heap's scattered ones.
//!
//! | operation | duplicates |
//! |---|---|
//! | push | O(log m) into the insertion heap, plus amortized O(log n) to sort it into a run and merge that run up through the groups ¹ |
//! | pop | O(log m) from the insertion heap or O(1) from the deletion buffer, plus amortized O(R) to refill that buffer |
//! | clear | O(k) per group in use: at most O(pushes since the last clear) |
//!
//! `m` = [`INSERTION`], `k` = [`MERGE_DEGREE`], `R` the groups in use (1 up to `m k`
//! entries, 3 at 10⁷). ¹ Each entry is sorted once (log₂ m comparisons) and passes
//! through one loser tree per group it reaches (log₂ k each, about log_k(n / m) groups).
//! A single push can merge whole groups: O(n) at worst, once every `m k^g` pushes for
//! group `g`.
//!
//! No decrease-key variant: entries move between runs and buffers in bulk, and a node's
//! place is never kept (that would cost a table write per entry moved).
//!
//! # How it works
//!
//! * **Insertion heap**: a d-ary heap of at most `m` entries takes every push. When it is
//!   full, it is sorted and merged with the deletion buffer and group 0's buffer (which
//!   hold the smallest entries outside it): the smallest go back to the deletion buffer,
//!   the next to the group buffer, as many as each held, and the rest become a new run
//!   of group 0.
//! * **Groups** `0..R`: group `g` holds at most `k` sorted runs, merged by a loser tree
//!   (a tournament over the runs' heads, log₂ k comparisons per entry out) into its
//!   group buffer of at most [`GROUP_BUFFER`] entries, refilled when it runs empty. Runs
//!   of group `g` hold about `m k^g` entries. When group 0 must take a run and is full,
//!   the first group `j` that is not full is found, and for `g = j - 1` down to 0 all of
//!   group `g`'s runs are merged into one run of group `g + 1` (merged on the way with
//!   group `g + 1`'s buffer, as the insertion heap is merged with group 0's).
//! * **Deletion buffer**: at most [`DELETION_BUFFER`] smallest entries outside the
//!   insertion heap, refilled when empty from the group buffers: the group with the
//!   smallest head gives, in one copy, its entries up to the next group's head.
//! * **Pop** takes the smaller of the insertion heap's minimum and the deletion buffer's
//!   head.
//!
//! Invariants (the tests' `check` asserts them after every operation):
//! 1. every entry in group `g`'s buffer is at most every entry in group `g`'s runs;
//! 2. every entry in the deletion buffer is at most every entry in every group (buffers
//!    and runs);
//! 3. each run, group buffer and the deletion buffer is sorted and ends with a sentinel
//!    entry of key `u64::MAX`, which no entry held in them has; a group holds at most `k`
//!    non-empty runs.
//!
//! So the deletion buffer's head is the smallest entry outside the insertion heap, and
//! while it is empty the group buffers' heads are their groups' smallest entries.
//!
//! Storage: each group owns `k` run vectors and its buffer, reused for the life of the
//! queue (a run is written into the slot of one that ran empty), so after warm-up nothing
//! is allocated; nothing recurses.
//!
//! Keys: any. Ties: unspecified but deterministic: a pop takes the deletion buffer's
//! head unless the insertion heap's minimum is smaller (the heap's own order is a d-ary
//! heap's); merges take the earlier source on equal keys (the deletion and group buffers
//! before a new run, a loser tree's incumbent before a challenger, lower groups first);
//! entries with key `u64::MAX` pop after all others, newest first.
//!
//! # Deviations from the paper
//!
//! * Keys are `u64` and the sentinel is `u64::MAX`, so entries with that key never enter
//!   the structure: they wait on a stack and pop after every other entry.
//! * The insertion heap is 8-ary ([`INSERTION_ARITY`]), not binary.
//! * When group `g` is emptied into group `g + 1`, Sanders' code (`knheap`) turns the
//!   group buffers of the groups it touched, now invalid, into runs of group 0; here group
//!   `g`'s buffer stays (it is still at most group `g`'s runs, of which there are none)
//!   and group `g + 1`'s buffer is merged with the new run, which keeps invariant 1.
//! * The deletion buffer is refilled only when empty, by block copies from the group
//!   with the smallest head (the paper merges the group buffers with a 2- to 4-way merge,
//!   a copy for one group), and a group buffer only when empty (not topped up).
//! * A loser tree is rebuilt (O(k)) at its group's next refill after a run was added,
//!   instead of taking the run in place.
//! * Runs, buffers and groups grow as needed; the paper sizes them once, for a fixed
//!   number of groups.
//!
//! Should win: large frontiers, beyond the caches. Sanders measured it at least twice as
//! fast as binary and 4-ary heaps on large inputs. Here (`measure::against_heaps`, see
//! [`INSERTION`] for the setup; ns per step, workload bookkeeping included, against our
//! `dary2-dup`, `dary4-dup` and `std`'s `BinaryHeap`): held frontiers of 10⁶ entries 60
//! against 129, 102 and 135; of 10⁷, 72 against 154, 121 and 162; 10⁶ random keys pushed
//! then popped 76 against 168, 152 and 207 per pair, 10⁷ 113 against 395, 739 and 900.
//! At 10³ to 10⁵ held entries it ties the 4-ary heap (30, 28, 38 against 29, 36, 52) and
//! beats the binary ones. On small frontiers it is an `m`-entry 8-ary heap plus one
//! comparison with the deletion buffer's head.
//!
//! ```
//! use pqlab_queues::{sequence_heap::SequenceHeap, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = SequenceHeap::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use crate::heap_core::HeapCore;
use crate::{
    check_node, Dup, Family, Frontier, Key, KeyRule, Node, Origin, PositionTable, PushError,
    Pushed, Spec, Strategy, Ties,
};

/// `m`: the insertion heap's size, and so the length of group 0's runs.
///
/// Measured with `measure::parameters` (thread CPU time, best of 3 interleaved rounds on
/// this shared 2-core machine, 48 KiB L1d and 2 MiB L2 a core; noise about ±5%): on the
/// held frontiers of the lab's synthetic workload (`measure::hold`: pop, push a grid
/// step above, 20% extra pushes lowering a held node), 1024 against 512 (Sanders' value)
/// took 66 to 69 against 71 to 77 ns a step at 10⁶ entries and 71 to 76 against 83 to 91
/// at 10⁷, tied at 10⁴ and 10⁵ (30 and 38 ns), and cost 2 ns more at 10³ (32 against 30:
/// a thousand entries all sit in the heap); on 10⁶ and 10⁷ random keys pushed then
/// popped, within 5%. 256 was up to 12% slower at 10⁴; 2048 no better than 1024.
pub const INSERTION: usize = 1024;
/// `k`: runs per group, merged by one loser tree (a power of two).
///
/// Measured as [`INSERTION`] (m = 1024): 32, 64 and 128 tie up to 10⁵ entries; at 10⁶
/// held entries 64 took 66 ns a step against 74 (32) and 68 (128), at 10⁷ 76 against 92
/// and 96; on random keys all three are within the noise. 64 is also Sanders' value: 64
/// runs' current cache lines (4 KiB) stay in L1.
pub const MERGE_DEGREE: usize = 64;
/// Entries a group buffer holds after a refill.
///
/// Measured as [`INSERTION`]: 64 to 1024 all within the noise; 512 (Sanders' value, his
/// `m`) kept.
pub const GROUP_BUFFER: usize = 512;
/// Entries the deletion buffer holds after a refill.
///
/// Measured as [`INSERTION`]: 8 to 128 all within the noise; 32 (Sanders' value) kept.
pub const DELETION_BUFFER: usize = 32;
/// Children per entry in the insertion heap.
///
/// Measured with `measure::against_heaps` (m = 512, held frontiers of 10³, 10⁴, 10⁵
/// entries, best of 5 interleaved runs): 2 took 43, 38 and 48 ns a step, 4 took 33, 32
/// and 42, 8 took 30, 29 and 37 to 40, 16 took 30, 29 and 37 to 39. Under callgrind 8
/// ran the fewest instructions (441, 419 and 488 a step against 472, 452 and 528 for 2
/// and 468, 426 for 16): pops from the heap are frequent, and a shallow heap sifts less.
pub const INSERTION_ARITY: usize = 8;

/// The sequence heap with the measured parameters.
pub type SequenceHeap = SequenceHeapWith<INSERTION, MERGE_DEGREE, GROUP_BUFFER, DELETION_BUFFER>;

type SeqEntry = (Key, Node);

/// Ends every run and buffer: no entry held in one has this key.
const SENTINEL: SeqEntry = (Key::MAX, 0);

/// A sorted run read from `head`, ending in [`SENTINEL`].
#[derive(Clone, Debug)]
struct SeqRun {
    data: Vec<SeqEntry>,
    head: usize,
}

impl SeqRun {
    fn new() -> SeqRun {
        SeqRun { data: vec![SENTINEL], head: 0 }
    }

    /// The first unread key; `Key::MAX` when the run is empty.
    #[inline]
    fn head_key(&self) -> Key {
        self.data[self.head].0
    }

    /// Unread entries.
    #[inline]
    fn len(&self) -> usize {
        self.data.len() - 1 - self.head
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.head + 1 == self.data.len()
    }

    /// Reads the first unread entry; the run must not be empty.
    #[inline]
    fn take(&mut self) -> SeqEntry {
        let entry = self.data[self.head];
        self.head += 1;
        entry
    }

    /// The unread entries.
    fn unread(&self) -> &[SeqEntry] {
        &self.data[self.head..self.data.len() - 1]
    }

    /// Empties the run for rewriting, without its sentinel: the writer pushes entries in
    /// order, then [`SeqRun::seal`].
    #[inline]
    fn open(&mut self) {
        self.data.clear();
        self.head = 0;
    }

    /// [`SeqRun::open`], with room for `n` entries and the sentinel. A run too small is
    /// replaced, not grown: growing would copy its old, dead entries.
    fn open_for(&mut self, n: usize) {
        if self.data.capacity() < n + 1 {
            self.data = Vec::with_capacity(n + 1);
        }
        self.open();
    }

    #[inline]
    fn seal(&mut self) {
        self.data.push(SENTINEL);
    }

    fn clear(&mut self) {
        self.open();
        self.seal();
    }
}

/// Up to `K` runs, a loser tree over their heads, and the group buffer it fills.
#[derive(Clone, Debug)]
struct SeqGroup<const K: usize> {
    /// Slot `i` is leaf `i` of the tree; an empty run is a free slot.
    runs: [SeqRun; K],
    /// `tree[0]` is the winner (smallest head, as key and leaf); `tree[i]` for `i` in
    /// `1..K` the loser at internal node `i` (children `2i`, `2i + 1`; leaves at `K..2K`).
    /// Valid unless `stale`.
    tree: [(Key, u32); K],
    /// Scratch for rebuilding: the winner of each subtree.
    winners: Vec<(Key, u32)>,
    /// A run was added since the tree was built.
    stale: bool,
    /// Entries in the runs.
    held: usize,
    /// Non-empty runs.
    live: usize,
    buffer: SeqRun,
}

impl<const K: usize> SeqGroup<K> {
    fn new() -> Self {
        SeqGroup {
            runs: std::array::from_fn(|_| SeqRun::new()),
            tree: [SENTINEL; K],
            winners: vec![SENTINEL; 2 * K],
            stale: true,
            held: 0,
            live: 0,
            buffer: SeqRun::new(),
        }
    }

    /// Builds the loser tree over the runs' heads. O(K).
    fn rebuild(&mut self) {
        for (leaf, run) in self.runs.iter().enumerate() {
            self.winners[K + leaf] = (run.head_key(), leaf as u32);
        }
        for node in (1..K).rev() {
            let (a, b) = (self.winners[2 * node], self.winners[2 * node + 1]);
            let (winner, loser) = if b.0 < a.0 { (b, a) } else { (a, b) };
            self.winners[node] = winner;
            self.tree[node] = loser;
        }
        self.tree[0] = self.winners[1];
        self.stale = false;
    }

    /// The smallest head of the runs (`Key::MAX` when all are empty); the tree is fresh.
    #[inline]
    fn tree_key(&self) -> Key {
        debug_assert!(!self.stale);
        self.tree[0].0
    }

    /// Takes the smallest entry of the runs (some run is non-empty; the tree is fresh),
    /// and replays its leaf's path: `log₂ K` comparisons.
    #[inline]
    fn next(&mut self) -> SeqEntry {
        debug_assert!(!self.stale && self.held > 0);
        // Masked, so the indices below provably stay in their arrays.
        let leaf = self.tree[0].1 as usize & (K - 1);
        let run = &mut self.runs[leaf];
        let entry = run.take();
        let mut rising = (run.head_key(), leaf as u32);
        self.live -= usize::from(rising.0 == Key::MAX);
        self.held -= 1;
        let mut node = (leaf + K) / 2;
        while node > 0 {
            let there = self.tree[node];
            // By selects, not branches: which run wins is a coin toss. The incumbent
            // keeps its place on equal keys.
            let up = there.0 < rising.0;
            self.tree[node] = if up { rising } else { there };
            rising = if up { there } else { rising };
            node /= 2;
        }
        self.tree[0] = rising;
        entry
    }

    /// The smaller of `a[*i]` and the runs' smallest entry, taken (`a` first on equal
    /// keys); `a` is sorted and ends in a sentinel, the tree is fresh, and one of the two
    /// holds an entry.
    #[inline]
    fn merged_with(&mut self, a: &[SeqEntry], i: &mut usize) -> SeqEntry {
        let entry = a[*i];
        if entry.0 <= self.tree_key() {
            *i += 1;
            entry
        } else {
            self.next()
        }
    }

    /// Refills the empty buffer with up to `G` entries from the runs.
    fn refill_buffer<const G: usize>(&mut self) {
        debug_assert!(self.buffer.is_empty());
        if self.stale {
            self.rebuild();
        }
        self.buffer.open();
        for _ in 0..G.min(self.held) {
            let entry = self.next();
            self.buffer.data.push(entry);
        }
        self.buffer.seal();
    }

    /// A slot whose run is empty (the group holds fewer than `K` runs).
    fn free_slot(&self) -> usize {
        debug_assert!(self.live < K);
        self.runs
            .iter()
            .position(SeqRun::is_empty)
            .expect("a group that is not full has a free slot")
    }

    /// Records a run just written into `slot`, `len` entries long.
    fn added(&mut self, len: usize) {
        self.held += len;
        self.live += 1;
        self.stale = true;
    }

    fn clear(&mut self) {
        for run in &mut self.runs {
            if run.data.len() > 1 {
                run.clear();
            }
        }
        self.buffer.clear();
        self.held = 0;
        self.live = 0;
        self.stale = true;
    }
}

/// Appends to `out` the next `n` entries of the merge of two sorted sources ending in
/// sentinels, `a` read from `*i` and `b` from `*j` (together they hold at least `n`
/// entries before their sentinels). On equal keys `a` goes first.
#[inline]
fn merge_two(
    a: &[SeqEntry],
    i: &mut usize,
    b: &[SeqEntry],
    j: &mut usize,
    out: &mut Vec<SeqEntry>,
    n: usize,
) {
    let start = out.len();
    out.resize(start + n, SENTINEL);
    let (mut x, mut y) = (*i, *j);
    for slot in &mut out[start..] {
        let (from_a, from_b) = (a[x], b[y]);
        // By selects: merged runs interleave unpredictably.
        let take_a = from_a.0 <= from_b.0;
        *slot = if take_a { from_a } else { from_b };
        x += usize::from(take_a);
        y += usize::from(!take_a);
    }
    (*i, *j) = (x, y);
}

/// A min-first sequence heap with duplicate insertion: see the [module](self) for the
/// design. The parameters are [`INSERTION`] (`M`), [`MERGE_DEGREE`] (`K`),
/// [`GROUP_BUFFER`] (`G`) and [`DELETION_BUFFER`] (`D`); other values exist for the
/// measurements that chose them.
///
/// Invariants: those of the [module](self); `groups[..active]` are in use and the rest
/// empty; `grouped` counts the entries in the groups' runs and buffers, and `len` every
/// entry held (insertion heap, deletion buffer, groups, `maxed`).
#[derive(Debug)]
pub struct SequenceHeapWith<const M: usize, const K: usize, const G: usize, const D: usize> {
    insertion: HeapCore<INSERTION_ARITY, Dup>,
    /// Never touched: the heap core's slot table, which duplicate heaps do not keep.
    no_slots: PositionTable,
    deletion: SeqRun,
    groups: Vec<SeqGroup<K>>,
    active: usize,
    grouped: usize,
    /// The nodes of entries with key `u64::MAX` (the sentinel's key), newest last.
    maxed: Vec<Node>,
    len: usize,
    capacity: usize,
    /// Scratch: the insertion heap sorted, then the deletion and group buffers' entries.
    sorted: Vec<SeqEntry>,
    buffered: Vec<SeqEntry>,
}

impl<const M: usize, const K: usize, const G: usize, const D: usize> SequenceHeapWith<M, K, G, D> {
    /// Moves the full insertion heap into group 0, merged with the deletion buffer and
    /// group 0's buffer (invariants 1 and 2). Out of line: once every `M` pushes.
    #[inline(never)]
    fn flush(&mut self) {
        self.make_room();
        self.sorted.clear();
        self.sorted.extend_from_slice(self.insertion.entries());
        self.sorted.sort_unstable_by_key(|entry| entry.0);
        self.sorted.push(SENTINEL);
        self.insertion.clear();
        let group = &mut self.groups[0];
        // The deletion buffer's entries are at most group 0's buffer's (invariant 2), so
        // the two side by side are sorted.
        self.buffered.clear();
        self.buffered.extend_from_slice(self.deletion.unread());
        self.buffered.extend_from_slice(group.buffer.unread());
        self.buffered.push(SENTINEL);
        let (to_deletion, to_buffer) = (self.deletion.len(), group.buffer.len());
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.buffered[..], &self.sorted[..]);
        self.deletion.open();
        merge_two(a, &mut i, b, &mut j, &mut self.deletion.data, to_deletion);
        self.deletion.seal();
        group.buffer.open();
        merge_two(a, &mut i, b, &mut j, &mut group.buffer.data, to_buffer);
        group.buffer.seal();
        let slot = group.free_slot();
        let run = &mut group.runs[slot];
        run.open_for(M);
        merge_two(a, &mut i, b, &mut j, &mut run.data, M);
        run.seal();
        group.added(M);
        self.grouped += M;
    }

    /// Makes sure group 0 has a free slot: empties the full groups below the first that
    /// is not full, each into the next.
    fn make_room(&mut self) {
        let mut first = 0;
        while first < self.active && self.groups[first].live == K {
            first += 1;
        }
        if first == self.active {
            if self.active == self.groups.len() {
                self.groups.push(SeqGroup::new());
            }
            self.active += 1;
        }
        for g in (0..first).rev() {
            self.move_up(g);
        }
    }

    /// Merges every run of group `g` into one run of group `g + 1`, merged on the way
    /// with group `g + 1`'s buffer (invariant 1): the smallest refill that buffer, the
    /// rest form the run. SeqGroup `g` keeps its own buffer (it has no runs left).
    fn move_up(&mut self, g: usize) {
        let (below, above) = self.groups.split_at_mut(g + 1);
        let (source, target) = (&mut below[g], &mut above[0]);
        if source.stale {
            source.rebuild();
        }
        self.buffered.clear();
        self.buffered.extend_from_slice(target.buffer.unread());
        self.buffered.push(SENTINEL);
        let to_buffer = target.buffer.len();
        let to_run = source.held;
        let (a, mut i) = (&self.buffered[..], 0);
        target.buffer.open();
        for _ in 0..to_buffer {
            let entry = source.merged_with(a, &mut i);
            target.buffer.data.push(entry);
        }
        target.buffer.seal();
        let slot = target.free_slot();
        let run = &mut target.runs[slot];
        run.open_for(to_run);
        for _ in 0..to_run {
            let entry = source.merged_with(a, &mut i);
            run.data.push(entry);
        }
        run.seal();
        target.added(to_run);
        debug_assert!(source.held == 0 && source.live == 0);
    }

    /// Refills the empty deletion buffer with up to `D` entries: the groups' smallest,
    /// merged from their buffers (each refilled from its runs when it runs empty). Out of
    /// line: once every `D` pops from the deletion buffer.
    #[inline(never)]
    fn refill_deletion(&mut self) {
        debug_assert!(self.deletion.is_empty());
        let groups = &mut self.groups[..self.active];
        for group in groups.iter_mut() {
            if group.buffer.is_empty() && group.held > 0 {
                group.refill_buffer::<G>();
            }
        }
        self.deletion.open();
        let n = D.min(self.grouped);
        let mut left = n;
        while left > 0 {
            // The group with the smallest head, and the smallest head of the others: the
            // first group's entries up to that key go over in one copy.
            let (mut best, mut first, mut second) = (0, Key::MAX, Key::MAX);
            for (g, group) in groups.iter().enumerate() {
                let key = group.buffer.head_key();
                if key < first {
                    (best, first, second) = (g, key, first);
                } else if key < second {
                    second = key;
                }
            }
            let buffer = &mut groups[best].buffer;
            let unread = &buffer.data[buffer.head..buffer.data.len() - 1];
            let most = left.min(unread.len());
            let count = if second == Key::MAX {
                most
            } else {
                unread[..most].iter().position(|entry| entry.0 > second).unwrap_or(most)
            };
            self.deletion.data.extend_from_slice(&unread[..count]);
            buffer.head += count;
            left -= count;
            let group = &mut groups[best];
            if group.buffer.is_empty() && group.held > 0 {
                group.refill_buffer::<G>();
            }
        }
        self.deletion.seal();
        self.grouped -= n;
    }
}

impl<const M: usize, const K: usize, const G: usize, const D: usize> Frontier
    for SequenceHeapWith<M, K, G, D>
{
    const FAMILY: Family = Family::SequenceHeap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        const {
            assert!(K >= 2 && K.is_power_of_two(), "the merge degree is a power of two, >= 2");
            assert!(M >= 1 && G >= 1 && D >= 1, "every buffer holds an entry");
        };
        SequenceHeapWith {
            insertion: HeapCore::new(),
            no_slots: PositionTable::default(),
            deletion: SeqRun::new(),
            groups: Vec::new(),
            active: 0,
            grouped: 0,
            maxed: Vec::new(),
            len: 0,
            capacity: spec.capacity,
            sorted: Vec::new(),
            buffered: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if key == Key::MAX {
            self.maxed.push(node);
        } else {
            if self.insertion.len() == M {
                self.flush();
            }
            self.insertion.push((key, node), &mut self.no_slots);
        }
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.deletion.is_empty() && self.grouped > 0 {
            self.refill_deletion();
        }
        let head = self.deletion.head_key();
        let (key, node) = if !self.insertion.is_empty() && self.insertion.key(0) < head {
            self.insertion.pop(&mut self.no_slots)?
        } else if head != Key::MAX {
            self.deletion.take()
        } else {
            (Key::MAX, self.maxed.pop()?)
        };
        self.len -= 1;
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        self.insertion.clear();
        self.deletion.clear();
        for group in &mut self.groups[..self.active] {
            group.clear();
        }
        self.active = 0;
        self.grouped = 0;
        self.maxed.clear();
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;

    fn is_sorted(entries: &[SeqEntry]) -> bool {
        entries.windows(2).all(|pair| pair[0].0 <= pair[1].0)
    }

    /// The smallest unread key of `run`, `Key::MAX` when empty; `run` is well formed.
    fn checked_run(run: &SeqRun, most: usize, what: &str) -> Key {
        assert_eq!(run.data.last(), Some(&SENTINEL), "{what}: no sentinel");
        assert!(run.head < run.data.len(), "{what}: read past its sentinel");
        assert!(run.unread().iter().all(|e| e.0 != Key::MAX), "{what}: holds the sentinel key");
        assert!(is_sorted(run.unread()), "{what}: not sorted");
        assert!(run.len() <= most, "{what}: {} entries, over {most}", run.len());
        run.head_key()
    }

    impl<const M: usize, const K: usize, const G: usize, const D: usize> SequenceHeapWith<M, K, G, D> {
        /// Asserts every invariant of the module and of the type.
        fn check(&self) {
            let heap = self.insertion.entries();
            assert!(heap.len() <= M);
            assert!(heap.iter().all(|e| e.0 != Key::MAX), "the sentinel key in the heap");
            let deletion_head = checked_run(&self.deletion, D, "deletion buffer");
            let deletion_last = self.deletion.unread().last().map_or(0, |e| e.0);
            assert!(self.active <= self.groups.len());
            let mut grouped = 0;
            for (g, group) in self.groups.iter().enumerate() {
                let buffer_head = checked_run(&group.buffer, G.max(D), &format!("buffer {g}"));
                let mut held = 0;
                let mut live = 0;
                let mut runs_min = Key::MAX;
                for (slot, run) in group.runs.iter().enumerate() {
                    let head = checked_run(run, usize::MAX, &format!("group {g} run {slot}"));
                    runs_min = runs_min.min(head);
                    held += run.len();
                    live += usize::from(!run.is_empty());
                }
                assert_eq!(held, group.held, "group {g}: entries in runs");
                assert_eq!(live, group.live, "group {g}: non-empty runs");
                assert!(live <= K);
                if g >= self.active {
                    assert!(held == 0 && group.buffer.is_empty(), "unused group {g} holds");
                    continue;
                }
                if !group.stale {
                    assert_eq!(group.tree_key(), runs_min, "group {g}: loser tree's winner");
                    let leaf = group.tree[0].1 as usize;
                    assert_eq!(group.runs[leaf].head_key(), runs_min, "group {g}: winner leaf");
                }
                let buffer_last = group.buffer.unread().last().map_or(0, |e| e.0);
                assert!(buffer_last <= runs_min, "invariant 1 broken in group {g}");
                assert!(deletion_last <= buffer_head.min(runs_min), "invariant 2, group {g}");
                grouped += held + group.buffer.len();
            }
            assert_eq!(grouped, self.grouped);
            let len = heap.len() + self.deletion.len() + grouped + self.maxed.len();
            assert_eq!(len, self.len);
            let _ = deletion_head;
        }
    }

    /// Random pushes, pops and clears against a sorted reference, checking the invariants
    /// after every operation: on tiny parameters, so runs cascade through many groups.
    fn matches_a_sorted_reference<
        const M: usize,
        const K: usize,
        const G: usize,
        const D: usize,
    >(
        seed: u64,
        range: u64,
    ) -> usize {
        let mut heap = SequenceHeapWith::<M, K, G, D>::new(Spec { capacity: 1000, span: 0 });
        let mut reference: Vec<Key> = Vec::new();
        let mut next = xorshift(seed);
        let mut most_groups = 0;
        for step in 0..30_000 {
            let roll = next() % 100;
            // Phases that grow and shrink the queue, so it passes through every size.
            let push_share = if (step / 3_000) % 2 == 0 { 70 } else { 35 };
            if roll < push_share {
                let key = match next() % 20 {
                    0 => Key::MAX,
                    1 => Key::MAX - 1,
                    _ => next() % range,
                };
                let node = (next() % 1000) as Node;
                assert_eq!(heap.push(node, key), Ok(Pushed::Added));
                reference.push(key);
            } else if roll < 99 || !next().is_multiple_of(16) {
                reference.sort_unstable_by(|a, b| b.cmp(a));
                let expected = reference.pop();
                assert_eq!(heap.pop().map(|(_, key)| key), expected, "step {step}");
            } else {
                heap.clear();
                reference.clear();
            }
            assert_eq!(heap.len(), reference.len());
            heap.check();
            most_groups = most_groups.max(heap.active);
        }
        reference.sort_unstable_by(|a, b| b.cmp(a));
        while let Some(expected) = reference.pop() {
            assert_eq!(heap.pop().map(|(_, key)| key), Some(expected));
        }
        assert_eq!(heap.pop(), None);
        heap.check();
        most_groups
    }

    /// The most groups in use: the runs cascade through many.
    #[test]
    fn tiny_parameters_match_a_sorted_reference() {
        assert!(matches_a_sorted_reference::<1, 2, 1, 1>(1, 1_000) >= 8);
        assert!(matches_a_sorted_reference::<4, 2, 3, 2>(2, 1_000) >= 6);
        assert!(matches_a_sorted_reference::<4, 2, 3, 2>(3, 4) >= 6);
        assert!(matches_a_sorted_reference::<8, 4, 2, 5>(4, u64::MAX) >= 3);
        assert!(matches_a_sorted_reference::<16, 8, 16, 16>(5, 100) >= 2);
    }

    #[test]
    fn the_measured_parameters_match_a_sorted_reference() {
        matches_a_sorted_reference::<INSERTION, MERGE_DEGREE, GROUP_BUFFER, DELETION_BUFFER>(
            6, 1_000_000,
        );
    }

    /// 1, 2 and 17 entries: the A* uses the queue on every frontier size.
    #[test]
    fn tiny_frontiers() {
        let mut heap = SequenceHeap::new(Spec { capacity: 32, span: 0 });
        for n in [1u32, 2, 17] {
            for node in 0..n {
                heap.push(node, Key::from((node * 7) % n)).unwrap();
            }
            heap.check();
            let keys: Vec<Key> = std::iter::from_fn(|| heap.pop()).map(|(_, key)| key).collect();
            assert_eq!(keys, (0..Key::from(n)).collect::<Vec<_>>());
            assert_eq!(heap.pop(), None);
            heap.push(3, 5).unwrap();
            heap.clear();
            assert_eq!((heap.len(), heap.pop()), (0, None));
        }
        assert_eq!(heap.push(32, 0), Err(PushError::NodeOutOfRange { node: 32, capacity: 32 }));
        heap.check();
    }

    /// Entries with the sentinel's key pop after every other, newest first.
    #[test]
    fn the_largest_key_pops_last() {
        let mut heap = SequenceHeapWith::<2, 2, 2, 2>::new(Spec { capacity: 16, span: 0 });
        for (node, key) in [(1, Key::MAX), (2, 3), (3, Key::MAX), (4, 1), (5, 2), (6, 0)] {
            heap.push(node, key).unwrap();
        }
        let popped: Vec<_> = std::iter::from_fn(|| heap.pop()).collect();
        assert_eq!(popped, [(6, 0), (4, 1), (5, 2), (2, 3), (3, Key::MAX), (1, Key::MAX)]);
    }

    /// A clear keeps every allocation: refilling to the same size allocates nothing new.
    #[test]
    fn clear_keeps_allocations() {
        let mut heap = SequenceHeap::new(Spec { capacity: 100_000, span: 0 });
        let mut next = xorshift(9);
        let mut fill = |heap: &mut SequenceHeap| {
            for node in 0..100_000 {
                heap.push(node, next() % 1_000_000).unwrap();
            }
            for _ in 0..50_000 {
                heap.pop().unwrap();
            }
        };
        fill(&mut heap);
        let capacities = |heap: &SequenceHeap| -> Vec<usize> {
            let mut all = vec![heap.groups.len(), heap.deletion.data.capacity()];
            for group in &heap.groups {
                all.push(group.buffer.data.capacity());
                all.extend(group.runs.iter().map(|run| run.data.capacity()));
            }
            all
        };
        let before = capacities(&heap);
        heap.clear();
        heap.check();
        assert_eq!(capacities(&heap), before);
        assert_eq!(heap.active, 0);
    }

    /// Holds a million entries with random keys, then drains them in order.
    #[test]
    fn holds_a_million_entries() {
        const N: u32 = 1_000_000;
        let mut heap = SequenceHeap::new(Spec { capacity: N as usize, span: 0 });
        let mut next = xorshift(11);
        for node in 0..N {
            heap.push(node, next() >> 1).unwrap();
        }
        heap.check();
        assert!(heap.active >= 2, "a million entries reach group 1");
        let mut last = 0;
        for _ in 0..N / 2 {
            let (_, key) = heap.pop().unwrap();
            assert!(key >= last);
            last = key;
        }
        for node in (0..N).step_by(3) {
            heap.push(node, last + (next() >> 40)).unwrap();
        }
        heap.check();
        let mut count = 0;
        while let Some((_, key)) = heap.pop() {
            assert!(key >= last);
            last = key;
            count += 1;
        }
        assert_eq!(count, N / 2 + N.div_ceil(3));
    }
}

/// The measurements behind the parameters: timing runs (this thread's CPU time),
/// repeated and interleaved, in release mode:
///
/// `cargo test --release -p pqlab-queues --lib sequence_heap::measure -- --ignored
/// --nocapture --test-threads 1`
///
/// `PQLAB_SEQ_SIZES` (frontier sizes as powers of ten, default `3,4,5,6,7`),
/// `PQLAB_SEQ_REPS` (rounds, default 3), `PQLAB_SEQ_STEPS` (held steps, default
/// 2,000,000), `PQLAB_SEQ_HOLD_ONLY` (no random-key runs) and `PQLAB_SEQ_ONLY`
/// (contenders by name) narrow a run. Instruction counts came from the same test binary
/// under `valgrind --tool=callgrind`, as the difference between 100,000 and 200,000 held
/// steps.
#[cfg(test)]
mod measure {
    use std::hint::black_box;

    use super::*;
    use crate::dary_heap::DaryHeap;
    use crate::std_binary_heap::StdBinaryHeap;

    const NOT_HELD: Key = Key::MAX;

    /// This thread's CPU time in nanoseconds, from `/proc/thread-self/schedstat`: the
    /// machine is shared, and wall time counts the other users' turns.
    fn cpu_ns() -> u64 {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
        stat.split_whitespace().next().and_then(|ns| ns.parse().ok()).expect("a CPU time")
    }

    fn random(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// The lab's synthetic workload: `n` entries held, each step pops the smallest live
    /// entry (skipping stale ones), pushes it back a grid step above, and with `share`
    /// pushes a held node again a little lower. Nanoseconds per step.
    fn hold<F: Frontier>(n: usize, steps: usize, share: u64) -> f64 {
        const INCREMENTS: [Key; 4] = [0, 10, 14, 28];
        let mut queue = F::new(Spec { capacity: n, span: 1000 });
        let mut key_of = vec![NOT_HELD; n];
        let mut rng = 0x9e37_79b9_7f4a_7c15;
        for (node, held) in key_of.iter_mut().enumerate() {
            let key = INCREMENTS[(random(&mut rng) % 4) as usize];
            queue.push(node as Node, key).unwrap();
            *held = key;
        }
        let step = |queue: &mut F, key_of: &mut [Key], rng: &mut u64| {
            let (node, key) = loop {
                let (node, key) = queue.pop().unwrap();
                if key_of[node as usize] == key {
                    break (node, key);
                }
            };
            let pushed = key + INCREMENTS[(random(rng) % 4) as usize];
            queue.push(node, pushed).unwrap();
            key_of[node as usize] = pushed;
            if random(rng) % 100 < share {
                let target = (random(rng) % n as u64) as usize;
                let lower = key_of[target].saturating_sub(14).max(key);
                if lower < key_of[target] {
                    queue.push(target as Node, lower).unwrap();
                    key_of[target] = lower;
                }
            }
        };
        for _ in 0..n.min(10_000) {
            step(&mut queue, &mut key_of, &mut rng);
        }
        let started = cpu_ns();
        for _ in 0..steps {
            step(&mut queue, &mut key_of, &mut rng);
        }
        black_box(&queue);
        (cpu_ns() - started) as f64 / steps as f64
    }

    /// The paper's sorting-like workload: `n` pushes of random keys, then `n` pops.
    /// Nanoseconds per push-and-pop.
    fn fill_and_drain<F: Frontier>(n: usize) -> f64 {
        let mut queue = F::new(Spec { capacity: n, span: 0 });
        let mut rng = 0x2545_f491_4f6c_dd1d;
        let started = cpu_ns();
        for node in 0..n {
            queue.push(node as Node, random(&mut rng) >> 1).unwrap();
        }
        let mut sum = 0;
        while let Some((_, key)) = queue.pop() {
            sum ^= key;
        }
        black_box(sum);
        (cpu_ns() - started) as f64 / n as f64
    }

    type Contender = (&'static str, fn(usize, usize) -> f64);

    /// The workloads: (name, frontier size, steps); steps 0 means fill-and-drain.
    fn workloads() -> Vec<(&'static str, usize, usize)> {
        let sizes = std::env::var("PQLAB_SEQ_SIZES").unwrap_or_else(|_| "3,4,5,6,7".into());
        let steps =
            std::env::var("PQLAB_SEQ_STEPS").map_or(2_000_000, |s| s.parse().expect("a count"));
        let mut all = Vec::new();
        for exponent in sizes.split(',').map(|s| s.trim().parse::<u32>().expect("an exponent")) {
            let n = 10usize.pow(exponent);
            all.push(("hold", n, steps));
            if exponent >= 5 && std::env::var("PQLAB_SEQ_HOLD_ONLY").is_err() {
                all.push(("random", n, 0));
            }
        }
        all
    }

    fn run<F: Frontier>(n: usize, steps: usize) -> f64 {
        if steps == 0 {
            fill_and_drain::<F>(n)
        } else {
            hold::<F>(n, steps, 20)
        }
    }

    /// Prints each contender's best of `PQLAB_SEQ_REPS` (default 3) rounds, interleaved;
    /// `PQLAB_SEQ_ONLY` keeps the contenders it names, comma-separated (for profiling and
    /// instruction counts).
    fn compare(contenders: &[Contender]) {
        let only = std::env::var("PQLAB_SEQ_ONLY").unwrap_or_default();
        let contenders: Vec<Contender> = contenders
            .iter()
            .filter(|(id, _)| only.is_empty() || only.split(',').any(|o| o == *id))
            .copied()
            .collect();
        let reps = std::env::var("PQLAB_SEQ_REPS").map_or(3, |r| r.parse().expect("a count"));
        for (name, n, steps) in workloads() {
            let mut best = vec![f64::INFINITY; contenders.len()];
            for _ in 0..reps {
                for (i, (_, measure)) in contenders.iter().enumerate() {
                    best[i] = best[i].min(measure(n, steps));
                }
            }
            let line: Vec<String> =
                contenders.iter().zip(&best).map(|((id, _), ns)| format!("{id} {ns:.1}")).collect();
            println!("{name} {n}: {}", line.join(" | "));
        }
    }

    #[test]
    #[ignore = "a measurement: run in release mode"]
    fn against_heaps() {
        compare(&[
            ("sequence-heap", run::<SequenceHeap>),
            ("dary2", run::<DaryHeap<2, Dup>>),
            ("dary4", run::<DaryHeap<4, Dup>>),
            ("std", run::<StdBinaryHeap>),
        ]);
    }

    #[test]
    #[ignore = "a measurement: run in release mode"]
    fn parameters() {
        compare(&[
            ("512/64/512/32", run::<SequenceHeapWith<512, 64, 512, 32>>),
            ("256/64/256/32", run::<SequenceHeapWith<256, 64, 256, 32>>),
            ("1024/64/1024/32", run::<SequenceHeapWith<1024, 64, 1024, 32>>),
            ("2048/64/2048/32", run::<SequenceHeapWith<2048, 64, 2048, 32>>),
            ("512/32/512/32", run::<SequenceHeapWith<512, 32, 512, 32>>),
            ("512/128/512/32", run::<SequenceHeapWith<512, 128, 512, 32>>),
            ("1024/32/512/32", run::<SequenceHeapWith<1024, 32, 512, 32>>),
            ("1024/128/512/32", run::<SequenceHeapWith<1024, 128, 512, 32>>),
            ("512/64/128/32", run::<SequenceHeapWith<512, 64, 128, 32>>),
            ("1024/64/256/32", run::<SequenceHeapWith<1024, 64, 256, 32>>),
            ("1024/64/256/64", run::<SequenceHeapWith<1024, 64, 256, 64>>),
            ("1024/64/512/32", run::<SequenceHeapWith<1024, 64, 512, 32>>),
            ("1024/64/512/64", run::<SequenceHeapWith<1024, 64, 512, 64>>),
            ("1024/64/128/64", run::<SequenceHeapWith<1024, 64, 128, 64>>),
            ("2048/64/256/64", run::<SequenceHeapWith<2048, 64, 256, 64>>),
            ("512/64/512/16", run::<SequenceHeapWith<512, 64, 512, 16>>),
            ("512/64/512/64", run::<SequenceHeapWith<512, 64, 512, 64>>),
            ("512/64/512/128", run::<SequenceHeapWith<512, 64, 512, 128>>),
        ]);
    }
}
