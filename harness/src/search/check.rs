//! Checking a search's answer: exact searches against the expected cost, the others (an
//! approximate frontier, an inconsistent heuristic) for a valid path no cheaper than the
//! optimum, with how much longer it is.

use crate::maps::grid::{CostScale, Grid};
use crate::maps::moves::{for_each_move, Direction, Moves};
use crate::maps::scenario::{describe_cost, Expected};

/// What a checked answer is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Checked {
    /// The expected answer.
    Optimal,
    /// A valid path this much longer than optimal (0.02 = 2%); only allowed when the
    /// search is not required to be exact.
    Longer(f64),
}

impl Checked {
    /// The excess over the optimum (0 for an optimal answer).
    pub fn excess(self) -> f64 {
        match self {
            Checked::Optimal => 0.0,
            Checked::Longer(excess) => excess,
        }
    }
}

/// Checks `cost` against `expected`. An `exact` search must match it (Moving AI lengths
/// within their printed precision); any other must reach exactly the reachable goals with
/// a cost no below the optimum, and at most `bound` times it when `bound` is given.
/// The error says what was expected and found, in the scenario's units.
pub fn answer(
    expected: Expected,
    cost: Option<u64>,
    scale: CostScale,
    exact: bool,
    bound: Option<f64>,
) -> Result<Checked, String> {
    if expected.accepts(cost, scale) {
        return Ok(Checked::Optimal);
    }
    let wrong =
        || format!("expected {}, found {}", expected.describe(scale), describe_cost(cost, scale));
    let optimum = match (expected, cost) {
        (Expected::Length(length) | Expected::Float(length), Some(_)) => length,
        (Expected::Cost(optimum), Some(_)) => scale.to_units(optimum),
        _ => return Err(wrong()),
    };
    let found = scale.to_units(cost.expect("matched Some above"));
    if exact || found < optimum || optimum <= 0.0 {
        return Err(wrong());
    }
    let ratio = found / optimum;
    if bound.is_some_and(|w| ratio > w * (1.0 + 1e-9)) {
        return Err(format!("{}, over {:.3} times the optimum", wrong(), bound.unwrap_or(1.0)));
    }
    Ok(Checked::Longer(ratio - 1.0))
}

/// The cost of `path` (cells, start first) under `moves`, or `None` if a step is not a
/// legal move.
pub fn path_cost(grid: &Grid, moves: &Moves, path: &[(u32, u32)]) -> Option<u64> {
    let mut total = 0;
    for pair in path.windows(2) {
        let (from, to) = (grid.index(pair[0].0, pair[0].1), grid.index(pair[1].0, pair[1].1));
        let mut step = None;
        for_each_move(grid, moves, Direction::Forward, from, |m| {
            if m.cell == to {
                step = Some(m.cost);
            }
        });
        total += step?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_answers_match_and_others_may_be_longer_not_shorter() {
        let scale = CostScale::COARSE;
        let cost = Expected::Cost(100);
        assert_eq!(answer(cost, Some(100), scale, true, None), Ok(Checked::Optimal));
        assert_eq!(
            answer(cost, Some(110), scale, true, None),
            Err("expected length 10.0000, found length 11.0000".into())
        );
        let longer = answer(cost, Some(110), scale, false, None).unwrap();
        assert!((longer.excess() - 0.1).abs() < 1e-9, "{longer:?}");
        assert!(answer(cost, Some(90), scale, false, None).is_err(), "shorter than optimal");
        assert!(answer(cost, Some(160), scale, false, Some(1.5)).is_err(), "over the bound");
        assert!(answer(cost, None, scale, false, None).is_err());
        assert_eq!(
            answer(Expected::Unreachable, Some(5), scale, false, None),
            Err("expected no path, found length 0.5000".into())
        );
        let length = Expected::Length(9.5);
        let fine = CostScale::FINE;
        let nine_and_a_half = (9.5 * f64::from(fine.straight)) as u64;
        assert_eq!(answer(length, Some(nine_and_a_half), fine, true, None), Ok(Checked::Optimal));
    }
}
