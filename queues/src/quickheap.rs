//! A quickheap (G. Navarro and R. Paredes, "On sorting, heaps, and minimum spanning
//! trees", Algorithmica 57(4), 2010), with duplicate insertion: an array kept partly
//! sorted by the pivots of an incremental quicksort. A stack holds the positions of the
//! pivots of the quicksort so far, largest at the bottom; everything left of a pivot is
//! smaller, everything right of it larger. A pop partitions the chunk before the topmost
//! pivot until the first entry is a pivot, and takes it; a push enters at the end and
//! walks the pivots larger than its key, moving each one slot right (with the first entry
//! of the chunk after it), so the entries between the pivots stay where they belong.
//!
//! | operation | cost |
//! |---|---|
//! | push | O(log n) expected (the pivots larger than the key) |
//! | pop | O(log n) expected, amortised (the partitions that reach the minimum) |
//! | clear | O(1) |
//!
//! Memory: 16 bytes per entry in one array, and one `usize` per pivot (O(log n) expected).
//!
//! Pivots are the median of the chunk's first, middle and last entries (deterministic, so
//! every run repeats; the paper picks at random), partitioned with a branch-free Lomuto
//! loop. Popped entries leave a gap at the front, reclaimed when it reaches half the array.
//!
//! Keys: any `u64`. Ties: last in, first out, always. Each entry carries a push number, and
//! entries compare as `(key, newest first)`, so no two entries are equal: that is also what
//! keeps a chunk of equal keys from being partitioned over and over (quadratic time).
//! Numbers count down from `u32::MAX`; after `2^32` pushes without a `clear` the held
//! entries are renumbered in order (a sort), once.
//!
//! Decrease-key: not built. The structure allows it (the paper lowers a key by moving it
//! left past the pivots now larger than it), but every partition then has to update a
//! node-indexed position for each entry it moves, which is the cost that keeps
//! decrease-key heaps behind duplicates in this lab.
//!
//! Should win: per its authors, where a binary heap's pops cost cache misses (large heaps);
//! a 2025 Rust write-up reports it 2–3× faster than published Rust heaps.
//!
//! # Verdict inside A*: the claim does not hold
//!
//! `pqlab compare --maps DIR --limit 100 --rounds 3 --queue std-binary-heap-dup --queue
//! dary-heap-crate-dup --queue quickheap-dup …` (thread CPU time per search, median of 3
//! interleaved rounds, 100 problems a map; a shared, loaded 2-core machine):
//!
//! | map | expansions a search | `std-binary-heap-dup` | `dary-heap-crate-dup` | `quickheap-dup` |
//! |---|---|---|---|---|
//! | brc202d | 15,547 | 1,081 µs | 1,089 µs | 1,563 µs (1.45×) |
//! | ht_chantry | 1,740 | 121 µs | 114 µs | 171 µs (1.42×) |
//! | maze512-32-0 | 121,860 | 9,024 µs | 9,232 µs | 12,549 µs (1.39×) |
//! | random512-25-0 | 23,466 | 1,806 µs | 1,710 µs | 2,350 µs (1.30×) |
//! | 32room_000 | 30,997 | 2,986 µs | 2,877 µs | 3,703 µs (1.24×) |
//! | 8room_000 | 31,576 | 2,799 µs | 2,629 µs | 3,476 µs (1.24×) |
//! | Paris_0_1024 | 56,406 | 6,250 µs | 6,179 µs | 10,201 µs (1.63×) |
//!
//! In brackets: the quickheap's time ÷ std's. The last three rows are from a second run of
//! the command on those three maps alone.
//!
//! In the first run, over the 7 maps, the `pathfinding` crate takes 2.05× std's time,
//! 2.11× `dary-heap-crate-dup`'s and 1.49× the quickheap's. Inside this A* the quickheap
//! takes 1.24–1.65× the time of either published heap (1.24–1.63× std's, 1.29–1.65× the
//! `dary_heap` crate's), not a half or a third of it. The lab's report decides the claim
//! again on every run, band by band against the best published heap (its verdict "a
//! quickheap is 2–3× faster than published Rust heaps").
//!
//! Where its time goes (`valgrind --tool=callgrind pqlab run --map dao/brc202d.map --limit
//! 40 --queue Q`, 620,326 expansions, 1.66 pushes and 1.63 pops an expansion): the whole
//! search executes 972 instructions an expansion against std's 621; a quickheap push
//! costs 123 instructions (std's is inlined into the search, so not separable) and a pop
//! 288, partitions included, against std's 171. Not measured, but the likely reason: A*
//! pushes keys near the minimum, which walk past most pivots, and pops soon reach the
//! chunk it just partitioned.

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PushError, Pushed, Spec, Strategy,
    Ties,
};

/// An entry: the key in the high half, then the push number counted down (newer is
/// smaller), then the node. Comparing entries compares `(key, newest first)`.
type QuickEntry = u128;

#[inline]
fn entry(key: Key, number: u32, node: Node) -> QuickEntry {
    u128::from(key) << 64 | u128::from(number) << 32 | u128::from(node)
}

#[inline]
fn key_of(entry: QuickEntry) -> Key {
    (entry >> 64) as Key
}

#[inline]
fn node_of(entry: QuickEntry) -> Node {
    entry as Node
}

/// The front gap reclaimed only past this many entries, so small heaps never shift.
const MIN_GAP: usize = 1024;

/// A quickheap of `(key, node)` entries, duplicates allowed.
///
/// Invariants: the entries held are `heap[first..]`; `pivots` is strictly decreasing,
/// `pivots[0] == heap.len()` (a pivot of key +∞ past the end), and every other pivot `p`
/// is in `first..heap.len()` with every entry of `heap[first..p]` smaller than `heap[p]`
/// and every entry after it larger; entries are pairwise distinct.
#[derive(Debug)]
pub struct Quickheap {
    heap: Vec<QuickEntry>,
    /// The first entry held; `heap[..first]` are popped.
    first: usize,
    pivots: Vec<usize>,
    /// The next push's number.
    number: u32,
    capacity: usize,
}

impl Quickheap {
    /// Partitions `heap[first..top)` (the chunk before the topmost pivot) until `first` is
    /// a pivot. Needs an entry held.
    fn find_min(&mut self) {
        loop {
            let top = *self.pivots.last().expect("the end is always a pivot");
            if top == self.first {
                return;
            }
            let chunk = &mut self.heap[self.first..top];
            let pivot = partition(chunk);
            self.pivots.push(self.first + pivot);
        }
    }

    /// Gives every held entry a new number, in pop order, so that numbers can count down
    /// again: the held entries keep their order.
    fn renumber(&mut self) {
        self.heap.drain(..self.first);
        self.first = 0;
        self.heap.sort_unstable();
        let n = self.heap.len() as u32;
        for (i, e) in self.heap.iter_mut().enumerate() {
            *e = entry(key_of(*e), u32::MAX - n + 1 + i as u32, node_of(*e));
        }
        self.number = u32::MAX - n;
        // Sorted: every entry could be a pivot, and none needs to be.
        self.pivots.clear();
        self.pivots.push(self.heap.len());
    }
}

/// Partitions `chunk` around the median of its first, middle and last entries; returns the
/// pivot's final index: everything before it is smaller, everything after it larger.
fn partition(chunk: &mut [QuickEntry]) -> usize {
    let last = chunk.len() - 1;
    let (a, b, c) = (chunk[0], chunk[last / 2], chunk[last]);
    let median = if (a < b) == (b < c) {
        last / 2
    } else if (b < a) == (a < c) {
        0
    } else {
        last
    };
    chunk.swap(median, last);
    let pivot = chunk[last];
    // Branch-free Lomuto: `chunk[..i]` < pivot <= `chunk[i..j]`.
    let mut i = 0;
    for j in 0..last {
        let x = chunk[j];
        chunk.swap(i, j);
        i += usize::from(x < pivot);
    }
    chunk.swap(i, last);
    i
}

impl Frontier for Quickheap {
    const FAMILY: Family = Family::Quickheap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Lifo;

    fn new(spec: Spec) -> Self {
        Quickheap {
            heap: Vec::new(),
            first: 0,
            pivots: vec![0],
            number: u32::MAX,
            capacity: spec.capacity,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if self.number == 0 {
            self.renumber();
        }
        let x = entry(key, self.number, node);
        self.number -= 1;
        // The slot at the end opens; each pivot larger than `x` moves one slot right, the
        // first entry of the chunk after it filling the slot it leaves.
        let mut slot = self.heap.len();
        self.heap.push(x);
        self.pivots[0] = slot + 1;
        for p in &mut self.pivots[1..] {
            let pivot = *p;
            if self.heap[pivot] < x {
                break;
            }
            self.heap[slot] = self.heap[pivot + 1];
            self.heap[pivot + 1] = self.heap[pivot];
            *p = pivot + 1;
            slot = pivot;
        }
        self.heap[slot] = x;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.first == self.heap.len() {
            return None;
        }
        self.find_min();
        let min = self.heap[self.first];
        self.pivots.pop();
        self.first += 1;
        if self.first == self.heap.len() {
            self.clear();
        } else if self.first >= MIN_GAP && self.first * 2 >= self.heap.len() {
            let gap = self.first;
            self.heap.drain(..gap);
            self.pivots.iter_mut().for_each(|p| *p -= gap);
            self.first = 0;
        }
        Some((node_of(min), key_of(min)))
    }

    fn len(&self) -> usize {
        self.heap.len() - self.first
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.first = 0;
        self.pivots.clear();
        self.pivots.push(0);
        self.number = u32::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renumbering_keeps_the_order_of_held_entries() {
        let mut heap = Quickheap::new(Spec { capacity: 16, span: 0 });
        heap.number = 3; // three pushes before the numbers run out
        for (node, key) in [(0, 5), (1, 5), (2, 4), (3, 5), (4, 4), (5, 5)] {
            heap.push(node, key).unwrap();
        }
        assert!(heap.number > 3, "the numbers were renewed");
        let popped: Vec<_> = std::iter::from_fn(|| heap.pop()).collect();
        assert_eq!(popped, [(4, 4), (2, 4), (5, 5), (3, 5), (1, 5), (0, 5)]);
    }
}
