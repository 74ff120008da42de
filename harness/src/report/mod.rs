//! The report: charts (SVG and PNG), `README.md` and `index.html` in `results/report/`,
//! made from one run's rows without measuring anything (`pqlab report`; `cargo bench` calls
//! it after measuring), and the summary between the markers of the repository's README.
//!
//! The report is written whole into a staging folder (`results/.staging-PID`) and swapped
//! in with one atomic exchange of the two folders (`renameat2(RENAME_EXCHANGE)` on Linux),
//! so a reader, or a process killed at any moment, finds the previous report or the new
//! one, never a mix. The README's summary is written afterwards (atomically, and names the
//! run it comes from), and only for the repository's committed `results/` folder
//! ([`location::repository_of`]).

pub mod charts;
pub mod draw;
pub mod ledger;
mod page;
mod sections;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{ensure, Context as _, Result};

use crate::analysis::verdicts::{self, Verdict};
use crate::analysis::{Findings, Run};
use crate::lab::Profile;
use crate::results::files::{self, RunFile};
use crate::results::{location, write_atomic, Row};

/// What the report's sections are written from.
pub struct Context<'a> {
    /// The run.
    pub run: &'a Run<'a>,
    /// Its analysis, computed once for every section and chart.
    pub findings: &'a Findings<'a, 'a>,
    /// Its verdicts, decided once ([`verdicts::verdicts`]).
    pub verdicts: Vec<Verdict>,
    /// The charts drawn (those a run cannot feed are not).
    pub drawn: BTreeSet<&'static str>,
    /// The run file as the page names it (`runs/<run>.csv`).
    pub source_name: String,
    /// A link to the run file from `results/report/`.
    pub source_link: String,
    /// A link to the run file from the repository's root.
    pub source_link_from_root: String,
    /// The latest run of every other CPU kind under `runs/`, with its run id.
    pub others: Vec<(Vec<Row>, String)>,
}

/// The report's folder under a results folder.
pub fn folder(results_dir: &Path) -> PathBuf {
    results_dir.join("report")
}

/// The file of the report's folder that holds the id of the run it was made from.
const RUN_ID: &str = "RUN";

/// A report made from an older run than the newest complete run of its results folder: a
/// report interrupted before it was swapped in, or a run not reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Behind {
    /// The report's folder.
    pub folder: PathBuf,
    /// The run it was made from.
    pub report: String,
    /// The newest complete run.
    pub newest: String,
}

impl std::fmt::Display for Behind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the report in {} is from run {}, older than the newest run, {} (a report interrupted before it was swapped in, or a run not reported)",
            self.folder.display(),
            self.report,
            self.newest
        )
    }
}

/// Whether the report under `results_dir` is older than its newest complete run; `None`
/// when it is not, or when either is missing or unreadable (those are said where they
/// are read). Reads the report's run id (its first 256 bytes) and each run's first row.
pub fn behind(results_dir: &Path) -> Option<Behind> {
    use std::io::Read as _;
    let folder = folder(results_dir);
    let mut report = String::new();
    files::open_regular(&folder.join(RUN_ID)).ok()?.take(256).read_to_string(&mut report).ok()?;
    let report = report.trim().to_owned();
    let (runs, _) = files::runs(results_dir).ok()?;
    let newest = runs.last()?.run.clone();
    (newest > report).then_some(Behind { folder, report, newest })
}

/// Writes the report of the run at `csv` (a file under `results_dir/runs/`, or anywhere),
/// comparing it with the latest run of every other CPU kind; returns the report's folder.
pub fn publish(results_dir: &Path, csv: &Path) -> Result<PathBuf> {
    for note in tidy(results_dir)? {
        eprintln!("pqlab: {note}");
    }
    let rows = files::load_run(csv)?;
    let others = other_machines(results_dir, &rows)?;
    generate(results_dir, &rows, csv, others)
}

/// Regenerates the report from the run `chosen`, or the latest under `results_dir`
/// (`pqlab report`).
pub fn regenerate(results_dir: &Path, chosen: Option<&Path>) -> Result<PathBuf> {
    if let Some(behind) = behind(results_dir) {
        eprintln!("pqlab: {behind}: writing it again");
    }
    let Some((path, _)) = files::latest_or(results_dir, chosen)? else {
        anyhow::bail!(location::no_results(results_dir));
    };
    publish(results_dir, &path)
}

/// The latest run of each CPU kind ([`crate::results::Platform::kind`]) other than `rows'`
/// under `results_dir/runs`, quick runs aside.
fn other_machines(results_dir: &Path, rows: &[Row]) -> Result<Vec<(Vec<Row>, String)>> {
    let here = rows.first().map(|r| r.platform().kind());
    let (found, _) = files::runs(results_dir)?;
    let mut latest: std::collections::BTreeMap<String, RunFile> = Default::default();
    for file in found.into_iter().filter(|f| Profile::of_run(&f.run) != Profile::Quick) {
        let Ok(rows) = files::load_run(&file.path) else { continue };
        let Some(kind) = rows.first().map(|r| r.platform().kind()) else { continue };
        if Some(&kind) != here.as_ref() {
            latest.insert(kind, file);
        }
    }
    latest.into_values().map(|file| Ok((files::load_run(&file.path)?, file.run))).collect()
}

/// Writes the report of `rows`, read from `source`, into `results_dir/report/`.
pub fn generate(
    results_dir: &Path,
    rows: &[Row],
    source: &Path,
    others: Vec<(Vec<Row>, String)>,
) -> Result<PathBuf> {
    ensure!(!rows.is_empty(), "{} holds no rows: nothing to report", source.display());
    let report = folder(results_dir);
    check_replaceable(&report)?;
    let run = Run::new(rows);
    let findings = Findings::of(&run);
    let staging = results_dir.join(format!(".staging-{}", std::process::id()));
    if fs::symlink_metadata(&staging).is_ok() {
        check_replaceable(&staging)?;
        fs::remove_dir_all(&staging).with_context(|| format!("removing {}", staging.display()))?;
    }
    fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    files::mark(results_dir)?;
    // A failure (a full disk) leaves no staging folder behind to hold the disk.
    let written = write_report(&staging, &run, &findings, source, results_dir, others)
        .and_then(|texts| swap_in(&staging, &report).map(|()| texts));
    let (summary, answer) = match written {
        Ok(texts) => texts,
        Err(error) => {
            let _ = fs::remove_dir_all(&staging);
            return Err(error);
        }
    };
    // Only the committed results folder's report is the README's: a local, scratch or
    // foreign results folder leaves every README alone.
    write_atomic(&results_dir.join(ledger::FILE), ledger::ledger(results_dir, source)?.as_bytes())?;
    if let Some(repository) = location::repository_of(results_dir) {
        update_between_markers(&repository.join("README.md"), SUMMARY, &summary)?;
        update_between_markers(&repository.join("README.md"), PICK_EXAMPLE, &pick_example(rows)?)?;
        update_between_markers(&repository.join("queues").join("README.md"), ANSWER, &answer)?;
    }
    Ok(report)
}

/// Writes the report's files into `staging`, synced; returns the README's summary and the
/// queue crate's README block.
fn write_report<'a>(
    staging: &Path,
    run: &'a Run<'a>,
    findings: &'a Findings<'a, 'a>,
    source: &Path,
    results_dir: &Path,
    others: Vec<(Vec<Row>, String)>,
) -> Result<(String, String)> {
    let write = |name: &str, contents: &[u8]| {
        let path = staging.join(name);
        fs::write(&path, contents).with_context(|| format!("writing {}", path.display()))
    };
    let mut drawn = BTreeSet::new();
    for chart in charts::CHARTS {
        let Some(figure) = (chart.build)(findings) else { continue };
        let (svg, png) = draw::render(&figure)?;
        write(&format!("{}.svg", chart.name), svg.as_ref())?;
        write(&format!("{}.png", chart.name), png.as_ref())?;
        drawn.insert(chart.name);
    }
    let relative = source.strip_prefix(results_dir).ok().map(Path::to_path_buf);
    let source_name =
        relative.as_ref().map_or_else(|| source.display().to_string(), |p| p.display().to_string());
    let ctx = Context {
        run,
        findings,
        verdicts: verdicts::verdicts(findings),
        drawn,
        source_link: relative
            .as_ref()
            .map_or_else(|| source.display().to_string(), |p| format!("../{}", p.display())),
        source_link_from_root: relative
            .as_ref()
            .map_or_else(|| source.display().to_string(), |p| format!("results/{}", p.display())),
        source_name,
        others,
    };
    let blocks = sections::document(&ctx);
    write("README.md", page::markdown(&blocks).as_bytes())?;
    write("index.html", page::html("pqlab results", &blocks).as_bytes())?;
    write(RUN_ID, format!("{}\n", run.run_id()).as_bytes())?;
    sync_folder(staging)?;
    Ok((
        page::markdown_in(&sections::summary(&ctx), "results/report/"),
        page::markdown(&sections::adopt(&ctx)),
    ))
}

/// The names a report writes into its folder: `README.md`, `index.html`, its run's id
/// ([`RUN_ID`]) and each chart's SVG and PNG.
fn written_by_report(name: &str) -> bool {
    name == "README.md"
        || name == "index.html"
        || name == RUN_ID
        || charts::CHARTS.iter().any(|chart| {
            name.strip_prefix(chart.name).is_some_and(|ext| ext == ".svg" || ext == ".png")
        })
}

/// [`files::tidy`], and the staging folders of interrupted reports (`dir/.staging-PID` of a
/// process that is gone, holding only the files a report writes) in a results folder;
/// a `.staging-PID` holding anything else is left alone and said so. Returns one line per
/// file or folder, to be shown.
pub fn tidy(dir: &Path) -> Result<Vec<String>> {
    let mut done = Vec::new();
    if !files::is_results_folder(dir) {
        return Ok(done);
    }
    for (path, pid) in files::leftovers(dir, |name| name.starts_with(".staging-")) {
        if files::process_alive(pid) {
            continue;
        }
        if holds_only_report_files(&path) {
            fs::remove_dir_all(&path).with_context(|| format!("removing {}", path.display()))?;
            done.push(format!("removed {}, left by an interrupted report", path.display()));
        } else {
            done.push(format!(
                "left {} alone: it holds files a report does not write",
                path.display()
            ));
        }
    }
    done.extend(files::tidy(dir)?);
    Ok(done)
}

/// Whether `dir` is a folder (not a link) holding only files a report writes: a report, or
/// a report's staging folder, that pqlab may replace or remove.
fn holds_only_report_files(dir: &Path) -> bool {
    let is_dir = fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir());
    is_dir
        && fs::read_dir(dir).is_ok_and(|entries| {
            entries.into_iter().all(|entry| {
                entry.is_ok_and(|e| {
                    e.file_type().is_ok_and(|t| t.is_file())
                        && written_by_report(&e.file_name().to_string_lossy())
                })
            })
        })
}

/// Refuses to replace `path` unless it is absent or a report pqlab wrote: a user's file,
/// link or folder of the same name is never removed.
fn check_replaceable(path: &Path) -> Result<()> {
    ensure!(
        fs::symlink_metadata(path).is_err() || holds_only_report_files(path),
        "{} is not a report pqlab wrote (a file, a link, or a folder holding other files): \
         pqlab never replaces it; move it away, or give another --results folder",
        path.display()
    );
    Ok(())
}

/// The README section the example answer of `pick --frontier 2k` fills.
pub const PICK_EXAMPLE: &str = "pick-example";

/// The verdict line `pqlab pick --frontier 2k` gives on `rows`, as a text block; where the
/// run cannot answer it (a quick run reaches no such frontier), why, in its place.
fn pick_example(rows: &[Row]) -> Result<String> {
    let query = crate::pick::Query::unflagged();
    Ok(match crate::pick::for_size(rows, &query, 2000.0, Vec::new()) {
        Ok(answer) => format!("```text\n{}\n```\n\n", answer.verdict),
        Err(why) => {
            format!("(`pqlab pick --frontier 2k` has no answer from this run: {why:#}.)\n\n")
        }
    })
}

/// Flushes every file of a folder to disk before it is swapped in.
fn sync_folder(dir: &Path) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = entry.with_context(|| format!("listing {}", dir.display()))?.path();
        fs::File::open(&path)
            .and_then(|file| file.sync_all())
            .with_context(|| format!("syncing {}", path.display()))?;
    }
    Ok(())
}

/// Makes `staging` the folder `target` in one atomic step, and removes the old one.
fn swap_in(staging: &Path, target: &Path) -> Result<()> {
    if fs::symlink_metadata(target).is_err() {
        return fs::rename(staging, target)
            .with_context(|| format!("renaming {} to {}", staging.display(), target.display()));
    }
    exchange(staging, target)?;
    // `staging` now holds the previous report.
    fs::remove_dir_all(staging)
        .with_context(|| format!("removing the previous report, {}", staging.display()))
}

/// Exchanges two paths atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let (ca, cb) =
        (CString::new(a.as_os_str().as_bytes())?, CString::new(b.as_os_str().as_bytes())?);
    // SAFETY: both pointers are valid NUL-terminated paths that outlive the call;
    // AT_FDCWD makes them relative to the working directory; the call only renames.
    let status = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    ensure!(
        status == 0,
        "exchanging {} and {}: {}",
        a.display(),
        b.display(),
        std::io::Error::last_os_error()
    );
    Ok(())
}

/// Exchanges two paths with two renames (not atomic: where `renameat2` is missing).
#[cfg(not(target_os = "linux"))]
fn exchange(a: &Path, b: &Path) -> Result<()> {
    let aside = b.with_extension("previous");
    fs::rename(b, &aside)?;
    fs::rename(a, b)?;
    fs::rename(&aside, a)?;
    Ok(())
}

/// The README section the report's summary fills.
pub const SUMMARY: &str = "summary";

/// The section of the queue crate's README the lab's answer fills: each band's fastest queue
/// as the Rust type to adopt.
pub const ANSWER: &str = "answer";

/// Replaces the text between the markers `<!-- pqlab:SECTION:start -->` and
/// `<!-- pqlab:SECTION:end -->` in `readme` with `text`, atomically; returns whether it did.
/// A file without both markers (no such README, or the results folder is not the
/// repository's) is left alone.
pub fn update_between_markers(readme: &Path, section: &str, text: &str) -> Result<bool> {
    let (open, close) =
        (format!("<!-- pqlab:{section}:start -->"), format!("<!-- pqlab:{section}:end -->"));
    let Ok(old) = fs::read_to_string(readme) else { return Ok(false) };
    let (Some(start), Some(end)) = (old.find(&open), old.find(&close)) else {
        return Ok(false);
    };
    ensure!(start < end, "{}: the {section} end marker comes before its start", readme.display());
    let updated = format!("{}{open}\n\n{text}{}", &old[..start], &old[end..]);
    write_atomic(readme, updated.as_bytes())?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report's staging folder left by a process that is gone is removed in a results
    /// folder, and only there; a `.staging-N` holding a user's files is left alone, said so.
    #[test]
    fn tidy_removes_only_the_staging_a_report_left() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let thesis = dir.join(".staging-99999998").join("sub").join("thesis.tex");
        fs::create_dir_all(thesis.parent().unwrap()).unwrap();
        fs::write(&thesis, "x").unwrap();
        // No process has these ids (Linux ids stay below 2^22).
        let staging = dir.join(".staging-99999997");
        fs::create_dir_all(&staging).unwrap();
        fs::write(staging.join("README.md"), "half").unwrap();
        assert!(tidy(dir).unwrap().is_empty(), "tidied a folder that holds no run");
        assert!(staging.exists() && thesis.exists());
        files::mark(dir).unwrap();
        let done = tidy(dir).unwrap();
        assert!(!staging.exists(), "{done:?}");
        assert!(thesis.exists(), "{done:?}");
        assert!(done.iter().any(|d| d.contains("left") && d.contains(".staging-99999998")));
    }
}
