//! A run's rows grouped into workloads: one kind and workload name, measured side by side.

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::noise;
use crate::analysis::rank::execution_floor;
use crate::maps::generate::MapSpec;
use crate::maps::grid::CostScale;
use crate::maps::{GraphKind, TerrainKind};
use crate::results::{quantile, Kind, Row, Spread, Status};
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::{SearchKind, Setup};

/// One workload: the rows of one kind and workload name, by queue.
#[derive(Clone, Debug)]
pub struct Workload<'a> {
    /// What was measured.
    pub kind: Kind,
    /// The workload's name.
    pub name: &'a str,
    /// The facts every row of the workload shares (map, heuristic, ...): its first row.
    pub facts: &'a Row,
    /// The frontier size: the median `max_open` of its measured rows (of all its rows when
    /// none was measured; NaN when no row reports one). Queues break ties differently, so
    /// their sizes differ a little; one size per workload puts it in one band for every
    /// queue.
    pub size: f64,
    /// Its rows by queue id (the first, should a run repeat one).
    pub rows: BTreeMap<&'a str, &'a Row>,
    /// What varies between runs beyond the rows' own slices, as the standard deviation of a
    /// time ratio's logarithm: its kind's [`execution_floor`], or the run's own slice noise
    /// ([`noise::slice_spread`]) when that is larger, unless [`Run::with_execution_spread`].
    pub execution_spread: f64,
    /// How much its level moves with the machine's speed against another workload's, as
    /// the standard deviation of a time ratio's logarithm ([`noise::level_spread`]; 0
    /// without a sentinel, or with [`Run::with_execution_spread`]).
    pub level_spread: f64,
}

impl<'a> Workload<'a> {
    /// The queue's row, if it was measured (status `ok`).
    pub fn ok(&self, queue: &str) -> Option<&'a Row> {
        self.rows.get(queue).copied().filter(|row| row.status == Status::Ok)
    }

    /// The queue's time here as the rankings use it: its own measurement, or, when it was
    /// cut off with a measured bound and the baseline was measured, the censored lower
    /// bound `bound ×` the baseline's time. `None` otherwise (not run, failed, n/a, or a
    /// cut-off without a bound, as in schema 2 files).
    pub fn timing(&self, queue: &str) -> Option<Timing<'a>> {
        let row = self.rows.get(queue).copied()?;
        match (row.status, row.bound) {
            (Status::Ok, _) => Some(Timing {
                row,
                factor: 1.0,
                censored: false,
                execution_spread: self.execution_spread,
                level_spread: self.level_spread,
            }),
            (Status::CutOff, Some(bound)) if bound.is_finite() && bound > 0.0 => {
                let baseline = self.ok(pqlab_queues::registry::BASELINE)?;
                Some(Timing {
                    row: baseline,
                    factor: bound,
                    censored: true,
                    execution_spread: self.execution_spread,
                    level_spread: self.level_spread,
                })
            }
            _ => None,
        }
    }

    /// The fastest measured row among those `eligible` admits.
    pub fn fastest(&self, eligible: impl Fn(&Row) -> bool) -> Option<&'a Row> {
        self.rows
            .values()
            .copied()
            .filter(|row| row.status == Status::Ok && eligible(row))
            .min_by(|a, b| a.median_ns.total_cmp(&b.median_ns))
    }

    /// The heuristic its searches used.
    pub fn heuristic(&self) -> Option<HeuristicKind> {
        self.facts.heuristic
    }

    /// Its cost scale.
    pub fn scale(&self) -> Option<CostScale> {
        self.facts.scale
    }

    /// Its per-cell store.
    pub fn store(&self) -> Option<StoreKind> {
        self.facts.store
    }

    /// Whether its map is a real Moving AI map.
    pub fn real(&self) -> bool {
        self.facts.real
    }

    /// The map's kind (`rooms`, `movingai-dao`, `synthetic`).
    pub fn map_kind(&self) -> &'a str {
        &self.facts.map_kind
    }

    /// Its map's terrain, from typed facts alone: none off a grid (a road graph, the queue
    /// alone); uniform on a Moving AI map (`real`: its passable cells cost one each); else
    /// its generated map's kind's, the `map` column being the [`MapSpec`] the lab built it
    /// from (`None` when it is not one).
    pub fn terrain(&self) -> Option<TerrainKind> {
        if self.facts.setup()?.graph != GraphKind::Grid {
            return None;
        }
        if self.real() {
            return Some(TerrainKind::Uniform);
        }
        self.facts.map.parse::<MapSpec>().ok().map(|spec| spec.kind.terrain())
    }

    /// The number of searches (or operations) one pass makes.
    pub fn units(&self) -> u64 {
        self.facts.units
    }
}

/// A queue's time on one workload, as evidence: measured, or censored (a cut-off's lower
/// bound, "at least this long").
#[derive(Clone, Copy, Debug)]
pub struct Timing<'a> {
    /// The row whose samples give the time: the queue's own, or for a cut-off the
    /// baseline's, which it took at least `factor` times.
    pub row: &'a Row,
    /// What the row's samples are multiplied by: 1 when measured, the bound when censored.
    pub factor: f64,
    /// Whether the time is a lower bound (the queue was cut off here).
    pub censored: bool,
    /// Its workload's [`Workload::execution_spread`].
    pub execution_spread: f64,
    /// Its workload's [`Workload::level_spread`].
    pub level_spread: f64,
}

impl Timing<'_> {
    /// The median time per unit (a lower bound when censored).
    pub fn median(&self) -> f64 {
        self.row.median_ns * self.factor
    }

    /// The median time per unit with its quartiles (lower bounds when censored).
    pub fn spread(&self) -> Spread {
        self.row.spread().times(self.factor)
    }
}

/// A run's rows, grouped into workloads, smallest frontier first within each kind.
#[derive(Clone, Debug)]
pub struct Run<'a> {
    /// Every row of the run.
    pub rows: &'a [Row],
    /// Every workload, by kind then size.
    pub workloads: Vec<Workload<'a>>,
}

impl<'a> Run<'a> {
    /// Groups `rows`.
    pub fn new(rows: &'a [Row]) -> Run<'a> {
        let own = noise::slice_spread(rows);
        let level_spread = noise::level_spread(rows).unwrap_or(0.0);
        let mut by_key: BTreeMap<(Kind, &str), Workload<'a>> = BTreeMap::new();
        for row in rows {
            let workload =
                by_key.entry((row.kind, row.workload.as_str())).or_insert_with(|| Workload {
                    kind: row.kind,
                    name: &row.workload,
                    facts: row,
                    size: f64::NAN,
                    rows: BTreeMap::new(),
                    execution_spread: execution_floor(row.kind).max(own.unwrap_or(0.0)),
                    level_spread,
                });
            workload.rows.entry(row.queue.as_str()).or_insert(row);
        }
        let mut workloads: Vec<Workload<'a>> = by_key.into_values().collect();
        for workload in &mut workloads {
            let sizes = |ok_only: bool| -> Vec<f64> {
                workload
                    .rows
                    .values()
                    .filter(|row| row.max_open > 0.0 && (!ok_only || row.status == Status::Ok))
                    .map(|row| row.max_open)
                    .collect()
            };
            let measured = sizes(true);
            let sizes = if measured.is_empty() { sizes(false) } else { measured };
            if !sizes.is_empty() {
                workload.size = quantile(&sizes, 0.5);
            }
        }
        workloads.sort_by(|a, b| {
            (a.kind, a.size.is_nan(), a.size)
                .partial_cmp(&(b.kind, b.size.is_nan(), b.size))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| a.name.cmp(b.name))
        });
        Run { rows, workloads }
    }

    /// What its intervals take as varying between runs on the workloads of `kind`
    /// ([`Workload::execution_spread`], the same on every one of them); the kind's floor
    /// when the run has none.
    pub fn execution_spread(&self, kind: Kind) -> f64 {
        self.workloads
            .iter()
            .filter(|w| w.kind == kind)
            .map(|w| w.execution_spread)
            .reduce(f64::max)
            .unwrap_or_else(|| execution_floor(kind))
    }

    /// The run with `spread` as what varies between runs beyond its slices, on every
    /// workload, and no level spread (0: intervals from the slices alone, as the rules'
    /// own tests read them).
    pub fn with_execution_spread(mut self, spread: f64) -> Run<'a> {
        for workload in &mut self.workloads {
            (workload.execution_spread, workload.level_spread) = (spread, 0.0);
        }
        self
    }

    /// The run with only the workloads `keep` admits; every row stays, so the run's noise,
    /// machine and id are the same.
    pub fn retain(mut self, keep: impl FnMut(&Workload<'a>) -> bool) -> Run<'a> {
        self.workloads.retain(keep);
        self
    }

    /// The workloads of `kind`, smallest first.
    pub fn of(&self, kind: Kind) -> impl Iterator<Item = &Workload<'a>> {
        self.workloads.iter().filter(move |w| w.kind == kind)
    }

    /// The workload of `kind` named like `of`: the same problems measured another way.
    pub fn twin(&self, of: &Workload<'_>, kind: Kind) -> Option<&Workload<'a>> {
        self.workloads.iter().find(|w| w.kind == kind && w.name == of.name)
    }

    /// `w` with the rows of its `loop` twin (fringe search, BFS), measured in the same
    /// rounds: a loop and a queue are then compared round by round like two queues, a
    /// cut-off loop by its censored bound over `w`'s baseline.
    pub fn with_loops(&self, w: &Workload<'a>) -> Option<Workload<'a>> {
        let loops = self.twin(w, Kind::Loop)?;
        let mut merged = w.clone();
        merged.rows.extend(loops.rows.iter().map(|(k, v)| (*k, *v)));
        Some(merged)
    }

    /// The workload of `of`'s kind searching `of`'s problems (same map, setup but for the
    /// search loop, heuristic, scale, store and count) with `search` instead.
    pub fn search_twin(&self, of: &Workload<'_>, search: SearchKind) -> Option<&Workload<'a>> {
        let setup = Setup { search, ..of.facts.setup()? };
        self.of(of.kind).find(|w| {
            w.facts.map == of.facts.map
                && w.facts.setup() == Some(setup)
                && w.heuristic() == of.heuristic()
                && w.scale() == of.scale()
                && w.store() == of.store()
                && w.units() == of.units()
        })
    }

    /// The A\* workload searching `of`'s map with the same setup and cost scale, under
    /// `heuristic` and with `store`: the same searches measured another way. Of several,
    /// the one with as many searches as `of` (the same problems, as generated problems
    /// are drawn from the map and their count), else the first.
    pub fn sibling(
        &self,
        of: &Workload<'_>,
        heuristic: HeuristicKind,
        store: StoreKind,
    ) -> Option<&Workload<'a>> {
        let mut found = self.of(Kind::Astar).filter(|o| {
            o.facts.map == of.facts.map
                && o.facts.setup() == of.facts.setup()
                && o.scale() == of.scale()
                && o.heuristic() == Some(heuristic)
                && o.store() == Some(store)
        });
        let first = found.next()?;
        Some(std::iter::once(first).chain(found).find(|o| o.units() == of.units()).unwrap_or(first))
    }

    /// The run id(s), joined.
    pub fn run_id(&self) -> String {
        self.distinct(|r| &r.run)
    }

    /// The cut-off of the profile that made the run ([`crate::lab::Settings::slowdown`]): a
    /// check pass over this many times the baseline's was stopped.
    pub fn slowdown(&self) -> f64 {
        self.rows
            .first()
            .map_or(crate::lab::Profile::Default, |r| crate::lab::Profile::of_run(&r.run))
            .slowdown()
    }

    /// The machine(s), joined.
    pub fn machine(&self) -> String {
        self.distinct(|r| &r.machine)
    }

    /// The CPU model(s), joined.
    pub fn cpu(&self) -> String {
        self.distinct(|r| &r.cpu)
    }

    /// The machine the run was measured on (its first row's: a run is made on one).
    pub fn platform(&self) -> crate::results::Platform {
        self.rows.first().map(|r| r.platform()).unwrap_or_default()
    }

    /// What ran beside the run: `plain`, what `PQLAB_CONDITIONS` said, or "not recorded"
    /// for a run written before the column.
    pub fn conditions(&self) -> String {
        match self.rows.first().map(|r| r.conditions.as_str()) {
            Some("") | None => "not recorded".to_owned(),
            Some(c) => c.to_owned(),
        }
    }

    /// The distinct values of a column, joined with `; `.
    pub fn distinct(&self, column: fn(&Row) -> &str) -> String {
        let values: BTreeSet<&str> = self.rows.iter().map(column).collect();
        values.into_iter().collect::<Vec<_>>().join("; ")
    }
}
