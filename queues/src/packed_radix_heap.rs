//! A radix heap with 8-byte entries, built for A*'s frontier from the lab's evidence,
//! in both strategies. The same one-bucket-per-bit structure as
//! [`RadixHeap`](crate::radix_heap::RadixHeap) (bucket `b` holds the keys whose highest bit
//! differing from the floor `last` is bit `b - 1`), laid out for what A* pushes:
//!
//! * **Bucket 0 holds nodes only**: every key in it equals `last`, so it is a stack of
//!   `u32` nodes and a pop reads 4 bytes.
//! * **Buckets 1–32 hold one `u64` per entry**, the key's low half over the node: a key in
//!   them shares its high 32 bits with `last` (and keeps sharing them as `last` rises
//!   towards it), so the low half is the whole key. Half the bytes of `(u64, u32)` entries
//!   to move in a redistribution, and the minimum is one `u64` comparison per entry.
//! * Buckets 33–64 (keys more than `2^32` above `last`, which A*'s 32-bit `f` never makes)
//!   hold full `(key, node)` entries.
//! * **Decrease-key by lazy deletion inside the queue** ([`Dk`](crate::Dk)): a node-indexed
//!   table holds each held node's key and a bitset says which nodes are held. A decrease-key
//!   writes the table and adds a new entry; the old one is dropped, unmoved, when its bucket
//!   is next redistributed or popped (its key no longer matches the table). A stale entry is
//!   never moved down a bucket and never reaches the search, where a duplicate would cost a
//!   pop and a staleness check.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(1) | O(1) |
//! | push (held node, smaller key) | O(1), adds an entry | O(1), adds an entry, the old one goes stale |
//! | pop | O(log C) amortised | O(log C) amortised (stale entries dropped on the way) |
//! | clear | O(1) (65 buckets) | O(entries held, stale ones included) |
//!
//! `C` bounds `key - floor` at push time, as for the radix heap. Memory: 8 bytes per entry
//! (4 in bucket 0), 16 beyond `2^32` above the floor; decrease-key adds 8 bytes and 1 bit
//! per node, and keeps stale entries until their bucket is redistributed.
//!
//! Keys: monotone ([`KeyRule::Monotone`]), any `u64`.
//!
//! Ties: last in, first out, always. Entries of one key always share a bucket, and pushes,
//! redistributions and pops keep their order; a decreased node's new entry goes last, like
//! a fresh push (the same reasoning puts a node's stale entries before its live one).
//!
//! Should win: where the radix heap does (A* with monotone keys, from a few hundred open
//! cells up), by moving half the bytes. It does not reach 1.10× the oracle floor: see below.
//!
//! # Measured
//!
//! Time: `pqlab compare --maps DIR --limit 100 --rounds 3 --queue std-binary-heap-dup
//! --queue radix-heap-crate-dup --queue dary8-dk --queue packed-radix-heap-dup --queue
//! packed-radix-heap-dk …`, DIR holding symlinks to the Moving AI maps below; thread CPU
//! time per search, median of 3 interleaved rounds, on a shared 2-core machine loaded by
//! other builds, so differences under about 5% are noise. In brackets: the
//! time ÷ the oracle floor's (the same A* replaying std's recorded pops).
//!
//! | map | expansions a search | oracle floor | `std-binary-heap-dup` | `radix-heap-crate-dup` | `dary8-dk` | `-dup` (this) | `-dk` (this) |
//! |---|---|---|---|---|---|---|---|
//! | ht_chantry | 1,740 | 59.7 µs | 121 µs (2.02) | 100 µs (1.68) | **91 µs (1.53)** | 101 µs (1.70) | 100 µs (1.67) |
//! | brc202d | 15,547 | 519 µs | 1,081 µs (2.08) | 942 µs (1.82) | **879 µs (1.69)** | **884 µs (1.70)** | 950 µs (1.83) |
//! | random512-25-0 | 23,466 | 981 µs | 1,806 µs (1.84) | **1,260 µs (1.28)** | 1,571 µs (1.60) | **1,300 µs (1.33)** | 1,433 µs (1.46) |
//! | 32room_000 | 30,997 | 1,176 µs | 2,986 µs (2.54) | **1,956 µs (1.66)** | 2,221 µs (1.89) | **1,914 µs (1.63)** | **1,979 µs (1.68)** |
//! | maze512-32-0 | 121,860 | 5,110 µs | 9,024 µs (1.77) | 7,814 µs (1.53) | **7,058 µs (1.38)** | 7,823 µs (1.53) | **7,170 µs (1.40)** |
//! | 8room_000 | 31,576 | 1,383 µs | 2,799 µs (2.02) | 2,054 µs (1.48) | 2,498 µs (1.81) | **1,932 µs (1.40)** | 2,383 µs (1.72) |
//! | Paris_0_1024 | 56,406 | 2,345 µs | 6,250 µs (2.67) | 3,521 µs (1.50) | 4,214 µs (1.80) | **3,481 µs (1.48)** | **3,351 µs (1.43)** |
//!
//! (The last three maps' rows are from a second run of the same command on those three
//! maps alone, whose geometric mean puts `pathfinding` at 3.51× `-dup`, 3.41× the crate,
//! 3.28× `-dk`, 2.88× `dary8-dk` and 5.27× the floor.)
//!
//! In the first run, over 7 maps (the seven above) the `pathfinding` crate takes
//! 2.82× the time of `packed-radix-heap-dup`, 2.79× `radix-heap-crate-dup`'s, 2.75×
//! `packed-radix-heap-dk`'s, 2.67× `dary8-dk`'s and 4.40× the oracle floor's: the best of
//! these queues is at about 1.56× the floor here (the committed Intel run measured 1.28×
//! for the best queue, on a quiet machine). The duplicates variant ties the radix heap
//! crate (within 3.2% on five maps, 6% faster on brc202d and 8room_000) and is not clearly the fastest
//! on any map: the targets (≤ 1.10× the floor overall, ≤ 1.2× in every band) are not
//! reached.
//!
//! Where the nanoseconds go: `valgrind --tool=callgrind pqlab run --map dao/brc202d.map
//! --limit 40 --queue Q` (620,723 expansions; push and pop are separate functions in the
//! profile, so their inclusive counts are the queue's):
//!
//! | queue | instructions an expansion (whole search) | per push | per pop | pushes, pops an expansion |
//! |---|---|---|---|---|
//! | `std-binary-heap-dup` | 621 | (inlined) | 171 | 1.66, 1.63 |
//! | `dary8-dk` | 690 | 70 (with decrease-keys) | 295 | 1.02 + 0.65 lowered, 1.00 |
//! | `radix-heap-crate-dup` | 641 | (inlined) | 184 | 1.52, 1.49 |
//! | `radix-heap-dup` | 682 | (inlined) | 210 | 1.52, 1.49 |
//! | `packed-radix-heap-dup` | 627 | 58 | 150 | 1.52, 1.49 |
//! | `packed-radix-heap-dk` | 663 | 84 (with decrease-keys) | 245 | 1.02 + 0.50 lowered, 1.00 |
//!
//! So the 8-byte entries cut the pop's instructions by 18% against the crate (150 against
//! 184) and 29% against our 16-byte radix heap, but the queue still executes about 300
//! instructions an expansion (88 in pushes, 224 in pops)
//! beside the search's own ~320, and the time it adds (about 20 ns an expansion on
//! brc202d) is that work plus the misses of bucket vectors touched once per
//! redistribution. Decrease-key by lazy deletion removes the stale pops (1.49 → 1.00 pops
//! an expansion) but pays a node-indexed key table and bitset on every push and entry
//! moved: it wins only on the maze (long corridors, many decrease-keys).
//!
//! The candidate before it, 16-byte entries, is our `radix-heap-dup` (above). The bucket
//! queue over the key span with a two-level bitmap, measured after this one, beats it on
//! most maps: [`bitmap_bucket_queue`](crate::bitmap_bucket_queue). This queue remains the
//! fastest measured for monotone keys without a bounded span. Not tried: buckets of node
//! ids with the key in the search's cell state (the queue cannot read the search's state
//! under the [`Frontier`] contract).
use std::marker::PhantomData;

use crate::{
    check_node, Family, Frontier, Key, KeyFloor, KeyRule, Node, Origin, PushError, Pushed, Spec,
    Strategy, StrategyKind, Ties,
};

/// Buckets 1–32: keys that share their high half with `last`.
const NEAR: usize = 32;
/// Buckets 33–64: keys that do not.
const FAR: usize = 32;

/// The bucket of `key` relative to the floor `last` (`key >= last`): 0 to 64.
#[inline]
fn bucket_of(key: Key, last: Key) -> usize {
    (Key::BITS - (key ^ last).leading_zeros()) as usize
}

/// A near entry: the key's low half over the node.
#[inline]
fn pack(key: Key, node: Node) -> u64 {
    key << 32 | u64::from(node)
}

/// A radix heap with 8-byte entries; `S = Dk` adds decrease-key by lazy deletion.
///
/// Invariants: every entry of key `k` is in bucket `bucket_of(k, last)` (bucket 0: `equal`,
/// 1–32: `near[b - 1]`, 33–64: `far[b - 33]`), and entries of `near` share `last`'s high
/// half; bit `b - 1` of `near_mask` (of `far_mask`) is set iff that bucket is non-empty;
/// every key held is at least `last`, and `last` is the floor after every pop. With `Dk`: a
/// node is held iff its bit in `held` is set, and then `keys[node]` is its key; an entry is
/// live iff its node is held with the entry's key, and each held node has exactly one
/// live entry; `len` counts held nodes. With `Dup`: `len` counts entries.
#[derive(Debug)]
pub struct PackedRadixHeap<S> {
    /// Bucket 0: the nodes whose key is `last`.
    equal: Vec<Node>,
    near: [Vec<u64>; NEAR],
    far: [Vec<(Key, Node)>; FAR],
    near_mask: u32,
    far_mask: u32,
    /// The key buckets are relative to: the floor, or (before any pop) 0.
    last: Key,
    floor: KeyFloor,
    len: usize,
    capacity: usize,
    /// Decrease-key only: each held node's key.
    keys: Vec<Key>,
    /// Decrease-key only: one bit per node, set while it is held.
    held: Vec<u64>,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> PackedRadixHeap<S> {
    #[inline]
    fn is_held(&self, node: Node) -> bool {
        self.held[node as usize / 64] >> (node % 64) & 1 != 0
    }

    #[inline]
    fn set_held(&mut self, node: Node, held: bool) {
        let (word, bit) = (node as usize / 64, 1u64 << (node % 64));
        if held {
            self.held[word] |= bit;
        } else {
            self.held[word] &= !bit;
        }
    }

    /// Whether the entry `(node, key)` is the one that counts (always, for duplicates).
    #[inline]
    fn is_live(&self, node: Node, key: Key) -> bool {
        !S::DECREASE_KEY || self.is_held(node) && self.keys[node as usize] == key
    }

    /// Files `(key, node)` in its bucket relative to `last`.
    #[inline]
    fn insert(&mut self, key: Key, node: Node) {
        match bucket_of(key, self.last) {
            0 => self.equal.push(node),
            b if b <= NEAR => {
                self.near[b - 1].push(pack(key, node));
                self.near_mask |= 1 << (b - 1);
            }
            b => {
                self.far[b - NEAR - 1].push((key, node));
                self.far_mask |= 1 << (b - NEAR - 1);
            }
        }
    }

    /// Refills `equal` from the lowest non-empty bucket: its smallest live key becomes
    /// `last`, and every live entry of it moves to a lower bucket; stale ones are dropped.
    /// Leaves `equal` empty only if the bucket held no live entry. Needs a non-empty bucket.
    fn redistribute(&mut self) {
        if self.near_mask != 0 {
            let b = self.near_mask.trailing_zeros() as usize;
            self.near_mask &= !(1 << b);
            let mut moving = std::mem::take(&mut self.near[b]);
            let high = self.last >> 32 << 32;
            if S::DECREASE_KEY {
                moving.retain(|&e| self.is_live(e as Node, high | e >> 32));
            }
            if let Some(&min) = moving.iter().min() {
                self.last = high | min >> 32;
                let low = min >> 32;
                for &e in &moving {
                    // Both low halves: the high halves are equal.
                    match 64 - ((e >> 32) ^ low).leading_zeros() as usize {
                        0 => self.equal.push(e as Node),
                        to => {
                            self.near[to - 1].push(e);
                            self.near_mask |= 1 << (to - 1);
                        }
                    }
                }
            }
            moving.clear();
            self.near[b] = moving;
        } else {
            let b = self.far_mask.trailing_zeros() as usize;
            self.far_mask &= !(1 << b);
            let mut moving = std::mem::take(&mut self.far[b]);
            if S::DECREASE_KEY {
                moving.retain(|&(key, node)| self.is_live(node, key));
            }
            if let Some(&(min, _)) = moving.iter().min() {
                self.last = min;
                for &(key, node) in &moving {
                    self.insert(key, node);
                }
            }
            moving.clear();
            self.far[b] = moving;
        }
    }
}

impl<S: StrategyKind> Frontier for PackedRadixHeap<S> {
    const FAMILY: Family = Family::RadixHeap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Monotone;
    const TIES: Ties = Ties::Lifo;

    fn new(spec: Spec) -> Self {
        let (keys, held) = if S::DECREASE_KEY {
            (vec![0; spec.capacity], vec![0; spec.capacity.div_ceil(64)])
        } else {
            (Vec::new(), Vec::new())
        };
        PackedRadixHeap {
            equal: Vec::new(),
            near: std::array::from_fn(|_| Vec::new()),
            far: std::array::from_fn(|_| Vec::new()),
            near_mask: 0,
            far_mask: 0,
            last: 0,
            floor: KeyFloor::new(KeyRule::Monotone, spec),
            len: 0,
            capacity: spec.capacity,
            keys,
            held,
            strategy: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        self.floor.check(key)?;
        let mut pushed = Pushed::Added;
        if S::DECREASE_KEY {
            if self.is_held(node) {
                if key >= self.keys[node as usize] {
                    return Ok(Pushed::Kept);
                }
                pushed = Pushed::Decreased;
            } else {
                self.set_held(node, true);
            }
            self.keys[node as usize] = key;
        }
        self.insert(key, node);
        if pushed == Pushed::Added {
            self.len += 1;
        }
        Ok(pushed)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.len == 0 {
            return None;
        }
        loop {
            while let Some(node) = self.equal.pop() {
                if !self.is_live(node, self.last) {
                    continue;
                }
                if S::DECREASE_KEY {
                    self.set_held(node, false);
                }
                self.len -= 1;
                self.floor.popped(self.last);
                return Some((node, self.last));
            }
            // `len > 0`, so a live entry is in some bucket above 0.
            debug_assert!(self.near_mask | self.far_mask != 0, "a live entry went missing");
            self.redistribute();
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            let held = &mut self.held;
            let mut forget = |node: Node| held[node as usize / 64] &= !(1 << (node % 64));
            self.equal.iter().for_each(|&node| forget(node));
            self.near.iter().flatten().for_each(|&e| forget(e as Node));
            self.far.iter().flatten().for_each(|&(_, node)| forget(node));
        }
        self.equal.clear();
        self.near.iter_mut().for_each(Vec::clear);
        self.far.iter_mut().for_each(Vec::clear);
        self.near_mask = 0;
        self.far_mask = 0;
        self.last = 0;
        self.len = 0;
        self.floor.reset();
    }
}
