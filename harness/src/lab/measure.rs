//! One workload measured: every contender checked, then the checked ones timed together in
//! a [`Contest`]; then, on workloads marked for it, the queue alone on the workload's recorded
//! searches.

use std::time::{Duration, Instant};

use pqlab_queues::registry::{self, Entry};
use pqlab_queues::{KeyRule, Strategy};

use super::contest::Contest;
use super::rows::{describe, ordered_entries, untimed, untimed_row, WorkloadFacts};
use super::searches::{self, CheckQueue, Checking, Prepared, Record, Searchable, Untimed};
use super::settings::Settings;
use super::workloads::{Role, WorkloadSpec};
use super::{memory, replay};
use crate::results::{Kind, Provenance, Row, Status};
use crate::search::registry::LOOPS;
use crate::search::store::StoreKind;
use crate::search::trace::Trace;
use crate::search::{SearchKind, Setup};

/// The fastest queues of a store or tie workload's twin that it measures beside the baseline:
/// three show whether the store or the tie rule changes the order at the top, at a fifth
/// of the cost of every queue.
pub const TWIN_CONTENDERS: usize = 3;

/// How far behind the twin's [`TWIN_CONTENDERS`]th fastest queue another still counts
/// among them: 1.15×, the lead of the between-runs check. The rule: the cut never splits
/// near-ties, whose order on the twin changes from run to run. Measured (METHODOLOGY.md):
/// in two runs with the three fastest alone, 19 of the 20 tie-rule and generic-A\*
/// workloads timed another set of queues in each run, and 7 of the 8 band winners that
/// did not repeat were theirs.
pub const TWIN_NEAR: f64 = 1.15;

/// The share of a replayed workload's time left after its checks that its searches' rounds
/// get; its replays (their recording included) get the rest. Chosen, not tuned: in a
/// default run the replayed workloads' searches (38 to 48
/// contenders) got 4 to 12 rounds and their replays (33 to 41) 4 to 6, so neither falls
/// below the floor of 4 first (METHODOLOGY.md).
const SEARCHES_PART: f64 = 0.67;

/// How far behind its heat's leader a contender must be for racing to stop timing it: even
/// its fastest slice took more than 1.2 times the leader's slowest. The rule: every answer
/// the lab gives looks at queues within a few percent of the leader (tie groups at 2%,
/// the between-runs check at 15%), so a queue whose whole range lies 20% beyond the
/// leader's is out of every answer on that workload; its figures stay, from fewer rounds.
pub const RACE_FACTOR: f64 = 1.2;

/// Rounds between two races after the first (which follows the fewest rounds).
const RACE_EVERY: u32 = 2;

/// Rounds after which racing also runs across heats ([`focus`]): a queue clearly behind
/// the workload's leader stops, whatever its key rule and strategy. The rule: a heat's
/// leader keeps twice the floor of rounds for the answers one filter asks (`--keys`,
/// `--decrease-key`), and the rounds after go to the queues every answer compares.
/// Measured (METHODOLOGY.md): in a default run, queues more than 1.2× their
/// workload's fastest but still timed took 131 s of the 390 s timed, its leaders 51 s.
pub const FOCUS_AFTER: u32 = 4;

/// The fewest rounds the queues near a workload's leader get, whatever its share: when the
/// share holds no round past the floor, the race across heats ([`focus`]) runs at once and
/// the queues it leaves (those within [`RACE_FACTOR`] of the leader's range, peers and the
/// reference) get rounds up to this many; the others keep the floor's. The rule: the
/// figures every answer compares need twice the floor's slices, and they are a few of a
/// workload's forty-odd contenders. Measured (METHODOLOGY.md): between two quiet runs
/// without it, the leaders timed 4 slices or more in both moved a median 1.8%, 8.5% at
/// the 90th percentile, the others 4.1% and 14.0%, and a third to a half of the workloads
/// got no round past the floor. With it: none, and the leaders moved 3.3% / 9.6% (the
/// subset above was the costlier workloads: all of them with 4 slices, 2.9% / 8.8%).
pub const LEADER_ROUNDS: u32 = 4;

/// A row's heat in a race: queues race against the leader of their own key rule and
/// strategy, so that every answer a filter asks for (`--keys any`, `--decrease-key`) keeps
/// its own leader's rivals timed; peers, other loops and the oracle are not raced.
pub fn heat(row: &Row) -> Option<(KeyRule, Strategy)> {
    match row.kind {
        Kind::Astar | Kind::Replay | Kind::Synthetic => Some((row.keys?, row.strategy?)),
        _ => None,
    }
}

/// A row's heat from [`FOCUS_AFTER`] rounds on: every row [`heat`] races, in one heat.
pub fn focus(row: &Row) -> Option<()> {
    heat(row).map(|_| ())
}

/// A workload's contenders as they are checked: those that pass are entered in its
/// contest, the others' rows kept with why they are not timed.
pub(super) struct Entries<'p> {
    pub(super) contest: Contest<'p, Row>,
    pub(super) untimed: Vec<Row>,
    /// The pass cut-off rows' bounds are over: the baseline's checked pass.
    pub(super) base_pass: Duration,
}

impl<'p> Entries<'p> {
    /// No contender yet, timed in `contest`.
    pub(super) fn new(contest: Contest<'p, Row>) -> Self {
        Entries { contest, untimed: Vec::new(), base_pass: Duration::MAX }
    }

    /// Takes `row` with its check's outcome. A passed check enters the contest, the row
    /// given the check's counters and excess when `own_counters` (a peer's row keeps the
    /// baseline's), and the bytes its queue held per entry; any other outcome makes an
    /// untimed row saying why.
    pub(super) fn add(&mut self, mut row: Row, outcome: Checking<'p>, own_counters: bool) {
        match outcome {
            Ok(check) => {
                if own_counters {
                    row.set_counters(&check.counters);
                    if let Some((mean, max)) = check.excess {
                        (row.excess_mean, row.excess_max) = (Some(mean), Some(max));
                    }
                }
                row.bytes_per_entry = check.bytes_per_entry;
                row.held_bytes = check.held_bytes.map(|b| b as f64);
                let units = row.units;
                self.contest.enter_row(row, units, check);
            }
            Err(why) => self.untimed.push(untimed_row(row, why, self.base_pass)),
        }
    }
}

/// What the lab has measured of a workload that later workloads of the run use: the exact
/// queues that searched it, fastest first (a store workload measures the fastest of its flat
/// twin). Kept as facts, never read back from the result rows.
pub struct Measured {
    spec: WorkloadSpec,
    /// Each exact queue that searched it with its median time, fastest first.
    fastest_exact: Vec<(&'static str, f64)>,
}

impl Measured {
    /// The facts of `workload` from its A\* rows.
    fn of(spec: &WorkloadSpec, rows: &[Row]) -> Measured {
        let mut exact: Vec<&Row> = rows
            .iter()
            .filter(|r| r.kind == Kind::Astar && r.status == Status::Ok && r.is_exact())
            .collect();
        exact.sort_by(|a, b| a.median_ns.total_cmp(&b.median_ns));
        let fastest_exact =
            exact.iter().filter_map(|r| Some((registry::find(&r.queue)?.id, r.median_ns)));
        Measured { spec: spec.clone(), fastest_exact: fastest_exact.collect() }
    }
}

/// The queues `workload` is measured with, by its role, from the workloads `measured` before it: every queue on band, series, unreachable-goal and
/// real-map workloads; the baseline alone on a trade workload (the yardstick of approximate
/// order); on a store, tie or generic workload the baseline and the [`TWIN_CONTENDERS`]
/// fastest exact queues of its twin measured earlier in the run, with every queue within
/// [`TWIN_NEAR`] of the last of them (the same searches with
/// the flat store or under the A\*'s own tie rule; for the generic A\*, its map's band
/// workload), and on a tie or generic workload also the twin's fastest of each key rule, so
/// the best monotone queue is among them (every queue when the twin was not measured);
/// with them, every queue the series' earlier workloads timed, so that a band over several
/// of its workloads ranks more than the queues their twins happened to share (without
/// them, a default run's stores' 100–300 band ranked std's heap alone). A tie workload
/// whose search takes one queue strategy alone gets its twin's queues of that strategy
/// ([`takes`]).
fn contenders(spec: &WorkloadSpec, measured: &[Measured]) -> Vec<&'static Entry> {
    let twin: Box<dyn Fn(&WorkloadSpec) -> bool> = match spec.role {
        Role::Bands | Role::OtherSeries | Role::Real | Role::Unreachable => {
            return ordered_entries().collect()
        }
        Role::Trade => return vec![registry::baseline()],
        Role::Store => {
            let flat = spec.with_store(StoreKind::Flat);
            Box::new(move |m| m.same_searches(&flat))
        }
        Role::Ties => {
            let own = spec.with_setup(Setup { search: SearchKind::Astar, ..spec.series.setup });
            Box::new(move |m| m.same_searches(&own))
        }
        Role::Generic => Box::new(|m| {
            m.role == Role::Bands
                && m.map_name() == spec.map_name()
                && (m.series.heuristic, m.series.scale)
                    == (spec.series.heuristic, spec.series.scale)
        }),
    };
    let twin = measured.iter().find(|m| twin(&m.spec));
    let Some(twin) = twin.filter(|t| !t.fastest_exact.is_empty()) else {
        return ordered_entries().filter(|e| takes(spec, e)).collect();
    };
    let fastest = twin
        .fastest_exact
        .iter()
        .filter_map(|(id, _)| registry::find(id))
        .filter(|e| takes(spec, e));
    let others: Vec<(&str, f64)> = twin
        .fastest_exact
        .iter()
        .copied()
        .filter(|(id, _)| *id != registry::BASELINE)
        .filter(|(id, _)| registry::find(id).is_some_and(|e| takes(spec, e)))
        .collect();
    let cut = others.get(TWIN_CONTENDERS.min(others.len()).saturating_sub(1)).map(|(_, t)| t);
    let near = others.iter().filter(|(_, t)| cut.is_some_and(|cut| *t <= TWIN_NEAR * cut));
    let mut chosen = vec![registry::baseline()];
    chosen.extend(near.filter_map(|(id, _)| registry::find(id)));
    if matches!(spec.role, Role::Ties | Role::Generic) {
        for keys in [KeyRule::Any, KeyRule::Monotone, KeyRule::BoundedSpan, KeyRule::Narrow] {
            chosen.extend(fastest.clone().find(|e| e.keys == keys));
        }
    }
    for earlier in measured.iter().filter(|m| m.spec.same_series(spec)) {
        chosen.extend(earlier.fastest_exact.iter().filter_map(|(id, _)| registry::find(id)));
    }
    let mut seen = std::collections::HashSet::new();
    chosen.retain(|e| takes(spec, e) && seen.insert(e.id));
    chosen
}

/// Whether `spec`'s search takes queues of `entry`'s strategy ([`Needs::strategy`]); the
/// baseline is always checked (a search that refuses it leaves an `n/a` row).
///
/// [`Needs::strategy`]: crate::search::registry::Needs::strategy
fn takes(spec: &WorkloadSpec, entry: &Entry) -> bool {
    entry.id == registry::BASELINE
        || spec.series.setup.search.entry().needs.strategy.is_none_or(|s| s == entry.strategy)
}

/// What measuring one workload reads of the lab: its settings, provenance and pace, and
/// the workloads measured before it. The lab lends it for the workload and keeps the rows.
#[derive(Clone, Copy)]
pub(super) struct LabView<'l> {
    /// How much to measure.
    pub settings: &'l Settings,
    /// The run's machine, compiler and revision, copied into every row.
    pub provenance: &'l Provenance,
    /// This machine's first sentinel median over the reference machine's (1 before the
    /// first sentinel).
    pub pace: f64,
    /// What later workloads use of the workloads measured so far.
    pub measured: &'l [Measured],
}

impl LabView<'_> {
    /// The longest a contender's pass may take on a workload whose baseline pass took
    /// `baseline`: [`Settings::slowdown`] times it, and at least [`Settings::floor`]
    /// scaled by the pace. No limit ([`Duration::MAX`]) where the baseline has no pass (a
    /// search that refuses it, as the textbook Dijkstra refuses duplicate queues).
    pub fn limit(&self, baseline: Duration) -> Duration {
        let scaled = Duration::try_from_secs_f64(baseline.as_secs_f64() * self.settings.slowdown)
            .unwrap_or(Duration::MAX);
        self.settings.floor.mul_f64(self.pace).max(scaled)
    }
}

/// One workload being measured: it reads the lab ([`LabView`]) and makes the workload's rows;
/// the lab keeps them.
pub(super) struct Measuring<'l> {
    /// The lab, lent while the workload is measured.
    pub lab: LabView<'l>,
}

impl Measuring<'_> {
    /// Measures one workload, grid or road: every queue (on grids, with the other loops, the
    /// oracle and peers where it has them), then its replays. Returns its rows (with the
    /// time beyond its floor) and what later workloads use of it.
    pub(super) fn spec<P: Searchable>(
        &self,
        prepared: &P,
        deadline: Instant,
    ) -> (TimedRows, Measured) {
        let workload = describe(prepared, Kind::Astar);
        let grid = prepared.grid();
        // The oracle replays the baseline's searches: recorded first, as the contenders
        // checked below borrow them.
        let traces = grid
            .filter(|g| g.spec.with_oracle())
            .and_then(|g| searches::record_baseline(g, usize::MAX).ok().flatten());
        let mut keep = memory::Keep::new(self.lab.settings.memory);
        let contest = Contest::new(&format!("{}#0", workload.name), self.lab.settings.sample);
        let mut entries = Entries::new(contest);
        let limit = self.check_queues(prepared, &workload, &mut keep, &mut entries);
        if let Some(grid) = grid {
            self.check_loops(grid, &workload, limit, &mut keep, &mut entries);
            if let Some(traces) = &traces {
                self.check_floor_and_peers(grid, &workload, traces, limit, &mut keep, &mut entries);
            }
        }
        let replayed = grid.filter(|g| g.spec.replay);
        let part = if replayed.is_some() { SEARCHES_PART } else { 1.0 };
        let share = deadline.saturating_duration_since(Instant::now()).mul_f64(part);
        let TimedRows { mut rows, mut beyond_floor } =
            time(self.lab.settings, entries.contest, share, 0);
        rows.extend(entries.untimed);
        let measured = Measured::of(prepared.spec(), &rows);
        if let Some(grid) = replayed {
            let replays = self.run_replays(grid, &rows, deadline);
            rows.extend(replays.rows);
            beyond_floor += replays.beyond_floor;
        }
        (TimedRows { rows, beyond_floor }, measured)
    }

    /// Checks every contending queue, the baseline first (never cut off); returns the
    /// limit the other contenders' check passes get from the baseline's.
    fn check_queues<'p, P: Searchable>(
        &self,
        prepared: &'p P,
        workload: &WorkloadFacts,
        keep: &mut memory::Keep,
        entries: &mut Entries<'p>,
    ) -> Duration {
        let baseline = registry::baseline();
        let check = |entry: &Entry, limit| {
            registry::visit(entry.id, CheckQueue { prepared, limit }).expect("registered")
        };
        let base = keep.check(|| check(baseline, Duration::MAX));
        entries.base_pass = base.as_ref().map_or(Duration::MAX, |c| c.pass);
        let limit = self.lab.limit(entries.base_pass);
        let others = contenders(prepared.spec(), self.lab.measured);
        let others = others.into_iter().filter(|e| e.id != baseline.id);
        let outcomes: Vec<(&Entry, Checking<'p>)> = std::iter::once((baseline, base))
            .chain(others.map(|entry| (entry, keep.check(|| check(entry, limit)))))
            .collect();
        for (entry, outcome) in outcomes {
            let mut row = workload.row(self.lab.provenance, entry.id, Some(entry));
            row.units = prepared.count() as u64;
            entries.add(row, outcome, true);
        }
        limit
    }

    /// pqlab's search loops without a queue ([`LOOPS`]: fringe search, breadth-first
    /// search), each where its hook finds it exact; no row where it is not.
    fn check_loops<'p>(
        &self,
        grid: &'p Prepared,
        workload: &WorkloadFacts,
        limit: Duration,
        keep: &mut memory::Keep,
        entries: &mut Entries<'p>,
    ) {
        if !grid.spec.with_loops() {
            return;
        }
        for entry in LOOPS {
            let outcome = keep.check(|| searches::check_loop(entry, grid, limit));
            if matches!(outcome, Err(Untimed::NotApplicable(_))) {
                continue;
            }
            let mut row = WorkloadFacts { kind: Kind::Loop, ..workload.clone() }.row(
                self.lab.provenance,
                entry.id,
                None,
            );
            row.units = grid.count() as u64;
            entries.add(row, outcome, true);
        }
    }

    /// The oracle (replaying the baseline's recorded searches `traces`) and the peers,
    /// where the baseline was checked: their rows carry the baseline's counters (the
    /// oracle's its own), as they solve the same problems.
    fn check_floor_and_peers<'p>(
        &self,
        grid: &'p Prepared,
        workload: &WorkloadFacts,
        traces: &'p [Trace],
        limit: Duration,
        keep: &mut memory::Keep,
        entries: &mut Entries<'p>,
    ) {
        let Some(base) = entries.contest.tags().find(|r| r.queue == registry::BASELINE).cloned()
        else {
            return;
        };
        let oracle = keep.check(|| searches::check_oracle(grid, traces));
        let mut extras = vec![(crate::results::ORACLE, Kind::Oracle, oracle)];
        if grid.spec.with_peers(grid.instance.grid.cells()) {
            let peers = searches::check_peers(grid, limit, |check| keep.check(check));
            extras.extend(peers.into_iter().map(|(id, outcome)| (id, Kind::Peer, outcome)));
        }
        for (id, kind, outcome) in extras {
            let mut row =
                WorkloadFacts { kind, ..workload.clone() }.row(self.lab.provenance, id, None);
            copy_counters(&mut row, &base);
            row.units = base.units;
            entries.add(row, outcome, kind == Kind::Oracle);
        }
    }

    /// Records the workload's searches per strategy and key class, and times every queue
    /// replaying them, done by `deadline`; `searched` are the workload's A\* rows, whose
    /// statuses and counters the replays' rows take. Returns their rows, and the time
    /// beyond their floor.
    fn run_replays(&self, prepared: &Prepared, searched: &[Row], deadline: Instant) -> TimedRows {
        let workload = describe(prepared, Kind::Replay);
        let classes = [
            (Strategy::Duplicates, false),
            (Strategy::Duplicates, true),
            (Strategy::DecreaseKey, false),
            (Strategy::DecreaseKey, true),
        ];
        let mut recorded = Vec::new();
        for (strategy, monotone) in classes {
            let Some(recorder) = replay::recorder(strategy, monotone) else { continue };
            if !searches::takes_keys(recorder.keys, &prepared.heuristic) {
                continue;
            }
            let record = Record { prepared, max_bytes: usize::MAX };
            match registry::visit(recorder.id, record).expect("registered") {
                Ok(traces) => recorded.extend(traces.map(|t| (strategy, monotone, t))),
                Err(error) => {
                    eprintln!("pqlab: no traces for {} on {}: {error}", recorder.id, workload.name)
                }
            }
        }
        let searched_as =
            |queue: &str| searched.iter().find(|r| r.kind == Kind::Astar && r.queue == queue);
        let contest = Contest::new(&format!("{}#0", workload.name), self.lab.settings.sample);
        let mut entries = Entries::new(contest);
        for (strategy, monotone, traces) in &recorded {
            let units = replay::operations(traces);
            let class = ordered_entries().filter(|e| {
                e.is_exact() && e.strategy == *strategy && (e.keys != KeyRule::Any) == *monotone
            });
            // The class's first queue checks without a limit; the others get its pass's.
            entries.base_pass = Duration::MAX;
            for entry in class {
                let mut row = workload.row(self.lab.provenance, entry.id, Some(entry));
                let ok = |r: &&Row| r.status == Status::Ok;
                let sizes = searched_as(entry.id).filter(ok).or(searched_as(registry::BASELINE));
                if let Some(from) = sizes.filter(ok) {
                    copy_counters(&mut row, from);
                }
                row.units = units;
                if let Some(status) = searched_as(entry.id).map(|r| r.status) {
                    if status != Status::Ok {
                        let note =
                            format!("not replayed: its whole searches here were {}", status.name());
                        entries.untimed.push(untimed(row, status, note));
                        continue;
                    }
                }
                let first = entries.base_pass == Duration::MAX;
                let limit = if first { Duration::MAX } else { self.lab.limit(entries.base_pass) };
                let check = replay::CheckReplay { traces, limit };
                let outcome = registry::visit(entry.id, check).expect("registered");
                if let (true, Ok(check)) = (first, &outcome) {
                    entries.base_pass = check.pass;
                }
                entries.add(row, outcome, false);
            }
        }
        let share = deadline.saturating_duration_since(Instant::now());
        let mut timed = time(self.lab.settings, entries.contest, share, 0);
        timed.rows.extend(entries.untimed);
        timed
    }
}

/// A contest's rows, and how long the rounds beyond its floor took: those its share
/// allowed from the [`LEADER_ROUNDS`]th on (with no share, the leaders take theirs anyway,
/// and the others stop at the fewest rounds).
pub(super) struct TimedRows {
    /// The contenders' rows, with their samples.
    pub rows: Vec<Row>,
    /// The time of the rounds past the floor.
    pub beyond_floor: Duration,
}

/// Times `contest` within `share`, as rounds' group `group`: the `settings`' fewest rounds
/// for every contender, then, while `share` holds another round of those still in the race,
/// up to the most rounds, racing them every [`RACE_EVERY`] rounds ([`Contest::race`] by
/// [`RACE_FACTOR`], each heat a key rule and strategy: see [`heat`]; from [`FOCUS_AFTER`]
/// rounds on, also all of them in one heat: see [`focus`]); the queues near the leader get
/// [`LEADER_ROUNDS`] even past `share`. Returns its rows with their samples, and the
/// time beyond its floor.
pub(super) fn time(
    settings: &Settings,
    mut contest: Contest<'_, Row>,
    share: Duration,
    group: u32,
) -> TimedRows {
    let mut beyond_floor = Duration::ZERO;
    if contest.is_empty() {
        return TimedRows { rows: Vec::new(), beyond_floor };
    }
    let started = Instant::now();
    let (min, max) = (settings.min_rounds, settings.max_rounds);
    contest.time(min);
    loop {
        contest.race(RACE_FACTOR, heat);
        if contest.rounds() >= FOCUS_AFTER {
            contest.race(RACE_FACTOR, focus);
        }
        let left = share.saturating_sub(started.elapsed());
        let more = contest.rounds_within(left, 0, max.saturating_sub(contest.rounds()));
        if more == 0 {
            // The share is spent: the queues near the workload's leader still get theirs.
            let leaders = LEADER_ROUNDS.min(max).saturating_sub(contest.rounds());
            if leaders > 0 {
                contest.race(RACE_FACTOR, focus);
                contest.time(leaders);
            }
            break;
        }
        let (before, round) = (contest.rounds(), Instant::now());
        contest.time(more.min(RACE_EVERY));
        if before >= LEADER_ROUNDS {
            beyond_floor += round.elapsed();
        }
    }
    let timed = contest.finish().into_iter().map(|(mut row, samples)| {
        samples.write(&mut row);
        row.group = group;
        row
    });
    TimedRows { rows: timed.collect(), beyond_floor }
}

/// Copies the search counters of `from` (the same problems, searched by the baseline or
/// the same queue).
fn copy_counters(row: &mut Row, from: &Row) {
    row.expansions = from.expansions;
    row.pushes = from.pushes;
    row.pops = from.pops;
    row.stale_pops = from.stale_pops;
    row.decrease_keys = from.decrease_keys;
    row.reopenings = from.reopenings;
    row.max_frontier = from.max_frontier;
    row.max_open = from.max_open;
    row.open_p50 = from.open_p50;
    row.open_p90 = from.open_p90;
    row.open_p99 = from.open_p99;
    row.open_max = from.open_max;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::settings::Profile;
    use crate::lab::workloads::builtin;
    use crate::maps::grid::CostKind;
    use crate::search::SearchKind;
    use pqlab_queues::Strategy;

    /// A band twin's exact queues, fastest first, with their times, as [`Measured::of`]
    /// keeps them: the third but the baseline (`two-level-dk`) is more than [`TWIN_NEAR`]
    /// ahead of the fourth.
    const FASTEST: [(&str, f64); 6] = [
        ("stacked-packed-radix-heap-dup", 100.0),
        ("packed-radix-heap-dup", 101.0),
        (registry::BASELINE, 102.0),
        ("two-level-dk", 103.0),
        ("radix-heap-dup", 130.0),
        ("dary4-dk", 131.0),
    ];

    fn ids(entries: Vec<&'static Entry>) -> Vec<&'static str> {
        entries.into_iter().map(|e| e.id).collect()
    }

    /// The rows [`time`] gives a field on a steady simulated machine within `share`, as
    /// `(queue, slices, raced)`: the baseline's heat (any keys, duplicates) leads, a
    /// comparison queue of its heat 3 times the baseline, the monotone heat's two queues
    /// close to each other and 1.5 times the leader.
    fn raced_field(share: std::time::Duration) -> Vec<(&'static str, usize, bool)> {
        use crate::lab::sim::{check, Machine, SimClock};
        let machine = Machine::steady();
        let mut contest = Contest::with_clock(
            "focus",
            std::time::Duration::from_millis(5),
            Box::new(SimClock(machine.clone())),
        );
        let field = [
            (registry::BASELINE, 100_000.0),
            ("quickheap-dup", 95_000.0),
            ("dary4-dup", 300_000.0),
            ("radix-heap-dup", 150_000.0),
            ("packed-radix-heap-dup", 160_000.0),
        ];
        let provenance = crate::results::Provenance::fixed("focus", "c");
        for (queue, cost) in field {
            let row = WorkloadFacts::held(10).row(&provenance, queue, registry::find(queue));
            contest.enter_row(row, 1, check(&machine, cost));
        }
        let settings = Settings::of(Profile::Default, Default::default(), None, None);
        let rows = time(&settings, contest, share, 0).rows;
        let queue = |r: &Row| registry::find(&r.queue).expect("registered").id;
        rows.iter().map(|r| (queue(r), r.samples as usize, r.raced)).collect()
    }

    /// Rule: racing stops a queue clearly behind its own heat's leader from the first race,
    /// and one clearly behind the workload's leader, whatever its heat, only from
    /// [`FOCUS_AFTER`] rounds on; the rounds left go to the others.
    #[test]
    fn a_queue_far_behind_the_workloads_leader_stops_after_the_focus_rounds() {
        let settings = Settings::of(Profile::Default, Default::default(), None, None);
        let (first, focus, all) = (settings.min_rounds as usize, FOCUS_AFTER as usize, 25);
        assert_eq!(
            raced_field(std::time::Duration::from_secs(60)),
            [
                (registry::BASELINE, all, false),
                ("quickheap-dup", all, false),
                ("dary4-dup", first, true),
                ("radix-heap-dup", focus, true),
                ("packed-radix-heap-dup", focus, true),
            ]
        );
        assert_eq!(settings.max_rounds as usize, all);
    }

    /// Rule: when the share holds no round past the floor, the queues near the workload's
    /// leader still get [`LEADER_ROUNDS`]; the others keep the floor's, marked raced.
    #[test]
    fn the_leaders_get_their_rounds_when_the_share_is_spent() {
        let settings = Settings::of(Profile::Default, Default::default(), None, None);
        let (first, leaders) = (settings.min_rounds as usize, LEADER_ROUNDS as usize);
        assert!(first < leaders);
        assert_eq!(
            raced_field(std::time::Duration::ZERO),
            [
                (registry::BASELINE, leaders, false),
                ("quickheap-dup", leaders, false),
                ("dary4-dup", first, true),
                ("radix-heap-dup", first, true),
                ("packed-radix-heap-dup", first, true),
            ]
        );
    }

    /// Rule: a store workload times the baseline, its flat twin's three fastest, and every
    /// queue its series' earlier workloads timed (the same store on other maps), not those
    /// of another store's series.
    #[test]
    fn a_store_workload_times_what_its_series_timed_before_it() {
        let specs = builtin(Profile::Default);
        let stores: Vec<&WorkloadSpec> = specs.iter().filter(|s| s.role == Role::Store).collect();
        let (earlier, later) = stores
            .iter()
            .enumerate()
            .find_map(|(i, a)| Some((*a, *stores[i + 1..].iter().find(|b| a.same_series(b))?)))
            .expect("a store series of two workloads or more");
        let other =
            stores.iter().find(|s| s.series.store != later.series.store).expect("two store kinds");
        let flat = later.with_store(StoreKind::Flat);
        let twin = Measured { spec: flat, fastest_exact: FASTEST.to_vec() };
        let measured_as = |spec: &WorkloadSpec, ids: &[&'static str]| Measured {
            spec: spec.clone(),
            fastest_exact: ids.iter().map(|id| (*id, 1.0)).collect(),
        };
        let measured = [
            measured_as(earlier, &["dary4-dk", registry::BASELINE]),
            measured_as(other, &["skip-list-dk"]),
            twin,
        ];
        assert_eq!(
            ids(contenders(later, &measured)),
            [registry::BASELINE, FASTEST[0].0, FASTEST[1].0, FASTEST[3].0, "dary4-dk"]
        );
    }

    /// Rule: a twin's queue within [`TWIN_NEAR`] of its third fastest (the baseline aside)
    /// is timed with them, so the cut never splits near-ties; one past it is not.
    #[test]
    fn the_twins_near_ties_at_the_cut_are_timed_together() {
        let specs = builtin(Profile::Default);
        let store = specs.iter().find(|s| s.role == Role::Store).expect("a store workload");
        let flat = store.with_store(StoreKind::Flat);
        let mut fastest = FASTEST;
        // 118 is within 1.15 × 103; 131 is not.
        fastest[4].1 = 118.0;
        let twin = Measured { spec: flat, fastest_exact: fastest.to_vec() };
        assert_eq!(
            ids(contenders(store, &[twin])),
            [registry::BASELINE, FASTEST[0].0, FASTEST[1].0, FASTEST[3].0, FASTEST[4].0]
        );
    }

    #[test]
    fn a_generic_workload_times_the_baseline_and_its_band_twins_leaders() {
        let specs = builtin(Profile::Default);
        let generic = |costs| {
            specs
                .iter()
                .find(|s| s.role == Role::Generic && s.series.setup.costs == costs)
                .expect("the catalogue has generic workloads")
        };
        let float = generic(CostKind::Float);
        let band = specs
            .iter()
            .find(|s| s.role == Role::Bands && s.map_name() == float.map_name())
            .expect("a generic workload's map is a band's");
        // No twin measured yet: every queue.
        assert_eq!(contenders(float, &[]).len(), ordered_entries().count());
        let twin = Measured { spec: band.clone(), fastest_exact: FASTEST.to_vec() };
        // The baseline, the twin's three fastest but the baseline, then the twin's fastest
        // of each key rule not among them, whatever the cost type and problem count.
        let mut expected = vec![registry::BASELINE, FASTEST[0].0, FASTEST[1].0, FASTEST[3].0];
        for keys in [KeyRule::Any, KeyRule::Monotone, KeyRule::BoundedSpan, KeyRule::Narrow] {
            let mut ids = FASTEST.iter().map(|(id, _)| *id);
            let first = ids.find(|id| registry::find(id).unwrap().keys == keys);
            expected.extend(first.filter(|id| !expected.contains(id)));
        }
        for costs in [CostKind::Integer, CostKind::Float] {
            assert_eq!(ids(contenders(generic(costs), std::slice::from_ref(&twin))), expected);
        }
        // Another map's band is not its twin.
        let other = specs
            .iter()
            .find(|s| s.role == Role::Bands && s.map_name() != float.map_name())
            .expect("more than one band map");
        let stranger = Measured { spec: other.clone(), ..twin };
        assert_eq!(contenders(float, &[stranger]).len(), ordered_entries().count());
        // A band workload times every queue whatever was measured.
        assert_eq!(contenders(band, &[]).len(), ordered_entries().count());
    }

    #[test]
    fn a_baseline_without_a_pass_sets_no_limit_and_one_with_a_pass_its_multiple() {
        let settings = Settings::of(Profile::Default, Default::default(), None, None);
        let provenance = crate::results::Provenance::fixed("focus", "c");
        let lab =
            LabView { settings: &settings, provenance: &provenance, pace: 1.0, measured: &[] };
        assert_eq!(lab.limit(Duration::MAX), Duration::MAX);
        let pass = Duration::from_secs(1000);
        assert_eq!(lab.limit(pass), pass.mul_f64(settings.slowdown));
    }

    #[test]
    fn a_search_taking_decrease_key_alone_times_the_baseline_and_decrease_key_queues() {
        let specs = builtin(Profile::Default);
        let textbook = specs
            .iter()
            .find(|s| s.series.setup.search == SearchKind::DijkstraTextbook)
            .expect("the catalogue has textbook Dijkstra workloads");
        let own = textbook.with_setup(Setup { search: SearchKind::Astar, ..textbook.series.setup });
        let twin = Measured { spec: own, fastest_exact: FASTEST.to_vec() };
        for measured in [&[][..], std::slice::from_ref(&twin)] {
            let chosen = contenders(textbook, measured);
            let others = chosen.iter().filter(|e| e.id != registry::BASELINE);

            assert!(others.clone().all(|e| e.strategy == Strategy::DecreaseKey));
            assert!(others.count() > 0);
        }
    }
}
