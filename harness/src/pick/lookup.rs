//! The frontier-band lookup: the evidence for each band asked by [`bands::evidence`]'s
//! rule, its workloads weighted and ranked, for one frontier size or for bands weighted
//! by a map's searches.

use anyhow::{bail, ensure, Result};
use pqlab_queues::registry::BASELINE;

use super::query::describe;
use super::{build_answer, with_latency, Answer, Backing, Query, TerrainSide, TerrainSplit};
use crate::analysis::bands::{self, Band, Evidence};
use crate::analysis::rank::{rank_weighted, versus_weighted};
use crate::analysis::{Findings, Run, Workload};
use crate::format::{count, plural, ratio};
use crate::lab::workloads::{builtin, Source};
use crate::lab::Profile;
use crate::maps::TerrainKind;
use crate::results::{Kind, Row};
use crate::search::Series;
use crate::search::Setup;

/// The weighted workloads answering for `bands` (each band's weight split over its
/// workloads), and their backing.
fn weighted<'w, 'a>(
    evidence: &[(Evidence<'w, 'a>, f64)],
    series: &str,
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
            series: series.to_owned(),
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

/// The evidence for one band of `run` (restricted by [`Query::restrict`]) by
/// [`bands::evidence`]'s rule, with a caveat when it is not the band's own searches: the
/// queue alone at held sizes, or the nearest band's searches.
pub fn evidence_for<'w, 'a>(
    run: &'w Run<'a>,
    query: &Query,
    band: Band,
    caveats: &mut Vec<String>,
) -> Option<Evidence<'w, 'a>> {
    let evidence = bands::evidence(run, &query.series, band)?;
    if evidence.kind == Kind::Synthetic {
        caveats.push(format!(
            "No {} search reached {} open cells: the answer comes from the queue alone at held sizes.",
            query.describe_series(),
            band.label()
        ));
    } else if evidence.band != band {
        caveats.push(format!(
            "No {} search reached {} open cells; the nearest band with whole searches, {}, answers.",
            query.describe_series(),
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
    let run = query.restrict(Run::new(rows));
    let selection = query.series;
    let mut evidence = Vec::new();
    for &(band, share) in weights.iter().filter(|(_, s)| *s > 0.0) {
        if let Some(e) = evidence_for(&run, query, band, &mut caveats) {
            evidence.push((e, share));
        }
    }
    if evidence.is_empty() {
        // The lab's own workloads, default and quick, say whether any run could hold it (on the
        // terrain asked), and which series of the same search they do measure.
        let specs: Vec<(Series, Option<TerrainKind>)> = [Profile::Default, Profile::Quick]
            .into_iter()
            .flat_map(builtin)
            .map(|w| {
                let series = Series { store: selection.store, ..w.series };
                (series, workload_terrain(&w.source))
            })
            .collect();
        let on_terrain =
            |t: Option<TerrainKind>| query.terrain.is_none_or(|asked| t == Some(asked));
        let advice = if specs.iter().any(|&(s, t)| s == selection && on_terrain(t)) {
            "run `cargo bench` with that series".to_owned()
        } else {
            let mut same: Vec<String> = specs
                .iter()
                .filter(|(s, _)| s.setup.search == selection.setup.search)
                .map(|(s, t)| match (query.terrain, t) {
                    (Some(_), Some(t)) => format!("{}, on {}", s.describe(), t.describe()),
                    _ => s.describe(),
                })
                .collect();
            same.sort();
            same.dedup();
            format!(
                "the lab does not measure that series (no workload of `cargo bench` searches it); of {}, it measures {}",
                selection.setup.search.entry().name,
                if same.is_empty() { "no series".to_owned() } else { same.join("; ") }
            )
        };
        bail!(
            "this run ({}) has no {} workload{} to answer from; {advice}",
            run.run_id(),
            query.describe_series(),
            if query.terrain.is_none() { " and no synthetic one" } else { "" },
        );
    }
    let (workloads, backing) = weighted(&evidence, &query.describe_series());
    let standings = rank_weighted(&workloads, |r| query.admits(r));
    let mut answer =
        build_answer(&Findings::of(&run), &workloads, &standings, backing, asked, caveats);
    if let Some(best) = answer.ranking.first().map(|r| r.queue.clone()) {
        if let Some(line) = gain_in_the_other_search(&run, &selection, weights, &best) {
            answer.verdict.push(' ');
            answer.verdict.push_str(&line);
        }
    }
    answer.terrain = query.terrain;
    with_latency(&mut answer, &workloads, query)?;
    Ok(answer)
}

/// The terrain a built-in workload searches; `None` for a road graph.
fn workload_terrain(source: &Source) -> Option<TerrainKind> {
    match source {
        Source::Generated { map, .. } | Source::Unreachable { map, .. } => Some(map.kind.terrain()),
        Source::MovingAi { .. } => Some(TerrainKind::Uniform),
        Source::Road { .. } => None,
    }
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
    let search = selection.setup.search.entry().compared_with;
    let name = search.entry().description;
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
    let (workloads, _) = weighted(&evidence, "");
    let v = versus_weighted(&workloads, BASELINE, winner)?;
    Some(format!(
        "In {name}, std's BinaryHeap takes {} `{winner}`'s time on the same bands ({}).",
        ratio(v.ratio.mid),
        plural(v.n, "workload")
    ))
}

/// Answers for one frontier size; without a terrain asked, says when the band's evidence
/// mixes obstacle grids and weighted terrain, and which queue leads on each.
pub fn for_size(rows: &[Row], query: &Query, frontier: f64, notes: Vec<String>) -> Result<Answer> {
    let band = Band::of(frontier);
    let selection = query.series;
    let run = query.restrict(Run::new(rows));
    if let Some(largest) = largest_measured(&run, &selection) {
        ensure!(
            frontier < Band::of(largest).hi,
            "a frontier of {} open cells is beyond what run {} measured for {}: its largest is {} open cells (band {}), and no answer is carried past that band; {}",
            count(frontier),
            run.run_id(),
            query.describe_series(),
            count(largest),
            Band::of(largest).label(),
            match query.terrain {
                Some(terrain) => format!("the lab has no larger workload on {}", terrain.describe()),
                None if selection.held_sizes_model() => {
                    "`PQLAB_HELD_MAX=1e8 cargo bench` holds the queues at sizes up to 10⁸".into()
                }
                None => "the lab has no larger workload in this series".into(),
            }
        );
    }
    let asked = format!(
        "a frontier of {} open cells ({}; {})",
        count(frontier),
        query.describe_series(),
        describe(query)
    );
    let mut answer = answer(rows, query, &[(band, 1.0)], asked, notes)?;
    if query.terrain.is_none() {
        answer.terrain_split = terrain_split(&run, query, band);
    }
    Ok(answer)
}

/// Each terrain's side of `band`'s evidence and the queue leading on it alone (what
/// `--terrain` answers there), when the evidence mixes obstacle grids and weighted
/// terrain; `None` when it is of one terrain (or has none: held sizes).
pub fn terrain_split(run: &Run<'_>, query: &Query, band: Band) -> Option<TerrainSplit> {
    let evidence = bands::evidence(run, &query.series, band)?;
    let sides: Vec<TerrainSide> = TerrainKind::ALL
        .into_iter()
        .filter_map(|terrain| {
            let side: Vec<(&Workload<'_>, f64)> = evidence
                .workloads
                .iter()
                .filter(|w| w.terrain() == Some(terrain))
                .map(|w| (*w, 1.0))
                .collect();
            if side.is_empty() {
                return None;
            }
            let mut map_kinds: Vec<String> =
                side.iter().map(|(w, _)| w.map_kind().to_owned()).collect();
            map_kinds.sort_unstable();
            map_kinds.dedup();
            let standings = rank_weighted(&side, |r| query.admits(r));
            Some(TerrainSide {
                terrain,
                workloads: side.len(),
                map_kinds,
                winner: standings.first().filter(|s| s.contends).map(|s| s.queue.to_owned()),
            })
        })
        .collect();
    (sides.len() > 1).then(|| TerrainSplit { band: evidence.band.label(), sides })
}

/// The largest frontier size `selection` was measured at in `run`: its searches', and
/// the held sizes' where they model it (and `run` holds them).
fn largest_measured(run: &Run<'_>, selection: &Series) -> Option<f64> {
    let searches = run.workloads.iter().filter(|w| selection.admits(w));
    let held = run.of(Kind::Synthetic).filter(|_| selection.held_sizes_model());
    searches.chain(held).map(|w| w.size).filter(|s| s.is_finite()).reduce(f64::max)
}

#[cfg(test)]
mod tests {
    use pqlab_queues::registry::BASELINE;

    use super::*;
    use crate::analysis::fixture::{held, search, steadies};
    use crate::lab::rows::WorkloadFacts;
    use crate::maps::GraphKind;
    use crate::pick::{Costs, Keys};
    use crate::search::heuristic::HeuristicKind;
    use crate::search::store::StoreKind;

    /// An octile workload on the generated map `map`, of its kind.
    fn on(map: &str) -> WorkloadFacts {
        let name = format!("{map}/octile/fine/flat");
        let kind = map.split('-').next().unwrap_or_default().into();
        WorkloadFacts {
            map_kind: kind,
            ..search(&name, map, HeuristicKind::Octile, StoreKind::Flat)
        }
    }

    /// In the 1k–3k band, `bucket-queue-dup` leads on the obstacle grids (a rooms map and a
    /// Moving AI map) and `sorted-array-dk` on rugged terrain; marsh alone reaches 20,000
    /// open cells; the queue alone is held at 2,000.
    fn mixed() -> Vec<Row> {
        let real = WorkloadFacts {
            map_kind: "movingai-dao".into(),
            real: true,
            ..search(
                "movingai/dao/den/octile/fine/flat",
                "movingai/dao/den",
                HeuristicKind::Octile,
                StoreKind::Flat,
            )
        };
        let uniform = [(BASELINE, 1000.0), ("bucket-queue-dup", 500.0), ("sorted-array-dk", 900.0)];
        let weighted =
            [(BASELINE, 1000.0), ("bucket-queue-dup", 1500.0), ("sorted-array-dk", 600.0)];
        [
            steadies(&on("rooms-r8-128-s1"), 1500.0, &uniform),
            steadies(&real, 2000.0, &uniform),
            steadies(&on("rugged-h10-256-s1"), 2500.0, &weighted),
            steadies(&on("marsh-m40-1024-s1"), 20_000.0, &weighted),
            steadies(&held(2000.0), 2000.0, &[(BASELINE, 10.0), ("bucket-queue-dup", 20.0)]),
        ]
        .concat()
    }

    fn query(terrain: Option<TerrainKind>) -> Query {
        Query::unflagged().on_terrain(terrain).unwrap()
    }

    /// The names of the workloads behind an answer.
    fn behind(answer: &Answer) -> Vec<&str> {
        answer.backing.iter().flat_map(|b| b.workloads.iter().map(|w| w.0.as_str())).collect()
    }

    /// A workload's terrain comes from its typed facts: a generated map's kind, uniform on
    /// a Moving AI map, none off a grid or for the queue alone.
    #[test]
    fn a_workloads_terrain_comes_from_its_typed_facts() {
        let rows = mixed();
        let run = Run::new(&rows);
        let terrain = |name: &str| run.workloads.iter().find(|w| w.name == name).unwrap().terrain();
        assert_eq!(terrain("rooms-r8-128-s1/octile/fine/flat"), Some(TerrainKind::Uniform));
        assert_eq!(terrain("movingai/dao/den/octile/fine/flat"), Some(TerrainKind::Uniform));
        assert_eq!(terrain("rugged-h10-256-s1/octile/fine/flat"), Some(TerrainKind::Weighted));
        assert_eq!(terrain("marsh-m40-1024-s1/octile/fine/flat"), Some(TerrainKind::Weighted));
        assert_eq!(terrain("held-2000"), None);
    }

    /// `--terrain uniform` answers from the obstacle grids alone, `--terrain weighted`
    /// from the weighted terrain alone, neither from the queue alone; each says so.
    #[test]
    fn a_terrain_answers_from_its_own_workloads_only() {
        let rows = mixed();
        let uniform =
            for_size(&rows, &query(Some(TerrainKind::Uniform)), 2000.0, Vec::new()).unwrap();
        assert_eq!(
            behind(&uniform),
            ["rooms-r8-128-s1/octile/fine/flat", "movingai/dao/den/octile/fine/flat"]
        );
        assert_eq!(uniform.ranking[0].queue, "bucket-queue-dup");
        assert_eq!(uniform.terrain, Some(TerrainKind::Uniform));
        assert!(uniform.terrain_split.is_none());
        assert!(uniform.asked.contains("on uniform-cost obstacle grids"), "{}", uniform.asked);
        let weighted =
            for_size(&rows, &query(Some(TerrainKind::Weighted)), 2000.0, Vec::new()).unwrap();
        assert_eq!(behind(&weighted), ["rugged-h10-256-s1/octile/fine/flat"]);
        assert_eq!(weighted.ranking[0].queue, "sorted-array-dk");
        // Past the obstacle grids' largest band: refused, never answered from held sizes.
        let error = for_size(&rows, &query(Some(TerrainKind::Uniform)), 20_000.0, Vec::new())
            .unwrap_err()
            .to_string();
        assert!(error.contains("no larger workload on uniform-cost obstacle grids"), "{error}");
        let marsh =
            for_size(&rows, &query(Some(TerrainKind::Weighted)), 20_000.0, Vec::new()).unwrap();
        assert_eq!(behind(&marsh), ["marsh-m40-1024-s1/octile/fine/flat"]);
    }

    /// Without a terrain, the band's answer is today's (every workload in it) and names the
    /// split and each side's leader, as `--terrain` would answer; a band of one terrain
    /// says nothing.
    #[test]
    fn a_band_mixing_terrains_says_so_and_names_each_sides_leader() {
        let rows = mixed();
        let answer = for_size(&rows, &query(None), 2000.0, Vec::new()).unwrap();
        assert_eq!(behind(&answer).len(), 3);
        let split = answer.terrain_split.as_ref().expect("a mixed band");
        let sides: Vec<_> =
            split.sides.iter().map(|s| (s.terrain, s.workloads, s.winner.as_deref())).collect();
        assert_eq!(
            sides,
            [
                (TerrainKind::Uniform, 2, Some("bucket-queue-dup")),
                (TerrainKind::Weighted, 1, Some("sorted-array-dk"))
            ]
        );
        let line = split.sentence();
        assert!(line.starts_with("The 1k–3k band mixes uniform-cost obstacle grids"), "{line}");
        assert!(line.contains("`--terrain uniform` or `--terrain weighted`"), "{line}");
        assert!(answer.to_string().contains(&line));
        let marsh = for_size(&rows, &query(None), 20_000.0, Vec::new()).unwrap();
        assert!(marsh.terrain_split.is_none());
    }

    /// A road graph has no terrain: `--terrain` there is refused with the reason.
    #[test]
    fn a_terrain_on_a_road_graph_is_refused() {
        let road = Query::new(
            false,
            Keys::Monotone,
            None,
            GraphKind::Road,
            None,
            Costs::Octile,
            None,
            None,
        )
        .unwrap();
        let error = road.on_terrain(Some(TerrainKind::Uniform)).unwrap_err().to_string();
        assert!(error.contains("a road graph has none"), "{error}");
        assert!(road.on_terrain(None).is_ok());
    }

    /// A band's row of the report and `pick --frontier` for a size in that band show the
    /// same figures from the same rows: the winner, its tie group, std's time over the
    /// winner's and the queue's share of the search with each.
    #[test]
    fn pick_shows_the_figures_of_the_reports_band_table() {
        use crate::analysis::bands::Eligible;
        use crate::analysis::fixture::{oracle, sample};
        use crate::results::Spread;
        use crate::search::Series;

        let mut rows = sample();
        rows.extend([oracle("small", 20.0, 50.0), oracle("middle", 1500.0, 600.0)]);
        let run = Run::new(&rows);
        let findings = Findings::of(&run);
        let bands = findings.bands(&Series::OCTILE, Eligible::Exact);
        assert_eq!(bands.len(), 4, "three bands of searches and one of held sizes");
        let same = |a: Spread, b: Spread| {
            let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(1.0);
            close(a.low, b.low) && close(a.mid, b.mid) && close(a.high, b.high)
        };
        for band in &bands {
            let label = band.evidence.band.label();
            let weights = [(band.evidence.band, 1.0)];
            let answer = answer(&rows, &query(None), &weights, label.clone(), Vec::new()).unwrap();
            let winner = band.winner().unwrap();
            assert_eq!(answer.ranking[0].queue, winner.queue, "{label}");
            let tied: Vec<&str> =
                answer.ranking.iter().filter(|r| r.tied).map(|r| r.queue.as_str()).collect();
            let group: Vec<&str> = band.tie_group().iter().map(|s| s.queue).collect();
            assert_eq!(tied, group, "{label}");
            // The report's "std takes" is std ÷ the winner; pick's column the winner ÷ std.
            let takes = band.baseline_takes().map(|v| v.ratio.mid);
            let vs_std = answer.ranking[0].vs_std;
            match (takes, vs_std) {
                (Some(takes), Some(vs_std)) => {
                    assert!((takes * vs_std - 1.0).abs() < 1e-9, "{label}: {takes} {vs_std}")
                }
                (takes, vs_std) => assert_eq!(takes.is_some(), vs_std.is_some(), "{label}"),
            }
            let evidence: Vec<_> = band.evidence.workloads.iter().map(|w| (*w, 1.0)).collect();
            let share = |queue: &str| findings.frontier_share(&evidence, queue);
            match (answer.frontier_share, share(BASELINE), share(winner.queue)) {
                (Some(shown), Some(std), Some(best)) => {
                    assert!(same(shown.std.share, std.share), "{label}: {shown:?} {std:?}");
                    assert!(same(shown.winner.share, best.share), "{label}: {shown:?} {best:?}");
                }
                (shown, std, best) => {
                    assert!(shown.is_none() && (std.is_none() || best.is_none()), "{label}")
                }
            }
        }
    }
}
