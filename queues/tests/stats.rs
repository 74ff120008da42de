//! The generic A*'s counters ([`Counters`]) with every registered queue: the invariants of
//! their definitions (see [`Counters`]) on random grids, both node maps, problems that reach
//! their goal and problems that run the frontier dry. The exact counts of a hand-worked
//! search are checked in `astar.rs`'s unit tests.

use pqlab_queues::astar::Counters;
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{astar_dense_with_stats, astar_with_stats, Frontier, Strategy};

type Cell = (i32, i32);

/// A `side × side` 8-connected grid, moves costing 10 and 14 times the entered cell's
/// weight (1 to 3), a cell in five blocked; the pattern is a fixed hash of `seed`.
struct Grid {
    side: i32,
    seed: u32,
}

impl Grid {
    fn weight(&self, (x, y): Cell) -> Option<u32> {
        if !(0..self.side).contains(&x) || !(0..self.side).contains(&y) {
            return None;
        }
        let hash = (x as u32).wrapping_mul(0x9E37_79B1)
            ^ (y as u32).wrapping_mul(0x85EB_CA77)
            ^ self.seed.wrapping_mul(0xC2B2_AE3D);
        let hash = hash.wrapping_mul(0x27D4_EB2F) >> 16;
        (!hash.is_multiple_of(5)).then_some(1 + hash % 3)
    }

    fn successors(&self, &(x, y): &Cell) -> Vec<(Cell, u32)> {
        let mut next = Vec::new();
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let cell = (x + dx, y + dy);
            if let Some(w) = self.weight(cell) {
                next.push((cell, w * if dx != 0 && dy != 0 { 14 } else { 10 }));
            }
        }
        next
    }
}

/// Octile distance at the lowest weight: consistent.
fn octile((x, y): Cell, (gx, gy): Cell) -> u32 {
    let (dx, dy) = (x.abs_diff(gx), y.abs_diff(gy));
    14 * dx.min(dy) + 10 * (dx.max(dy) - dx.min(dy))
}

struct Invariants;

impl Visitor for Invariants {
    type Output = ();

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        for seed in 0..12 {
            let grid = Grid { side: 20 + seed as i32, seed };
            let start = (0..grid.side).map(|x| (x, x)).find(|&c| grid.weight(c).is_some());
            let Some(start) = start else { continue };
            // A goal on the grid, and one off it: the search then runs the frontier dry.
            for (goal, reachable) in [((grid.side - 1, grid.side / 2), true), ((-1, -1), false)] {
                let what = format!("{} on grid {seed}, goal {goal:?}", entry.id);
                let h = |&c: &Cell| if reachable { octile(c, goal) } else { 0 };
                let hashed = astar_with_stats::<F, _, _, _>(
                    &start,
                    |c| grid.successors(c),
                    h,
                    |&c| c == goal,
                );
                let dense = astar_dense_with_stats::<F, _, _, _>(
                    &start,
                    |c| grid.successors(c),
                    h,
                    |&c| c == goal,
                    (grid.side * grid.side) as usize,
                    |&(x, y)| (y * grid.side + x) as usize,
                );
                for run in [hashed, dense] {
                    let (found, stats) = run.unwrap_or_else(|e| panic!("{what}: {e}"));
                    let ran_dry = found.is_none();
                    check(entry, F::ORDER.is_exact(), ran_dry, &stats, &what);
                }
            }
        }
    }
}

fn check(entry: &Entry, exact: bool, ran_dry: bool, s: &Counters, what: &str) {
    let what = format!("{what}: {s:?}");
    assert_eq!(s.pops, s.expansions + s.stale_pops, "{what}");
    assert!(s.expansions >= 1 && s.max_frontier >= 1 && s.max_open >= 1, "{what}");
    assert!(s.pushes >= s.pops, "{what}: more pops than entries added");
    if ran_dry {
        assert_eq!(s.pushes, s.pops, "{what}: the frontier ran dry");
    }
    if exact {
        assert_eq!(s.reopenings, 0, "{what}: a consistent heuristic reopens nothing");
    }
    match entry.strategy {
        Strategy::Duplicates => {
            assert_eq!(s.decrease_keys, 0, "{what}");
            assert!(s.max_open <= s.max_frontier, "{what}");
        }
        Strategy::DecreaseKey => {
            assert_eq!(s.stale_pops, 0, "{what}");
            assert_eq!(s.max_open, s.max_frontier, "{what}: the frontier holds the open nodes");
        }
    }
}

#[test]
fn the_counters_keep_their_invariants_with_every_queue() {
    for entry in registry::ENTRIES {
        registry::visit(entry.id, Invariants).expect("registered");
    }
}

#[test]
fn some_search_decreases_keys_and_leaves_stale_entries() {
    // The invariants above hold vacuously if nothing is ever decreased or stale.
    let grid = Grid { side: 40, seed: 3 };
    let goal = (39, 20);
    let run = |id| registry::visit(id, Run { grid: &grid, goal }).expect("registered");
    struct Run<'a> {
        grid: &'a Grid,
        goal: Cell,
    }
    impl Visitor for Run<'_> {
        type Output = Counters;
        fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Counters {
            let (grid, goal) = (self.grid, self.goal);
            let start = (0..grid.side).map(|x| (x, x)).find(|&c| grid.weight(c).is_some());
            astar_with_stats::<F, _, _, _>(
                &start.expect("a free cell"),
                |c| grid.successors(c),
                |&c| octile(c, goal),
                |&c| c == goal,
            )
            .expect("no error")
            .1
        }
    }
    let (dup, dk) = (run("dary4-dup"), run("dary4-dk"));
    assert!(dup.stale_pops > 0 && dup.max_frontier > dup.max_open, "{dup:?}");
    assert!(dk.decrease_keys > 0, "{dk:?}");
}
