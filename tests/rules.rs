//! A project's own rule files in a `Workspace`: what they refuse and in whose words,
//! that they are read again when they change, and that hostile ones fail closed in
//! bounded time.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::tree;
use rangeread::{Error, RuleFile, Workspace};

fn denied(ws: &Workspace, path: &str) -> (String, PathBuf, Option<String>) {
    match ws.open(path) {
        Err(Error::Denied {
            rule,
            file,
            setting,
            ..
        }) => (rule, file, setting),
        other => panic!("{path}: expected a rule's refusal, got {other:?}"),
    }
}

fn broken(ws: &Workspace, path: &str) -> String {
    match ws.open(path) {
        Err(e @ Error::RuleFile { .. }) => e.to_string(),
        other => panic!("{path}: expected a broken rule file's refusal, got {other:?}"),
    }
}

#[test]
fn an_ignore_file_refuses_in_its_words_whether_the_path_exists_or_not() {
    let (_d, root) = tree(&[
        (".geminiignore", "foo.*\nignored/\n"),
        ("foo.bar", "secret"),
        ("ignored/file.txt", "secret"),
        ("allowed.txt", "fine"),
    ]);
    let ws = Workspace::builder(&root)
        .rule_file(RuleFile::gitignore(".geminiignore"))
        .build()
        .unwrap();
    let e = ws.open("foo.bar").unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"Access denied: "foo.bar" is refused by the rule "foo.*" of ".geminiignore""#
    );
    let missing = ws.open("foo.nothing").unwrap_err();
    assert_eq!(
        missing.to_string(),
        r#"Access denied: "foo.nothing" is refused by the rule "foo.*" of ".geminiignore""#
    );
    assert_eq!(denied(&ws, "ignored/file.txt").0, "ignored/");
    assert_eq!(denied(&ws, "ignored/absent.txt").0, "ignored/");
    assert!(ws.open("allowed.txt").is_ok());
    assert!(ws.is_protected("ignored/x"));
    assert_eq!(e.kind(), rangeread::ErrorKind::Protected);
}

#[test]
fn rule_files_are_read_again_when_they_change() {
    let (_d, root) = tree(&[("a.txt", "a"), ("b.txt", "b")]);
    let ws = Workspace::builder(&root)
        .rule_file(RuleFile::gitignore(".cursorignore"))
        .build()
        .unwrap();
    assert!(ws.open("a.txt").is_ok());
    std::fs::write(root.join(".cursorignore"), "a.txt\n").unwrap();
    assert_eq!(denied(&ws, "a.txt").0, "a.txt");
    // Same length, other rule.
    std::fs::write(root.join(".cursorignore"), "b.txt\n").unwrap();
    assert!(ws.open("a.txt").is_ok());
    assert_eq!(denied(&ws, "b.txt").0, "b.txt");
    std::fs::remove_file(root.join(".cursorignore")).unwrap();
    assert!(ws.open("b.txt").is_ok());
}

#[test]
fn nested_gitignores_decide_deepest_first_and_ignored_directories_stay_ignored() {
    let (_d, root) = tree(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".gitignore", "*.log\nbuild/\n"),
        ("src/.gitignore", "!keep.log\nlocal.txt\n"),
        ("src/keep.log", "k"),
        ("src/other.log", "o"),
        ("src/local.txt", "l"),
        ("local.txt", "l"),
        ("build/.gitignore", "!*\n"),
        ("build/out.txt", "o"),
    ]);
    let ws = Workspace::builder(&root)
        .rule_file(
            RuleFile::gitignore(".gitignore")
                .nested(true)
                .in_git_repository(true),
        )
        .build()
        .unwrap();
    assert!(ws.open("src/keep.log").is_ok());
    assert_eq!(
        denied(&ws, "src/other.log"),
        ("*.log".into(), PathBuf::from(".gitignore"), None)
    );
    assert_eq!(denied(&ws, "src/local.txt").1, Path::new("src/.gitignore"));
    assert!(ws.open("local.txt").is_ok());
    // Git does not look into an ignored directory: its own `!*` re-allows nothing.
    assert_eq!(denied(&ws, "build/out.txt").0, "build/");
    // Outside a git repository, `.gitignore` binds nothing here.
    std::fs::remove_dir_all(root.join(".git")).unwrap();
    let ws = Workspace::builder(&root)
        .rule_file(
            RuleFile::gitignore(".gitignore")
                .nested(true)
                .in_git_repository(true),
        )
        .build()
        .unwrap();
    assert!(ws.open("src/other.log").is_ok());
}

#[test]
fn zed_settings_with_comments_and_zeds_defaults() {
    let (_d, root) = tree(&[
        (
            ".zed/settings.json",
            "{\n  // the project's\n  \"private_files\": [\"**/.mysecrets\", \"**/*.privatekey\",],\n  \"file_scan_exclusions\": [\"**/.secretdir\"],\n}\n",
        ),
        (".mysecrets", "s"),
        (".secretdir/config", "s"),
        ("sub/special.privatekey", "k"),
        ("sub/normal.txt", "n"),
        ("server.pem", "p"),
    ]);
    let ws = Workspace::builder(&root)
        .rule_file(RuleFile::zed_settings(".zed/settings.json"))
        .build()
        .unwrap();
    let (rule, file, setting) = denied(&ws, ".secretdir/config");
    assert_eq!(
        (rule.as_str(), file.as_path(), setting.as_deref()),
        (
            "**/.secretdir",
            Path::new(".zed/settings.json"),
            Some("file_scan_exclusions")
        )
    );
    assert_eq!(
        denied(&ws, "sub/special.privatekey").2.as_deref(),
        Some("private_files")
    );
    assert_eq!(denied(&ws, ".mysecrets").0, "**/.mysecrets");
    assert!(ws.open("sub/normal.txt").is_ok());
    // The project set private_files: Zed's default `**/*.pem` is replaced.
    assert!(ws.open("server.pem").is_ok());
    // A project without the file has both of Zed's defaults.
    let (_d2, bare) = tree(&[("server.pem", "p"), (".git/config", "c")]);
    let ws = Workspace::builder(&bare)
        .rule_file(RuleFile::zed_settings(".zed/settings.json"))
        .build()
        .unwrap();
    let e = ws.open("server.pem").unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"Access denied: "server.pem" is refused by the default rule "**/*.pem" of the setting private_files (".zed/settings.json" does not set it)"#
    );
    assert!(matches!(ws.open(".git/config"), Err(Error::Denied { .. })));
}

#[test]
fn claude_code_deny_read_rules() {
    let (_d, root) = tree(&[
        ("secrets/a.txt", "s"),
        ("x/.env", "e"),
        ("src/a.key", "k"),
        ("src/main.rs", "m"),
        ("docs/abs.txt", "a"),
    ]);
    let settings = format!(
        r#"{{"permissions": {{"deny": ["Read(./secrets/**)", "Read(.env)", "Read(*.key)", "Bash(curl:*)", "Read(//{}/docs/abs.txt)"]}}}}"#,
        root.display().to_string().trim_start_matches('/')
    );
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    std::fs::write(root.join(".claude/settings.json"), settings).unwrap();
    let ws = Workspace::builder(&root)
        .rule_file(RuleFile::claude_settings(".claude/settings.json"))
        .rule_file(RuleFile::claude_settings(".claude/settings.local.json"))
        .build()
        .unwrap();
    assert_eq!(
        denied(&ws, "secrets/a.txt"),
        (
            "Read(./secrets/**)".into(),
            PathBuf::from(".claude/settings.json"),
            Some("permissions.deny".into())
        )
    );
    assert_eq!(denied(&ws, "x/.env").0, "Read(.env)");
    assert_eq!(denied(&ws, "src/a.key").0, "Read(*.key)");
    assert!(denied(&ws, "docs/abs.txt").0.starts_with("Read(//"));
    assert!(ws.open("src/main.rs").is_ok());
}

#[test]
fn builtin_segments_ignore_case() {
    let (_d, root) = tree(&[
        (".GIT/config", "c"),
        ("a/Node_Modules/x.js", "x"),
        ("ok.txt", "o"),
    ]);
    let ws = Workspace::builder(&root)
        .rule_file(
            RuleFile::builtin("blocked segments", [".git", ".env", "node_modules"])
                .case_insensitive(true),
        )
        .build()
        .unwrap();
    assert_eq!(denied(&ws, ".GIT/config").1, Path::new("blocked segments"));
    assert!(matches!(
        ws.open("a/Node_Modules/x.js"),
        Err(Error::Denied { .. })
    ));
    assert!(ws.open("ok.txt").is_ok());
}

#[test]
fn a_link_to_a_refused_file_is_refused_by_its_target_name() {
    let (_d, root) = tree(&[(".cursorignore", "secret.txt\n"), ("secret.txt", "s")]);
    std::os::unix::fs::symlink("secret.txt", root.join("alias.txt")).unwrap();
    let ws = Workspace::builder(&root)
        .rule_file(RuleFile::gitignore(".cursorignore"))
        .build()
        .unwrap();
    assert_eq!(denied(&ws, "alias.txt").0, "secret.txt");
}

/// A hostile rule file: the read is refused in bounded time, with the file named,
/// and the secret stays unread.
fn fails_closed(name: &str, make: impl FnOnce(&Path), expect: &str) {
    let (_d, root) = tree(&[("secret.env", "s"), ("plain.txt", "p")]);
    make(&root);
    let start = Instant::now();
    let ws = Workspace::builder(&root)
        .rule_file(RuleFile::gitignore(".gooseignore").defaults(["*.env"]))
        .build()
        .unwrap();
    for path in ["secret.env", "plain.txt", "absent.txt"] {
        let message = broken(&ws, path);
        assert!(
            message.contains(r#"the rule file ".gooseignore" cannot be used"#),
            "{name}: {message}"
        );
        assert!(message.contains(expect), "{name}: {message}");
        assert!(
            message.ends_with("fix or remove that file"),
            "{name}: {message}"
        );
    }
    assert!(ws.is_protected("secret.env"), "{name}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{name}: took {:?}",
        start.elapsed()
    );
}

#[test]
fn hostile_rule_files_fail_closed() {
    fails_closed(
        "10 MB",
        |root| {
            std::fs::write(root.join(".gooseignore"), "x\n".repeat(5 << 20)).unwrap();
        },
        "10485760 bytes long, over the 1048576 bytes",
    );
    fails_closed(
        "100,000 patterns",
        |root| {
            let text: String = (0..100_000).map(|i| format!("p{i}\n")).collect();
            std::fs::write(root.join(".gooseignore"), text).unwrap();
        },
        "more than 10000 patterns",
    );
    fails_closed(
        "a pattern longer than a path",
        |root| {
            std::fs::write(root.join(".gooseignore"), "*a".repeat(3000)).unwrap();
        },
        "over the 4096 bytes a pattern may have",
    );
    fails_closed(
        "a symlink out of the root",
        |root| {
            let outside = root.parent().unwrap().join("outside-rules");
            std::fs::write(&outside, "nothing\n").unwrap();
            std::os::unix::fs::symlink(&outside, root.join(".gooseignore")).unwrap();
        },
        "is a symbolic link",
    );
    fails_closed(
        "a FIFO",
        |root| {
            let status = std::process::Command::new("mkfifo")
                .arg(root.join(".gooseignore"))
                .status()
                .expect("mkfifo (coreutils) makes the FIFO");
            assert!(status.success());
        },
        "not a regular file (a FIFO)",
    );
    fails_closed(
        "not UTF-8",
        |root| {
            std::fs::write(root.join(".gooseignore"), b"ok\n\xff\xfe\n").unwrap();
        },
        "not UTF-8",
    );
    fails_closed(
        "unreadable",
        |root| {
            use std::os::unix::fs::PermissionsExt;
            let p = root.join(".gooseignore");
            std::fs::write(&p, "x\n").unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
            // Root reads anything: make it a directory instead.
            if std::fs::read(&p).is_ok() {
                std::fs::remove_file(&p).unwrap();
                std::fs::create_dir(&p).unwrap();
            }
        },
        "cannot be",
    );
}

#[test]
fn regex_bombs_are_bounded() {
    // Patterns that blow up backtracking matchers: many stars, many `**`, long
    // classes. Within the limits they compile and match in bounded time.
    let bomb = format!(
        "{}b\n{}\n[{}]x\n",
        "*a".repeat(1000),
        "**/".repeat(1000),
        "a-z".repeat(1000)
    );
    let (_d, root) = tree(&[(".gooseignore", bomb.as_str()), ("secret.env", "s")]);
    let start = Instant::now();
    let ws = Workspace::builder(&root)
        .rule_file(RuleFile::gitignore(".gooseignore"))
        .rule_file(RuleFile::builtin("env", ["*.env"]))
        .build()
        .unwrap();
    let long = format!("{}c", "a".repeat(4000));
    let _ = ws.is_protected(&long);
    assert!(ws.is_protected("secret.env"));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
}
