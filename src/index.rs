//! The sparse line index.
//!
//! A [`LineIndex`] stores, for every block of the file (64 KiB by default), how many LF
//! bytes come before the block's first byte. That is 8 bytes per 64 KiB (0.012% of the
//! file) and enough to find any line: a binary search picks the block, one SIMD count
//! inside it picks the byte. The index is built lazily, only as far as a question needs,
//! and can be extended when the file grows by appending.

use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::error::Result;
use crate::source::Source;
use crate::text::{Encoding, Layout};

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

    /// Appends the counts of one piece that starts at `self.scanned`, as the sequential
    /// scan would: a checkpoint after every whole block (the last may end at `b`).
    fn append_piece(&mut self, piece: &Piece, b: u64) {
        for &lfs in &piece.counts {
            let block_start = self.scanned;
            let block_end = (block_start + self.block).min(b);
            self.newlines += lfs;
            self.scanned = block_end;
            if block_end == block_start + self.block {
                self.checkpoints.push(self.newlines);
            }
        }
        self.last_is_lf = piece.last_is_lf;
    }

    /// Counts `[a, b)` (`a` on a block boundary, `b` on one or the end) on `threads`
    /// threads, the calling one among them, and appends the checkpoints as the
    /// sequential scan would. The range is handed out in pieces of whole blocks to
    /// whichever thread is free, so a thread that the machine slows down holds up no
    /// other; finished pieces are joined in order. Pieces are handed out at most
    /// `window` bytes ahead of the joined prefix, and once the prefix holds `need`
    /// newlines no more are: a search for a line number counts at most about one window
    /// past its line.
    fn scan_parallel(&mut self, src: &Source, a: u64, b: u64, need: Option<u64>) -> Result<()> {
        let (block, layout, threads) = (self.block, self.layout, self.threads);
        let piece = self.piece.max(block) / block * block;
        let pieces = (b - a).div_ceil(piece);
        let window = (self.window.saturating_mul(threads as u64) / piece).max(threads as u64);
        let shared = Mutex::new(Shared {
            ix: self,
            next: 0,
            joined: 0,
            finished: BTreeMap::new(),
            stop: false,
            error: None,
        });
        let wake = Condvar::new();
        let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
        let work = || {
            // A thread that panics stops the others (they may be waiting for its piece).
            let _guard = StopOnPanic(&shared, &wake);
            let mut scratch = Vec::new();
            let mut st = lock();
            loop {
                while !st.stop && st.next < pieces && st.next >= st.joined + window {
                    st = wake.wait(st).unwrap_or_else(|e| e.into_inner());
                }
                if st.stop || st.next >= pieces {
                    return;
                }
                let k = st.next;
                st.next += 1;
                drop(st);
                let s = a + k * piece;
                let counted = count_piece(src, layout, block, s, (s + piece).min(b), &mut scratch);
                st = lock();
                match counted {
                    Ok(p) => {
                        st.finished.insert(k, p);
                    }
                    Err(e) => {
                        if st.error.as_ref().is_none_or(|(at, _)| k < *at) {
                            st.error = Some((k, e));
                        }
                        st.stop = true;
                        wake.notify_all();
                        return;
                    }
                }
                let before = st.joined;
                loop {
                    let j = st.joined;
                    let Some(p) = st.finished.remove(&j) else {
                        break;
                    };
                    st.ix.append_piece(&p, b);
                    st.joined += 1;
                    if need.is_some_and(|n| st.ix.newlines >= n) {
                        st.stop = true;
                    }
                }
                if st.joined != before || st.stop {
                    wake.notify_all();
                }
            }
        };
        let panicked = std::thread::scope(|scope| {
            let handles: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            work();
            // Join every thread (not only up to the first that panicked).
            handles
                .into_iter()
                .map(|h| h.join().is_err())
                .fold(false, |any, p| any | p)
        });
        let st = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        match st.error {
            Some((_, e)) => Err(e),
            None if panicked => Err(src.changed()),
            None => Ok(()),
        }
    }

    /// Scans chunk by chunk, block by block, until `goal` is reached or the source ends.
    fn scan(&mut self, src: &Source, goal: Goal) -> Result<()> {
        if self.len > src.len() {
            return Err(src.changed());
        }
        let target = match goal {
            Goal::Offset(t) => Some(t),
            Goal::Newlines(_) => None,
        };
        let need = match goal {
            Goal::Offset(_) => None,
            Goal::Newlines(n) => Some(n),
        };
        let units = self.layout.units;
        let chunk = units.round_up(src.chunk_size() as u64);
        let mut scratch = Vec::new();
        if !self.reached(goal) && self.scanned < self.len {
            // A remote source reads the pass in one stream rather than a request a chunk.
            let limit = self.scan_limit.map_or(self.len, |(l, _)| l).min(self.len);
            src.will_read(self.scanned, target.map_or(limit, |t| t.min(limit)));
        }
        while !self.reached(goal) && self.scanned < self.len {
            let start = self.scanned;
            // A hole of a sparse file holds no line feed: pass it without reading it.
            if let Some((_, hole_end)) = src.hole_at(start) {
                let to = hole_end.min(self.len);
                // A checkpoint for every block start in (start, to]: all the same count.
                let blocks = to / self.block - start / self.block;
                self.checkpoints
                    .push_n(self.newlines, usize::try_from(blocks).unwrap_or(usize::MAX));
                self.scanned = to;
                self.last_is_lf = false;
                continue;
            }
            if self.threads > 1 && start.is_multiple_of(self.block) {
                // Long scans on several threads, as far as the scan may go: a search for
                // a line number stops the threads once they have passed it.
                let limit = self.scan_limit.map_or(self.len, |(l, _)| l).min(self.len);
                let mut b = target.map_or(limit, |t| t.min(limit));
                if b < self.len {
                    b -= b % self.block;
                }
                if b > start && b - start >= self.parallel_min {
                    self.scan_parallel(src, start, b, need)?;
                    continue;
                }
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
                    stop = self.reached(goal);
                }
            })?;
        }
        Ok(())
    }
}

/// What a scan must reach: an offset, or a number of newlines.
#[derive(Debug, Clone, Copy)]
enum Goal {
    Offset(u64),
    Newlines(u64),
}

/// The counts of one piece of a parallel scan.
struct Piece {
    /// LF code units in each block of the piece.
    counts: Vec<u64>,
    /// Whether the piece ends with an LF.
    last_is_lf: bool,
}

/// What the threads of a parallel scan share.
struct Shared<'a> {
    ix: &'a mut LineIndex,
    /// The next piece to hand out.
    next: u64,
    /// How many pieces have been appended to the index, in order.
    joined: u64,
    /// Counted pieces waiting for those before them.
    finished: BTreeMap<u64, Piece>,
    /// No more pieces are handed out: the goal is reached, or a piece failed.
    stop: bool,
    /// The failure of the earliest failed piece.
    error: Option<(u64, crate::Error)>,
}

/// Stops a parallel scan when the thread holding it panics.
struct StopOnPanic<'a, 'b>(&'a Mutex<Shared<'b>>, &'a Condvar);

impl Drop for StopOnPanic<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut st: MutexGuard<'_, Shared<'_>> =
                self.0.lock().unwrap_or_else(|e| e.into_inner());
            st.stop = true;
            self.1.notify_all();
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
        let checkpoints = Checkpoints {
            segments: p.checkpoints.chunks(SEGMENT).map(Segment::of).collect(),
            len: p.checkpoints.len(),
        };
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

/// The least a scan must have ahead of it to be split over threads (8 MiB).
const PARALLEL_MIN: u64 = 8 << 20;

/// Bytes a thread of a parallel scan counts per piece it takes (1 MiB): small enough
/// that the threads finish together, large enough that handing out costs nothing.
const PIECE: u64 = 1 << 20;

/// How far ahead of the counted prefix a parallel scan hands out pieces, per thread
/// (16 MiB: on 2 threads a search counts at most about 32 MiB past its line).
const WINDOW_PER_THREAD: u64 = 16 << 20;

/// The line feeds of each block of `[s, e)` (`s` on a block boundary), and whether the
/// range ends with one. Reads a chunk at a time, as the sequential scan does, and splits
/// each chunk at block ends; holes of a sparse file are passed without reading them.
fn count_piece(
    src: &Source,
    layout: Layout,
    block: u64,
    s: u64,
    e: u64,
    scratch: &mut Vec<u8>,
) -> Result<Piece> {
    let units = layout.units;
    let chunk = units.round_up(src.chunk_size() as u64).max(1);
    let mut counts = vec![0; (e - s).div_ceil(block) as usize];
    let mut last_is_lf = false;
    let mut lo = s;
    while lo < e {
        if let Some((_, hole_end)) = src.hole_at(lo) {
            lo = hole_end.min(e);
            last_is_lf = false;
            continue;
        }
        let hi = (lo + chunk).min(e).min(src.next_hole(lo));
        last_is_lf = src.with_range(lo, hi, scratch, |bytes| {
            let mut at = lo;
            while at < hi {
                let to = ((at / block + 1) * block).min(hi);
                let part = &bytes[(at - lo) as usize..(to - lo) as usize];
                counts[((at - s) / block) as usize] += units.count_lf(at, part);
                at = to;
            }
            units.ends_with_lf(lo, bytes)
        })?;
        lo = hi;
    }
    Ok(Piece { counts, last_is_lf })
}

/// Entries per segment of [`Checkpoints`]: 32 KiB, below the allocator's mmap threshold.
const SEGMENT: usize = 4096;

/// The checkpoint list, in shared fixed-size segments: cloning an index (as the cache
/// does for every read) copies a few pointers, and growing it copies at most the last
/// segment. A segment whose entries are all equal (blocks without a line feed: the holes
/// of a sparse file, a run of NUL bytes) is kept as its value and count, so that a 1 TiB
/// hole costs 4,096 small segments, not 128 MiB of equal numbers.
#[derive(Debug, Clone)]
struct Checkpoints {
    segments: Vec<Segment>,
    len: usize,
}

#[derive(Debug, Clone)]
enum Segment {
    /// `count` entries, all `value`.
    Run {
        value: u64,
        count: usize,
    },
    Dense(Arc<Vec<u64>>),
}

impl Segment {
    fn last(&self) -> Option<u64> {
        match self {
            Segment::Run { value, .. } => Some(*value),
            Segment::Dense(v) => v.last().copied(),
        }
    }

    /// The segment of `values`: a run when they are all equal.
    fn of(values: &[u64]) -> Segment {
        match values.first() {
            Some(&v) if values.iter().all(|&x| x == v) => Segment::Run {
                value: v,
                count: values.len(),
            },
            _ => Segment::Dense(Arc::new(values.to_vec())),
        }
    }
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
        match &self.segments[i / SEGMENT] {
            Segment::Run { value, .. } => *value,
            Segment::Dense(v) => v[i % SEGMENT],
        }
    }

    fn push(&mut self, v: u64) {
        self.push_n(v, 1);
    }

    /// Appends `n` entries equal to `v`.
    fn push_n(&mut self, v: u64, mut n: usize) {
        while n > 0 {
            if self.len.is_multiple_of(SEGMENT) {
                self.segments.push(Segment::Run { value: v, count: 0 });
            }
            let room = SEGMENT - self.len % SEGMENT;
            let k = n.min(room);
            let Some(last) = self.segments.last_mut() else {
                return;
            };
            match last {
                // A new segment starts as a run of `v`.
                Segment::Run { value, count } if *value == v => *count += k,
                Segment::Run { value, count } => {
                    // Grows by doubling up to SEGMENT, so small files keep small indexes.
                    let mut dense = vec![*value; *count];
                    dense.extend(std::iter::repeat_n(v, k));
                    *last = Segment::Dense(Arc::new(dense));
                }
                Segment::Dense(d) => Arc::make_mut(d).extend(std::iter::repeat_n(v, k)),
            }
            self.len += k;
            n -= k;
        }
    }

    /// The index of the first entry for which `pred` is false (entries are sorted).
    fn partition_point(&self, pred: impl Fn(&u64) -> bool) -> usize {
        let seg = self
            .segments
            .partition_point(|s| s.last().is_some_and(|v| pred(&v)));
        match self.segments.get(seg) {
            Some(Segment::Dense(s)) => seg * SEGMENT + s.partition_point(&pred),
            Some(Segment::Run { value, count }) => {
                seg * SEGMENT + if pred(value) { *count } else { 0 }
            }
            None => self.len,
        }
    }

    fn memory_bytes(&self) -> usize {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Run { .. } => 0,
                Segment::Dense(v) => v.capacity() * 8,
            })
            .sum::<usize>()
            + self.segments.capacity() * std::mem::size_of::<Segment>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Everything a scan leaves behind that later answers depend on.
    /// Lines of `n` x's each, every one ended by a line feed.
    fn x_lines(lines: &[usize]) -> Vec<u8> {
        lines
            .iter()
            .flat_map(|&n| std::iter::repeat_n(b'x', n).chain(std::iter::once(b'\n')))
            .collect()
    }

    fn state(ix: &LineIndex) -> (u64, u64, bool, Vec<u64>) {
        let cps = (0..ix.checkpoints.len)
            .map(|i| ix.checkpoints.get(i))
            .collect();
        (ix.scanned, ix.newlines, ix.last_is_lf, cps)
    }

    /// Checkpoints against a plain vector: every entry, every partition point.
    fn same_as_naive(c: &Checkpoints, naive: &[u64]) {
        assert_eq!(c.len, naive.len());
        for (i, &v) in naive.iter().enumerate() {
            assert_eq!(c.get(i), v, "entry {i}");
        }
        let last = naive.last().copied().unwrap_or(0);
        for t in [0, 1, last / 2, last, last + 1] {
            assert_eq!(
                c.partition_point(|&x| x < t),
                naive.partition_point(|&x| x < t),
                "partition point of {t}"
            );
        }
    }

    #[test]
    fn runs_of_equal_checkpoints_take_no_room() {
        // A 1 TiB hole in 64 KiB blocks, between two stretches of text.
        let mut c = Checkpoints::new();
        let mut naive = vec![0u64];
        for v in 1..100 {
            c.push(v);
            naive.push(v);
        }
        c.push_n(99, 16 << 20);
        naive.extend(std::iter::repeat_n(99, 16 << 20));
        for v in 100..5000 {
            c.push(v);
            naive.push(v);
        }
        same_as_naive(&c, &naive);
        assert!(
            c.memory_bytes() < 1 << 20,
            "{} bytes for 16 Mi equal entries",
            c.memory_bytes()
        );
    }

    proptest! {
        #[test]
        fn checkpoints_agree_with_a_vector(
            steps in proptest::collection::vec((0u64..3, 1usize..10_000), 1..40)
        ) {
            let mut c = Checkpoints::new();
            let mut naive = vec![0u64];
            let mut v = 0;
            for (add, n) in steps {
                v += add;
                if n % 2 == 0 {
                    c.push_n(v, n);
                } else {
                    for _ in 0..n {
                        c.push(v);
                    }
                }
                naive.extend(std::iter::repeat_n(v, n));
            }
            same_as_naive(&c, &naive);
        }
    }

    proptest! {
        #[test]
        fn parallel_scans_build_the_sequential_index(
            data in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'\n'), Just(0u8)], 0..400),
            utf16 in any::<bool>(),
            block in 1u64..9,
            threads in 2usize..5,
            chunk in 1usize..50,
            target_frac in 0u64..=4,
            nth in 0u64..60,
            piece_blocks in 1u64..4,
            window_pieces in 0u64..3,
            budget in proptest::option::of(0u64..400),
        ) {
            let mut bytes = data;
            let layout = if utf16 {
                bytes.truncate(bytes.len() - bytes.len() % 2);
                Layout::new(Encoding::Utf16Le, 0)
            } else {
                Layout::utf8()
            };
            let mut src = Source::from_bytes(bytes.clone(), "p.txt");
            src.set_chunk_size(chunk);
            let len = bytes.len() as u64;
            let fresh = || LineIndex::for_layout(len, block, &layout);
            let (mut seq, mut par) = (fresh(), fresh());
            par.set_threads(threads);
            par.parallel_min = 1;
            par.piece = piece_blocks * par.block;
            par.window = window_pieces * par.piece;
            // A deep line within a scan budget, the same line without, then a byte target,
            // then everything: the same answers, and in the end the same index.
            seq.set_scan_budget(budget);
            par.set_scan_budget(budget);
            let (s, p) = (seq.line_start(&src, nth), par.line_start(&src, nth));
            prop_assert_eq!(s.is_ok(), p.is_ok(), "{:?} {:?}", s, p);
            if s.is_err() {
                // Both stopped at the budget's end, with what they found before it.
                prop_assert_eq!(state(&seq), state(&par));
            }
            seq.set_scan_budget(None);
            par.set_scan_budget(None);
            let a = seq.line_start(&src, nth).unwrap();
            prop_assert_eq!(par.line_start(&src, nth).unwrap(), a);
            let target = len * target_frac / 4;
            seq.scan_to(&src, target).unwrap();
            par.scan_to(&src, target).unwrap();
            prop_assert_eq!(seq.line_of_offset(&src, target).unwrap(), par.line_of_offset(&src, target).unwrap());
            prop_assert_eq!(seq.total_lines(&src).unwrap(), par.total_lines(&src).unwrap());
            prop_assert_eq!(state(&seq), state(&par));
        }

        #[test]
        fn parallel_searches_stop_past_their_line(
            lines in proptest::collection::vec(0usize..40, 1..300),
            block in 1u64..9,
            threads in 2usize..5,
            piece_blocks in 1u64..4,
            window_pieces in 1u64..4,
            frac in 0u64..=10,
        ) {
            let bytes = x_lines(&lines);
            let src = Source::from_bytes(bytes.clone(), "s.txt");
            let len = bytes.len() as u64;
            let (mut seq, mut par) = (LineIndex::with_block_size(len, block), LineIndex::with_block_size(len, block));
            par.set_threads(threads);
            par.parallel_min = 1;
            par.piece = piece_blocks * block;
            par.window = window_pieces * par.piece;
            let line = 1 + lines.len() as u64 * frac / 10;
            let want = seq.line_start(&src, line).unwrap();
            prop_assert_eq!(par.line_start(&src, line).unwrap(), want);
            // The threads stop handing out pieces once the joined ones hold the line:
            // beyond the piece that holds it, at most one window is counted.
            let window = par.window * threads as u64;
            prop_assert!(par.scanned() >= seq.scanned().min(len));
            prop_assert!(
                par.scanned() <= seq.scanned() + par.piece + window,
                "scanned {} for a line the sequential scan found after {} (piece {}, window {})",
                par.scanned(), seq.scanned(), par.piece, window
            );
            // What was counted past the line is kept, and the index is still the same.
            prop_assert_eq!(seq.total_lines(&src).unwrap(), par.total_lines(&src).unwrap());
            prop_assert_eq!(state(&seq), state(&par));
        }

        #[test]
        fn a_failed_read_stops_a_parallel_scan_and_keeps_what_came_before(
            lines in proptest::collection::vec(0usize..30, 1..200),
            block in 1u64..9,
            threads in 2usize..5,
            piece_blocks in 1u64..4,
            bad_frac in 0u64..100,
        ) {
            let bytes = x_lines(&lines);
            let len = bytes.len() as u64;
            let bad = len * bad_frac / 100;
            let failing = Source::from_random_access(
                Arc::new(FailsAt { data: bytes.clone(), bad }),
                "f.txt",
            );
            let mut par = LineIndex::with_block_size(len, block);
            par.set_threads(threads);
            par.parallel_min = 1;
            par.piece = piece_blocks * block;
            par.window = par.piece;
            let err = par.total_lines(&failing).unwrap_err();
            prop_assert!(matches!(err, crate::Error::Io { .. }), "{:?}", err);
            // The pieces joined before the failed one are a valid index of that prefix.
            prop_assert!(par.scanned() <= bad);
            let mut whole = Source::from_bytes(bytes, "f.txt");
            whole.set_chunk_size(1);
            let mut seq = LineIndex::with_block_size(len, block);
            seq.scan_to(&whole, par.scanned()).unwrap();
            prop_assert_eq!(state(&seq), state(&par));
        }
    }

    /// Bytes whose read fails where it covers offset `bad`.
    struct FailsAt {
        data: Vec<u8>,
        bad: u64,
    }

    impl crate::RandomAccess for FailsAt {
        fn len(&self) -> u64 {
            self.data.len() as u64
        }

        fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
            if (offset..offset + buf.len() as u64).contains(&self.bad) {
                return Err(std::io::Error::other("disk error"));
            }
            buf.copy_from_slice(&self.data[offset as usize..offset as usize + buf.len()]);
            Ok(())
        }
    }
}
