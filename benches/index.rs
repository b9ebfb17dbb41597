//! In-process benchmarks: index build throughput against plain memchr counting, reads
//! with a built index, and byte ranges at different depths.
//!
//! The file benches use a generated 256 MiB file under `bench-data/` (made once).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rangeread::{ByteSelection, LineIndex, LineSelection, Reader, Source, Totals};

const FILE_SIZE: u64 = 256 << 20;

fn bench_file() -> PathBuf {
    let dir = rangeread_bench::bench_data();
    let path = dir.join(format!("lines-{FILE_SIZE}.txt"));
    if std::fs::metadata(&path).map(|m| m.len()).ok() != Some(FILE_SIZE) {
        let status = std::process::Command::new("python3")
            .arg(rangeread_bench::repo_root().join("benches/gen_lines.py"))
            .arg(&path)
            .arg(FILE_SIZE.to_string())
            .status()
            .unwrap();
        assert!(status.success());
    }
    path
}

fn index_build(c: &mut Criterion) {
    let path = bench_file();
    let bytes: std::sync::Arc<[u8]> = std::fs::read(&path).unwrap()[..64 << 20].into();
    let mut g = c.benchmark_group("index_build_64MiB");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function("memchr_count", |b| {
        b.iter(|| memchr::memchr_iter(b'\n', black_box(&bytes)).count())
    });
    let src = Source::from_bytes(bytes.clone(), "mem");
    g.bench_function("line_index_memory", |b| {
        b.iter(|| {
            LineIndex::new(src.len())
                .total_lines(black_box(&src))
                .unwrap()
        })
    });
    let file_src = Source::open(&path).unwrap();
    g.bench_function("line_index_pread_256MiB_scaled", |b| {
        // Same 64 MiB through positional reads.
        b.iter(|| {
            let mut ix = LineIndex::new(file_src.len());
            ix.line_of_offset(black_box(&file_src), 64 << 20).unwrap()
        })
    });
    g.finish();
    let mut ix = LineIndex::new(file_src.len());
    ix.total_lines(&file_src).unwrap();
    println!(
        "index memory for {} MiB: {} bytes ({:.4}% of the file)",
        FILE_SIZE >> 20,
        ix.memory_bytes(),
        ix.memory_bytes() as f64 * 100.0 / FILE_SIZE as f64
    );
}

fn reads_with_index(c: &mut Criterion) {
    let path = bench_file();
    let mut doc = Reader::new().totals(Totals::Always).open(&path).unwrap();
    let total = doc.total_lines().unwrap();
    let mut g = c.benchmark_group("read_250_lines_indexed");
    for pct in [1u64, 50, 90, 99] {
        let start = total * pct / 100;
        g.bench_function(format!("at_{pct}pct"), |b| {
            b.iter(|| doc.read(LineSelection::from(start..=start + 249)).unwrap())
        });
    }
    g.bench_function("tail_250", |b| {
        b.iter(|| doc.read(LineSelection::tail(250)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("read_64KiB_bytes");
    let mut doc = Reader::new()
        .max_bytes(0)
        .totals(Totals::IfKnown)
        .open(&path)
        .unwrap();
    for pct in [1u64, 50, 99] {
        let s = FILE_SIZE * pct / 100;
        g.bench_function(format!("at_{pct}pct"), |b| {
            b.iter(|| {
                doc.read(ByteSelection::new(Some(s), Some(s + 65536)))
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, index_build, reads_with_index);
criterion_main!(benches);
