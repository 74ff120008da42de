//! The answer as text and Markdown: the verdict, the evidence behind it, the ranking
//! table with the winner's tie group, and the notes and caveats.

use std::fmt;

use super::{Answer, Backing, Ranked, RankedBy};
use crate::format::{count, plural, ratio, ratio_interval, share_interval};

impl Ranked {
    /// Its time ÷ the winner's: "1.23× (1.20×–1.26×)", or for a queue cut off somewhere
    /// "≥ 5.1× (cut off on 2 workloads: a lower bound)".
    fn vs_best_text(&self) -> String {
        if self.censored > 0 {
            format!(
                "≥ {} (cut off on {}: a lower bound)",
                ratio(self.vs_best.mid),
                plural(self.censored, "workload")
            )
        } else {
            ratio_interval(self.vs_best)
        }
    }
}

/// A registry fact as the text table shows it (empty when the queue is not registered).
fn text(fact: Option<impl fmt::Display>) -> String {
    fact.map_or(String::new(), |f| f.to_string())
}

impl Backing {
    /// Which maps its workloads are, as the evidence's heading says it.
    fn maps(&self) -> &'static str {
        if self.real_maps {
            ", real Moving AI maps included"
        } else {
            ", generated maps"
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.verdict)?;
        if let Some(note) = &self.machine_note {
            writeln!(f, "{note}")?;
        }
        for line in self.spreads() {
            writeln!(f, "{line}")?;
        }
        writeln!(f, "\nFor {}, from run {} on {}.", self.asked, self.run, self.machine)?;
        if let Some(split) = &self.terrain_split {
            writeln!(f, "{}", split.sentence())?;
        }
        self.write_evidence(f)?;
        if self.ranked_by == RankedBy::Latency {
            self.write_latency_table(f)?;
        } else if !self.ranking.is_empty() {
            self.write_time_table(f)?;
        }
        self.write_notes(f)
    }
}

impl Answer {
    /// The spreads a user meets beyond the same workloads again: from one evidence workload
    /// to the next, and for a map no run has measured.
    fn spreads(&self) -> Vec<String> {
        let winner = self.ranking.first().map_or("", |r| r.queue.as_str());
        let mut lines = Vec::new();
        if let Some(p) = self.promise {
            lines.push(format!(
                "On a map no run has measured, expect std's BinaryHeap to take {} `{winner}`'s time, from {} to {}: a {:.0}% prediction interval, from this prediction's errors on {} real maps each left out in turn{}.",
                ratio(p.gain),
                ratio(p.low),
                ratio(p.high),
                p.coverage * 100.0,
                p.maps,
                p.cpu.map_or(String::new(), |c| format!(
                    ", each end widened by {:.1}% for another CPU than the evidence's (the 90th percentile of the workload-wide shift between the two newest committed runs on different CPUs)",
                    (c - 1.0) * 100.0
                ))
            ));
        }
        if let Some(a) = self.across {
            lines.push(format!(
                "From one evidence workload to the next, std's BinaryHeap took {} to {} `{winner}`'s time ({} workloads).",
                ratio(a.low),
                ratio(a.high),
                a.workloads
            ));
        }
        lines
    }

    /// The evidence: each backing's band, source and series, and its workloads; then what
    /// the evidence run's noise means for the answer, when it was noisy.
    fn write_evidence(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "\nEvidence:")?;
        for b in &self.backing {
            let (heading, maps) = match (&b.band, &b.trace) {
                (Some(band), _) => (format!("{band} band"), b.maps()),
                (None, Some(trace)) => (format!("Your trace {trace}"), ""),
                (None, None) => ("On your map".to_owned(), b.maps()),
            };
            writeln!(
                f,
                "  {heading}, {} of {}{maps}{}:",
                b.source,
                b.series,
                if b.weak { " (weak)" } else { "" }
            )?;
            for (name, size, kind) in &b.workloads {
                writeln!(f, "    {name} ({kind}, {} open cells)", count(*size))?;
            }
        }
        if let Some(noise) = &self.noise {
            writeln!(f, "  {noise}")?;
        }
        Ok(())
    }

    /// The ranking by p99 per search, with each queue's latencies.
    fn write_latency_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "\n{:>4}  {:<26} {:>11} {:>10} {:>10} {:>10}  {:<12} keys",
            "rank", "queue", "p99 ÷ best", "p99", "median", "slowest", "strategy"
        )?;
        for (i, r) in self.ranking.iter().enumerate() {
            let Some(l) = r.latency else { continue };
            writeln!(
                f,
                "{:>4}  {:<26} {:>11} {:>10} {:>10} {:>10}  {:<12} {}",
                i + 1,
                r.queue,
                ratio(l.p99_vs_best),
                crate::format::time(l.p99_ns),
                crate::format::time(l.p50_ns),
                crate::format::time(l.max_ns),
                text(r.strategy),
                text(r.keys)
            )?;
        }
        writeln!(f, "\np99 ÷ best: each workload's p99 over the lowest p99 there, geometric mean; the times are geometric means over the workloads.")
    }

    /// The ranking by time, with each queue's ratio to the winner and to std's heap.
    fn write_time_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "\n{:>4}  {:<26} {:>18}  {:>8}  {:<12} keys",
            "rank", "queue", "time ÷ best", "÷ std", "strategy"
        )?;
        for (i, r) in self.ranking.iter().enumerate() {
            let spread = if i == 0 { "1× (best)".to_owned() } else { r.vs_best_text() };
            writeln!(
                f,
                "{:>4}  {:<26} {:>18}{} {:>8}  {:<12} {}",
                i + 1,
                r.queue,
                spread,
                if r.tied { "≈" } else { " " },
                r.vs_std.map_or("n/a".into(), ratio),
                text(r.strategy),
                text(r.keys)
            )?;
        }
        writeln!(f, "\n≈: in the winner's tie group (not more than 2% behind it with 95% confidence); ÷ std: time ÷ std-binary-heap-dup's.")
    }

    /// The queues not ranked, the winner's memory, tie order and adoption, and the caveats.
    fn write_notes(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.not_ranked.is_empty() {
            writeln!(f, "\nNot ranked:")?;
            for (queue, why) in &self.not_ranked {
                writeln!(f, "  {queue}: {why}")?;
            }
        }
        let winner = self.ranking.first().map(|r| r.queue.as_str());
        let share = match (self.frontier_share, winner) {
            (Some(s), Some(winner)) => Some(format!(
                "The queue is {} of these searches with std's heap and {} with `{winner}` (1 − the oracle floor's time ÷ the queue's, with its 95% interval, over {} with an oracle row{}): what a faster queue can save at most.",
                share_interval(s.std.share),
                share_interval(s.winner.share),
                plural(s.winner.workloads, "workload"),
                match s.winner.without_oracle {
                    0 => String::new(),
                    n => format!("; {} without one left out", plural(n, "workload")),
                }
            )),
            (None, Some(_)) => Some("None of these workloads has an oracle row (the same A* with a frontier that costs nothing), so the queue's share of these searches is not known here.".to_owned()),
            (_, None) => None,
        };
        let mut notes: Vec<&String> = share.iter().collect();
        notes.extend(self.memory.iter());
        notes.extend(self.tie_order.iter());
        notes.extend(self.adopt.iter());
        if !notes.is_empty() {
            writeln!(f)?;
            for note in notes {
                writeln!(f, "{note}")?;
            }
        }
        if !self.caveats.is_empty() {
            writeln!(f, "\nCaveats:")?;
            for caveat in &self.caveats {
                writeln!(f, "- {caveat}")?;
            }
        }
        Ok(())
    }

    /// The answer as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!("**{}**\n\n", self.verdict));
        if let Some(note) = &self.machine_note {
            out.push_str(&format!("> {note}\n\n"));
        }
        for line in self.spreads() {
            out.push_str(&format!("{line}\n\n"));
        }
        out.push_str(&format!(
            "For {}, from run `{}` on {}.\n\n",
            self.asked, self.run, self.machine
        ));
        if let Some(split) = &self.terrain_split {
            out.push_str(&format!("{}\n\n", split.sentence()));
        }
        if let Some(noise) = &self.noise {
            out.push_str(&format!("> {noise}\n\n"));
        }
        out.push_str("| rank | queue | time ÷ best | tie group | ÷ std | strategy | keys |\n|---|---|---|---|---|---|---|\n");
        for (i, r) in self.ranking.iter().enumerate() {
            out.push_str(&format!(
                "| {} | `{}` | {} | {} | {} | {} | {} |\n",
                i + 1,
                r.queue,
                r.vs_best_text(),
                if r.tied { "yes" } else { "no" },
                r.vs_std.map_or("n/a".into(), ratio),
                text(r.strategy),
                text(r.keys)
            ));
        }
        for line in
            self.memory.iter().chain(&self.tie_order).chain(&self.adopt).chain(&self.caveats)
        {
            out.push_str(&format!("\n- {line}"));
        }
        out.push('\n');
        out
    }
}
