//! The slot arena of the linked queues (pairing heap, Fibonacci heap, splay tree): their
//! nodes in one flat `Vec`, linked by `u32` indices, and the free list of the slots that
//! hold no entry. Each queue keeps its own slot type, links and algorithms; the arena owns
//! only which slot an entry goes in.
//!
//! Two ways to place entries, chosen by the strategy marker `S`:
//! * `Dk`: a node's slot is its id. The arena has one slot per node id, allocated once;
//!   a slot is held exactly while its node is.
//! * `Dup`: an entry takes the most recently released slot (still in cache), or a new one
//!   at the end. Released slots form a LIFO list threaded through a link field of the
//!   slots themselves ([`ArenaSlot::free_link`]), so the arena costs no memory beside the slots.
//!
//! | operation | `Dk` | `Dup` |
//! |---|---|---|
//! | [`Arena::take`] | O(1) | O(1) (amortized when it grows) |
//! | [`Arena::release`] | O(1) | O(1) |
//! | [`Arena::clear`] | O(1), the queue releases each held slot first | O(1) |
//!
//! Neither way allocates per entry after warm-up, and [`Arena::clear`] keeps the
//! allocation. The slots are read and written as a slice (the arena dereferences to
//! `[T]`): a queue writes the links of the slots it holds, never the free link of a
//! released slot.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use crate::{Node, StrategyKind};

/// The end of the free list.
const NIL: u32 = u32::MAX;

/// A slot an [`Arena`] can hold: a queue's tree node.
pub(crate) trait ArenaSlot: Copy {
    /// ArenaSlot indices stay below this: the smallest sentinel the queue's links use.
    const LIMIT: u32;
    /// A slot that holds no entry: what a `Dk` arena, and its reserved slots, start as.
    const VACANT: Self;
    /// Marks this slot as holding no entry (the queue's own marker, which its membership
    /// test reads).
    fn vacate(&mut self);
    /// The link a released slot threads the free list through (`Dup` only): one of the
    /// queue's own link fields, which a slot holding no entry does not use.
    fn free_link(&mut self) -> &mut u32;
}

/// Slots of type `T`, placed by node id with `S = Dk`, through a free list with `S = Dup`.
///
/// Invariants: with `Dk`, there is one slot per node id below the capacity given to
/// [`Arena::new`], and a slot holds an entry exactly when the queue took it and has not
/// released it since; with `Dup`, the first `reserved` slots never hold entries, and every
/// other slot either holds an entry or is on the free list starting at `free` (each once,
/// marked vacant, linked through [`ArenaSlot::free_link`], ending in `NIL`).
#[derive(Debug)]
pub(crate) struct Arena<T, S> {
    slots: Vec<T>,
    /// `Dup` only: the most recently released slot, or `NIL`.
    free: u32,
    /// `Dup` only: the vacant slots at the front that no entry takes and `clear` keeps.
    reserved: usize,
    strategy: PhantomData<S>,
}

impl<T: ArenaSlot, S: StrategyKind> Arena<T, S> {
    /// An arena for node ids below `capacity`: with `Dk`, one vacant slot per node id
    /// (`capacity` must not exceed [`ArenaSlot::LIMIT`]); with `Dup`, empty.
    pub(crate) fn new(capacity: usize) -> Self {
        if S::DECREASE_KEY {
            assert!(
                capacity <= T::LIMIT as usize,
                "node ids must stay below the slot links' sentinels ({})",
                T::LIMIT
            );
            Arena {
                slots: vec![T::VACANT; capacity],
                free: NIL,
                reserved: 0,
                strategy: PhantomData,
            }
        } else {
            Self::with_reserved(0)
        }
    }

    /// A `Dup` arena whose first `reserved` slots are vacant scratch that no entry takes
    /// and [`Arena::clear`] keeps (a splay tree's header).
    pub(crate) fn with_reserved(reserved: usize) -> Self {
        debug_assert!(!S::DECREASE_KEY, "a Dk arena's slots are the node ids");
        Arena { slots: vec![T::VACANT; reserved], free: NIL, reserved, strategy: PhantomData }
    }

    /// Takes a slot for `node`'s new entry and writes `fresh` there: the node's own slot
    /// with `Dk` (it must not be held), else the most recently released one, or a new one.
    #[inline]
    pub(crate) fn take(&mut self, node: Node, fresh: T) -> u32 {
        let slot = if S::DECREASE_KEY {
            node
        } else if self.free != NIL {
            let slot = self.free;
            self.free = *self.slots[slot as usize].free_link();
            slot
        } else {
            let slot = self.slots.len();
            assert!(slot < T::LIMIT as usize, "an arena holds fewer slots than its sentinels");
            self.slots.push(fresh);
            return slot as u32;
        };
        self.slots[slot as usize] = fresh;
        slot
    }

    /// Marks the held `slot` vacant, and with `Dup` puts it on the free list.
    #[inline]
    pub(crate) fn release(&mut self, slot: u32) {
        let entry = &mut self.slots[slot as usize];
        entry.vacate();
        if !S::DECREASE_KEY {
            *entry.free_link() = self.free;
            self.free = slot;
        }
    }

    /// Forgets every entry and keeps the allocation. With `Dup` this drops every slot but
    /// the reserved ones; with `Dk` it does nothing, and the queue must have released each
    /// held slot (it knows them, so that costs O(held) rather than O(capacity)).
    pub(crate) fn clear(&mut self) {
        if !S::DECREASE_KEY {
            self.slots.truncate(self.reserved);
            self.free = NIL;
        }
    }

    /// The free list, most recently released first (for the queues' invariant checks).
    #[cfg(test)]
    pub(crate) fn free_slots(&self) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some(self.free).filter(|&slot| slot != NIL), move |&slot| {
            let mut entry = self.slots[slot as usize];
            Some(*entry.free_link()).filter(|&next| next != NIL)
        })
    }
}

impl<T, S> Deref for Arena<T, S> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.slots
    }
}

impl<T, S> DerefMut for Arena<T, S> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    /// A slot with one link, which also threads the free list, and a held flag.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Cell {
        node: Node,
        link: u32,
        held: bool,
    }

    impl ArenaSlot for Cell {
        const LIMIT: u32 = u32::MAX - 1;
        const VACANT: Cell = Cell { node: 0, link: NIL, held: false };

        fn vacate(&mut self) {
            self.held = false;
        }

        fn free_link(&mut self) -> &mut u32 {
            &mut self.link
        }
    }

    fn cell(node: Node) -> Cell {
        Cell { node, link: NIL, held: true }
    }

    #[test]
    fn dup_reuses_released_slots_last_in_first_out() {
        let mut arena = Arena::<Cell, Dup>::new(100);
        assert!(arena.is_empty());
        let taken: Vec<u32> = (0..5).map(|node| arena.take(node, cell(node))).collect();
        assert_eq!(taken, [0, 1, 2, 3, 4]);
        for slot in [1, 3, 0] {
            arena.release(slot);
            assert!(!arena[slot as usize].held);
        }
        assert_eq!(arena.free_slots().collect::<Vec<_>>(), [0, 3, 1]);
        // Every released slot is reused, most recent first, before the arena grows.
        assert_eq!(arena.take(10, cell(10)), 0);
        assert_eq!(arena.take(11, cell(11)), 3);
        assert_eq!(arena.take(12, cell(12)), 1);
        assert_eq!(arena.len(), 5);
        assert_eq!(arena.take(13, cell(13)), 5);
        assert_eq!(arena[3], cell(11), "a reused slot holds the new entry");
        assert!(arena.iter().all(|slot| slot.held));
        assert_eq!(arena.free_slots().count(), 0);
    }

    #[test]
    fn dk_slots_are_node_ids() {
        let mut arena = Arena::<Cell, Dk>::new(10);
        assert_eq!(arena.len(), 10);
        assert!(arena.iter().all(|slot| !slot.held));
        assert_eq!(arena.take(7, cell(7)), 7);
        assert_eq!(arena.take(2, cell(2)), 2);
        arena.release(7);
        assert!(!arena[7].held);
        assert_eq!(arena.take(4, cell(4)), 4, "a released slot is no one else's");
        assert_eq!(arena.take(7, cell(7)), 7);
        assert_eq!(arena.len(), 10);
        for slot in [2, 4, 7] {
            arena.release(slot);
        }
        arena.clear();
        assert_eq!(arena.len(), 10);
        assert!(arena.iter().all(|slot| !slot.held));
    }

    #[test]
    fn clear_keeps_the_allocation_and_the_reserved_slots() {
        let mut arena = Arena::<Cell, Dup>::with_reserved(1);
        assert_eq!(arena.len(), 1);
        for node in 0..1000 {
            arena.take(node, cell(node));
        }
        arena.release(500);
        let capacity = arena.slots.capacity();
        arena.clear();
        assert_eq!(arena.len(), 1);
        assert_eq!(arena.slots.capacity(), capacity);
        assert_eq!(arena.free_slots().count(), 0, "clear empties the free list");
        assert_eq!(arena.take(3, cell(3)), 1, "an entry never takes a reserved slot");
        assert_eq!(arena.slots.capacity(), capacity);
    }
}
