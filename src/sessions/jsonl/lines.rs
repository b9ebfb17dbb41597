//! Line reading for the JSONL engine, over the crate's line rules (`text`, `lines`).
//!
//! A forward walk ([`forward`]), a backward walk ([`Backward`]), the next line start
//! after a position ([`next_line_start`]) and the first line of a stream
//! ([`first_line`]). Every pass of the engine (paging, counting, titles) and every store
//! reads lines through these; nothing in `sessions` searches for `\n` itself: the line
//! feeds come from [`line_feeds`], the backward scan and the next line start from
//! [`Lines`] (which also passes the holes of sparse files).
//!
//! Transcripts are UTF-8 JSONL: a line ends at LF; a CR before it is left to the JSON
//! parser, which takes it as whitespace.

use std::io::Read;

use crate::error::Result;
use crate::lines::Lines;
use crate::source::Source;
use crate::text::{line_feeds, Layout};

/// Size of one forward read (1 MiB).
pub(crate) const CHUNK: u64 = 1 << 20;
/// Lines fetched by the first step of a backward walk; each step doubles it up to
/// [`MAX_BATCH`].
const FIRST_BATCH: u64 = 16;
const MAX_BATCH: u64 = 512;

/// One line handed out by [`forward`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    /// Where the line starts in the source.
    pub offset: u64,
    /// The line without its LF.
    pub bytes: &'a [u8],
    /// Whether an LF ends it (the last line of a file being written may have none yet).
    pub terminated: bool,
}

/// Calls `f` for each line in `[from, to)` until it returns `false`. Returns the offset
/// just past the last LF-terminated line handed to `f`: where a later pass over the
/// appended lines continues.
pub(crate) fn forward(
    src: &Source,
    from: u64,
    to: u64,
    mut f: impl FnMut(Line<'_>) -> bool,
) -> Result<u64> {
    let mut buf: Vec<u8> = Vec::new();
    let mut buf_start = from;
    let mut next_read = from;
    let mut searched = 0usize;
    loop {
        let mut consumed = 0usize;
        while let Some(i) = { line_feeds(&buf[searched..]).next() } {
            let end = searched + i;
            let line = Line {
                offset: buf_start + consumed as u64,
                bytes: &buf[consumed..end],
                terminated: true,
            };
            if !f(line) {
                return Ok(buf_start + end as u64 + 1);
            }
            consumed = end + 1;
            searched = consumed;
        }
        buf.drain(..consumed);
        buf_start += consumed as u64;
        searched = buf.len();
        if next_read >= to {
            if !buf.is_empty() {
                f(Line {
                    offset: buf_start,
                    bytes: &buf,
                    terminated: false,
                });
            }
            return Ok(buf_start);
        }
        let n = (to - next_read).min(CHUNK) as usize;
        let old = buf.len();
        buf.resize(old + n, 0);
        src.read_exact_at(next_read, &mut buf[old..])?;
        next_read += n as u64;
    }
}

/// Walks the lines of `[0, end)` backwards, newest first, a batch at a time: each batch
/// is found with the crate's backward line scan ([`Lines::tail_start`]) and read in one piece.
pub(crate) struct Backward<'a> {
    src: &'a Source,
    end: u64,
    batch: u64,
    buf: Vec<u8>,
    /// Line ranges of `buf` not handed out yet, oldest first.
    pending: Vec<(usize, usize)>,
}

impl<'a> Backward<'a> {
    pub(crate) fn new(src: &'a Source, end: u64) -> Backward<'a> {
        Backward {
            src,
            end,
            batch: FIRST_BATCH,
            buf: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// The previous line (without its LF), or `None` at the start of the file.
    pub(crate) fn next_line(&mut self) -> Result<Option<&[u8]>> {
        if self.pending.is_empty() {
            if self.end == 0 {
                return Ok(None);
            }
            let start = Lines::new(self.src, Layout::utf8()).tail_start(self.end, self.batch)?;
            let n = usize::try_from(self.end - start).map_err(|_| self.src.changed())?;
            self.buf.clear();
            self.buf.resize(n, 0);
            self.src.read_exact_at(start, &mut self.buf)?;
            let mut at = 0;
            for i in line_feeds(&self.buf) {
                self.pending.push((at, i));
                at = i + 1;
            }
            if at < self.buf.len() {
                self.pending.push((at, self.buf.len()));
            }
            self.end = start;
            self.batch = (self.batch * 2).min(MAX_BATCH);
        }
        Ok(self.pending.pop().map(|(a, b)| &self.buf[a..b]))
    }
}

/// The first line start at or after `pos`: `pos` itself when a line starts there.
pub(crate) fn next_line_start(src: &Source, pos: u64) -> Result<u64> {
    if pos == 0 {
        return Ok(0);
    }
    // Just past the first LF at or after `pos - 1`.
    Lines::new(src, Layout::utf8()).ceil(pos - 1)
}

/// The first line of a stream (without its LF), read a few KiB at a time and at most
/// `limit` bytes long; `None` when the stream is empty or its first line is longer.
pub(crate) fn first_line(mut r: impl Read, limit: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8 << 10];
    loop {
        let n = r.read(&mut chunk)?;
        let searched = buf.len();
        buf.extend_from_slice(&chunk[..n]);
        let lf = line_feeds(&buf[searched..]).next();
        if let Some(i) = lf {
            buf.truncate(searched + i);
            return Ok(Some(buf));
        }
        if n == 0 {
            return Ok((!buf.is_empty()).then_some(buf));
        }
        if buf.len() > limit {
            return Ok(None);
        }
    }
}
