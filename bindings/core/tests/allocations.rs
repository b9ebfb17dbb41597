//! What a whole small read costs the bindings' shared core in memory, counted (not timed):
//! a call as Python and Node make it (the call's options turned into a reader and a
//! selection, then the read) asks for no more than the library's own read. The text is
//! copied once, as in the library (tests/allocations.rs there); a second copy in the
//! binding layer (a clone of the result, JSON of it) asks for the file's size again and
//! fails here.

use rangeread_bindings::rangeread::LineSelection;
use rangeread_bindings::{options, read, Output, Place};
use serde_json::json;

#[path = "../../../tests/common/counting.rs"]
mod counting;
use counting::counted;

/// Source-like text of `size` bytes (whole lines of ASCII).
fn text(size: usize) -> Vec<u8> {
    let line = b"    let value = compute(input, &options).unwrap_or_default(); // why\n";
    let mut bytes = line.repeat(size / line.len());
    bytes.resize(size - 1, b' ');
    bytes.push(b'\n');
    bytes
}

#[test]
fn a_whole_read_through_the_bindings_core_allocates_no_more_than_the_library() {
    let dir = tempfile::tempdir().unwrap();
    // A reader as `Reader({maxLines: 0, maxBytes: 0})` / `Reader(max_lines=0, max_bytes=0)`
    // makes it, and a call with no selection (`reader.read(p)`), as each binding passes it.
    let reader = options::reader(json!({"max_lines": 0, "max_bytes": 0})).unwrap();
    for size in [4 << 10, 64 << 10, 1 << 20] {
        let path = dir.path().join(format!("whole-{size}.txt"));
        std::fs::write(&path, text(size)).unwrap();
        // The first read fills what the reader keeps (its index cache).
        reader.read(&path, LineSelection::from(..)).unwrap();
        let (lib, lib_n, lib_bytes) =
            counted(|| reader.read(&path, LineSelection::from(..)).unwrap());
        assert_eq!(lib.content.len(), size);
        let (out, n, bytes) = counted(|| {
            let (call_reader, request) = options::text_call(&reader, json!(null)).unwrap();
            read(&call_reader, Place::Path, &path, &request).unwrap()
        });
        let Output::Text(r) = out else {
            panic!("a text read gave another kind of output")
        };
        assert_eq!(r.content.len(), size);
        println!(
            "{size} bytes: the library {lib_n} allocations, {lib_bytes} bytes; \
             the bindings' core {n} allocations, {bytes} bytes"
        );
        // No options: the call's reader is the kept one (a clone shares its cache) and
        // the selection the whole file, made without an allocation. The same allocations
        // as the library's read, byte for byte, when this was written (12 and the size
        // plus 4.4 KiB for 4 KiB; 11 and the size plus 0.4 KiB for 64 KiB and 1 MiB, whose
        // classification the reader's cache keeps; 15 and 14 while a read the cache knew
        // stored its index again).
        assert!(
            n <= lib_n,
            "{size} bytes through the bindings' core: {n} allocations, the library {lib_n}"
        );
        assert!(
            bytes <= lib_bytes,
            "{size} bytes through the bindings' core asked for {bytes} bytes, the library \
             {lib_bytes}: the binding layer copies or builds something the library does not"
        );
    }
}

#[test]
fn a_read_after_the_text_went_back_asks_for_no_memory_of_its_size() {
    let dir = tempfile::tempdir().unwrap();
    // Each binding makes the language's string of a text read's `content`, then hands
    // the Rust buffer back to the call's reader (`Reader::recycle`): the next whole read
    // fills that buffer instead of asking the allocator (and the system, page by page)
    // for its size again. Also at 4 KiB: a fresh buffer from 1 KiB on first makes glibc
    // merge every small chunk the host freed since (a JavaScript result's, a str's).
    let reader = options::reader(json!({"max_lines": 0, "max_bytes": 0})).unwrap();
    for size in [4 << 10, 64 << 10, 1 << 20] {
        let path = dir.path().join(format!("again-{size}.txt"));
        std::fs::write(&path, text(size)).unwrap();
        // Twice: a small file's bytes are read whole into one kept buffer and its lines
        // copied into another (the pool keeps two).
        for _ in 0..2 {
            let first = reader.read(&path, LineSelection::from(..)).unwrap();
            reader.recycle(first.content);
        }
        let (again, n, bytes) = counted(|| {
            let (call_reader, request) = options::text_call(&reader, json!(null)).unwrap();
            read(&call_reader, Place::Path, &path, &request).unwrap()
        });
        let Output::Text(r) = again else {
            panic!("a text read gave another kind of output")
        };
        assert_eq!(r.content.len(), size);
        println!("{size} bytes again: {n} allocations, {bytes} bytes");
        // The classification's sample (the cache keeps it: none) and small things; no
        // buffer of the file's size (9 allocations and 0.4 KiB when this was written).
        assert!(
            bytes < (9 << 10).min(size as u64 / 2),
            "a whole read of {size} bytes after its text went back asked for {bytes} bytes"
        );
        reader.recycle(r.content);
    }
}
