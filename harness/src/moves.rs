//! The movement rules, written once: the A*, the landmark Dijkstras of the differential
//! heuristic, the connected components and the peers all enumerate moves through
//! [`neighbours`].
//!
//! A move joins two cells of the same terrain class. Straight moves cost
//! `scale.straight`, diagonal moves `scale.diagonal`, and a diagonal is allowed only when
//! both orthogonal cells it passes are of the class too (no corner cutting). On weighted
//! maps, entering a cell multiplies the step cost by that cell's weight.

use crate::grid::{Connectivity, CostScale, Grid, Terrain};

/// Which way costs are read on weighted maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Moves out of the cell: the cost is the weight of the cell entered.
    Forward,
    /// Moves into the cell, for searches run backwards from a goal: the cost is the weight
    /// of the given cell, which the move enters.
    Backward,
}

/// Precomputed index offsets and costs of a grid's moves.
#[derive(Clone, Copy, Debug)]
pub struct Moves {
    stride: isize,
    straight: u64,
    diagonal: u64,
    eight: bool,
}

impl Moves {
    /// The moves of `grid` under `connectivity` with costs in `scale`.
    pub fn new(grid: &Grid, connectivity: Connectivity, scale: CostScale) -> Self {
        Moves {
            stride: grid.stride() as isize,
            straight: scale.straight as u64,
            diagonal: scale.diagonal as u64,
            eight: connectivity == Connectivity::Eight,
        }
    }

    /// The most one move can cost on `grid` (a step times the largest weight).
    pub fn max_cost(&self, grid: &Grid) -> u64 {
        let step = if self.eight { self.diagonal } else { self.straight };
        step * grid.weights().map_or(1, |w| w.iter().copied().max().unwrap_or(1)) as u64
    }
}

/// One move out of (or into) a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Move {
    /// The neighbouring cell's index.
    pub cell: u32,
    /// The move's cost.
    pub cost: u64,
    /// Column change: -1, 0 or 1.
    pub dx: i8,
    /// Row change: -1, 0 or 1.
    pub dy: i8,
}

/// Writes every move out of (or, `Backward`, into) `index` within the terrain class
/// `class` to the front of `out`, and returns how many there are.
///
/// The search's hot loop: it fills a small array rather than calling back per move, so
/// the caller's per-move code is inlined once in a plain loop. `index` must be a cell
/// inside the map: the blocked border keeps every neighbour index in bounds.
#[inline(always)]
pub fn neighbours(
    grid: &Grid,
    moves: &Moves,
    direction: Direction,
    index: u32,
    class: Terrain,
    out: &mut [Move; 8],
) -> usize {
    let terrain = grid.terrains();
    let weights = grid.weights();
    let i = index as isize;
    let s = moves.stride;
    let open = |j: isize| terrain[j as usize] == class;
    let cost = |j: isize, step: u64| match weights {
        None => step,
        Some(w) => step * w[if direction == Direction::Forward { j } else { i } as usize] as u64,
    };
    let mut len = 0;
    // A macro rather than a closure: a closure called from eight places is outlined, and
    // the call cost ~60 instructions per move (callgrind on dao/brc202d).
    macro_rules! add {
        ($j:expr, $step:expr, $dx:expr, $dy:expr) => {{
            let j = $j;
            out[len] = Move { cell: j as u32, cost: cost(j, $step), dx: $dx, dy: $dy };
            len += 1;
        }};
    }
    let (north, east, south, west) = (open(i - s), open(i + 1), open(i + s), open(i - 1));
    if north {
        add!(i - s, moves.straight, 0, -1);
    }
    if east {
        add!(i + 1, moves.straight, 1, 0);
    }
    if south {
        add!(i + s, moves.straight, 0, 1);
    }
    if west {
        add!(i - 1, moves.straight, -1, 0);
    }
    if moves.eight {
        if north && east && open(i - s + 1) {
            add!(i - s + 1, moves.diagonal, 1, -1);
        }
        if south && east && open(i + s + 1) {
            add!(i + s + 1, moves.diagonal, 1, 1);
        }
        if south && west && open(i + s - 1) {
            add!(i + s - 1, moves.diagonal, -1, 1);
        }
        if north && west && open(i - s - 1) {
            add!(i - s - 1, moves.diagonal, -1, -1);
        }
    }
    len
}

/// Calls `visit` with every move of [`neighbours`]: for code off the hot path.
pub fn for_each_move(
    grid: &Grid,
    moves: &Moves,
    direction: Direction,
    index: u32,
    class: Terrain,
    mut visit: impl FnMut(Move),
) {
    let mut out = [Move::default(); 8];
    let len = neighbours(grid, moves, direction, index, class, &mut out);
    out[..len].iter().for_each(|&m| visit(m));
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
            let class = grid.terrain(index);
            if class == Terrain::Blocked || labels[index as usize] != UNLABELLED {
                continue;
            }
            let label = sizes.len() as u32;
            let mut size = 0;
            labels[index as usize] = label;
            stack.push(index);
            while let Some(cell) = stack.pop() {
                size += 1;
                for_each_move(grid, &moves, Direction::Forward, cell, class, |m| {
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
