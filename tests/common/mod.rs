//! The shared test harness: every backend on the same input.
//!
//! Like grep-searcher's `SearcherTester`, each test builds its input once and runs it
//! through positional reads, in-memory bytes and the memory map, each with the default
//! buffers and with tiny ones, and with tiny index blocks, demanding the same answers.
#![allow(dead_code)]

pub mod calls;
pub mod mcp;
pub mod omitted;

use std::io::Write;
use std::path::PathBuf;

use rangeread::{Reader, Source};

/// One way of reading the input.
pub struct Backend {
    pub name: String,
    pub source: Source,
    pub block: u64,
}

/// A temp file holding `bytes`, kept alive as long as the value.
pub struct Input {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

impl Input {
    pub fn new(bytes: &[u8]) -> Input {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input.txt");
        std::fs::File::create(&path)
            .unwrap()
            .write_all(bytes)
            .unwrap();
        Input {
            dir,
            path,
            bytes: bytes.to_vec(),
        }
    }

    /// Every backend, with default and tiny buffers (`chunk`) and index blocks (`block`).
    pub fn backends(&self) -> Vec<Backend> {
        let mut out = Vec::new();
        for (chunk, block) in [(None, 64 * 1024), (Some(3), 2), (Some(1), 1), (Some(7), 5)] {
            let mut sources = vec![
                ("pread", Source::open(&self.path).unwrap()),
                ("memory", Source::from_bytes(self.bytes.clone(), &self.path)),
            ];
            // SAFETY: the test owns this temp file and nothing modifies it while mapped.
            sources.push(("mmap", unsafe { Source::open_mmap(&self.path).unwrap() }));
            // A source a host brings: positional reads through the `RandomAccess` trait
            // only, over a file of its own (no slice, no holes, no stamp of a file).
            sources.push((
                "custom",
                Source::from_random_access(
                    std::sync::Arc::new(HostFile(std::fs::File::open(&self.path).unwrap())),
                    &self.path,
                ),
            ));
            for (name, mut source) in sources {
                if let Some(c) = chunk {
                    source.set_chunk_size(c);
                }
                out.push(Backend {
                    name: format!("{name}/chunk={chunk:?}/block={block}"),
                    source,
                    block,
                });
            }
        }
        out
    }
}

/// The simplest source a host could write: `pread` on its own handle.
struct HostFile(std::fs::File);

impl rangeread::RandomAccess for HostFile {
    fn len(&self) -> u64 {
        self.0.metadata().map_or(0, |m| m.len())
    }

    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.0, buf, offset)
    }
}

/// A reader with every budget off, for exact comparisons of UTF-8 semantics on any
/// bytes (classification has its own tests in `tests/classify.rs`).
pub fn unlimited(block: u64) -> Reader {
    Reader::new()
        .detection(rangeread::Detection::AssumeUtf8)
        .max_lines(0)
        .max_bytes(0)
        .max_line_chars(0)
        .index_block_size(block)
}

/// A reader that treats every input as UTF-8: the tests of paging and summaries are about
/// any bytes; classification has its own tests in `tests/classify.rs`.
pub fn utf8_reader() -> Reader {
    Reader::new().detection(rangeread::Detection::AssumeUtf8)
}

/// The lines of `bytes` as the contract defines them (terminators included).
pub fn naive_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            out.push(&bytes[start..=i]);
            start = i + 1;
        }
    }
    if start < bytes.len() {
        out.push(&bytes[start..]);
    }
    out
}

/// The library features this test binary was built with, comma-separated, for building
/// an example with them (so the build `cargo test` made is reused); `sessions` added when
/// `with_sessions` (the `stress` and `sessions` examples need it).
pub fn this_builds_features(with_sessions: bool) -> String {
    [
        ("sessions", with_sessions || cfg!(feature = "sessions")),
        ("opencode", cfg!(feature = "opencode")),
        ("legacy-encodings", cfg!(feature = "legacy-encodings")),
        ("schemars", cfg!(feature = "schemars")),
        ("object-store", cfg!(feature = "object-store")),
        ("images", cfg!(feature = "images")),
        ("pdf", cfg!(feature = "pdf")),
    ]
    .iter()
    .filter(|(_, on)| *on)
    .map(|(name, _)| *name)
    .collect::<Vec<_>>()
    .join(",")
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

/// Builds (if needed) and returns an example binary of this profile.
pub fn built_example(name: &str) -> std::path::PathBuf {
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
        .args(["--features", &this_builds_features(true)])
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

/// Starts `cmd` so that it ends with this test process: a shell runs it in the background
/// and kills it once the shell's standard input, a pipe that this process holds open
/// until it exits, reads end-of-file (through fd 3: a background job's own standard input
/// is /dev/null). The returned child is the shell, whose exit status
/// is the command's (so that a server that fails to start is still seen). For servers
/// kept in a `static` for the whole test binary, which is never dropped.
pub fn spawn_tied(cmd: &std::process::Command) -> std::io::Result<std::process::Child> {
    let mut tied = std::process::Command::new("bash");
    tied.arg("-c")
        .arg(r#"exec 3<&0; "$@" </dev/null & pid=$!; (cat <&3 >/dev/null; kill "$pid" 2>/dev/null) & wait "$pid""#)
        .arg("spawn_tied")
        .arg(cmd.get_program())
        .args(cmd.get_args())
        .stdin(std::process::Stdio::piped());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => tied.env(k, v),
            None => tied.env_remove(k),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        tied.current_dir(dir);
    }
    tied.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
}

/// Waits up to 60 s for `child` (named `name` in messages) to accept connections on
/// `127.0.0.1:port`; the error says why it did not (its exit status and standard error,
/// or the timeout, after which it is killed).
pub fn await_listening(
    child: &mut std::process::Child,
    port: u16,
    name: &str,
) -> Result<(), String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            return Err(format!("{name} exited with {status}: {err}"));
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            return Err(format!("{name} did not listen on port {port} within 60 s"));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    Ok(())
}

/// `text` in UTF-8 without and with a byte order mark, and in UTF-16 and UTF-32 (with a
/// byte order mark) in both byte orders: `(name, bytes)`.
pub fn unicode_encodings(text: &str) -> Vec<(&'static str, Vec<u8>)> {
    let utf16 =
        |be: bool| -> Vec<u8> {
            let bom: [u8; 2] = if be { [0xFE, 0xFF] } else { [0xFF, 0xFE] };
            bom.into_iter()
                .chain(text.encode_utf16().flat_map(move |u| {
                    if be {
                        u.to_be_bytes()
                    } else {
                        u.to_le_bytes()
                    }
                }))
                .collect()
        };
    let utf32 = |be: bool| -> Vec<u8> {
        let bom: [u8; 4] = if be {
            [0, 0, 0xFE, 0xFF]
        } else {
            [0xFF, 0xFE, 0, 0]
        };
        bom.into_iter()
            .chain(text.chars().flat_map(move |c| {
                if be {
                    (c as u32).to_be_bytes()
                } else {
                    (c as u32).to_le_bytes()
                }
            }))
            .collect()
    };
    vec![
        ("utf-8", text.as_bytes().to_vec()),
        (
            "utf-8 bom",
            [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat(),
        ),
        ("utf-16le", utf16(false)),
        ("utf-16be", utf16(true)),
        ("utf-32le", utf32(false)),
        ("utf-32be", utf32(true)),
    ]
}

/// `target/<profile>/rangeread-mcp` (package `rangeread-mcp-server`, with the document
/// readers and object storage), built by cargo if out of date: a no-op when it is up
/// to date, a rebuild when the library or the server changed (a stale binary would test
/// old code).
pub fn mcp_server_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(std::path::Path::parent)
        .expect("target/<profile>/deps/<test>")
        .to_path_buf();
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo
        .args([
            "build",
            "-p",
            "rangeread-mcp-server",
            "--bin",
            "rangeread-mcp",
        ])
        // The tests of object storage need the feature: one build serves every test.
        .args(["--features", "object-store,documents"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("run cargo build");
    assert!(
        status.success(),
        "cargo build -p rangeread-mcp-server failed"
    );
    profile_dir.join(format!("rangeread-mcp{}", std::env::consts::EXE_SUFFIX))
}

/// A fresh directory (canonical, so that answers name it as the library resolves it)
/// holding `files` (path, text), parents made; the guard deletes it when dropped.
pub fn tree(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    (dir, root)
}
