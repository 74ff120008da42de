//! Road-like graphs: the lab's graphs that are not grids, generated deterministically from
//! a [`RoadSpec`] such as `road-n100000-k4-c3-s1`, and [`problems`] on them whose exact
//! costs come from a [reference Dijkstra](dijkstra) written here.
//!
//! # What is generated
//!
//! `n` points drawn uniformly (SplitMix64, the harness's one generator, seeded with the
//! spec's seed) on a square of side √n length units, so that there is one point per square
//! unit whatever `n`. Coordinates are integers in fixed point, [`SCALE`] units to a length
//! unit, which makes every squared distance an exact integer.
//!
//! Each point has a road class `0..c`: it is of class `ℓ` or above with probability
//! `1 / CLASS_RATIO^ℓ` ([`CLASS_RATIO`]), capped at `c - 1`. For each class `ℓ`, every point
//! of class `ℓ` or above is joined to its `k` nearest points of class `ℓ` or above: class 0
//! is the `k`-nearest-neighbour graph of all points (streets), class 1 that of one point
//! in [`CLASS_RATIO`] (arterials, longer and sparser), and so on, as towns are joined by
//! highways. Edges are made symmetric (joined to a neighbour, joined from it), and a pair
//! joined in several classes keeps its highest. A road of class `ℓ` is travelled at speed
//! `4^ℓ` ([`SPEED_SHIFT`]); its cost is its travel time, `length / 4^ℓ`. With `c = 1` the
//! graph is the plain Euclidean `k`-nearest-neighbour graph, costs are lengths, and the
//! straight-line heuristic is tight; with more classes it is `distance / top speed`, as in real routing,
//! and much weaker, which is what makes A*'s frontier wide (see [`WORKLOADS`]).
//!
//! Only the largest connected component is kept (ties: the one holding the lowest id), its
//! nodes renumbered in order, so every node reaches every other. Node ids follow a
//! row-major walk of the cells of the spatial index (below), so neighbours in the plane
//! have nearby ids and the search's per-node state has locality, as a road graph
//! renumbered by a routing library would.
//!
//! # Costs, in two representations
//!
//! With `D = dx² + dy²` (an exact integer), `L(u, v) = √D` the exact distance in units,
//! and `2^s` the edge's speed (`s = 2ℓ` for class `ℓ`):
//!
//! - **integer** ([`RoadGraph::successors`]): `⌈L / 2^s⌉`, computed exactly with integer
//!   square roots (`⌈√D / 2^s⌉ = ⌈√⌈D / 4^s⌉⌉`): the length × [`SCALE`] ÷ speed, rounded
//!   up. It fits `u32` (coordinates are below 2²⁸), and is returned as `u64`;
//! - **float** ([`RoadGraph::successors_f64`]): `√D / (SCALE · 2^s)` in `f64`, the travel
//!   time in length units (the length when `c = 1`).
//!
//! The [`StraightLine`] heuristic is admissible and consistent in both: see its proof.
//!
//! # Complexity
//!
//! Generation takes O(n·k) expected time for the nearest neighbours (a uniform grid of
//! cells holding two points each on average, searched ring by ring around each point) plus
//! O(n·k·log(n·k)) to sort the edges, and O(n·k) memory. The graph takes about
//! 12 bytes a node and 16 bytes a directed edge (u32 target, u32 integer cost, f64 cost);
//! directed edges number at least `k·n` (1.36·k·n on the [`WORKLOADS`]). A search's
//! accessors allocate nothing. Each run of the reference Dijkstra takes O(E log E) time
//! and 8 bytes a node.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::str::FromStr;

use crate::maps::grid::CostScale;
use crate::rng::SplitMix64;

/// The most nodes a spec may ask for: 2²⁴, which keeps coordinates below 2²⁸ (so squared
/// distances fit `u64`, lengths `u32`, and the float heuristic's margin holds) and the
/// graph within about 2 GB (3 GB while generating).
pub const MAX_NODES: u32 = 1 << 24;

/// The most neighbours a spec may ask for: a bound on input, not a tuned value.
pub const MAX_NEIGHBOURS: u32 = 16;

/// The most road classes a spec may ask for: speeds 1, 4, 16 and 64.
pub const MAX_CLASSES: u32 = 4;

/// Fixed-point units to a length unit ([`CostScale::ROAD`]'s step): coordinates, and
/// integer costs, are lengths × 2¹⁶. A power of two, so that the float costs divide by it
/// exactly. Edges are about half a unit to two units long, so an integer edge cost is about
/// 2¹⁵ to 2¹⁷ at speed 1 (and equal costs, hence ties, are rare), like the grids' fine
/// scale (195,025 a step).
pub const SCALE: u64 = CostScale::ROAD.straight as u64;

/// One point in this many of class `ℓ` or above is also of class `ℓ + 1`. Chosen by
/// measurement (`cargo test --release -p pqlab --test road -- --ignored --nocapture
/// measure`, on `road-n300000-k4-c3-s1`, the constants edited for each
/// variant): with speeds ×4 a class, one in 8 gave searches 10,069 open entries at most
/// on average (22,700 at the most), one in 4 8,901, one in 16 8,082.
pub const CLASS_RATIO: usize = 8;

/// A road of class `ℓ` is travelled at speed `2^(SPEED_SHIFT · ℓ)`: 1, 4, 16, 64 (a
/// track, a street, a main road, a motorway). Powers of two, so that float costs divide
/// exactly. Chosen by the same measurement as [`CLASS_RATIO`]: the most open entries
/// averaged 3,619 with speeds ×2 a class and 10,069 with ×4 (one point in 8 a class up);
/// with one in 16, 8,082 with ×4 at 21 ms a search, and 26,130 with ×8 at 105 ms. ×4 with
/// four classes reaches the lab's largest frontiers at half a million nodes (see
/// [`WORKLOADS`]); ×2 would need millions.
pub const SPEED_SHIFT: u8 = 2;

/// The factor the float heuristic is shrunk by, `1 - 2⁻²⁰`: it absorbs the rounding of
/// the float square roots and of the sum `cost + h` (see [`StraightLine`]). It weakens the
/// estimate by one part in a million.
pub const FLOAT_SHRINK: f64 = 1.0 - 1.0 / (1u64 << 20) as f64;

/// The lab's road workloads, smallest first: the same family (four classes, speeds ×4 a
/// class, 4 neighbours) at three sizes, whose searches' most open entries at once span
/// about 2,000 to 70,000. Measured with the generic dense A* (`pqlab_queues::astar_dense`),
/// std's binary heap (duplicates: stale entries count), integer costs and the straight-line
/// heuristic, over 20 problems each (`cargo test --release -p pqlab --test road --
/// --ignored --nocapture measure`, with `ROAD_GRAPHS=<name>` under `/usr/bin/time -v` for
/// the peak memory of the whole run: generation, 4 reference Dijkstras, 20 searches),
/// on the 2-core Xeon the lab's runs use:
///
/// | graph | nodes kept | open entries, mean (max) | time per search | generation | peak memory |
/// |---|---|---|---|---|---|
/// | `road-n10000-k4-c4-s1` | 9,995 | 2,094 (2,836) | 1.2 ms | 0.02 s | 5 MB |
/// | `road-n100000-k4-c4-s1` | 99,988 | 13,451 (21,626) | 16 ms | 0.15 s | 24 MB |
/// | `road-n500000-k4-c4-s1` | 499,889 | 33,627 (70,785) | 107 ms | 0.84 s | 106 MB |
///
/// The plain Euclidean graph (`c1`) keeps frontiers narrow: 884 on average (1,373 at most)
/// at 300,000 nodes, since the tight heuristic leads A* along a thin band; a million
/// nodes of `c4` reach 60,419 (124,899) at 256 ms a search.
pub const WORKLOADS: [&str; 3] =
    ["road-n10000-k4-c4-s1", "road-n100000-k4-c4-s1", "road-n500000-k4-c4-s1"];

/// A generated road graph: node count, neighbours, road classes and seed. Its
/// [`Display`](fmt::Display) is a stable short name such as `road-n100000-k4-c3-s1`, which
/// [`FromStr`] parses back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoadSpec {
    /// The number of points drawn, 2 to [`MAX_NODES`] (the graph keeps the largest
    /// component of them).
    pub nodes: u32,
    /// Each point is joined to this many nearest points (per class): 1 to
    /// [`MAX_NEIGHBOURS`], and below `nodes`.
    pub neighbours: u32,
    /// The number of road classes, 1 to [`MAX_CLASSES`]; class `ℓ` is travelled at speed
    /// `4^ℓ` ([`SPEED_SHIFT`]).
    pub classes: u32,
    /// The seed: the same spec always builds the same graph.
    pub seed: u64,
}

/// A road spec or short name that is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RoadSpecError(String);

impl RoadSpec {
    /// Checks the parameters against the ranges documented on the fields.
    pub fn validate(&self) -> Result<(), RoadSpecError> {
        let in_range = |what: &str, value: u32, low: u32, high: u32| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(RoadSpecError(format!("{what} must be {low} to {high}, not {value}")))
            }
        };
        in_range("the node count", self.nodes, 2, MAX_NODES)?;
        let most = MAX_NEIGHBOURS.min(self.nodes - 1);
        in_range("the neighbour count", self.neighbours, 1, most)?;
        in_range("the class count", self.classes, 1, MAX_CLASSES)
    }

    /// Generates the graph: see the [module documentation](self). Takes about a second
    /// for half a million nodes in release builds (see [`WORKLOADS`]).
    pub fn build(&self) -> Result<RoadGraph, RoadSpecError> {
        self.validate().map_err(|error| RoadSpecError(format!("{self}: {error}")))?;
        let n = self.nodes as usize;
        let mut rng = SplitMix64(self.seed);
        // The side: √n units, rounded to the fixed point; at most 2¹² · 2¹⁶ = 2²⁸.
        let width = ((n as f64).sqrt() * SCALE as f64).round() as usize;
        let top = self.classes as u8 - 1;
        let mut points = Vec::with_capacity(n);
        let mut drawn_classes = Vec::with_capacity(n);
        for _ in 0..n {
            points.push((rng.below(width) as u32, rng.below(width) as u32));
            let mut class = 0;
            while class < top && rng.below(CLASS_RATIO) == 0 {
                class += 1;
            }
            drawn_classes.push(class);
        }
        // Ids in the cells' row-major order.
        let order = CellIndex::new(&points).order;
        let points: Vec<(u32, u32)> = order.iter().map(|&i| points[i as usize]).collect();
        let classes: Vec<u8> = order.iter().map(|&i| drawn_classes[i as usize]).collect();
        let mut edges = Vec::new();
        for class in 0..=top {
            let members: Vec<u32> =
                (0..n as u32).filter(|&id| classes[id as usize] >= class).collect();
            let at: Vec<(u32, u32)> = members.iter().map(|&id| points[id as usize]).collect();
            let (k, near) = nearest(&at, self.neighbours as usize);
            for (i, near) in near.chunks_exact(k.max(1)).enumerate() {
                for &j in near {
                    let (u, v) = (members[i], members[j as usize]);
                    let speed = SPEED_SHIFT * class;
                    edges.extend([Edge::pack(u, v, speed), Edge::pack(v, u, speed)]);
                }
            }
        }
        Ok(RoadGraph::new(&points, edges, SPEED_SHIFT * top))
    }
}

impl fmt::Display for RoadSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let RoadSpec { nodes, neighbours, classes, seed } = self;
        write!(f, "road-n{nodes}-k{neighbours}-c{classes}-s{seed}")
    }
}

impl FromStr for RoadSpec {
    type Err = RoadSpecError;

    /// Parses a short name such as `road-n100000-k4-c3-s1`, and validates the spec.
    fn from_str(name: &str) -> Result<Self, RoadSpecError> {
        /// The number after `tag`, written in decimal digits only (no sign).
        fn tagged<T: FromStr>(part: &str, tag: char) -> Option<T> {
            let digits = part.strip_prefix(tag)?;
            digits.bytes().all(|b| b.is_ascii_digit()).then(|| digits.parse().ok()).flatten()
        }
        let bad = || {
            RoadSpecError(format!(
                "{name:?} is not a road graph name such as `road-n100000-k4-c3-s1`: \
                 road-n<nodes>-k<neighbours>-c<classes>-s<seed>"
            ))
        };
        let parts: Vec<&str> = name.split('-').collect();
        let ["road", nodes, neighbours, classes, seed] = parts[..] else {
            return Err(bad());
        };
        let spec = RoadSpec {
            nodes: tagged(nodes, 'n').ok_or_else(bad)?,
            neighbours: tagged(neighbours, 'k').ok_or_else(bad)?,
            classes: tagged(classes, 'c').ok_or_else(bad)?,
            seed: tagged(seed, 's').ok_or_else(bad)?,
        };
        spec.validate().map_err(|error| RoadSpecError(format!("{name}: {error}")))?;
        Ok(spec)
    }
}

/// A directed edge while building, packed in a `u64` so that sorting orders edges by tail,
/// then head, then fastest first: the tail in bits 40 to 63, the head in bits 8 to 31
/// (ids are below 2²⁴), and `255 - e` in the low byte, for a speed of `2^e`.
struct Edge;

impl Edge {
    fn pack(from: u32, to: u32, speed: u8) -> u64 {
        u64::from(from) << 40 | u64::from(to) << 8 | u64::from(255 - speed)
    }

    fn from(edge: u64) -> u32 {
        (edge >> 40) as u32
    }

    fn to(edge: u64) -> u32 {
        (edge >> 8) as u32 & 0xFF_FFFF
    }

    fn speed(edge: u64) -> u8 {
        255 - edge as u8
    }
}

/// A road graph in compressed sparse rows: node `u`'s edges are
/// `offsets[u]..offsets[u + 1]` of `targets`, `costs` and `times`, by increasing target.
///
/// Invariants: symmetric (an edge `u → v` has its twin `v → u` of the same speed and
/// costs), no self-loops, no parallel edges, connected (from a spec). Node ids are `u32`.
#[derive(Clone, Debug, PartialEq)]
pub struct RoadGraph {
    /// Each node's coordinates, in fixed point ([`SCALE`] to a unit).
    points: Vec<(u32, u32)>,
    /// `nodes + 1` offsets into the edge arrays.
    offsets: Vec<u32>,
    /// Each edge's head.
    targets: Vec<u32>,
    /// Each edge's integer cost, `⌈L / speed⌉`.
    costs: Vec<u32>,
    /// Each edge's float cost, `√D / (SCALE · speed)`.
    times: Vec<f64>,
    /// The top speed's exponent: that of the spec's highest class (whether or not any
    /// point drew it).
    top: u8,
}

impl RoadGraph {
    /// The graph of `points` and directed `edges` ([`Edge`]s: both directions given, in
    /// any order, perhaps repeated with several speeds, of which the fastest is kept), with
    /// speeds up to `2^top`, restricted to its largest connected component (ties: the one
    /// holding the lowest id) with its nodes renumbered in order. Self-loops are dropped.
    /// Every edge's ends must be below `points.len()`, every speed exponent at most `top`.
    /// O(E log E) time; the edges are reused in place.
    fn new(points: &[(u32, u32)], mut edges: Vec<u64>, top: u8) -> RoadGraph {
        edges.sort_unstable();
        edges.dedup_by_key(|e| *e >> 8);
        edges.retain(|&e| Edge::from(e) != Edge::to(e));
        let offsets = |edges: &[u64], nodes: usize| {
            let mut offsets = vec![0u32; nodes + 1];
            for &e in edges {
                offsets[Edge::from(e) as usize + 1] += 1;
            }
            for i in 1..offsets.len() {
                offsets[i] += offsets[i - 1];
            }
            offsets
        };
        // Components, by depth-first search over the sorted edges.
        let n = points.len();
        let starts = offsets(&edges, n);
        let mut label = vec![u32::MAX; n];
        let (mut largest, mut largest_size) = (0, 0);
        let mut stack = Vec::new();
        for root in 0..n as u32 {
            if label[root as usize] != u32::MAX {
                continue;
            }
            label[root as usize] = root;
            stack.push(root);
            let mut size = 0;
            while let Some(u) = stack.pop() {
                size += 1;
                let range = starts[u as usize] as usize..starts[u as usize + 1] as usize;
                for &e in &edges[range] {
                    let v = Edge::to(e) as usize;
                    if label[v] == u32::MAX {
                        label[v] = root;
                        stack.push(v as u32);
                    }
                }
            }
            if size > largest_size {
                (largest, largest_size) = (root, size);
            }
        }
        // Renumbering in order keeps the edges sorted; a component is closed under edges.
        let mut renumber = vec![u32::MAX; n];
        let mut kept = Vec::with_capacity(largest_size);
        for (old, _) in label.iter().enumerate().filter(|&(_, &l)| l == largest) {
            renumber[old] = kept.len() as u32;
            kept.push(points[old]);
        }
        edges.retain(|&e| label[Edge::from(e) as usize] == largest);
        for e in &mut edges {
            let (u, v) = (renumber[Edge::from(*e) as usize], renumber[Edge::to(*e) as usize]);
            *e = Edge::pack(u, v, Edge::speed(*e));
        }
        let squared =
            |e: u64| squared_distance(kept[Edge::from(e) as usize], kept[Edge::to(e) as usize]);
        RoadGraph {
            offsets: offsets(&edges, kept.len()),
            targets: edges.iter().map(|&e| Edge::to(e)).collect(),
            // ⌈√D / 2^s⌉ = ⌈√⌈D / 4^s⌉⌉: the smallest m with m² ≥ D / 4^s.
            costs: edges
                .iter()
                .map(|&e| ceil_sqrt(squared(e).div_ceil(1 << (2 * Edge::speed(e)))) as u32)
                .collect(),
            times: edges
                .iter()
                .map(|&e| (squared(e) as f64).sqrt() / (SCALE << Edge::speed(e)) as f64)
                .collect(),
            points: kept,
            top,
        }
    }

    /// The number of nodes; ids are `0..nodes()`.
    pub fn nodes(&self) -> usize {
        self.points.len()
    }

    /// The number of directed edges (twice the number of roads).
    pub fn edges(&self) -> usize {
        self.targets.len()
    }

    /// `node`'s coordinates, in fixed point ([`SCALE`] to a length unit).
    ///
    /// # Panics
    /// If `node >= self.nodes()`.
    pub fn point(&self, node: u32) -> (u32, u32) {
        self.points[node as usize]
    }

    /// The top speed, `4^(classes - 1)`: the divisor of the [`StraightLine`] estimate.
    pub fn top_speed(&self) -> u32 {
        1 << self.top
    }

    /// `node`'s edges in the arrays.
    fn range(&self, node: u32) -> std::ops::Range<usize> {
        self.offsets[node as usize] as usize..self.offsets[node as usize + 1] as usize
    }

    /// `node`'s neighbours with the integer cost of each edge (`⌈length × SCALE / speed⌉`),
    /// by increasing id. Allocates nothing; O(1) to start.
    ///
    /// # Panics
    /// If `node >= self.nodes()`.
    #[inline]
    pub fn successors(&self, node: u32) -> impl Iterator<Item = (u32, u64)> + '_ {
        let range = self.range(node);
        self.targets[range.clone()]
            .iter()
            .copied()
            .zip(self.costs[range].iter().map(|&c| u64::from(c)))
    }

    /// `node`'s neighbours with the float cost of each edge (`length / speed`, in length
    /// units), by increasing id. Allocates nothing; O(1) to start.
    ///
    /// # Panics
    /// If `node >= self.nodes()`.
    #[inline]
    pub fn successors_f64(&self, node: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let range = self.range(node);
        self.targets[range.clone()].iter().copied().zip(self.times[range].iter().copied())
    }

    /// The straight-line heuristic towards `goal`.
    ///
    /// # Panics
    /// If `goal >= self.nodes()`.
    pub fn heuristic(&self, goal: u32) -> StraightLine<'_> {
        StraightLine { points: &self.points, goal: self.points[goal as usize], top: self.top }
    }
}

/// The straight-line estimate of the cost to a goal: the distance ÷ the top speed
/// `V = 2^t` (`t = 2 · (classes − 1)`), in integer or float costs. Each call is O(1) and
/// allocates nothing.
///
/// **Integer** ([`StraightLine::estimate`]): `h(u) = ⌊L(u, g) / V⌋` (length × [`SCALE`]
/// ÷ top speed, rounded down), computed exactly as `⌊√⌊D / V²⌋⌋`.
///
/// - *Admissible*: an edge of speed `2^s`, `s ≤ t`, costs `⌈L(u, v) / 2^s⌉ ≥ L(u, v) / V`,
///   so a
///   path costs at least its length ÷ `V`, which is at least `L(u, g) / V ≥ h(u)` by the
///   triangle inequality.
/// - *Consistent*: for an edge `u → v`, `L(u, g) ≤ L(u, v) + L(v, g)` (exactly: the
///   points are integer), so `h(u) ≤ ⌊L(u, v) / V + L(v, g) / V⌋ ≤ ⌊c(u, v) + L(v, g) / V⌋
///   = c(u, v) + h(v)`, the last step because `c(u, v)` is an integer. Rounding the cost
///   up is what makes both hold: rounded down, an edge could cost less than its length ÷
///   `V`. (Because costs are integers, an estimate rounded up would hold too: `⌈·⌉` is
///   subadditive, and a path's cost is an integer at least `L(u, g) / V`.)
///
/// **Float** ([`StraightLine::estimate_f64`]): `H(u) = fl(fl(√fl(D)) / (SCALE·V) · σ)` with
/// `σ` = [`FLOAT_SHRINK`] `= 1 − 2⁻²⁰`, against edge costs `C(u, v) = fl(√fl(D)) /
/// (SCALE · 2^s)` (the divisions by powers of two are exact). With `ε = 2⁻⁵³`, each
/// computed root is within a factor `1 ± 2ε` of the exact one, so `H(u) ≤ σ(1 + 3ε)
/// L(u, g) / W` and `fl(C(u, v) + H(v)) ≥ (1 − 4ε)(L(u, v) + σ L(v, g)) / W`, where `W =
/// SCALE · V`. The second minus the first is at least `(L(u, v)(2⁻²⁰ − 7ε) − 7ε L(v,
/// g)) / W`, which is nonnegative when `L(u, v) ≥ 1` unit, since `L(v, g) < 2^28.5`
/// (coordinates are below 2²⁸): so `H(u) ≤ fl(C(u, v) + H(v))`, *consistent* as computed.
/// Distinct points are at least 1 unit apart, and coincident ones give `C = 0` and `H(u)
/// = H(v)` exactly. *Admissible*: `H(u) < (1 − 2⁻²¹) L(u, g) / W`, and the float sum of a
/// path of fewer than 2³² edges is above `1 − 2⁻²¹` times its exact cost. (How a search
/// rounds `g + h` is its own affair.)
#[derive(Clone, Copy, Debug)]
pub struct StraightLine<'a> {
    points: &'a [(u32, u32)],
    goal: (u32, u32),
    top: u8,
}

impl StraightLine<'_> {
    /// The integer estimate from `node`: `⌊length × SCALE / top speed⌋`.
    ///
    /// # Panics
    /// If `node` is not a node of the graph.
    #[inline]
    pub fn estimate(&self, node: u32) -> u64 {
        let squared = squared_distance(self.points[node as usize], self.goal);
        (squared >> (2 * self.top)).isqrt()
    }

    /// The float estimate from `node`: `length / top speed`, shrunk by [`FLOAT_SHRINK`].
    ///
    /// # Panics
    /// If `node` is not a node of the graph.
    #[inline]
    pub fn estimate_f64(&self, node: u32) -> f64 {
        let squared = squared_distance(self.points[node as usize], self.goal);
        (squared as f64).sqrt() / (SCALE << self.top) as f64 * FLOAT_SHRINK
    }
}

/// `dx² + dy²`, exact: coordinates below 2²⁸ keep it below 2⁵⁷.
#[inline]
fn squared_distance((ax, ay): (u32, u32), (bx, by): (u32, u32)) -> u64 {
    let (dx, dy) = (u64::from(ax.abs_diff(bx)), u64::from(ay.abs_diff(by)));
    dx * dx + dy * dy
}

/// `⌈√x⌉`, exact.
fn ceil_sqrt(x: u64) -> u64 {
    let root = x.isqrt();
    if root * root == x {
        root
    } else {
        root + 1
    }
}

/// A uniform grid of square cells over points in `[0, 2²⁸)²`, about two points a cell:
/// the points' indices sorted by cell (row-major), and where each cell's run starts.
struct CellIndex {
    /// Cells per side.
    side: usize,
    /// A cell's width in fixed-point units.
    width: u64,
    /// `side² + 1` offsets into `order`.
    starts: Vec<u32>,
    /// Point indices by cell, and by index within a cell.
    order: Vec<u32>,
}

impl CellIndex {
    /// Indexes `points` by counting sort. O(n).
    fn new(points: &[(u32, u32)]) -> CellIndex {
        let extent = points.iter().map(|&(x, y)| x.max(y)).max().map_or(1, |m| u64::from(m) + 1);
        let side = ((points.len() / 2) as f64).sqrt().max(1.0) as usize;
        let width = extent.div_ceil(side as u64);
        let mut index =
            CellIndex { side, width, starts: vec![0; side * side + 1], order: Vec::new() };
        let cells: Vec<usize> = points.iter().map(|&p| index.cell(p)).collect();
        for &cell in &cells {
            index.starts[cell + 1] += 1;
        }
        for i in 1..index.starts.len() {
            index.starts[i] += index.starts[i - 1];
        }
        let mut next = index.starts.clone();
        index.order = vec![0; points.len()];
        for (i, &cell) in cells.iter().enumerate() {
            index.order[next[cell] as usize] = i as u32;
            next[cell] += 1;
        }
        index
    }

    /// The cell of a point within the extent.
    fn cell(&self, (x, y): (u32, u32)) -> usize {
        let (cx, cy) = (u64::from(x) / self.width, u64::from(y) / self.width);
        cy as usize * self.side + cx as usize
    }

    /// The points of cell `(cx, cy)`.
    fn points_in(&self, cx: usize, cy: usize) -> &[u32] {
        let cell = cy * self.side + cx;
        &self.order[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }
}

/// Each point's `min(k, n - 1)` nearest other points (indices into `points`), nearest
/// first, by squared distance and then by index: point `i`'s are the `i`-th chunk.
///
/// Each point's search visits the rings of cells around its own (the cells at Chebyshev
/// distance `r` in cells), and stops after ring `r` once it holds its `k` nearest and the
/// farthest of them is nearer than `r` cell widths: every point of a later ring is at least
/// that far. For uniform points that is O(k) cells, so O(n·k) expected in all, with an
/// insertion into a sorted list of `k` per point seen.
fn nearest(points: &[(u32, u32)], k: usize) -> (usize, Vec<u32>) {
    let k = k.min(points.len().saturating_sub(1));
    if k == 0 {
        return (0, Vec::new());
    }
    let index = CellIndex::new(points);
    let side = index.side as i64;
    let mut best: Vec<(u64, u32)> = Vec::with_capacity(k + 1);
    let mut found = Vec::with_capacity(points.len() * k);
    for (i, &p) in points.iter().enumerate() {
        best.clear();
        let cell = index.cell(p);
        let (cx, cy) = ((cell % index.side) as i64, (cell / index.side) as i64);
        for r in 0..=side {
            for dy in -r..=r {
                let y = cy + dy;
                if !(0..side).contains(&y) {
                    continue;
                }
                let step = if dy.abs() == r { 1 } else { (2 * r).max(1) };
                for x in (cx - r..=cx + r).step_by(step as usize) {
                    if !(0..side).contains(&x) {
                        continue;
                    }
                    for &j in index.points_in(x as usize, y as usize) {
                        if j as usize == i {
                            continue;
                        }
                        let candidate = (squared_distance(p, points[j as usize]), j);
                        if best.len() == k && candidate >= best[k - 1] {
                            continue;
                        }
                        let at = best.partition_point(|&b| b < candidate);
                        best.insert(at, candidate);
                        best.truncate(k);
                    }
                }
            }
            let reach = r as u64 * index.width;
            if best.len() == k && best[k - 1].0 < reach * reach {
                break;
            }
        }
        found.extend(best.iter().map(|&(_, j)| j));
    }
    (k, found)
}

/// A cost the reference Dijkstra adds and orders: `u64`, or a nonnegative `f64` ordered by
/// its bits (which order nonnegative floats as their values).
trait Distance: Copy + PartialOrd + std::ops::Add<Output = Self> {
    const ZERO: Self;
    const UNREACHED: Self;
    /// A `u64` in the same order as the (nonnegative) value.
    fn order(self) -> u64;
}

impl Distance for u64 {
    const ZERO: u64 = 0;
    const UNREACHED: u64 = u64::MAX;
    fn order(self) -> u64 {
        self
    }
}

impl Distance for f64 {
    const ZERO: f64 = 0.0;
    const UNREACHED: f64 = f64::INFINITY;
    fn order(self) -> u64 {
        self.to_bits()
    }
}

/// Dijkstra from `start` over `successors`, to exhaustion: std's `BinaryHeap` with lazy
/// deletion (an entry costlier than its node's best is stale and skipped).
fn reference<C: Distance, I: Iterator<Item = (u32, C)>>(
    nodes: usize,
    start: u32,
    successors: impl Fn(u32) -> I,
) -> Vec<C> {
    let mut best = vec![C::UNREACHED; nodes];
    let mut heap = BinaryHeap::new();
    best[start as usize] = C::ZERO;
    heap.push(Reverse((C::ZERO.order(), start)));
    while let Some(Reverse((order, u))) = heap.pop() {
        let cost = best[u as usize];
        if order > cost.order() {
            continue; // stale: `u` was reached more cheaply since
        }
        for (v, step) in successors(u) {
            let through = cost + step;
            if through < best[v as usize] {
                best[v as usize] = through;
                heap.push(Reverse((through.order(), v)));
            }
        }
    }
    best
}

/// The reference Dijkstra with integer costs: the cost from `start` to every node,
/// `u64::MAX` where unreached (never, on a graph from a spec). Obviously right rather than
/// fast, and independent of any A*. O(E log E) time.
///
/// # Panics
/// If `start >= graph.nodes()`.
pub fn dijkstra(graph: &RoadGraph, start: u32) -> Vec<u64> {
    reference(graph.nodes(), start, |u| graph.successors(u))
}

/// [`dijkstra`] with float costs: the same search over [`RoadGraph::successors_f64`],
/// `f64::INFINITY` where unreached.
///
/// # Panics
/// If `start >= graph.nodes()`.
pub fn dijkstra_f64(graph: &RoadGraph, start: u32) -> Vec<f64> {
    reference(graph.nodes(), start, |u| graph.successors_f64(u))
}

/// One start/goal problem on a road graph, with its exact costs from the reference
/// Dijkstra.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoadProblem {
    /// The start node.
    pub start: u32,
    /// The goal node, another than the start.
    pub goal: u32,
    /// The cheapest path's integer cost ([`dijkstra`]).
    pub cost: u64,
    /// The cheapest path's float cost ([`dijkstra_f64`]), as that Dijkstra summed it.
    pub cost_f64: f64,
}

/// How many problems share one start (and so one pair of reference Dijkstras) in
/// [`problems`], as on grids.
pub const GOALS_PER_START: usize = 10;

/// `count` problems on `graph`, deterministic from `seed`: starts and goals uniform over
/// the nodes (as routing benchmarks' random queries), goals other than their start, up to
/// [`GOALS_PER_START`] per start. None when the graph has fewer than two nodes.
///
/// Takes two reference Dijkstras (integer and float) per start: O(count / 10 · E log E).
pub fn problems(graph: &RoadGraph, count: usize, seed: u64) -> Vec<RoadProblem> {
    let n = graph.nodes();
    let mut rng = SplitMix64(seed);
    let mut problems = Vec::with_capacity(count);
    if n < 2 {
        return problems;
    }
    while problems.len() < count {
        let start = rng.below(n) as u32;
        let (costs, costs_f64) = (dijkstra(graph, start), dijkstra_f64(graph, start));
        for _ in 0..GOALS_PER_START.min(count - problems.len()) {
            // Uniform over the other nodes.
            let goal = (start as usize + 1 + rng.below(n - 1)) % n;
            problems.push(RoadProblem {
                start,
                goal: goal as u32,
                cost: costs[goal],
                cost_f64: costs_f64[goal],
            });
        }
    }
    problems
}

/// A generated road graph with its problems: what the lab searches.
#[derive(Clone, Debug)]
pub struct RoadInstance {
    /// The spec it was built from; its name is the workload's map name.
    pub spec: RoadSpec,
    /// The graph.
    pub graph: RoadGraph,
    /// The problems, seeded with the spec's seed.
    pub problems: Vec<RoadProblem>,
}

impl RoadInstance {
    /// Builds the spec's graph and `count` [`problems`] on it.
    pub fn generated(spec: RoadSpec, count: usize) -> Result<RoadInstance, RoadSpecError> {
        let graph = spec.build()?;
        let problems = problems(&graph, count, spec.seed);
        Ok(RoadInstance { spec, graph, problems })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u32 = SCALE as u32;

    /// A hand-built graph (coordinates in units): 0 (0, 0), 1 (3, 4), 2 (6, 0), 3 (3, 0),
    /// an isolated pair 4 (50, 50) - 5 (51, 50), and 6 (1, 1) off 0. 0 - 2 is given at
    /// speeds 1 and 4 (the faster is kept), 1 - 1 is a self-loop.
    fn hand_built() -> RoadGraph {
        let points = [(0, 0), (3, 4), (6, 0), (3, 0), (50, 50), (51, 50), (1, 1)]
            .map(|(x, y)| (x * S, y * S));
        let mut edges = Vec::new();
        for (u, v, speed) in
            [(0, 2, 0), (0, 2, 2), (1, 2, 0), (0, 3, 0), (3, 2, 0), (3, 1, 0), (4, 5, 0), (0, 6, 0)]
        {
            edges.extend([Edge::pack(u, v, speed), Edge::pack(v, u, speed)]);
        }
        edges.push(Edge::pack(1, 1, 0));
        RoadGraph::new(&points, edges, 2)
    }

    #[test]
    fn a_hand_built_graph_keeps_its_largest_component_and_fastest_edges() {
        let graph = hand_built();
        assert_eq!(graph.nodes(), 5, "the pair 4 - 5 is dropped, 6 becomes 4");
        assert_eq!(graph.point(4), (S, S));
        assert_eq!(graph.edges(), 12);
        let s = u64::from(S);
        // 0 - 2 at speed 4: 6 units / 4; 0 - 6: √2 units, rounded up.
        let out: Vec<_> = graph.successors(0).collect();
        assert_eq!(out, [(2, 6 * s / 4), (3, 3 * s), (4, 92_682)]);
        assert!((92_681.0..92_682.0).contains(&(2f64.sqrt() * S as f64)));
        let out: Vec<_> = graph.successors_f64(0).collect();
        assert_eq!(out, [(2, 1.5), (3, 3.0), (4, 2f64.sqrt())]);
        assert_eq!(graph.successors(1).map(|(v, _)| v).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(graph.top_speed(), 4);
    }

    #[test]
    fn the_reference_dijkstra_on_a_hand_built_graph() {
        let graph = hand_built();
        let s = u64::from(S);
        // 0 -> 1: through 2 costs 1.5 + 5 units, through 3 costs 3 + 4.
        assert_eq!(dijkstra(&graph, 0), [0, 13 * s / 2, 3 * s / 2, 3 * s, 92_682]);
        assert_eq!(dijkstra_f64(&graph, 0), [0.0, 6.5, 1.5, 3.0, 2f64.sqrt()]);
        assert_eq!(
            dijkstra(&graph, 4),
            [92_682, 92_682 + 13 * s / 2, 92_682 + 3 * s / 2, 92_682 + 3 * s, 0]
        );
        // An unreached node stays at the sentinel: a graph of two parts, built directly.
        let mut apart = graph.clone();
        apart.offsets = vec![0, 0, 0, 0, 0, 0];
        apart.targets.clear();
        assert_eq!(dijkstra(&apart, 1), [u64::MAX, 0, u64::MAX, u64::MAX, u64::MAX]);
        assert_eq!(dijkstra_f64(&apart, 1)[0], f64::INFINITY);
    }

    /// On every edge of small graphs of each class count, towards a few goals: the
    /// estimates never drop by more than the edge costs, in both representations.
    #[test]
    fn the_heuristic_is_consistent_on_every_edge() {
        for classes in 1..=MAX_CLASSES {
            let spec = RoadSpec { nodes: 1500, neighbours: 3, classes, seed: 2 };
            let graph = spec.build().unwrap();
            let n = graph.nodes() as u32;
            for goal in [0, n / 2, n - 1] {
                let h = graph.heuristic(goal);
                for u in 0..n {
                    for ((v, c), (_, f)) in graph.successors(u).zip(graph.successors_f64(u)) {
                        assert!(h.estimate(u) <= c + h.estimate(v), "{spec}: {u} -> {v}");
                        assert!(h.estimate_f64(u) <= f + h.estimate_f64(v), "{spec}: {u} -> {v}");
                    }
                }
            }
        }
    }

    /// Collinear `u, v, g` (`v` on the segment, edges `u - v - g`) make the triangle
    /// inequality tight, where the float roots' rounding would break consistency without
    /// [`FLOAT_SHRINK`]; the integer estimate holds exactly.
    #[test]
    fn the_heuristic_is_consistent_on_collinear_points() {
        let mut rng = SplitMix64(11);
        for _ in 0..20_000 {
            let step = (1 + rng.below(1 << 19) as u32, rng.below(1 << 19) as u32);
            let times = 2 + rng.below(400) as u32;
            let u = (rng.below(1 << 20) as u32, rng.below(1 << 20) as u32);
            let at = |m: u32| (u.0 + m * step.0, u.1 + m * step.1);
            let speed = rng.below(3) as u8 * SPEED_SHIFT;
            let edges = [(0, 1), (1, 0), (1, 2), (2, 1)].map(|(a, b)| Edge::pack(a, b, speed));
            let graph = RoadGraph::new(&[u, at(1), at(times)], edges.to_vec(), SPEED_SHIFT * 2);
            let h = graph.heuristic(2);
            let ((_, c), (_, f)) =
                (graph.successors(0).next().unwrap(), graph.successors_f64(0).next().unwrap());
            assert!(h.estimate(0) <= c + h.estimate(1), "{u:?} {step:?} {times}");
            assert!(h.estimate_f64(0) <= f + h.estimate_f64(1), "{u:?} {step:?} {times}");
        }
    }

    /// Brute force: every other point sorted by squared distance, then index.
    fn brute(points: &[(u32, u32)], k: usize) -> Vec<u32> {
        let mut all = Vec::new();
        for (i, &p) in points.iter().enumerate() {
            let mut others: Vec<(u64, u32)> = (0..points.len() as u32)
                .filter(|&j| j as usize != i)
                .map(|j| (squared_distance(p, points[j as usize]), j))
                .collect();
            others.sort_unstable();
            all.extend(others.iter().take(k).map(|&(_, j)| j));
        }
        all
    }

    #[test]
    fn nearest_neighbours_match_brute_force() {
        let mut rng = SplitMix64(3);
        let mut draw = |n: usize, range: usize| -> Vec<(u32, u32)> {
            (0..n).map(|_| (rng.below(range) as u32, rng.below(range) as u32)).collect()
        };
        let mut cases = vec![
            draw(500, 1 << 20),
            draw(300, 6), // many duplicates and ties
            draw(7, 1000),
            vec![(5, 5); 4],
            vec![(0, 0), (1 << 27, 1 << 27)],
            (0..200).map(|i| (i * 977, 3)).collect(), // a line
        ];
        // A dense cluster and a few far points.
        let mut clustered = draw(300, 100);
        clustered.extend(draw(5, 1 << 27));
        cases.push(clustered);
        for points in &cases {
            for k in [1, 3, 4, 8, 16] {
                let (kept, found) = nearest(points, k);
                assert_eq!(kept, k.min(points.len() - 1));
                assert_eq!(found, brute(points, kept), "{} points, k = {k}", points.len());
            }
        }
        assert_eq!(nearest(&[(1, 1)], 4), (0, vec![]));
    }

    #[test]
    fn square_roots_round_as_stated() {
        for x in [0u64, 1, 2, 3, 4, 5, 8, 9, 10, (1 << 57) - 1, 1 << 56, (1 << 28) * (1 << 28) + 1]
        {
            let root = ceil_sqrt(x);
            assert!(root * root >= x && (root == 0 || (root - 1) * (root - 1) < x), "{x}");
        }
        for (from, to, speed) in [(0, 0, 0), ((1 << 24) - 1, (1 << 24) - 1, 6), (5, 7, 2)] {
            let e = Edge::pack(from, to, speed);
            assert_eq!((Edge::from(e), Edge::to(e), Edge::speed(e)), (from, to, speed));
        }
        // Faster first among one pair's edges.
        assert!(
            Edge::pack(1, 2, 6) < Edge::pack(1, 2, 0) && Edge::pack(1, 2, 0) < Edge::pack(1, 3, 6)
        );
    }
}
