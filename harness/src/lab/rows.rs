//! Result rows as the lab fills them: one [`WorkloadFacts`] per workload, one row per
//! contender on it, the registry's facts copied typed.

use std::time::Duration;

use pqlab_queues::registry::{self, Entry};
use pqlab_queues::Order;

use super::searches::{Searchable, Untimed};
use crate::results::{Kind, Provenance, Row, SampleList, Status, Unit, SCHEMA_VERSION};
use crate::search::Series;

/// What every row of one workload shares.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadFacts {
    /// What is measured.
    pub kind: Kind,
    /// The workload's stable name.
    pub name: String,
    /// The map's name (`-` for synthetic).
    pub map: String,
    /// The map's kind.
    pub map_kind: String,
    /// Whether the map is a real Moving AI map.
    pub real: bool,
    /// How its searches run, where a search runs: `None` for the queue alone.
    pub series: Option<Series>,
    /// What a time is per.
    pub unit: Unit,
}

impl WorkloadFacts {
    /// The synthetic workload held at `size` entries (`held-<size>`): no map, no search,
    /// timed per operation.
    pub fn held(size: usize) -> WorkloadFacts {
        WorkloadFacts {
            kind: Kind::Synthetic,
            name: format!("held-{size}"),
            map: "-".into(),
            map_kind: "synthetic".into(),
            real: false,
            series: None,
            unit: Unit::Op,
        }
    }

    /// The same workload searched by `setup`.
    #[cfg(test)]
    pub(crate) fn with_setup(self, setup: crate::search::Setup) -> WorkloadFacts {
        let series = self.series.map(|s| Series { setup, ..s });
        WorkloadFacts { series, ..self }
    }

    /// A row of this workload for `queue` (a registry entry, or a peer's or the oracle's
    /// id with `entry` `None`), status `ok` and no figures yet.
    pub fn row(&self, provenance: &Provenance, queue: &str, entry: Option<&Entry>) -> Row {
        let mut row = Row {
            schema: SCHEMA_VERSION,
            run: provenance.run.clone(),
            kind: self.kind,
            workload: self.name.clone(),
            map: self.map.clone(),
            map_kind: self.map_kind.clone(),
            real: self.real,
            heuristic: self.series.map(|s| s.heuristic),
            scale: self.series.map(|s| s.scale),
            store: self.series.map(|s| s.store),
            search: self.series.map(|s| s.setup.search),
            graph: self.series.map(|s| s.setup.graph),
            moves: self.series.and_then(|s| s.setup.moves),
            costs: self.series.map(|s| s.setup.costs),
            queue: queue.to_owned(),
            family: entry.map(|e| e.family),
            class: entry.map(|e| e.class()),
            strategy: entry.map(|e| e.strategy),
            keys: entry.map(|e| e.keys),
            epsilon: entry.and_then(|e| match e.order {
                Order::Exact => None,
                Order::Approximate { epsilon } => Some(epsilon),
            }),
            status: Status::Ok,
            note: String::new(),
            unit: self.unit,
            units: 0,
            samples: 0,
            group: 0,
            median_ns: 0.0,
            p25_ns: 0.0,
            p75_ns: 0.0,
            min_ns: 0.0,
            max_ns: 0.0,
            wall_median_ns: 0.0,
            wall_p25_ns: 0.0,
            wall_p75_ns: 0.0,
            samples_ns: SampleList::default(),
            search_p50_ns: None,
            search_p99_ns: None,
            search_max_ns: None,
            expansions: 0.0,
            pushes: 0.0,
            pops: 0.0,
            stale_pops: 0.0,
            decrease_keys: 0.0,
            reopenings: 0.0,
            max_frontier: 0.0,
            max_open: 0.0,
            open_p50: 0.0,
            open_p90: 0.0,
            open_p99: 0.0,
            open_max: 0.0,
            bytes_per_entry: None,
            excess_mean: None,
            excess_max: None,
            bound: None,
            raw_samples_ns: SampleList::default(),
            reference_ns: SampleList::default(),
            retimed: 0,
            raced: false,
            held_bytes: None,
            conditions: provenance.conditions.clone(),
            machine: String::new(),
            cpu: String::new(),
            rustc: provenance.rustc.clone(),
            git: provenance.git.clone(),
            ..Row::default()
        };
        row.set_platform(&provenance.platform);
        row
    }
}

/// `row` marked as not timed, with why.
pub fn untimed(mut row: Row, status: Status, note: impl Into<String>) -> Row {
    row.status = status;
    row.note = note.into();
    row
}

/// The registry's entries in id order: the order checks and rows follow (no result depends
/// on it; it only fixes the file's row order).
pub(super) fn ordered_entries() -> impl Iterator<Item = &'static Entry> {
    let mut entries: Vec<&'static Entry> = registry::ENTRIES.iter().collect();
    entries.sort_by_key(|e| e.id);
    entries.into_iter()
}

/// What the rows of a prepared workload share.
pub(super) fn describe(prepared: &impl Searchable, kind: Kind) -> WorkloadFacts {
    let spec = prepared.spec();
    let (map, map_kind, real) = prepared.map();
    WorkloadFacts {
        kind,
        name: spec.name(),
        map,
        map_kind,
        real,
        series: Some(spec.series),
        unit: if kind == Kind::Replay { Unit::Op } else { Unit::Search },
    }
}

/// `row` marked with why it was not timed; a cut-off row gets its censored bound, the
/// stopped pass's time over `base` (the baseline's whole pass on the same workload).
pub(super) fn untimed_row(row: Row, why: Untimed, base: Duration) -> Row {
    match why {
        Untimed::NotApplicable(note) => untimed(row, Status::NotApplicable, note),
        Untimed::Failed(note) => untimed(row, Status::Failed, note),
        Untimed::CutOff { note, ran } => {
            let mut row = untimed(row, Status::CutOff, note);
            row.bound = (base > Duration::ZERO && base < Duration::MAX)
                .then(|| ran.as_secs_f64() / base.as_secs_f64());
            row
        }
    }
}
