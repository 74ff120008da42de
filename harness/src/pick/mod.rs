//! `pqlab pick`: which queue for a frontier of N open cells, or for a map, from the
//! committed runs.
//!
//! # The rule
//!
//! The answer is the ranking of the band holding N, from the workloads
//! [`bands::evidence`] chooses for it (the one rule, which the report's band tables and
//! the verdicts use too): the asked series' searches in the band; else, for octile A\*
//! with fine costs, the queue alone at held sizes in the band; else the nearest band that
//! the series' searches reached. Either fallback is said in the answer. The first
//! line names the winner and its tie group and what std's `BinaryHeap` takes over it; no
//! absolute time is interpolated between unrelated maps. `--map` weights the bands by the
//! map's own searches ([`map`]), and `--measure` answers from a measurement on the map.

pub mod map;
pub mod trace;

use std::fmt;
use std::path::Path;

use anyhow::{bail, ensure, Result};
use pqlab_queues::registry::{self, BASELINE};
use pqlab_queues::{Family, KeyRule, Origin, Strategy};
use serde::Serialize;

use crate::analysis::bands::{self, Band, Evidence, Selection};
use crate::analysis::findings::FrontierShare;
use crate::analysis::latency::{latency, Latency};
use crate::analysis::rank::{rank_weighted, versus_weighted, Standing};
use crate::analysis::{Findings, Run, Workload};
use crate::format::{count, plural, ratio, ratio_interval, significant};
use crate::maps::grid::Rules;
use crate::maps::grid::{Connectivity, CostKind, CostScale};
use crate::maps::GraphKind;
use crate::results::{files, location, Kind, Row, Spread, Status};
use crate::search::heuristic::HeuristicKind;
use crate::search::store::StoreKind;
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
    /// The caller's search loop, graph, moves and cost representation.
    pub setup: Setup,
    /// The heuristic of the searches to answer from.
    pub heuristic: HeuristicKind,
    /// Their cost scale.
    pub scale: CostScale,
    /// Rank by the 99th-percentile time of one search (a frame budget), not by total time.
    pub latency: bool,
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
        if search == Some(SearchKind::Astar) && (road || costs.kind() == CostKind::Float) {
            bail!(
                "pqlab's tuned A* (--search astar) searches grids with integer costs: {} measured in the generic A* alone (--search generic, the default there)",
                if road { "road graphs are" } else { "float costs are" }
            );
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
        Ok(Query { decrease_key, keys, setup, heuristic, scale, latency: false })
    }

    /// The movement rules of the caller's grid searches.
    pub fn rules(&self) -> Rules {
        Rules { connectivity: self.setup.moves.unwrap_or(Connectivity::Eight), scale: self.scale }
    }

    /// The series answering the query.
    pub fn selection(&self) -> Selection {
        Selection {
            setup: self.setup,
            heuristic: self.heuristic,
            scale: self.scale,
            store: StoreKind::Flat,
        }
    }

    /// Whether a queue's row meets the query: exact, of the strategy and keys asked (an
    /// inconsistent heuristic needs queues that accept any key).
    pub fn admits(&self, row: &Row) -> bool {
        let any_keys = self.keys == Keys::Any || !self.selection().exact();
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

/// One queue in an answer's ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// The queue id.
    pub queue: String,
    /// Its family (a registry token in JSON: `binary-heap`).
    pub family: Option<Family>,
    /// Its strategy (`dup`, `dk`).
    pub strategy: Option<Strategy>,
    /// The keys it accepts (`any`, `monotone`, `bounded-span`).
    pub keys: Option<KeyRule>,
    /// Its time ÷ the winner's (1 for the winner), with the 95% interval: `[low, ratio,
    /// high]` in JSON. When `censored` is above 0 the ratio and the low end are lower
    /// bounds and the high end is infinite (`null` in JSON).
    pub vs_best: Spread,
    /// The workloads where it was cut off, whose measured lower bound stands in for its
    /// time ("at least").
    pub censored: usize,
    /// Whether it is in the winner's tie group.
    pub tied: bool,
    /// Its time ÷ std-binary-heap-dup's, when both were measured.
    pub vs_std: Option<f64>,
    /// Its per-search latency, where the rows have it.
    pub latency: Option<Latency>,
}

impl Ranked {
    /// Its time ÷ the winner's: "1.23× (1.20×–1.26×)", or for a queue cut off somewhere
    /// "≥ 5.1× (cut off on 2 workloads: a lower bound)".
    fn vs_best_text(&self) -> String {
        if self.censored > 0 {
            format!(
                "≥ {} (cut off on {}: a lower bound)",
                ratio(self.vs_best.mid),
                plural(self.censored, "workload")
            )
        } else {
            ratio_interval(self.vs_best)
        }
    }
}

/// A registry fact as the text table shows it (empty when the queue is not registered).
fn text(fact: Option<impl fmt::Display>) -> String {
    fact.map_or(String::new(), |f| f.to_string())
}

/// The evidence behind an answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Backing {
    /// The series (`octile A*, fine costs`).
    pub series: String,
    /// The band that answered; `None` for a measurement on the user's map.
    pub band: Option<String>,
    /// `whole searches` or `the queue alone at held sizes`.
    pub source: String,
    /// The workloads, with their frontier sizes and map kinds.
    pub workloads: Vec<(String, f64, String)>,
    /// Whether any workload is a real Moving AI map.
    pub real_maps: bool,
    /// The trace file, when the evidence is the user's trace replayed (`pick --trace`).
    pub trace: Option<String>,
    /// Fewer than three workloads.
    pub weak: bool,
}

impl Backing {
    /// Which maps its workloads are, as the evidence's heading says it.
    fn maps(&self) -> &'static str {
        if self.real_maps {
            ", real Moving AI maps included"
        } else {
            ", generated maps"
        }
    }
}

/// What an answer's ranking is ordered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankedBy {
    /// Total time over the workloads' searches, with paired bootstrap intervals.
    Time,
    /// The 99th-percentile time of one search (`pick --latency`).
    Latency,
}

/// An answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// What the ranking is ordered by.
    pub ranked_by: RankedBy,
    /// The verdict line.
    pub verdict: String,
    /// The query in words.
    pub asked: String,
    /// The run the rows come from, and its machine.
    pub run: String,
    /// The run's machine.
    pub machine: String,
    /// The run's noise, when it could change rankings.
    pub noise: Option<String>,
    /// When this machine's CPU is not the run's.
    pub machine_note: Option<String>,
    /// What backs it.
    pub backing: Vec<Backing>,
    /// Every queue meeting the query, the winner first.
    pub ranking: Vec<Ranked>,
    /// Queues meeting the query that could not be ranked, and why.
    pub not_ranked: Vec<(String, String)>,
    /// The winner's memory: entries held per open cell, and heap bytes per entry.
    pub memory: Vec<String>,
    /// The winner's tie order's effect on the search: its expansions ÷ the baseline's.
    pub tie_order: Option<String>,
    /// How to adopt the winner.
    pub adopt: Option<String>,
    /// How much of these searches the frontier takes with std's heap and with the winner
    /// (`None` where no evidence workload has an oracle row).
    pub frontier_share: Option<Shares>,
    /// What else to know.
    pub caveats: Vec<String>,
}

/// The frontier's share of the searches behind an answer, with std's heap and with the
/// winner ([`Findings::frontier_share`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Shares {
    /// With std's heap.
    pub std: FrontierShare,
    /// With the winner.
    pub winner: FrontierShare,
}

/// The run to answer from: `chosen`, else the latest under `results_dir`, else the latest
/// quick run under `results_dir/quick` (with a note saying so).
pub fn load(results_dir: &Path, chosen: Option<&Path>) -> Result<(Vec<Row>, Vec<String>)> {
    for note in files::tidy(results_dir).unwrap_or_default() {
        eprintln!("pqlab: {note}");
    }
    if let Some((_, rows)) = files::latest_or(results_dir, chosen)? {
        return Ok((rows, Vec::new()));
    }
    let quick = results_dir.join("quick");
    if let Some((path, rows)) = files::latest_or(&quick, None)? {
        let note = format!(
            "{} holds no run; this answer comes from the quick profile's {} (a smoke test: few \
             rounds, small suites).",
            results_dir.join("runs").display(),
            path.display()
        );
        return Ok((rows, vec![note]));
    }
    bail!(location::no_results(results_dir))
}

/// Every run to answer a map from, oldest first: `chosen` alone when given, else every run
/// under `results_dir` (falling back to the quick profile's, with a note, as [`load`]).
/// A map's answer prefers the latest run that measured real maps of its kind, which need
/// not be the latest run.
pub fn load_all(results_dir: &Path, chosen: Option<&Path>) -> Result<(Vec<Vec<Row>>, Vec<String>)> {
    if chosen.is_some() {
        let (rows, notes) = load(results_dir, chosen)?;
        return Ok((vec![rows], notes));
    }
    for note in files::tidy(results_dir).unwrap_or_default() {
        eprintln!("pqlab: {note}");
    }
    let (found, skipped) = files::runs(results_dir)?;
    for note in skipped {
        eprintln!("pqlab: {note}");
    }
    if found.is_empty() {
        let (rows, notes) = load(results_dir, None)?;
        return Ok((vec![rows], notes));
    }
    let runs = found.iter().map(|f| files::load_run(&f.path)).collect::<Result<Vec<_>>>()?;
    Ok((runs, Vec::new()))
}

/// The weighted workloads answering for `bands` (each band's weight split over its
/// workloads), and their backing.
fn weighted<'w, 'a>(
    evidence: &[(Evidence<'w, 'a>, f64)],
    selection: &Selection,
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
    selection: &Selection,
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

/// Gives each ranked queue its per-search latency over the `workloads` that timed each
/// search (whole searches; the queue alone at held sizes has no searches), and, when
/// `query` asks for it, ranks by it (lowest p99 first), saying which weighted workloads
/// were left out; refuses with the reason when none timed their searches.
pub fn with_latency(
    answer: &mut Answer,
    workloads: &[(&Workload<'_>, f64)],
    query: &Query,
) -> Result<()> {
    let timed = |w: &Workload<'_>| w.rows.values().any(|r| r.search_p99_ns.is_some());
    let searched: Vec<(&Workload<'_>, f64)> =
        workloads.iter().filter(|(w, _)| timed(w)).copied().collect();
    for r in &mut answer.ranking {
        r.latency = latency(&searched, &r.queue, |row| query.admits(row));
    }
    if !query.latency {
        return Ok(());
    }
    let untimed: Vec<&Workload<'_>> =
        workloads.iter().map(|(w, _)| *w).filter(|w| !timed(w)).collect();
    if searched.is_empty() {
        let schema = workloads.first().map_or(0, |(w, _)| w.facts.schema);
        if schema < 4 {
            bail!(
                "run {} has no per-search latency (a schema {schema} run: runs of schema 4 and later time each search); run `cargo bench`, or ask without --latency",
                answer.run
            );
        }
        bail!(
            "no per-search latency answers this: the workloads that answer ({}) time the queue alone at held sizes, with no searches to time; ask without --latency",
            untimed.iter().map(|w| w.name).collect::<Vec<_>>().join(", ")
        );
    }
    if !untimed.is_empty() {
        answer.caveats.push(format!(
            "Ranked by latency over the {} that timed each search; {} of the queue alone at held sizes, with no searches to time, {} left out: {}.",
            plural(searched.len(), "workload"),
            plural(untimed.len(), "workload"),
            if untimed.len() == 1 { "is" } else { "are" },
            untimed.iter().map(|w| w.name).collect::<Vec<_>>().join(", ")
        ));
    }
    by_latency(answer)
}

/// What `winner` buys over std's heap in the other A\* of the same series (the generic
/// one for the tuned grid A\*, and the other way round), on the bands asked where that
/// series has whole searches: the gain a user of the other search would see.
fn gain_in_the_other_search(
    run: &Run<'_>,
    selection: &Selection,
    weights: &[(Band, f64)],
    winner: &str,
) -> Option<String> {
    let (search, name) = match selection.setup.search {
        SearchKind::Astar => (SearchKind::Generic, "a generic A* like the `pathfinding` crate's"),
        SearchKind::Generic => (SearchKind::Astar, "pqlab's tuned grid A*"),
    };
    let other = Selection { setup: Setup { search, ..selection.setup }, ..*selection };
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

/// Reorders `answer` by p99 per search and says so in its verdict: the queues with
/// latency figures on every workload, lowest first. A p99 is one figure a workload, with
/// no interval, so no tie group is claimed.
fn by_latency(answer: &mut Answer) -> Result<()> {
    let (mut timed, untimed): (Vec<Ranked>, Vec<Ranked>) =
        answer.ranking.drain(..).partition(|r| r.latency.is_some());
    if timed.is_empty() {
        bail!("no queue has per-search latency on every workload answering this: ask without --latency");
    }
    let p99 = |r: &Ranked| r.latency.map_or(f64::INFINITY, |l| l.p99_vs_best);
    timed.sort_by(|a, b| p99(a).total_cmp(&p99(b)));
    let best = &timed[0];
    let next: Vec<String> = timed
        .iter()
        .skip(1)
        .take(3)
        .map(|r| format!("`{}` {}", r.queue, ratio(p99(r) / p99(best))))
        .collect();
    let l = best.latency.expect("partitioned on it");
    answer.verdict = format!(
        "For the lowest 99th-percentile search, use `{}`: p99 {} a search (median {}, slowest {}); next {}. \
         A p99 is one figure a workload, without an interval: figures a few percent apart may swap between runs.",
        best.queue,
        crate::format::time(l.p99_ns),
        crate::format::time(l.p50_ns),
        crate::format::time(l.max_ns),
        if next.is_empty() { "none measured".to_owned() } else { next.join(", ") }
    );
    answer.not_ranked.extend(
        untimed
            .into_iter()
            .map(|r| (r.queue, "no per-search latency on every workload".to_owned())),
    );
    for r in &mut timed {
        r.tied = false;
    }
    answer.ranking = timed;
    answer.ranked_by = RankedBy::Latency;
    Ok(())
}

/// The answer's text from a ranking over weighted workloads.
pub fn build_answer(
    findings: &Findings<'_, '_>,
    workloads: &[(&Workload<'_>, f64)],
    standings: &[Standing<'_>],
    backing: Vec<Backing>,
    asked: String,
    mut caveats: Vec<String>,
) -> Answer {
    let run = findings.run;
    let ranking = ranked(workloads, standings);
    let winner = ranking.first().map(|r| r.queue.as_str());
    let (memory, tie_order) = match winner {
        Some(w) => (memory(run, workloads, w), tie_order(workloads, w)),
        None => (Vec::new(), None),
    };
    let adopt = winner.and_then(registry::find).map(adoption);
    let frontier_share = winner.and_then(|w| {
        Some(Shares {
            std: findings.frontier_share(workloads, BASELINE)?,
            winner: findings.frontier_share(workloads, w)?,
        })
    });
    if backing.iter().any(|b| b.weak) {
        caveats.push(format!(
            "Some of the evidence is weak: fewer than {} workloads in a band.",
            bands::STRONG
        ));
    }
    Answer {
        ranked_by: RankedBy::Time,
        verdict: verdict(workloads, &ranking),
        asked,
        run: run.run_id(),
        machine: run.machine(),
        noise: findings.noise().filter(|n| n.troubling()).map(|n| n.sentence()),
        machine_note: machine_note(run),
        backing,
        not_ranked: not_ranked(workloads, standings),
        ranking,
        memory,
        tie_order,
        adopt,
        frontier_share,
        caveats,
    }
}

/// The contenders among `standings`, in rank order, with their registry facts and their
/// time over std's heap.
fn ranked(workloads: &[(&Workload<'_>, f64)], standings: &[Standing<'_>]) -> Vec<Ranked> {
    standings
        .iter()
        .filter(|s| s.contends)
        .map(|s| {
            let entry = registry::find(s.queue);
            Ranked {
                queue: s.queue.to_owned(),
                family: entry.map(|e| e.family),
                strategy: entry.map(|e| e.strategy),
                keys: entry.map(|e| e.keys),
                vs_best: s.against_winner.unwrap_or(Spread::exact(1.0)),
                censored: s.censored,
                tied: s.tied,
                vs_std: versus_weighted(workloads, s.queue, BASELINE).map(|v| v.ratio.mid),
                latency: None,
            }
        })
        .collect()
}

/// The queues of `standings` that do not contend, each with the reason.
fn not_ranked(
    workloads: &[(&Workload<'_>, f64)],
    standings: &[Standing<'_>],
) -> Vec<(String, String)> {
    standings
        .iter()
        .filter(|s| !s.contends)
        .map(|s| {
            let reason = if s.cut_off > s.censored {
                format!(
                    "cut off on {} without a measured bound (an older run's cut-off)",
                    plural(s.cut_off - s.censored, "workload")
                )
            } else if s.failed > 0 {
                format!("failed on {}", plural(s.failed, "workload"))
            } else if let Some(why) = workloads.iter().find_map(|(w, _)| {
                w.rows.get(s.queue).filter(|r| r.status == Status::NotApplicable)
            }) {
                format!("n/a: {}", why.note)
            } else {
                format!("measured on {} of the workloads only", s.ok)
            };
            (s.queue.to_owned(), reason)
        })
        .collect()
}

/// The verdict line: the winner, its tie group, and what std's heap takes over it.
fn verdict(workloads: &[(&Workload<'_>, f64)], ranking: &[Ranked]) -> String {
    let Some(best) = ranking.first() else {
        return "No queue meeting the query was timed on these workloads.".to_owned();
    };
    let ties: Vec<String> =
        ranking.iter().skip(1).filter(|r| r.tied).map(|r| format!("`{}`", r.queue)).collect();
    let mut line = format!("Use `{}`", best.queue);
    if !ties.is_empty() {
        line.push_str(&format!(
            "; {} {} within noise of it",
            ties.join(", "),
            if ties.len() == 1 { "is" } else { "are" }
        ));
    }
    match versus_weighted(workloads, BASELINE, &best.queue) {
        Some(v) if best.queue != BASELINE => line.push_str(&format!(
            "; std's BinaryHeap (`{BASELINE}`) takes {} its time (95% interval {}–{}).",
            ratio(v.ratio.mid),
            ratio(v.ratio.low),
            ratio(v.ratio.high)
        )),
        _ if best.queue == BASELINE => line.push_str(": std's BinaryHeap is the best here."),
        _ => line.push('.'),
    }
    line
}

/// The winner's memory: entries held per open cell over the workloads, and heap bytes
/// per entry at a held size.
fn memory(run: &Run<'_>, workloads: &[(&Workload<'_>, f64)], winner: &str) -> Vec<String> {
    let mut memory = Vec::new();
    let held: Vec<(f64, f64)> = workloads
        .iter()
        .filter_map(|(wl, _)| {
            wl.ok(winner).filter(|r| r.max_open > 0.0).map(|r| (r.max_frontier, r.max_open))
        })
        .collect();
    if !held.is_empty() {
        let per_open = held.iter().map(|(f, o)| f / o).sum::<f64>() / held.len() as f64;
        memory.push(format!("`{winner}` held {} entries per open cell at its largest (duplicates keep stale entries).", significant(per_open, 3)));
    }
    let bytes: Option<f64> = run
        .of(Kind::Synthetic)
        .filter(|s| s.size <= 1e6)
        .filter_map(|s| s.ok(winner)?.bytes_per_entry)
        .last();
    if let Some(b) = bytes {
        memory.push(format!(
            "It allocates {} bytes per entry held (measured at a held size).",
            significant(b, 3)
        ));
    }
    memory
}

/// The winner's tie order's effect on the search: its expansions ÷ the baseline's
/// (`None` when the winner is the baseline, or nothing was searched).
fn tie_order(workloads: &[(&Workload<'_>, f64)], winner: &str) -> Option<String> {
    // Held sizes expand nothing (0 / 0): `expansions_versus` keeps only whole searches.
    let searched: Vec<&Workload<'_>> = workloads.iter().map(|(wl, _)| *wl).collect();
    let expansions = crate::analysis::rank::expansions_versus(&searched, winner, BASELINE);
    let (e, _) = expansions.filter(|_| winner != BASELINE)?;
    Some(format!(
        "Its tie order expands {} the cells std-binary-heap-dup's does on these workloads{}.",
        ratio(e),
        if (e - 1.0).abs() < 0.01 { " (the same search)" } else { "" }
    ))
}

/// A note when this machine's CPU is not the run's.
fn machine_note(run: &Run<'_>) -> Option<String> {
    let cpu = crate::results::this_cpu();
    (!run.cpu().split("; ").any(|c| c == cpu)).then(|| {
        format!(
            "These figures come from {}; this machine is {cpu}: rankings may differ here. \
             Measure yours with `pqlab pick --map YOUR.map --measure`, or run `cargo bench`.",
            run.machine()
        )
    })
}

/// The dependency line of the `pqlab-queues` crate, not yet published: a path (or git)
/// dependency the user fills in, never this machine's checkout.
const QUEUES: &str = "pqlab-queues = { path = \"<your pqlab checkout>/queues\" }";

/// How to adopt `e`: the exact dependency line and the one-line change in the user's A*,
/// then its key rule and strategy.
fn adoption(e: &'static registry::Entry) -> String {
    /// The queue's type, as the generic A*'s type parameter.
    struct TypeName;
    impl registry::Visitor for TypeName {
        type Output = &'static str;
        fn visit<F: pqlab_queues::Frontier + 'static>(
            self,
            _: &'static registry::Entry,
        ) -> Self::Output {
            std::any::type_name::<F>()
        }
    }
    let generic = |ty: &str| {
        format!(
            "for `pathfinding::prelude::astar(&start, successors, heuristic, success)` call \
             `pqlab_queues::astar::<{ty}, _, _, _>(&start, successors, heuristic, success)?`"
        )
    };
    let how = match e.origin {
        Origin::Ours { .. } => {
            let ty = registry::visit(e.id, TypeName).expect("a registered queue");
            format!(
                "depend on `{QUEUES}` (a path or git dependency you fill in: the crate is not on crates.io yet), and {}",
                generic(ty)
            )
        }
        Origin::Std { path } => format!(
            "use `{path}` of `Reverse` keys with duplicate insertion (as `pathfinding::prelude::astar` does), or {}",
            generic("pqlab_queues::std_binary_heap::StdBinaryHeap")
        ),
        Origin::Crate { name, version, usage, .. } => {
            format!("depend on `{name} = \"{version}\"`, and in an A* around std's `BinaryHeap` use {usage}")
        }
    };
    let keys = match e.keys {
        KeyRule::Any => "it accepts any key".to_owned(),
        KeyRule::Monotone => "it needs monotone keys: a consistent heuristic, never a key below the last popped one".to_owned(),
        KeyRule::BoundedSpan => "it needs monotone keys within a span declared up front (the largest key minus the last popped one; under a consistent heuristic, twice the largest edge cost is enough)".to_owned(),
    };
    let strategy = match e.strategy {
        Strategy::Duplicates => "push a node again when its cost improves and skip stale pops",
        Strategy::DecreaseKey => "it lowers a held node's key in place",
    };
    format!("To adopt `{}`: {how}; {keys}; {strategy}.", e.id)
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
fn largest_measured(run: &Run<'_>, selection: &Selection) -> Option<f64> {
    let searches = run.workloads.iter().filter(|w| selection.admits(w));
    let held = run.of(Kind::Synthetic).filter(|_| selection.held_sizes_model());
    searches.chain(held).map(|w| w.size).filter(|s| s.is_finite()).reduce(f64::max)
}

/// The query's filters in words: `all queues, monotone keys`.
fn describe(query: &Query) -> String {
    format!(
        "{} queues, {} keys",
        if query.decrease_key { "decrease-key" } else { "all" },
        if query.keys == Keys::Any { "any" } else { "monotone" }
    )
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.verdict)?;
        writeln!(f, "\nFor {}, from run {} on {}.", self.asked, self.run, self.machine)?;
        if let Some(noise) = &self.noise {
            writeln!(f, "The evidence run: {noise}")?;
        }
        if let Some(note) = &self.machine_note {
            writeln!(f, "{note}")?;
        }
        self.write_evidence(f)?;
        if self.ranked_by == RankedBy::Latency {
            self.write_latency_table(f)?;
        } else if !self.ranking.is_empty() {
            self.write_time_table(f)?;
        }
        self.write_notes(f)
    }
}

impl Answer {
    /// The evidence: each backing's band, source and series, and its workloads.
    fn write_evidence(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "\nEvidence:")?;
        for b in &self.backing {
            let (heading, maps) = match (&b.band, &b.trace) {
                (Some(band), _) => (format!("{band} band"), b.maps()),
                (None, Some(trace)) => (format!("Your trace {trace}"), ""),
                (None, None) => ("On your map".to_owned(), b.maps()),
            };
            writeln!(
                f,
                "  {heading}, {} of {}{maps}{}:",
                b.source,
                b.series,
                if b.weak { " (weak)" } else { "" }
            )?;
            for (name, size, kind) in &b.workloads {
                writeln!(f, "    {name} ({kind}, {} open cells)", count(*size))?;
            }
        }
        Ok(())
    }

    /// The ranking by p99 per search, with each queue's latencies.
    fn write_latency_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "\n{:>4}  {:<26} {:>11} {:>10} {:>10} {:>10}  {:<12} keys",
            "rank", "queue", "p99 ÷ best", "p99", "median", "slowest", "strategy"
        )?;
        for (i, r) in self.ranking.iter().enumerate() {
            let Some(l) = r.latency else { continue };
            writeln!(
                f,
                "{:>4}  {:<26} {:>11} {:>10} {:>10} {:>10}  {:<12} {}",
                i + 1,
                r.queue,
                ratio(l.p99_vs_best),
                crate::format::time(l.p99_ns),
                crate::format::time(l.p50_ns),
                crate::format::time(l.max_ns),
                text(r.strategy),
                text(r.keys)
            )?;
        }
        writeln!(f, "\np99 ÷ best: each workload's p99 over the lowest p99 there, geometric mean; the times are geometric means over the workloads.")
    }

    /// The ranking by time, with each queue's ratio to the winner and to std's heap.
    fn write_time_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "\n{:>4}  {:<26} {:>18}  {:>8}  {:<12} keys",
            "rank", "queue", "time ÷ best", "÷ std", "strategy"
        )?;
        for (i, r) in self.ranking.iter().enumerate() {
            let spread = if i == 0 { "1× (best)".to_owned() } else { r.vs_best_text() };
            writeln!(
                f,
                "{:>4}  {:<26} {:>18}{} {:>8}  {:<12} {}",
                i + 1,
                r.queue,
                spread,
                if r.tied { "≈" } else { " " },
                r.vs_std.map_or("n/a".into(), ratio),
                text(r.strategy),
                text(r.keys)
            )?;
        }
        writeln!(f, "\n≈: in the winner's tie group (not more than 2% behind it with 95% confidence); ÷ std: time ÷ std-binary-heap-dup's.")
    }

    /// The queues not ranked, the winner's memory, tie order and adoption, and the caveats.
    fn write_notes(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.not_ranked.is_empty() {
            writeln!(f, "\nNot ranked:")?;
            for (queue, why) in &self.not_ranked {
                writeln!(f, "  {queue}: {why}")?;
            }
        }
        let share = self.frontier_share.map(|s| {
            format!(
                "The queue is {:.0}% of these searches with std's heap and {:.0}% with `{}` (1 − the oracle floor's time ÷ the queue's, over {} workloads with an oracle row): what a faster queue can save at most.",
                s.std.share * 100.0,
                s.winner.share * 100.0,
                self.ranking.first().map_or("the winner", |r| r.queue.as_str()),
                s.winner.workloads
            )
        });
        let mut notes: Vec<&String> = share.iter().collect();
        notes.extend(self.memory.iter());
        notes.extend(self.tie_order.iter());
        notes.extend(self.adopt.iter());
        if !notes.is_empty() {
            writeln!(f)?;
            for note in notes {
                writeln!(f, "{note}")?;
            }
        }
        if !self.caveats.is_empty() {
            writeln!(f, "\nCaveats:")?;
            for caveat in &self.caveats {
                writeln!(f, "- {caveat}")?;
            }
        }
        Ok(())
    }

    /// The answer as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "**{}**\n\nFor {}, from run `{}` on {}.\n\n",
            self.verdict, self.asked, self.run, self.machine
        ));
        if let Some(noise) = &self.noise {
            out.push_str(&format!("> The evidence run: {noise}\n\n"));
        }
        if let Some(note) = &self.machine_note {
            out.push_str(&format!("> {note}\n\n"));
        }
        out.push_str("| rank | queue | time ÷ best | tie group | ÷ std | strategy | keys |\n|---|---|---|---|---|---|---|\n");
        for (i, r) in self.ranking.iter().enumerate() {
            out.push_str(&format!(
                "| {} | `{}` | {} | {} | {} | {} | {} |\n",
                i + 1,
                r.queue,
                r.vs_best_text(),
                if r.tied { "yes" } else { "no" },
                r.vs_std.map_or("n/a".into(), ratio),
                text(r.strategy),
                text(r.keys)
            ));
        }
        for line in
            self.memory.iter().chain(&self.tie_order).chain(&self.adopt).chain(&self.caveats)
        {
            out.push_str(&format!("\n- {line}"));
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_queue_is_adopted_with_a_dependency_line_and_a_one_line_change() {
        for e in registry::ENTRIES {
            let text = adoption(e);
            match e.origin {
                Origin::Ours { .. } => {
                    assert!(text.contains("`pqlab-queues = { path = "), "{text}");
                    assert!(text.contains("`pqlab_queues::astar::<pqlab_queues::"), "{text}");
                }
                Origin::Std { path } => assert!(text.contains(path), "{text}"),
                Origin::Crate { name, version, usage, .. } => {
                    assert!(text.contains(&format!("`{name} = \"{version}\"`")), "{text}");
                    assert!(text.contains(usage), "{text}");
                }
            }
        }
    }

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
        use crate::lab::suites::{builtin, Source};
        let query = |costs| {
            Query::new(false, Keys::Monotone, None, GraphKind::Road, None, costs, None, None)
                .unwrap()
                .selection()
        };
        let roads: Vec<_> = builtin(crate::lab::Profile::Default)
            .into_iter()
            .filter(|s| matches!(s.source, Source::Road { .. }))
            .map(|s| Selection {
                setup: s.setup,
                heuristic: s.heuristic,
                scale: s.scale,
                store: s.store,
            })
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
