//! The configuration of reads: what a [`crate::Reader`] hands to every
//! [`crate::Document`] it opens.

use serde::{Deserialize, Serialize};

use crate::budget::{Budget, Limit};
use crate::decode::Utf8Policy;
use crate::index::DEFAULT_BLOCK_SIZE;

/// When a read pays for counting the lines of the whole file.
///
/// Counting is one SIMD pass over the bytes not yet indexed, kept in the index for later
/// reads of the same [`Document`](crate::Document).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Totals {
    /// Line selections report `total_lines` and absolute line numbers (counting if
    /// needed); byte selections report them only when the index already covers them.
    /// The default.
    #[default]
    Auto,
    /// Never scan for totals: report them only when already known (the line index has
    /// counted the file, or the read returned its whole text and so counted it). Head,
    /// tail and byte reads then touch only the bytes they return (plus a truncation
    /// point's numbers, which are always exact).
    IfKnown,
    /// Always report totals and line numbers, for byte selections too.
    Always,
}

/// How a reader decides what a file's content is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detection {
    /// Classify the first 8 KiB (see [`crate::classify`]): binary files are refused with
    /// [`Error::Binary`](crate::Error::Binary), UTF-16/32 and legacy encodings are decoded. The default.
    #[default]
    Auto,
    /// Treat every file as UTF-8 text without looking: nothing is refused as binary, and
    /// invalid sequences follow the [`Utf8Policy`]. For hosts that classify themselves, or
    /// that want the bytes of a file whatever they are.
    AssumeUtf8,
    /// As [`Detection::Auto`], except that a NUL byte in a sample without a UTF-16 or
    /// UTF-32 byte order mark always means binary: no UTF-16 is guessed from the pattern
    /// of its zero bytes. What Goose, agentwerk and `file` do (a file without a mark is
    /// never UTF-16 to them).
    NulMeansBinary,
    /// Go by the byte order mark alone: UTF-16 and UTF-32 with one are decoded, anything
    /// else is UTF-8 (a UTF-8 mark skipped) with invalid sequences by the [`Utf8Policy`];
    /// nothing is refused as binary and no legacy encoding is guessed. Claude Code's Read
    /// reads files so (a Latin-1 `é` becomes U+FFFD, NUL bytes stay in the text).
    ByteOrderMark,
}

/// What a read answers when its range starts past the end of the file
/// ([`Reader::past_end`](crate::Reader::past_end)).
///
/// The presets of [`crate::tool`] have a richer policy of their own (a note, a message in
/// the peer's words): `tool::PastEndAnswer`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PastEnd {
    /// [`Error::LineBeyondEnd`](crate::Error::LineBeyondEnd) or
    /// [`Error::ByteBeyondEnd`](crate::Error::ByteBeyondEnd), with the file's line count
    /// or size: what the behaviour contract says. The default.
    #[default]
    Error,
    /// An empty result at the end of the file: `content` empty, `lines: None`, `bytes`
    /// the empty span at the file's size, `total_lines` set (a line read counted them),
    /// `adjustments.end_clamped: true`, and `requested` as asked. What rust-mcp-filesystem,
    /// forge and agentwerk answer.
    Empty,
}

/// What an outline ([`Document::outline`](crate::Document::outline)) lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutlineDetail {
    /// The landmarks: definitions, headings, section headers. The default.
    #[default]
    Definitions,
    /// The landmarks and, under the types that have them, their members: a Rust
    /// struct's named fields and an enum's variants (and a struct-like variant's fields),
    /// a Go struct's named fields, each with its name (`pub a`, `Some`, `A, B`) and the
    /// lines it spans, one level deeper than its type. What an editor's symbol outline
    /// lists; Zed's `read_file` answers a large file with it.
    Members,
}

/// The configuration of reads, shared by a reader and its documents.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Config {
    pub budget: Budget,
    pub utf8: Utf8Policy,
    pub detection: Detection,
    pub totals: Totals,
    pub block_size: u64,
    pub retries: u32,
    pub summaries: bool,
    pub max_landmarks: Limit,
    pub landmark_window: Limit,
    pub outline_max_bytes: Limit,
    pub outline_detail: OutlineDetail,
    pub max_scan_bytes: Limit,
    pub threads: usize,
    pub past_end: PastEnd,
    /// Which of the settings a tool's dialect also makes were set on the reader by its
    /// host: those win over the dialect's, the others are the dialect's.
    pub set: Explicit,
}

/// The settings of a reader its host set explicitly (see [`Config::set`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Explicit {
    pub max_lines: bool,
    pub max_bytes: bool,
    pub max_line_chars: bool,
    pub detection: bool,
    pub utf8: bool,
    pub totals: bool,
}

/// Default number of landmarks in an omitted-content summary.
pub const DEFAULT_MAX_LANDMARKS: u64 = 40;

/// Default number of bytes looked at for landmarks on each side of a read (256 KiB).
pub const DEFAULT_LANDMARK_WINDOW: u64 = 256 * 1024;

/// Default number of bytes an outline looks at (16 MiB).
pub const DEFAULT_OUTLINE_MAX_BYTES: u64 = 16 << 20;

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: Budget::default(),
            utf8: Utf8Policy::Lossy,
            detection: Detection::Auto,
            totals: Totals::Auto,
            block_size: DEFAULT_BLOCK_SIZE,
            retries: 3,
            summaries: true,
            max_landmarks: Limit::new(DEFAULT_MAX_LANDMARKS),
            landmark_window: Limit::new(DEFAULT_LANDMARK_WINDOW),
            outline_max_bytes: Limit::new(DEFAULT_OUTLINE_MAX_BYTES),
            outline_detail: OutlineDetail::Definitions,
            max_scan_bytes: Limit::new(0),
            threads: default_threads(),
            past_end: PastEnd::Error,
            set: Explicit::default(),
        }
    }
}

/// The threads a first long count may use by default: what the host allows, at most 4
/// (beyond that the page cache, not the CPU, is the limit).
pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}
