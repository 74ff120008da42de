//! Claims about the order among equal `f`: the implementation guide's tie-breaking hack,
//! and the beginners' article's "the last one you added". Each map's tie workloads
//! (`astar-ties-…`) and their twin under the A\*'s own rule (larger `g` first) search the
//! same problems; std's BinaryHeap, which takes every rule, is on both sides, and the maps
//! pooled decide ([`super::pooled_rule`]).

use std::cmp::Ordering;

use pqlab_queues::registry::{self, BASELINE};
use pqlab_queues::KeyRule;

use super::{counted, evidence, pooled_rule, ratio_of, Outcome, Verdict};
use crate::analysis::bands::Eligible;
use crate::analysis::rank::versus_across;
use crate::analysis::{Findings, Timing, Versus, Workload};
use crate::format::{plural, ratio};
use crate::results::Kind;
use crate::search::SearchKind;

/// Std's heap under one tie rule against itself under another, on one map: both timings,
/// the ratio of the first's time to the second's with its interval, and each one's
/// expansions and pushes a search (a rule that reaches cells by worse paths first pushes
/// them again: as many expansions, more pushes and stale pops).
struct Pair<'a> {
    timings: (Timing<'a>, Timing<'a>),
    versus: Versus,
    expansions: (f64, f64),
    pushes: (f64, f64),
}

impl<'a> Pair<'a> {
    /// Std's heap on `a` against it on `b`, named `names` for the resampling's seed.
    fn of(a: &Workload<'a>, b: &Workload<'a>, names: (&str, &str)) -> Option<Pair<'a>> {
        let timings = (a.timing(BASELINE)?, b.timing(BASELINE)?);
        let versus = versus_across(&[timings], names.0, names.1)?;
        let (ra, rb) = (a.ok(BASELINE)?, b.ok(BASELINE)?);
        let (expansions, pushes) = ((ra.expansions, rb.expansions), (ra.pushes, rb.pushes));
        Some(Pair { timings, versus, expansions, pushes })
    }

    /// "0.62× the time (95% interval …), expanding 0.40× the cells (1234 against 3086 a
    /// search) and pushing 0.45× the entries".
    fn sentence(&self) -> String {
        let ((a, b), (pa, pb)) = (self.expansions, self.pushes);
        format!(
            "{} the time ({}), expanding {} the cells ({a:.0} against {b:.0} a search) and pushing {} the entries",
            ratio_of(&self.versus),
            evidence(&self.versus),
            ratio(a / b.max(1.0)),
            ratio(pa / pb.max(1.0))
        )
    }
}

/// Each tie map's workload under `rule` with its twin under `other` (the same problems).
fn maps<'r, 'a>(
    findings: &'r Findings<'_, 'a>,
    rule: SearchKind,
    other: SearchKind,
) -> impl Iterator<Item = (&'r Workload<'a>, &'r Workload<'a>)> {
    let run = findings.run;
    run.of(Kind::Astar)
        .filter(move |w| w.facts.search == Some(rule))
        .filter_map(move |w| Some((w, run.search_twin(w, other)?)))
}

/// How a map's part reads.
fn standing(part: Ordering, less: &'static str, more: &'static str) -> &'static str {
    match part {
        Ordering::Less => less,
        Ordering::Equal => "tied",
        Ordering::Greater => more,
    }
}

/// "The quick hack is to break the ties … If you switch to a faster priority queue you'll
/// need a different quick hack": two sentences, two parts. The hack: std's heap breaking
/// ties toward larger `g` (the A\*'s own rule) against the same heap leaving them to its
/// own order (`f` alone), map by map with the expansions, the maps pooled. The faster
/// queue: each map's fastest exact queue under the A\*'s rule, whether it takes the hack's
/// keys (only queues that take any key do) and, if not, whether its own order expands more
/// cells than the hack does with std's heap (more than 2%: it needs a hack of its own).
/// Holds when both parts do (the second on most maps), partly when one does.
pub fn tie_breaking_hack<'a>(findings: &Findings<'_, 'a>) -> Verdict {
    let (mut details, mut timings, mut parts, mut needs) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (unbroken, hacked) in maps(findings, SearchKind::AstarTiesQueue, SearchKind::Astar) {
        let Some(p) = Pair::of(hacked, unbroken, ("larger g", "f alone")) else { continue };
        timings.push(p.timings);
        parts.push(p.versus.beyond_margin());
        let standings = findings.rank(&[hacked], Eligible::Exact);
        let fastest = standings.first().filter(|s| s.contends).map(|s| s.queue);
        let faster = fastest.and_then(|q| Some((q, registry::find(q)?, hacked.ok(q)?)));
        let faster = faster.map(|(id, entry, row)| {
            let own = row.expansions / p.expansions.0.max(1.0);
            let takes = entry.keys == KeyRule::Any;
            needs.push(!takes && own > HACK_KEPT);
            if takes {
                format!(" The fastest queue here, `{id}`, takes any key, so it takes the hack too.")
            } else {
                format!(
                    " The fastest queue here, `{id}`, is restricted to {}: it is given `f` alone and its own order expands {} the cells std's heap does with the hack{}.",
                    entry.keys,
                    ratio(own),
                    if own > HACK_KEPT { ": it needs a hack of its own" } else { ": its order does the hack's work" }
                )
            }
        });
        details.push(format!(
            "{} ({} searches): `{BASELINE}` breaking ties toward larger g takes {} of leaving them to the heap: {}.{}",
            hacked.facts.map,
            hacked.units(),
            p.sentence(),
            standing(p.versus.beyond_margin(), "the hack is faster", "the hack is slower"),
            faster.unwrap_or_default()
        ));
    }
    let Some(pooled) = versus_across(&timings, "larger g", "f alone") else {
        return Verdict::unmeasured(
            "No map was searched both with the A*'s tie rule and with f alone.",
        );
    };
    let hack = pooled_rule(Ordering::Less, &pooled, parts.iter().copied());
    let needed = needs.iter().filter(|&&n| n).count();
    let other = 2 * needed > needs.len();
    let outcome = match (hack, other) {
        (Outcome::Holds, true) => Outcome::Holds,
        (Outcome::Fails, false) => Outcome::Fails,
        (Outcome::Undecided, _) => Outcome::Undecided,
        _ => Outcome::Partly,
    };
    let (faster, tied, slower) = counted(&parts);
    let summary = format!(
        "Over the maps pooled, `{BASELINE}` breaking ties toward larger g takes {} the time of leaving them to the heap ({}); faster beyond the tie margin on {faster} of {} (slower on {slower}, tied on {tied}). The fastest queue needs a hack of its own on {needed} of {} (restricted keys, and its own order expands more than 2% beyond the hack's cells).",
        ratio_of(&pooled),
        evidence(&pooled),
        plural(parts.len(), "map"),
        plural(needs.len(), "map"),
    );
    let workloads = parts.len();
    Verdict::new(outcome, summary, details, workloads)
}

/// Expansions beyond the hack's by more than this factor mean a queue's own order does not
/// do the hack's work: expansions are counted, not timed, so 2% is a real difference in
/// the cells searched.
const HACK_KEPT: f64 = 1.02;

/// "It can be faster to choose the last one you added to the open list": std's heap
/// breaking ties last in, first out against first in, first out (what "the last one"
/// stands against), map by map with the expansions, the maps pooled beside them. "Can be"
/// asks whether some map shows it: it holds when a map's interval shows LIFO faster beyond
/// the tie margin (the maps where it is slower are named beside it), is undecided when a
/// map leans that way without showing it ([`Versus::leans`]), and fails otherwise.
/// Against the A\*'s own rule (larger `g`), the second comparator, beside it.
pub fn last_added_first<'a>(findings: &Findings<'_, 'a>) -> Verdict {
    let (mut details, mut timings, mut parts, mut leaning) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (lifo, fifo) in maps(findings, SearchKind::AstarTiesLifo, SearchKind::AstarTiesFifo) {
        let Some(p) = Pair::of(lifo, fifo, ("LIFO", "FIFO")) else { continue };
        timings.push(p.timings);
        parts.push(p.versus.beyond_margin());
        leaning.push(p.versus.leans(Ordering::Less));
        let own = findings.run.search_twin(lifo, SearchKind::Astar);
        let own = own.and_then(|own| Pair::of(lifo, own, ("LIFO", "larger g")));
        details.push(format!(
            "{} ({} searches): `{BASELINE}` choosing the last added among equal f takes {} of choosing the first added: {}.{}",
            lifo.facts.map,
            lifo.units(),
            p.sentence(),
            standing(p.versus.beyond_margin(), "LIFO is faster", "LIFO is slower"),
            own.map_or(String::new(), |o| format!(
                " Against the A*'s own rule (larger g first) LIFO takes {}.",
                o.sentence()
            ))
        ));
    }
    let Some(pooled) = versus_across(&timings, "LIFO", "FIFO") else {
        return Verdict::unmeasured("No map was searched with both LIFO and FIFO ties.");
    };
    let (faster, tied, slower) = counted(&parts);
    let outcome = if faster > 0 {
        Outcome::Holds
    } else if leaning.contains(&true) {
        Outcome::Undecided
    } else {
        Outcome::Fails
    };
    let summary = format!(
        "Over the maps pooled, `{BASELINE}` choosing the last added among equal f takes {} the time of choosing the first added ({}); faster beyond the tie margin on {faster} of {} (slower on {slower}, tied on {tied}).",
        ratio_of(&pooled),
        evidence(&pooled),
        plural(parts.len(), "map"),
    );
    let workloads = parts.len();
    Verdict::new(outcome, summary, details, workloads)
}
