//! The HOT queue ("heap on top"; Cherkassky, Goldberg and Silverstein, "Buckets, heaps,
//! lists, and monotone priority queues", SIAM J. Comput. 28(4), 1999): Denardo and Fox's
//! multi-level buckets, with the active (lowest) bucket kept in a small heap when it holds
//! few entries, in both strategies.
//!
//! Keys are read as base-64 numbers (6-bit digits, 11 levels for `u64`). An entry above
//! the heap's range sits in the bucket named by the highest digit where its key differs
//! from `base` (the level) and its key's digit there; buckets in (level, digit) order
//! cover increasing key ranges. When the heap runs dry, the lowest non-empty bucket is
//! *heaped* (moved into the heap by Floyd's O(k) build) if it holds at most `THRESHOLD`
//! entries or sits at level 0 (a single key value); otherwise it is *expanded*: `base`
//! becomes its smallest key and its entries spread over lower levels, where the search
//! for a small bucket goes on. Pushes at or below the heaped bucket's range go into the
//! heap; when they grow it past `THRESHOLD` (with keys still to split), the next pop
//! expands the heap like a bucket, as the paper does with an overgrown active bucket, so
//! the heap stays near `THRESHOLD` entries instead of absorbing the whole frontier.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (key in the heap's range / above it) | O(log h) / O(1) | same |
//! | push (held node, smaller key) | adds an entry | O(log h) in the heap; O(1) out of a bucket, plus the push |
//! | pop | O(log h) + amortized O(l) | same |
//! | clear | O(buckets used) | O(n) (forgets each held node) |
//!
//! `h` is the heap's size: at most `THRESHOLD` plus the pushes since the last pop, or a
//! level-0 bucket (one key value, on which every sift stops at once). `l` is the number of
//! levels the keys span, `⌈log₆₄ C⌉ + 1` for keys within `C` of the floor: an entry moves
//! down at least one level each time it is expanded, except that entries pushed below an
//! overgrown heap's range may be expanded once more at the same level.
//!
//! Keys: monotone (no key below the last popped one). Ties: unspecified heap order (the
//! heap compares keys alone).
//! Should win: when keys spread over ranges too wide for a flat bucket queue (fine
//! fixed-point costs, wide edge weights) and frontiers are large: most pushes land in a
//! bucket at O(1), only the small heap pays logarithms, and each entry is expanded only a
//! few times. On recorded grid A* traces it took about half the time of `std`'s
//! `BinaryHeap` (duplicates) and 0.6 of the indexed binary heap's (decrease-key); see
//! `THRESHOLD` for the setup.
//!
//! ```
//! use pqlab_queues::{hot_queue::HotQueue, Dup, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = HotQueue::<Dup>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use std::mem;

use crate::heap_core::{HeapCore, HeapSlots};
use crate::{
    check_node, Family, Frontier, Key, KeyFloor, KeyRule, Node, Origin, PushError, Pushed, Spec,
    Strategy, StrategyKind, Ties,
};

/// Bits per digit: 64 buckets a level, so one `u64` marks a level's non-empty buckets.
///
/// Measured (with `THRESHOLD` 16, on the traces described there): widths 3 to 6 are
/// within 7% of each other; duplicates run fastest at 5 to 6 (fewer expansions: on the
/// coarse traces 6 moves 1.7 M entries where 3 moves 8.4 M), decrease-key at 3. 6 is the
/// widest that keeps one occupancy word per level.
const DIGIT_BITS: u32 = 6;
/// Buckets per level.
const FANOUT: usize = 1 << DIGIT_BITS;
/// Levels needed for 64-bit keys (the top level uses only the remaining high bits).
const LEVELS: usize = (Key::BITS as usize).div_ceil(DIGIT_BITS as usize);
/// The largest bucket above level 0 that is heaped rather than expanded, and the heap
/// size past which the heap is expanded again.
///
/// Measured by replaying recorded operation traces (thread CPU time, best of 7): A* on
/// three 1024 × 1024 random 8-connected grids (12 searches, about 2 M operations, costs
/// 195025/275807 and 10/14), and synthetic monotone runs (steady frontiers of 64 to
/// 20 000 entries, each pop followed by a push up to 2²⁰ or 2⁴⁰ above it). On the A*
/// traces, thresholds 0 (plain multi-level buckets), 4, 16 and 64 tie within 4% and 256
/// is up to 6% slower. On the synthetic runs 16 is 25 to 40% faster than 0 (small
/// buckets are not expanded level by level), 64 ties with it except on the 64-entry
/// frontier (60% slower), and 256 is up to twice as slow. Without expanding an overgrown
/// heap, every threshold from 16 up cost 1.25 to 2.5 times as much on the A* traces.
const THRESHOLD: usize = 16;

/// Where a decrease-key queue holds a node: a bucket and a slot in it, or the heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Location {
    /// A bucket index, or [`Location::HEAP`], or [`Location::ABSENT`].
    bin: u32,
    /// The index in that bucket or in the heap.
    slot: u32,
}

impl Location {
    const HEAP: u32 = u32::MAX - 1;
    const ABSENT: u32 = u32::MAX;
}

/// Node → [`Location`] for decrease-key (empty for duplicates). Slots fit in `u32`: a
/// decrease-key queue holds each `u32` node at most once.
#[derive(Debug, Default)]
struct Locations(Vec<Location>);

impl Locations {
    #[inline]
    fn get(&self, node: Node) -> Option<Location> {
        let location = self.0[node as usize];
        (location.bin != Location::ABSENT).then_some(location)
    }

    #[inline]
    fn set(&mut self, node: Node, bin: usize, slot: usize) {
        self.0[node as usize] = Location { bin: bin as u32, slot: slot as u32 };
    }

    #[inline]
    fn remove(&mut self, node: Node) {
        self.0[node as usize].bin = Location::ABSENT;
    }
}

impl HeapSlots for Locations {
    #[inline]
    fn set_heap_index(&mut self, node: Node, index: usize) {
        self.0[node as usize] = Location { bin: Location::HEAP, slot: index as u32 };
    }
}

/// The bucket of `key` relative to `base` (`key >= base`): the level is the highest digit
/// where they differ (level 0 when equal), the position within it the key's digit there.
#[inline]
fn bucket_of(key: Key, base: Key) -> usize {
    debug_assert!(key >= base);
    let differing = (key ^ base) | 1;
    let level = (Key::BITS - 1 - differing.leading_zeros()) / DIGIT_BITS;
    let digit = (key >> (level * DIGIT_BITS)) as usize & (FANOUT - 1);
    level as usize * FANOUT + digit
}

/// The multi-level buckets: `LEVELS * FANOUT` unordered bins, level-major.
///
/// Invariants: bit `d` of `occupied[l]` is set exactly when bin `l * FANOUT + d` is
/// non-empty; `len` counts the entries in all bins; with `Dk`, the location of each entry
/// names its bin and slot.
#[derive(Debug)]
struct Buckets {
    /// Each bin keeps its allocation when emptied.
    bins: Vec<Vec<(Key, Node)>>,
    occupied: [u64; LEVELS],
    len: usize,
}

impl Buckets {
    /// Appends an entry to bin `bin` (uncounted: expansions move counted entries).
    #[inline]
    fn put<S: StrategyKind>(&mut self, bin: usize, entry: (Key, Node), locations: &mut Locations) {
        let bucket = &mut self.bins[bin];
        if S::DECREASE_KEY {
            locations.set(entry.1, bin, bucket.len());
        }
        bucket.push(entry);
        self.occupied[bin / FANOUT] |= 1 << (bin % FANOUT);
    }

    /// Removes the entry at `slot` of bin `bin` (decrease-key only).
    fn remove(&mut self, bin: usize, slot: usize, locations: &mut Locations) {
        let bucket = &mut self.bins[bin];
        bucket.swap_remove(slot);
        if let Some(&(_, moved)) = bucket.get(slot) {
            locations.set(moved, bin, slot);
        }
        if bucket.is_empty() {
            self.occupied[bin / FANOUT] &= !(1 << (bin % FANOUT));
        }
        self.len -= 1;
    }

    /// The lowest non-empty bin and its level, if any.
    #[inline]
    fn lowest(&self) -> Option<(usize, usize)> {
        let level = self.occupied.iter().position(|&mask| mask != 0)?;
        Some((level * FANOUT + self.occupied[level].trailing_zeros() as usize, level))
    }
}

/// A HOT queue of `(key, node)`; with `S = Dk`, a location table finds a node's entry in
/// its bucket or in the heap.
///
/// Invariants: every heap key is `<= limit`, and `limit <` every bucket key; each bucket
/// entry sits in bin `bucket_of(key, base)`; `base <= limit`, and between operations
/// `base <=` the floor, so every key pushed is `>= base` (rebasing only ever moves `base` to
/// the global minimum, which the pop doing it then returns); with `Dk`, `locations` maps
/// each held node to its entry.
#[derive(Debug)]
pub struct HotQueue<S> {
    heap: HeapCore<2, S>,
    buckets: Buckets,
    /// The key bucket positions are relative to (0 initially).
    base: Key,
    /// The top of the heaped bucket's key range: keys up to it go into the heap.
    limit: Key,
    floor: KeyFloor,
    /// Only filled for `Dk`.
    locations: Locations,
    capacity: usize,
}

impl<S: StrategyKind> HotQueue<S> {
    /// Files an entry in the heap or its bucket, and counts it.
    #[inline]
    fn insert(&mut self, entry: (Key, Node)) {
        if entry.0 <= self.limit {
            self.heap.push(entry, &mut self.locations);
        } else {
            self.buckets.len += 1;
            self.buckets.put::<S>(bucket_of(entry.0, self.base), entry, &mut self.locations);
        }
    }

    /// Moves every heap entry back into the buckets, rebased on the heap's minimum (the
    /// global one). The rebase keeps every bucket entry in its bin: the minimum lies in
    /// `[base, limit]` (`base <=` the floor `<=` every key), so it shares with `base`
    /// every digit above the heaped bucket's level, and bucket entries differ from both
    /// above that level or at it.
    fn spill(&mut self) {
        self.base = self.heap.key(0);
        self.buckets.len += self.heap.len();
        for &entry in self.heap.entries() {
            self.buckets.put::<S>(bucket_of(entry.0, self.base), entry, &mut self.locations);
        }
        self.heap.clear();
    }

    /// Refills the empty heap from the lowest non-empty bucket, expanding buckets above
    /// level 0 that hold more than `THRESHOLD` entries until one is small enough.
    fn refill(&mut self) {
        debug_assert!(self.heap.is_empty());
        while let Some((bin, level)) = self.buckets.lowest() {
            self.buckets.occupied[level] &= !(1 << (bin % FANOUT));
            let mut bucket = mem::take(&mut self.buckets.bins[bin]);
            if level == 0 || bucket.len() <= THRESHOLD {
                // The bucket's keys share every digit above `level`.
                self.limit = bucket[0].0 | ((1 << (level as u32 * DIGIT_BITS)) - 1);
                self.buckets.len -= bucket.len();
                self.heap.fill(bucket.drain(..), &mut self.locations);
                self.buckets.bins[bin] = bucket;
                return;
            }
            // Expand: rebasing on the bucket's minimum (the global one) keeps every other
            // entry's bin, as in `spill`, and sends this bucket's entries to lower levels.
            self.base = bucket.iter().map(|&(key, _)| key).min().expect("a full bucket");
            for &entry in &bucket {
                self.buckets.put::<S>(bucket_of(entry.0, self.base), entry, &mut self.locations);
            }
            bucket.clear();
            self.buckets.bins[bin] = bucket;
        }
    }
}

impl<S: StrategyKind> Frontier for HotQueue<S> {
    const FAMILY: Family = Family::HotQueue;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Monotone;
    const TIES: Ties = Ties::Unspecified;

    fn new(spec: Spec) -> Self {
        let locations = if S::DECREASE_KEY {
            Locations(vec![Location { bin: Location::ABSENT, slot: 0 }; spec.capacity])
        } else {
            Locations::default()
        };
        HotQueue {
            heap: HeapCore::new(),
            buckets: Buckets {
                bins: (0..LEVELS * FANOUT).map(|_| Vec::new()).collect(),
                occupied: [0; LEVELS],
                len: 0,
            },
            base: 0,
            limit: 0,
            floor: KeyFloor::new(Self::KEYS, spec),
            locations,
            capacity: spec.capacity,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        self.floor.check(key)?;
        if S::DECREASE_KEY {
            if let Some(Location { bin, slot }) = self.locations.get(node) {
                let slot = slot as usize;
                if bin == Location::HEAP {
                    if key >= self.heap.key(slot) {
                        return Ok(Pushed::Kept);
                    }
                    // Heap keys are <= limit, so the smaller key stays in the heap.
                    self.heap.decrease(slot, key, &mut self.locations);
                } else {
                    let bin = bin as usize;
                    if key >= self.buckets.bins[bin][slot].0 {
                        return Ok(Pushed::Kept);
                    }
                    self.buckets.remove(bin, slot, &mut self.locations);
                    self.insert((key, node));
                }
                return Ok(Pushed::Decreased);
            }
        }
        self.insert((key, node));
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        // Pushes into the heaped range grew the heap past the threshold: expand it like a
        // bucket (unless its keys are all equal, which no expansion can split).
        if self.heap.len() > THRESHOLD && self.heap.key(0) < self.limit {
            self.spill();
        }
        if self.heap.is_empty() {
            self.refill();
        }
        let (key, node) = self.heap.pop(&mut self.locations)?;
        if S::DECREASE_KEY {
            self.locations.remove(node);
        }
        self.floor.popped(key);
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.heap.len() + self.buckets.len
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            for &(_, node) in self.heap.entries() {
                self.locations.remove(node);
            }
        }
        self.heap.clear();
        while let Some((bin, level)) = self.buckets.lowest() {
            self.buckets.occupied[level] &= !(1 << (bin % FANOUT));
            if S::DECREASE_KEY {
                for &(_, node) in &self.buckets.bins[bin] {
                    self.locations.remove(node);
                }
            }
            self.buckets.bins[bin].clear();
        }
        self.buckets.len = 0;
        self.base = 0;
        self.limit = 0;
        self.floor.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    /// Pops everything, checking the keys come out sorted.
    fn drain_sorted<S: StrategyKind>(queue: &mut HotQueue<S>) -> Vec<Key> {
        let keys: Vec<Key> = std::iter::from_fn(|| queue.pop()).map(|(_, key)| key).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "popped out of order: {keys:x?}");
        keys
    }

    /// A clear must forget the heaped bucket's range (`limit`). Left stale at `0x43fff`,
    /// it sends later keys up to it into the heap while `0x44000` goes to a level-3 bucket
    /// relative to base 0; the spill then rebases on `0x43000`, where `0x44000` belongs
    /// at level 2, and a later `0x45000`, filed at level 2, pops before it.
    fn a_clear_forgets_the_heaped_range<S: StrategyKind>() {
        let mut queue = HotQueue::<S>::new(Spec { capacity: 64, span: 0 });
        // Expand a level-3 bucket of 18 entries, then heap the level-2 bucket
        // 0x43000..0x4300f (16 entries): the heaped range ends at 0x43fff.
        queue.push(40, 0x40000).unwrap();
        queue.push(41, 0x41000).unwrap();
        for i in 0..16 {
            queue.push(i, 0x43000 + Key::from(i)).unwrap();
        }
        for expected in [0x40000, 0x41000, 0x43000] {
            assert_eq!(queue.pop().map(|(_, key)| key), Some(expected));
        }
        queue.clear();
        queue.push(44, 0x44000).unwrap();
        for i in 0..17 {
            queue.push(i, 0x43000 + Key::from(i)).unwrap();
        }
        assert_eq!(queue.pop(), Some((0, 0x43000)));
        queue.push(45, 0x45000).unwrap();
        let keys = drain_sorted(&mut queue);
        assert_eq!(keys.len(), 18);
        assert_eq!(keys[16..], [0x44000, 0x45000]);
    }

    #[test]
    fn a_clear_forgets_the_heaped_range_dup() {
        a_clear_forgets_the_heaped_range::<Dup>();
    }

    #[test]
    fn a_clear_forgets_the_heaped_range_dk() {
        a_clear_forgets_the_heaped_range::<Dk>();
    }
}
