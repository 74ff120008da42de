//! Grid maps as the A* sees them: flat arrays indexed by cell, with a blocked border so
//! neighbour lookups never leave the array.
//!
//! A cell holds a terrain class ([`Terrain`]); a move is allowed only between cells of the
//! same class (the Moving AI rule: ground agents stay on ground, water agents in water).
//! Optional per-cell weights make entering a cell cost `weight ×` the step cost (weighted
//! terrain: roads 1, grass 2, swamp 5, ...). Costs are integers in a [`CostScale`].

use std::fmt;

/// A cell's terrain class. Moves connect only cells of one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Terrain {
    /// Out of bounds, walls, and (for ground agents) anything not passable.
    Blocked = 0,
    /// Ground: Moving AI `.`, `G` and `S` (swamp is passable and connected to ground).
    Ground = 1,
    /// Water: Moving AI `W`, connected only to water.
    Water = 2,
    /// Trees: Moving AI `T`. Blocked for ground agents; the Warcraft III scenarios also
    /// contain problems that run entirely through trees.
    Trees = 3,
}

/// 4- or 8-connected movement. Diagonal moves never cut corners: both orthogonal
/// neighbours must be passable (of the same class).
///
/// Written in results as `4` or `8` (the `moves` column).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
pub enum Connectivity {
    /// Up, down, left, right.
    #[serde(rename = "4")]
    #[value(name = "4")]
    Four,
    /// Also the four diagonals, without corner cutting.
    #[serde(rename = "8")]
    #[value(name = "8")]
    Eight,
}

impl Connectivity {
    /// `4` or `8`.
    pub fn token(self) -> &'static str {
        match self {
            Connectivity::Four => "4",
            Connectivity::Eight => "8",
        }
    }
}

/// How a search represents its costs: the integer fixed point of a [`CostScale`], or
/// floating point (`f64`) in units of one straight step, as most hand-written A\*s do.
///
/// Written in results as `integer` or `float` (the `costs` column). A float workload's
/// scale column gives the proportions its costs follow (`fine`: straight 1, diagonal √2).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum CostKind {
    /// Integers in the workload's cost scale.
    #[default]
    Integer,
    /// `f64`, keyed through an order-preserving encoding.
    Float,
}

/// Integer fixed-point costs of a straight and a diagonal step.
///
/// Written in results as its name (`fine`, `coarse`, `unit`, or `straight/diagonal`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde_with::SerializeDisplay,
    serde_with::DeserializeFromStr,
)]
pub struct CostScale {
    /// The cost of a straight step.
    pub straight: u32,
    /// The cost of a diagonal step.
    pub diagonal: u32,
}

impl CostScale {
    /// The default: 275807 / 195025 is a convergent of √2, off by 7e-12, so Moving AI
    /// optimal lengths are reproduced to far better than their printed precision, and
    /// paths up to about 22,000 units keep `g` below 2³² (the longest Moving AI path in
    /// `../shared/movingai` is 4,787 units).
    pub const FINE: CostScale = CostScale { straight: 195_025, diagonal: 275_807 };
    /// 10 and 14: √2 off by 1%, but the key span stays tiny, which is what bucket queues
    /// need. Not exact enough to check against Moving AI lengths.
    pub const COARSE: CostScale = CostScale { straight: 10, diagonal: 14 };
    /// 1 and 1: every move costs one, diagonals included (roguelike movement, where
    /// Chebyshev distance is exact), or 4-connected unit-cost grids. The smallest key span.
    pub const UNIT: CostScale = CostScale { straight: 1, diagonal: 1 };
    /// The road graphs' fixed point, 2¹⁶ units to a length unit (the road module's `SCALE`
    /// is this step): not a step's cost but the unit of road costs, so that a road row's
    /// `scale` column says how its costs are written (integer costs are travel times × 2¹⁶;
    /// float answers are reported rounded to it). Written `road`.
    pub const ROAD: CostScale = CostScale { straight: 1 << 16, diagonal: 1 << 16 };

    /// A cost in this scale, in units of one straight step.
    pub fn to_units(self, cost: u64) -> f64 {
        cost as f64 / self.straight as f64
    }

    /// The name of a built-in scale, or `straight/diagonal`.
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for CostScale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CostScale::FINE => f.write_str("fine"),
            CostScale::COARSE => f.write_str("coarse"),
            CostScale::UNIT => f.write_str("unit"),
            CostScale::ROAD => f.write_str("road"),
            CostScale { straight, diagonal } => write!(f, "{straight}/{diagonal}"),
        }
    }
}

impl std::str::FromStr for CostScale {
    type Err = String;

    /// `fine`, `coarse`, `unit`, or `straight/diagonal` with `0 < straight <= diagonal`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fine" => Ok(CostScale::FINE),
            "coarse" => Ok(CostScale::COARSE),
            "unit" => Ok(CostScale::UNIT),
            "road" => Ok(CostScale::ROAD),
            _ => s
                .split_once('/')
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                .filter(|&(straight, diagonal): &(u32, u32)| 0 < straight && straight <= diagonal)
                .map(|(straight, diagonal)| CostScale { straight, diagonal })
                .ok_or_else(|| {
                    format!("unknown cost scale '{s}': expected fine, coarse, unit or STRAIGHT/DIAGONAL")
                }),
        }
    }
}

/// A grid map: `width × height` cells, stored with a one-cell blocked border.
///
/// Cell `(x, y)` (`x < width`, `y < height`, `(0, 0)` top left) has the index
/// `(y + 1) * stride + x + 1`; indices are the node ids the A* pushes into frontiers, all
/// below [`Grid::cells`].
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    width: u32,
    height: u32,
    stride: u32,
    terrain: Vec<Terrain>,
    /// Empty for uniform costs, else one weight (≥ 1) per padded cell.
    weights: Vec<u8>,
}

impl Grid {
    /// A grid whose cell `(x, y)` has the terrain `terrain(x, y)`, with uniform costs.
    ///
    /// # Panics
    /// If the padded grid has 2³² cells or more (node ids are `u32`).
    pub fn from_fn(width: u32, height: u32, mut terrain: impl FnMut(u32, u32) -> Terrain) -> Self {
        let stride = width + 2;
        let cells = stride as u64 * (height as u64 + 2);
        assert!(cells < u32::MAX as u64, "a {width}x{height} grid has too many cells for u32 ids");
        let mut grid = Grid {
            width,
            height,
            stride,
            terrain: vec![Terrain::Blocked; cells as usize],
            weights: Vec::new(),
        };
        for y in 0..height {
            for x in 0..width {
                let index = grid.index(x, y) as usize;
                grid.terrain[index] = terrain(x, y);
            }
        }
        grid
    }

    /// Gives every cell `(x, y)` the weight `weight(x, y)` (at least 1): entering it costs
    /// that many times the step cost.
    pub fn with_weights(mut self, mut weight: impl FnMut(u32, u32) -> u8) -> Self {
        self.weights = vec![1; self.terrain.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let index = self.index(x, y) as usize;
                self.weights[index] = weight(x, y).max(1);
            }
        }
        self
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The distance between vertically adjacent indices.
    pub fn stride(&self) -> u32 {
        self.stride
    }

    /// The number of indices (padded cells): every node id is below this.
    pub fn cells(&self) -> usize {
        self.terrain.len()
    }

    /// The index of cell `(x, y)`.
    #[inline]
    pub fn index(&self, x: u32, y: u32) -> u32 {
        debug_assert!(x < self.width && y < self.height);
        (y + 1) * self.stride + x + 1
    }

    /// The cell `(x, y)` of an index inside the map.
    #[inline]
    pub fn coords(&self, index: u32) -> (u32, u32) {
        (index % self.stride - 1, index / self.stride - 1)
    }

    /// Whether `(x, y)` lies on the map.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x < self.width && y < self.height
    }

    /// The terrain at an index (the border is [`Terrain::Blocked`]).
    #[inline]
    pub fn terrain(&self, index: u32) -> Terrain {
        self.terrain[index as usize]
    }

    /// The terrain of every index, border included.
    #[inline]
    pub fn terrains(&self) -> &[Terrain] {
        &self.terrain
    }

    /// Per-index weights, or `None` for uniform costs.
    #[inline]
    pub fn weights(&self) -> Option<&[u8]> {
        if self.weights.is_empty() {
            None
        } else {
            Some(&self.weights)
        }
    }

    /// The smallest weight of any cell (1 for uniform maps): heuristics multiply by it to
    /// stay admissible.
    pub fn min_weight(&self) -> u8 {
        self.weights().map_or(1, |w| {
            self.terrain
                .iter()
                .zip(w)
                .filter(|(t, _)| **t != Terrain::Blocked)
                .map(|(_, &w)| w)
                .min()
                .unwrap_or(1)
        })
    }

    /// How many cells are not blocked.
    pub fn passable_cells(&self) -> usize {
        self.terrain.iter().filter(|&&t| t != Terrain::Blocked).count()
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}x{}", self.width, self.height)?;
        if self.weights.is_empty() {
            write!(f, ")")
        } else {
            write!(f, ", weighted)")
        }
    }
}
/// The movement rules a search runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    /// 4- or 8-connected.
    pub connectivity: Connectivity,
    /// Step costs.
    pub scale: CostScale,
}

impl Default for Rules {
    /// The Moving AI rules: 8-connected, fine scale.
    fn default() -> Self {
        Rules { connectivity: Connectivity::Eight, scale: CostScale::FINE }
    }
}
