//! The conformance suite: every registered queue against one reference model.
//!
//! For each registry entry this file makes a module (`cargo test` prints e.g.
//! `dary4_dk::matches_the_model_on_random_operations ... ok`) with:
//! * model-based property tests: random interleavings of push, pop and clear, with many
//!   ties, small and large key ranges (up to `u64::MAX`), pops from empty, reuse after
//!   clear, nodes out of range, and for restricted queues keys shaped like A* plus keys
//!   that break the rule; for queues that declare a tie rule, the model also says which
//!   node each pop must return;
//! * a long A*-shaped run (tens of thousands of operations, frontiers in the thousands);
//! * a run holding 100,000 entries, keys reaching `u64::MAX`;
//! * the declared tie rule on a hand-made sequence of equal keys;
//! * the misuse checks: every rejected push names the broken rule and leaves the queue as
//!   it was.
//!
//! Approximate queues (soft heaps) are held to [their own contract](pqlab_queues#the-approximate-contract)
//! instead of the model's order.
//!
//! Seeds are fixed, so every run tests the same cases. `PQLAB_DEEP=1` (CI sets it) runs
//! ten times as many random cases. Every case runs under a watchdog: one that takes longer
//! than [`CASE_LIMIT`] ends the test process with the case's name, so a queue that loops
//! fails in seconds instead of hanging the workload.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pqlab_queues::Strategy as QueueStrategy;
use pqlab_queues::{
    Class, Family, Frontier, Key, KeyRule, Node, Order, Origin, PushError, Pushed, Spec, Ties,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// The longest one case may run. The slowest case measured (the 100,000-entry run of the
/// sorted array with decrease-key, in the test profile) takes about 2 s.
const CASE_LIMIT: Duration = Duration::from_secs(60);

/// Whether the deeper run was asked for (`PQLAB_DEEP=1`).
fn deep() -> bool {
    std::env::var("PQLAB_DEEP").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Ends the process if one case outlives [`CASE_LIMIT`]: the test harness cannot interrupt
/// a looping test, and a hung suite tells nobody which queue hung.
struct Watchdog {
    started: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    epoch: Instant,
}

impl Watchdog {
    fn new(what: String) -> Watchdog {
        let started = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let epoch = Instant::now();
        let (watched, finished) = (started.clone(), done.clone());
        std::thread::spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let since = epoch.elapsed().as_millis() as u64 - watched.load(Ordering::Relaxed);
                if since > CASE_LIMIT.as_millis() as u64 && !finished.load(Ordering::Relaxed) {
                    eprintln!(
                        "{what}: one case ran over {} s: the queue loops",
                        CASE_LIMIT.as_secs()
                    );
                    std::process::exit(101);
                }
            }
        });
        Watchdog { started, done, epoch }
    }

    /// A new case starts now.
    fn case(&self) {
        self.started.store(self.epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}

/// The reference: what any correct frontier holds, and what each push must answer.
#[derive(Debug)]
struct Model {
    strategy: QueueStrategy,
    rule: KeyRule,
    ties: Ties,
    spec: Spec,
    /// Every entry held as (key, newest first) -> node; the sequence number orders entries
    /// by when they were added or lowered to their key.
    entries: BTreeMap<(Key, Reverse<u64>), Node>,
    /// Decrease-key only: each held node's key and sequence number.
    keys: HashMap<Node, (Key, u64)>,
    /// The floor of the contract, once set.
    floor: Option<Key>,
    next_seq: u64,
}

impl Model {
    fn new(strategy: QueueStrategy, rule: KeyRule, ties: Ties, spec: Spec) -> Self {
        Model {
            strategy,
            rule,
            ties,
            spec,
            entries: BTreeMap::new(),
            keys: HashMap::new(),
            floor: None,
            next_seq: 0,
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// What the contract says `push(node, key)` must answer; applies it when it succeeds.
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        if node as usize >= self.spec.capacity {
            return Err(PushError::NodeOutOfRange { node, capacity: self.spec.capacity });
        }
        match self.rule {
            KeyRule::Any => {}
            KeyRule::Narrow if key > Key::from(u32::MAX) => return Err(PushError::TooWide { key }),
            KeyRule::Narrow => {}
            KeyRule::Monotone => {
                let floor = self.floor.unwrap_or(0);
                if key < floor {
                    return Err(PushError::BelowFloor { key, floor });
                }
            }
            KeyRule::BoundedSpan => {
                let floor = *self.floor.get_or_insert(key);
                if key < floor {
                    return Err(PushError::BelowFloor { key, floor });
                }
                if key - floor > self.spec.span {
                    return Err(PushError::BeyondSpan { key, floor, span: self.spec.span });
                }
            }
        }
        if self.strategy == QueueStrategy::DecreaseKey {
            if let Some(&(held, seq)) = self.keys.get(&node) {
                if key >= held {
                    return Ok(Pushed::Kept);
                }
                self.entries.remove(&(held, Reverse(seq)));
                self.add(node, key);
                return Ok(Pushed::Decreased);
            }
        }
        self.add(node, key);
        Ok(Pushed::Added)
    }

    fn add(&mut self, node: Node, key: Key) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.entries.insert((key, Reverse(seq)), node);
        if self.strategy == QueueStrategy::DecreaseKey {
            self.keys.insert(node, (key, seq));
        }
    }

    /// Removes an entry `(key, node)`: the newest one for a LIFO queue (the only one it may
    /// pop), any one otherwise. `None` if no such entry is held.
    fn take(&mut self, key: Key, node: Node) -> Option<()> {
        let found = self
            .entries
            .range((key, Reverse(u64::MAX))..=(key, Reverse(0)))
            .find(|(_, &held)| held == node)
            .map(|(&at, _)| at)?;
        self.entries.remove(&found);
        if self.strategy == QueueStrategy::DecreaseKey {
            self.keys.remove(&node);
        }
        Some(())
    }

    /// Checks a pop's answer against the model and applies it.
    fn pop(&mut self, popped: Option<(Node, Key)>) -> Result<(), String> {
        let first = self.entries.iter().next().map(|(&(key, _), &node)| (key, node));
        match (popped, first) {
            (None, None) => Ok(()),
            (None, Some((min, _))) => {
                Err(format!("pop answered None with {} entries held, min key {min}", self.len()))
            }
            (Some(entry), None) => Err(format!("pop answered {entry:?} from an empty queue")),
            (Some((node, key)), Some((min, newest))) => {
                if key != min {
                    return Err(format!(
                        "pop answered key {key} (node {node}) but the minimum is {min}"
                    ));
                }
                if self.ties == Ties::Lifo && node != newest {
                    return Err(format!(
                        "pop answered node {node} with key {key}, but the queue's ties are LIFO \
                         and node {newest} was added last with that key"
                    ));
                }
                self.take(key, node).ok_or_else(|| {
                    format!("pop answered node {node} with key {key}, which is not held")
                })?;
                if self.rule != KeyRule::Any {
                    self.floor = Some(key);
                }
                Ok(())
            }
        }
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.keys.clear();
        self.floor = None;
    }
}

/// Runs a queue and the model side by side, failing at the first disagreement.
struct Pair<F> {
    queue: F,
    model: Model,
    log: Vec<String>,
}

impl<F: Frontier> Pair<F> {
    fn new(spec: Spec) -> Self {
        Pair {
            queue: F::new(spec),
            model: Model::new(F::STRATEGY, F::KEYS, F::TIES, spec),
            log: Vec::new(),
        }
    }

    fn fail(&self, what: String) -> String {
        let tail = self.log.len().saturating_sub(12);
        format!("{what}\n  last operations: {}", self.log[tail..].join(", "))
    }

    fn push(&mut self, node: Node, key: Key) -> Result<(), String> {
        self.log.push(format!("push({node}, {key})"));
        let expected = self.model.push(node, key);
        let actual = self.queue.push(node, key);
        if actual != expected {
            return Err(self.fail(format!(
                "push({node}, {key}) answered {actual:?}, the contract says {expected:?}"
            )));
        }
        self.check_len()
    }

    fn pop(&mut self) -> Result<(), String> {
        let popped = self.queue.pop();
        self.log.push(format!("pop() = {popped:?}"));
        self.model.pop(popped).map_err(|e| self.fail(e))?;
        self.check_len()
    }

    fn clear(&mut self) -> Result<(), String> {
        self.log.push("clear()".into());
        self.queue.clear();
        self.model.clear();
        self.check_len()
    }

    fn drain(&mut self) -> Result<(), String> {
        while !self.model.entries.is_empty() {
            self.pop()?;
        }
        self.pop()?; // one more: popping an empty queue answers None
        self.pop()
    }

    fn check_len(&self) -> Result<(), String> {
        let (len, expected) = (self.queue.len(), self.model.len());
        if len != expected || self.queue.is_empty() != (expected == 0) {
            return Err(self.fail(format!("len() = {len}, the model holds {expected}")));
        }
        Ok(())
    }

    /// The floor keys are generated from: the model's floor, or `base` before it is set.
    fn floor_or(&self, base: Key) -> Key {
        self.model.floor.unwrap_or(base)
    }
}

/// One generated operation; the key is derived from the model's floor when it is applied.
#[derive(Clone, Debug)]
enum Op {
    /// Push `node_seed % capacity` (or an out-of-range node when `misuse == 1`); the key is
    /// `offset` folded into the case's key range, or a rule-breaking key when `misuse == 2`.
    Push {
        node_seed: u32,
        offset: u64,
        misuse: u8,
    },
    Pop,
    /// Clear, then draw keys from `base_seed` folded into the case's bases: after a clear a
    /// restricted queue must take keys below the ones it held before.
    Clear {
        base_seed: u64,
    },
}

/// One generated case: the queue's spec, where keys start, and the operations.
#[derive(Clone, Debug)]
struct Case {
    capacity: usize,
    /// Keys span `0..=span` above the floor (also the spec's span for bounded queues).
    span: Key,
    /// The floor used before any key is popped: 0, mid-range, or near `u64::MAX`.
    base: Key,
    ops: Vec<Op>,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        11 => (any::<u32>(), any::<u64>(), prop_oneof![20 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)])
            .prop_map(|(node_seed, offset, misuse)| Op::Push { node_seed, offset, misuse }),
        8 => Just(Op::Pop),
        1 => any::<u64>().prop_map(|base_seed| Op::Clear { base_seed }),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(1usize), Just(2), 1usize..=16, 1usize..=300],
        prop_oneof![Just(0u64), Just(1), 0u64..=8, 0u64..=1000, 0u64..=1_000_000, Just(u64::MAX)],
        prop_oneof![3 => Just(0u64), 1 => 0u64..=1 << 40, 1 => Just(u64::MAX - 2_000_000)],
        prop::collection::vec(op(), 0..400),
    )
        .prop_map(|(capacity, span, base, ops)| Case { capacity, span, base, ops })
}

/// The key of a push: `offset` folded into `floor..=floor + span` (saturating at
/// `u64::MAX`), or with `misuse == 2` a key that breaks a restricted queue's rule.
fn key_for(floor: Key, span: Key, offset: u64, misuse: u8) -> Key {
    if misuse == 2 {
        // Below the floor when there is room, else just beyond the span.
        match floor.checked_sub(1 + offset % 4) {
            Some(below) if offset.is_multiple_of(2) => below,
            _ => floor.saturating_add(span).saturating_add(1 + offset % 4),
        }
    } else {
        floor.saturating_add(offset % span.saturating_add(1).max(1))
    }
}

/// `key` as queue `F` takes it: a narrow queue's keys folded below 2³², or with
/// `misuse == 2` a key of 33 bits; other queues' keys unchanged.
fn fit<F: Frontier>(key: Key, misuse: u8) -> Key {
    match (F::KEYS, misuse) {
        (KeyRule::Narrow, 2) => key | 1 << 32,
        (KeyRule::Narrow, _) => key & Key::from(u32::MAX),
        _ => key,
    }
}

/// The span a case uses with queue `F`: bounded-span queues serve spans up to a limit of
/// their own (the bucket queue's table), so theirs stays within 2^20.
fn span_for<F: Frontier>(span: Key) -> Key {
    if F::KEYS == KeyRule::BoundedSpan {
        span.min(1 << 20)
    } else {
        span
    }
}

fn run_case<F: Frontier>(case: &Case) -> Result<(), String> {
    let span = span_for::<F>(case.span);
    let mut pair = Pair::<F>::new(Spec { capacity: case.capacity, span });
    let mut base = case.base;
    for op in &case.ops {
        match *op {
            Op::Push { node_seed, offset, misuse } => {
                let node = if misuse == 1 {
                    case.capacity as Node + node_seed % 3
                } else {
                    node_seed % case.capacity as Node
                };
                let key = fit::<F>(key_for(pair.floor_or(base), span, offset, misuse), misuse);
                pair.push(node, key)?;
            }
            Op::Pop => pair.pop()?,
            Op::Clear { base_seed } => {
                pair.clear()?;
                base = [0, case.base / 2, case.base, base_seed][(base_seed % 4) as usize];
            }
        }
    }
    pair.drain()?;
    // Reuse after a full drain and a clear.
    pair.clear()?;
    pair.push(0, fit::<F>(case.base, 0))?;
    pair.drain()
}

fn runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    })
}

/// Random cases per queue: 1,000 by default, 10,000 with `PQLAB_DEEP=1`. (With 26 queues
/// the whole workload ran in 6 s with 600 cases and 9 s with 3,000, on 2 cores.)
fn cases() -> u32 {
    if deep() {
        10_000
    } else {
        1_000
    }
}

/// Random operation sequences against the model.
fn matches_the_model<F: Frontier>(id: &str) {
    let watchdog = Watchdog::new(format!("{id}: random operations"));
    let result = runner(cases(), 0x5eed_0001).run(&case(), |case| {
        watchdog.case();
        run_case::<F>(&case).map_err(TestCaseError::fail)
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// Whether queue `F` cannot run here (its test then passes, saying why).
fn unavailable<F: Frontier>(id: &str) -> bool {
    F::available().map_err(|why| eprintln!("{id}: n/a: {why}")).is_err()
}

/// A small xorshift generator for the long runs.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    }
}

/// A long A*-shaped run: pop the minimum, push a few children a little above it (some
/// pushing an already-held node again), frontiers growing into the thousands.
fn survives_a_star_shaped_runs<F: Frontier>(id: &str) {
    let watchdog = Watchdog::new(format!("{id}: A*-shaped runs"));
    for (seed, span, capacity) in
        [(1u64, 10u64, 50_000usize), (2, 551_614, 50_000), (3, 3, 2_000), (4, 100_000, 200)]
    {
        watchdog.case();
        let mut pair = Pair::<F>::new(Spec { capacity, span });
        let mut next = xorshift(seed);
        pair.push(0, 1000).unwrap();
        for step in 0..20_000u32 {
            let floor = pair.floor_or(1000);
            let children = if step < 5_000 { 3 } else { 1 + next() % 2 };
            for _ in 0..children {
                let node = (next() % capacity as u64) as Node;
                pair.push(node, fit::<F>(floor + next() % (span + 1), 0)).unwrap();
            }
            pair.pop().unwrap();
            pair.log.clear();
        }
        pair.drain().unwrap();
    }
}

/// Holds 100,000 entries, the largest keys at `u64::MAX`, checked against the model.
///
/// Array queues pay O(n) per push or pop, so they take their entries in descending key
/// order (O(1) pushes for both arrays) and pop 2,000 of them; every other queue takes
/// random keys and is drained.
fn holds_a_hundred_thousand_entries<F: Frontier>(id: &str) {
    const N: usize = 100_000;
    let watchdog = Watchdog::new(format!("{id}: 100,000 entries"));
    watchdog.case();
    let span = span_for::<F>(u64::MAX);
    let mut pair = Pair::<F>::new(Spec { capacity: N, span });
    let mut next = xorshift(7);
    let array = F::FAMILY.class() == Class::Array;
    // Keys reach u64::MAX from `low`; restricted queues get the smallest key first (a
    // bounded-span queue's first push sets its floor), and every key within their span.
    let low = match F::KEYS {
        KeyRule::Any | KeyRule::Narrow => 0,
        KeyRule::Monotone => u64::MAX / 2,
        KeyRule::BoundedSpan => u64::MAX - span,
    };
    let mut keys: Vec<Key> = (0..N)
        .map(|i| match i % 10 {
            0 => low,
            1 => u64::MAX,
            _ => low + next() % (u64::MAX - low),
        })
        .map(|key| fit::<F>(key, 0))
        .collect();
    if array {
        keys.sort_unstable_by(|a, b| b.cmp(a));
    }
    for (node, &key) in keys.iter().enumerate() {
        pair.push(node as Node, key).unwrap();
        pair.log.clear();
    }
    assert_eq!(pair.queue.len(), N);
    if array {
        for _ in 0..2_000 {
            pair.pop().unwrap();
        }
        pair.clear().unwrap();
    } else {
        // Pop half, push some back (decrease-key queues lower held nodes), then drain.
        for _ in 0..N / 2 {
            pair.pop().unwrap();
            pair.log.clear();
        }
        let floor = pair.floor_or(0);
        for node in (0..N as Node).step_by(7) {
            pair.push(node, fit::<F>(floor.saturating_add(next() % 1000), 0)).unwrap();
        }
        pair.log.clear();
        pair.drain().unwrap();
    }
}

/// The declared tie rule on equal keys: a batch pushed with no pop in between pops newest
/// first (both LIFO rules); with [`Ties::Lifo`] also across pops and decrease-keys.
fn keeps_its_tie_rule<F: Frontier>(id: &str) {
    let _watchdog = Watchdog::new(format!("{id}: ties"));
    if F::TIES == Ties::Unspecified {
        return;
    }
    let mut queue = F::new(Spec { capacity: 16, span: 100 });
    for node in [3, 1, 4, 0, 5] {
        queue.push(node, 50).unwrap();
    }
    queue.push(9, 60).unwrap();
    let popped: Vec<Node> = (0..5).map(|_| queue.pop().unwrap().0).collect();
    assert_eq!(popped, [5, 0, 4, 1, 3], "{id}: equal keys must pop newest first");
    assert_eq!(queue.pop(), Some((9, 60)));
    if F::TIES == Ties::Lifo {
        // Across pops: 7 and 8 join 6 at key 70 after a pop; with decrease-key, 10 is
        // lowered to 70 last, so it is the newest.
        for (node, key) in [(6, 70), (10, 90), (11, 70)] {
            queue.push(node, key).unwrap();
        }
        assert_eq!(queue.pop(), Some((11, 70)));
        queue.push(7, 70).unwrap();
        queue.push(8, 70).unwrap();
        let lowered = queue.push(10, 70).unwrap();
        let expected: &[Node] = match F::STRATEGY {
            QueueStrategy::DecreaseKey => {
                assert_eq!(lowered, Pushed::Decreased);
                &[10, 8, 7, 6]
            }
            QueueStrategy::Duplicates => &[10, 8, 7, 6, 10],
        };
        let popped: Vec<Node> = std::iter::from_fn(|| queue.pop()).map(|(n, _)| n).collect();
        assert_eq!(popped, expected, "{id}: LIFO across pops and decrease-keys");
    }
}

/// Misuse: every rule break is reported as such and leaves the queue unchanged.
fn reports_misuse<F: Frontier>(id: &str) {
    let _watchdog = Watchdog::new(format!("{id}: misuse"));
    let spec = Spec { capacity: 10, span: 100 };
    let mut pair = Pair::<F>::new(spec);
    pair.push(10, 500).unwrap(); // node out of range, checked against the model's answer
    pair.push(1, 500).unwrap();
    pair.push(2, 520).unwrap();
    pair.pop().unwrap(); // floor 500 for restricted queues
    let below = pair.queue.push(3, 499);
    let beyond = pair.queue.push(4, 601);
    match F::KEYS {
        KeyRule::Narrow => {
            assert_eq!(below, Ok(Pushed::Added));
            assert_eq!(beyond, Ok(Pushed::Added));
            let wide = pair.queue.push(5, 1 << 32);
            assert_eq!(wide, Err(PushError::TooWide { key: 1 << 32 }));
            assert!(wide.unwrap_err().to_string().contains("2^32"));
            assert_eq!(pair.queue.pop(), Some((3, 499)));
            assert_eq!(pair.queue.pop(), Some((2, 520)));
            assert_eq!(pair.queue.pop(), Some((4, 601)));
        }
        KeyRule::Any => {
            assert_eq!(below, Ok(Pushed::Added));
            assert_eq!(beyond, Ok(Pushed::Added));
            assert_eq!(pair.queue.pop(), Some((3, 499)));
            assert_eq!(pair.queue.pop(), Some((2, 520)));
            assert_eq!(pair.queue.pop(), Some((4, 601)));
        }
        KeyRule::Monotone => {
            assert_eq!(below, Err(PushError::BelowFloor { key: 499, floor: 500 }));
            assert_eq!(beyond, Ok(Pushed::Added));
            let message = below.unwrap_err().to_string();
            assert!(
                message.contains("499") && message.contains("500") && message.contains("monotone"),
                "{message}"
            );
            assert_eq!(pair.queue.pop(), Some((2, 520)));
            assert_eq!(pair.queue.pop(), Some((4, 601)));
        }
        KeyRule::BoundedSpan => {
            assert_eq!(below, Err(PushError::BelowFloor { key: 499, floor: 500 }));
            assert_eq!(beyond, Err(PushError::BeyondSpan { key: 601, floor: 500, span: 100 }));
            let message = beyond.unwrap_err().to_string();
            assert!(message.contains("601") && message.contains("span 100"), "{message}");
            assert_eq!(pair.queue.pop(), Some((2, 520)));
        }
    }
    assert_eq!(pair.queue.pop(), None);
    assert_eq!(pair.queue.len(), 0);
}

/// The approximate contract: every entry pushed pops exactly once with its own key, `len`
/// counts what is held, and a pop of key `k` leaves at most `epsilon × n` entries below
/// `k` held (`n`: pushes since the last clear).
fn keeps_the_approximate_contract<F: Frontier>(id: &str) {
    let Order::Approximate { epsilon } = F::ORDER else { panic!("{id} is not approximate") };
    let watchdog = Watchdog::new(format!("{id}: approximate contract"));
    let check = |case: &Case| -> Result<(), String> {
        let mut queue = F::new(Spec { capacity: case.capacity, span: case.span });
        // Entries held: (key, node) with their count.
        let mut held: BTreeMap<(Key, Node), usize> = BTreeMap::new();
        let mut len = 0usize;
        let mut pushes = 0u64;
        for op in &case.ops {
            match *op {
                Op::Push { node_seed, offset, .. } => {
                    let node = node_seed % case.capacity as Node;
                    let key = key_for(case.base, case.span, offset, 0);
                    queue.push(node, key).map_err(|e| e.to_string())?;
                    *held.entry((key, node)).or_default() += 1;
                    len += 1;
                    pushes += 1;
                }
                Op::Pop => approximate_pop(&mut queue, &mut held, &mut len, pushes, epsilon)?,
                Op::Clear { .. } => {
                    queue.clear();
                    held.clear();
                    len = 0;
                    pushes = 0;
                }
            }
            if queue.len() != len {
                return Err(format!("len() = {}, {len} entries are held", queue.len()));
            }
        }
        while len > 0 {
            approximate_pop(&mut queue, &mut held, &mut len, pushes, epsilon)?;
        }
        if queue.pop().is_some() {
            return Err("pop answered an entry after every entry was popped".into());
        }
        Ok(())
    };
    let result = runner(cases(), 0x5eed_0002).run(&case(), |case| {
        watchdog.case();
        check(&case).map_err(TestCaseError::fail)
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// One pop under the approximate contract; `held` counts the entries held by (key, node).
fn approximate_pop<F: Frontier>(
    queue: &mut F,
    held: &mut BTreeMap<(Key, Node), usize>,
    len: &mut usize,
    pushes: u64,
    epsilon: f64,
) -> Result<(), String> {
    let Some((node, key)) = queue.pop() else {
        return if *len == 0 {
            Ok(())
        } else {
            Err(format!("pop answered None with {len} entries held"))
        };
    };
    let count = held
        .get_mut(&(key, node))
        .ok_or_else(|| format!("pop answered ({node}, {key}), which is not held"))?;
    *count -= 1;
    if *count == 0 {
        held.remove(&(key, node));
    }
    *len -= 1;
    let below: usize = held.range(..(key, 0)).map(|(_, c)| c).sum();
    if below as f64 > epsilon * pushes as f64 {
        return Err(format!(
            "pop answered key {key} with {below} smaller entries held, over epsilon {epsilon} x \
             {pushes} pushes"
        ));
    }
    Ok(())
}

/// The facts a queue declares agree with each other and with its id.
fn declares_consistent_facts<F: Frontier>(id: &str) {
    assert!(id.ends_with(&format!("-{}", F::STRATEGY.suffix())), "{id}: strategy suffix");
    match F::ORIGIN {
        Origin::Ours { file } => {
            assert!(file.starts_with("queues/src/") && file.ends_with(".rs"), "{id}: {file}")
        }
        Origin::Std { path } => assert!(path.starts_with("std::"), "{id}: {path}"),
        Origin::Crate { name, version, .. } => {
            assert!(!name.is_empty() && !version.is_empty(), "{id}: crate origin")
        }
    }
    let approximate = F::FAMILY.class() == Class::Approximate;
    assert_eq!(approximate, !F::ORDER.is_exact(), "{id}: order and class disagree");
    if let Order::Approximate { epsilon } = F::ORDER {
        assert!(epsilon > 0.0 && epsilon < 1.0, "{id}: epsilon {epsilon}");
        assert_eq!(F::FAMILY, Family::SoftHeap);
    }
}

macro_rules! conformance_tests {
    ($($id:literal $name:ident $ty:ty),* $(,)?) => {$(
        mod $name {
            use pqlab_queues::Frontier;

            #[test]
            fn declares_consistent_facts() {
                super::declares_consistent_facts::<$ty>($id);
            }

            #[test]
            fn matches_the_model_on_random_operations() {
                if super::unavailable::<$ty>($id) {
                    return;
                }
                if <$ty as Frontier>::ORDER.is_exact() {
                    super::matches_the_model::<$ty>($id);
                } else {
                    super::keeps_the_approximate_contract::<$ty>($id);
                }
            }

            #[test]
            fn survives_a_star_shaped_runs() {
                if super::unavailable::<$ty>($id) {
                    return;
                }
                if <$ty as Frontier>::ORDER.is_exact() {
                    super::survives_a_star_shaped_runs::<$ty>($id);
                }
            }

            #[test]
            fn holds_a_hundred_thousand_entries() {
                if super::unavailable::<$ty>($id) {
                    return;
                }
                if <$ty as Frontier>::ORDER.is_exact() {
                    super::holds_a_hundred_thousand_entries::<$ty>($id);
                }
            }

            #[test]
            fn keeps_its_tie_rule() {
                if super::unavailable::<$ty>($id) {
                    return;
                }
                super::keeps_its_tie_rule::<$ty>($id);
            }

            #[test]
            fn reports_misuse_and_stays_unchanged() {
                if super::unavailable::<$ty>($id) {
                    return;
                }
                if <$ty as Frontier>::ORDER.is_exact() {
                    super::reports_misuse::<$ty>($id);
                }
            }
        }
    )*};
}

pqlab_queues::for_each_queue!(conformance_tests);

/// The model itself must catch a wrong queue, or the workload could not fail.
mod the_model_catches {
    use super::*;

    /// A queue that pops the most recent entry instead of the smallest, or (as `Fifo`)
    /// claims LIFO ties but pops equal keys oldest first.
    struct Stack<const FIFO_TIES: bool>(Vec<(Node, Key)>);

    impl<const FIFO_TIES: bool> Frontier for Stack<FIFO_TIES> {
        const FAMILY: Family = Family::UnsortedArray;
        const ORIGIN: Origin = Origin::Ours { file: "queues/tests/conformance.rs" };
        const STRATEGY: QueueStrategy = QueueStrategy::Duplicates;
        const KEYS: KeyRule = KeyRule::Any;
        const TIES: Ties = Ties::Lifo;
        fn new(_: Spec) -> Self {
            Stack(Vec::new())
        }
        fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
            pqlab_queues::check_node(node, 300)?;
            self.0.push((node, key));
            Ok(Pushed::Added)
        }
        fn pop(&mut self) -> Option<(Node, Key)> {
            if FIFO_TIES {
                // The minimum key, oldest first among equals: a correct order, wrong ties.
                let (at, _) = self.0.iter().enumerate().min_by_key(|(_, &(_, key))| key)?;
                Some(self.0.remove(at))
            } else {
                self.0.pop()
            }
        }
        fn len(&self) -> usize {
            self.0.len()
        }
        fn clear(&mut self) {
            self.0.clear()
        }
    }

    #[test]
    fn a_queue_that_misorders() {
        let outcome = std::panic::catch_unwind(|| matches_the_model::<Stack<false>>("stack"));
        assert!(outcome.is_err(), "the suite accepted a stack as a priority queue");
    }

    #[test]
    fn a_queue_that_breaks_its_declared_ties() {
        let outcome = std::panic::catch_unwind(|| matches_the_model::<Stack<true>>("fifo"));
        assert!(outcome.is_err(), "the model accepted FIFO ties from a queue declaring LIFO");
        let outcome = std::panic::catch_unwind(|| keeps_its_tie_rule::<Stack<true>>("fifo"));
        assert!(outcome.is_err(), "the tie check accepted FIFO ties from a queue declaring LIFO");
    }
}
