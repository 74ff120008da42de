//! The two-level queue of game pathfinding (the cheap cousin of the HOT queue): a small
//! binary heap holds the promising entries, keys up to a threshold, and the rest wait
//! unsorted in an array. When the heap runs dry, the threshold becomes the key of rank
//! `k = max(MIN_BATCH, m / BATCH_DIVISOR)` among the array's `m` entries
//! (`select_nth_unstable`, O(m)), and those `k` smallest entries are moved into the heap
//! (Floyd's build, O(k)). An exact rank is scale-free, unlike "minimum plus a delta",
//! whose delta would have to follow the cost scale; estimating the rank from a sample
//! and partitioning in one pass measured no faster (up to 4% slower).
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (key above / at or below the threshold) | O(1) / O(log h) | same |
//! | push (held node, smaller key) | adds an entry | O(log h) in the heap; O(1) in the array, O(log h) if it moves to the heap |
//! | pop | O(log h) + amortized O(`BATCH_DIVISOR`) | same |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! `h` is the heap's size: the batch moved in, plus what is pushed at or below the
//! threshold since. A refill costs O(m) and serves at least `m / BATCH_DIVISOR` pops,
//! hence the amortized constant; a fixed batch would cost O(m / batch) a pop on large
//! frontiers.
//!
//! Keys: any. Correctness needs only `heap keys <= threshold <= array keys`: a push at or
//! below the threshold goes into the heap (whatever the last popped key was), one above
//! it into the array, so the heap's minimum is always the global one.
//! Ties: unspecified (the heap compares keys alone; the selection reorders the array).
//! Should win: on large frontiers where most pushes are never popped: they cost one
//! append, and only the heap of near-minimal entries pays logarithms. On recorded grid A*
//! traces (see `BATCH_DIVISOR`) 71% of pushes went to the array, the heap averaged 217
//! entries, and the queue took 0.9 of `std`'s `BinaryHeap` time (duplicates) and 0.7 of
//! the indexed binary heap's (decrease-key).
//!
//! ```
//! use pqlab_queues::{two_level::TwoLevel, Dup, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = TwoLevel::<Dup>::new(Spec { capacity: 10, span: 16 });
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

/// The fewest entries a refill moves into the heap (all of them when fewer are held).
const MIN_BATCH: usize = 64;
/// A refill moves at least this fraction (1 / `BATCH_DIVISOR`) of the array.
///
/// Measured by replaying recorded operation traces (thread CPU time, best of 7) of A* on
/// three 1024 × 1024 random 8-connected grids (12 searches, about 2 M operations, costs
/// 195025/275807 and 10/14, ties folded into the key toward larger `g`), over `MIN_BATCH`
/// 16, 64, 256 and divisors 2 to 32: 64 and 4 were fastest; divisor 2 costs 3% more
/// (a deeper heap), 8 costs 5% and 16 costs 18% (more refills); `MIN_BATCH` 256 is within
/// 2%. A fixed batch (no divisor) of 64 cost 20% more, of 16 twice as much (measured
/// before the heap's branch-free sift).
const BATCH_DIVISOR: usize = 4;

/// Tags an array index in the position table (heap indices are stored untagged).
const IN_ARRAY: u32 = 1 << 31;

/// A two-level queue of `(key, node)`; with `S = Dk`, a position table finds a node's
/// entry in the heap or in the array.
///
/// Invariants: every heap key `<= threshold <=` every array key; with `Dk`, `positions`
/// maps each held node to its heap index, or to its array index tagged with `IN_ARRAY`.
#[derive(Debug)]
pub struct TwoLevel<S> {
    heap: HeapCore<2, S>,
    /// Entries above the heap's range, unordered.
    array: Vec<(Key, Node)>,
    threshold: Key,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
}

impl<S: StrategyKind> TwoLevel<S> {
    /// Files an entry in the heap or the array.
    #[inline]
    fn insert(&mut self, entry: (Key, Node)) {
        if entry.0 <= self.threshold {
            self.heap.push(entry, &mut self.positions);
        } else {
            if S::DECREASE_KEY {
                self.positions.set(entry.1, self.array.len() as u32 | IN_ARRAY);
            }
            self.array.push(entry);
        }
    }

    /// Refills the empty heap with the smallest entries of the array and raises the
    /// threshold to the largest key moved.
    fn refill(&mut self) {
        debug_assert!(self.heap.is_empty() && !self.array.is_empty());
        let len = self.array.len();
        let batch = (len / BATCH_DIVISOR).max(MIN_BATCH).min(len);
        let split = len - batch;
        // Descending order puts the `batch` smallest keys at the tail, which moves out
        // without shifting the rest; `array[split]` is the largest of them.
        self.array.select_nth_unstable_by(split, |a, b| b.0.cmp(&a.0));
        self.threshold = self.array[split].0;
        self.heap.fill(self.array.drain(split..), &mut self.positions);
        if S::DECREASE_KEY {
            for (index, &(_, node)) in self.array.iter().enumerate() {
                self.positions.set(node, index as u32 | IN_ARRAY);
            }
        }
    }
}

impl<S: StrategyKind> Frontier for TwoLevel<S> {
    const FAMILY: Family = Family::TwoLevel;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        let positions = if S::DECREASE_KEY {
            // Tagged array indices must stay below the table's absent marker, `u32::MAX`.
            assert!(
                spec.capacity < IN_ARRAY as usize,
                "a decrease-key two-level queue takes fewer than 2^31 nodes (one tag bit)"
            );
            PositionTable::new(spec.capacity)
        } else {
            PositionTable::default()
        };
        TwoLevel {
            heap: HeapCore::new(),
            array: Vec::new(),
            threshold: 0,
            positions,
            capacity: spec.capacity,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            if let Some(slot) = self.positions.get(node) {
                if slot & IN_ARRAY == 0 {
                    let index = slot as usize;
                    if key >= self.heap.key(index) {
                        return Ok(Pushed::Kept);
                    }
                    // Heap keys are <= threshold, so the smaller key stays in the heap.
                    self.heap.decrease(index, key, &mut self.positions);
                } else {
                    let index = (slot & !IN_ARRAY) as usize;
                    if key >= self.array[index].0 {
                        return Ok(Pushed::Kept);
                    }
                    if key > self.threshold {
                        self.array[index].0 = key;
                    } else {
                        self.array.swap_remove(index);
                        if let Some(&(_, moved)) = self.array.get(index) {
                            self.positions.set(moved, index as u32 | IN_ARRAY);
                        }
                        self.heap.push((key, node), &mut self.positions);
                    }
                }
                return Ok(Pushed::Decreased);
            }
        }
        self.insert((key, node));
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.heap.is_empty() {
            if self.array.is_empty() {
                return None;
            }
            self.refill();
        }
        let (key, node) = self.heap.pop(&mut self.positions)?;
        if S::DECREASE_KEY {
            self.positions.remove(node);
        }
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.heap.len() + self.array.len()
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            for &(_, node) in self.heap.entries().iter().chain(&self.array) {
                self.positions.remove(node);
            }
        }
        self.heap.clear();
        self.array.clear();
        self.threshold = 0;
    }
}
