//! `analysis::bands`: the bands, which workloads answer for a band, its ranking, and
//! when its answer is weak.

use pqlab_queues::registry::BASELINE;

use crate::analysis::bands::{any_keys, bands, evidence, exact};
use crate::analysis::fixture::{octile, sample, steadies};
use crate::analysis::{Band, Run, Selection};
use crate::maps::grid::CostScale;
use crate::results::Kind;
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;

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

/// Rule: a band is answered by the selection's A* workloads in it; other searches (here
/// Dijkstra at 5,000) and held sizes in a band a search reached do not count.
#[test]
fn a_band_is_answered_by_the_selections_searches_in_it() {
    let rows = sample();
    let run = Run::new(&rows);
    let small = evidence(&run, &Selection::OCTILE, Band::of(20.0)).unwrap();
    assert_eq!(small.kind, Kind::Astar);
    assert_eq!(small.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), ["small"]);
    assert!(evidence(&run, &Selection::OCTILE, Band::of(5000.0)).is_none());
    let dijkstra = Selection {
        setup: crate::search::Setup::GRID_ASTAR,
        heuristic: HeuristicKind::Zero,
        scale: CostScale::FINE,
        store: StoreKind::Flat,
    };
    let found = evidence(&run, &dijkstra, Band::of(5000.0)).unwrap();
    assert_eq!(found.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), ["dijkstra"]);
}

/// Rule: a band no search of the selection reached is answered by the held sizes in it,
/// and says so; a band neither reached has no answer.
#[test]
fn held_sizes_answer_only_where_no_search_reached() {
    let rows = sample();
    let run = Run::new(&rows);
    let big = evidence(&run, &Selection::OCTILE, Band::of(300_000.0)).unwrap();
    assert_eq!(big.kind, Kind::Synthetic);
    assert_eq!(big.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), ["held-300000"]);
    assert!(evidence(&run, &Selection::OCTILE, Band::of(3e6)).is_none());
}

/// Rule: each band ranks its evidence: winner, tie group, runner-up and the queues cut off.
#[test]
fn band_winners_tie_groups_and_cut_offs() {
    let rows = sample();
    let run = Run::new(&rows);
    let ranked = bands(&run, &Selection::OCTILE, |_| true);
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
        let run = Run::new(&rows);
        let band = evidence(&run, &Selection::OCTILE, Band::of(size)).unwrap();
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
