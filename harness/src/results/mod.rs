//! The lab's results format: our own CSV schema, one file per run, saved as the run goes
//! and checked when read ([`files`]), in a folder found from the working directory
//! ([`location`]).
//!
//! Every row carries the schema version, the run id, the machine, the compiler and the git
//! revision, so a file says how it was made on its own. Registry facts (strategy, key
//! rule, family, class) are written as stable tokens and read back typed; nothing is ever
//! parsed back from display text.
//!
//! # Schema (version 7)
//!
//! | column | meaning |
//! |---|---|
//! | `schema` | 7 (version 6 files, without the machine's identity and the run's conditions, read with those empty; version 5 files, without `held_bytes`, read with it empty; version 4 files, without the paired slices' columns, read with those empty; version 3 files, without the search dimensions and latencies, read as 8-connected integer-cost grid A\*; version 2 files, without `bound`, likewise) |
//! | `run` | the run id: UTC start time, `YYYY-MM-DDTHH-MM-SSZ`, plus `-quick` / `-maps` for those profiles |
//! | `kind` | `astar` (whole searches), `replay` (the queue alone on recorded traces), `synthetic` (the queue alone at a held size), `peer` (another crate's A*), `loop` (another of pqlab's search loops: fringe search, BFS), `oracle` (the floor), `sentinel` (the baseline re-measured through the run) |
//! | `workload` | the workload's stable name; rows of one kind and workload were measured side by side, interleaved |
//! | `map` | the map: a generated spec (`rooms-r8-128-s1`), `movingai/<set>/<name>`, or `-` |
//! | `map_kind` | `random`, `maze`, `rooms`, `cave`, `open`, `weighted`, `rugged`, `movingai-<set>`, `synthetic` |
//! | `real` | `true` for Moving AI maps |
//! | `heuristic` | `octile`, `zero`, `weighted:1.5`, `differential:4`, ...; empty for synthetic |
//! | `scale` | `fine`, `coarse`; empty for synthetic |
//! | `store` | the A*'s per-cell store: `flat`, `fx-hash`, `std-hash`; empty where there is no search |
//! | `search` | the search loop: `astar` (pqlab's tuned grid A\*), `generic` (the generic A\* of `pqlab-queues`), `jps` (jump point search), `fringe`, `bfs`; empty where there is no search |
//! | `graph` | `grid` or `road`; empty where there is no search |
//! | `moves` | `4` or `8` on grids; empty elsewhere |
//! | `costs` | `integer` (in the `scale`) or `float` (`f64`, in the scale's proportions); empty where there is no search |
//! | `queue` | the registry id, a peer's id (`pathfinding-astar`, `petgraph-astar`), a loop's (`fringe-search`, `bfs`), or `oracle` |
//! | `family`, `class`, `strategy`, `keys` | the registry's facts as tokens (`d-ary-heap`, `heap`, `dup`, `monotone`); empty for peers and the oracle |
//! | `epsilon` | an approximate queue's error rate; empty for exact ones |
//! | `status` | `ok`; `cut-off` (would have taken far too long here: not timed); `failed` (a wrong answer or a rejected key: not timed); `n/a` (the queue cannot take this workload's keys) |
//! | `note` | why a row is not `ok`; empty otherwise |
//! | `unit`, `units` | what a time is per (`search` or `op`), and how many make one pass |
//! | `samples` | slices kept: each round times every contender still in the race once, in a fresh random order, between slices of the reference (the baseline) |
//! | `group` | the rounds' group: rows of a workload with the same group were timed in the same rounds (round `k` of each within one stretch of time). 0 for most; the largest held sizes, too big to hold every queue at once, are timed in groups 1, 2, ..., each with the baseline |
//! | `median_ns`, `p25_ns`, `p75_ns`, `min_ns`, `max_ns` | thread CPU time per unit over the samples (what rankings use): where the workload was timed with a reference (schema 5), each slice's time ÷ the reference's slices just before and after it, times the reference's median slice on the workload, so that the machine's slow periods cancel; otherwise each slice's own time |
//! | `wall_median_ns`, `wall_p25_ns`, `wall_p75_ns` | wall time per unit, beside it |
//! | `samples_ns` | every sample's CPU time per unit as rankings use it (see `median_ns`), in time order, `;`-separated |
//! | `raw_samples_ns` | every sample's own CPU time per unit, in time order (schema 5; empty before) |
//! | `reference_ns` | on the reference's row (the baseline's), every reference slice's CPU time per unit in time order: the machine's speed through the workload (schema 5; empty on other rows) |
//! | `retimed` | slices timed again because the reference moved by more than 15% across their bracket (a slow period began or ended inside it) |
//! | `held_bytes` | for search rows, the heap bytes the contender held after its checked pass over the workload's problems (its per-cell store, queue and compiled moves; a hash store at its largest search's size), counted by the lab's allocator; empty where it was not counted (and in schema 5 files) |
//! | `raced` | `true` when the row stopped being timed before the others, clearly behind its heat's leader after the first rounds, or behind the workload's leader after the fourth, or after the first when the workload's share held no more (`samples` says after how many); its figures stand as measured, with wider intervals |
//! | `search_p50_ns`, `search_p99_ns`, `search_max_ns` | per-search latency: each problem's wall time as its median over the timed passes, then the median, 99th percentile and largest of those over the workload's problems; empty where searches were not timed one by one |
//! | `expansions`, `pushes`, `pops`, `stale_pops`, `decrease_keys`, `reopenings`, `max_frontier`, `max_open` | mean per search (per unit for synthetic, whose `max_open` is the held size) |
//! | `open_p50`, `open_p90`, `open_p99`, `open_max` | the distribution of the searches' most open cells |
//! | `bytes_per_entry` | for synthetic rows, the heap memory the queue holds per entry at the held size (counted by the lab's allocator; empty where it was not counted) |
//! | `excess_mean`, `excess_max` | how much longer than optimal the paths were (0.02 = 2%), for approximate queues and inconsistent heuristics |
//! | `bound` | for `cut-off` rows, the censored evidence: the stopped pass had already run this many times the baseline's whole pass on the same workload, so the queue takes at least this multiple of the baseline's time there; empty otherwise (and in schema 2 files) |
//! | `cpu_vendor`, `cpu_family`, `cpu_model`, `cpu_stepping` | the CPU's identity (`/proc/cpuinfo`): two generations sharing a model name read differently ([`Platform::kind`]); empty where it could not be read (and before schema 7) |
//! | `l1d_kib`, `l2_kib`, `l3_kib` | one core's cache sizes in KiB |
//! | `simd` | the CPU's SIMD features that change code paths (`avx2;bmi2;avx512f`) |
//! | `vm` | `true` under a hypervisor, `false` on bare metal, empty where it cannot be told |
//! | `cores`, `memory_gib`, `kernel` | the cores available, the memory and the kernel release |
//! | `target_features` | the SIMD target features the binary was compiled with |
//! | `conditions` | what ran beside the run: `plain` (nothing of the user's), or what `PQLAB_CONDITIONS` said |
//! | `measured_s`, `peak_rss_mib` | the run's whole measuring time and its peak resident memory, on every row of a complete run; empty in a partial one |
//! | `machine`, `cpu`, `rustc`, `git` | where and from what the figures came: the machine in words, the CPU's model name, the compiler and the revision |
//!
//! Version 1 files (the first turn's runs) are read through `v1`, which maps each
//! queue id to today's registry for its facts.

pub mod files;
pub mod location;
pub mod platform;
mod v1;

use pqlab_queues::{Class, Family, KeyRule, Strategy};
use serde::{Deserialize, Serialize};

use crate::maps::grid::{Connectivity, CostKind, CostScale};
use crate::maps::GraphKind;
use crate::search::heuristic::HeuristicKind;
use crate::search::outcome::Counters;
use crate::search::store::StoreKind;
use crate::search::{SearchKind, Setup};

pub use files::{load_run, runs, write_atomic, Journal, RunFile};
pub use platform::Platform;

/// The version written in every row's `schema` column.
pub const SCHEMA_VERSION: u32 = 7;

/// What a row measured.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Whole A* searches with a queue.
    #[default]
    Astar,
    /// The queue alone, replaying recorded A* traces.
    Replay,
    /// The queue alone on a synthetic A*-shaped workload at a held size.
    Synthetic,
    /// Another crate's A* on the same problems.
    Peer,
    /// Another of pqlab's search loops on the same problems, with no queue: fringe search,
    /// breadth-first search.
    Loop,
    /// The same A* with the oracle frontier: the floor.
    Oracle,
    /// The baseline on one fixed workload, re-measured through the run: the run's noise.
    Sentinel,
}

/// The id in the `queue` column of oracle rows: the A\* replaying a recorded pop order.
pub const ORACLE: &str = "oracle";

impl Kind {
    /// How the report names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Astar => "A*",
            Kind::Replay => "trace replay",
            Kind::Synthetic => "synthetic",
            Kind::Peer => "peer",
            Kind::Loop => "search loop",
            Kind::Oracle => "oracle",
            Kind::Sentinel => "sentinel",
        }
    }
}

/// Whether a row holds figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Measured.
    #[default]
    Ok,
    /// Not timed: it would have run far too long (see `note`).
    CutOff,
    /// Not timed: a wrong answer or a rejected key (see `note`).
    Failed,
    /// Not timed: the queue cannot take the workload's keys (a monotone queue under an
    /// inconsistent heuristic).
    #[serde(rename = "n/a")]
    NotApplicable,
}

impl Status {
    /// How the report names it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "measured",
            Status::CutOff => "cut off",
            Status::Failed => "failed",
            Status::NotApplicable => "not applicable",
        }
    }
}

/// What a time is per.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// One whole search.
    #[default]
    Search,
    /// One frontier operation.
    Op,
}

/// Every sample's time per unit, in round order: written as one `;`-separated column.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleList(pub Vec<f64>);

impl Serialize for SampleList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text: Vec<String> = self.0.iter().map(|ns| format!("{ns:.1}")).collect();
        serializer.serialize_str(&text.join(";"))
    }
}

impl<'de> Deserialize<'de> for SampleList {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.is_empty() {
            return Ok(SampleList::default());
        }
        text.split(';')
            .map(|part| part.parse::<f64>().map_err(serde::de::Error::custom))
            .collect::<Result<_, _>>()
            .map(SampleList)
    }
}

/// Tokens (`avx2`, `bmi2`) written as one `;`-separated column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens(pub Vec<String>);

impl Serialize for Tokens {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.join(";"))
    }
}

impl<'de> Deserialize<'de> for Tokens {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(Tokens(text.split(';').filter(|t| !t.is_empty()).map(str::to_owned).collect()))
    }
}

/// One CSV row: see the module documentation for each column. Its default is an empty
/// measured row of no run: the columns a writer does not set stay empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Row {
    pub schema: u32,
    pub run: String,
    pub kind: Kind,
    pub workload: String,
    pub map: String,
    pub map_kind: String,
    pub real: bool,
    pub heuristic: Option<HeuristicKind>,
    pub scale: Option<CostScale>,
    pub store: Option<StoreKind>,
    #[serde(default)]
    pub search: Option<SearchKind>,
    #[serde(default)]
    pub graph: Option<GraphKind>,
    #[serde(default)]
    pub moves: Option<Connectivity>,
    #[serde(default)]
    pub costs: Option<CostKind>,
    pub queue: String,
    pub family: Option<Family>,
    pub class: Option<Class>,
    pub strategy: Option<Strategy>,
    pub keys: Option<KeyRule>,
    pub epsilon: Option<f64>,
    pub status: Status,
    pub note: String,
    pub unit: Unit,
    pub units: u64,
    pub samples: u32,
    pub group: u32,
    pub median_ns: f64,
    pub p25_ns: f64,
    pub p75_ns: f64,
    pub min_ns: f64,
    pub max_ns: f64,
    pub wall_median_ns: f64,
    pub wall_p25_ns: f64,
    pub wall_p75_ns: f64,
    pub samples_ns: SampleList,
    #[serde(default)]
    pub search_p50_ns: Option<f64>,
    #[serde(default)]
    pub search_p99_ns: Option<f64>,
    #[serde(default)]
    pub search_max_ns: Option<f64>,
    pub expansions: f64,
    pub pushes: f64,
    pub pops: f64,
    pub stale_pops: f64,
    pub decrease_keys: f64,
    pub reopenings: f64,
    pub max_frontier: f64,
    pub max_open: f64,
    pub open_p50: f64,
    pub open_p90: f64,
    pub open_p99: f64,
    pub open_max: f64,
    pub bytes_per_entry: Option<f64>,
    pub excess_mean: Option<f64>,
    pub excess_max: Option<f64>,
    #[serde(default)]
    pub bound: Option<f64>,
    #[serde(default)]
    pub raw_samples_ns: SampleList,
    #[serde(default)]
    pub reference_ns: SampleList,
    #[serde(default)]
    pub retimed: u32,
    #[serde(default)]
    pub raced: bool,
    #[serde(default)]
    pub held_bytes: Option<f64>,
    #[serde(default)]
    pub cpu_vendor: Option<String>,
    #[serde(default)]
    pub cpu_family: Option<u32>,
    #[serde(default)]
    pub cpu_model: Option<u32>,
    #[serde(default)]
    pub cpu_stepping: Option<u32>,
    #[serde(default)]
    pub l1d_kib: Option<u32>,
    #[serde(default)]
    pub l2_kib: Option<u32>,
    #[serde(default)]
    pub l3_kib: Option<u32>,
    #[serde(default)]
    pub simd: Tokens,
    #[serde(default)]
    pub vm: Option<bool>,
    #[serde(default)]
    pub cores: Option<u32>,
    #[serde(default)]
    pub memory_gib: Option<f64>,
    #[serde(default)]
    pub kernel: Option<String>,
    #[serde(default)]
    pub target_features: Tokens,
    #[serde(default)]
    pub conditions: String,
    #[serde(default)]
    pub measured_s: Option<f64>,
    #[serde(default)]
    pub peak_rss_mib: Option<f64>,
    pub machine: String,
    pub cpu: String,
    pub rustc: String,
    pub git: String,
}

impl Row {
    /// The machine the row was measured on, from its identity columns (the model name
    /// alone for rows written before schema 7).
    pub fn platform(&self) -> Platform {
        Platform {
            model_name: self.cpu.clone(),
            vendor: self.cpu_vendor.clone(),
            family: self.cpu_family,
            model: self.cpu_model,
            stepping: self.cpu_stepping,
            caches: platform::Caches { l1d: self.l1d_kib, l2: self.l2_kib, l3: self.l3_kib },
            simd: self.simd.0.clone(),
            vm: self.vm,
            cores: self.cores.map_or(0, |c| c as usize),
            memory_gib: self.memory_gib,
            kernel: self.kernel.clone(),
            target_features: self.target_features.0.clone(),
        }
    }

    /// Writes `platform` into the row's identity columns and `machine`, `cpu`.
    pub fn set_platform(&mut self, platform: &Platform) {
        self.cpu = platform.model_name.clone();
        self.machine = platform.to_string();
        self.cpu_vendor = platform.vendor.clone();
        (self.cpu_family, self.cpu_model, self.cpu_stepping) =
            (platform.family, platform.model, platform.stepping);
        (self.l1d_kib, self.l2_kib, self.l3_kib) =
            (platform.caches.l1d, platform.caches.l2, platform.caches.l3);
        self.simd = Tokens(platform.simd.clone());
        self.vm = platform.vm;
        self.cores = u32::try_from(platform.cores).ok().filter(|&c| c > 0);
        self.memory_gib = platform.memory_gib;
        self.kernel = platform.kernel.clone();
        self.target_features = Tokens(platform.target_features.clone());
    }

    /// The row's CPU time per unit: the median round with its quartiles.
    pub fn spread(&self) -> Spread {
        Spread { low: self.p25_ns, mid: self.median_ns, high: self.p75_ns }
    }

    /// The distribution of the row's searches' most open cells.
    pub fn open_sizes(&self) -> Sizes {
        Sizes { median: self.open_p50, p90: self.open_p90, largest: self.open_max }
    }

    /// Sets the time figures from CPU and wall samples (ns per unit, in round order).
    pub fn set_samples(&mut self, cpu: &[f64], wall: &[f64]) {
        let (c, w) = (Spread::quartiles(cpu), Spread::quartiles(wall));
        self.samples = cpu.len() as u32;
        (self.p25_ns, self.median_ns, self.p75_ns) = (c.low, c.mid, c.high);
        (self.min_ns, self.max_ns) = (quantile(cpu, 0.0), quantile(cpu, 1.0));
        (self.wall_p25_ns, self.wall_median_ns, self.wall_p75_ns) = (w.low, w.mid, w.high);
        self.samples_ns = SampleList(cpu.to_vec());
    }

    /// Sets the per-search latency columns from the wall time (ns) of every search of the
    /// timed passes, `problems` searches a pass in problem order. Each problem's latency is
    /// its median over the passes, so a pass preempted by another process does not pass
    /// for a slow search, while a queue's own spike (a refill, a redistribution), which
    /// recurs on the same problem every pass, stays; the columns are the median, 99th
    /// percentile and largest of those over the problems. Empty when nothing was timed.
    pub fn set_latencies(&mut self, searches: &[u64], problems: usize) {
        if problems == 0 || searches.len() < problems {
            return;
        }
        let per_problem: Vec<f64> = (0..problems)
            .map(|j| {
                let times: Vec<f64> =
                    searches.iter().skip(j).step_by(problems).map(|&n| n as f64).collect();
                quantile(&times, 0.5)
            })
            .collect();
        self.search_p50_ns = Some(quantile(&per_problem, 0.5));
        self.search_p99_ns = Some(quantile(&per_problem, 0.99));
        self.search_max_ns = Some(quantile(&per_problem, 1.0));
    }

    /// Sets the counters from every search of the workload: means, and the distribution
    /// of the most open cells.
    pub fn set_counters(&mut self, all: &[Counters]) {
        let n = all.len().max(1) as f64;
        let mean = |f: fn(&Counters) -> u64| all.iter().map(f).sum::<u64>() as f64 / n;
        self.expansions = mean(|c| c.expansions);
        self.pushes = mean(|c| c.pushes);
        self.pops = mean(|c| c.pops);
        self.stale_pops = mean(|c| c.stale_pops);
        self.decrease_keys = mean(|c| c.decrease_keys);
        self.reopenings = mean(|c| c.reopenings);
        self.max_frontier = mean(|c| c.max_frontier);
        self.max_open = mean(|c| c.max_open);
        let open: Vec<f64> = all.iter().map(|c| c.max_open as f64).collect();
        let sizes = Sizes::of(&open);
        (self.open_p50, self.open_p90, self.open_max) = (sizes.median, sizes.p90, sizes.largest);
        self.open_p99 = quantile(&open, 0.99);
    }

    /// Fills the search dimensions of a row written before they had columns (schemas 1 to
    /// 3): every search then was pqlab's A\* on an 8-connected grid with integer costs.
    pub fn assume_grid_astar(&mut self) {
        if self.heuristic.is_some() {
            let setup = Setup::GRID_ASTAR;
            self.search = Some(setup.search);
            self.graph = Some(setup.graph);
            self.moves = setup.moves;
            self.costs = Some(setup.costs);
        }
    }

    /// How the row's searches ran, where a search ran.
    pub fn setup(&self) -> Option<Setup> {
        Some(Setup {
            search: self.search?,
            graph: self.graph?,
            moves: self.moves,
            costs: self.costs?,
        })
    }

    /// Whether the queue pops in exact order (peers and the oracle count as exact).
    pub fn is_exact(&self) -> bool {
        self.epsilon.is_none()
    }
}

/// A middle figure with a low and a high end (`low ≤ mid ≤ high`): the one shape of "a
/// figure with its spread" in the harness. A row's median time with its quartiles
/// ([`Row::spread`]), a time ratio with its 95% interval
/// ([`Versus`](crate::analysis::rank::Versus)), a chart's point with its bar. In JSON it is
/// `[low, mid, high]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// The low end.
    pub low: f64,
    /// The figure itself: a median, a ratio.
    pub mid: f64,
    /// The high end.
    pub high: f64,
}

impl Spread {
    /// A figure without spread: both ends at it.
    pub fn exact(value: f64) -> Spread {
        Spread { low: value, mid: value, high: value }
    }

    /// The median of `samples` between its 25th and 75th percentiles (zeros when empty).
    pub fn quartiles(samples: &[f64]) -> Spread {
        Spread {
            low: quantile(samples, 0.25),
            mid: quantile(samples, 0.5),
            high: quantile(samples, 0.75),
        }
    }

    /// `self ÷ by` with the widest ratio of values inside both spreads: from `low ÷
    /// by.high` to `high ÷ by.low`. On two rows' quartiles this is the interval of a time
    /// ratio where no per-round samples give a better one (schema 1 rows), and the bar of
    /// every ratio the report's charts draw.
    pub fn over(&self, by: &Spread) -> Spread {
        Spread { low: self.low / by.high, mid: self.mid / by.mid, high: self.high / by.low }
    }

    /// Every figure times `factor` (a positive number).
    pub fn times(&self, factor: f64) -> Spread {
        Spread { low: self.low * factor, mid: self.mid * factor, high: self.high * factor }
    }
}

impl Serialize for Spread {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.low, self.mid, self.high).serialize(serializer)
    }
}

/// How far a distribution of sizes reaches, read from the middle up: its median, 90th
/// percentile and largest value (the most open cells of a map's searches, or the entries
/// held). Not a [`Spread`]: both of its other figures lie above the median, and what they
/// say is how large the large searches get, not how uncertain the median is. In JSON it is
/// `[median, p90, largest]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sizes {
    /// The median.
    pub median: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The largest.
    pub largest: f64,
}

impl Sizes {
    /// The sizes of `samples` (zeros when empty).
    pub fn of(samples: &[f64]) -> Sizes {
        Sizes {
            median: quantile(samples, 0.5),
            p90: quantile(samples, 0.9),
            largest: quantile(samples, 1.0),
        }
    }
}

impl Serialize for Sizes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.median, self.p90, self.largest).serialize(serializer)
    }
}

/// The `q` quantile of `values` (0 ≤ q ≤ 1), interpolated linearly; 0 when empty.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Where a run's figures came from: written in every row.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    /// The run id.
    pub run: String,
    /// The machine: its CPU's identity, caches and features, cores, memory and kernel.
    pub platform: Platform,
    /// What ran beside the run (`plain`, or `PQLAB_CONDITIONS`).
    pub conditions: String,
    /// `rustc --version`.
    pub rustc: String,
    /// `git describe --always --dirty`.
    pub git: String,
}

impl Provenance {
    /// Describes this machine, and the compiler and checkout pqlab was built with; the run
    /// id is the current UTC time with `suffix` appended.
    pub fn detect(suffix: &str, conditions: &str) -> Provenance {
        Provenance {
            run: format!("{}{suffix}", utc_now()),
            platform: Platform::detect(),
            conditions: conditions.to_owned(),
            // Taken when pqlab was built (`harness/build.rs`): no process is started here.
            rustc: env!("PQLAB_RUSTC").into(),
            git: env!("PQLAB_GIT").into(),
        }
    }

    /// A provenance for tests and fixtures: machine `machine`, nothing detected.
    pub fn fixed(run: &str, machine: &str) -> Provenance {
        Provenance {
            run: run.to_owned(),
            platform: Platform { model_name: machine.to_owned(), ..Platform::default() },
            conditions: "plain".into(),
            rustc: "rustc".into(),
            git: "abc".into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_is_each_problems_median_so_preemption_is_not_a_slow_search() {
        use crate::analysis::fixture;
        use pqlab_queues::registry::BASELINE;
        let mut row = fixture::steady(&fixture::octile("w"), BASELINE, 100.0, 1_000.0);
        // Three problems a pass, five passes: problem 2 is slow every pass (a queue's own
        // spike); one pass of problem 0 was preempted (a one-off 4 ms).
        let mut searches = Vec::new();
        for pass in 0..5u64 {
            searches.extend([if pass == 3 { 4_000_000 } else { 1_000 }, 2_000, 50_000]);
        }
        row.set_latencies(&searches, 3);
        assert_eq!(row.search_p50_ns, Some(2_000.0));
        assert_eq!(row.search_max_ns, Some(50_000.0), "the recurring spike shows");
        assert!(row.search_p99_ns.unwrap() < 50_000.0 + 1.0);
        // Nothing timed one by one: the columns stay empty.
        let mut untimed = row.clone();
        untimed.search_p50_ns = None;
        untimed.set_latencies(&[], 3);
        assert_eq!(untimed.search_p50_ns, None);
    }

    #[test]
    fn spread_interpolates_quartiles() {
        let s = Spread::quartiles(&[4.0, 1.0, 3.0, 2.0, 5.0]);
        assert_eq!(s, Spread { low: 2.0, mid: 3.0, high: 4.0 });
        assert_eq!(Spread::quartiles(&[1.0, 2.0]).mid, 1.5);
        assert_eq!(Spread::quartiles(&[]), Spread::default());
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.9), 4.6);
        let sizes = Sizes::of(&[4.0, 1.0, 3.0, 2.0, 5.0]);
        assert_eq!((sizes.median, sizes.p90, sizes.largest), (3.0, 4.6, 5.0));
    }

    /// Rule: `a ÷ b` spans the widest ratio of values inside both spreads, `a.low ÷ b.high`
    /// to `a.high ÷ b.low`, around the ratio of the middles.
    #[test]
    fn a_ratio_of_spreads_takes_the_widest_ratio_inside_both() {
        let a = Spread { low: 114.0, mid: 120.0, high: 132.0 };
        let b = Spread { low: 90.0, mid: 100.0, high: 110.0 };
        let r = a.over(&b);
        assert_eq!(r, Spread { low: 114.0 / 110.0, mid: 120.0 / 100.0, high: 132.0 / 90.0 });
        assert!(r.low < r.mid && r.mid < r.high, "{r:?}");
        // Exact figures give an exact ratio; a wider divisor widens the ratio.
        assert_eq!(Spread::exact(3.0).over(&Spread::exact(2.0)), Spread::exact(1.5));
        let wider = a.over(&Spread { low: 80.0, ..b });
        assert!(wider.high > r.high && wider.low == r.low, "{wider:?}");
    }

    #[test]
    fn spreads_and_sizes_are_triples_in_json() {
        let s = Spread { low: 0.5, mid: 1.0, high: f64::INFINITY };
        assert_eq!(serde_json::to_string(&s).unwrap(), "[0.5,1.0,null]");
        let sizes = Sizes { median: 73.0, p90: 149.5, largest: 171.0 };
        assert_eq!(serde_json::to_string(&sizes).unwrap(), "[73.0,149.5,171.0]");
    }

    #[test]
    fn utc_now_has_the_file_name_shape() {
        let now = utc_now();
        assert_eq!(now.len(), 20, "{now}");
        assert!(now.starts_with("20") && now.ends_with('Z') && !now.contains(':'), "{now}");
    }

    #[test]
    fn sample_lists_round_trip_through_one_column() {
        let list = SampleList(vec![12.25, 1000.0, 3.0]);
        let text = serde_json::to_string(&list).unwrap();
        assert_eq!(text, "\"12.2;1000.0;3.0\"");
        let back: SampleList = serde_json::from_str(&text).unwrap();
        assert_eq!(back, SampleList(vec![12.2, 1000.0, 3.0]));
    }
}
