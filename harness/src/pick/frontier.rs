//! A user's map surveyed for `pick --map`: its problems solved once with the query's
//! search and std's BinaryHeap, which checks the scenario's lengths and learns the map's
//! frontier sizes, and so the weight of each band in the answer.

use anyhow::{Context, Result};
use pqlab_queues::registry;
use serde::Serialize;

use super::Query;
use crate::analysis::bands::Band;
use crate::format::count;
use crate::maps::instance::Instance;
use crate::maps::moves::{Components, Moves};
use crate::results::Sizes;
use crate::search::grid_loop::Target;
use crate::search::heuristic::AnyHeuristic;
use crate::search::outcome::SearchError;

/// A map's frontier sizes under the query's heuristic and scale.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrontierSizes {
    /// The map.
    pub map: String,
    /// Searches solved.
    pub searches: usize,
    /// The most open cells per search: median, p90, largest.
    pub open: Sizes,
    /// The most entries std's BinaryHeap held per search (duplicates included): median,
    /// p90, largest.
    pub held: Sizes,
    /// The share of searches in each band.
    pub bands: Vec<(String, f64)>,
}

/// What solving the map's problems once with std's BinaryHeap found.
pub struct MapSurvey {
    /// The frontier sizes.
    pub sizes: FrontierSizes,
    /// The bands' weights: the share of the map's searches in each.
    pub weights: Vec<(Band, f64)>,
    /// The problems whose expected answer the search did not find (`file:line: expected
    /// …, found …`); empty when the expected answers do not apply under the query's rules.
    pub wrong: Vec<String>,
    /// The problems whose path costs more than the tuned A\*'s 32-bit keys hold at the
    /// query's scale (`file:line: why`): a limit of the representation, not a wrong
    /// answer; left out of the sizes, as `validate` leaves them unchecked.
    pub beyond: Vec<String>,
}

/// Solves the map's problems with the query's search and std's BinaryHeap, with a progress
/// bar on stderr, and returns their frontier sizes and the answers that disagree with the
/// scenario.
pub fn survey(instance: &Instance, query: &Query) -> Result<MapSurvey> {
    let rules = query.series.rules();
    // The search asked (`--search`), with std's BinaryHeap: JPS's frontier is its own.
    let entry = query.series.setup.search.entry();
    entry
        .needs
        .workload(&instance.grid, query.series.heuristic)
        .map_err(|why| anyhow::anyhow!("{}: --search {}: {why}", instance.name, entry.token))?;
    let moves = Moves::new(&instance.grid, rules.connectivity, rules.scale);
    let target = Target { grid: &instance.grid, moves: &moves, series: query.series };
    let mut search = (entry.build)(&target, registry::baseline()).map_err(anyhow::Error::msg)?;
    let mut heuristic =
        AnyHeuristic::new(query.series.heuristic, &instance.grid, rules.connectivity, rules.scale)
            .map_err(anyhow::Error::msg)?;
    let exact = crate::search::heuristic::Heuristic::admissible(&heuristic);
    let checked = instance.checkable_under(rules);
    let components = Components::new(&instance.grid);
    let bar = crate::format::progress(instance.problems.len() as u64, "searches (frontier sizes)");
    let (mut open, mut held, mut wrong, mut beyond) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, p) in instance.problems.iter().enumerate() {
        let searched =
            search.search(&instance.grid, &mut heuristic, Some(&components), p.start, p.goal);
        bar.inc(1);
        let outcome = match searched {
            Err(error @ SearchError::CostOverflow { .. }) => {
                beyond.push(format!("{}: {error}", instance.locate(i)));
                continue;
            }
            other => other.with_context(|| instance.locate(i))?,
        };
        if checked {
            if let Err(why) =
                crate::search::check::answer(p.expected, outcome.cost, rules.scale, exact, None)
            {
                wrong.push(format!("{}: {why}", instance.locate(i)));
            }
        }
        if outcome.counters.expansions > 0 {
            open.push(outcome.counters.max_open as f64);
            held.push(outcome.counters.max_frontier as f64);
        }
    }
    bar.finish_and_clear();
    anyhow::ensure!(!open.is_empty(), "{}: no problem needed a search", instance.name);
    let weights: Vec<(Band, f64)> = Band::all()
        .map(|b| (b, open.iter().filter(|&&s| b.contains(s)).count() as f64 / open.len() as f64))
        .filter(|(_, share)| *share > 0.0)
        .collect();
    let sizes = FrontierSizes {
        map: instance.name.clone(),
        searches: open.len(),
        open: Sizes::of(&open),
        held: Sizes::of(&held),
        bands: weights.iter().map(|(b, s)| (b.label(), *s)).collect(),
    };
    Ok(MapSurvey { sizes, weights, wrong, beyond })
}

impl FrontierSizes {
    /// The distribution in two lines.
    pub fn describe(&self) -> String {
        let bands: Vec<String> =
            self.bands.iter().map(|(b, s)| format!("{b}: {:.0}%", s * 100.0)).collect();
        format!(
            "{}: {} searches; most open cells per search: median {}, p90 {}, largest {}; entries std's BinaryHeap held (with duplicates): median {}, p90 {}, largest {}.\nSearches per band: {}.",
            self.map,
            self.searches,
            count(self.open.median),
            count(self.open.p90),
            count(self.open.largest),
            count(self.held.median),
            count(self.held.p90),
            count(self.held.largest),
            bands.join(", ")
        )
    }
}
