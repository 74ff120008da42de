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

/// Rule: a workload's sibling searches the same map with the same setup (never the generic
/// A\*'s workload of that map), and of several, the one with as many searches.
#[test]
fn a_sibling_has_the_same_map_setup_and_searches() {
    use crate::analysis::fixture::search;
    use crate::search::heuristic::HeuristicKind;
    use crate::search::store::StoreKind;
    use crate::search::{SearchKind, Setup};

    let hashed = search("m/fx", "m", HeuristicKind::Octile, StoreKind::FxHash);
    let generic = crate::lab::rows::WorkloadFacts {
        name: "m/generic".into(),
        ..search("m/generic", "m", HeuristicKind::Octile, StoreKind::Flat)
            .with_setup(Setup { search: SearchKind::Generic, ..Setup::GRID_ASTAR })
    };
    let fewer = search("m/flat-fewer", "m", HeuristicKind::Octile, StoreKind::Flat);
    let same = search("m/flat", "m", HeuristicKind::Octile, StoreKind::Flat);
    let mut rows = vec![
        steady(&hashed, BASELINE, 100.0, 150.0),
        steady(&generic, BASELINE, 90.0, 900.0),
        steady(&fewer, BASELINE, 95.0, 90.0),
        steady(&same, BASELINE, 100.0, 100.0),
    ];
    rows[0].units = 20;
    rows[2].units = 10;
    rows[3].units = 20;
    let run = Run::new(&rows);
    let of = run.workloads.iter().find(|w| w.name == "m/fx").unwrap();
    let sibling = run.sibling(of, HeuristicKind::Octile, StoreKind::Flat).unwrap();
    assert_eq!(sibling.name, "m/flat");
    rows[3].units = 30;
    let run = Run::new(&rows);
    let of = run.workloads.iter().find(|w| w.name == "m/fx").unwrap();
    let sibling = run.sibling(of, HeuristicKind::Octile, StoreKind::Flat).unwrap();
    assert_ne!(sibling.name, "m/generic", "another setup is never a sibling");
}
