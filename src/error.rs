//! The one error type of the crate.
//!
//! Every variant is something a caller can act on, and its `Display` text is the message
//! of the behaviour contract (`docs/contract.md`), so a tool wrapper can hand it to a
//! model as is.
//!
//! Every path (and every caller-supplied identifier) in a message is escaped by one
//! function, [`escaped`]: it is quoted, and control characters, quotes, backslashes and
//! bytes that are not UTF-8 are written as escapes (`\u{1b}`, `\n`, `\"`, `\xE9`), so no
//! message can move a terminal's cursor or fake a line of a model's input.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

mod values;

/// A `Result` whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while reading a part of a file.
///
/// The `Display` text of each variant is stable and part of the crate's contract.
/// [`Error::kind`] gives a short machine-readable name for each variant.
///
/// Every number a variant carries is an `i64` (an `Option` where a value may be absent):
/// counts, sizes, offsets, pixels, and line numbers both as the read resolved them and as
/// the caller gave them, which may count from the end (`-1` is the last line, as in
/// [`crate::RequestedLines`]). One type, so a host converts them one way; a file's size
/// and offset fit (a file is under 2^63 bytes).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The path does not exist.
    #[error("File not found: {}", escaped(.path))]
    NotFound {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// The path names a directory.
    #[error("Path is a directory: {}", escaped(.path))]
    IsDirectory {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// The operating system refused to open the file.
    #[error("Permission denied: {}", escaped(.path))]
    PermissionDenied {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// A FIFO, socket or device: reading it could block or never end.
    #[error("Not a regular file ({kind}): {}", escaped(.path))]
    NotRegularFile {
        /// The path as the caller gave it.
        path: PathBuf,
        /// What the file is instead.
        kind: FileKind,
    },
    /// Another process truncated, rewrote or grew the file while it was being read,
    /// and no consistent result could be produced.
    #[error("File changed while reading: {}", escaped(.path))]
    Changed {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// Answering needed more scanning than the per-call scan budget allows
    /// ([`crate::Reader::max_scan_bytes`]): the line numbers of a deep read, or the totals,
    /// of a file too large to count within one call.
    #[error(
        "{} Ask for a byte range (start_byte) or the last lines (tail) instead, which need \
         no count; or call again: {SCAN_CONTINUES}",
        scan_stopped(.path, *.budget, *.scanned, *.file_size)
    )]
    ScanBudget {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The budget, in bytes per call.
        budget: i64,
        /// How far the line count has got (a file offset).
        scanned: i64,
        /// The file's size.
        file_size: i64,
    },
    /// A line number of 0 was given; lines are 1-indexed. Kind [`ErrorKind::ZeroLine`].
    #[error("{field} (0) is invalid: lines are 1-indexed")]
    ZeroLine {
        /// The parameter that was 0 (`start_line`, `end_line`, `line`, `anchor_line`).
        field: &'static str,
        /// The first line asked for, as given (`Some(0)` when it is the zero; `None` when
        /// the selection had no start, or is a single line such as `line`; negative:
        /// counted from the end, as a selection may count).
        start: Option<i64>,
        /// The last line asked for, as given (`Some(0)` when it is the zero; `None` when
        /// the selection had no end: a range open at the end, an offset and a limit, a
        /// single line; negative: counted from the end).
        end: Option<i64>,
    },
    /// A line range whose start lies after its end. Kind [`ErrorKind::StartAfterEnd`].
    #[error("Invalid range specified: {parameter} ({start}) is greater than end_line ({end}).")]
    LineStartAfterEnd {
        /// The first line asked for (negative: counted from the end).
        start: i64,
        /// The last line asked for (negative: counted from the end).
        end: i64,
        /// The parameter of the start, as the caller spelled it (`start_line`, or a
        /// tool's own name for it).
        parameter: String,
    },
    /// A line range that starts after the last line of the file. Kind
    /// [`ErrorKind::BeyondEnd`]; [`Reader::past_end`](crate::Reader::past_end) answers it
    /// with an empty result instead.
    #[error(
        "Invalid range specified: {parameter} ({start}) is beyond the end of the file ({total_lines} lines)."
    )]
    LineBeyondEnd {
        /// The first line asked for.
        start: i64,
        /// The number of lines in the file.
        total_lines: i64,
        /// The parameter of the start, as the caller spelled it (`start_line`, `offset`,
        /// `start_line_one_indexed` ...).
        parameter: String,
    },
    /// A byte range whose start lies after its end. Kind [`ErrorKind::StartAfterEnd`].
    #[error("Invalid range specified: {parameter} ({start}) is greater than end_byte ({end}).")]
    ByteStartAfterEnd {
        /// The first byte asked for.
        start: i64,
        /// The end (exclusive) asked for.
        end: i64,
        /// The parameter of the start, as the caller spelled it (`start_byte`).
        parameter: String,
    },
    /// A byte range that starts after the end of the file. Kind [`ErrorKind::BeyondEnd`];
    /// [`Reader::past_end`](crate::Reader::past_end) answers it with an empty result
    /// instead.
    #[error(
        "Invalid range specified: {parameter} ({start}) is beyond the end of the file ({file_size} bytes)."
    )]
    ByteBeyondEnd {
        /// The first byte asked for.
        start: i64,
        /// The size of the file in bytes.
        file_size: i64,
        /// The parameter of the start, as the caller spelled it (`start_byte`).
        parameter: String,
    },
    /// A selection that could not be parsed (CLI text or tool parameters).
    #[error("{message}")]
    InvalidSelection {
        /// What is wrong, naming the offending parameter or text.
        message: String,
    },
    /// A tool parameter that is missing, of the wrong type or value, unknown, or in
    /// conflict with another: `parameter` is the name as the caller spelled it.
    #[error("{message}")]
    InvalidParameter {
        /// The parameter, as the caller spelled it (`start_line_one_indexed`, ...).
        parameter: String,
        /// What is wrong and what to send instead, naming the parameter.
        message: String,
    },
    /// The strict UTF-8 policy met an invalid sequence.
    #[error("Invalid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// Offset of the first invalid byte, counted from the start of the file.
        offset: i64,
    },
    /// The strict policy met an invalid sequence in a file whose encoding is not UTF-8
    /// (UTF-16, UTF-32, a legacy encoding).
    #[error("Invalid {encoding} at byte {offset}")]
    InvalidText {
        /// The encoding's name, as reported in results (`utf-16le` ...).
        encoding: &'static str,
        /// Offset of the first invalid byte, counted from the start of the file.
        offset: i64,
    },
    /// The file's content was classified as binary.
    #[error(
        "Binary files are not supported. File detected as {mime}. Please use another tool or method to process this file."
    )]
    Binary {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The detected MIME type (`application/octet-stream` when unknown).
        mime: String,
        /// The file's size in bytes, for hosts that answer `(N bytes)`.
        file_size: i64,
    },
    /// The path leaves the workspace root.
    #[error("Path {} is outside the workspace", escaped(.path))]
    OutsideWorkspace {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// The path matches a protected pattern of the workspace.
    #[error("Access denied: {} is a protected path", escaped(.path))]
    Protected {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// The path is refused by a rule of one of the project's rule files
    /// ([`crate::RuleFile`]): a `.gitignore`-style file, or a setting of a settings file.
    /// Checked on the path's spelling before the file system is touched, so the answer
    /// is the same whether the path exists or not.
    #[error("Access denied: {} is refused by {}", escaped(.path), rule_words(.rule, .file, .setting.as_deref(), *.default))]
    Denied {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The pattern that refused it, as written in its file (for a default: as the
        /// agent's defaults spell it).
        rule: String,
        /// The rule file, relative to the workspace root (`.geminiignore`,
        /// `src/.gitignore`, `.zed/settings.json`).
        file: PathBuf,
        /// The setting of a settings file that holds the rule (`private_files`,
        /// `permissions.deny`); `None` for an ignore file.
        setting: Option<String>,
        /// Whether the rule is one of the agent's defaults, in force because the file
        /// (or the setting) is absent.
        default: bool,
    },
    /// A rule file that could cover the path cannot be used: it is unreadable, too
    /// large, not a regular file, a symbolic link, or not valid in its syntax. The path
    /// is refused (the rules fail closed) until the file is fixed or removed.
    #[error("Access denied: {} is refused because the rule file {} cannot be used: {reason}; fix or remove that file", escaped(.path), escaped(.file))]
    RuleFile {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The rule file, relative to the workspace root.
        file: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A path that cannot name a file: it holds a NUL byte, is too long, or its symbolic
    /// links loop (or nest deeper than 40 links).
    #[error("Invalid path {}: {reason}", escaped(.path))]
    InvalidPath {
        /// The path as the caller gave it (shown escaped in the message).
        path: PathBuf,
        /// What is wrong with it, such as `contains a NUL byte`.
        reason: &'static str,
    },
    /// A protected-path pattern of a workspace is not a valid glob.
    #[error("Invalid protected pattern {}: {message}", escaped(.pattern))]
    InvalidPattern {
        /// The pattern as given.
        pattern: String,
        /// What is wrong with it.
        message: String,
    },
    /// No session (a workspace in a `WorkspaceRegistry`, or a transcript in a session
    /// store) has this identifier.
    #[error("Session not found: {}", escaped(.id))]
    SessionNotFound {
        /// The session identifier asked for.
        id: String,
    },
    /// A session query named no session: neither an id nor a title (nor content) to
    /// search for. (Feature `sessions`.)
    #[cfg(feature = "sessions")]
    #[error("Either session_id or search_title must be provided")]
    SessionQueryMissing,
    /// A session query that cannot be run as given, such as an unparsable `since` date.
    /// (Feature `sessions`.)
    #[cfg(feature = "sessions")]
    #[error("{message}")]
    InvalidSessionQuery {
        /// What is wrong, naming the offending parameter.
        message: String,
    },
    /// No session's title (or content) matches the search. `available` lists the titles
    /// of the store's sessions, closest to the search first, capped, so that a caller (or a
    /// model) with a typo can still find its way. (Feature `sessions`.)
    #[cfg(feature = "sessions")]
    #[error("No sessions found matching {}. Available sessions: {}", escaped(.query), available_list(.available))]
    NoMatchingSession {
        /// The search text.
        query: String,
        /// Titles of sessions that do exist, the closest to `query` first.
        available: Vec<String>,
    },
    /// The home directory of a session store does not exist (or is not a directory).
    /// (Feature `sessions`.)
    #[cfg(feature = "sessions")]
    #[error("Session store not found: {} (expected the {store} session directory)", escaped(.path))]
    StoreNotFound {
        /// The directory that was looked for.
        path: PathBuf,
        /// Which store was being opened (`claude`, `codex`, `opencode`, `jsonl`).
        store: &'static str,
    },
    /// A session store's files exist but could not be read as that store's format, such
    /// as a database that is not OpenCode's. (Feature `sessions`.)
    #[cfg(feature = "sessions")]
    #[error("Could not read session store {}: {message}", escaped(.path))]
    Store {
        /// The file or directory of the store.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// An image that cannot be read: empty, truncated, malformed. The message names the
    /// file and says how to look at it.
    #[error("{message}")]
    InvalidImage {
        /// The path as the caller gave it.
        path: PathBuf,
        /// What is wrong and what to do.
        message: String,
    },
    /// An image whose header claims more pixels than a read may decode
    /// ([`crate::images::ImageRequest::max_decode_pixels`]): refused before decoding.
    #[error(
        "Image {} claims {width}x{height} pixels ({:.1} MP), more than the {:.1} MP an image \
         may have to be read (max_decode_pixels); it was refused without decoding. Check the \
         file (`file {}`), or raise the limit if the image is real.",
        escaped(.path),
        (*.width as f64) * (*.height as f64) / 1e6,
        *.limit as f64 / 1e6,
        escaped(.path)
    )]
    ImageTooLarge {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The width the header claims.
        width: i64,
        /// The height the header claims.
        height: i64,
        /// The limit, in pixels.
        limit: i64,
    },
    /// The read needs a Cargo feature this build does not have (`images`, `pdf`).
    #[error("{message}")]
    FeatureDisabled {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The feature that would do it.
        feature: &'static str,
        /// What was asked, and how to get it.
        message: String,
    },
    /// A page selection that starts past the last page of a PDF.
    #[error(
        "Invalid pages: page {start} is beyond the end of the document ({page_count} pages). \
         Ask for pages within 1-{page_count}."
    )]
    PageBeyondEnd {
        /// The first page asked for.
        start: i64,
        /// The number of pages.
        page_count: i64,
    },
    /// A cell selection that names no cell of a notebook.
    #[error("{message}")]
    CellNotFound {
        /// What was asked and which cells there are.
        message: String,
    },
    /// A document (PDF, notebook) that cannot be parsed: malformed, truncated, encrypted
    /// with a password, or its parser failed. The message says what to try instead.
    #[error("{message}")]
    InvalidDocument {
        /// The path as the caller gave it.
        path: PathBuf,
        /// What went wrong and what to do.
        message: String,
    },
    /// A document whose reading would need more work than a call may do (decompressed
    /// bytes, objects, time, the bytes of one notebook cell): stopped, with the limit.
    #[error("{message}")]
    DocumentLimit {
        /// The path as the caller gave it.
        path: PathBuf,
        /// Which limit was reached and what to ask instead.
        message: String,
    },
    /// A read larger than a tool's cap allows: a file over the size it reads at once, an
    /// unranged read of a file over its line count, a text over its token cap. Kind
    /// [`ErrorKind::TooLarge`]; a tool words it in its own text ([`Error::Refused`]).
    #[error(
        "{} is too large to read at once: {}over the limit of {limit} {unit}; ask for {}",
        escaped(.path),
        .size.map(|s| format!("{s} {unit}, ")).unwrap_or_default(),
        if *.unit == "range_bytes" { "fewer lines" } else { "a range of lines" }
    )]
    TooLarge {
        /// The path as the caller gave it.
        path: PathBuf,
        /// What `size` and `limit` count: `bytes` (the file's size), `lines` (the file's
        /// line count), `tokens` (the text's estimated tokens) or `range_bytes` (the
        /// text of the lines asked for, as Claude Code's Read caps a range).
        unit: &'static str,
        /// How large the file or text is; `None` when the read stopped at the limit
        /// without measuring the rest (`range_bytes`: the range holds more than `limit`).
        size: Option<i64>,
        /// The cap.
        limit: i64,
    },
    /// A tool's refusal in its own words (a [`crate::tool::Dialect`]'s text) of what
    /// `cause` names: its kind, path and values are `cause`'s, so that a host branches
    /// on them as on the library's error (OpenHands' `view_range` past the end is
    /// [`ErrorKind::BeyondEnd`] with `total_lines`, its binary refusal
    /// [`ErrorKind::Binary`]).
    #[error("{message}")]
    Refused {
        /// The tool's text.
        message: String,
        /// The parameter the text is about, as the caller spelled it.
        parameter: String,
        /// The library's error.
        cause: Box<Error>,
    },
    /// Any other I/O error, with the path it happened on.
    #[error("I/O error on {}: {source}", escaped(.path))]
    Io {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

impl Error {
    /// What kind of error this is, for callers that branch on it; [`ErrorKind::as_str`]
    /// gives its stable machine-readable name (`not_found`, `binary` ...), which the
    /// example CLI prints as `kind` in its JSON error object.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{ErrorKind, LineSelection, Reader};
    ///
    /// let err = Reader::new().read("no/such/file", LineSelection::head(1)).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::NotFound);
    /// assert_eq!(err.kind().as_str(), "not_found");
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::IsDirectory { .. } => ErrorKind::IsDirectory,
            Error::PermissionDenied { .. } => ErrorKind::PermissionDenied,
            Error::NotRegularFile { .. } => ErrorKind::NotRegularFile,
            Error::Changed { .. } => ErrorKind::Changed,
            Error::ScanBudget { .. } => ErrorKind::ScanBudget,
            Error::ZeroLine { .. } => ErrorKind::ZeroLine,
            Error::LineStartAfterEnd { .. } | Error::ByteStartAfterEnd { .. } => {
                ErrorKind::StartAfterEnd
            }
            Error::LineBeyondEnd { .. } | Error::ByteBeyondEnd { .. } => ErrorKind::BeyondEnd,
            Error::InvalidSelection { .. } => ErrorKind::InvalidRange,
            Error::InvalidParameter { .. } => ErrorKind::InvalidParams,
            Error::Refused { cause, .. } => cause.kind(),
            Error::InvalidUtf8 { .. } => ErrorKind::InvalidUtf8,
            Error::InvalidText { .. } => ErrorKind::InvalidEncoding,
            Error::Binary { .. } => ErrorKind::Binary,
            Error::OutsideWorkspace { .. } => ErrorKind::OutsideWorkspace,
            Error::Protected { .. } | Error::Denied { .. } | Error::RuleFile { .. } => {
                ErrorKind::Protected
            }
            Error::InvalidPath { .. } => ErrorKind::InvalidPath,
            Error::InvalidPattern { .. } => ErrorKind::InvalidPattern,
            Error::SessionNotFound { .. } => ErrorKind::SessionNotFound,
            #[cfg(feature = "sessions")]
            Error::SessionQueryMissing | Error::InvalidSessionQuery { .. } => {
                ErrorKind::InvalidQuery
            }
            #[cfg(feature = "sessions")]
            Error::NoMatchingSession { .. } => ErrorKind::NoMatchingSession,
            #[cfg(feature = "sessions")]
            Error::StoreNotFound { .. } => ErrorKind::StoreNotFound,
            #[cfg(feature = "sessions")]
            Error::Store { .. } => ErrorKind::Store,
            Error::InvalidImage { .. } => ErrorKind::InvalidImage,
            Error::ImageTooLarge { .. } => ErrorKind::ImageTooLarge,
            Error::FeatureDisabled { .. } => ErrorKind::FeatureDisabled,
            Error::PageBeyondEnd { .. } | Error::CellNotFound { .. } => ErrorKind::InvalidRange,
            Error::InvalidDocument { .. } => ErrorKind::InvalidDocument,
            Error::DocumentLimit { .. } => ErrorKind::DocumentLimit,
            Error::TooLarge { .. } => ErrorKind::TooLarge,
            Error::Io { .. } => ErrorKind::Io,
        }
    }

    /// Wraps an `io::Error` with its path, turning the kinds the contract names into
    /// their own variants.
    pub(crate) fn io(path: &Path, err: io::Error) -> Error {
        let path = path.to_path_buf();
        let invalid = |reason| Error::InvalidPath {
            path: path.clone(),
            reason,
        };
        // ELOOP and ENAMETOOLONG on Linux and the BSDs (40/62 and 36/63).
        match (err.kind(), err.raw_os_error()) {
            (io::ErrorKind::NotFound, _) => Error::NotFound { path },
            (io::ErrorKind::PermissionDenied, _) => Error::PermissionDenied { path },
            (io::ErrorKind::IsADirectory, _) => Error::IsDirectory { path },
            (io::ErrorKind::InvalidInput, _)
                if path.as_os_str().as_encoded_bytes().contains(&0) =>
            {
                invalid("contains a NUL byte")
            }
            (_, Some(40)) if cfg!(target_os = "linux") => {
                invalid("too many levels of symbolic links")
            }
            (_, Some(36)) if cfg!(target_os = "linux") => {
                invalid("the path or a name in it is too long")
            }
            _ => Error::Io { path, source: err },
        }
    }

    /// The error of a line range with its start named as the caller spelled it.
    pub(crate) fn start_named(mut self, name: &str) -> Error {
        if let Error::LineBeyondEnd { parameter, .. } | Error::LineStartAfterEnd { parameter, .. } =
            &mut self
        {
            name.clone_into(parameter);
        }
        self
    }

    pub(crate) fn selection(message: impl Into<String>) -> Error {
        Error::InvalidSelection {
            message: message.into(),
        }
    }
}

/// A count, size or offset as an [`Error`] value (every one is an `i64`): a file's size
/// and offsets are under 2^63, so nothing saturates in practice.
pub(crate) fn int(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// An [`Error`] value back as the unsigned count, size or offset it was made from (a
/// negative one, a line counted from the end as given, is 0).
pub(crate) fn uint(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The end of [`Error::ScanBudget`]'s advice: what calling again does.
pub(crate) const SCAN_CONTINUES: &str =
    "a server that keeps its line index continues the count where it stopped.";

/// What [`Error::ScanBudget`] says happened, before its advice (which a tool words in its
/// own parameters).
pub(crate) fn scan_stopped(path: &Path, budget: i64, scanned: i64, file_size: i64) -> String {
    format!(
        "Read stopped: counting the lines of {} would scan more than the scan budget of \
         {budget} bytes (counted up to byte {scanned} of {file_size}).",
        escaped(path)
    )
}

/// What kind of [`Error`] happened: [`Error::kind`]. Several variants of [`Error`] can
/// share a kind when a host would act on them alike (a start after the end of a line
/// range and of a byte range are both [`ErrorKind::StartAfterEnd`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// [`Error::NotFound`]: `not_found`.
    NotFound,
    /// [`Error::IsDirectory`]: `is_directory`.
    IsDirectory,
    /// [`Error::PermissionDenied`]: `permission_denied`.
    PermissionDenied,
    /// [`Error::NotRegularFile`]: `not_regular_file`.
    NotRegularFile,
    /// [`Error::Changed`]: `changed`.
    Changed,
    /// [`Error::ScanBudget`]: `scan_budget`.
    ScanBudget,
    /// A selection that cannot be parsed ([`Error::InvalidSelection`]), a page range of a
    /// PDF past its end or a notebook cell that does not exist: `invalid_range`.
    InvalidRange,
    /// [`Error::ZeroLine`], a line number of 0 (lines are 1-indexed): `zero_line`.
    ZeroLine,
    /// [`Error::LineStartAfterEnd`] and [`Error::ByteStartAfterEnd`], a range whose start
    /// lies after its end: `start_after_end`.
    StartAfterEnd,
    /// [`Error::LineBeyondEnd`] and [`Error::ByteBeyondEnd`], a range that starts past the
    /// end of the file (many hosts answer it with empty content: see
    /// [`Reader::past_end`](crate::Reader::past_end)): `beyond_end`.
    BeyondEnd,
    /// [`Error::InvalidParameter`], a tool parameter that is malformed or conflicts
    /// with another: `invalid_params`.
    InvalidParams,
    /// [`Error::InvalidUtf8`]: `invalid_utf8`.
    InvalidUtf8,
    /// [`Error::InvalidText`]: `invalid_encoding`.
    InvalidEncoding,
    /// [`Error::Binary`]: `binary`.
    Binary,
    /// [`Error::OutsideWorkspace`]: `outside_workspace`.
    OutsideWorkspace,
    /// [`Error::Protected`], [`Error::Denied`] and [`Error::RuleFile`]: `protected`.
    Protected,
    /// [`Error::InvalidPath`]: `invalid_path`.
    InvalidPath,
    /// [`Error::InvalidPattern`]: `invalid_pattern`.
    InvalidPattern,
    /// [`Error::SessionNotFound`]: `session_not_found`.
    SessionNotFound,
    /// A session query that names nothing or cannot be run: `invalid_query`.
    #[cfg(feature = "sessions")]
    InvalidQuery,
    /// `Error::NoMatchingSession`: `no_matching_session`.
    #[cfg(feature = "sessions")]
    NoMatchingSession,
    /// `Error::StoreNotFound`: `store_not_found`.
    #[cfg(feature = "sessions")]
    StoreNotFound,
    /// `Error::Store`: `store`.
    #[cfg(feature = "sessions")]
    Store,
    /// [`Error::InvalidImage`]: `invalid_image`.
    InvalidImage,
    /// [`Error::ImageTooLarge`]: `image_too_large`.
    ImageTooLarge,
    /// [`Error::FeatureDisabled`]: `feature_disabled`.
    FeatureDisabled,
    /// [`Error::InvalidDocument`]: `invalid_document`.
    InvalidDocument,
    /// [`Error::DocumentLimit`]: `document_limit`.
    DocumentLimit,
    /// [`Error::TooLarge`]: `too_large`.
    TooLarge,
    /// [`Error::Io`]: `io`.
    Io,
}

impl ErrorKind {
    /// The stable snake_case name of the kind, such as `not_found`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::NotFound => "not_found",
            ErrorKind::IsDirectory => "is_directory",
            ErrorKind::PermissionDenied => "permission_denied",
            ErrorKind::NotRegularFile => "not_regular_file",
            ErrorKind::Changed => "changed",
            ErrorKind::ScanBudget => "scan_budget",
            ErrorKind::InvalidRange => "invalid_range",
            ErrorKind::ZeroLine => "zero_line",
            ErrorKind::StartAfterEnd => "start_after_end",
            ErrorKind::BeyondEnd => "beyond_end",
            ErrorKind::InvalidParams => "invalid_params",
            ErrorKind::InvalidUtf8 => "invalid_utf8",
            ErrorKind::InvalidEncoding => "invalid_encoding",
            ErrorKind::Binary => "binary",
            ErrorKind::OutsideWorkspace => "outside_workspace",
            ErrorKind::Protected => "protected",
            ErrorKind::InvalidPath => "invalid_path",
            ErrorKind::InvalidPattern => "invalid_pattern",
            ErrorKind::SessionNotFound => "session_not_found",
            #[cfg(feature = "sessions")]
            ErrorKind::InvalidQuery => "invalid_query",
            #[cfg(feature = "sessions")]
            ErrorKind::NoMatchingSession => "no_matching_session",
            #[cfg(feature = "sessions")]
            ErrorKind::StoreNotFound => "store_not_found",
            #[cfg(feature = "sessions")]
            ErrorKind::Store => "store",
            ErrorKind::InvalidImage => "invalid_image",
            ErrorKind::ImageTooLarge => "image_too_large",
            ErrorKind::FeatureDisabled => "feature_disabled",
            ErrorKind::InvalidDocument => "invalid_document",
            ErrorKind::DocumentLimit => "document_limit",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::Io => "io",
        }
    }
}

impl ErrorKind {
    /// Whether the arguments, not the file, are at fault: [`ErrorKind::InvalidRange`],
    /// [`ErrorKind::ZeroLine`], [`ErrorKind::StartAfterEnd`] and [`ErrorKind::BeyondEnd`],
    /// for a host that maps them all onto one "invalid range" of its own.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{ErrorKind, LineSelection, Reader};
    ///
    /// let err = Reader::new().read("tests/data/sample.txt", LineSelection::from(0..=5)).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::ZeroLine);
    /// assert!(err.kind().is_range());
    /// ```
    pub fn is_range(self) -> bool {
        matches!(
            self,
            ErrorKind::InvalidRange
                | ErrorKind::ZeroLine
                | ErrorKind::StartAfterEnd
                | ErrorKind::BeyondEnd
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for ErrorKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// What a path that is not a regular file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FileKind {
    /// A named pipe.
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A character device such as `/dev/zero`.
    CharDevice,
    /// A block device.
    BlockDevice,
    /// Anything else that is neither a file nor a directory.
    Other,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Fifo => "fifo",
            FileKind::Socket => "socket",
            FileKind::CharDevice => "character device",
            FileKind::BlockDevice => "block device",
            FileKind::Other => "special file",
        })
    }
}

/// The list of a [`Error::NoMatchingSession`] message: `A, B, C`, or `none`.
#[cfg(feature = "sessions")]
fn available_list(titles: &[String]) -> String {
    if titles.is_empty() {
        "none".to_string()
    } else {
        titles.join(", ")
    }
}

/// A path (or identifier) as every message shows it: in double quotes, with control
/// characters, quotes and backslashes escaped and bytes that are not UTF-8 written as
/// `\xNN`, exactly as Rust's `Debug` writes a path. The one place messages quote paths.
pub(crate) fn escaped<P: AsRef<Path> + ?Sized>(path: &P) -> Escaped<'_> {
    Escaped(path.as_ref())
}

/// See [`escaped`].
pub(crate) struct Escaped<'a>(&'a Path);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// How [`Error::Denied`] names its rule: `the rule "R" of ".gitignore"`, `the rule "R"
/// of the setting private_files in ".zed/settings.json"`, or, for a default, `the
/// default rule "R" for ".gooseignore" (the file or the setting is absent)`.
fn rule_words(rule: &str, file: &Path, setting: Option<&str>, default: bool) -> String {
    let rule = escaped(rule);
    let file = escaped(file);
    match (setting, default) {
        (Some(s), false) => format!("the rule {rule} of the setting {s} in {file}"),
        (Some(s), true) => {
            format!("the default rule {rule} of the setting {s} ({file} does not set it)")
        }
        (None, false) => format!("the rule {rule} of {file}"),
        (None, true) => format!("the default rule {rule} ({file} does not exist)"),
    }
}
