//! Persistent line indexes (`IndexCache::with_dir`): a later cache (or process) reads deep
//! lines of an indexed file without counting them again; changed files, damaged entries,
//! the directory's budget, concurrent writers and unwritable directories never give a
//! wrong answer or a failed read.
//!
//! The text is real: the files of `tests/data/real/` (provenance in its `SOURCES.md`),
//! concatenated until the file is large enough to be stored (indexes of less than 1 MiB
//! are not).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use rangeread::{IndexCache, LineSelection, Reader, Totals};

const REAL: [&str; 4] = [
    "bstr_utf8.rs",
    "shlex.py",
    "docutils_de.py",
    "encoding_rs_README.md",
];

/// Real text of at least `min` bytes: the real files, in turn, again and again.
fn real_text(min: usize) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/real");
    let files: Vec<Vec<u8>> = REAL
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let mut out = Vec::new();
    while out.len() < min {
        for f in &files {
            out.extend_from_slice(f);
        }
    }
    out
}

/// Lines `a..=b` (1-indexed) of `text`, each with its LF: what `sed -n 'a,bp'` prints.
fn naive_lines(text: &[u8], a: usize, b: usize) -> String {
    let lines: Vec<&[u8]> = text.split_inclusive(|&c| c == b'\n').collect();
    String::from_utf8_lossy(&lines[a - 1..b].concat()).into_owned()
}

fn line_count(text: &[u8]) -> usize {
    text.split_inclusive(|&c| c == b'\n').count()
}

/// A cache backed by `dir`, fresh in memory, as a new process would have it.
fn fresh(dir: &Path) -> Arc<IndexCache> {
    Arc::new(IndexCache::new(16 << 20).with_dir(dir, 64 << 20).unwrap())
}

/// A reader that counts on this thread only and only what a selection needs (no totals),
/// so that it scans exactly as far as asked: a read of some lines leaves a partial index.
fn reader(cache: &Arc<IndexCache>) -> Reader {
    Reader::new()
        .threads(1)
        .totals(Totals::IfKnown)
        .cache(cache.clone())
}

/// A reader that always counts the whole file (for totals): its index becomes complete.
fn counting(cache: &Arc<IndexCache>) -> Reader {
    Reader::new().totals(Totals::Always).cache(cache.clone())
}

/// The entry files of an index directory.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rrindex"))
        .collect();
    v.sort();
    v
}

/// Everything in the directory (temporary files included).
fn all_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

struct Setup {
    _tmp: tempfile::TempDir,
    file: PathBuf,
    dir: PathBuf,
    text: Vec<u8>,
}

/// A 3 MiB file of real text whose complete index is stored in a fresh directory.
fn indexed() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("real.txt");
    let text = real_text(3 << 20);
    std::fs::write(&file, &text).unwrap();
    let dir = tmp.path().join("idx");
    let cache = fresh(&dir);
    let tail = counting(&cache)
        .read(&file, LineSelection::tail(3))
        .unwrap();
    assert_eq!(tail.total_lines, Some(line_count(&text) as u64));
    assert_eq!(cache.stats().written, 1, "{:?}", cache.stats());
    assert_eq!(entries(&dir).len(), 1);
    Setup {
        _tmp: tmp,
        file,
        dir,
        text,
    }
}

/// Reads lines `a..=b` with a fresh cache on `dir` and checks them against the file as it
/// is now and against a read without any cache; returns the fresh cache.
fn check_deep(s: &Setup, a: usize, b: usize) -> Arc<IndexCache> {
    let text = std::fs::read(&s.file).unwrap();
    let cache = fresh(&s.dir);
    let got = reader(&cache)
        .read(&s.file, LineSelection::from(a as u64..=b as u64))
        .unwrap();
    let plain = Reader::new()
        .read(&s.file, LineSelection::from(a as u64..=b as u64))
        .unwrap();
    assert_eq!(got.content, naive_lines(&text, a, b));
    assert_eq!(got.content, plain.content);
    assert_eq!(got.bytes, plain.bytes);
    cache
}

#[test]
fn a_fresh_cache_reads_deep_lines_from_the_stored_index_without_scanning() {
    let s = indexed();
    let n = line_count(&s.text);
    let deep = n * 9 / 10;
    let cache = fresh(&s.dir);
    let r = reader(&cache);
    let mut doc = r.open(&s.file).unwrap();
    // Loaded when the file was opened: the whole file is indexed before any read.
    assert_eq!(doc.index().scanned(), s.text.len() as u64);
    assert_eq!(doc.index().known_total_lines(), Some(n as u64));
    let page = doc
        .read(LineSelection::from(deep as u64..=deep as u64 + 249))
        .unwrap();
    assert_eq!(page.content, naive_lines(&s.text, deep, deep + 249));
    assert_eq!(page.total_lines, Some(n as u64));
    let stats = cache.stats();
    assert_eq!((stats.loaded, stats.misses, stats.rejected), (1, 0, 0));
    // Nothing new was learned, so nothing is written again.
    assert_eq!(stats.written, 0);

    // And the same through Reader::read, every line of the file in pieces.
    let cache = check_deep(&s, 1, 40);
    assert_eq!(cache.stats().loaded, 1);
    check_deep(&s, n - 10, n);
    check_deep(&s, n / 2, n / 2 + 500);
}

#[test]
fn an_index_of_part_of_a_file_is_stored_and_continued() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("big.txt");
    // 40 MiB: a first deep read scans past the 32 MiB that make a partial index worth
    // storing, without finishing the file.
    let text = real_text(40 << 20);
    std::fs::write(&file, &text).unwrap();
    let dir = tmp.path().join("idx");
    let n = line_count(&text);
    let deep = n * 9 / 10;
    let cache = fresh(&dir);
    let first = reader(&cache)
        .read(&file, LineSelection::from(deep as u64..=deep as u64 + 9))
        .unwrap();
    assert_eq!(first.content, naive_lines(&text, deep, deep + 9));
    assert_eq!(cache.stats().written, 1);

    let cache = fresh(&dir);
    let r = reader(&cache);
    let mut doc = r.open(&file).unwrap();
    let stored = doc.index().scanned();
    assert!(
        stored > (text.len() as u64) * 8 / 10 && stored < text.len() as u64,
        "{stored}"
    );
    let again = doc
        .read(LineSelection::from(deep as u64 + 5..=deep as u64 + 6))
        .unwrap();
    assert_eq!(again.content, naive_lines(&text, deep + 5, deep + 6));
    assert_eq!(doc.index().scanned(), stored, "read within the stored part");
    // Further than stored: the count goes on from there, and the total is right.
    assert_eq!(doc.total_lines().unwrap(), n as u64);
    let tail = doc.read(LineSelection::tail(2)).unwrap();
    assert_eq!(tail.content, naive_lines(&text, n - 1, n));
    assert_eq!(tail.total_lines, Some(n as u64));
}

#[test]
fn a_changed_file_never_uses_its_stale_entry() {
    // Appended to.
    let s = indexed();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&s.file)
        .unwrap();
    f.write_all(b"one more line\n").unwrap();
    drop(f);
    let n = line_count(&std::fs::read(&s.file).unwrap());
    let cache = check_deep(&s, n - 5, n - 3);
    assert_eq!((cache.stats().loaded, cache.stats().rejected), (0, 1));
    assert_stale_gone(&s);

    // Rewritten with the same size and a new modification time: the lines move.
    let s = indexed();
    let mut text = s.text.clone();
    let first_lf = text.iter().position(|&b| b == b'\n').unwrap();
    text.remove(first_lf);
    text.push(b'\n');
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&s.file, &text).unwrap();
    let n = line_count(&text);
    let cache = check_deep(&s, n / 2, n / 2 + 20);
    assert_eq!((cache.stats().loaded, cache.stats().rejected), (0, 1));
    assert_stale_gone(&s);

    // Rewritten with the same size and the old modification time put back (`touch -d`):
    // the change time still differs.
    let s = indexed();
    let old = std::fs::metadata(&s.file).unwrap().modified().unwrap();
    let mut text = s.text.clone();
    let first_lf = text.iter().position(|&b| b == b'\n').unwrap();
    text.remove(first_lf);
    text.push(b'\n');
    std::thread::sleep(Duration::from_millis(20));
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&s.file)
        .unwrap();
    (&f).write_all(&text).unwrap();
    f.set_modified(old).unwrap();
    drop(f);
    assert_eq!(std::fs::metadata(&s.file).unwrap().modified().unwrap(), old);
    let n = line_count(&text);
    let cache = check_deep(&s, n / 3, n / 3 + 20);
    assert_eq!((cache.stats().loaded, cache.stats().rejected), (0, 1));
    assert_stale_gone(&s);

    // Replaced by a rename of another file (what editors do).
    let s = indexed();
    let other = s.file.with_file_name("new.txt");
    let mut text = s.text.clone();
    text.splice(0..0, b"a\nb\nc\n".iter().copied());
    std::fs::write(&other, &text).unwrap();
    std::fs::rename(&other, &s.file).unwrap();
    let n = line_count(&text);
    let cache = check_deep(&s, n - 100, n - 90);
    assert_eq!((cache.stats().loaded, cache.stats().rejected), (0, 1));
    assert_stale_gone(&s);
}

/// The stale entry is gone: removed, or replaced by one of the file as it is now (a read
/// that reached the last block completed the index and wrote it).
fn assert_stale_gone(s: &Setup) {
    assert!(entries(&s.dir).len() <= 1);
    let cache = check_deep(s, 10, 12);
    assert_eq!(cache.stats().rejected, 0);
}

/// Damages the one entry of `s.dir` with `damage`, then checks that a fresh cache ignores
/// it, answers right, and whether the entry is left in place.
fn check_damaged(damage: impl FnOnce(&Path), removed: bool) {
    let s = indexed();
    let entry = entries(&s.dir).pop().unwrap();
    damage(&entry);
    let n = line_count(&s.text);
    let cache = check_deep(&s, n * 3 / 4, n * 3 / 4 + 30);
    let stats = cache.stats();
    assert_eq!((stats.loaded, stats.rejected), (0, 1), "{stats:?}");
    // A read of some lines does not complete the index: nothing new is written.
    assert_eq!(stats.written, 0);
    assert_eq!(entry.exists(), !removed);
}

#[test]
fn a_damaged_entry_is_ignored_and_removed() {
    check_damaged(
        |e| {
            let len = std::fs::metadata(e).unwrap().len();
            let f = std::fs::OpenOptions::new().write(true).open(e).unwrap();
            f.set_len(len - 3).unwrap();
        },
        true,
    );
    // One flipped byte in the middle of the checkpoints (an integrity failure the
    // consistency checks alone might not see).
    check_damaged(
        |e| {
            let mut b = std::fs::read(e).unwrap();
            let mid = b.len() / 2;
            b[mid] ^= 0x01;
            std::fs::write(e, b).unwrap();
        },
        true,
    );
    check_damaged(
        |e| {
            let mut b = std::fs::read(e).unwrap();
            b[0] = b'X';
            std::fs::write(e, b).unwrap();
        },
        true,
    );
    check_damaged(|e| std::fs::write(e, b"").unwrap(), true);
}

#[test]
fn an_entry_of_another_file_under_the_same_name_is_ignored_and_left() {
    let s = indexed();
    // A second file with its own entry; then the first file's entry is copied over the
    // second's name, as a hash collision would have it.
    let second = s.file.with_file_name("second.txt");
    let mut text = s.text.clone();
    text.extend_from_slice(b"the second file\n");
    std::fs::write(&second, &text).unwrap();
    let before: Vec<PathBuf> = entries(&s.dir);
    let cache = fresh(&s.dir);
    counting(&cache)
        .read(&second, LineSelection::tail(1))
        .unwrap();
    let theirs = entries(&s.dir)
        .into_iter()
        .find(|e| !before.contains(e))
        .unwrap();
    std::fs::copy(&before[0], &theirs).unwrap();

    let n = line_count(&text);
    let cache = fresh(&s.dir);
    let got = reader(&cache)
        .read(&second, LineSelection::from(n as u64 - 1..=n as u64))
        .unwrap();
    assert_eq!(got.content, naive_lines(&text, n - 1, n));
    let stats = cache.stats();
    assert_eq!((stats.loaded, stats.rejected), (0, 1));
    assert!(theirs.exists(), "another file's entry is not removed");
}

#[test]
fn the_directory_stays_within_its_budget_least_recently_used_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    let text = real_text(2 << 20);
    let files: Vec<PathBuf> = (0..5)
        .map(|i| {
            let f = tmp.path().join(format!("f{i}.txt"));
            std::fs::write(&f, &text).unwrap();
            f
        })
        .collect();
    // Measure one entry, then allow a little more than two.
    let cache = fresh(&dir);
    counting(&cache)
        .read(&files[0], LineSelection::tail(1))
        .unwrap();
    let one = std::fs::metadata(&entries(&dir)[0]).unwrap().len();
    let budget = one * 5 / 2;
    let cache = Arc::new(IndexCache::new(16 << 20).with_dir(&dir, budget).unwrap());
    let r = counting(&cache);
    let entry_of = |f: &Path| {
        let before = entries(&dir);
        let fresh = Arc::new(IndexCache::new(16 << 20).with_dir(&dir, budget).unwrap());
        counting(&fresh).read(f, LineSelection::tail(1)).unwrap();
        (fresh.stats(), before)
    };
    r.read(&files[1], LineSelection::tail(1)).unwrap();
    // f0 and f1 stored; f0 is then used (its modification time renewed by the load).
    std::thread::sleep(Duration::from_millis(20));
    let (s0, _) = entry_of(&files[0]);
    assert_eq!(s0.loaded, 1);
    std::thread::sleep(Duration::from_millis(20));
    // f2 needs room: f1, the least recently used, goes.
    let f1_entry: Vec<PathBuf> = entries(&dir);
    r.read(&files[2], LineSelection::tail(1)).unwrap();
    assert_eq!(cache.stats().dir_evicted, 1);
    let (s0, _) = entry_of(&files[0]);
    assert_eq!(s0.loaded, 1, "the recently used entry stays");
    let (s1, _) = entry_of(&files[1]);
    assert_eq!(
        (s1.loaded, s1.written),
        (0, 1),
        "the least recently used went"
    );
    assert_eq!(f1_entry.len(), 2);
    for f in &files[3..] {
        r.read(f, LineSelection::tail(1)).unwrap();
    }
    let total: u64 = entries(&dir)
        .iter()
        .map(|e| std::fs::metadata(e).unwrap().len())
        .sum();
    assert!(total <= budget, "{total} > {budget}");
    assert_eq!(entries(&dir).len(), 2);

    // An index larger than the whole budget is not written at all.
    let tiny = Arc::new(IndexCache::new(16 << 20).with_dir(&dir, one / 2).unwrap());
    let other = tmp.path().join("other.txt");
    std::fs::write(&other, &text).unwrap();
    counting(&tiny)
        .read(&other, LineSelection::tail(1))
        .unwrap();
    assert_eq!(tiny.stats().written, 0);
}

#[test]
fn concurrent_writers_and_readers_never_see_a_partial_entry() {
    let s = indexed();
    let n = line_count(&s.text);
    std::fs::remove_file(entries(&s.dir).pop().unwrap()).unwrap();
    let s = &s;
    std::thread::scope(|scope| {
        for w in 0..4 {
            scope.spawn(move || {
                for i in 0..15 {
                    // A new cache each time: each one writes the complete index again.
                    let cache = fresh(&s.dir);
                    let r = counting(&cache);
                    let tail = r.read(&s.file, LineSelection::tail(2)).unwrap();
                    assert_eq!(
                        tail.content,
                        naive_lines(&s.text, n - 1, n),
                        "writer {w}/{i}"
                    );
                }
            });
        }
        for t in 0..2 {
            scope.spawn(move || {
                for i in 0..40 {
                    let line = (i * 7919 + t * 104_729) % (n - 5) + 1;
                    let cache = fresh(&s.dir);
                    let got = reader(&cache)
                        .read(&s.file, LineSelection::from(line as u64..=line as u64 + 4))
                        .unwrap();
                    assert_eq!(got.content, naive_lines(&s.text, line, line + 4));
                    assert_eq!(cache.stats().rejected, 0, "reader {t}/{i}: a torn entry");
                }
            });
        }
    });
    // One whole entry, no temporary file left behind, and it loads.
    assert_eq!(all_files(&s.dir).len(), 1, "{:?}", all_files(&s.dir));
    let cache = check_deep(s, n / 2, n / 2 + 3);
    assert_eq!(cache.stats().loaded, 1);
}

#[test]
fn an_unusable_directory_never_fails_a_read() {
    let s = indexed();
    let n = line_count(&s.text);
    let cache = fresh(&s.dir);
    // The directory is replaced by a plain file after the cache was made: every load
    // and write fails.
    std::fs::remove_dir_all(&s.dir).unwrap();
    std::fs::write(&s.dir, b"not a directory").unwrap();
    let r = counting(&cache);
    let tail = r.read(&s.file, LineSelection::tail(2)).unwrap();
    assert_eq!(tail.content, naive_lines(&s.text, n - 1, n));
    let stats = cache.stats();
    assert_eq!(
        (stats.loaded, stats.written, stats.write_failures),
        (0, 0, 1)
    );
    // Once failed, the same index is not tried again on every read.
    r.read(&s.file, LineSelection::from(10..=12)).unwrap();
    assert_eq!(cache.stats().write_failures, 1);
    // And a directory that cannot be made is an error where the cache is made.
    let err = IndexCache::new(1 << 20)
        .with_dir(s.dir.join("sub"), 1 << 20)
        .unwrap_err();
    assert!(err.to_string().contains("sub"), "{err}");
}

#[test]
fn utf16_text_is_stored_with_its_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("wide.txt");
    let text = String::from_utf8(real_text(1 << 20)).unwrap();
    let mut bytes = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    std::fs::write(&file, &bytes).unwrap();
    let dir = tmp.path().join("idx");
    let cache = fresh(&dir);
    counting(&cache)
        .read(&file, LineSelection::tail(1))
        .unwrap();
    assert_eq!(cache.stats().written, 1);
    let n = line_count(text.as_bytes());
    let cache = fresh(&dir);
    let got = reader(&cache)
        .read(&file, LineSelection::from(n as u64 / 2..=n as u64 / 2 + 3))
        .unwrap();
    assert_eq!(got.content, naive_lines(text.as_bytes(), n / 2, n / 2 + 3));
    assert_eq!(cache.stats().loaded, 1);
}

#[test]
fn bytes_in_memory_and_small_files_are_not_stored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    let cache = fresh(&dir);
    let r = counting(&cache);
    let text = real_text(2 << 20);
    let mut doc = r.document(rangeread::Source::from_bytes(text.clone(), "mem.txt"));
    doc.read(LineSelection::tail(1)).unwrap();
    let small = tmp.path().join("small.txt");
    std::fs::write(&small, &text[..100_000]).unwrap();
    r.read(&small, LineSelection::tail(1)).unwrap();
    assert!(entries(&dir).is_empty());
    assert_eq!(cache.stats().written, 0);
}

/// Builds (if needed) the `read` example of this profile and returns its path.
fn read_example() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().unwrap().parent().unwrap();
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo
        .args(["build", "--quiet", "--example", "read"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if profile_dir.ends_with("release") {
        cargo.arg("--release");
    }
    assert!(
        cargo.status().unwrap().success(),
        "cargo build --example read"
    );
    profile_dir.join("examples").join("read")
}

#[test]
fn the_cli_reuses_its_index_dir_in_a_fresh_process() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("real.txt");
    let text = real_text(3 << 20);
    std::fs::write(&file, &text).unwrap();
    let dir = tmp.path().join("no/such/idx");
    let n = line_count(&text);
    let exe = read_example();
    // JSON output reports totals, so the first run counts the whole file.
    let run = |lines: &str| {
        let out = std::process::Command::new(&exe)
            .args(["--lines", lines, "--format", "json", "--max-bytes", "0"])
            .arg("--index-dir")
            .arg(&dir)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["total_lines"], n as u64);
        v["content"].as_str().unwrap().to_string()
    };
    // The first run stores the index, creating DIR.
    let last = run("-3:");
    assert_eq!(last, naive_lines(&text, n - 2, n));
    let stored = entries(&dir);
    assert_eq!(stored.len(), 1);
    let written = std::fs::metadata(&stored[0]).unwrap().modified().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    // The second process loads it (renewing it for the budget's order) and reads deep.
    let deep = n * 9 / 10;
    let got = run(&format!("{deep}:+250"));
    assert_eq!(
        got,
        naive_lines(&text, deep, deep + 250),
        "A:+N is lines A..=A+N"
    );
    let used = std::fs::metadata(&stored[0]).unwrap().modified().unwrap();
    assert!(
        used > written,
        "the entry was loaded: {used:?} vs {written:?}"
    );
    assert!(used <= SystemTime::now());
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_link_in_place_of_an_entry_is_not_followed() {
    let s = indexed();
    let entry = entries(&s.dir).pop().unwrap();
    let n = line_count(&s.text);
    // A link to a valid entry elsewhere: not followed.
    let elsewhere = s.dir.with_file_name("elsewhere.rrindex");
    std::fs::rename(&entry, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &entry).unwrap();
    let cache = check_deep(&s, n / 2, n / 2 + 3);
    assert_eq!(cache.stats().loaded, 0);
    // A FIFO: opening it must not block the read.
    std::fs::remove_file(&entry).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&entry)
        .status()
        .expect("mkfifo (coreutils) is needed by this test");
    assert!(status.success());
    let cache = check_deep(&s, n / 2, n / 2 + 3);
    assert_eq!(cache.stats().loaded, 0);
}

#[cfg(unix)]
#[test]
fn an_index_is_not_filed_under_a_path_that_now_names_another_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a.txt"), tmp.path().join("b.txt"));
    let text = real_text(2 << 20);
    std::fs::write(&a, &text).unwrap();
    std::fs::write(&b, b"another file\n").unwrap();
    let link = tmp.path().join("current.txt");
    std::os::unix::fs::symlink(&a, &link).unwrap();
    let dir = tmp.path().join("idx");
    let cache = fresh(&dir);
    let r = counting(&cache);
    let mut doc = r.open(&link).unwrap();
    // The link is pointed at another file while the document is open (a new link renamed
    // over it: the opened file itself is untouched, so the read goes on).
    let next = tmp.path().join("next.txt");
    std::os::unix::fs::symlink(&b, &next).unwrap();
    std::fs::rename(&next, &link).unwrap();
    let n = line_count(&text);
    let tail = doc.read(LineSelection::tail(1)).unwrap();
    assert_eq!(tail.content, naive_lines(&text, n, n));
    // Its path now resolves to b.txt: the index of a.txt is not filed under it.
    assert_eq!(cache.stats().written, 0);
    assert!(entries(&dir).is_empty());
    // Opened through the link as it is now, a.txt itself is stored as usual.
    let cache = fresh(&dir);
    counting(&cache).read(&a, LineSelection::tail(1)).unwrap();
    assert_eq!(cache.stats().written, 1);
}
