//! Switching an A* from the `pathfinding` crate to a queue of this crate is one call.
//!
//! Solves the same grid problems with `pathfinding::prelude::astar` and with
//! `pqlab_queues::astar` over the lab's pick for frontiers of a few thousand cells
//! (`pqlab pick --frontier 2k`: the radix heaps; this one is ours, so no feature is
//! needed), checks that every cost is equal, and prints both times.
//!
//! `cargo run --release -p pqlab-queues --example adopt` (the times of a debug build say
//! little).

use std::time::{Duration, Instant};

use pqlab_queues::radix_heap::RadixHeap;
use pqlab_queues::Dup;

/// The lab's pick: swap this type for any other queue of the crate.
type Pick = RadixHeap<Dup>;

const SIDE: i32 = 512;

/// A cell is blocked with probability about 1/4 (a fixed hash, so every run is the same).
fn blocked((x, y): (i32, i32)) -> bool {
    let hash = (x as u32).wrapping_mul(0x9E37_79B1) ^ (y as u32).wrapping_mul(0x85EB_CA77);
    hash.wrapping_mul(0xC2B2_AE3D) >> 30 == 0
}

/// 8-connected moves over free cells: 100 straight, 141 diagonal.
fn successors(&(x, y): &(i32, i32)) -> Vec<((i32, i32), u32)> {
    let mut next = Vec::with_capacity(8);
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let cell = (x + dx, y + dy);
        if (0..SIDE).contains(&cell.0) && (0..SIDE).contains(&cell.1) && !blocked(cell) {
            next.push((cell, if dx != 0 && dy != 0 { 141 } else { 100 }));
        }
    }
    next
}

/// Octile distance in the same units: consistent, as the radix heap requires.
fn octile((x, y): (i32, i32), (gx, gy): (i32, i32)) -> u32 {
    let (dx, dy) = (x.abs_diff(gx), y.abs_diff(gy));
    141 * dx.min(dy) + 100 * (dx.max(dy) - dx.min(dy))
}

fn main() -> Result<(), pqlab_queues::astar::AstarError> {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut cell = || loop {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let c = ((rng % SIDE as u64) as i32, ((rng >> 32) % SIDE as u64) as i32);
        if !blocked(c) {
            return c;
        }
    };
    let problems: Vec<_> = (0..100).map(|_| (cell(), cell())).collect();
    let (mut theirs, mut ours) = (Duration::ZERO, Duration::ZERO);
    let mut solved = 0;
    for &(start, goal) in &problems {
        let clock = Instant::now();
        let expected =
            pathfinding::prelude::astar(&start, successors, |&c| octile(c, goal), |&c| c == goal);
        theirs += clock.elapsed();

        let clock = Instant::now();
        let found = pqlab_queues::astar::<Pick, _, _, _>(
            &start,
            successors,
            |&c| octile(c, goal),
            |&c| c == goal,
        )?;
        ours += clock.elapsed();

        let (a, b) = (expected.map(|(_, cost)| cost), found.map(|(_, cost)| cost));
        assert_eq!(a, b, "{start:?} -> {goal:?}: pathfinding and pqlab_queues disagree");
        solved += usize::from(a.is_some());
    }
    println!(
        "{} problems on a {SIDE} × {SIDE} grid ({solved} reachable): equal costs from both.",
        problems.len()
    );
    println!("pathfinding::prelude::astar (std BinaryHeap): {theirs:.2?}");
    println!("pqlab_queues::astar::<RadixHeap<Dup>>:        {ours:.2?}");
    Ok(())
}
