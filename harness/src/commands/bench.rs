//! The lab as `cargo bench` runs it (`benches/lab.rs` calls [`run`]; `pqlab bench` runs
//! the same without the memory-counting allocator, for tests).
//!
//! Arguments that are not options filter the workloads by name; a filter that matches
//! nothing is an error, and a filtered run is saved as a partial run with no report. The
//! run's id and partial file are reserved before measuring (a results folder that cannot
//! be written fails then), and the rows are saved as each workload ends, so an interrupted
//! run stays as a partial run ([`crate::results::files`]).

use anyhow::{bail, Result};

use crate::lab::workloads::{self, WorkloadSpec};
use crate::lab::{self, Lab, Profile, Settings};
use crate::report;

/// The options the bench takes: `--list`, and those cargo passes (`--bench`, `--test`).
const OPTIONS: [&str; 3] = ["--list", "--bench", "--test"];

/// Says `message` and exits with status 2 (bad input), whichever binary runs the bench.
fn refuse(message: impl std::fmt::Display) -> ! {
    eprintln!("pqlab: {message}");
    std::process::exit(2)
}

/// Lists, or measures and saves and reports, the workloads `args` select. Bad input (an
/// unknown option, a filter that matches nothing, a bad `PQLAB_*` value) exits with
/// status 2 before anything is measured.
pub fn run(args: &[String]) -> Result<()> {
    if let Some(unknown) =
        args.iter().find(|a| a.starts_with('-') && !OPTIONS.contains(&a.as_str()))
    {
        refuse(format_args!(
            "unknown option `{unknown}`: the bench takes workload filters and {}",
            OPTIONS.join(", ")
        ));
    }
    let settings = Settings::from_env().unwrap_or_else(|error| refuse(error));
    let filters: Vec<&str> =
        args.iter().filter(|a| !a.starts_with('-')).map(String::as_str).collect();
    let (chosen, sizes) = select(&settings, &filters)?;
    if chosen.is_empty() && sizes.is_empty() {
        refuse(format_args!("no workload matches {filters:?}: `cargo bench -- --list` lists them"));
    }
    if args.iter().any(|a| a == "--list") {
        for spec in &chosen {
            println!("{}", spec.name());
        }
        for size in &sizes {
            println!("held-{size}");
        }
        return Ok(());
    }
    if !lab::measuring(args) {
        return Ok(());
    }
    measure(settings, &chosen, &sizes, filters.is_empty())
}

/// The workloads and held sizes `filters` select (all of them when there is no filter).
fn select(settings: &Settings, filters: &[&str]) -> Result<(Vec<WorkloadSpec>, Vec<usize>)> {
    let quick = settings.profile == Profile::Quick;
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let mut all = workloads::builtin(settings.profile);
    if let Some(dir) = &settings.maps {
        let per_map = if quick { 30 } else { workloads::BENCH_PROBLEMS_PER_MAP };
        all.extend(workloads::movingai(dir, per_map)?);
    }
    let chosen: Vec<_> = all.into_iter().filter(|s| wanted(&s.name())).collect();
    // A held size is chosen by its whole name (`held-1000` alone) or by a filter that does
    // not end in a digit (`held`: all of them), never as a prefix of a larger size.
    let held_wanted = |name: &str| {
        filters.is_empty()
            || filters.iter().any(|f| {
                *f == name || (name.contains(f) && !f.ends_with(|c: char| c.is_ascii_digit()))
            })
    };
    let sizes: Vec<usize> = settings
        .synthetic_sizes
        .iter()
        .copied()
        .filter(|size| held_wanted(&format!("held-{size}")))
        .collect();
    Ok((chosen, sizes))
}

/// Measures `chosen` and `sizes`, saves the rows and, when the run is `complete` (not
/// filtered), publishes the report.
fn measure(
    settings: Settings,
    chosen: &[WorkloadSpec],
    sizes: &[usize],
    complete: bool,
) -> Result<()> {
    for note in report::tidy(&settings.results_dir)? {
        eprintln!("pqlab: {note}");
    }
    let mut lab = Lab::new(settings);
    if let Some(note) = lab.reserve()? {
        eprintln!("pqlab: {note}");
    }
    eprintln!(
        "pqlab: run {} on {} ({})",
        lab.provenance.run, lab.provenance.platform, lab.provenance.conditions
    );
    lab.run(chosen, sizes)?;
    let (csv, rescued) = lab.save(complete)?;
    eprintln!("pqlab: wrote {} ({} rows)", csv.display(), lab.rows().len());
    if rescued {
        bail!(
            "the results folder could not be written: no report; the run is in {}",
            csv.display()
        );
    }
    if !complete {
        eprintln!(
            "pqlab: a filtered run is partial: the report and the latest run are unchanged; \
             `pqlab report --run {}` reports it",
            csv.display()
        );
        return Ok(());
    }
    let report = report::publish(&lab.settings.results_dir, &csv)?;
    eprintln!("pqlab: wrote the report in {}", report.display());
    eprintln!("pqlab: done in {:.0} s", lab.elapsed_secs());
    Ok(())
}
