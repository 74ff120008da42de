//! Check, then time: the one path from a contender to its samples. The lab (`cargo
//! bench`), `pqlab compare` and `pqlab pick --measure` each enter the contenders of a
//! workload into a [`Contest`] and time them there.
//!
//! Only a [`Check`] enters (the outcome of a check pass in which every answer was
//! compared with the reference: [`super::searches`]), so nothing is timed that has not
//! been checked on the same problems first, and its checked pass sizes its samples.

use std::time::Duration;

use super::clock::{Clock, ThreadClock};
use super::sampler::{Entrant, Field, Shuffler, Slices, REFERENCE_EVERY};
use super::searches::Check;
use crate::results::{quantile, Kind, Row, SampleList};

/// What a contest timed of one contender, per unit of work (search, operation), one figure
/// per kept slice in time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// What rankings use, thread CPU nanoseconds: in a contest with a reference, each
    /// slice's time ÷ its bracket's reference time, times the reference's median slice
    /// over the whole contest, its *level* (the slice's time at the contest's typical
    /// speed, with the machine's slow periods cancelled), and for the reference itself
    /// its level once per slice; without a reference, the slice's own time.
    pub cpu: Vec<f64>,
    /// Each slice's own thread CPU time.
    pub raw: Vec<f64>,
    /// Each slice's wall time.
    pub wall: Vec<f64>,
    /// Each search's wall time over the kept slices, in nanoseconds (empty for contenders
    /// that do not time searches one by one).
    pub searches: Vec<u64>,
    /// Slices timed again because the machine's speed changed inside their bracket.
    pub retimed: u32,
    /// Whether it stopped being timed before the others ([`Contest::race`]).
    pub raced: bool,
    /// For the reference: each of its reference slices' CPU time, in time order.
    pub reference: Vec<f64>,
}

impl Samples {
    /// Writes the samples' figures into `row`: its times ([`Row::set_samples`]), its
    /// per-search latencies over `row.units` problems a pass, and the paired design's
    /// columns.
    pub fn write(&self, row: &mut Row) {
        row.set_samples(&self.cpu, &self.wall);
        row.set_latencies(&self.searches, row.units as usize);
        row.raw_samples_ns = SampleList(self.raw.clone());
        row.reference_ns = SampleList(self.reference.clone());
        row.retimed = self.retimed;
        row.raced = self.raced;
    }
}

impl<'p> Contest<'p, Row> {
    /// Enters `row`'s contender, doing `units` units of work a pass: the baseline's row of a
    /// queue (whole searches, a replay, a held size) as the contest's reference
    /// ([`Contest::enter_reference`]), any other row as a contender.
    pub fn enter_row(&mut self, row: Row, units: u64, check: Check<'p>) {
        let queue_row = matches!(row.kind, Kind::Astar | Kind::Replay | Kind::Synthetic);
        if queue_row && row.queue == pqlab_queues::registry::BASELINE {
            self.enter_reference(row, units, check);
        } else {
            self.enter(row, units, check);
        }
    }
}

/// The contenders of one workload, each checked, timed together in interleaved rounds.
/// Each carries a tag of the caller's (its result row, its label), handed back with its
/// samples in the order of entry.
pub struct Contest<'p, T> {
    tags: Vec<T>,
    field: Field<'p>,
    slices: Vec<Slices>,
    shuffler: Shuffler,
    sample: Duration,
    clock: Box<dyn Clock>,
    rounds: u32,
}

impl<'p, T> Contest<'p, T> {
    /// An empty contest on the workload `name`, which seeds its round orders (a run's
    /// orders can be reproduced), each sample lasting at least `sample`, timed by the
    /// thread's clocks.
    pub fn new(name: &str, sample: Duration) -> Self {
        Contest::with_clock(name, sample, Box::new(ThreadClock::new()))
    }

    /// [`Contest::new`] read from `clock`.
    pub fn with_clock(name: &str, sample: Duration, clock: Box<dyn Clock>) -> Self {
        Contest {
            tags: Vec::new(),
            field: Field {
                entrants: Vec::new(),
                reps: Vec::new(),
                active: Vec::new(),
                reference: None,
            },
            slices: Vec::new(),
            shuffler: Shuffler::for_workload(name),
            sample,
            clock,
            rounds: 0,
        }
    }

    /// Enters a contender that passed its check, tagged `tag`, doing `units` units of work
    /// (searches, operations) a pass. Its sample repeats whole passes until it lasts the
    /// contest's sample time, judged from the check pass: at least one, at most a million.
    pub fn enter(&mut self, tag: T, units: u64, check: Check<'p>) {
        let pass = check.pass.max(Duration::from_micros(1));
        let reps = (self.sample.as_secs_f64() / pass.as_secs_f64()).ceil().clamp(1.0, 1e6);
        self.field.reps.push(reps as u32);
        self.field.entrants.push(Entrant {
            contender: check.contender,
            pass: check.pass,
            units,
            parked: check.parked,
        });
        self.field.active.push(true);
        self.tags.push(tag);
        self.slices.push(Slices::default());
    }

    /// [`Contest::enter`], as the contest's reference: the contender timed between every
    /// [`REFERENCE_EVERY`] slices, which every slice's time is taken against (see
    /// [`super::sampler`]). The lab's reference is the baseline. A later reference
    /// replaces an earlier one.
    pub fn enter_reference(&mut self, tag: T, units: u64, check: Check<'p>) {
        self.enter(tag, units, check);
        self.field.reference = Some(self.tags.len() - 1);
    }

    /// Whether nothing has entered.
    pub fn is_empty(&self) -> bool {
        self.field.entrants.is_empty()
    }

    /// A slice of entrant `i`, from its check pass.
    fn slice_time(&self, i: usize) -> Duration {
        self.field.entrants[i].pass * self.field.reps[i]
    }

    /// What one round takes, from the check passes: every active entrant's slice, and a
    /// slice of the reference before every [`REFERENCE_EVERY`] of them and after the last.
    pub fn round(&self) -> Duration {
        let active = (0..self.tags.len()).filter(|&i| self.field.active[i]);
        let slices: Duration = active.clone().map(|i| self.slice_time(i)).sum();
        let brackets = active.count().div_ceil(REFERENCE_EVERY) as u32;
        let reference = self.field.referenced().map_or(Duration::ZERO, |r| self.slice_time(r));
        slices + reference * (brackets + u32::from(brackets > 0))
    }

    /// How many rounds fit in `budget`, at least `min` and at most `max`.
    pub fn rounds_within(&self, budget: Duration, min: u32, max: u32) -> u32 {
        let fit = (budget.as_secs_f64() / self.round().as_secs_f64().max(1e-9)).floor();
        (fit as u32).clamp(min, max.max(min))
    }

    /// Times `rounds` more rounds of the active entrants, each in a fresh random order;
    /// the slices add to those of earlier calls.
    pub fn time(&mut self, rounds: u32) {
        let Contest { field, shuffler, clock, slices, .. } = self;
        field.interleave(rounds, shuffler, clock.as_ref(), slices);
        self.rounds += rounds;
    }

    /// The rounds timed so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// How many entrants are still timed.
    pub fn active(&self) -> usize {
        self.field.active.iter().filter(|&&a| a).count()
    }

    /// Racing (successive elimination, as in F-Race: Birattari et al., 2002): stops timing
    /// each contender that its slices so far put clearly behind the leader of its heat, so
    /// that the rounds left go to the contenders still in contention. `heat` gives each
    /// tag's heat, or `None` for one that is not raced (always timed, never a leader).
    /// The leader of a heat is its contender with the lowest median; a contender stops when
    /// even its fastest slice took more than `factor` times the leader's slowest, a
    /// comparison of the two ranges, not of point estimates. The reference is never
    /// stopped. A stopped contender keeps its slices, and says it was raced
    /// ([`Samples::raced`]). Returns how many stopped now. O(entrants × slices).
    pub fn race<H: PartialEq>(&mut self, factor: f64, heat: impl Fn(&T) -> Option<H>) -> usize {
        let referenced = self.field.referenced().is_some();
        let figures: Vec<&[f64]> = self
            .slices
            .iter()
            .map(|s| if referenced { &s.ratios[..] } else { &s.cpu[..] })
            .collect();
        let heats: Vec<Option<H>> = self.tags.iter().map(heat).collect();
        let median = |i: usize| quantile(figures[i], 0.5);
        let extent = |i: usize| {
            let f = figures[i];
            (f.iter().copied().fold(f64::INFINITY, f64::min), f.iter().copied().fold(0.0, f64::max))
        };
        let mut stopped = 0;
        for i in 0..self.tags.len() {
            let Some(own) = heats[i].as_ref() else { continue };
            if !self.field.active[i] || self.field.reference == Some(i) || figures[i].is_empty() {
                continue;
            }
            let rivals = (0..self.tags.len())
                .filter(|&j| heats[j].as_ref() == Some(own) && !figures[j].is_empty());
            let Some(leader) = rivals.min_by(|&a, &b| median(a).total_cmp(&median(b))) else {
                continue;
            };
            if extent(i).0 > factor * extent(leader).1 {
                self.field.active[i] = false;
                stopped += 1;
            }
        }
        stopped
    }

    /// Each entrant's tag, in the order of entry.
    pub fn tags(&self) -> impl Iterator<Item = &T> {
        self.tags.iter()
    }

    /// Each entrant's samples so far, in the order of entry.
    fn samples(&self) -> Vec<Samples> {
        let level = self
            .field
            .referenced()
            .map(|r| quantile(&self.slices[r].reference, 0.5))
            .filter(|level| *level > 0.0);
        let reference = self.field.referenced();
        self.slices
            .iter()
            .zip(&self.field.active)
            .enumerate()
            .map(|(i, (s, &active))| Samples {
                cpu: match level {
                    // The reference's time ÷ its own is 1 by definition: its figure is its
                    // level, from all its reference slices, not the few it was timed as a
                    // contender (whose ratios to their brackets only add noise to every
                    // comparison with it).
                    Some(level) if reference == Some(i) => vec![level; s.ratios.len()],
                    Some(level) => s.ratios.iter().map(|r| r * level).collect(),
                    None => s.cpu.clone(),
                },
                raw: s.cpu.clone(),
                wall: s.wall.clone(),
                searches: s.searches.clone(),
                retimed: s.retimed,
                // Stopped with rounds still timed after it: a contender stopped at the
                // last race had every round.
                raced: !active && s.cpu.len() < self.rounds as usize,
                reference: s.reference.clone(),
            })
            .collect()
    }

    /// Each entrant's tag, mutable, with its samples so far, in the order of entry.
    pub fn results_mut(&mut self) -> impl Iterator<Item = (&mut T, Samples)> {
        let samples = self.samples();
        self.tags.iter_mut().zip(samples)
    }

    /// Each entrant's tag with its samples, in the order of entry.
    pub fn finish(self) -> Vec<(T, Samples)> {
        let samples = self.samples();
        self.tags.into_iter().zip(samples).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::sampler::Contender;

    /// Counts its passes in a shared cell.
    struct Counting(std::rc::Rc<std::cell::Cell<u32>>);

    impl Contender for Counting {
        fn pass(&mut self) -> u64 {
            self.0.set(self.0.get() + 1);
            1
        }
    }

    fn checked<'p>(count: &std::rc::Rc<std::cell::Cell<u32>>, pass: Duration) -> Check<'p> {
        Check {
            contender: Box::new(Counting(count.clone())),
            counters: Vec::new(),
            excess: None,
            pass,
            bytes_per_entry: None,
            held_bytes: None,
            parked: false,
        }
    }

    #[test]
    fn samples_last_the_sample_time_and_rounds_fit_the_budget_within_bounds() {
        let counts: Vec<std::rc::Rc<std::cell::Cell<u32>>> =
            (0..2).map(|_| Default::default()).collect();
        let mut contest = Contest::new("t", Duration::from_millis(2));
        assert!(contest.is_empty());
        // 500 µs passes: 4 to a 2 ms sample; a 50 ms pass is one sample alone.
        contest.enter("fast", 1, checked(&counts[0], Duration::from_micros(500)));
        contest.enter("slow", 1, checked(&counts[1], Duration::from_millis(50)));
        assert_eq!(contest.round(), Duration::from_millis(52));
        // 200 ms holds 3 rounds of 52 ms; bounded by 5..30 it takes 5, by 1..2 it takes 2.
        assert_eq!(contest.rounds_within(Duration::from_millis(200), 1, 30), 3);
        assert_eq!(contest.rounds_within(Duration::from_millis(200), 5, 30), 5);
        assert_eq!(contest.rounds_within(Duration::from_millis(200), 1, 2), 2);

        contest.time(2);
        contest.time(1);
        assert_eq!((counts[0].get(), counts[1].get()), (12, 3), "3 rounds of 4 and of 1");
        let results = contest.finish();
        assert_eq!(results.iter().map(|(tag, _)| *tag).collect::<Vec<_>>(), ["fast", "slow"]);
        assert!(results.iter().all(|(_, s)| s.cpu.len() == 3 && s.wall.len() == 3));
    }
}

/// The paired design against the machine's slow periods, on a simulated machine.
#[cfg(test)]
mod slow_periods {
    use super::*;
    use crate::analysis::TIE_MARGIN;
    use crate::lab::sim::{check, Machine, SimClock};

    /// What a pass costs at full speed, ns: the reference (the baseline) first, then
    /// contenders near it and far from it.
    const COSTS: [f64; 12] = [
        100_000.0, 62_000.0, 64_000.0, 70_000.0, 80_000.0, 97_000.0, 103_000.0, 130_000.0,
        160_000.0, 200_000.0, 300_000.0, 450_000.0,
    ];

    /// A contest of [`COSTS`] on a machine 35% slower in periods of 30 to 300 ms (a
    /// round of about 80 ms: slow periods of a few rounds, as the sentinel showed them
    /// against a default run's rounds), 5 ms slices, `rounds` rounds.
    fn timed(rounds: u32) -> Vec<(usize, Samples)> {
        let machine =
            Machine::new(1.35, Duration::from_millis(30), Duration::from_millis(300), "periods");
        let mut contest = Contest::with_clock(
            "slow periods",
            Duration::from_millis(5),
            Box::new(SimClock(machine.clone())),
        );
        contest.enter_reference(0, 1, check(&machine, COSTS[0]));
        for (i, &cost) in COSTS.iter().enumerate().skip(1) {
            contest.enter(i, 1, check(&machine, cost));
        }
        contest.time(rounds);
        contest.finish()
    }

    /// Each contender's estimated time ÷ the reference's, and how far it is from the truth
    /// (a factor ≥ 1).
    fn errors(samples: &[(usize, Samples)], of: fn(&Samples) -> &Vec<f64>) -> Vec<f64> {
        let base = quantile(of(&samples[0].1), 0.5);
        samples
            .iter()
            .map(|(i, s)| {
                let estimate = quantile(of(s), 0.5) / base;
                let truth = COSTS[*i] / COSTS[0];
                (estimate / truth).max(truth / estimate)
            })
            .collect()
    }

    #[test]
    fn paired_slices_recover_the_true_ratios_within_the_tie_margin() {
        let samples = timed(5);
        let raw = errors(&samples, |s| &s.raw);
        let paired = errors(&samples, |s| &s.cpu);
        // The slow periods are there: medians of separate slices miss by more than the
        // tie margin on some contender (the design this replaces).
        let worst_raw = raw.iter().copied().fold(1.0, f64::max);
        assert!(worst_raw > TIE_MARGIN + 0.03, "the machine did not disturb: {raw:?}");
        // The paired slices cancel them.
        for (error, (i, _)) in paired.iter().zip(&samples) {
            assert!(*error < TIE_MARGIN, "contender {i} off by {error}: {paired:?}");
        }
        let retimed: u32 = samples.iter().map(|(_, s)| s.retimed).sum();
        assert!(retimed > 0, "some brackets straddled a switch and were timed again");
    }

    #[test]
    fn racing_stops_only_the_contenders_clearly_behind_their_leader() {
        let machine = Machine::steady();
        let mut contest = Contest::with_clock(
            "race",
            Duration::from_millis(5),
            Box::new(SimClock(machine.clone())),
        );
        // (cost, heat): two heats; the reference is in the first; `None` is never raced.
        let field = [
            (100_000.0, Some(0)),
            (90_000.0, Some(0)),
            (95_000.0, Some(0)),
            (200_000.0, Some(0)),
            (300_000.0, Some(1)),
            (330_000.0, Some(1)),
            (500_000.0, Some(1)),
            (400_000.0, None),
        ];
        contest.enter_reference(field[0].1, 1, check(&machine, field[0].0));
        for &(cost, heat) in &field[1..] {
            contest.enter(heat, 1, check(&machine, cost));
        }
        contest.time(3);
        assert_eq!(contest.race(1.2, |heat: &Option<u8>| *heat), 2);
        assert_eq!((contest.active(), contest.rounds()), (6, 3));
        // Stopped, but no round timed since: none had fewer rounds than the others yet.
        assert!(contest.results_mut().all(|(_, s)| !s.raced));
        contest.time(2);
        let raced: Vec<(Option<u8>, bool, usize)> =
            contest.finish().into_iter().map(|(h, s)| (h, s.raced, s.cpu.len())).collect();
        // The 200 µs contender is twice its heat's leader (90 µs), the 500 µs one 1.5 times
        // its heat's (300 µs): stopped after 3 rounds with their slices kept; the others,
        // the reference and the unraced one timed in all 5.
        let stopped: Vec<usize> = (0..raced.len()).filter(|&i| raced[i].1).collect();
        assert_eq!(stopped, [3, 6]);
        for (i, &(_, was_raced, slices)) in raced.iter().enumerate() {
            assert_eq!(slices, if was_raced { 3 } else { 5 }, "contender {i}");
        }
    }
}
