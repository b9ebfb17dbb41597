//! The sparse line index.
//!
//! A [`LineIndex`] stores, for every block of the file (64 KiB by default), how many LF
//! bytes come before the block's first byte. That is 8 bytes per 64 KiB (0.012% of the
//! file) and enough to find any line: a binary search picks the block, one SIMD count
//! inside it picks the byte. The index is built lazily, only as far as a question needs,
//! and can be extended when the file grows by appending.

use std::sync::Arc;

use crate::error::Result;
use crate::source::Source;
use crate::text::{Layout, Units};

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
    /// Where line 1 starts: past a byte order mark, else 0.
    text_start: u64,
    /// The code units of the text, which say what an LF is.
    units: Units,
    /// How far scanning may go in the current call (a file offset), and the budget that
    /// set it: see [`LineIndex::set_scan_budget`].
    scan_limit: Option<(u64, u64)>,
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
            text_start: 0,
            units: Units::Utf8,
            scan_limit: None,
        }
    }

    /// An index for text in `layout` (line 1 starts past a byte order mark); the block
    /// size is rounded up to whole code units.
    pub(crate) fn for_layout(len: u64, block: u64, layout: &Layout) -> LineIndex {
        LineIndex {
            text_start: layout.text_start.min(len),
            units: layout.units,
            ..LineIndex::with_block_size(len, layout.units.round_up(block.max(1)))
        }
    }

    /// Whether `other` was made for the same text layout (units, start and block size).
    pub(crate) fn same_layout(&self, other: &LineIndex) -> bool {
        self.text_start == other.text_start
            && self.block == other.block
            && self.units == other.units
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
                units: self.units,
                text_start: self.text_start.min(new_len),
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
        self.newlines + u64::from(self.len > self.text_start && !self.last_is_lf)
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
        if line == 0 || self.len <= self.text_start {
            return Ok(None);
        }
        if line == 1 {
            return Ok(Some(self.text_start));
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
        let units = self.units;
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
        let units = self.units;
        let inside = src.with_range(block_start, offset, &mut scratch, |bytes| {
            units.count_lf(block_start, bytes)
        })?;
        Ok(self.checkpoints.get(b) + inside + 1)
    }

    /// Bounds the scanning from here on to `budget` bytes beyond what is indexed now
    /// (`None`: no bound); a question that needs more fails with
    /// [`crate::Error::ScanBudget`], and what was scanned stays indexed.
    pub(crate) fn set_scan_budget(&mut self, budget: Option<u64>) {
        self.scan_limit =
            budget.map(|b| (self.units.align_down(self.scanned.saturating_add(b)), b));
    }

    /// Scans forward until at least `target` bytes are indexed (or the end).
    pub(crate) fn scan_to(&mut self, src: &Source, target: u64) -> Result<()> {
        self.scan(src, |ix| ix.scanned >= target)
    }

    fn scan_until_newlines(&mut self, src: &Source, n: u64) -> Result<()> {
        self.scan(src, |ix| ix.newlines >= n)
    }

    /// Scans chunk by chunk, block by block, until `done` holds or the source ends.
    fn scan(&mut self, src: &Source, done: impl Fn(&LineIndex) -> bool) -> Result<()> {
        if self.len > src.len() {
            return Err(src.changed());
        }
        let units = self.units;
        let chunk = units.round_up(src.chunk_size() as u64);
        let mut scratch = Vec::new();
        while !done(self) && self.scanned < self.len {
            let start = self.scanned;
            // A hole of a sparse file holds no line feed: pass it without reading it.
            if let Some((_, hole_end)) = src.hole_at(start) {
                let to = hole_end.min(self.len);
                let mut block_end = (start / self.block + 1) * self.block;
                while block_end <= to {
                    self.checkpoints.push(self.newlines);
                    block_end += self.block;
                }
                self.scanned = to;
                self.last_is_lf = false;
                continue;
            }
            let mut end = (start + chunk.max(1))
                .min(self.len)
                .min(src.next_hole(start));
            if let Some((limit, budget)) = self.scan_limit {
                if start >= limit {
                    return Err(crate::error::Error::ScanBudget {
                        path: src.path().to_path_buf(),
                        budget,
                        scanned: start,
                        file_size: self.len,
                    });
                }
                end = end.min(limit);
            }
            let mut stop = false;
            src.with_range(start, end, &mut scratch, |bytes| {
                let mut at = 0usize;
                while at < bytes.len() && !stop {
                    let pos = start + at as u64;
                    let block_end = (pos / self.block + 1) * self.block;
                    let piece_end = (block_end.min(end) - start) as usize;
                    let piece = &bytes[at..piece_end];
                    self.newlines += units.count_lf(pos, piece);
                    self.last_is_lf = units.ends_with_lf(pos, piece);
                    self.scanned = start + piece_end as u64;
                    if self.scanned == block_end {
                        self.checkpoints.push(self.newlines);
                    }
                    at = piece_end;
                    stop = done(self);
                }
            })?;
        }
        Ok(())
    }
}

/// Entries per segment of [`Checkpoints`]: 32 KiB, below the allocator's mmap threshold.
const SEGMENT: usize = 4096;

/// The checkpoint list, in shared fixed-size segments: cloning an index (as the cache
/// does for every read) copies a few pointers, and growing it copies at most the last
/// segment.
#[derive(Debug, Clone)]
struct Checkpoints {
    segments: Vec<Arc<Vec<u64>>>,
    len: usize,
}

impl Checkpoints {
    fn new() -> Checkpoints {
        let mut c = Checkpoints {
            segments: Vec::new(),
            len: 0,
        };
        c.push(0);
        c
    }

    fn get(&self, i: usize) -> u64 {
        self.segments[i / SEGMENT][i % SEGMENT]
    }

    fn push(&mut self, v: u64) {
        if self.len.is_multiple_of(SEGMENT) {
            // Grows by doubling up to SEGMENT, so small files keep small indexes.
            self.segments.push(Arc::new(Vec::new()));
        }
        if let Some(last) = self.segments.last_mut() {
            Arc::make_mut(last).push(v);
        }
        self.len += 1;
    }

    /// The index of the first entry for which `pred` is false (entries are sorted).
    fn partition_point(&self, pred: impl Fn(&u64) -> bool) -> usize {
        let seg = self
            .segments
            .partition_point(|s| s.last().is_some_and(&pred));
        match self.segments.get(seg) {
            Some(s) => seg * SEGMENT + s.partition_point(&pred),
            None => self.len,
        }
    }

    fn memory_bytes(&self) -> usize {
        self.segments
            .iter()
            .map(|s| s.capacity() * 8)
            .sum::<usize>()
            + self.segments.capacity() * std::mem::size_of::<Arc<Vec<u64>>>()
    }
}
