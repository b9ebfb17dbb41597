//! The project rules' `.gitignore` matching against git's own (`git check-ignore`,
//! Debian's git at /usr/bin/git): random trees with random nested `.gitignore` files
//! (negation, directory rules, anchors, `**`, classes, escapes, braces), and real ignore
//! files from public repositories (tests/data/rules/README.md), laid over trees made of
//! their own names. Every path of every tree must get git's answer.
#![cfg(unix)]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rangeread::{Error, RuleFile, Workspace};

const GIT: &str = "/usr/bin/git";

/// A small deterministic generator (xorshift64*), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

fn git() -> Command {
    assert!(
        Path::new(GIT).exists(),
        "these tests compare with Debian's git at {GIT}: install it with `apt-get install git`"
    );
    let mut c = Command::new(GIT);
    // No user or system configuration: no global excludes file.
    c.env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .env("HOME", "/nonexistent");
    c
}

/// The paths (relative, files and directories) that git says are ignored.
fn git_ignored(root: &Path, paths: &[String]) -> BTreeSet<String> {
    let status = git()
        .args(["init", "-q"])
        .current_dir(root)
        .status()
        .unwrap();
    assert!(status.success());
    let mut child = git()
        .args(["check-ignore", "--no-index", "--stdin", "-z"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for p in paths {
            stdin.write_all(p.as_bytes()).unwrap();
            stdin.write_all(b"\0").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    // 0: some ignored, 1: none.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "git check-ignore failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8(s.to_vec()).unwrap())
        .collect()
}

/// The paths the workspace refuses by its `.gitignore` rules. A directory is asked as
/// `dir/` (by its spelling alone, a name is taken for a file: see
/// `Workspace::is_protected`).
fn ours(root: &Path, paths: &[String]) -> BTreeSet<String> {
    let ws = Workspace::builder(root)
        .rule_file(RuleFile::gitignore(".gitignore").nested(true))
        .build()
        .unwrap();
    paths
        .iter()
        .filter(|p| {
            let asked = if root.join(p).is_dir() {
                format!("{p}/")
            } else {
                p.to_string()
            };
            matches!(ws.resolve(&asked), Err(Error::Denied { .. }))
                || match ws.resolve(&asked) {
                    Ok(_) | Err(Error::Denied { .. }) => false,
                    Err(e) => panic!("{p}: {e}"),
                }
        })
        .cloned()
        .collect()
}

/// Every file and directory under `root` (not `.git`), relative.
fn all_paths(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            if e.file_name() == ".git" {
                continue;
            }
            let p = e.path();
            out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            if e.file_type().unwrap().is_dir() {
                walk(root, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// Compares git and the workspace on `root`; returns (paths, disagreements).
fn compare(root: &Path, context: &str) -> (usize, Vec<String>) {
    let paths = all_paths(root);
    let theirs = git_ignored(root, &paths);
    let ours = ours(root, &paths);
    let mut bad = Vec::new();
    for p in &paths {
        let (g, o) = (theirs.contains(p), ours.contains(p));
        if g != o {
            bad.push(format!("{context}: {p}: git says ignored={g}, we say {o}"));
        }
    }
    if !bad.is_empty() {
        // The rule files, to reproduce the disagreement by hand.
        for p in paths.iter().filter(|p| p.ends_with(".gitignore")) {
            let text = std::fs::read_to_string(root.join(p)).unwrap_or_default();
            bad.push(format!("{context}: {p} holds {text:?}"));
        }
    }
    (paths.len(), bad)
}

const NAMES: &[&str] = &[
    "a",
    "b",
    "c",
    "ab",
    "a.log",
    "b.log",
    "x.txt",
    "build",
    "out",
    "doc",
    "#h",
    "!n",
    "sp ace",
    "tail ",
    "[x]",
    "{a,b}",
    "a*b",
    "q?",
    "deep",
    "Keep.md",
    "node_modules",
];

const PATTERNS: &[&str] = &[
    "a",
    "b",
    "*.log",
    "!b.log",
    "/a",
    "a/",
    "/build/",
    "build",
    "doc/*",
    "!doc/x.txt",
    "**/c",
    "deep/**",
    "!deep/a",
    "a/**/b",
    "**/out/",
    "?b",
    "[ab]",
    "[!a].log",
    "\\#h",
    "#h",
    "\\!n",
    "!a",
    "x.txt",
    "*",
    "!*/",
    "*.txt",
    "!Keep.md",
    "sp ace",
    "tail\\ ",
    "tail ",
    "\\[x\\]",
    "[x]",
    "{a,b}",
    "a\\*b",
    "a*b",
    "q?",
    "**",
    "deep/",
    "/deep/b",
    "*/a",
    "c/",
    "!c",
    "node_modules",
    "**/node_modules/**",
    "out/**/x.txt",
    "",
    "# comment",
];

fn random_tree(rng: &mut Rng, root: &Path) {
    let mut dirs = vec![PathBuf::new()];
    for _ in 0..(4 + rng.below(6)) {
        let parent = dirs[rng.below(dirs.len())].clone();
        if parent.components().count() >= 3 {
            continue;
        }
        let d = parent.join(rng.pick(NAMES));
        if std::fs::create_dir_all(root.join(&d)).is_ok() {
            dirs.push(d);
        }
    }
    for _ in 0..(6 + rng.below(10)) {
        let parent = &dirs[rng.below(dirs.len())];
        let f = root.join(parent).join(rng.pick(NAMES));
        if !f.exists() {
            std::fs::write(&f, "x").unwrap();
        }
    }
    // A .gitignore at the root and in some directories.
    for d in &dirs {
        if !d.as_os_str().is_empty() && rng.below(3) != 0 {
            continue;
        }
        let lines: Vec<&str> = (0..(1 + rng.below(6)))
            .map(|_| rng.pick(PATTERNS))
            .collect();
        std::fs::write(root.join(d).join(".gitignore"), lines.join("\n") + "\n").unwrap();
    }
}

#[test]
fn agrees_with_git_check_ignore_on_random_trees() {
    let trees: u64 = std::env::var("RULES_GIT_TREES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let (mut total, mut bad) = (0, Vec::new());
    for seed in 1..=trees {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        random_tree(&mut rng, &root);
        let (n, b) = compare(&root, &format!("seed {seed}"));
        total += n;
        bad.extend(b);
    }
    println!(
        "git check-ignore agreement: {trees} random trees, {total} paths, {} disagreements",
        bad.len()
    );
    assert!(bad.is_empty(), "{}", bad[..bad.len().min(30)].join("\n"));
}

/// Real ignore files (tests/data/rules/README.md) over trees made of their own names.
#[test]
fn agrees_with_git_check_ignore_on_real_ignore_files() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules");
    let mut total = 0;
    let mut bad = Vec::new();
    for name in [
        "gemini-cli.gitignore",
        "gemini-cli.geminiignore",
        "mcp-guard.cursorignore",
    ] {
        let text = std::fs::read_to_string(data.join(name)).unwrap();
        // The names the file speaks of, and a few it does not.
        let mut names: Vec<String> = vec!["src".into(), "main.rs".into(), "README.md".into()];
        for line in text.lines() {
            for part in line.trim_start_matches('!').split('/') {
                let part = part.replace(['*', '?', '[', ']', '!', '#'], "");
                if !part.is_empty() && !part.contains(' ') && !names.contains(&part) {
                    names.push(part);
                }
            }
        }
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        for seed in 1..=20u64 {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path().canonicalize().unwrap();
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut dirs = vec![PathBuf::new()];
            for _ in 0..12 {
                let parent = dirs[rng.below(dirs.len())].clone();
                if parent.components().count() >= 3 {
                    continue;
                }
                let d = parent.join(rng.pick(&names));
                if std::fs::create_dir_all(root.join(&d)).is_ok() {
                    dirs.push(d);
                }
            }
            for _ in 0..25 {
                let f = root
                    .join(&dirs[rng.below(dirs.len())])
                    .join(rng.pick(&names));
                if !f.exists() {
                    std::fs::write(&f, "x").unwrap();
                }
            }
            std::fs::write(root.join(".gitignore"), &text).unwrap();
            let (n, b) = compare(&root, &format!("{name} seed {seed}"));
            total += n;
            bad.extend(b);
        }
    }
    println!(
        "git check-ignore agreement, real files: {total} paths, {} disagreements",
        bad.len()
    );
    assert!(bad.is_empty(), "{}", bad[..bad.len().min(30)].join("\n"));
}
