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
//! # Ok::<(), pqlab_queues::astar::SearchError>(())
//! ```
//!
//! It returns a `Result` where `pathfinding` returns the `Option` alone: a queue may reject
//! a key (see below), and a cost may be negative or overflow, and each is an error rather
//! than a panic or a wrong path.
//!
//! # How it drives the queue
//!
//! Like `pathfinding`, it keeps its per-node state (cost so far, estimate, parent, closed)
//! in a hash map: each node gets a dense id when first reached (an `FxHashMap<N, u32>`),
//! the state lives in a vector by id, and the frontier holds ids. [`astar_dense`] replaces
//! the hash map by the caller's own numbering of the nodes, for graphs that have one.
//!
//! * **Keys.** With a queue that accepts any key ([`KeyRule::Any`]) and a cost type of at
//!   most 32 bits ([`Cost::NARROW`]), the key is `f << 32 | (u32::MAX - g)`: ties on `f`
//!   go to the larger `g`, as in `pathfinding` and the harness's grid A*. Otherwise the
//!   key is `f` alone, and ties pop in the queue's own order ([`Frontier::TIES`]).
//! * **Strategy.** The search pushes a node whenever its cost improves. A duplicate queue
//!   then holds stale entries, skipped when popped (their node is closed); a decrease-key
//!   queue lowers the held entry in place. Both give the same answers.
//! * **Monotone queues** (radix heaps, bucket and HOT queues) need a *consistent*
//!   heuristic (`h(a) <= cost(a, b) + h(b)` on every edge): then no key falls below the
//!   last one popped. With an inconsistent one the queue rejects the push, and the search
//!   returns [`SearchError::Queue`]. A bounded-span queue is rebuilt with a larger span
//!   when a key goes beyond it.
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
//! # Complexity
//!
//! Per expansion: one pop, one successors call, and per successor one hash lookup (or
//! index call), one heuristic call for a node seen for the first time, and at most one
//! push. Memory: the node, three costs and 8 bytes per node seen, and the queue.

use std::collections::hash_map::Entry;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::{Frontier, Key, KeyRule, PushError, Spec};

/// The capacity [`astar`] builds its first queue for; it doubles as nodes are found. Not
/// tuned by measurement: a decrease-key queue allocates 4 bytes per id up front, and 1,024
/// ids (4 KiB) keep a small search small; a large one pays O(log n) moves of its frontier.
pub const INITIAL_CAPACITY: usize = 1024;

/// The span a bounded-span queue is first built for; it doubles when a key goes beyond.
/// Not tuned by measurement: 1,024 buckets (4 KiB) cover grid costs of up to a few hundred
/// a move.
pub const INITIAL_SPAN: Key = 1024;

/// A cost the generic A* can add, compare and turn into a queue key: the unsigned and
/// signed integers (a negative cost or estimate is an error).
pub trait Cost: Copy + Ord {
    /// The cost of the empty path.
    const ZERO: Self;
    /// Whether every non-negative value fits 32 bits, so that `f` and `g` share one key.
    const NARROW: bool;
    /// `self + other`, or `None` on overflow.
    fn checked_add(self, other: Self) -> Option<Self>;
    /// The value as a key; `None` if it is negative.
    fn to_key(self) -> Option<Key>;
}

macro_rules! cost {
    ($($t:ty),*) => {$(
        impl Cost for $t {
            const ZERO: Self = 0;
            const NARROW: bool = <$t>::MAX as u128 <= u32::MAX as u128;
            #[inline]
            fn checked_add(self, other: Self) -> Option<Self> {
                <$t>::checked_add(self, other)
            }
            #[inline]
            fn to_key(self) -> Option<Key> {
                Key::try_from(self).ok()
            }
        }
    )*};
}

cost!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The queue rejected a key: a monotone queue given an inconsistent heuristic, or a
    /// bounded-span queue at its largest span.
    #[error("the queue rejected a push ({0}); monotone queues need a consistent heuristic")]
    Queue(#[from] PushError),
    /// A successor's cost or a heuristic estimate was negative.
    #[error("a cost or estimate is negative: A* needs non-negative costs")]
    Negative,
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
pub type Found<N, C> = Result<Option<(Vec<N>, C)>, SearchError>;

/// Finds a path from `start` to a node satisfying `success`, with `Q` as the frontier and
/// the per-node state in a hash map: `pathfinding::prelude::astar`'s parameters.
///
/// `successors(n)` gives `n`'s neighbours and the cost of the move to each; `heuristic(n)`
/// must never overestimate the cost from `n` to a goal, or a longer path may be returned,
/// and with a monotone queue ([`KeyRule::Monotone`], [`KeyRule::BoundedSpan`]) it must be
/// consistent. The path is a cheapest one when `Q` is exact. See the [module
/// documentation](self) for the example and how each kind of queue is driven.
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
    Search::<Q, N, C, _>::new(FxHashMap::default(), INITIAL_CAPACITY)
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
/// # Ok::<(), pqlab_queues::astar::SearchError>(())
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
    let ids = Dense { ids: vec![ABSENT; nodes], index };
    Search::<Q, N, C, _>::new(ids, nodes.clamp(1, ABSENT as usize))
        .run(start, successors, heuristic, success)
}

/// No id: the parent of the start, an index not reached yet.
const ABSENT: u32 = u32::MAX;

/// Gives nodes their dense ids, in the order they are first reached.
trait Ids<N> {
    /// `node`'s id, and whether it is new; a new node gets `next` and is added to `nodes`.
    fn id(&mut self, node: N, next: u32, nodes: &mut Vec<N>) -> Result<(u32, bool), SearchError>;
}

impl<N: Eq + Hash + Clone> Ids<N> for FxHashMap<N, u32> {
    #[inline]
    fn id(&mut self, node: N, next: u32, nodes: &mut Vec<N>) -> Result<(u32, bool), SearchError> {
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
    fn id(&mut self, node: N, next: u32, nodes: &mut Vec<N>) -> Result<(u32, bool), SearchError> {
        let index = (self.index)(&node);
        let nodes_given = self.ids.len();
        let id = self
            .ids
            .get_mut(index)
            .ok_or(SearchError::IndexOutOfRange { index, nodes: nodes_given })?;
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

/// One search's data: the ids, the nodes and their states by id, and the frontier.
///
/// Invariants: `nodes.len() == states.len()`, every id below `capacity`, the queue built
/// for `capacity` and `span`; `floor` is the last key popped.
struct Search<Q, N, C, I> {
    ids: I,
    nodes: Vec<N>,
    states: Vec<State<C>>,
    open: Q,
    capacity: usize,
    span: Key,
    floor: Option<Key>,
    reopenings: u64,
}

impl<Q: Frontier, N: Clone, C: Cost, I: Ids<N>> Search<Q, N, C, I> {
    fn new(ids: I, capacity: usize) -> Self {
        Search {
            ids,
            nodes: Vec::new(),
            states: Vec::new(),
            open: Q::new(Spec { capacity, span: INITIAL_SPAN }),
            capacity,
            span: INITIAL_SPAN,
            floor: None,
            reopenings: 0,
        }
    }

    /// The queue key of a node with cost `g` and estimate `h` (see the module docs).
    #[inline]
    fn key(g: C, h: C) -> Result<Key, SearchError> {
        let f = g.checked_add(h).ok_or(SearchError::Overflow)?;
        let f = f.to_key().ok_or(SearchError::Negative)?;
        Ok(if Q::KEYS == KeyRule::Any && C::NARROW {
            let g = g.to_key().ok_or(SearchError::Negative)?;
            f << 32 | (u64::from(u32::MAX) - g)
        } else {
            f
        })
    }

    /// Pushes `id` with `key`, rebuilding the queue first if `id` is beyond its capacity,
    /// and again if `key` is beyond a bounded span.
    #[inline]
    fn push(&mut self, id: u32, key: Key) -> Result<(), SearchError> {
        if id as usize >= self.capacity {
            let capacity = (self.capacity * 2).min(ABSENT as usize);
            self.rebuild(capacity, self.span)?;
        }
        loop {
            match self.open.push(id, key) {
                Ok(_) => return Ok(()),
                // A span the queue served as asked, too small: ask for one that fits. A
                // queue that served less than asked (its own maximum) is at its limit.
                Err(PushError::BeyondSpan { key, floor, span }) if span == self.span => {
                    let span = (key - floor).checked_next_power_of_two().unwrap_or(Key::MAX);
                    self.rebuild(self.capacity, span)?;
                }
                Err(rejected) => return Err(rejected.into()),
            }
        }
    }

    /// Moves the frontier into a new queue built for `capacity` and `span`. A monotone
    /// queue is first given the old floor (one entry pushed and popped), so that keys
    /// between it and the smallest held key stay accepted.
    #[cold]
    fn rebuild(&mut self, capacity: usize, span: Key) -> Result<(), SearchError> {
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
    ) -> Found<N, C> {
        let (id, _) = self.ids.id(start.clone(), 0, &mut self.nodes)?;
        let h = estimate(&mut heuristic, start)?;
        self.states.push(State { g: C::ZERO, h, step: C::ZERO, parent: ABSENT, closed: false });
        self.push(id, Self::key(C::ZERO, h)?)?;
        while let Some((id, key)) = self.open.pop() {
            self.floor = Some(key);
            let state = &mut self.states[id as usize];
            // Stale: the node was expanded since this entry was pushed. An entry pushed
            // before a cheaper one of the same node pops after it from an exact queue; from
            // an approximate one it may pop first, and the node is expanded with its
            // current, cheapest cost all the same.
            if state.closed {
                continue;
            }
            state.closed = true;
            let g = state.g;
            if success(&self.nodes[id as usize]) {
                return self.path(id, g).map(Some);
            }
            for (next, step) in successors(&self.nodes[id as usize]) {
                if step < C::ZERO {
                    return Err(SearchError::Negative);
                }
                let g = g.checked_add(step).ok_or(SearchError::Overflow)?;
                let fresh = u32::try_from(self.nodes.len())
                    .ok()
                    .filter(|&n| n != ABSENT)
                    .ok_or(SearchError::TooManyNodes)?;
                let (child, new) = self.ids.id(next, fresh, &mut self.nodes)?;
                let h = if new {
                    let h = estimate(&mut heuristic, &self.nodes[child as usize])?;
                    self.states.push(State { g, h, step, parent: id, closed: false });
                    h
                } else {
                    let state = &mut self.states[child as usize];
                    if g >= state.g {
                        continue;
                    }
                    if state.closed {
                        state.closed = false;
                        self.reopenings += 1;
                    }
                    (state.g, state.step, state.parent) = (g, step, id);
                    state.h
                };
                self.push(child, Self::key(g, h)?)?;
            }
        }
        Ok(None)
    }

    /// The path to `goal` by parents, and its cost: `g`, or after a reopening (when a
    /// node on the path may have been improved after the goal's cost was set through it)
    /// the sum of the path's moves, so that path and cost always agree.
    fn path(&self, goal: u32, g: C) -> Result<(Vec<N>, C), SearchError> {
        let mut ids = vec![goal];
        let mut cost = C::ZERO;
        let mut at = &self.states[goal as usize];
        while at.parent != ABSENT {
            cost = cost.checked_add(at.step).ok_or(SearchError::Overflow)?;
            ids.push(at.parent);
            at = &self.states[at.parent as usize];
        }
        let path = ids.iter().rev().map(|&id| self.nodes[id as usize].clone()).collect();
        Ok((path, if self.reopenings == 0 { g } else { cost }))
    }
}

/// `heuristic(node)`, checked non-negative.
#[inline]
fn estimate<N, C: Cost>(heuristic: &mut impl FnMut(&N) -> C, node: &N) -> Result<C, SearchError> {
    let h = heuristic(node);
    if h < C::ZERO {
        return Err(SearchError::Negative);
    }
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
                if <$ty as Frontier>::ORDER.is_exact() {
                    agrees_with_dijkstra::<$ty>();
                }
            }
        )*};
    }

    crate::for_each_queue!(every_exact_queue);

    #[test]
    fn an_inconsistent_heuristic_is_an_error_with_a_monotone_queue_and_optimal_without() {
        // 0 -> 1 -> 2 (the goal) costs 1 + 1; 0 -> 2 directly costs 3. h(0) = 2, h(1) = 0
        // is admissible but inconsistent (h(0) > cost(0, 1) + h(1)): 1's key falls below 0's.
        let successors = |&n: &u32| match n {
            0 => vec![(1, 1), (2, 3)],
            1 => vec![(2, 1)],
            _ => vec![],
        };
        let h = |&n: &u32| [2, 0, 0][n as usize];
        let radix = astar::<RadixHeap<Dup>, _, _, _>(&0, successors, h, |&n| n == 2);
        assert!(
            matches!(radix, Err(SearchError::Queue(PushError::BelowFloor { .. }))),
            "{radix:?}"
        );
        let dary = astar::<DaryHeap<4, Dup>, _, _, _>(&0, successors, h, |&n| n == 2);
        assert_eq!(dary, Ok(Some((vec![0, 1, 2], 2))));
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

    #[test]
    fn bad_costs_and_indices_are_errors() {
        let back = |&n: &i32| vec![(n + 1, -1)];
        let found = astar::<DaryHeap<4, Dup>, _, _, _>(&0, back, |_| 0, |&n| n == 3);
        assert_eq!(found, Err(SearchError::Negative));
        let far = |&n: &u8| vec![(n + 1, u8::MAX)];
        let found = astar::<DaryHeap<4, Dup>, _, _, _>(&0, far, |_| 0, |&n| n == 3);
        assert_eq!(found, Err(SearchError::Overflow));
        let line = |&n: &u32| vec![(n + 1, 1)];
        let found = astar_dense::<DaryHeap<4, Dup>, _, _, _>(
            &0,
            line,
            |_| 0,
            |&n| n == 9,
            5,
            |&n| n as usize,
        );
        assert_eq!(found, Err(SearchError::IndexOutOfRange { index: 5, nodes: 5 }));
    }
}
