//! Where results live, found from the working directory (never compiled into the binary,
//! so a moved checkout, a copied `target/` or an installed `pqlab` answers from the
//! checkout it is run in).
//!
//! - `results/` at a checkout's root holds the committed runs and report. It is the one
//!   results folder whose report also rewrites the README's summary; `cargo bench` writes
//!   there only when asked (`PQLAB_RESULTS=results cargo bench`).
//! - `results/local/` (untracked) is where `cargo bench` writes by default, so a user's
//!   run leaves `git status` clean.
//! - `pick` and `report` answer from `results/local/` when it holds a complete run, else
//!   from the committed `results/`, and say which.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The folder under `results/` that `cargo bench` writes to by default.
pub const LOCAL: &str = "local";

/// Whether `dir` is a pqlab checkout's root (it holds `harness/Cargo.toml` and
/// `queues/Cargo.toml`).
fn is_checkout(dir: &Path) -> bool {
    dir.join("harness").join("Cargo.toml").is_file()
        && dir.join("queues").join("Cargo.toml").is_file()
}

/// The checkout that holds the working directory (it or an ancestor).
pub fn checkout() -> Result<PathBuf> {
    let here = std::env::current_dir().context("the working directory")?;
    here.ancestors().find(|dir| is_checkout(dir)).map(Path::to_path_buf).with_context(|| {
        format!(
            "{} is not inside a pqlab checkout: run pqlab there, or name the results with \
             --results DIR",
            here.display()
        )
    })
}

/// The repository whose committed results folder `dir` is: its parent when `dir` is a
/// checkout's `results/`. Only that repository's README gets the report's summary.
pub fn repository_of(dir: &Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    let parent = dir.parent()?;
    (dir.file_name()? == "results" && is_checkout(parent)).then(|| parent.to_path_buf())
}

/// The message for a results folder with no run in it.
pub fn no_results(results_dir: &Path) -> String {
    format!(
        "no results yet: {} holds no run. Measure first with `cargo bench` (the quick profile, \
         `PQLAB_QUICK=1 cargo bench`, writes to {}: `pqlab pick` looks there next), then ask again.",
        results_dir.join("runs").display(),
        results_dir.join("quick").display()
    )
}
