//! The reader: configuration, and the one path a read takes through the steps
//! (source → select → budget → summarize → result).

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::block::{find_block, Limits};
use crate::budget::{collect_lines, stable_start, Budget, Page};
use crate::cache::{Attachment, IndexCache};
use crate::classify::{classify_source, Classification, Encoding, TextInfo, SAMPLE_SIZE};
use crate::decode::{decode, Utf8Policy};
use crate::error::{Error, Result};
use crate::index::{tail_start, LineIndex, DEFAULT_BLOCK_SIZE};
use crate::landmarks::{around, each_line, landmark_text, Around, Lang, Matcher};
use crate::result::{
    Adjustments, ByteSpan, CutLine, Fingerprint, Landmark, LineEnding, LineSpan, Outline,
    ReadResult, Requested, RequestedLines, Truncation,
};
use crate::select::{snap_end, snap_start, ByteSelection, LineSelection, Selection, Snap};
use crate::source::Source;
use crate::summarize::{omitted, Regions, Searched};
use crate::units::Units;
use crate::workspace::Workspace;

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

/// How a reader decides what a file's content is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detection {
    /// Classify the first 8 KiB (see [`crate::classify`]): binary files are refused with
    /// [`Error::Binary`], UTF-16/32 and legacy encodings are decoded. The default.
    #[default]
    Auto,
    /// Treat every file as UTF-8 text without looking: nothing is refused as binary, and
    /// invalid sequences follow the [`Utf8Policy`]. For hosts that classify themselves, or
    /// that want the bytes of a file whatever they are.
    AssumeUtf8,
}

#[derive(Debug, Clone, Copy)]
struct Config {
    budget: Budget,
    utf8: Utf8Policy,
    detection: Detection,
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
            detection: Detection::Auto,
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
    cache: Option<Arc<IndexCache>>,
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

    /// By default, content is classified ([`Detection::Auto`]).
    pub fn detection(mut self, detection: Detection) -> Reader {
        self.config.detection = detection;
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
    /// The search runs over the 64 KiB blocks that hold [`Reader::landmark_window`] bytes
    /// on each side of the read (never a scan of the file), and needs line numbers: reads
    /// that do not know them (a tail or byte read under [`Totals::IfKnown`]) report no
    /// landmarks. With a [`Reader::cache`], the blocks are kept with the file's entry, so
    /// later reads nearby cost lookups; without one, each read searches its blocks again.
    /// A landmark line that runs on for more than 64 KiB past the end of its block is
    /// not reported.
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

    /// Opens a file for one or more reads that share one line index, and classifies its
    /// content from the first 8 KiB (see [`crate::classify()`]).
    ///
    /// # Errors
    ///
    /// As [`Source::open`]; [`Error::Binary`] (with the MIME type) when the content is
    /// classified binary.
    pub fn open(&self, path: impl AsRef<Path>) -> Result<Document> {
        let path = path.as_ref();
        match Source::open_streaming_limit(path, self.stream_limit()) {
            Ok(src) => {
                let mut doc = self.document(src);
                doc.text()?;
                Ok(doc)
            }
            Err(e) => {
                if let (Error::NotFound { .. }, Some(cache)) = (&e, &self.cache) {
                    cache.forget(path);
                }
                Err(e)
            }
        }
    }

    /// Opens a file inside a workspace, for one or more reads that share one line index.
    ///
    /// `path` is resolved by the workspace (confined to its root, protected paths
    /// refused, race-free on Linux: see [`Workspace`]); results report it as `path`, as
    /// the caller spelled it, and the absolute path inside the root as `resolved_path`.
    ///
    /// # Errors
    ///
    /// As [`Workspace::open`], then as [`Source::from_file`].
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader, Workspace};
    ///
    /// let ws = Workspace::new("tests/data")?;
    /// let mut doc = Reader::new().open_in(&ws, "sample.txt")?;
    /// let first = doc.read(LineSelection::Head(1))?;
    /// let last = doc.read(LineSelection::Tail(1))?;
    /// assert_eq!(first.path, "sample.txt");
    /// assert_eq!(first.resolved_path, last.resolved_path);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn open_in(&self, workspace: &Workspace, path: impl AsRef<Path>) -> Result<Document> {
        let path = path.as_ref();
        let opened = workspace.open(path)?;
        let mut src = Source::from_file_streaming_limit(opened.file, path, self.stream_limit())?;
        src.set_resolved_path(opened.resolved_path.clone());
        let mut doc = self.document(src);
        doc.set_paths(
            path.display().to_string(),
            opened.resolved_path.display().to_string(),
        );
        Ok(doc)
    }

    /// How much of a file that reports size 0 is streamed: the byte budget, or the
    /// hard limit when there is none.
    fn stream_limit(&self) -> u64 {
        match self.config.budget.max_bytes {
            0 => crate::source::STREAM_HARD_LIMIT,
            n => n,
        }
    }

    /// By default, every [`Document`] builds its own line index. With a cache, documents
    /// of the same file share it across reads and threads: an unchanged file is never
    /// scanned twice, and a file that grew by appending is scanned from its old end. The
    /// file's classification and its landmark blocks are kept with it too: a file is
    /// classified again only when its first 8 KiB may have changed.
    pub fn cache(mut self, cache: Arc<IndexCache>) -> Reader {
        self.cache = Some(cache);
        self
    }

    /// Wraps a source opened some other way (in memory, memory-mapped, from a workspace).
    ///
    /// The content is classified on the first read (or [`Document::classification`]),
    /// which then fails with [`Error::Binary`] for binary content.
    pub fn document(&self, src: Source) -> Document {
        let path = src.path().display().to_string();
        let cached = self
            .cache
            .as_ref()
            .and_then(|c| c.checkout(&src, self.config.block_size));
        let fresh = cached.is_none();
        Document {
            index: cached
                .unwrap_or_else(|| LineIndex::with_block_size(src.len(), self.config.block_size)),
            // An index extended over appended bytes is worth storing even unread.
            stored_scan: if fresh { 0 } else { u64::MAX },
            cache: self.cache.clone(),
            class: None,
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
        self.retrying(|| self.open(path.as_ref())?.read(selection))
    }

    /// Reads `selection` from `path` inside a workspace: [`Reader::read`] through
    /// [`Reader::open_in`]. If the file changes during the read, the path is resolved
    /// and opened again (see [`Reader::retries`]).
    ///
    /// # Errors
    ///
    /// Anything [`Reader::open_in`] and [`Document::read`] return.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{Error, LineSelection, Reader, Workspace};
    ///
    /// let ws = Workspace::builder("tests").protect("secrets/").build()?;
    /// let result = Reader::new().read_in(&ws, "data/sample.txt", LineSelection::from(2..=3))?;
    /// assert_eq!(result.lines.map(|l| (l.start, l.end)), Some((2, 3)));
    ///
    /// let err = Reader::new()
    ///     .read_in(&ws, "data/../secrets/id_rsa", LineSelection::Head(1))
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), r#"Access denied: "data/../secrets/id_rsa" is a protected path"#);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn read_in(
        &self,
        workspace: &Workspace,
        path: impl AsRef<Path>,
        selection: impl Into<Selection>,
    ) -> Result<ReadResult> {
        let selection = selection.into();
        self.retrying(|| self.open_in(workspace, path.as_ref())?.read(selection))
    }

    /// Runs `read` again while it reports [`Error::Changed`], at most `retries` times.
    fn retrying(&self, mut read: impl FnMut() -> Result<ReadResult>) -> Result<ReadResult> {
        let mut attempt = 0;
        loop {
            match read() {
                Err(Error::Changed { .. }) if attempt < self.config.retries => attempt += 1,
                other => return other,
            }
        }
    }
}

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
/// The byte budget and the byte counts of cut lines are in file bytes too: 100 KiB of
/// UTF-16 is about 50,000 characters. The line-length budget counts characters in every
/// encoding. Classification looks only at the start: a file whose first 8 KiB are ASCII
/// and whose later bytes are Latin-1 is read as UTF-8, lossily (with `invalid_utf8`).
#[derive(Debug)]
pub struct Document {
    src: Source,
    index: LineIndex,
    config: Config,
    path: String,
    resolved_path: String,
    cache: Option<Arc<IndexCache>>,
    /// How far the index had scanned when it was last stored in the cache.
    stored_scan: u64,
    /// The classification of the content, once made.
    class: Option<Classification>,
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
    /// assert_eq!(doc.read(rangeread::LineSelection::Head(1))?.content, "hi");
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn classification(&mut self) -> Result<Classification> {
        if let Some(c) = self.class {
            return Ok(c);
        }
        let c = match self.config.detection {
            Detection::Auto => self.classify()?,
            Detection::AssumeUtf8 => Classification::Text(TextInfo {
                encoding: Encoding::Utf8,
                bom_len: 0,
                confidence: 1.0,
                mime: None,
            }),
        };
        if let Classification::Text(t) = c {
            let units = t.encoding.units();
            let bom = u64::from(t.bom_len);
            self.src.set_layout(units, bom);
            let fresh = LineIndex::for_layout(self.src.len(), self.config.block_size, units, bom);
            // Keep an index from the cache when it was built for the same layout.
            if !self.index.same_layout(&fresh) {
                self.index = fresh;
            }
        }
        self.class = Some(c);
        Ok(c)
    }

    /// Classifies the source from its first bytes; with a cache, the verdict is kept with
    /// the file's entry and reused while the sample it came from is unchanged: the file
    /// is as it was, or grew by appending after a full sample.
    fn classify(&self) -> Result<Classification> {
        let Some(cache) = &self.cache else {
            return classify_source(&self.src);
        };
        if let Some(((c, sampled), how)) =
            cache.attachment::<(Classification, u64)>(&self.src, class_slot(), false)
        {
            if how == Attachment::Current || sampled == SAMPLE_SIZE as u64 {
                return Ok(c);
            }
        }
        let c = classify_source(&self.src)?;
        let sampled = self.src.len().min(SAMPLE_SIZE as u64);
        cache.attach(&self.src, class_slot(), (c, sampled), 0);
        Ok(c)
    }

    /// The text classification, or the binary error.
    fn text(&mut self) -> Result<TextInfo> {
        match self.classification()? {
            Classification::Text(t) => Ok(t),
            Classification::Binary(b) => Err(Error::Binary {
                mime: b.mime.to_string(),
            }),
        }
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
    /// side (through the cache's landmark blocks when the reader has a cache).
    fn landmarks_around(
        &mut self,
        start: u64,
        end: u64,
        lines: LineSpan,
    ) -> Result<(Vec<Landmark>, Searched)> {
        let window = match self.config.landmark_window {
            0 => u64::MAX,
            w => w,
        };
        let at = Around {
            start,
            end,
            first_line: lines.start,
            last_line: lines.end,
            window,
            cap: match self.config.max_landmarks {
                0 => usize::MAX,
                n => usize::try_from(n).unwrap_or(usize::MAX),
            },
        };
        let lang = Lang::for_path(Path::new(&self.path));
        around(&self.src, self.cache.as_deref(), lang, &at)
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
        self.src.check_unchanged()?;
        self.text()?;
        let result = match selection.into() {
            Selection::Lines(sel) => self.read_lines(sel),
            Selection::Bytes(sel) => self.read_bytes(sel),
        }?;
        self.src.check_unchanged()?;
        if let Some(cache) = &self.cache {
            if self.index.scanned() != self.stored_scan {
                cache.checkin(&self.src, &self.index);
                self.stored_scan = self.index.scanned();
            }
        }
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
                        if rs > total {
                            if total == 0 && rs == 1 {
                                return Ok((r, Plan::Empty));
                            }
                            return Err(Error::LineBeyondEnd {
                                start: rs as u64,
                                total_lines: total as u64,
                            });
                        }
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
        // Only an end the caller gave can be "before" the start; a defaulted end is the
        // file size, and a start past it is beyond the end.
        if sel.end.is_some() && start > end {
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
        let units = src.units();
        let text_start = src.text_start();
        let byte_at = |pos: u64| -> Result<u8> {
            let mut b = [0u8];
            src.read_exact_at(pos, &mut b)?;
            Ok(b[0])
        };
        // A byte order mark is not content: a range starting inside it starts after it.
        let (from, to) = (start.max(text_start), clamped_end.max(text_start));
        let (s, e) = match (sel.snap, units) {
            (Snap::Char, Units::Utf8) => (
                snap_start(from, len, byte_at)?.max(text_start),
                snap_end(to, len, byte_at)?,
            ),
            (Snap::Char, _) => {
                let mut read = |lo: u64, hi: u64| {
                    let mut v = vec![0; usize::try_from(hi - lo).map_err(|_| src.changed())?];
                    src.read_exact_at(lo, &mut v)?;
                    Ok(v)
                };
                units.snap(from, to, len, text_start, &mut read)?
            }
            (Snap::Line, _) => {
                let s = line_floor(src, from)?;
                let w = units.width() as u64;
                let e = if to >= s + w
                    && src
                        .with_range(to - w, to, &mut scratch, |b| units.ends_with_lf(to - w, b))?
                {
                    to
                } else {
                    line_ceil(src, to)?
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
            // Cut on a char boundary: look at the 4 bytes past the budget, and at enough
            // bytes to hold one whole character and the start of the next (8).
            let probe_end = (s + budget + 4).max(s + 8).min(e);
            let probe = src.with_range(s, probe_end, &mut scratch, |b| b.to_vec())?;
            let cut = units.floor_boundary(&probe, budget as usize) as u64;
            take_end = if matches!(units, Units::Utf8) {
                // Always make progress (one character, even over budget), and stop where
                // the next page starts without snapping back over these bytes.
                stable_start(src, s + cut.max(1), e)?
            } else if cut == 0 {
                // Always make progress: one whole character, even over budget.
                s + units.char_cut(&probe, 1).unwrap_or(probe.len()) as u64
            } else {
                s + cut
            };
        }
        if take_end < e {
            let w = units.width() as u64;
            page.stop = Some(crate::budget::Stop {
                reason: crate::result::TruncationReason::MaxBytes,
                next_byte: take_end,
                at_line_start: take_end <= text_start
                    || (take_end >= w
                        && src.with_range(take_end - w, take_end, &mut scratch, |b| {
                            units.ends_with_lf(take_end - w, b)
                        })?),
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
        let text = self.text()?;
        let text_start = self.src.text_start();
        let is_partial = page.start > text_start || page.end < file_size || !cut_lines.is_empty();
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
        // The share of the text: a byte order mark is not counted.
        let text_bytes = file_size - text_start;
        let percent_of_file = if text_bytes == 0 {
            100.0
        } else {
            (page.content.len() as f64 * 1000.0 / text_bytes as f64).round() / 10.0
        };
        let bytes = ByteSpan {
            start: page.start,
            end: page.end,
        };
        let fingerprint = Fingerprint {
            file_size,
            modified_ns: self
                .src
                .stamp()
                .and_then(|s| s.modified)
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)),
            content_hash: format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&page.content)),
        };
        let map = |c: u64| page.file_offset(c);
        let decoded = decode(page.content.clone(), text.encoding, self.config.utf8, map)?;
        // From the decoded text: CR and LF are whole code units there in every encoding.
        let line_ending = LineEnding::of(decoded.text.as_bytes());
        Ok(ReadResult {
            path: self.path.clone(),
            resolved_path: self.resolved_path.clone(),
            content: decoded.text,
            file_size,
            total_lines,
            encoding: text.encoding.name().to_string(),
            bom: text.bom_len > 0,
            encoding_confidence: text.confidence,
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
            fingerprint,
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
/// backwards, costing the length of that line, not of the file), or the text start.
fn line_floor(src: &Source, pos: u64) -> Result<u64> {
    let units = src.units();
    let floor = src.text_start();
    let chunk = src.chunk_size() as u64;
    let mut step = chunk.min(4096);
    let mut scratch = Vec::new();
    let mut hi = pos;
    while hi > floor {
        let lo = units.align_down(hi.saturating_sub(step)).max(floor);
        step = (step * 2).min(chunk);
        if let Some(e) = src.with_range(lo, hi, &mut scratch, |b| units.rfind_lf(lo, b))? {
            return Ok(lo + e as u64);
        }
        hi = lo;
    }
    Ok(floor)
}

/// The end of the line holding `pos` (just past its LF, or the end of the file).
fn line_ceil(src: &Source, pos: u64) -> Result<u64> {
    let units = src.units();
    let chunk = src.chunk_size() as u64;
    let len = src.len();
    let mut step = chunk.min(4096);
    let mut scratch = Vec::new();
    // Start on a code-unit boundary so that the LF unit holding `pos` is seen whole.
    let mut lo = units.align_down(pos).max(src.text_start());
    while lo < len {
        let hi = (lo + step).min(len);
        step = (step * 2).min(chunk);
        if let Some(e) = src.with_range(lo, hi, &mut scratch, |b| units.find_lf(lo, b))? {
            return Ok(lo + e as u64);
        }
        lo = hi;
    }
    Ok(len)
}
