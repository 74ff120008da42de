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
    /// No path exists (start and goal in different components).
    Unreachable,
}

impl Expected {
    /// The expected answer in the scenario's units: a length in straight steps (`9.5`),
    /// an exact cost converted with `scale`, or `no path`.
    pub fn describe(self, scale: CostScale) -> String {
        match self {
            Expected::Length(length) => format!("length {length}"),
            Expected::Cost(cost) => format!("length {:.4}", scale.to_units(cost)),
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
