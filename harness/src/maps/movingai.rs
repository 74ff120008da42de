//! Moving AI Lab benchmark files: `.map` grids and their `.map.scen` problem lists.
//!
//! The format, and the quirks of the published files that these parsers accept, are
//! described in `../shared/movingai/README.md`: LF or CRLF line endings, a missing final
//! newline, blank trailing lines, `version 1` (TAB-separated) and `version 1.0`
//! (space-separated) scenarios, and bucket-0 lines of length 0 whose goal is unreachable.
//!
//! Everything else is rejected with a [`FileError`] naming the file, the 1-based line and
//! what was expected versus found, e.g. `maps/x.map:7: row 3 has 48 characters, expected
//! 49`. No input makes a parser panic. Parsing is linear in the file size, and memory is
//! bounded by the file's content, not by the sizes its header claims.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::maps::grid::{Grid, Terrain};
use crate::maps::scenario::{Expected, Problem};

/// An error reading a Moving AI file.
///
/// `F` says what is wrong with the content: [`MapFault`] or [`ScenFault`].
#[derive(Debug, thiserror::Error)]
pub enum FileError<F> {
    /// The file could not be read. (The OS error is part of this message, not a source
    /// error, so a chain of causes prints it once.)
    #[error("{file}: {error}")]
    Io {
        /// The file, as given.
        file: String,
        /// The error from the file system.
        error: std::io::Error,
    },
    /// The path is not a regular file (a FIFO, a device, a directory): reading it could
    /// block forever or make no sense.
    #[error("{file}: not a regular file")]
    NotAFile {
        /// The file, as given.
        file: String,
    },
    /// A line holds bytes that are not UTF-8 text.
    #[error("{file}:{line}: not UTF-8 text")]
    NotText {
        /// The file, as given.
        file: String,
        /// The 1-based line holding the first offending byte.
        line: usize,
    },
    /// A line does not follow the format.
    #[error("{file}:{line}: {fault}")]
    Invalid {
        /// The file, as given.
        file: String,
        /// The 1-based line at fault (one past the last line when content is missing).
        line: usize,
        /// What was expected and what was found.
        fault: F,
    },
}

/// An error reading a `.map` file.
pub type MapError = FileError<MapFault>;

/// An error reading a `.map.scen` file.
pub type ScenError = FileError<ScenFault>;

impl<F> FileError<F> {
    /// The 1-based line at fault, if the error is about the content.
    pub fn line(&self) -> Option<usize> {
        match self {
            FileError::Io { .. } | FileError::NotAFile { .. } => None,
            FileError::NotText { line, .. } | FileError::Invalid { line, .. } => Some(*line),
        }
    }

    /// What is wrong with the content, if that is the error.
    pub fn fault(&self) -> Option<&F> {
        match self {
            FileError::Invalid { fault, .. } => Some(fault),
            _ => None,
        }
    }
}

/// What is wrong with a line of a `.map` file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapFault {
    /// A header line (`type octile`, `map`) is not the one required.
    #[error("expected `{expected}`, found {found}")]
    Header {
        /// The required line.
        expected: &'static str,
        /// The line found, quoted (or `end of file`).
        found: Seen,
    },
    /// The `height` or `width` line is not `<field> <positive integer>`.
    #[error("expected `{field} <positive integer>`, found {found}")]
    Dimension {
        /// `height` or `width`.
        field: &'static str,
        /// The line found, quoted (or `end of file`).
        found: Seen,
    },
    /// The map has too many cells for `u32` node ids.
    #[error("a {width}x{height} map has too many cells for u32 node ids")]
    TooLarge {
        /// The width from the header.
        width: u32,
        /// The height from the header.
        height: u32,
    },
    /// A row does not have `width` characters.
    #[error("row {row} has {found} characters, expected {expected}")]
    RowWidth {
        /// The 0-based row (`y`).
        row: u32,
        /// The number of characters in the row.
        found: usize,
        /// The width from the header.
        expected: u32,
    },
    /// A row holds a character that is not a terrain.
    #[error("row {row}, column {column}: unknown terrain {found:?}, expected one of `.GSWT@O`")]
    Terrain {
        /// The 0-based row (`y`).
        row: u32,
        /// The 0-based column (`x`).
        column: u32,
        /// The character found.
        found: char,
    },
    /// The file ends before `height` rows.
    #[error("the file ends after {found} rows, expected {expected}")]
    MissingRows {
        /// The number of rows present.
        found: u32,
        /// The height from the header.
        expected: u32,
    },
    /// A non-blank line follows the last row.
    #[error("expected only blank lines after the last row, found {found}")]
    Trailing {
        /// The line found, quoted.
        found: Seen,
    },
}

/// What is wrong with a line of a `.map.scen` file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScenFault {
    /// The first line is not `version 1` or `version 1.0`.
    #[error("expected `version 1` or `version 1.0`, found {found}")]
    Version {
        /// The line found, quoted (or `end of file`).
        found: Seen,
    },
    /// A problem line does not have 9 fields.
    #[error("expected 9 fields (bucket map width height start_x start_y goal_x goal_y length), found {found}")]
    FieldCount {
        /// The number of whitespace-separated fields.
        found: usize,
    },
    /// A numeric field does not parse, or is out of range.
    #[error("field `{field}`: expected {expected}, found {found}")]
    Number {
        /// The field's name.
        field: &'static str,
        /// What the field must hold.
        expected: &'static str,
        /// The text found, quoted.
        found: Seen,
    },
    /// The width and height fields differ from the map's size.
    #[error("the line is for a {found_width}x{found_height} map, the map is {width}x{height}")]
    MapSize {
        /// The `map_width` field.
        found_width: u32,
        /// The `map_height` field.
        found_height: u32,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// The start or goal lies outside the map.
    #[error("{which} ({x}, {y}) lies outside the {width}x{height} map")]
    Outside {
        /// `start` or `goal`.
        which: &'static str,
        /// The cell's `x`.
        x: u32,
        /// The cell's `y`.
        y: u32,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// The start or goal is a blocked cell (`@`, `O`).
    #[error("{which} ({x}, {y}) is a blocked cell")]
    Blocked {
        /// `start` or `goal`.
        which: &'static str,
        /// The cell's `x`.
        x: u32,
        /// The cell's `y`.
        y: u32,
    },
    /// Start and goal lie in different terrain classes, so no path joins them, yet the
    /// length is positive.
    #[error(
        "start is {start:?} and goal is {goal:?}, which no path joins, yet the length is {length}"
    )]
    TerrainClasses {
        /// The start's terrain.
        start: Terrain,
        /// The goal's terrain.
        goal: Terrain,
        /// The `optimal_length` field.
        length: f64,
    },
    /// Start and goal are the same cell, yet the length is positive.
    #[error("start and goal are the same cell, yet the length is {length}, expected 0")]
    SelfLength {
        /// The `optimal_length` field.
        length: f64,
    },
}

/// A line or field as found in a file, for error messages: quoted and cut to 40 characters,
/// or `end of file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen(Option<String>);

impl Seen {
    const SHOWN: usize = 40;

    fn text(text: &str) -> Self {
        let mut shown: String = text.chars().take(Self::SHOWN).collect();
        if shown.len() < text.len() {
            shown.push('…');
        }
        Seen(Some(shown))
    }

    fn line(line: Option<&str>) -> Self {
        line.map_or(Seen(None), Seen::text)
    }
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(text) => write!(f, "{text:?}"),
            None => f.write_str("end of file"),
        }
    }
}

/// The terrain of a Moving AI map character, per the README's table.
pub fn terrain_of(c: char) -> Option<Terrain> {
    match c {
        '.' | 'G' | 'S' => Some(Terrain::Ground),
        'W' => Some(Terrain::Water),
        'T' => Some(Terrain::Trees),
        '@' | 'O' => Some(Terrain::Blocked),
        _ => None,
    }
}

/// Reads and parses a `.map` file.
pub fn parse_map(path: impl AsRef<Path>) -> Result<Grid, MapError> {
    let file = path.as_ref().display().to_string();
    let text = read_text(path.as_ref(), &file)?;
    parse_map_str(&text, &file)
}

/// Reads and parses the `.map.scen` file of `grid`, checking every problem against it.
pub fn parse_scen(path: impl AsRef<Path>, grid: &Grid) -> Result<Vec<Problem>, ScenError> {
    let file = path.as_ref().display().to_string();
    let text = read_text(path.as_ref(), &file)?;
    parse_scen_str(&text, &file, grid)
}

/// The text of a file; `file` names it in errors.
fn read_text<F>(path: &Path, file: &str) -> Result<String, FileError<F>> {
    let io = |error| FileError::Io { file: file.to_owned(), error };
    if !fs::metadata(path).map_err(io)?.is_file() {
        return Err(FileError::NotAFile { file: file.to_owned() });
    }
    let bytes = fs::read(path).map_err(io)?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        FileError::NotText { file: file.to_owned(), line }
    })
}

/// Whether `line` is `expected`, up to the amount of whitespace between words.
fn header_line(line: Option<&str>, expected: &'static str) -> Result<(), MapFault> {
    match line {
        Some(text) if text.split_whitespace().eq(expected.split(' ')) => Ok(()),
        _ => Err(MapFault::Header { expected, found: Seen::line(line) }),
    }
}

/// The positive integer of a `<field> <integer>` line.
fn dimension_line(line: Option<&str>, field: &'static str) -> Result<u32, MapFault> {
    let words: Vec<&str> = line.unwrap_or_default().split_whitespace().collect();
    match words[..] {
        [word, value] if word == field => value.parse().ok().filter(|&n: &u32| n > 0),
        _ => None,
    }
    .ok_or_else(|| MapFault::Dimension { field, found: Seen::line(line) })
}

/// Parses the text of a `.map` file; `file` names it in errors.
pub fn parse_map_str(text: &str, file: &str) -> Result<Grid, MapError> {
    let invalid =
        |line: usize, fault: MapFault| FileError::Invalid { file: file.to_owned(), line, fault };
    // `lines` strips `\n` and `\r\n` and accepts a missing final newline.
    let mut lines = text.lines();
    header_line(lines.next(), "type octile").map_err(|fault| invalid(1, fault))?;
    let height = dimension_line(lines.next(), "height").map_err(|fault| invalid(2, fault))?;
    let width = dimension_line(lines.next(), "width").map_err(|fault| invalid(3, fault))?;
    let padded = (u64::from(width) + 2).checked_mul(u64::from(height) + 2);
    if padded.is_none_or(|cells| cells >= u64::from(u32::MAX)) {
        return Err(invalid(3, MapFault::TooLarge { width, height }));
    }
    header_line(lines.next(), "map").map_err(|fault| invalid(4, fault))?;

    // Cells grow with the rows actually present, never with the size the header claims.
    let mut cells = Vec::new();
    for row in 0..height {
        let number = 5 + row as usize;
        let line = lines.next().ok_or_else(|| {
            invalid(number, MapFault::MissingRows { found: row, expected: height })
        })?;
        let found = line.chars().count();
        if found != width as usize {
            return Err(invalid(number, MapFault::RowWidth { row, found, expected: width }));
        }
        for (column, c) in (0..).zip(line.chars()) {
            let terrain = terrain_of(c)
                .ok_or_else(|| invalid(number, MapFault::Terrain { row, column, found: c }))?;
            cells.push(terrain);
        }
    }
    let first_after = 5 + height as usize;
    if let Some((i, line)) = lines.enumerate().find(|(_, line)| !line.trim().is_empty()) {
        return Err(invalid(first_after + i, MapFault::Trailing { found: Seen::text(line) }));
    }
    Ok(Grid::from_fn(width, height, |x, y| cells[(y * width + x) as usize]))
}

/// The names of a scenario line's 9 fields, in order.
const FIELDS: [&str; 9] = [
    "bucket",
    "map",
    "map_width",
    "map_height",
    "start_x",
    "start_y",
    "goal_x",
    "goal_y",
    "optimal_length",
];

/// Parses the text of the `.map.scen` file of `grid`; `file` names it in errors.
///
/// Blank lines are skipped, and so is each line's informational `map` field (the file's
/// name pairs it with its map). A line of length 0 whose start differs from its goal becomes
/// [`Expected::Unreachable`]; every other line becomes [`Expected::Length`]. Each line is
/// checked against `grid`: its size fields, start and goal inside the map and not blocked,
/// and a positive length only between cells of one terrain class.
pub fn parse_scen_str(text: &str, file: &str, grid: &Grid) -> Result<Vec<Problem>, ScenError> {
    let invalid =
        |line: usize, fault: ScenFault| FileError::Invalid { file: file.to_owned(), line, fault };
    let mut lines = text.lines();
    let first = lines.next();
    let version: Vec<&str> = first.unwrap_or_default().split_whitespace().collect();
    if !matches!(version[..], ["version", "1" | "1.0"]) {
        return Err(invalid(1, ScenFault::Version { found: Seen::line(first) }));
    }
    let mut problems = Vec::new();
    let numbered = lines.enumerate().map(|(i, line)| (i + 2, line));
    for (number, line) in numbered.filter(|(_, line)| !line.trim().is_empty()) {
        let mut problem = parse_problem(line, grid).map_err(|fault| invalid(number, fault))?;
        problem.line = number as u32;
        problems.push(problem);
    }
    Ok(problems)
}

/// One scenario line, checked against `grid`. A line with a TAB is split on TABs (the
/// `version 1` form, whose map field may hold a space), any other on whitespace.
fn parse_problem(line: &str, grid: &Grid) -> Result<Problem, ScenFault> {
    let fields: Vec<&str> = if line.contains('\t') {
        line.trim().split('\t').map(str::trim).collect()
    } else {
        line.split_whitespace().collect()
    };
    let fields: [&str; 9] =
        fields.as_slice().try_into().map_err(|_| ScenFault::FieldCount { found: fields.len() })?;
    let integer = |i: usize| {
        fields[i].parse::<u32>().map_err(|_| ScenFault::Number {
            field: FIELDS[i],
            expected: "an unsigned 32-bit integer",
            found: Seen::text(fields[i]),
        })
    };
    let bucket = integer(0)?;
    let (map_width, map_height) = (integer(2)?, integer(3)?);
    let start = (integer(4)?, integer(5)?);
    let goal = (integer(6)?, integer(7)?);
    let length =
        fields[8].parse::<f64>().ok().filter(|l| l.is_finite() && *l >= 0.0).ok_or_else(|| {
            ScenFault::Number {
                field: FIELDS[8],
                expected: "a finite number >= 0",
                found: Seen::text(fields[8]),
            }
        })?;

    let (width, height) = (grid.width(), grid.height());
    if (map_width, map_height) != (width, height) {
        return Err(ScenFault::MapSize {
            found_width: map_width,
            found_height: map_height,
            width,
            height,
        });
    }
    let terrain = |which: &'static str, (x, y): (u32, u32)| {
        if !grid.contains(x, y) {
            return Err(ScenFault::Outside { which, x, y, width, height });
        }
        match grid.terrain(grid.index(x, y)) {
            Terrain::Blocked => Err(ScenFault::Blocked { which, x, y }),
            terrain => Ok(terrain),
        }
    };
    let (start_terrain, goal_terrain) = (terrain("start", start)?, terrain("goal", goal)?);
    let expected = if length == 0.0 && start != goal {
        Expected::Unreachable
    } else if start == goal && length != 0.0 {
        return Err(ScenFault::SelfLength { length });
    } else if start_terrain != goal_terrain {
        return Err(ScenFault::TerrainClasses { start: start_terrain, goal: goal_terrain, length });
    } else {
        Expected::Length(length)
    };
    Ok(Problem { bucket, start, goal, expected, line: 0 })
}

/// Every `X.map` under `dir` (recursively) that has an `X.map.scen` beside it, with that
/// scenario file, sorted by path.
///
/// A map without a scenario file is skipped. Symbolic links to files are followed;
/// symbolic links to directories are not (so a link cycle cannot loop).
pub fn find_maps(dir: impl AsRef<Path>) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let mut pairs = Vec::new();
    let mut pending = vec![dir.as_ref().to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            fs::read_dir(&dir).with_context(|| format!("reading directory {}", dir.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("reading directory {}", dir.display()))?;
            let path = entry.path();
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "map") {
                let mut scen = path.clone().into_os_string();
                scen.push(".scen");
                let scen = PathBuf::from(scen);
                if scen.is_file() {
                    pairs.push((path, scen));
                }
            }
        }
    }
    pairs.sort();
    Ok(pairs)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A 4x3 map with every terrain character.
    const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n.GS@\nWWTO\n..T.\n";

    fn map(text: &str) -> Grid {
        parse_map_str(text, "x.map").unwrap_or_else(|e| panic!("{e}"))
    }

    fn map_error(text: &str) -> String {
        parse_map_str(text, "maps/x.map").expect_err("the map should be rejected").to_string()
    }

    fn scen_error(text: &str) -> String {
        parse_scen_str(text, "x.map.scen", &map(MAP))
            .expect_err("the scenario should be rejected")
            .to_string()
    }

    fn terrain_rows(grid: &Grid) -> Vec<Vec<Terrain>> {
        (0..grid.height())
            .map(|y| (0..grid.width()).map(|x| grid.terrain(grid.index(x, y))).collect())
            .collect()
    }

    #[test]
    fn reads_every_terrain_character() {
        use Terrain::{Blocked as B, Ground as G, Trees as T, Water as W};
        let grid = map(MAP);
        assert_eq!((grid.width(), grid.height()), (4, 3));
        assert_eq!(terrain_rows(&grid), [[G, G, G, B], [W, W, T, B], [G, G, T, G]]);
        assert!(grid.weights().is_none());
    }

    #[test]
    fn accepts_crlf_missing_final_newline_and_trailing_blank_lines() {
        let expected = map(MAP);
        let crlf = MAP.replace('\n', "\r\n");
        for text in [
            crlf.as_str(),
            crlf.trim_end(),
            MAP.trim_end(),
            &format!("{MAP}\n\n"),
            &format!("{crlf}\r\n  \r\n"),
            // Spacing inside the header lines is free.
            &MAP.replace("height 3", "height\t3 ").replace("type octile", "type  octile"),
        ] {
            assert_eq!(map(text), expected, "{text:?}");
        }
    }

    #[test]
    fn map_errors_name_the_file_the_line_and_expected_versus_found() {
        let rows = "map\n.GS@\nWWTO\n..T.\n";
        let header = "type octile\nheight 3\nwidth 4\n";
        for (text, message) in [
            ("", "maps/x.map:1: expected `type octile`, found end of file"),
            ("type tile\n", "maps/x.map:1: expected `type octile`, found \"type tile\""),
            (
                "type octile\n",
                "maps/x.map:2: expected `height <positive integer>`, found end of file",
            ),
            (
                "type octile\nwidth 4\n",
                "maps/x.map:2: expected `height <positive integer>`, found \"width 4\"",
            ),
            (
                "type octile\nheight 0\n",
                "maps/x.map:2: expected `height <positive integer>`, found \"height 0\"",
            ),
            (
                "type octile\nheight -3\n",
                "maps/x.map:2: expected `height <positive integer>`, found \"height -3\"",
            ),
            (
                "type octile\nheight 3\nwidth 4 5\n",
                "maps/x.map:3: expected `width <positive integer>`, found \"width 4 5\"",
            ),
            (
                "type octile\nheight 70000\nwidth 70000\nmap\n",
                "maps/x.map:3: a 70000x70000 map has too many cells for u32 node ids",
            ),
            // (2^32 + 1)^2 overflows u64: the size check must not wrap or panic.
            (
                "type octile\nheight 4294967294\nwidth 4294967295\nmap\n",
                "maps/x.map:3: a 4294967295x4294967294 map has too many cells for u32 node ids",
            ),
            (
                "type octile\nheight 4294967295\nwidth 4294967295\nmap\n",
                "maps/x.map:3: a 4294967295x4294967295 map has too many cells for u32 node ids",
            ),
            (&format!("{header}mop\n"), "maps/x.map:4: expected `map`, found \"mop\""),
            (
                &format!("{header}map\n.GS@\nWWT\n..T.\n"),
                "maps/x.map:6: row 1 has 3 characters, expected 4",
            ),
            (
                &format!("{header}map\n.GS@\nWWTO\n..T..\n"),
                "maps/x.map:7: row 2 has 5 characters, expected 4",
            ),
            (
                &format!("{header}map\n.GS@\n\nWWTO\n"),
                "maps/x.map:6: row 1 has 0 characters, expected 4",
            ),
            (
                &format!("{header}map\n.GS@\nWxTO\n..T.\n"),
                "maps/x.map:6: row 1, column 1: unknown terrain 'x', expected one of `.GSWT@O`",
            ),
            (
                &format!("{header}map\n.GS@\nWWTO\n..T\t\n"),
                "maps/x.map:7: row 2, column 3: unknown terrain '\\t', expected one of `.GSWT@O`",
            ),
            // A lone carriage return is not a line ending.
            (
                &format!("{header}map\n.GS@\r\nWWTO\r..T.\n"),
                "maps/x.map:6: row 1 has 9 characters, expected 4",
            ),
            (
                &format!("{header}map\n.GS@\nWWTO\n"),
                "maps/x.map:7: the file ends after 2 rows, expected 3",
            ),
            (
                &format!("{header}{rows}\n..T.\n"),
                "maps/x.map:9: expected only blank lines after the last row, found \"..T.\"",
            ),
        ] {
            assert_eq!(map_error(text), message, "{text:?}");
        }
        let long = format!("{header}{rows}{}\n", "@".repeat(100));
        assert_eq!(
            map_error(&long),
            format!(
                "maps/x.map:8: expected only blank lines after the last row, found \"{}…\"",
                "@".repeat(40)
            )
        );
    }

    #[test]
    fn scen_versions_fields_and_unreachable_lines() {
        let grid = map(MAP);
        // A map field with a space (`version 1` is TAB-separated) is one field.
        let v1 = "version 1\n0\tmaps/x.map\t4\t3\t0\t0\t1\t2\t2.41421\n\
                  1\tmaps/my maps/x.map\t4\t3\t0\t1\t1\t1\t1\n\
                  0\tx.map\t4\t3\t3\t2\t3\t2\t0\n\
                  0\tx.map\t4\t3\t0\t0\t3\t2\t0\n\n";
        let v1_0 = "version 1.0\n0 maps/wc3maps/x.map 4 3 0 0 1 2 2.41\r\n\
                    1 maps/wc3maps/x.map 4 3 0 1 1 1 1.00\r\n\
                    0 maps/wc3maps/x.map 4 3 3 2 3 2 0\r\n\
                    0 maps/wc3maps/x.map 4 3 0 0 3 2 0";
        let expected = |first: f64| {
            vec![
                Problem {
                    bucket: 0,
                    start: (0, 0),
                    goal: (1, 2),
                    expected: Expected::Length(first),
                    line: 2,
                },
                Problem {
                    bucket: 1,
                    start: (0, 1),
                    goal: (1, 1),
                    expected: Expected::Length(1.0),
                    line: 3,
                },
                Problem {
                    bucket: 0,
                    start: (3, 2),
                    goal: (3, 2),
                    expected: Expected::Length(0.0),
                    line: 4,
                },
                Problem {
                    bucket: 0,
                    start: (0, 0),
                    goal: (3, 2),
                    expected: Expected::Unreachable,
                    line: 5,
                },
            ]
        };
        assert_eq!(parse_scen_str(v1, "x.map.scen", &grid).unwrap(), expected(2.41421));
        assert_eq!(parse_scen_str(v1_0, "x.map.scen", &grid).unwrap(), expected(2.41));
        assert_eq!(parse_scen_str("version 1\n", "x.map.scen", &grid).unwrap(), []);
    }

    #[test]
    fn scen_errors_name_the_file_the_line_and_expected_versus_found() {
        let line = |fields: &str| format!("version 1\n\n0\tm\t{fields}\n");
        for (text, message) in [
            ("".to_owned(), "x.map.scen:1: expected `version 1` or `version 1.0`, found end of file"),
            ("version 2\n".to_owned(), "x.map.scen:1: expected `version 1` or `version 1.0`, found \"version 2\""),
            ("0\tm\t4\t3\t0\t0\t1\t2\t2.4\n".to_owned(), "x.map.scen:1: expected `version 1` or `version 1.0`, found \"0\\tm\\t4\\t3\\t0\\t0\\t1\\t2\\t2.4\""),
            (line("4\t3\t0\t0\t1\t2"), "x.map.scen:3: expected 9 fields (bucket map width height start_x start_y goal_x goal_y length), found 8"),
            (line("4\t3\t0\t0\t1\t2\t2.4\t7"), "x.map.scen:3: expected 9 fields (bucket map width height start_x start_y goal_x goal_y length), found 10"),
            ("version 1\nx\tm\t4\t3\t0\t0\t1\t2\t2.4\n".to_owned(), "x.map.scen:2: field `bucket`: expected an unsigned 32-bit integer, found \"x\""),
            (line("4\t3\t-1\t0\t1\t2\t2.4"), "x.map.scen:3: field `start_x`: expected an unsigned 32-bit integer, found \"-1\""),
            (line("4\t3\t0\t0\t1\t2.5\t2.4"), "x.map.scen:3: field `goal_y`: expected an unsigned 32-bit integer, found \"2.5\""),
            (line("4\t3\t0\t0\t1\t2\tnan"), "x.map.scen:3: field `optimal_length`: expected a finite number >= 0, found \"nan\""),
            (line("4\t3\t0\t0\t1\t2\t-2"), "x.map.scen:3: field `optimal_length`: expected a finite number >= 0, found \"-2\""),
            (line("512\t512\t0\t0\t1\t2\t2.4"), "x.map.scen:3: the line is for a 512x512 map, the map is 4x3"),
            (line("4\t3\t4\t0\t1\t2\t2.4"), "x.map.scen:3: start (4, 0) lies outside the 4x3 map"),
            (line("4\t3\t0\t0\t1\t3\t2.4"), "x.map.scen:3: goal (1, 3) lies outside the 4x3 map"),
            (line("4\t3\t3\t0\t1\t2\t2.4"), "x.map.scen:3: start (3, 0) is a blocked cell"),
            (line("4\t3\t0\t0\t3\t1\t2.4"), "x.map.scen:3: goal (3, 1) is a blocked cell"),
            (line("4\t3\t0\t0\t0\t1\t1"), "x.map.scen:3: start is Ground and goal is Water, which no path joins, yet the length is 1"),
            (line("4\t3\t2\t1\t2\t1\t1"), "x.map.scen:3: start and goal are the same cell, yet the length is 1, expected 0"),
        ] {
            assert_eq!(scen_error(&text), message, "{text:?}");
        }
    }

    #[test]
    fn files_are_read_and_their_errors_name_them() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let nested = dir.join("set");
        fs::create_dir_all(&nested).unwrap();
        let (map_path, scen_path) = (nested.join("a.map"), nested.join("a.map.scen"));
        fs::write(&map_path, MAP).unwrap();
        fs::write(&scen_path, "version 1\n0\ta.map\t4\t3\t0\t0\t1\t2\t2.41421\n").unwrap();
        fs::write(dir.join("lonely.map"), MAP).unwrap();
        fs::write(dir.join("b.map"), b"type octile\nheight 1\nwidth 1\nmap\n\xff\n").unwrap();
        fs::write(dir.join("b.map.scen"), "version 1\n").unwrap();

        let grid = parse_map(&map_path).unwrap();
        assert_eq!(parse_scen(&scen_path, &grid).unwrap().len(), 1);
        let pairs = find_maps(dir).unwrap();
        assert_eq!(pairs, [(dir.join("b.map"), dir.join("b.map.scen")), (map_path, scen_path)]);
        let not_text = parse_map(dir.join("b.map")).unwrap_err();
        assert_eq!(
            not_text.to_string(),
            format!("{}:5: not UTF-8 text", dir.join("b.map").display())
        );
        assert_eq!(not_text.line(), Some(5));
        let missing = parse_map(dir.join("none.map")).unwrap_err();
        assert!(matches!(missing, FileError::Io { .. }), "{missing}");
        assert!(missing.to_string().starts_with(&dir.join("none.map").display().to_string()));
        assert!(find_maps(dir.join("none")).is_err());
        // The OS error is said once, even through a chain of causes.
        let chained = format!("{:#}", anyhow::Error::new(missing));
        assert_eq!(chained.matches("No such file").count(), 1, "{chained}");
        // A directory (like a FIFO or a device) is refused before any read.
        let folder = parse_map(&nested).unwrap_err();
        assert_eq!(folder.to_string(), format!("{}: not a regular file", nested.display()));
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo.map");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let refused = parse_map(&fifo).unwrap_err();
                assert!(matches!(refused, FileError::NotAFile { .. }), "{refused}");
            }
        }
    }

    /// The benchmark subset: `$PQLAB_MAPS`, else `../shared/movingai` beside the workspace;
    /// `None`, with a note, when it is absent.
    pub(crate) fn shared_maps() -> Option<PathBuf> {
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

    #[test]
    fn parses_the_whole_moving_ai_subset() {
        let Some(dir) = shared_maps() else { return };
        let pairs = find_maps(dir).unwrap();
        assert_eq!(pairs.len(), 30);
        let (mut problems, mut unreachable) = (0, Vec::new());
        for (map_path, scen_path) in &pairs {
            let grid = parse_map(map_path).unwrap_or_else(|e| panic!("{e}"));
            let scen = parse_scen(scen_path, &grid).unwrap_or_else(|e| panic!("{e}"));
            problems += scen.len();
            let name = map_path.file_name().unwrap().to_string_lossy().into_owned();
            for problem in scen.iter().filter(|p| p.expected == Expected::Unreachable) {
                assert_eq!(problem.bucket, 0);
                unreachable.push(name.clone());
            }
        }
        assert_eq!(problems, 80_364);
        assert_eq!(unreachable, ["brc000d.map"; 10]);
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let text = String::from_utf8_lossy(&bytes);
            let grid = parse_map_str(&text, "fuzz.map");
            let _ = parse_scen_str(&text, "fuzz.map.scen", grid.as_ref().unwrap_or(&map(MAP)));
        }

        #[test]
        fn near_valid_lines_never_panic(lines in proptest::collection::vec(prop_oneof![
            Just("type octile".to_owned()),
            Just("map".to_owned()),
            Just("version 1".to_owned()),
            "(height|width) [0-9]{1,11}",
            "[.GSWTO@x\r\t ]{0,6}",
            "[0-9]{1,3}\tm\t[0-9]\t[0-9]\t[0-9]\t[0-9]\t[0-9]\t[0-9]\t[0-9.e-]{1,5}",
        ], 0..12)) {
            let text = lines.join("\n");
            let grid = parse_map_str(&text, "fuzz.map");
            let _ = parse_scen_str(&text, "fuzz.map.scen", grid.as_ref().unwrap_or(&map(MAP)));
            let _ = parse_scen_str(&format!("version 1\n{text}"), "fuzz.map.scen", &map(MAP));
        }

        #[test]
        fn any_valid_map_reads_back_whatever_its_line_endings(
            rows in (1usize..6).prop_flat_map(|w| proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(&['.', 'G', 'S', 'W', 'T', '@', 'O'][..]), w), 1..6)),
            crlf in any::<bool>(),
            final_newline in any::<bool>(),
            blank_tail in 0usize..3,
        ) {
            let eol = if crlf { "\r\n" } else { "\n" };
            let mut text = format!("type octile{eol}height {}{eol}width {}{eol}map", rows.len(), rows[0].len());
            for row in &rows {
                text += eol;
                text.extend(row);
            }
            if final_newline || blank_tail > 0 {
                text += eol;
            }
            text += &eol.repeat(blank_tail);
            let grid = parse_map_str(&text, "valid.map").unwrap();
            let expected: Vec<Vec<Terrain>> =
                rows.iter().map(|row| row.iter().map(|&c| terrain_of(c).unwrap()).collect()).collect();
            prop_assert_eq!(terrain_rows(&grid), expected);
        }
    }
}
