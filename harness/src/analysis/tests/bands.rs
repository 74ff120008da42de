//! `analysis::bands`: the bands, which workloads answer for a band, its ranking, and
//! when its answer is weak.
//!
//! The fixtures' ratios are chosen around the tie margin, so their runs are read with no
//! execution spread (intervals from the slices alone); the spread's own rule is tested in
//! `tests::rank`.

use pqlab_queues::registry::BASELINE;

use crate::analysis::bands::{any_keys, evidence, exact, Eligible};
use crate::analysis::fixture::{octile, oracle, sample, steadies};
use crate::analysis::{Band, Findings, Run};
use crate::maps::grid::CostScale;
use crate::results::Kind;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::Series;

/// Rule: the bands cover every size exactly once, with readable labels.
#[test]
fn bands_cover_every_size_once_with_readable_labels() {
    let labels: Vec<String> = Band::all().map(|b| b.label()).collect();
    assert_eq!(labels[0], "<30");
    assert_eq!(labels[4], "1k–3k");
    assert_eq!(labels.last().unwrap(), "≥10M");
    for size in [0.0, 29.9, 30.0, 999.0, 1000.0, 1e9] {
        assert_eq!(Band::all().filter(|b| b.contains(size)).count(), 1, "{size}");
        assert!(Band::of(size).contains(size), "{size}");
    }
}

/// Rule, step 1: a band is answered by the series' A* workloads in it; other
/// searches (here Dijkstra at 5,000) do not count, and neither do held sizes in a band a
/// search reached (20 open cells: the held size 20 is not asked).
#[test]
fn a_band_is_answered_by_the_selections_searches_in_it() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let small = evidence(&run, &Series::OCTILE, Band::of(20.0)).unwrap();
    assert_eq!((small.kind, small.band), (Kind::Astar, Band::of(20.0)));
    assert_eq!(small.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), ["small"]);
    let found = evidence(&run, &dijkstra(), Band::of(5000.0)).unwrap();
    assert_eq!(found.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), ["dijkstra"]);
}

/// The Dijkstra series of the sample.
fn dijkstra() -> Series {
    Series {
        setup: crate::search::Setup::GRID_ASTAR,
        heuristic: HeuristicKind::Zero,
        scale: CostScale::FINE,
        store: StoreKind::Flat,
    }
}

/// Rule, step 2: a band no octile search reached is answered by the held sizes in it,
/// and says so; held sizes never answer for a series they do not model (Dijkstra).
#[test]
fn held_sizes_answer_only_for_octile_and_only_where_no_search_reached() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let big = evidence(&run, &Series::OCTILE, Band::of(300_000.0)).unwrap();
    assert_eq!((big.kind, big.band), (Kind::Synthetic, Band::of(300_000.0)));
    assert_eq!(big.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), ["held-300000"]);
    let not_held = evidence(&run, &dijkstra(), Band::of(300_000.0)).unwrap();
    assert_eq!(not_held.kind, Kind::Astar, "Dijkstra is never answered by held sizes");
    assert_eq!(not_held.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), ["dijkstra"]);
}

/// Rule, step 3: a band neither searched nor held is answered by the nearest band the
/// series' searches reached, named as the evidence's band (the smaller one when two are as
/// near); a series with no search and no held size has no answer.
#[test]
fn the_nearest_searched_band_answers_and_is_named() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let between = evidence(&run, &Series::OCTILE, Band::of(5000.0)).unwrap();
    assert_eq!((between.kind, between.band), (Kind::Astar, Band::of(1500.0)));
    let beyond = evidence(&run, &Series::OCTILE, Band::of(3e6)).unwrap();
    assert_eq!((beyond.kind, beyond.band), (Kind::Astar, Band::of(50_000.0)));
    let far = evidence(&run, &dijkstra(), Band::of(20.0)).unwrap();
    assert_eq!(far.band, Band::of(5000.0));
    let coarse = Series { scale: CostScale::COARSE, ..Series::OCTILE };
    assert!(evidence(&run, &coarse, Band::of(300_000.0)).is_none(), "no coarse search, no held");
}

/// Findings rank each set of workloads once: a second ask returns the same ranking, and
/// a band table leaves out bands that a nearer band answers.
#[test]
fn findings_rank_once_and_band_tables_hold_only_answered_bands() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let findings = Findings::of(&run);
    let small: Vec<_> = run.workloads.iter().filter(|w| w.name == "small").collect();
    let first = findings.rank(&small, Eligible::Exact);
    assert!(std::rc::Rc::ptr_eq(&first, &findings.rank(&small, Eligible::Exact)));
    assert!(!std::rc::Rc::ptr_eq(&first, &findings.rank(&small, Eligible::Any)));
    let labels: Vec<String> = findings
        .bands(&Series::OCTILE, Eligible::Exact)
        .iter()
        .map(|b| b.evidence.band.label())
        .collect();
    assert_eq!(labels, ["<30", "1k–3k", "30k–100k", "100k–1M"]);
}

/// Rule: each band ranks its evidence: winner, tie group, runner-up and the queues cut off.
#[test]
fn band_winners_tie_groups_and_cut_offs() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let ranked = Findings::of(&run).bands(&Series::OCTILE, Eligible::Any);
    let summary: Vec<(String, &str, Vec<&str>)> = ranked
        .iter()
        .map(|b| {
            let group = b.tie_group().iter().map(|s| s.queue).collect();
            (b.evidence.band.label(), b.winner().unwrap().queue, group)
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("<30".to_owned(), "unsorted-array-dup", vec!["unsorted-array-dup", "sorted-array-dk"]),
            ("1k–3k".to_owned(), BASELINE, vec![BASELINE]),
            ("30k–100k".to_owned(), "bucket-queue-dup", vec!["bucket-queue-dup"]),
            ("100k–1M".to_owned(), "bucket-queue-dup", vec!["bucket-queue-dup"]),
        ]
    );
    assert_eq!(ranked[2].cut_off().collect::<Vec<_>>(), ["sorted-array-dk"]);
}

/// Rule: fewer than [`STRONG`](crate::analysis::bands::STRONG) (3) workloads make a band's answer weak.
#[test]
fn a_band_is_weak_below_three_workloads() {
    let mut rows = Vec::new();
    for (i, size) in [1200.0, 1500.0, 2500.0].into_iter().enumerate() {
        let w = octile(&format!("w{i}"));
        rows.extend(steadies(&w, size, &[(BASELINE, 100.0), ("dary4-dup", 90.0)]));
        let run = Run::new(&rows).with_execution_spread(0.0);
        let band = evidence(&run, &Series::OCTILE, Band::of(size)).unwrap();
        assert_eq!(band.workloads.len(), i + 1);
        assert_eq!(band.weak(), i + 1 < 3, "{} workloads", i + 1);
    }
}

/// Rule: `exact` admits the registry's exact queues (not soft heaps, not peers);
/// `any_keys` also needs the key rule `Any` (not a bucket queue).
#[test]
fn eligibility_follows_the_registry_facts() {
    let w = octile("w");
    let rows = steadies(
        &w,
        50.0,
        &[
            (BASELINE, 1.0),
            ("bucket-queue-dup", 1.0),
            ("soft-heap-e8-dup", 1.0),
            ("pathfinding-astar", 1.0),
        ],
    );
    let admitted = |f: fn(&crate::results::Row) -> bool| -> Vec<&str> {
        rows.iter().filter(|r| f(r)).map(|r| r.queue.as_str()).collect()
    };
    assert_eq!(admitted(exact), [BASELINE, "bucket-queue-dup"]);
    assert_eq!(admitted(any_keys), [BASELINE]);
}

/// Rule: a queue's share of the search is 1 − the oracle floor's time ÷ its own, a weighted
/// geometric mean over the workloads with an oracle row, with an interval that collapses on
/// steady rows; a workload without an oracle row is counted and left out, never guessed.
#[test]
fn the_frontier_share_is_one_minus_the_oracle_over_the_queue() {
    let mut rows = sample();
    rows.extend([oracle("small", 20.0, 50.0), oracle("middle", 1500.0, 600.0)]);
    let run = Run::new(&rows).with_execution_spread(0.0);
    let findings = Findings::of(&run);
    let named = |name: &str| run.of(Kind::Astar).find(|w| w.name == name).unwrap();
    let (small, middle, large) = (named("small"), named("middle"), named("large"));
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    // std: 100 and 1,000 ns against the oracle's 50 and 600.
    let std = findings.frontier_share(&[(small, 1.0), (middle, 1.0), (large, 1.0)], BASELINE);
    let std = std.unwrap();
    let expected = 1.0 - (0.5f64 * 0.6).sqrt();
    assert!(close(std.share.mid, expected), "{std:?}");
    assert!(close(std.share.low, expected) && close(std.share.high, expected), "{std:?}");
    assert_eq!((std.workloads, std.without_oracle), (2, 1));
    // Weighted 3 to 1: the unsorted array takes 60 and 3,000 ns.
    let weighted = findings.frontier_share(&[(small, 3.0), (middle, 1.0)], "unsorted-array-dup");
    let expected = 1.0 - ((3.0 * (50.0f64 / 60.0).ln() + (600.0f64 / 3000.0).ln()) / 4.0).exp();
    assert!(close(weighted.unwrap().share.mid, expected), "{weighted:?}");
    assert_eq!(findings.frontier_share(&[(large, 1.0)], BASELINE), None);
}
