//! Every verdict on a fixture tailored to it: each test shows the outcome turning when the
//! figures its rule reads cross the line the rule draws.

use pqlab_queues::registry::BASELINE;

use super::{factors, folklore, survey, ties, unreachable, verdicts, Outcome, Verdict};
use crate::analysis::fixture::{cut_off, held, octile, search, steadies, steady, timed};
use crate::analysis::{Findings, Run};
use crate::results::Row;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;

/// One octile workload `name` at frontier size `size`, every queue steady at its time.
fn at(name: &str, size: f64, times: &[(&str, f64)]) -> Vec<Row> {
    steadies(&octile(name), size, times)
}

/// The outcome of `claim` on `rows`.
fn outcome(claim: fn(&Findings<'_, '_>) -> Verdict, rows: &[Row]) -> Outcome {
    decide(claim, rows).outcome
}

/// `claim`'s verdict on `rows`, read with no execution spread (each fixture's ratios are
/// chosen around the tie margin).
fn decide(claim: fn(&Findings<'_, '_>) -> Verdict, rows: &[Row]) -> Verdict {
    claim(&Findings::of(&Run::new(rows).with_execution_spread(0.0)))
}

/// Rule: without the rows a claim names, every verdict says it was not measured (and is
/// not called weak).
#[test]
fn every_verdict_is_unmeasured_without_rows() {
    let all = verdicts(&Findings::of(&Run::new(&[]).with_execution_spread(0.0)));
    assert_eq!(all.len(), super::CLAIMS.len());
    for v in &all {
        assert_eq!(v.outcome, Outcome::Unmeasured, "{}", v.claim);
        assert!(!v.weak(), "{}", v.claim);
    }
}

/// Rule: a verdict backed by fewer than three workloads is weak.
#[test]
fn a_verdict_on_fewer_than_three_workloads_is_weak() {
    let mut rows = Vec::new();
    for (i, size) in [20.0, 1500.0, 50_000.0].into_iter().enumerate() {
        rows.extend(at(&format!("w{i}"), size, &[(BASELINE, 100.0), ("pairing-heap-dup", 101.0)]));
        let v = decide(survey::pairing_heaps_work_well, &rows);
        assert_eq!((v.outcome, v.workloads, v.weak()), (Outcome::Holds, i + 1, i < 2));
    }
}

/// Rule: the fastest generic queue (exact, any keys) holds the claim if it is std's
/// BinaryHeap (the library heap the text recommends) or not faster than it beyond the
/// margin; partly if a binary heap ties in some band; else it fails.
#[test]
fn binary_heap_is_the_generic_choice() {
    let claim = folklore::binary_heap_is_the_generic_choice;
    // A bucket queue is faster but takes only bounded keys: not generic.
    let heap_best = at(
        "a",
        500.0,
        &[(BASELINE, 100.0), ("pairing-heap-dup", 120.0), ("bucket-queue-dup", 50.0)],
    );
    assert_eq!(outcome(claim, &heap_best), Outcome::Holds);
    let pairing_best = at("a", 500.0, &[(BASELINE, 100.0), ("pairing-heap-dup", 80.0)]);
    assert_eq!(outcome(claim, &pairing_best), Outcome::Fails);
    let tied_in_one_band =
        [pairing_best, at("b", 5000.0, &[(BASELINE, 101.0), ("pairing-heap-dup", 100.0)])].concat();
    assert_eq!(outcome(claim, &tied_in_one_band), Outcome::Partly);
    // pqlab's own binary heap is not the library the text recommends: std's heap decides.
    let own_best = at("a", 500.0, &[(BASELINE, 100.0), ("dary2-dk", 80.0)]);
    assert_eq!(outcome(claim, &own_best), Outcome::Partly);
    // A two-level queue is named as the text files it.
    let two_level = at("a", 500.0, &[(BASELINE, 100.0), ("two-level-dup", 80.0)]);
    let v = decide(claim, &two_level);
    assert!(v.details.iter().any(|d| d.contains("cheap variant of a HOT queue")), "{v:#?}");
}

/// Rule: the best unsorted array ranks among the simple structures: it must be faster than
/// or tied with the best sorted array (not the best binary heap, which the seed concedes is
/// faster) in every band below 100 open cells; bands from 100 on do not count; a band of
/// fewer than three workloads is marked weak.
#[test]
fn unsorted_arrays_for_small_frontiers() {
    let claim = folklore::unsorted_arrays_for_small_frontiers;
    let simple = |name, size, unsorted: f64, sorted: f64| {
        at(
            name,
            size,
            &[(BASELINE, 50.0), ("unsorted-array-dup", unsorted), ("sorted-array-dup", sorted)],
        )
    };
    // Twice the binary heap's time, tied with the sorted array: the seed's question holds.
    assert_eq!(outcome(claim, &simple("d", 20.0, 101.0, 100.0)), Outcome::Holds);
    let wins = simple("a", 20.0, 60.0, 100.0);
    let loses_at_200 = simple("c", 200.0, 300.0, 150.0);
    assert_eq!(outcome(claim, &[wins.clone(), loses_at_200].concat()), Outcome::Holds);
    let loses_at_50 = simple("b", 50.0, 300.0, 150.0);
    assert_eq!(outcome(claim, &[wins.clone(), loses_at_50.clone()].concat()), Outcome::Partly);
    assert_eq!(outcome(claim, &loses_at_50), Outcome::Fails);
    let v = decide(claim, &wins);
    assert!(v.details[0].contains("; weak") && v.summary.contains("(1 of them weak,"), "{v:#?}");
}

/// Rule: from 10,000 open cells (octile searches, else held sizes) the best bucketing
/// queue against the best other: faster holds, slower fails, a tie partly holds.
#[test]
fn bucketing_above_10k() {
    let claim = folklore::bucketing_above_10k;
    let big = |bucket: f64| at("big", 20_000.0, &[(BASELINE, 100.0), ("bucket-queue-dup", bucket)]);
    // Slower below 10,000: not counted.
    let small = at("small", 5000.0, &[(BASELINE, 100.0), ("bucket-queue-dup", 300.0)]);
    assert_eq!(outcome(claim, &[big(50.0), small].concat()), Outcome::Holds);
    assert_eq!(outcome(claim, &big(101.0)), Outcome::Partly);
    assert_eq!(outcome(claim, &big(150.0)), Outcome::Fails);
    // Held sizes answer only when no search reached 10,000 open cells.
    let held_fast = steadies(&held(1e5), 1e5, &[(BASELINE, 100.0), ("bucket-queue-dup", 50.0)]);
    assert_eq!(outcome(claim, &held_fast), Outcome::Holds);
    assert_eq!(outcome(claim, &[held_fast, big(150.0)].concat()), Outcome::Fails);
}

/// Rule: "as fast up to 800" holds when the best HOT queue is not slower than the best
/// binary heap; "20% faster when there are at most 1500 nodes" when it takes at most 1/1.2
/// of its time from 800 to 1,500 open cells. Both: holds; neither: fails; one: partly.
#[test]
fn hot_queues_against_heaps() {
    let claim = folklore::hot_queues_against_heaps;
    let up_to_800 = |hot: f64| at("s", 500.0, &[(BASELINE, 100.0), ("hot-queue-dup", hot)]);
    let near_1500 = |hot: f64| at("n", 1500.0, &[(BASELINE, 100.0), ("hot-queue-dup", hot)]);
    assert_eq!(outcome(claim, &[up_to_800(101.0), near_1500(80.0)].concat()), Outcome::Holds);
    assert_eq!(outcome(claim, &[up_to_800(101.0), near_1500(85.0)].concat()), Outcome::Partly);
    assert_eq!(outcome(claim, &[up_to_800(110.0), near_1500(85.0)].concat()), Outcome::Fails);
    // Above 1,500 is not the sentence's: a HOT queue 20% faster at 2,000 does not count.
    let above = at("x", 2000.0, &[(BASELINE, 100.0), ("hot-queue-dup", 80.0)]);
    assert_eq!(
        outcome(claim, &[up_to_800(101.0), near_1500(85.0), above].concat()),
        Outcome::Partly
    );
}

/// Rule: three pairings of duplicates against decrease-key: the seeds' (std's heap against
/// the indexed binary heap), library against library, and each structure against itself
/// (duplicates not slower for most). Every pairing for duplicates holds, none fails, and
/// a disagreement is partly.
#[test]
fn duplicates_over_decrease_key() {
    let claim = folklore::duplicates_over_decrease_key;
    let binary = |std: f64, dk: f64, dary4_dup: f64| {
        at(
            "w",
            500.0,
            &[(BASELINE, std), ("dary2-dk", dk), ("dary4-dup", dary4_dup), ("dary4-dk", 40.0)],
        )
    };
    assert_eq!(outcome(claim, &binary(80.0, 100.0, 40.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &binary(101.5, 100.0, 40.0)), Outcome::Holds, "a tie costs nothing");
    assert_eq!(outcome(claim, &binary(102.5, 100.0, 50.0)), Outcome::Fails);
    // The pairings disagree: partly.
    assert_eq!(outcome(claim, &binary(102.5, 100.0, 40.0)), Outcome::Partly);
    assert_eq!(outcome(claim, &binary(80.0, 100.0, 50.0)), Outcome::Partly);
    // Library against library: std's heap against the priority-queue crate's.
    let mut library = binary(102.5, 100.0, 50.0);
    library.push(steady(&octile("w"), "priority-queue-crate-dk", 500.0, 150.0));
    let v = decide(claim, &library);
    assert_eq!(v.outcome, Outcome::Partly);
    assert!(v.details.iter().any(|d| d.starts_with("Library against library: `std")), "{v:#?}");
    let dary4 = |dup: f64, dk: f64| at("w", 500.0, &[("dary4-dup", dup), ("dary4-dk", dk)]);
    assert_eq!(outcome(claim, &dary4(80.0, 100.0)), Outcome::Unmeasured, "no seeds' pair");
    let pairs = Findings::of(&Run::new(&dary4(1.0, 1.0))).strategy_pairs();
    let expected = ("dary4".to_owned(), "dary4-dup".to_owned(), "dary4-dk".to_owned());
    assert_eq!(pairs, [expected]);
}

/// Rule: adjustments are rare when decrease-keys are at most a tenth of the indexed heap's
/// key updates and stale pops at most a tenth of std's pops; both: holds, one: partly,
/// neither: fails.
#[test]
fn adjustments_are_rare() {
    let counted = |decrease_keys: f64, stale: f64| {
        let mut rows = at("w", 500.0, &[(BASELINE, 100.0), ("dary2-dk", 100.0)]);
        for row in &mut rows {
            (row.pushes, row.pops, row.decrease_keys, row.stale_pops) = if row.queue == BASELINE {
                (100.0 + stale, 100.0 + stale, 0.0, stale)
            } else {
                (100.0, 100.0, decrease_keys, 0.0)
            };
        }
        rows
    };
    let claim = folklore::adjustments_are_rare;
    assert_eq!(outcome(claim, &counted(5.0, 5.0)), Outcome::Holds);
    let v = decide(claim, &counted(25.0, 30.0));
    assert_eq!(v.outcome, Outcome::Fails);
    assert!(v.summary.contains("20.0% (20.0–20.0% across 1 workload)"), "{}", v.summary);
    assert!(v.summary.contains("23.1%"), "{}", v.summary);
    assert_eq!(outcome(claim, &counted(5.0, 30.0)), Outcome::Partly);
}

/// Rule: always inserting holds when the indexed binary heap with duplicates holds more
/// entries at its peak and pops more on every workload beyond the tie margin, and is slower
/// by its interval; a count larger only pooled is undecided, all three tied fails, larger
/// counts but a faster time partly.
#[test]
fn always_insert_duplicates() {
    let claim = folklore::always_insert_duplicates;
    // Two workloads: `dary2-dup` at `time`, its peak entries and pops `a` and `b` times
    // `dary2-dk`'s on each.
    let counted = |time: f64, a: f64, b: f64| {
        let mut rows = Vec::new();
        for (name, more) in [("a", a), ("b", b)] {
            let mut each = at(name, 500.0, &[("dary2-dup", time), ("dary2-dk", 100.0)]);
            for row in &mut each {
                let times = if row.queue == "dary2-dup" { more } else { 1.0 };
                (row.max_frontier, row.pops) = (500.0 * times, 1000.0 * times);
                row.stale_pops = row.pops - 1000.0;
            }
            rows.extend(each);
        }
        rows
    };
    let v = decide(claim, &counted(110.0, 1.1, 1.2));
    assert_eq!(v.outcome, Outcome::Holds, "{v:#?}");
    assert!(v.summary.contains("1.15× the entries"), "{}", v.summary);
    assert!(v.summary.contains("1.10×–1.20× across 2 workloads"), "{}", v.summary);
    assert_eq!(outcome(claim, &counted(100.0, 1.0, 1.0)), Outcome::Fails);
    assert_eq!(outcome(claim, &counted(90.0, 1.1, 1.2)), Outcome::Partly);
    // Larger on one workload only: the counts lean, they do not show.
    assert_eq!(outcome(claim, &counted(110.0, 1.0, 1.2)), Outcome::Undecided);
    let alone = at("a", 500.0, &[("dary2-dup", 100.0)]);
    assert_eq!(outcome(claim, &alone), Outcome::Unmeasured);
}

/// Rule: the best sorted array takes at least twice the best binary heap's time (the
/// interval's low end) in most octile bands, and at least 10× in the largest.
#[test]
fn heap_against_lists() {
    let claim = survey::heap_against_lists;
    let lists = |small: f64, large: f64| {
        let a = at("a", 20.0, &[(BASELINE, 100.0), ("sorted-array-dup", small)]);
        [a, at("b", 1500.0, &[(BASELINE, 100.0), ("sorted-array-dup", large)])].concat()
    };
    assert_eq!(outcome(claim, &lists(300.0, 1200.0)), Outcome::Holds);
    // "Most situations", not every: two bands of three at 2× or more.
    let middle = at("m", 500.0, &[(BASELINE, 100.0), ("sorted-array-dup", 150.0)]);
    assert_eq!(outcome(claim, &[lists(300.0, 1200.0), middle].concat()), Outcome::Holds);
    assert_eq!(outcome(claim, &lists(210.0, 500.0)), Outcome::Partly, "5× on the longest: not 10+");
    assert_eq!(outcome(claim, &lists(150.0, 1200.0)), Outcome::Partly, "2× in 1 of 2: not most");
    assert_eq!(outcome(claim, &lists(150.0, 190.0)), Outcome::Fails);
    // The article's list is sorted: an unsorted array alone does not answer.
    let unsorted = at("u", 20.0, &[(BASELINE, 100.0), ("unsorted-array-dup", 500.0)]);
    assert_eq!(outcome(claim, &unsorted), Outcome::Unmeasured);
}

/// Rule: a family cut off on every workload of a band still answers there, at least its
/// bound: the band is counted, its line says "at least", and the cut-off text names the
/// run's own limit (3× in a default run).
#[test]
fn a_list_cut_off_on_a_whole_band_counts_as_at_least_its_bound() {
    let claim = survey::heap_against_lists;
    let mut rows = at("a", 500.0, &[(BASELINE, 100.0), ("sorted-array-dup", 250.0)]);
    rows.extend(at("b", 5000.0, &[(BASELINE, 100.0)]));
    rows.push(cut_off(&octile("b"), "sorted-array-dup", 3.0));
    let v = decide(claim, &rows);
    // A cut-off at 3× caps what the run sees: "10+ times" cannot be decided.
    assert_eq!((v.outcome, v.workloads), (Outcome::Undecided, 2), "{v:#?}");
    assert!(v.summary.contains("in 2 of 2 octile bands"), "{}", v.summary);
    assert!(v.summary.contains("cannot be decided"), "{}", v.summary);
    let band = v.details.iter().find(|d| d.contains("3k–10k")).expect("the cut-off band");
    assert!(
        band.contains("takes at least 3.00×") && band.contains("1 of them a cut-off"),
        "{band}"
    );
    assert!(v.details.iter().any(|d| d.contains("over 3× the baseline's")), "{:#?}", v.details);
    // A bound at 10× or more decides "10+ times" even cut off.
    let mut rows = at("a", 500.0, &[(BASELINE, 100.0), ("sorted-array-dup", 500.0)]);
    rows.extend(at("b", 5000.0, &[(BASELINE, 100.0)]));
    rows.push(cut_off(&octile("b"), "sorted-array-dup", 12.0));
    assert_eq!(outcome(claim, &rows), Outcome::Holds);
}

/// Rule: a pairing heap works well where it is not slower than the best binary heap
/// beyond the margin.
#[test]
fn pairing_heaps_work_well() {
    let claim = survey::pairing_heaps_work_well;
    let pairing = |ns: f64| at("w", 500.0, &[(BASELINE, 100.0), ("pairing-heap-dup", ns)]);
    assert_eq!(outcome(claim, &pairing(101.5)), Outcome::Holds);
    assert_eq!(outcome(claim, &pairing(102.5)), Outcome::Fails);
}

/// Rule: bucketing is promising in a band where the best bucketing queue is not slower than
/// the best other exact queue beyond the tie margin: every band holds, some partly, none
/// fails.
#[test]
fn bucketing_at_every_size() {
    let claim = survey::bucketing_at_every_size;
    let band = |name: &str, size: f64, bucket: f64| {
        at(name, size, &[(BASELINE, 100.0), ("dary2-dup", 50.0), ("bucket-queue-dup", bucket)])
    };
    assert_eq!(outcome(claim, &band("w", 500.0, 50.5)), Outcome::Holds);
    assert_eq!(outcome(claim, &band("w", 500.0, 52.0)), Outcome::Fails);
    let both = [band("small", 50.0, 60.0), band("large", 20_000.0, 40.0)].concat();
    let v = decide(claim, &both);
    assert_eq!(v.outcome, Outcome::Partly, "{v:#?}");
    assert!(v.details.iter().any(|d| d.starts_with("It holds from")), "{:#?}", v.details);
}

/// Rule: per band, the fastest exact queue by median time against the one with the lowest
/// p99 search: a band holds where they differ; every band holds, some partly, none fails;
/// without per-search latencies it is not measured.
#[test]
fn latency_changes_the_pick() {
    let claim = survey::latency_changes_the_pick;
    // The 4-ary heap is faster by median time; its p99 search takes `p99` against the
    // baseline's 1,000 ns.
    let band = |name: &str, size: f64, p99: f64| {
        let mut rows = at(name, size, &[(BASELINE, 100.0), ("dary4-dup", 90.0)]);
        for row in &mut rows {
            let p = if row.queue == BASELINE { 1000.0 } else { p99 };
            (row.search_p50_ns, row.search_p99_ns, row.search_max_ns) = (Some(p), Some(p), Some(p));
        }
        rows
    };
    let v = decide(claim, &band("w", 500.0, 2000.0));
    assert_eq!(v.outcome, Outcome::Holds, "{v:#?}");
    assert!(v.details[0].contains("`std-binary-heap-dup` by the p99 search"), "{v:#?}");
    assert_eq!(outcome(claim, &band("w", 500.0, 500.0)), Outcome::Fails);
    let both = [band("a", 500.0, 2000.0), band("b", 20_000.0, 500.0)].concat();
    assert_eq!(outcome(claim, &both), Outcome::Partly);
    let untimed = at("w", 500.0, &[(BASELINE, 100.0), ("dary4-dup", 90.0)]);
    assert_eq!(outcome(claim, &untimed), Outcome::Unmeasured);
}

/// Rule: a Fibonacci heap must be slower than the best binary heap beyond the margin.
#[test]
fn fibonacci_heaps_not_in_practice() {
    let claim = survey::fibonacci_heaps_not_in_practice;
    let fibonacci = |ns: f64| at("w", 500.0, &[(BASELINE, 100.0), ("fibonacci-heap-dup", ns)]);
    assert_eq!(outcome(claim, &fibonacci(102.5)), Outcome::Holds);
    assert_eq!(outcome(claim, &fibonacci(101.5)), Outcome::Fails);
}

/// Rule: on large workloads (held from 10⁵, octile from 3·10⁴) the sequence heap must be
/// in the tie group of the fastest comparison-based queue (bucketing queues excluded).
#[test]
fn sequence_heaps_for_large_inputs() {
    let claim = survey::sequence_heaps_for_large_inputs;
    let large = |seq: f64| {
        let times = [(BASELINE, 100.0), ("sequence-heap-dup", seq), ("bucket-queue-dup", 20.0)];
        at("large", 50_000.0, &times)
    };
    // Slower at 20,000: not a large input.
    let below = at("below", 20_000.0, &[(BASELINE, 100.0), ("sequence-heap-dup", 200.0)]);
    assert_eq!(outcome(claim, &[large(50.0), below].concat()), Outcome::Holds);
    assert_eq!(outcome(claim, &large(120.0)), Outcome::Fails);
    let held_slow = steadies(&held(1e5), 1e5, &[(BASELINE, 100.0), ("sequence-heap-dup", 120.0)]);
    assert_eq!(outcome(claim, &[large(50.0), held_slow].concat()), Outcome::Partly);
}

/// Rule: a splay tree is competitive where it is not slower than std's binary heap (the
/// baseline itself, not the fastest binary heap).
#[test]
fn splay_trees_competitive() {
    let claim = survey::splay_trees_competitive;
    let splay =
        |ns: f64| at("w", 500.0, &[(BASELINE, 100.0), ("dary2-dup", 50.0), ("splay-tree-dup", ns)]);
    assert_eq!(outcome(claim, &splay(101.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &splay(150.0)), Outcome::Fails);
}

/// Rule: the quickheap against the best published heap (std's or a crate's, never pqlab's
/// own): a band holds at half its time or less, interval included.
#[test]
fn quickheaps_beat_published_heaps() {
    let claim = survey::quickheaps_beat_published_heaps;
    let quick = |ns: f64| {
        let times = [(BASELINE, 100.0), ("dary-heap-crate-dup", 90.0), ("dary2-dup", 20.0)];
        at("w", 500.0, &[&times[..], &[("quickheap-dup", ns)]].concat())
    };
    // Half the best published heap's time holds, though pqlab's own d-ary heap is faster.
    assert_eq!(outcome(claim, &quick(40.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &quick(60.0)), Outcome::Fails, "faster, but not twice");
    assert_eq!(outcome(claim, &quick(120.0)), Outcome::Fails);
}

/// Rule: the SimdQuickHeap against the best radix heap (pqlab's or the crate's): a band
/// holds at half its time or less, interval included.
#[test]
fn simd_quickheap_twice_the_radix_heap() {
    let claim = survey::simd_quickheap_twice_the_radix_heap;
    let simd = |ns: f64| {
        let times = [(BASELINE, 100.0), ("radix-heap-dup", 80.0), ("radix-heap-crate-dup", 60.0)];
        at("w", 500.0, &[&times[..], &[("simd-quickheap-dup", ns)]].concat())
    };
    assert_eq!(outcome(claim, &simd(28.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &simd(35.0)), Outcome::Fails, "faster, but not twice the best");
    assert_eq!(outcome(claim, &simd(70.0)), Outcome::Fails);
    assert_eq!(outcome(claim, &at("w", 500.0, &[(BASELINE, 100.0)])), Outcome::Unmeasured);
}

/// Rule: arity apart from implementation: pqlab's d-ary heap with d = 4 or 8 against the
/// same code with d = 2 over the size ranges from 10,000 entries pooled: faster beyond the
/// margin holds, unless a range is slower (partly); faster only on small frontiers fails;
/// a range a hair inside the margin does not flip it. Another implementation (std's heap,
/// a crate) does not decide.
#[test]
fn dary_heaps_cache_better() {
    let claim = survey::dary_heaps_cache_better;
    let dary = |small: f64, large: f64| {
        let a = at("a", 20.0, &[(BASELINE, 10.0), ("dary2-dup", 100.0), ("dary4-dup", small)]);
        [a, at("b", 20_000.0, &[(BASELINE, 10.0), ("dary2-dup", 100.0), ("dary4-dup", large)])]
            .concat()
    };
    assert_eq!(outcome(claim, &dary(100.0, 80.0)), Outcome::Holds, "faster from 10,000");
    assert_eq!(outcome(claim, &dary(80.0, 100.0)), Outcome::Fails, "not where caches matter");
    assert_eq!(outcome(claim, &dary(100.0, 100.0)), Outcome::Fails, "std's heap is no d = 2");
    // Faster in one large range, a hair inside the margin in the other: pooled, it holds.
    let hair = at("c", 50_000.0, &[("dary2-dup", 100.0), ("dary4-dup", 99.0)]);
    assert_eq!(outcome(claim, &[dary(80.0, 80.0), hair].concat()), Outcome::Holds);
    // Faster pooled, slower beyond the margin in one large range: partly.
    let slower = at("c", 50_000.0, &[("dary2-dup", 100.0), ("dary4-dup", 110.0)]);
    assert_eq!(outcome(claim, &[dary(100.0, 60.0), slower].concat()), Outcome::Partly);
    // Only another implementation's wider heap: not the same code.
    let crate_only = at("a", 20_000.0, &[("dary2-dup", 100.0), ("dary-heap-crate-dup", 50.0)]);
    assert_eq!(outcome(claim, &crate_only), Outcome::Unmeasured);
}

/// Rule: from 10,000 entries the best B-heap must be faster than the best binary heap (the
/// seed's comparator) over the size ranges pooled (a tie fails), and slower in none
/// (partly); a faster d-ary heap does not decide; smaller frontiers do not count.
#[test]
fn b_heaps_for_large_frontiers() {
    let claim = survey::b_heaps_for_large_frontiers;
    let small = at("a", 20.0, &[(BASELINE, 100.0), ("b-heap-page-dup", 200.0)]);
    let large = |b_heap: f64| {
        let times = [(BASELINE, 110.0), ("dary4-dup", 50.0), ("b-heap-page-dup", b_heap)];
        at("b", 20_000.0, &times)
    };
    assert_eq!(outcome(claim, &[small, large(80.0)].concat()), Outcome::Holds);
    assert_eq!(outcome(claim, &large(115.0)), Outcome::Fails);
    // Faster pooled, tied in one range: holds; slower beyond the margin in one: partly.
    let with = |b_heap: f64| {
        [large(80.0), at("c", 50_000.0, &[(BASELINE, 100.0), ("b-heap-page-dup", b_heap)])].concat()
    };
    assert_eq!(outcome(claim, &with(100.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &with(110.0)), Outcome::Partly);
    let v = decide(claim, &large(80.0));
    assert!(
        v.summary.contains("best binary or d-ary heap it takes 1.60×")
            && v.summary.contains("faster in 0 ranges, slower in 1, of 1"),
        "{}",
        v.summary
    );
}

/// Rule: a hash table for the per-cell state holds the claim when the same queues take at
/// most the tie margin more time than with the array the seed says must be cleared every
/// search, or, where that was not run, than with the stamped flat array.
#[test]
fn hash_table_membership() {
    let claim = factors::hash_table_membership;
    // Against the cleared array: the seed's comparator decides, whatever the stamped one says.
    let cleared = |fx: f64| {
        let flat = at("m", 500.0, &[(BASELINE, 50.0)]);
        let reset = search("m-cl", "m", HeuristicKind::Octile, StoreKind::Cleared);
        let hashed = search("m-fx", "m", HeuristicKind::Octile, StoreKind::FxHash);
        [
            flat,
            steadies(&reset, 500.0, &[(BASELINE, 100.0)]),
            steadies(&hashed, 500.0, &[(BASELINE, fx)]),
        ]
        .concat()
    };
    assert_eq!(outcome(claim, &cleared(101.5)), Outcome::Holds);
    assert_eq!(outcome(claim, &cleared(102.5)), Outcome::Fails);
    let stores = |fx: f64| {
        let flat = at("m", 500.0, &[(BASELINE, 100.0), ("dary4-dup", 100.0)]);
        let hashed = search("m-fx", "m", HeuristicKind::Octile, StoreKind::FxHash);
        [flat, steadies(&hashed, 500.0, &[(BASELINE, fx), ("dary4-dup", fx)])].concat()
    };
    assert_eq!(outcome(claim, &stores(101.5)), Outcome::Holds);
    assert_eq!(outcome(claim, &stores(102.5)), Outcome::Fails);
    let elsewhere = search("n-fx", "n", HeuristicKind::Octile, StoreKind::FxHash);
    let unmatched = steadies(&elsewhere, 500.0, &[(BASELINE, 150.0)]);
    let v = decide(claim, &[stores(101.5), unmatched].concat());
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 1), "no flat sibling: not counted");
    // The seeds' other reason, memory: each store's bytes where the lab counted them, on a
    // map named as generated (its cells from its side), the largest in the summary.
    let mut counted = cleared(120.0);
    for row in &mut counted {
        row.map = "rooms-r32-1024-s1".into();
        row.held_bytes = Some(match row.store {
            Some(StoreKind::FxHash) => 3.0 * 1048576.0,
            _ => 8.5 * 1048576.0,
        });
    }
    let v = decide(claim, &counted);
    let memory = "rooms-r32-1024-s1 (1,048,576 cells): `std-binary-heap-dup`'s search held 3.0 MiB with FxHashMap against 8.5 MiB with the flat array, 8.5 MiB with the flat array cleared per search.";
    assert!(v.details.iter().any(|d| d == memory), "{:#?}", v.details);
    assert!(v.summary.contains("held 3.0 MiB with FxHashMap against 8.5 MiB"), "{}", v.summary);
    // Not counted (schema 5 runs): no memory sentence.
    assert!(!decide(claim, &cleared(120.0)).summary.contains("MiB"));
}

/// Rule: the baseline's held bytes under K landmarks minus under octile, per padded cell
/// and landmark, rounded to 4-byte numbers: one on every generated uniform map holds, two
/// fails, some of each partly; weighted maps (two tables per landmark) do not count.
#[test]
fn landmark_memory() {
    let claim = factors::landmark_memory;
    // `map`'s octile and 8-landmark workloads, the tables taking `per` bytes per node per
    // landmark over octile's 571,280 bytes.
    let map = |map: &str, per: f64| {
        let side: f64 = map.split('-').nth(2).and_then(|s| s.parse().ok()).unwrap_or(256.0);
        let mut rows = Vec::new();
        for (h, bytes) in [
            (HeuristicKind::Octile, 571_280.0),
            (HeuristicKind::Differential(8), 571_280.0 + (side + 2.0).powi(2) * 8.0 * per),
        ] {
            let facts = search(&format!("{map}/{h}"), map, h, StoreKind::Flat);
            let mut row = steady(&facts, BASELINE, 500.0, 100.0);
            row.held_bytes = Some(bytes);
            rows.push(row);
        }
        rows
    };
    let measured = map("rooms-r16-256-s1", 4.0);
    let v = decide(claim, &measured);
    assert_eq!(v.outcome, Outcome::Holds, "{v:#?}");
    assert!(v.details[0].contains("66,564 cells with the border, 8 landmarks"), "{v:#?}");
    assert!(v.details[0].contains("2,130,048 more") && v.details[0].contains("4.00 bytes"));
    assert_eq!(outcome(claim, &map("rooms-r16-256-s1", 5.5)), Outcome::Holds, "queue slack");
    assert_eq!(outcome(claim, &map("rooms-r16-256-s1", 8.0)), Outcome::Fails, "two numbers");
    let both = [measured.clone(), map("maze-w4-512-s1", 8.0)].concat();
    assert_eq!(outcome(claim, &both), Outcome::Partly);
    // Weighted maps store both directions: not counted.
    assert_eq!(outcome(claim, &map("weighted-f16-256-s1", 8.0)), Outcome::Unmeasured);
    let mut uncounted = measured;
    uncounted[1].held_bytes = None;
    assert_eq!(outcome(claim, &uncounted), Outcome::Unmeasured);
}

/// Rule: a soft heap is a good trade when it saves time beyond the margin and no weighted
/// A* is both faster and closer to optimal; without a weighted A* to compare, a soft heap
/// that saves nothing only partly holds it.
#[test]
fn soft_heap_trade() {
    let claim = factors::soft_heap_trade;
    let trade = |soft: f64, soft_excess: f64, weighted_excess: Option<f64>| {
        let mut rows = at("m", 500.0, &[(BASELINE, 100.0)]);
        let mut row = steady(&octile("m"), "soft-heap-e8-dup", 500.0, soft);
        row.excess_mean = Some(soft_excess);
        rows.push(row);
        if let Some(excess) = weighted_excess {
            let weighted = search("m-w", "m", HeuristicKind::WeightedOctile(1.5), StoreKind::Flat);
            let mut row = steady(&weighted, BASELINE, 300.0, 70.0);
            row.excess_mean = Some(excess);
            rows.push(row);
        }
        rows
    };
    assert_eq!(outcome(claim, &trade(80.0, 0.01, Some(0.02))), Outcome::Holds);
    assert_eq!(outcome(claim, &trade(80.0, 0.01, Some(0.005))), Outcome::Fails, "dominated");
    assert_eq!(outcome(claim, &trade(80.0, 0.01, None)), Outcome::Holds);
    assert_eq!(outcome(claim, &trade(99.0, 0.01, None)), Outcome::Partly, "saves under 2%");
}

/// Rule: per map, the differential heuristic's gain for the baseline (octile time ÷ its
/// time) must exceed the best queue's gain over the baseline under octile.
#[test]
fn better_heuristic_over_better_queue() {
    let claim = factors::better_heuristic_over_better_queue;
    let maps = |differential: f64| {
        // The best queue under octile saves 100 / 80 = 1.25×.
        let octile_rows = at("m", 1000.0, &[(BASELINE, 100.0), ("dary4-dup", 80.0)]);
        let better = search("m-dh", "m", HeuristicKind::Differential(4), StoreKind::Flat);
        let times = [(BASELINE, differential), ("dary4-dup", differential)];
        [octile_rows, steadies(&better, 200.0, &times)].concat()
    };
    assert_eq!(outcome(claim, &maps(50.0)), Outcome::Holds, "2× against 1.25×");
    assert_eq!(outcome(claim, &maps(90.0)), Outcome::Fails, "1.11× against 1.25×");
    // 1.258× against 1.25×: within the tie margin, so the heuristic does not matter more.
    assert_eq!(outcome(claim, &maps(79.5)), Outcome::Fails, "a tie is no win");
    // Two maps, the heuristic slower on one: the maps pooled decide (two workloads a map,
    // not timed in the same rounds, so one map alone does not make it partly).
    let mut two = maps(50.0);
    let other = |name: &str| name.replacen('m', "n", 1);
    two.extend(maps(90.0).into_iter().map(|mut r| {
        (r.workload, r.map) = (other(&r.workload), other(&r.map));
        r
    }));
    let v = decide(claim, &two);
    assert_eq!(v.outcome, Outcome::Holds, "{}", v.summary);
    assert!(v.summary.contains("faster beyond the tie margin on 1 of 2 maps"), "{}", v.summary);
    // The heuristic grew the frontier (1,000 to 1,200): the line says so.
    let mut grown = maps(50.0);
    grown.iter_mut().filter(|r| r.workload == "m-dh").for_each(|r| r.max_open = 1200.0);
    let v = decide(claim, &grown);
    assert!(v.details[0].contains("grows the frontier 1.20×"), "{}", v.details[0]);
}

/// A unit-cost workload `name` on map `name` under `moves` and `heuristic`, of `kind`.
fn unit_cost(
    name: &str,
    kind: crate::results::Kind,
    moves: crate::maps::grid::Connectivity,
    heuristic: HeuristicKind,
) -> crate::lab::rows::WorkloadFacts {
    crate::lab::rows::WorkloadFacts {
        kind,
        name: format!("{name}/{heuristic}/{}", moves.token()),
        series: Some(crate::search::Series {
            setup: crate::search::Setup { moves: Some(moves), ..crate::search::Setup::GRID_ASTAR },
            heuristic,
            scale: crate::maps::grid::CostScale::UNIT,
            store: StoreKind::Flat,
        }),
        ..search(name, name, heuristic, StoreKind::Flat)
    }
}

/// A search workload's rows and its `loop` twin's row for `id`, steady at `size`.
fn with_loop(
    workload: &crate::lab::rows::WorkloadFacts,
    size: f64,
    times: &[(&str, f64)],
    id: &str,
    ns: f64,
) -> Vec<Row> {
    let mut rows = steadies(workload, size, times);
    let twin =
        crate::lab::rows::WorkloadFacts { kind: crate::results::Kind::Loop, ..workload.clone() };
    rows.push(steady(&twin, id, size, ns));
    rows
}

/// Rule: fringe search holds the claim when it is faster than A* with std's heap beyond
/// the margin overall and slower nowhere; fails when it is faster nowhere; else partly.
#[test]
fn fringe_search_against_astar_with_a_heap() {
    use crate::search::fringe::Fringe;
    let claim = super::loops::fringe_beats_astar;
    let run = |a: f64, b: f64| {
        let mut rows = with_loop(&octile("a"), 500.0, &[(BASELINE, 100.0)], Fringe::ID, a);
        rows.extend(with_loop(&octile("b"), 5000.0, &[(BASELINE, 100.0)], Fringe::ID, b));
        rows
    };
    assert_eq!(outcome(claim, &run(80.0, 85.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &run(150.0, 101.0)), Outcome::Fails);
    // Faster on one, slower on the other: slower overall, so faster on no series.
    assert_eq!(outcome(claim, &run(80.0, 150.0)), Outcome::Fails);
    // Without its loop rows, fringe search was not measured.
    assert_eq!(outcome(claim, &at("a", 500.0, &[(BASELINE, 100.0)])), Outcome::Unmeasured);
}

/// Rule: a loop's cut-off workloads count as lower bounds, never dropped.
#[test]
fn fringe_search_cut_off_counts() {
    use crate::search::fringe::Fringe;
    let claim = super::loops::fringe_beats_astar;
    let mut rows = with_loop(&octile("a"), 500.0, &[(BASELINE, 100.0)], Fringe::ID, 80.0);
    rows.extend(steadies(&octile("b"), 5000.0, &[(BASELINE, 100.0)]));
    let twin = crate::lab::rows::WorkloadFacts { kind: crate::results::Kind::Loop, ..octile("b") };
    rows.push(cut_off(&twin, Fringe::ID, 3.0));
    let v = decide(claim, &rows);
    assert_eq!((v.outcome, v.workloads), (Outcome::Fails, 2), "{v:#?}");
    assert!(v.summary.contains("at least 1.55×"), "{}", v.summary);
    assert!(
        v.details.iter().any(|d| d.starts_with("b (") && d.contains("at least 3.00×")),
        "{:#?}",
        v.details
    );
}

/// Rule: fringe search is judged on every series it ran (each cost scale), one by one:
/// faster on every series holds, on some partly.
#[test]
fn fringe_search_on_every_cost_scale() {
    use crate::maps::grid::Connectivity::Four;
    use crate::results::Kind::Astar;
    use crate::search::fringe::Fringe;
    let claim = super::loops::fringe_beats_astar;
    let unit = |ns: f64| {
        let four = unit_cost("u", Astar, Four, HeuristicKind::Manhattan);
        with_loop(&four, 500.0, &[(BASELINE, 100.0)], Fringe::ID, ns)
    };
    let fine = |ns: f64| with_loop(&octile("a"), 500.0, &[(BASELINE, 100.0)], Fringe::ID, ns);
    assert_eq!(outcome(claim, &[fine(150.0), unit(60.0)].concat()), Outcome::Partly);
    assert_eq!(outcome(claim, &[fine(80.0), unit(60.0)].concat()), Outcome::Holds);
    let v = decide(claim, &[fine(150.0), unit(60.0)].concat());
    assert!(v.summary.contains("1.50×") && v.summary.contains("0.600×"), "{}", v.summary);
}

/// Rule: the seed's sentence: A* is faster on most maps, and BFS is faster only where A*
/// saves least (BFS's expansions over A*'s) in each unit-cost series, 4 moves and 8;
/// both hold: holds, neither: fails. A cut-off BFS counts as slower.
#[test]
fn bfs_only_where_astar_saves_little() {
    use crate::maps::grid::Connectivity::{Eight, Four};
    use crate::results::Kind::Astar;
    use crate::search::bfs::Bfs;
    let claim = super::loops::bfs_is_enough;
    let four = |name| unit_cost(name, Astar, Four, HeuristicKind::Manhattan);
    // One map: BFS at `ns` (A* at 100), expanding `wider` times A*'s cells.
    let map = |name, ns: f64, wider: f64| {
        let mut rows = with_loop(&four(name), 500.0, &[(BASELINE, 100.0)], Bfs::ID, ns);
        for row in &mut rows {
            row.expansions = if row.queue == Bfs::ID { 1000.0 * wider } else { 1000.0 };
        }
        rows
    };
    // The maze: A* saves little (1.2×) and BFS wins; elsewhere A* saves 5× and wins.
    let like_the_run =
        [map("maze", 30.0, 1.2), map("rooms", 180.0, 5.0), map("cave", 220.0, 4.0)].concat();
    assert_eq!(outcome(claim, &like_the_run), Outcome::Holds);
    // BFS wins where A* saves most: the sentence's second half fails.
    let backwards =
        [map("maze", 30.0, 6.0), map("rooms", 180.0, 5.0), map("cave", 220.0, 4.0)].concat();
    assert_eq!(outcome(claim, &backwards), Outcome::Partly);
    // BFS never wins: A* is faster on most, but no map where BFS is better.
    assert_eq!(
        outcome(claim, &[map("a", 130.0, 2.0), map("b", 130.0, 3.0)].concat()),
        Outcome::Partly
    );
    // BFS faster on most, where A* saves most: neither half.
    let neither = [map("a", 60.0, 5.0), map("b", 60.0, 4.0), map("c", 130.0, 1.1)].concat();
    assert_eq!(outcome(claim, &neither), Outcome::Fails);
    // A cut-off BFS counts as slower.
    let mut cut = [map("maze", 30.0, 1.2), map("rooms", 180.0, 5.0)].concat();
    let twin = crate::lab::rows::WorkloadFacts { kind: crate::results::Kind::Loop, ..four("cave") };
    cut.extend(steadies(&four("cave"), 500.0, &[(BASELINE, 100.0)]));
    cut.push(cut_off(&twin, Bfs::ID, 4.0));
    let v = decide(claim, &cut);
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 3), "{v:#?}");
    // The 8-connected series counts too: BFS faster there on a map where A* saves most.
    let mut both = like_the_run.clone();
    for (name, ns, wider) in [("rooms8", 60.0, 5.0), ("cave8", 180.0, 1.5)] {
        let eight = unit_cost(name, Astar, Eight, HeuristicKind::Chebyshev);
        let mut rows = with_loop(&eight, 500.0, &[(BASELINE, 100.0)], Bfs::ID, ns);
        for row in &mut rows {
            row.expansions = if row.queue == Bfs::ID { 1000.0 * wider } else { 1000.0 };
        }
        both.extend(rows);
    }
    assert_eq!(outcome(claim, &both), Outcome::Partly);
}

/// Rule: Manhattan on 8 moves holds where it speeds std's heap up over Chebyshev on the
/// same problems beyond the tie margin, the maps pooled, as much as the log's 2.76 ± 0.13×
/// (the interval reaching 2.63×); partly when less, or when a map shows it slower; the
/// best queue does not enter.
#[test]
fn manhattan_on_eight_moves_speeds_up() {
    use crate::maps::grid::Connectivity::Eight;
    use crate::results::Kind::Astar;
    let claim = super::loops::manhattan_on_eight_moves;
    let map = |name, manhattan: f64, best: f64| {
        let c = unit_cost(name, Astar, Eight, HeuristicKind::Chebyshev);
        let m = unit_cost(name, Astar, Eight, HeuristicKind::Manhattan);
        let mut rows = steadies(&c, 500.0, &[(BASELINE, 100.0), ("radix-heap-dup", best)]);
        rows.extend(steadies(&m, 300.0, &[(BASELINE, manhattan)]));
        rows
    };
    // 3.33× faster, though the best queue saves more: as much as the log's 2.76 ± 0.13×.
    assert_eq!(outcome(claim, &map("a", 30.0, 25.0)), Outcome::Holds);
    // 2× faster: faster, but less than the log measured.
    assert_eq!(outcome(claim, &map("a", 50.0, 40.0)), Outcome::Partly);
    // 1.01×: a tie, no speed-up.
    assert_eq!(outcome(claim, &map("a", 99.0, 80.0)), Outcome::Fails);
    // 3.33× and 2.5×: pooled 2.89×, as much as the log's.
    let mut both = map("a", 30.0, 25.0);
    both.extend(map("b", 40.0, 25.0));
    assert_eq!(outcome(claim, &both), Outcome::Holds);
    // Faster on one map, tied on the other: pooled 1.84×, less than the log's.
    let mut both = map("a", 30.0, 80.0);
    both.extend(map("b", 99.0, 80.0));
    let v = decide(claim, &both);
    assert_eq!(v.outcome, Outcome::Partly);
    assert!(v.summary.contains("on 1 of 2 maps"), "{}", v.summary);
}

/// A generic A* workload on map `map`, octile and fine costs, as integers or as `f64`.
fn generic(map: &str, costs: crate::maps::grid::CostKind) -> crate::lab::rows::WorkloadFacts {
    use crate::search::{SearchKind, Setup};
    crate::lab::rows::WorkloadFacts {
        name: format!("{map}/generic/{costs:?}"),
        ..octile(map).with_setup(Setup { search: SearchKind::Generic, costs, ..Setup::GRID_ASTAR })
    }
}

/// Rule: whole numbers hold where std's heap with integer costs is faster beyond the tie
/// margin than with `f64` costs on the same problems, the workload pairs pooled (each pair
/// is two workloads, not timed in the same rounds: one pair alone does not make it
/// partly); a ratio beyond the margin whose interval reaches it leaves it undecided; faster
/// by less than "a lot" (1.25×) is partly. The fastest queue on each side does not decide.
#[test]
fn integer_costs_faster() {
    use crate::maps::grid::CostKind::{Float, Integer};
    let claim = factors::integer_costs_faster;
    // One map: std's heap at 100 with integers, at `float` with `f64` costs; a bucket queue,
    // which takes only integers, is the fastest integer queue at `bucket`.
    let map = |name, float: f64, bucket: f64| {
        let mut rows = steadies(
            &generic(name, Integer),
            500.0,
            &[(BASELINE, 100.0), ("bucket-queue-dup", bucket)],
        );
        rows.extend(steadies(&generic(name, Float), 500.0, &[(BASELINE, float)]));
        rows
    };
    // Floats take 1.26×: integers are faster.
    assert_eq!(outcome(claim, &map("a", 126.0, 90.0)), Outcome::Holds);
    // 1.015×: inside the tie margin, no faster.
    assert_eq!(outcome(claim, &map("a", 101.5, 90.0)), Outcome::Fails);
    // 1.025×: just beyond it, faster but not "a lot" (1.25×).
    assert_eq!(outcome(claim, &map("a", 102.5, 90.0)), Outcome::Partly);
    // Rounds of the `f64` search spread from 0.90× to 1.40× the integer one's, 1.14× in the
    // middle: it leans the claim's way, but the interval reaches the margin. Spread as
    // widely around 1.00×, it fails.
    let spread = |float: &[f64]| {
        let mut rows = steadies(&generic("a", Integer), 500.0, &[(BASELINE, 100.0)]);
        rows.push(timed(&generic("a", Float), BASELINE, 500.0, float));
        rows
    };
    let wide = decide(claim, &spread(&[90.0, 140.0, 114.0, 100.0, 125.0]));
    assert_eq!(wide.outcome, Outcome::Undecided, "{}", wide.summary);
    assert_eq!(outcome(claim, &spread(&[76.0, 126.0, 100.0, 86.0, 111.0])), Outcome::Fails);
    // Floats faster on the road graph's like, though the fastest integer queue wins there:
    // the same queue decides, not the best of each side.
    assert_eq!(outcome(claim, &map("a", 88.0, 50.0)), Outcome::Fails);
    let both = [map("a", 126.0, 90.0), map("b", 88.0, 50.0)].concat();
    let v = decide(claim, &both);
    // Pooled, floats take 1.05×: integers are faster, not a lot.
    assert_eq!((v.outcome, v.workloads), (Outcome::Partly, 2));
    assert!(v.summary.contains("on 1 of 2 workload pairs"), "{}", v.summary);
    assert!(v.summary.contains("floats faster on 1"), "{}", v.summary);
    // The fastest of each side is the second comparator: 88 against the bucket queue's 50.
    assert!(
        v.details[1].contains("`bucket-queue-dup`") && v.details[1].contains("1.76×"),
        "{:#?}",
        v.details
    );
    // Without its integer twin (another number of problems), a float workload says nothing.
    let mut other_problems = map("a", 126.0, 90.0);
    other_problems.iter_mut().filter(|r| r.costs == Some(Float)).for_each(|r| r.units = 20);
    assert_eq!(outcome(claim, &other_problems), Outcome::Unmeasured);
}

/// Rule: Dijkstra is slower where std's heap with h = 0 takes longer beyond the tie margin
/// than with octile on the same problems, the maps pooled (each map is two workloads, not
/// timed in the same rounds: one map alone does not make it partly); a Dijkstra workload
/// with other problems than its octile sibling's says nothing.
#[test]
fn dijkstra_slower_than_astar() {
    use crate::analysis::fixture::search;
    let claim = factors::dijkstra_slower_than_astar;
    // One map: std's heap at 100 under octile, at `zero` under h = 0 (expanding 5× the
    // cells); a bucket queue is the fastest for Dijkstra at `bucket`.
    let map = |name: &str, zero: f64, bucket: f64| {
        let dijkstra = search(&format!("{name}/zero"), name, HeuristicKind::Zero, StoreKind::Flat);
        let mut rows = steadies(&octile(name), 500.0, &[(BASELINE, 100.0)]);
        rows.extend(steadies(&dijkstra, 2500.0, &[(BASELINE, zero), ("bucket-queue-dup", bucket)]));
        for row in &mut rows {
            row.expansions =
                if row.heuristic == Some(HeuristicKind::Zero) { 5000.0 } else { 1000.0 };
        }
        rows
    };
    // 3× the time: slower, as the seed says.
    let v = decide(claim, &map("a", 300.0, 150.0));
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 1), "{v:#?}");
    assert!(v.details[0].contains("expands 5.00×"), "{:#?}", v.details);
    // 1.015×: inside the tie margin, no slower.
    assert_eq!(outcome(claim, &map("a", 101.5, 90.0)), Outcome::Fails);
    // 1.025×: just beyond it.
    assert_eq!(outcome(claim, &map("a", 102.5, 90.0)), Outcome::Holds);
    // Faster on a maze-like map, slower on another; pooled, 1.34× slower.
    let both = [map("a", 200.0, 150.0), map("b", 90.0, 80.0)].concat();
    let v = decide(claim, &both);
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 2), "{v:#?}");
    assert!(v.summary.contains("slower beyond the tie margin on 1 of 2 maps"), "{}", v.summary);
    // The fastest queue for Dijkstra is the second comparator: 150 against std's 100.
    assert!(v.details[0].contains("`bucket-queue-dup`"), "{:#?}", v.details);
    // Other problems than octile's: no pair.
    let mut other_problems = map("a", 300.0, 150.0);
    other_problems
        .iter_mut()
        .filter(|r| r.heuristic == Some(HeuristicKind::Zero))
        .for_each(|r| r.units = 20);
    assert_eq!(outcome(claim, &other_problems), Outcome::Unmeasured);
}

/// One map's octile A* workload and its JPS twin (the same problems): std's heap at 100
/// under both, the radix heap at `astar` and `jps`.
fn jps_map(map: &str, astar: f64, jps: f64) -> Vec<Row> {
    use crate::search::{SearchKind, Setup};
    let twin = crate::lab::rows::WorkloadFacts {
        name: format!("{map}/jps"),
        ..octile(map).with_setup(Setup { search: SearchKind::Jps, ..Setup::GRID_ASTAR })
    };
    let mut rows = at(map, 500.0, &[(BASELINE, 100.0), ("radix-heap-dup", astar)]);
    rows.extend(steadies(&twin, 40.0, &[(BASELINE, 100.0), ("radix-heap-dup", jps)]));
    rows
}

/// Rule: the queue matters less under JPS where std's heap over the fastest queue is lower
/// under JPS than under A* on the same problems beyond the intervals and the tie margin,
/// the maps pooled by the geometric mean; partly when a map shows the opposite.
#[test]
fn queue_matters_less_with_jps() {
    let claim = factors::queue_matters_less_with_jps;
    // std takes 2× the best under A*, 1.11× under JPS: the queue matters less.
    assert_eq!(outcome(claim, &jps_map("a", 50.0, 90.0)), Outcome::Holds);
    // 2.5× under JPS: it matters more.
    assert_eq!(outcome(claim, &jps_map("a", 50.0, 40.0)), Outcome::Fails);
    // Within the tie margin of each other: no less.
    assert_eq!(outcome(claim, &jps_map("a", 50.0, 50.5)), Outcome::Fails);
    // Pooled less (1.29× against 1.55×), but the second map shows the opposite.
    let both = [jps_map("a", 50.0, 90.0), jps_map("b", 100.0 / 1.2, 100.0 / 1.5)].concat();
    let v = decide(claim, &both);
    assert_eq!((v.outcome, v.workloads), (Outcome::Partly, 2));
    assert!(v.summary.contains("more on 1"), "{}", v.summary);
    assert!(v.details[0].contains("expands"), "{:#?}", v.details);
    // Without its A* twin (another number of problems), a JPS workload says nothing.
    let mut other = jps_map("a", 50.0, 90.0);
    other.iter_mut().filter(|r| r.workload.ends_with("/jps")).for_each(|r| r.units = 7);
    assert_eq!(outcome(claim, &other), Outcome::Unmeasured);
}

/// One map's octile A* workload (the A*'s own rule, larger g first) and its tie workloads
/// (the same problems): std's heap at `rules`' times, expanding `cells` a search under each
/// rule (pushing 1.2 entries a cell under the A*'s rule, one under the others); under the
/// A*'s rule the bitmap bucket queue (monotone, bounded span) is the fastest at half std's
/// time, expanding `bucket` cells.
fn tie_map(map: &str, rules: &[(crate::search::SearchKind, f64, f64)], bucket: f64) -> Vec<Row> {
    use crate::search::{SearchKind, Setup};
    let mut rows = Vec::new();
    for &(search, time, cells) in rules {
        let facts = crate::lab::rows::WorkloadFacts {
            name: format!("{map}/{}", search.token()),
            ..octile(map).with_setup(Setup { search, ..Setup::GRID_ASTAR })
        };
        let facts = if search == SearchKind::Astar { octile(map) } else { facts };
        let mut these = steadies(&facts, 500.0, &[(BASELINE, time)]);
        if search == SearchKind::Astar {
            let mut fastest = steady(&facts, "bitmap-bucket-queue-dup", 500.0, time / 2.0);
            fastest.expansions = bucket;
            these.push(fastest);
        }
        // The deepest first reaches cells by worse paths first: 1.2 pushes a cell.
        let pushes = if search == SearchKind::Astar { 1.2 * cells } else { cells };
        for row in these.iter_mut().filter(|r| r.queue == BASELINE) {
            (row.expansions, row.pushes) = (cells, pushes);
        }
        rows.extend(these);
    }
    rows
}

/// Rule: the hack holds where std's heap breaking ties toward larger g is faster beyond the
/// tie margin than the heap left to its own order, the maps pooled; the second sentence
/// where the fastest queue cannot take the hack's keys and its own order expands more than
/// 2% beyond the hack's cells; both hold: holds, one: partly, neither: fails.
#[test]
fn tie_breaking_hack() {
    use crate::search::SearchKind::{Astar, AstarTiesQueue};
    let claim = ties::tie_breaking_hack;
    let map = |name: &str, hacked: f64, unbroken: f64, bucket: f64| {
        tie_map(name, &[(Astar, hacked, 1000.0), (AstarTiesQueue, unbroken, 2500.0)], bucket)
    };
    // The hack saves a third, and the bucket queue's own order expands 1.3× its cells.
    let v = decide(claim, &map("a", 100.0, 150.0, 1300.0));
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 1), "{v:#?}");
    assert!(v.details[0].contains("expanding 0.400× the cells"), "{:#?}", v.details);
    assert!(v.details[0].contains("pushing 0.480× the entries"), "{:#?}", v.details);
    assert!(v.details[0].contains("needs a hack of its own"), "{:#?}", v.details);
    // Its own order does the hack's work (1.01×): partly.
    assert_eq!(outcome(claim, &map("a", 100.0, 150.0, 1010.0)), Outcome::Partly);
    // The hack within the tie margin (1.015×), and the bucket queue's order as good: fails.
    assert_eq!(outcome(claim, &map("a", 101.5, 100.0, 1000.0)), Outcome::Fails);
    // The hack slower on the maze, faster on open ground; pooled faster, a map opposite.
    let both = [map("open", 100.0, 200.0, 1300.0), map("maze", 110.0, 100.0, 1300.0)].concat();
    let v = decide(claim, &both);
    assert_eq!((v.outcome, v.workloads), (Outcome::Partly, 2), "{v:#?}");
    assert!(v.summary.contains("faster beyond the tie margin on 1 of 2 maps"), "{}", v.summary);
    // No tie workload: nothing to compare.
    let alone = tie_map("a", &[(Astar, 100.0, 1000.0)], 1000.0);
    assert_eq!(outcome(claim, &alone), Outcome::Unmeasured);
}

/// Rule: "can be faster" holds where std's heap choosing the last added among equal f is
/// faster beyond the tie margin than choosing the first added on some map, whatever the
/// others show; undecided where a map leans that way without showing it; else it fails.
#[test]
fn last_added_first() {
    use crate::search::SearchKind::{Astar, AstarTiesFifo, AstarTiesLifo};
    let claim = ties::last_added_first;
    let map = |name: &str, lifo: f64, fifo: f64| {
        tie_map(
            name,
            &[(Astar, 90.0, 900.0), (AstarTiesLifo, lifo, 1000.0), (AstarTiesFifo, fifo, 2000.0)],
            900.0,
        )
    };
    let v = decide(claim, &map("a", 80.0, 100.0));
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 1), "{v:#?}");
    assert!(v.details[0].contains("expanding 0.500× the cells"), "{:#?}", v.details);
    assert!(v.details[0].contains("Against the A*'s own rule"), "{:#?}", v.details);
    // Within the tie margin: no faster.
    assert_eq!(outcome(claim, &map("a", 101.5, 100.0)), Outcome::Fails);
    // Faster on one map, slower on another, slower pooled (1.10×): it can be.
    let both = [map("open", 80.0, 100.0), map("maze", 150.0, 100.0)].concat();
    let v = decide(claim, &both);
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 2), "{v:#?}");
    assert!(v.details.iter().any(|d| d.contains("LIFO is slower")), "{:#?}", v.details);
    // LIFO's rounds from 0.63× to 1.00× of FIFO's, 0.80× in the middle: it leans, unshown.
    let mut wide = map("a", 100.0, 100.0);
    let lifo = wide.iter_mut().find(|r| r.workload.ends_with(AstarTiesLifo.token()));
    let wide_rounds = [63.0, 100.0, 80.0, 70.0, 90.0];
    lifo.expect("a LIFO row").set_samples(&wide_rounds, &wide_rounds);
    assert_eq!(outcome(claim, &wide), Outcome::Undecided);
    // No FIFO twin: nothing to compare.
    let alone = tie_map("a", &[(Astar, 90.0, 900.0), (AstarTiesLifo, 80.0, 900.0)], 900.0);
    assert_eq!(outcome(claim, &alone), Outcome::Unmeasured);
}

/// Rule: a cut-off array is a bound, never a tie: an unsorted array cut off at a bound that
/// cannot settle its lead ("at least 0.87×") is untold, not leading, and a band where both
/// arrays were cut off is untold, never dropped from "every band measured".
#[test]
fn a_cut_off_array_neither_leads_nor_is_dropped() {
    let claim = folklore::unsorted_arrays_for_small_frontiers;
    let small = octile("s");
    let mut rows = steadies(&small, 20.0, &[(BASELINE, 100.0), ("sorted-array-dup", 345.0)]);
    rows.push(cut_off(&small, "unsorted-array-dup", 3.0));
    let v = decide(claim, &rows);
    assert_eq!(v.outcome, Outcome::Unmeasured, "{v:#?}");
    assert!(v.details[0].contains("at least 0.870×") && v.details[0].contains("cannot be told"));
    // Leading below 100 open cells, both cut off from 1k: not "every band measured".
    let mut rows = at(
        "a",
        20.0,
        &[(BASELINE, 100.0), ("unsorted-array-dup", 60.0), ("sorted-array-dup", 90.0)],
    );
    let big = octile("b");
    rows.extend(steadies(&big, 2000.0, &[(BASELINE, 100.0)]));
    rows.push(cut_off(&big, "unsorted-array-dup", 3.0));
    rows.push(cut_off(&big, "sorted-array-dup", 3.0));
    let v = decide(claim, &rows);
    assert_eq!(v.outcome, Outcome::Holds);
    assert!(v.summary.contains("from the 1k–3k band the cut-offs cannot tell"), "{}", v.summary);
    assert!(!v.summary.contains("every band measured"), "{}", v.summary);
}

/// Rule: a queue cut off with one store is counted at its bound, not skipped: the hash
/// table's time against the cleared array reads "at least" and counts the cut-off pair.
#[test]
fn a_cut_off_store_counts_at_its_bound() {
    let claim = factors::hash_table_membership;
    let flat = at("m", 500.0, &[(BASELINE, 100.0), ("dary4-dup", 100.0)]);
    let hashed = search("m-fx", "m", HeuristicKind::Octile, StoreKind::FxHash);
    let mut rows = [flat, steadies(&hashed, 500.0, &[(BASELINE, 101.0)])].concat();
    rows.push(cut_off(&hashed, "dary4-dup", 3.0));
    let v = decide(claim, &rows);
    assert!(v.summary.contains("takes at least 1.75×"), "{}", v.summary);
    assert!(v.summary.contains("2 queue-and-workload pairs, 1 of them a cut-off"), "{}", v.summary);
    assert_eq!(v.outcome, Outcome::Fails);
}

/// Rule: a sequence heap cut off on a large workload is behind there, never skipped.
#[test]
fn a_cut_off_sequence_heap_is_behind_not_skipped() {
    let claim = survey::sequence_heaps_for_large_inputs;
    let large = octile("large");
    let mut rows = steadies(&large, 50_000.0, &[(BASELINE, 100.0), ("dary4-dup", 90.0)]);
    rows.push(cut_off(&large, "sequence-heap-dup", 3.0));
    let v = decide(claim, &rows);
    assert_eq!((v.outcome, v.workloads), (Outcome::Fails, 1), "{v:#?}");
    assert!(v.details[0].contains("at least 3.33×"), "{:#?}", v.details);
}

/// Rule: JPS is worth looking into where, with std's heap, it is faster than octile A* on
/// the same problems beyond the tie margin, the maps pooled.
#[test]
fn jps_faster_than_astar() {
    use crate::search::{SearchKind, Setup};
    let claim = factors::jps_faster_than_astar;
    let map = |jps: f64| {
        let twin = crate::lab::rows::WorkloadFacts {
            name: "a/jps".into(),
            ..octile("a").with_setup(Setup { search: SearchKind::Jps, ..Setup::GRID_ASTAR })
        };
        [at("a", 500.0, &[(BASELINE, 100.0)]), steadies(&twin, 40.0, &[(BASELINE, jps)])].concat()
    };
    assert_eq!(outcome(claim, &map(50.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &map(101.0)), Outcome::Fails);
    assert_eq!(outcome(claim, &map(150.0)), Outcome::Fails);
}

/// One map under `heuristic`: std's heap at `plain` on the A* and at `cached` on the A*
/// with its estimates cached, the same problems.
fn cached_map(map: &str, heuristic: HeuristicKind, plain: f64, cached: f64) -> Vec<Row> {
    use crate::search::{SearchKind, Setup};
    let name = format!("{map}/{heuristic}");
    let own = search(&name, map, heuristic, StoreKind::Flat);
    let twin = crate::lab::rows::WorkloadFacts {
        name: format!("{name}/astar-cached-h"),
        ..own.clone().with_setup(Setup { search: SearchKind::AstarCachedH, ..Setup::GRID_ASTAR })
    };
    [steadies(&own, 500.0, &[(BASELINE, plain)]), steadies(&twin, 500.0, &[(BASELINE, cached)])]
        .concat()
}

/// Rule: caching the heuristic holds where the cached A* with std's heap is faster than the
/// A* beyond the tie margin, the workloads pooled; partly where one heuristic, pooled over
/// its maps, shows the opposite; a tie fails.
#[test]
fn caching_the_heuristic() {
    use HeuristicKind::{Differential, Octile};
    let claim = factors::caching_the_heuristic;
    let maps = |octile: f64, landmarks: f64| {
        [
            cached_map("a", Octile, 100.0, octile),
            cached_map("b", Octile, 100.0, octile),
            cached_map("a", Differential(8), 200.0, landmarks),
            cached_map("b", Differential(8), 200.0, landmarks),
        ]
        .concat()
    };
    let v = decide(claim, &maps(90.0, 150.0));
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 4), "{v:#?}");
    assert!(v.summary.contains("under differential:8 0.750×"), "{}", v.summary);
    // Slower under octile, faster under the landmarks: partly.
    assert_eq!(outcome(claim, &maps(120.0, 150.0)), Outcome::Partly);
    // Within the tie margin everywhere: no gain.
    assert_eq!(outcome(claim, &maps(100.5, 201.0)), Outcome::Fails);
    // Slower everywhere.
    assert_eq!(outcome(claim, &maps(130.0, 260.0)), Outcome::Fails);
    // Without its twin, nothing is measured.
    let alone = cached_map("a", Octile, 100.0, 90.0);
    let alone: Vec<Row> = alone.into_iter().filter(|r| r.workload.ends_with("cached-h")).collect();
    assert_eq!(outcome(claim, &alone), Outcome::Unmeasured);
}

/// The unreachable-goal map: its largest component's cells.
const FLOOD_MAP: (&str, f64) = ("cave-f45-i4-256-s2", 44_462.0);

/// The unreachable-goal map's two workloads: std's heap (and `dary4-dup` at 0.8 its time)
/// flooding at `flood` ns a search having expanded `expanded` cells a search, with
/// `others` beside, and std's heap at `shortcut` ns looking the components up, the same
/// problems.
fn unreachable_map(expanded: f64, flood: f64, shortcut: f64, others: Vec<Row>) -> Vec<Row> {
    use crate::search::{SearchKind, Setup};
    let own = octile(FLOOD_MAP.0);
    let twin = crate::lab::rows::WorkloadFacts {
        name: format!("{}/astar-flood", FLOOD_MAP.0),
        ..own.clone().with_setup(Setup { search: SearchKind::AstarFlood, ..Setup::GRID_ASTAR })
    };
    let mut rows = steadies(&twin, 400.0, &[(BASELINE, flood), ("dary4-dup", 0.8 * flood)]);
    rows.iter_mut().for_each(|row| row.expansions = expanded);
    let others = others.into_iter().map(|row| Row { workload: twin.name.clone(), ..row });
    [rows, others.collect(), steadies(&own, 0.0, &[(BASELINE, shortcut)])].concat()
}

/// Rule: an unreachable goal takes A* a long time where, never told the components, it
/// expands exactly the start's component and is slower than the components lookup beyond
/// the tie margin; a cut-off queue is ranked as its bound, never dropped.
#[test]
fn unreachable_goals() {
    let claim = unreachable::unreachable_goals;
    assert_eq!(unreachable::largest_component(FLOOD_MAP.0), Some(FLOOD_MAP.1 as usize));
    let (cells, none) = (FLOOD_MAP.1, Vec::new());
    let v = decide(claim, &unreachable_map(cells, 1_000.0, 10.0, none.clone()));
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 1), "{v:#?}");
    assert!(v.summary.contains("fastest exact queue: `dary4-dup` takes 0.800×"), "{}", v.summary);
    assert!(v.details[0].contains("equal to the start's component of 44,462"), "{:#?}", v.details);
    // One cell short of the component: not every node explored.
    assert_eq!(
        outcome(claim, &unreachable_map(cells - 1.0, 1_000.0, 10.0, none.clone())),
        Outcome::Fails
    );
    // No slower than the lookup: not a long time.
    assert_eq!(outcome(claim, &unreachable_map(cells, 10.0, 10.0, none)), Outcome::Fails);
    // A queue cut off on the flood stays in the ranking as its bound.
    let flood = crate::lab::rows::WorkloadFacts { name: "x".into(), ..octile(FLOOD_MAP.0) };
    let cut = vec![cut_off(&flood, "unsorted-array-dup", 8.0)];
    let v = decide(claim, &unreachable_map(cells, 1_000.0, 10.0, cut));
    assert_eq!(v.outcome, Outcome::Holds, "{v:#?}");
    // Without its twin, nothing is measured.
    let alone: Vec<Row> = unreachable_map(cells, 1_000.0, 10.0, Vec::new())
        .into_iter()
        .filter(|r| r.workload.ends_with("astar-flood"))
        .collect();
    assert_eq!(outcome(claim, &alone), Outcome::Unmeasured);
}

/// One map under h = 0: `dary2-dk` at `start_only` on the lab's Dijkstra and at `textbook`
/// on the textbook one, the same problems; the textbook queue holds `entries` times the
/// start-only one's peak, and `inserted` is the start-only search's share of inserts.
fn textbook_map(
    map: &str,
    start_only: f64,
    textbook: f64,
    entries: f64,
    inserted: f64,
) -> Vec<Row> {
    use crate::search::{SearchKind, Setup};
    let name = format!("{map}/zero");
    let own = search(&name, map, HeuristicKind::Zero, StoreKind::Flat);
    let twin = crate::lab::rows::WorkloadFacts {
        name: format!("{name}/dijkstra-textbook"),
        ..own
            .clone()
            .with_setup(Setup { search: SearchKind::DijkstraTextbook, ..Setup::GRID_ASTAR })
    };
    let mut rows = [
        steadies(&own, 500.0, &[("dary2-dk", start_only)]),
        steadies(&twin, 500.0, &[("dary2-dk", textbook)]),
    ]
    .concat();
    for row in &mut rows {
        (row.max_frontier, row.pushes, row.decrease_keys) = if row.workload.ends_with("textbook") {
            (100.0 * entries, 1000.0, 300.0)
        } else {
            (100.0, 1000.0 * inserted, 1000.0 * (1.0 - inserted))
        };
    }
    rows
}

/// Rule: the start-only Dijkstra against the textbook one holds when it is faster beyond
/// the tie margin (pooled), its queue smaller beyond it on every pair and inserts above half
/// its key updates on every pair; a part only pooled is undecided, all three against fails.
#[test]
fn start_only_against_textbook() {
    let claim = factors::start_only_against_textbook;
    let maps = |a: f64, entries: f64, inserted: (f64, f64)| {
        [
            textbook_map("a", 100.0, a, entries, inserted.0),
            textbook_map("b", 100.0, 150.0, entries, inserted.1),
        ]
        .concat()
    };
    let v = decide(claim, &maps(150.0, 40.0, (0.9, 0.8)));
    assert_eq!((v.outcome, v.workloads), (Outcome::Holds, 2), "{v:#?}");
    assert!(v.summary.contains("85.0% of the start-only"), "{}", v.summary);
    assert!(v.summary.contains("(80.0–90.0% across 2"), "{}", v.summary);
    // Its counts are of queue-and-workload pairs, and say so.
    assert!(!v.summary.contains(" workloads"), "{}", v.summary);
    // Inserts above half pooled, not on every pair: undecided.
    assert_eq!(outcome(claim, &maps(150.0, 40.0, (0.9, 0.4))), Outcome::Undecided);
    // Slower on one map, the pooled time no longer faster, the counts still holding: partly.
    assert_eq!(outcome(claim, &maps(60.0, 40.0, (0.9, 0.8))), Outcome::Partly);
    // A queue no smaller, a time tied and inserts rare: fails.
    let none =
        [textbook_map("a", 100.0, 100.5, 1.0, 0.2), textbook_map("b", 100.0, 100.5, 1.0, 0.2)];
    assert_eq!(outcome(claim, &none.concat()), Outcome::Fails);
    // Without its twin, nothing is measured.
    let alone: Vec<Row> = textbook_map("a", 100.0, 150.0, 40.0, 0.9)
        .into_iter()
        .filter(|r| r.workload.ends_with("textbook"))
        .collect();
    assert_eq!(outcome(claim, &alone), Outcome::Unmeasured);
}

/// METHODOLOGY.md's last section, `## The claims`, as the code's claim table makes it.
fn claims_section() -> String {
    let mut text = String::from(
        "## The claims\n\n\
         Every claim the verdicts decide: its words quoted whole, where they stand (a file of \
         the source texts in `../shared/seeds/`, a work outside them, or the lab's own \
         question), what its rule compares, and the line the rule draws. Generated from \
         `CLAIMS` in `harness/src/analysis/verdicts/mod.rs`: a test fails when this list \
         differs from the code, and `PQLAB_BLESS=1 cargo test -p pqlab --lib \
         methodology_lists_every_claim` rewrites it.\n\n",
    );
    // Markdown: an asterisk is a mark unless escaped ("A\*").
    let plain = |s: &str| s.replace('*', "\\*");
    for claim in super::CLAIMS {
        text.push_str(&format!(
            "- **`{}`**: “{}” ({}).\n  - Rule: {}\n  - Holds when: {}.\n",
            claim.id,
            plain(claim.quote),
            plain(&claim.source.to_string()),
            plain(claim.asks),
            plain(claim.threshold)
        ));
    }
    text
}

/// Rule: METHODOLOGY.md ends with the claim table's list, claim for claim.
#[test]
fn methodology_lists_every_claim() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../METHODOLOGY.md");
    let text = std::fs::read_to_string(path).expect("METHODOLOGY.md");
    let start = text.find("\n## The claims\n").map_or(text.len(), |i| i + 1);
    let wanted = claims_section();
    if std::env::var_os("PQLAB_BLESS").is_some() {
        let kept = text[..start].trim_end();
        std::fs::write(path, format!("{kept}\n\n{wanted}")).expect("write METHODOLOGY.md");
        return;
    }
    assert_eq!(&text[start..], wanted, "METHODOLOGY.md's claims differ from CLAIMS");
}

/// Rule: claims are told apart by id and by quote.
#[test]
fn every_claim_has_its_own_id_and_quote() {
    let claims = super::CLAIMS;
    for (i, a) in claims.iter().enumerate() {
        for b in &claims[i + 1..] {
            assert!(a.id != b.id && a.quote != b.quote, "{} and {}", a.id, b.id);
        }
    }
}

/// Rule: each source text's quote stands in its file word for word (footnote marks, the
/// code span around "f" and the line breaks of the pure Dijkstra's list aside), where the source texts sit beside the checkout.
#[test]
fn every_quote_stands_in_its_file() {
    let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds");
    for claim in super::CLAIMS {
        let super::Source::Seed(file) = claim.source else { continue };
        let Ok(text) = std::fs::read_to_string(seeds.join(file)) else { continue };
        let mut plain = String::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("^{[") {
            plain.push_str(&rest[..i]);
            rest = rest[i..].find("]}").map_or("", |j| &rest[i + j + 2..]);
        }
        plain.push_str(rest);
        // The pure Dijkstra's list is quoted on one line, as the report prints it.
        let plain = [
            ("`f`\n\nvalue", "f value"),
            ("...\n\n1. ", "... 1. "),
            ("memory\n\n2. ", "memory 2. "),
            ("found.\n3. ", "found. 3. "),
        ]
        .iter()
        .fold(plain, |text, (from, to)| text.replace(from, to));
        let plain = without_emphasis(&plain);
        assert!(plain.contains(claim.quote), "{}: not in {file}", claim.id);
    }
}

/// `text` with each Markdown emphasis (`*bucketing*`: words between two asterisks, no
/// space inside either mark) read as its words, as the report prints a quote; a lone
/// asterisk (`A*`) stays.
fn without_emphasis(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('*') {
        let after = &rest[i + 1..];
        let words = |w: &str| w.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '-');
        match after.find('*') {
            Some(j)
                if j > 0
                    && words(&after[..j])
                    && !after.starts_with(' ')
                    && !after[..j].ends_with(' ') =>
            {
                out.push_str(&rest[..i]);
                out.push_str(&after[..j]);
                rest = &after[j + 1..];
            }
            _ => {
                out.push_str(&rest[..=i]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn emphasis_reads_as_its_words_and_a_lone_asterisk_stays() {
    assert_eq!(without_emphasis("that *bucketing* is"), "that bucketing is");
    assert_eq!(without_emphasis("A* and A* with *two words*"), "A* and A* with two words");
}

/// Rule: skip lists keyed by f are no better than sorted lists where the best skip list is
/// not faster than the best sorted array beyond the tie margin.
#[test]
fn skip_lists_no_better_than_sorted() {
    let claim = survey::skip_lists_no_better_than_sorted;
    let lists = |skip: f64| {
        at("w", 500.0, &[(BASELINE, 50.0), ("sorted-array-dup", 100.0), ("skip-list-dup", skip)])
    };
    assert_eq!(outcome(claim, &lists(101.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &lists(150.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &lists(80.0)), Outcome::Fails);
}

/// Rule: a sorted list improves on scanning on long paths where, in the largest band, the
/// best sorted array is faster than the best unsorted array beyond the tie margin; a
/// cut-off that leaves it open is undecided.
#[test]
fn sorted_lists_for_long_paths() {
    let claim = survey::sorted_lists_for_long_paths;
    let arrays = |sorted: f64| {
        let small = at(
            "s",
            20.0,
            &[(BASELINE, 50.0), ("sorted-array-dup", 100.0), ("unsorted-array-dup", 60.0)],
        );
        let large = at(
            "l",
            5000.0,
            &[(BASELINE, 50.0), ("sorted-array-dup", sorted), ("unsorted-array-dup", 100.0)],
        );
        [small, large].concat()
    };
    assert_eq!(outcome(claim, &arrays(80.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &arrays(101.0)), Outcome::Fails);
    let mut cut = at("l", 5000.0, &[(BASELINE, 100.0), ("unsorted-array-dup", 250.0)]);
    cut.push(cut_off(&octile("l"), "sorted-array-dup", 3.0));
    assert_eq!(outcome(claim, &cut), Outcome::Undecided);
}

/// Rule: HOT queues get faster as N grows where their time over the best binary heap's is
/// lower in the largest band than in the smallest, the intervals apart beyond the margin.
#[test]
fn hot_queues_faster_as_n_grows() {
    let claim = survey::hot_queues_faster_as_n_grows;
    let bands = |large: f64| {
        let small = at("s", 20.0, &[(BASELINE, 100.0), ("hot-queue-dup", 120.0)]);
        [small, at("l", 50_000.0, &[(BASELINE, 100.0), ("hot-queue-dup", large)])].concat()
    };
    assert_eq!(outcome(claim, &bands(80.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &bands(119.0)), Outcome::Fails);
    assert_eq!(outcome(claim, &bands(150.0)), Outcome::Fails);
}

/// Rule: most nodes put into OPEN are never examined where more than half the indexed
/// heap's pushes were never expanded.
#[test]
fn most_nodes_never_examined() {
    let claim = folklore::most_nodes_never_examined;
    let counted = |expansions: f64| {
        let mut rows = at("w", 500.0, &[(BASELINE, 100.0), ("dary2-dk", 100.0)]);
        for row in &mut rows {
            (row.pushes, row.expansions) = (100.0, expansions);
        }
        rows
    };
    assert_eq!(outcome(claim, &counted(40.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &counted(60.0)), Outcome::Fails);
}

/// Rule: zeroing the arrays costs where the flat array cleared every search is slower than
/// the stamped one beyond the tie margin, the same queues on the same problems.
#[test]
fn do_not_zero_arrays() {
    let claim = factors::do_not_zero_arrays;
    let stores = |cleared: f64| {
        let flat = at("m", 500.0, &[(BASELINE, 100.0)]);
        let reset = search("m-cl", "m", HeuristicKind::Octile, StoreKind::Cleared);
        [flat, steadies(&reset, 500.0, &[(BASELINE, cleared)])].concat()
    };
    assert_eq!(outcome(claim, &stores(110.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &stores(101.0)), Outcome::Fails);
}

/// Rule: under an inconsistent heuristic, already-visited cells "may need to be visited
/// again" where std's heap reopened a closed cell on one workload at least.
#[test]
fn reopenings_under_inadmissible() {
    use crate::maps::grid::Connectivity::Eight;
    use crate::results::Kind::Astar;
    let claim = super::loops::reopenings_under_inadmissible;
    let manhattan = |reopenings: f64| {
        let facts = unit_cost("a", Astar, Eight, HeuristicKind::Manhattan);
        let mut row = steady(&facts, BASELINE, 300.0, 100.0);
        (row.reopenings, row.expansions) = (reopenings, 1000.0);
        vec![row]
    };
    assert_eq!(outcome(claim, &manhattan(12.0)), Outcome::Holds);
    assert_eq!(outcome(claim, &manhattan(0.0)), Outcome::Fails);
    // A consistent heuristic alone does not answer.
    assert_eq!(outcome(claim, &at("o", 500.0, &[(BASELINE, 100.0)])), Outcome::Unmeasured);
}
