//! [`AnswerRecord`]: what an answer shows, as data, the same for every preset; the text
//! a preset sends is written from the same facts.

use serde::Serialize;

use crate::documents::DocumentRead;
use crate::error::{Error, ErrorKind};
use crate::images::Size;
use crate::result::{ByteSpan, CutLine, LineSpan, ReadResult, Truncation, TruncationReason};
use crate::tool::dialect::{Clip, ClipKeep, Dialect};
use crate::tool::render::documents::Doc;

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
    /// What the answer shows: lines of the file, a listing, an image ...
    pub kind: AnswerKind,
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
    /// Whether the lines in `cut_lines` were cut by the host's line-length budget, one
    /// the agent's own tool does not have: each then says in the answer how many bytes
    /// were left out and where the rest starts.
    pub host_line_budget: bool,
    /// The tool's own count of lines for a call that gives none (Codex's and Gemini
    /// CLI's 2,000 lines, Crush's 200), when it ended the answer before the end of the file:
    /// `truncated` then names a line limit of this count and where the next call starts.
    pub default_limit: Option<u64>,
    /// The file's line count as the answer's text states it, where the tool counts
    /// otherwise than `total_lines`: a tool that splits the text on `\n` (Gemini CLI, the
    /// MCP filesystem server) counts the empty line after a final line feed, so a file of
    /// 5,000 lines and a final newline is 5,001 lines in its text. `None`: the text
    /// states `total_lines`, or no count.
    pub tool_total_lines: Option<u64>,
    /// Whether the answer shows the empty line after the file's final line feed as a line
    /// of its own, numbered after the last of `lines` (a tool that splits the text on
    /// `\n`, at the end of the file; alone, for a call that asks for that line).
    pub empty_line: bool,
    /// The agent's own token cap, when it cut a whole-file read to a first page (Claude
    /// Code's Read): `lines` are the page, the next starts after it.
    pub token_cap: Option<TokenCut>,
    /// The tool's clip of its output ([`crate::tool::Output::clip`], OpenHands' 16,000
    /// characters), when it cut the text read: `lines` and `bytes` above are then what
    /// the kept head shows, whole lines only.
    pub clipped: Option<Clipped>,
    /// The first line asked for, when it lies past the end of the file and the answer
    /// says so without an error (a note, or nothing); `total_lines` says where the file
    /// ends. An error past the end is an `error` of kind `beyond_end`.
    pub past_end_start: Option<u64>,
    /// The entries of a listing, the pages of a PDF or the cells of a notebook shown,
    /// out of how many.
    pub parts: Option<Parts>,
    /// The image or file sent with the answer (its type and size, and an image's
    /// dimensions).
    pub media: Option<MediaRecord>,
    /// What went wrong, for an error answer.
    pub error: Option<ErrorRecord>,
}

/// What an answer shows ([`AnswerRecord::kind`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AnswerKind {
    /// Lines or bytes of the file's text.
    #[default]
    Text,
    /// A first line past the end of the file, answered without an error.
    PastEnd,
    /// A directory's entries.
    Listing,
    /// An image.
    Image,
    /// A PDF's pages (or its overview).
    Pages,
    /// A notebook's cells.
    Cells,
    /// A file sent whole (a PDF as some tools send it).
    File,
    /// A text about the file instead of its content: the outline of a file too large to
    /// show, or the tool's answer to a binary or oversized file.
    Note,
    /// An error (the record's `error` field).
    Error,
}

/// The parts of a listing or document an answer shows ([`AnswerRecord::parts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Parts {
    /// What is counted.
    pub unit: PartUnit,
    /// How many are shown.
    pub shown: u64,
    /// How many there are.
    pub total: u64,
    /// The first shown: a page from 1, a cell from 0 (`None` for a listing, or when none
    /// is shown).
    pub first: Option<u64>,
    /// The last shown.
    pub last: Option<u64>,
    /// Where to continue when the budget stopped the answer: the next page or cell.
    pub next: Option<u64>,
}

impl Parts {
    /// The parts numbered `shown` (pages, cells) of `total`, with the next to continue at.
    fn of(
        unit: PartUnit,
        shown: impl Iterator<Item = u64>,
        total: u64,
        next: Option<u64>,
    ) -> Parts {
        let mut parts = Parts {
            unit,
            shown: 0,
            total,
            first: None,
            last: None,
            next,
        };
        for i in shown {
            parts.shown += 1;
            parts.first = Some(parts.first.map_or(i, |f| f.min(i)));
            parts.last = Some(parts.last.map_or(i, |l| l.max(i)));
        }
        parts
    }
}

/// A token cap that cut a whole-file read to its first page ([`AnswerRecord::token_cap`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TokenCut {
    /// The estimated tokens of the whole text.
    pub tokens: u64,
    /// The cap, in tokens.
    pub max: u64,
}

/// A text cut by the tool's clip of its output ([`AnswerRecord::clipped`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Clipped {
    /// The most characters the tool shows.
    pub chars: u64,
    /// The characters of the text read, before the clip.
    pub total_chars: u64,
    /// Whether the middle was left out (head and tail kept), rather than the end.
    pub middle: bool,
    /// The lines of the read that the answer does not show whole: from the first line
    /// the clip reaches into to the last (for a middle cut, the line the tail starts in,
    /// when it starts inside one). Reading them (OpenHands' `view_range`) gives what the
    /// clip left out; `None` for a read that has no line numbers.
    pub left_out: Option<LineSpan>,
}

/// What [`Parts`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PartUnit {
    /// Entries of a directory listing.
    Entries,
    /// Pages of a PDF, from 1.
    Pages,
    /// Cells of a notebook, from 0.
    Cells,
}

/// An image or file sent with an answer ([`AnswerRecord::media`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MediaRecord {
    /// Its MIME type (`image/png` ...).
    pub mime: String,
    /// The bytes sent.
    pub bytes: u64,
    /// An image's size in the file.
    pub original: Option<Size>,
    /// An image's size as sent (smaller when it was scaled down).
    pub sent: Option<Size>,
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

/// The file's line count as a read knows it: counted, or, for a read that returned the
/// whole file, its last line (every line was counted on the way).
pub(crate) fn counted_total(r: &ReadResult) -> Option<u64> {
    r.total_lines.or(match (r.is_partial, r.lines) {
        (false, Some(l)) if r.truncated.is_none() => Some(l.end),
        _ => None,
    })
}

impl AnswerRecord {
    /// The record of a read; `host_budget`: the budget that cut it is the host's.
    pub(crate) fn read(r: &ReadResult, host_budget: bool) -> AnswerRecord {
        AnswerRecord {
            kind: AnswerKind::Text,
            lines: r.lines,
            bytes: Some(r.bytes),
            total_lines: counted_total(r),
            file_size: Some(r.file_size),
            cut_lines: r.cut_lines.clone(),
            is_partial: r.is_partial,
            truncated: r.truncated,
            host_budget: host_budget && r.truncated.is_some(),
            ..AnswerRecord::default()
        }
    }

    /// The record of a read as `d` shows it: cut further by the dialect's clip, if it
    /// has one and the text is longer.
    pub(crate) fn shown(d: &Dialect, r: &ReadResult, host_budget: bool) -> AnswerRecord {
        let record = AnswerRecord::read(r, host_budget);
        match &d.output.clip {
            Some(clip) => record.clip(&r.content, clip),
            None => record,
        }
    }

    /// This record of a read of `content`, cut at `clip`'s characters.
    fn clip(mut self, content: &str, clip: &Clip) -> AnswerRecord {
        let limit = usize::try_from(clip.chars).unwrap_or(usize::MAX);
        let Some((at, _)) = content.char_indices().nth(limit) else {
            return self;
        };
        let lfs = |upto: usize| crate::text::line_feeds(&content.as_bytes()[..upto]).count() as u64;
        // The lines the head ends in and the tail starts in (a tail at a line start shows
        // that line whole).
        let (head_end, tail_start) = match clip.keep {
            ClipKeep::HeadAndTail => {
                crate::text::middle_cut_at(content, limit, clip.notice.chars().count())
                    .unwrap_or((at, content.len()))
            }
            _ => (at, content.len()),
        };
        let left_out = self.lines.and_then(|l| {
            let first = l.start + lfs(head_end);
            let tail_line = l.start + lfs(tail_start);
            let last = if tail_start == content.len() {
                l.end
            } else if tail_start > 0 && crate::text::starts_line(content, tail_start) {
                tail_line - 1
            } else {
                tail_line
            };
            (first <= last).then_some(LineSpan {
                start: first,
                end: last.min(l.end),
            })
        });
        self.clipped = Some(Clipped {
            chars: clip.chars,
            total_chars: content.chars().count() as u64,
            middle: clip.keep == ClipKeep::HeadAndTail,
            left_out,
        });
        self.is_partial = true;
        if clip.keep == ClipKeep::HeadAndTail {
            return self;
        }
        // The whole lines of the head kept; the clip, not the read's budget, ends it.
        let whole = content[..at].rfind('\n').map_or(0, |i| i + 1);
        let count = crate::text::line_feeds(&content.as_bytes()[..whole]).count() as u64;
        self.lines = self.lines.filter(|_| count > 0).map(|l| LineSpan {
            start: l.start,
            end: l.start + count - 1,
        });
        // Bytes of the file only where the text is the file's bytes (UTF-8, as read).
        self.bytes = self
            .bytes
            .filter(|b| b.end - b.start == content.len() as u64)
            .map(|b| ByteSpan {
                start: b.start,
                end: b.start + whole as u64,
            });
        let end = self.lines.map_or(0, |l| l.end);
        self.cut_lines.retain(|c| c.line <= end);
        self.truncated = None;
        self.host_budget = false;
        self
    }

    /// This record of a read that asked for the tool's own default count of `n` lines:
    /// when the count, not the end of the file, ended it, the record names the count as
    /// the cut and says where to continue (a read cut otherwise already says so).
    pub(crate) fn default_cut(mut self, n: u64) -> AnswerRecord {
        let (Some(l), Some(b), Some(size)) = (self.lines, self.bytes, self.file_size) else {
            return self;
        };
        let cut = self.truncated.is_none() && self.clipped.is_none() && self.token_cap.is_none();
        if !cut || l.end + 1 - l.start != n || b.end >= size {
            return self;
        }
        self.default_limit = Some(n);
        self.truncated = Some(Truncation {
            reason: TruncationReason::MaxLines,
            limit: n,
            next_start_byte: b.end,
            next_start_line: Some(l.end + 1),
        });
        self
    }

    /// The record of an answer that shows no lines of the file.
    pub(crate) fn of(kind: AnswerKind) -> AnswerRecord {
        AnswerRecord {
            kind,
            ..AnswerRecord::default()
        }
    }

    /// The record of a first line `start` past the end of a file of `total` lines,
    /// answered without an error.
    pub(crate) fn past_end(start: u64, total: u64) -> AnswerRecord {
        AnswerRecord {
            past_end_start: Some(start),
            total_lines: Some(total),
            ..AnswerRecord::of(AnswerKind::PastEnd)
        }
    }

    /// The record of a listing that shows `shown` of a directory's `total` entries.
    pub(crate) fn listing(shown: u64, total: u64) -> AnswerRecord {
        AnswerRecord {
            is_partial: shown < total,
            parts: Some(Parts {
                unit: PartUnit::Entries,
                shown,
                total,
                first: None,
                last: None,
                next: None,
            }),
            ..AnswerRecord::of(AnswerKind::Listing)
        }
    }

    /// The record of a document answer: an image, PDF pages, notebook cells, a file
    /// sent whole.
    pub(crate) fn document(doc: &Doc) -> AnswerRecord {
        let read = match doc {
            Doc::Raw { mime, data, .. } => {
                let bytes = data.len() as u64;
                return AnswerRecord {
                    file_size: Some(bytes),
                    media: Some(MediaRecord {
                        mime: mime.clone(),
                        bytes,
                        original: None,
                        sent: None,
                    }),
                    ..AnswerRecord::of(AnswerKind::File)
                };
            }
            Doc::Read(read) => read.as_ref(),
        };
        match read {
            DocumentRead::Text(r) => AnswerRecord::read(r, false),
            DocumentRead::Image(i) => AnswerRecord {
                file_size: Some(i.file_size),
                media: Some(MediaRecord {
                    mime: i.mime.clone(),
                    bytes: i.bytes,
                    original: Some(i.original),
                    sent: Some(i.sent),
                }),
                ..AnswerRecord::of(AnswerKind::Image)
            },
            DocumentRead::Pdf(p) => {
                let parts = Parts::of(
                    PartUnit::Pages,
                    p.pages.iter().map(|page| page.page),
                    p.page_count,
                    p.truncated.as_ref().map(|t| t.next_page),
                );
                AnswerRecord {
                    file_size: Some(p.file_size),
                    is_partial: parts.shown < parts.total || p.pages.iter().any(|x| x.cut),
                    parts: Some(parts),
                    ..AnswerRecord::of(AnswerKind::Pages)
                }
            }
            DocumentRead::Notebook(n) => {
                let parts = Parts::of(
                    PartUnit::Cells,
                    n.cells.iter().map(|c| c.index),
                    n.cell_count,
                    n.truncated.as_ref().map(|t| t.next_cell),
                );
                AnswerRecord {
                    file_size: Some(n.file_size),
                    is_partial: parts.shown < parts.total,
                    parts: Some(parts),
                    ..AnswerRecord::of(AnswerKind::Cells)
                }
            }
        }
    }

    /// The record of an error answer, with the message it shows.
    pub(crate) fn error(e: &Error, message: &str) -> AnswerRecord {
        let values = e.values();
        let number = |name: &str| values.get(name).and_then(serde_json::Value::as_u64);
        // What the error knows of the file, where a read's record has it.
        let (total_lines, file_size) = (number("total_lines"), number("file_size"));
        AnswerRecord {
            kind: AnswerKind::Error,
            total_lines,
            file_size,
            error: Some(ErrorRecord {
                kind: e.kind(),
                parameter: e.parameter().map(str::to_string),
                path: e.path().map(|p| p.to_string_lossy().into_owned()),
                values,
                message: message.to_string(),
            }),
            ..AnswerRecord::default()
        }
    }
}
