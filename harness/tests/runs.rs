//! Nothing measured is lost, and no answer comes from a run that should not answer: the
//! lab (`pqlab bench`, the body of `cargo bench`) killed, refused a folder it cannot
//! write, losing its folder mid-run, run twice at once, or filtered; and `report` and
//! `pick` on what it leaves. Each runs the quick profile on small generated workloads into
//! a temporary folder, in seconds.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Workloads matched by the filters below, in the order the lab measures them.
const FOUR: [&str; 2] = ["random", "rooms-r8-128-s1/octile"];

/// A fresh folder under the system's temporary folder, removed when dropped.
fn folder() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// `pqlab bench FILTERS` in the quick profile with a 2-second budget, into `results`.
fn bench(results: &Path, filters: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pqlab"));
    command
        .arg("bench")
        .args(filters)
        .env("PQLAB_QUICK", "1")
        .env("PQLAB_BUDGET", "2")
        .env("PQLAB_RESULTS", results)
        .env_remove("PQLAB_MAPS")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

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

/// The files under `dir/runs` whose names end with `suffix`.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir.join("runs")) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    found.sort();
    found
}

/// Reads the child's stderr until `stop` says so at a line, then returns the lines read.
fn read_until(child: &mut Child, mut stop: impl FnMut(&str) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    for line in BufReader::new(child.stderr.as_mut().unwrap()).lines() {
        let line = line.unwrap();
        let done = stop(&line);
        lines.push(line);
        if done {
            break;
        }
    }
    lines
}

/// The A* workloads of a run file, in file order.
fn astar_workloads(path: &Path) -> Vec<String> {
    let rows = pqlab::results::load_run(path).unwrap();
    let mut names: Vec<String> = Vec::new();
    for row in rows.iter().filter(|r| r.kind == pqlab::results::Kind::Astar) {
        if !names.contains(&row.workload) {
            names.push(row.workload.clone());
        }
    }
    names
}

/// Killed after its third workload, the lab leaves a partial run holding those three;
/// `report` names it partial, and `pick` does not answer from it unless it is named.
#[test]
fn a_killed_run_leaves_a_partial_run_of_its_finished_workloads() {
    let temp = folder();
    let dir = temp.path();
    let mut child = bench(dir, &FOUR).spawn().unwrap();
    let mut saved = Vec::new();
    let lines = read_until(&mut child, |line| {
        if let Some(after) = line.strip_prefix("pqlab: saved ") {
            let workload = after.split(" after ").nth(1).unwrap().split(" in ").next().unwrap();
            if !workload.contains("sentinel") {
                saved.push(workload.to_owned());
            }
        }
        saved.len() == 3
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(saved.len(), 3, "{lines:?}");
    let quick = dir.join("quick");
    let partial = files(&quick, ".partial.csv");
    assert_eq!(partial.len(), 1, "{partial:?}");
    assert!(files(&quick, ".csv").len() == 1, "only the partial run");
    assert_eq!(astar_workloads(&partial[0]), saved);

    let shown = partial[0].to_str().unwrap();
    let report = pqlab(&["report", "--results", quick.to_str().unwrap(), "--run", shown]);
    assert!(report.status.success(), "{}", text(&report));
    assert!(text(&report).contains("is a partial run"), "{}", text(&report));
    let pick = pqlab(&["pick", "--results", quick.to_str().unwrap(), "--frontier", "100"]);
    assert!(!pick.status.success(), "answered from a partial run: {}", text(&pick));
    assert!(text(&pick).contains("a partial run (name it with --run"), "{}", text(&pick));
}

/// Two benches started at once into one folder both keep their runs, under two ids, and
/// one is told the other shares the folder and the cores.
#[test]
fn two_runs_at_once_keep_both() {
    let temp = folder();
    let dir = temp.path();
    let children: Vec<Child> = (0..2).map(|_| bench(dir, &["random"]).spawn().unwrap()).collect();
    let outputs: Vec<Output> =
        children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    for output in &outputs {
        assert!(output.status.success(), "{}", text(output));
    }
    let partial = files(&dir.join("quick"), ".partial.csv");
    assert_eq!(partial.len(), 2, "{partial:?}");
    let ids: Vec<String> =
        partial.iter().map(|p| pqlab::results::load_run(p).unwrap()[0].run.clone()).collect();
    assert_ne!(ids[0], ids[1]);
    let told = outputs.iter().filter(|o| text(o).contains("another run is measuring")).count();
    assert_eq!(told, 1, "{}", outputs.iter().map(text).collect::<String>());
}

/// A results folder that cannot be written (a regular file, read-only, full) is refused
/// before anything is measured, and the message names it.
#[test]
fn an_unwritable_results_folder_is_refused_before_measuring() {
    let temp = folder();
    let dir = temp.path();
    let refused = |results: &Path, command: &mut Command| {
        let output = command.output().unwrap();
        let said = text(&output);
        assert!(!output.status.success(), "{said}");
        assert!(said.contains(&results.display().to_string()), "{said}");
        assert!(!said.contains("[1/"), "measured first: {said}");
        said
    };
    // A regular file where the folder should be.
    let file = dir.join("a-file");
    fs::write(&file, "").unwrap();
    refused(&file, &mut bench(&file, &["random"]));

    // Read-only (as another user when the tests run as root, who may write anywhere).
    let read_only = dir.join("read-only");
    fs::create_dir_all(read_only.join("quick").join("runs")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for d in [&read_only, &read_only.join("quick"), &read_only.join("quick").join("runs")] {
        fs::set_permissions(d, fs::Permissions::from_mode(0o555)).unwrap();
    }
    let mut command = bench(&read_only, &["random"]);
    command.current_dir(dir);
    // SAFETY: `geteuid` reads the process's credentials and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        use std::os::unix::process::CommandExt;
        command.uid(65_534).gid(65_534);
    }
    refused(&read_only.join("quick"), &mut command);

    // Full: every file the process writes is cut at 4 KiB (`RLIMIT_FSIZE`; the signal it
    // raises ignored, so writes fail with an error as on a full disk).
    let full = dir.join("full");
    let mut command = bench(&full, &["random"]);
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure only calls the async-signal-safe
    // `signal` and `setrlimit`, on memory of its own.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit { rlim_cur: 4096, rlim_max: 4096 };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let said = refused(&full.join("quick"), &mut command);
    assert!(said.contains("cannot be written"), "{said}");
    for d in [&read_only, &read_only.join("quick"), &read_only.join("quick").join("runs")] {
        fs::set_permissions(d, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// When the results folder fails mid-run, the run is written where it can be, and the
/// message says where.
#[test]
fn a_save_failure_writes_the_run_elsewhere_and_says_where() {
    let temp = folder();
    let dir = temp.path();
    let (results, elsewhere) = (dir.join("results"), dir.join("elsewhere"));
    fs::create_dir_all(&elsewhere).unwrap();
    let mut child = bench(&results, &FOUR[..1]).env("TMPDIR", &elsewhere).spawn().unwrap();
    read_until(&mut child, |line| line.starts_with("pqlab: saved "));
    // The folder is gone, and a file stands in its place.
    let runs = results.join("quick").join("runs");
    fs::remove_dir_all(&runs).unwrap();
    fs::write(&runs, "").unwrap();
    let rest = read_until(&mut child, |_| false).join("\n");
    let status = child.wait().unwrap();
    assert!(!status.success(), "{rest}");
    let rescued: Vec<PathBuf> =
        fs::read_dir(&elsewhere).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(rescued.len(), 1, "{rest}");
    assert!(rest.contains(&format!("the run is in {}", rescued[0].display())), "{rest}");
    assert_eq!(astar_workloads(&rescued[0]), ["random-d20-32-s1/octile/fine/flat"]);
}

/// A filter that matches nothing is an error before anything is measured or written.
#[test]
fn a_filter_matching_nothing_is_an_error() {
    let temp = folder();
    let dir = temp.path();
    let output = bench(dir, &["no-such-workload"]).output().unwrap();
    assert!(!output.status.success());
    assert!(text(&output).contains("no workload matches"), "{}", text(&output));
    assert!(!dir.join("quick").exists(), "the typo wrote something");
}

/// An unknown option (a typo) is refused before anything is measured, and `--list` with a
/// filter that matches nothing is the same error as measuring with it: exit status 2.
#[test]
fn an_unknown_option_or_an_empty_listing_exits_2() {
    let temp = folder();
    let dir = temp.path();
    for (args, said) in [
        (&["--lst"][..], "unknown option `--lst`"),
        (&["no-such-workload", "--list"][..], "no workload matches"),
        (&["no-such-workload"][..], "no workload matches"),
    ] {
        let output = bench(dir, args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(text(&output).contains(said), "{args:?}: {}", text(&output));
    }
    assert!(!dir.join("quick").exists(), "a refused bench wrote something");
}

/// Only a checkout's own `results/` folder rewrites a README: a results folder under
/// another README, or the checkout's `results/local/`, leaves it as it was. The default
/// results folder is found from the working directory.
#[test]
fn only_the_repository_results_folder_rewrites_a_readme() {
    let temp = folder();
    let dir = temp.path();
    let mut child = bench(dir, &["random"]).spawn().unwrap();
    let said = read_until(&mut child, |_| false).join("\n");
    assert!(child.wait().unwrap().success());
    // A filtered run is partial: no report, and it says so.
    assert!(said.contains("a filtered run is partial"), "{said}");
    assert!(!dir.join("quick").join("report").exists(), "a filtered run wrote a report");
    let run = files(&dir.join("quick"), ".partial.csv").remove(0);
    let readme = "# x\n<!-- pqlab:summary:start -->\nold\n<!-- pqlab:summary:end -->\n";
    // A folder under another README; a checkout's `scratch/` (`PQLAB_RESULTS=scratch`);
    // the checkout's own `results/`, which alone rewrites its README.
    for (root, name, checkout) in [
        (dir.join("foreign"), "results", false),
        (dir.join("scratchy"), "scratch", true),
        (dir.join("checkout"), "results", true),
    ] {
        let results = root.join(name);
        fs::create_dir_all(results.join("runs")).unwrap();
        fs::copy(&run, results.join("runs").join("r.csv")).unwrap();
        fs::write(root.join("README.md"), readme).unwrap();
        if checkout {
            for crate_dir in ["harness", "queues"] {
                fs::create_dir_all(root.join(crate_dir)).unwrap();
                fs::write(root.join(crate_dir).join("Cargo.toml"), "").unwrap();
            }
        }
        let output = pqlab(&["report", "--results", results.to_str().unwrap()]);
        assert!(output.status.success(), "{}", text(&output));
        let after = fs::read_to_string(root.join("README.md")).unwrap();
        assert_eq!(
            after != readme,
            checkout && name == "results",
            "{}: {after}",
            results.display()
        );
    }
    // Found from the working directory: the committed results/, until results/local/
    // holds a run; a local run's report leaves the README alone.
    let root = dir.join("checkout");
    let report_here = || {
        let output = Command::new(env!("CARGO_BIN_EXE_pqlab"))
            .arg("report")
            .current_dir(root.join("harness"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output));
        text(&output)
    };
    let said = report_here();
    assert!(said.contains(&format!("results from {}", root.join("results").display())), "{said}");
    fs::write(root.join("README.md"), readme).unwrap();
    let local = root.join("results").join("local");
    fs::create_dir_all(local.join("runs")).unwrap();
    fs::copy(&run, local.join("runs").join("r.csv")).unwrap();
    let said = report_here();
    assert!(said.contains(&format!("results from {}", local.display())), "{said}");
    assert_eq!(fs::read_to_string(root.join("README.md")).unwrap(), readme);
}

/// A malformed map under `PQLAB_MAPS` is said before anything is measured, gets a failed
/// row naming its file and line, and the run goes on to save the good map's rows.
#[test]
fn a_malformed_map_gets_a_failed_row_and_the_run_goes_on() {
    let temp = folder();
    let dir = temp.path();
    let maps = dir.join("maps");
    fs::create_dir_all(&maps).unwrap();
    let grid = "height 4\nwidth 4\nmap\n....\n....\n.T..\n....\n";
    for (name, kind) in [("good", "octile"), ("zz", "tile")] {
        fs::write(maps.join(format!("{name}.map")), format!("type {kind}\n{grid}")).unwrap();
        let scen = format!("version 1\n0\t{name}.map\t4\t4\t0\t0\t3\t0\t3\n");
        fs::write(maps.join(format!("{name}.map.scen")), scen).unwrap();
    }
    let output = bench(dir, &["movingai"]).env("PQLAB_MAPS", &maps).output().unwrap();
    let said = text(&output);
    assert!(output.status.success(), "{said}");
    let (before, _) = said.split_once("[1/").expect("measured");
    assert!(before.contains("zz.map:1"), "not said before measuring: {said}");
    let run = files(&dir.join("quick"), ".partial.csv").remove(0);
    let rows = pqlab::results::load_run(&run).unwrap();
    let zz: Vec<_> = rows.iter().filter(|r| r.workload.contains("/zz/")).collect();
    assert_eq!(zz.len(), 1);
    assert_eq!(zz[0].status, pqlab::results::Status::Failed);
    assert!(zz[0].note.contains("zz.map:1"), "{}", zz[0].note);
    let good = rows.iter().filter(|r| r.workload.contains("/good/"));
    assert!(good.filter(|r| r.status == pqlab::results::Status::Ok).count() > 1);
}

/// A bad `PQLAB_*` value stops the lab with exit status 2, naming the variable and its
/// value, before anything is measured or written: `PQLAB_BUDGET=1e20` must not panic
/// converting to a `Duration`, `abc`, `0`, `-5` and `nan` must not be ignored, and
/// `PQLAB_QUICK=false` must not choose the quick profile. 6 values: 6 exits 2.
#[test]
fn a_bad_setting_exits_2_before_measuring() {
    let temp = folder();
    let dir = temp.path();
    let cases = [
        ("PQLAB_BUDGET", "1e20"),
        ("PQLAB_BUDGET", "abc"),
        ("PQLAB_BUDGET", "0"),
        ("PQLAB_BUDGET", "-5"),
        ("PQLAB_BUDGET", "nan"),
        ("PQLAB_QUICK", "false"),
    ];
    for (variable, value) in cases {
        let output = bench(dir, &["random"]).env(variable, value).output().unwrap();
        let said = text(&output);
        assert_eq!(output.status.code(), Some(2), "{variable}={value}: {said}");
        assert!(said.contains(&format!("{variable}=\"{value}\"")), "{said}");
        assert!(!said.contains("panicked") && !said.contains("[1/"), "{said}");
    }
    assert!(fs::read_dir(dir).unwrap().next().is_none(), "a bad setting wrote something");
}

/// `pqlab ARGS` killed after `seconds`, its address space capped at 1 GiB so that a
/// runaway read fails fast rather than exhausting the machine's memory.
fn bounded(args: &[&str], seconds: u64) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_pqlab"));
    command.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: between fork and exec the closure only calls the async-signal-safe
    // `setrlimit`, on memory of its own.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 1 << 30, rlim_max: 1 << 30 };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(seconds) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} hung for {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// A FIFO, or a link to `/dev/zero`, as `runs/zz.csv` is refused at once, with the file
/// named, by `report`, `pick` and `diff`, found in the folder or named: a FIFO must not
/// hang them, nor a link to `/dev/zero` abort them on a 4 GiB allocation. 2 special files
/// × 4 commands: 8 clean errors.
#[test]
fn special_files_are_refused_by_report_pick_and_diff() {
    let temp = folder();
    let dir = temp.path();
    let (fifo_dir, zero_dir) = (dir.join("fifo"), dir.join("zero"));
    for d in [&fifo_dir, &zero_dir] {
        fs::create_dir_all(d.join("runs")).unwrap();
    }
    let fifo = fifo_dir.join("runs").join("zz.csv");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    std::os::unix::fs::symlink("/dev/zero", zero_dir.join("runs").join("zz.csv")).unwrap();
    let mut refused = 0;
    for results in [&fifo_dir, &zero_dir] {
        let file = results.join("runs").join("zz.csv");
        let (results, file) = (results.to_str().unwrap(), file.to_str().unwrap());
        for args in [
            vec!["report", "--results", results],
            vec!["report", "--results", results, "--run", file],
            vec!["pick", "--results", results, "--frontier", "100"],
            vec!["diff", file, file],
        ] {
            let output = bounded(&args, 20);
            let said = text(&output);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {said}");
            assert!(said.contains("zz.csv: not a regular file"), "{args:?}: {said}");
            refused += 1;
        }
    }
    assert_eq!(refused, 8);
}

/// Without `PQLAB_RESULTS`, the lab writes to `results/local/` of the checkout it is run
/// in, found from the working directory, never to the checkout the binary was built from:
/// the location is not compiled in, so a moved checkout or a copied `target/` never writes
/// to, or answers from, another checkout's results.
#[test]
fn the_default_results_folder_is_the_working_directory_checkout() {
    let temp = folder();
    let root = temp.path();
    for crate_dir in ["harness", "queues"] {
        fs::create_dir_all(root.join(crate_dir)).unwrap();
        fs::write(root.join(crate_dir).join("Cargo.toml"), "").unwrap();
    }
    let mut command = bench(root, &["random"]);
    command.env_remove("PQLAB_RESULTS").current_dir(root.join("harness"));
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let local = root.join("results").join("local").join("quick");
    assert_eq!(files(&local, ".partial.csv").len(), 1, "{}", text(&output));
}
