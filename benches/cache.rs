//! The shared index cache on the 1 GiB file of `benches/compare.sh`: repeated reads
//! through the cache, the first read against an uncached one, and a read after 1 MiB
//! was appended.

use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rangeread::{IndexCache, LineSelection, Reader, Totals};

const SIZE: u64 = 1 << 30;

fn big_file(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
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
    g.bench_function("tail_250_cached", |b| {
        b.iter(|| black_box(reader.read(&path, LineSelection::Tail(250)).unwrap()))
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
    reader.read(&path, LineSelection::Tail(1)).unwrap();
    let chunk: Vec<u8> = std::fs::read(&src).unwrap()[..1 << 20].to_vec();
    let mut g = c.benchmark_group("cache_append");
    g.sample_size(20);
    g.bench_function("read_after_appending_1MiB", |b| {
        b.iter_batched(
            || {
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .unwrap();
                f.write_all(&chunk).unwrap();
            },
            |_| black_box(reader.read(&path, LineSelection::Tail(250)).unwrap()),
            BatchSize::PerIteration,
        )
    });
    g.finish();
    println!("cache stats: {:?}", cache.stats());
    std::fs::remove_file(&path).unwrap();
}

criterion_group!(benches, cached_reads, append_then_read);
criterion_main!(benches);
