//! The MCP server (raw JSON-RPC on stdio) as a host runs it with budgets of its own and
//! reads past the end (issue 42): a host's line budget below the agent's never cuts
//! silently, and an error's `structuredContent.kind` is the library's `ErrorKind`.

mod common;

use serde_json::{json, Value};

use common::mcp::Session;

/// The text items of a result, joined.
fn text(r: &Value) -> String {
    r["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn root() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let body: String = (1..=300).map(|i| format!("line {i}\n")).collect();
    std::fs::write(root.join("f.txt"), body).unwrap();
    (dir, root)
}

#[test]
fn claude_code_under_a_host_line_budget_says_where_to_continue() {
    let (_d, root) = root();
    let r = root.to_str().unwrap();
    let mut s = Session::start(&["--preset", "claude-code", "--root", r, "--max-lines", "50"]);
    let path = root.join("f.txt");
    let answer = s.call("Read", json!({"file_path": path}));
    assert_eq!(answer["isError"], json!(false), "{answer}");
    let t = text(&answer);
    assert!(t.contains("50\tline 50") && !t.contains("line 51\n"), "{t}");
    assert!(
        t.contains("<system-reminder>") && t.contains("offset=51"),
        "{t}"
    );
    let next = s.call("Read", json!({"file_path": path, "offset": 51}));
    let t = text(&next);
    assert!(
        t.starts_with("51\tline 51") && t.contains("offset=101"),
        "{t}"
    );
}

#[test]
fn past_the_end_through_the_server_is_beyond_end_with_its_values() {
    let (_d, root) = root();
    let mut s = Session::start(&["--root", root.to_str().unwrap()]);
    let answer = s.call("read_file", json!({"path": "f.txt", "start_line": 9999}));
    assert_eq!(answer["isError"], json!(true), "{answer}");
    assert_eq!(
        text(&answer),
        "Invalid range specified: start_line (9999) is beyond the end of the file (300 lines)."
    );
    let meta = &answer["structuredContent"];
    assert_eq!(meta["kind"], "beyond_end", "{answer}");
    assert_eq!(meta["parameter"], "start_line", "{answer}");
    // Spelled as the caller did: `offset` of the same tool.
    let answer = s.call(
        "read_file",
        json!({"path": "f.txt", "offset": 400, "limit": 5}),
    );
    assert_eq!(
        answer["structuredContent"]["kind"], "beyond_end",
        "{answer}"
    );
    assert_eq!(
        answer["structuredContent"]["parameter"], "offset",
        "{answer}"
    );
    assert!(text(&answer).contains("offset (400)"), "{answer}");
}
