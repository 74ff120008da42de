//! `cargo bench`: the whole lab. Every queue on every built-in suite (and every Moving AI
//! map under `PQLAB_MAPS`), checked then timed interleaved; the queue alone on traces and
//! on the synthetic workload; the peers and the oracle; then a new CSV under
//! `results/runs/` and the report in `results/report/`.
//!
//! Run: `cargo bench` (within 15 minutes on 2 cores from a fresh clone), `PQLAB_QUICK=1
//! cargo bench` (the smoke profile, under 2 minutes once built, results under
//! `results/quick/`), `PQLAB_MAPS=../shared/movingai cargo bench` to add the Moving AI
//! maps (about 40 minutes; up to 60 allowed). Arguments that are not options filter the workloads by name
//! (`cargo bench -- rooms`, `cargo bench -- held` for the synthetic sizes);
//! `cargo bench -- --list` lists them.

use anyhow::Result;
use pqlab::lab::{self, suites, Lab, Profile, Settings};
use pqlab::results::files;

/// Counts the heap memory each queue holds at the held sizes (`lab::memory`).
#[global_allocator]
static ALLOCATOR: lab::memory::Counting = lab::memory::Counting;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = std::env::var("PQLAB_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
    let settings = Settings::from_env(if quick { Profile::Quick } else { Profile::Default });
    let filters: Vec<&str> =
        args.iter().filter(|a| !a.starts_with('-')).map(String::as_str).collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let mut all = suites::builtin(settings.profile);
    if let Some(dir) = &settings.maps {
        let per_map = if quick { 30 } else { suites::MAP_PROBLEMS };
        all.extend(suites::movingai(dir, per_map)?);
    }
    let chosen: Vec<_> = all.into_iter().filter(|s| wanted(&s.name())).collect();
    let synthetic = settings.synthetic_sizes.iter().any(|size| wanted(&format!("held-{size}")));
    if args.iter().any(|a| a == "--list") {
        for suite in &chosen {
            println!("{}", suite.name());
        }
        if synthetic {
            for size in &settings.synthetic_sizes {
                println!("held-{size}");
            }
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
    lab.run(&chosen, synthetic)?;
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
