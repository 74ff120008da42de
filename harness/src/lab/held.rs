//! The synthetic workload measured at one size: every exact queue held at `size` entries
//! ([`super::synthetic`]), in groups that fit the memory limit, each group with the
//! baseline and timed in its own [`Contest`].
//!
//! The baseline is held first (it is never cut off); each other queue's memory at this
//! size is estimated from a probe fill a tenth the size ([`synthetic::Probe`]) times
//! [`synthetic::MEMORY_MARGIN`], and what the size needs is printed before any other queue
//! is filled. The queues are then held in id order: when the next one would take the
//! group's bytes (counted by the lab's allocator) past the limit, the group is timed and
//! dropped, and a new one starts with a new baseline. A queue that would not fit beside
//! the baseline alone is not held at this size (`n/a`), nor is any queue when the baseline
//! alone does not fit. Each group's rounds get the time left until the deadline in
//! proportion to its share of the queues not yet timed.
//!
//! Cut-offs come from this size alone ([`synthetic::CheckHold`]): the fill and warm-up
//! limit is [`Settings::slowdown`](super::settings::Settings::slowdown) times the baseline's fill, warm-up and first pass
//! (or its `size` operations, if longer: std's heap fills in O(1) a push, an unfair
//! yardstick alone), the pass limit `slowdown` times the baseline's first pass, each at
//! least the floor. A stopped pass's row keeps its time over the baseline's pass as
//! `bound`.

use std::time::{Duration, Instant};

use pqlab_queues::registry::{self, Entry};

use super::contest::Contest;
use super::measure::{self, LabView};
use super::rows::{ordered_entries, untimed, untimed_row, WorkloadFacts};
use super::searches::Check;
use super::synthetic;
use crate::results::{Row, Status};

/// The queues held at one size, and what holding them needs.
struct Held<'l> {
    lab: LabView<'l>,
    size: usize,
    workload: WorkloadFacts,
    /// The memory limit, in bytes.
    memory: f64,
}

/// A group of held queues, timed together: the baseline first.
type HeldGroup<'p> = Vec<(Row, Check<'p>)>;

/// Every exact queue's row held at `size` entries, done by `deadline` (see the module's
/// documentation).
pub(super) fn measure(lab: LabView<'_>, size: usize, deadline: Instant) -> Vec<Row> {
    let workload = WorkloadFacts::held(size);
    let memory = lab.settings.memory as f64;
    Held { lab, size, workload, memory }.measure(deadline)
}

impl Held<'_> {
    /// Every queue's row at this size.
    fn measure(&self, deadline: Instant) -> Vec<Row> {
        let baseline = registry::baseline();
        let others: Vec<&'static Entry> =
            ordered_entries().filter(|e| e.id != baseline.id).collect();
        if let Some(needs) = self.estimate(baseline, Duration::MAX).filter(|b| *b > self.memory) {
            eprintln!(
                "pqlab: held-{} is not held: the baseline alone needs about {}",
                self.size,
                mib(needs)
            );
            let all = std::iter::once(baseline).chain(others.iter().copied());
            return all.map(|e| self.not_held(e, needs, " for the baseline")).collect();
        }
        let started = Instant::now();
        let first = match self.hold(baseline, Duration::MAX, Duration::MAX) {
            Ok(check) => check,
            Err(stopped) => return vec![stopped_row(self.row(baseline), stopped, Duration::MAX)],
        };
        let base_pass = first.pass;
        let base_ns = base_pass.as_secs_f64() * 1e9 / synthetic::BATCH as f64;
        let yardstick =
            started.elapsed().max(Duration::from_secs_f64(base_ns * 1e-9 * self.size as f64));
        let limits = (self.lab.limit(yardstick), self.lab.limit(base_pass));
        let needs: Vec<Option<f64>> =
            others.iter().map(|&e| self.estimate(e, limits.0.mul_f64(0.1))).collect();
        let base_bytes = self.held_bytes(&first);
        let total = base_bytes + needs.iter().flatten().sum::<f64>();
        let largest = needs.iter().flatten().copied().fold(0.0, f64::max);
        eprintln!(
            "pqlab: held-{} needs about {} for every queue at once (the baseline {}, the \
             largest other {}); the memory limit is {}",
            self.size,
            mib(total),
            mib(base_bytes),
            mib(largest),
            mib(self.memory)
        );
        let others: Vec<(&'static Entry, f64)> =
            others.into_iter().zip(needs).map(|(e, need)| (e, need.unwrap_or(0.0))).collect();
        self.in_groups(first, &others, limits, deadline)
    }

    /// Holds `others` (each with the bytes it is expected to need) in groups that fit the
    /// memory limit, each group starting with the baseline (`first` for the first group),
    /// and times each group as it fills. `limits` are the fill and pass limits.
    fn in_groups(
        &self,
        first: Check<'static>,
        others: &[(&'static Entry, f64)],
        (fill_limit, pass_limit): (Duration, Duration),
        deadline: Instant,
    ) -> Vec<Row> {
        let baseline = registry::baseline();
        let base_pass = first.pass;
        let base_bytes = self.held_bytes(&first);
        let (mut rows, mut untimed_rows) = (Vec::new(), Vec::new());
        let mut group: HeldGroup<'_> = vec![(self.row(baseline), first)];
        let mut group_bytes = base_bytes;
        let mut number = 0;
        for (i, &(entry, need)) in others.iter().enumerate() {
            if base_bytes + need > self.memory {
                untimed_rows.push(self.not_held(entry, need, " beside the baseline"));
                continue;
            }
            if group_bytes + need > self.memory && group.len() > 1 {
                number += 1;
                let untimed = group.len() + others.len() - i;
                let part = deadline
                    .saturating_duration_since(Instant::now())
                    .mul_f64(group.len() as f64 / untimed as f64);
                rows.extend(self.time(std::mem::take(&mut group), part, number));
                match self.hold(baseline, Duration::MAX, Duration::MAX) {
                    Ok(check) => {
                        group_bytes = self.held_bytes(&check);
                        group.push((self.row(baseline), check));
                    }
                    Err(stopped) => {
                        untimed_rows.push(stopped_row(self.row(baseline), stopped, Duration::MAX));
                        break;
                    }
                }
            }
            match self.hold(entry, fill_limit, pass_limit) {
                Ok(check) => {
                    group_bytes += self.held_bytes(&check);
                    group.push((self.row(entry), check));
                }
                Err(stopped) => untimed_rows.push(stopped_row(self.row(entry), stopped, base_pass)),
            }
        }
        // A size held in one group numbers it 0; split, the last is the next number.
        let number = if number > 0 { number + 1 } else { 0 };
        rows.extend(self.time(group, deadline.saturating_duration_since(Instant::now()), number));
        rows.extend(untimed_rows);
        rows
    }

    /// Times a group as rounds' group `number`, within `share`.
    fn time(&self, group: HeldGroup<'_>, share: Duration, number: u32) -> Vec<Row> {
        let name = format!("{}#{number}", self.workload.name);
        let mut contest = Contest::new(&name, self.lab.settings.sample);
        for (mut row, check) in group {
            row.bytes_per_entry = check.bytes_per_entry;
            contest.enter_row(row, synthetic::BATCH, check);
        }
        measure::time(self.lab.settings, contest, share, number).rows
    }

    /// A queue's row at this size, before it is measured.
    fn row(&self, entry: &'static Entry) -> Row {
        let mut row = self.workload.row(self.lab.provenance, entry.id, Some(entry));
        row.units = synthetic::BATCH;
        row.max_open = self.size as f64;
        row
    }

    /// Fills and checks a queue at this size, its fill and passes stopped past the limits.
    fn hold(
        &self,
        entry: &'static Entry,
        fill_limit: Duration,
        pass_limit: Duration,
    ) -> Result<Check<'static>, synthetic::Stopped> {
        let check = synthetic::CheckHold { size: self.size, fill_limit, pass_limit };
        registry::visit(entry.id, check).expect("registered")
    }

    /// The bytes a queue is expected to hold at this size, from a probe a tenth the size.
    fn estimate(&self, entry: &'static Entry, limit: Duration) -> Option<f64> {
        let probe = synthetic::Probe { size: (self.size / 10).max(1), limit };
        let per_entry = registry::visit(entry.id, probe).expect("registered");
        per_entry.map(|b| b * self.size as f64 * synthetic::MEMORY_MARGIN)
    }

    /// The bytes a checked queue holds at this size: its own, and the harness's per entry.
    fn held_bytes(&self, check: &Check<'_>) -> f64 {
        let per_entry = check.bytes_per_entry.unwrap_or(0.0);
        (per_entry + synthetic::HOLD_BYTES_PER_ENTRY as f64) * self.size as f64
    }

    /// The row of a queue not held because it `needs` more than the memory limit.
    fn not_held(&self, entry: &'static Entry, needs: f64, beside: &str) -> Row {
        let note = format!(
            "not held: needs about {}{beside}, over the memory limit of {} (PQLAB_MEMORY)",
            mib(needs),
            mib(self.memory)
        );
        untimed(self.row(entry), Status::NotApplicable, note)
    }
}

/// `row` marked with why its held queue was not timed: a stopped fill or warm-up has no
/// bound (no operation was timed); otherwise as [`untimed_row`], over the baseline's pass
/// `base`.
fn stopped_row(row: Row, stopped: synthetic::Stopped, base: Duration) -> Row {
    match stopped {
        synthetic::Stopped::Untimed(why) => untimed_row(row, why, base),
        synthetic::Stopped::Setup(note) => untimed(row, Status::CutOff, note),
    }
}

/// `bytes` in MiB, for messages.
fn mib(bytes: f64) -> String {
    format!("{:.1} MiB", bytes / f64::from(1 << 20))
}
