//! A workload's contenders keep their search state between samples only while it fits
//! the memory limit: with the lab's counting allocator installed (as `cargo bench` has
//! it), a contender past the limit is released after its check and built again for each
//! sample, and it times the same searches as one kept built.

use std::time::Duration;

use pqlab::lab::contest::Contest;
use pqlab::lab::memory::{Counting, Keep};
use pqlab::lab::searches::{CheckQueue, Prepared};
use pqlab::lab::workloads::{Role, Source, WorkloadSpec};
use pqlab::search::Series;
use pqlab_queues::registry;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn prepared() -> Prepared {
    let spec = WorkloadSpec {
        source: Source::Generated { map: "rooms-r8-128-s1".parse().unwrap(), problems: 6 },
        series: Series::OCTILE,
        role: Role::Bands,
        replay: false,
    };
    Prepared::new(&spec).unwrap()
}

#[test]
fn contenders_past_the_memory_limit_are_parked_and_still_timed() {
    let prepared = prepared();
    let queues = ["std-binary-heap-dup", "dary4-dk", "radix-heap-dup", "pairing-heap-dup"];
    let check = |keep: &mut Keep, id: &str| {
        keep.check(|| {
            registry::visit(id, CheckQueue { prepared: &prepared, limit: Duration::MAX })
                .expect("registered")
        })
        .unwrap_or_else(|why| panic!("{id}: {why:?}"))
    };
    // A limit that holds every contender keeps them all.
    let mut roomy = Keep::new(usize::MAX);
    assert!(queues.iter().all(|id| !check(&mut roomy, id).parked));
    // One that holds one contender's state and half another's (each at least the store's
    // 8 bytes a cell; the compiled moves are the workload's, shared) keeps the first and parks
    // the rest.
    let cells = 130 * 130;
    let mut tight = Keep::new(8 * cells + 8 * cells / 2);
    let checks: Vec<_> = queues.iter().map(|id| check(&mut tight, id)).collect();
    let parked: Vec<bool> = checks.iter().map(|c| c.parked).collect();
    assert_eq!(parked, [false, true, true, true], "the limit holds one and a half");
    // Parked or kept, every contender is timed: one sample a round each.
    let mut contest = Contest::new("keep", Duration::ZERO);
    for (check, id) in checks.into_iter().zip(queues) {
        contest.enter(id, 6, check);
    }
    contest.time(3);
    for (id, s) in contest.finish() {
        assert_eq!(s.cpu.len(), 3, "{id}");
        assert_eq!(s.searches.len(), 3 * 6, "{id}: one latency a search");
    }
}
