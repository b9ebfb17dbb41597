//! The one owner of walking lines over a source: forward and backward, by the rules of
//! the text's encoding (which [`crate::text`] owns).
//!
//! Every step that needs lines asks a [`Lines`]: the index and the selections for line
//! starts and the tail, the budget for the lines of a page, the landmark search, the
//! outline and block reads for the text of lines. Lines handed out for matching
//! ([`Lines::each`]) are UTF-8 in every encoding, so that the rules above (landmarks,
//! blocks) are written once, for UTF-8, and hold for UTF-16, UTF-32 and legacy
//! encodings alike.

use std::borrow::Cow;
use std::ops::ControlFlow;

use crate::decode::{decode, CodecTables, Utf8Policy};
use crate::error::Result;
use crate::source::Source;
use crate::text::{Encoding, Layout, Units};

/// Lines of one source, laid out as classification found.
#[derive(Clone, Copy)]
pub(crate) struct Lines<'a> {
    pub src: &'a Source,
    pub layout: Layout,
}

/// One line as [`Lines::each`] hands it out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineRef<'a> {
    /// File offset of the line's first byte.
    pub start: u64,
    /// File offset just past the line (past its LF, if it has one).
    pub end: u64,
    /// The line's first characters as UTF-8 (at most the `head_cap` asked for, cut on a
    /// character boundary), without the LF; a CR before the LF is kept.
    pub head: &'a [u8],
}

/// One line as [`LineReader::read_line`] reads it: where it ends and its terminator.
pub(crate) struct RawLine {
    /// File offset just past the line (past its terminator).
    pub end: u64,
    /// Body length in file bytes (without the terminator).
    pub body: u64,
    /// Terminator in file bytes: LF, CR LF, or nothing at the end of the file.
    pub term: &'static [u8],
}

impl<'a> Lines<'a> {
    pub fn new(src: &'a Source, layout: Layout) -> Lines<'a> {
        Lines { src, layout }
    }

    /// The size of one positional read while walking: the source's chunk in whole code
    /// units.
    fn chunk(&self) -> u64 {
        self.layout.chunk(self.src.chunk_size()) as u64
    }

    /// Whether `pos` is a line boundary: the text start, or just past an LF code unit (the
    /// end of a file that ends with LF is one too).
    pub fn starts_line(&self, pos: u64) -> Result<bool> {
        let (units, w) = (self.layout.units, self.layout.width());
        if pos <= self.layout.text_start {
            return Ok(pos == self.layout.text_start);
        }
        if pos < w || pos > self.src.len() {
            return Ok(false);
        }
        let mut scratch = Vec::new();
        self.src.with_range(pos - w, pos, &mut scratch, |b| {
            units.ends_with_lf(pos - w, b)
        })
    }

    /// The start of the line holding `pos`: just past the last LF before it (searched
    /// backwards, costing the length of that line, not of the file), or the text start.
    pub fn floor(&self, pos: u64) -> Result<u64> {
        self.nth_lf_back(pos, 1, 4096)
    }

    /// Just past the `n`th LF code unit before `hi` (`n >= 1`), counting backwards, or
    /// the text start when there are fewer: windows of `first_step` bytes first, doubling
    /// up to the chunk, on code-unit boundaries, passing holes without reading them.
    fn nth_lf_back(&self, mut hi: u64, n: u64, first_step: u64) -> Result<u64> {
        let units = self.layout.units;
        let floor = self.layout.text_start;
        let chunk = self.chunk();
        let mut step = chunk.min(first_step);
        let mut scratch = Vec::new();
        let mut found = 0u64;
        while hi > floor {
            if let Some((hole, _)) = self.src.hole_at(hi - 1) {
                hi = hole.max(floor);
                continue;
            }
            let lo = units
                .align_down(hi.saturating_sub(step.max(1)))
                .max(floor)
                .max(self.src.prev_hole_end(hi));
            step = (step * 2).min(chunk);
            let hit = self.src.with_range(lo, hi, &mut scratch, |bytes| {
                units.lf_ends(lo, bytes).rev().find(|_| {
                    found += 1;
                    found == n
                })
            })?;
            if let Some(e) = hit {
                return Ok(lo + e as u64);
            }
            hi = lo;
        }
        Ok(floor)
    }

    /// The end of the line holding `pos` (just past its LF, or the end of the source).
    pub fn ceil(&self, pos: u64) -> Result<u64> {
        let units = self.layout.units;
        let chunk = self.chunk();
        let len = self.src.len();
        let mut step = chunk.min(4096);
        let mut scratch = Vec::new();
        // Start on a code-unit boundary so that the LF unit holding `pos` is seen whole.
        let mut lo = units.align_down(pos).max(self.layout.text_start);
        while lo < len {
            if let Some((_, hole_end)) = self.src.hole_at(lo) {
                lo = hole_end.min(len);
                continue;
            }
            let hi = (lo + step).min(len).min(self.src.next_hole(lo));
            step = (step * 2).min(chunk);
            if let Some(e) = self
                .src
                .with_range(lo, hi, &mut scratch, |b| units.find_lf(lo, b))?
            {
                return Ok(lo + e as u64);
            }
            lo = hi;
        }
        Ok(len)
    }

    /// The number of LF code units in `[from, to)` (`from` on a code-unit boundary).
    pub fn count(&self, from: u64, to: u64) -> Result<u64> {
        self.count_with(from, to, &mut Vec::new())
    }

    /// [`Lines::count`] reading through `scratch`, for callers that count many ranges.
    pub fn count_with(&self, from: u64, to: u64, scratch: &mut Vec<u8>) -> Result<u64> {
        let units = self.layout.units;
        let chunk = self.chunk();
        let mut n = 0;
        let mut lo = from;
        while lo < to {
            if let Some((_, hole_end)) = self.src.hole_at(lo) {
                lo = hole_end.min(to);
                continue;
            }
            let hi = (lo + chunk).min(to).min(self.src.next_hole(lo));
            n += self
                .src
                .with_range(lo, hi, scratch, |b| units.count_lf(lo, b))?;
            lo = hi;
        }
        Ok(n)
    }

    /// Where the last `n` lines of `[text start, end)` start, searched backwards from
    /// `end`: the cost is the size of those lines, not of the file. The text start when
    /// the range holds `n` lines or fewer.
    pub fn tail_start(&self, end: u64, n: u64) -> Result<u64> {
        if n == 0 {
            return Ok(end);
        }
        // The final LF terminates the last line rather than starting a new one.
        let hi = if end > self.layout.text_start && self.starts_line(end)? {
            end - self.layout.width()
        } else {
            end
        };
        // Small reads first: the last lines of a file are usually a few KiB.
        self.nth_lf_back(hi, n, 16 * 1024)
    }

    /// Calls `f` with each line of `[start, end)` in order, reading the source in chunks;
    /// `start` must be a line start. A last piece without LF is handed out only when it
    /// runs to the end of the source (the last line of a file): a window that ends inside
    /// a line leaves that line out. Heads are UTF-8 (decoded, lossily, from other
    /// encodings) and hold at most `head_cap` bytes.
    pub fn each(
        &self,
        start: u64,
        end: u64,
        head_cap: usize,
        mut f: impl FnMut(LineRef<'_>) -> ControlFlow<()>,
    ) -> Result<()> {
        let units = self.layout.units;
        let w = self.layout.width() as usize;
        let start = start.max(self.layout.text_start);
        let end = end.min(self.src.len());
        // Raw bytes kept per line: enough for `head_cap` characters' worth of UTF-8 in
        // wide encodings too.
        let raw_cap = head_cap.saturating_mul(w);
        let chunk = self.chunk().max(self.layout.chunk(raw_cap) as u64);
        let mut scratch = Vec::new();
        // The head of a line that began in an earlier chunk.
        let mut carry: Vec<u8> = Vec::new();
        let mut line_start = start;
        let mut pos = start;
        let mut stopped = false;
        let encoding = self.layout.encoding;
        let mut emit = |line_start: u64, line_end: u64, raw: &[u8]| {
            let head = head_text(encoding, raw, head_cap);
            f(LineRef {
                start: line_start,
                end: line_end,
                head: &head,
            })
        };
        while pos < end && !stopped {
            let hi = (pos + chunk).min(end);
            self.src.with_range(pos, hi, &mut scratch, |bytes| {
                let mut from = 0usize;
                for e in units.lf_ends(pos, bytes) {
                    let piece = &bytes[from..e - w];
                    let flow = if line_start < pos + from as u64 {
                        let room = raw_cap.saturating_sub(carry.len());
                        carry.extend_from_slice(&piece[..piece.len().min(room)]);
                        emit(line_start, pos + e as u64, &carry)
                    } else {
                        emit(
                            line_start,
                            pos + e as u64,
                            &piece[..piece.len().min(raw_cap)],
                        )
                    };
                    carry.clear();
                    line_start = pos + e as u64;
                    from = e;
                    if flow.is_break() {
                        stopped = true;
                        return;
                    }
                }
                let rest = &bytes[from..];
                let room = raw_cap.saturating_sub(carry.len());
                carry.extend_from_slice(&rest[..rest.len().min(room)]);
            })?;
            pos = hi;
        }
        if !stopped && line_start < end && end == self.src.len() {
            let _ = emit(line_start, end, &carry);
        }
        Ok(())
    }

    /// [`Lines::each`] from `start` (a line start) to the end of the source, reading
    /// `first` bytes first and twice as many each time after, so that a walk that stops
    /// after a few lines reads a few KiB rather than a chunk.
    pub fn each_from(
        &self,
        start: u64,
        first: u64,
        head_cap: usize,
        mut f: impl FnMut(LineRef<'_>) -> ControlFlow<()>,
    ) -> Result<()> {
        let len = self.src.len();
        let most = self.chunk().max(first);
        let (mut pos, mut step, mut stopped) = (start, first.max(1), false);
        while pos < len && !stopped {
            let end = pos.saturating_add(step).min(len);
            let mut next = pos;
            self.each(pos, end, head_cap, |l| {
                next = l.end;
                let flow = f(l);
                stopped = flow.is_break();
                flow
            })?;
            // A line longer than the window: read more of it next time.
            step = step.saturating_mul(2);
            if next > pos {
                step = step.min(most);
            }
            pos = next;
        }
        Ok(())
    }

    /// Where the whole lines in the `window` bytes before `line_off` (a line start)
    /// begin: the first line start at or after `line_off - window` (the text start when
    /// the window reaches it).
    pub fn window_start(&self, line_off: u64, window: u64) -> Result<u64> {
        let ws = self
            .layout
            .units
            .round_up(line_off.saturating_sub(window))
            .max(self.layout.text_start);
        if self.starts_line(ws)? {
            Ok(ws)
        } else {
            self.ceil(ws)
        }
    }

    /// The whole lines that lie in the `window` bytes before `line_off` (a line start),
    /// in order: `(start, head)` with heads as [`Lines::each`] gives them.
    pub fn before(
        &self,
        line_off: u64,
        window: u64,
        head_cap: usize,
    ) -> Result<Vec<(u64, Vec<u8>)>> {
        let first = self.window_start(line_off, window)?;
        let mut out = Vec::new();
        if first < line_off {
            self.each(first, line_off, head_cap, |l| {
                if l.end <= line_off {
                    out.push((l.start, l.head.to_vec()));
                }
                ControlFlow::Continue(())
            })?;
        }
        Ok(out)
    }

    /// A reader of whole lines from any line start, with read-ahead.
    pub fn reader(&self) -> LineReader<'a> {
        LineReader {
            lines: *self,
            buf: Vec::new(),
            buf_start: 0,
            next_size: FIRST_READ.min(self.chunk() as usize),
        }
    }
}

/// A line's head as UTF-8: the raw bytes themselves in UTF-8 (malformed bytes and all,
/// for byte-wise matching), else decoded; at most `cap` bytes, cut on a character
/// boundary.
fn head_text(encoding: Encoding, raw: &[u8], cap: usize) -> Cow<'_, [u8]> {
    if encoding == Encoding::Utf8 {
        return Cow::Borrowed(&raw[..raw.len().min(cap)]);
    }
    let text = decode(
        raw.to_vec(),
        encoding,
        Utf8Policy::Lossy,
        CodecTables::Whatwg,
        |x| x,
    )
    .map(|d| d.text)
    .unwrap_or_default();
    let mut cut = text.len().min(cap);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut bytes = text.into_bytes();
    bytes.truncate(cut);
    Cow::Owned(bytes)
}

/// The end of the longest run of whole lines in `bytes` (file bytes from offset `base`)
/// from `from` (a line start) in which every line ends within `span` bytes of its start:
/// one backward search for the last LF per stretch of `span` bytes.
fn run_end(units: Units, base: u64, bytes: &[u8], from: usize, span: u64) -> usize {
    let mut p = from;
    while p < bytes.len() {
        let hi =
            usize::try_from(span).map_or(bytes.len(), |s| p.saturating_add(s).min(bytes.len()));
        match units.last_lf(base + p as u64, &bytes[p..hi]) {
            Some(e) => p += e,
            None => break,
        }
    }
    p
}

const FIRST_READ: usize = 16 * 1024;

/// Reads lines forward with a read-ahead window: small reads first, growing, so that a
/// short read costs little and a long one few system calls.
pub(crate) struct LineReader<'a> {
    lines: Lines<'a>,
    buf: Vec<u8>,
    buf_start: u64,
    next_size: usize,
}

impl LineReader<'_> {
    /// Bytes from `pos` on (at least one unless `pos` is the end).
    fn at(&mut self, pos: u64) -> Result<&[u8]> {
        let src = self.lines.src;
        let len = src.len();
        let chunk = self.lines.chunk();
        if pos >= len {
            return Ok(&[]);
        }
        if let Some(s) = src.as_slice() {
            let end = (pos + chunk).min(len);
            return Ok(&s[pos as usize..end as usize]);
        }
        let have = pos >= self.buf_start && pos < self.buf_start + self.buf.len() as u64;
        if !have {
            let n = (self.next_size as u64).min(len - pos) as usize;
            self.buf.clear();
            src.read_append(pos, n, &mut self.buf)?;
            self.buf_start = pos;
            self.next_size = (self.next_size * 2).min(chunk as usize);
        }
        Ok(&self.buf[(pos - self.buf_start) as usize..])
    }

    /// Appends to `out` the run of whole lines from `pos` (a line start) that no budget
    /// can cut: at most `max_lines` lines, each body at most `max_body` file bytes long
    /// (without its LF), all ending at or before the file offset `limit`. Returns the
    /// bytes and the lines taken: nothing when the first line fails, and the caller then
    /// reads that line with [`LineReader::read_line`].
    ///
    /// The run is found without visiting each line: one backward search for the last LF
    /// in every stretch of `max_body` bytes (with no line-length budget, in every piece
    /// read), and one count of the LFs taken. A file is read straight into `out`, in
    /// pieces that grow as the read-ahead does; bytes read past the run are dropped.
    pub fn whole_lines(
        &mut self,
        pos: u64,
        limit: u64,
        max_lines: u64,
        max_body: u64,
        out: &mut Vec<u8>,
    ) -> Result<(u64, u64)> {
        let src = self.lines.src;
        let limit = limit.min(src.len());
        if max_lines == 0 || pos >= limit || src.hole_at(pos).is_some() {
            return Ok((0, 0));
        }
        let units = self.lines.layout.units;
        let w = units.width() as u64;
        let chunk = self.lines.chunk() as usize;
        let total = limit - pos;
        // A line at `ok` with no LF within this many bytes is too long for the budget.
        let span = max_body.saturating_add(w);
        // Every line takes a unit at least: when the line budget cannot end the run
        // within the bytes at hand, they are read in the largest pieces from the start
        // (a whole 64 KiB file in one read, not three growing ones).
        if max_lines >= total / w {
            self.next_size = self.next_size.max(chunk);
        }
        let mem = src.as_slice();
        let base = out.len();
        // Bytes from `pos` at hand, the run taken so far (a line end), its lines.
        let (mut have, mut ok, mut count) = (0u64, 0u64, 0u64);
        while have < total {
            let at = pos + have;
            let n = (self.next_size as u64)
                .min(total - have)
                .min(src.next_hole(at) - at);
            if n == 0 {
                break;
            }
            if mem.is_none() {
                src.read_append(at, n as usize, out)?;
            }
            have += n;
            self.next_size = (self.next_size * 2).min(chunk);
            let bytes = match mem {
                Some(s) => &s[pos as usize..(pos + have) as usize],
                None => &out[base..],
            };
            let end = run_end(units, pos, bytes, ok as usize, span) as u64;
            let piece = &bytes[ok as usize..end as usize];
            let found = units.count_lf(pos + ok, piece);
            if count + found >= max_lines {
                // The line budget ends the run: at the end of its last line.
                let need = (max_lines - count) as usize;
                let cut = units
                    .lf_ends(pos + ok, piece)
                    .nth(need - 1)
                    .map_or(end, |e| ok + e as u64);
                ok = cut;
                count = max_lines;
                break;
            }
            count += found;
            ok = end;
            // The line at `ok` has no LF within the budget's reach: too long.
            if have - ok >= span {
                break;
            }
        }
        match mem {
            Some(s) => out.extend_from_slice(&s[pos as usize..(pos + ok) as usize]),
            None => out.truncate(base + ok as usize),
        }
        Ok((ok, count))
    }

    /// Reads the line that starts at `pos`, keeping at most `keep` bytes of its body in
    /// `out` (the rest is only scanned for its end).
    pub fn read_line(&mut self, pos: u64, keep: u64, out: &mut Vec<u8>) -> Result<RawLine> {
        out.clear();
        let units = self.lines.layout.units;
        let w = units.width() as u64;
        let mut p = pos;
        // Whether the window before ended with CR, to tell CR LF from LF across windows.
        let mut prev_cr = false;
        loop {
            // A hole of a sparse file is zeros and no line feed: keep what fits of it
            // without reading it.
            if let Some((_, hole_end)) = self.lines.src.hole_at(p) {
                let hole_end = hole_end.min(self.lines.src.len());
                let room = keep.saturating_sub(out.len() as u64).min(hole_end - p);
                out.resize(out.len() + room as usize, 0);
                prev_cr = false;
                p = hole_end;
                continue;
            }
            let bytes = self.at(p)?;
            if bytes.is_empty() {
                return Ok(RawLine {
                    end: p,
                    body: p - pos,
                    term: b"",
                });
            }
            let hit = units.find_lf(p, bytes);
            let upto = hit.map_or(bytes.len(), |e| e - w as usize);
            let room = keep.saturating_sub(out.len() as u64) as usize;
            out.extend_from_slice(&bytes[..upto.min(room)]);
            if let Some(e) = hit {
                let i = e - w as usize;
                let before_cr = if i > 0 {
                    units.cr_before(p, bytes, i)
                } else {
                    prev_cr
                };
                let lf_at = p + i as u64;
                let crlf = before_cr && lf_at > pos;
                let body = lf_at - pos - if crlf { w } else { 0 };
                if crlf && out.len() as u64 > body {
                    out.truncate(body as usize);
                }
                return Ok(RawLine {
                    end: lf_at + w,
                    body,
                    term: if crlf { units.crlf() } else { units.lf() },
                });
            }
            prev_cr = units.cr_before(p, bytes, bytes.len());
            p += bytes.len() as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Encoding;
    use proptest::prelude::*;

    /// Text from a small alphabet rich in line ends, CRs and (in UTF-16) surrogate pairs.
    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![Just('a'), Just('\n'), Just('\r'), Just('é'), Just('𝄞')],
            0..60,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    /// The text in `enc` (with a BOM for UTF-16), the layout, and each character's file offset.
    fn encode(t: &str, utf16: bool) -> (Vec<u8>, Layout, Vec<(u64, char)>) {
        if !utf16 {
            let chars = t.char_indices().map(|(i, c)| (i as u64, c)).collect();
            return (t.as_bytes().to_vec(), Layout::utf8(), chars);
        }
        let mut bytes = vec![0xFF, 0xFE];
        let mut chars = Vec::new();
        for c in t.chars() {
            chars.push((bytes.len() as u64, c));
            let mut buf = [0u16; 2];
            for u in c.encode_utf16(&mut buf) {
                bytes.extend_from_slice(&u.to_le_bytes());
            }
        }
        (bytes, Layout::new(Encoding::Utf16Le, 2), chars)
    }

    /// Naive line starts: the text start and the offset after each LF character.
    fn naive_starts(bytes_len: u64, layout: &Layout, chars: &[(u64, char)]) -> Vec<u64> {
        let w = layout.width();
        let mut starts = vec![layout.text_start];
        starts.extend(chars.iter().filter(|(_, c)| *c == '\n').map(|(o, _)| o + w));
        if starts.len() > 1 && *starts.last().unwrap() == bytes_len {
            starts.pop();
        }
        if bytes_len == layout.text_start {
            starts.clear();
        }
        starts
    }

    /// The run of whole lines from `from` that a naive walk accepts line by line: at
    /// most `max_lines`, each body at most `max_body` bytes, ending by `limit`.
    fn naive_run(
        bytes: &[u8],
        layout: &Layout,
        from: u64,
        limit: u64,
        max_lines: u64,
        max_body: u64,
    ) -> (u64, u64) {
        let w = layout.width();
        let (mut end, mut n) = (from, 0);
        for e in layout.units.lf_ends(from, &bytes[from as usize..]) {
            let e = from + e as u64;
            if n >= max_lines || e > limit || e - w - end > max_body {
                break;
            }
            end = e;
            n += 1;
        }
        (end - from, n)
    }

    proptest! {
        #[test]
        fn whole_lines_agree_with_a_naive_walk(
            t in text(), utf16 in any::<bool>(), on_disk in any::<bool>(), chunk in 1usize..40,
            first in 0usize..20, cut in 0u64..200, max_lines in 0u64..12, max_body in 0u64..12,
        ) {
            let (bytes, layout, chars) = encode(&t, utf16);
            let len = bytes.len() as u64;
            let starts = naive_starts(len, &layout, &chars);
            prop_assume!(!starts.is_empty());
            let from = starts[first % starts.len()];
            let limit = from + cut.min(len - from);
            let file = tempfile::NamedTempFile::new().unwrap();
            let mut src = if on_disk {
                std::fs::write(file.path(), &bytes).unwrap();
                Source::open(file.path()).unwrap()
            } else {
                Source::from_bytes(bytes.clone(), "t.txt")
            };
            src.set_chunk_size(chunk);
            let lines = Lines::new(&src, layout);
            // No line-length budget as `u64::MAX`, as the budget passes it.
            let max_body = if max_body == 11 { u64::MAX } else { max_body };
            let mut out = b"kept".to_vec();
            let (taken, n) = lines.reader().whole_lines(from, limit, max_lines, max_body, &mut out).unwrap();
            let want = naive_run(&bytes, &layout, from, limit, max_lines, max_body);
            prop_assert_eq!((taken, n), want);
            prop_assert_eq!(&out[..4], b"kept");
            prop_assert_eq!(&out[4..], &bytes[from as usize..(from + taken) as usize]);
        }

        #[test]
        fn lines_agree_with_a_naive_walk(t in text(), utf16 in any::<bool>(), chunk in 1usize..9, k in 0u64..8) {
            let (bytes, layout, chars) = encode(&t, utf16);
            let len = bytes.len() as u64;
            let mut src = Source::from_bytes(bytes, "t.txt");
            src.set_chunk_size(chunk);
            let lines = Lines::new(&src, layout);
            let starts = naive_starts(len, &layout, &chars);
            // Just past each LF, also the one that ends the file: what floor and ceil see.
            let lf_ends: Vec<u64> = std::iter::once(layout.text_start)
                .chain(chars.iter().filter(|(_, c)| *c == '\n').map(|(o, _)| o + layout.width()))
                .collect();
            let lf_count = chars.iter().filter(|(_, c)| *c == '\n').count() as u64;
            prop_assert_eq!(lines.count(layout.text_start, len).unwrap(), lf_count);
            // Every character start: floor, ceil and starts_line as the naive starts say.
            let positions: Vec<u64> = chars.iter().map(|(o, _)| *o).chain([len]).collect();
            for &p in &positions {
                let floor = lf_ends.iter().copied().filter(|&s| s <= p).max().unwrap_or(layout.text_start);
                prop_assert_eq!(lines.floor(p).unwrap(), floor, "floor({})", p);
                let ceil = lf_ends.iter().copied().find(|&s| s > p).unwrap_or(len);
                prop_assert_eq!(lines.ceil(p).unwrap(), ceil, "ceil({})", p);
                prop_assert_eq!(lines.starts_line(p).unwrap(), lf_ends.contains(&p), "starts_line({})", p);
            }
            // The tail: where the last k lines start.
            let want = if k == 0 { len } else if (starts.len() as u64) <= k { layout.text_start } else { starts[starts.len() - k as usize] };
            prop_assert_eq!(lines.tail_start(len, k).unwrap(), want);
            // Each line once, in order, its head the decoded text without the LF.
            let mut seen = Vec::new();
            lines.each(layout.text_start, len, 1024, |l| { seen.push((l.start, String::from_utf8_lossy(l.head).into_owned())); ControlFlow::Continue(()) }).unwrap();
            let naive: Vec<(u64, String)> = starts.iter().map(|&s| {
                let body: String = chars.iter().filter(|(o, _)| *o >= s).map(|(_, c)| *c).take_while(|c| *c != '\n').collect();
                (s, body)
            }).collect();
            prop_assert_eq!(seen, naive);
        }
    }
}
