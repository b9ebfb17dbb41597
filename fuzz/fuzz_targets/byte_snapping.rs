//! Invariant: a byte read never panics, contains the requested range, moves each side at
//! most 3 bytes, and returns exactly the lossy decode of the bytes it reports.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rangeread::{ByteSelection, Detection, Reader, Source};

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (a, b) = (u64::from(data[0]), u64::from(data[1]));
    let bytes = &data[2..];
    let len = bytes.len() as u64;
    let (start, end) = (a.min(b).min(len), a.max(b));
    let src = Source::from_bytes(bytes.to_vec(), "fuzz");
    // UTF-8 snapping on any bytes: classification (which would refuse binary input or
    // decode a legacy encoding) has its own target.
    let r = Reader::new()
        .detection(Detection::AssumeUtf8)
        .max_bytes(0)
        .document(src)
        .read(ByteSelection::new(Some(start), Some(end)))
        .unwrap();
    let (s, e) = (r.bytes.start, r.bytes.end);
    assert!(s <= start && e >= end.min(len) && start - s <= 3 && e - end.min(len) <= 3);
    let range = &bytes[s as usize..e as usize];
    assert_eq!(r.raw_bytes(), range);
    assert_eq!(r.content, String::from_utf8_lossy(range));
});
