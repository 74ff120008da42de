//! The folklore the report tests: each claim checked against a run, with the figures.
//!
//! Every verdict compares queues head to head ([`versus`]) on the workloads where both
//! were measured, after choosing each side's best queue over those workloads ([`rank`]):
//! what someone following the claim would pick. A difference counts only beyond the tie
//! margin with 95% confidence (see `analysis::rank`); a verdict backed by fewer than
//! three workloads says it is weak. Ratios are written one way: "takes 0.85× the time of".
//!
//! Adding a verdict: a function `fn(&Run) -> Verdict` in one of this folder's files, and
//! one line in [`CLAIMS`].

mod factors;
mod folklore;

pub use folklore::strategy_pairs;
mod survey;
#[cfg(test)]
mod tests;

use std::fmt;

use pqlab_queues::{Class, Family};

use crate::analysis::bands::{self, Selection, STRONG};
use crate::analysis::rank::{rank, versus, Versus};
use crate::analysis::{Run, Workload};
use crate::format::{plural, ratio};
use crate::results::{Kind, Row};

/// Every claim the report decides, in the order it lists them.
pub const CLAIMS: &[fn(&Run<'_>) -> Verdict] = &[
    folklore::binary_heap_is_the_generic_choice,
    folklore::unsorted_arrays_for_small_frontiers,
    folklore::bucketing_above_10k,
    folklore::hot_queues_against_heaps,
    folklore::duplicates_over_decrease_key,
    survey::heap_against_lists,
    survey::pairing_heaps_work_well,
    survey::fibonacci_heaps_not_in_practice,
    survey::sequence_heaps_for_large_inputs,
    survey::splay_trees_competitive,
    survey::dary_heaps_cache_better,
    survey::b_heaps_for_large_frontiers,
    factors::hash_table_membership,
    factors::soft_heap_trade,
    factors::better_heuristic_over_better_queue,
];

/// What the rows say of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The figures support it.
    Holds,
    /// Some of it holds, some does not (or it depends on the size: the verdict says where
    /// it turns).
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
    /// How many workloads back it (the weak ones are below three).
    pub workloads: usize,
}

impl Verdict {
    fn unmeasured(claim: &'static str, why: impl Into<String>) -> Verdict {
        Verdict {
            claim,
            outcome: Outcome::Unmeasured,
            summary: why.into(),
            details: Vec::new(),
            workloads: 0,
        }
    }

    /// Whether fewer than three workloads back it.
    pub fn weak(&self) -> bool {
        self.outcome != Outcome::Unmeasured && self.workloads < STRONG
    }
}

/// Every claim's verdict on `run`.
pub fn verdicts(run: &Run<'_>) -> Vec<Verdict> {
    CLAIMS.iter().map(|claim| claim(run)).collect()
}

/// The octile A* workloads (fine costs, flat store), optionally those whose size `within`
/// admits.
fn octile<'w, 'a>(run: &'w Run<'a>, within: impl Fn(f64) -> bool) -> Vec<&'w Workload<'a>> {
    run.workloads.iter().filter(|w| Selection::OCTILE.admits(w) && within(w.size)).collect()
}

/// The synthetic workloads whose held size `within` admits.
fn held<'w, 'a>(run: &'w Run<'a>, within: impl Fn(f64) -> bool) -> Vec<&'w Workload<'a>> {
    run.of(Kind::Synthetic).filter(|w| within(w.size)).collect()
}

/// The best contender among the exact queues `kind` admits over `workloads`.
fn best<'a>(workloads: &[&Workload<'a>], kind: impl Fn(&Row) -> bool) -> Option<&'a str> {
    rank(workloads, |row| bands::exact(row) && kind(row))
        .into_iter()
        .find(|s| s.contends)
        .map(|s| s.queue)
}

/// Rows of a family.
fn family(f: Family) -> impl Fn(&Row) -> bool + Copy {
    move |row: &Row| row.family == Some(f)
}

/// Rows of a class.
fn class(c: Class) -> impl Fn(&Row) -> bool + Copy {
    move |row: &Row| row.class == Some(c)
}

/// A binary heap: std's, a d-ary heap with d = 2, an indexed one.
fn binary_heap(row: &Row) -> bool {
    row.family == Some(Family::BinaryHeap)
}

/// "`a` takes 0.85× the time of `b` (95% interval 0.83–0.87×, 12 workloads)", or with
/// censored evidence "`a` takes at least 5.2× the time of `b` (... 3 of them a cut-off's
/// lower bound)".
fn takes(a: &str, b: &str, v: &Versus) -> String {
    let interval = match (v.low > 0.0, v.high.is_finite()) {
        (true, true) => format!("95% interval {}–{}", ratio(v.low), ratio(v.high)),
        (true, false) => format!("95% lower bound {}", ratio(v.low)),
        (false, true) => format!("95% upper bound {}", ratio(v.high)),
        (false, false) => "no interval".to_owned(),
    };
    let censored = if v.censored > 0 {
        format!(", {} of them a cut-off's lower bound", v.censored)
    } else {
        String::new()
    };
    format!(
        "`{a}` takes {}{} the time of `{b}` ({interval}, {}{censored})",
        v.qualifier(),
        ratio(v.ratio),
        plural(v.n, "workload")
    )
}

/// `a` against `b` over `workloads`: the figures and the sentence.
fn compare(workloads: &[&Workload<'_>], a: &str, b: &str) -> Option<(Versus, String)> {
    let v = versus(workloads, a, b)?;
    Some((v, takes(a, b, &v)))
}

/// How a verdict names where its figures come from.
fn source(kind: Kind) -> &'static str {
    match kind {
        Kind::Synthetic => "the queue alone at held sizes",
        Kind::Replay => "the queue alone on recorded traces",
        _ => "whole octile A* searches",
    }
}

/// The workloads of a size range: octile A* searches, else held sizes; with the kind.
fn sized<'w, 'a>(
    run: &'w Run<'a>,
    within: impl Fn(f64) -> bool + Copy,
) -> Option<(Kind, Vec<&'w Workload<'a>>)> {
    let searches = octile(run, within);
    if !searches.is_empty() {
        return Some((Kind::Astar, searches));
    }
    let sizes = held(run, within);
    (!sizes.is_empty()).then_some((Kind::Synthetic, sizes))
}
