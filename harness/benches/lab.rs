//! `cargo bench`: the whole lab. Every queue on every built-in workload (and every Moving AI
//! map under `PQLAB_MAPS`), checked then timed interleaved; the queue alone on traces and
//! on the synthetic workload; the peers and the oracle; the rows saved as each workload
//! ends, then the run under `results/local/runs/` and its report in
//! `results/local/report/` (`PQLAB_RESULTS=results cargo bench` makes a committed run:
//! `results/runs/`, `results/report/` and the README's summary).
//!
//! Run: `cargo bench` (within 15 minutes on 2 cores from a fresh clone), `PQLAB_QUICK=1
//! cargo bench` (the smoke profile, under 2 minutes once built, results under
//! `results/local/quick/`), `PQLAB_MAPS=../shared/movingai cargo bench` to add the Moving AI
//! maps (about 40 minutes; up to 60 allowed). Arguments that are not options filter the workloads by name
//! (`cargo bench -- rooms`, `cargo bench -- held` for the synthetic sizes): a filtered run
//! is saved as a partial run, with no report, and a filter that matches nothing is an error;
//! `cargo bench -- held-1000000` selects one held size; a bad `PQLAB_*` value stops it with
//! exit status 2;
//! `cargo bench -- --list` lists them.

use anyhow::Result;
use pqlab::lab;

/// Counts the heap memory each queue holds at the held sizes (`lab::memory`).
#[global_allocator]
static ALLOCATOR: lab::memory::Counting = lab::memory::Counting;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    pqlab::commands::bench::run(&args)
}
