//! `pqlab pick`: the answer for a frontier size, a map or a trace, as text, JSON or Markdown.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::maps::instance::{scen_beside, Instance, Sample, BARE_SEED};
use pqlab_queues::registry::{Entry, BASELINE};

use crate::analysis::{replays, Findings, Run};
use crate::format::plural;
use crate::maps::GraphKind;
use crate::pick::{self, map, trace, Answer, Query};
use crate::say;
use crate::validate::SHOWN;

/// How to print the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For a terminal.
    Text,
    /// One JSON object.
    Json,
    /// Markdown.
    Markdown,
}

/// What `pqlab pick` was asked.
pub struct Request {
    /// The frontier size, if asked by size.
    pub frontier: Option<f64>,
    /// The map, if asked by map.
    pub map: Option<PathBuf>,
    /// The trace of the user's search, if asked by trace.
    pub trace: Option<PathBuf>,
    /// Its scenario.
    pub scen: Option<PathBuf>,
    /// At most this many of the map's problems.
    pub limit: Option<usize>,
    /// Measure the candidates on the map.
    pub measure: bool,
    /// Queues to measure beside the runs' candidates (`--queue`).
    pub queues: Vec<&'static Entry>,
    /// The most interleaved rounds when measuring.
    pub rounds: u32,
    /// The time the measured rounds may take.
    pub budget: std::time::Duration,
    /// The query's filters.
    pub query: Query,
    /// The results folder.
    pub results: PathBuf,
    /// A run file to answer from instead of the latest.
    pub run: Option<PathBuf>,
    /// The output format.
    pub format: Format,
}

/// Answers and prints.
pub fn run(request: Request) -> Result<ExitCode> {
    if request.query.terrain.is_some() && (request.map.is_some() || request.trace.is_some()) {
        bail!(
            "--terrain chooses the workloads that answer --frontier N: {}; drop --terrain",
            if request.trace.is_some() {
                "a trace is answered from its own operations"
            } else {
                "a map's own searches set its terrain"
            }
        );
    }
    if let Some(path) = &request.trace {
        if request.map.is_some() || request.frontier.is_some() {
            bail!("ask with --trace alone: it answers for your trace, not for a map or a size");
        }
        return by_trace(path, &request);
    }
    let (answer, profile) = match (&request.map, request.frontier) {
        (Some(map_path), None) => {
            if request.query.setup.graph == GraphKind::Road {
                bail!("--map reads a grid map: --graph road answers --frontier N alone (road graphs' open nodes)");
            }
            if request.measure && request.query.latency {
                bail!("--latency with --measure: the measured rounds time the map's searches together, not one search's time; drop --measure to rank by the runs' latencies, or --latency to measure");
            }
            let sample = Sample::Spread(request.limit.unwrap_or(map::MAP_PROBLEMS));
            let rules = request.query.rules();
            let instance = Instance::user_map(map_path, request.scen.as_deref(), sample, rules)?;
            if instance.scenario.is_none() {
                eprintln!(
                    "pqlab: {} has no scenario ({} is absent): {} random problems drawn, start and goal connected, their optimal costs from the reference Dijkstra",
                    map_path.display(),
                    scen_beside(map_path).display(),
                    instance.problems.len()
                );
            } else if !instance.checkable_under(rules) {
                eprintln!("pqlab: the scenario's lengths are for fine costs, not these: lengths not checked");
            }
            let profiled = map::profile(&instance, &request.query)?;
            if let Some(first) = profiled.beyond.first() {
                eprintln!(
                    "pqlab: {} of {} problems not searched, their paths beyond 32-bit costs at this scale (a limit of the representation, as `validate` says; `--scale coarse` holds them): {first}",
                    profiled.beyond.len(),
                    instance.problems.len()
                );
            }
            if !profiled.wrong.is_empty() {
                for wrong in profiled.wrong.iter().take(SHOWN) {
                    eprintln!("pqlab: FAILED {wrong}");
                }
                eprintln!(
                    "pqlab: {} of {} problems disagree with the scenario's optimal lengths ({}): fix the scenario, or run `pqlab validate` on its folder",
                    profiled.wrong.len(),
                    instance.problems.len(),
                    instance.scenario.as_ref().map_or(String::new(), |s| s.display().to_string())
                );
                return Ok(ExitCode::FAILURE);
            }
            let drawn = match &instance.scenario {
                Some(_) => format!("{} of the scenario's problems, spread over its length buckets", instance.problems.len()),
                None => format!("{} random connected problems drawn on the bare map (seed {BARE_SEED}), optimal costs from the reference Dijkstra", instance.problems.len()),
            };
            let (runs, notes) = pick::load_all(&request.results, request.run.as_deref())?;
            let (mut committed, _) = map::from_runs(
                &runs,
                &request.query,
                map_path,
                &instance,
                &profiled,
                notes,
                map::Asking::default(),
            )?;
            let answer = if request.measure {
                let leading = map::candidates(
                    &runs,
                    &request.query,
                    map_path,
                    &instance,
                    &profiled,
                    &committed,
                );
                let asked: Vec<String> = request
                    .queues
                    .iter()
                    .map(|e| e.id.to_owned())
                    .filter(|id| id != BASELINE && !leading.contains(id))
                    .collect();
                let candidates: Vec<String> = leading.iter().chain(&asked).cloned().collect();
                let mut measured = map::measure(
                    instance,
                    &request.query,
                    &candidates,
                    request.rounds,
                    request.budget,
                )?;
                let asked = if asked.is_empty() {
                    String::new()
                } else {
                    format!(", the queues asked with --queue ({})", asked.join(", "))
                };
                measured.caveats.push(format!(
                    "Measured here on {drawn}: every queue within {} of the winner in any of the runs' evidence for this map ({}){asked} and the baseline, raced as the lab races them. The runs alone said: {}",
                    crate::format::ratio(map::CANDIDATE_FACTOR),
                    leading.join(", "),
                    committed.verdict
                ));
                measured
            } else {
                committed.caveats.push(format!("The map's frontier sizes come from {drawn}."));
                committed
            };
            (answer, Some(profiled.profile))
        }
        (None, Some(frontier)) => {
            if request.measure {
                bail!("--measure needs --map: it times the candidates on your map");
            }
            let (rows, notes) = pick::load(&request.results, request.run.as_deref())?;
            (pick::for_size(&rows, &request.query, frontier, notes)?, None)
        }
        (Some(_), Some(_)) => bail!("ask with --frontier or with --map, not both"),
        (None, None) => {
            bail!("say what to pick for: --frontier N (open cells), --map FILE or --trace FILE")
        }
    };
    print(&answer, Profiled::map(profile.as_ref()), request.format)?;
    Ok(ExitCode::SUCCESS)
}

/// `pick --trace`: the trace checked and profiled, every queue replaying it checked and
/// timed; exit status 1 when a queue popped the trace's keys out of order.
fn by_trace(path: &Path, request: &Request) -> Result<ExitCode> {
    let user = trace::load(path, crate::lab::settings::memory_limit()?)?;
    let profile = trace::Profile::of(path, &user);
    // The evidence rule's figure, from the run `--run` names or the latest one, if any.
    let rows = match &request.run {
        Some(_) => Some(pick::load(&request.results, request.run.as_deref())?.0),
        None => pick::load(&request.results, None).ok().map(|(rows, _)| rows),
    };
    let run = rows.as_deref().map(Run::new);
    let agreement = run.as_ref().and_then(|run| replays::agreement(&Findings::of(run)));
    let measured = trace::measure(
        path,
        &user,
        &request.query,
        request.rounds,
        request.budget,
        agreement.as_ref(),
    )?;
    if !measured.wrong.is_empty() {
        for wrong in measured.wrong.iter().take(SHOWN) {
            eprintln!("pqlab: FAILED {wrong}");
        }
        eprintln!(
            "pqlab: {} popped the trace's keys out of order: a queue's bug, please report it with the trace",
            plural(measured.wrong.len(), "queue")
        );
        return Ok(ExitCode::FAILURE);
    }
    print(&measured.answer, Profiled::Trace(&profile), request.format)?;
    Ok(ExitCode::SUCCESS)
}

/// What was profiled before the answer: the user's map, or their trace.
#[derive(Clone, Copy, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
enum Profiled<'a> {
    /// Nothing (`--frontier`).
    None,
    /// The map's frontier sizes.
    Map(&'a map::Profile),
    /// The trace's operations and sizes.
    Trace(&'a trace::Profile),
}

impl<'a> Profiled<'a> {
    fn map(profile: Option<&'a map::Profile>) -> Profiled<'a> {
        profile.map_or(Profiled::None, Profiled::Map)
    }

    /// The profile in words, if there is one.
    fn describe(self) -> Option<String> {
        match self {
            Profiled::None => None,
            Profiled::Map(p) => Some(p.describe()),
            Profiled::Trace(p) => Some(p.describe()),
        }
    }
}

fn print(answer: &Answer, profile: Profiled<'_>, format: Format) -> Result<()> {
    match format {
        Format::Json => {
            #[derive(serde::Serialize)]
            struct Out<'a> {
                #[serde(skip_serializing_if = "Option::is_none")]
                map: Option<&'a map::Profile>,
                #[serde(skip_serializing_if = "Option::is_none")]
                trace: Option<&'a trace::Profile>,
                #[serde(flatten)]
                answer: &'a Answer,
            }
            let (map, trace) = match profile {
                Profiled::None => (None, None),
                Profiled::Map(p) => (Some(p), None),
                Profiled::Trace(p) => (None, Some(p)),
            };
            say!("{}", serde_json::to_string_pretty(&Out { map, trace, answer })?);
        }
        Format::Markdown => {
            let mut text = answer.markdown();
            if let Some(p) = profile.describe() {
                text = format!("{text}\n{p}\n");
            }
            say!("{text}");
        }
        Format::Text => {
            let text = answer.to_string();
            let mut lines = text.lines();
            // The verdict (the answer's first line) first, and the note that this CPU is not
            // the evidence's right under it; then the map's distribution.
            say!("{}", lines.next().unwrap_or_default());
            if answer.machine_note.is_some() {
                say!("{}", lines.next().unwrap_or_default());
            }
            if let Some(p) = profile.describe() {
                say!("\n{p}");
            }
            for line in lines {
                say!("{line}");
            }
        }
    }
    Ok(())
}
