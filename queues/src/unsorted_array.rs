//! An unsorted array, in both strategies: push appends, pop scans for the minimum and
//! fills its hole with the last entry. With decrease-key, a position table finds a held
//! node's entry, whose key is then lowered in place.
//!
//! | operation | duplicates | decrease-key |
//! |---|---|---|
//! | push (new node) | O(1) amortised | O(1) amortised |
//! | push (held node, smaller key) | O(1) amortised, adds an entry | O(1), lowers the key in place |
//! | pop | O(n): one scan for the minimum key, one short backward search, a swap-remove | O(n), same |
//! | clear | O(1) | O(n) (forgets each held node) |
//!
//! Keys: any. Ties: the pop takes the entry with the minimum key nearest the end of the
//! array. Pushes append, so among equal keys the newest entry is popped first (LIFO), as
//! long as no pop has moved it: a pop fills its hole with the last entry, which can put
//! that entry in front of older equal-key entries (near-LIFO). A decreased key keeps its
//! entry's place.
//! Should win (a hypothesis the lab measures): tiny frontiers, tens of entries, where a
//! scan over one or two cache lines of keys beats a heap's data-dependent branches, and
//! push-heavy runs, since a push is a bare append. Pops grow linearly with the frontier,
//! so it should lose from a few hundred entries on.
//!
//! ```
//! use pqlab_queues::{unsorted_array::UnsortedArray, Dk, Frontier, Spec};
//!
//! // A frontier for node ids below 10 (and keys at most 16 above the last popped one).
//! let mut open = UnsortedArray::<Dk>::new(Spec { capacity: 10, span: 16 });
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

/// An unsorted array of entries, keys and nodes in separate vectors so the minimum scan
/// reads keys alone; with `S = Dk`, a position table finds a node's entry for decrease-key.
///
/// Invariant: `keys[i]` and `nodes[i]` form entry `i` (`keys.len() == nodes.len()`), and
/// with `Dk`, `positions` maps each held node to its index.
#[derive(Debug)]
pub struct UnsortedArray<S> {
    keys: Vec<Key>,
    nodes: Vec<Node>,
    /// Only allocated for `Dk`.
    positions: PositionTable,
    capacity: usize,
    strategy: PhantomData<S>,
}

/// Independent minimum accumulators in the scan, and the chunk width of the backward search.
///
/// Several accumulators break the scan's loop-carried dependency (one compare-and-select
/// per key otherwise). Measured against a single running minimum: 1.5 times as fast at 32
/// keys, two to three times from a hundred on, a nanosecond or two slower below ten.
const LANES: usize = 4;

/// The index of the last entry holding the minimum of `keys` (non-empty).
///
/// One forward pass finds the minimum key, `LANES` running minima at a time; a backward
/// pass, `LANES` keys at a time with a branch-free test per chunk, finds its last place.
#[inline]
fn last_min(keys: &[Key]) -> usize {
    let chunks = keys.chunks_exact(LANES);
    let mut min = chunks.remainder().iter().copied().fold(Key::MAX, Key::min);
    let mut lanes = [Key::MAX; LANES];
    for chunk in chunks {
        for (lane, &key) in lanes.iter_mut().zip(chunk) {
            *lane = (*lane).min(key);
        }
    }
    min = lanes.into_iter().fold(min, Key::min);
    let mut end = keys.len();
    for chunk in keys.rchunks_exact(LANES) {
        if chunk.iter().fold(false, |hit, &key| hit | (key == min)) {
            break;
        }
        end -= LANES;
    }
    keys[..end].iter().rposition(|&key| key == min).expect("the minimum key is held")
}

impl<S: StrategyKind> Frontier for UnsortedArray<S> {
    const FAMILY: Family = Family::UnsortedArray;
    const ORIGIN: Origin = Origin::Ours { file: file!() };
    const STRATEGY: Strategy = S::STRATEGY;
    const KEYS: KeyRule = KeyRule::Any;
    const TIES: Ties = Ties::LifoUntilMoved;

    fn new(spec: Spec) -> Self {
        let positions = PositionTable::for_strategy::<S>(spec.capacity);
        UnsortedArray {
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
                let held = &mut self.keys[index as usize];
                if key >= *held {
                    return Ok(Pushed::Kept);
                }
                *held = key;
                return Ok(Pushed::Decreased);
            }
            self.positions.set(node, self.keys.len() as u32);
        }
        self.keys.push(key);
        self.nodes.push(node);
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        if self.keys.is_empty() {
            return None;
        }
        let index = last_min(&self.keys);
        let key = self.keys.swap_remove(index);
        let node = self.nodes.swap_remove(index);
        if S::DECREASE_KEY {
            self.positions.remove(node);
            if let Some(&moved) = self.nodes.get(index) {
                self.positions.set(moved, index as u32);
            }
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

    #[test]
    fn last_min_finds_the_last_minimum_at_every_length_and_place() {
        for len in 1..=3 * LANES + 1 {
            for at in 0..len {
                for tie in 0..len {
                    let mut keys = vec![9; len];
                    keys[tie] = 2;
                    keys[at] = 2;
                    assert_eq!(last_min(&keys), at.max(tie), "{keys:?}");
                }
            }
        }
    }

    fn pops_equal_keys_newest_first<S: StrategyKind>() {
        let mut queue = UnsortedArray::<S>::new(Spec { capacity: 8, span: 0 });
        for node in 0..4 {
            queue.push(node, 5).unwrap();
        }
        queue.push(4, 1).unwrap();
        let order: Vec<_> = std::iter::from_fn(|| queue.pop()).collect();
        assert_eq!(order, [(4, 1), (3, 5), (2, 5), (1, 5), (0, 5)]);
    }

    #[test]
    fn ties_pop_newest_first_while_no_entry_moved() {
        pops_equal_keys_newest_first::<Dup>();
        pops_equal_keys_newest_first::<Dk>();
    }
}
