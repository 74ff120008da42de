//! `pqlab pick`: the answer for a frontier size, a map or a trace, as text, JSON or Markdown.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};

use pqlab_queues::registry::Entry;

use crate::analysis::{replays, Findings, Run};
use crate::format::plural;
use crate::lab::ondemand::Plan;
use crate::maps::GraphKind;
use crate::pick::frontier::FrontierSizes;
use crate::pick::{self, map, trace, Answer, Query};
use crate::say;
use crate::validate::SHOWN;

/// How to print the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
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
    pub format: OutputFormat,
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
    match (&request.map, request.frontier) {
        (Some(map_path), None) => by_map(map_path, &request),
        (None, Some(frontier)) => {
            if request.measure {
                bail!("--measure needs --map: it times the candidates on your map");
            }
            let (rows, notes) = pick::load(&request.results, request.run.as_deref())?;
            let answer = pick::for_size(&rows, &request.query, frontier, notes)?;
            print(&answer, Subject::None, request.format)?;
            Ok(ExitCode::SUCCESS)
        }
        (Some(_), Some(_)) => bail!("ask with --frontier or with --map, not both"),
        (None, None) => {
            bail!("say what to pick for: --frontier N (open cells), --map FILE or --trace FILE")
        }
    }
}

/// `pick --map`: the map's survey and answer ([`map::answer_map`]); exit status 1 when
/// the map's answers disagree with its scenario.
fn by_map(map_path: &Path, request: &Request) -> Result<ExitCode> {
    if request.query.series.setup.graph == GraphKind::Road {
        bail!("--map reads a grid map: --graph road answers --frontier N alone (road graphs' open nodes)");
    }
    if request.measure && request.query.latency {
        bail!("--latency with --measure: the measured rounds time the map's searches together, not one search's time; drop --measure to rank by the runs' latencies, or --latency to measure");
    }
    let measure = request.measure.then(|| map::MeasureRequest {
        queues: request.queues.clone(),
        rounds: request.rounds,
        budget: request.budget,
    });
    let asked = map::MapRequest {
        map: map_path,
        scen: request.scen.as_deref(),
        limit: request.limit,
        query: &request.query,
        results: &request.results,
        run: request.run.as_deref(),
        measure,
    };
    match map::answer_map(&asked)? {
        map::MapOutcome::Answered(answer, survey) => {
            print(&answer, Subject::Map(&survey.sizes), request.format)?;
            Ok(ExitCode::SUCCESS)
        }
        map::MapOutcome::Disagrees(wrong, problems) => {
            for wrong in wrong.iter().take(SHOWN) {
                eprintln!("pqlab: FAILED {wrong}");
            }
            eprintln!(
                "pqlab: {} of {problems} problems disagree with the scenario's optimal lengths: fix the scenario, or run `pqlab validate` on its folder",
                wrong.len(),
            );
            Ok(ExitCode::FAILURE)
        }
    }
}

/// `pick --trace`: the trace checked and summarised, every queue replaying it checked and
/// timed; exit status 1 when a queue popped the trace's keys out of order.
fn by_trace(path: &Path, request: &Request) -> Result<ExitCode> {
    let user = trace::load(path, crate::lab::settings::memory_limit()?)?;
    let summary = trace::TraceSummary::of(path, &user);
    // The evidence rule's figure, from the run `--run` names or the latest one, if any.
    let rows = match &request.run {
        Some(_) => Some(pick::load(&request.results, request.run.as_deref())?.0),
        None => pick::load(&request.results, None).ok().map(|(rows, _)| rows),
    };
    let run = rows.as_deref().map(Run::new);
    let agreement = run.as_ref().and_then(|run| replays::agreement(&Findings::of(run)));
    let plan = Plan::from_now(request.rounds, request.budget);
    let measured = pick::measure::on_trace(path, &user, &request.query, plan, agreement.as_ref())?;
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
    print(&measured.answer, Subject::Trace(&summary), request.format)?;
    Ok(ExitCode::SUCCESS)
}

/// What was surveyed before the answer: the user's map, or their trace.
#[derive(Clone, Copy)]
enum Subject<'a> {
    /// Nothing (`--frontier`).
    None,
    /// The map's frontier sizes.
    Map(&'a FrontierSizes),
    /// The trace's operations and sizes.
    Trace(&'a trace::TraceSummary),
}

impl Subject<'_> {
    /// The survey in words, if there is one.
    fn describe(self) -> Option<String> {
        match self {
            Subject::None => None,
            Subject::Map(p) => Some(p.describe()),
            Subject::Trace(p) => Some(p.describe()),
        }
    }
}

fn print(answer: &Answer, subject: Subject<'_>, format: OutputFormat) -> Result<()> {
    match format {
        OutputFormat::Json => {
            #[derive(serde::Serialize)]
            struct Out<'a> {
                #[serde(skip_serializing_if = "Option::is_none")]
                map: Option<&'a FrontierSizes>,
                #[serde(skip_serializing_if = "Option::is_none")]
                trace: Option<&'a trace::TraceSummary>,
                #[serde(flatten)]
                answer: &'a Answer,
            }
            let (map, trace) = match subject {
                Subject::None => (None, None),
                Subject::Map(p) => (Some(p), None),
                Subject::Trace(p) => (None, Some(p)),
            };
            say!("{}", serde_json::to_string_pretty(&Out { map, trace, answer })?);
        }
        OutputFormat::Markdown => {
            let mut text = answer.markdown();
            if let Some(p) = subject.describe() {
                text = format!("{text}\n{p}\n");
            }
            say!("{text}");
        }
        OutputFormat::Text => {
            let text = answer.to_string();
            let mut lines = text.lines();
            // The verdict (the answer's first line) first, and the note that this CPU is not
            // the evidence's right under it; then the map's distribution.
            say!("{}", lines.next().unwrap_or_default());
            if answer.machine_note.is_some() {
                say!("{}", lines.next().unwrap_or_default());
            }
            if let Some(p) = subject.describe() {
                say!("\n{p}");
            }
            for line in lines {
                say!("{line}");
            }
        }
    }
    Ok(())
}
