//! What a whole small file costs in memory, counted (not timed), so that a regression shows
//! on any machine: the allocations of a whole read and the bytes they ask for. The text is
//! copied once, from the file into the content; a second copy of it (a clone, a page that
//! grows by doubling, a decode into a new buffer) would ask for its size again.

use rangeread::{LineSelection, Reader};

#[path = "common/counting.rs"]
mod counting;
use counting::counted;

/// Source-like text of `size` bytes (whole lines of ASCII).
fn text(size: usize) -> Vec<u8> {
    let line = b"    let value = compute(input, &options).unwrap_or_default(); // why\n";
    let mut bytes = Vec::with_capacity(size);
    while bytes.len() + line.len() <= size {
        bytes.extend_from_slice(line);
    }
    bytes.resize(size - 1, b' ');
    bytes.push(b'\n');
    bytes
}

#[test]
fn a_whole_small_file_is_copied_once_in_a_bounded_number_of_allocations() {
    let dir = tempfile::tempdir().unwrap();
    let reader = Reader::new().max_lines(0).max_bytes(0);
    for size in [4 << 10, 64 << 10, 1 << 20] {
        let path = dir.path().join(format!("whole-{size}.txt"));
        std::fs::write(&path, text(size)).unwrap();
        // The first read fills what the reader keeps (its index cache).
        reader.read(&path, LineSelection::from(..)).unwrap();
        let (r, allocations, bytes) =
            counted(|| reader.read(&path, LineSelection::from(..)).unwrap());
        assert_eq!(r.content.len(), size);
        println!("{size} bytes: {allocations} allocations, {bytes} bytes asked for");
        // The content once, and small things: paths, the encoding's name, the
        // classification's sample of at most 8 KiB (11 allocations and the size plus
        // 4.4 KiB (4 KiB file) to 8.5 KiB (64 KiB and 1 MiB) when this was written; 12
        // while the fingerprint's hash was made for every read, asked for or not, and 13
        // before the reopen's `/proc/self/fd/N` name was made on the stack).
        assert!(
            bytes <= size as u64 + (9 << 10),
            "{size} bytes read whole asked for {bytes} bytes: the text is copied more than once"
        );
        assert!(
            allocations <= 11,
            "{size} bytes read whole took {allocations} allocations"
        );
    }
}
