//! Problems (start, goal, expected answer) and the tolerance rule used to check them.

use crate::maps::grid::CostScale;

/// What a problem's answer must be.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Expected {
    /// A Moving AI optimal length in straight-step units, printed with limited precision:
    /// compared within 0.005 absolute or 1e-5 relative, whichever is larger.
    Length(f64),
    /// An exact cost in the map's cost scale (from the built-in generators' reference
    /// Dijkstra).
    Cost(u64),
    /// A float cost in units (`cost / scale.straight`), from a reference Dijkstra that
    /// summed `f64` edge costs (road graphs' float costs). A float search's answer is
    /// reported rounded to the scale, so it is accepted within half a step of the scale
    /// (that rounding: 2⁻¹⁷ length units on roads, about 10⁻⁶ of a path's cost on the
    /// smallest road graphs) plus [`Expected::FLOAT_TOLERANCE`] relative (the search and
    /// the reference add up the path's edges in their own order, each sum within about
    /// `edges × 2⁻⁵³` relative of the exact one). A path costlier than the optimum by
    /// less than that would pass: the integer road workloads, checked exactly, catch those.
    Float(f64),
    /// No path exists (start and goal in different components).
    Unreachable,
}

impl Expected {
    /// The relative tolerance of [`Expected::Float`] answers. A bound, not a measurement: far
    /// above the two sums' rounding (`edges × 2⁻⁵³` relative, about 10⁻¹⁰ at a million
    /// edges).
    pub const FLOAT_TOLERANCE: f64 = 1e-9;

    /// The expected answer in the scenario's units: a length in straight steps (`9.5`),
    /// an exact cost converted with `scale`, or `no path`.
    pub fn describe(self, scale: CostScale) -> String {
        match self {
            Expected::Length(length) => format!("length {length}"),
            Expected::Cost(cost) => format!("length {:.4}", scale.to_units(cost)),
            Expected::Float(cost) => format!("length {cost:.6}"),
            Expected::Unreachable => "no path".into(),
        }
    }

    /// Whether a search's answer (`None` = no path) matches, for costs in `scale`.
    pub fn accepts(self, cost: Option<u64>, scale: CostScale) -> bool {
        match (self, cost) {
            (Expected::Unreachable, None) => true,
            (Expected::Cost(expected), Some(cost)) => expected == cost,
            (Expected::Length(expected), Some(cost)) => {
                let found = scale.to_units(cost);
                (found - expected).abs() <= (0.005f64).max(1e-5 * expected)
            }
            (Expected::Float(expected), Some(cost)) => {
                let found = scale.to_units(cost);
                let half_step = 0.5 / f64::from(scale.straight);
                (found - expected).abs() <= Self::FLOAT_TOLERANCE * expected + half_step
            }
            _ => false,
        }
    }
}

/// A search's answer in a scenario's units: `length 9.5000` or `no path`.
pub fn describe_cost(cost: Option<u64>, scale: CostScale) -> String {
    match cost {
        Some(cost) => format!("length {:.4}", scale.to_units(cost)),
        None => "no path".into(),
    }
}

/// One start/goal problem on a map.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    /// The Moving AI bucket (about length / 4); generated problems use the same rule.
    pub bucket: u32,
    /// Start cell `(x, y)`.
    pub start: (u32, u32),
    /// Goal cell `(x, y)`.
    pub goal: (u32, u32),
    /// The answer the search must give.
    pub expected: Expected,
    /// The problem's 1-based line in its scenario file; 0 for generated problems.
    pub line: u32,
}
