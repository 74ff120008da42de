//! The runs to answer from: the latest (or the one named), or every run for a map.

use std::path::Path;

use anyhow::{bail, Result};

use crate::results::{files, location, Row};

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
             rounds, small specs).",
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
