//! Code units: where line feeds and characters begin in each encoding's layout.
//!
//! The read path works on file bytes in every encoding, so that offsets, budgets and
//! continuations stay in file bytes. What differs between encodings is only how to find
//! a line feed and where a character may begin; this module answers both.
//!
//! - UTF-8 (the default): LF is the byte `0x0A`, a character begins at any byte that is
//!   not a continuation byte (`0b10xxxxxx`).
//! - UTF-16 and UTF-32: LF is the code unit `0x000A` at an offset that is a multiple of
//!   the unit width (2 or 4; the BOM keeps that alignment), found with `memchr` on the
//!   `0x0A` byte and a check of the rest of the unit. A character begins at every unit
//!   except the low half of a surrogate pair.
//! - Legacy single-byte encodings (windows-1252 ...): every byte is a character.
//! - Legacy multi-byte encodings (Shift_JIS, GBK/GB18030, Big5, EUC-KR, EUC-JP): lead and
//!   trail bytes cannot be told apart locally, but any byte below `0x30` is a character of
//!   its own in all of them (trail bytes are `0x30` and above), so boundaries are found by
//!   walking forward from such a byte. LF is the byte `0x0A` as in ASCII.
//!
//! Buffers handed to these functions start at a character boundary (a line start or a
//! snapped start) unless stated otherwise; `base` is the file offset of a buffer's first
//! byte and only matters for the alignment of wide units.

use memchr::memchr_iter;

/// How far back snapping in a legacy multi-byte encoding looks for a byte below `0x30`
/// before giving up (and not moving).
const LEGACY_SYNC_WINDOW: u64 = 4096;

/// The code-unit layout of an encoding, as far as lines and characters are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Units {
    /// UTF-8.
    #[default]
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
    /// A legacy encoding whose characters are single bytes, or a stateful one
    /// (ISO-2022-JP) that has no local boundaries.
    SingleByte,
    /// A legacy multi-byte encoding, with the rule that gives each character's length.
    MultiByte(Multi),
}

/// Character-length rules of the legacy multi-byte encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Multi {
    /// Shift_JIS: leads `0x81..=0x9F`, `0xE0..=0xFC`, two bytes.
    ShiftJis,
    /// EUC-JP: `0x8E` two bytes, `0x8F` three, `0xA1..=0xFE` two.
    EucJp,
    /// GBK / GB18030: lead `0x81..=0xFE`, four bytes when the second is a digit.
    Gb18030,
    /// Big5, EUC-KR: lead `0x81..=0xFE`, two bytes.
    DoubleByte,
}

impl Multi {
    /// The greatest boundary `<= at` in `bytes`, which starts at one.
    fn floor(self, bytes: &[u8], at: usize) -> usize {
        let mut i = 0;
        while i < at.min(bytes.len()) {
            let n = self.char_len(&bytes[i..]);
            if i + n > at {
                break;
            }
            i += n;
        }
        i
    }

    /// The greatest boundary `<= pos` in the file, found by walking forward from the
    /// last byte below `0x30` before `pos` (a character of its own in every supported
    /// encoding); `None` when there is none within [`LEGACY_SYNC_WINDOW`] bytes.
    fn floor_in_file(
        self,
        pos: u64,
        len: u64,
        text_start: u64,
        read: &mut dyn FnMut(u64, u64) -> crate::error::Result<Vec<u8>>,
    ) -> crate::error::Result<Option<u64>> {
        if pos <= text_start || pos >= len {
            return Ok(Some(pos.max(text_start)));
        }
        let lo = pos.saturating_sub(LEGACY_SYNC_WINDOW).max(text_start);
        let head = read(lo, pos)?;
        let sync = match head.iter().rposition(|&b| b < 0x30) {
            Some(i) => i + 1,
            None if lo == text_start => 0,
            None => return Ok(None),
        };
        Ok(Some(
            lo + (sync + self.floor(&head[sync..], head.len() - sync)) as u64,
        ))
    }

    /// Length of the character that begins with `bytes[0]` (1 to 4; it may reach past
    /// the end of `bytes`).
    fn char_len(self, bytes: &[u8]) -> usize {
        let b = bytes[0];
        match self {
            Multi::ShiftJis if matches!(b, 0x81..=0x9F | 0xE0..=0xFC) => 2,
            Multi::EucJp if b == 0x8F => 3,
            Multi::EucJp if b == 0x8E || (0xA1..=0xFE).contains(&b) => 2,
            Multi::Gb18030 if (0x81..=0xFE).contains(&b) => {
                if bytes.get(1).is_some_and(|c| c.is_ascii_digit()) {
                    4
                } else {
                    2
                }
            }
            Multi::DoubleByte if (0x81..=0xFE).contains(&b) => 2,
            _ => 1,
        }
    }
}

impl Units {
    /// Bytes per code unit: 1, 2 or 4.
    pub fn width(self) -> usize {
        match self {
            Units::Utf16Le | Units::Utf16Be => 2,
            Units::Utf32Le | Units::Utf32Be => 4,
            _ => 1,
        }
    }

    /// The length in file bytes of the character that begins with `bytes[0]` (it may
    /// reach past the end of `bytes`): the unit width, or a legacy lead byte's rule.
    pub fn char_len_at(self, bytes: &[u8]) -> usize {
        match self {
            Units::MultiByte(m) => m.char_len(bytes),
            _ => self.width(),
        }
    }

    pub fn is_wide(self) -> bool {
        self.width() > 1
    }

    fn big_endian(self) -> bool {
        matches!(self, Units::Utf16Be | Units::Utf32Be)
    }

    /// `x` rounded up to a multiple of the unit width.
    pub fn round_up(self, x: u64) -> u64 {
        let w = self.width() as u64;
        x.div_ceil(w) * w
    }

    /// `x` rounded down to a multiple of the unit width.
    pub fn align_down(self, x: u64) -> u64 {
        x - x % self.width() as u64
    }

    /// The code unit holding the ASCII character `c`, in file bytes.
    fn unit_of(self, c: u8) -> &'static [u8] {
        match (self, c) {
            (Units::Utf16Le, b'\n') => &[b'\n', 0],
            (Units::Utf16Le, _) => &[b'\r', 0],
            (Units::Utf16Be, b'\n') => &[0, b'\n'],
            (Units::Utf16Be, _) => &[0, b'\r'],
            (Units::Utf32Le, b'\n') => &[b'\n', 0, 0, 0],
            (Units::Utf32Le, _) => &[b'\r', 0, 0, 0],
            (Units::Utf32Be, b'\n') => &[0, 0, 0, b'\n'],
            (Units::Utf32Be, _) => &[0, 0, 0, b'\r'],
            (_, b'\n') => b"\n",
            _ => b"\r",
        }
    }

    /// The LF terminator in file bytes.
    pub fn lf(self) -> &'static [u8] {
        match self {
            Units::Utf16Le => &[b'\n', 0],
            Units::Utf16Be => &[0, b'\n'],
            Units::Utf32Le => &[b'\n', 0, 0, 0],
            Units::Utf32Be => &[0, 0, 0, b'\n'],
            _ => b"\n",
        }
    }

    /// The CR LF terminator in file bytes.
    pub fn crlf(self) -> &'static [u8] {
        match self {
            Units::Utf16Le => &[b'\r', 0, b'\n', 0],
            Units::Utf16Be => &[0, b'\r', 0, b'\n'],
            Units::Utf32Le => &[b'\r', 0, 0, 0, b'\n', 0, 0, 0],
            Units::Utf32Be => &[0, 0, 0, b'\r', 0, 0, 0, b'\n'],
            _ => b"\r\n",
        }
    }

    /// For a `0x0A` byte at `i` of `bytes` (file offset `base`): the end of the LF code
    /// unit it belongs to, if it is one and lies wholly inside `bytes`.
    fn lf_end_at(self, base: u64, bytes: &[u8], i: usize) -> Option<usize> {
        if !self.is_wide() {
            return Some(i + 1);
        }
        let w = self.width();
        let at = if self.big_endian() { w - 1 } else { 0 };
        let u = i.checked_sub(at)?;
        let unit = bytes.get(u..u + w)?;
        ((base + u as u64).is_multiple_of(w as u64) && unit == self.unit_of(b'\n')).then_some(u + w)
    }

    /// The offsets (in `bytes`) just past each LF code unit wholly inside `bytes`, in
    /// order; double-ended, for backward searches.
    pub fn lf_ends(self, base: u64, bytes: &[u8]) -> impl DoubleEndedIterator<Item = usize> + '_ {
        memchr_iter(b'\n', bytes).filter_map(move |i| self.lf_end_at(base, bytes, i))
    }

    /// The number of LF code units in `bytes`.
    pub fn count_lf(self, base: u64, bytes: &[u8]) -> u64 {
        if self.is_wide() {
            self.lf_ends(base, bytes).count() as u64
        } else {
            crate::text::lf_count(bytes)
        }
    }

    /// The end of the first LF code unit in `bytes`.
    pub fn find_lf(self, base: u64, bytes: &[u8]) -> Option<usize> {
        if self.is_wide() {
            self.lf_ends(base, bytes).next()
        } else {
            memchr::memchr(b'\n', bytes).map(|i| i + 1)
        }
    }

    /// The end of the last LF code unit in `bytes`.
    pub fn last_lf(self, base: u64, bytes: &[u8]) -> Option<usize> {
        if self.is_wide() {
            self.lf_ends(base, bytes).next_back()
        } else {
            memchr::memrchr(b'\n', bytes).map(|i| i + 1)
        }
    }

    /// Whether `bytes` ends with an LF code unit.
    pub fn ends_with_lf(self, base: u64, bytes: &[u8]) -> bool {
        let w = self.width();
        bytes.len() >= w
            && bytes.ends_with(self.lf())
            && (base + (bytes.len() - w) as u64).is_multiple_of(w as u64)
    }

    /// Whether the code unit ending at `end` in `bytes` is CR.
    pub fn cr_before(self, base: u64, bytes: &[u8], end: usize) -> bool {
        let w = self.width();
        end >= w
            && end <= bytes.len()
            && &bytes[end - w..end] == self.unit_of(b'\r')
            && (base + (end - w) as u64).is_multiple_of(w as u64)
    }

    /// Rewrites each lone CR code unit of `bytes` (file offset `base`, whole units from a
    /// unit boundary) as an LF unit of the same width, so that it ends a line and every
    /// offset stays a file offset: the universal newlines of
    /// [`crate::LineEndings::Universal`]. A CR is lone when the unit after it is not LF;
    /// for the last unit of `bytes`, `next_is_lf` says whether the unit after `bytes` is
    /// one (`false` at the end of the text). A CR LF stays as it is.
    pub fn lone_crs_to_lf(self, base: u64, bytes: &mut [u8], next_is_lf: bool) {
        let w = self.width();
        let (cr, lf) = (self.unit_of(b'\r'), self.unit_of(b'\n'));
        let whole = bytes.len() - bytes.len() % w;
        let mut from = 0;
        while let Some(i) = memchr::memchr(b'\r', &bytes[from..whole]).map(|i| from + i) {
            from = i + 1;
            // The unit the CR byte is in; a unit after it is not rewritten yet.
            let u = if self.big_endian() {
                i.checked_sub(w - 1)
            } else {
                Some(i)
            };
            let Some(u) = u.filter(|&u| {
                (base + u as u64).is_multiple_of(w as u64) && bytes.get(u..u + w) == Some(cr)
            }) else {
                continue;
            };
            let lone = match bytes.get(u + w..u + 2 * w) {
                Some(next) => next != lf,
                None => !next_is_lf,
            };
            if lone {
                bytes[u..u + w].copy_from_slice(lf);
            }
        }
    }

    /// Reads the UTF-16 code unit at `i` (no bounds check beyond the slice's).
    fn u16_at(self, bytes: &[u8], i: usize) -> Option<u16> {
        let pair = [*bytes.get(i)?, *bytes.get(i + 1)?];
        Some(if self.big_endian() {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        })
    }

    /// Whether position `i` of `bytes` (which starts at a boundary) is a character
    /// boundary as far as the bytes around it tell.
    fn utf16_splits_pair(self, bytes: &[u8], i: usize) -> bool {
        i >= 2
            && self.u16_at(bytes, i - 2).is_some_and(is_high_surrogate)
            && self.u16_at(bytes, i).is_some_and(is_low_surrogate)
    }

    /// The greatest character boundary `<= at` in `bytes`, which starts at one.
    pub fn floor_boundary(self, bytes: &[u8], at: usize) -> usize {
        let at = at.min(bytes.len());
        match self {
            Units::Utf8 => super::utf8::floor_boundary(bytes, at),
            Units::SingleByte => at,
            Units::Utf16Le | Units::Utf16Be => {
                let a = at & !1;
                // Never end between the halves of a pair; a high surrogate at the very end
                // of the buffer may be the first half of one that was not kept.
                let high_before =
                    a >= 2 && self.u16_at(bytes, a - 2).is_some_and(is_high_surrogate);
                if high_before && (a == bytes.len() || self.utf16_splits_pair(bytes, a)) {
                    a - 2
                } else {
                    a
                }
            }
            Units::Utf32Le | Units::Utf32Be => at & !3,
            Units::MultiByte(m) => m.floor(bytes, at),
        }
    }

    /// Where the `(n + 1)`th character of `body` (which starts at a boundary) begins, if
    /// `body` has more than `n` characters.
    pub fn char_cut(self, body: &[u8], n: u64) -> Option<usize> {
        match self {
            Units::Utf8 => super::utf8::char_cut(body, n),
            Units::SingleByte => ((body.len() as u64) > n).then_some(n as usize),
            Units::Utf32Le | Units::Utf32Be => {
                let at = n.saturating_mul(4);
                (at < body.len() as u64).then_some(at as usize)
            }
            Units::Utf16Le | Units::Utf16Be => {
                let mut chars = 0u64;
                let mut i = 0;
                while i + 1 < body.len() {
                    if !self.utf16_splits_pair(body, i) {
                        if chars == n {
                            return Some(i);
                        }
                        chars += 1;
                    }
                    i += 2;
                }
                None
            }
            Units::MultiByte(m) => {
                let mut i = 0;
                let mut chars = 0u64;
                while i < body.len() {
                    if chars == n {
                        return Some(i);
                    }
                    i += m.char_len(&body[i..]);
                    chars += 1;
                }
                None
            }
        }
    }

    /// Where the character that would take `body` (which starts at a boundary) past `n`
    /// UTF-16 code units begins, if it holds more: JavaScript's `length`. A surrogate
    /// pair is never split (the cut is before it).
    pub fn utf16_cut(self, body: &[u8], n: u64) -> Option<usize> {
        match self {
            Units::Utf8 => super::utf8::utf16_cut(body, n),
            Units::Utf16Le | Units::Utf16Be => {
                let at = usize::try_from(n.saturating_mul(2)).unwrap_or(usize::MAX);
                if at >= body.len() & !1 {
                    None
                } else if self.utf16_splits_pair(body, at) {
                    Some(at - 2)
                } else {
                    Some(at)
                }
            }
            Units::Utf32Le | Units::Utf32Be => {
                let mut units = 0u64;
                for (k, u) in body.chunks_exact(4).enumerate() {
                    let a = [u[0], u[1], u[2], u[3]];
                    let c = if self == Units::Utf32Be {
                        u32::from_be_bytes(a)
                    } else {
                        u32::from_le_bytes(a)
                    };
                    let w = if c >= 0x1_0000 { 2 } else { 1 };
                    if units + w > n {
                        return Some(k * 4);
                    }
                    units += w;
                }
                None
            }
            // Legacy encodings hold only characters of the Basic Multilingual Plane.
            Units::SingleByte | Units::MultiByte(_) => self.char_cut(body, n),
        }
    }

    /// Snaps a byte range outward to character boundaries: the greatest boundary
    /// `<= start` and the least `>= end`, with `read(lo, hi)` giving file bytes.
    /// `text_start` (the end of a BOM) is the lowest boundary. UTF-8 is handled by the
    /// caller with the contract's rule; this covers the other layouts.
    pub fn snap(
        self,
        start: u64,
        end: u64,
        len: u64,
        text_start: u64,
        read: &mut dyn FnMut(u64, u64) -> crate::error::Result<Vec<u8>>,
    ) -> crate::error::Result<(u64, u64)> {
        let start = start.max(text_start);
        let end = end.max(start);
        match self {
            Units::Utf8 | Units::SingleByte => Ok((start, end)),
            Units::Utf32Le | Units::Utf32Be => {
                Ok((self.align_down(start), self.round_up(end).min(len)))
            }
            Units::Utf16Le | Units::Utf16Be => {
                let mut s = self.align_down(start);
                if s >= text_start + 2 && s + 2 <= len {
                    let b = read(s - 2, s + 2)?;
                    if self.utf16_splits_pair(&b, 2) {
                        s -= 2;
                    }
                }
                let mut e = self.round_up(end).min(len);
                if e >= s + 2 && e + 2 <= len {
                    let b = read(e - 2, e + 2)?;
                    if self.utf16_splits_pair(&b, 2) {
                        e += 2;
                    }
                }
                Ok((s, e))
            }
            Units::MultiByte(m) => {
                let Some(s) = m.floor_in_file(start, len, text_start, read)? else {
                    return Ok((start, end));
                };
                let e = match m.floor_in_file(end, len, text_start, read)? {
                    Some(b) if b < end => {
                        let bytes = read(b, (b + 4).min(len))?;
                        b + m.char_len(&bytes) as u64
                    }
                    _ => end,
                };
                Ok((s, e.max(end).min(len)))
            }
        }
    }
}

fn is_high_surrogate(u: u16) -> bool {
    (0xD800..0xDC00).contains(&u)
}

fn is_low_surrogate(u: u16) -> bool {
    (0xDC00..0xE000).contains(&u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_wide_newlines_only_on_units() {
        // "a\n上\n" in UTF-16LE: 上 is U+4E0A, whose low byte is 0x0A.
        let b = [b'a', 0, b'\n', 0, 0x0A, 0x4E, b'\n', 0];
        let ends: Vec<usize> = Units::Utf16Le.lf_ends(0, &b).collect();
        assert_eq!(ends, vec![4, 8]);
        // The same bytes one off their alignment hold no LF unit.
        assert_eq!(Units::Utf16Le.count_lf(0, &b[1..]), 0);
        assert_eq!(Units::Utf16Le.count_lf(1, &b[1..]), 2);
        let be = [0, b'a', 0, b'\n', 0x4E, 0x0A, 0, b'\n'];
        assert_eq!(
            Units::Utf16Be.lf_ends(0, &be).collect::<Vec<_>>(),
            vec![4, 8]
        );
        assert!(Units::Utf16Be.ends_with_lf(0, &be));
        assert!(Units::Utf16Le.cr_before(0, &[b'\r', 0, b'\n', 0], 2));
    }

    #[test]
    fn utf16_boundaries_keep_surrogate_pairs() {
        // "a😀b": 😀 is D83D DE00.
        let b = [b'a', 0, 0x3D, 0xD8, 0x00, 0xDE, b'b', 0];
        let u = Units::Utf16Le;
        assert_eq!(u.floor_boundary(&b, 5), 2);
        assert_eq!(u.floor_boundary(&b, 4), 2);
        assert_eq!(u.floor_boundary(&b, 6), 6);
        assert_eq!(u.char_cut(&b, 1), Some(2));
        assert_eq!(u.char_cut(&b, 2), Some(6));
        assert_eq!(u.char_cut(&b, 3), None);
        let mut read = |lo: u64, hi: u64| Ok(b[lo as usize..hi as usize].to_vec());
        assert_eq!(u.snap(3, 5, 8, 0, &mut read).unwrap(), (2, 6));
        assert_eq!(u.snap(4, 4, 8, 0, &mut read).unwrap(), (2, 6));
        assert_eq!(u.snap(2, 6, 8, 0, &mut read).unwrap(), (2, 6));
    }

    #[test]
    fn shift_jis_boundaries_walk_from_a_sync_byte() {
        // "a\nあい" in Shift_JIS: あ = 82 A0, い = 82 A2.
        let b = [b'a', b'\n', 0x82, 0xA0, 0x82, 0xA2];
        let u = Units::MultiByte(Multi::ShiftJis);
        let mut read = |lo: u64, hi: u64| Ok(b[lo as usize..hi as usize].to_vec());
        assert_eq!(u.snap(3, 5, 6, 0, &mut read).unwrap(), (2, 6));
        assert_eq!(u.snap(4, 4, 6, 0, &mut read).unwrap(), (4, 4));
        assert_eq!(u.floor_boundary(&b[2..], 3), 2);
        assert_eq!(u.char_cut(&b[2..], 1), Some(2));
    }
}
