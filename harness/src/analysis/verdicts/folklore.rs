//! The game programmers' folklore: binary heaps, arrays, bucketing, HOT queues, and
//! duplicates against decrease-key.

use pqlab_queues::registry::BASELINE;
use pqlab_queues::{Class, Family, Strategy};

use super::{best, binary_heap, class, compare, family, octile, sized, source, Outcome, Verdict};
use crate::analysis::bands::STRONG;
use crate::analysis::bands::{self, Eligible, Series};
use crate::analysis::findings::INDEXED_BINARY_HEAP;
use crate::analysis::rank::versus;
use crate::analysis::Findings;
use crate::format::{plural, ratio};
use crate::results::{Kind, Row};

/// "binary heap is the best generic choice": generic means exact and accepting any key.
pub fn binary_heap_is_the_generic_choice(findings: &Findings<'_, '_>) -> Verdict {
    let run = findings.run;
    let all = octile(run, |_| true);
    let (Some(top), Some(heap)) =
        (best(&all, bands::any_keys), best(&all, |r| bands::any_keys(r) && binary_heap(r)))
    else {
        return Verdict::unmeasured(
            "No octile A* rows measure a binary heap and another generic queue.",
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
        "Generic means exact and accepting any key; {} octile A* workloads.",
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
    if top == heap {
        return Verdict::new(
            Outcome::Holds,
            format!("`{heap}` is the fastest generic queue over all {} workloads.", all.len()),
            details,
            all.len(),
        );
    }
    let (v, text) = compare(&all, top, heap).expect("both contend over all workloads");
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
    match ranked.iter().rev().take_while(wins).last() {
        Some(from) => details.push(format!(
            "In the octile A* bands a bucketing queue wins every band from {} open cells up: the threshold the data give (the claim says 10,000).",
            from.evidence.band.label()
        )),
        None => details.push(
            "In the largest octile A* band a bucketing queue does not win: the data give no threshold.".into(),
        ),
    }
    let outcome = if v.faster() {
        Outcome::Holds
    } else if v.slower() {
        Outcome::Fails
    } else {
        Outcome::Partly
    };
    Verdict::new(outcome, format!("{text}."), details, n)
}

/// "HOT queues as fast as heaps up to 800 open nodes and 20% faster at 1,500".
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
    let small = part(|size| size <= 800.0);
    // 1,500 within a factor of 1.5 either way.
    let near = part(|size| (1000.0..=2250.0).contains(&size));
    if small.is_none() && near.is_none() {
        return Verdict::unmeasured("No frontier up to 2,250 open cells was measured with both a HOT queue and a binary heap.");
    }
    let mut details = Vec::new();
    let small_holds = small.as_ref().map(|(v, text, _)| {
        details.push(format!("Up to 800 open cells, {text}."));
        !v.slower()
    });
    let near_holds = near.as_ref().map(|(v, text, _)| {
        details.push(format!("From 1,000 to 2,250 open cells (around 1,500), {text}."));
        v.ratio.high <= 1.0 / 1.2
    });
    // The seed's "heaps" are binary heaps (its source compares against one); against the
    // best binary or d-ary heap, for the reader who would pick that instead.
    let implicit = |r: &Row| matches!(r.family, Some(Family::BinaryHeap | Family::DaryHeap));
    for (label, within) in [
        ("Up to 800 open cells", (|size| size <= 800.0) as fn(f64) -> bool),
        ("From 1,000 to 2,250", |size| (1000.0..=2250.0).contains(&size)),
    ] {
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
        "\"As fast up to 800\" {}; \"20% faster at 1,500\" {} (the best HOT queue against the best binary heap; 20% faster means taking at most {} the time).",
        says(small_holds),
        says(near_holds),
        ratio(1.0 / 1.2)
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
/// run's share of key updates and of stale pops answers "rare".
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
    // "Rare": how often the indexed heap adjusts a key, and how many of std's pops are stale.
    let sum = |queue: &str, of: fn(&Row) -> f64| -> f64 {
        all.iter().filter_map(|w| w.ok(queue)).map(of).sum()
    };
    let updates = sum(INDEXED_BINARY_HEAP, |r| r.decrease_keys);
    let inserts = sum(INDEXED_BINARY_HEAP, |r| r.pushes);
    let stale = sum(BASELINE, |r| r.stale_pops);
    let pops = sum(BASELINE, |r| r.pops);
    let rare = (updates + inserts > 0.0 && pops > 0.0).then(|| {
        format!(
            "How rare adjustments are (the seeds: \"which is rare\"): {:.1}% of `{INDEXED_BINARY_HEAP}`'s frontier operations are key updates (decrease-keys over pushes and decrease-keys), and {:.1}% of `{BASELINE}`'s pops are stale duplicates, over the octile A* workloads.",
            100.0 * updates / (updates + inserts),
            100.0 * stale / pops
        )
    });
    details.extend(rare);
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
