//! Jump point search (Harabor and Grastien, "Online Graph Pruning for Pathfinding on Grid
//! Maps", AAAI 2011): A\* on 8-connected uniform-cost grids that pushes only *jump
//! points*, the cells where an optimal path may have to turn, found by scanning straight
//! and diagonal lines from each expanded cell. The frontier sees far fewer, farther nodes
//! than the tuned A\*'s ([`super::astar`]), and the scans take most of the time.
//!
//! # Rules
//!
//! The Moving AI rules of [`crate::maps::moves`]: a move joins two cells of the start's
//! terrain class, straight moves cost `scale.straight`, diagonal ones `scale.diagonal`,
//! and a diagonal needs both orthogonal cells it passes (no corner cutting). Pruning
//! assumes `straight ≤ diagonal ≤ 2 × straight` (every scale the lab uses) and no cell
//! weights; [`Jps::new`] refuses anything else. Under these rules a diagonal move has no
//! forced neighbours; a straight move east from `c` forces north when north of `c` is open
//! and north of the cell behind `c` is not (and north-east with it), likewise south.
//!
//! # Keys
//!
//! As the tuned A\*'s: `f << 32 | (u32::MAX − g)` for queues that accept any key, `f` alone
//! for monotone ones. The octile estimate is consistent along a jump too (a jump is a
//! shortest path between its ends), so `f` never falls below the last popped key; but a
//! child's `f` can exceed its parent's by twice the jump's cost, up to
//! `2 × max(width, height) × diagonal` ([`Jps::span`]), which a bounded-span queue may
//! refuse (then JPS is `n/a` for it, see [`build`]).
//!
//! # Complexity
//!
//! A search expands O(jump points) cells and scans O(cells) in the worst case, each cell
//! read a bounded number of times per expansion; the per-cell state is 24 bytes,
//! generation-stamped, so a new search clears nothing map-sized.

use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{Frontier, Key, KeyRule, Pushed, Spec};

use super::astar::{endpoints, known_unreachable, Divider};
use super::check;
use super::grid_loop::{GridLoop, Target};
use super::heuristic::{AnyHeuristic, Heuristic};
use super::outcome::{Counters, Outcome, SearchError};
use super::ties::{LargerG, TieRule};
use crate::maps::grid::{Connectivity, Grid, Rules, Terrain};
use crate::maps::moves::{Components, Moves};

/// The direction of the start cell, which was not entered by a jump.
const START: u8 = 8;

/// The straight directions each diagonal is made of: `[vertical, horizontal]`, in
/// [`crate::maps::moves::DIRECTIONS`]' order (north, east, south, west, then north-east, south-east, ...).
const PARTS: [[usize; 2]; 4] = [[0, 1], [2, 1], [2, 3], [0, 3]];

/// The two straight directions across each straight direction.
const ACROSS: [[usize; 2]; 4] = [[1, 3], [0, 2], [1, 3], [0, 2]];

/// The diagonal between two perpendicular straight directions `a` and `b`.
fn diagonal(a: usize, b: usize) -> usize {
    4 + PARTS.iter().position(|p| p.contains(&a) && p.contains(&b)).expect("perpendicular")
}

/// One cell's search state.
#[derive(Clone, Copy, Debug, Default)]
struct JpsState {
    g: u64,
    /// The jump point this cell was reached from.
    parent: u32,
    /// Open at the context's `open` stamp, closed at `open + 1`, older stamps unseen.
    stamp: u32,
    /// The direction of the jump that reached it ([`START`] for the start).
    via: u8,
}

/// A jump point search context for one map, generic over the frontier, reused by every
/// search on the map.
pub struct Jps<F> {
    frontier: F,
    states: Vec<JpsState>,
    open: u32,
    moves: Moves,
}

impl<F: Frontier> Jps<F> {
    /// A context for searches on `grid` under `rules`, sharing `moves` (compiled for `grid`
    /// under `rules`, used to add up paths). O(cells).
    ///
    /// # Panics
    /// If `rules` are not 8-connected with `straight ≤ diagonal ≤ 2 × straight`, if the
    /// grid is weighted, or if `moves` were compiled for another grid.
    pub fn new(grid: &Grid, rules: Rules, moves: Moves) -> Self {
        assert!(Self::takes(grid, rules).is_ok(), "{}", Self::takes(grid, rules).unwrap_err());
        assert_eq!(moves.masks().len(), grid.cells(), "moves compiled for another grid");
        let span = Self::span(grid, rules);
        Jps {
            frontier: F::new(Spec { capacity: grid.cells(), span }),
            states: vec![JpsState::default(); grid.cells()],
            open: 0,
            moves,
        }
    }

    /// Whether JPS searches `grid` under `rules` exactly, or why not.
    pub fn takes(grid: &Grid, rules: Rules) -> Result<(), String> {
        let (s, d) = (rules.scale.straight, rules.scale.diagonal);
        if rules.connectivity != Connectivity::Eight {
            return Err("jump point search takes 8 moves".into());
        }
        if !(s <= d && d <= 2 * s) {
            return Err(format!(
                "jump point search prunes for straight ≤ diagonal ≤ 2 × straight, not {s}/{d}"
            ));
        }
        if grid.weights().is_some() {
            return Err("jump point search needs every passable cell to cost the same".into());
        }
        Ok(())
    }

    /// The largest amount a child's key can exceed the last popped key by: twice the
    /// costliest jump, `2 × max(width, height) × diagonal`.
    pub fn span(grid: &Grid, rules: Rules) -> Key {
        let side = u64::from(grid.width().max(grid.height()));
        2 * side * u64::from(rules.scale.diagonal.max(rules.scale.straight))
    }

    /// Finds a cheapest path from `start` to `goal` (cells `(x, y)`) with `heuristic`:
    /// optimal with an admissible, consistent heuristic and an exact frontier. With
    /// `components`, a goal in another component is answered at once.
    pub fn search<H: Heuristic>(
        &mut self,
        grid: &Grid,
        heuristic: &mut H,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        let (start, goal) = endpoints(grid, self.states.len(), start, goal)?;
        let mut counters = Counters::default();
        if self.open >= u32::MAX - 3 {
            self.states.fill(JpsState::default());
            self.open = 0;
        }
        self.open += 2;
        self.frontier.clear();
        if known_unreachable(grid, components, start, goal) {
            return Ok(Outcome { cost: None, counters });
        }
        heuristic.set_goal(grid, goal);
        let mut cost = self.run(grid, heuristic, start, goal, &mut counters)?;
        // As in the tuned A*: after a reopening the parents may trace a cheaper path than
        // the goal's cost; the answer is the path's own.
        if cost.is_some() && counters.reopenings > 0 {
            let path = self.path(grid, grid.coords(goal)).expect("the goal was reached");
            cost = check::path_cost(grid, &self.moves, &path);
        }
        Ok(Outcome { cost, counters })
    }

    /// The key of a cell with `f` and `g`, both below 2³²: the tuned A\*'s own tie rule.
    fn key(f: u64, g: u64) -> Key {
        LargerG::key(F::KEYS, f, g, 0)
    }

    /// The search loop proper.
    fn run<H: Heuristic>(
        &mut self,
        grid: &Grid,
        heuristic: &H,
        start: u32,
        goal: u32,
        counters: &mut Counters,
    ) -> Result<Option<u64>, SearchError> {
        let (open, closed) = (self.open, self.open + 1);
        let scan = Scan {
            terrain: grid.terrains(),
            class: grid.terrain(start),
            offsets: *self.moves.offsets(),
            goal,
        };
        let steps = *self.moves.steps();
        let divide = Divider::new(grid.stride());
        let (x, y) = divide.coords(start);
        let h = heuristic.estimate(x, y, start);
        if h > u64::from(u32::MAX) {
            return Err(SearchError::CostOverflow { f: h });
        }
        self.states[start as usize] = JpsState { g: 0, parent: start, stamp: open, via: START };
        self.push(start, Self::key(h, 0))?;
        counters.pushes += 1;
        let mut open_cells: u64 = 1;
        counters.max_open = 1;
        counters.max_frontier = 1;
        while let Some((cell, key)) = self.frontier.pop() {
            counters.pops += 1;
            let state = self.states[cell as usize];
            let (x, y) = divide.coords(cell);
            let current =
                LargerG::current(F::KEYS, key, state.g as u32, || heuristic.estimate(x, y, cell));
            if state.stamp == closed || !current {
                counters.stale_pops += 1;
                continue;
            }
            self.states[cell as usize].stamp = closed;
            open_cells -= 1;
            counters.expansions += 1;
            if cell == goal {
                return Ok(Some(state.g));
            }
            if super::stop::poll(counters.expansions) {
                return Err(SearchError::Stopped);
            }
            let mut directions = scan.directions(cell, state.via);
            while directions != 0 {
                let d = directions.trailing_zeros() as usize;
                directions &= directions - 1;
                let Some((next, n)) = scan.jump(cell, d) else { continue };
                let g_next = state.g + n * steps[d];
                let seen = self.states[next as usize];
                if seen.stamp >= open && g_next >= seen.g {
                    continue;
                }
                if seen.stamp != open {
                    open_cells += 1;
                    counters.reopenings += u64::from(seen.stamp == closed);
                }
                let (nx, ny) = divide.coords(next);
                let f_next = g_next + heuristic.estimate(nx, ny, next);
                if f_next > u64::from(u32::MAX) {
                    return Err(SearchError::CostOverflow { f: f_next });
                }
                let via = d as u8;
                self.states[next as usize] = JpsState { g: g_next, parent: cell, stamp: open, via };
                match self.push(next, Self::key(f_next, g_next))? {
                    Pushed::Added => counters.pushes += 1,
                    Pushed::Decreased => counters.decrease_keys += 1,
                    Pushed::Kept => {}
                }
            }
            counters.max_frontier = counters.max_frontier.max(self.frontier.len() as u64);
            counters.max_open = counters.max_open.max(open_cells);
        }
        Ok(None)
    }

    fn push(&mut self, cell: u32, key: Key) -> Result<Pushed, SearchError> {
        self.frontier.push(cell, key).map_err(|source| SearchError::Frontier {
            source,
            hint: " (jump point search's key span is twice its longest jump)",
        })
    }

    /// The cells of the path found by the last search, start first (every cell between
    /// two jump points included), when it reached `goal`; `None` otherwise.
    pub fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        if !grid.contains(goal.0, goal.1) || grid.cells() != self.states.len() {
            return None;
        }
        let mut cell = grid.index(goal.0, goal.1);
        if self.states[cell as usize].stamp != self.open + 1 {
            return None;
        }
        let offsets = self.moves.offsets();
        let mut path = vec![grid.coords(cell)];
        loop {
            let state = self.states[cell as usize];
            if state.via == START {
                break;
            }
            while cell != state.parent {
                cell = cell.wrapping_add_signed(-offsets[usize::from(state.via)]);
                path.push(grid.coords(cell));
            }
        }
        path.reverse();
        Some(path)
    }
}

/// The line scans of one search: which cells are open, and the goal.
struct Scan<'a> {
    terrain: &'a [Terrain],
    class: Terrain,
    offsets: [i32; 8],
    goal: u32,
}

impl Scan<'_> {
    /// Whether `cell` is of the start's class (the blocked border never is).
    #[inline(always)]
    fn open(&self, cell: u32) -> bool {
        self.terrain[cell as usize] == self.class
    }

    #[inline(always)]
    fn step(&self, cell: u32, d: usize) -> u32 {
        cell.wrapping_add_signed(self.offsets[d])
    }

    /// The directions to scan from `cell`, reached by a jump along `via`: every direction
    /// from the start; along a diagonal, it and its two parts; along a straight line, it
    /// and the forced neighbours' directions.
    fn directions(&self, cell: u32, via: u8) -> u8 {
        let d = usize::from(via);
        match d {
            _ if via == START => u8::MAX,
            0..=3 => {
                let mut mask = 1 << d;
                let behind = self.step(cell, (d + 2) % 4);
                for a in ACROSS[d] {
                    if self.open(self.step(cell, a)) && !self.open(self.step(behind, a)) {
                        mask |= 1 << a | 1 << diagonal(d, a);
                    }
                }
                mask
            }
            _ => 1 << d | 1 << PARTS[d - 4][0] | 1 << PARTS[d - 4][1],
        }
    }

    /// The first jump point from `cell` along `d` and how many moves away, or `None` when
    /// the line ends first.
    fn jump(&self, cell: u32, d: usize) -> Option<(u32, u64)> {
        if d < 4 {
            return self.jump_straight(cell, d);
        }
        let [v, h] = PARTS[d - 4];
        let (mut cell, mut n) = (cell, 0);
        loop {
            let legal = self.open(self.step(cell, v))
                && self.open(self.step(cell, h))
                && self.open(self.step(cell, d));
            if !legal {
                return None;
            }
            cell = self.step(cell, d);
            n += 1;
            if cell == self.goal
                || self.jump_straight(cell, h).is_some()
                || self.jump_straight(cell, v).is_some()
            {
                return Some((cell, n));
            }
        }
    }

    /// [`Scan::jump`] along a straight direction: a jump point is the goal, or a cell with
    /// a forced neighbour.
    fn jump_straight(&self, cell: u32, d: usize) -> Option<(u32, u64)> {
        let (mut cell, mut n) = (cell, 0);
        loop {
            let next = self.step(cell, d);
            if !self.open(next) {
                return None;
            }
            n += 1;
            if next == self.goal {
                return Some((next, n));
            }
            for a in ACROSS[d] {
                if self.open(self.step(next, a)) && !self.open(self.step(cell, a)) {
                    return Some((next, n));
                }
            }
            cell = next;
        }
    }
}

impl<F: Frontier> GridLoop for Jps<F> {
    fn search(
        &mut self,
        grid: &Grid,
        heuristic: &mut AnyHeuristic,
        components: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        Jps::search(self, grid, heuristic, components, start, goal)
    }

    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        Jps::path(self, grid, goal)
    }
}

/// The registry's hook ([`super::grid_loop::Build`]): JPS with `queue` on `target`, or why
/// not (rules it does not prune for; a bounded-span queue that refuses its key span,
/// asked with one push at the span). O(cells).
pub fn build(target: &Target<'_>, queue: &'static Entry) -> Result<Box<dyn GridLoop>, String> {
    Jps::<pqlab_queues::std_binary_heap::StdBinaryHeap>::takes(target.grid, target.rules())?;
    registry::visit(queue.id, MakeJps(target)).expect("a registered queue")
}

/// Builds JPS with the queue it visits.
struct MakeJps<'t, 'a>(&'t Target<'a>);

impl Visitor for MakeJps<'_, '_> {
    type Output = Result<Box<dyn GridLoop>, String>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
        let Target { grid, moves, series } = *self.0;
        let rules = series.rules();
        if F::KEYS == KeyRule::BoundedSpan {
            let span = Jps::<F>::span(grid, rules);
            let mut probe = F::new(Spec { capacity: 2, span });
            probe.push(0, 0).and_then(|_| probe.push(1, span)).map_err(|e| {
                format!("jump point search's keys rise up to {span} above the last popped one on this map (twice its longest jump), and the queue refuses that: {e}")
            })?;
        }
        Ok(Box::new(Jps::<F>::new(grid, rules, moves.clone())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maps::moves::DIRECTIONS;

    #[test]
    fn each_diagonal_is_made_of_its_two_straight_parts() {
        for (i, &[v, h]) in PARTS.iter().enumerate() {
            let (d, a, b) = (DIRECTIONS[4 + i], DIRECTIONS[v], DIRECTIONS[h]);
            assert_eq!(d, (a.0 + b.0, a.1 + b.1));
            assert_eq!(diagonal(v, h), 4 + i);
        }
        for (d, across) in ACROSS.iter().enumerate() {
            for &a in across {
                let dot = DIRECTIONS[d].0 * DIRECTIONS[a].0 + DIRECTIONS[d].1 * DIRECTIONS[a].1;
                assert_eq!(dot, 0, "{a} is not across {d}");
            }
        }
    }
}
