//! The stop a check pass arms, so that a search running over the pass's time limit ends
//! within itself rather than at its end.
//!
//! The lab cuts off a contender whose check pass runs over a limit (a few times the baseline's
//! pass). Checked between searches only, a workload of one or two large searches lets the
//! slowest contenders run to the end: in a default run measured so, the
//! cut-off passes ran 234 s where their limits came to 39 s, up to 114 times the baseline
//! (`unsorted-array-dup` on `rooms-r64-2048-s1/manhattan/unit/flat/4-moves`).
//!
//! Every search loop of pqlab (the grid A\*, fringe search, breadth-first search) calls
//! [`poll`] with its count of expansions, and the closures the lab gives other A\*s call a
//! [`Ticker`] (all but petgraph's, which asserts that the node it is told is the goal has
//! an estimate of 0: it is cut off between searches only): once in [`EVERY`] calls, an
//! armed stop reads its clock and, past the deadline, says stop. The loop then ends at once ([`super::outcome::SearchError::Stopped`]
//! or, for a closure, by declaring the goal found), and the check, seeing
//! [`Armed::stopped`], discards the answer. Unarmed, as in every timed pass, a poll costs
//! a test of the count, and a thread-local read once in [`EVERY`] calls: 9 instructions
//! an expansion of the grid A\* (`AStar::search` 369.6 M → 375.2 M instructions under
//! `valgrind --tool=callgrind pqlab run --map dao/brc202d.map --limit 40 --queue
//! std-binary-heap-dup`, 1.5%), within the noise of time (`--limit 200`, the two builds
//! alternated 7 times: a median of 88.7 ns an expansion with it, 95.1 without).

use std::cell::Cell;
use std::marker::PhantomData;

/// Expansions between two readings of an armed stop's clock: 1,024 expansions take 30 µs
/// with the fastest queue and about 20 ms with an unsorted array of 20,000 open cells, so
/// a stopped pass overruns its limit by a few milliseconds at most.
pub const EVERY: u64 = 1024;

/// An armed stop's clock, and its deadline in the clock's nanoseconds.
type Deadline = (fn() -> u64, u64);

thread_local! {
    /// The armed stop, if any.
    static ARMED: Cell<Option<Deadline>> = const { Cell::new(None) };
    /// Whether the armed stop has said stop.
    static STOPPED: Cell<bool> = const { Cell::new(false) };
}

/// A stop armed on this thread while the value lives; one at a time.
#[derive(Debug)]
pub struct Armed {
    /// Neither `Send` nor `Sync`: the stop belongs to the thread that armed it.
    _thread: PhantomData<*const ()>,
}

impl Armed {
    /// Arms the stop: searches on this thread stop once `clock()` passes `deadline`.
    ///
    /// # Panics
    /// If a stop is already armed on this thread.
    pub fn new(clock: fn() -> u64, deadline: u64) -> Armed {
        assert!(ARMED.get().is_none(), "a stop is already armed on this thread");
        ARMED.set(Some((clock, deadline)));
        STOPPED.set(false);
        Armed { _thread: PhantomData }
    }

    /// Whether a search has been stopped since the stop was armed.
    pub fn stopped(&self) -> bool {
        STOPPED.get()
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        ARMED.set(None);
        STOPPED.set(false);
    }
}

/// Whether the search whose `count`th expansion this is should stop: true only with an
/// armed stop past its deadline, read once in [`EVERY`] counts.
#[inline(always)]
pub fn poll(count: u64) -> bool {
    count.is_multiple_of(EVERY) && over()
}

#[cold]
#[inline(never)]
fn over() -> bool {
    match ARMED.get() {
        Some((clock, deadline)) if clock() > deadline => {
            STOPPED.set(true);
            true
        }
        _ => false,
    }
}

/// A [`poll`] for a closure called once per expansion, counting its own calls.
#[derive(Debug, Default)]
pub struct Ticker(u64);

impl Ticker {
    /// Counts a call; true when the search should stop.
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        self.0 += 1;
        poll(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn past() -> u64 {
        u64::MAX
    }

    #[test]
    fn only_an_armed_stop_past_its_deadline_stops_and_only_on_the_poll() {
        let mut ticker = Ticker::default();
        assert!((0..3 * EVERY).all(|_| !ticker.tick()), "unarmed");
        let armed = Armed::new(past, 10);
        assert!(!poll(EVERY - 1) && !armed.stopped(), "between readings");
        assert!(poll(EVERY) && armed.stopped());
        drop(armed);
        assert!(!poll(EVERY), "disarmed");
        let armed = Armed::new(past, u64::MAX);
        assert!(!poll(EVERY) && !armed.stopped(), "before the deadline");
    }
}
