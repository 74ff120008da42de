//! Road graphs (`pqlab::maps::road`): names, generation (nearest neighbours against brute
//! force, symmetry, determinism), the straight-line heuristic's consistency on every edge,
//! and the queue crate's generic A* with every registered queue against the reference
//! Dijkstra. The ignored `measure` prints what chose [`road::WORKLOADS`]:
//! `cargo test --release -p pqlab --test road -- --ignored --nocapture measure`.

use std::cell::Cell;
use std::time::Instant;

use pqlab::maps::road::{self, RoadGraph, RoadSpec};
use pqlab_queues::astar::{takes, AstarError};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::std_binary_heap::StdBinaryHeap;
use pqlab_queues::{astar, astar_dense, Frontier, Key, KeyRule, Node, PushError, Pushed, Spec};

fn spec(name: &str) -> RoadSpec {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn build(name: &str) -> RoadGraph {
    spec(name).build().unwrap_or_else(|e| panic!("{e}"))
}

/// Every edge `(u, v, integer cost, float cost)`.
fn edges(graph: &RoadGraph) -> Vec<(u32, u32, u64, f64)> {
    (0..graph.nodes() as u32)
        .flat_map(|u| {
            graph.successors(u).zip(graph.successors_f64(u)).map(move |((v, c), (w, f))| {
                assert_eq!(v, w);
                (u, v, c, f)
            })
        })
        .collect()
}

#[test]
fn names_round_trip_and_bad_ones_are_rejected() {
    let spec = RoadSpec { nodes: 100_000, neighbours: 4, classes: 3, seed: 1 };
    assert_eq!(spec.to_string(), "road-n100000-k4-c3-s1");
    for name in ["road-n100000-k4-c3-s1", "road-n2-k1-c1-s18446744073709551615"]
        .into_iter()
        .chain(road::WORKLOADS)
    {
        assert_eq!(self::spec(name).to_string(), name);
    }
    for bad in [
        "",
        "road",
        "road-n100-k4-s1",
        "road-n100-k4-c1-s1-x",
        "road-k4-n100-c1-s1",
        "road-n+100-k4-c1-s1",
        "road-n100-k4-c1-1",
        "road-n-k4-c1-s1",
        "roads-n100-k4-c1-s1",
        "road-n100-k4-c1-s99999999999999999999",
        "maze-w8-512-s1",
    ] {
        let error = bad.parse::<RoadSpec>().unwrap_err().to_string();
        assert!(error.contains("is not a road graph name"), "{bad}: {error}");
    }
    for (bad, message) in [
        ("road-n1-k1-c1-s1", "road-n1-k1-c1-s1: the node count must be 2 to 16777216, not 1"),
        ("road-n3-k3-c1-s1", "road-n3-k3-c1-s1: the neighbour count must be 1 to 2, not 3"),
        ("road-n99-k0-c1-s1", "road-n99-k0-c1-s1: the neighbour count must be 1 to 16, not 0"),
        ("road-n99-k17-c1-s1", "road-n99-k17-c1-s1: the neighbour count must be 1 to 16, not 17"),
        ("road-n99-k4-c0-s1", "road-n99-k4-c0-s1: the class count must be 1 to 4, not 0"),
        ("road-n99-k4-c5-s1", "road-n99-k4-c5-s1: the class count must be 1 to 4, not 5"),
        (
            "road-n16777217-k4-c1-s1",
            "road-n16777217-k4-c1-s1: the node count must be 2 to 16777216, not 16777217",
        ),
    ] {
        assert_eq!(bad.parse::<RoadSpec>().unwrap_err().to_string(), message);
    }
    let invalid = RoadSpec { nodes: 10, neighbours: 0, classes: 1, seed: 1 };
    assert_eq!(
        invalid.build().unwrap_err().to_string(),
        "road-n10-k0-c1-s1: the neighbour count must be 1 to 9, not 0"
    );
}

#[test]
fn the_same_spec_builds_the_same_graph_and_seeds_matter() {
    for name in ["road-n500-k3-c1-s7", "road-n2000-k4-c3-s7", "road-n40-k6-c2-s7"] {
        let graph = build(name);
        assert_eq!(graph, build(name), "{name}");
        assert_ne!(graph, build(&name.replace("-s7", "-s8")), "{name}");
    }
}

#[test]
fn graphs_are_symmetric_simple_and_connected() {
    for name in ["road-n3000-k4-c1-s1", "road-n3000-k2-c3-s2", "road-n50-k1-c1-s3"] {
        let graph = build(name);
        let spec = spec(name);
        assert!(graph.nodes() <= spec.nodes as usize && graph.nodes() >= 2, "{name}");
        let mut all = edges(&graph);
        for &(u, v, c, f) in &all {
            assert_ne!(u, v, "{name}: a self-loop");
            let back: Vec<_> = graph.successors(v).zip(graph.successors_f64(v)).collect();
            assert_eq!(
                back.iter().filter(|((w, _), _)| *w == u).collect::<Vec<_>>(),
                [&((u, c), (u, f))],
                "{name}: {u} -> {v} has no single twin of the same costs"
            );
        }
        let before = all.len();
        all.dedup_by_key(|e| (e.0, e.1));
        assert_eq!(all.len(), before, "{name}: parallel edges");
        let costs = road::dijkstra(&graph, 0);
        assert!(costs.iter().all(|&c| c != u64::MAX), "{name}: not connected");
    }
    // One neighbour each makes many small components; the largest is kept.
    let graph = build("road-n1000-k1-c1-s4");
    assert!(graph.nodes() < 100, "{}", graph.nodes());
    assert!(road::dijkstra(&graph, 0).iter().all(|&c| c != u64::MAX));
}

/// With one class, each node's neighbours are its `k` nearest (brute force, ties by id),
/// and the nodes of which it is one of the `k` nearest: nothing else.
#[test]
fn neighbours_are_the_k_nearest_by_brute_force() {
    let squared = |a: (u32, u32), b: (u32, u32)| {
        let (dx, dy) = (u64::from(a.0.abs_diff(b.0)), u64::from(a.1.abs_diff(b.1)));
        dx * dx + dy * dy
    };
    for name in
        ["road-n400-k4-c1-s1", "road-n1000-k3-c1-s2", "road-n300-k8-c1-s3", "road-n12-k5-c1-s4"]
    {
        let graph = build(name);
        let k = spec(name).neighbours as usize;
        let n = graph.nodes() as u32;
        let knn: Vec<Vec<u32>> = (0..n)
            .map(|u| {
                let mut others: Vec<(u64, u32)> = (0..n)
                    .filter(|&v| v != u)
                    .map(|v| (squared(graph.point(u), graph.point(v)), v))
                    .collect();
                others.sort_unstable();
                others.iter().take(k).map(|&(_, v)| v).collect()
            })
            .collect();
        for u in 0..n {
            let mut expected: Vec<u32> = knn[u as usize].clone();
            expected.extend((0..n).filter(|&v| knn[v as usize].contains(&u)));
            expected.sort_unstable();
            expected.dedup();
            let found: Vec<u32> = graph.successors(u).map(|(v, _)| v).collect();
            assert_eq!(found, expected, "{name}: node {u}");
        }
    }
}

/// Integer costs are the length × SCALE ÷ speed rounded up, float ones the length ÷ speed,
/// with speeds 1, 4, 16 … up to the top; several classes make some edges faster.
#[test]
fn costs_are_lengths_over_speeds() {
    for name in ["road-n2000-k4-c1-s5", "road-n20000-k4-c3-s5"] {
        let graph = build(name);
        let mut speeds = std::collections::BTreeSet::new();
        for (u, v, c, f) in edges(&graph) {
            let (a, b) = (graph.point(u), graph.point(v));
            let length = (f64::from(a.0) - f64::from(b.0)).hypot(f64::from(a.1) - f64::from(b.1));
            let speed = (length / road::SCALE as f64 / f).round() as u32;
            assert!(speed.is_power_of_two() && speed <= graph.top_speed(), "{name}: {speed}");
            assert!((f * speed as f64 * road::SCALE as f64 - length).abs() < 1e-6 * length);
            let exact = length / f64::from(speed);
            assert!(c as f64 >= exact - 1e-6 && (c as f64) < exact + 1.0, "{name}: {c} {exact}");
            speeds.insert(speed);
        }
        let expected: Vec<u32> = (0..spec(name).classes).map(|c| 1 << (2 * c)).collect();
        assert_eq!(speeds.into_iter().collect::<Vec<_>>(), expected, "{name}");
    }
}

/// `h(u) <= c(u, v) + h(v)` on every edge, for goals spread over the graph, in both cost
/// representations; `h(goal) = 0`; and `h` is below the reference cost.
#[test]
fn the_heuristic_is_consistent_on_every_edge_and_admissible() {
    for name in ["road-n5000-k4-c1-s6", "road-n5000-k3-c3-s6", "road-n3000-k4-c4-s7"] {
        let graph = build(name);
        let all = edges(&graph);
        let n = graph.nodes() as u32;
        for goal in [0, n / 3, n / 2, n - 1] {
            let h = graph.heuristic(goal);
            assert_eq!((h.estimate(goal), h.estimate_f64(goal)), (0, 0.0));
            for &(u, v, c, f) in &all {
                assert!(h.estimate(u) <= c + h.estimate(v), "{name}: {u} -> {v}, goal {goal}");
                assert!(h.estimate_f64(u) <= f + h.estimate_f64(v), "{name}: {u} -> {v} (f64)");
            }
            let (costs, costs_f64) =
                (road::dijkstra(&graph, goal), road::dijkstra_f64(&graph, goal));
            for u in 0..n {
                assert!(h.estimate(u) <= costs[u as usize], "{name}: {u} to {goal}");
                assert!(h.estimate_f64(u) <= costs_f64[u as usize], "{name}: {u} to {goal} (f64)");
            }
        }
    }
}

#[test]
fn problems_are_deterministic_with_reference_costs() {
    let instance = road::RoadInstance::generated(spec("road-n3000-k4-c2-s9"), 25).unwrap();
    assert_eq!(instance.problems.len(), 25);
    let again = road::problems(&instance.graph, 25, 9);
    assert_eq!(instance.problems, again);
    for p in &instance.problems {
        assert_ne!(p.start, p.goal);
        assert_eq!(p.cost, road::dijkstra(&instance.graph, p.start)[p.goal as usize]);
        assert_eq!(p.cost_f64, road::dijkstra_f64(&instance.graph, p.start)[p.goal as usize]);
        // Backwards, the same path's float sum may round differently.
        let back = road::dijkstra_f64(&instance.graph, p.goal)[p.start as usize];
        assert!((back - p.cost_f64).abs() <= 1e-12 * p.cost_f64, "{back} {}", p.cost_f64);
        assert_eq!(p.cost, road::dijkstra(&instance.graph, p.goal)[p.start as usize]);
    }
    let starts: std::collections::BTreeSet<u32> =
        instance.problems.iter().map(|p| p.start).collect();
    assert_eq!(starts.len(), 3, "10 goals per start");
}

/// Problems on small road graphs, checked with each registered queue.
struct Graphs<'a>(&'a [(RoadGraph, Vec<road::RoadProblem>)]);

impl Visitor for &Graphs<'_> {
    type Output = ();

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        for (graph, problems) in self.0 {
            for p in problems {
                let what = format!("{} on {} -> {}", entry.id, p.start, p.goal);
                let h = graph.heuristic(p.goal);
                let narrow = |c: u64| u32::try_from(c).expect("small graphs' costs fit u32");
                let hashed = astar::<F, _, _, _>(
                    &p.start,
                    |&u| graph.successors(u).map(move |(v, c)| (v, narrow(c))),
                    |&u| narrow(h.estimate(u)),
                    |&u| u == p.goal,
                )
                .unwrap_or_else(|e| panic!("{what}: {e}"))
                .map(|(path, cost)| (path, u64::from(cost)));
                let dense = astar_dense::<F, _, _, _>(
                    &p.start,
                    |&u| graph.successors(u),
                    |&u| h.estimate(u),
                    |&u| u == p.goal,
                    graph.nodes(),
                    |&u| u as usize,
                );
                // A narrow queue takes no 64-bit costs: the search says so at once.
                let dense = match (dense, takes::<F, u64>()) {
                    (Err(AstarError::Refused(why)), Err(reason)) if why == reason => None,
                    (found, _) => Some(found.unwrap_or_else(|e| panic!("{what} (dense): {e}"))),
                };
                for found in std::iter::once(hashed).chain(dense) {
                    let (path, cost) = found.unwrap_or_else(|| panic!("{what}: no path"));
                    if F::ORDER.is_exact() {
                        assert_eq!(cost, p.cost, "{what}");
                    } else {
                        assert!(cost >= p.cost, "{what} beat the optimum");
                    }
                    let walked: u64 = path
                        .windows(2)
                        .map(|w| graph.successors(w[0]).find(|s| s.0 == w[1]).expect("an edge").1)
                        .sum();
                    assert_eq!(walked, cost, "{what}: the path does not cost what was returned");
                }
            }
        }
    }
}

#[test]
fn every_queue_finds_the_reference_costs_on_road_graphs() {
    let graphs: Vec<_> = ["road-n1500-k4-c1-s1", "road-n1500-k3-c3-s2", "road-n400-k2-c2-s3"]
        .into_iter()
        .map(|name| {
            let graph = build(name);
            let problems = road::problems(&graph, 12, 5);
            (graph, problems)
        })
        .collect();
    for entry in registry::ENTRIES {
        registry::visit(entry.id, &Graphs(&graphs));
    }
}

thread_local! {
    /// The most entries [`Counting`] held at once since it was last reset.
    static MOST: Cell<usize> = const { Cell::new(0) };
}

/// A frontier that records the most entries it held at once in [`MOST`].
struct Counting<F>(F);

impl<F: Frontier> Frontier for Counting<F> {
    const FAMILY: pqlab_queues::Family = F::FAMILY;
    const ORIGIN: pqlab_queues::Origin = F::ORIGIN;
    const STRATEGY: pqlab_queues::Strategy = F::STRATEGY;
    const KEYS: KeyRule = F::KEYS;
    const TIES: pqlab_queues::Ties = F::TIES;
    const ORDER: pqlab_queues::Order = F::ORDER;

    fn new(spec: Spec) -> Self {
        Counting(F::new(spec))
    }

    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        let pushed = self.0.push(node, key);
        MOST.set(MOST.get().max(self.0.len()));
        pushed
    }

    fn pop(&mut self) -> Option<(Node, Key)> {
        self.0.pop()
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn clear(&mut self) {
        self.0.clear()
    }
}

/// What chose [`road::WORKLOADS`] and [`road::CLASS_RATIO`]: per graph (the workloads, or
/// `$ROAD_GRAPHS`, comma-separated), the generation time, and over 20 problems the open
/// entries of std's binary heap at most (mean and max over searches) and the time per
/// search with the generic dense A* and integer costs. Run in release mode.
#[test]
#[ignore]
fn measure() {
    let names = std::env::var("ROAD_GRAPHS").unwrap_or(road::WORKLOADS.join(","));
    for name in names.split(',') {
        let started = Instant::now();
        let graph = build(name);
        let generation = started.elapsed();
        let problems = road::problems(&graph, 20, 1);
        let (mut most, mut total, mut time) = (0, 0, 0.0);
        for p in &problems {
            MOST.set(0);
            let h = graph.heuristic(p.goal);
            let started = Instant::now();
            let found = astar_dense::<Counting<StdBinaryHeap>, _, _, _>(
                &p.start,
                |&u| graph.successors(u),
                |&u| h.estimate(u),
                |&u| u == p.goal,
                graph.nodes(),
                |&u| u as usize,
            );
            time += started.elapsed().as_secs_f64();
            assert_eq!(found.unwrap().map(|(_, c)| c), Some(p.cost), "{name}");
            most = most.max(MOST.get());
            total += MOST.get();
        }
        println!(
            "{name}: {} nodes, {} edges, generated in {:.2} s; open at most {} mean, {} max; {:.1} ms a search",
            graph.nodes(),
            graph.edges(),
            generation.as_secs_f64(),
            total / problems.len(),
            most,
            time * 1e3 / problems.len() as f64
        );
    }
}
