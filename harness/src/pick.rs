//! `pqlab pick`: which queue for a frontier of N open nodes, from the latest results.
//!
//! The answer comes from the two workloads whose frontier sizes bracket N: each queue's
//! median (and quartiles) is interpolated linearly in log size between its times on those
//! same two workloads, so every queue is judged on the same problems. Whole A* searches
//! answer first; beyond the sizes A* produced, the synthetic held-size workloads (the
//! queue alone) answer, and the answer says so. Outside every measured size the nearest
//! workload answers and the answer warns that it extrapolates. A queue cut off or failed
//! on a bracketing workload is not ranked (it is listed, with the reason); the band
//! containing N is ranked too, over all its workloads, as a second opinion.

use std::fmt;
use std::path::Path;

use anyhow::{ensure, Result};
use pqlab_queues::Strategy;

use crate::analysis::{self, Lab, Workload, BASELINE};
use crate::format::{count, plural, ratio, time};
use crate::results::{self, Kind, Row, Status};

/// Which keys the caller's search produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Keys {
    /// Keys never fall below the last popped one (A* with a consistent heuristic): every
    /// queue works (bounded-span queues also need the largest key − floor declared up
    /// front, as the lab's A* does).
    Monotone,
    /// Any keys: only the queues that accept any key.
    Any,
}

/// What the caller needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// The frontier size: the most open nodes at once.
    pub frontier: f64,
    /// Only decrease-key queues.
    pub decrease_key: bool,
    /// Which keys the search produces.
    pub keys: Keys,
}

impl Query {
    /// Whether a queue's row meets the query.
    fn admits(&self, row: &Row) -> bool {
        (!self.decrease_key || analysis::strategy(row) == Some(Strategy::DecreaseKey))
            && (self.keys == Keys::Monotone || analysis::accepts_any_keys(row))
    }
}

/// One queue's estimate at the requested size.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The queue id.
    pub queue: String,
    /// Its keys column (`any keys`, `monotone`, ...).
    pub keys: String,
    /// Interpolated median (ns per search, or per operation).
    pub median: f64,
    /// Interpolated p25.
    pub p25: f64,
    /// Interpolated p75.
    pub p75: f64,
}

/// The answer to a query.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    /// The query.
    pub query: Query,
    /// The run the rows come from.
    pub run: String,
    /// The machine it ran on.
    pub machine: String,
    /// Where the figures come from.
    pub kind: Kind,
    /// The bracketing workloads: `(name, size)`, one or two.
    pub bracket: Vec<(String, f64)>,
    /// The queues meeting the query, fastest first.
    pub ranked: Vec<Estimate>,
    /// The baseline's estimate, whether or not it meets the query.
    pub baseline: Option<f64>,
    /// Queues meeting the query that could not be ranked, with the reason.
    pub unranked: Vec<(String, String)>,
    /// The band containing the size, ranked over all its workloads, in a sentence.
    pub band: Option<String>,
    /// What to keep in mind.
    pub caveats: Vec<String>,
}

/// The message for a results folder with no run in it.
pub fn no_results(results_dir: &Path) -> String {
    format!(
        "no results yet: {} holds no run. Measure first with `cargo bench` (the quick \
         profile, `PQLAB_QUICK=1 cargo bench`, writes to results/quick: pass \
         `--results results/quick`), then ask again.",
        results_dir.join("runs").display()
    )
}

/// Answers `query` from the latest run under `results_dir`.
pub fn pick_latest(results_dir: &Path, query: &Query) -> Result<Pick> {
    let Some((_, rows)) = results::latest_run(results_dir)? else {
        anyhow::bail!(no_results(results_dir));
    };
    pick(&rows, query)
}

/// Answers `query` from `rows` (one run).
pub fn pick(rows: &[Row], query: &Query) -> Result<Pick> {
    ensure!(
        query.frontier.is_finite() && query.frontier >= 1.0,
        "the frontier size must be at least 1, not {}",
        query.frontier
    );
    let lab = Lab::new(rows);
    let n = query.frontier;
    let (kind, workloads, mut caveats) = source(&lab, n)?;
    let below = workloads.iter().rev().find(|w| w.size <= n);
    let above = workloads.iter().find(|w| w.size >= n);
    let bracket: Vec<&Workload<'_>> = match (below, above) {
        (Some(b), Some(a)) if b.name() == a.name() => vec![b],
        (Some(b), Some(a)) => vec![b, a],
        (Some(one), None) | (None, Some(one)) => vec![one],
        (None, None) => unreachable!("source() returns workloads"),
    };
    if bracket.len() == 1 {
        caveats.push(format!(
            "One workload backs the answer ({}): expect its family's quirks.",
            bracket[0].name()
        ));
    }
    let mut queues: Vec<&Row> =
        bracket.iter().flat_map(|w| w.rows.values().copied()).filter(|r| query.admits(r)).collect();
    queues.sort_by(|a, b| a.queue.cmp(&b.queue));
    queues.dedup_by(|a, b| a.queue == b.queue);
    ensure!(!queues.is_empty(), "no measured queue meets the query ({})", describe(query));

    let mut ranked = Vec::new();
    let mut unranked = Vec::new();
    for row in queues {
        match estimate(&bracket, &row.queue, n) {
            Ok((median, p25, p75)) => ranked.push(Estimate {
                queue: row.queue.clone(),
                keys: row.keys.clone(),
                median,
                p25,
                p75,
            }),
            Err(reason) => unranked.push((row.queue.clone(), reason)),
        }
    }
    ranked.sort_by(|a, b| a.median.total_cmp(&b.median).then(a.queue.cmp(&b.queue)));
    if let [first, second, ..] = ranked.as_slice() {
        if first.p75 >= second.p25 {
            caveats.push(format!(
                "`{}` and `{}` overlap in their p25–p75 spreads: their order may be noise.",
                first.queue, second.queue
            ));
        }
    }
    if query.keys == Keys::Any {
        caveats.extend(monotone_left_out(rows));
    }
    let band = band_check(&lab, query);
    if let (Some((winner, _)), Some(first)) = (&band, ranked.first()) {
        if *winner != first.queue {
            caveats.push(format!(
                "Over the whole band, `{winner}` ranks first, not `{}`: the top of the ranking \
                 depends on the workloads, so measure your own if the margin matters.",
                first.queue
            ));
        }
    }
    let baseline = estimate(&bracket, BASELINE, n).ok().map(|(median, ..)| median);
    let first = &rows[0];
    Ok(Pick {
        query: *query,
        run: first.run.clone(),
        machine: first.machine.clone(),
        kind,
        bracket: bracket.iter().map(|w| (w.name(), w.size)).collect(),
        ranked,
        baseline,
        unranked,
        band: band.map(|(_, sentence)| sentence),
        caveats,
    })
}

/// How many queues `--keys any` leaves out, if any.
fn monotone_left_out(rows: &[Row]) -> Option<String> {
    let mut left_out: Vec<&str> = rows
        .iter()
        .filter(|r| {
            matches!(r.kind, Kind::Astar | Kind::Synthetic) && !analysis::accepts_any_keys(r)
        })
        .map(|r| r.queue.as_str())
        .collect();
    left_out.sort_unstable();
    left_out.dedup();
    (!left_out.is_empty()).then(|| {
        format!(
            "{} that need monotone keys {} left out (`--keys any`).",
            plural(left_out.len(), "queue"),
            if left_out.len() == 1 { "was" } else { "were" }
        )
    })
}

/// The ranking of the band containing the query's size, over all its workloads: the
/// winner and a sentence.
fn band_check(lab: &Lab<'_>, query: &Query) -> Option<(String, String)> {
    let band = analysis::bands(lab, |row| query.admits(row))
        .into_iter()
        .find(|b| b.band.contains(query.frontier))?;
    let winner = band.winner()?.queue;
    let of = format!(
        "the {} band ({} {} {})",
        band.band.label(),
        band.workloads.len(),
        analysis::kind_name(band.kind),
        if band.workloads.len() == 1 { "workload" } else { "workloads" }
    );
    let against = band
        .runner_up()
        .and_then(|r| Some((r.queue, analysis::versus(&band.workloads, r.queue, winner)?)));
    let sentence = match against {
        Some((runner, v)) => format!(
            "In {of}, `{winner}` is best: `{runner}` takes {} its time ({}).",
            ratio(v.ratio),
            v.backing()
        ),
        None => format!("In {of}, `{winner}` is the only queue measured."),
    };
    Some((winner.to_owned(), sentence))
}

/// The workloads that answer for size `n`, with caveats on the choice.
fn source<'w, 'a>(lab: &'w Lab<'a>, n: f64) -> Result<(Kind, &'w [Workload<'a>], Vec<String>)> {
    let range = |list: &[Workload<'_>]| {
        let mut sizes = list.iter().map(|w| w.size).filter(|s| s.is_finite());
        let first = sizes.next()?;
        Some((first, sizes.next_back().unwrap_or(first)))
    };
    let astar = range(&lab.astar);
    let synthetic = range(&lab.synthetic);
    let covers = |r: Option<(f64, f64)>| r.is_some_and(|(lo, hi)| lo <= n && n <= hi);
    // How far `n` lies outside a range, in log size.
    let distance = |r: Option<(f64, f64)>| {
        r.map_or(f64::INFINITY, |(lo, hi)| (lo / n).ln().max((n / hi).ln()).max(0.0))
    };
    let mut caveats = Vec::new();
    let kind = if covers(astar) {
        Kind::Astar
    } else if covers(synthetic) {
        let (lo, hi) = astar.unwrap_or((f64::NAN, f64::NAN));
        caveats.push(if astar.is_some() {
            format!(
                "A* produced frontiers of {} to {} open nodes only: the answer comes from \
                 synthetic held-size workloads, which time the queue alone (per operation), \
                 not whole searches.",
                count(lo),
                count(hi)
            )
        } else {
            "This run has no A* rows: the answer comes from synthetic held-size workloads, \
             which time the queue alone (per operation)."
                .into()
        });
        Kind::Synthetic
    } else {
        let kind =
            if distance(astar) <= distance(synthetic) { Kind::Astar } else { Kind::Synthetic };
        let (lo, hi) = if kind == Kind::Astar { astar } else { synthetic }.ok_or_else(|| {
            anyhow::anyhow!("this run has no A* or synthetic rows to answer from")
        })?;
        caveats.push(format!(
            "{} open nodes lies outside every measured size ({} measured {} to {}): the nearest \
             workload answers, which is an extrapolation.",
            count(n),
            analysis::kind_name(kind),
            count(lo),
            count(hi)
        ));
        kind
    };
    let list = if kind == Kind::Astar { &lab.astar } else { &lab.synthetic };
    Ok((kind, list.as_slice(), caveats))
}

/// `queue`'s median, p25 and p75 at size `n`, interpolated in log size over `bracket`;
/// the reason when a bracketing workload did not time it.
fn estimate(bracket: &[&Workload<'_>], queue: &str, n: f64) -> Result<(f64, f64, f64), String> {
    let mut points = Vec::new();
    for workload in bracket {
        match workload.rows.get(queue) {
            Some(row) if row.status == Status::Ok => points.push((workload.size, *row)),
            Some(row) => {
                let status = if row.status == Status::CutOff { "cut off" } else { "failed" };
                return Err(format!(
                    "{status} on {} ({} open nodes){}",
                    workload.name(),
                    count(workload.size),
                    if row.note.is_empty() { String::new() } else { format!(": {}", row.note) }
                ));
            }
            None => {}
        }
    }
    let at = |value: fn(&Row) -> f64| match points.as_slice() {
        [(_, row)] => value(row),
        [(s0, r0), (s1, r1)] => {
            let t = ((n / s0).ln() / (s1 / s0).ln()).clamp(0.0, 1.0);
            (value(r0).ln() * (1.0 - t) + value(r1).ln() * t).exp()
        }
        _ => unreachable!("one or two bracketing workloads"),
    };
    match points.len() {
        0 => Err(format!(
            "not measured on {}",
            bracket.iter().map(|w| w.name()).collect::<Vec<_>>().join(" or ")
        )),
        _ => Ok((at(|r| r.median_ns), at(|r| r.p25_ns), at(|r| r.p75_ns))),
    }
}

/// The query in words: `decrease-key queues, any keys`.
fn describe(query: &Query) -> String {
    format!(
        "{} queues, {} keys",
        if query.decrease_key { "decrease-key" } else { "all" },
        if query.keys == Keys::Any { "any" } else { "monotone" }
    )
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Queues for a frontier of {} open nodes ({}), from run {} on {}.",
            count(self.query.frontier),
            describe(&self.query),
            self.run,
            self.machine
        )?;
        let bracket: Vec<String> =
            self.bracket.iter().map(|(name, size)| format!("{name} ({})", count(*size))).collect();
        let bracket = match bracket.as_slice() {
            [one] => format!("at {one}"),
            [low, high] => format!("interpolated in log size between {low} and {high}"),
            _ => unreachable!("one or two bracketing workloads"),
        };
        writeln!(f, "Backed by {} workloads, {bracket}.\n", analysis::kind_name(self.kind))?;
        let Some(best) = self.ranked.first() else {
            writeln!(f, "No queue meeting the query was timed on these workloads.")?;
            return self.fmt_notes(f);
        };
        writeln!(
            f,
            "{:>4}  {:<28} {:>11} {:>8} {:>8}  {:<23} keys",
            "rank",
            "queue",
            if self.kind == Kind::Astar { "per search" } else { "per op" },
            "× best",
            "× std",
            "p25 – p75"
        )?;
        for (i, e) in self.ranked.iter().enumerate() {
            let noise = if i > 0 && best.p75 >= e.p25 { "≈" } else { " " };
            writeln!(
                f,
                "{:>4}  {:<28} {:>11} {:>7}{noise} {:>8}  {:<23} {}",
                i + 1,
                e.queue,
                time(e.median),
                ratio(e.median / best.median),
                self.baseline.map_or("–".into(), |b| ratio(e.median / b)),
                format!("{} – {}", time(e.p25), time(e.p75)),
                e.keys
            )?;
        }
        writeln!(
            f,
            "\n× best: time ÷ the first queue's; × std: time ÷ {BASELINE}'s; ≈: p25–p75 overlaps \
             the first queue's."
        )?;
        self.fmt_notes(f)
    }
}

impl Pick {
    /// The unranked queues, the band check and the caveats.
    fn fmt_notes(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.unranked.is_empty() {
            writeln!(f, "\nNot ranked:")?;
            for (queue, reason) in &self.unranked {
                writeln!(f, "  {queue}: {reason}")?;
            }
        }
        if let Some(band) = &self.band {
            writeln!(f, "\nBand check: {band}")?;
        }
        if !self.caveats.is_empty() {
            writeln!(f, "\nCaveats:")?;
            for caveat in &self.caveats {
                writeln!(f, "- {caveat}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tests::{row, sample};

    fn ask(rows: &[Row], frontier: f64, decrease_key: bool, keys: Keys) -> Pick {
        pick(rows, &Query { frontier, decrease_key, keys }).unwrap()
    }

    fn order(pick: &Pick) -> Vec<&str> {
        pick.ranked.iter().map(|e| e.queue.as_str()).collect()
    }

    #[test]
    fn ranks_at_a_measured_size() {
        let rows = sample();
        let small = ask(&rows, 20.0, false, Keys::Monotone);
        assert_eq!(small.kind, Kind::Astar);
        assert_eq!(small.bracket, [("small/octile/fine".to_owned(), 20.0)]);
        assert_eq!(
            order(&small),
            ["unsorted-array-dup", "sorted-array-dk", BASELINE, "bucket-queue-dup"]
        );
        assert_eq!(small.ranked[0].median, 60.0);
        assert_eq!(small.baseline, Some(100.0));
        let middle = ask(&rows, 1500.0, false, Keys::Monotone);
        assert_eq!(order(&middle)[0], BASELINE);
    }

    #[test]
    fn interpolates_in_log_size_between_the_bracketing_workloads() {
        let rows = sample();
        // The geometric midpoint of 1,500 and 50,000: each time is the geometric mean of
        // its two.
        let mid = (1500.0f64 * 50_000.0).sqrt();
        let pick = ask(&rows, mid, false, Keys::Monotone);
        assert_eq!(pick.bracket.len(), 2);
        assert_eq!(order(&pick), ["bucket-queue-dup", BASELINE, "unsorted-array-dup"]);
        let bucket = &pick.ranked[0];
        assert!((bucket.median - (1200.0f64 * 20_000.0).sqrt()).abs() < 1e-6);
        assert!((pick.baseline.unwrap() - (1000.0f64 * 40_000.0).sqrt()).abs() < 1e-6);
        // The sorted array was cut off at the upper bracket: listed, not ranked.
        assert_eq!(pick.unranked.len(), 1);
        assert!(
            pick.unranked[0].1.starts_with("cut off on large/octile/fine"),
            "{:?}",
            pick.unranked
        );
        let text = pick.to_string();
        assert!(
            text.contains("between middle/octile/fine (1,500) and large/octile/fine (50,000)"),
            "{text}"
        );
        assert!(text.contains("Not ranked:\n  sorted-array-dk: cut off"), "{text}");
    }

    #[test]
    fn filters_by_keys_and_strategy() {
        let rows = sample();
        let any = ask(&rows, 50_000.0, false, Keys::Any);
        assert_eq!(order(&any), [BASELINE, "unsorted-array-dup"]);
        assert!(any.caveats.iter().any(|c| c.contains("need monotone keys")));
        let dk = ask(&rows, 20.0, true, Keys::Monotone);
        assert_eq!(order(&dk), ["sorted-array-dk"]);
        assert_eq!(dk.baseline, Some(100.0), "the baseline is given even when filtered out");
        // The only decrease-key queue was cut off at 50,000: nothing to rank, and it says so.
        let none = ask(&rows, 50_000.0, true, Keys::Monotone);
        assert!(none.ranked.is_empty());
        let text = none.to_string();
        assert!(text.contains("No queue meeting the query was timed"), "{text}");
        assert!(text.contains("sorted-array-dk: cut off on large/octile/fine"), "{text}");
    }

    #[test]
    fn beyond_the_a_star_sizes_synthetic_rows_answer() {
        let mut rows = sample();
        for (suite, size, heap, bucket) in
            [("held-100k", 1e5, 50.0, 20.0), ("held-1m", 1e6, 80.0, 25.0)]
        {
            rows.push(row(Kind::Synthetic, suite, BASELINE, size, heap));
            rows.push(row(Kind::Synthetic, suite, "bucket-queue-dup", size, bucket));
        }
        let pick = ask(&rows, 3e5, false, Keys::Monotone);
        assert_eq!(pick.kind, Kind::Synthetic);
        assert_eq!(order(&pick), ["bucket-queue-dup", BASELINE]);
        assert!(pick.caveats.iter().any(|c| c.contains("synthetic held-size workloads")));
        let far = ask(&rows, 1e8, false, Keys::Monotone);
        assert!(far.caveats.iter().any(|c| c.contains("extrapolation")), "{:?}", far.caveats);
    }

    #[test]
    fn noise_and_no_results_are_reported() {
        let mut rows = sample();
        // Make the unsorted and the sorted array nearly tie on the small workload.
        rows.iter_mut()
            .filter(|r| r.suite == "small" && r.queue == "sorted-array-dk")
            .for_each(|r| (r.p25_ns, r.median_ns, r.p75_ns) = (58.0, 61.0, 64.0));
        let pick = ask(&rows, 20.0, false, Keys::Monotone);
        assert!(pick.caveats.iter().any(|c| c.contains("may be noise")), "{:?}", pick.caveats);
        assert!(pick.to_string().contains("≈"));

        let empty = std::env::temp_dir().join(format!("pqlab-pick-empty-{}", std::process::id()));
        let err =
            pick_latest(&empty, &Query { frontier: 10.0, decrease_key: false, keys: Keys::Any })
                .unwrap_err()
                .to_string();
        assert!(err.contains("no results yet") && err.contains("cargo bench"), "{err}");
    }
}
