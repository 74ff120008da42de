//! Maps: grids and their movement rules, the Moving AI parsers, the built-in generators,
//! and problems (start, goal, expected answer) on them.

pub mod generate;
pub mod grid;
pub mod instance;
pub mod moves;
pub mod movingai;
pub mod scenario;
