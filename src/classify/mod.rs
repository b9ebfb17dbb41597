//! Content-based classification: is a file text (in which encoding), or binary (of
//! which kind)? Decided from a bounded sample of its first bytes, never from its name.
//!
//! See [`classify`] for the steps.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use crate::config::{ControlBytes, Detection, EncodingPolicy, Judge, NulBytes};
use crate::error::{Error, Result};
use crate::source::Source;
pub use crate::text::{Encoding, LegacyEncoding};

mod legacy;
mod shares;
mod suspicious;

use legacy::legacy;
pub use shares::SHARES_SAMPLE;
pub use suspicious::SUSPICIOUS_SAMPLE;

/// How many bytes from the start of a file classification looks at (8 KiB).
pub const SAMPLE_SIZE: usize = 8 * 1024;

// A file the source step reads whole when it opens it is exactly what one sample covers:
// the sample then costs no read of its own.
const _: () = assert!(SAMPLE_SIZE as u64 == crate::source::READ_WHOLE_UP_TO);

/// The share of disallowed control bytes above which a sample is binary (1%).
///
/// Disallowed are the bytes below `0x20` other than tab, LF, CR, form feed, escape and
/// backspace, and `0x7f`. `file(1)` calls a file data on the first one; a share leaves
/// text with a stray BEL (`\x07`) or `^A` separator readable, while every binary format
/// without NUL bytes seen in practice lies far above it.
pub const MAX_CONTROL_SHARE: f64 = 0.01;

/// The bytes [`ControlBytes::InHead`] looks at: binaryornot's sample.
pub const CONTROL_HEAD: usize = 512;

const OCTET_STREAM: &str = "application/octet-stream";

/// What a text sample was found to be.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TextInfo {
    /// The encoding to decode with.
    pub encoding: Encoding,
    /// Length of the byte order mark at the start of the file (0 when there is none).
    /// The mark is not content: reads skip it.
    pub bom_len: u8,
    /// How sure the guess is, from 0 to 1; an estimate, not a probability.
    ///
    /// 1 for a byte order mark and for valid UTF-8; for UTF-8 with bad bytes the share
    /// of valid multi-byte characters among the non-ASCII ones; for UTF-16 without a mark
    /// the share of code units with the zero byte where expected; for a legacy encoding
    /// the share of the decoded non-ASCII characters that are letters, digits or common
    /// punctuation (wrong guesses decode to symbol soup or replacement characters).
    pub confidence: f32,
    /// A MIME type when the sample matched a known text-based format (`text/html`,
    /// `text/xml`, `text/x-shellscript`, `application/postscript`, `application/rtf`,
    /// `application/x-x509-ca-cert` for PEM ...).
    pub mime: Option<&'static str>,
}

/// Why a sample was classified binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BinaryReason {
    /// Its magic number names a binary format.
    Magic,
    /// It holds NUL bytes (and no UTF-16 pattern).
    Nul,
    /// The reader's control-byte rule ([`ControlBytes`]): by default, disallowed control
    /// bytes exceed [`MAX_CONTROL_SHARE`].
    ControlBytes,
    /// More of it than the host allows is not valid UTF-8
    /// ([`Reader::invalid_utf8_binary`](crate::Reader::invalid_utf8_binary)).
    InvalidUtf8,
}

impl fmt::Display for BinaryReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BinaryReason::Magic => "magic number",
            BinaryReason::Nul => "NUL bytes",
            BinaryReason::ControlBytes => "control bytes",
            BinaryReason::InvalidUtf8 => "invalid UTF-8",
        })
    }
}

/// What a binary sample was found to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BinaryInfo {
    /// The MIME type, `application/octet-stream` when no format was recognised.
    pub mime: &'static str,
    /// What gave it away.
    pub reason: BinaryReason,
}

/// The verdict on a sample: text in some encoding, or binary of some kind.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Classification {
    /// Readable as text.
    Text(TextInfo),
    /// Not text.
    Binary(BinaryInfo),
}

impl Classification {
    /// Whether the sample is text.
    pub fn is_text(&self) -> bool {
        matches!(self, Classification::Text(_))
    }

    /// The MIME type, when known (always for binary).
    pub fn mime(&self) -> Option<&'static str> {
        match self {
            Classification::Text(t) => t.mime,
            Classification::Binary(b) => Some(b.mime),
        }
    }

    /// The text encoding, for text.
    pub fn encoding(&self) -> Option<Encoding> {
        match self {
            Classification::Text(t) => Some(t.encoding),
            Classification::Binary(_) => None,
        }
    }

    /// The error a read of a binary file `path` of `file_size` bytes fails with.
    pub fn binary_error(&self, path: &std::path::Path, file_size: u64) -> Option<Error> {
        match self {
            Classification::Text(_) => None,
            Classification::Binary(b) => Some(Error::Binary {
                path: path.to_path_buf(),
                mime: b.mime.to_string(),
                file_size: crate::error::int(file_size),
            }),
        }
    }
}

/// Classifies a sample from the start of a file: its first [`SAMPLE_SIZE`] bytes.
///
/// # The steps, in order
///
/// 1. **Byte order mark.** UTF-8 (`EF BB BF`), UTF-32 LE/BE (`FF FE 00 00`,
///    `00 00 FE FF`; tested before UTF-16 because the LE mark starts the same way) and
///    UTF-16 LE/BE (`FF FE`, `FE FF`). After a UTF-16/32 mark the sample must decode to
///    text (no U+0000; at most 1%, or one, of its characters disallowed controls,
///    unpaired surrogates or noncharacters), else the mark is taken for a coincidence
///    and the steps below decide. After a UTF-8 mark the rest goes through them as UTF-8.
/// 2. **Magic numbers** (the `infer` crate): images, archives, audio, video, fonts,
///    executables, PDF, databases ... are binary, with their MIME type. infer's text
///    kinds (HTML, XML, shell scripts) stay text, and so does any other kind whose sample
///    is valid UTF-8 without NUL or disallowed control bytes (PEM, PostScript, RTF, an
///    all-ASCII PDF); the MIME type is reported with the text.
/// 3. **NUL bytes** make the sample binary, unless they form a clear UTF-16 pattern: at
///    least 8 code units and at least half of them with a zero high byte, at most 1/32
///    with a zero low byte, and the sample decodes to text as in step 1. (A host that
///    wants every NUL to mean binary, as Goose does, reads with
///    [`Detection::NulMeansBinary`](crate::Detection::NulMeansBinary).)
/// 4. **Control bytes.** Bytes below `0x20` other than `\t \n \r \x0c \x1b \x08`, and
///    `0x7f`, in more than [`MAX_CONTROL_SHARE`] of the sample make it binary. `\x1b`
///    (ANSI colour), `\x08` (overstrike in man pages) and `\x0c` (form feed) are common
///    in text; a stray BEL or `^A` separator is tolerated below the threshold.
/// 5. Otherwise **text**. Valid UTF-8 (ASCII included) is UTF-8 with confidence 1. A
///    sample whose first 64 non-ASCII characters and invalid sequences hold at least
///    four times as many valid multi-byte UTF-8 characters as invalid sequences is UTF-8
///    with a few bad bytes (read lossily). Anything else is a legacy encoding guessed by
///    `chardetng` (Cargo feature `legacy-encodings`, on by default; only then is
///    chardetng called, so UTF-8 files pay nothing for it), or, without the feature,
///    UTF-8 read lossily. chardetng costs 0.1 to 0.2 µs a byte, so it is fed only the
///    evidence: the first 128 bytes of the words that hold non-ASCII bytes (with their
///    ASCII letters, without the markup and code between them), and a double-byte
///    guess (Shift_JIS, EUC-JP, GBK, Big5, EUC-KR) stands after the first 64. That keeps
///    a legacy sample within 20 µs, against 0.2 to 0.3 ms for 2 KiB of raw sample, at
///    the price of a few more wrong guesses among close encodings (on chardet's test
///    corpus 330 of 344 files right instead of 334: Hungarian windows-1250 read as
///    windows-1252, Korean whose first words are hanja or kana read as another CJK
///    encoding; see docs/classify-agreement.md).
///
/// A sample is never judged cut inside a character: an incomplete UTF-8 sequence (or
/// UTF-16/32 code unit, or the first half of a surrogate pair) at its end is left out.
///
/// # Example
///
/// ```
/// use rangeread::{classify, BinaryReason, Classification, Encoding};
///
/// let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
/// match classify(png) {
///     Classification::Binary(b) => {
///         assert_eq!(b.mime, "image/png");
///         assert_eq!(b.reason, BinaryReason::Magic);
///     }
///     other => panic!("{other:?}"),
/// }
///
/// let utf16 = b"\xff\xfeh\0i\0\n\0";
/// assert_eq!(classify(utf16).encoding(), Some(Encoding::Utf16Le));
/// assert!(classify("fn main() {}\n".as_bytes()).is_text());
/// ```
pub fn classify(sample: &[u8]) -> Classification {
    judge(sample, &Judge::default())
}

/// Classifies a sample under a reader's rules ([`Reader::classify`](crate::Reader::classify)):
/// its [`Detection`], [`EncodingPolicy`], control-byte rule and invalid-UTF-8 share.
/// (The NUL rule's [`NulBytes::InRead`] looks past the sample, at what is read.)
pub(crate) fn judge(sample: &[u8], j: &Judge) -> Classification {
    let sample = &sample[..sample.len().min(SAMPLE_SIZE)];
    if let EncodingPolicy::Forced(encoding) = j.encoding {
        return forced(sample, encoding);
    }
    let c = match j.detection {
        Detection::AssumeUtf8 => return forced(b"", Encoding::Utf8),
        Detection::ByteOrderMark | Detection::Utf16LeMark => {
            let (encoding, bom_len) = match (bom(sample), j.detection) {
                (Some(e), Detection::ByteOrderMark) => (e, e.bom_len() as u8),
                (Some(Encoding::Utf8), _) => (Encoding::Utf8, 3),
                // `FF FE 00 00` starts `FF FE` too.
                (Some(Encoding::Utf16Le | Encoding::Utf32Le), _) => (Encoding::Utf16Le, 2),
                _ => (Encoding::Utf8, 0),
            };
            return Classification::Text(TextInfo {
                encoding,
                bom_len,
                confidence: 1.0,
                mime: None,
            });
        }
        Detection::Auto | Detection::NulMeansBinary | Detection::MagicOnly => by_content(sample, j),
    };
    let c = match c {
        // A file without a mark is never UTF-16 to these hosts.
        Classification::Text(t)
            if j.detection == Detection::NulMeansBinary
                && t.bom_len == 0
                && matches!(t.encoding, Encoding::Utf16Le | Encoding::Utf16Be) =>
        {
            binary(OCTET_STREAM, BinaryReason::Nul)
        }
        Classification::Text(t)
            if j.control_bytes == ControlBytes::SampleShares
                && shares::binary(sample, t.encoding) =>
        {
            binary(OCTET_STREAM, BinaryReason::ControlBytes)
        }
        Classification::Text(_)
            if j.control_bytes == ControlBytes::SuspiciousShare && suspicious::binary(sample) =>
        {
            binary(OCTET_STREAM, BinaryReason::ControlBytes)
        }
        c => c,
    };
    match (c, j.invalid_utf8_binary) {
        (Classification::Text(t), Some(share)) if t.bom_len == 0 && too_invalid(sample, share) => {
            binary(OCTET_STREAM, BinaryReason::InvalidUtf8)
        }
        (c, _) => c,
    }
}

/// Text in `encoding`, past its byte order mark if the sample starts with one.
fn forced(sample: &[u8], encoding: Encoding) -> Classification {
    let bom_len = match bom(sample) {
        Some(b) if b == encoding => encoding.bom_len() as u8,
        _ => 0,
    };
    Classification::Text(TextInfo {
        encoding,
        bom_len,
        confidence: 1.0,
        mime: None,
    })
}

/// Whether more than `share` of the sample's bytes start invalid UTF-8 sequences (as
/// lossy decoding counts them: one per U+FFFD). Valid UTF-8 passes at once.
fn too_invalid(sample: &[u8], share: f64) -> bool {
    if simdutf8::basic::from_utf8(sample).is_ok() {
        return false;
    }
    let invalid =
        crate::decode::decode_utf8(sample.to_vec(), crate::decode::Utf8Policy::Lossy, |o| o)
            .ok()
            .and_then(|d| d.invalid)
            .map_or(0, |i| i.count);
    invalid as f64 > share * sample.len() as f64
}

/// Steps 1 to 5 (see [`classify`]) under the rules of `j`.
fn by_content(sample: &[u8], j: &Judge) -> Classification {
    match bom(sample) {
        Some(Encoding::Utf8) => return classify_body(&sample[3..], true, j),
        Some(enc) => {
            let n = enc.bom_len();
            if wide_is_text(enc, &sample[n..]) {
                return Classification::Text(TextInfo {
                    encoding: enc,
                    bom_len: n as u8,
                    confidence: 1.0,
                    mime: None,
                });
            }
        }
        None => {}
    }
    classify_body(sample, false, j)
}

/// Classifies the file at `path` from its first [`SAMPLE_SIZE`] bytes.
///
/// The file is opened as [`Source::open`] opens it (FIFOs and devices are refused
/// without blocking) and at most the sample is read.
///
/// # Errors
///
/// The errors of [`Source::open`], or an I/O error while reading the sample.
///
/// # Example
///
/// ```
/// let c = rangeread::classify_file("Cargo.toml")?;
/// assert_eq!(c.encoding(), Some(rangeread::Encoding::Utf8));
/// # Ok::<(), rangeread::Error>(())
/// ```
pub fn classify_file(path: impl AsRef<Path>) -> Result<Classification> {
    classify_path(path.as_ref(), &Judge::default())
}

/// Classifies the file at `path` under the rules of `j`: its first [`SAMPLE_SIZE`]
/// bytes, and under [`NulBytes::InRead`] every byte, for a NUL.
pub(crate) fn classify_path(path: &Path, j: &Judge) -> Result<Classification> {
    let whole = j.nul_bytes == NulBytes::InRead;
    let limit = if whole { u64::MAX } else { SAMPLE_SIZE as u64 };
    let src = Source::open_streaming_limit(path, limit)?;
    let c = classify_source(&src, j)?;
    // In UTF-16 and UTF-32, zero bytes are parts of characters, not NULs.
    let narrow = c.encoding().is_some_and(|e| !e.units().is_wide());
    if narrow && whole && has_nul(&src)? {
        return Ok(nul_binary());
    }
    Ok(c)
}

/// Whether `src` (text in an 8-bit encoding) holds a NUL byte anywhere (the NUL rule of
/// [`NulBytes::InRead`] over a whole file; what a read holds is checked as it is read).
fn has_nul(src: &Source) -> Result<bool> {
    let mut scratch = Vec::new();
    let mut at = 0;
    while at < src.len() {
        let end = src.len().min(at + (1 << 20));
        if src.with_range(at, end, &mut scratch, |b| memchr::memchr(0, b).is_some())? {
            return Ok(true);
        }
        at = end;
    }
    Ok(false)
}

/// Whether the file at `path` is text, for hosts that only ask that: reads at most
/// [`SAMPLE_SIZE`] bytes.
///
/// # Errors
///
/// As [`classify_file`].
///
/// # Example
///
/// ```
/// assert!(rangeread::is_text("Cargo.toml")?);
/// # Ok::<(), rangeread::Error>(())
/// ```
pub fn is_text(path: impl AsRef<Path>) -> Result<bool> {
    Ok(classify_file(path)?.is_text())
}

/// Classifies a source from its first bytes under the rules of `j`.
pub(crate) fn classify_source(src: &Source, j: &Judge) -> Result<Classification> {
    let n = src.len().min(SAMPLE_SIZE as u64);
    let mut scratch = Vec::new();
    src.with_range(0, n, &mut scratch, |s| judge(s, j))
}

/// Steps 2 to 5, on a sample without a BOM (or the rest after a UTF-8 BOM).
fn classify_body(sample: &[u8], utf8_bom: bool, j: &Judge) -> Classification {
    let magic_only = j.detection == Detection::MagicOnly;
    let text = trim_incomplete_utf8(sample);
    let utf8 = simdutf8::basic::from_utf8(text).is_ok();
    let has_nul = memchr::memchr(0, sample).is_some();
    let controls = count_controls(text);
    let clean = utf8 && !has_nul && controls == 0;
    let mut mime = None;
    if let Some(kind) = infer::get(sample) {
        let m = mime_of(&kind, sample);
        if kind.matcher_type() == infer::MatcherType::Text || clean {
            mime = Some(m);
        } else {
            return binary(m, BinaryReason::Magic);
        }
    }
    let bom_len = if utf8_bom { 3 } else { 0 };
    // Under binaryornot's shares or isbinaryfile's count a NUL byte is that rule's to
    // judge.
    let nul_judged = matches!(
        j.control_bytes,
        ControlBytes::SampleShares | ControlBytes::SuspiciousShare
    );
    if has_nul && !magic_only && !nul_judged {
        if !utf8_bom {
            if let Some((enc, confidence)) = utf16_pattern(sample) {
                // Zero bytes are valid UTF-8: a host that tries UTF-8 first reads them so.
                let (encoding, confidence) = match j.encoding {
                    EncodingPolicy::Utf8First if utf8 => (Encoding::Utf8, 1.0),
                    _ => (enc, confidence),
                };
                return Classification::Text(TextInfo {
                    encoding,
                    bom_len: 0,
                    confidence,
                    mime,
                });
            }
        }
        return binary(OCTET_STREAM, BinaryReason::Nul);
    }
    let in_head = |&b: &u8| matches!(b, 0x00..=0x08 | 0x0E..=0x1F);
    if j.control_bytes == ControlBytes::InHead && sample.iter().take(CONTROL_HEAD).any(in_head) {
        return binary(OCTET_STREAM, BinaryReason::ControlBytes);
    }
    let tolerated = magic_only || j.control_bytes != ControlBytes::Share;
    if !tolerated && controls as f64 > text.len() as f64 * MAX_CONTROL_SHARE {
        return binary(OCTET_STREAM, BinaryReason::ControlBytes);
    }
    let (encoding, confidence) = if utf8 {
        (Encoding::Utf8, 1.0)
    } else {
        text_encoding(
            sample,
            text,
            utf8_bom,
            j.encoding != EncodingPolicy::NoLegacy,
        )
    };
    Classification::Text(TextInfo {
        encoding,
        bom_len,
        confidence,
        mime,
    })
}

/// The verdict on content that holds a NUL byte past the sample
/// ([`NulBytes::InRead`]).
pub(crate) fn nul_binary() -> Classification {
    binary(OCTET_STREAM, BinaryReason::Nul)
}

fn binary(mime: &'static str, reason: BinaryReason) -> Classification {
    Classification::Binary(BinaryInfo { mime, reason })
}

/// infer's MIME type, except for OLE2 compound files: without its `cfb` parser (left out
/// to keep dependencies small) infer calls every one `application/msword`, so the
/// container's own type is reported instead.
fn mime_of(kind: &infer::Type, sample: &[u8]) -> &'static str {
    if sample.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        "application/x-ole-storage"
    } else {
        kind.mime_type()
    }
}

/// The byte order mark of GB 18030 (U+FEFF in it), which [`bom`] does not read by:
/// `isbinaryfile` answers "text" for it at once.
const GB18030_BOM: &[u8] = b"\x84\x31\x95\x33";

/// The byte order marks of UCS-4 in its unusual orders, 3412 and 2143, which [`bom`] does
/// not read by (the 3412 one starts as UTF-16 BE's) and Python has no codec for.
const UCS4_3412_BOM: &[u8] = b"\xFE\xFF\0\0";
const UCS4_2143_BOM: &[u8] = b"\0\0\xFF\xFE";

/// The encoding announced by a byte order mark.
fn bom(sample: &[u8]) -> Option<Encoding> {
    if sample.starts_with(b"\xEF\xBB\xBF") {
        Some(Encoding::Utf8)
    } else if sample.starts_with(b"\xFF\xFE\0\0") {
        Some(Encoding::Utf32Le)
    } else if sample.starts_with(b"\0\0\xFE\xFF") {
        Some(Encoding::Utf32Be)
    } else if sample.starts_with(b"\xFF\xFE") {
        Some(Encoding::Utf16Le)
    } else if sample.starts_with(b"\xFE\xFF") {
        Some(Encoding::Utf16Be)
    } else {
        None
    }
}

/// Drops an incomplete UTF-8 sequence at the end of `s` (at most 3 bytes).
fn trim_incomplete_utf8(s: &[u8]) -> &[u8] {
    let n = s.len();
    for back in 1..=n.min(3) {
        let b = s[n - back];
        if b & 0xC0 == 0x80 {
            continue;
        }
        let need = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if need > back { &s[..n - back] } else { s };
    }
    s
}

/// Counts the disallowed control bytes (see [`MAX_CONTROL_SHARE`]). Plain compares
/// summed into a `u8` counter per 128-byte block, which the compiler turns into SIMD (a
/// table lookup or a variable shift per byte does not vectorize and costs ~10x); blocks
/// of a whole number of vectors, with no remainder inside the loop, run twice as fast
/// as blocks of 255 bytes did.
fn count_controls(s: &[u8]) -> usize {
    fn bad(b: u8) -> u8 {
        let control = (b < 0x20)
            & (b != b'\t')
            & (b != b'\n')
            & (b != b'\r')
            & (b != 0x0C)
            & (b != 0x1B)
            & (b != 0x08);
        u8::from(control | (b == 0x7F))
    }
    let mut blocks = s.chunks_exact(128);
    let mut n = 0;
    for block in &mut blocks {
        n += block.iter().fold(0u8, |n, &b| n + bad(b)) as usize;
    }
    n + blocks
        .remainder()
        .iter()
        .map(|&b| bad(b) as usize)
        .sum::<usize>()
}

/// Whether a code point is a disallowed control character (see [`MAX_CONTROL_SHARE`]).
fn is_disallowed_control(c: u32) -> bool {
    (c < 0x20 && !matches!(c, 0x09 | 0x0A | 0x0D | 0x0C | 0x1B | 0x08)) || c == 0x7F
}

/// Whether a UTF-16/32 sample decodes to text: no U+0000, and at most 1% of its
/// characters (at least one allowed) are bad: disallowed controls, unpaired surrogates,
/// noncharacters (U+FFFE, U+FFFF) or values beyond U+10FFFF. A unit or surrogate half
/// cut at the end of the sample is left out.
fn wide_is_text(enc: Encoding, bytes: &[u8]) -> bool {
    let w = enc.units().width();
    let bytes = &bytes[..bytes.len() - bytes.len() % w];
    let be = matches!(enc, Encoding::Utf16Be | Encoding::Utf32Be);
    let (mut chars, mut bad) = (0usize, 0usize);
    let is_bad = |c: u32| usize::from(is_disallowed_control(c) || c == 0xFFFE || c == 0xFFFF);
    if w == 4 {
        for u in bytes.chunks_exact(4) {
            let a = [u[0], u[1], u[2], u[3]];
            let c = if be {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            };
            if c == 0 {
                return false;
            }
            chars += 1;
            bad += if char::from_u32(c).is_none() {
                1
            } else {
                is_bad(c)
            };
        }
    } else {
        // Fast path, which vectorizes: no surrogates means one character per unit.
        let (mut nul, mut surrogates) = (0usize, 0usize);
        for block in bytes.chunks(510) {
            let (n, s, b) = block.chunks_exact(2).fold((0u8, 0u8, 0u8), |(n, s, b), u| {
                let u = if be {
                    u16::from_be_bytes([u[0], u[1]])
                } else {
                    u16::from_le_bytes([u[0], u[1]])
                };
                let control = (u < 0x20)
                    & (u != 0x09)
                    & (u != 0x0A)
                    & (u != 0x0D)
                    & (u != 0x0C)
                    & (u != 0x1B)
                    & (u != 0x08);
                (
                    n + u8::from(u == 0),
                    s + u8::from(u & 0xF800 == 0xD800),
                    b + u8::from(control | (u == 0x7F) | (u >= 0xFFFE)),
                )
            });
            nul += n as usize;
            surrogates += s as usize;
            bad += b as usize;
        }
        if nul > 0 {
            return false;
        }
        if surrogates == 0 {
            chars = bytes.len() / 2;
            return bad as f64 <= (chars as f64 * MAX_CONTROL_SHARE).max(1.0);
        }
        bad = 0;
        let unit = |i: usize| {
            let a = [bytes[i], bytes[i + 1]];
            if be {
                u16::from_be_bytes(a)
            } else {
                u16::from_le_bytes(a)
            }
        };
        let mut i = 0;
        while i < bytes.len() {
            let u = unit(i);
            i += 2;
            if u & 0xF800 != 0xD800 {
                if u == 0 {
                    return false;
                }
                chars += 1;
                bad += is_bad(u32::from(u));
            } else if u < 0xDC00 && i < bytes.len() && unit(i) & 0xFC00 == 0xDC00 {
                i += 2;
                chars += 1;
            } else if u < 0xDC00 && i == bytes.len() {
                break; // the first half of a pair cut at the end of the sample
            } else {
                chars += 1;
                bad += 1;
            }
        }
    }
    bad as f64 <= (chars as f64 * MAX_CONTROL_SHARE).max(1.0)
}

/// Recognizes UTF-16 without a BOM from where its zero bytes are (see the module docs).
fn utf16_pattern(sample: &[u8]) -> Option<(Encoding, f32)> {
    // Without a byte order mark, a few zero bytes are no evidence of UTF-16: the 5-byte
    // blob `7f 45 00 01 02` has one at an even offset. `file` never takes a file without
    // a mark for UTF-16; this takes one only on at least `MIN_UTF16_UNITS` code units of
    // the pattern.
    let n = sample.len() / 2;
    if n == 0 {
        return None;
    }
    // u8 counters per block of 255 units, so that the loop vectorizes.
    let (mut even, mut odd) = (0usize, 0usize);
    for block in sample[..n * 2].chunks(510) {
        let (e, o) = block.chunks_exact(2).fold((0u8, 0u8), |(e, o), u| {
            (e + u8::from(u[0] == 0), o + u8::from(u[1] == 0))
        });
        even += e as usize;
        odd += o as usize;
    }
    let (enc, hits, other) = if odd >= even {
        (Encoding::Utf16Le, odd, even)
    } else {
        (Encoding::Utf16Be, even, odd)
    };
    if hits < MIN_UTF16_UNITS || hits * 2 < n || other * 32 > n {
        return None;
    }
    wide_is_text(enc, sample).then_some((enc, hits as f32 / n as f32))
}

/// The code units with a zero high byte that a sample without a byte order mark needs
/// before its NUL bytes are read as UTF-16 (step 3): eight characters of text.
const MIN_UTF16_UNITS: usize = 8;

/// How many non-ASCII characters and invalid sequences step 5 weighs to tell UTF-8 with
/// a few bad bytes from a legacy encoding: the first 64 of the sample. Counting further
/// changes no verdict worth having and costs one restart of the validator per invalid
/// sequence (a legacy sample has thousands).
const UTF8_EVIDENCE: usize = 64;

/// Valid multi-byte UTF-8 characters and invalid sequences among the first
/// [`UTF8_EVIDENCE`] of them in `s` (a valid stretch is counted whole, so the total may
/// pass the bound), or fewer once too many are invalid for the sample to be UTF-8.
fn utf8_stats(s: &[u8]) -> (usize, usize) {
    let (mut valid, mut invalid) = (0, 0);
    let mut rest = s;
    // Past `UTF8_EVIDENCE / 5` invalid sequences, four valid characters for each cannot fit.
    while valid + invalid < UTF8_EVIDENCE && invalid <= UTF8_EVIDENCE / 5 {
        match simdutf8::compat::from_utf8(rest) {
            Ok(_) => {
                valid += count_leads(rest);
                break;
            }
            Err(e) => {
                let good = e.valid_up_to();
                valid += count_leads(&rest[..good]);
                invalid += 1;
                let skip = good + e.error_len().unwrap_or(rest.len() - good).max(1);
                rest = &rest[skip.min(rest.len())..];
            }
        }
    }
    (valid, invalid)
}

/// Lead bytes of multi-byte characters in valid UTF-8 (a filter count that vectorizes).
fn count_leads(s: &[u8]) -> usize {
    s.iter().filter(|&&b| b >= 0xC0).count()
}

/// Step 5 for a sample that is not valid UTF-8.
fn text_encoding(
    sample: &[u8],
    text: &[u8],
    utf8_bom: bool,
    legacy_guess: bool,
) -> (Encoding, f32) {
    let (valid, invalid) = utf8_stats(text);
    let utf8_share = valid as f32 / (valid + invalid).max(1) as f32;
    if utf8_bom || (valid > 0 && valid >= 4 * invalid) {
        return (Encoding::Utf8, utf8_share);
    }
    legacy_guess
        .then(|| legacy(sample))
        .flatten()
        .unwrap_or((Encoding::Utf8, utf8_share))
}

#[cfg(test)]
mod tests;
