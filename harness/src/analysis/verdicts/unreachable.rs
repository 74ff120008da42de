//! The verdict on goals the start cannot reach: whether A\* never told the map's components
//! explores the start's whole component, and how much longer it takes than looking the
//! components up first.

use std::cmp::Ordering;

use pqlab_queues::registry::BASELINE;

use super::{best, compare, evidence, ratio_of, Outcome, Verdict};
use crate::analysis::rank::versus_across;
use crate::analysis::{Findings, Workload};
use crate::format::count;
use crate::maps::generate::MapSpec;
use crate::maps::moves::Components;
use crate::results::{Kind, Status};
use crate::search::SearchKind;

/// How the flooding A\* is named in the verdict.
const FLOOD: &str = "A* without components";
/// How the A\* that looks the components up first is named.
const SHORTCUT: &str = "A* with components";

/// The cells of the largest component of a generated map named `map` (where the lab draws
/// the starts of its unreachable problems, `generate::unreachable_problems`); `None` for a
/// map that is not generated. O(cells).
pub(super) fn largest_component(map: &str) -> Option<usize> {
    let grid = map.parse::<MapSpec>().ok()?.build();
    let components = Components::new(&grid);
    (0..components.count() as u32).map(|c| components.size(c)).max()
}

/// Whether `w`'s searches with std's heap expanded exactly the start's component, with the
/// sentence: a cut-off's count is a lower bound, printed "at least".
fn floods(w: &Workload<'_>, component: Option<usize>) -> (bool, String) {
    let Some(row) = w.rows.get(BASELINE) else {
        return (false, format!("{}: `{BASELINE}` was not run.", w.facts.map));
    };
    let censored = row.status == Status::CutOff;
    let at_least = if censored { "at least " } else { "" };
    let expanded = format!("{at_least}{} cells a search", count(row.expansions));
    match component {
        Some(cells) => {
            let whole = !censored && row.expansions == cells as f64;
            let verb = if whole { "equal to" } else { "against" };
            (
                whole,
                format!(
                    "{}: `{BASELINE}` expanded {expanded}, {verb} the start's component of {} cells (its frontier at most {} open cells).",
                    w.facts.map,
                    count(cells as f64),
                    count(row.max_open)
                ),
            )
        }
        None => (
            false,
            format!(
                "{}: expanded {expanded}; its components are not known (not a generated map).",
                w.facts.map
            ),
        ),
    }
}

/// "If your game has situations in which the start and goal are not connected at all by the
/// graph, A\* will take a long time to run, since it has to explore every node connected from
/// the start before it realizes there's no path.": on problems whose goal lies outside the
/// start's component, the A\* never told the components against the A\* that looks them up
/// first (the text's advice, and so its comparator for "a long time"), std's BinaryHeap on
/// both sides. It **holds** when every flood expanded exactly the start's component and the
/// flood is slower beyond the tie margin, the maps pooled ([`super::pooled_rule`]);
/// **undecided** when the time leans that way but its interval reaches the margin; it
/// **fails** when a flood expanded anything else, or is not slower.
pub fn unreachable_goals(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let floods_run: Vec<&Workload<'_>> =
        run.of(Kind::Astar).filter(|w| w.facts.search == Some(SearchKind::AstarFlood)).collect();
    let mut pairs = Vec::new();
    let mut parts = Vec::new();
    let mut details = Vec::new();
    let mut whole = true;
    for w in &floods_run {
        let (flooded, sentence) = floods(w, largest_component(&w.facts.map));
        whole &= flooded;
        details.push(sentence);
        let Some(twin) = run.search_twin(w, SearchKind::Astar) else { continue };
        let (Some(f), Some(s)) = (w.timing(BASELINE), twin.timing(BASELINE)) else { continue };
        let Some(v) = versus_across(&[(f, s)], FLOOD, SHORTCUT) else { continue };
        pairs.push((f, s));
        parts.push(v.beyond_margin());
        details.push(format!(
            "{}: with `{BASELINE}`, {FLOOD} takes {} the time of {SHORTCUT} ({}).",
            w.facts.map,
            ratio_of(&v),
            evidence(&v)
        ));
    }
    let Some(pooled) = versus_across(&pairs, FLOOD, SHORTCUT) else {
        return Verdict::unmeasured(
            "No unreachable-goal workload was measured beside its twin that looks the components up, with std's heap.",
        );
    };
    let outcome = if whole {
        super::pooled_rule(Ordering::Greater, &pooled, parts.iter().copied())
    } else {
        Outcome::Fails
    };
    let explored = if whole {
        "explored exactly the start's component".to_owned()
    } else {
        "did not explore exactly the start's component everywhere".to_owned()
    };
    let mut summary = format!(
        "On goals outside the start's component, A* never told the components {explored}, and with `{BASELINE}` takes {} the time of looking the components up first ({}).",
        ratio_of(&pooled),
        evidence(&pooled)
    );
    if let Some(winner) = best(&floods_run, |_| true) {
        let frontier: Vec<String> =
            floods_run.iter().filter_map(|w| w.ok(winner)).map(|row| count(row.max_open)).collect();
        if let Some((_, sentence)) = compare(&floods_run, winner, BASELINE) {
            summary.push_str(&format!(
                " The flood's fastest exact queue: {sentence}; its frontier at most {} open cells.",
                frontier.join(", ")
            ));
        }
    }
    Verdict::new(outcome, summary, details, pairs.len())
}
