//! UTF-8's character rules: boundaries, outward snapping, and cutting after N characters.
//!
//! A boundary is 0, the end, or a position whose byte is not a continuation byte
//! (`0b10xxxxxx`). Snapping never moves more than 3 bytes; inside malformed data (a
//! fourth continuation byte in a row) the side stays where it was asked.

use crate::error::Result;

/// Whether `b` is a UTF-8 continuation byte.
pub(crate) fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The greatest boundary `<= start` of a file of `len` bytes, `byte_at(pos)` reading one
/// byte: the contract's outward snapping of a range's start.
pub(crate) fn snap_start(start: u64, len: u64, byte_at: impl Fn(u64) -> Result<u8>) -> Result<u64> {
    let mut s = start;
    for _ in 0..3 {
        if s == 0 || s >= len || !is_continuation(byte_at(s)?) {
            return Ok(s);
        }
        s -= 1;
    }
    // Three continuation bytes in a row are followed (backwards) by a lead byte in valid
    // UTF-8; if this one is a continuation too, the data is malformed: do not move.
    if s > 0 && s < len && is_continuation(byte_at(s)?) {
        return Ok(start);
    }
    Ok(s)
}

/// The least boundary `>= end`; see [`snap_start`].
pub(crate) fn snap_end(end: u64, len: u64, byte_at: impl Fn(u64) -> Result<u8>) -> Result<u64> {
    let mut e = end;
    for _ in 0..3 {
        if e == 0 || e >= len || !is_continuation(byte_at(e)?) {
            return Ok(e);
        }
        e += 1;
    }
    if e < len && is_continuation(byte_at(e)?) {
        return Ok(end);
    }
    Ok(e)
}

/// The first position `p` in `[at, end]` where a byte selection starts as asked: outward
/// snapping leaves `p` where it is. A page that stops inside a line stops there, so that
/// the next page neither repeats nor skips a byte. In valid UTF-8 that is the next
/// character start; inside malformed data, at most 3 bytes further.
pub(crate) fn stable_start(
    at: u64,
    end: u64,
    len: u64,
    byte_at: impl Fn(u64) -> Result<u8>,
) -> Result<u64> {
    let mut p = at;
    while p < end && snap_start(p, len, &byte_at)? != p {
        p += 1;
    }
    Ok(p.min(end))
}

/// The largest boundary `<= at` in `bytes`, moving back at most 3 bytes.
pub(crate) fn floor_boundary(bytes: &[u8], at: usize) -> usize {
    let mut i = at.min(bytes.len());
    for _ in 0..3 {
        if i == 0 || i == bytes.len() || !is_continuation(bytes[i]) {
            return i;
        }
        i -= 1;
    }
    if i < bytes.len() && is_continuation(bytes[i]) {
        at.min(bytes.len())
    } else {
        i
    }
}

/// The longest prefix of `s` of at most `max` bytes that ends on a character boundary
/// (Codex's `take_bytes_at_char_boundary`).
pub(crate) fn floor_str(s: &str, max: u64) -> &str {
    let at = usize::try_from(max).unwrap_or(usize::MAX).min(s.len());
    &s[..floor_boundary(s.as_bytes(), at)]
}

/// `s` up to the first character boundary at or after byte `max`: every character that
/// starts before `max`, so up to 3 bytes more (Forge's `truncate_line`).
pub(crate) fn ceil_str(s: &str, max: u64) -> &str {
    let at = usize::try_from(max).unwrap_or(usize::MAX).min(s.len());
    let end = (at..s.len()).find(|&i| !is_continuation(s.as_bytes()[i]));
    &s[..end.unwrap_or(s.len())]
}

/// Where the `(n + 1)`th character of `body` starts, if `body` has more than `n`.
pub(crate) fn char_cut(body: &[u8], n: u64) -> Option<usize> {
    if (body.len() as u64) <= n {
        return None;
    }
    let mut chars = 0u64;
    for (i, &b) in body.iter().enumerate() {
        if !is_continuation(b) {
            if chars == n {
                return Some(i);
            }
            chars += 1;
        }
    }
    None
}

/// Where the character that would take `body` past `n` UTF-16 code units starts, if it
/// holds more than `n`: the units of the text as a lossy decoder shows it (JavaScript's
/// `TextDecoder`, `String::from_utf8_lossy`), where each invalid sequence (a maximal
/// subpart) is one U+FFFD, one unit. A character of 4 UTF-8 bytes is two units (a
/// surrogate pair, never split), any other one. The cut is where a character or an
/// invalid sequence starts; one that starts on a stray continuation byte is not a
/// boundary for byte selections, which the caller settles with the file's bytes before it.
pub(crate) fn utf16_cut(body: &[u8], n: u64) -> Option<usize> {
    if (body.len() as u64) <= n {
        return None; // never more units than bytes
    }
    let mut units = 0u64;
    let mut at = 0usize;
    for chunk in body.utf8_chunks() {
        for (i, c) in chunk.valid().char_indices() {
            let w = c.len_utf16() as u64;
            if units + w > n {
                return Some(at + i);
            }
            units += w;
        }
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            if units + 1 > n {
                return Some(at);
            }
            units += 1;
            at += chunk.invalid().len();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn utf16_cut_counts_what_a_lossy_decode_shows(
            bytes in proptest::collection::vec(any::<u8>(), 0..48), n in 0u64..50,
        ) {
            // The naive way: decode lossily; a prefix of the bytes is whole where its own
            // lossy text is a prefix of the file's. The cut is the last such prefix
            // within `n` units, if the whole text is over `n`.
            let shown = String::from_utf8_lossy(&bytes);
            let units = |e: usize| String::from_utf8_lossy(&bytes[..e]).encode_utf16().count() as u64;
            let naive = (units(bytes.len()) > n).then(|| {
                (0..=bytes.len())
                    .filter(|&e| shown.starts_with(&*String::from_utf8_lossy(&bytes[..e])))
                    .filter(|&e| units(e) <= n)
                    .max()
                    .unwrap()
            });
            prop_assert_eq!(utf16_cut(&bytes, n), naive);
        }
    }

    #[test]
    fn an_invalid_sequence_is_one_utf16_unit_where_cut() {
        // Big5 bytes read as UTF-8: each stray byte is one U+FFFD, as shown.
        let big5 = b"\xa7\x41\xa6\x6e\xa1\x41\xa7\xda";
        let shown = String::from_utf8_lossy(big5).encode_utf16().count() as u64;
        assert_eq!(shown, 8);
        assert_eq!(utf16_cut(big5, shown), None);
        assert_eq!(utf16_cut(big5, shown - 1), Some(7));
        assert_eq!(utf16_cut(b"\xff\xfeab", 2), Some(2));
        // A truncated sequence is one U+FFFD however many bytes it has.
        assert_eq!(utf16_cut(b"\xe6\x97a\x80", 2), Some(3));
    }

    proptest! {
        #[test]
        fn utf16_cut_agrees_with_str_encode_utf16(s in "[aé😀あ]{0,30}", n in 0u64..40) {
            let naive = {
                let mut units = 0u64;
                s.char_indices().find(|(_, c)| {
                    units += c.len_utf16() as u64;
                    units > n
                }).map(|(i, _)| i)
            };
            prop_assert_eq!(utf16_cut(s.as_bytes(), n), naive);
        }
    }

    /// The contract's rule, spelled out naively: scan outward one byte at a time.
    fn naive_snap(bytes: &[u8], start: usize, end: usize) -> (usize, usize) {
        let boundary = |p: usize| p == 0 || p >= bytes.len() || !is_continuation(bytes[p]);
        let s = (start.saturating_sub(3)..=start)
            .rev()
            .find(|&p| boundary(p))
            .unwrap_or(start);
        let e = (end..=(end + 3).min(bytes.len()))
            .find(|&p| boundary(p))
            .unwrap_or(end);
        (s, e)
    }

    proptest! {
        #[test]
        fn snapping_agrees_with_the_naive_rule(
            bytes in proptest::collection::vec(any::<u8>(), 0..64),
            a in 0usize..70, b in 0usize..70,
        ) {
            let len = bytes.len();
            let (a, b) = (a.min(len), b.min(len));
            let (start, end) = (a.min(b), a.max(b));
            let at = |p: u64| Ok(bytes[p as usize]);
            let s = snap_start(start as u64, len as u64, at).unwrap() as usize;
            let e = snap_end(end as u64, len as u64, at).unwrap() as usize;
            prop_assert_eq!((s, e), naive_snap(&bytes, start, end));
        }

        #[test]
        fn char_cut_agrees_with_str_on_valid_text(s in "\\PC{0,40}", n in 0u64..45) {
            let naive = s.char_indices().nth(n as usize).map(|(i, _)| i);
            prop_assert_eq!(char_cut(s.as_bytes(), n), naive);
        }

        #[test]
        fn floor_boundary_agrees_with_str_on_valid_text(s in "\\PC{0,40}", at in 0usize..200) {
            let at = at.min(s.len());
            let naive = (0..=at).rev().find(|&i| s.is_char_boundary(i)).unwrap();
            prop_assert_eq!(floor_boundary(s.as_bytes(), at), naive);
        }

        #[test]
        fn floor_str_is_the_longest_prefix_within_max(s in "\\PC{0,40}", max in 0u64..200) {
            let naive = s
                .char_indices()
                .map(|(i, c)| i + c.len_utf8())
                .take_while(|&end| end as u64 <= max)
                .last()
                .unwrap_or(0);
            prop_assert_eq!(floor_str(&s, max), &s[..naive]);
        }

        #[test]
        fn ceil_str_keeps_every_character_that_starts_before_max(s in "\\PC{0,40}", max in 0u64..200) {
            let naive: String = s.char_indices().take_while(|&(i, _)| (i as u64) < max).map(|(_, c)| c).collect();
            prop_assert_eq!(ceil_str(&s, max), naive.as_str());
        }
    }
}
