//! Classification of one 8 KiB sample, for the kinds of content that take different
//! paths: ASCII source, UTF-8 prose, a binary with magic, binary without magic (NUL
//! bytes), UTF-16 without a BOM, and legacy encodings (the only ones that call chardetng:
//! dense CJK, and windows-1252 both dense and scattered through ASCII source). Needs
//! the default feature `legacy-encodings`.
//!
//! `cargo bench -p rangeread-bench --bench classify`; the target is at most 20 µs per 8 KiB sample.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const N: usize = 8 * 1024;

fn fill(unit: &[u8]) -> Vec<u8> {
    unit.iter().copied().cycle().take(N).collect()
}

fn samples() -> Vec<(&'static str, Vec<u8>)> {
    let source = fill(b"fn main() {\n    let x = vec![1, 2, 3];\n    println!(\"{x:?}\");\n}\n");
    let prose = fill("Grüße aus Köln — “naïve” café, 日本語のテキスト, Ελληνικά.\n".as_bytes());
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend((0..N - png.len()).map(|i| (i * 7919 % 251) as u8));
    let nul: Vec<u8> = (0..N).map(|i| (i * 7919 % 251) as u8).collect();
    let utf16: Vec<u8> = fill(
        &"Plain log line 1234\r\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect::<Vec<_>>(),
    );
    let cp1252 =
        fill(b"Caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade \x93quoted\x94 \x80 20.\n");
    let sjis = fill(b"\x8c\xe1\x94y\x82\xcd\x94L\x82\xc5\x82\xa0\x82\xe9\x81B\x96\xbc\x91O\x82\xcd\x82\xdc\x82\xbe\x96\xb3\x82\xa2\x81B\n");
    // Encoded from Unicode text, so that each sample is what the encoding's users write.
    let encode = |enc: &'static encoding_rs::Encoding, text: &str| fill(&enc.encode(text).0);
    let gbk = encode(
        encoding_rs::GBK,
        "北京是中华人民共和国的首都，也是全国的政治和文化中心。今天天气很好，我们去公园散步吧。\n",
    );
    let euc_kr = encode(
        encoding_rs::EUC_KR,
        "대한민국의 수도는 서울이며, 한국어는 한글로 적습니다. 오늘은 날씨가 맑고 따뜻합니다.\n",
    );
    let big5 = encode(
        encoding_rs::BIG5,
        "臺灣的首都是臺北，繁體中文在這裡使用。今天的天氣很好，我們一起去公園散步吧。\n",
    );
    // A windows-1252 source file: ASCII code with an accented name in a comment now and
    // then, the common case of a legacy file among sources.
    let mut scattered = Vec::new();
    while scattered.len() < N {
        scattered.extend_from_slice(
            b"    let total = items.iter().map(|i| i.price * i.quantity).sum::<u64>();\n",
        );
        scattered.extend_from_slice(
            b"    // Fran\xe7ois: d\xe9j\xe0 v\xfb, the na\xefve total is fine here.\n",
        );
        scattered.extend_from_slice(b"    assert!(total > 0, \"empty order {}\", order.id);\n\n");
    }
    scattered.truncate(N);
    vec![
        ("ascii_source", source),
        ("utf8_prose", prose),
        ("png_magic", png),
        ("binary_nul", nul),
        ("utf16le_no_bom", utf16),
        ("windows_1252", cp1252),
        ("shift_jis", sjis),
        ("gbk", gbk),
        ("euc_kr", euc_kr),
        ("big5", big5),
        ("windows_1252_scattered", scattered),
    ]
}

/// The encoding each legacy sample must be read as (a fast wrong guess is no speed-up).
fn expected(name: &str) -> Option<&'static str> {
    Some(match name {
        "windows_1252" | "windows_1252_scattered" => "windows-1252",
        "shift_jis" => "shift_jis",
        "gbk" => "gbk",
        "euc_kr" => "euc-kr",
        "big5" => "big5",
        _ => return None,
    })
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("classify_8k");
    g.throughput(Throughput::Bytes(N as u64));
    for (name, sample) in samples() {
        assert_eq!(sample.len(), N);
        // Each sample takes the path it is named for.
        let binary = name.starts_with("png") || name.starts_with("binary");
        let c = rangeread::classify(&sample);
        assert_eq!(c.is_text(), !binary, "{name}");
        if let Some(enc) = expected(name) {
            assert_eq!(c.encoding().map(|e| e.name()), Some(enc), "{name}");
        }
        g.bench_function(name, |b| b.iter(|| rangeread::classify(black_box(&sample))));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
