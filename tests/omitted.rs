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

/// `t` as file bytes: UTF-8, or UTF-16LE with a byte order mark; with the width of a
/// code unit and where the text starts.
fn encoded(t: &str, utf16: bool) -> (Vec<u8>, usize, usize) {
    if utf16 {
        let b: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(t.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        (b, 2, 2)
    } else {
        (t.as_bytes().to_vec(), 1, 0)
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
        let (bytes, width, text_start) = encoded(&t, utf16);
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

/// JSON arguments of the unified `read_file` preset for a selection `kind`, from two
/// random numbers (bytes, lines, a tail).
fn read_file_args(kind: u8, a: u64, b: u64, size: u64, lines: u64) -> serde_json::Value {
    let (lo, hi) = (a.min(b), a.max(b));
    let line = |n: u64| 1 + n % lines.max(1);
    match kind % 3 {
        0 => serde_json::json!({"path": "t.py", "start_byte": lo % (size + 1),
                                "end_byte": hi % (size + 1)}),
        1 => serde_json::json!({"path": "t.py", "start_line": line(lo), "end_line": line(hi)}),
        _ => serde_json::json!({"path": "t.py", "tail": line(lo)}),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The presets too: the unified `read_file`'s notes, and `session_read_file`'s
    /// `omittedContent` line counts, equal what the file left out.
    #[test]
    fn every_preset_counts_what_the_file_left_out(
        t in text(),
        utf16 in any::<bool>(),
        kind in any::<u8>(),
        a in any::<u64>(),
        b in any::<u64>(),
        max_bytes in prop_oneof![Just(0u64), 5u64..200],
    ) {
        use rangeread::tool::{Dialect, DialectTool};
        use rangeread::{Workspace, WorkspaceRegistry};
        let (bytes, width, text_start) = encoded(&t, utf16);
        let facts = FileFacts::new(&bytes, width, text_start);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("t.py"), &bytes).unwrap();
        let ws = Workspace::new(dir.path()).unwrap();
        let args = read_file_args(kind, a, b, bytes.len() as u64, facts.lines.len() as u64);

        let unified = DialectTool::new(Dialect::preset("read_file").unwrap())
            .reader_with(|r| r.max_bytes(max_bytes))
            .workspace(ws.clone());
        let r = unified.respond(args.clone());
        if !r.is_error {
            let meta = r.structured.clone().unwrap();
            let shown = meta["bytes"]["start"].as_u64().unwrap()..meta["bytes"]["end"].as_u64().unwrap();
            let text = r.full_text();
            check_omitted_counts(&facts, &text, shown.clone()).map_err(|e| {
                TestCaseError::fail(format!("read_file {args} (shown {shown:?}): {e}\n{text}"))
            })?;
        }

        // Cursor's tool, without its widening: lines before and after those returned.
        if kind % 3 == 1 {
            let mut d = Dialect::preset("session_read_file").unwrap();
            d.lines.widen_to = None;
            let reg = WorkspaceRegistry::new();
            reg.insert("s", ws);
            let tool = DialectTool::new(d).reader_with(|r| r.max_bytes(max_bytes)).sessions(reg);
            let mut call = args.clone();
            call["session"] = "s".into();
            let r = tool.respond(call.clone());
            if !r.is_error {
                let v: serde_json::Value = serde_json::from_str(&r.text).unwrap();
                let total = facts.lines.len() as u64;
                if let (Some(s), Some(e)) = (v["linesRead"]["start"].as_u64(), v["linesRead"]["end"].as_u64()) {
                    prop_assert_eq!(v["omittedContent"]["beforeLines"].as_u64(), Some(s - 1), "{}", call);
                    prop_assert_eq!(v["omittedContent"]["afterLines"].as_u64(), Some(total - e), "{}", call);
                }
            }
        }
    }
}
