//! Workspace confinement: an attack suite, legitimate reads, and races, run on every
//! strategy the machine has (the `O_NOFOLLOW` walk always; `openat2` where available).
#![cfg(unix)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rangeread::{
    Error, LineSelection, OpenStrategy, Reader, Workspace, WorkspaceBuilder, WorkspaceRegistry,
};

const OUTSIDE: &str = "OUTSIDE-CONTENT";

/// A temporary tree: `base/outside/...` holds what must never be read, `base/ws` is
/// the root.
struct Fixture {
    _dir: tempfile::TempDir,
    base: PathBuf,
    root: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let root = base.join("ws");
    let w = |p: &Path, s: &str| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    };
    let out = base.join("outside");
    w(&out.join("secret.txt"), &format!("{OUTSIDE} secret\n"));
    w(&out.join("dir/f.txt"), &format!("{OUTSIDE} dir file\n"));
    w(
        &base.join("wsx/secret.txt"),
        &format!("{OUTSIDE} sibling\n"),
    );
    w(&root.join("hello.txt"), "hello\nworld\n");
    w(&root.join("src/lib.rs"), "pub fn lib() {}\n");
    w(&root.join("src/nested/deep.txt"), "deep\n");
    w(&root.join("secrets/key.pem"), "PRIVATE KEY\n");
    w(&root.join(".env"), "TOKEN=1\n");
    w(&root.join("src/.env"), "TOKEN=2\n");
    w(&root.join(".env.example"), "TOKEN=\n");
    w(&root.join(".../f.txt"), "three dots\n");
    w(&root.join("we ird\nname.txt"), "weird\n");
    w(&root.join("d/f.txt"), "inside d\n");
    let raw = |b: &[u8]| root.join(OsStr::from_bytes(b));
    w(&raw(b"caf\xe9.txt"), "latin-1 name\n");
    w(&raw(b"d\xff/inner.txt"), "non-utf8 dir\n");
    let ln = |target: &str, name: &str| symlink(target, root.join(name)).unwrap();
    ln("hello.txt", "inside_rel");
    ln("../hello.txt", "src/up_link");
    ln("src", "dir_link");
    ln("chain2", "chain1");
    ln("src/nested/deep.txt", "chain2");
    ln("../outside/secret.txt", "rel_outside");
    ln("../outside/dir", "rel_outside_dir");
    ln("../ws/hello.txt", "leave_return");
    ln("../../ws/hello.txt", "src/leave_return2");
    ln("hop1", "chain_leave");
    ln("../outside/secret.txt", "hop1");
    ln("loop_b", "loop_a");
    ln("loop_a", "loop_b");
    ln("self_loop", "self_loop");
    ln("secrets/key.pem", "pem_alias");
    ln("secrets", "secrets_alias");
    ln("pem_alias", "pem_alias_chain");
    ln(".", "dot_link");
    ln("../outside/dir", "d_swap");
    symlink(
        raw(b"caf\xe9.txt").file_name().unwrap(),
        root.join("to_latin1"),
    )
    .unwrap();
    let abs = |target: &Path, name: &str| symlink(target, root.join(name)).unwrap();
    abs(&root.join("hello.txt"), "abs_inside");
    abs(&root, "root_abs");
    abs(&out.join("secret.txt"), "abs_outside");
    abs(&out.join("dir"), "abs_outside_dir");
    abs(Path::new("/dev/zero"), "zero_link");
    abs(Path::new("/proc/self/root"), "proc_root");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        root.join("fifo"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    symlink(&root, base.join("ws_link")).unwrap();
    Fixture {
        _dir: dir,
        base,
        root,
    }
}

fn builder(root: &Path, strategy: OpenStrategy) -> WorkspaceBuilder {
    Workspace::builder(root).strategy(strategy).protect_all([
        "secrets/",
        ".env*",
        "!.env.example",
        "*.key",
    ])
}

/// The strategies this machine can run: the walk always, `openat2` when the kernel (and
/// any sandbox) allows it.
fn strategies(root: &Path) -> Vec<OpenStrategy> {
    let mut s = vec![OpenStrategy::Walk];
    match builder(root, OpenStrategy::Openat2).build() {
        Ok(ws) => {
            assert!(ws.uses_openat2());
            s.push(OpenStrategy::Openat2);
        }
        Err(e) => eprintln!("openat2 unavailable here, testing the walk only: {e}"),
    }
    s
}

fn read(ws: &Workspace, path: impl AsRef<Path>) -> Result<rangeread::ReadResult, Error> {
    Reader::new().read_in(ws, path, LineSelection::default())
}

/// (name, path relative to a placeholder, expected error kind). `{root}` and `{base}`
/// are replaced by the fixture's absolute paths.
const ATTACKS: &[(&str, &str, &str)] = &[
    (
        "dotdot_simple",
        "../outside/secret.txt",
        "outside_workspace",
    ),
    (
        "dotdot_chain",
        "src/../../outside/secret.txt",
        "outside_workspace",
    ),
    (
        "dotdot_deep_chain",
        "src/nested/../../../outside/secret.txt",
        "outside_workspace",
    ),
    (
        "dotdot_leaves_and_returns",
        "../ws/hello.txt",
        "outside_workspace",
    ),
    (
        "dotdot_many",
        "../../../../../../../../../../etc/passwd",
        "outside_workspace",
    ),
    ("dotdot_root_itself", "..", "outside_workspace"),
    (
        "absolute_outside_file",
        "{base}/outside/secret.txt",
        "outside_workspace",
    ),
    ("absolute_etc_passwd", "/etc/passwd", "outside_workspace"),
    (
        "absolute_root_then_dotdot",
        "{root}/../outside/secret.txt",
        "outside_workspace",
    ),
    (
        "absolute_string_prefix_sibling",
        "{root}x/secret.txt",
        "outside_workspace",
    ),
    ("absolute_parent_of_root", "{root}/..", "outside_workspace"),
    (
        "link_relative_to_outside_file",
        "rel_outside",
        "outside_workspace",
    ),
    (
        "link_absolute_to_outside_file",
        "abs_outside",
        "outside_workspace",
    ),
    (
        "link_relative_to_outside_dir",
        "rel_outside_dir/f.txt",
        "outside_workspace",
    ),
    (
        "link_absolute_to_outside_dir",
        "abs_outside_dir/f.txt",
        "outside_workspace",
    ),
    (
        "link_leaves_and_returns",
        "leave_return",
        "outside_workspace",
    ),
    (
        "link_leaves_and_returns_nested",
        "src/leave_return2",
        "outside_workspace",
    ),
    (
        "link_chain_leaving_on_second_hop",
        "chain_leave",
        "outside_workspace",
    ),
    (
        "link_absolute_pointing_inside",
        "abs_inside",
        "outside_workspace",
    ),
    (
        "link_absolute_to_root_dir",
        "root_abs/hello.txt",
        "outside_workspace",
    ),
    (
        "link_to_dot_then_dotdot",
        "dot_link/../outside/secret.txt",
        "outside_workspace",
    ),
    (
        "link_dir_then_dotdot_twice",
        "dir_link/../../outside/secret.txt",
        "outside_workspace",
    ),
    ("link_to_dev_zero", "zero_link", "outside_workspace"),
    (
        "link_to_proc_magic_link",
        "proc_root/etc/passwd",
        "outside_workspace",
    ),
    ("loop_two_links", "loop_a", "invalid_path"),
    ("loop_self", "self_loop", "invalid_path"),
    ("loop_in_directory_position", "loop_a/x", "invalid_path"),
    ("protected_direct", "secrets/key.pem", "protected"),
    (
        "protected_dot_dotdot_spelling",
        "./secrets/../secrets/key.pem",
        "protected",
    ),
    ("protected_double_slash", "secrets//key.pem", "protected"),
    (
        "protected_absolute_spelling",
        "{root}/secrets/key.pem",
        "protected",
    ),
    (
        "protected_via_dotdot_from_nested",
        "src/nested/../../secrets/key.pem",
        "protected",
    ),
    ("protected_link_to_file", "pem_alias", "protected"),
    (
        "protected_link_chain_to_file",
        "pem_alias_chain",
        "protected",
    ),
    (
        "protected_link_to_dir",
        "secrets_alias/key.pem",
        "protected",
    ),
    (
        "protected_through_dot_link",
        "dot_link/secrets/key.pem",
        "protected",
    ),
    ("protected_env_at_root", ".env", "protected"),
    ("protected_env_nested", "src/.env", "protected"),
    (
        "protected_missing_file_same_answer",
        "secrets/missing.pem",
        "protected",
    ),
    ("protected_dir_itself", "secrets", "protected"),
    ("nul_byte", "hello.txt\0/../../etc/passwd", "invalid_path"),
    ("nul_byte_alone", "\0", "invalid_path"),
    ("name_too_long", "{long_name}", "invalid_path"),
    ("path_too_long", "{long_path}", "invalid_path"),
    ("fifo_never_blocks", "fifo", "not_regular_file"),
    ("root_is_a_directory", ".", "is_directory"),
    ("file_used_as_directory", "hello.txt/x", "not_found"),
    ("empty_path", "", "not_found"),
];

fn expand(path: &str, f: &Fixture) -> PathBuf {
    match path {
        "{long_name}" => PathBuf::from("x".repeat(300)),
        "{long_path}" => PathBuf::from("a/".repeat(2100)),
        _ => PathBuf::from(
            path.replace("{root}", f.root.to_str().unwrap())
                .replace("{base}", f.base.to_str().unwrap()),
        ),
    }
}

#[test]
fn attack_suite() {
    assert!(ATTACKS.len() >= 25);
    let f = fixture();
    let mut failures = Vec::new();
    for strategy in strategies(&f.root) {
        let ws = builder(&f.root, strategy).build().unwrap();
        for (name, path, kind) in ATTACKS {
            let path = expand(path, &f);
            match read(&ws, &path) {
                Ok(r) => failures.push(format!(
                    "{strategy:?} {name}: read succeeded: {:?}",
                    r.content
                )),
                Err(e) if e.kind().as_str() != *kind => {
                    failures.push(format!("{strategy:?} {name}: expected {kind}, got {e}"))
                }
                Err(e) => {
                    // The path as asked, never the resolved one, is in the message.
                    if *kind == "outside_workspace" {
                        let want = format!("Path \"{}\" is outside the workspace", path.display());
                        assert_eq!(e.to_string(), want, "{name}");
                    }
                    if *kind == "protected" {
                        let want =
                            format!("Access denied: \"{}\" is a protected path", path.display());
                        assert_eq!(e.to_string(), want, "{name}");
                    }
                }
            }
            // `open` and `resolve` refuse just the same.
            if ws.open(&path).is_ok() {
                failures.push(format!("{strategy:?} {name}: open succeeded"));
            }
            let resolves = !matches!(*kind, "is_directory" | "not_regular_file");
            if resolves && ws.resolve(&path).is_ok() {
                failures.push(format!("{strategy:?} {name}: resolve succeeded"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// (name, path, expected relative resolved path, expected content).
const LEGIT: &[(&str, &[u8], &[u8], &str)] = &[
    (
        "plain_relative",
        b"hello.txt",
        b"hello.txt",
        "hello\nworld\n",
    ),
    ("dot_prefix", b"./hello.txt", b"hello.txt", "hello\nworld\n"),
    (
        "nested",
        b"src/nested/deep.txt",
        b"src/nested/deep.txt",
        "deep\n",
    ),
    (
        "dotdot_staying_inside",
        b"src/nested/../lib.rs",
        b"src/lib.rs",
        "pub fn lib() {}\n",
    ),
    (
        "absolute_inside",
        b"{root}/src/lib.rs",
        b"src/lib.rs",
        "pub fn lib() {}\n",
    ),
    (
        "relative_link",
        b"inside_rel",
        b"hello.txt",
        "hello\nworld\n",
    ),
    (
        "relative_link_with_dotdot",
        b"src/up_link",
        b"hello.txt",
        "hello\nworld\n",
    ),
    (
        "directory_link",
        b"dir_link/lib.rs",
        b"src/lib.rs",
        "pub fn lib() {}\n",
    ),
    ("link_chain", b"chain1", b"src/nested/deep.txt", "deep\n"),
    (
        "link_to_dot",
        b"dot_link/hello.txt",
        b"hello.txt",
        "hello\nworld\n",
    ),
    (
        "non_utf8_file_name",
        b"caf\xe9.txt",
        b"caf\xe9.txt",
        "latin-1 name\n",
    ),
    (
        "non_utf8_dir_name",
        b"d\xff/inner.txt",
        b"d\xff/inner.txt",
        "non-utf8 dir\n",
    ),
    (
        "link_to_non_utf8_name",
        b"to_latin1",
        b"caf\xe9.txt",
        "latin-1 name\n",
    ),
    (
        "reallowed_by_negation",
        b".env.example",
        b".env.example",
        "TOKEN=\n",
    ),
    (
        "three_dots_is_a_name",
        b".../f.txt",
        b".../f.txt",
        "three dots\n",
    ),
    (
        "newline_in_name",
        b"we ird\nname.txt",
        b"we ird\nname.txt",
        "weird\n",
    ),
    (
        "absolute_via_root_alias",
        b"{base}/ws_link/hello.txt",
        b"hello.txt",
        "hello\nworld\n",
    ),
];

#[test]
fn legitimate_reads() {
    assert!(LEGIT.len() >= 10);
    let f = fixture();
    for strategy in strategies(&f.root) {
        // Built on the link to the root, so that its spelling is accepted as an alias.
        let ws = builder(&f.base.join("ws_link"), strategy).build().unwrap();
        assert_eq!(ws.root(), f.root);
        for (name, path, resolved, content) in LEGIT {
            let path = OsStr::from_bytes(path)
                .to_str()
                .map_or_else(|| PathBuf::from(OsStr::from_bytes(path)), |s| expand(s, &f));
            let r = read(&ws, &path).unwrap_or_else(|e| panic!("{strategy:?} {name}: {e}"));
            assert_eq!(r.content, *content, "{strategy:?} {name}");
            assert_eq!(r.path, path.display().to_string(), "{name}");
            let want = f.root.join(OsStr::from_bytes(resolved));
            assert_eq!(r.resolved_path, want.display().to_string(), "{name}");
            let opened = ws.open(&path).unwrap();
            assert_eq!(opened.resolved_path, want, "{name}");
            assert_eq!(opened.relative_path, Path::new(OsStr::from_bytes(resolved)));
            assert_eq!(ws.resolve(&path).unwrap(), want, "{name}");
        }
    }
}

#[test]
fn auto_uses_openat2_where_available() {
    let f = fixture();
    let ws = Workspace::new(&f.root).unwrap();
    let available = strategies(&f.root).contains(&OpenStrategy::Openat2);
    assert_eq!(ws.uses_openat2(), available);
    let walk = builder(&f.root, OpenStrategy::Walk).build().unwrap();
    assert!(!walk.uses_openat2());
}

#[test]
fn documented_limit_hard_links_are_not_told_apart() {
    let f = fixture();
    std::fs::hard_link(f.root.join("secrets/key.pem"), f.root.join("notes.txt")).unwrap();
    let ws = builder(&f.root, OpenStrategy::Auto).build().unwrap();
    assert_eq!(read(&ws, "notes.txt").unwrap().content, "PRIVATE KEY\n");
}

#[test]
fn workspace_documents_keep_one_index_and_report_paths() {
    let f = fixture();
    let ws = Workspace::new(&f.root).unwrap();
    let mut doc = Reader::new().open_in(&ws, "dir_link/lib.rs").unwrap();
    let r = doc.read(LineSelection::head(1)).unwrap();
    assert_eq!(r.path, "dir_link/lib.rs");
    assert_eq!(
        r.resolved_path,
        f.root.join("src/lib.rs").display().to_string()
    );
}

#[test]
fn errors_are_clear() {
    let f = fixture();
    assert!(matches!(
        Workspace::new(f.root.join("missing")),
        Err(Error::NotFound { .. })
    ));
    let err = Workspace::new(f.root.join("hello.txt")).unwrap_err();
    assert_eq!(err.kind().as_str(), "invalid_path");
    let err = Workspace::builder(&f.root)
        .protect("a[")
        .build()
        .unwrap_err();
    assert_eq!(err.kind().as_str(), "invalid_pattern");
    let ws = Workspace::new(&f.root).unwrap();
    let err = read(&ws, "a\0b").unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Invalid path "a\0b": contains a NUL byte"#
    );
    let err = read(&ws, "loop_a").unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Invalid path "loop_a": too many levels of symbolic links"#
    );
    let err = read(&ws, "missing.txt").unwrap_err();
    assert_eq!(err.to_string(), r#"File not found: "missing.txt""#);
}

#[test]
fn is_protected_checks_spelling() {
    let f = fixture();
    let ws = builder(&f.root, OpenStrategy::Auto).build().unwrap();
    assert!(ws.is_protected("secrets/key.pem"));
    assert!(ws.is_protected("a/b/../../secrets/x"));
    assert!(ws.is_protected("x.key"));
    assert!(!ws.is_protected(".env.example"));
    assert!(!ws.is_protected("hello.txt"));
    assert_eq!(ws.patterns().len(), 4);
}

#[test]
fn session_registry() {
    let f = fixture();
    let reg = WorkspaceRegistry::new();
    assert!(reg.is_empty());
    reg.insert("alpha", Workspace::new(&f.root).unwrap());
    reg.insert("task-2", Workspace::new(f.root.join("src")).unwrap());
    assert_eq!(reg.ids(), ["alpha", "task-2"]);
    let ws = reg.get("task-2").unwrap();
    assert_eq!(read(&ws, "lib.rs").unwrap().content, "pub fn lib() {}\n");
    // Session workspaces are isolated from each other.
    assert_eq!(
        read(&ws, "../hello.txt").unwrap_err().kind().as_str(),
        "outside_workspace"
    );
    let err = reg.get("nope").unwrap_err();
    assert_eq!(err.to_string(), r#"Session not found: "nope""#);
    assert_eq!(err.kind().as_str(), "session_not_found");
    reg.remove("alpha").unwrap();
    assert_eq!(reg.len(), 1);
    assert!(matches!(
        reg.remove("alpha"),
        Err(Error::SessionNotFound { .. })
    ));
}

/// Runs `flip` in a thread while `path` is read through the workspace for `time`;
/// returns (successful reads, refusals). Panics on any read of outside content.
fn race(
    ws: &Workspace,
    path: &str,
    time: Duration,
    flip: impl Fn(usize) + Send + 'static,
) -> (usize, usize) {
    let stop = Arc::new(AtomicBool::new(false));
    let flipper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                flip(i);
                i += 1;
            }
        })
    };
    let (mut ok, mut refused) = (0, 0);
    let start = Instant::now();
    while start.elapsed() < time {
        match read(ws, path) {
            Ok(r) => {
                assert!(
                    !r.content.contains(OUTSIDE),
                    "read outside content through {path}: {:?}",
                    r.content
                );
                ok += 1;
            }
            Err(_) => refused += 1,
        }
    }
    stop.store(true, Ordering::Relaxed);
    flipper.join().unwrap();
    (ok, refused)
}

/// A link renamed over, again and again, between an inside target and outside ones.
#[test]
fn race_symlink_flipped_by_rename() {
    let f = fixture();
    let targets: Vec<PathBuf> = vec![
        "hello.txt".into(),
        "../outside/secret.txt".into(),
        f.base.join("outside/secret.txt"),
    ];
    for strategy in strategies(&f.root) {
        let ws = builder(&f.root, strategy).build().unwrap();
        let root = f.root.clone();
        let targets = targets.clone();
        symlink("hello.txt", root.join("flip")).unwrap();
        let (ok, refused) = race(&ws, "flip", Duration::from_millis(700), move |i| {
            let tmp = root.join(format!(".flip.tmp.{}", i % 2));
            let _ = std::fs::remove_file(&tmp);
            symlink(&targets[i % targets.len()], &tmp).unwrap();
            std::fs::rename(&tmp, root.join("flip")).unwrap();
        });
        eprintln!("{strategy:?}: {ok} inside reads, {refused} refusals");
        assert!(ok > 0 && refused > 0, "{strategy:?}: the race did not race");
        std::fs::remove_file(f.root.join("flip")).unwrap();
    }
}

/// A directory and a link to an outside directory exchanged atomically
/// (`renameat2(RENAME_EXCHANGE)`) while `d/f.txt` is read.
#[cfg(target_os = "linux")]
#[test]
fn race_directory_exchanged_with_link() {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    let f = fixture();
    for strategy in strategies(&f.root) {
        let ws = builder(&f.root, strategy).build().unwrap();
        let (a, b) = (f.root.join("d"), f.root.join("d_swap"));
        let (ok, refused) = race(&ws, "d/f.txt", Duration::from_millis(700), move |_| {
            renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
        });
        eprintln!("{strategy:?}: {ok} inside reads, {refused} refusals");
        assert!(ok > 0 && refused > 0, "{strategy:?}: the race did not race");
    }
}

/// A temporary directory in memory (`/dev/shm`) where there is one: removing 10,000
/// directories from a disk mounted with `discard` takes over half a minute.
fn memory_tempdir() -> tempfile::TempDir {
    match Path::new("/dev/shm").is_dir() {
        true => tempfile::tempdir_in("/dev/shm").unwrap(),
        false => tempfile::tempdir().unwrap(),
    }
}

/// `depth` nested directories `d` under `root`, made with `*at` calls (the whole path is
/// longer than the kernel takes at once); `at_level` may add links or files at a level.
fn deep_tree(root: &Path, depth: usize, mut at_level: impl FnMut(usize, &std::os::fd::OwnedFd)) {
    use rustix::fs::{mkdirat, openat, Mode, OFlags};
    let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
    let mut fd = openat(rustix::fs::CWD, root, flags, Mode::empty()).unwrap();
    for level in 0..=depth {
        at_level(level, &fd);
        if level < depth {
            mkdirat(&fd, "d", Mode::from_raw_mode(0o755)).unwrap();
            fd = openat(&fd, "d", flags, Mode::empty()).unwrap();
        }
    }
}

/// Removes a tree made by `deep_tree` (its files named `names`) without recursing,
/// which would hold a handle per level: down with one handle, then up by `..`.
fn remove_deep_tree(root: &Path, names: &[&str]) {
    use rustix::fs::{openat, unlinkat, AtFlags, Mode, OFlags};
    let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOFOLLOW;
    let mut fd = openat(rustix::fs::CWD, root, flags, Mode::empty()).unwrap();
    let mut depth = 0;
    loop {
        for name in names {
            let _ = unlinkat(&fd, *name, AtFlags::empty());
        }
        match openat(&fd, "d", flags, Mode::empty()) {
            Ok(next) => fd = next,
            Err(_) => break,
        }
        depth += 1;
    }
    for _ in 0..depth {
        fd = openat(&fd, "..", flags, Mode::empty()).unwrap();
        unlinkat(&fd, "d", AtFlags::REMOVEDIR).unwrap();
    }
}

/// A one-letter path of links down a 10,000-deep tree and back up (the attack that cost
/// seconds when every `..` past the walk's window re-opened the chain from the root),
/// and one down to a file at the bottom, whose resolved path is 20 KB long.
#[test]
fn deep_tree_through_links_resolves() {
    use rustix::fs::symlinkat;
    const DEPTH: usize = 10_000;
    const STEP: usize = 1_000;
    let dir = memory_tempdir();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("top.txt"), "top\n").unwrap();
    deep_tree(&root, DEPTH, |level, fd| {
        if level % STEP == 0 && level < DEPTH {
            let down = "d/".repeat(STEP);
            symlinkat(format!("{down}n"), fd, "n").unwrap();
            symlinkat(format!("{down}m"), fd, "m").unwrap();
        }
        if level == DEPTH {
            symlinkat("u", fd, "n").unwrap();
            symlinkat("bottom.txt", fd, "m").unwrap();
            std::fs::write(
                format!(
                    "/proc/self/fd/{}/bottom.txt",
                    std::os::fd::AsRawFd::as_raw_fd(fd)
                ),
                "bottom\n",
            )
            .unwrap();
        }
        if level % STEP == 0 && level > 0 {
            let next = if level == STEP { "top.txt" } else { "u" };
            symlinkat(format!("{}{next}", "../".repeat(STEP)), fd, "u").unwrap();
        }
    });
    // The costliest protection on the way: folded names, a pattern matched on every
    // whole path (`**`).
    for strategy in strategies(&root) {
        let ws = Workspace::builder(&root)
            .strategy(strategy)
            .protect_all(["secrets/", "*.pem", "/config/*.toml", "/src/**/*.key"])
            .case_insensitive(true)
            .build()
            .unwrap();
        let r = read(&ws, "n").unwrap();
        assert_eq!(r.content, "top\n", "{strategy:?}");
        assert_eq!(r.path, "n");
        assert!(r.resolved_path.ends_with("/top.txt"), "{strategy:?}");
        let r = read(&ws, "m").unwrap();
        assert_eq!(r.content, "bottom\n", "{strategy:?}");
        assert!(r.resolved_path.ends_with("/d/d/bottom.txt"), "{strategy:?}");
        // The bound on components: one more trip down and up than it allows.
        let many = "./".repeat(16_384) + "n";
        let e = read(&ws, many).unwrap_err();
        assert_eq!(e.kind().as_str(), "invalid_path", "{strategy:?}: {e}");
    }
    remove_deep_tree(&root, &["n", "m", "u", "bottom.txt"]);
}

/// Inside a protected directory, a path gets "Access denied" whether what it names
/// exists or not, spelled directly or reached through a link, and a path that only
/// passes through the protected directory is refused too.
#[test]
fn protected_directories_cannot_be_mapped() {
    let f = fixture();
    std::fs::create_dir(f.root.join("secrets/sub")).unwrap();
    symlink("secrets/sub", f.root.join("sub_alias")).unwrap();
    symlink("secrets/missing", f.root.join("missing_alias")).unwrap();
    for strategy in strategies(&f.root) {
        let ws = builder(&f.root, strategy).build().unwrap();
        for path in [
            "secrets/sub/..",
            "secrets/MISSING/..",
            "secrets/sub/../../hello.txt",
            "secrets/MISSING/../../hello.txt",
            "secrets/sub/x/y",
            "secrets/MISSING/x/y",
            "secrets_alias/sub/..",
            "secrets_alias/MISSING/..",
            "secrets_alias/MISSING/../../hello.txt",
            "sub_alias/..",
            "missing_alias/..",
            "sub_alias/../../hello.txt",
            "missing_alias/../../hello.txt",
        ] {
            let e = read(&ws, path).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("Access denied: \"{path}\" is a protected path"),
                "{strategy:?}"
            );
            assert_eq!(ws.resolve(path).unwrap_err().to_string(), e.to_string());
        }
        // What is not under a protected directory is answered as before.
        assert_eq!(
            read(&ws, "src/../hello.txt").unwrap().content,
            "hello\nworld\n"
        );
        assert_eq!(
            read(&ws, "src/MISSING/../x").unwrap_err().kind().as_str(),
            "not_found"
        );
    }
}

/// `./x` and absolute patterns under the root protect what they name; patterns that
/// could never match are refused when the workspace is built, with the reason.
#[test]
fn protect_patterns_are_normalized_or_refused() {
    let f = fixture();
    let root = f.root.display().to_string();
    for pattern in [
        "./secrets/".to_string(),
        "./secrets/key.pem".to_string(),
        format!("{root}/secrets/"),
        format!("{root}/secrets/*.pem"),
        "secrets/./key.pem".to_string(),
        "/secrets".to_string(),
    ] {
        let ws = Workspace::builder(&f.root)
            .protect(&pattern)
            .build()
            .unwrap();
        let e = read(&ws, "secrets/key.pem").unwrap_err();
        assert_eq!(e.kind().as_str(), "protected", "{pattern}: {e}");
        assert!(ws.is_protected("secrets/key.pem"), "{pattern}");
        assert!(
            !ws.is_protected("src/secrets/key.pem"),
            "{pattern}: anchored"
        );
        assert_eq!(read(&ws, "hello.txt").unwrap().content, "hello\nworld\n");
    }
    // The root as the caller spelled it (through a link) is taken off too.
    let spelled = f.base.join("ws_link");
    let ws = Workspace::builder(&spelled)
        .protect(format!("{}/secrets/", spelled.display()))
        .build()
        .unwrap();
    assert!(read(&ws, "secrets/key.pem").is_err_and(|e| e.kind().as_str() == "protected"));
    // A leading slash whose first name is inside the root anchors, as in .gitignore.
    let ws = Workspace::builder(&f.root)
        .protect("/src/lib.rs")
        .build()
        .unwrap();
    assert!(ws.is_protected("src/lib.rs"));
    for (pattern, reason) in [
        (
            format!("{}/outside/secret.txt", f.base.display()),
            format!(
                "an absolute path outside the workspace root \"{root}\" can never match; write \
                 it relative to the root (a leading \"/\" anchors a pattern at the root, as in \
                 .gitignore)"
            ),
        ),
        (
            "../outside/*".to_string(),
            "a \"..\" component can never match: paths are matched inside the root".to_string(),
        ),
        (
            "secrets/../key.pem".to_string(),
            "a \"..\" component can never match: paths are matched inside the root".to_string(),
        ),
        (
            format!("{root}/"),
            "it names the workspace root itself".to_string(),
        ),
        ("./".to_string(), "the pattern is empty".to_string()),
    ] {
        let e = Workspace::builder(&f.root)
            .protect(&pattern)
            .build()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("Invalid protected pattern \"{pattern}\": {reason}")
        );
        assert_eq!(e.kind().as_str(), "invalid_pattern");
    }
}

/// Case-insensitive mode folds Unicode case fully and normalizes NFC/NFD, for roots on
/// file systems that do; without it, the spelling must match exactly.
#[test]
fn case_insensitive_mode_folds_unicode() {
    let f = fixture();
    std::fs::write(f.root.join("café.txt"), "NFC name\n").unwrap();
    let patterns = ["secrets/", "café.txt", "*.KEY", "straße/"];
    let asked = [
        "\u{17f}ecrets/key.pem", // long s
        "SECRETS/key.pem",
        "Secrets/Missing/..",
        "cafe\u{301}.txt", // NFD
        "CAFE\u{301}.TXT",
        "src/ID.key",
        "STRASSE/x",
        "stra\u{1e9e}e/x", // capital sharp s
    ];
    for strategy in strategies(&f.root) {
        let ws = Workspace::builder(&f.root)
            .strategy(strategy)
            .protect_all(patterns)
            .case_insensitive(true)
            .build()
            .unwrap();
        for path in asked {
            let e = read(&ws, path).unwrap_err();
            assert_eq!(e.kind().as_str(), "protected", "{strategy:?} {path:?}: {e}");
            assert!(ws.is_protected(path), "{path:?}");
        }
        assert_eq!(read(&ws, "hello.txt").unwrap().content, "hello\nworld\n");
        let sensitive = Workspace::builder(&f.root)
            .strategy(strategy)
            .protect_all(patterns)
            .case_insensitive(false)
            .build()
            .unwrap();
        for path in asked {
            assert!(!sensitive.is_protected(path), "{path:?}");
        }
        // The file is there under its NFC name, protected in both modes.
        assert!(read(&sensitive, "café.txt").is_err_and(|e| e.kind().as_str() == "protected"));
    }
}
