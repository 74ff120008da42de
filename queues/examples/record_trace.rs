//! Recording the frontier of your own search, for `pqlab pick --trace`.
//!
//! A user-style search, nothing of pqlab's lab: a waypoint graph (a jittered 120 × 120
//! lattice, each waypoint joined to its neighbours and to some diagonal ones, Euclidean
//! costs in hundredths rounded up) and its own A\* with duplicate insertion, written
//! against [`Frontier`]. The one line that records is the queue's type:
//! `Recording<StdBinaryHeap>` instead of `StdBinaryHeap`. After 80 searches the trace is
//! checked and saved.
//!
//! `cargo run --release -p pqlab-queues --example record_trace [FILE] [--binary]` (the
//! text form by default, to `record_trace.trace` in the system's temporary folder), then
//! `pqlab pick --trace FILE`.

use std::path::PathBuf;

use pqlab_queues::std_binary_heap::StdBinaryHeap;
use pqlab_queues::trace::{Recording, TraceFormat};
use pqlab_queues::{Frontier, Key, Node, Spec};

const SIDE: usize = 120;
const SEARCHES: usize = 80;

/// A fixed xorshift generator: every run writes the same trace.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Waypoints and their edges (`(to, cost)`), costs in hundredths of a unit rounded up.
struct Graph {
    points: Vec<(f64, f64)>,
    edges: Vec<Vec<(Node, Key)>>,
}

impl Graph {
    fn new(random: &mut Random) -> Graph {
        let points: Vec<(f64, f64)> = (0..SIDE * SIDE)
            .map(|i| {
                let (x, y) = ((i % SIDE) as f64, (i / SIDE) as f64);
                (x + 0.6 * random.unit() - 0.3, y + 0.6 * random.unit() - 0.3)
            })
            .collect();
        let mut edges = vec![Vec::new(); points.len()];
        for i in 0..points.len() {
            let (x, y) = (i % SIDE, i / SIDE);
            let join = |j: usize, edges: &mut Vec<Vec<(Node, Key)>>| {
                let cost = (100.0 * distance(points[i], points[j])).ceil() as Key;
                edges[i].push((j as Node, cost));
                edges[j].push((i as Node, cost));
            };
            // Straight links, a few missing (walls); diagonal links now and then.
            if x + 1 < SIDE && random.unit() < 0.85 {
                join(i + 1, &mut edges);
            }
            if y + 1 < SIDE && random.unit() < 0.85 {
                join(i + SIDE, &mut edges);
            }
            if x + 1 < SIDE && y + 1 < SIDE && random.unit() < 0.3 {
                join(i + SIDE + 1, &mut edges);
            }
        }
        Graph { points, edges }
    }

    /// The straight-line distance in hundredths, rounded down: never above a path's cost,
    /// and consistent with the costs rounded up.
    fn estimate(&self, from: Node, to: Node) -> Key {
        (100.0 * distance(self.points[from as usize], self.points[to as usize])).floor() as Key
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// A\* from `start` to `goal` on `open` (any frontier): duplicate insertion, stale entries
/// skipped. The cost of a cheapest path, if any.
fn astar(
    graph: &Graph,
    open: &mut impl Frontier,
    g: &mut [Key],
    start: Node,
    goal: Node,
) -> Option<Key> {
    open.clear();
    g.fill(Key::MAX);
    g[start as usize] = 0;
    open.push(start, graph.estimate(start, goal)).expect("a waypoint id");
    while let Some((node, f)) = open.pop() {
        let cost = g[node as usize];
        if f > cost + graph.estimate(node, goal) {
            continue; // stale: the node was reached more cheaply since
        }
        if node == goal {
            return Some(cost);
        }
        for &(next, step) in &graph.edges[node as usize] {
            let through = cost + step;
            if through < g[next as usize] {
                g[next as usize] = through;
                open.push(next, through + graph.estimate(next, goal)).expect("a waypoint id");
            }
        }
    }
    None
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).collect::<Vec<_>>();
    let binary = args.iter().any(|a| a == "--binary");
    args.retain(|a| a != "--binary");
    let path = match args.as_slice() {
        [] => std::env::temp_dir().join("record_trace.trace"),
        [path] => PathBuf::from(path),
        _ => return Err("usage: record_trace [FILE] [--binary]".into()),
    };
    let mut random = Random(0x2545_F491_4F6C_DD1D);
    let graph = Graph::new(&mut random);
    let spec = Spec { capacity: graph.points.len(), span: 0 };
    // The one line: your queue, wrapped.
    let mut open = Recording::<StdBinaryHeap>::new(spec);
    let mut g = vec![Key::MAX; graph.points.len()];
    let (mut reached, mut total) = (0, 0);
    for _ in 0..SEARCHES {
        let pick = |random: &mut Random| (random.next() % graph.points.len() as u64) as Node;
        let (start, goal) = (pick(&mut random), pick(&mut random));
        if let Some(cost) = astar(&graph, &mut open, &mut g, start, goal) {
            reached += 1;
            total += cost;
        }
    }
    let trace = open.trace()?;
    let format = if binary { TraceFormat::Binary } else { TraceFormat::Text };
    trace.save(&path, format)?;
    let facts = trace.facts();
    println!(
        "{SEARCHES} searches on {} waypoints ({reached} reached, mean cost {:.1}): {} pushes, {} decreases, {} pops; keys {}, span {}.",
        graph.points.len(),
        total as f64 / reached.max(1) as f64 / 100.0,
        facts.pushes,
        facts.decreases,
        facts.pops,
        trace.keys(),
        facts.span
    );
    println!("Wrote {}. Next: pqlab pick --trace {}", path.display(), path.display());
    Ok(())
}
