//! The lab's clocks: the calling thread's CPU time, which the rankings use, and wall time
//! beside it.
//!
//! On a shared machine a sample's wall time includes every moment the thread waited for a
//! core; its CPU time does not. Interleaving (see [`super::sampler`]) spreads what remains
//! (cache and memory contention, frequency changes) over every queue alike.

use std::time::Instant;

/// The CPU time the calling thread has used, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu_ns() -> u64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable `timespec`, and CLOCK_THREAD_CPUTIME_ID is a
    // clock every Linux and POSIX system provides; the call only writes `now`.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread CPU clock is unavailable");
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

/// Where the sampler reads the time: the thread's CPU clock and the wall clock on a real
/// machine ([`ThreadClock`]); a simulated machine in the sampler's tests.
pub trait Clock {
    /// Both clocks now, in nanoseconds since an origin of the clock's own.
    fn read(&self) -> Reading;
}

/// What a [`Clock`] reads, in nanoseconds; the difference of two readings is a duration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reading {
    /// The thread's CPU time.
    pub cpu: f64,
    /// Wall time.
    pub wall: f64,
}

impl std::ops::Sub for Reading {
    type Output = Reading;

    fn sub(self, earlier: Reading) -> Reading {
        Reading {
            cpu: (self.cpu - earlier.cpu).max(0.0),
            wall: (self.wall - earlier.wall).max(0.0),
        }
    }
}

/// The real clocks: the calling thread's CPU time and wall time since the clock was made.
#[derive(Clone, Copy, Debug)]
pub struct ThreadClock {
    origin: Instant,
}

impl ThreadClock {
    /// Clocks whose wall origin is now.
    pub fn new() -> ThreadClock {
        ThreadClock { origin: Instant::now() }
    }
}

impl Default for ThreadClock {
    fn default() -> Self {
        ThreadClock::new()
    }
}

impl Clock for ThreadClock {
    #[inline]
    fn read(&self) -> Reading {
        Reading { cpu: thread_cpu_ns() as f64, wall: self.origin.elapsed().as_nanos() as f64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_advances_with_work_not_with_sleep() {
        let clock = ThreadClock::new();
        let start = clock.read();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let slept = clock.read() - start;
        assert!(slept.wall >= 30e6, "{slept:?}");
        assert!(slept.cpu < 15e6, "sleeping used {} ns of CPU", slept.cpu);
        let start = clock.read();
        let mut x = 1u64;
        while (clock.read() - start).wall < 20e6 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        assert!((clock.read() - start).cpu > 0.0);
    }
}
