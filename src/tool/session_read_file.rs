//! `session_read_file`: Cursor's `read_file` inside the workspace of a session, answering
//! in JSON with what was read and what was left out.
//!
//! It behaves as Cursor's own `read_file` does:
//!
//! - no range, or `should_read_entire_file: true`: the whole file, up to the byte budget
//!   (100 KiB by default); a larger file comes back as its first page with a note that
//!   says where to continue;
//! - a line range (`start_line_one_indexed` / `end_line_one_indexed_inclusive`, or the
//!   legacy `offset` / `limit`) returns at most 250 lines, and a range shorter than 200
//!   lines is widened around the request to 200 lines, clamped to the file
//!   (`linesRead` says what came back; [`SessionReadFile::widen`] turns this off);
//! - numbers may be integral floats (`10.0`), as a zod `number` schema lets models send;
//! - errors name the parameter as the caller spelled it;
//! - a line longer than the line-length budget (2000 characters) is cut, listed in
//!   `cutLines`, and `start_byte` reads the rest.
//!
//! ```
//! use rangeread::tool::session_read_file::SessionReadFile;
//! use rangeread::{Workspace, WorkspaceRegistry};
//!
//! let sessions = WorkspaceRegistry::new();
//! sessions.insert("task-42", Workspace::new("tests/data")?);
//! let tool = SessionReadFile::new(sessions).widen(false);
//! let response = tool.respond(serde_json::json!({
//!     "session": "task-42", "target_file": "sample.txt",
//!     "start_line_one_indexed": 10, "end_line_one_indexed_inclusive": 12.0
//! }));
//! let json: serde_json::Value = serde_json::from_str(&response.text).unwrap();
//! assert_eq!(json["success"], true);
//! assert_eq!(json["linesRead"], serde_json::json!({"start": 10, "end": 12}));
//! assert_eq!(json["omittedContent"]["beforeLines"], 9);
//!
//! let unknown = tool.respond(serde_json::json!({"session": "nope", "target_file": "sample.txt"}));
//! assert!(unknown.is_error);
//! assert!(unknown.text.contains(r#"Session not found: \"nope\""#));
//! # Ok::<(), rangeread::Error>(())
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::read::Reader;
use crate::result::{CutLine, ReadResult, TruncationReason};
use crate::select::{ByteSelection, LineSelection, Selection};
use crate::tool::args::{self, deserialize_via_args, missing, param, Args, JsonArgs};
use crate::tool::{read_at, ToolResponse};
use crate::workspace::WorkspaceRegistry;

/// Cursor's cap: lines returned per ranged call.
pub const MAX_LINES_PER_CALL: u64 = 250;

/// Cursor's minimum: a shorter range is widened to this many lines.
pub const MIN_LINES_PER_RANGE: u64 = 200;

/// The tool's description, as served to models.
pub const DESCRIPTION: &str = "Read the contents of a file in a session's workspace. The \
    output is the 1-indexed file contents from start_line_one_indexed to \
    end_line_one_indexed_inclusive, with a summary of the lines outside that range. A \
    range returns at most 250 lines, and a range shorter than 200 lines is widened to 200 \
    around it (linesRead says which lines came back). With should_read_entire_file, or no \
    range at all, the whole file is returned up to the size budget; a larger file comes \
    back in pages and the summary says where to continue. offset/limit (the first line and \
    a number of lines) are accepted as well. A line longer than 2000 characters is cut and \
    listed in cutLines; read the rest of it with start_byte.";

/// The parameters of `session_read_file`.
///
/// `target_file` is also accepted as `path`; the legacy `offset` is the first line to
/// read (1-based) and `limit` the number of lines, as in Cursor's older schema.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(deny_unknown_fields))]
pub struct SessionReadFileParams {
    /// The session whose workspace the path is resolved in.
    pub session: String,
    /// The file to read, relative to the session's workspace.
    #[serde(rename = "target_file")]
    pub path: String,
    /// First line to read, 1-based. Defaults to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub start_line_one_indexed: Option<u64>,
    /// Last line to read, inclusive. At most 250 lines are returned per call.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub end_line_one_indexed_inclusive: Option<u64>,
    /// Read the whole file (up to the size budget; then in pages), ignoring the line
    /// parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub should_read_entire_file: Option<bool>,
    /// Legacy: the first line to read, 1-based (use with limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub offset: Option<u64>,
    /// Legacy: the number of lines to read (at most 250).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub limit: Option<u64>,
    /// Read from this byte on instead of by lines: the rest of a line that was cut
    /// (see cutLines), or the next page of a file with very long lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_byte: Option<u64>,
    /// Why the file is read (accepted and ignored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

deserialize_via_args!(SessionReadFileParams);

const SESSION: &[&str] = &["session", "session_id"];
const PATH: &[&str] = &["target_file", "path"];
const START: &[&str] = &["start_line_one_indexed", "start_line"];
const END: &[&str] = &["end_line_one_indexed_inclusive", "end_line"];
const ACCEPTED: &str = "session, target_file (or path), start_line_one_indexed, \
    end_line_one_indexed_inclusive, should_read_entire_file, offset, limit, start_byte, \
    explanation";

/// What a call reads, with the parameter names as the caller spelled them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    Whole,
    Bytes(u64),
    Lines {
        start: u64,
        end: Option<u64>,
        start_name: &'static str,
    },
}

impl SessionReadFileParams {
    fn from_args(mut a: Args) -> Result<SessionReadFileParams> {
        let session = a.string(SESSION)?;
        let path = a.string(PATH)?;
        let start = a.uint(START)?;
        let end = a.uint(END)?;
        let entire = a.boolean(&["should_read_entire_file"])?;
        let offset = a.uint(&["offset"])?;
        let limit = a.uint(&["limit"])?;
        let start_byte = a.uint(&["start_byte"])?;
        let explanation = a.string(&["explanation"])?;
        a.finish(ACCEPTED)?;
        let p = SessionReadFileParams {
            session: session.ok_or_else(|| missing(SESSION))?.1,
            path: path.ok_or_else(|| missing(PATH))?.1,
            start_line_one_indexed: start.map(|v| v.1),
            end_line_one_indexed_inclusive: end.map(|v| v.1),
            should_read_entire_file: entire.map(|v| v.1),
            offset: offset.map(|v| v.1),
            limit: limit.map(|v| v.1),
            start_byte: start_byte.map(|v| v.1),
            explanation: explanation.map(|v| v.1),
        };
        let names = (start.map_or(START[0], |v| v.0), end.map_or(END[0], |v| v.0));
        p.plan_named(names)?;
        Ok(p)
    }

    /// What to read; the check of the parameters together.
    fn plan_named(&self, (start_name, end_name): (&'static str, &'static str)) -> Result<Plan> {
        let lines =
            self.start_line_one_indexed.is_some() || self.end_line_one_indexed_inclusive.is_some();
        let legacy = self.offset.is_some() || self.limit.is_some();
        let entire = self.should_read_entire_file == Some(true);
        let zero = |name: &'static str| Error::ZeroLine { field: name };
        if let Some(b) = self.start_byte {
            // Cursor always sends its line parameters: only the legacy ones conflict.
            if legacy {
                let other = if self.offset.is_some() {
                    "offset"
                } else {
                    "limit"
                };
                return Err(conflict(other, "start_byte"));
            }
            return Ok(Plan::Bytes(b));
        }
        if entire {
            return Ok(Plan::Whole);
        }
        if lines && legacy {
            let a = if self.start_line_one_indexed.is_some() {
                start_name
            } else {
                end_name
            };
            let b = if self.offset.is_some() {
                "offset"
            } else {
                "limit"
            };
            return Err(conflict(a, b));
        }
        if legacy {
            let start = self.offset.unwrap_or(1);
            if start == 0 {
                return Err(zero("offset"));
            }
            if self.limit == Some(0) {
                return Err(param(
                    "limit",
                    "Invalid limit: expected at least 1 line, got 0",
                ));
            }
            let end = self.limit.map(|n| start.saturating_add(n - 1));
            return Ok(Plan::Lines {
                start,
                end,
                start_name: "offset",
            });
        }
        if !lines {
            return Ok(Plan::Whole);
        }
        let start = self.start_line_one_indexed.unwrap_or(1);
        if start == 0 {
            return Err(zero(start_name));
        }
        if self.end_line_one_indexed_inclusive == Some(0) {
            return Err(zero(end_name));
        }
        if let Some(end) = self.end_line_one_indexed_inclusive {
            if end < start {
                return Err(param(
                    end_name,
                    format!(
                        "Invalid range specified: {start_name} ({start}) is greater than \
                         {end_name} ({end})."
                    ),
                ));
            }
        }
        Ok(Plan::Lines {
            start,
            end: self.end_line_one_indexed_inclusive,
            start_name,
        })
    }
}

fn conflict(a: &str, b: &str) -> Error {
    param(
        b,
        format!(
            "Conflicting parameters: {a} and {b} cannot be used together; select with \
             start_line_one_indexed/end_line_one_indexed_inclusive, offset/limit, \
             should_read_entire_file or start_byte"
        ),
    )
}

/// The lines returned, 1-based and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinesRead {
    /// First line returned.
    pub start: u64,
    /// Last line returned.
    pub end: u64,
}

/// What the call left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OmittedContent {
    /// Lines before the first line returned.
    pub before_lines: u64,
    /// Lines after the last line returned.
    pub after_lines: u64,
    /// What was left out, which budget stopped the read and where to continue, and
    /// where the rest of each cut line starts; empty when nothing was left out.
    pub summary: String,
}

/// A line cut at the line-length budget, camelCase on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CutLineInfo {
    /// The line (1-based).
    pub line: u64,
    /// Bytes of the line shown in `content` (its terminator excluded).
    pub shown_bytes: u64,
    /// Bytes of the whole line (its terminator excluded).
    pub total_bytes: u64,
    /// Where the rest starts: call again with `start_byte` set to this.
    pub next_start_byte: u64,
}

impl From<&CutLine> for CutLineInfo {
    fn from(c: &CutLine) -> CutLineInfo {
        CutLineInfo {
            line: c.line,
            shown_bytes: c.shown_bytes,
            total_bytes: c.total_bytes,
            next_start_byte: c.next_start_byte,
        }
    }
}

/// The response of a successful `session_read_file` call (camelCase on the wire).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionReadFileResponse {
    /// Always `true` here; failures respond `{"success": false, "error": MESSAGE}`.
    pub success: bool,
    /// The lines read, terminators included (a cut line: its first characters).
    pub content: String,
    /// The path as asked.
    pub path: String,
    /// The session.
    pub session: String,
    /// The file's path inside the session's workspace, as resolved (symbolic links
    /// followed); never the host's absolute path.
    pub resolved_path: String,
    /// Lines in the file (`null` only when the reader was set never to count).
    pub total_lines: Option<u64>,
    /// The lines returned; `null` when none were (an empty file).
    pub lines_read: Option<LinesRead>,
    /// The lines asked for, when a short range was widened to 200 lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_requested: Option<LinesRead>,
    /// What was left out.
    pub omitted_content: OmittedContent,
    /// Lines cut at the line-length budget; empty when none were.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_lines: Vec<CutLineInfo>,
}

/// The `session_read_file` tool: `target_file` resolved in the workspace registered for
/// `session` (unknown sessions fail with `Session not found: "ID"`), Cursor's
/// parameters and limits (see the [module documentation](self)), and the omitted
/// regions with a summary that says where to continue.
#[derive(Debug)]
pub struct SessionReadFile {
    reader: Reader,
    sessions: WorkspaceRegistry,
    max_lines: u64,
    widen: bool,
}

impl SessionReadFile {
    /// The tool over the sessions of `sessions`, with Cursor's limits: 250 lines per
    /// ranged call, short ranges widened to 200 lines, 100 KiB and 2000 characters a
    /// line per call.
    pub fn new(sessions: WorkspaceRegistry) -> SessionReadFile {
        SessionReadFile {
            reader: Reader::new(),
            sessions,
            max_lines: MAX_LINES_PER_CALL,
            widen: true,
        }
    }

    /// Reads through `reader` (its byte budget, line-length budget and policies); the
    /// line cap of ranged reads stays [`SessionReadFile::max_lines`]'s, and whole-file
    /// reads have none.
    pub fn reader(mut self, reader: Reader) -> SessionReadFile {
        self.reader = reader;
        self
    }

    /// The most lines a ranged call returns (250 by default; 0: no cap).
    pub fn max_lines(mut self, n: u64) -> SessionReadFile {
        self.max_lines = n;
        self
    }

    /// Whether a range shorter than 200 lines is widened around the request to 200
    /// lines, as Cursor does (on by default).
    pub fn widen(mut self, yes: bool) -> SessionReadFile {
        self.widen = yes;
        self
    }

    /// The registry, to add and remove sessions while the tool is in use.
    pub fn sessions(&self) -> &WorkspaceRegistry {
        &self.sessions
    }

    /// Reads in the session's workspace.
    ///
    /// # Errors
    ///
    /// The parameter errors of the parameters together (conflicts, a 0 line, an end
    /// before the start), [`crate::Error::SessionNotFound`], then whatever
    /// [`Reader::read_in`] returns.
    pub fn call(&self, params: &SessionReadFileParams) -> Result<SessionReadFileResponse> {
        let plan = params.plan_named((START[0], END[0]))?;
        let ws = self.sessions.get(&params.session)?;
        let at = |reader: &Reader, sel: Selection| read_at(reader, Some(&ws), &params.path, sel);
        let (result, requested) = match plan {
            Plan::Whole => (
                at(&self.reader.clone().max_lines(0), Selection::default())?,
                None,
            ),
            Plan::Bytes(b) => (
                at(&self.reader, ByteSelection::new(Some(b), None).into())?,
                None,
            ),
            Plan::Lines {
                start,
                end,
                start_name,
            } => self.read_lines(&at, start, end, start_name)?,
        };
        let root = ws.root().to_path_buf();
        Ok(self.response(&params.session, &root, result, requested))
    }

    /// A ranged read: capped, and widened to the minimum when shorter.
    fn read_lines(
        &self,
        at: &dyn Fn(&Reader, Selection) -> Result<ReadResult>,
        start: u64,
        end: Option<u64>,
        start_name: &'static str,
    ) -> Result<(ReadResult, Option<LinesRead>)> {
        let reader = self.reader.clone().max_lines(self.max_lines);
        let cap = if self.max_lines == 0 {
            u64::MAX
        } else {
            self.max_lines
        };
        let end = end.unwrap_or_else(|| start.saturating_add(cap.min(u64::MAX - 1) - 1));
        let lines = |s: u64, e: u64| -> Selection {
            let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
            LineSelection::range(Some(i(s)), Some(i(e))).into()
        };
        let beyond = |total: u64| {
            param(
                start_name,
                format!(
                    "Invalid range specified: {start_name} ({start}) is beyond the end of the \
                     file ({total} lines)."
                ),
            )
        };
        let named = |e: Error| match e {
            Error::LineBeyondEnd { total_lines, .. } => beyond(total_lines),
            e => e,
        };
        let count = end - start + 1;
        let min = MIN_LINES_PER_RANGE.min(cap);
        if !self.widen || count >= min {
            return Ok((at(&reader, lines(start, end)).map_err(named)?, None));
        }
        let requested = LinesRead { start, end };
        let before = (min - count) / 2;
        let s = start.saturating_sub(before).max(1);
        let e = s + min - 1;
        let r = at(&reader, lines(s, e)).map_err(named)?;
        let Some(total) = r.total_lines else {
            return Ok((r, Some(requested)));
        };
        if start > total {
            return Err(beyond(total));
        }
        // Clamped at the end of the file: take the lines missing from before instead.
        let got = r.lines.map_or(0, |l| l.end);
        if got < e && s > 1 && r.truncated.is_none() {
            let s2 = total.saturating_sub(min - 1).max(1);
            if s2 < s {
                return Ok((at(&reader, lines(s2, total))?, Some(requested)));
            }
        }
        Ok((r, Some(requested)))
    }

    fn response(
        &self,
        session: &str,
        root: &Path,
        r: ReadResult,
        requested: Option<LinesRead>,
    ) -> SessionReadFileResponse {
        let omitted = r.omitted.clone().unwrap_or_default();
        let mut notes: Vec<String> = Vec::new();
        if !omitted.summary.is_empty() {
            notes.push(omitted.summary.clone());
        }
        if let Some(t) = r.truncated {
            let shown = match (r.lines, r.total_lines) {
                (Some(l), Some(n)) => format!("Showing lines {}-{} of {n}", l.start, l.end),
                (Some(l), None) => format!("Showing lines {}-{}", l.start, l.end),
                _ => format!(
                    "Showing bytes {}-{} of {}",
                    r.bytes.start, r.bytes.end, r.file_size
                ),
            };
            let budget = match t.reason {
                TruncationReason::MaxLines => {
                    format!(
                        "stopped by the line limit ({} lines per call)",
                        self.max_lines
                    )
                }
                TruncationReason::MaxBytes => format!(
                    "stopped by the byte budget (the size limit per call) after {} bytes",
                    r.bytes.len()
                ),
            };
            let next = match t.next_start_line {
                Some(n) => format!("start_line_one_indexed={n}"),
                None => format!("start_byte={}", t.next_start_byte),
            };
            notes.push(format!("{shown}: {budget}; continue with {next}."));
        }
        notes.extend(crate::render::cut_notes(&r.cut_lines, ": see cutLines"));
        let resolved = Path::new(&r.resolved_path)
            .strip_prefix(root)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| r.path.clone());
        SessionReadFileResponse {
            success: true,
            path: r.path,
            session: session.to_string(),
            resolved_path: resolved,
            total_lines: r.total_lines,
            lines_read: r.lines.map(|l| LinesRead {
                start: l.start,
                end: l.end,
            }),
            lines_requested: requested,
            omitted_content: OmittedContent {
                before_lines: omitted.before_lines.unwrap_or(0),
                after_lines: omitted.after_lines.unwrap_or(0),
                summary: notes.join(" "),
            },
            cut_lines: r.cut_lines.iter().map(CutLineInfo::from).collect(),
            content: r.content,
        }
    }

    /// Parses the JSON arguments of a call and answers it with the JSON response, or
    /// `{"success": false, "error": MESSAGE}`.
    pub fn respond(&self, args: impl JsonArgs) -> ToolResponse {
        self.respond_structured(args).0
    }

    /// [`SessionReadFile::respond`], and the response for MCP's `structuredContent`:
    /// without its `content` on success (the text has the content: it is sent once),
    /// the whole error object on failure.
    pub fn respond_structured(
        &self,
        args: impl JsonArgs,
    ) -> (ToolResponse, Option<serde_json::Value>) {
        let params = args::args_of(args).and_then(SessionReadFileParams::from_args);
        match params.and_then(|p| self.call(&p)) {
            Ok(mut r) => {
                let (text, meta) = crate::tool::json_with_meta(&mut r, |r| &mut r.content);
                (ToolResponse::ok(text), meta)
            }
            Err(e) => {
                let v = serde_json::json!({"success": false, "error": e.to_string()});
                (ToolResponse::error(v.to_string()), Some(v))
            }
        }
    }
}
