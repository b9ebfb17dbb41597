//! Line index and line selections against a naive split, on every backend.

mod common;

use common::{naive_lines, unlimited, Input};
use proptest::prelude::*;
use rangeread::{Error, LineIndex, LineSelection, Selection, Source};

/// What the contract says a line selection returns: `(first, last)` lines and the bytes,
/// or the error's message.
/// `(first, last)` lines returned and their bytes.
type Expected = (Option<(u64, u64)>, Vec<u8>);

fn expected(bytes: &[u8], sel: LineSelection) -> Result<Expected, String> {
    let lines = naive_lines(bytes);
    let n = lines.len() as i64;
    let take = |first: i64, last: i64| {
        if first > last {
            return (None, Vec::new());
        }
        let content = lines[(first - 1) as usize..last as usize].concat();
        (Some((first as u64, last as u64)), content)
    };
    let beyond = |s: i64| {
        format!(
            "Invalid range specified: start_line ({s}) is beyond the end of the file ({n} lines)."
        )
    };
    let zero = |f: &str| format!("{f} (0) is invalid: lines are 1-indexed");
    match sel {
        LineSelection::Around { .. }
        | LineSelection::Block { .. }
        | LineSelection::Indentation(_) => {
            unreachable!("around, block and indentation reads are tested on their own")
        }
        LineSelection::Head(k) => Ok(take(1, n.min(k as i64))),
        LineSelection::Tail(k) => Ok(take((n - k as i64 + 1).max(1), n)),
        LineSelection::OffsetLimit { offset, limit, .. } => {
            let o = offset as i64;
            if o == 0 {
                return Err(zero("start_line"));
            }
            if limit == Some(0) {
                return Ok((None, Vec::new()));
            }
            if o > n && !(n == 0 && o == 1) {
                return Err(beyond(o));
            }
            let last = limit.map_or(n, |l| n.min(o + l as i64 - 1));
            Ok(take(o, last))
        }
        LineSelection::Range { start, end, .. } => {
            if start == Some(0) {
                return Err(zero("start_line"));
            }
            if end == Some(0) {
                return Err(zero("end_line"));
            }
            let s = start.unwrap_or(1);
            let after = |e: i64| {
                format!("Invalid range specified: start_line ({s}) is greater than end_line ({e}).")
            };
            if let Some(e) = end {
                if (s > 0) == (e > 0) && s > e {
                    return Err(after(e));
                }
            }
            let abs = |v: i64| if v < 0 { n + 1 + v } else { v };
            let rs = abs(s).max(1);
            let re = end.map_or(n, |e| abs(e).min(n));
            if n == 0 && rs == 1 {
                // Line 1 of an empty file (however spelled) is empty, not an error.
                return Ok((None, Vec::new()));
            }
            if s > 0 && rs > n {
                return Err(beyond(rs));
            }
            if let Some(e) = end {
                if (s > 0) != (e > 0) && rs > abs(e) {
                    return Err(after(e));
                }
            }
            Ok(take(rs, re))
        }
    }
}

fn check_all_backends(bytes: &[u8], sel: LineSelection) {
    let input = Input::new(bytes);
    let want = expected(bytes, sel);
    for b in input.backends() {
        let mut doc = unlimited(b.block).document(b.source);
        let got = doc.read(Selection::Lines(sel));
        match (&want, got) {
            (Ok((lines, content)), Ok(r)) => {
                assert_eq!(r.raw_bytes(), &content[..], "{} {sel:?} content", b.name);
                assert_eq!(
                    r.lines.map(|l| (l.start, l.end)),
                    *lines,
                    "{} {sel:?} lines",
                    b.name
                );
                assert_eq!(
                    r.total_lines,
                    Some(naive_lines(bytes).len() as u64),
                    "{} total",
                    b.name
                );
                assert!(r.truncated.is_none());
            }
            (Err(msg), Err(e)) => assert_eq!(&e.to_string(), msg, "{} {sel:?}", b.name),
            (w, g) => panic!("{} {sel:?}: wanted {w:?}, got {g:?}", b.name),
        }
    }
}

fn check_index(bytes: &[u8]) {
    let input = Input::new(bytes);
    let lines = naive_lines(bytes);
    for b in input.backends() {
        let mut ix = LineIndex::with_block_size(b.source.len(), b.block);
        assert_eq!(
            ix.total_lines(&b.source).unwrap(),
            lines.len() as u64,
            "{}",
            b.name
        );
        let mut at = 0u64;
        for (i, l) in lines.iter().enumerate() {
            let span = ix.line_span(&b.source, i as u64 + 1).unwrap();
            assert_eq!(
                span,
                Some(at..at + l.len() as u64),
                "{} line {}",
                b.name,
                i + 1
            );
            // Every offset of small inputs; a sample of large ones.
            let step = if bytes.len() < 4096 { 1 } else { 4093 };
            for off in (at..at + l.len() as u64).step_by(step) {
                assert_eq!(ix.line_of_offset(&b.source, off).unwrap(), i as u64 + 1);
            }
            at += l.len() as u64;
        }
        assert_eq!(
            ix.line_span(&b.source, lines.len() as u64 + 1).unwrap(),
            None
        );
        // A fresh index answers the same questions lazily, in any order.
        let mut lazy = LineIndex::with_block_size(b.source.len(), b.block);
        for k in (1..=lines.len() as u64).rev().step_by(3) {
            assert_eq!(
                lazy.line_start(&b.source, k).unwrap(),
                ix.line_start(&b.source, k).unwrap()
            );
        }
    }
}

fn byte_strategy() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop_oneof![
        4 => Just(b"\n".to_vec()),
        2 => Just(b"\r\n".to_vec()),
        1 => Just(b"\r".to_vec()),
        6 => "[a-z ]{1,6}".prop_map(|s| s.into_bytes()),
        1 => Just("é日🎉".as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
        1 => Just(vec![b'x'; 40]),
    ];
    prop::collection::vec(atom, 0..40).prop_map(|v| v.concat())
}

fn selection_strategy() -> impl Strategy<Value = LineSelection> {
    let pos = -12i64..14;
    prop_oneof![
        (prop::option::of(pos.clone()), prop::option::of(pos))
            .prop_map(|(s, e)| LineSelection::range(s, e)),
        (0u64..14, prop::option::of(0u64..8)).prop_map(|(o, l)| LineSelection::offset_limit(o, l)),
        (0u64..14).prop_map(LineSelection::head),
        (0u64..14).prop_map(LineSelection::tail),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn index_matches_naive(bytes in byte_strategy()) {
        check_index(&bytes);
    }

    #[test]
    fn selections_match_naive(bytes in byte_strategy(), sel in selection_strategy()) {
        check_all_backends(&bytes, sel);
    }

    #[test]
    fn parser_round_trips_ranges(s in 1i64..1000, len in 0i64..1000) {
        let e = s + len;
        prop_assert_eq!(format!("{s}:{e}").parse::<LineSelection>().unwrap(), LineSelection::range(Some(s), Some(e)));
        prop_assert_eq!(format!("{s}:+{len}").parse::<LineSelection>().unwrap(), LineSelection::range(Some(s), Some(e)));
        prop_assert_eq!(format!("-{s}:").parse::<LineSelection>().unwrap(), LineSelection::range(Some(-s), None));
    }
}

#[test]
fn index_edge_inputs() {
    for bytes in [
        &b""[..],
        b"\n",
        b"\n\n\n",
        b"no newline",
        b"a\r\nb\r\n",
        b"lone\rcr\n",
        b"x\n\ny",
    ] {
        check_index(bytes);
    }
    let long = [
        vec![b'a'; 300_000],
        b"\nshort\n".to_vec(),
        vec![b'b'; 70_000],
    ]
    .concat();
    check_index(&long);
}

#[test]
fn empty_file_start_1_is_empty_not_an_error() {
    check_all_backends(b"", LineSelection::range(Some(1), None));
    let input = Input::new(b"");
    let r = unlimited(64)
        .read(&input.path, LineSelection::from(1..=1))
        .unwrap();
    assert_eq!(r.total_lines, Some(0));
    assert_eq!(r.lines, None);
    assert_eq!(r.content, "");
    assert!(!r.is_partial);
}

#[test]
fn start_beyond_the_end_is_an_error_with_the_line_count() {
    let input = Input::new(b"a\nb\nc\n");
    let err = unlimited(64)
        .read(&input.path, LineSelection::from(5..=9))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid range specified: start_line (5) is beyond the end of the file (3 lines)."
    );
    let err = unlimited(64)
        .read(&Input::new(b"").path, LineSelection::from(2..))
        .unwrap_err();
    assert!(matches!(
        err,
        Error::LineBeyondEnd {
            start: 2,
            total_lines: 0,
            ..
        }
    ));
}

#[test]
fn zero_and_reversed_ranges_have_the_contract_messages() {
    let input = Input::new(b"a\nb\nc\n");
    let r = unlimited(64);
    assert_eq!(
        r.read(&input.path, LineSelection::range(Some(0), Some(2)))
            .unwrap_err()
            .to_string(),
        "start_line (0) is invalid: lines are 1-indexed"
    );
    assert_eq!(
        r.read(&input.path, LineSelection::range(Some(3), Some(2)))
            .unwrap_err()
            .to_string(),
        "Invalid range specified: start_line (3) is greater than end_line (2)."
    );
    assert_eq!(
        r.read(&input.path, LineSelection::offset_limit(0, Some(2)))
            .unwrap_err()
            .to_string(),
        "start_line (0) is invalid: lines are 1-indexed"
    );
}

#[test]
fn end_past_the_last_line_is_clamped_and_reported() {
    let input = Input::new(b"a\nb\nc\n");
    let r = unlimited(64)
        .read(&input.path, LineSelection::from(2..=99))
        .unwrap();
    assert_eq!(r.content, "b\nc\n");
    assert!(r.adjustments.end_clamped);
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((2, 3)));
    let exact = unlimited(64)
        .read(&input.path, LineSelection::from(2..=3))
        .unwrap();
    assert!(!exact.adjustments.end_clamped);
}

#[test]
fn tail_larger_than_the_file_selects_the_whole_file() {
    let input = Input::new(b"a\nb\nc");
    let r = unlimited(64)
        .read(&input.path, LineSelection::parse("-50:").unwrap())
        .unwrap();
    assert_eq!(r.content, "a\nb\nc");
    assert!(!r.is_partial);
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((1, 3)));
}

#[test]
fn head_tail_and_limit_zero_select_nothing() {
    let input = Input::new(b"a\nb\n");
    for sel in [
        LineSelection::head(0),
        LineSelection::tail(0),
        LineSelection::offset_limit(1, Some(0)),
    ] {
        let r = unlimited(64).read(&input.path, sel).unwrap();
        assert_eq!(r.content, "");
        assert_eq!(r.lines, None, "{sel:?}");
    }
}

#[test]
fn offset_without_limit_reads_to_the_end_within_the_budget() {
    let body: String = (1..=50).map(|i| format!("{i}\n")).collect();
    let input = Input::new(body.as_bytes());
    let r = rangeread::Reader::new()
        .max_lines(10)
        .read(&input.path, LineSelection::offset_limit(20, None))
        .unwrap();
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((20, 29)));
    let t = r.truncated.unwrap();
    assert_eq!(t.next_start_line, Some(30));
    assert_eq!(t.reason, rangeread::TruncationReason::MaxLines);
}

#[test]
fn crlf_terminators_stay_in_content_and_numbered_output_drops_them() {
    let input = Input::new(b"one\r\ntwo\r\nthree");
    let r = unlimited(64)
        .read(&input.path, LineSelection::from(1..))
        .unwrap();
    assert_eq!(r.content, "one\r\ntwo\r\nthree");
    assert_eq!(r.line_ending, rangeread::LineEnding::Crlf);
    assert_eq!(
        rangeread::render(&r, rangeread::Format::Colon),
        "1: one\n2: two\n3: three\n"
    );
    assert_eq!(
        rangeread::render(&r, rangeread::Format::CatN),
        "     1\tone\n     2\ttwo\n     3\tthree\n"
    );
}

#[test]
fn lone_cr_is_content_not_a_terminator() {
    let input = Input::new(b"a\rb\nc\n");
    let r = unlimited(64)
        .read(&input.path, LineSelection::from(1..=1))
        .unwrap();
    assert_eq!(r.content, "a\rb\n");
    assert_eq!(r.total_lines, Some(2));
}

#[test]
fn head_of_a_large_file_does_not_scan_it_under_if_known_totals() {
    let body: Vec<u8> = (0..200_000)
        .flat_map(|i| format!("line {i}\n").into_bytes())
        .collect();
    let input = Input::new(&body);
    let mut doc = unlimited(64 * 1024)
        .totals(rangeread::Totals::IfKnown)
        .open(&input.path)
        .unwrap();
    let r = doc.read(LineSelection::head(3)).unwrap();
    assert_eq!(r.content, "line 0\nline 1\nline 2\n");
    assert_eq!(r.total_lines, None);
    assert!(
        doc.index().scanned() <= 1 << 20,
        "scanned {}",
        doc.index().scanned()
    );
    let t = doc.read(LineSelection::tail(2)).unwrap();
    assert_eq!(t.content, "line 199998\nline 199999\n");
    assert!(
        doc.index().scanned() <= 1 << 20,
        "tail must not index forward"
    );
    // Asking for totals pays one counting pass, kept for later reads.
    assert_eq!(doc.total_lines().unwrap(), 200_000);
    assert!(doc.index().is_complete());
}

#[test]
fn a_read_of_the_whole_file_tells_its_total_without_a_count() {
    let long = format!("{}\nshort\n", "x".repeat(5000));
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend("one\ntwo\nthree".encode_utf16().flat_map(u16::to_le_bytes));
    // (file, lines): no final LF, CR LF, a line cut by the line-length budget, UTF-16.
    let cases: [(&[u8], u64); 5] = [
        (b"a\nb\nc", 3),
        (b"a\r\nb\r\n", 2),
        (long.as_bytes(), 2),
        (&utf16, 3),
        (b"", 0),
    ];
    for (data, total) in cases {
        let input = Input::new(data);
        let mut doc = rangeread::Reader::new()
            .max_lines(0)
            .max_bytes(0)
            .totals(rangeread::Totals::IfKnown)
            .open(&input.path)
            .unwrap();
        let r = doc.read(LineSelection::head(1_000)).unwrap();
        assert_eq!(r.total_lines, Some(total), "{:?}", r.content);
        // A page that stops short of the end does not know it.
        if total > 1 {
            let r = doc.read(LineSelection::head(1)).unwrap();
            assert_eq!(r.total_lines, None);
        }
    }
}

#[test]
fn negative_end_and_mixed_signs() {
    let input = Input::new(b"1\n2\n3\n4\n5\n");
    let r = unlimited(64);
    let read = |s: &str| r.read(&input.path, LineSelection::parse(s).unwrap());
    assert_eq!(read("2:-2").unwrap().content, "2\n3\n4\n");
    assert_eq!(read("-3:-2").unwrap().content, "3\n4\n");
    assert_eq!(read("-2:5").unwrap().content, "4\n5\n");
    assert_eq!(read(":2").unwrap().content, "1\n2\n");
    assert_eq!(read("4").unwrap().content, "4\n");
    assert_eq!(read("2:+2").unwrap().content, "2\n3\n4\n");
    assert!(read("-2:-3").is_err());
    assert!(LineSelection::parse("x:y").is_err());
}

/// The first page of a line read under line and byte budgets, as a naive model: whole
/// lines while they fit; a first line over the byte budget is paged by bytes.
fn naive_first_page(data: &[u8], max_lines: u64, max_bytes: u64) -> (Vec<u8>, u64, Option<u64>) {
    let lines = common::naive_lines(data);
    let (mut out, mut n) = (Vec::new(), 0u64);
    for l in &lines {
        if max_lines > 0 && n >= max_lines {
            return (out.clone(), n, Some(out.len() as u64));
        }
        if max_bytes > 0 && (out.len() + l.len()) as u64 > max_bytes {
            if n == 0 {
                // The body only (no terminator), at least one byte.
                let body = l.strip_suffix(b"\n").unwrap_or(l);
                let body = body.strip_suffix(b"\r").unwrap_or(body);
                let take = (max_bytes as usize).min(body.len()).max(1);
                return (l[..take].to_vec(), 1, Some(take as u64));
            }
            return (out.clone(), n, Some(out.len() as u64));
        }
        out.extend_from_slice(l);
        n += 1;
    }
    (out, n, None)
}

proptest! {
    #[test]
    fn first_page_matches_the_naive_pager(
        data in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'\n'), Just(b'\r')], 0..300),
        max_lines in 0u64..12,
        max_bytes in 0u64..80,
        chunk in 1usize..40,
    ) {
        let input = common::Input::new(&data);
        for b in input.backends().into_iter().filter(|b| b.block > 1) {
            let mut src = b.source;
            src.set_chunk_size(chunk);
            let r = common::unlimited(b.block)
                .max_lines(max_lines)
                .max_bytes(max_bytes)
                .document(src)
                .read(LineSelection::from(1..));
            let (content, n, next) = naive_first_page(&data, max_lines, max_bytes);
            let r = r.unwrap();
            prop_assert_eq!(r.raw_bytes(), &content[..], "{}", b.name);
            prop_assert_eq!(r.lines.map_or(0, |l| l.count()), n, "{}", b.name);
            prop_assert_eq!(r.truncated.map(|t| t.next_start_byte), next, "{}", b.name);
        }
    }
}

/// Python's universal newlines (`open(path).read().splitlines(keepends=True)` with only
/// `\r\n`, `\r` and `\n` as breaks): each line with its break read as `\n`.
fn universal_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' | '\n' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                line.push('\n');
                out.push(std::mem::take(&mut line));
            }
            c => line.push(c),
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

#[test]
fn universal_newlines_break_at_a_lone_cr_and_keep_the_default() {
    let text = b"one\rtwo\r\nthree\nfour\r";
    let universal = rangeread::Reader::new().line_endings(rangeread::LineEndings::Universal);
    let read = |reader: &rangeread::Reader, sel: LineSelection| {
        reader
            .document(rangeread::Source::from_bytes(text.to_vec(), "mac.txt"))
            .read(sel)
            .unwrap()
    };
    let r = read(&universal, LineSelection::from(1..));
    assert_eq!(r.content, "one\ntwo\nthree\nfour\n");
    assert_eq!(r.total_lines, Some(4));
    let r = read(&universal, LineSelection::from(2..=3));
    assert_eq!(r.content, "two\nthree\n");
    // File offsets: line 2 starts after "one\r", line 3 ends after "three\n".
    assert_eq!((r.bytes.start, r.bytes.end), (4, 15));
    // The default is unchanged: a lone CR is content.
    let r = read(&rangeread::Reader::new(), LineSelection::from(1..));
    assert_eq!(r.content.as_bytes(), text);
    assert_eq!(r.total_lines, Some(3));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn universal_newlines_split_as_python_does_on_every_backend_and_encoding(
        chars in proptest::collection::vec(prop_oneof![Just('a'), Just('é'), Just('𝄞'), Just('\r'), Just('\n')], 0..40),
        max_lines in 1u64..5,
        max_bytes in prop_oneof![Just(0u64), 6u64..30],
    ) {
        let text: String = chars.into_iter().collect();
        let want = universal_lines(&text);
        for (enc, bytes) in common::unicode_encodings(&text) {
            let input = Input::new(&bytes);
            for b in input.backends() {
                let name = format!("{enc} {}", b.name);
                let reader = unlimited(b.block)
                    .detection(rangeread::Detection::Auto)
                    .line_endings(rangeread::LineEndings::Universal);
                let mut doc = reader.document(b.source);
                let all = doc.read(LineSelection::from(1..)).unwrap();
                prop_assert_eq!(&all.content, &want.concat(), "{}", name);
                prop_assert_eq!(all.total_lines, Some(want.len() as u64), "{}", name);
                for (i, line) in want.iter().enumerate() {
                    let n = i as u64 + 1;
                    let r = doc.read(LineSelection::from(n..=n)).unwrap();
                    prop_assert_eq!(&r.content, line, "{} line {}", name, n);
                }
                // Following the continuations under line and byte budgets covers the
                // text exactly once, page after page at the file offset the last ended.
                let mut paged = reader.max_lines(max_lines).max_bytes(max_bytes).document(
                    Source::from_bytes(bytes.clone(), "paged.txt"),
                );
                let mut sel: Selection = LineSelection::from(1..).into();
                let (mut joined, mut at) = (String::new(), None);
                loop {
                    let r = paged.read(sel).unwrap();
                    if let Some(at) = at {
                        prop_assert_eq!(r.bytes.start, at, "{}", name);
                    }
                    joined.push_str(&r.content);
                    match r.truncated {
                        None => {
                            // (A file of only a byte order mark has an empty span at 0.)
                            if !text.is_empty() {
                                prop_assert_eq!(r.bytes.end, bytes.len() as u64, "{}", name);
                            }
                            break;
                        }
                        Some(t) => {
                            at = Some(t.next_start_byte);
                            sel = match t.next_start_line {
                                Some(l) => LineSelection::from(l..).into(),
                                None => rangeread::ByteSelection::new(Some(t.next_start_byte), None).into(),
                            };
                        }
                    }
                }
                // A byte page may end between the CR and the LF of a CR LF.
                prop_assert_eq!(joined.replace("\r\n", "\n"), want.concat(), "{}", name);
            }
        }
    }
}

#[test]
fn universal_newlines_and_the_default_share_a_cache_without_mixing_counts() {
    let input = Input::new(b"a\rb\rc\nd");
    let cache = std::sync::Arc::new(rangeread::IndexCache::new(1 << 20));
    let keep = rangeread::Reader::new().cache(cache.clone());
    let universal = rangeread::Reader::new()
        .cache(cache)
        .line_endings(rangeread::LineEndings::Universal);
    for _ in 0..2 {
        assert_eq!(keep.open(&input.path).unwrap().total_lines().unwrap(), 2);
        assert_eq!(
            universal.open(&input.path).unwrap().total_lines().unwrap(),
            4
        );
        let r = keep.read(&input.path, LineSelection::from(2..)).unwrap();
        assert_eq!(r.content, "d");
        let u = universal
            .read(&input.path, LineSelection::from(4..))
            .unwrap();
        assert_eq!(u.content, "d");
        // The file's modification time is reported either way.
        assert!(r.fingerprint().modified_ns.is_some());
        assert_eq!(u.fingerprint().modified_ns, r.fingerprint().modified_ns);
    }
}
