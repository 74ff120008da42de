//! Jump point search against the independent reference Dijkstra (`maps::reference`), built
//! through its registry hook with every registered queue that takes its keys: on every
//! uniform-cost generated map kind at the fine and coarse scales, with valid paths; refused
//! on weighted terrain and 4 moves; and on a sample of the Moving AI maps when
//! `$PQLAB_MAPS` or `../shared/movingai` exists. Through the lab too: every queue is checked
//! or `n/a` with a reason on a JPS workload, never failed.

mod common;

use std::time::Duration;

use common::{pairs, shared_maps};
use pqlab::lab::searches::{CheckQueue, Prepared, Untimed};
use pqlab::lab::workloads::{builtin, Role, Source, WorkloadSpec};
use pqlab::lab::Profile;
use pqlab::maps::generate::{MapKind, MapSpec};
use pqlab::maps::grid::{Connectivity, CostScale, Grid, Rules};
use pqlab::maps::moves::{Components, Moves};
use pqlab::maps::movingai::{find_maps, parse_map, parse_scen};
use pqlab::maps::reference;
use pqlab::search::astar::AStar;
use pqlab::search::check::path_cost;
use pqlab::search::grid_loop::{GridLoop, Target};
use pqlab::search::heuristic::{AnyHeuristic, HeuristicKind};
use pqlab::search::registry::SearchKind;
use pqlab::search::Series;
use pqlab::search::Setup;
use pqlab_queues::registry::{Entry, ENTRIES};
use pqlab_queues::std_binary_heap::StdBinaryHeap;
use pqlab_queues::KeyRule;

fn spec(kind: MapKind, size: u32, seed: u64) -> Grid {
    MapSpec { kind, size, seed }.build()
}

/// One map of every uniform-cost generated kind, some with several components.
fn uniform_maps() -> Vec<Grid> {
    vec![
        spec(MapKind::Random { density: 25 }, 40, 3),
        spec(MapKind::Maze { corridor: 2 }, 32, 4),
        spec(MapKind::Rooms { room: 8 }, 40, 5),
        spec(MapKind::Open { blocks: 6 }, 40, 9),
        spec(MapKind::Cave { fill: 45, steps: 4 }, 40, 6),
    ]
}

/// One map of every weighted generated kind.
fn weighted_maps() -> Vec<Grid> {
    vec![
        spec(MapKind::Weighted { feature: 8 }, 32, 7),
        spec(MapKind::Rugged { heavy: 30 }, 32, 8),
        spec(MapKind::Marsh { marsh: 30 }, 32, 9),
    ]
}

/// Whether registry queue `id` pops in exact key order.
fn exact(id: &str) -> bool {
    pqlab_queues::registry::find(id).is_some_and(Entry::is_exact)
}

/// JPS with registry queue `queue` on `grid`, or why it cannot take the keys.
fn build(
    grid: &Grid,
    moves: &Moves,
    rules: Rules,
    queue: &'static Entry,
) -> Result<Box<dyn GridLoop>, String> {
    let series = Series::on_grid(SearchKind::Jps, rules, HeuristicKind::Octile);
    let target = Target { grid, moves, series };
    (SearchKind::Jps.entry().build)(&target, queue)
}

/// The queues that take JPS's keys on `grid`, built; the others' reasons must name the
/// key span (bounded-span queues only).
fn searches(grid: &Grid, moves: &Moves, rules: Rules) -> Vec<(&'static str, Box<dyn GridLoop>)> {
    let mut built = Vec::new();
    for entry in ENTRIES {
        match build(grid, moves, rules, entry) {
            Ok(search) => built.push((entry.id, search)),
            Err(why) => {
                assert_eq!(entry.keys, KeyRule::BoundedSpan, "{}: {why}", entry.id);
                assert!(why.contains("refuses"), "{}: {why}", entry.id);
            }
        }
    }
    assert!(built.len() >= ENTRIES.len() / 2, "{} of {} queues", built.len(), ENTRIES.len());
    built
}

/// Every exact queue's JPS gives the reference Dijkstra's cost on every pair, an
/// approximate one's (the soft heaps) a cost no below it; both a path of legal moves adding
/// up to the cost found.
fn agrees(grid: &Grid, rules: Rules, problems: usize) {
    let moves = Moves::new(grid, rules.connectivity, rules.scale);
    let components = Components::new(grid);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, grid, rules.connectivity, rules.scale).unwrap();
    let problems = pairs(grid, problems, u64::from(grid.width()) * 31 + 7);
    let expected: Vec<Option<u64>> = problems
        .iter()
        .map(|&(s, g)| reference::cost(grid, rules.connectivity, rules.scale, s, g))
        .collect();
    assert!(
        expected.iter().any(Option::is_some)
            && expected.iter().filter(|c| c.is_some()).count() > problems.len() / 2
    );
    for (id, mut search) in searches(grid, &moves, rules) {
        for (&(start, goal), &cost) in problems.iter().zip(&expected) {
            // With and without components: the search alone must find unreachable goals too.
            for comps in [Some(&components), None] {
                let found = search
                    .search(grid, &mut h, comps, start, goal)
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                if exact(id) {
                    assert_eq!(found.cost, cost, "{id} on {grid:?} from {start:?} to {goal:?}");
                } else {
                    assert_eq!(found.cost.is_some(), cost.is_some(), "{id}: {start:?} to {goal:?}");
                    assert!(found.cost >= cost, "{id}: {start:?} to {goal:?}");
                }
            }
            if let Some(found) = search.search(grid, &mut h, None, start, goal).unwrap().cost {
                let path = search.path(grid, goal).expect("a path to a reached goal");
                assert_eq!((path[0], path[path.len() - 1]), (start, goal));
                assert_eq!(path_cost(grid, &moves, &path), Some(found), "{id}: the path's cost");
            }
        }
    }
}

#[test]
fn jps_finds_the_reference_costs_with_every_queue_on_every_uniform_map_kind() {
    for grid in uniform_maps() {
        agrees(&grid, Rules::default(), 25);
        agrees(&grid, Rules { connectivity: Connectivity::Eight, scale: CostScale::COARSE }, 10);
    }
}

#[test]
fn jps_is_refused_on_weighted_terrain_four_moves_and_scales_it_does_not_prune_for() {
    let entry = pqlab_queues::registry::baseline();
    for grid in weighted_maps() {
        let moves = Moves::new(&grid, Connectivity::Eight, CostScale::FINE);
        let why = build(&grid, &moves, Rules::default(), entry).err().expect("refused");
        assert!(why.contains("cost the same"), "{why}");
    }
    let grid = &uniform_maps()[0];
    let four = Rules { connectivity: Connectivity::Four, scale: CostScale::FINE };
    let moves = Moves::new(grid, four.connectivity, four.scale);
    assert!(build(grid, &moves, four, entry).err().expect("refused").contains("8 moves"));
    let steep =
        Rules { connectivity: Connectivity::Eight, scale: CostScale { straight: 1, diagonal: 3 } };
    let moves = Moves::new(grid, steep.connectivity, steep.scale);
    assert!(build(grid, &moves, steep, entry).err().expect("refused").contains("prunes"));
}

/// On open ground JPS pushes a small fraction of the cells the tuned A* pushes.
#[test]
fn jps_pushes_far_fewer_nodes_than_astar_on_open_ground() {
    let grid = spec(MapKind::Open { blocks: 4 }, 128, 2);
    let rules = Rules::default();
    let moves = Moves::new(&grid, rules.connectivity, rules.scale);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale).unwrap();
    let mut jps = build(&grid, &moves, rules, pqlab_queues::registry::baseline()).unwrap();
    let mut astar = AStar::<StdBinaryHeap>::new(&grid, rules);
    let (mut jps_pushes, mut astar_pushes) = (0, 0);
    for (start, goal) in pairs(&grid, 10, 5) {
        let a = astar.search(&grid, &mut h, None, start, goal).unwrap();
        let j = jps.search(&grid, &mut h, None, start, goal).unwrap();
        assert_eq!(a.cost, j.cost);
        (jps_pushes, astar_pushes) =
            (jps_pushes + j.counters.pushes, astar_pushes + a.counters.pushes);
    }
    assert!(jps_pushes * 5 < astar_pushes, "JPS {jps_pushes} pushes, A* {astar_pushes}");
}

/// Per Moving AI map, this many scenario problems, spread over its length buckets.
const PER_MAP: usize = 3;

/// Every queue's JPS reproduces the scenarios' optimal lengths on every shared map.
#[test]
fn jps_with_every_queue_on_a_moving_ai_sample() {
    let Some(dir) = shared_maps() else { return };
    let rules = Rules::default();
    for (map, scen) in find_maps(&dir).expect("the maps folder lists") {
        let grid = parse_map(&map).unwrap_or_else(|e| panic!("{e}"));
        let all = parse_scen(&scen, &grid).unwrap_or_else(|e| panic!("{e}"));
        let moves = Moves::new(&grid, rules.connectivity, rules.scale);
        let components = Components::new(&grid);
        let mut h =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale)
                .unwrap();
        let sample: Vec<_> = (0..PER_MAP)
            .filter_map(|i| all.get(i * all.len() / PER_MAP + all.len() / (2 * PER_MAP)))
            .collect();
        for (id, mut search) in searches(&grid, &moves, rules) {
            for p in &sample {
                let found =
                    search.search(&grid, &mut h, Some(&components), p.start, p.goal).unwrap();
                let ok = if exact(id) {
                    p.expected.accepts(found.cost, rules.scale)
                } else {
                    found.cost.is_some()
                };
                assert!(ok, "{id} on {}: {p:?}, found {:?}", map.display(), found.cost);
            }
        }
    }
}

/// The default profile's JPS workloads mirror octile A* workloads (same map, problems,
/// heuristic, scale and store), so the report compares them search for search, and the lab
/// checks every queue on the smallest: checked, or `n/a` with the reason, never failed.
#[test]
fn the_default_jps_workloads_mirror_astar_ones_and_check_every_queue_or_say_why_not() {
    let specs = builtin(Profile::Default);
    let jps: Vec<&WorkloadSpec> =
        specs.iter().filter(|s| s.series.setup.search == SearchKind::Jps).collect();
    assert!(jps.len() >= 3, "{} JPS workloads", jps.len());
    for spec in &jps {
        let astar = spec.with_setup(Setup::GRID_ASTAR);
        assert!(specs.iter().any(|s| s.same_searches(&astar)), "{} has no A* twin", spec.name());
        assert!(spec.name().ends_with("/jps"), "{}", spec.name());
    }
    let smallest = jps
        .iter()
        .find(|s| matches!(&s.source, Source::Generated { map, .. } if map.size <= 64))
        .expect("a small JPS workload");
    let spec = WorkloadSpec {
        source: match &smallest.source {
            Source::Generated { map, .. } => Source::Generated { map: *map, problems: 5 },
            other => other.clone(),
        },
        role: Role::OtherSeries,
        ..(*smallest).clone()
    };
    let prepared = Prepared::new(&spec).unwrap();
    let mut checked = 0;
    for entry in ENTRIES {
        let check = pqlab_queues::registry::visit(
            entry.id,
            CheckQueue { prepared: &prepared, limit: Duration::MAX },
        )
        .unwrap();
        match check {
            Ok(check) => {
                checked += 1;
                assert!(check.counters.iter().all(|c| c.expansions > 0), "{}", entry.id);
            }
            Err(Untimed::NotApplicable(why)) => assert!(
                entry.keys == KeyRule::BoundedSpan && why.contains("JPS"),
                "{}: {why}",
                entry.id
            ),
            Err(other) => panic!("{}: {other:?}", entry.id),
        }
    }
    assert!(checked >= ENTRIES.len() / 2, "{checked} queues checked");
}
