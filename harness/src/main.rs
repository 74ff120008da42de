//! `pqlab`: the command-line front of the lab. It parses and dispatches; the commands live
//! in `pqlab::commands`.
//!
//! Exit status: 0 on success, 1 when a check finds a wrong answer, 2 on bad input (a
//! malformed map or scenario file, named with its line; an unknown queue or heuristic).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use pqlab::commands::{self, pick::OutputFormat, run::Rows};
use pqlab::maps::grid::Rules;
use pqlab::maps::grid::{Connectivity, CostScale};
use pqlab::maps::instance::{Instance, Sample};
use pqlab::maps::{GraphKind, TerrainKind};
use pqlab::pick::{Costs, Keys, Query};
use pqlab::say;
use pqlab::search::heuristic::HeuristicKind;
use pqlab::search::SearchKind;
use pqlab_queues::registry::{self, Entry};

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
    /// Lists every queue: id, family, class, strategy, key restrictions, ties and origin.
    List {
        /// Instead, each id's Rust type in `pqlab-queues` and the cargo feature that
        /// compiles it, as a Markdown table (what to write when adopting it).
        #[arg(long)]
        types: bool,
    },
    /// Solves the scenarios of every map under DIR with every selected queue (and
    /// --search's search), checks each cost against the scenario's optimal length and the
    /// queues against each other.
    Validate {
        /// A folder of Moving AI maps (`X.map` beside `X.map.scen`), searched recursively.
        #[arg(long, value_name = "DIR")]
        maps: PathBuf,
        /// A queue to check (repeat for several); all registered queues by default.
        #[arg(long = "queue", value_name = "ID", value_parser = parse_queue)]
        queues: Vec<&'static Entry>,
        /// Check at most N problems per map, spread evenly over its length buckets.
        #[arg(long, value_name = "N", value_parser = positive)]
        per_map: Option<usize>,
        /// Worker threads (maps and queues are spread over them).
        #[arg(long, default_value_t = default_threads(), value_parser = positive)]
        threads: usize,
        #[command(flatten)]
        search: SearchArg,
    },
    /// Runs a map's searches and prints per queue their time and whether every answer was
    /// right, then the frontier sizes and the `pqlab pick` command to run next. Typical
    /// time: about a second per queue for 300 problems on a 512² map (a whole scenario,
    /// several thousand problems, takes a minute or more a queue: use --limit).
    Run(RunArgs),
    /// Which queue for a frontier size, or for a map: the runs' answer, with its tie group,
    /// evidence and how to adopt it. For a map, real maps of its kind answer when a run
    /// measured some, and the answer says how well its evidence transferred. Typical time
    /// for a 512² map: a few seconds; with --measure, under a minute.
    Pick(PickArgs),
    /// Regenerates the charts and pages of `results/report/` from the latest run, without
    /// measuring again.
    Report {
        /// The results folder: by default the working directory's checkout's
        /// `results/local/` when it holds a run, else its committed `results/`.
        #[arg(long, value_name = "DIR")]
        results: Option<PathBuf>,
        /// Report this run file instead of the latest.
        #[arg(long, value_name = "FILE")]
        run: Option<PathBuf>,
    },
    /// Compares two runs: per workload Kendall's τ and whether each winner is in the
    /// other's tie group; how far the leaders' times against the baseline moved; per band
    /// the same; and the verdicts.
    Diff {
        /// The first run's CSV.
        a: PathBuf,
        /// The second run's CSV.
        b: PathBuf,
        /// Also write the comparison's summary, as a paragraph, between the markers
        /// `<!-- pqlab:stability-SECTION:start -->` and `...:end -->` of the repository's
        /// README (`quiet` for two quiet runs, `busy` for a quiet run against a loaded one).
        #[arg(long, value_name = "SECTION")]
        readme: Option<String>,
        /// Exit with status 1 unless at least 90% of the band winners are in the other
        /// run's tie group both ways (a gate for CI or a user comparing two runs).
        #[arg(long)]
        check: bool,
    },
    /// The lab as `cargo bench` runs it (without counting the queues' memory): for tests.
    #[command(hide = true)]
    Bench {
        /// Workload filters, and `--list`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Lists the lab's built-in workloads with the frontier sizes they produce.
    Workloads {
        /// The quick profile's workloads instead of the default's.
        #[arg(long)]
        quick: bool,
    },
    /// Times pqlab's A* against the `pathfinding` and `petgraph` crates' on the same
    /// problems, in interleaved rounds; every cost is checked.
    Compare {
        /// A Moving AI `.map` file.
        #[arg(long, value_name = "FILE", required_unless_present = "maps")]
        map: Option<PathBuf>,
        /// A folder of Moving AI maps: compare on each, and print the geometric mean.
        #[arg(long, value_name = "DIR", conflicts_with = "map")]
        maps: Option<PathBuf>,
        /// A pqlab queue to compare (repeat for several); by default std-binary-heap-dup and
        /// the three leaders of `pqlab pick --map` for each map, from the committed runs.
        #[arg(long = "queue", value_name = "ID", value_parser = parse_queue)]
        queues: Vec<&'static Entry>,
        /// Use at most N problems per map, spread evenly over the scenario.
        #[arg(long, value_name = "N", value_parser = positive)]
        limit: Option<usize>,
        /// Interleaved rounds.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..))]
        rounds: u32,
    },
}

/// `pqlab run`'s arguments.
#[derive(Args)]
struct RunArgs {
    /// A Moving AI `.map` file.
    #[arg(long, value_name = "FILE")]
    map: PathBuf,
    /// Its scenario file; `FILE.scen` beside the map by default. Without one, random
    /// connected problems are drawn (--limit of them, 300 by default) and solved by the
    /// reference Dijkstra for their optimal costs.
    #[arg(long, value_name = "FILE")]
    scen: Option<PathBuf>,
    /// A queue to run (repeat for several); by default `std-binary-heap-dup` and the three
    /// leaders of `pqlab pick --map` for this map under these options, from the committed
    /// runs.
    #[arg(long = "queue", value_name = "ID", value_parser = parse_queue)]
    queues: Vec<&'static Entry>,
    /// zero, manhattan, octile, chebyshev, weighted:W, differential:K.
    #[arg(long, default_value = "octile", value_parser = parse_heuristic)]
    heuristic: HeuristicKind,
    #[command(flatten)]
    search: SearchArg,
    /// Run at most N problems, spread evenly over the scenario.
    #[arg(long, value_name = "N", value_parser = positive)]
    limit: Option<usize>,
    /// 4- or 8-connected movement.
    #[arg(long, value_enum, default_value_t = Connectivity::Eight)]
    moves: Connectivity,
    /// Step costs: fine (195025/275807, exact enough for Moving AI) or coarse (10/14).
    #[arg(long, default_value = "fine", value_parser = parse_scale)]
    scale: CostScale,
    /// Also print one table row per search (counters and time).
    #[arg(long, conflicts_with_all = ["csv", "json"])]
    verbose: bool,
    /// Also print one CSV row per search.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// Print one JSON object per search instead of the summary.
    #[arg(long)]
    json: bool,
}

/// The search of `run` and `validate`: one flag, parsed alike.
#[derive(Args)]
struct SearchArg {
    /// The search loop: pqlab's tuned grid A* (astar), JPS, the generic A* or a tie rule of
    /// the tuned A* (as `pick --search`); a search that cannot take the map, the moves or a
    /// queue is refused with the reason.
    #[arg(long, value_enum, default_value_t = SearchKind::Astar)]
    search: SearchKind,
}

/// `pqlab pick`'s arguments.
#[derive(Args)]
struct PickArgs {
    /// The frontier size: the most open cells your searches hold at once (2000, 2k, 1e5).
    #[arg(long, value_name = "N", value_parser = pqlab::pick::parse_size, allow_hyphen_values = true)]
    frontier: Option<f64>,
    /// Your map (Moving AI format): its searches' frontier sizes weight the answer.
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// A trace of your own search's frontier operations (queues/TRACE.md; written by
    /// `pqlab_queues::trace::Recording`): every queue replays it, checked, then timed
    /// interleaved (under a minute; --rounds and --budget as for --measure). The flags of
    /// a map's searches and of --latency (one search's time, which a replay of the whole
    /// trace does not take) are refused with it.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "frontier", "map", "scen", "limit", "measure", "search", "graph", "moves", "costs",
        "heuristic", "scale", "latency",
    ])]
    trace: Option<PathBuf>,
    /// The map's scenario; `FILE.scen` beside it by default. Without one, random
    /// connected problems are drawn and solved by the reference Dijkstra.
    #[arg(long, value_name = "FILE")]
    scen: Option<PathBuf>,
    /// Use at most N of the map's problems, spread over its length buckets (300 by
    /// default; the random problems drawn on a bare map).
    #[arg(long, value_name = "N", value_parser = positive)]
    limit: Option<usize>,
    /// Time std's BinaryHeap and every queue within 1.15× of the winner in any of the runs'
    /// evidence for the map on the map itself, raced, and answer
    /// from that measurement (under a minute for a 512² map).
    #[arg(long)]
    measure: bool,
    /// A queue to time with --measure beside the runs' candidates (repeat for
    /// several; `pqlab list` names them).
    #[arg(long = "queue", value_name = "ID", value_parser = parse_queue, requires = "measure")]
    queues: Vec<&'static Entry>,
    /// The most interleaved rounds for --measure and --trace (they stop once the ranking
    /// is decided).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..))]
    rounds: u32,
    /// The seconds the check passes and rounds of --measure or --trace may take.
    #[arg(long, value_name = "S", default_value_t = pqlab::pick::map::MEASURE_BUDGET.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    budget: u64,
    /// Only decrease-key queues (your code updates keys in place).
    #[arg(long)]
    decrease_key: bool,
    /// Your keys: monotone (A* with a consistent heuristic) or any.
    #[arg(long, value_enum, default_value_t = Keys::Monotone)]
    keys: Keys,
    /// Your search loop: pqlab's tuned grid A* (astar), or a generic A* in the
    /// `pathfinding` crate's shape (generic: a successors closure, a hash map of nodes).
    /// By default astar, and generic with --costs float or --graph road (the tuned A* is
    /// a grid's, integer-only: astar with either is refused).
    #[arg(long, value_enum)]
    search: Option<SearchKind>,
    /// Your graph: a grid map, or a road-like graph (points joined to their nearest
    /// neighbours, Euclidean costs, the straight-line heuristic; integer costs in the
    /// road's fixed point, or float with --costs float).
    #[arg(long, value_enum, default_value_t = GraphKind::Grid)]
    graph: GraphKind,
    /// Your grid's moves: 4 or 8 (8 by default; a map's answer takes its own).
    #[arg(long, value_enum)]
    moves: Option<Connectivity>,
    /// Your costs: unit (every move costs 1), octile (diagonals √2, as integers in
    /// --scale), or float (f64).
    #[arg(long, value_enum, default_value_t = Costs::Octile)]
    costs: Costs,
    /// The heuristic of your searches: by default the exact distance of the moves
    /// (octile on 8 moves, chebyshev with unit costs on 8, manhattan on 4).
    #[arg(long, value_parser = parse_heuristic)]
    heuristic: Option<HeuristicKind>,
    /// Your integer cost scale with --costs octile on a grid: fine (the default) or
    /// coarse; refused with other costs.
    #[arg(long, value_parser = parse_scale)]
    scale: Option<CostScale>,
    /// With --frontier: answer from the workloads on uniform-cost obstacle grids
    /// (uniform: generated obstacle maps and Moving AI maps) or on weighted terrain
    /// (weighted: rugged, marsh and weighted maps) alone; without it, a band mixing both
    /// says so. Refused with --map, --trace and --graph road.
    #[arg(long, value_enum)]
    terrain: Option<TerrainKind>,
    /// Rank by the 99th-percentile time of one search (what a frame budget asks), not
    /// by total time; the JSON carries each queue's p50, p99 and slowest search.
    #[arg(long)]
    latency: bool,
    /// Print JSON.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print Markdown.
    #[arg(long)]
    markdown: bool,
    /// The results folder: by default the working directory's checkout's
    /// `results/local/` when it holds a run, else its committed `results/`.
    #[arg(long, value_name = "DIR")]
    results: Option<PathBuf>,
    /// Answer from this run file instead of the latest.
    #[arg(long, value_name = "FILE")]
    run: Option<PathBuf>,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A count that must be at least 1: a zero limit, round or thread count would measure
/// nothing and print an empty or NaN answer.
fn positive(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(error) => Err(format!("'{text}' is not a count: {error}")),
    }
}

fn parse_queue(id: &str) -> Result<&'static Entry, String> {
    registry::find(id).ok_or_else(|| {
        format!(
            "unknown queue '{id}' (`pqlab list` describes every queue); the queues are: {}",
            registry::ids()
        )
    })
}

fn parse_heuristic(name: &str) -> Result<HeuristicKind, String> {
    name.parse()
}

fn parse_scale(name: &str) -> Result<CostScale, String> {
    name.parse()
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::List { types } => list(types),
        Command::Validate { maps, queues, per_map, threads, search: SearchArg { search } } => {
            let queues =
                if queues.is_empty() { registry::ENTRIES.iter().collect() } else { queues };
            commands::validate::run(&maps, &queues, search, per_map, threads)
        }
        Command::Run(args) => args.run(),
        Command::Pick(args) => args.run(),
        Command::Report { results, run } => results_folder(results)
            .and_then(|results| pqlab::report::regenerate(&results, run.as_deref()))
            .map(|folder| {
                say!("wrote the report in {}", folder.display());
                ExitCode::SUCCESS
            }),
        Command::Bench { args } => commands::bench::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Diff { a, b, readme, check } => {
            commands::diff::run(&a, &b, readme.as_deref(), check)
        }
        Command::Workloads { quick } => commands::workloads::run(if quick {
            pqlab::lab::Profile::Quick
        } else {
            pqlab::lab::Profile::Default
        }),
        Command::Compare { map, maps, queues, limit, rounds } => {
            let found = match (map, maps) {
                (Some(map), _) => Ok(vec![map]),
                (None, Some(dir)) => pqlab::maps::movingai::find_maps(&dir).and_then(|found| {
                    anyhow::ensure!(
                        !found.is_empty(),
                        "no X.map with X.map.scen under {}",
                        dir.display()
                    );
                    Ok(found.into_iter().map(|(m, _)| m).collect())
                }),
                (None, None) => unreachable!("clap requires one"),
            };
            found.and_then(|maps| {
                let beside: Vec<_> = maps.iter().map(|m| (m.as_path(), None)).collect();
                // compare's searches: octile A* at fine costs, pick's question without flags.
                let queues = named_or_leaders(queues, &beside, Ok(Query::unflagged()));
                commands::compare::compare(&maps, &queues, limit, rounds)
            })
        }
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("pqlab: {error:#}");
            ExitCode::from(2)
        }
    }
}

impl RunArgs {
    /// Reads the map (or draws its problems) and runs its searches.
    fn run(self) -> anyhow::Result<ExitCode> {
        let RunArgs {
            map,
            scen,
            queues,
            heuristic,
            search: SearchArg { search },
            limit,
            moves,
            scale,
            verbose,
            csv,
            json,
        } = self;
        let rules = Rules { connectivity: moves, scale };
        let keys = if heuristic.consistent_on(moves) { Keys::Monotone } else { Keys::Any };
        let query = Query::new(
            false,
            keys,
            Some(search),
            GraphKind::Grid,
            Some(moves),
            Costs::Octile,
            Some(heuristic),
            Some(scale),
        );
        let sample = limit.map_or(Sample::All, Sample::Spread);
        let rows = match (verbose, csv, json) {
            (true, _, _) => Rows::Table,
            (_, true, _) => Rows::Csv,
            (_, _, true) => Rows::Json,
            _ => Rows::None,
        };
        Instance::user_map(&map, scen.as_deref(), sample, rules).and_then(|instance| {
            let queues = named_or_leaders(queues, &[(&map, scen.as_deref())], query);
            commands::run::run(&map, &instance, &queues, heuristic, search, rules, rows)
        })
    }
}

impl PickArgs {
    /// Answers from the runs, or measures the map (`--measure`).
    fn run(self) -> anyhow::Result<ExitCode> {
        let PickArgs {
            frontier,
            map,
            trace,
            scen,
            limit,
            measure,
            queues,
            rounds,
            budget,
            decrease_key,
            keys,
            search,
            graph,
            moves,
            costs,
            heuristic,
            scale,
            terrain,
            latency,
            json,
            markdown,
            results,
            run,
        } = self;
        let format = if json {
            OutputFormat::Json
        } else if markdown {
            OutputFormat::Markdown
        } else {
            OutputFormat::Text
        };
        let query = Query {
            latency,
            ..Query::new(decrease_key, keys, search, graph, moves, costs, heuristic, scale)?
                .on_terrain(terrain)?
        };
        results_folder(results).and_then(|results| {
            if let Some(behind) = pqlab::report::behind(&results) {
                eprintln!("pqlab: {behind}; `pqlab report` writes it again");
            }
            commands::pick::run(commands::pick::Request {
                frontier,
                map,
                trace,
                scen,
                limit,
                measure,
                queues,
                rounds,
                budget: std::time::Duration::from_secs(budget),
                query,
                results,
                run,
                format,
            })
        })
    }
}

/// The queues `run` and `compare` time: those `named`, else the baseline and `pick --map`'s
/// leaders under `query` for each of `maps` (said on stderr), else, where `pick` cannot
/// answer, the baseline alone with the reason.
fn named_or_leaders(
    named: Vec<&'static Entry>,
    maps: &[(&std::path::Path, Option<&std::path::Path>)],
    query: anyhow::Result<Query>,
) -> Vec<&'static Entry> {
    if !named.is_empty() {
        return named;
    }
    let found = query.and_then(|query| {
        let results = pqlab::results::files::default_results()?;
        pqlab::pick::map::leaders(maps, &query, &results)
    });
    match found {
        Ok((queues, said)) => {
            for line in said {
                eprintln!("pqlab: {line}");
            }
            let ids: Vec<&str> = queues.iter().map(|e| e.id).collect();
            eprintln!(
                "pqlab: no --queue named: timing {} (--queue ID names others)",
                ids.join(", ")
            );
            queues
        }
        Err(error) => {
            eprintln!(
                "pqlab: no --queue named and no leaders from `pick --map` ({error:#}): timing {} alone",
                registry::BASELINE
            );
            vec![registry::baseline()]
        }
    }
}

/// The results folder named, or the default one found from the working directory, said on
/// stderr.
fn results_folder(named: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let folder = match named {
        Some(folder) => folder,
        None => pqlab::results::files::default_results()?,
    };
    eprintln!("pqlab: results from {}", folder.display());
    Ok(folder)
}

fn list(types: bool) -> anyhow::Result<ExitCode> {
    if types {
        say!("| id | Rust type | cargo feature of `pqlab-queues` |\n|---|---|---|");
        for e in registry::ENTRIES {
            let ty = registry::type_name(e.id).unwrap_or_default();
            let feature = match e.origin {
                pqlab_queues::Origin::Crate { feature, .. } => format!("`{feature}`"),
                _ => "none".to_owned(),
            };
            say!("| `{}` | `{ty}` | {feature} |", e.id);
        }
        return Ok(ExitCode::SUCCESS);
    }
    say!(
        "{:<24} {:<16} {:<12} {:<13} {:<23} {:<16} origin",
        "id",
        "family",
        "class",
        "strategy",
        "keys",
        "ties"
    );
    for e in registry::ENTRIES {
        let ties = match e.ties {
            pqlab_queues::Ties::Lifo => "LIFO",
            pqlab_queues::Ties::LifoUntilMoved => "LIFO until moved",
            pqlab_queues::Ties::Unspecified => "unspecified",
        };
        let order = match e.order {
            pqlab_queues::Order::Exact => String::new(),
            pqlab_queues::Order::Approximate { epsilon } => {
                format!(" (approximate, ε = {epsilon})")
            }
        };
        say!(
            "{:<24} {:<16} {:<12} {:<13} {:<23} {:<16} {}{order}",
            e.id,
            e.family.to_string(),
            e.class().to_string(),
            e.strategy.to_string(),
            e.keys.to_string(),
            ties,
            e.origin
        );
    }
    for e in registry::ENTRIES {
        if let Err(why) = registry::available(e.id) {
            say!("{}: n/a here: {why}", e.id);
        }
    }
    Ok(ExitCode::SUCCESS)
}
