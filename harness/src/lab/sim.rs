//! A simulated machine, for the tests of the sampler, the racing and the noise check: its
//! contenders cost a fixed number of nanoseconds a pass at full speed, and it runs at one
//! of two speeds, switching at seeded random times (the slow periods of a shared machine),
//! read through a [`Clock`].

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use super::clock::{Clock, Reading};
use super::sampler::Contender;
use super::searches::Check;
use crate::rng::SplitMix64;

/// The machine: a clock that work advances, at speed 1 or slowed by `slow`.
pub struct Machine {
    now: Cell<f64>,
    /// The times (ns) at which the speed switches, ascending; it starts fast.
    switches: Vec<f64>,
    slow: f64,
}

impl Machine {
    /// A machine slowed `slow` times (1.35: 35% slower) in alternate periods, each lasting
    /// between `shortest` and `longest`, drawn from `seed`, up to a horizon of an hour.
    pub fn new(slow: f64, shortest: Duration, longest: Duration, seed: &str) -> Rc<Machine> {
        let mut rng = SplitMix64::from_name(seed.bytes());
        let (low, high) = (shortest.as_nanos() as f64, longest.as_nanos() as f64);
        let mut switches = Vec::new();
        let mut t = 0.0;
        while t < 3.6e12 {
            let unit = rng.next_u64() as f64 / u64::MAX as f64;
            t += low + (high - low) * unit;
            switches.push(t);
        }
        Rc::new(Machine { now: Cell::new(0.0), switches, slow })
    }

    /// A machine at one speed throughout.
    pub fn steady() -> Rc<Machine> {
        Rc::new(Machine { now: Cell::new(0.0), switches: Vec::new(), slow: 1.0 })
    }

    /// How many times slower than full speed it runs at `t`.
    fn factor(&self, t: f64) -> f64 {
        let switched = self.switches.partition_point(|&s| s <= t);
        if switched % 2 == 1 {
            self.slow
        } else {
            1.0
        }
    }

    /// Does `ns` of full-speed work, at the speed of the moment it starts.
    fn work(&self, ns: f64) {
        let now = self.now.get();
        self.now.set(now + ns * self.factor(now));
    }
}

/// The machine's clock: CPU and wall time alike.
pub struct SimClock(pub Rc<Machine>);

impl Clock for SimClock {
    fn read(&self) -> Reading {
        let now = self.0.now.get();
        Reading { cpu: now, wall: now }
    }
}

/// A contender whose pass costs `cost` nanoseconds at full speed.
pub struct Work {
    machine: Rc<Machine>,
    cost: f64,
}

impl Work {
    /// A contender costing `cost` ns a pass on `machine`.
    pub fn new(machine: &Rc<Machine>, cost: f64) -> Work {
        Work { machine: machine.clone(), cost }
    }
}

impl Contender for Work {
    fn pass(&mut self) -> u64 {
        self.machine.work(self.cost);
        1
    }
}

/// A passed check of a contender costing `cost` ns a pass on `machine`.
pub fn check(machine: &Rc<Machine>, cost: f64) -> Check<'static> {
    Check {
        contender: Box::new(Work::new(machine, cost)),
        counters: Vec::new(),
        excess: None,
        pass: Duration::from_nanos(cost as u64),
        bytes_per_entry: None,
        held_bytes: None,
        parked: false,
    }
}
