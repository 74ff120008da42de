//! Frontier traces: what a search asked of its frontier, written once by any search in any
//! language, then replayed against every queue by `pqlab pick --trace`.
//!
//! A trace is the search's *logical* frontier operations, whatever queue it ran with: a
//! node enters ([`TraceOp::Push`]), a held node's key is lowered ([`TraceOp::Decrease`]), the
//! frontier answers the node with the smallest key ([`TraceOp::Pop`], with the node and key it
//! answered), and the frontier is emptied between searches ([`TraceOp::Clear`]). A duplicate
//! entry a lazy-deletion search pushes is a `decrease` here, and the stale entry it later
//! skips is no operation: a replay against a duplicate-insertion queue pushes and skips
//! them again, so every queue is timed on the same search. The format (its text and binary
//! forms, with examples) is `TRACE.md` beside this crate's README; its rules, checked on
//! load:
//!
//! * node ids are integers below [`NODE_LIMIT`]; keys are unsigned 64-bit integers,
//!   smaller first (scale float costs to integers first);
//! * `push` names a node not held, `decrease` a held node and a smaller key, `pop` a held
//!   node with its key, and that key is the smallest held (ties in any order);
//! * the header says whether the keys are `monotone` (no key below the last popped one
//!   since the last `clear`) or `any`, and may declare a `span`: with monotone keys, the
//!   largest key minus the floor (the last popped key, or before the first pop the first
//!   key pushed). A trace that breaks its header is malformed.
//!
//! A malformed trace is a [`TraceError`] naming the record (a line of the text form, a
//! byte offset of the binary form), never a panic. [`Recording`] writes a trace while a
//! search runs with any [`Frontier`].
//!
//! Reading and writing are O(operations); checking holds the frontier in a hash map and an
//! ordered set, O(log n) an operation.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::path::Path;

use crate::{Family, Frontier, Key, KeyRule, Node, Order, Origin, PushError, Pushed, Spec};
use crate::{Strategy, Ties};

/// The first line of the text form, followed by a space and the version.
pub const TEXT_MAGIC: &str = "pqlab-trace";

/// The first 8 bytes of the binary form, followed by the version byte.
pub const BINARY_MAGIC: &[u8; 8] = b"PQLTRACE";

/// The format's version.
pub const VERSION: u8 = 1;

/// The longest line the text form reads, in bytes: a record takes under 50, so a longer
/// line (a runaway comment, a file that is not a trace) is refused before it is held whole.
pub const LINE_LIMIT: usize = 4096;

/// The most characters of a user's word an error quotes: enough to recognise it, never a
/// line's worth.
const QUOTED: usize = 24;

/// Node ids are below this (2^24): queues size their tables to the largest id, so ids must
/// be dense. Renumber the nodes in the order they are first pushed if yours are not.
pub const NODE_LIMIT: u32 = 1 << 24;

/// One logical frontier operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceOp {
    /// `node`, not held, enters with `key`.
    Push {
        /// The node.
        node: Node,
        /// Its key.
        key: Key,
    },
    /// Held `node`'s key is lowered to `key`.
    Decrease {
        /// The node.
        node: Node,
        /// Its new key, below its held one.
        key: Key,
    },
    /// The frontier answered `node` with `key`, the smallest key held; `node` leaves.
    Pop {
        /// The node answered.
        node: Node,
        /// Its key.
        key: Key,
    },
    /// The frontier is emptied (between searches); the floor is forgotten.
    Clear,
}

/// The binary form's tag of each operation.
const TAG_PUSH: u8 = 1;
const TAG_DECREASE: u8 = 2;
const TAG_POP: u8 = 3;
const TAG_CLEAR: u8 = 4;

/// What a trace's keys promise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceKeys {
    /// No key pushed or lowered to below the last popped key since the last `clear`: every
    /// queue can replay it (bounded-span ones within the span).
    Monotone,
    /// Any keys: only the queues that accept any key ([`KeyRule::Any`]).
    Any,
}

impl fmt::Display for TraceKeys {
    /// The header's word: `monotone` or `any`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            TraceKeys::Monotone => "monotone",
            TraceKeys::Any => "any",
        })
    }
}

/// Where a record sits in its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// A line of the text form, from 1.
    Line(usize),
    /// The byte offset of a record of the binary form, from 0.
    Byte(u64),
    /// An operation given in memory, from 0.
    Record(usize),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Line(line) => write!(f, "line {line}"),
            At::Byte(offset) => write!(f, "byte {offset}"),
            At::Record(index) => write!(f, "operation {index}"),
        }
    }
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TraceProblem {
    /// Not a trace, or a header that cannot be read.
    #[error("{0}")]
    Header(String),
    /// A version this reader does not know.
    #[error("trace format version {0}: this reader knows version {VERSION}")]
    Version(u64),
    /// An operation's word or tag is not one of the four.
    #[error("unknown operation {0}: the operations are push, decrease, pop and clear")]
    UnknownOperation(String),
    /// A record that does not have the shape of its operation.
    #[error("{0}")]
    Malformed(String),
    /// A line of the text form longer than [`LINE_LIMIT`] bytes.
    #[error("the line is longer than {LINE_LIMIT} bytes: a record takes under 50")]
    LongLine,
    /// The binary form ends inside a record.
    #[error("the file ends inside a record: {needed} bytes needed, {left} left")]
    Truncated {
        /// The record's bytes after its tag.
        needed: usize,
        /// What the file still held.
        left: usize,
    },
    /// A node id at or above [`NODE_LIMIT`].
    #[error("node {0} is not below {NODE_LIMIT}: node ids must be dense (renumber them in the order they are first pushed)")]
    NodeTooLarge(u64),
    /// A pop while nothing is held.
    #[error("pop from an empty frontier")]
    PopEmpty,
    /// A push of a node already held.
    #[error(
        "push of node {node}, which is held with key {held}: lower a held node's key with decrease"
    )]
    Held {
        /// The node.
        node: Node,
        /// Its held key.
        held: Key,
    },
    /// A decrease or pop of a node not held.
    #[error("{op} of node {node}, which is not held")]
    NotHeld {
        /// `decrease` or `pop`.
        op: &'static str,
        /// The node.
        node: Node,
    },
    /// A decrease to a key not below the held one.
    #[error("decrease of node {node} to key {key}, not below its held key {held}")]
    NotLower {
        /// The node.
        node: Node,
        /// Its held key.
        held: Key,
        /// The key asked.
        key: Key,
    },
    /// A pop naming a node with another key than its held one.
    #[error("pop of node {node} with key {key}, but it is held with key {held}")]
    WrongKey {
        /// The node.
        node: Node,
        /// Its held key.
        held: Key,
        /// The key the pop says.
        key: Key,
    },
    /// A pop whose key is not the smallest held.
    #[error("pop of key {key}, but node {smallest_node} is held with the smaller key {smallest}: a frontier answers the smallest key")]
    NotSmallest {
        /// The key popped.
        key: Key,
        /// The smallest key held.
        smallest: Key,
        /// A node holding it.
        smallest_node: Node,
    },
    /// A key below the floor in a trace declared monotone.
    #[error("key {key} is below the last popped key {floor}, but the header says the keys are monotone (declare `keys any` if they are not)")]
    BelowFloor {
        /// The key.
        key: Key,
        /// The last popped key.
        floor: Key,
    },
    /// A key beyond the declared span.
    #[error("key {key} is more than the declared span {span} above the floor {floor}")]
    BeyondSpan {
        /// The key.
        key: Key,
        /// The floor.
        floor: Key,
        /// The declared span.
        span: Key,
    },
    /// The file could not be read.
    #[error("{0}")]
    Io(String),
}

/// A malformed trace: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {problem}")]
pub struct TraceError {
    /// The record.
    pub at: At,
    /// What is wrong with it.
    pub problem: TraceProblem,
}

/// How a trace is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceFormat {
    /// One operation a line: `push 12 340`.
    Text,
    /// A magic header, then 13 bytes an operation (1 for `clear`).
    Binary,
}

/// A checked trace: a header and operations that follow every rule of the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserTrace {
    keys: TraceKeys,
    span: Option<Key>,
    ops: Vec<TraceOp>,
    facts: Facts,
}

/// What checking a trace learnt of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// `push` operations.
    pub pushes: usize,
    /// `decrease` operations.
    pub decreases: usize,
    /// `pop` operations.
    pub pops: usize,
    /// Searches: runs of operations between `clear`s (empty ones not counted).
    pub searches: usize,
    /// The most nodes held at once in each search, in order.
    pub most_held: Vec<usize>,
    /// The largest node id plus one: the capacity a queue needs.
    pub capacity: usize,
    /// The largest key minus the floor of a bounded-span queue (the last popped key, or
    /// before the first pop the first key pushed), over the keys not below it.
    pub span: Key,
    /// The smallest and largest key.
    pub keys: Option<(Key, Key)>,
}

/// The frontier as the checker holds it.
#[derive(Debug)]
struct Checker {
    keys: TraceKeys,
    span: Option<Key>,
    held: HashMap<Node, Key>,
    order: BTreeSet<(Key, Node)>,
    /// The last popped key since the last clear.
    floor: Option<Key>,
    /// The first key pushed since the last clear.
    first: Option<Key>,
    in_search: bool,
    facts: Facts,
}

impl Checker {
    fn new(keys: TraceKeys, span: Option<Key>) -> Checker {
        Checker {
            keys,
            span,
            held: HashMap::new(),
            order: BTreeSet::new(),
            floor: None,
            first: None,
            in_search: false,
            facts: Facts::default(),
        }
    }

    /// Checks a key entering the frontier against the header, and notes its span.
    fn enter(&mut self, key: Key) -> Result<(), TraceProblem> {
        if let (TraceKeys::Monotone, Some(floor)) = (self.keys, self.floor) {
            if key < floor {
                return Err(TraceProblem::BelowFloor { key, floor });
            }
        }
        let floor = match self.floor {
            Some(floor) => floor,
            None => *self.first.get_or_insert(key),
        };
        if key >= floor {
            if let Some(span) = self.span.filter(|&span| key - floor > span) {
                return Err(TraceProblem::BeyondSpan { key, floor, span });
            }
            self.facts.span = self.facts.span.max(key - floor);
        }
        let (low, high) = self.facts.keys.unwrap_or((key, key));
        self.facts.keys = Some((low.min(key), high.max(key)));
        Ok(())
    }

    fn node(&mut self, node: Node) -> Result<(), TraceProblem> {
        if node >= NODE_LIMIT {
            return Err(TraceProblem::NodeTooLarge(node.into()));
        }
        self.facts.capacity = self.facts.capacity.max(node as usize + 1);
        if !self.in_search {
            self.in_search = true;
            self.facts.searches += 1;
            self.facts.most_held.push(0);
        }
        Ok(())
    }

    fn apply(&mut self, op: TraceOp) -> Result<(), TraceProblem> {
        match op {
            TraceOp::Push { node, key } => {
                self.node(node)?;
                if let Some(&held) = self.held.get(&node) {
                    return Err(TraceProblem::Held { node, held });
                }
                self.enter(key)?;
                self.held.insert(node, key);
                self.order.insert((key, node));
                self.facts.pushes += 1;
                let most = self.facts.most_held.last_mut().expect("a search started");
                *most = (*most).max(self.held.len());
            }
            TraceOp::Decrease { node, key } => {
                self.node(node)?;
                let Some(&held) = self.held.get(&node) else {
                    return Err(TraceProblem::NotHeld { op: "decrease", node });
                };
                if key >= held {
                    return Err(TraceProblem::NotLower { node, held, key });
                }
                self.enter(key)?;
                self.order.remove(&(held, node));
                self.order.insert((key, node));
                self.held.insert(node, key);
                self.facts.decreases += 1;
            }
            TraceOp::Pop { node, key } => {
                self.node(node)?;
                let &(smallest, smallest_node) =
                    self.order.first().ok_or(TraceProblem::PopEmpty)?;
                let Some(&held) = self.held.get(&node) else {
                    return Err(TraceProblem::NotHeld { op: "pop", node });
                };
                if held != key {
                    return Err(TraceProblem::WrongKey { node, held, key });
                }
                if key > smallest {
                    return Err(TraceProblem::NotSmallest { key, smallest, smallest_node });
                }
                self.order.remove(&(key, node));
                self.held.remove(&node);
                self.floor = Some(key);
                self.facts.pops += 1;
            }
            TraceOp::Clear => {
                self.held.clear();
                self.order.clear();
                self.floor = None;
                self.first = None;
                self.in_search = false;
            }
        }
        Ok(())
    }
}

impl UserTrace {
    /// Checks `ops` under the header `keys` and `span`; an error names the operation by
    /// its index.
    pub fn new(
        keys: TraceKeys,
        span: Option<Key>,
        ops: Vec<TraceOp>,
    ) -> Result<UserTrace, TraceError> {
        let mut checker =
            header(keys, span).map_err(|problem| TraceError { at: At::Record(0), problem })?;
        for (index, &op) in ops.iter().enumerate() {
            checker.apply(op).map_err(|problem| TraceError { at: At::Record(index), problem })?;
        }
        Ok(UserTrace { keys, span, ops, facts: checker.facts })
    }

    /// What the header says of the keys.
    pub fn keys(&self) -> TraceKeys {
        self.keys
    }

    /// The declared span, if the header declares one.
    pub fn declared_span(&self) -> Option<Key> {
        self.span
    }

    /// The operations, in order.
    pub fn ops(&self) -> &[TraceOp] {
        &self.ops
    }

    /// What checking learnt: counts, frontier sizes, capacity, span.
    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// Reads a trace in either form (told apart by the first bytes) and checks it.
    pub fn read(mut reader: impl BufRead) -> Result<UserTrace, TraceError> {
        let io =
            |e: io::Error| TraceError { at: At::Byte(0), problem: TraceProblem::Io(e.to_string()) };
        if is_binary(reader.fill_buf().map_err(io)?) {
            read_binary(reader)
        } else {
            read_text(reader)
        }
    }

    /// The operations the trace `reader` holds at most, counted in one pass that holds
    /// nothing of it: the text form's lines, or the binary form's records walked by their
    /// tags. Exact for a binary trace; a text trace's header, comments and blank lines are
    /// counted too. O(bytes), in memory O(1): what to check against a memory limit before
    /// [`UserTrace::read`] holds the operations.
    pub fn records(mut reader: impl BufRead) -> io::Result<u64> {
        let binary = is_binary(reader.fill_buf()?);
        let mut skip = if binary { BINARY_MAGIC.len() + BINARY_HEADER } else { 0 };
        let mut records = u64::from(!binary);
        loop {
            let bytes = reader.fill_buf()?;
            let len = bytes.len();
            if len == 0 {
                return Ok(records);
            }
            if binary {
                let mut at = skip;
                while at < len {
                    records += 1;
                    at += if bytes[at] == TAG_CLEAR { 1 } else { 13 };
                }
                skip = at - len;
            } else {
                records += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            }
            reader.consume(len);
        }
    }

    /// Reads and checks the trace in the file at `path`; an error names the file.
    pub fn load(path: &Path) -> Result<UserTrace, LoadError> {
        let file = std::fs::File::open(path)
            .map_err(|error| LoadError::Open { path: path.to_owned(), error })?;
        UserTrace::read(io::BufReader::new(file))
            .map_err(|error| LoadError::Malformed { path: path.to_owned(), error })
    }

    /// Writes the trace in `format`.
    pub fn write(&self, mut writer: impl Write, format: TraceFormat) -> io::Result<()> {
        match format {
            TraceFormat::Text => {
                writeln!(writer, "{TEXT_MAGIC} {VERSION}")?;
                writeln!(writer, "keys {}", self.keys)?;
                if let Some(span) = self.span {
                    writeln!(writer, "span {span}")?;
                }
                for op in &self.ops {
                    match *op {
                        TraceOp::Push { node, key } => writeln!(writer, "push {node} {key}")?,
                        TraceOp::Decrease { node, key } => {
                            writeln!(writer, "decrease {node} {key}")?
                        }
                        TraceOp::Pop { node, key } => writeln!(writer, "pop {node} {key}")?,
                        TraceOp::Clear => writeln!(writer, "clear")?,
                    }
                }
            }
            TraceFormat::Binary => {
                writer.write_all(BINARY_MAGIC)?;
                writer.write_all(&[VERSION, u8::from(self.keys == TraceKeys::Monotone)])?;
                writer.write_all(&[u8::from(self.span.is_some())])?;
                writer.write_all(&self.span.unwrap_or(0).to_le_bytes())?;
                for op in &self.ops {
                    let (tag, entry) = match *op {
                        TraceOp::Push { node, key } => (TAG_PUSH, Some((node, key))),
                        TraceOp::Decrease { node, key } => (TAG_DECREASE, Some((node, key))),
                        TraceOp::Pop { node, key } => (TAG_POP, Some((node, key))),
                        TraceOp::Clear => (TAG_CLEAR, None),
                    };
                    writer.write_all(&[tag])?;
                    if let Some((node, key)) = entry {
                        writer.write_all(&node.to_le_bytes())?;
                        writer.write_all(&key.to_le_bytes())?;
                    }
                }
            }
        }
        writer.flush()
    }

    /// Writes the trace to the file at `path` in `format`.
    pub fn save(&self, path: &Path, format: TraceFormat) -> io::Result<()> {
        self.write(io::BufWriter::new(std::fs::File::create(path)?), format)
    }
}

/// A trace file that could not be opened or is malformed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened.
    #[error("{}: {error}", path.display())]
    Open {
        /// The file.
        path: std::path::PathBuf,
        /// Why (in the message, not a source: a chain would print it twice).
        error: io::Error,
    },
    /// The file is not a well-formed trace.
    #[error("{}: {error}", path.display())]
    Malformed {
        /// The file.
        path: std::path::PathBuf,
        /// Where and what (in the message, not a source: a chain would print it twice).
        error: TraceError,
    },
}

/// Whether a file starting with `start` is the binary form: its first bytes are the magic's.
fn is_binary(start: &[u8]) -> bool {
    !start.is_empty() && start.starts_with(&BINARY_MAGIC[..start.len().min(BINARY_MAGIC.len())])
}

/// A checker for the header `keys`, `span`.
fn header(keys: TraceKeys, span: Option<Key>) -> Result<Checker, TraceProblem> {
    if keys == TraceKeys::Any && span.is_some() {
        return Err(TraceProblem::Header(
            "a span is declared, but the keys are `any`: a span needs monotone keys".into(),
        ));
    }
    Ok(Checker::new(keys, span))
}

/// The text form's lines as words: comments (`#` to the end) and blank lines skipped; no
/// line is held past `LINE_LIMIT` bytes.
struct TextLines<R> {
    reader: R,
    /// The number of the line last read, from 1.
    number: usize,
    /// The bytes of the line last read.
    bytes: Vec<u8>,
}

impl<R: BufRead> TextLines<R> {
    /// The next line that holds words, with its number; `None` at the end of the file.
    fn next_words(&mut self) -> Result<Option<(usize, Vec<String>)>, TraceError> {
        loop {
            self.number += 1;
            let number = self.number;
            let bad = |problem| TraceError { at: At::Line(number), problem };
            self.bytes.clear();
            let read = (&mut self.reader)
                .take(LINE_LIMIT as u64 + 1)
                .read_until(b'\n', &mut self.bytes)
                .map_err(|e| bad(TraceProblem::Io(e.to_string())))?;
            if read == 0 {
                return Ok(None);
            }
            if self.bytes.len() > LINE_LIMIT && self.bytes.last() != Some(&b'\n') {
                return Err(bad(TraceProblem::LongLine));
            }
            let text = std::str::from_utf8(&self.bytes)
                .map_err(|_| bad(TraceProblem::Malformed("the line is not UTF-8 text".into())))?;
            let text = text.split('#').next().unwrap_or("");
            let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
            if !words.is_empty() {
                return Ok(Some((number, words)));
            }
        }
    }
}

/// An error of the text form at line `line`.
fn at_line(line: usize, problem: TraceProblem) -> TraceError {
    TraceError { at: At::Line(line), problem }
}

/// Reads the text form.
fn read_text(reader: impl BufRead) -> Result<UserTrace, TraceError> {
    let mut lines = TextLines { reader, number: 0, bytes: Vec::new() };
    let first = text_magic(&mut lines)?;
    let (mut keys, mut span) = (None, None);
    let mut checker: Option<Checker> = None;
    let mut ops = Vec::new();
    while let Some((line, words)) = lines.next_words()? {
        if checker.is_none() && matches!(words[0].as_str(), "keys" | "span") {
            text_header(&words, &mut keys, &mut span).map_err(|p| at_line(line, p))?;
            continue;
        }
        let checker = match &mut checker {
            Some(checker) => checker,
            None => {
                let keys = keys.ok_or_else(|| {
                    at_line(line, TraceProblem::Header("the header must say `keys monotone` or `keys any` before the first operation".into()))
                })?;
                checker.insert(header(keys, span).map_err(|p| at_line(line, p))?)
            }
        };
        let op = text_op(&words).map_err(|p| at_line(line, p))?;
        checker.apply(op).map_err(|p| at_line(line, p))?;
        ops.push(op);
    }
    let keys = keys.ok_or_else(|| {
        at_line(
            first,
            TraceProblem::Header("the header must say `keys monotone` or `keys any`".into()),
        )
    })?;
    let facts = match checker {
        Some(checker) => checker.facts,
        None => header(keys, span).map_err(|p| at_line(first, p))?.facts,
    };
    Ok(UserTrace { keys, span, ops, facts })
}

/// Reads the text form's first line, `TEXT_MAGIC VERSION`, and returns its number.
fn text_magic(lines: &mut TextLines<impl BufRead>) -> Result<usize, TraceError> {
    let Some((line, magic)) = lines.next_words()? else {
        return Err(at_line(
            1,
            TraceProblem::Header(format!(
                "an empty file: a trace starts with `{TEXT_MAGIC} {VERSION}`"
            )),
        ));
    };
    match magic.as_slice() {
        [word, version] if word == TEXT_MAGIC => {
            let version: u64 = version.parse().map_err(|_| {
                at_line(line, TraceProblem::Header(format!("'{}' is not a version: the first line is `{TEXT_MAGIC} {VERSION}`", quoted(version))))
            })?;
            if version != u64::from(VERSION) {
                return Err(at_line(line, TraceProblem::Version(version)));
            }
            Ok(line)
        }
        _ => Err(at_line(line, TraceProblem::Header(format!(
            "not a pqlab trace: the first line must be `{TEXT_MAGIC} {VERSION}` (or the binary form's `PQLTRACE`), not `{}`",
            quoted(&magic.join(" "))
        )))),
    }
}

/// Reads a header line of the text form, `keys monotone|any` or `span N`, into `keys` or
/// `span`.
fn text_header(
    words: &[String],
    keys: &mut Option<TraceKeys>,
    span: &mut Option<Key>,
) -> Result<(), TraceProblem> {
    let word = words[0].as_str();
    let [_, value] = words else {
        return Err(TraceProblem::Malformed(format!(
            "`{word}` takes one value: `keys monotone`, `keys any` or `span N`"
        )));
    };
    if word == "keys" {
        *keys = Some(match value.as_str() {
            "monotone" => TraceKeys::Monotone,
            "any" => TraceKeys::Any,
            other => {
                return Err(TraceProblem::Header(format!(
                    "keys '{}': say `keys monotone` or `keys any`",
                    quoted(other)
                )))
            }
        });
    } else {
        *span = Some(value.parse::<Key>().map_err(|_| {
            TraceProblem::Header(format!(
                "span '{}' is not an unsigned 64-bit integer",
                quoted(value)
            ))
        })?);
    }
    Ok(())
}

/// One operation of the text form from its words.
fn text_op(words: &[String]) -> Result<TraceOp, TraceProblem> {
    let number = |what: &str, text: &str| -> Result<u64, TraceProblem> {
        text.parse::<u64>().map_err(|_| {
            TraceProblem::Malformed(format!(
                "'{}' is not a {what}: an unsigned integer",
                quoted(text)
            ))
        })
    };
    let entry = |op: &str| -> Result<(Node, Key), TraceProblem> {
        let [_, node, key] = words else {
            return Err(TraceProblem::Malformed(format!(
                "`{op}` takes a node and a key: `{op} NODE KEY`"
            )));
        };
        let node = number("node id", node)?;
        let node = Node::try_from(node)
            .ok()
            .filter(|&n| n < NODE_LIMIT)
            .ok_or(TraceProblem::NodeTooLarge(node))?;
        Ok((node, number("key", key)?))
    };
    match words[0].as_str() {
        "push" => entry("push").map(|(node, key)| TraceOp::Push { node, key }),
        "decrease" => entry("decrease").map(|(node, key)| TraceOp::Decrease { node, key }),
        "pop" => entry("pop").map(|(node, key)| TraceOp::Pop { node, key }),
        "clear" if words.len() == 1 => Ok(TraceOp::Clear),
        "clear" => Err(TraceProblem::Malformed("`clear` takes nothing".into())),
        other => Err(TraceProblem::UnknownOperation(format!("'{}'", quoted(other)))),
    }
}

/// `text` as an error quotes it: its first [`QUOTED`] characters, and `…` when cut.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The binary header's bytes after the magic: version, keys, span flag, span.
const BINARY_HEADER: usize = 1 + 1 + 1 + 8;

/// An error of the binary form at byte `offset`.
fn at_byte(offset: usize, problem: TraceProblem) -> TraceError {
    TraceError { at: At::Byte(offset as u64), problem }
}

/// Reads the binary form.
fn read_binary(mut reader: impl Read) -> Result<UserTrace, TraceError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(|e| at_byte(0, TraceProblem::Io(e.to_string())))?;
    let (keys, span) = binary_header(&bytes)?;
    let mut checker = header(keys, span).map_err(|p| at_byte(10, p))?;
    let mut ops = Vec::new();
    let mut at = BINARY_MAGIC.len() + BINARY_HEADER;
    while at < bytes.len() {
        let op = binary_op(&bytes[at..]).map_err(|p| at_byte(at, p))?;
        checker.apply(op).map_err(|p| at_byte(at, p))?;
        ops.push(op);
        at += if op == TraceOp::Clear { 1 } else { 13 };
    }
    Ok(UserTrace { keys, span, ops, facts: checker.facts })
}

/// The keys and span of the binary header; the magic is not checked again.
fn binary_header(bytes: &[u8]) -> Result<(TraceKeys, Option<Key>), TraceError> {
    if bytes.len() < BINARY_MAGIC.len() + BINARY_HEADER {
        return Err(at_byte(
            0,
            TraceProblem::Header(format!(
                "the file ends inside the binary header: {} bytes, the header takes {}",
                bytes.len(),
                BINARY_MAGIC.len() + BINARY_HEADER
            )),
        ));
    }
    let head = &bytes[BINARY_MAGIC.len()..];
    if head[0] != VERSION {
        return Err(at_byte(8, TraceProblem::Version(head[0].into())));
    }
    let keys = match head[1] {
        0 => TraceKeys::Any,
        1 => TraceKeys::Monotone,
        other => {
            return Err(at_byte(
                9,
                TraceProblem::Header(format!("keys byte {other}: 0 for any keys, 1 for monotone")),
            ))
        }
    };
    let span_value = Key::from_le_bytes(head[3..11].try_into().expect("8 bytes"));
    let span = match head[2] {
        0 => None,
        1 => Some(span_value),
        other => {
            return Err(at_byte(
                10,
                TraceProblem::Header(format!(
                    "span flag byte {other}: 0 for no span declared, 1 for a span"
                )),
            ))
        }
    };
    Ok((keys, span))
}

/// The binary operation that starts `rest`: a tag byte, then for all but `clear` a
/// little-endian 4-byte node and 8-byte key.
fn binary_op(rest: &[u8]) -> Result<TraceOp, TraceProblem> {
    let tag = rest[0];
    if tag == TAG_CLEAR {
        return Ok(TraceOp::Clear);
    }
    let body = &rest[1..];
    const ENTRY: usize = 4 + 8;
    if ![TAG_PUSH, TAG_DECREASE, TAG_POP].contains(&tag) {
        return Err(TraceProblem::UnknownOperation(format!(
            "tag {tag} (1 push, 2 decrease, 3 pop, 4 clear)"
        )));
    }
    if body.len() < ENTRY {
        return Err(TraceProblem::Truncated { needed: ENTRY, left: body.len() });
    }
    let node = Node::from_le_bytes(body[..4].try_into().expect("4 bytes"));
    let key = Key::from_le_bytes(body[4..ENTRY].try_into().expect("8 bytes"));
    if node >= NODE_LIMIT {
        return Err(TraceProblem::NodeTooLarge(node.into()));
    }
    Ok(match tag {
        TAG_PUSH => TraceOp::Push { node, key },
        TAG_DECREASE => TraceOp::Decrease { node, key },
        _ => TraceOp::Pop { node, key },
    })
}

/// A frontier that records the trace of the search running on it: wrap the queue your
/// search has, run the search (as many times as you like; each `clear` separates two
/// searches), then take [`Recording::trace`] and save it.
///
/// It keeps the logical frontier beside the queue (a hash map of the held nodes, O(1) an
/// operation) to write a search's operations whatever the queue's strategy: a push of a
/// held node with a smaller key is a `decrease`, one with an equal or larger key, and the
/// stale entries a duplicate-insertion queue pops, are no operation. The keys are written
/// `monotone` when none fell below the last popped one, else `any`. Record with an exact
/// queue: an approximate one's pops break the format's order, and [`Recording::trace`]
/// says where.
///
/// ```
/// use pqlab_queues::trace::{TraceFormat, Recording};
/// use pqlab_queues::{std_binary_heap::StdBinaryHeap, Frontier, Spec};
///
/// let mut open = Recording::<StdBinaryHeap>::new(Spec { capacity: 10, span: 0 });
/// open.push(3, 7).unwrap();
/// open.push(3, 5).unwrap(); // a duplicate entry: a decrease of node 3
/// assert_eq!(open.pop(), Some((3, 5)));
/// assert_eq!(open.pop(), Some((3, 7))); // the stale entry: no operation
/// let trace = open.trace().unwrap();
/// let mut text = Vec::new();
/// trace.write(&mut text, TraceFormat::Text).unwrap();
/// assert_eq!(
///     String::from_utf8(text).unwrap(),
///     "pqlab-trace 1\nkeys monotone\npush 3 7\ndecrease 3 5\npop 3 5\n"
/// );
/// ```
#[derive(Debug)]
pub struct Recording<Q> {
    queue: Q,
    held: HashMap<Node, Key>,
    ops: Vec<TraceOp>,
    /// The last popped key since the last clear.
    floor: Option<Key>,
    monotone: bool,
}

impl<Q: Frontier> Recording<Q> {
    /// Records the operations on `queue` from now on (it should be empty).
    pub fn wrap(queue: Q) -> Recording<Q> {
        Recording { queue, held: HashMap::new(), ops: Vec::new(), floor: None, monotone: true }
    }

    /// The trace recorded so far, checked; an error names the operation that breaks the
    /// format (an approximate queue's pop out of order).
    pub fn trace(&self) -> Result<UserTrace, TraceError> {
        let keys = if self.monotone { TraceKeys::Monotone } else { TraceKeys::Any };
        UserTrace::new(keys, None, self.ops.clone())
    }

    /// The queue recorded, and the recording's operations dropped.
    pub fn into_inner(self) -> Q {
        self.queue
    }

    fn entering(&mut self, key: Key) {
        if self.floor.is_some_and(|floor| key < floor) {
            self.monotone = false;
        }
    }
}

impl<Q: Frontier> Frontier for Recording<Q> {
    const FAMILY: Family = Q::FAMILY;
    const ORIGIN: Origin = Q::ORIGIN;
    const STRATEGY: Strategy = Q::STRATEGY;
    const KEYS: KeyRule = Q::KEYS;
    const TIES: Ties = Q::TIES;
    const ORDER: Order = Q::ORDER;

    fn new(spec: Spec) -> Self {
        Recording::wrap(Q::new(spec))
    }

    fn push(&mut self, node: Node, key: Key) -> Result<Pushed, PushError> {
        let pushed = self.queue.push(node, key)?;
        match self.held.get(&node) {
            None => self.ops.push(TraceOp::Push { node, key }),
            Some(&held) if key < held => self.ops.push(TraceOp::Decrease { node, key }),
            Some(_) => return Ok(pushed),
        }
        self.entering(key);
        self.held.insert(node, key);
        Ok(pushed)
    }

    fn pop(&mut self) -> Option<(Node, Key)> {
        let (node, key) = self.queue.pop()?;
        if self.held.get(&node) == Some(&key) {
            self.held.remove(&node);
            self.ops.push(TraceOp::Pop { node, key });
            self.floor = Some(key);
        }
        Some((node, key))
    }

    fn len(&self) -> usize {
        self.queue.len()
    }

    fn clear(&mut self) {
        self.queue.clear();
        self.held.clear();
        self.floor = None;
        if self.ops.last().is_some_and(|&op| op != TraceOp::Clear) {
            self.ops.push(TraceOp::Clear);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dary_heap::DaryHeap;
    use crate::std_binary_heap::StdBinaryHeap;
    use crate::Dk;

    /// Dijkstra on a 6-cycle with chords, from every node, on `Q` through a recording.
    fn recorded<Q: Frontier>() -> UserTrace {
        let edges: &[(Node, Node, Key)] = &[
            (0, 1, 4),
            (1, 2, 1),
            (2, 3, 5),
            (3, 4, 1),
            (4, 5, 2),
            (5, 0, 3),
            (0, 3, 2),
            (1, 4, 9),
        ];
        let mut open = Recording::<Q>::new(Spec { capacity: 6, span: 16 });
        for source in 0..6 {
            open.clear();
            let mut dist = [Key::MAX; 6];
            dist[source as usize] = 0;
            open.push(source, 0).unwrap();
            while let Some((node, d)) = open.pop() {
                if d > dist[node as usize] {
                    continue;
                }
                for &(a, b, w) in edges {
                    for (from, to) in [(a, b), (b, a)] {
                        if from == node && d + w < dist[to as usize] {
                            dist[to as usize] = d + w;
                            open.push(to, d + w).unwrap();
                        }
                    }
                }
            }
        }
        open.trace().unwrap()
    }

    fn text(trace: &UserTrace) -> String {
        let mut out = Vec::new();
        trace.write(&mut out, TraceFormat::Text).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn read(bytes: &[u8]) -> Result<UserTrace, TraceError> {
        UserTrace::read(bytes)
    }

    #[test]
    fn a_recorded_trace_round_trips_between_text_and_binary() {
        for trace in [recorded::<StdBinaryHeap>(), recorded::<DaryHeap<4, Dk>>()] {
            let facts = trace.facts();
            assert_eq!(facts.searches, 6);
            assert_eq!(facts.pops, 36, "every node settled once per search");
            assert!(facts.decreases > 0, "the chords lower some keys");
            assert_eq!(trace.keys(), TraceKeys::Monotone);
            let mut binary = Vec::new();
            trace.write(&mut binary, TraceFormat::Binary).unwrap();
            assert!(binary.starts_with(BINARY_MAGIC));
            let from_binary = read(&binary).unwrap();
            assert_eq!(from_binary, trace);
            let from_text = read(text(&from_binary).as_bytes()).unwrap();
            assert_eq!(from_text, trace);
            let mut again = Vec::new();
            from_text.write(&mut again, TraceFormat::Binary).unwrap();
            assert_eq!(again, binary);
        }
    }

    #[test]
    fn either_queue_strategy_records_the_same_logical_operations() {
        // Distinct keys on this graph's settled order aside, the two strategies differ only
        // in the entries the duplicate queue holds: the logical counts agree.
        let (dup, dk) = (recorded::<StdBinaryHeap>(), recorded::<DaryHeap<4, Dk>>());
        assert_eq!(
            (dup.facts().pushes, dup.facts().decreases, dup.facts().pops),
            (dk.facts().pushes, dk.facts().decreases, dk.facts().pops)
        );
    }

    /// The error of reading `body` after a text header with monotone keys.
    fn text_error(body: &str) -> TraceError {
        read(format!("pqlab-trace 1\nkeys monotone\n{body}").as_bytes()).unwrap_err()
    }

    #[test]
    fn a_long_line_is_refused_unread_and_a_bad_word_is_quoted_short() {
        let long = format!("push {} 1\n", "9".repeat(1 << 20));
        assert_eq!(
            text_error(&long),
            TraceError { at: At::Line(3), problem: TraceProblem::LongLine }
        );
        let word = "x".repeat(LINE_LIMIT - 10);
        let error = text_error(&format!("{word}\n")).to_string();
        assert!(error.len() < 200, "{error}");
        assert!(error.starts_with(&format!("line 3: unknown operation '{}…'", &word[..QUOTED])));
        let error = read(format!("{word}\n").as_bytes()).unwrap_err().to_string();
        assert!(error.len() < 200, "{error}");
    }

    #[test]
    fn a_load_error_says_the_problem_once() {
        let dir = std::env::temp_dir().join(format!("pqlab-trace-once-{}", std::process::id()));
        std::fs::write(&dir, "pqlab-trace 1\nkeys monotone\nfrob\n").unwrap();
        let error = UserTrace::load(&dir).unwrap_err();
        std::fs::remove_file(&dir).unwrap();
        let chain = format!(
            "{error}{}",
            std::error::Error::source(&error).map_or(String::new(), |s| s.to_string())
        );
        assert_eq!(chain.matches("unknown operation").count(), 1, "{chain}");
    }

    #[test]
    fn records_bound_the_operations_without_reading_them() {
        for trace in [recorded::<StdBinaryHeap>(), recorded::<DaryHeap<4, Dk>>()] {
            let ops = trace.ops().len() as u64;
            let mut binary = Vec::new();
            trace.write(&mut binary, TraceFormat::Binary).unwrap();
            assert_eq!(UserTrace::records(&binary[..]).unwrap(), ops);
            // Byte by byte, records straddle the reads.
            let one = io::BufReader::with_capacity(1, &binary[..]);
            assert_eq!(UserTrace::records(one).unwrap(), ops);
            let text = text(&trace);
            let lines = UserTrace::records(text.as_bytes()).unwrap();
            assert!((ops..=ops + 4).contains(&lines), "{lines} lines for {ops} operations");
        }
    }

    #[test]
    fn malformed_text_names_the_line_and_the_problem() {
        let line = |n, problem| TraceError { at: At::Line(n), problem };
        assert_eq!(text_error("pop 1 2\n"), line(3, TraceProblem::PopEmpty));
        assert_eq!(
            text_error("push 1 5\nfrob 1 2\n"),
            line(4, TraceProblem::UnknownOperation("'frob'".into()))
        );
        assert_eq!(
            text_error("push 1 5\npop 1 5\npush 2 4\n"),
            line(5, TraceProblem::BelowFloor { key: 4, floor: 5 })
        );
        assert_eq!(
            text_error("push 1 5\npush 2 3\npop 1 5\n"),
            line(5, TraceProblem::NotSmallest { key: 5, smallest: 3, smallest_node: 2 })
        );
        assert_eq!(
            text_error("push 1 5\npush 1 4\n"),
            line(4, TraceProblem::Held { node: 1, held: 5 })
        );
        assert_eq!(
            text_error("push 1 5\ndecrease 1 6\n"),
            line(4, TraceProblem::NotLower { node: 1, held: 5, key: 6 })
        );
        assert_eq!(
            text_error("push 1 5\npop 1 4\n"),
            line(4, TraceProblem::WrongKey { node: 1, held: 5, key: 4 })
        );
        assert_eq!(
            text_error("# a comment\n\npush 99999999 1\n"),
            line(5, TraceProblem::NodeTooLarge(99_999_999))
        );
        assert!(matches!(text_error("push 1\n").problem, TraceProblem::Malformed(_)));
        assert!(matches!(text_error("push 1 -3\n").problem, TraceProblem::Malformed(_)));
        let header = |text: &str| read(text.as_bytes()).unwrap_err();
        assert!(matches!(
            header("hello\n"),
            TraceError { at: At::Line(1), problem: TraceProblem::Header(_) }
        ));
        assert_eq!(header("pqlab-trace 2\n").problem, TraceProblem::Version(2));
        assert!(matches!(header("pqlab-trace 1\npush 1 2\n").problem, TraceProblem::Header(_)));
        assert!(matches!(
            header("pqlab-trace 1\nkeys any\nspan 3\npush 1 2\n").problem,
            TraceProblem::Header(_)
        ));
        assert_eq!(
            header("pqlab-trace 1\nkeys monotone\nspan 3\npush 1 2\npush 2 6\n"),
            line(5, TraceProblem::BeyondSpan { key: 6, floor: 2, span: 3 })
        );
        // The same keys under `keys any` are well formed.
        let any = read(b"pqlab-trace 1\nkeys any\npush 1 5\npop 1 5\npush 2 4\n").unwrap();
        assert_eq!(any.facts().pushes, 2);
    }

    #[test]
    fn malformed_binary_names_the_byte_offset() {
        let trace = UserTrace::new(
            TraceKeys::Monotone,
            None,
            vec![
                TraceOp::Push { node: 1, key: 5 },
                TraceOp::Pop { node: 1, key: 5 },
                TraceOp::Clear,
            ],
        )
        .unwrap();
        let mut bytes = Vec::new();
        trace.write(&mut bytes, TraceFormat::Binary).unwrap();
        assert_eq!(bytes.len(), 19 + 13 + 13 + 1);
        // Truncated inside the pop (offset 32).
        let cut = read(&bytes[..40]).unwrap_err();
        assert_eq!(
            cut,
            TraceError {
                at: At::Byte(32),
                problem: TraceProblem::Truncated { needed: 12, left: 7 }
            }
        );
        // An unknown tag where the clear was.
        let mut tagged = bytes.clone();
        tagged[45] = 9;
        assert!(matches!(
            read(&tagged).unwrap_err(),
            TraceError { at: At::Byte(45), problem: TraceProblem::UnknownOperation(_) }
        ));
        // A pop from an empty frontier: the push's tag made a clear.
        let mut emptied = bytes.clone();
        emptied.splice(19..32, [TAG_CLEAR]);
        assert_eq!(
            read(&emptied).unwrap_err(),
            TraceError { at: At::Byte(20), problem: TraceProblem::PopEmpty }
        );
        // A bad version, and a file shorter than the header.
        let mut versioned = bytes.clone();
        versioned[8] = 7;
        assert_eq!(read(&versioned).unwrap_err().problem, TraceProblem::Version(7));
        assert!(matches!(read(&bytes[..12]).unwrap_err().problem, TraceProblem::Header(_)));
    }

    #[test]
    fn an_approximate_queue_recording_is_refused_where_it_misorders() {
        use crate::soft_heap::SoftHeap;
        let mut open = Recording::<SoftHeap<2>>::new(Spec { capacity: 4096, span: 0 });
        let mut keys = crate::testing::xorshift(7);
        for node in 0..4096 {
            open.push(node, keys() % 1000).unwrap();
        }
        while open.pop().is_some() {}
        let error = open.trace().unwrap_err();
        assert!(matches!(error.problem, TraceProblem::NotSmallest { .. }), "{error}");
    }
}
