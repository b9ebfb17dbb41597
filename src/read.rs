//! The reader: the configuration of reads, and the entry points that open a file (on
//! its own or inside a workspace) and hand it to a [`Document`], which runs the steps.

use std::path::Path;
use std::sync::Arc;

use crate::budget::{Limit, LineUnit};
use crate::cache::IndexCache;
use crate::classify::Classification;
use crate::config::{
    Config, ControlBytes, Detection, EncodingPolicy, LineEndings, NulBytes, OutlineDetail, PastEnd,
    Totals,
};
use crate::decode::{CodecTables, Utf8Policy};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::fsopen::SpecialFiles;
use crate::pool::BufferPool;
use crate::result::ReadResult;
use crate::select::Selection;
use crate::source::Source;
use crate::workspace::Workspace;

/// Reads parts of files: a builder over the read configuration.
///
/// # Example
///
/// ```
/// use rangeread::{LineSelection, Reader};
///
/// let result = Reader::new().max_lines(5).read("Cargo.toml", LineSelection::head(3))?;
/// assert_eq!(result.lines.map(|l| (l.start, l.end)), Some((1, 3)));
/// assert!(result.content.starts_with("[package]"));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Reader {
    config: Config,
    cache: Option<Arc<IndexCache>>,
    buffers: Option<Arc<BufferPool>>,
}

impl Reader {
    /// A reader with the default budgets: 2000 lines, 100 KiB, 2000 characters a line.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// By default, at most 2000 lines are returned per read; `0` means no limit.
    pub fn max_lines(mut self, n: u64) -> Reader {
        self.config.budget.max_lines = Limit::new(n);
        self.config.set.max_lines = true;
        self
    }

    /// By default, at most 100 KiB of content are returned per read; `0` means no limit.
    /// The budget counts the UTF-8 bytes of `content` whatever the file's encoding, so
    /// that a UTF-16 or UTF-32 file gives the same pages as its UTF-8 twin.
    pub fn max_bytes(mut self, n: u64) -> Reader {
        self.config.budget.max_bytes = Limit::new(n);
        self.config.set.max_bytes = true;
        self
    }

    /// By default, lines longer than 2000 characters are cut on a character boundary
    /// (line selections only); `0` means no limit.
    pub fn max_line_chars(mut self, n: u64) -> Reader {
        self.config.budget.max_line_chars = Limit::new(n);
        self.config.set.max_line_chars = true;
        self
    }

    /// By default, invalid UTF-8 is replaced ([`Utf8Policy::Lossy`]).
    pub fn utf8_policy(mut self, policy: Utf8Policy) -> Reader {
        self.config.utf8 = policy;
        self.config.set.utf8 = true;
        self
    }

    /// By default, legacy encodings decode by the WHATWG Encoding Standard's tables, as
    /// browsers and Node do ([`CodecTables::Whatwg`]); [`CodecTables::Python`] decodes
    /// the codes where Python's codecs differ as Python does (EUC-JP's `0xA1C1` is
    /// `〜` U+301C, not `～` U+FF5E), for a host that replaces a Python tool.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{CodecTables, EncodingPolicy, LineSelection, Reader, Source};
    ///
    /// // "〜公開中" in EUC-JP.
    /// let euc = b"\xa1\xc1\xb8\xf8\xb3\xab\xc3\xe6\n".to_vec();
    /// let read = |tables| {
    ///     let src = Source::from_bytes(euc.clone(), "notice.txt");
    ///     let reader = Reader::new().encoding(EncodingPolicy::from_name("euc-jp").unwrap());
    ///     reader.codec_tables(tables).document(src).read(LineSelection::from(1..))
    /// };
    /// assert_eq!(read(CodecTables::Whatwg)?.content, "～公開中\n");
    /// assert_eq!(read(CodecTables::Python)?.content, "〜公開中\n");
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn codec_tables(mut self, tables: CodecTables) -> Reader {
        self.config.tables = tables;
        self.config.set.tables = true;
        self
    }

    /// By default, the line-length budget ([`Reader::max_line_chars`]) counts characters
    /// ([`LineUnit::Chars`]); [`LineUnit::Utf16`] counts UTF-16 code units, as
    /// JavaScript's `length` does (an emoji is two), and [`LineUnit::Bytes`] the UTF-8
    /// bytes of `content`. The cut is on a character boundary in every unit.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{LineSelection, LineUnit, Reader, Source};
    ///
    /// let emoji = "😀".repeat(1500);
    /// let read = |unit| {
    ///     let src = Source::from_bytes(emoji.clone().into_bytes(), "e.txt");
    ///     Reader::new().line_unit(unit).document(src).read(LineSelection::from(1..))
    /// };
    /// assert_eq!(read(LineUnit::Chars)?.content.chars().count(), 1500);
    /// assert_eq!(read(LineUnit::Utf16)?.content.chars().count(), 1000);
    /// assert_eq!(read(LineUnit::Bytes)?.content.len(), 2000);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn line_unit(mut self, unit: LineUnit) -> Reader {
        self.config.budget.line_unit = unit;
        self.config.set.line_unit = true;
        self
    }

    /// By default, content is classified ([`Detection::Auto`]).
    pub fn detection(mut self, detection: Detection) -> Reader {
        self.config.judge.detection = detection;
        self.config.set.detection = true;
        self
    }

    /// By default, the encoding of text is found from its content, legacy encodings
    /// included ([`EncodingPolicy::Detect`]); [`EncodingPolicy::NoLegacy`] reads what is
    /// not UTF-8, UTF-16 or UTF-32 as UTF-8 with replacement characters,
    /// [`EncodingPolicy::Utf8First`] reads valid UTF-8 as UTF-8 before guessing UTF-16
    /// from zero bytes, and
    /// [`EncodingPolicy::Forced`] reads every file in the host's encoding.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{Encoding, EncodingPolicy, LineSelection, Reader, Source};
    ///
    /// let read = |policy| {
    ///     let src = Source::from_bytes(b"import os\xff\n".to_vec(), "a.py");
    ///     Reader::new().encoding(policy).document(src).read(LineSelection::from(1..))
    /// };
    /// assert_eq!(read(EncodingPolicy::Detect)?.encoding, "windows-1252");
    /// assert_eq!(read(EncodingPolicy::NoLegacy)?.content, "import os\u{FFFD}\n");
    /// let forced = EncodingPolicy::Forced(Encoding::for_label("latin1").unwrap());
    /// assert_eq!(read(forced)?.content, "import osÿ\n");
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn encoding(mut self, policy: EncodingPolicy) -> Reader {
        self.config.judge.encoding = policy;
        self.config.set.encoding = true;
        self
    }

    /// By default, a NUL byte makes a file binary when it lies in the first 8 KiB
    /// ([`NulBytes::InSample`]); [`NulBytes::InRead`] also refuses a read whose text
    /// holds one wherever it lies ([`Error::Binary`]).
    pub fn nul_bytes(mut self, rule: NulBytes) -> Reader {
        self.config.judge.nul_bytes = rule;
        self.config.set.nul_bytes = true;
        self
    }

    /// By default, a first 8 KiB with more than 1% of disallowed control bytes (BEL, VT,
    /// `^A` ...) is binary ([`ControlBytes::Share`]); [`ControlBytes::Tolerated`] reads
    /// such files as text.
    pub fn control_bytes(mut self, rule: ControlBytes) -> Reader {
        self.config.judge.control_bytes = rule;
        self.config.set.control_bytes = true;
        self
    }

    /// By default, invalid UTF-8 never makes a file binary (it is decoded in the legacy
    /// encoding it looks like, or with replacement characters); `Some(share)` makes a
    /// file without a byte order mark binary ([`BinaryReason::InvalidUtf8`](crate::BinaryReason::InvalidUtf8)) when its
    /// first 8 KiB hold more invalid UTF-8 sequences than `share` of its bytes: so
    /// with 0.1 (Latin-1 text is binary then). Gemini CLI's own rule, over 512 bytes, is
    /// [`ControlBytes::SuspiciousShare`].
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{Error, LineSelection, Reader, Source};
    ///
    /// let latin1 = Source::from_bytes(b"caf\xe9 cr\xe8me\n".to_vec(), "menu.txt");
    /// let err = Reader::new().invalid_utf8_binary(Some(0.1)).document(latin1).read(LineSelection::from(1..));
    /// assert!(matches!(err, Err(Error::Binary { .. })));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn invalid_utf8_binary(mut self, share: Option<f64>) -> Reader {
        self.config.judge.invalid_utf8_binary = share;
        self.config.set.invalid_utf8_binary = true;
        self
    }

    /// By default, `content` keeps the file's line ends ([`LineEndings::Keep`]) and a
    /// lone CR is content; [`LineEndings::Lf`] turns each CR LF into an LF, as Gemini CLI
    /// shows text; [`LineEndings::Universal`] also makes a lone CR a line break, shown as
    /// an LF (Python's universal newlines, so OpenHands). Offsets (`bytes`,
    /// `next_start_byte`, cut lines) stay file offsets, counting the CRs; with `Lf` the
    /// pages are the same as with `Keep`, with `Universal` the lines are Python's.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{LineEndings, LineSelection, Reader, Source};
    ///
    /// let src = Source::from_bytes(b"a\r\nb\r\n".to_vec(), "dos.txt");
    /// let r = Reader::new().line_endings(LineEndings::Lf).document(src).read(LineSelection::from(2..))?;
    /// assert_eq!((r.content.as_str(), r.bytes.start, r.bytes.end), ("b\n", 3, 6));
    ///
    /// // A classic Mac file: one line by default, three with universal newlines.
    /// let mac = || Source::from_bytes(b"a\rb\rc".to_vec(), "mac.txt");
    /// assert_eq!(Reader::new().document(mac()).total_lines()?, 1);
    /// let mut doc = Reader::new().line_endings(LineEndings::Universal).document(mac());
    /// assert_eq!(doc.total_lines()?, 3);
    /// let r = doc.read(LineSelection::from(2..=2))?;
    /// assert_eq!((r.content.as_str(), r.bytes.start, r.bytes.end), ("b\n", 2, 4));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn line_endings(mut self, endings: LineEndings) -> Reader {
        self.config.line_endings = endings;
        self.config.set.line_endings = true;
        self
    }

    /// Classifies a sample taken from the start of a file by this reader's rules
    /// ([`Reader::detection`], [`Reader::encoding`], [`Reader::control_bytes`],
    /// [`Reader::invalid_utf8_binary`]): what a read of that file would find.
    /// `Reader::new().classify(s)` is [`crate::classify()`].
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{ControlBytes, Reader};
    ///
    /// let bells = b"\x07\x0b\x07\x0b\n";
    /// assert!(!Reader::new().classify(bells).is_text());
    /// assert!(Reader::new().control_bytes(ControlBytes::Tolerated).classify(bells).is_text());
    /// ```
    pub fn classify(&self, sample: &[u8]) -> Classification {
        crate::classify::judge(sample, &self.config.judge)
    }

    /// Classifies the file at `path` by this reader's rules, as [`Reader::classify`]
    /// does its first 8 KiB; under [`NulBytes::InRead`] the whole file is looked at for
    /// a NUL byte.
    ///
    /// # Errors
    ///
    /// As [`crate::classify_file()`].
    pub fn classify_file(&self, path: impl AsRef<Path>) -> Result<Classification> {
        crate::classify::classify_path(path.as_ref(), &self.config.judge)
    }

    /// By default, [`Totals::Auto`].
    pub fn totals(mut self, totals: Totals) -> Reader {
        self.config.totals = totals;
        self.config.set.totals = true;
        self
    }

    /// By default, a range that starts past the end of the file is an error
    /// ([`PastEnd::Error`]: [`Error::LineBeyondEnd`] or [`Error::ByteBeyondEnd`]);
    /// [`PastEnd::Empty`] answers it with an empty result at the end of the file, as many
    /// hosts do. Malformed ranges (a 0 line, a start after the end) stay errors.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{ByteSelection, LineSelection, PastEnd, Reader};
    ///
    /// let reader = Reader::new().past_end(PastEnd::Empty);
    /// let r = reader.read("tests/data/sample.txt", LineSelection::from(500..=510))?;
    /// assert_eq!((r.content.as_str(), r.lines, r.total_lines), ("", None, Some(60)));
    /// let r = reader.read("tests/data/sample.txt", ByteSelection::from(9000..9100))?;
    /// assert_eq!((r.bytes.start, r.bytes.end), (3228, 3228));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn past_end(mut self, policy: PastEnd) -> Reader {
        self.config.past_end = policy;
        self
    }

    /// By default a FIFO, socket or device named by a read is opened once, without
    /// blocking, and refused by its type before anything is read
    /// ([`SpecialFiles::NeverRead`]: one lookup of the name, as `open` and `read` cost
    /// in any language). [`SpecialFiles::NeverOpened`] never opens one at all, even one
    /// renamed over the name during the read, for hosts where a model may name a serial
    /// port or a watchdog; it costs a second lookup, a few microseconds a read. Both
    /// [`Reader::open`] and [`Reader::open_in`] follow it.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader, SpecialFiles};
    ///
    /// let reader = Reader::new().special_files(SpecialFiles::NeverOpened);
    /// let r = reader.read("tests/data/sample.txt", LineSelection::head(1))?;
    /// assert_eq!(r.lines.map(|l| l.start), Some(1));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn special_files(mut self, rule: SpecialFiles) -> Reader {
        self.config.special_files = rule;
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
        self.config.max_landmarks = Limit::new(n);
        self
    }

    /// By default, landmarks are looked for within 256 KiB on each side of a read (lines
    /// wholly inside that window); `0` means the whole omitted regions. When the window
    /// does not reach the start or the end of the file, the summary says which lines
    /// were searched. The same window bounds how far [`LineSelection::Block`](crate::LineSelection::Block) looks up
    /// for the enclosing definition (at most 64 MiB, which it holds in memory).
    pub fn landmark_window(mut self, bytes: u64) -> Reader {
        self.config.landmark_window = Limit::new(bytes);
        self
    }

    /// By default, a read may scan as much of a file as it needs to count its lines (a
    /// deep read of a 100 GiB file counts 100 GiB, once per index); `n` bounds that count
    /// to `n` bytes per call, `0` means no limit. A read that would need more fails with
    /// [`Error::ScanBudget`] (how far the count got, and what to ask instead: a byte range
    /// or a tail, which need no count). The index keeps what was counted, so with an
    /// [`IndexCache`] (or the same [`Document`]) the next call continues from there.
    ///
    /// For servers driven by an untrusted model: one call then costs at most `n` bytes of
    /// reading, whatever the file. Sparse files' holes are not read and do not count.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{Error, LineSelection, Reader, Source};
    ///
    /// let text: String = (1..=100_000).map(|i| format!("line {i}\n")).collect();
    /// let reader = Reader::new().max_scan_bytes(64 << 10);
    /// let mut doc = reader.document(Source::from_bytes(text.into_bytes(), "big.log"));
    /// assert!(matches!(doc.read(LineSelection::from(90_000..=90_001)), Err(Error::ScanBudget { .. })));
    /// assert_eq!(doc.read(LineSelection::tail(1))?.content, "line 100000\n");
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn max_scan_bytes(mut self, n: u64) -> Reader {
        self.config.max_scan_bytes = Limit::new(n);
        self
    }

    /// By default, the first count of a long stretch of a file (8 MiB or more: the line
    /// numbers of a deep read, or the totals) is split over as many threads as the host
    /// allows, at most 4, each with its own positional reads; `1` keeps it on the calling
    /// thread. The index is the same either way.
    pub fn threads(mut self, n: usize) -> Reader {
        self.config.threads = n.max(1);
        self
    }

    /// By default, [`Document::outline`] looks at the first 16 MiB of a file; `0` means
    /// the whole file.
    pub fn outline_max_bytes(mut self, bytes: u64) -> Reader {
        self.config.outline_max_bytes = Limit::new(bytes);
        self
    }

    /// By default, [`Document::outline`] lists landmarks only
    /// ([`OutlineDetail::Definitions`]); [`OutlineDetail::Members`] adds the fields and
    /// variants of the types, under their type.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{OutlineDetail, Reader, Source};
    ///
    /// let src = Source::from_bytes(b"pub enum Shape {\n    Dot,\n    Line {\n        len: u32,\n    },\n}\n".to_vec(), "a.rs");
    /// let outline = Reader::new().outline_detail(OutlineDetail::Members).document(src).outline()?;
    /// let names: Vec<(u64, &str, u64)> = outline
    ///     .landmarks
    ///     .iter()
    ///     .map(|l| (l.line, l.name.as_deref().unwrap(), l.depth.unwrap()))
    ///     .collect();
    /// assert_eq!(names, [(1, "pub enum Shape", 0), (2, "Dot", 1), (3, "Line", 1), (4, "len", 2)]);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn outline_detail(mut self, detail: OutlineDetail) -> Reader {
        self.config.outline_detail = detail;
        self
    }

    /// Opens a file for one or more reads that share one line index.
    ///
    /// Nothing is read from the file yet: its content is classified on the first read
    /// (or [`Document::classification`]), once, as [`Reader::open_in`] and
    /// [`Reader::document`] do. So the two opens behave the same, a read checks its
    /// arguments before the content (a PNG read from line 0 is [`Error::ZeroLine`], from
    /// line 1 [`Error::Binary`]), and an image, a PDF or a notebook opens like any file
    /// for [`Reader::read_document_from`].
    ///
    /// # Errors
    ///
    /// As [`Source::open`].
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{ErrorKind, LineSelection, Reader};
    ///
    /// let mut doc = Reader::new().open("tests/corpus/files/image.png")?;
    /// let zero = doc.read(LineSelection::range(Some(0), Some(5))).unwrap_err();
    /// assert_eq!(zero.kind(), ErrorKind::ZeroLine);
    /// assert_eq!(doc.read(LineSelection::head(5)).unwrap_err().kind(), ErrorKind::Binary);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn open(&self, path: impl AsRef<Path>) -> Result<Document> {
        let path = path.as_ref();
        let limit = self.stream_limit();
        let (special, pool) = (self.config.special_files, self.buffers.as_deref());
        let src = Source::open_with(path, limit, special, pool).inspect_err(|e| {
            if let (Error::NotFound { .. }, Some(cache)) = (e, &self.cache) {
                cache.forget(path);
            }
        })?;
        Ok(self.document(src))
    }

    /// Opens a file inside a workspace, for one or more reads that share one line index;
    /// as [`Reader::open`] (the content classified on the first read), confined.
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
    /// let first = doc.read(LineSelection::head(1))?;
    /// let last = doc.read(LineSelection::tail(1))?;
    /// assert_eq!(first.path, "sample.txt");
    /// assert_eq!(first.resolved_path, last.resolved_path);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn open_in(&self, workspace: &Workspace, path: impl AsRef<Path>) -> Result<Document> {
        let path = path.as_ref();
        #[cfg(feature = "object-store")]
        if let Some(root) = workspace.object_root() {
            let resolved = workspace.resolve(path)?;
            // With an index directory that knows the object, no request opens it: the
            // first read asks for what it needs, conditional on the stored version.
            let known = |url: &str| self.cache.as_ref()?.stored_version(url);
            let mut doc = self.document(root.source_at(path, known)?);
            doc.set_paths(path.display().to_string(), resolved.display().to_string());
            return Ok(doc);
        }
        let opened = workspace.open_with(path, self.config.special_files)?;
        let mut src = Source::from_file_streaming_limit(
            opened.file,
            opened.looked,
            path,
            self.stream_limit(),
            self.buffers.as_deref(),
        )?;
        src.set_resolved_path(opened.resolved_path.clone());
        let mut doc = self.document(src);
        doc.set_paths(
            path.display().to_string(),
            opened.resolved_path.display().to_string(),
        );
        Ok(doc)
    }

    /// The line, byte and line-length budgets (0: no limit).
    pub(crate) fn budgets(&self) -> (u64, u64, u64) {
        let b = self.config.budget;
        let n = |l: Limit| l.get().unwrap_or(0);
        (n(b.max_lines), n(b.max_bytes), n(b.max_line_chars))
    }

    /// This reader with the classification rules `judge`, as set by its host.
    pub(crate) fn detection_rules(mut self, judge: crate::config::Judge) -> Reader {
        self.config.judge = judge;
        self
    }

    /// What the line-length budget counts.
    pub(crate) fn counted_line_unit(&self) -> LineUnit {
        self.config.budget.line_unit
    }

    /// This reader's budgets and text policies where its host set them, else `base`'s
    /// (a tool's dialect); its cache, buffers and everything else are its own.
    pub(crate) fn over(mut self, base: &Reader) -> Reader {
        let (set, b) = (self.config.set, base.config);
        if !set.max_lines {
            self.config.budget.max_lines = b.budget.max_lines;
        }
        if !set.max_bytes {
            self.config.budget.max_bytes = b.budget.max_bytes;
        }
        if !set.max_line_chars {
            self.config.budget.max_line_chars = b.budget.max_line_chars;
        }
        let (mine, base) = (&mut self.config.judge, b.judge);
        if !set.detection {
            mine.detection = base.detection;
        }
        if !set.encoding {
            mine.encoding = base.encoding;
        }
        if !set.nul_bytes {
            mine.nul_bytes = base.nul_bytes;
        }
        if !set.control_bytes {
            mine.control_bytes = base.control_bytes;
        }
        if !set.invalid_utf8_binary {
            mine.invalid_utf8_binary = base.invalid_utf8_binary;
        }
        if !set.line_unit {
            self.config.budget.line_unit = b.budget.line_unit;
        }
        if !set.line_endings {
            self.config.line_endings = b.line_endings;
        }
        if !set.utf8 {
            self.config.utf8 = b.utf8;
        }
        if !set.tables {
            self.config.tables = b.tables;
        }
        if !set.totals {
            self.config.totals = b.totals;
        }
        self
    }

    /// How much of a file that reports size 0 is streamed: the byte budget, or the
    /// hard limit when there is none.
    pub(crate) fn stream_limit(&self) -> u64 {
        self.config
            .budget
            .max_bytes
            .get()
            .unwrap_or(crate::source::STREAM_HARD_LIMIT)
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

    /// By default, every read's content is a buffer of its own, freed with the result.
    /// With a pool, reads fill buffers the host handed back ([`BufferPool::give`]) first:
    /// a host that serves large reads again and again then reuses memory that is already
    /// there instead of having the system fault fresh pages in for every call.
    pub fn buffers(mut self, pool: Arc<BufferPool>) -> Reader {
        self.buffers = Some(pool);
        self
    }

    /// Hands a spent content buffer to this reader's pool ([`Reader::buffers`]); frees it
    /// when the reader has none. For hosts and tools that render a result into text of
    /// their own and are done with its `content`.
    pub fn recycle(&self, buffer: impl Into<Vec<u8>>) {
        if let Some(pool) = &self.buffers {
            pool.give(buffer);
        }
    }

    /// Wraps a source opened some other way (in memory, memory-mapped, from a workspace).
    ///
    /// The content is classified on the first read (or [`Document::classification`]),
    /// which then fails with [`Error::Binary`] for binary content.
    pub fn document(&self, src: Source) -> Document {
        Document::new(src, self.config, self.cache.clone(), self.buffers.clone())
    }

    /// `doc`'s opened file under this reader's configuration (its budgets, rules, cache
    /// and buffers), with its paths, classified afresh under these rules: what this
    /// reader would have opened, without opening it again. Only for a source that does
    /// not depend on the byte budget it was opened under (not streamed) and is the file's
    /// own bytes (no view over them).
    pub(crate) fn adopt(&self, doc: Document) -> Document {
        let (src, path, resolved) = doc.into_parts();
        debug_assert!(!src.is_streamed() && !src.is_custom());
        let mut doc = self.document(src);
        doc.set_paths(path, resolved);
        doc
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
        selection.validate()?;
        self.retrying(|| self.open(path.as_ref())?.read_one(selection))
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
    ///     .read_in(&ws, "data/../secrets/id_rsa", LineSelection::head(1))
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
        selection.validate()?;
        self.retrying(|| self.open_in(workspace, path.as_ref())?.read_one(selection))
    }

    /// The byte budget of a read (0 for no limit), which document reads (PDF pages,
    /// notebook cells) page by too.
    pub(crate) fn byte_budget(&self) -> u64 {
        self.config.budget.max_bytes.get().unwrap_or(0)
    }

    /// Runs `read` again while it reports [`Error::Changed`], at most `retries` times.
    pub(crate) fn retrying<T>(&self, mut read: impl FnMut() -> Result<T>) -> Result<T> {
        let mut attempt = 0;
        loop {
            match read() {
                Err(Error::Changed { .. }) if attempt < self.config.retries => attempt += 1,
                other => return other,
            }
        }
    }
}
