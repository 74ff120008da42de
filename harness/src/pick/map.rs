//! `pqlab pick --map`: from a user's map to a pick.
//!
//! The map's problems (its scenario's, spread over its length buckets and capped at
//! [`MAP_PROBLEMS`]; or random connected ones on a bare map) are solved once with std's
//! BinaryHeap, which checks the scenario's lengths and learns the map's frontier sizes.
//! Then the best evidence on this machine answers, from every run, not only the latest:
//!
//! 1. this very map (by name, `movingai/<folder>/<name>`), from the latest run that
//!    measured it;
//! 2. real Moving AI maps of the same kind (`movingai-dao`: the folder the map sits in),
//!    from the latest run that measured some; how well that transfers is checked by
//!    leaving each of those maps out in turn, and the bands answer instead when they
//!    named the measured tie group on more of those maps than the kind did, or on as many
//!    with their named queues closer to the measured winners ([`Transfer::mean_ratio`]);
//! 3. else the bands of the latest run with real maps (the latest run's when none has
//!    any), weighted by the map's searches; how well generated maps transfer to real ones
//!    is checked on that same run, per map kind: the bands' prediction (from generated
//!    maps only) against the measured winner. The answer and the error it states come
//!    from one run: a later run's bands may name other queues than those checked.
//!
//! [`Asking`] answers a map as if no run had measured it (its own rows left out of every
//! run) and from one source alone: the leave-one-map-out check of `tests/transfer.rs`.
//!
//! The answer states that error, and recommends `--measure` when a prediction missed the
//! measured tie group on more than one map in ten ([`TRUSTED`]). With `--measure`, the
//! candidates (every queue near the winner of any source: [`candidates`]) and the baseline
//! are timed on the map itself, interleaved and raced, until the ranking is decided or the
//! time budget is spent, and answer.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use pqlab_queues::registry::{self, BASELINE};
use serde::Serialize;

use super::query::describe;
use super::{answer, build_answer, with_latency, Answer, Backing, Promise, Query, PROMISE_MAPS};
use crate::analysis::bands::Band;
use crate::analysis::rank::{rank_weighted, versus_weighted, Standing};
use crate::analysis::{Findings, Run, Workload};
use crate::format::{count, plural, ratio};
use crate::lab::contest::Contest;
use crate::lab::measure::{heat, RACE_FACTOR};
use crate::lab::rows::WorkloadFacts;
use crate::lab::searches::{CheckQueue, Prepared, Untimed};
use crate::lab::suites::{Role, Source, WorkloadSpec};
use crate::maps::instance::{Instance, Sample};
use crate::maps::moves::{Components, Moves};
use crate::results::{Kind, Platform, Provenance, Row, Sizes, Unit};
use crate::search::grid_loop::Target;
use crate::search::heuristic::AnyHeuristic;
use crate::search::outcome::SearchError;
use crate::search::store::StoreKind;

/// The problems `pick --map` uses unless `--limit` says otherwise, spread over the
/// scenario's length buckets. At 300, the profile of a 512² maze (the slowest shared map
/// kind: 9,730 problems took 67.5 s) takes about 2 s, and `--measure` fits its budget.
pub const MAP_PROBLEMS: usize = 300;

/// The share of real maps a prediction must place in the measured tie group to be trusted
/// without `--measure`: 90%, the rate `pick --map` must reach on the 30 shared maps (27
/// of 30).
pub const TRUSTED: f64 = 0.9;

/// The time `--measure` may spend on its check passes and timed rounds: with a few seconds
/// of profile before it, a 512² map's answer comes within a minute on 2 cores. A maze, the slowest kind, took 78 s of wall time (28 s of CPU) with the
/// budget counting the rounds only, on a loaded machine; hence the checks are inside it.
pub const MEASURE_BUDGET: Duration = Duration::from_secs(45);

/// The most rounds of `--measure`'s first batch, before it may stop early: fewer give
/// intervals too wide for the tie rule to separate anyone.
const MIN_ROUNDS: u32 = 5;

/// A map's frontier sizes under the query's heuristic and scale.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Profile {
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
pub struct Profiled {
    /// The frontier sizes.
    pub profile: Profile,
    /// The bands' weights: the share of the map's searches in each.
    pub weights: Vec<(Band, f64)>,
    /// The problems whose expected answer the search did not find (`file:line: expected
    /// …, found …`); empty when the expected answers do not apply under the query's rules.
    pub wrong: Vec<String>,
    /// The problems whose path costs more than the tuned A\*'s 32-bit keys hold at the
    /// query's scale (`file:line: why`): a limit of the representation, not a wrong
    /// answer; left out of the profile, as `validate` leaves them unchecked.
    pub beyond: Vec<String>,
}

/// Solves the map's problems with the query's search and std's BinaryHeap, with a progress
/// bar on stderr, and returns their frontier sizes and the answers that disagree with the
/// scenario.
pub fn profile(instance: &Instance, query: &Query) -> Result<Profiled> {
    let rules = query.rules();
    // The search asked (`--search`), with std's BinaryHeap: JPS's frontier is its own.
    let entry = query.setup.search.entry();
    entry
        .needs
        .workload(&instance.grid, query.heuristic)
        .map_err(|why| anyhow::anyhow!("{}: --search {}: {why}", instance.name, entry.token))?;
    let moves = Moves::new(&instance.grid, rules.connectivity, rules.scale);
    let target = Target {
        grid: &instance.grid,
        moves: &moves,
        rules,
        store: StoreKind::Flat,
        costs: query.setup.costs,
        heuristic: query.heuristic,
    };
    let mut search = (entry.build)(&target, registry::baseline()).map_err(anyhow::Error::msg)?;
    let mut heuristic =
        AnyHeuristic::new(query.heuristic, &instance.grid, rules.connectivity, rules.scale)
            .map_err(anyhow::Error::msg)?;
    let exact = crate::search::heuristic::Heuristic::admissible(&heuristic);
    let checked = instance.checkable_under(rules);
    let components = Components::new(&instance.grid);
    let bar = crate::format::progress(instance.problems.len() as u64, "searches (profile)");
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
    let profile = Profile {
        map: instance.name.clone(),
        searches: open.len(),
        open: Sizes::of(&open),
        held: Sizes::of(&held),
        bands: weights.iter().map(|(b, s)| (b.label(), *s)).collect(),
    };
    Ok(Profiled { profile, weights, wrong, beyond })
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

/// How well one kind of prediction held on real maps: per map kind, the maps where the
/// predicted queue was in the measured tie group, and the predicted queue's time ÷ the
/// measured winner's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Transfer {
    /// The run the real maps come from.
    pub run: String,
    /// Per map kind: `(kind, maps, hits, geometric mean of predicted ÷ winner, largest)`.
    pub kinds: Vec<(String, usize, usize, f64, f64)>,
    /// Each map's error in the gain promised: `ln` of std's heap's time ÷ the predicted
    /// queue's measured on the map, less `ln` of the same ratio promised by the evidence.
    pub errors: Vec<f64>,
}

impl Transfer {
    /// The share of maps where the prediction was in the tie group, over `kind` when it
    /// was checked, else over every kind.
    pub fn hit_rate(&self, kind: Option<&str>) -> Option<f64> {
        let (maps, hits, _) = self.over(kind);
        (maps > 0).then(|| hits as f64 / maps as f64)
    }

    /// The geometric mean of the predicted queue's time ÷ the measured winner's, over
    /// `kind` when it was checked, else over every kind.
    pub fn mean_ratio(&self, kind: Option<&str>) -> Option<f64> {
        let (maps, _, logs) = self.over(kind);
        (maps > 0).then(|| (logs / maps as f64).exp())
    }

    /// Over `kind` when it was checked, else over every kind: the maps, the hits and the
    /// sum of the log ratios.
    fn over(&self, kind: Option<&str>) -> (usize, usize, f64) {
        let of = self.kinds.iter().filter(|k| kind.is_none_or(|kind| k.0 == kind));
        of.fold((0, 0, 0.0), |(maps, hits, logs), k| {
            (maps + k.1, hits + k.2, logs + k.1 as f64 * k.3.ln())
        })
    }

    /// One sentence: `On the 30 real maps of run R, ...: movingai-dao 3/3 (1.00×), ...`.
    pub fn sentence(&self, what: &str) -> String {
        let maps: usize = self.kinds.iter().map(|k| k.1).sum();
        let hits: usize = self.kinds.iter().map(|k| k.2).sum();
        let kinds: Vec<String> = self
            .kinds
            .iter()
            .map(|(kind, maps, hits, mean, worst)| {
                format!("{kind} {hits}/{maps} (mean {}, worst {})", ratio(*mean), ratio(*worst))
            })
            .collect();
        format!(
            "How well this transfers: on the {} of run {}, {what} named a queue in the measured tie group on {hits} of {maps}; per kind, with the named queue's time ÷ the measured winner's: {}.",
            plural(maps, "real map"),
            self.run,
            kinds.join(", ")
        )
    }
}

/// One left-out map's check: its kind, whether the predicted queue was in the measured tie
/// group, its time ÷ the measured winner's, and the error in the promised gain.
type Check = (String, bool, f64, f64);

/// The measured answer on one workload: whether `predicted` is in its tie group, its time ÷
/// the winner's, and the error of `promised` (std's heap's time ÷ `predicted`'s) against
/// the same ratio measured there; `None` when the workload did not time both.
fn against(
    workload: &Workload<'_>,
    query: &Query,
    predicted: &str,
    promised: f64,
) -> Option<(bool, f64, f64)> {
    let standings = rank_weighted(&[(workload, 1.0)], |r| query.admits(r));
    let winner = standings.first().filter(|s| s.contends)?;
    let mine = standings.iter().find(|s| s.queue == predicted && s.contends)?;
    let time = |q: &str| workload.ok(q).map(|r| r.median_ns);
    let gain = time(BASELINE)? / time(predicted)?;
    Some((mine.tied, time(predicted)? / time(winner.queue)?, (gain / promised).ln()))
}

/// Tallies the checks per kind.
fn tally(run: String, checks: Vec<Check>) -> Transfer {
    let mut kinds: Vec<(String, usize, usize, f64, f64)> = Vec::new();
    let errors = checks.iter().map(|c| c.3).collect();
    for (kind, hit, r, _) in checks {
        let at = match kinds.iter().position(|k| k.0 == kind) {
            Some(at) => at,
            None => {
                kinds.push((kind, 0, 0, 0.0, 1.0));
                kinds.len() - 1
            }
        };
        let k = &mut kinds[at];
        k.1 += 1;
        k.2 += usize::from(hit);
        k.3 += r.ln();
        k.4 = k.4.max(r);
    }
    for k in &mut kinds {
        k.3 = (k.3 / k.1 as f64).exp();
    }
    Transfer { run, kinds, errors }
}

/// The real-map workloads of `run` in the query's series.
fn real<'w, 'a>(run: &'w Run<'a>, query: &Query) -> Vec<&'w Workload<'a>> {
    let selection = query.series();
    run.workloads.iter().filter(|w| w.real() && selection.admits(w)).collect()
}

/// How the generated maps' bands transfer to the real maps of `rows`: each real
/// workload's band, ranked from the generated workloads alone, against its own
/// measurement. `None` when the run has no real map in the query's series.
pub fn band_transfer(rows: &[Row], query: &Query) -> Option<Transfer> {
    let run = Run::new(rows);
    let real = real(&run, query);
    if real.is_empty() {
        return None;
    }
    let generated: Vec<Row> = rows.iter().filter(|r| !r.real).cloned().collect();
    let checks = real
        .iter()
        .filter_map(|w| {
            let answer =
                answer(&generated, query, &[(Band::of(w.size), 1.0)], String::new(), Vec::new())
                    .ok()?;
            let best = answer.ranking.first()?;
            let (hit, r, error) = against(w, query, &best.queue, 1.0 / best.vs_std?)?;
            Some((w.map_kind().to_owned(), hit, r, error))
        })
        .collect();
    Some(tally(run.run_id(), checks))
}

/// How the other real maps of `kind` predict each one of them (each left out in turn).
fn kind_transfer(run: &Run<'_>, query: &Query, kind: &str) -> Transfer {
    let same: Vec<&Workload<'_>> =
        real(run, query).into_iter().filter(|w| w.map_kind() == kind).collect();
    let checks = (0..same.len())
        .filter(|_| same.len() > 1)
        .filter_map(|out| {
            let others: Vec<(&Workload<'_>, f64)> = same
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != out)
                .map(|(_, w)| (*w, 1.0))
                .collect();
            let standings = rank_weighted(&others, |r| query.admits(r));
            let predicted = standings.first().filter(|s| s.contends)?.queue;
            let promised = versus_weighted(&others, BASELINE, predicted)?.ratio.mid;
            let (hit, r, error) = against(same[out], query, predicted, promised)?;
            Some((kind.to_owned(), hit, r, error))
        })
        .collect();
    tally(run.run_id(), checks)
}

/// The promised gain's errors of every map kind's maps predicting each other (each left
/// out in turn), pooled: one kind holds too few maps to calibrate an interval on.
fn kind_errors(run: &Run<'_>, query: &Query) -> Vec<f64> {
    let kinds: std::collections::BTreeSet<&str> =
        real(run, query).into_iter().map(|w| w.map_kind()).collect();
    kinds.into_iter().flat_map(|kind| kind_transfer(run, query, kind).errors).collect()
}

/// How far another CPU moves the ratios, when this machine's CPU is not (or cannot be told
/// to be) the evidence run's: the 90th percentile of the workload-wide shift
/// ([`crate::analysis::diff::Shift`]) between the newest run among `runs` that recorded its
/// CPU and the newest that recorded another; `None` on the evidence's CPU, or where no two
/// such runs exist.
fn cpu_widening(runs: &[Vec<Row>], evidence: &[Row]) -> Option<f64> {
    let cpu = |rows: &Vec<Row>| rows.first().map(Row::platform).filter(Platform::identified);
    let evidence = evidence.first().map(Row::platform).unwrap_or_default();
    if Platform::detect().same_cpu(&evidence) == Some(true) {
        return None;
    }
    let mut identified = runs.iter().rev().filter_map(|rows| Some((rows, cpu(rows)?)));
    let (newest, its) = identified.next()?;
    let (other, _) = identified.find(|(_, p)| p.same_cpu(&its) == Some(false))?;
    let moved = crate::analysis::diff::workload_leaders(&Run::new(newest), &Run::new(other));
    crate::analysis::diff::shift(&moved).map(|s| s.p90)
}

/// Where a map's answer comes from, in the order [`from_runs`] tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EvidenceSource {
    /// This very map, measured in a run.
    ThisMap,
    /// The real maps of its kind, measured in a run.
    Kind,
    /// The bands of the latest run with real maps (else the latest run's), weighted by the
    /// map's searches.
    Bands,
}

impl EvidenceSource {
    /// `this map`, `maps of its kind`, `the generated bands`.
    pub fn describe(self) -> &'static str {
        match self {
            EvidenceSource::ThisMap => "this map",
            EvidenceSource::Kind => "maps of its kind",
            EvidenceSource::Bands => "the generated bands",
        }
    }
}

/// How [`from_runs`] answers: as `pick --map` does (the default), or as the transfer
/// check asks, for a map no run has seen and from one source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asking {
    /// Leave the map's own rows out of every run (leave-one-map-out): the answer a map no
    /// run measured gets.
    pub leave_out: bool,
    /// Answer from this source alone, an error where it has no evidence; `None`: the first
    /// of [`EvidenceSource`]'s order that has some.
    pub source: Option<EvidenceSource>,
}

/// Answers for the map from every run in `runs` (oldest first): this very map when a run
/// measured it, else real maps of the map's kind when a run measured some, else the
/// bands on the map's own terrain of the latest run with real maps (their transfer checked
/// on it) weighted by the map's searches; either way with how well that evidence
/// transferred to measured real maps. `asking` may leave the map's own rows out and name
/// the source; the answer comes with the source it used.
#[allow(clippy::too_many_arguments)]
pub fn from_runs(
    runs: &[Vec<Row>],
    query: &Query,
    map: &std::path::Path,
    instance: &Instance,
    profiled: &Profiled,
    notes: Vec<String>,
    asking: Asking,
) -> Result<(Answer, EvidenceSource)> {
    if !asking.leave_out {
        return answer_from(runs, query, map, instance, profiled, notes, asking.source);
    }
    anyhow::ensure!(
        asking.source != Some(EvidenceSource::ThisMap),
        "a map left out of the runs cannot be answered from its own rows"
    );
    let others: Vec<Vec<Row>> = runs
        .iter()
        .map(|rows| rows.iter().filter(|r| r.map != instance.name).cloned().collect())
        .collect();
    answer_from(&others, query, map, instance, profiled, notes, asking.source)
}

/// `query` on the map's own terrain ([`Instance::terrain`]): the generated bands answer from
/// the workloads on that terrain alone, as `pick --frontier N --terrain` does, since obstacle
/// grids and weighted terrain crown different queues in one band (measured on the maps
/// run, see METHODOLOGY.md: the bands of every terrain named `stacked-packed-radix-heap-dup`
/// on two random maps, 1.17× and 1.25× the measured winner).
fn on_its_terrain(query: &Query, instance: &Instance) -> Query {
    Query { terrain: Some(instance.terrain()), ..*query }
}

/// [`from_runs`] on the runs given, from `source` alone when it is named.
fn answer_from(
    runs: &[Vec<Row>],
    query: &Query,
    map: &std::path::Path,
    instance: &Instance,
    profiled: &Profiled,
    mut notes: Vec<String>,
    source: Option<EvidenceSource>,
) -> Result<(Answer, EvidenceSource)> {
    let query = &on_its_terrain(query, instance);
    let latest = runs.last().context("no run to answer from")?;
    let asked = format!("{} ({})", profiled.profile.map, query.series().describe());
    let this_map = |w: &Workload<'_>| w.facts.map == instance.name;
    let this_kind = |w: &Workload<'_>| w.map_kind() == instance.kind;
    // The latest run that measured this very map, else one with maps of its kind.
    let found = [
        (EvidenceSource::ThisMap, &this_map as &dyn Fn(&Workload<'_>) -> bool),
        (EvidenceSource::Kind, &this_kind),
    ]
    .into_iter()
    .filter(|(from, _)| source.is_none_or(|s| s == *from))
    .find_map(|(from, admits)| {
        let rows =
            runs.iter().rev().find(|rows| real(&Run::new(rows), query).into_iter().any(admits))?;
        Some((from == EvidenceSource::ThisMap, admits, rows))
    });
    // Each transfer check is computed once, when first needed, with the run it was made on:
    // the bands answer from that run, so that the error the answer states is its own.
    let by_bands = std::cell::OnceCell::new();
    let by_bands = || {
        by_bands.get_or_init(|| {
            runs.iter().rev().find_map(|r| Some((band_transfer(r, query)?, r.as_slice())))
        })
    };
    let by_kind = std::cell::OnceCell::new();
    let by_kind = |rows: &[Row]| {
        by_kind.get_or_init(|| kind_transfer(&Run::new(rows), query, &instance.kind)).clone()
    };
    // Maps of its kind answer unless, asked for no source, the generated bands predicted the
    // real maps of this kind better than the kind's other maps did, each left out in turn:
    // in the measured tie group more often, or as often with their named queues closer to
    // the measured winners (the geometric mean of the named queue's time ÷ the winner's).
    let found = found.filter(|(own, _, rows)| {
        if *own || source.is_some() {
            return true;
        }
        let kind = Some(instance.kind.as_str());
        let how_well = |t: &Transfer| Some((t.hit_rate(kind)?, t.mean_ratio(kind)?));
        match (how_well(&by_kind(rows)), by_bands().as_ref().and_then(|(t, _)| how_well(t))) {
            (Some((k, k_ratio)), Some((b, b_ratio))) if b > k || (b == k && b_ratio < k_ratio) => {
                notes.push(format!(
                    "Answered from the generated bands, not from the maps of its kind ({}): on those maps, each left out in turn, the bands named a queue in the measured tie group {:.0}% of the time and the kind's other maps {:.0}%, the named queue taking {} and {} the measured winner's time (geometric mean).",
                    instance.kind,
                    b * 100.0,
                    k * 100.0,
                    ratio(b_ratio),
                    ratio(k_ratio)
                ));
                false
            }
            _ => true,
        }
    });
    if found.is_none() && source.is_some_and(|s| s != EvidenceSource::Bands) {
        anyhow::bail!(
            "no run measured {} ({})",
            source.map_or("", EvidenceSource::describe),
            if source == Some(EvidenceSource::ThisMap) { &instance.name } else { &instance.kind }
        );
    }
    let (mut answer, transfer, used, evidence) = if let Some((own, admits, rows)) = found {
        let run = Run::new(rows);
        let workloads: Vec<(&Workload<'_>, f64)> =
            real(&run, query).into_iter().filter(|w| admits(w)).map(|w| (w, 1.0)).collect();
        let standings = rank_weighted(&workloads, |r| query.admits(r));
        let source = if own {
            "whole searches on this very map, measured in a run".to_owned()
        } else {
            format!("whole searches on real Moving AI maps of this map's kind ({})", instance.kind)
        };
        let backing = vec![Backing {
            series: query.series().describe(),
            band: None,
            source: source.clone(),
            workloads: workloads
                .iter()
                .map(|(w, _)| (w.name.to_owned(), w.size, w.map_kind().to_owned()))
                .collect(),
            real_maps: true,
            trace: None,
            weak: !own && workloads.len() < crate::analysis::bands::STRONG,
        }];
        notes.push(format!("Answered from {source}, not from the generated maps' bands."));
        let mut answer =
            build_answer(&Findings::of(&run), &workloads, &standings, backing, asked, notes);
        with_latency(&mut answer, &workloads, query)?;
        let transfer = by_kind(rows);
        // A map measured itself needs no transfer: the kind's figure is for maps unseen.
        let used = if own { EvidenceSource::ThisMap } else { EvidenceSource::Kind };
        (answer, Some(transfer), used, rows.as_slice())
    } else {
        let (transfer, rows) = match by_bands() {
            Some((transfer, rows)) => (Some(transfer.clone()), *rows),
            None => (None, latest.as_slice()),
        };
        let answer = answer(rows, query, &profiled.weights, asked, notes)?;
        (answer, transfer, EvidenceSource::Bands, rows)
    };
    // A map measured itself needs no promise for a new map: its own interval is the right one.
    let errors = match used {
        EvidenceSource::ThisMap => Vec::new(),
        EvidenceSource::Kind => kind_errors(&Run::new(evidence), query),
        EvidenceSource::Bands => transfer.as_ref().map_or_else(Vec::new, |t| t.errors.clone()),
    };
    let gain = answer.ranking.first().and_then(|r| r.vs_std).map(|v| 1.0 / v);
    answer.promise = gain.and_then(|g| Promise::of(g, &errors, cpu_widening(runs, evidence)));
    if used != EvidenceSource::ThisMap && answer.promise.is_none() {
        answer.caveats.push(format!(
            "No interval for a new map: fewer than {PROMISE_MAPS} real maps were left out in turn to calibrate one, so measure yours with `--measure`."
        ));
    }
    let kind = Some(instance.kind.as_str()).filter(|_| used != EvidenceSource::Bands);
    let what = match used {
        EvidenceSource::Bands => "the generated maps' bands",
        _ => "the other maps of its kind",
    };
    match transfer.as_ref().and_then(|t| Some((t, t.hit_rate(kind)?))) {
        Some((t, _)) if used == EvidenceSource::ThisMap => answer.caveats.push(format!(
            "This map was measured itself. For a map of its kind never measured: {}",
            t.sentence(what)
        )),
        Some((t, rate)) => {
            answer.caveats.push(t.sentence(what));
            if rate < TRUSTED {
                answer.caveats.push(format!(
                    "That prediction is weak (right on {:.0}% of maps, under {:.0}%): measure on your map with `pqlab pick --map {} --measure` (about a minute).",
                    rate * 100.0,
                    TRUSTED * 100.0,
                    map.display()
                ));
            }
        }
        None => answer.caveats.push(
            "No run here measured real maps, so how well generated maps transfer to yours is unknown: measure with `--measure`.".into(),
        ),
    }
    Ok((answer, used))
}

/// How far behind an evidence source's winner a queue may be and still be one of
/// `--measure`'s candidates: the low end of its interval against the winner at most 1.15,
/// the factor of the queues that decide an answer in the between-runs check
/// (`shared/tools/between-runs.py`'s leaders). Chosen, not tuned.
pub const CANDIDATE_FACTOR: f64 = 1.15;

/// `--measure`'s candidates for the map: every queue `answer` (the answer `pick --map`
/// gives) and each other evidence source with evidence for it (this map, maps of its kind,
/// the generated bands, each asked alone, and the latest run's bands) rank within
/// [`CANDIDATE_FACTOR`] of their winner, each once, `answer`'s first; so the winner of any
/// source is timed, whichever the answer chose. A source without evidence adds none.
pub fn candidates(
    runs: &[Vec<Row>],
    query: &Query,
    map: &std::path::Path,
    instance: &Instance,
    profiled: &Profiled,
    answer: &Answer,
) -> Vec<String> {
    let near = |a: &Answer| -> Vec<String> {
        let leading = a.ranking.iter().filter(|r| r.vs_best.low <= CANDIDATE_FACTOR);
        leading.map(|r| r.queue.clone()).collect()
    };
    let mut chosen = near(answer);
    let sources = [EvidenceSource::ThisMap, EvidenceSource::Kind, EvidenceSource::Bands]
        .into_iter()
        .filter_map(|source| {
            let asking = Asking { leave_out: false, source: Some(source) };
            from_runs(runs, query, map, instance, profiled, Vec::new(), asking).ok().map(|a| a.0)
        });
    // The latest run's bands too, when a run with real maps answered for the bands.
    let latest = runs.last().and_then(|rows| {
        let query = on_its_terrain(query, instance);
        super::answer(rows, &query, &profiled.weights, String::new(), Vec::new()).ok()
    });
    for other in sources.chain(latest) {
        for queue in near(&other) {
            if !chosen.contains(&queue) {
                chosen.push(queue);
            }
        }
    }
    chosen
}

/// How many of `pick --map`'s ranking `pqlab run` and `pqlab compare` time beside the
/// baseline when no queue is named: the winner and the two after it, so a newcomer sees
/// the answer and its nearest rivals against std's heap. Chosen, not tuned.
pub const LEADERS: usize = 3;

/// The queues `pqlab run` and `pqlab compare` time when no queue is named: the baseline,
/// then for each of `maps` (each with its scenario, `None` for the one beside it) the first
/// [`LEADERS`] of `pick --map`'s answer under `query` from the runs under `results`, each
/// once, in the order met; with a line per map saying where its leaders came from, or why
/// it has none (a map that cannot be read is said by its own command). Each map is
/// profiled as `pick --map` profiles it ([`MAP_PROBLEMS`] problems).
pub fn leaders(
    maps: &[(&std::path::Path, Option<&std::path::Path>)],
    query: &Query,
    results: &std::path::Path,
) -> Result<(Vec<&'static registry::Entry>, Vec<String>)> {
    let (runs, _) = super::load_all(results, None)?;
    let mut chosen = vec![registry::baseline()];
    let mut said = Vec::new();
    for &(map, scen) in maps {
        let answered = Instance::user_map(map, scen, Sample::Spread(MAP_PROBLEMS), query.rules())
            .and_then(|instance| {
                let profiled = profile(&instance, query)?;
                from_runs(&runs, query, map, &instance, &profiled, Vec::new(), Asking::default())
            });
        let (answer, source) = match answered {
            Ok(answered) => answered,
            Err(why) => {
                said.push(format!("{}: no leaders ({why:#})", map.display()));
                continue;
            }
        };
        let leading: Vec<&'static registry::Entry> = answer
            .ranking
            .iter()
            .filter_map(|r| registry::find(&r.queue))
            .filter(|e| e.id != BASELINE)
            .take(LEADERS)
            .collect();
        said.push(format!(
            "{}: `pick --map`'s leaders from {} ({}): {}",
            map.display(),
            source.describe(),
            answer.run,
            leading.iter().map(|e| e.id).collect::<Vec<_>>().join(", ")
        ));
        for entry in leading {
            if !chosen.iter().any(|c| c.id == entry.id) {
                chosen.push(entry);
            }
        }
    }
    Ok((chosen, said))
}

/// How long each of `--measure`'s (and `--trace`'s) samples lasts at least: the lab's 5 ms.
pub(super) const SAMPLE: Duration = Duration::from_millis(5);

/// Times the baseline and `candidates` on the map itself, interleaved, with a progress bar
/// on stderr: first as many rounds as what is left of `budget` after the check passes
/// holds (from their times, 3 to 5), then two at a time until the winner's tie group has
/// not changed for two batches, the next batch would overrun `budget`, or `rounds` are
/// done.
pub fn measure(
    instance: Instance,
    query: &Query,
    candidates: &[String],
    rounds: u32,
    budget: Duration,
) -> Result<Answer> {
    // The budget covers the check passes too: the command's time is what the user waits.
    let started = Instant::now();
    let suite = WorkloadSpec {
        source: Source::MovingAi { map: instance.name.clone().into(), sample: Sample::All },
        setup: crate::search::Setup::GRID_ASTAR,
        heuristic: query.heuristic,
        scale: query.scale,
        store: StoreKind::Flat,
        role: Role::Real,
        replay: false,
    };
    let prepared = Prepared::with_instance(suite, instance, query.rules())?;
    let workload = WorkloadFacts {
        kind: Kind::Astar,
        name: format!("{}/measured", prepared.instance.name),
        map: prepared.instance.name.clone(),
        map_kind: prepared.instance.kind.clone(),
        real: true,
        heuristic: Some(query.heuristic),
        scale: Some(query.scale),
        store: Some(StoreKind::Flat),
        setup: Some(prepared.suite.setup),
        unit: Unit::Search,
    };
    let mut contest = Contest::new(&workload.name, SAMPLE);
    let mut ids: Vec<&str> = vec![BASELINE];
    ids.extend(candidates.iter().map(String::as_str).filter(|c| *c != BASELINE));
    let mut untimed = enter(&prepared, &workload, &ids, &mut contest)?;
    let stopped = time_until_decided(&mut contest, Kind::Astar, query, rounds, budget, started);
    let rows: Vec<Row> = contest.finish().into_iter().map(|(row, _)| row).collect();
    let run = Run::new(&rows);
    let w = run.of(Kind::Astar).next().context("a measured workload")?;
    let weighted = [(w, 1.0)];
    let standings: Vec<Standing<'_>> = rank_weighted(&weighted, |r| query.admits(r));
    // A queue asked with `--queue` that the query's filters leave out is said, not dropped.
    untimed.extend(
        rows.iter().filter(|r| !query.admits(r)).map(|r| {
            (r.queue.clone(), format!("timed, but outside the query ({})", describe(query)))
        }),
    );
    let stopped = stopped.sentence(budget);
    let backing = vec![Backing {
        series: query.series().describe(),
        band: None,
        source: format!(
            "whole searches ({}) timed on this machine in interleaved rounds",
            plural(prepared.instance.problems.len(), "problem")
        ),
        workloads: vec![(w.name.to_owned(), w.size, w.map_kind().to_owned())],
        real_maps: true,
        trace: None,
        weak: false,
    }];
    let asked =
        format!("{} (measured here: {})", prepared.instance.name, query.series().describe());
    let mut answer =
        build_answer(&Findings::of(&run), &weighted, &standings, backing, asked, vec![stopped]);
    answer.not_ranked.extend(untimed);
    Ok(answer)
}

/// Checks each queue of `ids` on the map's problems, with a progress bar, and enters the
/// ones that pass, each with its row; a wrong answer is an error, a queue that cannot
/// search here is said and left out, and returned with the reason.
fn enter<'p>(
    prepared: &'p Prepared,
    workload: &WorkloadFacts,
    ids: &[&str],
    contest: &mut Contest<'p, Row>,
) -> Result<Vec<(String, String)>> {
    let mut untimed = Vec::new();
    let provenance = Provenance::detect("-measure", "plain");
    let bar = crate::format::progress(ids.len() as u64, "check passes");
    for &id in ids {
        let entry = registry::find(id).with_context(|| format!("unknown queue {id}"))?;
        let mut row = workload.row(&provenance, entry.id, Some(entry));
        row.units = prepared.instance.problems.len() as u64;
        match registry::visit(entry.id, CheckQueue { prepared, limit: Duration::MAX })
            .expect("registered")
        {
            Ok(check) => {
                row.set_counters(&check.counters);
                let units = row.units;
                contest.enter_row(row, units, check);
            }
            Err(Untimed::Failed(why)) => anyhow::bail!("{id} gave a wrong answer: {why}"),
            Err(Untimed::NotApplicable(why) | Untimed::CutOff { note: why, .. }) => {
                bar.suspend(|| eprintln!("pqlab: {id} is not timed on this map: {why}"));
                untimed.push((id.to_owned(), format!("not timed on this map: {why}")));
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(untimed)
}

/// Why `--measure`'s (or `--trace`'s) timing stopped, after how many rounds.
pub(super) enum Stop {
    /// Every round asked for was timed.
    AllRounds(u32),
    /// The winner's tie group held for two batches.
    Decided(u32),
    /// The next batch would overrun the budget.
    Budget(u32),
}

impl Stop {
    /// The sentence saying so, `budget` being the `--budget` given.
    pub(super) fn sentence(&self, budget: Duration) -> String {
        match self {
            Stop::AllRounds(done) => format!("Timed in all {done} rounds."),
            Stop::Decided(done) => format!(
                "Timed in {done} rounds: stopped once the winner's tie group held for four more."
            ),
            Stop::Budget(done) => format!(
                "Timed in {done} rounds: the next would overrun the {} s budget (--budget).",
                budget.as_secs()
            ),
        }
    }
}

/// Times `contest` (one workload of `kind`) in batches, with a progress bar (see
/// [`measure`]), racing its contenders after each batch as the lab does
/// ([`Contest::race`]), its rows given their samples after each batch.
pub(super) fn time_until_decided(
    contest: &mut Contest<'_, Row>,
    kind: Kind,
    query: &Query,
    rounds: u32,
    budget: Duration,
    started: Instant,
) -> Stop {
    let bar = crate::format::progress(u64::from(rounds), "rounds (stops once decided)");
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} {msg}, at most {eta} left",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let mut last: Option<Vec<String>> = None;
    let (mut steady, mut done) = (0, 0);
    let stop = loop {
        if done >= rounds {
            break Stop::AllRounds(done);
        }
        // A batch is the first 3 to MIN_ROUNDS (as the budget holds), then two at a time;
        // a later batch must fit what is left of the budget.
        let batch = if done == 0 {
            let left = budget.saturating_sub(started.elapsed());
            contest.rounds_within(left, 3.min(rounds), MIN_ROUNDS.min(rounds))
        } else {
            2.min(rounds - done)
        };
        if done > 0 && started.elapsed() + contest.round() * batch > budget {
            break Stop::Budget(done);
        }
        contest.time(batch);
        done += batch;
        bar.set_position(u64::from(done));
        // The lab's racing: a queue clearly behind its heat's leader stops being timed.
        contest.race(RACE_FACTOR, heat);
        let group = tie_group(contest, kind, query);
        steady = if last.as_ref() == Some(&group) { steady + 1 } else { 0 };
        last = Some(group);
        if done >= rounds {
            break Stop::AllRounds(done);
        }
        if steady >= 2 {
            break Stop::Decided(done);
        }
    };
    bar.finish_and_clear();
    stop
}

/// The rows given their samples so far, and the winner's tie group on their workload of
/// `kind` from them.
fn tie_group(contest: &mut Contest<'_, Row>, kind: Kind, query: &Query) -> Vec<String> {
    let mut rows = Vec::new();
    for (row, samples) in contest.results_mut() {
        samples.write(row);
        rows.push(row.clone());
    }
    let run = Run::new(&rows);
    let standings = run
        .of(kind)
        .next()
        .map(|w| rank_weighted(&[(w, 1.0)], |r| query.admits(r)))
        .unwrap_or_default();
    standings.iter().filter(|s| s.contends && s.tied).map(|s| s.queue.to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use pqlab_queues::registry::BASELINE;

    use super::*;
    use crate::analysis::fixture::{search, steadies};
    use crate::maps::grid::{Grid, Terrain};
    use crate::search::heuristic::HeuristicKind;

    /// The Moving AI dao map `name`'s octile workload.
    fn dao(name: &str) -> WorkloadFacts {
        let map = format!("movingai/dao/{name}");
        WorkloadFacts {
            map_kind: "movingai-dao".into(),
            real: true,
            ..search(
                &format!("{map}/octile/fine/flat"),
                &map,
                HeuristicKind::Octile,
                StoreKind::Flat,
            )
        }
    }

    /// Dao maps `a`, `b` and `c` and a generated rooms map, all at 1,500 open cells, with
    /// `fastest[i]`'s queues at half the others' time on each, in that order.
    fn rows_where(fastest: [&[&str]; 4]) -> Vec<Row> {
        let times = |fast: &[&str]| -> Vec<(&'static str, f64)> {
            [BASELINE, "bucket-queue-dup", "sorted-array-dk", "unsorted-array-dup"]
                .into_iter()
                .map(|q| (q, if fast.contains(&q) { 500.0 } else { 1000.0 }))
                .collect()
        };
        let rooms = search(
            "rooms-r8-128-s1/octile/fine/flat",
            "rooms-r8-128-s1",
            HeuristicKind::Octile,
            StoreKind::Flat,
        );
        let workloads = [dao("a"), dao("b"), dao("c"), rooms];
        workloads
            .iter()
            .zip(fastest)
            .flat_map(|(w, fast)| steadies(w, 1500.0, &times(fast)))
            .collect()
    }

    /// Three dao maps, `bucket-queue-dup` fastest on `a` and `sorted-array-dk` on `b` and
    /// `c`; a generated rooms map in the same band, where `unsorted-array-dup` is.
    fn rows() -> Vec<Row> {
        rows_where([
            &["bucket-queue-dup"],
            &["sorted-array-dk"],
            &["sorted-array-dk"],
            &["unsorted-array-dup"],
        ])
    }

    /// Dao map `a` as `pick --map` sees it: the map, and its searches' profile at 1,500
    /// open cells.
    fn map_a() -> (Instance, Profiled) {
        let instance = Instance {
            name: "movingai/dao/a".into(),
            kind: "movingai-dao".into(),
            real: true,
            grid: Grid::from_fn(1, 1, |_, _| Terrain::Ground),
            problems: Vec::new(),
            scenario: None,
        };
        let profiled = Profiled {
            profile: Profile {
                map: instance.name.clone(),
                searches: 1,
                open: Sizes::of(&[1500.0]),
                held: Sizes::of(&[1500.0]),
                bands: Vec::new(),
            },
            weights: vec![(Band::of(1500.0), 1.0)],
            wrong: Vec::new(),
            beyond: Vec::new(),
        };
        (instance, profiled)
    }

    /// `pick --map` on dao map `a` from the run of `rows`, asked as `asking` says: the
    /// source used, the winner, the workloads behind it and the caveats.
    fn ask(
        rows: Vec<Row>,
        asking: Asking,
    ) -> Result<(EvidenceSource, String, Vec<String>, String)> {
        ask_runs(&[rows], asking)
    }

    /// [`ask`] from several runs, oldest first.
    fn ask_runs(
        runs: &[Vec<Row>],
        asking: Asking,
    ) -> Result<(EvidenceSource, String, Vec<String>, String)> {
        let (instance, profiled) = map_a();
        let query = Query::unflagged();
        let map = std::path::Path::new("a.map");
        let (answer, source) =
            from_runs(runs, &query, map, &instance, &profiled, Vec::new(), asking)?;
        let behind =
            answer.backing.iter().flat_map(|b| b.workloads.iter().map(|w| w.0.clone())).collect();
        Ok((source, answer.ranking[0].queue.clone(), behind, answer.caveats.join(" ")))
    }

    /// In sample, the map answers from its own rows; left out, from the other maps of its
    /// kind, or from the generated bands when asked, never from a row of its own.
    #[test]
    fn a_map_left_out_is_answered_from_the_others_only() {
        let (source, winner, behind, _) = ask(rows(), Asking::default()).unwrap();
        assert_eq!((source, winner.as_str()), (EvidenceSource::ThisMap, "bucket-queue-dup"));
        assert_eq!(behind, ["movingai/dao/a/octile/fine/flat"]);
        let left_out = Asking { leave_out: true, source: None };
        let (source, winner, behind, _) = ask(rows(), left_out).unwrap();
        assert_eq!((source, winner.as_str()), (EvidenceSource::Kind, "sorted-array-dk"));
        assert_eq!(behind, ["movingai/dao/b/octile/fine/flat", "movingai/dao/c/octile/fine/flat"]);
        let bands = Asking { leave_out: true, source: Some(EvidenceSource::Bands) };
        // The latest run's band: the rooms map and the two other dao maps, not `a`.
        let (source, winner, behind, caveats) = ask(rows(), bands).unwrap();
        assert_eq!((source, winner.as_str()), (EvidenceSource::Bands, "sorted-array-dk"));
        assert!(behind.iter().any(|w| w.starts_with("rooms-")), "{behind:?}");
        assert!(!behind.iter().any(|w| w.starts_with("movingai/dao/a/")), "{behind:?}");
        // The bands' transfer is checked on the two other maps alone.
        assert!(caveats.contains("on the 2 real maps of run"), "{caveats}");
        let own = Asking { leave_out: true, source: Some(EvidenceSource::ThisMap) };
        let error = ask(rows(), own).unwrap_err().to_string();
        assert!(error.contains("cannot be answered from its own rows"), "{error}");
    }

    /// The bands answer from the run their transfer was checked on, the latest with real
    /// maps, not from a later run without any whose bands name another queue: the error the
    /// answer states is its own; `--measure` times both runs' band winners.
    #[test]
    fn the_bands_answer_from_the_run_their_transfer_was_checked_on() {
        let later: Vec<Row> = rows_where([&[], &[], &[], &["bucket-queue-dup"]])
            .into_iter()
            .filter(|r| !r.real)
            .collect();
        let bands = Asking { leave_out: true, source: Some(EvidenceSource::Bands) };
        let (_, winner, behind, caveats) = ask_runs(&[rows(), later.clone()], bands).unwrap();
        assert_eq!(winner, "sorted-array-dk");
        assert!(behind.iter().any(|w| w.starts_with("movingai/dao/b/")), "{behind:?}");
        assert!(caveats.contains("on the 2 real maps of run"), "{caveats}");
        // `--measure` still times the later run's band winner.
        let (instance, profiled) = map_a();
        let (query, map) = (Query::unflagged(), std::path::Path::new("a.map"));
        let others: Vec<Row> = rows().into_iter().filter(|r| r.map != instance.name).collect();
        let runs = [others, later.clone()];
        let (answer, _) =
            from_runs(&runs, &query, map, &instance, &profiled, Vec::new(), Asking::default())
                .unwrap();
        let chosen = candidates(&runs, &query, map, &instance, &profiled, &answer);
        assert!(chosen.contains(&"bucket-queue-dup".to_owned()), "{chosen:?}");
        // Alone, the later run answers from its own bands, and says their transfer is unknown.
        let (_, winner, _, caveats) = ask_runs(&[later], bands).unwrap();
        assert_eq!(winner, "bucket-queue-dup");
        assert!(caveats.contains("No run here measured real maps"), "{caveats}");
    }

    /// The bands answer from the map's own terrain: weighted terrain in the band, where
    /// `bucket-queue-dup` is fastest on three rugged maps and would lead the band of every
    /// terrain, does not answer for an obstacle grid; a weighted map answers from it alone.
    #[test]
    fn the_bands_answer_from_the_maps_own_terrain() {
        let mut run = rows();
        for seed in 1..=3 {
            let name = format!("rugged-h30-512-s{seed}");
            let rugged = search(
                &format!("{name}/octile/fine/flat"),
                &name,
                HeuristicKind::Octile,
                StoreKind::Flat,
            );
            let times = [
                (BASELINE, 1000.0),
                ("bucket-queue-dup", 500.0),
                ("sorted-array-dk", 1000.0),
                ("unsorted-array-dup", 1000.0),
            ];
            run.extend(steadies(&rugged, 1500.0, &times));
        }
        let bands = Asking { leave_out: true, source: Some(EvidenceSource::Bands) };
        let (_, winner, behind, _) = ask(run.clone(), bands).unwrap();
        assert_eq!(winner, "sorted-array-dk");
        assert!(!behind.iter().any(|w| w.starts_with("rugged-")), "{behind:?}");
        let (mut instance, profiled) = map_a();
        instance.grid = instance.grid.with_weights(|_, _| 3);
        let (query, map) = (Query::unflagged(), std::path::Path::new("a.map"));
        let runs = [run];
        let (answer, _) =
            from_runs(&runs, &query, map, &instance, &profiled, Vec::new(), bands).unwrap();
        assert_eq!(answer.ranking[0].queue, "bucket-queue-dup");
    }

    /// A source named without evidence is an error that says which, never another answer.
    #[test]
    fn a_source_without_evidence_is_refused() {
        let generated: Vec<Row> = rows().into_iter().filter(|r| !r.real).collect();
        let kind = Asking { leave_out: false, source: Some(EvidenceSource::Kind) };
        let error = ask(generated.clone(), kind).unwrap_err().to_string();
        assert!(error.contains("no run measured maps of its kind (movingai-dao)"), "{error}");
        let (source, winner, ..) = ask(generated, Asking::default()).unwrap();
        assert_eq!((source, winner.as_str()), (EvidenceSource::Bands, "unsorted-array-dup"));
    }

    /// `--measure` times the winner of every source with evidence for the map (this map's
    /// `bucket-queue-dup`, its kind's and the bands' `sorted-array-dk`), the answer's first,
    /// any queue whose interval reaches within 1.15× of a winner (`unsorted-array-dup`, 1.19×
    /// the band's winner over its four workloads, an interval down to about 1.14×), and no
    /// queue twice as slow as a winner everywhere (the baseline).
    #[test]
    fn measure_candidates_hold_every_sources_winner() {
        let (instance, profiled) = map_a();
        let (query, map) = (Query::unflagged(), std::path::Path::new("a.map"));
        let runs = [rows()];
        let answer =
            |asking| from_runs(&runs, &query, map, &instance, &profiled, Vec::new(), asking);
        let (own, _) = answer(Asking::default()).unwrap();
        let chosen = candidates(&runs, &query, map, &instance, &profiled, &own);
        assert_eq!(chosen, ["bucket-queue-dup", "sorted-array-dk", "unsorted-array-dup"]);
        // Left out, the answer is the kind's, and the map's own winner is not evidence.
        let (kind, _) = answer(Asking { leave_out: true, source: None }).unwrap();
        let others: Vec<Row> = rows().into_iter().filter(|r| r.map != instance.name).collect();
        let chosen = candidates(&[others], &query, map, &instance, &profiled, &kind);
        assert_eq!(chosen, ["sorted-array-dk"]);
    }

    /// Left out, a map answers from the generated bands when they predicted the maps of its
    /// kind better than the kind's other maps did: here the two other dao maps disagree (each
    /// predicts the other wrongly), while the bands, where both queues tie, name one right.
    #[test]
    fn the_bands_answer_where_they_transfer_better_than_the_kind() {
        let rows = rows_where([
            &["unsorted-array-dup"],
            &["sorted-array-dk"],
            &["bucket-queue-dup"],
            &["bucket-queue-dup", "sorted-array-dk"],
        ]);
        let left_out = Asking { leave_out: true, source: None };
        let (source, _, behind, caveats) = ask(rows.clone(), left_out).unwrap();
        assert_eq!(source, EvidenceSource::Bands, "{caveats}");
        assert!(behind.iter().any(|w| w.starts_with("rooms-")), "{behind:?}");
        assert!(caveats.contains("not from the maps of its kind (movingai-dao)"), "{caveats}");
        assert!(caveats.contains("50% of the time and the kind's other maps 0%"), "{caveats}");
        // Named, the kind still answers.
        let kind = Asking { leave_out: true, source: Some(EvidenceSource::Kind) };
        assert_eq!(ask(rows, kind).unwrap().0, EvidenceSource::Kind);
    }

    /// Left out, as often in the tie group (here never), the source whose named queues were
    /// closer to the measured winners answers: each other dao map names a queue 1.4 and 1.6
    /// times the other's winner, the generated rooms map one 1.25 times both.
    #[test]
    fn as_often_right_the_source_closer_to_the_winners_answers() {
        let queues = [BASELINE, "bucket-queue-dup", "sorted-array-dk", "unsorted-array-dup"];
        let on = |w: &WorkloadFacts, times: [f64; 4]| {
            let times: Vec<(&str, f64)> = queues.into_iter().zip(times).collect();
            steadies(w, 1500.0, &times)
        };
        let rooms = search(
            "rooms-r8-128-s1/octile/fine/flat",
            "rooms-r8-128-s1",
            HeuristicKind::Octile,
            StoreKind::Flat,
        );
        let mut rows = on(&dao("a"), [1000.0, 500.0, 1000.0, 1000.0]);
        rows.extend(on(&dao("b"), [1000.0, 500.0, 700.0, 625.0]));
        rows.extend(on(&dao("c"), [1000.0, 800.0, 500.0, 625.0]));
        rows.extend(on(&rooms, [1000.0, 1000.0, 1000.0, 500.0]));
        let left_out = Asking { leave_out: true, source: None };
        let (source, winner, _, caveats) = ask(rows.clone(), left_out).unwrap();
        assert_eq!((source, winner.as_str()), (EvidenceSource::Bands, "unsorted-array-dup"));
        assert!(caveats.contains("0% of the time and the kind's other maps 0%"), "{caveats}");
        assert!(caveats.contains("taking 1.25× and 1.50×"), "{caveats}");
        // The kind alone would have named `sorted-array-dk`.
        let kind = Asking { leave_out: true, source: Some(EvidenceSource::Kind) };
        assert_eq!(ask(rows, kind).unwrap().1, "sorted-array-dk");
    }

    /// Queues with no row on the evidence are said to be untimed there, never silently
    /// missing from the ranking; evidence that tried every queue says nothing.
    #[test]
    fn queues_never_timed_on_the_evidence_are_said() {
        let (.., caveats) = ask(rows(), Asking::default()).unwrap();
        let said = format!(
            "{} of the {} registered queues were not timed on these workloads",
            registry::ENTRIES.len() - 4,
            registry::ENTRIES.len()
        );
        assert!(caveats.contains(&said), "{caveats}");
        let every: Vec<(&str, f64)> = registry::ENTRIES.iter().map(|e| (e.id, 1000.0)).collect();
        let (.., caveats) = ask(steadies(&dao("a"), 1500.0, &every), Asking::default()).unwrap();
        assert!(!caveats.contains("were not timed on these workloads"), "{caveats}");
    }
}
