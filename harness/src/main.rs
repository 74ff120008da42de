//! `pqlab`: the command-line front of the lab.
//!
//! Exit status: 0 on success, 1 when a validation finds a wrong answer, 2 on bad input
//! (a malformed map or scenario file, named with its line; an unknown queue or heuristic).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use pqlab::maps::grid::{Connectivity, CostScale, Grid};
use pqlab::maps::moves::Components;
use pqlab::maps::movingai;
use pqlab::maps::scenario::Problem;
use pqlab::search::astar::{AStar, Counters, Rules};
use pqlab::search::heuristic::{AnyHeuristic, HeuristicKind};
use pqlab::validate::{check_map, sample, MapCase};
use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::Frontier;

/// `println!` for a command line: when stdout is closed (`pqlab pick ... | head`) the
/// program ends quietly instead of panicking; another write error ends it with status 2.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if let Err(error) = writeln!(std::io::stdout(), $($arg)*) {
            if error.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("pqlab: writing to stdout: {error}");
                std::process::exit(2);
            }
            std::process::exit(0);
        }
    }};
}

#[derive(Parser)]
#[command(
    name = "pqlab",
    version,
    about = "Which priority queue should my A* use? Measured on real maps."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lists every queue: id, family, strategy and key restrictions.
    List,
    /// Solves the scenarios of every map under DIR with every selected queue, checks each
    /// cost against the scenario's optimal length and all queues against each other.
    Validate {
        /// A folder of Moving AI maps (`X.map` beside `X.map.scen`), searched recursively.
        #[arg(long, value_name = "DIR")]
        maps: PathBuf,
        /// A queue to check (repeat for several); all registered queues by default.
        #[arg(long = "queue", value_name = "ID", value_parser = parse_queue)]
        queues: Vec<&'static Entry>,
        /// Check at most N problems per map, spread evenly over its length buckets.
        #[arg(long, value_name = "N")]
        per_map: Option<usize>,
        /// Worker threads (queues run in parallel).
        #[arg(long, default_value_t = default_threads())]
        threads: usize,
    },
    /// Runs searches on one map and prints their counters and time per search.
    Run {
        /// A Moving AI `.map` file.
        #[arg(long, value_name = "FILE")]
        map: PathBuf,
        /// Its scenario file; `FILE.scen` beside the map by default.
        #[arg(long, value_name = "FILE")]
        scen: Option<PathBuf>,
        /// A queue to run (repeat for several); `std-binary-heap-dup` by default.
        #[arg(long = "queue", value_name = "ID", value_parser = parse_queue)]
        queues: Vec<&'static Entry>,
        /// zero, manhattan, octile, chebyshev, weighted:W, differential:K.
        #[arg(long, default_value = "octile", value_parser = parse_heuristic)]
        heuristic: HeuristicKind,
        /// Run at most N problems, spread evenly over the scenario.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// 4- or 8-connected movement.
        #[arg(long, value_enum, default_value_t = Moves::Eight)]
        moves: Moves,
        /// Step costs: fine (195025/275807, exact enough for Moving AI) or coarse (10/14).
        #[arg(long, value_enum, default_value_t = Scale::Fine)]
        scale: Scale,
        /// Print one JSON object per search instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Ranks the queues for a frontier size from the latest results, with the margins and
    /// the measurements behind the answer.
    Pick {
        /// The frontier size: the most open nodes your searches hold at once.
        #[arg(long, value_name = "N")]
        frontier: f64,
        /// Only decrease-key queues (your code updates keys in place).
        #[arg(long)]
        decrease_key: bool,
        /// Your keys: monotone (A* with a consistent heuristic: every queue works) or any
        /// (only queues that accept any key).
        #[arg(long, value_enum, default_value_t = pqlab::pick::Keys::Monotone)]
        keys: pqlab::pick::Keys,
        /// The results folder (`results/` of this checkout by default).
        #[arg(long, value_name = "DIR", default_value_os_t = default_results())]
        results: PathBuf,
    },
    /// Regenerates the charts, `README.md` and `index.html` from the latest run's CSV,
    /// without measuring again.
    Report {
        /// The results folder (`results/` of this checkout by default).
        #[arg(long, value_name = "DIR", default_value_os_t = default_results())]
        results: PathBuf,
    },
    /// Lists the lab's built-in suites with the frontier sizes they produce (one untimed
    /// pass with std-binary-heap-dup; checks every answer).
    Suites {
        /// The quick profile's suites instead of the full one's.
        #[arg(long)]
        quick: bool,
    },
    /// Times pqlab's A* (std-binary-heap-dup, octile) against the A* of the `pathfinding`
    /// and `petgraph` crates on the same problems, in alternating rounds; every cost is
    /// checked; prints medians and ratios.
    Compare {
        /// A Moving AI `.map` file.
        #[arg(long, value_name = "FILE")]
        map: PathBuf,
        /// Its scenario file; `FILE.scen` beside the map by default.
        #[arg(long, value_name = "FILE")]
        scen: Option<PathBuf>,
        /// Use at most N problems, spread evenly over the scenario.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Rounds; each runs every contender over all problems once.
        #[arg(long, default_value_t = 7)]
        rounds: usize,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Moves {
    #[value(name = "4")]
    Four,
    #[value(name = "8")]
    Eight,
}

#[derive(Clone, Copy, ValueEnum)]
enum Scale {
    Fine,
    Coarse,
}

/// `results/` at the root of the checkout this binary was built from.
fn default_results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("results")
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn parse_queue(id: &str) -> Result<&'static Entry, String> {
    registry::find(id)
        .ok_or_else(|| format!("unknown queue '{id}'; the queues are: {}", registry::ids()))
}

fn parse_heuristic(name: &str) -> Result<HeuristicKind, String> {
    name.parse()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::List => list(),
        Command::Validate { maps, queues, per_map, threads } => {
            validate(&maps, queues, per_map, threads)
        }
        Command::Run { map, scen, queues, heuristic, limit, moves, scale, json } => {
            let rules = Rules {
                connectivity: match moves {
                    Moves::Four => Connectivity::Four,
                    Moves::Eight => Connectivity::Eight,
                },
                scale: match scale {
                    Scale::Fine => CostScale::FINE,
                    Scale::Coarse => CostScale::COARSE,
                },
            };
            run(&map, scen.as_deref(), queues, heuristic, limit, rules, json)
        }
        Command::Compare { map, scen, limit, rounds } => {
            compare(&map, scen.as_deref(), limit, rounds)
        }
        Command::Suites { quick } => suites(quick),
        Command::Pick { frontier, decrease_key, keys, results } => {
            let query = pqlab::pick::Query { frontier, decrease_key, keys };
            pqlab::pick::pick_latest(&results, &query).map(|pick| {
                say!("{pick}");
                ExitCode::SUCCESS
            })
        }
        Command::Report { results } => pqlab::report::regenerate(&results).map(|files| {
            for file in files {
                say!("wrote {}", file.display());
            }
            ExitCode::SUCCESS
        }),
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("pqlab: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn list() -> Result<ExitCode> {
    say!("{:<26} {:<42} {:<13} keys", "id", "family", "strategy");
    for entry in registry::ENTRIES {
        say!("{:<26} {:<42} {:<13} {}", entry.id, entry.family, entry.strategy, entry.keys);
    }
    Ok(ExitCode::SUCCESS)
}

fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_owned());
    bar
}

fn validate(
    dir: &Path,
    queues: Vec<&'static Entry>,
    per_map: Option<usize>,
    threads: usize,
) -> Result<ExitCode> {
    let queues = if queues.is_empty() { registry::ENTRIES.iter().collect() } else { queues };
    let maps = movingai::find_maps(dir)?;
    anyhow::ensure!(!maps.is_empty(), "no X.map with X.map.scen under {}", dir.display());
    let started = Instant::now();
    let bar = progress(maps.len() as u64, "maps");
    let (mut passed, mut failed) = (0, 0);
    for (map_path, scen_path) in &maps {
        let name = map_path.strip_prefix(dir).unwrap_or(map_path).display().to_string();
        bar.set_message(format!("{name} (0/{} queues)", queues.len()));
        let grid = movingai::parse_map(map_path)?;
        let problems = movingai::parse_scen(scen_path, &grid)?;
        let case = MapCase { name, grid, problems: sample(&problems, per_map) };
        let map_started = Instant::now();
        let finished = |done: usize| {
            bar.set_message(format!("{} ({done}/{} queues)", case.name, queues.len()))
        };
        let report = check_map(&case, &queues, Rules::default(), threads, &finished);
        bar.suspend(|| {
            say!(
                "{}: {} problems x {} queues: {} passed, {} failed ({:.1} s)",
                report.name,
                report.problems,
                queues.len(),
                report.passed,
                report.failures.len(),
                map_started.elapsed().as_secs_f64()
            );
            for failure in report.failures.iter().take(10) {
                let problem = &case.problems[failure.problem];
                say!(
                    "  FAILED {} problem {} {:?} -> {:?}: expected {:?}, found {:?} (first queue found {:?})",
                    failure.queue,
                    failure.problem,
                    problem.start,
                    problem.goal,
                    failure.expected,
                    failure.found,
                    failure.reference
                );
            }
        });
        passed += report.passed;
        failed += report.failures.len();
        bar.inc(1);
    }
    bar.finish_and_clear();
    say!(
        "validated {} maps with {} queues in {:.1} s",
        maps.len(),
        queues.len(),
        started.elapsed().as_secs_f64()
    );
    say!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// One search's figures, as `pqlab run --json` prints them.
#[derive(serde::Serialize)]
struct RunRow<'a> {
    queue: &'a str,
    problem: usize,
    start: (u32, u32),
    goal: (u32, u32),
    cost: Option<u64>,
    length: Option<f64>,
    correct: bool,
    nanos: u64,
    counters: Counters,
}

struct RunQueue<'a> {
    grid: &'a Grid,
    problems: &'a [Problem],
    heuristic: &'a AnyHeuristic,
    components: &'a Components,
    rules: Rules,
    json: bool,
}

impl Visitor for RunQueue<'_> {
    type Output = Result<()>;

    fn visit<F: Frontier + 'static>(self, entry: &'static Entry) -> Result<()> {
        let mut search = AStar::<F>::new(self.grid, self.rules);
        let mut heuristic = self.heuristic.clone();
        let mut nanos = Vec::with_capacity(self.problems.len());
        let mut expansions = 0;
        for (i, problem) in self.problems.iter().enumerate() {
            let started = Instant::now();
            let outcome = search
                .search(
                    self.grid,
                    &mut heuristic,
                    Some(self.components),
                    problem.start,
                    problem.goal,
                )
                .with_context(|| format!("{} on problem {i}", entry.id))?;
            let elapsed = started.elapsed().as_nanos() as u64;
            nanos.push(elapsed);
            expansions += outcome.counters.expansions;
            let row = RunRow {
                queue: entry.id,
                problem: i,
                start: problem.start,
                goal: problem.goal,
                cost: outcome.cost,
                length: outcome.cost.map(|c| self.rules.scale.to_units(c)),
                correct: problem.expected.accepts(outcome.cost, self.rules.scale),
                nanos: elapsed,
                counters: outcome.counters,
            };
            if self.json {
                say!("{}", serde_json::to_string(&row)?);
            } else {
                let c = &row.counters;
                say!(
                    "{:<22} {:>5} {:>12.4} {:>5} {:>10.1} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8}",
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
        Ok(())
    }
}

fn suites(quick: bool) -> Result<ExitCode> {
    use pqlab::lab::{builtin_suites, Profile};
    use pqlab_queues::std_binary_heap::StdBinaryHeap;

    let profile = if quick { Profile::Quick } else { Profile::Full };
    say!(
        "{:<34} {:>8} {:>9} {:>10} {:>11} {:>11} {:>9} {:>9}",
        "suite",
        "problems",
        "prepare s",
        "pass ms",
        "expansions",
        "min open",
        "mean",
        "largest"
    );
    for suite in builtin_suites(profile) {
        let started = Instant::now();
        let prepared = suite.prepare()?;
        let prepare = started.elapsed().as_secs_f64();
        let mut search = AStar::<StdBinaryHeap>::new(&prepared.grid, suite.rules);
        let mut heuristic = prepared.heuristic.clone();
        let started = Instant::now();
        let mut counters = Vec::new();
        for (i, p) in prepared.problems.iter().enumerate() {
            let outcome = prepared.solve(&mut search, &mut heuristic, p)?;
            anyhow::ensure!(
                p.expected.accepts(outcome.cost, suite.rules.scale),
                "{} problem {i}: expected {:?}, found {:?}",
                suite.name,
                p.expected,
                outcome.cost
            );
            counters.push(outcome.counters);
        }
        let pass = started.elapsed().as_secs_f64() * 1e3;
        let n = counters.len() as f64;
        let open: Vec<u64> = counters.iter().map(|c| c.max_open).collect();
        say!(
            "{:<34} {:>8} {:>9.1} {:>10.1} {:>11.0} {:>11} {:>9.0} {:>9}",
            suite.name,
            prepared.problems.len(),
            prepare,
            pass,
            counters.iter().map(|c| c.expansions).sum::<u64>() as f64 / n,
            open.iter().min().unwrap_or(&0),
            open.iter().sum::<u64>() as f64 / n,
            open.iter().max().unwrap_or(&0),
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The map and problems named on the command line: the scenario defaults to `FILE.scen`.
fn load(map: &Path, scen: Option<&Path>, limit: Option<usize>) -> Result<(Grid, Vec<Problem>)> {
    let grid = movingai::parse_map(map)?;
    let scen =
        scen.map_or_else(|| PathBuf::from(format!("{}.scen", map.display())), Path::to_path_buf);
    let problems = sample(&movingai::parse_scen(&scen, &grid)?, limit);
    Ok((grid, problems))
}

fn compare(
    map: &Path,
    scen: Option<&Path>,
    limit: Option<usize>,
    rounds: usize,
) -> Result<ExitCode> {
    use pqlab::search::heuristic::Geometric;
    use pqlab::search::peers::{PathfindingAstar, Peer, PetgraphAstar};
    use pqlab_queues::std_binary_heap::StdBinaryHeap;

    let (grid, problems) = load(map, scen, limit)?;
    let rules = Rules::default();
    let mut search = AStar::<StdBinaryHeap>::new(&grid, rules);
    let mut octile = Geometric::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale);
    let mut pathfinding = PathfindingAstar::new(&grid, rules);
    let mut petgraph = PetgraphAstar::new(&grid, rules);
    let mut expansions = 0;
    let names = ["pqlab (std-binary-heap-dup)", PathfindingAstar::ID, PetgraphAstar::ID];
    let mut times: [Vec<f64>; 3] = Default::default();
    for round in 0..rounds.max(1) {
        for (who, samples) in times.iter_mut().enumerate() {
            let started = Instant::now();
            for (i, p) in problems.iter().enumerate() {
                let cost = match who {
                    0 => {
                        let outcome = search.search(&grid, &mut octile, None, p.start, p.goal)?;
                        if round == 0 {
                            expansions += outcome.counters.expansions;
                        }
                        outcome.cost
                    }
                    1 => pathfinding.search(&grid, p.start, p.goal),
                    _ => petgraph.search(&grid, p.start, p.goal),
                };
                anyhow::ensure!(
                    p.expected.accepts(cost, rules.scale),
                    "{} answered {cost:?} on problem {i}, expected {:?}",
                    names[who],
                    p.expected
                );
            }
            samples.push(started.elapsed().as_nanos() as f64 / problems.len() as f64);
        }
    }
    let medians: Vec<f64> = times.iter().map(|t| pqlab::results::Spread::of(t).median).collect();
    let per_search_expansions = expansions as f64 / problems.len() as f64;
    say!(
        "{} problems of {}, {} rounds, {:.0} expansions per search (pqlab's count); medians of the rounds:",
        problems.len(),
        map.display(),
        rounds.max(1),
        per_search_expansions
    );
    for (name, median) in names.iter().zip(&medians) {
        say!(
            "  {name:<28} {:>10.1} us per search {:>8.1} ns per pqlab expansion {:>6.2}x pqlab's time",
            median / 1e3,
            median / per_search_expansions,
            median / medians[0]
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn run(
    map: &Path,
    scen: Option<&Path>,
    queues: Vec<&'static Entry>,
    kind: HeuristicKind,
    limit: Option<usize>,
    rules: Rules,
    json: bool,
) -> Result<ExitCode> {
    let queues = if queues.is_empty() {
        vec![registry::find("std-binary-heap-dup").expect("the baseline is registered")]
    } else {
        queues
    };
    let (grid, problems) = load(map, scen, limit)?;
    let heuristic = AnyHeuristic::new(kind, &grid, rules.connectivity, rules.scale);
    let components = Components::new(&grid);
    if !json {
        say!(
            "{:<22} {:>5} {:>12} {:>5} {:>10} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8}",
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
    for entry in queues {
        let visitor = RunQueue {
            grid: &grid,
            problems: &problems,
            heuristic: &heuristic,
            components: &components,
            rules,
            json,
        };
        registry::visit(entry.id, visitor).expect("queues come from the registry")?;
    }
    Ok(ExitCode::SUCCESS)
}
