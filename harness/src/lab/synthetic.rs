//! The synthetic workload: each queue alone, its frontier held at a fixed size from 10 to
//! 10,000,000 entries, past the sizes maps produce.
//!
//! The queue is filled with `size` nodes, then each timed operation is what an A* does at
//! steady state: pop the best live entry (skipping stale duplicates), push a node with a
//! key a little above it, and with the measured decrease-key share lower the key of a
//! random held node (a duplicate push for duplicate queues, a decrease for decrease-key
//! queues). Key increments are drawn from those the recorded A* traces pushed (keys `f`
//! alone, so every queue accepts them). One unit is one such operation; it includes a few
//! nanoseconds of bookkeeping (a random number, two array writes), the same for all queues.

use std::collections::HashMap;
use std::time::Instant;

use criterion::{Criterion, SamplingMode};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{Frontier, Key, Node, Spec};

use super::{row, set_spread, Lab, Samples, Suite};
use crate::lab::Source;
use crate::maps::generate::{MapKind, MapSpec};
use crate::results::{Kind, Row, Status};
use crate::search::astar::Rules;
use crate::search::heuristic::HeuristicKind;

const NOT_HELD: u32 = u32::MAX;

/// A frontier held at a fixed size by A*-shaped operations.
struct Hold<'a, F> {
    queue: F,
    /// The current key of each node (stale entries carry another).
    key_of: Vec<Key>,
    /// The held nodes, to pick decrease-key targets from, and each node's slot in it.
    held: Vec<Node>,
    slot: Vec<u32>,
    increments: &'a [u64],
    /// The decrease-key share as a threshold on a 32-bit random number.
    threshold: u64,
    rng: u64,
}

impl<'a, F: Frontier> Hold<'a, F> {
    fn new(size: usize, increments: &'a [u64], share: f64) -> Self {
        let span = increments.iter().copied().max().unwrap_or(0).max(1);
        Hold {
            queue: F::new(Spec { capacity: size, span }),
            key_of: vec![0; size],
            held: Vec::with_capacity(size),
            slot: vec![NOT_HELD; size],
            increments,
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
        if (self.random() & u32::MAX as u64) < self.threshold {
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

struct MeasureHold<'a, 'c> {
    lab: &'a mut Lab,
    criterion: &'a mut Criterion,
    size: usize,
    increments: &'a [u64],
    share: f64,
    _c: std::marker::PhantomData<&'c ()>,
}

impl Visitor for MeasureHold<'_, '_> {
    /// Nanoseconds per operation, when measured.
    type Output = Option<f64>;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Option<f64> {
        let MeasureHold { lab, criterion, size, increments, share, .. } = self;
        let mut out = synthetic_row(lab, entry, size);
        let budget = lab.settings.fill_budget;
        let started = Instant::now();
        let mut hold = Hold::<F>::new(size, increments, share);
        if let Err(reason) = hold.fill() {
            out.status = Status::Failed;
            out.note = format!("filling to {size}: {reason}");
            lab.rows.push(out);
            return None;
        }
        // A short untimed run reaches steady state and checks the order on the way.
        let mut floor = 0;
        for _ in 0..size.min(10_000) {
            let key = hold.step();
            if key < floor {
                out.status = Status::Failed;
                out.note = format!("popped key {key} after {floor}: the queue misordered");
                lab.rows.push(out);
                return None;
            }
            floor = key;
        }
        if started.elapsed() > budget {
            out.status = Status::CutOff;
            out.note = format!(
                "filling {size} entries took {:.1} s, over the {} s budget",
                started.elapsed().as_secs_f64(),
                budget.as_secs()
            );
            lab.rows.push(out);
            return None;
        }
        let samples = Samples::default();
        let mut group = criterion.benchmark_group(format!("synthetic-{size}"));
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function(format!("{}/hold", entry.id), |b| {
            b.iter_custom(|iters| {
                let started = Instant::now();
                for _ in 0..iters {
                    std::hint::black_box(hold.step());
                }
                let elapsed = started.elapsed();
                samples.record(elapsed, iters, 1);
                elapsed
            })
        });
        group.finish();
        let (spread, n) = samples.spread(lab.settings.samples)?;
        set_spread(&mut out, (spread, n));
        out.units = 1;
        lab.rows.push(out);
        Some(spread.median)
    }
}

fn synthetic_row(lab: &Lab, queue: &'static Entry, size: usize) -> Row {
    let suite = Suite {
        name: format!("synthetic-{size}"),
        family: "synthetic".into(),
        source: Source::Generated {
            map: MapSpec { kind: MapKind::Open { blocks: 0 }, size: 1, seed: 0 },
            problems: 0,
        },
        heuristic: HeuristicKind::Zero,
        rules: Rules::default(),
    };
    let mut out = row(lab, Kind::Synthetic, &suite, queue.id, Some(queue));
    out.heuristic = "-".into();
    out.unit = "op".into();
    out.max_open = size as f64;
    out
}

/// Measures every queue at every synthetic size of the profile. A queue is cut off at a
/// size when filling it would exceed the budget by the growth it showed between the two
/// sizes before (a linear-time queue grows tenfold per tenfold size).
pub(super) fn run(lab: &mut Lab, criterion: &mut Criterion) {
    let increments = lab.increments_or_default();
    let share = lab.decrease_share();
    let mut history: HashMap<&'static str, Vec<(usize, f64)>> = HashMap::new();
    for size in lab.settings.synthetic_sizes.clone() {
        eprintln!(
            "pqlab: synthetic workload at {size} entries ({:.0} s so far)",
            lab.elapsed_secs()
        );
        for entry in registry::ENTRIES {
            let past = history.entry(entry.id).or_default();
            if let Some(predicted) = predict(past, size) {
                let fill = predicted * size as f64 * 1e-9;
                if fill > lab.settings.fill_budget.as_secs_f64() {
                    let mut out = synthetic_row(lab, entry, size);
                    out.status = Status::CutOff;
                    out.note = format!(
                        "predicted {predicted:.0} ns per operation, {fill:.0} s to fill; budget {} s",
                        lab.settings.fill_budget.as_secs()
                    );
                    lab.rows.push(out);
                    past.push((size, predicted));
                    continue;
                }
            }
            let visitor = MeasureHold {
                lab,
                criterion,
                size,
                increments: &increments,
                share,
                _c: Default::default(),
            };
            if let Some(ns) = registry::visit(entry.id, visitor).expect("registered") {
                history.entry(entry.id).or_default().push((size, ns));
            }
        }
    }
}

/// The time per operation at `size` extrapolated from the last two sizes measured, with
/// the growth exponent between them (clamped to 0..=1.5); `None` with fewer than two.
fn predict(past: &[(usize, f64)], size: usize) -> Option<f64> {
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
