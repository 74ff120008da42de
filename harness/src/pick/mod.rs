//! `pqlab pick`: which queue for a frontier of N open cells, or for a map, from the
//! committed runs.
//!
//! # The rule
//!
//! The answer is the ranking of the band holding N, from the workloads
//! [`bands::evidence`](crate::analysis::bands::evidence) chooses for it (the one rule, which the report's band tables and
//! the verdicts use too): the asked series' searches in the band; else, for octile A\*
//! with fine costs, the queue alone at held sizes in the band; else the nearest band that
//! the series' searches reached. Either fallback is said in the answer. `--terrain`
//! keeps the searches on obstacle grids or on weighted terrain alone (and no held sizes:
//! the queue alone has no map); without it, a band mixing both says so. The first
//! line names the winner and its tie group and what std's `BinaryHeap` takes over it; no
//! absolute time is interpolated between unrelated maps. `--map` weights the bands by the
//! map's own searches ([`map`]), and `--measure` answers from a measurement on the map.

//! The answer and its first line are [`Answer`]'s (`answer.rs`); its text, the evidence
//! and the tie group, `text.rs`'s; the adoption snippet, `adopt.rs`'s; the query of the
//! flags, `query.rs`'s; the frontier-band lookup, `lookup.rs`'s; the ranking by latency,
//! `latency.rs`'s; the runs to answer from, `runs.rs`'s; a map's survey, `frontier.rs`'s;
//! the answers from timing on this machine, `measure.rs`'s (the timing itself is
//! [`crate::lab::ondemand`]'s).

pub mod frontier;
pub mod map;
pub mod measure;
pub mod trace;

mod adopt;
mod answer;
mod latency;
mod lookup;
mod query;
mod runs;
mod text;

pub use answer::{
    build_answer, Across, Answer, Backing, Promise, Ranked, RankedBy, Shares, TerrainSide,
    TerrainSplit, PROMISE_MAPS,
};
pub use latency::with_latency;
pub use lookup::{answer, evidence_for, for_size, terrain_split};
pub use query::{parse_size, Costs, Keys, Query, MAX_FRONTIER};
pub use runs::{load, load_all};

#[cfg(test)]
mod tests;
