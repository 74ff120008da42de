//! The report: charts (SVG and PNG), `results/README.md` and `results/index.html`, made
//! from one run's rows without measuring anything (`pqlab report`; `cargo bench` calls
//! it after measuring).
//!
//! Every number on the pages comes from the rows, except the criteria the report states
//! with them: the frontier-size bands, the sizes the folklore names, and the 5% within
//! which two speeds count as the same ([`SAME_SPEED`](crate::analysis::SAME_SPEED)).

mod chart;
mod figures;
mod page;
mod sections;
mod verdicts;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{ensure, Context, Result};

use crate::analysis::Lab;
use crate::results::{self, write_atomic, Row};
use chart::{Figure, Palette};

/// Every chart the report can draw, by file stem. A chart the rows cannot feed is not
/// drawn, and an old file of that name is removed so no stale chart outlives its run.
pub const CHARTS: [&str; 7] = [
    "best-by-band",
    "search-time",
    "relative-speed",
    "queue-alone",
    "decrease-key",
    "frontier-sizes",
    "peers-and-oracle",
];

/// Regenerates the report from the latest run under `results_dir` (`pqlab report`).
pub fn regenerate(results_dir: &Path) -> Result<Vec<PathBuf>> {
    let Some((path, rows)) = results::latest_run(results_dir)? else {
        anyhow::bail!(crate::pick::no_results(results_dir));
    };
    generate(results_dir, &rows, &path)
}

/// Writes the charts (`<name>.svg` and `<name>.png`), `README.md` and `index.html` into
/// `results_dir` from `rows`, the run read from `source`; returns the files written.
pub fn generate(results_dir: &Path, rows: &[Row], source: &Path) -> Result<Vec<PathBuf>> {
    ensure!(!rows.is_empty(), "{} holds no rows: nothing to report", source.display());
    let lab = Lab::new(rows);
    let palette = Palette::new(rows);
    let figures: Vec<Figure> = [
        figures::best_by_band(&lab, &palette),
        figures::search_time(&lab, &palette),
        figures::relative_speed(&lab, &palette),
        figures::queue_alone(&lab, &palette),
        figures::decrease_key(&lab, &palette),
        figures::frontier_sizes(&lab),
        figures::peers_and_oracle(&lab, &palette),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut written = Vec::new();
    for figure in &figures {
        let (svg, png) = chart::render(figure)?;
        for (extension, bytes) in [("svg", svg.as_bytes()), ("png", png.as_slice())] {
            let path = results_dir.join(format!("{}.{extension}", figure.name));
            write_atomic(&path, bytes)?;
            written.push(path);
        }
    }
    for stale in CHARTS.iter().filter(|name| figures.iter().all(|f| f.name != **name)) {
        for extension in ["svg", "png"] {
            let path = results_dir.join(format!("{stale}.{extension}"));
            if path.exists() {
                fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    let source_name = source
        .strip_prefix(results_dir)
        .map_or_else(|_| source.display().to_string(), |p| p.display().to_string());
    let drawn: BTreeSet<&str> = figures.iter().map(|f| f.name).collect();
    let blocks = sections::document(&lab, &drawn, &source_name);
    let readme = results_dir.join("README.md");
    write_atomic(&readme, page::markdown(&blocks).as_bytes())?;
    let index = results_dir.join("index.html");
    write_atomic(&index, page::html("pqlab results", &blocks).as_bytes())?;
    written.extend([readme, index]);
    let root_readme = results_dir.join("..").join("README.md");
    let summary = page::markdown_in(&sections::summary(&lab, &drawn, &source_name), "results/");
    if update_between_markers(&root_readme, &summary)? {
        written.push(root_readme);
    }
    Ok(written)
}

/// Where the summary goes in the repository's README.
pub const SUMMARY_START: &str = "<!-- pqlab:summary:start -->";
/// Where it ends.
pub const SUMMARY_END: &str = "<!-- pqlab:summary:end -->";

/// Replaces the text between [`SUMMARY_START`] and [`SUMMARY_END`] in `readme` with
/// `summary`, atomically; returns whether it did. A file without both markers (no such
/// README, or the results folder is not the repository's) is left alone.
pub fn update_between_markers(readme: &Path, summary: &str) -> Result<bool> {
    let Ok(text) = fs::read_to_string(readme) else { return Ok(false) };
    let (Some(start), Some(end)) = (text.find(SUMMARY_START), text.find(SUMMARY_END)) else {
        return Ok(false);
    };
    ensure!(start < end, "{}: the summary's end marker comes before its start", readme.display());
    let updated = format!("{}{SUMMARY_START}\n\n{summary}{}", &text[..start], &text[end..]);
    write_atomic(readme, updated.as_bytes())?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tests::{cut, row, sample};
    use crate::analysis::BASELINE;
    use crate::results::Kind;
    use chart::Panel;
    use page::Block;

    #[test]
    fn the_readme_summary_replaces_only_what_is_between_its_markers() {
        let dir = temp_dir("markers");
        fs::create_dir_all(&dir).unwrap();
        let readme = dir.join("README.md");
        assert!(!update_between_markers(&readme, "x").unwrap(), "no file, no update");
        fs::write(&readme, "# Title\nno markers\n").unwrap();
        assert!(!update_between_markers(&readme, "x").unwrap());
        fs::write(&readme, format!("intro\n{SUMMARY_START}\nold\n{SUMMARY_END}\noutro\n")).unwrap();
        assert!(update_between_markers(&readme, "new\n").unwrap());
        assert!(update_between_markers(&readme, "newer\n").unwrap());
        let text = fs::read_to_string(&readme).unwrap();
        assert_eq!(text, format!("intro\n{SUMMARY_START}\n\nnewer\n{SUMMARY_END}\noutro\n"));
        fs::write(&readme, format!("{SUMMARY_END}{SUMMARY_START}")).unwrap();
        assert!(update_between_markers(&readme, "x").is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pqlab-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// The sample plus every other kind: a replay, a synthetic size, a peer, the oracle,
    /// and a decrease-key twin for the heap.
    fn full_sample() -> Vec<Row> {
        let mut rows = sample();
        for (suite, size) in [("small", 20.0), ("middle", 1500.0), ("large", 50_000.0)] {
            rows.push(row(Kind::Replay, suite, BASELINE, size, 30.0));
            rows.push(row(Kind::Replay, suite, "bucket-queue-dup", size, 20.0));
            rows.push(row(Kind::Oracle, suite, "oracle", size, size * 0.5));
            let mut peer = row(Kind::Peer, suite, "pathfinding-astar", 0.0, size * 2.0);
            peer.strategy = "-".into();
            rows.push(peer);
            rows.push(row(Kind::Astar, suite, "bucket-queue-dk", size, size * 0.9));
        }
        rows.push(row(Kind::Synthetic, "held-1m", BASELINE, 1e6, 90.0));
        rows.push(row(Kind::Synthetic, "held-1m", "bucket-queue-dup", 1e6, 30.0));
        rows.push(cut(row(Kind::Synthetic, "held-1m", "sorted-array-dk", 1e6, 0.0)));
        rows
    }

    #[test]
    fn writes_every_chart_and_both_pages() {
        let dir = temp_dir("report-full");
        let rows = full_sample();
        let written = generate(&dir, &rows, &dir.join("runs/test.csv")).unwrap();
        for name in CHARTS {
            let svg = fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
            assert!(svg.contains("<text"), "{name}.svg has no text");
            let png = fs::read(dir.join(format!("{name}.png"))).unwrap();
            assert!(
                png.starts_with(b"\x89PNG") && png.len() > 10_000,
                "{name}.png: {} bytes",
                png.len()
            );
        }
        assert_eq!(written.len(), 2 * CHARTS.len() + 2);
        let readme = fs::read_to_string(dir.join("README.md")).unwrap();
        for needle in [
            "do not edit",
            "runs/test.csv",
            "2025-01-01T00-00-00Z",
            "test machine",
            "## Verdicts",
            "“bucketing above 10,000 open nodes”",
            "[![",
            "cut off",
            "| 30k–100k | A\\* | 1 | `bucket-queue-dup` |",
        ] {
            assert!(readme.contains(needle), "README.md lacks {needle:?}");
        }
        let html = fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(html.contains("<img src=\"search-time.svg\"") && html.contains("do not edit"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn partial_runs_report_what_they_have_and_drop_stale_charts() {
        let dir = temp_dir("report-partial");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("queue-alone.svg"), "stale").unwrap();
        // A quick run: one suite, two queues, A* only.
        let rows: Vec<Row> = sample().into_iter().filter(|r| r.suite == "middle").take(2).collect();
        generate(&dir, &rows, &dir.join("runs/quick.csv")).unwrap();
        assert!(dir.join("search-time.png").exists());
        assert!(!dir.join("queue-alone.svg").exists(), "a stale chart survived");
        let readme = fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(readme.contains("No chart: this run has no trace-replay or synthetic rows."));
        assert!(readme.contains("not measured"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn cut_off_rows_are_shown_not_dropped() {
        let rows = sample();
        let lab = Lab::new(&rows);
        let palette = Palette::new(&rows);
        let figure = figures::search_time(&lab, &palette).unwrap();
        let Panel::Lines(lines) = &figure.panels[0] else { panic!("a line panel") };
        let crosses: Vec<f64> =
            lines.series.iter().flat_map(|s| s.cut_offs.iter().copied()).collect();
        assert_eq!(crosses, [50_000.0]);
        let blocks = sections::document(&lab, &BTreeSet::new(), "runs/x.csv");
        let untimed = blocks
            .iter()
            .find_map(|b| match b {
                Block::Table(head, rows) if head[0] == "kind" => Some(rows.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(untimed.len(), 1);
        assert_eq!(untimed[0][2], "`sorted-array-dk`");
        assert_eq!(untimed[0][3], "cut off");
    }

    #[test]
    fn no_results_yet_says_what_to_run() {
        let dir = temp_dir("report-empty");
        let err = regenerate(&dir).unwrap_err().to_string();
        assert!(err.contains("no results yet") && err.contains("cargo bench"), "{err}");
    }
}
