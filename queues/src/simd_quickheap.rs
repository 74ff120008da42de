//! The `quickheap` crate's `SimdQuickHeap` (J. Breitling, R. Groot Koerkamp, M. Williams,
//! "SimdQuickHeap: The QuickHeap Reconsidered", ESA 2026, arXiv 2604.25681) with duplicate
//! insertion: layers of unsorted buckets split by pivots, a push placed by a SIMD scan of
//! the pivots, the smallest layer partitioned with SIMD until it holds at most 16 values.
//! Each entry is one `u64`: the key in the high 32 bits over the node, as the packed radix
//! heap's near entries are.
//!
//! | operation | cost |
//! |---|---|
//! | push | O(log n) expected (a SIMD scan of the pivots), plus one call into the library |
//! | pop | O(log n) expected, amortised (the partitions), plus one call |
//! | clear | frees the buckets (the crate has no `clear`), one call |
//!
//! Memory: 8 bytes per entry, in up to 128 layers.
//!
//! Keys: below 2³² ([`KeyRule::Narrow`]), in any order: A\*'s `f` of a grid search.
//!
//! Ties: by node, smallest first (entries of one key compare by their low half), so not
//! last in, first out ([`Ties::Unspecified`]).
//!
//! Built apart: the crate compiles only with AVX2 (or AVX-512) on at compile time, and this
//! crate's other queues keep the target's default code generation. So `build.rs` builds
//! it with `-C target-feature=+avx2` as a library of its own (`queues/simd/`), loaded on
//! first use; without that library, or on a CPU without AVX2, the queue is unavailable
//! ([`Frontier::available`]) and the lab writes it `n/a` with the reason. Every
//! operation is a call that cannot be inlined: see below for what one costs.
//!
//! What a call costs: `cargo test --release -p pqlab-queues --features simd-quickheap --lib
//! -- --ignored --nocapture call_cost` times a call into the library to a function that does
//! nothing at 6.3 ns, and a pop and a push with 1,000 entries held at 53 ns (a
//! shared 2-core machine under another build): the two calls are about a quarter of a pair,
//! a cost no queue compiled into this crate pays.
//!
//! Measured inside A\*: `pqlab compare --maps DIR --limit 100 --rounds 5 --queue
//! simd-quickheap-dup --queue radix-heap-dup --queue radix-heap-crate-dup --queue
//! std-binary-heap-dup`, DIR holding five Moving AI maps (thread CPU time per search,
//! median of 5 interleaved rounds; a shared 2-core machine under other builds):
//!
//! | map | oracle floor | `std-binary-heap-dup` | `radix-heap-dup` | this | this ÷ radix heap |
//! |---|---|---|---|---|---|
//! | ht_chantry | 60 µs | 118 µs | 104 µs | 134 µs | 1.29 |
//! | brc202d | 569 µs | 1,023 µs | 906 µs | 1,028 µs | 1.13 |
//! | random512-25-0 | 1,300 µs | 2,081 µs | 1,622 µs | 2,123 µs | 1.31 |
//! | 8room_000 | 1,597 µs | 2,937 µs | 2,316 µs | 2,956 µs | 1.28 |
//! | maze512-32-0 | 4,895 µs | 9,326 µs | 8,391 µs | 10,257 µs | 1.22 |
//!
//! Over the five maps (geometric mean) it takes 1.25× the radix heap's time, 1.05× std's
//! heap's and 1.91× the oracle floor's: in A\* it does not approach the claimed 2× over the
//! radix heap. Its ties by node also change which cells are expanded (the compare prints
//! one expansion count a map, not each queue's).
//!
//! Should win: per its authors, on push/pop pairs (about 2× the radix heap) and in
//! Dijkstra and Prim, where it is "consistently the fastest" (a source outside the lab's
//! seeds).

use std::ffi::c_void;
use std::sync::OnceLock;

use crate::{
    check_node, Family, Frontier, Key, KeyRule, Node, Origin, PushError, Pushed, Spec, Strategy,
    Ties,
};

/// The library's functions (`queues/simd/lib.rs`), resolved once.
struct Library {
    new: unsafe extern "C" fn() -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    push: unsafe extern "C" fn(*mut c_void, u64),
    pop: unsafe extern "C" fn(*mut c_void, *mut u64) -> bool,
    clear: unsafe extern "C" fn(*mut c_void),
    nothing: unsafe extern "C" fn(*mut c_void, u64),
    /// Kept loaded for the process's life: the functions above point into it.
    _library: libloading::Library,
}

/// Loads the library built by `build.rs`, or says why it cannot be used.
fn load() -> Result<Library, String> {
    #[cfg(target_arch = "x86_64")]
    if !std::arch::is_x86_feature_detected!("avx2") {
        return Err("this CPU has no AVX2, which the SimdQuickHeap's library is built for".into());
    }
    let Some(path) = option_env!("PQLAB_SIMD_QUICKHEAP") else {
        return Err(option_env!("PQLAB_SIMD_QUICKHEAP_MISSING")
            .unwrap_or("its library was not built")
            .to_owned());
    };
    // SAFETY: the library is ours (`queues/simd/`), built for this build; loading it runs
    // no initialisation code of its own.
    let library = unsafe { libloading::Library::new(path) }
        .map_err(|e| format!("its library {path} could not be loaded: {e}"))?;
    // SAFETY: each symbol is declared in `queues/simd/lib.rs` with exactly this signature.
    unsafe {
        Ok(Library {
            new: *library.get(b"pqlab_quickheap_new\0").map_err(|e| e.to_string())?,
            free: *library.get(b"pqlab_quickheap_free\0").map_err(|e| e.to_string())?,
            push: *library.get(b"pqlab_quickheap_push\0").map_err(|e| e.to_string())?,
            pop: *library.get(b"pqlab_quickheap_pop\0").map_err(|e| e.to_string())?,
            clear: *library.get(b"pqlab_quickheap_clear\0").map_err(|e| e.to_string())?,
            nothing: *library.get(b"pqlab_quickheap_nothing\0").map_err(|e| e.to_string())?,
            _library: library,
        })
    }
}

/// The library, loaded on first use.
fn library() -> Result<&'static Library, &'static str> {
    static LIBRARY: OnceLock<Result<Library, String>> = OnceLock::new();
    LIBRARY.get_or_init(load).as_ref().map_err(String::as_str)
}

/// `quickheap::SimdQuickHeap<u64>` of `key << 32 | node`, duplicates allowed.
///
/// Invariants: `heap` is a live handle of `library`'s, owned by this value; `len` counts
/// the entries it holds; every key held is below 2³².
#[derive(Debug)]
pub struct SimdQuickHeap {
    heap: *mut c_void,
    library: &'static Library,
    len: usize,
    capacity: usize,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the SimdQuickHeap library")
    }
}

// SAFETY: the handle is owned by one `SimdQuickHeap` and touched only through `&mut self`
// (or `&self` for nothing); the library keeps no thread-local state.
unsafe impl Send for SimdQuickHeap {}

impl SimdQuickHeap {
    /// Calls the library's function that does nothing, `n` times: what crossing into the
    /// library costs, beside [`Frontier::push`] and [`Frontier::pop`].
    pub fn cross(&mut self, n: u64) {
        for i in 0..n {
            // SAFETY: `heap` is live (the invariant); the function reads nothing.
            unsafe { (self.library.nothing)(self.heap, std::hint::black_box(i)) };
        }
    }
}

impl Drop for SimdQuickHeap {
    fn drop(&mut self) {
        // SAFETY: `heap` is live and owned by `self`, never used after this.
        unsafe { (self.library.free)(self.heap) };
    }
}

impl Frontier for SimdQuickHeap {
    const FAMILY: Family = Family::SimdQuickHeap;
    const ORIGIN: Origin = Origin::Crate {
        name: "quickheap",
        version: "=0.2.0",
        feature: "simd-quickheap",
        usage: "`quickheap::SimdQuickHeap::<u64>::default()` for `BinaryHeap::new()` (built with `-C target-feature=+avx2`), and `open.push(f << 32 | node)` for `open.push(Reverse((f, node)))`",
    };
    const STRATEGY: Strategy = Strategy::Duplicates;
    const KEYS: KeyRule = KeyRule::Narrow;
    const TIES: Ties = Ties::Unspecified;

    fn available() -> Result<(), &'static str> {
        library().map(|_| ())
    }

    /// # Panics
    ///
    /// When [`Frontier::available`] is an error.
    fn new(spec: Spec) -> Self {
        let library = library().unwrap_or_else(|why| panic!("simd-quickheap-dup: {why}"));
        // SAFETY: the library is loaded; `new` takes nothing.
        let heap = unsafe { (library.new)() };
        SimdQuickHeap { heap, library, len: 0, capacity: spec.capacity }
    }

    #[inline]
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        check_node(node, self.capacity)?;
        if key > Key::from(u32::MAX) {
            return Err(PushError::TooWide { key });
        }
        // SAFETY: `heap` is live and ours (the invariant).
        unsafe { (self.library.push)(self.heap, key << 32 | Key::from(node)) };
        self.len += 1;
        Ok(Pushed::Added)
    }

    #[inline]
    fn pop(&mut self) -> Option<(Node, Key)> {
        let mut entry = 0;
        // SAFETY: `heap` is live and ours; `entry` is a local to write.
        if !unsafe { (self.library.pop)(self.heap, &mut entry) } {
            return None;
        }
        self.len -= 1;
        Some((entry as Node, entry >> 32))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        // SAFETY: `heap` is live and ours.
        unsafe { (self.library.clear)(self.heap) };
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Skips (saying why) where the library cannot run.
    fn heap(capacity: usize) -> Option<SimdQuickHeap> {
        match SimdQuickHeap::available() {
            Ok(()) => Some(SimdQuickHeap::new(Spec { capacity, span: 0 })),
            Err(why) => {
                eprintln!("skipped: simd-quickheap-dup is n/a: {why}");
                None
            }
        }
    }

    #[test]
    fn pops_by_key_then_node_and_rejects_wide_keys() {
        let Some(mut heap) = heap(8) else { return };
        for (node, key) in [(5, 9), (2, 9), (7, 3), (1, u64::from(u32::MAX))] {
            heap.push(node, key).unwrap();
        }
        assert_eq!(heap.push(0, 1 << 32), Err(PushError::TooWide { key: 1 << 32 }));
        assert_eq!(heap.len(), 4);
        let popped: Vec<_> = std::iter::from_fn(|| heap.pop()).collect();
        assert_eq!(popped, [(7, 3), (2, 9), (5, 9), (1, u64::from(u32::MAX))]);
        heap.push(3, 4).unwrap();
        heap.clear();
        assert_eq!((heap.len(), heap.pop()), (0, None));
    }

    /// What a call into the library costs, beside a push/pop pair: run by hand,
    /// `cargo test --release -p pqlab-queues --features simd-quickheap -- --ignored
    /// --nocapture call_cost`.
    #[test]
    #[ignore]
    fn call_cost() {
        let Some(mut heap) = heap(1 << 20) else { return };
        const N: u64 = 10_000_000;
        let started = std::time::Instant::now();
        heap.cross(N);
        let call = started.elapsed().as_secs_f64() * 1e9 / N as f64;
        let mut next = 0x9e37_79b9_7f4a_7c15u64;
        for node in 0..1000 {
            heap.push(node, u64::from(node) * 7 % 1000).unwrap();
        }
        let started = std::time::Instant::now();
        for _ in 0..N {
            let (_, key) = heap.pop().unwrap();
            next ^= next << 13;
            next ^= next >> 7;
            next ^= next << 17;
            heap.push((next % 1000) as Node, key + next % 64).unwrap();
        }
        let pair = started.elapsed().as_secs_f64() * 1e9 / N as f64;
        println!(
            "a call that does nothing: {call:.2} ns; a pop and a push (1,000 held): {pair:.2} ns"
        );
    }
}
