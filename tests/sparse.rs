//! Sparse files: holes hold no line feed, so line reads follow the data, not the
//! apparent size (a 4 GiB file with a few KiB of text reads like a few KiB).

use std::io::{Seek, SeekFrom, Write};

use rangeread::{LineSelection, Reader};

const GIB: u64 = 1 << 30;

fn numbered(from: u64, to: u64) -> String {
    (from..=to).map(|i| format!("line {i}\n")).collect()
}

/// A 4 GiB file: lines 1-3000 at the start, lines 3001-3100 at 2 GiB, lines
/// 3101-3200 at the very end; holes between.
fn sparse_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("sparse.txt");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(numbered(1, 3000).as_bytes()).unwrap();
    f.seek(SeekFrom::Start(2 * GIB)).unwrap();
    f.write_all(numbered(3001, 3100).as_bytes()).unwrap();
    let tail = numbered(3101, 3200);
    f.seek(SeekFrom::Start(4 * GIB - tail.len() as u64))
        .unwrap();
    f.write_all(tail.as_bytes()).unwrap();
    path
}

#[test]
fn lines_of_a_sparse_file_are_counted_across_its_holes() {
    let dir = tempfile::tempdir().unwrap();
    let path = sparse_file(dir.path());
    let reader = Reader::new().summaries(false);
    let mut doc = reader.open(&path).unwrap();
    // The zeros of a hole are content: each hole is part of the line it falls in. Line
    // 3001 is the zeros after line 3000 up to "line 3001"'s LF.
    assert_eq!(doc.total_lines().unwrap(), 3200);
    let r = doc.read(LineSelection::from(500..=501)).unwrap();
    assert_eq!(r.content, "line 500\nline 501\n");
    assert_eq!(r.total_lines, Some(3200));
    let r = doc.read(LineSelection::from(3002..=3003)).unwrap();
    assert_eq!(r.content, "line 3002\nline 3003\n");
    assert_eq!(r.bytes.start, 2 * GIB + "line 3001\n".len() as u64);
    let r = doc.read(LineSelection::tail(2)).unwrap();
    assert_eq!(r.content, "line 3199\nline 3200\n");
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((3199, 3200)));
}

#[test]
fn the_index_of_a_1_tib_hole_stays_small() {
    // 1 TiB apparent size: lines 1-1000 at the start, 1001-1010 at the end.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge-sparse.txt");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(numbered(1, 1000).as_bytes()).unwrap();
    let tail = numbered(1001, 1010);
    let size = 1024 * GIB;
    if f.seek(SeekFrom::Start(size - tail.len() as u64)).is_err()
        || f.write_all(tail.as_bytes()).is_err()
    {
        // A file system without files this large (FAT, some tmpfs): nothing to test.
        eprintln!(
            "NOTICE: no 1 TiB sparse file here; the_index_of_a_1_tib_hole_stays_small skipped"
        );
        return;
    }
    drop(f);
    let cache = std::sync::Arc::new(rangeread::IndexCache::new(64 << 20));
    let reader = Reader::new().summaries(false).cache(cache.clone());
    let r = reader.read(&path, LineSelection::tail(2)).unwrap();
    assert_eq!(r.content, "line 1009\nline 1010\n");
    assert_eq!(r.total_lines, Some(1010));
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((1009, 1010)));
    // 16 Mi blocks of 64 KiB, nearly all in the hole: their checkpoints are all equal.
    assert_eq!(cache.len(), 1, "the index was kept");
    assert!(
        cache.memory_bytes() < 1 << 20,
        "index of 1 TiB, mostly hole: {} bytes",
        cache.memory_bytes()
    );
}

#[test]
fn a_line_that_is_mostly_hole_is_cut_and_paged_not_scanned_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = sparse_file(dir.path());
    let reader = Reader::new().summaries(false);
    // Line 3101: 2 GiB of hole after line 3100's LF, then "line 3101\n".
    let line_start = 2 * GIB + numbered(3001, 3100).len() as u64;
    let line_len = 4 * GIB - numbered(3102, 3200).len() as u64 - line_start;
    // By default it is cut at 2000 characters, with its full length reported.
    let r = reader
        .read(&path, LineSelection::from(3101..=3101))
        .unwrap();
    assert_eq!(r.bytes.start, line_start);
    assert_eq!(r.content, format!("{}\n", "\0".repeat(2000)));
    assert_eq!(r.cut_lines.len(), 1);
    assert_eq!(r.cut_lines[0].total_bytes, line_len - 1);
    assert_eq!(r.cut_lines[0].next_start_byte, line_start + 2000);
    // Without the line-length limit, it is paged by the byte budget.
    let r = reader
        .clone()
        .max_line_chars(0)
        .read(&path, LineSelection::from(3101..=3101))
        .unwrap();
    let t = r.truncated.expect("a 2 GiB line is over the byte budget");
    assert_eq!(r.content.len(), 100 * 1024);
    assert!(r.content.bytes().all(|b| b == 0));
    assert_eq!(t.next_start_byte, r.bytes.end);
}

#[test]
fn tail_of_a_file_that_ends_in_a_hole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grown.log");
    let mut f = std::fs::File::create(&path).unwrap();
    // More than the 8 KiB classification looks at, so that it sees text only.
    f.write_all(numbered(1, 2000).as_bytes()).unwrap();
    f.set_len(4 * GIB).unwrap();
    drop(f);
    let reader = Reader::new()
        .summaries(false)
        .max_bytes(4096)
        .max_line_chars(0);
    // The last line is the hole (zeros without a line feed): paged by the byte budget.
    let r = reader.read(&path, LineSelection::tail(1)).unwrap();
    assert_eq!(r.lines.map(|l| l.start), Some(2001));
    assert_eq!(r.content.len(), 4096);
    assert!(r.truncated.is_some());
    let r = reader
        .read(&path, LineSelection::range(Some(-3), Some(-2)))
        .unwrap();
    assert_eq!(r.content, "line 1999\nline 2000\n");
}
