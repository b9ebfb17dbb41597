//! The plain-data result of a read, serializable with serde (snake_case fields).

use serde::{Deserialize, Serialize};

/// An inclusive, 1-indexed range of lines: `start..=end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineSpan {
    /// First line, 1-based.
    pub start: u64,
    /// Last line, inclusive.
    pub end: u64,
}

impl LineSpan {
    /// How many lines the span covers.
    pub fn count(&self) -> u64 {
        self.end + 1 - self.start
    }
}

/// A half-open, 0-indexed range of bytes: `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByteSpan {
    /// First byte, 0-based.
    pub start: u64,
    /// End, exclusive.
    pub end: u64,
}

impl ByteSpan {
    /// How many bytes the span covers.
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// Whether the span is empty.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// A line range as the caller asked for it, before clamping: negative numbers count from
/// the end, and `end: None` means "to the last line".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestedLines {
    /// First line asked for (negative: from the end).
    pub start: i64,
    /// Last line asked for, inclusive; `None` for the end of the file.
    pub end: Option<i64>,
}

/// The selection as asked, defaults filled in, before clamping and snapping.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requested {
    /// Set for line selections.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<RequestedLines>,
    /// Set for byte selections.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<ByteSpan>,
}

/// How the returned range differs from the requested one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjustments {
    /// The start moved (outward) to a character or line boundary.
    pub start_adjusted: bool,
    /// The end moved (outward) to a character or line boundary.
    pub end_adjusted: bool,
    /// The end asked for lay past the end of the file and was clamped.
    pub end_clamped: bool,
}

/// Which budget stopped a read early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TruncationReason {
    /// The line budget ([`crate::Reader::max_lines`]).
    MaxLines,
    /// The byte budget ([`crate::Reader::max_bytes`]).
    MaxBytes,
}

/// Where a read that hit a budget stopped, and where to continue.
///
/// Continuing from `next_start_line` (or, when that is `None`, with a byte selection from
/// `next_start_byte`) until no page is truncated yields every byte of the file once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truncation {
    /// The budget that was reached.
    pub reason: TruncationReason,
    /// Its value as applied to this read: lines for [`TruncationReason::MaxLines`],
    /// bytes of content for [`TruncationReason::MaxBytes`]; what a note that names the
    /// budget states.
    #[serde(default)]
    pub limit: u64,
    /// The first byte not returned.
    pub next_start_byte: u64,
    /// The first line not returned, when the page ended at a line boundary.
    pub next_start_line: Option<u64>,
}

/// A line shown only in part because it was longer than the line-length budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutLine {
    /// The line number, 1-based.
    pub line: u64,
    /// Bytes of the line shown (terminator not counted).
    pub shown_bytes: u64,
    /// Bytes of the whole line (terminator not counted).
    pub total_bytes: u64,
    /// Where the rest of the line starts: a byte selection from here reads it.
    pub next_start_byte: u64,
}

/// A line that looks like structure (a definition, a heading, a section header); see
/// [`crate::Reader::summaries`] and [`crate::Document::outline`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Landmark {
    /// The line number, 1-based.
    pub line: u64,
    /// The line's text, trimmed, at most 200 characters (a longer one ends with `…`);
    /// lines are judged by their first KiB.
    pub text: String,
    /// In an [`Outline`]: the last line of the block the landmark opens, as
    /// [`LineSelection::block`](crate::LineSelection::block) on the landmark's line ends
    /// it (the landmark's own line for a one-line definition). `None` in the landmarks of
    /// omitted regions, and when the outline stopped before the block ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// In an [`Outline`]: how many landmarks' blocks enclose this one (0 at the top
    /// level). `None` in the landmarks of omitted regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    /// In an [`Outline`]: the definition's name with the keywords that introduce it, as a
    /// symbol list shows it (`pub struct Config`, `impl Display for Wrapper<T>`,
    /// `async def fetch`; a field's `pub name`), when the language's rules know where the
    /// name is. `None` in the landmarks of omitted regions, and for lines without a
    /// keyword-led name (a Markdown heading, a C function).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The landmarks of a file, in file order: what [`crate::Document::outline`] returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outline {
    /// The path as the caller gave it.
    pub path: String,
    /// Size of the file in bytes.
    pub file_size: u64,
    /// Lines in the file, when the whole file was looked at.
    pub total_lines: Option<u64>,
    /// The landmarks found, in file order.
    pub landmarks: Vec<Landmark>,
    /// Lines looked at: lines `1..=scanned_lines`.
    pub scanned_lines: u64,
    /// Bytes looked at: `[0, scanned_bytes)`.
    pub scanned_bytes: u64,
    /// Whether the whole file was looked at and every landmark is listed.
    pub complete: bool,
}

/// What a partial read left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Omitted {
    /// Whole lines before the returned part (`None` when line numbers are unknown); a
    /// line the part starts inside is not counted (the summary names it).
    pub before_lines: Option<u64>,
    /// Whole lines after the returned part (`None` when line numbers are unknown); a
    /// line the part ends inside is not counted.
    pub after_lines: Option<u64>,
    /// Bytes before the returned part.
    pub before_bytes: u64,
    /// Bytes after the returned part.
    pub after_bytes: u64,
    /// One or two human lines describing the omitted regions.
    pub summary: String,
    /// Structure found in the omitted regions, nearest to the read first.
    pub landmarks: Vec<Landmark>,
}

/// Invalid UTF-8 (or invalid sequences of the file's encoding) met under the lossy
/// policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidUtf8 {
    /// Number of invalid sequences (each became one U+FFFD).
    pub count: u64,
    /// File offset of the first invalid byte.
    pub first_offset: u64,
}

/// How the lines of the returned content end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineEnding {
    /// Every line ends with LF.
    Lf,
    /// Every line ends with CR LF.
    Crlf,
    /// Both occur.
    Mixed,
    /// No line terminator in the content.
    None,
}

impl LineEnding {
    /// Classifies the terminators in `bytes` (one SIMD pass over the LF bytes).
    pub fn of(bytes: &[u8]) -> LineEnding {
        match crate::text::terminators(bytes) {
            (true, true) => LineEnding::Mixed,
            (true, false) => LineEnding::Lf,
            (false, true) => LineEnding::Crlf,
            _ => LineEnding::None,
        }
    }
}

/// What identifies the state a read saw, so that a host can implement read-before-edit
/// and "unchanged since your last read": [`ReadResult::fingerprint`].
///
/// Compare all three fields. Size and time alone miss an in-place rewrite within the time
/// resolution of the file system; the hash alone says nothing about the rest of the file.
/// The hash covers the bytes returned ([`ReadResult::raw_bytes`]), not the whole file:
/// two reads of the same range with equal fingerprints saw the same bytes there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// File size in bytes when read.
    pub file_size: u64,
    /// Modification time in nanoseconds since the Unix epoch, when the platform has one
    /// (`None` for bytes in memory).
    pub modified_ns: Option<u64>,
    /// XXH3-64 of the returned bytes ([`ReadResult::raw_bytes`]), as 16 hex digits.
    pub content_hash: String,
}

/// XXH3-64 of `bytes` as 16 hex digits: a fingerprint's `content_hash`
/// ([`ReadResult::fingerprint`] hashes [`ReadResult::raw_bytes`] so). A host that holds
/// a result's text elsewhere (a binding's string) hashes it with this.
///
/// ```
/// let r = rangeread::Reader::new().read("tests/data/sample.txt", rangeread::LineSelection::head(2))?;
/// assert_eq!(rangeread::content_hash(r.raw_bytes()), r.fingerprint().content_hash);
/// # Ok::<(), rangeread::Error>(())
/// ```
pub fn content_hash(bytes: &[u8]) -> String {
    #[cfg(test)]
    tests::HASHED.with(|n| n.set(n.get() + 1));
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// The result of one read: the content and everything a caller needs to know about it.
///
/// Serializes to the JSON shape of the behaviour contract (its `fingerprint` is
/// [`ReadResult::fingerprint`], hashed as it is written); render it for a model with
/// [`crate::render`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReadResult {
    /// The path as the caller gave it.
    pub path: String,
    /// The path that was opened (absolute inside a workspace; else as given).
    pub resolved_path: String,
    /// The selection's text, line terminators included, never with markers or notes.
    /// Invalid UTF-8 is replaced by U+FFFD under the lossy policy; see
    /// [`ReadResult::raw_bytes`] for the exact bytes.
    pub content: String,
    /// Size of the file in bytes.
    pub file_size: u64,
    /// Lines in the file, when known (see [`crate::Totals`]). Always `Some` for a line
    /// read that returned the file's whole text (it counted every line), for every read under
    /// [`Totals::Always`](crate::Totals::Always), and for line selections under the
    /// default [`Totals::Auto`](crate::Totals::Auto) unless a scan budget
    /// ([`Reader::max_scan_bytes`](crate::Reader::max_scan_bytes)) ran out; `None` only
    /// where a count was not asked for (byte reads under `Auto`, and `Totals::IfKnown`).
    /// [`Document::total_lines`](crate::Document::total_lines) gives a plain `u64`.
    pub total_lines: Option<u64>,
    /// The file's text encoding (`utf-8`, `utf-16le`, `utf-16be`, `utf-32le`,
    /// `utf-32be`, or a legacy encoding's WHATWG label such as `shift_jis`), found by
    /// classification. `content` is always UTF-8.
    pub encoding: String,
    /// Whether the file starts with a byte order mark. The mark is never part of
    /// `content`, and `bytes` never covers it.
    pub bom: bool,
    /// How sure the encoding guess is, from 0 to 1 (see [`crate::TextInfo::confidence`]).
    pub encoding_confidence: f32,
    /// How the returned lines end.
    pub line_ending: LineEnding,
    /// The lines returned (`None` when no line was returned, or numbers are unknown).
    pub lines: Option<LineSpan>,
    /// The bytes returned, in file offsets.
    pub bytes: ByteSpan,
    /// The selection as asked.
    pub requested: Requested,
    /// How the returned range differs from the requested one.
    pub adjustments: Adjustments,
    /// Set when a budget stopped the read early.
    pub truncated: Option<Truncation>,
    /// Lines cut by the line-length budget.
    pub cut_lines: Vec<CutLine>,
    /// What was left out, for partial reads.
    pub omitted: Option<Omitted>,
    /// Whether anything of the file was left out.
    pub is_partial: bool,
    /// Share of the file's bytes returned, in percent (one decimal).
    pub percent_of_file: f64,
    /// Invalid UTF-8 (or, for other encodings, invalid sequences of the file's encoding)
    /// replaced under the lossy policy.
    pub invalid_utf8: Option<InvalidUtf8>,
    /// The file's modification time when read, for [`ReadResult::fingerprint`].
    pub(crate) modified_ns: Option<u64>,
    /// The exact bytes when `content` is not them (lossy replacement of invalid UTF-8
    /// happened in a UTF-8 file).
    pub(crate) raw: Option<Vec<u8>>,
}

impl ReadResult {
    /// The exact bytes of the selection: `content`'s bytes, or the original bytes when
    /// invalid UTF-8 was replaced. For a file in another encoding (UTF-16, Shift_JIS ...)
    /// this is the decoded text, `content`'s UTF-8 bytes, as plain output should be.
    pub fn raw_bytes(&self) -> &[u8] {
        self.raw.as_deref().unwrap_or(self.content.as_bytes())
    }

    /// The state of the file this result was read from: its size and modification time
    /// when read, and the XXH3-64 hash of [`ReadResult::raw_bytes`], computed here, when
    /// asked (a read whose caller takes only the content does not hash it). The hash is
    /// of the bytes this result holds: change `content` and it changes.
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader};
    ///
    /// let reader = Reader::new();
    /// let before = reader.read("tests/data/sample.txt", LineSelection::head(5))?;
    /// let again = reader.read("tests/data/sample.txt", LineSelection::head(5))?;
    /// // Unchanged since the last read: the same size, time and bytes.
    /// assert_eq!(before.fingerprint(), again.fingerprint());
    /// assert_eq!(before.fingerprint().content_hash.len(), 16);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint {
            file_size: self.file_size,
            modified_ns: self.modified_ns,
            content_hash: content_hash(self.raw_bytes()),
        }
    }

    /// The file's modification time when read, in nanoseconds since the Unix epoch
    /// (`None` for bytes in memory): [`ReadResult::fingerprint`]'s without the hash.
    pub fn modified_ns(&self) -> Option<u64> {
        self.modified_ns
    }
}

/// The contract's JSON of a result, borrowed from it, with the fingerprint made as it is
/// written (the one place its hash is computed for a host that serializes results).
#[derive(Serialize)]
struct ResultJson<'a> {
    path: &'a str,
    resolved_path: &'a str,
    content: &'a str,
    file_size: u64,
    total_lines: Option<u64>,
    encoding: &'a str,
    bom: bool,
    encoding_confidence: f32,
    line_ending: LineEnding,
    lines: Option<LineSpan>,
    bytes: ByteSpan,
    requested: Requested,
    adjustments: Adjustments,
    truncated: Option<Truncation>,
    cut_lines: &'a [CutLine],
    omitted: &'a Option<Omitted>,
    is_partial: bool,
    percent_of_file: f64,
    invalid_utf8: Option<InvalidUtf8>,
    fingerprint: Fingerprint,
}

impl Serialize for ReadResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ResultJson {
            path: &self.path,
            resolved_path: &self.resolved_path,
            content: &self.content,
            file_size: self.file_size,
            total_lines: self.total_lines,
            encoding: &self.encoding,
            bom: self.bom,
            encoding_confidence: self.encoding_confidence,
            line_ending: self.line_ending,
            lines: self.lines,
            bytes: self.bytes,
            requested: self.requested,
            adjustments: self.adjustments,
            truncated: self.truncated,
            cut_lines: &self.cut_lines,
            omitted: &self.omitted,
            is_partial: self.is_partial,
            percent_of_file: self.percent_of_file,
            invalid_utf8: self.invalid_utf8,
            fingerprint: self.fingerprint(),
        }
        .serialize(s)
    }
}

/// The contract's JSON of a result, owned, as it is read back.
#[derive(Deserialize)]
struct ResultOwned {
    path: String,
    resolved_path: String,
    content: String,
    file_size: u64,
    total_lines: Option<u64>,
    encoding: String,
    bom: bool,
    encoding_confidence: f32,
    line_ending: LineEnding,
    lines: Option<LineSpan>,
    bytes: ByteSpan,
    requested: Requested,
    adjustments: Adjustments,
    truncated: Option<Truncation>,
    cut_lines: Vec<CutLine>,
    omitted: Option<Omitted>,
    is_partial: bool,
    percent_of_file: f64,
    invalid_utf8: Option<InvalidUtf8>,
    fingerprint: Fingerprint,
}

/// A result read back from its JSON: the fingerprint's hash is of the content read back
/// (the exact bytes of a lossy read are not in the JSON), its time the JSON's.
impl<'de> Deserialize<'de> for ReadResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ReadResult, D::Error> {
        let j = ResultOwned::deserialize(d)?;
        Ok(ReadResult {
            path: j.path,
            resolved_path: j.resolved_path,
            content: j.content,
            file_size: j.file_size,
            total_lines: j.total_lines,
            encoding: j.encoding,
            bom: j.bom,
            encoding_confidence: j.encoding_confidence,
            line_ending: j.line_ending,
            lines: j.lines,
            bytes: j.bytes,
            requested: j.requested,
            adjustments: j.adjustments,
            truncated: j.truncated,
            cut_lines: j.cut_lines,
            omitted: j.omitted,
            is_partial: j.is_partial,
            percent_of_file: j.percent_of_file,
            invalid_utf8: j.invalid_utf8,
            modified_ns: j.fingerprint.modified_ns,
            raw: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use crate::{LineSelection, Reader};

    thread_local! {
        /// Content hashes computed on this thread.
        pub(super) static HASHED: Cell<u64> = const { Cell::new(0) };
    }

    /// Hashes computed on this thread while `f` runs, and what it gave.
    fn hashes<T>(f: impl FnOnce() -> T) -> (T, u64) {
        let before = HASHED.with(Cell::get);
        let out = f();
        (out, HASHED.with(Cell::get) - before)
    }

    #[test]
    fn a_whole_read_hashes_nothing_until_the_fingerprint_is_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let reader = Reader::new().max_lines(0).max_bytes(0);
        for size in [4 << 10, 64 << 10, 1 << 20] {
            let path = dir.path().join(format!("whole-{size}.txt"));
            std::fs::write(&path, "let x = 1;\n".repeat(size / 11)).unwrap();
            let (r, n) = hashes(|| reader.read(&path, LineSelection::from(..)).unwrap());
            assert_eq!(
                n, 0,
                "a whole read of {size} bytes hashed its content {n} times"
            );
            let (f, n) = hashes(|| r.fingerprint());
            assert_eq!(n, 1);
            let again = reader.read(&path, LineSelection::from(..)).unwrap();
            assert_eq!(again.fingerprint(), f);
            assert_eq!(f.file_size, r.file_size);
            assert_eq!(
                f.content_hash,
                format!("{:016x}", xxhash_rust::xxh3::xxh3_64(r.content.as_bytes()))
            );
        }
    }

    #[test]
    fn the_json_carries_the_fingerprint_and_reads_back_equal() {
        let r = Reader::new()
            .read("tests/data/sample.txt", LineSelection::head(3))
            .unwrap();
        let json = serde_json::to_value(&r).unwrap();
        let f = r.fingerprint();
        assert_eq!(json["fingerprint"]["content_hash"], f.content_hash.as_str());
        assert_eq!(json["fingerprint"]["file_size"], f.file_size);
        assert_eq!(json["fingerprint"]["modified_ns"], f.modified_ns.unwrap());
        // Where it always was: the last field.
        let text = serde_json::to_string(&r).unwrap();
        let tail = serde_json::to_string(&f).unwrap();
        assert!(
            text.ends_with(&format!(",\"fingerprint\":{tail}}}")),
            "{text}"
        );
        let back: super::ReadResult = serde_json::from_value(json).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.fingerprint(), f);
    }
}
