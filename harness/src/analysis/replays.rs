//! How far the queue alone stands for the whole search: on each replayed workload of a run
//! (the same searches timed whole, kind `astar`, and replayed as a trace against each queue
//! alone, kind `replay`), whether the replay's winner is in the whole searches' tie group.
//! A replay times the queue without the search around it (no successor generation, no
//! per-cell state, no heuristic), so the cache and branch behaviour it sees is not the
//! search's; this share says how often that changes the answer. `pqlab pick --trace`
//! answers from a replay alone and cites it.

use super::bands::Eligible;
use super::findings::Findings;
use super::rank::tie_group;
use crate::format::plural;
use crate::results::Kind;

/// The replayed workloads of one run, each with its replay winner and whether that winner is
/// in the whole searches' tie group.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    /// The run.
    pub run: String,
    /// Per replayed workload with both rankings, in the run's order: `(workload, replay
    /// winner, in the group)`.
    pub specs: Vec<(String, String, bool)>,
}

impl Agreement {
    /// The workloads whose replay winner is in the whole searches' tie group.
    pub fn inside(&self) -> usize {
        self.specs.iter().filter(|(_, _, inside)| *inside).count()
    }

    /// One sentence with the figure.
    pub fn sentence(&self) -> String {
        format!(
            "A replay times the queue alone, without the search around it: on the {} of run {}, the queue fastest on the replayed trace was in the whole searches' tie group on {} of {}.",
            plural(self.specs.len(), "replayed workload"),
            self.run,
            self.inside(),
            self.specs.len()
        )
    }
}

/// The agreement of the run's replays with its whole searches, over the exact queues;
/// `None` when no replayed workload has both rankings.
pub fn agreement(findings: &Findings<'_, '_>) -> Option<Agreement> {
    let run = findings.run;
    let specs: Vec<(String, String, bool)> = run
        .of(Kind::Replay)
        .filter_map(|replayed| {
            let searched = run.twin(replayed, Kind::Astar)?;
            let replay = findings.rank(&[replayed], Eligible::Exact);
            let winner = tie_group(&replay).next()?.queue;
            let whole = findings.rank(&[searched], Eligible::Exact);
            tie_group(&whole).next()?;
            let inside = tie_group(&whole).any(|s| s.queue == winner);
            Some((replayed.name.to_owned(), winner.to_owned(), inside))
        })
        .collect();
    (!specs.is_empty()).then(|| Agreement { run: run.run_id(), specs })
}

#[cfg(test)]
mod tests {
    use pqlab_queues::registry::BASELINE;

    use super::*;
    use crate::analysis::fixture::{octile, steadies};
    use crate::analysis::Run;
    use crate::lab::rows::WorkloadFacts;
    use crate::results::Unit;

    fn replayed(name: &str) -> WorkloadFacts {
        WorkloadFacts { kind: Kind::Replay, unit: Unit::Op, ..octile(name) }
    }

    #[test]
    fn a_replay_winner_counts_when_it_is_in_the_whole_searches_tie_group() {
        let (bucket, unsorted) = ("bucket-queue-dup", "unsorted-array-dup");
        let mut rows = Vec::new();
        // `near`: the bucket queue wins the replay and ties the whole searches (1.5%).
        rows.extend(steadies(&octile("near"), 100.0, &[(BASELINE, 101.5), (bucket, 100.0)]));
        rows.extend(steadies(&replayed("near"), 100.0, &[(BASELINE, 12.0), (bucket, 10.0)]));
        // `far`: it wins the replay, but the baseline wins the whole searches by 50%.
        rows.extend(steadies(&octile("far"), 100.0, &[(BASELINE, 100.0), (bucket, 150.0)]));
        rows.extend(steadies(&replayed("far"), 100.0, &[(BASELINE, 10.0), (bucket, 5.0)]));
        // `alone`: a replay without whole searches says nothing.
        rows.extend(steadies(&replayed("alone"), 100.0, &[(unsorted, 1.0)]));
        let run = Run::new(&rows);
        let agreement = agreement(&Findings::of(&run)).expect("two replayed workloads");
        let mut specs = agreement.specs.clone();
        specs.sort();
        assert_eq!(
            specs,
            [("far".into(), bucket.into(), false), ("near".into(), bucket.into(), true)]
        );
        assert_eq!(agreement.inside(), 1);
        assert!(agreement.sentence().contains("on the 2 replayed workloads of run"));
        assert!(agreement.sentence().ends_with("tie group on 1 of 2."));

        let searches_only: Vec<_> = rows.into_iter().filter(|r| r.kind == Kind::Astar).collect();
        assert_eq!(agreement_of(&searches_only), None);
    }

    fn agreement_of(rows: &[crate::results::Row]) -> Option<Agreement> {
        agreement(&Findings::of(&Run::new(rows)))
    }
}
