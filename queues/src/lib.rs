//! A* frontier (OPEN set) implementations behind one contract, and a generic A* over them.
//!
//! Every queue in this crate implements [`Frontier`], and every one is listed once in
//! [`registry`]; the conformance suite, the harness's A*, the benchmarks, the charts and
//! `pqlab pick` all enumerate that list. [`astar()`] is an A* in the shape of the
//! `pathfinding` crate's, over any of them: switching is one call. The adapters over other
//! crates are behind cargo features, one per crate (`crates` for all). [`trace`] records
//! what your own search asks of its frontier, for `pqlab pick --trace` to replay against
//! every queue.
//!
//! # The frontier contract
//!
//! A frontier is a min-first queue of **nodes** with integer **keys**.
//!
//! * **Nodes** are dense `u32` ids below the `capacity` given at construction ([`Spec`]).
//!   Pushing a node `>= capacity` is rejected with [`PushError::NodeOutOfRange`].
//! * **Keys** are `u64`; smaller is better. [`Frontier::pop`] removes and returns an entry
//!   whose key is the minimum over all entries held. Among entries with equal keys, the
//!   order is the queue's own, deterministic, and documented in its file (the A* cares:
//!   see "Ties" below).
//! * **Strategy.** Each queue serves one [`Strategy`]:
//!   - [`Strategy::Duplicates`] (lazy deletion): every push adds an entry, even for a node
//!     already held with another key. The search skips stale entries when it pops them.
//!     [`Frontier::push`] always answers [`Pushed::Added`].
//!   - [`Strategy::DecreaseKey`]: a queue holds each node at most once, with O(1)
//!     membership. Pushing an absent node adds it ([`Pushed::Added`]); pushing a held node
//!     with a smaller key lowers its key ([`Pushed::Decreased`]); pushing a held node with
//!     an equal or larger key changes nothing ([`Pushed::Kept`]). A popped node is absent
//!     again and may be pushed anew (A* reopening).
//! * **Key restrictions** ([`KeyRule`]). Some queues accept only A*-shaped keys. The
//!   *floor* is the key most recently popped since construction or [`Frontier::clear`].
//!   - [`KeyRule::Monotone`]: no key below the floor (before the first pop, any key).
//!   - [`KeyRule::BoundedSpan`]: monotone, and no key above `floor + spec.span`. Before
//!     the first pop the floor is the first key pushed, so the first push sets it.
//!   - [`KeyRule::Narrow`]: any key below 2³², in any order.
//!
//!   A push that breaks its queue's rule is rejected with a [`PushError`] that says which
//!   rule and which keys; **a rejected push leaves the queue unchanged**. A queue never
//!   misorders silently and never reaches memory unsafety on misuse.
//! * [`Frontier::clear`] empties the queue, resets the floor, and keeps the allocations,
//!   so one queue serves many searches.
//!
//! # Ties
//!
//! The A* in the harness breaks ties on `f` toward larger `g` by folding `g` into the key
//! for queues with [`KeyRule::Any`]. Restricted queues cannot take that (a child with equal
//! `f` has a larger `g`, so its composite key would fall below the floor): they are given
//! `f` alone, and the ones whose ties pop last-in-first-out behave like the larger-`g` rule
//! (the most recently generated node is usually the deepest). Each queue declares its rule
//! as [`Frontier::TIES`] and its file says what it does; the conformance suite checks
//! every declared rule.
//!
//! # The approximate contract
//!
//! A queue whose [`Frontier::ORDER`] is [`Order::Approximate`] (a soft heap) keeps every
//! rule above except min-first order. Instead:
//! * every entry pushed is popped exactly once, with the key it was pushed with (none is
//!   lost, none is invented), and `len` counts the entries held;
//! * at most `epsilon × n` entries are *corrupted* at any time (`n` being the pushes since
//!   construction or the last `clear`), and a pop never returns an entry while an
//!   uncorrupted one with a smaller key is held. So when a pop returns key `k`, at most
//!   `epsilon × n` entries held have a key below `k`.
//!
//! An A* with such a frontier finds a path, not always a cheapest one; the lab measures
//! how much longer, beside weighted A*, and never ranks it among the exact queues.
//!
//! # Facts
//!
//! Each queue also declares what it is ([`Family`], and through it a [`Class`]), who wrote
//! it ([`Origin`]), its tie rule and its order; the registry, the reports and
//! `pqlab pick` read these constants and never a display string.
//!
//! # Complexity
//!
//! Each queue's file opens with a table of its operations' costs, its key restrictions,
//! and when it should win. `n` is the number of entries held.

pub mod astar;
pub mod registry;

pub mod b_heap;
pub mod bitmap_bucket_queue;
pub mod bucket_queue;
pub mod dary_heap;
#[cfg(feature = "dary-heap-crate")]
pub mod dary_heap_crate;
pub mod equal_key_stack;
pub mod fibonacci_heap;
pub mod hot_queue;
pub mod max_heap_adapter;
#[cfg(feature = "orx-dary-heap")]
pub mod orx_dary_heap;
pub mod packed_radix_heap;
pub mod pairing_heap;
#[cfg(feature = "pairing-heap-crate")]
pub mod pairing_heap_crate;
#[cfg(feature = "priority-queue-crate")]
pub mod priority_queue_crate;
pub mod quickheap;
pub mod radix_heap;
#[cfg(feature = "radix-heap-crate")]
pub mod radix_heap_crate;
pub mod sequence_heap;
#[cfg(feature = "simd-quickheap")]
pub mod simd_quickheap;
pub mod skip_list;
pub mod soft_heap;
pub mod sorted_array;
pub mod splay_tree;
pub mod std_binary_heap;
pub mod trace;
pub mod two_level;
pub mod unsorted_array;

mod arena;
mod heap_core;

/// The unit tests' one random generator.
#[cfg(test)]
pub(crate) mod testing {
    /// A xorshift64 generator seeded with `seed` (mixed, and never 0): small, fast, and
    /// reproducible, for the random operation sequences the queues' unit tests replay.
    pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }
}

pub use astar::{astar, astar_dense, astar_dense_with_stats, astar_with_stats};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use std::fmt;

use serde::{Deserialize, Serialize};

/// A node id: a dense index below [`Spec::capacity`].
pub type Node = u32;

/// A priority; smaller is popped first.
pub type Key = u64;

/// How a frontier treats a node pushed while it is already held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Strategy {
    /// Every push adds an entry; stale entries are skipped by the search (lazy deletion).
    #[serde(rename = "dup", alias = "duplicates")]
    Duplicates,
    /// A node is held at most once; pushing it again with a smaller key lowers its key.
    #[serde(rename = "dk", alias = "decrease-key")]
    DecreaseKey,
}

impl Strategy {
    /// The suffix used in registry ids and the stable token in results: `dup` or `dk`.
    pub fn suffix(self) -> &'static str {
        match self {
            Strategy::Duplicates => "dup",
            Strategy::DecreaseKey => "dk",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Strategy::Duplicates => "duplicates",
            Strategy::DecreaseKey => "decrease-key",
        })
    }
}

/// Which keys a frontier accepts, relative to the floor (the last popped key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyRule {
    /// Any key at any time.
    #[serde(alias = "any keys")]
    Any,
    /// No key below the floor.
    Monotone,
    /// No key below the floor nor above `floor + span`.
    #[serde(alias = "monotone, bounded span")]
    BoundedSpan,
    /// Any key below 2³², in any order (a queue that packs the key and the node into one
    /// `u64`).
    #[serde(alias = "below 2^32")]
    Narrow,
}

impl KeyRule {
    /// Whether this rule forbids keys below the floor.
    pub fn is_monotone(self) -> bool {
        matches!(self, KeyRule::Monotone | KeyRule::BoundedSpan)
    }
}

impl fmt::Display for KeyRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            KeyRule::Any => "any keys",
            KeyRule::Monotone => "monotone",
            KeyRule::BoundedSpan => "monotone, bounded span",
            KeyRule::Narrow => "below 2^32",
        })
    }
}

/// The data structure a frontier is, whoever wrote it: what reports group queues by and
/// what the verdicts name. Its [`Class`] is the coarser grouping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// A binary heap (std's `BinaryHeap`, a d-ary heap with d = 2, an indexed binary heap).
    BinaryHeap,
    /// A d-ary heap with d > 2.
    DaryHeap,
    /// A heap laid out in blocks (pages or cache lines).
    BHeap,
    /// A pairing heap.
    PairingHeap,
    /// A Fibonacci heap.
    FibonacciHeap,
    /// Sanders' sequence heap.
    SequenceHeap,
    /// Navarro and Paredes' quickheap (an incremental quicksort's pivots).
    Quickheap,
    /// Breitling, Groot Koerkamp and Williams' SimdQuickHeap (layers of buckets split by
    /// pivots, partitioned with SIMD).
    SimdQuickHeap,
    /// An unsorted array.
    UnsortedArray,
    /// A sorted array.
    SortedArray,
    /// A small heap over an unsorted array.
    TwoLevel,
    /// Dial's bucket queue.
    BucketQueue,
    /// A radix heap.
    RadixHeap,
    /// A HOT queue (multi-level buckets with a heap on top).
    HotQueue,
    /// A sorted skip list.
    SkipList,
    /// A splay tree.
    SplayTree,
    /// A soft heap: approximate order.
    SoftHeap,
}

impl Family {
    /// The coarser class the family belongs to.
    pub const fn class(self) -> Class {
        match self {
            Family::BinaryHeap
            | Family::DaryHeap
            | Family::BHeap
            | Family::PairingHeap
            | Family::FibonacciHeap
            | Family::SequenceHeap
            | Family::Quickheap
            | Family::SimdQuickHeap => Class::Heap,
            Family::UnsortedArray | Family::SortedArray | Family::TwoLevel => Class::Array,
            Family::BucketQueue | Family::RadixHeap | Family::HotQueue => Class::Bucketing,
            Family::SkipList | Family::SplayTree => Class::Ordered,
            Family::SoftHeap => Class::Approximate,
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Family::BinaryHeap => "binary heap",
            Family::DaryHeap => "d-ary heap",
            Family::BHeap => "B-heap",
            Family::PairingHeap => "pairing heap",
            Family::FibonacciHeap => "Fibonacci heap",
            Family::SequenceHeap => "sequence heap",
            Family::Quickheap => "quickheap",
            Family::SimdQuickHeap => "SIMD quickheap",
            Family::UnsortedArray => "unsorted array",
            Family::SortedArray => "sorted array",
            Family::TwoLevel => "two-level queue",
            Family::BucketQueue => "bucket queue",
            Family::RadixHeap => "radix heap",
            Family::HotQueue => "HOT queue",
            Family::SkipList => "skip list",
            Family::SplayTree => "splay tree",
            Family::SoftHeap => "soft heap",
        })
    }
}

/// The broad kinds of frontier the verdicts compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Comparison-based heaps: binary, d-ary, B-, pairing, Fibonacci and sequence heaps,
    /// quickheaps.
    Heap,
    /// Integer-key bucketing: bucket queues, radix heaps, HOT queues (monotone keys).
    Bucketing,
    /// Arrays: unsorted, sorted, and a small heap over an unsorted array.
    Array,
    /// Ordered sets: skip lists and balanced or self-adjusting search trees.
    Ordered,
    /// Approximate order (soft heaps): never an exact A*'s frontier.
    Approximate,
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Class::Heap => "heap",
            Class::Bucketing => "bucketing",
            Class::Array => "array",
            Class::Ordered => "ordered set",
            Class::Approximate => "approximate",
        })
    }
}

/// Who wrote a frontier's structure: what adopting it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Written here: depend on this crate.
    Ours {
        /// The file, relative to the repository root (`file!()`).
        file: &'static str,
    },
    /// The standard library.
    Std {
        /// The type's path.
        path: &'static str,
    },
    /// A crate from crates.io, through a thin adapter here.
    Crate {
        /// The crate's name on crates.io.
        name: &'static str,
        /// The version requirement the lab measured.
        version: &'static str,
        /// This crate's cargo feature that compiles the adapter.
        feature: &'static str,
        /// The crate's own API in an A* written around std's `BinaryHeap` of
        /// `Reverse((f, node))`: what replaces the heap, and how it is pushed.
        usage: &'static str,
    },
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Ours { file } => write!(f, "pqlab's own ({file})"),
            Origin::Std { path } => write!(f, "the standard library ({path})"),
            Origin::Crate { name, version, .. } => write!(f, "the `{name}` crate ({version})"),
        }
    }
}

/// What a frontier does with entries of equal keys; the conformance suite checks every
/// rule but [`Ties::Unspecified`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ties {
    /// Last in, first out, always: among the entries with the smallest key, the one added
    /// (or, with decrease-key, lowered to that key) most recently pops first.
    Lifo,
    /// Last in, first out among equal keys pushed since the last pop and never decreased:
    /// a pop or a decrease-key may reorder the entries it moves (the file says how).
    LifoUntilMoved,
    /// The structure's own deterministic order, documented in its file but not promised.
    Unspecified,
}

/// Whether a frontier pops in exact key order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Order {
    /// Every pop returns an entry with the smallest key held (the contract above).
    Exact,
    /// Pops may return an entry with a larger key than the smallest: see
    /// [the approximate contract](crate#the-approximate-contract).
    Approximate {
        /// The error rate: at most `epsilon × n` entries are corrupted at any time, `n`
        /// being the pushes since construction or the last `clear`.
        epsilon: f64,
    },
}

impl Order {
    /// Whether pops follow the exact contract.
    pub fn is_exact(self) -> bool {
        self == Order::Exact
    }
}

/// What a frontier is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Node ids pushed are below this.
    pub capacity: usize,
    /// For [`KeyRule::BoundedSpan`] queues: the largest `key - floor` that will be pushed.
    /// Other queues ignore it.
    pub span: Key,
}

/// What a push did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pushed {
    /// A new entry was added.
    Added,
    /// A held node's key was lowered (decrease-key queues only).
    Decreased,
    /// A held node already had an equal or smaller key; nothing changed (decrease-key only).
    Kept,
}

/// A push that breaks the contract; the queue is left unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    /// The node id is not below the capacity the queue was built for.
    #[error("node {node} is out of range: this queue was built for node ids below {capacity}")]
    NodeOutOfRange {
        /// The node pushed.
        node: Node,
        /// The capacity from [`Spec`].
        capacity: usize,
    },
    /// A monotone queue was given a key below the last popped key.
    #[error("key {key} is below the last popped key {floor}: this queue requires monotone keys")]
    BelowFloor {
        /// The key pushed.
        key: Key,
        /// The last popped key.
        floor: Key,
    },
    /// A narrow queue ([`KeyRule::Narrow`]) was given a key of more than 32 bits.
    #[error("key {key} is not below 2^32: this queue packs its keys into 32 bits")]
    TooWide {
        /// The key pushed.
        key: Key,
    },
    /// A bounded-span queue was given a key too far above the last popped key.
    #[error("key {key} is more than the declared span {span} above the last popped key {floor}")]
    BeyondSpan {
        /// The key pushed.
        key: Key,
        /// The last popped key (or the first key pushed, before any pop).
        floor: Key,
        /// The span from [`Spec`].
        span: Key,
    },
}

/// Marks a queue type built for [`Strategy::Duplicates`]; see [`StrategyKind`].
#[derive(Clone, Copy, Debug)]
pub struct Dup;

/// Marks a queue type built for [`Strategy::DecreaseKey`]; see [`StrategyKind`].
#[derive(Clone, Copy, Debug)]
pub struct Dk;

/// A strategy as a type parameter, for queues whose two strategies share their code.
pub trait StrategyKind {
    /// The strategy this marker stands for.
    const STRATEGY: Strategy;
    /// `STRATEGY == DecreaseKey`, as a constant the compiler folds.
    const DECREASE_KEY: bool;
}

impl StrategyKind for Dup {
    const STRATEGY: Strategy = Strategy::Duplicates;
    const DECREASE_KEY: bool = false;
}

impl StrategyKind for Dk {
    const STRATEGY: Strategy = Strategy::DecreaseKey;
    const DECREASE_KEY: bool = true;
}

/// An A* frontier: see the [crate documentation](crate) for the contract.
///
/// ```
/// use pqlab_queues::{dary_heap::DaryHeap, Dk, Frontier, Pushed, Spec};
///
/// // A decrease-key 4-ary heap for node ids below 100.
/// let mut open = DaryHeap::<4, Dk>::new(Spec { capacity: 100, span: 0 });
/// assert_eq!(open.push(7, 30), Ok(Pushed::Added));
/// assert_eq!(open.push(3, 20), Ok(Pushed::Added));
/// assert_eq!(open.push(7, 10), Ok(Pushed::Decreased)); // node 7 held: its key lowered
/// assert_eq!(open.push(3, 25), Ok(Pushed::Kept)); // a larger key changes nothing
/// assert_eq!(open.pop(), Some((7, 10)));
/// assert_eq!(open.pop(), Some((3, 20)));
/// assert!(open.push(100, 1).is_err()); // beyond the capacity: an error, never a panic
/// ```
pub trait Frontier {
    /// The data structure.
    const FAMILY: Family;
    /// Who wrote it.
    const ORIGIN: Origin;
    /// How a push of a held node is treated.
    const STRATEGY: Strategy;
    /// Which keys are accepted.
    const KEYS: KeyRule;
    /// What it does with equal keys.
    const TIES: Ties;
    /// Exact order, or the error rate of an approximate one.
    const ORDER: Order = Order::Exact;

    /// `Ok` when this queue can run here, else why not (a library it loads, a CPU feature
    /// it needs): check before [`Frontier::new`], which panics with the reason otherwise.
    /// Every queue built into this crate alone is always available.
    fn available() -> Result<(), &'static str>
    where
        Self: Sized,
    {
        Ok(())
    }

    /// An empty frontier for node ids below `spec.capacity`.
    fn new(spec: Spec) -> Self
    where
        Self: Sized;

    /// Adds `node` with `key`, or (decrease-key queues) lowers its key if it is held.
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError>;

    /// Removes and returns an entry with the smallest key, or `None` when empty.
    fn pop(&mut self) -> Option<(Node, Key)>;

    /// The number of entries held (for duplicate queues, stale entries included).
    fn len(&self) -> usize;

    /// Whether no entry is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes every entry and resets the floor, keeping allocations for reuse.
    fn clear(&mut self);
}

/// Rejects node ids at or above `capacity`; every queue calls this first in `push`.
#[inline]
pub fn check_node(node: Node, capacity: usize) -> Result<(), PushError> {
    if (node as usize) < capacity {
        Ok(())
    } else {
        Err(PushError::NodeOutOfRange { node, capacity })
    }
}

/// The floor of a restricted queue: the last popped key, and the checks of [`KeyRule`].
///
/// Restricted queues keep one of these, call [`KeyFloor::check`] before changing anything
/// in `push`, [`KeyFloor::popped`] in `pop`, and [`KeyFloor::reset`] in `clear`.
#[derive(Clone, Copy, Debug)]
pub struct KeyFloor {
    floor: Key,
    /// Whether `floor` holds a key yet (a pop, or for bounded span the first push).
    set: bool,
    rule: KeyRule,
    span: Key,
}

impl KeyFloor {
    /// A floor for a queue with `rule`, built from `spec`.
    pub fn new(rule: KeyRule, spec: Spec) -> Self {
        KeyFloor { floor: 0, set: false, rule, span: spec.span }
    }

    /// The current floor (0 before anything was popped or pushed).
    #[inline]
    pub fn get(&self) -> Key {
        self.floor
    }

    /// The declared span.
    #[inline]
    pub fn span(&self) -> Key {
        self.span
    }

    /// Checks `key` against the rule; for bounded span, the first push sets the floor.
    #[inline]
    pub fn check(&mut self, key: Key) -> Result<(), PushError> {
        match self.rule {
            KeyRule::Any => Ok(()),
            KeyRule::Narrow if key > Key::from(u32::MAX) => Err(PushError::TooWide { key }),
            KeyRule::Narrow => Ok(()),
            KeyRule::Monotone => {
                if key < self.floor {
                    Err(PushError::BelowFloor { key, floor: self.floor })
                } else {
                    Ok(())
                }
            }
            KeyRule::BoundedSpan => {
                if !self.set {
                    self.floor = key;
                    self.set = true;
                }
                if key < self.floor {
                    Err(PushError::BelowFloor { key, floor: self.floor })
                } else if key - self.floor > self.span {
                    Err(PushError::BeyondSpan { key, floor: self.floor, span: self.span })
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Records a popped key as the new floor.
    #[inline]
    pub fn popped(&mut self, key: Key) {
        debug_assert!(key >= self.floor || !self.set, "a queue popped below its floor");
        self.floor = key;
        self.set = true;
    }

    /// Forgets the floor (on `clear`).
    #[inline]
    pub fn reset(&mut self) {
        self.floor = 0;
        self.set = false;
    }
}

/// A node → slot table for decrease-key queues: O(1) membership and location.
///
/// Sized to the capacity once; [`PositionTable::clear`] costs O(capacity) only when the
/// queue held entries, and queues that know their entries may forget them one by one.
#[derive(Clone, Debug, Default)]
pub struct PositionTable {
    slots: Vec<u32>,
}

impl PositionTable {
    const ABSENT: u32 = u32::MAX;

    /// A table for node ids below `capacity`, every node absent.
    pub fn new(capacity: usize) -> Self {
        PositionTable { slots: vec![Self::ABSENT; capacity] }
    }

    /// Where `node` is held, if it is.
    #[inline]
    pub fn get(&self, node: Node) -> Option<u32> {
        match self.slots[node as usize] {
            Self::ABSENT => None,
            slot => Some(slot),
        }
    }

    /// A table for decrease-key queues (`S = Dk`); an empty one, never touched, for
    /// duplicate queues.
    pub fn for_strategy<S: StrategyKind>(capacity: usize) -> Self {
        if S::DECREASE_KEY {
            PositionTable::new(capacity)
        } else {
            PositionTable::default()
        }
    }

    /// Records that `node` is held at `slot` (`slot < u32::MAX`).
    #[inline]
    pub fn set(&mut self, node: Node, slot: u32) {
        debug_assert!(slot != Self::ABSENT);
        self.slots[node as usize] = slot;
    }

    /// Records that `node` is no longer held.
    #[inline]
    pub fn remove(&mut self, node: Node) {
        self.slots[node as usize] = Self::ABSENT;
    }

    /// Marks every node absent.
    pub fn clear(&mut self) {
        self.slots.fill(Self::ABSENT);
    }
}
