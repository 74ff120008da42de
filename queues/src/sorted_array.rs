//! A sorted array, in both strategies, with the minimum at the end: pop is a `Vec::pop`,
//! push binary-searches the slot and shifts the entries with smaller keys up by one. With
//! decrease-key, a position table finds a held node's entry, which then moves down to its
//! new slot; every entry shifted on the way has its position rewritten.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(log n + s) | O(log n + s), and s position updates |
//! | push (held node, smaller key) | O(log n + s), adds an entry | O(log n + m), and m position updates |
//! | pop | O(1) | O(1) |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! `s` is the number of entries with a smaller key than the one pushed (the ones shifted);
//! `m` is the number of entries between a decreased entry's old and new slots. Both are
//! O(n) in the worst case.
//!
//! Keys: any. Ties: LIFO. A pushed entry goes in front of (nearer the end than) every
//! entry with an equal key, so the newest of equal keys is popped first; a decreased entry
//! is placed like a new push.
//! Should win (a hypothesis the lab measures): tiny frontiers, tens of entries, where the
//! shift is a short memmove and the pop is free; and A* runs with heavy ties on the key,
//! where children with the parent's key land at the very end and nothing moves. Wide key
//! ranges should make it lose quickly as the frontier grows: each push then shifts about
//! half the array.
//!
//! ```
//! use pqlab_queues::{sorted_array::SortedArray, Dup, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = SortedArray::<Dup>::new(Spec { capacity: 10, span: 16 });
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

/// An array of entries sorted by descending key, keys and nodes in separate vectors so the
/// binary search reads keys alone; with `S = Dk`, a position table finds a node's entry.
///
/// Invariant: `keys[i]` and `nodes[i]` form entry `i` (`keys.len() == nodes.len()`),
/// `keys[i] >= keys[i + 1]`, and with `Dk`, `positions` maps each held node to its index.
#[derive(Debug)]
pub struct SortedArray<S> {
    keys: Vec<Key>,
    nodes: Vec<Node>,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
    strategy: PhantomData<S>,
}

impl<S: StrategyKind> SortedArray<S> {
    /// With `Dk`, records the index of every entry from `start` to `end` (exclusive).
    #[inline]
    fn reindex(&mut self, start: usize, end: usize) {
        if S::DECREASE_KEY {
            for (index, &node) in self.nodes[start..end].iter().enumerate() {
                self.positions.set(node, (start + index) as u32);
            }
        }
    }
}

impl<S: StrategyKind> Frontier for SortedArray<S> {
    const FAMILY: Family = Family::SortedArray;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::Lifo;

    fn new(spec: Spec) -> Self {
        let positions = PositionTable::for_strategy::<S>(spec.capacity);
        SortedArray {
            keys: Vec::new(),
            nodes: Vec::new(),
            positions,
            capacity: spec.capacity,
            strategy: PhantomData,
        }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if S::DECREASE_KEY {
            if let Some(index) = self.positions.get(node) {
                let index = index as usize;
                if key >= self.keys[index] {
                    return Ok(Pushed::Kept);
                }
                // Entries before `index` hold keys >= the old key > `key`: the new slot is
                // after every later entry whose key is still >= `key`.
                let slot = index + self.keys[index + 1..].partition_point(|&held| held >= key);
                self.keys.copy_within(index + 1..=slot, index);
                self.nodes.copy_within(index + 1..=slot, index);
                self.keys[slot] = key;
                self.nodes[slot] = node;
                self.reindex(index, slot + 1);
                return Ok(Pushed::Decreased);
            }
        }
        let slot = self.keys.partition_point(|&held| held >= key);
        self.keys.insert(slot, key);
        self.nodes.insert(slot, node);
        self.reindex(slot, self.nodes.len());
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let (node, key) = self.nodes.pop().zip(self.keys.pop())?;
        if S::DECREASE_KEY {
            self.positions.remove(node);
        }
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn clear(&mut self) {
        if S::DECREASE_KEY {
            for &node in &self.nodes {
                self.positions.remove(node);
            }
        }
        self.keys.clear();
        self.nodes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dk, Dup};

    fn pop_order<S: StrategyKind>(pushes: &[(Node, Key)]) -> Vec<(Node, Key)> {
        let mut queue = SortedArray::<S>::new(Spec { capacity: 8, span: 0 });
        for &(node, key) in pushes {
            queue.push(node, key).unwrap();
        }
        std::iter::from_fn(|| queue.pop()).collect()
    }

    #[test]
    fn ties_pop_newest_first() {
        let pushes = [(0, 5), (1, 3), (2, 5), (3, 3), (4, 5)];
        let expected = [(3, 3), (1, 3), (4, 5), (2, 5), (0, 5)];
        assert_eq!(pop_order::<Dup>(&pushes), expected);
        assert_eq!(pop_order::<Dk>(&pushes), expected);
    }

    #[test]
    fn a_decreased_entry_is_placed_like_a_new_push() {
        let pushes = [(0, 3), (1, 9), (2, 3), (3, 1), (1, 3)];
        assert_eq!(pop_order::<Dk>(&pushes), [(3, 1), (1, 3), (2, 3), (0, 3)]);
    }
}
