//! The synthetic workload: each queue alone, its frontier held at a fixed size from 10 to
//! 10,000,000 entries, past the sizes maps produce.
//!
//! The queue is filled with `size` nodes, then each operation is what an A* does at steady
//! state: pop the best live entry (skipping stale duplicates), push a node with a key a
//! little above it, and with the measured decrease-key share lower the key of a random
//! held node (a duplicate push for duplicate queues, a decrease for decrease-key queues).
//! Key increments are drawn from those the recorded A* traces pushed (keys `f` alone, so
//! every queue accepts them). One unit is one such operation; it includes a few
//! nanoseconds of bookkeeping (a random number, two array writes), the same for all queues.
//! Approximate queues are not held: their pops are not the minimum, so the hold's floor
//! would drift.

use std::time::{Duration, Instant};

use pqlab_queues::registry::{Entry, Visitor};
use pqlab_queues::{Frontier, Key, Node, Spec};

use super::memory::Counting;
use super::sampler::Contender;
use super::searches::{Check, Checking, Untimed};

const NOT_HELD: u32 = u32::MAX;

/// Operations in one pass of a held frontier.
pub const BATCH: u64 = 1_000;

/// A frontier held at a fixed size by A*-shaped operations.
struct Hold<F> {
    queue: F,
    /// The current key of each node (stale entries carry another).
    key_of: Vec<Key>,
    /// The held nodes, to pick decrease-key targets from, and each node's slot in it.
    held: Vec<Node>,
    slot: Vec<u32>,
    increments: Vec<u64>,
    /// The decrease-key share as a threshold on a 32-bit random number.
    threshold: u64,
    rng: u64,
}

impl<F: Frontier> Hold<F> {
    fn new(size: usize, increments: &[u64], share: f64) -> Self {
        let span = increments.iter().copied().max().unwrap_or(0).max(1);
        Hold {
            queue: F::new(Spec { capacity: size, span }),
            key_of: vec![0; size],
            held: Vec::with_capacity(size),
            slot: vec![NOT_HELD; size],
            increments: increments.to_vec(),
            threshold: (share.clamp(0.0, 1.0) * u32::MAX as f64) as u64,
            rng: 0x9e37_79b9_7f4a_7c15,
        }
    }

    #[inline]
    fn random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    #[inline]
    fn increment(&mut self) -> u64 {
        let i = (self.random() % self.increments.len() as u64) as usize;
        self.increments[i]
    }

    #[inline]
    fn hold(&mut self, node: Node, key: Key) {
        self.key_of[node as usize] = key;
        self.slot[node as usize] = self.held.len() as u32;
        self.held.push(node);
    }

    /// Pushes node 0 with key 0 first (the smallest, so bounded-span queues take the rest
    /// within their span), then `1..size` with random increments.
    fn fill(&mut self) -> Result<(), String> {
        for node in 0..self.key_of.len() as Node {
            let key = if node == 0 { 0 } else { self.increment() };
            self.queue.push(node, key).map_err(|e| e.to_string())?;
            self.hold(node, key);
        }
        Ok(())
    }

    /// One steady-state operation; returns the popped key.
    #[inline]
    fn step(&mut self) -> Key {
        let (node, key) = loop {
            let (node, key) = self.queue.pop().expect("a held frontier is never empty");
            if self.slot[node as usize] != NOT_HELD && self.key_of[node as usize] == key {
                break (node, key);
            }
        };
        // Unhold the popped node, then push it back a little above the floor.
        let slot = self.slot[node as usize] as usize;
        let last = self.held.pop().expect("held");
        if slot < self.held.len() {
            self.held[slot] = last;
            self.slot[last as usize] = slot as u32;
        }
        self.slot[node as usize] = NOT_HELD;
        let pushed = key + self.increment();
        let _ = self.queue.push(node, pushed);
        self.hold(node, pushed);
        if (self.random() & u64::from(u32::MAX)) < self.threshold {
            let pick = (self.random() % self.held.len() as u64) as usize;
            let target = self.held[pick];
            let old = self.key_of[target as usize];
            let lower = old.saturating_sub(self.increment()).max(key);
            if lower < old {
                let _ = self.queue.push(target, lower);
                self.key_of[target as usize] = lower;
            }
        }
        key
    }
}

impl<F: Frontier> Contender for Hold<F> {
    fn pass(&mut self) -> u64 {
        (0..BATCH).fold(0u64, |sum, _| sum.wrapping_add(self.step()))
    }
}

/// Bytes a held frontier of `size` needs besides its queue: the hold's own arrays
/// (`key_of` 8, `held` 4, `slot` 4), subtracted from what filling it allocated.
pub const HOLD_BYTES_PER_ENTRY: usize = 16;

/// Fills a queue to a held size and checks its order on the way; the contender is the
/// held queue.
pub struct CheckHold<'a> {
    /// The held size.
    pub size: usize,
    /// Key increments to draw from.
    pub increments: &'a [u64],
    /// The share of operations that lower a held key.
    pub share: f64,
    /// The longest filling may take.
    pub limit: Duration,
}

impl Visitor for CheckHold<'_> {
    type Output = Checking<'static>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Checking<'static> {
        if !F::ORDER.is_exact() {
            return Err(Untimed::NotApplicable(
                "a held frontier needs exact pops (its floor follows the popped keys)".into(),
            ));
        }
        let started = Instant::now();
        let (filled, bytes) = Counting::measure(|| {
            let mut hold = Hold::<F>::new(self.size, self.increments, self.share);
            hold.fill().map(|()| hold)
        });
        let mut hold = filled.map_err(|reason| Untimed::Failed(format!("filling: {reason}")))?;
        let bytes_per_entry = bytes.map(|b| {
            (b as f64 - (HOLD_BYTES_PER_ENTRY * self.size) as f64).max(0.0) / self.size as f64
        });
        // A short untimed run reaches steady state and checks the order on the way.
        let mut floor = 0;
        for _ in 0..self.size.min(10_000) {
            let key = hold.step();
            if key < floor {
                return Err(Untimed::Failed(format!(
                    "popped key {key} after {floor}: the queue misordered"
                )));
            }
            floor = key;
        }
        if started.elapsed() > self.limit {
            return Err(Untimed::cut_off(
                format!(
                    "filling {} entries took {}, over the {} limit",
                    self.size,
                    crate::format::time(started.elapsed().as_secs_f64() * 1e9),
                    crate::format::time(self.limit.as_secs_f64() * 1e9)
                ),
                started.elapsed(),
            ));
        }
        let timed = Instant::now();
        hold.pass();
        Ok(Check {
            contender: Box::new(hold),
            counters: Vec::new(),
            excess: None,
            pass: timed.elapsed(),
            bytes_per_entry,
        })
    }
}

/// The time per operation at `size` extrapolated from the last two sizes measured, with
/// the growth exponent between them (clamped to 0..=1.5); `None` with fewer than two.
pub fn predict(past: &[(usize, f64)], size: usize) -> Option<f64> {
    let [.., (s0, t0), (s1, t1)] = past else { return None };
    let exponent = ((t1 / t0).ln() / (*s1 as f64 / *s0 as f64).ln()).clamp(0.0, 1.5);
    Some(t1 * (size as f64 / *s1 as f64).powf(exponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prediction_follows_the_measured_growth() {
        assert_eq!(predict(&[(10, 5.0)], 100), None);
        let linear = predict(&[(100, 10.0), (1000, 100.0)], 10_000).unwrap();
        assert!((linear - 1000.0).abs() < 1e-6, "{linear}");
        let flat = predict(&[(100, 10.0), (1000, 9.0)], 10_000).unwrap();
        assert!((flat - 9.0).abs() < 1e-6, "{flat}");
    }

    #[test]
    fn a_hold_keeps_its_size_and_pops_in_order() {
        use pqlab_queues::dary_heap::DaryHeap;
        use pqlab_queues::{Dk, Dup};
        fn check<F: Frontier>() {
            let increments = [0, 10, 14, 28];
            let mut hold = Hold::<F>::new(100, &increments, 0.3);
            hold.fill().unwrap();
            let mut floor = 0;
            for _ in 0..10_000 {
                let key = hold.step();
                assert!(key >= floor);
                floor = key;
                assert_eq!(hold.held.len(), 100);
            }
        }
        check::<DaryHeap<4, Dup>>();
        check::<DaryHeap<4, Dk>>();
    }
}
