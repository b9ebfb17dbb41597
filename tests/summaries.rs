//! Paging, omitted-content summaries, landmarks, outlines, and around/block reads.

use std::io::Write;

use rangeread::{
    render, ByteSelection, Document, Error, Format, LineSelection, LineUnit, ReadResult, Reader,
    Selection, Source, Totals, TruncationReason,
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
// Landmarks

fn outline_lines(path: &str) -> Vec<u64> {
    let mut doc = utf8_reader().open(path).unwrap();
    let o = doc.outline().unwrap();
    assert!(o.complete, "{path}");
    o.landmarks.iter().map(|l| l.line).collect()
}

#[test]
fn landmarks_rust() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.rs"),
        [7, 12, 17, 18, 24, 25, 29, 30, 32, 38, 40, 42]
    );
}

#[test]
fn landmarks_python() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.py"),
        [7, 12, 16, 20, 24, 25]
    );
}

#[test]
fn landmarks_typescript_and_javascript() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.ts"),
        [3, 7, 9, 14, 19, 26, 31, 35, 37, 38]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.js"),
        [3, 7, 13, 14, 19]
    );
}

#[test]
fn landmarks_go() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.go"),
        [5, 9, 13, 17]
    );
}

#[test]
fn landmarks_java_kotlin_csharp() {
    assert_eq!(
        outline_lines("tests/data/landmarks/Sample.java"),
        [6, 9, 14, 21, 25, 26, 29]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.kt"),
        [3, 5, 8, 13]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/Sample.cs"),
        [3, 6, 10, 18, 21, 23]
    );
}

#[test]
fn landmarks_c_and_cpp() {
    // `#define LIMIT 10`, the prototype on line 17 and the variable are not landmarks;
    // the GNU-style definition is found on its name line.
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.c"),
        [3, 6, 11, 13, 20, 25]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.cpp"),
        [3, 5, 9, 16, 20]
    );
}

#[test]
fn landmarks_ruby_php_shell_sql() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.rb"),
        [3, 4, 7, 11, 15]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.php"),
        [2, 6, 8, 11, 13, 19]
    );
    assert_eq!(outline_lines("tests/data/landmarks/sample.sh"), [5, 9, 13]);
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.sql"),
        [2, 7, 10, 14]
    );
}

#[test]
fn landmarks_markdown_toml_ini_yaml() {
    // The `# not a heading` inside the fenced block is skipped.
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.md"),
        [1, 5, 12, 16]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.toml"),
        [4, 10, 13]
    );
    assert_eq!(outline_lines("tests/data/landmarks/sample.ini"), [2, 5]);
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.yaml"),
        [2, 3, 6, 11]
    );
}

#[test]
fn landmarks_generic_fallback_is_conservative() {
    assert_eq!(outline_lines("tests/data/landmarks/sample.txt"), [3]);
}

#[test]
fn omitted_landmarks_are_nearest_first_and_capped() {
    let r = utf8_reader()
        .read(
            "tests/data/landmarks/sample.rs",
            LineSelection::from(19..=22),
        )
        .unwrap();
    let o = r.omitted.unwrap();
    let lines: Vec<u64> = o.landmarks.iter().map(|l| l.line).collect();
    // Distances: 18 → 1, 17 → 2, 24 → 2, 25 → 3, 12 → 7, 29 → 7, …; a tie goes to the
    // line above.
    assert_eq!(lines, [18, 17, 24, 25, 12, 29, 30, 32, 7, 38, 40, 42]);
    assert_eq!(
        o.landmarks[0].text,
        "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {"
    );
    assert!(
        o.summary.contains("Structure there: fn fmt(&self"),
        "{}",
        o.summary
    );
    assert!(o.summary.contains("(l.18)"));

    let r = utf8_reader()
        .max_landmarks(3)
        .read(
            "tests/data/landmarks/sample.rs",
            LineSelection::from(19..=22),
        )
        .unwrap();
    let lines: Vec<u64> = r
        .omitted
        .unwrap()
        .landmarks
        .iter()
        .map(|l| l.line)
        .collect();
    assert_eq!(lines, [18, 17, 24]);
}

#[test]
fn summaries_can_be_switched_off() {
    let r = utf8_reader()
        .summaries(false)
        .read(
            "tests/data/landmarks/sample.rs",
            LineSelection::from(19..=22),
        )
        .unwrap();
    let o = r.omitted.unwrap();
    assert!(o.landmarks.is_empty());
    assert_eq!(o.before_lines, Some(18));
    assert!(!o.summary.contains("Structure"));
    assert!(o.summary.starts_with("Lines 1-18 omitted"));
}

#[test]
fn landmark_search_is_bounded_by_the_window_and_says_so() {
    // 20 000 functions of 3 lines; read 10 lines at 90 %.
    let mut text = String::new();
    let mut starts = Vec::new();
    for i in 0..20_000 {
        for l in [
            format!("fn f{i}() {{\n"),
            "    body();\n".into(),
            "}\n".into(),
        ] {
            starts.push(text.len() as u64);
            text.push_str(&l);
        }
    }
    starts.push(text.len() as u64);
    let src = Source::from_bytes(text.into_bytes(), "many.rs");
    let mut doc = utf8_reader()
        .landmark_window(4096)
        .max_landmarks(0)
        .document(src);
    let r = doc.read(LineSelection::from(54_001..=54_010)).unwrap();
    let o = r.omitted.unwrap();
    // About 140 functions of 29 bytes on each side.
    assert!(o.landmarks.len() > 250, "{}", o.landmarks.len());
    let (first, last) = (starts[54_000], starts[54_010]);
    assert_eq!((r.bytes.start, r.bytes.end), (first, last));
    for l in &o.landmarks {
        let (s, e) = (starts[l.line as usize - 1], starts[l.line as usize]);
        assert!(
            (e <= first && first - s <= 4096) || (s >= last && e - last <= 4096),
            "landmark {} outside the 4 KiB window",
            l.line
        );
        let i = (l.line - 1) / 3;
        assert_eq!(l.text, format!("fn f{i}() {{"), "line numbers are exact");
    }
    // The whole lines inside the windows, by their byte offsets.
    let a = 1 + starts.iter().position(|&s| s >= first - 4096).unwrap();
    let b = starts.iter().rposition(|&e| e <= last + 4096).unwrap();
    let note = format!(
        "Landmarks were looked for only in lines {a}-54000 above the read and lines \
         54011-{b} below it (4.0 KiB on each side)."
    );
    assert!(o.summary.ends_with(&note), "{}\n{note}", o.summary);
}

#[test]
fn landmarks_of_byte_reads_and_pages_inside_a_line() {
    let text = "fn a() {}\nfn b() {}\nfn c() {}\nfn d() {}\n";
    let mut doc = utf8_reader()
        .totals(Totals::Always)
        .document(Source::from_bytes(text.as_bytes().to_vec(), "x.rs"));
    // Bytes 12..25 lie inside lines 2 and 3.
    let r = doc.read(ByteSelection::new(Some(12), Some(25))).unwrap();
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((2, 3)));
    let lines: Vec<u64> = r
        .omitted
        .unwrap()
        .landmarks
        .iter()
        .map(|l| l.line)
        .collect();
    assert_eq!(lines, [1, 4]);
}

#[test]
fn outline_is_bounded() {
    let mut doc = utf8_reader()
        .outline_max_bytes(200)
        .open("tests/data/landmarks/sample.rs")
        .unwrap();
    let o = doc.outline().unwrap();
    assert!(!o.complete);
    assert!(o.scanned_bytes <= 200);
    assert_eq!(o.total_lines, None);
    assert!(o.landmarks.iter().all(|l| l.line <= o.scanned_lines));

    let mut doc = utf8_reader()
        .max_lines(2)
        .open("tests/data/landmarks/sample.rs")
        .unwrap();
    let o = doc.outline().unwrap();
    assert_eq!(o.landmarks.len(), 2);
    assert!(!o.complete);
}

// ---------------------------------------------------------------------------------------
// Markdown renderer

#[test]
fn markdown_renderer_tags_each_language() {
    let cases = [
        ("a.rs", "rust"),
        ("a.py", "python"),
        ("a.ts", "typescript"),
        ("a.tsx", "tsx"),
        ("a.js", "javascript"),
        ("a.go", "go"),
        ("A.java", "java"),
        ("a.kt", "kotlin"),
        ("A.cs", "csharp"),
        ("a.c", "c"),
        ("a.h", "c"),
        ("a.cpp", "cpp"),
        ("a.rb", "ruby"),
        ("a.php", "php"),
        ("a.sh", "bash"),
        ("a.sql", "sql"),
        ("README.md", "markdown"),
        ("Cargo.toml", "toml"),
        ("a.ini", "ini"),
        ("a.yml", "yaml"),
        ("a.json", "json"),
        ("Makefile", "makefile"),
        ("Dockerfile", "dockerfile"),
        ("notes.unknown", ""),
    ];
    for (name, tag) in cases {
        let text = "one\ntwo\nthree\n";
        let mut doc = utf8_reader().document(Source::from_bytes(text.as_bytes().to_vec(), name));
        let r = doc.read(LineSelection::from(2..=2)).unwrap();
        let md = render(&r, Format::Markdown);
        let mut lines = md.lines();
        assert_eq!(
            lines.next(),
            Some(format!("# File: {name} (Lines 2-2)").as_str())
        );
        assert_eq!(lines.next(), Some(format!("```{tag}").as_str()), "{name}");
        assert_eq!(lines.next(), Some("two"));
        assert_eq!(lines.next(), Some("```"));
        assert_eq!(
            lines.next(),
            Some("[Line 1 omitted (1 line, 4 B); line 3 omitted (1 line, 6 B).]")
        );
    }
}

#[test]
fn markdown_renderer_lists_structure_and_continuation() {
    let r = utf8_reader()
        .max_lines(3)
        .read(
            "tests/data/landmarks/sample.py",
            LineSelection::from(12..=30),
        )
        .unwrap();
    let md = render(&r, Format::Markdown);
    assert!(md.starts_with("# File: tests/data/landmarks/sample.py (Lines 12-14)\n```python\n"));
    assert!(
        md.contains("Structure there: def loud(self): (l.16)"),
        "{md}"
    );
    assert!(
        md.ends_with("[... truncated, showing lines 12-14 of 27; continue with start_line=15]\n")
    );
}

// ---------------------------------------------------------------------------------------
// Around and block reads

const NESTED_RS: &str = "\
//! Module.

mod outer {
    /// A thing.
    #[derive(Debug)]
    pub struct Thing {
        n: u32,
    }

    impl Thing {
        /// Makes one.
        #[inline]
        pub fn new(
            n: u32,
        ) -> Thing
        where
            u32: Copy,
        {
            if n > 0 {
                Thing { n }
            } else {
                Thing { n: 1 }
            }
        }

        fn get(&self) -> u32 {
            self.n
        }
    }
}
";

fn read_nested(sel: LineSelection) -> ReadResult {
    let mut doc = utf8_reader().document(Source::from_bytes(NESTED_RS.as_bytes().to_vec(), "n.rs"));
    doc.read(sel).unwrap()
}

fn span(r: &ReadResult) -> (u64, u64) {
    r.lines.map(|l| (l.start, l.end)).unwrap()
}

#[test]
fn around_at_first_and_last_line() {
    let r = read_nested(LineSelection::around(1, 3));
    assert_eq!(span(&r), (1, 4));
    assert!(!r.adjustments.end_clamped);
    let total = NESTED_RS.lines().count() as u64;
    let r = read_nested(LineSelection::around(total, 3));
    assert_eq!(span(&r), (total - 3, total));
    assert!(
        r.adjustments.end_clamped,
        "the end past the file is clamped"
    );
    let r = read_nested(LineSelection::around(10, 0));
    assert_eq!(r.content, "    impl Thing {\n");
}

#[test]
fn around_errors() {
    let mut doc = utf8_reader().document(Source::from_bytes(NESTED_RS.as_bytes().to_vec(), "n.rs"));
    let e = doc.read(LineSelection::around(500, 10)).unwrap_err();
    assert!(matches!(e, Error::LineBeyondEnd { start: 500, .. }), "{e}");
    let e = doc.read(LineSelection::around(0, 10)).unwrap_err();
    assert_eq!(e.to_string(), "line (0) is invalid: lines are 1-indexed");
    let e = doc.read(LineSelection::block(0)).unwrap_err();
    assert_eq!(e.to_string(), "line (0) is invalid: lines are 1-indexed");
}

#[test]
fn block_inside_nested_blocks() {
    // Inside `new`: the method with its doc comment, attribute, multi-line signature,
    // `where` clause and Allman brace, through its closing brace.
    for line in [13, 14, 19, 20, 22, 24] {
        assert_eq!(
            span(&read_nested(LineSelection::block(line))),
            (11, 24),
            "line {line}"
        );
    }
    // Inside `get`, and on its closing brace.
    assert_eq!(span(&read_nested(LineSelection::block(27))), (26, 28));
    assert_eq!(span(&read_nested(LineSelection::block(28))), (26, 28));
    // On the blank line between the methods: the impl.
    assert_eq!(span(&read_nested(LineSelection::block(25))), (10, 29));
    // A struct field: the struct with its doc comment and attribute.
    assert_eq!(span(&read_nested(LineSelection::block(7))), (4, 8));
    // The `impl` line itself.
    assert_eq!(span(&read_nested(LineSelection::block(10))), (10, 29));
}

#[test]
fn block_at_first_and_last_line() {
    // Line 1 is a top-level comment, not inside a definition: its statement.
    assert_eq!(span(&read_nested(LineSelection::block(1))), (1, 1));
    // The last line closes `mod outer`.
    let total = NESTED_RS.lines().count() as u64;
    let r = read_nested(LineSelection::block(total));
    assert_eq!(span(&r), (3, total));
    assert_eq!(
        r.requested.lines.map(|l| (l.start, l.end)),
        Some((3, Some(total as i64)))
    );
}

#[test]
fn block_in_python_with_decorators() {
    let py = "\
import os


class A:
    x = 1

    @staticmethod
    @cache
    def f(a):
        if a:
            return 1

        return 2

    def g(self):
        pass


def main():
    pass
";
    let mut doc = utf8_reader().document(Source::from_bytes(py.as_bytes().to_vec(), "a.py"));
    let mut block = |l| span(&doc.read(LineSelection::block(l)).unwrap());
    assert_eq!(
        block(11),
        (7, 13),
        "inside f: decorators through the last body line"
    );
    assert_eq!(block(12), (7, 13), "a blank line inside f");
    assert_eq!(block(5), (4, 16), "a class attribute: the class");
    assert_eq!(block(20), (19, 20), "the last line of the file");
    assert_eq!(block(1), (1, 1), "a top-level statement");
}

#[test]
fn block_in_c_gnu_style_and_outside_definitions() {
    let c = "\
#include <stdio.h>

/* Adds. */
static int
add (int a, int b)
{
  if (a)
    {
      return a + b;
    }
  return b;
}

int main(void) {
    return add(1, 2);
}
";
    let mut doc = utf8_reader().document(Source::from_bytes(c.as_bytes().to_vec(), "a.c"));
    let mut block = |l| span(&doc.read(LineSelection::block(l)).unwrap());
    assert_eq!(
        block(9),
        (3, 12),
        "comment, return type line, name line, body"
    );
    assert_eq!(block(15), (14, 16));
    assert_eq!(block(16), (14, 16));
}

#[test]
fn block_in_markdown_and_toml_sections() {
    let md = "# T\n\nintro\n\n## A\n\ntext a\n\n### A.1\n\nmore\n\n## B\n\ntext b\n";
    let mut doc = utf8_reader().document(Source::from_bytes(md.as_bytes().to_vec(), "r.md"));
    assert_eq!(span(&doc.read(LineSelection::block(7)).unwrap()), (5, 11));
    assert_eq!(span(&doc.read(LineSelection::block(11)).unwrap()), (9, 11));
    assert_eq!(span(&doc.read(LineSelection::block(15)).unwrap()), (13, 15));
    let toml = "[a]\nx = 1\n\n# about b\n[b]\ny = 2\nz = 3\n\n[c]\n";
    let mut doc = utf8_reader().document(Source::from_bytes(toml.as_bytes().to_vec(), "c.toml"));
    assert_eq!(span(&doc.read(LineSelection::block(6)).unwrap()), (4, 7));
}

#[test]
fn block_longer_than_the_budget_pages() {
    let mut body = String::from("fn long() {\n");
    for i in 0..50 {
        body.push_str(&format!("    step({i});\n"));
    }
    body.push_str("}\n");
    let mut doc = utf8_reader()
        .max_lines(10)
        .document(Source::from_bytes(body.into_bytes(), "l.rs"));
    let r = doc.read(LineSelection::block(30)).unwrap();
    assert_eq!(span(&r), (1, 10));
    assert_eq!(r.truncated.unwrap().next_start_line, Some(11));
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

/// A reader that treats every input as UTF-8: these tests are about paging and summaries
/// on any bytes; classification has its own tests in `tests/classify.rs`.
fn utf8_reader() -> Reader {
    Reader::new().detection(rangeread::Detection::AssumeUtf8)
}

/// A file of many 64 KiB blocks: `fn fN() {` landmarks between body lines of every
/// length, and now and then a line longer than a block, so that lines straddle block
/// ends everywhere. The landmarks around reads at many places, with and without a
/// cache (whose blocks persist between reads) and with several windows, must be exactly
/// the naive answer: the `fn` lines wholly inside the window, nearest first.
#[test]
fn landmarks_across_blocks_match_the_naive_search_with_and_without_a_cache() {
    use rangeread::IndexCache;
    use std::sync::Arc;
    let mut text = String::new();
    // (start, end, is_landmark) of every line.
    let mut lines: Vec<(u64, u64, bool)> = Vec::new();
    let mut x = 12345u64;
    while text.len() < 1_200_000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let start = text.len() as u64;
        // Every block end falls inside a landmark line, and the rest at random.
        let mark = 65_536 - text.len() % 65_536 < 8 || (x >> 60) < 3;
        let line = if mark {
            format!("fn f{}() {{\n", lines.len())
        } else if 65_536 - text.len() % 65_536 < 200 {
            "    tail();\n".to_string()
        } else if (x >> 50).is_multiple_of(1500) {
            format!("    // {}\n", "y".repeat(70_000))
        } else {
            format!(
                "    body({});{}\n",
                lines.len(),
                " ".repeat((x >> 40) as usize % 120)
            )
        };
        text.push_str(&line);
        lines.push((start, text.len() as u64, mark));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blocks.rs");
    std::fs::write(&path, &text).unwrap();
    let naive = |first: u64, last: u64, window: u64| -> Vec<u64> {
        let (start, end) = (lines[first as usize - 1].0, lines[last as usize - 1].1);
        let (ws, we) = (start.saturating_sub(window), end.saturating_add(window));
        let mut before: Vec<u64> = (1..first)
            .rev()
            .filter(|&l| {
                let (s, _, m) = lines[l as usize - 1];
                m && s >= ws
            })
            .collect();
        let mut after: Vec<u64> = (last + 1..=lines.len() as u64)
            .filter(|&l| {
                let (_, e, m) = lines[l as usize - 1];
                m && e <= we
            })
            .collect();
        before.truncate(40);
        after.truncate(40);
        let (mut b, mut a) = (before.into_iter().peekable(), after.into_iter().peekable());
        let mut out = Vec::new();
        while out.len() < 40 {
            let pick_before = match (b.peek(), a.peek()) {
                (Some(&bl), Some(&al)) => first - bl <= al - last,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            out.push(if pick_before { b.next() } else { a.next() }.unwrap());
        }
        out
    };
    let n = lines.len() as u64;
    let mut straddlers = 0;
    for window in [256 << 10, 100_000, 4096, 70_000] {
        let cache = Arc::new(IndexCache::new(64 << 20));
        let cached = utf8_reader().landmark_window(window).cache(cache.clone());
        let plain = utf8_reader().landmark_window(window);
        // Reads at random places, and just above and below every line cut by a block end.
        let mut reads: Vec<(u64, u64)> = (0..40u64)
            .map(|i| {
                let first = 1 + (i * 7919 * 31) % n;
                (first, (first + i % 25).min(n))
            })
            .collect();
        for (i, &(s, e, _)) in lines.iter().enumerate() {
            let l = i as u64 + 1;
            if s / 65_536 != (e - 1) / 65_536 && l > 5 && l + 5 < n {
                reads.push((l - 4, l - 2));
                reads.push((l + 2, l + 3));
            }
        }
        for (first, last) in reads {
            let sel = LineSelection::from(first..=last);
            let want = naive(first, last, window);
            straddlers += want
                .iter()
                .filter(|&&l| {
                    let (s, e, _) = lines[l as usize - 1];
                    s / 65_536 != (e - 1) / 65_536
                })
                .count();
            let a = cached.read(&path, sel).unwrap();
            let b = plain.read(&path, sel).unwrap();
            let got: Vec<u64> = a
                .omitted
                .as_ref()
                .unwrap()
                .landmarks
                .iter()
                .map(|l| l.line)
                .collect();
            assert_eq!(got, want, "lines {first}-{last}, window {window}");
            for l in &a.omitted.as_ref().unwrap().landmarks {
                assert_eq!(l.text, format!("fn f{}() {{", l.line - 1));
            }
            assert_eq!(a.omitted, b.omitted, "cached and uncached differ");
            // A byte read that starts and ends inside lines: cached and uncached agree.
            let (s, e) = (
                lines[first as usize - 1].0 + 3,
                lines[last as usize - 1].1 - 2,
            );
            let by = ByteSelection::new(Some(s), Some(e.max(s + 1)));
            let a = cached
                .clone()
                .totals(Totals::Always)
                .read(&path, by)
                .unwrap();
            let b = plain
                .clone()
                .totals(Totals::Always)
                .read(&path, by)
                .unwrap();
            assert_eq!(a.omitted, b.omitted, "bytes {s}-{e}, window {window}");
        }
        assert!(cache.memory_bytes() > 0);
    }
    // The reads met landmark lines cut by block ends.
    assert!(straddlers > 10, "{straddlers}");
}
