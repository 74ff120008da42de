//! The page's text checked on small runs.

use std::collections::BTreeSet;

use pqlab_queues::registry::{self, BASELINE};

use super::alone::held_sizes;
use super::document;
use crate::analysis::{Findings, Run};
use crate::lab::rows::WorkloadFacts;
use crate::report::Context;
use crate::results::{Provenance, Row, Status};

/// Held-size rows: `(size, queue, status, group, bytes per entry)`.
fn held(rows: &[(usize, &str, Status, u32, f64)]) -> Vec<Row> {
    let provenance = Provenance::fixed("r", "c");
    rows.iter()
        .map(|&(size, queue, status, group, bytes)| {
            let workload = WorkloadFacts::held(size);
            let mut row = workload.row(&provenance, queue, registry::find(queue));
            (row.status, row.group, row.max_open) = (status, group, size as f64);
            row.bytes_per_entry = (status == Status::Ok).then_some(bytes);
            row
        })
        .collect()
}

/// The report's context for `run`, read from `runs/r.csv`, with no chart drawn.
fn context<'a>(run: &'a Run<'a>, findings: &'a Findings<'a, 'a>) -> Context<'a> {
    Context {
        run,
        findings,
        verdicts: crate::analysis::verdicts::verdicts(findings),
        drawn: BTreeSet::new(),
        source_name: "runs/r.csv".into(),
        source_link: "../runs/r.csv".into(),
        source_link_from_root: "results/runs/r.csv".into(),
        others: Vec::new(),
    }
}

/// The sections' text is plain: the page escapes it once for Markdown and not at all
/// for HTML, so a section that escapes for itself shows a backslash in both.
#[test]
fn the_report_escapes_each_asterisk_once() {
    let rows = held(&[(10, BASELINE, Status::Ok, 0, 24.0), (10, "dary4-dk", Status::Ok, 0, 24.0)]);
    let run = Run::new(&rows);
    let findings = Findings::of(&run);
    let ctx = context(&run, &findings);
    let blocks = document(&ctx);
    let md = crate::report::page::markdown(&blocks);
    assert!(md.contains("A\\*"), "no A* in the page: the test no longer tests");
    assert!(!md.contains("\\\\"), "an escape escaped again: {md}");
    let html = crate::report::page::html("t", &blocks);
    assert!(html.contains("A*") && !html.contains('\\'), "a Markdown escape in the HTML");
    // The page has no `*emphasis*` mark: a lone asterisk is printed as it is.
    assert!(!html.replace("A*", "").contains('*'), "a Markdown mark in the HTML");
}

#[test]
fn the_report_says_which_held_sizes_this_machine_held() {
    let rows = held(&[
        (10, BASELINE, Status::Ok, 0, 24.0),
        (10, "dary4-dk", Status::Ok, 0, 24.0),
        (1000, BASELINE, Status::Ok, 1, 16.0),
        (1000, "dary4-dk", Status::Ok, 2, 32.0),
        (1000, "sorted-array-dk", Status::NotApplicable, 0, 0.0),
        (1000, "soft-heap-e2-dup", Status::NotApplicable, 0, 0.0),
        (100_000, BASELINE, Status::NotApplicable, 0, 0.0),
    ]);
    let text = held_sizes(&Run::new(&rows)).unwrap();
    assert!(text.contains("at 10 to 1,000 entries, the largest in 2 groups"), "{text}");
    // The soft heap is n/a for its order, not for memory.
    assert!(text.contains("over the memory limit: 1 queue at 1,000, 1 queue at 100,000"), "{text}");
    // (16 + 16) + (32 + 16) bytes for 10,000 entries.
    assert!(text.contains("10,000 entries, would need about 1 MiB"), "{text}");
    let one = held(&[(1000, BASELINE, Status::Ok, 0, 16.0)]);
    let text = held_sizes(&Run::new(&one)).unwrap();
    assert!(text.contains("at 1,000 entries in 1 group"), "{text}");
    let none = held(&[(1000, BASELINE, Status::NotApplicable, 0, 0.0)]);
    let text = held_sizes(&Run::new(&none)).unwrap();
    assert!(text.contains("held none") && text.contains("1 queue at 1,000"), "{text}");
}

/// The queue crate's README block names each band's fastest queue by the type a user
/// writes and the cargo feature a crate's queue needs, from the run's own ranking.
#[test]
fn the_crate_block_adopts_each_bands_winner_by_its_type() {
    let mut rows = held(&[
        (100_000, BASELINE, Status::Ok, 0, 24.0),
        (100_000, "radix-heap-crate-dup", Status::Ok, 0, 24.0),
    ]);
    for row in &mut rows {
        let ns = if row.queue == BASELINE { 200.0 } else { 100.0 };
        (row.median_ns, row.samples_ns) = (ns, crate::results::SampleList(vec![ns; 5]));
    }
    let run = Run::new(&rows).with_execution_spread(0.0);
    let findings = Findings::of(&run);
    let ctx = context(&run, &findings);
    let md = crate::report::page::markdown(&super::adopt(&ctx));
    let row = md.lines().find(|l| l.starts_with("| 100k–1M")).unwrap_or_else(|| panic!("{md}"));
    assert!(
        row.contains("`radix-heap-crate-dup`: `radix_heap_crate::RadixHeapCrate` (feature `radix-heap-crate`)"),
        "{row}"
    );
    assert!(row.contains("| 2.00× |"), "std takes twice the winner's time: {row}");
}

/// The JPS section pairs each JPS workload with its A* twin: time, expansions, and std's
/// time over the fastest queue under each search; absent without a twin.
#[test]
fn the_jps_section_sets_each_jps_workload_beside_its_astar_twin() {
    use crate::analysis::fixture::{octile, steadies};
    use crate::search::{SearchKind, Setup};
    let twin = WorkloadFacts {
        name: "m/jps".into(),
        ..octile("m").with_setup(Setup { search: SearchKind::Jps, ..Setup::GRID_ASTAR })
    };
    let mut rows =
        steadies(&octile("m"), 500.0, &[(BASELINE, 10_000.0), ("radix-heap-dup", 5_000.0)]);
    rows.extend(steadies(&twin, 40.0, &[(BASELINE, 2_000.0), ("radix-heap-dup", 1_800.0)]));
    let run = Run::new(&rows).with_execution_spread(0.0);
    let findings = Findings::of(&run);
    let md = crate::report::page::markdown(&super::jps::section(&context(&run, &findings)));
    let row = md.lines().find(|l| l.starts_with("| m (")).unwrap_or_else(|| panic!("{md}"));
    assert!(row.contains("| 10.0 | 2.0 | 0.200× |"), "{row}");
    assert!(
        row.contains("2.00× (`radix-heap-dup`)") && row.contains("1.11× (`radix-heap-dup`)"),
        "{row}"
    );
    assert!(md.contains("no oracle figure"), "{md}");
    let alone = Run::new(&rows[2..]).with_execution_spread(0.0);
    let findings = Findings::of(&alone);
    assert!(super::jps::section(&context(&alone, &findings)).is_empty());
}

/// The tie section lists each tie map under every rule measured, std's time and expansions
/// against std's under the A*'s own rule, and the fastest exact and monotone queues; absent
/// without the A*'s twin.
#[test]
fn the_tie_section_sets_each_rule_beside_the_astars_own() {
    use crate::analysis::fixture::{octile, steadies};
    use crate::search::{SearchKind, Setup};
    let tied = |search: SearchKind| WorkloadFacts {
        name: format!("m/{}", search.token()),
        ..octile("m").with_setup(Setup { search, ..Setup::GRID_ASTAR })
    };
    let mut rows = steadies(
        &octile("m"),
        500.0,
        &[(BASELINE, 10_000.0), ("bitmap-bucket-queue-dup", 5_000.0)],
    );
    rows.extend(steadies(&tied(SearchKind::AstarTiesQueue), 500.0, &[(BASELINE, 20_000.0)]));
    for row in &mut rows {
        row.expansions = if row.workload.ends_with("queue") { 3000.0 } else { 1000.0 };
        row.pushes = 1.5 * row.expansions;
    }
    let run = Run::new(&rows).with_execution_spread(0.0);
    let findings = Findings::of(&run);
    let md = crate::report::page::markdown(&super::ties::section(&context(&run, &findings)));
    let row = |label: &str| {
        let mut rows = md.lines().filter(|l| l.starts_with("| m ("));
        rows.find(|l| l.contains(label)).unwrap_or_else(|| panic!("{label}: {md}")).to_owned()
    };
    let unbroken = row("the queue's order");
    assert!(unbroken.contains("| 20.0 µs, 3000, 4500 | 2.00× | 3.00× |"), "{unbroken}");
    let own = row("(the A\\*'s own)");
    assert!(own.contains("`bitmap-bucket-queue-dup`: 5.0 µs, 1000, 1500"), "{own}");
    let alone = Run::new(&rows[2..]).with_execution_spread(0.0);
    let findings = Findings::of(&alone);
    assert!(super::ties::section(&context(&alone, &findings)).is_empty());
}

/// The Markdown of `section` on `rows`.
fn section_text(
    rows: &[Row],
    section: fn(&Context<'_>) -> Vec<crate::report::page::Block>,
) -> String {
    let run = Run::new(rows).with_execution_spread(0.0);
    let findings = Findings::of(&run);
    crate::report::page::markdown(&section(&context(&run, &findings)))
}

/// The table line of `md` that holds `cell`.
fn line_of<'m>(md: &'m str, cell: &str) -> &'m str {
    md.lines().find(|l| l.starts_with('|') && l.contains(cell)).unwrap_or_else(|| {
        panic!("no table line holds {cell}: the table dropped it\n{md}");
    })
}

/// Rule: the "Other searches" table counts a cut-off loop as its bound ("at least") and
/// keeps its workload: dropping it would show fringe search faster than it is.
#[test]
fn the_other_searches_table_keeps_a_cut_off_loop_as_at_least() {
    use crate::analysis::fixture::{cut_off, octile, steadies, steady};
    use crate::search::fringe::Fringe;
    let (a, b) = (octile("a"), octile("b"));
    let loops = |w: &WorkloadFacts| WorkloadFacts { kind: crate::results::Kind::Loop, ..w.clone() };
    let mut rows = steadies(&a, 500.0, &[(BASELINE, 100.0), ("dary4-dup", 90.0)]);
    rows.extend(steadies(&b, 5000.0, &[(BASELINE, 100.0), ("dary4-dup", 90.0)]));
    rows.push(steady(&loops(&a), Fringe::ID, 500.0, 50.0));
    rows.push(cut_off(&loops(&b), Fringe::ID, 3.0));
    let md = section_text(&rows, super::other_searches::section);
    let line = line_of(&md, "`fringe-search`");
    // 0.5× and at least 3×: at least √1.5 ≈ 1.22× over both workloads.
    assert!(
        line.contains("| 2 | at least 1.22× (") && line.contains("cut off on 1 workload"),
        "{line}"
    );
    assert!(!md.contains("0.5×") && !md.contains("inf×"), "{md}");
}

/// Rule: the decrease-key table prints a cut-off side as a bound, never "inf×" or "0×":
/// decrease-key cut off reads "at least", duplicates cut off "at most".
#[test]
fn the_decrease_key_table_prints_cut_offs_as_bounds() {
    use crate::analysis::fixture::{cut_off, octile, steadies};
    let (a, b) = (octile("a"), octile("b"));
    let mut rows =
        steadies(&a, 500.0, &[(BASELINE, 100.0), ("dary4-dup", 100.0), ("dary4-dk", 120.0)]);
    rows.extend(steadies(&a, 500.0, &[("sorted-array-dup", 100.0), ("sorted-array-dk", 80.0)]));
    rows.extend(steadies(&b, 5000.0, &[(BASELINE, 100.0), ("dary4-dup", 100.0)]));
    rows.extend(steadies(&b, 5000.0, &[("sorted-array-dk", 90.0)]));
    rows.push(cut_off(&b, "dary4-dk", 3.0));
    rows.push(cut_off(&b, "sorted-array-dup", 3.0));
    let md = section_text(&rows, super::strategies::section);
    assert!(line_of(&md, "`dary4`").contains("at least 1.90× ("), "{md}");
    assert!(line_of(&md, "`sorted-array`").contains("at most 0.490× ("), "{md}");
    assert!(!md.contains("inf×") && !md.contains(" 0×"), "{md}");
}
