//! Turning selected bytes into text under the UTF-8 policy.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::result::InvalidUtf8;

/// What to do with invalid UTF-8 in the returned bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Utf8Policy {
    /// Replace each invalid sequence with U+FFFD and report how many there were and where
    /// the first one is (`invalid_utf8` in the result). The default.
    #[default]
    Lossy,
    /// Fail with `Invalid UTF-8 at byte X`, X counted from the start of the file.
    Strict,
}

/// Decoded text, the exact bytes when they differ from it, and the report.
pub(crate) struct Decoded {
    pub text: String,
    pub raw: Option<Vec<u8>>,
    pub invalid: Option<InvalidUtf8>,
}

/// Decodes `bytes`; `file_offset` maps an offset in `bytes` to the file for messages.
///
/// Valid input (the common case) is checked once with simdutf8 and copied; only invalid
/// input takes the slower path that counts and replaces.
pub(crate) fn decode_utf8(
    bytes: Vec<u8>,
    policy: Utf8Policy,
    file_offset: impl Fn(u64) -> u64,
) -> Result<Decoded> {
    if simdutf8::basic::from_utf8(&bytes).is_ok() {
        let text = String::from_utf8(bytes).unwrap_or_default();
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
                        offset: file_offset(bad_at),
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
