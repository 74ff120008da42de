//! The one measuring loop: every contender of a workload timed in rounds, each round
//! visiting them in a fresh random order, in short slices paired with a reference.
//!
//! Why not criterion's loop: criterion measures one benchmark at a time, so a disturbance
//! (another process, a frequency change) lands on all the samples of whichever queue was
//! running. Interleaving spreads it over every contender, but not evenly: on a shared
//! machine the speed changes in slow periods of seconds (the sentinel of a default run in
//! two clusters 35% apart), which hit some contenders of a round and not others, and a
//! median of four or five rounds does not average that out. So a contest with a
//! *reference* (the baseline, see [`Field::reference`]) times it between every
//! [`REFERENCE_EVERY`] contender slices, and each slice counts as its time ÷ the
//! reference timed just before and just after it (their geometric mean): a change of speed
//! that lasts longer than a bracket cancels in the ratio. A bracket whose two reference
//! slices differ by more than [`JUMP`] saw the speed change inside it: its slices are
//! timed again later in the round rather than averaged in. This is the paired, finely
//! interleaved design of rebar and of Kalibera and Jones (*Rigorous Benchmarking in
//! Reasonable Time*, ISMM 2013: repeat at the level where the variation is largest); see
//! `METHODOLOGY.md`.
//!
//! The reference carries every ratio of its workload, so its state's place in memory is a
//! level of variation too: a place can be slow for as long as the workload is measured,
//! and the whole workload's answers then move with it. Each slice runs on its
//! contender's state built anew ([`Contender::renew`]), so a figure is a median over
//! placements, the reference's level over dozens.
//!
//! The lab keeps criterion's habits: samples of many iterations, a warm-up (the check pass
//! that admits each contender: see [`Field::interleave`]), and its own statistics written
//! as results (see `results`).

use std::collections::VecDeque;
use std::time::Duration;

use crate::rng::SplitMix64;

use super::clock::{Clock, Reading};

/// Contender slices between two slices of the reference: the reference's share of a round
/// is one slice in `REFERENCE_EVERY + 1`. The rule: the bracket (the slices between two
/// reference slices) must be short against the machine's slow periods of seconds, and the
/// reference must not take more of the budget than the round of the fourth contender it
/// replaced (the floor went from four rounds to three, with brackets of three: the same
/// cost).
pub const REFERENCE_EVERY: usize = 3;

/// How far apart the two reference slices of a bracket may be before its slices are
/// timed again: 15%. The rule: far beyond the 2% that rounds spread on a quiet machine,
/// well within the 35% between the two speeds of a machine with slow periods; at 10% a
/// neighbour compiling on both cores made most brackets of a 1024² map jump.
pub const JUMP: f64 = 1.15;

/// The most times a contender's slice of a round is timed: when the brackets of the first
/// `TRIES - 1` all saw the speed change (each counts in [`Slices::retimed`]), the last is
/// kept as it is. The rule: a speed that changes inside three brackets running changes
/// faster than a slice can be paired, and a slice then is still evidence (the median over
/// rounds takes the rest); a neighbour compiling on both cores re-timed 5% of one default
/// workload's slices and up to 3 a slice on the generic A\*'s 1024² map.
pub const TRIES: u32 = 3;

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

    /// Builds the state a pass works on (a search context, a map-sized store) anew,
    /// elsewhere in memory, the old one dropped: the sampler calls it before each slice,
    /// outside the clock, so that a contender's slices run on as many placements of its
    /// state and no one placement's luck decides its figure. Contenders without such state
    /// keep theirs.
    fn renew(&mut self) {}

    /// Frees the state a pass works on, to be built again by [`Contender::renew`];
    /// contenders without such state keep everything.
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
    /// Whether its state is released after each slice (and so held only while it is
    /// timed), because the workload's contenders do not fit in memory together (see
    /// [`super::memory::Keep`]).
    pub parked: bool,
}

/// What the sampler timed of one entrant so far, per unit of work, in time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slices {
    /// Each kept slice's thread CPU time, nanoseconds per unit.
    pub cpu: Vec<f64>,
    /// Each kept slice's wall time, nanoseconds per unit.
    pub wall: Vec<f64>,
    /// Each kept slice's CPU time ÷ its bracket's reference time (both per unit), when the
    /// contest has a reference; empty otherwise.
    pub ratios: Vec<f64>,
    /// Each search's wall time over the kept slices, in nanoseconds (empty for contenders
    /// that do not time searches one by one).
    pub searches: Vec<u64>,
    /// Slices set aside because their bracket's reference moved by more than [`JUMP`]:
    /// each is timed again later in the round, up to [`TRIES`] times in all.
    pub retimed: u32,
    /// For the reference: each of its reference slices' CPU time, nanoseconds per unit,
    /// in time order (empty for the others).
    pub reference: Vec<f64>,
}

/// The contenders of a contest as the sampler times them.
pub struct Field<'a> {
    /// The contenders, in the order of entry.
    pub entrants: Vec<Entrant<'a>>,
    /// Passes per slice of each entrant.
    pub reps: Vec<u32>,
    /// Whether each is still timed (a raced-out contender is not: see
    /// `Contest::race`).
    pub active: Vec<bool>,
    /// The entrant timed between every [`REFERENCE_EVERY`] slices, whose brackets every
    /// slice's ratio is taken against (it is also timed as a contender, in the order like
    /// the others); `None` times each contender once a round with no reference.
    pub reference: Option<usize>,
}

impl Field<'_> {
    /// The reference, where there is one and anything else to time against it (a contest
    /// of one entrant is timed without brackets).
    pub fn referenced(&self) -> Option<usize> {
        self.reference.filter(|_| self.entrants.len() > 1)
    }

    /// Times `rounds` rounds, each visiting the active entrants in a fresh order from
    /// `shuffler`, reading `clock`; adds each entrant's slices to `into` (in entrant
    /// order). O(rounds × active) slices, plus a reference slice every
    /// [`REFERENCE_EVERY`] and a slice again for each bracket that jumped (a contender's
    /// slice is timed at most [`TRIES`] times a round).
    ///
    /// There is no untimed warm-up round: every entrant comes from a check pass over the
    /// same work (`lab::contest::Contest::enter`), which touched its state and its code,
    /// and the other entrants' checks ran between it and its first slice as the other
    /// slices run between two of its rounds. Measured before the warm-up round was dropped
    /// (656 contenders at the floor of rounds): the warm-up sample over the median of
    /// rounds 2–4 had a median of 1.000 (p10 0.79, p90 1.26) and the first timed round's
    /// 1.000 (0.79, 1.20).
    pub fn interleave(
        &mut self,
        rounds: u32,
        shuffler: &mut Shuffler,
        clock: &dyn Clock,
        into: &mut [Slices],
    ) {
        let mut checksum = 0u64;
        for _ in 0..rounds {
            let order: Vec<usize> = shuffler
                .order(self.entrants.len())
                .into_iter()
                .filter(|&i| self.active[i])
                .collect();
            match self.referenced() {
                Some(reference) => self.bracketed(&order, reference, clock, into, &mut checksum),
                None => {
                    for i in order {
                        let (time, searches) = self.slice(i, clock, &mut checksum);
                        into[i].cpu.push(time.cpu);
                        into[i].wall.push(time.wall);
                        into[i].searches.extend(searches);
                    }
                }
            }
        }
        std::hint::black_box(checksum);
    }

    /// One round of `order` in brackets of [`REFERENCE_EVERY`] slices between slices of
    /// the `reference`.
    fn bracketed(
        &mut self,
        order: &[usize],
        reference: usize,
        clock: &dyn Clock,
        into: &mut [Slices],
        checksum: &mut u64,
    ) {
        // (entrant, the times its slice of this round was timed already)
        let mut queue: VecDeque<(usize, u32)> = order.iter().map(|&i| (i, 0)).collect();
        let mut before = self.slice(reference, clock, checksum).0.cpu;
        into[reference].reference.push(before);
        while !queue.is_empty() {
            let bracket: Vec<(usize, u32)> =
                queue.drain(..REFERENCE_EVERY.min(queue.len())).collect();
            let timed: Vec<(Reading, Vec<u64>)> =
                bracket.iter().map(|&(i, _)| self.slice(i, clock, checksum)).collect();
            let after = self.slice(reference, clock, checksum).0.cpu;
            into[reference].reference.push(after);
            let jumped = before.max(after) > JUMP * before.min(after);
            let level = (before * after).sqrt();
            for (&(i, tries), (time, searches)) in bracket.iter().zip(timed) {
                if jumped && tries + 1 < TRIES {
                    into[i].retimed += 1;
                    queue.push_back((i, tries + 1));
                    continue;
                }
                into[i].cpu.push(time.cpu);
                into[i].wall.push(time.wall);
                into[i].ratios.push(time.cpu / level);
                into[i].searches.extend(searches);
            }
            before = after;
        }
    }

    /// Times one slice of entrant `i` (its state built anew first, outside the clock, and
    /// released after when it is parked): its time per unit and the wall times of its
    /// searches.
    fn slice(&mut self, i: usize, clock: &dyn Clock, checksum: &mut u64) -> (Reading, Vec<u64>) {
        let entrant = &mut self.entrants[i];
        entrant.contender.renew();
        let start = clock.read();
        for _ in 0..self.reps[i] {
            *checksum = checksum.wrapping_add(entrant.contender.pass());
        }
        let elapsed = clock.read() - start;
        if entrant.parked {
            entrant.contender.release();
        }
        let units = (f64::from(self.reps[i]) * entrant.units.max(1) as f64).max(1.0);
        let mut searches = Vec::new();
        entrant.contender.take_latencies(&mut searches);
        (Reading { cpu: elapsed.cpu / units, wall: elapsed.wall / units }, searches)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::clock::ThreadClock;
    use crate::lab::sim::{Machine, SimClock, Work};

    /// Times `entrants`, `reps` passes a slice, for `rounds` rounds with `reference`.
    fn interleave(
        entrants: Vec<Entrant<'_>>,
        reps: &[u32],
        rounds: u32,
        reference: Option<usize>,
        clock: &dyn Clock,
    ) -> Vec<Slices> {
        let n = entrants.len();
        let mut field = Field { entrants, reps: reps.to_vec(), active: vec![true; n], reference };
        let mut slices = vec![Slices::default(); n];
        field.interleave(rounds, &mut Shuffler::for_workload("t"), clock, &mut slices);
        slices
    }

    struct Spin(u64);

    impl Contender for Spin {
        fn pass(&mut self) -> u64 {
            (0..self.0).fold(1u64, |x, i| std::hint::black_box(x.wrapping_mul(31).wrapping_add(i)))
        }
    }

    #[test]
    fn every_entrant_gets_one_sample_per_round_in_its_own_units() {
        let entrants: Vec<Entrant<'_>> = [(1_000, 10), (50_000, 1)]
            .into_iter()
            .map(|(work, units)| Entrant {
                contender: Box::new(Spin(work)),
                pass: Duration::from_micros(100),
                units,
                parked: false,
            })
            .collect();
        let samples = interleave(entrants, &[2, 1], 5, None, &ThreadClock::new());
        assert_eq!(samples.len(), 2);
        for s in &samples {
            assert_eq!((s.cpu.len(), s.wall.len(), s.ratios.len()), (5, 5, 0));
            assert!(s.cpu.iter().all(|&ns| ns > 0.0));
        }
    }

    #[test]
    fn with_a_reference_each_slice_is_paired_with_the_reference_around_it() {
        // On a steady machine: contenders of 1, 2 and 3 µs a pass against a 2 µs
        // reference, one pass a slice; 4 rounds of 3 contender slices (the reference is
        // one of them) in one bracket each, so 2 reference slices a round.
        let machine = Machine::steady();
        let entrants: Vec<Entrant<'_>> = [2_000.0, 1_000.0, 3_000.0]
            .into_iter()
            .map(|cost| {
                let check = crate::lab::sim::check(&machine, cost);
                Entrant { contender: check.contender, pass: check.pass, units: 1, parked: false }
            })
            .collect();
        let slices = interleave(entrants, &[1, 1, 1], 4, Some(0), &SimClock(machine));
        assert_eq!(slices[0].reference.len(), 8);
        assert!(slices[1..].iter().all(|s| s.reference.is_empty()));
        for (s, ratio) in slices.iter().zip([1.0, 0.5, 1.5]) {
            assert_eq!((s.cpu.len(), s.ratios.len(), s.retimed), (4, 4, 0));
            assert!(s.ratios.iter().all(|r| (r - ratio).abs() < 1e-12), "{:?}", s.ratios);
        }
    }

    #[test]
    fn a_slice_whose_bracket_saw_the_speed_change_is_timed_again() {
        // Periods of 50 to 100 µs against brackets of about 5 µs: some brackets straddle a
        // switch, and their slices are timed again, so every ratio kept is exact.
        let machine = Machine::new(
            1.35,
            std::time::Duration::from_micros(50),
            std::time::Duration::from_micros(100),
            "switches",
        );
        let entrants: Vec<Entrant<'_>> = [1_000.0, 700.0, 1_300.0, 900.0]
            .into_iter()
            .map(|cost| Entrant {
                contender: Box::new(Work::new(&machine, cost)),
                pass: std::time::Duration::from_nanos(cost as u64),
                units: 1,
                parked: false,
            })
            .collect();
        let slices = interleave(entrants, &[1; 4], 200, Some(0), &SimClock(machine));
        let retimed: u32 = slices.iter().map(|s| s.retimed).sum();
        assert!(retimed > 10, "some brackets straddled a switch: {retimed}");
        for (s, ratio) in slices.iter().zip([1.0, 0.7, 1.3, 0.9]) {
            // One slice a round; a slice kept on its third try may straddle a switch.
            assert_eq!(s.ratios.len(), 200);
            let off = s.ratios.iter().filter(|r| (*r / ratio - 1.0).abs() > 1e-9).count();
            assert!(off <= 2, "{off} ratios off: {:?}", s.ratios);
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
        let entrants = vec![Entrant {
            contender: Box::new(Counting(count.clone())),
            pass: Duration::from_micros(1),
            units: 1,
            parked: false,
        }];
        let samples = interleave(entrants, &[3], 4, Some(0), &ThreadClock::new());
        assert_eq!(samples[0].cpu.len(), 4);
        assert_eq!(count.get(), 12, "4 rounds of 3 passes, nothing untimed");
    }

    /// A contender whose pass needs its state built: it counts builds and releases, and a
    /// pass on a state another slice already ran on (or on none) fails the test.
    struct Stateful {
        state: Option<u64>,
        log: std::rc::Rc<std::cell::RefCell<(u32, u32)>>,
    }

    impl Contender for Stateful {
        fn pass(&mut self) -> u64 {
            let state = self.state.expect("a pass runs on built state");
            assert_eq!(
                state,
                u64::from(self.log.borrow().0),
                "a slice runs on the state built for it"
            );
            state
        }

        fn renew(&mut self) {
            self.log.borrow_mut().0 += 1;
            self.state = Some(u64::from(self.log.borrow().0));
        }

        fn release(&mut self) {
            self.state = None;
            self.log.borrow_mut().1 += 1;
        }
    }

    #[test]
    fn every_slice_runs_on_state_built_for_it_and_a_parked_one_is_released_after() {
        let logs: Vec<std::rc::Rc<std::cell::RefCell<(u32, u32)>>> =
            (0..2).map(|_| Default::default()).collect();
        let entrants: Vec<Entrant<'_>> = logs
            .iter()
            .enumerate()
            .map(|(i, log)| Entrant {
                contender: Box::new(Stateful { state: (i == 0).then_some(0), log: log.clone() }),
                pass: Duration::from_micros(1),
                units: 1,
                parked: i == 1,
            })
            .collect();
        // A steady simulated clock: no bracket jumps, so no slice is timed again.
        let clock = SimClock(Machine::steady());
        let samples = interleave(entrants, &[3, 3], 4, Some(0), &clock);
        assert!(samples.iter().all(|s| s.cpu.len() == 4));
        // The reference, kept: built anew for each of its 4 slices and its 8 reference
        // slices (a bracket a round, and the one before it), never released.
        assert_eq!(*logs[0].borrow(), (12, 0));
        // Parked: built for each of its 4 slices and released after each.
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
