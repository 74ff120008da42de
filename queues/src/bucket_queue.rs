//! Dial's bucket queue (R. B. Dial, "Algorithm 360: shortest-path forest with topological
//! ordering", CACM 12(11), 1969), circular, in both strategies: `span + 1` buckets, key `k`
//! in bucket `k % (span + 1)`, and a cursor that walks from the floor to the next occupied
//! bucket. Every held key lies in `floor..=floor + span`, so distinct held keys never share
//! a bucket and the first occupied bucket at or after the cursor (going round) holds the
//! minimum.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(1) | O(1) |
//! | push (held node, smaller key) | O(1), adds an entry | O(1), moves the node to its new bucket |
//! | pop | O(1) + the cursor's advance | O(1) + the cursor's advance |
//! | pop (empty) | O(1) | O(1) |
//! | clear | O(d / 64) | O(n + d / 64) |
//!
//! The cursor only moves forward over keys and skips 64 empty buckets per word of an
//! occupancy bitmap, so a whole search adds O((last key − first key) / 64) word reads.
//! `clear` visits only the bitmap words between the floor and `top` (the largest key pushed
//! since the last clear, never more than `span` above the floor): `d = top − floor`; an empty
//! queue clears in O(1).
//!
//! Memory: O(span + capacity): 4 bytes and 1 bit per bucket, both zero-initialised so the
//! OS commits only the pages of buckets ever used; duplicates add one 64-byte block per 14
//! entries of a bucket (at worst one per entry, when every bucket holds one), decrease-key
//! 16 bytes per node.
//!
//! Layout (why not one `Vec` per bucket: a 24-byte header per bucket, 13 MB at the fine cost
//! scale's 551,615 buckets, and one heap allocation per bucket ever used):
//! * A `u32` list head per bucket and the occupancy bitmap; the bitmap alone says whether a
//!   bucket is empty, so heads need neither initialisation nor resetting.
//! * Duplicates: each bucket is a stack of 64-byte blocks of 14 nodes (an unrolled linked
//!   list), from one block arena whose freed blocks are chained in a free list and reused
//!   last-freed-first (still in cache). A push or pop touches one cache line, and a crowded
//!   bucket pops from contiguous memory instead of chasing one pointer per entry. The key
//!   is not stored: a popped entry's key is the floor plus its bucket's distance from the
//!   cursor.
//! * Decrease-key: doubly linked lists through node-indexed `(key, prev, next)` links. The
//!   links are the position table: membership and an O(1) unlink from the old bucket.
//!
//! Keys: bounded span ([`KeyRule::BoundedSpan`]). Spans up to [`MAX_SPAN`] are served as
//! given; a larger `Spec::span` is served as [`MAX_SPAN`] (a `2^28`-bucket table, 1 GiB of
//! heads at most, committed only where used), and a push beyond it is rejected with
//! [`PushError::BeyondSpan`] naming [`MAX_SPAN`]: the queue never aborts on a huge span.
//!
//! Ties: last in, first out. Each bucket is a stack, and a decreased node goes on top of its
//! new bucket like a fresh push: the most recently generated node, usually the deepest,
//! pops first, which is what A* wants when it is given `f` alone.
//!
//! Should win: on small integer spans (the coarse cost scale: pushes and pops are a few
//! array writes, no comparisons), and at large spans while the frontier's keys are dense
//! enough that the cursor's skips stay short. At large spans each push lands in a bucket
//! that is likely cold in cache, where a radix heap's few sequential buckets do better.
//!
//! ```
//! use pqlab_queues::{bucket_queue::BucketQueue, Dk, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = BucketQueue::<Dk>::new(Spec { capacity: 10, span: 16 });
//! open.push(2, 5)?; // before any pop, the first push sets the floor
//! open.push(4, 7)?;
//! assert_eq!(open.pop(), Some((2, 5)));
//! assert_eq!(open.pop(), Some((4, 7)));
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use std::marker::PhantomData;

use crate::{
    check_node, Family, Frontier, Key, KeyFloor, KeyRule, Node, Origin, PushError, Pushed, Spec,
    Strategy, StrategyKind, Ties,
};

/// The largest span served as given: `2^28` buckets. A larger `Spec::span` is served as this.
pub const MAX_SPAN: Key = (1 << 28) - 1;

/// Ends a list (`next`); as a decrease-key `prev`, marks a node that is not held.
const NIL: u32 = u32::MAX;
/// A decrease-key `prev`: the node is first in its bucket's list.
///
/// `NIL` and `HEAD` are node ids only for a capacity above `2^32 - 2`, whose 64 GiB link
/// table cannot be allocated.
const HEAD: u32 = u32::MAX - 1;

/// Nodes per duplicates block: with `len` and `next`, they fill one 64-byte line.
const BLOCK_NODES: usize = 14;

/// A duplicates block: a bucket is a stack of blocks, the first the only one not full.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct BucketBlock {
    len: u32,
    /// The next block of the bucket (or of the free list).
    next: u32,
    nodes: [Node; BLOCK_NODES],
}

/// A decrease-key node's key and its neighbours in its bucket's list.
#[derive(Clone, Copy, Debug)]
struct Link {
    key: Key,
    /// The previous node, [`HEAD`] if first, [`NIL`] if the node is not held.
    prev: u32,
    next: u32,
}

impl Link {
    const ABSENT: Link = Link { key: 0, prev: NIL, next: NIL };
}

/// A circular bucket queue; `S` picks duplicates (a block arena) or decrease-key
/// (node-indexed links).
///
/// Invariants: while entries are held, `cursor == floor % buckets`, every held key `k` is in
/// `floor..=floor + span` and its entry (or node) is in the list of bucket
/// `(cursor + k - floor) % buckets`; a bucket's bit in `occupied` is set iff its list is
/// non-empty, and only then is its head meaningful; duplicates blocks in a list are never
/// empty, and all but the first are full; `top` is at least every held key.
#[derive(Debug)]
pub struct BucketQueue<S> {
    /// The first block (duplicates) or node (decrease-key) of each occupied bucket.
    heads: Vec<u32>,
    /// One bit per bucket: set iff the bucket holds something.
    occupied: Vec<u64>,
    /// The floor's bucket.
    cursor: usize,
    floor: KeyFloor,
    /// The largest key pushed since the last clear: bounds the buckets `clear` visits.
    top: Key,
    len: usize,
    capacity: usize,
    /// Duplicates only: the block arena.
    blocks: Vec<BucketBlock>,
    /// Duplicates only: the first free block, chained through `next`.
    free: u32,
    /// Decrease-key only: one link per node.
    links: Vec<Link>,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> BucketQueue<S> {
    /// The bucket of `key`, which the span rule keeps within `floor..=floor + span`.
    #[inline]
    fn bucket(&self, key: Key) -> usize {
        let index = self.cursor + (key - self.floor.get()) as usize;
        index.checked_sub(self.heads.len()).unwrap_or(index)
    }

    #[inline]
    fn is_occupied(&self, bucket: usize) -> bool {
        self.occupied[bucket / 64] >> (bucket % 64) & 1 != 0
    }

    /// The first item of `bucket`'s list, or [`NIL`].
    #[inline]
    fn head(&self, bucket: usize) -> u32 {
        if self.is_occupied(bucket) {
            self.heads[bucket]
        } else {
            NIL
        }
    }

    /// Makes `item` the first of `bucket`'s list (its own `next` already set).
    #[inline]
    fn set_head(&mut self, bucket: usize, item: u32) {
        self.heads[bucket] = item;
        self.occupied[bucket / 64] |= 1 << (bucket % 64);
    }

    /// Makes `next` the first of `bucket`'s list, emptying the bucket if it is [`NIL`].
    #[inline]
    fn drop_head(&mut self, bucket: usize, next: u32) {
        if next == NIL {
            self.occupied[bucket / 64] &= !(1 << (bucket % 64));
        } else {
            self.heads[bucket] = next;
        }
    }

    /// The first occupied bucket at or after the cursor, going round. Needs `len > 0`.
    #[inline]
    fn next_occupied(&self) -> usize {
        let mut word = self.cursor / 64;
        let mut bits = self.occupied[word] & (u64::MAX << (self.cursor % 64));
        while bits == 0 {
            word += 1;
            if word == self.occupied.len() {
                word = 0;
            }
            bits = self.occupied[word];
        }
        word * 64 + bits.trailing_zeros() as usize
    }

    /// Duplicates: an empty block followed by `next`, from the free list or a new one.
    #[inline]
    fn allocate(&mut self, next: u32) -> u32 {
        let block = BucketBlock { len: 0, next, nodes: [0; BLOCK_NODES] };
        if self.free != NIL {
            let index = self.free;
            self.free = self.blocks[index as usize].next;
            self.blocks[index as usize] = block;
            index
        } else {
            let index = self.blocks.len();
            assert!(index < NIL as usize, "a bucket queue holds at most 2^32 - 1 blocks");
            self.blocks.push(block);
            index as u32
        }
    }

    /// Decrease-key: puts `node` (not in any list) first in the bucket of `key`.
    #[inline]
    fn link(&mut self, node: Node, key: Key) {
        let bucket = self.bucket(key);
        let next = self.head(bucket);
        self.links[node as usize] = Link { key, prev: HEAD, next };
        if next != NIL {
            self.links[next as usize].prev = node;
        }
        self.set_head(bucket, node);
    }

    /// Decrease-key: takes the node whose link is `link` out of its bucket's list.
    #[inline]
    fn unlink(&mut self, link: Link) {
        if link.prev == HEAD {
            self.drop_head(self.bucket(link.key), link.next);
        } else {
            self.links[link.prev as usize].next = link.next;
        }
        if link.next != NIL {
            self.links[link.next as usize].prev = link.prev;
        }
    }

    /// Empties every bucket in the bitmap words of buckets `first..=last`; decrease-key also
    /// forgets their nodes. Whole words are safe to take: every set bit is a held bucket.
    fn empty_buckets(&mut self, first: usize, last: usize) {
        for word in first / 64..=last / 64 {
            let mut bits = std::mem::take(&mut self.occupied[word]);
            if S::DECREASE_KEY {
                while bits != 0 {
                    let mut node = self.heads[word * 64 + bits.trailing_zeros() as usize];
                    while node != NIL {
                        node = std::mem::replace(&mut self.links[node as usize], Link::ABSENT).next;
                    }
                    bits &= bits - 1;
                }
            }
        }
    }
}

impl<S: StrategyKind> Frontier for BucketQueue<S> {
    const FAMILY: Family = Family::BucketQueue;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::BoundedSpan;
    const TIES: Ties = Ties::Lifo;

    /// Buckets for `min(spec.span, MAX_SPAN)`, zero-initialised (committed lazily).
    fn new(spec: Spec) -> Self {
        let span = spec.span.min(MAX_SPAN);
        let buckets = span as usize + 1;
        let links = if S::DECREASE_KEY { vec![Link::ABSENT; spec.capacity] } else { Vec::new() };
        BucketQueue {
            heads: vec![0; buckets],
            occupied: vec![0; buckets.div_ceil(64)],
            cursor: 0,
            floor: KeyFloor::new(KeyRule::BoundedSpan, Spec { span, ..spec }),
            top: 0,
            len: 0,
            capacity: spec.capacity,
            blocks: Vec::new(),
            free: NIL,
            links,
            strategy: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        self.floor.check(key)?;
        if self.len == 0 {
            // Nothing is held, so the cursor may move: after a clear the floor is new.
            self.cursor = (self.floor.get() % self.heads.len() as Key) as usize;
        }
        if S::DECREASE_KEY {
            let link = self.links[node as usize];
            if link.prev != NIL {
                if key >= link.key {
                    return Ok(Pushed::Kept);
                }
                self.unlink(link);
                self.link(node, key);
                return Ok(Pushed::Decreased);
            }
            self.link(node, key);
        } else {
            let bucket = self.bucket(key);
            let mut head = self.head(bucket);
            if head == NIL || self.blocks[head as usize].len == BLOCK_NODES as u32 {
                head = self.allocate(head);
                self.set_head(bucket, head);
            }
            let block = &mut self.blocks[head as usize];
            block.nodes[block.len as usize] = node;
            block.len += 1;
        }
        self.len += 1;
        self.top = self.top.max(key);
        Ok(Pushed::Added)
    }

    #[inline]
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
        let item = self.heads[bucket];
        let node = if S::DECREASE_KEY {
            let next = std::mem::replace(&mut self.links[item as usize], Link::ABSENT).next;
            if next != NIL {
                self.links[next as usize].prev = HEAD;
            }
            self.drop_head(bucket, next);
            item
        } else {
            let block = &mut self.blocks[item as usize];
            block.len -= 1;
            let node = block.nodes[block.len as usize];
            if block.len == 0 {
                let next = std::mem::replace(&mut block.next, self.free);
                self.free = item;
                self.drop_head(bucket, next);
            }
            node
        };
        self.len -= 1;
        self.cursor = bucket;
        self.floor.popped(key);
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.len
    }

    /// O(1) when empty, else visits the bitmap words from the floor to `top`.
    fn clear(&mut self) {
        if self.len > 0 {
            let buckets = self.heads.len();
            let last = self.cursor + (self.top - self.floor.get()) as usize;
            if last < buckets {
                self.empty_buckets(self.cursor, last);
            } else {
                self.empty_buckets(self.cursor, buckets - 1);
                self.empty_buckets(0, last - buckets);
            }
        }
        self.len = 0;
        self.top = 0;
        self.floor.reset();
        self.blocks.clear();
        self.free = NIL;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    fn pops<F: Frontier>(queue: &mut F) -> Vec<(Node, Key)> {
        std::iter::from_fn(|| queue.pop()).collect()
    }

    #[test]
    fn ties_pop_last_in_first_out() {
        let mut dup = BucketQueue::<Dup>::new(Spec { capacity: 40, span: 10 });
        let mut dk = BucketQueue::<Dk>::new(Spec { capacity: 8, span: 10 });
        for node in 0..40 {
            dup.push(node, 5).unwrap(); // three blocks
        }
        for node in 0..4 {
            dk.push(node, 5 + node as Key).unwrap();
        }
        assert_eq!(dk.push(1, 5), Ok(Pushed::Decreased));
        assert!(pops(&mut dup).into_iter().eq((0..40).rev().map(|node| (node, 5))));
        assert_eq!(pops(&mut dk), [(1, 5), (0, 5), (2, 7), (3, 8)]);
    }

    #[test]
    fn a_span_beyond_the_maximum_is_served_as_the_maximum() {
        let mut queue = BucketQueue::<Dup>::new(Spec { capacity: 2, span: Key::MAX });
        queue.push(0, 10).unwrap();
        assert_eq!(queue.push(1, 10 + MAX_SPAN), Ok(Pushed::Added));
        assert_eq!(
            queue.push(1, 11 + MAX_SPAN),
            Err(PushError::BeyondSpan { key: 11 + MAX_SPAN, floor: 10, span: MAX_SPAN })
        );
        assert_eq!(pops(&mut queue), [(0, 10), (1, 10 + MAX_SPAN)]);
    }

    #[test]
    fn the_cursor_wraps_around_and_clear_empties_wrapped_buckets() {
        let mut queue = BucketQueue::<Dk>::new(Spec { capacity: 200, span: 99 });
        queue.push(0, 1_000_050).unwrap();
        for node in 1..100 {
            queue.push(node, 1_000_050 + node as Key).unwrap();
        }
        assert_eq!(queue.pop(), Some((0, 1_000_050)));
        queue.push(100, 1_000_149).unwrap(); // the bucket just behind the cursor
        queue.clear();
        assert_eq!(queue.push(1, 7), Ok(Pushed::Added)); // the clear forgot node 1
        assert_eq!(pops(&mut queue), [(1, 7)]);
    }
}
