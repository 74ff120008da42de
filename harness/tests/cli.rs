//! The `pqlab` command as a user meets it: exit statuses, messages naming the file and
//! line of bad input, the listing of valid names, and a validation on a tiny map whose
//! optimal lengths are worked out by hand.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pqlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqlab")).args(args).output().expect("pqlab runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A fresh folder under the system's temporary folder, removed when dropped.
fn folder() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// A 4x4 map with a tree at (1, 2) and its scenario: (1,3) -> (3,1) must go around the
/// tree (2 + sqrt 2), (0,0) -> (3,0) is 3 straight steps, and (0,0) -> (3,3) may not cut
/// past the tree either: 2 straight steps and 2 diagonals (2 + 2 sqrt 2).
fn tiny_map(dir: &Path) -> PathBuf {
    let map = dir.join("tiny.map");
    fs::write(
        &map,
        "type octile\r\nheight 4\r\nwidth 4\r\nmap\r\n....\r\n....\r\n.T..\r\n....\r\n",
    )
    .unwrap();
    let scen = "version 1\n\
        0\ttiny.map\t4\t4\t1\t3\t3\t1\t3.41421356\n\
        0\ttiny.map\t4\t4\t0\t0\t3\t0\t3\n\
        1\ttiny.map\t4\t4\t0\t0\t3\t3\t4.82842712\n";
    fs::write(dir.join("tiny.map.scen"), scen).unwrap();
    map
}

#[test]
fn list_names_every_queue() {
    let out = pqlab(&["list"]);
    assert!(out.status.success());
    for entry in pqlab_queues::registry::ENTRIES {
        assert!(text(&out).contains(entry.id), "{} is not listed", entry.id);
        // A queue n/a here (the SIMD quickheap whose nested build failed) is said so, with
        // the reason its build gave.
        if let Err(why) = pqlab_queues::registry::available(entry.id) {
            let line = format!("{}: n/a here: {why}", entry.id);
            assert!(text(&out).contains(&line), "{line} is not said: {}", text(&out));
        }
    }
}

#[test]
fn list_types_maps_every_id_to_its_type_and_feature() {
    let out = pqlab(&["list", "--types"]);
    assert!(out.status.success());
    let text = text(&out);
    for entry in pqlab_queues::registry::ENTRIES {
        let ty = pqlab_queues::registry::type_name(entry.id).unwrap();
        let line = text.lines().find(|l| l.starts_with(&format!("| `{}` |", entry.id)));
        let line = line.unwrap_or_else(|| panic!("{} has no row", entry.id));
        assert!(line.contains(&format!("`{ty}`")), "{line}");
        if let pqlab_queues::Origin::Crate { feature, .. } = entry.origin {
            assert!(line.ends_with(&format!("`{feature}` |")), "{line}");
        }
    }
}

#[test]
fn validate_checks_every_queue_on_a_hand_worked_map() {
    let temp = folder();
    let dir = temp.path();
    tiny_map(dir);
    let out = pqlab(&["validate", "--maps", dir.to_str().unwrap()]);
    let text = text(&out);
    assert!(out.status.success(), "{text}");
    let checks = 3 * pqlab_queues::registry::ENTRIES.len();
    assert!(text.contains(&format!("{checks} passed, 0 failed")), "{text}");
}

#[test]
fn a_wrong_optimal_length_fails_the_validation() {
    let temp = folder();
    let dir = temp.path();
    tiny_map(dir);
    fs::write(dir.join("tiny.map.scen"), "version 1\n0\ttiny.map\t4\t4\t0\t0\t3\t0\t2.5\n")
        .unwrap();
    let out = pqlab(&["validate", "--maps", dir.to_str().unwrap(), "--queue", "dary4-dk"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("0 passed, 1 failed"), "{}", text(&out));
}

#[test]
fn a_malformed_map_names_its_file_and_line_and_exits_2() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    fs::write(&map, "type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap();
    let out = pqlab(&["validate", "--maps", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("tiny.map:6"), "{}", text(&out));
    let out = pqlab(&["run", "--map", map.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("tiny.map:6"), "{}", text(&out));
}

#[test]
fn a_malformed_scenario_names_its_file_and_line_and_exits_2() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    fs::write(
        dir.join("tiny.map.scen"),
        "version 1\n0\ttiny.map\t4\t4\t0\t0\t3\t0\t3\n0\ttiny.map\t4\t4\t9\t0\n",
    )
    .unwrap();
    let out = pqlab(&["run", "--map", map.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("tiny.map.scen:3"), "{}", text(&out));
}

#[test]
fn unknown_names_list_the_valid_ones() {
    let out = pqlab(&["run", "--map", "x.map", "--queue", "no-such-queue-dk"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("unknown queue 'no-such-queue-dk'"), "{}", text(&out));
    assert!(text(&out).contains("std-binary-heap-dup"), "{}", text(&out));
    let out = pqlab(&["run", "--map", "x.map", "--heuristic", "euclid"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("octile"), "{}", text(&out));
}

#[test]
fn run_prints_one_checked_json_row_per_search() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    let out =
        pqlab(&["run", "--map", map.to_str().unwrap(), "--queue", "radix-heap-dup", "--json"]);
    assert!(out.status.success(), "{}", text(&out));
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["correct"] == true && r["queue"] == "radix-heap-dup"));
    assert_eq!(rows[0]["cost"], 2 * 195_025 + 275_807, "around the tree, not through it");
}

#[test]
fn pick_and_report_without_results_say_to_measure_first() {
    let temp = folder();
    let dir = temp.path();
    for args in [vec!["pick", "--frontier", "100"], vec!["report"]] {
        let mut args = args.clone();
        args.extend(["--results", dir.to_str().unwrap()]);
        let out = pqlab(&args);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out).contains("cargo bench"), "{}", text(&out));
    }
}

#[test]
fn compare_times_the_queues_the_oracle_and_the_peers_over_maps() {
    let temp = folder();
    let dir = temp.path();
    tiny_map(dir);
    fs::copy(dir.join("tiny.map"), dir.join("twin.map")).unwrap();
    let scen = fs::read_to_string(dir.join("tiny.map.scen")).unwrap();
    fs::write(dir.join("twin.map.scen"), scen.replace("tiny.map", "twin.map")).unwrap();
    let out = pqlab(&[
        "compare",
        "--maps",
        dir.to_str().unwrap(),
        "--rounds",
        "1",
        "--queue",
        "std-binary-heap-dup",
        "--queue",
        "radix-heap-dk",
    ]);
    let text = text(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("geometric mean over 2 maps"), "{text}");
    let summary = text.split("geometric mean").nth(1).unwrap();
    for entrant in
        ["pqlab (std-binary-heap-dup)", "pqlab (radix-heap-dk)", "oracle floor", "petgraph-astar"]
    {
        assert!(summary.contains(entrant), "{entrant} is missing from the summary: {text}");
    }
    assert!(!summary.contains("pathfinding-astar"), "pathfinding ÷ itself is no figure: {text}");
}

#[test]
fn zero_counts_are_refused_as_bad_input() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    let (map, dir) = (map.to_str().unwrap(), dir.to_str().unwrap());
    for args in [
        vec!["pick", "--map", map, "--measure", "--rounds", "0"],
        vec!["compare", "--map", map, "--rounds", "0"],
        vec!["compare", "--map", map, "--limit", "0"],
        vec!["run", "--map", map, "--limit", "0"],
        vec!["validate", "--maps", dir, "--per-map", "0"],
        vec!["validate", "--maps", dir, "--threads", "0"],
    ] {
        let out = pqlab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains("0"), "{args:?}: {}", text(&out));
        assert!(!text(&out).contains("NaN"), "{args:?}: {}", text(&out));
    }
}

#[test]
fn a_wrong_answer_is_not_masked_by_an_unreadable_map() {
    let temp = folder();
    let dir = temp.path();
    tiny_map(dir);
    fs::write(dir.join("tiny.map.scen"), "version 1\n0\ttiny.map\t4\t4\t0\t0\t3\t0\t2.5\n")
        .unwrap();
    fs::write(dir.join("bad.map"), "type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap();
    fs::write(dir.join("bad.map.scen"), "version 1\n").unwrap();
    let out = pqlab(&["validate", "--maps", dir.to_str().unwrap(), "--queue", "dary4-dk"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("bad.map:6"), "{}", text(&out));
}

/// A one-row map of 22,100 cells: its end-to-end path costs more than 32 bits hold at the
/// fine scale (22,099 × 195,025 > 2³²).
fn long_row(dir: &Path) -> PathBuf {
    let width = 22_100;
    let map = dir.join("row.map");
    fs::write(&map, format!("type octile\nheight 1\nwidth {width}\nmap\n{}\n", ".".repeat(width)))
        .unwrap();
    let scen = format!(
        "version 1\n0\trow.map\t{width}\t1\t0\t0\t{}\t0\t{}\n0\trow.map\t{width}\t1\t0\t0\t3\t0\t3\n",
        width - 1,
        width - 1
    );
    fs::write(dir.join("row.map.scen"), scen).unwrap();
    map
}

#[test]
fn a_path_beyond_32_bit_costs_is_a_limit_not_a_wrong_answer() {
    let temp = folder();
    let dir = temp.path();
    long_row(dir);
    let out = pqlab(&["validate", "--maps", dir.to_str().unwrap(), "--queue", "dary4-dk"]);
    let text = text(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 passed, 0 failed, 1 beyond 32-bit fine costs"), "{text}");
    assert!(text.contains("--scale coarse") && !text.contains("FAILED"), "{text}");
}

#[test]
fn compare_reports_a_wrong_length_as_a_wrong_answer() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    fs::write(dir.join("tiny.map.scen"), "version 1\n0\ttiny.map\t4\t4\t0\t0\t3\t0\t2.5\n")
        .unwrap();
    let out = pqlab(&["compare", "--map", map.to_str().unwrap(), "--rounds", "1"]);
    let text = text(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("tiny.map.scen:2") && text.contains("expected length 2.5"), "{text}");
    assert!(!text.contains("Failed("), "no Debug output: {text}");
}

/// A 12x6 room-and-corridor map with no scenario beside it.
fn bare_map(dir: &Path) -> PathBuf {
    let map = dir.join("rogue.map");
    fs::write(
        &map,
        "type octile\nheight 6\nwidth 12\nmap\n............\n.@@@@@@@@@@.\n.@........@.\n.@..@@@@..@.\n....@.....@.\n@@@@@.....@.\n",
    )
    .unwrap();
    map
}

#[test]
fn a_bare_map_gets_random_problems_and_says_how_many() {
    let temp = folder();
    let dir = temp.path();
    let map = bare_map(dir);
    let out = pqlab(&["pick", "--map", map.to_str().unwrap(), "--limit", "40"]);
    let text = text(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("40 random problems drawn"), "{text}");
    // The verdict comes first, whatever the evidence run's noise.
    let verdict = text.lines().next().unwrap_or("");
    assert!(verdict.starts_with("Use `"), "the verdict comes first: {text}");
    let out = pqlab(&["run", "--map", map.to_str().unwrap(), "--limit", "25", "--json"]);
    assert!(out.status.success(), "{}", crate::text(&out));
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // std's heap and `pick --map`'s leaders, 25 searches each.
    let queues: std::collections::BTreeSet<&str> =
        rows.iter().filter_map(|r| r["queue"].as_str()).collect();
    assert!(queues.contains("std-binary-heap-dup") && queues.len() > 1, "{queues:?}");
    assert_eq!(rows.len(), 25 * queues.len());
    assert!(rows.iter().all(|r| r["correct"] == true), "checked against Dijkstra's costs");
}

#[test]
fn pick_map_reports_a_scenario_with_wrong_lengths() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    fs::write(
        dir.join("tiny.map.scen"),
        "version 1\n0\ttiny.map\t4\t4\t0\t0\t3\t0\t1.5\n0\ttiny.map\t4\t4\t0\t0\t3\t3\t4.82842712\n",
    )
    .unwrap();
    let out = pqlab(&["pick", "--map", map.to_str().unwrap()]);
    let text = text(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("tiny.map.scen:2: expected length 1.5"), "{text}");
    assert!(text.contains("1 of 2 problems disagree"), "{text}");
}

#[test]
fn run_under_other_rules_than_the_scenario_skips_its_lengths_and_says_so() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    for rules in [["--moves", "4"], ["--scale", "coarse"], ["--scale", "1/1"]] {
        let mut args = vec!["run", "--map", map.to_str().unwrap()];
        args.extend(rules);
        let out = pqlab(&args);
        let text = text(&out);
        assert_eq!(out.status.code(), Some(0), "{rules:?}: {text}");
        assert!(text.contains("lengths not checked") && !text.contains("wrong"), "{text}");
    }
    let out = pqlab(&["run", "--map", map.to_str().unwrap()]);
    let text = text(&out);
    assert!(text.contains("3 searches") && text.contains("every answer checked"), "{text}");
    assert!(!text.contains("expanded"), "per-search rows only with --verbose: {text}");
    let args = ["run", "--map", map.to_str().unwrap(), "--verbose", "--queue", "dary4-dk"];
    let out = pqlab(&args);
    assert_eq!(crate::text(&out).matches(" ok ").count(), 3, "{}", crate::text(&out));
}

/// With no queue named, `run` times std's heap and `pick --map`'s leaders for the map (from
/// the committed runs), says so, and ranks them against std's heap; a queue named is
/// timed alone.
#[test]
fn run_without_a_queue_times_pick_s_leaders_and_ranks_them() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    let out = pqlab(&["run", "--map", map.to_str().unwrap()]);
    let text = text(&out);
    assert!(out.status.success(), "{text}");
    let timed = text
        .lines()
        .find_map(|l| l.strip_prefix("pqlab: no --queue named: timing "))
        .unwrap_or_else(|| panic!("the default queues are said: {text}"));
    let timed: Vec<&str> = timed.split(" (").next().unwrap().split(", ").collect();
    assert_eq!(timed[0], "std-binary-heap-dup", "{text}");
    assert_eq!(timed.len(), 4, "std's heap and three leaders: {text}");
    let ranking = text.split("ranking by mean time a search").nth(1).expect("a ranking");
    for queue in &timed {
        assert!(ranking.contains(&format!(". {queue}: ")), "{queue} is ranked: {text}");
    }
    assert!(ranking.contains("1.00× std's"), "{text}");
    let out = pqlab(&["run", "--map", map.to_str().unwrap(), "--queue", "radix-heap-dup"]);
    let text = crate::text(&out);
    assert!(!text.contains("no --queue named") && !text.contains("ranking"), "{text}");
}

/// A committed run, small enough to report from in seconds.
const COMMITTED_RUN: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/2026-11-22T05-05-01Z.csv.gz");

/// `pick --results DIR` on a folder that holds no run touches nothing in it, though its
/// names look like pqlab's leftovers of processes that are gone.
#[test]
fn pick_on_a_folder_without_runs_removes_nothing() {
    let temp = folder();
    let dir = temp.path();
    let thesis = dir.join(".staging-99999998").join("sub").join("thesis.tex");
    fs::create_dir_all(thesis.parent().unwrap()).unwrap();
    fs::write(&thesis, "x").unwrap();
    let notes = dir.join(".notes.99999999.tmp");
    fs::write(&notes, "y").unwrap();
    let out = pqlab(&["pick", "--results", dir.to_str().unwrap(), "--frontier", "10"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(!text(&out).contains("removed"), "{}", text(&out));
    assert!(thesis.exists() && notes.exists());
}

/// A user's file or link named `report` in the results folder is never replaced, and the
/// refused report leaves no staging folder behind.
#[test]
fn report_never_replaces_a_users_report_file_or_link() {
    let temp = folder();
    let dir = temp.path();
    let report = dir.join("report");
    fs::write(&report, "notes").unwrap();
    let args = ["report", "--results", dir.to_str().unwrap(), "--run", COMMITTED_RUN];
    let out = pqlab(&args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("is not a report pqlab wrote"), "{}", text(&out));
    assert_eq!(fs::read_to_string(&report).unwrap(), "notes");
    #[cfg(unix)]
    {
        fs::remove_file(&report).unwrap();
        let elsewhere = dir.join("mine");
        fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &report).unwrap();
        let out = pqlab(&args);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(fs::symlink_metadata(&report).unwrap().file_type().is_symlink());
    }
    let left: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".staging"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A report killed at its swap leaves the previous report, one run behind, and its staging
/// folder: `pick` says the report is behind, and the next `report` removes the staging
/// folder, says so, and writes the report of the newest run.
#[test]
fn a_report_behind_the_newest_run_is_said_and_its_staging_removed() {
    let temp = folder();
    let dir = temp.path();
    let runs = dir.join("runs");
    fs::create_dir(&runs).unwrap();
    let old = runs.join("2026-11-22T05-05-01Z.csv.gz");
    fs::copy(COMMITTED_RUN, &old).unwrap();
    let results = dir.to_str().unwrap();
    let out = pqlab(&["report", "--results", results]);
    assert!(out.status.success(), "{}", text(&out));
    // The newer run, the same rows under a later id, whose report was killed at the swap.
    let mut rows = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(fs::File::open(&old).unwrap()),
        &mut rows,
    )
    .unwrap();
    let newer = "2026-11-23T05-05-01Z";
    fs::write(runs.join(format!("{newer}.csv")), rows.replace("2026-11-22T05-05-01Z", newer))
        .unwrap();
    let staging = dir.join(".staging-99999997");
    fs::create_dir(&staging).unwrap();
    fs::write(staging.join("README.md"), "half a report").unwrap();
    let behind = format!("is from run 2026-11-22T05-05-01Z, older than the newest run, {newer}");
    let out = pqlab(&["pick", "--results", results, "--frontier", "100"]);
    assert!(text(&out).contains(&behind), "{}", text(&out));
    assert!(text(&out).contains("`pqlab report` writes it again"), "{}", text(&out));
    let out = pqlab(&["report", "--results", results]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains(&behind), "{said}");
    assert!(said.contains("left by an interrupted report") && !staging.exists(), "{said}");
    let out = pqlab(&["pick", "--results", results, "--frontier", "100"]);
    assert!(!text(&out).contains("older than the newest run"), "{}", text(&out));
}

/// A full disk during `report` (every file the process writes cut at 64 KiB by
/// `RLIMIT_FSIZE`, the signal it raises ignored, so writes fail as on a full disk): the
/// message names the file it could not write, the earlier report is left whole, and no
/// staging folder stays behind to hold the disk.
#[cfg(unix)]
#[test]
fn a_full_disk_during_report_names_the_file_and_keeps_the_earlier_report() {
    use std::os::unix::process::CommandExt;
    let temp = folder();
    let dir = temp.path();
    let args = ["report", "--results", dir.to_str().unwrap(), "--run", COMMITTED_RUN];
    let first = pqlab(&args);
    assert!(first.status.success(), "{}", text(&first));
    let readme = dir.join("report").join("README.md");
    let before = fs::read(&readme).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pqlab"));
    command.args(args);
    // SAFETY: between fork and exec the closure only calls the async-signal-safe `signal`
    // and `setrlimit`, on memory of its own.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit { rlim_cur: 65_536, rlim_max: 65_536 };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().unwrap();
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("writing ") && said.contains(".staging-"), "{said}");
    assert_eq!(fs::read(&readme).unwrap(), before, "the earlier report is untouched");
    let left: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".staging"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The committed default run of schema 4 (per-search latency, held sizes to 10⁶).
const LATEST_RUN: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/2026-11-26T10-12-00Z.csv.gz");

/// The committed run with the Moving AI maps (schema 4; `dao` among its kinds).
const MAPS_RUN: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/2026-11-26T01-40-40Z-maps.csv.gz");

/// `pqlab pick ARGS --run RUN --results DIR`.
fn pick_from(run: &str, dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["pick"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--run", run, "--results", dir.to_str().unwrap()]);
    pqlab(&all)
}

/// A flag the answer would drop is refused with the reason, never answered as another
/// question.
#[test]
fn pick_refuses_flags_it_would_drop() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    let map = map.to_str().unwrap();
    for (args, reason) in [
        (
            vec!["--frontier", "1e5", "--scale", "coarse", "--costs", "float"],
            "float costs have no scale",
        ),
        (vec!["--frontier", "1e3", "--graph", "road", "--moves", "4"], "--moves is a grid's"),
        (vec!["--frontier", "1e3", "--costs", "float", "--search", "astar"], "generic A* alone"),
        (vec!["--map", map, "--graph", "road"], "--map reads a grid map"),
        (vec!["--map", map, "--terrain", "uniform"], "a map's own searches set its terrain"),
        (vec!["--map", map, "--measure", "--latency"], "--latency with --measure"),
        (
            vec!["--frontier", "1e3", "--graph", "road", "--terrain", "weighted"],
            "a road graph has none",
        ),
    ] {
        let out = pick_from(LATEST_RUN, dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(reason), "{args:?}: {}", text(&out));
    }
}

/// A series no workload of the lab searches is said to be unmeasured, with the series of the
/// same search the lab does measure, never "run `cargo bench` with that series": each of
/// six such questions in turn.
#[test]
fn pick_says_the_lab_does_not_measure_a_series_and_what_it_does() {
    let temp = folder();
    let dir = temp.path();
    for (args, search) in [
        (&["--moves", "4"][..], "A*"),
        (&["--heuristic", "manhattan"][..], "A*"),
        (&["--heuristic", "differential:4"][..], "A*"),
        (&["--search", "jps", "--scale", "coarse"][..], "JPS"),
        (&["--search", "generic", "--costs", "unit"][..], "generic A*"),
        (&["--search", "jps", "--terrain", "weighted"][..], "JPS"),
    ] {
        let out = pick_from(LATEST_RUN, dir, &[&["--frontier", "1000"][..], args].concat());
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains("the lab does not measure that series"), "{args:?}: {said}");
        assert!(said.contains(&format!("; of {search}, it measures ")), "{args:?}: {said}");
        assert!(!said.contains("it measures no series"), "{args:?}: {said}");
        assert!(!said.contains("run `cargo bench`"), "{args:?}: {said}");
    }
}

/// `pick --frontier 2k --terrain uniform` answers from obstacle grids alone and
/// `--terrain weighted` from weighted terrain alone, the JSON saying which; without the
/// flag, the 1k–3k band, which mixes them, names the split.
#[test]
fn pick_terrain_answers_from_its_terrain_alone() {
    let temp = folder();
    let dir = temp.path();
    let answer = |args: &[&str]| -> serde_json::Value {
        let out = pick_from(LATEST_RUN, dir, args);
        assert!(out.status.success(), "{args:?}: {}", text(&out));
        serde_json::from_slice(&out.stdout).expect("one JSON object")
    };
    for (terrain, kinds) in [
        ("uniform", ["random", "maze", "rooms", "open", "cave"].as_slice()),
        ("weighted", ["weighted", "rugged", "marsh"].as_slice()),
    ] {
        let json = answer(&["--frontier", "2k", "--terrain", terrain, "--json"]);
        assert_eq!(json["terrain"], terrain);
        assert!(json["terrain_split"].is_null());
        let backing = json["backing"].as_array().unwrap();
        let workloads: Vec<&serde_json::Value> =
            backing.iter().flat_map(|b| b["workloads"].as_array().unwrap()).collect();
        assert!(!workloads.is_empty(), "{terrain}");
        for w in workloads {
            assert!(kinds.contains(&w[2].as_str().unwrap()), "{terrain}: {w}");
        }
    }
    let json = answer(&["--frontier", "2k", "--json"]);
    assert!(json["terrain"].is_null());
    let sides: Vec<&str> = json["terrain_split"]["sides"]
        .as_array()
        .expect("the 1k–3k band mixes terrains")
        .iter()
        .map(|s| s["terrain"].as_str().unwrap())
        .collect();
    assert_eq!(sides, ["uniform", "weighted"]);
    let out = pick_from(LATEST_RUN, dir, &["--frontier", "2k"]);
    assert!(text(&out).contains("The 1k–3k band mixes"), "{}", text(&out));
}

/// `pick --frontier 2k` says how much of these searches the queue is, with std's heap and
/// with the winner, each with its interval; the JSON carries the same figures.
#[test]
fn pick_says_the_queues_share_of_the_search_with_std_and_the_winner() {
    let temp = folder();
    let dir = temp.path();
    let out = pick_from(LATEST_RUN, dir, &["--frontier", "2k"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let line = said.lines().find(|l| l.starts_with("The queue is ")).expect(&said);
    assert!(line.contains(" of these searches with std's heap and "), "{line}");
    assert!(line.contains("with an oracle row"), "{line}");
    let out = pick_from(LATEST_RUN, dir, &["--frontier", "2k", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    for side in ["std", "winner"] {
        let share = json["frontier_share"][side]["share"].as_array().expect("[low, mid, high]");
        let [low, mid, high] = [0, 1, 2].map(|i| share[i].as_f64().unwrap());
        assert!(0.0 < low && low <= mid && mid <= high && high < 1.0, "{side}: {share:?}");
    }
}

/// A frontier past the band of the largest size the run measured is refused with the
/// reason, as 10⁷ against held sizes to 10⁶; 9,999,999 is answered from the 1M–10M held
/// band; an absurd size is refused as bad input.
#[test]
fn pick_answers_no_frontier_beyond_the_runs() {
    let temp = folder();
    let dir = temp.path();
    let out = pick_from(LATEST_RUN, dir, &["--frontier", "1e7", "--json"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("beyond what run"), "{}", text(&out));
    let out = pick_from(LATEST_RUN, dir, &["--frontier", "9999999", "--json"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("\"band\": \"1M–10M\""), "{}", text(&out));
    let out = pick_from(LATEST_RUN, dir, &["--frontier", "1e20"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("beyond any frontier"), "{}", text(&out));
}

/// `pick --map … --latency` ranks by latency on a map of a kind the run measured and
/// answers from (sc1: on the maps run its kind transferred better than the bands), and on
/// another kind either ranks by it or refuses with the reason, never with advice to run
/// a bench that the run already had.
#[test]
fn pick_map_latency_ranks_by_latency_or_says_why_not() {
    let temp = folder();
    let dir = temp.path();
    for kind in ["sc1", "unmeasured"] {
        fs::create_dir_all(dir.join(kind)).unwrap();
        let map = tiny_map(&dir.join(kind));
        let args = ["--map", map.to_str().unwrap(), "--latency", "--json", "--limit", "20"];
        let out = pick_from(MAPS_RUN, dir, &args);
        let said = text(&out);
        assert!(!said.contains("schema 4 and later"), "{kind}: {said}");
        if kind == "sc1" || out.status.success() {
            assert!(out.status.success(), "{kind}: {said}");
            assert!(said.contains("\"ranked_by\": \"latency\""), "{kind}: {said}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{kind}: {said}");
            assert!(said.contains("no searches to time"), "{kind}: {said}");
        }
    }
}

/// `pick --map`'s first line is the verdict; the evidence run's noise (the maps run drifted
/// 41.9%) sits in the evidence section, as what it means for this answer.
#[test]
fn pick_map_says_the_verdict_first_and_the_runs_noise_in_its_evidence() {
    let temp = folder();
    let dir = temp.path();
    fs::create_dir_all(dir.join("dao")).unwrap();
    let map = tiny_map(&dir.join("dao"));
    let out = pick_from(MAPS_RUN, dir, &["--map", map.to_str().unwrap(), "--limit", "20"]);
    assert!(out.status.success(), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("Use `"), "{said}");
    // The maps run recorded no CPU family: whatever this machine is, the second line says
    // its CPU is not, or cannot be told to be, the evidence run's.
    let second = said.lines().nth(1).unwrap_or_default();
    assert!(second.contains("evidence run"), "{said}");
    let evidence = said.find("\nEvidence:").expect("an evidence section");
    let table = said.find("\nrank ").expect("a ranking");
    let noise = said.find("The evidence run drifted 41.9%").expect("the run's noise");
    assert!(evidence < noise && noise < table, "{said}");
    assert!(said[noise..].contains("measure your map"), "{said}");
    assert!(!said.contains("This run was noisy"), "{said}");
}

/// `pick --map … --measure --queue ID` times the queue asked beside the runs' leading
/// candidates and says so; an unknown id is refused as bad input, naming the id and
/// `pqlab list`, never with a panic; `--queue` without `--measure` is refused.
#[test]
fn pick_measure_times_the_queues_asked_too() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    let map = map.to_str().unwrap();
    let out =
        pick_from(LATEST_RUN, dir, &["--map", map, "--measure", "--queue", "no-such-queue-dk"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("no-such-queue-dk") && said.contains("`pqlab list`"), "{said}");
    assert!(!said.contains("panicked"), "{said}");
    let out = pick_from(LATEST_RUN, dir, &["--map", map, "--queue", "dary4-dup"]);
    assert_eq!(out.status.code(), Some(2), "--queue without --measure: {}", text(&out));
    // The runs' last-ranked queue for this map: not among the six leading candidates.
    let json = |out: &Output| -> serde_json::Value {
        assert!(out.status.success(), "{}", text(out));
        serde_json::from_slice(&out.stdout).expect("one JSON object")
    };
    let queues = |answer: &serde_json::Value, list: &str| -> Vec<String> {
        let entries = answer[list].as_array().cloned().unwrap_or_default();
        entries
            .iter()
            .map(|e| e.get("queue").unwrap_or(&e[0]).as_str().unwrap().to_owned())
            .collect()
    };
    let runs = json(&pick_from(LATEST_RUN, dir, &["--map", map, "--limit", "3", "--json"]));
    let ranking = queues(&runs, "ranking");
    assert!(ranking.len() > 7, "{ranking:?}");
    let asked = ranking.last().unwrap().as_str();
    let args = ["--map", map, "--measure", "--rounds", "1", "--queue", asked, "--json"];
    let measured = json(&pick_from(LATEST_RUN, dir, &args));
    let timed = [queues(&measured, "ranking"), queues(&measured, "not_ranked")].concat();
    assert!(timed.iter().any(|q| q == asked), "{asked} not measured: {timed:?}");
    let caveats = measured["caveats"].to_string();
    assert!(caveats.contains(&format!("--queue ({asked})")), "{caveats}");
}

/// `run` with every queue skipped (a monotone queue under weighted A*) is an error, not a
/// silent success with no table.
#[test]
fn run_with_every_queue_skipped_exits_2() {
    let temp = folder();
    let map = tiny_map(temp.path());
    let map = map.to_str().unwrap();
    let args = ["run", "--map", map, "--heuristic", "weighted:2", "--queue", "bucket-queue-dup"];
    let out = pqlab(&args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("every queue asked was skipped"), "{}", text(&out));
}

/// `compare --maps` with no map and scenario pair is bad input, as for `validate`; a bad
/// map is said and the others are still compared, then exit 2.
#[test]
fn compare_maps_needs_a_pair_and_goes_on_past_a_bad_map() {
    let temp = folder();
    let dir = temp.path();
    let out = pqlab(&["compare", "--maps", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no X.map with X.map.scen"), "{}", text(&out));
    tiny_map(dir);
    fs::write(dir.join("bad.map"), "type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap();
    let scen = fs::read_to_string(dir.join("tiny.map.scen")).unwrap();
    fs::write(dir.join("bad.map.scen"), scen.replace("tiny.map", "bad.map")).unwrap();
    let out = pqlab(&["compare", "--maps", dir.to_str().unwrap(), "--rounds", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("bad.map:6"), "{}", text(&out));
    assert!(text(&out).contains("tiny"), "tiny.map was not compared: {}", text(&out));
    assert!(text(&out).contains("1 of 2 maps could not be read"), "{}", text(&out));
}

/// `validate --threads` is bounded, and the summary names the number of threads that ran.
#[test]
fn validate_threads_are_bounded_and_the_summary_says_how_many_ran() {
    let temp = folder();
    let dir = temp.path();
    tiny_map(dir);
    let args = ["validate", "--maps", dir.to_str().unwrap(), "--threads", "1000"];
    let out = pqlab(&args);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("--threads 1000 capped"), "{}", text(&out));
    assert!(!text(&out).contains("on 1000 threads"), "{}", text(&out));
}

/// `pick --map` leaves a path beyond 32-bit fine costs out of the profile and says so, as
/// `validate` reports it not checked, rather than refusing the map.
#[test]
fn pick_map_leaves_a_path_beyond_32_bit_costs_out() {
    let temp = folder();
    let dir = temp.path();
    let map = long_row(dir);
    let out = pick_from(LATEST_RUN, dir, &["--map", map.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("1 of 2 problems not searched"), "{}", text(&out));
}

/// `pqlab diff --check` refuses a run against itself (a copy too), and fails a run that
/// lacks bands the other ranks, saying how many.
#[test]
fn diff_check_refuses_a_run_against_itself_and_missing_bands() {
    let temp = folder();
    let copy = temp.path().join("copy.csv.gz");
    fs::copy(LATEST_RUN, &copy).unwrap();
    for other in [LATEST_RUN, copy.to_str().unwrap()] {
        let out = pqlab(&["diff", "--check", LATEST_RUN, other]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains("are the same run"), "{}", text(&out));
    }
    // The latest run's A* workloads on one map kind alone: most bands are not ranked.
    let mut full = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(fs::File::open(LATEST_RUN).unwrap()),
        &mut full,
    )
    .unwrap();
    let mut lines = full.lines();
    let mut part = format!("{}\n", lines.next().unwrap());
    for line in lines.filter(|l| !l.contains(",astar,") || l.contains("rooms")) {
        part.push_str(line);
        part.push('\n');
    }
    let part_path = temp.path().join("part.csv");
    fs::write(&part_path, part).unwrap();
    let older = concat!(env!("CARGO_MANIFEST_DIR"), "/../results/runs/2026-11-28T14-30-48Z.csv.gz");
    let out = pqlab(&["diff", "--check", older, part_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("bands are ranked in one run only"), "{}", text(&out));
}

/// A 64x64 map of open ground crossed by walls with gaps, without a scenario.
fn open_map(dir: &Path) -> PathBuf {
    let map = dir.join("open.map");
    let mut grid = String::from("type octile\nheight 64\nwidth 64\nmap\n");
    for y in 0..64 {
        let row: String =
            (0..64).map(|x| if x % 16 == 8 && y % 8 != 0 { '@' } else { '.' }).collect();
        grid.push_str(&row);
        grid.push('\n');
    }
    fs::write(&map, grid).unwrap();
    map
}

/// `pqlab run --search jps` runs JPS, checked against the reference Dijkstra, and refuses
/// moves it does not take.
#[test]
fn run_searches_with_the_search_asked() {
    let temp = folder();
    let map = open_map(temp.path());
    let expansions = |search: &str| -> u64 {
        let args = ["run", "--map", map.to_str().unwrap(), "--search", search, "--limit", "20"];
        let out = pqlab(&[&args[..], &["--queue", "std-binary-heap-dup", "--json"]].concat());
        assert!(out.status.success(), "{search}: {}", text(&out));
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let rows: Vec<serde_json::Value> =
            stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.len(), 20, "{stdout}");
        assert!(rows.iter().all(|r| r["correct"] == true), "{search}: {stdout}");
        rows.iter().map(|r| r["counters"]["expansions"].as_u64().unwrap()).sum()
    };
    let (astar, jps) = (expansions("astar"), expansions("jps"));
    assert!(jps < astar, "JPS expanded {jps}, A* {astar}");
    let args = ["run", "--map", map.to_str().unwrap(), "--search", "jps", "--moves", "4"];
    let out = pqlab(&args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--search jps: it takes 8 moves, not 4"), "{}", text(&out));
}

/// `validate --search` checks the search asked: every queue with JPS on the hand-worked
/// map, and with each tie rule; an unknown search is refused with the valid names.
#[test]
fn validate_checks_the_search_asked() {
    let temp = folder();
    let dir = temp.path();
    tiny_map(dir);
    let dir = dir.to_str().unwrap();
    for (search, name) in
        [("jps", "JPS (jps)"), ("astar-ties-fifo", "A* (ties: FIFO) (astar-ties-fifo)")]
    {
        let out = pqlab(&["validate", "--maps", dir, "--search", search]);
        let text = text(&out);
        assert!(out.status.success(), "{search}: {text}");
        assert!(text.contains(&format!("queues and {name} in")), "{text}");
        assert!(text.contains(" passed, 0 failed") && !text.contains(" 0 passed"), "{text}");
    }
    let out = pqlab(&["validate", "--maps", dir, "--search", "dijkstra"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("invalid value 'dijkstra' for '--search"), "{}", text(&out));
    assert!(text(&out).contains("jps") && text(&out).contains("astar-ties-lifo"), "{}", text(&out));
}

/// A queue the search cannot take on a map (a bucket queue's span below JPS's key rise on
/// a 500-cell row) is not checked there and said so; when no queue asked can run, nothing
/// was checked, and that is an error.
#[test]
fn validate_says_which_queues_the_search_cannot_take() {
    let temp = folder();
    let dir = temp.path();
    fs::write(
        dir.join("row.map"),
        format!("type octile\nheight 1\nwidth 500\nmap\n{}\n", ".".repeat(500)),
    )
    .unwrap();
    fs::write(dir.join("row.map.scen"), "version 1\n0\trow.map\t500\t1\t0\t0\t499\t0\t499\n")
        .unwrap();
    let dir = dir.to_str().unwrap();
    let both = ["validate", "--maps", dir, "--search", "jps", "--queue", "bucket-queue-dup"];
    let out = pqlab(&[&both[..], &["--queue", "std-binary-heap-dup"]].concat());
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("NOT CHECKED: the search cannot take bucket-queue-dup: "), "{said}");
    assert!(said.contains("1 passed, 0 failed, 1 queue-map pairs jps cannot take"), "{said}");
    let out = pqlab(&both);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no queue asked could run --search jps"), "{}", text(&out));
}

/// A run with JPS workloads.
const JPS_RUN: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../results/runs/2026-11-28T14-44-25Z.csv.gz");

/// `pick --map --search jps` profiles the map by JPS's frontier, not A*'s: on an open map
/// JPS holds fewer open cells per search.
#[test]
fn pick_map_profiles_the_frontier_of_the_search_asked() {
    let temp = folder();
    let dir = temp.path();
    let map = open_map(dir);
    let median = |search: &str| {
        let args = ["--map", map.to_str().unwrap(), "--search", search, "--limit", "30", "--json"];
        let out = pick_from(JPS_RUN, dir, &args);
        assert!(out.status.success(), "{search}: {}", text(&out));
        let json: serde_json::Value =
            serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).unwrap();
        json["map"]["open"][0].as_f64().unwrap()
    };
    let (astar, jps) = (median("astar"), median("jps"));
    assert!(jps < astar, "JPS's median open {jps}, A*'s {astar}");
}

/// `pick --map --search jps --measure` times JPS, the search asked: the evidence is named by
/// the series of the rows it timed.
#[test]
fn pick_measure_times_the_search_asked() {
    let temp = folder();
    let dir = temp.path();
    let map = tiny_map(dir);
    let args =
        ["--map", map.to_str().unwrap(), "--search", "jps", "--measure", "--rounds", "1", "--json"];
    let out = pick_from(JPS_RUN, dir, &args);
    assert!(out.status.success(), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let series = json["backing"][0]["series"].as_str().unwrap_or_default();
    assert_eq!(series, "octile JPS, fine costs", "{json}");
}

/// `pqlab diff` of runs on different CPUs says so on its first line, before its figures.
#[test]
fn diff_of_runs_on_other_machines_says_so() {
    let amd = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/2026-11-24T20-15-40Z.csv.gz");
    let out = pqlab(&["diff", LATEST_RUN, amd]);
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(said.starts_with("Different CPUs: A ran on Intel"), "{said}");
    assert!(said.contains("Caveat: the runs differ in CPUs"), "{said}");
}

/// Every command's help, long (`--help`) and short (`-h`), the top level's included, is in
/// plain words: clap takes it from the doc comments, and rustdoc's syntax (an intra-doc
/// link such as "[`astar::AStar`]", a Markdown link, an escaped `A\*`) must not reach a
/// user. The commands are those the top level's help lists, and the hidden `bench`.
#[test]
fn help_shows_no_rustdoc_syntax() {
    let top = pqlab(&["--help"]);
    assert!(top.status.success(), "{}", text(&top));
    let top = text(&top);
    let mut commands: Vec<&str> = top
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|&command| command != "help")
        .collect();
    assert!(commands.len() >= 8, "too few commands found in:\n{top}");
    commands.push("bench");
    let mut asks: Vec<Vec<&str>> = vec![vec!["--help"], vec!["-h"]];
    for &command in &commands {
        asks.push(vec![command, "--help"]);
        asks.push(vec![command, "-h"]);
    }
    let mut found = Vec::new();
    for args in &asks {
        let out = pqlab(args);
        assert!(out.status.success(), "pqlab {}: {}", args.join(" "), text(&out));
        for line in text(&out).lines() {
            if ["[`", "`]", "\\*", "\\_", "]("].iter().any(|syntax| line.contains(syntax)) {
                found.push(format!("pqlab {}: {}", args.join(" "), line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "rustdoc syntax in the help:\n{}", found.join("\n"));
}
