//! The unified `read_file` tool: [`ReadFileParams`] in, content and notes out.

use std::path::Path;

use serde::Serialize;

use crate::config::Totals;
use crate::error::Result;
use crate::read::Reader;
use crate::render::notes;
use crate::result::{
    Adjustments, ByteSpan, CutLine, InvalidUtf8, LineEnding, LineSpan, ReadResult, Requested,
    Truncation,
};
use crate::tool::{read_at, ReadFileParams, ToolResponse};
use crate::workspace::Workspace;

/// A `read_file` tool that accepts every dialect of [`ReadFileParams`].
///
/// It answers with the exact text of the selection, then the note lines of
/// [`ReadFile::notes`]: what was omitted, where to continue when a budget cut the read,
/// and where the rest of each line cut by the line-length budget starts.
/// By default it never counts a whole file just to report totals ([`Totals::IfKnown`]):
/// `head` and `tail` of a huge file cost only their bytes, and a line range costs one
/// counting pass up to it.
///
/// # Example
///
/// ```
/// use rangeread::tool::ReadFile;
/// use rangeread::Workspace;
///
/// let tool = ReadFile::new().workspace(Workspace::new("tests/data")?);
/// let r = tool.respond(serde_json::json!({"file_path": "sample.txt", "offset": 2, "limit": 1}));
/// assert!(r.text.starts_with("line 2: the quick brown fox"));
/// let r = tool.respond(serde_json::json!({"path": "../../Cargo.toml"}));
/// assert_eq!((r.is_error, r.text.as_str()), (true, r#"Path "../../Cargo.toml" is outside the workspace"#));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ReadFile {
    reader: Reader,
    workspace: Option<Workspace>,
}

impl Default for ReadFile {
    fn default() -> Self {
        ReadFile::with_reader(Reader::new().totals(Totals::IfKnown))
    }
}

impl ReadFile {
    /// The tool with the default budgets (2000 lines, 100 KiB, 2000 characters a line)
    /// and [`Totals::IfKnown`].
    pub fn new() -> ReadFile {
        ReadFile::default()
    }

    /// The tool reading through `reader` (its budgets, policies and totals).
    pub fn with_reader(reader: Reader) -> ReadFile {
        ReadFile {
            reader,
            workspace: None,
        }
    }

    /// Resolves paths inside `workspace` (confined to its root, protected paths
    /// refused); by default they are opened as given.
    pub fn workspace(mut self, workspace: Workspace) -> ReadFile {
        self.workspace = Some(workspace);
        self
    }

    /// Reads what the parameters select.
    ///
    /// # Errors
    ///
    /// The conflicts of [`ReadFileParams::selection`], then whatever [`Reader::read`]
    /// (or [`Reader::read_in`] with a workspace) returns.
    pub fn call(&self, params: &ReadFileParams) -> Result<ReadResult> {
        let sel = params.selection()?;
        read_at(&self.reader, self.workspace.as_ref(), &params.path, sel)
    }

    /// The notes of a result: [`crate::notes`] (omitted regions, continuation), then
    /// one line for each line the line-length budget cut (the first
    /// [`ReadFile::MAX_CUT_NOTES`], then a count), saying where the rest starts:
    /// `content` has no marker, and a model that sees only text must learn it here.
    pub fn notes(result: &ReadResult) -> Vec<String> {
        notes(result)
    }

    /// How many cut lines [`ReadFile::notes`] names one by one.
    pub const MAX_CUT_NOTES: usize = crate::render::MAX_CUT_NOTES;

    /// The text of a result as this tool sends it: the content, then each note of
    /// [`ReadFile::notes`] on a line of its own (after a line break if the content does
    /// not end with one).
    pub fn text(result: &ReadResult) -> String {
        with_notes(result.content.clone(), &ReadFile::notes(result))
    }

    /// What a host needs of a result beside the text of [`ReadFile::text`] (or the content
    /// and [`ReadFile::notes`] as two blocks): the MCP server sends it as
    /// `structuredContent`. See [`ReadMetadata`] for what is left out and why.
    ///
    /// ```
    /// use rangeread::tool::ReadFile;
    /// use rangeread::Workspace;
    ///
    /// let tool = ReadFile::new().workspace(Workspace::new("tests/data")?);
    /// let r = tool.call(&serde_json::from_str(r#"{"path": "sample.txt", "head": 2}"#)?)?;
    /// let meta = serde_json::to_value(tool.metadata(&r))?;
    /// assert_eq!(meta["resolved_path"], "sample.txt");
    /// assert_eq!(meta["lines"], serde_json::json!({"start": 1, "end": 2}));
    /// assert!(meta.get("content").is_none() && meta.get("truncated").is_none());
    /// // A whole read knows the file's lines.
    /// let r = tool.call(&serde_json::from_str(r#"{"path": "sample.txt"}"#)?)?;
    /// assert_eq!(serde_json::to_value(tool.metadata(&r))?["total_lines"], 60);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn metadata<'a>(&self, result: &'a ReadResult) -> ReadMetadata<'a> {
        let root = self.workspace.as_ref().map(Workspace::root);
        let resolved =
            match root.and_then(|r| Path::new(&result.resolved_path).strip_prefix(r).ok()) {
                Some(relative) => relative.to_string_lossy().into_owned(),
                // Outside a workspace the path is the caller's own.
                None if root.is_none() => result.resolved_path.clone(),
                None => result.path.clone(),
            };
        let adjusted = result.adjustments != Adjustments::default();
        ReadMetadata {
            resolved_path: resolved,
            file_size: result.file_size,
            // A read that returned the whole file has counted every line.
            total_lines: result
                .total_lines
                .or(match (result.is_partial, result.lines) {
                    (false, Some(l)) => Some(l.end),
                    _ => None,
                }),
            encoding: &result.encoding,
            bom: result.bom,
            encoding_confidence: (result.encoding_confidence < 1.0)
                .then_some(result.encoding_confidence),
            line_ending: result.line_ending,
            lines: result.lines,
            bytes: result.bytes,
            requested: adjusted.then_some(&result.requested),
            adjustments: adjusted.then_some(&result.adjustments),
            truncated: result.truncated.as_ref(),
            cut_lines: &result.cut_lines,
            is_partial: result.is_partial,
            invalid_utf8: result.invalid_utf8.as_ref(),
            fingerprint: FingerprintMeta {
                modified_ns: result.fingerprint.modified_ns,
                content_hash: &result.fingerprint.content_hash,
            },
        }
    }

    /// Parses the JSON arguments of a call and answers it; an error's response is its
    /// message.
    pub fn respond(&self, args: impl crate::tool::JsonArgs) -> ToolResponse {
        match ReadFileParams::from_json(args).and_then(|p| self.call(&p)) {
            // The content moves into the text: a whole page is not copied again.
            Ok(mut r) => {
                let notes = ReadFile::notes(&r);
                ToolResponse::ok(with_notes(std::mem::take(&mut r.content), &notes))
            }
            Err(e) => ToolResponse::error(e.to_string()),
        }
    }
}

/// What the unified tool sends a host beside the text: the fields of a [`ReadResult`] a
/// host acts on, each only when it says something ([`ReadFile::metadata`]).
///
/// Left out, because the text or the caller already has them, or they follow from the
/// fields kept: `content` (the first text block), `path` (the caller's own argument),
/// `omitted` (its counts follow from `bytes`, `lines`, `file_size` and `total_lines`; its
/// summary and landmarks are the notes, the second text block), `percent_of_file`
/// (`bytes` over `file_size`) and the fingerprint's `file_size` (the same as
/// `file_size`). Left out when they hold their usual value: `requested` and
/// `adjustments` when the range was not adjusted, `truncated`, `total_lines`, `lines`,
/// `invalid_utf8` when null, `cut_lines` when empty, `bom` and `is_partial` when false,
/// `encoding_confidence` when 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadMetadata<'a> {
    /// The path that was opened, relative to the workspace root (the host's own
    /// layout stays private); as given when the tool has no workspace.
    pub resolved_path: String,
    /// Size of the file in bytes.
    pub file_size: u64,
    /// Lines in the file, when known (a read already counted them, or returned the
    /// whole file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<u64>,
    /// The file's encoding (the content is always UTF-8): what an edit writes back.
    pub encoding: &'a str,
    /// Whether the file starts with a byte order mark (an edit keeps it).
    #[serde(skip_serializing_if = "is_false")]
    pub bom: bool,
    /// How sure the encoding guess is, when less than certain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding_confidence: Option<f32>,
    /// How the returned lines end (what an edit writes back).
    pub line_ending: LineEnding,
    /// The lines returned, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<LineSpan>,
    /// The bytes returned, in file offsets.
    pub bytes: ByteSpan,
    /// The selection as asked, when the returned range differs from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<&'a Requested>,
    /// How the returned range differs from the request, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjustments: Option<&'a Adjustments>,
    /// Where to continue, when a budget stopped the read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<&'a Truncation>,
    /// Lines cut by the line-length budget, and where the rest of each starts.
    #[serde(skip_serializing_if = "<[CutLine]>::is_empty")]
    pub cut_lines: &'a [CutLine],
    /// Whether part of the file was left out.
    #[serde(skip_serializing_if = "is_false")]
    pub is_partial: bool,
    /// Invalid sequences replaced by U+FFFD, when there were any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_utf8: Option<&'a InvalidUtf8>,
    /// What identifies the state read, with `file_size`: for read-before-edit checks.
    pub fingerprint: FingerprintMeta<'a>,
}

/// The fingerprint of [`ReadMetadata`]: a [`crate::Fingerprint`] without its
/// `file_size`, which is [`ReadMetadata::file_size`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FingerprintMeta<'a> {
    /// Modification time in nanoseconds since the Unix epoch, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified_ns: Option<u64>,
    /// XXH3-64 of the returned bytes, as 16 hex digits.
    pub content_hash: &'a str,
}

/// `content`, then each note on a line of its own (after a line break if the content
/// does not end with one).
fn with_notes(mut out: String, notes: &[String]) -> String {
    for (i, note) in notes.iter().enumerate() {
        if i == 0 && !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(note);
        out.push('\n');
    }
    out
}

fn is_false(b: &bool) -> bool {
    !*b
}
