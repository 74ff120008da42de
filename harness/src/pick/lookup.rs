//! The frontier-band lookup: the evidence for each band asked by [`bands::evidence`]'s
//! rule, its workloads weighted and ranked, for one frontier size or for bands weighted
//! by a map's searches.

use anyhow::{bail, ensure, Result};
use pqlab_queues::registry::BASELINE;

use super::query::describe;
use super::{build_answer, with_latency, Answer, Backing, Query};
use crate::analysis::bands::{self, Band, Evidence, Series};
use crate::analysis::rank::{rank_weighted, versus_weighted};
use crate::analysis::{Findings, Run, Workload};
use crate::format::{count, plural, ratio};
use crate::results::{Kind, Row};
use crate::search::{SearchKind, Setup};

/// The weighted workloads answering for `bands` (each band's weight split over its
/// workloads), and their backing.
fn weighted<'w, 'a>(
    evidence: &[(Evidence<'w, 'a>, f64)],
    selection: &Series,
) -> (Vec<(&'w Workload<'a>, f64)>, Vec<Backing>) {
    let mut workloads = Vec::new();
    let mut backing = Vec::new();
    for (e, weight) in evidence {
        for w in &e.workloads {
            workloads.push((*w, weight / e.workloads.len() as f64));
        }
        // A band with no searches of its own borrows the nearest band's: listed once.
        if backing.iter().any(|b: &Backing| b.band.as_deref() == Some(&*e.band.label())) {
            continue;
        }
        backing.push(Backing {
            series: selection.describe(),
            band: Some(e.band.label()),
            source: if e.kind == Kind::Astar {
                "whole searches".into()
            } else {
                "the queue alone at held sizes".into()
            },
            workloads: e
                .workloads
                .iter()
                .map(|w| (w.name.to_owned(), w.size, w.map_kind().to_owned()))
                .collect(),
            real_maps: e.real(),
            trace: None,
            weak: e.weak(),
        });
    }
    (workloads, backing)
}

/// The evidence for one band by [`bands::evidence`]'s rule, with a caveat when it is not
/// the band's own searches: the queue alone at held sizes, or the nearest band's searches.
pub fn evidence_for<'w, 'a>(
    run: &'w Run<'a>,
    selection: &Series,
    band: Band,
    caveats: &mut Vec<String>,
) -> Option<Evidence<'w, 'a>> {
    let evidence = bands::evidence(run, selection, band)?;
    if evidence.kind == Kind::Synthetic {
        caveats.push(format!(
            "No {} search reached {} open cells: the answer comes from the queue alone at held sizes.",
            selection.describe(),
            band.label()
        ));
    } else if evidence.band != band {
        caveats.push(format!(
            "No {} search reached {} open cells; the nearest band with whole searches, {}, answers.",
            selection.describe(),
            band.label(),
            evidence.band.label()
        ));
    }
    Some(evidence)
}

/// Answers `query` for bands weighted by `weights` (`(band, share)`), from `rows`.
pub fn answer(
    rows: &[Row],
    query: &Query,
    weights: &[(Band, f64)],
    asked: String,
    mut caveats: Vec<String>,
) -> Result<Answer> {
    let run = Run::new(rows);
    let selection = query.selection();
    let mut evidence = Vec::new();
    for &(band, share) in weights.iter().filter(|(_, s)| *s > 0.0) {
        if let Some(e) = evidence_for(&run, &selection, band, &mut caveats) {
            evidence.push((e, share));
        }
    }
    if evidence.is_empty() {
        bail!(
            "this run ({}) has no {} workload and no synthetic one to answer from; run `cargo bench` with that series",
            run.run_id(),
            selection.describe()
        );
    }
    let (workloads, backing) = weighted(&evidence, &selection);
    let standings = rank_weighted(&workloads, |r| query.admits(r));
    let mut answer =
        build_answer(&Findings::of(&run), &workloads, &standings, backing, asked, caveats);
    if let Some(best) = answer.ranking.first().map(|r| r.queue.clone()) {
        if let Some(line) = gain_in_the_other_search(&run, &selection, weights, &best) {
            answer.verdict.push(' ');
            answer.verdict.push_str(&line);
        }
    }
    with_latency(&mut answer, &workloads, query)?;
    Ok(answer)
}

/// What `winner` buys over std's heap in the other A\* of the same series (the generic
/// one for the tuned grid A\*, and the other way round), on the bands asked where that
/// series has whole searches: the gain a user of the other search would see.
fn gain_in_the_other_search(
    run: &Run<'_>,
    selection: &Series,
    weights: &[(Band, f64)],
    winner: &str,
) -> Option<String> {
    let (search, name) = match selection.setup.search {
        SearchKind::Astar => (SearchKind::Generic, "a generic A* like the `pathfinding` crate's"),
        SearchKind::Generic => (SearchKind::Astar, "pqlab's tuned grid A*"),
    };
    let other = Series { setup: Setup { search, ..selection.setup }, ..*selection };
    let evidence: Vec<(Evidence<'_, '_>, f64)> = weights
        .iter()
        .filter(|(_, share)| *share > 0.0)
        .filter_map(|&(band, share)| {
            let own = bands::evidence(run, &other, band)
                .filter(|e| e.kind == Kind::Astar && e.band == band)?;
            Some((own, share))
        })
        .collect();
    let (workloads, _) = weighted(&evidence, &other);
    let v = versus_weighted(&workloads, BASELINE, winner)?;
    Some(format!(
        "In {name}, std's BinaryHeap takes {} `{winner}`'s time on the same bands ({}).",
        ratio(v.ratio.mid),
        plural(v.n, "workload")
    ))
}

/// Answers for one frontier size.
pub fn for_size(rows: &[Row], query: &Query, frontier: f64, notes: Vec<String>) -> Result<Answer> {
    let band = Band::of(frontier);
    let selection = query.selection();
    let run = Run::new(rows);
    if let Some(largest) = largest_measured(&run, &selection) {
        ensure!(
            frontier < Band::of(largest).hi,
            "a frontier of {} open cells is beyond what run {} measured for {}: its largest is {} open cells (band {}), and no answer is carried past that band; {}",
            count(frontier),
            run.run_id(),
            selection.describe(),
            count(largest),
            Band::of(largest).label(),
            if selection.held_sizes_model() {
                "`PQLAB_HELD_MAX=1e8 cargo bench` holds the queues at sizes up to 10⁸"
            } else {
                "the lab has no larger workload in this series"
            }
        );
    }
    let asked = format!(
        "a frontier of {} open cells ({}; {})",
        count(frontier),
        query.selection().describe(),
        describe(query)
    );
    answer(rows, query, &[(band, 1.0)], asked, notes)
}

/// The largest frontier size `selection` was measured at in `run`: its searches', and
/// the held sizes' where they model it.
fn largest_measured(run: &Run<'_>, selection: &Series) -> Option<f64> {
    let searches = run.workloads.iter().filter(|w| selection.admits(w));
    let held = run.of(Kind::Synthetic).filter(|_| selection.held_sizes_model());
    searches.chain(held).map(|w| w.size).filter(|s| s.is_finite()).reduce(f64::max)
}
