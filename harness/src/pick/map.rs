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
//! are timed on the map itself ([`super::measure`]), and answer.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use pqlab_queues::registry::{self, Entry, BASELINE};
use serde::Serialize;

use super::frontier::{survey, MapSurvey};
use super::PROMISE_MAPS;
use super::{answer, build_answer, measure, with_latency, Answer, Backing, Promise, Query};
use crate::analysis::bands::Band;
use crate::analysis::rank::rank_weighted;
use crate::analysis::transfer::{
    against, cpu_widening, kind_errors, kind_transfer, real, tally, Question, Transfer,
};
use crate::analysis::{Findings, Run, Workload};
use crate::format::ratio;
use crate::lab::ondemand::Plan;
use crate::maps::instance::{scen_beside, Instance, Sample, BARE_SEED};
use crate::results::Row;
use crate::search::Series;

/// The problems `pick --map` uses unless `--limit` says otherwise, spread over the
/// scenario's length buckets. At 300, the survey of a 512² maze (the slowest shared map
/// kind: 9,730 problems took 67.5 s) takes about 2 s, and `--measure` fits its budget.
pub const MAP_PROBLEMS: usize = 300;

/// The share of real maps a prediction must place in the measured tie group to be trusted
/// without `--measure`: 90%, the rate `pick --map` must reach on the 30 shared maps (27
/// of 30).
pub const TRUSTED: f64 = 0.9;

/// The time `--measure` may spend on its check passes and timed rounds: with a few seconds
/// of survey before it, a 512² map's answer comes within a minute on 2 cores. A maze, the
/// slowest kind, took 78 s of wall time (28 s of CPU) with the budget counting the rounds only, on a loaded machine; hence the checks are inside it.
pub const MEASURE_BUDGET: Duration = Duration::from_secs(45);

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
    map: &Path,
    instance: &Instance,
    survey: &MapSurvey,
    notes: Vec<String>,
    asking: Asking,
) -> Result<(Answer, EvidenceSource)> {
    if !asking.leave_out {
        return answer_from(runs, query, map, instance, survey, notes, asking.source);
    }
    anyhow::ensure!(
        asking.source != Some(EvidenceSource::ThisMap),
        "a map left out of the runs cannot be answered from its own rows"
    );
    let others: Vec<Vec<Row>> = runs
        .iter()
        .map(|rows| rows.iter().filter(|r| r.map != instance.name).cloned().collect())
        .collect();
    answer_from(&others, query, map, instance, survey, notes, asking.source)
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
    map: &Path,
    instance: &Instance,
    survey: &MapSurvey,
    mut notes: Vec<String>,
    source: Option<EvidenceSource>,
) -> Result<(Answer, EvidenceSource)> {
    let query = &on_its_terrain(query, instance);
    let latest = runs.last().context("no run to answer from")?;
    let asked = format!("{} ({})", survey.sizes.map, query.series.describe());
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
    // real maps of this kind better than the kind's other maps did.
    let found = measured_maps(runs, query, instance, source).filter(|(own, rows)| {
        if *own || source.is_some() {
            return true;
        }
        let bands = by_bands().as_ref().map(|(t, _)| t);
        match bands_beat_kind(&by_kind(rows), bands, &instance.kind) {
            Some(note) => {
                notes.push(note);
                false
            }
            None => true,
        }
    });
    if found.is_none() && source.is_some_and(|s| s != EvidenceSource::Bands) {
        anyhow::bail!(
            "no run measured {} ({})",
            source.map_or("", EvidenceSource::describe),
            if source == Some(EvidenceSource::ThisMap) { &instance.name } else { &instance.kind }
        );
    }
    let (mut answer, transfer, used, evidence) = if let Some((own, rows)) = found {
        let answer = from_maps(rows, own, query, instance, asked, notes)?;
        // A map measured itself needs no transfer: the kind's figure is for maps unseen.
        let used = if own { EvidenceSource::ThisMap } else { EvidenceSource::Kind };
        (answer, Some(by_kind(rows)), used, rows)
    } else {
        let (transfer, rows) = match by_bands() {
            Some((transfer, rows)) => (Some(transfer.clone()), *rows),
            None => (None, latest.as_slice()),
        };
        let answer = answer(rows, query, &survey.weights, asked, notes)?;
        (answer, transfer, EvidenceSource::Bands, rows)
    };
    promise(&mut answer, used, transfer.as_ref(), runs, evidence, query);
    say_transfer(&mut answer, used, transfer.as_ref(), instance, map);
    Ok((answer, used))
}

/// The latest of `runs` that measured this very map, else one with real maps of its kind
/// (only `source`'s, when named): whether it is the map's own, and the run's rows.
fn measured_maps<'r>(
    runs: &'r [Vec<Row>],
    query: &Query,
    instance: &Instance,
    source: Option<EvidenceSource>,
) -> Option<(bool, &'r [Row])> {
    [EvidenceSource::ThisMap, EvidenceSource::Kind]
        .into_iter()
        .filter(|from| source.is_none_or(|s| s == *from))
        .find_map(|from| {
            let own = from == EvidenceSource::ThisMap;
            let rows = runs.iter().rev().find(|rows| {
                real(&Run::new(rows), query).into_iter().any(|w| measures(w, own, instance))
            })?;
            Some((own, rows.as_slice()))
        })
}

/// Whether workload `w` is this very map (`own`), or a real map of its kind.
fn measures(w: &Workload<'_>, own: bool, instance: &Instance) -> bool {
    if own {
        w.facts.map == instance.name
    } else {
        w.map_kind() == instance.kind
    }
}

/// Why the generated bands answer instead of the other maps of `kind`, when they
/// predicted those maps better, each left out in turn (`by_kind`'s check against
/// `by_bands`'): in the measured tie group more often, or as often with their named queues
/// closer to the measured winners (the geometric mean of the named queue's time ÷ the
/// winner's); `None` when the kind predicted as well.
fn bands_beat_kind(by_kind: &Transfer, by_bands: Option<&Transfer>, kind: &str) -> Option<String> {
    let how_well = |t: &Transfer| Some((t.hit_rate(Some(kind))?, t.mean_ratio(Some(kind))?));
    let (k, k_ratio) = how_well(by_kind)?;
    let (b, b_ratio) = how_well(by_bands?)?;
    (b > k || (b == k && b_ratio < k_ratio)).then(|| {
        format!(
            "Answered from the generated bands, not from the maps of its kind ({kind}): on those maps, each left out in turn, the bands named a queue in the measured tie group {:.0}% of the time and the kind's other maps {:.0}%, the named queue taking {} and {} the measured winner's time (geometric mean).",
            b * 100.0,
            k * 100.0,
            ratio(b_ratio),
            ratio(k_ratio)
        )
    })
}

/// The answer from the real maps of `rows` that are this very map (`own`) or of its kind.
fn from_maps(
    rows: &[Row],
    own: bool,
    query: &Query,
    instance: &Instance,
    asked: String,
    mut notes: Vec<String>,
) -> Result<Answer> {
    let run = Run::new(rows);
    let workloads: Vec<(&Workload<'_>, f64)> = real(&run, query)
        .into_iter()
        .filter(|w| measures(w, own, instance))
        .map(|w| (w, 1.0))
        .collect();
    let standings = rank_weighted(&workloads, |r| query.admits(r));
    let source = if own {
        "whole searches on this very map, measured in a run".to_owned()
    } else {
        format!("whole searches on real Moving AI maps of this map's kind ({})", instance.kind)
    };
    let backing = vec![Backing {
        series: query.series.describe(),
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
    Ok(answer)
}

/// Sets the answer's promised gain for a new map, from the errors of the evidence `used`
/// (its `transfer`, or its kind's maps each left out in the `evidence` run), widened when
/// this CPU is not the evidence's; says so when too few maps calibrate one.
fn promise(
    answer: &mut Answer,
    used: EvidenceSource,
    transfer: Option<&Transfer>,
    runs: &[Vec<Row>],
    evidence: &[Row],
    query: &Query,
) {
    // A map measured itself needs no promise for a new map: its own interval is the right one.
    let errors = match used {
        EvidenceSource::ThisMap => Vec::new(),
        EvidenceSource::Kind => kind_errors(&Run::new(evidence), query),
        EvidenceSource::Bands => transfer.map_or_else(Vec::new, |t| t.errors.clone()),
    };
    let gain = answer.ranking.first().and_then(|r| r.vs_std).map(|v| 1.0 / v);
    answer.promise = gain.and_then(|g| Promise::of(g, &errors, cpu_widening(runs, evidence)));
    if used != EvidenceSource::ThisMap && answer.promise.is_none() {
        answer.caveats.push(format!(
            "No interval for a new map: fewer than {PROMISE_MAPS} real maps were left out in turn to calibrate one, so measure yours with `--measure`."
        ));
    }
}

/// Says how well the evidence `used` transferred to measured real maps, and recommends
/// `--measure` on `map` when it was right on fewer than [`TRUSTED`] of them.
fn say_transfer(
    answer: &mut Answer,
    used: EvidenceSource,
    transfer: Option<&Transfer>,
    instance: &Instance,
    map: &Path,
) {
    let kind = Some(instance.kind.as_str()).filter(|_| used != EvidenceSource::Bands);
    let what = match used {
        EvidenceSource::Bands => "the generated maps' bands",
        _ => "the other maps of its kind",
    };
    match transfer.and_then(|t| Some((t, t.hit_rate(kind)?))) {
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
    map: &Path,
    instance: &Instance,
    survey: &MapSurvey,
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
            from_runs(runs, query, map, instance, survey, Vec::new(), asking).ok().map(|a| a.0)
        });
    // The latest run's bands too, when a run with real maps answered for the bands.
    let latest = runs.last().and_then(|rows| {
        let query = on_its_terrain(query, instance);
        super::answer(rows, &query, &survey.weights, String::new(), Vec::new()).ok()
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
/// surveyed as `pick --map` surveys it ([`MAP_PROBLEMS`] problems).
pub fn leaders(
    maps: &[(&Path, Option<&Path>)],
    query: &Query,
    results: &Path,
) -> Result<(Vec<&'static Entry>, Vec<String>)> {
    let (runs, _) = super::load_all(results, None)?;
    let mut chosen = vec![registry::baseline()];
    let mut said = Vec::new();
    for &(map, scen) in maps {
        let answered =
            Instance::user_map(map, scen, Sample::Spread(MAP_PROBLEMS), query.series.rules())
                .and_then(|instance| {
                    let survey = survey(&instance, query)?;
                    from_runs(&runs, query, map, &instance, &survey, Vec::new(), Asking::default())
                });
        let (answer, source) = match answered {
            Ok(answered) => answered,
            Err(why) => {
                said.push(format!("{}: no leaders ({why:#})", map.display()));
                continue;
            }
        };
        let leading: Vec<&'static Entry> = answer
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

impl Question for Query {
    fn series(&self) -> Series {
        self.series
    }

    fn admits(&self, row: &Row) -> bool {
        Query::admits(self, row)
    }
}

/// What `pick --map` is asked, beyond the query.
pub struct MapRequest<'a> {
    /// The map.
    pub map: &'a Path,
    /// Its scenario, when not the one beside it.
    pub scen: Option<&'a Path>,
    /// At most this many of its problems ([`MAP_PROBLEMS`] by default).
    pub limit: Option<usize>,
    /// The query.
    pub query: &'a Query,
    /// The results folder.
    pub results: &'a Path,
    /// A run file to answer from instead of every run in `results`.
    pub run: Option<&'a Path>,
    /// Whether to measure on the map, and how (`--measure`).
    pub measure: Option<MeasureRequest>,
}

/// How `--measure` times: the queues asked beside the candidates (`--queue`), the most
/// rounds and the time it may take.
pub struct MeasureRequest {
    /// The queues asked with `--queue`.
    pub queues: Vec<&'static Entry>,
    /// The most interleaved rounds.
    pub rounds: u32,
    /// The time the check passes and rounds may take.
    pub budget: Duration,
}

/// What `pick --map` found: an answer with the map's survey, or problems whose answers
/// disagree with the scenario (`file:line: why`), where nothing is answered.
pub enum MapOutcome {
    /// The answer, and the survey that weighted it.
    Answered(Box<Answer>, MapSurvey),
    /// The scenario's lengths disagree with these problems' answers.
    Disagrees(Vec<String>, usize),
}

/// `pick --map`: the map surveyed, then answered from the runs, or measured on the map.
/// Notes on how the problems were drawn go to stderr.
pub fn answer_map(request: &MapRequest<'_>) -> Result<MapOutcome> {
    let query = request.query;
    let sample = Sample::Spread(request.limit.unwrap_or(MAP_PROBLEMS));
    let instance = Instance::user_map(request.map, request.scen, sample, query.series.rules())?;
    let drawn = drawn(request.map, &instance, query);
    let survey = survey(&instance, query)?;
    if let Some(first) = survey.beyond.first() {
        eprintln!(
            "pqlab: {} of {} problems not searched, their paths beyond 32-bit costs at this scale (a limit of the representation, as `validate` says; `--scale coarse` holds them): {first}",
            survey.beyond.len(),
            instance.problems.len()
        );
    }
    if !survey.wrong.is_empty() {
        return Ok(MapOutcome::Disagrees(survey.wrong.clone(), instance.problems.len()));
    }
    let (runs, notes) = super::load_all(request.results, request.run)?;
    let asking = Asking::default();
    let (mut committed, _) =
        from_runs(&runs, query, request.map, &instance, &survey, notes, asking)?;
    let Some(measuring) = &request.measure else {
        committed.caveats.push(format!("The map's frontier sizes come from {drawn}."));
        return Ok(MapOutcome::Answered(Box::new(committed), survey));
    };
    let leading = candidates(&runs, query, request.map, &instance, &survey, &committed);
    let asked: Vec<String> = measuring
        .queues
        .iter()
        .map(|e| e.id.to_owned())
        .filter(|id| id != BASELINE && !leading.contains(id))
        .collect();
    let timed: Vec<String> = leading.iter().chain(&asked).cloned().collect();
    let plan = Plan::from_now(measuring.rounds, measuring.budget);
    let mut measured = measure::on_map(instance, query, &timed, plan)?;
    let asked = if asked.is_empty() {
        String::new()
    } else {
        format!(", the queues asked with --queue ({})", asked.join(", "))
    };
    measured.caveats.push(format!(
        "Measured here on {drawn}: every queue within {} of the winner in any of the runs' evidence for this map ({}){asked} and the baseline, raced as the lab races them. The runs alone said: {}",
        ratio(CANDIDATE_FACTOR),
        leading.join(", "),
        committed.verdict
    ));
    Ok(MapOutcome::Answered(Box::new(measured), survey))
}

/// How the map's problems were drawn, in words; said on stderr too when the map has no
/// scenario, or one whose lengths do not apply under the query's rules.
fn drawn(map: &Path, instance: &Instance, query: &Query) -> String {
    let n = instance.problems.len();
    if instance.scenario.is_none() {
        eprintln!(
            "pqlab: {} has no scenario ({} is absent): {n} random problems drawn, start and goal connected, their optimal costs from the reference Dijkstra",
            map.display(),
            scen_beside(map).display(),
        );
    } else if !instance.checkable_under(query.series.rules()) {
        eprintln!(
            "pqlab: the scenario's lengths are for fine costs, not these: lengths not checked"
        );
    }
    match &instance.scenario {
        Some(_) => format!("{n} of the scenario's problems, spread over its length buckets"),
        None => format!("{n} random connected problems drawn on the bare map (seed {BARE_SEED}), optimal costs from the reference Dijkstra"),
    }
}
