//! What a search answers: the cost it found with its [`Counters`], or why it could not run
//! ([`SearchError`]). Every search loop answers so, the A\*, jump point search, fringe
//! search and breadth-first search alike, and the lab records the counters in every row.

pub use pqlab_queues::astar::Counters;
use pqlab_queues::PushError;

/// A search's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The cost of the path found, or `None` when the goal is unreachable.
    pub cost: Option<u64>,
    /// What the search did.
    pub counters: Counters,
}

/// Why a search could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The generic A\* of `pqlab-queues` stopped (a rejected key, a cost that overflowed).
    #[error("the generic A*: {0}")]
    Generic(#[from] pqlab_queues::astar::AstarError),
    /// The frontier rejected a key (a monotone queue given a non-monotone key).
    #[error("the frontier rejected a push: {source}{hint}")]
    Frontier {
        /// What the queue said.
        source: PushError,
        /// Why it likely happened.
        hint: &'static str,
    },
    /// A cost too large for the packed state and the composite key (32 bits).
    #[error("f = {f} does not fit 32 bits: use a coarser cost scale or a smaller map")]
    CostOverflow {
        /// The cost that did not fit.
        f: u64,
    },
    /// The map is not the one the context was built for.
    #[error("this search context was built for a map of {built} cells, not this one of {cells}")]
    OtherMap {
        /// The cells of the map searched.
        cells: usize,
        /// The cells of the map the context was built for.
        built: usize,
    },
    /// The start cell is blocked or outside the map.
    #[error("the start cell ({x}, {y}) is blocked or outside the map")]
    BadStart {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// The goal cell is outside the map.
    #[error("the goal cell ({x}, {y}) is outside the map")]
    BadGoal {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// Breadth-first search asked for moves of different costs, where it would answer
    /// with the fewest moves rather than the cheapest path.
    #[error(
        "breadth-first search is exact only when every move costs the same, but {why}: use the A* or fringe search"
    )]
    UnequalCosts {
        /// What makes the costs differ.
        why: String,
    },
    /// A check pass's armed stop ended the search (see [`super::stop`]): no answer.
    #[error("stopped: the check pass ran over its time limit")]
    Stopped,
}
