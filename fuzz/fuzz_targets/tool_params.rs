//! Invariant: any JSON given as `read_file` tool arguments never panics: it parses into
//! parameters whose selection is valid or fails with a message, and a valid selection
//! reads a small file without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rangeread::tool::ReadFileParams;
use rangeread::{Reader, Source};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let Ok(params) = ReadFileParams::from_json(value) else { return };
    let Ok(selection) = params.selection() else { return };
    let src = Source::from_bytes("a\nbb\r\nccc\n\nfive é\n".as_bytes().to_vec(), "f.txt");
    if let Ok(r) = Reader::new().max_lines(3).document(src).read(selection) {
        assert!(r.bytes.start <= r.bytes.end && r.bytes.end <= r.file_size);
    }
});
