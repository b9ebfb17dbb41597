//! Scanning: counting line feeds block by block, on this thread or on several, until a
//! question is answered; holes of sparse files are passed without reading them.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::LineIndex;
use crate::error::Result;
use crate::source::Source;
use crate::text::Layout;

/// The least a scan must have ahead of it to be split over threads (8 MiB).
pub(super) const PARALLEL_MIN: u64 = 8 << 20;

/// Bytes a thread of a parallel scan counts per piece it takes (1 MiB): small enough
/// that the threads finish together, large enough that handing out costs nothing.
pub(super) const PIECE: u64 = 1 << 20;

/// How far ahead of the counted prefix a parallel scan hands out pieces, per thread
/// (16 MiB: on 2 threads a search counts at most about 32 MiB past its line).
pub(super) const WINDOW_PER_THREAD: u64 = 16 << 20;

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

impl LineIndex {
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
    pub(super) fn scan(&mut self, src: &Source, goal: Goal) -> Result<()> {
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
                        budget: crate::error::int(budget),
                        scanned: crate::error::int(start),
                        file_size: crate::error::int(self.len),
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
pub(super) enum Goal {
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
