//! Omitted-content summaries, landmarks, outlines, the Markdown renderer, and around/block
//! reads.

mod common;

use common::utf8_reader;
use rangeread::{render, ByteSelection, Error, Format, LineSelection, ReadResult, Source, Totals};

// ---------------------------------------------------------------------------------------
// Landmarks

fn outline_lines(path: &str) -> Vec<u64> {
    let mut doc = utf8_reader().open(path).unwrap();
    let o = doc.outline().unwrap();
    assert!(o.complete, "{path}");
    o.landmarks.iter().map(|l| l.line).collect()
}

#[test]
fn landmarks_rust() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.rs"),
        [7, 12, 17, 18, 24, 25, 29, 30, 32, 38, 40, 42]
    );
}

#[test]
fn landmarks_python() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.py"),
        [7, 12, 16, 20, 24, 25]
    );
}

#[test]
fn landmarks_typescript_and_javascript() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.ts"),
        [3, 7, 9, 14, 19, 26, 31, 35, 37, 38]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.js"),
        [3, 7, 13, 14, 19]
    );
}

#[test]
fn landmarks_go() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.go"),
        [5, 9, 13, 17]
    );
}

#[test]
fn landmarks_java_kotlin_csharp() {
    assert_eq!(
        outline_lines("tests/data/landmarks/Sample.java"),
        [6, 9, 14, 21, 25, 26, 29]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.kt"),
        [3, 5, 8, 13]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/Sample.cs"),
        [3, 6, 10, 18, 21, 23]
    );
}

#[test]
fn landmarks_c_and_cpp() {
    // `#define LIMIT 10`, the prototype on line 17 and the variable are not landmarks;
    // the GNU-style definition is found on its name line.
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.c"),
        [3, 6, 11, 13, 20, 25]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.cpp"),
        [3, 5, 9, 16, 20]
    );
}

#[test]
fn landmarks_ruby_php_shell_sql() {
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.rb"),
        [3, 4, 7, 11, 15]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.php"),
        [2, 6, 8, 11, 13, 19]
    );
    assert_eq!(outline_lines("tests/data/landmarks/sample.sh"), [5, 9, 13]);
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.sql"),
        [2, 7, 10, 14]
    );
}

#[test]
fn landmarks_markdown_toml_ini_yaml() {
    // The `# not a heading` inside the fenced block is skipped.
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.md"),
        [1, 5, 12, 16]
    );
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.toml"),
        [4, 10, 13]
    );
    assert_eq!(outline_lines("tests/data/landmarks/sample.ini"), [2, 5]);
    assert_eq!(
        outline_lines("tests/data/landmarks/sample.yaml"),
        [2, 3, 6, 11]
    );
}

#[test]
fn landmarks_generic_fallback_is_conservative() {
    assert_eq!(outline_lines("tests/data/landmarks/sample.txt"), [3]);
}

#[test]
fn omitted_landmarks_are_nearest_first_and_capped() {
    let r = utf8_reader()
        .read(
            "tests/data/landmarks/sample.rs",
            LineSelection::from(19..=22),
        )
        .unwrap();
    let o = r.omitted.unwrap();
    let lines: Vec<u64> = o.landmarks.iter().map(|l| l.line).collect();
    // Distances: 18 → 1, 17 → 2, 24 → 2, 25 → 3, 12 → 7, 29 → 7, …; a tie goes to the
    // line above.
    assert_eq!(lines, [18, 17, 24, 25, 12, 29, 30, 32, 7, 38, 40, 42]);
    assert_eq!(
        o.landmarks[0].text,
        "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {"
    );
    assert!(
        o.summary.contains("Structure there: fn fmt(&self"),
        "{}",
        o.summary
    );
    assert!(o.summary.contains("(l.18)"));

    let r = utf8_reader()
        .max_landmarks(3)
        .read(
            "tests/data/landmarks/sample.rs",
            LineSelection::from(19..=22),
        )
        .unwrap();
    let lines: Vec<u64> = r
        .omitted
        .unwrap()
        .landmarks
        .iter()
        .map(|l| l.line)
        .collect();
    assert_eq!(lines, [18, 17, 24]);
}

#[test]
fn summaries_can_be_switched_off() {
    let r = utf8_reader()
        .summaries(false)
        .read(
            "tests/data/landmarks/sample.rs",
            LineSelection::from(19..=22),
        )
        .unwrap();
    let o = r.omitted.unwrap();
    assert!(o.landmarks.is_empty());
    assert_eq!(o.before_lines, Some(18));
    assert!(!o.summary.contains("Structure"));
    assert!(o.summary.starts_with("Lines 1-18 omitted"));
}

#[test]
fn landmark_search_is_bounded_by_the_window_and_says_so() {
    // 20 000 functions of 3 lines; read 10 lines at 90 %.
    let mut text = String::new();
    let mut starts = Vec::new();
    for i in 0..20_000 {
        for l in [
            format!("fn f{i}() {{\n"),
            "    body();\n".into(),
            "}\n".into(),
        ] {
            starts.push(text.len() as u64);
            text.push_str(&l);
        }
    }
    starts.push(text.len() as u64);
    let src = Source::from_bytes(text.into_bytes(), "many.rs");
    let mut doc = utf8_reader()
        .landmark_window(4096)
        .max_landmarks(0)
        .document(src);
    let r = doc.read(LineSelection::from(54_001..=54_010)).unwrap();
    let o = r.omitted.unwrap();
    // About 140 functions of 29 bytes on each side.
    assert!(o.landmarks.len() > 250, "{}", o.landmarks.len());
    let (first, last) = (starts[54_000], starts[54_010]);
    assert_eq!((r.bytes.start, r.bytes.end), (first, last));
    for l in &o.landmarks {
        let (s, e) = (starts[l.line as usize - 1], starts[l.line as usize]);
        assert!(
            (e <= first && first - s <= 4096) || (s >= last && e - last <= 4096),
            "landmark {} outside the 4 KiB window",
            l.line
        );
        let i = (l.line - 1) / 3;
        assert_eq!(l.text, format!("fn f{i}() {{"), "line numbers are exact");
    }
    // The whole lines inside the windows, by their byte offsets.
    let a = 1 + starts.iter().position(|&s| s >= first - 4096).unwrap();
    let b = starts.iter().rposition(|&e| e <= last + 4096).unwrap();
    let note = format!(
        "Landmarks were looked for only in lines {a}-54000 above the read and lines \
         54011-{b} below it (4.0 KiB on each side)."
    );
    assert!(o.summary.ends_with(&note), "{}\n{note}", o.summary);
}

#[test]
fn landmarks_of_byte_reads_and_pages_inside_a_line() {
    let text = "fn a() {}\nfn b() {}\nfn c() {}\nfn d() {}\n";
    let mut doc = utf8_reader()
        .totals(Totals::Always)
        .document(Source::from_bytes(text.as_bytes().to_vec(), "x.rs"));
    // Bytes 12..25 lie inside lines 2 and 3.
    let r = doc.read(ByteSelection::new(Some(12), Some(25))).unwrap();
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((2, 3)));
    let lines: Vec<u64> = r
        .omitted
        .unwrap()
        .landmarks
        .iter()
        .map(|l| l.line)
        .collect();
    assert_eq!(lines, [1, 4]);
}

#[test]
fn outline_is_bounded() {
    let mut doc = utf8_reader()
        .outline_max_bytes(200)
        .open("tests/data/landmarks/sample.rs")
        .unwrap();
    let o = doc.outline().unwrap();
    assert!(!o.complete);
    assert!(o.scanned_bytes <= 200);
    assert_eq!(o.total_lines, None);
    assert!(o.landmarks.iter().all(|l| l.line <= o.scanned_lines));

    let mut doc = utf8_reader()
        .max_lines(2)
        .open("tests/data/landmarks/sample.rs")
        .unwrap();
    let o = doc.outline().unwrap();
    assert_eq!(o.landmarks.len(), 2);
    assert!(!o.complete);
}

// ---------------------------------------------------------------------------------------
// Markdown renderer

#[test]
fn markdown_renderer_tags_each_language() {
    let cases = [
        ("a.rs", "rust"),
        ("a.py", "python"),
        ("a.ts", "typescript"),
        ("a.tsx", "tsx"),
        ("a.js", "javascript"),
        ("a.go", "go"),
        ("A.java", "java"),
        ("a.kt", "kotlin"),
        ("A.cs", "csharp"),
        ("a.c", "c"),
        ("a.h", "c"),
        ("a.cpp", "cpp"),
        ("a.rb", "ruby"),
        ("a.php", "php"),
        ("a.sh", "bash"),
        ("a.sql", "sql"),
        ("README.md", "markdown"),
        ("Cargo.toml", "toml"),
        ("a.ini", "ini"),
        ("a.yml", "yaml"),
        ("a.json", "json"),
        ("Makefile", "makefile"),
        ("Dockerfile", "dockerfile"),
        ("notes.unknown", ""),
    ];
    for (name, tag) in cases {
        let text = "one\ntwo\nthree\n";
        let mut doc = utf8_reader().document(Source::from_bytes(text.as_bytes().to_vec(), name));
        let r = doc.read(LineSelection::from(2..=2)).unwrap();
        let md = render(&r, Format::Markdown);
        let mut lines = md.lines();
        assert_eq!(
            lines.next(),
            Some(format!("# File: {name} (Lines 2-2)").as_str())
        );
        assert_eq!(lines.next(), Some(format!("```{tag}").as_str()), "{name}");
        assert_eq!(lines.next(), Some("two"));
        assert_eq!(lines.next(), Some("```"));
        assert_eq!(
            lines.next(),
            Some("[Line 1 omitted (1 line, 4 B); line 3 omitted (1 line, 6 B).]")
        );
    }
}

#[test]
fn markdown_renderer_lists_structure_and_continuation() {
    let r = utf8_reader()
        .max_lines(3)
        .read(
            "tests/data/landmarks/sample.py",
            LineSelection::from(12..=30),
        )
        .unwrap();
    let md = render(&r, Format::Markdown);
    assert!(md.starts_with("# File: tests/data/landmarks/sample.py (Lines 12-14)\n```python\n"));
    assert!(
        md.contains("Structure there: def loud(self): (l.16)"),
        "{md}"
    );
    assert!(
        md.ends_with("[... truncated, showing lines 12-14 of 27; continue with start_line=15]\n")
    );
}

// ---------------------------------------------------------------------------------------
// Around and block reads

const NESTED_RS: &str = "\
//! Module.

mod outer {
    /// A thing.
    #[derive(Debug)]
    pub struct Thing {
        n: u32,
    }

    impl Thing {
        /// Makes one.
        #[inline]
        pub fn new(
            n: u32,
        ) -> Thing
        where
            u32: Copy,
        {
            if n > 0 {
                Thing { n }
            } else {
                Thing { n: 1 }
            }
        }

        fn get(&self) -> u32 {
            self.n
        }
    }
}
";

fn read_nested(sel: LineSelection) -> ReadResult {
    let mut doc = utf8_reader().document(Source::from_bytes(NESTED_RS.as_bytes().to_vec(), "n.rs"));
    doc.read(sel).unwrap()
}

fn span(r: &ReadResult) -> (u64, u64) {
    r.lines.map(|l| (l.start, l.end)).unwrap()
}

#[test]
fn around_at_first_and_last_line() {
    let r = read_nested(LineSelection::around(1, 3));
    assert_eq!(span(&r), (1, 4));
    assert!(!r.adjustments.end_clamped);
    let total = NESTED_RS.lines().count() as u64;
    let r = read_nested(LineSelection::around(total, 3));
    assert_eq!(span(&r), (total - 3, total));
    assert!(
        r.adjustments.end_clamped,
        "the end past the file is clamped"
    );
    let r = read_nested(LineSelection::around(10, 0));
    assert_eq!(r.content, "    impl Thing {\n");
}

#[test]
fn around_errors() {
    let mut doc = utf8_reader().document(Source::from_bytes(NESTED_RS.as_bytes().to_vec(), "n.rs"));
    let e = doc.read(LineSelection::around(500, 10)).unwrap_err();
    assert!(matches!(e, Error::LineBeyondEnd { start: 500, .. }), "{e}");
    let e = doc.read(LineSelection::around(0, 10)).unwrap_err();
    assert_eq!(e.to_string(), "line (0) is invalid: lines are 1-indexed");
    let e = doc.read(LineSelection::block(0)).unwrap_err();
    assert_eq!(e.to_string(), "line (0) is invalid: lines are 1-indexed");
}

#[test]
fn block_inside_nested_blocks() {
    // Inside `new`: the method with its doc comment, attribute, multi-line signature,
    // `where` clause and Allman brace, through its closing brace.
    for line in [13, 14, 19, 20, 22, 24] {
        assert_eq!(
            span(&read_nested(LineSelection::block(line))),
            (11, 24),
            "line {line}"
        );
    }
    // Inside `get`, and on its closing brace.
    assert_eq!(span(&read_nested(LineSelection::block(27))), (26, 28));
    assert_eq!(span(&read_nested(LineSelection::block(28))), (26, 28));
    // On the blank line between the methods: the impl.
    assert_eq!(span(&read_nested(LineSelection::block(25))), (10, 29));
    // A struct field: the struct with its doc comment and attribute.
    assert_eq!(span(&read_nested(LineSelection::block(7))), (4, 8));
    // The `impl` line itself.
    assert_eq!(span(&read_nested(LineSelection::block(10))), (10, 29));
}

#[test]
fn block_at_first_and_last_line() {
    // Line 1 is a top-level comment, not inside a definition: its statement.
    assert_eq!(span(&read_nested(LineSelection::block(1))), (1, 1));
    // The last line closes `mod outer`.
    let total = NESTED_RS.lines().count() as u64;
    let r = read_nested(LineSelection::block(total));
    assert_eq!(span(&r), (3, total));
    assert_eq!(
        r.requested.lines.map(|l| (l.start, l.end)),
        Some((3, Some(total as i64)))
    );
}

#[test]
fn block_in_python_with_decorators() {
    let py = "\
import os


class A:
    x = 1

    @staticmethod
    @cache
    def f(a):
        if a:
            return 1

        return 2

    def g(self):
        pass


def main():
    pass
";
    let mut doc = utf8_reader().document(Source::from_bytes(py.as_bytes().to_vec(), "a.py"));
    let mut block = |l| span(&doc.read(LineSelection::block(l)).unwrap());
    assert_eq!(
        block(11),
        (7, 13),
        "inside f: decorators through the last body line"
    );
    assert_eq!(block(12), (7, 13), "a blank line inside f");
    assert_eq!(block(5), (4, 16), "a class attribute: the class");
    assert_eq!(block(20), (19, 20), "the last line of the file");
    assert_eq!(block(1), (1, 1), "a top-level statement");
}

#[test]
fn block_in_c_gnu_style_and_outside_definitions() {
    let c = "\
#include <stdio.h>

/* Adds. */
static int
add (int a, int b)
{
  if (a)
    {
      return a + b;
    }
  return b;
}

int main(void) {
    return add(1, 2);
}
";
    let mut doc = utf8_reader().document(Source::from_bytes(c.as_bytes().to_vec(), "a.c"));
    let mut block = |l| span(&doc.read(LineSelection::block(l)).unwrap());
    assert_eq!(
        block(9),
        (3, 12),
        "comment, return type line, name line, body"
    );
    assert_eq!(block(15), (14, 16));
    assert_eq!(block(16), (14, 16));
}

#[test]
fn block_in_markdown_and_toml_sections() {
    let md = "# T\n\nintro\n\n## A\n\ntext a\n\n### A.1\n\nmore\n\n## B\n\ntext b\n";
    let mut doc = utf8_reader().document(Source::from_bytes(md.as_bytes().to_vec(), "r.md"));
    assert_eq!(span(&doc.read(LineSelection::block(7)).unwrap()), (5, 11));
    assert_eq!(span(&doc.read(LineSelection::block(11)).unwrap()), (9, 11));
    assert_eq!(span(&doc.read(LineSelection::block(15)).unwrap()), (13, 15));
    let toml = "[a]\nx = 1\n\n# about b\n[b]\ny = 2\nz = 3\n\n[c]\n";
    let mut doc = utf8_reader().document(Source::from_bytes(toml.as_bytes().to_vec(), "c.toml"));
    assert_eq!(span(&doc.read(LineSelection::block(6)).unwrap()), (4, 7));
}

#[test]
fn block_longer_than_the_budget_pages() {
    let mut body = String::from("fn long() {\n");
    for i in 0..50 {
        body.push_str(&format!("    step({i});\n"));
    }
    body.push_str("}\n");
    let mut doc = utf8_reader()
        .max_lines(10)
        .document(Source::from_bytes(body.into_bytes(), "l.rs"));
    let r = doc.read(LineSelection::block(30)).unwrap();
    assert_eq!(span(&r), (1, 10));
    assert_eq!(r.truncated.unwrap().next_start_line, Some(11));
}

/// A file of many 64 KiB blocks: `fn fN() {` landmarks between body lines of every
/// length, and now and then a line longer than a block, so that lines straddle block
/// ends everywhere. The landmarks around reads at many places, with and without a
/// cache (whose blocks persist between reads) and with several windows, must be exactly
/// the naive answer: the `fn` lines wholly inside the window, nearest first.
#[test]
fn landmarks_across_blocks_match_the_naive_search_with_and_without_a_cache() {
    use rangeread::IndexCache;
    use std::sync::Arc;
    let mut text = String::new();
    // (start, end, is_landmark) of every line.
    let mut lines: Vec<(u64, u64, bool)> = Vec::new();
    let mut x = 12345u64;
    while text.len() < 1_200_000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let start = text.len() as u64;
        // Every block end falls inside a landmark line, and the rest at random.
        let mark = 65_536 - text.len() % 65_536 < 8 || (x >> 60) < 3;
        let line = if mark {
            format!("fn f{}() {{\n", lines.len())
        } else if 65_536 - text.len() % 65_536 < 200 {
            "    tail();\n".to_string()
        } else if (x >> 50).is_multiple_of(1500) {
            format!("    // {}\n", "y".repeat(70_000))
        } else {
            format!(
                "    body({});{}\n",
                lines.len(),
                " ".repeat((x >> 40) as usize % 120)
            )
        };
        text.push_str(&line);
        lines.push((start, text.len() as u64, mark));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blocks.rs");
    std::fs::write(&path, &text).unwrap();
    let naive = |first: u64, last: u64, window: u64| -> Vec<u64> {
        let (start, end) = (lines[first as usize - 1].0, lines[last as usize - 1].1);
        let (ws, we) = (start.saturating_sub(window), end.saturating_add(window));
        let mut before: Vec<u64> = (1..first)
            .rev()
            .filter(|&l| {
                let (s, _, m) = lines[l as usize - 1];
                m && s >= ws
            })
            .collect();
        let mut after: Vec<u64> = (last + 1..=lines.len() as u64)
            .filter(|&l| {
                let (_, e, m) = lines[l as usize - 1];
                m && e <= we
            })
            .collect();
        before.truncate(40);
        after.truncate(40);
        let (mut b, mut a) = (before.into_iter().peekable(), after.into_iter().peekable());
        let mut out = Vec::new();
        while out.len() < 40 {
            let pick_before = match (b.peek(), a.peek()) {
                (Some(&bl), Some(&al)) => first - bl <= al - last,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            out.push(if pick_before { b.next() } else { a.next() }.unwrap());
        }
        out
    };
    let n = lines.len() as u64;
    let mut straddlers = 0;
    for window in [256 << 10, 100_000, 4096, 70_000] {
        let cache = Arc::new(IndexCache::new(64 << 20));
        let cached = utf8_reader().landmark_window(window).cache(cache.clone());
        let plain = utf8_reader().landmark_window(window);
        // Reads at random places, and just above and below every line cut by a block end.
        let mut reads: Vec<(u64, u64)> = (0..40u64)
            .map(|i| {
                let first = 1 + (i * 7919 * 31) % n;
                (first, (first + i % 25).min(n))
            })
            .collect();
        for (i, &(s, e, _)) in lines.iter().enumerate() {
            let l = i as u64 + 1;
            if s / 65_536 != (e - 1) / 65_536 && l > 5 && l + 5 < n {
                reads.push((l - 4, l - 2));
                reads.push((l + 2, l + 3));
            }
        }
        for (first, last) in reads {
            let sel = LineSelection::from(first..=last);
            let want = naive(first, last, window);
            straddlers += want
                .iter()
                .filter(|&&l| {
                    let (s, e, _) = lines[l as usize - 1];
                    s / 65_536 != (e - 1) / 65_536
                })
                .count();
            let a = cached.read(&path, sel).unwrap();
            let b = plain.read(&path, sel).unwrap();
            let got: Vec<u64> = a
                .omitted
                .as_ref()
                .unwrap()
                .landmarks
                .iter()
                .map(|l| l.line)
                .collect();
            assert_eq!(got, want, "lines {first}-{last}, window {window}");
            for l in &a.omitted.as_ref().unwrap().landmarks {
                assert_eq!(l.text, format!("fn f{}() {{", l.line - 1));
            }
            assert_eq!(a.omitted, b.omitted, "cached and uncached differ");
            // A byte read that starts and ends inside lines: cached and uncached agree.
            let (s, e) = (
                lines[first as usize - 1].0 + 3,
                lines[last as usize - 1].1 - 2,
            );
            let by = ByteSelection::new(Some(s), Some(e.max(s + 1)));
            let a = cached
                .clone()
                .totals(Totals::Always)
                .read(&path, by)
                .unwrap();
            let b = plain
                .clone()
                .totals(Totals::Always)
                .read(&path, by)
                .unwrap();
            assert_eq!(a.omitted, b.omitted, "bytes {s}-{e}, window {window}");
        }
        assert!(cache.memory_bytes() > 0);
    }
    // The reads met landmark lines cut by block ends.
    assert!(straddlers > 10, "{straddlers}");
}
