//! How many file-system calls a read of a whole file makes: counted, not timed, so that a
//! regression shows on any machine (docs/performance.md has the times). A call is an open,
//! a stat, a positional read or a seek (`crate::fsopen::fs_call`).

use std::path::Path;

use crate::fsopen::fs_calls;
use crate::{LineSelection, Reader, SpecialFiles};

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
    whole_read_with(path, SpecialFiles::default())
}

fn whole_read_with(path: &Path, special: SpecialFiles) -> (u64, usize) {
    let reader = Reader::new()
        .max_lines(0)
        .max_bytes(0)
        .special_files(special);
    let before = fs_calls();
    let result = reader.read(path, LineSelection::range(None, None)).unwrap();
    (fs_calls() - before, result.content.len())
}

#[test]
fn a_whole_small_file_is_one_open_one_stat_and_one_read() {
    let dir = tempfile::tempdir().unwrap();
    for size in [1, 100, 4096, super::READ_WHOLE_UP_TO as usize] {
        let path = dir.path().join(format!("small-{size}.rs"));
        std::fs::write(&path, text(size)).unwrap();
        let (calls, shown) = whole_read(&path);
        assert_eq!(shown, size);
        // One open (without blocking), its type and state on that handle, one read of
        // the whole file (one byte more than its size: whether it changed is that read's
        // length): what `open`, `read` and `close` cost in any language, plus the stat.
        assert_eq!(
            calls, 3,
            "a whole read of a {size}-byte file made {calls} file-system calls"
        );
        // Never opening a special file costs one more: the name opened with O_PATH
        // (Linux), its type and state there, the reopen for reading through it (the
        // same inode, not stat'ed again), the read.
        let (calls, shown) = whole_read_with(&path, SpecialFiles::NeverOpened);
        assert_eq!(shown, size);
        let expected = if cfg!(target_os = "linux") { 4 } else { 3 };
        assert_eq!(
            calls, expected,
            "a whole read of a {size}-byte file, special files never opened, made {calls} \
             file-system calls"
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
        // The two calls of opening (the state comes with them), the stat after, and
        // the reads: the classification's
        // sample and the content (in pieces of at most a chunk), the line count over
        // what is not in memory yet. No fstatfs (the file has blocks) and no
        // SEEK_DATA / SEEK_HOLE (a block for every byte).
        let reads = calls - 3;
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
    for (special, expected) in [(SpecialFiles::NeverRead, 3), (SpecialFiles::NeverOpened, 4)] {
        let reader = Reader::new()
            .max_lines(0)
            .max_bytes(0)
            .special_files(special);
        let before = fs_calls();
        let result = reader
            .read_in(&ws, "src/small.rs", LineSelection::range(None, None))
            .unwrap();
        let calls = fs_calls() - before;
        assert_eq!(result.content.len(), 4096);
        // The name opened beneath the root (openat2), its type and state, one read;
        // never opening a special file, the name is opened with O_PATH
        // and then reopened for reading through that handle: one call more.
        assert_eq!(
            calls, expected,
            "a whole read through a workspace ({special:?}) made {calls} file-system calls"
        );
    }
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
    // The two calls of opening, the content in one read (no line budget can stop the
    // run short of the end; the classification is the cache's), the stat after. The
    // index comes from the cache as it is kept there and the read learns nothing more:
    // it is not stored again, which read the file's last 64 bytes to tell a later append
    // from a rewrite (6 calls). Read in growing pieces of 16, 32 and 16 KiB, it was 6.
    assert_eq!(
        calls, 4,
        "a whole read of a file the cache knows made {calls} file-system calls"
    );
}
