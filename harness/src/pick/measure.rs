//! `pick --map --measure` and `pick --trace`'s answers from timing on this machine: the
//! contenders are timed by [`crate::lab::ondemand`], and their rows answered as any run's.

use anyhow::{Context, Result};
use pqlab_queues::registry::{self, BASELINE};

use super::query::describe;
use super::{build_answer, Answer, Backing, Query};
use crate::analysis::rank::{rank_weighted, Standing};
use crate::analysis::{Findings, Run};
use crate::format::plural;
use crate::lab::ondemand::{search_facts, OnDemand, Plan, Racing};
use crate::lab::searches::Prepared;
use crate::lab::suites::{Role, Source, WorkloadSpec};
use crate::maps::instance::{Instance, Sample};
use crate::results::{Kind, Row, Status};
use crate::search::store::StoreKind;

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
        setup: crate::search::Setup::GRID_ASTAR,
        heuristic: query.heuristic,
        scale: query.scale,
        store: StoreKind::Flat,
        role: Role::Real,
        replay: false,
    };
    let prepared = Prepared::with_instance(spec, instance, query.rules())?;
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
    let backing = vec![Backing {
        series: query.series().describe(),
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
    let asked =
        format!("{} (measured here: {})", prepared.instance.name, query.series().describe());
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
