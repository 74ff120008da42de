//! The conformance suite: every registered queue against one reference model.
//!
//! For each registry entry this file makes a module (`cargo test` prints e.g.
//! `dary4_dk::matches_the_model_on_random_operations ... ok`) with:
//! * model-based property tests: random interleavings of push, pop and clear, with many
//!   ties, small and large key ranges, pops from empty, reuse after clear, nodes out of
//!   range, and for restricted queues keys shaped like A* plus keys that break the rule;
//! * a long A*-shaped run (tens of thousands of operations, frontiers in the thousands);
//! * the misuse checks: every rejected push names the broken rule and leaves the queue as
//!   it was.
//!
//! Seeds are fixed, so every run tests the same cases.

use std::collections::{BTreeMap, HashMap};

use pqlab_queues::Strategy as QueueStrategy;
use pqlab_queues::{Frontier, Key, KeyRule, Node, PushError, Pushed, Spec};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// The reference: what any correct frontier holds, and what each push must answer.
#[derive(Debug)]
struct Model {
    strategy: QueueStrategy,
    rule: KeyRule,
    spec: Spec,
    /// Every entry held, as (key, node) with a multiplicity (duplicates may repeat).
    entries: BTreeMap<(Key, Node), usize>,
    /// Decrease-key only: each held node's key.
    keys: HashMap<Node, Key>,
    /// The floor of the contract, once set.
    floor: Option<Key>,
}

impl Model {
    fn new(strategy: QueueStrategy, rule: KeyRule, spec: Spec) -> Self {
        Model { strategy, rule, spec, entries: BTreeMap::new(), keys: HashMap::new(), floor: None }
    }

    fn len(&self) -> usize {
        self.entries.values().sum()
    }

    fn min_key(&self) -> Option<Key> {
        self.entries.keys().next().map(|&(key, _)| key)
    }

    /// What the contract says `push(node, key)` must answer; applies it when it succeeds.
    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        if node as usize >= self.spec.capacity {
            return Err(PushError::NodeOutOfRange { node, capacity: self.spec.capacity });
        }
        match self.rule {
            KeyRule::Any => {}
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
            if let Some(&held) = self.keys.get(&node) {
                if key >= held {
                    return Ok(Pushed::Kept);
                }
                self.remove(node, held);
                self.add(node, key);
                return Ok(Pushed::Decreased);
            }
        }
        self.add(node, key);
        Ok(Pushed::Added)
    }

    fn add(&mut self, node: Node, key: Key) {
        *self.entries.entry((key, node)).or_default() += 1;
        if self.strategy == QueueStrategy::DecreaseKey {
            self.keys.insert(node, key);
        }
    }

    fn remove(&mut self, node: Node, key: Key) {
        let count = self.entries.get_mut(&(key, node)).expect("entry is held");
        *count -= 1;
        if *count == 0 {
            self.entries.remove(&(key, node));
        }
        if self.strategy == QueueStrategy::DecreaseKey {
            self.keys.remove(&node);
        }
    }

    /// Checks a pop's answer against the model and applies it.
    fn pop(&mut self, popped: Option<(Node, Key)>) -> Result<(), String> {
        match (popped, self.min_key()) {
            (None, None) => Ok(()),
            (None, Some(min)) => {
                Err(format!("pop answered None with {} entries held, min key {min}", self.len()))
            }
            (Some(entry), None) => Err(format!("pop answered {entry:?} from an empty queue")),
            (Some((node, key)), Some(min)) => {
                if key != min {
                    return Err(format!(
                        "pop answered key {key} (node {node}) but the minimum is {min}"
                    ));
                }
                if !self.entries.contains_key(&(key, node)) {
                    return Err(format!(
                        "pop answered node {node} with key {key}, which is not held"
                    ));
                }
                self.remove(node, key);
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
        Pair { queue: F::new(spec), model: Model::new(F::STRATEGY, F::KEYS, spec), log: Vec::new() }
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
    Clear,
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
        1 => Just(Op::Clear),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(1usize), Just(2), 1usize..=16, 1usize..=300],
        prop_oneof![Just(0u64), Just(1), 0u64..=8, 0u64..=1000, 0u64..=1_000_000],
        prop_oneof![3 => Just(0u64), 1 => 0u64..=1 << 40, 1 => Just(u64::MAX - 2_000_000)],
        prop::collection::vec(op(), 0..400),
    )
        .prop_map(|(capacity, span, base, ops)| Case { capacity, span, base, ops })
}

fn run_case<F: Frontier>(case: &Case) -> Result<(), String> {
    let mut pair = Pair::<F>::new(Spec { capacity: case.capacity, span: case.span });
    for op in &case.ops {
        match *op {
            Op::Push { node_seed, offset, misuse } => {
                let node = if misuse == 1 {
                    case.capacity as Node + node_seed % 3
                } else {
                    node_seed % case.capacity as Node
                };
                let floor = pair.floor_or(case.base);
                let key = if misuse == 2 {
                    // Below the floor when there is room, else just beyond the span.
                    match floor.checked_sub(1 + offset % 4) {
                        Some(below) if offset % 2 == 0 => below,
                        _ => floor.saturating_add(case.span).saturating_add(1 + offset % 4),
                    }
                } else {
                    floor.saturating_add(offset % (case.span + 1))
                };
                pair.push(node, key)?;
            }
            Op::Pop => pair.pop()?,
            Op::Clear => pair.clear()?,
        }
    }
    pair.drain()?;
    // Reuse after a full drain and a clear.
    pair.clear()?;
    pair.push(0, case.base)?;
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

/// Random operation sequences against the model.
fn matches_the_model<F: Frontier>() {
    let result = runner(3000, 0x5eed_0001)
        .run(&case(), |case| run_case::<F>(&case).map_err(TestCaseError::fail));
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// A long A*-shaped run: pop the minimum, push a few children a little above it (some
/// pushing an already-held node again), frontiers growing into the thousands.
fn survives_a_star_shaped_runs<F: Frontier>() {
    for (seed, span, capacity) in
        [(1u64, 10u64, 50_000usize), (2, 551_614, 50_000), (3, 3, 2_000), (4, 100_000, 200)]
    {
        let mut pair = Pair::<F>::new(Spec { capacity, span });
        let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        pair.push(0, 1000).unwrap();
        for step in 0..20_000u32 {
            let floor = pair.floor_or(1000);
            let children = if step < 5_000 { 3 } else { 1 + next() % 2 };
            for _ in 0..children {
                let node = (next() % capacity as u64) as Node;
                pair.push(node, floor + next() % (span + 1)).unwrap();
            }
            pair.pop().unwrap();
            pair.log.clear();
        }
        pair.drain().unwrap();
    }
}

/// Misuse: every rule break is reported as such and leaves the queue unchanged.
fn reports_misuse<F: Frontier>() {
    let spec = Spec { capacity: 10, span: 100 };
    let mut pair = Pair::<F>::new(spec);
    pair.push(10, 500).unwrap(); // node out of range, checked against the model's answer
    pair.push(1, 500).unwrap();
    pair.push(2, 520).unwrap();
    pair.pop().unwrap(); // floor 500 for restricted queues
    let below = pair.queue.push(3, 499);
    let beyond = pair.queue.push(4, 601);
    match F::KEYS {
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

macro_rules! conformance_tests {
    ($($id:literal $name:ident $ty:ty),* $(,)?) => {$(
        mod $name {
            #[test]
            fn matches_the_model_on_random_operations() {
                super::matches_the_model::<$ty>();
            }

            #[test]
            fn survives_a_star_shaped_runs() {
                super::survives_a_star_shaped_runs::<$ty>();
            }

            #[test]
            fn reports_misuse_and_stays_unchanged() {
                super::reports_misuse::<$ty>();
            }
        }
    )*};
}

pqlab_queues::for_each_queue!(conformance_tests);

/// The model itself must catch a wrong queue, or the suite could not fail.
mod the_model_catches {
    use super::*;

    /// A queue that pops the most recent entry instead of the smallest.
    struct Stack(Vec<(Node, Key)>);

    impl Frontier for Stack {
        const FAMILY: &'static str = "stack";
        const STRATEGY: QueueStrategy = QueueStrategy::Duplicates;
        const KEYS: KeyRule = KeyRule::Any;
        fn new(_: Spec) -> Self {
            Stack(Vec::new())
        }
        fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
            pqlab_queues::check_node(node, 300)?;
            self.0.push((node, key));
            Ok(Pushed::Added)
        }
        fn pop(&mut self) -> Option<(Node, Key)> {
            self.0.pop()
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
        let outcome = std::panic::catch_unwind(matches_the_model::<Stack>);
        assert!(outcome.is_err(), "the suite accepted a stack as a priority queue");
    }
}
