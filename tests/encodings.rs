//! Every feature gives the same answer in every encoding.
//!
//! Real source files (`tests/data/real`, provenance in `SOURCES.md`) are re-encoded into
//! UTF-8 with and without a byte order mark, UTF-16 and UTF-32 in both byte orders, and
//! windows-1252 where the text allows; every feature (line reads, tail, byte reads,
//! landmarks, outline, block, around, paging by lines and by bytes, cut lines) must give
//! the same line numbers and the same text as on the UTF-8 original, on every backend.

mod common;

use rangeread::{ByteSelection, Document, LineSelection, ReadResult, Reader, Selection, Source};

struct Encoded {
    name: &'static str,
    bytes: Vec<u8>,
}

fn encodings(text: &str, legacy: bool) -> Vec<Encoded> {
    let mut out: Vec<Encoded> = common::unicode_encodings(text)
        .into_iter()
        .map(|(name, bytes)| Encoded { name, bytes })
        .collect();
    // windows-1252 agrees with Latin-1 on every letter it has: possible when the text is
    // within U+0000..U+00FF and not only ASCII.
    if legacy
        && text
            .chars()
            .all(|c| (c as u32) < 0x80 || (0xA0..=0xFF).contains(&(c as u32)))
        && !text.is_ascii()
    {
        out.push(Encoded {
            name: "windows-1252",
            bytes: text.chars().map(|c| c as u8).collect(),
        });
    }
    out
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("tests/data/real/{name}")).unwrap()
}

/// What a user compares: the lines and the text.
fn seen(r: &ReadResult) -> (Option<(u64, u64)>, String, Option<u64>) {
    (
        r.lines.map(|l| (l.start, l.end)),
        r.content.clone(),
        r.total_lines,
    )
}

fn landmarks(r: &ReadResult) -> Vec<(u64, String)> {
    r.omitted
        .as_ref()
        .map(|o| {
            o.landmarks
                .iter()
                .map(|l| (l.line, l.text.clone()))
                .collect()
        })
        .unwrap_or_default()
}

fn doc(reader: &Reader, src: Source) -> Document {
    reader.document(src)
}

/// Reads every page of `first`, following the continuation, and joins the content;
/// with each page's lines and content size.
fn all_pages(d: &mut Document, first: Selection) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut sel = first;
    let mut pages = Vec::new();
    loop {
        let r = d.read(sel).unwrap();
        pages.push(format!(
            "{:?}/{}",
            r.lines.map(|l| (l.start, l.end)),
            r.content.len()
        ));
        out.push_str(&r.content);
        let Some(t) = r.truncated else { break };
        sel = match t.next_start_line {
            Some(l) => LineSelection::from(l..).into(),
            None => ByteSelection::new(Some(t.next_start_byte), None).into(),
        };
        assert!(pages.len() < 100_000, "paging does not end");
    }
    (out, pages)
}

/// Every feature on one encoded text, as a list of named answers.
fn answers(name: &str, bytes: &[u8], path: &str, tiny: Option<usize>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut put = |what: &str, v: String| out.push((what.to_string(), v));
    let source = || {
        let mut s = Source::from_bytes(bytes.to_vec(), path);
        if let Some(c) = tiny {
            s.set_chunk_size(c);
        }
        s
    };
    // The byte budget counts the UTF-8 bytes of the content, in every encoding: small
    // enough here to cut blocks and long reads, which must be cut the same everywhere.
    let reader = Reader::new()
        .max_bytes(3000)
        .index_block_size(tiny.map_or(64 << 10, |_| 97));
    let mut d = doc(&reader, source());
    let r = d.read(LineSelection::head(1)).unwrap();
    put("encoding", format!("{name} -> {}", r.encoding));
    let total = d.total_lines().unwrap();
    put("total", total.to_string());
    for sel in [
        LineSelection::head(12),
        LineSelection::tail(12),
        LineSelection::from(100..=140),
        LineSelection::range(Some(-30), Some(-20)),
        LineSelection::around(total / 2, 4),
    ] {
        let r = d.read(sel).unwrap();
        put(&format!("{sel:?}"), format!("{:?}", seen(&r)));
        put(
            &format!("{sel:?} landmarks"),
            format!("{:?}", landmarks(&r)),
        );
        // The bytes the read reports, read as a byte selection, are the same text.
        let b = d
            .read(ByteSelection::new(Some(r.bytes.start), Some(r.bytes.end)))
            .unwrap();
        put(&format!("{sel:?} as bytes"), b.content.clone());
        assert_eq!(b.content, r.content, "{name}: {sel:?} read back as bytes");
    }
    let outline = d.outline().unwrap();
    let marks: Vec<(u64, String)> = outline
        .landmarks
        .iter()
        .map(|l| (l.line, l.text.clone()))
        .collect();
    put(
        "outline",
        format!("{:?} {:?} {}", marks, outline.total_lines, outline.complete),
    );
    // The block around each landmark and around lines between them.
    // (Without summaries: those are compared above, and a debug build is slow.)
    let mut blocks = doc(&reader.clone().summaries(false), source());
    let mut probes: Vec<u64> = marks.iter().step_by(3).map(|m| m.0 + 1).collect();
    probes.extend((1..=total).step_by(97));
    for line in probes.into_iter().filter(|&l| l <= total) {
        let r = blocks.read(LineSelection::block(line)).unwrap();
        put(&format!("block {line}"), format!("{:?}", seen(&r)));
    }
    // Paging by lines and by bytes gives the whole text back.
    let mut lines_paged = doc(&reader.clone().summaries(false).max_lines(37), source());
    let (text, pages) = all_pages(&mut lines_paged, LineSelection::from(1..).into());
    put("paged by lines", format!("{pages:?} {text}"));
    // The same pages under a byte budget in every encoding: it counts UTF-8 bytes.
    let mut bytes_paged = doc(&reader.clone().summaries(false).max_bytes(1000), source());
    let (text, pages) = all_pages(&mut bytes_paged, LineSelection::from(1..).into());
    put("paged by bytes", text);
    put("pages by bytes", format!("{pages:?}"));
    let (text, pages) = all_pages(&mut bytes_paged, ByteSelection::new(None, None).into());
    put("byte selection paged", format!("{} {text}", pages.len()));
    // Lines cut at 40 characters, and the rest of each a byte selection away.
    let mut cut = doc(
        &reader
            .clone()
            .summaries(false)
            .max_line_chars(40)
            .max_lines(0)
            .max_bytes(0),
        source(),
    );
    let r = cut.read(LineSelection::from(1..)).unwrap();
    let mut rests = Vec::new();
    for c in &r.cut_lines {
        let line = cut.read(LineSelection::from(c.line..=c.line)).unwrap();
        let rest = cut
            .read(ByteSelection::new(
                Some(c.next_start_byte),
                Some(line.bytes.end),
            ))
            .unwrap();
        rests.push((c.line, rest.content));
    }
    put("cut lines", format!("{:?} {:?}", seen(&r), rests));
    out
}

fn check(name: &str, ext: &str, structured: bool, legacy: bool) {
    let text = fixture(name);
    let path = format!("real.{ext}");
    let reference = answers("utf-8", text.as_bytes(), &path, None);
    // The reference itself must be worth comparing: structure was found.
    let outline = reference.iter().find(|(k, _)| k == "outline").unwrap();
    if structured {
        assert!(
            outline.1.len() > 100,
            "no landmarks found in {name}: {}",
            outline.1
        );
    }
    let paged = reference
        .iter()
        .find(|(k, _)| k == "paged by bytes")
        .unwrap();
    assert_eq!(
        paged.1, text,
        "{name}: paging by bytes loses or repeats text"
    );
    for enc in encodings(&text, legacy) {
        // Tiny reads (and index blocks) on the narrow and the widest layout only: in
        // debug builds they are slow.
        let tinies: &[Option<usize>] = match enc.name {
            "utf-16le" | "utf-32be" => &[None, Some(61)],
            _ => &[None],
        };
        for &tiny in tinies {
            let got = answers(enc.name, &enc.bytes, &path, tiny);
            assert_eq!(got.len(), reference.len(), "{name} in {}", enc.name);
            for ((k, want), (k2, have)) in reference.iter().zip(&got) {
                assert_eq!(k, k2);
                if k == "encoding" {
                    assert!(have.ends_with(enc.name.trim_end_matches(" bom")), "{have}");
                    continue;
                }
                assert_eq!(
                    have, want,
                    "{name} in {} (chunk {tiny:?}): {k} differs",
                    enc.name
                );
            }
        }
    }
}

#[test]
fn rust_source_reads_the_same_in_every_encoding() {
    check("bstr_utf8.rs", "rs", true, true);
}

#[test]
fn python_source_reads_the_same_in_every_encoding() {
    // Not in windows-1252: see tests/data/real/SOURCES.md.
    check("shlex.py", "py", true, false);
}

#[test]
fn markdown_reads_the_same_in_every_encoding() {
    // Not in windows-1252: its first non-ASCII letter comes after the 8 KiB that
    // classification looks at (see tests/data/real/SOURCES.md).
    check("encoding_rs_README.md", "md", true, false);
}

#[test]
fn german_prose_reads_the_same_in_windows_1252() {
    check("docutils_de.py", "py", false, true);
}

#[test]
fn every_backend_agrees_on_utf16() {
    let text = fixture("shlex.py");
    let bytes: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let input = common::Input::new(&bytes);
    let mut want = None;
    for b in input.backends().into_iter().filter(|b| b.block > 1) {
        let mut d = Reader::new().index_block_size(b.block).document(b.source);
        let outline = d.outline().unwrap();
        let tail = d.read(LineSelection::tail(30)).unwrap();
        let mid = d.read(LineSelection::from(150..=160)).unwrap();
        let got = (
            outline.landmarks.len(),
            outline.landmarks.first().map(|l| l.line),
            seen(&tail),
            landmarks(&mid),
        );
        assert!(
            got.0 > 10,
            "{}: outline of UTF-16 has {} landmarks",
            b.name,
            got.0
        );
        match &want {
            None => want = Some(got),
            Some(w) => assert_eq!(&got, w, "{}", b.name),
        }
    }
}

/// Every encoding of the WHATWG Encoding Standard a browser decodes (all but
/// `replacement` and `x-user-defined`) can be named, and a file in it reads back: Latin-9
/// (`iso-8859-15`), Baltic (`iso-8859-13`), Mac Cyrillic were refused as unknown names.
#[test]
fn every_whatwg_encoding_can_be_named_and_read() {
    let names = [
        "ibm866",
        "iso-8859-2",
        "iso-8859-3",
        "iso-8859-4",
        "iso-8859-5",
        "iso-8859-6",
        "iso-8859-7",
        "iso-8859-8",
        "iso-8859-8-i",
        "iso-8859-10",
        "iso-8859-13",
        "iso-8859-14",
        "iso-8859-15",
        "iso-8859-16",
        "koi8-r",
        "koi8-u",
        "macintosh",
        "windows-874",
        "windows-1250",
        "windows-1251",
        "windows-1252",
        "windows-1253",
        "windows-1254",
        "windows-1255",
        "windows-1256",
        "windows-1257",
        "windows-1258",
        "x-mac-cyrillic",
        "gbk",
        "gb18030",
        "big5",
        "euc-jp",
        "iso-2022-jp",
        "shift_jis",
        "euc-kr",
    ];
    for name in names {
        let enc = rangeread::Encoding::for_label(name)
            .unwrap_or_else(|| panic!("{name} is not an encoding's name here"));
        assert_eq!(enc.name(), name);
        let policy = rangeread::EncodingPolicy::from_name(name)
            .unwrap_or_else(|| panic!("{name} is not a policy's name"));
        let src = Source::from_bytes(b"abc 123\n".to_vec(), "a.txt");
        let r = Reader::new()
            .encoding(policy)
            .document(src)
            .read(LineSelection::head(1))
            .unwrap();
        assert_eq!(
            (r.content.as_str(), r.encoding.as_str()),
            ("abc 123\n", name)
        );
    }
    // Latin-9 (`l9`, one of its WHATWG labels): the euro sign where Latin-1 has the
    // currency sign.
    let src = Source::from_bytes(b"5 \xa4\n".to_vec(), "p.txt");
    let r = Reader::new()
        .encoding(rangeread::EncodingPolicy::from_name("l9").unwrap())
        .document(src)
        .read(LineSelection::head(1))
        .unwrap();
    assert_eq!(r.content, "5 \u{20ac}\n");
}
