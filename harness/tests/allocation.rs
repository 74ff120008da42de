//! After the first search on a map, further searches allocate nothing map-sized: the
//! per-cell state is stamped, not cleared, and every queue keeps its allocations across
//! `clear`. A counting global allocator records the largest allocation made while the
//! same searches run a second time, for every registered queue.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use pqlab::maps::generate::{MapKind, MapSpec};
use pqlab::maps::grid::Rules;
use pqlab::maps::moves::Components;
use pqlab::search::astar::AStar;
use pqlab::search::heuristic::{AnyHeuristic, HeuristicKind};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::Frontier;

struct Counting;

static WATCHING: AtomicBool = AtomicBool::new(false);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counting only
// reads the layout's size.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHING.load(Ordering::Relaxed) {
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout (see `alloc`).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if WATCHING.load(Ordering::Relaxed) {
            LARGEST.fetch_max(new_size, Ordering::Relaxed);
        }
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

struct SecondPass;

impl Visitor for SecondPass {
    /// The largest allocation during the second pass, and the map's cell count.
    type Output = (usize, usize);

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> (usize, usize) {
        let grid = MapSpec { kind: MapKind::Random { density: 20 }, size: 128, seed: 4 }.build();
        let rules = Rules::default();
        let problems =
            pqlab::maps::generate::problems(&grid, rules.connectivity, rules.scale, 12, 4);
        let components = Components::new(&grid);
        let mut heuristic =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale)
                .unwrap();
        let mut search = AStar::<F>::new(&grid, rules);
        let mut run = || {
            for p in &problems {
                search.search(&grid, &mut heuristic, Some(&components), p.start, p.goal).unwrap();
            }
        };
        run();
        LARGEST.store(0, Ordering::Relaxed);
        WATCHING.store(true, Ordering::Relaxed);
        run();
        WATCHING.store(false, Ordering::Relaxed);
        (LARGEST.load(Ordering::Relaxed), grid.cells())
    }
}

#[test]
fn repeated_searches_allocate_nothing_map_sized() {
    for entry in registry::ENTRIES {
        let (largest, cells) = registry::visit(entry.id, SecondPass).unwrap();
        assert!(
            largest < cells,
            "{}: a repeated search allocated {largest} bytes on a map of {cells} cells",
            entry.id
        );
    }
}
