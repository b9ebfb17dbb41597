//! What to read: line selections in every form callers use, byte selections, and the one
//! parser for the text forms.

use std::ops::{RangeFrom, RangeFull, RangeInclusive, RangeToInclusive};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::indentation::{IndentSelection, IndentSpan};
use crate::index::LineIndex;
use crate::lines::Lines;
use crate::result::{Adjustments, ByteSpan, Requested, RequestedLines};
use crate::text::{utf8, Units};

/// A selection of lines. Lines are 1-indexed and ranges inclusive; negative numbers count
/// from the end (`-1` is the last line).
///
/// All the forms agent tools use normalize to this type:
///
/// Build a selection with the constructors (or `From` a range, or by parsing); the
/// variants are there to match on (those with fields cannot be built outside the crate,
/// so that a new field never breaks a caller).
///
/// | form | constructor |
/// |---|---|
/// | `start..=end`, `start..`, `..=end`, `..` | `From` the std range types, or [`LineSelection::range`] |
/// | `offset` + `limit` (Claude Code, Codex) | [`LineSelection::offset_limit`] |
/// | `head N`, `tail N` (MCP filesystem server) | [`LineSelection::head`], [`LineSelection::tail`] |
/// | `around L` with context, `block L` | [`LineSelection::around`], [`LineSelection::block`] |
/// | Codex's indentation mode | [`LineSelection::indentation`] |
/// | CLI text `A:B`, `A:`, `:B`, `A:+N`, `-N:` | [`LineSelection::parse`] / `str::parse` |
///
/// # Example
///
/// ```
/// use rangeread::LineSelection;
///
/// assert_eq!("10:20".parse::<LineSelection>()?, LineSelection::from(10..=20));
/// assert_eq!("-50:".parse::<LineSelection>()?, LineSelection::range(Some(-50), None));
/// assert_eq!("40:+10".parse::<LineSelection>()?, LineSelection::from(40..=50));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineSelection {
    /// `start..=end`; a missing start means line 1, a missing end the last line. Negative
    /// values count from the end.
    #[non_exhaustive]
    Range {
        /// First line (1-based, or negative from the end).
        start: Option<i64>,
        /// Last line, inclusive (1-based, or negative from the end).
        end: Option<i64>,
    },
    /// `limit` lines starting at line `offset` (1-based); no limit reads to the end.
    #[non_exhaustive]
    OffsetLimit {
        /// First line, 1-based.
        offset: u64,
        /// Number of lines.
        limit: Option<u64>,
    },
    /// The first N lines.
    Head(u64),
    /// The last N lines.
    Tail(u64),
    /// Line `line` and `context` lines on each side: `line - context ..= line + context`,
    /// clamped to the file. `line` must exist.
    #[non_exhaustive]
    Around {
        /// The line in the middle, 1-based.
        line: u64,
        /// Lines shown on each side.
        context: u64,
    },
    /// The innermost definition that encloses `line`, with its decorators, attributes
    /// and doc comments; outside any definition, the enclosing indentation block. The
    /// rules are those of the behaviour contract (`docs/contract.md`, "Reading around a
    /// line"), detailed on
    /// [`LineSelection::block`]. `line` must exist.
    #[non_exhaustive]
    Block {
        /// A line inside the block, 1-based.
        line: u64,
    },
    /// The lines around an anchor line that share its indentation block, by the rules of
    /// Codex's indentation mode ([`IndentSelection`]). The anchor line must exist.
    Indentation(IndentSelection),
}

impl Default for LineSelection {
    /// The whole file (within the budgets).
    fn default() -> Self {
        LineSelection::Range {
            start: None,
            end: None,
        }
    }
}

impl LineSelection {
    /// The first `n` lines (`head N` of the MCP filesystem server); `0` selects nothing.
    pub fn head(n: u64) -> LineSelection {
        LineSelection::Head(n)
    }

    /// The last `n` lines (`tail N`); `0` selects nothing, more than the file has selects
    /// the whole file.
    pub fn tail(n: u64) -> LineSelection {
        LineSelection::Tail(n)
    }

    /// `start..=end` with optional, possibly negative, sides.
    pub fn range(start: Option<i64>, end: Option<i64>) -> LineSelection {
        LineSelection::Range { start, end }
    }

    /// `limit` lines from line `offset` (1-based), as Claude Code's and Codex's read
    /// tools take them.
    pub fn offset_limit(offset: u64, limit: Option<u64>) -> LineSelection {
        LineSelection::OffsetLimit { offset, limit }
    }

    /// Line `line` with `context` lines before and after it (clamped to the file).
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader};
    ///
    /// let r = Reader::new().read("tests/data/sample.txt", LineSelection::around(3, 5))?;
    /// assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((1, 8)));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn around(line: u64, context: u64) -> LineSelection {
        LineSelection::Around { line, context }
    }

    /// The block that encloses line `line`:
    ///
    /// - the header is the nearest landmark line at or above `line` that is indented less
    ///   than it and whose block reaches it (`line` itself when it is a definition line);
    ///   the block starts at the header's decorators, attributes and doc comments directly
    ///   above it (in C, also a return type on the line above the name);
    /// - it runs through the last non-blank line before the next non-blank line indented
    ///   at or left of the header; a closing line (`}`, `)`, `]`, `end`) at the header's
    ///   indentation belongs to it, and lines that continue the header at its own
    ///   indentation (`{`, `) -> T {`, `where`, `} else {`, `else:`) do not end it;
    ///   trailing blank lines are left out;
    /// - in Markdown a heading's block runs to the next heading of the same or a higher
    ///   level, in TOML and INI a section's to the next section header;
    /// - outside any definition it is the enclosing indentation block (the nearest
    ///   less-indented line above and its block), and for a top-level line that is not
    ///   a definition, the statement that starts there.
    ///
    /// The search looks up at most [`crate::Reader::landmark_window`] bytes (256 KiB by
    /// default) and down at most as far as the budgets reach; a block longer than the
    /// budget pages like any read.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader, Source};
    ///
    /// let code = "use std::fmt;\n\n/// Doubles.\nfn double(x: u32) -> u32 {\n    x * 2\n}\n\nfn other() {}\n";
    /// let mut doc = Reader::new().document(Source::from_bytes(code.as_bytes().to_vec(), "lib.rs"));
    /// let r = doc.read(LineSelection::block(5))?;
    /// assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((3, 6)));
    /// assert!(r.content.starts_with("/// Doubles."));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn block(line: u64) -> LineSelection {
        LineSelection::Block { line }
    }

    /// The indentation block around `sel.anchor_line`, as Codex's `read_file` finds it
    /// in its indentation mode; the rules and how the budgets bound it are on
    /// [`IndentSelection`].
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{IndentSelection, LineSelection, Reader, Source};
    ///
    /// let code = "fn f() {\n    if a {\n        one();\n    }\n    if b {\n        two();\n    }\n}\n";
    /// let mut doc = Reader::new().document(Source::from_bytes(code.as_bytes().to_vec(), "f.rs"));
    /// let own = doc.read(LineSelection::indentation(IndentSelection::new(3).max_levels(1)))?;
    /// assert_eq!(own.lines.map(|l| (l.start, l.end)), Some((2, 4)));
    /// let all = IndentSelection::new(3).max_levels(1).include_siblings(true);
    /// let siblings = doc.read(LineSelection::indentation(all))?;
    /// assert_eq!(siblings.lines.map(|l| (l.start, l.end)), Some((2, 7)));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn indentation(sel: IndentSelection) -> LineSelection {
        LineSelection::Indentation(sel)
    }

    /// Parses the CLI text forms: `A:B`, `A:`, `:B`, `A:+N` (lines A through A+N, as bat
    /// reads it), `-N:` (the last N lines), a single line `A`, and `:` for everything.
    /// Either side may be negative.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSelection`] naming the text for anything else, and
    /// [`Error::ZeroLine`] for a 0 on either side.
    pub fn parse(text: &str) -> Result<LineSelection> {
        let t = text.trim();
        let bad = || {
            Error::selection(format!(
                "Invalid line range {text:?}: expected A:B, A:, :B, A:+N or -N:"
            ))
        };
        let num = |s: &str| -> Result<Option<i64>> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse().map(Some).map_err(|_| bad())
        };
        let Some((a, b)) = t.split_once(':') else {
            let line = num(t)?.ok_or_else(bad)?;
            let sel = LineSelection::range(Some(line), Some(line));
            sel.validate()?;
            return Ok(sel);
        };
        let start = num(a)?;
        let sel = if let Some(n) = b.trim().strip_prefix('+') {
            let n: u64 = n.trim().parse().map_err(|_| bad())?;
            let s = start.ok_or_else(bad)?;
            if s < 0 {
                return Err(bad());
            }
            let end = s
                .checked_add(i64::try_from(n).map_err(|_| bad())?)
                .ok_or_else(bad)?;
            LineSelection::range(Some(s), Some(end))
        } else {
            LineSelection::range(start, num(b)?)
        };
        // A zero on either side, with the other bound; a start after the end stays for
        // the read to report (as `validate` does there).
        if let LineSelection::Range { start, end } = sel {
            if start == Some(0) || end == Some(0) {
                sel.validate()?;
            }
        }
        Ok(sel)
    }

    /// The selection as asked, in the result's terms, without the file (head and tail
    /// have no line numbers until the file is read).
    pub(crate) fn as_requested(&self) -> Option<RequestedLines> {
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        match *self {
            LineSelection::Range { start, end } => Some(RequestedLines {
                start: start.unwrap_or(1),
                end,
            }),
            LineSelection::OffsetLimit { offset, limit } => Some(RequestedLines {
                start: i(offset),
                end: limit.map(|n| i(offset.saturating_add(n).saturating_sub(1))),
            }),
            LineSelection::Around { line, context } => Some(RequestedLines {
                start: i(line.saturating_sub(context).max(1)),
                end: Some(i(line.saturating_add(context))),
            }),
            LineSelection::Block { line } => Some(RequestedLines {
                start: i(line),
                end: None,
            }),
            LineSelection::Indentation(sel) => Some(RequestedLines {
                start: i(sel.anchor_line),
                end: None,
            }),
            LineSelection::Head(_) | LineSelection::Tail(_) => None,
        }
    }

    /// Checks what can be checked without the file: 0 lines, and a start after the end
    /// when both sides count the same way.
    pub(crate) fn validate(&self) -> Result<()> {
        match *self {
            LineSelection::Range { start, end } => {
                if start == Some(0) || end == Some(0) {
                    let field = if start == Some(0) {
                        "start_line"
                    } else {
                        "end_line"
                    };
                    return Err(Error::ZeroLine { field, start, end });
                }
                if let (Some(s), Some(e)) = (start, end) {
                    if (s > 0) == (e > 0) && s > e {
                        return Err(Error::LineStartAfterEnd { start: s, end: e });
                    }
                }
                Ok(())
            }
            LineSelection::OffsetLimit { offset: 0, .. } => Err(Error::ZeroLine {
                field: "start_line",
                start: Some(0),
                end: None,
            }),
            LineSelection::Around { line: 0, .. } | LineSelection::Block { line: 0 } => {
                Err(Error::ZeroLine {
                    field: "line",
                    start: Some(0),
                    end: None,
                })
            }
            LineSelection::Indentation(sel) => sel.validate(),
            _ => Ok(()),
        }
    }
}

impl FromStr for LineSelection {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        LineSelection::parse(s)
    }
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

impl From<RangeInclusive<u64>> for LineSelection {
    fn from(r: RangeInclusive<u64>) -> Self {
        LineSelection::range(Some(to_i64(*r.start())), Some(to_i64(*r.end())))
    }
}

impl From<RangeFrom<u64>> for LineSelection {
    fn from(r: RangeFrom<u64>) -> Self {
        LineSelection::range(Some(to_i64(r.start)), None)
    }
}

impl From<RangeToInclusive<u64>> for LineSelection {
    fn from(r: RangeToInclusive<u64>) -> Self {
        LineSelection::range(None, Some(to_i64(r.end)))
    }
}

impl From<RangeFull> for LineSelection {
    fn from(_: RangeFull) -> Self {
        LineSelection::default()
    }
}

/// How a byte selection's edges are widened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Snap {
    /// Outward to whole characters (at most 3 bytes per side). The default.
    #[default]
    Char,
    /// Outward to whole lines, like grep's context.
    Line,
}

impl FromStr for Snap {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "char" => Ok(Snap::Char),
            "line" => Ok(Snap::Line),
            _ => Err(Error::selection(format!(
                "Invalid snap {s:?}: expected char or line"
            ))),
        }
    }
}

/// A selection of bytes: 0-indexed, half-open `[start, end)`. A missing start means 0,
/// a missing end the file size.
///
/// # Example
///
/// ```
/// use rangeread::ByteSelection;
///
/// let sel: ByteSelection = "100:200".parse()?;
/// assert_eq!((sel.start, sel.end), (Some(100), Some(200)));
/// # Ok::<(), rangeread::Error>(())
/// ```
///
/// From JSON it accepts `start`/`start_byte` and `end`/`end_byte`; a negative,
/// fractional or non-numeric value fails at parse time with a message naming the field:
///
/// ```
/// let err = serde_json::from_str::<rangeread::ByteSelection>(r#"{"start_byte": -5}"#)
///     .unwrap_err();
/// assert!(err.to_string().starts_with("Invalid start_byte: expected a non-negative integer, got -5"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByteSelection {
    /// First byte, 0-based.
    #[serde(default, alias = "start_byte", deserialize_with = "de_start_byte")]
    pub start: Option<u64>,
    /// End, exclusive.
    #[serde(default, alias = "end_byte", deserialize_with = "de_end_byte")]
    pub end: Option<u64>,
    /// How the edges are widened.
    #[serde(default)]
    pub snap: Snap,
}

impl ByteSelection {
    /// `[start, end)` with character snapping.
    pub fn new(start: Option<u64>, end: Option<u64>) -> ByteSelection {
        ByteSelection {
            start,
            end,
            snap: Snap::Char,
        }
    }

    /// The same selection with another snapping rule.
    pub fn snap(self, snap: Snap) -> ByteSelection {
        ByteSelection { snap, ..self }
    }

    /// Parses `A:B`, `A:` and `:B`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSelection`] naming the text.
    pub fn parse(text: &str) -> Result<ByteSelection> {
        let bad = || {
            Error::selection(format!(
                "Invalid byte range {text:?}: expected A:B, A: or :B with non-negative integers"
            ))
        };
        let (a, b) = text.trim().split_once(':').ok_or_else(bad)?;
        let num = |s: &str| -> Result<Option<u64>> {
            let s = s.trim();
            if s.is_empty() {
                Ok(None)
            } else {
                s.parse().map(Some).map_err(|_| bad())
            }
        };
        Ok(ByteSelection::new(num(a)?, num(b)?))
    }
}

impl FromStr for ByteSelection {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        ByteSelection::parse(s)
    }
}

impl From<std::ops::Range<u64>> for ByteSelection {
    fn from(r: std::ops::Range<u64>) -> Self {
        ByteSelection::new(Some(r.start), Some(r.end))
    }
}

/// What to read: lines or bytes.
///
/// The two units count differently (lines from 1, inclusive; bytes from 0, half-open),
/// so a selection always names its unit: build it as a [`LineSelection`]
/// (`LineSelection::from(10..=20)`, eleven lines) or a [`ByteSelection`]
/// (`ByteSelection::from(10..20)`, ten bytes). A bare range is not a `Selection`: the
/// same `10..20` would otherwise be bytes while `10..=20` is lines.
///
/// ```compile_fail
/// // Which unit? Not accepted: say `LineSelection::from(..)` or `ByteSelection::from(..)`.
/// let sel: rangeread::Selection = (10..20).into();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// A line selection.
    Lines(LineSelection),
    /// A byte selection.
    Bytes(ByteSelection),
}

impl Default for Selection {
    fn default() -> Self {
        Selection::Lines(LineSelection::default())
    }
}

impl Selection {
    /// Checks what can be checked without the file (a 0 line, a start after the end
    /// when both sides count the same way), so that a bad range is reported as such
    /// before the file is opened or classified.
    pub(crate) fn validate(&self) -> Result<()> {
        match self {
            Selection::Lines(sel) => sel.validate(),
            Selection::Bytes(ByteSelection {
                start: Some(start),
                end: Some(end),
                ..
            }) if start > end => Err(Error::ByteStartAfterEnd {
                start: *start,
                end: *end,
            }),
            Selection::Bytes(_) => Ok(()),
        }
    }
}

impl From<LineSelection> for Selection {
    fn from(s: LineSelection) -> Self {
        Selection::Lines(s)
    }
}

impl From<ByteSelection> for Selection {
    fn from(s: ByteSelection) -> Self {
        Selection::Bytes(s)
    }
}

fn de_start_byte<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    de_offset(d, "start_byte")
}

fn de_end_byte<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    de_offset(d, "end_byte")
}

/// Deserializes an optional non-negative integer (a number, or a string of digits),
/// naming `field` in the error for anything else.
pub(crate) fn de_offset<'de, D: serde::Deserializer<'de>>(
    d: D,
    field: &'static str,
) -> Result<Option<u64>, D::Error> {
    use serde::de::Error as _;
    let v = Option::<serde_json::Value>::deserialize(d)?;
    let bad = |got: &dyn std::fmt::Display| {
        D::Error::custom(format!(
            "Invalid {field}: expected a non-negative integer, got {got}"
        ))
    };
    match v {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => match n.as_u64() {
            Some(u) => Ok(Some(u)),
            None => Err(bad(&n)),
        },
        Some(serde_json::Value::String(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| bad(&format!("{s:?}"))),
        Some(other) => Err(bad(&other)),
    }
}

/// A line selection normalized against a file: what to read forward from a line, or
/// backward from the end.
pub(crate) enum Plan {
    /// Nothing (a valid empty selection).
    Empty,
    /// `count` lines (all, if `None`) from line `start`.
    Forward { start: u64, count: Option<u64> },
    /// `count` lines from line `start`, which begins at byte `offset` (found while
    /// planning, so the index is not asked again).
    At { start: u64, offset: u64, count: u64 },
    /// The last `n` lines, skipping the last `skip`.
    Tail { n: u64, skip: u64 },
}

/// What planning a line selection needs: the file's lines and index, and how to find
/// the block around a line (`block(line, offset)` gives its first and last line and
/// whether its end was found) and an indentation block (`indent(selection, offset)`).
pub(crate) struct Planner<'a, 'b> {
    pub lines: Lines<'a>,
    pub index: &'b mut LineIndex,
    #[allow(clippy::type_complexity)]
    pub block: &'b mut dyn FnMut(u64, u64) -> Result<(u64, u64, bool)>,
    pub indent: &'b mut dyn FnMut(&IndentSelection, u64) -> Result<IndentSpan>,
}

impl Planner<'_, '_> {
    /// The byte offset of line `line`, which must exist.
    fn require_line(&mut self, line: u64) -> Result<u64> {
        match self.index.line_start(self.lines.src, line)? {
            Some(off) => Ok(off),
            None => Err(Error::LineBeyondEnd {
                start: line,
                total_lines: self.index.total_lines(self.lines.src)?,
            }),
        }
    }

    /// Normalizes a line selection into a forward or a backward plan.
    pub fn plan(&mut self, sel: LineSelection) -> Result<(Requested, Plan)> {
        let req = |start: i64, end: Option<i64>| Requested {
            lines: Some(RequestedLines { start, end }),
            bytes: None,
        };
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        Ok(match sel {
            LineSelection::Head(n) => (
                req(1, Some(i(n))),
                if n == 0 {
                    Plan::Empty
                } else {
                    Plan::Forward {
                        start: 1,
                        count: Some(n),
                    }
                },
            ),
            LineSelection::Tail(n) => (
                req(-i(n), None),
                if n == 0 {
                    Plan::Empty
                } else {
                    Plan::Tail { n, skip: 0 }
                },
            ),
            LineSelection::OffsetLimit { offset, limit } => (
                req(i(offset), limit.map(|l| i(offset.saturating_add(l)) - 1)),
                match limit {
                    Some(0) => Plan::Empty,
                    count => Plan::Forward {
                        start: offset,
                        count,
                    },
                },
            ),
            LineSelection::Around { line, context } => {
                self.require_line(line)?;
                let start = line.saturating_sub(context).max(1);
                let end = line.saturating_add(context);
                (
                    req(i(start), Some(i(end))),
                    Plan::Forward {
                        start,
                        count: Some(end - start + 1),
                    },
                )
            }
            LineSelection::Block { line } => {
                let off = self.require_line(line)?;
                let (start, end, complete) = (self.block)(line, off)?;
                (
                    req(i(start), complete.then(|| i(end))),
                    Plan::Forward {
                        start,
                        count: Some(end - start + 1),
                    },
                )
            }
            LineSelection::Indentation(sel) => {
                let off = self.require_line(sel.anchor_line)?;
                let span = (self.indent)(&sel, off)?;
                match span.lines {
                    Some((start, end)) => (
                        req(i(start), span.complete.then(|| i(end))),
                        Plan::At {
                            start,
                            offset: span.offset,
                            count: end - start + 1,
                        },
                    ),
                    None => {
                        let a = i(sel.anchor_line);
                        (req(a, Some(a)), Plan::Empty)
                    }
                }
            }
            LineSelection::Range { start, end } => {
                let s = start.unwrap_or(1);
                let r = req(s, end);
                match (s > 0, end) {
                    (true, None) => (
                        r,
                        Plan::Forward {
                            start: s as u64,
                            count: None,
                        },
                    ),
                    (true, Some(e)) if e > 0 => (
                        r,
                        Plan::Forward {
                            start: s as u64,
                            count: Some((e - s) as u64 + 1),
                        },
                    ),
                    (false, None) => (
                        r,
                        Plan::Tail {
                            n: s.unsigned_abs(),
                            skip: 0,
                        },
                    ),
                    (false, Some(e)) if e < 0 => (
                        r,
                        Plan::Tail {
                            n: s.unsigned_abs(),
                            skip: e.unsigned_abs() - 1,
                        },
                    ),
                    (_, Some(e)) => {
                        // Mixed signs: resolve against the line count.
                        let total = i(self.index.total_lines(self.lines.src)?);
                        let abs = |v: i64| if v < 0 { total + 1 + v } else { v };
                        let (rs, re) = (abs(s).max(1), abs(e));
                        if rs > total {
                            if total == 0 && rs == 1 {
                                return Ok((r, Plan::Empty));
                            }
                            return Err(Error::LineBeyondEnd {
                                start: rs as u64,
                                total_lines: total as u64,
                            });
                        }
                        if rs > re {
                            return Err(Error::LineStartAfterEnd { start: s, end: e });
                        }
                        (
                            r,
                            Plan::Forward {
                                start: rs as u64,
                                count: Some((re - rs) as u64 + 1),
                            },
                        )
                    }
                }
            }
        })
    }
}

/// A byte selection resolved against a file: validated, clamped and snapped.
pub(crate) struct ResolvedBytes {
    pub requested: Requested,
    pub adjustments: Adjustments,
    pub start: u64,
    pub end: u64,
}

/// Validates, clamps and snaps a byte selection (the contract's messages for a start
/// after the end or beyond the file).
pub(crate) fn resolve_bytes(sel: ByteSelection, lines: &Lines<'_>) -> Result<ResolvedBytes> {
    let src = lines.src;
    let len = src.len();
    let start = sel.start.unwrap_or(0);
    let end = sel.end.unwrap_or(len);
    // Only an end the caller gave can be "before" the start; a defaulted end is the
    // file size, and a start past it is beyond the end.
    if sel.end.is_some() && start > end {
        return Err(Error::ByteStartAfterEnd { start, end });
    }
    if start > len {
        return Err(Error::ByteBeyondEnd {
            start,
            file_size: len,
        });
    }
    let requested = Requested {
        lines: None,
        bytes: Some(ByteSpan { start, end }),
    };
    let end_clamped = end > len;
    let clamped_end = end.min(len);
    let units = lines.layout.units;
    let text_start = lines.layout.text_start;
    let byte_at = |pos: u64| src.byte_at(pos);
    // A byte order mark is not content: a range starting inside it starts after it.
    let (from, to) = (start.max(text_start), clamped_end.max(text_start));
    let (s, e) = match (sel.snap, units) {
        (Snap::Char, Units::Utf8) => (
            utf8::snap_start(from, len, byte_at)?.max(text_start),
            utf8::snap_end(to, len, byte_at)?,
        ),
        (Snap::Char, _) => {
            let mut read = |lo: u64, hi: u64| {
                let mut v = vec![0; usize::try_from(hi - lo).map_err(|_| src.changed())?];
                src.read_exact_at(lo, &mut v)?;
                Ok(v)
            };
            units.snap(from, to, len, text_start, &mut read)?
        }
        (Snap::Line, _) => {
            let s = lines.floor(from)?;
            let e = if to > s && lines.starts_line(to)? {
                to
            } else {
                lines.ceil(to)?
            };
            (s, e)
        }
    };
    Ok(ResolvedBytes {
        requested,
        adjustments: Adjustments {
            start_adjusted: s != start,
            end_adjusted: e != clamped_end,
            end_clamped,
        },
        start: s,
        end: e,
    })
}

/// A span of pages or cells as the selections write it: `3`, `2-9`, `10-`.
pub(crate) fn fmt_span(
    f: &mut std::fmt::Formatter<'_>,
    start: u64,
    end: Option<u64>,
) -> std::fmt::Result {
    match end {
        None => write!(f, "{start}-"),
        Some(e) if e == start => write!(f, "{start}"),
        Some(e) => write!(f, "{start}-{e}"),
    }
}
