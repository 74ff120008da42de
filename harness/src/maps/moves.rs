//! The movement rules, written once: the A*, the landmark Dijkstras of the differential
//! heuristic, the connected components and the peers all take their moves from [`Moves`].
//! The reference Dijkstra ([`crate::maps::reference`]) alone restates the rules itself, so
//! that it checks them independently.
//!
//! A move joins two cells of the same terrain class. Straight moves cost
//! `scale.straight`, diagonal moves `scale.diagonal`, and a diagonal is allowed only when
//! both orthogonal cells it passes are of the class too (no corner cutting). On weighted
//! maps, entering a cell multiplies the step cost by that cell's weight.
//!
//! [`Moves::new`] compiles the rules for one grid into one byte per cell, the cell's
//! *mask*: bit `d` is set when the move in direction [`DIRECTIONS`]`[d]` is legal. The
//! search's hot loop then loads one byte per expansion and walks its set bits, instead of
//! testing up to eight neighbours' terrain with the corner rule (see `search::astar` for
//! what that bought).

use crate::maps::grid::{Connectivity, CostScale, Grid, Terrain};

/// The eight directions `(dx, dy)` in mask bit order: the four straight moves first (north,
/// east, south, west), then the diagonals (north-east, south-east, south-west, north-west).
/// `y` grows downward.
pub const DIRECTIONS: [(i8, i8); 8] =
    [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// The direction opposite each direction: `DIRECTIONS[OPPOSITE[d]] == -DIRECTIONS[d]`.
pub const OPPOSITE: [u8; 8] = [2, 3, 0, 1, 6, 7, 4, 5];

/// Which way costs are read on weighted maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Moves out of the cell: the cost is the weight of the cell entered.
    Forward,
    /// Moves into the cell, for searches run backwards from a goal: the cost is the weight
    /// of the given cell, which the move enters.
    Backward,
}

/// A grid's movement rules compiled once: per-cell masks of legal moves, index offsets and
/// step costs per direction. Cloning shares the masks (O(1)), so every search context on a
/// map can use one compilation.
///
/// Invariant: `masks[i]` is 0 for blocked cells and the border; a set bit `d` means the
/// cell `i + offsets[d]` is of `i`'s class (and for a diagonal, both orthogonal cells
/// passed are too), so following a mask never leaves the grid.
#[derive(Clone, Debug)]
pub struct Moves {
    masks: std::sync::Arc<[u8]>,
    offsets: [i32; 8],
    steps: [u64; 8],
    eight: bool,
    /// `dominated[via][parent's mask]`: see [`Moves::dominated`].
    dominated: Box<[[u8; 256]; 8]>,
}

impl Moves {
    /// The moves of `grid` under `connectivity` with costs in `scale`. O(cells).
    pub fn new(grid: &Grid, connectivity: Connectivity, scale: CostScale) -> Self {
        let stride = grid.stride() as i32;
        let offsets = DIRECTIONS.map(|(dx, dy)| i32::from(dy) * stride + i32::from(dx));
        let (straight, diagonal) = (u64::from(scale.straight), u64::from(scale.diagonal));
        let steps = std::array::from_fn(|d| if d < 4 { straight } else { diagonal });
        let eight = connectivity == Connectivity::Eight;
        let terrain = grid.terrains();
        let masks = (0..terrain.len())
            .map(|i| {
                let class = terrain[i];
                if class == Terrain::Blocked {
                    return 0;
                }
                let open = |d: usize| terrain[(i as i64 + i64::from(offsets[d])) as usize] == class;
                let mut mask = 0u8;
                for d in 0..4 {
                    mask |= u8::from(open(d)) << d;
                }
                if eight {
                    // A diagonal needs both straight moves it passes between.
                    for (d, (a, b)) in [(4, (0, 1)), (5, (2, 1)), (6, (2, 3)), (7, (0, 3))] {
                        let legal = mask & (1 << a) != 0 && mask & (1 << b) != 0 && open(d);
                        mask |= u8::from(legal) << d;
                    }
                }
                mask
            })
            .collect::<Vec<u8>>()
            .into();
        let dominated = dominated_moves(&steps, grid.weights().is_some());
        Moves { masks, offsets, steps, eight, dominated }
    }

    /// The moves out of a cell reached by a move in direction `via` from a parent whose
    /// legal moves are `parent_mask`, whose targets the parent enters directly at no greater
    /// cost than through the cell: once the parent is expanded, such a move never improves
    /// its target, so the A* need not look. One load from a 2 KiB table.
    #[inline(always)]
    pub fn dominated(&self, via: usize, parent_mask: u8) -> u8 {
        self.dominated[via & 7][usize::from(parent_mask)]
    }

    /// The legal moves out of the cell at `index`, one bit per direction.
    #[inline(always)]
    pub fn mask(&self, index: u32) -> u8 {
        self.masks[index as usize]
    }

    /// Every cell's mask.
    #[inline(always)]
    pub fn masks(&self) -> &[u8] {
        &self.masks
    }

    /// The index offset of each direction.
    #[inline(always)]
    pub fn offsets(&self) -> &[i32; 8] {
        &self.offsets
    }

    /// The step cost of each direction, before cell weights.
    #[inline(always)]
    pub fn steps(&self) -> &[u64; 8] {
        &self.steps
    }

    /// The most one move can cost on `grid` (a step times the largest weight).
    pub fn max_cost(&self, grid: &Grid) -> u64 {
        let step = if self.eight { self.steps[4] } else { self.steps[0] };
        step * grid.weights().map_or(1, |w| w.iter().copied().max().unwrap_or(1)) as u64
    }
}

/// The table behind [`Moves::dominated`]. From a cell `C` reached from `P` along `via`, the
/// move `d` to `X` is dominated when `X` is `P`'s neighbour along some `e` (`via + d = e` as
/// vectors) and `P → X` costs no more than `P → C → X`: always `steps[e] ≤ steps[via] +
/// steps[d]` on uniform maps; on weighted maps, where each move costs its step times the
/// weight of the cell entered, `steps[e] ≤ steps[d]`, which holds whatever the weights.
fn dominated_moves(steps: &[u64; 8], weighted: bool) -> Box<[[u8; 256]; 8]> {
    let mut table = Box::new([[0u8; 256]; 8]);
    for (via, &(vx, vy)) in DIRECTIONS.iter().enumerate() {
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let Some(e) = DIRECTIONS.iter().position(|&step| step == (vx + dx, vy + dy)) else {
                continue; // not a neighbour of the parent (or the parent itself)
            };
            let no_dearer =
                if weighted { steps[e] <= steps[d] } else { steps[e] <= steps[via] + steps[d] };
            if no_dearer {
                for (parent_mask, moves) in table[via].iter_mut().enumerate() {
                    if parent_mask & 1 << e != 0 {
                        *moves |= 1 << d;
                    }
                }
            }
        }
    }
    table
}

/// One move out of (or into) a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Move {
    /// The neighbouring cell's index.
    pub cell: u32,
    /// The move's cost.
    pub cost: u64,
    /// The direction's index in [`DIRECTIONS`].
    pub direction: u8,
}

/// Calls `visit` with every move out of (or, `Backward`, into) the cell at `index`, in
/// direction order: for code off the search's hot path.
pub fn for_each_move(
    grid: &Grid,
    moves: &Moves,
    direction: Direction,
    index: u32,
    mut visit: impl FnMut(Move),
) {
    let weights = grid.weights();
    let mut mask = moves.mask(index);
    while mask != 0 {
        let d = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let cell = index.wrapping_add_signed(moves.offsets[d]);
        let cost = match weights {
            None => moves.steps[d],
            Some(w) => {
                let paid = if direction == Direction::Forward { cell } else { index };
                moves.steps[d] * u64::from(w[paid as usize])
            }
        };
        visit(Move { cell, cost, direction: d as u8 });
    }
}

/// Connected components per terrain class: two cells share a label exactly when a path
/// joins them. Orthogonal adjacency suffices: a diagonal step needs both its orthogonal
/// neighbours in the class (no corner cutting), so 8-connected movement has exactly the
/// same components. Lets a search answer an unreachable goal at once.
#[derive(Clone, Debug)]
pub struct Components {
    /// The component of each index, `UNLABELLED` for blocked cells and the border.
    labels: Vec<u32>,
    /// The number of cells of each component.
    sizes: Vec<u32>,
}

const UNLABELLED: u32 = u32::MAX;

impl Components {
    /// Labels every cell of `grid` by flood fill with an explicit stack (O(cells)).
    pub fn new(grid: &Grid) -> Self {
        let mut labels = vec![UNLABELLED; grid.cells()];
        let mut sizes = Vec::new();
        let moves = Moves::new(grid, Connectivity::Four, CostScale::COARSE);
        let mut stack = Vec::new();
        for index in 0..grid.cells() as u32 {
            if grid.terrain(index) == Terrain::Blocked || labels[index as usize] != UNLABELLED {
                continue;
            }
            let label = sizes.len() as u32;
            let mut size = 0;
            labels[index as usize] = label;
            stack.push(index);
            while let Some(cell) = stack.pop() {
                size += 1;
                for_each_move(grid, &moves, Direction::Forward, cell, |m| {
                    if labels[m.cell as usize] == UNLABELLED {
                        labels[m.cell as usize] = label;
                        stack.push(m.cell);
                    }
                });
            }
            sizes.push(size);
        }
        Components { labels, sizes }
    }

    /// Whether a path can join the cells at indices `a` and `b` (both passable).
    pub fn connected(&self, a: u32, b: u32) -> bool {
        self.labels[a as usize] == self.labels[b as usize]
    }

    /// The number of components.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// The component of the cell at `index`, or `None` if it is blocked.
    pub fn label(&self, index: u32) -> Option<u32> {
        let label = self.labels[index as usize];
        (label != UNLABELLED).then_some(label)
    }

    /// The number of cells of a component.
    pub fn size(&self, label: u32) -> usize {
        self.sizes[label as usize] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reached eastward from a parent with every move legal: the parent enters north and
    /// south diagonally (√2 against 1 + 1) and north-west and south-west straight (1
    /// against √2 + 1); on weighted maps only the latter hold whatever the weights.
    #[test]
    fn the_parents_moves_dominate_the_expected_ones() {
        let steps = std::array::from_fn(|d| if d < 4 { 10 } else { 14 });
        let bits = |ds: &[usize]| ds.iter().fold(0u8, |m, &d| m | 1 << d);
        let (east, north_east) = (1, 4);
        let (n, s, sw, nw) = (0, 2, 6, 7);
        assert_eq!(dominated_moves(&steps, false)[east][0xff], bits(&[n, s, sw, nw]));
        assert_eq!(dominated_moves(&steps, true)[east][0xff], bits(&[sw, nw]));
        // Only through moves the parent has: without its north-east move, north is looked at.
        assert_eq!(dominated_moves(&steps, false)[east][0xff & !(1 << 4)], bits(&[s, sw, nw]));
        // Reached north-east: the parent's north and east neighbours, this cell's west and
        // south, it enters straight (1 against √2 + 1).
        assert_eq!(dominated_moves(&steps, false)[north_east][0xff], bits(&[s, 3]));
        // A diagonal dearer than two straight steps dominates nothing straight.
        let steep = std::array::from_fn(|d| if d < 4 { 10 } else { 25 });
        assert_eq!(dominated_moves(&steep, false)[east][0xff], bits(&[sw, nw]));
    }

    /// The masks agree with the rules written out cell by cell: same class, and a diagonal
    /// only between two open straight moves.
    #[test]
    fn masks_follow_the_class_and_corner_rules() {
        let rows = ["..@.", ".W..", "..T.", "@..."];
        let terrain = |x: u32, y: u32| match rows[y as usize].as_bytes()[x as usize] {
            b'.' => Terrain::Ground,
            b'W' => Terrain::Water,
            b'T' => Terrain::Trees,
            _ => Terrain::Blocked,
        };
        let grid = Grid::from_fn(4, 4, terrain);
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let moves = Moves::new(&grid, connectivity, CostScale::COARSE);
            for y in 0..4 {
                for x in 0..4 {
                    let index = grid.index(x, y);
                    let class = grid.terrain(index);
                    let same = |(dx, dy): (i8, i8)| {
                        let (nx, ny) = (x as i64 + i64::from(dx), y as i64 + i64::from(dy));
                        (0..4).contains(&nx)
                            && (0..4).contains(&ny)
                            && grid.terrain(grid.index(nx as u32, ny as u32)) == class
                    };
                    let mut expected = 0u8;
                    if class != Terrain::Blocked {
                        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                            let legal = if d < 4 {
                                same((dx, dy))
                            } else {
                                connectivity == Connectivity::Eight
                                    && same((dx, dy))
                                    && same((dx, 0))
                                    && same((0, dy))
                            };
                            expected |= u8::from(legal) << d;
                        }
                    }
                    assert_eq!(moves.mask(index), expected, "({x}, {y}) {connectivity:?}");
                }
            }
        }
    }

    #[test]
    fn opposite_directions_cancel() {
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            assert_eq!(DIRECTIONS[OPPOSITE[d] as usize], (-dx, -dy));
        }
    }
}
