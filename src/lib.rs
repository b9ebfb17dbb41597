//! Read exactly the part of a file an agent tool needs.
//!
//! `rangeread` reads line ranges and byte ranges of files of any size without loading
//! them, keeps characters whole, pages instead of failing when a budget is reached, and
//! says what it left out. It is meant to sit under the `read_file` tool of an agent or an
//! MCP server: you embed it and put your own tool wrapper on top.
//!
//! ```
//! use rangeread::{render, Format, LineSelection, Reader};
//!
//! // Lines 2-3 of a file, numbered as `cat -n` numbers them.
//! let result = Reader::new().read("tests/data/sample.txt", LineSelection::from(2..=3))?;
//! assert_eq!(result.lines.map(|l| (l.start, l.end)), Some((2, 3)));
//! assert!(result.is_partial);
//! print!("{}", render(&result, Format::CatN));
//!
//! // The last 5 lines, the way the MCP filesystem server's `tail` asks for them.
//! let tail = Reader::new().read("tests/data/sample.txt", LineSelection::tail(5))?;
//! assert_eq!(tail.content.lines().count(), 5);
//!
//! // "40:+10" is bat's notation for lines 40 to 50; "-20:" the last 20 lines.
//! let sel: LineSelection = "-20:".parse()?;
//! # let _ = sel;
//! # Ok::<(), rangeread::Error>(())
//! ```
//!
//! # Why use this crate?
//!
//! - **Huge files are cheap.** A sparse [`LineIndex`] (8 bytes per 64 KiB) is built with
//!   SIMD newline counting, only as far as a read needs: the head never scans the file, the
//!   tail is found backwards from the end, and a deep range costs one counting pass up to
//!   it, kept for later reads of the same [`Document`].
//! - **Exact answers.** Lines are 1-indexed and inclusive, bytes 0-indexed and half-open;
//!   every offset is a `u64`. The result says what was asked, what was returned, what was
//!   clamped, and what was left out.
//! - **Budgets page, they never fail.** At most 2000 lines and 100 KiB per read by default,
//!   lines cut at 2000 characters; a read over budget returns the first part and where to
//!   continue (`truncated.next_start_line` / `next_start_byte`).
//! - **Robust opening.** FIFOs and devices are refused without blocking; files that report
//!   size 0 (`/proc`) are streamed with a bound; a file changed during a read gives a
//!   consistent result or [`Error::Changed`], never a crash.
//!
//! # The steps of a read
//!
//! A read flows one way, one module a step:
//!
//! | step | module | what it does |
//! |---|---|---|
//! | path | `workspace` (with `walk`, `protect`) | confines the path to a [`Workspace`] root, refuses protected paths, opens race-free (`fsopen`: a name opened for reading only if it is a regular file, under both `workspace` and `source`) |
//! | source | `source` (and `object`) | positional reads of a file, bytes in memory, an opt-in memory map, an object in object storage, or a host's own [`RandomAccess`] ([`Source`]) |
//! | classify | `classify` | text or binary, and which encoding, from the first 8 KiB |
//! | select | `select` (with `index`) | normalizes a [`Selection`] against the file through the [`LineIndex`]: the lines or bytes to return |
//! | budget | `budget` | pages the selection under the line, byte and line-length budgets |
//! | summarize | `summarize` (with `landmarks`) | counts what was left out and finds the landmarks there |
//! | result | `result` | the plain-data [`ReadResult`] |
//! | render | `render` | [`render`] it in a [`Format`] |
//!
//! [`Reader`] (module `read`) holds the configuration and opens files; a [`Document`]
//! (module `document`) runs the steps for each read. Two things every step uses have one
//! owner each: `text` has the rules of characters and line feeds in every encoding
//! (UTF-8 snapping and cutting, UTF-16 surrogate pairs, legacy multi-byte characters),
//! and `lines` walks lines forward and backward over a source by those rules. No other
//! module searches for a line feed. `syntax` says which lines are landmarks and what a
//! block is, on UTF-8 text that `lines` decodes from any encoding, so every feature
//! answers the same in UTF-8, UTF-16, UTF-32 and legacy encodings. The
//! [`IndexCache`], the [`tool`] presets and the `sessions` stores sit on top.
//!
//! # Which entry point
//!
//! | you have | call |
//! |---|---|
//! | a path, one read | [`Reader::read`] |
//! | a path from a model, one read | [`Reader::read_in`] with a [`Workspace`] |
//! | several reads of one file (the index is shared) | [`Reader::open`] / [`Reader::open_in`], then [`Document::read`] |
//! | bytes in memory, a memory map, a file you opened | [`Reader::document`] over a [`Source`] |
//! | your own storage (a blob store, an archive member) | implement [`RandomAccess`], then [`Source::from_random_access`] |
//! | an object in S3, GCS, Azure or over HTTP (feature `object-store`) | `ObjectSource::open(url)`, or `Workspace::object` over an `ObjectRoot` prefix for paths from a model |
//! | tool-call JSON from a model | [`tool::ReadFileParams`] and a preset in [`tool`] |
//! | a file of any kind: text, an image, a PDF, a notebook | [`Reader::read_document`] / [`Reader::read_document_in`] with a [`DocumentRequest`] |
//!
//! Give the reader an [`IndexCache`] ([`Reader::cache`]) when a host reads the same
//! files again and again (an MCP server): indexes, classifications and landmarks are
//! then kept across reads and threads; back it with a directory
//! ([`IndexCache::with_dir`]) and the line indexes outlive the process.
//!
//! # Workspaces
//!
//! A tool that reads on behalf of a model should not be talked into reading
//! `~/.ssh/id_rsa` or `.env`. A [`Workspace`] confines every path to a root directory
//! (`..`, absolute paths outside it and symbolic links that leave it are refused) and
//! refuses protected paths, matched on the path as asked and as resolved. On Linux,
//! resolution and opening are race-free; see [`Workspace`] for every platform and for
//! what a workspace does not cover (hard links). [`WorkspaceRegistry`] maps session
//! identifiers to workspaces for hosts that serve several sessions.
//!
//! ```
//! use rangeread::{LineSelection, Reader, Workspace};
//!
//! let ws = Workspace::builder("tests/data").protect("*.pem").protect(".env*").build()?;
//! let result = Reader::new().read_in(&ws, "sample.txt", LineSelection::head(3))?;
//! assert!(result.resolved_path.starts_with(ws.root().to_str().unwrap()));
//! assert_eq!(
//!     Reader::new().read_in(&ws, "../../Cargo.toml", LineSelection::head(3)).unwrap_err().kind(),
//!     rangeread::ErrorKind::OutsideWorkspace,
//! );
//! # Ok::<(), rangeread::Error>(())
//! ```
//!
//! # What was left out: summaries, outlines, blocks
//!
//! A partial read says what it did not return: `omitted` counts the lines and bytes on
//! both sides and lists *landmarks*, the lines there that look like structure
//! (definitions in Rust, Python, JS/TS, Go, Java/Kotlin/C#, C/C++, Ruby, PHP, shell and
//! SQL, Markdown headings, TOML/INI sections, top-level YAML keys), nearest to the read
//! first. The search looks at whole lines within [`Reader::landmark_window`] bytes
//! (256 KiB) on each side, so a small read of a huge file stays small, and a reader with
//! an [`IndexCache`] keeps what it found for later reads nearby; [`Reader::summaries`]
//! turns it off.
//! [`Document::outline`] lists the landmarks of a whole file (each with the line its
//! block ends on, for outlines with ranges), [`LineSelection::Block`] reads the
//! definition around a line, and [`LineSelection::indentation`] the block around a line
//! by indentation alone, as Codex's indentation mode finds it.
//!
//! ```
//! use rangeread::{LineSelection, Reader};
//!
//! let path = "tests/data/landmarks/sample.py";
//! let r = Reader::new().read(path, LineSelection::from(13..=13))?;
//! let near: Vec<u64> = r.omitted.unwrap().landmarks.iter().map(|l| l.line).collect();
//! assert_eq!(near[..2], [12, 16]); // `def __init__` above, `def loud` below
//!
//! let block = Reader::new().read(path, LineSelection::block(17))?;
//! assert_eq!(block.lines.map(|l| (l.start, l.end)), Some((15, 17))); // with `@property`
//! # Ok::<(), rangeread::Error>(())
//! ```
//!
//! # Line counting and cost
//!
//! Counting is lazy. Output that shows totals or absolute line numbers pays for them with
//! at most one SIMD counting pass per [`Document`]; with [`Totals::IfKnown`], head, tail and
//! byte reads touch only the bytes they return. See [`Totals`].
//!
//! # Text, binary and encodings
//!
//! Whether a file is text is decided from its content, never its name: [`classify()`]
//! looks at the first 8 KiB (byte order mark, magic numbers, NUL bytes, control bytes)
//! and a [`Document`] does so once when opened. Binary content fails with
//! [`Error::Binary`] (`Binary files are not supported. File detected as image/png. ...`);
//! hosts that only ask "is this text?" call [`is_text`]. Text may be UTF-8 (with or
//! without a BOM), UTF-16 or UTF-32 (with a BOM; UTF-16 also without one when its zero
//! bytes show it), or a legacy encoding (see the features below). `content` is always
//! UTF-8; every offset stays in file bytes; the result names the `encoding`, whether
//! there was a `bom` (never returned as content) and the `encoding_confidence`.
//!
//! ```
//! use rangeread::{Reader, Source};
//!
//! let utf16: Vec<u8> = b"\xff\xfe".iter().copied()
//!     .chain("one\ntwo\n".encode_utf16().flat_map(u16::to_le_bytes))
//!     .collect();
//! let mut doc = Reader::new().document(Source::from_bytes(utf16, "notes.txt"));
//! let r = doc.read(rangeread::LineSelection::from(2..=2))?;
//! assert_eq!((r.content.as_str(), r.encoding.as_str(), r.bom), ("two\n", "utf-16le", true));
//! assert_eq!((r.bytes.start, r.bytes.end), (10, 18)); // file bytes
//! # Ok::<(), rangeread::Error>(())
//! ```
//!
//! # Images, PDF pages and notebook cells
//!
//! [`Reader::read_document_in`] reads what is not plain text with the same contract: an
//! image (by content) is fitted to a model provider's limits ([`images`]); a PDF is read
//! by pages ([`pdf`], feature `pdf`); a Jupyter notebook by cells ([`notebook`]). Each
//! result is plain data with a text rendering; see `docs/documents.md`.
//!
//! ```
//! use rangeread::{DocumentRead, DocumentRequest, Reader, Source};
//!
//! let nb = br##"{"cells": [{"cell_type": "markdown", "id": "a", "source": "# Title"},
//!   {"cell_type": "code", "id": "b", "execution_count": 1, "source": "1 + 1",
//!    "outputs": [{"output_type": "execute_result", "data": {"text/plain": "2"}}]}],
//!   "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"##;
//! let reader = Reader::new();
//! let mut doc = reader.document(Source::from_bytes(nb.to_vec(), "calc.ipynb"));
//! let request = DocumentRequest::new().cells("b".parse()?);
//! let DocumentRead::Notebook(n) = reader.read_document_from(&mut doc, &request)? else {
//!     unreachable!()
//! };
//! assert_eq!(n.cells[0].outputs[0].text.as_deref(), Some("2"));
//! assert_eq!(n.outline[0].text, "# Title");
//! # Ok::<(), rangeread::Error>(())
//! ```
//!
//! # Handling of invalid UTF-8
//!
//! Content is UTF-8. Under the default [`Utf8Policy::Lossy`] each invalid sequence becomes
//! one U+FFFD and the result reports `invalid_utf8: {count, first_offset}` (file offsets);
//! [`ReadResult::raw_bytes`] still gives the exact bytes. [`Utf8Policy::Strict`] fails with
//! `Invalid UTF-8 at byte X` (for files in another encoding, [`Error::InvalidText`]).
//!
//! # Agent tools
//!
//! The [`tool`] module turns the parameters of every `read_file` dialect in use (Cursor,
//! Claude Code, Codex, the MCP filesystem server) into a [`Selection`], and has presets
//! that reproduce known tools' response shapes. `mcp-server/src/main.rs` serves it over
//! MCP (see `docs/mcp.md`).
//!
//! # Crate features
//!
//! - `legacy-encodings` (on by default): adds nothing, kept so that builds naming it
//!   still build. Legacy 8-bit and CJK encodings (windows-1252 and Latin-1, the other
//!   windows-125x and ISO-8859 code pages, Shift_JIS, EUC-JP, GBK, Big5, EUC-KR ...) are
//!   always detected with `chardetng` and decoded with `encoding_rs`; whether a read
//!   guesses them is a run-time choice ([`Reader::encoding`], [`EncodingPolicy`]). A
//!   feature adds code; it never changes an answer.
//! - `sessions` (default): the `sessions` module, `read_session_messages` over agent
//!   transcripts (Claude Code, Codex CLI, OpenCode's legacy JSON files, generic JSONL).
//! - `opencode`: OpenCode's SQLite database (`opencode.db`) in `sessions`, through
//!   rusqlite with a bundled SQLite (a C build; off by default to keep builds light).
//! - `schemars`: JSON Schemas for the [`tool`] module's parameter structs, with
//!   schemars 1.x (the version `rmcp` uses); needed by `mcp-server/src/main.rs`.
//! - `images`: downscale, crop and re-encode images that are over an
//!   [`images::ImagePolicy`]'s limits (the `image` crate with only its PNG, JPEG, GIF and
//!   WebP codecs; pure Rust). Without it, images that fit are read as they are.
//! - `pdf`: the text of PDF pages ([`pdf`]), with lopdf and pdf-extract (pure Rust, no
//!   poppler), decompression and time bounded per call.
//! - `object-store` (off by default, heavy): objects in S3 (and S3-compatible stores),
//!   GCS, Azure Blob Storage and plain HTTP(S) servers as sources (module `object`), through
//!   the `object_store` crate on a tokio runtime, with an HTTP client and TLS. Needs
//!   Rust 1.89.
//!
//! The library is pure-sync. The default features depend only on small, well-kept crates;
//! `opencode` adds a C build of SQLite, and `object-store` an async HTTP stack (driven
//! from sync calls: the library's API stays sync).

#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod block;
mod budget;
mod cache;
mod classify;
mod config;
mod decode;
mod document;
mod documents;
mod error;
mod fsopen;
pub mod images;
mod indentation;
mod index;
mod landmarks;
mod lines;
pub mod notebook;
#[cfg(feature = "object-store")]
#[cfg_attr(docsrs, doc(cfg(feature = "object-store")))]
pub mod object;
pub mod pdf;
mod persist;
mod pool;
mod protect;
mod read;
mod render;
mod result;
mod select;
#[cfg(feature = "sessions")]
pub mod sessions;
mod source;
mod stream;
mod summarize;
mod syntax;
mod text;
pub mod tool;
mod walk;
mod workspace;

pub use cache::{CacheStats, IndexCache};

pub use budget::LineUnit;
pub use classify::{
    classify, classify_file, is_text, BinaryInfo, BinaryReason, Classification, Encoding,
    LegacyEncoding, TextInfo, CONTROL_HEAD, MAX_CONTROL_SHARE, SAMPLE_SIZE, SHARES_SAMPLE,
    SUSPICIOUS_SAMPLE,
};
pub use config::{
    ControlBytes, Detection, EncodingPolicy, LineEndings, NulBytes, OutlineDetail, PastEnd, Totals,
    DEFAULT_LANDMARK_WINDOW, DEFAULT_MAX_LANDMARKS, DEFAULT_OUTLINE_MAX_BYTES,
};
pub use decode::{CodecTables, Utf8Policy};
pub use document::Document;
pub use documents::{DocumentKind, DocumentRead, DocumentRequest};
pub use error::{Error, ErrorKind, FileKind, Result};
pub use fsopen::SpecialFiles;
pub use indentation::IndentSelection;
pub use index::{LineIndex, DEFAULT_BLOCK_SIZE};
#[cfg(feature = "object-store")]
pub use object::{ObjectConfig, ObjectRoot, ObjectSource, ObjectStats};
pub use pool::BufferPool;
pub use read::Reader;
pub use render::{
    notes, render, render_to, render_to_with, render_with, Format, RenderOptions,
    DEFAULT_CUT_MARKER,
};
pub use result::{
    content_hash, Adjustments, ByteSpan, CutLine, Fingerprint, InvalidUtf8, Landmark, LineEnding,
    LineSpan, Omitted, Outline, ReadResult, Requested, RequestedLines, Truncation,
    TruncationReason,
};
pub use select::{ByteSelection, LineSelection, Selection, Snap};
pub use source::{RandomAccess, Source};
pub use syntax::language_for;
pub use workspace::{
    OpenStrategy, Opened, RuleFile, RuleSyntax, Workspace, WorkspaceBuilder, WorkspaceRegistry,
};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

// The Rust blocks of docs/*.md, compiled as doc tests (`tests/readme.rs` checks that
// every file with a Rust block is listed here, and that no block opts out of compiling).
#[cfg(doctest)]
#[doc = include_str!("../docs/embedding.md")]
pub struct EmbeddingDoctests;
#[cfg(all(doctest, feature = "images", feature = "pdf"))]
#[doc = include_str!("../docs/documents.md")]
pub struct DocumentsDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/persistent-index.md")]
pub struct PersistentIndexDoctests;
#[cfg(all(doctest, feature = "object-store"))]
#[doc = include_str!("../docs/remote.md")]
pub struct RemoteDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/security.md")]
pub struct SecurityDoctests;
