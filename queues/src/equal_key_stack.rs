//! An equal-key stack in front of a monotone queue, duplicates only: a push whose key equals the floor (the key last popped) goes on a
//! plain stack of nodes instead of into the inner queue `Q`, and a pop takes from that
//! stack first. A* on a grid pushes many such keys: a successor one step nearer the goal
//! keeps its parent's `f`.
//!
//! | operation | cost |
//! |---|---|
//! | push, key equal to the floor | O(1): a `u32` appended |
//! | push, other keys | `Q`'s push |
//! | pop | O(1) while the stack holds entries, else `Q`'s pop |
//! | clear | `Q`'s clear |
//!
//! Memory: 4 bytes per stacked entry, besides `Q`'s.
//!
//! Exact: every stacked key equals the floor, and a monotone `Q` holds no key below the
//! floor, so the stack's entries are minimal. `Q` must be monotone ([`KeyRule::Monotone`]
//! or [`KeyRule::BoundedSpan`]), exact and with duplicates, checked at compile time:
//! the stack would be wrong in front of a queue that takes keys below the floor, and would
//! hold a second entry of a node a decrease-key queue holds once.
//!
//! Keys: `Q`'s rule. The floor is armed only by a pop, so before the first pop since
//! construction or [`Frontier::clear`] every push goes to `Q`. Then `Q`'s floor is this
//! queue's (a stacked pop returns the floor itself), so a key equal to it is one `Q` would
//! take (not below its floor, 0 above it), and every other key meets `Q`'s own check and
//! its error, which leaves both parts unchanged.
//!
//! Ties: `Q`'s rule ([`Frontier::TIES`]). The stack pops newest first, and its entries are
//! newer than every entry of the floor's key `Q` holds (those were pushed before the pop
//! that set the floor, later ones were stacked), so last in, first out holds whenever it
//! holds for `Q`. Family: `Q`'s (the structure that orders the keys).
//!
//! Should win: where `Q`'s push and pop of the floor's key cost more than a stack's, with
//! many successors keeping `f` (octile grids). [`EqualKeyStack::absorbed`] counts the
//! pushes it took. Measured below: in front of each of the three queues it is tried with,
//! about 4–6% faster on five Moving AI maps, short of 1.15× the oracle floor.
//!
//! # Measured
//!
//! Absorbed: `PQLAB_STACK_MAPS="…" cargo test -p pqlab --test equal_key_stack --
//! --ignored --nocapture` (the scenario's problems spread, 100 a map; octile): 11.8% of the
//! pushes on ht_chantry, 12.6% brc202d, 16.3% 32room_000, 21.3% Paris_0_1024, 32.4%
//! random512-25-0. Expansions are the same as the inner queue's on every map (all three
//! inner queues pop ties last in, first out, and so does the stack: the pop sequence does
//! not change).
//!
//! Time: `pqlab compare --maps DIR --limit 100 --rounds R --queue std-binary-heap-dup
//! --queue radix-heap-dup --queue stacked-radix-heap-dup --queue packed-radix-heap-dup
//! --queue stacked-packed-radix-heap-dup --queue bitmap-bucket-queue-dup --queue
//! stacked-bitmap-bucket-queue-dup`, DIR holding symlinks to the five Moving AI maps below,
//! run three times (R = 3, 5, 5); thread CPU time per search, median of the interleaved
//! rounds, on a shared 2-core machine, so a few percent is noise. Each cell:
//! stacked ÷ plain, the median of the three runs and their range.
//!
//! | map | expansions a search | absorbed | `radix-heap-dup` | `packed-radix-heap-dup` | `bitmap-bucket-queue-dup` |
//! |---|---|---|---|---|---|
//! | ht_chantry | 1,740 | 11.8% | 0.963 (0.918–0.972) | 0.968 (0.960–0.999) | 0.977 (0.946–1.002) |
//! | brc202d | 15,547 | 12.6% | 0.942 (0.927–0.968) | 0.979 (0.959–1.005) | 0.955 (0.931–0.961) |
//! | random512-25-0 | 23,466 | 32.4% | 0.954 (0.915–1.001) | 0.952 (0.947–1.048) | 0.937 (0.867–1.000) |
//! | 32room_000 | 30,997 | 16.3% | 0.931 (0.929–0.958) | 0.957 (0.956–0.984) | 0.964 (0.949–0.975) |
//! | Paris_0_1024 | 56,406 | 21.3% | 0.907 (0.836–0.945) | 0.957 (0.953–0.995) | 0.933 (0.927–0.941) |
//!
//! Median over the maps: 0.942 for the radix heap, 0.957 for the packed radix heap, 0.955
//! for the bitmap bucket queue (three earlier runs of the same command, before the inlining
//! of push and pop, gave 0.978 and 0.946 for the last two, whose code it did not change). Against the
//! oracle floor (geometric mean over the five maps, each run): `stacked-bitmap-bucket-queue-dup`
//! 1.34, 1.33, 1.30 against `bitmap-bucket-queue-dup`'s 1.39, 1.40, 1.39;
//! `stacked-packed-radix-heap-dup` 1.47, 1.45, 1.46 against 1.54, 1.49, 1.47;
//! `stacked-radix-heap-dup` 1.50, 1.52, 1.48 against 1.66, 1.61, 1.55; std's heap 2.06,
//! 2.02, 1.97. The best exact queue moves about 0.06 towards 1.15× the floor and does not
//! reach it.
//!
//! Instructions an expansion inside `AStar::search` (`valgrind --tool=callgrind pqlab run
//! --map dao/brc202d.map --limit 40 --queue Q`, 620,723 expansions): radix heap 684 → 673
//! stacked, packed radix heap 643 → 642, bitmap bucket queue 594 → 580. The time saved is
//! more than these instructions, so it is likely memory: a stacked push writes the end of
//! one `Vec`, where the bitmap bucket queue's writes a bucket head in a table the size of
//! the span, an arena entry and two bitmap words.
//!
//! Tried beyond the stack and not built, a caliber rule: Goldberg's
//! smart-queue rule (*A simple shortest path algorithm with linear average time*, ESA 2001)
//! on A\*'s reduced costs `c(u, v) + h(v) − h(u)`: a push of `v` whose key is at most the
//! floor plus `v`'s caliber (its least reduced cost in) is final and could be stacked too.
//! Under octile nearly every cell has a move in at reduced cost 0, so the rule adds little
//! to the stack: beyond the pushes at the floor, it would take 0.15% of the pushes on
//! Paris_0_1024, 0.28% AR0011SR, 0.45% Aftershock, 0.65% 32room_000, 0.81% maze512-8-0,
//! 0.90% brc202d and 0.98% ht_chantry, and 13.6% on random512-25-0, whose obstacles block
//! many cells' zero-cost moves in (the same test, `caliber rule` lines). At the stack's rate
//! (12–32% of the pushes bought 4–6% of the time) that is worth under 0.5% of the time on
//! seven of the eight maps and about 3% on the random one, before the rule's own cost: a
//! caliber depends on the goal, so each push would pay up to eight estimates for it.
//!
//! ```
//! use pqlab_queues::{equal_key_stack::EqualKeyStack, radix_heap::RadixHeap, Dup};
//! use pqlab_queues::{Frontier, Spec};
//!
//! let mut open = EqualKeyStack::<RadixHeap<Dup>>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! assert_eq!(open.pop(), Some((2, 5))); // the floor is 5
//! open.push(3, 5)?; // stacked
//! assert_eq!(open.pop(), Some((3, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! assert_eq!(open.absorbed(), 1);
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Order, Origin, PushError, Pushed, Spec,
    Strategy, Ties,
};

/// A stack of entries of the floor's key in front of the monotone queue `Q`.
///
/// Invariants: `stack` is empty unless `armed`; while `armed`, `floor` is the key last
/// popped, every stacked entry has key `floor`, and `Q`'s floor is `floor` too.
#[derive(Debug)]
pub struct EqualKeyStack<Q> {
    stack: Vec<Node>,
    inner: Q,
    floor: Key,
    /// Whether a pop has set `floor` since construction or the last clear.
    armed: bool,
    capacity: usize,
    absorbed: u64,
}

impl<Q> EqualKeyStack<Q> {
    /// The pushes the stack took since construction or the last [`Frontier::clear`].
    pub fn absorbed(&self) -> u64 {
        self.absorbed
    }
}

impl<Q: Frontier> Frontier for EqualKeyStack<Q> {
    const FAMILY: Family = Q::FAMILY;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = Q::KEYS;
    const TIES: Ties = Q::TIES;

    fn available() -> Result<(), &'static str> {
        Q::available()
    }

    /// A `Q` that is not monotone, exact and with duplicates fails to compile here.
    fn new(spec: Spec) -> Self {
        const {
            assert!(
                matches!(Q::KEYS, KeyRule::Monotone | KeyRule::BoundedSpan)
                    && matches!(Q::STRATEGY, Strategy::Duplicates)
                    && matches!(Q::ORDER, Order::Exact),
                "an equal-key stack needs a monotone, exact queue with duplicates"
            )
        };
        EqualKeyStack {
            stack: Vec::new(),
            inner: Q::new(spec),
            floor: 0,
            armed: false,
            capacity: spec.capacity,
            absorbed: 0,
        }
    }

    // Always: over the radix heap, `#[inline]` left it out of line ("Inlining" above).
    #[inline(always)]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        if self.armed && key == self.floor {
            check_node(node, self.capacity)?;
            self.stack.push(node);
            self.absorbed += 1;
            return Ok(Pushed::Added);
        }
        self.inner.push(node, key)
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if let Some(node) = self.stack.pop() {
            return Some((node, self.floor));
        }
        let (node, key) = self.inner.pop()?;
        self.floor = key;
        self.armed = true;
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.stack.len() + self.inner.len()
    }

    fn clear(&mut self) {
        self.stack.clear();
        self.inner.clear();
        self.armed = false;
        self.absorbed = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitmap_bucket_queue::BitmapBucketQueue;
    use crate::radix_heap::RadixHeap;
    use crate::Dup;

    #[test]
    fn stacks_only_the_floors_key_once_a_pop_set_it() {
        let mut queue = EqualKeyStack::<RadixHeap<Dup>>::new(Spec { capacity: 8, span: 0 });
        queue.push(0, 9).unwrap(); // no floor yet: into the radix heap
        queue.push(1, 9).unwrap();
        queue.push(2, 12).unwrap();
        assert_eq!(queue.absorbed(), 0);
        assert_eq!(queue.pop(), Some((1, 9)));
        queue.push(3, 9).unwrap(); // stacked, newer than node 0
        queue.push(4, 10).unwrap();
        assert_eq!(queue.absorbed(), 1);
        assert_eq!(queue.len(), 4);
        let popped: Vec<_> = std::iter::from_fn(|| queue.pop()).collect();
        assert_eq!(popped, [(3, 9), (0, 9), (4, 10), (2, 12)]);
        queue.clear();
        assert_eq!(queue.absorbed(), 0);
        queue.push(5, 12).unwrap(); // the floor is forgotten: into the radix heap
        assert_eq!(queue.absorbed(), 0);
    }

    #[test]
    fn rejects_what_the_inner_queue_rejects_and_stays_unchanged() {
        let mut queue = EqualKeyStack::<BitmapBucketQueue>::new(Spec { capacity: 8, span: 10 });
        queue.push(0, 100).unwrap();
        assert_eq!(queue.pop(), Some((0, 100)));
        assert_eq!(queue.push(8, 100), Err(PushError::NodeOutOfRange { node: 8, capacity: 8 }));
        assert_eq!(queue.push(1, 99), Err(PushError::BelowFloor { key: 99, floor: 100 }));
        assert_eq!(
            queue.push(1, 111),
            Err(PushError::BeyondSpan { key: 111, floor: 100, span: 10 })
        );
        assert_eq!((queue.len(), queue.absorbed()), (0, 0));
        queue.push(1, 110).unwrap();
        queue.push(2, 100).unwrap();
        assert_eq!(queue.pop(), Some((2, 100)));
        assert_eq!(queue.pop(), Some((1, 110)));
        assert_eq!(queue.pop(), None);
    }
}
