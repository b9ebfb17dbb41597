//! The `openhands` preset beside openhands-aci 0.3.3's `view`, on what the differential
//! suite found apart: a boolean in `view_range` quoted as Python quotes it, a ranged
//! view re-split at Python's line ends, and a host without a workspace reading what
//! OpenHands reads. The expected texts are openhands-aci's own answers to these files.

use rangeread::tool::{Dialect, DialectTool};
use serde_json::json;

mod documents;
#[path = "common/samples.rs"]
mod samples;

fn tool() -> DialectTool {
    DialectTool::new(Dialect::preset("openhands").unwrap())
}

fn view(tool: &DialectTool, path: &std::path::Path, range: Option<serde_json::Value>) -> String {
    let mut args = json!({"command": "view", "path": path});
    if let Some(r) = range {
        args["view_range"] = r;
    }
    let r = tool.respond(args);
    if r.is_error {
        format!("error: {}", r.text)
    } else {
        r.text
    }
}

#[test]
fn a_boolean_start_is_quoted_as_python_shows_it_in_the_range_check() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(
        view(&tool(), &empty, Some(json!([true, 3]))),
        "error: ERROR:\nInvalid `view_range` parameter: [True, 3]. Its first element `True` \
         should be within the range of lines of the file: [1, 0]."
    );
    // A number is quoted as a number.
    assert_eq!(
        view(&tool(), &empty, Some(json!([2, 3]))),
        "error: ERROR:\nInvalid `view_range` parameter: [2, 3]. Its first element `2` \
         should be within the range of lines of the file: [1, 0]."
    );
}

#[test]
fn a_ranged_view_splits_again_at_pythons_line_ends_and_a_whole_view_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vt.txt");
    let plain: String = (4..24).map(|i| format!("plain line {i:02}\n")).collect();
    std::fs::write(
        &path,
        format!("one\x0btwo\nthree\x1cfour\n\u{85}five\n{plain}"),
    )
    .unwrap();
    let head = format!(
        "Here's the result of running `cat -n` on {}:\n",
        path.display()
    );
    let t = tool();
    assert_eq!(
        view(&t, &path, Some(json!([1, 3]))),
        format!(
            "{head}     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\t\n     6\tfive\n"
        )
    );
    assert_eq!(
        view(&t, &path, Some(json!([2, 4]))),
        format!(
            "{head}     2\tthree\n     3\tfour\n     4\t\n     5\tfive\n     6\tplain line 04\n"
        )
    );
    let whole = view(&t, &path, None);
    assert!(
        whole.starts_with(&format!(
            "{head}     1\tone\x0btwo\n     2\tthree\x1cfour\n     3\t\u{85}five\n     4\tplain line 04\n"
        )),
        "{whole}"
    );
    assert!(
        whole.ends_with("    23\tplain line 23\n    24\t\n"),
        "{whole}"
    );
    // The rule is the preset's data; without it a range shows the file's lines.
    let mut d = Dialect::preset("openhands").unwrap();
    assert!(d.lines.ranged_python_line_ends);
    d.lines.ranged_python_line_ends = false;
    assert_eq!(
        view(&DialectTool::new(d), &path, Some(json!([1, 2]))),
        format!("{head}     1\tone\x0btwo\n     2\tthree\x1cfour\n")
    );
}

#[test]
fn control_bytes_do_not_make_a_short_file_binary_as_binaryornot_reads_it() {
    // binaryornot 0.4.4 calls a sample binary for its control bytes only when over 30%
    // of it is not printable ASCII and under 5% is high bytes (or over 80% of both).
    let d = Dialect::preset("openhands").unwrap();
    assert_eq!(
        d.decoding.control_bytes,
        rangeread::ControlBytes::SampleShares
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ctl.txt");
    std::fs::write(&path, b"bell\x07\x07\x07\nvt\x0b\x0b\n").unwrap();
    let head = format!(
        "Here's the result of running `cat -n` on {}:\n",
        path.display()
    );
    let t = tool();
    assert_eq!(
        view(&t, &path, None),
        format!("{head}     1\tbell\x07\x07\x07\n     2\tvt\x0b\x0b\n     3\t\n")
    );
    assert_eq!(
        view(&t, &path, Some(json!([1, 2]))),
        format!("{head}     1\tbell\x07\x07\x07\n     2\tvt\n     3\t\n     4\t\n")
    );
}

#[cfg(unix)]
#[test]
fn without_a_workspace_a_link_out_of_the_directory_is_read_as_openhands_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let (root, out) = (dir.path().join("root"), dir.path().join("out"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("s.txt"), "secret\n").unwrap();
    let link = root.join("link.txt");
    std::os::unix::fs::symlink(out.join("s.txt"), &link).unwrap();
    let head = format!(
        "Here's the result of running `cat -n` on {}:\n",
        link.display()
    );
    // A host replacing OpenHands' editor, which has no root: the link's target.
    assert_eq!(
        view(&tool(), &link, None),
        format!("{head}     1\tsecret\n     2\t\n")
    );
    // With a workspace the same call is confined.
    let ws = rangeread::Workspace::new(&root).unwrap();
    let confined = view(&tool().workspace(ws), &link, None);
    assert!(confined.starts_with("error: "), "{confined}");
}

/// The samples of tests/data/binaryornot_samples.json, with the verdicts binaryornot
/// 0.4.4 (with chardet 5.2.0) gave them (`tests/differential/binaryornot_check.py`
/// checks those against the installed release).
fn binaryornot_samples() -> Vec<(String, Vec<u8>, bool)> {
    samples::samples(include_str!("data/binaryornot_samples.json"))
}

#[test]
fn sample_shares_calls_binary_what_binaryornot_does() {
    use rangeread::{BinaryReason, Classification, ControlBytes, Reader};
    let shares = Reader::new().control_bytes(ControlBytes::SampleShares);
    let samples = binaryornot_samples();
    assert!(samples.len() >= 20);
    for (name, bytes, binary) in &samples {
        // NUL bytes too are the rule's to judge.
        let c = shares.classify(bytes);
        let by_rule =
            matches!(c, Classification::Binary(ref b) if b.reason == BinaryReason::ControlBytes);
        assert_eq!(by_rule, *binary, "{name}: {c:?}");
    }
    // Through the preset: refused with OpenHands' binary error, or read.
    let dir = tempfile::tempdir().unwrap();
    let t = tool();
    for (i, (name, bytes, binary)) in samples.iter().enumerate() {
        let path = dir.path().join(format!("s{i}.txt"));
        std::fs::write(&path, bytes).unwrap();
        let text = view(&t, &path, None);
        let refused =
            text.starts_with("error: ERROR:\n") && text.contains("File appears to be binary");
        if *binary {
            assert!(refused, "{name}: {text}");
        } else {
            assert!(!refused, "{name}: {text}");
        }
    }
}

#[test]
fn a_pdf_is_converted_whole_whatever_the_range_and_a_page_of_drawings_shows_nothing() {
    // openhands-aci converts a PDF before it looks at `view_range`: any range, even one
    // its check would refuse, gets the whole document; a page of drawings (matplotlib's
    // icons) converts to nothing, not to a marker.
    let dir = tempfile::tempdir().unwrap();
    let drawing = documents::stream("", b"0 0 m 100 100 l S");
    let path = dir.path().join("icon.pdf");
    std::fs::write(&path, documents::one_page_pdf(drawing, true)).unwrap();
    let t = tool();
    let whole = view(&t, &path, None);
    assert_eq!(
        whole,
        format!(
            "Here's the content of the file {} displayed in Markdown format:\n\n",
            path.display()
        )
    );
    for range in [
        json!([1, 5]),
        json!([1.5, 3]),
        json!([5, 2]),
        json!("1,5"),
        json!([]),
    ] {
        assert_eq!(view(&t, &path, Some(range.clone())), whole, "{range}");
    }
    // A text file still has its range checked.
    let text = dir.path().join("a.txt");
    std::fs::write(&text, "one\n").unwrap();
    assert!(view(&t, &text, Some(json!([5, 2]))).starts_with("error: "));
}

#[test]
fn pdf_pages_are_framed_as_pdfminer_lays_them_out() {
    // openhands-aci 0.3.3's answers: a page's text, a blank line after it when it has
    // text, a form feed before each later page; a page of drawings adds only its form
    // feed.
    let dir = tempfile::tempdir().unwrap();
    let page = |text: &str| {
        documents::stream(
            "",
            format!("BT /F1 12 Tf 72 700 Td ({text}) Tj ET").as_bytes(),
        )
    };
    let pdf = |contents: Vec<Vec<u8>>| {
        let n = contents.len();
        let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 3 + i)).collect();
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")).into_bytes(),
        ];
        for i in 0..n {
            objects.push(
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
                     /Resources << /Font << /F1 {} 0 R >> >> >>",
                    3 + n + i,
                    3 + 2 * n
                )
                .into_bytes(),
            );
        }
        objects.extend(contents);
        objects.push(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec());
        documents::pdf(&objects)
    };
    let t = tool();
    for (name, contents, body) in [
        ("one.pdf", vec![page("Hello PDF")], "Hello PDF\n\n"),
        (
            "three.pdf",
            vec![
                page("First"),
                documents::stream("", b"0 0 m 9 9 l S"),
                page("Third"),
            ],
            "First\n\n\x0c\x0cThird\n\n",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, pdf(contents)).unwrap();
        assert_eq!(
            view(&t, &path, None),
            format!(
                "Here's the content of the file {} displayed in Markdown format:\n{body}\n",
                path.display()
            ),
            "{name}"
        );
    }
}
