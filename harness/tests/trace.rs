//! `pqlab pick --trace` as a user meets it: a malformed trace is refused with its file and
//! record named (exit status 2), and a well-formed one is answered verdict first, with the
//! queues that cannot take its keys listed `n/a` with the reason. No timing is asserted.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use pqlab::format::count;
use pqlab_queues::std_binary_heap::StdBinaryHeap;
use pqlab_queues::trace::{Recording, TraceFormat, TraceKeys, UserTrace};
use pqlab_queues::{Frontier, Spec};
use tempfile::TempDir;

/// `pqlab pick --trace FILE` with an empty results folder (no run to cite), and `extra`.
fn pick(trace: &Path, results: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqlab"))
        .args(["pick", "--trace", trace.to_str().unwrap(), "--results", results.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("pqlab runs")
}

/// A fresh folder under the system's temporary folder, removed when dropped.
fn folder() -> TempDir {
    tempfile::tempdir().unwrap()
}

/// `pick` on a trace of `text` with `env` set, and its exit status and stderr.
fn refused(text: &[u8], extra: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = folder();
    let path = dir.path().join("t.trace");
    fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pqlab"))
        .args(["pick", "--trace", path.to_str().unwrap(), "--results"])
        .arg(dir.path())
        .args(extra)
        .envs(env.iter().copied())
        .output()
        .expect("pqlab runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn malformed_traces_are_refused_with_the_record_named_and_exit_status_2() {
    let dir = folder();
    let dir = dir.path();
    let head = "pqlab-trace 1\nkeys monotone\n";
    let mut binary = Vec::new();
    UserTrace::new(
        TraceKeys::Monotone,
        None,
        vec![pqlab_queues::trace::TraceOp::Push { node: 1, key: 5 }],
    )
    .unwrap()
    .write(&mut binary, TraceFormat::Binary)
    .unwrap();
    binary.truncate(binary.len() - 4);
    let cases: [(&str, Vec<u8>, &str); 6] = [
        (
            "unknown",
            format!("{head}push 1 5\nfrob 1 5\n").into(),
            "line 4: unknown operation 'frob'",
        ),
        ("empty", format!("{head}pop 1 5\n").into(), "line 3: pop from an empty frontier"),
        (
            "floor",
            format!("{head}push 1 5\npop 1 5\npush 2 4\n").into(),
            "line 5: key 4 is below the last popped key 5",
        ),
        ("header", b"hello 1\npush 1 5\n".to_vec(), "line 1: not a pqlab trace"),
        ("truncated", binary, "byte 19: the file ends inside a record: 12 bytes needed, 8 left"),
        ("version", b"pqlab-trace 9\n".to_vec(), "line 1: trace format version 9"),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(format!("{name}.trace"));
        fs::write(&path, bytes).unwrap();
        let out = pick(&path, dir, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(&format!("{}: {expected}", path.display())), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
    let absent = pick(&dir.join("absent.trace"), dir, &[]);
    assert_eq!(absent.status.code(), Some(2));
}

#[test]
fn a_small_trace_is_answered_with_its_profile_and_the_queues_that_cannot_take_it() {
    let dir = folder();
    let dir = dir.path();
    // Dijkstra on a ring of 300 nodes with chords, from 5 sources, recorded with std's
    // heap: then declared `keys any`, which only the queues taking any key can replay.
    let n = 300u32;
    let mut open = Recording::<StdBinaryHeap>::new(Spec { capacity: n as usize, span: 0 });
    for source in [0, 70, 140, 210, 280] {
        open.clear();
        let mut dist = vec![u64::MAX; n as usize];
        dist[source as usize] = 0;
        open.push(source, 0).unwrap();
        while let Some((node, d)) = open.pop() {
            if d > dist[node as usize] {
                continue;
            }
            for (next, cost) in [((node + 1) % n, 3), ((node + n - 1) % n, 3), ((node * 7) % n, 11)]
            {
                if d + cost < dist[next as usize] {
                    dist[next as usize] = d + cost;
                    open.push(next, d + cost).unwrap();
                }
            }
        }
    }
    let recorded = open.trace().unwrap();
    let any = UserTrace::new(TraceKeys::Any, None, recorded.ops().to_vec()).unwrap();
    let path = dir.join("any.ptrace");
    any.save(&path, TraceFormat::Binary).unwrap();
    let out = pick(&path, dir, &["--rounds", "3", "--budget", "30"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("Use `"), "the verdict first: {stdout}");
    let facts = any.facts();
    // The clears between the five searches count among the operations.
    let profile = format!(
        "{}: {} operations ({} pushes, {} decreases, {} pops) in 5 searches",
        path.display(),
        count(any.ops().len() as f64),
        count(facts.pushes as f64),
        count(facts.decreases as f64),
        count(facts.pops as f64)
    );
    assert!(stdout.contains(&profile), "{profile}\n{stdout}");
    assert!(stdout.contains("keys any"), "{stdout}");
    assert!(stdout.contains("radix-heap-dup: n/a: it needs monotone keys"), "{stdout}");
    assert!(stdout.contains("To adopt `"), "{stdout}");
    assert!(stdout.contains("no run here replayed the lab's workloads"), "{stdout}");

    // A monotone trace whose second push is below its first, before any pop: the
    // bounded-span queues (the floor is the first key pushed) cannot take it.
    let starts = dir.join("starts.trace");
    fs::write(&starts, "pqlab-trace 1\nkeys monotone\npush 1 10\npush 2 5\npop 2 5\npop 1 10\n")
        .unwrap();
    let out = pick(&starts, dir, &["--rounds", "3", "--budget", "20", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["trace"]["operations"], 4);
    let not_ranked = json["not_ranked"].as_array().unwrap();
    let why = not_ranked
        .iter()
        .find(|q| q[0] == "bucket-queue-dup")
        .unwrap_or_else(|| panic!("{stdout}"))[1]
        .as_str()
        .unwrap();
    assert!(
        why.contains("cannot take the trace's keys") && why.contains("key 5 is below"),
        "{why}"
    );
}

/// A monotone trace of `n` searches, each pushing three nodes and popping them.
fn searches(n: usize) -> String {
    let mut text = String::from("pqlab-trace 1\nkeys monotone\n");
    for _ in 0..n {
        text.push_str("push 0 1\npush 1 2\npush 2 2\npop 0 1\npop 2 2\npop 1 2\nclear\n");
    }
    text
}

#[test]
fn a_trace_beyond_the_memory_limit_is_refused_before_it_is_read() {
    // 70,000 operations, and a malformed last line: the limit refuses it before any
    // record is read, naming the estimate and the limit.
    let text = format!("{}frob\n", searches(10_000));
    let (code, stderr) = refused(text.as_bytes(), &[], &[("PQLAB_MEMORY", "1M")]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("replaying 70,004 operations needs about"), "{stderr}");
    assert!(stderr.contains("above the memory limit of 1 MiB (PQLAB_MEMORY"), "{stderr}");
    assert!(!stderr.contains("frob"), "{stderr}");
    // Within the limit, the same file is read, and its malformed line refused.
    let (code, stderr) = refused(text.as_bytes(), &[], &[("PQLAB_MEMORY", "64M")]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("line 70003: unknown operation 'frob'"), "{stderr}");
}

#[test]
fn a_memory_limit_beyond_the_machine_is_refused() {
    let (code, stderr) = refused(searches(1).as_bytes(), &[], &[("PQLAB_MEMORY", "1e18")]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("PQLAB_MEMORY=\"1e18\": expected at most the machine's physical memory"),
        "{stderr}"
    );
}

#[test]
fn special_files_are_refused_unread() {
    let dir = folder();
    let fifo = dir.path().join("fifo.trace");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo reads nothing else.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    // No writer ever opens the FIFO: reading it would wait forever.
    for special in [Path::new("/dev/zero"), &fifo] {
        let out = pick(special, dir.path(), &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("{}: not a regular file", special.display())), "{stderr}");
    }
}

#[test]
fn a_huge_line_is_refused_and_quoted_short_once() {
    let line = "x".repeat(1 << 20);
    let (code, stderr) =
        refused(format!("pqlab-trace 1\nkeys monotone\npush {line} 1\n").as_bytes(), &[], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("line 3: the line is longer than 4096 bytes"), "{stderr}");
    assert!(stderr.len() < 500, "{} bytes of stderr", stderr.len());
    let word = "y".repeat(4000);
    let (code, stderr) =
        refused(format!("pqlab-trace 1\nkeys monotone\n{word}\n").as_bytes(), &[], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.matches("unknown operation 'yyyy").count(), 1, "{stderr}");
    assert!(stderr.len() < 500, "{} bytes of stderr", stderr.len());
}

#[test]
fn an_empty_trace_and_flags_that_do_not_apply_are_refused() {
    let (code, stderr) = refused(b"pqlab-trace 1\nkeys monotone\n", &[], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the trace holds no operations"), "{stderr}");
    for flag in [
        &["--latency"][..],
        &["--measure"],
        &["--scen", "x.scen"],
        &["--limit", "5"],
        &["--search", "generic"],
        &["--graph", "road"],
        &["--moves", "4"],
        &["--costs", "unit"],
        &["--heuristic", "manhattan"],
        &["--scale", "coarse"],
    ] {
        let (code, stderr) = refused(searches(1).as_bytes(), flag, &[]);
        assert_eq!(code, Some(2), "{flag:?}: {stderr}");
        assert!(stderr.contains(flag[0]) && stderr.contains("--trace"), "{flag:?}: {stderr}");
    }
}

#[test]
fn pick_trace_runs_nothing_the_working_directory_names() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder();
    let here = dir.path();
    let ran = here.join("ran");
    // A program that notes it ran, as a toolchain's rustc and as a repository's hook.
    let planted = |path: &Path| {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(
            path,
            format!("#!/bin/sh\necho {} >> {}\nexit 1\n", path.display(), ran.display()),
        )
        .unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    };
    let toolchain = here.join("toolchain");
    planted(&toolchain.join("bin").join("rustc"));
    fs::write(
        here.join("rust-toolchain.toml"),
        format!("[toolchain]\npath = \"{}\"\n", toolchain.display()),
    )
    .unwrap();
    let hook = here.join("fsmonitor-hook");
    planted(&hook);
    for args in [&["init", "-q"][..], &["config", "core.fsmonitor", hook.to_str().unwrap()]] {
        assert!(Command::new("git").current_dir(here).args(args).status().unwrap().success());
    }
    let trace = here.join("t.trace");
    fs::write(&trace, searches(2)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pqlab"))
        .current_dir(here)
        .args(["pick", "--trace", "t.trace", "--rounds", "2", "--budget", "20", "--results"])
        .arg(here)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!ran.exists(), "ran: {}", fs::read_to_string(&ran).unwrap_or_default());
}
