//! Counting the heap memory a queue holds: an allocator that forwards to the system's and,
//! while [`Counting::measure`] runs, keeps the bytes allocated minus the bytes freed.
//!
//! `cargo bench` installs it (`#[global_allocator]` in `benches/lab.rs`); elsewhere
//! [`Counting::measure`] reports nothing. Outside a measurement it costs one relaxed load
//! per allocation, and timed code allocates nothing per operation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

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
