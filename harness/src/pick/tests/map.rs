//! `pick::map`: a map answered from the runs' evidence, from each source, left out or not.

use pqlab_queues::registry::{self, BASELINE};

use anyhow::Result;

use crate::analysis::bands::Band;
use crate::analysis::fixture::{search, steadies};
use crate::lab::rows::WorkloadFacts;
use crate::maps::grid::{Grid, Terrain};
use crate::maps::instance::Instance;
use crate::pick::frontier::{FrontierSizes, MapSurvey};
use crate::pick::map::*;
use crate::pick::Query;
use crate::results::{Row, Sizes};
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;

/// The Moving AI dao map `name`'s octile workload.
fn dao(name: &str) -> WorkloadFacts {
    let map = format!("movingai/dao/{name}");
    WorkloadFacts {
        map_kind: "movingai-dao".into(),
        real: true,
        ..search(&format!("{map}/octile/fine/flat"), &map, HeuristicKind::Octile, StoreKind::Flat)
    }
}

/// Dao maps `a`, `b` and `c` and a generated rooms map, all at 1,500 open cells, with
/// `fastest[i]`'s queues at half the others' time on each, in that order.
fn rows_where(fastest: [&[&str]; 4]) -> Vec<Row> {
    let times = |fast: &[&str]| -> Vec<(&'static str, f64)> {
        [BASELINE, "bucket-queue-dup", "sorted-array-dk", "unsorted-array-dup"]
            .into_iter()
            .map(|q| (q, if fast.contains(&q) { 500.0 } else { 1000.0 }))
            .collect()
    };
    let rooms = search(
        "rooms-r8-128-s1/octile/fine/flat",
        "rooms-r8-128-s1",
        HeuristicKind::Octile,
        StoreKind::Flat,
    );
    let workloads = [dao("a"), dao("b"), dao("c"), rooms];
    workloads.iter().zip(fastest).flat_map(|(w, fast)| steadies(w, 1500.0, &times(fast))).collect()
}

/// Three dao maps, `bucket-queue-dup` fastest on `a` and `sorted-array-dk` on `b` and
/// `c`; a generated rooms map in the same band, where `unsorted-array-dup` is.
fn rows() -> Vec<Row> {
    rows_where([
        &["bucket-queue-dup"],
        &["sorted-array-dk"],
        &["sorted-array-dk"],
        &["unsorted-array-dup"],
    ])
}

/// Dao map `a` as `pick --map` sees it: the map, and its searches' profile at 1,500
/// open cells.
fn map_a() -> (Instance, MapSurvey) {
    let instance = Instance {
        name: "movingai/dao/a".into(),
        kind: "movingai-dao".into(),
        real: true,
        grid: Grid::from_fn(1, 1, |_, _| Terrain::Ground),
        problems: Vec::new(),
        scenario: None,
    };
    let survey = MapSurvey {
        sizes: FrontierSizes {
            map: instance.name.clone(),
            searches: 1,
            open: Sizes::of(&[1500.0]),
            held: Sizes::of(&[1500.0]),
            bands: Vec::new(),
        },
        weights: vec![(Band::of(1500.0), 1.0)],
        wrong: Vec::new(),
        beyond: Vec::new(),
    };
    (instance, survey)
}

/// `pick --map` on dao map `a` from the run of `rows`, asked as `asking` says: the
/// source used, the winner, the workloads behind it and the caveats.
fn ask(rows: Vec<Row>, asking: Asking) -> Result<(EvidenceSource, String, Vec<String>, String)> {
    ask_runs(&[rows], asking)
}

/// [`ask`] from several runs, oldest first.
fn ask_runs(
    runs: &[Vec<Row>],
    asking: Asking,
) -> Result<(EvidenceSource, String, Vec<String>, String)> {
    let (instance, survey) = map_a();
    let query = Query::unflagged();
    let map = std::path::Path::new("a.map");
    let (answer, source) = from_runs(runs, &query, map, &instance, &survey, Vec::new(), asking)?;
    let behind =
        answer.backing.iter().flat_map(|b| b.workloads.iter().map(|w| w.0.clone())).collect();
    Ok((source, answer.ranking[0].queue.clone(), behind, answer.caveats.join(" ")))
}

/// In sample, the map answers from its own rows; left out, from the other maps of its
/// kind, or from the generated bands when asked, never from a row of its own.
#[test]
fn a_map_left_out_is_answered_from_the_others_only() {
    let (source, winner, behind, _) = ask(rows(), Asking::default()).unwrap();
    assert_eq!((source, winner.as_str()), (EvidenceSource::ThisMap, "bucket-queue-dup"));
    assert_eq!(behind, ["movingai/dao/a/octile/fine/flat"]);
    let left_out = Asking { leave_out: true, source: None };
    let (source, winner, behind, _) = ask(rows(), left_out).unwrap();
    assert_eq!((source, winner.as_str()), (EvidenceSource::Kind, "sorted-array-dk"));
    assert_eq!(behind, ["movingai/dao/b/octile/fine/flat", "movingai/dao/c/octile/fine/flat"]);
    let bands = Asking { leave_out: true, source: Some(EvidenceSource::Bands) };
    // The latest run's band: the rooms map and the two other dao maps, not `a`.
    let (source, winner, behind, caveats) = ask(rows(), bands).unwrap();
    assert_eq!((source, winner.as_str()), (EvidenceSource::Bands, "sorted-array-dk"));
    assert!(behind.iter().any(|w| w.starts_with("rooms-")), "{behind:?}");
    assert!(!behind.iter().any(|w| w.starts_with("movingai/dao/a/")), "{behind:?}");
    // The bands' transfer is checked on the two other maps alone.
    assert!(caveats.contains("on the 2 real maps of run"), "{caveats}");
    let own = Asking { leave_out: true, source: Some(EvidenceSource::ThisMap) };
    let error = ask(rows(), own).unwrap_err().to_string();
    assert!(error.contains("cannot be answered from its own rows"), "{error}");
}

/// The bands answer from the run their transfer was checked on, the latest with real
/// maps, not from a later run without any whose bands name another queue: the error the
/// answer states is its own; `--measure` times both runs' band winners.
#[test]
fn the_bands_answer_from_the_run_their_transfer_was_checked_on() {
    let later: Vec<Row> = rows_where([&[], &[], &[], &["bucket-queue-dup"]])
        .into_iter()
        .filter(|r| !r.real)
        .collect();
    let bands = Asking { leave_out: true, source: Some(EvidenceSource::Bands) };
    let (_, winner, behind, caveats) = ask_runs(&[rows(), later.clone()], bands).unwrap();
    assert_eq!(winner, "sorted-array-dk");
    assert!(behind.iter().any(|w| w.starts_with("movingai/dao/b/")), "{behind:?}");
    assert!(caveats.contains("on the 2 real maps of run"), "{caveats}");
    // `--measure` still times the later run's band winner.
    let (instance, survey) = map_a();
    let (query, map) = (Query::unflagged(), std::path::Path::new("a.map"));
    let others: Vec<Row> = rows().into_iter().filter(|r| r.map != instance.name).collect();
    let runs = [others, later.clone()];
    let (answer, _) =
        from_runs(&runs, &query, map, &instance, &survey, Vec::new(), Asking::default()).unwrap();
    let chosen = candidates(&runs, &query, map, &instance, &survey, &answer);
    assert!(chosen.contains(&"bucket-queue-dup".to_owned()), "{chosen:?}");
    // Alone, the later run answers from its own bands, and says their transfer is unknown.
    let (_, winner, _, caveats) = ask_runs(&[later], bands).unwrap();
    assert_eq!(winner, "bucket-queue-dup");
    assert!(caveats.contains("No run here measured real maps"), "{caveats}");
}

/// The bands answer from the map's own terrain: weighted terrain in the band, where
/// `bucket-queue-dup` is fastest on three rugged maps and would lead the band of every
/// terrain, does not answer for an obstacle grid; a weighted map answers from it alone.
#[test]
fn the_bands_answer_from_the_maps_own_terrain() {
    let mut run = rows();
    for seed in 1..=3 {
        let name = format!("rugged-h30-512-s{seed}");
        let rugged = search(
            &format!("{name}/octile/fine/flat"),
            &name,
            HeuristicKind::Octile,
            StoreKind::Flat,
        );
        let times = [
            (BASELINE, 1000.0),
            ("bucket-queue-dup", 500.0),
            ("sorted-array-dk", 1000.0),
            ("unsorted-array-dup", 1000.0),
        ];
        run.extend(steadies(&rugged, 1500.0, &times));
    }
    let bands = Asking { leave_out: true, source: Some(EvidenceSource::Bands) };
    let (_, winner, behind, _) = ask(run.clone(), bands).unwrap();
    assert_eq!(winner, "sorted-array-dk");
    assert!(!behind.iter().any(|w| w.starts_with("rugged-")), "{behind:?}");
    let (mut instance, survey) = map_a();
    instance.grid = instance.grid.with_weights(|_, _| 3);
    let (query, map) = (Query::unflagged(), std::path::Path::new("a.map"));
    let runs = [run];
    let (answer, _) = from_runs(&runs, &query, map, &instance, &survey, Vec::new(), bands).unwrap();
    assert_eq!(answer.ranking[0].queue, "bucket-queue-dup");
}

/// A source named without evidence is an error that says which, never another answer.
#[test]
fn a_source_without_evidence_is_refused() {
    let generated: Vec<Row> = rows().into_iter().filter(|r| !r.real).collect();
    let kind = Asking { leave_out: false, source: Some(EvidenceSource::Kind) };
    let error = ask(generated.clone(), kind).unwrap_err().to_string();
    assert!(error.contains("no run measured maps of its kind (movingai-dao)"), "{error}");
    let (source, winner, ..) = ask(generated, Asking::default()).unwrap();
    assert_eq!((source, winner.as_str()), (EvidenceSource::Bands, "unsorted-array-dup"));
}

/// `--measure` times the winner of every source with evidence for the map (this map's
/// `bucket-queue-dup`, its kind's and the bands' `sorted-array-dk`), the answer's first,
/// any queue whose interval reaches within 1.15× of a winner (`unsorted-array-dup`, 1.19×
/// the band's winner over its four workloads, an interval down to about 1.14×), and no
/// queue twice as slow as a winner everywhere (the baseline).
#[test]
fn measure_candidates_hold_every_sources_winner() {
    let (instance, survey) = map_a();
    let (query, map) = (Query::unflagged(), std::path::Path::new("a.map"));
    let runs = [rows()];
    let answer = |asking| from_runs(&runs, &query, map, &instance, &survey, Vec::new(), asking);
    let (own, _) = answer(Asking::default()).unwrap();
    let chosen = candidates(&runs, &query, map, &instance, &survey, &own);
    assert_eq!(chosen, ["bucket-queue-dup", "sorted-array-dk", "unsorted-array-dup"]);
    // Left out, the answer is the kind's, and the map's own winner is not evidence.
    let (kind, _) = answer(Asking { leave_out: true, source: None }).unwrap();
    let others: Vec<Row> = rows().into_iter().filter(|r| r.map != instance.name).collect();
    let chosen = candidates(&[others], &query, map, &instance, &survey, &kind);
    assert_eq!(chosen, ["sorted-array-dk"]);
}

/// Left out, a map answers from the generated bands when they predicted the maps of its
/// kind better than the kind's other maps did: here the two other dao maps disagree (each
/// predicts the other wrongly), while the bands, where both queues tie, name one right.
#[test]
fn the_bands_answer_where_they_transfer_better_than_the_kind() {
    let rows = rows_where([
        &["unsorted-array-dup"],
        &["sorted-array-dk"],
        &["bucket-queue-dup"],
        &["bucket-queue-dup", "sorted-array-dk"],
    ]);
    let left_out = Asking { leave_out: true, source: None };
    let (source, _, behind, caveats) = ask(rows.clone(), left_out).unwrap();
    assert_eq!(source, EvidenceSource::Bands, "{caveats}");
    assert!(behind.iter().any(|w| w.starts_with("rooms-")), "{behind:?}");
    assert!(caveats.contains("not from the maps of its kind (movingai-dao)"), "{caveats}");
    assert!(caveats.contains("50% of the time and the kind's other maps 0%"), "{caveats}");
    // Named, the kind still answers.
    let kind = Asking { leave_out: true, source: Some(EvidenceSource::Kind) };
    assert_eq!(ask(rows, kind).unwrap().0, EvidenceSource::Kind);
}

/// Left out, as often in the tie group (here never), the source whose named queues were
/// closer to the measured winners answers: each other dao map names a queue 1.4 and 1.6
/// times the other's winner, the generated rooms map one 1.25 times both.
#[test]
fn as_often_right_the_source_closer_to_the_winners_answers() {
    let queues = [BASELINE, "bucket-queue-dup", "sorted-array-dk", "unsorted-array-dup"];
    let on = |w: &WorkloadFacts, times: [f64; 4]| {
        let times: Vec<(&str, f64)> = queues.into_iter().zip(times).collect();
        steadies(w, 1500.0, &times)
    };
    let rooms = search(
        "rooms-r8-128-s1/octile/fine/flat",
        "rooms-r8-128-s1",
        HeuristicKind::Octile,
        StoreKind::Flat,
    );
    let mut rows = on(&dao("a"), [1000.0, 500.0, 1000.0, 1000.0]);
    rows.extend(on(&dao("b"), [1000.0, 500.0, 700.0, 625.0]));
    rows.extend(on(&dao("c"), [1000.0, 800.0, 500.0, 625.0]));
    rows.extend(on(&rooms, [1000.0, 1000.0, 1000.0, 500.0]));
    let left_out = Asking { leave_out: true, source: None };
    let (source, winner, _, caveats) = ask(rows.clone(), left_out).unwrap();
    assert_eq!((source, winner.as_str()), (EvidenceSource::Bands, "unsorted-array-dup"));
    assert!(caveats.contains("0% of the time and the kind's other maps 0%"), "{caveats}");
    assert!(caveats.contains("taking 1.25× and 1.50×"), "{caveats}");
    // The kind alone would have named `sorted-array-dk`.
    let kind = Asking { leave_out: true, source: Some(EvidenceSource::Kind) };
    assert_eq!(ask(rows, kind).unwrap().1, "sorted-array-dk");
}

/// Queues with no row on the evidence are said to be untimed there, never silently
/// missing from the ranking; evidence that tried every queue says nothing.
#[test]
fn queues_never_timed_on_the_evidence_are_said() {
    let (.., caveats) = ask(rows(), Asking::default()).unwrap();
    let said = format!(
        "{} of the {} registered queues were not timed on these workloads",
        registry::ENTRIES.len() - 4,
        registry::ENTRIES.len()
    );
    assert!(caveats.contains(&said), "{caveats}");
    let every: Vec<(&str, f64)> = registry::ENTRIES.iter().map(|e| (e.id, 1000.0)).collect();
    let (.., caveats) = ask(steadies(&dao("a"), 1500.0, &every), Asking::default()).unwrap();
    assert!(!caveats.contains("were not timed on these workloads"), "{caveats}");
}
