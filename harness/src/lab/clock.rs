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

/// Both clocks, started together.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    wall: Instant,
    cpu: u64,
}

/// What a [`Stopwatch`] measured, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Elapsed {
    /// The thread's CPU time.
    pub cpu: f64,
    /// Wall time.
    pub wall: f64,
}

impl Stopwatch {
    /// Starts both clocks.
    #[inline]
    pub fn start() -> Stopwatch {
        Stopwatch { wall: Instant::now(), cpu: thread_cpu_ns() }
    }

    /// The time since the start on both clocks.
    #[inline]
    pub fn elapsed(&self) -> Elapsed {
        let cpu = thread_cpu_ns().saturating_sub(self.cpu) as f64;
        Elapsed { cpu, wall: self.wall.elapsed().as_nanos() as f64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_advances_with_work_not_with_sleep() {
        let watch = Stopwatch::start();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let slept = watch.elapsed();
        assert!(slept.wall >= 30e6, "{slept:?}");
        assert!(slept.cpu < 15e6, "sleeping used {} ns of CPU", slept.cpu);
        let watch = Stopwatch::start();
        let mut x = 1u64;
        while watch.elapsed().wall < 20e6 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        assert!(watch.elapsed().cpu > 0.0);
    }
}
