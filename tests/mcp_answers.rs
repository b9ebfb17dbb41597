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

/// The number after `key=` in `t` (the last one).
fn after(t: &str, key: &str) -> Option<u64> {
    let at = t.rfind(key)? + key.len();
    let digits: String = t[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
fn claude_code_under_a_host_byte_budget_says_where_to_continue_and_pages_the_whole_file() {
    let (_d, root) = root();
    let r = root.to_str().unwrap();
    let mut s = Session::start(&[
        "--preset",
        "claude-code",
        "--root",
        r,
        "--max-bytes",
        "1000",
    ]);
    let path = root.join("f.txt");
    let mut seen: Vec<u64> = Vec::new();
    let mut args = json!({"file_path": path});
    for _ in 0..300 {
        let answer = s.call("Read", args.clone());
        assert_eq!(answer["isError"], json!(false), "{answer}");
        let t = text(&answer);
        let shown: Vec<u64> = t
            .lines()
            .filter_map(|l| l.split_once("\tline "))
            .map(|(n, rest)| {
                let n: u64 = n.trim().parse().unwrap();
                assert_eq!(rest, n.to_string(), "{t}");
                n
            })
            .collect();
        assert!(!shown.is_empty(), "{t}");
        seen.extend(&shown);
        let last = *shown.last().unwrap();
        if last == 300 {
            assert!(!t.contains("<system-reminder>"), "{t}");
            break;
        }
        // Cut by the host's 1,000 bytes (about 120 of these lines), in Claude Code's voice.
        assert!(shown.len() < 150, "{t}");
        assert!(
            t.contains("<system-reminder>") && t.contains("the host's"),
            "{t}"
        );
        assert_eq!(after(&t, "offset="), Some(last + 1), "{t}");
        args = json!({"file_path": path, "offset": last + 1});
    }
    assert_eq!(seen, (1..=300).collect::<Vec<u64>>());
}

#[test]
fn a_host_line_length_budget_marks_each_cut_line_with_where_the_rest_starts() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let long = "abcdefghijklmnopqrstuvwxyz";
    std::fs::write(root.join("f.txt"), format!("short\n{long}\nend\n")).unwrap();
    let r = root.to_str().unwrap();
    let mut s = Session::start(&[
        "--preset",
        "claude-code",
        "--root",
        r,
        "--max-line-chars",
        "10",
    ]);
    let answer = s.call("Read", json!({"file_path": root.join("f.txt")}));
    assert_eq!(answer["isError"], json!(false), "{answer}");
    let t = text(&answer);
    let line = t.lines().nth(1).unwrap();
    // 10 characters shown, the 16 others left out, and where they start (byte 6 + 10).
    assert!(line.starts_with("2\tabcdefghij"), "{t}");
    assert!(!line.contains("abcdefghijk"), "{t}");
    assert!(
        line.contains("16 more bytes") && line.contains("byte 16"),
        "{t}"
    );
    assert!(t.contains("1\tshort") && t.contains("3\tend"), "{t}");
    // A preset with a byte parameter names it: the rest read from there.
    let mut s = Session::start(&["--root", r, "--max-line-chars", "10"]);
    let answer = s.call("read_file", json!({"path": "f.txt"}));
    let t = text(&answer);
    assert_eq!(after(&t, "start_byte="), Some(16), "{t}");
    let rest = s.call("read_file", json!({"path": "f.txt", "start_byte": 16}));
    let t = text(&rest);
    assert!(t.contains("qrstuvwxyz"), "{t}");
}
