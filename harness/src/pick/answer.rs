//! The answer and its first line: the ranking, the verdict line naming the winner and
//! its tie group, and the winner's memory, tie order, adoption and frontier share, built
//! from a ranking over weighted workloads.

use pqlab_queues::registry::{self, BASELINE};
use pqlab_queues::{Family, KeyRule, Strategy};
use serde::Serialize;

use super::adopt::adoption;
use crate::analysis::bands;
use crate::analysis::findings::FrontierShare;
use crate::analysis::latency::Latency;
use crate::analysis::noise::Noise;
use crate::analysis::rank::{versus_weighted, Standing};
use crate::analysis::{Findings, Run, Workload};
use crate::format::{plural, ratio, significant};
use crate::maps::TerrainKind;
use crate::results::{Platform, Spread, Status};

/// One queue in an answer's ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// The queue id.
    pub queue: String,
    /// Its family (a registry token in JSON: `binary-heap`).
    pub family: Option<Family>,
    /// Its strategy (`dup`, `dk`).
    pub strategy: Option<Strategy>,
    /// The keys it accepts (`any`, `monotone`, `bounded-span`).
    pub keys: Option<KeyRule>,
    /// Its time ÷ the winner's (1 for the winner), with the 95% interval: `[low, ratio,
    /// high]` in JSON. When `censored` is above 0 the ratio and the low end are lower
    /// bounds and the high end is infinite (`null` in JSON).
    pub vs_best: Spread,
    /// The workloads where it was cut off, whose measured lower bound stands in for its
    /// time ("at least").
    pub censored: usize,
    /// Whether it is in the winner's tie group.
    pub tied: bool,
    /// Its time ÷ std-binary-heap-dup's, when both were measured.
    pub vs_std: Option<f64>,
    /// Its per-search latency, where the rows have it.
    pub latency: Option<Latency>,
}

/// The evidence behind an answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Backing {
    /// The series (`octile A*, fine costs`).
    pub series: String,
    /// The band that answered; `None` for a measurement on the user's map.
    pub band: Option<String>,
    /// `whole searches` or `the queue alone at held sizes`.
    pub source: String,
    /// The workloads, with their frontier sizes and map kinds.
    pub workloads: Vec<(String, f64, String)>,
    /// Whether any workload is a real Moving AI map.
    pub real_maps: bool,
    /// The trace file, when the evidence is the user's trace replayed (`pick --trace`).
    pub trace: Option<String>,
    /// Fewer than three workloads.
    pub weak: bool,
}

/// What an answer's ranking is ordered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankedBy {
    /// Total time over the workloads' searches, with paired bootstrap intervals.
    Time,
    /// The 99th-percentile time of one search (`pick --latency`).
    Latency,
}

/// An answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// What the ranking is ordered by.
    pub ranked_by: RankedBy,
    /// The verdict line.
    pub verdict: String,
    /// The query in words.
    pub asked: String,
    /// The run the rows come from, and its machine.
    pub run: String,
    /// The run's machine.
    pub machine: String,
    /// What the evidence run's noise means for this answer, when it could change rankings.
    pub noise: Option<String>,
    /// When this machine's CPU is not the run's.
    pub machine_note: Option<String>,
    /// The terrain asked (`--terrain`): the evidence is of it alone.
    pub terrain: Option<TerrainKind>,
    /// When no terrain was asked and the band's evidence mixes obstacle grids and weighted
    /// terrain: each side and its leader.
    pub terrain_split: Option<TerrainSplit>,
    /// What backs it.
    pub backing: Vec<Backing>,
    /// Every queue meeting the query, the winner first.
    pub ranking: Vec<Ranked>,
    /// Queues meeting the query that could not be ranked, and why.
    pub not_ranked: Vec<(String, String)>,
    /// The winner's memory: entries held per open cell, and heap bytes per entry.
    pub memory: Vec<String>,
    /// The winner's tie order's effect on the search: its expansions ÷ the baseline's.
    pub tie_order: Option<String>,
    /// How to adopt the winner.
    pub adopt: Option<String>,
    /// How much of these searches the frontier takes with std's heap and with the winner
    /// (`None` where no evidence workload has an oracle row).
    pub frontier_share: Option<Shares>,
    /// What std's heap took over the winner from one evidence workload to the next: the
    /// spread a new workload of the same kind meets; `None` under two workloads.
    pub across: Option<Across>,
    /// The gain promised for a map no run has measured, with its prediction interval
    /// (`pick --map` answering from other maps or the bands).
    pub promise: Option<Promise>,
    /// What else to know.
    pub caveats: Vec<String>,
}

/// std's heap's time ÷ the winner's on each evidence workload: the lowest and highest.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Across {
    /// The lowest.
    pub low: f64,
    /// The highest.
    pub high: f64,
    /// The workloads it is over.
    pub workloads: usize,
}

/// The gain `pick --map` promises for a map no run has measured: std's heap's time ÷ the
/// winner's, with a prediction interval for a new map. Its ends are the gain times the
/// `k`-th smallest and largest errors of the same prediction on `maps` real maps, each left
/// out in turn (`ln measured − ln promised`), `k` the largest with `(n + 1 − 2k) ÷ (n + 1)`
/// at least 95% (at least 1): the order statistics of `n` exchangeable errors cover a new
/// one with that probability, whatever their distribution. The map-to-map spread is in
/// the errors; another CPU's is added when this machine's CPU is not the evidence's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Promise {
    /// The promised gain, as the verdict line says it.
    pub gain: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
    /// The share of new maps it is built to cover, `(n + 1 − 2k) ÷ (n + 1)`.
    pub coverage: f64,
    /// The maps it was calibrated on.
    pub maps: usize,
    /// The factor each end was widened by for another CPU, when it was.
    pub cpu: Option<f64>,
}

/// The fewest left-out maps a promise is calibrated on: with fewer, the order statistics
/// cover a new map less than 80% of the time (`(n − 1) ÷ (n + 1)`).
pub const PROMISE_MAPS: usize = 9;

impl Promise {
    /// The promise of `gain` from the left-out `errors`, each end widened by the factor
    /// `cpu` when given; `None` under [`PROMISE_MAPS`] errors.
    pub fn of(gain: f64, errors: &[f64], cpu: Option<f64>) -> Option<Promise> {
        let n = errors.len();
        if n < PROMISE_MAPS {
            return None;
        }
        let mut sorted = errors.to_vec();
        sorted.sort_by(f64::total_cmp);
        let k = ((0.025 * (n + 1) as f64).floor() as usize).max(1);
        let widen = cpu.unwrap_or(1.0);
        Some(Promise {
            gain,
            low: gain * sorted[k - 1].exp() / widen,
            high: gain * sorted[n - k].exp() * widen,
            coverage: (n + 1 - 2 * k) as f64 / (n + 1) as f64,
            maps: n,
            cpu,
        })
    }

    /// Whether `measured` lies inside it.
    pub fn covers(&self, measured: f64) -> bool {
        self.low <= measured && measured <= self.high
    }
}

/// A band's evidence mixing obstacle grids and weighted terrain.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerrainSplit {
    /// The band whose evidence it is.
    pub band: String,
    /// Each terrain in it, uniform first.
    pub sides: Vec<TerrainSide>,
}

/// One terrain's side of a band's evidence.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerrainSide {
    /// The terrain.
    pub terrain: TerrainKind,
    /// Its workloads in the band.
    pub workloads: usize,
    /// Their map kinds.
    pub map_kinds: Vec<String>,
    /// The queue leading on them alone: what `--terrain` answers.
    pub winner: Option<String>,
}

impl TerrainSplit {
    /// One line: `The 1k–3k band mixes uniform-cost obstacle grids (2 workloads: cave,
    /// rooms), where `a` leads, and weighted terrain (1: rugged), where `b` leads; ask
    /// with --terrain uniform or --terrain weighted for one of them.`
    pub fn sentence(&self) -> String {
        let sides: Vec<String> = self
            .sides
            .iter()
            .enumerate()
            .map(|(i, side)| {
                let n = if i == 0 {
                    plural(side.workloads, "workload")
                } else {
                    side.workloads.to_string()
                };
                let leads = side
                    .winner
                    .as_ref()
                    .map_or("no queue was ranked".to_owned(), |w| format!("`{w}` leads"));
                format!(
                    "{} ({n}: {}), where {leads}",
                    side.terrain.describe(),
                    side.map_kinds.join(", ")
                )
            })
            .collect();
        let ask: Vec<String> =
            self.sides.iter().map(|s| format!("`--terrain {}`", s.terrain.token())).collect();
        format!(
            "The {} band mixes {}; ask with {} for one of them.",
            self.band,
            sides.join(", and "),
            ask.join(" or ")
        )
    }
}

/// The frontier's share of the searches behind an answer, with std's heap and with the
/// winner ([`Findings::frontier_share`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Shares {
    /// With std's heap.
    pub std: FrontierShare,
    /// With the winner.
    pub winner: FrontierShare,
}

/// The answer's text from a ranking over weighted workloads.
pub fn build_answer(
    findings: &Findings<'_, '_>,
    workloads: &[(&Workload<'_>, f64)],
    standings: &[Standing<'_>],
    backing: Vec<Backing>,
    asked: String,
    mut caveats: Vec<String>,
) -> Answer {
    let run = findings.run;
    let ranking = ranked(workloads, standings);
    let winner = ranking.first().map(|r| r.queue.as_str());
    let (memory, tie_order) = match winner {
        Some(w) => (memory(run, workloads, w), tie_order(workloads, w)),
        None => (Vec::new(), None),
    };
    let adopt = winner.and_then(registry::find).map(adoption);
    let frontier_share = winner.and_then(|w| {
        Some(Shares {
            std: findings.frontier_share(workloads, BASELINE)?,
            winner: findings.frontier_share(workloads, w)?,
        })
    });
    if backing.iter().any(|b| b.weak) {
        caveats.push(format!(
            "Some of the evidence is weak: fewer than {} workloads in a band.",
            bands::STRONG
        ));
    }
    caveats.extend(untimed(workloads));
    let across = winner.and_then(|w| across(workloads, w));
    Answer {
        ranked_by: RankedBy::Time,
        verdict: verdict(workloads, &ranking),
        asked,
        run: run.run_id(),
        machine: run.machine(),
        noise: findings.noise().filter(|n| n.troubling()).map(noise_meaning),
        machine_note: machine_note(run),
        terrain: None,
        terrain_split: None,
        backing,
        not_ranked: not_ranked(workloads, standings),
        ranking,
        memory,
        tie_order,
        adopt,
        frontier_share,
        across,
        promise: None,
        caveats,
    }
}

/// std's heap's time ÷ `winner`'s on each of `workloads` where both were measured: the
/// lowest and highest; `None` under two such workloads.
fn across(workloads: &[(&Workload<'_>, f64)], winner: &str) -> Option<Across> {
    let gains: Vec<f64> = workloads
        .iter()
        .filter_map(|(w, _)| Some(w.ok(BASELINE)?.median_ns / w.ok(winner)?.median_ns))
        .collect();
    (gains.len() >= 2 && winner != BASELINE).then(|| Across {
        low: gains.iter().copied().fold(f64::INFINITY, f64::min),
        high: gains.iter().copied().fold(0.0, f64::max),
        workloads: gains.len(),
    })
}

/// What a noisy evidence run means for the answer: how far it drifted, and how close a
/// ranking may be and still change; measuring the map settles it.
fn noise_meaning(noise: &Noise) -> String {
    let left = noise
        .paired
        .and_then(|p| p.residual)
        .map_or(String::new(), |r| format!(" and the pairing left {:.1}% of noise", r * 100.0));
    format!(
        "The evidence run drifted {:.1}%{left}: queues closer than {:.0}% in it may swap from run to run, and so may this answer; measure your map (`pqlab pick --map YOUR.map --measure`).",
        noise.drift * 100.0,
        noise.unsettled() * 100.0
    )
}

/// The contenders among `standings`, in rank order, with their registry facts and their
/// time over std's heap.
fn ranked(workloads: &[(&Workload<'_>, f64)], standings: &[Standing<'_>]) -> Vec<Ranked> {
    standings
        .iter()
        .filter(|s| s.contends)
        .map(|s| {
            let entry = registry::find(s.queue);
            Ranked {
                queue: s.queue.to_owned(),
                family: entry.map(|e| e.family),
                strategy: entry.map(|e| e.strategy),
                keys: entry.map(|e| e.keys),
                vs_best: s.against_winner.unwrap_or(Spread::exact(1.0)),
                censored: s.censored,
                tied: s.tied,
                vs_std: versus_weighted(workloads, s.queue, BASELINE).map(|v| v.ratio.mid),
                latency: None,
            }
        })
        .collect()
}

/// How many registered queues have no row at all on `workloads` (none was even tried
/// there), said when some have: a store, tie-rule or generic-A\* series times std's heap and
/// its twins' leaders only, and a run older than a queue lacks it.
fn untimed(workloads: &[(&Workload<'_>, f64)]) -> Option<String> {
    let absent: Vec<&str> = registry::ENTRIES
        .iter()
        .map(|e| e.id)
        .filter(|id| !workloads.iter().any(|(w, _)| w.rows.contains_key(id)))
        .collect();
    (!absent.is_empty() && !workloads.is_empty()).then(|| {
        format!(
            "{} of the {} registered queues were not timed on these workloads, so they are not ranked: a series that changes one factor of a band (the store, the tie rule, the generic A*) times std's BinaryHeap and the band's leaders only, and a run older than a queue lacks it.",
            absent.len(),
            registry::ENTRIES.len()
        )
    })
}

/// The queues of `standings` that do not contend, each with the reason.
fn not_ranked(
    workloads: &[(&Workload<'_>, f64)],
    standings: &[Standing<'_>],
) -> Vec<(String, String)> {
    standings
        .iter()
        .filter(|s| !s.contends)
        .map(|s| {
            let reason = if s.cut_off > s.censored {
                format!(
                    "cut off on {} without a measured bound (an older run's cut-off)",
                    plural(s.cut_off - s.censored, "workload")
                )
            } else if s.failed > 0 {
                format!("failed on {}", plural(s.failed, "workload"))
            } else if let Some(why) = workloads.iter().find_map(|(w, _)| {
                w.rows.get(s.queue).filter(|r| r.status == Status::NotApplicable)
            }) {
                format!("n/a: {}", why.note)
            } else {
                format!("measured on {} of the workloads only", s.ok)
            };
            (s.queue.to_owned(), reason)
        })
        .collect()
}

/// The verdict line: the winner, its tie group, and what std's heap takes over it.
fn verdict(workloads: &[(&Workload<'_>, f64)], ranking: &[Ranked]) -> String {
    let Some(best) = ranking.first() else {
        return "No queue meeting the query was timed on these workloads.".to_owned();
    };
    let ties: Vec<String> =
        ranking.iter().skip(1).filter(|r| r.tied).map(|r| format!("`{}`", r.queue)).collect();
    let mut line = format!("Use `{}`", best.queue);
    if !ties.is_empty() {
        line.push_str(&format!(
            "; {} {} within noise of it",
            ties.join(", "),
            if ties.len() == 1 { "is" } else { "are" }
        ));
    }
    match versus_weighted(workloads, BASELINE, &best.queue) {
        Some(v) if best.queue != BASELINE => line.push_str(&format!(
            "; std's BinaryHeap (`{BASELINE}`) takes {} its time (95% interval {}–{}, these workloads measured again).",
            ratio(v.ratio.mid),
            ratio(v.ratio.low),
            ratio(v.ratio.high)
        )),
        _ if best.queue == BASELINE => line.push_str(": std's BinaryHeap is the best here."),
        _ => line.push('.'),
    }
    line
}

/// The winner's memory: entries held per open cell over the workloads, and heap bytes
/// per entry at the held size the report charts them ([`crate::analysis::memory`]).
fn memory(run: &Run<'_>, workloads: &[(&Workload<'_>, f64)], winner: &str) -> Vec<String> {
    let mut memory = Vec::new();
    let per_open: Vec<f64> = workloads
        .iter()
        .filter_map(|(wl, _)| crate::analysis::memory::entries_per_open(wl.ok(winner)?))
        .collect();
    if !per_open.is_empty() {
        let mean = per_open.iter().sum::<f64>() / per_open.len() as f64;
        memory.push(format!("`{winner}` held {} entries per open cell at its largest (duplicates keep stale entries).", significant(mean, 3)));
    }
    if let Some(b) = crate::analysis::memory::bytes_per_entry(run, winner) {
        memory.push(format!(
            "It allocates {} bytes per entry held (measured at a held size).",
            significant(b, 3)
        ));
    }
    memory
}

/// The winner's tie order's effect on the search: its expansions ÷ the baseline's
/// (`None` when the winner is the baseline, or nothing was searched).
fn tie_order(workloads: &[(&Workload<'_>, f64)], winner: &str) -> Option<String> {
    // Held sizes expand nothing (0 / 0): `expansions_versus` keeps only whole searches.
    let searched: Vec<&Workload<'_>> = workloads.iter().map(|(wl, _)| *wl).collect();
    let expansions = crate::analysis::rank::expansions_versus(&searched, winner, BASELINE);
    let (e, _) = expansions.filter(|_| winner != BASELINE)?;
    Some(format!(
        "Its tie order expands {} the cells std-binary-heap-dup's does on these workloads{}.",
        ratio(e),
        if (e - 1.0).abs() < 0.01 { " (the same search)" } else { "" }
    ))
}

/// A note when this machine's CPU kind is not the run's, or cannot be told from it
/// ([`Platform::same_cpu`]).
fn machine_note(run: &Run<'_>) -> Option<String> {
    let (here, there) = (Platform::detect(), run.platform());
    let what = match here.same_cpu(&there) {
        Some(true) => return None,
        Some(false) => "This machine's CPU is not the evidence run's",
        None => "The evidence run did not record its CPU's family, so whether this CPU is its kind cannot be told",
    };
    Some(format!(
        "{what}: the figures come from {}, and this is {}. Winners and verdicts held across \
         the committed runs' CPUs, but the ratios move with the CPU (the report's \"Machines\" \
         section): measure on this machine with `pqlab pick --map YOUR.map --measure` \
         (seconds), or run `cargo bench`.",
        there.kind(),
        here.kind()
    ))
}
