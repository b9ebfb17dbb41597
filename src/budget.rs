//! Budgets: how much one read may return, and the paging that replaces "file too large"
//! errors. Lines longer than the line budget are cut on a character boundary; a page that
//! reaches the line or byte budget stops and says where to continue.

use std::num::NonZeroU64;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::lines::Lines;
use crate::result::TruncationReason;
use crate::source::Source;
use crate::text::{utf8, Measure, Units, MAX_BYTES_PER_UTF8, MAX_UTF8_PER_BYTE};

/// A limit that may be off: the public setters take a number where `0` means no limit,
/// and this type says so once, instead of at every use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Limit(Option<NonZeroU64>);

impl Limit {
    /// The limit `n`, where `0` means no limit.
    pub const fn new(n: u64) -> Limit {
        Limit(NonZeroU64::new(n))
    }

    /// The limit, if there is one.
    pub fn get(self) -> Option<u64> {
        self.0.map(NonZeroU64::get)
    }

    /// The limit, or `u64::MAX` when there is none.
    pub fn or_max(self) -> u64 {
        self.get().unwrap_or(u64::MAX)
    }

    /// Whether `n` has reached the limit.
    pub fn reached(self, n: u64) -> bool {
        self.get().is_some_and(|l| n >= l)
    }

    /// Whether `n` is over the limit.
    pub fn exceeded(self, n: u64) -> bool {
        self.get().is_some_and(|l| n > l)
    }

    /// The smaller of the limit and `cap` (a bound for "no limit" too).
    pub fn capped(self, cap: u64) -> u64 {
        self.get().map_or(cap, |l| l.min(cap))
    }
}

/// The limits of one read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub max_lines: Limit,
    pub max_bytes: Limit,
    pub max_line_chars: Limit,
    /// What `max_line_chars` counts.
    pub line_unit: LineUnit,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_lines: Limit::new(2000),
            max_bytes: Limit::new(100 * 1024),
            max_line_chars: Limit::new(2000),
            line_unit: LineUnit::Chars,
        }
    }
}

/// The UTF-8 bytes of the text from a line start up to a later line start, what the
/// byte budget counts, measured only when the count may have reached a limit: a search
/// bounded by the budget (a block's end) stops at the same line in every encoding.
pub(crate) struct Utf8Count<'a> {
    lines: &'a Lines<'a>,
    measure: Measure,
    origin: u64,
    measured_to: u64,
    count: u64,
    scratch: Vec<u8>,
}

impl<'a> Utf8Count<'a> {
    /// Counting from the line start `origin`.
    pub fn new(lines: &'a Lines<'a>, origin: u64) -> Utf8Count<'a> {
        Utf8Count {
            lines,
            measure: Measure::new(lines.layout.encoding),
            origin,
            measured_to: origin,
            count: 0,
            scratch: Vec::new(),
        }
    }

    /// Whether the text from the origin to the line start `to` (at or after the last
    /// one asked about) decodes to at least `limit` UTF-8 bytes. Reads at most about
    /// four times the limit in file bytes in all.
    pub fn reached(&mut self, limit: Limit, to: u64) -> Result<bool> {
        let Some(limit) = limit.get() else {
            return Ok(false);
        };
        if self.measure.is_file_bytes() {
            return Ok(to - self.origin >= limit);
        }
        let gap = to.saturating_sub(self.measured_to);
        if self.count + gap.saturating_mul(MAX_UTF8_PER_BYTE) < limit {
            return Ok(false);
        }
        if self.count + gap / MAX_BYTES_PER_UTF8 >= limit {
            return Ok(true);
        }
        let measure = self.measure;
        self.count += self
            .lines
            .src
            .with_range(self.measured_to, to, &mut self.scratch, |b| {
                measure.utf8_len(b)
            })?;
        self.measured_to = to;
        Ok(self.count >= limit)
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
        self.mark(self.content.len() as u64, file_offset);
        self.content.extend_from_slice(bytes);
    }

    /// Records that the content from offset `c` on holds the file's bytes from
    /// `file_offset` on (a new segment unless that continues the last one).
    fn mark(&mut self, c: u64, file_offset: u64) {
        let contiguous = self
            .segments
            .last()
            .is_some_and(|&(sc, sf)| sf + (c - sc) == file_offset);
        if !contiguous {
            self.segments.push((c, file_offset));
        }
    }
}

/// Collects up to `want` lines (all, if `None`) starting at the line that begins at
/// `start` and ending before `stop_at` (a line start, or the end of the source), within
/// the budget.
pub(crate) fn collect_lines(
    lines: &Lines<'_>,
    start: u64,
    want: Option<u64>,
    stop_at: u64,
    budget: &Budget,
    content: Vec<u8>,
) -> Result<Page> {
    let mut page = Page {
        content,
        start,
        end: start,
        ..Page::default()
    };
    let src = lines.src;
    let units = lines.layout.units;
    // The byte budget counts the UTF-8 bytes of the content (file bytes in UTF-8).
    let measure = Measure::new(lines.layout.encoding);
    let exact = measure.is_file_bytes() || budget.max_bytes.get().is_none();
    let mut used = page.content.len() as u64;
    let mut reader = lines.reader();
    let mut line = Vec::new();
    let len = src.len().min(stop_at);
    // Room for what the page can hold, so that a page of a few MiB is not copied again and
    // again as it grows (at most 1 MiB reserved ahead; beyond that it grows as usual).
    let most = budget.max_bytes.or_max().min(len.saturating_sub(start));
    page.content.reserve(most.min(1 << 20) as usize);
    let mut pos = start;
    loop {
        if pos >= len || want.is_some_and(|w| page.lines >= w) {
            break;
        }
        if budget.max_lines.reached(page.lines) {
            page.stop = Some(Stop {
                reason: TruncationReason::MaxLines,
                next_byte: pos,
                at_line_start: true,
            });
            break;
        }
        let remaining = budget.max_bytes.or_max().saturating_sub(used);
        // The fast path: a run of whole lines that no budget can cut (each no longer in
        // bytes than the line-length budget allows characters, all within the byte
        // budget and the line counts) is taken in one piece, without looking at each
        // line's terminator: read straight into the page, the line ends found a stretch
        // at a time. Whatever it leaves is read line by line below.
        let lines_left = budget
            .max_lines
            .or_max()
            .min(want.unwrap_or(u64::MAX))
            .saturating_sub(page.lines);
        // A line no longer in file bytes than the limit is within it in every unit, but
        // for UTF-8 bytes of a text in another encoding (up to 3 a file byte).
        let max_chars = match budget.line_unit {
            LineUnit::Bytes if !measure.is_file_bytes() => {
                budget.max_line_chars.or_max() / MAX_UTF8_PER_BYTE
            }
            _ => budget.max_line_chars.or_max(),
        };
        // In other encodings, as many file bytes as surely fit; measured once taken (the
        // next round takes more while the budget lasts).
        let reach = if exact {
            remaining
        } else {
            remaining / MAX_UTF8_PER_BYTE
        };
        let limit = pos.saturating_add(reach).min(len);
        let at = page.content.len() as u64;
        let (taken, n) =
            reader.whole_lines(pos, limit, lines_left, max_chars, &mut page.content)?;
        if n > 0 {
            used += if exact {
                taken
            } else {
                measure.utf8_len(&page.content[at as usize..])
            };
            page.mark(at, pos);
            page.lines += n;
            pos += taken;
            page.end = pos;
            continue;
        }
        // Keep enough of the line to decide both cuts; the rest is only scanned.
        // (8 past the budget: one whole character of up to 4 bytes and the next one's
        // first code unit, so that a character cut can always be found.)
        let mut keep = if exact {
            remaining
        } else {
            remaining.saturating_mul(MAX_BYTES_PER_UTF8)
        }
        .saturating_add(8);
        let char_keep = budget
            .max_line_chars
            .or_max()
            .saturating_mul(4)
            .saturating_add(8);
        if budget.max_line_chars.get().is_some() {
            keep = keep.min(char_keep);
        }
        let raw = reader.read_line(pos, keep, &mut line)?;
        let kept_body = &line[..(raw.body.min(line.len() as u64)) as usize];
        let mut shown = raw.body;
        if let Some(max_chars) = budget.max_line_chars.get() {
            if let Some(at) = line_cut(budget.line_unit, measure, units, kept_body, max_chars) {
                shown = settle_cut(src, units, pos, kept_body, at)?;
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
        // The line's size for the byte budget: its UTF-8 bytes (a terminator is 1 or 2).
        let shown_len = if exact {
            shown + raw.term.len() as u64
        } else if shown as usize > kept_body.len() {
            // Longer than what was kept: more UTF-8 bytes than the budget has left.
            u64::MAX
        } else {
            measure.utf8_len(&kept_body[..shown as usize]) + (raw.term.len() / units.width()) as u64
        };
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
                    let floor = if exact {
                        units.floor_boundary(kept_body, (remaining as usize).min(avail))
                    } else {
                        measure.floor(&kept_body[..avail], remaining).0
                    };
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
        used += shown_len;
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

/// Where a line body (which starts at a boundary) is cut by a line-length limit of `n`
/// in `unit`, if it is over it.
fn line_cut(unit: LineUnit, measure: Measure, units: Units, body: &[u8], n: u64) -> Option<usize> {
    match unit {
        LineUnit::Chars => units.char_cut(body, n),
        LineUnit::Utf16 => units.utf16_cut(body, n),
        LineUnit::Bytes => {
            let (fit, _) = measure.floor(body, n);
            (fit < body.len()).then_some(fit)
        }
    }
}

/// Where a line cut at `at` (a character or an invalid sequence, counted as a decoder
/// shows it) ends, so that a byte selection from its rest starts as asked: a cut on a
/// stray continuation byte moves back to the boundary such a selection snaps to (within
/// the limit), or, when that is the line's start, forward past the stray bytes. Elsewhere
/// the cut stays.
fn settle_cut(src: &Source, units: Units, pos: u64, body: &[u8], at: usize) -> Result<u64> {
    if !matches!(units, Units::Utf8) || !body.get(at).copied().is_some_and(utf8::is_continuation) {
        return Ok(at as u64);
    }
    let cut = pos + at as u64;
    let back = utf8::snap_start(cut, src.len(), |p| src.byte_at(p))?;
    if back > pos {
        return Ok(back - pos);
    }
    Ok(stable_start(src, cut, pos + body.len() as u64)? - pos)
}

/// [`utf8::stable_start`] over a source.
fn stable_start(src: &Source, at: u64, end: u64) -> Result<u64> {
    utf8::stable_start(at, end, src.len(), |p| src.byte_at(p))
}

/// The page of a byte selection `[s, e)` (already snapped) under the byte budget: cut on
/// a character boundary, always at least one character, and stopping where the next
/// page (a byte selection from `next_start_byte`) starts without snapping back.
pub(crate) fn byte_page(
    lines: &Lines<'_>,
    s: u64,
    e: u64,
    max_bytes: Limit,
    content: Vec<u8>,
) -> Result<Page> {
    let src = lines.src;
    let units = lines.layout.units;
    let mut scratch = Vec::new();
    let mut page = Page {
        start: s,
        end: e,
        ..Page::default()
    };
    let mut take_end = e;
    let measure = Measure::new(lines.layout.encoding);
    if measure.is_file_bytes() {
        // Content bytes are file bytes: handled below.
    } else if let Some(budget) = max_bytes
        .get()
        .filter(|&b| (e - s).saturating_mul(MAX_UTF8_PER_BYTE) > b)
    {
        // The budget counts UTF-8 bytes: look at as many file bytes as the budget can
        // take, and one character more.
        let probe_end = (s + budget.saturating_mul(MAX_BYTES_PER_UTF8) + 8).min(e);
        let probe = src.with_range(s, probe_end, &mut scratch, |b| b.to_vec())?;
        let (fit, _) = measure.floor(&probe, budget);
        if fit < probe.len() || probe_end < e {
            take_end = if fit == 0 {
                // Always make progress: one whole character, even over budget.
                s + units.char_cut(&probe, 1).unwrap_or(probe.len()) as u64
            } else {
                s + fit as u64
            };
        }
    }
    if let Some(budget) = max_bytes
        .get()
        .filter(|&b| measure.is_file_bytes() && e - s > b)
    {
        // Cut on a char boundary: look at the 4 bytes past the budget, and at enough
        // bytes to hold one whole character and the start of the next (8).
        let probe_end = (s + budget + 4).max(s + 8).min(e);
        let probe = src.with_range(s, probe_end, &mut scratch, |b| b.to_vec())?;
        let cut = units.floor_boundary(&probe, budget as usize) as u64;
        take_end = if matches!(units, Units::Utf8) {
            // Always make progress (one character, even over budget), and stop where the
            // next page starts without snapping back over these bytes.
            stable_start(src, s + cut.max(1), e)?
        } else if cut == 0 {
            // Always make progress: one whole character, even over budget.
            s + units.char_cut(&probe, 1).unwrap_or(probe.len()) as u64
        } else {
            s + cut
        };
    }
    if take_end < e {
        page.stop = Some(Stop {
            reason: TruncationReason::MaxBytes,
            next_byte: take_end,
            at_line_start: lines.starts_line(take_end)?,
        });
        page.end = take_end;
    }
    let n = usize::try_from(take_end - s).map_err(|_| src.changed())?;
    page.content = content;
    src.read_append(s, n, &mut page.content)?;
    page.segments.push((0, s));
    page.lines = u64::from(n > 0);
    Ok(page)
}

/// What the line-length budget counts ([`Reader::line_unit`](crate::Reader::line_unit)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineUnit {
    /// Characters (Unicode scalar values): Python's `len`. The default.
    #[default]
    Chars,
    /// UTF-16 code units: JavaScript's `length`, which Gemini CLI cuts by (an emoji is
    /// two), of the text as a decoder shows it: in invalid UTF-8 each invalid sequence
    /// is one U+FFFD, one unit. A cut never splits a surrogate pair, and one that would
    /// fall on a stray continuation byte ends where a byte selection of the rest starts.
    Utf16,
    /// UTF-8 bytes of `content`, on a character boundary.
    Bytes,
}
