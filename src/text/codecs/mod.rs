//! Legacy encodings as Python's codecs decode them ([`CodecTables::Python`]).
//!
//! encoding_rs decodes by the WHATWG Encoding Standard, as browsers and Node do. Python's
//! codecs, which a Python agent decodes a file with once its detector has named the
//! encoding, differ on a few codes of the East Asian encodings: EUC-JP's `0xA1C1` is
//! U+301C WAVE DASH to Python and U+FF5E FULLWIDTH TILDE to WHATWG; GB2312's `0xA1AA` is
//! U+2015 to Python's `gb2312` and U+2014 to WHATWG's GBK; Big5's ETEN extensions are
//! kana to Python and circled numbers to WHATWG. Under [`CodecTables::Python`] those
//! codes are given Python's characters: [`swaps`] finds them, at character boundaries,
//! and the decoder puts Python's character in place of each. Every other code decodes as
//! before, so a code Python's codec refuses (a Big5-HKSCS character to `big5`) still
//! decodes as WHATWG's; and the single-byte encodings are left alone (Python and WHATWG
//! agree on every byte both decode, but for TIS-620, whose `0x80..=0x9F` WHATWG reads as
//! windows-874).
//!
//! Which of Python's codecs decodes GBK text depends on the name its detector gives:
//! charset-normalizer names text of GB2312's codes alone `GB2312` and other GBK text
//! `GB18030`, so text whose two-byte codes all lie in GB2312's rows (`0xA1..=0xF7`, then
//! `0xA1..=0xFE`) takes `gb2312`'s table and other text `gb18030`'s. Shift_JIS text it
//! names `shift_jis` mostly and `CP932` when a code only cp932 has is in it; cp932
//! decodes as WHATWG's Shift_JIS does, so only text without such a code takes
//! `shift_jis`'s 6 codes. The name is charset-normalizer's choice per file, not the
//! encoding's: on chardet's own test pages it names 24 of 27 EUC-JP pages `euc_jp`
//! (3 `euc_jis_2004`), 18 of 19 GB2312 pages `gb2312`, 24 of 29 Shift_JIS pages
//! `shift_jis`; these tables are the codec it names most.
//!
//! [`CodecTables::Python`]: crate::CodecTables::Python

mod tables;

use super::LegacyEncoding;

/// A code at byte `at` of `len` bytes that Python decodes as `ch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Swap {
    pub at: usize,
    pub len: usize,
    pub ch: char,
}

/// The codes of `bytes` (text in `enc`, starting at a character boundary) that Python's
/// codec decodes otherwise than encoding_rs, in order; none for an encoding whose codes
/// all agree.
pub(crate) fn swaps(enc: LegacyEncoding, bytes: &[u8]) -> Vec<Swap> {
    match enc.name() {
        "euc-jp" => find(bytes, euc_jp_len, tables::EUC_JP),
        "shift_jis" if !cp932_only(bytes) => find(bytes, sjis_len, tables::SHIFT_JIS),
        "gbk" | "gb18030" => {
            let table = if only_gb2312(bytes) {
                tables::GB2312
            } else {
                tables::GB18030
            };
            find(bytes, gbk_len, table)
        }
        "big5" => find(bytes, big5_len, tables::BIG5),
        _ => Vec::new(),
    }
}

/// Walks `bytes` a character at a time (`len` gives a character's length from its first
/// bytes) and looks each multi-byte code up in `table`.
fn find(bytes: &[u8], len: fn(&[u8]) -> usize, table: &[(u32, char)]) -> Vec<Swap> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let n = len(&bytes[at..]);
        if n > 1 && at + n <= bytes.len() {
            let code = bytes[at..at + n]
                .iter()
                .fold(0u32, |c, &b| (c << 8) | u32::from(b));
            if let Ok(i) = table.binary_search_by_key(&code, |&(c, _)| c) {
                out.push(Swap {
                    at,
                    len: n,
                    ch: table[i].1,
                });
            }
        }
        at += n.max(1);
    }
    out
}

/// EUC-JP: `0x8E` and a kana, `0x8F` and two bytes of JIS X 0212, or two bytes of JIS X
/// 0208 from `0xA1`.
fn euc_jp_len(b: &[u8]) -> usize {
    match b[0] {
        0x8E => 2,
        0x8F => 3,
        0xA1..=0xFE => 2,
        _ => 1,
    }
}

/// Shift_JIS: a lead byte of a two-byte code, then a trail byte.
fn sjis_len(b: &[u8]) -> usize {
    match b[0] {
        0x81..=0x9F | 0xE0..=0xFC => 2,
        _ => 1,
    }
}

/// Whether Shift_JIS text `bytes` has a code only cp932 defines: NEC's row 13 (`0x87`),
/// NEC's selection of IBM's (`0xED`, `0xEE`), or user-defined and IBM's (`0xF0..=0xFC`).
fn cp932_only(bytes: &[u8]) -> bool {
    let mut at = 0;
    while at < bytes.len() {
        if matches!(bytes[at], 0x87 | 0xED | 0xEE | 0xF0..=0xFC) {
            return true;
        }
        at += sjis_len(&bytes[at..]);
    }
    false
}

/// GBK and GB18030: a lead byte from `0x81`, then a digit (four bytes) or a trail byte.
fn gbk_len(b: &[u8]) -> usize {
    match (b[0], b.get(1)) {
        (0x81..=0xFE, Some(0x30..=0x39)) => 4,
        (0x81..=0xFE, _) => 2,
        _ => 1,
    }
}

/// Big5: a lead byte from `0x81`, then a trail byte.
fn big5_len(b: &[u8]) -> usize {
    match b[0] {
        0x81..=0xFE => 2,
        _ => 1,
    }
}

/// Whether every multi-byte code of GBK text `bytes` is in GB2312's rows.
fn only_gb2312(bytes: &[u8]) -> bool {
    let mut at = 0;
    while at < bytes.len() {
        let n = gbk_len(&bytes[at..]);
        if n == 4 {
            return false;
        }
        if n == 2 {
            let in_rows =
                matches!(bytes[at], 0xA1..=0xF7) && matches!(bytes.get(at + 1), Some(0xA1..=0xFE));
            if !in_rows {
                return false;
            }
        }
        at += n;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Encoding;
    use proptest::prop_assert_eq;

    fn legacy(label: &str) -> LegacyEncoding {
        match Encoding::for_label(label) {
            Some(Encoding::Legacy(l)) => l,
            other => panic!("{label}: {other:?}"),
        }
    }

    #[test]
    fn the_codes_python_decodes_otherwise_are_found_at_character_boundaries() {
        // `0xA1C1` inside `0xB0A1 0xC1..`: the walk keeps to characters.
        let euc = [b'a', 0xA1, 0xC1, 0xB0, 0xA1, 0xC1, 0xA2, 0x8F, 0xA2, 0xB7];
        let s = swaps(legacy("euc-jp"), &euc);
        assert_eq!(
            s,
            [
                Swap {
                    at: 1,
                    len: 2,
                    ch: '\u{301C}'
                },
                Swap {
                    at: 7,
                    len: 3,
                    ch: '~'
                },
            ]
        );
        // GB2312's codes alone take gb2312's table; a code outside its rows, gb18030's.
        let gb = [0xA1, 0xAA, b'x', 0xA1, 0xA4];
        let s = swaps(legacy("gbk"), &gb);
        assert_eq!(
            s.iter().map(|s| s.ch).collect::<String>(),
            "\u{2015}\u{30FB}"
        );
        let mixed = [0xA1, 0xAA, 0x81, 0x40, 0xA6, 0xD9];
        let s = swaps(legacy("gbk"), &mixed);
        assert_eq!(
            s,
            [Swap {
                at: 4,
                len: 2,
                ch: '\u{E78D}'
            }]
        );
        let four = [0x81, 0x35, 0xF4, 0x37];
        assert_eq!(swaps(legacy("gbk"), &four)[0].ch, '\u{1E3F}');
        // A truncated last code, and encodings without swaps.
        assert!(swaps(legacy("euc-jp"), &[b'a', 0xA1]).is_empty());
        let sjis = [0x81, 0x60, b'a', 0x81, 0x7C];
        let s = swaps(legacy("shift_jis"), &sjis);
        assert_eq!(
            s.iter().map(|s| s.ch).collect::<String>(),
            "\u{301C}\u{2212}"
        );
        // A code of cp932's own: cp932, which decodes as WHATWG does.
        assert!(swaps(legacy("shift_jis"), &[0x81, 0x60, 0x87, 0x40]).is_empty());
        assert!(swaps(legacy("windows-1252"), &[0xA1, 0xC1]).is_empty());
    }

    /// The characters of `tokens` (whole codes of `label`) decoded one by one, each table
    /// code as Python's character: what a decode with Python's tables must give.
    fn one_by_one(label: &str, tokens: &[Vec<u8>], table: &[(u32, char)]) -> String {
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        tokens
            .iter()
            .map(|t| {
                let code = t.iter().fold(0u32, |c, &b| (c << 8) | u32::from(b));
                match table.binary_search_by_key(&code, |&(c, _)| c) {
                    Ok(i) if t.len() > 1 => table[i].1.to_string(),
                    _ => enc.decode_without_bom_handling(t).0.into_owned(),
                }
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn text_of_whole_codes_decodes_as_its_codes_one_by_one(
            picks in proptest::collection::vec((0usize..4, 0usize..1000, 0u8..=255, 0u8..=255), 0..60),
            which in 0usize..4,
        ) {
            use crate::decode::{decode, CodecTables, Utf8Policy};
            let (label, table) = [
                ("euc-jp", tables::EUC_JP),
                ("shift_jis", tables::SHIFT_JIS),
                ("gbk", tables::GB18030),
                ("big5", tables::BIG5),
            ][which];
            let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
            // Tokens: ASCII, a code of the table, or a two-byte code WHATWG decodes to one
            // character (others are skipped).
            let mut tokens: Vec<Vec<u8>> = Vec::new();
            for (kind, i, a, b) in picks {
                let t = match kind {
                    0 => vec![a & 0x7F],
                    1 => {
                        let code = table[i % table.len()].0;
                        let n = if code > 0xFFFFFF { 4 } else if code > 0xFFFF { 3 } else { 2 };
                        code.to_be_bytes()[4 - n..].to_vec()
                    }
                    _ => vec![a | 0x80, b],
                };
                let (d, bad) = enc.decode_without_bom_handling(&t);
                if !bad && d.chars().count() == 1 {
                    tokens.push(t);
                }
            }
            let bytes: Vec<u8> = tokens.concat();
            let got = decode(bytes, Encoding::Legacy(legacy(label)), Utf8Policy::Strict, CodecTables::Python, |o| o)
                .unwrap()
                .text;
            // GBK text of GB2312's codes alone takes gb2312's table, not gb18030's; Shift_JIS
            // text with a code of cp932's own is cp932, which swaps nothing.
            let all = tokens.concat();
            let table = match label {
                "gbk" if only_gb2312(&all) => tables::GB2312,
                "shift_jis" if cp932_only(&all) => &[],
                _ => table,
            };
            prop_assert_eq!(got, one_by_one(label, &tokens, table));
        }
    }

    #[test]
    fn the_tables_are_sorted_and_swap_one_character_for_another() {
        for table in [
            tables::EUC_JP,
            tables::SHIFT_JIS,
            tables::GB2312,
            tables::GB18030,
            tables::BIG5,
        ] {
            assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
        }
        assert_eq!(tables::BIG5.len(), 260);
    }
}
