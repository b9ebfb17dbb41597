//! Invariants: classification never panics; clean UTF-8 (no NUL, no control bytes but
//! tab, newlines, form feed, escape and backspace) is always text; and reading any
//! input through the reader, whatever it was classified as, never panics and pages
//! through the whole text exactly once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rangeread::{classify, ByteSelection, Error, Reader, Source};

fuzz_target!(|data: &[u8]| {
    let c = classify(data);
    let clean = std::str::from_utf8(data).is_ok()
        && !data
            .iter()
            .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b | 0x08) || b == 0x7f);
    if clean && !data.is_empty() {
        assert!(c.is_text(), "clean UTF-8 classified binary: {c:?}");
    }
    let reader = Reader::new().max_bytes(64);
    let mut doc = reader.document(Source::from_bytes(data.to_vec(), "f"));
    let mut next = Some(0u64);
    let mut pages = 0;
    while let Some(start) = next {
        match doc.read(ByteSelection::new(Some(start), None)) {
            Ok(r) => {
                assert!(r.bytes.end >= r.bytes.start);
                next = r.truncated.map(|t| t.next_start_byte);
                if let Some(n) = next {
                    assert!(n > start, "paging made no progress at {start}");
                }
            }
            Err(Error::Binary { .. }) | Err(Error::InvalidText { .. }) => break,
            Err(e) => panic!("unexpected error: {e}"),
        }
        pages += 1;
        assert!(pages <= data.len() + 2);
    }
});
