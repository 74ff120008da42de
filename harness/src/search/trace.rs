//! Frontier operation traces: record what an A* asks of its frontier once, then replay it
//! against any queue alone, so the queue's cost is measured apart from the search's.
//!
//! Queues break ties differently, so a queue replaying a trace may pop a different node
//! with the same key than the recording did, and a later decrease-key in the trace would
//! then name a node this queue no longer holds. [`Trace::personalize`] fixes that once,
//! untimed: it replays the trace, and whenever the queue pops node `a` where the recording
//! popped node `b` with the same key, it swaps the names `a` and `b` in the rest of the
//! trace. Both nodes held the same key, so the relabelled trace is exactly what this queue
//! would have been asked, and the timed replays ([`replay`]) just run it.
//!
//! [`Oracle`] is the floor: a frontier that answers a recorded pop order at almost no
//! cost, through the same A*, so a report can show what share of a search a queue costs.

use pqlab_queues::{
    Family, Frontier, Key, KeyRule, Node, Order, Origin, PushError, Pushed, Spec, Strategy, Ties,
};

/// One frontier operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `push(node, key)`.
    Push(Node, Key),
    /// `pop()`, which answered this entry (the trace ends at the last pop the search made).
    Pop(Node, Key),
    /// `clear()`, between two searches of one trace.
    Clear,
}

/// The operations one search (or, separated by clears, several) made on its frontier,
/// with what its frontier was built for.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The operations in order.
    pub ops: Vec<Op>,
    /// The capacity the frontier was built for.
    pub capacity: usize,
    /// The key span the frontier was built for.
    pub span: Key,
}

/// A trace that a queue could not follow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The queue rejected a push of the trace.
    #[error("operation {index} of the trace: {source}")]
    Rejected {
        /// The operation's position.
        index: usize,
        /// What the queue said.
        source: PushError,
    },
    /// The queue popped another key than the recording did: one of them misorders.
    #[error("operation {index} of the trace: the queue popped {found:?}, the recording popped {expected:?}")]
    Diverged {
        /// The operation's position.
        index: usize,
        /// What the recording popped.
        expected: Option<Key>,
        /// What the queue popped.
        found: Option<Key>,
    },
}

impl Trace {
    /// How many pushes and pops the trace holds.
    pub fn counts(&self) -> (usize, usize) {
        let pushes = self.ops.iter().filter(|op| matches!(op, Op::Push(..))).count();
        let pops = self.ops.iter().filter(|op| matches!(op, Op::Pop(..))).count();
        (pushes, pops)
    }

    /// A user's trace ([`pqlab_queues::trace`]) as queues of `strategy` are asked it. For
    /// decrease-key queues a `decrease` is a push of the held node; for duplicate queues it
    /// is a push of a new entry, and before each pop the stale entries with smaller keys
    /// (those a search pops and skips) are popped: the reference is a multiset of entries,
    /// O(log n) an operation.
    pub fn of_user(user: &pqlab_queues::trace::UserTrace, strategy: Strategy) -> Trace {
        use pqlab_queues::trace::TraceOp as User;
        use std::collections::BTreeMap;
        let facts = user.facts();
        let mut ops = Vec::with_capacity(user.ops().len());
        // The duplicate queue's entries, `(key, node) -> how many`.
        let mut entries: BTreeMap<(Key, Node), u32> = BTreeMap::new();
        let duplicates = strategy == Strategy::Duplicates;
        for &op in user.ops() {
            match op {
                User::Push { node, key } | User::Decrease { node, key } => {
                    if duplicates {
                        *entries.entry((key, node)).or_default() += 1;
                    }
                    ops.push(Op::Push(node, key));
                }
                User::Pop { node, key } => {
                    if duplicates {
                        // Every entry below the popped key is stale: the trace was checked
                        // to pop the smallest key held.
                        while let Some(mut stale) = entries.first_entry() {
                            let (stale_key, stale_node) = *stale.key();
                            if stale_key >= key {
                                break;
                            }
                            ops.push(Op::Pop(stale_node, stale_key));
                            *stale.get_mut() -= 1;
                            if *stale.get() == 0 {
                                stale.remove();
                            }
                        }
                        if let Some(count) = entries.get_mut(&(key, node)) {
                            *count -= 1;
                            if *count == 0 {
                                entries.remove(&(key, node));
                            }
                        }
                    }
                    ops.push(Op::Pop(node, key));
                }
                User::Clear => {
                    entries.clear();
                    ops.push(Op::Clear);
                }
            }
        }
        Trace { ops, capacity: facts.capacity, span: user.declared_span().unwrap_or(facts.span) }
    }

    /// The trace relabelled so that queue `F` pops exactly the recorded nodes; checks that
    /// it pops the recorded keys all along. Each search (after a clear) starts from the
    /// recorded names, so the names that differ are only those of one search's ties.
    pub fn personalize<F: Frontier>(&self) -> Result<Trace, ReplayError> {
        let mut queue = F::new(Spec { capacity: self.capacity, span: self.span });
        // `name[recorded node] = node as this queue knows it`, and its inverse; `swapped`
        // the recorded nodes whose names moved since the last clear.
        let mut name: Vec<Node> = (0..self.capacity as Node).collect();
        let mut recorded: Vec<Node> = name.clone();
        let mut swapped: Vec<Node> = Vec::new();
        let mut ops = Vec::with_capacity(self.ops.len());
        for (index, &op) in self.ops.iter().enumerate() {
            match op {
                Op::Push(node, key) => {
                    let node = name[node as usize];
                    queue
                        .push(node, key)
                        .map_err(|source| ReplayError::Rejected { index, source })?;
                    ops.push(Op::Push(node, key));
                }
                Op::Pop(node, key) => {
                    let Some((popped, popped_key)) = queue.pop() else {
                        return Err(ReplayError::Diverged {
                            index,
                            expected: Some(key),
                            found: None,
                        });
                    };
                    if popped_key != key {
                        return Err(ReplayError::Diverged {
                            index,
                            expected: Some(key),
                            found: Some(popped_key),
                        });
                    }
                    let expected = name[node as usize];
                    if popped != expected {
                        // Swap the names of the two nodes for the rest of the trace.
                        let other = recorded[popped as usize];
                        name.swap(node as usize, other as usize);
                        recorded.swap(popped as usize, expected as usize);
                        swapped.extend([node, other]);
                    }
                    ops.push(Op::Pop(popped, key));
                }
                Op::Clear => {
                    // Only swapped names differ from their own, in both directions.
                    for node in swapped.drain(..) {
                        name[node as usize] = node;
                        recorded[node as usize] = node;
                    }
                    queue.clear();
                    ops.push(Op::Clear);
                }
            }
        }
        Ok(Trace { ops, capacity: self.capacity, span: self.span })
    }
}

/// A personalised trace kept as what it changes of the trace it was personalised from:
/// the pushes that name another node, `(operation, node)` in order (a pop keeps the shared
/// trace's node: [`replay`] reads only its place). A trace's searches
/// differ only where a queue broke a tie otherwise and the node was pushed again, so this is
/// small beside the trace, and every queue replaying one trace shares the trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relabels(Vec<(usize, Node)>);

impl Relabels {
    /// What `personal` changes of `shared`, which it was personalised from. O(operations).
    pub fn between(shared: &Trace, personal: &Trace) -> Relabels {
        let pushes = shared.ops.iter().zip(&personal.ops).enumerate();
        Relabels(
            pushes
                .filter_map(|(i, ops)| match ops {
                    (Op::Push(a, _), &Op::Push(b, _)) if *a != b => Some((i, b)),
                    _ => None,
                })
                .collect(),
        )
    }

    /// The personalised trace again, from `shared`. O(operations).
    pub fn apply(&self, shared: &Trace) -> Trace {
        let mut personal = shared.clone();
        for &(i, node) in &self.0 {
            if let Op::Push(named, _) = &mut personal.ops[i] {
                *named = node;
            }
        }
        personal
    }
}

/// Runs a (personalised) trace against `queue`; returns a checksum of the popped entries
/// so the work cannot be optimised away.
#[inline(never)]
pub fn replay<F: Frontier>(queue: &mut F, trace: &Trace) -> u64 {
    queue.clear();
    let mut checksum = 0u64;
    for &op in &trace.ops {
        match op {
            Op::Push(node, key) => {
                // The trace was personalised to this queue: no push can be rejected.
                let _ = queue.push(node, key);
            }
            Op::Pop(..) => {
                if let Some((node, key)) = queue.pop() {
                    checksum = checksum.wrapping_mul(31).wrapping_add(key ^ node as u64);
                }
            }
            Op::Clear => queue.clear(),
        }
    }
    checksum
}

/// A frontier that records every operation on the frontier `F` it wraps.
pub struct Recorder<F> {
    inner: F,
    trace: Trace,
}

impl<F> Recorder<F> {
    /// The operations since the last `clear` (a search clears its frontier first).
    pub fn trace(&self) -> &Trace {
        &self.trace
    }
}

impl<F: Frontier> Frontier for Recorder<F> {
    const FAMILY: Family = F::FAMILY;
    const ORIGIN: Origin = F::ORIGIN;
    const STRATEGY: Strategy = F::STRATEGY;
    const KEYS: KeyRule = F::KEYS;
    const TIES: Ties = F::TIES;
    const ORDER: Order = F::ORDER;

    fn new(spec: Spec) -> Self {
        Recorder {
            inner: F::new(spec),
            trace: Trace { ops: Vec::new(), capacity: spec.capacity, span: spec.span },
        }
    }

    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        let pushed = self.inner.push(node, key)?;
        self.trace.ops.push(Op::Push(node, key));
        Ok(pushed)
    }

    fn pop(&mut self) -> Option<(Node, Key)> {
        let popped = self.inner.pop();
        if let Some((node, key)) = popped {
            self.trace.ops.push(Op::Pop(node, key));
        }
        popped
    }

    fn len(&self) -> usize {
        self.inner.len()
    }

    fn clear(&mut self) {
        self.inner.clear();
        self.trace.ops.clear();
    }
}

/// The floor: answers pops from a recorded pop order, and counts pushes. Through the same
/// A*, it reproduces the recorded search exactly while spending almost nothing on the
/// frontier. Load the order with [`Oracle::load`] before each search; `clear` keeps it.
#[derive(Debug, Default)]
pub struct Oracle {
    pops: Vec<(Node, Key)>,
    next: usize,
    len: usize,
}

impl Oracle {
    /// Sets the pop order to that of `trace`.
    pub fn load(&mut self, trace: &Trace) {
        self.pops.clear();
        self.pops.extend(trace.ops.iter().filter_map(|op| match *op {
            Op::Pop(node, key) => Some((node, key)),
            Op::Push(..) | Op::Clear => None,
        }));
        self.next = 0;
        self.len = 0;
    }
}

impl Frontier for Oracle {
    /// The recorded pops, in order: a sorted array that was sorted by the recording.
    const FAMILY: Family = Family::SortedArray;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;

    fn new(_: Spec) -> Self {
        Oracle::default()
    }

    #[inline]
    fn push(&mut self, _: Node, _: Key) -> Result<Pushed, PushError> {
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let entry = self.pops.get(self.next).copied()?;
        self.next += 1;
        self.len = self.len.saturating_sub(1);
        Some(entry)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        self.next = 0;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use pqlab_queues::trace::{TraceKeys, TraceOp as User, UserTrace};
    use pqlab_queues::{dary_heap::DaryHeap, radix_heap::RadixHeap, Dk, Dup};

    use super::*;

    /// Two searches: node 1 lowered from 9 to 4 and node 2 pushed at 9, popped in key order;
    /// then node 1 alone.
    fn user() -> UserTrace {
        let ops = vec![
            User::Push { node: 1, key: 9 },
            User::Push { node: 2, key: 9 },
            User::Decrease { node: 1, key: 4 },
            User::Pop { node: 1, key: 4 },
            User::Pop { node: 2, key: 9 },
            User::Push { node: 3, key: 12 },
            User::Pop { node: 3, key: 12 },
            User::Clear,
            User::Push { node: 1, key: 3 },
            User::Pop { node: 1, key: 3 },
        ];
        UserTrace::new(TraceKeys::Monotone, None, ops).unwrap()
    }

    #[test]
    fn a_user_trace_is_asked_of_each_strategy_as_its_search_would_ask_it() {
        let dk = Trace::of_user(&user(), Strategy::DecreaseKey);
        assert_eq!(
            dk.ops,
            [
                Op::Push(1, 9),
                Op::Push(2, 9),
                Op::Push(1, 4),
                Op::Pop(1, 4),
                Op::Pop(2, 9),
                Op::Push(3, 12),
                Op::Pop(3, 12),
                Op::Clear,
                Op::Push(1, 3),
                Op::Pop(1, 3),
            ]
        );
        // Node ids below 4; the span is 12 - 9 (the floor is the last popped key; the 4
        // below the first key pushed is no span, and a bounded-span queue refuses it).
        assert_eq!((dk.capacity, dk.span), (4, 3));
        // The duplicate queue pops node 1's stale entry (9) before 12, not before node 2's
        // 9 (equal keys stay until a larger key pops), and forgets it at the clear.
        let dup = Trace::of_user(&user(), Strategy::Duplicates);
        assert_eq!(
            dup.ops,
            [
                Op::Push(1, 9),
                Op::Push(2, 9),
                Op::Push(1, 4),
                Op::Pop(1, 4),
                Op::Pop(2, 9),
                Op::Push(3, 12),
                Op::Pop(1, 9),
                Op::Pop(3, 12),
                Op::Clear,
                Op::Push(1, 3),
                Op::Pop(1, 3),
            ]
        );
        // Each strategy's queues follow their translation, relabelled to their ties.
        for (trace, pops) in [(&dk, 4), (&dup, 5)] {
            assert_eq!(trace.counts().1, pops);
        }
        dk.personalize::<DaryHeap<4, Dk>>().unwrap();
        dk.personalize::<RadixHeap<Dk>>().unwrap();
        dup.personalize::<DaryHeap<2, Dup>>().unwrap();
        dup.personalize::<RadixHeap<Dup>>().unwrap();
    }
}
