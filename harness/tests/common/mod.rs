//! What the search tests share: random problems on a grid, and where the shared Moving AI
//! maps are. Each test file compiles this module on its own and uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use pqlab::maps::grid::{Grid, Terrain};

/// A cell, `(x, y)`.
pub type Cell = (u32, u32);

/// `count` start/goal pairs of passable cells drawn by xorshift from `seed`, some in other
/// components or terrain classes.
pub fn pairs(grid: &Grid, count: usize, seed: u64) -> Vec<(Cell, Cell)> {
    let mut rng = seed | 1;
    let mut next = move |bound: u32| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % u64::from(bound)) as u32
    };
    let mut cell = || loop {
        let (x, y) = (next(grid.width()), next(grid.height()));
        if grid.terrain(grid.index(x, y)) != Terrain::Blocked {
            return (x, y);
        }
    };
    (0..count).map(|_| (cell(), cell())).collect()
}

/// `$PQLAB_MAPS`, else `../shared/movingai` beside the workspace; `None`, with a note, when
/// it is absent.
pub fn shared_maps() -> Option<PathBuf> {
    let dir = std::env::var_os("PQLAB_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/movingai"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: skipped, no Moving AI maps at {} (set PQLAB_MAPS)", dir.display());
        None
    }
}
