//! The survey's structures: lists against heaps, pairing, Fibonacci and sequence heaps,
//! splay trees, d-ary heaps, B-heaps and quickheaps.

use pqlab_queues::{Class, Family, Origin};

use std::cmp::Ordering;

use super::{
    best, binary_heap, class, compare, evidence, family, held, octile, ratio_of, takes, Outcome,
    Verdict,
};
use crate::analysis::bands::{self, Band};
use crate::analysis::latency::latency;
use crate::analysis::rank::{rank, versus, versus_paired, Versus};
use crate::analysis::workloads::Timing;
use crate::analysis::{Findings, Run, Workload};
use crate::format::{axis_ratio, count, plural, ratio, time};
use crate::results::{Kind, Row, Status};
use std::collections::BTreeSet;

/// One size range's comparison: its label, the two queues, the ratio, and each workload's
/// pair of timings (for pooling ranges: [`three_way`]).
struct Step<'w> {
    label: String,
    size: f64,
    a: String,
    b: String,
    v: Versus,
    pairs: Vec<(Timing<'w>, Timing<'w>)>,
}

impl Step<'_> {
    /// "label: `a` takes [at least] R× the time of `b` (interval, workloads, censored)".
    fn sentence(&self) -> String {
        format!("{}: {}", self.label, takes(&self.a, &self.b, &self.v))
    }
}

/// The best `a` against the best `b` in every octile band, then at every held size from
/// `held_from` entries.
fn steps<'w>(
    run: &'w Run<'_>,
    a: impl Fn(&Row) -> bool + Copy,
    b: impl Fn(&Row) -> bool + Copy,
    held_from: f64,
) -> Vec<Step<'w>> {
    let mut groups: Vec<(String, f64, Vec<&Workload<'_>>)> = Band::all()
        .filter_map(|band| {
            let workloads = octile(run, |s| band.contains(s));
            (!workloads.is_empty())
                .then(|| (format!("octile A*, {} open cells", band.label()), band.lo, workloads))
        })
        .collect();
    for w in held(run, |s| s >= held_from) {
        groups.push((format!("held at {}", count(w.size)), w.size, vec![w]));
    }
    groups
        .into_iter()
        .filter_map(|(label, size, workloads)| {
            let (qa, qb) = (best(&workloads, a)?, best(&workloads, b)?);
            let v = versus(&workloads, qa, qb)?;
            let pairs =
                workloads.iter().filter_map(|w| Some((w.timing(qa)?, w.timing(qb)?))).collect();
            Some(Step { label, size, a: qa.into(), b: qb.into(), v, pairs })
        })
        .collect()
}

/// Holds when every step holds, partly when some do, fails when none does.
fn tally(steps: &[Step<'_>], holds: impl Fn(&Step<'_>) -> bool) -> (Outcome, usize) {
    let n = steps.iter().filter(|s| holds(s)).count();
    let outcome = match n {
        0 => Outcome::Fails,
        n if n == steps.len() => Outcome::Holds,
        _ => Outcome::Partly,
    };
    (outcome, n)
}

/// The one rule for "A is better than B" across size ranges ([`super::pooled_rule`]):
/// every range's workloads pooled, each side its range's best queue, decide; a range
/// where A is slower beyond the tie margin makes it partly. Also counts the ranges where
/// A is faster, tied and slower, and gives the pooled comparison.
fn three_way(steps: &[&Step<'_>]) -> (Outcome, usize, usize, usize, Option<Versus>) {
    let parts: Vec<Ordering> = steps.iter().map(|s| s.v.beyond_margin()).collect();
    let (faster, tied, slower) = super::counted(&parts);
    let pairs: Vec<_> = steps.iter().flat_map(|s| s.pairs.iter().copied()).collect();
    let pooled = versus_paired(&pairs, "A", "B");
    let outcome = pooled
        .as_ref()
        .map_or(Outcome::Unmeasured, |v| super::pooled_rule(Ordering::Less, v, parts));
    (outcome, faster, tied, slower, pooled)
}

/// Where a size-dependent answer turns: the first step from which it holds to the end.
fn turns(steps: &[Step<'_>], holds: impl Fn(&Step<'_>) -> bool) -> Option<String> {
    let tail = steps.iter().rev().take_while(|s| holds(s)).last()?;
    (tail.label != steps[0].label).then(|| format!("It holds from {} on.", tail.label))
}

/// A pooled comparison as it reads: "0.96× (95% interval 0.93–0.99×, 12 workloads)".
fn pooled(v: Option<Versus>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{} ({})", ratio_of(&v), evidence(&v)))
}

fn workloads(steps: &[Step<'_>]) -> usize {
    steps.iter().map(|s| s.v.n).sum()
}

/// The list's factor the article names for most situations ("at least 2-3 times"): its
/// lower end.
const MOST_SITUATIONS: f64 = 2.0;
/// The factor it names on longer paths ("10+ times as fast").
const LONGER_PATHS: f64 = 10.0;

/// "In my experience, this approach will be at least 2-3 times as fast in most situations,
/// and geometrically faster (10+ times as fast) on longer paths" (the beginners' A\*
/// article, of a binary heap against its sorted list): the best sorted array against the
/// best binary heap band by band on whole octile A\* searches, a cut-off counting as its
/// lower bound. "Most situations": more than half the bands show the list taking at least
/// 2× (the interval's low end), undecided when the ratios lean there and the intervals do
/// not show it. "Longer paths": the largest band shows at least 10×, fails when its
/// measured interval lies below 10×, and cannot be decided when the list was cut off there
/// at a bound below 10× (the cut-off caps what a run can see). Both halves: holds; one
/// fails and the other holds: partly; both fail: fails; otherwise undecided.
pub fn heap_against_lists(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    // The article measured a sorted list: the comparator is the best sorted array.
    let sorted = family(Family::SortedArray);
    let steps = steps(run, sorted, binary_heap, f64::INFINITY);
    let Some(longest) = steps.last() else {
        return Verdict::unmeasured(
            "No octile A* workload measured both a sorted array and a binary heap.",
        );
    };
    let shown = steps.iter().filter(|s| s.v.ratio.low >= MOST_SITUATIONS).count();
    let leaning = steps.iter().filter(|s| s.v.ratio.mid >= MOST_SITUATIONS).count();
    let most = if 2 * shown > steps.len() {
        Outcome::Holds
    } else if 2 * leaning > steps.len() {
        Outcome::Undecided
    } else {
        Outcome::Fails
    };
    let capped = longest.v.ratio.high.is_infinite() && longest.v.ratio.low < LONGER_PATHS;
    let longer = if longest.v.ratio.low >= LONGER_PATHS {
        Outcome::Holds
    } else if capped {
        Outcome::Unmeasured
    } else if longest.v.ratio.high < LONGER_PATHS {
        Outcome::Fails
    } else {
        Outcome::Undecided
    };
    let mut details: Vec<String> = steps.iter().map(|s| format!("{}.", s.sentence())).collect();
    let cut: Vec<String> = Band::all()
        .filter(|band| {
            octile(run, |s| band.contains(s))
                .iter()
                .any(|w| w.rows.values().any(|r| sorted(r) && r.status == Status::CutOff))
        })
        .map(|b| b.label())
        .collect();
    if !cut.is_empty() {
        details.push(format!(
            "Sorted arrays were cut off in the bands {} (their check passes ran over {} the baseline's, the run's cut-off); their measured lower bounds count there as \"at least\", and a lower bound that falls from one band to the next says nothing of growth.",
            cut.join(", "),
            axis_ratio(run.slowdown())
        ));
    }
    // Growth shows only between bands both measured: a cut-off's ratio is a lower bound.
    let measured: Vec<&Step<'_>> = steps.iter().filter(|s| s.v.censored == 0).collect();
    if let (Some(first), Some(last)) = (measured.first(), measured.last()) {
        if measured.len() > 1 {
            details.push(format!(
                "Where both were measured, the list's ratio goes from {} ({}) to {} ({}).",
                ratio(first.v.ratio.mid),
                first.label,
                ratio(last.v.ratio.mid),
                last.label
            ));
        }
    }
    let outcome = match (most, longer) {
        (Outcome::Holds, Outcome::Holds) => Outcome::Holds,
        (Outcome::Fails, Outcome::Fails) => Outcome::Fails,
        (Outcome::Fails, Outcome::Holds) | (Outcome::Holds, Outcome::Fails) => Outcome::Partly,
        _ => Outcome::Undecided,
    };
    let says = |o: Outcome| match o {
        Outcome::Holds => "holds",
        Outcome::Fails => "does not hold",
        Outcome::Unmeasured => "cannot be decided (the list was cut off below 10×)",
        _ => "is undecided",
    };
    let summary = format!(
        "\"At least 2-3 times as fast in most situations\" {}: the best sorted array (the article's list) takes at least 2× the best binary heap's time in {shown} of {} octile bands, cut-offs counting as their lower bounds; \"10+ times as fast on longer paths\" {}: in the largest band ({}) it takes {}.",
        says(most),
        steps.len(),
        says(longer),
        longest.label,
        ratio_of(&longest.v)
    );
    Verdict::new(outcome, summary, details, workloads(&steps))
}

/// "Pairing heaps work well in practice": against the best binary heap.
pub fn pairing_heaps_work_well(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    structure_against(run, family(Family::PairingHeap), binary_heap, "the best binary heap", |s| {
        !s.v.slower()
    })
}

/// "My gut feeling is that bucketing is promising." (the implementation guide, its
/// emphasis dropped, of Dijkstra's and A\*'s narrow priorities, with no size named, unlike
/// the 10,000 open nodes of Amit's pages): the best bucketing queue against the best other exact queue, band by band; a
/// band holds where it is not slower beyond the tie margin (the lab's reading of
/// "promising"). Every band: holds; some: partly, with where it turns; none: fails.
pub fn bucketing_at_every_size(findings: &Findings<'_, '_>) -> Verdict {
    let bucketing = class(Class::Bucketing);
    let other = move |row: &Row| !bucketing(row);
    structure_against(findings.run, bucketing, other, "another exact queue", |s| !s.v.slower())
}

/// "In real-time games, the latency of A\* is often more important than its
/// throughput." (the source's emphasis marks left out), the lab's own question beside it: does ranking by latency change the
/// pick? Per band of octile A\* workloads, the best exact queue by median time ([`best`])
/// against the exact queue with the lowest 99th-percentile search over the band (geometric
/// mean over its workloads, [`latency`]); a band holds where they differ. Every band:
/// holds; some: partly; none: fails. O(bands × queues × workloads).
pub fn latency_changes_the_pick(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let mut details = Vec::new();
    let (mut differ, mut counted, mut workloads) = (0, 0, 0);
    for band in Band::all() {
        let ws = octile(run, |s| band.contains(s));
        let weighted: Vec<(&Workload<'_>, f64)> = ws.iter().map(|w| (*w, 1.0)).collect();
        let Some(by_time) = best(&ws, |_| true) else { continue };
        let queues: BTreeSet<&str> = ws
            .iter()
            .flat_map(|w| w.rows.values())
            .filter(|r| bands::exact(r))
            .map(|r| r.queue.as_str())
            .collect();
        let p99 = |q: &str| latency(&weighted, q, bands::exact).map(|l| l.p99_ns);
        let by_p99 = queues
            .into_iter()
            .filter_map(|q| Some((q, p99(q)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let (Some((by_p99, low)), Some(its)) = (by_p99, p99(by_time)) else { continue };
        counted += 1;
        workloads += ws.len();
        let changed = by_p99 != by_time;
        differ += usize::from(changed);
        details.push(if changed {
            format!(
                "{}: `{by_time}` is fastest by median time, `{by_p99}` by the p99 search ({} against {}).",
                band.label(),
                time(low),
                time(its)
            )
        } else {
            format!("{}: `{by_time}` is fastest both ways (p99 search {}).", band.label(), time(its))
        });
    }
    if counted == 0 {
        return Verdict::unmeasured("No octile A* workload timed its searches one by one.");
    }
    let outcome = match differ {
        0 => Outcome::Fails,
        n if n == counted => Outcome::Holds,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "Ranking by the p99 search picks another queue than ranking by median time in {differ} of {}.",
        plural(counted, "band")
    );
    Verdict::new(outcome, summary, details, workloads)
}

/// "Fibonacci heaps are good in theory but not used in practice": slower than the best
/// binary heap, everywhere.
pub fn fibonacci_heaps_not_in_practice(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let mut verdict = structure_against(
        run,
        family(Family::FibonacciHeap),
        binary_heap,
        "the best binary heap",
        |s| s.v.slower(),
    );
    let all = octile(run, |_| true);
    if let (Some(fib), Some(pairing)) =
        (best(&all, family(Family::FibonacciHeap)), best(&all, family(Family::PairingHeap)))
    {
        if let Some((_, text)) = compare(&all, fib, pairing) {
            verdict.details.push(format!("Against its cousin the pairing heap: {text}."));
        }
    }
    verdict
}

/// One structure's best queue against another group's best, band by band; `holds` says
/// what the claim needs of each band's comparison.
fn structure_against(
    run: &Run<'_>,
    a: impl Fn(&Row) -> bool + Copy,
    b: impl Fn(&Row) -> bool + Copy,
    b_name: &str,
    holds: impl Fn(&Step) -> bool,
) -> Verdict {
    let steps = steps(run, a, b, f64::INFINITY);
    if steps.is_empty() {
        return Verdict::unmeasured(format!("No octile A* workload measured it with {b_name}."));
    }
    let (outcome, n) = tally(&steps, &holds);
    let all = octile(run, |_| true);
    let overall = best(&all, a).zip(best(&all, b)).and_then(|(qa, qb)| compare(&all, qa, qb));
    let mut details: Vec<String> = steps.iter().map(|s| format!("{}.", s.sentence())).collect();
    details.extend(turns(&steps, &holds));
    let summary = match overall {
        Some((_, text)) => format!(
            "Over all octile workloads, {text}; the claim holds in {n} of {} bands.",
            steps.len()
        ),
        None => format!("The claim holds in {n} of {} bands.", steps.len()),
    };
    Verdict::new(outcome, summary, details, workloads(&steps))
}

/// "Sequence heaps are the fastest comparison-based queue for large inputs" (and "at least
/// two times faster than binary and 4-ary heaps"), at held sizes from 10⁵ and in the
/// largest A* bands.
pub fn sequence_heaps_for_large_inputs(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let comparison = |row: &Row| bands::exact(row) && row.class != Some(Class::Bucketing);
    let sequence = family(Family::SequenceHeap);
    let mut large: Vec<&Workload<'_>> = held(run, |s| s >= 1e5);
    large.extend(octile(run, |s| s >= 3e4));
    if large.is_empty() || !run.rows.iter().any(sequence) {
        return Verdict::unmeasured("No large workload measured a sequence heap.");
    }
    let mut details = Vec::new();
    let (mut wins, mut doubles, mut sizes) = (0, 0, 0);
    for w in &large {
        let standings = rank(&[*w], comparison);
        let Some(seq) = standings.iter().find(|s| w.rows.get(s.queue).is_some_and(|r| sequence(r)))
        else {
            continue;
        };
        sizes += 1;
        let winner = standings.first().map_or("-", |s| s.queue);
        let place = if seq.tied {
            wins += 1;
            "is in the comparison-based winner's tie group"
        } else {
            "is behind"
        };
        let heaps: Vec<String> =
            [binary_heap as fn(&Row) -> bool, |r: &Row| r.family == Some(Family::DaryHeap)]
                .iter()
                .filter_map(|f| {
                    let other = super::best(&[*w], f)?;
                    let v = versus(&[*w], seq.queue, other)?;
                    Some((v, other))
                })
                .map(|(v, other)| {
                    if v.ratio.high <= 0.5 {
                        doubles += 1;
                    }
                    format!("{} `{other}`'s time", ratio_of(&v))
                })
                .collect();
        details.push(format!(
            "{} ({}): `{}` {place} (`{winner}`); it takes {}.",
            w.name,
            if w.kind == Kind::Synthetic { "held" } else { "octile A*" },
            seq.queue,
            heaps.join(" and ")
        ));
    }
    if sizes == 0 {
        return Verdict::unmeasured("No large workload timed a sequence heap (cut off or failed).");
    }
    let outcome = match wins {
        0 => Outcome::Fails,
        n if n == sizes => Outcome::Holds,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "The sequence heap is in the tie group of the fastest comparison-based queue on {wins} of {sizes} large workloads; it takes at most half the time of a binary or 4-ary heap in {doubles} comparisons."
    );
    Verdict::new(outcome, summary, details, sizes)
}

/// "Splay trees' caching makes them competitive in A*": against std's binary heap, the
/// usual choice.
pub fn splay_trees_competitive(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let baseline = |row: &Row| row.queue == pqlab_queues::registry::BASELINE;
    structure_against(run, family(Family::SplayTree), baseline, "std's binary heap", |s| {
        !s.v.slower()
    })
}

/// "A quickheap is 2–3× faster than published Rust heaps" (a 2025 Rust write-up): the
/// quickheap against the best published heap (std's `BinaryHeap` and the heap crates the
/// lab adapts, never pqlab's own heaps), band by band; a band holds where the quickheap
/// takes at most half that heap's time, the whole 95% interval included.
pub fn quickheaps_beat_published_heaps(findings: &Findings<'_, '_>) -> Verdict {
    let published = |row: &Row| {
        row.class == Some(Class::Heap)
            && pqlab_queues::registry::find(&row.queue)
                .is_some_and(|e| !matches!(e.origin, Origin::Ours { .. }))
    };
    let quickheap = family(Family::Quickheap);
    structure_against(findings.run, quickheap, published, "a published heap", |s| {
        s.v.ratio.high <= 0.5
    })
}

/// "About 2× the radix heap's speed on push/pop pairs, consistently the fastest in Dijkstra
/// and Prim" (the SimdQuickHeap's authors, ESA 2026): the SimdQuickHeap against the best
/// radix heap, band by band; a band holds where it takes at most half that heap's time,
/// the whole 95% interval included (the quickheap claim's rule).
pub fn simd_quickheap_twice_the_radix_heap(findings: &Findings<'_, '_>) -> Verdict {
    let simd = family(Family::SimdQuickHeap);
    structure_against(findings.run, simd, family(Family::RadixHeap), "a radix heap", |s| {
        s.v.ratio.high <= 0.5
    })
}

/// "d-ary heaps have better cache behaviour": arity apart from implementation. The rule
/// reads pqlab's own d-ary heap alone, one code for every d (the same origin as
/// `dary2-dk`): the best of d = 4 and 8 against d = 2, faster where the frontier outgrows
/// the caches (the ranges from 10,000 entries pooled, [`three_way`]). The best d-ary heap of any implementation against the best binary heap is
/// shown beside it.
pub fn dary_heaps_cache_better(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let same_code = |row: &Row| {
        let origin = |id: &str| pqlab_queues::registry::find(id).map(|e| e.origin);
        origin(&row.queue)
            .is_some_and(|o| Some(o) == origin(crate::analysis::findings::INDEXED_BINARY_HEAP))
    };
    let wider = move |row: &Row| same_code(row) && row.family == Some(Family::DaryHeap);
    let two = move |row: &Row| same_code(row) && binary_heap(row);
    let steps = steps(run, wider, two, 1e4);
    if steps.is_empty() {
        return Verdict::unmeasured(
            "No workload measured pqlab's d-ary heap with d = 2 and a wider one.",
        );
    }
    // Cache effects show where the frontier outgrows the caches: the ranges from 10,000
    // entries decide, every range where none is that large.
    let (all, faster, tied, slower, pooled_all) = three_way(&steps.iter().collect::<Vec<_>>());
    let large: Vec<&Step<'_>> = steps.iter().filter(|s| s.size >= 1e4).collect();
    let (large_outcome, large_faster, _, _, large_pooled) = three_way(&large);
    let outcome = if large.is_empty() { all } else { large_outcome };
    let mut details: Vec<String> = steps
        .iter()
        .map(|s| format!("Same code, d = 4 or 8 against d = 2: {}.", s.sentence()))
        .collect();
    details.extend(turns(&steps, |s| s.v.faster()));
    details.extend(self::steps(run, family(Family::DaryHeap), binary_heap, 1e4).iter().map(|s| {
        format!(
            "Any implementation, the best d-ary heap against the best binary heap: {}.",
            s.sentence()
        )
    }));
    let summary = format!(
        "Pooled over every size range, pqlab's d-ary heap with d = 4 or 8 takes {} the time of the same code with d = 2, and {} from 10,000 entries; per range, faster beyond the tie margin in {faster}, tied in {tied}, slower in {slower}, of {} ({large_faster} of {} faster from 10,000 entries).",
        pooled(pooled_all),
        pooled(large_pooled),
        steps.len(),
        large.len()
    );
    Verdict::new(outcome, summary, details, workloads(&steps))
}

/// "B-heaps are worth a look if your frontier is large": the seed offers them beside d-ary
/// heaps, as alternatives to a binary heap, so the comparator is the best binary heap from
/// 10,000 entries; the best binary or d-ary heap is shown beside it.
pub fn b_heaps_for_large_frontiers(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let implicit = |row: &Row| matches!(row.family, Some(Family::BinaryHeap | Family::DaryHeap));
    let mut steps = steps(run, family(Family::BHeap), binary_heap, 1e4);
    let mut either = self::steps(run, family(Family::BHeap), implicit, 1e4);
    steps.retain(|s| s.size >= 1e4);
    either.retain(|s| s.size >= 1e4);
    if steps.is_empty() {
        return Verdict::unmeasured(
            "No workload from 10,000 entries measured a B-heap with a binary heap.",
        );
    }
    // Worth a look only where it is faster: a tie over the ranges pooled fails.
    let (outcome, faster, tied, slower, pooled_binary) =
        three_way(&steps.iter().collect::<Vec<_>>());
    let (.., pooled_either) = three_way(&either.iter().collect::<Vec<_>>());
    let mut details: Vec<String> = steps
        .iter()
        .map(|s| format!("Against the best binary heap (the seed's comparator): {}.", s.sentence()))
        .collect();
    details.extend(
        either.iter().map(|s| format!("Against the best binary or d-ary heap: {}.", s.sentence())),
    );
    let (either_faster, either_slower) = (
        either.iter().filter(|s| s.v.faster()).count(),
        either.iter().filter(|s| s.v.slower()).count(),
    );
    let summary = format!(
        "From 10,000 entries, pooled over the size ranges, the best B-heap takes {} the time of the best binary heap; per range it is faster beyond the tie margin in {faster}, tied in {tied}, slower in {slower}, of {}. Against the best binary or d-ary heap it takes {}, faster in {either_faster} ranges, slower in {either_slower}, of {}.",
        pooled(pooled_binary),
        steps.len(),
        pooled(pooled_either),
        either.len()
    );
    Verdict::new(outcome, summary, details, workloads(&steps))
}

/// "If we use skip lists with the f value as the key, … This is no better than sorted
/// linked lists.": the best skip list against the best sorted array, band by band; a band
/// holds where the skip list is not faster beyond the tie margin.
pub fn skip_lists_no_better_than_sorted(findings: &Findings<'_, '_>) -> Verdict {
    let skip = family(Family::SkipList);
    let sorted = family(Family::SortedArray);
    structure_against(findings.run, skip, sorted, "a sorted array", |s| !s.v.faster())
}

/// "This is simple, but really slow for long paths. This can be improved by maintaining a
/// sorted list": the best sorted array against the best unsorted array in the largest
/// octile band both reached (the longest paths), a cut-off counting as its bound: holds when
/// the sorted array is faster beyond the tie margin, fails when it is not faster and the
/// figures are measured, undecided when a cut-off's bound leaves it open. The other bands
/// are shown beside it.
pub fn sorted_lists_for_long_paths(findings: &Findings<'_, '_>) -> Verdict {
    let sorted = family(Family::SortedArray);
    let unsorted = family(Family::UnsortedArray);
    let steps = steps(findings.run, sorted, unsorted, f64::INFINITY);
    let Some(longest) = steps.last() else {
        return Verdict::unmeasured(
            "No octile A* workload measured both a sorted and an unsorted array.",
        );
    };
    let outcome = if longest.v.faster() {
        Outcome::Holds
    } else if longest.v.censored > 0 {
        Outcome::Undecided
    } else {
        Outcome::Fails
    };
    let details = steps.iter().map(|s| format!("{}.", s.sentence())).collect();
    let summary = format!(
        "On the longest paths ({}), {}.",
        longest.label,
        takes(&longest.a, &longest.b, &longest.v)
    );
    Verdict::new(outcome, summary, details, longest.v.n)
}

/// "I would expect that HOT queues get faster as the number of nodes increases": faster
/// than the heap they replace, so the best HOT queue's time over the best binary heap's,
/// band by band; holds when the largest band's ratio lies below the smallest band's beyond
/// the tie margin (the intervals apart), fails when above or level. Bands with a cut-off
/// on either side do not enter: a bound cannot show a trend.
pub fn hot_queues_faster_as_n_grows(findings: &Findings<'_, '_>) -> Verdict {
    let hot = family(Family::HotQueue);
    let steps = steps(findings.run, hot, binary_heap, f64::INFINITY);
    let measured: Vec<&Step<'_>> = steps.iter().filter(|s| s.v.censored == 0).collect();
    let (Some(first), Some(last)) = (measured.first(), measured.last()) else {
        return Verdict::unmeasured("No octile A* band measured a HOT queue and a binary heap.");
    };
    if measured.len() < 2 {
        return Verdict::unmeasured(
            "Only one octile A* band measured a HOT queue and a binary heap.",
        );
    }
    let outcome = if last.v.ratio.high * crate::analysis::TIE_MARGIN < first.v.ratio.low {
        Outcome::Holds
    } else if last.v.ratio.mid * crate::analysis::TIE_MARGIN < first.v.ratio.mid {
        Outcome::Undecided
    } else {
        Outcome::Fails
    };
    let details = steps.iter().map(|s| format!("{}.", s.sentence())).collect();
    let summary = format!(
        "Against the best binary heap, the best HOT queue takes {} ({}) and {} ({}).",
        pooled(Some(first.v)),
        first.label,
        pooled(Some(last.v)),
        last.label
    );
    Verdict::new(outcome, summary, details, workloads(&steps))
}
