//! Each preset's project rules through its tool, for the agents whose own tests do not
//! cover them (tests/peers/*.json hold those that do): Claude Code's documented
//! `permissions.deny` rules, Cursor's `.cursorignore` (the `read_file` and
//! `session_read_file` presets), Gemini CLI's blocked path segments, Crush's
//! `.crushignore` (which its `view` does not consult), and the switch that turns a
//! preset's rules off.
#![cfg(unix)]

mod common;

use std::path::Path;

use common::tree;
use rangeread::tool::{Dialect, DialectTool, Roots, ToolResponse};
use rangeread::Workspace;
use serde_json::json;

fn call(preset: &str, root: &Path, args: serde_json::Value) -> ToolResponse {
    let tool =
        DialectTool::new(Dialect::preset(preset).unwrap()).workspace(Workspace::new(root).unwrap());
    tool.respond(args.to_string())
}

/// Claude Code's documented example (code.claude.com/docs/en/settings, "Excluding
/// sensitive files"): deny rules in the project's `.claude/settings.json`. Claude Code
/// publishes no test of this and its refusal text was not observed here: the library's
/// text names the rule and its file.
#[test]
fn claude_code_refuses_what_permissions_deny_names() {
    let settings = r#"{"permissions": {"deny": ["Read(./.env)", "Read(./.env.*)", "Read(./secrets/**)", "Read(./config/credentials.json)", "Read(./build)"]}}"#;
    let (_d, root) = tree(&[
        (".claude/settings.json", settings),
        (".env", "KEY=1"),
        (".env.production", "KEY=2"),
        ("secrets/api.txt", "s"),
        ("config/credentials.json", "{}"),
        ("src/main.rs", "fn main() {}\n"),
    ]);
    for (path, rule) in [
        (".env", "Read(./.env)"),
        (".env.production", "Read(./.env.*)"),
        ("secrets/api.txt", "Read(./secrets/**)"),
        ("secrets/absent.txt", "Read(./secrets/**)"),
        ("config/credentials.json", "Read(./config/credentials.json)"),
    ] {
        let r = call("claude-code", &root, json!({"file_path": root.join(path)}));
        assert!(r.is_error, "{path}: {}", r.text);
        assert!(r.text.contains(rule), "{path}: {}", r.text);
        assert!(
            r.text.contains(r#"".claude/settings.json""#),
            "{path}: {}",
            r.text
        );
    }
    let r = call(
        "claude-code",
        &root,
        json!({"file_path": root.join("src/main.rs")}),
    );
    assert!(!r.is_error, "{}", r.text);
    assert!(r.text.contains("fn main() {}"));
    // The personal file binds too.
    std::fs::write(
        root.join(".claude/settings.local.json"),
        r#"{"permissions": {"deny": ["Read(src/**)"]}}"#,
    )
    .unwrap();
    let r = call(
        "claude-code",
        &root,
        json!({"file_path": root.join("src/main.rs")}),
    );
    assert!(
        r.is_error && r.text.contains(".claude/settings.local.json"),
        "{}",
        r.text
    );
}

#[test]
fn cursor_presets_refuse_what_cursorignore_names() {
    let (_d, root) = tree(&[
        (".cursorignore", "# private\nconfig/secrets.json\n*.key\n"),
        ("config/secrets.json", "{}"),
        ("deploy/server.key", "k"),
        ("README.md", "hello\n"),
    ]);
    for path in ["config/secrets.json", "deploy/server.key"] {
        let r = call("read_file", &root, json!({"path": path}));
        assert!(r.is_error, "{path}: {}", r.text);
        assert!(r.text.contains(r#"".cursorignore""#), "{path}: {}", r.text);
    }
    let r = call("read_file", &root, json!({"path": "README.md"}));
    assert!(!r.is_error && r.text.contains("hello"), "{}", r.text);
}

#[test]
fn gemini_refuses_blocked_segments_as_outside_the_workspace() {
    let (_d, root) = tree(&[
        ("node_modules/pkg/index.js", "x"),
        ("app/.ENV/x", "x"),
        ("gha-creds-123.json", "{}"),
        ("ok.txt", "fine\n"),
    ]);
    for path in [
        "node_modules/pkg/index.js",
        "app/.ENV/x",
        "gha-creds-123.json",
    ] {
        let abs = root.join(path);
        let r = call("gemini", &root, json!({"file_path": abs}));
        assert!(r.is_error, "{path}");
        assert_eq!(
            r.text,
            format!(
                "Path not in workspace: Attempted path \"{}\" resolves outside the allowed \
                 workspace directories: {}",
                abs.display(),
                root.display()
            )
        );
    }
    let r = call("gemini", &root, json!({"file_path": root.join("ok.txt")}));
    assert!(!r.is_error, "{}", r.text);
}

/// Gemini CLI also reads its project temp directory (`~/.gemini/tmp/<project>`), and its
/// refusal names it apart: a host gives it as the last root. A link out of both is named
/// by its target, as Gemini CLI resolves it before the check.
#[test]
fn gemini_names_its_project_temp_directory_given_as_the_last_root() {
    let (_d, top) = tree(&[
        ("root/a.txt", "a\n"),
        ("tmp/root/notes.txt", "kept\n"),
        ("outside/secret.txt", "no\n"),
    ]);
    let (root, temp) = (top.join("root"), top.join("tmp/root"));
    std::os::unix::fs::symlink(top.join("outside/secret.txt"), root.join("link.txt")).unwrap();
    let tool = DialectTool::new(Dialect::preset("gemini").unwrap()).roots(
        Roots::new()
            .root(Workspace::new(&root).unwrap())
            .root(Workspace::new(&temp).unwrap()),
    );
    let r = tool.respond(json!({"file_path": temp.join("notes.txt")}).to_string());
    assert_eq!((r.is_error, r.text.as_str()), (false, "kept\n"));
    let dirs = format!(
        "{} or the project temp directory: {}",
        root.display(),
        temp.display()
    );
    let r = tool.respond(json!({"file_path": root.join("link.txt")}).to_string());
    let real = top.join("outside/secret.txt");
    assert_eq!(
        (r.is_error, r.text),
        (
            true,
            format!(
                "Path not in workspace: Attempted path \"{}\" resolves outside the allowed \
                 workspace directories: {dirs}",
                real.display()
            )
        )
    );
    // The path is checked before the range's order, as Gemini CLI's build() checks it.
    let r = tool.respond(
        json!({"file_path": root.join("link.txt"), "start_line": 5, "end_line": 2}).to_string(),
    );
    assert!(r.text.starts_with("Path not in workspace"), "{}", r.text);
    let r = tool.respond(json!({"file_path": real}).to_string());
    assert!(
        r.text.ends_with(&format!("directories: {dirs}")),
        "{}",
        r.text
    );
    // Without the temp directory, the workspace alone is named.
    let r = call("gemini", &root, json!({"file_path": root.join("link.txt")}));
    assert!(
        r.text
            .ends_with(&format!("directories: {}", root.display())),
        "{}",
        r.text
    );
}

#[test]
fn gemini_reads_gitignore_only_inside_a_git_repository() {
    let (_d, root) = tree(&[
        (".gitignore", "*.log\n"),
        ("sub/.gitignore", "local.txt\n"),
        ("a.log", "l"),
        ("sub/local.txt", "l"),
    ]);
    let r = call("gemini", &root, json!({"file_path": root.join("a.log")}));
    assert!(!r.is_error, "{}", r.text);
    std::fs::create_dir(root.join(".git")).unwrap();
    for path in ["a.log", "sub/local.txt", ".git/config"] {
        let abs = root.join(path);
        let r = call("gemini", &root, json!({"file_path": abs}));
        assert!(r.is_error, "{path}: {}", r.text);
    }
    let r = call("gemini", &root, json!({"file_path": root.join("a.log")}));
    assert_eq!(
        r.text,
        format!(
            "File path '{}' is ignored by configured ignore patterns.",
            root.join("a.log").display()
        )
    );
}

#[test]
fn crush_view_reads_what_crushignore_names() {
    let (_d, root) = tree(&[(".crushignore", "notes.txt\n"), ("notes.txt", "read me\n")]);
    let r = call("crush", &root, json!({"file_path": root.join("notes.txt")}));
    assert!(!r.is_error, "{}", r.text);
    assert!(r.text.contains("read me"));
}

#[test]
fn a_presets_rules_can_be_turned_off() {
    let (_d, root) = tree(&[(".geminiignore", "foo.*\n"), ("foo.bar", "content")]);
    let mut dialect = Dialect::preset("gemini").unwrap();
    dialect.rules.enabled = false;
    let tool = DialectTool::new(dialect).workspace(Workspace::new(&root).unwrap());
    let r = tool.respond(json!({"file_path": root.join("foo.bar")}).to_string());
    assert!(!r.is_error, "{}", r.text);
    // The workspace's own protected patterns still apply.
    let mut dialect = Dialect::preset("gemini").unwrap();
    dialect.rules.enabled = false;
    let tool = DialectTool::new(dialect)
        .workspace(Workspace::builder(&root).protect("*.bar").build().unwrap());
    let r = tool.respond(json!({"file_path": root.join("foo.bar")}).to_string());
    assert!(r.is_error, "{}", r.text);
}

#[test]
fn every_preset_says_which_rule_files_bind_it_and_why() {
    for name in [
        "zed",
        "gemini",
        "claude-code",
        "goose",
        "read_file",
        "session_read_file",
        "crush",
        "codex",
        "forge",
        "openhands",
        "openhands-tools",
    ] {
        let d = Dialect::preset(name).unwrap();
        assert!(!d.rules.why.is_empty(), "{name}");
    }
    assert!(Dialect::preset("crush").unwrap().rules.files.is_empty());
}
