//! The reader: configuration, and the one path a read takes through the steps
//! (source → select → budget → summarize → result).

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::block::{find_block, Limits};
use crate::budget::{collect_lines, floor_char_boundary, stable_start, Budget, Page};
use crate::decode::{decode_utf8, Utf8Policy};
use crate::error::{Error, Result};
use crate::index::{tail_start, LineIndex, DEFAULT_BLOCK_SIZE};
use crate::landmarks::{each_line, landmark_text, Lang, Matcher};
use crate::result::{
    Adjustments, ByteSpan, CutLine, Landmark, LineEnding, LineSpan, Outline, ReadResult, Requested,
    RequestedLines, Truncation,
};
use crate::select::{snap_end, snap_start, ByteSelection, LineSelection, Selection, Snap};
use crate::source::Source;
use crate::summarize::{omitted, Regions, Searched};

/// When a read pays for counting the lines of the whole file.
///
/// Counting is one SIMD pass over the bytes not yet indexed, kept in the index for later
/// reads of the same [`Document`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Totals {
    /// Line selections report `total_lines` and absolute line numbers (counting if
    /// needed); byte selections report them only when the index already covers them.
    /// The default.
    #[default]
    Auto,
    /// Never scan for totals: report them only when already known. Head, tail and byte
    /// reads then touch only the bytes they return (plus a truncation point's numbers,
    /// which are always exact).
    IfKnown,
    /// Always report totals and line numbers, for byte selections too.
    Always,
}

#[derive(Debug, Clone, Copy)]
struct Config {
    budget: Budget,
    utf8: Utf8Policy,
    totals: Totals,
    block_size: u64,
    retries: u32,
    summaries: bool,
    max_landmarks: u64,
    landmark_window: u64,
    outline_max_bytes: u64,
}

/// Default number of landmarks in an omitted-content summary.
pub const DEFAULT_MAX_LANDMARKS: u64 = 40;

/// Default number of bytes looked at for landmarks on each side of a read (256 KiB).
pub const DEFAULT_LANDMARK_WINDOW: u64 = 256 * 1024;

/// The most bytes above a line that a block read looks at (and holds in memory).
const BLOCK_WINDOW_CAP: u64 = 64 << 20;

/// Default number of bytes an outline looks at (16 MiB).
pub const DEFAULT_OUTLINE_MAX_BYTES: u64 = 16 << 20;

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: Budget::default(),
            utf8: Utf8Policy::Lossy,
            totals: Totals::Auto,
            block_size: DEFAULT_BLOCK_SIZE,
            retries: 3,
            summaries: true,
            max_landmarks: DEFAULT_MAX_LANDMARKS,
            landmark_window: DEFAULT_LANDMARK_WINDOW,
            outline_max_bytes: DEFAULT_OUTLINE_MAX_BYTES,
        }
    }
}

/// Reads parts of files: a builder over the read configuration.
///
/// # Example
///
/// ```
/// use rangeread::{LineSelection, Reader};
///
/// let result = Reader::new().max_lines(5).read("Cargo.toml", LineSelection::Head(3))?;
/// assert_eq!(result.lines.map(|l| (l.start, l.end)), Some((1, 3)));
/// assert!(result.content.starts_with("[package]"));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Reader {
    config: Config,
}

impl Reader {
    /// A reader with the default budgets: 2000 lines, 100 KiB, 2000 characters a line.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// By default, at most 2000 lines are returned per read; `0` means no limit.
    pub fn max_lines(mut self, n: u64) -> Reader {
        self.config.budget.max_lines = n;
        self
    }

    /// By default, at most 100 KiB of content are returned per read; `0` means no limit.
    pub fn max_bytes(mut self, n: u64) -> Reader {
        self.config.budget.max_bytes = n;
        self
    }

    /// By default, lines longer than 2000 characters are cut on a character boundary
    /// (line selections only); `0` means no limit.
    pub fn max_line_chars(mut self, n: u64) -> Reader {
        self.config.budget.max_line_chars = n;
        self
    }

    /// By default, invalid UTF-8 is replaced ([`Utf8Policy::Lossy`]).
    pub fn utf8_policy(mut self, policy: Utf8Policy) -> Reader {
        self.config.utf8 = policy;
        self
    }

    /// By default, [`Totals::Auto`].
    pub fn totals(mut self, totals: Totals) -> Reader {
        self.config.totals = totals;
        self
    }

    /// By default, the line index keeps one checkpoint per 64 KiB.
    pub fn index_block_size(mut self, bytes: u64) -> Reader {
        self.config.block_size = bytes.max(1);
        self
    }

    /// By default, a one-shot [`Reader::read`] retries 3 times when the file changes
    /// under it before it reports [`Error::Changed`].
    pub fn retries(mut self, n: u32) -> Reader {
        self.config.retries = n;
        self
    }

    /// By default, partial reads look for landmarks (definitions, headings, section
    /// headers) in the omitted regions and list them in `omitted.landmarks` and in the
    /// summary line. `false` skips that search: `omitted` then holds the counts and a
    /// summary line without structure, at no cost beyond the read itself.
    ///
    /// The search costs at most [`Reader::landmark_window`] bytes on each side of the
    /// read, never a scan of the file, and needs line numbers: reads that do not know
    /// them (a tail or byte read under [`Totals::IfKnown`]) report no landmarks.
    pub fn summaries(mut self, on: bool) -> Reader {
        self.config.summaries = on;
        self
    }

    /// By default, at most 40 landmarks are reported per read, the nearest to the read
    /// first (and at most 8 of them are named in the summary line); `0` means no limit.
    pub fn max_landmarks(mut self, n: u64) -> Reader {
        self.config.max_landmarks = n;
        self
    }

    /// By default, landmarks are looked for within 256 KiB on each side of a read (lines
    /// wholly inside that window); `0` means the whole omitted regions. When the window
    /// does not reach the start or the end of the file, the summary says which lines
    /// were searched. The same window bounds how far [`LineSelection::Block`] looks up
    /// for the enclosing definition (at most 64 MiB, which it holds in memory).
    pub fn landmark_window(mut self, bytes: u64) -> Reader {
        self.config.landmark_window = bytes;
        self
    }

    /// By default, [`Document::outline`] looks at the first 16 MiB of a file; `0` means
    /// the whole file.
    pub fn outline_max_bytes(mut self, bytes: u64) -> Reader {
        self.config.outline_max_bytes = bytes;
        self
    }

    /// Opens a file for one or more reads that share one line index.
    ///
    /// # Errors
    ///
    /// As [`Source::open`].
    pub fn open(&self, path: impl AsRef<Path>) -> Result<Document> {
        let path = path.as_ref();
        let limit = match self.config.budget.max_bytes {
            0 => crate::source::STREAM_HARD_LIMIT,
            n => n,
        };
        let src = Source::open_streaming_limit(path, limit)?;
        Ok(self.document(src))
    }

    /// Wraps a source opened some other way (in memory, memory-mapped, from a workspace).
    pub fn document(&self, src: Source) -> Document {
        let path = src.path().display().to_string();
        Document {
            index: LineIndex::with_block_size(src.len(), self.config.block_size),
            src,
            config: self.config,
            resolved_path: path.clone(),
            path,
        }
    }

    /// Opens `path` and reads `selection` from it. If the file changes during the read,
    /// it is reopened and read again (see [`Reader::retries`]).
    ///
    /// # Errors
    ///
    /// Anything [`Reader::open`] and [`Document::read`] return.
    pub fn read(
        &self,
        path: impl AsRef<Path>,
        selection: impl Into<Selection>,
    ) -> Result<ReadResult> {
        let selection = selection.into();
        let mut attempt = 0;
        loop {
            let res = self.open(path.as_ref()).and_then(|mut d| d.read(selection));
            match res {
                Err(Error::Changed { .. }) if attempt < self.config.retries => attempt += 1,
                other => return other,
            }
        }
    }
}

/// An open file and its line index: many reads, one index.
///
/// Reads check that the file is still in the state it was opened in; once it changed,
/// every read returns [`Error::Changed`] and the caller reopens it.
#[derive(Debug)]
pub struct Document {
    src: Source,
    index: LineIndex,
    config: Config,
    path: String,
    resolved_path: String,
}

impl Document {
    /// The source being read.
    pub fn source(&self) -> &Source {
        &self.src
    }

    /// The line index as built so far.
    pub fn index(&self) -> &LineIndex {
        &self.index
    }

    /// Sets the path reported as `path` (as the caller spelled it) and as `resolved_path`.
    pub fn set_paths(&mut self, path: impl Into<String>, resolved_path: impl Into<String>) {
        self.path = path.into();
        self.resolved_path = resolved_path.into();
    }

    /// The number of lines of the file, counting once if not yet known.
    ///
    /// # Errors
    ///
    /// [`Error::Changed`] if the file changed, or an I/O error.
    pub fn total_lines(&mut self) -> Result<u64> {
        self.index.total_lines(&self.src)
    }

    /// The landmarks of the whole file (definitions, headings, section headers; the rules
    /// of `omitted.landmarks`), in file order.
    ///
    /// The cost is bounded: at most [`Reader::outline_max_bytes`] bytes are looked at
    /// (16 MiB by default), and the outline holds at most as many landmarks as the line
    /// budget and as much text as the byte budget allow ([`Reader::max_lines`],
    /// [`Reader::max_bytes`]). `complete` says whether the whole file was covered.
    ///
    /// # Errors
    ///
    /// [`Error::Changed`] when the file changed since it was opened, or an I/O error.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{Reader, Source};
    ///
    /// let src = Source::from_bytes(b"struct A;\n\nimpl A {\n    fn new() -> A { A }\n}\n".to_vec(), "a.rs");
    /// let outline = Reader::new().document(src).outline()?;
    /// let lines: Vec<u64> = outline.landmarks.iter().map(|l| l.line).collect();
    /// assert_eq!(lines, [1, 3, 4]);
    /// assert_eq!(outline.landmarks[2].text, "fn new() -> A { A }");
    /// assert!(outline.complete);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn outline(&mut self) -> Result<Outline> {
        self.src.check_unchanged()?;
        let len = self.src.len();
        let end = match self.config.outline_max_bytes {
            0 => len,
            n => n.min(len),
        };
        let budget = self.config.budget;
        let mut matcher = Matcher::new(Lang::for_path(Path::new(&self.path)));
        let mut landmarks = Vec::new();
        let mut text_bytes = 0u64;
        let mut line = 0u64;
        let mut scanned = 0u64;
        let mut full = false;
        each_line(&self.src, 0, end, |l| {
            if matcher.is_landmark(l.head) {
                let text = landmark_text(l.head);
                let over_lines = budget.max_lines > 0 && landmarks.len() as u64 >= budget.max_lines;
                let over_bytes =
                    budget.max_bytes > 0 && text_bytes + text.len() as u64 + 1 > budget.max_bytes;
                if over_lines || over_bytes {
                    full = true;
                    return ControlFlow::Break(());
                }
                text_bytes += text.len() as u64 + 1;
                landmarks.push(Landmark {
                    line: line + 1,
                    text,
                });
            }
            line += 1;
            scanned = l.end;
            ControlFlow::Continue(())
        })?;
        self.src.check_unchanged()?;
        let complete = !full && scanned == len;
        Ok(Outline {
            path: self.path.clone(),
            file_size: len,
            total_lines: complete.then_some(line),
            landmarks,
            scanned_lines: line,
            scanned_bytes: scanned,
            complete,
        })
    }

    /// Landmarks in the omitted regions around the bytes `[start, end)` of a page whose
    /// lines are `lines`, nearest first, looking at most `landmark_window` bytes on each
    /// side.
    fn landmarks_around(
        &mut self,
        start: u64,
        end: u64,
        lines: LineSpan,
    ) -> Result<(Vec<Landmark>, Searched)> {
        let len = self.src.len();
        let window = match self.config.landmark_window {
            0 => u64::MAX,
            w => w,
        };
        let cap = match self.config.max_landmarks {
            0 => usize::MAX,
            n => usize::try_from(n).unwrap_or(usize::MAX),
        };
        let lang = Lang::for_path(Path::new(&self.path));
        let mut searched = Searched::default();
        let mut scratch = Vec::new();
        let src = &self.src;
        let ends_line = |pos: u64, scratch: &mut Vec<u8>| -> Result<bool> {
            Ok(pos == 0 || src.with_range(pos - 1, pos, scratch, |b| b[0] == b'\n')?)
        };

        // Before: the whole lines in the window, in file order; keep the nearest `cap`.
        let mut before: VecDeque<(u64, String)> = VecDeque::new();
        if start > 0 {
            let ws = start.saturating_sub(window);
            let whole_first = ends_line(ws, &mut scratch)?;
            let mut matcher = Matcher::new(lang);
            let mut k = 0u64;
            each_line(src, ws, start, |l| {
                // Every piece ends with an LF at or before `start`; the first one is the
                // tail of a line cut by the window unless the window starts a line.
                let partial = k == 0 && !whole_first;
                if !partial && matcher.is_landmark(l.head) {
                    before.push_back((k, landmark_text(l.head)));
                    if before.len() > cap {
                        before.pop_front();
                    }
                }
                k += 1;
                ControlFlow::Continue(())
            })?;
            // Lines numbered back from the first line of the page: the `k` pieces end
            // with the LF before `start`, the last one is line `lines.start - 1`.
            let whole = k - u64::from(!whole_first && k > 0);
            if ws > 0 {
                searched.before = Some((lines.start.saturating_sub(whole), lines.start - 1));
            }
            let base = lines.start.saturating_sub(k);
            before = before.into_iter().map(|(i, t)| (base + i, t)).collect();
        }

        // After: whole lines from the end of the page, nearest first.
        let mut after: Vec<(u64, String)> = Vec::new();
        if end < len {
            let we = end.saturating_add(window).min(len);
            let skip_first = !ends_line(end, &mut scratch)?;
            let mut matcher = Matcher::new(lang);
            let mut k = 0u64;
            let mut last_line = lines.end;
            let mut stopped = false;
            each_line(src, end, we, |l| {
                let this = k;
                k += 1;
                if this == 0 && skip_first {
                    return ControlFlow::Continue(());
                }
                let no = lines.end + 1 + this - u64::from(skip_first);
                last_line = no;
                if matcher.is_landmark(l.head) {
                    after.push((no, landmark_text(l.head)));
                    if after.len() >= cap {
                        stopped = true;
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            })?;
            if we < len && !stopped {
                searched.after = Some((lines.end + 1, last_line));
            }
        }

        // Merge by distance from the read; a tie goes to the line above.
        let mut out = Vec::new();
        let mut b = before.into_iter().rev().peekable();
        let mut a = after.into_iter().peekable();
        while out.len() < cap {
            let pick_before = match (b.peek(), a.peek()) {
                (Some((bl, _)), Some((al, _))) => lines.start - bl <= al - lines.end,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let (line, text) = if pick_before { b.next() } else { a.next() }.expect("peeked");
            out.push(Landmark { line, text });
        }
        searched.window = window;
        Ok((out, searched))
    }

    /// Reads a selection.
    ///
    /// # Errors
    ///
    /// The validation errors of the selection (with the contract's messages),
    /// [`Error::InvalidUtf8`] under the strict policy, [`Error::Changed`] when the file
    /// changed since it was opened, or an I/O error.
    pub fn read(&mut self, selection: impl Into<Selection>) -> Result<ReadResult> {
        self.src.check_unchanged()?;
        let result = match selection.into() {
            Selection::Lines(sel) => self.read_lines(sel),
            Selection::Bytes(sel) => self.read_bytes(sel),
        }?;
        self.src.check_unchanged()?;
        Ok(result)
    }

    fn read_lines(&mut self, sel: LineSelection) -> Result<ReadResult> {
        sel.validate()?;
        let (requested, plan) = self.plan(sel)?;
        let len = self.src.len();
        let budget = self.config.budget;
        let (page, first_line, end_clamped) = match plan {
            Plan::Empty => (Page::default(), None, false),
            Plan::Forward { start, count } => match self.index.line_start(&self.src, start)? {
                Some(start_off) => {
                    let page = collect_lines(&self.src, start_off, count, len, &budget)?;
                    let clamped = count.is_some_and(|c| page.lines < c && page.stop.is_none());
                    (page, Some(start), clamped)
                }
                None => {
                    let total = self.index.total_lines(&self.src)?;
                    if total == 0 && start == 1 {
                        (Page::default(), None, count.is_some_and(|c| c > 0))
                    } else {
                        return Err(Error::LineBeyondEnd {
                            start,
                            total_lines: total,
                        });
                    }
                }
            },
            Plan::Tail { n, skip } => {
                let start_off = tail_start(&self.src, len, n)?;
                let end_off = tail_start(&self.src, len, skip)?;
                let page = if start_off < end_off {
                    collect_lines(&self.src, start_off, None, end_off, &budget)?
                } else {
                    Page {
                        start: end_off,
                        end: end_off,
                        ..Page::default()
                    }
                };
                let known = self.index.scanned() >= start_off;
                let need = known
                    || self.config.totals != Totals::IfKnown
                    || page.stop.is_some()
                    || !page.cuts.is_empty();
                let first = if need && page.lines > 0 {
                    Some(self.index.line_of_offset(&self.src, start_off)?)
                } else {
                    None
                };
                (page, first, false)
            }
        };
        let total_lines = match self.config.totals {
            Totals::IfKnown => self.index.known_total_lines(),
            Totals::Auto | Totals::Always => Some(self.index.total_lines(&self.src)?),
        };
        let adjustments = Adjustments {
            end_clamped,
            ..Adjustments::default()
        };
        let lines = match (first_line, page.lines) {
            (Some(f), n) if n > 0 => Some(LineSpan {
                start: f,
                end: f + n - 1,
            }),
            _ => None,
        };
        self.finish(page, lines, total_lines, requested, adjustments)
    }

    /// The byte offset of line `line`, which must exist.
    fn require_line(&mut self, line: u64) -> Result<u64> {
        match self.index.line_start(&self.src, line)? {
            Some(off) => Ok(off),
            None => Err(Error::LineBeyondEnd {
                start: line,
                total_lines: self.index.total_lines(&self.src)?,
            }),
        }
    }

    /// Normalizes a line selection into a forward or a backward plan.
    fn plan(&mut self, sel: LineSelection) -> Result<(Requested, Plan)> {
        let req = |start: i64, end: Option<i64>| Requested {
            lines: Some(RequestedLines { start, end }),
            bytes: None,
        };
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        Ok(match sel {
            LineSelection::Head(n) => (
                req(1, Some(i(n))),
                if n == 0 {
                    Plan::Empty
                } else {
                    Plan::Forward {
                        start: 1,
                        count: Some(n),
                    }
                },
            ),
            LineSelection::Tail(n) => (
                req(-i(n), None),
                if n == 0 {
                    Plan::Empty
                } else {
                    Plan::Tail { n, skip: 0 }
                },
            ),
            LineSelection::OffsetLimit { offset, limit } => (
                req(i(offset), limit.map(|l| i(offset.saturating_add(l)) - 1)),
                match limit {
                    Some(0) => Plan::Empty,
                    count => Plan::Forward {
                        start: offset,
                        count,
                    },
                },
            ),
            LineSelection::Around { line, context } => {
                self.require_line(line)?;
                let start = line.saturating_sub(context).max(1);
                let end = line.saturating_add(context);
                (
                    req(i(start), Some(i(end))),
                    Plan::Forward {
                        start,
                        count: Some(end - start + 1),
                    },
                )
            }
            LineSelection::Block { line } => {
                let off = self.require_line(line)?;
                let budget = self.config.budget;
                let limits = Limits {
                    // The lines above are held in memory: bound "no limit" too.
                    window: match self.config.landmark_window {
                        0 => BLOCK_WINDOW_CAP,
                        w => w.min(BLOCK_WINDOW_CAP),
                    },
                    max_lines: budget.max_lines,
                    max_bytes: budget.max_bytes,
                };
                let lang = Lang::for_path(Path::new(&self.path));
                let span = find_block(&self.src, lang, line, off, limits)?;
                (
                    req(i(span.start), span.complete.then(|| i(span.end))),
                    Plan::Forward {
                        start: span.start,
                        count: Some(span.end - span.start + 1),
                    },
                )
            }
            LineSelection::Range { start, end } => {
                let s = start.unwrap_or(1);
                let r = req(s, end);
                match (s > 0, end) {
                    (true, None) => (
                        r,
                        Plan::Forward {
                            start: s as u64,
                            count: None,
                        },
                    ),
                    (true, Some(e)) if e > 0 => (
                        r,
                        Plan::Forward {
                            start: s as u64,
                            count: Some((e - s) as u64 + 1),
                        },
                    ),
                    (false, None) => (
                        r,
                        Plan::Tail {
                            n: s.unsigned_abs(),
                            skip: 0,
                        },
                    ),
                    (false, Some(e)) if e < 0 => (
                        r,
                        Plan::Tail {
                            n: s.unsigned_abs(),
                            skip: e.unsigned_abs() - 1,
                        },
                    ),
                    (_, Some(e)) => {
                        // Mixed signs: resolve against the line count.
                        let total = i(self.index.total_lines(&self.src)?);
                        let abs = |v: i64| if v < 0 { total + 1 + v } else { v };
                        let (rs, re) = (abs(s).max(1), abs(e));
                        if rs > re {
                            return Err(Error::LineStartAfterEnd { start: s, end: e });
                        }
                        (
                            r,
                            Plan::Forward {
                                start: rs as u64,
                                count: Some((re - rs) as u64 + 1),
                            },
                        )
                    }
                }
            }
        })
    }

    fn read_bytes(&mut self, sel: ByteSelection) -> Result<ReadResult> {
        let len = self.src.len();
        let start = sel.start.unwrap_or(0);
        let end = sel.end.unwrap_or(len);
        if start > end {
            return Err(Error::ByteStartAfterEnd { start, end });
        }
        if start > len {
            return Err(Error::ByteBeyondEnd {
                start,
                file_size: len,
            });
        }
        let requested = Requested {
            lines: None,
            bytes: Some(ByteSpan { start, end }),
        };
        let end_clamped = end > len;
        let clamped_end = end.min(len);
        let mut scratch = Vec::new();
        let src = &self.src;
        let byte_at = |pos: u64| -> Result<u8> {
            let mut b = [0u8];
            src.read_exact_at(pos, &mut b)?;
            Ok(b[0])
        };
        let (s, e) = match sel.snap {
            Snap::Char => (
                snap_start(start, len, byte_at)?,
                snap_end(clamped_end, len, byte_at)?,
            ),
            Snap::Line => {
                let s = line_floor(src, start)?;
                let e = if clamped_end > s
                    && src.with_range(clamped_end - 1, clamped_end, &mut scratch, |b| b[0])?
                        == b'\n'
                {
                    clamped_end
                } else {
                    line_ceil(src, clamped_end)?
                };
                (s, e)
            }
        };
        let adjustments = Adjustments {
            start_adjusted: s != start,
            end_adjusted: e != clamped_end,
            end_clamped,
        };
        let budget = self.config.budget.max_bytes;
        let mut page = Page {
            start: s,
            end: e,
            ..Page::default()
        };
        let mut take_end = e;
        if budget > 0 && e - s > budget {
            // Cut on a char boundary: look at the 3 bytes past the budget.
            let probe_end = (s + budget + 3).min(e);
            let probe = src.with_range(s, probe_end, &mut scratch, |b| b.to_vec())?;
            let cut = floor_char_boundary(&probe, budget as usize) as u64;
            // Always make progress (one character, even over budget), and stop where the
            // next page starts without snapping back over these bytes.
            take_end = stable_start(src, s + cut.max(1), e)?;
            page.stop = Some(crate::budget::Stop {
                reason: crate::result::TruncationReason::MaxBytes,
                next_byte: take_end,
                at_line_start: take_end == 0
                    || src.with_range(take_end - 1, take_end, &mut scratch, |b| b[0])? == b'\n',
            });
            page.end = take_end;
        }
        let n = usize::try_from(take_end - s).map_err(|_| src.changed())?;
        page.content = vec![0; n];
        src.read_exact_at(s, &mut page.content)?;
        page.segments.push((0, s));
        page.lines = u64::from(n > 0);
        let want_lines = match self.config.totals {
            Totals::Always => true,
            Totals::Auto | Totals::IfKnown => self.index.scanned() >= take_end,
        };
        let (first_line, total_lines) = if want_lines {
            let total = Some(self.index.total_lines(&self.src)?);
            (Some(self.index.line_of_offset(&self.src, s)?), total)
        } else {
            (None, self.index.known_total_lines())
        };
        // For bytes, `page.lines` is not a line count: derive the last line from bytes.
        let last_line = match (first_line, n) {
            (Some(_), n) if n > 0 => Some(self.index.line_of_offset(&self.src, take_end - 1)?),
            _ => None,
        };
        let lines = match (first_line, last_line) {
            (Some(a), Some(b)) => Some(LineSpan { start: a, end: b }),
            _ => None,
        };
        self.finish(page, lines, total_lines, requested, adjustments)
    }

    /// Turns a page into the result: decoding, numbering, truncation, omitted regions.
    ///
    /// `lines` are the lines the page touches (for a byte page, the lines of its first
    /// and last bytes); a page that stops at a line start continues at the next line.
    fn finish(
        &mut self,
        page: Page,
        lines: Option<LineSpan>,
        total_lines: Option<u64>,
        requested: Requested,
        adjustments: Adjustments,
    ) -> Result<ReadResult> {
        let file_size = self.src.len();
        let first_line = lines.map(|l| l.start);
        let truncated = page.stop.map(|stop| Truncation {
            reason: stop.reason,
            next_start_byte: stop.next_byte,
            next_start_line: match (stop.at_line_start, lines) {
                (true, Some(l)) => Some(l.end + 1),
                _ => None,
            },
        });
        let cut_lines: Vec<CutLine> = page
            .cuts
            .iter()
            .map(|c| CutLine {
                line: first_line.map_or(c.index + 1, |f| f + c.index),
                shown_bytes: c.shown,
                total_bytes: c.total,
                next_start_byte: c.rest_at,
            })
            .collect();
        let is_partial = page.start > 0 || page.end < file_size || !cut_lines.is_empty();
        let omitted = if is_partial {
            let (landmarks, searched) = match lines {
                Some(l) if self.config.summaries => {
                    self.landmarks_around(page.start, page.end, l)?
                }
                _ => (Vec::new(), Searched::default()),
            };
            Some(omitted(
                Regions {
                    lines: lines.map(|l| (l.start, l.end)),
                    total_lines,
                    start_byte: page.start,
                    end_byte: page.end,
                    file_size,
                },
                landmarks,
                searched,
            ))
        } else {
            None
        };
        let percent_of_file = if file_size == 0 {
            100.0
        } else {
            (page.content.len() as f64 * 1000.0 / file_size as f64).round() / 10.0
        };
        let line_ending = LineEnding::of(&page.content);
        let bytes = ByteSpan {
            start: page.start,
            end: page.end,
        };
        let map = |c: u64| page.file_offset(c);
        let decoded = decode_utf8(page.content.clone(), self.config.utf8, map)?;
        Ok(ReadResult {
            path: self.path.clone(),
            resolved_path: self.resolved_path.clone(),
            content: decoded.text,
            file_size,
            total_lines,
            encoding: "utf-8".to_string(),
            line_ending,
            lines,
            bytes,
            requested,
            adjustments,
            truncated,
            cut_lines,
            omitted,
            is_partial,
            percent_of_file,
            invalid_utf8: decoded.invalid,
            raw: decoded.raw,
        })
    }
}

enum Plan {
    Empty,
    Forward { start: u64, count: Option<u64> },
    Tail { n: u64, skip: u64 },
}

/// The start of the line holding `pos`: just past the last LF before it (memrchr
/// backwards, costing the length of that line, not of the file).
fn line_floor(src: &Source, pos: u64) -> Result<u64> {
    let chunk = src.chunk_size() as u64;
    let mut scratch = Vec::new();
    let mut hi = pos;
    while hi > 0 {
        let lo = hi.saturating_sub(chunk);
        if let Some(i) = src.with_range(lo, hi, &mut scratch, |b| memchr::memrchr(b'\n', b))? {
            return Ok(lo + i as u64 + 1);
        }
        hi = lo;
    }
    Ok(0)
}

/// The end of the line holding `pos` (just past its LF, or the end of the file).
fn line_ceil(src: &Source, pos: u64) -> Result<u64> {
    let chunk = src.chunk_size() as u64;
    let len = src.len();
    let mut scratch = Vec::new();
    let mut lo = pos;
    while lo < len {
        let hi = (lo + chunk).min(len);
        if let Some(i) = src.with_range(lo, hi, &mut scratch, |b| memchr::memchr(b'\n', b))? {
            return Ok(lo + i as u64 + 1);
        }
        lo = hi;
    }
    Ok(len)
}
