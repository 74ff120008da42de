//! A map with the problems to solve on it: what the lab, `pqlab validate`, `pqlab run` and
//! `pqlab pick --map` all work on.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::maps::generate::{self, MapSpec};
use crate::maps::grid::{Connectivity, CostScale, Grid};
use crate::maps::movingai;
use crate::maps::scenario::Problem;

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
    /// A Moving AI map and its scenario (`MAP.scen` beside it unless `scen` is given),
    /// named `movingai/<set>/<name>` after the folder it sits in and its file name.
    pub fn movingai(map: &Path, scen: Option<&Path>, sample: Sample) -> Result<Instance> {
        let grid = movingai::parse_map(map)?;
        let scen = scen.map_or_else(|| scen_beside(map), Path::to_path_buf);
        let problems = movingai::parse_scen(&scen, &grid)?;
        let stem = map.with_extension("");
        // The set is the folder the map sits in (`dao`, `street`).
        let set = map
            .parent()
            .and_then(|p| p.file_name())
            .map_or("movingai".into(), |s| s.to_string_lossy().into_owned());
        let name = stem.file_name().map_or("map".into(), |s| s.to_string_lossy().into_owned());
        Ok(Instance {
            name: format!("movingai/{set}/{name}"),
            kind: format!("movingai-{set}"),
            real: true,
            grid,
            problems: sample.apply(problems),
            scenario: Some(scen),
        })
    }

    /// A generated map with `count` problems whose exact costs come from the reference
    /// Dijkstra ([`generate::problems`]).
    pub fn generated(
        spec: MapSpec,
        connectivity: Connectivity,
        scale: CostScale,
        count: usize,
    ) -> Instance {
        let grid = spec.build();
        let problems = generate::problems(&grid, connectivity, scale, count, spec.seed);
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

/// `MAP.scen`, the scenario file Moving AI puts beside a map.
pub fn scen_beside(map: &Path) -> PathBuf {
    let mut scen = map.as_os_str().to_owned();
    scen.push(".scen");
    PathBuf::from(scen)
}

/// Every Moving AI map under `dir` with its scenario, as instances, in path order.
pub fn movingai_under(dir: &Path, sample: Sample) -> Result<Vec<Instance>> {
    movingai::find_maps(dir)?
        .into_iter()
        .map(|(map, scen)| {
            Instance::movingai(&map, Some(&scen), sample)
                .with_context(|| format!("loading {}", map.display()))
        })
        .collect()
}
