//! The one measuring loop: every contender of a workload timed in rounds, each round
//! visiting them in a fresh random order.
//!
//! Why not criterion's loop: criterion measures one benchmark at a time, so a disturbance
//! (another process, a frequency change) lands on all the samples of whichever queue was
//! running, and two runs rank queues differently (issue #13 measured Kendall's τ of 0.38 to
//! 0.74 between two quiet runs). Interleaving spreads a disturbance over every contender;
//! round `k` of every contender was taken within the same stretch of time, so ratios can be
//! paired round by round. The lab keeps criterion's habits: samples of many iterations,
//! a warm-up (the check pass that admits each contender: see [`interleave`]), and its own
//! statistics written as results (see `results`).

use crate::maps::generate::SplitMix64;
use std::time::Duration;

use super::clock::Stopwatch;

/// One thing timed in a workload: a queue's searches, a peer's, the oracle's, a replay,
/// or a held frontier.
pub trait Contender {
    /// One pass over the workload's unit of work (every search, every trace, or a batch
    /// of held operations); returns a checksum of what it computed, so that the work
    /// cannot be optimised away.
    fn pass(&mut self) -> u64;

    /// Moves into `into` the wall time of each search of the passes since the last call,
    /// in nanoseconds, for contenders that time their searches one by one; the others add
    /// nothing.
    fn take_latencies(&mut self, _into: &mut Vec<u64>) {}

    /// Builds the state a pass works on if [`Contender::release`] freed it: the sampler
    /// calls it before each sample, outside the clock.
    fn prepare(&mut self) {}

    /// Frees the state a pass works on (a search context, a map-sized store), to be built
    /// again by [`Contender::prepare`]; contenders without such state keep everything.
    fn release(&mut self) {}
}

/// A contender with what the sampler needs to know of it.
pub struct Entrant<'a> {
    /// The work.
    pub contender: Box<dyn Contender + 'a>,
    /// How long one pass took when it was checked (wall time).
    pub pass: Duration,
    /// Units (searches, operations) in one pass.
    pub units: u64,
    /// Whether its state is built before each sample and released after it, because the
    /// workload's contenders do not fit in memory together (see [`super::memory::Keep`]).
    pub parked: bool,
}

/// A contender's samples, nanoseconds per unit, one per round in round order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// Thread CPU time.
    pub cpu: Vec<f64>,
    /// Wall time.
    pub wall: Vec<f64>,
    /// Each search's wall time over the timed rounds, in nanoseconds (empty for contenders
    /// that do not time searches one by one).
    pub searches: Vec<u64>,
}

/// A small deterministic generator for round orders, seeded per workload so that a run's
/// orders can be reproduced.
#[derive(Clone, Debug)]
pub struct Shuffler(SplitMix64);

impl Shuffler {
    /// A generator seeded from `name`.
    pub fn for_workload(name: &str) -> Shuffler {
        Shuffler(SplitMix64::from_name(name.bytes()))
    }

    /// A uniformly random permutation of `0..n` (Fisher–Yates).
    pub fn order(&mut self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, self.0.below(i + 1));
        }
        order
    }
}

/// Times every entrant in `rounds` rounds, each round in a fresh order from `shuffler`;
/// `reps[i]` passes make entrant `i`'s sample. Returns each entrant's samples, in entrant
/// order.
///
/// There is no untimed warm-up round: every entrant comes from a check pass over the same
/// work (`lab::contest::Contest::enter`), which touched its state and its code, and the
/// other entrants' checks ran between it and its first sample as the other samples run
/// between two of its rounds. Measured before the warm-up round was dropped (16 workloads
/// at the floor of rounds, 656 contenders, `PQLAB_BUDGET=1`, another build and timing on
/// the second core, 2026-11-26): the warm-up sample over the median of rounds 2–4 had a
/// median of 1.000 (p10 0.79, p90 1.26) and the first timed round's 1.000 (0.79, 1.20), so
/// the warm-up bought nothing the check had not, at a fifth of every sample at the floor.
pub fn interleave(
    entrants: &mut [Entrant<'_>],
    reps: &[u32],
    rounds: u32,
    shuffler: &mut Shuffler,
) -> Vec<Samples> {
    let mut samples = vec![Samples::default(); entrants.len()];
    let mut checksum = 0u64;
    for _ in 0..rounds {
        for i in shuffler.order(entrants.len()) {
            let entrant = &mut entrants[i];
            entrant.contender.prepare();
            let watch = Stopwatch::start();
            for _ in 0..reps[i] {
                checksum = checksum.wrapping_add(entrant.contender.pass());
            }
            let elapsed = watch.elapsed();
            if entrant.parked {
                entrant.contender.release();
            }
            let units = (f64::from(reps[i]) * entrant.units.max(1) as f64).max(1.0);
            samples[i].cpu.push(elapsed.cpu / units);
            samples[i].wall.push(elapsed.wall / units);
            entrant.contender.take_latencies(&mut samples[i].searches);
        }
    }
    std::hint::black_box(checksum);
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Spin(u64);

    impl Contender for Spin {
        fn pass(&mut self) -> u64 {
            (0..self.0).fold(1u64, |x, i| std::hint::black_box(x.wrapping_mul(31).wrapping_add(i)))
        }
    }

    #[test]
    fn every_entrant_gets_one_sample_per_round_in_its_own_units() {
        let mut entrants: Vec<Entrant<'_>> = [(1_000, 10), (50_000, 1)]
            .into_iter()
            .map(|(work, units)| Entrant {
                contender: Box::new(Spin(work)),
                pass: Duration::from_micros(100),
                units,
                parked: false,
            })
            .collect();
        let samples = interleave(&mut entrants, &[2, 1], 5, &mut Shuffler::for_workload("t"));
        assert_eq!(samples.len(), 2);
        for s in &samples {
            assert_eq!((s.cpu.len(), s.wall.len()), (5, 5));
            assert!(s.cpu.iter().all(|&ns| ns > 0.0));
        }
    }

    /// Counts its passes.
    struct Counting(std::rc::Rc<std::cell::Cell<u32>>);

    impl Contender for Counting {
        fn pass(&mut self) -> u64 {
            self.0.set(self.0.get() + 1);
            1
        }
    }

    #[test]
    fn every_pass_is_timed_with_no_warm_up_round() {
        let count = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut entrants = vec![Entrant {
            contender: Box::new(Counting(count.clone())),
            pass: Duration::from_micros(1),
            units: 1,
            parked: false,
        }];
        let samples = interleave(&mut entrants, &[3], 4, &mut Shuffler::for_workload("c"));
        assert_eq!(samples[0].cpu.len(), 4);
        assert_eq!(count.get(), 12, "4 rounds of 3 passes, nothing untimed");
    }

    /// A contender whose pass needs its state built: it counts builds and releases, and a
    /// pass without state fails the test.
    struct Stateful {
        state: Option<u64>,
        log: std::rc::Rc<std::cell::RefCell<(u32, u32)>>,
    }

    impl Contender for Stateful {
        fn pass(&mut self) -> u64 {
            self.state.expect("a pass runs on built state")
        }

        fn prepare(&mut self) {
            if self.state.is_none() {
                self.state = Some(7);
                self.log.borrow_mut().0 += 1;
            }
        }

        fn release(&mut self) {
            self.state = None;
            self.log.borrow_mut().1 += 1;
        }
    }

    #[test]
    fn a_parked_contender_is_built_for_each_sample_and_a_kept_one_never_released() {
        let logs: Vec<std::rc::Rc<std::cell::RefCell<(u32, u32)>>> =
            (0..2).map(|_| Default::default()).collect();
        let mut entrants: Vec<Entrant<'_>> = logs
            .iter()
            .enumerate()
            .map(|(i, log)| Entrant {
                contender: Box::new(Stateful { state: (i == 0).then_some(7), log: log.clone() }),
                pass: Duration::from_micros(1),
                units: 1,
                parked: i == 1,
            })
            .collect();
        let samples = interleave(&mut entrants, &[3, 3], 4, &mut Shuffler::for_workload("p"));
        assert!(samples.iter().all(|s| s.cpu.len() == 4));
        // Kept: built once (by its check), never built or released by the sampler.
        assert_eq!(*logs[0].borrow(), (0, 0));
        // Parked: built and released once per timed sample.
        assert_eq!(*logs[1].borrow(), (4, 4));
    }

    #[test]
    fn orders_are_permutations_and_reproducible() {
        let (mut a, mut b) = (Shuffler::for_workload("w"), Shuffler::for_workload("w"));
        for _ in 0..20 {
            let order = a.order(7);
            assert_eq!(order, b.order(7));
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..7).collect::<Vec<_>>());
        }
        let orders: std::collections::BTreeSet<_> = (0..50).map(|_| a.order(4)).collect();
        assert!(orders.len() > 10, "orders hardly vary: {orders:?}");
    }
}
