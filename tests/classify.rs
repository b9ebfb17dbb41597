//! Classification and encodings, on the corpus made by tests/corpus/make.py: every file
//! is classified as the manifest says, every text file reads back as the expected text
//! through every backend, and UTF-16 line and byte selections work in file bytes.

use std::path::{Path, PathBuf};

use rangeread::{
    classify, classify_file, is_text, ByteSelection, Classification, Document, Encoding, Error,
    LineEnding, LineSelection, Reader, Snap, Source,
};
use serde_json::Value;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn file(name: &str) -> PathBuf {
    corpus_dir().join("files").join(name)
}

fn manifest() -> Vec<Value> {
    let text = std::fs::read_to_string(corpus_dir().join("manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Legacy encodings are detected in every build (a feature never changes an answer).
fn expected_encoding(entry: &Value) -> &str {
    entry["encoding"].as_str().unwrap()
}

/// The line ending a reader must report for `text`.
fn line_ending_of(text: &str) -> LineEnding {
    let crlf = text.matches("\r\n").count();
    let lf = text.matches('\n').count() - crlf;
    match (lf > 0, crlf > 0) {
        (true, true) => LineEnding::Mixed,
        (true, false) => LineEnding::Lf,
        (false, true) => LineEnding::Crlf,
        (false, false) => LineEnding::None,
    }
}

#[test]
fn corpus_is_classified_right() {
    let entries = manifest();
    assert!(entries.len() >= 40);
    for e in &entries {
        let name = e["file"].as_str().unwrap();
        let c = classify_file(file(name)).unwrap();
        let want_text = e["verdict"] == "text";
        assert_eq!(c.is_text(), want_text, "{name}: {c:?}");
        assert_eq!(is_text(file(name)).unwrap(), want_text, "{name}");
        match c {
            Classification::Binary(b) => {
                assert_eq!(b.mime, e["mime"].as_str().unwrap(), "{name}");
            }
            Classification::Text(t) => {
                assert_eq!(t.encoding.name(), expected_encoding(e), "{name}: {t:?}");
                assert_eq!(t.bom_len > 0, e["bom"].as_bool().unwrap(), "{name}");
                assert_eq!(t.mime, e["mime"].as_str(), "{name}");
                assert!((0.0..=1.0).contains(&t.confidence), "{name}: {t:?}");
                if t.encoding == Encoding::Utf8 {
                    assert_eq!(t.confidence, 1.0, "{name}");
                }
            }
        }
    }
}

#[test]
fn binary_files_fail_with_the_contract_message() {
    for e in manifest().iter().filter(|e| e["verdict"] == "binary") {
        let name = e["file"].as_str().unwrap();
        let mime = e["mime"].as_str().unwrap();
        let err = Reader::new()
            .read(file(name), LineSelection::head(10))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "Binary files are not supported. File detected as {mime}. Please use another tool or method to process this file."
            )
        );
        assert_eq!(err.kind().as_str(), "binary");
        assert!(
            matches!(&err, Error::Binary { mime: m, .. } if m == mime),
            "{name}"
        );
        // Documents made from a source classify on the first read.
        let bytes = std::fs::read(file(name)).unwrap();
        let mut doc = Reader::new().document(Source::from_bytes(bytes, name));
        assert!(
            matches!(
                doc.read(ByteSelection::from(0..10u64)),
                Err(Error::Binary { .. })
            ),
            "{name}"
        );
        assert!(
            matches!(doc.total_lines(), Err(Error::Binary { .. })),
            "{name}"
        );
    }
}

/// Every way to open the same file: positional reads (default and tiny buffers), bytes
/// in memory, and the memory map.
fn documents(name: &str, reader: &Reader) -> Vec<(String, Document)> {
    let path = file(name);
    let bytes = std::fs::read(&path).unwrap();
    let mut docs = vec![
        ("pread".to_string(), reader.open(&path).unwrap()),
        (
            "memory".to_string(),
            reader.document(Source::from_bytes(bytes, &path)),
        ),
    ];
    for chunk in [1, 3, 7] {
        let mut src = Source::open(&path).unwrap();
        src.set_chunk_size(chunk);
        let tiny = reader.clone().index_block_size(chunk as u64 + 2);
        docs.push((format!("pread chunk {chunk}"), tiny.document(src)));
    }
    if !bytes_empty(&path) {
        // SAFETY: the corpus is not modified while the tests run.
        let src = unsafe { Source::open_mmap(&path).unwrap() };
        docs.push(("mmap".to_string(), reader.document(src)));
    }
    docs
}

fn bytes_empty(path: &Path) -> bool {
    std::fs::metadata(path).unwrap().len() == 0
}

#[test]
fn corpus_text_reads_right() {
    for e in manifest().iter().filter(|e| e["verdict"] == "text") {
        let name = e["file"].as_str().unwrap();
        let want = e["text"].as_str().unwrap();
        let reader = Reader::new().max_line_chars(0);
        for (backend, mut doc) in documents(name, &reader) {
            let r = doc.read(LineSelection::default()).unwrap();
            let ctx = format!("{name} via {backend}");
            assert_eq!(r.encoding, expected_encoding(e), "{ctx}");
            assert_eq!(r.bom, e["bom"].as_bool().unwrap(), "{ctx}");
            assert!(!r.is_partial, "{ctx}");
            assert_eq!(r.truncated, None, "{ctx}");
            assert_eq!(r.content, want, "{ctx}");
            assert_eq!(r.invalid_utf8, None, "{ctx}");
            // Plain output (render_to) writes these bytes: UTF-8 in every encoding.
            assert_eq!(r.raw_bytes(), want.as_bytes(), "{ctx}");
            assert_eq!(r.line_ending, line_ending_of(want), "{ctx}");
            let lines = want.matches('\n').count() as u64
                + u64::from(!want.is_empty() && !want.ends_with('\n'));
            assert_eq!(r.total_lines, Some(lines), "{ctx}");
            assert_eq!(r.percent_of_file, 100.0, "{ctx}");
            // The last line alone, found backwards from the end.
            if lines > 0 {
                let last = doc.read(LineSelection::tail(1)).unwrap();
                let want_last = want.trim_end_matches('\n');
                let want_last = &want[want_last.rfind('\n').map_or(0, |i| i + 1)..];
                assert_eq!(last.content, want_last, "{ctx}");
                assert_eq!(last.lines.map(|l| l.start), Some(lines), "{ctx}");
            }
        }
    }
}

/// Pages through a whole file with byte selections under a tiny byte budget.
fn read_paged(doc: &mut Document) -> String {
    let mut out = String::new();
    let mut next = 0;
    loop {
        let r = doc.read(ByteSelection::new(Some(next), None)).unwrap();
        assert!(
            r.bytes.start >= next,
            "pages go forward: {next} -> {:?} in {}",
            r.bytes,
            r.path
        );
        out.push_str(&r.content);
        match r.truncated {
            Some(t) => {
                assert!(t.next_start_byte > next, "pages make progress");
                next = t.next_start_byte;
            }
            None => return out,
        }
    }
}

/// Pages through a whole file from line 1 following the continuations: the next line
/// when a page ended at a line boundary, else the next byte.
fn read_paged_lines(doc: &mut Document) -> String {
    let mut out = String::new();
    let mut next = (Some(1), 0);
    loop {
        let r = match next {
            (Some(line), _) => doc.read(LineSelection::offset_limit(line, None)),
            (None, byte) => doc.read(ByteSelection::new(Some(byte), None)),
        }
        .unwrap();
        out.push_str(&r.content);
        match r.truncated {
            Some(t) => {
                assert!(t.next_start_byte >= r.bytes.end, "pages make progress");
                next = (t.next_start_line, t.next_start_byte);
            }
            None => return out,
        }
    }
}

#[test]
fn paging_yields_every_character_once_in_every_encoding() {
    for e in manifest().iter().filter(|e| e["verdict"] == "text") {
        let name = e["file"].as_str().unwrap();
        let want = e["text"].as_str().unwrap();
        let size = std::fs::metadata(file(name)).unwrap().len();
        for max in [1, 2, 5, 7, 64] {
            if max < 64 && size > 2048 {
                continue; // byte-sized pages of the 8 KiB files add time, not coverage
            }
            let reader = Reader::new()
                .max_bytes(max)
                .max_line_chars(0)
                .totals(rangeread::Totals::Always);
            for (backend, mut doc) in documents(name, &reader) {
                assert_eq!(
                    read_paged(&mut doc),
                    want,
                    "{name} via {backend}, max_bytes {max}"
                );
            }
            let reader = Reader::new()
                .max_bytes(max)
                .max_lines(2)
                .max_line_chars(0)
                .totals(rangeread::Totals::Always);
            let mut doc = reader.open(file(name)).unwrap();
            assert_eq!(
                read_paged_lines(&mut doc),
                want,
                "{name} lines, max_bytes {max}"
            );
        }
    }
}

// --- UTF-16: line and byte selections ------------------------------------------------

const UTF16_TEXT: &str = "First line\nSecond: naïve café\nThird: 日本語 and 😀 emoji\nlast line\n";

fn utf16le(text: &str, bom: bool) -> Vec<u8> {
    let mut v = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
    v.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    v
}

fn utf16be(text: &str, bom: bool) -> Vec<u8> {
    let mut v = if bom { vec![0xFE, 0xFF] } else { Vec::new() };
    v.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    v
}

/// File offset of the `n`th char of `text` in UTF-16 (after a BOM of `bom` bytes).
fn u16_offset(text: &str, chars: usize, bom: u64) -> u64 {
    bom + text
        .chars()
        .take(chars)
        .map(|c| c.len_utf16() as u64 * 2)
        .sum::<u64>()
}

#[test]
fn utf16_line_selections() {
    for (bytes, bom) in [
        (utf16le(UTF16_TEXT, true), 2),
        (utf16le(UTF16_TEXT, false), 0),
        (utf16be(UTF16_TEXT, true), 2),
        (utf16be(UTF16_TEXT, false), 0),
    ] {
        let mut doc = Reader::new().document(Source::from_bytes(bytes.clone(), "u16.txt"));
        assert_eq!(doc.total_lines().unwrap(), 4);
        let r = doc.read(LineSelection::from(2..=3)).unwrap();
        assert_eq!(
            r.content,
            "Second: naïve café\nThird: 日本語 and 😀 emoji\n"
        );
        assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((2, 3)));
        // The byte span is in file bytes: line 2 starts after "First line\n".
        let line2 = u16_offset(UTF16_TEXT, "First line\n".chars().count(), bom);
        let line4 = u16_offset(
            UTF16_TEXT,
            UTF16_TEXT
                .rfind("last")
                .map(|i| UTF16_TEXT[..i].chars().count())
                .unwrap(),
            bom,
        );
        assert_eq!((r.bytes.start, r.bytes.end), (line2, line4));
        assert_eq!(r.line_ending, LineEnding::Lf);
        assert!(r.is_partial);
        let omitted = r.omitted.unwrap();
        assert_eq!(
            (omitted.before_lines, omitted.after_lines),
            (Some(1), Some(1))
        );

        let head = doc.read(LineSelection::head(1)).unwrap();
        assert_eq!(head.content, "First line\n");
        assert_eq!(head.bytes.start, bom, "line 1 starts after the BOM");
        assert_eq!(head.bom, bom > 0);

        let tail = doc.read(LineSelection::range(Some(-2), None)).unwrap();
        assert_eq!(tail.content, "Third: 日本語 and 😀 emoji\nlast line\n");
        assert_eq!(tail.lines.map(|l| (l.start, l.end)), Some((3, 4)));

        let err = doc.read(LineSelection::from(9..=10)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Invalid range specified: start_line (9) is beyond the end of the file (4 lines)."
        );
        // Line budget: a continuation line number in the same numbering.
        let mut small = Reader::new()
            .max_lines(1)
            .document(Source::from_bytes(bytes, "u16.txt"));
        let p = small.read(LineSelection::head(3)).unwrap();
        assert_eq!(p.content, "First line\n");
        assert_eq!(p.truncated.unwrap().next_start_line, Some(2));
        assert_eq!(p.truncated.unwrap().next_start_byte, line2);
    }
}

#[test]
fn utf16_crlf_and_long_line_cuts() {
    let text = "ab\r\ncd\r\nxyz😀😀😀tail\r\n";
    let mut doc = Reader::new()
        .max_line_chars(5)
        .document(Source::from_bytes(utf16le(text, true), "crlf.txt"));
    let r = doc.read(LineSelection::default()).unwrap();
    assert_eq!(r.line_ending, LineEnding::Crlf);
    // Line 3 is cut after 5 characters (x y z 😀 😀), never inside a surrogate pair.
    assert_eq!(r.content, "ab\r\ncd\r\nxyz😀😀\r\n");
    let cut = r.cut_lines[0];
    assert_eq!(cut.line, 3);
    assert_eq!(cut.shown_bytes, 2 * 3 + 4 * 2);
    assert_eq!(cut.total_bytes, 2 * 3 + 4 * 3 + 2 * 4);
    // The rest of the line is a byte selection away, in file bytes.
    let rest = doc
        .read(ByteSelection::new(Some(cut.next_start_byte), None))
        .unwrap();
    assert_eq!(rest.content, "😀tail\r\n");
}

#[test]
fn utf16_byte_selections_snap_to_code_units_and_pairs() {
    let text = "a😀b\nc";
    for (bytes, name) in [(utf16le(text, true), "le"), (utf16be(text, true), "be")] {
        // Layout: BOM 0-2, a 2-4, 😀 4-8 (pair), b 8-10, \n 10-12, c 12-14.
        let mut doc = Reader::new().document(Source::from_bytes(bytes, name));
        let r = doc.read(ByteSelection::new(Some(2), Some(4))).unwrap();
        assert_eq!(r.content, "a", "{name}");
        assert!(!r.adjustments.start_adjusted && !r.adjustments.end_adjusted);

        // Odd offsets widen to whole code units.
        let r = doc.read(ByteSelection::new(Some(3), Some(9))).unwrap();
        assert_eq!(r.content, "a😀b", "{name}");
        assert_eq!((r.bytes.start, r.bytes.end), (2, 10));
        assert!(r.adjustments.start_adjusted && r.adjustments.end_adjusted);
        assert_eq!(r.requested.bytes.map(|b| (b.start, b.end)), Some((3, 9)));

        // Between the halves of the surrogate pair: widened to the whole pair.
        let r = doc.read(ByteSelection::new(Some(6), Some(6))).unwrap();
        assert_eq!(r.content, "😀", "{name}");
        assert_eq!((r.bytes.start, r.bytes.end), (4, 8));
        let r = doc.read(ByteSelection::new(Some(6), Some(10))).unwrap();
        assert_eq!(r.content, "😀b", "{name}");
        let r = doc.read(ByteSelection::new(Some(2), Some(6))).unwrap();
        assert_eq!(r.content, "a😀", "{name}");

        // Byte 0 is inside the BOM: the read starts after it.
        let r = doc.read(ByteSelection::new(Some(0), None)).unwrap();
        assert_eq!(r.content, text, "{name}");
        assert_eq!(r.bytes.start, 2);
        assert!(!r.is_partial);
        let r = doc.read(ByteSelection::new(Some(0), Some(1))).unwrap();
        assert_eq!(r.content, "");

        // Snap to lines, in file bytes.
        let r = doc
            .read(ByteSelection::new(Some(5), Some(6)).snap(Snap::Line))
            .unwrap();
        assert_eq!(r.content, "a😀b\n", "{name}");
        assert_eq!((r.bytes.start, r.bytes.end), (2, 12));
        let r = doc
            .read(ByteSelection::new(Some(13), None).snap(Snap::Line))
            .unwrap();
        assert_eq!(r.content, "c", "{name}");

        // A byte budget never splits a pair: the page ends before it, the next holds it.
        let mut small = Reader::new()
            .max_bytes(4)
            .document(Source::from_bytes(utf16le(text, true), name));
        let p = small.read(ByteSelection::new(Some(2), None)).unwrap();
        assert_eq!(p.content, "a");
        assert_eq!(p.truncated.unwrap().next_start_byte, 4);
        let p = small.read(ByteSelection::new(Some(4), None)).unwrap();
        assert_eq!(p.content, "😀");
    }
}

#[test]
fn utf16_unpaired_surrogates_are_lossy_or_strict() {
    // "a", a lone high surrogate, "b".
    let bytes = vec![0xFF, 0xFE, b'a', 0, 0x3D, 0xD8, b'b', 0, b'\n', 0];
    let mut doc = Reader::new().document(Source::from_bytes(bytes.clone(), "bad16.txt"));
    let r = doc.read(LineSelection::default()).unwrap();
    assert_eq!(r.content, "a\u{FFFD}b\n");
    let inv = r.invalid_utf8.unwrap();
    assert_eq!((inv.count, inv.first_offset), (1, 4));
    // Plain output of a UTF-16 file is its decoded text, not UTF-16 bytes.
    assert_eq!(r.raw_bytes(), "a\u{FFFD}b\n".as_bytes());
    let mut strict = Reader::new()
        .utf8_policy(rangeread::Utf8Policy::Strict)
        .document(Source::from_bytes(bytes, "bad16.txt"));
    let err = strict.read(LineSelection::default()).unwrap_err();
    assert_eq!(err.to_string(), "Invalid utf-16le at byte 4");
}

// --- BOMs, legacy encodings, edges ------------------------------------------------

#[test]
fn utf8_bom_is_reported_not_returned() {
    let mut doc = Reader::new().open(file("bom-utf8.txt")).unwrap();
    let r = doc.read(LineSelection::head(1)).unwrap();
    assert_eq!(r.content, "BOM first\n");
    assert!(r.bom);
    assert_eq!(r.encoding, "utf-8");
    assert_eq!(r.bytes.start, 3);
    let r = doc.read(ByteSelection::new(Some(0), Some(6))).unwrap();
    assert_eq!(r.content, "BOM");
    assert_eq!((r.bytes.start, r.bytes.end), (3, 6));
    assert!(r.adjustments.start_adjusted);
    let r = doc.read(ByteSelection::new(Some(3), Some(6))).unwrap();
    assert!(!r.adjustments.start_adjusted);
    // A BOM alone is an empty text: 0 lines.
    let mut only = Reader::new().document(Source::from_bytes(b"\xEF\xBB\xBF".to_vec(), "bom"));
    assert_eq!(only.total_lines().unwrap(), 0);
    assert_eq!(only.read(LineSelection::default()).unwrap().content, "");
}

#[test]
fn empty_file_is_empty_text() {
    let c = classify_file(file("empty.txt")).unwrap();
    assert_eq!(c.encoding(), Some(Encoding::Utf8));
    let r = Reader::new()
        .read(file("empty.txt"), LineSelection::default())
        .unwrap();
    assert_eq!((r.content.as_str(), r.total_lines), ("", Some(0)));
    assert_eq!(r.line_ending, LineEnding::None);
}

#[test]
fn legacy_encodings_report_name_and_confidence() {
    for name in [
        "latin1.txt",
        "cp1252.txt",
        "shift_jis.txt",
        "gbk.txt",
        "euc-kr.txt",
    ] {
        let Classification::Text(t) = classify_file(file(name)).unwrap() else {
            panic!("{name} is text");
        };
        assert!(t.confidence >= 0.8, "{name}: {t:?}");
        let r = Reader::new()
            .read(file(name), LineSelection::head(1))
            .unwrap();
        assert_eq!(r.encoding, t.encoding.name());
        assert_eq!(r.encoding_confidence, t.confidence);
    }
}

/// Legacy files larger than the sample, as their users write them: dense CJK prose, and
/// Latin text scattered through ASCII source and markup. Detection sees only a bounded
/// part of each sample (the words with non-ASCII bytes); every one must still be read
/// in its encoding, whole, with the text it was written from.
#[test]
fn legacy_files_larger_than_the_sample_read_back_right() {
    let dir = tempfile::tempdir().unwrap();
    let source_1252 = (0..300)
        .map(|i| {
            if i % 40 == 39 {
                format!(
                    "    // Fran\u{e7}ois: d\u{e9}j\u{e0} vu, the na\u{ef}ve total {i} is fine.\n"
                )
            } else {
                format!("    let total_{i} = items.iter().map(|x| x.price * {i}).sum::<u64>();\n")
            }
        })
        .collect::<String>();
    let cases: [(&str, &'static encoding_rs::Encoding, String); 7] = [
        (
            "gbk.txt",
            encoding_rs::GBK,
            "北京是中华人民共和国的首都，也是全国的政治和文化中心。今天天气很好，我们去公园散步吧。\n".repeat(120),
        ),
        (
            "euc-kr.txt",
            encoding_rs::EUC_KR,
            "대한민국의 수도는 서울이며, 한국어는 한글로 적습니다. 오늘은 날씨가 맑고 따뜻합니다.\n".repeat(120),
        ),
        (
            "big5.txt",
            encoding_rs::BIG5,
            "臺灣的首都是臺北，繁體中文在這裡使用。今天的天氣很好，我們一起去公園散步吧。\n".repeat(120),
        ),
        (
            "euc-jp.txt",
            encoding_rs::EUC_JP,
            "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n".repeat(150),
        ),
        (
            "source.rs",
            encoding_rs::WINDOWS_1252,
            source_1252,
        ),
        (
            "page.html",
            encoding_rs::WINDOWS_1251,
            format!(
                "<html><head><title>x</title></head><body>{}</body></html>\n",
                "<div class=\"row\"><p>Привет, мир! Это обычный текст на русском языке.</p></div>\n"
                    .repeat(120)
            ),
        ),
        (
            "greek.txt",
            encoding_rs::WINDOWS_1253,
            "Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο.\n".repeat(200),
        ),
    ];
    for (name, enc, text) in cases {
        let (bytes, _, unmappable) = enc.encode(&text);
        assert!(!unmappable, "{name}");
        assert!(bytes.len() > 8 * 1024, "{name}: {}", bytes.len());
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let c = classify_file(&path).unwrap();
        assert_eq!(
            c.encoding().map(|e| e.name()),
            Some(enc.name().to_ascii_lowercase().as_str()),
            "{name}"
        );
        let r = Reader::new()
            .max_bytes(0)
            .max_lines(0)
            .read(&path, LineSelection::from(..))
            .unwrap();
        assert_eq!(r.content, text, "{name}");
    }
}

#[test]
fn shift_jis_byte_selections_keep_characters_whole() {
    let mut doc = Reader::new().open(file("shift_jis.txt")).unwrap();
    // Every character of the first line is two bytes: 吾 = 0x8C 0xE1 at 0-2, 輩 at 2-4.
    let r = doc.read(ByteSelection::new(Some(1), Some(3))).unwrap();
    assert_eq!(r.content, "吾輩");
    assert_eq!((r.bytes.start, r.bytes.end), (0, 4));
    let r = doc.read(ByteSelection::new(Some(3), Some(3))).unwrap();
    assert_eq!(r.content, "輩");
    // Paging by bytes never splits a character (checked for every budget above); here
    // with a budget of 3, each page holds one character.
    let mut small = Reader::new()
        .max_bytes(3)
        .open(file("shift_jis.txt"))
        .unwrap();
    let p = small.read(ByteSelection::new(Some(0), None)).unwrap();
    assert_eq!(p.content, "吾");
}

#[test]
fn utf8_sample_edge_is_not_judged_mid_character() {
    for name in ["straddle2.txt", "straddle4.txt"] {
        let bytes = std::fs::read(file(name)).unwrap();
        // The 8 KiB sample ends inside the character.
        assert!(std::str::from_utf8(&bytes[..8192]).is_err());
        let Classification::Text(t) = classify(&bytes) else {
            panic!("{name} is text")
        };
        assert_eq!((t.encoding, t.confidence), (Encoding::Utf8, 1.0), "{name}");
    }
}

#[test]
fn control_bytes_threshold() {
    // A log with a stray BEL stays text; a sample full of control bytes is binary.
    let mut log = "line of text\n".repeat(20).into_bytes();
    log.push(0x07);
    assert!(classify(&log).is_text());
    let noise: Vec<u8> = (0..400u32)
        .map(|i| [1u8, 2, 3, b'a', b'b'][i as usize % 5])
        .collect();
    assert_eq!(classify(&noise).mime(), Some("application/octet-stream"));
    assert!(!classify(&noise).is_text());
}

// --- property tests against a naive model ---------------------------------------------

mod model {
    use super::*;
    use proptest::prelude::*;

    /// Encodes one character.
    type Encoder = fn(char) -> Vec<u8>;

    /// `text` with a BOM in encoding `enc` (UTF-16LE/BE, UTF-32LE/BE, UTF-8), and the
    /// file offset of every character boundary.
    fn encode(text: &str, enc: usize) -> (Vec<u8>, Vec<u64>) {
        let (bom, unit): (&[u8], Encoder) = match enc {
            0 => (b"\xFF\xFE", |c| {
                c.encode_utf16(&mut [0; 2])
                    .iter()
                    .flat_map(|u| u.to_le_bytes())
                    .collect()
            }),
            1 => (b"\xFE\xFF", |c| {
                c.encode_utf16(&mut [0; 2])
                    .iter()
                    .flat_map(|u| u.to_be_bytes())
                    .collect()
            }),
            2 => (b"\xFF\xFE\0\0", |c| (c as u32).to_le_bytes().to_vec()),
            3 => (b"\0\0\xFE\xFF", |c| (c as u32).to_be_bytes().to_vec()),
            _ => (b"\xEF\xBB\xBF", |c| c.to_string().into_bytes()),
        };
        let mut bytes = bom.to_vec();
        // File offsets of every character boundary, from the end of the BOM to the end.
        let mut bounds = vec![bytes.len() as u64];
        for c in text.chars() {
            bytes.extend(unit(c));
            bounds.push(bytes.len() as u64);
        }
        (bytes, bounds)
    }

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            proptest::sample::select(vec!['a', 'b', ' ', 'é', '日', '😀', '\n', '\r']),
            0..48,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn byte_and_line_selections_match_the_model(
            text in text(),
            enc in 0usize..5,
            a in 0u64..300,
            b in 0u64..300,
            l1 in 1u64..12,
            n in 0u64..6,
            max in 1u64..12,
        ) {
            let (bytes, bounds) = encode(&text, enc);
            let len = bytes.len() as u64;
            let chars: Vec<char> = text.chars().collect();
            let mut doc = Reader::new().document(Source::from_bytes(bytes.clone(), "p.txt"));

            // Byte selection [s, e): widened to the nearest character boundaries.
            let (s, e) = (a.min(b).min(len), a.max(b));
            let r = doc.read(ByteSelection::new(Some(s), Some(e))).unwrap();
            let e_clamped = e.min(len);
            let lo = bounds.iter().rposition(|&x| x <= s.max(bounds[0])).unwrap();
            let hi = bounds.iter().position(|&x| x >= e_clamped.max(bounds[lo])).unwrap();
            let want: String = chars[lo..hi].iter().collect();
            prop_assert_eq!(&r.content, &want);
            prop_assert_eq!((r.bytes.start, r.bytes.end), (bounds[lo], bounds[hi]));

            // Line selection l1..=l1+n.
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let total = lines.len() as u64;
            prop_assert_eq!(doc.total_lines().unwrap(), total);
            let sel = LineSelection::from(l1..=l1 + n);
            match doc.read(sel) {
                Ok(r) => {
                    let want: String = lines.iter().skip(l1 as usize - 1).take(n as usize + 1).copied().collect();
                    prop_assert_eq!(&r.content, &want);
                }
                Err(Error::LineBeyondEnd { .. }) => prop_assert!(l1 > total.max(1)),
                Err(other) => prop_assert!(false, "{}", other),
            }

            // Paging under a tiny byte budget returns every character once.
            let mut small = Reader::new().max_bytes(max).document(Source::from_bytes(bytes, "p.txt"));
            prop_assert_eq!(read_paged(&mut small), text);
        }
    }
}
