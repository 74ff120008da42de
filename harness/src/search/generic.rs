//! A grid searched the way users write A\* with a library: the generic A\* of
//! `pqlab-queues` (`pqlab_queues::astar_with_stats`, the `pathfinding` crate's shape),
//! `(x, y)` nodes, a successors closure returning a `Vec` of `(node, cost)` pairs, and the
//! per-node state in a hash map. The lab times it as its own series beside the tuned grid
//! A\* ([`super::astar`]), so a queue's gain can be quoted in both searches.
//!
//! Costs are the workload's integers (`u64`, its cost scale: the key is `f` alone, and ties
//! pop in the queue's own order) or `f64` in Moving AI units (a straight step 1, a diagonal
//! √2, times the weight of the cell entered), as most users write them. A float answer is
//! reported in the workload's fixed-point scale, rounded: the fine scale's √2
//! (275807/195025) is off by about 10⁻¹¹ a diagonal, so an optimal float path rounds to the
//! exact optimum of the integer rules on every map the lab searches (a path would need
//! tens of thousands more diagonals than another of nearly the same cost to round apart).
//!
//! Per expansion: one hash lookup per successor, a `Vec` allocated by the successors
//! closure, and the queue's operations; the same estimates as the tuned A\*.

use std::f64::consts::SQRT_2;
use std::marker::PhantomData;

use pqlab_queues::astar::{astar_with_stats, takes, AstarError, Cost, Counters};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::Frontier;

use super::grid_loop::{GridLoop, Target};
use super::heuristic::{AnyHeuristic, Heuristic, HeuristicKind};
use super::outcome::{Outcome, SearchError};
use super::stop::Ticker;
use crate::maps::grid::Rules;
use crate::maps::grid::{CostKind, Grid};
use crate::maps::moves::{for_each_move, Components, Direction, Moves};

/// A grid node as users number it.
pub type Cell = (u32, u32);

/// A grid prepared for the generic A\*: its moves, and which costs it hands out.
pub struct GenericGrid {
    moves: Moves,
    scale: f64,
    costs: CostKind,
    heuristic: HeuristicKind,
    min_weight: f64,
}

impl GenericGrid {
    /// Prepares `grid` under `rules` with `costs`; `heuristic` must be one
    /// [`GenericGrid::supports`] accepts. O(cells).
    pub fn new(grid: &Grid, rules: Rules, costs: CostKind, heuristic: HeuristicKind) -> Self {
        GenericGrid {
            moves: Moves::new(grid, rules.connectivity, rules.scale),
            scale: f64::from(rules.scale.straight),
            costs,
            heuristic,
            min_weight: f64::from(grid.min_weight()),
        }
    }

    /// Whether float costs can be searched under `heuristic`: the zero and octile
    /// estimates, which are written in floats here; any heuristic with integer costs.
    pub fn supports(costs: CostKind, heuristic: HeuristicKind) -> Result<(), String> {
        match (costs, heuristic) {
            (CostKind::Integer, _) | (_, HeuristicKind::Zero | HeuristicKind::Octile) => Ok(()),
            (_, h) => Err(format!("float costs are searched with octile or zero, not {h}")),
        }
    }

    /// Solves one problem with queue `Q`: the cost in the grid's integer scale (a float
    /// cost rounded to it) and the search's counters.
    pub fn solve<Q: Frontier>(
        &self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        components: Option<&Components>,
        start: Cell,
        goal: Cell,
    ) -> Result<Outcome, AstarError> {
        let (s, g) = (grid.index(start.0, start.1), grid.index(goal.0, goal.1));
        if components.is_some_and(|c| !c.connected(s, g)) {
            return Ok(Outcome { cost: None, counters: Counters::default() });
        }
        match self.costs {
            CostKind::Integer => {
                heuristic.set_goal(grid, g);
                let h = |&(x, y): &Cell| {
                    let i = grid.index(x, y);
                    heuristic.estimate(i % grid.stride(), i / grid.stride(), i)
                };
                let (found, stats) = self.search::<Q, u64>(grid, start, goal, h, |cost, _| cost)?;
                Ok(outcome(found, stats))
            }
            CostKind::Float => {
                let octile = self.heuristic == HeuristicKind::Octile;
                let h = |&(x, y): &Cell| {
                    if !octile {
                        return 0.0;
                    }
                    let (dx, dy) = (f64::from(x.abs_diff(goal.0)), f64::from(y.abs_diff(goal.1)));
                    (dx.max(dy) + (SQRT_2 - 1.0) * dx.min(dy)) * self.min_weight
                };
                let step = |cost: u64, d: u8| {
                    let weight = cost as f64 / self.moves.steps()[d as usize] as f64;
                    if d >= 4 {
                        SQRT_2 * weight
                    } else {
                        weight
                    }
                };
                let (found, stats) = self.search::<Q, f64>(grid, start, goal, h, step)?;
                Ok(outcome(found.map(|c| (c * self.scale).round() as u64), stats))
            }
        }
    }

    /// The generic A\* with costs `C`, each move's cost from its integer cost and
    /// direction by `step`.
    fn search<Q: Frontier, C: Cost>(
        &self,
        grid: &Grid,
        start: Cell,
        goal: Cell,
        heuristic: impl FnMut(&Cell) -> C,
        step: impl Fn(u64, u8) -> C,
    ) -> Result<(Option<C>, Counters), AstarError> {
        let successors = |&(x, y): &Cell| {
            let mut next = Vec::with_capacity(8);
            for_each_move(grid, &self.moves, Direction::Forward, grid.index(x, y), |m| {
                next.push((grid.coords(m.cell), step(m.cost, m.direction)));
            });
            next
        };
        // An armed stop ends the search by declaring the goal found (see `super::stop`).
        let mut stop = Ticker::default();
        let success = |&n: &Cell| n == goal || stop.tick();
        let (found, stats) =
            astar_with_stats::<Q, Cell, C, _>(&start, successors, heuristic, success)?;
        Ok((found.map(|(_, cost)| cost), stats))
    }
}

/// The harness's outcome from a cost in the integer scale and the library's counters,
/// which are the harness's own (the road searches' too).
pub fn outcome(cost: Option<u64>, counters: Counters) -> Outcome {
    Outcome { cost, counters }
}

/// The generic A\* with queue `F` on a prepared grid, as the lab times it.
struct GenericLoop<F> {
    grid: GenericGrid,
    queue: PhantomData<F>,
}

impl<F: Frontier> GridLoop for GenericLoop<F> {
    fn search(
        &mut self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        components: Option<&Components>,
        start: Cell,
        goal: Cell,
    ) -> Result<Outcome, SearchError> {
        Ok(self.grid.solve::<F>(grid, heuristic, components, start, goal)?)
    }

    /// None: the generic A\* returns its cost alone.
    fn path(&self, _: &Grid, _: Cell) -> Option<Vec<Cell>> {
        None
    }
}

/// The registry's hook ([`super::grid_loop::Build`]): the generic A\* with `queue`, or why
/// it cannot run there (float costs under another heuristic than octile or zero; a queue
/// that takes not the costs' keys: a bounded-span queue and float keys, a narrow queue and
/// 64-bit keys). O(cells).
pub fn build(target: &Target<'_>, queue: &'static Entry) -> Result<Box<dyn GridLoop>, String> {
    GenericGrid::supports(target.series.setup.costs, target.series.heuristic)?;
    registry::visit(queue.id, MakeGeneric(target)).expect("a registered queue")
}

/// Builds the generic A\* with the queue it visits.
struct MakeGeneric<'t, 'a>(&'t Target<'a>);

impl Visitor for MakeGeneric<'_, '_> {
    type Output = Result<Box<dyn GridLoop>, String>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
        let t = self.0;
        match t.series.setup.costs {
            CostKind::Integer => takes::<F, u64>(),
            CostKind::Float => takes::<F, f64>(),
        }
        .map_err(str::to_owned)?;
        let grid = GenericGrid::new(t.grid, t.rules(), t.series.setup.costs, t.series.heuristic);
        Ok(Box::new(GenericLoop::<F> { grid, queue: PhantomData }))
    }
}
