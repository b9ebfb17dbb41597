//! The presets of the `tool` module: each reproduces a known tool's documented behaviour
//! and response shape.

use std::fs;
use std::path::Path;

use rangeread::tool::file_read::{FileRead, FileReadParams, PARTIAL_NOTE};
use rangeread::tool::fs_read::{FsRead, FsReadResponse};
use rangeread::tool::line_offsets;
use rangeread::tool::session_read_file::{SessionReadFile, SessionReadFileResponse};
use rangeread::tool::vault::VaultReadFile;
use rangeread::tool::ReadFile;
use rangeread::{Reader, Workspace, WorkspaceRegistry};
use serde_json::{json, Value};

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

fn sessions() -> (tempfile::TempDir, SessionReadFile) {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("a"), "notes.txt", numbered(1000));
    write(&dir.path().join("b"), "notes.txt", "only b\n");
    write(dir.path(), "outside.txt", "secret\n");
    let reg = WorkspaceRegistry::new();
    reg.insert("alpha", Workspace::new(dir.path().join("a")).unwrap());
    reg.insert("beta", Workspace::new(dir.path().join("b")).unwrap());
    (dir, SessionReadFile::new(reg))
}

fn session_call(tool: &SessionReadFile, args: Value) -> (bool, Value) {
    let r = tool.respond(args);
    (r.is_error, serde_json::from_str(&r.text).unwrap())
}

#[test]
fn session_read_file_response_shape() {
    let (_d, tool) = sessions();
    let (err, v) = session_call(
        &tool,
        json!({"session": "alpha", "path": "notes.txt",
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
    assert_eq!(v["success"], true);
    assert_eq!(v["content"], "line 10\nline 11\nline 12\n");
    assert_eq!(v["path"], "notes.txt");
    assert_eq!(v["session"], "alpha");
    assert_eq!(v["totalLines"], 1000);
    assert_eq!(v["linesRead"], json!({"start": 10, "end": 12}));
    assert_eq!(v["omittedContent"]["beforeLines"], 9);
    assert_eq!(v["omittedContent"]["afterLines"], 988);
    let summary = v["omittedContent"]["summary"].as_str().unwrap();
    assert!(summary.starts_with("Lines 1-9 omitted"), "{summary}");
    // The typed response is what goes on the wire.
    let typed: SessionReadFileResponse = serde_json::from_value(v).unwrap();
    assert!(typed.success);
}

#[test]
fn session_read_file_caps_each_call_at_250_lines() {
    let (_d, tool) = sessions();
    let (_, v) = session_call(
        &tool,
        json!({"session": "alpha", "path": "notes.txt",
               "start_line_one_indexed": 1, "end_line_one_indexed_inclusive": 1000}),
    );
    assert_eq!(v["linesRead"], json!({"start": 1, "end": 250}));
    assert_eq!(v["content"].as_str().unwrap().lines().count(), 250);
    assert_eq!(v["omittedContent"]["afterLines"], 750);
    let summary = v["omittedContent"]["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "Showing lines 1-250 of 1000 (at most 250 lines per call); \
             continue with start_line_one_indexed=251."
        ),
        "{summary}"
    );
    // The entire file is capped too, and Cursor's always-sent line parameters are ignored.
    let (_, v) = session_call(
        &tool,
        json!({"session": "alpha", "path": "notes.txt", "should_read_entire_file": true,
               "start_line_one_indexed": 600, "end_line_one_indexed_inclusive": 610}),
    );
    assert_eq!(v["linesRead"], json!({"start": 1, "end": 250}));
    // Continuing from the summary's line reads the next page.
    let (_, v) = session_call(
        &tool,
        json!({"session": "alpha", "path": "notes.txt", "start_line_one_indexed": 251}),
    );
    assert_eq!(v["linesRead"], json!({"start": 251, "end": 500}));
    assert!(v["content"].as_str().unwrap().starts_with("line 251\n"));
}

#[test]
fn session_read_file_resolves_in_the_sessions_workspace() {
    let (dir, tool) = sessions();
    let (_, a) = session_call(&tool, json!({"session": "alpha", "path": "notes.txt"}));
    let (_, b) = session_call(
        &tool,
        json!({"session": "beta", "target_file": "notes.txt"}),
    );
    assert_eq!(b["content"], "only b\n");
    assert_eq!(
        b["omittedContent"],
        json!({"beforeLines": 0, "afterLines": 0, "summary": ""})
    );
    let root_a = fs::canonicalize(dir.path().join("a")).unwrap();
    assert_eq!(
        a["resolvedPath"],
        root_a.join("notes.txt").display().to_string()
    );
    for (args, message) in [
        (
            json!({"session": "beta", "path": "../outside.txt"}),
            r#"Path "../outside.txt" is outside the workspace"#,
        ),
        (
            json!({"session": "gamma", "path": "notes.txt"}),
            r#"Session not found: "gamma""#,
        ),
        (
            json!({"session": "beta", "path": "notes.txt", "start_line_one_indexed": -1}),
            "Invalid start_line_one_indexed: expected a non-negative integer, got -1",
        ),
        (
            json!({"session": "beta", "path": "notes.txt", "start_line_one_indexed": 5}),
            "Invalid range specified: start_line (5) is beyond the end of the file (1 lines).",
        ),
    ] {
        let (err, v) = session_call(&tool, args);
        assert!(err);
        assert_eq!(v, json!({"success": false, "error": message}));
    }
    // An end past the last line is clamped, not an error.
    let (err, v) = session_call(
        &tool,
        json!({"session": "beta", "path": "notes.txt", "end_line_one_indexed_inclusive": 99}),
    );
    assert!(!err);
    assert_eq!(v["linesRead"], json!({"start": 1, "end": 1}));
}

// ---- file_read ---------------------------------------------------------------------

#[test]
fn file_read_full_reads_are_plain_and_partial_reads_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let text = numbered(40).replace("line 12\n", "fn twelve() {}\n");
    write(dir.path(), "src/main.rs", &text);
    let tool = FileRead::new().workspace(Workspace::new(dir.path()).unwrap());

    let full = tool.respond(json!({"filename": "src/main.rs"}));
    assert_eq!(full.text, text);
    // A range covering the whole file is a full read too.
    let full = tool.respond(json!({"filename": "src/main.rs", "start_line": 1, "end_line": 40}));
    assert_eq!(full.text, text);

    let part = tool
        .call(&FileReadParams {
            filename: "src/main.rs".into(),
            start_line: Some(10),
            end_line: Some(20),
        })
        .unwrap();
    let expected_head =
        "# File: src/main.rs (Lines 10-20)\n```rust\nline 10\nline 11\nfn twelve() {}\n";
    assert!(part.starts_with(expected_head), "{part}");
    assert!(part.contains("line 20\n```\n"), "{part}");
    assert!(part.ends_with(&format!("\n{PARTIAL_NOTE}\n")), "{part}");
    assert_eq!(PARTIAL_NOTE, "*Note: Partial read - analysis skipped.*");

    let err = tool.respond(json!({"filename": "src/main.rs", "start_line": 50}));
    assert!(err.is_error);
    assert_eq!(
        err.text,
        "Invalid range specified: start_line (50) is beyond the end of the file (40 lines)."
    );
}

#[test]
fn file_read_over_budget_is_a_partial_read_that_says_where_to_continue() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "big.py", numbered(30));
    let tool = FileRead::with_reader(Reader::new().max_lines(10))
        .workspace(Workspace::new(dir.path()).unwrap());
    let out = tool.respond(json!({"filename": "big.py"})).text;
    assert!(
        out.starts_with("# File: big.py (Lines 1-10)\n```python\n"),
        "{out}"
    );
    assert!(
        out.contains("[... truncated, showing lines 1-10 of 30; continue with start_line=11]"),
        "{out}"
    );
    assert!(out.ends_with(&format!("{PARTIAL_NOTE}\n")));
}

#[test]
fn line_offsets_give_edit_tools_the_bytes_of_the_lines_file_read_showed() {
    let dir = tempfile::tempdir().unwrap();
    let text = "a\r\nb\r\nc\r\nd";
    write(dir.path(), "crlf.txt", text);
    let tool = FileRead::new().workspace(Workspace::new(dir.path()).unwrap());
    let shown = tool.respond(json!({"filename": "crlf.txt"})).text;
    let (s, e) = line_offsets(&shown, 2, 3).unwrap();
    assert_eq!(&shown[s..e], "b\r\nc\r\n");
    let edited = format!("{}B\r\n{}", &shown[..s], &shown[e..]);
    assert_eq!(edited, "a\r\nB\r\nd");
    assert_eq!(line_offsets(text, 4, 9).unwrap(), (9, 10));
}

// ---- fs_read -----------------------------------------------------------------------

#[test]
fn fs_read_response_shape_and_snapping() {
    let dir = tempfile::tempdir().unwrap();
    // 'a' (1 byte), 'é' (2), '€' (3), '🦀' (4): offsets 0, 1, 3, 6, end 10.
    write(dir.path(), "chars.txt", "aé€🦀");
    let tool = FsRead::new().workspace(Workspace::new(dir.path()).unwrap());
    let r = tool.respond(json!({"path": "chars.txt", "start_byte": 2, "end_byte": 7}));
    assert!(!r.is_error, "{}", r.text);
    let v: Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(keys(&v), ["content", "metadata"]);
    assert_eq!(
        keys(&v["metadata"]),
        [
            "actual_range",
            "boundary_adjustments",
            "file_size",
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
            "percent_of_file": 90.0
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
fn fs_read_errors_respond_with_the_message() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "0123456789");
    let tool = FsRead::new().workspace(Workspace::new(dir.path()).unwrap());
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
    let tool = FsRead::new().workspace(Workspace::new(dir.path()).unwrap());
    let r = tool.respond(json!({"path": "pixel.png", "start_byte": 0, "end_byte": 16}));
    assert!(r.is_error);
    assert_eq!(r.text, BINARY_PNG);
}

// ---- vault read_file ---------------------------------------------------------------

fn vault() -> (tempfile::TempDir, VaultReadFile) {
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
    (dir, VaultReadFile::new(ws))
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
    let tool = ReadFile::new().workspace(Workspace::new(dir.path()).unwrap());
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
        tool.respond(json!({"path": "f.txt", "tail": 2})).text,
        "line 99\nline 100\n[Bytes 0-775 omitted (775 B).]\n"
    );
    assert_eq!(
        tool.respond(json!({"path": "f.txt", "head": 2})).text,
        "line 1\nline 2\n[Bytes 14-792 omitted (778 B).]\n"
    );
    let bytes = tool.respond(json!({"path": "f.txt", "start_byte": 0, "end_byte": 4}));
    assert!(bytes.text.starts_with("line\n["), "{}", bytes.text);
}
