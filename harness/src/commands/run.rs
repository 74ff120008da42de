//! `pqlab run`: a map's searches with some queues: per queue a summary (and with
//! `--verbose`, `--csv` or `--json`, each search's counters and time), then the frontier
//! sizes and the `pqlab pick` command that answers for them. A progress bar on stderr
//! counts the searches. A map without a scenario gets random problems ([`Instance::user_map`]).
//! A scenario's lengths are checked only under its own rules (8-connected, fine costs):
//! under other rules they do not apply, and the run says so.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::Frontier;

use crate::maps::grid::{CostKind, Rules};
use crate::maps::instance::Instance;
use crate::maps::moves::{Components, Moves};
use crate::maps::GraphKind;
use crate::results::quantile;
use crate::say;
use crate::search::grid_loop::Target;
use crate::search::heuristic::{AnyHeuristic, HeuristicKind};
use crate::search::outcome::Counters;
use crate::search::registry::SearchKind;
use crate::search::Series;

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
    /// `None` when the expected answer does not apply under the run's rules.
    correct: Option<bool>,
    nanos: u64,
    counters: Counters,
}

/// What one queue's searches gave.
#[derive(Default)]
struct Ran {
    wrong: usize,
    rejected: Option<String>,
    counters: Vec<Counters>,
    /// Each search's wall time, in nanoseconds.
    nanos: Vec<u64>,
}

/// How `pqlab run` prints each search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// No per-search rows: the summaries only.
    None,
    /// An aligned table.
    Table,
    /// CSV with a header.
    Csv,
    /// One JSON object a line (and no summaries).
    Json,
}

struct RunQueue<'a> {
    instance: &'a Instance,
    /// The search loop and what it is built for (the queue aside).
    search: SearchKind,
    target: &'a Target<'a>,
    heuristic: &'a AnyHeuristic,
    components: &'a Components,
    rules: Rules,
    rows: Rows,
    /// Whether the expected answers apply under `rules`.
    checked: bool,
    bar: &'a indicatif::ProgressBar,
}

impl Visitor for RunQueue<'_> {
    type Output = Ran;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Ran {
        let mut ran = Ran::default();
        let mut search = match (self.search.entry().build)(self.target, entry) {
            Ok(search) => search,
            Err(why) => {
                ran.rejected = Some(why);
                return ran;
            }
        };
        let mut heuristic = self.heuristic.clone();
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
            self.bar.inc(1);
            ran.nanos.push(elapsed);
            let exact = entry.is_exact() && heuristic_admissible(self.heuristic);
            let correct = self.checked.then(|| {
                crate::search::check::answer(
                    problem.expected,
                    outcome.cost,
                    self.rules.scale,
                    exact,
                    None,
                )
                .is_ok()
            });
            ran.wrong += usize::from(correct == Some(false));
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
            if let Some(line) = row_line(self.rows, &row) {
                self.bar.suspend(|| say!("{line}"));
            }
        }
        if self.rows != Rows::Json && !ran.nanos.is_empty() {
            let line = summary(entry.id, ran.nanos.clone(), &ran, self.checked);
            self.bar.suspend(|| say!("{line}"));
        }
        ran
    }
}

/// One search's row as `rows` prints it; `None` when it prints none.
fn row_line(rows: Rows, row: &RunRow) -> Option<String> {
    let check = match row.correct {
        Some(true) => "ok",
        Some(false) => "WRONG",
        None => "-",
    };
    let c = &row.counters;
    Some(match rows {
        Rows::None => return None,
        Rows::Json => match serde_json::to_string(row) {
            Ok(line) => line,
            Err(error) => format!("pqlab: {error}"),
        },
        Rows::Table => format!(
            "{:<24} {:>5} {:>12.4} {:>5} {:>10.1} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8}",
            row.queue,
            row.problem,
            row.length.unwrap_or(f64::NAN),
            check,
            row.nanos as f64 / 1e3,
            c.expansions,
            c.pushes,
            c.pops,
            c.stale_pops,
            c.decrease_keys,
            c.max_frontier,
            c.max_open
        ),
        Rows::Csv => format!(
            "{},{},{},{},{check},{},{},{},{},{},{},{},{}",
            row.queue,
            row.problem,
            row.line,
            row.length.map_or(String::new(), |l| format!("{l:.4}")),
            row.nanos,
            c.expansions,
            c.pushes,
            c.pops,
            c.stale_pops,
            c.decrease_keys,
            c.max_frontier,
            c.max_open
        ),
    })
}

/// A queue's summary line: its searches, their median time, the time per expansion
/// overall, and whether every answer was right (when the answers are checked).
fn summary(id: &str, mut nanos: Vec<u64>, ran: &Ran, checked: bool) -> String {
    let expansions: u64 = ran.counters.iter().map(|c| c.expansions).sum();
    let total: u64 = nanos.iter().sum();
    nanos.sort_unstable();
    format!(
        "{}: {} searches, median {:.1} us per search, {:.1} ns per expansion overall{}",
        id,
        nanos.len(),
        nanos[nanos.len() / 2] as f64 / 1e3,
        total as f64 / expansions.max(1) as f64,
        if !checked {
            String::new()
        } else if ran.wrong == 0 {
            ", every answer checked".to_owned()
        } else {
            format!(", {} WRONG", ran.wrong)
        }
    )
}

fn heuristic_admissible(h: &AnyHeuristic) -> bool {
    use crate::search::heuristic::Heuristic;
    h.admissible()
}

/// Runs `instance`'s problems with every queue in `queues`, printing each search as
/// `rows` says.
pub fn run(
    map: &Path,
    instance: &Instance,
    queues: &[&'static Entry],
    kind: HeuristicKind,
    search: SearchKind,
    rules: Rules,
    rows: Rows,
) -> Result<ExitCode> {
    check_search(map, instance, kind, search, rules)?;
    let heuristic = AnyHeuristic::new(kind, &instance.grid, rules.connectivity, rules.scale)
        .map_err(anyhow::Error::msg)?;
    let moves = Moves::new(&instance.grid, rules.connectivity, rules.scale);
    let series = Series::on_grid(search, rules, kind);
    let target = Target { grid: &instance.grid, moves: &moves, series };
    let components = Components::new(&instance.grid);
    let checked = instance.checkable_under(rules);
    note_problems(instance, checked);
    print_header(rows);
    let bar = crate::format::progress((instance.problems.len() * queues.len()) as u64, "searches");
    let mut wrong = 0;
    let mut sizes: Option<Vec<Counters>> = None;
    let mut means: Vec<(&str, f64)> = Vec::new();
    for entry in queues {
        if let Err(why) = registry::available(entry.id) {
            eprintln!("pqlab: {} is n/a here, and was skipped: {why}", entry.id);
            continue;
        }
        let visitor = RunQueue {
            instance,
            search,
            target: &target,
            heuristic: &heuristic,
            components: &components,
            rules,
            rows,
            checked,
            bar: &bar,
        };
        let ran = registry::visit(entry.id, visitor).expect("queues come from the registry");
        if let Some(why) = ran.rejected {
            eprintln!("pqlab: {} could not run this search, and was skipped: {why}", entry.id);
            continue;
        }
        wrong += ran.wrong;
        let searches = ran.nanos.len().max(1) as f64;
        means.push((entry.id, ran.nanos.iter().sum::<u64>() as f64 / searches));
        sizes.get_or_insert(ran.counters);
    }
    bar.finish_and_clear();
    conclude(map, rows, means, sizes, wrong)
}

/// Whether `search` runs on `instance`'s grid under `rules` with the `kind` heuristic; the
/// error names the map and the `--search` asked.
fn check_search(
    map: &Path,
    instance: &Instance,
    kind: HeuristicKind,
    search: SearchKind,
    rules: Rules,
) -> Result<()> {
    let needs = &search.entry().needs;
    needs
        .setup(GraphKind::Grid, Some(rules.connectivity), CostKind::Integer)
        .and_then(|()| needs.workload(&instance.grid, kind))
        .map_err(|why| anyhow::anyhow!("{}: --search {}: {why}", map.display(), search.token()))?;
    Ok(())
}

/// Says on stderr where `instance`'s problems come from when it has no scenario, and when
/// the scenario's lengths are not `checked` under the run's rules.
fn note_problems(instance: &Instance, checked: bool) {
    if instance.scenario.is_none() {
        eprintln!(
            "pqlab: {} has no scenario: {} random problems drawn (start and goal connected), their optimal costs from the reference Dijkstra",
            instance.name,
            instance.problems.len()
        );
    } else if !checked {
        eprintln!(
            "pqlab: the scenario's lengths are for 8-connected moves at fine costs, not these rules: lengths not checked"
        );
    }
}

/// After the searches: an error when no queue ran; else, unless the rows are JSON, the
/// ranking of the queues' `means` (when more than one ran) and the frontier `sizes`; the
/// exit code fails when an answer was `wrong`.
fn conclude(
    map: &Path,
    rows: Rows,
    means: Vec<(&str, f64)>,
    sizes: Option<Vec<Counters>>,
    wrong: usize,
) -> Result<ExitCode> {
    anyhow::ensure!(
        sizes.is_some(),
        "every queue asked was skipped (see above): nothing ran; choose a queue that takes these keys (`pqlab list`)"
    );
    if rows != Rows::Json {
        if means.len() > 1 {
            say!("\n{}", ranking(means, map));
        }
        if let Some(counters) = sizes.filter(|c| !c.is_empty()) {
            print_frontier(&counters, map);
        }
    }
    if wrong > 0 {
        eprintln!("pqlab: {wrong} wrong answers");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The queues fastest first by their searches' mean time `(id, nanoseconds)`, each with
/// that time ÷ the baseline's when it ran; and how to get a measured ranking.
fn ranking(mut means: Vec<(&str, f64)>, map: &Path) -> String {
    means.sort_by(|a, b| a.1.total_cmp(&b.1));
    let base = means.iter().find(|(id, _)| *id == registry::BASELINE).map(|&(_, n)| n);
    let mut text = String::from(
        "ranking by mean time a search (one pass each, queue after queue, not interleaved: a slow \
         moment of the machine lands on one queue; for intervals, run `pqlab pick --map ",
    );
    text.push_str(&shell_quoted(&map.display().to_string()));
    text.push_str(" --measure`):");
    for (place, (id, nanos)) in means.iter().enumerate() {
        let against = base
            .filter(|b| *b > 0.0)
            .map_or(String::new(), |b| format!(", {} std's", crate::format::ratio(nanos / b)));
        text.push_str(&format!("\n  {}. {id}: {:.1} µs{against}", place + 1, nanos / 1e3));
    }
    text
}

/// The header of the per-search rows, for the table and CSV.
fn print_header(rows: Rows) {
    match rows {
        Rows::Table => say!(
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
        ),
        Rows::Csv => say!("queue,problem,line,length,check,nanos,expansions,pushes,pops,stale_pops,decrease_keys,max_frontier,max_open"),
        Rows::None | Rows::Json => {}
    }
}

/// The frontier sizes of `counters` (one queue's searches), and the `pqlab pick` commands
/// that answer for them.
fn print_frontier(counters: &[Counters], map: &Path) {
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
    say!(
        "next: pqlab pick --frontier {} (or for this map's whole distribution: pqlab pick --map {})",
        q(&open, 0.9),
        shell_quoted(&map.display().to_string())
    );
}

/// `text` as one shell word: as it is when it holds only characters no shell treats
/// specially, else in single quotes (a quote inside written `'\''`).
fn shell_quoted(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:=@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::{ranking, shell_quoted};
    use std::path::Path;

    /// The suggested command pastes into a shell as one word per path.
    #[test]
    fn paths_are_shell_quoted() {
        assert_eq!(shell_quoted("maps/dao/arena.map"), "maps/dao/arena.map");
        assert_eq!(shell_quoted("my maps/it's.map"), "'my maps/it'\\''s.map'");
        assert_eq!(shell_quoted("$(rm -rf x).map"), "'$(rm -rf x).map'");
    }

    /// The ranking lists the queues fastest first, each against std's heap.
    #[test]
    fn the_ranking_puts_the_fastest_first_against_std() {
        let means = vec![
            ("dary4-dk", 3_000.0),
            ("std-binary-heap-dup", 4_000.0),
            ("radix-heap-dup", 2_000.0),
        ];
        let text = ranking(means, Path::new("maps/a b.map"));
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("pqlab pick --map 'maps/a b.map' --measure"), "{text}");
        assert_eq!(lines[1], "  1. radix-heap-dup: 2.0 µs, 0.500× std's");
        assert_eq!(lines[2], "  2. dary4-dk: 3.0 µs, 0.750× std's");
        assert_eq!(lines[3], "  3. std-binary-heap-dup: 4.0 µs, 1.00× std's");
    }
}
