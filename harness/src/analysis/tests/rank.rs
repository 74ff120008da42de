//! `analysis::rank`: scores, contenders, `versus` and its interval, and the tie group.
//!
//! The fixtures' ratios are chosen around the tie margin, so their runs are read with no
//! execution spread (intervals from the slices alone); the spread's own rule is tested in
//! `tests::rank`.

use pqlab_queues::registry::BASELINE;

use crate::analysis::fixture::{cut_off, held, octile, sample, steadies, steady, timed};
use crate::analysis::rank::ALONE_EXECUTION_SPREAD;
use crate::analysis::rank::{rank_weighted, tie_group};
use crate::analysis::{rank, versus, Run, Versus, Workload, EXECUTION_SPREAD};
use crate::results::{Kind, Row, SampleList, Spread};
use crate::search::Series;

/// The winner's tie group on one workload.
fn group<'a>(w: &Workload<'a>) -> Vec<&'a str> {
    tie_group(&rank(&[w], |_| true)).map(|s| s.queue).collect()
}

/// The shared run's octile workloads: `small`, `middle`, `large`.
fn octile_workloads<'w, 'a>(run: &'w Run<'a>) -> Vec<&'w Workload<'a>> {
    run.workloads.iter().filter(|w| Series::OCTILE.admits(w)).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs()
}

/// Rule: a score is the geometric mean of time ÷ the fastest on each workload; the best
/// contender wins; queues not measured everywhere come after every contender.
#[test]
fn rank_scores_against_the_fastest_and_orders_contenders_first() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let standings = rank(&octile_workloads(&run), |_| true);
    let order: Vec<&str> = standings.iter().map(|s| s.queue).collect();
    // Scores: bucket (2.5, 1.025, 1) → 1.369; baseline (1.667, 1, 2) → 1.494;
    // unsorted (1, 3, 45) → 5.13; the sorted array was cut off on `large`.
    assert_eq!(order, ["bucket-queue-dup", BASELINE, "unsorted-array-dup", "sorted-array-dk"]);
    assert!(close(standings[0].score, (2.5f64 * 1.025).cbrt()));
    assert!(close(standings[1].score, (100.0f64 / 60.0 * 2.0).cbrt()));
    assert!(standings[..3].iter().all(|s| s.contends));
    assert!(standings[0].tied && standings[0].against_winner.is_none());
    // The baseline is (0.667 × 0.976 × 2)^⅓ = 1.092× the winner: outside the margin.
    let Spread { low, mid: ratio, high } = standings[1].against_winner.unwrap();
    assert!(close(ratio, (100.0 / 150.0 * 1000.0 / 1025.0 * 2.0f64).cbrt()));
    assert!(low <= ratio && ratio <= high && !standings[1].tied);
}

/// Rule: `versus` is the geometric mean of `a ÷ b` over the workloads where both were
/// measured; steady rows give an interval that is the ratio itself.
#[test]
fn versus_is_a_geometric_mean_over_shared_workloads() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let all = octile_workloads(&run);
    let v = versus(&all, "sorted-array-dk", BASELINE).unwrap();
    // `large` cut the sorted array off with bound 8: censored, "at least 8×" there.
    assert_eq!((v.n, v.censored), (3, 1));
    assert!(close(v.ratio.mid, (0.609f64 * 2.0 * 8.0).cbrt()));
    assert!(close(v.ratio.low, v.ratio.mid) && v.ratio.high.is_infinite());
    assert_eq!(v.qualifier(), "at least ");
    let back = versus(&all, BASELINE, "sorted-array-dk").unwrap();
    assert!(close(back.ratio.mid, 1.0 / v.ratio.mid) && back.ratio.low == 0.0);
    assert_eq!(back.qualifier(), "at most ");
    assert!(versus(&all, "no-such-queue", BASELINE).is_none());
}

/// Rule: `faster` and `slower` need the whole interval beyond the tie margin.
#[test]
fn versus_calls_a_difference_only_beyond_the_margin() {
    let at = |low: f64, high: f64| Versus {
        ratio: Spread { low, mid: (low * high).sqrt(), high },
        n: 1,
        censored: 0,
    };
    assert!(at(0.90, 0.97).faster() && !at(0.90, 0.97).slower());
    assert!(!at(0.90, 0.985).faster(), "0.985 × 1.02 > 1: within the margin");
    assert!(at(1.025, 1.2).slower() && !at(1.015, 1.2).slower());
    assert!(!at(0.9, 1.1).faster() && !at(0.9, 1.1).slower());
}

/// Rule: the tie group holds the winner and every contender whose interval's low end is
/// at most [`TIE_MARGIN`](crate::analysis::TIE_MARGIN): a 1.5% lead ties, 2.5% does not.
#[test]
fn the_tie_group_ends_at_the_tie_margin() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let all = octile_workloads(&run);
    assert_eq!(group(all[0]), ["unsorted-array-dup", "sorted-array-dk"], "60.9 / 60 = 1.015");
    assert_eq!(group(all[1]), [BASELINE], "1025 / 1000 = 1.025");
}

/// Rule: the interval comes from resampling rounds, paired when both queues were timed in
/// the same rounds (the same group), so a disturbance common to a round cancels.
#[test]
fn rounds_are_resampled_in_pairs_only_within_one_group() {
    let w = octile("w");
    let rounds = [100.0, 110.0, 120.0, 130.0, 140.0];
    let slower: Vec<f64> = rounds.iter().map(|ns| ns * 1.1).collect();
    let paired = vec![timed(&w, BASELINE, 50.0, &rounds), timed(&w, "dary4-dup", 50.0, &slower)];
    let run = Run::new(&paired).with_execution_spread(0.0);
    let v = versus(&[&run.workloads[0]], "dary4-dup", BASELINE).unwrap();
    // Every resample draws the same rounds for both: each median ratio is exactly 1.1.
    assert!(close(v.ratio.low, 1.1) && close(v.ratio.high, 1.1) && v.slower());
    let mut unpaired = paired.clone();
    unpaired[1].group = 1;
    let run = Run::new(&unpaired).with_execution_spread(0.0);
    let v = versus(&[&run.workloads[0]], "dary4-dup", BASELINE).unwrap();
    // Drawn apart, the medians range over 100–140 and 110–154: the interval spans 1.
    assert!(close(v.ratio.mid, 1.1) && v.ratio.low < 1.0 && v.ratio.high > 1.2, "{v:?}");
    assert!(!v.slower());
    let standings = rank(&[&run.workloads[0]], |_| true);
    assert!(standings[1].tied, "a 10% lead that rounds cannot confirm is a tie");
}

/// Rule: rows without per-round samples (schema 1) take the widest ratio of values inside
/// the quartiles: `p25 ÷ p75` to `p75 ÷ p25`.
#[test]
fn rows_without_samples_use_their_quartiles() {
    let w = octile("w");
    let quartiles = |queue: &str, p25: f64, median: f64, p75: f64| -> Row {
        let mut row = steady(&w, queue, 50.0, median);
        (row.p25_ns, row.p75_ns, row.samples_ns) = (p25, p75, SampleList::default());
        row
    };
    let rows =
        vec![quartiles(BASELINE, 90.0, 100.0, 110.0), quartiles("dary4-dup", 114.0, 120.0, 132.0)];
    let run = Run::new(&rows).with_execution_spread(0.0);
    let v = versus(&[&run.workloads[0]], "dary4-dup", BASELINE).unwrap();
    assert!(close(v.ratio.mid, 1.2));
    assert!(close(v.ratio.low, 114.0 / 110.0) && close(v.ratio.high, 132.0 / 90.0), "{v:?}");
}

/// Rule: `rank_weighted` weighs each workload's log ratio: a workload of weight 3 counts
/// three times one of weight 1.
#[test]
fn weights_scale_each_workload_in_the_geometric_mean() {
    let (a, b) = (octile("a"), octile("b"));
    let mut rows = steadies(&a, 50.0, &[(BASELINE, 100.0), ("dary4-dup", 200.0)]);
    rows.extend(steadies(&b, 5000.0, &[(BASELINE, 200.0), ("dary4-dup", 100.0)]));
    let run = Run::new(&rows).with_execution_spread(0.0);
    let (wa, wb) = (&run.workloads[0], &run.workloads[1]);
    let standings = rank_weighted(&[(wa, 1.0), (wb, 3.0)], |_| true);
    // dary4: 2^(1/4) = 1.19; the baseline: 2^(3/4) = 1.68.
    assert_eq!(standings[0].queue, "dary4-dup");
    assert!(close(standings[0].score, 2f64.powf(0.25)));
    assert!(close(standings[1].score, 2f64.powf(0.75)));
    // Unweighted, they tie exactly, and the id breaks the tie.
    let even = rank(&[wa, wb], |_| true);
    assert!(close(even[0].score, even[1].score) && even[0].queue == "dary4-dup");
}

/// Rule: a cut-off row with a measured bound is censored evidence. The queue contends,
/// its score counts the cut-off workload at `bound ×` the baseline's time (so the score is
/// a lower bound), it is ranked after every fully measured contender, and it is never the
/// winner nor tied. A cut-off without a bound (an older run's) is no evidence: the queue
/// does not contend.
#[test]
fn a_cut_off_bound_is_censored_evidence() {
    let rows = sample();
    let run = Run::new(&rows).with_execution_spread(0.0);
    let standings = rank(&octile_workloads(&run), |_| true);
    let sorted = standings.iter().find(|s| s.queue == "sorted-array-dk").unwrap();
    assert_eq!((sorted.ok, sorted.cut_off, sorted.censored, sorted.failed), (2, 1, 1, 0));
    assert!(sorted.contends && !sorted.tied, "{sorted:?}");
    let Spread { low, high, .. } = sorted.against_winner.unwrap();
    assert!(low > 1.0 && high.is_infinite(), "{sorted:?}");
    assert_eq!(standings.last().unwrap().queue, "sorted-array-dk");
    assert!(standings[0].contends && standings[0].censored == 0);
    // The bound enters the score: a larger bound, a larger lower bound.
    let score_with = |bound: f64| {
        let mut rebound = rows.clone();
        for row in rebound.iter_mut().filter(|r| r.bound.is_some()) {
            row.bound = Some(bound);
        }
        let run = Run::new(&rebound).with_execution_spread(0.0);
        let ranked = rank(&octile_workloads(&run), |_| true);
        ranked.iter().find(|s| s.queue == "sorted-array-dk").unwrap().score
    };
    assert!(score_with(100.0) > score_with(8.0) && score_with(8.0) > score_with(4.0));
    // Cut off without a bound on the only workload it appears on: no score, no contention.
    let w = octile("w");
    let mut unbounded = cut_off(&w, "sorted-array-dk", 1.5);
    unbounded.bound = None;
    let alone = vec![steady(&w, BASELINE, 50.0, 100.0), unbounded];
    let run = Run::new(&alone).with_execution_spread(0.0);
    let standings = rank(&[&run.workloads[0]], |_| true);
    assert_eq!(standings[1].queue, "sorted-array-dk");
    assert!(standings[1].score.is_nan() && !standings[1].contends);
}

/// Rule: a family cut off on a whole workload still counts there: ranked among its own
/// queues alone, the workload's reference is the smallest censored bound, so each queue's
/// bound enters its score ("at least") instead of the workload being skipped.
#[test]
fn a_family_cut_off_on_a_whole_workload_still_counts() {
    let (a, b) = (octile("a"), octile("b"));
    let mut rows = steadies(
        &a,
        100.0,
        &[(BASELINE, 100.0), ("sorted-array-dk", 150.0), ("sorted-array-dup", 200.0)],
    );
    rows.push(steady(&b, BASELINE, 100.0, 100.0));
    rows.push(cut_off(&b, "sorted-array-dk", 5.0));
    rows.push(cut_off(&b, "sorted-array-dup", 4.0));
    let run = Run::new(&rows).with_execution_spread(0.0);
    let sorted = |row: &Row| row.family == Some(pqlab_queues::Family::SortedArray);
    let standings = rank(&octile_workloads(&run), sorted);
    assert_eq!(standings.len(), 2);
    for s in &standings {
        assert!(s.contends && s.censored == 1 && !s.tied, "{s:?}");
    }
    // On a: 150 and 200 over 150; on b: 500 and 400 over the smallest bound, 400.
    assert_eq!(standings[0].queue, "sorted-array-dk");
    assert!(close(standings[0].score, (500.0f64 / 400.0).sqrt()), "{standings:?}");
    assert!(close(standings[1].score, (200.0f64 / 150.0).sqrt()), "{standings:?}");
    // On b alone the family has only bounds: the best bound leads, as a lower bound.
    let b = run.workloads.iter().find(|w| w.name == "b").unwrap();
    let only_b = rank(&[b], sorted);
    assert_eq!(only_b[0].queue, "sorted-array-dup");
    assert!(only_b[0].contends && only_b[0].censored() && !only_b[0].tied, "{only_b:?}");
}

/// Rule: `expansions_versus` compares the cells expanded where both queues were measured:
/// the geometric mean of the ratios and the largest; a cut-off says nothing of them.
#[test]
fn expansions_are_compared_where_both_were_measured() {
    let (a, b) = (octile("a"), octile("b"));
    let expanding = |workload, queue, expansions| {
        let mut row = steady(workload, queue, 100.0, 90.0);
        row.expansions = expansions;
        row
    };
    let mut rows = vec![
        expanding(&a, BASELINE, 1000.0),
        expanding(&b, BASELINE, 1000.0),
        expanding(&a, "hot-queue-dup", 1500.0),
        expanding(&b, "hot-queue-dup", 960.0),
    ];
    rows.push(cut_off(&b, "sorted-array-dk", 3.0));
    let run = Run::new(&rows).with_execution_spread(0.0);
    let all = octile_workloads(&run);
    let (mean, largest) =
        crate::analysis::rank::expansions_versus(&all, "hot-queue-dup", BASELINE).unwrap();
    assert!(close(mean, (1.5f64 * 0.96).sqrt()) && close(largest, 1.5), "{mean} {largest}");
    assert!(crate::analysis::rank::expansions_versus(&all, "sorted-array-dk", BASELINE).is_none());
}

/// Rule: a run's interval carries what varies between runs beyond its slices
/// ([`EXECUTION_SPREAD`]): on one workload two steady queues 5% apart tie, 15% apart do
/// not; over nine workloads, each 6% apart, the executions' variation averages out and the
/// lead stands.
#[test]
fn the_interval_carries_what_varies_between_runs() {
    let one = |lead: f64| {
        let w = octile("w");
        vec![steady(&w, BASELINE, 50.0, 100.0), steady(&w, "dary4-dup", 50.0, 100.0 * lead)]
    };
    for (lead, ties) in [(1.05, true), (1.15, false)] {
        let rows = one(lead);
        let run = Run::new(&rows);
        let v = versus(&[&run.workloads[0]], "dary4-dup", BASELINE).unwrap();
        assert!(close(v.ratio.mid, lead));
        let width = (v.ratio.high / v.ratio.low).ln() / 2.0;
        assert!((width / (1.96 * EXECUTION_SPREAD) - 1.0).abs() < 0.15, "{v:?}");
        assert_eq!(rank(&[&run.workloads[0]], |_| true)[1].tied, ties, "lead {lead}");
        // Read from the slices alone, both leads are beyond the margin.
        let within = Run::new(&rows).with_execution_spread(0.0);
        assert!(!rank(&[&within.workloads[0]], |_| true)[1].tied);
    }
    let rows: Vec<Row> = (0..9)
        .flat_map(|i| {
            let w = octile(&format!("w{i}"));
            [steady(&w, BASELINE, 50.0, 100.0), steady(&w, "dary4-dup", 50.0, 106.0)]
        })
        .collect();
    let run = Run::new(&rows);
    let all: Vec<&Workload<'_>> = run.workloads.iter().collect();
    assert!(versus(&all, "dary4-dup", BASELINE).unwrap().slower());
    assert!(!rank(&all, |_| true)[1].tied);
}

/// Rule: the queue alone moves more between executions than a queue inside a search
/// ([`ALONE_EXECUTION_SPREAD`] against [`EXECUTION_SPREAD`]): a 15% lead that stands in a
/// search ties at a held size, and a 30% lead stands there.
#[test]
fn the_queue_alone_takes_its_own_executions_level() {
    for (lead, ties_alone) in [(1.15, true), (1.30, false)] {
        let (search, alone) = (octile("w"), held(1e5));
        let rows: Vec<Row> = [&search, &alone]
            .into_iter()
            .flat_map(|w| {
                [steady(w, BASELINE, 50.0, 100.0), steady(w, "dary4-dup", 50.0, 100.0 * lead)]
            })
            .collect();
        let run = Run::new(&rows);
        let of = |kind: Kind| run.workloads.iter().find(|w| w.kind == kind).unwrap();
        let (s, a) = (of(Kind::Astar), of(Kind::Synthetic));
        assert_eq!(
            (s.execution_spread, a.execution_spread),
            (EXECUTION_SPREAD, ALONE_EXECUTION_SPREAD)
        );
        assert!(!rank(&[s], |_| true)[1].tied, "lead {lead} in a search");
        assert_eq!(rank(&[a], |_| true)[1].tied, ties_alone, "lead {lead} alone");
    }
}
