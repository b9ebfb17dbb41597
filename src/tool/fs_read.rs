//! `fs_read`: a byte range of a file as JSON, with what was asked, what came back, and
//! how the edges moved.
//!
//! ```
//! use rangeread::tool::fs_read::FsRead;
//!
//! let response = FsRead::new().respond(serde_json::json!({
//!     "path": "tests/data/sample.txt", "start_byte": 0, "end_byte": 8
//! }));
//! assert!(!response.is_error);
//! let json: serde_json::Value = serde_json::from_str(&response.text)?;
//! assert_eq!(json["content"], "rangerea");
//! assert_eq!(json["metadata"]["actual_range"], serde_json::json!({"start": 0, "end": 8}));
//! assert_eq!(json["metadata"]["is_partial"], true);
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::read::Reader;
use crate::result::{Adjustments, ByteSpan, InvalidUtf8, ReadResult, Truncation};
use crate::select::ByteSelection;
use crate::tool::args::{self, deserialize_via_args, Args, JsonArgs};
use crate::tool::{read_at, ToolResponse};
use crate::workspace::Workspace;

/// The tool's description, as served to models.
pub const DESCRIPTION: &str = "Read a byte range of a text file: bytes [start_byte, \
    end_byte) (0-based; defaults: the whole file), returned as JSON {content, metadata}. \
    UTF-8 character boundaries are respected: an edge inside a character moves to take the \
    whole character, and metadata.boundary_adjustments says which edge moved. Binary files \
    are refused with an error. metadata names the file's encoding and reports invalid \
    bytes (replaced by U+FFFD). At most 100 KiB come back per call; metadata.truncated \
    then gives next_start_byte to continue from.";

/// The parameters of `fs_read`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(deny_unknown_fields))]
pub struct FsReadParams {
    /// The file to read.
    pub path: String,
    /// First byte to read, 0-based. Defaults to 0. Moved back to the start of the
    /// character it falls in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_byte: Option<u64>,
    /// End of the range, exclusive. Defaults to the file size; clamped to it. Moved
    /// forward to the end of the character it falls in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_byte: Option<u64>,
}

deserialize_via_args!(FsReadParams);

impl FsReadParams {
    fn from_args(a: Args) -> Result<FsReadParams> {
        let (path, start_byte, end_byte) = a.path_and_range("path", "start_byte", "end_byte")?;
        Ok(FsReadParams {
            path,
            start_byte,
            end_byte,
        })
    }
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

/// The `fs_read` tool: bytes `[start_byte, end_byte)` of a file, snapped outward to
/// whole characters, within the reader's byte budget (100 KiB by default; over
/// it the response says where to continue in `metadata.truncated`). Errors respond
/// with their message, such as `Binary files are not supported. File detected as
/// image/png. Please use another tool or method to process this file.`
#[derive(Debug, Clone, Default)]
pub struct FsRead {
    reader: Reader,
    workspace: Option<Workspace>,
}

impl FsRead {
    /// The tool with the default budgets.
    pub fn new() -> FsRead {
        FsRead::default()
    }

    /// The tool reading through `reader` (its budgets and policies).
    pub fn with_reader(reader: Reader) -> FsRead {
        FsRead {
            reader,
            workspace: None,
        }
    }

    /// Resolves paths inside `workspace` (confined to its root, protected paths
    /// refused); by default they are opened as given.
    pub fn workspace(mut self, workspace: Workspace) -> FsRead {
        self.workspace = Some(workspace);
        self
    }

    /// Reads the range.
    ///
    /// # Errors
    ///
    /// Whatever [`Reader::read`] (or [`Reader::read_in`] with a workspace) returns for a
    /// byte selection.
    pub fn call(&self, params: &FsReadParams) -> Result<FsReadResponse> {
        let sel = ByteSelection::new(params.start_byte, params.end_byte);
        Ok(read_at(&self.reader, self.workspace.as_ref(), &params.path, sel)?.into())
    }

    /// Parses the JSON arguments of a call and answers it with the JSON response, or
    /// an error's message.
    pub fn respond(&self, args: impl JsonArgs) -> ToolResponse {
        self.respond_structured(args).0
    }

    /// [`FsRead::respond`], and for a successful call the response without its
    /// `content`, for MCP's `structuredContent` (the text has the content: it is sent
    /// once).
    ///
    /// ```
    /// use rangeread::tool::fs_read::FsRead;
    /// use rangeread::Workspace;
    ///
    /// let tool = FsRead::new().workspace(Workspace::new("tests/data")?);
    /// let (r, meta) = tool.respond_structured(r#"{"path": "sample.txt", "end_byte": 4}"#);
    /// assert!(r.text.starts_with(r#"{"content":"rang","metadata":{"#));
    /// let meta = meta.unwrap();
    /// assert!(meta.get("content").is_none() && meta["metadata"]["actual_range"]["end"] == 4);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn respond_structured(
        &self,
        args: impl JsonArgs,
    ) -> (ToolResponse, Option<serde_json::Value>) {
        let params = args::args_of(args).and_then(FsReadParams::from_args);
        match params.and_then(|p| self.call(&p)) {
            Ok(mut r) => {
                let (text, meta) = crate::tool::json_with_meta(&mut r, |r| &mut r.content);
                (ToolResponse::ok(text), meta)
            }
            Err(e) => (ToolResponse::error(e.to_string()), None),
        }
    }
}
