//! Paging: following `truncated` from the first page to the last (and the rest of every
//! cut line) yields every byte of the file once, under any budgets, on every backend.

mod common;

use std::io::Write;

use common::utf8_reader;
use rangeread::{
    render, ByteSelection, Document, Format, LineSelection, LineUnit, ReadResult, Reader,
    Selection, Source, TruncationReason,
};

// ---------------------------------------------------------------------------------------
// Helpers

fn temp_file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(bytes).unwrap();
    f.flush().unwrap();
    f
}

/// Every backend the tests run on: positional reads (default and small chunks) and bytes
/// in memory. The temporary file lives as long as the returned guard.
fn documents(
    reader: &Reader,
    bytes: &[u8],
    name: &str,
) -> (Vec<(&'static str, Document)>, tempfile::NamedTempFile) {
    let file = temp_file(bytes);
    let pread = reader.open(file.path()).unwrap();
    let mut small = Source::open(file.path()).unwrap();
    small.set_chunk_size(4093);
    let mem = Source::from_bytes(bytes.to_vec(), name);
    let docs = vec![
        ("pread", pread),
        ("pread, 4093-byte chunks", reader.document(small)),
        ("memory", reader.document(mem)),
    ];
    (docs, file)
}

/// The rest of a cut line, read with byte selections and followed across pages.
fn read_rest(doc: &mut Document, start: u64, len: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = start;
    let end = start + len;
    while at < end {
        let r = doc.read(ByteSelection::new(Some(at), Some(end))).unwrap();
        assert_eq!(r.bytes.start, at, "rest pages are contiguous");
        out.extend_from_slice(r.raw_bytes());
        at = r.bytes.end;
        if r.truncated.is_none() {
            assert_eq!(at, end);
        }
    }
    out
}

/// Follows `truncated` from the first page to the last, as a caller would, splicing the
/// rest of every cut line back in. Returns the bytes and the number of pages.
fn follow_pages(doc: &mut Document) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut sel: Selection = LineSelection::range(Some(1), None).into();
    let mut expect_start = 0u64;
    let mut pages = 0;
    loop {
        pages += 1;
        assert!(pages < 100_000, "paging does not end");
        let r = doc.read(sel).unwrap();
        assert_eq!(
            r.bytes.start, expect_start,
            "page {pages} starts where the last ended"
        );
        assert!(
            !r.content.contains("[line truncated"),
            "content never holds a marker"
        );
        splice_cut_lines(doc, &r, &mut out);
        expect_start = r.bytes.end;
        match r.truncated {
            None => {
                assert_eq!(r.bytes.end, r.file_size, "the last page ends the file");
                break;
            }
            Some(t) => {
                assert_eq!(t.next_start_byte, r.bytes.end);
                sel = match t.next_start_line {
                    Some(line) => LineSelection::range(Some(line as i64), None).into(),
                    None => ByteSelection::new(Some(t.next_start_byte), None).into(),
                };
            }
        }
    }
    (out, pages)
}

fn splice_cut_lines(doc: &mut Document, r: &ReadResult, out: &mut Vec<u8>) {
    let raw = r.raw_bytes();
    if r.cut_lines.is_empty() {
        out.extend_from_slice(raw);
        return;
    }
    let first = r.lines.expect("cut lines have numbers").start;
    // A last line cut to nothing (a surrogate pair over a 1-unit limit) is still a line.
    let mut pieces: Vec<&[u8]> = raw.split_inclusive(|&b| b == b'\n').collect();
    if raw.is_empty() || raw.ends_with(b"\n") {
        pieces.push(&[]);
    }
    for (line, piece) in (first..).zip(pieces) {
        match r.cut_lines.iter().find(|c| c.line == line) {
            Some(c) => {
                let shown = c.shown_bytes as usize;
                out.extend_from_slice(&piece[..shown]);
                out.extend(read_rest(
                    doc,
                    c.next_start_byte,
                    c.total_bytes - c.shown_bytes,
                ));
                out.extend_from_slice(&piece[shown..]);
            }
            None => out.extend_from_slice(piece),
        }
    }
}

/// A deterministic mix: short and empty lines, CRLF, multi-byte text, lines of a few
/// thousand characters, a lone CR, and no newline at the end.
fn mixed_text(target: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut i = 0u64;
    while out.len() < target {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        i += 1;
        match x % 11 {
            0 => out.extend_from_slice(b"\n"),
            1 => out.extend_from_slice(format!("line {i} with crlf\r\n").as_bytes()),
            2 => out.extend_from_slice("ünïcödé 日本語 🦀 text\n".as_bytes()),
            3 => {
                let n = 1500 + (x % 5000) as usize;
                out.extend_from_slice("é".repeat(n).as_bytes());
                out.push(b'\n');
            }
            4 => {
                let n = 1800 + (x % 3000) as usize;
                out.extend_from_slice("a".repeat(n).as_bytes());
                out.extend_from_slice(b"\r\n");
            }
            5 => out.extend_from_slice(b"lone \r carriage return\n"),
            _ => out.extend_from_slice(format!("fn item_{i}() {{ body({i}); }}\n").as_bytes()),
        }
    }
    out.extend_from_slice(b"last line without newline");
    out
}

// ---------------------------------------------------------------------------------------
// Paging

#[test]
fn paging_covers_large_file_exactly_without_line_limit() {
    let data = mixed_text(3 << 20);
    let reader = utf8_reader().max_line_chars(0);
    let (docs, _file) = documents(&reader, &data, "big.txt");
    for (name, mut doc) in docs {
        let (got, pages) = follow_pages(&mut doc);
        assert!(pages > 20, "{name}: the file needs many pages ({pages})");
        assert!(
            got == data,
            "{name}: pages must cover every byte exactly once"
        );
    }
}

#[test]
fn paging_covers_large_file_exactly_with_cut_lines() {
    let data = mixed_text(3 << 20);
    let reader = utf8_reader();
    let (docs, _file) = documents(&reader, &data, "big.txt");
    for (name, mut doc) in docs {
        let first = doc.read(LineSelection::range(Some(1), None)).unwrap();
        assert!(!first.cut_lines.is_empty() || first.truncated.is_some());
        let (got, _) = follow_pages(&mut doc);
        assert!(
            got == data,
            "{name}: pages plus cut-line rests must cover the file"
        );
    }
}

#[test]
fn paging_covers_one_5mb_line_exactly() {
    let mut data = "0123456789abcdef".repeat(5 << 16).into_bytes();
    data.extend_from_slice("ü".repeat(1000).as_bytes());
    data.push(b'\n');
    for limit in [0, 2000] {
        let reader = utf8_reader().max_line_chars(limit);
        let (docs, _file) = documents(&reader, &data, "one-line.txt");
        for (name, mut doc) in docs {
            let (got, pages) = follow_pages(&mut doc);
            assert!(got == data, "{name}, max_line_chars {limit}: exact cover");
            if limit == 0 {
                assert!(
                    pages >= 50,
                    "{name}: a 5 MB line is paged by bytes ({pages})"
                );
            }
        }
    }
}

#[test]
fn single_line_over_the_byte_budget_pages_by_bytes() {
    let data = "x".repeat(10_000) + "\nnext\n";
    let mut doc = utf8_reader()
        .max_line_chars(0)
        .max_bytes(4096)
        .document(Source::from_bytes(data.into_bytes(), "l.txt"));
    let r = doc.read(LineSelection::head(2)).unwrap();
    let t = r.truncated.unwrap();
    assert_eq!(t.reason, TruncationReason::MaxBytes);
    assert_eq!(r.content.len(), 4096);
    assert_eq!(t.next_start_byte, 4096);
    assert_eq!(t.next_start_line, None, "the page ended inside a line");
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((1, 1)));
}

#[test]
fn long_multibyte_line_is_cut_on_a_char_boundary() {
    let line = "日本語🦀".repeat(1000); // 4000 characters, 13000 bytes
    let data = format!("start\n{line}\nend\n");
    let mut doc = utf8_reader().document(Source::from_bytes(data.clone().into_bytes(), "jp.txt"));
    let r = doc.read(LineSelection::from(2..=3)).unwrap();
    let cut = r.cut_lines[0];
    assert_eq!(cut.line, 2);
    let shown: String = line.chars().take(2000).collect();
    assert_eq!(cut.shown_bytes, shown.len() as u64);
    assert_eq!(cut.total_bytes, line.len() as u64);
    assert_eq!(cut.next_start_byte, 6 + shown.len() as u64);
    assert_eq!(r.content, format!("{shown}\nend\n"));
    let marked = render(&r, Format::CatN);
    assert!(marked.contains(&format!(
        "… [line truncated: {} more bytes]",
        line.len() - shown.len()
    )));

    // The byte budget cuts on a boundary too: 1000 is not a multiple of 3 or 4.
    let mut doc = utf8_reader()
        .max_line_chars(0)
        .max_bytes(1000)
        .document(Source::from_bytes(line.clone().into_bytes(), "jp.txt"));
    let r = doc.read(LineSelection::head(1)).unwrap();
    assert!(r.content.len() <= 1000 && r.content.len() >= 997);
    assert!(line.is_char_boundary(r.content.len()));
    assert_eq!(r.truncated.unwrap().next_start_byte, r.content.len() as u64);
}

#[test]
fn a_cut_line_that_does_not_fit_the_byte_budget_is_paged_by_bytes() {
    // Line 2 is cut to 2000 characters, which do not fit after line 1, nor in a page of
    // 1500 bytes: the page before it stops at the line boundary, and the next page pages
    // it by bytes (a line larger than the byte budget is paged by bytes:
    // docs/contract.md#budgets-and-paging).
    let long = "b".repeat(5000);
    let data = format!("{}\n{long}\nz\n", "a".repeat(900));
    let mut doc = utf8_reader()
        .max_bytes(1500)
        .document(Source::from_bytes(data.into_bytes(), "p.txt"));
    let r = doc.read(LineSelection::range(Some(1), None)).unwrap();
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((1, 1)));
    assert_eq!(r.truncated.unwrap().next_start_line, Some(2));
    let r = doc.read(LineSelection::range(Some(2), None)).unwrap();
    assert!(r.cut_lines.is_empty());
    assert_eq!(r.content.len(), 1500);
    let t = r.truncated.unwrap();
    assert_eq!((t.next_start_byte, t.next_start_line), (901 + 1500, None));
}

#[test]
fn regression_a_page_cut_inside_malformed_utf8_does_not_overlap_the_next() {
    // Two stray continuation bytes, then a 3-byte character; a 1-byte budget. The page
    // used to stop inside the character, and the next page (a byte selection) snapped
    // back over bytes already returned.
    let data = vec![0x80, 0x80, 0xE6, 0x97, 0xA5, b'\n'];
    for chunk in [1, 1 << 20] {
        let mut src = Source::from_bytes(data.clone(), "m.txt");
        src.set_chunk_size(chunk);
        let mut doc = utf8_reader().max_bytes(1).max_line_chars(0).document(src);
        let (got, _) = follow_pages(&mut doc);
        assert_eq!(got, data);
    }
    let mut doc = utf8_reader()
        .max_bytes(1)
        .document(Source::from_bytes(data.clone(), "m.txt"));
    let r = doc.read(ByteSelection::new(Some(2), None)).unwrap();
    assert_eq!(
        r.raw_bytes(),
        "日".as_bytes(),
        "one whole character, even over budget"
    );
}

#[test]
fn a_utf16_line_cut_on_a_stray_continuation_byte_ends_where_its_rest_starts() {
    // Each stray byte is one U+FFFD, one unit, as a decoder shows it; a cut there would
    // leave a rest whose byte selection snaps back: it ends before the character before
    // the stray byte, or (the line's start before it) after the stray bytes (at the
    // file's start, a selection from byte 2 or 3 snaps back to 0).
    for (data, shown) in [(&b"aa\x80b\n"[..], 1), (b"\x80\x80\x80\x80\x80\n", 4)] {
        let mut doc = utf8_reader()
            .max_line_chars(2)
            .line_unit(LineUnit::Utf16)
            .document(Source::from_bytes(data.to_vec(), "s.txt"));
        let r = doc.read(LineSelection::range(Some(1), None)).unwrap();
        let cut = &r.cut_lines[0];
        assert_eq!((cut.shown_bytes, cut.next_start_byte), (shown, shown));
        let rest = doc.read(ByteSelection::new(Some(shown), None)).unwrap();
        assert_eq!(
            rest.bytes.start, shown,
            "the rest starts where the cut ends"
        );
        let (got, _) = follow_pages(&mut doc);
        assert_eq!(got, data);
    }
}

#[test]
fn regression_a_line_past_the_byte_budget_is_never_shown_empty() {
    // After 14 bytes, the last line (a 4-byte character and `a`, cut to 4 characters)
    // does not fit: the page must stop before it, not list it as cut with 0 bytes shown.
    let data = vec![
        128, 195, 169, 230, 151, 165, 240, 159, 166, 128, 97, 97, 13, 10, 10, 240, 159, 166, 128,
        97,
    ];
    let mut doc = utf8_reader()
        .max_lines(3)
        .max_bytes(14)
        .max_line_chars(4)
        .document(Source::from_bytes(data.clone(), "m.txt"));
    let r = doc.read(LineSelection::range(Some(1), None)).unwrap();
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((1, 2)));
    assert!(r.cut_lines.iter().all(|c| c.shown_bytes > 0));
    assert_eq!(r.truncated.unwrap().next_start_line, Some(3));
    let (got, _) = follow_pages(&mut doc);
    assert_eq!(got, data);
}

// ---------------------------------------------------------------------------------------
// Paging under random budgets (property)

mod prop {
    use super::*;
    use proptest::prelude::*;

    fn piece() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"a".to_vec()),
            Just("é".as_bytes().to_vec()),
            Just("日".as_bytes().to_vec()),
            Just("🦀".as_bytes().to_vec()),
            Just(b"\n".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"\r".to_vec()),
            Just(vec![0xFF]),
            Just(vec![0x80]),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn paging_covers_random_files_under_random_budgets(
            pieces in proptest::collection::vec(piece(), 0..200),
            max_lines in 0u64..6,
            max_bytes in 0u64..40,
            max_line_chars in 0u64..8,
            chunk in 1usize..64,
        ) {
            let data: Vec<u8> = pieces.concat();
            let reader = utf8_reader()
                .max_lines(max_lines)
                .max_bytes(max_bytes)
                .max_line_chars(max_line_chars);
            let mut src = Source::from_bytes(data.clone(), "p.txt");
            src.set_chunk_size(chunk);
            let mut doc = reader.document(src);
            if data.is_empty() {
                let r = doc.read(LineSelection::range(Some(1), None)).unwrap();
                prop_assert!(r.content.is_empty());
            } else {
                let (got, _) = follow_pages(&mut doc);
                prop_assert_eq!(got, data);
            }
        }

        #[test]
        fn paging_covers_random_files_with_utf16_line_cuts(
            pieces in proptest::collection::vec(piece(), 1..120),
            max_bytes in 0u64..40,
            max_line_chars in 1u64..8,
            chunk in 1usize..64,
        ) {
            let data: Vec<u8> = pieces.concat();
            let mut src = Source::from_bytes(data.clone(), "p.txt");
            src.set_chunk_size(chunk);
            let mut doc = utf8_reader()
                .max_bytes(max_bytes)
                .max_line_chars(max_line_chars)
                .line_unit(LineUnit::Utf16)
                .document(src);
            let (got, _) = follow_pages(&mut doc);
            prop_assert_eq!(got, data);
        }

        #[test]
        fn paging_covers_random_files_with_positional_reads(
            pieces in proptest::collection::vec(piece(), 1..120),
            max_bytes in 1u64..24,
            max_line_chars in 0u64..6,
            chunk in 1usize..32,
        ) {
            let data: Vec<u8> = pieces.concat();
            let file = temp_file(&data);
            let mut src = Source::open(file.path()).unwrap();
            src.set_chunk_size(chunk);
            let mut doc = utf8_reader()
                .max_bytes(max_bytes)
                .max_line_chars(max_line_chars)
                .document(src);
            let (got, _) = follow_pages(&mut doc);
            prop_assert_eq!(got, data);
        }
    }
}
