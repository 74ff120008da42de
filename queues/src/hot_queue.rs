//! The HOT queue ("heap on top"; Cherkassky, Goldberg and Silverstein, "Buckets, heaps,
//! lists, and monotone priority queues", SIAM J. Comput. 28(4), 1999): Denardo and Fox's
//! multi-level buckets with a small heap holding the lowest bucket, in both strategies.
//!
//! Keys are read as base-64 numbers (6-bit digits, 11 levels for `u64`). An entry above
//! the heap's range sits in the bucket named by the highest digit where its key differs
//! from `base` (the level) and its key's digit there. Buckets in (level, digit) order cover
//! increasing key ranges. When the heap runs dry, the lowest non-empty bucket is *heaped*
//! (moved into the heap in O(k) by Floyd's build) if it holds at most `THRESHOLD` entries
//! or sits at level 0 (one key value); otherwise it is *expanded*: `base` becomes its
//! smallest key and its entries spread over lower levels, which the next look heaps or
//! expands in turn. Pushes whose keys fall at or below the heaped range go into the heap.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (into a bucket / into the heap) | O(1) / O(log h) | same |
//! | push (held node, smaller key) | adds an entry | O(1) out of a bucket or O(log h) in the heap, plus the push |
//! | pop | O(log h) + amortized O(l) | same |
//! | clear | O(buckets used) | O(n) (forgets each held node) |
//!
//! `h` is the heap's size: at most `THRESHOLD` when a bucket above level 0 is heaped, plus
//! what is pushed into its range afterwards. `l` is the number of levels the keys span
//! (`⌈log₆₄ C⌉ + 1` for keys within `C` of the floor): each entry is expanded at most once
//! per level. This is the paper's bound structure; its analysis picks `t` and the digit
//! width from `n` and `C` to balance heap depth against expansion work.
//!
//! Parameters, measured on 8-connected grid A* (see `DIGIT_BITS` and `THRESHOLD`): 6-bit
//! digits (64 buckets a level, one `u64` occupancy mask per level) and a threshold of 64.
//!
//! Keys: monotone (no key below the last popped one). Ties: unspecified heap order (the
//! heaped bucket's entries compare by key alone).
//! Should win: when keys spread over a range too wide for a flat bucket queue (fine
//! fixed-point costs) yet frontiers are large: most pushes land in a bucket at O(1) and
//! only the small heap pays logarithms.

use std::mem;

use crate::top_heap::{HeapSlots, TopHeap};
use crate::{
    check_node, Frontier, Key, KeyFloor, KeyRule, Node, PushError, Pushed, Spec, Strategy,
    StrategyKind,
};

/// Bits per digit: 64 buckets a level, so one `u64` marks a level's non-empty buckets.
const DIGIT_BITS: u32 = 6;
/// Buckets per level.
const FANOUT: usize = 1 << DIGIT_BITS;
/// Levels needed for 64-bit keys (the top level uses only the remaining high bits).
const LEVELS: usize = (Key::BITS as usize).div_ceil(DIGIT_BITS as usize);
/// The largest bucket (above level 0) that is heaped rather than expanded.
const THRESHOLD: usize = 64;

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

/// A HOT queue of `(key, node)`; with `S = Dk`, a location table finds a node's entry in
/// its bucket or in the heap.
///
/// Invariants: every heap key is `<= limit`, and `limit <` every bucket key; `base <=
/// limit`; each bucket entry sits in bucket [`Self::bucket_of`] of its key; bit `d` of
/// `occupied[l]` is set exactly when bucket `l * FANOUT + d` is non-empty; `in_buckets`
/// counts bucket entries; with `Dk`, `locations` maps each held node to its entry.
#[derive(Debug)]
pub struct HotQueue<S> {
    heap: TopHeap<S>,
    /// `LEVELS * FANOUT` buckets, level-major; each keeps its allocation when emptied.
    buckets: Vec<Vec<(Key, Node)>>,
    occupied: [u64; LEVELS],
    in_buckets: usize,
    /// The key the bucket positions are relative to: the smallest key of the bucket
    /// expanded last (0 initially).
    base: Key,
    /// The top of the heaped bucket's key range: keys up to it go into the heap.
    limit: Key,
    floor: KeyFloor,
    /// Only filled for `Dk`.
    locations: Locations,
    capacity: usize,
}

impl<S: StrategyKind> HotQueue<S> {
    /// The bucket of `key` relative to `base` (`key >= base`): the level is the highest
    /// digit where they differ (level 0 when equal), the position the key's digit there.
    #[inline]
    fn bucket_of(&self, key: Key) -> usize {
        debug_assert!(key >= self.base);
        let differing = (key ^ self.base) | 1;
        let level = (Key::BITS - 1 - differing.leading_zeros()) / DIGIT_BITS;
        let digit = (key >> (level * DIGIT_BITS)) as usize & (FANOUT - 1);
        level as usize * FANOUT + digit
    }

    /// Files an entry in the heap or its bucket, and counts it.
    #[inline]
    fn insert(&mut self, entry: (Key, Node)) {
        if entry.0 <= self.limit {
            self.heap.push(entry, &mut self.locations);
        } else {
            self.in_buckets += 1;
            self.put(self.bucket_of(entry.0), entry);
        }
    }

    /// Appends an entry to bucket `bin` (not counted: expansions move counted entries).
    #[inline]
    fn put(&mut self, bin: usize, entry: (Key, Node)) {
        let bucket = &mut self.buckets[bin];
        if S::DECREASE_KEY {
            self.locations.set(entry.1, bin, bucket.len());
        }
        bucket.push(entry);
        self.occupied[bin / FANOUT] |= 1 << (bin % FANOUT);
    }

    /// Removes the entry at `slot` of bucket `bin` (decrease-key only).
    fn take_from_bucket(&mut self, bin: usize, slot: usize) {
        let bucket = &mut self.buckets[bin];
        bucket.swap_remove(slot);
        if let Some(&(_, moved)) = bucket.get(slot) {
            self.locations.set(moved, bin, slot);
        }
        if bucket.is_empty() {
            self.occupied[bin / FANOUT] &= !(1 << (bin % FANOUT));
        }
        self.in_buckets -= 1;
    }

    /// Refills the empty heap from the lowest non-empty bucket, expanding buckets above
    /// level 0 that hold more than `THRESHOLD` entries until one is small enough.
    fn refill(&mut self) {
        debug_assert!(self.heap.is_empty() && self.in_buckets > 0);
        loop {
            let level = self.occupied.iter().position(|&mask| mask != 0).expect("an entry");
            let digit = self.occupied[level].trailing_zeros() as usize;
            self.occupied[level] &= !(1 << digit);
            let bin = level * FANOUT + digit;
            let mut bucket = mem::take(&mut self.buckets[bin]);
            if level == 0 || bucket.len() <= THRESHOLD {
                // The bucket's keys share every digit above `level`.
                self.limit = bucket[0].0 | ((1 << (level as u32 * DIGIT_BITS)) - 1);
                self.in_buckets -= bucket.len();
                self.heap.fill(bucket.drain(..), &mut self.locations);
                self.buckets[bin] = bucket;
                return;
            }
            // Rebasing on the bucket's minimum keeps every other entry's bucket (they
            // differ from the old base above `level`, or at `level` with a larger digit)
            // and sends this bucket's entries to lower levels.
            self.base = bucket.iter().map(|&(key, _)| key).min().expect("a full bucket");
            for &entry in &bucket {
                self.put(self.bucket_of(entry.0), entry);
            }
            bucket.clear();
            self.buckets[bin] = bucket;
        }
    }
}

impl<S: StrategyKind> Frontier for HotQueue<S> {
    const FAMILY: &'static str = "HOT queue";
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Monotone;

    fn new(spec: Spec) -> Self {
        let locations = if S::DECREASE_KEY {
            Locations(vec![Location { bin: Location::ABSENT, slot: 0 }; spec.capacity])
        } else {
            Locations::default()
        };
        HotQueue {
            heap: TopHeap::new(),
            buckets: (0..LEVELS * FANOUT).map(|_| Vec::new()).collect(),
            occupied: [0; LEVELS],
            in_buckets: 0,
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
                    if key >= self.buckets[bin][slot].0 {
                        return Ok(Pushed::Kept);
                    }
                    self.take_from_bucket(bin, slot);
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
        if self.heap.is_empty() {
            if self.in_buckets == 0 {
                return None;
            }
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
        self.heap.len() + self.in_buckets
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            for &(_, node) in self.heap.entries() {
                self.locations.remove(node);
            }
        }
        self.heap.clear();
        for (level, mask) in self.occupied.iter_mut().enumerate() {
            while *mask != 0 {
                let bucket = &mut self.buckets[level * FANOUT + mask.trailing_zeros() as usize];
                if S::DECREASE_KEY {
                    for &(_, node) in bucket.iter() {
                        self.locations.remove(node);
                    }
                }
                bucket.clear();
                *mask &= *mask - 1;
            }
        }
        self.in_buckets = 0;
        self.base = 0;
        self.limit = 0;
        self.floor.reset();
    }
}
