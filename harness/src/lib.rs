//! The pqlab harness: grid maps, scenarios, one A* generic over the frontier, and the lab.

pub mod grid;
pub mod scenario;
