//! Step 5 of classification for a sample that is neither UTF-8 nor UTF-16/32: which
//! legacy encoding (windows-1252, Shift_JIS, GBK ...) chardetng guesses from the words
//! that carry evidence, and how plausible the decoded text is.

use crate::text::Encoding;
use crate::text::LegacyEncoding;

/// How many bytes chardetng is fed at most: its cost is linear, 0.1 to 0.2 µs a byte
/// (27 candidate decoders score every byte), so the words that carry evidence are picked
/// out of the sample instead of feeding it whole (see [`legacy_evidence`]).
pub(crate) const LEGACY_EVIDENCE_BYTES: usize = 128;

/// After this many bytes of evidence, a guess of a double-byte encoding (Shift_JIS,
/// EUC-JP, GBK, Big5, EUC-KR) stands: 64 bytes are 32 characters of dense CJK text,
/// which tell those apart as well as 128 do on chardet's test corpus, while dense CJK
/// costs chardetng the most a byte (no candidate drops out). Single-byte guesses get
/// the rest of the evidence: Central European and Greek need it.
const DOUBLE_BYTE_EVIDENCE_BYTES: usize = 64;

fn is_double_byte(enc: &'static encoding_rs::Encoding) -> bool {
    [
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::GBK,
        encoding_rs::GB18030,
        encoding_rs::BIG5,
        encoding_rs::EUC_KR,
    ]
    .contains(&enc)
}

/// The words of `sample` that contain non-ASCII bytes, in order, each followed by a
/// space, until [`LEGACY_EVIDENCE_BYTES`] are gathered: the bytes that tell legacy
/// encodings apart, with the ASCII letters around them that chardetng's Latin scoring
/// pairs them with, and without the ASCII markup and code between them, which tells
/// nothing. A word is a run of bytes `>= 0x40`; bytes below `0x40` (space, digits, most
/// punctuation, line ends) are never the second byte of a character in Shift_JIS, GBK,
/// Big5, EUC-JP or EUC-KR, so a word always starts and ends on a character boundary. A
/// word longer than the room left (a line of Japanese has no spaces) is cut after a
/// whole double-byte pair (read generically: a byte `>= 0x81` leads a pair) and ends
/// the evidence; should the generic reading be off by one (Shift_JIS half-width kana
/// are single bytes), the cut leaves half a character at the very end, which chardetng,
/// told that the stream goes on, does not count against anyone.
pub(crate) fn legacy_evidence(sample: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(LEGACY_EVIDENCE_BYTES + 1);
    let n = sample.len();
    let mut i = 0;
    while i < n && out.len() < LEGACY_EVIDENCE_BYTES {
        let first = i + encoding_rs::Encoding::ascii_valid_up_to(&sample[i..]);
        if first >= n {
            break;
        }
        let start = first
            - sample[i..first]
                .iter()
                .rev()
                .take_while(|&&b| b >= 0x40)
                .count();
        let end = first + sample[first..].iter().take_while(|&&b| b >= 0x40).count();
        let room = LEGACY_EVIDENCE_BYTES - out.len();
        if end - start > room {
            let word = &sample[start..end];
            out.extend_from_slice(&word[..double_byte_prefix(word, room)]);
            break;
        }
        out.extend_from_slice(&sample[start..end]);
        out.push(b' ');
        // A non-ASCII byte below 0x40 cannot exist, so `end > first >= i`: progress.
        i = end.max(first + 1);
    }
    out
}

/// The longest prefix of `word`, at most `max` bytes, that ends on a character boundary
/// of a double-byte encoding read generically (a byte `>= 0x81` leads a pair).
fn double_byte_prefix(word: &[u8], max: usize) -> usize {
    let mut i = 0;
    while i < word.len() {
        let step = if word[i] >= 0x81 { 2 } else { 1 };
        if i + step > max {
            break;
        }
        i += step;
    }
    i.min(word.len())
}

pub(super) fn legacy(sample: &[u8]) -> Option<(Encoding, f32)> {
    let evidence = legacy_evidence(sample);
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    // Not `last`: the file goes on, and a word cut short is no evidence against anyone.
    // Fed as one stream in two parts: a double-byte guess from the first part stands.
    let (first, rest) = evidence.split_at(evidence.len().min(DOUBLE_BYTE_EVIDENCE_BYTES));
    det.feed(first, false);
    let mut guess = det.guess(None, chardetng::Utf8Detection::Allow);
    if !rest.is_empty() && !is_double_byte(guess) {
        det.feed(rest, false);
        guess = det.guess(None, chardetng::Utf8Detection::Allow);
    }
    let enc = LegacyEncoding::from_encoding_rs(guess)?;
    let (text, _) = guess.decode_without_bom_handling(&evidence);
    let (mut plausible, mut total) = (0usize, 0usize);
    for c in text.chars().filter(|c| !c.is_ascii()) {
        total += 1;
        plausible += usize::from(is_plausible(c));
    }
    let confidence = if total == 0 {
        1.0
    } else {
        plausible as f32 / total as f32
    };
    Some((Encoding::Legacy(enc), confidence))
}

/// Whether a decoded non-ASCII character is what text holds: a letter or digit, or
/// common punctuation and symbols. The scripts legacy encodings carry are tested by
/// range first; `char::is_alphanumeric` (a table search) only decides the rest.
fn is_plausible(c: char) -> bool {
    matches!(c,
        '\u{A0}'..='\u{24F}'        // Latin-1 and Latin Extended (letters, signs)
        | '\u{370}'..='\u{6FF}'     // Greek, Cyrillic, Armenian, Hebrew, Arabic
        | '\u{E00}'..='\u{E7F}'     // Thai
        | '\u{2010}'..='\u{206F}'   // general punctuation
        | '\u{3000}'..='\u{30FF}'   // CJK punctuation, hiragana, katakana
        | '\u{4E00}'..='\u{9FFF}'   // CJK unified ideographs
        | '\u{AC00}'..='\u{D7A3}'   // Hangul syllables
        | '\u{FF00}'..='\u{FFEF}')  // half- and full-width forms
        || c.is_alphanumeric()
}
