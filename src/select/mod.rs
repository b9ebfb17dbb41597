//! What to read: line selections in every form callers use, byte selections, and the one
//! parser for the text forms.

use std::ops::{RangeFrom, RangeFull, RangeInclusive, RangeToInclusive};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::indentation::IndentSelection;
use crate::result::RequestedLines;

mod plan;

pub(crate) use plan::{resolve_bytes, Plan, Planner};

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
                        return Err(Error::LineStartAfterEnd {
                            start: s,
                            end: e,
                            parameter: "start_line".into(),
                        });
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
                start: crate::error::int(*start),
                end: crate::error::int(*end),
                parameter: "start_byte".into(),
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
