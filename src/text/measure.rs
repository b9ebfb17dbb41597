//! What the byte budget counts: the UTF-8 bytes that text decodes to, in every encoding.
//!
//! `content` is UTF-8 whatever the file's encoding, and the budget protects the caller's
//! context, so it counts what reaches the caller: an ASCII letter is one byte in UTF-8,
//! UTF-16 and UTF-32 alike (2 and 4 file bytes), `é` two, `あ` three (three file bytes in
//! UTF-8, two in UTF-16 and Shift_JIS). A file then gives the same pages in every
//! encoding. Offsets stay file offsets; only the budget's count is in UTF-8 bytes.
//!
//! Each invalid sequence counts as the U+FFFD that decoding puts in its place (3 bytes),
//! except in UTF-8, where content bytes are file bytes (an invalid byte counts 1), and in
//! ISO-2022-JP, a stateful encoding whose characters cannot be measured apart from the
//! escapes before them: there the budget counts file bytes.

use super::{Encoding, Units};

/// The most UTF-8 bytes one file byte can decode to, in any encoding: a legacy byte
/// that is a character of 3 UTF-8 bytes (Shift_JIS half-width katakana, windows-1252
/// `€`), or an invalid byte (U+FFFD). `n` file bytes never decode to more than `3 * n`.
pub(crate) const MAX_UTF8_PER_BYTE: u64 = 3;

/// The most file bytes one UTF-8 byte of content can come from (an ASCII letter in
/// UTF-32): text that decodes to `n` UTF-8 bytes spans at most `4 * n` file bytes.
pub(crate) const MAX_BYTES_PER_UTF8: u64 = 4;

/// Measures text of one encoding in the UTF-8 bytes it decodes to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measure {
    encoding: Encoding,
    units: Units,
}

impl Measure {
    /// The measure of text in `encoding`.
    pub fn new(encoding: Encoding) -> Measure {
        Measure {
            encoding,
            units: encoding.units(),
        }
    }

    /// Whether the count is the file bytes themselves: UTF-8 (and ISO-2022-JP, see the
    /// module docs). The budget then needs no measuring.
    pub fn is_file_bytes(&self) -> bool {
        match self.encoding {
            Encoding::Utf8 => true,
            Encoding::Legacy(l) => l.name() == "iso-2022-jp",
            _ => false,
        }
    }

    /// The UTF-8 length of `bytes`, whole characters that start at a boundary (a line, a
    /// page); a character cut short at the end counts as the U+FFFD it decodes to.
    pub fn utf8_len(&self, bytes: &[u8]) -> u64 {
        if self.is_file_bytes() {
            return bytes.len() as u64;
        }
        match self.encoding {
            Encoding::Legacy(l) => legacy::utf8_len(l, bytes),
            _ => self.walk(bytes, u64::MAX, true).1,
        }
    }

    /// The longest prefix of `bytes` (which starts at a character boundary and may end
    /// inside a character, which is then not taken) that ends on a character boundary and
    /// decodes to at most `budget` UTF-8 bytes: its length in file bytes and in UTF-8
    /// bytes. For file-bytes measures, the greatest boundary at or below `budget`.
    pub fn floor(&self, bytes: &[u8], budget: u64) -> (usize, u64) {
        if self.is_file_bytes() {
            let at = usize::try_from(budget).unwrap_or(usize::MAX);
            let b = self.units.floor_boundary(bytes, at);
            return (b, b as u64);
        }
        self.walk(bytes, budget, false)
    }

    /// Walks the characters of `bytes` while their UTF-8 length fits in `budget`.
    /// `complete`: a character cut short at the end is taken as U+FFFD (else left).
    fn walk(&self, bytes: &[u8], budget: u64, complete: bool) -> (usize, u64) {
        let mut i = 0usize;
        let mut n = 0u64;
        loop {
            let rest = &bytes[i..];
            if rest.is_empty() {
                break;
            }
            let Some((width, len)) = self.char_at(rest, complete) else {
                break;
            };
            if n + len > budget {
                // A run of ASCII (one byte a character, in a legacy encoding) is taken
                // as far as it fits; a character never is.
                if !self.units.is_wide() && rest[0] < 0x80 {
                    i += (budget - n) as usize;
                    n = budget;
                }
                break;
            }
            i += width;
            n += len;
        }
        (i, n)
    }

    /// The character at the start of `rest`: its width in file bytes and its UTF-8
    /// length (or, in a legacy encoding, a run of ASCII characters, one byte each);
    /// `None` when it is cut short and `complete` is off.
    fn char_at(&self, rest: &[u8], complete: bool) -> Option<(usize, u64)> {
        let w = self.units.width();
        if rest.len() < w {
            return complete.then_some((rest.len(), 3));
        }
        let be = matches!(self.units, Units::Utf16Be | Units::Utf32Be);
        match self.units {
            Units::Utf16Le | Units::Utf16Be => {
                let unit = |i: usize| {
                    let a = [rest[i], rest[i + 1]];
                    if be {
                        u16::from_be_bytes(a)
                    } else {
                        u16::from_le_bytes(a)
                    }
                };
                let u = unit(0);
                Some(match u {
                    0..0x80 => (2, 1),
                    0x80..0x800 => (2, 2),
                    0xD800..0xDC00 if rest.len() < 4 => {
                        // A high surrogate at the end: its pair may follow unread.
                        return complete.then_some((2, 3));
                    }
                    0xD800..0xDC00 if (0xDC00..0xE000).contains(&unit(2)) => (4, 4),
                    // BMP characters, and lone surrogates (U+FFFD).
                    _ => (2, 3),
                })
            }
            Units::Utf32Le | Units::Utf32Be => {
                let a = [rest[0], rest[1], rest[2], rest[3]];
                let c = if be {
                    u32::from_be_bytes(a)
                } else {
                    u32::from_le_bytes(a)
                };
                Some(match char::from_u32(c) {
                    Some(ch) => (4, ch.len_utf8() as u64),
                    None => (4, 3),
                })
            }
            _ => {
                let Encoding::Legacy(l) = self.encoding else {
                    return Some((1, 1));
                };
                legacy::char_at(l, self.units, rest, complete)
            }
        }
    }
}

mod legacy {
    use encoding_rs::DecoderResult;

    use super::super::{LegacyEncoding, Units};

    /// The UTF-8 length of `bytes` decoded as `decode` does (U+FFFD for each malformed
    /// sequence), without keeping the text.
    pub(super) fn utf8_len(enc: LegacyEncoding, bytes: &[u8]) -> u64 {
        let mut decoder = enc.encoding_rs().new_decoder_without_bom_handling();
        let mut out = [0u8; 4096];
        let (mut pos, mut n) = (0usize, 0u64);
        loop {
            let (res, read, written) =
                decoder.decode_to_utf8_without_replacement(&bytes[pos..], &mut out, true);
            pos += read;
            n += written as u64;
            match res {
                DecoderResult::InputEmpty => return n,
                DecoderResult::OutputFull => {}
                DecoderResult::Malformed(..) => n += 3,
            }
        }
    }

    /// The character at the start of `rest` (see `Measure::char_at`): a run of ASCII
    /// bytes as one piece (each one UTF-8 byte in every supported legacy encoding but
    /// ISO-2022-JP, which is measured in file bytes), else one character by the
    /// encoding's lead-byte rule, decoded on its own.
    pub(super) fn char_at(
        enc: LegacyEncoding,
        units: Units,
        rest: &[u8],
        complete: bool,
    ) -> Option<(usize, u64)> {
        let ascii = rest.iter().position(|&b| b >= 0x80).unwrap_or(rest.len());
        if ascii > 0 {
            return Some((ascii, ascii as u64));
        }
        let width = units.char_len_at(rest);
        if width > rest.len() {
            return complete.then(|| (rest.len(), utf8_len(enc, rest)));
        }
        Some((width, utf8_len(enc, &rest[..width])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf32be(s: &str) -> Vec<u8> {
        s.chars().flat_map(|c| (c as u32).to_be_bytes()).collect()
    }

    #[test]
    fn counts_what_decoding_returns() {
        let text = "aé€𝄞\n";
        let m16 = Measure::new(Encoding::Utf16Le);
        let m32 = Measure::new(Encoding::Utf32Be);
        assert_eq!(m16.utf8_len(&utf16le(text)), text.len() as u64);
        assert_eq!(m32.utf8_len(&utf32be(text)), text.len() as u64);
        assert!(Measure::new(Encoding::Utf8).is_file_bytes());
        // A lone surrogate and a cut unit decode to U+FFFD.
        assert_eq!(m16.utf8_len(&[0x00, 0xD8, b'a', 0]), 4);
        assert_eq!(m16.utf8_len(b"a"), 3);
    }

    #[test]
    fn floors_keep_characters_whole() {
        let text = "ab𝄞c";
        let b = utf16le(text);
        let m = Measure::new(Encoding::Utf16Le);
        assert_eq!(m.floor(&b, 2), (4, 2));
        assert_eq!(m.floor(&b, 5), (4, 2), "the pair needs 4 bytes of budget");
        assert_eq!(m.floor(&b, 6), (8, 6));
        // A buffer that ends inside the pair does not take its first half.
        assert_eq!(m.floor(&b[..6], 100), (4, 2));
        let b = utf32be(text);
        let m = Measure::new(Encoding::Utf32Be);
        assert_eq!(m.floor(&b, 6), (12, 6));
        assert_eq!(m.floor(&b[..14], 100), (12, 6));
    }

    #[test]
    fn legacy_text_is_measured_as_decoded() {
        let enc = |name| Encoding::from_name(name).unwrap();
        // "aé€" in windows-1252: 1, 2 and 3 UTF-8 bytes.
        let m = Measure::new(enc("windows-1252"));
        assert_eq!(m.utf8_len(b"a\xE9\x80"), 6);
        assert_eq!(m.floor(b"a\xE9\x80", 5), (2, 3));
        // "aあ" in Shift_JIS: あ = 82 A0, three UTF-8 bytes; a cut lead is not taken.
        let m = Measure::new(enc("shift_jis"));
        assert_eq!(m.utf8_len(b"a\x82\xA0"), 4);
        assert_eq!(m.floor(b"a\x82\xA0", 3), (1, 1));
        assert_eq!(m.floor(b"a\x82", 10), (1, 1));
        // "α" (83 BF) is two bytes and two UTF-8 bytes: whole or not at all.
        assert_eq!(m.utf8_len(b"\x83\xBF"), 2);
        assert_eq!(m.floor(b"\x83\xBFab", 1), (0, 0));
        assert_eq!(m.floor(b"ab\x83\xBF", 3), (2, 2));
    }
}
