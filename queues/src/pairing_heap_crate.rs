//! The `pairing-heap` crate (0.1): a pointer-based pairing heap whose nodes own their
//! children in a `Vec`, used with duplicate insertion.
//!
//! | operation | cost (per the crate's docs) |
//! |---|---|
//! | push | O(1) |
//! | pop | O(log n) amortized |
//! | clear | O(n log n) amortized here: see below |
//!
//! Keys: any. Ties: unspecified tree order (entries compare by key alone).
//! Should win: pushes are one comparison and a `Vec` push, so push-heavy searches whose
//! frontier is mostly never popped; it pays a heap allocation per node that gains a first
//! child, and pops chase pointers across the allocator's blocks.
//!
//! **Drop safety.** The crate drops a tree recursively, one stack frame chain per tree
//! level, and its `clear` is such a drop. Pushing keys in decreasing order makes each new
//! entry the root above the previous one, a chain as deep as the heap is long, so dropping a
//! few hundred thousand entries overflows a thread's stack and aborts the process. The
//! crate's `pop` is iterative (it pairs the root's children in a loop), so this adapter
//! empties the heap by popping on `clear` and on drop: O(n log n) amortized instead of O(n),
//! and never recursive. The crate offers no way to keep its nodes' allocations across
//! `clear`.

use pairing_heap::PairingHeap;

use crate::max_heap_adapter::{MaxHeap, MaxHeapFrontier, MinEntry};
use crate::{Family, Origin};

/// The `pairing-heap` crate's heap of `(key, node)`, duplicates allowed.
pub type PairingHeapCrate = MaxHeapFrontier<PoppedOnDrop>;

/// The crate's heap, emptied by popping (iterative) instead of its recursive drop.
///
/// Invariant: the inner heap is empty whenever it is dropped.
#[derive(Debug, Default)]
pub struct PoppedOnDrop(PairingHeap<MinEntry>);

impl PoppedOnDrop {
    /// Pops every entry: each pop frees the old root and pairs its children in a loop.
    fn dismantle(&mut self) {
        while self.0.pop().is_some() {}
    }
}

impl Drop for PoppedOnDrop {
    fn drop(&mut self) {
        self.dismantle();
    }
}

impl MaxHeap for PoppedOnDrop {
    const FAMILY: Family = Family::PairingHeap;
    const ORIGIN: Origin = Origin::Crate {
        name: "pairing-heap",
        version: "0.1",
        feature: "pairing-heap-crate",
        usage: "`pairing_heap::PairingHeap::new()` for `BinaryHeap::new()`, pushes and pops unchanged; pop it empty rather than dropping a large one (its drop recurses)",
    };

    #[inline]
    fn push(&mut self, entry: MinEntry) {
        self.0.push(entry);
    }

    #[inline]
    fn pop(&mut self) -> Option<MinEntry> {
        self.0.pop()
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn clear(&mut self) {
        self.dismantle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Frontier, Key, Spec};

    /// Entries pushed in decreasing key order: each becomes the root above the previous
    /// one, a chain this deep. Dropped by the crate's recursive drop, it overflows a
    /// 2 MiB stack (checked by disabling `PoppedOnDrop::dismantle`).
    const CHAIN: u32 = 300_000;

    /// Runs `f` on a thread with the default test-thread stack of 2 MiB, whatever
    /// `RUST_MIN_STACK` says; a stack overflow aborts the whole test process.
    fn on_a_2_mib_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .expect("spawn a test thread")
            .join()
            .expect("the test thread panicked");
    }

    fn degenerate_chain() -> PairingHeapCrate {
        let mut queue = PairingHeapCrate::new(Spec { capacity: CHAIN as usize, span: 0 });
        for node in 0..CHAIN {
            queue.push(node, Key::from(CHAIN - node)).unwrap();
        }
        queue
    }

    #[test]
    fn drops_a_degenerate_chain_without_recursing() {
        on_a_2_mib_stack(|| drop(degenerate_chain()));
    }

    #[test]
    fn clears_a_degenerate_chain_without_recursing_and_stays_usable() {
        on_a_2_mib_stack(|| {
            let mut queue = degenerate_chain();
            queue.clear();
            assert!(queue.is_empty());
            queue.push(7, 3).unwrap();
            queue.push(8, 1).unwrap();
            assert_eq!(queue.pop(), Some((8, 1)));
            assert_eq!(queue.pop(), Some((7, 3)));
            assert_eq!(queue.pop(), None);
        });
    }
}
