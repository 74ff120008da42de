//! How the A\* orders cells of equal `f`: its tie rule, which fixes the key it gives the
//! frontier. The default, [`LargerG`], is the A\*'s own; the others are searches of the
//! registry (`astar-ties-…`), so the lab measures what each rule costs and saves.
//!
//! A rule writes `f` in a key's high 32 bits and its order among equal `f` in the low ones,
//! or gives `f` alone and leaves the order to the queue. A queue takes a rule when the
//! rule's keys fit the queue's [`KeyRule`]: within one search a child keeps or raises its
//! parent's `f` under a consistent heuristic, so a composite key whose low part grows
//! with the push (a later push, a larger `g`) never falls below the last popped key, and a
//! monotone queue takes it; one whose low part shrinks (a larger `g` first, the last push
//! first) does, and only queues taking any key can. Bounded-span queues (a span of twice
//! the dearest move) and narrow ones (32-bit keys) take `f` alone.
//!
//! Staleness: a popped entry is current when its cell's `g` is the one it was pushed
//! with. Keys holding `g` say so directly; the others hold `f`, and `f − h` is that `g`
//! (`h` of a cell never changes within a search).

use pqlab_queues::{Key, KeyRule};

/// A tie rule: the key for a cell with `f` and `g` (both below 2³²), pushed as the search's
/// `seq`-th push, for a queue of key rule `keys`. The methods are inlined into the A\*'s
/// loop, with `keys` a constant there.
pub trait TieRule: 'static {
    /// `Ok` when a queue of `keys` takes this rule's keys, else why not.
    fn takes(keys: KeyRule) -> Result<(), String>;

    /// The key.
    fn key(keys: KeyRule, f: u64, g: u64, seq: u32) -> Key;

    /// Whether a popped `key` is current for its cell, whose `g` is `g` now; `h` gives the
    /// cell's estimate when the key holds `f` alone.
    fn current(keys: KeyRule, key: Key, g: u32, h: impl FnOnce() -> u64) -> bool;
}

/// Larger `g` first (the deepest cell, usually nearest the goal; equally, smaller `h`) where
/// the queue takes any key: `f << 32 | (2³² − 1 − g)`. A restricted queue is given `f`
/// alone, since a child with the same `f` has a larger `g` and its key would fall below the
/// last popped one: its own order decides there (LIFO for the bucket queues). The A\*'s
/// default.
#[derive(Debug)]
pub enum LargerG {}

impl TieRule for LargerG {
    fn takes(_: KeyRule) -> Result<(), String> {
        Ok(())
    }

    #[inline(always)]
    fn key(keys: KeyRule, f: u64, g: u64, _: u32) -> Key {
        if keys == KeyRule::Any {
            f << 32 | (u64::from(u32::MAX) - g)
        } else {
            f
        }
    }

    #[inline(always)]
    fn current(keys: KeyRule, key: Key, g: u32, h: impl FnOnce() -> u64) -> bool {
        if keys == KeyRule::Any {
            key as u32 == u32::MAX - g
        } else {
            key == u64::from(g) + h()
        }
    }
}

/// `f` alone for every queue: ties in the queue's own order ([`pqlab_queues::Ties`]), what
/// an A\* does that breaks no tie.
#[derive(Debug)]
pub enum QueueOrder {}

impl TieRule for QueueOrder {
    fn takes(_: KeyRule) -> Result<(), String> {
        Ok(())
    }

    #[inline(always)]
    fn key(_: KeyRule, f: u64, _: u64, _: u32) -> Key {
        f
    }

    #[inline(always)]
    fn current(_: KeyRule, key: Key, g: u32, h: impl FnOnce() -> u64) -> bool {
        key == u64::from(g) + h()
    }
}

/// Smaller `g` first (larger `h`): `f << 32 | g`, monotone.
#[derive(Debug)]
pub enum SmallerG {}

impl TieRule for SmallerG {
    fn takes(keys: KeyRule) -> Result<(), String> {
        composite(keys, true, "smaller g first")
    }

    #[inline(always)]
    fn key(_: KeyRule, f: u64, g: u64, _: u32) -> Key {
        f << 32 | g
    }

    #[inline(always)]
    fn current(_: KeyRule, key: Key, g: u32, _: impl FnOnce() -> u64) -> bool {
        key as u32 == g
    }
}

/// The first pushed first: `f << 32 | seq`, monotone.
#[derive(Debug)]
pub enum Fifo {}

impl TieRule for Fifo {
    fn takes(keys: KeyRule) -> Result<(), String> {
        composite(keys, true, "first in, first out")
    }

    #[inline(always)]
    fn key(_: KeyRule, f: u64, _: u64, seq: u32) -> Key {
        f << 32 | u64::from(seq)
    }

    #[inline(always)]
    fn current(_: KeyRule, key: Key, g: u32, h: impl FnOnce() -> u64) -> bool {
        key >> 32 == u64::from(g) + h()
    }
}

/// The last pushed first: `f << 32 | (2³² − 1 − seq)`, for queues that take any key.
#[derive(Debug)]
pub enum Lifo {}

impl TieRule for Lifo {
    fn takes(keys: KeyRule) -> Result<(), String> {
        composite(keys, false, "last in, first out")
    }

    #[inline(always)]
    fn key(_: KeyRule, f: u64, _: u64, seq: u32) -> Key {
        f << 32 | u64::from(u32::MAX - seq)
    }

    #[inline(always)]
    fn current(_: KeyRule, key: Key, g: u32, h: impl FnOnce() -> u64) -> bool {
        key >> 32 == u64::from(g) + h()
    }
}

/// Whether a queue of `keys` takes 64-bit composite keys of `rule`, `monotone` when they
/// never fall below the last popped one.
fn composite(keys: KeyRule, monotone: bool, rule: &str) -> Result<(), String> {
    match keys {
        KeyRule::Any => Ok(()),
        KeyRule::Monotone if monotone => Ok(()),
        KeyRule::Monotone => Err(format!(
            "ties broken {rule} need keys that fall below the last popped one among equal f, and the queue is monotone"
        )),
        KeyRule::BoundedSpan => Err(format!(
            "ties broken {rule} need 64-bit keys (f in the high half), far beyond the queue's key span"
        )),
        KeyRule::Narrow => Err(format!(
            "ties broken {rule} need 64-bit keys (f in the high half), and the queue takes keys below 2^32"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child of a cell popped at `(f, g)`, pushed later with the same `f`.
    fn child_not_below<T: TieRule>(keys: KeyRule) -> bool {
        let parent = T::key(keys, 100, 40, 7);
        let child = T::key(keys, 100, 45, 8);
        child >= parent
    }

    #[test]
    fn a_monotone_queue_is_given_only_keys_that_never_fall_below_the_last_popped_one() {
        for keys in [KeyRule::Any, KeyRule::Monotone, KeyRule::BoundedSpan, KeyRule::Narrow] {
            let monotone = keys.is_monotone() || keys == KeyRule::Narrow;
            assert!(!monotone || child_not_below::<LargerG>(keys), "{keys:?}");
            assert!(child_not_below::<QueueOrder>(keys));
            for (takes, kept) in [
                (SmallerG::takes(keys), child_not_below::<SmallerG>(keys)),
                (Fifo::takes(keys), child_not_below::<Fifo>(keys)),
                (Lifo::takes(keys), child_not_below::<Lifo>(keys)),
            ] {
                assert!(takes.is_err() || !keys.is_monotone() || kept, "{keys:?}");
            }
        }
        assert!(!child_not_below::<LargerG>(KeyRule::Any), "larger g first falls below");
        assert!(!child_not_below::<Lifo>(KeyRule::Any), "the last push first falls below");
        assert!(Lifo::takes(KeyRule::Monotone).is_err());
        assert!(Fifo::takes(KeyRule::BoundedSpan).unwrap_err().contains("span"));
    }

    #[test]
    fn a_key_is_current_only_for_the_g_it_was_pushed_with() {
        let h = || 60;
        fn check<T: TieRule>(keys: KeyRule, h: impl Fn() -> u64 + Copy) {
            let key = T::key(keys, 40 + h(), 40, 3);
            assert!(T::current(keys, key, 40, h), "{keys:?}");
            assert!(!T::current(keys, key, 38, h), "{keys:?}: a cheaper path since");
        }
        for keys in [KeyRule::Any, KeyRule::Monotone] {
            check::<LargerG>(keys, h);
            check::<QueueOrder>(keys, h);
            check::<SmallerG>(keys, h);
            check::<Fifo>(keys, h);
            check::<Lifo>(keys, h);
        }
    }

    #[test]
    fn equal_f_pops_in_the_rules_order() {
        // Three cells of equal f, pushed in order with g = 10, 30, 20.
        let order = |key: fn(KeyRule, u64, u64, u32) -> Key| {
            let mut keyed: Vec<(Key, u64)> = [(10, 0), (30, 1), (20, 2)]
                .map(|(g, seq)| (key(KeyRule::Any, 99, g, seq), g))
                .to_vec();
            keyed.sort();
            keyed.into_iter().map(|(_, g)| g).collect::<Vec<_>>()
        };
        assert_eq!(order(LargerG::key), [30, 20, 10]);
        assert_eq!(order(SmallerG::key), [10, 20, 30]);
        assert_eq!(order(Fifo::key), [10, 30, 20]);
        assert_eq!(order(Lifo::key), [20, 30, 10]);
    }
}
