//! Our soft heap: an approximate priority queue (B. Chazelle, "The soft heap: an approximate
//! priority queue with optimal error rate", JACM 47(6), 2000), in the simplified form of
//! H. Kaplan, R. E. Tarjan and U. Zwick (KTZ), "Soft heaps simplified", SIAM J. Comput.
//! 42(4), 2013: Kaplan and Zwick's binary trees (SODA 2009) without their size targets.
//! Duplicates only. A pop may return an entry whose key is not the smallest held: see
//! [the approximate contract](crate#the-approximate-contract).
//!
//! | operation | duplicates |
//! |---|---|
//! | push | O(1) amortized |
//! | pop | O(log 1/ε) amortized, plus O(log n) to find the best root when a root changes |
//! | clear | O(1) |
//!
//! `n` counts the pushes since construction or the last `clear`.
//!
//! **Shape.** Entries live in *lists* hung on the nodes of binary trees. A tree of rank `k`
//! is born by linking two trees of rank `k - 1` under a new node; a child's rank is always
//! its parent's minus one. Each node has a *corrupted key* (ckey), at least the key of every
//! entry in its list and at most its children's ckeys (heap order). The roots sit in an
//! array indexed by rank, at most one per rank, as in a binary counter: a push makes a
//! rank-0 tree of one entry and links equal ranks until a rank is free. A pop takes the
//! head of the list of the root with the smallest ckey. When a node's list runs out (or a
//! new link node starts empty) it is *refilled*: it takes the whole list and the ckey of
//! its child of smaller ckey (entries whose key is now below their node's ckey are
//! *corrupted*), and the child, now empty, is refilled in turn, or removed if it is a leaf.
//! Nodes of ranks `T + 2, T + 4, ...` take a second list once the first is in place: that
//! doubling is what grows lists, makes pops cheap, and corrupts entries.
//!
//! **The error rate and the ids.** `ε = 1/INV_EPSILON`, a power of two, and the rank
//! threshold is `T = log2(1/ε) + 1`; the id names `1/ε`: `soft-heap-e2-dup` is `ε = 1/2,
//! T = 2`, `soft-heap-e8-dup` is `ε = 1/8, T = 4`, `soft-heap-e64-dup` is `ε = 1/64, T = 7`.
//! The bound: below rank `T + 2` a list holds one entry, whose key is its node's ckey, so
//! only nodes of rank `k >= T + 2` hold corrupted entries, at most `2^⌊(k - T)/2⌋` each.
//! Trees are never split, so a node of rank `k` took `2^k` pushes and at most `n / 2^k` of
//! them exist. At most `Σ_{k >= T+2} n 2^⌊(k-T)/2⌋ / 2^k = (3/2) 2^-T n = (3/4) ε n` entries
//! are corrupted at any time. A pop returns an entry of the smallest ckey held, so an entry
//! held with a smaller key than the one popped has a ckey above its key: it is corrupted.
//! Corruption starts once a tree reaches rank `T + 2`: after 16 pushes with `-e2-`, 64
//! with `-e8-`, 512 with `-e64-`; a search that holds 10^2 to 10^5 entries has pushed at
//! least as many, its trees reaching ranks 6 to 16 and beyond. On A*-shaped synthetic runs
//! (each pop followed by one to three pushes a little above it, 10^3 to 10^6 entries held)
//! at most 28%, 4.5% and 0.6% of the entries held were corrupted at once (`ε n` allows
//! more: `n` counts every push of the search, not the entries held).
//!
//! **Deviations from KTZ.** (1) KTZ keep the roots in a list ordered by rank, with lazy
//! swaps that make meld O(1); an A* never melds, so the roots are a rank-indexed array with
//! a bitmask of occupied ranks, and the best root is found again by one pass over them
//! (O(log n)) when it changes. (2) KTZ fill twice at the odd ranks above `T = ⌈lg(3/ε)⌉`;
//! filling twice at ranks `T + 2j` gives the (3/4) ε bound above, with `T` one lower for the
//! same ε. (3) The refill is two loops, not KTZ's recursion: a node that fills once is done
//! when its child is, so the descent is a tail call; only the nodes owing a second fill wait
//! on a stack, of at most 32 (one per rank `T + 2j < 64`; a rank-64 tree takes 2^64
//! pushes), so nothing recurses. (4) Ckeys are copied from keys, never computed, so they
//! cannot overflow.
//!
//! **Storage, and the measured choices.** Tree nodes (32 bytes, half a cache line) in
//! an arena with `u32` links and a free list: the two children, their ckeys, and the list.
//! Three choices, measured with callgrind on an A*-shaped trace (`ε = 1/8`, 508,000
//! operations, growing to 10^5 entries held) and kept because each cut the instructions or
//! the L1 misses; together they took the run from 156 M instructions and 1.45 M L1 data
//! misses to 139 M and 1.15 M (our pairing heap: 144 M and 1.28 M; `std`'s `BinaryHeap`:
//! 73 M and 0.56 M), and its time from 3 times a 4-ary heap's to 1.6 to 2.4 times (short
//! runs, best of 5, on a shared machine):
//! * a node keeps its children's ckeys, not its own, so choosing a child reads one line
//!   (a node's ckey lives in its parent, a root's in `root_key`);
//! * a list below rank `T + 2` is its one entry's node, stored in the tree node (its key is
//!   the node's ckey), and a rank-0 tree is a bare entry (its node in the parent's `child`,
//!   its key in the parent's `keys`): no allocation per push, and only lists of two or more,
//!   from rank `T + 2` up, are chains in a second arena of 16-byte entries (key, node, next);
//! * nodes are aligned to 32 bytes, so none straddles two cache lines (14% fewer L1 misses
//!   on the same trace grown to 10^6 entries).
//!
//! Neither arena allocates per operation after warm-up; `clear` truncates both. A pop
//! returns the key the entry was pushed with; a ckey only orders.
//!
//! Keys: any. Ties: unspecified but deterministic (a list pops in the order it was taken;
//! equal ckeys prefer the left child and the lower-ranked root).
//! Should win: not on speed alone, and not as an A*'s shortcut. Below rank `T + 2` a pop
//! walks a root-to-leaf path of tree nodes, like a pointer-based heap; only the long lists
//! of high ranks pop in O(1). On the synthetic trace above it took 1.5 to 2.5 times a
//! binary heap's time per operation up to 10^5 entries held and 4 to 6 times at 10^6,
//! about our pairing heap's, `-e2-` the fastest of the three. Its errors are blind to the
//! goal: an A* with it still expands every cell below the optimal cost, plus the cells
//! reopened when a corrupted entry pops before its cheaper path is found, and returns
//! paths barely longer. In a sketch (random 8-connected grids of 1024² and 2048² cells,
//! 30% and 20% blocked, 36 and 40 long searches, run twice) the three took 0.9 to 1.4
//! times a 4-ary heap's search time, expanded up to 4% more cells and returned paths at
//! most 0.1% longer; weighted A* took 0.35 to 0.7 times the time with w = 1.1 (paths up to
//! 3.6% longer) and a 30th to an 80th with w = 1.5 (up to 12% longer). Hypothesis: weighted
//! A* dominates every soft heap, and an exact binary heap beats it.
//!
//! ```
//! use pqlab_queues::{soft_heap::SoftHeap, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = SoftHeap::<8>::new(Spec { capacity: 10, span: 16 });
//! open.push(4, 7)?;
//! open.push(2, 5)?;
//! // Approximate order: every entry pushed is popped once, with its key.
//! let mut popped = vec![open.pop(), open.pop()];
//! popped.sort();
//! assert_eq!(popped, [Some((2, 5)), Some((4, 7))]);
//! # Ok::<(), pqlab_queues::PushError>(())
//! ```

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Order, Origin, PushError, Pushed, Spec,
    Strategy, Ties,
};

/// No link: the end of a list, an absent child, an empty rank, an empty free list.
const NIL: u32 = u32::MAX;
/// No root: `SoftHeap::best` of an empty heap.
const NONE: u32 = u32::MAX;
/// Ranks a tree can have: a rank-`k` tree took `2^k` pushes, and pushes are counted in `u64`.
const RANKS: usize = 64;

/// An entry of a list of two or more, at ranks `T + 2` and above: the key it was pushed
/// with, its node, and the next entry of its list (or, on the free list, the next free
/// entry).
#[derive(Clone, Copy, Debug)]
struct SoftEntry {
    key: Key,
    node: Node,
    next: u32,
}

/// A tree node of rank 1 or more.
///
/// Its list: at ranks up to `T + 1` one entry, never corrupted, so its key is the node's
/// ckey and `head` is its node (`tail` is unused); at ranks `T + 2` and above, `head` and
/// `tail` are the first and last [`SoftEntry`] (`head == NIL` while it is refilled). Its
/// children: at rank 1 they are trees of rank 0, which are bare entries (`child` holds
/// their nodes, `keys` their keys); above, tree nodes. `child[0] == NIL` implies
/// `child[1] == NIL`; on the free list `child[0]` is the next free node. `keys` are the
/// children's ckeys: a node's own ckey lives in its parent, or for a root in
/// `SoftHeap::root_key`, so choosing a child reads one cache line, and a node's rank is
/// known from the path that reached it.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct TreeNode {
    keys: [Key; 2],
    child: [u32; 2],
    head: u32,
    tail: u32,
}

impl TreeNode {
    /// The child of smaller ckey: which side it is, the child, and its ckey (`keys[1]` is
    /// `Key::MAX` when there is no right child, so one comparison decides).
    #[inline]
    fn smaller_child(&self) -> (usize, u32, Key) {
        let pick = usize::from(self.keys[1] < self.keys[0]);
        (pick, self.child[pick], self.keys[pick])
    }

    /// Removes the child on `side`, a leaf now empty: the other child, if any, becomes the
    /// left one.
    #[inline]
    fn remove_child(&mut self, side: usize) {
        self.child[side] = self.child[1];
        self.keys[side] = self.keys[1];
        self.child[1] = NIL;
        self.keys[1] = Key::MAX;
    }
}

/// A node owing a second fill, and where its ckey is kept.
#[derive(Clone, Copy, Debug)]
struct Owed {
    node: u32,
    /// Its parent, or `NIL` for the node the refill started from.
    parent: u32,
    /// Which of the parent's children it is.
    side: u32,
    rank: u32,
}

/// A soft heap with error rate `1/INV_EPSILON` (a power of two, at least 2).
///
/// Invariants: `roots[k]` is `NIL` or the root of a tree of rank `k` (a bare entry's node
/// for `k = 0`), whose ckey is `root_key[k]`, and bit `k` of `occupied` says which; `best`
/// is the rank of a root of smallest ckey, the lowest among equals, or `NONE` when no tree
/// is held; every node reachable from a root has a non-empty list, a ckey at least every
/// key of its list and at most its children's ckeys, and children of rank one less; a node
/// of rank `k` holds one entry if `k <= T + 1`, at most `2^⌊(k - T)/2⌋` otherwise; `len`
/// entries are held in all.
#[derive(Debug)]
pub struct SoftHeap<const INV_EPSILON: u32> {
    entries: Vec<SoftEntry>,
    nodes: Vec<TreeNode>,
    /// The first free entry, or `NIL`.
    free_entry: u32,
    /// The first free node, or `NIL`.
    free_node: u32,
    roots: [u32; RANKS],
    root_key: [Key; RANKS],
    /// Bit `k` is set when `roots[k]` holds a tree.
    occupied: u64,
    /// The rank of a root of smallest ckey, or `NONE` when empty.
    best: u32,
    /// The refill's stack (see [`SoftHeap::refill`]), kept here so no call initialises it.
    owing: [Owed; RANKS / 2],
    len: usize,
    /// Pushes since construction or the last `clear` (the `n` of the error bound).
    pushes: u64,
    capacity: usize,
}

impl<const INV_EPSILON: u32> SoftHeap<INV_EPSILON> {
    /// The rank threshold: `log2(INV_EPSILON) + 1`. Nodes of ranks `T + 2, T + 4, ...`
    /// take two lists when refilled; lists below rank `T + 2` hold one entry.
    pub const T: u32 = {
        assert!(
            INV_EPSILON >= 2 && INV_EPSILON.is_power_of_two(),
            "a soft heap's INV_EPSILON is a power of two, at least 2"
        );
        INV_EPSILON.trailing_zeros() + 1
    };

    /// The error rate `ε = 1/INV_EPSILON`: at most `ε × n` entries are corrupted at any
    /// time (in fact at most `(3/4) ε n`, see the module documentation).
    pub const EPSILON: f64 = 1.0 / INV_EPSILON as f64;

    /// The lowest rank whose lists are [`SoftEntry`] chains (of two or more when filled).
    const LISTS: u32 = Self::T + 2;

    /// Whether a node of `rank` takes a second list when refilled.
    #[inline]
    fn fills_twice(rank: u32) -> bool {
        rank >= Self::LISTS && (rank - Self::T).is_multiple_of(2)
    }

    /// Calls `f(rank, ckey, x)` for every tree node `x` held (a bare entry's node at rank
    /// 0), walking the trees with a work list.
    fn for_each_node(&self, mut f: impl FnMut(u32, Key, u32)) {
        let mut todo: Vec<(u32, u32, Key)> = (0..RANKS)
            .filter(|&k| self.roots[k] != NIL)
            .map(|k| (self.roots[k], k as u32, self.root_key[k]))
            .collect();
        while let Some((x, rank, ckey)) = todo.pop() {
            f(rank, ckey, x);
            if rank > 0 {
                let node = self.nodes[x as usize];
                for side in 0..2 {
                    if node.child[side] != NIL {
                        todo.push((node.child[side], rank - 1, node.keys[side]));
                    }
                }
            }
        }
    }

    /// The number of entries held whose key is below their node's ckey. O(entries held):
    /// for tests and reports, never the hot path.
    pub fn corrupted(&self) -> usize {
        let mut count = 0;
        self.for_each_node(|rank, ckey, x| {
            if rank >= Self::LISTS {
                let mut at = self.nodes[x as usize].head;
                while at != NIL {
                    let entry = self.entries[at as usize];
                    count += usize::from(entry.key < ckey);
                    at = entry.next;
                }
            }
        });
        count
    }

    /// The pushes since construction or the last `clear`: the `n` of the error bound.
    pub fn pushes(&self) -> u64 {
        self.pushes
    }

    /// Stores a new list entry and returns its index.
    #[inline]
    fn new_entry(&mut self, entry: SoftEntry) -> u32 {
        let at = self.free_entry;
        if at != NIL {
            self.free_entry = self.entries[at as usize].next;
            self.entries[at as usize] = entry;
            at
        } else {
            let at = self.entries.len();
            assert!(at < NIL as usize, "a soft heap holds fewer than 2^32 - 1 list entries");
            self.entries.push(entry);
            at as u32
        }
    }

    /// Stores a new tree node and returns its index.
    #[inline]
    fn new_node(&mut self, node: TreeNode) -> u32 {
        let at = self.free_node;
        if at != NIL {
            self.free_node = self.nodes[at as usize].child[0];
            self.nodes[at as usize] = node;
            at
        } else {
            let at = self.nodes.len();
            assert!(at < NIL as usize, "a soft heap holds fewer than 2^32 - 1 tree nodes");
            self.nodes.push(node);
            at as u32
        }
    }

    #[inline]
    fn free_node(&mut self, x: u32) {
        self.nodes[x as usize].child[0] = self.free_node;
        self.free_node = x;
    }

    /// Finds the root of smallest ckey again (the lowest rank among equals): one pass
    /// over the occupied ranks, at most `log2 n + 1` of them.
    #[inline]
    fn find_best(&mut self) {
        let mut bits = self.occupied;
        if bits == 0 {
            self.best = NONE;
            return;
        }
        let mut best = bits.trailing_zeros();
        let mut best_key = self.root_key[best as usize];
        bits &= bits - 1;
        while bits != 0 {
            let rank = bits.trailing_zeros();
            bits &= bits - 1;
            let key = self.root_key[rank as usize];
            if key < best_key {
                (best, best_key) = (rank, key);
            }
        }
        self.best = best;
    }

    /// Fills node `start` of `rank`, whose list is empty and which has a child, and returns
    /// its new ckey. A fill takes the list and ckey of the child of smaller ckey; that
    /// child is then filled the same way, or removed if it is a leaf. A node of rank
    /// `T + 2j` fills twice (if it still has a child after the first).
    ///
    /// KTZ's recursion as loops (deviation 3 in the module documentation): a node that
    /// fills once is done when its child is, so the descent goes on without a frame; only
    /// the nodes owing a second fill wait in `owing`, resumed deepest first. They lie on
    /// one path with distinct ranks `T + 2j < 64`, so 32 places suffice. Below rank
    /// `T + 2` the descent is a plain chain ([`SoftHeap::refill_chain`]).
    #[inline]
    fn refill(&mut self, start: u32, rank: u32) -> Key {
        if rank < Self::LISTS {
            self.refill_chain(start, rank)
        } else {
            self.refill_lists(start, rank)
        }
    }

    /// [`SoftHeap::refill`] below rank `T + 2`: every list holds one entry (a node in
    /// `head`), nobody fills twice, so the fill is one walk down to a leaf.
    #[inline]
    fn refill_chain(&mut self, start: u32, rank: u32) -> Key {
        // A local slice: its length stays in a register across the writes.
        let nodes = &mut self.nodes[..];
        let (mut x, mut rank) = (start as usize, rank);
        let (mut side, mut child, start_key) = nodes[x].smaller_child();
        loop {
            if rank == 1 {
                // The child is a bare entry: its node is the one-entry list.
                let node = &mut nodes[x];
                node.head = child;
                node.remove_child(side);
                return start_key;
            }
            let below = nodes[child as usize];
            nodes[x].head = below.head;
            if below.child[0] == NIL {
                nodes[x].remove_child(side);
                nodes[child as usize].child[0] = self.free_node;
                self.free_node = child;
                return start_key;
            }
            let (parent, parent_side) = (x, side);
            (x, rank) = (child as usize, rank - 1);
            let ckey;
            (side, child, ckey) = nodes[x].smaller_child();
            nodes[parent].keys[parent_side] = ckey;
        }
    }

    /// [`SoftHeap::refill`] from rank `T + 2` up: lists are [`SoftEntry`] chains.
    fn refill_lists(&mut self, start: u32, rank: u32) -> Key {
        let mut start_key = 0;
        let (mut x, mut parent, mut side, mut rank) = (start, NIL, 0, rank);
        let mut depth = 0;
        let mut second = false;
        loop {
            if !second && Self::fills_twice(rank) {
                self.owing[depth] = Owed { node: x, parent, side, rank };
                depth += 1;
            }
            let (pick, child, ckey) = self.nodes[x as usize].smaller_child();
            if parent == NIL {
                start_key = ckey;
            } else {
                self.nodes[parent as usize].keys[side as usize] = ckey;
            }
            let below = self.nodes[child as usize];
            let (head, tail) = if rank == Self::LISTS {
                // A one-entry list, its key the child's ckey, becomes an entry.
                let entry = self.new_entry(SoftEntry { key: ckey, node: below.head, next: NIL });
                (entry, entry)
            } else {
                (below.head, below.tail)
            };
            let node = self.nodes[x as usize];
            if node.head == NIL {
                self.nodes[x as usize].head = head;
            } else {
                self.entries[node.tail as usize].next = head;
            }
            self.nodes[x as usize].tail = tail;
            let resume = if below.child[0] == NIL {
                self.nodes[x as usize].remove_child(pick);
                self.free_node(child);
                true
            } else if rank == Self::LISTS {
                // The child is below the list ranks: a chain fills it.
                let refilled = self.refill_chain(child, rank - 1);
                self.nodes[x as usize].keys[pick] = refilled;
                true
            } else {
                self.nodes[child as usize].head = NIL;
                (parent, side, x, rank) = (x, pick as u32, child, rank - 1);
                second = false;
                false
            };
            if resume {
                // Resume the deepest second fill owed.
                loop {
                    if depth == 0 {
                        return start_key;
                    }
                    depth -= 1;
                    let owed = self.owing[depth];
                    if self.nodes[owed.node as usize].child[0] != NIL {
                        (x, parent, side, rank) = (owed.node, owed.parent, owed.side, owed.rank);
                        second = true;
                        break;
                    }
                }
            }
        }
    }

    /// The smallest key of an uncorrupted entry held, if any. For tests: a pop must never
    /// return a key above it.
    #[cfg(test)]
    fn least_uncorrupted(&self) -> Option<Key> {
        let mut least = None;
        self.for_each_node(|rank, ckey, x| {
            let uncorrupted = rank < Self::LISTS || {
                let mut at = self.nodes[x as usize].head;
                while at != NIL && self.entries[at as usize].key != ckey {
                    at = self.entries[at as usize].next;
                }
                at != NIL
            };
            if uncorrupted && least.is_none_or(|least| ckey < least) {
                least = Some(ckey);
            }
        });
        least
    }

    /// Checks every invariant; panics with the first broken one. For tests.
    #[cfg(test)]
    fn check(&self) {
        let mut held = 0usize;
        self.for_each_node(|rank, ckey, x| {
            if rank == 0 {
                assert!((x as usize) < self.capacity, "a bare entry's node");
                held += 1;
                return;
            }
            let node = self.nodes[x as usize];
            assert!(node.head != NIL, "a node in a tree has an empty list");
            if rank < Self::LISTS {
                assert!((node.head as usize) < self.capacity, "a one-entry list's node");
                held += 1;
            } else {
                let (mut size, mut at, mut last) = (0u64, node.head, NIL);
                while at != NIL {
                    let entry = self.entries[at as usize];
                    assert!(entry.key <= ckey, "an entry's key above its node's ckey");
                    size += 1;
                    last = at;
                    at = entry.next;
                }
                assert_eq!(last, node.tail, "list tail");
                let most = 1u64 << ((rank - Self::T) / 2);
                assert!(size <= most, "rank {rank} holds {size} entries");
                held += size as usize;
            }
            assert!(node.child[0] != NIL || node.child[1] == NIL, "a right child without a left");
            assert!(node.child[1] != NIL || node.keys[1] == Key::MAX, "no right child, key MAX");
            for side in 0..2 {
                if node.child[side] != NIL {
                    assert!(node.keys[side] >= ckey, "heap order");
                }
            }
        });
        assert_eq!(held, self.len, "len");
        for k in 0..RANKS {
            assert_eq!(self.occupied >> k & 1 == 1, self.roots[k] != NIL, "occupied rank {k}");
        }
        let min = (0..RANKS).filter(|&k| self.roots[k] != NIL).map(|k| self.root_key[k]).min();
        match min {
            None => assert_eq!(self.best, NONE, "the best root of an empty heap"),
            Some(min) => {
                assert!(self.roots[self.best as usize] != NIL, "the best root is held");
                assert_eq!(self.root_key[self.best as usize], min, "the best root's ckey");
            }
        }
    }
}

impl<const INV_EPSILON: u32> Frontier for SoftHeap<INV_EPSILON> {
    const FAMILY: Family = Family::SoftHeap;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Unspecified;
    const ORDER: Order = Order::Approximate { epsilon: Self::EPSILON };

    fn new(spec: Spec) -> Self {
        // Evaluates the parameter check at compile time.
        let _ = Self::T;
        SoftHeap {
            entries: Vec::new(),
            nodes: Vec::new(),
            free_entry: NIL,
            free_node: NIL,
            roots: [NIL; RANKS],
            root_key: [0; RANKS],
            occupied: 0,
            best: NONE,
            owing: [Owed { node: NIL, parent: NIL, side: 0, rank: 0 }; RANKS / 2],
            len: 0,
            pushes: 0,
            capacity: spec.capacity,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        // A tree of rank 0 is the bare entry: its node here, its key as the ckey.
        let (mut tree, mut ckey, mut rank) = (node, key, 0);
        if self.occupied & 1 != 0 {
            // Link two bare entries: the smaller is the new node's list, the other its child.
            let (other, other_key) = (self.roots[0], self.root_key[0]);
            let ((low, low_key), (high, high_key)) = if key < other_key {
                ((node, key), (other, other_key))
            } else {
                ((other, other_key), (node, key))
            };
            tree = self.new_node(TreeNode {
                keys: [high_key, Key::MAX],
                child: [high, NIL],
                head: low,
                tail: NIL,
            });
            (ckey, rank) = (low_key, 1);
            while self.occupied >> rank & 1 != 0 {
                let link = TreeNode {
                    keys: [self.root_key[rank], ckey],
                    child: [self.roots[rank], tree],
                    head: NIL,
                    tail: NIL,
                };
                self.roots[rank] = NIL;
                rank += 1;
                tree = self.new_node(link);
                ckey = self.refill(tree, rank as u32);
            }
            // The ranks below `rank` were all occupied, and are all consumed.
            self.roots[0] = NIL;
            self.occupied &= !((1 << rank) - 1);
        }
        self.roots[rank] = tree;
        self.root_key[rank] = ckey;
        self.occupied |= 1 << rank;
        if self.best == NONE {
            self.best = rank as u32;
        } else if (self.best as usize) < rank {
            // The best root was linked into the new tree.
            self.find_best();
        } else if ckey < self.root_key[self.best as usize] {
            self.best = rank as u32;
        }
        self.len += 1;
        self.pushes += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.best == NONE {
            return None;
        }
        let rank = self.best as usize;
        let root = self.roots[rank];
        self.len -= 1;
        if rank == 0 {
            self.roots[0] = NIL;
            self.occupied &= !1;
            self.find_best();
            return Some((root, self.root_key[0]));
        }
        let top = self.nodes[root as usize];
        let popped = if (rank as u32) < Self::LISTS {
            self.nodes[root as usize].head = NIL;
            (top.head, self.root_key[rank])
        } else {
            let SoftEntry { key, node, next } = self.entries[top.head as usize];
            self.entries[top.head as usize].next = self.free_entry;
            self.free_entry = top.head;
            self.nodes[root as usize].head = next;
            if next != NIL {
                return Some((node, key));
            }
            (node, key)
        };
        // The root's list ran out.
        if top.child[0] == NIL {
            self.free_node(root);
            self.roots[rank] = NIL;
            self.occupied &= !(1 << rank);
        } else {
            self.root_key[rank] = self.refill(root, rank as u32);
        }
        self.find_best();
        Some(popped)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.nodes.clear();
        self.free_entry = NIL;
        self.free_node = NIL;
        self.roots = [NIL; RANKS];
        self.occupied = 0;
        self.best = NONE;
        self.len = 0;
        self.pushes = 0;
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::{BTreeMap, BinaryHeap};

    use super::*;
    use crate::testing::xorshift;

    fn heap<const E: u32>(capacity: usize) -> SoftHeap<E> {
        SoftHeap::new(Spec { capacity, span: 0 })
    }

    /// The entries held, as a multiset `(key, node) -> count`, beside the heap.
    #[derive(Default)]
    struct Held(BTreeMap<(Key, Node), usize>);

    impl Held {
        fn add(&mut self, node: Node, key: Key) {
            *self.0.entry((key, node)).or_default() += 1;
        }

        /// Removes a popped entry; panics if it was not held.
        fn take(&mut self, node: Node, key: Key) {
            let count = self.0.get_mut(&(key, node)).expect("popped an entry not held");
            *count -= 1;
            if *count == 0 {
                self.0.remove(&(key, node));
            }
        }

        fn below(&self, key: Key) -> usize {
            self.0.range(..(key, 0)).map(|(_, c)| c).sum()
        }
    }

    /// The shape of a random run: how many operations, and of every 10,000 how many clear
    /// and how many push (the rest pop).
    #[derive(Clone, Copy)]
    struct Mix {
        ops: usize,
        clears: u64,
        pushes: u64,
        check_every: usize,
    }

    /// Short runs, cleared often: small heaps, reuse after clear.
    const SHORT: Mix = Mix { ops: 3_000, clears: 100, pushes: 5_400, check_every: 1 };
    /// Long runs that grow to thousands of entries, ranks 12 and more.
    const LONG: Mix = Mix { ops: 20_000, clears: 2, pushes: 6_000, check_every: 97 };

    /// Random pushes, pops and clears with keys drawn by `key`; after every operation the
    /// corrupted entries are at most `(3/4) ε × pushes` (the proven bound, within the
    /// declared `ε`), a pop of key `k` leaves at most `ε × pushes` entries below `k`, and
    /// every `check_every` operations every invariant holds; at the end every entry pushed
    /// was popped once with its key. Returns the most entries ever corrupted at once.
    fn random_run<const E: u32>(
        seed: u64,
        mix: Mix,
        mut key: impl FnMut(&mut dyn FnMut() -> u64) -> Key,
    ) -> usize {
        let mut next = xorshift(seed);
        let mut queue = heap::<E>(1000);
        let mut held = Held::default();
        let mut most = 0;
        for step in 0..mix.ops {
            let draw = next() % 10_000;
            match draw {
                _ if draw < mix.clears => {
                    queue.clear();
                    held = Held::default();
                }
                _ if draw < mix.clears + mix.pushes => {
                    let node = (next() % 1000) as Node;
                    let key = key(&mut next);
                    assert_eq!(queue.push(node, key), Ok(Pushed::Added));
                    held.add(node, key);
                }
                _ => match (queue.least_uncorrupted(), queue.pop()) {
                    (least, Some((node, key))) => {
                        assert!(least.is_none_or(|least| key <= least), "popped over {least:?}");
                        held.take(node, key);
                        let below = held.below(key);
                        assert!(below as f64 <= SoftHeap::<E>::EPSILON * queue.pushes() as f64);
                    }
                    (_, None) => assert!(held.0.is_empty()),
                },
            }
            let corrupted = queue.corrupted();
            most = most.max(corrupted);
            assert!(
                corrupted as f64 <= 0.75 * SoftHeap::<E>::EPSILON * queue.pushes() as f64,
                "step {step}: {corrupted} corrupted after {} pushes",
                queue.pushes()
            );
            assert_eq!(queue.len(), held.0.values().sum::<usize>());
            if step % mix.check_every == 0 {
                queue.check();
            }
        }
        queue.check();
        while let Some((node, key)) = queue.pop() {
            held.take(node, key);
        }
        assert!(held.0.is_empty(), "entries lost");
        most
    }

    fn random_runs<const E: u32>() {
        let wide = |next: &mut dyn FnMut() -> u64| next();
        let ties = |next: &mut dyn FnMut() -> u64| next() % 4;
        let top = |next: &mut dyn FnMut() -> u64| u64::MAX - next() % 64;
        let mut most = 0;
        for seed in 1..=10 {
            let mix = if seed <= 2 { LONG } else { SHORT };
            most = most.max(random_run::<E>(seed, mix, wide));
            most = most.max(random_run::<E>(seed, mix, ties));
            most = most.max(random_run::<E>(seed, mix, top));
        }
        assert!(most > 0, "the runs never corrupted an entry");
    }

    #[test]
    fn corruption_stays_within_the_error_rate_on_random_runs() {
        random_runs::<2>();
        random_runs::<4>();
        random_runs::<8>();
        random_runs::<64>();
    }

    /// An A*-shaped run: pop, then push entries a little above the popped key (three while
    /// fewer than `frontier` are held, then one or two, so it keeps growing past it); checks
    /// the bound every 97th step and returns the most entries corrupted at once.
    fn a_star_shaped<const E: u32>(frontier: usize, steps: usize) -> usize {
        let mut next = xorshift(frontier as u64);
        let mut queue = heap::<E>(1 << 20);
        let mut most = 0;
        queue.push(0, 1000).unwrap();
        for step in 0..steps {
            let Some((_, key)) = queue.pop() else { break };
            let children = if queue.len() < frontier { 3 } else { 1 + next() % 2 };
            for _ in 0..children {
                queue.push((next() % (1 << 20)) as Node, key + next() % 20).unwrap();
            }
            if step % 97 == 0 {
                let corrupted = queue.corrupted();
                most = most.max(corrupted);
                assert!(corrupted as f64 <= 0.75 * SoftHeap::<E>::EPSILON * queue.pushes() as f64);
            }
        }
        queue.check();
        most
    }

    #[test]
    fn every_error_rate_corrupts_entries_at_a_star_frontier_sizes() {
        for frontier in [100, 1_000, 10_000] {
            let steps = 10 * frontier;
            let (e2, e8, e64) = (
                a_star_shaped::<2>(frontier, steps),
                a_star_shaped::<8>(frontier, steps),
                a_star_shaped::<64>(frontier, steps),
            );
            assert!(e2 > 0 && e8 > 0, "frontier {frontier}: {e2} {e8}");
            if frontier >= 1_000 {
                assert!(e64 > 0, "frontier {frontier}: {e64}");
            }
            assert!(e2 >= e8 && e8 >= e64, "frontier {frontier}: {e2} {e8} {e64}");
        }
    }

    /// With the rank threshold above every rank reached, no list holds two entries: the
    /// soft heap is an exact heap. Checked against `std`'s `BinaryHeap`.
    #[test]
    fn exact_when_the_threshold_is_above_every_rank() {
        let mut next = xorshift(3);
        let mut queue = heap::<{ 1 << 31 }>(100);
        let mut model = BinaryHeap::new();
        for _ in 0..100_000 {
            if next() % 5 < 3 {
                let key = next() % 1000;
                queue.push((key % 100) as Node, key).unwrap();
                model.push(Reverse(key));
            } else {
                assert_eq!(queue.pop().map(|(_, key)| key), model.pop().map(|Reverse(k)| k));
            }
        }
        assert_eq!(queue.corrupted(), 0);
        queue.check();
    }

    /// Fewer than `2^(T+2)` pushes since the last clear make no rank above `T + 1`: exact
    /// even at `ε = 1/2` (16 pushes).
    #[test]
    fn exact_on_small_inputs() {
        let mut next = xorshift(5);
        let mut queue = heap::<2>(16);
        for _ in 0..1_000 {
            queue.clear();
            let mut model = BinaryHeap::new();
            for _ in 0..15 {
                if next().is_multiple_of(3) {
                    assert_eq!(queue.pop().map(|(_, k)| k), model.pop().map(|Reverse(k)| k));
                } else {
                    let key = next() % 8;
                    queue.push(key as Node, key).unwrap();
                    model.push(Reverse(key));
                }
                assert_eq!(queue.corrupted(), 0);
            }
            while let Some(Reverse(key)) = model.pop() {
                assert_eq!(queue.pop().map(|(_, k)| k), Some(key));
            }
            assert_eq!(queue.pop(), None);
        }
    }

    /// A million entries in the degenerate orders (increasing, decreasing, all equal, all
    /// `u64::MAX`), pushed and drained on a 64 KiB stack: nothing recurses.
    fn degenerate_shapes<const E: u32>() {
        const N: u32 = 1_000_000;
        let mut queue = heap::<E>(N as usize);
        let orders: [fn(u32) -> Key; 4] =
            [|i| Key::from(i), |i| Key::from(N - i), |_| 7, |_| Key::MAX];
        for key in orders {
            for i in 0..N {
                queue.push(i, key(i)).unwrap();
            }
            assert_eq!(queue.len(), N as usize);
            let mut popped = 0;
            while let Some((node, k)) = queue.pop() {
                assert_eq!(k, key(node));
                popped += 1;
            }
            assert_eq!(popped, N);
            // Reuse after a clear with half the entries still held.
            for i in 0..N / 2 {
                queue.push(i, key(i)).unwrap();
            }
            for _ in 0..N / 4 {
                queue.pop().unwrap();
            }
            queue.clear();
            assert_eq!((queue.len(), queue.pushes(), queue.pop()), (0, 0, None));
        }
    }

    #[test]
    fn degenerate_shapes_need_no_stack() {
        for f in [degenerate_shapes::<2>, degenerate_shapes::<64>] {
            std::thread::Builder::new()
                .stack_size(64 << 10)
                .spawn(f)
                .expect("spawn a test thread")
                .join()
                .expect("the test thread panicked");
        }
    }

    #[test]
    fn the_error_rates_and_thresholds_agree() {
        assert_eq!((SoftHeap::<2>::T, SoftHeap::<2>::EPSILON), (2, 0.5));
        assert_eq!((SoftHeap::<8>::T, SoftHeap::<8>::EPSILON), (4, 0.125));
        assert_eq!((SoftHeap::<64>::T, SoftHeap::<64>::EPSILON), (7, 1.0 / 64.0));
        // The bound's sum, (3/2) 2^-T: at most 3/4 of epsilon.
        for t in 2..20u32 {
            let sum: f64 =
                (t + 2..64).map(|k| 2f64.powi(((k - t) / 2) as i32) / 2f64.powi(k as i32)).sum();
            assert!(sum <= 1.5 / 2f64.powi(t as i32) + 1e-12, "T = {t}: {sum}");
        }
    }
}
