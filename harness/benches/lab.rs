//! `cargo bench`: the whole lab. Every queue × every built-in suite (and every Moving AI
//! map under `PQLAB_MAPS`), checked then timed; the queue alone on traces and on the
//! synthetic workload; the peers and the oracle; then a new CSV under `results/runs/` and
//! the report in `results/`.
//!
//! Run: `cargo bench` (693 s of measuring on 2 cores in the committed run, after a 2-minute
//! build), `PQLAB_QUICK=1 cargo bench` (the smoke profile, under 2 minutes once built,
//! results under `results/quick/`), `PQLAB_MAPS=../shared/movingai cargo bench` to add the
//! Moving AI maps. Criterion's filters work as usual (`cargo bench -- maze`); rows come only
//! from what ran.

use pqlab::lab::{self, Lab, Profile, Settings};

fn main() -> anyhow::Result<()> {
    let quick = std::env::var("PQLAB_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
    let settings = Settings::from_env(if quick { Profile::Quick } else { Profile::Full });
    let suites = lab::suites(&settings)?;
    let mut lab = Lab::new(settings);
    eprintln!("pqlab: run {} on {}", lab.provenance.run, lab.provenance.machine);
    for (i, suite) in suites.iter().enumerate() {
        eprintln!(
            "pqlab: [{}/{}] suite {} ({:.0} s so far)",
            i + 1,
            suites.len(),
            suite.name,
            lab.elapsed_secs()
        );
        let prepared = suite.prepare()?;
        lab.run_suite(&prepared);
    }
    lab.run_synthetic();
    if lab::criterion_is_measuring() && !lab.rows().is_empty() {
        let csv = lab.save()?;
        eprintln!("pqlab: wrote {} ({} rows)", csv.display(), lab.rows().len());
        let files = lab::publish(&lab.settings.results_dir, &csv)?;
        eprintln!(
            "pqlab: wrote the report: {} files in {}",
            files.len(),
            lab.settings.results_dir.display()
        );
    }
    eprintln!("pqlab: done in {:.0} s", lab.elapsed_secs());
    Ok(())
}
