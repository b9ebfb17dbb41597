//! Invariant: parsing any text as a line or byte selection never panics, and reading a
//! parsed selection from a small file either succeeds within the file or fails with a
//! validation error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rangeread::{ByteSelection, LineSelection, Reader, Source};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let doc_bytes = b"one\ntwo\r\nthree\n\nfive".to_vec();
    let reader = Reader::new();
    if let Ok(sel) = LineSelection::parse(text) {
        let mut doc = reader.document(Source::from_bytes(doc_bytes.clone(), "f"));
        if let Ok(r) = doc.read(sel) {
            assert!(r.bytes.end <= doc_bytes.len() as u64);
            assert!(r.lines.is_none_or(|l| l.start >= 1 && l.end <= 5 && l.start <= l.end));
        }
    }
    if let Ok(sel) = ByteSelection::parse(text) {
        let mut doc = reader.document(Source::from_bytes(doc_bytes.clone(), "f"));
        if let Ok(r) = doc.read(sel) {
            assert!(r.bytes.start <= r.bytes.end && r.bytes.end <= doc_bytes.len() as u64);
        }
    }
    let _ = serde_json::from_str::<ByteSelection>(text);
    let _ = serde_json::from_str::<LineSelection>(text);
});
