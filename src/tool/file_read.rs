//! `file_read`: a file, or a range of its lines, as the numbered Markdown block of the
//! seed tool, the outline of the file after a full read, and the [`line_offsets`]
//! helper that edit tools share with it.
//!
//! ```
//! use rangeread::tool::file_read::{FileRead, FileReadParams};
//!
//! let tool = FileRead::new();
//! let partial = tool.call(&FileReadParams {
//!     filename: "tests/data/sample.txt".into(),
//!     start_line: Some(10),
//!     end_line: Some(11),
//!     ..FileReadParams::default()
//! })?;
//! assert!(partial.starts_with("# File: tests/data/sample.txt (Lines 10-11)\n\n```text\n  10 | line 10: "));
//! assert!(partial.ends_with("```\n\n*Note: Partial read - analysis skipped.*\n\n"));
//! # Ok::<(), rangeread::Error>(())
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::read::Reader;
use crate::result::{ReadResult, TruncationReason};
use crate::select::{ByteSelection, LineSelection, Selection};
use crate::syntax::language_for;
use crate::text::line_feeds;
use crate::tool::args::{self, deserialize_via_args, missing, param, Args, JsonArgs};
use crate::tool::{lines_of, read_at, ToolResponse};
use crate::workspace::Workspace;

/// The note that ends a partial read.
pub const PARTIAL_NOTE: &str = "*Note: Partial read - analysis skipped.*";

/// The tool's description, as served to models.
pub const DESCRIPTION: &str = "Read a file. Returns its lines numbered (`   N | line`) in a \
    Markdown code block under `# File: NAME`; a full read is followed by the file's \
    outline (its definitions and headings with their line numbers). start_line and \
    end_line (1-based, inclusive; 0 or absent: from the start / to the end) read a range, \
    marked as a partial read. At most 2000 lines and 100 KiB come back per call; a cut read \
    says where to continue. A line longer than 2000 characters is cut and marked; read the \
    rest with start_byte.";

/// The parameters of `file_read`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(deny_unknown_fields))]
pub struct FileReadParams {
    /// The path to the file to read.
    pub filename: String,
    /// Optional: start reading from this line number (1-based; 0 or absent: line 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u64>,
    /// Optional: stop reading at this line number, inclusive (0 or absent: the end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// Optional: read from this byte on instead (the rest of a cut line). Not with
    /// start_line/end_line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_byte: Option<u64>,
}

deserialize_via_args!(FileReadParams);

impl FileReadParams {
    fn from_args(mut a: Args) -> Result<FileReadParams> {
        let filename = a.string(&["filename"])?;
        let start_line = a.uint(&["start_line"])?;
        let end_line = a.uint(&["end_line"])?;
        let start_byte = a.uint(&["start_byte"])?;
        a.finish("filename, start_line, end_line, start_byte")?;
        let p = FileReadParams {
            filename: filename.ok_or_else(|| missing(&["filename"]))?.1,
            start_line: start_line.map(|v| v.1),
            end_line: end_line.map(|v| v.1),
            start_byte: start_byte.map(|v| v.1),
        };
        p.check()?;
        Ok(p)
    }

    /// The first line (0 and absent are line 1, as Go's `omitempty` zero is).
    fn start(&self) -> u64 {
        self.start_line.unwrap_or(0).max(1)
    }

    /// The last line, `None` for the end (0 and absent).
    fn end(&self) -> Option<u64> {
        self.end_line.filter(|&e| e > 0)
    }

    /// A partial read, as the seed decides: a start past line 1 or any end.
    fn is_partial(&self) -> bool {
        self.start_line.unwrap_or(0) > 1 || self.end().is_some() || self.start_byte.is_some()
    }

    fn check(&self) -> Result<()> {
        if self.start_byte.is_some() {
            let lines = [("start_line", self.start_line), ("end_line", self.end_line)];
            if let Some((name, _)) = lines.iter().find(|(_, v)| v.unwrap_or(0) > 0) {
                return Err(param(
                    "start_byte",
                    format!(
                        "Conflicting parameters: {name} and start_byte cannot be used \
                         together; select lines with start_line/end_line, or bytes with \
                         start_byte"
                    ),
                ));
            }
        }
        if let Some(end) = self.end() {
            if end < self.start() {
                return Err(Error::LineStartAfterEnd {
                    start: i64::try_from(self.start()).unwrap_or(i64::MAX),
                    end: i64::try_from(end).unwrap_or(i64::MAX),
                });
            }
        }
        Ok(())
    }
}

/// The `file_read` tool. Its answer, byte for byte the seed's block:
///
/// ````text
/// # File: src/lib.rs (Lines 10-11)
///
/// ```rust
///   10 | fn main() {
///   11 |     run();
/// ```
///
/// *Note: Partial read - analysis skipped.*
///
/// ````
///
/// A full read has no `(Lines S-E)` and no note, and is followed by `## Outline`: the
/// file's definitions and headings (`- N: text`, the crate's landmarks). The range is
/// cut with [`line_offsets`], the function edit tools use to find the bytes of the
/// same lines, from the text the reader returns from `start_line` on. A read cut by a
/// budget adds `*Note: Truncated by the ...; continue with start_line=K.*`; a line cut
/// at the line-length budget ends with `… [line truncated: N more bytes; read the rest
/// with start_byte=B]`.
#[derive(Debug, Clone, Default)]
pub struct FileRead {
    reader: Reader,
    workspace: Option<Workspace>,
}

impl FileRead {
    /// The tool with the default budgets (2000 lines, 100 KiB, 2000 characters a line).
    pub fn new() -> FileRead {
        FileRead::default()
    }

    /// The tool reading through `reader` (its budgets and policies).
    pub fn with_reader(reader: Reader) -> FileRead {
        FileRead {
            reader,
            workspace: None,
        }
    }

    /// Resolves paths inside `workspace` (confined to its root, protected paths
    /// refused); by default they are opened as given.
    pub fn workspace(mut self, workspace: Workspace) -> FileRead {
        self.workspace = Some(workspace);
        self
    }

    /// Reads and renders.
    ///
    /// # Errors
    ///
    /// An end before the start, a `start_byte` with a line range, then whatever
    /// [`Reader::read`] (or [`Reader::read_in`] with a workspace) returns.
    pub fn call(&self, params: &FileReadParams) -> Result<String> {
        params.check()?;
        let ws = self.workspace.as_ref();
        let sel: Selection = match params.start_byte {
            Some(b) => ByteSelection::new(Some(b), None).into(),
            None => {
                let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
                LineSelection::range(Some(i(params.start())), None).into()
            }
        };
        let result = read_at(&self.reader, ws, &params.filename, sel)?;
        let mut out = String::new();
        if params.start_byte.is_some() {
            self.bytes_block(&mut out, params, &result);
        } else {
            self.lines_block(&mut out, params, &result)?;
        }
        self.reader.recycle(result.content);
        if !params.is_partial() {
            self.outline(&mut out, &params.filename)?;
        }
        Ok(out)
    }

    /// The numbered block of a line read.
    fn lines_block(&self, out: &mut String, p: &FileReadParams, r: &ReadResult) -> Result<()> {
        let start = p.start();
        // The lines asked for, within the text read from `start` on.
        let want = p.end().map_or(usize::MAX, |e| {
            usize::try_from(e - start + 1).unwrap_or(usize::MAX)
        });
        let (_, cut) = line_offsets(&r.content, 1, want)?;
        let view = &r.content[..cut];
        let count = lines_of(view).count() as u64;
        // A budget cut the range short when the view ends where the page ends.
        let truncated = r.truncated.filter(|_| cut == r.content.len());
        let partial = p.is_partial() || truncated.is_some();
        let range = if partial {
            format!(" (Lines {}-{})", start, start + count.max(1) - 1)
        } else {
            String::new()
        };
        header(out, &p.filename, &range);
        let cuts: HashMap<u64, _> = r.cut_lines.iter().map(|c| (c.line, c)).collect();
        for (i, line) in lines_of(view).enumerate() {
            let n = start + i as u64;
            let _ = write!(out, "{n:>4} | {line}");
            if let Some(c) = cuts.get(&n) {
                let _ = write!(
                    out,
                    "… [line truncated: {} more bytes; read the rest with start_byte={}]",
                    c.total_bytes - c.shown_bytes,
                    c.next_start_byte
                );
            }
            out.push('\n');
        }
        out.push_str("```\n\n");
        if let Some(t) = truncated {
            let next = match t.next_start_line {
                Some(n) => format!("start_line={n}"),
                None => format!("start_byte={}", t.next_start_byte),
            };
            let _ = write!(
                out,
                "*Note: Truncated by the {}; continue with {next}.*\n\n",
                budget_name(t.reason)
            );
        }
        if partial {
            out.push_str(PARTIAL_NOTE);
            out.push_str("\n\n");
        }
        Ok(())
    }

    /// The block of a byte read: the text as it is, no line numbers.
    fn bytes_block(&self, out: &mut String, p: &FileReadParams, r: &ReadResult) {
        let range = format!(" (Bytes {}-{})", r.bytes.start, r.bytes.end);
        header(out, &p.filename, &range);
        out.push_str(&r.content);
        if !r.content.is_empty() && !r.content.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("```\n\n");
        if let Some(t) = r.truncated {
            let _ = write!(
                out,
                "*Note: Truncated by the {}; continue with start_byte={}.*\n\n",
                budget_name(t.reason),
                t.next_start_byte
            );
        }
        out.push_str(PARTIAL_NOTE);
        out.push_str("\n\n");
    }

    /// `## Outline` with the file's landmarks, after a full read.
    fn outline(&self, out: &mut String, filename: &str) -> Result<()> {
        let mut doc = match &self.workspace {
            Some(ws) => self.reader.open_in(ws, filename)?,
            None => self.reader.open(filename)?,
        };
        let outline = doc.outline()?;
        if outline.landmarks.is_empty() {
            return Ok(());
        }
        out.push_str("## Outline\n");
        for l in &outline.landmarks {
            let _ = writeln!(out, "- {}: {}", l.line, l.text);
        }
        if !outline.complete {
            let _ = writeln!(
                out,
                "- ... (the outline covers the first {} lines only)",
                outline.scanned_lines
            );
        }
        out.push('\n');
        Ok(())
    }

    /// Parses the JSON arguments of a call and answers it; an error's response is its
    /// message.
    pub fn respond(&self, args: impl JsonArgs) -> ToolResponse {
        let params = args::args_of(args).and_then(FileReadParams::from_args);
        match params.and_then(|p| self.call(&p)) {
            Ok(text) => ToolResponse::ok(text),
            Err(e) => ToolResponse::error(e.to_string()),
        }
    }
}

/// `# File: NAME (RANGE)`, a blank line, and the opening fence with the language.
fn header(out: &mut String, filename: &str, range: &str) {
    let lang = language_for(Path::new(filename)).unwrap_or("");
    let _ = write!(out, "# File: {filename}{range}\n\n```{lang}\n");
}

fn budget_name(reason: TruncationReason) -> &'static str {
    match reason {
        TruncationReason::MaxLines => "line limit (lines per call)",
        TruncationReason::MaxBytes => "size budget (bytes per call)",
    }
}

/// The byte span `[start, end)` of lines `start_line..=end_line` (1-indexed, inclusive)
/// in `content`, the last line's terminator included: what an edit tool replaces to
/// rewrite those lines.
///
/// Lines follow the crate's rules: a line ends at LF; CR LF ends a line with the
/// CR in its terminator; a last line without LF counts. An `end_line` past the last line
/// is clamped to the end of `content`; `start_line` 1 of empty content is `(0, 0)`.
///
/// # Errors
///
/// The messages of the contract: [`Error::ZeroLine`] for a 0,
/// [`Error::LineStartAfterEnd`], and [`Error::LineBeyondEnd`] when `start_line` is past
/// the last line.
///
/// # Example
///
/// ```
/// use rangeread::tool::line_offsets;
///
/// let text = "one\ntwo\r\nthree";
/// assert_eq!(line_offsets(text, 2, 2)?, (4, 9));
/// assert_eq!(&text[4..9], "two\r\n");
/// assert_eq!(line_offsets(text, 2, 99)?, (4, 14));
/// assert_eq!(
///     line_offsets(text, 4, 4).unwrap_err().to_string(),
///     "Invalid range specified: start_line (4) is beyond the end of the file (3 lines)."
/// );
/// # Ok::<(), rangeread::Error>(())
/// ```
pub fn line_offsets(content: &str, start_line: usize, end_line: usize) -> Result<(usize, usize)> {
    if start_line == 0 {
        return Err(Error::ZeroLine {
            field: "start_line",
        });
    }
    if end_line == 0 {
        return Err(Error::ZeroLine { field: "end_line" });
    }
    let i = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
    if start_line > end_line {
        return Err(Error::LineStartAfterEnd {
            start: i(start_line),
            end: i(end_line),
        });
    }
    let bytes = content.as_bytes();
    let mut lfs = line_feeds(bytes);
    let start = match start_line {
        1 => Some(0),
        n => lfs.nth(n - 2).map(|lf| lf + 1),
    };
    let start = match start {
        // Line `start_line` begins here unless this is the end of non-empty content.
        Some(s) if s < bytes.len() || (s == 0 && start_line == 1) => s,
        _ => {
            let lf = line_feeds(bytes).count() as u64;
            let total = lf + u64::from(bytes.last().is_some_and(|&b| b != b'\n'));
            return Err(Error::LineBeyondEnd {
                start: start_line as u64,
                total_lines: total,
            });
        }
    };
    let end = lfs
        .nth(end_line - start_line)
        .map_or(bytes.len(), |lf| lf + 1);
    Ok((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive model: split after each LF.
    fn naive(content: &str, s: usize, e: usize) -> Option<(usize, usize)> {
        let lines: Vec<&str> = content.split_inclusive('\n').collect();
        if s > lines.len() {
            return (s == 1 && content.is_empty()).then_some((0, 0));
        }
        let start: usize = lines[..s - 1].iter().map(|l| l.len()).sum();
        let end: usize = lines[..e.min(lines.len())].iter().map(|l| l.len()).sum();
        Some((start, end))
    }

    #[test]
    fn line_offsets_agree_with_splitting() {
        let texts = [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\nb\n",
            "\n\n\n",
            "one\r\ntwo\r\n",
            "x\ny\rz\n",
            "é\n✓\n🦀",
        ];
        for t in texts {
            for s in 1..6 {
                for e in s..8 {
                    let got = line_offsets(t, s, e).ok();
                    assert_eq!(got, naive(t, s, e), "{t:?} {s}..={e}");
                }
            }
        }
    }

    #[test]
    fn line_offsets_errors_use_the_contract_messages() {
        assert_eq!(
            line_offsets("a\n", 0, 1).unwrap_err().to_string(),
            "start_line (0) is invalid: lines are 1-indexed"
        );
        assert_eq!(
            line_offsets("a\n", 1, 0).unwrap_err().to_string(),
            "end_line (0) is invalid: lines are 1-indexed"
        );
        assert_eq!(
            line_offsets("a\nb\nc\n", 3, 2).unwrap_err().to_string(),
            "Invalid range specified: start_line (3) is greater than end_line (2)."
        );
        assert_eq!(
            line_offsets("a\nb\n", 3, 3).unwrap_err().to_string(),
            "Invalid range specified: start_line (3) is beyond the end of the file (2 lines)."
        );
        assert_eq!(line_offsets("", 1, 5).unwrap(), (0, 0));
    }
}
