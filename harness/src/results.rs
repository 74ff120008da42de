//! The lab's results format: our own CSV schema, one file per run, written atomically.
//!
//! Each run of the lab writes `results/runs/<run-id>.csv` (a new file, never an
//! overwrite: older runs stay until someone deletes them). Every row carries the schema
//! version, the run id, the machine, the compiler and the git revision, so a file says
//! how it was made on its own. Criterion drives the timing loops; the figures here are
//! our own samples, so nothing reads criterion's private files.
//!
//! # Schema (version 1)
//!
//! | column | meaning |
//! |---|---|
//! | `schema` | 1 |
//! | `run` | the run id: UTC start time, `YYYY-MM-DDTHH-MM-SSZ`, plus `-quick` for quick runs |
//! | `kind` | `astar` (whole searches), `replay` (the queue alone, on recorded traces), `synthetic` (the queue alone at a held size), `peer` (another crate's A*), `oracle` (the floor) |
//! | `suite` | the scenario suite (generated map family and size, or a Moving AI map) |
//! | `family` | the scenario family: `random`, `maze`, `room`, `cave`, `open`, `weighted`, `movingai-<set>`, `synthetic` |
//! | `heuristic` | the heuristic (`octile`, `zero`, ...; `-` for synthetic) |
//! | `scale` | the cost scale (`fine`, `coarse`) |
//! | `queue` | the registry id, or a peer's id (`pathfinding-astar`, `petgraph-astar`), or `oracle` |
//! | `queue_family`, `strategy`, `keys` | from the registry (`-` for peers and the oracle) |
//! | `status` | `ok`; `cut-off` (would have taken far too long at this size: not timed); `failed` (a wrong answer or a rejected key: not timed) |
//! | `note` | why a row is cut off or failed; empty otherwise |
//! | `unit` | what a time is for: `search` or `op` (one frontier operation) |
//! | `units` | searches or operations per sample |
//! | `samples` | how many samples the figures come from |
//! | `median_ns`, `p25_ns`, `p75_ns`, `min_ns`, `max_ns` | time per unit over the samples |
//! | `expansions`, `pushes`, `pops`, `stale_pops`, `decrease_keys`, `reopenings` | mean per search (per sample for synthetic) |
//! | `max_frontier` | mean over searches of the most entries held (stale included) |
//! | `max_open` | mean over searches of the most open cells; for synthetic, the held size |
//! | `machine`, `rustc`, `git` | where and from what the figures came |

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The version written in every row's `schema` column.
pub const SCHEMA_VERSION: u32 = 1;

/// What a row measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Whole A* searches with a queue.
    Astar,
    /// The queue alone, replaying recorded A* traces.
    Replay,
    /// The queue alone on a synthetic A*-shaped workload at a held size.
    Synthetic,
    /// Another crate's A* on the same problems.
    Peer,
    /// The same A* with the oracle frontier: the floor.
    Oracle,
}

/// Whether a row holds figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Measured.
    Ok,
    /// Not timed: it would have run far too long (see `note`).
    CutOff,
    /// Not timed: a wrong answer or a rejected key (see `note`).
    Failed,
}

/// One CSV row: see the module documentation for each column.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Row {
    pub schema: u32,
    pub run: String,
    pub kind: Kind,
    pub suite: String,
    pub family: String,
    pub heuristic: String,
    pub scale: String,
    pub queue: String,
    pub queue_family: String,
    pub strategy: String,
    pub keys: String,
    pub status: Status,
    pub note: String,
    pub unit: String,
    pub units: u64,
    pub samples: u32,
    pub median_ns: f64,
    pub p25_ns: f64,
    pub p75_ns: f64,
    pub min_ns: f64,
    pub max_ns: f64,
    pub expansions: f64,
    pub pushes: f64,
    pub pops: f64,
    pub stale_pops: f64,
    pub decrease_keys: f64,
    pub reopenings: f64,
    pub max_frontier: f64,
    pub max_open: f64,
    pub machine: String,
    pub rustc: String,
    pub git: String,
}

/// Median, quartiles and extremes of some samples (ns per unit).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// The median.
    pub median: f64,
    /// The 25th percentile.
    pub p25: f64,
    /// The 75th percentile.
    pub p75: f64,
    /// The smallest sample.
    pub min: f64,
    /// The largest sample.
    pub max: f64,
}

impl Spread {
    /// The spread of `samples` (empty samples give zeros).
    pub fn of(samples: &[f64]) -> Spread {
        if samples.is_empty() {
            return Spread::default();
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let pos = q * (sorted.len() - 1) as f64;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
        };
        Spread {
            median: at(0.5),
            p25: at(0.25),
            p75: at(0.75),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        }
    }
}

/// Where a run's figures came from: written in every row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The run id.
    pub run: String,
    /// CPU model, cores and memory.
    pub machine: String,
    /// `rustc --version`.
    pub rustc: String,
    /// `git describe --always --dirty`.
    pub git: String,
}

impl Provenance {
    /// Describes this machine, compiler and checkout; the run id is `started` (UTC) with
    /// `suffix` appended.
    pub fn detect(suffix: &str) -> Provenance {
        let command = |program: &str, args: &[&str]| {
            std::process::Command::new(program)
                .args(args)
                .output()
                .ok()
                .filter(|out| out.status.success())
                .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
                .unwrap_or_else(|| "unknown".into())
        };
        let cpu = fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|line| line.starts_with("model name"))
                    .and_then(|line| line.split(':').nth(1))
                    .map(|model| model.trim().to_owned())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let memory = fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|info| {
                let kib: f64 = info.lines().next()?.split_whitespace().nth(1)?.parse().ok()?;
                Some(format!(", {:.0} GiB", kib / 1024.0 / 1024.0))
            })
            .unwrap_or_default();
        Provenance {
            run: format!("{}{suffix}", utc_now()),
            machine: format!("{cpu}, {cores} cores{memory}"),
            rustc: command("rustc", &["--version"]),
            git: command("git", &["describe", "--always", "--dirty", "--abbrev=10"]),
        }
    }
}

/// The current UTC time as `YYYY-MM-DDTHH-MM-SSZ` (file-name safe, sorts by time).
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}-{:02}-{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

/// Writes `contents` to `path` atomically: a temporary file beside it, then a rename, so a
/// reader never sees half a file and a crash never leaves one.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = path.file_name().context("a file name")?.to_string_lossy();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut file =
        fs::File::create(&temp).with_context(|| format!("creating {}", temp.display()))?;
    file.write_all(contents)?;
    file.sync_all()?;
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
    anyhow::ensure!(!path.exists(), "{} exists already: a run id is never reused", path.display());
    write_atomic(&path, &to_csv(rows)?)?;
    Ok(path)
}

/// Reads one run file, checking its schema version.
pub fn load_run(path: &Path) -> Result<Vec<Row>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, row) in reader.deserialize::<Row>().enumerate() {
        let row = row.with_context(|| format!("{}: row {}", path.display(), i + 2))?;
        anyhow::ensure!(
            row.schema == SCHEMA_VERSION,
            "{}: row {} has schema {}, this pqlab reads schema {SCHEMA_VERSION}",
            path.display(),
            i + 2,
            row.schema
        );
        rows.push(row);
    }
    Ok(rows)
}

/// The run files under `dir/runs`, oldest first (run ids sort by time).
pub fn runs(dir: &Path) -> Result<Vec<PathBuf>> {
    let runs = dir.join("runs");
    if !runs.exists() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> = fs::read_dir(&runs)
        .with_context(|| format!("listing {}", runs.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    files.sort();
    Ok(files)
}

/// The newest run under `dir`, or `None` when there is none yet.
pub fn latest_run(dir: &Path) -> Result<Option<(PathBuf, Vec<Row>)>> {
    match runs(dir)?.pop() {
        Some(path) => {
            let rows = load_run(&path)?;
            Ok(Some((path, rows)))
        }
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_interpolates_quartiles() {
        let s = Spread::of(&[4.0, 1.0, 3.0, 2.0, 5.0]);
        assert_eq!((s.min, s.p25, s.median, s.p75, s.max), (1.0, 2.0, 3.0, 4.0, 5.0));
        assert_eq!(Spread::of(&[1.0, 2.0]).median, 1.5);
    }

    #[test]
    fn utc_now_has_the_file_name_shape() {
        let now = utc_now();
        assert_eq!(now.len(), 20, "{now}");
        assert!(now.starts_with("20") && now.ends_with('Z') && !now.contains(':'), "{now}");
    }
}
