//! [`ControlBytes::SuspiciousShare`](crate::ControlBytes::SuspiciousShare): the rule
//! the `isbinaryfile` package (5.0.7, which Gemini CLI uses) applies to a file's first
//! 512 bytes.

use super::{bom, GB18030_BOM};

/// The bytes [`ControlBytes::SuspiciousShare`](crate::ControlBytes::SuspiciousShare)
/// decides on: `isbinaryfile`'s `MAX_BYTES`.
pub const SUSPICIOUS_SAMPLE: usize = 512;

/// How far past the sample a UTF-8 sequence that starts in it may be read.
const BOUNDARY_RESERVE: usize = 3;

/// Whether `sample` (a file's first bytes) is binary under the rule: a NUL byte in the
/// first 512 bytes, or more than 10% of them suspicious: a byte below BEL or from SO+1
/// to US (ESC included), or a byte of `0x80` and over that does not start a UTF-8
/// sequence whose continuation bytes follow. A byte order mark (UTF-8, UTF-16, UTF-32,
/// GB 18030) makes it text at once. Not modelled: `isbinaryfile`'s look for a Protocol
/// Buffers message, after two suspicious bytes.
pub(crate) fn binary(sample: &[u8]) -> bool {
    let total = sample.len().min(SUSPICIOUS_SAMPLE + BOUNDARY_RESERVE);
    let scan = total.min(SUSPICIOUS_SAMPLE);
    if scan == 0 || has_mark(sample) {
        return false;
    }
    let b = &sample[..total];
    let cont = |i: usize| b.get(i).is_some_and(|&c| (0x80..=0xBF).contains(&c));
    let mut suspicious = 0usize;
    let mut i = 0;
    while i < scan {
        let c = b[i];
        if c == 0 {
            return true;
        }
        if !(7..=14).contains(&c) && !(32..=127).contains(&c) {
            // As the package reads a sequence: past its lead byte even when the
            // continuation is not one (that next byte is then not looked at).
            if (0xC0..=0xDF).contains(&c) && i + 1 < total {
                i += 1;
                if cont(i) {
                    i += 1;
                    continue;
                }
            } else if (0xE0..=0xEF).contains(&c) && i + 2 < total {
                i += 1;
                if cont(i) && cont(i + 1) {
                    i += 2;
                    continue;
                }
            } else if (0xF0..=0xF7).contains(&c) && i + 3 < total {
                i += 1;
                if cont(i) && cont(i + 1) && cont(i + 2) {
                    i += 3;
                    continue;
                }
            }
            suspicious += 1;
        }
        i += 1;
    }
    // The package divides as floats: over 10%, not 10% rounded down.
    suspicious * 100 > 10 * scan
}

/// The byte order marks `isbinaryfile` answers "text" for at once: the ones [`bom`] reads
/// by, and GB 18030's.
fn has_mark(s: &[u8]) -> bool {
    bom(s).is_some() || s.starts_with(GB18030_BOM)
}

#[cfg(test)]
mod tests {
    use super::binary;

    #[test]
    fn decides_as_isbinaryfile_does() {
        let ascii = b"fn main() {\n    println!(\"hello\");\n}\n".repeat(20);
        assert!(!binary(&ascii));
        // BEL to SO are not suspicious; ESC is.
        assert!(!binary(&[7u8; 600]));
        assert!(binary(&[27u8; 600]));
        // A NUL in the first 512 bytes, not past them.
        let mut nul = ascii.clone();
        nul[100] = 0;
        assert!(binary(&nul));
        let mut late = b"a".repeat(600);
        late[550] = 0;
        assert!(!binary(&late));
        // Valid UTF-8 of any length is text; Latin-1 is suspicious byte by byte.
        assert!(!binary("日本語のテキスト、".repeat(60).as_bytes()));
        assert!(!binary("😀".repeat(200).as_bytes()));
        let latin1: Vec<u8> = b"caf\xe9 cr\xe8me br\xfbl\xe9e ".repeat(30);
        assert!(binary(&latin1));
        // Up to 10% is text: 51 suspicious bytes of 512 (9.96%); 57 are over.
        let mut share = b"a".repeat(512);
        for i in 0..51 {
            share[i * 10] = 0x1B;
        }
        assert!(!binary(&share));
        share[511] = 0x1B;
        share[509] = 0x1B;
        share[507] = 0x1B;
        share[505] = 0x1B;
        share[503] = 0x1B;
        share[501] = 0x1B;
        assert!(binary(&share));
        // A byte order mark is text at once.
        let mut marked = b"\xFF\xFE".to_vec();
        marked.extend_from_slice(&[27u8; 100]);
        assert!(!binary(&marked));
        assert!(!binary(b""));
    }
}
