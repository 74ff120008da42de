//! Check, then time: the one path from a contender to its samples. The lab (`cargo
//! bench`), `pqlab compare` and `pqlab pick --measure` each enter the contenders of a
//! workload into a [`Contest`] and time them there.
//!
//! Only a [`Check`] enters (the outcome of a check pass in which every answer was
//! compared with the reference: [`super::searches`]), so nothing is timed that has not
//! been checked on the same problems first, and its checked pass sizes its samples.

use std::time::Duration;

use super::sampler::{interleave, Entrant, Samples, Shuffler};
use super::searches::Check;

/// The contenders of one workload, each checked, timed together in interleaved rounds.
/// Each carries a tag of the caller's (its result row, its label), handed back with its
/// samples in the order of entry.
pub struct Contest<'p, T> {
    tags: Vec<T>,
    entrants: Vec<Entrant<'p>>,
    /// Passes per sample of each entrant, fixed when it enters.
    reps: Vec<u32>,
    samples: Vec<Samples>,
    shuffler: Shuffler,
    sample: Duration,
}

impl<'p, T> Contest<'p, T> {
    /// An empty contest on the workload `name`, which seeds its round orders (a run's
    /// orders can be reproduced), each sample lasting at least `sample`.
    pub fn new(name: &str, sample: Duration) -> Self {
        Contest {
            tags: Vec::new(),
            entrants: Vec::new(),
            reps: Vec::new(),
            samples: Vec::new(),
            shuffler: Shuffler::for_workload(name),
            sample,
        }
    }

    /// Enters a contender that passed its check, tagged `tag`, doing `units` units of work
    /// (searches, operations) a pass. Its sample repeats whole passes until it lasts the
    /// contest's sample time, judged from the check pass: at least one, at most a million.
    pub fn enter(&mut self, tag: T, units: u64, check: Check<'p>) {
        let pass = check.pass.max(Duration::from_micros(1));
        let reps = (self.sample.as_secs_f64() / pass.as_secs_f64()).ceil().clamp(1.0, 1e6);
        self.reps.push(reps as u32);
        self.entrants.push(Entrant {
            contender: check.contender,
            pass: check.pass,
            units,
            parked: check.parked,
        });
        self.tags.push(tag);
        self.samples.push(Samples::default());
    }

    /// Whether nothing has entered.
    pub fn is_empty(&self) -> bool {
        self.entrants.is_empty()
    }

    /// What one round takes, from the check passes: every entrant's sample.
    pub fn round(&self) -> Duration {
        self.entrants.iter().zip(&self.reps).map(|(e, &reps)| e.pass * reps).sum()
    }

    /// How many rounds fit in `budget`, at least `min` and at most `max`.
    pub fn rounds_within(&self, budget: Duration, min: u32, max: u32) -> u32 {
        let fit = (budget.as_secs_f64() / self.round().as_secs_f64().max(1e-9)).floor();
        (fit as u32).clamp(min, max.max(min))
    }

    /// Times `rounds` more rounds, each visiting the entrants in a fresh random order; the
    /// samples add to those of earlier calls.
    pub fn time(&mut self, rounds: u32) {
        let new = interleave(&mut self.entrants, &self.reps, rounds, &mut self.shuffler);
        for (all, new) in self.samples.iter_mut().zip(new) {
            all.cpu.extend(new.cpu);
            all.wall.extend(new.wall);
            all.searches.extend(new.searches);
        }
    }

    /// Each entrant's tag, in the order of entry.
    pub fn tags(&self) -> impl Iterator<Item = &T> {
        self.tags.iter()
    }

    /// Each entrant's tag, mutable, with its samples so far, in the order of entry.
    pub fn results_mut(&mut self) -> impl Iterator<Item = (&mut T, &Samples)> {
        self.tags.iter_mut().zip(&self.samples)
    }

    /// Each entrant's tag with its samples, in the order of entry.
    pub fn finish(self) -> Vec<(T, Samples)> {
        self.tags.into_iter().zip(self.samples).collect()
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
