//! How many file-system calls a read of a whole file makes: counted, not timed, so that a
//! regression shows on any machine (docs/performance.md has the times). A call is an open,
//! a stat, a positional read or a seek (`crate::fsopen::fs_call`).

use std::path::Path;

use crate::fsopen::fs_calls;
use crate::{LineSelection, Reader};

/// Source-like text of exactly `size` bytes, ending with a line feed.
fn text(size: usize) -> Vec<u8> {
    let line = b"    let value = compute(input, &options).unwrap_or_default(); // why\n";
    let mut out = line.repeat(size / line.len());
    out.resize(size - 1, b' ');
    out.push(b'\n');
    out
}

/// The calls a whole read of `path` makes, and the content it gave.
fn whole_read(path: &Path) -> (u64, usize) {
    let reader = Reader::new().max_lines(0).max_bytes(0);
    let before = fs_calls();
    let result = reader.read(path, LineSelection::range(None, None)).unwrap();
    (fs_calls() - before, result.content.len())
}

#[test]
fn a_whole_small_file_is_one_open_one_read_and_a_stat_on_each_side() {
    let dir = tempfile::tempdir().unwrap();
    for size in [1, 100, 4096, super::READ_WHOLE_UP_TO as usize] {
        let path = dir.path().join(format!("small-{size}.rs"));
        std::fs::write(&path, text(size)).unwrap();
        let (calls, shown) = whole_read(&path);
        assert_eq!(shown, size);
        // open with O_PATH, its type and state on that handle, the reopen for reading
        // through it (Linux: the same inode, not stat'ed again); one read of the whole
        // file; the stat that checks it unchanged.
        assert_eq!(
            calls, 5,
            "a whole read of a {size}-byte file made {calls} file-system calls"
        );
    }
}

#[test]
fn a_whole_larger_file_reads_each_byte_once_and_looks_for_no_hole() {
    let dir = tempfile::tempdir().unwrap();
    for size in [64 << 10, 1 << 20] {
        let path = dir.path().join(format!("large-{size}.rs"));
        std::fs::write(&path, text(size)).unwrap();
        let (calls, shown) = whole_read(&path);
        assert_eq!(shown, size);
        // The three calls of opening (the state comes with them), the stat after, and
        // the reads: the classification's
        // sample and the content (in pieces of at most a chunk), the line count over
        // what is not in memory yet. No fstatfs (the file has blocks) and no
        // SEEK_DATA / SEEK_HOLE (a block for every byte).
        let reads = calls - 4;
        let most = 2 + 2 * (size as u64).div_ceil(super::DEFAULT_CHUNK as u64);
        assert!(
            reads <= most,
            "a whole read of a {size}-byte file made {reads} reads (at most {most})"
        );
    }
}

#[test]
fn a_whole_small_file_through_a_workspace_costs_the_same() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/small.rs"), text(4096)).unwrap();
    let ws = crate::Workspace::builder(dir.path()).build().unwrap();
    let reader = Reader::new().max_lines(0).max_bytes(0);
    let before = fs_calls();
    let result = reader
        .read_in(&ws, "src/small.rs", LineSelection::range(None, None))
        .unwrap();
    let calls = fs_calls() - before;
    assert_eq!(result.content.len(), 4096);
    // The name opened beneath the root with O_PATH (openat2), its type and state, the
    // reopen for reading; one read, the stat after it.
    assert_eq!(
        calls, 5,
        "a whole read through a workspace made {calls} file-system calls"
    );
}

#[test]
fn a_whole_read_that_the_cache_knows_stores_nothing_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cached.rs");
    std::fs::write(&path, text(64 << 10)).unwrap();
    let cache = std::sync::Arc::new(crate::IndexCache::new(64 << 20));
    let reader = Reader::new().max_lines(0).max_bytes(0).cache(cache);
    reader
        .read(&path, LineSelection::range(None, None))
        .unwrap();
    let before = fs_calls();
    let result = reader
        .read(&path, LineSelection::range(None, None))
        .unwrap();
    let calls = fs_calls() - before;
    assert_eq!(result.content.len(), 64 << 10);
    // The three calls of opening, the content in reads of 16, 32 and 16 KiB (the
    // classification is the cache's), the stat after. The index comes from the cache as
    // it is kept there and the read learns nothing more: it is not stored again, which
    // read the file's last 64 bytes to tell a later append from a rewrite (8 calls).
    assert_eq!(
        calls, 7,
        "a whole read of a file the cache knows made {calls} file-system calls"
    );
}
