//! Built-in maps, generated deterministically from a [`MapSpec`], and [`problems`] on them
//! whose exact costs come from the [reference Dijkstra](crate::maps::reference).
//!
//! | kind | short name | what it is |
//! |------|------------|------------|
//! | [`MapKind::Random`] | `random-d25-512-s1` | each cell blocked with probability `d`% (Moving AI `random`) |
//! | [`MapKind::Maze`] | `maze-w8-512-s1` | a perfect maze with corridors `w` wide (Moving AI `maze`) |
//! | [`MapKind::Rooms`] | `rooms-r32-512-s1` | rooms on a `r`-cell pitch joined by doors (Moving AI `room`) |
//! | [`MapKind::Open`] | `open-b16-512-s1` | open ground with `b` rectangular obstacles |
//! | [`MapKind::Cave`] | `cave-f45-i4-512-s1` | caves: `f`% random walls, `i` smoothing steps |
//! | [`MapKind::Weighted`] | `weighted-f32-512-s1` | all ground, weights 1/2/4/8 from noise of feature size `f` |
//! | [`MapKind::Rugged`] | `rugged-h20-512-s1` | all ground, `h`% of cells rough with weights 2 to 255 |
//! | [`MapKind::Marsh`] | `marsh-m40-1024-s1` | all ground, smooth regions covering `m`% of it marsh of weight 40 |
//!
//! Maps are square, `size` cells a side (any size from 1 to [`MAX_SIZE`]; the lab's workloads
//! say which they use). Building one takes O(size²) time and memory: a 4096² map takes a fraction of a
//! second in release builds. The same spec always builds the same grid, on every platform:
//! the only randomness is a local [`SplitMix64`] seeded with the spec's seed.

use std::cmp::Reverse;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::maps::grid::{Connectivity, CostScale, Grid, Terrain};
use crate::maps::moves::Components;
use crate::maps::reference::CostField;
use crate::maps::scenario::{Expected, Problem};
use crate::maps::TerrainKind;
use crate::rng::SplitMix64;

/// The largest side of a generated map: a bound on input (2²⁸ cells), not a tuned value.
pub const MAX_SIZE: u32 = 16_384;

/// The kind of a generated map, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapKind {
    /// Each cell is blocked independently with probability `density`% (0 to 100).
    Random {
        /// The percentage of blocked cells.
        density: u32,
    },
    /// A perfect maze (exactly one path between two open cells): square cells `corridor`
    /// wide on a lattice of pitch `corridor + 1`, walls one cell thick, and the passages of
    /// a random spanning tree opened over their full width. The tree is grown by the
    /// recursive backtracker (a randomised depth-first search, which gives long winding
    /// corridors), run with an explicit stack. When `size + 1` is not a multiple of the
    /// pitch, the strip left over on the right and bottom stays blocked.
    Maze {
        /// The corridor width, 1 to `size`.
        corridor: u32,
    },
    /// Square rooms `room - 1` cells wide, separated by walls one cell thick. Doors one cell
    /// wide, at random places, join the rooms along a random spanning tree, so every room is
    /// reachable; each other wall between two adjacent rooms also gets a door with
    /// probability [`ROOM_EXTRA_DOOR_PERCENT`]%, which makes loops.
    Rooms {
        /// The room pitch (room width plus one wall), 2 to `size`.
        room: u32,
    },
    /// Open ground with `blocks` rectangular obstacles, each side uniform in
    /// `1..=max(1, size / 8)`, placed uniformly (they may overlap).
    Open {
        /// The number of rectangles, 0 to `size`.
        blocks: u32,
    },
    /// Caves from a cellular automaton: each cell starts as a wall with probability `fill`%,
    /// then `steps` times every cell becomes a wall exactly when at least 5 of the 9 cells
    /// of its 3x3 neighbourhood are walls (off-map cells count as walls). Caves can split
    /// into several components.
    Cave {
        /// The percentage of walls before smoothing, 0 to 100.
        fill: u32,
        /// The number of smoothing steps, 0 to 100.
        steps: u32,
    },
    /// All ground with weights from smooth value noise (three octaves, the coarsest with
    /// lattice spacing `feature`): the lowest 15% of cells are roads (weight 1), the next
    /// 40% grass (2), the next 30% hills (4) and the highest 15% swamp (8), up to the
    /// resolution of a 1024-bin histogram of the noise.
    Weighted {
        /// The noise's feature size in cells, 1 to `size`.
        feature: u32,
    },
    /// All ground; each cell is rough with probability `heavy`%, with a weight drawn
    /// uniformly from 2 to 255, else weight 1 (rubble, scree, thickets). Rough cells next
    /// to explored ground stay open long after the wave front passes them, so Dijkstra's
    /// frontier is a thick band rather than a thin ring: the lab's source of frontiers
    /// above 100,000 open cells on maps of a million cells.
    Rugged {
        /// The percentage of rough cells, 0 to 100.
        heavy: u32,
    },
    /// All ground; smooth regions (value noise of feature size [`MARSH_FEATURE`]) covering
    /// `marsh`% of the map are marsh, passable at [`MARSH_WEIGHT`] times the cost. The
    /// octile estimate, scaled by the cheapest cell, cannot see them, so a search floods
    /// the dry land around a marsh before it wades through: whole lakes of open cells,
    /// where rugged terrain's rough cells are scattered one by one. The lab's second
    /// source, beside rugged terrain, of octile frontiers above 10,000 open cells.
    Marsh {
        /// The percentage of marsh, 0 to 100.
        marsh: u32,
    },
}

/// The feature size of marsh regions, in cells. 8 rather than 24: at 1024² with half the
/// map marsh, searches hold as many open cells (about 18,000) in 40 ms instead of 90
/// (`pqlab workloads`), since smaller lakes give the flood a longer, more ragged front.
pub const MARSH_FEATURE: usize = 8;
/// The weight of a marsh cell. Part of the marsh kind's definition, set without a
/// measurement: every `marsh-…` map, and so every run's marsh workloads,
/// depends on it.
pub const MARSH_WEIGHT: u8 = 40;

impl MapKind {
    /// Every kind's short-name shape, for messages: `random-d<percent>`, ...
    pub const SHAPES: [&'static str; 8] = [
        "random-d<percent>",
        "maze-w<corridor>",
        "rooms-r<pitch>",
        "open-b<blocks>",
        "cave-f<percent>-i<steps>",
        "weighted-f<feature>",
        "rugged-h<percent>",
        "marsh-m<percent>",
    ];

    /// What its passable cells cost: one each on obstacle maps, their weights on weighted,
    /// rugged and marsh terrain (as [`MapSpec::build`] gives them).
    pub fn terrain(self) -> TerrainKind {
        match self {
            MapKind::Random { .. }
            | MapKind::Maze { .. }
            | MapKind::Rooms { .. }
            | MapKind::Open { .. }
            | MapKind::Cave { .. } => TerrainKind::Uniform,
            MapKind::Weighted { .. } | MapKind::Rugged { .. } | MapKind::Marsh { .. } => {
                TerrainKind::Weighted
            }
        }
    }

    /// The kind's name: `random`, `maze`, `rooms`, ...
    pub fn name(self) -> &'static str {
        self.parts().0
    }

    /// The kind's name and its parameters with their one-letter tags, as in the short name.
    fn parts(self) -> (&'static str, Vec<(char, u32)>) {
        match self {
            MapKind::Random { density } => ("random", vec![('d', density)]),
            MapKind::Maze { corridor } => ("maze", vec![('w', corridor)]),
            MapKind::Rooms { room } => ("rooms", vec![('r', room)]),
            MapKind::Open { blocks } => ("open", vec![('b', blocks)]),
            MapKind::Cave { fill, steps } => ("cave", vec![('f', fill), ('i', steps)]),
            MapKind::Weighted { feature } => ("weighted", vec![('f', feature)]),
            MapKind::Rugged { heavy } => ("rugged", vec![('h', heavy)]),
            MapKind::Marsh { marsh } => ("marsh", vec![('m', marsh)]),
        }
    }

    /// The inverse of [`MapKind::parts`].
    fn from_parts(name: &str, params: &[(char, u32)]) -> Option<Self> {
        Some(match (name, params) {
            ("random", &[('d', density)]) => MapKind::Random { density },
            ("maze", &[('w', corridor)]) => MapKind::Maze { corridor },
            ("rooms", &[('r', room)]) => MapKind::Rooms { room },
            ("open", &[('b', blocks)]) => MapKind::Open { blocks },
            ("cave", &[('f', fill), ('i', steps)]) => MapKind::Cave { fill, steps },
            ("weighted", &[('f', feature)]) => MapKind::Weighted { feature },
            ("rugged", &[('h', heavy)]) => MapKind::Rugged { heavy },
            ("marsh", &[('m', marsh)]) => MapKind::Marsh { marsh },
            _ => return None,
        })
    }
}

/// A generated map: kind, parameters, size and seed. Its [`Display`](fmt::Display) is a
/// stable short name such as `maze-w8-512-s1`, which [`FromStr`] parses back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MapSpec {
    /// What to generate.
    pub kind: MapKind,
    /// The side of the square map, 1 to [`MAX_SIZE`].
    pub size: u32,
    /// The seed: the same spec always builds the same grid.
    pub seed: u64,
}

/// A map spec or short name that is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(String);

impl MapSpec {
    /// Checks the size and the parameters against the ranges documented on [`MapKind`].
    pub fn validate(&self) -> Result<(), SpecError> {
        let size = self.size;
        let in_range = |what: &str, value: u32, low: u32, high: u32| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(SpecError(format!("{what} must be {low} to {high}, not {value}")))
            }
        };
        in_range("the size", size, 1, MAX_SIZE)?;
        match self.kind {
            MapKind::Random { density } => in_range("the density", density, 0, 100),
            MapKind::Maze { corridor } => in_range("the corridor width", corridor, 1, size),
            MapKind::Rooms { room } => in_range("the room pitch", room, 2, size),
            MapKind::Open { blocks } => in_range("the number of blocks", blocks, 0, size),
            MapKind::Cave { fill, steps } => {
                in_range("the fill", fill, 0, 100)?;
                in_range("the number of steps", steps, 0, 100)
            }
            MapKind::Weighted { feature } => in_range("the feature size", feature, 1, size),
            MapKind::Rugged { heavy } => in_range("the share of rough cells", heavy, 0, 100),
            MapKind::Marsh { marsh } => in_range("the share of marsh", marsh, 0, 100),
        }
    }

    /// Generates the map.
    ///
    /// # Panics
    /// If the spec is not valid (see [`MapSpec::validate`]).
    pub fn build(&self) -> Grid {
        if let Err(error) = self.validate() {
            panic!("invalid map spec {self}: {error}");
        }
        let mut rng = SplitMix64(self.seed);
        let n = self.size as usize;
        let blocked = match self.kind {
            MapKind::Random { density } => (0..n * n).map(|_| rng.percent(density)).collect(),
            MapKind::Maze { corridor } => lattice(n, corridor as usize, Doors::Full, &mut rng),
            MapKind::Rooms { room } => {
                let doors = Doors::Single { extra_percent: ROOM_EXTRA_DOOR_PERCENT };
                lattice(n, room as usize - 1, doors, &mut rng)
            }
            MapKind::Open { blocks } => open_field(n, blocks, &mut rng),
            MapKind::Cave { fill, steps } => cave(n, fill, steps, &mut rng),
            MapKind::Weighted { feature } => {
                let weights = weights(n, feature as usize, &mut rng);
                return Grid::from_fn(self.size, self.size, |_, _| Terrain::Ground)
                    .with_weights(|x, y| weights[y as usize * n + x as usize]);
            }
            MapKind::Rugged { heavy } => {
                return Grid::from_fn(self.size, self.size, |_, _| Terrain::Ground).with_weights(
                    |_, _| if rng.percent(heavy) { 2 + rng.below(254) as u8 } else { 1 },
                );
            }
            MapKind::Marsh { marsh } => {
                let (noise, _) = value_noise(n, MARSH_FEATURE, &mut rng);
                let mut sorted = noise.clone();
                sorted.sort_by(f32::total_cmp);
                // The cells above the (100 - marsh)th percentile of the noise are marsh.
                let cut = (n * n * (100 - marsh as usize) / 100).min(n * n - 1);
                let threshold = if marsh == 0 { f32::INFINITY } else { sorted[cut] };
                return Grid::from_fn(self.size, self.size, |_, _| Terrain::Ground).with_weights(
                    |x, y| {
                        if noise[y as usize * n + x as usize] >= threshold {
                            MARSH_WEIGHT
                        } else {
                            1
                        }
                    },
                );
            }
        };
        Grid::from_fn(self.size, self.size, |x, y| {
            if blocked[y as usize * n + x as usize] {
                Terrain::Blocked
            } else {
                Terrain::Ground
            }
        })
    }
}

impl fmt::Display for MapSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, params) = self.kind.parts();
        f.write_str(name)?;
        for (tag, value) in params {
            write!(f, "-{tag}{value}")?;
        }
        write!(f, "-{}-s{}", self.size, self.seed)
    }
}

impl FromStr for MapSpec {
    type Err = SpecError;

    /// Parses a short name such as `maze-w8-512-s1`, and validates the spec.
    fn from_str(name: &str) -> Result<Self, SpecError> {
        /// A number written in decimal digits only (no sign).
        fn number<T: FromStr>(text: &str) -> Option<T> {
            text.bytes().all(|b| b.is_ascii_digit()).then(|| text.parse().ok()).flatten()
        }
        let bad = || {
            SpecError(format!(
                "{name:?} is not a map name such as `maze-w8-512-s1`: <kind>-<params>-<size>-s<seed> \
                 with kinds {}",
                MapKind::SHAPES.join(", ")
            ))
        };
        let parts: Vec<&str> = name.split('-').collect();
        let [kind, ref params @ .., size, seed] = parts[..] else {
            return Err(bad());
        };
        let params = params
            .iter()
            .map(|param| {
                let tag = param.chars().next()?;
                Some((tag, number(&param[tag.len_utf8()..])?))
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(bad)?;
        let spec = MapSpec {
            kind: MapKind::from_parts(kind, &params).ok_or_else(bad)?,
            size: number(size).ok_or_else(bad)?,
            seed: seed.strip_prefix('s').and_then(number).ok_or_else(bad)?,
        };
        spec.validate().map_err(|error| SpecError(format!("{name}: {error}")))?;
        Ok(spec)
    }
}

/// The chance, in percent, that a wall between adjacent rooms off the spanning tree gets a
/// door. Moving AI's `8room_000`, `32room_000` and `64room_000` have a door in 77% to 80% of
/// such walls; the tree opens about half of them, and 60% of the rest makes about 80%.
pub const ROOM_EXTRA_DOOR_PERCENT: u32 = 60;

/// Sets the cells of the `w × h` rectangle at `(x0, y0)` of an `n × n` mask to `value`.
fn fill(
    mask: &mut [bool],
    n: usize,
    (x0, y0): (usize, usize),
    (w, h): (usize, usize),
    value: bool,
) {
    for y in y0..y0 + h {
        mask[y * n + x0..y * n + x0 + w].fill(value);
    }
}

/// How [`lattice`] opens the wall between two joined cells.
#[derive(Clone, Copy)]
enum Doors {
    /// Over the cells' full width (maze passages); only tree edges are opened.
    Full,
    /// One cell at a random place; walls off the tree also get one with this probability.
    Single { extra_percent: u32 },
}

/// The blocked mask (`n × n`, row-major) of a lattice of open `side × side` squares, pitch
/// `side + 1`, starting at `(0, 0)`, with the walls of a random spanning tree opened as
/// `doors` says. Requires `1 <= side <= n`.
fn lattice(n: usize, side: usize, doors: Doors, rng: &mut SplitMix64) -> Vec<bool> {
    let pitch = side + 1;
    // The last square ends at `cols * pitch - 2 <= n - 1`.
    let cols = (n + 1) / pitch;
    let mut blocked = vec![true; n * n];
    for j in 0..cols {
        for i in 0..cols {
            fill(&mut blocked, n, (i * pitch, j * pitch), (side, side), false);
        }
    }
    let (right, down) = spanning_tree(cols, rng);
    for cell in 0..cols * cols {
        let (i, j) = (cell % cols, cell / cols);
        let (x0, y0) = (i * pitch, j * pitch);
        for (joined, has_neighbour, horizontal) in
            [(right[cell], i + 1 < cols, true), (down[cell], j + 1 < cols, false)]
        {
            if !has_neighbour {
                continue;
            }
            let (offset, width) = match doors {
                Doors::Full if joined => (0, side),
                Doors::Single { extra_percent } if joined || rng.percent(extra_percent) => {
                    (rng.below(side), 1)
                }
                _ => continue,
            };
            let (at, extent) = if horizontal {
                ((x0 + side, y0 + offset), (1, width))
            } else {
                ((x0 + offset, y0 + side), (width, 1))
            };
            fill(&mut blocked, n, at, extent, false);
        }
    }
    blocked
}

/// A random spanning tree of the `cols × cols` lattice by the recursive backtracker, run
/// with an explicit stack: `(right, down)`, whether each cell (row-major) is joined to its
/// right and to its lower neighbour. O(cols²) time and memory.
fn spanning_tree(cols: usize, rng: &mut SplitMix64) -> (Vec<bool>, Vec<bool>) {
    let cells = cols * cols;
    let (mut right, mut down) = (vec![false; cells], vec![false; cells]);
    let mut visited = vec![false; cells];
    let first = rng.below(cells);
    visited[first] = true;
    let mut stack = vec![first];
    while let Some(&cell) = stack.last() {
        let (i, j) = (cell % cols, cell / cols);
        let mut options = [(0, false); 4];
        let mut count = 0;
        for (exists, next, horizontal) in [
            (i > 0, cell.wrapping_sub(1), true),
            (i + 1 < cols, cell + 1, true),
            (j > 0, cell.wrapping_sub(cols), false),
            (j + 1 < cols, cell + cols, false),
        ] {
            if exists && !visited[next] {
                options[count] = (next, horizontal);
                count += 1;
            }
        }
        if count == 0 {
            stack.pop();
            continue;
        }
        let (next, horizontal) = options[rng.below(count)];
        let joints = if horizontal { &mut right } else { &mut down };
        joints[cell.min(next)] = true;
        visited[next] = true;
        stack.push(next);
    }
    (right, down)
}

/// The blocked mask of an [`MapKind::Open`] map.
fn open_field(n: usize, blocks: u32, rng: &mut SplitMix64) -> Vec<bool> {
    let mut blocked = vec![false; n * n];
    let longest = (n / 8).max(1);
    for _ in 0..blocks {
        let (w, h) = (1 + rng.below(longest), 1 + rng.below(longest));
        let at = (rng.below(n - w + 1), rng.below(n - h + 1));
        fill(&mut blocked, n, at, (w, h), true);
    }
    blocked
}

/// The blocked mask of a [`MapKind::Cave`] map. Each step counts walls in 3x3 windows with
/// two separable passes (a row sum, then a column sum of row sums): O(n²) per step.
fn cave(n: usize, percent: u32, steps: u32, rng: &mut SplitMix64) -> Vec<bool> {
    let mut wall: Vec<u8> = (0..n * n).map(|_| u8::from(rng.percent(percent))).collect();
    let mut rows = vec![0u8; n * n];
    for _ in 0..steps {
        for (row_sum, row) in rows.chunks_exact_mut(n).zip(wall.chunks_exact(n)) {
            for x in 0..n {
                let left = if x > 0 { row[x - 1] } else { 1 };
                let right = if x + 1 < n { row[x + 1] } else { 1 };
                row_sum[x] = left + row[x] + right;
            }
        }
        for y in 0..n {
            for x in 0..n {
                let i = y * n + x;
                let above = if y > 0 { rows[i - n] } else { 3 };
                let below = if y + 1 < n { rows[i + n] } else { 3 };
                wall[i] = u8::from(above + rows[i] + below >= 5);
            }
        }
    }
    wall.into_iter().map(|w| w == 1).collect()
}

/// The weights of a [`MapKind::Weighted`] map and the percentage of cells given each,
/// from the lowest noise to the highest: roads, grass, hills, swamp. Part of the kind's
/// definition, set without a measurement.
const TERRAIN_WEIGHTS: [(u8, usize); 4] = [(1, 15), (2, 40), (4, 30), (8, 15)];

/// The weights (`n × n`, row-major) of a [`MapKind::Weighted`] map: noise cut at its
/// quantiles, found with a histogram.
fn weights(n: usize, feature: usize, rng: &mut SplitMix64) -> Vec<u8> {
    /// The histogram's bins: each class's share is met to within one bin's cells. Part of
    /// the kind's definition.
    const BINS: usize = 1024;
    let (noise, top) = value_noise(n, feature, rng);
    let bin = |v: f32| ((v / top * BINS as f32) as usize).min(BINS - 1);
    let mut histogram = [0usize; BINS];
    for &v in &noise {
        histogram[bin(v)] += 1;
    }
    // Each bin takes the class in which its first cell falls, by rank.
    let mut weight_of_bin = [0u8; BINS];
    let (mut class, mut class_end, mut before) = (0, n * n * TERRAIN_WEIGHTS[0].1 / 100, 0);
    for (weight, count) in weight_of_bin.iter_mut().zip(histogram) {
        while before >= class_end && class + 1 < TERRAIN_WEIGHTS.len() {
            class += 1;
            class_end += n * n * TERRAIN_WEIGHTS[class].1 / 100;
        }
        *weight = TERRAIN_WEIGHTS[class].0;
        before += count;
    }
    noise.into_iter().map(|v| weight_of_bin[bin(v)]).collect()
}

/// Value noise on an `n × n` grid and the bound it stays below: up to three octaves of
/// uniform random values on lattices of spacing `feature`, `feature / 2`, `feature / 4`
/// (halving amplitudes), blended between lattice points with smoothstep.
fn value_noise(n: usize, feature: usize, rng: &mut SplitMix64) -> (Vec<f32>, f32) {
    let mut noise = vec![0f32; n * n];
    let (mut spacing, mut amplitude, mut top) = (feature, 1f32, 0f32);
    for _ in 0..3 {
        if spacing == 0 {
            break;
        }
        let points = n / spacing + 2;
        let lattice: Vec<f32> = (0..points * points).map(|_| rng.unit() as f32).collect();
        // For each coordinate: the lattice point before it and the blend towards the next.
        let blend: Vec<(usize, f32)> = (0..n)
            .map(|c| {
                let t = (c % spacing) as f32 / spacing as f32;
                (c / spacing, t * t * (3.0 - 2.0 * t))
            })
            .collect();
        for (y, row) in noise.chunks_exact_mut(n).enumerate() {
            let (gy, ty) = blend[y];
            let (upper, lower) = (&lattice[gy * points..], &lattice[(gy + 1) * points..]);
            for (value, &(gx, tx)) in row.iter_mut().zip(&blend) {
                let top_edge = upper[gx] + (upper[gx + 1] - upper[gx]) * tx;
                let bottom_edge = lower[gx] + (lower[gx + 1] - lower[gx]) * tx;
                *value += amplitude * (top_edge + (bottom_edge - top_edge) * ty);
            }
        }
        top += amplitude;
        amplitude /= 2.0;
        spacing /= 2;
    }
    (noise, top)
}

/// How many problems share one start (and so one reference Dijkstra) in [`problems`]. Set
/// without a measurement; the generated problems, hence every generated
/// workload, depend on it.
pub const GOALS_PER_START: usize = 10;

/// `count` problems on `grid` for `connectivity` and `scale`, deterministic from `seed`,
/// with exact [`Expected::Cost`]s and Moving AI buckets (`floor(cost in units / 4)`).
///
/// Starts are uniform over the cells whose component has two cells or more (drawn by
/// rejection: expected `cells / eligible cells` draws each). From each
/// start, one reference Dijkstra runs to exhaustion; its up to [`GOALS_PER_START`] goals
/// are spread over the costs it reached: goal `j` of `k` is drawn uniformly among the cells
/// whose cost lies within one bucket (4 straight steps) above a target drawn uniformly from
/// the `j`-th of `k` equal slices of `(0, farthest cost]`. So lengths spread from short to
/// the start's farthest cell, like Moving AI buckets. A grid with no such component gets no
/// problems.
///
/// Takes O(count / 10 · C log C) time for components of C cells, and about 16 bytes of
/// memory a cell.
pub fn problems(
    grid: &Grid,
    connectivity: Connectivity,
    scale: CostScale,
    count: usize,
    seed: u64,
) -> Vec<Problem> {
    let mut rng = SplitMix64(seed);
    let components = Components::new(grid);
    let eligible = |(x, y): (u32, u32)| {
        components.label(grid.index(x, y)).is_some_and(|c| components.size(c) >= 2)
    };
    let (width, height) = (grid.width() as usize, grid.height() as usize);
    let mut problems = Vec::with_capacity(count);
    if !(0..grid.height()).any(|y| (0..grid.width()).any(|x| eligible((x, y)))) {
        return problems;
    }
    let band = 4 * u64::from(scale.straight);
    while problems.len() < count {
        // Rejection sampling: uniform over the eligible cells, without listing them.
        let start = loop {
            let cell = (rng.below(width) as u32, rng.below(height) as u32);
            if eligible(cell) {
                break cell;
            }
        };
        let field = CostField::from_start(grid, connectivity, scale, start);
        // The start's component has another cell, which Dijkstra reaches.
        let farthest = field.settled(field.len() - 1).1;
        let goals = GOALS_PER_START.min(count - problems.len());
        for j in 0..goals {
            let target = ((j as f64 + rng.unit()) / goals as f64 * farthest as f64) as u64;
            // Rank 0 is the start; the last rank costs `farthest >= target`.
            let low = field.rank_of(target).max(1);
            let high = field.rank_of(target + band).max(low + 1);
            let (goal, cost) = field.settled(low + rng.below(high - low));
            problems.push(Problem {
                bucket: (scale.to_units(cost) / 4.0) as u32,
                start,
                goal,
                expected: Expected::Cost(cost),
                line: 0,
            });
        }
    }
    problems
}

/// `count` problems on `grid` whose goal cannot be reached, deterministic from `seed`, each
/// [`Expected::Unreachable`] (bucket 0): what a game asks when it does not label its
/// components first. Starts are uniform over the largest component (the lowest label among
/// equals), so a search that does not know the components expands that whole component
/// before it gives up; goals are uniform over the passable cells of every other component
/// (both drawn by rejection: expected `cells / eligible cells` draws each). Each problem is
/// kept only when the reference Dijkstra from its start, run to exhaustion, does not reach
/// its goal; `2 · count` problems are drawn at most, so moves that joined what the
/// components split would give fewer problems, never a hang. A grid with one component or
/// none gets no problems.
///
/// Takes O(count · C log C) time for a largest component of C cells.
pub fn unreachable_problems(
    grid: &Grid,
    connectivity: Connectivity,
    scale: CostScale,
    count: usize,
    seed: u64,
) -> Vec<Problem> {
    let components = Components::new(grid);
    let mut problems = Vec::with_capacity(count);
    let Some(main) =
        (0..components.count() as u32).max_by_key(|&c| (components.size(c), Reverse(c)))
    else {
        return problems;
    };
    let passable: usize = (0..components.count() as u32).map(|c| components.size(c)).sum();
    if passable == components.size(main) {
        return problems;
    }
    let mut rng = SplitMix64(seed);
    let (width, height) = (grid.width() as usize, grid.height() as usize);
    let mut draw = |inside: bool| loop {
        let cell = (rng.below(width) as u32, rng.below(height) as u32);
        match components.label(grid.index(cell.0, cell.1)) {
            Some(c) if (c == main) == inside => break cell,
            _ => {}
        }
    };
    for _ in 0..2 * count {
        if problems.len() == count {
            break;
        }
        let (start, goal) = (draw(true), draw(false));
        let field = CostField::from_start(grid, connectivity, scale, start);
        if field.cost(goal).is_none() {
            problems.push(Problem {
                bucket: 0,
                start,
                goal,
                expected: Expected::Unreachable,
                line: 0,
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maps::reference;

    fn spec(name: &str) -> MapSpec {
        name.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    /// One spec of every kind, with parameters that make every seed matter.
    const KINDS: [&str; 8] = [
        "random-d25-s0",
        "maze-w3-s0",
        "rooms-r8-s0",
        "open-b6-s0",
        "cave-f45-i4-s0",
        "weighted-f8-s0",
        "rugged-h30-s0",
        "marsh-m40-s0",
    ];

    /// `KINDS[i]` at a given size and seed.
    fn sized(kind: &str, size: u32, seed: u64) -> MapSpec {
        spec(&kind.replace("-s0", &format!("-{size}-s{seed}")))
    }

    fn passable(grid: &Grid) -> Vec<(u32, u32)> {
        (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.terrain(grid.index(x, y)) != Terrain::Blocked)
            .collect()
    }

    /// Whether one reference Dijkstra reaches every passable cell.
    fn connected(grid: &Grid) -> bool {
        let open = passable(grid);
        let field =
            reference::CostField::from_start(grid, Connectivity::Four, CostScale::COARSE, open[0]);
        field.len() == open.len()
    }

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        let mut rng = SplitMix64(0);
        let outputs = [rng.next_u64(), rng.next_u64(), rng.next_u64()];
        assert_eq!(outputs, [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]);
    }

    #[test]
    fn the_same_spec_builds_the_same_grid_and_seeds_matter() {
        for kind in KINDS {
            for size in [8, 9, 32, 45, 100] {
                let grid = sized(kind, size, 7).build();
                assert_eq!((grid.width(), grid.height()), (size, size), "{kind}");
                assert_eq!(grid, sized(kind, size, 7).build(), "{kind} {size}");
            }
            assert_ne!(sized(kind, 64, 7).build(), sized(kind, 64, 8).build(), "{kind}");
        }
    }

    /// A kind's terrain is what its grids are: weighted exactly where they carry weights.
    #[test]
    fn each_kind_is_weighted_terrain_exactly_when_its_grid_has_weights() {
        for kind in KINDS {
            let spec = sized(kind, 32, 1);
            let weighted = spec.build().weights().is_some();
            assert_eq!(spec.kind.terrain() == TerrainKind::Weighted, weighted, "{kind}");
        }
    }

    #[test]
    fn the_smallest_maps_build() {
        for name in [
            "random-d50-1-s1",
            "maze-w1-1-s1",
            "maze-w2-2-s1",
            "rooms-r2-2-s1",
            "open-b1-1-s1",
            "cave-f45-i4-1-s1",
            "weighted-f1-1-s1",
            "rugged-h50-1-s1",
            "marsh-m50-1-s1",
            "marsh-m100-2-s1",
        ] {
            let grid = spec(name).build();
            assert_eq!((grid.width(), grid.height()), (spec(name).size, spec(name).size), "{name}");
        }
    }

    #[test]
    fn large_maps_build() {
        for kind in KINDS {
            let grid = sized(kind, 1024, 1).build();
            assert_eq!((grid.width(), grid.height()), (1024, 1024));
            assert!(grid.passable_cells() > 1024 * 1024 / 4, "{kind}");
        }
    }

    #[test]
    fn mazes_are_perfect() {
        for (corridor, size) in
            [(1, 32), (1, 33), (2, 50), (3, 32), (8, 100), (32, 512), (5, 5), (9, 10)]
        {
            let grid = spec(&format!("maze-w{corridor}-{size}-s3")).build();
            assert!(connected(&grid), "maze-w{corridor}-{size}: an open cell is unreachable");
            // A spanning tree of c cells: c squares plus c - 1 passages, so no loops.
            let w = corridor as usize;
            let cells = ((size as usize + 1) / (w + 1)).pow(2);
            assert_eq!(
                grid.passable_cells(),
                cells * w * w + (cells - 1) * w,
                "maze-w{corridor}-{size}"
            );
        }
    }

    #[test]
    fn rooms_are_connected() {
        for (room, size) in [(2, 32), (8, 64), (8, 70), (32, 512), (64, 100)] {
            let grid = spec(&format!("rooms-r{room}-{size}-s5")).build();
            assert!(connected(&grid), "rooms-r{room}-{size}");
            let rooms = ((size as usize + 1) / room as usize).pow(2);
            let interiors = rooms * (room as usize - 1).pow(2);
            // At least the c - 1 doors of the spanning tree, at most one per shared wall.
            let doors = grid.passable_cells() - interiors;
            let walls = 2
                * ((size as usize + 1) / room as usize)
                * ((size as usize + 1) / room as usize - 1);
            assert!((rooms - 1..=walls).contains(&doors), "rooms-r{room}-{size}: {doors} doors");
        }
    }

    #[test]
    fn random_density_and_open_fields() {
        let blocked = |name: &str| {
            let grid = spec(name).build();
            1.0 - grid.passable_cells() as f64 / (grid.width() as f64).powi(2)
        };
        assert!((blocked("random-d25-256-s1") - 0.25).abs() < 0.01);
        assert_eq!(blocked("random-d0-64-s1"), 0.0);
        assert_eq!(blocked("random-d100-64-s1"), 1.0);
        assert_eq!(blocked("open-b0-64-s1"), 0.0);
        let few = blocked("open-b16-512-s1");
        assert!(few > 0.0 && few < 0.25, "{few}");
    }

    #[test]
    fn cave_steps_follow_the_four_five_rule() {
        let (n, fill) = (40, 45);
        let mut wall = cave(n, fill, 0, &mut SplitMix64(9));
        for _ in 0..3 {
            // The rule, cell by cell: at least 5 walls in the 3x3 window, off-map = wall.
            wall = (0..n * n)
                .map(|i| {
                    let (x, y) = ((i % n) as i64, (i / n) as i64);
                    let walls = (-1..=1)
                        .flat_map(|dy| (-1..=1).map(move |dx| (x + dx, y + dy)))
                        .filter(|&(x, y)| {
                            !(0..n as i64).contains(&x)
                                || !(0..n as i64).contains(&y)
                                || wall[y as usize * n + x as usize]
                        })
                        .count();
                    walls >= 5
                })
                .collect();
        }
        assert_eq!(cave(n, fill, 3, &mut SplitMix64(9)), wall);
    }

    #[test]
    fn weighted_maps_use_four_weights_in_their_shares() {
        let grid = spec("weighted-f32-512-s2").build();
        assert_eq!(grid.passable_cells(), 512 * 512);
        let mut counts = [0usize; 9];
        let weights = grid.weights().expect("a weighted map");
        for (x, y) in passable(&grid) {
            counts[weights[grid.index(x, y) as usize] as usize] += 1;
        }
        for (weight, percent) in TERRAIN_WEIGHTS {
            let share = counts[weight as usize] as f64 / (512.0 * 512.0);
            assert!((share - percent as f64 / 100.0).abs() < 0.02, "weight {weight}: {share}");
        }
        assert_eq!(grid.min_weight(), 1);
    }

    #[test]
    fn marsh_covers_its_share_in_regions_and_rugged_its_share_in_single_cells() {
        let grid = spec("marsh-m40-512-s3").build();
        assert_eq!(grid.passable_cells(), 512 * 512);
        let weights = grid.weights().expect("a weighted map");
        let marsh = |x: u32, y: u32| weights[grid.index(x, y) as usize] == MARSH_WEIGHT;
        assert!(weights.iter().all(|&w| w == 1 || w == MARSH_WEIGHT));
        let cells = passable(&grid);
        let share = cells.iter().filter(|&&(x, y)| marsh(x, y)).count() as f64 / cells.len() as f64;
        assert!((share - 0.40).abs() < 0.01, "{share}");
        // Regions: most marsh cells' right neighbours are marsh too (noise, not salt).
        let (mut pairs, mut both) = (0, 0);
        for &(x, y) in cells.iter().filter(|&&(x, y)| x + 1 < 512 && marsh(x, y)) {
            pairs += 1;
            both += usize::from(marsh(x + 1, y));
        }
        assert!(both as f64 / pairs as f64 > 0.8, "{both} of {pairs}");
        assert!(spec("marsh-m0-64-s1").build().weights().unwrap().iter().all(|&w| w == 1));

        let grid = spec("rugged-h30-512-s3").build();
        let weights = grid.weights().expect("a weighted map");
        let rough = weights.iter().filter(|&&w| w >= 2).count() as f64 / (512.0 * 512.0);
        assert!((rough - 0.30).abs() < 0.01, "{rough}");
    }

    #[test]
    fn names_round_trip_and_bad_ones_are_rejected() {
        let spec = MapSpec { kind: MapKind::Cave { fill: 45, steps: 4 }, size: 512, seed: 1 };
        assert_eq!(spec.to_string(), "cave-f45-i4-512-s1");
        for name in KINDS.map(|kind| kind.replace("-s0", "-512-s18446744073709551615")) {
            let parsed = self::spec(&name);
            assert_eq!(parsed.to_string(), name);
            let json = serde_json::to_string(&parsed).unwrap();
            assert_eq!(serde_json::from_str::<MapSpec>(&json).unwrap(), parsed);
        }
        assert_eq!(
            serde_json::to_string(&self::spec("maze-w8-512-s1")).unwrap(),
            r#"{"kind":{"maze":{"corridor":8}},"size":512,"seed":1}"#
        );
        for bad in [
            "",
            "maze",
            "maze-512-s1",
            "maze-w8-512",
            "maze-w8-512-1",
            "maze-x8-512-s1",
            "maze-w+8-512-s1",
            "maze-w8-w8-512-s1",
            "cave-i4-f45-512-s1",
            "tunnel-w8-512-s1",
            "maze-w8-512-s-1",
        ] {
            assert!(
                bad.parse::<MapSpec>().unwrap_err().to_string().contains("is not a map name"),
                "{bad}"
            );
        }
        for (bad, message) in [
            ("maze-w0-512-s1", "maze-w0-512-s1: the corridor width must be 1 to 512, not 0"),
            ("maze-w8-0-s1", "maze-w8-0-s1: the size must be 1 to 16384, not 0"),
            ("random-d101-64-s1", "random-d101-64-s1: the density must be 0 to 100, not 101"),
            ("rooms-r1-64-s1", "rooms-r1-64-s1: the room pitch must be 2 to 64, not 1"),
            (
                "cave-f45-i101-64-s1",
                "cave-f45-i101-64-s1: the number of steps must be 0 to 100, not 101",
            ),
            ("weighted-f65-64-s1", "weighted-f65-64-s1: the feature size must be 1 to 64, not 65"),
            ("open-b65-64-s1", "open-b65-64-s1: the number of blocks must be 0 to 64, not 65"),
            ("marsh-m101-64-s1", "marsh-m101-64-s1: the share of marsh must be 0 to 100, not 101"),
        ] {
            assert_eq!(bad.parse::<MapSpec>().unwrap_err().to_string(), message);
        }
    }

    #[test]
    #[should_panic(expected = "invalid map spec maze-w9-8-s1")]
    fn building_an_invalid_spec_panics() {
        MapSpec { kind: MapKind::Maze { corridor: 9 }, size: 8, seed: 1 }.build();
    }

    #[test]
    fn components_follow_terrain_classes() {
        use crate::maps::movingai::terrain_of;
        let rows = ["..W.", "@.W.", "TT@.", "..T@"];
        let grid = Grid::from_fn(4, 4, |x, y| {
            terrain_of(rows[y as usize].as_bytes()[x as usize] as char).unwrap()
        });
        let components = Components::new(&grid);
        // Ground top left, water, ground right, trees, the tree at (2,3), ground bottom left.
        let of = |(x, y): (u32, u32)| components.label(grid.index(x, y));
        assert_eq!(of((1, 2)), of((0, 2)));
        assert_ne!(of((2, 3)), of((1, 2)), "diagonal trees are apart without corner cutting");
        assert_eq!(of((0, 0)), of((1, 1)));
        assert_ne!(of((0, 0)), of((3, 0)));
        assert_ne!(of((0, 3)), of((0, 0)));
        assert_eq!(of((0, 1)), None);
        assert_eq!(components.count(), 6);
        assert_eq!(components.size(of((3, 0)).unwrap()), 3);
    }

    #[test]
    fn problems_have_exact_costs_and_spread_buckets() {
        let scale = CostScale::FINE;
        for (name, connectivity) in [
            ("cave-f45-i4-64-s1", Connectivity::Eight),
            ("maze-w2-64-s1", Connectivity::Four),
            ("weighted-f8-48-s1", Connectivity::Eight),
            ("rooms-r8-64-s1", Connectivity::Eight),
        ] {
            let grid = spec(name).build();
            let problems = problems(&grid, connectivity, scale, 45, 11);
            assert_eq!(problems.len(), 45, "{name}");
            assert_eq!(problems, super::problems(&grid, connectivity, scale, 45, 11), "{name}");
            let components = Components::new(&grid);
            for problem in &problems {
                assert_ne!(problem.start, problem.goal, "{name}");
                let label = |(x, y): (u32, u32)| components.label(grid.index(x, y));
                assert_eq!(label(problem.start), label(problem.goal));
                let cost = reference::cost(&grid, connectivity, scale, problem.start, problem.goal);
                assert_eq!(Expected::Cost(cost.unwrap()), problem.expected, "{name}: {problem:?}");
                assert_eq!(problem.bucket, (scale.to_units(cost.unwrap()) / 4.0).floor() as u32);
            }
            let mut buckets: Vec<u32> = problems.iter().map(|p| p.bucket).collect();
            buckets.sort_unstable();
            buckets.dedup();
            assert!(buckets.len() >= 8, "{name}: buckets {buckets:?}");
        }
    }

    #[test]
    fn problems_need_a_component_of_two_cells() {
        let scale = CostScale::COARSE;
        let checkerboard =
            Grid::from_fn(
                8,
                8,
                |x, y| if (x + y) % 2 == 0 { Terrain::Ground } else { Terrain::Blocked },
            );
        assert_eq!(problems(&checkerboard, Connectivity::Eight, scale, 10, 1), []);
        assert_eq!(
            problems(&spec("random-d100-8-s1").build(), Connectivity::Four, scale, 10, 1),
            []
        );
        let pair = Grid::from_fn(8, 8, |x, y| {
            if y == 3 && (x == 4 || x == 5) {
                Terrain::Water
            } else {
                Terrain::Blocked
            }
        });
        let found = problems(&pair, Connectivity::Four, scale, 3, 1);
        assert_eq!(found.len(), 3);
        assert!(found.iter().all(|p| p.expected == Expected::Cost(10) && p.bucket == 0));
    }

    /// Rule: unreachable problems are deterministic from their seed, start in the largest
    /// component and end in another, where the reference Dijkstra finds no path; a map of
    /// one component gets none.
    #[test]
    fn unreachable_problems_lie_outside_the_start_component() {
        let (scale, eight) = (CostScale::FINE, Connectivity::Eight);
        let grid = spec("cave-f45-i4-64-s3").build();
        let drawn = unreachable_problems(&grid, eight, scale, 6, 5);
        assert_eq!(drawn.len(), 6);
        assert_eq!(drawn, unreachable_problems(&grid, eight, scale, 6, 5));
        assert_ne!(drawn, unreachable_problems(&grid, eight, scale, 6, 6));
        let components = Components::new(&grid);
        let label = |(x, y): (u32, u32)| components.label(grid.index(x, y)).expect("passable");
        let largest = (0..components.count() as u32).map(|c| components.size(c)).max();
        for p in &drawn {
            assert_eq!(Some(components.size(label(p.start))), largest, "{p:?}");
            assert_ne!(label(p.start), label(p.goal), "{p:?}");
            assert_eq!(reference::cost(&grid, eight, scale, p.start, p.goal), None, "{p:?}");
            assert_eq!((p.expected, p.bucket), (Expected::Unreachable, 0));
        }
        assert_eq!(unreachable_problems(&spec("rooms-r8-64-s1").build(), eight, scale, 6, 5), []);
    }
}
