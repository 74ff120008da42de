//! Searches: the A* and its per-cell stores, the heuristics, the answer checks ([`check`]:
//! against a scenario's optimal length, or the cost the reference Dijkstra of
//! [`crate::maps::reference`] or [`crate::maps::road`] gives a generated or drawn problem),
//! operation traces and the oracle floor, other crates' A* (the peers), and two
//! loops without a priority queue on the same moves: fringe search and breadth-first search.
//! The searches are listed in [`registry`]: those that take a queue (the tuned A\* under
//! each tie rule of [`ties`] and with its heuristic [`cached`], the generic A\*, jump point
//! search ([`jps`]), the [`textbook`] Dijkstra) and the two
//! loops without one ([`registry::LOOPS`]).

pub mod astar;
pub mod bfs;
pub mod cached;
pub mod check;
pub mod fringe;
pub mod generic;
pub mod grid_loop;
pub mod heuristic;
pub mod jps;
pub mod outcome;
pub mod peers;
pub mod registry;
pub mod series;
pub mod stop;
pub mod store;
pub mod textbook;
pub mod ties;
pub mod trace;

use crate::maps::grid::{Connectivity, CostKind, CostScale};
use crate::maps::GraphKind;
use heuristic::HeuristicKind;
pub use registry::SearchKind;
pub use series::Series;

/// How a workload searches, beyond its heuristic, cost scale and store: which loop, on
/// which graph, under which moves, with which cost representation. Each is a typed
/// dimension of a workload, written in its own column, and `pqlab pick` selects on each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The search loop.
    pub search: SearchKind,
    /// The graph.
    pub graph: GraphKind,
    /// 4 or 8 moves on grids; `None` on other graphs.
    pub moves: Option<Connectivity>,
    /// Integer or float costs.
    pub costs: CostKind,
}

impl Setup {
    /// The search users run most and every run before schema 4 measured: pqlab's A\* on an
    /// 8-connected grid with integer costs.
    pub const GRID_ASTAR: Setup = Setup {
        search: SearchKind::Astar,
        graph: GraphKind::Grid,
        moves: Some(Connectivity::Eight),
        costs: CostKind::Integer,
    };

    /// The heuristic that is exact on open ground under these moves and costs, which users
    /// of such a search run: Manhattan on 4 moves, Chebyshev on 8 unit-cost moves, octile
    /// on 8 moves with diagonals dearer than straight steps; straight-line on road graphs.
    pub fn natural_heuristic(&self, scale: CostScale) -> HeuristicKind {
        if self.graph == GraphKind::Road {
            return HeuristicKind::StraightLine;
        }
        match self.moves {
            Some(Connectivity::Four) => HeuristicKind::Manhattan,
            _ if scale.straight == scale.diagonal => HeuristicKind::Chebyshev,
            _ => HeuristicKind::Octile,
        }
    }

    /// The setup's tokens that differ from [`Setup::GRID_ASTAR`]'s, in a fixed order
    /// (search, graph, moves, costs), for workload names: `["generic", "4-moves"]`.
    pub fn tokens(&self) -> Vec<&'static str> {
        let base = Setup::GRID_ASTAR;
        let mut tokens = Vec::new();
        if self.search != base.search {
            tokens.push(self.search.token());
        }
        if self.graph != base.graph {
            tokens.push(self.graph.token());
        }
        if self.moves != base.moves && self.graph == GraphKind::Grid {
            tokens.push(match self.moves {
                Some(Connectivity::Four) => "4-moves",
                _ => "8-moves",
            });
        }
        if self.costs != base.costs {
            tokens.push("float");
        }
        tokens
    }
}
