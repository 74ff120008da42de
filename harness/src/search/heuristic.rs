//! Heuristics: estimates of the cost from a cell to the goal.
//!
//! | heuristic | admissible | consistent | note |
//! |---|---|---|---|
//! | zero | yes | yes | Dijkstra |
//! | manhattan | 4-connected only | 4-connected only | overestimates diagonals |
//! | octile | yes | yes | exact on open 8-connected ground |
//! | chebyshev | yes | yes | weaker than octile (diagonals at straight cost) |
//! | weighted octile (w > 1) | no | no | finds a path at most w times optimal; reopens nodes |
//! | differential (k landmarks) | yes | yes | max of triangle-inequality bounds from landmarks |
//!
//! On weighted maps the geometric estimates are multiplied by the smallest cell weight,
//! which keeps them admissible and consistent.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::str::FromStr;

use crate::maps::grid::{Connectivity, CostScale, Grid, Terrain};
use crate::maps::moves::{for_each_move, Direction, Moves};

/// An estimate of the remaining cost, prepared once per goal.
///
/// Coordinates passed to [`Heuristic::estimate`] are the grid's padded coordinates
/// (`index % stride`, `index / stride`); only differences matter to geometric estimates.
pub trait Heuristic {
    /// Prepares for a search towards `goal` (an index).
    fn set_goal(&mut self, grid: &Grid, goal: u32);
    /// The estimate for the cell at padded `(x, y)` with index `index`.
    fn estimate(&self, x: u32, y: u32, index: u32) -> u64;
    /// Whether the estimate never exceeds the true remaining cost.
    fn admissible(&self) -> bool;
    /// Whether `h(a) <= cost(a, b) + h(b)` for every move: keys then never fall below the
    /// last popped key, so monotone queues accept them, and no closed node is reopened.
    fn consistent(&self) -> bool;
}

/// The heuristics by name, for the command line and reports (and in results, as the
/// name: `octile`, `weighted:1.5`, `differential:4`).
#[derive(
    Clone, Copy, Debug, PartialEq, serde_with::SerializeDisplay, serde_with::DeserializeFromStr,
)]
pub enum HeuristicKind {
    /// h = 0: Dijkstra.
    Zero,
    /// |dx| + |dy| straight steps.
    Manhattan,
    /// Diagonal steps for the shorter side, straight steps for the rest.
    Octile,
    /// max(|dx|, |dy|) straight steps.
    Chebyshev,
    /// Octile times a weight above 1.
    WeightedOctile(f64),
    /// Differential heuristic with this many landmarks.
    Differential(u8),
    /// The straight-line distance over the top speed, on road graphs
    /// ([`crate::maps::road::StraightLine`]); not a grid heuristic.
    StraightLine,
}

impl HeuristicKind {
    /// The largest weight of weighted octile: past it the search is all but greedy, and the
    /// estimate's coefficients are kept within 16 times octile's.
    pub const MAX_WEIGHT: f64 = 16.0;
    /// The names accepted by [`FromStr`], for error messages.
    pub const NAMES: &'static str =
        "zero, manhattan, octile, chebyshev, straight-line (road graphs), weighted:W (1 < W <= 16, e.g. weighted:1.5), differential:K (K landmarks, 1..=16)";

    /// Whether the estimate is consistent (so admissible) under `moves`: every kind but
    /// weighted octile, and Manhattan on 8 moves, which counts a diagonal step as two
    /// (straight-line is consistent on the road graphs it is for: see
    /// [`crate::maps::road::StraightLine`]).
    /// Inconsistent estimates reopen cells, may return longer paths, and produce keys below
    /// the last one popped, which monotone queues refuse.
    pub fn consistent_on(self, moves: Connectivity) -> bool {
        match self {
            HeuristicKind::Manhattan => moves == Connectivity::Four,
            HeuristicKind::WeightedOctile(_) => false,
            _ => true,
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeuristicKind::Zero => f.write_str("zero"),
            HeuristicKind::Manhattan => f.write_str("manhattan"),
            HeuristicKind::Octile => f.write_str("octile"),
            HeuristicKind::Chebyshev => f.write_str("chebyshev"),
            HeuristicKind::WeightedOctile(w) => write!(f, "weighted:{w}"),
            HeuristicKind::Differential(k) => write!(f, "differential:{k}"),
            HeuristicKind::StraightLine => f.write_str("straight-line"),
        }
    }
}

impl FromStr for HeuristicKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let unknown = || format!("unknown heuristic '{s}': expected one of {}", Self::NAMES);
        Ok(match s {
            "zero" | "dijkstra" => HeuristicKind::Zero,
            "manhattan" => HeuristicKind::Manhattan,
            "octile" => HeuristicKind::Octile,
            "chebyshev" => HeuristicKind::Chebyshev,
            "straight-line" => HeuristicKind::StraightLine,
            _ => match s.split_once(':') {
                Some(("weighted", w)) => match w.parse::<f64>() {
                    Ok(w) if w > 1.0 && w <= Self::MAX_WEIGHT => HeuristicKind::WeightedOctile(w),
                    _ => return Err(unknown()),
                },
                Some(("differential", k)) => match k.parse::<u8>() {
                    Ok(k @ 1..=16) => HeuristicKind::Differential(k),
                    _ => return Err(unknown()),
                },
                _ => return Err(unknown()),
            },
        })
    }
}

/// The geometric estimates: `low × a + high × b` for `low = min(|dx|, |dy|)` and
/// `high = max(|dx|, |dy|)`, with `a` and `b` set per kind (octile: `a = diagonal -
/// straight`, `b = straight`), so one estimate is a few selects and two multiplies, with
/// no branch on the data. Weighted octile multiplies `a` and `b` by `w` once, rounded
/// down, so its estimate is at most `w ×` octile's and costs no more.
///
/// Measured: applying the weight per estimate instead (`(estimate as f64 × w) as u64`
/// behind a `match` on `Option<f64>`) had the compiler compute the floating-point path on
/// every estimate and select, a chain of conversions on the way to every push: it cost
/// the `pathfinding` peer, whose successors call this estimate, 36% of its time
/// (`pqlab compare --map dao/brc202d.map --limit 100 --rounds 3`: 185 against 118 ns an
/// expansion) and pqlab's A* with std's heap 2.5%.
#[derive(Clone, Copy, Debug)]
pub struct Geometric {
    kind: HeuristicKind,
    /// The cost of the `low` steps beyond `b` each.
    a: u64,
    /// The cost of each of the `high` steps.
    b: u64,
    connectivity: Connectivity,
    goal: (u32, u32),
}

impl Geometric {
    /// A geometric heuristic (`kind` is neither `Differential` nor `StraightLine`) for `grid` under the given
    /// movement, scaled by the map's smallest weight.
    pub fn new(
        kind: HeuristicKind,
        grid: &Grid,
        connectivity: Connectivity,
        scale: CostScale,
    ) -> Self {
        let min_weight = grid.min_weight() as u64;
        let straight = scale.straight as u64 * min_weight;
        let diagonal = scale.diagonal as u64 * min_weight;
        // `w` is at most 16 (its parser's limit), so the weighted coefficients stay within
        // 16 times the octile ones.
        let weighted = |cost: u64, w: f64| (cost as f64 * w) as u64;
        let (a, b) = match kind {
            HeuristicKind::Zero => (0, 0),
            // |dx| + |dy| = low + high.
            HeuristicKind::Manhattan => (straight, straight),
            HeuristicKind::Chebyshev => (0, straight),
            // diagonal × low + straight × (high - low).
            HeuristicKind::Octile => (diagonal - straight, straight),
            HeuristicKind::WeightedOctile(w) => {
                (weighted(diagonal - straight, w), weighted(straight, w))
            }
            HeuristicKind::Differential(_) | HeuristicKind::StraightLine => {
                panic!("{kind} is not a geometric grid heuristic")
            }
        };
        Geometric { kind, a, b, connectivity, goal: (0, 0) }
    }
}

impl Heuristic for Geometric {
    fn set_goal(&mut self, grid: &Grid, goal: u32) {
        self.goal = (goal % grid.stride(), goal / grid.stride());
    }

    #[inline(always)]
    fn estimate(&self, x: u32, y: u32, _: u32) -> u64 {
        let dx = u64::from(x.abs_diff(self.goal.0));
        let dy = u64::from(y.abs_diff(self.goal.1));
        self.a * dx.min(dy) + self.b * dx.max(dy)
    }

    fn admissible(&self) -> bool {
        self.kind.consistent_on(self.connectivity)
    }

    fn consistent(&self) -> bool {
        self.admissible()
    }
}

/// The differential heuristic (Sturtevant et al., "Memory-based heuristics for explicit
/// state spaces", IJCAI 2009), as the draft defines it: the octile distance (Manhattan on
/// 4 moves), raised by the
/// largest bound the triangle inequality gives from `k` landmarks with exact distances:
/// `d(n, goal) >= d(L, goal) - d(L, n)` and `d(n, goal) >= d(n, L) - d(goal, L)`. A maximum
/// of consistent heuristics is consistent, so it never expands more cells than octile.
///
/// The tables are laid out node by node (`table[cell × width + j]`, 4-byte entries), so
/// one estimate reads one cell's run of `k` (uniform maps, where both directions agree) or
/// `2k` distances, a cache line for 8 landmarks, not `k` lines of `k` tables.
/// Landmark-major 8-byte tables (the first version) cost 1.97× octile's time per
/// expansion on `random512-10-0` with 8 landmarks (`pqlab run --heuristic differential:8
/// --limit 60`). Landmarks are placed farthest-first; building costs k Dijkstras (2k on
/// weighted maps).
#[derive(Clone, Debug)]
pub struct Differential {
    /// The octile distance (Manhattan on 4 moves), the floor of every estimate.
    octile: Geometric,
    /// Distances per cell: for each landmark, the cost from it to the cell, then (on
    /// weighted maps) from the cell to it; [`UNREACHED`] where there is none or it does
    /// not fit 32 bits (that bound is then not used, which keeps the estimate admissible).
    table: Vec<u32>,
    /// Entries per cell: `k`, or `2k` when the directions differ.
    width: usize,
    /// Whether `from` and `to` are one table (uniform maps).
    symmetric: bool,
    /// The goal's own entries.
    goal: Vec<u32>,
}

const UNREACHED: u64 = u64::MAX;

/// The largest `|d(L, goal) - d(L, n)|` over the landmarks of a uniform map, from the
/// cell's and the goal's runs; an entry without a bound contributes 0.
#[inline(always)]
fn symmetric_bound<'a>(here: impl IntoIterator<Item = &'a u32>, goal: &[u32]) -> u32 {
    here.into_iter()
        .zip(goal)
        .map(|(&n, &g)| if n != NO_BOUND && g != NO_BOUND { n.abs_diff(g) } else { 0 })
        .max()
        .unwrap_or(0)
}

/// A table entry that holds no bound.
const NO_BOUND: u32 = u32::MAX;

impl Differential {
    /// Places `k` landmarks on the ground of `grid` and computes their distance tables.
    pub fn new(k: u8, grid: &Grid, connectivity: Connectivity, scale: CostScale) -> Self {
        // The floor is the admissible geometric distance of the moves: octile on 8
        // moves, Manhattan on 4.
        let floor = match connectivity {
            Connectivity::Eight => HeuristicKind::Octile,
            Connectivity::Four => HeuristicKind::Manhattan,
        };
        let octile = Geometric::new(floor, grid, connectivity, scale);
        let moves = Moves::new(grid, connectivity, scale);
        let symmetric = grid.weights().is_none();
        let mut columns: Vec<Vec<u64>> = Vec::new();
        if let Some(seed) = (0..grid.cells() as u32).find(|&i| grid.terrain(i) == Terrain::Ground) {
            // Farthest-first: each landmark is the cell farthest from the ones before it.
            let mut nearest = distances(grid, &moves, seed, Direction::Forward);
            for _ in 0..k {
                let landmark = (0..nearest.len())
                    .filter(|&i| nearest[i] != UNREACHED)
                    .max_by_key(|&i| nearest[i])
                    .map_or(seed, |i| i as u32);
                let forward = distances(grid, &moves, landmark, Direction::Forward);
                for (near, &d) in nearest.iter_mut().zip(&forward) {
                    *near = (*near).min(d);
                }
                if !symmetric {
                    columns.push(distances(grid, &moves, landmark, Direction::Backward));
                }
                columns.push(forward);
            }
        }
        let width = columns.len();
        let mut table = vec![NO_BOUND; grid.cells() * width];
        for (j, column) in columns.iter().enumerate() {
            for (cell, &d) in column.iter().enumerate() {
                table[cell * width + j] = u32::try_from(d).unwrap_or(NO_BOUND);
            }
        }
        Differential { octile, table, width, symmetric, goal: Vec::new() }
    }

    fn cell(&self, index: u32) -> &[u32] {
        let at = index as usize * self.width;
        &self.table[at..at + self.width]
    }
}

/// Dijkstra from `source` over its terrain class (the moves stay in it): the cost from it
/// to every cell (`Forward`) or from every cell to it (`Backward`).
fn distances(grid: &Grid, moves: &Moves, source: u32, direction: Direction) -> Vec<u64> {
    let mut dist = vec![UNREACHED; grid.cells()];
    let mut heap = BinaryHeap::new();
    dist[source as usize] = 0;
    heap.push(Reverse((0u64, source)));
    while let Some(Reverse((d, cell))) = heap.pop() {
        if d > dist[cell as usize] {
            continue;
        }
        for_each_move(grid, moves, direction, cell, |m| {
            if d + m.cost < dist[m.cell as usize] {
                dist[m.cell as usize] = d + m.cost;
                heap.push(Reverse((d + m.cost, m.cell)));
            }
        });
    }
    dist
}

impl Heuristic for Differential {
    fn set_goal(&mut self, grid: &Grid, goal: u32) {
        self.octile.set_goal(grid, goal);
        self.goal = self.cell(goal).to_vec();
    }

    #[inline]
    fn estimate(&self, x: u32, y: u32, index: u32) -> u64 {
        let mut best = self.octile.estimate(x, y, index);
        let here = self.cell(index);
        if self.symmetric {
            // d(L, n) = d(n, L): |d(L, goal) - d(L, n)| bounds d(n, goal) both ways.
            // Branch-free, so the loop over the cell's run vectorises: an entry without a
            // bound contributes 0. Eight landmarks, the lab's setting, get a fixed-width
            // run the compiler unrolls into one vector compare.
            let bound = match (<&[u32; 8]>::try_from(here), <&[u32; 8]>::try_from(&self.goal[..])) {
                (Ok(n), Ok(g)) => symmetric_bound(n, g),
                _ => symmetric_bound(here, &self.goal),
            };
            best = best.max(u64::from(bound));
        } else {
            // Pairs (to the landmark, from it): d(n, L) - d(goal, L) and d(L, goal) - d(L, n).
            for (n, g) in here.chunks_exact(2).zip(self.goal.chunks_exact(2)) {
                let ([to_n, from_n], [to_g, from_g]) = ([n[0], n[1]], [g[0], g[1]]);
                if to_n != NO_BOUND && to_g != NO_BOUND {
                    best = best.max(u64::from(to_n.saturating_sub(to_g)));
                }
                if from_n != NO_BOUND && from_g != NO_BOUND {
                    best = best.max(u64::from(from_g.saturating_sub(from_n)));
                }
            }
        }
        best
    }

    fn admissible(&self) -> bool {
        true
    }

    fn consistent(&self) -> bool {
        true
    }
}

/// Any heuristic chosen at run time (the command line); benchmarks use the concrete types.
#[derive(Clone, Debug)]
pub enum AnyHeuristic {
    /// Zero, Manhattan, octile, Chebyshev or weighted octile.
    Geometric(Geometric),
    /// Landmark-based.
    Differential(Differential),
}

impl AnyHeuristic {
    /// Builds `kind` for `grid` (the differential heuristic runs its landmark Dijkstras);
    /// an error for a heuristic that is not a grid's (straight-line, of road graphs).
    pub fn new(
        kind: HeuristicKind,
        grid: &Grid,
        connectivity: Connectivity,
        scale: CostScale,
    ) -> Result<Self, String> {
        Ok(match kind {
            HeuristicKind::Differential(k) => {
                AnyHeuristic::Differential(Differential::new(k, grid, connectivity, scale))
            }
            HeuristicKind::StraightLine => {
                return Err(format!("{kind} is the road graphs' heuristic, not a grid's"))
            }
            _ => AnyHeuristic::Geometric(Geometric::new(kind, grid, connectivity, scale)),
        })
    }
}

impl Heuristic for AnyHeuristic {
    fn set_goal(&mut self, grid: &Grid, goal: u32) {
        match self {
            AnyHeuristic::Geometric(h) => h.set_goal(grid, goal),
            AnyHeuristic::Differential(h) => h.set_goal(grid, goal),
        }
    }

    #[inline(always)]
    fn estimate(&self, x: u32, y: u32, index: u32) -> u64 {
        match self {
            AnyHeuristic::Geometric(h) => h.estimate(x, y, index),
            AnyHeuristic::Differential(h) => h.estimate(x, y, index),
        }
    }

    fn admissible(&self) -> bool {
        match self {
            AnyHeuristic::Geometric(h) => h.admissible(),
            AnyHeuristic::Differential(h) => h.admissible(),
        }
    }

    fn consistent(&self) -> bool {
        match self {
            AnyHeuristic::Geometric(h) => h.consistent(),
            AnyHeuristic::Differential(h) => h.consistent(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maps::generate::{MapKind, MapSpec};

    #[test]
    fn weighted_octile_stays_within_w_times_octile() {
        let grid = MapSpec { kind: MapKind::Random { density: 0 }, size: 40, seed: 1 }.build();
        let (eight, fine) = (Connectivity::Eight, CostScale::FINE);
        let mut octile = Geometric::new(HeuristicKind::Octile, &grid, eight, fine);
        for w in [1.1, 1.25, 1.5, 2.0, 16.0] {
            let mut weighted = Geometric::new(HeuristicKind::WeightedOctile(w), &grid, eight, fine);
            for goal in [grid.index(3, 5), grid.index(39, 0)] {
                octile.set_goal(&grid, goal);
                weighted.set_goal(&grid, goal);
                for (x, y) in [(0, 0), (7, 31), (39, 39), (20, 1)] {
                    let (h, hw) = (octile.estimate(x, y, 0), weighted.estimate(x, y, 0));
                    assert!(hw >= h && hw as f64 <= w * h as f64, "w {w}: {hw} against {h}");
                }
            }
        }
    }

    #[test]
    fn weights_are_limited_to_16() {
        assert_eq!("weighted:16".parse(), Ok(HeuristicKind::WeightedOctile(16.0)));
        for bad in ["weighted:16.5", "weighted:1", "weighted:inf", "weighted:NaN"] {
            let error = bad.parse::<HeuristicKind>().unwrap_err();
            assert!(error.contains("1 < W <= 16"), "{bad}: {error}");
        }
    }
}
