//! The equal-key stack (`pqlab_queues::equal_key_stack`) in the A*: the same costs as its
//! inner queue, and how many pushes the stack absorbs; and how many more a caliber rule
//! (Goldberg's smart-queue rule) would take.
//!
//! `PQLAB_STACK_MAPS="a.map b.map" cargo test --release -p pqlab --test equal_key_stack --
//! --ignored --nocapture` prints both shares on Moving AI maps (100 problems spread over each
//! map's scenario; octile, 8-connected, fine costs).

mod common;

use std::path::Path;

use common::pairs;
use pqlab::maps::generate::{MapKind, MapSpec};
use pqlab::maps::grid::{Grid, Rules};
use pqlab::maps::instance::{Instance, Sample};
use pqlab::maps::moves::{for_each_move, Direction, Moves};
use pqlab::search::astar::AStar;
use pqlab::search::heuristic::{Geometric, Heuristic, HeuristicKind};
use pqlab::search::trace::{Op, Recorder};
use pqlab_queues::bitmap_bucket_queue::BitmapBucketQueue;
use pqlab_queues::equal_key_stack::EqualKeyStack;
use pqlab_queues::packed_radix_heap::PackedRadixHeap;
use pqlab_queues::radix_heap::RadixHeap;
use pqlab_queues::{Dup, Frontier};

/// A search's start and goal cells, `(x, y)`.
type Problem = ((u32, u32), (u32, u32));

/// What the searches of one queue gave: costs, and summed counters.
#[derive(Debug, Default)]
struct Totals {
    costs: Vec<Option<u64>>,
    expansions: u64,
    pushes: u64,
    /// Pushes the stack took (0 for a plain queue).
    absorbed: u64,
}

/// Runs the octile A* with frontier `F` on each problem; `absorbed` reads the stack's count
/// after a search (the A* clears its frontier, and so the count, before each search).
fn run<F: Frontier>(grid: &Grid, problems: &[Problem], absorbed: impl Fn(&F) -> u64) -> Totals {
    let rules = Rules::default();
    let mut search = AStar::<F>::new(grid, rules);
    let mut octile = Geometric::new(HeuristicKind::Octile, grid, rules.connectivity, rules.scale);
    let mut totals = Totals::default();
    for &(start, goal) in problems {
        let outcome = search.search(grid, &mut octile, None, start, goal).unwrap();
        totals.costs.push(outcome.cost);
        totals.expansions += outcome.counters.expansions;
        totals.pushes += outcome.counters.pushes;
        totals.absorbed += absorbed(search.frontier());
    }
    totals
}

/// The three stacked queues and their inner ones on `grid`: equal costs and expansions, the
/// stack's count within the pushes; prints one line per inner queue and returns the shares
/// absorbed.
fn compare(name: &str, grid: &Grid, problems: &[Problem]) -> Vec<f64> {
    let mut shares = Vec::new();
    let mut line = |inner: &str, plain: Totals, stacked: Totals| {
        assert_eq!(plain.costs, stacked.costs, "{name}: {inner} and its stacked form disagree");
        // Both pop equal keys last in, first out, so they pop the same sequence.
        assert_eq!(plain.expansions, stacked.expansions, "{name}: {inner}'s expansions");
        assert!(stacked.absorbed <= stacked.pushes, "{name}: {stacked:?}");
        let share = stacked.absorbed as f64 / stacked.pushes as f64;
        println!(
            "{name} {inner}: {} of {} pushes absorbed ({:.1}%); expansions {} plain, {} stacked",
            stacked.absorbed,
            stacked.pushes,
            100.0 * share,
            plain.expansions,
            stacked.expansions
        );
        shares.push(share);
    };
    line(
        "radix-heap-dup",
        run::<RadixHeap<Dup>>(grid, problems, none),
        run::<EqualKeyStack<RadixHeap<Dup>>>(grid, problems, EqualKeyStack::absorbed),
    );
    line(
        "packed-radix-heap-dup",
        run::<PackedRadixHeap<Dup>>(grid, problems, none),
        run::<EqualKeyStack<PackedRadixHeap<Dup>>>(grid, problems, EqualKeyStack::absorbed),
    );
    line(
        "bitmap-bucket-queue-dup",
        run::<BitmapBucketQueue>(grid, problems, none),
        run::<EqualKeyStack<BitmapBucketQueue>>(grid, problems, EqualKeyStack::absorbed),
    );
    shares
}

/// What the caliber rule would take of a search's pushes.
#[derive(Debug, Default)]
struct Caliber {
    pushes: u64,
    /// Pushes at the floor, the key last popped: the equal-key stack's.
    at_floor: u64,
    /// Pushes above the floor whose key is final by the caliber rule.
    beyond: u64,
}

/// Counts, over the octile searches of `problems`, the pushes the caliber rule of
/// Goldberg's smart queue (*A simple shortest path algorithm with linear average time*,
/// ESA 2001) would scan at once. Under a consistent heuristic A* is Dijkstra on the reduced
/// costs `c(u, v) + h(v) − h(u) ≥ 0`; a cell's caliber is the least reduced cost of a move
/// into it, and a push of `v` at key `f` is final when `f ≤ μ + caliber(v)`, `μ` the floor.
/// `f = μ` is the equal-key stack's case; the rest is what the rule adds. The searches run
/// on the bitmap bucket queue, which is given `f` alone, and are recorded.
fn caliber(grid: &Grid, problems: &[Problem]) -> Caliber {
    let rules = Rules::default();
    let moves = Moves::new(grid, rules.connectivity, rules.scale);
    let mut search = AStar::<Recorder<BitmapBucketQueue>>::new(grid, rules);
    let mut octile = Geometric::new(HeuristicKind::Octile, grid, rules.connectivity, rules.scale);
    let stride = grid.stride();
    let mut counts = Caliber::default();
    for &(start, goal) in problems {
        search.search(grid, &mut octile, None, start, goal).unwrap();
        // The search set the goal: `octile` now estimates towards it.
        let h = |cell: u32| octile.estimate(cell % stride, cell / stride, cell);
        let mut floor = None;
        for op in &search.frontier().trace().ops {
            match *op {
                Op::Pop(_, key) => floor = Some(key),
                Op::Push(cell, key) => {
                    counts.pushes += 1;
                    let Some(floor) = floor else { continue };
                    if key == floor {
                        counts.at_floor += 1;
                        continue;
                    }
                    let (here, mut least) = (h(cell), u64::MAX);
                    for_each_move(grid, &moves, Direction::Backward, cell, |m| {
                        let reduced = (m.cost + here).checked_sub(h(m.cell));
                        least = least.min(reduced.expect("octile is consistent"));
                    });
                    if key <= floor.saturating_add(least) {
                        counts.beyond += 1;
                    }
                }
                Op::Clear => floor = None,
            }
        }
    }
    counts
}

/// A plain queue's count: nothing stacked.
fn none<F>(_: &F) -> u64 {
    0
}

#[test]
fn stacked_queues_find_their_inner_queues_costs_and_absorb_pushes() {
    for (seed, kind) in [
        (3, MapKind::Random { density: 25 }),
        (5, MapKind::Rooms { room: 8 }),
        (6, MapKind::Cave { fill: 45, steps: 4 }),
    ] {
        let grid = MapSpec { kind, size: 64, seed }.build();
        let problems = pairs(&grid, 30, seed);
        let shares = compare(&format!("{kind:?}"), &grid, &problems);
        // On an 8-connected grid under octile, a step towards the goal keeps `f`.
        assert!(shares.iter().all(|&share| share > 0.0), "{kind:?}: {shares:?}");
        // The caliber count's floor is the stack's: it takes the same pushes.
        let counts = caliber(&grid, &problems);
        let stacked =
            run::<EqualKeyStack<BitmapBucketQueue>>(&grid, &problems, EqualKeyStack::absorbed);
        assert_eq!(
            (counts.pushes, counts.at_floor),
            (stacked.pushes, stacked.absorbed),
            "{kind:?}"
        );
    }
}

#[test]
#[ignore = "reads the Moving AI maps listed in PQLAB_STACK_MAPS"]
fn absorbed_share_on_moving_ai_maps() {
    let maps = std::env::var("PQLAB_STACK_MAPS").expect("PQLAB_STACK_MAPS: map paths");
    for map in maps.split_whitespace() {
        let instance = Instance::movingai(Path::new(map), None, Sample::Spread(100)).unwrap();
        let problems: Vec<_> = instance.problems.iter().map(|p| (p.start, p.goal)).collect();
        compare(&instance.name, &instance.grid, &problems);
        let counts = caliber(&instance.grid, &problems);
        println!(
            "{} caliber rule: {} of {} pushes at the floor ({:.1}%), {} more final by caliber ({:.2}%)",
            instance.name,
            counts.at_floor,
            counts.pushes,
            100.0 * counts.at_floor as f64 / counts.pushes as f64,
            counts.beyond,
            100.0 * counts.beyond as f64 / counts.pushes as f64
        );
    }
}
