//! `quickheap::SimdQuickHeap<u64>` behind a C ABI for pqlab (see `Cargo.toml`).
//!
//! Every function takes a handle from [`pqlab_quickheap_new`], not yet freed.

use quickheap::SimdQuickHeap;

/// The heap behind a handle.
pub type Heap = SimdQuickHeap<u64>;

/// A new empty heap; free it with [`pqlab_quickheap_free`].
#[no_mangle]
pub extern "C" fn pqlab_quickheap_new() -> *mut Heap {
    Box::into_raw(Box::default())
}

/// Frees `heap`.
///
/// # Safety
/// `heap` comes from [`pqlab_quickheap_new`] and is not used again.
#[no_mangle]
pub unsafe extern "C" fn pqlab_quickheap_free(heap: *mut Heap) {
    // SAFETY: the caller passes a live handle it gives up.
    drop(unsafe { Box::from_raw(heap) });
}

/// Pushes `value`.
///
/// # Safety
/// `heap` is a live handle, used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn pqlab_quickheap_push(heap: *mut Heap, value: u64) {
    // SAFETY: the caller passes a live, unshared handle.
    unsafe { &mut *heap }.push(value);
}

/// Pops the smallest value into `*out` and returns `true`, or returns `false` when empty.
///
/// # Safety
/// `heap` is a live handle, used by no other thread; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn pqlab_quickheap_pop(heap: *mut Heap, out: *mut u64) -> bool {
    // SAFETY: the caller passes a live, unshared handle.
    match unsafe { &mut *heap }.pop() {
        Some(value) => {
            // SAFETY: the caller passes a writable `out`.
            unsafe { out.write(value) };
            true
        }
        None => false,
    }
}

/// Empties `heap`. The crate has no `clear`: this drops the heap for a new one, freeing
/// its buckets.
///
/// # Safety
/// `heap` is a live handle, used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn pqlab_quickheap_clear(heap: *mut Heap) {
    // SAFETY: the caller passes a live, unshared handle.
    *unsafe { &mut *heap } = Heap::default();
}

/// Does nothing: what a call across this library's boundary costs, measured beside push
/// and pop.
#[no_mangle]
pub extern "C" fn pqlab_quickheap_nothing(_heap: *mut Heap, _value: u64) {}
