//! The index against naive counts.

use std::sync::Arc;

use super::checkpoints::Checkpoints;
use super::*;
use proptest::prelude::*;

/// Everything a scan leaves behind that later answers depend on.
/// Lines of `n` x's each, every one ended by a line feed.
fn x_lines(lines: &[usize]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|&n| std::iter::repeat_n(b'x', n).chain(std::iter::once(b'\n')))
        .collect()
}

fn state(ix: &LineIndex) -> (u64, u64, bool, Vec<u64>) {
    let cps = (0..ix.checkpoints.len)
        .map(|i| ix.checkpoints.get(i))
        .collect();
    (ix.scanned, ix.newlines, ix.last_is_lf, cps)
}

/// Checkpoints against a plain vector: every entry, every partition point.
fn same_as_naive(c: &Checkpoints, naive: &[u64]) {
    assert_eq!(c.len, naive.len());
    for (i, &v) in naive.iter().enumerate() {
        assert_eq!(c.get(i), v, "entry {i}");
    }
    let last = naive.last().copied().unwrap_or(0);
    for t in [0, 1, last / 2, last, last + 1] {
        assert_eq!(
            c.partition_point(|&x| x < t),
            naive.partition_point(|&x| x < t),
            "partition point of {t}"
        );
    }
}

#[test]
fn runs_of_equal_checkpoints_take_no_room() {
    // A 1 TiB hole in 64 KiB blocks, between two stretches of text.
    let mut c = Checkpoints::new();
    let mut naive = vec![0u64];
    for v in 1..100 {
        c.push(v);
        naive.push(v);
    }
    c.push_n(99, 16 << 20);
    naive.extend(std::iter::repeat_n(99, 16 << 20));
    for v in 100..5000 {
        c.push(v);
        naive.push(v);
    }
    same_as_naive(&c, &naive);
    assert!(
        c.memory_bytes() < 1 << 20,
        "{} bytes for 16 Mi equal entries",
        c.memory_bytes()
    );
}

proptest! {
    #[test]
    fn checkpoints_agree_with_a_vector(
        steps in proptest::collection::vec((0u64..3, 1usize..10_000), 1..40)
    ) {
        let mut c = Checkpoints::new();
        let mut naive = vec![0u64];
        let mut v = 0;
        for (add, n) in steps {
            v += add;
            if n % 2 == 0 {
                c.push_n(v, n);
            } else {
                for _ in 0..n {
                    c.push(v);
                }
            }
            naive.extend(std::iter::repeat_n(v, n));
        }
        same_as_naive(&c, &naive);
    }
}

proptest! {
    #[test]
    fn parallel_scans_build_the_sequential_index(
        data in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'\n'), Just(0u8)], 0..400),
        utf16 in any::<bool>(),
        block in 1u64..9,
        threads in 2usize..5,
        chunk in 1usize..50,
        target_frac in 0u64..=4,
        nth in 0u64..60,
        piece_blocks in 1u64..4,
        window_pieces in 0u64..3,
        budget in proptest::option::of(0u64..400),
    ) {
        let mut bytes = data;
        let layout = if utf16 {
            bytes.truncate(bytes.len() - bytes.len() % 2);
            Layout::new(Encoding::Utf16Le, 0)
        } else {
            Layout::utf8()
        };
        let mut src = Source::from_bytes(bytes.clone(), "p.txt");
        src.set_chunk_size(chunk);
        let len = bytes.len() as u64;
        let fresh = || LineIndex::for_layout(len, block, &layout);
        let (mut seq, mut par) = (fresh(), fresh());
        par.set_threads(threads);
        par.parallel_min = 1;
        par.piece = piece_blocks * par.block;
        par.window = window_pieces * par.piece;
        // A deep line within a scan budget, the same line without, then a byte target,
        // then everything: the same answers, and in the end the same index.
        seq.set_scan_budget(budget);
        par.set_scan_budget(budget);
        let (s, p) = (seq.line_start(&src, nth), par.line_start(&src, nth));
        prop_assert_eq!(s.is_ok(), p.is_ok(), "{:?} {:?}", s, p);
        if s.is_err() {
            // Both stopped at the budget's end, with what they found before it.
            prop_assert_eq!(state(&seq), state(&par));
        }
        seq.set_scan_budget(None);
        par.set_scan_budget(None);
        let a = seq.line_start(&src, nth).unwrap();
        prop_assert_eq!(par.line_start(&src, nth).unwrap(), a);
        let target = len * target_frac / 4;
        seq.scan_to(&src, target).unwrap();
        par.scan_to(&src, target).unwrap();
        prop_assert_eq!(seq.line_of_offset(&src, target).unwrap(), par.line_of_offset(&src, target).unwrap());
        prop_assert_eq!(seq.total_lines(&src).unwrap(), par.total_lines(&src).unwrap());
        prop_assert_eq!(state(&seq), state(&par));
    }

    #[test]
    fn parallel_searches_stop_past_their_line(
        lines in proptest::collection::vec(0usize..40, 1..300),
        block in 1u64..9,
        threads in 2usize..5,
        piece_blocks in 1u64..4,
        window_pieces in 1u64..4,
        frac in 0u64..=10,
    ) {
        let bytes = x_lines(&lines);
        let src = Source::from_bytes(bytes.clone(), "s.txt");
        let len = bytes.len() as u64;
        let (mut seq, mut par) = (LineIndex::with_block_size(len, block), LineIndex::with_block_size(len, block));
        par.set_threads(threads);
        par.parallel_min = 1;
        par.piece = piece_blocks * block;
        par.window = window_pieces * par.piece;
        let line = 1 + lines.len() as u64 * frac / 10;
        let want = seq.line_start(&src, line).unwrap();
        prop_assert_eq!(par.line_start(&src, line).unwrap(), want);
        // The threads stop handing out pieces once the joined ones hold the line:
        // beyond the piece that holds it, at most one window is counted.
        let window = par.window * threads as u64;
        prop_assert!(par.scanned() >= seq.scanned().min(len));
        prop_assert!(
            par.scanned() <= seq.scanned() + par.piece + window,
            "scanned {} for a line the sequential scan found after {} (piece {}, window {})",
            par.scanned(), seq.scanned(), par.piece, window
        );
        // What was counted past the line is kept, and the index is still the same.
        prop_assert_eq!(seq.total_lines(&src).unwrap(), par.total_lines(&src).unwrap());
        prop_assert_eq!(state(&seq), state(&par));
    }

    #[test]
    fn a_failed_read_stops_a_parallel_scan_and_keeps_what_came_before(
        lines in proptest::collection::vec(0usize..30, 1..200),
        block in 1u64..9,
        threads in 2usize..5,
        piece_blocks in 1u64..4,
        bad_frac in 0u64..100,
    ) {
        let bytes = x_lines(&lines);
        let len = bytes.len() as u64;
        let bad = len * bad_frac / 100;
        let failing = Source::from_random_access(
            Arc::new(FailsAt { data: bytes.clone(), bad }),
            "f.txt",
        );
        let mut par = LineIndex::with_block_size(len, block);
        par.set_threads(threads);
        par.parallel_min = 1;
        par.piece = piece_blocks * block;
        par.window = par.piece;
        let err = par.total_lines(&failing).unwrap_err();
        prop_assert!(matches!(err, crate::Error::Io { .. }), "{:?}", err);
        // The pieces joined before the failed one are a valid index of that prefix.
        prop_assert!(par.scanned() <= bad);
        let mut whole = Source::from_bytes(bytes, "f.txt");
        whole.set_chunk_size(1);
        let mut seq = LineIndex::with_block_size(len, block);
        seq.scan_to(&whole, par.scanned()).unwrap();
        prop_assert_eq!(state(&seq), state(&par));
    }
}

/// Bytes whose read fails where it covers offset `bad`.
struct FailsAt {
    data: Vec<u8>,
    bad: u64,
}

impl crate::RandomAccess for FailsAt {
    fn len(&self) -> u64 {
        self.data.len() as u64
    }

    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        if (offset..offset + buf.len() as u64).contains(&self.bad) {
            return Err(std::io::Error::other("disk error"));
        }
        buf.copy_from_slice(&self.data[offset as usize..offset as usize + buf.len()]);
        Ok(())
    }
}
