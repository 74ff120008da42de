//! The A* searches Rust users pick today, on the same maps and problems: the `pathfinding`
//! crate's `astar` and `petgraph`'s `astar`. Both use the movement rules of [`crate::maps::moves`]
//! and the octile heuristic, so their costs are checked exactly against pqlab's.
//!
//! Each is written as their documentation shows: `pathfinding` takes a successor closure
//! returning a `Vec` per expansion; `petgraph` searches a `DiGraph` built from the grid
//! once, outside any timing.

use petgraph::graph::{DiGraph, NodeIndex};

use super::stop::Ticker;
use crate::maps::grid::Rules;
use crate::maps::grid::{Grid, Terrain};
use crate::maps::moves::{for_each_move, Direction, Moves};
use crate::search::heuristic::{Geometric, Heuristic, HeuristicKind};

/// A peer's search prepared for one map.
pub trait Peer {
    /// The id used in results (`pathfinding-astar`, `petgraph-astar`).
    const ID: &'static str;
    /// Prepares searches on `grid` (petgraph builds its graph here).
    fn new(grid: &Grid, rules: Rules) -> Self;
    /// The cost of a cheapest path from `start` to `goal` (cells), `None` if unreachable.
    fn search(&mut self, grid: &Grid, start: (u32, u32), goal: (u32, u32)) -> Option<u64>;
}

/// What is done with each peer, typed: [`each`] visits every peer once.
pub trait PeerVisitor {
    /// What one visit gives.
    type Output;
    /// Visits peer `P`.
    fn visit<P: Peer + 'static>(&mut self) -> Self::Output;
}

/// Every peer, visited in a fixed order (the order results list them). Adding a peer is its
/// `impl Peer` and one line here: the lab, `pqlab compare` and the results' check take
/// their peers from this.
pub fn each<V: PeerVisitor>(visitor: &mut V) -> Vec<V::Output> {
    vec![visitor.visit::<PathfindingAstar>(), visitor.visit::<PetgraphAstar>()]
}

/// Every peer's id ([`Peer::ID`]), in [`each`]'s order.
pub fn ids() -> Vec<&'static str> {
    struct PeerIds;
    impl PeerVisitor for PeerIds {
        type Output = &'static str;
        fn visit<P: Peer + 'static>(&mut self) -> &'static str {
            P::ID
        }
    }
    each(&mut PeerIds)
}

fn octile(grid: &Grid, rules: Rules, goal: u32) -> Geometric {
    let mut h = Geometric::new(HeuristicKind::Octile, grid, rules.connectivity, rules.scale);
    h.set_goal(grid, goal);
    h
}

/// `pathfinding::directed::astar::astar` over cell indices.
pub struct PathfindingAstar {
    moves: Moves,
    rules: Rules,
}

impl Peer for PathfindingAstar {
    const ID: &'static str = "pathfinding-astar";

    fn new(grid: &Grid, rules: Rules) -> Self {
        PathfindingAstar { moves: Moves::new(grid, rules.connectivity, rules.scale), rules }
    }

    fn search(&mut self, grid: &Grid, start: (u32, u32), goal: (u32, u32)) -> Option<u64> {
        let (start, goal) = (grid.index(start.0, start.1), grid.index(goal.0, goal.1));
        let class = grid.terrain(start);
        if class == Terrain::Blocked || grid.terrain(goal) != class {
            return None;
        }
        let h = octile(grid, self.rules, goal);
        let stride = grid.stride();
        let moves = &self.moves;
        // An armed stop ends the search by declaring the goal found (see `super::stop`).
        let mut stop = Ticker::default();
        pathfinding::directed::astar::astar(
            &start,
            |&cell| {
                let mut next = Vec::with_capacity(8);
                for_each_move(grid, moves, Direction::Forward, cell, |m| {
                    next.push((m.cell, m.cost))
                });
                next
            },
            |&cell| h.estimate(cell % stride, cell / stride, cell),
            |&cell| cell == goal || stop.tick(),
        )
        .map(|(_, cost)| cost)
    }
}

/// `petgraph::algo::astar` over a `DiGraph` with one node per cell.
pub struct PetgraphAstar {
    graph: DiGraph<(), u64, u32>,
    rules: Rules,
}

impl Peer for PetgraphAstar {
    const ID: &'static str = "petgraph-astar";

    fn new(grid: &Grid, rules: Rules) -> Self {
        let moves = Moves::new(grid, rules.connectivity, rules.scale);
        let mut graph = DiGraph::with_capacity(grid.cells(), grid.cells() * 8);
        for _ in 0..grid.cells() {
            graph.add_node(());
        }
        for cell in 0..grid.cells() as u32 {
            let class = grid.terrain(cell);
            if class != Terrain::Blocked {
                for_each_move(grid, &moves, Direction::Forward, cell, |m| {
                    graph.add_edge(
                        NodeIndex::new(cell as usize),
                        NodeIndex::new(m.cell as usize),
                        m.cost,
                    );
                });
            }
        }
        PetgraphAstar { graph, rules }
    }

    fn search(&mut self, grid: &Grid, start: (u32, u32), goal: (u32, u32)) -> Option<u64> {
        let (start, goal) = (grid.index(start.0, start.1), grid.index(goal.0, goal.1));
        if grid.terrain(start) == Terrain::Blocked || grid.terrain(goal) != grid.terrain(start) {
            return None;
        }
        let h = octile(grid, self.rules, goal);
        let stride = grid.stride() as usize;
        // Not stopped within a search (`super::stop`): petgraph asserts, in debug builds,
        // that the node it is told is the goal has an estimate of 0. Its check is cut off
        // between searches, after at most 6 times the baseline's time on a 512² map.
        petgraph::algo::astar(
            &self.graph,
            NodeIndex::new(start as usize),
            |n| n.index() == goal as usize,
            |e| *e.weight(),
            |n| {
                let i = n.index();
                h.estimate((i % stride) as u32, (i / stride) as u32, i as u32)
            },
        )
        .map(|(cost, _)| cost)
    }
}
