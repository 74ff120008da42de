//! Run files on disk: written atomically, found by what they hold, checked when read.
//!
//! - Each run writes `runs/<run-id>.csv`, a new file, never an overwrite.
//! - [`write_atomic`] writes a temporary file beside the target (`.NAME.PID.tmp`), syncs
//!   it and renames it over the target, so a reader never sees half a file. A process
//!   killed mid-write leaves its temporary file behind: [`tidy`] (run by `cargo bench`,
//!   `pqlab report` and `pqlab pick`) recovers a complete run CSV from it, or removes it,
//!   and says which.
//! - The latest run is the one with the largest run id among the files whose rows are a
//!   run (schema 1 to 3), not the last file name: a stray `notes.csv` or `zz-backup.csv`
//!   is skipped with a note.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, ensure, Context, Result};

use super::{v1, Kind, Row, Status, SCHEMA_VERSION};

/// Writes `contents` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = path.file_name().context("a file name")?.to_string_lossy();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut file =
        fs::File::create(&temp).with_context(|| format!("creating {}", temp.display()))?;
    file.write_all(contents).with_context(|| format!("writing {}", temp.display()))?;
    file.sync_all().with_context(|| format!("syncing {}", temp.display()))?;
    fs::rename(&temp, path)
        .with_context(|| format!("renaming {} to {}", temp.display(), path.display()))
}

/// The CSV text of `rows`.
pub fn to_csv(rows: &[Row]) -> Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    Ok(writer.into_inner()?)
}

/// Writes a run as `dir/runs/<run>.csv`, refusing to overwrite an existing file.
pub fn save_run(dir: &Path, run: &str, rows: &[Row]) -> Result<PathBuf> {
    let path = dir.join("runs").join(format!("{run}.csv"));
    ensure!(!path.exists(), "{} exists already: a run id is never reused", path.display());
    write_atomic(&path, &to_csv(rows)?)?;
    Ok(path)
}

/// A file under `runs/` that holds a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFile {
    /// The file.
    pub path: PathBuf,
    /// Its run id (from its rows, not its name).
    pub run: String,
    /// Its schema version.
    pub schema: u32,
}

/// Reads one run file (schema 3 or 2, or 1 through the registry), checking every row: a row
/// that is not a run's, or holds an impossible figure, is an error naming the file and
/// its line.
pub fn load_run(path: &Path) -> Result<Vec<Row>> {
    let shown = path.display();
    let (headers, records) = read_records(path)?;
    let schema =
        schema_of(&headers, &records).with_context(|| format!("{shown}: not a pqlab run"))?;
    let mut rows = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        // Line 1 is the header.
        let line = i + 2;
        let row = match schema {
            2 | SCHEMA_VERSION => record.deserialize::<Row>(Some(&headers)),
            _ => record.deserialize::<v1::RowV1>(Some(&headers)).map(v1::RowV1::into_row),
        }
        .with_context(|| format!("{shown}:{line}: not a schema {schema} row"))?;
        check(&row).with_context(|| format!("{shown}:{line}"))?;
        rows.push(row);
    }
    Ok(rows)
}

/// A CSV file's header and records.
fn read_records(path: &Path) -> Result<(csv::StringRecord, Vec<csv::StringRecord>)> {
    let shown = path.display();
    let mut reader = csv::Reader::from_path(path).with_context(|| format!("reading {shown}"))?;
    let headers = reader.headers().with_context(|| format!("{shown}:1"))?.clone();
    let records = reader
        .records()
        .enumerate()
        .map(|(i, r)| r.with_context(|| format!("{shown}:{}", i + 2)))
        .collect::<Result<Vec<_>>>()?;
    Ok((headers, records))
}

/// The schema version a run file declares (its first row's `schema`), if this pqlab reads
/// it (1, 2 or [`SCHEMA_VERSION`]).
fn schema_of(headers: &csv::StringRecord, records: &[csv::StringRecord]) -> Result<u32> {
    let column = |name: &str| headers.iter().position(|h| h == name);
    let (Some(schema), Some(_)) = (column("schema"), column("run")) else {
        bail!("no `schema` and `run` columns");
    };
    let first = records.first().context("no rows")?;
    match first.get(schema).and_then(|s| s.parse::<u32>().ok()) {
        Some(version @ (1 | 2 | SCHEMA_VERSION)) => Ok(version),
        Some(version) => bail!("schema {version}: this pqlab reads schemas 1 to {SCHEMA_VERSION}"),
        None => bail!("the `schema` column does not hold a version"),
    }
}

/// Rejects the figures no measurement can give.
fn check(row: &Row) -> Result<()> {
    if row.status != Status::Ok {
        return Ok(());
    }
    let time = |name: &str, ns: f64| {
        ensure!(ns.is_finite() && ns > 0.0, "{name} is {ns}: a measured time must be positive");
        Ok(())
    };
    time("median_ns", row.median_ns)?;
    time("p25_ns", row.p25_ns)?;
    time("p75_ns", row.p75_ns)?;
    ensure!(
        row.p25_ns <= row.median_ns * (1.0 + 1e-9) && row.median_ns <= row.p75_ns * (1.0 + 1e-9),
        "p25_ns {} <= median_ns {} <= p75_ns {} does not hold",
        row.p25_ns,
        row.median_ns,
        row.p75_ns
    );
    ensure!(row.samples > 0, "a measured row with 0 samples");
    if matches!(row.kind, Kind::Astar | Kind::Replay | Kind::Synthetic) {
        ensure!(
            row.max_open.is_finite() && row.max_open > 0.0,
            "max_open is {}: a measured frontier size must be positive",
            row.max_open
        );
    }
    Ok(())
}

/// The runs under `dir/runs`, sorted by run id, and a note for each file skipped there.
pub fn runs(dir: &Path) -> Result<(Vec<RunFile>, Vec<String>)> {
    let folder = dir.join("runs");
    let (mut found, mut notes) = (Vec::new(), Vec::new());
    if !folder.exists() {
        return Ok((found, notes));
    }
    let entries = fs::read_dir(&folder).with_context(|| format!("listing {}", folder.display()))?;
    for entry in entries {
        let path = entry.with_context(|| format!("listing {}", folder.display()))?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.starts_with('.') || path.extension().map_or(true, |e| e != "csv") {
            continue;
        }
        match identify(&path) {
            Ok(file) => found.push(file),
            Err(error) => {
                notes.push(format!("skipped {}: not a pqlab run ({error:#})", path.display()))
            }
        }
    }
    found.sort_by(|a, b| a.run.cmp(&b.run).then_with(|| a.path.cmp(&b.path)));
    Ok((found, notes))
}

/// The run id and schema of a run file, from its first row.
fn identify(path: &Path) -> Result<RunFile> {
    let (headers, records) = read_records(path)?;
    let schema = schema_of(&headers, &records)?;
    let run = headers.iter().position(|h| h == "run").context("no `run` column")?;
    let run = records[0].get(run).filter(|r| !r.is_empty()).context("an empty run id")?.to_owned();
    Ok(RunFile { path: path.to_path_buf(), run, schema })
}

/// The run to answer from: `chosen` when given, else the latest under `dir`; `None` when
/// there is none. Notes about skipped files are printed to stderr.
pub fn latest_or(dir: &Path, chosen: Option<&Path>) -> Result<Option<(PathBuf, Vec<Row>)>> {
    if let Some(path) = chosen {
        ensure!(path.is_file(), "{}: no such run file", path.display());
        return Ok(Some((path.to_path_buf(), load_run(path)?)));
    }
    let (found, notes) = runs(dir)?;
    for note in notes {
        eprintln!("pqlab: {note}");
    }
    match found.last() {
        Some(file) => Ok(Some((file.path.clone(), load_run(&file.path)?))),
        None => Ok(None),
    }
}

/// Cleans up after interrupted processes under `dir`: temporary files (`.NAME.PID.tmp`)
/// and report staging folders (`.staging-PID`) whose process is gone. A temporary run CSV
/// that holds a complete run whose file does not exist is recovered under its name;
/// everything else is removed. Returns one line per file, to be shown.
pub fn tidy(dir: &Path) -> Result<Vec<String>> {
    let mut done = Vec::new();
    for folder in [dir.to_path_buf(), dir.join("runs"), dir.join("report")] {
        let Ok(entries) = fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = leftover_pid(&name) else { continue };
            if process_alive(pid) {
                continue;
            }
            let target = name
                .strip_prefix('.')
                .and_then(|n| n.strip_suffix(".tmp"))
                .and_then(|n| n.rsplit_once('.'))
                .map(|(target, _)| folder.join(target));
            let recoverable = folder.ends_with("runs")
                && target.as_ref().is_some_and(|t| !t.exists())
                && load_run(&path).is_ok();
            if let (true, Some(target)) = (recoverable, target) {
                fs::rename(&path, &target)
                    .with_context(|| format!("recovering {}", path.display()))?;
                done.push(format!(
                    "recovered {} from the interrupted write {}",
                    target.display(),
                    path.display()
                ));
            } else if path.is_dir() {
                fs::remove_dir_all(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
                done.push(format!("removed {}, left by an interrupted report", path.display()));
            } else {
                fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
                done.push(format!("removed {}, left by an interrupted write", path.display()));
            }
        }
    }
    Ok(done)
}

/// The process id in a leftover's name: `.NAME.PID.tmp` or `.staging-PID`.
fn leftover_pid(name: &str) -> Option<u32> {
    if let Some(pid) = name.strip_prefix(".staging-") {
        return pid.parse().ok();
    }
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    inner.rsplit_once('.')?.1.parse().ok()
}

/// Whether process `pid` still runs (Linux: `/proc/PID` exists); elsewhere, only this one.
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftovers_are_recognised_by_name() {
        assert_eq!(leftover_pid(".2026-01-01T00-00-00Z.csv.4242.tmp"), Some(4242));
        assert_eq!(leftover_pid(".staging-17"), Some(17));
        assert_eq!(leftover_pid("2026-01-01T00-00-00Z.csv"), None);
        assert_eq!(leftover_pid(".hidden"), None);
    }
}
