//! `analysis::noise`: the sentinel's drift and spread, and when they trouble a run.

use crate::analysis::fixture::{sample, sentinel, sentinel_rounds};
use crate::analysis::noise::noise;
use crate::analysis::Run;
use crate::results::{Kind, Status};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Rule: drift is the interquartile ratio (`p75 / p25 - 1`) of the sentinel medians after
/// the first (a warm-up, left out when there are more than two); spread is the median
/// over the sentinels of `p75 / p25 - 1`. Only measured sentinel rows count.
#[test]
fn drift_and_spread_come_from_the_measured_sentinels() {
    let mut rows = sample();
    let mut stopped = sentinel(500.0);
    stopped.status = Status::CutOff;
    rows.push(stopped);
    let n = noise(&Run::new(&rows)).unwrap();
    assert_eq!(n.measurements, 3);
    // The warm medians 110 and 105: quartiles 106.25 and 108.75.
    assert!(close(n.drift, 108.75 / 106.25 - 1.0), "{n:?}");
    assert!(close(n.spread, 1.01 / 0.99 - 1.0), "{n:?}");
    assert!(!n.troubling());
    assert!(n.sentence().starts_with("This run was quiet"), "{}", n.sentence());
    rows.retain(|r| r.kind != Kind::Sentinel);
    assert!(noise(&Run::new(&rows)).is_none(), "no sentinel, no verdict");
}

/// Rule: a run is troubling when the drift exceeds [`TROUBLING_DRIFT`](crate::analysis::noise::TROUBLING_DRIFT) (20%) or the
/// median spread exceeds twice the tie margin (4%); not before. A cold first sentinel,
/// however slow, is a warm-up and does not count.
#[test]
fn noise_troubles_past_its_drift_or_spread_threshold() {
    // Warm medians 100, 100, top, top: quartiles 100 and top.
    let drifted = |first: f64, top: f64| {
        let medians = [first, 100.0, 100.0, top, top];
        noise(&Run::new(&medians.map(sentinel))).unwrap()
    };
    assert!(!drifted(100.0, 119.0).troubling() && drifted(100.0, 121.0).troubling());
    assert!(!drifted(300.0, 100.0).troubling(), "a cold first sentinel is a warm-up");
    // Two of three sentinels with rounds `h` either side of 100: spread 2h / (100 - h).
    let spread = |h: f64| {
        let wide = || sentinel_rounds(&[100.0 - h, 100.0 - h, 100.0, 100.0 + h, 100.0 + h]);
        noise(&Run::new(&[sentinel(100.0), wide(), wide()])).unwrap()
    };
    // 3.8 / 98.1 = 3.9%; 4.2 / 97.9 = 4.3%.
    let (quiet, noisy) = (spread(1.9), spread(2.1));
    assert!(!quiet.troubling() && noisy.troubling(), "{quiet:?} {noisy:?}");
    assert!(noisy.sentence().starts_with("This run was noisy"), "{}", noisy.sentence());
}
