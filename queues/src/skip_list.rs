//! Our sorted skip list (Pugh, "Skip lists: a probabilistic alternative to balanced trees",
//! CACM 1990), in both strategies: entries in ascending key order on level 0, each also
//! on the levels above up to its random height, in a flat arena of `u32` words.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(log n) expected; O(h) at the front | O(log n) expected; O(h) at the front |
//! | push (held node, smaller key) | O(log n) expected, adds an entry | O(log n) expected: unlink, then insert |
//! | pop | O(1) expected | O(1) expected |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! `h` is the new entry's height, 4/3 on average. Pop takes the head's first successor:
//! only the head's links on that entry's levels change.
//!
//! Keys: any. Ties: LIFO ([`Ties::Lifo`]): a new or decreased entry goes before every
//! entry with an equal key (searches stop at the first key `>=` the one inserted), so
//! among equal keys the one added or lowered most recently pops first.
//!
//! Should win (a hypothesis the lab measures): by this file's own measurement (see
//! [`SkipList`]), nowhere against the implicit heaps: on recorded grid A* traces it takes
//! 1.6 times as long as `dary4-dup` (duplicates) and 2.4 times as long as `dary4-dk`
//! (decrease-key), with 100,000 random keys held about 2.9 times, with a million 4.5
//! times, because every level of a search ends in a mispredicted branch and a dependent
//! load. Its best case is an A* whose children mostly go to the front (the parent's `f`
//! and a larger `g`: 30 % of the pushes in those traces), which cost no search here; the
//! lab measures whether some maps make that enough.
//!
//! # Following Pugh, and where this departs from the paper
//!
//! * **p = 1/4 and at most 16 levels**: Pugh's recommended p, and log_4 2^32 levels, one
//!   for every entry count the `u32` arena can address. Both are const parameters so the
//!   measurement that chose them reruns; see [`SkipList`].
//! * **A tail sentinel** with key `u64::MAX` ends every level (Pugh's NIL with the largest
//!   key), so a search's inner loop is one key comparison.
//! * **No `update` array.** Pugh's insert records a predecessor per level, then links; here
//!   the descent links the new entry on each of its levels as it passes them (a level's
//!   links are not read again below it).
//! * **Front pushes skip the search**: a key no larger than the first entry's links after
//!   the head on each of its levels.
//! * **Decrease-key** is Pugh's delete then insert. The delete finds the entry's
//!   predecessors by `(key, seq)`, a stamp that orders equal keys newest first, so ties
//!   are never scanned; the entry keeps its slot and height.
//! * **Heights are reused.** A popped entry's slot goes on a free list and keeps its
//!   height; a push takes the most recently freed slot (warm in the cache) and draws a
//!   fresh height only when the free list is empty. The heights held stay independent
//!   geometric draws, because which slots are held or free depends on the keys and never
//!   on the heights; the generator runs once per arena slot instead of once per push.
//!
//! # Layout
//!
//! One `Vec<u32>`; a slot is `[key low, key high, node, seq (Dk only), link 0, ..., link
//! h-1]` and is named by its offset. Slot 0 is the head (with `MAX_LEVEL` links), the
//! tail follows it, entries follow the tail. Variable heights keep an entry at 12 + 4 h
//! bytes (16 + 4 h with `Dk`), 17.3 (21.3) on average; fixed 16-level slots were measured
//! too (see [`SkipList`]) and lose as soon as the list outgrows the cache. With `Dk` a
//! position table maps each held node to its slot. Nothing recurses, so no shape needs
//! stack, and every index is bounds-checked: no `unsafe`.
//!
//! # Randomness
//!
//! Heights come from a SplitMix64 generator inside the struct, seeded with a constant:
//! runs are repeatable. [`Frontier::clear`] reseeds it and empties the arena, so every
//! search on a map builds the same shapes whatever ran before it.
//!
//! ```
//! use pqlab_queues::{skip_list::SkipList, Dup, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = SkipList::<Dup>::new(Spec { capacity: 10, span: 16 });
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

/// No slot: the end of the free list.
const NIL: u32 = u32::MAX;
/// The head's offset.
const HEAD: u32 = 0;
/// The generator's seed, restored by `clear`.
const SEED: u64 = 0x5eed_5c1b_11a7_0001;

/// A min-first skip list; `LOG_INV_P` is log2(1 / p) and `MAX_LEVEL` caps an entry's
/// height. The defaults (p = 1/4, 16 levels) are the registered queues.
///
/// # The measurement that chose them
///
/// `cargo test --release -p pqlab-queues --lib skip_list::tune -- --ignored --nocapture`,
/// with `PQLAB_TUNE=dup-p4-cap16,dup-p2-cap32,...` (the first is the reference) and
/// `PQLAB_TUNE_ROUNDS=11`, times two workloads in interleaved rounds and prints each
/// configuration's median time ratio to the first:
/// * *grid*: the recorded frontier operations of three octile A* searches on a 1024 × 1024
///   grid, 30 % blocked, keys `f << 32 | (u32::MAX - g)` as the harness makes them: 1.15
///   million pushes and as many pops, frontiers up to about 2,900 entries; with `Dk`,
///   229,000 of the pushes lower a held key;
/// * *random*: 100,000 random keys held, 200,000 rounds of pop and push a little above the
///   popped key, then a drain (`PQLAB_TUNE_HELD` changes the count).
///
/// Instructions and simulated mispredicted branches come from one configuration and one
/// workload at a time (`PQLAB_TUNE=dup-p4-cap16 PQLAB_TUNE_WORKLOAD=grid valgrind
/// --tool=callgrind --branch-sim=yes --toggle-collect='*replay*'
/// --toggle-collect='*random_keys*' <the test binary> skip_list::tune::tune --ignored
/// --exact`), on 2 shared cores:
///
/// | configuration | grid: instr., mispredicts, time | random: instr., mispredicts, time |
/// |---|---|---|
/// | `Dup`, p = 1/4, 16 levels | 470 M, 8.7 M, 1 | 179 M, 3.5 M, 1 |
/// | `Dup`, p = 1/2, 32 levels | 528 M, 12.6 M, ×1.21 | 215 M, 4.9 M, ×1.15 |
/// | `Dup`, p = 1/8, 11 levels | 500 M, 6.4 M, ×1.04 | 194 M, 2.3 M, ×1.16 |
/// | `Dup`, p = 1/4, 8 levels | 470 M, 8.7 M, ×0.99 | 175 M, 3.2 M, ×1.02 |
/// | `Dk`, p = 1/4, 16 levels | 556 M, 11.5 M, ×1.37 | 192 M, 3.9 M, ×1.13 |
/// | `Dk`, p = 1/2, 32 levels | 630 M, 15.9 M, ×1.57 | 228 M, 4.8 M, ×1.30 |
/// | `Dk`, p = 1/8, 11 levels | 584 M, 7.8 M, ×1.24 | 207 M, 2.2 M, ×1.23 |
/// | `dary4-dup` | 522 M, 3.2 M, ×0.61 | 162 M, 0.4 M, ×0.36 |
/// | `dary4-dk` | 498 M, 3.4 M, ×0.58 | 187 M, 0.4 M, ×0.38 |
/// | `pairing-heap-dk` | 443 M, 4.4 M, ×1.19 | 251 M, 0.9 M, ×0.87 |
///
/// p = 1/4 beats 1/2 everywhere (fewer levels, so fewer mispredicted level exits); 1/8,
/// outside Pugh's two recommended values, trades mispredicts for longer walks and only
/// wins the `Dk` grid trace. The cap does not show below 4^cap entries (8 levels cost
/// nothing at 100,000 entries, whose top level then holds about 6); 16 keeps the top level
/// short up to 2^32 entries, and costs only the head's unused links.
///
/// Tried and left out, with the same command (15 rounds, ratios to this file's code):
/// `get_unchecked` in the key and link reads, 29 % fewer instructions but ×0.96 time,
/// not worth `unsafe`; fixed 16-level slots, ×0.95 on the grid but ×1.42 at 100,000
/// entries; a search started from the highest level whose first key is below the pushed
/// one (counted on a mirror of the head's successor keys), ×1.06 and ×1.05; Pugh's search
/// finger (the previous search's path), no fewer mispredicts, since the A* pushes
/// alternate between a few far-apart key groups; each link also holding its successor's
/// key, more instructions and no faster; decrease-key fused into one descent following
/// both positions, ×1.0 with more code.
///
/// Invariants: level 0, from the head through `next` links to the tail, holds exactly
/// the `len` entries, ascending by key and, within a key, descending by `seq` (`Dk`);
/// level `l` is the sublist of entries with height `> l`; the head's links at levels
/// `>= level` point to the tail; every slot past the tail holds an entry or is on the
/// free list (threaded through link 0, its height in its node word); with `Dk`,
/// `positions` maps each held node to its slot, and every held `seq` is below `next_seq`.
#[derive(Debug)]
pub struct SkipList<S, const LOG_INV_P: u32 = 2, const MAX_LEVEL: usize = 16> {
    arena: Vec<u32>,
    /// The number of levels in use: the largest height held (0 when empty).
    level: usize,
    len: usize,
    /// The most recently freed slot, or `NIL`.
    free: u32,
    /// SplitMix64 state.
    rng: u64,
    /// `Dk` only: the next stamp (stamps order equal keys; 0 is the tail's).
    next_seq: u32,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind, const LOG_INV_P: u32, const MAX_LEVEL: usize>
    SkipList<S, LOG_INV_P, MAX_LEVEL>
{
    /// Words before a slot's links.
    const HEADER: usize = if S::DECREASE_KEY { 4 } else { 3 };
    /// The tail sentinel's offset, right after the head.
    const TAIL: u32 = (Self::HEADER + MAX_LEVEL) as u32;
    /// The first entry slot's offset.
    const FIRST: usize = Self::TAIL as usize + Self::HEADER;

    #[inline]
    fn key(&self, slot: u32) -> Key {
        let at = slot as usize;
        Key::from(self.arena[at]) | Key::from(self.arena[at + 1]) << 32
    }

    #[inline]
    fn set_key(&mut self, slot: u32, key: Key) {
        let at = slot as usize;
        self.arena[at] = key as u32;
        self.arena[at + 1] = (key >> 32) as u32;
    }

    #[inline]
    fn link(&self, slot: u32, level: usize) -> u32 {
        self.arena[slot as usize + Self::HEADER + level]
    }

    #[inline]
    fn set_link(&mut self, slot: u32, level: usize, to: u32) {
        self.arena[slot as usize + Self::HEADER + level] = to;
    }

    /// `Dk` only: the slot's stamp.
    #[inline]
    fn seq(&self, slot: u32) -> u32 {
        self.arena[slot as usize + 3]
    }

    /// A fresh height: 1 + the number of `LOG_INV_P`-bit groups of zeros at the bottom of
    /// a SplitMix64 output, capped at `MAX_LEVEL`: height `> h` with probability p^h.
    #[inline]
    fn fresh_height(&mut self) -> usize {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (1 + (z.trailing_zeros() / LOG_INV_P) as usize).min(MAX_LEVEL)
    }

    /// A slot for a new entry and its height: the most recently freed one, or a new one
    /// at the end of the arena with a fresh height.
    #[inline]
    fn take_slot(&mut self) -> (u32, usize) {
        if self.free != NIL {
            let slot = self.free;
            let height = self.arena[slot as usize + 2] as usize;
            self.free = self.link(slot, 0);
            return (slot, height);
        }
        let height = self.fresh_height();
        let slot = self.arena.len();
        let end = slot + Self::HEADER + height;
        assert!(end < NIL as usize, "a skip list's arena holds fewer than 2^32 - 1 words");
        self.arena.resize(end, 0);
        (slot as u32, height)
    }

    /// Links the unlinked `slot` of `height` before every entry with a key `>= key` (its
    /// own key word must already say `key`).
    #[inline]
    fn insert(&mut self, slot: u32, height: usize, key: Key) {
        if key <= self.key(self.link(HEAD, 0)) {
            // At the front (or into an empty list): the head precedes it on every level.
            for level in 0..height {
                let next = self.link(HEAD, level);
                self.set_link(slot, level, next);
                self.set_link(HEAD, level, slot);
            }
            self.level = self.level.max(height);
            return;
        }
        let top = self.level.max(height);
        let mut pred = HEAD;
        // Above the new entry's levels, search; on them, search and link. Above
        // `self.level` the head links to the tail, so the search stops at once.
        for level in (height..top).rev() {
            let mut next = self.link(pred, level);
            while self.key(next) < key {
                pred = next;
                next = self.link(pred, level);
            }
        }
        for level in (0..height).rev() {
            let mut next = self.link(pred, level);
            while self.key(next) < key {
                pred = next;
                next = self.link(pred, level);
            }
            self.set_link(slot, level, next);
            self.set_link(pred, level, slot);
        }
        self.level = top;
    }

    /// `Dk`: unlinks the held `slot` from every level it is on; returns its height. Its
    /// predecessors are found by `(key, seq)`, so ties are never scanned.
    #[inline]
    fn unlink(&mut self, slot: u32) -> usize {
        let (key, seq) = (self.key(slot), self.seq(slot));
        let mut height = 0;
        let mut pred = HEAD;
        for level in (0..self.level).rev() {
            let mut next = self.link(pred, level);
            // Stops at the slot (not before itself) or the tail (seq 0, never before).
            loop {
                let next_key = self.key(next);
                if next_key < key || (next_key == key && self.seq(next) > seq) {
                    pred = next;
                    next = self.link(pred, level);
                } else {
                    break;
                }
            }
            if next == slot {
                let after = self.link(slot, level);
                self.set_link(pred, level, after);
                height = height.max(level + 1);
            }
        }
        height
    }

    /// `Dk`: lowers the held `slot`'s key to `key`: unlinks it and links it anew, before
    /// every entry with a key `>= key`, with the next stamp.
    #[inline]
    fn decrease(&mut self, slot: u32, key: Key) {
        let height = self.unlink(slot);
        self.set_key(slot, key);
        let seq = self.stamp();
        self.arena[slot as usize + 3] = seq;
        self.insert(slot, height, key);
    }

    /// `Dk`: the next stamp. When stamps run out, renumbers the entries held along level 0
    /// (`len` down to 1: the same order) first: O(n) once per 2^32 - n pushes.
    #[inline]
    fn stamp(&mut self) -> u32 {
        if self.next_seq == u32::MAX {
            self.renumber();
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    #[cold]
    fn renumber(&mut self) {
        // `len` fits: the arena holds more than 4 words per entry below 2^32.
        let mut seq = self.len as u32;
        let mut slot = self.link(HEAD, 0);
        while slot != Self::TAIL {
            self.arena[slot as usize + 3] = seq;
            seq -= 1;
            slot = self.link(slot, 0);
        }
        self.next_seq = self.len as u32 + 1;
    }

    /// Empties the arena down to the head (linking to the tail at every level) and the
    /// tail, and reseeds the generator.
    fn reset(&mut self) {
        self.arena.truncate(Self::FIRST);
        let tail = Self::TAIL;
        let links = Self::HEADER..Self::HEADER + MAX_LEVEL;
        self.arena[links].fill(tail);
        self.level = 0;
        self.len = 0;
        self.free = NIL;
        self.rng = SEED;
        self.next_seq = 1;
    }
}

impl<S: StrategyKind, const LOG_INV_P: u32, const MAX_LEVEL: usize> Frontier
    for SkipList<S, LOG_INV_P, MAX_LEVEL>
{
    const FAMILY: Family = Family::SkipList;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Lifo;

    fn new(spec: Spec) -> Self {
        assert!(
            (1..=32).contains(&LOG_INV_P) && (1..=64).contains(&MAX_LEVEL),
            "a skip list takes p = 1/2 .. 1/2^32 and 1 ..= 64 levels"
        );
        let mut arena = vec![0; Self::FIRST];
        // The tail: the largest key, seq 0 (never newer than an entry), no links.
        let tail = Self::TAIL as usize;
        arena[tail] = u32::MAX;
        arena[tail + 1] = u32::MAX;
        let mut list = SkipList {
            arena,
            level: 0,
            len: 0,
            free: NIL,
            rng: SEED,
            next_seq: 1,
            positions: PositionTable::for_strategy::<S>(spec.capacity),
            capacity: spec.capacity,
            strategy: PhantomData,
        };
        list.reset();
        list
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            if let Some(slot) = self.positions.get(node) {
                if key >= self.key(slot) {
                    return Ok(Pushed::Kept);
                }
                self.decrease(slot, key);
                return Ok(Pushed::Decreased);
            }
        }
        let (slot, height) = self.take_slot();
        self.set_key(slot, key);
        self.arena[slot as usize + 2] = node;
        if S::DECREASE_KEY {
            let seq = self.stamp();
            self.arena[slot as usize + 3] = seq;
            self.positions.set(node, slot);
        }
        self.insert(slot, height, key);
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.len == 0 {
            return None;
        }
        let first = self.link(HEAD, 0);
        let key = self.key(first);
        let node = self.arena[first as usize + 2];
        // The first entry is the head's successor on each of its levels, and on no other.
        let mut height = 0;
        while height < self.level && self.link(HEAD, height) == first {
            let after = self.link(first, height);
            self.set_link(HEAD, height, after);
            height += 1;
        }
        while self.level > 0 && self.link(HEAD, self.level - 1) == Self::TAIL {
            self.level -= 1;
        }
        // Free: the height goes in the node word, the free list through link 0.
        self.arena[first as usize + 2] = height as u32;
        self.set_link(first, 0, self.free);
        self.free = first;
        self.len -= 1;
        if S::DECREASE_KEY {
            self.positions.remove(node);
        }
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            let mut slot = self.link(HEAD, 0);
            while slot != Self::TAIL {
                self.positions.remove(self.arena[slot as usize + 2]);
                slot = self.link(slot, 0);
            }
        }
        self.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    impl<S: StrategyKind, const LOG_INV_P: u32, const MAX_LEVEL: usize>
        SkipList<S, LOG_INV_P, MAX_LEVEL>
    {
        /// Checks every invariant of the type's documentation; panics on the first broken.
        fn check(&self) {
            let tail = Self::TAIL;
            // Level 0: the entries in order.
            let mut order = Vec::new();
            let mut slot = self.link(HEAD, 0);
            while slot != tail {
                order.push(slot);
                slot = self.link(slot, 0);
                assert!(order.len() <= self.len, "level 0 holds more than len entries");
            }
            assert_eq!(order.len(), self.len, "level 0 holds len entries");
            for pair in order.windows(2) {
                let (a, b) = (self.key(pair[0]), self.key(pair[1]));
                assert!(a <= b, "level 0 ascends");
                if S::DECREASE_KEY && a == b {
                    assert!(self.seq(pair[0]) > self.seq(pair[1]), "equal keys newest first");
                }
            }
            // Heights: level l is the sublist of entries on more than l levels.
            let mut height = vec![0usize; self.arena.len()];
            for level in 0..MAX_LEVEL {
                let mut slot = self.link(HEAD, level);
                let mut on_level = Vec::new();
                while slot != tail {
                    on_level.push(slot);
                    height[slot as usize] = level + 1;
                    slot = self.link(slot, level);
                }
                let expected: Vec<u32> =
                    order.iter().copied().filter(|&s| height[s as usize] > level).collect();
                assert_eq!(on_level, expected, "level {level} is a sublist of level 0");
                assert_eq!(on_level.is_empty(), level >= self.level, "level {level} in use");
            }
            // Every slot is held or free; free slots say their height.
            let mut slots = 0;
            let mut slot = Self::FIRST;
            let held: std::collections::HashSet<u32> = order.iter().copied().collect();
            let mut free = std::collections::HashMap::new();
            let mut next = self.free;
            while next != NIL {
                let height = self.arena[next as usize + 2] as usize;
                assert!((1..=MAX_LEVEL).contains(&height), "a free slot's height");
                assert!(free.insert(next, height).is_none(), "the free list has no cycle");
                next = self.link(next, 0);
            }
            while slot < self.arena.len() {
                let size = if held.contains(&(slot as u32)) {
                    height[slot]
                } else {
                    *free.get(&(slot as u32)).expect("a slot is held or free")
                };
                slot += Self::HEADER + size;
                slots += 1;
            }
            assert_eq!(slot, self.arena.len(), "slots tile the arena");
            assert_eq!(slots, held.len() + free.len());
            if S::DECREASE_KEY {
                for &slot in &order {
                    let node = self.arena[slot as usize + 2];
                    assert_eq!(self.positions.get(node), Some(slot), "positions");
                    assert!(self.seq(slot) > 0 && self.seq(slot) < self.next_seq, "stamps");
                }
            }
        }
    }

    const N: u32 = 100_000;

    fn list<S: StrategyKind>(capacity: u32) -> SkipList<S> {
        SkipList::new(Spec { capacity: capacity as usize, span: 0 })
    }

    /// Keys ascending, descending and all equal, 100,000 of each, on a 64 KiB stack; with
    /// `Dk` the equal keys are then lowered oldest first (each found by its stamp, never
    /// by scanning the ties).
    fn degenerate_shapes<S: StrategyKind>() {
        let mut list = list::<S>(N);
        for node in 0..N {
            list.push(node, Key::from(node)).unwrap();
        }
        list.check();
        for node in 0..N {
            assert_eq!(list.pop(), Some((node, Key::from(node))));
        }
        for node in 0..N {
            list.push(node, Key::from(N - node)).unwrap();
        }
        list.check();
        for node in (0..N).rev() {
            assert_eq!(list.pop(), Some((node, Key::from(N - node))));
        }
        assert_eq!(list.pop(), None);
        for node in 0..N {
            list.push(node, 7).unwrap();
        }
        if S::DECREASE_KEY {
            for node in 0..N {
                assert_eq!(list.push(node, 6), Ok(Pushed::Decreased));
            }
            list.check();
            for node in (0..N).rev() {
                assert_eq!(list.pop(), Some((node, 6)));
            }
        } else {
            for node in (0..N).rev() {
                assert_eq!(list.pop(), Some((node, 7)));
            }
        }
        list.check();
        list.clear();
        list.check();
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
    fn degenerate_shapes_need_no_stack_and_no_scan_of_ties() {
        on_a_small_stack(degenerate_shapes::<Dup>);
        on_a_small_stack(degenerate_shapes::<Dk>);
    }

    /// Random pushes, decrease-keys and pops, with the invariants checked after each.
    fn keeps_its_invariants<S: StrategyKind>() {
        let mut list = list::<S>(64);
        let mut rng = SEED;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for step in 0..20_000 {
            match next() % 10 {
                0..=5 => {
                    list.push((next() % 64) as Node, next() % 40).unwrap();
                }
                6..=8 => {
                    list.pop();
                }
                _ if step % 500 == 9 => list.clear(),
                _ => {}
            }
            list.check();
        }
    }

    #[test]
    fn random_operations_keep_the_invariants() {
        keeps_its_invariants::<Dup>();
        keeps_its_invariants::<Dk>();
    }

    /// Stamps running out renumber the entries held without changing their order.
    #[test]
    fn stamps_renumber_when_they_run_out() {
        let mut list = list::<Dk>(32);
        list.next_seq = u32::MAX - 5;
        let mut expected = Vec::new();
        for node in 0..16 {
            list.push(node, Key::from(node % 3)).unwrap();
            list.check();
        }
        assert!(list.next_seq < 100, "renumbered during a push");
        // Lower every node with key 2 to 1, running out of stamps again on the way: each
        // becomes the newest with key 1.
        list.next_seq = u32::MAX - 2;
        for node in 0..16 {
            if node % 3 == 2 {
                list.push(node, 1).unwrap();
                list.check();
            }
        }
        assert!(list.next_seq < 100, "renumbered during a decrease-key");
        for node in (0..16).rev() {
            if node % 3 == 0 {
                expected.push((node, 0));
            }
        }
        for node in (0..16).rev() {
            if node % 3 == 2 {
                expected.push((node, 1));
            }
        }
        for node in (0..16).rev() {
            if node % 3 == 1 {
                expected.push((node, 1));
            }
        }
        let popped: Vec<_> = std::iter::from_fn(|| list.pop()).collect();
        assert_eq!(popped, expected);
    }

    /// `clear` reseeds: the same pushes after a clear build the same arena, whatever ran
    /// before; and it forgets what it held, with `Dk` node by node.
    #[test]
    fn clear_reseeds_and_rebuilds_the_same_shape() {
        fn build<S: StrategyKind>(list: &mut SkipList<S>) -> Vec<u32> {
            for node in 0..1000 {
                list.push(node, Key::from(node * 7919 % 1000)).unwrap();
            }
            list.arena.clone()
        }
        fn same<S: StrategyKind>() {
            let mut list = list::<S>(1000);
            let first = build(&mut list);
            for _ in 0..300 {
                list.pop();
            }
            list.clear();
            list.check();
            assert_eq!(build(&mut list), first);
            list.clear();
            assert_eq!(build(&mut list), first);
        }
        same::<Dup>();
        same::<Dk>();
    }

    #[test]
    fn freed_slots_are_reused() {
        let mut list = list::<Dup>(10);
        for round in 0..1000 {
            for node in 0..10 {
                list.push(node, Key::from(node + round)).unwrap();
            }
            for _ in 0..10 {
                list.pop().unwrap();
            }
        }
        list.check();
        assert!(list.arena.len() < SkipList::<Dup>::FIRST + 10 * (3 + 16));
    }
}

/// The measurement that chose p and the level cap: see [`SkipList`] for the command and
/// the figures. `PQLAB_TUNE=<config>` runs one configuration once (for callgrind), and
/// `PQLAB_TUNE_WORKLOAD=grid` or `random` one workload.
#[cfg(test)]
mod tune {
    use std::time::Instant;

    use super::SkipList;
    use crate::{Dk, Dup, Frontier, Key, Node, Spec};

    const SIDE: usize = 1024;
    /// A pop in a trace.
    const POP: Node = Node::MAX;

    /// A SIDE × SIDE grid, 30 % of cells blocked at random (fixed seed).
    fn grid() -> Vec<bool> {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        (0..SIDE * SIDE)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng % 10 < 3
            })
            .collect()
    }

    /// The frontier operations of three octile A* searches (straight 5, diagonal 7, no
    /// corner cutting; corner to corner and across) with keys `f << 32 | (u32::MAX - g)`,
    /// as the harness gives them, run with `F`: `(node, key)` for a push, `(POP, 0)` for a
    /// pop, `(POP, 1)` for a clear. About 1.3 million pops and pushes each, frontiers up
    /// to about 2,900 entries.
    fn grid_trace<F: Frontier>(blocked: &[bool]) -> Vec<(Node, Key)> {
        let cells = SIDE * SIDE;
        let mut queue = F::new(Spec { capacity: cells, span: 0 });
        let mut g = vec![0u32; cells];
        let mut stamp = vec![0u32; cells];
        let mut closed = vec![0u32; cells];
        let mut trace = Vec::new();
        let pairs = [
            (1usize, 1usize, SIDE - 2, SIDE - 2),
            (SIDE - 2, 1, 1, SIDE - 2),
            (1, SIDE / 2, SIDE - 2, SIDE / 2),
        ];
        for (search, &(sx, sy, tx, ty)) in pairs.iter().enumerate() {
            let generation = search as u32 + 1;
            let h = |cell: usize| -> u32 {
                let (x, y) = (cell % SIDE, cell / SIDE);
                let (dx, dy) = (x.abs_diff(tx) as u32, y.abs_diff(ty) as u32);
                5 * (dx + dy) - 3 * dx.min(dy)
            };
            let (start, goal) = (sy * SIDE + sx, ty * SIDE + tx);
            queue.clear();
            trace.push((POP, 1));
            g[start] = 0;
            stamp[start] = generation;
            let key = Key::from(h(start)) << 32 | Key::from(u32::MAX);
            queue.push(start as Node, key).unwrap();
            trace.push((start as Node, key));
            loop {
                trace.push((POP, 0));
                let Some((node, key)) = queue.pop() else { break };
                let cell = node as usize;
                let g_cell = u32::MAX - key as u32;
                if closed[cell] == generation || g_cell > g[cell] {
                    continue;
                }
                closed[cell] = generation;
                if cell == goal {
                    break;
                }
                let (x, y) = ((cell % SIDE) as isize, (cell / SIDE) as isize);
                let free = |x: isize, y: isize| {
                    x >= 0
                        && y >= 0
                        && (x as usize) < SIDE
                        && (y as usize) < SIDE
                        && !blocked[y as usize * SIDE + x as usize]
                };
                for (dx, dy) in
                    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
                {
                    let (nx, ny) = (x + dx, y + dy);
                    let diagonal = dx != 0 && dy != 0;
                    if !free(nx, ny) || (diagonal && !(free(x + dx, y) && free(x, y + dy))) {
                        continue;
                    }
                    let next = ny as usize * SIDE + nx as usize;
                    let g_next = g_cell + if diagonal { 7 } else { 5 };
                    if closed[next] == generation
                        || (stamp[next] == generation && g[next] <= g_next)
                    {
                        continue;
                    }
                    g[next] = g_next;
                    stamp[next] = generation;
                    let key = Key::from(g_next + h(next)) << 32 | Key::from(u32::MAX - g_next);
                    queue.push(next as Node, key).unwrap();
                    trace.push((next as Node, key));
                }
            }
        }
        trace
    }

    /// `grid_trace` for `F`, kept in the temporary directory across runs (valgrind runs
    /// each configuration in its own process, and recording costs more than replaying).
    fn cached_trace<F: Frontier>(blocked: &[bool], name: &str) -> Vec<(Node, Key)> {
        let path = std::env::temp_dir().join(format!("pqlab-skip-list-tune-{name}.bin"));
        if let Ok(bytes) = std::fs::read(&path) {
            return bytes
                .chunks_exact(12)
                .map(|op| {
                    let node = Node::from_le_bytes(op[..4].try_into().unwrap());
                    (node, Key::from_le_bytes(op[4..].try_into().unwrap()))
                })
                .collect();
        }
        let trace = grid_trace::<F>(blocked);
        let bytes: Vec<u8> = trace
            .iter()
            .flat_map(|&(node, key)| node.to_le_bytes().into_iter().chain(key.to_le_bytes()))
            .collect();
        std::fs::write(&path, bytes).expect("write the trace");
        trace
    }

    /// Replays a trace; returns a checksum of the keys popped.
    #[inline(never)]
    fn replay<F: Frontier>(trace: &[(Node, Key)]) -> u64 {
        let mut queue = F::new(Spec { capacity: SIDE * SIDE, span: 0 });
        let mut sum = 0u64;
        for &(node, key) in trace {
            match (node, key) {
                (POP, 0) => sum = sum.wrapping_add(queue.pop().map_or(0, |(_, key)| key)),
                (POP, _) => queue.clear(),
                _ => {
                    queue.push(node, key).unwrap();
                }
            }
        }
        sum
    }

    /// 100,000 random 40-bit keys held, then 200,000 rounds of pop and push a key a little
    /// above the popped one, then a drain.
    #[inline(never)]
    fn random_keys<F: Frontier>() -> u64 {
        let held: u32 = std::env::var("PQLAB_TUNE_HELD")
            .ok()
            .and_then(|held| held.parse().ok())
            .unwrap_or(100_000);
        let mut queue = F::new(Spec { capacity: 2 * held as usize, span: 0 });
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for node in 0..held {
            queue.push(node, next() >> 24).unwrap();
        }
        let mut sum = 0u64;
        for round in 0..2 * held {
            let (_, key) = queue.pop().unwrap();
            sum = sum.wrapping_add(key);
            let node = held + round % held;
            queue.push(node, key + (next() >> 34)).unwrap();
        }
        while let Some((_, key)) = queue.pop() {
            sum = sum.wrapping_add(key);
        }
        sum
    }

    /// Milliseconds for each workload, and a checksum.
    fn run<F: Frontier>(dup: &[(Node, Key)], dk: &[(Node, Key)]) -> (u64, f64, f64) {
        let workload = std::env::var("PQLAB_TUNE_WORKLOAD").unwrap_or_default();
        let trace = if F::STRATEGY == crate::Strategy::Duplicates { dup } else { dk };
        let started = Instant::now();
        let grid = if workload != "random" { replay::<F>(trace) } else { 0 };
        let mid = Instant::now();
        let random = if workload != "grid" { random_keys::<F>() } else { 0 };
        let end = Instant::now();
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        (grid ^ random, ms(mid - started), ms(end - mid))
    }

    type Run = fn(&[(Node, Key)], &[(Node, Key)]) -> (u64, f64, f64);

    const CONFIGS: [(&str, Run); 15] = [
        ("dup-p4-cap16", run::<SkipList<Dup, 2, 16>>),
        ("dup-p2-cap32", run::<SkipList<Dup, 1, 32>>),
        ("dup-p4-cap12", run::<SkipList<Dup, 2, 12>>),
        ("dup-p4-cap8", run::<SkipList<Dup, 2, 8>>),
        ("dup-p8-cap11", run::<SkipList<Dup, 3, 11>>),
        ("dup-p16-cap8", run::<SkipList<Dup, 4, 8>>),
        ("dk-p4-cap16", run::<SkipList<Dk, 2, 16>>),
        ("dk-p2-cap32", run::<SkipList<Dk, 1, 32>>),
        ("dk-p4-cap12", run::<SkipList<Dk, 2, 12>>),
        ("dk-p4-cap8", run::<SkipList<Dk, 2, 8>>),
        ("dk-p8-cap11", run::<SkipList<Dk, 3, 11>>),
        ("dk-p16-cap8", run::<SkipList<Dk, 4, 8>>),
        ("dary4-dup", run::<crate::dary_heap::DaryHeap<4, Dup>>),
        ("dary4-dk", run::<crate::dary_heap::DaryHeap<4, Dk>>),
        ("pairing-heap-dk", run::<crate::pairing_heap::PairingHeap<Dk>>),
    ];

    #[test]
    #[ignore = "a measurement, not a test: run in release mode"]
    fn tune() {
        let blocked = grid();
        let dup = cached_trace::<SkipList<Dup>>(&blocked, "dup");
        let dk = cached_trace::<SkipList<Dk>>(&blocked, "dk");
        // A comma-separated list of configurations (the first is the reference of the
        // ratios), and how many rounds.
        let only = std::env::var("PQLAB_TUNE").ok();
        let rounds = std::env::var("PQLAB_TUNE_ROUNDS")
            .ok()
            .and_then(|rounds| rounds.parse().ok())
            .unwrap_or(if only.is_some() { 1 } else { 5 });
        let chosen: Vec<(&str, Run)> = match only.as_deref() {
            Some(only) => only
                .split(',')
                .map(|one| *CONFIGS.iter().find(|(name, _)| *name == one).expect("a config"))
                .collect(),
            None => CONFIGS.to_vec(),
        };
        // Per configuration, per round: (grid, random) in ms. Each round runs every
        // configuration once, in an order that rotates, so a busy machine's drift cancels
        // out of the ratios to the first configuration taken within a round.
        let mut times = vec![Vec::new(); chosen.len()];
        for round in 0..rounds {
            let mut row = vec![(0.0, 0.0); chosen.len()];
            for k in 0..chosen.len() {
                let i = (round + k) % chosen.len();
                let (name, run) = chosen[i];
                let (sum, grid, random) = run(&dup, &dk);
                row[i] = (grid, random);
                println!("{name}: grid {grid:.1} ms, random {random:.1} ms ({sum:x})");
            }
            for (i, &time) in row.iter().enumerate() {
                times[i].push(time);
            }
        }
        let median = |mut values: Vec<f64>| {
            values.sort_by(f64::total_cmp);
            values[values.len() / 2]
        };
        for (i, (name, _)) in chosen.iter().enumerate() {
            let ratio = |pick: fn(&(f64, f64)) -> f64| {
                median(times[i].iter().zip(&times[0]).map(|(a, b)| pick(a) / pick(b)).collect())
            };
            println!(
                "{name}: grid median {:.1} ms (x{:.3}), random median {:.1} ms (x{:.3})",
                median(times[i].iter().map(|t| t.0).collect()),
                ratio(|t| t.0),
                median(times[i].iter().map(|t| t.1).collect()),
                ratio(|t| t.1),
            );
        }
    }
}
