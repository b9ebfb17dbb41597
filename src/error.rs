//! The one error type of the crate.
//!
//! Every variant is something a caller can act on, and its `Display` text is the message
//! of the behaviour contract (SPEC.md), so a tool wrapper can hand it to a model as is.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A `Result` whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while reading a part of a file.
///
/// The `Display` text of each variant is stable and part of the crate's contract.
/// [`Error::kind`] gives a short machine-readable name for each variant.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The path does not exist.
    #[error("File not found: {:?}", DisplayPath(.path))]
    NotFound {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// The path names a directory.
    #[error("Path is a directory: {:?}", DisplayPath(.path))]
    IsDirectory {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// The operating system refused to open the file.
    #[error("Permission denied: {:?}", DisplayPath(.path))]
    PermissionDenied {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// A FIFO, socket or device: reading it could block or never end.
    #[error("Not a regular file ({kind}): {:?}", DisplayPath(.path))]
    NotRegularFile {
        /// The path as the caller gave it.
        path: PathBuf,
        /// What the file is instead.
        kind: FileKind,
    },
    /// Another process truncated, rewrote or grew the file while it was being read,
    /// and no consistent result could be produced.
    #[error("File changed while reading: {:?}", DisplayPath(.path))]
    Changed {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// A line number of 0 was given; lines are 1-indexed.
    #[error("{field} (0) is invalid: lines are 1-indexed")]
    ZeroLine {
        /// The parameter that was 0 (`start_line` or `end_line`).
        field: &'static str,
    },
    /// A line range whose start lies after its end.
    #[error("Invalid range specified: start_line ({start}) is greater than end_line ({end}).")]
    LineStartAfterEnd {
        /// The first line asked for.
        start: i64,
        /// The last line asked for.
        end: i64,
    },
    /// A line range that starts after the last line of the file.
    #[error(
        "Invalid range specified: start_line ({start}) is beyond the end of the file ({total_lines} lines)."
    )]
    LineBeyondEnd {
        /// The first line asked for.
        start: u64,
        /// The number of lines in the file.
        total_lines: u64,
    },
    /// A byte range whose start lies after its end.
    #[error("Invalid range specified: start_byte ({start}) is greater than end_byte ({end}).")]
    ByteStartAfterEnd {
        /// The first byte asked for.
        start: u64,
        /// The end (exclusive) asked for.
        end: u64,
    },
    /// A byte range that starts after the end of the file.
    #[error(
        "Invalid range specified: start_byte ({start}) is beyond the end of the file ({file_size} bytes)."
    )]
    ByteBeyondEnd {
        /// The first byte asked for.
        start: u64,
        /// The size of the file in bytes.
        file_size: u64,
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
        offset: u64,
    },
    /// The strict policy met an invalid sequence in a file whose encoding is not UTF-8
    /// (UTF-16, UTF-32, a legacy encoding).
    #[error("Invalid {encoding} at byte {offset}")]
    InvalidText {
        /// The encoding's name, as reported in results (`utf-16le` ...).
        encoding: &'static str,
        /// Offset of the first invalid byte, counted from the start of the file.
        offset: u64,
    },
    /// The file's content was classified as binary.
    #[error(
        "Binary files are not supported. File detected as {mime}. Please use another tool or method to process this file."
    )]
    Binary {
        /// The detected MIME type (`application/octet-stream` when unknown).
        mime: String,
    },
    /// The path leaves the workspace root.
    #[error("Path {:?} is outside the workspace", DisplayPath(.path))]
    OutsideWorkspace {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// The path matches a protected pattern of the workspace.
    #[error("Access denied: {:?} is a protected path", DisplayPath(.path))]
    Protected {
        /// The path as the caller gave it.
        path: PathBuf,
    },
    /// A path that cannot name a file: it holds a NUL byte, is too long, or its symbolic
    /// links loop (or nest deeper than 40 links).
    #[error("Invalid path {path:?}: {reason}")]
    InvalidPath {
        /// The path as the caller gave it (shown escaped in the message).
        path: PathBuf,
        /// What is wrong with it, such as `contains a NUL byte`.
        reason: &'static str,
    },
    /// A protected-path pattern of a workspace is not a valid glob.
    #[error("Invalid protected pattern {pattern:?}: {message}")]
    InvalidPattern {
        /// The pattern as given.
        pattern: String,
        /// What is wrong with it.
        message: String,
    },
    /// No session (a workspace in a `WorkspaceRegistry`, or a transcript in a session
    /// store) has this identifier.
    #[error("Session not found: \"{id}\"")]
    SessionNotFound {
        /// The session identifier asked for.
        id: String,
    },
    /// A session query named no session: neither an id nor a title (nor content) to
    /// search for. (Feature `sessions`.)
    #[error("Either session_id or search_title must be provided")]
    SessionQueryMissing,
    /// A session query that cannot be run as given, such as an unparsable `since` date.
    /// (Feature `sessions`.)
    #[error("{message}")]
    InvalidSessionQuery {
        /// What is wrong, naming the offending parameter.
        message: String,
    },
    /// No session's title (or content) matches the search. `available` lists the titles
    /// of the store's sessions, closest to the search first, capped, so that a caller (or a
    /// model) with a typo can still find its way. (Feature `sessions`.)
    #[error("No sessions found matching \"{query}\". Available sessions: {}", available_list(.available))]
    NoMatchingSession {
        /// The search text.
        query: String,
        /// Titles of sessions that do exist, the closest to `query` first.
        available: Vec<String>,
    },
    /// The home directory of a session store does not exist (or is not a directory).
    /// (Feature `sessions`.)
    #[error("Session store not found: {:?} (expected the {store} session directory)", DisplayPath(.path))]
    StoreNotFound {
        /// The directory that was looked for.
        path: PathBuf,
        /// Which store was being opened (`claude`, `codex`, `opencode`, `jsonl`).
        store: &'static str,
    },
    /// A session store's files exist but could not be read as that store's format, such
    /// as a database that is not OpenCode's. (Feature `sessions`.)
    #[error("Could not read session store {:?}: {message}", DisplayPath(.path))]
    Store {
        /// The file or directory of the store.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// Any other I/O error, with the path it happened on.
    #[error("I/O error on {:?}: {source}", DisplayPath(.path))]
    Io {
        /// The path as the caller gave it.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

impl Error {
    /// A short, stable, machine-readable name of the variant, such as `not_found` or
    /// `binary`; the CLI prints it as `kind` in its JSON error object.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::NotFound { .. } => "not_found",
            Error::IsDirectory { .. } => "is_directory",
            Error::PermissionDenied { .. } => "permission_denied",
            Error::NotRegularFile { .. } => "not_regular_file",
            Error::Changed { .. } => "changed",
            Error::ZeroLine { .. }
            | Error::LineStartAfterEnd { .. }
            | Error::LineBeyondEnd { .. }
            | Error::ByteStartAfterEnd { .. }
            | Error::ByteBeyondEnd { .. }
            | Error::InvalidSelection { .. } => "invalid_range",
            Error::InvalidParameter { .. } => "invalid_params",
            Error::InvalidUtf8 { .. } => "invalid_utf8",
            Error::InvalidText { .. } => "invalid_encoding",
            Error::Binary { .. } => "binary",
            Error::OutsideWorkspace { .. } => "outside_workspace",
            Error::Protected { .. } => "protected",
            Error::InvalidPath { .. } => "invalid_path",
            Error::InvalidPattern { .. } => "invalid_pattern",
            Error::SessionNotFound { .. } => "session_not_found",
            Error::SessionQueryMissing | Error::InvalidSessionQuery { .. } => "invalid_query",
            Error::NoMatchingSession { .. } => "no_matching_session",
            Error::StoreNotFound { .. } => "store_not_found",
            Error::Store { .. } => "store",
            Error::Io { .. } => "io",
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
            (io::ErrorKind::InvalidInput, None)
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

    pub(crate) fn selection(message: impl Into<String>) -> Error {
        Error::InvalidSelection {
            message: message.into(),
        }
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
fn available_list(titles: &[String]) -> String {
    if titles.is_empty() {
        "none".to_string()
    } else {
        titles.join(", ")
    }
}

/// Shows a path the way the messages quote it: `"PATH"`, lossy for non-UTF-8 names.
struct DisplayPath<'a>(&'a Path);

impl fmt::Debug for DisplayPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.0.display())
    }
}
