//! The answers of the tools that reply in JSON, and what the unified `read_file` sends a
//! host beside its text: plain data, serde-serializable, built from a [`ReadResult`].

use serde::{Deserialize, Serialize};

use crate::result::{
    Adjustments, ByteSpan, CutLine, InvalidUtf8, LineEnding, LineSpan, ReadResult, Requested,
    Truncation,
};

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

/// The response of `fs_read`: `{content, metadata}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FsReadResponse {
    /// The text of the bytes returned.
    pub content: String,
    /// What was returned.
    pub metadata: FsReadMetadata,
}

/// The `metadata` of an `fs_read` response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FsReadMetadata {
    /// Size of the file in bytes.
    pub file_size: u64,
    /// The range as asked, defaults filled in, before clamping and snapping.
    pub requested_range: ByteSpan,
    /// The range returned.
    pub actual_range: ByteSpan,
    /// Whether each side moved to a character boundary, and whether the end was clamped.
    pub boundary_adjustments: Adjustments,
    /// Whether anything of the file was left out.
    pub is_partial: bool,
    /// Share of the file returned, in percent (one decimal).
    pub percent_of_file: f64,
    /// Set when the byte budget cut the range: continue from `next_start_byte`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<Truncation>,
    /// The encoding the file was decoded from (`utf-8`, `utf-16le`, `windows-1252`,
    /// ...); `content` is always UTF-8.
    pub encoding: String,
    /// Invalid byte sequences in the range (each replaced by one U+FFFD in `content`);
    /// 0 when every byte was valid in `encoding`.
    pub invalid_sequences: u64,
    /// Set when invalid bytes were replaced: how many and where the first is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_utf8: Option<InvalidUtf8>,
}

impl From<ReadResult> for FsReadResponse {
    fn from(r: ReadResult) -> FsReadResponse {
        FsReadResponse {
            metadata: FsReadMetadata {
                file_size: r.file_size,
                requested_range: r.requested.bytes.unwrap_or(r.bytes),
                actual_range: r.bytes,
                boundary_adjustments: r.adjustments,
                is_partial: r.is_partial,
                percent_of_file: r.percent_of_file,
                truncated: r.truncated,
                encoding: r.encoding,
                invalid_sequences: r.invalid_utf8.map_or(0, |i| i.count),
                invalid_utf8: r.invalid_utf8,
            },
            content: r.content,
        }
    }
}

/// What the unified tool sends a host beside the text: the fields of a [`ReadResult`] a
/// host acts on, each only when it says something (the unified `read_file` preset).
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
    /// XXH3-64 of the returned bytes, as 16 hex digits (made for the metadata:
    /// [`crate::ReadResult::fingerprint`]).
    pub content_hash: std::borrow::Cow<'a, str>,
}

fn is_false(b: &bool) -> bool {
    !*b
}
