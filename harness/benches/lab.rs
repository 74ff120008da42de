//! `cargo bench`: the whole lab. Every queue on every built-in suite (and every Moving AI
//! map under `PQLAB_MAPS`), checked then timed interleaved; the queue alone on traces and
//! on the synthetic workload; the peers and the oracle; then a new CSV under
//! `results/runs/` and the report in `results/report/`.
//!
//! Run: `cargo bench` (within 15 minutes on 2 cores from a fresh clone), `PQLAB_QUICK=1
//! cargo bench` (the smoke profile, under 2 minutes once built, results under
//! `results/quick/`), `PQLAB_MAPS=../shared/movingai cargo bench` to add the Moving AI
//! maps (about 40 minutes; up to 60 allowed). Arguments that are not options filter the workloads by name
//! (`cargo bench -- rooms`, `cargo bench -- held` for the synthetic sizes, `cargo bench --
//! held-1000000` for one of them); a bad `PQLAB_*` value stops it with exit status 2;
//! `cargo bench -- --list` lists them.

use anyhow::Result;
use pqlab::lab::{self, suites, Lab, Profile, Settings};
use pqlab::results::files;

/// Counts the heap memory each queue holds at the held sizes (`lab::memory`).
#[global_allocator]
static ALLOCATOR: lab::memory::Counting = lab::memory::Counting;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("pqlab: {error}");
            std::process::exit(2);
        }
    };
    let quick = settings.profile == Profile::Quick;
    let filters: Vec<&str> =
        args.iter().filter(|a| !a.starts_with('-')).map(String::as_str).collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let mut all = suites::builtin(settings.profile);
    if let Some(dir) = &settings.maps {
        let per_map = if quick { 30 } else { suites::MAP_PROBLEMS };
        all.extend(suites::movingai(dir, per_map)?);
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
    if args.iter().any(|a| a == "--list") {
        for suite in &chosen {
            println!("{}", suite.name());
        }
        for size in &sizes {
            println!("held-{size}");
        }
        return Ok(());
    }
    if !lab::measuring(&args) {
        return Ok(());
    }
    for note in files::tidy(&settings.results_dir)? {
        eprintln!("pqlab: {note}");
    }
    let mut lab = Lab::new(settings);
    eprintln!("pqlab: run {} on {}", lab.provenance.run, lab.provenance.machine);
    lab.run(&chosen, &sizes)?;
    if lab.rows().is_empty() {
        eprintln!("pqlab: nothing was measured (no workload matched {filters:?})");
        return Ok(());
    }
    let csv = lab.save()?;
    eprintln!("pqlab: wrote {} ({} rows)", csv.display(), lab.rows().len());
    let report = pqlab::report::publish(&lab.settings.results_dir, &csv)?;
    eprintln!("pqlab: wrote the report in {}", report.display());
    eprintln!("pqlab: done in {:.0} s", lab.elapsed_secs());
    Ok(())
}
