//! Outline ranges: each landmark of an outline carries the end of the block it opens
//! (as `block L` on its line ends it) and its depth, found in the outline's one pass, in
//! every encoding; the members of types (`OutlineDetail::Members`); and the outline of
//! Zed's own large-file test input.

use rangeread::{LineSelection, Outline, OutlineDetail, Reader, Source};

mod common;

/// UTF-8 and UTF-16LE (with a byte order mark) of the same text.
fn encodings(text: &str) -> Vec<(&'static str, Vec<u8>)> {
    common::unicode_encodings(text)
        .into_iter()
        .filter(|(name, _)| ["utf-8", "utf-16le"].contains(name))
        .collect()
}

fn outline(bytes: Vec<u8>, path: &str) -> Outline {
    Reader::new()
        .document(Source::from_bytes(bytes, path))
        .outline()
        .unwrap()
}

/// `(line, end_line, depth, text)` of each landmark.
fn ranges(o: &Outline) -> Vec<(u64, Option<u64>, Option<u64>, String)> {
    o.landmarks
        .iter()
        .map(|l| (l.line, l.end_line, l.depth, l.text.clone()))
        .collect()
}

/// `(line, end_line, depth)` of each landmark.
fn spans(o: &Outline) -> Vec<(u64, Option<u64>, Option<u64>)> {
    o.landmarks
        .iter()
        .map(|l| (l.line, l.end_line, l.depth))
        .collect()
}

#[test]
fn each_landmark_ends_where_its_block_read_ends() {
    let mut files: Vec<String> = std::fs::read_dir("tests/data/landmarks")
        .unwrap()
        .chain(std::fs::read_dir("tests/data/real").unwrap())
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| !p.ends_with("SOURCES.md"))
        .collect();
    files.sort();
    let mut checked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut first: Option<Vec<_>> = None;
        for (encoding, bytes) in encodings(&text) {
            let o = outline(bytes.clone(), &path);
            assert!(o.complete, "{path}");
            // Budgets off, so that no block read is cut short.
            let mut doc = Reader::new()
                .max_lines(0)
                .max_bytes(0)
                .landmark_window(0)
                .summaries(false)
                .document(Source::from_bytes(bytes, &path));
            for l in &o.landmarks {
                let r = doc.read(LineSelection::block(l.line)).unwrap();
                let block = r.lines.unwrap();
                assert_eq!(
                    l.end_line,
                    Some(block.end),
                    "{path} ({encoding}): landmark {} {:?}",
                    l.line,
                    l.text
                );
                assert!(l.end_line.unwrap() >= l.line);
                checked += 1;
            }
            let seen = ranges(&o);
            match &first {
                None => first = Some(seen),
                Some(f) => assert_eq!(&seen, f, "{path}: {encoding} differs from utf-8"),
            }
        }
    }
    eprintln!("{checked} landmarks checked");
    assert!(checked > 300, "only {checked} landmarks checked");
}

#[test]
fn depth_counts_the_enclosing_landmarks() {
    let rust = "mod a {\n    struct S {\n        x: u8,\n    }\n\n    impl S {\n        fn f(&self) {}\n        fn g(&self) {\n            let y = 1;\n        }\n    }\n}\nfn top() {}\n";
    assert_eq!(
        spans(&outline(rust.as_bytes().to_vec(), "a.rs")),
        [
            (1, Some(12), Some(0)),
            (2, Some(4), Some(1)),
            (6, Some(11), Some(1)),
            (7, Some(7), Some(2)),
            (8, Some(10), Some(2)),
            (13, Some(13), Some(0)),
        ]
    );
    let md = "# A\ntext\n\n## B\nb\n### C\nc\n\n## D\nd\n# E\n";
    assert_eq!(
        spans(&outline(md.as_bytes().to_vec(), "a.md")),
        [
            (1, Some(10), Some(0)),
            (4, Some(7), Some(1)),
            (6, Some(7), Some(2)),
            (9, Some(10), Some(1)),
            (11, Some(11), Some(0)),
        ]
    );
}

#[test]
fn a_listing_cut_by_the_budget_still_ends_its_blocks() {
    let text: String = (0..50)
        .map(|i| format!("fn f{i}() {{\n    body();\n}}\n\n"))
        .collect();
    let o = Reader::new()
        .max_lines(3)
        .document(Source::from_bytes(text.into_bytes(), "a.rs"))
        .outline()
        .unwrap();
    assert!(!o.complete);
    let got: Vec<(u64, Option<u64>)> = o.landmarks.iter().map(|l| (l.line, l.end_line)).collect();
    assert_eq!(got, [(1, Some(3)), (5, Some(7)), (9, Some(11))]);
    // The listing stopped at the fourth landmark, line 13.
    assert_eq!(o.scanned_lines, 12);
}

/// The outline with members, every entry listed (3000 for Zed's input: over the default
/// 2000 lines that cap an outline too).
fn members(bytes: Vec<u8>, path: &str) -> Outline {
    Reader::new()
        .max_lines(0)
        .outline_detail(OutlineDetail::Members)
        .document(Source::from_bytes(bytes, path))
        .outline()
        .unwrap()
}

/// An outline entry as `(line, end_line, depth, name)`.
type Named = (u64, Option<u64>, Option<u64>, Option<String>);

/// Each entry of `o` as [`Named`].
fn named(o: &Outline) -> Vec<Named> {
    o.landmarks
        .iter()
        .map(|l| (l.line, l.end_line, l.depth, l.name.clone()))
        .collect()
}

/// Zed's `test_read_large_file` (`crates/agent/src/tools/read_file_tool.rs`, commit
/// 015419a291f37533acbb70ae98f76de66c32a7b0, GPL-3.0-or-later): 1000 structs of two fields,
/// joined by line feeds. Zed's tree-sitter outline lists each struct as
/// `struct Test{i} [L{4i+1}-{4i+4}]` and its fields `a` and `b` one level deeper. The
/// landmark outline lists the structs with the same ranges (the text is the whole line,
/// and fields are not landmarks); the members outline lists the fields too, with Zed's
/// names, in every Unicode encoding.
#[test]
fn zeds_large_file_test_input() {
    let text = (0..1000)
        .map(|i| format!("struct Test{i} {{\n    a: u32,\n    b: usize,\n}}"))
        .collect::<Vec<_>>()
        .join("\n");
    for (encoding, bytes) in encodings(&text) {
        let o = outline(bytes, "large_file.rs");
        let want: Vec<(u64, Option<u64>, Option<u64>, String)> = (0..1000u64)
            .map(|i| {
                (
                    i * 4 + 1,
                    Some(i * 4 + 4),
                    Some(0),
                    format!("struct Test{i} {{"),
                )
            })
            .collect();
        assert_eq!(ranges(&o), want, "{encoding}");
    }
    let zed: Vec<Named> = (0..1000u64)
        .flat_map(|i| {
            let l = i * 4 + 1;
            [
                (l, Some(l + 3), Some(0), Some(format!("struct Test{i}"))),
                (l + 1, Some(l + 1), Some(1), Some("a".to_string())),
                (l + 2, Some(l + 2), Some(1), Some("b".to_string())),
            ]
        })
        .collect();
    for (encoding, bytes) in common::unicode_encodings(&text) {
        let o = members(bytes, "large_file.rs");
        assert!(o.complete, "{encoding}");
        assert_eq!(named(&o), zed, "{encoding}");
    }
}

/// The members of bstr's real `utf8.rs` (tests/data/real): each struct's fields one level
/// under it, past the doc comments and attributes between them, ending where they end;
/// the same in UTF-8, UTF-16 and UTF-32 of either byte order.
#[test]
fn struct_fields_of_a_real_file_in_every_encoding() {
    let path = "tests/data/real/bstr_utf8.rs";
    let text = std::fs::read_to_string(path).unwrap();
    let field = |line, name: &str| (line, Some(line), Some(1), Some(name.to_string()));
    let mut seen = 0;
    for (encoding, bytes) in common::unicode_encodings(&text) {
        let o = members(bytes, path);
        let all = named(&o);
        let of = |line: u64| -> Vec<_> {
            let at = all.iter().position(|e| e.0 == line).unwrap();
            let end = all[at].1.unwrap();
            all[at..]
                .iter()
                .take_while(|e| e.0 <= end)
                .cloned()
                .collect()
        };
        assert_eq!(
            of(266),
            [
                (266, Some(283), Some(0), Some("pub struct Utf8Chunk".into())),
                field(270, "valid"),
                field(277, "invalid"),
                field(282, "incomplete"),
            ],
            "{encoding}"
        );
        assert_eq!(
            of(427),
            [
                (427, Some(430), Some(0), Some("pub struct Utf8Error".into())),
                field(428, "valid_up_to"),
                field(429, "error_len"),
            ],
            "{encoding}"
        );
        assert_eq!(of(251)[1], field(252, "pub(super) bytes"), "{encoding}");
        // A method is a definition of its impl, not a member: the plain outline has it.
        let plain = outline(std::fs::read(path).unwrap(), path);
        let definitions: Vec<u64> = plain.landmarks.iter().map(|l| l.line).collect();
        let listed: Vec<u64> = o
            .landmarks
            .iter()
            .filter(|l| definitions.contains(&l.line))
            .map(|l| l.line)
            .collect();
        assert_eq!(
            listed, definitions,
            "{encoding}: members crowd out no definition"
        );
        seen += 1;
    }
    assert_eq!(seen, 6);
}

/// Zed's `test_large_file_fallback_to_subset` (`crates/agent/src/outline.rs`, commit
/// 366c77e846be1e67ac95510a6ee65bbb9a48be18): 100 Ki of `⚡` (3 bytes each) has no
/// outline, and Zed answers with its first KiB cut down to a character boundary
/// (`floor_char_boundary(1024)`: 1023 bytes, 341 characters). A byte read of the first
/// 1024 bytes under a byte budget of 1024 gives the same text.
#[test]
fn zeds_no_outline_fallback_input() {
    let text = "⚡".repeat(100 * 1024);
    for (encoding, bytes) in encodings(&text) {
        let o = outline(bytes, "untitled");
        assert!(o.landmarks.is_empty() && o.complete, "{encoding}");
    }
    let r = Reader::new()
        .max_bytes(1024)
        .document(Source::from_bytes(text.into_bytes(), "untitled"))
        .read(rangeread::ByteSelection::new(Some(0), None))
        .unwrap();
    assert_eq!(r.content, "⚡".repeat(341));
}

/// The fields of Go's `bufio.Scanner` (tests/data/real/bufio_scan.go, Go 1.19.8): each
/// named as Go's syntax tree names a field, one level under `type Scanner`, in every
/// Unicode encoding; the functions after it are definitions at the top level.
#[test]
fn go_struct_fields_of_a_real_file() {
    let path = "tests/data/real/bufio_scan.go";
    let text = std::fs::read_to_string(path).unwrap();
    let fields = [
        "r",
        "split",
        "maxTokenSize",
        "token",
        "buf",
        "start",
        "end",
        "err",
        "empties",
        "scanCalled",
        "done",
    ];
    let mut want = vec![(29, Some(41), Some(0), Some("type Scanner".to_string()))];
    want.extend(
        (30..)
            .zip(fields)
            .map(|(line, f)| (line, Some(line), Some(1), Some(f.to_string()))),
    );
    want.push((65, Some(65), Some(0), Some("type SplitFunc".to_string())));
    want.push((87, Some(93), Some(0), Some("func NewScanner".to_string())));
    want.push((
        96,
        Some(101),
        Some(0),
        Some("func (s *Scanner) Err".to_string()),
    ));
    for (encoding, bytes) in common::unicode_encodings(&text) {
        let o = members(bytes, path);
        assert_eq!(named(&o)[..want.len()], want[..], "{encoding}");
    }
}

mod members_prop {
    use super::*;
    use proptest::prelude::*;

    /// Lines Rust and Go files are made of, types and their members among them, at any
    /// indent.
    fn line() -> impl Strategy<Value = String> {
        let body = prop::sample::select(vec![
            "pub struct S {",
            "struct W<T>",
            "where",
            "T: Clone,",
            "{",
            "pub enum E {",
            "A,",
            "B(u32),",
            "C { x: u8 },",
            "D {",
            "pub(crate) a: u32,",
            "b: Vec<u8>,",
            "/// doc",
            "#[serde(default)]",
            "// c: u8,",
            "}",
            "},",
            "impl S {",
            "fn f(&self) -> u32 {",
            "let x = S { a: 1 };",
            "",
            "union U {",
            "mod m {",
            "type T struct {",
            "Name string `json:\"n\"`",
            "A, B int",
            "io.Reader",
            "Inner struct {",
            "func (t *T) Run() error {",
            "x := T{A: 1}",
        ]);
        (0usize..4, body).prop_map(|(i, b)| format!("{}{b}", "    ".repeat(i)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// With members, the definitions are those of the plain outline (same lines, texts
        /// and block ends); each member lies inside the block of an entry one level up;
        /// entries are in file order and end at or after their line; the same in UTF-16.
        #[test]
        fn members_add_to_the_definitions_inside_their_types(
            lines in proptest::collection::vec(line(), 0..60),
            path in prop::sample::select(vec!["a.rs", "a.go"]),
        ) {
            let text = lines.join("\n");
            let plain = outline(text.clone().into_bytes(), path);
            let with = members(text.clone().into_bytes(), path);
            let key = |l: &rangeread::Landmark| (l.line, l.text.clone(), l.end_line);
            let defs: Vec<_> = plain.landmarks.iter().map(key).collect();
            let kept: Vec<_> = with
                .landmarks
                .iter()
                .map(key)
                .filter(|k| defs.iter().any(|d| d.0 == k.0))
                .collect();
            prop_assert_eq!(&kept, &defs);
            for (i, m) in with.landmarks.iter().enumerate() {
                let end = m.end_line.unwrap();
                prop_assert!(end >= m.line, "{:?}", m);
                if i > 0 {
                    prop_assert!(with.landmarks[i - 1].line < m.line);
                }
                if defs.iter().any(|d| d.0 == m.line) {
                    continue;
                }
                let depth = m.depth.unwrap();
                prop_assert!(depth >= 1, "{:?}", m);
                let parent = with.landmarks[..i]
                    .iter()
                    .rev()
                    .find(|p| p.depth.unwrap() < depth)
                    .unwrap();
                prop_assert_eq!(parent.depth.unwrap() + 1, depth);
                prop_assert!(parent.end_line.unwrap() >= end, "{:?} in {:?}", m, parent);
            }
            for (encoding, bytes) in common::unicode_encodings(&text) {
                prop_assert_eq!(named(&members(bytes, path)), named(&with), "{}", encoding);
            }
        }
    }
}
