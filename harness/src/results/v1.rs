//! Reading schema 1, the first turn's runs, as today's rows.
//!
//! Version 1 wrote registry facts as display text (`decrease-key`, `any keys`); here each
//! queue id is looked up in today's registry instead, and ids no longer registered keep
//! empty facts. Version 1 timed wall-clock windows one queue after another: its figures
//! fill both the CPU and the wall columns, and it kept no per-sample times.

use pqlab_queues::registry;
use serde::Deserialize;

use super::{Kind, Row, Status, Unit, SCHEMA_VERSION};
use crate::maps::grid::CostScale;
use crate::search::store::StoreKind;

/// One schema 1 row, as written.
#[derive(Clone, Debug, Deserialize)]
#[allow(dead_code)] // Columns kept to read the whole row; the registry supersedes them.
pub(super) struct RowV1 {
    schema: u32,
    run: String,
    kind: Kind,
    suite: String,
    family: String,
    heuristic: String,
    scale: String,
    queue: String,
    queue_family: String,
    strategy: String,
    keys: String,
    status: Status,
    note: String,
    unit: Unit,
    units: u64,
    samples: u32,
    median_ns: f64,
    p25_ns: f64,
    p75_ns: f64,
    min_ns: f64,
    max_ns: f64,
    expansions: f64,
    pushes: f64,
    pops: f64,
    stale_pops: f64,
    decrease_keys: f64,
    reopenings: f64,
    max_frontier: f64,
    max_open: f64,
    machine: String,
    rustc: String,
    git: String,
}

impl RowV1 {
    /// Today's workload name: `held-<size>` for a synthetic row (v1 named them
    /// `synthetic-<size>`, a suite that was not one), else `suite/heuristic/scale`.
    fn workload(&self) -> String {
        if self.kind == Kind::Synthetic {
            format!("held-{}", self.suite.trim_start_matches("synthetic-"))
        } else {
            format!("{}/{}/{}", self.suite, self.heuristic, self.scale)
        }
    }

    /// The same figures as a today's row.
    pub(super) fn into_row(self) -> Row {
        let synthetic = self.kind == Kind::Synthetic;
        let searched = matches!(self.kind, Kind::Astar | Kind::Oracle);
        let entry = registry::find(&self.queue);
        let (heuristic, scale) = if synthetic {
            (None, None)
        } else {
            (self.heuristic.parse().ok(), self.scale.parse::<CostScale>().ok())
        };
        let workload = self.workload();
        let cpu = self.machine.split(',').next().unwrap_or_default().trim().to_owned();
        Row {
            schema: SCHEMA_VERSION,
            run: self.run,
            kind: self.kind,
            workload,
            map: if synthetic { "-".into() } else { self.suite },
            map_kind: self.family.clone(),
            real: self.family.starts_with("movingai"),
            heuristic,
            scale,
            store: searched.then_some(StoreKind::Flat),
            queue: self.queue,
            family: entry.map(|e| e.family),
            class: entry.map(|e| e.class()),
            strategy: entry.map(|e| e.strategy),
            keys: entry.map(|e| e.keys),
            status: self.status,
            note: self.note,
            unit: self.unit,
            units: self.units,
            samples: self.samples,
            median_ns: self.median_ns,
            p25_ns: self.p25_ns,
            p75_ns: self.p75_ns,
            min_ns: self.min_ns,
            max_ns: self.max_ns,
            wall_median_ns: self.median_ns,
            wall_p25_ns: self.p25_ns,
            wall_p75_ns: self.p75_ns,
            expansions: self.expansions,
            pushes: self.pushes,
            pops: self.pops,
            stale_pops: self.stale_pops,
            decrease_keys: self.decrease_keys,
            reopenings: self.reopenings,
            max_frontier: self.max_frontier,
            max_open: self.max_open,
            machine: self.machine,
            cpu,
            rustc: self.rustc,
            git: self.git,
            // Every other column stays empty: v1 kept no per-sample times, open-set
            // percentiles, memory or race facts, and the reader fills the search, graph,
            // moves and costs, as for every row written before those columns.
            ..Row::default()
        }
    }
}
