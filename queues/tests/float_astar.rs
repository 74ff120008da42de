//! The generic A* with float costs (`f64` and `f32`) against a float Dijkstra written
//! here (std's `BinaryHeap`, lazy deletion), on random small 8-connected grids whose
//! moves cost 1 and √2, with the octile and the Euclidean estimate, both node maps, and
//! every registered queue: the ones that take float keys ([`takes`]) must answer, the
//! bounded-span ones must refuse at once without calling `successors`.
//!
//! **How costs are compared.** A cost returned must be, bit for bit, the sum of its own
//! path's moves taken from the start (the order in which the search sums `g`). Against the
//! reference: when both found the same path, the same bits; otherwise within a relative
//! `4 k ε` (`k` the reference path's moves, `ε` the type's machine epsilon). Many paths
//! tie in real numbers (`1 + √2` or `√2 + 1`), and their float sums differ by the rounding
//! of up to `k` additions, at most `k ε / 2` relative each; `4 k ε` is twice the gap
//! between two such sums, and far below the smallest real difference between two path
//! costs on these grids (`√2`'s distance to a small fraction, about `1/k²`).
//!
//! An approximate queue (a soft heap) must return a valid path no cheaper than the
//! reference's, up to the same tolerance.

use std::cell::Cell;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fmt::Debug;
use std::ops::{Add, Mul, Sub};

use pqlab_queues::astar::{takes, AstarError, Cost};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{astar, astar_dense, Frontier, KeyRule};

type Cell2 = (i32, i32);

/// What the test needs of `f32` and `f64`.
trait Float:
    Cost + Debug + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + 'static
{
    const ONE: Self;
    const SQRT_2: Self;
    const EPSILON: Self;
    fn from_i32(n: i32) -> Self;
    fn sqrt(self) -> Self;
    fn to_f64(self) -> f64;
    fn bits(self) -> u64;
    fn total(&self, other: &Self) -> Ordering;
}

macro_rules! float {
    ($t:ident) => {
        impl Float for $t {
            const ONE: Self = 1.0;
            const SQRT_2: Self = std::$t::consts::SQRT_2;
            const EPSILON: Self = $t::EPSILON;
            fn from_i32(n: i32) -> Self {
                n as $t
            }
            fn sqrt(self) -> Self {
                $t::sqrt(self)
            }
            fn to_f64(self) -> f64 {
                f64::from(self)
            }
            fn bits(self) -> u64 {
                u64::from(self.to_bits())
            }
            fn total(&self, other: &Self) -> Ordering {
                self.total_cmp(other)
            }
        }
    };
}

float!(f32);
float!(f64);

/// A square grid, about a quarter of its cells blocked, with a start and a goal.
struct Grid {
    side: i32,
    blocked: Vec<bool>,
    start: Cell2,
    goal: Cell2,
}

/// SplitMix64: a fixed seed, so every run tests the same grids.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE5_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn grids() -> Vec<Grid> {
    let mut rng = 0x5EED_F10A7;
    (0..40)
        .map(|_| {
            let side = 8 + (splitmix(&mut rng) % 17) as i32;
            let mut blocked: Vec<bool> =
                (0..side * side).map(|_| splitmix(&mut rng).is_multiple_of(4)).collect();
            let mut cell = || {
                let i = (splitmix(&mut rng) % (side * side) as u64) as i32;
                (i % side, i / side)
            };
            let (start, goal) = (cell(), cell());
            for (x, y) in [start, goal] {
                blocked[(y * side + x) as usize] = false;
            }
            Grid { side, blocked, start, goal }
        })
        .collect()
}

impl Grid {
    fn free(&self, (x, y): Cell2) -> bool {
        (0..self.side).contains(&x)
            && (0..self.side).contains(&y)
            && !self.blocked[(y * self.side + x) as usize]
    }

    fn index(&self, (x, y): Cell2) -> usize {
        (y * self.side + x) as usize
    }

    /// The free neighbours and the cost of the move to each: 1 straight, √2 diagonal.
    fn successors<C: Float>(&self, &(x, y): &Cell2) -> Vec<(Cell2, C)> {
        let mut next = Vec::with_capacity(8);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let cell = (x + dx, y + dy);
                if (dx, dy) != (0, 0) && self.free(cell) {
                    next.push((cell, if dx != 0 && dy != 0 { C::SQRT_2 } else { C::ONE }));
                }
            }
        }
        next
    }

    /// The cost of the move from `a` to `b`, if it is one.
    fn step<C: Float>(&self, a: Cell2, b: Cell2) -> Option<C> {
        self.successors::<C>(&a).into_iter().find(|&(cell, _)| cell == b).map(|(_, c)| c)
    }

    /// The reference: Dijkstra's cost to the goal and a path, summed in `C` from the start.
    fn dijkstra<C: Float>(&self) -> Option<(Vec<Cell2>, C)> {
        struct Entry<C>(C, Cell2);
        impl<C: Float> PartialEq for Entry<C> {
            fn eq(&self, other: &Self) -> bool {
                self.cmp(other) == Ordering::Equal
            }
        }
        impl<C: Float> Eq for Entry<C> {}
        impl<C: Float> PartialOrd for Entry<C> {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        impl<C: Float> Ord for Entry<C> {
            fn cmp(&self, other: &Self) -> Ordering {
                self.0.total(&other.0).then(self.1.cmp(&other.1))
            }
        }
        let cells = (self.side * self.side) as usize;
        let mut best: Vec<Option<(C, Cell2)>> = vec![None; cells];
        let mut done = vec![false; cells];
        best[self.index(self.start)] = Some((C::ZERO, self.start));
        let mut open = BinaryHeap::from([Reverse(Entry(C::ZERO, self.start))]);
        while let Some(Reverse(Entry(g, cell))) = open.pop() {
            if std::mem::replace(&mut done[self.index(cell)], true) {
                continue;
            }
            for (next, step) in self.successors::<C>(&cell) {
                let g = g + step;
                let slot = &mut best[self.index(next)];
                if slot.is_none_or(|(held, _)| g < held) {
                    *slot = Some((g, cell));
                    open.push(Reverse(Entry(g, next)));
                }
            }
        }
        let (cost, _) = best[self.index(self.goal)]?;
        let mut path = vec![self.goal];
        while let Some(&at) = path.last().filter(|&&at| at != self.start) {
            path.push(best[self.index(at)].expect("reached").1);
        }
        path.reverse();
        Some((path, cost))
    }
}

/// Octile distance in moves of 1 and √2.
fn octile<C: Float>(a: Cell2, b: Cell2) -> C {
    let (dx, dy) = (a.0.abs_diff(b.0) as i32, a.1.abs_diff(b.1) as i32);
    C::SQRT_2 * C::from_i32(dx.min(dy)) + C::from_i32(dx.max(dy) - dx.min(dy))
}

/// Straight-line distance.
fn euclidean<C: Float>(a: Cell2, b: Cell2) -> C {
    let (dx, dy) = (C::from_i32(a.0 - b.0), C::from_i32(a.1 - b.1));
    (dx * dx + dy * dy).sqrt()
}

/// Checks queue `F` with cost type `C` on every grid and both estimates.
struct Check<C>(std::marker::PhantomData<C>);

impl<C: Float> Visitor for Check<C> {
    type Output = ();

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) {
        let takes = takes::<F, C>();
        let taken = match entry.keys {
            KeyRule::BoundedSpan => false,
            KeyRule::Narrow => C::NARROW,
            KeyRule::Any | KeyRule::Monotone => true,
        };
        assert_eq!(takes.is_ok(), taken, "{}", entry.id);
        for (number, grid) in grids().iter().enumerate() {
            let reference = grid.dijkstra::<C>();
            for (name, estimate) in
                [("octile", octile::<C> as fn(Cell2, Cell2) -> C), ("euclidean", euclidean::<C>)]
            {
                let what = format!(
                    "{} with {} costs, grid {number} ({name})",
                    entry.id,
                    std::any::type_name::<C>()
                );
                let calls = Cell::new(0);
                let successors = |cell: &Cell2| {
                    calls.set(calls.get() + 1);
                    grid.successors::<C>(cell)
                };
                let h = |&cell: &Cell2| estimate(cell, grid.goal);
                let hashed = astar::<F, _, _, _>(&grid.start, successors, h, |&c| c == grid.goal);
                let dense = astar_dense::<F, _, _, _>(
                    &grid.start,
                    successors,
                    h,
                    |&c| c == grid.goal,
                    (grid.side * grid.side) as usize,
                    |&cell| grid.index(cell),
                );
                for found in [hashed, dense] {
                    match takes {
                        Err(reason) => {
                            assert_eq!(found, Err(AstarError::Refused(reason)), "{what}");
                            assert_eq!(calls.get(), 0, "{what}: searched before refusing");
                        }
                        Ok(()) => check(grid, &what, F::ORDER.is_exact(), found, &reference),
                    }
                }
            }
        }
    }
}

/// One answer against the reference's.
fn check<C: Float>(
    grid: &Grid,
    what: &str,
    exact: bool,
    found: Result<Option<(Vec<Cell2>, C)>, AstarError>,
    reference: &Option<(Vec<Cell2>, C)>,
) {
    let found = found.unwrap_or_else(|e| panic!("{what}: {e}"));
    let (Some((path, cost)), Some((ref_path, ref_cost))) = (&found, reference) else {
        assert_eq!(found.is_some(), reference.is_some(), "{what}: reachability");
        return;
    };
    assert_eq!((path[0], path[path.len() - 1]), (grid.start, grid.goal), "{what}");
    let walked = path.windows(2).fold(C::ZERO, |sum, pair| {
        sum + grid.step::<C>(pair[0], pair[1]).unwrap_or_else(|| panic!("{what}: no move {pair:?}"))
    });
    assert_eq!(cost.bits(), walked.bits(), "{what}: {cost:?} is not its path's cost {walked:?}");
    let tolerance = 4.0 * ref_path.len() as f64 * C::EPSILON.to_f64() * ref_cost.to_f64();
    let gap = cost.to_f64() - ref_cost.to_f64();
    if exact && path == ref_path {
        assert_eq!(cost.bits(), ref_cost.bits(), "{what}: same path, other cost");
    } else if exact {
        assert!(gap.abs() <= tolerance, "{what}: {cost:?}, the reference {ref_cost:?}");
    } else {
        assert!(gap >= -tolerance, "{what}: {cost:?} beat the reference {ref_cost:?}");
    }
}

fn every_queue<C: Float>() {
    for entry in registry::ENTRIES {
        registry::visit(entry.id, Check::<C>(std::marker::PhantomData)).expect("registered");
    }
}

#[test]
fn f64_costs_agree_with_dijkstra_on_every_queue_that_takes_them() {
    every_queue::<f64>();
}

#[test]
fn f32_costs_agree_with_dijkstra_on_every_queue_that_takes_them() {
    every_queue::<f32>();
}

/// How many moves of `grid` have `g + step + h(next) < g + h(here)` in `C`, for some `g`
/// (the octile length from the start), though `h(here) <= step + h(next)` in real numbers.
fn keys_below_the_parents<C: Float>(estimate: fn(Cell2, Cell2) -> C) -> usize {
    let mut below = 0;
    for grid in grids() {
        for y in 0..grid.side {
            for x in 0..grid.side {
                if !grid.free((x, y)) {
                    continue;
                }
                let g = octile::<C>(grid.start, (x, y));
                let here = estimate((x, y), grid.goal);
                for (next, step) in grid.successors::<C>(&(x, y)) {
                    let there = estimate(next, grid.goal);
                    let real = |c: C| c.to_f64();
                    assert!(real(here) <= real(step) + real(there) + 1e-5, "inconsistent in reals");
                    below += usize::from(g + step + there < g + here);
                }
            }
        }
    }
    below
}

#[test]
fn the_estimates_are_consistent_in_real_numbers_but_not_in_floats() {
    // What makes the monotone queues need pathmax (see `astar`'s "Float costs"): on these
    // grids some move's key, in floats, falls below its parent's.
    let counts = [
        keys_below_the_parents::<f64>(octile),
        keys_below_the_parents::<f64>(euclidean),
        keys_below_the_parents::<f32>(octile),
        keys_below_the_parents::<f32>(euclidean),
    ];
    println!(
        "keys below their parent's (f64 octile, euclidean, f32 octile, euclidean): {counts:?}"
    );
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
}
