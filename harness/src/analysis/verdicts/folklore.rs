//! The game programmers' folklore: binary heaps, arrays, bucketing, HOT queues, and
//! duplicates against decrease-key.

use pqlab_queues::registry::BASELINE;
use pqlab_queues::{Class, Family, Strategy};

use super::{best, binary_heap, class, compare, family, octile, sized, source, Outcome, Verdict};
use crate::analysis::bands::STRONG;
use crate::analysis::bands::{self, Eligible};
use crate::analysis::findings::INDEXED_BINARY_HEAP;
use crate::analysis::rank::{versus, TIE_MARGIN};
use crate::analysis::Findings;
use crate::format::{plural, ratio};
use crate::results::{Kind, Row};
use crate::search::Series;

/// "The best generic choice is a binary heap. If you have a binary heap library available,
/// use it.": generic means exact and accepting any key, and the binary heap the text
/// recommends is the library one, std's BinaryHeap. The fastest generic queue against it
/// over the octile A\* workloads: holds when that is std's heap or not faster beyond the
/// tie margin, partly when a binary heap ties in some band, fails otherwise. A two-level
/// queue is named as the text files it, "a cheap variant of a HOT queue".
pub fn binary_heap_is_the_generic_choice(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let all = octile(run, |_| true);
    let top = best(&all, bands::any_keys);
    let library = all.iter().any(|w| w.ok(BASELINE).is_some());
    let (Some(top), true) = (top, library) else {
        return Verdict::unmeasured(
            "No octile A* rows measure std's BinaryHeap and another generic queue.",
        );
    };
    let per_band = findings.bands(&Series::OCTILE, Eligible::AnyKeys);
    let heap_bands = per_band
        .iter()
        .filter(|b| {
            b.tie_group().iter().any(|s| {
                b.evidence.workloads.iter().any(|w| w.ok(s.queue).is_some_and(binary_heap))
            })
        })
        .count();
    let mut details = vec![format!(
        "Generic means exact and accepting any key; {} octile A* workloads; the binary heap the text recommends is the library one, `{BASELINE}`.",
        all.len()
    )];
    details.push(format!(
        "Best generic queue per band (its tie group): {}.",
        per_band
            .iter()
            .filter_map(|b| {
                let group: Vec<String> =
                    b.tie_group().iter().map(|s| format!("`{}`", s.queue)).collect();
                (!group.is_empty())
                    .then(|| format!("{}: {}", b.evidence.band.label(), group.join(", ")))
            })
            .collect::<Vec<_>>()
            .join("; ")
    ));
    if top == BASELINE {
        let summary =
            format!("`{BASELINE}` is the fastest generic queue over all {} workloads.", all.len());
        return Verdict::new(Outcome::Holds, summary, details, all.len());
    }
    let (v, text) = compare(&all, top, BASELINE).expect("both contend over all workloads");
    let two_level =
        all.iter().any(|w| w.rows.get(top).is_some_and(|r| r.family == Some(Family::TwoLevel)));
    if two_level {
        details.push(format!(
            "`{top}` is a two-level queue: the text's \"cheap variant of a HOT queue\", not an array."
        ));
    }
    let outcome = if !v.faster() {
        Outcome::Holds
    } else if heap_bands > 0 {
        Outcome::Partly
    } else {
        Outcome::Fails
    };
    let summary = format!(
        "{text}; a binary heap is in the winner's tie group in {heap_bands} of {}.",
        plural(per_band.len(), "band")
    );
    Verdict::new(outcome, summary, details, all.len())
}

/// Where the best unsorted array stands against the best sorted array in one band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lead {
    /// Faster, or tied within the tie margin.
    Leads,
    /// Slower beyond the tie margin.
    Stops,
    /// A cut-off's bound that does not settle it ("at least 0.87×"), or both arrays cut
    /// off on every workload of the band.
    Untold,
}

/// [`Lead`] from the unsorted array's time over the sorted array's, `None` when both were
/// cut off everywhere. A lower bound ("at least") leads nowhere: only a shown slowdown
/// settles it; an upper bound ("at most") leads when the bound itself is within the margin.
fn lead(v: Option<&crate::analysis::Versus>) -> Lead {
    let Some(v) = v else { return Lead::Untold };
    if v.slower() {
        Lead::Stops
    } else if v.ratio.high.is_infinite() {
        Lead::Untold
    } else if v.ratio.low == 0.0 && v.censored > 0 {
        if v.ratio.mid <= crate::analysis::TIE_MARGIN {
            Lead::Leads
        } else {
            Lead::Untold
        }
    } else {
        Lead::Leads
    }
}

/// "unsorted arrays for small frontiers": the seed calls them "my second choice after
/// binary heaps, especially for smaller F", conceding they are slower than a binary heap,
/// so the question is their rank among the simple structures (unsorted and sorted arrays)
/// by size. Per band (octile searches, else held sizes), smallest first: the best unsorted
/// array against the best sorted array *leads* when it is not slower beyond the tie margin
/// ([`lead`]: a cut-off's bound that cannot settle it, or both arrays cut off, is untold).
/// Holds when it leads in every band below 100 open cells, partly when it stops in some,
/// fails when it leads in none, undecided when the bands it does not lead are untold; the
/// best binary heap is shown beside it, and a band answered by fewer than three
/// workloads, or by the queue alone at held sizes (no A\* search is that small), is marked
/// weak.
pub fn unsorted_arrays_for_small_frontiers(findings: &Findings<'_, '_>) -> Verdict {
    let unsorted = family(Family::UnsortedArray);
    let sorted = family(Family::SortedArray);
    let ranked = findings.bands(&Series::OCTILE, Eligible::Exact);
    let steps: Vec<_> = ranked
        .iter()
        .filter_map(|band| {
            let w = &band.evidence.workloads;
            let (u, a) = (best(w, unsorted)?, best(w, sorted)?);
            let compared = compare(w, u, a);
            let heap = best(w, binary_heap).and_then(|h| compare(w, u, h)).map(|(_, t)| t);
            let text = compared.as_ref().map_or_else(
                || format!("`{u}` and `{a}` were both cut off on every workload"),
                |(_, t)| t.clone(),
            );
            Some((band, lead(compared.as_ref().map(|(v, _)| v)), text, heap))
        })
        .collect();
    let small: Vec<_> = steps.iter().filter(|(b, ..)| b.evidence.band.hi <= 100.0).collect();
    if small.is_empty() {
        return Verdict::unmeasured(
            "No frontier below 100 open cells was measured with an unsorted and a sorted array.",
        );
    }
    let count = |l: Lead| small.iter().filter(|(_, s, ..)| *s == l).count();
    let (holds, untold) = (count(Lead::Leads), count(Lead::Untold));
    let weak = |b: &crate::analysis::BandRanking<'_, '_>| {
        b.evidence.kind == Kind::Synthetic || b.evidence.workloads.len() < STRONG
    };
    let mut details: Vec<String> = steps
        .iter()
        .map(|(b, l, text, heap)| {
            let word = match l {
                Lead::Leads => "leads",
                Lead::Stops => "slower",
                Lead::Untold => "cannot be told",
            };
            format!(
                "{} ({}{}): {text}: {word}{}.",
                b.evidence.band.label(),
                source(b.evidence.kind),
                if weak(b) { "; weak" } else { "" },
                heap.as_ref()
                    .map_or(String::new(), |t| format!("; against the best binary heap, {t}"))
            )
        })
        .collect();
    let first = |l: Lead| steps.iter().find(|(_, s, ..)| *s == l).map(|(b, ..)| b.evidence.band);
    let (stops, unknown) = (first(Lead::Stops), first(Lead::Untold));
    let where_ = match (stops, unknown) {
        (Some(band), _) => format!("it stops leading from the {} band.", band.label()),
        (None, Some(band)) => format!(
            "it leads in every band it could be told in; from the {} band the cut-offs cannot tell.",
            band.label()
        ),
        (None, None) => "it leads in every band measured.".into(),
    };
    details.push(format!("Among the simple structures, {where_}"));
    let outcome = if holds == small.len() {
        Outcome::Holds
    } else if holds + untold == small.len() {
        if holds == 0 && untold > 0 {
            Outcome::Unmeasured
        } else {
            Outcome::Undecided
        }
    } else if holds == 0 {
        Outcome::Fails
    } else {
        Outcome::Partly
    };
    let weak_small = small.iter().filter(|(b, ..)| weak(b)).count();
    let summary = format!(
        "Among the simple structures, the best unsorted array is faster than or tied with the best sorted array in {holds} of {} below 100 open cells ({weak_small} of them weak, {untold} that the cut-offs cannot tell); {where_}",
        plural(small.len(), "band"),
    );
    let workloads = small.iter().map(|(b, ..)| b.evidence.workloads.len()).sum();
    Verdict::new(outcome, summary, details, workloads)
}

/// "bucketing above 10,000 open nodes".
pub fn bucketing_above_10k(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let bucketing = class(Class::Bucketing);
    let against = |within: fn(f64) -> bool| {
        let (kind, workloads) = sized(run, within)?;
        let bucket = best(&workloads, bucketing)?;
        let other = best(&workloads, |r| !bucketing(r))?;
        let (v, text) = compare(&workloads, bucket, other)?;
        Some((v, text, kind, workloads.len()))
    };
    let Some((v, text, kind, n)) = against(|size| size >= 1e4) else {
        return Verdict::unmeasured("No frontier of 10,000 open cells or more was measured with a bucketing queue and another.");
    };
    let mut details = vec![format!(
        "Bucketing: bucket queues, radix heaps and HOT queues. From 10,000 open cells ({}): {text}.",
        source(kind)
    )];
    if let Some((_, below, kind, _)) = against(|size| size < 1e4) {
        details.push(format!("Below 10,000 ({}): {below}.", source(kind)));
    }
    // Where bucketing starts to win, from the searches alone: the held-size bands above
    // the largest search would otherwise mask the turn.
    let ranked: Vec<_> = findings
        .bands(&Series::OCTILE, Eligible::Exact)
        .into_iter()
        .filter(|b| b.evidence.kind == crate::results::Kind::Astar)
        .collect();
    let wins = |b: &&bands::BandRanking<'_, '_>| {
        b.winner().is_some_and(|w| {
            b.evidence.workloads.iter().any(|wl| wl.ok(w.queue).is_some_and(bucketing))
        })
    };
    let turn = match ranked.iter().rev().take_while(wins).last() {
        Some(from) => format!(
            "in the octile A* bands a bucketing queue wins every band from {} open cells up: the threshold the data give (the text says 10,000)",
            from.evidence.band.label()
        ),
        None => "in the largest octile A* band a bucketing queue does not win: the data give no threshold".into(),
    };
    let outcome = if v.faster() {
        Outcome::Holds
    } else if v.slower() {
        Outcome::Fails
    } else {
        Outcome::Partly
    };
    Verdict::new(outcome, format!("From 10,000 open cells, {text}; {turn}."), details, n)
}

/// The HOT queue's time against a binary heap's that "20% faster" means: 1/1.2.
const TWENTY_PERCENT_FASTER: f64 = 1.0 / 1.2;

/// Up to 800 open cells: "as fast as heaps for at most 800 nodes".
fn up_to_800(size: f64) -> bool {
    size <= 800.0
}

/// Above 800 and up to 1,500 open cells: "20% faster when there are at most 1500 nodes",
/// the sentence's second bracket.
fn up_to_1500(size: f64) -> bool {
    size > 800.0 && size <= 1500.0
}

/// "One person reported that HOT queues are as fast as heaps for at most 800 nodes in the
/// OPEN set, and are 20% faster when there are at most 1500 nodes": the best HOT queue
/// against the best binary heap (the seed's comparator). Up to 800 open cells it holds when
/// not slower beyond the tie margin; from 800 to 1,500 when it takes at most 1/1.2 of the
/// heap's time, the interval's high end included, and is undecided when only the ratio
/// does. Both: holds; neither: fails; one holds and one fails: partly; else undecided.
pub fn hot_queues_against_heaps(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let hot = family(Family::HotQueue);
    let part = |within: fn(f64) -> bool| {
        let (kind, workloads) = sized(run, within)?;
        let hot = best(&workloads, hot)?;
        let heap = best(&workloads, binary_heap)?;
        let (v, text) = compare(&workloads, hot, heap)?;
        Some((v, format!("{}: {text}", source(kind)), workloads.len()))
    };
    let small = part(up_to_800);
    let near = part(up_to_1500);
    if small.is_none() && near.is_none() {
        return Verdict::unmeasured("No frontier up to 1,500 open cells was measured with both a HOT queue and a binary heap.");
    }
    let mut details = Vec::new();
    let small_holds = small.as_ref().map(|(v, text, _)| {
        details.push(format!("Up to 800 open cells, {text}."));
        if v.slower() {
            Outcome::Fails
        } else {
            Outcome::Holds
        }
    });
    let near_holds = near.as_ref().map(|(v, text, _)| {
        details.push(format!("From 800 to 1,500 open cells, {text}."));
        if v.ratio.high <= TWENTY_PERCENT_FASTER {
            Outcome::Holds
        } else if v.ratio.mid <= TWENTY_PERCENT_FASTER {
            Outcome::Undecided
        } else {
            Outcome::Fails
        }
    });
    // The seed's "heaps" are binary heaps (its source compares against one); against the
    // best binary or d-ary heap, for the reader who would pick that instead.
    let implicit = |r: &Row| matches!(r.family, Some(Family::BinaryHeap | Family::DaryHeap));
    for (label, within) in
        [("Up to 800 open cells", up_to_800 as fn(f64) -> bool), ("From 800 to 1,500", up_to_1500)]
    {
        let line = sized(run, within).and_then(|(_, w)| {
            let (h, d) = (best(&w, family(Family::HotQueue))?, best(&w, implicit)?);
            compare(&w, h, d).map(|(_, text)| text)
        });
        if let Some(text) = line {
            details.push(format!(
                "{label}, against the best binary or d-ary heap (not the seed's comparator): {text}."
            ));
        }
    }
    let outcome = match (small_holds, near_holds) {
        (Some(Outcome::Holds), Some(Outcome::Holds)) => Outcome::Holds,
        (Some(Outcome::Fails), Some(Outcome::Fails) | None) | (None, Some(Outcome::Fails)) => {
            Outcome::Fails
        }
        (Some(Outcome::Holds), Some(Outcome::Fails))
        | (Some(Outcome::Fails), Some(Outcome::Holds)) => Outcome::Partly,
        _ => Outcome::Undecided,
    };
    let says =
        |part: Option<Outcome>| part.map_or("was not measured".to_owned(), |o| o.to_string());
    let summary = format!(
        "\"As fast as heaps for at most 800 nodes\": {}; \"20% faster when there are at most 1500 nodes\" (from 800 to 1,500 open cells): {} (the best HOT queue against the best binary heap; 20% faster means taking at most {} the time).",
        says(small_holds),
        says(near_holds),
        ratio(TWENTY_PERCENT_FASTER)
    );
    let workloads = small.map_or(0, |s| s.2) + near.map_or(0, |s| s.2);
    Verdict::new(outcome, summary, details, workloads)
}

/// "skip decrease-key and insert duplicates", with the seeds' reason that adjustments
/// are rare ("which is rare"; "but rarely, in my experience"). Three pairings, each
/// duplicates against decrease-key over the octile A\* workloads: the seeds' own (std's
/// BinaryHeap, a library heap without decrease-key, against the indexed binary heap
/// `dary2-dk`), library against library (std's against the best library binary heap with
/// decrease-key), and each structure built both ways against itself (duplicates not slower
/// beyond the margin for most structures). A pairing supports the advice when duplicates
/// are not slower beyond the tie margin; all three: holds, none: fails, else partly. The
/// premise that adjustments are rare is its own claim ([`adjustments_are_rare`]).
pub fn duplicates_over_decrease_key(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let all = octile(run, |_| true);
    let is = |strategy: Strategy| move |row: &Row| row.strategy == Some(strategy);
    let (Some(dup), Some(dk)) =
        (best(&all, is(Strategy::Duplicates)), best(&all, is(Strategy::DecreaseKey)))
    else {
        return Verdict::unmeasured("The octile A* rows do not measure both strategies.");
    };
    // The seeds' own pair.
    let Some((seeds, seeds_text)) = compare(&all, BASELINE, INDEXED_BINARY_HEAP) else {
        return Verdict::unmeasured(
            "The octile A* rows do not measure std's BinaryHeap beside the indexed binary heap.",
        );
    };
    let mut supports = usize::from(!seeds.slower());
    let mut pairings = 1;
    let mut details = vec![format!(
        "The seeds' pair, a library heap without decrease-key against an indexed one: {seeds_text}."
    )];
    // Library against library.
    let library_dk = best(&all, |r| {
        binary_heap(r)
            && r.strategy == Some(Strategy::DecreaseKey)
            && pqlab_queues::registry::find(&r.queue)
                .is_some_and(|e| !matches!(e.origin, pqlab_queues::Origin::Ours { .. }))
    });
    let library = library_dk.and_then(|q| compare(&all, BASELINE, q));
    if let Some((v, text)) = &library {
        pairings += 1;
        supports += usize::from(!v.slower());
        details.push(format!("Library against library: {text}."));
    }
    // Each structure against itself.
    let (mut dup_not_slower, mut compared) = (0, 0);
    for (structure, dup_id, dk_id) in findings.strategy_pairs() {
        if let Some(v) = versus(&all, &dup_id, &dk_id) {
            compared += 1;
            dup_not_slower += usize::from(!v.slower());
            details.push(format!(
                "`{structure}` against itself: duplicates take {} the time of decrease-key ({}).",
                super::ratio_of(&v),
                super::evidence(&v)
            ));
        }
    }
    if compared > 0 {
        pairings += 1;
        supports += usize::from(2 * dup_not_slower > compared);
    }
    let (_, best_text) = compare(&all, dup, dk).expect("both contend over all workloads");
    details.push(format!("Best against best: {best_text}."));
    let outcome = match supports {
        0 => Outcome::Fails,
        n if n == pairings => Outcome::Holds,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "The seeds' pair: {seeds_text}; library against library: {}; duplicates are not slower beyond the tie margin for {dup_not_slower} of {compared} {} built both ways.",
        library.as_ref().map_or("not measured".to_owned(), |(_, text)| text.clone()),
        if compared == 1 { "structure" } else { "structures" }
    );
    Verdict::new(outcome, summary, details, all.len())
}

/// The most a share may be and still read as "rare": one in ten. The sources give no
/// figure; this is the lab's reading.
const RARE: f64 = 0.1;

/// "(which is rare)" and "(but rarely, in my experience)": the premise of skipping
/// decrease-key. Over the octile A\* workloads, the share of key updates that lowered a
/// key already in the frontier (`dary2-dk`'s decrease-keys over its pushes and
/// decrease-keys: the better `f` the first source calls rare) and the share of std's pops
/// that were stale duplicates (the revisits the second calls rare), each pooled over the
/// workloads with its range across them. A share is rare at [`RARE`] or below: both rare
/// holds, neither fails, one partly. The counts are exact, not timed: no interval.
pub fn adjustments_are_rare(findings: &Findings<'_, '_>) -> Verdict {
    let all = octile(findings.run, |_| true);
    // A queue's share `part / (part + rest)`, pooled and per workload.
    let share = |queue: &str, part: fn(&Row) -> f64, whole: fn(&Row) -> f64| {
        let rows: Vec<&Row> =
            all.iter().filter_map(|w| w.ok(queue)).filter(|r| whole(r) > 0.0).collect();
        let pooled =
            rows.iter().map(|r| part(r)).sum::<f64>() / rows.iter().map(|r| whole(r)).sum::<f64>();
        let each: Vec<f64> = rows.iter().map(|r| part(r) / whole(r)).collect();
        let low = each.iter().copied().fold(f64::INFINITY, f64::min);
        let high = each.iter().copied().fold(0.0, f64::max);
        (!rows.is_empty()).then_some((pooled, low, high, rows.len()))
    };
    let updates = share(INDEXED_BINARY_HEAP, |r| r.decrease_keys, |r| r.pushes + r.decrease_keys);
    let stale = share(BASELINE, |r| r.stale_pops, |r| r.pops);
    let (Some(updates), Some(stale)) = (updates, stale) else {
        return Verdict::unmeasured(
            "The octile A* rows do not count the indexed binary heap's updates and std's pops.",
        );
    };
    let text = |(pooled, low, high, n): (f64, f64, f64, usize)| {
        format!(
            "{:.1}% ({:.1}–{:.1}% across {})",
            100.0 * pooled,
            100.0 * low,
            100.0 * high,
            plural(n, "workload")
        )
    };
    let rare = |s: (f64, f64, f64, usize)| s.0 <= RARE;
    let outcome = match (rare(updates), rare(stale)) {
        (true, true) => Outcome::Holds,
        (false, false) => Outcome::Fails,
        _ => Outcome::Partly,
    };
    let summary = format!(
        "Decrease-keys are {} of `{INDEXED_BINARY_HEAP}`'s key updates, and stale duplicates {} of `{BASELINE}`'s pops, over the octile A* workloads (rare: at most {:.0}%).",
        text(updates),
        text(stale),
        100.0 * RARE
    );
    Verdict::new(outcome, summary, Vec::new(), updates.3.max(stale.3))
}

/// "Some implementations *always* insert a new node into the open set …": the indexed
/// binary heap (the text's cheap open-set test) built both ways, `dary2-dup` against
/// `dary2-dk`, over the octile A\* workloads, in three parts. The open set bigger (each
/// workload's mean peak entries, duplicates ÷ decrease-key), more nodes evaluated (pops,
/// duplicates ÷ decrease-key: the stale ones are the extra evaluations) and slower (time,
/// with its 95% interval). A count part shows its side when every workload's ratio is
/// beyond the tie margin, and leans so when the pooled ratio is; the time part reads the
/// interval ([`super::pooled_rule`]). Each part holds, is undecided (it leans but does not
/// show) or fails, and the parts decide together ([`super::of_parts`]). Counts come from the searches that finished (a cut-off row has none); a
/// cut-off time is a bound, as everywhere.
pub fn always_insert_duplicates(findings: &Findings<'_, '_>) -> Verdict {
    const DUP: &str = "dary2-dup";
    let all = octile(findings.run, |_| true);
    let Some(time) = versus(&all, DUP, INDEXED_BINARY_HEAP) else {
        return Verdict::unmeasured(
            "The octile A* rows do not time the indexed binary heap both ways.",
        );
    };
    let counted = |part: fn(&Row) -> f64| {
        let pairs: Vec<(f64, f64)> = all
            .iter()
            .filter_map(|w| Some((part(w.ok(DUP)?), part(w.ok(INDEXED_BINARY_HEAP)?))))
            .filter(|&(_, dk)| dk > 0.0)
            .collect();
        CountRatio::of(&pairs)
    };
    let (Some(entries), Some(pops)) = (counted(|r| r.max_frontier), counted(|r| r.pops)) else {
        return Verdict::unmeasured(
            "The octile A* rows do not count the indexed binary heap's entries and pops both ways.",
        );
    };
    let stale: f64 = all.iter().filter_map(|w| w.ok(DUP)).map(|r| r.stale_pops).sum::<f64>()
        / all.iter().filter_map(|w| w.ok(DUP)).map(|r| r.pops).sum::<f64>().max(1.0);
    let parts = [
        entries.outcome(),
        pops.outcome(),
        super::pooled_rule(std::cmp::Ordering::Greater, &time, []),
    ];
    let outcome = super::of_parts(&parts);
    let summary = format!(
        "With duplicates, `{DUP}`'s open set peaks at {} the entries of `{INDEXED_BINARY_HEAP}`'s ({}): bigger {}; it pops {} the nodes ({}; {:.1}% of its pops stale): more evaluated {}; and {}: slower {}.",
        ratio(entries.pooled),
        entries.range("workload"),
        parts[0],
        ratio(pops.pooled),
        pops.range("workload"),
        100.0 * stale,
        parts[1],
        super::takes(DUP, INDEXED_BINARY_HEAP, &time),
        parts[2]
    );
    Verdict::new(outcome, summary, Vec::new(), time.n.max(entries.n))
}

/// An exact count's ratio over workloads: pooled (sum over sum) with its range across them.
#[derive(Clone, Copy, Debug)]
pub(super) struct CountRatio {
    /// The sum of the first counts over the sum of the second.
    pub pooled: f64,
    /// The smallest ratio of one pair.
    pub low: f64,
    /// The largest.
    pub high: f64,
    /// How many pairs.
    pub n: usize,
}

impl CountRatio {
    /// The ratio of `(a, b)` pairs (each `b` positive), `None` without any.
    pub(super) fn of(pairs: &[(f64, f64)]) -> Option<CountRatio> {
        let each = pairs.iter().map(|(a, b)| a / b);
        Some(CountRatio {
            pooled: pairs.iter().map(|p| p.0).sum::<f64>() / pairs.iter().map(|p| p.1).sum::<f64>(),
            low: each.clone().reduce(f64::min)?,
            high: each.reduce(f64::max)?,
            n: pairs.len(),
        })
    }

    /// "1.00×–1.04× across 12 workloads", its pairs named `each` ("workload").
    pub(super) fn range(&self, each: &str) -> String {
        format!("{}–{} across {}", ratio(self.low), ratio(self.high), plural(self.n, each))
    }

    /// Whether the first count is larger beyond the tie margin: shown when every workload's
    /// ratio is ([`super::rule`]'s `shown`), leaning when the pooled one is.
    pub(super) fn outcome(&self) -> Outcome {
        self.above(TIE_MARGIN)
    }

    /// Whether the ratio is above `line`: shown when every pair's is, leaning when the pooled
    /// one is; below it everywhere fails, as a mixture that does not lean.
    pub(super) fn above(&self, line: f64) -> Outcome {
        let shown =
            if self.low > line { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Equal };
        super::rule(std::cmp::Ordering::Greater, shown, self.pooled > line, [])
    }
}

/// What "most" means: more than half.
pub(super) const MOST: f64 = 0.5;

/// "Since most nodes put into OPEN are “bad”, they are never examined": over the octile
/// A\* workloads, the share of the indexed binary heap's pushes (each a node put into OPEN
/// once: it adjusts instead of pushing again) that its searches never expanded, pooled,
/// with its range across the workloads. Holds above one half. The counts are exact: no
/// interval.
pub fn most_nodes_never_examined(findings: &Findings<'_, '_>) -> Verdict {
    let rows: Vec<&Row> = octile(findings.run, |_| true)
        .iter()
        .filter_map(|w| w.ok(INDEXED_BINARY_HEAP))
        .filter(|r| r.pushes > 0.0)
        .collect();
    if rows.is_empty() {
        return Verdict::unmeasured(
            "No octile A* workload counted the indexed binary heap's pushes.",
        );
    }
    let never = |r: &Row| (r.pushes - r.expansions).max(0.0);
    let pooled =
        rows.iter().map(|r| never(r)).sum::<f64>() / rows.iter().map(|r| r.pushes).sum::<f64>();
    let each: Vec<f64> = rows.iter().map(|r| never(r) / r.pushes).collect();
    let low = each.iter().copied().fold(f64::INFINITY, f64::min);
    let high = each.iter().copied().fold(0.0, f64::max);
    let outcome = if pooled > MOST { Outcome::Holds } else { Outcome::Fails };
    let summary = format!(
        "{:.1}% of the nodes `{INDEXED_BINARY_HEAP}` put into OPEN were never expanded ({:.1}–{:.1}% across {}; most: more than {:.0}%).",
        100.0 * pooled,
        100.0 * low,
        100.0 * high,
        plural(rows.len(), "workload"),
        100.0 * MOST
    );
    Verdict::new(outcome, summary, Vec::new(), rows.len())
}
