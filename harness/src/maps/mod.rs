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

/// What a grid's passable cells cost: one each (obstacle grids: the generated random, maze,
/// rooms, open and cave maps, and every Moving AI map, whose ground cells all cost one), or
/// each its own weight (the generated weighted, rugged and marsh terrain). A road graph has
/// no terrain. Asked as `pick --terrain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainKind {
    /// Every passable cell costs one: obstacle grids.
    Uniform,
    /// Cells cost their own weights: weighted terrain.
    Weighted,
}

impl TerrainKind {
    /// Both kinds, uniform first.
    pub const ALL: [TerrainKind; 2] = [TerrainKind::Uniform, TerrainKind::Weighted];

    /// `uniform-cost obstacle grids` or `weighted terrain`.
    pub fn describe(self) -> &'static str {
        match self {
            TerrainKind::Uniform => "uniform-cost obstacle grids",
            TerrainKind::Weighted => "weighted terrain",
        }
    }

    /// `uniform` or `weighted`, as `--terrain` takes it.
    pub fn token(self) -> &'static str {
        match self {
            TerrainKind::Uniform => "uniform",
            TerrainKind::Weighted => "weighted",
        }
    }
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
