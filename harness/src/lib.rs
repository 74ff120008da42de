//! The pqlab harness: grid maps, scenarios, one A* generic over the frontier, and the lab.

pub mod generate;
pub mod grid;
pub mod movingai;
pub mod reference;
pub mod scenario;
