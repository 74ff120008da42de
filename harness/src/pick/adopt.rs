//! The adoption snippet: how to adopt the winner, with the dependency line and the
//! one-line change to the user's A\*, then its key rule and strategy.

use pqlab_queues::registry;
use pqlab_queues::{KeyRule, Origin, Strategy};

/// The dependency line of the `pqlab-queues` crate, not yet published: a path (or git)
/// dependency the user fills in, never this machine's checkout.
const QUEUES: &str = "pqlab-queues = { path = \"<your pqlab checkout>/queues\" }";

/// How to adopt `e`: the exact dependency line and the one-line change in the user's A*,
/// then its key rule and strategy.
pub(super) fn adoption(e: &'static registry::Entry) -> String {
    let generic = |ty: &str| {
        format!(
            "for `pathfinding::prelude::astar(&start, successors, heuristic, success)` call \
             `pqlab_queues::astar::<{ty}, _, _, _>(&start, successors, heuristic, success)?`"
        )
    };
    let how = match e.origin {
        Origin::Ours { .. } => {
            let ty = registry::type_name(e.id).expect("a registered queue");
            format!(
                "depend on `{QUEUES}` (a path or git dependency you fill in: the crate is not on crates.io yet), and {}",
                generic(ty)
            )
        }
        Origin::Std { path } => format!(
            "use `{path}` of `Reverse` keys with duplicate insertion (as `pathfinding::prelude::astar` does), or {}",
            generic("pqlab_queues::std_binary_heap::StdBinaryHeap")
        ),
        Origin::Crate { name, version, usage, .. } => {
            format!("depend on `{name} = \"{version}\"`, and in an A* around std's `BinaryHeap` use {usage}")
        }
    };
    let keys = match e.keys {
        KeyRule::Any => "it accepts any key".to_owned(),
        KeyRule::Monotone => "it needs monotone keys: a consistent heuristic, never a key below the last popped one".to_owned(),
        KeyRule::BoundedSpan => "it needs monotone keys within a span declared up front (the largest key minus the last popped one; under a consistent heuristic, twice the largest edge cost is enough)".to_owned(),
        KeyRule::Narrow => "it takes keys below 2^32 (a grid search's `f` in 32 bits), in any order".to_owned(),
    };
    let strategy = match e.strategy {
        Strategy::Duplicates => "push a node again when its cost improves and skip stale pops",
        Strategy::DecreaseKey => "it lowers a held node's key in place",
    };
    format!("To adopt `{}`: {how}; {keys}; {strategy}.", e.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_queue_is_adopted_with_a_dependency_line_and_a_one_line_change() {
        for e in registry::ENTRIES {
            let text = adoption(e);
            match e.origin {
                Origin::Ours { .. } => {
                    assert!(text.contains("`pqlab-queues = { path = "), "{text}");
                    assert!(text.contains("`pqlab_queues::astar::<pqlab_queues::"), "{text}");
                }
                Origin::Std { path } => assert!(text.contains(path), "{text}"),
                Origin::Crate { name, version, usage, .. } => {
                    assert!(text.contains(&format!("`{name} = \"{version}\"`")), "{text}");
                    assert!(text.contains(usage), "{text}");
                }
            }
        }
    }
}
