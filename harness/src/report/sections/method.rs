//! How it was measured.

use std::collections::BTreeSet;

use crate::analysis::bands::Band;
use crate::analysis::rank::{execution_floor, TIE_MARGIN};
use crate::format::{count, ratio};
use crate::report::page::Block;
use crate::report::Context;
use crate::results::{Kind, Status};

pub fn section(ctx: &Context<'_>) -> Vec<Block> {
    let run = ctx.run;
    let kinds: BTreeSet<&str> = run.rows.iter().map(|r| r.kind.name()).collect();
    let rounds: Vec<f64> = run
        .rows
        .iter()
        .filter(|r| r.status == Status::Ok && r.kind == Kind::Astar)
        .map(|r| f64::from(r.samples))
        .collect();
    let (lo, hi) =
        rounds.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let timed = run.rows.iter().filter(|r| r.status == Status::Ok);
    let retimed: u32 = timed.clone().map(|r| r.retimed).sum();
    let slices = timed.clone().map(|r| r.samples as u64).sum::<u64>() + u64::from(retimed);
    let raced = timed.filter(|r| r.kind == Kind::Astar && r.raced).count();
    vec![
        Block::Heading(2, "How it was measured".into()),
        Block::List(vec![
            "Every answer is checked before it is timed: each queue solves every problem once, untimed; a wrong cost fails it on that workload, and approximate queues must return valid paths no shorter than optimal (their excess is recorded).".into(),
            format!(
                "Paired slices: on each workload every contender (queue, peer, oracle) is timed once a round, each round in a fresh random order, in slices of about 5 ms; the baseline, the workload's reference, is timed between every {} slices, and each slice counts as its time ÷ the reference slices just before and after it, times the reference's median slice on the workload, so that a change of the machine's speed lasting longer than a bracket cancels (the paired, finely interleaved design of rebar and of Kalibera and Jones, “Rigorous Benchmarking in Reasonable Time”, ISMM 2013). A bracket whose two reference slices are more than {:.0}% apart saw the speed change inside it: its slices are timed again, up to {} times ({} of this run's {} slices). Each slice runs on its contender's state built anew just before it, outside the clock, moved in memory by up to {} KiB: the reference carries every ratio of its workload, and its level is then a median over dozens of placements, never one placement's luck. This run's A* workloads took {}–{} rounds.",
                crate::lab::sampler::REFERENCE_EVERY,
                (crate::lab::sampler::JUMP - 1.0) * 100.0,
                crate::lab::sampler::TRIES,
                count(retimed as f64),
                count(slices as f64),
                crate::lab::searches::SHIFT_MAX / 1024,
                if lo.is_finite() { count(lo) } else { "0".into() },
                count(hi)
            ),
            format!(
                "Racing (successive elimination, as F-Race: Birattari et al., GECCO 2002): after the first rounds, a queue whose fastest slice took more than {} the slowest of its heat's leader (a heat: one key rule and one strategy), or from the {}th round on of the workload's leader, stops being timed on that workload, and its rounds go to the queues still in contention; when a workload's share holds no round past the first ones, the race against the workload's leader runs at once and the queues it leaves still get {} rounds; its figures stay as measured, from fewer rounds, marked `raced` in the CSV ({} of this run's {} measured A* rows). Never a cut-off: a raced queue keeps its measured ratio and its interval.",
                ratio(crate::lab::RACE_FACTOR),
                crate::lab::measure::FOCUS_AFTER,
                crate::lab::measure::LEADER_ROUNDS,
                count(raced as f64),
                count(rounds.len() as f64)
            ),
            "Rankings use the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), which excludes the time the thread waited for a core on a busy machine; wall time is recorded beside it.".into(),
            "A sample repeats whole passes over a workload's searches (or a batch of operations) until it lasts about 5 ms; figures are per search or per operation.".into(),
            format!(
                "Tie groups: a queue ties with the best when the 95% bootstrap interval of its time ratio (each workload's paired slices resampled, the same round indices for both queues where both were timed in every round, and each workload's ratio varied by what moves it between runs beyond what one run's slices show: the executions level of Kalibera and Jones: {:.1}% here in a search and {:.1}% for the queue alone, each the larger of its floor, {:.1}% and {:.0}%, measured on four pairs of committed runs, and this run's own slice noise) reaches {} or less. The slices' ratios carry what varies between slow and fast periods and between rounds; a workload's problems are the same in every round and every run, so its interval is over them as a whole, and a band's is over its workloads.",
                ctx.run.execution_spread(Kind::Astar) * 100.0,
                ctx.run.execution_spread(Kind::Synthetic) * 100.0,
                execution_floor(Kind::Astar) * 100.0,
                execution_floor(Kind::Synthetic) * 100.0,
                ratio(TIE_MARGIN)
            ),
            format!(
                "The run's noise, stated in the provenance above (and at the top when it could change the answers): the baseline is re-measured on one fixed workload through the run (the sentinel; its drift, from the 10th to the 90th percentile of its medians, says how much the machine's speed moved), and the reference slices say how much of each workload's time fell in slow periods. A run is quiet when neither moved; busy when they moved but the pairing cancelled it (the paired samples spread no more than twice the tie margin, and the reference's own slices, each over its neighbours, spread no more than {:.1}%: what the pairing leaves); noisy otherwise.",
                crate::analysis::noise::RESIDUAL_LIMIT * 100.0
            ),
            format!("Kinds of rows in this run: {}.", kinds.into_iter().collect::<Vec<_>>().join(", ")),
            "The lab sizes its rounds from its time budget and its own pace, so a slower machine takes fewer rounds, not more time; queues are cut off only relative to the baseline on the same workload.".into(),
        ]),
        Block::Paragraph(format!("Bands: {}.", Band::all().map(|b| b.label()).collect::<Vec<_>>().join(", "))),
    ]
}
