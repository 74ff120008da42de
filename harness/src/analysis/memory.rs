//! The memory figures, computed once for the report's chart and `pick`'s answer: entries
//! held per open cell of a search, and heap bytes per entry at one held size.

use super::{Run, Workload};
use crate::results::{Kind, Row};

/// The largest held size whose bytes per entry are quoted: large enough that fixed costs
/// vanish, small enough to be measured on every machine.
pub const BYTES_HELD_MAX: f64 = 1e6;

/// The held workload whose bytes per entry the report charts and `pick` quotes: the
/// largest `run` held up to [`BYTES_HELD_MAX`].
pub fn bytes_workload<'w, 'a>(run: &'w Run<'a>) -> Option<&'w Workload<'a>> {
    run.of(Kind::Synthetic).filter(|w| w.size <= BYTES_HELD_MAX).last()
}

/// Heap bytes per entry `queue` allocated at [`bytes_workload`], where it counted them.
pub fn bytes_per_entry(run: &Run<'_>, queue: &str) -> Option<f64> {
    bytes_workload(run)?.ok(queue)?.bytes_per_entry.filter(|b| *b > 0.0)
}

/// The most entries a search held over the most cells open at once (1 for decrease-key
/// queues; above it, duplicates' stale entries); `None` where nothing was open.
pub fn entries_per_open(row: &Row) -> Option<f64> {
    (row.max_open > 0.0).then(|| row.max_frontier / row.max_open)
}

#[cfg(test)]
mod tests {
    use pqlab_queues::registry::BASELINE;

    use super::*;
    use crate::analysis::fixture::{held, octile, steady};

    /// Bytes per entry are read at the largest held size up to 10⁶, not past it, and only
    /// where the queue counted them; entries per open cell need an open cell.
    #[test]
    fn bytes_come_from_the_largest_held_size_quoted_and_entries_from_open_cells() {
        let mut rows = Vec::new();
        for (size, bytes) in [(1e3, 40.0), (1e6, 24.0), (1e7, 16.0)] {
            let mut row = steady(&held(size), BASELINE, size, 100.0);
            row.bytes_per_entry = Some(bytes);
            rows.push(row);
        }
        let mut uncounted = steady(&held(1e6), "sorted-array-dk", 1e6, 100.0);
        uncounted.bytes_per_entry = None;
        rows.push(uncounted);
        let run = Run::new(&rows);
        assert_eq!(bytes_workload(&run).map(|w| w.size), Some(1e6));
        assert_eq!(bytes_per_entry(&run, BASELINE), Some(24.0));
        assert_eq!(bytes_per_entry(&run, "sorted-array-dk"), None);

        let mut searched = steady(&octile("a"), BASELINE, 100.0, 100.0);
        (searched.max_frontier, searched.max_open) = (150.0, 100.0);
        assert_eq!(entries_per_open(&searched), Some(1.5));
        searched.max_open = 0.0;
        assert_eq!(entries_per_open(&searched), None);
    }
}
