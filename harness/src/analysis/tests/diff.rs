//! `analysis::diff`: two runs compared, workload by workload and band by band.
//!
//! The fixtures' ratios are chosen around the tie margin, so their runs are read with no
//! execution spread (intervals from the slices alone); the spread's own rule is tested in
//! `tests::rank`.

use pqlab_queues::registry::BASELINE;

use crate::analysis::bands::series;
use crate::analysis::diff::diff;
use crate::analysis::fixture::sample;
use crate::analysis::{Findings, Run};
use crate::results::Row;
use crate::search::Series;

/// The shared run again as run `B`, with `middle` changed: the unsorted and sorted arrays
/// swap times (3,000 and 2,000), and the bucket queue (990) now leads the baseline (1,000)
/// by 1%, inside the tie margin.
fn second_run() -> Vec<Row> {
    let mut rows = sample();
    for row in &mut rows {
        row.run = "B".into();
        let ns = match (row.workload.as_str(), row.queue.as_str()) {
            ("middle", "unsorted-array-dup") => 2000.0,
            ("middle", "sorted-array-dk") => 3000.0,
            ("middle", "bucket-queue-dup") => 990.0,
            _ => continue,
        };
        row.set_samples(&[ns; 5], &[ns; 5]);
    }
    rows
}

/// Rule: τ counts the pairs apart in either run; a winner "crosses" when it is in the
/// other run's tie group. On `middle`: the baseline and the bucket queue are within 5% in
/// both runs (not counted); of the other five pairs the two arrays swapped: τ = 3/5. A's
/// winner (the baseline) ties in B; B's (the bucket queue, 2.5% behind in A) does not.
#[test]
fn workloads_compare_by_tau_and_tie_groups() {
    let (rows_a, rows_b) = (sample(), second_run());
    let (a, b) = (
        Run::new(&rows_a).with_execution_spread(0.0),
        Run::new(&rows_b).with_execution_spread(0.0),
    );
    let d = diff(&Findings::of(&a), &Findings::of(&b));
    assert_eq!(d.runs, (crate::analysis::fixture::RUN.to_owned(), "B".to_owned()));
    let middle = d.workloads.iter().find(|w| w.name == "middle").unwrap();
    assert_eq!((middle.tau, middle.pairs), (Some(0.6), 5));
    assert_eq!(middle.winners, (BASELINE.to_owned(), "bucket-queue-dup".to_owned()));
    assert_eq!(middle.crossed, (true, false));
    assert_eq!(d.min_tau(), Some(0.6));
    // The others order their queues alike; τ is given where five or more pairs are apart.
    for w in d.workloads.iter().filter(|w| w.name != "middle") {
        let expected = (w.pairs >= crate::analysis::diff::TAU_PAIRS).then_some(1.0);
        assert_eq!(w.tau, expected, "{}", w.name);
        assert_eq!(w.crossed, (true, true), "{}", w.name);
    }
    // The sentinel is not a workload to compare; the two held sizes and the four
    // searches are.
    assert_eq!(d.workloads.len(), 6);
}

/// Rule: bands compare like workloads, per series; a band both runs answer with held
/// sizes is compared once, under the octile series.
#[test]
fn bands_agree_when_each_winner_ties_in_the_other_run() {
    let (rows_a, rows_b) = (sample(), second_run());
    let (a, b) = (
        Run::new(&rows_a).with_execution_spread(0.0),
        Run::new(&rows_b).with_execution_spread(0.0),
    );
    assert_eq!(series(&a)[0], Series::OCTILE);
    assert_eq!(series(&a).len(), 2, "octile and Dijkstra");
    let d = diff(&Findings::of(&a), &Findings::of(&b));
    let bands: Vec<(&str, &str, (bool, bool))> =
        d.bands.iter().map(|b| (b.band.as_str(), b.series.as_str(), b.crossed)).collect();
    let octile = Series::OCTILE.describe();
    let dijkstra = series(&a)[1].describe();
    assert_eq!(
        bands,
        [
            ("<30", octile.as_str(), (true, true)),
            ("1k–3k", octile.as_str(), (true, false)),
            ("30k–100k", octile.as_str(), (true, true)),
            ("100k–1M", octile.as_str(), (true, true)),
            ("3k–10k", dijkstra.as_str(), (true, true)),
        ]
    );
    assert_eq!(d.bands_agreeing(), (4, 5));
    assert_eq!(d.verdicts.len(), crate::analysis::verdicts::CLAIMS.len());
}

/// Rule: a claim one run could not tell ("not measured", or "undecided") against one the
/// other told is neither a difference nor an agreement: it leaves the count; an undecided
/// one is counted apart.
#[test]
fn a_claim_one_run_could_not_tell_is_not_a_difference() {
    use crate::analysis::verdicts::Outcome;
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    for (other, open) in [(Outcome::Unmeasured, 0), (Outcome::Undecided, 1)] {
        let mut d = diff(&Findings::of(&run), &Findings::of(&run));
        let (same, told) = d.verdicts_agreeing();
        assert_eq!(d.verdicts_open(), 0);
        let claim =
            d.verdicts.iter_mut().find(|(_, a, _)| *a == Outcome::Holds).expect("a claim holds");
        claim.2 = other;
        assert_eq!(d.verdicts_agreeing(), (same - 1, told - 1), "{other}");
        assert_eq!(d.verdicts_open(), open, "{other}");
    }
}

/// Rule: a run compared with itself agrees everywhere: τ = 1, every winner crosses, every
/// verdict matches.
#[test]
fn a_run_agrees_with_itself() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let d = diff(&Findings::of(&run), &Findings::of(&run));
    let given = |w: &crate::analysis::diff::WorkloadDiff| {
        w.tau == (w.pairs >= crate::analysis::diff::TAU_PAIRS).then_some(1.0)
    };
    assert!(d.workloads.iter().all(|w| given(w) && w.crossed == (true, true)));
    assert!(d.workloads.iter().any(|w| w.tau.is_some()));
    assert_eq!(d.bands_agreeing(), (d.bands.len(), d.bands.len()));
    let (same, compared) = d.verdicts_agreeing();
    assert_eq!(same, compared);
    assert!(compared > 0);
}

/// Rule: the leaders' moves are counted by part, and a move is covered when the two runs'
/// intervals allow it. Run B has `middle`'s bucket queue 1% faster (within the executions
/// level: covered) and `held`'s leader 40% slower (beyond it: not covered); the queues
/// more than 15% behind in both runs are not leaders.
#[test]
fn the_leaders_moves_are_counted_by_part_and_covered_by_the_intervals() {
    use crate::analysis::diff::{parts, workload_leaders};
    use crate::analysis::fixture::{held, octile, steadies};
    let run = |id: &str, bucket: f64, held_leader: f64| {
        let mut rows = steadies(
            &octile("middle"),
            500.0,
            &[(BASELINE, 1000.0), ("bucket-queue-dup", bucket), ("sorted-array-dk", 3000.0)],
        );
        rows.extend(steadies(
            &held(1e5),
            1e5,
            &[(BASELINE, 100.0), ("radix-heap-dup", held_leader), ("skip-list-dk", 400.0)],
        ));
        rows.iter_mut().for_each(|r| r.run = id.into());
        rows
    };
    let (rows_a, rows_b) = (run("A", 1000.0, 50.0), run("B", 990.0, 70.0));
    let parts = parts(&workload_leaders(&Run::new(&rows_a), &Run::new(&rows_b)));
    let found: Vec<(&str, bool, usize, usize)> =
        parts.iter().map(|p| (p.part.as_str(), p.alone, p.pairs, p.covered)).collect();
    // The held size's move adds up to more, so it comes first.
    assert_eq!(
        found,
        [("the queue alone at held sizes", true, 1, 0), ("octile A*, fine costs", false, 1, 1)]
    );
    assert!((parts[0].median - 1.4).abs() < 1e-9, "{:?}", parts[0]);
}

/// Rule: the regime sets each workload's leaders' median move against the baseline's own
/// move. Run B measured three workloads while the baseline took 10%, 20% and 30% longer
/// than in A, and the leader there slowed a third more than it on a log scale (as the
/// committed runs' leaders do in slow periods): a correlation of 1 and a slope of 1/3.
#[test]
fn the_regime_says_how_far_the_leaders_follow_the_machines_speed() {
    use crate::analysis::diff::{regime, workload_leaders};
    use crate::analysis::fixture::{octile, steadies};
    let run = |id: &str, slower: [f64; 3]| {
        let mut rows: Vec<Row> = slower
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                let w = octile(&format!("w{i}"));
                let queue = 500.0 * s.powf(4.0 / 3.0);
                steadies(&w, 500.0, &[(BASELINE, 1000.0 * s), ("bucket-queue-dup", queue)])
            })
            .collect();
        rows.iter_mut().for_each(|r| r.run = id.into());
        rows
    };
    let (rows_a, rows_b) = (run("A", [1.0; 3]), run("B", [1.1, 1.2, 1.3]));
    let r = regime(&workload_leaders(&Run::new(&rows_a), &Run::new(&rows_b))).unwrap();
    assert_eq!(r.workloads, 3);
    assert!((r.correlation - 1.0).abs() < 1e-9 && (r.slope - 1.0 / 3.0).abs() < 1e-9, "{r:?}");
    // Leaders that kept their ratio to the baseline leave no regime to tell.
    let same = run("B", [1.0; 3]);
    assert_eq!(regime(&workload_leaders(&Run::new(&rows_a), &Run::new(&same))), None);
}

/// Rule: a CPU that runs every queue 10% faster against the baseline shifts each workload
/// as a whole: the shift is 10% with one sign everywhere, and removing it leaves the
/// leaders unmoved. Two CPUs are told apart by family and model, not by the model name;
/// a run that recorded no family cannot be told apart from one of the same name.
#[test]
fn a_cpu_shifts_every_workload_and_the_shift_is_told_from_the_leaders() {
    use crate::results::platform::Platform;
    let cpu = |family| Platform {
        model_name: "AMD EPYC".into(),
        vendor: Some("AuthenticAMD".into()),
        family: Some(family),
        model: Some(1),
        ..Platform::default()
    };
    let mut rows_a = sample();
    let mut rows_b = sample();
    for row in &mut rows_a {
        row.set_platform(&cpu(25));
    }
    for row in &mut rows_b {
        row.run = "B".into();
        row.set_platform(&cpu(26));
        if row.queue != BASELINE {
            let ns = row.median_ns * 0.9;
            row.set_samples(&[ns; 5], &[ns; 5]);
        }
    }
    let (a, b) = (
        Run::new(&rows_a).with_execution_spread(0.0),
        Run::new(&rows_b).with_execution_spread(0.0),
    );
    let d = diff(&Findings::of(&a), &Findings::of(&b));
    assert_eq!(d.other_cpus(), Some(true));
    let shift = d.shift.expect("workloads compared");
    assert!((shift.median - 1.0 / 0.9).abs() < 1e-9, "{shift:?}");
    assert_eq!(shift.one_sign, 1.0);
    assert!((shift.leaders_without.1 - 1.0).abs() < 1e-9, "{shift:?}");
    // The same CPU: no shift, and the runs are on one CPU.
    let same = diff(&Findings::of(&a), &Findings::of(&a));
    assert_eq!(same.other_cpus(), Some(false));
    assert!((same.shift.unwrap().median - 1.0).abs() < 1e-12);
    // One run without its family: it cannot be told.
    let old = sample();
    let unknown = Run::new(&old).with_execution_spread(0.0);
    let mut named = rows_a.clone();
    for row in &mut named {
        row.cpu = old[0].cpu.clone();
    }
    let named = Run::new(&named).with_execution_spread(0.0);
    assert_eq!(diff(&Findings::of(&unknown), &Findings::of(&named)).other_cpus(), None);
}
