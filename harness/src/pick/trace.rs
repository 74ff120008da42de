//! `pqlab pick --trace`: from a trace of the user's own search ([`pqlab_queues::trace`]) to
//! a pick.
//!
//! The trace is checked on load (a malformed one names its line or byte offset), summarised,
//! and translated once per strategy ([`Trace::of_user`](crate::search::trace::Trace::of_user)).
//! Every exact queue that the query admits then replays it, timed on demand
//! ([`super::measure::on_trace`]): first a pass that checks it pops the trace's keys in
//! order (ties aside), then interleaved rounds until the winner's tie group holds or the
//! budget is spent, as `pick --map --measure` does. A queue whose key rule refuses the trace's keys is `n/a`
//! with the reason; one that pops another key is a wrong answer (exit status 1).
//!
//! The rule of the evidence: a replay times the queue alone, without the search around it.
//! The answer cites how often that agreed with whole searches on the lab's own replayed
//! workloads ([`crate::analysis::replays`]).

use std::io::{BufReader, Seek, SeekFrom};
use std::path::Path;

use anyhow::{ensure, Context, Result};
use pqlab_queues::registry::Entry;
use pqlab_queues::trace::{LoadError, TraceKeys, UserTrace};
use pqlab_queues::{KeyRule, Strategy};
use serde::Serialize;

use super::{Answer, Keys, Query};
use crate::format::count;
use crate::results::files::open_regular;
use crate::results::Sizes;

/// The most bytes `pick --trace` holds per operation of a trace: the trace (16), its two
/// translations (decrease-key 16; duplicate, with a stale pop per decrease at most, 32
/// with growth's slack 48), and one queue's personalised copy built for its check or its
/// slice (32), with room for the queues' relabelled ties ([`Relabels`](crate::search::trace::Relabels)).
const BYTES_PER_OPERATION: u64 = 160;

/// The most bytes held per node id below the trace's largest: the names a check keeps
/// (8), a queue's tables (up to 16 in two queues at once) and the load's check of the held
/// nodes (a hash map and an ordered set, about 64 a node).
const BYTES_PER_NODE: u64 = 104;

/// Opens and checks the trace at `path` if replaying it fits in `limit` bytes (the lab's
/// memory limit, [`crate::lab::settings::memory_limit`]): the file is refused unless it is a
/// regular file, then its records are counted in one pass that holds nothing, so a trace too
/// large is refused before it is read, naming its estimated memory and the limit; once read,
/// its node ids are counted in. A trace without operations is refused: nothing would be
/// timed.
pub fn load(path: &Path, limit: usize) -> Result<UserTrace> {
    let shown = path.display();
    let mut reader = BufReader::new(open_regular(path)?);
    let records = UserTrace::records(&mut reader).with_context(|| format!("reading {shown}"))?;
    fits(path, records, 0, limit)?;
    reader.seek(SeekFrom::Start(0)).with_context(|| format!("reading {shown}"))?;
    let trace = UserTrace::read(reader)
        .map_err(|error| LoadError::Malformed { path: path.to_owned(), error })?;
    let operations = trace.ops().len() as u64;
    fits(path, operations, trace.facts().capacity as u64, limit)?;
    ensure!(
        operations > 0,
        "{shown}: the trace holds no operations: nothing to replay (record a search into it)"
    );
    Ok(trace)
}

/// Refuses a trace of `operations` over `nodes` node ids whose replay would need more than
/// `limit` bytes.
fn fits(path: &Path, operations: u64, nodes: u64, limit: usize) -> Result<()> {
    let needs = operations
        .saturating_mul(BYTES_PER_OPERATION)
        .saturating_add(nodes.saturating_mul(BYTES_PER_NODE));
    ensure!(
        needs <= limit as u64,
        "{}: replaying {} operations{} needs about {}, above the memory limit of {} (PQLAB_MEMORY; by default half the available memory, at most 1 GiB): split the trace between its clears",
        path.display(),
        count(operations as f64),
        if nodes == 0 { String::new() } else { format!(" over {} node ids", count(nodes as f64)) },
        bytes(needs),
        bytes(limit as u64)
    );
    Ok(())
}

/// `n` bytes in MiB or GiB.
fn bytes(n: u64) -> String {
    if n >= 1 << 30 {
        format!("{:.1} GiB", n as f64 / f64::from(1 << 30))
    } else {
        format!("{:.0} MiB", (n as f64 / f64::from(1 << 20)).ceil())
    }
}

/// What a trace holds: its operations, frontier sizes and keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceSummary {
    /// The trace file.
    pub trace: String,
    /// What its header says of the keys: `monotone` or `any`.
    pub keys: String,
    /// Searches (runs of operations between clears).
    pub searches: usize,
    /// Operations of each kind, and all of them (clears included).
    pub pushes: usize,
    /// `decrease` operations.
    pub decreases: usize,
    /// `pop` operations.
    pub pops: usize,
    /// Every operation.
    pub operations: usize,
    /// The most nodes held at once per search: median, p90, largest.
    pub held: Sizes,
    /// Decreases over pushes and decreases: the share of a duplicate queue's entries that
    /// go stale.
    pub decrease_share: f64,
    /// The largest key minus the floor (the last popped key, or the first pushed).
    pub span: u64,
    /// The span the header declares, if any.
    pub declared_span: Option<u64>,
}

impl TraceSummary {
    /// The profile of `trace`, read from `path`.
    pub fn of(path: &Path, trace: &UserTrace) -> TraceSummary {
        let facts = trace.facts();
        let held: Vec<f64> = facts.most_held.iter().map(|&n| n as f64).collect();
        let entering = facts.pushes + facts.decreases;
        TraceSummary {
            trace: path.display().to_string(),
            keys: trace.keys().to_string(),
            searches: facts.searches,
            pushes: facts.pushes,
            decreases: facts.decreases,
            pops: facts.pops,
            operations: trace.ops().len(),
            held: Sizes::of(&held),
            decrease_share: if entering == 0 {
                0.0
            } else {
                facts.decreases as f64 / entering as f64
            },
            span: facts.span,
            declared_span: trace.declared_span(),
        }
    }

    /// The profile in two lines.
    pub fn describe(&self) -> String {
        format!(
            "{}: {} operations ({} pushes, {} decreases, {} pops) in {}; most nodes held per search: median {}, p90 {}, largest {}.\nDecrease-key share {:.1}% of the keys entering; keys {}, span {}{}.",
            self.trace,
            count(self.operations as f64),
            count(self.pushes as f64),
            count(self.decreases as f64),
            count(self.pops as f64),
            searches(self.searches),
            count(self.held.median),
            count(self.held.p90),
            count(self.held.largest),
            100.0 * self.decrease_share,
            self.keys,
            count(self.span as f64),
            self.declared_span.map_or(String::new(), |s| format!(" (declared {})", count(s as f64)))
        )
    }
}

/// `n` searches, in words.
pub(super) fn searches(n: usize) -> String {
    if n == 1 {
        "1 search".into()
    } else {
        format!("{} searches", count(n as f64))
    }
}

/// `pick --trace`'s answer, and the queues that popped the trace's keys out of order.
pub struct Replayed {
    /// The answer.
    pub answer: Answer,
    /// `queue: what it popped`, one a queue that failed its check.
    pub wrong: Vec<String>,
}

/// Why a registered queue does not replay a trace under `query`, or `None` when it does.
pub(super) fn excluded(entry: &Entry, trace: &UserTrace, query: &Query) -> Option<String> {
    if query.decrease_key && entry.strategy != Strategy::DecreaseKey {
        return Some("not a decrease-key queue (--decrease-key)".into());
    }
    if entry.keys != KeyRule::Any {
        if trace.keys() == TraceKeys::Any {
            return Some(format!(
                "it needs {} keys, and the trace's header says `keys any`",
                entry.keys
            ));
        }
        if query.keys == Keys::Any {
            return Some(format!("it needs {} keys (--keys any)", entry.keys));
        }
    }
    None
}
