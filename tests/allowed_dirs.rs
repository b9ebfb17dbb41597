//! The gemini and mcp-filesystem presets beyond their peers' own cases (which
//! `tests/peers.rs` runs): the defects of the peers that their tests do not assert, done
//! right, and tools confined to several allowed directories whose links are judged by
//! their real path ([`Links::Inside`]).

use std::fs;
use std::path::{Path, PathBuf};

use rangeread::tool::{Dialect, DialectTool, Links, ToolResponse};
use rangeread::Workspace;
use serde_json::{json, Value};

fn tool(preset: &str, root: &Path) -> DialectTool {
    DialectTool::new(Dialect::preset(preset).unwrap()).workspace(Workspace::new(root).unwrap())
}

fn dir() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let base = d.path().canonicalize().unwrap();
    (d, base)
}

fn ok(r: ToolResponse) -> String {
    assert!(!r.is_error, "{}", r.text);
    r.text
}

fn err(r: ToolResponse) -> String {
    assert!(r.is_error, "{}", r.text);
    r.text
}

const MCP: &str = "mcp-filesystem/read_text_file";

#[test]
fn mcp_filesystem_head_and_tail_return_exactly_the_lines_asked_for() {
    let (_d, base) = dir();
    fs::write(base.join("f.txt"), "line1\nline2\nline3\n").unwrap();
    fs::write(base.join("crlf.txt"), "a\r\nb\r\nc\r\n").unwrap();
    let t = tool(MCP, &base);
    let call = |args: Value| t.respond(args);
    // As the released server (2026.8.31): tail splits the text on `\n`, so after a final
    // newline the empty line is one of the N; head joins the first N lines with `\n`.
    assert_eq!(ok(call(json!({"path": "f.txt", "tail": 2}))), "line3\n");
    assert_eq!(ok(call(json!({"path": "f.txt", "tail": 1}))), "");
    assert_eq!(
        ok(call(json!({"path": "f.txt", "head": 2}))),
        "line1\nline2"
    );
    // `if (args.head)`: 0 is no head, the whole file; a negative count reads nothing.
    let whole = "line1\nline2\nline3\n";
    assert_eq!(ok(call(json!({"path": "f.txt", "head": 0}))), whole);
    assert_eq!(ok(call(json!({"path": "f.txt", "tail": 0}))), whole);
    assert_eq!(ok(call(json!({"path": "f.txt", "head": -1}))), "");
    assert_eq!(ok(call(json!({"path": "f.txt", "tail": -1}))), "");
    assert_eq!(ok(call(json!({"path": "f.txt"}))), whole);
    // tail normalizes CRLF as the peer's tailFile does (its tests assert it); head and
    // whole reads keep the file's bytes.
    assert_eq!(ok(call(json!({"path": "crlf.txt", "tail": 3}))), "b\nc\n");
    assert_eq!(ok(call(json!({"path": "crlf.txt", "head": 1}))), "a\r");
    // zod's `number`: a fraction is a count its loops round (head up, tail's slice
    // toward zero); a string, a boolean or null is refused with the SDK's words.
    assert_eq!(
        ok(call(json!({"path": "f.txt", "head": 2.5}))),
        "line1\nline2\nline3"
    );
    assert_eq!(ok(call(json!({"path": "f.txt", "tail": 2.5}))), "line3\n");
    assert_eq!(ok(call(json!({"path": "f.txt", "tail": 2.0}))), "line3\n");
    for (v, got) in [
        (json!("2"), "string"),
        (json!(true), "boolean"),
        (Value::Null, "null"),
    ] {
        assert_eq!(
            err(call(json!({"path": "f.txt", "head": v}))),
            format!(
                "MCP error -32602: Input validation error: Invalid arguments for tool \
                 read_text_file: Expected number, received {got} at head"
            )
        );
    }
    assert_eq!(
        err(call(json!({"path": "f.txt", "head": 1, "tail": 1}))),
        "Cannot specify both head and tail parameters simultaneously"
    );
    // zod strips unknown keys: accepted, ignored.
    assert_eq!(
        ok(call(json!({"path": "f.txt", "head": 1, "encoding": "x"}))),
        "line1"
    );
}

#[test]
fn mcp_filesystem_keeps_characters_across_its_1_kib_chunks() {
    // The peer decodes each 1 KiB chunk on its own: a character across a boundary
    // becomes two U+FFFD.
    let (_d, base) = dir();
    let text = format!("{}é\nend\n", "x".repeat(1023));
    fs::write(base.join("f.txt"), &text).unwrap();
    let t = tool(MCP, &base);
    assert_eq!(
        ok(t.respond(json!({"path": "f.txt", "head": 2}))),
        text.trim_end_matches('\n')
    );
    // Three lines of a text split on `\n`: the two lines and the empty one after them.
    assert_eq!(ok(t.respond(json!({"path": "f.txt", "tail": 3}))), text);
}

#[test]
fn mcp_filesystem_answers_text_and_structured_content_and_serves_read_file_too() {
    let (_d, base) = dir();
    fs::write(base.join("f.txt"), "hello\n").unwrap();
    let r = tool(MCP, &base).respond(json!({"path": "f.txt"}));
    assert_eq!(r.structured, Some(json!({"content": "hello\n"})));
    let tools = Dialect::preset_tools("mcp-filesystem").unwrap();
    let names: Vec<&str> = tools.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["read_text_file", "read_file", "read_media_file"]);
    let old = DialectTool::new(tools[1].clone()).workspace(Workspace::new(&base).unwrap());
    assert!(old.definition().description.contains("DEPRECATED"));
    assert_eq!(
        old.definition().input_schema,
        tool(MCP, &base).definition().input_schema
    );
    assert_eq!(
        ok(old.respond(json!({"path": "f.txt", "tail": 2}))),
        "hello\n"
    );
}

#[test]
fn mcp_filesystem_read_media_file_sends_the_file_whole_by_its_name() {
    // As the released server (2026.8.31): the MIME type is the extension's, whatever the
    // bytes; any other file is sent as application/octet-stream; nothing but the item.
    let (_d, base) = dir();
    fs::write(base.join("a.png"), b"not really a png").unwrap();
    fs::write(base.join("s.ogg"), b"OggS").unwrap();
    fs::write(base.join("f.txt"), "hello\n").unwrap();
    fs::create_dir(base.join("sub")).unwrap();
    let t = tool("mcp-filesystem/read_media_file", &base);
    let b64 = |b: &[u8]| {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(b)
    };
    for (name, mime, bytes) in [
        ("a.png", "image/png", &b"not really a png"[..]),
        ("s.ogg", "audio/ogg", b"OggS"),
        ("f.txt", "application/octet-stream", b"hello\n"),
    ] {
        let r = t.respond(json!({"path": name}));
        assert!(!r.is_error && r.text.is_empty(), "{name}: {}", r.text);
        assert_eq!(r.media.len(), 1, "{name}");
        assert_eq!(r.media[0].mime_type, mime, "{name}");
        assert_eq!(r.media[0].data, b64(bytes), "{name}");
    }
    let missing = base.join("nope.png");
    assert_eq!(
        err(t.respond(json!({"path": missing}))),
        format!(
            "ENOENT: no such file or directory, open '{}'",
            missing.display()
        )
    );
    assert_eq!(
        err(t.respond(json!({"path": "sub"}))),
        "EISDIR: illegal operation on a directory, read"
    );
}

#[test]
fn mcp_filesystem_checks_the_path_first_and_names_stat_for_a_tail() {
    // The server's validatePath runs before it refuses head with tail; its tailFile
    // stats the file first, so Node's error names `stat` (a whole read names `open`).
    let (_d, base) = dir();
    let t = tool(MCP, &base);
    let missing = base.join("nope.txt");
    assert_eq!(
        err(t.respond(json!({"path": missing, "tail": 2}))),
        format!(
            "ENOENT: no such file or directory, stat '{}'",
            missing.display()
        )
    );
    assert_eq!(
        err(t.respond(json!({"path": missing, "head": 2}))),
        format!(
            "ENOENT: no such file or directory, open '{}'",
            missing.display()
        )
    );
    let outside = base.parent().unwrap().join("elsewhere.txt");
    let refusal = err(t.respond(json!({"path": outside, "head": 2, "tail": 2})));
    assert!(
        refusal.starts_with("Access denied - path outside allowed directories: "),
        "{refusal}"
    );
    assert_eq!(
        err(t.respond(json!({"path": missing, "head": 2, "tail": 2}))),
        "Cannot specify both head and tail parameters simultaneously"
    );
}

#[test]
fn mcp_filesystem_reads_every_file_as_utf8_as_the_server_does() {
    // Node's `readFile(path, "utf-8")`: no binary check, a byte order mark kept as
    // U+FEFF, invalid bytes as U+FFFD, NUL bytes in the text.
    let (_d, base) = dir();
    fs::write(base.join("b.bin"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    fs::write(base.join("bom.txt"), b"\xef\xbb\xbfhi\n").unwrap();
    let t = tool(MCP, &base);
    assert_eq!(
        ok(t.respond(json!({"path": "b.bin"}))),
        "\u{FFFD}PNG\r\n\u{1a}\n\0\0\0\rIHDR"
    );
    assert_eq!(ok(t.respond(json!({"path": "bom.txt"}))), "\u{FEFF}hi\n");
}

#[test]
fn mcp_filesystem_messages_name_paths_and_directories_as_the_peer_does() {
    let (_d, base) = dir();
    fs::create_dir(base.join("sub")).unwrap();
    let t = tool(MCP, &base);
    let b = base.display();
    assert_eq!(
        err(t.respond(json!({"path": "/etc/passwd"}))),
        format!("Access denied - path outside allowed directories: /etc/passwd not in {b}")
    );
    assert_eq!(
        err(t.respond(json!({"path": "sub/none.txt"}))),
        format!("ENOENT: no such file or directory, open '{b}/sub/none.txt'")
    );
    assert_eq!(
        err(t.respond(json!({"path": "none/x.txt"}))),
        format!("Parent directory does not exist: {b}/none")
    );
    assert_eq!(
        err(t.respond(json!({"path": "sub"}))),
        "EISDIR: illegal operation on a directory, read"
    );
}

#[cfg(unix)]
#[test]
fn links_inside_are_followed_between_allowed_directories_and_refused_outside() {
    use std::os::unix::fs::symlink;
    let (_d, base) = dir();
    for d in ["a", "b", "out"] {
        fs::create_dir(base.join(d)).unwrap();
    }
    fs::write(base.join("b/note.txt"), "in b\n").unwrap();
    fs::write(base.join("a/own.txt"), "in a\n").unwrap();
    fs::write(base.join("out/secret.txt"), "SECRET\n").unwrap();
    // Absolute links: refused under the default rule even when they point inside.
    symlink(base.join("b/note.txt"), base.join("a/to-b")).unwrap();
    symlink(base.join("a/own.txt"), base.join("a/to-own")).unwrap();
    symlink(base.join("out/secret.txt"), base.join("a/to-out")).unwrap();
    symlink(base.join("out"), base.join("a/out-dir")).unwrap();
    let roots = || {
        ["a", "b"]
            .into_iter()
            .map(|d| Workspace::new(base.join(d)).unwrap())
    };
    let t = DialectTool::new(Dialect::preset(MCP).unwrap()).roots(roots().collect());
    assert_eq!(t.dialect().paths.links, Links::Inside);
    let b = base.display();
    // A relative path reads in the first directory.
    assert_eq!(ok(t.respond(json!({"path": "own.txt"}))), "in a\n");
    assert_eq!(
        ok(t.respond(json!({"path": format!("{b}/b/note.txt")}))),
        "in b\n"
    );
    assert_eq!(ok(t.respond(json!({"path": "to-b"}))), "in b\n");
    assert_eq!(ok(t.respond(json!({"path": "to-own"}))), "in a\n");
    let refused = err(t.respond(json!({"path": "to-out"})));
    assert_eq!(
        refused,
        format!(
            "Access denied - symlink target outside allowed directories: {b}/out/secret.txt \
             not in {b}/a, {b}/b"
        )
    );
    let refused = err(t.respond(json!({"path": "out-dir/new.txt"})));
    assert!(
        refused.starts_with("Access denied - symlink target outside"),
        "{refused}"
    );
    // `..` is folded by its spelling, as Node's path.resolve does.
    assert_eq!(
        ok(t.respond(json!({"path": format!("{b}/a/../b/note.txt")}))),
        "in b\n"
    );
    assert!(err(t.respond(json!({"path": "../out/secret.txt"})))
        .starts_with("Access denied - path outside allowed directories"));

    // The same links under the default rule: one root, nothing absolute followed.
    let mut beneath = Dialect::preset(MCP).unwrap();
    beneath.paths.links = Links::Beneath;
    let t = DialectTool::new(beneath).roots(roots().collect());
    assert!(err(t.respond(json!({"path": "to-own"}))).starts_with("Access denied - path outside"));
    assert_eq!(
        ok(t.respond(json!({"path": format!("{b}/b/note.txt")}))),
        "in b\n"
    );
}

#[cfg(unix)]
#[test]
fn links_inside_still_refuse_protected_paths_by_spelling_and_by_target() {
    use std::os::unix::fs::symlink;
    let (_d, base) = dir();
    fs::create_dir_all(base.join("secrets")).unwrap();
    fs::create_dir_all(base.join("public")).unwrap();
    fs::write(base.join("secrets/key.pem"), "KEY\n").unwrap();
    fs::write(base.join("public/readme"), "hi\n").unwrap();
    symlink(base.join("secrets/key.pem"), base.join("alias")).unwrap();
    // A protected name that is a link to an open directory: refused by its spelling.
    symlink(base.join("public"), base.join("private")).unwrap();
    let ws = Workspace::builder(&base)
        .protect("secrets/")
        .protect("private")
        .build()
        .unwrap();
    let t = DialectTool::new(Dialect::preset(MCP).unwrap()).workspace(ws);
    let paths = [
        "alias",
        "secrets/key.pem",
        "secrets/none",
        "public/../secrets/key.pem",
        "private/readme",
    ];
    for path in paths {
        let text = err(t.respond(json!({ "path": path })));
        assert!(text.contains("protected"), "{path}: {text}");
    }
    assert_eq!(ok(t.respond(json!({"path": "public/readme"}))), "hi\n");
}

#[test]
fn gemini_counts_the_empty_line_after_a_final_newline_and_pages_past_the_end() {
    // As Gemini CLI core 0.61.0: its text split on /\r?\n/ has 21 lines here.
    let (_d, base) = dir();
    let text: String = (1..=20).map(|i| format!("Line {i}\r\n")).collect();
    fs::write(base.join("p.txt"), &text).unwrap();
    let t = tool("gemini", &base);
    let page = |args: Value| ok(t.respond(args));
    let header = |s: u64, e: u64| {
        format!(
            "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines {s}-{e} of 21 \
             total lines.\nAction: To read more of the file, you can use the 'start_line' and \
             'end_line' parameters in a subsequent 'read_file' call. For example, to read the next \
             section of the file, use start_line: {}.\n\n--- FILE CONTENT (truncated) ---\n",
            e + 1
        )
    };
    // Past the end: an empty page whose header names the lines after the last.
    assert_eq!(
        page(json!({"file_path": "p.txt", "start_line": 30})),
        header(22, 21)
    );
    assert_eq!(
        page(json!({"file_path": "p.txt", "start_line": 21})),
        header(21, 21)
    );
    assert_eq!(
        page(json!({"file_path": "p.txt", "start_line": 19})),
        header(19, 21) + "Line 19\nLine 20\n"
    );
    assert_eq!(
        page(json!({"file_path": "p.txt", "start_line": 2, "end_line": 3})),
        header(2, 3) + "Line 2\nLine 3"
    );
    // Lines 1-20 leave out the 21st, the empty one: a partial read.
    assert!(page(json!({"file_path": "p.txt", "end_line": 20})).starts_with(&header(1, 20)));
    // A whole read is the text with LF line ends, its final newline kept, no header.
    assert_eq!(
        page(json!({"file_path": "p.txt", "ignored": true})),
        text.replace("\r\n", "\n")
    );
}

#[test]
fn gemini_caps_lines_only_without_an_end_line_and_checks_types_as_its_schema() {
    let (_d, base) = dir();
    let text: String = (1..=2500).map(|i| format!("{i}\n")).collect();
    fs::write(base.join("long.txt"), &text).unwrap();
    let t = tool("gemini", &base);
    let call = |args: Value| t.respond(args);
    let whole = ok(call(json!({"file_path": "long.txt"})));
    assert!(
        whole.contains("Showing lines 1-2000 of 2501 total lines"),
        "{whole}"
    );
    let from = ok(call(json!({"file_path": "long.txt", "start_line": 100})));
    assert!(from.contains("Showing lines 100-2099 of 2501"), "{from}");
    // An end_line lifts the 2,000-line cap.
    let all = ok(call(json!({"file_path": "long.txt", "end_line": 2600})));
    assert_eq!(all, text);
    // ajv's `integer`: 2.0 is one; a string, a boolean, a fraction, null are not.
    let two = ok(call(
        json!({"file_path": "long.txt", "start_line": 2.0, "end_line": 2}),
    ));
    assert!(two.ends_with("---\n2"), "{two}");
    for v in [json!("2"), json!(true), json!(1.5), Value::Null] {
        assert_eq!(
            err(call(json!({"file_path": "long.txt", "start_line": v}))),
            "params/start_line must be integer"
        );
    }
    assert_eq!(
        err(call(json!({"file_path": "long.txt", "end_line": "3"}))),
        "params/end_line must be integer"
    );
}

#[test]
fn gemini_binary_and_size_rules_answer_as_the_peer() {
    let (_d, base) = dir();
    fs::write(base.join("a.zip"), "plain text").unwrap();
    let latin = b"Le caf\xe9 est tr\xe8s bon, et la cr\xe8me br\xfbl\xe9e aussi, merci beaucoup.\n";
    fs::write(base.join("latin.txt"), latin).unwrap();
    fs::write(base.join("dense.dat2"), [0x80u8; 64]).unwrap();
    let t = tool("gemini", &base);
    let call = |p: &str| t.respond(json!({ "file_path": p }));
    assert_eq!(
        ok(call("a.zip")),
        "Cannot display content of binary file: a.zip"
    );
    // Under 10% invalid UTF-8 stays text, as UTF-8 (no legacy encoding is guessed);
    // over it is binary; so is UTF-16 without a byte order mark (its NUL bytes).
    assert!(ok(call("latin.txt")).starts_with("Le caf\u{FFFD} est"));
    fs::write(base.join("u16.txt"), b"h\0i\0\n\0").unwrap();
    assert_eq!(
        ok(call("u16.txt")),
        "Cannot display content of binary file: u16.txt"
    );
    assert_eq!(
        ok(call("dense.dat2")),
        "Cannot display content of binary file: dense.dat2"
    );
}

#[test]
fn openhands_checks_view_range_as_python_isinstance_int() {
    // openhands-aci 0.3.3: `all(isinstance(i, int) for i in view_range)`, where a bool is
    // an int and a float (1.0 too) is not; the refusal shows `str()` of the value.
    let (_d, base) = dir();
    let text: String = (1..=9).map(|i| format!("line {i}\n")).collect();
    fs::write(base.join("f.txt"), &text).unwrap();
    let t = tool("openhands", &base);
    let path = base.join("f.txt").display().to_string();
    let view =
        |range: Value| t.respond(json!({"command": "view", "path": path, "view_range": range}));
    let read = ok(view(json!([true, 3])));
    assert!(
        read.contains("     1\tline 1\n     2\tline 2\n     3\tline 3"),
        "{read:?}"
    );
    assert!(!read.contains("line 4"), "{read:?}");
    for (range, shown) in [
        (json!(["2", "4"]), "['2', '4']"),
        (json!([1.0, 3.0]), "[1.0, 3.0]"),
        (json!([1.5, 3]), "[1.5, 3]"),
        (json!("1,5"), "1,5"),
    ] {
        assert_eq!(
            err(view(range)),
            format!(
                "ERROR:\nInvalid `view_range` parameter: {shown}. It should be a list of two \
                 integers."
            )
        );
    }
}

#[test]
fn openhands_reads_a_lone_cr_as_a_line_break_as_python_does() {
    // openhands-aci reads with Python's `open()` (universal newlines): `\r`, `\r\n` and
    // `\n` each end a line and each shows as `\n`; the preset names
    // `decoding.line_endings: "universal"`.
    let (_d, base) = dir();
    fs::write(base.join("cr.txt"), "one\rtwo\r\nthree\nfour\r").unwrap();
    let t = tool("openhands", &base);
    let path = base.join("cr.txt").display().to_string();
    let whole = ok(t.respond(json!({"command": "view", "path": path})));
    assert!(
        whole.contains("     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n"),
        "{whole:?}"
    );
    assert!(!whole.contains('\r'), "{whole:?}");
    let range = ok(t.respond(json!({"command": "view", "path": path, "view_range": [2, 3]})));
    assert!(range.contains("     2\ttwo\n     3\tthree\n"), "{range:?}");
    assert!(
        !range.contains("one") && !range.contains("four"),
        "{range:?}"
    );
}
