//! Maps: grids and their movement rules, the Moving AI parsers, the built-in generators,
//! and problems (start, goal, expected answer) on them.

pub mod generate;
pub mod grid;
pub mod instance;
pub mod moves;
pub mod movingai;
pub mod reference;
pub mod road;
pub mod scenario;

/// The kind of graph a workload searches: a grid map, or a graph that is not a grid.
///
/// Written in results as `grid` or `road` (the `graph` column).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum GraphKind {
    /// A grid map (generated or Moving AI), 4- or 8-connected.
    #[default]
    Grid,
    /// A road-like graph: points in the plane joined to their nearest neighbours, with
    /// Euclidean costs and a straight-line heuristic.
    Road,
}

impl GraphKind {
    /// `grid` or `road`.
    pub fn token(self) -> &'static str {
        match self {
            GraphKind::Grid => "grid",
            GraphKind::Road => "road",
        }
    }
}
