//! [`ControlBytes::SampleShares`](crate::ControlBytes::SampleShares): the rule
//! binaryornot 0.4.4 applies to a file's first 1,024 bytes, with what its chardet 5.2.0
//! can be stated to guess with confidence.

use super::{bom, Encoding, UCS4_2143_BOM, UCS4_3412_BOM};

/// The bytes [`ControlBytes::SampleShares`](crate::ControlBytes::SampleShares) looks at:
/// binaryornot's chunk.
pub const SHARES_SAMPLE: usize = 1024;

/// Whether the first [`SHARES_SAMPLE`] bytes of `sample` are binary under the rule;
/// `found` is the encoding classification found for the sample.
pub(crate) fn binary(sample: &[u8], found: Encoding) -> bool {
    let s = &sample[..sample.len().min(SHARES_SAMPLE)];
    if s.is_empty() {
        return false;
    }
    let printable = |b: u8| matches!(b, b'\n' | b'\r' | b'\t' | 0x0C | 0x08 | 0x20..=0x7E);
    let low = s.iter().filter(|&&b| !printable(b)).count();
    let not_high = s.iter().filter(|&&b| b < 0x7F).count();
    let (r1, r2) = (
        low as f64 / s.len() as f64,
        not_high as f64 / s.len() as f64,
    );
    let likely = (r1 > 0.3 && r2 < 0.05) || (r1 > 0.8 && r2 > 0.8);
    if likely || s.contains(&0) {
        return !decodes_confidently(s);
    }
    // An FF byte without NUL is binary unless chardet is over 0.9 sure of an encoding
    // the sample decodes in: a byte order mark's, UTF-8 (never, with an FF byte), or a
    // legacy guess. Of the legacy encodings in which FF is a character, chardet 5.2.0 is
    // that sure only of the Cyrillic ones, whose language models it has (windows-1251's
    // `я` is FF): its Latin-1 prober scales its confidence by 0.73, its Turkish model
    // never sees `ÿ` in Turkish, and FF is no character of the East Asian encodings,
    // Greek's, Hebrew's or Thai's. So a sample the classification found Cyrillic is text.
    if !s.contains(&0xFF) {
        return false;
    }
    if has_mark(s) {
        return !decodes_confidently(s);
    }
    !cyrillic(found)
}

/// Whether `e` is a Cyrillic legacy encoding (one chardet 5.2.0 has a model of).
fn cyrillic(e: Encoding) -> bool {
    let Encoding::Legacy(l) = e else { return false };
    matches!(
        l.name(),
        "windows-1251" | "koi8-r" | "koi8-u" | "iso-8859-5" | "ibm866" | "x-mac-cyrillic"
    )
}

/// Whether the sample starts with a byte order mark chardet 5.2.0 answers at once: one
/// [`bom`] reads by, or UCS-4's in the 2143 order.
fn has_mark(s: &[u8]) -> bool {
    bom(s).is_some() || s.starts_with(UCS4_2143_BOM)
}

/// Whether the whole sample decodes in an encoding chardet 5.2.0 names with a
/// confidence over 0.9 (other than ASCII): a byte order mark's, or UTF-8 as its UTF-8
/// prober reads it.
fn decodes_confidently(s: &[u8]) -> bool {
    // Marks of UCS-4 orders Python has no codec for.
    if s.starts_with(UCS4_3412_BOM) || s.starts_with(UCS4_2143_BOM) {
        return false;
    }
    match bom(s) {
        Some(Encoding::Utf8) => std::str::from_utf8(&s[3..]).is_ok(),
        Some(Encoding::Utf32Le) => utf32(&s[4..], false),
        Some(Encoding::Utf32Be) => utf32(&s[4..], true),
        Some(Encoding::Utf16Le) => utf16(&s[2..], false),
        Some(Encoding::Utf16Be) => utf16(&s[2..], true),
        Some(Encoding::Legacy(_)) | None => utf8_prober_sure(s),
    }
}

/// chardet 5.2.0's UTF-8 prober over 0.9: valid UTF-8 throughout, with at least four
/// 2- or 3-byte characters (its confidence `1 - 0.99 * 0.5^n`), and none of what its
/// state machine refuses: a 4-byte sequence (every character beyond U+FFFF, emoji
/// included) or the bytes ESC, SO and SI.
fn utf8_prober_sure(s: &[u8]) -> bool {
    if std::str::from_utf8(s).is_err()
        || s.iter().any(|&b| matches!(b, 0x0E | 0x0F | 0x1B | 0xF0..))
    {
        return false;
    }
    s.iter().filter(|&&b| b >= 0xC0).count() >= 4
}

/// Python's `utf-16` codec after its mark: whole units, surrogates paired.
fn utf16(s: &[u8], be: bool) -> bool {
    if !s.len().is_multiple_of(2) {
        return false;
    }
    let units = s.chunks_exact(2).map(|u| {
        if be {
            u16::from_be_bytes([u[0], u[1]])
        } else {
            u16::from_le_bytes([u[0], u[1]])
        }
    });
    char::decode_utf16(units).all(|c| c.is_ok())
}

/// Python's `utf-32` codec after its mark: whole units, each a character.
fn utf32(s: &[u8], be: bool) -> bool {
    s.len().is_multiple_of(4)
        && s.chunks_exact(4).all(|u| {
            let a = [u[0], u[1], u[2], u[3]];
            let c = if be {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            };
            char::from_u32(c).is_some()
        })
}
