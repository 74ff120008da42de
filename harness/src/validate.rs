//! `pqlab validate`: every selected queue solves every problem of every Moving AI map under
//! a folder with one registry search (the tuned A\* by default; JPS, a tie rule, the generic
//! A\*). Exact queues must find the scenario's optimal length, and all of them the same
//! cost to the last fixed-point unit; approximate queues (soft heaps) must return a valid
//! path no shorter than optimal (checked step by step where the search keeps its path), and
//! their excess is reported. A queue the search cannot take on a map (a bounded span below
//! its keys' rise) is reported not checked there, as `pqlab run` skips it.
//!
//! The work (map × queue × a run of 100 problems, `CHUNK`) is spread over worker threads, so
//! one queue uses every core to the end, even when one map's searches take most of the
//! time. A map that cannot be read is reported and the others are still checked.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use pqlab_queues::registry::Entry;

use crate::maps::grid::Rules;
use crate::maps::instance::{Instance, Sample};
use crate::maps::moves::{Components, Moves};
use crate::maps::scenario::describe_cost;
use crate::search::check;
use crate::search::grid_loop::Target;
use crate::search::heuristic::{AnyHeuristic, HeuristicKind};
use crate::search::outcome::SearchError;
use crate::search::SearchKind;
use crate::search::Series;

/// What one search answered: its cost and excess over the optimum, or why not.
type SearchAnswer = Result<(Option<u64>, f64), Unanswered>;

/// Why a search gave no answer to check.
#[derive(Clone, Debug)]
enum Unanswered {
    /// A wrong answer, or a search that failed: the message says which.
    Wrong(String),
    /// The path's cost does not fit the search's 32-bit costs: a limit of the
    /// representation, not a wrong answer.
    Beyond(String),
    /// The search cannot take the queue on this map: the reason.
    Refused(String),
}

/// The failures shown per map; the rest are counted.
pub const SHOWN: usize = 10;

/// Problems per unit of work. Each unit builds its own search context (O(cells): a few
/// milliseconds on a 1024² map), which a hundred searches make negligible; and a unit is
/// short enough that the last ones leave no thread idle for long: with whole maps as units,
/// 22% of two threads' time went idle (six queues validated on nine maps: 678 s of
/// CPU in 432 s of wall time).
const CHUNK: usize = 100;

/// `problems` problems split into units of [`CHUNK`].
fn chunks(problems: usize) -> Vec<Range<usize>> {
    (0..problems).step_by(CHUNK).map(|start| start..(start + CHUNK).min(problems)).collect()
}

/// One map's checks.
#[derive(Clone, Debug, Default)]
pub struct MapReport {
    /// The map's name.
    pub name: String,
    /// Problems solved by each queue.
    pub problems: usize,
    /// Queue × problem checks that passed.
    pub passed: usize,
    /// The failed checks' messages (`file:line: queue: expected …, found …`).
    pub failures: Vec<String>,
    /// The searches whose costs do not fit 32 bits at the fine scale (`file:line: queue:
    /// why`): not checked, and not failures.
    pub beyond: Vec<String>,
    /// The queues the search cannot take on this map (`queue: why`), once each: not
    /// checked, and not failures.
    pub refused: Vec<String>,
    /// For approximate queues: `(queue, mean excess, largest excess)`.
    pub excess: Vec<(&'static str, f64, f64)>,
    /// Why the map could not be checked at all.
    pub error: Option<String>,
    /// Seconds of work spent on it (summed over threads).
    pub seconds: f64,
}

/// Solves the problems `range` of `instance` with `search` built with `queue`, and checks
/// each answer (every answer [`Unanswered::Refused`] when the search cannot take the queue).
fn solve(
    instance: &Instance,
    range: Range<usize>,
    rules: Rules,
    components: &Components,
    search: SearchKind,
    queue: &'static Entry,
) -> Vec<SearchAnswer> {
    let grid = &instance.grid;
    let moves = Moves::new(grid, rules.connectivity, rules.scale);
    let series = Series::on_grid(search, rules, HeuristicKind::Octile);
    let target = Target { grid, moves: &moves, series };
    let built = (search.entry().build)(&target, queue).and_then(|search| {
        let octile =
            AnyHeuristic::new(HeuristicKind::Octile, grid, rules.connectivity, rules.scale)?;
        Ok((search, octile))
    });
    let (mut search, mut octile) = match built {
        Ok(built) => built,
        Err(why) => return vec![Err(Unanswered::Refused(why)); range.len()],
    };
    let exact = queue.is_exact();
    instance.problems[range]
        .iter()
        .map(|p| {
            let outcome = search
                .search(grid, &mut octile, Some(components), p.start, p.goal)
                .map_err(|e| match e {
                    SearchError::CostOverflow { .. } => Unanswered::Beyond(e.to_string()),
                    _ => Unanswered::Wrong(e.to_string()),
                })?;
            let checked = check::answer(p.expected, outcome.cost, rules.scale, exact, None)
                .map_err(Unanswered::Wrong)?;
            if let (false, Some(cost), Some(path)) =
                (exact, outcome.cost, search.path(grid, p.goal))
            {
                if check::path_cost(grid, &moves, &path) != Some(cost) {
                    return Err(Unanswered::Wrong(
                        "the path returned does not add up to its cost".into(),
                    ));
                }
            }
            Ok((outcome.cost, checked.excess()))
        })
        .collect()
}

/// One map's slot in the shared work.
struct MapSlot {
    loaded: Result<(Instance, Components), String>,
    /// Per queue, the answers to each problem, filled in chunk by chunk.
    answers: Vec<Mutex<Vec<Option<SearchAnswer>>>>,
    /// The map's problems, split into units of [`CHUNK`].
    chunks: Vec<Range<usize>>,
    /// Units (queue × chunk) not yet done.
    left: AtomicUsize,
    seconds: Mutex<f64>,
}

impl MapSlot {
    /// `map` and its scenario `scen` read (or why not, or why `search` cannot take the map),
    /// with room for the answers of `queues` queues.
    fn load(map: &Path, scen: &Path, sample: Sample, search: SearchKind, queues: usize) -> MapSlot {
        let loaded = Instance::movingai(map, Some(scen), sample)
            .map_err(|e| format!("{e:#}"))
            .and_then(|i| {
                let needs = search.entry().needs;
                needs.workload(&i.grid, HeuristicKind::Octile).map_err(|why| {
                    format!("{}: --search {}: {why}", map.display(), search.token())
                })?;
                let components = Components::new(&i.grid);
                Ok((i, components))
            });
        let problems = loaded.as_ref().map_or(0, |(i, _)| i.problems.len());
        let chunks = chunks(problems);
        MapSlot {
            answers: (0..queues).map(|_| Mutex::new(vec![None; problems])).collect(),
            left: AtomicUsize::new(queues * chunks.len()),
            chunks,
            loaded,
            seconds: Mutex::new(0.0),
        }
    }

    /// One unit of work: solves the problems `range` of this (loaded) map with `search` and
    /// `queue`, the `q`-th queue, files the answers and adds the time spent.
    fn solve(
        &self,
        (q, queue): (usize, &'static Entry),
        search: SearchKind,
        range: Range<usize>,
        rules: Rules,
    ) {
        let (instance, components) = self.loaded.as_ref().expect("only loaded maps are queued");
        let started = Instant::now();
        let answers = solve(instance, range.clone(), rules, components, search, queue);
        let mut held = self.answers[q].lock().expect("not poisoned");
        for (held, answer) in held[range].iter_mut().zip(answers) {
            *held = Some(answer);
        }
        drop(held);
        *self.seconds.lock().expect("not poisoned") += started.elapsed().as_secs_f64();
    }
}

/// The most worker threads a core: more only add stacks and contention, since every
/// thread is busy solving.
pub const THREADS_PER_CORE: usize = 4;

/// The worker threads `asked` gives: at most [`THREADS_PER_CORE`] × the available cores.
pub fn workers(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    asked.clamp(1, cores * THREADS_PER_CORE)
}

/// Checks `queues` with `search` on every map of `maps` (`(map, scenario)` pairs) with
/// `threads` workers
/// (at most [`workers`]`(threads)`, and no more than there are units of work); `report` is
/// called with each map's report as soon as all its queues are done, in the order they
/// finish, and `tick` with `(searches done, searches in all)` after each unit of work, for
/// a progress bar. Returns every report, in map order, and the number of threads that ran.
pub fn validate(
    maps: &[(PathBuf, PathBuf)],
    queues: &[&'static Entry],
    search: SearchKind,
    sample: Sample,
    threads: usize,
    report: &(dyn Fn(&MapReport) + Sync),
    tick: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<MapReport>, usize) {
    let rules = Rules::default();
    let slots: Vec<MapSlot> = maps
        .iter()
        .map(|(map, scen)| MapSlot::load(map, scen, sample, search, queues.len()))
        .collect();
    let reports: Vec<Mutex<Option<MapReport>>> = maps.iter().map(|_| Mutex::new(None)).collect();
    // Broken maps are reported at once.
    for (i, slot) in slots.iter().enumerate() {
        if let Err(error) = &slot.loaded {
            let r = MapReport {
                name: maps[i].0.display().to_string(),
                error: Some(error.clone()),
                ..MapReport::default()
            };
            report(&r);
            *reports[i].lock().expect("not poisoned") = Some(r);
        }
    }
    let work: Vec<(usize, usize, Range<usize>)> = (0..slots.len())
        .filter(|&m| slots[m].loaded.is_ok())
        .flat_map(|m| {
            let chunks = &slots[m].chunks;
            (0..queues.len()).flat_map(move |q| chunks.iter().map(move |c| (m, q, c.clone())))
        })
        .collect();
    let total: usize = work.iter().map(|(_, _, range)| range.len()).sum();
    let solved = AtomicUsize::new(0);
    let next = AtomicUsize::new(0);
    let ran = workers(threads).min(work.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..ran {
            scope.spawn(|| {
                while let Some((m, q, range)) =
                    work.get(next.fetch_add(1, Ordering::Relaxed)).cloned()
                {
                    let slot = &slots[m];
                    let searches = range.len();
                    slot.solve((q, queues[q]), search, range, rules);
                    tick(solved.fetch_add(searches, Ordering::Relaxed) + searches, total);
                    if slot.left.fetch_sub(1, Ordering::AcqRel) == 1 {
                        let (instance, _) =
                            slot.loaded.as_ref().expect("only loaded maps are queued");
                        let r = judge(instance, queues, slot, rules);
                        report(&r);
                        *reports[m].lock().expect("not poisoned") = Some(r);
                    }
                }
            });
        }
    });
    let reports = reports
        .into_iter()
        .map(|r| r.into_inner().expect("not poisoned").unwrap_or_default())
        .collect();
    (reports, ran)
}

/// One map's report from its queues' answers: every answer checked, and the exact queues'
/// costs against each other.
fn judge(
    instance: &Instance,
    queues: &[&'static Entry],
    slot: &MapSlot,
    rules: Rules,
) -> MapReport {
    let answers: Vec<Vec<SearchAnswer>> = slot
        .answers
        .iter()
        .map(|a| {
            let answers = std::mem::take(&mut *a.lock().expect("not poisoned"));
            answers
                .into_iter()
                .map(|a| a.expect("every chunk is solved before the map is judged"))
                .collect()
        })
        .collect();
    let mut report = MapReport {
        name: instance.name.clone(),
        problems: instance.problems.len(),
        seconds: *slot.seconds.lock().expect("not poisoned"),
        ..MapReport::default()
    };
    for (q, entry) in queues.iter().enumerate() {
        if let Some(Err(Unanswered::Refused(why))) = answers[q].first() {
            report.refused.push(format!("{}: {why}", entry.id));
        }
    }
    for (p, _) in instance.problems.iter().enumerate() {
        // The first exact queue that answered is the others' reference.
        let reference = queues.iter().enumerate().find_map(|(r, e)| {
            e.is_exact().then(|| answers[r][p].as_ref().ok().map(|(c, _)| (e.id, *c))).flatten()
        });
        for (q, entry) in queues.iter().enumerate() {
            let outcome = match &answers[q][p] {
                Err(Unanswered::Beyond(why)) => {
                    report.beyond.push(format!("{}: {}: {why}", instance.locate(p), entry.id));
                    continue;
                }
                Err(Unanswered::Refused(_)) => continue,
                Err(Unanswered::Wrong(e)) => Err(e.clone()),
                Ok((cost, _)) if entry.is_exact() && reference.is_some_and(|(_, r)| r != *cost) => {
                    let (id, reference) = reference.expect("checked");
                    Err(format!(
                        "found {}, but {id} found {}",
                        describe_cost(*cost, rules.scale),
                        describe_cost(reference, rules.scale)
                    ))
                }
                Ok(_) => Ok(()),
            };
            match outcome {
                Ok(()) => report.passed += 1,
                Err(e) => {
                    report.failures.push(format!("{}: {}: {e}", instance.locate(p), entry.id))
                }
            }
        }
    }
    for (q, entry) in queues.iter().enumerate().filter(|(_, e)| !e.is_exact()) {
        let excess: Vec<f64> =
            answers[q].iter().filter_map(|a| a.as_ref().ok()).map(|(_, e)| *e).collect();
        if !excess.is_empty() {
            let mean = excess.iter().sum::<f64>() / excess.len() as f64;
            report.excess.push((entry.id, mean, excess.iter().copied().fold(0.0, f64::max)));
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqlab_queues::registry;

    #[test]
    fn a_broken_map_is_reported_and_the_others_checked() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        std::fs::write(dir.join("good.map"), "type octile\nheight 1\nwidth 3\nmap\n...\n").unwrap();
        std::fs::write(dir.join("good.map.scen"), "version 1\n0\tgood.map\t3\t1\t0\t0\t2\t0\t2\n")
            .unwrap();
        std::fs::write(dir.join("bad.map"), "type octile\nheight 1\nwidth 3\nmap\n..\n").unwrap();
        std::fs::write(dir.join("bad.map.scen"), "version 1\n").unwrap();
        let maps = crate::maps::movingai::find_maps(dir).unwrap();
        let queues = [registry::baseline()];
        let (reports, _) =
            validate(&maps, &queues, SearchKind::Astar, Sample::All, 2, &|_| {}, &|_, _| {});
        assert_eq!(reports.len(), 2);
        let bad = reports.iter().find(|r| r.name.contains("bad")).unwrap();
        assert!(bad.error.as_ref().unwrap().contains("bad.map:5"), "{:?}", bad.error);
        let good = reports.iter().find(|r| r.name.contains("good")).unwrap();
        assert_eq!((good.passed, good.failures.len()), (1, 0));
    }

    #[test]
    fn every_chunk_of_a_map_is_checked_and_its_failures_placed() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        std::fs::write(dir.join("row.map"), "type octile\nheight 1\nwidth 3\nmap\n...\n").unwrap();
        // 2.5 chunks of problems; the one on line 231 (the third chunk) claims a wrong length.
        let problems = 5 * CHUNK / 2;
        let mut scen = String::from("version 1\n");
        for i in 0..problems {
            let length = if i + 2 == 231 { 3 } else { 2 };
            scen.push_str(&format!("0\trow.map\t3\t1\t0\t0\t2\t0\t{length}\n"));
        }
        std::fs::write(dir.join("row.map.scen"), scen).unwrap();
        let maps = crate::maps::movingai::find_maps(dir).unwrap();
        let queues = [registry::baseline(), registry::find("dary4-dk").unwrap()];
        let (reports, _) =
            validate(&maps, &queues, SearchKind::Astar, Sample::All, 2, &|_| {}, &|_, _| {});
        let r = &reports[0];
        assert_eq!(r.problems, problems);
        assert_eq!(r.passed, 2 * (problems - 1));
        assert_eq!(r.failures.len(), 2, "{:?}", r.failures);
        assert!(r.failures.iter().all(|f| f.contains(".scen:231")), "{:?}", r.failures);
    }
}
