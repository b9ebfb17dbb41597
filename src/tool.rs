//! Agent tool parameters in every dialect in use, and presets that reproduce known tools.
//!
//! Each agent names its `read_file` parameters its own way: Cursor sends
//! `target_file`, `start_line_one_indexed` and `end_line_one_indexed_inclusive`; Claude
//! Code and Codex `file_path`, `offset` and `limit`; the MCP filesystem server `path`,
//! `head` and `tail`. [`ReadFileParams`] accepts all of them and turns them into one
//! [`Selection`]:
//!
//! ```
//! use rangeread::tool::ReadFileParams;
//! use rangeread::{LineSelection, Selection};
//!
//! let cursor: ReadFileParams = serde_json::from_str(
//!     r#"{"target_file": "src/lib.rs", "start_line_one_indexed": 10,
//!         "end_line_one_indexed_inclusive": 20, "should_read_entire_file": false,
//!         "explanation": "find the parser"}"#,
//! )?;
//! assert_eq!(cursor.path, "src/lib.rs");
//! assert_eq!(cursor.selection()?, Selection::Lines(LineSelection::from(10..=20)));
//!
//! let claude: ReadFileParams =
//!     serde_json::from_str(r#"{"file_path": "a.log", "offset": 100, "limit": 50}"#)?;
//! assert_eq!(claude.selection()?, LineSelection::offset_limit(100, Some(50)).into());
//!
//! // Two ways of selecting at once is an error that names both.
//! let err = serde_json::from_str::<ReadFileParams>(r#"{"path": "a", "head": 5, "tail": 5}"#)
//!     .unwrap_err();
//! assert!(err.to_string().starts_with("Conflicting parameters: head and tail"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Parameters are checked when they are parsed: a negative or fractional `offset`,
//! `limit`, `head`, `tail`, `start_byte` or `end_byte`, a value of the wrong type, two
//! spellings of one parameter, or an unknown parameter fail with a message that names it.
//! Line numbers may be negative (`-1` is the last line).
//!
//! # Presets
//!
//! Ready-made tools reproducing the response shapes hosts already rely on:
//!
//! | tool | module | parameters | response |
//! |---|---|---|---|
//! | `file_read` | [`file_read`] | `filename`, `start_line`, `end_line` | the text; Markdown with a note for partial reads |
//! | `fs_read` | [`fs_read`] | `path`, `start_byte`, `end_byte` | JSON `{content, metadata}` |
//! | vault `read_file` | [`vault`] | `path`, `start_line`, `end_line` | `N: line` text, `Error: ...` |
//! | `session_read_file` | [`session_read_file`] | `session`, `path`, Cursor's line parameters | JSON `{success, content, linesRead, omittedContent, ...}` |
//! | `read_file` (unified) | [`ReadFile`] | [`ReadFileParams`] | the content and notes |
//!
//! Each preset has a `call` that returns typed data and a `respond` that takes the raw
//! JSON arguments and returns the [`ToolResponse`] the tool sends, errors included, so a
//! host never has a failure path of its own to get wrong.
//!
//! # JSON Schemas
//!
//! With the `schemars` feature, every parameter struct implements
//! `schemars::JsonSchema` (schemars 1.x, the version `rmcp` uses), so a host can
//! advertise it: `schemars::schema_for!(ReadFileParams)`. Schemas list the canonical
//! name of each parameter; the other spellings are accepted but not advertised, and
//! unknown parameters are refused (`additionalProperties: false`).

use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::read::Reader;
use crate::result::ReadResult;
use crate::select::{ByteSelection, LineSelection, Selection};
use crate::workspace::Workspace;

mod args;
pub mod file_read;
pub mod fs_read;
mod read_file;
pub mod session_read_file;
pub mod vault;

pub use args::JsonArgs;
pub use file_read::line_offsets;
pub use read_file::{FingerprintMeta, ReadFile, ReadMetadata};

use args::{deserialize_via_args, missing, param, Args};

/// What a tool sends back: its text, and whether the call failed (MCP's `isError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResponse {
    /// The text of the response (for JSON tools, the serialized JSON).
    pub text: String,
    /// Whether this response reports an error.
    pub is_error: bool,
}

impl ToolResponse {
    /// A successful response.
    pub fn ok(text: impl Into<String>) -> ToolResponse {
        ToolResponse {
            text: text.into(),
            is_error: false,
        }
    }

    /// An error response.
    pub fn error(text: impl Into<String>) -> ToolResponse {
        ToolResponse {
            text: text.into(),
            is_error: true,
        }
    }
}

/// The JSON text of a preset's response, and the same object without its `content` (a
/// string field taken out and put back) for MCP's `structuredContent`: the content is
/// sent once, in the text.
fn json_with_meta<T: Serialize>(
    response: &mut T,
    content: impl Fn(&mut T) -> &mut String,
) -> (String, Option<serde_json::Value>) {
    let taken = std::mem::take(content(response));
    let mut meta = serde_json::to_value(&*response).ok();
    if let Some(serde_json::Value::Object(m)) = meta.as_mut() {
        m.remove("content");
    }
    *content(response) = taken;
    (serde_json::to_string(&*response).unwrap_or_default(), meta)
}

/// The lines of `text` without their line feed (a CR before it stays), the last one
/// included when it has no line feed; nothing for empty text.
pub(crate) fn lines_of(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut lfs = crate::text::line_feeds(text.as_bytes());
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end = lfs.next().unwrap_or(text.len());
        let line = &text[start..end];
        start = end + 1;
        Some(line)
    })
}

/// Reads `path` inside `workspace` when there is one, else as given.
fn read_at(
    reader: &Reader,
    workspace: Option<&Workspace>,
    path: &str,
    selection: impl Into<Selection>,
) -> Result<ReadResult> {
    match workspace {
        Some(ws) => reader.read_in(ws, Path::new(path), selection),
        None => reader.read(path, selection),
    }
}

/// The spellings of each parameter, canonical name first.
const PATH: &[&str] = &["path", "target_file", "file_path", "filename"];
const START_LINE: &[&str] = &["start_line", "start_line_one_indexed"];
const END_LINE: &[&str] = &["end_line", "end_line_one_indexed_inclusive"];
const ENTIRE: &[&str] = &["should_read_entire_file"];
const OFFSET: &[&str] = &["offset"];
const LIMIT: &[&str] = &["limit"];
const HEAD: &[&str] = &["head"];
const TAIL: &[&str] = &["tail"];
const START_BYTE: &[&str] = &["start_byte"];
const END_BYTE: &[&str] = &["end_byte"];
const EXPLANATION: &[&str] = &["explanation"];

const ACCEPTED: &str = "path (or target_file, file_path, filename), start_line \
    (or start_line_one_indexed), end_line (or end_line_one_indexed_inclusive), \
    should_read_entire_file, offset, limit, head, tail, start_byte, end_byte, explanation";

/// The parameters of a `read_file` tool in every dialect in use, as one struct.
///
/// | parameter | also accepted as | meaning |
/// |---|---|---|
/// | `path` | `target_file` (Cursor), `file_path` (Claude Code, Codex), `filename` | the file |
/// | `start_line` | `start_line_one_indexed` (Cursor) | first line, 1-based; negative from the end |
/// | `end_line` | `end_line_one_indexed_inclusive` (Cursor) | last line, inclusive |
/// | `should_read_entire_file` | | `true`: the whole file (Cursor's line parameters, which its schema always sends, are then ignored) |
/// | `offset`, `limit` | | `limit` lines from line `offset` (1-based; Claude Code, Codex) |
/// | `head`, `tail` | | the first / last N lines (MCP filesystem server) |
/// | `start_byte`, `end_byte` | | bytes `[start_byte, end_byte)`, snapped to whole characters |
/// | `explanation` | | accepted and ignored (Cursor) |
///
/// Without any selecting parameter the whole file is read (within the reader's budgets).
/// Selecting in two ways at once (lines with bytes, `head` with `tail`, `start_line`
/// with `offset` ...) is an error that names both parameters.
///
/// It deserializes from a JSON object only (the checks read JSON values); build it
/// directly or with [`ReadFileParams::from_json`] otherwise.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schemars",
    schemars(
        deny_unknown_fields,
        description = "Read a text file, or part of it. Select lines with start_line/end_line \
            (1-based, inclusive), offset/limit, head or tail, or bytes with \
            start_byte/end_byte; use one way at a time. Without any, the whole file is read \
            up to the size budget; a response cut by the budget says where to continue."
    )
)]
pub struct ReadFileParams {
    /// The file to read. Relative paths are resolved against the workspace root.
    pub path: String,
    /// First line to read, 1-based; a negative number counts from the end (-1 is the
    /// last line). Defaults to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<i64>,
    /// Last line to read, inclusive; a negative number counts from the end. Defaults to
    /// the last line; a line past the end is clamped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// Read the whole file (within the size budget). Overrides start_line and end_line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub should_read_entire_file: Option<bool>,
    /// First line to read, 1-based (use with limit, instead of start_line/end_line).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub offset: Option<u64>,
    /// Number of lines to read from offset (or from line 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Read only the first N lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<u64>,
    /// Read only the last N lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tail: Option<u64>,
    /// First byte to read, 0-based (for files with very long lines). Widened to a
    /// character boundary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_byte: Option<u64>,
    /// End of the byte range, exclusive. Widened to a character boundary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_byte: Option<u64>,
    /// Why the file is read (accepted and ignored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

deserialize_via_args!(ReadFileParams);

/// One way of selecting, for the conflict check.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Lines,
    OffsetLimit,
    Head,
    Tail,
    Bytes,
    Entire,
}

impl ReadFileParams {
    /// Parameters for reading `path` whole.
    pub fn new(path: impl Into<String>) -> ReadFileParams {
        ReadFileParams {
            path: path.into(),
            ..ReadFileParams::default()
        }
    }

    /// Parses the JSON arguments of a tool call, given as a [`serde_json::Value`] or as
    /// the JSON text itself:
    ///
    /// ```
    /// use rangeread::tool::ReadFileParams;
    ///
    /// let p = ReadFileParams::from_json(r#"{"file_path": "a.log", "offset": 10.0}"#)?;
    /// assert_eq!((p.path.as_str(), p.offset), ("a.log", Some(10)));
    /// let e = ReadFileParams::from_json(r#"{"file_path": "a.log", "limit": -1}"#).unwrap_err();
    /// assert!(matches!(e, rangeread::Error::InvalidParameter { ref parameter, .. } if parameter == "limit"));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] naming the parameter as the caller spelled it, for a
    /// missing `path`, a value of the wrong type, a negative or fractional count or
    /// offset, two spellings of one parameter, conflicting parameters, an unknown
    /// parameter, or text that is not JSON; [`Error::ZeroLine`] for a line 0.
    pub fn from_json(args: impl JsonArgs) -> Result<ReadFileParams> {
        ReadFileParams::from_args(args::args_of(args)?)
    }

    fn from_args(mut a: Args) -> Result<ReadFileParams> {
        let path = a.string(PATH)?;
        let start_line = a.line(START_LINE)?;
        let end_line = a.line(END_LINE)?;
        let entire = a.boolean(ENTIRE)?;
        let offset = a.uint(OFFSET)?;
        let limit = a.uint(LIMIT)?;
        let head = a.uint(HEAD)?;
        let tail = a.uint(TAIL)?;
        let start_byte = a.uint(START_BYTE)?;
        let end_byte = a.uint(END_BYTE)?;
        let explanation = a.string(EXPLANATION)?;
        a.finish(ACCEPTED)?;
        // The spellings used, to name parameters in messages as the caller wrote them.
        let spellings = [
            start_line.as_ref().map(|v| (START_LINE[0], v.0)),
            end_line.as_ref().map(|v| (END_LINE[0], v.0)),
        ];
        let spelled = |canonical: &'static str| {
            spellings
                .iter()
                .flatten()
                .find(|(c, _)| *c == canonical)
                .map_or(canonical, |(_, used)| *used)
        };
        let (path_name, path) = path.ok_or_else(|| missing(PATH))?;
        let p = ReadFileParams {
            path,
            start_line: start_line.map(|v| v.1),
            end_line: end_line.map(|v| v.1),
            should_read_entire_file: entire.map(|v| v.1),
            offset: offset.map(|v| v.1),
            limit: limit.map(|v| v.1),
            head: head.map(|v| v.1),
            tail: tail.map(|v| v.1),
            start_byte: start_byte.map(|v| v.1),
            end_byte: end_byte.map(|v| v.1),
            explanation: explanation.map(|v| v.1),
        };
        if p.path.is_empty() {
            return Err(param(
                path_name,
                format!("Invalid {path_name}: expected a file path, got an empty string"),
            ));
        }
        // Check now, so that a conflict fails at parse time naming the spellings used.
        p.selection_named(spelled)?;
        Ok(p)
    }

    /// The selection these parameters ask for.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSelection`] naming both parameters when two ways of selecting are
    /// combined; [`Error::ZeroLine`] for a line number, `offset` of 0.
    pub fn selection(&self) -> Result<Selection> {
        self.selection_named(|canonical| canonical)
    }

    fn selection_named(&self, name: impl Fn(&'static str) -> &'static str) -> Result<Selection> {
        let entire = self.should_read_entire_file == Some(true);
        // Each way of selecting, named by its first parameter present (None: unused).
        let first = |params: &[(&'static str, bool)]| params.iter().find(|p| p.1).map(|p| p.0);
        let ways = [
            (
                Group::Lines,
                // Cursor always sends its line parameters: reading the entire file wins.
                first(&[
                    ("start_line", self.start_line.is_some() && !entire),
                    ("end_line", self.end_line.is_some() && !entire),
                ]),
            ),
            (
                Group::OffsetLimit,
                first(&[
                    ("offset", self.offset.is_some()),
                    ("limit", self.limit.is_some()),
                ]),
            ),
            (Group::Head, first(&[("head", self.head.is_some())])),
            (Group::Tail, first(&[("tail", self.tail.is_some())])),
            (
                Group::Bytes,
                first(&[
                    ("start_byte", self.start_byte.is_some()),
                    ("end_byte", self.end_byte.is_some()),
                ]),
            ),
            (Group::Entire, first(&[("should_read_entire_file", entire)])),
        ];
        let used: Vec<(Group, &'static str)> = ways
            .into_iter()
            .filter_map(|(g, n)| n.map(|n| (g, n)))
            .collect();
        if let [(_, a), (_, b), ..] = used[..] {
            return Err(param(
                name(b),
                format!(
                    "Conflicting parameters: {} and {} cannot be used together; select with one \
                 of start_line/end_line, offset/limit, head, tail, start_byte/end_byte or \
                 should_read_entire_file",
                    name(a),
                    name(b)
                ),
            ));
        }
        let zero = |field: &'static str| Error::ZeroLine { field: name(field) };
        Ok(match used.first().map(|u| u.0) {
            None | Some(Group::Entire) => Selection::default(),
            Some(Group::Lines) => {
                if self.start_line == Some(0) {
                    return Err(zero("start_line"));
                }
                if self.end_line == Some(0) {
                    return Err(zero("end_line"));
                }
                LineSelection::range(self.start_line, self.end_line).into()
            }
            Some(Group::OffsetLimit) => {
                let offset = self.offset.unwrap_or(1);
                if offset == 0 {
                    return Err(Error::ZeroLine { field: "offset" });
                }
                LineSelection::offset_limit(offset, self.limit).into()
            }
            Some(Group::Head) => LineSelection::Head(self.head.unwrap_or(0)).into(),
            Some(Group::Tail) => LineSelection::Tail(self.tail.unwrap_or(0)).into(),
            Some(Group::Bytes) => ByteSelection::new(self.start_byte, self.end_byte).into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: serde_json::Value) -> Result<ReadFileParams> {
        ReadFileParams::from_json(v)
    }

    fn sel(v: serde_json::Value) -> Selection {
        parse(v).unwrap().selection().unwrap()
    }

    #[test]
    fn every_path_spelling() {
        for key in PATH {
            assert_eq!(parse(json!({ *key: "a.txt" })).unwrap().path, "a.txt");
        }
        let e = parse(json!({})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Missing required parameter path (or target_file, file_path, filename)"
        );
        let e = parse(json!({"path": ""})).unwrap_err();
        assert!(e.to_string().starts_with("Invalid path"), "{e}");
    }

    #[test]
    fn every_selection_form() {
        assert_eq!(sel(json!({"path": "a"})), Selection::default());
        assert_eq!(
            sel(json!({"path": "a", "start_line": 3, "end_line": 9})),
            LineSelection::from(3..=9).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "start_line_one_indexed": 3,
                       "end_line_one_indexed_inclusive": 9})),
            LineSelection::from(3..=9).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "start_line": -50})),
            LineSelection::range(Some(-50), None).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "end_line": 7})),
            LineSelection::range(None, Some(7)).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "offset": 5})),
            LineSelection::offset_limit(5, None).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "limit": 5})),
            LineSelection::offset_limit(1, Some(5)).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "head": 4})),
            LineSelection::Head(4).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "tail": 4})),
            LineSelection::Tail(4).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "start_byte": 10})),
            ByteSelection::new(Some(10), None).into()
        );
        assert_eq!(
            sel(json!({"path": "a", "end_byte": 10})),
            ByteSelection::new(None, Some(10)).into()
        );
    }

    #[test]
    fn cursor_reading_the_entire_file_ignores_its_line_parameters() {
        let cursor = json!({"target_file": "a", "start_line_one_indexed": 1,
            "end_line_one_indexed_inclusive": 250, "should_read_entire_file": true,
            "explanation": "x"});
        assert_eq!(sel(cursor), Selection::default());
        assert_eq!(
            sel(json!({"path": "a", "should_read_entire_file": false, "start_line": 2})),
            LineSelection::range(Some(2), None).into()
        );
    }

    #[test]
    fn conflicts_name_both_parameters_as_spelled() {
        let cases = [
            (json!({"path": "a", "head": 1, "tail": 1}), "head and tail"),
            (
                json!({"path": "a", "start_line": 1, "start_byte": 0}),
                "start_line and start_byte",
            ),
            (
                json!({"path": "a", "start_line_one_indexed": 1, "end_byte": 9}),
                "start_line_one_indexed and end_byte",
            ),
            (
                json!({"path": "a", "end_line": 5, "limit": 3}),
                "end_line and limit",
            ),
            (
                json!({"path": "a", "offset": 5, "head": 3}),
                "offset and head",
            ),
            (
                json!({"path": "a", "tail": 5, "should_read_entire_file": true}),
                "tail and should_read_entire_file",
            ),
            (
                json!({"path": "a", "end_byte": 5, "should_read_entire_file": true}),
                "end_byte and should_read_entire_file",
            ),
        ];
        for (args, names) in cases {
            let e = parse(args.clone()).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("Conflicting parameters: {names} cannot")),
                "{args}: {e}"
            );
        }
        // Built by hand, the check still runs (with canonical names).
        let p = ReadFileParams {
            head: Some(1),
            start_byte: Some(1),
            ..ReadFileParams::new("a")
        };
        assert!(p
            .selection()
            .unwrap_err()
            .to_string()
            .starts_with("Conflicting parameters: head and start_byte"));
    }

    #[test]
    fn bad_values_fail_at_parse_time_naming_the_field() {
        let cases = [
            (json!({"path": "a", "start_byte": -5}), "Invalid start_byte"),
            (json!({"path": "a", "end_byte": 1.5}), "Invalid end_byte"),
            (json!({"path": "a", "head": -1}), "Invalid head"),
            (json!({"path": "a", "tail": "x"}), "Invalid tail"),
            (json!({"path": "a", "limit": true}), "Invalid limit"),
            (json!({"path": "a", "offset": [1]}), "Invalid offset"),
            (
                json!({"path": "a", "start_line": 2.5}),
                "Invalid start_line",
            ),
            (json!({"path": "a", "end_line": {}}), "Invalid end_line"),
            (json!({"path": 7}), "Invalid path"),
            (json!({"target_file": false}), "Invalid target_file"),
            (
                json!({"path": "a", "should_read_entire_file": "yes"}),
                "Invalid should_read_entire_file",
            ),
            (
                json!({"path": "a", "lines": "1:5"}),
                "Unknown parameter \"lines\"",
            ),
        ];
        for (args, start) in cases {
            let e = parse(args.clone()).unwrap_err().to_string();
            assert!(e.starts_with(start), "{args}: {e}");
            // serde users get the same message.
            let e = serde_json::from_value::<ReadFileParams>(args).unwrap_err();
            assert!(e.to_string().starts_with(start), "{e}");
        }
    }

    #[test]
    fn zero_lines_use_the_contract_message() {
        let cases = [
            (json!({"path": "a", "start_line": 0}), "start_line"),
            (
                json!({"path": "a", "start_line": 2, "end_line": 0}),
                "end_line",
            ),
            (
                json!({"path": "a", "start_line_one_indexed": 0}),
                "start_line_one_indexed",
            ),
            (json!({"path": "a", "offset": 0, "limit": 3}), "offset"),
        ];
        for (args, field) in cases {
            assert_eq!(
                parse(args).unwrap_err().to_string(),
                format!("{field} (0) is invalid: lines are 1-indexed")
            );
        }
        let p = ReadFileParams {
            end_line: Some(0),
            ..ReadFileParams::new("a")
        };
        assert_eq!(
            p.selection().unwrap_err().to_string(),
            "end_line (0) is invalid: lines are 1-indexed"
        );
    }

    #[cfg(feature = "schemars")]
    #[test]
    fn schema_lists_canonical_names_and_refuses_others() {
        let schema = serde_json::to_value(schemars::schema_for!(ReadFileParams)).unwrap();
        let props = schema["properties"].as_object().unwrap();
        let mut names: Vec<&str> = props.keys().map(String::as_str).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "end_byte",
                "end_line",
                "explanation",
                "head",
                "limit",
                "offset",
                "path",
                "should_read_entire_file",
                "start_byte",
                "start_line",
                "tail"
            ]
        );
        assert_eq!(schema["required"], json!(["path"]));
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(props["start_byte"]["minimum"], json!(0));
        assert_eq!(props["offset"]["minimum"], json!(1));
        assert!(!schema["description"].as_str().unwrap().contains("[`"));
    }

    #[test]
    fn round_trips_through_serde() {
        let p = ReadFileParams {
            start_line: Some(3),
            end_line: Some(4),
            ..ReadFileParams::new("x.rs")
        };
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v, json!({"path": "x.rs", "start_line": 3, "end_line": 4}));
        assert_eq!(serde_json::from_value::<ReadFileParams>(v).unwrap(), p);
    }
}
