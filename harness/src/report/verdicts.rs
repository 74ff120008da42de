//! The folklore the report tests: each claim checked against the rows, with the figures.
//!
//! Every verdict compares queues head to head on the workloads where both were measured
//! ([`analysis::versus`]) after choosing each side's best queue over those workloads
//! ([`analysis::rank`]): what someone following the claim would pick, not the per-workload
//! best of a group (which would flatter a group of many noisy queues). Two speeds within
//! [`SAME_SPEED`] count as the same.

use std::fmt;

use pqlab_queues::Strategy;

use crate::analysis::{self, bands, rank, versus, BandResult, Lab, Workload, SAME_SPEED};
use crate::format::{plural, ratio, significant, speedup};
use crate::results::{Kind, Row};

/// The binary heaps of the registry: `std`'s, and the d-ary heap with d = 2.
pub const BINARY_HEAPS: [&str; 3] = [analysis::BASELINE, "dary2-dup", "dary2-dk"];

/// What the rows say of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The figures support it.
    Holds,
    /// Some of it holds, some does not (or part was not measured).
    Partly,
    /// The figures contradict it.
    Fails,
    /// The rows cannot tell (the queues or sizes it names were not measured).
    Unmeasured,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Holds => "holds",
            Outcome::Partly => "partly holds",
            Outcome::Fails => "does not hold",
            Outcome::Unmeasured => "not measured",
        })
    }
}

/// One claim and what the rows say of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The folklore, quoted.
    pub claim: &'static str,
    /// The outcome.
    pub outcome: Outcome,
    /// One sentence with the deciding figures.
    pub summary: String,
    /// The figures behind it.
    pub details: Vec<String>,
}

impl Verdict {
    fn unmeasured(claim: &'static str, why: impl Into<String>) -> Verdict {
        Verdict { claim, outcome: Outcome::Unmeasured, summary: why.into(), details: Vec::new() }
    }
}

/// [`SAME_SPEED`] as a percentage: `5%`.
pub fn tolerance() -> String {
    format!("{}%", significant((SAME_SPEED - 1.0) * 100.0, 1))
}

/// Every claim, in the order the issue lists them.
pub fn verdicts(lab: &Lab<'_>) -> Vec<Verdict> {
    vec![
        binary_heap_is_the_generic_choice(lab),
        unsorted_arrays_for_small_frontiers(lab),
        bucketing_above_10k(lab),
        hot_queues_against_heaps(lab),
        duplicates_over_decrease_key(lab),
    ]
}

fn is_binary_heap(row: &Row) -> bool {
    BINARY_HEAPS.contains(&row.queue.as_str())
}

fn family_has(row: &Row, word: &str) -> bool {
    row.queue_family.to_lowercase().contains(word)
}

/// Bucket-based queues: bucket queues (one- or two-level), radix heaps, HOT queues.
fn is_bucketing(row: &Row) -> bool {
    ["bucket", "radix", "hot"].iter().any(|word| family_has(row, word))
}

/// Whether a band's winner is a queue `kind` admits.
fn winner_is(band: &BandResult<'_, '_>, kind: impl Fn(&Row) -> bool) -> bool {
    band.winner().is_some_and(|w| band.workloads.iter().any(|wl| wl.ok(w.queue).is_some_and(&kind)))
}

/// The best contender `eligible` admits over `workloads`.
fn best<'a>(workloads: &[&Workload<'a>], eligible: impl Fn(&Row) -> bool) -> Option<&'a str> {
    rank(workloads, eligible).into_iter().find(|s| s.contends()).map(|s| s.queue)
}

/// "`a` is 25% faster than `b` (time ratio 0.8×, geometric mean over 7 workloads, p25–p75
/// spreads apart in 5)", with the time ratio; "2.5× as fast" and "takes 2.5× the time of"
/// beyond a factor of 1.5.
fn compare(workloads: &[&Workload<'_>], a: &str, b: &str) -> Option<(f64, String)> {
    let v = versus(workloads, a, b)?;
    let r = v.ratio;
    let how = match r {
        r if r <= 1.0 / 1.5 => format!("is {} as fast as", ratio(1.0 / r)),
        r if r <= 1.0 => format!("is {} faster than", speedup(r).trim_start_matches('+')),
        r if r < 1.5 => format!("is {} slower than", speedup(r).trim_start_matches('−')),
        r => format!("takes {} the time of", ratio(r)),
    };
    Some((r, format!("`{a}` {how} `{b}` (time ratio {}, {})", ratio(r), v.backing())))
}

fn binary_heap_is_the_generic_choice(lab: &Lab<'_>) -> Verdict {
    const CLAIM: &str = "binary heap is the best generic choice";
    let all: Vec<&Workload<'_>> = lab.astar.iter().collect();
    let standings = rank(&all, analysis::accepts_any_keys);
    let top = standings.iter().find(|s| s.contends());
    let heap = standings.iter().find(|s| s.contends() && BINARY_HEAPS.contains(&s.queue));
    let (Some(top), Some(heap)) = (top, heap) else {
        return Verdict::unmeasured(CLAIM, "No A* rows measure a binary heap and another queue.");
    };
    let per_band: Vec<String> = bands(lab, analysis::accepts_any_keys)
        .iter()
        .filter_map(|b| Some(format!("{}: `{}`", b.band.label(), b.winner()?.queue)))
        .collect();
    let mut details = vec![format!(
        "Generic means accepting any key: {} such queues were measured on {} A* workloads.",
        standings.len(),
        all.len()
    )];
    details.push(format!("Best generic queue per frontier-size band: {}.", per_band.join(", ")));
    let heap_bands = bands(lab, analysis::accepts_any_keys)
        .iter()
        .filter(|b| b.winner().is_some_and(|w| BINARY_HEAPS.contains(&w.queue)))
        .count();
    if top.queue == heap.queue {
        let runner = standings.iter().filter(|s| s.contends()).nth(1);
        let summary = match runner.and_then(|r| compare(&all, heap.queue, r.queue)) {
            Some((_, text)) => format!("It is the fastest generic queue overall: {text}."),
            None => format!("`{}` is the only generic queue measured.", heap.queue),
        };
        return Verdict { claim: CLAIM, outcome: Outcome::Holds, summary, details };
    }
    let (r, text) = compare(&all, top.queue, heap.queue).expect("both were measured");
    let outcome = if 1.0 / r <= SAME_SPEED {
        Outcome::Holds
    } else if heap_bands > 0 {
        Outcome::Partly
    } else {
        Outcome::Fails
    };
    let summary = match outcome {
        Outcome::Holds => {
            format!("The best binary heap is within {} of the best: {text}.", tolerance())
        }
        _ => format!(
            "{text}; a binary heap is the best generic queue in {heap_bands} of {} bands.",
            per_band.len()
        ),
    };
    Verdict { claim: CLAIM, outcome, summary, details }
}

fn unsorted_arrays_for_small_frontiers(lab: &Lab<'_>) -> Verdict {
    const CLAIM: &str = "unsorted arrays for small frontiers";
    let is_unsorted = |row: &Row| family_has(row, "unsorted");
    let all = bands(lab, |_| true);
    let small: Vec<_> = all.iter().filter(|b| b.band.hi <= 100.0).collect();
    if small.is_empty() || !lab.rows.iter().any(is_unsorted) {
        return Verdict::unmeasured(
            CLAIM,
            "No frontier below 100 open nodes was measured with an unsorted array.",
        );
    }
    let mut holds = 0;
    let mut details = Vec::new();
    for band in &small {
        let (Some(winner), Some(unsorted)) = (band.winner(), best(&band.workloads, is_unsorted))
        else {
            details.push(format!("{}: no unsorted array was measured.", band.band.label()));
            continue;
        };
        if winner.queue == unsorted {
            holds += 1;
            let line = band
                .runner_up()
                .and_then(|r| compare(&band.workloads, unsorted, r.queue))
                .map_or(format!("`{unsorted}` is the only queue measured"), |(_, t)| t);
            details.push(format!(
                "{}: an unsorted array is the best queue: {line}.",
                band.band.label()
            ));
        } else {
            let (r, text) =
                compare(&band.workloads, unsorted, winner.queue).expect("both measured");
            if r <= SAME_SPEED {
                holds += 1;
            }
            details.push(format!("{}: {text}.", band.band.label()));
        }
    }
    let last_win =
        all.iter().filter(|b| winner_is(b, is_unsorted)).map(|b| b.band.label()).next_back();
    details.push(match last_win {
        Some(label) => format!("The largest band an unsorted array wins: {label}."),
        None => "An unsorted array wins no band.".into(),
    });
    let outcome = match holds {
        0 => Outcome::Fails,
        n if n == small.len() => Outcome::Holds,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "An unsorted array is the best queue, or within {} of it, in {holds} of {} below 100 \
         open nodes.",
        tolerance(),
        plural(small.len(), "band")
    );
    Verdict { claim: CLAIM, outcome, summary, details }
}

/// The best bucketing queue against the best other queue over the workloads whose size
/// `within` admits: `(speed ratio, sentence, source kind)`.
fn bucketing_versus_rest(
    lab: &Lab<'_>,
    within: impl Fn(f64) -> bool,
) -> Option<(f64, String, Kind)> {
    let (kind, workloads) = lab.sized(within)?;
    let bucket = best(&workloads, is_bucketing)?;
    let other = best(&workloads, |row| !is_bucketing(row))?;
    let (r, text) = compare(&workloads, bucket, other)?;
    Some((r, text, kind))
}

fn bucketing_above_10k(lab: &Lab<'_>) -> Verdict {
    const CLAIM: &str = "bucketing above 10,000 open nodes";
    let Some((r, text, kind)) = bucketing_versus_rest(lab, |size| size >= 1e4) else {
        return Verdict::unmeasured(
            CLAIM,
            "No frontier of 10,000 open nodes or more was measured with a bucket-based queue \
             and another queue.",
        );
    };
    let mut details = vec![format!(
        "Bucket-based: bucket queues, radix heaps and HOT queues. At 10,000 open nodes and \
         more ({}): {text}.",
        source(kind)
    )];
    if let Some((_, below, kind)) = bucketing_versus_rest(lab, |size| size < 1e4) {
        details.push(format!("Below 10,000 ({}): {below}.", source(kind)));
    }
    let leads_from = bands(lab, |_| true)
        .iter()
        .rev()
        .take_while(|b| winner_is(b, is_bucketing))
        .last()
        .map(|b| b.band.label());
    if let Some(label) = leads_from {
        details.push(format!("A bucket-based queue wins every band from {label} up."));
    }
    let outcome = match r {
        r if r * SAME_SPEED < 1.0 => Outcome::Holds,
        r if r <= SAME_SPEED => Outcome::Partly,
        _ => Outcome::Fails,
    };
    Verdict { claim: CLAIM, outcome, summary: format!("{text}."), details }
}

fn hot_queues_against_heaps(lab: &Lab<'_>) -> Verdict {
    const CLAIM: &str = "HOT queues as fast as heaps up to 800 open nodes and 20% faster at 1,500";
    let is_hot = |row: &Row| family_has(row, "hot");
    let part = |within: &dyn Fn(f64) -> bool| {
        let (kind, workloads) = lab.sized(within)?;
        let hot = best(&workloads, is_hot)?;
        let heap = best(&workloads, is_binary_heap)?;
        let (r, text) = compare(&workloads, hot, heap)?;
        Some((r, format!("{}, {text}", source(kind))))
    };
    let small = part(&|size| size <= 800.0);
    // 1,500 within a factor of 1.5 either way.
    let near = part(&|size| (1000.0..=2250.0).contains(&size));
    if small.is_none() && near.is_none() {
        return Verdict::unmeasured(
            CLAIM,
            "No frontier up to 2,250 open nodes was measured with both a HOT queue and a binary \
             heap.",
        );
    }
    let mut details = Vec::new();
    let small_holds = small.as_ref().map(|(r, text)| {
        details.push(format!("Up to 800 open nodes, in {text}."));
        *r <= SAME_SPEED
    });
    let near_holds = near.as_ref().map(|(r, text)| {
        details.push(format!("From 1,000 to 2,250 open nodes (around 1,500), in {text}."));
        1.0 / r >= 1.2 / SAME_SPEED
    });
    let outcome = match (small_holds, near_holds) {
        (Some(true), Some(true)) => Outcome::Holds,
        (Some(false), Some(false)) | (Some(false), None) | (None, Some(false)) => Outcome::Fails,
        _ => Outcome::Partly,
    };
    let says = |part: Option<bool>| match part {
        Some(true) => "holds",
        Some(false) => "does not hold",
        None => "was not measured",
    };
    let summary = format!(
        "\"As fast up to 800\" {}; \"20% faster at 1,500\" {} (a HOT queue against the best \
         binary heap; the same speed means within {}).",
        says(small_holds),
        says(near_holds),
        tolerance()
    );
    Verdict { claim: CLAIM, outcome, summary, details }
}

fn duplicates_over_decrease_key(lab: &Lab<'_>) -> Verdict {
    const CLAIM: &str = "skip decrease-key and insert duplicates";
    let all: Vec<&Workload<'_>> = lab.astar.iter().collect();
    let is = |strategy: Strategy| move |row: &Row| analysis::strategy(row) == Some(strategy);
    let (Some(dup), Some(dk)) =
        (best(&all, is(Strategy::Duplicates)), best(&all, is(Strategy::DecreaseKey)))
    else {
        return Verdict::unmeasured(CLAIM, "The A* rows do not measure both strategies.");
    };
    let pairs = decrease_key_pairs(lab.rows);
    let mut details = Vec::new();
    let mut dup_faster = 0;
    let mut compared = 0;
    for (structure, dup_id, dk_id) in &pairs {
        if let Some(v) = versus(&all, dk_id, dup_id) {
            compared += 1;
            dup_faster += usize::from(v.ratio > 1.0);
            details.push(format!(
                "`{structure}`: decrease-key takes {} the time of duplicates ({}).",
                ratio(v.ratio),
                v.backing()
            ));
        }
    }
    let (r, text) = compare(&all, dup, dk).expect("both measured");
    // Best against best decides alone when no structure was built both ways.
    let overall = r * SAME_SPEED < 1.0;
    let majority = if compared == 0 { overall } else { 2 * dup_faster > compared };
    let outcome = match (overall, majority) {
        (true, true) => Outcome::Holds,
        (false, false) if r > SAME_SPEED => Outcome::Fails,
        _ => Outcome::Partly,
    };
    let pairs = match compared {
        0 => "No structure was measured both ways".to_owned(),
        n => format!("Duplicates are faster for {dup_faster} of {}", plural(n, "structure")),
    };
    let summary = format!("{pairs}; best against best, {text}.");
    Verdict { claim: CLAIM, outcome, summary, details }
}

/// `(structure, dup id, dk id)` for every structure the rows measure both ways.
pub fn decrease_key_pairs(rows: &[Row]) -> Vec<(String, String, String)> {
    let mut ids: Vec<&str> = rows.iter().map(|r| r.queue.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.iter()
        .filter_map(|id| {
            let structure = id.strip_suffix("-dup")?;
            let dk = format!("{structure}-dk");
            ids.contains(&dk.as_str()).then(|| (structure.to_owned(), (*id).to_owned(), dk))
        })
        .collect()
}

/// How a verdict names where its figures come from.
fn source(kind: Kind) -> &'static str {
    match kind {
        Kind::Astar => "whole A* searches",
        Kind::Replay => "the queue alone on recorded traces",
        Kind::Synthetic => "the queue alone at held sizes, since no A* search was that large",
        Kind::Peer => "other crates' A*",
        Kind::Oracle => "the oracle floor",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tests::{row, sample};
    use crate::analysis::BASELINE;

    fn outcomes(rows: &[Row]) -> Vec<Outcome> {
        verdicts(&Lab::new(rows)).iter().map(|v| v.outcome).collect()
    }

    #[test]
    fn the_sample_confirms_what_it_measures_and_says_what_it_cannot() {
        // Generic queues: the heap is fastest overall; the unsorted array wins below 30;
        // the bucket queue wins at 50,000; no HOT queue; no decrease-key queue contends.
        use Outcome::*;
        assert_eq!(outcomes(&sample()), [Holds, Holds, Holds, Unmeasured, Unmeasured]);
    }

    #[test]
    fn hot_queue_claim_is_judged_in_both_of_its_parts() {
        let hot_rows = |near_1500: f64| {
            let mut rows = Vec::new();
            for (suite, size, heap, hot) in
                [("a", 500.0, 1000.0, 1020.0), ("b", 1500.0, 3000.0, 3000.0 * near_1500)]
            {
                rows.push(row(Kind::Astar, suite, BASELINE, size, heap));
                rows.push(row(Kind::Astar, suite, "hot-queue-dup", size, hot));
            }
            rows
        };
        let hot = |rows: &[Row]| verdicts(&Lab::new(rows)).remove(3);
        // 1.25× as fast near 1,500 (time ratio 0.8): holds; equal there: only the first part.
        assert_eq!(hot(&hot_rows(0.8)).outcome, Outcome::Holds);
        let partly = hot(&hot_rows(1.0));
        assert_eq!(partly.outcome, Outcome::Partly, "{partly:?}");
        assert!(partly.summary.contains("\"20% faster at 1,500\" does not hold"));
    }

    #[test]
    fn duplicates_against_decrease_key_per_structure() {
        let mut rows = Vec::new();
        for (suite, size) in [("a", 100.0), ("b", 1000.0)] {
            rows.push(row(Kind::Astar, suite, "dary4-dup", size, size));
            rows.push(row(Kind::Astar, suite, "dary4-dk", size, size * 1.3));
        }
        let verdict = verdicts(&Lab::new(&rows)).remove(4);
        assert_eq!(verdict.outcome, Outcome::Holds);
        assert_eq!(
            decrease_key_pairs(&rows),
            [("dary4".into(), "dary4-dup".into(), "dary4-dk".into())]
        );
        assert!(verdict.details[0].contains("decrease-key takes 1.30× the time of duplicates"));
    }
}
