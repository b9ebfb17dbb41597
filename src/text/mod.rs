//! The one owner of the rules of characters and line feeds, in every encoding.
//!
//! Every other module asks this one where a line feed is and where a character may
//! begin; none searches for `\n` itself. The rules work on file bytes, so that offsets,
//! budgets and continuations stay in file bytes whatever the encoding:
//!
//! - [`Encoding`]: the encodings a file can be read in (UTF-8, UTF-16/32 in either byte
//!   order, legacy 8-bit and CJK encodings).
//! - `Units`: their code-unit layout: how to find the LF code unit and where a character
//!   begins (UTF-8, UTF-16 with surrogate pairs, UTF-32, single-byte and multi-byte legacy
//!   encodings).
//! - `Layout`: one text's encoding, its units and where its text starts (past a byte
//!   order mark): what a document knows once it is classified.
//! - `utf8`: the contract's outward snapping and character cutting for UTF-8.
//! - `Measure`: how many UTF-8 bytes text decodes to, what the byte budget counts, so
//!   that a file gives the same pages in every encoding.
//! - line splitting of decoded (UTF-8) text, for renderers and tool presets.
//!
//! This module depends only on `memchr`, the error type and (for legacy encodings)
//! `encoding_rs`; decoding lives in `decode`,
//! walking lines of a source in `lines`.

pub(crate) mod codecs;
mod encoding;
mod measure;
mod units;
pub(crate) mod utf8;

pub use encoding::{Encoding, LegacyEncoding};
pub(crate) use measure::{Measure, MAX_BYTES_PER_UTF8, MAX_UTF8_PER_BYTE};
pub(crate) use units::Units;

use memchr::memchr_iter;
use std::borrow::Cow;

/// How one text is laid out in a file: its encoding, code units, and where line 1
/// starts (past a byte order mark).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Layout {
    pub encoding: Encoding,
    pub units: Units,
    /// Where the text starts: the end of a byte order mark, else 0.
    pub text_start: u64,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::utf8()
    }
}

impl Layout {
    /// UTF-8 without a byte order mark.
    pub fn utf8() -> Layout {
        Layout::new(Encoding::Utf8, 0)
    }

    /// The layout of text in `encoding` that starts at `text_start`.
    pub fn new(encoding: Encoding, text_start: u64) -> Layout {
        Layout {
            encoding,
            units: encoding.units(),
            text_start,
        }
    }

    /// Bytes per code unit: 1, 2 or 4.
    pub fn width(&self) -> u64 {
        self.units.width() as u64
    }

    /// `bytes` rounded up to whole code units (at least one): a read size that never
    /// splits a unit.
    pub fn chunk(&self, bytes: usize) -> usize {
        self.units.round_up(bytes.max(1) as u64) as usize
    }
}

/// The line terminators found in UTF-8 text (or in any bytes where LF is the byte
/// `0x0A`): `(saw LF alone, saw CR LF)`, stopping as soon as both are seen.
pub(crate) fn terminators(bytes: &[u8]) -> (bool, bool) {
    // Most text has no CR at all: then one search for it and one for an LF answer,
    // without visiting each line.
    if memchr::memchr(b'\r', bytes).is_none() {
        return (memchr::memchr(b'\n', bytes).is_some(), false);
    }
    let (mut lf, mut crlf) = (false, false);
    for i in line_feeds(bytes) {
        if i > 0 && bytes[i - 1] == b'\r' {
            crlf = true;
        } else {
            lf = true;
        }
        if lf && crlf {
            break;
        }
    }
    (lf, crlf)
}

/// The positions of the line feeds in decoded text (or in any bytes where LF is the
/// byte `0x0A`), in order.
pub(crate) fn line_feeds(bytes: &[u8]) -> impl DoubleEndedIterator<Item = usize> + '_ {
    memchr_iter(b'\n', bytes)
}

/// `text` with every other line end Python's `str.splitlines` knows made a line feed:
/// CR LF and a lone CR, VT, FF, the separators FS, GS and RS, NEL, and the Unicode
/// line and paragraph separators (OpenHands' ranged view re-splits its lines so).
/// The text as it is when it holds none.
pub(crate) fn python_line_ends(text: Cow<'_, str>) -> Cow<'_, str> {
    const ENDS: [char; 9] = [
        '\r', '\x0b', '\x0c', '\x1c', '\x1d', '\x1e', '\u{85}', '\u{2028}', '\u{2029}',
    ];
    if !text.contains(ENDS) {
        return text;
    }
    let text = text.replace("\r\n", "\n");
    Cow::Owned(text.replace(ENDS, "\n"))
}

/// The lines of decoded text: each line's body (without LF, and without the CR of a
/// CR LF) and whether it ended with a terminator. A last piece without LF is a line; an
/// empty text has none.
pub(crate) fn split_lines(text: &str) -> impl Iterator<Item = (&str, bool)> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, ended) = match line_feeds(rest.as_bytes()).next() {
            Some(p) => {
                let l = &rest[..p];
                rest = &rest[p + 1..];
                (l, true)
            }
            None => (std::mem::take(&mut rest), false),
        };
        // A CR belongs to the terminator only before LF: a lone CR at the end is content.
        let body = if ended {
            line.strip_suffix('\r').unwrap_or(line)
        } else {
            line
        };
        Some((body, ended))
    })
}

/// Where to cut a text that is over `max` bytes so that its head and its tail are kept
/// (at most `max / 2` bytes each): `(head_end, tail_start)`, both on character boundaries
/// and, where a line feed lies in the outer half of each side, on line boundaries (the
/// head keeps its line feed). `None` when the text fits.
pub(crate) fn head_tail(text: &str, max: usize) -> Option<(usize, usize)> {
    if text.len() <= max {
        return None;
    }
    let half = max / 2;
    let bytes = text.as_bytes();
    let mut head = utf8::floor_boundary(bytes, half);
    if let Some(lf) = line_feeds(&bytes[..head]).next_back() {
        if lf + 1 >= half / 2 {
            head = lf + 1;
        }
    }
    let from = text.len() - half;
    let mut tail = (from..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    let limit = text.len() - half / 2;
    if let Some(lf) = line_feeds(&bytes[tail..]).next() {
        if tail + lf < limit {
            tail += lf + 1;
        }
    }
    Some((head, tail.max(head)))
}

/// `bytes` with the CR of each CR LF dropped (a lone CR stays): decoded text's line ends
/// as [`crate::LineEndings::Lf`] shows them.
pub(crate) fn crlf_to_lf_bytes(bytes: Vec<u8>) -> Vec<u8> {
    if memchr::memchr(b'\r', &bytes).is_none() {
        return bytes;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut from = 0;
    for lf in line_feeds(&bytes) {
        let end = if lf > from && bytes[lf - 1] == b'\r' {
            lf - 1
        } else {
            lf
        };
        out.extend_from_slice(&bytes[from..end]);
        from = lf;
    }
    out.extend_from_slice(&bytes[from..]);
    out
}

/// [`crlf_to_lf_bytes`] of a string.
pub(crate) fn crlf_to_lf(text: String) -> String {
    // Dropping an ASCII CR keeps UTF-8 valid, so the conversion back cannot fail.
    String::from_utf8(crlf_to_lf_bytes(text.into_bytes()))
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `text` cut in the middle to at most `max` characters in all, `notice` standing for
/// what was left out: the head gets half of the room the notice leaves (the odd
/// character too), the tail the rest; a notice that fills the room alone is cut to it.
/// `None` when the text fits. Characters are Unicode scalar values (Python's `len`), as
/// openhands-tools' `maybe_truncate` counts them.
pub(crate) fn middle_cut(text: &str, max: usize, notice: &str) -> Option<String> {
    let notice_chars = notice.chars().count();
    let (head_end, tail_start) = middle_cut_at(text, max, notice_chars)?;
    if notice_chars >= max {
        return Some(notice.chars().take(max).collect());
    }
    Some(format!(
        "{}{notice}{}",
        &text[..head_end],
        &text[tail_start..]
    ))
}

/// Where [`middle_cut`] cuts `text` for a notice of `notice_chars` characters: the end
/// of the head and the start of the tail kept (byte offsets, on character boundaries;
/// `(0, text.len())` when the notice fills the room alone). `None` when the text fits.
pub(crate) fn middle_cut_at(text: &str, max: usize, notice_chars: usize) -> Option<(usize, usize)> {
    let chars = text.chars().count();
    if max == 0 || chars <= max {
        return None;
    }
    if notice_chars >= max {
        return Some((0, text.len()));
    }
    let room = max - notice_chars;
    let head = room.div_ceil(2);
    let tail = room - head;
    let head_end = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
    let tail_start = text
        .char_indices()
        .nth(chars - tail)
        .map_or(text.len(), |(i, _)| i);
    Some((head_end, tail_start))
}

/// Whether byte `at` of decoded text starts a line: the text's start, or just past a
/// line feed.
pub(crate) fn starts_line(text: &str, at: usize) -> bool {
    at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n')
}

/// The number of line feeds in decoded text (or in any bytes where LF is the byte `0x0A`).
pub(crate) fn lf_count(bytes: &[u8]) -> u64 {
    bytecount::count(bytes, b'\n') as u64
}

/// The number of lines of decoded text (line feeds, plus one for a last line without).
pub(crate) fn count_lines(text: &str) -> u64 {
    let n = lf_count(text.as_bytes());
    n + u64::from(!text.is_empty() && !text.ends_with('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The count over every length and alignment where the vector code changes course:
    /// short tails, one and two registers, and past 255 registers (the accumulators' flush).
    #[test]
    fn lf_count_is_exact_over_long_inputs_at_every_alignment() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let bytes: Vec<u8> = (0..70_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                match state % 7 {
                    0 => b'\n',
                    1 => 0x8a,
                    _ => (state >> 8) as u8,
                }
            })
            .collect();
        let lens = (0..130).chain([
            255 * 32 - 1,
            255 * 32,
            255 * 32 + 33,
            255 * 64 + 5,
            65_536 + 7,
        ]);
        for len in lens {
            for at in [0, 1, 7, 31] {
                let b = &bytes[at..at + len];
                let naive = b.iter().filter(|&&c| c == b'\n').count() as u64;
                assert_eq!(lf_count(b), naive, "{len} bytes from {at}");
            }
        }
    }

    proptest! {
        #[test]
        fn head_tail_keeps_both_ends_within_the_budget(s in "[ab\\né]{0,200}", max in 4usize..100) {
            match head_tail(&s, max) {
                None => prop_assert!(s.len() <= max),
                Some((h, t)) => {
                    prop_assert!(h <= max / 2 && s.len() - t <= max / 2 && h <= t);
                    prop_assert!(s.is_char_boundary(h) && s.is_char_boundary(t));
                }
            }
        }

        #[test]
        fn split_lines_agrees_with_str_lines(s in "[a\\r\\nb]{0,40}") {
            let ours: Vec<&str> = split_lines(&s).map(|(l, _)| l).collect();
            // `str::lines` strips a CR only before LF, like us; it also ends the same way.
            let std: Vec<&str> = s.lines().collect();
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn middle_cut_keeps_both_ends_in_max_chars(s in "[ab\\né😀]{0,60}", max in 0usize..50) {
            let notice = "<clip>";
            match middle_cut(&s, max, notice) {
                None => prop_assert!(max == 0 || s.chars().count() <= max),
                Some(out) => {
                    prop_assert_eq!(out.chars().count(), max);
                    if max > notice.len() {
                        let room = max - notice.len();
                        let head: String = s.chars().take(room.div_ceil(2)).collect();
                        let n = s.chars().count();
                        let tail: String = s.chars().skip(n - room / 2).collect();
                        prop_assert_eq!(out, format!("{head}{notice}{tail}"));
                    }
                }
            }
        }

        #[test]
        fn crlf_to_lf_drops_only_the_cr_of_a_crlf(s in "[a\\r\\né]{0,40}") {
            prop_assert_eq!(crlf_to_lf(s.clone()), s.replace("\r\n", "\n"));
        }

        #[test]
        fn lf_count_agrees_with_a_naive_count(b in proptest::collection::vec(
            prop_oneof![Just(b'\n'), Just(0x8a_u8), Just(b'\r'), any::<u8>()], 0..600)) {
            let naive = b.iter().filter(|&&c| c == b'\n').count() as u64;
            prop_assert_eq!(lf_count(&b), naive);
        }

        #[test]
        fn terminators_agree_with_a_naive_look(s in "[a\\r\\n]{0,40}") {
            let b = s.as_bytes();
            let lf = (0..b.len()).any(|i| b[i] == b'\n' && (i == 0 || b[i - 1] != b'\r'));
            let crlf = b.windows(2).any(|w| w == b"\r\n");
            prop_assert_eq!(terminators(b), (lf, crlf));
        }
    }
}
