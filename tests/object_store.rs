//! Objects in S3 read through a real S3 API server on the loopback address (moto's server
//! mode; see tests/s3/mod.rs): every answer equals the same read of the same bytes on
//! disk, and the requests each read costs are counted.
#![cfg(feature = "object-store")]

mod azure;
mod common;
mod s3;

use std::sync::Arc;

use object_store::path::Path as ObjectPath;
use rangeread::{
    ByteSelection, Error, LineSelection, ObjectConfig, ObjectSource, ReadResult, Reader, Selection,
    Totals,
};

/// A reader that counts lines only where a read needs them: head, tail and byte reads
/// of an object then fetch only what they return (the default also counts all lines).
fn reader() -> Reader {
    Reader::new().totals(Totals::IfKnown)
}

/// Puts `bytes` at `key` of a fresh bucket; returns the server and the bucket.
fn object(bucket: &str, key: &str, bytes: &[u8]) -> Option<(Arc<s3::Server>, String)> {
    let server = s3::server()?;
    server.bucket(bucket);
    server.put(bucket, key, bytes.to_vec());
    Some((server, bucket.to_string()))
}

fn open(server: &s3::Server, bucket: &str, key: &str) -> rangeread::Result<Arc<ObjectSource>> {
    let store = Arc::new(server.store(bucket));
    ObjectSource::from_store(
        store,
        ObjectPath::from(key),
        &format!("s3://{bucket}/{key}"),
        ObjectConfig::new(),
    )
    .map(Arc::new)
}

/// The same read of the same bytes in memory: what the object read must equal.
fn local(bytes: &[u8], sel: impl Into<Selection>) -> ReadResult {
    reader()
        .document(rangeread::Source::from_bytes(bytes.to_vec(), "local"))
        .read(sel)
        .unwrap()
}

fn same(a: &ReadResult, b: &ReadResult) {
    assert_eq!(a.content, b.content);
    assert_eq!(a.lines, b.lines);
    assert_eq!(a.bytes, b.bytes);
    assert_eq!(a.total_lines, b.total_lines);
    assert_eq!(a.truncated, b.truncated);
    assert_eq!(a.file_size, b.file_size);
}

#[test]
fn head_costs_the_one_request_that_opens_the_object() {
    let text = s3::real_text(24 << 20);
    let Some((server, bucket)) = object("head", "logs/build.log", &text) else {
        return;
    };
    let obj = open(&server, &bucket, "logs/build.log").unwrap();
    assert_eq!(obj.size(), text.len() as u64);
    assert!(obj.e_tag().is_some(), "moto gives an ETag");
    let got = reader()
        .document(obj.source())
        .read(LineSelection::head(250))
        .unwrap();
    same(&got, &local(&text, LineSelection::head(250)));
    let stats = obj.stats();
    assert_eq!(stats.requests, 1, "{stats:?}");
    assert!(stats.bytes <= 1 << 20, "{stats:?}");
}

#[test]
fn tail_costs_one_request_after_opening() {
    let text = s3::real_text(24 << 20);
    let Some((server, bucket)) = object("tail", "logs/build.log", &text) else {
        return;
    };
    let obj = open(&server, &bucket, "logs/build.log").unwrap();
    let got = reader()
        .document(obj.source())
        .read(LineSelection::tail(250))
        .unwrap();
    same(&got, &local(&text, LineSelection::tail(250)));
    let stats = obj.stats();
    assert_eq!(stats.requests, 2, "open + the last window: {stats:?}");
    assert!(stats.bytes <= 2 << 20, "{stats:?}");
}

#[test]
fn byte_ranges_snap_to_characters_in_one_request() {
    let text = s3::real_text(24 << 20);
    let Some((server, bucket)) = object("bytes", "logs/build.log", &text) else {
        return;
    };
    // A start inside a multi-byte character of the real text, past the middle.
    let mid = text.len() / 2;
    let inside = (mid..text.len())
        .find(|&i| text[i] & 0xC0 == 0x80)
        .expect("the real files hold non-ASCII characters") as u64;
    let sel = ByteSelection {
        start: Some(inside),
        end: Some(inside + (64 << 10)),
        ..ByteSelection::default()
    };
    let obj = open(&server, &bucket, "logs/build.log").unwrap();
    let got = reader().document(obj.source()).read(sel).unwrap();
    let want = local(&text, sel);
    same(&got, &want);
    assert!(
        got.adjustments.start_adjusted,
        "snapped to the character's start"
    );
    assert_eq!(
        obj.stats().requests,
        2,
        "open + one window: {:?}",
        obj.stats()
    );
}

#[test]
fn a_deep_read_counts_in_one_stream_and_repeats_from_the_cache() {
    let text = s3::real_text(40 << 20);
    let Some((server, bucket)) = object("deep", "logs/build.log", &text) else {
        return;
    };
    let total = memchr::memchr_iter(b'\n', &text).count() as u64;
    let line = total * 9 / 10;
    let sel = LineSelection::from(line..=line + 249);
    let obj = open(&server, &bucket, "logs/build.log").unwrap();
    // The default reader: line numbers and totals, so the whole object is counted once.
    let reader = Reader::new().cache(Arc::new(rangeread::IndexCache::new(64 << 20)));
    let got = reader.document(obj.source()).read(sel).unwrap();
    let want = Reader::new()
        .document(rangeread::Source::from_bytes(text.clone(), "local"))
        .read(sel)
        .unwrap();
    same(&got, &want);
    let first = obj.stats();
    assert!(
        first.requests <= 3,
        "open, one stream for the count, at most one window: {first:?}"
    );
    assert!(
        first.bytes <= text.len() as u64 + (2 << 20),
        "one pass over the object: {first:?}"
    );
    // The index is kept: the same read again costs no request at all.
    let again = reader.document(obj.source()).read(sel).unwrap();
    same(&again, &got);
    assert_eq!(obj.stats().requests, first.requests, "{:?}", obj.stats());
}

#[test]
fn a_binary_object_is_refused_with_its_type() {
    // A real binary: this test's own executable.
    let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    let Some((server, bucket)) = object("binary", "bin/tool", &exe[..exe.len().min(4 << 20)])
    else {
        return;
    };
    let obj = open(&server, &bucket, "bin/tool").unwrap();
    let err = reader()
        .document(obj.source())
        .read(LineSelection::head(10))
        .unwrap_err();
    assert!(
        matches!(&err, Error::Binary { mime, .. } if mime.contains("executable") || mime.contains("elf")),
        "{err}"
    );
    assert!(err
        .to_string()
        .starts_with("Binary files are not supported."));
}

/// Reads the first page of `obj`, has another writer replace the object with new bytes
/// of the same size (`put`), and reads its tail: the error of that second read.
fn replaced_between_reads(text: &[u8], obj: &Arc<ObjectSource>, put: impl Fn(Vec<u8>)) -> Error {
    let mut doc = reader().document(obj.source());
    doc.read(LineSelection::head(10)).unwrap();
    let mut other = text.to_vec();
    other.reverse();
    put(other);
    doc.read(LineSelection::tail(10)).unwrap_err()
}

#[test]
fn an_object_replaced_during_a_read_is_a_change_never_a_mix() {
    let text = s3::real_text(8 << 20);
    let Some((server, bucket)) = object("replaced", "data.txt", &text) else {
        return;
    };
    let obj = open(&server, &bucket, "data.txt").unwrap();
    let err = replaced_between_reads(&text, &obj, |b| server.put(&bucket, "data.txt", b));
    assert!(matches!(err, Error::Changed { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "File changed while reading: \"s3://replaced/data.txt\""
    );
}

#[test]
fn a_missing_object_is_not_found() {
    let Some(server) = s3::server() else {
        return;
    };
    server.bucket("missing");
    let err = open(&server, "missing", "no/such.log").unwrap_err();
    assert!(matches!(err, Error::NotFound { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "File not found: \"s3://missing/no/such.log\""
    );
}

#[test]
fn an_empty_object_reads_as_an_empty_file() {
    let Some((server, bucket)) = object("empty", "empty.txt", b"") else {
        return;
    };
    let obj = open(&server, &bucket, "empty.txt").unwrap();
    assert_eq!(obj.size(), 0);
    let got = reader()
        .document(obj.source())
        .read(LineSelection::head(5))
        .unwrap();
    assert_eq!(got.content, "");
    assert_eq!(got.total_lines, Some(0));
}

#[test]
fn refused_credentials_are_permission_denied() {
    // Two requests set the server up (the bucket, the object); from then on it checks
    // credentials, and knows none of ours.
    let Some(server) = s3::server_checking_credentials(2) else {
        return;
    };
    server.bucket("locked");
    server.put("locked", "report.txt", b"secret\n".to_vec());
    let err = open(&server, "locked", "report.txt").unwrap_err();
    assert!(matches!(err, Error::PermissionDenied { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "Permission denied: \"s3://locked/report.txt\""
    );
}

mod root {
    use super::*;
    use rangeread::ObjectRoot;

    fn root(server: &s3::Server, bucket: &str, prefix: &str) -> ObjectRoot {
        ObjectRoot::from_store(
            Arc::new(server.store(bucket)),
            ObjectPath::from(prefix),
            &format!("s3://{bucket}/{prefix}"),
        )
        .protect(["secrets/", "*.pem"])
        .unwrap()
    }

    #[test]
    fn paths_name_objects_under_the_prefix_and_nothing_else() {
        let text = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/real/shlex.py"
        ))
        .unwrap();
        let Some((server, bucket)) = object("rooted", "run-1/src/shlex.py", &text) else {
            return;
        };
        server.put(&bucket, "run-2/src/shlex.py", b"other run\n".to_vec());
        server.put(&bucket, "run-1/secrets/token.txt", b"hidden\n".to_vec());
        let root = root(&server, &bucket, "run-1");
        let read = |p: &str| {
            root.source(p)
                .and_then(|s| reader().document(s).read(LineSelection::head(3)))
        };
        let want = local(&text, LineSelection::head(3));
        for ok in [
            "src/shlex.py",
            "./src/../src/shlex.py",
            "s3://rooted/run-1/src/shlex.py",
        ] {
            let got = read(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert_eq!(got.content, want.content, "{ok}");
            assert_eq!(got.path, ok, "results name the path as asked");
        }
        for outside in [
            "../run-2/src/shlex.py",
            "src/../../run-2/src/shlex.py",
            "/run-1/src/shlex.py",
            "s3://rooted/run-2/src/shlex.py",
            "s3://other/run-1/src/shlex.py",
        ] {
            let err = read(outside).unwrap_err();
            assert!(
                matches!(err, Error::OutsideWorkspace { .. }),
                "{outside}: {err}"
            );
            assert_eq!(
                err.to_string(),
                format!("Path \"{outside}\" is outside the workspace")
            );
        }
        // Protected, whether the object exists or not, and through "..".
        for protected in [
            "secrets/token.txt",
            "secrets/missing.txt",
            "secrets/nothing/../../src/shlex.py",
            "keys/server.pem",
        ] {
            let err = read(protected).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("Access denied: \"{protected}\" is a protected path"),
                "{protected}"
            );
        }
        let err = read("src/missing.py").unwrap_err();
        assert_eq!(err.to_string(), "File not found: \"src/missing.py\"");
    }
}

/// Builds a binary of this workspace for this test's profile (`cargo build` with `args`)
/// and returns its path, `name` under the profile's directory.
fn built(args: &[&str], name: &str) -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo
        .args(["build", "--quiet"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if dir.ends_with("release") {
        cargo.arg("--release");
    }
    assert!(cargo.status().unwrap().success(), "cargo build {args:?}");
    dir.join(name)
}

/// The `read` example, built with the features of this test binary (so that the build
/// `cargo test` already made is reused, not redone with other features).
fn read_example() -> std::path::PathBuf {
    let features = common::this_builds_features(false);
    built(
        &[
            "--example",
            "read",
            "--no-default-features",
            "--features",
            &features,
        ],
        "examples/read",
    )
}

#[test]
fn the_cli_reads_s3_urls_with_credentials_from_the_environment() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/real/bstr_utf8.rs"
    ))
    .unwrap();
    let Some((server, bucket)) = object("cli", "src/utf8.rs", &text) else {
        return;
    };
    server.put(&bucket, "secrets/key.pem", b"-----BEGIN-----\n".to_vec());
    let exe = read_example();
    let run = |args: &[&str]| {
        std::process::Command::new(&exe)
            .args(args)
            .env("AWS_ACCESS_KEY_ID", s3::ACCESS_KEY)
            .env("AWS_SECRET_ACCESS_KEY", s3::SECRET_KEY)
            .env("AWS_REGION", s3::REGION)
            .env("AWS_ENDPOINT_URL", &server.endpoint)
            .env("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false")
            .output()
            .unwrap()
    };
    let out = run(&["--lines", "10:12", "--object-stats", "s3://cli/src/utf8.rs"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = local(&text, LineSelection::from(10..=12));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want.content);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("object-store: 1 requests"), "{stderr}");

    // Confined to a prefix, with protected patterns, as with a local --root.
    let out = run(&["--root", "s3://cli/src", "--tail", "2", "utf8.rs"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        local(&text, LineSelection::tail(2)).content
    );
    let out = run(&[
        "--root",
        "s3://cli/src",
        "--format",
        "json",
        "../secrets/key.pem",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["kind"], "outside_workspace");
    let out = run(&["--protect", "*.pem", "s3://cli/secrets/key.pem"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim(),
        "error: Access denied: \"s3://cli/secrets/key.pem\" is a protected path"
    );
    let out = run(&["s3://cli/src/missing.rs"]);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim(),
        "error: File not found: \"s3://cli/src/missing.rs\""
    );
}

/// What a fresh process has: a reader whose cache is on the index directory `dir`, and
/// a workspace on the bucket with its own request counters.
fn fresh_process(
    server: &s3::Server,
    bucket: &str,
    dir: &std::path::Path,
) -> (Reader, rangeread::Workspace, Arc<rangeread::IndexCache>) {
    let cache = Arc::new(
        rangeread::IndexCache::new(16 << 20)
            .with_dir(dir, 64 << 20)
            .unwrap(),
    );
    let root = rangeread::ObjectRoot::from_store(
        Arc::new(server.store(bucket)),
        ObjectPath::from(""),
        &format!("s3://{bucket}"),
    );
    (
        Reader::new().cache(cache.clone()),
        rangeread::Workspace::object(root),
        cache,
    )
}

fn requests(ws: &rangeread::Workspace) -> u64 {
    ws.object_root().unwrap().stats().requests
}

#[test]
fn with_a_persisted_index_every_read_of_an_object_is_one_request() {
    let text = s3::real_text(40 << 20);
    let key = "logs/build.log";
    let Some((server, bucket)) = object("persisted", key, &text) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let total = memchr::memchr_iter(b'\n', &text).count() as u64;
    let deep = LineSelection::from(total * 9 / 10..=total * 9 / 10 + 249);
    let mid = text.len() as u64 / 2;
    let bytes = ByteSelection::new(Some(mid), Some(mid + (64 << 10)));
    // The same read of the same bytes, with the index built (as the stored one is: a
    // byte read then reports its lines too).
    let local = |text: &[u8], sel: Selection| {
        let mut doc = Reader::new().document(rangeread::Source::from_bytes(text.to_vec(), "local"));
        doc.total_lines().unwrap();
        doc.read(sel).unwrap()
    };

    // The first process opens the object, counts it in one stream and stores the index
    // (with the size, the ETag and the first 8 KiB, which the object is classified from).
    let (reader, ws, _) = fresh_process(&server, &bucket, dir.path());
    let got = reader.read_in(&ws, key, deep).unwrap();
    same(&got, &local(&text, deep.into()));
    assert!(
        requests(&ws) <= 3,
        "open, the count, a window: {}",
        requests(&ws)
    );

    // Every later process: one request, conditional on the stored ETag, per read.
    for (what, sel) in [
        ("a deep line range", Selection::from(deep)),
        ("64 KiB at 50%", Selection::from(bytes)),
        (
            "the last 250 lines",
            Selection::from(LineSelection::tail(250)),
        ),
    ] {
        let (reader, ws, cache) = fresh_process(&server, &bucket, dir.path());
        let got = reader.read_in(&ws, key, sel).unwrap();
        same(&got, &local(&text, sel));
        assert_eq!(requests(&ws), 1, "{what}");
        assert_eq!(cache.stats().loaded, 1, "{what}: the stored index was used");
    }

    // The object is replaced: the stored ETag fails the first request (412), and the read
    // falls back to opening the new version, counting it, and storing its index.
    let mut other = text.clone();
    other.splice(0..0, b"a new first line\n".iter().copied());
    server.put(&bucket, key, other.clone());
    let (reader, ws, _) = fresh_process(&server, &bucket, dir.path());
    let got = reader.read_in(&ws, key, deep).unwrap();
    same(&got, &local(&other, deep.into()));
    assert!(
        requests(&ws) <= 5,
        "412, open, the count, a window: {}",
        requests(&ws)
    );
    // ... and the next process reads the new version in one request again.
    let (reader, ws, _) = fresh_process(&server, &bucket, dir.path());
    let got = reader.read_in(&ws, key, deep).unwrap();
    same(&got, &local(&other, deep.into()));
    assert_eq!(requests(&ws), 1);
}

/// A first process that reads one page at `at` (a fraction of the lines) under
/// [`Totals::IfKnown`] counts only up to it, and stores that partial index (it covers at
/// least 32 MiB: `PERSIST_STEP`); returns the lines of `text`.
fn persist_a_prefix(
    server: &s3::Server,
    bucket: &str,
    key: &str,
    dir: &std::path::Path,
    text: &[u8],
    at: f64,
) -> u64 {
    let total = memchr::memchr_iter(b'\n', text).count() as u64;
    let line = (total as f64 * at) as u64;
    let (reader, ws, cache) = fresh_process(server, bucket, dir);
    reader
        .totals(Totals::IfKnown)
        .read_in(&ws, key, LineSelection::from(line..=line + 249))
        .unwrap();
    assert_eq!(cache.stats().written, 1, "the partial index was stored");
    total
}

/// A read that needs lines past what the stored index covers extends the index and reads
/// its page in one request: the stream that extends the index starts half a window before
/// the covered end and carries the page, and a count the read makes anyway (a tail's or
/// a byte read's line numbers, a total) goes front to back with the page.
#[test]
fn a_read_past_a_persisted_index_is_one_request() {
    let text = s3::real_text(64 << 20);
    let key = "logs/long.log";
    let Some((server, bucket)) = object("past-index", key, &text) else {
        return;
    };
    let len = text.len() as u64;
    let total = memchr::memchr_iter(b'\n', &text).count() as u64;
    let frac = |f: f64| (total as f64 * f) as u64;
    let page = |first: u64| Selection::from(LineSelection::from(first..=first + 249));
    let bytes_at = |at: u64| Selection::from(ByteSelection::new(Some(at), Some(at + (64 << 10))));
    // (the first process's page, what the second reads, with which totals)
    let cases: Vec<(&str, f64, Totals, Selection)> = vec![
        (
            "the next page, counted",
            0.55,
            Totals::Auto,
            page(frac(0.55) + 250),
        ),
        (
            "a page just past the index",
            0.55,
            Totals::IfKnown,
            page(frac(0.55) + 3000),
        ),
        ("a far page", 0.55, Totals::IfKnown, page(frac(0.9))),
        ("a far page, counted", 0.55, Totals::Always, page(frac(0.9))),
        (
            "around a far line",
            0.55,
            Totals::IfKnown,
            LineSelection::around(frac(0.9), 20).into(),
        ),
        (
            "the last lines, numbered",
            0.55,
            Totals::Auto,
            LineSelection::tail(250).into(),
        ),
        (
            "the last lines, counted",
            0.55,
            Totals::Always,
            LineSelection::tail(250).into(),
        ),
        (
            "bytes at 90%, numbered",
            0.55,
            Totals::Always,
            bytes_at(len * 9 / 10),
        ),
        ("bytes at 90%", 0.55, Totals::Auto, bytes_at(len * 9 / 10)),
        // The rest past the index is shorter than 8 MiB.
        (
            "a page near the end",
            0.9,
            Totals::IfKnown,
            page(frac(0.97)),
        ),
        (
            "the last lines after 90%",
            0.9,
            Totals::Auto,
            LineSelection::tail(250).into(),
        ),
        (
            "bytes at 97%",
            0.9,
            Totals::Always,
            bytes_at(len * 97 / 100),
        ),
    ];
    for (what, first_at, totals, sel) in cases {
        let dir = tempfile::tempdir().unwrap();
        persist_a_prefix(&server, &bucket, key, dir.path(), &text, first_at);
        let (reader, ws, cache) = fresh_process(&server, &bucket, dir.path());
        let got = reader.totals(totals).read_in(&ws, key, sel).unwrap();
        let want = Reader::new()
            .totals(totals)
            .document(rangeread::Source::from_bytes(text.clone(), "local"))
            .read(sel)
            .unwrap();
        assert_eq!(got.content, want.content, "{what}");
        if totals != Totals::IfKnown {
            assert_eq!(got.lines, want.lines, "{what}");
            assert_eq!(got.total_lines, want.total_lines, "{what}");
        }
        assert_eq!(cache.stats().loaded, 1, "{what}: the stored index was used");
        let stats = ws.object_root().unwrap().stats();
        assert_eq!(stats.requests, 1, "{what}: {stats:?}");
        assert!(
            stats.bytes <= len,
            "{what}: no byte fetched twice: {stats:?}"
        );
    }
}

/// The same through the `read` example with `--index-dir`, as a user checks it with
/// `--object-stats`: a first run reads a page at 85% (its index, to there, is stored);
/// later runs read past it, a page near the end and the numbered last lines, each in one
/// request.
#[test]
fn the_cli_reads_past_a_stored_index_in_one_request() {
    let text = s3::real_text(40 << 20);
    let Some((server, bucket)) = object("cli-past-index", "build.log", &text) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let exe = read_example();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&exe)
            .args([
                "--index-dir",
                dir.path().to_str().unwrap(),
                "--object-stats",
            ])
            .args(["--max-lines", "0", "--max-bytes", "0"])
            .args(args)
            .arg(format!("s3://{bucket}/build.log"))
            .env("AWS_ACCESS_KEY_ID", s3::ACCESS_KEY)
            .env("AWS_SECRET_ACCESS_KEY", s3::SECRET_KEY)
            .env("AWS_REGION", s3::REGION)
            .env("AWS_ENDPOINT_URL", &server.endpoint)
            .env("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false")
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{args:?}: {stderr}");
        (String::from_utf8(out.stdout).unwrap(), stderr)
    };
    let total = memchr::memchr_iter(b'\n', &text).count() as u64;
    let (at, near_end) = (total * 85 / 100, total * 97 / 100);
    run(&["--lines", &format!("{at}:+249")]);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "the first run stored its index"
    );
    let (out, stderr) = run(&["--lines", &format!("{near_end}:+249")]);
    assert_eq!(
        out,
        local(&text, LineSelection::from(near_end..=near_end + 249)).content
    );
    assert!(stderr.contains("object-store: 1 requests"), "{stderr}");
    let (out, stderr) = run(&["--format", "cat-n", "--tail", "20"]);
    let want = Reader::new()
        .document(rangeread::Source::from_bytes(text.clone(), "local"))
        .read(LineSelection::tail(20))
        .unwrap();
    let first = want.lines.unwrap().start;
    assert!(
        out.starts_with(&format!("{first:>6}\t")),
        "numbered from line {first}: {}",
        &out[..out.len().min(200)]
    );
    assert!(stderr.contains("object-store: 1 requests"), "{stderr}");
}

/// The MCP server (package `rangeread-mcp-server`), built for this profile with object
/// storage: the one build every test that runs the server shares.
fn mcp_server() -> std::path::PathBuf {
    common::mcp_server_binary()
}

/// The MCP server with `--root s3://bucket/prefix`, driven over raw JSON-RPC on stdio:
/// the `read_file` tool reads objects under the prefix and nothing outside it.
#[test]
fn the_mcp_server_serves_an_object_store_root() {
    use std::io::{BufRead, BufReader, Write};
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/real/docutils_de.py"
    ))
    .unwrap();
    let Some((server, bucket)) = object("mcp", "proj/docs/de.py", &text) else {
        return;
    };
    server.put(&bucket, "other/secret.txt", b"not yours\n".to_vec());
    server.put(&bucket, "proj/keys/id.pem", b"-----BEGIN-----\n".to_vec());
    let index_dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(mcp_server())
        .args([
            "--root",
            "s3://mcp/proj",
            "--protect",
            "*.pem",
            "--index-dir",
        ])
        .arg(index_dir.path())
        .env("AWS_ACCESS_KEY_ID", s3::ACCESS_KEY)
        .env("AWS_SECRET_ACCESS_KEY", s3::SECRET_KEY)
        .env("AWS_REGION", s3::REGION)
        .env("AWS_ENDPOINT_URL", &server.endpoint)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut id = 0;
    let mut call = |method: &str, params: serde_json::Value| -> serde_json::Value {
        id += 1;
        let msg =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{msg}").unwrap();
        if method == "initialize" {
            writeln!(
                stdin,
                r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
            )
            .unwrap();
        }
        stdin.flush().unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                stdout.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v["result"].clone();
            }
        }
    };
    call(
        "initialize",
        serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "object-store-test", "version": "1"}}),
    );
    let read = |call: &mut dyn FnMut(&str, serde_json::Value) -> serde_json::Value,
                args: serde_json::Value| {
        call(
            "tools/call",
            serde_json::json!({"name": "read_file", "arguments": args}),
        )
    };
    let r = read(
        &mut call,
        serde_json::json!({"path": "docs/de.py", "start_line": 20, "end_line": 30}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let want = local(&text, LineSelection::from(20..=30));
    assert_eq!(r["content"][0]["text"], want.content.as_str());
    assert_eq!(r["structuredContent"]["lines"]["start"], 20, "{r}");

    for (path, message) in [
        (
            "../other/secret.txt",
            "Path \"../other/secret.txt\" is outside the workspace",
        ),
        (
            "s3://mcp/other/secret.txt",
            "Path \"s3://mcp/other/secret.txt\" is outside the workspace",
        ),
        (
            "keys/id.pem",
            "Access denied: \"keys/id.pem\" is a protected path",
        ),
        ("docs/missing.py", "File not found: \"docs/missing.py\""),
    ] {
        let r = read(&mut call, serde_json::json!({"path": path}));
        assert_eq!(r["isError"], true, "{path}: {r}");
        assert_eq!(r["content"][0]["text"], message, "{path}");
    }
    drop(stdin);
    let _ = child.wait();
}

/// A host with its own tokio runtime: reads drive requests on it from blocking threads,
/// and a read made on a thread that drives async tasks fails with an error saying what
/// to do, instead of panicking or blocking the runtime.
#[test]
fn an_async_host_hands_over_its_runtime() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/real/shlex.py"
    ))
    .unwrap();
    let Some((server, bucket)) = object("async-host", "shlex.py", &text) else {
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let store: Arc<dyn object_store::ObjectStore> = Arc::new(server.store(&bucket));
    let config = ObjectConfig::new().runtime(rt.handle().clone());
    let want = local(&text, LineSelection::tail(5));
    // From spawn_blocking, as an async host (the MCP server) calls it.
    let (s, c) = (store.clone(), config.clone());
    let got = rt
        .block_on(rt.spawn_blocking(move || {
            let obj = ObjectSource::from_store(
                s,
                ObjectPath::from("shlex.py"),
                "s3://async-host/shlex.py",
                c,
            )?;
            reader()
                .document(obj.into_source())
                .read(LineSelection::tail(5))
        }))
        .unwrap()
        .unwrap();
    assert_eq!(got.content, want.content);
    // On a runtime thread itself: an error, and the runtime keeps working.
    let err = rt.block_on(async {
        ObjectSource::from_store(
            store.clone(),
            ObjectPath::from("shlex.py"),
            "s3://async-host/shlex.py",
            config.clone(),
        )
        .unwrap_err()
    });
    assert!(err.to_string().contains("spawn_blocking"), "{err}");
    let still = rt.block_on(async { tokio::task::spawn_blocking(|| 7).await.unwrap() });
    assert_eq!(still, 7);
}

/// `http://` URLs go through object_store's HTTP client: plain GET with `Range`, HEAD,
/// `If-Match`, against the same real server (moto serves a `public-read` object at
/// `/bucket/key` to any HTTP client, with its ETag and `Accept-Ranges`).
mod http {
    use super::*;

    /// A public object at `bucket/key`: the server and its URL.
    fn public(bucket: &str, key: &str, bytes: &[u8]) -> Option<(Arc<s3::Server>, String)> {
        let server = s3::server()?;
        server.bucket(bucket);
        server.put_public(bucket, key, bytes);
        let url = format!("{}/{bucket}/{key}", server.endpoint);
        Some((server, url))
    }

    #[test]
    fn an_http_url_reads_as_the_bytes_on_disk() {
        let text = s3::real_text(3 << 20);
        let Some((_server, url)) = public("web", "pub/build.log", &text) else {
            return;
        };
        let obj = Arc::new(ObjectSource::open(&url).unwrap());
        let opened = obj.stats().requests;
        assert_eq!(opened, 1, "opening is one request: {:?}", obj.stats());
        let total = memchr::memchr_iter(b'\n', &text).count() as u64;
        let mut doc = reader().document(obj.source());
        for sel in [
            Selection::from(LineSelection::head(250)),
            LineSelection::tail(250).into(),
            ByteSelection::new(Some(2_000_001), Some(2_065_537)).into(),
            LineSelection::from(total * 9 / 10..=total * 9 / 10 + 249).into(),
        ] {
            let got = doc.read(sel).unwrap_or_else(|e| panic!("{sel:?}: {e}"));
            let want = local(&text, sel);
            same(&got, &want);
            assert_eq!(got.path, url);
        }
        let s = obj.stats();
        assert!(
            s.bytes <= text.len() as u64 + (3 << 20),
            "no read fetched the object twice over: {s:?}"
        );
    }

    #[test]
    fn an_http_object_replaced_during_a_read_is_a_change() {
        let text = s3::real_text(4 << 20);
        let Some((server, url)) = public("web-replaced", "data.txt", &text) else {
            return;
        };
        let obj = Arc::new(ObjectSource::open(&url).unwrap());
        let err = replaced_between_reads(&text, &obj, |b| {
            server.put_public("web-replaced", "data.txt", &b)
        });
        assert!(matches!(err, Error::Changed { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            format!("File changed while reading: \"{url}\"")
        );
    }

    #[test]
    fn a_missing_http_object_is_not_found() {
        let Some((server, _)) = public("web-missing", "here.txt", b"x\n") else {
            return;
        };
        let url = format!("{}/web-missing/not-here.txt", server.endpoint);
        let err = ObjectSource::open(&url).unwrap_err();
        assert!(matches!(err, Error::NotFound { .. }), "{err}");
        assert_eq!(err.to_string(), format!("File not found: \"{url}\""));
    }
}

/// `az://` URLs through the `read` example, as a user configures them (the emulator
/// variables object_store reads), against Microsoft's Azure Storage emulator.
mod azure_blob {
    use super::*;

    fn run(az: &azure::Azurite, args: &[&str]) -> std::process::Output {
        std::process::Command::new(read_example())
            .args(args)
            .envs(az.env())
            .output()
            .unwrap()
    }

    fn ok(out: std::process::Output) -> String {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn an_az_url_reads_as_the_bytes_on_disk() {
        let Some(az) = azure::azurite() else {
            return;
        };
        let text = s3::real_text(3 << 20);
        az.put("logs", "ci/build.log", &text);
        let url = "az://logs/ci/build.log";
        let total = memchr::memchr_iter(b'\n', &text).count() as u64;
        let deep = total * 9 / 10;
        let cases: [(Vec<String>, Selection); 4] = [
            (
                vec!["--head".into(), "250".into()],
                LineSelection::head(250).into(),
            ),
            (
                vec!["--tail".into(), "250".into()],
                LineSelection::tail(250).into(),
            ),
            (
                vec!["--bytes".into(), "2000001:2065537".into()],
                ByteSelection::new(Some(2_000_001), Some(2_065_537)).into(),
            ),
            (
                vec!["--lines".into(), format!("{deep}:+249")],
                LineSelection::from(deep..=deep + 249).into(),
            ),
        ];
        for (args, sel) in cases {
            let mut argv: Vec<&str> = args.iter().map(String::as_str).collect();
            argv.extend(["--max-bytes", "0", "--max-lines", "0", url]);
            assert_eq!(ok(run(az, &argv)), local(&text, sel).content, "{args:?}");
        }
        // Confined to a prefix, as with a local --root.
        let out = run(
            az,
            &["--root", "az://logs/ci", "--format", "json", "../x.log"],
        );
        assert_eq!(out.status.code(), Some(1));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["kind"], "outside_workspace");
        assert_eq!(
            ok(run(
                az,
                &["--root", "az://logs/ci", "--tail", "3", "build.log"]
            )),
            local(&text, LineSelection::tail(3)).content
        );
    }

    #[test]
    fn a_missing_blob_is_not_found_and_a_wrong_key_is_denied() {
        let Some(az) = azure::azurite() else {
            return;
        };
        az.put("private", "notes.txt", b"one\ntwo\n");
        let out = run(az, &["az://private/missing.txt"]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            String::from_utf8(out.stderr).unwrap().trim(),
            "error: File not found: \"az://private/missing.txt\""
        );
        let out = std::process::Command::new(read_example())
            .arg("az://private/notes.txt")
            .envs(az.env())
            // A valid key, but not the account's.
            .env(
                "AZURE_STORAGE_ACCOUNT_KEY",
                "d3Jvbmcta2V5LWZvci10aGUtYWNjb3VudA==",
            )
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            String::from_utf8(out.stderr).unwrap().trim(),
            "error: Permission denied: \"az://private/notes.txt\""
        );
    }
}
