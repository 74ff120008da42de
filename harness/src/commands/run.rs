//! `pqlab run`: a map's searches with some queues, each search's counters and time, then
//! the frontier sizes and the `pqlab pick` command that answers for them.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::Frontier;

use crate::maps::instance::Instance;
use crate::maps::moves::Components;
use crate::results::quantile;
use crate::say;
use crate::search::astar::{AStar, Counters, Rules};
use crate::search::heuristic::{AnyHeuristic, HeuristicKind};

/// One search's figures, as `pqlab run --json` prints them.
#[derive(serde::Serialize)]
struct RunRow<'a> {
    queue: &'a str,
    problem: usize,
    line: u32,
    start: (u32, u32),
    goal: (u32, u32),
    cost: Option<u64>,
    length: Option<f64>,
    correct: bool,
    nanos: u64,
    counters: Counters,
}

/// What one queue's searches gave.
#[derive(Default)]
struct Ran {
    wrong: usize,
    rejected: Option<String>,
    counters: Vec<Counters>,
}

struct RunQueue<'a> {
    instance: &'a Instance,
    heuristic: &'a AnyHeuristic,
    components: &'a Components,
    rules: Rules,
    json: bool,
}

impl Visitor for RunQueue<'_> {
    type Output = Ran;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Ran {
        let mut search = AStar::<F>::new(&self.instance.grid, self.rules);
        let mut heuristic = self.heuristic.clone();
        let mut ran = Ran::default();
        let mut nanos = Vec::new();
        for (i, problem) in self.instance.problems.iter().enumerate() {
            let started = Instant::now();
            let outcome = match search.search(
                &self.instance.grid,
                &mut heuristic,
                Some(self.components),
                problem.start,
                problem.goal,
            ) {
                Ok(outcome) => outcome,
                Err(error) => {
                    ran.rejected = Some(format!("{}: {error}", self.instance.locate(i)));
                    return ran;
                }
            };
            let elapsed = started.elapsed().as_nanos() as u64;
            nanos.push(elapsed);
            let exact = entry.is_exact() && heuristic_admissible(self.heuristic);
            let correct = crate::search::check::answer(
                problem.expected,
                outcome.cost,
                self.rules.scale,
                exact,
                None,
            )
            .is_ok();
            ran.wrong += usize::from(!correct);
            ran.counters.push(outcome.counters);
            let row = RunRow {
                queue: entry.id,
                problem: i,
                line: problem.line,
                start: problem.start,
                goal: problem.goal,
                cost: outcome.cost,
                length: outcome.cost.map(|c| self.rules.scale.to_units(c)),
                correct,
                nanos: elapsed,
                counters: outcome.counters,
            };
            if self.json {
                match serde_json::to_string(&row) {
                    Ok(line) => say!("{line}"),
                    Err(error) => eprintln!("pqlab: {error}"),
                }
            } else {
                let c = &row.counters;
                say!(
                    "{:<24} {:>5} {:>12.4} {:>5} {:>10.1} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8}",
                    entry.id,
                    i,
                    row.length.unwrap_or(f64::NAN),
                    if row.correct { "ok" } else { "WRONG" },
                    elapsed as f64 / 1e3,
                    c.expansions,
                    c.pushes,
                    c.pops,
                    c.stale_pops,
                    c.decrease_keys,
                    c.max_frontier,
                    c.max_open
                );
            }
        }
        if !self.json && !nanos.is_empty() {
            let expansions: u64 = ran.counters.iter().map(|c| c.expansions).sum();
            let total: u64 = nanos.iter().sum();
            nanos.sort_unstable();
            say!(
                "{}: {} searches, median {:.1} us per search, {:.1} ns per expansion overall",
                entry.id,
                nanos.len(),
                nanos[nanos.len() / 2] as f64 / 1e3,
                total as f64 / expansions.max(1) as f64
            );
        }
        ran
    }
}

fn heuristic_admissible(h: &AnyHeuristic) -> bool {
    use crate::search::heuristic::Heuristic;
    h.admissible()
}

/// Runs `instance`'s problems with every queue in `queues`.
pub fn run(
    instance: &Instance,
    queues: &[&'static Entry],
    kind: HeuristicKind,
    rules: Rules,
    json: bool,
) -> Result<ExitCode> {
    let heuristic = AnyHeuristic::new(kind, &instance.grid, rules.connectivity, rules.scale);
    let components = Components::new(&instance.grid);
    if !json {
        say!(
            "{:<24} {:>5} {:>12} {:>5} {:>10} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8}",
            "queue",
            "#",
            "length",
            "check",
            "us",
            "expanded",
            "pushes",
            "pops",
            "stale",
            "dec-key",
            "max-frt",
            "max-open"
        );
    }
    let mut wrong = 0;
    let mut sizes: Option<Vec<Counters>> = None;
    for entry in queues {
        let visitor =
            RunQueue { instance, heuristic: &heuristic, components: &components, rules, json };
        let ran = registry::visit(entry.id, visitor).expect("queues come from the registry");
        if let Some(why) = ran.rejected {
            eprintln!("pqlab: {} could not run this search, and was skipped: {why}", entry.id);
            continue;
        }
        wrong += ran.wrong;
        sizes.get_or_insert(ran.counters);
    }
    if !json {
        if let Some(counters) = sizes.filter(|c| !c.is_empty()) {
            let open: Vec<f64> = counters.iter().map(|c| c.max_open as f64).collect();
            let held: Vec<f64> = counters.iter().map(|c| c.max_frontier as f64).collect();
            let q = |v: &[f64], p| quantile(v, p).round();
            say!(
                "\nfrontier sizes over {} searches: most open cells median {}, p90 {}, largest {}; entries held (with duplicates) median {}, p90 {}, largest {}",
                counters.len(),
                q(&open, 0.5),
                q(&open, 0.9),
                q(&open, 1.0),
                q(&held, 0.5),
                q(&held, 0.9),
                q(&held, 1.0)
            );
            say!("next: pqlab pick --frontier {} (or for this map's whole distribution: pqlab pick --map {})", q(&open, 0.9), instance.scenario.as_ref().map_or("MAP".into(), |s| s.display().to_string().trim_end_matches(".scen").to_owned()));
        }
    }
    if wrong > 0 {
        eprintln!("pqlab: {wrong} wrong answers");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
