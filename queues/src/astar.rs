//! A generic A* in the shape of the `pathfinding` crate's `astar`, over any [`Frontier`].
//!
//! [`astar`] takes what `pathfinding::prelude::astar` takes (a start node, a successors
//! closure returning `(node, cost)` pairs, a heuristic closure and a success closure) and
//! the frontier as a type parameter, so switching a search from `pathfinding` to a queue of
//! this crate is one call:
//!
//! ```
//! use pqlab_queues::{astar, radix_heap::RadixHeap, Dup};
//!
//! // A line of nodes 0..=10; each step costs 2.
//! let goal = 10u32;
//! let successors = |&n: &u32| [n.checked_sub(1), Some(n + 1)].into_iter().flatten().map(|m| (m, 2u32));
//! // pathfinding::prelude::astar(&0, successors, |&n| 2 * n.abs_diff(goal), |&n| n == goal)
//! let found = astar::<RadixHeap<Dup>, _, _, _>(&0, successors, |&n| 2 * n.abs_diff(goal), |&n| n == goal)?;
//! let (path, cost) = found.expect("the goal is reachable");
//! assert_eq!(cost, 20);
//! assert_eq!(path, (0..=10).collect::<Vec<_>>());
//! # Ok::<(), pqlab_queues::astar::AstarError>(())
//! ```
//!
//! It returns a `Result` where `pathfinding` returns the `Option` alone: a queue may reject
//! a key or a cost type (see below), and a cost may be negative, NaN, infinite or overflow,
//! and each is an error rather than a panic or a wrong path. Costs are integers or floats
//! ([`Cost`]).
//!
//! # How it drives the queue
//!
//! Like `pathfinding`, it keeps its per-node state (cost so far, estimate, parent, closed)
//! in a hash map: each node gets a dense id when first reached (an `FxHashMap<N, u32>`),
//! the state lives in a vector by id, and the frontier holds ids. [`astar_dense`] replaces
//! the hash map by the caller's own numbering of the nodes, for graphs that have one.
//!
//! * **Keys.** With a queue that accepts any key ([`KeyRule::Any`]) and a cost type whose
//!   keys fit 32 bits ([`Cost::NARROW`]: integers of at most 32 bits, `f32`), the key is
//!   `f << 32 | (u32::MAX - g)` (of their keys, [`Cost::to_key`]): ties on `f` go to the
//!   larger `g`, as in `pathfinding` and the harness's grid A*. Otherwise the key is `f`
//!   alone, and ties pop in the queue's own order ([`Frontier::TIES`]).
//! * **Strategy.** The search pushes a node whenever its cost improves. A duplicate queue
//!   then holds stale entries, skipped when popped (their node is closed); a decrease-key
//!   queue lowers the held entry in place. Both give the same answers.
//! * **Monotone queues** (radix heaps, bucket and HOT queues) need, with integer costs, a
//!   *consistent* heuristic (`h(a) <= cost(a, b) + h(b)` on every edge): then no key falls
//!   below the last one popped. With an inconsistent one the queue rejects the push, and
//!   the search returns [`AstarError::Queue`]. A bounded-span queue is rebuilt with a
//!   larger span when a key goes beyond it. Float costs: see below.
//! * **Reopening.** A closed node reached again at a lower cost is opened again, so with
//!   an exact queue and an admissible heuristic (never overestimating) the path is a
//!   cheapest one, consistent or not.
//! * **Approximate queues** (soft heaps, [`Order::Approximate`](crate::Order)) may pop an
//!   entry before a cheaper one: the search then returns a path that may be longer than
//!   the cheapest (the lab measured at most 13.8% longer with ε = 1/2 on the Moving AI
//!   maps), and the cost returned is always that path's own cost.
//! * **Capacity.** Queues are built for ids below a capacity ([`Spec`]). [`astar`] starts
//!   at [`INITIAL_CAPACITY`] and, when a new node's id reaches it, moves the frontier into
//!   a queue of twice the capacity (the frontier only, not the nodes seen, so the moves
//!   cost O(frontier) each, O(log n) times). [`astar_dense`] builds the queue once.
//!
//! # Float costs
//!
//! `f32` and `f64` costs work as the integers do, with what floats add:
//!
//! * **Keys** are the IEEE bit patterns, which for non-negative finite floats preserve
//!   order (the proof is on the [`Cost`] implementations). A NaN, infinite or negative
//!   cost or estimate is [`AstarError::NotFinite`] or [`AstarError::Negative`], a sum
//!   that reaches infinity [`AstarError::Overflow`]. `-0.0` is zero.
//! * **Ties.** An `f32`'s key fits 32 bits, so `f32` folds `g` into the key with the
//!   any-key queues as `u32` does; an `f64`'s takes all 64, so `f64` keys are `f` alone.
//! * **Which queues** ([`takes`]): the any-key queues, and the monotone ones
//!   ([`KeyRule::Monotone`]: radix heaps, HOT queue), with the rule below. The bounded-span
//!   ones ([`KeyRule::BoundedSpan`]: bucket queues) are refused ([`AstarError::Refused`])
//!   before anything is searched: a bucket per key value cannot span the bit patterns.
//! * **Rounding and monotone queues.** A heuristic consistent in real numbers is not
//!   always consistent in floats: on a line of diagonal moves (`√2` each) to a goal 7 moves
//!   away, with the octile estimate `√2 × (7 - n)`, node 2's `f` (`9.899494936611665` in
//!   `f64`) rounds one ulp below node 1's (`9.899494936611667`), and a monotone queue would
//!   reject the key (`tests/float_astar.rs` finds such moves on random grids with the
//!   octile and the Euclidean estimates, in `f32` and `f64`). So with float costs and a monotone queue the
//!   search pushes `max(f, floor)`, the floor being the key of the node just expanded: the
//!   *pathmax* rule (Mérő, 1984), which makes `f` non-decreasing along every path and keeps
//!   an admissible heuristic admissible, so the answer is still a cheapest path (up to the
//!   rounding of the sums). The heuristic need then only be admissible, as with any-key
//!   queues; an integer search keeps the error, which there means an inconsistent
//!   heuristic exactly.
//! * **Comparing costs.** The cost returned is its path's moves summed in order from the
//!   start. Paths of equal cost in real numbers (`1 + √2` and `√2 + 1`) may sum to floats
//!   an ulp apart, so two searches (or two queues, whose ties differ) may return costs
//!   that differ by the rounding of a sum: about `k ε` relative for `k` moves.
//!
//! ```
//! use pqlab_queues::astar::{takes, AstarError};
//! use pqlab_queues::{astar, bucket_queue::BucketQueue, radix_heap::RadixHeap, Dup};
//! use std::f64::consts::SQRT_2;
//!
//! // An open 8-connected 20 × 20 grid: straight moves cost 1, diagonal ones √2.
//! let successors = |&(x, y): &(i32, i32)| {
//!     let moves = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
//!     moves.into_iter().filter_map(move |(dx, dy)| {
//!         let cell = (x + dx, y + dy);
//!         let inside = (0..20).contains(&cell.0) && (0..20).contains(&cell.1);
//!         inside.then_some((cell, if dx != 0 && dy != 0 { SQRT_2 } else { 1.0 }))
//!     })
//! };
//! let goal = (19, 7);
//! let octile = |&(x, y): &(i32, i32)| {
//!     let (dx, dy) = (f64::from(x.abs_diff(goal.0)), f64::from(y.abs_diff(goal.1)));
//!     SQRT_2 * dx.min(dy) + (dx.max(dy) - dx.min(dy))
//! };
//! let (_, cost) = astar::<RadixHeap<Dup>, _, _, _>(&(0, 0), successors, octile, |&c| c == goal)?
//!     .expect("reachable");
//! assert!((cost - (7.0 * SQRT_2 + 12.0)).abs() < 1e-12);
//!
//! // A bucket queue cannot take float keys, and says so before searching.
//! let reason = takes::<BucketQueue<Dup>, f64>().unwrap_err();
//! let refused = astar::<BucketQueue<Dup>, _, _, _>(&(0, 0), successors, octile, |&c| c == goal);
//! assert_eq!(refused, Err(AstarError::Refused(reason)));
//! # Ok::<(), AstarError>(())
//! ```
//!
//! # Counters
//!
//! [`astar_with_stats`] and [`astar_dense_with_stats`] return, beside the answer, what the
//! search did ([`Counters`]): expansions, pushes, pops, stale pops, decrease-keys,
//! reopenings, the most entries the frontier held and the most nodes open at once, each
//! defined as the harness's grid A* defines it. [`astar`] and [`astar_dense`] run the same
//! code with the counting compiled out: measured with `valgrind --tool=callgrind` on the
//! `adopt` example (100 searches, `RadixHeap<Dup>`, `u32` costs), counting adds 1.3% to
//! the instructions of the search (693.8 M against 685.1 M).
//!
//! ```
//! use pqlab_queues::{astar_with_stats, radix_heap::RadixHeap, Dup};
//!
//! // A line 0, 1, ..., 10, each move costing 1, searched from 5 with no estimate.
//! let successors = |&n: &u32| [n.checked_sub(1), (n < 10).then_some(n + 1)].into_iter().flatten().map(|m| (m, 1u32));
//! let (found, stats) = astar_with_stats::<RadixHeap<Dup>, _, _, _>(&5, successors, |_| 0, |&n| n == 8)?;
//! assert_eq!(found.map(|(_, cost)| cost), Some(3));
//! assert_eq!(stats.pops, stats.expansions + stats.stale_pops);
//! println!("{} expansions, {} pushes, at most {} entries held", stats.expansions, stats.pushes, stats.max_frontier);
//! # Ok::<(), pqlab_queues::astar::AstarError>(())
//! ```
//!
//! # Complexity
//!
//! Per expansion: one pop, one successors call, and per successor one hash lookup (or
//! index call), one heuristic call for a node seen for the first time, and at most one
//! push. Memory: the node, three costs and 8 bytes per node seen, and the queue.

use std::collections::hash_map::Entry;
use std::hash::Hash;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::{Frontier, Key, KeyRule, PushError, Pushed, Spec};

/// The capacity [`astar`] builds its first queue for; it doubles as nodes are found. Not
/// tuned by measurement: a decrease-key queue allocates 4 bytes per id up front, and 1,024
/// ids (4 KiB) keep a small search small; a large one pays O(log n) moves of its frontier.
pub const INITIAL_CAPACITY: usize = 1024;

/// The span a bounded-span queue is first built for; it doubles when a key goes beyond.
/// Not tuned by measurement: 1,024 buckets (4 KiB) cover grid costs of up to a few hundred
/// a move.
pub const INITIAL_SPAN: Key = 1024;

/// A cost the generic A* can add, compare and turn into a queue key: the unsigned and
/// signed integers (a negative cost or estimate is an error) and `f32` and `f64` (a
/// negative, NaN or infinite one is an error; see [Float costs](self#float-costs)).
///
/// Only [`PartialOrd`] is asked: every value the search compares has passed
/// [`Cost::to_key`], and on those values the order is total.
pub trait Cost: Copy + PartialOrd {
    /// The cost of the empty path.
    const ZERO: Self;
    /// Whether every key of this type ([`Cost::to_key`]) fits 32 bits, so that `f` and `g`
    /// share one key: the integers of at most 32 bits, and `f32`. It is a logic error to
    /// claim it for a type with wider keys.
    const NARROW: bool;
    /// Whether the type is floating point: its sums round, and its keys are bit patterns
    /// (see [Float costs](self#float-costs)), not the values themselves.
    const FLOAT: bool;
    /// `self + other`, or `None` on overflow (for floats, a sum that is infinite).
    fn checked_add(self, other: Self) -> Option<Self>;
    /// The value as a key, preserving order: for costs `a` and `b` that are `Ok` here,
    /// `a < b` if and only if `a.to_key() < b.to_key()`, and equal costs give equal keys.
    ///
    /// # Errors
    ///
    /// [`AstarError::Negative`] for a negative value, [`AstarError::NotFinite`] for a
    /// NaN or an infinity.
    fn to_key(self) -> Result<Key, AstarError>;
}

macro_rules! integer_cost {
    ($($t:ty),*) => {$(
        impl Cost for $t {
            const ZERO: Self = 0;
            const NARROW: bool = <$t>::MAX as u128 <= u32::MAX as u128;
            const FLOAT: bool = false;
            #[inline]
            fn checked_add(self, other: Self) -> Option<Self> {
                <$t>::checked_add(self, other)
            }
            #[inline]
            fn to_key(self) -> Result<Key, AstarError> {
                Key::try_from(self).map_err(|_| AstarError::Negative)
            }
        }
    )*};
}

integer_cost!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// The float costs. The key of a non-negative finite float is its IEEE 754 bit pattern,
/// read as an unsigned integer, which preserves order:
///
/// * the sign bit of a non-negative float is 0 (`-0.0` is first made `+0.0`, whose bits
///   are all 0, by adding `0.0`), so the pattern is `exponent << m | mantissa` for the
///   biased exponent field and the `m`-bit mantissa field (`m` = 23 or 52);
/// * a float with exponent field `e = 0` (zero, subnormals) is `mantissa × 2^(1-bias-m)`,
///   and one with `e ≥ 1` is `(2^m + mantissa) × 2^(e-bias-m)`: with `e` fixed the value
///   grows with the mantissa, and every value of exponent field `e` is below every value
///   of `e + 1` (the largest of `e` is `(2^(m+1) - 1) × 2^(e-bias-m)`, the smallest of
///   `e + 1` is `2^(m+1) × 2^(e-bias-m)`, and for `e = 0` the largest is below `2^m ×
///   2^(1-bias-m)`, the smallest of `e = 1`);
/// * so the value order is the lexicographic order on `(exponent, mantissa)`, which is the
///   unsigned integer order of `exponent << m | mantissa` (the mantissa is below `2^m`);
///   distinct finite values have distinct patterns, so equal keys mean equal costs.
///
/// Infinities (exponent field all ones) and NaNs are refused before the bits are read.
/// An `f32`'s key is below `2^31`, so `f32` is [`Cost::NARROW`].
macro_rules! float_cost {
    ($($t:ty),*) => {$(
        impl Cost for $t {
            const ZERO: Self = 0.0;
            const NARROW: bool = std::mem::size_of::<$t>() <= 4;
            const FLOAT: bool = true;
            #[inline]
            fn checked_add(self, other: Self) -> Option<Self> {
                let sum = self + other;
                sum.is_finite().then_some(sum)
            }
            #[inline]
            fn to_key(self) -> Result<Key, AstarError> {
                if !self.is_finite() {
                    Err(AstarError::NotFinite)
                } else if self < 0.0 {
                    Err(AstarError::Negative)
                } else {
                    Ok(Key::from((self + 0.0).to_bits()))
                }
            }
        }
    )*};
}

float_cost!(f32, f64);

/// Whether queue `Q` can take keys made from costs of type `C`, and if not, why: a
/// sentence fit to print after "n/a: ". [`astar`] and the other searches refuse such a
/// pairing at once with [`AstarError::Refused`] and this reason.
///
/// A queue unavailable here ([`Frontier::available`]) takes nothing. Every other queue
/// takes the integer costs of up to 32 bits, and all but the narrow ones
/// ([`KeyRule::Narrow`]: keys below 2³²) wider costs too. Float costs ([`Cost::FLOAT`]) are taken by the
/// queues that accept any key and by the monotone ones ([`KeyRule::Monotone`]: the radix
/// heaps, the HOT queue) in 64 bits (`f32` keys also by the narrow ones), not by the
/// bounded-span ones ([`KeyRule::BoundedSpan`]: the
/// bucket queues), which keep one bucket per key value between the floor and the largest
/// key, while the bit patterns of `1.0` and `1.5` are `2^51` apart.
///
/// ```
/// use pqlab_queues::astar::takes;
/// use pqlab_queues::{bucket_queue::BucketQueue, radix_heap::RadixHeap, Dup};
///
/// assert_eq!(takes::<RadixHeap<Dup>, f64>(), Ok(()));
/// assert_eq!(takes::<BucketQueue<Dup>, u32>(), Ok(()));
/// let reason = takes::<BucketQueue<Dup>, f32>().unwrap_err();
/// println!("bucket-queue-dup with f32 costs: n/a: {reason}");
/// ```
///
/// # Errors
///
/// The reason the pairing cannot work.
pub fn takes<Q: Frontier, C: Cost>() -> Result<(), &'static str> {
    Q::available()?;
    if C::FLOAT && Q::KEYS == KeyRule::BoundedSpan {
        return Err("a bounded-span queue keeps a bucket per key value, and float keys (bit patterns) span up to 2^63 values");
    }
    if !C::NARROW && Q::KEYS == KeyRule::Narrow {
        return Err("it takes keys below 2^32, and these costs' keys are 64 bits wide");
    }
    Ok(())
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AstarError {
    /// The queue rejected a key: a monotone queue given an inconsistent heuristic, or a
    /// bounded-span queue at its largest span.
    #[error("the queue rejected a push ({0}); monotone queues need a consistent heuristic")]
    Queue(#[from] PushError),
    /// A successor's cost or a heuristic estimate was negative.
    #[error("a cost or estimate is negative: A* needs non-negative costs")]
    Negative,
    /// A float successor's cost or heuristic estimate was NaN or infinite.
    #[error("a cost or estimate is NaN or infinite: A* needs finite costs")]
    NotFinite,
    /// The queue cannot take keys of this cost type (see [`takes`]); nothing was searched.
    #[error("this queue cannot take this cost type: {0}")]
    Refused(&'static str),
    /// A path cost (or cost plus estimate) overflowed the cost type.
    #[error("a path cost overflowed the cost type")]
    Overflow,
    /// More nodes were reached than `u32` ids can number.
    #[error("more than {} nodes were reached: ids are u32", u32::MAX)]
    TooManyNodes,
    /// [`astar_dense`]'s index gave a node an index not below the node count.
    #[error("a node's index {index} is not below the node count {nodes}")]
    IndexOutOfRange {
        /// The index given.
        index: usize,
        /// The node count given.
        nodes: usize,
    },
}

/// What a search returns: the path from the start to the first node that satisfies
/// `success` and its cost, `None` if no such node is reachable.
pub type Found<N, C> = Result<Option<(Vec<N>, C)>, AstarError>;

/// What [`astar_with_stats`] and [`astar_dense_with_stats`] return: [`Found`]'s answer and
/// what the search did.
pub type FoundWithStats<N, C> = Result<(Option<(Vec<N>, C)>, Counters), AstarError>;

/// What one search did: the figures every result row records. This search and every
/// search of the harness (its grid A\*, jump point search, fringe search, breadth-first
/// search) count into this one type, each counter defined alike, so that their rows are
/// comparable. A node is a cell for the grid searches.
///
/// Invariants of this search's counts (each harness search states its own):
/// `pops == expansions + stale_pops`; the start counts as one push, and
/// `max_frontier` and `max_open` are at least 1. With a duplicate queue every push adds
/// an entry, so `decrease_keys == 0`, `pushes - pops` entries are left in the frontier
/// when the search stops (0 when it ran dry), and `max_open <= max_frontier`. With a
/// decrease-key queue `pushes - pops` nodes are left and `stale_pops == 0`.
///
/// One difference from the harness's grid A\*: it calls a popped entry stale when its node
/// is closed *or* was pushed again with a smaller `g` since; this one only when its node is
/// closed, and expands an open node with its current cost whichever of its entries pops
/// first. With an exact queue the two are the same but for float costs, where two costs
/// can round to one key and the older entry may pop first: each search then counts one
/// expansion and one stale pop for the two entries, only in the other order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counters {
    /// Nodes expanded: entries popped while their node was open (the goal's included).
    pub expansions: u64,
    /// Pushes that added an entry (for duplicate queues, every push), the start's included.
    pub pushes: u64,
    /// Entries popped, stale ones included.
    pub pops: u64,
    /// Popped entries skipped because their node was already expanded.
    pub stale_pops: u64,
    /// Pushes that lowered a held node's key (decrease-key queues only).
    pub decrease_keys: u64,
    /// Closed nodes opened again because a cheaper path to them was found (inconsistent
    /// heuristics, approximate frontiers, float sums that differ by rounding).
    pub reopenings: u64,
    /// The most entries the frontier held at once (stale entries included).
    pub max_frontier: u64,
    /// The most nodes open at once (what the frontier would hold without duplicates).
    pub max_open: u64,
}

/// Finds a path from `start` to a node satisfying `success`, with `Q` as the frontier and
/// the per-node state in a hash map: `pathfinding::prelude::astar`'s parameters.
///
/// `successors(n)` gives `n`'s neighbours and the cost of the move to each; `heuristic(n)`
/// must never overestimate the cost from `n` to a goal, or a longer path may be returned,
/// and with a monotone queue ([`KeyRule::Monotone`], [`KeyRule::BoundedSpan`]) and integer
/// costs it must be consistent (float costs: see [Float costs](self#float-costs)). The path
/// is a cheapest one when `Q` is exact. See the [module documentation](self) for the
/// example and how each kind of queue is driven.
pub fn astar<Q, N, C, IN>(
    start: &N,
    successors: impl FnMut(&N) -> IN,
    heuristic: impl FnMut(&N) -> C,
    success: impl FnMut(&N) -> bool,
) -> Found<N, C>
where
    Q: Frontier,
    N: Eq + Hash + Clone,
    C: Cost,
    IN: IntoIterator<Item = (N, C)>,
{
    Search::<Q, N, C, _, false>::new(FxHashMap::default(), INITIAL_CAPACITY)
        .run(start, successors, heuristic, success)
        .map(|(found, _)| found)
}

/// [`astar`], and what the search did ([`Counters`]).
///
/// ```
/// use pqlab_queues::{astar_with_stats, dary_heap::DaryHeap, Dup};
///
/// // 0 -> 1 -> 2 costs 1 + 1, 0 -> 2 costs 3; no estimate (Dijkstra).
/// let successors = |&n: &u32| match n {
///     0 => vec![(1, 1), (2, 3)],
///     1 => vec![(2, 1)],
///     _ => vec![],
/// };
/// let (found, stats) = astar_with_stats::<DaryHeap<4, Dup>, _, _, _>(&0, successors, |_| 0u32, |&n| n == 2)?;
/// assert_eq!(found, Some((vec![0, 1, 2], 2)));
/// // 0, 1 and 2 expanded; 2 pushed at 3, then again at 2 (its first entry is left over).
/// assert_eq!((stats.expansions, stats.pushes, stats.pops, stats.stale_pops), (3, 4, 3, 0));
/// assert_eq!((stats.max_frontier, stats.max_open), (2, 2));
/// # Ok::<(), pqlab_queues::astar::AstarError>(())
/// ```
pub fn astar_with_stats<Q, N, C, IN>(
    start: &N,
    successors: impl FnMut(&N) -> IN,
    heuristic: impl FnMut(&N) -> C,
    success: impl FnMut(&N) -> bool,
) -> FoundWithStats<N, C>
where
    Q: Frontier,
    N: Eq + Hash + Clone,
    C: Cost,
    IN: IntoIterator<Item = (N, C)>,
{
    Search::<Q, N, C, _, true>::new(FxHashMap::default(), INITIAL_CAPACITY)
        .run(start, successors, heuristic, success)
}

/// [`astar`] for nodes the caller can number: `index(n)` is below `nodes` and differs
/// between different nodes. The state is found by index instead of by hashing, and the
/// queue is built once for `nodes` ids.
///
/// ```
/// use pqlab_queues::{astar_dense, dary_heap::DaryHeap, Dk};
///
/// // A 10 × 10 grid of cells (x, y), 4-connected, numbered y * 10 + x.
/// let successors = |&(x, y): &(i32, i32)| {
///     [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
///         .into_iter()
///         .filter(|&(x, y)| (0..10).contains(&x) && (0..10).contains(&y))
///         .map(|cell| (cell, 1))
/// };
/// let manhattan = |&(x, y): &(i32, i32)| (9 - x) + (9 - y);
/// let found = astar_dense::<DaryHeap<4, Dk>, _, _, _>(
///     &(0, 0), successors, manhattan, |&cell| cell == (9, 9),
///     100, |&(x, y)| (y * 10 + x) as usize,
/// )?;
/// let (path, cost) = found.expect("the corner is reachable");
/// assert_eq!((path.len(), cost), (19, 18));
/// # Ok::<(), pqlab_queues::astar::AstarError>(())
/// ```
pub fn astar_dense<Q, N, C, IN>(
    start: &N,
    successors: impl FnMut(&N) -> IN,
    heuristic: impl FnMut(&N) -> C,
    success: impl FnMut(&N) -> bool,
    nodes: usize,
    index: impl FnMut(&N) -> usize,
) -> Found<N, C>
where
    Q: Frontier,
    N: Clone,
    C: Cost,
    IN: IntoIterator<Item = (N, C)>,
{
    Search::<Q, N, C, _, false>::dense(nodes, index)
        .run(start, successors, heuristic, success)
        .map(|(found, _)| found)
}

/// [`astar_dense`], and what the search did ([`Counters`]).
pub fn astar_dense_with_stats<Q, N, C, IN>(
    start: &N,
    successors: impl FnMut(&N) -> IN,
    heuristic: impl FnMut(&N) -> C,
    success: impl FnMut(&N) -> bool,
    nodes: usize,
    index: impl FnMut(&N) -> usize,
) -> FoundWithStats<N, C>
where
    Q: Frontier,
    N: Clone,
    C: Cost,
    IN: IntoIterator<Item = (N, C)>,
{
    Search::<Q, N, C, _, true>::dense(nodes, index).run(start, successors, heuristic, success)
}

/// No id: the parent of the start, an index not reached yet.
const ABSENT: u32 = u32::MAX;

/// Gives nodes their dense ids, in the order they are first reached.
trait Ids<N> {
    /// `node`'s id, and whether it is new; a new node gets `next` and is added to `nodes`.
    fn id(&mut self, node: N, next: u32, nodes: &mut Vec<N>) -> Result<(u32, bool), AstarError>;
}

impl<N: Eq + Hash + Clone> Ids<N> for FxHashMap<N, u32> {
    #[inline]
    fn id(&mut self, node: N, next: u32, nodes: &mut Vec<N>) -> Result<(u32, bool), AstarError> {
        match self.entry(node) {
            Entry::Occupied(held) => Ok((*held.get(), false)),
            Entry::Vacant(new) => {
                nodes.push(new.key().clone());
                new.insert(next);
                Ok((next, true))
            }
        }
    }
}

/// The caller's numbering: `ids[index(n)]` is `n`'s id, or [`ABSENT`].
struct Dense<F> {
    ids: Vec<u32>,
    index: F,
}

impl<N, F: FnMut(&N) -> usize> Ids<N> for Dense<F> {
    #[inline]
    fn id(&mut self, node: N, next: u32, nodes: &mut Vec<N>) -> Result<(u32, bool), AstarError> {
        let index = (self.index)(&node);
        let nodes_given = self.ids.len();
        let id = self
            .ids
            .get_mut(index)
            .ok_or(AstarError::IndexOutOfRange { index, nodes: nodes_given })?;
        if *id != ABSENT {
            return Ok((*id, false));
        }
        *id = next;
        nodes.push(node);
        Ok((next, true))
    }
}

/// A node's state: cost so far, estimate (computed once), parent id and the cost of the
/// move from it, closed.
#[derive(Clone, Copy, Debug)]
struct State<C> {
    g: C,
    h: C,
    step: C,
    parent: u32,
    closed: bool,
}

/// One search's data: the ids, the nodes and their states by id, the frontier, and the
/// counters.
///
/// `COUNT` says whether to keep [`Counters`]: [`astar`] and [`astar_dense`] do not, so that
/// counting costs them nothing (the compiler drops every `if COUNT` branch); the
/// reopenings are counted always, as [`Search::path`] needs them.
///
/// Invariants: `nodes.len() == states.len()`, every id below `capacity`, the queue built
/// for `capacity` and `span`; `floor` is the last key popped.
struct Search<Q, N, C, I, const COUNT: bool> {
    ids: I,
    nodes: Vec<N>,
    states: Vec<State<C>>,
    open: Q,
    capacity: usize,
    span: Key,
    floor: Option<Key>,
    stats: Counters,
}

impl<Q: Frontier, N: Clone, C: Cost, F: FnMut(&N) -> usize, const COUNT: bool>
    Search<Q, N, C, Dense<F>, COUNT>
{
    /// A search over `nodes` nodes numbered by `index`, its queue built once for them.
    fn dense(nodes: usize, index: F) -> Self {
        Search::new(Dense { ids: vec![ABSENT; nodes], index }, nodes.clamp(1, ABSENT as usize))
    }
}

impl<Q: Frontier, N: Clone, C: Cost, I: Ids<N>, const COUNT: bool> Search<Q, N, C, I, COUNT> {
    fn new(ids: I, capacity: usize) -> Self {
        Search {
            ids,
            nodes: Vec::new(),
            states: Vec::new(),
            open: Q::new(Spec { capacity, span: INITIAL_SPAN }),
            capacity,
            span: INITIAL_SPAN,
            floor: None,
            stats: Counters::default(),
        }
    }

    /// The queue key of a node with cost `g` and estimate `h` (see the module docs): with
    /// float costs and a monotone queue, never below the floor (pathmax, see
    /// [Float costs](self#float-costs)).
    #[inline]
    fn key(&self, g: C, h: C) -> Result<Key, AstarError> {
        let f = g.checked_add(h).ok_or(AstarError::Overflow)?.to_key()?;
        Ok(if Q::KEYS == KeyRule::Any && C::NARROW {
            f << 32 | (u64::from(u32::MAX) - g.to_key()?)
        } else if C::FLOAT && Q::KEYS.is_monotone() {
            self.floor.map_or(f, |floor| f.max(floor))
        } else {
            f
        })
    }

    /// Pushes `id` with `key` and counts what the push did, rebuilding the queue first if
    /// `id` is beyond its capacity, and again if `key` is beyond a bounded span.
    #[inline]
    fn push(&mut self, id: u32, key: Key) -> Result<(), AstarError> {
        if id as usize >= self.capacity {
            let capacity = (self.capacity * 2).min(ABSENT as usize);
            self.rebuild(capacity, self.span)?;
        }
        loop {
            match self.open.push(id, key) {
                Ok(pushed) => {
                    if COUNT {
                        self.stats.pushes += u64::from(pushed == Pushed::Added);
                        self.stats.decrease_keys += u64::from(pushed == Pushed::Decreased);
                    }
                }
                // A span the queue served as asked, too small: ask for one that fits. A
                // queue that served less than asked (its own maximum) is at its limit.
                Err(PushError::BeyondSpan { key, floor, span }) if span == self.span => {
                    let span = (key - floor).checked_next_power_of_two().unwrap_or(Key::MAX);
                    self.rebuild(self.capacity, span)?;
                    continue;
                }
                Err(rejected) => return Err(rejected.into()),
            }
            return Ok(());
        }
    }

    /// Moves the frontier into a new queue built for `capacity` and `span`. A monotone
    /// queue is first given the old floor (one entry pushed and popped), so that keys
    /// between it and the smallest held key stay accepted. Not counted in [`Counters`].
    #[cold]
    fn rebuild(&mut self, capacity: usize, span: Key) -> Result<(), AstarError> {
        let mut open = Q::new(Spec { capacity, span });
        if let (Some(floor), true) = (self.floor, Q::KEYS.is_monotone()) {
            open.push(0, floor)?;
            open.pop();
        }
        while let Some((id, key)) = self.open.pop() {
            open.push(id, key)?;
        }
        (self.open, self.capacity, self.span) = (open, capacity, span);
        Ok(())
    }

    fn run<IN: IntoIterator<Item = (N, C)>>(
        mut self,
        start: &N,
        mut successors: impl FnMut(&N) -> IN,
        mut heuristic: impl FnMut(&N) -> C,
        mut success: impl FnMut(&N) -> bool,
    ) -> FoundWithStats<N, C> {
        takes::<Q, C>().map_err(AstarError::Refused)?;
        let (id, _) = self.ids.id(start.clone(), 0, &mut self.nodes)?;
        let h = estimate(&mut heuristic, start)?;
        self.states.push(State { g: C::ZERO, h, step: C::ZERO, parent: ABSENT, closed: false });
        self.push(id, self.key(C::ZERO, h)?)?;
        // Nodes pushed and not expanded since (new or reopened), for `max_open` (unread,
        // so dropped by the compiler, when not counting).
        let mut open_nodes: u64 = 1;
        (self.stats.max_frontier, self.stats.max_open) = (1, 1);
        while let Some((id, key)) = self.open.pop() {
            if COUNT {
                self.stats.pops += 1;
            }
            self.floor = Some(key);
            let state = &mut self.states[id as usize];
            // Stale: the node was expanded since this entry was pushed. An entry pushed
            // before a cheaper one of the same node pops after it from an exact queue; from
            // an approximate one it may pop first, and the node is expanded with its
            // current, cheapest cost all the same.
            if state.closed {
                if COUNT {
                    self.stats.stale_pops += 1;
                }
                continue;
            }
            state.closed = true;
            if COUNT {
                self.stats.expansions += 1;
            }
            open_nodes -= 1;
            let g = state.g;
            if success(&self.nodes[id as usize]) {
                let path = self.path(id, g)?;
                return Ok((Some(path), self.stats));
            }
            for (next, step) in successors(&self.nodes[id as usize]) {
                step.to_key()?;
                let g = g.checked_add(step).ok_or(AstarError::Overflow)?;
                let fresh = u32::try_from(self.nodes.len())
                    .ok()
                    .filter(|&n| n != ABSENT)
                    .ok_or(AstarError::TooManyNodes)?;
                let (child, new) = self.ids.id(next, fresh, &mut self.nodes)?;
                let h = if new {
                    let h = estimate(&mut heuristic, &self.nodes[child as usize])?;
                    self.states.push(State { g, h, step, parent: id, closed: false });
                    open_nodes += 1;
                    h
                } else {
                    let state = &mut self.states[child as usize];
                    if g >= state.g {
                        continue;
                    }
                    if state.closed {
                        state.closed = false;
                        self.stats.reopenings += 1;
                        open_nodes += 1;
                    }
                    (state.g, state.step, state.parent) = (g, step, id);
                    state.h
                };
                self.push(child, self.key(g, h)?)?;
            }
            if COUNT {
                self.stats.max_frontier = self.stats.max_frontier.max(self.open.len() as u64);
                self.stats.max_open = self.stats.max_open.max(open_nodes);
            }
        }
        Ok((None, self.stats))
    }

    /// The path to `goal` by parents, and its cost: `g`, or after a reopening (when a
    /// node on the path may have been improved after the goal's cost was set through it)
    /// the sum of the path's moves from the start (the order in which `g` is summed, so
    /// that float costs round alike), so that path and cost always agree.
    fn path(&self, goal: u32, g: C) -> Result<(Vec<N>, C), AstarError> {
        let mut ids = vec![goal];
        let mut at = goal;
        while self.states[at as usize].parent != ABSENT {
            at = self.states[at as usize].parent;
            ids.push(at);
        }
        ids.reverse();
        let cost = if self.stats.reopenings == 0 {
            g
        } else {
            ids[1..]
                .iter()
                .try_fold(C::ZERO, |cost, &id| cost.checked_add(self.states[id as usize].step))
                .ok_or(AstarError::Overflow)?
        };
        Ok((ids.iter().map(|&id| self.nodes[id as usize].clone()).collect(), cost))
    }
}

/// `heuristic(node)`, checked to be a cost ([`Cost::to_key`]).
#[inline]
fn estimate<N, C: Cost>(heuristic: &mut impl FnMut(&N) -> C, node: &N) -> Result<C, AstarError> {
    let h = heuristic(node);
    h.to_key()?;
    Ok(h)
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use super::*;
    use crate::dary_heap::DaryHeap;
    use crate::radix_heap::RadixHeap;
    use crate::Dup;

    /// A 60 × 60 grid, 4-connected, each cell costing 1 to 2,999 to enter (a pseudo-random
    /// pattern with walls): 3,600 nodes outgrow [`INITIAL_CAPACITY`], and costs beyond
    /// [`INITIAL_SPAN`] make a bounded-span queue grow its span.
    const SIDE: i32 = 60;

    fn weight((x, y): (i32, i32)) -> Option<u32> {
        let hash = (x as u32).wrapping_mul(73_856_093) ^ (y as u32).wrapping_mul(19_349_663);
        (!hash.is_multiple_of(7) || x == 0).then_some(1 + hash % 2_999)
    }

    fn successors(&(x, y): &(i32, i32)) -> Vec<((i32, i32), u32)> {
        [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            .into_iter()
            .filter(|&(x, y)| (0..SIDE).contains(&x) && (0..SIDE).contains(&y))
            .filter_map(|cell| Some((cell, weight(cell)?)))
            .collect()
    }

    /// Dijkstra's costs from `start` with std's heap, independent of the code under test.
    fn dijkstra(start: (i32, i32)) -> FxHashMap<(i32, i32), u32> {
        let mut best = FxHashMap::default();
        let mut open = BinaryHeap::from([Reverse((0, start))]);
        while let Some(Reverse((g, cell))) = open.pop() {
            if best.contains_key(&cell) {
                continue;
            }
            best.insert(cell, g);
            for (next, step) in successors(&cell) {
                open.push(Reverse((g + step, next)));
            }
        }
        best
    }

    /// The cheapest cost to each of a few goals, and a path that costs it, for queue `Q`,
    /// with both node maps, the zero heuristic and a consistent one (Manhattan × 1).
    fn agrees_with_dijkstra<Q: Frontier>() {
        let start = (0, 0);
        let costs = dijkstra(start);
        for goal in [(59, 59), (0, 59), (31, 17), (58, 2)] {
            let expected = costs.get(&goal).copied();
            let manhattan = |&(x, y): &(i32, i32)| x.abs_diff(goal.0) + y.abs_diff(goal.1);
            for h in [&(|_: &(i32, i32)| 0u32) as &dyn Fn(&(i32, i32)) -> u32, &manhattan] {
                let hashed = astar::<Q, _, _, _>(&start, successors, h, |&c| c == goal);
                let dense = astar_dense::<Q, _, _, _>(
                    &start,
                    successors,
                    h,
                    |&c| c == goal,
                    (SIDE * SIDE) as usize,
                    |&(x, y)| (y * SIDE + x) as usize,
                );
                for found in [hashed, dense] {
                    let found = found.expect("no error");
                    assert_eq!(found.as_ref().map(|(_, c)| *c), expected, "{goal:?}");
                    if let Some((path, cost)) = found {
                        assert_eq!((path[0], path[path.len() - 1]), (start, goal));
                        let sum: u32 = path
                            .windows(2)
                            .map(|w| successors(&w[0]).iter().find(|s| s.0 == w[1]).unwrap().1)
                            .sum();
                        assert_eq!(sum, cost, "the path does not cost what was returned");
                    }
                }
            }
        }
    }

    macro_rules! every_exact_queue {
        ($($id:literal $name:ident $ty:ty),* $(,)?) => {$(
            #[test]
            fn $name() {
                if <$ty as Frontier>::ORDER.is_exact() && <$ty as Frontier>::available().is_ok() {
                    agrees_with_dijkstra::<$ty>();
                }
            }
        )*};
    }

    crate::for_each_queue!(every_exact_queue);

    #[test]
    fn an_inconsistent_heuristic_is_an_error_with_a_monotone_queue_and_integer_costs() {
        // 0 -> 1 -> 2 (the goal) costs 1 + 1; 0 -> 2 directly costs 3. h(0) = 2, h(1) = 0
        // is admissible but inconsistent (h(0) > cost(0, 1) + h(1)): 1's key falls below 0's.
        let successors = |&n: &u32| match n {
            0 => vec![(1, 1), (2, 3)],
            1 => vec![(2, 1)],
            _ => vec![],
        };
        let h = |&n: &u32| [2, 0, 0][n as usize];
        let radix = astar::<RadixHeap<Dup>, _, _, _>(&0, successors, h, |&n| n == 2);
        assert!(matches!(radix, Err(AstarError::Queue(PushError::BelowFloor { .. }))), "{radix:?}");
        let dary = astar::<DaryHeap<4, Dup>, _, _, _>(&0, successors, h, |&n| n == 2);
        assert_eq!(dary, Ok(Some((vec![0, 1, 2], 2))));
        // With float costs the monotone queue lifts 1's key to the floor (pathmax) and
        // still finds the cheapest path.
        let successors = |&n: &u32| successors(&n).into_iter().map(|(m, c)| (m, f64::from(c)));
        let h = |&n: &u32| f64::from(h(&n));
        let radix = astar::<RadixHeap<Dup>, _, _, _>(&0, successors, h, |&n| n == 2);
        assert_eq!(radix, Ok(Some((vec![0, 1, 2], 2.0))));
    }

    /// First in, first out: an approximate queue at its worst, to force reopenings.
    struct Fifo(std::collections::VecDeque<(crate::Node, Key)>);

    impl Frontier for Fifo {
        const FAMILY: crate::Family = crate::Family::SoftHeap;
        const ORIGIN: crate::Origin = crate::Origin::Ours { file: file!() };
        const STRATEGY: crate::Strategy = crate::Strategy::Duplicates;
        const KEYS: KeyRule = KeyRule::Any;
        const TIES: crate::Ties = crate::Ties::Unspecified;
        const ORDER: crate::Order = crate::Order::Approximate { epsilon: 1.0 };
        fn new(_: Spec) -> Self {
            Fifo(Default::default())
        }
        fn push(&mut self, node: crate::Node, key: Key) -> Result<crate::Pushed, PushError> {
            self.0.push_back((node, key));
            Ok(crate::Pushed::Added)
        }
        fn pop(&mut self) -> Option<(crate::Node, Key)> {
            self.0.pop_front()
        }
        fn len(&self) -> usize {
            self.0.len()
        }
        fn clear(&mut self) {
            self.0.clear();
        }
    }

    #[test]
    fn out_of_order_pops_return_the_cost_of_the_path_returned() {
        // 0 -> 1 costs 10, 0 -> 2 -> 1 costs 2, 1 -> 3 (the goal) 1. First in, first out,
        // 1 is expanded at 10 (3 reached at 11), then improved to 2 through 2 (reopened,
        // its parent now 2), and 3 pops before 1 is expanded again: the path by parents is
        // 0, 2, 1, 3, which costs 3, not 11.
        let successors = |&n: &u32| match n {
            0 => vec![(1, 10), (2, 1)],
            1 => vec![(3, 1)],
            2 => vec![(1, 1)],
            _ => vec![],
        };
        let found = astar::<Fifo, _, _, _>(&0, successors, |_| 0u32, |&n| n == 3);
        assert_eq!(found, Ok(Some((vec![0, 2, 1, 3], 3))));
    }

    /// A line of 8 nodes, each step a diagonal move (`√2`), the goal 7 and the octile
    /// estimate `√2 × (7 - n)`: consistent in real numbers (`f` is `7√2` everywhere), but
    /// in `f64` node 2's `f` rounds one ulp below node 1's.
    #[test]
    fn float_rounding_puts_keys_below_the_floor_and_pathmax_lifts_them() {
        use std::f64::consts::SQRT_2;
        let line = |&n: &u32| (n < 7).then_some((n + 1, SQRT_2));
        let octile = |&n: &u32| SQRT_2 * f64::from(7 - n);
        let (g1, g2) = (SQRT_2, SQRT_2 + SQRT_2);
        assert!(g2 + octile(&2) < g1 + octile(&1), "the rounding this test is about");
        let walked = (0..7).fold(0.0, |g, _| g + SQRT_2);
        for found in [
            astar::<RadixHeap<Dup>, _, _, _>(&0, line, octile, |&n| n == 7),
            astar::<DaryHeap<4, Dup>, _, _, _>(&0, line, octile, |&n| n == 7),
        ] {
            assert_eq!(found, Ok(Some(((0..=7).collect(), walked))));
        }
        // Integer costs get no such lift: an inconsistent heuristic stays an error (above).
    }

    #[test]
    fn float_keys_preserve_order() {
        let values = [
            0.0,
            -0.0,
            f64::from_bits(1),
            f64::MIN_POSITIVE / 2.0,
            f64::MIN_POSITIVE,
            1.0,
            1.0 + f64::EPSILON,
            std::f64::consts::SQRT_2,
            1e300,
            f64::MAX,
        ];
        for a in values {
            for b in values {
                let (ka, kb) = (a.to_key().unwrap(), b.to_key().unwrap());
                assert_eq!(a.partial_cmp(&b), Some(ka.cmp(&kb)), "{a:e} against {b:e}");
                let (a, b) = (a as f32, b as f32);
                if a.is_finite() && b.is_finite() {
                    let (ka, kb) = (a.to_key().unwrap(), b.to_key().unwrap());
                    assert_eq!(a.partial_cmp(&b), Some(ka.cmp(&kb)), "{a:e} against {b:e} (f32)");
                    assert!(ka <= u64::from(u32::MAX), "f32 keys fit 32 bits");
                }
            }
        }
        assert_eq!(
            (f64::NAN.to_key(), f32::INFINITY.to_key()),
            (Err(AstarError::NotFinite), Err(AstarError::NotFinite))
        );
        assert_eq!((-1e-300f64).to_key(), Err(AstarError::Negative));
    }

    #[test]
    fn bad_floats_are_errors() {
        let line = |step: f64| move |&n: &u32| [(n + 1, step)];
        for (step, h, error) in [
            (f64::NAN, 0.0, AstarError::NotFinite),
            (f64::INFINITY, 0.0, AstarError::NotFinite),
            (-0.5, 0.0, AstarError::Negative),
            (1.0, f64::NAN, AstarError::NotFinite),
            (1.0, f64::INFINITY, AstarError::NotFinite),
            (1.0, -1.0, AstarError::Negative),
            (f64::MAX, 0.0, AstarError::Overflow),
        ] {
            let found = astar::<DaryHeap<4, Dup>, _, _, _>(&0, line(step), |_| h, |&n| n == 3);
            assert_eq!(found, Err(error), "step {step}, estimate {h}");
        }
        // -0.0 is zero, not negative.
        let found = astar::<RadixHeap<Dup>, _, _, _>(&0, line(-0.0f64), |_| -0.0, |&n| n == 3);
        assert_eq!(found.map(|found| found.map(|(path, _)| path)), Ok(Some(vec![0, 1, 2, 3])));
    }

    #[test]
    fn bounded_span_queues_refuse_float_costs_at_once() {
        use crate::bucket_queue::BucketQueue;
        let reason = takes::<BucketQueue<Dup>, f32>().expect_err("refused");
        assert!(reason.contains("bounded-span"), "{reason}");
        assert_eq!(takes::<BucketQueue<Dup>, u64>(), Ok(()));
        assert_eq!(takes::<RadixHeap<Dup>, f64>(), Ok(()));
        let never = |_: &u32| -> Vec<(u32, f32)> { unreachable!("refused before searching") };
        let found = astar::<BucketQueue<Dup>, _, _, _>(&0, never, |_| 0.0, |_| true);
        assert_eq!(found, Err(AstarError::Refused(reason)));
    }

    /// The graph of the [`astar_with_stats`] example, by hand, with both strategies:
    /// 0 -> 1 (1), 0 -> 2 (3), 1 -> 2 (1), goal 2, no estimate.
    ///
    /// Pop 0 (expansion 1): push 1 at 1 and 2 at 3 (frontier 2, open 2). Pop 1 (expansion
    /// 2): 2 improves to 2: a duplicate queue adds an entry (pushes 4, frontier 2), a
    /// decrease-key one lowers it (pushes 3, one decrease-key, frontier 1). Pop 2 at 2
    /// (expansion 3): the goal. Three pops, none stale; the duplicate queue still holds 2's
    /// entry at 3.
    #[test]
    fn stats_of_a_hand_worked_search() {
        let successors = |&n: &u32| match n {
            0 => vec![(1, 1), (2, 3)],
            1 => vec![(2, 1)],
            _ => vec![],
        };
        let run_dup =
            astar_with_stats::<DaryHeap<4, Dup>, _, _, _>(&0, successors, |_| 0u32, |&n| n == 2);
        let dup = Counters {
            expansions: 3,
            pushes: 4,
            pops: 3,
            max_frontier: 2,
            max_open: 2,
            ..Counters::default()
        };
        assert_eq!(run_dup, Ok((Some((vec![0, 1, 2], 2)), dup)));
        let run_dk = astar_with_stats::<DaryHeap<4, crate::Dk>, _, _, _>(
            &0,
            successors,
            |_| 0u32,
            |&n| n == 2,
        );
        let dk = Counters { pushes: 3, decrease_keys: 1, ..dup };
        assert_eq!(run_dk, Ok((Some((vec![0, 1, 2], 2)), dk)));
        // Searching on past the goal (unreachable goal 9): the duplicate queue pops 2's
        // stale entry at 3.
        let run = astar_dense_with_stats::<DaryHeap<4, Dup>, _, _, _>(
            &0,
            successors,
            |_| 0u32,
            |&n| n == 9,
            3,
            |&n| n as usize,
        );
        assert_eq!(run, Ok((None, Counters { pops: 4, stale_pops: 1, ..dup })));
    }

    /// The first-in-first-out queue's run above: 1 expanded at 10, reopened at 2.
    #[test]
    fn stats_count_reopenings() {
        let successors = |&n: &u32| match n {
            0 => vec![(1, 10), (2, 1)],
            1 => vec![(3, 1)],
            2 => vec![(1, 1)],
            _ => vec![],
        };
        let (_, stats) =
            astar_with_stats::<Fifo, _, _, _>(&0, successors, |_| 0u32, |&n| n == 3).unwrap();
        assert_eq!(stats.reopenings, 1, "{stats:?}");
    }

    #[test]
    fn bad_costs_and_indices_are_errors() {
        let back = |&n: &i32| vec![(n + 1, -1)];
        let found = astar::<DaryHeap<4, Dup>, _, _, _>(&0, back, |_| 0, |&n| n == 3);
        assert_eq!(found, Err(AstarError::Negative));
        let far = |&n: &u8| vec![(n + 1, u8::MAX)];
        let found = astar::<DaryHeap<4, Dup>, _, _, _>(&0, far, |_| 0, |&n| n == 3);
        assert_eq!(found, Err(AstarError::Overflow));
        let line = |&n: &u32| vec![(n + 1, 1)];
        let found = astar_dense::<DaryHeap<4, Dup>, _, _, _>(
            &0,
            line,
            |_| 0,
            |&n| n == 9,
            5,
            |&n| n as usize,
        );
        assert_eq!(found, Err(AstarError::IndexOutOfRange { index: 5, nodes: 5 }));
    }
}
