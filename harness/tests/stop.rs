//! Every search loop polls the check pass's stop (`pqlab::search::stop`): armed past its
//! deadline, each ends at its `EVERY`th expansion instead of running to the goal, and
//! unarmed each runs to the goal.

use pqlab::maps::generate::MapSpec;
use pqlab::maps::grid::{Connectivity, CostKind, CostScale, Grid, Rules};
use pqlab::search::astar::AStar;
use pqlab::search::bfs::Bfs;
use pqlab::search::fringe::Fringe;
use pqlab::search::generic::GenericGrid;
use pqlab::search::heuristic::{AnyHeuristic, Geometric, HeuristicKind};
use pqlab::search::outcome::SearchError;
use pqlab::search::peers::{PathfindingAstar, Peer, PetgraphAstar};
use pqlab::search::stop::{Armed, EVERY};
use pqlab_queues::std_binary_heap::StdBinaryHeap;

/// A clock always past any deadline.
fn late() -> u64 {
    u64::MAX
}

/// An open map, searched corner to corner with the zero heuristic: far more than `EVERY`
/// expansions.
fn map() -> Grid {
    "random-d10-128-s1".parse::<MapSpec>().unwrap().build()
}

const ENDS: [(u32, u32); 2] = [(1, 1), (126, 126)];

/// Runs `search` armed past its deadline and unarmed: whether it was stopped each time.
fn stopped_then_not(mut search: impl FnMut() -> bool) -> (bool, bool) {
    let armed = Armed::new(late, 0);
    let finished = search();
    let stopped = armed.stopped();
    assert_eq!(finished, !stopped, "a stopped search has no answer to give");
    drop(armed);
    (stopped, search())
}

#[test]
fn every_loop_stops_within_its_search_once_armed_past_the_deadline() {
    let grid = map();
    assert!(grid.contains(ENDS[1].0, ENDS[1].1));
    let (start, goal) = (ENDS[0], ENDS[1]);
    let rules = Rules::default();
    let zero = || Geometric::new(HeuristicKind::Zero, &grid, rules.connectivity, rules.scale);

    let mut astar = AStar::<StdBinaryHeap>::new(&grid, rules);
    let mut h = zero();
    let astar = stopped_then_not(|| match astar.search(&grid, &mut h, None, start, goal) {
        Err(SearchError::Stopped) => false,
        found => found.unwrap().cost.is_some(),
    });

    let mut fringe = Fringe::new(&grid, rules);
    let mut h = zero();
    let fringe = stopped_then_not(|| match fringe.search(&grid, &mut h, None, start, goal) {
        Err(SearchError::Stopped) => false,
        found => found.unwrap().cost.is_some(),
    });

    let unit = Rules { connectivity: Connectivity::Four, scale: CostScale::UNIT };
    let mut bfs = Bfs::new(&grid, unit);
    let bfs = stopped_then_not(|| match bfs.search(&grid, None, start, goal) {
        Err(SearchError::Stopped) => false,
        found => found.unwrap().cost.is_some(),
    });

    // The closures' searches end by declaring the goal found: an answer the stop voids.
    let generic = GenericGrid::new(&grid, rules, CostKind::Integer, HeuristicKind::Zero);
    let mut h =
        AnyHeuristic::new(HeuristicKind::Zero, &grid, rules.connectivity, rules.scale).unwrap();
    let armed = Armed::new(late, 0);
    let stopped = generic.solve::<StdBinaryHeap>(&grid, &mut h, None, start, goal).unwrap();
    assert!(armed.stopped());
    assert_eq!(stopped.counters.expansions, EVERY, "stopped at its EVERYth expansion");
    drop(armed);
    let whole = generic.solve::<StdBinaryHeap>(&grid, &mut h, None, start, goal).unwrap();
    assert!(whole.counters.expansions > EVERY);

    // petgraph's A* is not stopped (it asserts the goal's estimate is 0): it runs on.
    let mut pathfinding = PathfindingAstar::new(&grid, rules);
    let armed = Armed::new(late, 0);
    pathfinding.search(&grid, start, goal);
    assert!(armed.stopped(), "pathfinding");
    drop(armed);
    assert!(pathfinding.search(&grid, start, goal).is_some());
    let mut petgraph = PetgraphAstar::new(&grid, rules);
    let armed = Armed::new(late, 0);
    assert!(petgraph.search(&grid, start, goal).is_some() && !armed.stopped(), "petgraph");
    drop(armed);

    for (name, (stopped, then_not)) in [("astar", astar), ("fringe", fringe), ("bfs", bfs)] {
        assert!(stopped && then_not, "{name}: stopped {stopped}, then ran to the goal {then_not}");
    }
}
