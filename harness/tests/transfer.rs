//! How far `pqlab pick --map` can be trusted: on every Moving AI map under
//! `../shared/movingai` (or `PQLAB_MAPS`), the map answer without `--measure` against
//! `--measure`'s tie group on this machine. Prints one row a map (map, prediction, measured
//! winner, the prediction's time ÷ the winner's) and how many predictions were in the tie
//! group. Run it with `--release`: the timings are then a release build's. CPU-heavy (about 15 s a map on 2 cores with the default `PQLAB_LIMIT` of 100
//! problems a map), so ignored; run it alone on a quiet machine:
//!
//! ```text
//! cargo test --release -p pqlab --test transfer -- --ignored --nocapture
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `pqlab pick --json` with `args` and returns its answer.
fn pick(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_pqlab"))
        .arg("pick")
        .args(args)
        .arg("--json")
        .output()
        .expect("pqlab runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("pick --json prints one JSON object")
}

/// Every `.map` under `dir` with a scenario beside it, in path order.
fn maps(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the maps folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(maps(&path));
        } else if path.extension().is_some_and(|e| e == "map") {
            found.push(path);
        }
    }
    found.sort();
    found
}

#[test]
#[ignore = "CPU-heavy: times every shared Moving AI map"]
fn pick_map_against_measure_on_every_shared_map() {
    let dir = std::env::var_os("PQLAB_MAPS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/movingai"),
        PathBuf::from,
    );
    let limit = std::env::var("PQLAB_LIMIT").unwrap_or_else(|_| "100".into());
    let maps = maps(&dir);
    assert!(!maps.is_empty(), "no maps under {}", dir.display());
    println!("| map | `pick --map` | `--measure` winner | prediction ÷ winner | in tie group |");
    println!("|---|---|---|---|---|");
    let mut hits = 0;
    for map in &maps {
        let map_arg = map.to_str().expect("a UTF-8 path");
        let predicted = pick(&["--map", map_arg, "--limit", &limit]);
        let predicted = predicted["ranking"][0]["queue"].as_str().expect("a winner").to_owned();
        let measured = pick(&["--map", map_arg, "--limit", &limit, "--measure"]);
        let ranking = measured["ranking"].as_array().expect("a ranking");
        let winner = ranking[0]["queue"].as_str().expect("a winner");
        let mine = ranking.iter().find(|r| r["queue"] == predicted.as_str());
        let tied = mine.is_some_and(|r| r["tied"] == true);
        let versus = mine.map_or("not measured".into(), |r| {
            format!("{:.2}×", r["vs_best"][1].as_f64().expect("a ratio"))
        });
        hits += usize::from(tied);
        let name = map.strip_prefix(&dir).unwrap_or(map).display().to_string();
        println!(
            "| {name} | {predicted} | {winner} | {versus} | {} |",
            if tied { "yes" } else { "no" }
        );
    }
    println!("\n{hits} of {} predictions in `--measure`'s tie group (--limit {limit})", maps.len());
}
