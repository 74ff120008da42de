//! The queue alone on recorded A* traces: a workload's searches are recorded once per
//! strategy and key rule, personalised to each queue (untimed: see
//! [`Trace::personalize`]) and replayed; a unit is one frontier operation.

use std::time::{Duration, Instant};

use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{Frontier, KeyRule, Spec, Strategy};

use super::sampler::Contender;
use super::searches::{Check, Checking, Untimed};
use crate::search::trace::{replay, Relabels, ReplayError, Trace};

/// The queue whose searches are recorded for queues of `strategy` and key class
/// (`monotone`: keyed by `f` alone, every rule but [`KeyRule::Any`], whose keys fold `g` in):
/// the baseline when it is of that class, else the exact queue of that class with the
/// smallest id. Any exact queue of a class gives traces every queue of
/// the class can follow; the rule only makes the choice explicit.
pub fn recorder(strategy: Strategy, monotone: bool) -> Option<&'static Entry> {
    let matches =
        |e: &&Entry| e.is_exact() && e.strategy == strategy && (e.keys != KeyRule::Any) == monotone;
    let baseline = registry::baseline();
    if matches(&baseline) {
        return Some(baseline);
    }
    registry::ENTRIES.iter().filter(matches).min_by_key(|e| e.id)
}

/// A queue replaying personalised traces: `pass` replays every one. The traces are kept
/// as their [`Relabels`] of the shared ones, and built whole (with the queues) only between
/// [`Contender::renew`] and [`Contender::release`], so that a contender released after its
/// slices holds a few bytes per tie its queue broke otherwise, not a trace of its own.
struct Replays<'a, F> {
    shared: &'a [Trace],
    relabels: Vec<Relabels>,
    built: Option<(Vec<Trace>, Vec<F>)>,
}

impl<F: Frontier> Contender for Replays<'_, F> {
    fn pass(&mut self) -> u64 {
        let (traces, queues) = self.built.get_or_insert_with(|| build(self.shared, &self.relabels));
        queues
            .iter_mut()
            .zip(&*traces)
            .fold(0u64, |sum, (queue, trace)| sum.wrapping_add(replay(queue, trace)))
    }

    /// Builds the traces and queues if [`Contender::release`] freed them; kept ones stay.
    fn renew(&mut self) {
        if self.built.is_none() {
            self.built = Some(build(self.shared, &self.relabels));
        }
    }

    fn release(&mut self) {
        self.built = None;
    }
}

/// The personalised traces from `shared` and their `relabels`, and a queue for each.
fn build<F: Frontier>(shared: &[Trace], relabels: &[Relabels]) -> (Vec<Trace>, Vec<F>) {
    let traces: Vec<Trace> = shared.iter().zip(relabels).map(|(t, r)| r.apply(t)).collect();
    let queues =
        traces.iter().map(|t| F::new(Spec { capacity: t.capacity, span: t.span })).collect();
    (traces, queues)
}

/// Personalises `traces` to a queue and checks it pops their keys; the contender replays
/// them. A queue whose key rule refuses a push is not applicable; one that pops another key
/// has failed.
pub struct CheckReplay<'a> {
    /// The recorded traces of the queue's class.
    pub traces: &'a [Trace],
    /// The longest personalising may take (it replays every trace once).
    pub limit: Duration,
}

impl<'a> Visitor for CheckReplay<'a> {
    type Output = Checking<'a>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Checking<'a> {
        F::available().map_err(|why| Untimed::NotApplicable(why.to_owned()))?;
        let started = Instant::now();
        let mut relabels = Vec::with_capacity(self.traces.len());
        for trace in self.traces {
            let personal = trace.personalize::<F>().map_err(|e| match e {
                // The queue's rule refuses the keys (a trace of another key class).
                ReplayError::Rejected { .. } => {
                    Untimed::NotApplicable(format!("it cannot take the trace's keys: {e}"))
                }
                ReplayError::Diverged { .. } => Untimed::Failed(e.to_string()),
            })?;
            relabels.push(Relabels::between(trace, &personal));
            if started.elapsed() > self.limit {
                return Err(Untimed::cut_off(
                    format!(
                        "one pass over the traces ran over the {:.2} s limit",
                        self.limit.as_secs_f64()
                    ),
                    started.elapsed(),
                ));
            }
        }
        let mut contender = Replays::<F> { shared: self.traces, relabels, built: None };
        contender.renew();
        let pass = started.elapsed();
        Ok(Check {
            contender: Box::new(contender),
            counters: Vec::new(),
            excess: None,
            pass,
            bytes_per_entry: None,
            held_bytes: None,
            parked: false,
        })
    }
}

/// The operations in `traces`: the units of a replay pass.
pub fn operations(traces: &[Trace]) -> u64 {
    traces.iter().map(|t| t.ops.len() as u64).sum()
}
