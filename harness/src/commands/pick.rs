//! `pqlab pick`: the answer for a frontier size or a map, as text, JSON or Markdown.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::maps::instance::{Instance, Sample};
use crate::pick::{self, map, Answer, Query};
use crate::say;

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
    /// Its scenario.
    pub scen: Option<PathBuf>,
    /// At most this many of the map's problems.
    pub limit: Option<usize>,
    /// Measure the candidates on the map.
    pub measure: bool,
    /// Interleaved rounds when measuring.
    pub rounds: u32,
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
    let (answer, profile) = match (&request.map, request.frontier) {
        (Some(map_path), None) => {
            let sample = request.limit.map_or(Sample::All, Sample::Spread);
            let instance = Instance::movingai(map_path, request.scen.as_deref(), sample)?;
            let (profile, weights) = map::profile(&instance, &request.query)?;
            let answer = if request.measure {
                let (rows, notes) = pick::load(&request.results, request.run.as_deref())?;
                let committed = map::from_runs(&rows, &request.query, &profile, &weights, notes)?;
                let candidates: Vec<String> =
                    committed.ranking.iter().take(6).map(|r| r.queue.clone()).collect();
                let mut measured = map::measure(
                    map_path.clone(),
                    request.scen.clone(),
                    &request.query,
                    request.limit,
                    &candidates,
                    request.rounds,
                )?;
                measured.caveats.push(format!(
                    "Measured here: the committed runs' six leading candidates ({}) and the baseline. The committed runs alone said: {}",
                    candidates.join(", "),
                    committed.verdict
                ));
                measured
            } else {
                let (rows, notes) = pick::load(&request.results, request.run.as_deref())?;
                map::from_runs(&rows, &request.query, &profile, &weights, notes)?
            };
            (answer, Some(profile))
        }
        (None, Some(frontier)) => {
            if request.measure {
                bail!("--measure needs --map: it times the candidates on your map");
            }
            let (rows, notes) = pick::load(&request.results, request.run.as_deref())?;
            (pick::for_size(&rows, &request.query, frontier, notes)?, None)
        }
        (Some(_), Some(_)) => bail!("ask with --frontier or with --map, not both"),
        (None, None) => bail!("say what to pick for: --frontier N (open cells) or --map FILE"),
    };
    print(&answer, profile.as_ref(), request.format)?;
    Ok(ExitCode::SUCCESS)
}

fn print(answer: &Answer, profile: Option<&map::Profile>, format: Format) -> Result<()> {
    match format {
        Format::Json => {
            #[derive(serde::Serialize)]
            struct Out<'a> {
                #[serde(skip_serializing_if = "Option::is_none")]
                map: Option<&'a map::Profile>,
                #[serde(flatten)]
                answer: &'a Answer,
            }
            say!("{}", serde_json::to_string_pretty(&Out { map: profile, answer })?);
        }
        Format::Markdown => {
            let mut text = answer.markdown();
            if let Some(p) = profile {
                text = format!("{text}\n{}\n", p.describe());
            }
            say!("{text}");
        }
        Format::Text => {
            let text = answer.to_string();
            let mut lines = text.lines();
            // The verdict (and any noise warning) first, then the map's distribution.
            let first = lines
                .by_ref()
                .take(if answer.noise.is_some() { 2 } else { 1 })
                .collect::<Vec<_>>()
                .join("\n");
            say!("{first}");
            if let Some(p) = profile {
                say!("\n{}", p.describe());
            }
            for line in lines {
                say!("{line}");
            }
        }
    }
    Ok(())
}
