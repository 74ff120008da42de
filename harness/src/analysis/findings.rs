//! A run analysed once: what the report, its charts, `pqlab pick` and `pqlab diff` show.
//!
//! Every figure these readers share is computed here, at most once per run, and then
//! read: the band rankings of each series (the bootstraps behind tie groups are the
//! analysis's dearest step), each workload's own ranking and the noise check. A chart, a
//! table and a verdict that show one number therefore show the same one. Each is computed
//! on first use, so a reader that needs one answer (`pick`) pays for that answer alone.
//! The verdicts read these figures ([`crate::analysis::verdicts`]); a reader that shows
//! them decides them once and keeps them (the report's context, `diff`).

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use pqlab_queues::registry::ENTRIES;
use pqlab_queues::Strategy;

use crate::analysis::bands::{self, Band, BandRanking, Eligible};

use crate::analysis::noise::{self, Noise};
use crate::analysis::rank::{self, rank, Standing};
use crate::analysis::trades::{self, Trade};
use crate::analysis::{Run, Workload};
use crate::results::{Kind, Row, Spread, ORACLE};
use crate::search::Series;

/// The indexed binary heap with decrease-key: the seeds' alternative to a library heap with
/// duplicates.
pub const INDEXED_BINARY_HEAP: &str = "dary2-dk";

/// A set of workloads ranked under one eligibility rule: the workloads by their index in
/// [`Run::workloads`], in the order given.
type RankingKey = (Vec<usize>, Eligible);

/// The analysis of one run. Computing it costs nothing until a figure is asked for.
pub struct Findings<'w, 'a> {
    /// The run analysed.
    pub run: &'w Run<'a>,
    rankings: RefCell<HashMap<RankingKey, Rc<[Standing<'a>]>>>,
    noise: OnceCell<Option<Noise>>,
    peers: OnceCell<Vec<Against<'a>>>,
    floors: OnceCell<Vec<Against<'a>>>,
    trades: OnceCell<Vec<Trade<'a>>>,
}

/// One contender's time over another's on one workload, timed in the same rounds: a
/// peer crate's A\* over pqlab's with the baseline, or the fastest exact queue over the
/// oracle floor.
#[derive(Clone, Debug)]
pub struct Against<'a> {
    /// The contender: the peer's id, or the fastest queue's.
    pub id: &'a str,
    /// The frontier size of the searches.
    pub size: f64,
    /// The contender's row.
    pub row: &'a Row,
    /// The row it is divided by: pqlab's A\* with the baseline, or the oracle's.
    pub by: &'a Row,
}

impl Against<'_> {
    /// The ratio of the medians.
    pub fn ratio(&self) -> f64 {
        self.row.median_ns / self.by.median_ns
    }
}

/// How much of a search a queue's frontier takes ([`Findings::frontier_share`]).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FrontierShare {
    /// `1 −` the oracle floor's time ÷ the queue's (0.25: a quarter of the search), between
    /// the ends of its 95% interval (the bootstrap of [`rank::versus_timings`]).
    pub share: Spread,
    /// The workloads with an oracle row it is over.
    pub workloads: usize,
    /// The workloads where the queue was measured but no oracle row was: left out.
    pub without_oracle: usize,
}

impl<'w, 'a> Findings<'w, 'a> {
    /// The findings of `run`, none computed yet.
    pub fn of(run: &'w Run<'a>) -> Findings<'w, 'a> {
        Findings {
            run,
            rankings: RefCell::default(),
            noise: OnceCell::new(),
            peers: OnceCell::new(),
            floors: OnceCell::new(),
            trades: OnceCell::new(),
        }
    }

    /// The ranking of the queues `eligible` admits over `workloads` (workloads of this
    /// run), computed once per set of workloads and rule.
    pub fn rank(&self, workloads: &[&Workload<'a>], eligible: Eligible) -> Rc<[Standing<'a>]> {
        let key = (workloads.iter().map(|w| self.index(w)).collect(), eligible);
        if let Some(found) = self.rankings.borrow().get(&key) {
            return Rc::clone(found);
        }
        let standings: Rc<[Standing<'a>]> = rank(workloads, |row| eligible.admits(row)).into();
        self.rankings.borrow_mut().insert(key, Rc::clone(&standings));
        standings
    }

    /// The ranking of `selection`'s queues that `eligible` admits in every band the
    /// series or the held sizes reached, smallest first, each band's evidence chosen by
    /// [`bands::evidence`] (bands answered by a nearer band's searches are left out: they
    /// are that band's ranking).
    pub fn bands(&self, selection: &Series, eligible: Eligible) -> Vec<BandRanking<'w, 'a>> {
        Band::all()
            .filter_map(|band| {
                let evidence = bands::evidence(self.run, selection, band)?;
                if evidence.band != band {
                    return None;
                }
                let standings = self.rank(&evidence.workloads, eligible).to_vec();
                (!standings.is_empty()).then_some(BandRanking { evidence, standings })
            })
            .collect()
    }

    /// The run's noise, when it has a sentinel.
    pub fn noise(&self) -> Option<&Noise> {
        self.noise.get_or_init(|| noise::noise(self.run)).as_ref()
    }

    /// Every peer crate's A\* against pqlab's A\* with the baseline, on each workload where
    /// both were measured (peer workloads are the same problems as their A\* twin's).
    pub fn peers(&self) -> &[Against<'a>] {
        self.peers.get_or_init(|| {
            let run = self.run;
            let mut found = Vec::new();
            for peers in run.of(Kind::Peer) {
                let Some(searched) = run.twin(peers, Kind::Astar) else { continue };
                let Some(by) = searched.ok(pqlab_queues::registry::BASELINE) else { continue };
                for &id in peers.rows.keys() {
                    if let Some(row) = peers.ok(id) {
                        found.push(Against { id, size: searched.size, row, by });
                    }
                }
            }
            found
        })
    }

    /// The fastest exact queue against the oracle floor (the same A\* replaying a recorded
    /// order, a frontier that costs nothing), on each octile A\* workload (fine costs, the
    /// flat store) with an oracle row: the floor the lab's goals for a queue are stated over.
    pub fn floors(&self) -> &[Against<'a>] {
        self.floors.get_or_init(|| {
            let run = self.run;
            run.of(Kind::Oracle)
                .filter_map(|oracle| {
                    let searched = run.twin(oracle, Kind::Astar)?;
                    if !Series::OCTILE.admits(searched) {
                        return None;
                    }
                    let row = searched.fastest(bands::exact)?;
                    let by = oracle.ok(ORACLE)?;
                    Some(Against { id: &row.queue, size: searched.size, row, by })
                })
                .collect()
        })
    }

    /// The share of the searches of `workloads` that `queue`'s frontier takes: `1 −` the
    /// weighted geometric mean, over the workloads with an oracle row where `queue` was
    /// measured, of the oracle floor's time ÷ the queue's (the oracle is the same A\*
    /// replaying the baseline's pops with a frontier that costs nothing), with its interval.
    /// `None` where no workload has both. What a faster queue can save at most is this share.
    pub fn frontier_share(
        &self,
        workloads: &[(&Workload<'_>, f64)],
        queue: &str,
    ) -> Option<FrontierShare> {
        let run = self.run;
        let measured =
            || workloads.iter().filter(|&&(w, weight)| weight > 0.0 && w.ok(queue).is_some());
        let pairs: Vec<_> = measured()
            .filter_map(|&(workload, weight)| {
                let oracle = run.twin(workload, Kind::Oracle)?.timing(ORACLE)?;
                let timed = workload.timing(queue)?;
                (!oracle.censored).then_some((oracle, timed, weight))
            })
            .collect();
        let ratio = rank::versus_timings(&pairs, ORACLE, queue)?.ratio;
        Some(FrontierShare {
            share: Spread { low: 1.0 - ratio.high, mid: 1.0 - ratio.mid, high: 1.0 - ratio.low },
            workloads: pairs.len(),
            without_oracle: measured().count() - pairs.len(),
        })
    }

    /// Every way of trading path length for time the run measured (soft heaps, weighted
    /// A\*), against exact octile A\* with the baseline ([`trades::trades`]).
    pub fn trades(&self) -> &[Trade<'a>] {
        self.trades.get_or_init(|| trades::trades(self.run))
    }

    /// `(structure, dup id, dk id)` for every registered structure built both ways that the
    /// run measures, from the registry's facts, sorted.
    pub fn strategy_pairs(&self) -> Vec<(String, String, String)> {
        let present = |id: &str| self.run.rows.iter().any(|r| r.queue == id);
        let mut pairs: Vec<(String, String, String)> = ENTRIES
            .iter()
            .filter(|e| e.strategy == Strategy::Duplicates && present(e.id))
            .filter_map(|dup| {
                let dk = ENTRIES.iter().find(|e| {
                    e.strategy == Strategy::DecreaseKey
                        && e.structure() == dup.structure()
                        && present(e.id)
                })?;
                Some((dup.structure().to_owned(), dup.id.to_owned(), dk.id.to_owned()))
            })
            .collect();
        pairs.sort();
        pairs
    }

    /// The index of `workload` in the run (workloads are told apart by kind and name).
    fn index(&self, workload: &Workload<'_>) -> usize {
        self.run
            .workloads
            .iter()
            .position(|w| w.kind == workload.kind && w.name == workload.name)
            .expect("a workload of the run analysed")
    }
}
