//! A mutation fuzzer for the Moving AI parsers: valid map and scenario files, mutated the
//! ways real files go wrong (flipped, inserted and deleted bytes, lines swapped, repeated
//! or cut, numbers at their extremes, line endings changed), must never make a parser
//! panic; and every problem a parser accepts must get the reference Dijkstra's answer from
//! the A*.
//!
//! `cargo test` runs 20,000 inputs; `PQLAB_FUZZ_INPUTS=10000000 cargo test --release
//! --test fuzz_parsers` runs ten million (the figure quoted in the README). Seeded, so a
//! run is repeatable; a failure prints the input.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pqlab::maps::grid::Rules;
use pqlab::maps::grid::{Connectivity, CostScale};
use pqlab::maps::moves::Components;
use pqlab::maps::movingai::{parse_map_str, parse_scen_str};
use pqlab::maps::reference;
use pqlab::maps::scenario::Expected;
use pqlab::rng::SplitMix64 as Rng;
use pqlab::search::astar::AStar;
use pqlab::search::heuristic::{AnyHeuristic, HeuristicKind};
use pqlab_queues::std_binary_heap::StdBinaryHeap;

/// Valid maps (LF, CRLF, no final newline, water and trees) and scenarios for them.
fn seeds() -> Vec<(String, String)> {
    let map = |rows: &[&str], ending: &str, last: bool| {
        let mut text = format!(
            "type octile{ending}height {}{ending}width {}{ending}map{ending}",
            rows.len(),
            rows[0].len()
        );
        for (i, row) in rows.iter().enumerate() {
            text.push_str(row);
            if last || i + 1 < rows.len() {
                text.push_str(ending);
            }
        }
        text
    };
    let a = ["....@...", ".@@.@.W.", "..T...WW", "@...@...", "..S....."];
    let b = [
        "..........",
        ".@@@@@@@..",
        ".@......@.",
        ".@.@@@@.@.",
        "...@...@..",
        "@@.@.@.@.@",
        "...@.@....",
    ];
    let scen_a =
        "version 1\n0\tx.map\t8\t5\t0\t0\t7\t4\t8.65685\n1\tx.map\t8\t5\t3\t4\t7\t0\t5.82843\n\
                  0\tx.map\t8\t5\t6\t1\t7\t2\t1.41421\n0\tx.map\t8\t5\t0\t0\t6\t1\t0\n";
    let scen_b = "version 1.0\n0 y.map 10 7 0 0 9 6 11.24264\n2 y.map 10 7 2 2 6 4 8.24264\n0 y.map 10 7 4 4 4 4 0\n";
    vec![
        (map(&a, "\n", true), scen_a.to_owned()),
        (map(&a, "\r\n", false), scen_a.replace('\n', "\r\n")),
        (map(&b, "\n", true), scen_b.to_owned()),
        (map(&b, "\r\n", true), scen_b.to_owned()),
    ]
}

/// Numbers at the edges of what the fields hold.
const EXTREMES: [&str; 12] = [
    "0",
    "-1",
    "1",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "1e309",
    "nan",
    "inf",
    "-0",
    "2.5",
    "",
];

/// One mutation of `text`.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let at = rng.below(bytes.len() + 1);
        match rng.below(10) {
            0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            1 => bytes.insert(at, b".@TWSGO\t \r\n0123456789-e"[rng.below(22)]),
            2 if at < bytes.len() => {
                bytes.remove(at);
            }
            3 => bytes.truncate(at),
            _ => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
                let i = rng.below(lines.len());
                match rng.below(5) {
                    0 => {
                        let j = rng.below(lines.len());
                        lines.swap(i, j);
                    }
                    1 => {
                        let line = lines[i].clone();
                        lines.insert(i, line);
                    }
                    2 => {
                        lines.remove(i);
                    }
                    3 => {
                        // A number replaced by an extreme one.
                        let words: Vec<String> =
                            lines[i].split_whitespace().map(str::to_owned).collect();
                        if !words.is_empty() {
                            let w = rng.below(words.len());
                            let mut words = words;
                            words[w] = EXTREMES[rng.below(EXTREMES.len())].to_owned();
                            lines[i] = words.join(if rng.below(2) == 0 { "\t" } else { " " });
                        }
                    }
                    _ => lines[i] = lines[i].replace('\r', ""),
                }
                bytes = lines.join("\n").into_bytes();
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_files_never_panic_and_accepted_problems_match_the_reference() {
    let inputs: usize =
        std::env::var("PQLAB_FUZZ_INPUTS").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let seeds = seeds();
    let mut rng = Rng(0xf022);
    let rules = Rules { connectivity: Connectivity::Eight, scale: CostScale::FINE };
    let (mut maps_accepted, mut problems_checked) = (0usize, 0usize);
    for i in 0..inputs {
        let (map, scen) = &seeds[i % seeds.len()];
        // Half the inputs mutate the map, half the scenario (on the valid map).
        let (map_text, scen_text) = if i % 2 == 0 {
            (mutate(map, &mut rng), scen.clone())
        } else {
            (map.clone(), mutate(scen, &mut rng))
        };
        let parsed = catch_unwind(AssertUnwindSafe(|| {
            let grid = parse_map_str(&map_text, "x.map").ok()?;
            let problems = parse_scen_str(&scen_text, "x.map.scen", &grid).ok();
            Some((grid, problems))
        }))
        .unwrap_or_else(|_| panic!("a parser panicked on input {i}:\n{map_text:?}\n{scen_text:?}"));
        let Some((grid, problems)) = parsed else { continue };
        maps_accepted += 1;
        let Some(problems) = problems else { continue };
        if grid.cells() > 4096 {
            continue; // a mutated header can claim a big map: searching it proves nothing more
        }
        let components = Components::new(&grid);
        let mut search = AStar::<StdBinaryHeap>::new(&grid, rules);
        let mut octile =
            AnyHeuristic::new(HeuristicKind::Octile, &grid, rules.connectivity, rules.scale)
                .unwrap();
        for p in &problems {
            let found = search
                .search(&grid, &mut octile, Some(&components), p.start, p.goal)
                .expect("a valid problem")
                .cost;
            let truth = reference::cost(&grid, rules.connectivity, rules.scale, p.start, p.goal);
            assert_eq!(
                found, truth,
                "input {i}: the A* disagrees with Dijkstra on {p:?}\n{map_text:?}"
            );
            if matches!(p.expected, Expected::Unreachable) {
                assert!(
                    p.start != p.goal,
                    "input {i}: an unreachable problem from a cell to itself"
                );
            }
            problems_checked += 1;
        }
    }
    eprintln!("{inputs} inputs: {maps_accepted} maps accepted, {problems_checked} accepted problems matched the reference Dijkstra");
    assert!(
        maps_accepted > inputs / 4 && problems_checked > inputs / 4,
        "the mutations leave too little valid input to test the searches"
    );
}
