//! An answer ranked by latency: each ranked queue's per-search latency, and the ranking
//! by the 99th-percentile time of one search (`pick --latency`).

use anyhow::{bail, Result};

use super::{Answer, Query, Ranked, RankedBy};
use crate::analysis::latency::latency;
use crate::analysis::Workload;
use crate::format::{plural, ratio};

/// Gives each ranked queue its per-search latency over the `workloads` that timed each
/// search (whole searches; the queue alone at held sizes has no searches), and, when
/// `query` asks for it, ranks by it (lowest p99 first), saying which weighted workloads
/// were left out; refuses with the reason when none timed their searches.
pub fn with_latency(
    answer: &mut Answer,
    workloads: &[(&Workload<'_>, f64)],
    query: &Query,
) -> Result<()> {
    let timed = |w: &Workload<'_>| w.rows.values().any(|r| r.search_p99_ns.is_some());
    let searched: Vec<(&Workload<'_>, f64)> =
        workloads.iter().filter(|(w, _)| timed(w)).copied().collect();
    for r in &mut answer.ranking {
        r.latency = latency(&searched, &r.queue, |row| query.admits(row));
    }
    if !query.latency {
        return Ok(());
    }
    let untimed: Vec<&Workload<'_>> =
        workloads.iter().map(|(w, _)| *w).filter(|w| !timed(w)).collect();
    if searched.is_empty() {
        let schema = workloads.first().map_or(0, |(w, _)| w.facts.schema);
        if schema < 4 {
            bail!(
                "run {} has no per-search latency (a schema {schema} run: runs of schema 4 and later time each search); run `cargo bench`, or ask without --latency",
                answer.run
            );
        }
        bail!(
            "no per-search latency answers this: the workloads that answer ({}) time the queue alone at held sizes, with no searches to time; ask without --latency",
            untimed.iter().map(|w| w.name).collect::<Vec<_>>().join(", ")
        );
    }
    if !untimed.is_empty() {
        answer.caveats.push(format!(
            "Ranked by latency over the {} that timed each search; {} of the queue alone at held sizes, with no searches to time, {} left out: {}.",
            plural(searched.len(), "workload"),
            plural(untimed.len(), "workload"),
            if untimed.len() == 1 { "is" } else { "are" },
            untimed.iter().map(|w| w.name).collect::<Vec<_>>().join(", ")
        ));
    }
    by_latency(answer)
}

/// Reorders `answer` by p99 per search and says so in its verdict: the queues with
/// latency figures on every workload, lowest first. A p99 is one figure a workload, with
/// no interval, so no tie group is claimed.
fn by_latency(answer: &mut Answer) -> Result<()> {
    let (mut timed, untimed): (Vec<Ranked>, Vec<Ranked>) =
        answer.ranking.drain(..).partition(|r| r.latency.is_some());
    if timed.is_empty() {
        bail!("no queue has per-search latency on every workload answering this: ask without --latency");
    }
    let p99 = |r: &Ranked| r.latency.map_or(f64::INFINITY, |l| l.p99_vs_best);
    timed.sort_by(|a, b| p99(a).total_cmp(&p99(b)));
    let best = &timed[0];
    let next: Vec<String> = timed
        .iter()
        .skip(1)
        .take(3)
        .map(|r| format!("`{}` {}", r.queue, ratio(p99(r) / p99(best))))
        .collect();
    let l = best.latency.expect("partitioned on it");
    answer.verdict = format!(
        "For the lowest 99th-percentile search, use `{}`: p99 {} a search (median {}, slowest {}); next {}. \
         A p99 is one figure a workload, without an interval: figures a few percent apart may swap between runs.",
        best.queue,
        crate::format::time(l.p99_ns),
        crate::format::time(l.p50_ns),
        crate::format::time(l.max_ns),
        if next.is_empty() { "none measured".to_owned() } else { next.join(", ") }
    );
    answer.not_ranked.extend(
        untimed
            .into_iter()
            .map(|r| (r.queue, "no per-search latency on every workload".to_owned())),
    );
    for r in &mut timed {
        r.tied = false;
    }
    answer.ranking = timed;
    answer.ranked_by = RankedBy::Latency;
    Ok(())
}
