//! The folklore the report tests: each claim checked against a run, with the figures.
//!
//! Every verdict compares queues head to head ([`versus`]) on the workloads where both
//! were measured, after choosing each side's best queue over those workloads ([`rank`]):
//! what someone following the claim would pick. A difference counts only beyond the tie
//! margin with 95% confidence (see `analysis::rank`); a verdict backed by fewer than
//! three workloads says it is weak. Ratios are written one way: "takes 0.85× the time of".
//!
//! Adding a verdict: a function `fn(&Findings) -> Verdict` in one of this folder's files, and
//! one entry in [`CLAIMS`]: its quote whole, where it stands ([`Source`]), what it asks and
//! its threshold. METHODOLOGY.md's last section lists the entries (a test keeps it so).

mod factors;
mod folklore;
mod loops;
mod survey;
/// The verdict on `claim` among `verdicts`, if they include it: two runs' lists are
/// matched by claim, never by position.
pub fn on<'v>(verdicts: &'v [Verdict], claim: &str) -> Option<&'v Verdict> {
    verdicts.iter().find(|v| v.claim == claim)
}

#[cfg(test)]
mod tests;
mod ties;
mod unreachable;

use std::cmp::Ordering;
use std::fmt;

use pqlab_queues::{Class, Family};

use crate::analysis::bands::{self, STRONG};

use crate::analysis::rank::{rank, versus, Versus};
use crate::analysis::{Findings, Run, Workload};
use crate::format::{plural, ratio};
use crate::results::{Kind, Row};
use crate::search::Series;

/// A claim the report decides: its words, where they stand, how it is asked, and the rule.
pub struct Claim {
    /// A short stable name (kebab-case), for a reader that picks one claim out.
    pub id: &'static str,
    /// The claim, quoted whole from its source.
    pub quote: &'static str,
    /// Where the quote stands.
    pub source: Source,
    /// What the verdict compares, with which comparator, on which data: one sentence, as
    /// the report prints it under the verdict.
    pub asks: &'static str,
    /// The line the rule draws, in the text's own terms: what holds it.
    pub threshold: &'static str,
    /// The rule: the verdict on a run.
    pub decide: fn(&Findings<'_, '_>) -> Verdict,
}

/// Where a claim's quote stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file of the source texts (`../shared/seeds/`, whose README names each).
    Seed(&'static str),
    /// A work outside the source texts, named.
    Outside(&'static str),
    /// The lab's own question, asked beside a source text's sentence (the file) that it does
    /// not measure as written.
    Lab(&'static str),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Seed(file) => write!(f, "`{file}`"),
            Source::Outside(work) => write!(f, "from outside the sources: {work}"),
            Source::Lab(file) => write!(f, "the lab's own question, beside `{file}`"),
        }
    }
}

/// Every claim the report decides, in the order it lists them.
pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "generic-choice",
        quote: "The best generic choice is a binary heap. If you have a binary heap library available, use it.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best exact queue that accepts any key with std's BinaryHeap (the library heap the text recommends) over the octile A* workloads, and counts the frontier-size bands whose tie group holds a binary heap; a two-level queue is named as the text files it, a cheap variant of a HOT queue.",
        threshold: "nothing generic faster than std's BinaryHeap beyond the tie margin (95% interval)",
        decide: folklore::binary_heap_is_the_generic_choice,
    },
    Claim {
        id: "unsorted-arrays",
        quote: "The O(F) scans should have good cache behavior, so unsorted arrays would be my second choice after binary heaps, especially for smaller F.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "The seed's \"my second choice after binary heaps, especially for smaller F\" concedes a binary heap is faster: ranks the best unsorted array among the simple structures, against the best sorted array, band by band, whole octile A* searches where they reached the band and the queue alone at held sizes below that (marked weak: no A* search is that small), with the best binary heap beside it, and names the band where it stops leading.",
        threshold: "not slower than the best sorted array beyond the tie margin in every band below 100 open cells",
        decide: folklore::unsorted_arrays_for_small_frontiers,
    },
    Claim {
        id: "bucketing",
        quote: "If you have more than 10,000 elements in your OPEN set, then consider more complicated structures such as a bucketing system.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best bucketing queue (bucket queue, radix heap, HOT queue) with the best other exact queue on the octile A* workloads from 10,000 open cells, and names in the summary the smallest band from which bucketing wins every band (where the data turn).",
        threshold: "faster than the best other exact queue beyond the tie margin from 10,000 open cells",
        decide: folklore::bucketing_above_10k,
    },
    Claim {
        id: "bucketing-every-size",
        quote: "My gut feeling is that bucketing is promising.",
        source: Source::Seed("002_b2900ed08176bb73.txt"),
        asks: "The implementation guide's sentence, of the narrow priorities of Dijkstra's algorithm and A* (\"A* produces a wider range of priorities but it's still worth looking at\"), names no size: compares the best bucketing queue (bucket queue, radix heap, HOT queue) with the best other exact queue band by band on whole octile A* searches, every band from the smallest measured.",
        threshold: "not slower than the best other exact queue beyond the tie margin in every band (the lab's reading of \"promising\"; the text gives no figure)",
        decide: survey::bucketing_at_every_size,
    },
    Claim {
        id: "latency-over-throughput",
        quote: "In real-time games, the latency of A* is often more important than its throughput.",
        source: Source::Lab("000_f921d3e21405ecd3.txt"),
        asks: "The lab's own question beside the sentence: does ranking by latency change the pick? Band by band over the octile A* workloads, the fastest exact queue by median time per search (throughput) against the exact queue with the lowest 99th-percentile search (latency; geometric mean over the band's workloads).",
        threshold: "a different pick by the p99 search in every band (latency then matters to the choice); the text gives no figure",
        decide: survey::latency_changes_the_pick,
    },
    Claim {
        id: "hot-queues",
        quote: "One person reported that HOT queues are as fast as heaps for at most 800 nodes in the OPEN set, and are 20% faster when there are at most 1500 nodes.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best HOT queue with the best binary heap (the seed's comparator) on octile A* workloads up to 800 open cells and from 800 to 1,500 (the sentence's two brackets), and with the best d-ary heap as a second comparator.",
        threshold: "up to 800 open cells not slower beyond the tie margin; up to 1,500 at most 1/1.2 of the heap's time (interval's high end)",
        decide: folklore::hot_queues_against_heaps,
    },
    Claim {
        id: "duplicates",
        quote: "It will revisit some locations more than necessary (but rarely, in my experience). The code is simpler and it allows me to use a simpler and faster priority queue that does not support the decrease-key operation.",
        source: Source::Seed("002_b2900ed08176bb73.txt"),
        asks: "Compares duplicates with decrease-key over the octile A* workloads in three pairings: the seeds' (std's BinaryHeap, a library heap without decrease-key, against the indexed binary heap `dary2-dk`), library against library (std's against the best library binary heap with decrease-key), and each structure built both ways against itself; partly when they disagree. The premise that adjustments are rare is decided on its own (`adjustments-rare`).",
        threshold: "duplicates not slower beyond the tie margin in each of three pairings",
        decide: folklore::duplicates_over_decrease_key,
    },
    Claim {
        id: "adjustments-rare",
        quote: "If the node being examined is already in the OPEN set (which happens frequently), and if its f value is better than the one already in the OPEN set (which is rare), then the value in the OPEN set must be adjustment.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "The premise of skipping decrease-key, with Red Blob's \"(but rarely, in my experience)\" (`002_b2900ed08176bb73.txt`): over the octile A* workloads, the share of the indexed binary heap's key updates that were decrease-keys, and the share of std's BinaryHeap's pops that were stale duplicates, each pooled with its range across the workloads.",
        threshold: "both shares at most 10% (the lab's reading of \"rare\"; the sources give no figure)",
        decide: folklore::adjustments_are_rare,
    },
    Claim {
        id: "always-insert",
        quote: "Some implementations always insert a new node into the open set, even if it's already there. You can avoid the potentially expensive step of checking whether the node is already in the open set. This will make your open set bigger/slower and you'll also end up evaluating more nodes than necessary. If the open-set test is expensive, it might still be worth it. However, in the code I've presented, I made the test cheap and I don't use this approach.",
        source: Source::Seed("002_b2900ed08176bb73.txt"),
        asks: "The text's own comparator, a cheap open-set test: the indexed binary heap with duplicates (`dary2-dup`, no test) against itself with the test and decrease-key (`dary2-dk`), over the octile A* workloads of every run (no workload of its own), in three parts: the open set's mean peak entries and the pops (the extra ones stale), duplicates ÷ decrease-key with their range across the workloads, and the time with its 95% interval. Where the test is expensive (\"might still be worth it\") is not decided here: `duplicates` sets std's heap against decrease-key.",
        threshold: "each part larger beyond the tie margin: the counts on every workload (undecided when only pooled), the time by its interval (undecided when it reaches the margin)",
        decide: folklore::always_insert_duplicates,
    },
    Claim {
        id: "heap-against-lists",
        quote: "In my experience, this approach will be at least 2-3 times as fast in most situations, and geometrically faster (10+ times as fast) on longer paths.",
        source: Source::Seed("003_fc9db5657eff0b50.txt"),
        asks: "The beginners' A* article, of a binary heap against its sorted list: compares the best sorted array with the best binary heap band by band on whole octile A* searches, a cut-off counting as its lower bound; \"most situations\" as more than half the bands, \"longer paths\" as the largest band, which a cut-off below 10× leaves undecided.",
        threshold: "at least 2× (interval's low end) in more than half the bands; at least 10× in the largest band",
        decide: survey::heap_against_lists,
    },
    Claim {
        id: "pairing-heaps",
        quote: "They are said to work well in practice; I have never used them.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best pairing heap with the best binary heap over the octile A* workloads and band by band.",
        threshold: "not slower than the best binary heap beyond the tie margin, band by band",
        decide: survey::pairing_heaps_work_well,
    },
    Claim {
        id: "fibonacci-heaps",
        quote: "Fibonacci heaps are good priority queues for A*, in theory. However, in practice they’re not used.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best Fibonacci heap with the best binary heap over the octile A* workloads and band by band.",
        threshold: "slower than the best binary heap beyond the tie margin, band by band",
        decide: survey::fibonacci_heaps_not_in_practice,
    },
    Claim {
        id: "sequence-heaps",
        quote: "Sequence heaps may currently be the fastest available data structure for large comparison based priority queues both in cached and external memory",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the sequence heap with the fastest other comparison-based queue, and with binary and 4-ary heaps for the paper's factor of two (\"at least two times faster than binary and 4-ary heaps\"), at held sizes from 100,000 entries and on octile A* workloads from 30,000 open cells.",
        threshold: "in the fastest comparison-based queue's tie group on every large workload",
        decide: survey::sequence_heaps_for_large_inputs,
    },
    Claim {
        id: "splay-trees",
        quote: "Splay trees make everything somewhat cheap.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best splay tree with std's BinaryHeap over the octile A* workloads and band by band.",
        threshold: "not slower than std's BinaryHeap beyond the tie margin, band by band",
        decide: survey::splay_trees_competitive,
    },
    Claim {
        id: "quickheap",
        quote: "a quickheap is 2–3× faster than published Rust heaps",
        source: Source::Outside("a 2025 Rust write-up on quickheaps"),
        asks: "Compares the quickheap with the best published Rust heap (std's BinaryHeap and the dary-heap, orx-priority-queue, pairing-heap and priority-queue crates) over the octile A* workloads and band by band; a band holds where the quickheap takes at most half its time.",
        threshold: "at most half the best published heap's time (interval's high end), band by band",
        decide: survey::quickheaps_beat_published_heaps,
    },
    Claim {
        id: "simd-quickheap",
        quote: "the SimdQuickHeap has about twice the radix heap's speed",
        source: Source::Outside("Breitling, Groot Koerkamp and Williams, SimdQuickHeap: The QuickHeap Reconsidered, ESA 2026 (arXiv 2604.25681)"),
        asks: "Compares the SimdQuickHeap (the `quickheap` crate, built apart with AVX2) with the best radix heap over the octile A* workloads and band by band; a band holds where the SimdQuickHeap takes at most half its time.",
        threshold: "at most half the best radix heap's time (interval's high end), band by band",
        decide: survey::simd_quickheap_twice_the_radix_heap,
    },
    Claim {
        id: "dary-heaps",
        quote: "They may have better cache performance.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares arity apart from implementation: pqlab's own d-ary heap with d = 4 or 8 against the same code with d = 2, over the size ranges from 10,000 entries pooled (octile A* bands and held sizes; every range when none is that large), by the 95% interval and the tie margin, each range's own comparison beside it; the best d-ary heap of any implementation against the best binary heap is shown beside it.",
        threshold: "faster than d = 2 beyond the tie margin, the ranges from 10,000 entries pooled",
        decide: survey::dary_heaps_cache_better,
    },
    Claim {
        id: "b-heaps",
        quote: "B-heaps are also worth a look if your frontier is large",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best B-heap with the best binary heap (the seed offers B-heaps beside d-ary heaps, as alternatives to a binary heap) over the size ranges from 10,000 entries pooled, by the 95% interval and the tie margin, each range's own comparison beside it; the best binary or d-ary heap is the second comparator.",
        threshold: "faster than the best binary heap beyond the tie margin, the ranges from 10,000 entries pooled",
        decide: survey::b_heaps_for_large_frontiers,
    },
    Claim {
        id: "hash-table",
        quote: "Hash tables perform similarly to indexed arrays, but they can take up a lot less memory in the common case, and removals are merely expensive instead of extremely expensive.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares octile A* with its per-cell state in FxHashMap against a flat array reset every search (the seeds' comparator: what the table is said to save) and against the stamped flat array, the same queues on the same problems, on maps up to 1024²; the seeds' other reason, memory, from the bytes std's heap's search held with each store (counted by the lab's allocator).",
        threshold: "not slower than the cleared array beyond the tie margin (95% interval); at most half its bytes",
        decide: factors::hash_table_membership,
    },
    Claim {
        id: "skip-lists",
        quote: "This is no better than sorted linked lists.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Of skip lists keyed by f: compares the best skip list with the best sorted array band by band on whole octile A* searches.",
        threshold: "the skip list not faster than the sorted array beyond the tie margin, band by band",
        decide: survey::skip_lists_no_better_than_sorted,
    },
    Claim {
        id: "sorted-lists-long-paths",
        quote: "This is simple, but really slow for long paths. This can be improved by maintaining a sorted list and simply grabbing the first item off the list every time you need the lowest F-cost square.",
        source: Source::Seed("003_fc9db5657eff0b50.txt"),
        asks: "Compares the best sorted array with the best unsorted array (the list scanned whole) in the largest octile band both reached, a cut-off counting as its bound; the other bands beside it.",
        threshold: "the sorted array faster beyond the tie margin in the largest band",
        decide: survey::sorted_lists_for_long_paths,
    },
    Claim {
        id: "hot-queues-grow",
        quote: "I would expect that HOT queues get faster as the number of nodes increases.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the best HOT queue with the best binary heap band by band on whole octile A* searches, the smallest band measured against the largest (bands with a cut-off left out: a bound shows no trend).",
        threshold: "the largest band's ratio below the smallest's, the intervals apart beyond the tie margin",
        decide: survey::hot_queues_faster_as_n_grows,
    },
    Claim {
        id: "never-examined",
        quote: "Since most nodes put into OPEN are “bad”, they are never examined, and there’s no harm putting them into the big array.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Counts, over the octile A* workloads, the nodes the indexed binary heap `dary2-dk` put into OPEN (its pushes: it adjusts instead of pushing twice) that its searches never expanded, pooled, with the range across the workloads.",
        threshold: "more than half the nodes put into OPEN never expanded",
        decide: folklore::most_nodes_never_examined,
    },
    Claim {
        id: "do-not-zero",
        quote: "The last thing you will want to do in such cases is spend time zero-ing everything out after a pathfinding call, especially if you have a large map.",
        source: Source::Seed("003_fc9db5657eff0b50.txt"),
        asks: "Compares octile A* with its per-cell state in a flat array cleared every search against the same array stamped with a search counter (the article's own trick), every queue on the same problems, pooled by the 95% interval and the tie margin.",
        threshold: "the cleared array slower beyond the tie margin, pooled",
        decide: factors::do_not_zero_arrays,
    },
    Claim {
        id: "soft-heap",
        quote: "By approximating, it can provide results faster than a regular heap.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the fastest soft heap's time and path excess with weighted A*'s (std's heap), each against exact octile A* with std's heap on the same maps.",
        threshold: "saves time beyond the tie margin and no weighted A* is both faster and closer to optimal",
        decide: factors::soft_heap_trade,
    },
    Claim {
        id: "better-heuristic",
        quote: "For optimizing A* we usually look at the priority queue or the map representation. Often overlooked is improving the heuristic function.",
        source: Source::Seed("001_7e5c71c72ac0d076.txt"),
        asks: "Compares std's BinaryHeap with the differential heuristic against the best queue under octile on the same problems (the heuristic saves more exactly when this time is lower), the maps pooled, by the 95% interval and the tie margin; each map's comparison, its frontier and its expansions beside it.",
        threshold: "faster than the best queue under octile beyond the tie margin, the maps pooled",
        decide: factors::better_heuristic_over_better_queue,
    },
    Claim {
        id: "heuristic-cache",
        quote: "The heuristic function is called for every open node. Consider caching its result.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "Compares the tuned A* with each cell's estimate cached (a stamped word per cell) against the same A* computing it at every move looked at, std's BinaryHeap on both sides, on the same problems of a maze and a rooms map under octile (a few multiplies an estimate) and under 8 landmarks (a run of distances an estimate), by the 95% interval and the tie margin, the workloads pooled and each heuristic pooled over its maps as a part; the text gives no figure, and its next advice, inlining, is not measured (the lab's estimates are inlined).",
        threshold: "the cached A* faster beyond the tie margin, the workloads pooled (the lab's reading of \"consider\"; the text gives no figure); partly where a heuristic shows the opposite",
        decide: factors::caching_the_heuristic,
    },
    Claim {
        id: "landmark-memory",
        quote: "Storing the landmark data requires one number per node.",
        source: Source::Seed("001_7e5c71c72ac0d076.txt"),
        asks: "On each generated uniform map searched both under K landmarks and under the octile distance (Manhattan on 4 moves), the same store and scale, std's BinaryHeap's held bytes under the landmarks minus under octile are the landmark tables: divided by the map's cells (its blocked border included, as the tables are laid out) and by K, the bytes per node per landmark. Weighted maps are left out: their two directions differ, so the lab stores two tables per landmark there.",
        threshold: "one 4-byte number (the tables' entries are 32-bit) per node per landmark on every map, the bytes rounded to whole numbers (2 to 6 bytes is one: the two searches' queues may differ by a fraction of a number per node; 8, two numbers, fails)",
        decide: factors::landmark_memory,
    },
    Claim {
        id: "dijkstra",
        quote: "As you might imagine, because of this Dijkstra's usually ends up exploring a much larger area before the target is found. This generally makes it slower than A*.",
        source: Source::Seed("003_fc9db5657eff0b50.txt"),
        asks: "Compares Dijkstra (h = 0) with octile A* on the same problems, std's BinaryHeap on both sides, map by map (a maze, rooms, caves, rugged terrain) with each search's expansions, the maps pooled, by the 95% interval and the tie margin; the fastest exact queue on each side is the second comparator.",
        threshold: "slower than A* beyond the tie margin, the maps pooled",
        decide: factors::dijkstra_slower_than_astar,
    },
    Claim {
        id: "textbook-dijkstra",
        quote: "The pure version of Dijkstra's Algorithm starts the priority queue with all nodes, and does not have early exit. It uses a \"decrease-key\" operation in the queue. It's fine in theory. But in practice... 1. By starting the priority with only the start node, we can keep it small, which makes it faster and use less memory 2. With early exit, we almost never need to insert all the nodes into the queue, and we can return the path as soon as it's found. 3. By not putting all nodes into the queue at the start, most of the time we can use a cheap insert operation instead of the more expensive decrease-key operation.",
        source: Source::Seed("002_b2900ed08176bb73.txt"),
        asks: "Compares the lab's Dijkstra (the A* with h = 0: the start alone queued, early exit) with the textbook one (every passable cell queued at the start, no early exit, decrease-key), each decrease-key queue timed on both, on the same problems of a maze and a rooms map, in three parts: the time (textbook ÷ start-only, every queue-and-workload pair pooled, by the 95% interval and the tie margin), the queue's peak entries (textbook ÷ start-only, with the held bytes where counted) and, of the start-only search's key updates, the share that were inserts rather than decrease-keys. The textbook search walks its moves with the map's plain move walk, without the tuned A*'s pruning of moves that cannot improve, which leans the time part towards the start-only search; the two counts do not depend on it.",
        threshold: "start-only faster beyond the tie margin (pooled; undecided when the interval reaches the margin), its queue smaller beyond it on every pair, inserts more than half its key updates on every pair (only pooled: undecided)",
        decide: factors::start_only_against_textbook,
    },
    Claim {
        id: "integer-costs",
        quote: "Using whole numbers like these is a lot faster for the computer, too.",
        source: Source::Seed("003_fc9db5657eff0b50.txt"),
        asks: "The seed's sentence on whole-number costs: compares the generic A* with `f64` costs against the same search with integer costs on the same problems (every map and road graph the lab searched both ways), std's BinaryHeap under both key types, the workload pairs pooled, by the 95% interval and the tie margin, each pair's comparison beside it, and the fastest exact queue on each side as the second comparator; \"a lot\" read as floats taking at least 1.25× (the lab's reading: the text gives no figure). Only the generic A* runs with `f64` costs.",
        threshold: "floats taking at least 1.25× the integer time (the interval's low end), the workload pairs pooled",
        decide: factors::integer_costs_faster,
    },
    Claim {
        id: "fringe",
        quote: "fringe search beats A* with a heap on grids",
        source: Source::Outside("Björnsson, Enzenberger, Holte and Schaeffer, Fringe Search (2005)"),
        asks: "The seeds only suggest \"processing nodes in batches, as fringe search does\"; the claim is Björnsson et al.'s. Compares fringe search with pqlab's A* using std's BinaryHeap on every series fringe search ran (each cost scale), timed in the same rounds, series by series and workload by workload, cut-offs counting as lower bounds; the best queue is the second comparator.",
        threshold: "faster than A* with std's BinaryHeap beyond the tie margin on every series",
        decide: loops::fringe_beats_astar,
    },
    Claim {
        id: "bfs",
        quote: "In most game maps, exploring fewer nodes is worth the slowdown from the other algorithms. There are some maps though where you don't save much, and it might be better to use Breadth First Search.",
        source: Source::Seed("002_b2900ed08176bb73.txt"),
        asks: "Red Blob's sentence (\"there are some maps though where you don't save much, and it might be better to use Breadth First Search\", after \"in most game maps, exploring fewer nodes is worth the slowdown\"): compares breadth-first search with A* using std's BinaryHeap on both unit-cost series (4 moves with Manhattan distance, 8 moves with Chebyshev), timed in the same rounds; holds when A* is faster on most workloads and BFS is faster only where A* saves least (BFS's expansions over A*'s); A* with the best queue is the second comparator.",
        threshold: "A* faster on most workloads of both unit-cost series, BFS faster only where A* saves least in each",
        decide: loops::bfs_is_enough,
    },
    Claim {
        id: "reopenings",
        quote: "I believe (but don't know for sure) that some already-visited elements may need to be visited again even after they've been taken out of the frontier",
        source: Source::Seed("002_b2900ed08176bb73.txt"),
        asks: "Of an inadmissible heuristic: counts, over the A* workloads whose heuristic is not consistent on their moves (Manhattan on 8 moves, weighted octile), the closed cells std's BinaryHeap's searches expanded again, with the consistent heuristics as the control.",
        threshold: "a reopened cell on one workload at least (\"may need to\")",
        decide: loops::reopenings_under_inadmissible,
    },
    Claim {
        id: "manhattan-on-eight",
        quote: "2.76 ± 0.13 times faster than 'tmp/rl-matrix'",
        source: Source::Seed("004_8ea1d6f732bbff7d.txt"),
        asks: "The roguelike log's measurement (\"2.76 ± 0.13 times faster\"): compares, map by map on 8-connected unit-cost grids, std's BinaryHeap with Manhattan distance (inadmissible) against the same heap with Chebyshev (exact) on the same problems, by the 95% interval and the tie margin, at the log's own figure (the pooled interval reaching 2.76 − 0.13×), with the paths' excess.",
        threshold: "faster beyond the tie margin, the maps pooled; the log's 2.76× inside the 95% interval",
        decide: loops::manhattan_on_eight_moves,
    },
    Claim {
        id: "jps",
        quote: "If the cost for each cell in your grid is the same (i.e., you aren't assigning costs for each cell like I do), you could look into Jump-point search, a modified version of A*.",
        source: Source::Seed("004_8ea1d6f732bbff7d.txt"),
        asks: "The roguelike log's pointer for uniform-cost grids: compares, map by map, JPS with std's BinaryHeap against octile A* with it on the same problems (the JPS workloads' octile A* twins), by the 95% interval and the tie margin, the maps pooled; the expansions beside it.",
        threshold: "JPS faster than A* beyond the tie margin, the maps pooled",
        decide: factors::jps_faster_than_astar,
    },
    Claim {
        id: "jps-queue",
        quote: "With JPS the queue matters less",
        source: Source::Outside("Harabor and Grastien, Improving Jump Point Search, ICAPS 2014: A* spends about 40% of its time generating successors against JPS's 90%"),
        asks: "A claim of the JPS papers, not of the sources: compares, map by map on JPS workloads and their octile A* twins (the same problems), how much the fastest exact queue gains over std's BinaryHeap under each search, by the 95% intervals and the tie margin, the maps pooled by the geometric mean; JPS's time and expansions against A*'s beside.",
        threshold: "the queue's gain under JPS below A*'s beyond the tie margin, geometric means over the maps",
        decide: factors::queue_matters_less_with_jps,
    },
    Claim {
        id: "tie-breaking-hack",
        quote: "For the demos on my page, I'm using a quick hack, but it only works with my slow priority queue. If you switch to a faster priority queue you'll need a different quick hack.",
        source: Source::Lab("002_b2900ed08176bb73.txt"),
        asks: "The lab's own question beside the implementation guide's sentence: its hack is about straighter paths (it reverses the neighbour order on alternate cells), which the lab does not measure; instead it compares std's BinaryHeap breaking ties toward larger g (the A*'s own rule) with the same heap leaving them to its own order (f alone), on an open map and a maze, the same problems, map by map with the expansions, the maps pooled, by the 95% interval and the tie margin; and whether each map's fastest exact queue takes the hack's keys or, restricted, expands more cells in its own order than the hack does with std's heap.",
        threshold: "the hack's order faster beyond the tie margin, the maps pooled",
        decide: ties::tie_breaking_hack,
    },
    Claim {
        id: "last-added-first",
        quote: "For the purposes of speed, it can be faster to choose the last one you added to the open list.",
        source: Source::Seed("003_fc9db5657eff0b50.txt"),
        asks: "The beginners' article's sentence: compares std's BinaryHeap breaking ties last in, first out against first in, first out, on an open map and a maze, the same problems, map by map with the expansions and the 95% interval against the tie margin, the maps pooled beside them; \"can be\" holds where one map shows it. LIFO against the A*'s own rule (larger g) beside it.",
        threshold: "LIFO faster beyond the tie margin on one map at least",
        decide: ties::last_added_first,
    },
    Claim {
        id: "unreachable-goals",
        quote: "If your game has situations in which the start and goal are not connected at all by the graph, A* will take a long time to run, since it has to explore every node connected from the start before it realizes there’s no path. Calculate the Connected Components first and only use A* if the start and goal are in the same region.",
        source: Source::Seed("000_f921d3e21405ecd3.txt"),
        asks: "On problems whose goal lies outside the start's component (starts in a generated map's largest component, goals in its other components, every answer no path by the reference Dijkstra), counts the cells std's BinaryHeap's A* never told the components expands against that component's size, and compares its time with the A* that looks the components up first (the text's advice, so its comparator for \"a long time\"; no reachable search shares the map), the same problems, by the 95% interval and the tie margin, the maps pooled; the flood's fastest exact queue and its frontier beside.",
        threshold: "every node of the start's component expanded, and slower than the components lookup beyond the tie margin, the maps pooled",
        decide: unreachable::unreachable_goals,
    },
    Claim {
        id: "islands",
        quote: "One of the downsides of A* is that if you tell it to look for paths to such areas, it will search the whole map, stopping only when every accessible square/node has been processed through the open and closed lists. That can waste a lot of CPU time.",
        source: Source::Seed("003_fc9db5657eff0b50.txt"),
        asks: "The beginners' article's islands, decided by the rule of `unreachable-goals` on its workloads: \"the whole map\" read as every accessible cell, the start's component (counted from std's BinaryHeap's expansions), and \"a lot of CPU time\" against the same problems answered by the array the article advises checking first (the components lookup), by the 95% interval and the tie margin.",
        threshold: "every cell of the start's component expanded, and slower than the lookup beyond the tie margin, the maps pooled",
        decide: unreachable::unreachable_goals,
    },
];

/// What the rows say of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The figures support it.
    Holds,
    /// Some of it holds, some does not (or it depends on the size: the verdict says where
    /// it turns).
    Partly,
    /// The figures contradict it.
    Fails,
    /// The figures lean towards it but do not show it: the ratio is beyond the tie margin on
    /// the claim's side, its 95% interval is not.
    Undecided,
    /// The rows cannot tell (the queues or sizes it names were not measured).
    Unmeasured,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Holds => "holds",
            Outcome::Partly => "partly holds",
            Outcome::Fails => "does not hold",
            Outcome::Undecided => "undecided",
            Outcome::Unmeasured => "not measured",
        })
    }
}

/// One claim and what the rows say of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The claim's [`Claim::id`], filled by [`verdicts`] (empty from a rule alone).
    pub id: &'static str,
    /// The claim, quoted: its [`Claim::quote`], filled by [`verdicts`].
    pub claim: &'static str,
    /// What it compares, with which comparator, on which data: its [`Claim::asks`], filled
    /// by [`verdicts`].
    pub asks: &'static str,
    /// Where the quote stands: its [`Claim::source`], filled by [`verdicts`].
    pub source: Option<Source>,
    /// The outcome.
    pub outcome: Outcome,
    /// One sentence with the deciding figures.
    pub summary: String,
    /// The figures behind it.
    pub details: Vec<String>,
    /// How many workloads back it (the weak ones are below three).
    pub workloads: usize,
}

impl Verdict {
    /// A rule's verdict: the claim's own words are its [`Claim`]'s, filled by [`verdicts`].
    fn new(outcome: Outcome, summary: String, details: Vec<String>, workloads: usize) -> Verdict {
        Verdict { id: "", claim: "", asks: "", source: None, outcome, summary, details, workloads }
    }

    fn unmeasured(why: impl Into<String>) -> Verdict {
        Verdict::new(Outcome::Unmeasured, why.into(), Vec::new(), 0)
    }

    /// Whether fewer than three workloads back it.
    pub fn weak(&self) -> bool {
        self.outcome != Outcome::Unmeasured && self.workloads < STRONG
    }
}

/// Every claim's verdict on the run of `findings`, in [`CLAIMS`]' order. Each is decided
/// afresh: a reader that shows them in several places decides them once and keeps them.
pub fn verdicts(findings: &Findings<'_, '_>) -> Vec<Verdict> {
    CLAIMS
        .iter()
        .map(|claim| Verdict {
            id: claim.id,
            claim: claim.quote,
            asks: claim.asks,
            source: Some(claim.source),
            ..(claim.decide)(findings)
        })
        .collect()
}

/// The octile A* workloads (fine costs, flat store), optionally those whose size `within`
/// admits.
fn octile<'w, 'a>(run: &'w Run<'a>, within: impl Fn(f64) -> bool) -> Vec<&'w Workload<'a>> {
    run.workloads.iter().filter(|w| Series::OCTILE.admits(w) && within(w.size)).collect()
}

/// The synthetic workloads whose held size `within` admits.
fn held<'w, 'a>(run: &'w Run<'a>, within: impl Fn(f64) -> bool) -> Vec<&'w Workload<'a>> {
    run.of(Kind::Synthetic).filter(|w| within(w.size)).collect()
}

/// The best contender among the exact queues `kind` admits over `workloads`.
fn best<'a>(workloads: &[&Workload<'a>], kind: impl Fn(&Row) -> bool) -> Option<&'a str> {
    rank(workloads, |row| bands::exact(row) && kind(row))
        .into_iter()
        .find(|s| s.contends)
        .map(|s| s.queue)
}

/// Rows of a family.
fn family(f: Family) -> impl Fn(&Row) -> bool + Copy {
    move |row: &Row| row.family == Some(f)
}

/// Rows of a class.
fn class(c: Class) -> impl Fn(&Row) -> bool + Copy {
    move |row: &Row| row.class == Some(c)
}

/// A binary heap: std's, a d-ary heap with d = 2, an indexed one.
fn binary_heap(row: &Row) -> bool {
    row.family == Some(Family::BinaryHeap)
}

/// "`a` takes 0.85× the time of `b` (95% interval 0.83–0.87×, 12 workloads)", or with
/// censored evidence "`a` takes at least 5.2× the time of `b` (... 3 of them a cut-off's
/// lower bound)".
fn takes(a: &str, b: &str, v: &Versus) -> String {
    format!("`{a}` takes {} the time of `{b}` ({})", ratio_of(v), evidence(v))
}

/// The ratio as it reads: "1.07×", "at least 5.2×", "at most 0.3×".
fn ratio_of(v: &Versus) -> String {
    format!("{}{}", v.qualifier(), ratio(v.ratio.mid))
}

/// What backs a ratio: "95% interval 0.83–0.87×, 12 workloads", with a censored side
/// "95% lower bound 5.1×, 3 workloads, 2 of them a cut-off's lower bound".
fn evidence(v: &Versus) -> String {
    evidence_over(v, "workload")
}

/// [`evidence`] counting its pairs as `unit`s ("queue-and-workload pair" where each pair is
/// one queue on two sibling workloads).
fn evidence_over(v: &Versus, unit: &str) -> String {
    let interval = match (v.ratio.low > 0.0, v.ratio.high.is_finite()) {
        (true, true) => format!("95% interval {}–{}", ratio(v.ratio.low), ratio(v.ratio.high)),
        (true, false) => format!("95% lower bound {}", ratio(v.ratio.low)),
        (false, true) => format!("95% upper bound {}", ratio(v.ratio.high)),
        (false, false) => "no interval".to_owned(),
    };
    let censored = if v.censored > 0 {
        format!(", {} of them a cut-off's lower bound", v.censored)
    } else {
        String::new()
    };
    format!("{interval}, {}{censored}", plural(v.n, unit))
}

/// The one rule for "A is faster than B" over several parts (size ranges, maps, workload
/// pairs): the parts pooled decide, so that a part near the tie margin cannot move the
/// verdict on its own. `claimed` is where the claim puts A against B beyond the tie margin
/// ([`Versus::beyond_margin`]), `pooled` the parts pooled, `parts` where each part stands.
/// It **holds** when the pooled interval shows the claim and no part shows the opposite,
/// **partly holds** when a part shows the opposite, is **undecided** when the pooled ratio
/// leans the claim's way but its interval reaches the margin ([`Versus::leans`]), and
/// **fails** otherwise (a tie or the opposite). A run that leans but cannot show says so,
/// rather than calling it failed for the next run to contradict.
fn pooled_rule(
    claimed: Ordering,
    pooled: &Versus,
    parts: impl IntoIterator<Item = Ordering>,
) -> Outcome {
    rule(claimed, pooled.beyond_margin(), pooled.leans(claimed), parts)
}

/// [`pooled_rule`] from where the pooled comparison stands (`shown`) and whether its ratio
/// leans the claim's way.
fn rule(
    claimed: Ordering,
    shown: Ordering,
    leans: bool,
    parts: impl IntoIterator<Item = Ordering>,
) -> Outcome {
    if shown != claimed {
        if leans {
            Outcome::Undecided
        } else {
            Outcome::Fails
        }
    } else if parts.into_iter().any(|part| part == claimed.reverse()) {
        Outcome::Partly
    } else {
        Outcome::Holds
    }
}

/// A claim of several parts, each decided on its own: all hold: holds, all fail: fails,
/// some of each: partly, else (an undecided part among holding or failing ones) undecided.
fn of_parts(parts: &[Outcome]) -> Outcome {
    let is = |o: Outcome| parts.iter().filter(|&&p| p == o).count();
    match (is(Outcome::Holds), is(Outcome::Fails)) {
        (h, _) if h == parts.len() => Outcome::Holds,
        (_, f) if f == parts.len() => Outcome::Fails,
        (h, f) if h > 0 && f > 0 => Outcome::Partly,
        _ => Outcome::Undecided,
    }
}

/// How many of `parts` stand below, level with and above their comparator beyond the tie
/// margin ([`Versus::beyond_margin`]): faster, tied, slower.
fn counted(parts: &[Ordering]) -> (usize, usize, usize) {
    let of = |o: Ordering| parts.iter().filter(|&&p| p == o).count();
    (of(Ordering::Less), of(Ordering::Equal), of(Ordering::Greater))
}

/// `a` against `b` over `workloads`: the figures and the sentence.
fn compare(workloads: &[&Workload<'_>], a: &str, b: &str) -> Option<(Versus, String)> {
    let v = versus(workloads, a, b)?;
    Some((v, takes(a, b, &v)))
}

/// How a verdict names where its figures come from.
fn source(kind: Kind) -> &'static str {
    match kind {
        Kind::Synthetic => "the queue alone at held sizes",
        Kind::Replay => "the queue alone on recorded traces",
        _ => "whole octile A* searches",
    }
}

/// The workloads of a size range by the one rule ([`bands::answering`]): octile A*
/// searches, else held sizes; with the kind.
fn sized<'w, 'a>(
    run: &'w Run<'a>,
    within: impl Fn(f64) -> bool,
) -> Option<(Kind, Vec<&'w Workload<'a>>)> {
    bands::answering(run, &Series::OCTILE, within)
}
