//! A circular bucket queue over the key span with a two-level occupancy bitmap, duplicates
//! only: key `k` in bucket `(cursor + k - floor) % buckets`,
//! each bucket a stack of 8-byte `(node, next)` entries from one arena, and a summary word
//! per 64 bitmap words so a pop finds the next occupied bucket in a few word reads however
//! sparse the keys (the fine cost scale's span is 551,615 buckets).
//!
//! | operation | cost |
//! |---|---|
//! | push | O(1) |
//! | pop | O(1) + O(gap / 4096) summary words |
//! | clear | O(buckets / 4096) |
//!
//! Memory: 4 bytes and 1 bit per bucket (the table is zero-initialised, so only pages of
//! buckets ever used are committed), 8 bytes per entry.
//!
//! Keys: bounded span ([`KeyRule::BoundedSpan`]), served up to
//! [`MAX_SPAN`] like the bucket queue. Ties: last in, first
//! out (each bucket is a stack).
//!
//! Should win: A* with a consistent heuristic at any frontier size; it is the fastest
//! exact queue the lab measured over these Moving AI maps, though short of 1.10× the
//! oracle floor (see below). Decrease-key is not built (the packed radix heap's lazy deletion
//! lost to its duplicates on most maps, see its file).
//!
//! # Measured
//!
//! Instructions (`valgrind --tool=callgrind pqlab run --map dao/brc202d.map --limit 40
//! --queue Q`, 620,723 expansions, 1.52 pushes and 1.49 pops an expansion; push and pop are
//! separate functions in the profile): 95 a push, 78 a pop, 592 an expansion for the whole
//! search, against the packed radix heap's 58, 150 and 627, and `bucket-queue-dup`'s 98,
//! 332 and 983 (its one-level bitmap's scan over the sparse fine-scale keys is what the
//! summary removes).
//!
//! Time: `pqlab compare --maps DIR --limit 100 --rounds 3 --queue std-binary-heap-dup
//! --queue radix-heap-crate-dup --queue dary8-dk --queue bucket-queue-dup --queue
//! packed-radix-heap-dup --queue bitmap-bucket-queue-dup`, DIR holding symlinks to the
//! Moving AI maps below; thread CPU time per search, median of 3 interleaved rounds, on a
//! shared 2-core machine loaded by other builds: differences under about 5%
//! are noise. In brackets: ÷ the oracle floor (the same A* replaying std's pops).
//!
//! | map | expansions a search | oracle floor | `std-binary-heap-dup` | `radix-heap-crate-dup` | `dary8-dk` | `bucket-queue-dup` | `packed-radix-heap-dup` | this |
//! |---|---|---|---|---|---|---|---|---|
//! | ht_chantry | 1,740 | 58.9 µs | 120 µs (2.04) | 99.7 µs (1.69) | **91.4 µs (1.55)** | 207 µs (3.51) | 99.3 µs (1.69) | **93.8 µs (1.59)** |
//! | brc202d | 15,547 | 497 µs | 1,036 µs (2.08) | 874 µs (1.76) | **807 µs (1.62)** | 1,552 µs (3.12) | 893 µs (1.80) | **822 µs (1.65)** |
//! | random512-25-0 | 23,466 | 1,271 µs | 2,101 µs (1.65) | **1,525 µs (1.20)** | 1,983 µs (1.56) | 1,747 µs (1.37) | 1,622 µs (1.28) | **1,561 µs (1.23)** |
//! | 32room_000 | 30,997 | 1,251 µs | 3,019 µs (2.41) | 1,940 µs (1.55) | 2,276 µs (1.82) | 2,031 µs (1.62) | 1,976 µs (1.58) | **1,803 µs (1.44)** |
//! | Paris_0_1024 | 56,406 | 2,238 µs | 6,379 µs (2.85) | **3,283 µs (1.47)** | 4,210 µs (1.88) | 3,522 µs (1.57) | **3,273 µs (1.46)** | **3,245 µs (1.45)** |
//!
//! Geometric mean over the five maps, the `pathfinding` crate's time ÷ each: oracle floor
//! 4.59×, this queue 3.13×, `radix-heap-crate-dup` 3.02×, `packed-radix-heap-dup` 2.96×,
//! `dary8-dk` 2.73×, `bucket-queue-dup` 2.21×, std 2.12×. So this queue takes about 1.47×
//! the floor here: the best exact queue measured, 3.6% ahead of the radix heap crate,
//! but short of ≤ 1.10× the floor overall and ≤ 1.2× in every band;
//! on the two smallest frontiers `dary8-dk` stays within noise of it. What is left is
//! the push (95 instructions, and a bucket head in a 2.2 MB table that is often cold) and
//! the search's own work, which the floor shows is 2/3 of the time.
//!
//! Tried and not kept: Rabin-style coarse bins, 2^W keys a bin in a ring
//! with a one-level bitmap, each bin an unsorted `Vec` scanned for its exact minimum on
//! every pop. `pqlab compare` on the five maps above (`--limit 100 --rounds 3`, two runs
//! beside builds), ÷ the oracle, geometric mean: W = 12: 4.58 and 5.16, W =
//! 14: 5.09, W = 16: 6.87, against 1.29 and 1.44 for `stacked-bitmap-bucket-queue-dup`;
//! Paris_0_1024 took about 160 ms a search at every width against 3.1–3.3 ms. Octile
//! grids put many entries on one `f`, so the current bin stays full however narrow it is,
//! and each pop scans it whole.
//!
//! # The gap to the floor
//!
//! Push, pop and the bucket scan are `#[inline(always)]`: with `#[inline]` the compiler
//! left all three out of line in the A\*, and inlining them made the search about 10%
//! faster. `pqlab compare --maps DIR --limit 100 --rounds 5 --queue
//! stacked-bitmap-bucket-queue-dup --queue bitmap-bucket-queue-dup --queue
//! std-binary-heap-dup` on the five maps above, three builds alternated three
//! times: the stacked queue's time ÷ the floor, geometric mean, 1.27, 1.24 and 1.22
//! inlined against 1.47, 1.38 and 1.30 out of line (inlined ÷ out of line, cycle by cycle:
//! 0.87, 0.90, 0.94); the plain queue 1.34, 1.32, 1.29 against 1.55, 1.45, 1.34; std's
//! heap, untouched, 2.08, 2.00, 2.13 against 2.10, 2.00, 1.98. Push and pop alone inlined
//! gave 0.85, 0.95, 0.96.
//!
//! Where the rest goes: per expansion on brc202d, `valgrind --tool=callgrind
//! --cache-sim=yes --branch-sim=yes --D1=32768,8,64 --LL=1048576,8,64 pqlab compare --map
//! dao/brc202d.map --limit 40 --rounds 1 --queue …` (a build with `RUSTFLAGS="-C
//! symbol-mangling-version=v0"`, so that each queue's search is a function of its own; the
//! simulated last level is the 1 MiB L2 of the machine that made the runs). Time ÷ the
//! floor: a maps run with push, pop and the scan out of line (see METHODOLOGY.md).
//!
//! | search | instructions | L1 misses | L2 misses | mispredicted branches | time ÷ the floor |
//! |---|---|---|---|---|---|
//! | the oracle floor | 326 | 1.97 | 1.62 | 2.62 | 1 |
//! | `bitmap-bucket-queue-dup`, out of line | 594 | 1.19 | 0.038 | 3.19 | 1.60 |
//! | `stacked-bitmap-bucket-queue-dup` (the equal-key stack), out of line | 580 | 1.20 | 0.033 | 3.66 | 1.57 |
//! | the stacked queue, push, pop and scan inlined (kept) | 501 | 1.20 | 0.034 | 3.39 | 0.90× out of line's, above |
//! | the plain queue, inlined alike | 513 | 1.21 | 0.037 | 4.26 | 0.91× out of line's |
//! | `coarse-bin-queue-w12-dup`, Rabin's bins (not kept) | 1,138 | 1.11 | 0.033 | 4.05 | 3.5× the stacked queue's, above |
//! | `radix-heap-dup` | 684 | 1.19 | 0.039 | 3.09 | 1.73 |
//! | `simd-quickheap-dup` | 634 | 0.64 | 0.019 | 4.26 | 2.01 |
//!
//! The floor misses more than any queue: its recorded pops stream from memory, which the
//! hardware prefetches and the simulation does not. So what separates the best queue from
//! the floor is instructions and branches: 175 instructions and 0.77 mispredicted branches
//! an expansion once inlined (from 254 and 1.04), for about 1.5 pushes and 1.5 pops. On
//! the other four maps the out-of-line stacked queue executed 1.64–1.80× the floor's
//! instructions (ht_chantry 615 against 341, random512-25-0 434 against 264, 32room_000
//! 608 against 344, Paris_0_1024 656 against 368), while taking 1.13–1.71× its time. The
//! equal-key stack saves 14 instructions and adds half a mispredicted branch (a push is
//! stacked or not, unpredictably); the SIMD quickheap executes fewer instructions than the
//! radix heap and misses less, but mispredicts 1.2 more branches an expansion and is the
//! slower; the caliber rule adds at most 1% of the pushes to the stack's on these maps (see
//! the stack's file). Not tried: the other queues' push and pop forced inline (the packed
//! radix heap's pop is a call too, 217 instructions an expansion).
//!
//! # Toward the floor: no stale entries, a table in cache, the search's own share
//!
//! Figures below: `pqlab compare --maps DIR --limit 50 --rounds 3 --queue …`, DIR holding
//! symlinks to AR0011SR, ht_chantry, brc202d, maze512-8-0, random512-25-0, 32room_000,
//! Aftershock and Paris_0_1024 (one map of each of 8 Moving AI kinds), on a shared 2-core
//! machine (a few percent is noise); instructions, misses and mispredictions per expansion
//! from `valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes pqlab run --map
//! dao/brc202d.map --limit 40 --queue Q` (620,723 expansions), inside `AStar::search`.
//!
//! * **Decrease-key, Dial's lists** (not kept). This queue made generic over the strategy;
//!   with decrease-key, each bucket a doubly linked list through node-indexed `(key, prev,
//!   next)` links (the bucket queue's), a decrease-key an unlink and a link, no stale pop.
//!   It passed the conformance suite and lost on all eight maps: its time ÷ the stacked
//!   queue's 1.12 (AR0011SR), 1.01 (ht_chantry), 1.05 (brc202d), 1.16 (maze512-8-0), 1.29
//!   (random512-25-0), 1.20 (32room_000), 1.13 (Aftershock), 1.21 (Paris_0_1024); the
//!   `pathfinding` crate's time ÷ each, geometric mean: 3.14× against the stacked queue's
//!   3.58× and this queue's 3.45× (the oracle 4.62×). Before the A\*'s change below, it
//!   executed the fewest instructions, 489 an expansion against 507 stacked and 514 plain,
//!   and mispredicted as many branches (3.93 against 3.87 and 3.55), but its links are a
//!   second map-sized table (16 bytes a cell, beside the A\*'s 8): L1 read misses 1.48
//!   against 1.09 and 1.07, write misses 0.29 against 0.12: the instructions the stale pops
//!   cost are fewer than the misses the links add. Its code is in this file's history (`git
//!   log -S bitmap-bucket-queue-dk`).
//! * **A table in cache** (not built). The span is already what the A\* needs: a child's
//!   `f` exceeds its parent's by the move's cost plus at most as much again in `h`, so 2 ×
//!   275,807 at the fine scale, and no ring narrower than the span keeps distinct held keys
//!   apart. What a smaller or two-level table could save is bounded by this queue's own L1
//!   misses: the stacked queue's loads and stores of `heads`, `words`, `summary` and
//!   `entries` miss L1 about 0.41 times an expansion (of 1.20 for the whole search): about
//!   6 cycles if each hits L2 (about 14 cycles), 2 ns, against a gap to the floor of 6–17
//!   ns an expansion on these maps. Not the gap. Coarse bins over a fine table would add a
//!   redistribution per entry that lands beyond the current bin (most of them: a push
//!   raises `f` by up to 2.8 straight moves), where Rabin's bins above already lost.
//!   Prefetching the next push's head (not tried) has no lead time: the A\* pushes a child
//!   as soon as it knows its key.
//! * **Goldberg's caliber rule** (not built): the count in
//!   [`equal_key_stack`](crate::equal_key_stack) says it would add under 1% of the pushes
//!   to the stack on seven of these maps and 13.6% on random512-25-0, at up to eight
//!   estimates a push.
//! * **The search's own share**: the oracle floor's 330 instructions an expansion
//!   (`valgrind --tool=callgrind pqlab compare --map dao/brc202d.map --limit 20 --rounds 1
//!   --queue stacked-bitmap-bucket-queue-dup`, `OracleSolver::solve`: 626,600 expansions, a
//!   checking pass and a round) go to the A\*'s neighbour loop (the walk over the legal
//!   moves, the improvement test on each neighbour's 8-byte state, `h` and the state's
//!   write for each push: about 290) and the replay of the recorded pops with their load
//!   (about 35). One change to the A\* is kept (see its file,
//!   `harness/src/search/astar.rs`): a pop of an open cell is taken as current without the
//!   tie rule's test where the queue guarantees it, which spares the monotone queues an
//!   estimate of `h` an expansion. Per expansion, the build before the change (the parent of
//!   the commit `git log -S open_pop_is_current` names) against this one, with the
//!   callgrind command above plus `--D1=32768,8,64 --LL=1048576,8,64 … --json` (expansions
//!   summed from the JSON, counters identical): the stacked queue 507 → 489 instructions on
//!   brc202d and 551 → 523 on Paris_0_1024 (40 problems, 2,132,623 expansions), mispredicted
//!   branches 3.87 → 3.38 and 2.57 → 2.01, L1 misses unchanged (1.20 and 3.36); std's heap,
//!   whose test stays, 604 → 602 and 854 → 849. The floor keeps the test (it replays std's
//!   pops, stale ones included), so this narrows the gap by the queue's 18–28 instructions,
//!   4–5% of its search. In time it is not seen: the two builds alternated six times, each
//!   `pqlab compare --maps DIR --limit 100 --rounds 1 --queue std-binary-heap-dup --queue
//!   stacked-bitmap-bucket-queue-dup` (DIR the eight maps above; the first build of a pair
//!   alternating), give the `pathfinding` crate's time ÷ each, geometric mean over the maps,
//!   median of the six (range): std 2.26× (2.18–2.53) before and 2.22× (2.09–2.34) after,
//!   the stacked queue 3.65× (3.31–3.82) and 3.52× (3.38–3.97), the oracle floor 4.65×
//!   (4.47–4.91) and 4.66× (4.44–4.98); the stacked queue ÷ the floor 1.28 (1.25–1.40) and
//!   1.31 (1.25–1.33); after ÷ before, pair by pair, 0.97 (0.94–1.07) for the stacked
//!   queue's figure: within the shared host's noise.
//!
//! Where the levers leave it: the fastest exact queue ÷ the oracle floor over the octile
//! workloads of the report's source run is 1.31× (geometric mean over 23 workloads,
//! 1.04–1.55×; `pqlab report`, its section "Other crates' A\*, and the oracle floor"), not
//! 1.15×; this queue wins the report's bands below 1k open cells, the packed radix heap
//! those above. Reaching 1.15× asks about 12% off the queue's time. On brc202d the
//! stacked queue executes 489 instructions an expansion against the floor's 326 and
//! mispredicts 3.38 branches against 2.62, while missing L1 less (1.20 against 1.97): the
//! gap is the instructions and branches of 1.5 pushes and 1.5 pops. Dial's lists cut 18
//! instructions and added 0.56 L1 misses; the table's own misses are 0.41 of the 1.20, a
//! bound of about 2 ns; the caliber rule would move under 1% of the pushes; the A\*'s
//! change cuts 18–28 instructions and 0.5 mispredictions, 4–5%, not seen in time.

use crate::bucket_queue::MAX_SPAN;
use crate::{
    check_node, Family, Frontier, Key, KeyFloor, KeyRule, Node, Origin, PushError, Pushed, Spec,
    Strategy, Ties,
};

/// Ends a bucket's stack and the free list.
const NIL: u32 = u32::MAX;

/// A circular bucket queue with a two-level bitmap.
///
/// Invariants: while entries are held, `cursor == floor % buckets` and every held key is in
/// `floor..=floor + span`; a bucket's bit in `words` is set iff its stack is non-empty (only
/// then is its head meaningful), and a bit of `summary` is set iff its word is non-zero.
#[derive(Debug)]
pub struct BitmapBucketQueue {
    heads: Vec<u32>,
    words: Vec<u64>,
    summary: Vec<u64>,
    /// `(node, next)`: the arena of every bucket's stack, and of the free list.
    entries: Vec<(Node, u32)>,
    free: u32,
    cursor: usize,
    floor: KeyFloor,
    len: usize,
    capacity: usize,
}

impl BitmapBucketQueue {
    #[inline]
    fn bucket(&self, key: Key) -> usize {
        let index = self.cursor + (key - self.floor.get()) as usize;
        index.checked_sub(self.heads.len()).unwrap_or(index)
    }

    /// The first occupied bucket at or after the cursor, going round. Needs `len > 0`.
    #[inline(always)]
    fn next_occupied(&self) -> usize {
        let word = self.cursor / 64;
        let bits = self.words[word] & (u64::MAX << (self.cursor % 64));
        if bits != 0 {
            return word * 64 + bits.trailing_zeros() as usize;
        }
        // The summary from the next word on, going round (back to `word` itself, whose
        // bits below the cursor are keys a whole turn ahead).
        let next = (word + 1) % self.words.len();
        let mut group = next / 64;
        let mut bits = self.summary[group] & (u64::MAX << (next % 64));
        while bits == 0 {
            group += 1;
            if group == self.summary.len() {
                group = 0;
            }
            bits = self.summary[group];
        }
        let word = group * 64 + bits.trailing_zeros() as usize;
        word * 64 + self.words[word].trailing_zeros() as usize
    }
}

impl Frontier for BitmapBucketQueue {
    const FAMILY: Family = Family::BucketQueue;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::BoundedSpan;
    const TIES: Ties = Ties::Lifo;

    fn new(spec: Spec) -> Self {
        let span = spec.span.min(MAX_SPAN);
        let buckets = span as usize + 1;
        let words = buckets.div_ceil(64);
        BitmapBucketQueue {
            heads: vec![0; buckets],
            words: vec![0; words],
            summary: vec![0; words.div_ceil(64)],
            entries: Vec::new(),
            free: NIL,
            cursor: 0,
            floor: KeyFloor::new(KeyRule::BoundedSpan, Spec { span, ..spec }),
            len: 0,
            capacity: spec.capacity,
        }
    }

    #[inline(always)]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        self.floor.check(key)?;
        if self.len == 0 {
            self.cursor = (self.floor.get() % self.heads.len() as Key) as usize;
        }
        let bucket = self.bucket(key);
        let (word, bit) = (bucket / 64, 1u64 << (bucket % 64));
        let next = if self.words[word] & bit != 0 { self.heads[bucket] } else { NIL };
        let entry = if self.free != NIL {
            let entry = self.free;
            self.free = self.entries[entry as usize].1;
            self.entries[entry as usize] = (node, next);
            entry
        } else {
            let entry = self.entries.len();
            assert!(entry < NIL as usize, "a bucket queue holds at most 2^32 - 1 entries");
            self.entries.push((node, next));
            entry as u32
        };
        self.heads[bucket] = entry;
        self.words[word] |= bit;
        self.summary[word / 64] |= 1 << (word % 64);
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.len == 0 {
            return None;
        }
        let bucket = self.next_occupied();
        let distance = if bucket >= self.cursor {
            bucket - self.cursor
        } else {
            bucket + self.heads.len() - self.cursor
        };
        let key = self.floor.get() + distance as Key;
        let entry = self.heads[bucket];
        let (node, next) = std::mem::replace(&mut self.entries[entry as usize], (0, self.free));
        self.free = entry;
        if next == NIL {
            let word = bucket / 64;
            self.words[word] &= !(1 << (bucket % 64));
            if self.words[word] == 0 {
                self.summary[word / 64] &= !(1 << (word % 64));
            }
        } else {
            self.heads[bucket] = next;
        }
        self.len -= 1;
        self.cursor = bucket;
        self.floor.popped(key);
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Visits the summary, and the bitmap words it marks.
    fn clear(&mut self) {
        for group in 0..self.summary.len() {
            let mut bits = std::mem::take(&mut self.summary[group]);
            while bits != 0 {
                self.words[group * 64 + bits.trailing_zeros() as usize] = 0;
                bits &= bits - 1;
            }
        }
        self.entries.clear();
        self.free = NIL;
        self.len = 0;
        self.floor.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_search_goes_round_the_table() {
        // 10,000 buckets: 157 bitmap words, 3 summary words.
        let mut queue = BitmapBucketQueue::new(Spec { capacity: 4, span: 9_999 });
        queue.push(0, 9_990).unwrap(); // the floor: bucket 9,990
        queue.push(1, 18_990).unwrap(); // bucket 8,990, behind the cursor
        queue.push(2, 9_995).unwrap();
        queue.push(3, 10_100).unwrap(); // bucket 100
        let popped: Vec<_> = std::iter::from_fn(|| queue.pop()).collect();
        assert_eq!(popped, [(0, 9_990), (2, 9_995), (3, 10_100), (1, 18_990)]);
        // After a clear, from bucket 5,000 (summary word 1) to bucket 100 (summary word 0).
        queue.clear();
        queue.push(0, 5_000).unwrap();
        queue.push(1, 10_100).unwrap();
        let popped: Vec<_> = std::iter::from_fn(|| queue.pop()).collect();
        assert_eq!(popped, [(0, 5_000), (1, 10_100)]);
    }
}
