//! The pqlab harness: grid maps, scenarios, one A* generic over the frontier, and the lab.

pub mod analysis;
pub mod astar;
pub mod grid;
pub mod heuristic;
pub mod moves;
pub mod pick;
pub mod report;
pub mod results;
pub mod scenario;
pub mod trace;
pub mod validate;
