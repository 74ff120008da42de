//! Counting the heap memory a queue holds: an allocator that forwards to the system's and,
//! while [`Counting::measure`] runs, keeps the bytes allocated minus the bytes freed.
//!
//! `cargo bench` installs it (`#[global_allocator]` in `benches/lab.rs`); elsewhere
//! [`Counting::measure`] reports nothing. Outside a measurement it costs one relaxed load
//! per allocation, and timed code allocates nothing per operation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

use super::searches::Checking;

/// This process's peak resident memory so far in MiB (`VmHWM` of `/proc/self/status`), or
/// `None` where it cannot be read.
pub fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// The counting allocator.
pub struct Counting;

static ACTIVE: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);
static HELD: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counting only
// reads the layout's size.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        if ACTIVE.load(Ordering::Relaxed) {
            HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ACTIVE.load(Ordering::Relaxed) {
            HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
        // SAFETY: `ptr` was allocated by `System` with this layout (see `alloc`).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        if ACTIVE.load(Ordering::Relaxed) {
            HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ACTIVE.load(Ordering::Relaxed) {
            HELD.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        }
        // SAFETY: `ptr` was allocated by `System` with `layout` (see `alloc`), and the
        // caller's contract for `realloc` is passed on as it is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

impl Counting {
    /// Runs `f` and returns its result with the bytes it left allocated (allocated minus
    /// freed while it ran), or `None` when this allocator is not the global one. The lab is
    /// single-threaded while it measures, so nothing else allocates meanwhile.
    pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Option<isize>) {
        HELD.store(0, Ordering::Relaxed);
        ACTIVE.store(true, Ordering::Relaxed);
        let out = f();
        ACTIVE.store(false, Ordering::Relaxed);
        let held = HELD.load(Ordering::Relaxed);
        (out, INSTALLED.load(Ordering::Relaxed).then_some(held))
    }
}

/// What a workload's contenders keep built between their samples: at most `limit` bytes
/// together ([`Settings::memory`](super::settings::Settings::memory)), as counted while each was
/// checked. A contender that does not fit beside the ones kept is released after its check
/// and built again before each of its slices, outside the clock, as every contender is
/// ([`Contender::renew`](super::sampler::Contender::renew)).
///
/// Why: on the largest maps every contender holds map-sized state (on a 2048² map about
/// 50 MB: the store's 8 bytes a cell, the move masks, a decrease-key queue's positions),
/// and the 44 contenders of `rooms-r64-2048-s1/octile/fine/flat` kept together peaked at
/// 2.38 GB resident; within the default 1 GiB, at 1.27 GB (`PQLAB_BUDGET=30 /usr/bin/time
/// -v` on that workload alone, twice each way). The ratios to std's time moved
/// by a median 5% between the two ways, as much as between two runs of either way.
/// Without the counting allocator nothing is counted and every contender is kept.
pub struct Keep {
    limit: usize,
    kept: usize,
}

impl Keep {
    /// Nothing kept yet, within `limit` bytes.
    pub fn new(limit: usize) -> Keep {
        Keep { limit, kept: 0 }
    }

    /// Runs `check`, counting what its contender holds ([`Check::held_bytes`](super::searches::Check::held_bytes)),
    /// and releases the contender (marking it parked) when it does not fit beside the ones
    /// kept.
    pub fn check<'a>(&mut self, check: impl FnOnce() -> Checking<'a>) -> Checking<'a> {
        let (mut outcome, bytes) = Counting::measure(check);
        if let (Ok(checked), Some(bytes)) = (&mut outcome, bytes) {
            let bytes = usize::try_from(bytes).unwrap_or(0);
            checked.held_bytes = Some(bytes);
            if self.kept.saturating_add(bytes) <= self.limit {
                self.kept += bytes;
            } else {
                checked.contender.release();
                checked.parked = true;
            }
        }
        outcome
    }
}
