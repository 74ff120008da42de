//! The pqlab harness: grid maps, scenarios, one A* generic over the frontier, and the lab.

pub mod analysis;
pub mod format;
pub mod lab;
pub mod maps;
pub mod pick;
pub mod report;
pub mod results;
pub mod search;
pub mod validate;
