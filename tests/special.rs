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
        // with the `read` example (built if needed).
        let exe = common::built_example("read");
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
