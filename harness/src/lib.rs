//! The pqlab harness: the stages of the lab, in the order data flows through them.
//!
//! - [`maps`]: grids and their movement rules, the Moving AI parsers, the generators, and
//!   problems with their expected answers: a scenario's optimal lengths, or the exact
//!   costs of the reference Dijkstras (`maps::reference` on grids, `maps::road` on roads).
//! - [`search`]: the searches that take a queue (the tuned A*, the generic A*, jump point
//!   search), their per-cell stores, the heuristics, the [`search::Series`] that names a
//!   search's dimensions for every later stage, traces and the oracle, the answer checks
//!   against those expected answers, and other crates' A*.
//! - [`lab`]: what `cargo bench` runs: workloads, the interleaved sampler, the contenders.
//! - [`results`]: the CSV schema, written and read.
//! - [`analysis`]: workloads, rankings with tie groups, bands, verdicts, noise, diffs.
//! - [`report`] and [`pick`]: what users read.
//! - [`validate`] and [`commands`]: the command line's checks and verbs.
//! - [`format`](mod@format): numbers as every page prints them.
//! - [`rng`]: the one random generator, under every stage.

pub mod analysis;
pub mod commands;
pub mod format;
pub mod lab;
pub mod maps;
pub mod pick;
pub mod report;
pub mod results;
pub mod rng;
pub mod search;
pub mod validate;
