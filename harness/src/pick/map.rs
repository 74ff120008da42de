//! `pqlab pick --map`: from a user's map to a pick. The map's problems are solved once
//! with std's BinaryHeap to learn its frontier sizes; the committed runs' bands are
//! weighted by the share of the map's searches in each; with `--measure`, the leading
//! candidates and the baseline are timed on the map itself, interleaved, and answer.

use std::path::PathBuf;

use anyhow::{Context, Result};
use pqlab_queues::registry::{self, BASELINE};
use serde::Serialize;

use super::{answer, build_answer, Answer, Backing, Query};
use crate::analysis::bands::Band;
use crate::analysis::rank::{rank_weighted, Standing};
use crate::analysis::Run;
use crate::format::count;
use crate::lab::rows::Workload;
use crate::lab::sampler::{interleave, Entrant, Plan, Shuffler};
use crate::lab::searches::{CheckQueue, Prepared};
use crate::lab::suites::{Role, Source, Suite};
use crate::maps::instance::{Instance, Sample};
use crate::results::{quantile, Kind, Provenance, Row, Unit};
use crate::search::astar::AStar;
use crate::search::store::StoreKind;

/// A map's frontier sizes under the query's heuristic and scale.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Profile {
    /// The map.
    pub map: String,
    /// Searches solved.
    pub searches: usize,
    /// The most open cells per search: median, p90, largest.
    pub open: (f64, f64, f64),
    /// The most entries std's BinaryHeap held per search (duplicates included): median,
    /// p90, largest.
    pub held: (f64, f64, f64),
    /// The share of searches in each band.
    pub bands: Vec<(String, f64)>,
}

/// Solves the map's problems with std's BinaryHeap and returns their frontier sizes.
pub fn profile(instance: &Instance, query: &Query) -> Result<(Profile, Vec<(Band, f64)>)> {
    use crate::search::heuristic::AnyHeuristic;
    let rules = crate::search::astar::Rules { scale: query.scale, ..Default::default() };
    let mut search =
        AStar::<pqlab_queues::std_binary_heap::StdBinaryHeap>::new(&instance.grid, rules);
    let mut heuristic =
        AnyHeuristic::new(query.heuristic, &instance.grid, rules.connectivity, rules.scale);
    let components = crate::maps::moves::Components::new(&instance.grid);
    let (mut open, mut held) = (Vec::new(), Vec::new());
    for (i, p) in instance.problems.iter().enumerate() {
        let outcome = search
            .search(&instance.grid, &mut heuristic, Some(&components), p.start, p.goal)
            .with_context(|| instance.locate(i))?;
        if outcome.counters.expansions > 0 {
            open.push(outcome.counters.max_open as f64);
            held.push(outcome.counters.max_frontier as f64);
        }
    }
    anyhow::ensure!(!open.is_empty(), "{}: no problem needed a search", instance.name);
    let stats = |v: &[f64]| (quantile(v, 0.5), quantile(v, 0.9), quantile(v, 1.0));
    let weights: Vec<(Band, f64)> = Band::all()
        .map(|b| (b, open.iter().filter(|&&s| b.contains(s)).count() as f64 / open.len() as f64))
        .filter(|(_, share)| *share > 0.0)
        .collect();
    let profile = Profile {
        map: instance.name.clone(),
        searches: open.len(),
        open: stats(&open),
        held: stats(&held),
        bands: weights.iter().map(|(b, s)| (b.label(), *s)).collect(),
    };
    Ok((profile, weights))
}

impl Profile {
    /// The distribution in two lines.
    pub fn describe(&self) -> String {
        let bands: Vec<String> =
            self.bands.iter().map(|(b, s)| format!("{b}: {:.0}%", s * 100.0)).collect();
        format!(
            "{}: {} searches; most open cells per search: median {}, p90 {}, largest {}; entries std's BinaryHeap held (with duplicates): median {}, p90 {}, largest {}.\nSearches per band: {}.",
            self.map,
            self.searches,
            count(self.open.0),
            count(self.open.1),
            count(self.open.2),
            count(self.held.0),
            count(self.held.1),
            count(self.held.2),
            bands.join(", ")
        )
    }
}

/// Ranks the queues for the map from the committed rows, its bands weighted by its
/// searches.
pub fn from_runs(
    rows: &[Row],
    query: &Query,
    profile: &Profile,
    weights: &[(Band, f64)],
    notes: Vec<String>,
) -> Result<Answer> {
    let asked = format!("{} ({})", profile.map, query.selection().describe());
    answer(rows, query, weights, asked, notes)
}

/// Times the baseline and `candidates` on the map itself: `rounds` interleaved rounds of
/// every search; answers from that measurement.
pub fn measure(
    map: PathBuf,
    scen: Option<PathBuf>,
    query: &Query,
    limit: Option<usize>,
    candidates: &[String],
    rounds: u32,
) -> Result<Answer> {
    anyhow::ensure!(
        scen.is_none() || scen == Some(crate::maps::instance::scen_beside(&map)),
        "--measure reads the scenario beside the map (MAP.scen)"
    );
    let suite = Suite {
        source: Source::MovingAi { map, sample: limit.map_or(Sample::All, Sample::Spread) },
        heuristic: query.heuristic,
        scale: query.scale,
        store: StoreKind::Flat,
        role: Role::Real,
        replay: false,
    };
    let prepared = Prepared::new(&suite)?;
    let provenance = Provenance::detect("-measure");
    let workload = Workload {
        kind: Kind::Astar,
        name: suite.name(),
        map: prepared.instance.name.clone(),
        map_kind: prepared.instance.kind.clone(),
        real: true,
        heuristic: Some(query.heuristic),
        scale: Some(query.scale),
        store: Some(StoreKind::Flat),
        unit: Unit::Search,
    };
    let mut ids: Vec<&str> = vec![BASELINE];
    ids.extend(candidates.iter().map(String::as_str).filter(|c| *c != BASELINE));
    let mut rows = Vec::new();
    let mut entrants = Vec::new();
    for id in ids {
        let entry = registry::find(id).with_context(|| format!("unknown queue {id}"))?;
        let mut row = workload.row(&provenance, entry.id, Some(entry));
        row.units = prepared.instance.problems.len() as u64;
        match registry::visit(
            entry.id,
            CheckQueue { prepared: &prepared, limit: std::time::Duration::MAX },
        )
        .expect("registered")
        {
            Ok(check) => {
                row.set_counters(&check.counters);
                entrants.push(Entrant {
                    label: id.into(),
                    contender: check.contender,
                    pass: check.pass,
                    units: row.units,
                });
                rows.push(row);
            }
            Err(why) => eprintln!("pqlab: {id} is not timed on this map: {why:?}"),
        }
    }
    let plan = Plan {
        sample: std::time::Duration::from_millis(5),
        budget: std::time::Duration::ZERO,
        min_rounds: rounds,
        max_rounds: rounds,
    };
    let reps: Vec<u32> = entrants.iter().map(|e| plan.reps(e.pass)).collect();
    let samples =
        interleave(&mut entrants, &reps, rounds, &mut Shuffler::for_workload(&workload.name));
    for (row, s) in rows.iter_mut().zip(&samples) {
        row.set_samples(&s.cpu, &s.wall);
    }
    let run = Run::new(&rows);
    let w = run.of(Kind::Astar).next().context("a measured workload")?;
    let weighted = [(w, 1.0)];
    let standings: Vec<Standing<'_>> = rank_weighted(&weighted, |r| query.admits(r));
    let backing = vec![Backing {
        series: query.selection().describe(),
        band: None,
        source: format!("whole searches timed in {rounds} interleaved rounds on this machine"),
        workloads: vec![(w.name.to_owned(), w.size, w.map_kind().to_owned())],
        real_maps: true,
        weak: false,
    }];
    let asked =
        format!("{} (measured here: {})", prepared.instance.name, query.selection().describe());
    Ok(build_answer(&run, &weighted, &standings, backing, asked, Vec::new()))
}
