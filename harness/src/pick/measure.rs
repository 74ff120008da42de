//! `pick --map --measure` and `pick --trace`'s answers from timing on this machine: the
//! contenders are timed by [`crate::lab::ondemand`], and their rows answered as any run's.
//! A replay's rule of evidence is in [`super::trace`].

use std::path::Path;

use anyhow::{Context, Result};
use pqlab_queues::registry::{self, Entry, BASELINE};
use pqlab_queues::trace::UserTrace;
use pqlab_queues::Strategy;

use super::query::describe;
use super::trace::{excluded, searches, Replayed};
use super::{build_answer, Answer, Backing, Query};
use crate::analysis::rank::{rank_weighted, Standing};
use crate::analysis::replays::Agreement;
use crate::analysis::{Findings, Run};
use crate::format::{count, plural};
use crate::lab::ondemand::{search_facts, OnDemand, Plan, Racing, Stop};
use crate::lab::rows::WorkloadFacts;
use crate::lab::searches::Prepared;
use crate::lab::workloads::{Role, Source, WorkloadSpec};
use crate::maps::instance::{Instance, Sample};
use crate::results::{Kind, Row, Status};
use crate::search::trace::Trace;
use crate::search::Series;

/// Times the baseline and `candidates` on the map itself, interleaved and raced as the lab
/// races them, within `plan` (see [`OnDemand::time_until`]), and answers from their rows.
pub fn on_map(
    instance: Instance,
    query: &Query,
    candidates: &[String],
    plan: Plan,
) -> Result<Answer> {
    let spec = WorkloadSpec {
        source: Source::MovingAi { map: instance.name.clone().into(), sample: Sample::All },
        series: query.series,
        role: Role::Real,
        replay: false,
    };
    let prepared = Prepared::with_instance(spec, instance)?;
    let workload = search_facts(&prepared, "measured");
    let mut ids: Vec<&str> = vec![BASELINE];
    ids.extend(candidates.iter().map(String::as_str).filter(|c| *c != BASELINE));
    let entries = ids
        .iter()
        .map(|id| registry::find(id).with_context(|| format!("unknown queue {id}")))
        .collect::<Result<Vec<_>>>()?;
    let mut timing = OnDemand::new(workload, "-measure", Racing::Lab);
    timing.check_searches(&prepared, &entries);
    if let Some(wrong) = timing.untimed().iter().find(|r| r.status == Status::Failed) {
        anyhow::bail!("{} gave a wrong answer: {}", wrong.queue, wrong.note);
    }
    for row in timing.untimed() {
        eprintln!("pqlab: {} is not timed on this map: {}", row.queue, row.note);
    }
    let stop = timing.time_until(plan, |rows| tie_group(rows, Kind::Astar, query));
    let rows = timing.finish();
    let run = Run::new(&rows);
    let w = run.of(Kind::Astar).next().context("a measured workload")?;
    let weighted = [(w, 1.0)];
    let standings: Vec<Standing<'_>> = rank_weighted(&weighted, |r| query.admits(r));
    // The series its rows were measured in, as any run's evidence is named.
    let measured = Series::of(w).context("a measured workload's series")?.describe();
    let backing = vec![Backing {
        series: measured.clone(),
        band: None,
        source: format!(
            "whole searches ({}) timed on this machine in interleaved rounds",
            plural(prepared.instance.problems.len(), "problem")
        ),
        workloads: vec![(w.name.to_owned(), w.size, w.map_kind().to_owned())],
        real_maps: true,
        trace: None,
        weak: false,
    }];
    let asked = format!("{} (measured here: {measured})", prepared.instance.name);
    let caveats = vec![stop.sentence(plan.budget)];
    let mut answer =
        build_answer(&Findings::of(&run), &weighted, &standings, backing, asked, caveats);
    // A queue asked with `--queue` that the query's filters leave out is said, not dropped.
    answer.not_ranked.extend(
        rows.iter().filter(|r| r.status == Status::Ok && !query.admits(r)).map(|r| {
            (r.queue.clone(), format!("timed, but outside the query ({})", describe(query)))
        }),
    );
    Ok(answer)
}

/// The winner's tie group on the workload of `kind` among `rows`, as the query ranks it:
/// what on-demand timing waits to hold still.
pub(super) fn tie_group(rows: &[Row], kind: Kind, query: &Query) -> Vec<String> {
    let run = Run::new(rows);
    let standings = run
        .of(kind)
        .next()
        .map(|w| rank_weighted(&[(w, 1.0)], |r| query.admits(r)))
        .unwrap_or_default();
    standings.iter().filter(|s| s.contends && s.tied).map(|s| s.queue.to_owned()).collect()
}

/// Checks and times every exact queue replaying `trace` (read from `path`), interleaved,
/// with progress bars on stderr; answers from that measurement, citing `agreement` (the
/// lab's replays against its whole searches) as the evidence rule.
pub fn on_trace(
    path: &Path,
    trace: &UserTrace,
    query: &Query,
    plan: Plan,
    agreement: Option<&Agreement>,
) -> Result<Replayed> {
    let (rows, wrong, stop) = replay_rows(path, trace, query, plan)?;
    let run = Run::new(&rows);
    let w = run.of(Kind::Replay).next().context("a replayed workload")?;
    let weighted = [(w, 1.0)];
    let standings = rank_weighted(&weighted, |r| query.admits(r));
    let backing = vec![Backing {
        series: format!(
            "its {} operations over {}",
            count(trace.ops().len() as f64),
            searches(trace.facts().searches)
        ),
        band: None,
        source: "the queue alone timed on this machine in interleaved rounds".into(),
        // The trace is the one workload: its heading names it, and its summary is printed.
        workloads: Vec::new(),
        real_maps: false,
        trace: Some(path.display().to_string()),
        weak: false,
    }];
    let asked = format!(
        "your trace {} ({} keys{})",
        path.display(),
        trace.keys(),
        if query.decrease_key { ", decrease-key queues" } else { "" }
    );
    let rule = match agreement {
        Some(a) => format!(
            "{} Your search's own work (successors, per-node state) is not in these times: measure the winner in your search before you trust a gap of a few percent.",
            a.sentence()
        ),
        None => "A replay times the queue alone, without the search around it; no run here replayed the lab's workloads, so how often a replay's winner is the whole search's is not known here (`cargo bench` measures it).".into(),
    };
    let caveats = vec![
        stop.sentence(plan.budget),
        "Times are per operation of your trace, the same count for every queue: a duplicate-insertion queue's extra pushes and stale pops are inside its time.".into(),
        rule,
    ];
    let answer = build_answer(&Findings::of(&run), &weighted, &standings, backing, asked, caveats);
    Ok(Replayed { answer, wrong })
}

/// Every exact queue's row replaying `trace`, timed on demand within `plan` (the queues
/// the query or the trace's keys exclude are n/a), the queues that failed their check
/// (`queue: what it popped`), and why the timing stopped.
fn replay_rows(
    path: &Path,
    trace: &UserTrace,
    query: &Query,
    plan: Plan,
) -> Result<(Vec<Row>, Vec<String>, Stop)> {
    let name = path.file_name().map_or("trace".into(), |n| n.to_string_lossy().into_owned());
    // A workload without a search, as the held sizes': the queue alone, per operation.
    let workload = WorkloadFacts {
        kind: Kind::Replay,
        name: format!("trace/{name}"),
        map: name.clone(),
        map_kind: "trace".into(),
        ..WorkloadFacts::held(0)
    };
    let by_strategy = [Strategy::Duplicates, Strategy::DecreaseKey]
        .map(|strategy| (strategy, [Trace::of_user(trace, strategy)]));
    // Every queue is timed per logical operation of the trace, whatever its strategy adds.
    let units = trace.ops().len() as u64;
    let mut entries: Vec<&'static Entry> =
        registry::ENTRIES.iter().filter(|e| e.is_exact()).collect();
    entries.sort_by_key(|e| (e.id != BASELINE, e.id));
    let mut timing = OnDemand::new(workload, "-trace", Racing::Lab);
    let bar = crate::format::progress(entries.len() as u64, "check passes");
    for entry in entries {
        bar.inc(1);
        match excluded(entry, trace, query) {
            Some(why) => timing.skip(entry, Status::NotApplicable, why),
            None => {
                let (_, traces) =
                    by_strategy.iter().find(|(s, _)| *s == entry.strategy).expect("both");
                timing.check_replay(entry, traces, units);
            }
        }
    }
    bar.finish_and_clear();
    let wrong: Vec<String> = timing
        .untimed()
        .iter()
        .filter(|r| r.status == Status::Failed)
        .map(|r| format!("{}: {}", r.queue, r.note))
        .collect();
    anyhow::ensure!(!timing.is_empty(), "no queue could replay {}", path.display());
    let stop = timing.time_until(plan, |rows| tie_group(rows, Kind::Replay, query));
    Ok((timing.finish(), wrong, stop))
}
