//! Every count of what an answer left out equals what the file left out: for every
//! format of the CLI, over random files (CRLF and LF, multi-byte characters, UTF-8 and
//! UTF-16 with a byte order mark) and random line and byte ranges (starting and ending
//! inside lines and inside characters), with and without budgets that page.
//!
//! The checking function is `common::omitted::check_omitted_counts`, reusable for any
//! tool's answer.

mod common;

use common::omitted::{check_omitted_counts, FileFacts};
use proptest::prelude::*;
use rangeread::{
    notes, render, ByteSelection, Format, LineSelection, Reader, Selection, Source, Totals,
};

const FORMATS: [Format; 7] = [
    Format::Plain,
    Format::Colon,
    Format::CatN,
    Format::Codex,
    Format::Markdown,
    Format::Frontmatter,
    Format::Json,
];

/// Text from an alphabet rich in line ends (LF, CRLF), multi-byte and wide characters.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => Just("ab"),
            2 => Just("\n"),
            1 => Just("\r\n"),
            1 => Just("é"),
            1 => Just("𝄞"),
            1 => Just("def f():\n"),
        ],
        1..80,
    )
    .prop_map(|v| v.concat())
}

/// A selection over a file of `size` bytes and `lines` lines, from two random numbers.
fn selection(kind: u8, a: u64, b: u64, size: u64, lines: u64) -> Selection {
    let (lo, hi) = (a.min(b), a.max(b));
    match kind % 4 {
        0 => ByteSelection::new(Some(lo % (size + 1)), Some(hi % (size + 1))).into(),
        1 => LineSelection::from(1 + lo % lines.max(1)..=1 + hi % lines.max(1)).into(),
        2 => LineSelection::tail(1 + lo % lines.max(1)).into(),
        _ => LineSelection::around(1 + lo % lines.max(1), hi % 3).into(),
    }
}

/// What the CLI prints for `format`: the rendering, and for `plain` the notes it writes
/// to stderr.
fn answer(r: &rangeread::ReadResult, format: Format) -> String {
    match format {
        Format::Plain => notes(r).join("\n"),
        f => render(r, f),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_omitted_count_equals_what_the_file_left_out(
        t in text(),
        utf16 in any::<bool>(),
        kind in any::<u8>(),
        a in any::<u64>(),
        b in any::<u64>(),
        max_bytes in prop_oneof![Just(0u64), 5u64..200],
        max_lines in prop_oneof![Just(0u64), 1u64..6],
        known in any::<bool>(),
        counted in any::<bool>(),
    ) {
        let (bytes, width, text_start) = if utf16 {
            let b: Vec<u8> = [0xFF, 0xFE]
                .into_iter()
                .chain(t.encode_utf16().flat_map(u16::to_le_bytes))
                .collect();
            (b, 2, 2)
        } else {
            (t.clone().into_bytes(), 1, 0)
        };
        let facts = FileFacts::new(&bytes, width, text_start);
        let sel = selection(kind, a, b, bytes.len() as u64, facts.lines.len() as u64);
        let reader = Reader::new()
            .max_bytes(max_bytes)
            .max_lines(max_lines)
            .totals(if known { Totals::Auto } else { Totals::IfKnown });
        let mut doc = reader.document(Source::from_bytes(bytes.clone(), "t.py"));
        if counted {
            // Byte reads of a counted file report their lines (and so name them).
            doc.total_lines().unwrap();
        }
        let Ok(r) = doc.read(sel) else {
            // Out of range: an error, nothing omitted to count.
            return Ok(());
        };
        for format in FORMATS {
            let shown = r.bytes.start..r.bytes.end;
            let out = answer(&r, format);
            check_omitted_counts(&facts, &out, shown.clone()).map_err(|e| {
                TestCaseError::fail(format!("{format:?} of {sel:?} (shown {shown:?}): {e}\n{out}"))
            })?;
        }
    }
}

/// The case the issue met: a byte read that starts inside a line named the lines before
/// it with the size of everything before the read.
#[test]
fn a_byte_read_that_starts_inside_a_line_counts_the_part_of_it() {
    let text = "one\ntwo\nthree\nfour\n";
    let facts = FileFacts::new(text.as_bytes(), 1, 0);
    let mut doc = Reader::new().document(Source::from_bytes(text.as_bytes().to_vec(), "t.txt"));
    // Counted first: a byte read then knows its line numbers.
    doc.total_lines().unwrap();
    let r = doc.read(ByteSelection::new(Some(10), Some(16))).unwrap();
    let o = r.omitted.as_ref().unwrap();
    assert_eq!((o.before_bytes, o.before_lines), (10, Some(2)));
    assert_eq!(
        o.summary,
        "Bytes 0-10 omitted (10 B: 2 whole lines (lines 1-2) and the start of line 3); \
         bytes 16-19 omitted (3 B: the rest of line 4)."
    );
    for format in FORMATS {
        let n = check_omitted_counts(&facts, &answer(&r, format), 10..16).unwrap();
        assert!(n >= 4, "{format:?}: {n} counts checked");
    }
}
