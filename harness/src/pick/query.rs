//! What the caller asks `pick` for: the query of its flags (keys, decrease-key, the
//! search, graph, moves, costs, heuristic and scale), and the frontier size as people
//! write it (`parse_size`).

use anyhow::{bail, Result};
use pqlab_queues::{KeyRule, Strategy};
use serde::Serialize;

use crate::analysis::bands;

use crate::analysis::Run;
use crate::maps::grid::{Connectivity, CostKind, CostScale};
use crate::maps::{GraphKind, TerrainKind};
use crate::results::{Kind, Row};
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
use crate::search::Series;
use crate::search::{SearchKind, Setup};

/// Which keys the caller's search produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Keys {
    /// Keys never fall below the last popped one (A* with a consistent heuristic): every
    /// queue works (bounded-span queues also need the largest key − floor declared up
    /// front, as the lab's A* does).
    Monotone,
    /// Any keys: only the queues that accept any key.
    Any,
}

/// The caller's move costs, as `pick --costs` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Costs {
    /// Every move costs 1 (diagonals too, on 8 moves): integers at the unit scale.
    Unit,
    /// Diagonals cost √2 straight steps, as integers in a fixed-point scale (`--scale`).
    Octile,
    /// Diagonals cost √2, as `f64`.
    Float,
}

impl Costs {
    /// The cost representation.
    pub fn kind(self) -> CostKind {
        match self {
            Costs::Float => CostKind::Float,
            Costs::Unit | Costs::Octile => CostKind::Integer,
        }
    }

    /// The scale of the series: `UNIT` for unit costs, `octile`'s for octile costs, the
    /// fine proportions for float costs.
    pub fn scale(self, octile: CostScale) -> CostScale {
        match self {
            Costs::Unit => CostScale::UNIT,
            Costs::Octile => octile,
            Costs::Float => CostScale::FINE,
        }
    }
}

/// What the caller needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// Only decrease-key queues (the caller updates keys in place).
    pub decrease_key: bool,
    /// Which keys the search produces.
    pub keys: Keys,
    /// The series answering it: the caller's search loop, graph, moves and cost
    /// representation, heuristic and cost scale, and the flat store.
    pub series: Series,
    /// Rank by the 99th-percentile time of one search (a frame budget), not by total time.
    pub latency: bool,
    /// Answer from the workloads on this terrain alone (`--terrain`); `None`: every one.
    pub terrain: Option<TerrainKind>,
}

impl Query {
    /// The query of `pick`'s flags: `moves` (8 by default) applies to grids only, `costs`
    /// gives the scale (`octile`, fine by default, for octile costs; road costs have the
    /// road's), and the heuristic defaults to the setup's natural one. A combination the
    /// lab never measures is refused with the reason, never answered as another: moves or
    /// the tuned A\* on a road graph, the tuned A\* with float costs, a scale for costs
    /// that have none.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        decrease_key: bool,
        keys: Keys,
        search: Option<SearchKind>,
        graph: GraphKind,
        moves: Option<Connectivity>,
        costs: Costs,
        heuristic: Option<HeuristicKind>,
        octile: Option<CostScale>,
    ) -> Result<Query> {
        let road = graph == GraphKind::Road;
        if road && moves.is_some() {
            bail!("--moves is a grid's: a road graph's moves are its edges; drop --moves, or ask for --graph grid");
        }
        if let Some(entry) = search.map(SearchKind::entry) {
            if let Err(why) = entry.needs.setup(graph, moves, costs.kind()) {
                bail!(
                    "{} (--search {}) does not take this: {why}; road graphs and float costs are measured in the generic A* alone (--search generic, the default there)",
                    entry.description,
                    entry.token
                );
            }
        }
        if octile.is_some() && (road || costs != Costs::Octile) {
            bail!(
                "--scale is the fixed point of --costs octile on a grid: {}; drop --scale",
                match costs {
                    _ if road => "road costs have the road's own fixed point",
                    Costs::Unit => "unit costs are 1 a move",
                    _ => "float costs have no scale",
                }
            );
        }
        let moves = (!road).then(|| moves.unwrap_or(Connectivity::Eight));
        // Float costs are measured in the generic A* only (pqlab's tuned A* keeps integers),
        // and road graphs are searched by the generic A* alone (the tuned A* is a grid's).
        let search = match search {
            _ if road || costs.kind() == CostKind::Float => SearchKind::Generic,
            Some(search) => search,
            None => SearchKind::Astar,
        };
        let setup = Setup { search, graph, moves, costs: costs.kind() };
        // Road costs have one scale, the graphs' fixed point.
        let scale =
            if road { CostScale::ROAD } else { costs.scale(octile.unwrap_or(CostScale::FINE)) };
        let heuristic = heuristic.unwrap_or_else(|| setup.natural_heuristic(scale));
        let series = Series { setup, heuristic, scale, store: StoreKind::Flat };
        Ok(Query { decrease_key, keys, series, latency: false, terrain: None })
    }

    /// The query of `pick` without flags: octile A\* on an 8-connected grid, fine integer
    /// costs, every queue, monotone keys.
    pub fn unflagged() -> Query {
        Query::new(false, Keys::Monotone, None, GraphKind::Grid, None, Costs::Octile, None, None)
            .expect("pick's defaults are a combination the lab measures")
    }

    /// The query asking for workloads on `terrain` alone (`--terrain`): refused on a road
    /// graph, which has none.
    pub fn on_terrain(self, terrain: Option<TerrainKind>) -> Result<Query> {
        if terrain.is_some() && self.series.setup.graph == GraphKind::Road {
            bail!("--terrain chooses between grids' terrains: a road graph has none; drop --terrain, or ask for --graph grid");
        }
        Ok(Query { terrain, ..self })
    }

    /// The workloads of `run` the query may answer from: with a terrain asked, the whole
    /// searches on that terrain and no held sizes (the queue alone has no map); every
    /// workload otherwise. Its other workloads (the oracle's, the sentinel's) stay.
    pub fn restrict<'a>(&self, run: Run<'a>) -> Run<'a> {
        match self.terrain {
            None => run,
            Some(terrain) => run.retain(|w| match w.kind {
                Kind::Astar => w.terrain() == Some(terrain),
                Kind::Synthetic => false,
                _ => true,
            }),
        }
    }

    /// The series in words, with the terrain asked: `octile A*, fine costs` or
    /// `octile A*, fine costs, on weighted terrain`.
    pub fn describe_series(&self) -> String {
        let series = self.series.describe();
        match self.terrain {
            None => series,
            Some(terrain) => format!("{series}, on {}", terrain.describe()),
        }
    }

    /// Whether a queue's row meets the query: exact, of the strategy and keys asked (an
    /// inconsistent heuristic needs queues that accept any key).
    pub fn admits(&self, row: &Row) -> bool {
        let any_keys = self.keys == Keys::Any || !self.series.exact();
        bands::exact(row)
            && (!self.decrease_key || row.strategy == Some(Strategy::DecreaseKey))
            && (!any_keys || row.keys == Some(KeyRule::Any))
    }
}

/// Parses a frontier size: `2000`, `2,000`, `2k`, `1.5M`, `1e5`.
pub fn parse_size(text: &str) -> Result<f64, String> {
    let bad = || {
        format!(
            "'{text}' is not a frontier size: give the most open cells your searches hold at once, \
             a positive number such as 2000, 2,000, 2k, 1.5M or 1e5"
        )
    };
    if !thousands_grouped(text.trim()) {
        return Err(format!(
            "'{text}': a comma in a frontier size separates thousands (2,000 or 1,000,000); write a decimal point as `.` (1.5k)"
        ));
    }
    let clean = text.trim().replace(['_', ','], "");
    let (digits, factor) = match clean.chars().last() {
        Some('k' | 'K') => (&clean[..clean.len() - 1], 1e3),
        Some('m' | 'M') => (&clean[..clean.len() - 1], 1e6),
        _ => (clean.as_str(), 1.0),
    };
    let value = digits.parse::<f64>().map_err(|_| bad())? * factor;
    if !(value.is_finite() && value >= 1.0) {
        return Err(bad());
    }
    if value > MAX_FRONTIER {
        return Err(format!(
            "'{text}' open cells is beyond any frontier the lab can measure: its held sizes go up to 10⁸ at most (PQLAB_HELD_MAX=1e8)"
        ));
    }
    Ok(value)
}

/// Whether every comma in `text` separates thousands: the digits before the first comma
/// are 1 to 3, and each comma is followed by exactly 3 digits (`2,000`, `1,000,000k`),
/// so `1,5k` or `2,00` are not read as 15,000 or 200.
fn thousands_grouped(text: &str) -> bool {
    let mut groups = text.split(',');
    let first = groups.next().unwrap_or_default();
    let digits = |g: &str| g.chars().take_while(char::is_ascii_digit).count();
    let rest: Vec<&str> = groups.collect();
    rest.is_empty()
        || ((1..=3).contains(&first.len())
            && first.chars().all(|c| c.is_ascii_digit())
            && rest
                .iter()
                .enumerate()
                .all(|(i, g)| digits(g) == 3 && (i + 1 == rest.len() || g.len() == 3)))
}

/// The largest frontier size `pick` answers for: the lab's largest held size.
pub const MAX_FRONTIER: f64 = 1e8;

/// The query's filters in words: `all queues, monotone keys`.
pub(super) fn describe(query: &Query) -> String {
    format!(
        "{} queues, {} keys",
        if query.decrease_key { "decrease-key" } else { "all" },
        if query.keys == Keys::Any { "any" } else { "monotone" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        for (text, value) in [
            ("2000", 2000.0),
            ("2,000", 2000.0),
            ("2k", 2000.0),
            ("1.5M", 1.5e6),
            ("1e5", 1e5),
            ("100_000", 1e5),
            ("1,000,000", 1e6),
            ("2,000.5", 2000.5),
        ] {
            assert_eq!(parse_size(text), Ok(value), "{text}");
        }
        // A comma that cannot separate thousands is refused, never read as one.
        for text in ["1,5k", "2,00", ",500", "1,0000", "12345,000"] {
            let error = parse_size(text).unwrap_err();
            assert!(error.contains("separates thousands"), "{text}: {error}");
        }
        // Past the lab's largest held size: refused, with the reason.
        for text in ["1e20", "1e300", "200M"] {
            let error = parse_size(text).unwrap_err();
            assert!(error.contains("beyond any frontier"), "{text}: {error}");
        }
        for text in ["-5", "0", "abc", "", "k", "nan", "inf"] {
            let error = parse_size(text).unwrap_err();
            assert!(
                error.contains("not a frontier size") && error.contains("2k"),
                "{text}: {error}"
            );
        }
    }

    #[test]
    fn a_road_query_selects_the_lab_road_series() {
        use crate::lab::workloads::{builtin, Source};
        let query = |costs| {
            Query::new(false, Keys::Monotone, None, GraphKind::Road, None, costs, None, None)
                .unwrap()
                .series
        };
        let roads: Vec<_> = builtin(crate::lab::Profile::Default)
            .into_iter()
            .filter(|s| matches!(s.source, Source::Road { .. }))
            .map(|s| s.series)
            .collect();
        let integer = query(Costs::Octile);
        let float = query(Costs::Float);
        assert_eq!(roads.iter().filter(|&&s| s == integer).count(), 3, "{integer:?}");
        assert_eq!(roads.iter().filter(|&&s| s == float).count(), 1, "{float:?}");
        assert_eq!(integer.describe(), "straight-line generic A*, road graph");
        assert_eq!(float.describe(), "straight-line generic A*, float costs, road graph");
        assert!(integer.exact());
    }
}
