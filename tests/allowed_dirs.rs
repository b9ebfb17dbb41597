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
    // The peer answers `line3\n` (N-1 lines after a final newline: a defect, fixed);
    // head joins the first N lines with `\n`, without a final newline, as the peer's
    // headFile does.
    assert_eq!(
        ok(call(json!({"path": "f.txt", "tail": 2}))),
        "line2\nline3\n"
    );
    assert_eq!(
        ok(call(json!({"path": "f.txt", "head": 2}))),
        "line1\nline2"
    );
    // The peer reads the whole file for 0.
    assert_eq!(ok(call(json!({"path": "f.txt", "head": 0}))), "");
    assert_eq!(ok(call(json!({"path": "f.txt", "tail": 0}))), "");
    assert_eq!(ok(call(json!({"path": "f.txt"}))), "line1\nline2\nline3\n");
    // tail normalizes CRLF as the peer's tailFile does (its tests assert it); head and
    // whole reads keep the file's bytes.
    assert_eq!(ok(call(json!({"path": "crlf.txt", "tail": 2}))), "b\nc\n");
    assert_eq!(ok(call(json!({"path": "crlf.txt", "head": 1}))), "a\r");
    // The peer answers '' for -1 and three lines for 2.5.
    assert!(err(call(json!({"path": "f.txt", "head": -1}))).starts_with("Invalid head"));
    assert!(err(call(json!({"path": "f.txt", "tail": 2.5}))).starts_with("Invalid tail"));
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
    assert_eq!(ok(t.respond(json!({"path": "f.txt", "tail": 2}))), text);
}

#[test]
fn mcp_filesystem_answers_text_and_structured_content_and_serves_read_file_too() {
    let (_d, base) = dir();
    fs::write(base.join("f.txt"), "hello\n").unwrap();
    let r = tool(MCP, &base).respond(json!({"path": "f.txt"}));
    assert_eq!(r.structured, Some(json!({"content": "hello\n"})));
    let tools = Dialect::preset_tools("mcp-filesystem").unwrap();
    let names: Vec<&str> = tools.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["read_text_file", "read_file"]);
    let old = DialectTool::new(tools[1].clone()).workspace(Workspace::new(&base).unwrap());
    assert!(old.definition().description.contains("DEPRECATED"));
    assert_eq!(
        old.definition().input_schema,
        tool(MCP, &base).definition().input_schema
    );
    assert_eq!(
        ok(old.respond(json!({"path": "f.txt", "tail": 1}))),
        "hello\n"
    );
}

#[test]
fn mcp_filesystem_refuses_binary_files_instead_of_decoding_them() {
    let (_d, base) = dir();
    fs::write(base.join("b.bin"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let text = err(tool(MCP, &base).respond(json!({"path": "b.bin"})));
    assert!(text.starts_with("Binary files are not supported"), "{text}");
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
fn gemini_refuses_a_first_line_past_the_end_and_counts_lines_as_the_file_has_them() {
    let (_d, base) = dir();
    let text: String = (1..=20).map(|i| format!("Line {i}\r\n")).collect();
    fs::write(base.join("p.txt"), &text).unwrap();
    let t = tool("gemini", &base);
    // The peer answers an empty page headed "Showing lines 21-20 of 21" (it counts an
    // empty line after the final newline).
    let e = err(t.respond(json!({"file_path": "p.txt", "start_line": 30})));
    assert!(e.contains("beyond the end of the file (20 lines)"), "{e}");
    let page = ok(t.respond(json!({"file_path": "p.txt", "start_line": 19})));
    assert!(
        page.contains("Showing lines 19-20 of 20 total lines"),
        "{page}"
    );
    assert!(
        page.ends_with("--- FILE CONTENT (truncated) ---\nLine 19\nLine 20\n"),
        "{page:?}"
    );
    // A whole read is the text with LF line ends, its final newline kept, no header.
    assert_eq!(
        ok(t.respond(json!({"file_path": "p.txt", "ignored": true}))),
        text.replace("\r\n", "\n")
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
    // Under 10% invalid UTF-8 stays text (here decoded in the legacy encoding it is);
    // over it is binary.
    assert!(ok(call("latin.txt")).starts_with("Le caf\u{e9} est"));
    assert_eq!(
        ok(call("dense.dat2")),
        "Cannot display content of binary file: dense.dat2"
    );
}
