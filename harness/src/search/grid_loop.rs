//! What a grid search loop is to the lab: a [`GridLoop`] built by a [`Build`] hook for a
//! [`Target`] (one workload's map, moves, rules, store, costs and heuristic) with a registry
//! queue, or by a [`LoopBuild`] hook where it takes no queue. The searches implement it; the registry (`super::registry`) lists their hooks.

use pqlab_queues::registry::Entry;

use super::heuristic::AnyHeuristic;
use super::outcome::{Outcome, SearchError};
use super::store::StoreKind;
use super::Series;
use crate::maps::grid::{Grid, Rules};
use crate::maps::moves::{Components, Moves};

/// A grid search loop built with its queue (and store), as the lab checks and times it.
pub trait GridLoop {
    /// Searches from `start` to `goal` with `heuristic` (see [`super::astar::AStar::search`]).
    fn search(
        &mut self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError>;

    /// The last search's path to `goal`, start first, where the loop keeps one.
    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>>;
}

/// What a search is built for: one grid workload, its moves compiled once.
pub struct Target<'a> {
    /// The map.
    pub grid: &'a Grid,
    /// Its moves under the series' rules.
    pub moves: &'a Moves,
    /// The series searched: its setup's costs, its heuristic, its scale and its store (the
    /// tuned A\*'s).
    pub series: Series,
}

impl Target<'_> {
    /// The movement rules of the series.
    pub fn rules(&self) -> Rules {
        self.series.rules()
    }

    /// Refuses another store than the flat array for `search`, a variant of the tuned A\*
    /// measured with the flat array alone (its twin's store).
    pub fn flat_store_only(&self, search: &str) -> Result<(), String> {
        match self.series.store {
            StoreKind::Flat => Ok(()),
            store => Err(format!("{search} is searched with the flat store, not {store}")),
        }
    }
}

/// A search's constructor hook: the loop with registry queue `queue` on `target`, or why
/// that queue cannot take the search's keys there (the row's `n/a`). O(cells).
pub type Build = fn(&Target<'_>, &'static Entry) -> Result<Box<dyn GridLoop>, String>;

/// A queue-free loop's constructor hook: the loop on `target`, searched with `heuristic`
/// (built for the workload), or why it is not timed there: each such loop is timed only
/// where it is exact. O(cells).
pub type LoopBuild = fn(&Target<'_>, &AnyHeuristic) -> Result<Box<dyn GridLoop>, String>;
