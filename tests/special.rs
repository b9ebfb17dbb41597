//! Paths that are not plain files (`docs/contract.md#files-that-are-not-plain-files`):
//! never block, never read without bound, never die; and files changed by another process
//! while being read.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::Input;
use rangeread::{ByteSelection, Error, FileKind, LineSelection, Reader};

/// Runs `f` on another thread and fails the test if it does not return within 5 s.
fn within_5s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(5))
        .expect("the read blocked")
}

#[test]
fn missing_file_is_not_found_with_the_path() {
    let err = Reader::new()
        .read("/no/such/file.txt", LineSelection::head(1))
        .unwrap_err();
    assert_eq!(err.to_string(), "File not found: \"/no/such/file.txt\"");
    assert_eq!(err.kind().as_str(), "not_found");
}

#[test]
fn directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = Reader::new()
        .read(dir.path(), LineSelection::head(1))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("Path is a directory: \"{}\"", dir.path().display())
    );
}

#[test]
fn fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let path = fifo.clone();
    // Nobody writes to the pipe: a blocking open would hang forever.
    let err = within_5s(move || {
        Reader::new()
            .read(&path, LineSelection::head(1))
            .unwrap_err()
    });
    assert!(matches!(
        err,
        Error::NotRegularFile {
            kind: FileKind::Fifo,
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        format!("Not a regular file (fifo): \"{}\"", fifo.display())
    );
}

/// A FIFO with data waiting in it is refused under either rule for special files, and
/// its data is still there for its own reader: nothing was read from it.
#[cfg(target_os = "linux")]
#[test]
fn a_fifo_with_data_waiting_is_refused_and_keeps_its_data() {
    use rangeread::SpecialFiles;
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    // Linux opens a FIFO for reading and writing at once without waiting for a partner.
    let mut holder = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    for special in [SpecialFiles::NeverRead, SpecialFiles::NeverOpened] {
        holder.write_all(b"waiting\n").unwrap();
        let path = fifo.clone();
        let err = within_5s(move || {
            Reader::new()
                .special_files(special)
                .read(&path, LineSelection::head(1))
                .unwrap_err()
        });
        assert!(
            matches!(
                err,
                Error::NotRegularFile {
                    kind: FileKind::Fifo,
                    ..
                }
            ),
            "{special:?}: {err}"
        );
        let mut back = [0u8; 8];
        holder.read_exact(&mut back).unwrap();
        assert_eq!(&back, b"waiting\n", "{special:?}: the FIFO's data was read");
    }
}

#[test]
fn socket_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sock = dir.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let err = within_5s(move || {
        Reader::new()
            .read(&sock, LineSelection::head(1))
            .unwrap_err()
    });
    assert!(
        matches!(
            err,
            Error::NotRegularFile {
                kind: FileKind::Socket,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn character_devices_are_refused_and_never_read() {
    for dev in ["/dev/zero", "/dev/null", "/dev/urandom"] {
        let err = within_5s(move || Reader::new().read(dev, LineSelection::head(1)).unwrap_err());
        assert_eq!(
            err.to_string(),
            format!("Not a regular file (character device): \"{dev}\"")
        );
    }
}

#[test]
fn zero_size_proc_file_is_streamed_with_a_bound() {
    let r = Reader::new()
        .read("/proc/self/status", LineSelection::head(3))
        .unwrap();
    assert!(r.content.starts_with("Name:"), "{}", r.content);
    assert_eq!(r.lines.map(|l| l.count()), Some(3));
    // With a small byte budget, only that much (plus one byte) is ever streamed.
    let r = Reader::new()
        .max_bytes(16)
        .read("/proc/self/status", LineSelection::default())
        .unwrap();
    assert!(r.file_size <= 17, "streamed {} bytes", r.file_size);
    assert!(r.truncated.is_some());
}

#[test]
fn sysfs_file_whose_size_lies_is_read_whole() {
    // sysfs reports a page (4096 bytes) for every attribute; the content is shorter.
    let path = "/sys/devices/system/cpu/online";
    let meta = std::fs::metadata(path).expect("Linux sysfs is mounted at /sys");
    let want = std::fs::read_to_string(path).unwrap();
    assert_ne!(
        meta.len(),
        want.len() as u64,
        "sysfs reports the size it does"
    );
    for sel in [
        LineSelection::head(1),
        LineSelection::tail(1),
        LineSelection::default(),
    ] {
        let r = Reader::new().read(path, sel).unwrap();
        assert_eq!(r.content, want);
        assert_eq!(r.file_size, want.len() as u64);
    }
    // Through a workspace too.
    let ws = rangeread::Workspace::new("/sys/devices/system/cpu").unwrap();
    let r = Reader::new()
        .read_in(&ws, "online", LineSelection::head(1))
        .unwrap();
    assert_eq!(r.content, want);
}

#[test]
fn permission_denied_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "top secret\n").unwrap();
    std::fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    if rustix_is_root() {
        // Root reads anything; check the mapping through an unprivileged user instead,
        // with the example binary (built by `cargo test`).
        let exe = example_binary("read");
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let out = std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&exe)
            .args(["--format", "json"])
            .arg(&secret)
            .output()
            .expect("setpriv (util-linux) is needed to test as root");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            json["error"].as_str().unwrap(),
            format!("Permission denied: \"{}\"", secret.display())
        );
        assert_eq!(json["kind"], "permission_denied");
        assert_eq!(out.status.code(), Some(1));
    } else {
        let err = Reader::new()
            .read(&secret, LineSelection::head(1))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("Permission denied: \"{}\"", secret.display())
        );
    }
}

/// The example binaries `cargo test` builds next to the test executables.
fn example_binary(name: &str) -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name)
}

fn rustix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

/// Every line of version `v` is `v<v> line <n> <padding>`: a read is consistent when all
/// its lines carry one version and their numbers match the reported line numbers.
fn version_text(v: u64, lines: u64) -> String {
    (1..=lines)
        .map(|n| expected_line(&format!("v{v}"), n) + "\n")
        .collect()
}

fn expected_line(v: &str, n: u64) -> String {
    format!("{v} line {n} {}", "x".repeat((n * 7 % 23) as usize))
}

fn assert_consistent(r: &rangeread::ReadResult) {
    let Some(span) = r.lines else { return };
    let version = r.content.split(' ').next().unwrap_or("").to_string();
    let terminated = r.content.ends_with('\n');
    let count = r.content.lines().count();
    for (i, line) in r.content.lines().enumerate() {
        let want = expected_line(&version, span.start + i as u64);
        if i + 1 == count && !terminated {
            // A file truncated inside a line ends with part of that line.
            assert!(
                want.starts_with(line) || count == 1,
                "{line:?} is not part of {want:?}"
            );
        } else {
            assert_eq!(
                line,
                want,
                "inconsistent read at line {}",
                span.start + i as u64
            );
        }
    }
}

#[test]
fn stress_truncate_rewrite_append_while_reading() {
    let input = Input::new(version_text(0, 2000).as_bytes());
    let path = input.path.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (path, stop) = (path.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut v = 1u64;
            while !stop.load(Ordering::Relaxed) {
                let lines = 500 + v * 37 % 3000;
                match v % 3 {
                    0 => std::fs::write(&path, version_text(v, lines)).unwrap(),
                    1 => {
                        let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
                        let len = f.metadata().unwrap().len();
                        f.set_len(len / 2).unwrap();
                    }
                    _ => {
                        let text = std::fs::read_to_string(&path).unwrap_or_default();
                        let (last_v, last_n) = text
                            .lines()
                            .last()
                            .and_then(|l| {
                                let mut p = l.split(' ');
                                Some((p.next()?.to_string(), p.nth(1)?.parse::<u64>().ok()?))
                            })
                            .unwrap_or(("v0".into(), 0));
                        // Append only after a whole line, continuing its version.
                        if text.ends_with('\n') {
                            let more: String = (last_n + 1..last_n + 200)
                                .map(|n| expected_line(&last_v, n) + "\n")
                                .collect();
                            let mut f = std::fs::OpenOptions::new()
                                .append(true)
                                .open(&path)
                                .unwrap();
                            std::io::Write::write_all(&mut f, more.as_bytes()).unwrap();
                        }
                    }
                }
                v += 1;
            }
            v
        })
    };
    let deadline = Instant::now() + Duration::from_secs(3);
    let readers: Vec<_> = (0..3)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let (mut ok, mut changed) = (0, 0);
                let mut k = t as u64;
                while Instant::now() < deadline {
                    k += 1;
                    let sel = match k % 4 {
                        0 => LineSelection::head(50),
                        1 => LineSelection::tail(50),
                        2 => LineSelection::from(100 + k % 700..=150 + k % 700),
                        _ => LineSelection::offset_limit(1 + k % 900, Some(30)),
                    };
                    match Reader::new().retries(0).read(&path, sel) {
                        Ok(r) => {
                            assert_consistent(&r);
                            ok += 1;
                        }
                        Err(Error::Changed { .. }) | Err(Error::LineBeyondEnd { .. }) => {
                            changed += 1
                        }
                        Err(e) => panic!("unexpected error: {e}"),
                    }
                }
                (ok, changed)
            })
        })
        .collect();
    let mut totals = (0, 0);
    for r in readers {
        let (ok, changed) = r.join().expect("a reader panicked");
        totals.0 += ok;
        totals.1 += changed;
    }
    stop.store(true, Ordering::Relaxed);
    let versions = writer.join().unwrap();
    eprintln!(
        "stress: {} consistent reads, {} changed, {versions} writes",
        totals.0, totals.1
    );
    assert!(totals.0 > 0, "no read succeeded");
}

#[test]
fn byte_selections_on_special_files_behave_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let err = within_5s(move || {
        Reader::new()
            .read(&fifo, rangeread::ByteSelection::new(Some(0), Some(10)))
            .unwrap_err()
    });
    assert!(matches!(
        err,
        Error::NotRegularFile {
            kind: FileKind::Fifo,
            ..
        }
    ));
    let err = within_5s(|| {
        Reader::new()
            .read("/dev/zero", ByteSelection::from(0..10))
            .unwrap_err()
    });
    assert!(matches!(
        err,
        Error::NotRegularFile {
            kind: FileKind::CharDevice,
            ..
        }
    ));
    let r = Reader::new()
        .read("/proc/self/status", ByteSelection::from(0..5))
        .unwrap();
    assert_eq!(r.content, "Name:");
}

#[test]
fn bad_paths_get_clear_errors_without_a_workspace() {
    let e = Reader::new()
        .read("a\0b", LineSelection::head(1))
        .unwrap_err();
    assert_eq!(e.to_string(), "Invalid path \"a\\0b\": contains a NUL byte");
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("loop1"), dir.path().join("loop2"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let e = Reader::new().read(&a, LineSelection::head(1)).unwrap_err();
    assert_eq!(e.kind().as_str(), "invalid_path");
    assert!(
        e.to_string().ends_with("too many levels of symbolic links"),
        "{e}"
    );
    let long = dir.path().join("n".repeat(300));
    let e = Reader::new()
        .read(&long, LineSelection::head(1))
        .unwrap_err();
    assert!(e.to_string().ends_with("is too long"), "{e}");
}

/// Names with terminal escapes, line breaks, quotes and bytes that are not UTF-8 reach
/// no message raw: every error escapes its path the same way.
#[test]
fn paths_in_every_message_are_escaped() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let names: [&[u8]; 5] = [
        b"esc\x1b[2Jcleared",
        b"cr\rover",
        b"line\nbreak",
        b"quote\"d'",
        b"caf\xe9",
    ];
    let escaped = [
        r#"esc\u{1b}[2Jcleared"#,
        r#"cr\rover"#,
        r#"line\nbreak"#,
        r#"quote\"d'"#,
        r#"caf\xE9"#,
    ];
    let ws = rangeread::Workspace::builder(dir.path())
        .protect("*.pem")
        .build()
        .unwrap();
    let reader = Reader::new();
    for (name, want) in names.iter().zip(escaped) {
        let name = std::ffi::OsStr::from_bytes(name);
        // Not found, without and with a workspace.
        let e = reader
            .read_in(&ws, name, LineSelection::head(1))
            .unwrap_err();
        assert_eq!(e.to_string(), format!("File not found: \"{want}\""));
        // A directory of that name.
        std::fs::create_dir(dir.path().join(name)).unwrap();
        let e = reader
            .read_in(&ws, name, LineSelection::head(1))
            .unwrap_err();
        assert_eq!(e.to_string(), format!("Path is a directory: \"{want}\""));
        // A FIFO inside it.
        let fifo = std::path::Path::new(name).join("p");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            dir.path().join(&fifo),
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        let e = reader
            .read_in(&ws, &fifo, LineSelection::head(1))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("Not a regular file (fifo): \"{want}/p\"")
        );
        // Outside, protected, invalid.
        let outside = std::path::Path::new("..").join(name);
        let e = reader
            .read_in(&ws, &outside, LineSelection::head(1))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("Path \"../{want}\" is outside the workspace")
        );
        let mut pem = name.to_os_string();
        pem.push(".pem");
        let e = reader
            .read_in(&ws, &pem, LineSelection::head(1))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("Access denied: \"{want}.pem\" is a protected path")
        );
        let mut nul = name.to_os_string();
        nul.push("\0");
        let e = reader.read(&nul, LineSelection::head(1)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("Invalid path \"{want}\\0\": contains a NUL byte")
        );
        assert!(!e.to_string().bytes().any(|b| b < 0x20), "{e:?}");
    }
    // A pattern is escaped the same way.
    let e = rangeread::Workspace::builder(dir.path())
        .protect("a\x1b[")
        .build()
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with(r#"Invalid protected pattern "a\u{1b}[""#),
        "{e}"
    );
}

/// A regular file and a FIFO exchanged by rename, again and again, while the name is
/// read through a workspace (both strategies) and without one: the FIFO is refused and
/// nothing blocks; with `SpecialFiles::NeverOpened` it is never opened for reading (a
/// writer blocked in `open` would be released by any reader), by default it may be
/// opened (without blocking) but is never read.
#[cfg(target_os = "linux")]
#[test]
fn fifo_swapped_in_by_rename_is_never_opened() {
    use rangeread::{OpenStrategy, SpecialFiles, Workspace};
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    let ways = [Some(OpenStrategy::Walk), Some(OpenStrategy::Auto), None];
    let specials = [SpecialFiles::NeverOpened, SpecialFiles::NeverRead];
    for (strategy, special) in ways
        .into_iter()
        .flat_map(|w| specials.into_iter().map(move |s| (w, s)))
    {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::write(root.join("t"), "regular\n").unwrap();
        let fifo = root.join("other");
        rustix::fs::mkfifoat(CWD, &fifo, rustix::fs::Mode::from_raw_mode(0o600)).unwrap();
        // The writer waits in `open` on the FIFO itself, wherever it is renamed to.
        let released = Arc::new(AtomicBool::new(false));
        let writer = {
            let (fifo, released) = (fifo.clone(), released.clone());
            std::thread::spawn(move || {
                let f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
                released.store(true, Ordering::SeqCst);
                drop(f);
            })
        };
        std::thread::sleep(Duration::from_millis(200));
        let stop = Arc::new(AtomicBool::new(false));
        let swapper = {
            let (root, stop) = (root.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let (a, b) = (root.join("t"), root.join("other"));
                    renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
                }
            })
        };
        let ws = strategy.map(|s| Workspace::builder(&root).strategy(s).build().unwrap());
        let path = root.join("t");
        let (reads, refusals) = within_5s(move || {
            let (mut reads, mut refusals) = (0, 0);
            let start = Instant::now();
            while start.elapsed() < Duration::from_millis(1500) {
                let reader = Reader::new().special_files(special);
                let read = match &ws {
                    Some(ws) => reader.read_in(ws, "t", LineSelection::head(1)),
                    None => reader.read(&path, LineSelection::head(1)),
                };
                match read {
                    Ok(r) => {
                        assert_eq!(r.content, "regular\n");
                        reads += 1;
                    }
                    Err(Error::NotRegularFile { kind, .. }) => {
                        assert_eq!(kind, FileKind::Fifo);
                        refusals += 1;
                    }
                    Err(Error::Changed { .. }) => {}
                    Err(e) => panic!("{strategy:?} {special:?}: {e}"),
                }
            }
            (reads, refusals)
        });
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap();
        let opened = released.load(Ordering::SeqCst);
        // Release the writer: this test's own reader.
        let nonblocking = |p: std::path::PathBuf| {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
                .open(p)
                .unwrap()
        };
        let _readers = (nonblocking(root.join("t")), nonblocking(root.join("other")));
        writer.join().unwrap();
        eprintln!("{strategy:?} {special:?}: {reads} reads, {refusals} FIFO refusals");
        if special == SpecialFiles::NeverOpened {
            assert!(!opened, "{strategy:?}: the FIFO was opened for reading");
        }
        assert!(
            reads > 0 && refusals > 0,
            "{strategy:?}: the race did not race"
        );
    }
}

/// Builds (if needed) and returns an example binary of this profile.
fn built_example(name: &str) -> std::path::PathBuf {
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo
        .args([
            "build",
            "--quiet",
            "--example",
            name,
            "--no-default-features",
        ])
        // The features of this test binary: the build `cargo test` made is reused.
        .args(["--features", &common::this_builds_features(true)])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let exe = example_binary(name);
    if exe
        .parent()
        .and_then(|p| p.parent())
        .is_some_and(|p| p.ends_with("release"))
    {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("run cargo build");
    assert!(status.success(), "cargo build --example {name} failed");
    exe
}

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

#[test]
fn scan_budget_bounds_each_call_and_the_count_goes_on() {
    use rangeread::{ByteSelection, ErrorKind, IndexCache, Source};
    let text: String = (1..=200_000).map(|i| format!("line {i}\n")).collect();
    let len = text.len() as u64;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.log");
    std::fs::write(&path, &text).unwrap();
    let budget = 256 << 10;
    let cache = std::sync::Arc::new(IndexCache::new(1 << 20));
    let reader = Reader::new().max_scan_bytes(budget).cache(cache);
    // A deep read needs a count of most of the file: refused, saying how far it got.
    let err = reader
        .read(&path, LineSelection::from(190_000..=190_001))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ScanBudget);
    let msg = err.to_string();
    assert!(
        msg.contains(&format!("scan budget of {budget} bytes")),
        "{msg}"
    );
    assert!(
        msg.contains(&format!("counted up to byte {budget} of {len}")),
        "{msg}"
    );
    assert!(msg.contains("start_byte") && msg.contains("tail"), "{msg}");
    // What needs no count is answered: the head (without totals), the tail, bytes.
    let head = reader.read(&path, LineSelection::head(2)).unwrap();
    assert_eq!(
        (head.content.as_str(), head.total_lines),
        ("line 1\nline 2\n", None)
    );
    let tail = reader.read(&path, LineSelection::tail(1)).unwrap();
    assert_eq!(tail.content, "line 200000\n");
    let bytes = reader
        .read(&path, ByteSelection::new(Some(len - 12), None))
        .unwrap();
    assert_eq!(bytes.content, "line 200000\n");
    // Each call counts one more budget's worth (the cache keeps the index): the deep read
    // is answered once the count has reached it, never scanning more than the budget.
    let mut calls = 1u64;
    let r = loop {
        calls += 1;
        match reader.read(&path, LineSelection::from(190_000..=190_001)) {
            Ok(r) => break r,
            Err(e) => assert_eq!(e.kind(), ErrorKind::ScanBudget, "{e}"),
        }
        assert!(calls < 100);
    };
    assert_eq!(r.content, "line 190000\nline 190001\n");
    // Never more than the budget per call: the head and the tail above counted one
    // budget's worth each too (for their totals, then left them out).
    let deep = text.find("line 190000\n").unwrap() as u64;
    assert!((calls + 2) * budget >= deep, "{calls} calls");
    assert!(calls > 2, "{calls} calls");
    // Without a budget, one call.
    let mut doc = Reader::new().document(Source::from_bytes(text.into_bytes(), "big.log"));
    assert_eq!(
        doc.read(LineSelection::from(190_000..=190_000))
            .unwrap()
            .content,
        "line 190000\n"
    );
}
