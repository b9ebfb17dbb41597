//! `session_read_file`: Cursor's `read_file` inside the workspace of a session, at most
//! 250 lines a call, answering in JSON with what was read and what was left out.
//!
//! ```
//! use rangeread::tool::session_read_file::SessionReadFile;
//! use rangeread::{Workspace, WorkspaceRegistry};
//!
//! let sessions = WorkspaceRegistry::new();
//! sessions.insert("task-42", Workspace::new("tests/data")?);
//! let tool = SessionReadFile::new(sessions);
//! let response = tool.respond(serde_json::json!({
//!     "session": "task-42", "path": "sample.txt",
//!     "start_line_one_indexed": 10, "end_line_one_indexed_inclusive": 12
//! }));
//! let json: serde_json::Value = serde_json::from_str(&response.text).unwrap();
//! assert_eq!(json["success"], true);
//! assert_eq!(json["linesRead"], serde_json::json!({"start": 10, "end": 12}));
//! assert_eq!(json["omittedContent"]["beforeLines"], 9);
//!
//! let unknown = tool.respond(serde_json::json!({"session": "nope", "path": "sample.txt"}));
//! assert!(unknown.is_error);
//! assert!(unknown.text.contains(r#"Session not found: \"nope\""#));
//! # Ok::<(), rangeread::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::read::Reader;
use crate::result::ReadResult;
use crate::select::LineSelection;
use crate::tool::args::{self, deserialize_via_args, missing, Args};
use crate::tool::{read_at, ToolResponse};
use crate::workspace::WorkspaceRegistry;

/// Cursor's cap: lines returned per call.
pub const MAX_LINES_PER_CALL: u64 = 250;

/// The parameters of `session_read_file`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(deny_unknown_fields))]
pub struct SessionReadFileParams {
    /// The session whose workspace the path is resolved in.
    pub session: String,
    /// The file to read, relative to the session's workspace.
    pub path: String,
    /// First line to read, 1-based. Defaults to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub start_line_one_indexed: Option<u64>,
    /// Last line to read, inclusive. At most 250 lines are returned per call.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub end_line_one_indexed_inclusive: Option<u64>,
    /// Read from the first line, ignoring the line parameters (still at most 250 lines
    /// per call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub should_read_entire_file: Option<bool>,
    /// Why the file is read (accepted and ignored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

deserialize_via_args!(SessionReadFileParams);

const SESSION: &[&str] = &["session", "session_id"];
const PATH: &[&str] = &["path", "target_file"];
const START: &[&str] = &["start_line_one_indexed", "start_line"];
const END: &[&str] = &["end_line_one_indexed_inclusive", "end_line"];

impl SessionReadFileParams {
    fn from_args(mut a: Args) -> Result<SessionReadFileParams> {
        let session = a.string(SESSION)?;
        let path = a.string(PATH)?;
        let start = a.uint(START)?;
        let end = a.uint(END)?;
        let entire = a.boolean(&["should_read_entire_file"])?;
        let explanation = a.string(&["explanation"])?;
        a.finish(
            "session (or session_id), path (or target_file), start_line_one_indexed \
             (or start_line), end_line_one_indexed_inclusive (or end_line), \
             should_read_entire_file, explanation",
        )?;
        Ok(SessionReadFileParams {
            session: session.ok_or_else(|| missing(SESSION))?.1,
            path: path.ok_or_else(|| missing(PATH))?.1,
            start_line_one_indexed: start.map(|v| v.1),
            end_line_one_indexed_inclusive: end.map(|v| v.1),
            should_read_entire_file: entire.map(|v| v.1),
            explanation: explanation.map(|v| v.1),
        })
    }

    fn selection(&self) -> LineSelection {
        if self.should_read_entire_file == Some(true) {
            return LineSelection::default();
        }
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        LineSelection::range(
            self.start_line_one_indexed.map(i),
            self.end_line_one_indexed_inclusive.map(i),
        )
    }
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
    /// What was left out, and where to continue when the cap cut the read; empty when
    /// nothing was.
    pub summary: String,
}

/// The response of a successful `session_read_file` call (camelCase on the wire).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionReadFileResponse {
    /// Always `true` here; failures respond `{"success": false, "error": MESSAGE}`.
    pub success: bool,
    /// The lines read, terminators included.
    pub content: String,
    /// The path as asked.
    pub path: String,
    /// The session.
    pub session: String,
    /// The absolute path of the file inside the session's workspace.
    pub resolved_path: String,
    /// Lines in the file (`null` only when the reader was set never to count).
    pub total_lines: Option<u64>,
    /// The lines returned; `null` when none were (an empty file).
    pub lines_read: Option<LinesRead>,
    /// What was left out.
    pub omitted_content: OmittedContent,
}

impl SessionReadFileResponse {
    fn new(session: &str, r: ReadResult) -> SessionReadFileResponse {
        let omitted = r.omitted.unwrap_or_default();
        let mut summary = omitted.summary;
        if let (Some(t), Some(l)) = (r.truncated, r.lines) {
            if let Some(next) = t.next_start_line {
                let of = r
                    .total_lines
                    .map(|n| format!(" of {n}"))
                    .unwrap_or_default();
                if !summary.is_empty() {
                    summary.push(' ');
                }
                summary.push_str(&format!(
                    "Showing lines {}-{}{of} (at most {MAX_LINES_PER_CALL} lines per call); \
                     continue with start_line_one_indexed={next}.",
                    l.start, l.end
                ));
            }
        }
        SessionReadFileResponse {
            success: true,
            content: r.content,
            path: r.path,
            session: session.to_string(),
            resolved_path: r.resolved_path,
            total_lines: r.total_lines,
            lines_read: r.lines.map(|l| LinesRead {
                start: l.start,
                end: l.end,
            }),
            omitted_content: OmittedContent {
                before_lines: omitted.before_lines.unwrap_or(0),
                after_lines: omitted.after_lines.unwrap_or(0),
                summary,
            },
        }
    }
}

/// The `session_read_file` tool: `path` resolved in the workspace registered for
/// `session` (unknown sessions fail with `Session not found: "ID"`), Cursor's line
/// parameters (1-based, inclusive, an end past the file clamped), at most
/// [`MAX_LINES_PER_CALL`] lines per call (and the reader's 100 KiB), and the omitted
/// regions with a summary that says where to continue.
#[derive(Debug)]
pub struct SessionReadFile {
    reader: Reader,
    sessions: WorkspaceRegistry,
}

impl SessionReadFile {
    /// The tool over the sessions of `sessions`, with Cursor's 250-line cap.
    pub fn new(sessions: WorkspaceRegistry) -> SessionReadFile {
        SessionReadFile {
            reader: Reader::new().max_lines(MAX_LINES_PER_CALL),
            sessions,
        }
    }

    /// Reads through `reader` (its budgets and policies) instead; its line budget
    /// replaces the 250-line cap.
    pub fn reader(mut self, reader: Reader) -> SessionReadFile {
        self.reader = reader;
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
    /// [`crate::Error::SessionNotFound`], then whatever [`Reader::read_in`] returns.
    pub fn call(&self, params: &SessionReadFileParams) -> Result<SessionReadFileResponse> {
        let ws = self.sessions.get(&params.session)?;
        let result = read_at(&self.reader, Some(&ws), &params.path, params.selection())?;
        Ok(SessionReadFileResponse::new(&params.session, result))
    }

    /// Parses the JSON arguments of a call and answers it with the JSON response, or
    /// `{"success": false, "error": MESSAGE}`.
    pub fn respond(&self, args: serde_json::Value) -> ToolResponse {
        let params =
            args::object(args).and_then(|m| SessionReadFileParams::from_args(Args::new(m)));
        match params.and_then(|p| self.call(&p)) {
            Ok(r) => ToolResponse::ok(serde_json::to_string(&r).unwrap_or_default()),
            Err(e) => ToolResponse::error(
                serde_json::json!({"success": false, "error": e.to_string()}).to_string(),
            ),
        }
    }
}
