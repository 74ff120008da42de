//! Dijkstra's algorithm as textbooks write it: every passable cell queued at the start (the
//! start at 0, every other at an infinite key), no early exit (the queue is emptied, every
//! reachable cell settled), and a decrease-key on every relaxation that lowers a cell's
//! distance. The lab's Dijkstra is the A\* with `h = 0`: the start alone queued, stopped
//! when the goal is popped, a cell inserted when first reached. Red Blob's implementation
//! notes set the two against each other; the lab times both on the same problems and
//! queues.
//!
//! Only a decrease-key queue holds each cell once with a key to lower; a bounded-span queue
//! cannot hold the infinite key beside the start's 0. Both are refused with the reason.
//! O(cells · log cells) a search for the heaps, whatever the goal. Its moves are the A\*'s,
//! walked by [`for_each_move`] without the A\*'s pruning of moves that cannot improve.

use pqlab_queues::registry::{self, Entry, Visitor};
use pqlab_queues::{Frontier, Key, KeyRule, Pushed, Spec, Strategy};

use super::astar::endpoints;
use super::grid_loop::{GridLoop, Target};
use super::heuristic::AnyHeuristic;
use super::outcome::{Counters, Outcome, SearchError};
use crate::maps::grid::{Grid, Terrain};
use crate::maps::moves::{for_each_move, Components, Direction, Moves};

/// An unreached cell's distance and key: above every cost a search can reach (a cost that
/// would reach it fails with [`SearchError::CostOverflow`]), below 2³² for narrow queues.
const INFINITE: u32 = u32::MAX;

/// The entry of the start cell in [`Textbook::via`].
const START: u8 = u8::MAX;

/// The registry's hook ([`super::grid_loop::Build`]): the textbook Dijkstra with `queue`,
/// or why not (a duplicate or bounded-span queue; another store than the flat one, as the
/// search keeps its own per-cell arrays). O(cells).
pub fn build(target: &Target<'_>, queue: &'static Entry) -> Result<Box<dyn GridLoop>, String> {
    // It keeps its own per-cell arrays, measured as the flat store.
    target.flat_store_only("the textbook Dijkstra")?;
    registry::visit(queue.id, MakeTextbook(target)).expect("a registered queue")
}

/// Builds the textbook Dijkstra with the queue it visits, where the queue takes it.
struct MakeTextbook<'t, 'a>(&'t Target<'a>);

impl Visitor for MakeTextbook<'_, '_> {
    type Output = Result<Box<dyn GridLoop>, String>;

    fn visit<F: Frontier + 'static>(self, _: &'static Entry) -> Self::Output {
        if F::STRATEGY != Strategy::DecreaseKey {
            return Err("the textbook Dijkstra lowers each queued cell's key in place: a duplicate queue holds no key to lower".into());
        }
        if F::KEYS == KeyRule::BoundedSpan {
            return Err("the textbook Dijkstra queues every cell at an infinite key beside the start's 0: beyond a bounded span".into());
        }
        let Target { grid, moves, .. } = *self.0;
        Ok(Box::new(Textbook::<F>::with_moves(grid, moves.clone())))
    }
}

/// A textbook Dijkstra context for one map, reused by every search on it.
pub struct Textbook<F> {
    /// Each cell's distance from the start, [`INFINITE`] if unreached.
    dist: Vec<u32>,
    /// The move that reached each cell ([`START`] for the start).
    via: Vec<u8>,
    frontier: F,
    moves: Moves,
}

impl<F: Frontier> Textbook<F> {
    /// A context for searches on `grid` by its compiled `moves`. O(cells).
    ///
    /// # Panics
    /// If `moves` were compiled for a grid with another number of cells.
    pub fn with_moves(grid: &Grid, moves: Moves) -> Self {
        assert_eq!(moves.masks().len(), grid.cells(), "moves compiled for another grid");
        let cells = grid.cells();
        let span = Key::from(INFINITE);
        Textbook {
            dist: vec![INFINITE; cells],
            via: vec![START; cells],
            frontier: F::new(Spec { capacity: cells, span }),
            moves,
        }
    }

    /// Every passable cell queued, then popped until the queue is empty: the cost of the
    /// cheapest path to `goal`, `None` when it stays unreached.
    fn run(&mut self, grid: &Grid, start: u32, goal: u32) -> Result<Outcome, SearchError> {
        let mut counters = Counters::default();
        self.frontier.clear();
        let push = |frontier: &mut F, cell: u32, key: u32, counters: &mut Counters| {
            match frontier.push(cell, Key::from(key)) {
                Ok(Pushed::Added) => counters.pushes += 1,
                Ok(Pushed::Decreased) => counters.decrease_keys += 1,
                Ok(Pushed::Kept) => {}
                Err(source) => return Err(SearchError::Frontier { source, hint: "" }),
            }
            Ok(())
        };
        for cell in 0..grid.cells() as u32 {
            let passable = grid.terrain(cell) != Terrain::Blocked;
            self.dist[cell as usize] = if cell == start { 0 } else { INFINITE };
            if passable {
                push(&mut self.frontier, cell, self.dist[cell as usize], &mut counters)?;
            }
        }
        self.via[start as usize] = START;
        counters.max_frontier = self.frontier.len() as u64;
        counters.max_open = counters.max_frontier;
        while let Some((cell, _)) = self.frontier.pop() {
            counters.pops += 1;
            let g = self.dist[cell as usize];
            if g == INFINITE {
                continue;
            }
            counters.expansions += 1;
            if super::stop::poll(counters.expansions) {
                return Err(SearchError::Stopped);
            }
            let (dist, via, frontier) = (&mut self.dist, &mut self.via, &mut self.frontier);
            let mut relaxed = Ok(());
            for_each_move(grid, &self.moves, Direction::Forward, cell, |m| {
                let alt = u64::from(g) + m.cost;
                if relaxed.is_err() || alt >= u64::from(dist[m.cell as usize]) {
                    return;
                }
                if alt >= u64::from(INFINITE) {
                    relaxed = Err(SearchError::CostOverflow { f: alt });
                    return;
                }
                dist[m.cell as usize] = alt as u32;
                via[m.cell as usize] = m.direction;
                relaxed = push(frontier, m.cell, alt as u32, &mut counters);
            });
            relaxed?;
        }
        let cost = Some(self.dist[goal as usize]).filter(|&g| g != INFINITE).map(u64::from);
        Ok(Outcome { cost, counters })
    }
}

impl<F: Frontier> GridLoop for Textbook<F> {
    /// Ignores `heuristic` and `components`: the textbook search settles every reachable
    /// cell whatever the goal.
    fn search(
        &mut self,
        grid: &Grid,
        _: &mut AnyHeuristic,
        _: Option<&Components>,
        start: (u32, u32),
        goal: (u32, u32),
    ) -> Result<Outcome, SearchError> {
        let (start, goal) = endpoints(grid, self.dist.len(), start, goal)?;
        self.run(grid, start, goal)
    }

    fn path(&self, grid: &Grid, goal: (u32, u32)) -> Option<Vec<(u32, u32)>> {
        if !grid.contains(goal.0, goal.1) {
            return None;
        }
        let mut cell = grid.index(goal.0, goal.1);
        if self.dist[cell as usize] == INFINITE {
            return None;
        }
        let mut path = vec![grid.coords(cell)];
        while self.via[cell as usize] != START {
            cell =
                cell.wrapping_add_signed(-self.moves.offsets()[self.via[cell as usize] as usize]);
            path.push(grid.coords(cell));
        }
        path.reverse();
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maps::generate::{MapKind, MapSpec};
    use crate::maps::grid::Rules;
    use crate::maps::reference;
    use crate::search::check::path_cost;
    use crate::search::heuristic::HeuristicKind;
    use crate::search::{SearchKind, Series};
    use pqlab_queues::registry::ENTRIES;

    #[test]
    fn every_queue_that_takes_it_finds_the_reference_costs_and_the_others_say_why_not() {
        let rules = Rules::default();
        for kind in [
            MapKind::Rooms { room: 8 },
            MapKind::Rugged { heavy: 30 },
            MapKind::Maze { corridor: 2 },
        ] {
            let grid = MapSpec { kind, size: 32, seed: 5 }.build();
            let moves = Moves::new(&grid, rules.connectivity, rules.scale);
            let series = Series::on_grid(SearchKind::DijkstraTextbook, rules, HeuristicKind::Zero);
            let target = Target { grid: &grid, moves: &moves, series };
            let mut h =
                AnyHeuristic::new(HeuristicKind::Zero, &grid, rules.connectivity, rules.scale)
                    .unwrap();
            let open: Vec<(u32, u32)> = (0..grid.cells() as u32)
                .filter(|&c| grid.terrain(c) != Terrain::Blocked)
                .map(|c| grid.coords(c))
                .step_by(37)
                .collect();
            for entry in ENTRIES {
                let mut search = match build(&target, entry) {
                    Ok(search) => search,
                    Err(why) => {
                        let refused = entry.strategy == Strategy::Duplicates
                            || entry.keys == KeyRule::BoundedSpan;
                        assert!(
                            refused && why.starts_with("the textbook Dijkstra"),
                            "{}: {why}",
                            entry.id
                        );
                        continue;
                    }
                };
                assert_eq!(entry.strategy, Strategy::DecreaseKey, "{}", entry.id);
                for (&start, &goal) in open.iter().zip(open.iter().rev()) {
                    let expected =
                        reference::cost(&grid, rules.connectivity, rules.scale, start, goal);
                    let found = search.search(&grid, &mut h, None, start, goal).unwrap();
                    assert_eq!(found.cost, expected, "{} {start:?} {goal:?}", entry.id);
                    let c = found.counters;
                    assert_eq!(
                        c.pushes as usize,
                        open_cells(&grid),
                        "{}: every passable cell queued",
                        entry.id
                    );
                    assert_eq!(c.pops, c.pushes, "{}: no early exit", entry.id);
                    if let Some(cost) = found.cost {
                        let path = search.path(&grid, goal).unwrap();
                        assert_eq!((path[0], path[path.len() - 1]), (start, goal));
                        assert_eq!(path_cost(&grid, &moves, &path), Some(cost), "{}", entry.id);
                    }
                }
            }
        }
    }

    fn open_cells(grid: &Grid) -> usize {
        (0..grid.cells() as u32).filter(|&c| grid.terrain(c) != Terrain::Blocked).count()
    }
}
