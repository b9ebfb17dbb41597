//! What one tool call costs in file-system calls: counted, not timed, so that a call that
//! opens its file again shows on any machine (docs/performance.md has the times). A call
//! is an open, a stat, a positional read or a seek (`crate::fsopen::fs_call`).

use serde_json::{json, Value};

use crate::fsopen::fs_calls;
use crate::tool::{Dialect, DialectTool};
use crate::{LineSelection, Workspace};

/// The calls of `tool.respond(args)`, and its answer's text.
fn counted(tool: &DialectTool, args: Value) -> (u64, String) {
    let before = fs_calls();
    let r = tool.respond(args);
    assert!(!r.is_error, "{}", r.text);
    (fs_calls() - before, r.text)
}

/// A workspace holding `a.rs`, 40 lines of Rust: the directory, the text, its absolute
/// path.
fn fixture() -> (tempfile::TempDir, String, String, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let body = "fn main() {\n    println!(\"hi\");\n}\n".repeat(40);
    std::fs::write(dir.path().join("a.rs"), &body).unwrap();
    let abs = dir.path().join("a.rs").display().to_string();
    let ws = Workspace::new(dir.path()).unwrap();
    (dir, body, abs, ws)
}

/// A small text file read through a workspace: one call opens it once, as a read of the
/// library does, whether or not the dialect reads documents (which looks at the file's
/// kind first, then reads the text from the same open).
#[test]
fn a_tool_call_opens_its_file_once() {
    let (dir, body, abs, ws) = fixture();
    for (preset, args) in [
        ("read_file", json!({"path": "a.rs"})),
        ("claude-code", json!({"file_path": abs})),
        ("gemini", json!({"file_path": abs})),
        ("mcp-filesystem/read_text_file", json!({"path": abs})),
        ("openhands", json!({"command": "view", "path": abs})),
        ("zed", json!({"path": "a.rs"})),
    ] {
        let d = Dialect::preset(preset).unwrap();
        let documents = !d.documents.is_default();
        let tool = DialectTool::new(d).workspace(ws.clone());
        // The library's own read with the tool's reader (its line ends, rules, cache), of
        // a twin file (no entry of the cache shared): the floor a call is held to.
        let reader = tool.get_reader().clone();
        let before = fs_calls();
        let twin = format!("{preset}.rs").replace('/', "-");
        std::fs::write(dir.path().join(&twin), &body).unwrap();
        reader
            .read_in(&ws, &twin, LineSelection::range(None, None))
            .unwrap();
        let floor = fs_calls() - before;
        let (calls, text) = counted(&tool, args.clone());
        assert!(text.contains("println!"), "{preset}: {text}");
        assert_eq!(
            calls, floor,
            "{preset} (reads documents: {documents}): one call made {calls} file-system calls, \
             a read of the library {floor}"
        );
    }
}

/// The calls one ranged call makes on a small text file in a workspace, whatever the way
/// the dialect ranges it (a head, a tail, an offset and a limit, a line range): one open,
/// one stat on that handle and one read of the whole file, as a whole read of the
/// library makes (`source::tests`). A tail of a tool that splits on `\n` looks at the
/// file's last byte first (whether a final line feed ends it) and reads from that open.
#[test]
fn a_ranged_tool_call_is_one_open_one_stat_and_one_read() {
    let (_dir, _, abs, ws) = fixture();
    for (preset, args) in [
        ("read_file", json!({"path": "a.rs"})),
        ("read_file", json!({"path": "a.rs", "head": 10})),
        ("read_file", json!({"path": "a.rs", "tail": 10})),
        (
            "read_file",
            json!({"path": "a.rs", "start_line": 5, "end_line": 14}),
        ),
        (
            "claude-code",
            json!({"file_path": abs, "offset": 5, "limit": 10}),
        ),
        (
            "gemini",
            json!({"file_path": abs, "start_line": 5, "end_line": 14}),
        ),
        (
            "mcp-filesystem/read_text_file",
            json!({"path": abs, "head": 10}),
        ),
        (
            "mcp-filesystem/read_text_file",
            json!({"path": abs, "tail": 10}),
        ),
        (
            "mcp-filesystem/read_text_file",
            json!({"path": abs, "tail": 200}),
        ),
    ] {
        let d = Dialect::preset(preset).unwrap();
        let tool = DialectTool::new(d).workspace(ws.clone());
        let (calls, text) = counted(&tool, args.clone());
        assert!(text.contains("println!"), "{preset} {args}: {text}");
        assert_eq!(
            calls, 3,
            "{preset} {args}: one call made {calls} file-system calls (an open, a stat, a read)"
        );
    }
}
