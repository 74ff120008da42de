//! The lab's workloads as data: which maps, problems, heuristics, cost scales and stores
//! `cargo bench` measures, and what each is for. Adding a workload is one line here.
//!
//! A *workload* ([`WorkloadSpec`]) is one map with its problems, searched under one heuristic,
//! cost scale and per-cell store; its name (`rooms-r16-512-s1/octile/fine/flat`) names the
//! workload in results. Every workload is measured with every registered queue that can take its keys,
//! interleaved (see [`super::sampler`]); some also with the peers and the oracle, or
//! replayed as traces (the queue alone).
//!
//! # What the default workloads cover, and why
//!
//! - **Octile A\* in every frontier-size band from 30 to 100,000 open cells** ([`Role::Bands`]),
//!   the search users run: at least three workloads per band, from at least two map kinds,
//!   with several searches each. Obstacle maps (random, rooms, caves, mazes) give octile
//!   frontiers up to about 7,000 open cells even at 2048² (`pqlab workloads` prints them;
//!   the Moving AI maps' largest is 6,046). Above 10,000, octile A\* is run on weighted
//!   terrain (`rugged`, `marsh`), where the octile estimate, scaled by the cheapest cell,
//!   is far below the true cost and the search floods like Dijkstra's; the report says
//!   so. Marsh and rugged terrain were chosen over smooth `weighted` terrain, which stays
//!   under 10,000 open cells even at 2048² (`pqlab workloads` on candidate maps), because
//!   their ragged flood fronts hold the most open cells per expansion: 10–60 ms a search.
//! - **Dijkstra** (`zero`), its own series, never blended into an octile answer.
//! - **Weighted A\*** (`weighted:1.5`, inconsistent: reopenings), for queues that accept any
//!   key; monotone queues get `n/a` rows. At several weights it is also run with the
//!   baseline alone ([`Role::Trade`]), the yardstick of the soft heap's trade.
//! - **The differential heuristic** on maps also searched with octile, to show the
//!   frontier shrinkage a better heuristic buys and which queue wins then.
//! - **The coarse cost scale** (10/14), whose small key span bucket queues need.
//! - **Jump point search** on four of the band workloads of uniform-cost maps, the same
//!   problems, against which A\*'s time and expansions are set.
//! - **The generic A\*** ([`Role::Generic`]) of `pqlab-queues` on six band workloads, with
//!   integer and `f64` costs: the gain of the bands' best queues in a search like the
//!   user's, and what float costs cost.
//! - **Tie-breaking** ([`Role::Ties`]): the A\*'s other tie rules (the queue's order,
//!   smaller `g`, FIFO, LIFO) on an open map and a maze, the problems of their band workloads.
//! - **The cached heuristic** ([`Role::Ties`] too: a variant of the A\* set against its
//!   twin): the A\* with each cell's estimate cached, under octile and 8 landmarks, on a
//!   maze and a rooms map, the problems of their band and series workloads.
//! - **Unreachable goals** ([`Role::Unreachable`]): a goal outside the start's component, searched by the A\* that
//!   floods the start's component (never told the components) and by the A\* that looks
//!   them up first, the same problems on a cave map.
//! - **The textbook Dijkstra** ([`Role::Ties`] too): every cell queued at the start, no
//!   early exit, decrease-key, on the Dijkstra series' maze and rooms map, the same
//!   problems, with decrease-key queues alone.
//! - **Hash-table membership** ([`Role::Store`]): five workloads (four map kinds, one map 1024²) searched again with the
//!   per-cell state in `FxHashMap`, in std's `HashMap`, and in a flat array reset every
//!   search (what the hash table's advocates say it saves).

use std::path::PathBuf;

use crate::maps::generate::MapSpec;
use crate::maps::grid::{Connectivity, CostKind, CostScale};
use crate::maps::instance::Sample;
use crate::maps::road::RoadSpec;
use crate::maps::GraphKind;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::{SearchKind, Series, Setup};

use super::settings::Profile;

/// Where a workload's map and problems come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A generated map with this many generated problems (exact expected costs).
    Generated {
        /// The map.
        map: MapSpec,
        /// How many problems.
        problems: usize,
    },
    /// A generated map with this many problems whose goal lies outside the start's
    /// component ([`crate::maps::generate::unreachable_problems`]): every answer is no path.
    Unreachable {
        /// The map: no other workload of the same search, heuristic, scale and store may
        /// share it, since the map names the workload.
        map: MapSpec,
        /// How many problems.
        problems: usize,
    },
    /// A Moving AI map and its scenario.
    MovingAi {
        /// The `.map` file (its scenario is `MAP.scen` beside it).
        map: PathBuf,
        /// Which of its problems.
        sample: Sample,
    },
    /// A generated road graph with this many problems (exact expected costs from the
    /// reference Dijkstras, integer and float).
    Road {
        /// The graph.
        spec: RoadSpec,
        /// How many problems.
        problems: usize,
    },
}

/// What a workload is measured for, and so which queues and extras it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A frontier-size band's evidence: every queue, the peers and the oracle.
    Bands,
    /// Another heuristic or scale as its own series: every queue.
    OtherSeries,
    /// The baseline alone at a weight of weighted A*: the yardstick of approximate order.
    Trade,
    /// Hash-table membership: the baseline and the structures the bands rank best.
    Store,
    /// A variant of the tuned A\* (a tie rule, the cached heuristic) set against the A\* on
    /// the same problems: the baseline, the structures the bands rank best and the best of
    /// each key rule.
    Ties,
    /// The generic A\* of `pqlab-queues` on a band's map and problems, integer or `f64`
    /// costs: the baseline, the structures the tuned A\* ranks best there and the best of
    /// each key rule.
    Generic,
    /// A real Moving AI map: every queue, the peers and the oracle.
    Real,
    /// Goals outside the start's component, searched with and without the components
    /// lookup: every queue, no oracle, peers or loops (the lookup answers before they
    /// would search).
    Unreachable,
}

/// One workload's specification, a workload: its map and problems, how it searches, and what
/// it is measured for. Its rows share a [`WorkloadFacts`](crate::lab::rows::WorkloadFacts).
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadSpec {
    /// The map and problems.
    pub source: Source,
    /// How it searches: the loop, graph, moves and costs, the heuristic, the cost scale
    /// and the per-cell store.
    pub series: Series,
    /// What it is for.
    pub role: Role,
    /// Whether its searches are also recorded and replayed against each queue alone.
    pub replay: bool,
}

impl WorkloadSpec {
    /// The map's name in results.
    pub fn map_name(&self) -> String {
        match &self.source {
            Source::Generated { map, .. } | Source::Unreachable { map, .. } => map.to_string(),
            Source::Road { spec: road, .. } => road.to_string(),
            Source::MovingAi { map, .. } => {
                let name = |p: Option<&std::path::Path>| {
                    p.and_then(|p| p.file_name())
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
                };
                let stem = map.with_extension("");
                format!("movingai/{}/{}", name(map.parent()), name(Some(&stem)))
            }
        }
    }

    /// The workload's stable name: `map/heuristic/scale/store`, then the setup's tokens
    /// that differ from pqlab's 8-connected integer-cost grid A\* (`/generic`, `/4-moves`,
    /// `/float`), so the names of the workloads every run measured never change.
    pub fn name(&self) -> String {
        let mut name = format!(
            "{}/{}/{}/{}",
            self.map_name(),
            self.series.heuristic,
            self.series.scale,
            self.series.store.token()
        );
        for token in self.series.setup.tokens() {
            name.push('/');
            name.push_str(token);
        }
        name
    }

    /// This workload searched by `setup`.
    pub fn with_setup(&self, setup: Setup) -> WorkloadSpec {
        WorkloadSpec { series: Series { setup, ..self.series }, ..self.clone() }
    }

    /// This workload with its per-cell state in `store`.
    pub fn with_store(&self, store: StoreKind) -> WorkloadSpec {
        WorkloadSpec { series: Series { store, ..self.series }, ..self.clone() }
    }

    /// Whether `other` searches the same problems the same way: the same workload but for
    /// its role and its replays.
    pub fn same_searches(&self, other: &WorkloadSpec) -> bool {
        *self == WorkloadSpec { role: self.role, replay: self.replay, ..other.clone() }
    }

    /// Whether `other` is a workload of the same series: the same workload but for its map
    /// and problems.
    pub fn same_series(&self, other: &WorkloadSpec) -> bool {
        *self == WorkloadSpec { source: self.source.clone(), ..other.clone() }
    }

    /// Whether the oracle runs on it: the tuned grid A\*'s workloads of the bands, the series
    /// and real maps, with the flat store, under a consistent heuristic (the oracle replays
    /// the baseline's pops, which an exact search of each queue repeats up to ties); never a
    /// road workload, the generic A\*'s or another search's.
    pub fn with_oracle(&self) -> bool {
        matches!(self.role, Role::Bands | Role::OtherSeries | Role::Real)
            && self.series.setup == Setup { moves: self.series.setup.moves, ..Setup::GRID_ASTAR }
            && self.series.store == StoreKind::Flat
            && self.series.heuristic.consistent_on(self.series.rules().connectivity)
    }

    /// Whether pqlab's other search loops (fringe search, breadth-first search) are timed
    /// beside its queues: on the grid A\* workloads of the bands, the series and the real
    /// maps, with the flat store (each loop where it is exact; see `lab::searches`); never
    /// on a road workload, whose setup is not grid A\*.
    pub fn with_loops(&self) -> bool {
        matches!(self.role, Role::Bands | Role::OtherSeries | Role::Real)
            && self.series.setup == Setup { moves: self.series.setup.moves, ..Setup::GRID_ASTAR }
            && self.series.store == StoreKind::Flat
    }

    /// Whether the peers (other crates' A*) run on it: the oracle's octile workloads of the bands
    /// on maps of up to 2¹⁹ cells (512²) and of real maps up to 2²¹ (every Moving AI map).
    /// Larger maps would cost petgraph's graph a node per cell and an edge per move (about 1 GB at 2048²), and on the default run's costliest
    /// workloads the two peers, 3–6 times the baseline's time, cost as much as eight queues.
    pub fn with_peers(&self, cells: usize) -> bool {
        let largest = if self.role == Role::Real { 1 << 21 } else { 1 << 19 };
        matches!(self.role, Role::Bands | Role::Real)
            && self.with_oracle()
            && self.series.heuristic == HeuristicKind::Octile
            && cells <= largest
    }
}

fn generated(
    role: Role,
    name: &str,
    problems: usize,
    heuristic: HeuristicKind,
    scale: CostScale,
) -> WorkloadSpec {
    WorkloadSpec {
        source: Source::Generated { map: builtin_map(name), problems },
        series: Series { heuristic, scale, ..Series::OCTILE },
        role,
        replay: false,
    }
}

/// A built-in map's spec from its name.
fn builtin_map(name: &str) -> MapSpec {
    name.parse().unwrap_or_else(|e| panic!("a built-in map name: {e}"))
}

/// A workload on a band's generated map searched by the generic A\* of `pqlab-queues` (octile,
/// fine costs as integers, or as `f64` with `costs` float), as users of a library write it:
/// its twin is the band's workload ([`Role::Generic`]).
fn generic(name: &str, problems: usize, costs: CostKind) -> WorkloadSpec {
    generated(Role::Generic, name, problems, HeuristicKind::Octile, CostScale::FINE)
        .with_setup(Setup { search: SearchKind::Generic, costs, ..Setup::GRID_ASTAR })
}

/// A series workload on a generated map under `moves` with unit costs (every move costs 1),
/// as games and roguelikes move.
fn unit(
    name: &str,
    problems: usize,
    moves: Connectivity,
    heuristic: HeuristicKind,
) -> WorkloadSpec {
    generated(Role::OtherSeries, name, problems, heuristic, CostScale::UNIT)
        .with_setup(Setup { moves: Some(moves), ..Setup::GRID_ASTAR })
}

/// A series workload on a generated road graph (`spec`, see [`crate::maps::road`]): the
/// generic A\* with dense node ids, the straight-line heuristic, `costs` integer or float,
/// the costs in the road's fixed point.
fn road(spec: &str, problems: usize, costs: CostKind) -> WorkloadSpec {
    WorkloadSpec {
        source: Source::Road {
            spec: spec.parse().unwrap_or_else(|e| panic!("a built-in road spec: {e}")),
            problems,
        },
        series: Series {
            setup: Setup {
                search: SearchKind::Generic,
                graph: GraphKind::Road,
                moves: None,
                costs,
            },
            heuristic: HeuristicKind::StraightLine,
            scale: CostScale::ROAD,
            store: StoreKind::Flat,
        },
        role: Role::OtherSeries,
        replay: false,
    }
}

/// The built-in workloads of a profile, in the order they are measured.
pub fn builtin(profile: Profile) -> Vec<WorkloadSpec> {
    match profile {
        Profile::Default => [
            band_workloads(),
            series_workloads(),
            four_moves_workloads(),
            generic_workloads(),
            eight_unit_moves_workloads(),
            road_workloads(),
            jps_workloads(),
            tie_workloads(),
            cached_heuristic_workloads(),
            unreachable_workloads(),
            textbook_dijkstra_workloads(),
            trade_workloads(),
            store_workloads(),
        ]
        .concat(),
        Profile::Quick => quick_workloads(),
    }
}

/// A band workload: octile A\*, fine costs.
fn band(name: &str, problems: usize) -> WorkloadSpec {
    generated(Role::Bands, name, problems, HeuristicKind::Octile, CostScale::FINE)
}

/// `workload`, also recorded and replayed against each queue alone.
fn replayed(spec: WorkloadSpec) -> WorkloadSpec {
    WorkloadSpec { replay: true, ..spec }
}

/// A series workload under `heuristic`, fine costs.
fn series(name: &str, problems: usize, heuristic: HeuristicKind) -> WorkloadSpec {
    generated(Role::OtherSeries, name, problems, heuristic, CostScale::FINE)
}

/// A membership workload: octile A\*, fine costs, the per-cell state in `store`.
fn stored(name: &str, problems: usize, store: StoreKind) -> WorkloadSpec {
    generated(Role::Store, name, problems, HeuristicKind::Octile, CostScale::FINE).with_store(store)
}

/// Octile A\* in every frontier-size band, at least three workloads a band.
fn band_workloads() -> Vec<WorkloadSpec> {
    vec![
        // Below 100 open cells (each workload's band is where its mean most-open
        // cells fell in the committed runs; `pqlab workloads` prints them).
        replayed(band("random-d20-32-s1", 60)),
        band("rooms-r8-64-s1", 40),
        band("cave-f45-i4-64-s1", 40),
        // 100-300.
        replayed(band("rooms-r8-128-s1", 30)),
        band("random-d25-128-s1", 20),
        band("maze-w4-256-s1", 10),
        replayed(band("random-d25-256-s1", 20)),
        // 300-1k.
        band("rooms-r16-256-s1", 20),
        band("cave-f45-i4-256-s1", 20),
        band("open-b16-256-s1", 20),
        band("weighted-f16-256-s1", 10),
        // 1k-3k.
        replayed(band("rooms-r32-1024-s1", 4)),
        band("cave-f45-i4-1024-s1", 6),
        band("rugged-h10-256-s1", 4),
        // 3k-10k.
        band("rooms-r64-2048-s1", 2),
        band("cave-f45-i4-2048-s1", 2),
        band("rugged-h10-512-s1", 2),
        // 10k-30k: only weighted terrain gets octile A* here (see the module's doc).
        replayed(band("rugged-h30-512-s1", 2)),
        band("rugged-h40-512-s1", 2),
        band("marsh-m50-1024-s1", 2),
        // 30k-100k. The two rugged maps land in mid-band at half the cost of
        // rugged-h40-1024 and rugged-h50-1024 (the baseline's pass 94 and 74 ms for
        // median most-open cells of 57,106 and 52,026, against 176 and 182 ms for
        // 66,086 and 83,028: `pqlab workloads`).
        band("rugged-h50-768-s1", 2),
        band("rugged-h60-640-s1", 2),
        band("marsh-m50-1536-s1", 2),
    ]
}

/// Other heuristics and the coarse scale, each its own series.
fn series_workloads() -> Vec<WorkloadSpec> {
    use HeuristicKind::{Differential, Octile, WeightedOctile, Zero};
    vec![
        // Dijkstra, its own series, on band maps with the band workload's problems: the same
        // searches as octile A*'s, paired search for search (the maze is where A* saves
        // least).
        series("maze-w4-256-s1", 10, Zero),
        series("rooms-r16-256-s1", 20, Zero),
        series("cave-f45-i4-256-s1", 20, Zero),
        series("rugged-h10-256-s1", 4, Zero),
        // Weighted A* (inconsistent keys, reopenings).
        series("random-d25-256-s1", 20, WeightedOctile(1.5)),
        series("rooms-r32-1024-s1", 4, WeightedOctile(1.5)),
        series("cave-f45-i4-1024-s1", 6, WeightedOctile(1.5)),
        // A better heuristic: landmarks on maps also searched with octile, on the
        // same problems (as many as the octile workload: `Run::sibling`).
        series("rooms-r16-256-s1", 20, Differential(8)),
        series("rooms-r32-1024-s1", 4, Differential(8)),
        series("cave-f45-i4-256-s1", 20, Differential(8)),
        // The maze: where the draft says the heuristic makes a big difference.
        series("maze-w4-256-s1", 10, Differential(8)),
        // The coarse scale, for bucket queues.
        generated(Role::OtherSeries, "random-d25-256-s1", 10, Octile, CostScale::COARSE),
        generated(Role::OtherSeries, "rugged-h30-512-s1", 2, Octile, CostScale::COARSE),
    ]
}

/// Unit costs, as games move. 4 moves with Manhattan (Red Blob's examples; BFS is timed
/// beside A* there), from 100 to 30,000 open cells, two or more map kinds a band up to 3k
/// (`pqlab workloads` prints each one's band). 3k-10k from rugged-h10-512 (two searches, the
/// baseline's pass 14 ms in `pqlab workloads`): rooms-r64-2048's one search took
/// 186 ms and cost a default run 38 s; rugged-h10-1024 falls in 30k-100k.
fn four_moves_workloads() -> Vec<WorkloadSpec> {
    [
        ("rooms-r8-128-s1", 15),
        ("maze-w4-256-s1", 5),
        ("random-d25-256-s1", 10),
        ("rooms-r16-256-s1", 10),
        ("cave-f45-i4-512-s1", 5),
        ("rooms-r32-1024-s1", 3),
        ("cave-f45-i4-1024-s1", 3),
        ("rugged-h10-512-s1", 2),
        ("rugged-h30-512-s1", 2),
    ]
    .into_iter()
    .map(|(map, problems)| unit(map, problems, Connectivity::Four, HeuristicKind::Manhattan))
    .collect()
}

/// The generic A\* (a successors closure, a hash map of nodes), so a queue's gain is
/// quoted in a search like the user's too, from 300 to 3,000 open cells with three map
/// kinds a band; and the same with f64 costs, as most users write them.
fn generic_workloads() -> Vec<WorkloadSpec> {
    let mut specs = Vec::new();
    for (map, problems) in [
        ("rooms-r16-256-s1", 10),
        ("cave-f45-i4-256-s1", 20),
        ("weighted-f16-256-s1", 5),
        ("rooms-r32-1024-s1", 2),
        ("cave-f45-i4-1024-s1", 4),
        ("rugged-h10-256-s1", 3),
    ] {
        specs.push(generic(map, problems, CostKind::Integer));
        specs.push(generic(map, problems, CostKind::Float));
    }
    specs
}

/// 8 unit-cost moves as roguelikes move: Chebyshev (exact on open ground), and on the same
/// maps Manhattan (inadmissible, the roguelike log's speed-up), so the two are compared
/// search for search.
fn eight_unit_moves_workloads() -> Vec<WorkloadSpec> {
    let mut specs = Vec::new();
    for (map, problems) in [
        ("rooms-r8-128-s1", 15),
        ("cave-f45-i4-256-s1", 10),
        ("rooms-r16-256-s1", 10),
        ("cave-f45-i4-1024-s1", 3),
        ("rooms-r32-1024-s1", 3),
        ("rugged-h10-512-s1", 2),
    ] {
        specs.push(unit(map, problems, Connectivity::Eight, HeuristicKind::Chebyshev));
        specs.push(unit(map, problems, Connectivity::Eight, HeuristicKind::Manhattan));
    }
    specs
}

/// Jump point search on octile band workloads of uniform-cost maps, the same problems
/// (so the report pairs them with A\* search for search), one a size band from 30 to 3,000
/// of A\*'s open cells: JPS expands a fraction of A\*'s cells, so these cost little.
fn jps_workloads() -> Vec<WorkloadSpec> {
    [
        ("rooms-r8-64-s1", 40),
        ("random-d25-256-s1", 20),
        ("cave-f45-i4-256-s1", 20),
        ("rooms-r32-1024-s1", 4),
    ]
    .into_iter()
    .map(|(map, problems)| {
        generated(Role::OtherSeries, map, problems, HeuristicKind::Octile, CostScale::FINE)
            .with_setup(Setup { search: SearchKind::Jps, ..Setup::GRID_ASTAR })
    })
    .collect()
}

/// The A\*'s other tie rules on an open map and a maze, the problems of their band workloads
/// (octile, fine costs), against which the A\*'s own rule (larger `g` first) is set: where
/// ties abound (open ground, many cells of one `f`) and where they hardly occur (one-way
/// corridors).
fn tie_workloads() -> Vec<WorkloadSpec> {
    let rules = [
        SearchKind::AstarTiesQueue,
        SearchKind::AstarTiesSmallerG,
        SearchKind::AstarTiesFifo,
        SearchKind::AstarTiesLifo,
    ];
    let mut specs = Vec::new();
    for (map, problems) in [("open-b16-256-s1", 20), ("maze-w4-256-s1", 10)] {
        for search in rules {
            specs.push(
                generated(Role::Ties, map, problems, HeuristicKind::Octile, CostScale::FINE)
                    .with_setup(Setup { search, ..Setup::GRID_ASTAR }),
            );
        }
    }
    specs
}

/// The A\* with each cell's estimate cached, on a maze and a rooms map under octile (a few
/// multiplies an estimate) and under 8 landmarks (a run of 8 or 16 distances an estimate):
/// the twins of their band and series workloads, the same problems. Four small workloads of
/// 256² maps: where caching should not pay and where it may.
fn cached_heuristic_workloads() -> Vec<WorkloadSpec> {
    let mut specs = Vec::new();
    for (map, problems) in [("maze-w4-256-s1", 10), ("rooms-r16-256-s1", 20)] {
        for heuristic in [HeuristicKind::Octile, HeuristicKind::Differential(8)] {
            specs.push(
                generated(Role::Ties, map, problems, heuristic, CostScale::FINE)
                    .with_setup(Setup { search: SearchKind::AstarCachedH, ..Setup::GRID_ASTAR }),
            );
        }
    }
    specs
}

/// Goals outside the start's component, on a cave map of 22 components whose largest holds
/// 44,462 of its 45,263 open cells (no other workload searches it): the A\* never told the
/// components, which floods the largest component before it answers no path, and the A\*
/// that looks the components up first, which answers at once (what the texts advise), the
/// same four problems. Every queue times the flood.
fn unreachable_workloads() -> Vec<WorkloadSpec> {
    let map = "cave-f45-i4-256-s2";
    [SearchKind::AstarFlood, SearchKind::Astar]
        .into_iter()
        .map(|search| WorkloadSpec {
            source: Source::Unreachable { map: builtin_map(map), problems: 4 },
            ..generated(Role::Unreachable, map, 4, HeuristicKind::Octile, CostScale::FINE)
                .with_setup(Setup { search, ..Setup::GRID_ASTAR })
        })
        .collect()
}

/// Dijkstra as textbooks write it (every cell queued at the start, no early exit,
/// decrease-key), on the maze and the rooms map of the Dijkstra series, the same problems:
/// the twins of the lab's Dijkstra (the A\* with `h = 0`), timed with the decrease-key
/// queues the twin ranks best of each key rule. Two small workloads of 256² maps.
fn textbook_dijkstra_workloads() -> Vec<WorkloadSpec> {
    [("maze-w4-256-s1", 10), ("rooms-r16-256-s1", 20)]
        .into_iter()
        .map(|(map, problems)| {
            generated(Role::Ties, map, problems, HeuristicKind::Zero, CostScale::FINE)
                .with_setup(Setup { search: SearchKind::DijkstraTextbook, ..Setup::GRID_ASTAR })
        })
        .collect()
}

/// Road graphs (`road::WORKLOADS`), integer costs, and the middle size with f64 costs too:
/// bands 1k–3k, 10k–30k and 30k–100k (median most-open nodes 2,134, 13,134 and 32,596; the
/// baseline's check pass 8, 41 and 160 ms in `pqlab workloads`, release), so every
/// check pass stays well under a second. The middle graph with three searches: at five its
/// two workloads cost 28 s of a default run's measuring, and
/// three keep it in its band. The large one needs its six to stay above 30k (at three and
/// four it falls to 10k-30k: `pqlab workloads`).
fn road_workloads() -> Vec<WorkloadSpec> {
    let [small, middle, large] = crate::maps::road::WORKLOADS;
    vec![
        road(small, 10, CostKind::Integer),
        road(middle, 3, CostKind::Integer),
        road(middle, 3, CostKind::Float),
        road(large, 6, CostKind::Integer),
    ]
}

/// Weighted A\* with the baseline alone at three weights, the soft heap's yardstick.
fn trade_workloads() -> Vec<WorkloadSpec> {
    use HeuristicKind::WeightedOctile;
    let fine = CostScale::FINE;
    let mut specs = Vec::new();
    for weight in [1.1, 1.25, 2.0] {
        for map in ["random-d25-256-s1", "rooms-r32-1024-s1", "cave-f45-i4-1024-s1"] {
            // As many problems as the octile workload of the map: the same searches.
            let problems = match map {
                "random-d25-256-s1" => 20,
                "rooms-r32-1024-s1" => 4,
                _ => 6,
            };
            specs.push(generated(Role::Trade, map, problems, WeightedOctile(weight), fine));
        }
    }
    specs
}

/// Membership: four maps of four kinds, from 100 to 1,000 open cells, and a 1024² map (the
/// seeds' "large game maps", whose array they say costs more to clear than the search),
/// each with the array cleared per search and the two hash tables. rooms-r32-1024's four
/// searches cost 48 to 100 ms a pass with the three stores (`pqlab workloads`); a 2048² map,
/// rooms-r64-2048, cost 1.3 s a pass for the three stores' check passes alone.
fn store_workloads() -> Vec<WorkloadSpec> {
    let mut specs = Vec::new();
    for store in StoreKind::ALTERNATIVES {
        specs.push(stored("random-d25-128-s1", 20, store));
        specs.push(stored("maze-w4-256-s1", 10, store));
        specs.push(stored("rooms-r16-256-s1", 20, store));
        specs.push(stored("cave-f45-i4-256-s1", 20, store));
        specs.push(stored("rooms-r32-1024-s1", 4, store));
    }
    specs
}

/// The quick profile's workloads: one or two of each role and series, small.
fn quick_workloads() -> Vec<WorkloadSpec> {
    use HeuristicKind::{Manhattan, WeightedOctile, Zero};
    let fine = CostScale::FINE;
    vec![
        replayed(band("random-d20-32-s1", 30)),
        band("rooms-r8-128-s1", 10),
        series("rooms-r8-128-s1", 10, WeightedOctile(1.5)),
        generated(Role::Trade, "rooms-r8-128-s1", 10, WeightedOctile(2.0), fine),
        stored("rooms-r8-128-s1", 10, StoreKind::FxHash),
        generated(Role::OtherSeries, "rugged-h30-256-s1", 1, Zero, CostScale::COARSE),
        unit("rooms-r8-128-s1", 10, Connectivity::Four, Manhattan),
        generic("rooms-r8-128-s1", 10, CostKind::Float),
        unit("rooms-r8-128-s1", 10, Connectivity::Eight, Manhattan),
        road("road-n3000-k4-c4-s1", 6, CostKind::Float),
    ]
}

/// Problems per Moving AI map in the profile with real maps: spread over each scenario's
/// length buckets, enough that every bucket range is timed, few enough for 30 maps
/// and every queue within the hour. Set without a measurement; on a maps run the 30
/// maps take about 1,920 of its 3,250 s of measuring (see METHODOLOGY.md).
pub const BENCH_PROBLEMS_PER_MAP: usize = 50;

/// One workload per Moving AI map under `dir`: octile A*, `per_map` problems spread over
/// each scenario's length buckets.
pub fn movingai(dir: &std::path::Path, per_map: usize) -> anyhow::Result<Vec<WorkloadSpec>> {
    Ok(crate::maps::movingai::find_maps(dir)?
        .into_iter()
        .map(|(map, _)| WorkloadSpec {
            source: Source::MovingAi { map, sample: Sample::Spread(per_map) },
            series: Series::OCTILE,
            role: Role::Real,
            replay: false,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_band_workload_is_octile() {
        let specs = builtin(Profile::Default);
        let mut names: Vec<String> = specs.iter().map(WorkloadSpec::name).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "two workloads share a name");
        for spec in specs.iter().filter(|s| s.role == Role::Bands) {
            assert_eq!(spec.series.heuristic, HeuristicKind::Octile, "{}", spec.name());
            assert_eq!(spec.series.store, StoreKind::Flat, "{}", spec.name());
        }
    }

    #[test]
    fn names_read_map_heuristic_scale_and_store() {
        let spec = builtin(Profile::Quick).remove(0);
        assert_eq!(spec.name(), "random-d20-32-s1/octile/fine/flat");
    }

    #[test]
    fn road_names_read_back_and_road_workloads_get_no_grid_extras() {
        let specs = builtin(Profile::Default);
        let roads: Vec<&WorkloadSpec> =
            specs.iter().filter(|s| matches!(s.source, Source::Road { .. })).collect();
        assert_eq!(roads.len(), 4);
        assert_eq!(
            roads[2].name(),
            "road-n100000-k4-c4-s1/straight-line/road/flat/generic/road/float"
        );
        for spec in roads {
            let name = spec.name();
            let mut parts = name.split('/');
            let road: RoadSpec = parts.next().unwrap().parse().unwrap();
            assert_eq!(road.to_string(), spec.map_name());
            assert_eq!(parts.next().unwrap().parse(), Ok(HeuristicKind::StraightLine));
            assert_eq!(parts.next().unwrap().parse(), Ok(CostScale::ROAD));
            assert!(!spec.with_oracle() && !spec.with_loops() && !spec.with_peers(0), "{name}");
        }
        assert_eq!(HeuristicKind::StraightLine.to_string(), "straight-line");
        assert_eq!(CostScale::ROAD.to_string(), "road");
    }

    /// The oracle runs on the tuned grid A*'s workloads under a consistent heuristic with the
    /// flat store, series included (Dijkstra, 4 moves, unit costs); the peers on the octile
    /// bands alone.
    #[test]
    fn the_oracle_runs_on_every_consistent_tuned_astar_workload_and_the_peers_on_octile_bands() {
        let specs = builtin(Profile::Default);
        let oracle = |pred: fn(&WorkloadSpec) -> bool| {
            specs.iter().filter(|s| pred(s)).all(WorkloadSpec::with_oracle)
        };
        assert!(oracle(|s| s.role == Role::Bands));
        assert!(oracle(|s| s.series.heuristic == HeuristicKind::Zero
            && s.series.setup.search == SearchKind::Astar));
        assert!(oracle(|s| s.series.setup.moves == Some(Connectivity::Four)));
        assert!(oracle(|s| s.series.heuristic == HeuristicKind::Chebyshev));
        for spec in &specs {
            let name = spec.name();
            let consistent = spec.series.heuristic.consistent_on(spec.series.rules().connectivity);
            if !consistent
                || spec.series.setup.search != SearchKind::Astar
                || spec.role == Role::Store
            {
                assert!(!spec.with_oracle(), "{name}");
            }
            if spec.with_peers(0) {
                assert_eq!(
                    (spec.role, spec.series.heuristic),
                    (Role::Bands, HeuristicKind::Octile)
                );
            }
        }
        let peers = specs.iter().filter(|s| s.with_peers(0)).count();
        assert_eq!(peers, specs.iter().filter(|s| s.role == Role::Bands).count());
    }
}
