//! A series of search workloads: the dimensions every search workload, every `pick`
//! question and every row's facts share ([`Series`]).

use crate::maps::grid::{Connectivity, CostKind, CostScale, Rules};
use crate::maps::GraphKind;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::{SearchKind, Setup};

/// A series of search workloads: one setup (search loop, graph, moves, cost
/// representation), heuristic, cost scale and store. Every dimension is typed; a series is
/// never borrowed to answer for another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Series {
    /// The search loop, graph, moves and cost representation.
    pub setup: Setup,
    /// The heuristic.
    pub heuristic: HeuristicKind,
    /// The cost scale.
    pub scale: CostScale,
    /// The per-cell store.
    pub store: StoreKind,
}

impl Series {
    /// The series users run: octile A*, fine costs, a flat per-cell array.
    pub const OCTILE: Series = Series {
        setup: Setup::GRID_ASTAR,
        heuristic: HeuristicKind::Octile,
        scale: CostScale::FINE,
        store: StoreKind::Flat,
    };

    /// `search` on a user's integer-cost grid under `rules` with `heuristic` and the flat
    /// store, as `pqlab run` and `pqlab validate` search a map.
    pub fn on_grid(search: SearchKind, rules: Rules, heuristic: HeuristicKind) -> Series {
        Series {
            setup: Setup { search, moves: Some(rules.connectivity), ..Setup::GRID_ASTAR },
            heuristic,
            scale: rules.scale,
            store: StoreKind::Flat,
        }
    }

    /// The movement rules of its grid searches: its moves (8 where it has none) and its
    /// cost scale.
    pub fn rules(&self) -> Rules {
        Rules { connectivity: self.setup.moves.unwrap_or(Connectivity::Eight), scale: self.scale }
    }

    /// Whether the held sizes model this series' queues: octile A\* with fine integer
    /// costs on 8 moves, whose key increments the synthetic workload replays (any store:
    /// the queue alone has none).
    pub fn held_sizes_model(&self) -> bool {
        self.setup == Setup::GRID_ASTAR
            && self.heuristic == HeuristicKind::Octile
            && self.scale == CostScale::FINE
    }

    /// Whether its searches must be exact: a consistent heuristic under its moves. The
    /// others (weighted A\*, Manhattan on 8 moves) rank every queue that took their keys,
    /// by time, with their paths' excess beside.
    pub fn exact(&self) -> bool {
        self.heuristic.consistent_on(self.setup.moves.unwrap_or(Connectivity::Eight))
    }

    /// `octile A*, fine costs` (with the store when it is not the flat array, and the
    /// setup where it is not pqlab's 8-connected integer-cost grid A*:
    /// `manhattan A*, unit costs, 4 moves`, `octile generic A*, fine float costs`,
    /// `straight-line generic A*, road graph`).
    pub fn describe(&self) -> String {
        let setup = self.setup;
        let loop_name = setup.search.entry().name;
        let search = match (setup.search, self.heuristic) {
            (SearchKind::Astar, HeuristicKind::Zero) => "Dijkstra".to_owned(),
            (_, HeuristicKind::Zero) => format!("{loop_name} with h = 0 (Dijkstra)"),
            (_, HeuristicKind::WeightedOctile(w)) => format!("weighted {loop_name} (w = {w})"),
            (_, HeuristicKind::Differential(k)) => {
                format!("{loop_name} with the differential heuristic ({k} landmarks)")
            }
            (_, h) => format!("{h} {loop_name}"),
        };
        // Road costs have one scale (the graphs' fixed point), so only float ones are said.
        let costs = match (setup.graph, setup.costs) {
            (GraphKind::Road, CostKind::Integer) => String::new(),
            (GraphKind::Road, CostKind::Float) => ", float costs".to_owned(),
            (GraphKind::Grid, CostKind::Integer) => format!(", {} costs", self.scale),
            (GraphKind::Grid, CostKind::Float) => format!(", {} float costs", self.scale),
        };
        let graph = match (setup.graph, setup.moves) {
            (GraphKind::Road, _) => ", road graph".to_owned(),
            (GraphKind::Grid, Some(Connectivity::Four)) => ", 4 moves".to_owned(),
            (GraphKind::Grid, _) => String::new(),
        };
        let store =
            if self.store == StoreKind::Flat { String::new() } else { format!(", {}", self.store) };
        format!("{search}{costs}{graph}{store}")
    }
}
