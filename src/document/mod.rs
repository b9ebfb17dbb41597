//! A document: one open file, its classification and line index, and the one path a
//! read takes through the steps (classify → select → budget → summarize → result).

mod finish;

use std::path::Path;
use std::sync::Arc;

use crate::block::block_span;
use crate::budget::{byte_page, collect_lines, Page};
use crate::cache::{Attachment, IndexCache};
use crate::classify::{
    classify_source, judge as judge_sample, Classification, TextInfo, SAMPLE_SIZE,
};
use crate::config::{Config, Detection, EncodingPolicy, Judge, LineEndings, PastEnd, Totals};
use crate::error::{Error, Result};
use crate::indentation::{indent_span, IndentSelection};
use crate::index::LineIndex;
use crate::landmarks::{around, outline, Around};
use crate::lines::Lines;
use crate::pool::BufferPool;
use crate::result::{Adjustments, ByteSpan, Landmark, LineSpan, Outline, ReadResult, Requested};
use crate::select::{resolve_bytes, ByteSelection, LineSelection, Plan, Planner, Selection};
use crate::source::Source;
use crate::summarize::Searched;
use crate::syntax::Lang;
use crate::text::Layout;

/// The slot classifications are attached under in every cache.
fn class_slot() -> u64 {
    static SLOT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SLOT.get_or_init(IndexCache::slot)
}

/// An open file and its line index: many reads, one index.
///
/// Reads check that the file is still in the state it was opened in; once it changed,
/// every read returns [`Error::Changed`] and the caller reopens it.
///
/// # Encodings
///
/// The content is classified once, from its first 8 KiB ([`crate::classify()`]). Binary
/// content fails every read with [`Error::Binary`]. Text is decoded to UTF-8 `content`
/// per selection, while every offset (byte selections, `bytes`, continuations, cut
/// lines) stays in **file bytes**:
///
/// - A byte order mark is reported (`bom: true`) and never returned: line 1 starts after
///   it, and a byte selection that starts inside it starts at its end.
/// - UTF-16 and UTF-32 are read in place, with no transcoding of the file: the line index
///   and line reads look for the LF code unit (`0A 00` at an even offset in UTF-16LE),
///   found with `memchr` on the `0x0A` byte and a check of the rest of the unit, so they
///   cost what they cost in UTF-8 plus that check. Byte ranges snap outward to whole code
///   units and surrogate pairs. Each selection is decoded on its own (O(selection)).
/// - Legacy encodings (feature `legacy-encodings`) share UTF-8's LF byte; byte ranges
///   snap to whole characters (in Shift_JIS, GBK/GB18030, Big5, EUC-KR and EUC-JP by
///   walking forward from the nearest byte below `0x30`, at most 4 KiB back; when there
///   is none the range is left as asked). ISO-2022-JP is stateful: a selection that does
///   not start in ASCII mode may decode wrongly.
///
/// The byte budget counts the UTF-8 bytes of `content` in every encoding (what reaches
/// the caller: 100 KiB of UTF-16 text is the same text as 100 KiB of UTF-8), so a file
/// gives the same pages everywhere; offsets, and the byte counts of cut lines, stay in
/// file bytes. The line-length budget counts characters in every encoding. Classification looks only at the start: a file whose first 8 KiB are ASCII
/// and whose later bytes are Latin-1 is read as UTF-8, lossily (with `invalid_utf8`).
#[derive(Debug)]
pub struct Document {
    src: Source,
    index: LineIndex,
    config: Config,
    path: String,
    resolved_path: String,
    cache: Option<Arc<IndexCache>>,
    /// Where content buffers come from, when the host keeps them.
    buffers: Option<Arc<BufferPool>>,
    /// How far the index had scanned when it was last stored in the cache.
    stored_scan: u64,
    /// The classification of the content, once made.
    class: Option<Classification>,
    /// The text's layout, once classified (UTF-8 until then).
    layout: Layout,
    /// Opened for one read, made at once (`Reader::read`, `read_in`).
    one_read: bool,
}

impl Drop for Document {
    /// A small file's bytes, read whole into a buffer of the host's pool, go back to it.
    fn drop(&mut self) {
        if let Some(pool) = &self.buffers {
            if let Some(buffer) = self.src.take_read_buffer() {
                pool.give(buffer);
            }
        }
    }
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

    /// The opened source and the paths reported (as the caller spelled it, as
    /// resolved), for [`Reader::adopt`](crate::Reader): what is read goes to another
    /// document.
    pub(crate) fn into_parts(mut self) -> (Source, String, String) {
        let src = std::mem::replace(&mut self.src, Source::from_bytes(Vec::new(), ""));
        let path = std::mem::take(&mut self.path);
        let resolved = std::mem::take(&mut self.resolved_path);
        (src, path, resolved)
    }

    /// The reader's cache, when it has one.
    pub(crate) fn cache(&self) -> Option<&IndexCache> {
        self.cache.as_deref()
    }

    /// The path as the caller spelled it, and as resolved.
    pub(crate) fn paths(&self) -> (&str, &str) {
        (&self.path, &self.resolved_path)
    }

    /// The number of lines of the file, counting once if not yet known.
    ///
    /// # Errors
    ///
    /// [`Error::Binary`] for binary content, [`Error::Changed`] if the file changed, or
    /// an I/O error.
    pub fn total_lines(&mut self) -> Result<u64> {
        self.text()?;
        self.index.total_lines(&self.src)
    }

    /// How the content was classified (classifying it from its first 8 KiB if that was
    /// not done yet).
    ///
    /// # Errors
    ///
    /// An I/O error while reading the sample, or [`Error::Changed`].
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{Encoding, Reader, Source};
    ///
    /// let src = Source::from_bytes(b"\xff\xfeh\0i\0".to_vec(), "hi.txt");
    /// let mut doc = Reader::new().document(src);
    /// assert_eq!(doc.classification()?.encoding(), Some(Encoding::Utf16Le));
    /// assert_eq!(doc.read(rangeread::LineSelection::head(1))?.content, "hi");
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn classification(&mut self) -> Result<Classification> {
        if let Some(c) = self.class {
            return Ok(c);
        }
        let judge = self.config.judge;
        let c = match (judge.detection, judge.encoding) {
            // Nothing to look at, or only a byte order mark.
            (Detection::AssumeUtf8, _) => crate::classify::judge(&[], &judge),
            (Detection::ByteOrderMark | Detection::Utf16LeMark, _)
            | (_, EncodingPolicy::Forced(_)) => {
                let mut scratch = Vec::new();
                let n = self.src.len().min(4);
                self.src
                    .with_range(0, n, &mut scratch, |s| crate::classify::judge(s, &judge))?
            }
            _ => self.classify()?,
        };
        if let Classification::Text(t) = c {
            let bom = u64::from(t.bom_len).min(self.src.len());
            self.layout = Layout::new(t.encoding, bom);
            let fresh = LineIndex::for_layout(self.src.len(), self.config.block_size, &self.layout);
            if self.config.line_endings == LineEndings::Universal {
                // Lone CRs read as LFs from here on; an index counted without them (from
                // the cache) does not fit, and this view is never cached.
                let raw = std::mem::replace(&mut self.src, Source::from_bytes(Vec::new(), ""));
                self.src = raw.lone_crs_as_lf(self.layout.units);
                self.index = fresh;
            } else if !self.index.same_layout(&fresh) {
                // Keep an index from the cache when it was built for the same layout.
                self.index = fresh;
            }
            // A source that is not local reads one stream; threads would split it.
            let local = !self.src.is_custom();
            self.index
                .set_threads(if local { self.config.threads } else { 1 });
        }
        self.class = Some(c);
        Ok(c)
    }

    /// Classifies the source from its first bytes; with a cache, the verdict is kept with
    /// the file's entry and reused while the sample it came from is unchanged: the file
    /// is as it was, or grew by appending after a full sample.
    fn classify(&self) -> Result<Classification> {
        let judge = self.config.judge;
        let Some(cache) = &self.cache else {
            return classify_source(&self.src, &judge);
        };
        // A verdict is kept with the rules it was made by: readers with other rules
        // (a host's and a preset's) may share the cache.
        if let Some(((c, sampled, by), how)) =
            cache.attachment::<(Classification, u64, Judge)>(&self.src, class_slot(), false)
        {
            if by == judge && (how == Attachment::Current || sampled == SAMPLE_SIZE as u64) {
                return Ok(c);
            }
        }
        let sampled = self.src.len().min(SAMPLE_SIZE as u64);
        // The first bytes stored with the file's index, else read (and kept, to be
        // stored with it).
        let c = match cache.sample(&self.src) {
            Some(sample) if sample.len() as u64 == sampled => judge_sample(&sample, &judge),
            _ => {
                let mut scratch = Vec::new();
                self.src.with_range(0, sampled, &mut scratch, |sample| {
                    cache.keep_sample(&self.src, sample);
                    judge_sample(sample, &judge)
                })?
            }
        };
        cache.attach(&self.src, class_slot(), (c, sampled, judge), 0);
        Ok(c)
    }

    /// The text classification, or the binary error.
    pub(crate) fn text(&mut self) -> Result<TextInfo> {
        match self.classification()? {
            Classification::Text(t) => Ok(t),
            Classification::Binary(b) => Err(Error::Binary {
                path: self.src.path().to_path_buf(),
                mime: b.mime.to_string(),
                file_size: crate::error::int(self.src.len()),
            }),
        }
    }

    /// The landmarks of the whole file (definitions, headings, section headers; the rules
    /// of `omitted.landmarks`), in file order.
    ///
    /// The cost is bounded: at most [`Reader::outline_max_bytes`](crate::Reader::outline_max_bytes) bytes are looked at
    /// (16 MiB by default), and the outline holds at most as many landmarks as the line
    /// budget and as much text as the byte budget allow ([`Reader::max_lines`](crate::Reader::max_lines),
    /// [`Reader::max_bytes`](crate::Reader::max_bytes)). `complete` says whether the whole file was covered.
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
        self.text()?;
        let len = self.src.len();
        let lines = Lines::new(&self.src, self.layout);
        let lang = Lang::for_path(Path::new(&self.path));
        let budget = self.config.budget;
        let found = outline(
            &lines,
            lang,
            self.config.outline_max_bytes.capped(len),
            budget.max_lines,
            budget.max_bytes,
            self.config.outline_detail,
        )?;
        self.src.check_unchanged()?;
        let complete = found.complete && found.scanned == len;
        Ok(Outline {
            path: self.path.clone(),
            file_size: len,
            total_lines: complete.then_some(found.lines),
            landmarks: found.landmarks,
            scanned_lines: found.lines,
            scanned_bytes: found.scanned,
            complete,
        })
    }

    /// Landmarks in the omitted regions around the bytes `[start, end)` of a page whose
    /// lines are `lines`, nearest first, looking at most `landmark_window` bytes on each
    /// side (through the cache's landmark blocks when the reader has a cache).
    fn landmarks_around(
        &mut self,
        start: u64,
        end: u64,
        lines: LineSpan,
    ) -> Result<(Vec<Landmark>, Searched)> {
        let at = Around {
            start,
            end,
            first_line: lines.start,
            last_line: lines.end,
            window: self.config.landmark_window.or_max(),
            cap: usize::try_from(self.config.max_landmarks.or_max()).unwrap_or(usize::MAX),
        };
        let lang = Lang::for_path(Path::new(&self.path));
        let lines = Lines::new(&self.src, self.layout);
        around(&lines, self.cache.as_deref(), lang, &at)
    }

    /// Reads a selection.
    ///
    /// # Errors
    ///
    /// The validation errors of the selection (with the contract's messages),
    /// [`Error::Binary`] for binary content, [`Error::InvalidUtf8`] (or
    /// [`Error::InvalidText`] for other encodings) under the strict policy,
    /// [`Error::Changed`] when the file changed since it was opened, or an I/O error.
    pub fn read(&mut self, selection: impl Into<Selection>) -> Result<ReadResult> {
        let result = self.read_once(selection.into());
        if let (Err(Error::Changed { .. }), Some(cache)) = (&result, &self.cache) {
            // A source a host brought (an object) is opened at the version the index
            // directory knows; once that version is gone, nothing kept for it is offered
            // again, and the next open asks the store.
            if self.src.is_custom() {
                cache.discard(&self.src);
            }
        }
        result
    }

    /// [`Document::read`] of a document opened a moment ago for this read (a later read
    /// of it is checked as usual).
    pub(crate) fn read_one(&mut self, selection: Selection) -> Result<ReadResult> {
        self.one_read = true;
        let result = self.read(selection);
        self.one_read = false;
        result
    }

    fn read_once(&mut self, selection: Selection) -> Result<ReadResult> {
        // The arguments first: a bad range is reported as such, also for a binary file.
        selection.validate()?;
        // No look at the file before the read: the one after it compares with the state
        // at open, which covers a change at any time since, and a read that fails looks
        // too (below), so that a change is reported as such.
        self.index.set_scan_budget(self.config.max_scan_bytes.get());
        let result = match self.text() {
            Err(e) => Err(e),
            Ok(_) => match selection {
                Selection::Lines(sel) => self.read_lines(sel),
                Selection::Bytes(sel) => self.read_bytes(sel),
            },
        };
        let result = match result {
            Err(Error::LineBeyondEnd { total_lines, .. }) if self.empty_past_end() => {
                self.empty_at_end(&selection, Some(crate::error::uint(total_lines)))
            }
            Err(Error::ByteBeyondEnd { .. }) if self.empty_past_end() => {
                let total = self.index.known_total_lines();
                self.empty_at_end(&selection, total)
            }
            other => other,
        };
        self.index.set_scan_budget(None);
        // What was counted is kept (for the cache too), also when the budget ran out, so
        // that the next call continues the count.
        if matches!(result, Err(Error::ScanBudget { .. })) {
            self.checkin();
        }
        if result.is_err() {
            self.src.check_unchanged()?;
        }
        let result = result?;
        // A small file opened for this one read was read whole by the open, a moment
        // ago, asking one byte more than its size: that read's length told whether the
        // file grew or shrank since its stat, and its bytes are the ones this result
        // has. A stat now could only tell of later changes.
        if !(self.one_read && self.src.read_whole_at_open()) {
            self.src.check_unchanged()?;
        }
        self.checkin();
        Ok(result)
    }

    fn empty_past_end(&self) -> bool {
        self.config.past_end == PastEnd::Empty
    }

    /// The answer of [`PastEnd::Empty`]: nothing, at the end of the file.
    fn empty_at_end(
        &mut self,
        selection: &Selection,
        total_lines: Option<u64>,
    ) -> Result<ReadResult> {
        let len = self.src.len();
        let requested = match *selection {
            Selection::Bytes(b) => Requested {
                lines: None,
                bytes: Some(ByteSpan {
                    start: b.start.unwrap_or(0),
                    end: b.end.unwrap_or(len),
                }),
            },
            Selection::Lines(sel) => Requested {
                lines: sel.as_requested(),
                bytes: None,
            },
        };
        let page = Page {
            start: len,
            end: len,
            content: self.buffer(),
            ..Page::default()
        };
        let adjustments = Adjustments {
            end_clamped: true,
            ..Adjustments::default()
        };
        self.finish(page, None, total_lines, requested, adjustments)
    }

    /// A count that only adds to the answer (totals, a tail's line numbers under
    /// [`Totals::Auto`]) is left out when the scan budget runs out, rather than failing
    /// a read that could be answered without it.
    fn unless_over_budget(&self, counted: Result<u64>) -> Result<Option<u64>> {
        match counted {
            Ok(n) => Ok(Some(n)),
            Err(Error::ScanBudget { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// An empty buffer for a page's content: one the host handed back to its pool, if
    /// any (the pool hands buffers out cleared).
    fn buffer(&self) -> Vec<u8> {
        self.buffers.as_ref().map_or_else(Vec::new, |p| p.take())
    }

    /// Stores the index in the cache, if there is one and it learned something.
    fn checkin(&mut self) {
        if let Some(cache) = &self.cache {
            if self.index.scanned() != self.stored_scan {
                cache.checkin(&self.src, &self.index);
                self.stored_scan = self.index.scanned();
            }
        }
    }

    fn read_lines(&mut self, sel: LineSelection) -> Result<ReadResult> {
        sel.validate()?;
        let len = self.src.len();
        let counts = self.config.totals != Totals::IfKnown && !self.index.is_complete();
        if counts {
            // The read will count from what the index covers to the end: a remote source
            // carries a page just before that in the same pass (see `Source::will_read`).
            self.src.will_read(self.index.scanned(), len);
        }
        let lines = Lines::new(&self.src, self.layout);
        let (requested, plan) = {
            let (config, path) = (&self.config, &self.path);
            let mut block = |line: u64, off: u64| block_span(&lines, config, path, line, off);
            let mut indent =
                |sel: &IndentSelection, off: u64| indent_span(&lines, config, sel, off);
            Planner {
                lines,
                index: &mut self.index,
                block: &mut block,
                indent: &mut indent,
            }
            .plan(sel)?
        };
        let budget = self.config.budget;
        let (page, first_line, end_clamped) = match plan {
            Plan::Empty => (Page::default(), None, false),
            Plan::Forward { start, count } => match self.index.line_start(&self.src, start)? {
                Some(start_off) => {
                    let page =
                        collect_lines(&lines, start_off, count, len, &budget, self.buffer())?;
                    let clamped = count.is_some_and(|c| page.lines < c && page.stop.is_none());
                    (page, Some(start), clamped)
                }
                None => {
                    let total = self.index.total_lines(&self.src)?;
                    if total == 0 && start == 1 {
                        (Page::default(), None, count.is_some_and(|c| c > 0))
                    } else {
                        return Err(Error::LineBeyondEnd {
                            start: crate::error::int(start),
                            total_lines: crate::error::int(total),
                            parameter: "start_line".into(),
                        });
                    }
                }
            },
            Plan::At {
                start,
                offset,
                count,
            } => {
                let page = collect_lines(&lines, offset, Some(count), len, &budget, self.buffer())?;
                let clamped = page.lines < count && page.stop.is_none();
                (page, Some(start), clamped)
            }
            Plan::Tail { n, skip } => {
                if counts {
                    // The count goes first, front to back from what the index covers, and
                    // the tail is then read from the last bytes it passed: one pass (one
                    // request for an object) instead of the tail and then the count.
                    let counted = self.index.total_lines(&self.src);
                    if self.config.totals == Totals::Always {
                        counted?;
                    } else {
                        self.unless_over_budget(counted)?;
                    }
                }
                let start_off = lines.tail_start(len, n)?;
                let end_off = lines.tail_start(len, skip)?;
                let page = if start_off < end_off {
                    collect_lines(&lines, start_off, None, end_off, &budget, self.buffer())?
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
                    let counted = self.index.line_of_offset(&self.src, start_off);
                    self.unless_over_budget(counted)?
                } else {
                    None
                };
                (page, first, false)
            }
        };
        // A page of the whole text, from line 1 to the end with nothing cut short, has
        // counted every line: no count of the file is needed for the total.
        let whole = (page.start == self.layout.text_start && page.end == len)
            .then_some(page.lines)
            .filter(|_| page.stop.is_none());
        let total_lines = match self.config.totals {
            Totals::IfKnown => self.index.known_total_lines().or(whole),
            Totals::Auto => match whole {
                Some(n) => Some(n),
                None => {
                    let counted = self.index.total_lines(&self.src);
                    self.unless_over_budget(counted)?
                }
            },
            Totals::Always => Some(self.index.total_lines(&self.src)?),
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

    fn read_bytes(&mut self, sel: ByteSelection) -> Result<ReadResult> {
        let len = self.src.len();
        let valid = sel
            .start
            .filter(|&s| s <= len && sel.end.is_none_or(|e| s <= e));
        if let (Totals::Always, Some(start)) = (self.config.totals, valid) {
            if !self.index.is_complete() {
                // The lines are counted up to the page, the page read, and the rest
                // counted, front to back: one pass (one request for an object).
                self.src.will_read(self.index.scanned(), len);
                self.index.scan_to(&self.src, start)?;
            }
        }
        let lines = Lines::new(&self.src, self.layout);
        let r = resolve_bytes(sel, &lines)?;
        let page = byte_page(
            &lines,
            r.start,
            r.end,
            self.config.budget.max_bytes,
            self.buffer(),
        )?;
        let want_lines = match self.config.totals {
            Totals::Always => true,
            Totals::Auto | Totals::IfKnown => self.index.scanned() >= page.end,
        };
        // The page's lines before the total: counting to the end passes the page, and the
        // line of an offset reads the page's block again.
        let first_line = if want_lines {
            Some(self.index.line_of_offset(&self.src, page.start)?)
        } else {
            None
        };
        // For bytes, `page.lines` is not a line count: derive the last line from bytes.
        let last_line = match first_line {
            Some(_) if page.end > page.start => {
                Some(self.index.line_of_offset(&self.src, page.end - 1)?)
            }
            _ => None,
        };
        let total_lines = if want_lines {
            Some(self.index.total_lines(&self.src)?)
        } else {
            self.index.known_total_lines()
        };
        let lines = match (first_line, last_line) {
            (Some(a), Some(b)) => Some(LineSpan { start: a, end: b }),
            _ => None,
        };
        self.finish(page, lines, total_lines, r.requested, r.adjustments)
    }
}

impl Document {
    /// A document over `src`, with an index from the cache when it has one.
    pub(crate) fn new(
        src: Source,
        config: Config,
        cache: Option<Arc<IndexCache>>,
        buffers: Option<Arc<BufferPool>>,
    ) -> Document {
        let path = src.path().to_string_lossy().into_owned();
        let cached = cache
            .as_ref()
            .and_then(|c| c.checkout(&src, config.block_size));
        // What the cache holds already: a read that learns nothing more stores nothing (no
        // look at the file's last bytes, no copy of the index). An index extended over
        // appended bytes, or loaded from the index directory, is worth storing even unread.
        let (index, stored_scan) = match cached {
            Some((index, true)) => {
                let scanned = index.scanned();
                (index, scanned)
            }
            Some((index, false)) => (index, u64::MAX),
            None => (LineIndex::with_block_size(src.len(), config.block_size), 0),
        };
        Document {
            index,
            stored_scan,
            cache,
            buffers,
            class: None,
            layout: Layout::utf8(),
            one_read: false,
            src,
            config,
            resolved_path: path.clone(),
            path,
        }
    }
}
