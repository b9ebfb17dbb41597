//! The configuration of reads: what a [`crate::Reader`] hands to every
//! [`crate::Document`] it opens.

use serde::{Deserialize, Serialize};

use crate::fsopen::SpecialFiles;

use crate::budget::{Budget, Limit};
use crate::decode::{CodecTables, Utf8Policy};
use crate::index::DEFAULT_BLOCK_SIZE;
use crate::text::Encoding;

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
    /// As [`Detection::Auto`], except that a NUL byte in the sample (the first 8 KiB)
    /// without a UTF-16 or UTF-32 byte order mark always means binary: no UTF-16 is
    /// guessed from the pattern of its zero bytes. What Goose and `file` do (a file
    /// without a mark is never UTF-16 to them). Only the sample is looked at: a NUL byte
    /// further on is read as text and stays in `content`.
    NulMeansBinary,
    /// Go by the byte order mark alone: UTF-16 and UTF-32 with one are decoded, anything
    /// else is UTF-8 (a UTF-8 mark skipped) with invalid sequences by the [`Utf8Policy`];
    /// nothing is refused as binary and no legacy encoding is guessed. Claude Code's Read
    /// reads files so (a Latin-1 `é` becomes U+FFFD, NUL bytes stay in the text).
    ByteOrderMark,
    /// As [`Detection::ByteOrderMark`], but only UTF-8's mark and UTF-16LE's (`FF FE`)
    /// are read: a file starting `FE FF` (UTF-16BE) is UTF-8, its mark's bytes shown as
    /// U+FFFD. Claude Code 2.1.332's Read reads files so.
    #[serde(rename = "utf16le_mark")]
    Utf16LeMark,
    /// Only a magic number makes a file binary (an image, an archive, an executable ...
    /// that `infer` knows); NUL and control bytes do not, and the text's encoding is
    /// found as [`Detection::Auto`] finds it (a sample with NUL bytes and no UTF-16
    /// pattern is UTF-8). What forge does (`infer` on the first bytes, then the content
    /// as a string).
    MagicOnly,
}

/// Which encoding a text file is decoded in ([`Reader::encoding`](crate::Reader::encoding)).
///
/// Decoders are always built in: this is a run-time choice, never a Cargo feature, so
/// that another crate in the build cannot change what a host reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EncodingPolicy {
    /// Found from the content: a byte order mark, UTF-16 by its zero bytes, UTF-8, else
    /// the legacy encoding `chardetng` guesses (windows-1252, Shift_JIS, GBK ...). The
    /// default.
    #[default]
    Detect,
    /// As [`EncodingPolicy::Detect`], but no legacy encoding is guessed: text that is
    /// not UTF-8, UTF-16 or UTF-32 is read as UTF-8 with its invalid sequences replaced
    /// (`import os\xff` is `import os\u{FFFD}`, with `invalid_utf8` set), as Python's
    /// `errors="replace"` and most agents read it.
    NoLegacy,
    /// As [`EncodingPolicy::Detect`], but a sample that is valid UTF-8 is UTF-8 even
    /// when its zero bytes look like UTF-16 without a byte order mark: zero bytes are
    /// valid UTF-8, so `\0a\0b` (UTF-16BE of `ab`) is the text `\u{0}a\u{0}b`, NULs
    /// between the letters and a line end at each `0A` byte. What the OpenHands SDK's
    /// editor answers: it decodes the first MiB as UTF-8 before any guess (the sample
    /// here is the first 8 KiB). UTF-16 that is not valid UTF-8 (a byte order mark, a
    /// letter outside ASCII) is still found by its zero bytes.
    Utf8First,
    /// Every file is text in this encoding (the host decided): nothing is classified and
    /// nothing refused as binary; a byte order mark of this encoding is skipped.
    Forced(Encoding),
}

impl EncodingPolicy {
    /// The policy named `name`: `detect`, `no_legacy`, `utf8_first`, or an encoding's label
    /// (`utf-8`, `utf-16le`, `windows-1252`, `latin1`, `shift_jis` ..., as
    /// [`Encoding::for_label`] reads it).
    pub fn from_name(name: &str) -> Option<EncodingPolicy> {
        match name {
            "detect" => Some(EncodingPolicy::Detect),
            "no_legacy" => Some(EncodingPolicy::NoLegacy),
            "utf8_first" => Some(EncodingPolicy::Utf8First),
            label => Encoding::for_label(label).map(EncodingPolicy::Forced),
        }
    }

    /// The name [`EncodingPolicy::from_name`] reads: `detect`, `no_legacy`, `utf8_first`, or the
    /// forced encoding's name.
    pub fn name(&self) -> &'static str {
        match self {
            EncodingPolicy::Detect => "detect",
            EncodingPolicy::NoLegacy => "no_legacy",
            EncodingPolicy::Utf8First => "utf8_first",
            EncodingPolicy::Forced(e) => e.name(),
        }
    }
}

impl Serialize for EncodingPolicy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for EncodingPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        EncodingPolicy::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown encoding policy {name:?}: detect, no_legacy, utf8_first, or an encoding's label (utf-8, utf-16le, windows-1252 ...)"
            ))
        })
    }
}

/// Where a NUL byte makes a file binary ([`Reader::nul_bytes`](crate::Reader::nul_bytes)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NulBytes {
    /// In the first 8 KiB, the classification sample (unless they form a UTF-16
    /// pattern): later NUL bytes stay in the text as U+0000. The default.
    #[default]
    InSample,
    /// Anywhere in what is read, too: a read whose text holds a U+0000 fails with
    /// [`Error::Binary`](crate::Error::Binary), and [`Reader::classify_file`](crate::Reader::classify_file) looks at the whole
    /// file. What agentwerk does (it checks the whole file it reads).
    InRead,
}

/// Whether control bytes make a file binary ([`Reader::control_bytes`](crate::Reader::control_bytes)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlBytes {
    /// A sample with more than [`MAX_CONTROL_SHARE`](crate::MAX_CONTROL_SHARE) of disallowed
    /// control bytes (BEL, VT, `^A` ...) is binary. The default.
    #[default]
    Share,
    /// Control bytes never make a file binary: a short file of BEL and VT bytes is text.
    /// (binaryornot, which OpenHands uses, tolerates them among text but refuses a
    /// sample of little else: [`ControlBytes::SampleShares`].)
    Tolerated,
    /// One control byte from `0x00` to `0x08` or `0x0E` to `0x1F` (BEL, ESC, `^A` ...;
    /// not tab, line feed, VT, FF, CR) in the first [`CONTROL_HEAD`](crate::CONTROL_HEAD)
    /// bytes makes a file binary; later ones are text. What the OpenHands SDK's editor
    /// answers: binaryornot 0.6 calls such a head binary and the editor then refuses
    /// any text with a control character in it.
    InHead,
    /// The first [`SHARES_SAMPLE`](crate::SHARES_SAMPLE) bytes (1,024) decide by two
    /// shares, as binaryornot 0.4.4 (OpenHands) does: of the bytes outside printable
    /// ASCII (tab, LF, CR, FF and backspace count as printable) and of those outside
    /// `0x7F..=0xFF`. Over 30% and under 5%, or over 80% and over 80%, is binary unless
    /// the sample decodes whole under a confident guess; so is a sample with a NUL byte,
    /// and one with an `0xFF` byte after a byte order mark. Control bytes are tolerated
    /// otherwise, and NUL bytes judged by this rule alone (past byte 1,024 they are
    /// text). A confident guess is what chardet 5.2.0 names over 0.9 and can be stated:
    /// a byte order mark's encoding (UTF-8, UTF-16, UTF-32), or UTF-8 with at least four
    /// 2- or 3-byte characters and no 4-byte one and no ESC, SO or SI (its UTF-8 prober
    /// refuses those). An `0xFF` byte without a mark is binary too unless the sample is
    /// Cyrillic (windows-1251's `я`, KOI8-R's `Ъ`): of the legacy encodings with a
    /// character at `0xFF`, chardet is that sure only of the Cyrillic ones (its Latin-1
    /// prober scales its confidence by 0.73). Its other legacy guesses are not modelled:
    /// a sample under 5% ASCII that is not UTF-8 is binary. Valid UTF-8 of emoji or CJK without ASCII is binary when byte
    /// 1,024 falls inside a character or an emoji is in it, as to binaryornot.
    SampleShares,
    /// The first [`SUSPICIOUS_SAMPLE`](crate::SUSPICIOUS_SAMPLE) bytes (512) decide, as
    /// the `isbinaryfile` package (5.0.7, Gemini CLI's) does: a NUL byte among them, or
    /// more than 10% of them suspicious (a control byte other than BEL to SO, or a byte
    /// of `0x80` and over outside a UTF-8 sequence), is binary; a byte order mark is text
    /// at once. Legacy text is binary when more than a tenth of its first 512 bytes are
    /// not ASCII; a NUL byte past them, or control bytes past them, are text. Its look
    /// for a Protocol Buffers message is not modelled.
    SuspiciousShare,
}

/// How line ends reach `content` ([`Reader::line_endings`](crate::Reader::line_endings)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineEndings {
    /// As the file has them: a CR LF stays a CR LF. The default, and what the contract
    /// promises for data.
    #[default]
    Keep,
    /// Each CR LF becomes an LF in `content`, as Gemini CLI and OpenHands show text (a
    /// lone CR stays). Offsets stay file offsets: `bytes`, `next_start_byte` and the
    /// cut lines' byte counts count the CRs, so `content` can be shorter than `bytes`;
    /// the byte budget counts the text before the CRs are dropped, so the pages are the
    /// same as with [`LineEndings::Keep`]. `line_ending` still reports the file's.
    Lf,
    /// Universal newlines: a line ends at CR LF, at LF, and at a lone CR (one not
    /// followed by LF), and each of them is an LF in `content`. What Python's `open()`
    /// in text mode reads (`newline=None`), so what OpenHands shows: the lines are those
    /// of `str.splitlines()` restricted to `\r\n`, `\r` and `\n`. A lone CR is then a
    /// line break everywhere: `total_lines`, line selections, the budgets, the
    /// continuations and the renderers count it as one. Offsets stay file offsets (a
    /// lone CR and the LF it becomes are the same width in every encoding).
    ///
    /// One option rather than a lone-CR switch beside [`LineEndings::Keep`]: no agent
    /// breaks lines at a lone CR and shows the CR, and the break and the translation are
    /// one rule in Python. The file is read through a view that rewrites its lone CRs
    /// (positional reads, one thread, and no cached index: a shared cache's index
    /// counts lone CRs as content). `line_ending` reports the ends as read, a lone CR as
    /// an LF, and the fingerprint's `content_hash` hashes the text returned.
    Universal,
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
    /// `adjustments.end_clamped: true`, and `requested` as asked. What rust-mcp-filesystem
    /// and agentwerk answer (forge's `forge_fs` fails instead, as [`PastEnd::Error`] does,
    /// and forge's `read` tool answers its last line).
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
    pub tables: CodecTables,
    pub judge: Judge,
    pub line_endings: LineEndings,
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
    pub special_files: SpecialFiles,
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
    pub line_unit: bool,
    pub detection: bool,
    pub encoding: bool,
    pub nul_bytes: bool,
    pub control_bytes: bool,
    pub invalid_utf8_binary: bool,
    pub utf8: bool,
    pub tables: bool,
    pub totals: bool,
    pub line_endings: bool,
}

/// How content is judged text or binary, and in which encoding: the settings
/// classification runs with.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Judge {
    pub detection: Detection,
    pub encoding: EncodingPolicy,
    pub nul_bytes: NulBytes,
    pub control_bytes: ControlBytes,
    /// A sample without a byte order mark with more than this share of invalid UTF-8
    /// sequences (per byte) is binary.
    pub invalid_utf8_binary: Option<f64>,
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
            tables: CodecTables::Whatwg,
            judge: Judge::default(),
            line_endings: LineEndings::Keep,
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
            special_files: SpecialFiles::NeverRead,
            set: Explicit::default(),
        }
    }
}

/// The threads a first long count may use by default: what the host allows, at most 4
/// (beyond that the page cache, not the CPU, is the limit).
pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}
