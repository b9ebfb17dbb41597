//! The sparse line index.
//!
//! A [`LineIndex`] stores, for every block of the file (64 KiB by default), how many LF
//! bytes come before the block's first byte. That is 8 bytes per 64 KiB (0.012% of the
//! file) and enough to find any line: a binary search picks the block, one SIMD count
//! inside it picks the byte. The index is built lazily, only as far as a question needs,
//! and can be extended when the file grows by appending.

use crate::error::Result;
use crate::source::Source;
use crate::text::{Encoding, Layout};

mod checkpoints;
mod scan;
#[cfg(test)]
mod tests;

use checkpoints::Checkpoints;
use scan::{Goal, PARALLEL_MIN, PIECE, WINDOW_PER_THREAD};

/// Default block size of the index (64 KiB).
pub const DEFAULT_BLOCK_SIZE: u64 = 64 * 1024;

/// A sparse, lazily built index of line starts over one [`Source`].
///
/// Lines are 1-indexed. A line ends at LF; the LF (and a CR before it) belongs to the
/// line. `total_lines` is the number of LF bytes, plus one when the file is non-empty and
/// does not end with LF, which is what `sed -n '$='` prints.
///
/// Every method that may need to look further into the file takes the source and scans
/// only as far as the question requires.
///
/// # Example
///
/// ```
/// use rangeread::{LineIndex, Source};
///
/// let src = Source::from_bytes(b"one\ntwo\r\nthree".to_vec(), "mem");
/// let mut index = LineIndex::new(src.len());
/// assert_eq!(index.total_lines(&src)?, 3);
/// assert_eq!(index.line_span(&src, 2)?, Some(4..9));
/// assert_eq!(index.line_of_offset(&src, 10)?, 3);
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct LineIndex {
    block: u64,
    /// `checkpoints.get(i)` = LF bytes in `[0, i * block)`, for every block start scanned.
    checkpoints: Checkpoints,
    /// Bytes scanned from the start of the file.
    scanned: u64,
    /// LF bytes in `[0, scanned)`.
    newlines: u64,
    /// Whether the bytes before `scanned` end with an LF (code unit).
    last_is_lf: bool,
    len: u64,
    /// The layout of the text: its code units say what an LF is, and line 1 starts at
    /// its text start (past a byte order mark).
    layout: Layout,
    /// How far scanning may go in the current call (a file offset), and the budget that
    /// set it: see [`LineIndex::set_scan_budget`].
    scan_limit: Option<(u64, u64)>,
    /// How many threads a long scan may use (1: this thread only).
    threads: usize,
    /// The least a scan must have ahead of it to be split over threads.
    parallel_min: u64,
    /// Bytes a thread of a parallel scan counts per piece it takes (whole blocks).
    piece: u64,
    /// How far ahead of the counted prefix a parallel scan may hand out pieces, in bytes
    /// per thread: about what a search for a line number may count beyond its line.
    window: u64,
}

impl LineIndex {
    /// An empty index for a source of `len` bytes, with 64 KiB blocks.
    pub fn new(len: u64) -> LineIndex {
        LineIndex::with_block_size(len, DEFAULT_BLOCK_SIZE)
    }

    /// An empty index with another block size (at least 1 byte). Smaller blocks make
    /// lookups cheaper and the index larger.
    pub fn with_block_size(len: u64, block: u64) -> LineIndex {
        LineIndex {
            block: block.max(1),
            checkpoints: Checkpoints::new(),
            scanned: 0,
            newlines: 0,
            last_is_lf: false,
            len,
            layout: Layout::utf8(),
            scan_limit: None,
            threads: 1,
            parallel_min: PARALLEL_MIN,
            piece: PIECE,
            window: WINDOW_PER_THREAD,
        }
    }

    /// An index for text in `layout` (line 1 starts past a byte order mark); the block
    /// size is rounded up to whole code units.
    pub(crate) fn for_layout(len: u64, block: u64, layout: &Layout) -> LineIndex {
        LineIndex {
            layout: Layout {
                text_start: layout.text_start.min(len),
                ..*layout
            },
            ..LineIndex::with_block_size(len, layout.units.round_up(block.max(1)))
        }
    }

    /// Whether `other` was made for the same text layout (units, start and block size).
    pub(crate) fn same_layout(&self, other: &LineIndex) -> bool {
        self.layout == other.layout && self.block == other.block
    }

    /// The length of the source this index describes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the indexed source is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many bytes from the start have been scanned so far.
    pub fn scanned(&self) -> u64 {
        self.scanned
    }

    /// Whether the whole source has been scanned, so that totals are known.
    pub fn is_complete(&self) -> bool {
        self.scanned == self.len
    }

    /// Total lines, if the index is complete; never scans.
    pub fn known_total_lines(&self) -> Option<u64> {
        self.is_complete().then(|| self.total_from_scan())
    }

    /// The block size: one checkpoint per this many bytes.
    pub fn block_size(&self) -> u64 {
        self.block
    }

    /// Heap memory used by the index, in bytes.
    pub fn memory_bytes(&self) -> usize {
        self.checkpoints.memory_bytes()
    }

    /// Accepts that the source grew by appending to `new_len` bytes: what was indexed
    /// stays, and later questions scan from the old end. A smaller `new_len` means the
    /// file was truncated or rewritten, and the index starts over.
    ///
    /// The caller is responsible for knowing that the old bytes are unchanged (the cache
    /// checks a sample of the indexed prefix before extending).
    pub fn extend(&mut self, new_len: u64) {
        if new_len < self.scanned {
            *self = LineIndex {
                layout: Layout {
                    text_start: self.layout.text_start.min(new_len),
                    ..self.layout
                },
                threads: self.threads,
                ..LineIndex::with_block_size(new_len, self.block)
            };
        } else {
            self.len = new_len;
        }
    }

    /// The number of lines in the source; scans the rest of the source once if needed.
    ///
    /// # Errors
    ///
    /// [`crate::Error::Changed`] if the source shrank, or an I/O error.
    pub fn total_lines(&mut self, src: &Source) -> Result<u64> {
        self.scan_to(src, self.len)?;
        Ok(self.total_from_scan())
    }

    fn total_from_scan(&self) -> u64 {
        self.newlines + u64::from(self.len > self.layout.text_start && !self.last_is_lf)
    }

    /// The bytes of line `line` (1-indexed), terminator included, or `None` if the
    /// source has fewer lines. Scans only as far as the end of that line.
    ///
    /// # Errors
    ///
    /// As [`LineIndex::total_lines`].
    pub fn line_span(&mut self, src: &Source, line: u64) -> Result<Option<std::ops::Range<u64>>> {
        let Some(start) = self.line_start(src, line)? else {
            return Ok(None);
        };
        let end = self.line_start(src, line + 1)?.unwrap_or(self.len);
        Ok(Some(start..end))
    }

    /// The byte offset at which line `line` (1-indexed) starts, or `None` if the source
    /// has fewer lines. Scans up to the LF that ends the line before it.
    ///
    /// # Errors
    ///
    /// As [`LineIndex::total_lines`].
    pub fn line_start(&mut self, src: &Source, line: u64) -> Result<Option<u64>> {
        if line == 0 || self.len <= self.layout.text_start {
            return Ok(None);
        }
        if line == 1 {
            return Ok(Some(self.layout.text_start));
        }
        let nth = line - 1; // the start follows the nth LF (1-based)
        self.scan_until_newlines(src, nth)?;
        if self.newlines < nth {
            return Ok(None);
        }
        // The block holding the nth LF: the last checkpoint with fewer than nth before it.
        let b = self.checkpoints.partition_point(|&c| c < nth) - 1;
        let block_start = b as u64 * self.block;
        let block_end = (block_start + self.block).min(self.scanned);
        let skip = (nth - self.checkpoints.get(b) - 1) as usize;
        let mut scratch = Vec::new();
        let units = self.layout.units;
        let end = src.with_range(block_start, block_end, &mut scratch, |bytes| {
            units.lf_ends(block_start, bytes).nth(skip)
        })?;
        let Some(end) = end else {
            return Err(src.changed());
        };
        let start = block_start + end as u64;
        Ok((start < self.len).then_some(start))
    }

    /// The line (1-indexed) that holds the byte at `offset`; an offset at or past the end
    /// gives the line after the last LF. Scans up to `offset`.
    ///
    /// # Errors
    ///
    /// As [`LineIndex::total_lines`].
    pub fn line_of_offset(&mut self, src: &Source, offset: u64) -> Result<u64> {
        let offset = offset.min(self.len);
        self.scan_to(src, offset)?;
        let b = (offset / self.block) as usize;
        let block_start = b as u64 * self.block;
        let mut scratch = Vec::new();
        let units = self.layout.units;
        let inside = src.with_range(block_start, offset, &mut scratch, |bytes| {
            units.count_lf(block_start, bytes)
        })?;
        Ok(self.checkpoints.get(b) + inside + 1)
    }

    /// Bounds the scanning from here on to `budget` bytes beyond what is indexed now
    /// (`None`: no bound); a question that needs more fails with
    /// [`crate::Error::ScanBudget`], and what was scanned stays indexed.
    pub(crate) fn set_scan_budget(&mut self, budget: Option<u64>) {
        self.scan_limit = budget.map(|b| {
            (
                self.layout.units.align_down(self.scanned.saturating_add(b)),
                b,
            )
        });
    }

    /// Lets long scans (at least 8 MiB ahead) count on `n` threads at once, each with
    /// its own positional reads; `1` keeps them on the calling thread.
    pub(crate) fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Scans forward until at least `target` bytes are indexed (or the end).
    pub(crate) fn scan_to(&mut self, src: &Source, target: u64) -> Result<()> {
        self.scan(src, Goal::Offset(target))
    }

    fn scan_until_newlines(&mut self, src: &Source, n: u64) -> Result<()> {
        self.scan(src, Goal::Newlines(n))
    }

    fn reached(&self, goal: Goal) -> bool {
        match goal {
            Goal::Offset(t) => self.scanned >= t,
            Goal::Newlines(n) => self.newlines >= n,
        }
    }
}

/// Everything a scan leaves behind that later answers depend on: what a persistent
/// index directory stores (see `crate::persist`). Scan limits and thread counts are
/// settings of one read, not state, and are not part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexParts {
    pub block: u64,
    pub len: u64,
    pub scanned: u64,
    pub newlines: u64,
    pub last_is_lf: bool,
    pub encoding: Encoding,
    pub text_start: u64,
    /// LF bytes before each block start scanned (the first is 0).
    pub checkpoints: Vec<u64>,
}

impl LineIndex {
    /// The index's state, for storing it.
    pub(crate) fn to_parts(&self) -> IndexParts {
        IndexParts {
            block: self.block,
            len: self.len,
            scanned: self.scanned,
            newlines: self.newlines,
            last_is_lf: self.last_is_lf,
            encoding: self.layout.encoding,
            text_start: self.layout.text_start,
            checkpoints: (0..self.checkpoints.len)
                .map(|i| self.checkpoints.get(i))
                .collect(),
        }
    }

    /// An index with a stored state, or `None` when the state is not one a scan can
    /// leave behind: one checkpoint per whole block scanned (plus the first, 0), never
    /// decreasing, never more LF bytes than bytes, nothing past the length, and the
    /// block size in whole code units. A stored index that passes its checksum but not
    /// this is not trusted.
    pub(crate) fn from_parts(p: IndexParts) -> Option<LineIndex> {
        let layout = Layout::new(p.encoding, p.text_start);
        let consistent = p.block >= 1
            && layout.units.round_up(p.block) == p.block
            && p.text_start <= p.len
            && p.scanned <= p.len
            && p.newlines <= p.scanned
            && (p.scanned > 0 || !p.last_is_lf)
            && (p.newlines > 0 || !p.last_is_lf)
            && u64::try_from(p.checkpoints.len()).ok() == Some(p.scanned / p.block + 1)
            && p.checkpoints.first() == Some(&0)
            && p.checkpoints
                .windows(2)
                .all(|w| w[0] <= w[1] && w[1] - w[0] <= p.block)
            && p.checkpoints.last().is_some_and(|&last| {
                let last_start = (p.checkpoints.len() as u64 - 1) * p.block;
                last <= p.newlines && p.newlines - last <= p.scanned - last_start
            });
        if !consistent {
            return None;
        }
        let checkpoints = Checkpoints::from_values(&p.checkpoints);
        Some(LineIndex {
            checkpoints,
            scanned: p.scanned,
            newlines: p.newlines,
            last_is_lf: p.last_is_lf,
            layout,
            ..LineIndex::with_block_size(p.len, p.block)
        })
    }
}
