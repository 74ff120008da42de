//! A map with the problems to solve on it: what the lab, `pqlab validate`, `pqlab run` and
//! `pqlab pick --map` all work on.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::maps::generate::{self, MapSpec};
use crate::maps::grid::Rules;
use crate::maps::grid::{Connectivity, CostScale, Grid};
use crate::maps::scenario::Problem;
use crate::maps::{movingai, TerrainKind};

/// A map and its problems.
#[derive(Clone, Debug)]
pub struct Instance {
    /// How results name it: a generated spec (`rooms-r8-128-s1`) or
    /// `movingai/<set>/<name>`.
    pub name: String,
    /// The map's kind: the generator (`rooms`) or `movingai-<set>`.
    pub kind: String,
    /// Whether it is a real Moving AI map.
    pub real: bool,
    /// The map.
    pub grid: Grid,
    /// The problems.
    pub problems: Vec<Problem>,
    /// The scenario file the problems come from (with their line numbers), if any.
    pub scenario: Option<PathBuf>,
}

/// Which problems of a scenario to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sample {
    /// Every problem.
    All,
    /// At most this many, spread evenly over the scenario, which lists its problems by
    /// length bucket: every bucket is covered in proportion to its problems.
    Spread(usize),
}

impl Sample {
    /// The problems kept.
    pub fn apply(self, problems: Vec<Problem>) -> Vec<Problem> {
        match self {
            Sample::Spread(n) if n < problems.len() => {
                (0..n).map(|i| problems[i * problems.len() / n]).collect()
            }
            _ => problems,
        }
    }
}

impl Instance {
    /// The map's terrain: weighted when its cells carry weights, else a uniform-cost
    /// obstacle grid (every Moving AI map).
    pub fn terrain(&self) -> TerrainKind {
        match self.grid.weights() {
            Some(_) => TerrainKind::Weighted,
            None => TerrainKind::Uniform,
        }
    }

    /// A Moving AI map and its scenario (`MAP.scen` beside it unless `scen` is given),
    /// named `movingai/<set>/<name>` after the folder it sits in and its file name.
    pub fn movingai(map: &Path, scen: Option<&Path>, sample: Sample) -> Result<Instance> {
        let grid = movingai::parse_map(map)?;
        let scen = scen.map_or_else(|| scen_beside(map), Path::to_path_buf);
        let problems = movingai::parse_scen(&scen, &grid)?;
        let (name, kind) = movingai_names(map);
        Ok(Instance {
            name,
            kind,
            real: true,
            grid,
            problems: sample.apply(problems),
            scenario: Some(scen),
        })
    }

    /// A user's map: with its scenario (`scen`, else `MAP.scen` beside it) when there is
    /// one; else a bare map with `sample`'s count (or [`BARE_PROBLEMS`]) random problems,
    /// seeded by [`BARE_SEED`], whose starts and goals share a component and whose exact
    /// costs under `rules` come from the reference Dijkstra ([`generate::problems`]).
    /// A bare map's `scenario` is `None`.
    pub fn user_map(
        map: &Path,
        scen: Option<&Path>,
        sample: Sample,
        rules: Rules,
    ) -> Result<Instance> {
        let beside = scen_beside(map);
        if scen.is_some() || beside.exists() {
            return Instance::movingai(map, scen, sample);
        }
        let grid = movingai::parse_map(map)?;
        let count = match sample {
            Sample::All => BARE_PROBLEMS,
            Sample::Spread(n) => n,
        };
        let problems = generate::problems(&grid, rules.connectivity, rules.scale, count, BARE_SEED);
        anyhow::ensure!(
            !problems.is_empty(),
            "{}: no two open cells are connected, so there is nothing to search (and no {} beside it)",
            map.display(),
            beside.display()
        );
        let (name, kind) = movingai_names(map);
        Ok(Instance { name, kind, real: true, grid, problems, scenario: None })
    }

    /// Whether the problems' expected answers hold under `rules`: a Moving AI scenario's
    /// lengths are for its own rules (8-connected, diagonal √2); generated problems carry
    /// exact costs under the rules they were drawn with.
    pub fn checkable_under(&self, rules: Rules) -> bool {
        self.scenario.is_none() || rules == Rules::default()
    }

    /// A generated map with `count` problems whose exact costs come from the reference
    /// Dijkstra ([`generate::problems`]).
    pub fn generated(
        spec: MapSpec,
        connectivity: Connectivity,
        scale: CostScale,
        count: usize,
    ) -> Instance {
        Instance::drawn(spec, |grid| {
            generate::problems(grid, connectivity, scale, count, spec.seed)
        })
    }

    /// A generated map with the problems `draw` draws on it (with
    /// [`generate::unreachable_problems`], say).
    pub fn drawn(spec: MapSpec, draw: impl FnOnce(&Grid) -> Vec<Problem>) -> Instance {
        let grid = spec.build();
        let problems = draw(&grid);
        Instance {
            name: spec.to_string(),
            kind: spec.kind.name().to_owned(),
            real: false,
            grid,
            problems,
            scenario: None,
        }
    }

    /// Where problem `i` comes from, for messages: `x.map.scen:17`, or `problem 3 of
    /// rooms-r8-128-s1`.
    pub fn locate(&self, i: usize) -> String {
        match (&self.scenario, self.problems.get(i)) {
            (Some(scen), Some(problem)) if problem.line > 0 => {
                format!("{}:{}", scen.display(), problem.line)
            }
            _ => format!("problem {} of {}", i + 1, self.name),
        }
    }
}

/// Random problems drawn on a bare map (one without a scenario) unless a limit is given:
/// the same cap as `pqlab pick --map`'s default, so a bare map costs what a scenario does.
pub const BARE_PROBLEMS: usize = 300;

/// The seed of a bare map's problems: the same map always gets the same problems.
pub const BARE_SEED: u64 = 1;

/// A Moving AI map's name and kind, `movingai/<set>/<name>` and `movingai-<set>`, after
/// the folder it sits in (`dao`, `street`) and its file name.
fn movingai_names(map: &Path) -> (String, String) {
    let set = map
        .parent()
        .and_then(|p| p.file_name())
        .map_or("movingai".into(), |s| s.to_string_lossy().into_owned());
    let stem = map.with_extension("");
    let name = stem.file_name().map_or("map".into(), |s| s.to_string_lossy().into_owned());
    (format!("movingai/{set}/{name}"), format!("movingai-{set}"))
}

/// `MAP.scen`, the scenario file Moving AI puts beside a map.
pub fn scen_beside(map: &Path) -> PathBuf {
    let mut scen = map.as_os_str().to_owned();
    scen.push(".scen");
    PathBuf::from(scen)
}
