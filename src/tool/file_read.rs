//! `file_read`: whole files as they are, line ranges as Markdown with a note, and the
//! [`line_offsets`] helper that edit tools share with it.
//!
//! ```
//! use rangeread::tool::file_read::{FileRead, FileReadParams};
//!
//! let tool = FileRead::new();
//! let partial = tool.call(&FileReadParams {
//!     filename: "tests/data/sample.txt".into(),
//!     start_line: Some(10),
//!     end_line: Some(12),
//! })?;
//! assert!(partial.starts_with("# File: tests/data/sample.txt (Lines 10-12)\n```text\nline 10:"));
//! assert!(partial.ends_with("*Note: Partial read - analysis skipped.*\n"));
//! # Ok::<(), rangeread::Error>(())
//! ```

use serde::Serialize;

use crate::error::{Error, Result};
use crate::read::Reader;
use crate::render::{render, Format};
use crate::select::LineSelection;
use crate::tool::args::{self, deserialize_via_args, Args};
use crate::tool::{read_at, ToolResponse};
use crate::workspace::Workspace;

/// The note that ends a partial read.
pub const PARTIAL_NOTE: &str = "*Note: Partial read - analysis skipped.*";

/// The parameters of `file_read`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(deny_unknown_fields))]
pub struct FileReadParams {
    /// The file to read.
    pub filename: String,
    /// First line to read, 1-based. Without start_line and end_line the whole file is read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub start_line: Option<u64>,
    /// Last line to read, inclusive.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub end_line: Option<u64>,
}

deserialize_via_args!(FileReadParams);

impl FileReadParams {
    fn from_args(a: Args) -> Result<FileReadParams> {
        let (filename, start_line, end_line) =
            a.path_and_range("filename", "start_line", "end_line")?;
        Ok(FileReadParams {
            filename,
            start_line,
            end_line,
        })
    }

    fn selection(&self) -> LineSelection {
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        LineSelection::range(self.start_line.map(i), self.end_line.map(i))
    }
}

/// The `file_read` tool: a whole file comes back as its plain content; a part of a file
/// (a line range, or a file larger than the budgets) as
///
/// ````text
/// # File: src/lib.rs (Lines 10-20)
/// ```rust
/// ...the lines...
/// ```
/// [Lines 1-9 omitted (9 lines, 210 B); lines 21-40 omitted (20 lines, 494 B).]
///
/// *Note: Partial read - analysis skipped.*
/// ````
///
/// The note lines between the fence and the final note are the renderer's: what was
/// omitted and, when a budget cut the read, where to continue.
#[derive(Debug, Clone, Default)]
pub struct FileRead {
    reader: Reader,
    workspace: Option<Workspace>,
}

impl FileRead {
    /// The tool with the default budgets (2000 lines, 100 KiB).
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
    /// Whatever [`Reader::read`] (or [`Reader::read_in`] with a workspace) returns.
    pub fn call(&self, params: &FileReadParams) -> Result<String> {
        let result = read_at(
            &self.reader,
            self.workspace.as_ref(),
            &params.filename,
            params.selection(),
        )?;
        if !result.is_partial {
            return Ok(result.content);
        }
        let mut out = render(&result, Format::Markdown);
        out.push('\n');
        out.push_str(PARTIAL_NOTE);
        out.push('\n');
        Ok(out)
    }

    /// Parses the JSON arguments of a call and answers it; an error's response is its
    /// message.
    pub fn respond(&self, args: serde_json::Value) -> ToolResponse {
        let params = args::object(args).and_then(|m| FileReadParams::from_args(Args::new(m)));
        match params.and_then(|p| self.call(&p)) {
            Ok(text) => ToolResponse::ok(text),
            Err(e) => ToolResponse::error(e.to_string()),
        }
    }
}

/// The byte span `[start, end)` of lines `start_line..=end_line` (1-indexed, inclusive)
/// in `content`, the last line's terminator included: what an edit tool replaces to
/// rewrite those lines.
///
/// Lines follow the crate's rules (SPEC §1): a line ends at LF; CR LF ends a line with the
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
    let mut lfs = memchr::memchr_iter(b'\n', bytes);
    let start = match start_line {
        1 => Some(0),
        n => lfs.nth(n - 2).map(|lf| lf + 1),
    };
    let start = match start {
        // Line `start_line` begins here unless this is the end of non-empty content.
        Some(s) if s < bytes.len() || (s == 0 && start_line == 1) => s,
        _ => {
            let lf = memchr::memchr_iter(b'\n', bytes).count() as u64;
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
