//! The A\*'s tie rules against the independent reference Dijkstra (`maps::reference`),
//! each built through its registry entry with every registered queue that takes its keys:
//! on every generated map kind, with valid paths, and on a sample of the Moving AI maps when
//! `$PQLAB_MAPS` or `../shared/movingai` exists. A queue that refuses a rule is a
//! restricted one, with the reason. The rules change the order among equal `f` alone:
//! never the cost, and on open ground the expansions as each rule's doc says.

mod common;

use common::{pairs, shared_maps, Cell};
use pqlab::lab::workloads::{builtin, Role, WorkloadSpec};
use pqlab::lab::Profile;
use pqlab::maps::generate::{MapKind, MapSpec};
use pqlab::maps::grid::{Grid, Rules};
use pqlab::maps::moves::{Components, Moves};
use pqlab::maps::movingai::{find_maps, parse_map, parse_scen};
use pqlab::maps::reference;
use pqlab::search::check::path_cost;
use pqlab::search::grid_loop::{GridLoop, Target};
use pqlab::search::heuristic::{AnyHeuristic, HeuristicKind};
use pqlab::search::registry::SearchKind;
use pqlab::search::store::StoreKind;
use pqlab::search::Series;
use pqlab::search::Setup;
use pqlab_queues::registry::{Entry, ENTRIES};
use pqlab_queues::KeyRule;

/// The A\* under every tie rule: its own and the registry's `astar-ties-…` searches.
const RULES: [SearchKind; 5] = [
    SearchKind::Astar,
    SearchKind::AstarTiesQueue,
    SearchKind::AstarTiesSmallerG,
    SearchKind::AstarTiesFifo,
    SearchKind::AstarTiesLifo,
];

fn spec(kind: MapKind, size: u32, seed: u64) -> Grid {
    MapSpec { kind, size, seed }.build()
}

/// One map of every generated kind, some with several components.
fn maps() -> Vec<Grid> {
    vec![
        spec(MapKind::Open { blocks: 6 }, 40, 9),
        spec(MapKind::Random { density: 25 }, 40, 3),
        spec(MapKind::Maze { corridor: 2 }, 32, 4),
        spec(MapKind::Rooms { room: 8 }, 40, 5),
        spec(MapKind::Cave { fill: 45, steps: 4 }, 40, 6),
        spec(MapKind::Weighted { feature: 8 }, 32, 7),
        spec(MapKind::Rugged { heavy: 30 }, 32, 8),
    ]
}

/// `rule` with registry queue `queue` on `grid`, or why the queue cannot take its keys.
fn build(
    rule: SearchKind,
    grid: &Grid,
    moves: &Moves,
    queue: &'static Entry,
) -> Result<Box<dyn GridLoop>, String> {
    let series = Series::on_grid(rule, Rules::default(), HeuristicKind::Octile);
    let target = Target { grid, moves, series };
    (rule.entry().build)(&target, queue)
}

/// The queues that take `rule`'s keys, built; a refusal must be a restricted queue's, with
/// a reason naming the rule's need.
fn searches(
    rule: SearchKind,
    grid: &Grid,
    moves: &Moves,
) -> Vec<(&'static Entry, Box<dyn GridLoop>)> {
    let mut built = Vec::new();
    for entry in ENTRIES {
        match build(rule, grid, moves, entry) {
            Ok(search) => built.push((entry, search)),
            Err(why) => {
                assert_ne!(entry.keys, KeyRule::Any, "{} refused {rule:?}: {why}", entry.id);
                assert!(why.starts_with("ties broken"), "{}: {why}", entry.id);
            }
        }
    }
    built
}

/// Every exact queue's A\* under every rule gives the reference Dijkstra's cost on every
/// pair, an approximate one's a cost no below it; both a path of legal moves adding up to
/// the cost found.
#[test]
fn every_tie_rule_finds_the_reference_costs_with_every_queue_that_takes_it() {
    let rules = Rules::default();
    for grid in maps() {
        let moves = Moves::new(&grid, rules.connectivity, rules.scale);
        let components = Components::new(&grid);
        let mut h =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale)
                .unwrap();
        let problems = pairs(&grid, 12, u64::from(grid.width()) * 17 + 3);
        let expected: Vec<Option<u64>> = problems
            .iter()
            .map(|&(s, g)| reference::cost(&grid, rules.connectivity, rules.scale, s, g))
            .collect();
        for rule in RULES {
            let built = searches(rule, &grid, &moves);
            let any = built.iter().filter(|(e, _)| e.keys == KeyRule::Any).count();
            assert_eq!(any, ENTRIES.iter().filter(|e| e.keys == KeyRule::Any).count());
            for (entry, mut search) in built {
                for (&(start, goal), &cost) in problems.iter().zip(&expected) {
                    for comps in [Some(&components), None] {
                        let found = search
                            .search(&grid, &mut h, comps, start, goal)
                            .unwrap_or_else(|e| panic!("{} {rule:?}: {e}", entry.id));
                        if entry.is_exact() {
                            assert_eq!(
                                found.cost, cost,
                                "{} {rule:?} {start:?} {goal:?}",
                                entry.id
                            );
                        } else {
                            assert_eq!(found.cost.is_some(), cost.is_some(), "{}", entry.id);
                            assert!(found.cost >= cost, "{} {rule:?}", entry.id);
                        }
                    }
                    if let Some(found) =
                        search.search(&grid, &mut h, None, start, goal).unwrap().cost
                    {
                        let path = search.path(&grid, goal).expect("a path to a reached goal");
                        assert_eq!((path[0], path[path.len() - 1]), (start, goal));
                        assert_eq!(path_cost(&grid, &moves, &path), Some(found), "{}", entry.id);
                    }
                }
            }
        }
    }
}

/// Which queues take which rule: any-key queues every rule; monotone queues every rule
/// whose keys grow (the queue's order, smaller `g`, FIFO), not LIFO; bounded-span and
/// narrow queues `f` alone (the A\*'s own rule gives them that too).
#[test]
fn each_rule_is_refused_exactly_by_the_queues_its_keys_do_not_fit() {
    let grid = &maps()[0];
    let moves = Moves::new(grid, Rules::default().connectivity, Rules::default().scale);
    for entry in ENTRIES {
        for rule in RULES {
            let takes = build(rule, grid, &moves, entry).is_ok();
            let expected = match (rule, entry.keys) {
                (SearchKind::Astar | SearchKind::AstarTiesQueue, _) | (_, KeyRule::Any) => true,
                (SearchKind::AstarTiesLifo, _) => false,
                (_, keys) => keys == KeyRule::Monotone,
            };
            assert_eq!(takes, expected, "{} under {rule:?}", entry.id);
        }
    }
}

/// The tie rules are searched with the flat store alone; the A*'s own rule with any.
#[test]
fn the_tie_rules_take_the_flat_store_alone() {
    let grid = &maps()[0];
    let rules = Rules::default();
    let moves = Moves::new(grid, rules.connectivity, rules.scale);
    let series = Series::on_grid(SearchKind::Astar, rules, HeuristicKind::Octile);
    let target =
        Target { grid, moves: &moves, series: Series { store: StoreKind::FxHash, ..series } };
    let baseline = pqlab_queues::registry::baseline();
    assert!((SearchKind::Astar.entry().build)(&target, baseline).is_ok());
    for rule in &RULES[1..] {
        let refused = (rule.entry().build)(&target, baseline).err().expect("refused");
        assert!(refused.contains("flat store"), "{rule:?}: {refused}");
    }
}

/// Total expansions of std's heap under `rule` over `problems` on `grid`.
fn expansions(rule: SearchKind, grid: &Grid, problems: &[(Cell, Cell)]) -> u64 {
    let rules = Rules::default();
    let moves = Moves::new(grid, rules.connectivity, rules.scale);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Octile, grid, rules.connectivity, rules.scale).unwrap();
    let mut search = build(rule, grid, &moves, pqlab_queues::registry::baseline()).unwrap();
    let found = problems.iter().map(|&(s, g)| search.search(grid, &mut h, None, s, g).unwrap());
    found.map(|o| o.counters.expansions).sum()
}

/// On open ground, where many cells share an `f`, the deepest first (larger `g`, the A\*'s
/// own rule) expands the fewest cells, and the shallowest first (smaller `g`) and the
/// first pushed first (FIFO) many more: they sweep each band of equal `f` before going on.
#[test]
fn on_open_ground_larger_g_first_expands_fewer_cells_than_smaller_g_or_fifo() {
    let grid = spec(MapKind::Open { blocks: 4 }, 96, 2);
    let problems = pairs(&grid, 10, 11);
    let larger_g = expansions(SearchKind::Astar, &grid, &problems);
    let smaller_g = expansions(SearchKind::AstarTiesSmallerG, &grid, &problems);
    let fifo = expansions(SearchKind::AstarTiesFifo, &grid, &problems);
    let lifo = expansions(SearchKind::AstarTiesLifo, &grid, &problems);
    assert!(2 * larger_g < smaller_g, "larger g {larger_g}, smaller g {smaller_g}");
    assert!(2 * larger_g < fifo, "larger g {larger_g}, FIFO {fifo}");
    assert!(lifo < fifo, "LIFO {lifo}, FIFO {fifo}");
}

/// Every rule with std's heap and with a monotone queue reproduces the scenarios' optimal
/// lengths on every shared map (two problems a map, from the middle and the end).
#[test]
fn every_tie_rule_on_a_moving_ai_sample() {
    let Some(dir) = shared_maps() else { return };
    let rules = Rules::default();
    let monotone = pqlab_queues::registry::find("radix-heap-dup").expect("registered");
    for (map, scen) in find_maps(&dir).expect("the maps folder lists") {
        let grid = parse_map(&map).unwrap_or_else(|e| panic!("{e}"));
        let all = parse_scen(&scen, &grid).unwrap_or_else(|e| panic!("{e}"));
        let moves = Moves::new(&grid, rules.connectivity, rules.scale);
        let mut h =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale)
                .unwrap();
        let sample = [&all[all.len() / 2], &all[all.len() - 1]];
        for rule in RULES {
            for queue in [pqlab_queues::registry::baseline(), monotone] {
                let Ok(mut search) = build(rule, &grid, &moves, queue) else { continue };
                for p in sample {
                    let found = search.search(&grid, &mut h, None, p.start, p.goal).unwrap();
                    assert!(
                        p.expected.accepts(found.cost, rules.scale),
                        "{} {rule:?} on {}: {p:?}, found {:?}",
                        queue.id,
                        map.display(),
                        found.cost
                    );
                }
            }
        }
    }
}

/// The default profile's tie workloads mirror band workloads of the A\*'s own rule (same
/// map, problems, heuristic, scale and store), so the report compares them search for
/// search; every rule on every tie map.
#[test]
fn the_default_tie_workloads_mirror_band_workloads_under_every_rule() {
    let specs = builtin(Profile::Default);
    let variants = specs.iter().filter(|s| s.role == Role::Ties);
    // The other variants of the A* (its heuristic cached) mirror a band or series workload.
    for spec in variants.clone().filter(|s| !RULES.contains(&s.series.setup.search)) {
        let twin = spec.with_setup(Setup::GRID_ASTAR);
        let mirrored = specs.iter().find(|s| s.same_searches(&twin)).map(|s| s.role);
        assert!(matches!(mirrored, Some(Role::Bands | Role::OtherSeries)), "{}", spec.name());
    }
    let ties: Vec<&WorkloadSpec> =
        variants.filter(|s| RULES.contains(&s.series.setup.search)).collect();
    assert!(ties.len() >= 8, "{} tie workloads", ties.len());
    for spec in &ties {
        let twin = spec.with_setup(Setup::GRID_ASTAR);
        let banded = specs.iter().find(|s| s.same_searches(&twin));
        assert_eq!(banded.map(|s| s.role), Some(Role::Bands), "{}", spec.name());
        assert!(spec.name().ends_with(spec.series.setup.search.token()), "{}", spec.name());
        for rule in &RULES[1..] {
            let other = spec.with_setup(Setup { search: *rule, ..spec.series.setup });
            assert!(specs.contains(&other), "{} under {rule:?}", spec.name());
        }
    }
}
