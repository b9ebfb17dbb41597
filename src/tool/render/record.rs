//! [`AnswerRecord`]: what an answer shows, as data, the same for every preset; the text
//! a preset sends is written from the same facts.

use serde::Serialize;

use crate::error::{Error, ErrorKind};
use crate::result::{ByteSpan, CutLine, LineSpan, ReadResult, Truncation};

/// What an answer showed, whether and where it was cut and by which budget, or what
/// went wrong: the same shape for every preset ([`crate::tool::ToolResponse::record`]),
/// for a host that fills fields of its own (lines shown, the file's line count, whether
/// it was cut) or raises exceptions of its own, without reading the text.
///
/// ```
/// use rangeread::tool::{Dialect, DialectTool};
/// use rangeread::Reader;
///
/// let tool = DialectTool::new(Dialect::preset("gemini")?).reader(Reader::new().max_lines(2));
/// let r = tool.respond(r#"{"file_path": "tests/data/sample.txt"}"#);
/// let record = r.record.expect("every answer has one");
/// assert_eq!(record.lines.map(|l| (l.start, l.end)), Some((1, 2)));
/// let cut = record.truncated.expect("cut by the host's line budget");
/// assert_eq!((cut.limit, cut.next_start_line), (2, Some(3)));
/// assert!(record.host_budget);
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct AnswerRecord {
    /// The lines shown, 1-based and inclusive (`None`: no line was shown, or a byte
    /// read whose lines were not counted).
    pub lines: Option<LineSpan>,
    /// The bytes of the file the answer shows (file offsets, end exclusive).
    pub bytes: Option<ByteSpan>,
    /// The file's line count, when it was counted.
    pub total_lines: Option<u64>,
    /// The file's size in bytes.
    pub file_size: Option<u64>,
    /// The lines shown only in part (cut at the line-length budget), with where the
    /// rest of each starts.
    pub cut_lines: Vec<CutLine>,
    /// Whether part of the file was left out.
    pub is_partial: bool,
    /// The budget that cut the answer (`reason`, `limit`) and where to continue
    /// (`next_start_line`, or `next_start_byte` inside a line); `None`: not cut.
    pub truncated: Option<Truncation>,
    /// Whether the budget that cut the answer is the host's, one the agent's own tool
    /// does not have (the answer then says where to continue all the same).
    pub host_budget: bool,
    /// What went wrong, for an error answer.
    pub error: Option<ErrorRecord>,
}

/// An error as data (the `error` of an [`AnswerRecord`]): its kind, the parameter and path it
/// concerns, and its values.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ErrorRecord {
    /// What kind of error ([`Error::kind`]; `beyond_end`, `not_found` ...).
    pub kind: ErrorKind,
    /// The parameter at fault, as the caller spelled it ([`Error::parameter`]).
    pub parameter: Option<String>,
    /// The path it concerns, as the caller gave it ([`Error::path`]).
    pub path: Option<String>,
    /// The error's values by name ([`Error::values`]: `start`, `total_lines` ...).
    pub values: serde_json::Map<String, serde_json::Value>,
    /// The message the answer shows.
    pub message: String,
}

impl AnswerRecord {
    /// The record of a read; `host_budget`: the budget that cut it is the host's.
    pub(crate) fn read(r: &ReadResult, host_budget: bool) -> AnswerRecord {
        AnswerRecord {
            lines: r.lines,
            bytes: Some(r.bytes),
            total_lines: r.total_lines.or(match (r.is_partial, r.lines) {
                // A read that returned the whole file has counted every line.
                (false, Some(l)) if r.truncated.is_none() => Some(l.end),
                _ => None,
            }),
            file_size: Some(r.file_size),
            cut_lines: r.cut_lines.clone(),
            is_partial: r.is_partial,
            truncated: r.truncated,
            host_budget: host_budget && r.truncated.is_some(),
            error: None,
        }
    }

    /// The record of an answer that shows no lines of the file (a listing, a note).
    pub(crate) fn empty() -> AnswerRecord {
        AnswerRecord::default()
    }

    /// The record of an error answer, with the message it shows.
    pub(crate) fn error(e: &Error, message: &str) -> AnswerRecord {
        AnswerRecord {
            error: Some(ErrorRecord {
                kind: e.kind(),
                parameter: e.parameter().map(str::to_string),
                path: e.path().map(|p| p.to_string_lossy().into_owned()),
                values: e.values(),
                message: message.to_string(),
            }),
            ..AnswerRecord::default()
        }
    }
}
