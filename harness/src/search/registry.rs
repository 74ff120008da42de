//! The searches that take a queue, as data: one [`SearchEntry`] per search loop, with its
//! token, its names, what it needs of a workload, the search it is compared with, and the
//! hook that builds it with a registry queue. The lab checks and times a search through
//! [`SearchEntry::build`]; `pick`, the report and the verdicts name it from its entry.
//!
//! The loops that take no queue (fringe search, breadth-first search) are the other list,
//! [`LOOPS`]: each is timed beside the queues of a grid A\* workload, as a `loop` row under
//! its id, where it is exact.
//!
//! Adding a search is its file (a [`GridLoop`](super::grid_loop::GridLoop) and a [`Build`]
//! hook), one [`SearchKind`]
//! variant with one entry in [`SEARCHES`], and its tests; a tie rule of the A\* is its type
//! in [`super::ties`] and one `tied` entry; a loop without a queue is its file (a
//! [`GridLoop`](super::grid_loop::GridLoop) and a [`LoopBuild`] hook), one entry in
//! [`LOOPS`], and its tests.

use pqlab_queues::Strategy;

use super::bfs::Bfs;
use super::fringe::Fringe;
use super::grid_loop::{Build, LoopBuild};
use super::heuristic::HeuristicKind;
use super::{astar, bfs, cached, fringe, generic, jps, textbook, ties};
use crate::maps::grid::{Connectivity, CostKind, Grid};
use crate::maps::GraphKind;

/// Which search loop a workload times: a dimension of every workload, like its heuristic.
///
/// Written in results as its token (the `search` column, its [`SearchEntry::token`]);
/// `pqlab pick --search` selects it.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum SearchKind {
    // Each `help` is the variant's line in `pick --help`: the doc comment in plain words,
    // without rustdoc's links and escapes.
    /// pqlab's tuned grid A\* ([`astar::AStar`]): 8-byte cell states, move masks.
    #[default]
    #[value(help = "pqlab's tuned grid A*: 8-byte cell states, move masks")]
    Astar,
    /// The generic A\* of `pqlab-queues` (`pqlab_queues::astar`), in the `pathfinding`
    /// crate's shape: a successors closure and a hash map of node states, as users write it.
    #[value(
        help = "The generic A* of pqlab-queues (pqlab_queues::astar), in the pathfinding crate's shape: a successors closure and a hash map of node states, as users write it"
    )]
    Generic,
    /// Jump point search ([`super::jps::Jps`]) on 8-connected uniform-cost grids.
    #[value(help = "Jump point search on 8-connected uniform-cost grids")]
    Jps,
    /// The tuned A\* giving `f` alone to every queue: ties in the queue's own order.
    #[value(help = "The tuned A* giving f alone to every queue: ties in the queue's own order")]
    AstarTiesQueue,
    /// The tuned A\* breaking ties toward smaller `g` (larger `h`).
    #[value(help = "The tuned A* breaking ties toward smaller g (larger h)")]
    AstarTiesSmallerG,
    /// The tuned A\* breaking ties first in, first out.
    #[value(help = "The tuned A* breaking ties first in, first out")]
    AstarTiesFifo,
    /// The tuned A\* breaking ties last in, first out.
    #[value(help = "The tuned A* breaking ties last in, first out")]
    AstarTiesLifo,
    /// The tuned A\* with each cell's heuristic estimate cached ([`cached`]).
    #[value(help = "The tuned A* with each cell's heuristic estimate cached")]
    AstarCachedH,
    /// The tuned A\* never told the map's components: a goal in another component is found
    /// unreachable by expanding the start's whole component.
    #[value(
        help = "The tuned A* never told the map's components: a goal in another component is found unreachable by expanding the start's whole component"
    )]
    AstarFlood,
    /// Dijkstra's algorithm as textbooks write it ([`textbook`]): every cell queued at the
    /// start, no early exit, decrease-key.
    #[value(
        help = "Dijkstra's algorithm as textbooks write it: every cell queued at the start, no early exit, decrease-key"
    )]
    DijkstraTextbook,
}

impl SearchKind {
    /// Its registry entry.
    pub fn entry(self) -> &'static SearchEntry {
        SEARCHES.iter().find(|e| e.kind == self).expect("every search kind is registered")
    }

    /// The token written in results and workload names.
    pub fn token(self) -> &'static str {
        self.entry().token
    }
}

/// What a search needs of a workload; anything else is refused with the reason.
#[derive(Clone, Copy, Debug)]
pub struct Needs {
    /// The graphs it searches.
    pub graphs: &'static [GraphKind],
    /// The grid moves it takes, `None` for any.
    pub moves: Option<Connectivity>,
    /// The cost representation it takes, `None` for any.
    pub costs: Option<CostKind>,
    /// Whether every passable cell must cost the same (no weighted terrain).
    pub uniform: bool,
    /// The heuristics it takes, `None` for any.
    pub heuristics: Option<&'static [HeuristicKind]>,
    /// The queue strategy it takes, `None` for either: the lab measures it with such queues.
    pub strategy: Option<Strategy>,
}

/// One search: what it is called, what it needs, and how it is built.
#[derive(Debug)]
pub struct SearchEntry {
    /// Its kind.
    pub kind: SearchKind,
    /// The token in results, workload names and `--search` (its kind's kebab-case name).
    pub token: &'static str,
    /// Its short name in the report: `A*`, `generic A*`.
    pub name: &'static str,
    /// One phrase on what it is, for answers and the report.
    pub description: &'static str,
    /// What it needs.
    pub needs: Needs,
    /// The search a user of this one would weigh it against, whose gain `pick` quotes too.
    pub compared_with: SearchKind,
    /// Builds it with a queue.
    pub build: Build,
}

/// Every search, the default first.
pub static SEARCHES: &[SearchEntry] = &[
    SearchEntry {
        kind: SearchKind::Astar,
        token: "astar",
        name: "A*",
        description: "pqlab's tuned grid A*",
        needs: TUNED_ASTAR,
        compared_with: SearchKind::Generic,
        build: astar::build,
    },
    SearchEntry {
        kind: SearchKind::Generic,
        token: "generic",
        name: "generic A*",
        description: "a generic A* like the `pathfinding` crate's",
        needs: Needs {
            graphs: &[GraphKind::Grid, GraphKind::Road],
            moves: None,
            costs: None,
            uniform: false,
            heuristics: None,
            strategy: None,
        },
        compared_with: SearchKind::Astar,
        build: generic::build,
    },
    SearchEntry {
        kind: SearchKind::Jps,
        token: "jps",
        name: "JPS",
        description: "jump point search (Harabor and Grastien 2011)",
        needs: Needs {
            graphs: &[GraphKind::Grid],
            moves: Some(Connectivity::Eight),
            costs: Some(CostKind::Integer),
            uniform: true,
            heuristics: Some(&[HeuristicKind::Octile]),
            strategy: None,
        },
        compared_with: SearchKind::Astar,
        build: jps::build,
    },
    tied(
        SearchKind::AstarTiesQueue,
        "astar-ties-queue",
        "A* (ties: the queue's order)",
        "the tuned A* giving f alone, ties in the queue's own order",
        astar::build_tied::<ties::QueueOrder>,
    ),
    tied(
        SearchKind::AstarTiesSmallerG,
        "astar-ties-smaller-g",
        "A* (ties: smaller g)",
        "the tuned A* breaking ties toward smaller g",
        astar::build_tied::<ties::SmallerG>,
    ),
    tied(
        SearchKind::AstarTiesFifo,
        "astar-ties-fifo",
        "A* (ties: FIFO)",
        "the tuned A* breaking ties first in, first out",
        astar::build_tied::<ties::Fifo>,
    ),
    tied(
        SearchKind::AstarTiesLifo,
        "astar-ties-lifo",
        "A* (ties: LIFO)",
        "the tuned A* breaking ties last in, first out",
        astar::build_tied::<ties::Lifo>,
    ),
    SearchEntry {
        kind: SearchKind::AstarCachedH,
        token: "astar-cached-h",
        name: "A* (h cached)",
        description: "the tuned A* with each cell's heuristic estimate cached",
        needs: TUNED_ASTAR,
        compared_with: SearchKind::Astar,
        build: cached::build,
    },
    SearchEntry {
        kind: SearchKind::AstarFlood,
        token: "astar-flood",
        name: "A* (no components)",
        description: "the tuned A* never told the map's components",
        needs: TUNED_ASTAR,
        compared_with: SearchKind::Astar,
        build: astar::build_flood,
    },
    SearchEntry {
        kind: SearchKind::DijkstraTextbook,
        token: "dijkstra-textbook",
        name: "textbook Dijkstra",
        description: "Dijkstra's algorithm with every cell queued at the start, no early exit and decrease-key",
        needs: Needs {
            graphs: &[GraphKind::Grid],
            moves: None,
            costs: Some(CostKind::Integer),
            uniform: false,
            heuristics: Some(&[HeuristicKind::Zero]),
            strategy: Some(Strategy::DecreaseKey),
        },
        compared_with: SearchKind::Astar,
        build: textbook::build,
    },
];

/// A search loop without a priority queue: its id in results (the `queue` column of its
/// `loop` rows) and the hook that builds it.
#[derive(Debug)]
pub struct LoopEntry {
    /// Its id in results.
    pub id: &'static str,
    /// Builds it, where it is exact.
    pub build: LoopBuild,
}

impl LoopEntry {
    /// The loop with id `id`, if any.
    pub fn find(id: &str) -> Option<&'static LoopEntry> {
        LOOPS.iter().find(|e| e.id == id)
    }
}

/// Every loop without a queue, in the order its rows are written.
pub static LOOPS: &[LoopEntry] = &[
    LoopEntry { id: Fringe::ID, build: fringe::build },
    LoopEntry { id: Bfs::ID, build: bfs::build },
];

/// What the tuned A\* needs, under every tie rule: a grid and integer costs.
const TUNED_ASTAR: Needs = Needs {
    graphs: &[GraphKind::Grid],
    moves: None,
    costs: Some(CostKind::Integer),
    uniform: false,
    heuristics: None,
    strategy: None,
};

/// The tuned A\* under another tie rule: what it needs is the A\*'s, and it is compared with
/// the A\* (larger `g` first).
const fn tied(
    kind: SearchKind,
    token: &'static str,
    name: &'static str,
    description: &'static str,
    build: Build,
) -> SearchEntry {
    SearchEntry {
        kind,
        token,
        name,
        description,
        needs: TUNED_ASTAR,
        compared_with: SearchKind::Astar,
        build,
    }
}

impl Needs {
    /// Whether a workload on `graph` under `moves` with `costs` is one this search takes.
    pub fn setup(
        &self,
        graph: GraphKind,
        moves: Option<Connectivity>,
        costs: CostKind,
    ) -> Result<(), String> {
        if !self.graphs.contains(&graph) {
            return Err(format!("it searches no {} graph", graph.token()));
        }
        if let (Some(need), Some(moves)) = (self.moves, moves) {
            if need != moves {
                return Err(format!("it takes {} moves, not {}", need.token(), moves.token()));
            }
        }
        if self.costs.is_some_and(|need| need != costs) {
            return Err(format!("it takes integer costs, not {costs:?}").to_lowercase());
        }
        Ok(())
    }

    /// Whether it takes `heuristic` and the costs of `grid`.
    pub fn workload(&self, grid: &Grid, heuristic: HeuristicKind) -> Result<(), String> {
        if self.uniform && grid.weights().is_some() {
            return Err(
                "it needs every passable cell to cost the same, and this map is weighted".into()
            );
        }
        if self.heuristics.is_some_and(|hs| !hs.contains(&heuristic)) {
            return Err(format!(
                "it is measured with {} only, not {heuristic}",
                list(self.heuristics.unwrap_or_default())
            ));
        }
        Ok(())
    }
}

fn list(heuristics: &[HeuristicKind]) -> String {
    heuristics.iter().map(ToString::to_string).collect::<Vec<_>>().join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn every_search_kind_has_one_entry_whose_token_results_and_the_cli_spell_alike() {
        for kind in SearchKind::value_variants() {
            assert_eq!(SEARCHES.iter().filter(|e| e.kind == *kind).count(), 1, "{kind:?}");
            let entry = kind.entry();
            let serde = serde_json::to_string(kind).unwrap();
            assert_eq!(serde, format!("\"{}\"", entry.token));
            assert_eq!(kind.to_possible_value().unwrap().get_name(), entry.token);
            assert_ne!(entry.compared_with, *kind, "{} is compared with itself", entry.token);
        }
        assert_eq!(SEARCHES.len(), SearchKind::value_variants().len());
        assert_eq!(SEARCHES[0].kind, SearchKind::default());
    }
}
