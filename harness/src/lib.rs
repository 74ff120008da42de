//! The pqlab harness: grid maps, scenarios, one A* generic over the frontier, and the lab.

pub mod analysis;
pub mod astar;
pub mod generate;
pub mod grid;
pub mod heuristic;
pub mod lab;
pub mod moves;
pub mod movingai;
pub mod peers;
pub mod pick;
pub mod reference;
pub mod report;
pub mod results;
pub mod scenario;
pub mod trace;
pub mod validate;
