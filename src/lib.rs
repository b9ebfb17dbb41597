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
//! let tail = Reader::new().read("tests/data/sample.txt", LineSelection::Tail(5))?;
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
//! A read flows one way, one module a step: the [`Source`] (positional reads by default,
//! bytes in memory, or an opt-in memory map) → the selection ([`Selection`], through the
//! [`LineIndex`]) → the budget → the summary of what was omitted → a plain-data
//! [`ReadResult`] → a renderer ([`render`], [`Format`]).
//!
//! # What was left out: summaries, outlines, blocks
//!
//! A partial read says what it did not return: `omitted` counts the lines and bytes on
//! both sides and lists *landmarks*, the lines there that look like structure
//! (definitions in Rust, Python, JS/TS, Go, Java/Kotlin/C#, C/C++, Ruby, PHP, shell and
//! SQL, Markdown headings, TOML/INI sections, top-level YAML keys), nearest to the read
//! first. The search looks at most [`Reader::landmark_window`] bytes (256 KiB) on each
//! side, so a small read of a huge file stays small; [`Reader::summaries`] turns it off.
//! [`Document::outline`] lists the landmarks of a whole file, and
//! [`LineSelection::Block`] reads the definition around a line.
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
//! # Handling of invalid UTF-8
//!
//! Content is UTF-8. Under the default [`Utf8Policy::Lossy`] each invalid sequence becomes
//! one U+FFFD and the result reports `invalid_utf8: {count, first_offset}` (file offsets);
//! [`ReadResult::raw_bytes`] still gives the exact bytes. [`Utf8Policy::Strict`] fails with
//! `Invalid UTF-8 at byte X`.
//!
//! # Crate features
//!
//! None yet; the library is pure-sync and depends only on small, well-kept crates.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod block;
mod budget;
mod decode;
mod error;
mod index;
mod landmarks;
mod read;
mod render;
mod result;
mod select;
mod source;
mod summarize;

pub use decode::Utf8Policy;
pub use error::{Error, FileKind, Result};
pub use index::{LineIndex, DEFAULT_BLOCK_SIZE};
pub use read::{
    Document, Reader, Totals, DEFAULT_LANDMARK_WINDOW, DEFAULT_MAX_LANDMARKS,
    DEFAULT_OUTLINE_MAX_BYTES,
};
pub use render::{language_for, notes, render, render_to, Format};
pub use result::{
    Adjustments, ByteSpan, CutLine, InvalidUtf8, Landmark, LineEnding, LineSpan, Omitted, Outline,
    ReadResult, Requested, RequestedLines, Truncation, TruncationReason,
};
pub use select::{ByteSelection, LineSelection, Selection, Snap};
pub use source::Source;
