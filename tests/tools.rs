//! The presets of the `tool` module: each reproduces a known tool's documented behaviour
//! and response shape.

use std::fs;
use std::path::Path;

use rangeread::tool::{
    line_offsets, Dialect, DialectTool, FsReadResponse, SessionReadFileResponse,
};
use rangeread::{Reader, Workspace, WorkspaceRegistry};
use serde_json::{json, Value};

const PARTIAL_NOTE: &str = "*Note: Partial read - analysis skipped.*";

/// The tool of a preset.
fn preset(name: &str) -> DialectTool {
    DialectTool::new(Dialect::preset(name).unwrap())
}

/// Cursor's tool without its widening of short ranges.
fn without_widening(tool: DialectTool, reg: WorkspaceRegistry) -> DialectTool {
    let mut d = tool.dialect().clone();
    d.lines.widen_to = None;
    DialectTool::new(d).sessions(reg)
}

/// `n` numbered lines: `line 1`, `line 2`, ...
fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) {
    let p = dir.join(name);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

/// The smallest valid PNG (a 1x1 transparent pixel).
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];

const BINARY_PNG: &str = "Binary files are not supported. File detected as image/png. \
    Please use another tool or method to process this file.";

// ---- session_read_file -------------------------------------------------------------

fn sessions() -> (tempfile::TempDir, DialectTool) {
    let (d, _, tool) = sessions_and_registry();
    (d, tool)
}

fn sessions_and_registry() -> (tempfile::TempDir, WorkspaceRegistry, DialectTool) {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("a"), "notes.txt", numbered(1000));
    write(&dir.path().join("b"), "notes.txt", "only b\n");
    write(dir.path(), "outside.txt", "secret\n");
    let reg = WorkspaceRegistry::new();
    reg.insert("alpha", Workspace::new(dir.path().join("a")).unwrap());
    reg.insert("beta", Workspace::new(dir.path().join("b")).unwrap());
    let reg2 = WorkspaceRegistry::new();
    reg2.insert("alpha", Workspace::new(dir.path().join("a")).unwrap());
    reg2.insert("beta", Workspace::new(dir.path().join("b")).unwrap());
    (dir, reg2, preset("session_read_file").sessions(reg))
}

fn session_call(tool: &DialectTool, args: Value) -> (bool, Value) {
    let r = tool.respond(args);
    (r.is_error, serde_json::from_str(&r.text).unwrap())
}

#[test]
fn session_read_file_response_shape() {
    let (_d, reg, tool) = sessions_and_registry();
    let tool = without_widening(tool, reg);
    let (err, v) = session_call(
        &tool,
        json!({"session": "alpha", "target_file": "notes.txt",
               "start_line_one_indexed": 10, "end_line_one_indexed_inclusive": 12,
               "should_read_entire_file": false, "explanation": "look"}),
    );
    assert!(!err);
    assert_eq!(
        keys(&v),
        [
            "content",
            "linesRead",
            "omittedContent",
            "path",
            "resolvedPath",
            "session",
            "success",
            "totalLines"
        ]
    );
    assert_eq!(
        keys(&v["omittedContent"]),
        ["afterLines", "beforeLines", "summary"]
    );
    assert_eq!(v["content"], "line 10\nline 11\nline 12\n");
    assert_eq!(
        (v["path"].as_str(), v["session"].as_str()),
        (Some("notes.txt"), Some("alpha"))
    );
    // "Resolved absolute path", as the seed's schema says.
    let resolved = v["resolvedPath"].as_str().unwrap();
    assert!(
        std::path::Path::new(resolved).is_absolute() && resolved.ends_with("/a/notes.txt"),
        "{resolved}"
    );
    assert_eq!(v["totalLines"], 1000);
    assert_eq!(v["linesRead"], json!({"start": 10, "end": 12}));
    assert_eq!(v["omittedContent"]["beforeLines"], 9);
    assert_eq!(v["omittedContent"]["afterLines"], 988);
    let summary = v["omittedContent"]["summary"].as_str().unwrap();
    assert!(summary.starts_with("Lines 1-9 omitted"), "{summary}");
    let typed: SessionReadFileResponse = serde_json::from_value(v).unwrap();
    assert!(typed.success);
}

#[test]
fn session_read_file_widens_short_ranges_to_200_lines_like_cursor() {
    let (_d, tool) = sessions();
    let call = |args: Value| session_call(&tool, args).1;
    // Around the request, clamped at the start of the file.
    let v = call(json!({"session": "alpha", "target_file": "notes.txt",
        "start_line_one_indexed": 10, "end_line_one_indexed_inclusive": 12}));
    assert_eq!(v["linesRead"], json!({"start": 1, "end": 200}));
    assert_eq!(v["linesRequested"], json!({"start": 10, "end": 12}));
    assert_eq!(v["content"].as_str().unwrap().lines().count(), 200);
    // In the middle: centred on the request.
    let v = call(json!({"session": "alpha", "target_file": "notes.txt",
        "start_line_one_indexed": 500, "end_line_one_indexed_inclusive": 509}));
    assert_eq!(v["linesRead"], json!({"start": 405, "end": 604}));
    // At the end: still 200 lines, taken from before.
    let v = call(json!({"session": "alpha", "target_file": "notes.txt",
        "start_line_one_indexed": 990, "end_line_one_indexed_inclusive": 995}));
    assert_eq!(v["linesRead"], json!({"start": 801, "end": 1000}));
    // 200 lines or more are not widened; a file shorter than 200 lines is read whole.
    let v = call(json!({"session": "alpha", "target_file": "notes.txt",
        "start_line_one_indexed": 300, "end_line_one_indexed_inclusive": 520}));
    assert_eq!(v["linesRead"], json!({"start": 300, "end": 520}));
    assert!(v.get("linesRequested").is_none());
    let v = call(json!({"session": "beta", "target_file": "notes.txt",
        "start_line_one_indexed": 1, "end_line_one_indexed_inclusive": 1}));
    assert_eq!(v["linesRead"], json!({"start": 1, "end": 1}));
}

#[test]
fn session_read_file_caps_ranges_at_250_lines_and_reads_whole_files_to_the_byte_budget() {
    let (_d, tool) = sessions();
    let (_, v) = session_call(
        &tool,
        json!({"session": "alpha", "path": "notes.txt",
               "start_line_one_indexed": 1, "end_line_one_indexed_inclusive": 1000}),
    );
    assert_eq!(v["linesRead"], json!({"start": 1, "end": 250}));
    assert_eq!(v["content"].as_str().unwrap().lines().count(), 250);
    let summary = v["omittedContent"]["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "Showing lines 1-250 of 1000: stopped by the line limit (250 lines per call); \
             continue with start_line_one_indexed=251."
        ),
        "{summary}"
    );
    // No range, or should_read_entire_file (Cursor's always-sent line parameters are
    // then ignored): the whole file, with no line cap.
    for args in [
        json!({"session": "alpha", "target_file": "notes.txt"}),
        json!({"session": "alpha", "target_file": "notes.txt", "should_read_entire_file": true,
               "start_line_one_indexed": 600, "end_line_one_indexed_inclusive": 610}),
    ] {
        let (_, v) = session_call(&tool, args);
        assert_eq!(v["linesRead"], json!({"start": 1, "end": 1000}));
        assert_eq!(v["content"], numbered(1000));
        assert_eq!(v["omittedContent"]["summary"], "");
    }
    // Over the byte budget: the first page, and a note naming the budget.
    let (_d2, small) = sessions();
    let small = small.reader_with(|r| r.max_bytes(1000));
    let (_, v) = session_call(
        &small,
        json!({"session": "alpha", "target_file": "notes.txt"}),
    );
    let lines = v["linesRead"]["end"].as_u64().unwrap();
    assert!(lines > 100 && lines < 200, "{v}");
    let summary = v["omittedContent"]["summary"].as_str().unwrap();
    assert!(
        summary.contains("stopped by the size budget (1000 bytes per call)"),
        "{summary}"
    );
    assert!(
        summary.ends_with(&format!(
            "continue with start_line_one_indexed={}.",
            lines + 1
        )),
        "{summary}"
    );
}

#[test]
fn session_read_file_takes_legacy_offset_limit_and_integral_floats() {
    let (_d, reg, tool) = sessions_and_registry();
    let tool = without_widening(tool, reg);
    let (err, v) = session_call(
        &tool,
        json!({"session": "alpha", "target_file": "notes.txt", "offset": 300.0, "limit": 5}),
    );
    assert!(!err, "{v}");
    assert_eq!(v["linesRead"], json!({"start": 300, "end": 304}));
    assert_eq!(
        v["content"],
        "line 300\nline 301\nline 302\nline 303\nline 304\n"
    );
    let (_, v) = session_call(
        &tool,
        json!({"session": "alpha", "target_file": "notes.txt", "offset": 990}),
    );
    assert_eq!(v["linesRead"], json!({"start": 990, "end": 1000}));
    let (_, v) = session_call(
        &tool,
        json!({"session": "alpha", "target_file": "notes.txt",
               "start_line_one_indexed": 7.0, "end_line_one_indexed_inclusive": 8.0}),
    );
    assert_eq!(v["linesRead"], json!({"start": 7, "end": 8}));
}

#[test]
fn session_read_file_errors_name_the_parameter_as_spelled() {
    let (_d, tool) = sessions();
    for (args, message) in [
        (
            json!({"session": "beta", "target_file": "../outside.txt"}),
            r#"Path "../outside.txt" is outside the workspace"#,
        ),
        (
            json!({"session": "gamma", "target_file": "notes.txt"}),
            r#"Session not found: "gamma""#,
        ),
        (
            json!({"session": "beta", "target_file": "notes.txt", "start_line_one_indexed": -1}),
            "Invalid start_line_one_indexed: expected a non-negative integer, got -1",
        ),
        (
            json!({"session": "beta", "target_file": "notes.txt", "end_line_one_indexed_inclusive": 2.5}),
            "Invalid end_line_one_indexed_inclusive: expected a non-negative integer, got 2.5",
        ),
        (
            json!({"session": "beta", "target_file": "notes.txt", "start_line_one_indexed": 5}),
            "Invalid range specified: start_line_one_indexed (5) is beyond the end of the file (1 lines).",
        ),
        (
            json!({"session": "alpha", "target_file": "notes.txt", "start_line": 9, "end_line": 3}),
            "Invalid range specified: start_line (9) is greater than end_line (3).",
        ),
        (
            json!({"session": "alpha", "target_file": "notes.txt", "start_line_one_indexed": 0}),
            "start_line_one_indexed (0) is invalid: lines are 1-indexed",
        ),
        (
            json!({"session": "alpha", "target_file": "notes.txt", "offset": 3, "start_line_one_indexed": 4}),
            "Conflicting parameters: start_line_one_indexed and offset cannot be used together",
        ),
        (json!({"session": "alpha"}), "Missing required parameter path (or target_file)"),
    ] {
        let (err, v) = session_call(&tool, args.clone());
        assert!(err, "{args}");
        let got = v["error"].as_str().unwrap();
        assert!(got.starts_with(message), "{args}: {got}");
        assert_eq!(v["success"], false);
    }
    // The parameter is data too.
    let (err, v) = session_call(
        &tool,
        json!({"session": "alpha", "target_file": "x", "limit": "many"}),
    );
    assert!(err);
    assert!(
        v["error"].as_str().unwrap().starts_with("Invalid limit"),
        "{v}"
    );
    match rangeread::tool::ReadFileParams::from_json(r#"{"target_file": "x", "head": -2}"#) {
        Err(rangeread::Error::InvalidParameter { parameter, .. }) => assert_eq!(parameter, "head"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_preset_marks_a_cut_line_and_start_byte_reads_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let long = "é".repeat(2500) + "END";
    write(dir.path(), "long.md", format!("short\n{long}\nafter\n"));
    let ws = || Workspace::new(dir.path()).unwrap();
    let rest_from = |start: u64| {
        let bytes = fs::read(dir.path().join("long.md")).unwrap();
        String::from_utf8(bytes[start as usize..].to_vec()).unwrap()
    };

    // session_read_file: cutLines, a note, and start_byte.
    let reg = WorkspaceRegistry::new();
    reg.insert("s", ws());
    let tool = preset("session_read_file").sessions(reg);
    let (_, v) = session_call(&tool, json!({"session": "s", "target_file": "long.md"}));
    let cut = &v["cutLines"][0];
    assert_eq!(cut["line"], 2);
    assert_eq!(cut["shownBytes"], 4000);
    let next = cut["nextStartByte"].as_u64().unwrap();
    assert!(v["omittedContent"]["summary"]
        .as_str()
        .unwrap()
        .contains(&format!("read the rest with start_byte={next}")));
    let (_, rest) = session_call(
        &tool,
        json!({"session": "s", "target_file": "long.md", "start_byte": next}),
    );
    assert_eq!(rest["content"], rest_from(next));
    assert!(rest["content"]
        .as_str()
        .unwrap()
        .starts_with(&"é".repeat(500)));

    // file_read: a marker on the line, start_byte.
    let fr = preset("file_read").workspace(ws());
    let out = fr.respond(json!({"filename": "long.md"})).text;
    assert!(
        out.contains(&format!(
            "… [line truncated: 1003 more bytes; read the rest with start_byte={next}]\n"
        )),
        "{out}"
    );
    let out = fr
        .respond(json!({"filename": "long.md", "start_byte": next}))
        .text;
    assert!(
        out.starts_with(&format!("# File: long.md (Bytes {next}-")),
        "{out}"
    );
    assert!(out.contains("éEND\nafter\n```"), "{out}");

    // vault: the marker, start_byte.
    let vt = preset("vault").workspace(ws());
    let out = vt.respond(json!({"path": "long.md"})).text;
    assert!(out.starts_with("1: short\n2: éé"), "{out}");
    assert!(
        out.ends_with(&format!(
            "… [line truncated: 1003 more bytes; read the rest with start_byte={next}]\n3: after\n"
        )),
        "{out}"
    );
    let out = vt
        .respond(json!({"path": "long.md", "start_byte": next}))
        .text;
    assert!(out.ends_with("éEND\n3: after\n"), "{out}");

    // The unified tool: a note.
    let rf = preset("read_file").workspace(ws());
    let out = rf.respond(json!({"path": "long.md"})).full_text();
    assert!(
        out.contains(&format!("read the rest with start_byte={next}]")),
        "{out}"
    );
}

// ---- file_read ---------------------------------------------------------------------

#[test]
fn file_read_answers_with_the_seed_block_and_the_outline_after_full_reads() {
    let dir = tempfile::tempdir().unwrap();
    let text = numbered(40).replace("line 12\n", "fn twelve() {}\n");
    write(dir.path(), "src/main.rs", &text);
    let tool = preset("file_read").workspace(Workspace::new(dir.path()).unwrap());

    let numbered_block: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{:>4} | {l}\n", i + 1))
        .collect();
    let full = format!(
        "# File: src/main.rs\n\n```rust\n{numbered_block}```\n\n## Outline\n- 12: fn twelve() {{}}\n\n"
    );
    // No range, 0/0 (Go's omitempty zero) and a start of 1 without an end: a full read.
    for args in [
        json!({"filename": "src/main.rs"}),
        json!({"filename": "src/main.rs", "start_line": 0, "end_line": 0}),
        json!({"filename": "src/main.rs", "start_line": 1}),
    ] {
        assert_eq!(tool.respond(args).text, full);
    }

    let part = tool
        .respond(json!({"filename": "src/main.rs", "start_line": 11, "end_line": 12}))
        .text;
    assert_eq!(
        part,
        format!(
            "# File: src/main.rs (Lines 11-12)\n\n```rust\n  11 | line 11\n  12 | fn twelve() {{}}\n```\n\n{PARTIAL_NOTE}\n\n"
        )
    );
    assert_eq!(PARTIAL_NOTE, "*Note: Partial read - analysis skipped.*");
    // An end of 0 with a start: from the start to the end.
    let tail = tool.respond(json!({"filename": "src/main.rs", "start_line": 39, "end_line": 0}));
    assert!(tail.text.starts_with(
        "# File: src/main.rs (Lines 39-40)\n\n```rust\n  39 | line 39\n  40 | line 40\n```"
    ));

    let err = tool.respond(json!({"filename": "src/main.rs", "start_line": 50}));
    assert!(err.is_error);
    assert_eq!(
        err.text,
        "Invalid range specified: start_line (50) is beyond the end of the file (40 lines)."
    );
    let err = tool.respond(json!({"filename": "src/main.rs", "start_line": 9, "end_line": 3}));
    assert_eq!(
        err.text,
        "Invalid range specified: start_line (9) is greater than end_line (3)."
    );
}

#[test]
fn file_read_over_budget_is_a_partial_read_that_says_where_to_continue() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "big.py", numbered(30));
    let tool = preset("file_read")
        .reader(Reader::new().max_lines(10))
        .workspace(Workspace::new(dir.path()).unwrap());
    let out = tool.respond(json!({"filename": "big.py"})).text;
    assert!(
        out.starts_with("# File: big.py (Lines 1-10)\n\n```python\n   1 | line 1\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "```\n\n*Note: Truncated by the line limit (10 lines per call); continue with start_line=11.*\n\n"
        ),
        "{out}"
    );
    assert!(out.ends_with(&format!("{PARTIAL_NOTE}\n\n")), "{out}");
}

#[test]
fn line_offsets_give_edit_tools_the_bytes_of_the_lines_file_read_showed() {
    let dir = tempfile::tempdir().unwrap();
    let text = "a\r\nb\r\nc\r\nd";
    write(dir.path(), "crlf.txt", text);
    let tool = preset("file_read").workspace(Workspace::new(dir.path()).unwrap());
    let shown = tool
        .respond(json!({"filename": "crlf.txt", "start_line": 2, "end_line": 3}))
        .text;
    // The shown lines, prefixes removed, are the bytes an edit of lines 2-3 replaces.
    let body: String = shown
        .split_inclusive('\n')
        .filter_map(|l| l.split_once(" | ").map(|(_, t)| t.to_string()))
        .collect();
    let (s, e) = line_offsets(text, 2, 3).unwrap();
    assert_eq!(body, "b\r\nc\r\n");
    assert_eq!(&text[s..e], body);
    let edited = format!("{}B\r\n{}", &text[..s], &text[e..]);
    assert_eq!(edited, "a\r\nB\r\nd");
    assert_eq!(line_offsets(text, 4, 9).unwrap(), (9, 10));
}

// ---- fs_read -----------------------------------------------------------------------

#[test]
fn fs_read_response_shape_and_snapping() {
    let dir = tempfile::tempdir().unwrap();
    // 'a' (1 byte), 'é' (2), '€' (3), '🦀' (4): offsets 0, 1, 3, 6, end 10.
    write(dir.path(), "chars.txt", "aé€🦀");
    let tool = preset("fs_read").workspace(Workspace::new(dir.path()).unwrap());
    let r = tool.respond(json!({"path": "chars.txt", "start_byte": 2, "end_byte": 7}));
    assert!(!r.is_error, "{}", r.text);
    let v: Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(keys(&v), ["content", "metadata"]);
    assert_eq!(
        keys(&v["metadata"]),
        [
            "actual_range",
            "boundary_adjustments",
            "encoding",
            "file_size",
            "invalid_sequences",
            "is_partial",
            "percent_of_file",
            "requested_range"
        ]
    );
    assert_eq!(v["content"], "é€🦀");
    assert_eq!(
        v["metadata"],
        json!({
            "file_size": 10,
            "requested_range": {"start": 2, "end": 7},
            "actual_range": {"start": 1, "end": 10},
            "boundary_adjustments": {"start_adjusted": true, "end_adjusted": true, "end_clamped": false},
            "is_partial": true,
            "percent_of_file": 90.0,
            "encoding": "utf-8",
            "invalid_sequences": 0
        })
    );
    let whole: FsReadResponse = serde_json::from_str(
        &tool
            .respond(json!({"path": "chars.txt", "end_byte": 99}))
            .text,
    )
    .unwrap();
    assert_eq!(whole.content, "aé€🦀");
    assert!(!whole.metadata.is_partial);
    assert!(whole.metadata.boundary_adjustments.end_clamped);
    assert_eq!(whole.metadata.requested_range.end, 99);
    assert_eq!(whole.metadata.actual_range.end, 10);
}

#[test]
fn fs_read_names_the_encoding_and_counts_invalid_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // UTF-8 text (so classified) with one stray byte.
    let mut bad = "héllo wörld ✓ naïve café — ".repeat(4).into_bytes();
    bad.extend_from_slice(b"\xff here\n");
    write(dir.path(), "bad.txt", &bad);
    // UTF-16LE with a BOM: content comes back as UTF-8, the encoding is named.
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain("hi\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    write(dir.path(), "wide.txt", utf16);
    let tool = preset("fs_read").workspace(Workspace::new(dir.path()).unwrap());
    let v: Value = serde_json::from_str(&tool.respond(json!({"path": "bad.txt"})).text).unwrap();
    assert_eq!(v["metadata"]["encoding"], "utf-8");
    assert_eq!(v["metadata"]["invalid_sequences"], 1);
    assert_eq!(v["metadata"]["invalid_utf8"]["first_offset"], bad.len() - 7);
    assert!(v["content"]
        .as_str()
        .unwrap()
        .ends_with("— \u{fffd} here\n"));
    let v: Value = serde_json::from_str(&tool.respond(json!({"path": "wide.txt"})).text).unwrap();
    assert_eq!(v["metadata"]["encoding"], "utf-16le");
    assert_eq!(v["metadata"]["invalid_sequences"], 0);
    assert_eq!(v["content"], "hi\n");
    let d = &Dialect::preset("fs_read").unwrap().description;
    assert!(
        d.contains("Binary files are refused")
            && d.contains("UTF-8 character boundaries are respected")
    );
}

#[test]
fn fs_read_errors_respond_with_the_message() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "0123456789");
    let tool = preset("fs_read").workspace(Workspace::new(dir.path()).unwrap());
    for (args, message) in [
        (
            json!({"path": "a.txt", "start_byte": 5000, "end_byte": 4000}),
            "Invalid range specified: start_byte (5000) is greater than end_byte (4000).",
        ),
        (
            json!({"path": "a.txt", "start_byte": 11}),
            "Invalid range specified: start_byte (11) is beyond the end of the file (10 bytes).",
        ),
        (
            json!({"path": "a.txt", "start_byte": -1}),
            "Invalid start_byte: expected a non-negative integer, got -1",
        ),
        (
            json!({"path": "a.txt", "end_byte": "ten"}),
            "Invalid end_byte: expected a non-negative integer, got \"ten\"",
        ),
    ] {
        let r = tool.respond(args);
        assert!(r.is_error);
        assert_eq!(r.text, message);
    }
}

#[test]
fn fs_read_refuses_binary_files_with_the_contract_text() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pixel.png", PNG);
    let tool = preset("fs_read").workspace(Workspace::new(dir.path()).unwrap());
    let r = tool.respond(json!({"path": "pixel.png", "start_byte": 0, "end_byte": 16}));
    assert!(r.is_error);
    assert_eq!(r.text, BINARY_PNG);
}

// ---- vault read_file ---------------------------------------------------------------

fn vault() -> (tempfile::TempDir, DialectTool) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Daily/2026-01-01.md", "# New year\n\nplans\n");
    write(dir.path(), "big.md", numbered(5000));
    write(dir.path(), ".obsidian/workspace.json", "{}\n");
    write(dir.path(), "private/diary.md", "secret\n");
    let ws = Workspace::builder(dir.path())
        .protect(".obsidian/")
        .protect("private/")
        .build()
        .unwrap();
    (dir, preset("vault").workspace(ws))
}

#[test]
fn vault_read_file_numbers_lines() {
    let (_d, tool) = vault();
    let r = tool.respond(json!({"path": "Daily/2026-01-01.md"}));
    assert!(!r.is_error);
    assert_eq!(r.text, "1: # New year\n2: \n3: plans\n");
    let r = tool.respond(json!({"path": "big.md", "start_line": 4999, "end_line": 6000}));
    assert!(
        r.text.starts_with("4999: line 4999\n5000: line 5000\n"),
        "{}",
        r.text
    );
}

#[test]
fn vault_read_file_truncates_at_2000_lines_or_100_kib() {
    let (dir, tool) = vault();
    let r = tool.respond(json!({"path": "big.md"}));
    assert!(!r.is_error);
    assert_eq!(
        r.text.lines().filter(|l| l.starts_with("2000: ")).count(),
        1
    );
    assert!(!r.text.contains("\n2001: "));
    assert!(
        r.text.contains(
            "[... truncated, showing lines 1-2000 of 5000; continue with start_line=2001]"
        ),
        "{}",
        r.text
    );
    // 100 KiB of long lines stops before 2000 lines.
    let long = format!("{}\n", "x".repeat(999));
    write(dir.path(), "long.md", long.repeat(300));
    let r = tool.respond(json!({"path": "long.md"}));
    let shown = r.text.lines().filter(|l| l.contains(": x")).count();
    assert_eq!(shown, 102, "102 lines of 1000 bytes fit in 100 KiB");
    assert!(
        r.text
            .contains("[... truncated, showing lines 1-102 of 300; continue with start_line=103]"),
        "{}",
        r.text
    );
}

#[test]
fn vault_read_file_errors() {
    let (_d, tool) = vault();
    for (args, message) in [
        (
            json!({"path": "nope.md"}),
            r#"Error: File not found: "nope.md""#,
        ),
        (
            json!({"path": ".obsidian/workspace.json"}),
            r#"Error: Access denied: ".obsidian/workspace.json" is a protected path"#,
        ),
        (
            json!({"path": "Daily/../private/diary.md"}),
            r#"Error: Access denied: "Daily/../private/diary.md" is a protected path"#,
        ),
        (
            json!({"path": "../etc/passwd"}),
            r#"Error: Path "../etc/passwd" is outside the workspace"#,
        ),
        (
            json!({"path": "big.md", "start_line": 0}),
            "Error: start_line (0) is invalid: lines are 1-indexed",
        ),
        (
            json!({"path": "big.md", "start_line": 9, "end_line": 3}),
            "Error: Invalid range specified: start_line (9) is greater than end_line (3).",
        ),
        (
            json!({"start_line": 1}),
            "Error: Missing required parameter path",
        ),
    ] {
        let r = tool.respond(args);
        assert!(r.is_error);
        assert_eq!(r.text, message);
    }
}

// ---- the unified read_file ---------------------------------------------------------

#[test]
fn unified_read_file_answers_every_dialect_the_same() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "f.txt", numbered(100));
    let tool = preset("read_file").workspace(Workspace::new(dir.path()).unwrap());
    let expected = "line 5\nline 6\nline 7\n";
    for args in [
        json!({"path": "f.txt", "start_line": 5, "end_line": 7}),
        json!({"target_file": "f.txt", "start_line_one_indexed": 5,
               "end_line_one_indexed_inclusive": 7, "should_read_entire_file": false}),
        json!({"file_path": "f.txt", "offset": 5, "limit": 3}),
        json!({"filename": "f.txt", "start_line": -96, "end_line": -94}),
    ] {
        let r = tool.respond(args.clone());
        assert!(!r.is_error, "{args}: {}", r.text);
        assert!(r.text.starts_with(expected), "{args}: {}", r.text);
    }
    // Head and tail never count the file (Totals::IfKnown): the notes speak in bytes.
    assert_eq!(
        tool.respond(json!({"path": "f.txt", "tail": 2}))
            .full_text(),
        "line 99\nline 100\n[Bytes 0-775 omitted (775 B).]\n"
    );
    assert_eq!(
        tool.respond(json!({"path": "f.txt", "head": 2}))
            .full_text(),
        "line 1\nline 2\n[Bytes 14-792 omitted (778 B).]\n"
    );
    let bytes = tool.respond(json!({"path": "f.txt", "start_byte": 0, "end_byte": 4}));
    assert!(bytes.full_text().starts_with("line\n["), "{}", bytes.text);
}
