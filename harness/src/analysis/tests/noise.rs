//! `analysis::noise`: the sentinel's drift and spread, and when they trouble a run.

use crate::analysis::fixture::{sample, sentinel, sentinel_rounds};
use crate::analysis::noise::noise;
use crate::analysis::Run;
use crate::results::{Kind, Status};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Rule: drift is the slowest sentinel median over the fastest, minus one; spread is the
/// median over the sentinels of `p75 / p25 - 1`. Only measured sentinel rows count.
#[test]
fn drift_and_spread_come_from_the_measured_sentinels() {
    let mut rows = sample();
    let mut stopped = sentinel(500.0);
    stopped.status = Status::CutOff;
    rows.push(stopped);
    let n = noise(&Run::new(&rows)).unwrap();
    assert_eq!(n.measurements, 3);
    assert!(close(n.drift, 110.0 / 100.0 - 1.0), "{n:?}");
    assert!(close(n.spread, 1.01 / 0.99 - 1.0), "{n:?}");
    assert!(!n.troubling());
    assert!(n.sentence().starts_with("This run was quiet"), "{}", n.sentence());
    rows.retain(|r| r.kind != Kind::Sentinel);
    assert!(noise(&Run::new(&rows)).is_none(), "no sentinel, no verdict");
}

/// Rule: a run is troubling when the drift exceeds [`TROUBLING_DRIFT`](crate::analysis::noise::TROUBLING_DRIFT) (25%) or the
/// median spread exceeds twice the tie margin (4%); not before.
#[test]
fn noise_troubles_past_its_drift_or_spread_threshold() {
    let drifted = |top: f64| noise(&Run::new(&[sentinel(100.0), sentinel(top)])).unwrap();
    assert!(!drifted(124.0).troubling() && drifted(126.0).troubling());
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
