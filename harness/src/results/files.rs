//! Run files on disk: saved as the run goes, never overwritten, checked when read.
//!
//! - A run reserves `runs/<run-id>.partial.csv` before it measures anything (created, so
//!   two runs can never share an id: the second takes the next second's id), and rewrites
//!   it atomically with every row so far as each workload ends ([`Journal`]). A run that
//!   is killed, or whose filter chose only some workloads, stays there as a *partial run*.
//!   A finished run renames the file to `runs/<run-id>.csv` without replacing anything
//!   (a hard link, then the partial name removed).
//! - Partial is said by the file's name, not by its rows: the rows of a partial run are
//!   the same schema 3 rows, so every run file written before (schemas 1 to 3) reads as it
//!   did, and a partial run turns complete by the one rename that also proves it whole.
//!   `report`, `pick` and `diff` read a partial run only when it is named, and say so.
//! - [`write_atomic`] writes a temporary file beside the target (`.NAME.PID.tmp`), syncs it
//!   and renames it over the target, so a reader never sees half a file. A process killed
//!   mid-write leaves its temporary file behind: [`tidy`] (run by `cargo bench`, `pqlab
//!   report` and `pqlab pick`) removes it and says so, in a folder proven to be a results
//!   folder (pqlab's [`MARKER`] or a run in it) and by the names pqlab writes only. A
//!   temporary file is never recovered as a run: nothing proves it whole, and the partial
//!   run holds every workload that ended.
//! - A file under `runs/` is read only when it is a regular file (a FIFO would hang the
//!   reader, a link to `/dev/zero` exhaust its memory), and from its header first. A
//!   `.csv` there that is not a regular file (a dangling link too) or has no `schema` and
//!   `run` columns (a stray `notes.csv`) is skipped with a note; one that has them is a
//!   run, and any defect in it is an error naming the file and line, never a fallback to
//!   an older run.
//! - The latest run is the one with the largest run id among the complete runs.

use std::collections::HashMap;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, ensure, Context, Result};
use pqlab_queues::registry;

use super::{location, v1, Kind, Row, Status, SCHEMA_VERSION};
use crate::search::peers;
use crate::search::registry::LoopEntry;

/// How a partial run's file name ends.
pub const PARTIAL: &str = ".partial.csv";

/// Whether `path` names a partial run (`<run-id>.partial.csv`).
pub fn is_partial(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().ends_with(PARTIAL))
}

/// Writes `contents` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = path.file_name().context("a file name")?.to_string_lossy();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut file = create_exclusive(&temp)?;
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

/// A run being measured: its reserved partial file under `runs/`, rewritten as each
/// workload ends, and the folder's lock while it measures.
#[derive(Debug)]
pub struct Journal {
    /// The run id reserved.
    run: String,
    /// `runs/<run>.partial.csv`.
    partial: PathBuf,
    /// Held (locked) while the run measures; `None` where there is no lock.
    _lock: Option<fs::File>,
}

/// How many ids a run tries (one a second) before it gives up reserving one.
const RESERVE_TRIES: usize = 5;

impl Journal {
    /// Reserves a run id under `dir/runs/` before anything is measured: `id()` gives the id
    /// for the current second, and an id whose partial or complete file exists is never
    /// taken (the file is created, not opened), so the next second's is tried. Fails, with
    /// the folder named, when the folder cannot be written (read-only, full, or a file).
    /// Returns the journal and a note when another run is measuring into the same folder.
    pub fn reserve(
        dir: &Path,
        mut id: impl FnMut() -> String,
    ) -> Result<(Journal, Option<String>)> {
        let runs = dir.join("runs");
        fs::create_dir_all(&runs)
            .with_context(|| format!("the results folder {}: cannot create", runs.display()))?;
        probe(&runs)?;
        mark(dir)?;
        let lock = lock_folder(dir)?;
        for _ in 0..RESERVE_TRIES {
            let run = id();
            let partial = runs.join(format!("{run}{PARTIAL}"));
            let complete = runs.join(format!("{run}.csv"));
            if !complete.exists() {
                match fs::OpenOptions::new().write(true).create_new(true).open(&partial) {
                    Ok(_) => {
                        let note = lock.is_none().then(|| {
                            format!(
                                "another run is measuring into {} now: both share this machine's \
                                 cores, so both runs' times are slower and noisier than alone",
                                dir.display()
                            )
                        });
                        return Ok((Journal { run, partial, _lock: lock.flatten() }, note));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                    Err(e) => bail!("{}: cannot create ({e})", partial.display()),
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(1000));
        }
        bail!("{}: no free run id in {RESERVE_TRIES} seconds", runs.display())
    }

    /// The run id reserved.
    pub fn run(&self) -> &str {
        &self.run
    }

    /// The partial run's file.
    pub fn partial(&self) -> &Path {
        &self.partial
    }

    /// Saves every row so far as the partial run (an atomic rewrite, synced).
    pub fn save(&self, rows: &[Row]) -> Result<()> {
        write_atomic(&self.partial, &to_csv(rows)?)
    }

    /// Saves `rows` and, when the run is `complete`, renames the partial run to
    /// `runs/<run>.csv` without replacing any file; returns the run's file.
    pub fn finish(self, rows: &[Row], complete: bool) -> Result<PathBuf> {
        self.save(rows)?;
        if !complete {
            return Ok(self.partial);
        }
        let path = self.partial.with_file_name(format!("{}.csv", self.run));
        fs::hard_link(&self.partial, &path).with_context(|| {
            format!("renaming {} to {} (never over a file)", self.partial.display(), path.display())
        })?;
        fs::remove_file(&self.partial)
            .with_context(|| format!("removing {}", self.partial.display()))?;
        Ok(path)
    }
}

/// Writes, syncs and removes a small file in `dir`: a folder that is read-only or full
/// fails here, before anything is measured, rather than after.
fn probe(dir: &Path) -> Result<()> {
    let path = dir.join(format!(".probe.{}.tmp", std::process::id()));
    let written = create_exclusive(&path).and_then(|mut file| {
        let written = file.write_all(&[b'\n'; 1 << 16]).and_then(|()| file.sync_all());
        let _ = fs::remove_file(&path);
        Ok(written?)
    });
    written.with_context(|| format!("the results folder {} cannot be written", dir.display()))
}

/// Creates the temporary file `path` for writing, exclusively (`O_EXCL`): whatever holds
/// the name (a file a killed process with this id left, or a link planted there) is
/// removed first, never written through, and a link planted between the two steps makes
/// the creation fail rather than be followed.
fn create_exclusive(path: &Path) -> Result<fs::File> {
    let _ = fs::remove_file(path);
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))
}

/// Takes the folder's lock (`dir/.lab.lock`, `flock`): `Some(Some(file))` while held,
/// `None` when another process holds it, `Some(None)` where locks do not exist.
fn lock_folder(dir: &Path) -> Result<Option<Option<fs::File>>> {
    let path = dir.join(".lab.lock");
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("{}: cannot create", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: `file` is open for the whole call, so its descriptor is valid; `flock`
        // reads no memory of ours.
        let status = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        Ok((status == 0).then_some(Some(file)))
    }
    #[cfg(not(unix))]
    Ok(Some(None))
}

/// Writes `rows` somewhere that works after the results folder failed with `error`: the
/// system's temporary folder, else the working directory. Returns where, or an error
/// naming every place tried.
pub fn rescue(run: &str, rows: &[Row], error: &anyhow::Error) -> Result<PathBuf> {
    let csv = to_csv(rows)?;
    let mut tried = vec![format!("the results folder ({error:#})")];
    for dir in [std::env::temp_dir(), PathBuf::from(".")] {
        let path = dir.join(format!("pqlab-{run}.csv"));
        let written = (|| {
            let mut file = fs::OpenOptions::new().write(true).create_new(true).open(&path)?;
            file.write_all(&csv)?;
            file.sync_all()
        })();
        match written {
            Ok(()) => return Ok(path),
            Err(e) => tried.push(format!("{} ({e})", path.display())),
        }
    }
    bail!("the run's {} rows could not be saved anywhere: {}", rows.len(), tried.join("; "))
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

/// Reads one run file (schema 4, 3 or 2, or 1 through the registry), checking every row: a row
/// that is not this run's, or holds an impossible figure, is an error naming the file and
/// its line. Across rows: one run id, one schema, and no row measured twice. The header is
/// checked before any row is read, and the rows are streamed: memory holds the rows, not
/// the file's text.
pub fn load_run(path: &Path) -> Result<Vec<Row>> {
    let shown = path.display();
    let (mut reader, headers) = open_csv(path)?;
    ensure!(looks_like_run(&headers), "{shown}: not a pqlab run (no `schema` and `run` columns)");
    let column = headers.iter().position(|h| h == "schema").expect("checked by looks_like_run");
    let mut rows = Vec::new();
    let mut schema = None;
    let mut record = csv::StringRecord::new();
    // Line 1 is the header.
    for line in 2.. {
        if !reader.read_record(&mut record).with_context(|| format!("{shown}:{line}"))? {
            break;
        }
        let schema = match schema {
            Some(schema) => schema,
            None => *schema.insert(
                schema_of(&record, column).with_context(|| format!("{shown}: not a pqlab run"))?,
            ),
        };
        ensure!(
            record.get(column) == Some(schema.to_string().as_str()),
            "{shown}:{line}: schema `{}` where the file's first row says {schema}: one file, one schema",
            record.get(column).unwrap_or_default()
        );
        let mut row = match schema {
            2..=SCHEMA_VERSION => record.deserialize::<Row>(Some(&headers)),
            _ => record.deserialize::<v1::RowV1>(Some(&headers)).map(v1::RowV1::into_row),
        }
        .with_context(|| format!("{shown}:{line}: not a schema {schema} row"))?;
        if schema < 4 {
            row.assume_grid_astar();
        }
        check(&row, schema).with_context(|| format!("{shown}:{line}"))?;
        rows.push(row);
    }
    ensure!(!rows.is_empty(), "{shown}: not a pqlab run: no rows");
    // Its errors begin with the line: `FILE:LINE: ...`.
    check_rows(&rows).map_err(|e| anyhow::anyhow!("{shown}:{e:#}"))?;
    Ok(rows)
}

/// What must hold across a run's rows: one run id; no row measured twice (the same kind,
/// workload, queue and rounds' group; sentinels repeat by design). An error names the line.
fn check_rows(rows: &[Row]) -> Result<()> {
    let line = |i: usize| i + 2;
    let mut seen: HashMap<(Kind, &str, &str, u32), usize> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        ensure!(
            row.run == rows[0].run,
            "{}: run `{}` in a file of run `{}`: one file, one run",
            line(i),
            row.run,
            rows[0].run
        );
        if row.kind == Kind::Sentinel {
            continue;
        }
        let key = (row.kind, row.workload.as_str(), row.queue.as_str(), row.group);
        if let Some(first) = seen.insert(key, i) {
            bail!(
                "{}: `{}` on `{}` ({}, group {}) again, after line {}: a row is measured once",
                line(i),
                row.queue,
                row.workload,
                row.kind.name(),
                row.group,
                line(first)
            );
        }
    }
    Ok(())
}

/// How a compressed run's file name ends: committed runs are kept gzipped, and read as
/// they are.
pub const COMPRESSED: &str = ".csv.gz";

/// Whether `path` names a run file: `<run-id>.csv`, or gzipped, `<run-id>.csv.gz`.
pub fn is_run_file(path: &Path) -> bool {
    path.file_name().is_some_and(|n| {
        let name = n.to_string_lossy();
        !name.starts_with('.') && (name.ends_with(".csv") || name.ends_with(COMPRESSED))
    })
}

/// A CSV reader over the regular file `path` ([`open_regular`]), of its first `limit`
/// bytes when given, gunzipped when its name ends with [`COMPRESSED`].
fn csv_reader(path: &Path, limit: Option<u64>) -> Result<csv::Reader<Box<dyn Read>>> {
    let file = open_regular(path)?;
    let raw: Box<dyn Read> = match limit {
        Some(bytes) => Box::new(file.take(bytes)),
        None => Box::new(file),
    };
    let input: Box<dyn Read> = if path.to_string_lossy().ends_with(COMPRESSED) {
        Box::new(flate2::read::GzDecoder::new(std::io::BufReader::new(raw)))
    } else {
        raw
    };
    Ok(csv::Reader::from_reader(input))
}

/// Opens `path` for reading if it is a regular file, and refuses anything else at once: a
/// FIFO is opened without waiting for a writer (`O_NONBLOCK`) and the file checked once
/// open, so no reader ever hangs on a FIFO or drains a device (`/dev/zero`) or a link to
/// one. Run files and `pick --trace`'s traces are opened here.
pub fn open_regular(path: &Path) -> Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let shown = path.display();
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("reading {shown}"))?;
    let meta = file.metadata().with_context(|| format!("reading {shown}"))?;
    ensure!(meta.is_file(), "{shown}: not a regular file");
    Ok(file)
}

/// A CSV file's reader, past its header, and the header; only a regular file is opened.
fn open_csv(path: &Path) -> Result<(csv::Reader<Box<dyn std::io::Read>>, csv::StringRecord)> {
    let shown = path.display();
    let mut reader = csv_reader(path, None)?;
    let headers = reader.headers().with_context(|| format!("{shown}:1"))?.clone();
    Ok((reader, headers))
}

/// The schema version a run's first row declares in its `schema` column, if this pqlab
/// reads it (1 to [`SCHEMA_VERSION`]).
fn schema_of(first: &csv::StringRecord, column: usize) -> Result<u32> {
    match first.get(column).and_then(|s| s.parse::<u32>().ok()) {
        Some(version @ 1..=SCHEMA_VERSION) => Ok(version),
        Some(version) => bail!("schema {version}: this pqlab reads schemas 1 to {SCHEMA_VERSION}"),
        None => bail!("the `schema` column does not hold a version"),
    }
}

/// Whether a CSV header is a run's: it has `schema` and `run` columns.
fn looks_like_run(headers: &csv::StringRecord) -> bool {
    ["schema", "run"].iter().all(|name| headers.iter().any(|h| h == *name))
}

/// The most bytes of a `.csv` file under `runs/` read to tell whether it is a run: a run's
/// header and first row take under 2 KiB, so a file whose first line is longer is no run,
/// and is skipped without being read whole.
const PEEK_BYTES: u64 = 64 << 10;

/// A `.csv` file under `runs/` read as far as its first row: `Ok(None)` when it is not a
/// run (not a regular file, or a header without `schema` and `run` columns), with the
/// reason; a run's id and schema from its first row, whose defects are errors naming the
/// file and line.
fn peek(path: &Path) -> Result<std::result::Result<RunFile, String>> {
    let shown = path.display();
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            ensure!(meta.len() > 0, "{shown}: an empty run file (remove it, or name a run with --run): no run is read past it");
        }
        Ok(_) => return Ok(Err("not a regular file".into())),
        Err(e) => return Ok(Err(format!("cannot be read ({e})"))),
    }
    let mut reader = csv_reader(path, Some(PEEK_BYTES))?;
    let headers = match reader.headers() {
        Ok(headers) if looks_like_run(headers) => headers.clone(),
        Ok(_) => return Ok(Err("not a pqlab run (no `schema` and `run` columns)".into())),
        Err(e) => {
            return Ok(Err(format!("not a pqlab run (its first line is not a CSV header: {e})")))
        }
    };
    let mut first = csv::StringRecord::new();
    ensure!(
        reader.read_record(&mut first).with_context(|| format!("{shown}:2"))?,
        "{shown}: not a pqlab run: no rows"
    );
    let column = |name: &str| headers.iter().position(|h| h == name).expect("looks_like_run");
    let schema = schema_of(&first, column("schema")).with_context(|| format!("{shown}:2"))?;
    let run = first.get(column("run")).unwrap_or_default().to_owned();
    Ok(Ok(RunFile { path: path.to_path_buf(), run, schema }))
}

/// Rejects the figures no measurement can give, and queues pqlab does not know.
fn check(row: &Row, schema: u32) -> Result<()> {
    let known = match row.kind {
        Kind::Peer => peers::ids().contains(&row.queue.as_str()),
        Kind::Loop => LoopEntry::find(&row.queue).is_some(),
        Kind::Oracle => row.queue == super::ORACLE,
        _ => registry::find(&row.queue).is_some(),
    };
    ensure!(known, "`{}` is not a {} queue this pqlab knows", row.queue, row.kind.name());
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
    // Searches whose every goal was known unreachable before they began (another component)
    // open, push and expand nothing.
    let answered_at_once =
        row.kind == Kind::Astar && (row.expansions, row.pushes, row.max_open) == (0.0, 0.0, 0.0);
    if answered_at_once {
        return Ok(());
    }
    if matches!(row.kind, Kind::Astar | Kind::Replay | Kind::Synthetic) {
        ensure!(
            row.max_open.is_finite() && row.max_open > 0.0,
            "max_open is {}: a measured frontier size must be positive",
            row.max_open
        );
    }
    // Schema 1 kept no counters for replays and peers.
    if schema >= 2 && row.kind != Kind::Synthetic {
        ensure!(
            row.expansions.is_finite() && row.expansions > 0.0,
            "expansions is {}: a measured search expands at least its start",
            row.expansions
        );
    }
    Ok(())
}

/// The complete runs under `dir/runs`, sorted by run id, and a note for each file skipped
/// there (partial runs, and `.csv` files that are not runs: not regular files, dangling
/// links, other CSVs). Each file is read up to its first row only; a run whose first row
/// is damaged is an error, and the rest of a run is checked when it is loaded.
pub fn runs(dir: &Path) -> Result<(Vec<RunFile>, Vec<String>)> {
    let folder = dir.join("runs");
    let (mut found, mut notes) = (Vec::new(), Vec::new());
    if !folder.exists() {
        return Ok((found, notes));
    }
    let entries = fs::read_dir(&folder).with_context(|| format!("listing {}", folder.display()))?;
    for entry in entries {
        let path = entry.with_context(|| format!("listing {}", folder.display()))?.path();
        if !is_run_file(&path) {
            continue;
        }
        if is_partial(&path) {
            notes.push(format!(
                "skipped {}: a partial run (name it with --run to use it)",
                path.display()
            ));
            continue;
        }
        match peek(&path)? {
            Ok(file) => found.push(file),
            Err(why) => notes.push(format!("skipped {}: {why}", path.display())),
        }
    }
    found.sort_by(|a, b| a.run.cmp(&b.run).then_with(|| a.path.cmp(&b.path)));
    Ok((found, notes))
}

/// The results folder to answer from by default: the checkout's `results/local/` when it
/// holds a complete run, else its committed `results/`.
pub fn default_results() -> Result<PathBuf> {
    let committed = location::checkout()?.join("results");
    let local = committed.join(location::LOCAL);
    let (found, _) = runs(&local)?;
    Ok(if found.is_empty() { committed } else { local })
}

/// The run to answer from: `chosen` when given, else the latest complete run under `dir`;
/// `None` when there is none. Notes about skipped files, and about a partial run named,
/// are printed to stderr.
pub fn latest_or(dir: &Path, chosen: Option<&Path>) -> Result<Option<(PathBuf, Vec<Row>)>> {
    if let Some(path) = chosen {
        ensure!(path.exists(), "{}: no such run file", path.display());
        let rows = load_run(path)?;
        if is_partial(path) {
            eprintln!("pqlab: {}", partial_note(path, &rows));
        }
        return Ok(Some((path.to_path_buf(), rows)));
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

/// What to say of a partial run's answer.
pub fn partial_note(path: &Path, rows: &[Row]) -> String {
    let mut workloads: Vec<(Kind, &str)> =
        rows.iter().filter(|r| r.kind != Kind::Sentinel).map(|r| (r.kind, &*r.workload)).collect();
    workloads.sort();
    workloads.dedup();
    format!(
        "{} is a partial run (interrupted, or filtered): {} workloads, {} rows; an answer from it \
         covers only those",
        path.display(),
        workloads.len(),
        rows.len()
    )
}

/// The marker file pqlab writes into a results folder it measures or reports into.
pub const MARKER: &str = ".pqlab";

/// Marks `dir` as a results folder pqlab writes into (see [`tidy`]).
pub fn mark(dir: &Path) -> Result<()> {
    let marker = dir.join(MARKER);
    if fs::symlink_metadata(&marker).is_err() {
        fs::write(&marker, "A pqlab results folder: pqlab tidies its own leftovers here.\n")
            .with_context(|| format!("writing {}", marker.display()))?;
    }
    Ok(())
}

/// Whether `dir` is provably a pqlab results folder: it holds pqlab's [`MARKER`], or a
/// run under `runs/` (a `.csv` whose header has `schema` and `run` columns).
pub fn is_results_folder(dir: &Path) -> bool {
    if dir.join(MARKER).is_file() {
        return true;
    }
    let Ok(entries) = fs::read_dir(dir.join("runs")) else { return false };
    entries.flatten().any(|entry| {
        let path = entry.path();
        is_run_file(&path) && !is_partial(&path) && matches!(peek(&path), Ok(Ok(_)))
    })
}

/// Cleans up after interrupted processes, touching only what pqlab provably made: nothing
/// at all unless `dir` is a results folder ([`is_results_folder`]); there, run files'
/// temporary files (`runs/.NAME.csv.PID.tmp`) and the README's at the root of the
/// repository whose results folder `dir` is (`.README.md.PID.tmp`), each of a process that
/// is gone; and a partial run that is the same file as its complete run (a kill between
/// the two steps of [`Journal::finish`]). A report's staging folders are the report's to
/// tidy (`report::tidy`), which knows the files it writes. Returns one line per file, to
/// be shown.
pub fn tidy(dir: &Path) -> Result<Vec<String>> {
    let mut done = Vec::new();
    if !is_results_folder(dir) {
        return Ok(done);
    }
    let runs = dir.join("runs");
    let target = |name: &str| temp_parts(name).map(|(target, _)| target.to_owned());
    let mut files =
        leftovers(&runs, |name| target(name).is_some_and(|t| t.ends_with(".csv") || t == "probe"));
    if let Some(repository) = location::repository_of(dir) {
        files.extend(leftovers(&repository, |name| target(name).as_deref() == Some("README.md")));
    }
    for (path, pid) in files {
        if !process_alive(pid) && fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            remove(&path)?;
            done.push(format!("removed {}, left by an interrupted write", path.display()));
        }
    }
    for entry in fs::read_dir(&runs).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(run) = name.strip_suffix(PARTIAL) else { continue };
        let complete = runs.join(format!("{run}.csv"));
        if same_file(&path, &complete) {
            remove(&path)?;
            done.push(format!("removed {}, a copy of {run}.csv", path.display()));
        }
    }
    Ok(done)
}

/// The entries of `folder` whose name `ours` accepts and carries a process id (a
/// leftover's name), with that id.
pub fn leftovers(folder: &Path, ours: impl Fn(&str) -> bool) -> Vec<(PathBuf, u32)> {
    let Ok(entries) = fs::read_dir(folder) else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let pid = leftover_pid(&name)?;
            ours(&name).then(|| (entry.path(), pid))
        })
        .collect()
}

/// Whether two paths are one file (hard links of each other; Unix), never a symlink.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::symlink_metadata(a), fs::symlink_metadata(b)) {
            (Ok(a), Ok(b)) => a.is_file() && a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// Removes a file; one already gone is no error.
fn remove(path: &Path) -> Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// A temporary file's name, `.NAME.PID.tmp`, split into the file it stands for and the
/// process id.
fn temp_parts(name: &str) -> Option<(&str, u32)> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (target, pid) = inner.rsplit_once('.')?;
    Some((target, pid.parse().ok()?))
}

/// The process id in a leftover's name: `.NAME.PID.tmp` or `.staging-PID`.
fn leftover_pid(name: &str) -> Option<u32> {
    match name.strip_prefix(".staging-") {
        Some(pid) => pid.parse().ok(),
        None => temp_parts(name).map(|(_, pid)| pid),
    }
}

/// Whether process `pid` still runs (Linux: `/proc/PID` exists); elsewhere, only this one.
pub fn process_alive(pid: u32) -> bool {
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
    use crate::lab::rows::WorkloadFacts;
    use crate::results::{Provenance, Unit};

    /// A fresh folder with an empty `runs/`, removed when dropped.
    fn folder() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("runs")).unwrap();
        dir
    }

    #[test]
    fn temporary_files_are_never_written_through_a_planted_link() {
        let dir = folder();
        let runs = dir.path().join("runs");
        let target = dir.path().join("precious.txt");
        fs::write(&target, "keep me").unwrap();
        let pid = std::process::id();
        let probe_link = runs.join(format!(".probe.{pid}.tmp"));
        std::os::unix::fs::symlink(&target, &probe_link).unwrap();
        probe(&runs).unwrap();
        let temp_link = runs.join(format!(".notes.txt.{pid}.tmp"));
        std::os::unix::fs::symlink(&target, &temp_link).unwrap();
        write_atomic(&runs.join("notes.txt"), b"written").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
        assert_eq!(fs::read_to_string(runs.join("notes.txt")).unwrap(), "written");
        assert!(
            fs::symlink_metadata(&probe_link).is_err() && fs::symlink_metadata(&temp_link).is_err()
        );
    }

    /// A measured row of run `run` for `queue` on `workload`.
    fn row(run: &str, workload: &str, queue: &str) -> Row {
        let provenance = Provenance::fixed(run, "c");
        let described = WorkloadFacts {
            kind: Kind::Astar,
            name: workload.into(),
            map: "random-d20-32-s1".into(),
            map_kind: "random".into(),
            real: false,
            series: None,
            unit: Unit::Search,
        };
        let mut row = described.row(&provenance, queue, registry::find(queue));
        row.set_samples(&[90.0, 100.0, 110.0], &[90.0, 100.0, 110.0]);
        row.expansions = 10.0;
        row.max_open = 5.0;
        row.units = 1;
        row
    }

    /// A good run of three rows.
    fn good(run: &str) -> Vec<Row> {
        vec![
            row(run, "w1", "std-binary-heap-dup"),
            row(run, "w1", "dary4-dk"),
            row(run, "w2", "std-binary-heap-dup"),
        ]
    }

    fn write(path: &Path, rows: &[Row]) {
        fs::write(path, to_csv(rows).unwrap()).unwrap();
    }

    #[test]
    fn a_gzipped_run_is_listed_and_read_as_it_is() {
        use std::io::Write;
        let temp = folder();
        let dir = temp.path();
        let path = dir.join("runs").join("2026-01-01T00-00-00Z.csv.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&to_csv(&good("2026-01-01T00-00-00Z")).unwrap()).unwrap();
        fs::write(&path, gz.finish().unwrap()).unwrap();
        let (found, notes) = runs(dir).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, path);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(load_run(&path).unwrap(), good("2026-01-01T00-00-00Z"));
        assert!(is_results_folder(dir));
        // A damaged stream is an error naming the file, not a panic.
        fs::write(&path, b"\x1f\x8b\x08garbage").unwrap();
        let error = format!("{:#}", load_run(&path).unwrap_err());
        assert!(error.contains("2026-01-01T00-00-00Z.csv.gz"), "{error}");
    }

    #[test]
    fn leftovers_are_recognised_by_name() {
        assert_eq!(leftover_pid(".2026-01-01T00-00-00Z.csv.4242.tmp"), Some(4242));
        assert_eq!(leftover_pid(".staging-17"), Some(17));
        assert_eq!(leftover_pid("2026-01-01T00-00-00Z.csv"), None);
        assert_eq!(leftover_pid(".hidden"), None);
    }

    /// Every defect of a damaged run file is an error naming the file and its line.
    /// 7 run-file inputs: 7 clean errors.
    #[test]
    fn damaged_runs_are_rejected_with_their_file_and_line() {
        let temp = folder();
        let dir = temp.path();
        let path = dir.join("runs").join("r.csv");
        write(&path, &good("r"));
        load_run(&path).expect("the good run reads");
        let text = String::from_utf8(to_csv(&good("r")).unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut other_run = good("r");
        other_run[2].run = "s".into();
        let mut twice = good("r");
        twice[2] = twice[1].clone();
        twice[2].median_ns /= 10.0;
        (twice[2].p25_ns, twice[2].p75_ns) = (twice[2].median_ns, twice[2].median_ns);
        let mut unknown = good("r");
        unknown[1].queue = "no-such-queue".into();
        let mut no_expansions = good("r");
        no_expansions[1].expansions = 0.0;
        let schema_changed = text.replacen(
            &format!("\n{SCHEMA_VERSION},r,astar,w2"),
            &format!("\n{},r,astar,w2", SCHEMA_VERSION - 1),
            1,
        );
        let cases: Vec<(&str, String, &str)> = vec![
            ("mixed run ids", String::from_utf8(to_csv(&other_run).unwrap()).unwrap(), ":4"),
            ("a schema change", schema_changed, ":4"),
            ("a conflicting duplicate", String::from_utf8(to_csv(&twice).unwrap()).unwrap(), ":4"),
            ("an unknown queue", String::from_utf8(to_csv(&unknown).unwrap()).unwrap(), ":3"),
            ("0 expansions", String::from_utf8(to_csv(&no_expansions).unwrap()).unwrap(), ":3"),
            ("cut inside a row", text[..text.len() - 40].to_owned(), ":4"),
            ("a header alone", format!("{}\n", lines[0]), "no rows"),
        ];
        let mut clean = 0;
        for (what, contents, place) in &cases {
            fs::write(&path, contents).unwrap();
            let error = format!("{:#}", load_run(&path).expect_err(what));
            assert!(error.contains(&path.display().to_string()), "{what}: {error}");
            assert!(error.contains(place), "{what}: {error} does not say {place}");
            clean += 1;
        }
        assert_eq!(clean, cases.len());
    }

    /// A search that opened, pushed and expanded nothing (its goals known unreachable) reads;
    /// one that pushed a cell yet expanded none does not.
    #[test]
    fn a_search_answered_before_it_began_reads() {
        let temp = folder();
        let path = temp.path().join("runs").join("r.csv");
        let mut rows = good("r");
        (rows[2].expansions, rows[2].max_open) = (0.0, 0.0);
        write(&path, &rows);
        load_run(&path).expect("a search answered at once reads");
        rows[2].pushes = 1.0;
        write(&path, &rows);
        let error = format!("{:#}", load_run(&path).expect_err("pushed, never expanded"));
        assert!(error.contains("frontier size must be positive"), "{error}");
    }

    /// A damaged latest run is an error, never a silent answer from the run before it.
    #[test]
    fn a_damaged_latest_run_is_an_error_not_a_fallback() {
        let temp = folder();
        let dir = temp.path();
        write(&dir.join("runs").join("a.csv"), &good("2026-01-01T00-00-00Z"));
        let text = String::from_utf8(to_csv(&good("2026-01-02T00-00-00Z")).unwrap()).unwrap();
        let latest = dir.join("runs").join("b.csv");
        fs::write(&latest, &text[..text.len() - 40]).unwrap();
        let error = format!("{:#}", latest_or(dir, None).expect_err("damaged"));
        assert!(error.contains("b.csv"), "{error}");
        // A stray CSV that is not a run is skipped with a note.
        fs::write(&latest, "name,size\nx,1\n").unwrap();
        let (found, notes) = runs(dir).unwrap();
        assert_eq!(found.len(), 1);
        assert!(notes[0].contains("not a pqlab run"), "{notes:?}");
        // An empty one is an error, as a truncated one is, never a fallback to `a.csv`.
        fs::write(&latest, "").unwrap();
        let error = format!("{:#}", latest_or(dir, None).expect_err("empty"));
        assert!(error.contains("b.csv: an empty run file"), "{error}");
        // A first line past what any run's header takes is not read whole.
        fs::write(&latest, "x".repeat(PEEK_BYTES as usize * 4)).unwrap();
        let (found, notes) = runs(dir).unwrap();
        assert_eq!(found.len(), 1);
        assert!(notes[0].contains("b.csv: not a pqlab run"), "{notes:?}");
    }

    /// A FIFO, a dangling link or a ragged CSV under `runs/` is skipped with a note, never
    /// read whole, and blocks no answer; a FIFO or a link to a device named is refused.
    #[cfg(unix)]
    #[test]
    fn files_that_are_not_runs_are_skipped_not_read() {
        let temp = folder();
        let dir = temp.path();
        write(&dir.join("runs").join("a.csv"), &good("2026-01-01T00-00-00Z"));
        let fifo = dir.join("runs").join("zz.csv");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        std::os::unix::fs::symlink(dir.join("gone"), dir.join("runs").join("dangling.csv"))
            .unwrap();
        fs::write(dir.join("runs").join("ragged.csv"), "root:x:0:0\nuser,,,\na\n").unwrap();
        let (found, notes) = runs(dir).expect("skipped, not an error");
        assert_eq!(found.len(), 1);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("zz.csv: not a regular file")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("dangling.csv: cannot be read")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("ragged.csv: not a pqlab run")), "{notes:?}");
        assert_eq!(latest_or(dir, None).unwrap().unwrap().1.len(), 3);
        let error = format!("{:#}", load_run(&fifo).expect_err("a FIFO"));
        assert!(error.contains("zz.csv: not a regular file"), "{error}");
        fs::remove_file(&fifo).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &fifo).unwrap();
        let error = format!("{:#}", load_run(&fifo).expect_err("/dev/zero"));
        assert!(error.contains("zz.csv: not a regular file"), "{error}");
    }

    /// A large file that is not a run is skipped from its header alone: `runs` reads its
    /// first line, not its 8 MiB (a ragged last line fails any reader of the whole file).
    #[test]
    fn a_large_stray_csv_is_skipped_from_its_header() {
        let temp = folder();
        let dir = temp.path();
        let mut text = String::from("name,size\n");
        while text.len() < 8 << 20 {
            text.push_str("x,1\n");
        }
        text.push_str("x,1,2\n");
        fs::write(dir.join("runs").join("big.csv"), text).unwrap();
        let (found, notes) = runs(dir).expect("skipped from its header");
        assert!(found.is_empty());
        assert!(notes[0].contains("big.csv: not a pqlab run"), "{notes:?}");
    }

    /// Two runs reserving the same second's id both keep their runs: the second takes the
    /// next id, is told it shares the folder, and a finish never replaces a file.
    #[test]
    fn runs_in_the_same_second_keep_both_and_finish_never_replaces() {
        let temp = folder();
        let dir = temp.path();
        let (first, note) = Journal::reserve(dir, || "2026-01-01T00-00-00Z".into()).unwrap();
        assert_eq!(note, None);
        let mut ids = ["2026-01-01T00-00-00Z", "2026-01-01T00-00-01Z"].into_iter();
        let (second, note) = Journal::reserve(dir, || ids.next().unwrap().into()).unwrap();
        assert_eq!(second.run(), "2026-01-01T00-00-01Z");
        assert!(note.is_some_and(|n| n.contains("another run")));
        let a = first.finish(&good("2026-01-01T00-00-00Z"), true).unwrap();
        fs::write(dir.join("runs").join("2026-01-01T00-00-01Z.csv"), "taken").unwrap();
        let b = second.finish(&good("2026-01-01T00-00-01Z"), true);
        assert!(b.is_err(), "a finish replaced a file");
        assert_eq!(load_run(&a).unwrap().len(), 3);
        assert_eq!(
            fs::read_to_string(dir.join("runs").join("2026-01-01T00-00-01Z.csv")).unwrap(),
            "taken"
        );
        assert!(dir.join("runs").join(format!("2026-01-01T00-00-01Z{PARTIAL}")).exists());
    }

    /// A partial run is not the latest; it reads when named.
    #[test]
    fn a_partial_run_is_read_only_when_named() {
        let temp = folder();
        let dir = temp.path();
        let (journal, _) = Journal::reserve(dir, || "2026-01-01T00-00-00Z".into()).unwrap();
        journal.save(&good("2026-01-01T00-00-00Z")).unwrap();
        assert!(latest_or(dir, None).unwrap().is_none());
        let (_, notes) = runs(dir).unwrap();
        assert!(notes[0].contains("a partial run"), "{notes:?}");
        let (_, rows) = latest_or(dir, Some(journal.partial())).unwrap().unwrap();
        assert_eq!(rows.len(), 3);
    }

    /// An interrupted write's temporary file is removed, never recovered as a run, even
    /// when it was cut at a row boundary and so parses.
    #[test]
    fn a_truncated_temporary_file_is_never_recovered() {
        // A checkout's results folder, so that its root is tidied too.
        let temp = folder();
        let root = temp.path();
        for crate_dir in ["harness", "queues"] {
            fs::create_dir_all(root.join(crate_dir)).unwrap();
            fs::write(root.join(crate_dir).join("Cargo.toml"), "").unwrap();
        }
        let dir = root.join("results");
        fs::create_dir_all(dir.join("runs")).unwrap();
        mark(&dir).unwrap();
        let text = String::from_utf8(to_csv(&good("2026-01-01T00-00-00Z")).unwrap()).unwrap();
        let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        // No process has this id (Linux ids stay below 2^22).
        let leftover = dir.join("runs").join(".2026-01-01T00-00-00Z.csv.99999999.tmp");
        fs::write(&leftover, cut).unwrap();
        let readme_temp = root.join(".README.md.99999999.tmp");
        fs::write(&readme_temp, "half").unwrap();
        let not_ours = root.join(".notes.99999999.tmp");
        fs::write(&not_ours, "kept").unwrap();
        let done = tidy(&dir).unwrap();
        assert_eq!(done.len(), 2, "{done:?}");
        assert!(!leftover.exists() && !readme_temp.exists() && not_ours.exists());
        assert!(!dir.join("runs").join("2026-01-01T00-00-00Z.csv").exists());
    }

    /// Tidying touches nothing in a folder that is not a results folder (`pick --results
    /// ~`), and in one that is, only the names pqlab writes: a user's `.notes.N.tmp` is
    /// kept, and so is every `.staging-N` (the report's to tidy).
    #[test]
    fn tidy_removes_only_what_pqlab_made() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let notes = dir.join(".notes.99999999.tmp");
        fs::write(&notes, "y").unwrap();
        fs::create_dir_all(dir.join("runs")).unwrap();
        let run_notes = dir.join("runs").join(".notes.txt.99999999.tmp");
        fs::write(&run_notes, "z").unwrap();
        let leftover = dir.join("runs").join(".a.csv.99999999.tmp");
        fs::write(&leftover, "half").unwrap();
        assert!(tidy(dir).unwrap().is_empty(), "tidied a folder that holds no run");
        assert!(notes.exists() && run_notes.exists() && leftover.exists());
        // Now a results folder: a run in it.
        write(&dir.join("runs").join("a.csv"), &good("2026-01-01T00-00-00Z"));
        let staging = dir.join(".staging-99999997");
        fs::create_dir_all(&staging).unwrap();
        fs::write(staging.join("README.md"), "half").unwrap();
        let done = tidy(dir).unwrap();
        assert!(!leftover.exists() && staging.exists(), "{done:?}");
        assert!(notes.exists() && run_notes.exists(), "{done:?}");
    }
}
