//! `analysis::workloads`: rows grouped into workloads, and each workload's one size.

use pqlab_queues::registry::BASELINE;

use crate::analysis::fixture::{cut_off, octile, sample, steady};
use crate::analysis::Run;
use crate::results::{Kind, Status};

/// Rule: rows group by kind and workload name, smallest frontier first within a kind.
#[test]
fn workloads_group_by_kind_and_name_and_sort_by_size() {
    let rows = sample();
    let run = Run::new(&rows);
    let astar: Vec<(&str, f64)> = run.of(Kind::Astar).map(|w| (w.name, w.size)).collect();
    assert_eq!(
        astar,
        [("small", 20.0), ("middle", 1500.0), ("dijkstra", 5000.0), ("large", 50_000.0)]
    );
    let held: Vec<&str> = run.of(Kind::Synthetic).map(|w| w.name).collect();
    assert_eq!(held, ["held-20", "held-300000"]);
    let large = run.of(Kind::Astar).last().unwrap();
    assert_eq!(large.rows.len(), 4);
    assert!(large.ok("sorted-array-dk").is_none(), "a cut-off row is not `ok`");
    assert_eq!(large.fastest(|_| true).unwrap().queue, "bucket-queue-dup");
}

/// Rule: a workload's size is the median `max_open` of its measured rows; rows not timed
/// count only when no row was.
#[test]
fn a_workload_size_is_the_median_of_its_measured_rows() {
    let w = octile("w");
    let mut failed = steady(&w, "dary4-dup", 1e6, 1.0);
    failed.status = Status::Failed;
    let rows = vec![
        steady(&w, BASELINE, 100.0, 1.0),
        steady(&w, "dary2-dup", 110.0, 1.0),
        steady(&w, "dary8-dup", 400.0, 1.0),
        failed.clone(),
        cut_off(&w, "sorted-array-dk", 9.0),
    ];
    assert_eq!(Run::new(&rows).workloads[0].size, 110.0);
    // Nothing measured: every row reporting a size counts.
    let untimed = vec![failed, cut_off(&w, "sorted-array-dk", 9.0)];
    assert_eq!(Run::new(&untimed).workloads[0].size, 1e6);
}
