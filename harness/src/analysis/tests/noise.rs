//! `analysis::noise`: the sentinel's drift, the samples' spread, the reference slices' slow
//! periods, and when they make a run quiet, busy or noisy.

use crate::analysis::fixture::{octile, sample, sentinel, timed};
use crate::analysis::noise::{noise, Calm, RESIDUAL_LIMIT};
use crate::analysis::{Run, EXECUTION_SPREAD};
use crate::results::{Kind, Row, SampleList, Status};
use pqlab_queues::registry::BASELINE;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Rule: drift is `p90 / p10 - 1` of the sentinel medians after the first (a warm-up, left
/// out when there are more than two); spread is the median over the timed rows of `p75 /
/// p25 - 1` of their samples. Only measured sentinel rows count.
#[test]
fn drift_comes_from_the_warm_sentinels_and_spread_from_the_timed_rows() {
    let mut rows = sample();
    let mut stopped = sentinel(500.0);
    stopped.status = Status::CutOff;
    rows.push(stopped);
    let n = noise(&Run::new(&rows)).unwrap();
    assert_eq!(n.measurements, 3);
    // The warm medians 110 and 105: the 10th and 90th percentiles 105.5 and 109.5.
    assert!(close(n.drift, 109.5 / 105.5 - 1.0), "{n:?}");
    // Every timed row of the fixture is steady.
    assert!(close(n.spread, 0.0), "{n:?}");
    assert_eq!((n.paired, n.calm()), (None, Calm::Quiet));
    assert!(n.sentence().starts_with("This run was quiet"), "{}", n.sentence());
    rows.retain(|r| r.kind != Kind::Sentinel);
    assert!(noise(&Run::new(&rows)).is_none(), "no sentinel, no verdict");
}

/// Sentinels at `medians`, beside one timed row per spread in `spreads` (rounds `1 ± h`).
fn run(medians: &[f64], spreads: &[f64]) -> Vec<Row> {
    let mut rows: Vec<Row> = medians.iter().map(|&m| sentinel(m)).collect();
    for (i, &h) in spreads.iter().enumerate() {
        let w = octile(&format!("w{i}"));
        rows.push(timed(&w, BASELINE, 100.0, &[100.0 - h, 100.0 - h, 100.0, 100.0 + h, 100.0 + h]));
    }
    rows
}

/// Rule: a run not timed in pairs is noisy when the drift exceeds 20% or the median spread
/// exceeds twice the tie margin (4%); not before. A cold first sentinel, however slow, is a
/// warm-up and does not count.
#[test]
fn an_unpaired_run_is_noisy_past_its_drift_or_spread_threshold() {
    // Warm medians 100 (five times) and top (five times): p10 100, p90 top.
    let drifted = |first: f64, top: f64| {
        let mut medians = vec![first];
        medians.extend([100.0; 5]);
        medians.extend([top; 5]);
        noise(&Run::new(&run(&medians, &[1.0]))).unwrap()
    };
    assert!(!drifted(100.0, 119.0).troubling() && drifted(100.0, 121.0).troubling());
    assert!(!drifted(300.0, 100.0).troubling(), "a cold first sentinel is a warm-up");
    // Rows with rounds `h` either side of 100: spread 2h / (100 - h).
    let spread = |h: f64| noise(&Run::new(&run(&[100.0; 3], &[h, h, h]))).unwrap();
    // 3.8 / 98.1 = 3.9%; 4.2 / 97.9 = 4.3%.
    let (quiet, noisy) = (spread(1.9), spread(2.1));
    assert!(!quiet.troubling() && noisy.troubling(), "{quiet:?} {noisy:?}");
    assert!(noisy.sentence().starts_with("This run was noisy"), "{}", noisy.sentence());
}

/// Rule: in a paired run, slow periods (more than 5% of reference slices over 15% above
/// their workload's fast level) or raw slices spread beyond 4% make the run busy while the
/// paired samples spread at most 4%, and noisy beyond; none of these, quiet.
#[test]
fn a_paired_run_whose_samples_stayed_tight_is_busy_not_noisy() {
    let with = |slow_slices: usize, raw_h: f64, paired_h: f64| {
        let mut rows = run(&[100.0; 4], &[paired_h, paired_h, paired_h]);
        for row in rows.iter_mut().filter(|r| r.kind == Kind::Astar) {
            let mut reference = vec![100.0; 40];
            reference.iter_mut().take(slow_slices).for_each(|s| *s = 135.0);
            row.reference_ns = SampleList(reference);
            row.raw_samples_ns =
                SampleList(vec![100.0 - raw_h, 100.0 - raw_h, 100.0, 100.0 + raw_h, 100.0 + raw_h]);
        }
        noise(&Run::new(&rows)).unwrap()
    };
    let quiet = with(1, 1.0, 1.0);
    assert_eq!(quiet.calm(), Calm::Quiet, "{quiet:?}");
    assert!(quiet.sentence().starts_with("This run was quiet"), "{}", quiet.sentence());
    // 12 of 40 reference slices slow: 30% of the time in slow periods.
    let busy = with(12, 1.0, 1.0);
    assert!(close(busy.paired.unwrap().slow, 0.3), "{busy:?}");
    assert_eq!(busy.calm(), Calm::Busy);
    assert!(!busy.troubling());
    assert!(busy.sentence().starts_with("This run met a busy machine"), "{}", busy.sentence());
    // The raw slices spread 10% though the reference shows no slow period: busy too.
    assert_eq!(with(0, 5.0, 1.0).calm(), Calm::Busy);
    // The paired samples themselves spread beyond 4%: noisy, whatever else.
    assert_eq!(with(12, 5.0, 3.0).calm(), Calm::Noisy);
    assert!(with(0, 1.0, 3.0).troubling());
}

/// Rule: what the pairing leaves (the interquartile range of the reference's own slices
/// each over its neighbours) beyond [`RESIDUAL_LIMIT`] makes a run noisy, whatever its
/// samples' spread (which two rounds cannot show): slow periods that last several slices
/// cancel, a speed that changes from one slice to the next does not.
#[test]
fn what_the_pairing_leaves_decides_between_busy_and_noisy() {
    let with = |reference: Vec<f64>| noise(&Run::new(&referenced(reference))).unwrap();
    // Slow periods ten slices long, 35% slower: a third of the slices are slow, yet the
    // paired ratios stay at 1 but at the switches.
    let periods: Vec<f64> =
        (0..60).map(|i| if (i / 10) % 3 == 0 { 135.0 } else { 100.0 }).collect();
    let busy = with(periods);
    assert!(busy.paired.unwrap().residual.unwrap() < RESIDUAL_LIMIT, "{busy:?}");
    assert_eq!(busy.calm(), Calm::Busy, "{busy:?}");
    // The speed changes every slice or two: the pairing cannot cancel it.
    let flicker: Vec<f64> =
        (0..60).map(|i| if (i * 7 / 3) % 2 == 0 { 135.0 } else { 100.0 }).collect();
    let noisy = with(flicker);
    assert!(noisy.paired.unwrap().residual.unwrap() > RESIDUAL_LIMIT, "{noisy:?}");
    assert_eq!(noisy.calm(), Calm::Noisy);
    assert!(noisy.sentence().contains("left"), "{}", noisy.sentence());
}

/// A calm run whose searches carry `reference` as their reference slices.
fn referenced(reference: Vec<f64>) -> Vec<Row> {
    let mut rows = run(&[100.0; 4], &[1.0, 1.0, 1.0]);
    for row in rows.iter_mut().filter(|r| r.kind == Kind::Astar) {
        row.reference_ns = SampleList(reference.clone());
    }
    rows
}

/// A run that saw more slice noise than the fixed execution spread widens its own
/// intervals by it; a run whose pairing cancelled the slow periods keeps the fixed spread.
#[test]
fn a_noisy_run_promises_no_more_than_it_saw() {
    let spread = |reference: Vec<f64>| {
        let rows = referenced(reference);
        let run = Run::new(&rows);
        assert!(run
            .workloads
            .iter()
            .all(|w| w.execution_spread == run.workloads[0].execution_spread));
        run.workloads[0].execution_spread
    };
    let periods = (0..60).map(|i| if (i / 10) % 3 == 0 { 135.0 } else { 100.0 }).collect();
    assert_eq!(spread(periods), EXECUTION_SPREAD);
    let flicker: Vec<f64> =
        (0..60).map(|i| if (i * 7 / 3) % 2 == 0 { 135.0 } else { 100.0 }).collect();
    let wide = spread(flicker);
    // The paired ratios swing between 1.35 and 1 / 1.35: far beyond the fixed 4.5%.
    assert!(wide > 0.1 && wide < 0.3, "{wide}");
}

/// Rule: the level spread is `ln(p90 / p10) / 2.563` of the warm sentinel medians (none
/// with fewer than three), and it widens a comparison across two workloads, never one
/// within a workload.
#[test]
fn the_level_spread_widens_comparisons_across_workloads_alone() {
    use crate::analysis::noise::level_spread;
    use crate::analysis::rank::{versus, versus_across};
    // A cold sentinel, then warm ones at 10 and 15: the machine's speed moved 1.5×.
    let mut rows = run(&[30.0, 10.0, 10.0, 15.0, 10.0, 15.0], &[]);
    let spread = level_spread(&rows).expect("five warm measurements");
    assert!(close(spread, (15.0f64 / 10.0).ln() / 2.563), "{spread}");
    assert!(level_spread(&run(&[30.0, 10.0, 15.0], &[])).is_none(), "two warm measurements");
    // Two workloads, std and the radix heap steady on each.
    for name in ["a", "b"] {
        let w = octile(name);
        rows.push(timed(&w, BASELINE, 100.0, &[99.0, 99.5, 100.0, 100.5, 101.0]));
        rows.push(timed(&w, "radix-heap-dup", 80.0, &[79.0, 79.5, 80.0, 80.5, 81.0]));
    }
    let calm: Vec<Row> = rows.iter().filter(|r| r.kind != Kind::Sentinel).cloned().collect();
    let width = |rows: &[Row], across: bool| {
        let run = Run::new(rows);
        let (a, b) = (
            run.workloads.iter().find(|w| w.name.starts_with('a')).unwrap(),
            run.workloads.iter().find(|w| w.name.starts_with('b')).unwrap(),
        );
        let v = if across {
            versus_across(&[(a.timing(BASELINE).unwrap(), b.timing(BASELINE).unwrap())], "a", "b")
        } else {
            versus(&[a], BASELINE, "radix-heap-dup")
        }
        .unwrap();
        v.ratio.high / v.ratio.low
    };
    assert!(width(&rows, true) > 1.2 * width(&calm, true), "across two workloads: wider");
    assert!(close(width(&rows, false), width(&calm, false)), "within one: the same");
}
