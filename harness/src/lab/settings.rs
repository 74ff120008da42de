//! The lab's profiles and knobs. Each tuned knob says what measurement chose it.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// How much the lab measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The default `cargo bench`: the built-in suites, within 15 minutes on 2 cores from a
    /// fresh clone, build included.
    Default,
    /// `PQLAB_QUICK=1`: small suites and few rounds, a smoke test of the whole pipeline
    /// (under 2 minutes once built).
    Quick,
}

/// The knobs of a run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The profile.
    pub profile: Profile,
    /// Where the run's CSV and the report go (`results/local/` by default, untracked;
    /// `results/` for a committed run; `quick/` under it for the quick profile).
    pub results_dir: PathBuf,
    /// Moving AI maps to add as workloads (`PQLAB_MAPS`).
    pub maps: Option<PathBuf>,
    /// The time the whole run may spend measuring, setup included (maps, problems, check
    /// passes, traces); the lab sizes every workload's rounds from what is left. The
    /// default's 10 minutes leave room for a 3-minute build and the report within 15.
    /// With `PQLAB_MAPS` the Moving AI workloads get `maps_budget` more.
    pub budget: Duration,
    /// The extra budget of the Moving AI workloads: 20 minutes, about 40 seconds a map
    /// for the 30 maps of `../shared/movingai`, several times the 5 rounds' floor (the
    /// profile with real maps measured for 37 minutes in the committed run, within the 60 allowed).
    pub maps_budget: Duration,
    /// How long one sample lasts: passes are repeated until it does. 5 ms: long enough
    /// that the thread CPU clock's cost (about 0.3 µs a reading) and its resolution are
    /// far below the spread between rounds, short enough for many rounds.
    pub sample: Duration,
    /// The fewest rounds a workload gets whatever the budget: five give a median and
    /// quartiles, and a paired bootstrap something to resample.
    pub min_rounds: u32,
    /// The most rounds: beyond 25 the tie groups stopped shrinking on the committed run.
    pub max_rounds: u32,
    /// A queue whose check pass takes longer than `slowdown` times the baseline's (and
    /// longer than `floor`) is cut off on that workload, and a queue predicted to exceed it
    /// on a larger workload is not even checked there. 4: tie groups span a few percent
    /// and the best queue of a workload has taken at least half the baseline's time in
    /// every committed run, so a queue 4× slower than the baseline is out of every answer;
    /// timing it would cost as much as four baselines, and its `cut-off` row says that it
    /// was over the limit.
    pub slowdown: f64,
    /// Passes shorter than this are never cut off: they are cheap whatever the ratio.
    pub floor: Duration,
    /// The held sizes of the synthetic workload.
    pub synthetic_sizes: Vec<usize>,
    /// The most memory the contenders of one held size may use together; beyond it they
    /// are measured in groups, each with the baseline.
    pub memory: usize,
}

impl Settings {
    /// The settings of `profile`, reading `PQLAB_MAPS`, `PQLAB_RESULTS` (relative paths
    /// from the repository's root) and `PQLAB_BUDGET` (seconds) from the environment.
    pub fn from_env(profile: Profile) -> Settings {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        // Cargo runs benchmarks from `harness/`: a relative path is taken from the
        // repository's root, where the README's commands are typed.
        let from_root = |path: PathBuf| if path.is_relative() { root.join(path) } else { path };
        let results = std::env::var_os("PQLAB_RESULTS")
            .map(|p| from_root(PathBuf::from(p)))
            .unwrap_or_else(|| root.join("results").join(crate::results::location::LOCAL));
        let maps = std::env::var_os("PQLAB_MAPS")
            .filter(|m| !m.is_empty())
            .map(|p| from_root(PathBuf::from(p)));
        let budget = std::env::var("PQLAB_BUDGET").ok().and_then(|s| s.parse::<f64>().ok());
        let mut settings = match profile {
            Profile::Default => Settings {
                profile,
                results_dir: results,
                maps,
                budget: Duration::from_secs(600),
                maps_budget: Duration::from_secs(20 * 60),
                sample: Duration::from_millis(5),
                min_rounds: 5,
                max_rounds: 25,
                slowdown: 4.0,
                floor: Duration::from_millis(20),
                synthetic_sizes: vec![10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000],
                memory: 6 << 30,
            },
            Profile::Quick => Settings {
                profile,
                results_dir: results.join("quick"),
                maps,
                budget: Duration::from_secs(60),
                maps_budget: Duration::from_secs(120),
                sample: Duration::from_millis(2),
                min_rounds: 3,
                max_rounds: 5,
                slowdown: 4.0,
                floor: Duration::from_millis(5),
                synthetic_sizes: vec![10, 1_000, 100_000],
                memory: 1 << 30,
            },
        };
        if let Some(secs) = budget.filter(|s| s.is_finite() && *s > 0.0) {
            settings.budget = Duration::from_secs_f64(secs);
        }
        settings
    }

    /// The suffix of this profile's run ids.
    pub fn run_suffix(&self) -> &'static str {
        match (self.profile, self.maps.is_some()) {
            (Profile::Quick, _) => "-quick",
            (Profile::Default, true) => "-maps",
            (Profile::Default, false) => "",
        }
    }
}
