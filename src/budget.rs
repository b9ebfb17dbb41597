//! Budgets: how much one read may return, and the paging that replaces "file too large"
//! errors. Lines longer than the line budget are cut on a character boundary; a page that
//! reaches the line or byte budget stops and says where to continue.

use crate::error::Result;
use crate::result::TruncationReason;
use crate::select::snap_start;
use crate::source::Source;
use crate::units::Units;

/// The limits of one read. `0` means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub max_lines: u64,
    pub max_bytes: u64,
    pub max_line_chars: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_lines: 2000,
            max_bytes: 100 * 1024,
            max_line_chars: 2000,
        }
    }
}

/// Where a page stopped because of a budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stop {
    pub reason: TruncationReason,
    pub next_byte: u64,
    /// Whether `next_byte` starts a line.
    pub at_line_start: bool,
}

/// A line of the page that was cut by the line-length budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cut {
    /// 0-based index of the line within the page.
    pub index: u64,
    pub shown: u64,
    pub total: u64,
    pub rest_at: u64,
}

/// The bytes of a page of lines and how they map back to the file.
#[derive(Debug, Default)]
pub(crate) struct Page {
    pub content: Vec<u8>,
    /// File offset of the first byte.
    pub start: u64,
    /// File offset just past the last byte consumed (the end of the last line taken, or
    /// the paging point inside a line).
    pub end: u64,
    /// Lines returned, whole or cut.
    pub lines: u64,
    pub cuts: Vec<Cut>,
    /// `(content offset, file offset)` where each contiguous piece of content begins.
    pub segments: Vec<(u64, u64)>,
    pub stop: Option<Stop>,
}

impl Page {
    /// Maps an offset in `content` back to the file.
    pub fn file_offset(&self, content_offset: u64) -> u64 {
        let i = self
            .segments
            .partition_point(|&(c, _)| c <= content_offset)
            .saturating_sub(1);
        match self.segments.get(i) {
            Some(&(c, f)) => f + (content_offset - c),
            None => self.start + content_offset,
        }
    }

    fn push(&mut self, file_offset: u64, bytes: &[u8]) {
        let c = self.content.len() as u64;
        let contiguous = self
            .segments
            .last()
            .is_some_and(|&(sc, sf)| sf + (c - sc) == file_offset);
        if !contiguous {
            self.segments.push((c, file_offset));
        }
        self.content.extend_from_slice(bytes);
    }
}

/// A read-ahead window over a source: small reads first, growing, so that a short read
/// costs little and a long one few system calls.
pub(crate) struct Window<'a> {
    src: &'a Source,
    buf: Vec<u8>,
    buf_start: u64,
    next_size: usize,
}

const FIRST_READ: usize = 16 * 1024;

impl<'a> Window<'a> {
    pub fn new(src: &'a Source) -> Window<'a> {
        Window {
            src,
            buf: Vec::new(),
            buf_start: 0,
            next_size: FIRST_READ.min(src.chunk_size()),
        }
    }

    /// Bytes from `pos` on (at least one unless `pos` is the end).
    pub fn at(&mut self, pos: u64) -> Result<&[u8]> {
        let len = self.src.len();
        let chunk = self.src.chunk_size() as u64;
        if pos >= len {
            return Ok(&[]);
        }
        if let Some(s) = self.src.as_slice() {
            let end = (pos + chunk).min(len);
            return Ok(&s[pos as usize..end as usize]);
        }
        let have = pos >= self.buf_start && pos < self.buf_start + self.buf.len() as u64;
        if !have {
            let n = (self.next_size as u64).min(len - pos) as usize;
            self.buf.clear();
            self.buf.resize(n, 0);
            self.src.read_exact_at(pos, &mut self.buf)?;
            self.buf_start = pos;
            self.next_size = (self.next_size * 2).min(self.src.chunk_size());
        }
        Ok(&self.buf[(pos - self.buf_start) as usize..])
    }
}

/// One line as read: where it ends, and up to `keep` of its bytes.
struct RawLine {
    /// File offset just past the line (past its terminator).
    end: u64,
    /// Body length (without the terminator).
    body: u64,
    /// Terminator in file bytes: LF, CR LF, or nothing at the end of the file.
    term: &'static [u8],
}

fn read_line(win: &mut Window<'_>, pos: u64, keep: u64, out: &mut Vec<u8>) -> Result<RawLine> {
    out.clear();
    let units = win.src.units();
    let w = units.width() as u64;
    let mut p = pos;
    // Whether the window before ended with CR, to tell CR LF from LF across windows.
    let mut prev_cr = false;
    loop {
        let bytes = win.at(p)?;
        if bytes.is_empty() {
            let body = p - pos;
            return Ok(RawLine {
                end: p,
                body,
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

/// The first position `p` in `[at, end]` where a byte selection starts as asked: the
/// contract's outward snapping leaves `p` where it is. A page that stops inside a line
/// stops there, so that the next page neither repeats nor skips a byte. In valid UTF-8
/// that is the next character start; inside malformed data, at most 3 bytes further.
pub(crate) fn stable_start(src: &Source, at: u64, end: u64) -> Result<u64> {
    let len = src.len();
    let byte_at = |p: u64| -> Result<u8> {
        let mut b = [0u8];
        src.read_exact_at(p, &mut b)?;
        Ok(b[0])
    };
    let mut p = at;
    while p < end && snap_start(p, len, byte_at)? != p {
        p += 1;
    }
    Ok(p.min(end))
}

/// The largest char boundary `<= at` in `bytes` (a position whose byte is not a UTF-8
/// continuation byte), moving back at most 3 bytes.
pub(crate) fn floor_char_boundary(bytes: &[u8], at: usize) -> usize {
    let mut i = at.min(bytes.len());
    for _ in 0..3 {
        if i == 0 || i == bytes.len() || bytes[i] & 0xC0 != 0x80 {
            return i;
        }
        i -= 1;
    }
    if i < bytes.len() && bytes[i] & 0xC0 == 0x80 {
        at.min(bytes.len())
    } else {
        i
    }
}

/// Where the `(n + 1)`th character of `body` starts, if `body` has more than `n`.
pub(crate) fn char_cut(body: &[u8], n: u64) -> Option<usize> {
    if (body.len() as u64) <= n {
        return None;
    }
    let mut chars = 0u64;
    for (i, &b) in body.iter().enumerate() {
        if b & 0xC0 != 0x80 {
            if chars == n {
                return Some(i);
            }
            chars += 1;
        }
    }
    None
}

/// Collects up to `want` lines (all, if `None`) starting at the line that begins at
/// `start` and ending before `stop_at` (a line start, or the end of the source), within
/// the budget.
pub(crate) fn collect_lines(
    src: &Source,
    start: u64,
    want: Option<u64>,
    stop_at: u64,
    budget: &Budget,
) -> Result<Page> {
    let mut page = Page {
        start,
        end: start,
        ..Page::default()
    };
    let units = src.units();
    let mut win = Window::new(src);
    let mut line = Vec::new();
    let len = src.len().min(stop_at);
    let mut pos = start;
    loop {
        if pos >= len || want.is_some_and(|w| page.lines >= w) {
            break;
        }
        if budget.max_lines > 0 && page.lines >= budget.max_lines {
            page.stop = Some(Stop {
                reason: TruncationReason::MaxLines,
                next_byte: pos,
                at_line_start: true,
            });
            break;
        }
        let remaining = if budget.max_bytes > 0 {
            budget.max_bytes.saturating_sub(page.content.len() as u64)
        } else {
            u64::MAX
        };
        // Keep enough of the line to decide both cuts; the rest is only scanned.
        // (8 past the budget: one whole character of up to 4 bytes and the next one's
        // first code unit, so that a character cut can always be found.)
        let mut keep = remaining.saturating_add(8);
        let char_keep = budget.max_line_chars.saturating_mul(4).saturating_add(8);
        if budget.max_line_chars > 0 {
            keep = keep.min(char_keep);
        }
        let raw = read_line(&mut win, pos, keep, &mut line)?;
        let kept_body = &line[..(raw.body.min(line.len() as u64)) as usize];
        let mut shown = raw.body;
        if budget.max_line_chars > 0 {
            if let Some(at) = units.char_cut(kept_body, budget.max_line_chars) {
                shown = at as u64;
            } else if kept_body.len() as u64 != raw.body && char_keep < remaining.saturating_add(8)
            {
                // Malformed data with too few character starts: cut near the end of what
                // was kept, where a byte selection for the rest will not snap back (the
                // end of `kept_body` is not the end of the line, so it is no boundary).
                // (When the byte budget limited what was kept, the line cannot fit: its
                // cut lies past `kept_body`, and `shown` stays over the budget.)
                shown = units.floor_boundary(kept_body, kept_body.len() - 1) as u64;
            }
        }
        let cut = shown < raw.body;
        let shown_len = shown + raw.term.len() as u64;
        if shown_len > remaining {
            if page.lines == 0 {
                // A single line larger than the byte budget: page it by bytes.
                let take = if raw.body == 0 {
                    // Only a CR LF, over a budget smaller than it: its first code unit.
                    let unit = units.width().min(raw.term.len());
                    page.push(pos, &raw.term[..unit]);
                    unit as u64
                } else {
                    // Keep 4 bytes of look-ahead when the line goes on past `kept_body`,
                    // so that the cut is judged on real bytes.
                    let avail = if (kept_body.len() as u64) < raw.body {
                        kept_body.len().saturating_sub(4)
                    } else {
                        kept_body.len()
                    };
                    let floor = units.floor_boundary(kept_body, (remaining as usize).min(avail));
                    let take = if matches!(units, Units::Utf8) {
                        // Always make progress (one character, even over budget), and end
                        // where the next page, a byte selection, starts without snapping
                        // back over these bytes (malformed data: at most 3 bytes further).
                        let at = pos + floor.max(1) as u64;
                        stable_start(src, at, pos + raw.body)? - pos
                    } else if floor == 0 {
                        // Always make progress: one whole character, even over budget.
                        units
                            .char_cut(kept_body, 1)
                            .map_or(raw.body.min(4), |c| c as u64)
                            .max(1)
                            .min(raw.body)
                    } else {
                        floor as u64
                    };
                    page.push(pos, &kept_body[..take as usize]);
                    take
                };
                page.lines = 1;
                page.end = pos + take;
                page.stop = Some(Stop {
                    reason: TruncationReason::MaxBytes,
                    next_byte: pos + take,
                    at_line_start: false,
                });
            } else {
                page.stop = Some(Stop {
                    reason: TruncationReason::MaxBytes,
                    next_byte: pos,
                    at_line_start: true,
                });
            }
            break;
        }
        page.push(pos, &kept_body[..shown as usize]);
        if cut {
            page.cuts.push(Cut {
                index: page.lines,
                shown,
                total: raw.body,
                rest_at: pos + shown,
            });
        }
        page.push(pos + raw.body, raw.term);
        page.lines += 1;
        pos = raw.end;
        page.end = pos;
    }
    Ok(page)
}
