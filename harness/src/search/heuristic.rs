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
}

impl HeuristicKind {
    /// The largest weight of weighted octile: past it the search is all but greedy, and the
    /// estimate's coefficients are kept within 16 times octile's.
    pub const MAX_WEIGHT: f64 = 16.0;
    /// The names accepted by [`FromStr`], for error messages.
    pub const NAMES: &'static str =
        "zero, manhattan, octile, chebyshev, weighted:W (1 < W <= 16, e.g. weighted:1.5), differential:K (K landmarks, 1..=16)";
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
    /// A geometric heuristic (`kind` is not `Differential`) for `grid` under the given
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
            HeuristicKind::Differential(_) => panic!("the differential heuristic is not geometric"),
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
        match self.kind {
            HeuristicKind::Manhattan => self.connectivity == Connectivity::Four,
            HeuristicKind::WeightedOctile(_) => false,
            _ => true,
        }
    }

    fn consistent(&self) -> bool {
        self.admissible()
    }
}

/// The differential heuristic (Sturtevant et al., "Memory-based heuristics for explicit
/// state spaces", IJCAI 2009): exact distances from and to `k` landmarks, and the largest
/// bound the triangle inequality gives: `d(n, goal) >= d(L, goal) - d(L, n)` and
/// `d(n, goal) >= d(n, L) - d(goal, L)`.
///
/// Landmarks are placed farthest-first. Building costs 2k Dijkstras over the map (k on
/// uniform maps, where both directions agree) and 8k bytes per cell per direction.
#[derive(Clone, Debug)]
pub struct Differential {
    /// For each landmark: the cost from it to every cell (`u64::MAX` = unreachable).
    from: Vec<Vec<u64>>,
    /// For each landmark: the cost from every cell to it (same as `from` on uniform maps).
    to: Vec<Vec<u64>>,
    /// The goal's entries of `from` and `to`.
    goal: Vec<(u64, u64)>,
}

const UNREACHED: u64 = u64::MAX;

impl Differential {
    /// Places `k` landmarks on the ground of `grid` and computes their distance tables.
    pub fn new(k: u8, grid: &Grid, connectivity: Connectivity, scale: CostScale) -> Self {
        let moves = Moves::new(grid, connectivity, scale);
        let symmetric = grid.weights().is_none();
        let Some(seed) = (0..grid.cells() as u32).find(|&i| grid.terrain(i) == Terrain::Ground)
        else {
            return Differential { from: Vec::new(), to: Vec::new(), goal: Vec::new() };
        };
        // Farthest-first: each landmark is the cell farthest from the ones before it.
        let mut nearest = distances(grid, &moves, seed, Direction::Forward);
        let (mut from, mut to) = (Vec::new(), Vec::new());
        for _ in 0..k {
            let landmark = (0..nearest.len())
                .filter(|&i| nearest[i] != UNREACHED)
                .max_by_key(|&i| nearest[i])
                .map_or(seed, |i| i as u32);
            let forward = distances(grid, &moves, landmark, Direction::Forward);
            for (near, &d) in nearest.iter_mut().zip(&forward) {
                *near = (*near).min(d);
            }
            let backward = if symmetric {
                forward.clone()
            } else {
                distances(grid, &moves, landmark, Direction::Backward)
            };
            from.push(forward);
            to.push(backward);
        }
        Differential { from, to, goal: Vec::new() }
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
    fn set_goal(&mut self, _: &Grid, goal: u32) {
        self.goal.clear();
        self.goal.extend(
            self.from.iter().zip(&self.to).map(|(f, t)| (f[goal as usize], t[goal as usize])),
        );
    }

    #[inline]
    fn estimate(&self, _: u32, _: u32, index: u32) -> u64 {
        let mut best = 0;
        for ((from, to), &(from_goal, to_goal)) in self.from.iter().zip(&self.to).zip(&self.goal) {
            let (from_n, to_n) = (from[index as usize], to[index as usize]);
            if from_goal != UNREACHED && from_n != UNREACHED {
                best = best.max(from_goal.saturating_sub(from_n));
            }
            if to_goal != UNREACHED && to_n != UNREACHED {
                best = best.max(to_n.saturating_sub(to_goal));
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
    /// Builds `kind` for `grid` (the differential heuristic runs its landmark Dijkstras).
    pub fn new(
        kind: HeuristicKind,
        grid: &Grid,
        connectivity: Connectivity,
        scale: CostScale,
    ) -> Self {
        match kind {
            HeuristicKind::Differential(k) => {
                AnyHeuristic::Differential(Differential::new(k, grid, connectivity, scale))
            }
            _ => AnyHeuristic::Geometric(Geometric::new(kind, grid, connectivity, scale)),
        }
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
