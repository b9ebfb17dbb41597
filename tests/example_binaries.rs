//! The example binaries (`examples/`): each answers `--help` and refuses an unknown flag;
//! `read` takes any path (names that are not UTF-8, with control characters, with
//! `--case-insensitive`) and lists members under their type with `--outline --members`.

mod common;

use common::built_example;

/// `read --outline --members` lists the fields of a real file's structs under them, and
/// `--members` alone is refused saying what it goes with.
#[test]
fn read_outline_lists_members_indented_under_their_type() {
    let read = built_example("read");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/real/bstr_utf8.rs");
    let out = std::process::Command::new(&read)
        .args(["--outline", "--members", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let at = text.find("427: pub struct Utf8Error {\n").expect(&text);
    assert!(
        text[at..].starts_with(
            "427: pub struct Utf8Error {\n428:   valid_up_to: usize,\n429:   error_len: Option<usize>,\n432: impl Utf8Error {\n"
        ),
        "{}",
        &text[at..]
    );
    // Without --members: the same definitions, no fields.
    let plain = std::process::Command::new(&read)
        .args(["--outline", path])
        .output()
        .unwrap();
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(plain.contains("427: pub struct Utf8Error {\n432: impl Utf8Error {\n"));
    let alone = std::process::Command::new(&read)
        .args(["--members", path])
        .output()
        .unwrap();
    assert_eq!(alone.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(alone.stderr).unwrap(),
        "error: --members applies to --outline only\n"
    );
}

/// Every example answers `--help` (exit 0, one line per flag) and takes any path as an
/// argument: names that are not UTF-8, with control characters, with
/// `--case-insensitive`.
#[test]
fn example_binaries_take_any_path_and_answer_help() {
    use std::os::unix::ffi::OsStrExt;
    use std::process::Command;
    let read = built_example("read");
    let out = Command::new(&read).arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--lines",
        "--bytes",
        "--offset",
        "--limit",
        "--head",
        "--tail",
        "--around",
        "--context",
        "--block",
        "--outline",
        "--members",
        "--format",
        "--max-lines",
        "--max-bytes",
        "--max-line-chars",
        "--snap",
        "--strict-utf8",
        "--root",
        "--protect",
        "--case-insensitive",
        "--mmap",
        "--no-summaries",
        "--max-landmarks",
        "--landmark-window",
        "--help",
    ] {
        let lines = help
            .lines()
            .filter(|l| l.starts_with("  "))
            .filter_map(|l| l.trim_start().split("  ").next())
            .filter(|usage| usage.split([' ', ',']).any(|w| w == flag))
            .count();
        assert_eq!(lines, 1, "{flag} in\n{help}");
    }
    // Every example under examples/ (a new one is tested without being listed here).
    let mut names: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"))
            .unwrap()
            .filter_map(|e| {
                e.unwrap()
                    .file_name()
                    .into_string()
                    .ok()?
                    .strip_suffix(".rs")
                    .map(str::to_string)
            })
            .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    for name in &names {
        let exe = built_example(name);
        for flag in ["--help", "-h"] {
            let out = Command::new(&exe).arg(flag).output().unwrap();
            let stdout = String::from_utf8(out.stdout).unwrap();
            assert_eq!(out.status.code(), Some(0), "{name} {flag}: {stdout}");
            assert!(
                stdout.contains("usage") && stdout.contains("--help"),
                "{name} {flag} prints its usage: {stdout}"
            );
        }
        let out = Command::new(&exe).arg("--no-such-flag").output().unwrap();
        assert!(!out.status.success(), "{name} refuses an unknown flag");
    }

    let dir = tempfile::tempdir().unwrap();
    let latin1 = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(dir.path().join(latin1), "one\ntwo\n").unwrap();
    std::fs::create_dir(dir.path().join("secrets")).unwrap();
    std::fs::write(dir.path().join("secrets/key.pem"), "KEY\n").unwrap();
    // A non-UTF-8 PATH, plain and confined to a non-UTF-8 root.
    let out = Command::new(&read)
        .args(["--lines", "2:2"])
        .arg(dir.path().join(latin1))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, b"two\n");
    let root = dir.path().join(std::ffi::OsStr::from_bytes(b"r\xff"));
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join(latin1), "inside\n").unwrap();
    let out = Command::new(&read)
        .arg("--root")
        .arg(&root)
        .arg(latin1)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, b"inside\n");
    // Missing, with a control character: escaped in the message.
    let out = Command::new(&read)
        .args(["--format", "json"])
        .arg(dir.path().join("no\x1bpe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["kind"], "not_found");
    assert!(
        json["error"].as_str().unwrap().ends_with(r#"no\u{1b}pe""#),
        "{json}"
    );
    // --case-insensitive: a folded spelling of a protected path is refused.
    let protected = |extra: &[&str]| {
        Command::new(&read)
            .arg("--root")
            .arg(dir.path())
            .args(["--protect", "secrets/", "--format", "json"])
            .args(extra)
            .arg("\u{17f}ECRETS/key.pem")
            .output()
            .unwrap()
    };
    let out = protected(&["--case-insensitive"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["kind"], "protected", "{json}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "error: Access denied: \"\u{17f}ECRETS/key.pem\" is a protected path\n"
    );
    let out = protected(&[]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["kind"], "not_found", "case-sensitive: {json}");
    // classify: a non-UTF-8 name is shown escaped, on one line.
    let out = Command::new(built_example("classify"))
        .arg(dir.path().join(latin1))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.ends_with("caf\\xE9.txt\"\ttext\tutf-8\n"), "{line}");
}
