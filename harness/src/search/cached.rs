//! The tuned A\* with each cell's heuristic estimate cached: the advice "The heuristic
//! function is called for every open node. Consider caching its result." (Amit's A\*
//! pages), as a search the lab times against the A\* that computes the estimate at every
//! move looked at.
//!
//! The cache is one 8-byte word per cell, allocated once per map: a search stamp in the high
//! half and the estimate in the low half. A word whose stamp is the search's holds the
//! cell's estimate towards the search's goal; any other is computed, kept and returned.
//! New stamps make every word stale, so nothing map-sized is cleared between searches (the
//! array is reset once every 2³² − 1 searches, when the stamps would wrap). An estimate of
//! 2³² or more is returned uncached (the A\*'s `f` must fit 32 bits anyway).
//!
//! A hit costs one load from a map-sized array; a miss the estimate, a load and a store. It
//! pays where the estimate costs more than a load: the differential heuristic reads a run of
//! landmark distances per estimate, octile is a few multiplies.

use std::cell::Cell;

use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::Frontier;

use super::astar::AStar;
use super::grid_loop::{GridLoop, Target};
use super::heuristic::{AnyHeuristic, Heuristic};
use super::outcome::{Outcome, SearchError};
use super::store::FlatStore;
use crate::maps::grid::Grid;
use crate::maps::moves::Components;

/// The registry's hook ([`super::grid_loop::Build`]): the tuned A\* with `queue` and the
/// flat store, its heuristic cached per cell; another store is refused (measured with the
/// flat array alone, like the tie rules). O(cells).
pub fn build(target: &Target<'_>, queue: &'static Entry) -> Result<Box<dyn GridLoop>, String> {
    target.flat_store_only("the cached heuristic")?;
    Ok(registry::visit(queue.id, MakeCached(target)).expect("a registered queue"))
}

/// Builds the cached A\* with the queue it visits.
struct MakeCached<'t, 'a>(&'t Target<'a>);

impl Visitor for MakeCached<'_, '_> {
    type Output = Box<dyn GridLoop>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Box<dyn GridLoop> {
        let Target { grid, moves, .. } = *self.0;
        Box::new(CachedH {
            search: AStar::<F, FlatStore>::with_moves(grid, moves.clone()),
            words: vec![Cell::new(0); grid.cells()],
            stamp: 0,
        })
    }
}

/// The A\* with queue `F`, its heuristic cached per cell.
struct CachedH<F: Frontier> {
    search: AStar<F, FlatStore>,
    /// Per cell: the stamp (high half) and the estimate (low half).
    words: Vec<Cell<u64>>,
    /// The current search's stamp; 0 marks no search.
    stamp: u32,
}

impl<F: Frontier> GridLoop for CachedH<F> {
    fn search(
        &mut self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        if self.stamp == u32::MAX {
            self.words.iter().for_each(|w| w.set(0));
            self.stamp = 0;
        }
        self.stamp += 1;
        let mut cached = Cached { inner: heuristic, words: &self.words, stamp: self.stamp };
        self.search.search(grid, &mut cached, components, start, goal)
    }

    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        self.search.path(grid, goal)
    }
}

/// `inner`'s estimates, each kept in `words` under `stamp` once computed.
struct Cached<'a> {
    inner: &'a mut AnyHeuristic,
    words: &'a [Cell<u64>],
    stamp: u32,
}

impl Heuristic for Cached<'_> {
    fn set_goal(&mut self, grid: &Grid, goal: u32) {
        self.inner.set_goal(grid, goal);
    }

    #[inline(always)]
    fn estimate(&self, x: u32, y: u32, index: u32) -> u64 {
        let word = &self.words[index as usize];
        let kept = word.get();
        if (kept >> 32) as u32 == self.stamp {
            return kept & u64::from(u32::MAX);
        }
        let h = self.inner.estimate(x, y, index);
        if let Ok(low) = u32::try_from(h) {
            word.set(u64::from(self.stamp) << 32 | u64::from(low));
        }
        h
    }

    fn admissible(&self) -> bool {
        self.inner.admissible()
    }

    fn consistent(&self) -> bool {
        self.inner.consistent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maps::grid::{Connectivity, CostScale};
    use crate::maps::instance::Instance;
    use crate::search::heuristic::HeuristicKind;
    use pqlab_queues::std_binary_heap::StdBinaryHeap;

    #[test]
    fn cached_estimates_give_the_optimal_costs_in_every_search_and_after_the_stamps_wrap() {
        let (eight, fine) = (Connectivity::Eight, CostScale::FINE);
        let instance = Instance::generated("rooms-r8-64-s1".parse().unwrap(), eight, fine, 12);
        let grid = &instance.grid;
        for kind in [HeuristicKind::Octile, HeuristicKind::Differential(4)] {
            let mut h = AnyHeuristic::new(kind, grid, eight, fine).unwrap();
            let moves = crate::maps::moves::Moves::new(grid, eight, fine);
            let mut search = CachedH {
                search: AStar::<StdBinaryHeap, FlatStore>::with_moves(grid, moves),
                // Words left by a search of 2³² searches ago, stamped 1 and 2 with estimates
                // far above any cost here: read as current, they would give wrong answers.
                words: (0..grid.cells() as u64)
                    .map(|i| Cell::new((1 + i % 2) << 32 | 1 << 31))
                    .collect(),
                stamp: u32::MAX - 2,
            };
            for problem in &instance.problems {
                let outcome = search.search(grid, &mut h, None, problem.start, problem.goal);
                let cost = outcome.unwrap().cost;
                assert!(problem.expected.accepts(cost, fine), "{kind}: {cost:?}");
            }
            assert_eq!(search.stamp, instance.problems.len() as u32 - 2, "{kind}");
        }
    }
}
