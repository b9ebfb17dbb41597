//! Invariant: the sparse line index agrees with a naive split on arbitrary bytes, with a
//! block size and read chunk taken from the input so that block edges are exercised.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rangeread::{LineIndex, Source};

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, bytes)) = data.split_first() else { return };
    let block = u64::from(knobs & 0x0f) + 1;
    let chunk = usize::from(knobs >> 4) + 1;
    let mut src = Source::from_bytes(bytes.to_vec(), "fuzz");
    src.set_chunk_size(chunk);
    let mut ix = LineIndex::with_block_size(src.len(), block);
    let mut starts = vec![0u64];
    starts.extend(bytes.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i as u64 + 1));
    if starts.last() == Some(&(bytes.len() as u64)) {
        starts.pop();
    }
    if bytes.is_empty() {
        starts.clear();
    }
    for (i, &s) in starts.iter().enumerate().rev() {
        assert_eq!(ix.line_start(&src, i as u64 + 1).unwrap(), Some(s));
    }
    assert_eq!(ix.total_lines(&src).unwrap(), starts.len() as u64);
    assert_eq!(ix.line_start(&src, starts.len() as u64 + 1).unwrap(), None);
    for off in (0..bytes.len() as u64).step_by(7) {
        let want = starts.partition_point(|&s| s <= off) as u64;
        assert_eq!(ix.line_of_offset(&src, off).unwrap(), want);
    }
});
