//! The lab's profiles and knobs, and the environment variables that set them. Each tuned
//! knob says what measurement chose it.
//!
//! | variable | value | default |
//! |---|---|---|
//! | `PQLAB_QUICK` | `1` (the quick profile) or `0` | `0` |
//! | `PQLAB_BUDGET` | seconds, a positive number up to 1,000,000 (`600`, `90.5`, `1e3`) | 600 (quick 60) |
//! | `PQLAB_MEMORY` | bytes, a positive number with an optional `K`, `M` or `G` (powers of 1024: `512M`, `2G`, `1.5G`), at most the physical memory | half the available memory, at most 1 GiB |
//! | `PQLAB_HELD_MAX` | the largest held size, a power of ten from 10 to 10⁸ (`1e7` or `10000000`) | 10⁶ |
//! | `PQLAB_CONDITIONS` | what runs beside the run, in words of one line (`beside tools/neighbour.sh`), written in every row's `conditions` | `plain` |
//!
//! An empty variable is unset. Any other value is an error naming the variable and the
//! value ([`SettingsError`]); nothing is ignored silently.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// How much the lab measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The default `cargo bench`: the built-in workloads, within 15 minutes on 2 cores from a
    /// fresh clone, build included.
    Default,
    /// `PQLAB_QUICK=1`: small workloads and few rounds, a smoke test of the whole pipeline
    /// (under 2 minutes once built).
    Quick,
}

impl Profile {
    /// The profile that made run `id`: its id ends in the profile's suffix
    /// ([`Settings::run_suffix`]).
    pub fn of_run(id: &str) -> Profile {
        if id.ends_with("-quick") {
            Profile::Quick
        } else {
            Profile::Default
        }
    }

    /// The profile's cut-off, [`Settings::slowdown`]: a check pass over this many times the
    /// baseline's is stopped.
    pub const fn slowdown(self) -> f64 {
        match self {
            Profile::Default => 3.0,
            Profile::Quick => 4.0,
        }
    }

    /// The profile's sample length, [`Settings::sample`].
    pub const fn sample(self) -> Duration {
        match self {
            Profile::Default => Duration::from_millis(5),
            Profile::Quick => Duration::from_millis(2),
        }
    }

    /// The profile's floor under the cut-off, [`Settings::floor`].
    pub const fn floor(self) -> Duration {
        match self {
            Profile::Default => Duration::from_millis(20),
            Profile::Quick => Duration::from_millis(5),
        }
    }
}

/// A `PQLAB_*` variable whose value the lab cannot use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{variable}={value:?}: {expected}")]
pub struct SettingsError {
    /// The variable's name.
    pub variable: &'static str,
    /// Its value, as given.
    pub value: String,
    /// What it should be.
    pub expected: &'static str,
}

/// The longest budget `PQLAB_BUDGET` may set: 1,000,000 s (11.6 days), far past any run
/// and far below what a deadline (`Instant` plus the budget) can hold.
const MAX_BUDGET_SECS: f64 = 1e6;

/// The largest held size `PQLAB_HELD_MAX` may set: node ids are `u32`, and 10⁸ entries
/// already need several GiB a queue.
const MAX_HELD: usize = 100_000_000;

/// The default largest held size. 10⁷ entries need 0.4–0.8 GB a queue (16–60 bytes per
/// entry in the queues plus the hold's 16, measured on a maps run): opt in with
/// `PQLAB_HELD_MAX=1e7`.
const DEFAULT_HELD_MAX: usize = 1_000_000;

/// The most memory a default run gives the held queues of one group, and a search
/// workload's contenders kept built: 1 GiB, so that a run stays within 2 GiB resident.
/// With it `cargo bench -- held` (sizes 10 to 10⁶, the 10⁶ queues in 2 groups) peaked at
/// 1.13 GiB (`/usr/bin/time -v`, a shared 2-core machine), and
/// `cargo bench -- rooms-r64-2048-s1/octile/fine/flat` at 1.21 GiB, against 2.27 GiB with
/// every contender kept (`PQLAB_MEMORY=64G`).
const MEMORY_CAP: usize = 1 << 30;

/// One `PQLAB_*` variable's parsers: each takes the raw value (never empty) and gives the
/// typed one or an error naming the variable and the value.
pub mod parse {
    use super::*;

    fn error(variable: &'static str, value: &str, expected: &'static str) -> SettingsError {
        SettingsError { variable, value: value.to_owned(), expected }
    }

    /// `PQLAB_QUICK`: `1` selects the quick profile, `0` the default.
    pub fn quick(value: &str) -> Result<Profile, SettingsError> {
        match value.trim() {
            "1" => Ok(Profile::Quick),
            "0" => Ok(Profile::Default),
            _ => Err(error("PQLAB_QUICK", value, "expected 1 (the quick profile) or 0")),
        }
    }

    /// `PQLAB_BUDGET`: seconds, positive and at most 1,000,000.
    pub fn budget(value: &str) -> Result<Duration, SettingsError> {
        let expected = "expected seconds, a number above 0 and at most 1000000 (like 600)";
        match value.trim().parse::<f64>() {
            Ok(secs) if secs > 0.0 && secs <= MAX_BUDGET_SECS => Ok(Duration::from_secs_f64(secs)),
            _ => Err(error("PQLAB_BUDGET", value, expected)),
        }
    }

    /// `PQLAB_MEMORY`: bytes, a positive number with an optional `K`, `M` or `G` (powers of
    /// 1024), at least 1 MiB.
    pub fn memory(value: &str) -> Result<usize, SettingsError> {
        let expected = "expected bytes with an optional K, M or G (powers of 1024), at least \
                        1M, like 512M or 2G";
        let text = value.trim();
        let (number, unit) = match text.char_indices().last() {
            Some((i, c @ ('K' | 'k' | 'M' | 'm' | 'G' | 'g'))) => (&text[..i], Some(c)),
            _ => (text, None),
        };
        let scale = match unit.map(|c| c.to_ascii_uppercase()) {
            None => 1.0,
            Some('K') => 1024.0,
            Some('M') => 1024.0 * 1024.0,
            _ => 1024.0 * 1024.0 * 1024.0,
        };
        match number.parse::<f64>().map(|n| n * scale) {
            Ok(bytes) if bytes >= (1 << 20) as f64 && bytes <= usize::MAX as f64 / 2.0 => {
                Ok(bytes as usize)
            }
            _ => Err(error("PQLAB_MEMORY", value, expected)),
        }
    }

    /// `PQLAB_HELD_MAX`: a power of ten from 10 to 10⁸, written `1e7` or `10000000`.
    pub fn held_max(value: &str) -> Result<usize, SettingsError> {
        let expected = "expected a power of ten from 10 to 100000000, like 1e7 or 10000000";
        let size = value.trim().parse::<f64>().ok().filter(|n| n.fract() == 0.0);
        let powers = std::iter::successors(Some(10usize), |p| p.checked_mul(10))
            .take_while(|p| *p <= MAX_HELD);
        match size.and_then(|n| powers.into_iter().find(|p| *p as f64 == n)) {
            Some(size) => Ok(size),
            None => Err(error("PQLAB_HELD_MAX", value, expected)),
        }
    }

    /// `PQLAB_CONDITIONS`: one line of words, at most 200 characters.
    pub fn conditions(value: &str) -> Result<String, SettingsError> {
        let value = value.trim();
        let fits = value.chars().count() <= 200 && !value.chars().any(char::is_control);
        if fits && !value.is_empty() {
            Ok(value.to_owned())
        } else {
            Err(error("PQLAB_CONDITIONS", value, "expected one line of at most 200 characters"))
        }
    }
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
    /// for the 30 maps of `../shared/movingai`. It is not enough: on a maps run
    /// (METHODOLOGY.md) the default workloads overran their 10 minutes (as a default run does),
    /// the maps began with 8 minutes left and ran at the floor of rounds from the third
    /// maze on, and the run measured for 54 minutes against the 30 of the two budgets.
    pub maps_budget: Duration,
    /// How long one sample lasts: passes are repeated until it does. 5 ms: long enough
    /// that the thread CPU clock's cost (about 0.3 µs a reading) and its resolution are
    /// far below the spread between rounds, short enough for many rounds.
    pub sample: Duration,
    /// The fewest rounds a workload gets whatever the budget, every contender timed in
    /// each before racing stops the ones clearly behind. The rule: the floor of every
    /// workload must leave budget for the rounds of the queues still in contention, since
    /// their figures decide the answers. Measured (METHODOLOGY.md): at three, two thirds
    /// of a default run's contests got no round past the floor, so racing freed
    /// nothing and the leaders had 3 slices (between two such runs they moved a
    /// median 4.3%); two give each contender a range to race on.
    pub min_rounds: u32,
    /// The most rounds: beyond 25 the tie groups stopped shrinking on a committed run (not
    /// named). Since the budget is shared by cost no workload has reached it: at most 8 to
    /// 12 rounds in four default runs (the rows' `samples`; METHODOLOGY.md).
    pub max_rounds: u32,
    /// A queue whose check pass takes longer than `slowdown` times the baseline's (and
    /// longer than `floor`) is cut off on that workload: its pass is stopped there, within
    /// the search running then (`search::stop`), and its `cut-off` row keeps the time it
    /// ran as a lower bound. 3: the baseline is a contender and tie groups span a few
    /// percent, so a queue 3× slower than the baseline is out of every answer. In a
    /// default run at 4, the timed rows above 3 times the
    /// baseline cost about 42 s more than cut-offs at 3 would have (each row's check and
    /// five samples against a pass stopped at 3 times the baseline's, from its CSV).
    pub slowdown: f64,
    /// Passes shorter than this are never cut off: they are cheap whatever the ratio. Set
    /// without a measurement.
    pub floor: Duration,
    /// The held sizes of the synthetic workload, smallest first: the profile's sizes up to
    /// `PQLAB_HELD_MAX`.
    pub synthetic_sizes: Vec<usize>,
    /// The most heap memory the held queues of one size may use together (`PQLAB_MEMORY`;
    /// by default half of the machine's `MemAvailable`, at most 1 GiB); beyond it they are
    /// measured in groups, each with the baseline, and a queue that does not fit beside the
    /// baseline alone is not held at that size. A search workload's contenders keep their
    /// state built within it too ([`super::memory::Keep`]).
    pub memory: usize,
    /// What runs beside the run (`PQLAB_CONDITIONS`), recorded in the run itself: `plain`
    /// when nothing of the user's does.
    pub conditions: String,
}

impl Settings {
    /// The settings the environment asks for: the profile (`PQLAB_QUICK`), `PQLAB_MAPS`,
    /// `PQLAB_RESULTS` (relative paths from the repository's root), `PQLAB_BUDGET`,
    /// `PQLAB_MEMORY` and `PQLAB_HELD_MAX` (see the [module](self) for their values).
    pub fn from_env() -> Result<Settings, SettingsError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let profile = var("PQLAB_QUICK").map_or(Ok(Profile::Default), |v| parse::quick(&v))?;
        // The checkout holding the working directory (cargo runs benchmarks from
        // `harness/`), so a moved checkout or an installed `pqlab bench` writes to the
        // checkout it is run in; outside any checkout, the working directory, and only
        // into a results folder named with PQLAB_RESULTS.
        let here = std::env::current_dir().unwrap_or_default();
        let checkout = crate::results::location::checkout().ok();
        let named = std::env::var_os("PQLAB_RESULTS").filter(|p| !p.is_empty());
        let results = results_folder(checkout.as_deref(), &here, named.map(PathBuf::from))?;
        let root = checkout.unwrap_or(here);
        let from_root = |path: PathBuf| if path.is_relative() { root.join(path) } else { path };
        let maps = std::env::var_os("PQLAB_MAPS")
            .filter(|m| !m.is_empty())
            .map(|p| from_root(PathBuf::from(p)));
        let budget = var("PQLAB_BUDGET").map(|v| parse::budget(&v)).transpose()?;
        let memory = memory_limit()?;
        let held_max = var("PQLAB_HELD_MAX").map(|v| parse::held_max(&v)).transpose()?;
        let conditions = var("PQLAB_CONDITIONS").map(|v| parse::conditions(&v)).transpose()?;
        let mut settings = Settings::of(profile, results, maps, held_max);
        if let Some(conditions) = conditions {
            settings.conditions = conditions;
        }
        if let Some(budget) = budget {
            settings.budget = budget;
        }
        settings.memory = memory;
        Ok(settings)
    }

    /// The settings of `profile` before the environment's overrides, with held sizes up
    /// to `held_max` (`PQLAB_HELD_MAX`, when set).
    pub(crate) fn of(
        profile: Profile,
        results: PathBuf,
        maps: Option<PathBuf>,
        held_max: Option<usize>,
    ) -> Settings {
        match profile {
            Profile::Default => Settings {
                profile,
                results_dir: results,
                maps,
                budget: Duration::from_secs(600),
                maps_budget: Duration::from_secs(20 * 60),
                sample: profile.sample(),
                min_rounds: 2,
                max_rounds: 25,
                slowdown: profile.slowdown(),
                floor: profile.floor(),
                synthetic_sizes: std::iter::successors(Some(10), |s| Some(s * 10))
                    .take_while(|s| *s <= held_max.unwrap_or(DEFAULT_HELD_MAX))
                    .collect(),
                memory: MEMORY_CAP,
                conditions: "plain".into(),
            },
            Profile::Quick => Settings {
                profile,
                results_dir: results.join("quick"),
                maps,
                budget: Duration::from_secs(60),
                maps_budget: Duration::from_secs(120),
                sample: profile.sample(),
                min_rounds: 3,
                max_rounds: 5,
                slowdown: profile.slowdown(),
                floor: profile.floor(),
                // Its three sizes up to `held_max`, and `held_max` itself past them: a
                // size asked for with `PQLAB_HELD_MAX` is held, never capped silently.
                synthetic_sizes: [10, 1_000, 100_000]
                    .into_iter()
                    .filter(|s| held_max.is_none_or(|max| *s <= max))
                    .chain(held_max.filter(|max| *max > 100_000))
                    .collect(),
                memory: MEMORY_CAP,
                conditions: "plain".into(),
            },
        }
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

/// Where a run writes: `named` (`PQLAB_RESULTS`; a relative path from the `checkout`'s
/// root, where the README's commands are typed, or from `here` outside one), else the
/// checkout's `results/local/`. Outside a checkout with no folder named it is an error,
/// never the checkout the lab was built in.
fn results_folder(
    checkout: Option<&Path>,
    here: &Path,
    named: Option<PathBuf>,
) -> Result<PathBuf, SettingsError> {
    match (named, checkout) {
        (Some(path), _) if path.is_absolute() => Ok(path),
        (Some(path), root) => Ok(root.unwrap_or(here).join(path)),
        (None, Some(root)) => Ok(root.join("results").join(crate::results::location::LOCAL)),
        (None, None) => Err(SettingsError {
            variable: "PQLAB_RESULTS",
            value: String::new(),
            expected: "a folder for the run's results: the working directory is not inside a \
                       pqlab checkout (run the bench in one, or name a folder)",
        }),
    }
}

/// The memory limit `PQLAB_MEMORY` sets ([`Settings::memory`], and what `pick --trace` may
/// hold), or its default: half the available memory, at most 1 GiB. A limit above the
/// machine's physical memory is refused: nothing could keep it.
pub fn memory_limit() -> Result<usize, SettingsError> {
    let value = std::env::var("PQLAB_MEMORY").ok().filter(|v| !v.is_empty());
    let Some(value) = value else {
        return Ok(meminfo("MemAvailable:")
            .map_or(MEMORY_CAP, |available| (available / 2).min(MEMORY_CAP)));
    };
    let bytes = parse::memory(&value)?;
    match meminfo("MemTotal:") {
        Some(total) if bytes > total => Err(SettingsError {
            variable: "PQLAB_MEMORY",
            value,
            expected: "expected at most the machine's physical memory (MemTotal in /proc/meminfo)",
        }),
        _ => Ok(bytes),
    }
}

/// A figure of Linux's `/proc/meminfo` in bytes (`field` is `MemAvailable:` or
/// `MemTotal:`), or `None` where it cannot be read.
fn meminfo(field: &str) -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with(field))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_run_outside_a_checkout_writes_only_where_it_is_told() {
        let (root, here) = (Path::new("/c"), Path::new("/w"));
        let local = root.join("results").join(crate::results::location::LOCAL);
        assert_eq!(results_folder(Some(root), here, None).unwrap(), local);
        assert_eq!(results_folder(Some(root), here, Some("r".into())).unwrap(), root.join("r"));
        assert_eq!(results_folder(None, here, Some("r".into())).unwrap(), here.join("r"));
        assert_eq!(results_folder(None, here, Some("/a".into())).unwrap(), Path::new("/a"));
        let refused = results_folder(None, here, None).unwrap_err();
        assert_eq!(refused.variable, "PQLAB_RESULTS");
        assert!(refused.to_string().contains("not inside a pqlab checkout"), "{refused}");
    }

    use super::*;

    #[test]
    fn bad_values_are_errors_naming_the_variable_and_the_value() {
        for bad in ["1e20", "abc", "0", "-5", "nan", "inf", "false", "2G"] {
            let e = parse::budget(bad).unwrap_err();
            assert_eq!((e.variable, e.value.as_str()), ("PQLAB_BUDGET", bad));
            assert!(e.to_string().starts_with(&format!("PQLAB_BUDGET=\"{bad}\"")), "{e}");
        }
        for bad in ["false", "true", "yes", "2", "abc", "-5"] {
            assert_eq!(parse::quick(bad).unwrap_err().variable, "PQLAB_QUICK", "{bad}");
        }
        for bad in ["abc", "0", "-5", "nan", "inf", "2T", "G", "1k", "1e30G"] {
            assert_eq!(parse::memory(bad).unwrap_err().variable, "PQLAB_MEMORY", "{bad}");
        }
        for bad in ["abc", "0", "1", "-5", "nan", "5000", "1e9", "10M", "1.5e7", "false"] {
            assert_eq!(parse::held_max(bad).unwrap_err().variable, "PQLAB_HELD_MAX", "{bad}");
        }
    }

    #[test]
    fn good_values_are_read() {
        assert_eq!(parse::budget("600"), Ok(Duration::from_secs(600)));
        assert_eq!(parse::budget("1e3"), Ok(Duration::from_secs(1000)));
        assert_eq!(parse::budget("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse::quick("1"), Ok(Profile::Quick));
        assert_eq!(parse::quick("0"), Ok(Profile::Default));
        assert_eq!(parse::memory("2G"), Ok(2 << 30));
        assert_eq!(parse::memory("512M"), Ok(512 << 20));
        assert_eq!(parse::memory("1.5g"), Ok(3 << 29));
        assert_eq!(parse::memory("1048576"), Ok(1 << 20));
        assert_eq!(parse::memory("4096k"), Ok(4 << 20));
        assert_eq!(parse::held_max("1e7"), Ok(10_000_000));
        assert_eq!(parse::held_max("10000000"), Ok(10_000_000));
        assert_eq!(parse::held_max("10"), Ok(10));
        assert_eq!(parse::held_max("1e8"), Ok(100_000_000));
    }

    #[test]
    fn held_sizes_stop_at_the_largest_asked_for() {
        let sizes =
            |profile, max| Settings::of(profile, PathBuf::new(), None, Some(max)).synthetic_sizes;
        assert_eq!(
            sizes(Profile::Default, DEFAULT_HELD_MAX),
            [10, 100, 1_000, 10_000, 100_000, 1_000_000]
        );
        assert_eq!(sizes(Profile::Default, 10_000_000).last(), Some(&10_000_000));
        assert_eq!(sizes(Profile::Quick, 1_000), [10, 1_000]);
        // Asked for past the quick sizes, held all the same; not asked for, the three.
        assert_eq!(sizes(Profile::Quick, 10_000_000), [10, 1_000, 100_000, 10_000_000]);
        let unset = Settings::of(Profile::Quick, PathBuf::new(), None, None).synthetic_sizes;
        assert_eq!(unset, [10, 1_000, 100_000]);
    }
}
