//! Turning selected bytes into text: UTF-8 under the UTF-8 policy, and the other
//! encodings classification finds (UTF-16/32, legacy encodings) decoded to UTF-8.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::result::InvalidUtf8;
use crate::text::Encoding;

/// What to do with invalid UTF-8 in the returned bytes (and with invalid sequences in
/// the file's encoding when it is not UTF-8).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Utf8Policy {
    /// Replace each invalid sequence with U+FFFD and report how many there were and where
    /// the first one is (`invalid_utf8` in the result). The default.
    #[default]
    Lossy,
    /// Fail with `Invalid UTF-8 at byte X`, X counted from the start of the file (for
    /// other encodings, `Invalid utf-16le at byte X` and so on: [`Error::InvalidText`]).
    Strict,
}

/// Which tables decode a legacy encoding ([`Reader::codec_tables`](crate::Reader::codec_tables)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodecTables {
    /// The WHATWG Encoding Standard's, as browsers, Node's `TextDecoder` and encoding_rs
    /// decode. The default.
    #[default]
    Whatwg,
    /// Python's codecs' where they differ (a Python agent decodes with them): EUC-JP's
    /// `0xA1C1` is U+301C WAVE DASH, not U+FF5E (and Shift_JIS's `0x8160`, unless a code
    /// only cp932 has is read with it); GBK text of GB2312's codes alone is Python's
    /// `gb2312` (`0xA1AA` U+2015, not U+2014) and other GBK text its `gb18030`; Big5's
    /// ETEN extensions are Python's `big5` kana, not circled numbers. 296 codes in all,
    /// each swapped for one character, as the codec charset-normalizer names most often
    /// for such text decodes it; every other code, and every single-byte encoding,
    /// decodes as [`CodecTables::Whatwg`].
    Python,
}

/// Decoded text, the exact bytes when they differ from it, and the report.
pub(crate) struct Decoded {
    pub text: String,
    pub raw: Option<Vec<u8>>,
    pub invalid: Option<InvalidUtf8>,
}

/// Decodes `bytes`; `file_offset` maps an offset in `bytes` to the file for messages.
///
/// Valid input (the common case) is checked once with simdutf8 and moved; only invalid
/// input takes the slower path that counts and replaces.
pub(crate) fn decode_utf8(
    bytes: Vec<u8>,
    policy: Utf8Policy,
    file_offset: impl Fn(u64) -> u64,
) -> Result<Decoded> {
    if simdutf8::basic::from_utf8(&bytes).is_ok() {
        // SAFETY: simdutf8 has just checked that `bytes` are valid UTF-8 (checking them
        // again with `String::from_utf8` cost as much as the rest of a whole read's
        // decoding).
        let text = unsafe { String::from_utf8_unchecked(bytes) };
        return Ok(Decoded {
            text,
            raw: None,
            invalid: None,
        });
    }
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut count = 0u64;
    let mut first = None;
    let mut rest = &bytes[..];
    let mut at = 0u64;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                text.push_str(s);
                break;
            }
            Err(e) => {
                let good = e.valid_up_to();
                let bad_at = at + good as u64;
                if policy == Utf8Policy::Strict {
                    return Err(Error::InvalidUtf8 {
                        offset: crate::error::int(file_offset(bad_at)),
                    });
                }
                // The first `valid_up_to` bytes are valid UTF-8 by the error's contract.
                text.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                text.push(char::REPLACEMENT_CHARACTER);
                count += 1;
                first.get_or_insert(file_offset(bad_at));
                let skip = good + e.error_len().unwrap_or(rest.len() - good);
                rest = &rest[skip..];
                at += skip as u64;
            }
        }
    }
    Ok(Decoded {
        text,
        invalid: first.map(|first_offset| InvalidUtf8 {
            count,
            first_offset,
        }),
        raw: Some(bytes),
    })
}

/// Decodes `bytes` (file bytes starting at a character boundary) from `encoding` to
/// UTF-8. `raw` stays `None` for encodings other than UTF-8: the exact bytes exist for
/// UTF-8 so that plain output can reproduce invalid bytes, while the bytes of a UTF-16
/// or Shift_JIS file are no use to a reader of UTF-8 output.
pub(crate) fn decode(
    bytes: Vec<u8>,
    encoding: Encoding,
    policy: Utf8Policy,
    tables: CodecTables,
    file_offset: impl Fn(u64) -> u64,
) -> Result<Decoded> {
    let mut bad = Invalid::new(encoding, policy, &file_offset);
    let text = match encoding {
        Encoding::Utf8 => return decode_utf8(bytes, policy, file_offset),
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let be = encoding == Encoding::Utf16Be;
            let units = bytes.chunks_exact(2).map(|u| {
                let a = [u[0], u[1]];
                if be {
                    u16::from_be_bytes(a)
                } else {
                    u16::from_le_bytes(a)
                }
            });
            let mut text = String::with_capacity(bytes.len() * 3 / 2);
            let mut at = 0u64;
            for r in char::decode_utf16(units) {
                match r {
                    Ok(c) => {
                        text.push(c);
                        at += c.len_utf16() as u64 * 2;
                    }
                    Err(_) => {
                        bad.hit(at, &mut text)?;
                        at += 2;
                    }
                }
            }
            if bytes.len() % 2 == 1 {
                bad.hit(at, &mut text)?;
            }
            text
        }
        Encoding::Utf32Le | Encoding::Utf32Be => {
            let be = encoding == Encoding::Utf32Be;
            let mut text = String::with_capacity(bytes.len());
            for (i, u) in bytes.chunks(4).enumerate() {
                let c = match <[u8; 4]>::try_from(u) {
                    Ok(a) if be => char::from_u32(u32::from_be_bytes(a)),
                    Ok(a) => char::from_u32(u32::from_le_bytes(a)),
                    Err(_) => None,
                };
                match c {
                    Some(c) => text.push(c),
                    None => bad.hit(i as u64 * 4, &mut text)?,
                }
            }
            text
        }
        Encoding::Legacy(l) => legacy(&bytes, l, tables, &mut bad)?,
    };
    Ok(Decoded {
        text,
        invalid: bad.report(),
        raw: None,
    })
}

/// Counts invalid sequences; fails on the first under the strict policy.
struct Invalid<'a, F: Fn(u64) -> u64> {
    encoding: Encoding,
    policy: Utf8Policy,
    file_offset: &'a F,
    count: u64,
    first: Option<u64>,
}

impl<'a, F: Fn(u64) -> u64> Invalid<'a, F> {
    fn new(encoding: Encoding, policy: Utf8Policy, file_offset: &'a F) -> Self {
        Invalid {
            encoding,
            policy,
            file_offset,
            count: 0,
            first: None,
        }
    }

    /// An invalid sequence at content offset `at`: U+FFFD, or the strict error.
    fn hit(&mut self, at: u64, text: &mut String) -> Result<()> {
        let offset = (self.file_offset)(at);
        if self.policy == Utf8Policy::Strict {
            return Err(Error::InvalidText {
                encoding: self.encoding.name(),
                offset: crate::error::int(offset),
            });
        }
        self.count += 1;
        self.first.get_or_insert(offset);
        text.push(char::REPLACEMENT_CHARACTER);
        Ok(())
    }

    fn report(&self) -> Option<InvalidUtf8> {
        self.first.map(|first_offset| InvalidUtf8 {
            count: self.count,
            first_offset,
        })
    }
}

fn legacy<F: Fn(u64) -> u64>(
    bytes: &[u8],
    enc: crate::text::LegacyEncoding,
    tables: CodecTables,
    bad: &mut Invalid<'_, F>,
) -> Result<String> {
    let mut decoder = enc.encoding_rs().new_decoder_without_bom_handling();
    let cap = decoder
        .max_utf8_buffer_length_without_replacement(bytes.len())
        .unwrap_or(bytes.len().saturating_mul(3));
    let mut text = String::with_capacity(cap);
    let swaps = match tables {
        CodecTables::Whatwg => Vec::new(),
        CodecTables::Python => crate::text::codecs::swaps(enc, bytes),
    };
    // Between Python's codes, encoding_rs decodes; each of them is Python's character.
    let mut from = 0;
    for s in swaps {
        piece(&mut decoder, bytes, from..s.at, false, &mut text, bad)?;
        text.push(s.ch);
        from = s.at + s.len;
    }
    piece(&mut decoder, bytes, from..bytes.len(), true, &mut text, bad)?;
    Ok(text)
}

/// Decodes `bytes[range]` (whole characters) onto `text`, invalid sequences counted at
/// their offset in `bytes`.
fn piece<F: Fn(u64) -> u64>(
    decoder: &mut encoding_rs::Decoder,
    bytes: &[u8],
    range: std::ops::Range<usize>,
    last: bool,
    text: &mut String,
    bad: &mut Invalid<'_, F>,
) -> Result<()> {
    use encoding_rs::DecoderResult;
    let mut pos = range.start;
    loop {
        let (res, read) =
            decoder.decode_to_string_without_replacement(&bytes[pos..range.end], text, last);
        pos += read;
        match res {
            DecoderResult::InputEmpty => return Ok(()),
            DecoderResult::OutputFull => text.reserve(range.end - pos + 16),
            DecoderResult::Malformed(len, extra) => {
                let at = pos - extra as usize - len as usize;
                text.reserve(3);
                bad.hit(at as u64, text)?;
            }
        }
    }
}
