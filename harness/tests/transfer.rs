//! How far `pqlab pick --map` can be trusted on a map no run has seen: on every Moving AI
//! map under `../shared/movingai` (or `PQLAB_MAPS`, whose subfolders name the map kinds),
//! the map answered leave-one-map-out (from the runs with that map's own rows removed) by
//! the other maps of its kind, by the generated bands, and as `pick --map` would choose
//! between them, each against `pick --map --measure`'s tie group on this machine (the
//! leave-one-out predictions are timed too, with `--queue`). Prints one row a map and, per
//! source and per map kind, how many predictions were in the tie group and within 1.10×
//! of the measured winner. Run it with `--release`: the timings are then a release
//! build's. CPU-heavy (about 25 s a map on 2 cores with the default `PQLAB_LIMIT` of 100
//! problems a map), so ignored; run it alone on a quiet machine:
//!
//! ```text
//! cargo test --release -p pqlab --test transfer -- --ignored --nocapture
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pqlab::maps::instance::{Instance, Sample};
use pqlab::pick::map::{self, Asking, EvidenceSource};
use pqlab::pick::Query;

/// A prediction within this factor of the measured winner counts as close; predictions
/// must be close on 29 of the 30 maps.
const CLOSE: f64 = 1.10;

/// Appends a line to a `String`.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        writeln!($out, $($arg)*).unwrap();
    }};
}

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

/// The leave-one-map-out predictions for one map: by its kind (`None` where no other map
/// of its kind was measured), by the generated bands, and `pick --map`'s choice with the
/// source it used and the gain it promised over std's heap.
struct Predictions {
    kind: Option<String>,
    bands: String,
    chosen: (EvidenceSource, String),
    promise: Option<pqlab::pick::Promise>,
}

/// `pick --map`'s default query, the map's problems surveyed, and the three predictions.
fn predict(map: &Path, limit: usize) -> (String, Predictions) {
    let query = Query::unflagged();
    let instance = Instance::user_map(map, None, Sample::Spread(limit), query.series.rules())
        .expect("a readable map");
    let survey = pqlab::pick::frontier::survey(&instance, &query).expect("the map's survey");
    let results = pqlab::results::files::default_results().expect("a results folder");
    let (runs, _) = pqlab::pick::load_all(&results, None).expect("committed runs");
    let answer = |source: Option<EvidenceSource>| {
        let asking = Asking { leave_out: true, source };
        map::from_runs(&runs, &query, map, &instance, &survey, Vec::new(), asking).ok()
    };
    let winner = |source: Option<EvidenceSource>| {
        answer(source)
            .and_then(|(answer, used)| Some((used, answer.ranking.first()?.queue.clone())))
    };
    let predictions = Predictions {
        kind: winner(Some(EvidenceSource::Kind)).map(|(_, q)| q),
        bands: winner(Some(EvidenceSource::Bands)).expect("a bands answer").1,
        chosen: winner(None).expect("an answer"),
        promise: answer(None).and_then(|(a, _)| a.promise),
    };
    (instance.kind, predictions)
}

/// A predicted queue against the measured ranking: in the tie group, and its time ÷ the
/// winner's (`None` when it was not timed).
fn against(ranking: &[serde_json::Value], queue: &str) -> (bool, Option<f64>) {
    let mine = ranking.iter().find(|r| r["queue"] == queue);
    (mine.is_some_and(|r| r["tied"] == true), mine.and_then(|r| r["vs_best"][1].as_f64()))
}

/// std's heap's time ÷ `queue`'s in a measured ranking (`None` when it was not timed).
fn gain(ranking: &[serde_json::Value], queue: &str) -> Option<f64> {
    let mine = ranking.iter().find(|r| r["queue"] == queue)?;
    Some(1.0 / mine["vs_std"].as_f64()?)
}

/// `1.03×`, or `not timed`.
fn shown(versus: Option<f64>) -> String {
    versus.map_or("not timed".into(), |v| format!("{v:.2}×"))
}

/// Tallies of one source: maps, in the tie group, within [`CLOSE`].
#[derive(Default)]
struct Tally {
    maps: usize,
    tied: usize,
    close: usize,
}

impl Tally {
    fn add(&mut self, (tied, versus): (bool, Option<f64>)) {
        self.maps += 1;
        self.tied += usize::from(tied);
        self.close += usize::from(versus.is_some_and(|v| v <= CLOSE));
    }

    fn shown(&self) -> String {
        format!("{}/{} tied, {}/{} within {CLOSE:.2}×", self.tied, self.maps, self.close, self.maps)
    }
}

#[test]
#[ignore = "CPU-heavy: times every shared Moving AI map"]
fn pick_map_left_out_against_measure_on_every_shared_map() {
    let dir = std::env::var_os("PQLAB_MAPS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/movingai"),
        PathBuf::from,
    );
    let limit = std::env::var("PQLAB_LIMIT").unwrap_or_else(|_| "100".into());
    let problems: usize = limit.parse().expect("PQLAB_LIMIT: a count of problems");
    // `PQLAB_MEASURED=run`: the measured figures are the maps run's own rows for each map
    // (`pick --map` answering from this very map), not a new `--measure` timing.
    let from_run = std::env::var("PQLAB_MEASURED").is_ok_and(|m| m == "run");
    let mut out = String::new();
    let measured_by = if from_run { "the maps run" } else { "`--measure`" };
    let maps = maps(&dir);
    assert!(!maps.is_empty(), "no maps under {}", dir.display());
    say!(out, "Leave-one-map-out: each map answered from the runs without its own rows, against {measured_by}.\n");
    say!(out, "| map | by kind | by bands | `pick --map` (source) | measured winner | kind ÷ winner | bands ÷ winner | chosen ÷ winner | chosen in tie group | promised gain (interval for a new map) | measured gain | covered |");
    say!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    let (mut covered, mut promised, mut widths) = (0, 0, Vec::new());
    let (mut kind_all, mut bands_all, mut chosen_all) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut per_kind: BTreeMap<String, (Tally, Tally)> = BTreeMap::new();
    for map in &maps {
        let map_arg = map.to_str().expect("a UTF-8 path");
        let (kind, predicted) = predict(map, problems);
        let mut args = vec!["--map", map_arg, "--limit", &limit];
        if !from_run {
            args.push("--measure");
        }
        let mut asked: Vec<&str> = predicted.kind.iter().map(String::as_str).collect();
        asked.extend([predicted.bands.as_str(), predicted.chosen.1.as_str()]);
        asked.sort_unstable();
        asked.dedup();
        for queue in asked.iter().filter(|_| !from_run) {
            args.extend(["--queue", queue]);
        }
        let measured = pick(&args);
        if from_run {
            let source = measured["backing"][0]["source"].as_str().unwrap_or_default();
            assert!(source.contains("this very map"), "{map_arg}: answered from {source}");
        }
        let ranking = measured["ranking"].as_array().expect("a ranking");
        let winner = ranking[0]["queue"].as_str().expect("a winner");
        let by_kind = predicted.kind.as_deref().map(|q| against(ranking, q));
        let by_bands = against(ranking, &predicted.bands);
        let chosen = against(ranking, &predicted.chosen.1);
        let sides = per_kind.entry(kind).or_default();
        if let Some(k) = by_kind {
            kind_all.add(k);
            sides.0.add(k);
        }
        bands_all.add(by_bands);
        sides.1.add(by_bands);
        chosen_all.add(chosen);
        let name = map.strip_prefix(&dir).unwrap_or(map).display().to_string();
        let got = gain(ranking, &predicted.chosen.1);
        let promise = predicted
            .promise
            .map_or("none".into(), |p| format!("{:.2}× ({:.2}×–{:.2}×)", p.gain, p.low, p.high));
        let hit = match (predicted.promise, got) {
            (Some(p), Some(g)) => {
                promised += 1;
                widths.push(p.high / p.low);
                covered += usize::from(p.covers(g));
                if p.covers(g) {
                    "yes"
                } else {
                    "no"
                }
            }
            _ => "-",
        };
        say!(
            out,
            "| {name} | {} | {} | {} ({}) | {winner} | {} | {} | {} | {} | {promise} | {} | {hit} |",
            predicted.kind.as_deref().unwrap_or("none measured"),
            predicted.bands,
            predicted.chosen.1,
            predicted.chosen.0.describe(),
            by_kind.map_or("-".into(), |k| shown(k.1)),
            shown(by_bands.1),
            shown(chosen.1),
            if chosen.0 { "yes" } else { "no" },
            got.map_or("not timed".into(), |g| format!("{g:.2}×"))
        );
    }
    widths.sort_by(f64::total_cmp);
    let median_width = widths.get(widths.len() / 2).copied().unwrap_or(f64::NAN);
    say!(
            out,
        "\nThe promised gain's interval for a new map covered the measured gain on {covered} of {promised} maps; its median width (high ÷ low) {median_width:.2}×."
    );
    say!(out, "\n`pick --map` on maps no run has seen: {} (--limit {limit})", chosen_all.shown());
    say!(out, "By kind: {}; by the generated bands: {}.", kind_all.shown(), bands_all.shown());
    say!(out, "\n| map kind | by kind | by bands |\n|---|---|---|");
    for (kind, (by_kind, by_bands)) in &per_kind {
        say!(out, "| {kind} | {} | {} |", by_kind.shown(), by_bands.shown());
    }
    print!("{out}");
    // `PQLAB_WRITE=1`: the table goes to `results/transfer/left-out.md`, and its headline
    // between the README's `transfer` markers.
    if std::env::var("PQLAB_WRITE").is_ok_and(|w| w == "1") {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let table = root.join("results/transfer/left-out.md");
        std::fs::create_dir_all(table.parent().unwrap()).unwrap();
        let runs = pqlab::pick::load_all(&root.join("results"), None).unwrap().0;
        let evidence: Vec<String> = runs
            .iter()
            .filter_map(|rows| rows.first())
            .filter(|r| r.real)
            .map(|r| format!("`{}` ({})", r.run, r.platform().kind()))
            .collect();
        let command = format!(
            "`PQLAB_MEASURED={} PQLAB_LIMIT={limit} PQLAB_WRITE=1 cargo test --release -p pqlab --test transfer -- --ignored --nocapture`",
            if from_run { "run" } else { "measure" }
        );
        let heading = format!(
            "# pick --map on maps no run has seen\n\nGenerated by {command}, against {measured_by}; the real-map evidence: {}.\n\n",
            evidence.join(", ")
        );
        pqlab::results::write_atomic(&table, (heading + &out).as_bytes()).unwrap();
        let headline = format!(
            "On the {} shared maps, each left out of the runs in turn, `pick --map` named a queue in the measured tie group on {} of them, within {CLOSE:.2}× of the measured winner on {}; the promised gain's interval for a new map covered the measured gain on {covered} of {promised}, its median width (high ÷ low) {median_width:.2}× (measured: {measured_by}; the table: [`results/transfer/left-out.md`](results/transfer/left-out.md)).\n\n",
            maps.len(),
            chosen_all.tied,
            chosen_all.close
        );
        let readme = root.join("README.md");
        assert!(pqlab::report::update_between_markers(&readme, "transfer", &headline).unwrap());
    }
}
