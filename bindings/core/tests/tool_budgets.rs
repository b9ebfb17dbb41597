//! A binding's `DialectTool` takes the host's budgets as options (`max_lines`,
//! `max_bytes`, `max_line_chars`, or camelCase from Node), as the Rust
//! `.reader(Reader::new().max_lines(n))`: a cut by one says where to continue.

use rangeread_bindings::rangeread::Workspace;
use rangeread_bindings::{options, Scope};
use serde_json::json;

#[test]
fn the_host_budgets_are_options_and_a_cut_says_where_to_continue() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let body: String = (1..=300).map(|i| format!("line {i}\n")).collect();
    std::fs::write(root.join("f.txt"), body).unwrap();
    std::fs::write(root.join("long.txt"), "short\nabcdefghijklmnopqrstuvwxyz\n").unwrap();
    let ws = || Scope::Workspace(Workspace::new(&root).unwrap());
    let tool = options::tool(json!("claude-code"), ws(), json!({"max_lines": 50})).unwrap();
    let r = tool.respond(json!({"file_path": root.join("f.txt")}));
    assert!(
        r.text.contains("50\tline 50") && !r.text.contains("line 51\n"),
        "{}",
        r.text
    );
    assert!(
        r.text.contains("<system-reminder>") && r.text.contains("offset=51"),
        "{}",
        r.text
    );
    let tool = options::tool(json!("claude-code"), ws(), json!({"maxLineChars": 10})).unwrap();
    let r = tool.respond(json!({"file_path": root.join("long.txt")}));
    let line = r.text.lines().nth(1).unwrap();
    assert!(
        line.starts_with("2\tabcdefghij") && !line.contains("abcdefghijk"),
        "{}",
        r.text
    );
    assert!(
        line.contains("16 more bytes") && line.contains("byte 16"),
        "{}",
        r.text
    );
    let Err(e) = options::tool(json!("claude-code"), ws(), json!({"max_lines": "50"})) else {
        panic!("a string is no count");
    };
    assert!(format!("{e:?}").contains("max_lines"), "{e:?}");
}
