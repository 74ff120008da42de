//! `pqlab pick --trace` as a user meets it: a malformed trace is refused with its file and
//! record named (exit status 2), and a well-formed one is answered verdict first, with the
//! queues that cannot take its keys listed `n/a` with the reason. No timing is asserted.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pqlab::format::count;
use pqlab_queues::std_binary_heap::StdBinaryHeap;
use pqlab_queues::trace::{Format, Keys, Recording, Trace};
use pqlab_queues::{Frontier, Spec};

/// `pqlab pick --trace FILE` with an empty results folder (no run to cite), and `extra`.
fn pick(trace: &Path, results: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqlab"))
        .args(["pick", "--trace", trace.to_str().unwrap(), "--results", results.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("pqlab runs")
}

/// A fresh folder under the system's temporary folder.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pqlab-trace-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn malformed_traces_are_refused_with_the_record_named_and_exit_status_2() {
    let dir = folder("malformed");
    let head = "pqlab-trace 1\nkeys monotone\n";
    let mut binary = Vec::new();
    Trace::new(Keys::Monotone, None, vec![pqlab_queues::trace::Op::Push { node: 1, key: 5 }])
        .unwrap()
        .write(&mut binary, Format::Binary)
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
        let out = pick(&path, &dir, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(&format!("{}: {expected}", path.display())), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
    let absent = pick(&dir.join("absent.trace"), &dir, &[]);
    assert_eq!(absent.status.code(), Some(2));
}

#[test]
fn a_small_trace_is_answered_with_its_profile_and_the_queues_that_cannot_take_it() {
    let dir = folder("answered");
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
    let any = Trace::new(Keys::Any, None, recorded.ops().to_vec()).unwrap();
    let path = dir.join("any.ptrace");
    any.save(&path, Format::Binary).unwrap();
    let out = pick(&path, &dir, &["--rounds", "3", "--budget", "30"]);
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
    assert!(stdout.contains("no run here replayed the lab's suites"), "{stdout}");

    // A monotone trace whose second push is below its first, before any pop: the
    // bounded-span queues (the floor is the first key pushed) cannot take it.
    let starts = dir.join("starts.trace");
    fs::write(&starts, "pqlab-trace 1\nkeys monotone\npush 1 10\npush 2 5\npop 2 5\npop 1 10\n")
        .unwrap();
    let out = pick(&starts, &dir, &["--rounds", "3", "--budget", "20", "--json"]);
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
