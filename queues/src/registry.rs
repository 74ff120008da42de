//! The one list of queues. Tests, the A*, benchmarks, charts and `pqlab pick` enumerate it.
//!
//! Adding a queue: write its file (implementing [`Frontier`]), add its `pub mod` line to
//! `lib.rs`, and add one line per strategy to [`for_each_queue!`](crate::for_each_queue).
//! Ids are stable, kebab-case, and end in the strategy's suffix (`-dup` or `-dk`).
//!
//! The adapters over other crates are behind cargo features (one per crate, `crates` for
//! all): their lines start with `[if GATE]`, and the registry holds them only when the
//! feature is on.

use crate::{Class, Family, Frontier, KeyRule, Order, Origin, Strategy, Ties};

/// The queue every ratio is also given against: `std`'s `BinaryHeap` with duplicate
/// insertion, what a Rust A* uses when nobody chose. It is never cut off.
pub const BASELINE: &str = "std-binary-heap-dup";

/// Calls `$callback! { "id" ident Type, ... }` with every registered queue.
///
/// The `ident` is the id in snake case, for code that generates one item per queue (the
/// conformance suite makes one test module per queue with it). This is the registry:
/// nothing else lists queues. A line `[if GATE] "id" ident Type,` is kept only when the
/// cargo feature behind `GATE` is on (see the gates below).
#[macro_export]
macro_rules! for_each_queue {
    ($callback:ident) => {
        $crate::__registry_filter! { $callback []
            "std-binary-heap-dup" std_binary_heap_dup $crate::std_binary_heap::StdBinaryHeap,
            "dary2-dup" dary2_dup $crate::dary_heap::DaryHeap<2, $crate::Dup>,
            "dary2-dk" dary2_dk $crate::dary_heap::DaryHeap<2, $crate::Dk>,
            "dary4-dup" dary4_dup $crate::dary_heap::DaryHeap<4, $crate::Dup>,
            "dary4-dk" dary4_dk $crate::dary_heap::DaryHeap<4, $crate::Dk>,
            "dary8-dup" dary8_dup $crate::dary_heap::DaryHeap<8, $crate::Dup>,
            "dary8-dk" dary8_dk $crate::dary_heap::DaryHeap<8, $crate::Dk>,
            "b-heap-line-dup" b_heap_line_dup $crate::b_heap::BHeapLine<$crate::Dup>,
            "b-heap-line-dk" b_heap_line_dk $crate::b_heap::BHeapLine<$crate::Dk>,
            "b-heap-page-dup" b_heap_page_dup $crate::b_heap::BHeapPage<$crate::Dup>,
            "b-heap-page-dk" b_heap_page_dk $crate::b_heap::BHeapPage<$crate::Dk>,
            "unsorted-array-dup" unsorted_array_dup $crate::unsorted_array::UnsortedArray<$crate::Dup>,
            "unsorted-array-dk" unsorted_array_dk $crate::unsorted_array::UnsortedArray<$crate::Dk>,
            "sorted-array-dup" sorted_array_dup $crate::sorted_array::SortedArray<$crate::Dup>,
            "sorted-array-dk" sorted_array_dk $crate::sorted_array::SortedArray<$crate::Dk>,
            "bucket-queue-dup" bucket_queue_dup $crate::bucket_queue::BucketQueue<$crate::Dup>,
            "bucket-queue-dk" bucket_queue_dk $crate::bucket_queue::BucketQueue<$crate::Dk>,
            "bitmap-bucket-queue-dup" bitmap_bucket_queue_dup $crate::bitmap_bucket_queue::BitmapBucketQueue,
            "radix-heap-dup" radix_heap_dup $crate::radix_heap::RadixHeap<$crate::Dup>,
            "radix-heap-dk" radix_heap_dk $crate::radix_heap::RadixHeap<$crate::Dk>,
            [if __gate_radix_heap_crate] "radix-heap-crate-dup" radix_heap_crate_dup $crate::radix_heap_crate::RadixHeapCrate,
            "packed-radix-heap-dup" packed_radix_heap_dup $crate::packed_radix_heap::PackedRadixHeap<$crate::Dup>,
            "packed-radix-heap-dk" packed_radix_heap_dk $crate::packed_radix_heap::PackedRadixHeap<$crate::Dk>,
            "pairing-heap-dup" pairing_heap_dup $crate::pairing_heap::PairingHeap<$crate::Dup>,
            "pairing-heap-dk" pairing_heap_dk $crate::pairing_heap::PairingHeap<$crate::Dk>,
            "fibonacci-heap-dup" fibonacci_heap_dup $crate::fibonacci_heap::FibonacciHeap<$crate::Dup>,
            "fibonacci-heap-dk" fibonacci_heap_dk $crate::fibonacci_heap::FibonacciHeap<$crate::Dk>,
            [if __gate_dary_heap_crate] "dary-heap-crate-dup" dary_heap_crate_dup $crate::dary_heap_crate::DaryHeapCrate,
            [if __gate_pairing_heap_crate] "pairing-heap-crate-dup" pairing_heap_crate_dup $crate::pairing_heap_crate::PairingHeapCrate,
            [if __gate_orx_dary_heap] "orx-dary-heap-dk" orx_dary_heap_dk $crate::orx_dary_heap::OrxDaryHeap,
            [if __gate_priority_queue_crate] "priority-queue-crate-dk" priority_queue_crate_dk $crate::priority_queue_crate::PriorityQueueCrate,
            "hot-queue-dup" hot_queue_dup $crate::hot_queue::HotQueue<$crate::Dup>,
            "hot-queue-dk" hot_queue_dk $crate::hot_queue::HotQueue<$crate::Dk>,
            "two-level-dup" two_level_dup $crate::two_level::TwoLevel<$crate::Dup>,
            "two-level-dk" two_level_dk $crate::two_level::TwoLevel<$crate::Dk>,
            "soft-heap-e2-dup" soft_heap_e2_dup $crate::soft_heap::SoftHeap<2>,
            "soft-heap-e8-dup" soft_heap_e8_dup $crate::soft_heap::SoftHeap<8>,
            "soft-heap-e64-dup" soft_heap_e64_dup $crate::soft_heap::SoftHeap<64>,
            "splay-tree-dup" splay_tree_dup $crate::splay_tree::SplayTree<$crate::Dup>,
            "splay-tree-dk" splay_tree_dk $crate::splay_tree::SplayTree<$crate::Dk>,
            "skip-list-dup" skip_list_dup $crate::skip_list::SkipList<$crate::Dup>,
            "skip-list-dk" skip_list_dk $crate::skip_list::SkipList<$crate::Dk>,
            "sequence-heap-dup" sequence_heap_dup $crate::sequence_heap::SequenceHeap,
            "quickheap-dup" quickheap_dup $crate::quickheap::Quickheap,
            [if __gate_simd_quickheap] "simd-quickheap-dup" simd_quickheap_dup $crate::simd_quickheap::SimdQuickHeap,
            "stacked-radix-heap-dup" stacked_radix_heap_dup $crate::equal_key_stack::EqualKeyStack<$crate::radix_heap::RadixHeap<$crate::Dup>>,
            "stacked-packed-radix-heap-dup" stacked_packed_radix_heap_dup $crate::equal_key_stack::EqualKeyStack<$crate::packed_radix_heap::PackedRadixHeap<$crate::Dup>>,
            "stacked-bitmap-bucket-queue-dup" stacked_bitmap_bucket_queue_dup $crate::equal_key_stack::EqualKeyStack<$crate::bitmap_bucket_queue::BitmapBucketQueue>,
        }
    };
}

/// Passes the registry's lines to `$callback`, each `[if GATE]` line through its gate.
#[doc(hidden)]
#[macro_export]
macro_rules! __registry_filter {
    ($callback:ident [$($kept:tt)*]) => {
        $callback! { $($kept)* }
    };
    ($callback:ident [$($kept:tt)*] [if $gate:ident] $id:literal $name:ident $ty:ty, $($rest:tt)*) => {
        $crate::$gate! { $callback [$($kept)*] [$id $name $ty,] $($rest)* }
    };
    (@keep $callback:ident [$($kept:tt)*] [$($line:tt)*] $($rest:tt)*) => {
        $crate::__registry_filter! { $callback [$($kept)* $($line)*] $($rest)* }
    };
    (@drop $callback:ident [$($kept:tt)*] [$($line:tt)*] $($rest:tt)*) => {
        $crate::__registry_filter! { $callback [$($kept)*] $($rest)* }
    };
    ($callback:ident [$($kept:tt)*] $id:literal $name:ident $ty:ty, $($rest:tt)*) => {
        $crate::__registry_filter! { $callback [$($kept)* $id $name $ty,] $($rest)* }
    };
}

// The gates, one per feature: each keeps its line when the feature is on and drops it when
// off. The choice is made when this crate is compiled, so a crate expanding
// `for_each_queue!` sees this crate's features, not its own.
#[cfg(feature = "radix-heap-crate")]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_radix_heap_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @keep $($t)* } };
}
#[cfg(not(feature = "radix-heap-crate"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_radix_heap_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @drop $($t)* } };
}
#[cfg(feature = "dary-heap-crate")]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_dary_heap_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @keep $($t)* } };
}
#[cfg(not(feature = "dary-heap-crate"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_dary_heap_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @drop $($t)* } };
}
#[cfg(feature = "pairing-heap-crate")]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_pairing_heap_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @keep $($t)* } };
}
#[cfg(not(feature = "pairing-heap-crate"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_pairing_heap_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @drop $($t)* } };
}
#[cfg(feature = "orx-dary-heap")]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_orx_dary_heap {
    ($($t:tt)*) => { $crate::__registry_filter! { @keep $($t)* } };
}
#[cfg(not(feature = "orx-dary-heap"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_orx_dary_heap {
    ($($t:tt)*) => { $crate::__registry_filter! { @drop $($t)* } };
}
#[cfg(feature = "priority-queue-crate")]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_priority_queue_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @keep $($t)* } };
}
#[cfg(not(feature = "priority-queue-crate"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_priority_queue_crate {
    ($($t:tt)*) => { $crate::__registry_filter! { @drop $($t)* } };
}
#[cfg(feature = "simd-quickheap")]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_simd_quickheap {
    ($($t:tt)*) => { $crate::__registry_filter! { @keep $($t)* } };
}
#[cfg(not(feature = "simd-quickheap"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __gate_simd_quickheap {
    ($($t:tt)*) => { $crate::__registry_filter! { @drop $($t)* } };
}

/// What the registry says of one queue: the facts its type declares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// Stable kebab-case id, ending in `-dup` or `-dk`.
    pub id: &'static str,
    /// The data structure.
    pub family: Family,
    /// Who wrote it.
    pub origin: Origin,
    /// Duplicates or decrease-key.
    pub strategy: Strategy,
    /// Which keys it accepts.
    pub keys: KeyRule,
    /// What it does with equal keys.
    pub ties: Ties,
    /// Exact, or approximate with an error rate.
    pub order: Order,
}

impl Entry {
    /// The family's class.
    pub fn class(&self) -> Class {
        self.family.class()
    }

    /// The id without its strategy suffix: the two strategies of one structure share it.
    pub fn structure(&self) -> &'static str {
        let suffix = self.strategy.suffix();
        &self.id[..self.id.len() - suffix.len() - 1]
    }

    /// Whether it pops in exact key order (every queue but the soft heaps).
    pub fn is_exact(&self) -> bool {
        self.order.is_exact()
    }
}

/// Code run with a queue's concrete type, so every queue gets its own monomorphised copy.
pub trait Visitor {
    /// What the visit returns.
    type Output;
    /// Runs with the queue type `F` described by `entry`.
    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Self::Output;
}

macro_rules! build_registry {
    ($($id:literal $name:ident $ty:ty),* $(,)?) => {
        /// Every registered queue, in registry order.
        pub static ENTRIES: &[Entry] = &[$(
            Entry {
                id: $id,
                family: <$ty as Frontier>::FAMILY,
                origin: <$ty as Frontier>::ORIGIN,
                strategy: <$ty as Frontier>::STRATEGY,
                keys: <$ty as Frontier>::KEYS,
                ties: <$ty as Frontier>::TIES,
                order: <$ty as Frontier>::ORDER,
            }
        ),*];

        /// Runs `visitor` with the queue registered as `id`; `None` if no queue has that id.
        pub fn visit<V: Visitor>(id: &str, visitor: V) -> Option<V::Output> {
            let entry = find(id)?;
            match id {
                $($id => Some(visitor.visit::<$ty>(entry)),)*
                _ => None,
            }
        }
    };
}

for_each_queue!(build_registry);

/// Whether the queue registered as `id` can run here ([`Frontier::available`]); `Ok` for
/// an id not registered.
pub fn available(id: &str) -> Result<(), &'static str> {
    struct Available;
    impl Visitor for Available {
        type Output = Result<(), &'static str>;
        fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
            F::available()
        }
    }
    visit(id, Available).unwrap_or(Ok(()))
}

/// The entry registered as `id`.
pub fn find(id: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|entry| entry.id == id)
}

/// The baseline's entry.
pub fn baseline() -> &'static Entry {
    find(BASELINE).expect("the baseline is registered")
}

/// The Rust type registered as `id` (its full path, as `std::any::type_name` gives it);
/// `None` if no queue has that id.
pub fn type_name(id: &str) -> Option<&'static str> {
    struct TypeName;
    impl Visitor for TypeName {
        type Output = &'static str;
        fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> &'static str {
            std::any::type_name::<F>()
        }
    }
    visit(id, TypeName)
}

/// Every id, comma-separated: for "unknown queue" messages.
pub fn ids() -> String {
    ENTRIES.iter().map(|entry| entry.id).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_end_in_their_strategy() {
        for (i, entry) in ENTRIES.iter().enumerate() {
            assert!(
                entry.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{} is not kebab-case",
                entry.id
            );
            assert!(
                entry.id.ends_with(&format!("-{}", entry.strategy.suffix())),
                "{} does not end in its strategy's suffix",
                entry.id
            );
            assert!(
                ENTRIES[..i].iter().all(|other| other.id != entry.id),
                "{} is registered twice",
                entry.id
            );
        }
    }

    #[test]
    fn the_baseline_is_registered_exact_and_accepts_any_key() {
        let entry = baseline();
        assert_eq!(entry.id, BASELINE);
        assert!(entry.is_exact());
        assert_eq!(entry.keys, KeyRule::Any);
        assert_eq!(entry.structure(), "std-binary-heap");
    }

    #[test]
    fn visit_reaches_the_type_of_each_entry() {
        struct Strategy;
        impl Visitor for Strategy {
            type Output = crate::Strategy;
            fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> crate::Strategy {
                F::STRATEGY
            }
        }
        for entry in ENTRIES {
            assert_eq!(visit(entry.id, Strategy), Some(entry.strategy));
        }
        assert_eq!(visit("no-such-queue", Strategy), None);
        assert!(type_name("dary4-dk").is_some_and(|t| t.ends_with("DaryHeap<4, pqlab_queues::Dk>")));
        assert_eq!(type_name("no-such-queue"), None);
    }
}
