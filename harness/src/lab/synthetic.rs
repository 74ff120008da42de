//! The synthetic workload: each queue alone, its frontier held at a fixed size from 10 to
//! 10,000,000 entries, past the sizes maps produce.
//!
//! The queue is filled with `size` nodes, then each operation is what an A* does at steady
//! state: pop the best live entry (skipping stale duplicates), push a node with a key a
//! little above it, and with the measured decrease-key share lower the key of a random
//! held node (a duplicate push for duplicate queues, a decrease for decrease-key queues).
//! Its inputs are stated, not inherited from the workloads run before it: key increments
//! drawn from [`INCREMENTS`] and the decrease-key share [`DECREASE_SHARE`], both measured
//! once from octile A\* searches on the maps of [`MEASURED_ON`] (a test re-measures
//! them), so `cargo bench -- held` holds the same workload as the full run. One unit is one
//! such operation; it includes a few nanoseconds of bookkeeping (a random number, two array
//! writes), the same for all queues. Approximate queues are not held: their pops are not
//! the minimum, so the hold's floor would drift.
//!
//! # Cut-offs and memory
//!
//! A queue is cut off at a size only on what it did at that size ([`CheckHold`]): a fill
//! and warm-up stopped over their time limit, or its first timed pass of [`BATCH`]
//! operations stopped over the pass limit. The held queues of a size are measured in groups that fit the memory limit,
//! sized from each queue's bytes per entry measured by a [`Probe`] fill a tenth the size.

use std::time::{Duration, Instant};

use pqlab_queues::registry::{Entry, Visitor};
use pqlab_queues::{Frontier, Key, Node, Spec};

use super::clock::thread_cpu_ns;
use super::memory::Counting;
use super::sampler::Contender;
use super::searches::{Check, Untimed};
use crate::rng::SplitMix64;

const NOT_HELD: u32 = u32::MAX;

/// Operations in one pass of a held frontier. Set without a measurement; in a default run
/// a timed pass took 41 µs to 2.0 ms (40.6 to 2,042 ns an operation,
/// the held rows' `median_ns`), under the 5 ms a sample lasts.
pub const BATCH: u64 = 1_000;

/// The generated maps, with their numbers of problems, that the held workload's inputs
/// were measured on: octile A\* on obstacle maps (fine costs, a flat store, 30 to 3,000
/// open cells), the default profile's replayed workloads when they were measured. Stated here,
/// not read from the catalogue, so the inputs do not move when a workload's problems do.
/// Weighted terrain (`rugged-h30-512-s1`) is left out: its terrain costs push keys up to
/// 48,056,932 above the floor, a span that would make a bucket queue allocate tens of MB
/// where A\* on obstacle maps (increments at most two diagonal steps, 551,614) needs a few
/// hundred KB.
pub const MEASURED_ON: [(&str, usize); 4] = [
    ("random-d20-32-s1", 60),
    ("rooms-r8-128-s1", 30),
    ("random-d25-256-s1", 20),
    ("rooms-r32-1024-s1", 6),
];

/// Key increments (a pushed key minus the key popped last) of the searches of
/// [`MEASURED_ON`] with a monotone duplicate-insertion frontier (`radix-heap-dup`, so keys
/// are `f` alone and every queue accepts them): their 32 quantiles at (i + ½)/32,
/// drawn uniformly. Measured by the test `the_stated_inputs_are_those_of_the_named_maps`
/// (`cargo test -p pqlab --lib stated_inputs`), which fails when the searches change.
pub const INCREMENTS: [u64; 32] = [
    0, 0, 0, 0, 0, 0, 114_243, 114_243, 114_243, 114_243, 161_564, 161_564, 161_564, 161_564,
    161_564, 161_564, 161_564, 275_807, 275_807, 275_807, 275_807, 390_050, 390_050, 390_050,
    390_050, 390_050, 390_050, 551_614, 551_614, 551_614, 551_614, 551_614,
];

/// The share of frontier operations that lower a held key (decrease-keys over pushes and
/// decrease-keys) in the searches of [`MEASURED_ON`] with a decrease-key frontier,
/// measured by the same test (to 4 decimals).
pub const DECREASE_SHARE: f64 = 0.4524;

/// The largest key a hold pushes: its keys rise with every pop, and past this it starts
/// again from 0 ([`Hold::restart`]), so they stay in the range of A\*'s `f` (below 2³², which
/// narrow queues need). Rule: half that range, so an increment never crosses it; held at
/// 10 entries the floor reaches it after about 10⁵ operations, and a restart costs 10 pushes.
const KEY_LIMIT: Key = 1 << 31;

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
    rng: SplitMix64,
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
            rng: SplitMix64(0x9e37_79b9_7f4a_7c15),
        }
    }

    #[inline]
    fn random(&mut self) -> u64 {
        self.rng.next_u64()
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
    /// within their span), then `1..size` with random increments, until `deadline` (if
    /// any); returns how many it pushed (all of them unless the deadline passed).
    fn fill(&mut self, deadline: Option<Instant>) -> Result<usize, String> {
        for node in 0..self.key_of.len() as Node {
            if node % 1024 == 0 && deadline.is_some_and(|d| Instant::now() > d) {
                return Ok(node as usize);
            }
            let key = if node == 0 { 0 } else { self.increment() };
            self.queue.push(node, key).map_err(|e| e.to_string())?;
            self.hold(node, key);
        }
        Ok(self.key_of.len())
    }

    /// Starts the hold again from key 0 (the queue cleared, then filled as at the check,
    /// which it passed): every queue alike, once its floor nears [`KEY_LIMIT`].
    #[cold]
    fn restart(&mut self) {
        self.queue.clear();
        self.held.clear();
        self.slot.fill(NOT_HELD);
        self.fill(None).expect("the hold filled at its check fills again");
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
        if pushed > KEY_LIMIT {
            self.restart();
            return key;
        }
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

/// What a queue's estimated memory at a size is multiplied by: its bytes per entry grew by
/// at most 1.41× from 10⁶ to 10⁷ entries, hold included (`fibonacci-heap-dup`, 54 to 76
/// bytes, on a maps run); 1.5 covers that.
pub const MEMORY_MARGIN: f64 = 1.5;

/// Why a held queue was not timed at a size.
#[derive(Clone, Debug, PartialEq)]
pub enum Stopped {
    /// Not applicable, failed, or a pass of [`BATCH`] operations cut off
    /// ([`Untimed::CutOff`], its `ran` a lower bound on that pass).
    Untimed(Untimed),
    /// Filling or warming up stopped over the fill limit: no operation at this size was
    /// timed, so the row has no bound on the time per operation (neither is the operation
    /// the rankings compare).
    Setup(String),
}

/// Fills a queue to a held size and checks its order on the way; the contender is the
/// held queue.
///
/// The queue is cut off only on what it did at this size: when filling and the warm-up
/// (up to 10,000 operations: a fresh fill's first operations can be far slower than its
/// steady state, as a splay tree's are) run past `fill_limit`, a cost guard on setup that
/// the rankings do not compare; or when its first timed pass of [`BATCH`] operations runs
/// past `pass_limit` on the thread's CPU clock (the clock the rounds use, so a busy
/// machine's preemptions do not count). That pass is stopped there, and its `ran` is a
/// lower bound on the pass: the operations it did not reach can only add time. Over the
/// baseline's first pass at the same size, it is a lower bound on the queue's time per
/// operation over the baseline's, the quantity the rankings compare.
pub struct CheckHold {
    /// The held size.
    pub size: usize,
    /// The longest filling may take.
    pub fill_limit: Duration,
    /// The longest one pass of [`BATCH`] operations may take.
    pub pass_limit: Duration,
}

impl Visitor for CheckHold {
    type Output = Result<Check<'static>, Stopped>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
        F::available().map_err(|why| Stopped::Untimed(Untimed::NotApplicable(why.to_owned())))?;
        if !F::ORDER.is_exact() {
            return Err(Stopped::Untimed(Untimed::NotApplicable(
                "a held frontier needs exact pops (its floor follows the popped keys)".into(),
            )));
        }
        let started = Instant::now();
        let (mut hold, bytes_per_entry) = self.fill::<F>(started)?;
        // A warm-up reaches steady state, then one pass is timed; both check the order.
        let mut floor = 0;
        self.warm_up(&mut hold, &mut floor, started)?;
        let pass = self.first_pass(&mut hold, &mut floor)?;
        Ok(Check {
            contender: Box::new(hold),
            counters: Vec::new(),
            excess: None,
            pass,
            bytes_per_entry,
            held_bytes: None,
            parked: false,
        })
    }
}

impl CheckHold {
    /// Fills a hold of `F` to the size, stopped over the fill limit (counted from
    /// `started`); gives it and the queue's heap bytes per entry, where they are counted.
    fn fill<F: Frontier>(&self, started: Instant) -> Result<(Hold<F>, Option<f64>), Stopped> {
        let (filled, bytes) = Counting::measure(|| {
            let mut hold = Hold::<F>::new(self.size, &INCREMENTS, DECREASE_SHARE);
            hold.fill(started.checked_add(self.fill_limit)).map(|n| (hold, n))
        });
        let (hold, n) = filled
            .map_err(|reason| Stopped::Untimed(Untimed::Failed(format!("filling: {reason}"))))?;
        if n < self.size {
            return Err(Stopped::Setup(format!(
                "filling stopped at {n} of {} entries after {}, over the {} limit",
                self.size,
                crate::format::time(started.elapsed().as_secs_f64() * 1e9),
                crate::format::time(self.fill_limit.as_secs_f64() * 1e9)
            )));
        }
        let bytes_per_entry = bytes.map(|b| {
            (b as f64 - (HOLD_BYTES_PER_ENTRY * self.size) as f64).max(0.0) / self.size as f64
        });
        Ok((hold, bytes_per_entry))
    }

    /// The warm-up: up to 10,000 operations (a fresh fill's first operations can be far
    /// slower than its steady state), stopped when filling and warming up pass the fill
    /// limit (counted from `started`).
    fn warm_up<F: Frontier>(
        &self,
        hold: &mut Hold<F>,
        floor: &mut Key,
        started: Instant,
    ) -> Result<(), Stopped> {
        for i in 0..self.size.min(10_000) {
            ordered_step(hold, floor)?;
            if i % 64 == 63 && started.elapsed() > self.fill_limit {
                return Err(Stopped::Setup(format!(
                    "warming up stopped after {} of filling and {} operations, over the {} limit",
                    crate::format::time(started.elapsed().as_secs_f64() * 1e9),
                    i + 1,
                    crate::format::time(self.fill_limit.as_secs_f64() * 1e9)
                )));
            }
        }
        Ok(())
    }

    /// The first timed pass of [`BATCH`] operations on the thread's CPU clock, stopped (a
    /// cut-off, its time a lower bound) over the pass limit; gives its time.
    fn first_pass<F: Frontier>(
        &self,
        hold: &mut Hold<F>,
        floor: &mut Key,
    ) -> Result<Duration, Stopped> {
        let cpu = |since: u64| Duration::from_nanos(thread_cpu_ns().saturating_sub(since));
        let timed = thread_cpu_ns();
        for i in 0..BATCH {
            ordered_step(hold, floor)?;
            if i % 16 == 15 && cpu(timed) > self.pass_limit {
                let ran = cpu(timed);
                return Err(Stopped::Untimed(Untimed::cut_off(
                    format!(
                        "its first timed pass of {BATCH} operations stopped after {} of CPU \
                         time ({} done), over the {} limit",
                        crate::format::time(ran.as_secs_f64() * 1e9),
                        i + 1,
                        crate::format::time(self.pass_limit.as_secs_f64() * 1e9)
                    ),
                    ran,
                )));
            }
        }
        Ok(cpu(timed))
    }
}

/// One steady-state operation of `hold`, failing when its pop is below `floor`, the key
/// popped before it (the queue misordered); `floor` becomes the key popped.
#[inline]
fn ordered_step<F: Frontier>(hold: &mut Hold<F>, floor: &mut Key) -> Result<(), Stopped> {
    let key = hold.step();
    let misordered = key < *floor;
    *floor = key;
    if misordered {
        return Err(Stopped::Untimed(Untimed::Failed(format!(
            "popped key {key} after a larger one: the queue misordered"
        ))));
    }
    Ok(())
}

/// Fills a queue to `size` entries (or until `limit`), untimed, and gives the heap bytes it
/// and the hold allocated per entry pushed, or `None` where the lab's allocator is not
/// installed or the queue cannot be held. The lab estimates a queue's memory at a size
/// from a probe a tenth the size.
pub struct Probe {
    /// The size to fill to.
    pub size: usize,
    /// The longest the fill may take.
    pub limit: Duration,
}

impl Visitor for Probe {
    type Output = Option<f64>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Option<f64> {
        if !F::ORDER.is_exact() || F::available().is_err() {
            return None;
        }
        let deadline = Instant::now().checked_add(self.limit);
        // The hold is returned, so that it is dropped after the count.
        let ((_hold, filled), bytes) = Counting::measure(|| {
            let mut hold = Hold::<F>::new(self.size, &INCREMENTS, DECREASE_SHARE);
            let filled = hold.fill(deadline);
            (hold, filled)
        });
        let n = filled.ok()?.max(1);
        Some(bytes? as f64 / n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hold_keeps_its_size_and_pops_in_order() {
        use pqlab_queues::dary_heap::DaryHeap;
        use pqlab_queues::{Dk, Dup};
        fn check<F: Frontier>() {
            let increments = [0, 10, 14, 28];
            let mut hold = Hold::<F>::new(100, &increments, 0.3);
            hold.fill(None).unwrap();
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

    /// However long a hold runs, its keys stay at most [`KEY_LIMIT`] (it restarts from 0
    /// past it), so a narrow queue (keys below 2³²) is held as long as any other: at 10
    /// entries with the stated increments, a million operations restart it several times,
    /// the size kept throughout.
    #[test]
    fn a_long_hold_keeps_its_keys_below_the_limit() {
        use pqlab_queues::dary_heap::DaryHeap;
        use pqlab_queues::Dup;
        let mut hold = Hold::<DaryHeap<4, Dup>>::new(10, &INCREMENTS, DECREASE_SHARE);
        hold.fill(None).unwrap();
        let (mut restarts, mut last, mut first_restart) = (0, 0, None);
        for step in 0..1_000_000u64 {
            let key = hold.step();
            assert!(key <= KEY_LIMIT, "{key}");
            if key < last {
                restarts += 1;
                first_restart.get_or_insert(step);
            }
            last = key;
            assert_eq!(hold.held.len(), 10);
        }
        assert!(restarts >= 2, "{restarts} restarts, the first at {first_restart:?}");
        println!("{restarts} restarts, the first after {first_restart:?} operations");
    }

    /// Re-measures [`INCREMENTS`] and [`DECREASE_SHARE`] on the workloads of [`MEASURED_ON`]
    /// and prints them (`-- --nocapture`), failing when they differ from the stated ones.
    #[test]
    fn the_stated_inputs_are_those_of_the_named_maps() {
        use crate::lab::searches::{record_within, Prepared};
        use crate::lab::workloads::{Role, Source, WorkloadSpec};
        use crate::search::astar::AStar;
        use crate::search::trace::Op;
        use crate::search::Series;
        use pqlab_queues::dary_heap::DaryHeap;
        use pqlab_queues::radix_heap::RadixHeap;
        use pqlab_queues::{Dk, Dup};

        let specs: Vec<WorkloadSpec> = MEASURED_ON
            .iter()
            .map(|&(map, problems)| WorkloadSpec {
                source: Source::Generated { map: map.parse().unwrap(), problems },
                series: Series::OCTILE,
                role: Role::Bands,
                replay: false,
            })
            .collect();
        let mut increments = Vec::new();
        let (mut decreases, mut pushes) = (0u64, 0u64);
        for spec in &specs {
            let prepared = Prepared::new(spec).unwrap();
            for trace in record_within::<RadixHeap<Dup>>(&prepared, usize::MAX).unwrap().unwrap() {
                let mut floor = None;
                for op in &trace.ops {
                    match *op {
                        Op::Pop(_, key) => floor = Some(key),
                        Op::Push(_, key) => increments.extend(floor.map(|f| key - f)),
                        Op::Clear => floor = None,
                    }
                }
            }
            let mut search = AStar::<DaryHeap<4, Dk>>::new(
                &prepared.instance.grid,
                prepared.spec.series.rules(),
            );
            let mut heuristic = prepared.heuristic.clone();
            for p in &prepared.instance.problems {
                let grid = &prepared.instance.grid;
                let c = search
                    .search(grid, &mut heuristic, Some(&prepared.components), p.start, p.goal)
                    .unwrap()
                    .counters;
                decreases += c.decrease_keys;
                pushes += c.pushes + c.decrease_keys;
            }
        }
        increments.sort_unstable();
        let n = INCREMENTS.len();
        let quantiles: Vec<u64> =
            (0..n).map(|i| increments[(2 * i + 1) * increments.len() / (2 * n)]).collect();
        let share = decreases as f64 / pushes as f64;
        println!("INCREMENTS = {quantiles:?}\nDECREASE_SHARE = {share:.4}");
        assert_eq!(quantiles, INCREMENTS);
        assert!((share - DECREASE_SHARE).abs() < 5e-5, "{share}");
    }
}
