//! The README as a newcomer reads it: every link resolves, and every `pqlab` command it
//! shows runs as written, on a small map where it takes one (`cargo bench` and `cargo test`
//! are CI's own steps). Commands that time queues are given a tiny map, so each takes
//! seconds.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn readme() -> String {
    fs::read_to_string(root().join("README.md")).expect("the README")
}

/// Every Markdown link's target that is a path in the repository.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or_default();
        if !target.is_empty() && !target.contains("://") {
            found.push(target.to_owned());
        }
    }
    found
}

#[test]
fn every_link_in_the_readme_resolves() {
    let text = readme();
    let found = links(&text);
    assert!(found.len() >= 5, "{found:?}");
    let missing: Vec<&String> = found.iter().filter(|t| !root().join(t).exists()).collect();
    assert!(missing.is_empty(), "README links to missing files: {missing:?}");
    assert!(text.lines().count() <= 250, "the README is for reading in five minutes");
}

/// The `pqlab` lines of the README's `sh` blocks, comments cut.
fn commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("```") {
            inside = line == "```sh";
            continue;
        }
        let command = line.split('#').next().unwrap_or_default().trim();
        if inside && command.starts_with("pqlab ") {
            found.push(command.to_owned());
        }
    }
    found
}

#[test]
fn every_pqlab_command_in_the_readme_runs_as_written() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let map = dir.join("my.map");
    let rows: String = (0..24)
        .map(|y| if y == 12 { "....TTTTTTTTTTTTTTTT....\n" } else { "........................\n" })
        .collect();
    fs::write(&map, format!("type octile\nheight 24\nwidth 24\nmap\n{rows}")).unwrap();
    let trace = dir.join("record_trace.trace");
    fs::write(&trace, "pqlab-trace 1\nkeys monotone\npush 0 120\npush 1 130\ndecrease 1 125\npop 0 120\npush 2 140\npop 1 125\npop 2 140\nclear\npush 5 90\npop 5 90\n").unwrap();
    let found = commands(&readme());
    assert!(found.len() >= 5, "{found:?}");
    for command in &found {
        let words: Vec<String> = command
            .split_whitespace()
            .skip(1)
            .map(|w| match w {
                "my.map" => map.display().to_string(),
                "/tmp/record_trace.trace" => trace.display().to_string(),
                w => w.to_owned(),
            })
            .collect();
        let mut args = words.clone();
        // Measuring commands keep to a few problems and a short budget on the tiny map.
        if args.iter().any(|a| a == "--measure" || a == "--trace") {
            args.extend(["--budget".into(), "2".into(), "--rounds".into(), "3".into()]);
        }
        if args.iter().any(|a| a == "--map") {
            args.extend(["--limit".into(), "20".into()]);
        }
        let out = Command::new(env!("CARGO_BIN_EXE_pqlab"))
            .args(&args)
            .current_dir(root())
            .output()
            .expect("pqlab runs");
        assert!(
            out.status.success(),
            "`{command}` failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `results/RUNS.md` is what `pqlab report` writes from the committed runs: a run added or
/// removed without regenerating it fails here.
#[test]
fn the_runs_ledger_is_current() {
    let results = root().join("results");
    let (latest, _) = pqlab::results::files::latest_or(&results, None)
        .expect("the committed runs")
        .expect("a committed run");
    let wanted = pqlab::report::ledger::ledger(&results, &latest).expect("the ledger");
    let committed = fs::read_to_string(results.join("RUNS.md")).unwrap_or_default();
    assert_eq!(committed, wanted, "results/RUNS.md is stale: run `pqlab report`");
}
