//! Agent read tools as data: every agent's `read_file` is a [`Dialect`], served by one
//! decoder and one renderer ([`DialectTool`]).
//!
//! Read tools differ in what they call their parameters (`file_path`, `target_file`,
//! `path`), what the numbers mean (a 1-based first line or lines to skip; an inclusive
//! end or a count; negative from the end), their defaults and caps, what they do past the
//! end of a file, how their answer looks (`L12: x`, `    12\tx`, a Markdown block, JSON)
//! and what their errors say. A [`Dialect`] holds all of that as data; a preset is a
//! dialect value written as JSON, and a tool of your own is one more value:
//!
//! ```
//! use rangeread::tool::{Dialect, DialectTool};
//! use rangeread::Workspace;
//!
//! let mut dialect = Dialect::preset("vault")?;
//! dialect.name = "read_note".into();
//! dialect.output.line = Some("{n:>4}| {line}".into());
//! let tool = DialectTool::new(dialect).workspace(Workspace::new("tests/data")?);
//! let r = tool.respond(serde_json::json!({"path": "sample.txt", "start_line": 9, "end_line": 10}));
//! let text = r.full_text(); // or r.items(): the text, media and notes in order
//! assert!(text.starts_with("   9| line 9: "), "{text}");
//! assert_eq!(tool.definition().name, "read_note");
//! # Ok::<(), rangeread::Error>(())
//! ```
//!
//! # Presets
//!
//! [`Dialect::presets`] lists them; `docs/mcp.md` has a table of each preset's source
//! (repository and commit) and how it differs from it.
//!
//! | preset | tool | parameters | answer |
//! |---|---|---|---|
//! | `read_file` | `read_file` | [`ReadFileParams`]: every spelling below; `pages`, `cells`, `crop` for documents | the content; the notes as a second block; [`ReadMetadata`] as structured content; images as [`ToolMedia`] |
//! | `session_read_file` | `session_read_file` | `session`, `path` (or `target_file`), Cursor's line parameters | JSON [`SessionReadFileResponse`] |
//! | `file_read` | `file_read` | `filename`, `start_line`, `end_line` | the numbered Markdown block; the outline after a full read |
//! | `fs_read` | `fs_read` | `path`, `start_byte`, `end_byte` | JSON [`FsReadResponse`] |
//! | `vault` | `read_file` | `path`, `start_line`, `end_line` | `N: line` text, `Error: ...` |
//! | `gemini` | `read_file` | `file_path`, `start_line`, `end_line` | the lines, a truncation header before a partial read |
//! | `mcp-filesystem` | `read_text_file`, `read_file`, `read_media_file` | `path`, `head`, `tail` (`read_media_file`: `path`) | the text, also as structured `{content}`; `read_media_file`: the file whole as an image, audio or resource item |
//! | `codex` | `read_file` | `file_path` (absolute), `offset`, `limit`, `mode`, `indentation` | `L12: line` text, Codex's error texts |
//! | `claude-code` | `Read` | `file_path`, `offset`, `limit`, `pages`, `allow_large` | `N\tline` text, the size and token caps, Claude Code's reminders and error texts; images, `<cell id>` notebook cells, PDF pages as text |
//! | `rust-mcp-filesystem/*` | `read_text_file`, `head_file`, `tail_file`, `read_file_lines` | `path` and `with_line_numbers` / `lines` / `offset` (lines to skip), `limit` | the text as on disk; `{n:>6} \| line` on request |
//! | `forge` | `read` | `file_path` (or `path`), `start_line`, `end_line` (swapped when reversed), `show_line_numbers` | `<file path= display_lines= total_lines=><![CDATA[N:line]]></file>`; errors in `<tool_call_error>` |
//! | `openhands` | `str_replace_editor` | `command` (`view` only), `path` (absolute), `view_range` | `` Here's the result of running `cat -n` on PATH: `` and `{n:>6}\t{line}`, clipped at 16,000 characters; `ERROR:\n...` |
//! | `openhands-tools` | `file_editor` | `command` (`view` only), `path` (absolute), `view_range` | as `openhands`, the middle of a text over 16,000 characters left out; `[An error occurred during execution.]\n...`; images as image items |
//!
//! Parameters are checked when they are decoded: a value of the wrong type, two spellings
//! of one parameter, two ways of selecting at once, or an unknown parameter fail with a
//! message that names the parameter as the caller spelled it. Every failure is an answer
//! with `is_error`, in the dialect's words: a host has no failure path of its own to get
//! wrong.
//!
//! # Documents
//!
//! A dialect's [`Documents`] say which files it reads as images (through an
//! [`ImagePolicy`](crate::images::ImagePolicy) preset), PDF pages, notebook cells, or
//! sends whole, and the texts of each answer; by default none (images and PDFs are
//! binary, a notebook is JSON text). Images go with the text as [`ToolMedia`] items, in
//! their place ([`ToolResponse::items`]): an MCP server sends them as image content.
//!
//! # Structured content
//!
//! A tool whose answer is JSON sends the same object as MCP's `structuredContent`; the
//! unified `read_file` sends [`ReadMetadata`] (what a host acts on beside the text); the
//! other text tools send none.
//!
//! # JSON Schemas
//!
//! [`DialectTool::definition`] gives each tool's input schema, built from its dialect's
//! parameters. With the `schemars` feature, [`ReadFileParams`] implements
//! `schemars::JsonSchema` too (schemars 1.x, the version `rmcp` uses).
//!
//! # Where the code lives
//!
//! One folder a stage of a call, each using only the ones before it (checked by
//! `scripts/module_cycles.py src tool`: no import cycle between files or folders):
//!
//! - `dialect/`: the dialect as data: [`Dialect`] and its parts (`mod.rs`; the answer's
//!   form in `form.rs`, documents in `doc_forms.rs`, listings and outlines in
//!   `listing.rs` and `oversize.rs`, project rules in `project_rules.rs`), the text
//!   templates, the input schema, and the presets (`presets.rs`, `presets/*.json`);
//! - `decode/`: a call's JSON read through the dialect's parameters into a request and
//!   the selection to read (`mod.rs`, `args.rs`, `argchecks.rs`, `pages.rs`,
//!   `indentation.rs`, `paths.rs`);
//! - `serve/`: [`DialectTool`] (`mod.rs`): the roots a path is read in, the checks and
//!   caps before and after the read, documents, the read itself (`ctx.rs`);
//! - `render/`: the answer in the dialect's words (`mod.rs`; listings, outlines,
//!   documents, notes, JSON shapes).
//!
//! A new dialect field is its type in `dialect/` (`mod.rs` or `form.rs`), the stage that
//! acts on it (a check in `serve/`, a text in `render/`), and the presets that set it.

use std::sync::OnceLock;

use serde::Serialize;

use crate::error::Result;
use crate::select::Selection;

// The data path, one folder a stage: the dialect as data (its types, the preset
// files), decoding a call, serving it (reading through the workspace), rendering the
// answer.
mod decode;
mod dialect;
mod render;
mod serve;

pub use decode::args::JsonArgs;
pub use dialect::doc_forms::{
    CellForm, Documents, ImageForm, NotebookForm, PageCap, PdfForm, RawMedia,
};
pub use dialect::listing::{Listing, ListingOrder};
pub use dialect::oversize::Oversize;
pub use dialect::project_rules::ProjectRules;
pub use dialect::validation::Validation;
pub use dialect::{
    Arguments, ByteCut, CapLift, Caps, Clip, ClipKeep, Decoding, Dialect, ErrorTexts, FileRules,
    FirstPage, Form, Integers, LargeFile, Limits, LineRules, Links, NameRefusal, OutlineForm,
    Output, PageRules, Param, PastEndAnswer, PathRules, PathShow, RangeChecks, Refusal, Role,
    Rounding, SizeCap, Special, TokenCap, Unit,
};
pub use render::record::{
    AnswerKind, AnswerRecord, Clipped, ErrorRecord, MediaRecord, PartUnit, Parts, TokenCut,
};
pub use render::shapes::{
    CutLineInfo, FingerprintMeta, FsReadMetadata, FsReadResponse, LinesRead, OmittedContent,
    ReadMetadata, SessionReadFileResponse,
};
pub use serve::edit::line_offsets;
pub use serve::roots::Roots;
pub use serve::{DialectTool, ToolDefinition};

use decode::args::{deserialize_via_args, Args};
use decode::{decode, plan, Given, Request};

/// What a tool sends back: its text, whether the call failed (MCP's `isError`), and
/// what some tools send beside the text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolResponse {
    /// The text of the response (for JSON tools, the serialized JSON); for the unified
    /// `read_file`, the content alone.
    pub text: String,
    /// Whether this response reports an error.
    pub is_error: bool,
    /// A second text block: the unified `read_file`'s notes (what was omitted, where to
    /// continue), when there are any.
    pub notes: Option<String>,
    /// MCP's `structuredContent`: the JSON answer itself for JSON tools, the
    /// [`ReadMetadata`] of the unified `read_file`.
    pub structured: Option<serde_json::Value>,
    /// Images (and files sent whole) that go with the text, in order; each names where
    /// in [`ToolResponse::text`] it goes ([`ToolResponse::items`] puts them there).
    pub media: Vec<ToolMedia>,
    /// The answer as data, the same shape for every preset: what was shown, whether and
    /// where it was cut and by which budget, an error's kind and values
    /// ([`AnswerRecord`]). Every answer of a [`DialectTool`] has one.
    pub record: Option<AnswerRecord>,
}

/// An image, or a file a tool sends whole (a PDF as Forge and Gemini CLI send it), that
/// goes with an answer's text: MCP's image content, or an embedded resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolMedia {
    /// Its MIME type (`image/png` ...).
    pub mime_type: String,
    /// Its bytes, as base64 (standard alphabet, padded).
    pub data: String,
    /// Where it goes: before byte `at` of [`ToolResponse::text`] (0: before the text;
    /// the text's length: after it).
    pub at: usize,
    /// The file it comes from, as the answer shows it (a resource's name).
    pub name: String,
}

/// One item of an answer, in order ([`ToolResponse::items`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolItem<'a> {
    /// A text block.
    Text(&'a str),
    /// An image or a file sent whole.
    Media(&'a ToolMedia),
}

impl ToolResponse {
    /// A successful response.
    pub fn ok(text: impl Into<String>) -> ToolResponse {
        ToolResponse {
            text: text.into(),
            ..ToolResponse::default()
        }
    }

    /// An error response.
    pub fn error(text: impl Into<String>) -> ToolResponse {
        ToolResponse {
            text: text.into(),
            is_error: true,
            ..ToolResponse::default()
        }
    }

    /// The answer's items in order: the text cut where each media item goes (empty
    /// pieces left out), the media items, then the notes. Without media, the text is one
    /// item even when empty.
    ///
    /// ```
    /// use rangeread::tool::{ToolItem, ToolMedia, ToolResponse};
    ///
    /// let mut r = ToolResponse::ok("before\nafter\n");
    /// r.media.push(ToolMedia { mime_type: "image/png".into(), data: "iVBORw0KGgo=".into(), at: 7, name: "a.png".into() });
    /// let items = r.items();
    /// assert_eq!(items[0], ToolItem::Text("before\n"));
    /// assert!(matches!(items[1], ToolItem::Media(m) if m.mime_type == "image/png"));
    /// assert_eq!(items[2], ToolItem::Text("after\n"));
    /// ```
    pub fn items(&self) -> Vec<ToolItem<'_>> {
        let mut items = Vec::new();
        if self.media.is_empty() {
            items.push(ToolItem::Text(&self.text));
        } else {
            let mut from = 0;
            for m in &self.media {
                let at = m.at.clamp(from, self.text.len());
                // A media item goes at a character boundary of the text.
                let at = (at..=self.text.len())
                    .find(|&i| self.text.is_char_boundary(i))
                    .unwrap_or(self.text.len());
                if at > from {
                    items.push(ToolItem::Text(&self.text[from..at]));
                }
                items.push(ToolItem::Media(m));
                from = at;
            }
            if from < self.text.len() {
                items.push(ToolItem::Text(&self.text[from..]));
            }
        }
        if let Some(n) = &self.notes {
            items.push(ToolItem::Text(n));
        }
        items
    }

    /// The text and the notes, as one text: what a model that reads one block sees.
    pub fn full_text(&self) -> String {
        match &self.notes {
            None => self.text.clone(),
            Some(n) => {
                let sep = if self.text.is_empty() || self.text.ends_with('\n') {
                    ""
                } else {
                    "\n"
                };
                format!("{}{sep}{n}\n", self.text)
            }
        }
    }
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

/// The unified `read_file` dialect, parsed once.
fn unified() -> &'static Dialect {
    static D: OnceLock<Dialect> = OnceLock::new();
    D.get_or_init(|| Dialect::preset("read_file").expect("the read_file preset exists"))
}

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
/// | `pages`, `cells`, `crop` | | a PDF's pages, a notebook's cells, an image's region |
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
    /// PDFs: the pages to read, `"3"`, `"2-9"` or `"10-"` (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<String>,
    /// Notebooks: the cells to read, `"3"`, `"0-4"` or `"10-"` (from 0), or a cell id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<String>,
    /// Images: the region to read, `"x,y,width,height"` in the original's pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crop: Option<String>,
    /// Why the file is read (accepted and ignored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

deserialize_via_args!(ReadFileParams);

impl ReadFileParams {
    /// Parameters for reading `path` whole.
    pub fn new(path: impl Into<String>) -> ReadFileParams {
        ReadFileParams {
            path: path.into(),
            ..ReadFileParams::default()
        }
    }

    /// Parses the JSON arguments of a tool call, given as a [`serde_json::Value`] or as
    /// the JSON text itself, by the unified `read_file` dialect:
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
    /// [`crate::Error::InvalidParameter`] naming the parameter as the caller spelled it,
    /// for a missing `path`, a value of the wrong type, a negative or fractional count
    /// or offset, a line 0, two spellings of one parameter, conflicting parameters, an
    /// unknown parameter, or text that is not JSON.
    pub fn from_json(args: impl JsonArgs) -> Result<ReadFileParams> {
        ReadFileParams::from_args(decode::args::args_of(args)?)
    }

    fn from_args(a: Args) -> Result<ReadFileParams> {
        let r = decode(unified(), a)?;
        plan(unified(), &r)?;
        let u = |g: &Option<Given<i64>>| g.as_ref().map(|g| g.value.max(0) as u64);
        let i = |g: &Option<Given<i64>>| g.as_ref().map(|g| g.value);
        Ok(ReadFileParams {
            start_line: i(&r.start_line),
            end_line: i(&r.end_line),
            should_read_entire_file: r.entire.as_ref().map(|g| g.value),
            offset: u(&r.offset),
            limit: u(&r.limit),
            head: u(&r.head),
            tail: u(&r.tail),
            start_byte: u(&r.start_byte),
            end_byte: u(&r.end_byte),
            pages: r.pages.map(|g| g.value),
            cells: r.cells.map(|g| g.value),
            crop: r.crop.map(|g| g.value),
            explanation: None,
            path: r.path,
        })
    }

    /// The selection these parameters ask for.
    ///
    /// # Errors
    ///
    /// [`crate::Error::InvalidParameter`] naming both parameters when two ways of
    /// selecting are combined, or for a line number or `offset` of 0.
    pub fn selection(&self) -> Result<Selection> {
        let g = |name: &str, v: Option<i64>| {
            v.map(|value| Given {
                name: name.to_string(),
                value,
            })
        };
        let n = |v: Option<u64>| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
        let zero = |name: &str, v: Option<i64>| match v {
            Some(0) => Err(crate::tool::decode::args::param(
                name,
                format!("{name} (0) is invalid: lines are 1-indexed"),
            )),
            _ => Ok(()),
        };
        zero("start_line", self.start_line)?;
        zero("end_line", self.end_line)?;
        zero("offset", n(self.offset))?;
        let r = Request {
            path: self.path.clone(),
            session: None,
            start_line: g("start_line", self.start_line),
            end_line: g("end_line", self.end_line),
            offset: g("offset", n(self.offset)),
            skip: None,
            limit: g("limit", n(self.limit)),
            head: g("head", n(self.head)),
            tail: g("tail", n(self.tail)),
            start_byte: g("start_byte", n(self.start_byte)),
            end_byte: g("end_byte", n(self.end_byte)),
            entire: self.should_read_entire_file.map(|value| Given {
                name: "should_read_entire_file".into(),
                value,
            }),
            range: None,
            range_given: None,
            numbers: None,
            indent: Default::default(),
            pages: None,
            lift: false,
            cells: None,
            crop: None,
        };
        Ok(plan(unified(), &r)?.selection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::{ByteSelection, LineSelection};
    use serde_json::json;

    fn parse(v: serde_json::Value) -> Result<ReadFileParams> {
        ReadFileParams::from_json(v)
    }

    fn sel(v: serde_json::Value) -> Selection {
        parse(v).unwrap().selection().unwrap()
    }

    #[test]
    fn every_path_spelling() {
        for key in ["path", "target_file", "file_path", "filename"] {
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
                "cells",
                "crop",
                "end_byte",
                "end_line",
                "explanation",
                "head",
                "limit",
                "offset",
                "pages",
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
