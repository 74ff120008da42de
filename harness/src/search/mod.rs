//! Searches: the one A*, its per-cell stores, the heuristics, the reference Dijkstra that
//! checks it, operation traces and the oracle floor, and other crates' A* (the peers).

pub mod astar;
pub mod check;
pub mod heuristic;
pub mod peers;
pub mod reference;
pub mod store;
pub mod trace;
