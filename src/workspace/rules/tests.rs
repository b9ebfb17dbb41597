//! What a check of the rules costs once they are loaded, counted (not timed): each rule
//! file of a resolution is looked at once, with a stat, and read only when it changed.

use std::path::Path;

use super::read::fs_calls;
use crate::{LineSelection, Reader, RuleFile, Workspace};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A workspace in a git repository with a rule file of each kind: `.cursorignore`, Zed's
/// settings, Claude Code's (absent), and a `.gitignore` in every directory.
fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".git/HEAD", "ref: refs/heads/main\n");
    write(root, ".cursorignore", "*.secret\n");
    write(
        root,
        ".zed/settings.json",
        "{\"private_files\": [\"**/.mine\"]}\n",
    );
    write(root, ".gitignore", "*.log\n");
    write(root, "a/b/.gitignore", "local.txt\n");
    write(root, "a/b/c/deep.txt", "one\ntwo\n");
    let ws = Workspace::builder(root)
        .rule_file(RuleFile::gitignore(".cursorignore"))
        .rule_file(RuleFile::zed_settings(".zed/settings.json"))
        .rule_file(RuleFile::claude_settings(".claude/settings.json"))
        .rule_file(
            RuleFile::gitignore(".gitignore")
                .nested(true)
                .in_git_repository(true),
        )
        .build()
        .unwrap();
    (dir, ws)
}

/// The file-system calls of the rules during `f`.
fn calls(f: impl FnOnce()) -> u64 {
    let before = fs_calls();
    f();
    fs_calls() - before
}

#[test]
fn a_read_through_loaded_rules_looks_at_each_rule_file_once() {
    let (_dir, ws) = workspace();
    let reader = Reader::new();
    let read = || {
        let r = reader
            .read_in(&ws, "a/b/c/deep.txt", LineSelection::from(..))
            .unwrap();
        assert_eq!(r.content, "one\ntwo\n");
    };
    // The first read loads the nested `.gitignore`s.
    read();
    // Then: `.cursorignore` 1, `.zed` and its settings 2, `.claude` 1 (absent, so its
    // settings are not looked for), the `.gitignore` of the root, `a`, `a/b` and
    // `a/b/c` 4, and the directories `a`, `a/b`, `a/b/c` on the way to them 3: one stat
    // each, however many names of the path the rules are asked about (the path is
    // checked as spelled and as resolved, each name and each ancestor).
    assert_eq!(calls(read), 11);
    assert_eq!(calls(read), 11);
    // A refusal costs no more.
    let refused = || {
        assert!(ws.open("a/b/local.txt").is_err());
    };
    assert!(calls(refused) <= 11);
    // A changed rule file is read again (an open, its type and its bytes: 3 more).
    write(ws.root(), "a/b/c/.gitignore", "deep.txt\n");
    assert_eq!(
        calls(|| assert!(ws.open("a/b/c/deep.txt").is_err())),
        11 + 3
    );
    assert_eq!(calls(|| assert!(ws.open("a/b/c/deep.txt").is_err())), 11);
}
