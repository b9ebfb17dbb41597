//! The text policies a host sets on its `Reader` (and the presets name in their data):
//! line endings, the unit of a line cut, the encoding, and the binary rules. Each is
//! checked against its default, on the files that tell them apart.

use rangeread::tool::{Dialect, DialectTool};
use rangeread::{
    BinaryReason, ByteSelection, Classification, ControlBytes, Detection, Encoding, EncodingPolicy,
    Error, LineEndings, LineSelection, LineUnit, NulBytes, ReadResult, Reader, Source,
};
use serde_json::json;

fn read(
    reader: &Reader,
    bytes: &[u8],
    sel: impl Into<rangeread::Selection>,
) -> Result<ReadResult, Error> {
    reader
        .document(Source::from_bytes(bytes.to_vec(), "input.txt"))
        .read(sel)
}

fn whole(reader: &Reader, bytes: &[u8]) -> Result<ReadResult, Error> {
    read(reader, bytes, LineSelection::from(1..))
}

fn temp(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.txt");
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

#[test]
fn line_endings_lf_drops_the_cr_of_crlf_and_keeps_file_offsets() {
    let text = b"one\r\ntwo\rstill two\r\nthree\n";
    let kept = whole(&Reader::new(), text).unwrap();
    assert_eq!(kept.content, "one\r\ntwo\rstill two\r\nthree\n");
    let lf = Reader::new().line_endings(LineEndings::Lf);
    let r = whole(&lf, text).unwrap();
    // A lone CR is not a CR LF: it stays, and does not end a line.
    assert_eq!(r.content, "one\ntwo\rstill two\nthree\n");
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((1, 3)));
    assert_eq!((r.bytes.start, r.bytes.end), (0, text.len() as u64));
    // Offsets stay file offsets: line 2 starts at byte 5, after "one\r\n".
    let r = read(&lf, text, LineSelection::from(2..=2)).unwrap();
    assert_eq!((r.content.as_str(), r.bytes.start), ("two\rstill two\n", 5));
    let r = read(&lf, text, ByteSelection::new(Some(5), Some(20))).unwrap();
    assert_eq!(r.content, "two\rstill two\n");
}

#[test]
fn line_endings_lf_pages_as_keep_does() {
    let text = "a line\r\n".repeat(40);
    // Pages of 50 bytes never end between the CR and the LF of these lines (a page that
    // did would keep its CR: the LF it goes with is on the next page).
    let paged = |reader: Reader| {
        let reader = reader.max_bytes(50);
        let (mut at, mut out, mut starts) = (0u64, String::new(), Vec::new());
        loop {
            let r = read(&reader, text.as_bytes(), ByteSelection::new(Some(at), None)).unwrap();
            out.push_str(&r.content);
            starts.push(r.bytes.start);
            match r.truncated {
                Some(t) => at = t.next_start_byte,
                None => return (out, starts),
            }
        }
    };
    let (kept, kept_starts) = paged(Reader::new());
    let (lf, lf_starts) = paged(Reader::new().line_endings(LineEndings::Lf));
    assert_eq!(kept, text);
    assert_eq!(lf, text.replace("\r\n", "\n"));
    assert_eq!(
        kept_starts, lf_starts,
        "the same pages, at the same file offsets"
    );
}

#[test]
fn the_line_unit_counts_chars_utf16_units_or_bytes() {
    // Gemini CLI cuts this line at 2,000 UTF-16 units (1,000 emoji); characters do not.
    let emoji = "😀".repeat(1500);
    let cut = |unit| {
        let r = whole(&Reader::new().line_unit(unit), emoji.as_bytes()).unwrap();
        let c = r.cut_lines.first().map(|c| (c.shown_bytes, c.total_bytes));
        (r.content.chars().count(), c)
    };
    assert_eq!(cut(LineUnit::Chars), (1500, None));
    assert_eq!(cut(LineUnit::Utf16), (1000, Some((4000, 6000))));
    assert_eq!(cut(LineUnit::Bytes), (500, Some((2000, 6000))));
    // An odd limit never splits a surrogate pair.
    let r = whole(
        &Reader::new().line_unit(LineUnit::Utf16).max_line_chars(3),
        "a😀😀b\n".as_bytes(),
    )
    .unwrap();
    assert_eq!(r.content, "a😀\n");
    // The same cut in UTF-16: in file units there.
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(emoji.encode_utf16().flat_map(u16::to_le_bytes));
    let r = whole(&Reader::new().line_unit(LineUnit::Utf16), &utf16).unwrap();
    assert_eq!(r.content.chars().count(), 1000);
    let rest = r.cut_lines[0].next_start_byte;
    assert_eq!(rest, 2 + 4000);
}

#[test]
fn the_encoding_is_detected_left_as_utf8_or_forced() {
    let py = b"import os\xff\nprint('caf\xe9')\n";
    let detect = whole(&Reader::new(), py).unwrap();
    assert_eq!(detect.encoding, "windows-1252");
    assert_eq!(detect.content, "import osÿ\nprint('café')\n");
    let utf8 = whole(&Reader::new().encoding(EncodingPolicy::NoLegacy), py).unwrap();
    assert_eq!(utf8.encoding, "utf-8");
    assert_eq!(utf8.content, "import os\u{FFFD}\nprint('caf\u{FFFD}')\n");
    assert_eq!(
        utf8.invalid_utf8.map(|i| (i.count, i.first_offset)),
        Some((2, 9))
    );
    // A host that knows the file is Cyrillic.
    let cp1251 = b"\xcf\xf0\xe8\xe2\xe5\xf2\n";
    let forced = EncodingPolicy::from_name("cp1251").unwrap();
    assert_eq!(
        forced,
        EncodingPolicy::Forced(Encoding::for_label("windows-1251").unwrap())
    );
    let r = whole(&Reader::new().encoding(forced), cp1251).unwrap();
    assert_eq!(
        (r.encoding.as_str(), r.content.as_str()),
        ("windows-1251", "Привет\n")
    );
    // Forced UTF-16 without a mark; a mark of that encoding is skipped.
    let hi: Vec<u8> = "hi\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
    let utf16le = Reader::new().encoding(EncodingPolicy::Forced(Encoding::Utf16Le));
    assert_eq!(whole(&utf16le, &hi).unwrap().content, "hi\n");
    let with_bom = [&[0xFF, 0xFE][..], &hi].concat();
    let r = whole(&utf16le, &with_bom).unwrap();
    assert_eq!((r.content.as_str(), r.bom), ("hi\n", true));
    // The policy by name, as the bindings and a dialect's JSON give it.
    for name in [
        "detect",
        "no_legacy",
        "utf8_first",
        "utf-8",
        "latin1",
        "shift_jis",
    ] {
        assert!(EncodingPolicy::from_name(name).is_some(), "{name}");
    }
    assert_eq!(
        EncodingPolicy::from_name("latin1").unwrap().name(),
        "windows-1252"
    );
    assert_eq!(EncodingPolicy::from_name("klingon"), None);
}

#[test]
fn utf8_first_reads_valid_utf8_before_guessing_utf16() {
    let le: Vec<u8> = "hi there\nyou\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let detect = whole(&Reader::new(), &le).unwrap();
    assert_eq!(
        (detect.encoding.as_str(), detect.content.as_str()),
        ("utf-16le", "hi there\nyou\n")
    );
    let first = Reader::new().encoding(EncodingPolicy::Utf8First);
    let r = whole(&first, &le).unwrap();
    assert_eq!(r.encoding, "utf-8");
    assert_eq!(r.content, "h\0i\0 \0t\0h\0e\0r\0e\0\n\0y\0o\0u\0\n\0");
    // Not valid UTF-8 (`é` is `E9 00`): UTF-16 still; legacy encodings are still guessed.
    let accented: Vec<u8> = "caf\u{e9} au lait\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        whole(&first, &accented).unwrap().content,
        "caf\u{e9} au lait\n"
    );
    assert_eq!(
        whole(&first, b"caf\xe9\n").unwrap().encoding,
        "windows-1252"
    );
    assert_eq!(EncodingPolicy::Utf8First.name(), "utf8_first");
}

#[test]
fn nul_bytes_in_read_refuses_a_nul_past_the_sample() {
    let mut text = b"text\n".repeat(3000);
    text.extend_from_slice(b"late\0nul\n");
    let all = Reader::new().max_lines(0);
    assert!(whole(&all, &text).unwrap().content.contains('\0'));
    let strict = all.nul_bytes(NulBytes::InRead);
    assert!(matches!(whole(&strict, &text), Err(Error::Binary { .. })));
    // A read that does not reach it is text.
    assert_eq!(
        read(&strict, &text, LineSelection::head(2))
            .unwrap()
            .content,
        "text\ntext\n"
    );
    // classify_file looks at the whole file under the rule; classify() at the sample.
    let (_dir, path) = temp(&text);
    assert!(rangeread::classify_file(&path).unwrap().is_text());
    match strict.classify_file(&path).unwrap() {
        Classification::Binary(b) => assert_eq!(b.reason, BinaryReason::Nul),
        other => panic!("{other:?}"),
    }
    // UTF-16's zero bytes are not NUL characters.
    let utf16: Vec<u8> = "wide text\n"
        .repeat(2000)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let (_dir2, path16) = temp(&[&[0xFF, 0xFE][..], &utf16].concat());
    assert!(strict.classify_file(&path16).unwrap().is_text());
}

#[test]
fn control_bytes_tolerated_reads_a_file_of_bells() {
    let bells = b"\x07\x0b ring\n\x07\x0b\n";
    assert!(matches!(
        whole(&Reader::new(), bells),
        Err(Error::Binary { .. })
    ));
    let tolerant = Reader::new().control_bytes(ControlBytes::Tolerated);
    assert_eq!(
        whole(&tolerant, bells).unwrap().content,
        "\x07\x0b ring\n\x07\x0b\n"
    );
    assert!(!Reader::new().classify(bells).is_text());
    assert!(tolerant.classify(bells).is_text());
    // NUL still means binary.
    assert!(!tolerant.classify(b"\x07\x00\x07").is_text());
}

#[test]
fn invalid_utf8_binary_calls_latin1_binary() {
    let latin1 = b"caf\xe9 cr\xe8me br\xfbl\xe9e\n";
    assert_eq!(
        whole(&Reader::new(), latin1).unwrap().encoding,
        "windows-1252"
    );
    let gemini = Reader::new().invalid_utf8_binary(Some(0.1));
    match gemini.classify(latin1) {
        Classification::Binary(b) => assert_eq!(b.reason, BinaryReason::InvalidUtf8),
        other => panic!("{other:?}"),
    }
    assert!(matches!(whole(&gemini, latin1), Err(Error::Binary { .. })));
    // A few bad bytes in UTF-8 text are under the share; a byte order mark passes.
    let mostly = "é".repeat(100) + "\u{1}";
    let mut bytes = mostly.into_bytes();
    bytes.push(0xFF);
    assert!(gemini.classify(&bytes).is_text());
    assert!(gemini.classify(b"\xef\xbb\xbfcaf\xe9\n").is_text());
}

#[test]
fn magic_only_refuses_only_known_formats() {
    let magic = Reader::new().detection(Detection::MagicOnly);
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    assert!(!magic.classify(png).is_text());
    // NUL and control bytes do not make a file binary.
    let r = whole(&magic, b"a\0b\x01\x02\n").unwrap();
    assert_eq!(
        (r.content.as_str(), r.encoding.as_str()),
        ("a\0b\x01\x02\n", "utf-8")
    );
    assert!(!Reader::new().classify(b"a\0b\x01\x02\n").is_text());
}

#[test]
fn classify_and_classify_file_agree_with_what_a_read_finds() {
    let files: [&[u8]; 5] = [
        b"plain text\n",
        b"caf\xe9\n",
        b"\x07\x07\x07\n",
        b"\xff\xfeh\0i\0",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    ];
    let readers = [
        Reader::new(),
        Reader::new().encoding(EncodingPolicy::NoLegacy),
        Reader::new().control_bytes(ControlBytes::Tolerated),
        Reader::new().invalid_utf8_binary(Some(0.1)),
        Reader::new().detection(Detection::MagicOnly),
    ];
    for (i, reader) in readers.iter().enumerate() {
        for bytes in files {
            let (_dir, path) = temp(bytes);
            let c = reader.classify(bytes);
            assert_eq!(
                reader.classify_file(&path).unwrap(),
                c,
                "reader {i} on {bytes:?}"
            );
            let read = reader.read(&path, LineSelection::from(1..));
            match c {
                Classification::Text(t) => assert_eq!(read.unwrap().encoding, t.encoding.name()),
                Classification::Binary(_) => assert!(matches!(read, Err(Error::Binary { .. }))),
            }
        }
    }
}

#[test]
fn a_shared_cache_keeps_each_readers_verdict() {
    let cache = std::sync::Arc::new(rangeread::IndexCache::new(1 << 20));
    let (_dir, path) = temp(b"caf\xe9\n");
    let detect = Reader::new().cache(cache.clone());
    let no_legacy = Reader::new()
        .cache(cache)
        .encoding(EncodingPolicy::NoLegacy);
    for _ in 0..2 {
        let all = LineSelection::from(1..);
        assert_eq!(detect.read(&path, all).unwrap().encoding, "windows-1252");
        assert_eq!(no_legacy.read(&path, all).unwrap().encoding, "utf-8");
    }
}

#[test]
fn a_preset_names_its_policies_and_a_host_overrides_them() {
    let d = Dialect::preset("gemini").unwrap();
    // isbinaryfile's count of the first 512 bytes, as Gemini CLI decides.
    assert_eq!(
        d.decoding.control_bytes,
        rangeread::ControlBytes::SuspiciousShare
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("menu.txt"), b"caf\xe9 cr\xe8me\n").unwrap();
    let ws = rangeread::Workspace::new(dir.path()).unwrap();
    let tool = DialectTool::new(d.clone()).workspace(ws.clone());
    let r = tool.respond(json!({"file_path": "menu.txt"}));
    assert_eq!(r.text, "Cannot display content of binary file: menu.txt");
    // The host's reader turns the rule off: the file is text, UTF-8 as the preset reads
    // it (no legacy encoding guessed, as Gemini CLI)...
    let tool = DialectTool::new(d.clone())
        .workspace(ws.clone())
        .reader(Reader::new().control_bytes(rangeread::ControlBytes::Share));
    let r = tool.respond(json!({"file_path": "menu.txt"}));
    assert!(r.text.contains("caf\u{FFFD} cr\u{FFFD}me"), "{}", r.text);
    // ... or, with the encoding policy too, in the encoding it is in.
    let tool = DialectTool::new(d).workspace(ws).reader(
        Reader::new()
            .control_bytes(rangeread::ControlBytes::Share)
            .encoding(EncodingPolicy::Detect),
    );
    let r = tool.respond(json!({"file_path": "menu.txt"}));
    assert!(r.text.contains("café crème"), "{}", r.text);
}

#[test]
fn the_openhands_preset_refuses_utf16_without_a_mark_as_openhands_aci_does() {
    // openhands-aci's binaryornot, with the chardet OpenHands installs (5.2.0), finds no
    // encoding in UTF-16 without a byte order mark and refuses it for its NUL bytes; with
    // the mark it is text. The preset names that rule in its data (`sample_shares`).
    let d = Dialect::preset("openhands").unwrap();
    assert_eq!(
        d.decoding.control_bytes,
        rangeread::ControlBytes::SampleShares
    );
    let dir = tempfile::tempdir().unwrap();
    let utf16le = |mark: bool| {
        let mut bytes = if mark { vec![0xFF, 0xFE] } else { vec![] };
        for u in "01 h\u{e9}llo\n02 w\u{f6}rld\n".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        bytes
    };
    std::fs::write(dir.path().join("bare.txt"), utf16le(false)).unwrap();
    std::fs::write(dir.path().join("marked.txt"), utf16le(true)).unwrap();
    let ws = rangeread::Workspace::new(dir.path()).unwrap();
    let tool = DialectTool::new(d).workspace(ws);
    let r = tool.respond(json!({"command": "view", "path": dir.path().join("bare.txt")}));
    assert!(r.is_error, "{}", r.text);
    assert!(r.text.contains("File appears to be binary"), "{}", r.text);
    let r = tool.respond(json!({"command": "view", "path": dir.path().join("marked.txt")}));
    assert!(!r.is_error, "{}", r.text);
    assert!(r.text.contains("     2\t02 w\u{f6}rld"), "{}", r.text);
    // A boolean in `view_range` is Python's `int` (`True` is 1), quoted as Python shows it.
    let r = tool.respond(json!({"command": "view", "path": dir.path(), "view_range": [true, 3]}));
    assert!(r.is_error, "{}", r.text);
    assert!(
        r.text.contains("parameter: [True, 3]. The `view_range`"),
        "{}",
        r.text
    );
    let r = tool.respond(
        json!({"command": "view", "path": dir.path().join("marked.txt"), "view_range": [true, 1]}),
    );
    assert!(!r.is_error && r.text.contains("     1\t01 h"), "{}", r.text);
}

#[test]
fn a_middle_cut_says_which_lines_it_left_out() {
    // openhands-tools' clip: head and tail of the answer kept, 200 characters in all.
    let mut d = Dialect::preset("openhands").unwrap();
    let clip = d.output.clip.as_mut().unwrap();
    clip.keep = rangeread::tool::ClipKeep::HeadAndTail;
    clip.chars = 200;
    clip.notice = "<response clipped>".into();
    let dir = tempfile::tempdir().unwrap();
    // 100 lines of 10 characters ("line 0001\n" ...): 1,000 characters.
    let text: String = (1..=100).map(|i| format!("line {i:04}\n")).collect();
    std::fs::write(dir.path().join("long.txt"), &text).unwrap();
    let ws = rangeread::Workspace::new(dir.path()).unwrap();
    let tool = DialectTool::new(d.clone()).workspace(ws.clone());
    let r = tool.respond(json!({"command": "view", "path": dir.path().join("long.txt")}));
    assert!(!r.is_error, "{}", r.text);
    assert!(r.text.contains("<response clipped>"), "{}", r.text);
    let record = r.record.unwrap();
    let clipped = record.clipped.unwrap();
    assert!(clipped.middle);
    assert_eq!((clipped.chars, clipped.total_chars), (200, 1000));
    // 182 characters of room: a head of 91 (lines 1-9 and the first character of line
    // 10), a tail of 91 (the last character of line 91's text and its LF, lines 92-100).
    let left_out = clipped.left_out.unwrap();
    assert_eq!((left_out.start, left_out.end), (10, 91));
    assert!(r.text.contains("line 0009") && !r.text.contains("line 0010"));
    assert!(r.text.contains("line 0092") && !r.text.contains("line 0091"));
    // Reading those lines shows what was left out, with nothing clipped.
    let r = tool.respond(
        json!({"command": "view", "path": dir.path().join("long.txt"), "view_range": [10, 19]}),
    );
    assert!(
        r.text.contains("line 0010") && r.text.contains("line 0019"),
        "{}",
        r.text
    );
    assert!(r.record.unwrap().clipped.is_none());
    // The head clip of openhands-aci: the first line not shown whole, to the end.
    let mut head = Dialect::preset("openhands").unwrap();
    head.output.clip.as_mut().unwrap().chars = 200;
    let r = DialectTool::new(head)
        .workspace(ws)
        .respond(json!({"command": "view", "path": dir.path().join("long.txt")}));
    let clipped = r.record.unwrap().clipped.unwrap();
    assert!(!clipped.middle);
    let left_out = clipped.left_out.unwrap();
    assert_eq!((left_out.start, left_out.end), (21, 100));
}

#[test]
fn the_cut_marker_is_the_hosts_and_the_line_unit_counts_as_its_agent_does() {
    // Gemini CLI cuts a line at 2,000 UTF-16 units (JavaScript's `length`) and marks it
    // with "... [truncated]".
    let text = format!("short\n{}\n", "😀".repeat(1500));
    let reader = Reader::new()
        .max_line_chars(2000)
        .line_unit(LineUnit::Utf16);
    let r = whole(&reader, text.as_bytes()).unwrap();
    // 1,000 emoji (2,000 units, 4,000 bytes) kept, 500 (2,000 bytes) left out.
    assert_eq!(
        (r.cut_lines[0].shown_bytes, r.cut_lines[0].total_bytes),
        (4000, 6000)
    );
    let default = rangeread::render(&r, rangeread::Format::CatN);
    let line2 = default.lines().nth(1).unwrap();
    assert!(
        line2.ends_with("😀… [line truncated: 2000 more bytes]"),
        "{line2}"
    );
    let gemini = rangeread::RenderOptions::default().cut_marker("... [truncated]");
    let shown = rangeread::render_with(&r, rangeread::Format::CatN, &gemini);
    let line2 = shown.lines().nth(1).unwrap();
    assert!(line2.ends_with("😀... [truncated]"), "{line2}");
    assert_eq!(line2.matches('😀').count(), 1000);
    // An empty marker marks nothing; plain and json never carry one.
    let none = rangeread::RenderOptions::default().cut_marker("");
    let shown = rangeread::render_with(&r, rangeread::Format::CatN, &none);
    assert!(shown.lines().nth(1).unwrap().ends_with('😀'));
    assert_eq!(
        rangeread::render_with(&r, rangeread::Format::Plain, &gemini),
        r.content
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// The lines a middle cut leaves out are the first line its head does not hold whole
    /// through the last its tail does not, counted in characters as openhands-tools does.
    #[test]
    fn a_middle_cut_leaves_out_the_lines_between_its_head_and_tail(
        lines in proptest::collection::vec(proptest::collection::vec(proptest::prop_oneof![proptest::strategy::Just('x'), proptest::strategy::Just('é')], 0..30), 1..40),
        max in 20u64..400,
    ) {
        let text: String = lines.iter().map(|l| l.iter().collect::<String>() + "\n").collect();
        let mut d = Dialect::preset("openhands").unwrap();
        let clip = d.output.clip.as_mut().unwrap();
        clip.keep = rangeread::tool::ClipKeep::HeadAndTail;
        clip.chars = max;
        clip.notice = "<clip>".into();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, &text).unwrap();
        let r = DialectTool::new(d).respond(json!({"command": "view", "path": path}));
        let clipped = r.record.unwrap().clipped;
        let chars: Vec<char> = text.chars().collect();
        let total = chars.len() as u64;
        if total <= max {
            proptest::prop_assert!(clipped.is_none());
            return Ok(());
        }
        let room = max - 6;
        let (head, tail) = (room.div_ceil(2), room / 2);
        let line_of = |c: u64| 1 + chars[..c as usize].iter().filter(|&&c| c == '\n').count() as u64;
        let want = (line_of(head), line_of(total - tail - 1));
        let left_out = clipped.unwrap().left_out.unwrap();
        proptest::prop_assert_eq!((left_out.start, left_out.end), want);
    }
}

/// `utf16le_mark` (Claude Code 2.1.332's Read): only UTF-8's and UTF-16LE's marks are
/// read; `FE FF` is UTF-8, its two bytes shown as U+FFFD, where `byte_order_mark` reads
/// UTF-16BE.
#[test]
fn utf16le_mark_reads_only_the_little_endian_mark() {
    let be = b"\xFE\xFF\0h\0i";
    let le = b"\xFF\xFEh\0i\0";
    let only_le = Reader::new().detection(Detection::Utf16LeMark);
    let by_mark = Reader::new().detection(Detection::ByteOrderMark);
    assert_eq!(
        whole(&only_le, be).unwrap().content,
        "\u{FFFD}\u{FFFD}\0h\0i"
    );
    assert_eq!(whole(&by_mark, be).unwrap().content, "hi");
    assert_eq!(whole(&only_le, le).unwrap().content, "hi");
    assert_eq!(whole(&only_le, b"\xEF\xBB\xBFhi").unwrap().content, "hi");
    // Nothing is binary to it: NUL bytes stay in the text.
    assert_eq!(whole(&only_le, b"a\0b").unwrap().content, "a\0b");
    let d: rangeread::tool::Decoding =
        serde_json::from_value(json!({"detection": "utf16le_mark"})).unwrap();
    assert_eq!(d.detection, Detection::Utf16LeMark);
}
