//! The shared index cache on the 1 GiB file of `benches/compare.sh`: repeated reads
//! through the cache, the first read against an uncached one, and a read after 1 MiB
//! was appended. The same for a session store on a 1 GiB Claude Code transcript
//! (`scripts/gen_claude_transcript.py`): the last 20 messages with the exact message
//! count, cached, and after 1 MiB of records was appended.

use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rangeread::sessions::{read_session_messages, ClaudeStore, Order, SessionQuery};
use rangeread::{IndexCache, LineSelection, Reader, Totals};

const SIZE: u64 = 1 << 30;

fn big_file(name: &str) -> PathBuf {
    let root = rangeread_bench::repo_root();
    let path = root.join("bench-data").join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if std::fs::metadata(&path).map(|m| m.len()).ok() != Some(SIZE) {
        let ok = std::process::Command::new("python3")
            .arg(root.join("benches/gen_lines.py"))
            .arg(&path)
            .arg(SIZE.to_string())
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
    path
}

/// Appends `bytes` to the file at `path`.
fn append(path: &Path, bytes: &[u8]) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(bytes).unwrap();
}

/// The whole lines in the first MiB of the file at `path`.
fn first_mib_of_lines(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut buf = vec![0; 1 << 20];
    std::fs::File::open(path)
        .unwrap()
        .read_exact(&mut buf)
        .unwrap();
    let end = buf.iter().rposition(|&b| b == b'\n').unwrap() + 1;
    buf.truncate(end);
    buf
}

fn cached_reads(c: &mut Criterion) {
    let path = big_file("lines-1073741824.txt");
    let deep = LineSelection::from(18_000_000..=18_000_249);
    // The first read through a fresh cache against an uncached read, alternately, after
    // a warm-up read that brings the file into the page cache.
    Reader::new()
        .totals(Totals::Always)
        .read(&path, deep)
        .unwrap();
    let (mut first, mut uncached) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let fresh = Reader::new()
            .totals(Totals::Always)
            .cache(Arc::new(IndexCache::new(64 << 20)));
        let t = Instant::now();
        fresh.read(&path, deep).unwrap();
        first.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        Reader::new()
            .totals(Totals::Always)
            .read(&path, deep)
            .unwrap();
        uncached.push(t.elapsed().as_secs_f64());
    }
    first.sort_by(f64::total_cmp);
    uncached.sort_by(f64::total_cmp);
    println!(
        "first read through a fresh cache: median {:.1} ms; uncached: median {:.1} ms; ratio {:.3}",
        first[3] * 1e3,
        uncached[3] * 1e3,
        first[3] / uncached[3]
    );
    let cache = Arc::new(IndexCache::new(64 << 20));
    let reader = Reader::new().totals(Totals::Always).cache(cache.clone());
    reader.read(&path, deep).unwrap();
    let mut g = c.benchmark_group("cache_1GiB");
    g.bench_function("read_250_lines_at_90pct_cached", |b| {
        b.iter(|| black_box(reader.read(&path, deep).unwrap()))
    });
    let plain = Reader::new()
        .totals(Totals::Always)
        .cache(cache.clone())
        .summaries(false);
    g.bench_function("read_250_lines_at_90pct_cached_no_summaries", |b| {
        b.iter(|| black_box(plain.read(&path, deep).unwrap()))
    });
    g.bench_function("tail_250_cached", |b| {
        b.iter(|| black_box(reader.read(&path, LineSelection::tail(250)).unwrap()))
    });
    g.finish();
}

fn append_then_read(c: &mut Criterion) {
    // A private copy: this benchmark appends to it.
    let src = big_file("lines-1073741824.txt");
    let path = src.with_file_name("append-copy.txt");
    std::fs::copy(&src, &path).unwrap();
    let cache = Arc::new(IndexCache::new(64 << 20));
    let reader = Reader::new().totals(Totals::Always).cache(cache.clone());
    reader.read(&path, LineSelection::tail(1)).unwrap();
    let chunk = first_mib_of_lines(&src);
    let mut g = c.benchmark_group("cache_append");
    g.sample_size(20);
    g.bench_function("read_after_appending_1MiB", |b| {
        b.iter_batched(
            || append(&path, &chunk),
            |_| black_box(reader.read(&path, LineSelection::tail(250)).unwrap()),
            BatchSize::PerIteration,
        )
    });
    g.finish();
    println!("cache stats: {:?}", cache.stats());
    std::fs::remove_file(&path).unwrap();
}

/// A private 1 GiB Claude Code transcript in a store directory of its own.
fn big_transcript() -> (PathBuf, PathBuf, &'static str) {
    const ID: &str = "b3f1c2d4-0000-4000-8000-00000000b1b1";
    let root = rangeread_bench::repo_root();
    let store = root.join("bench-data/claude-cache");
    let path = store.join(format!("projects/-work-bench/{ID}.jsonl"));
    if std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) < SIZE {
        let ok = std::process::Command::new("python3")
            .arg(root.join("scripts/gen_claude_transcript.py"))
            .arg(&path)
            .args(["--size-mib", "1024"])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
    (store, path, ID)
}

fn session_reads(c: &mut Criterion) {
    let (dir, path, id) = big_transcript();
    let original = std::fs::metadata(&path).unwrap().len();
    let cache = Arc::new(IndexCache::new(64 << 20));
    let store = ClaudeStore::open(&dir).unwrap().cache(cache.clone());
    let q = SessionQuery::id(id).order(Order::Newest).limit(20);
    let t = Instant::now();
    let first = read_session_messages(&store, &q).unwrap();
    println!(
        "first counted read of the 1 GiB transcript ({} messages): {:.0} ms",
        first.message_count.unwrap(),
        t.elapsed().as_secs_f64() * 1e3
    );
    // Whole records from the start of the file, 1 MiB of them.
    let head = first_mib_of_lines(&path);
    let mut g = c.benchmark_group("sessions_1GiB");
    g.sample_size(20);
    g.bench_function("newest_20_counted_cached", |b| {
        b.iter(|| black_box(read_session_messages(&store, &q).unwrap()))
    });
    g.bench_function("newest_20_counted_after_appending_1MiB", |b| {
        b.iter_batched(
            || append(&path, &head),
            |_| black_box(read_session_messages(&store, &q).unwrap()),
            BatchSize::PerIteration,
        )
    });
    g.finish();
    println!("cache stats: {:?}", cache.stats());
    // Back to the generated size for the next run.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(original)
        .unwrap();
}

criterion_group!(benches, cached_reads, append_then_read, session_reads);
criterion_main!(benches);
