//! Every preset's answer carries one record of the same shape (issue 42, §2), and what it
//! says is true of the file: the lines and bytes shown, the file's line count, whether
//! and where the answer was cut and by whose budget, the start past the end, the entries
//! of a listing, the image, pages or cells sent, an error's kind and values. These are
//! what a host reads to fill its own fields (Gemini CLI's `linesShown`,
//! `originalLineCount`, `isTruncated`) or to raise its own exceptions (OpenHands'
//! `FileValidationError`), without parsing the text.
//!
//! The files are real: the repository's own sample text, its own sources put end to end
//! for a file past every preset's page, the classification corpus's PNG and ELF
//! executable, and a notebook and a one-page PDF written beside them (the repository
//! ships neither), in a directory of their own.

#[path = "answer_records/caps.rs"]
mod caps;
mod common;
mod documents;
use caps::{not_served, too_large};

use std::path::{Path, PathBuf};

use common::calls::{preset_call, Ask};
use rangeread::tool::{
    AnswerKind, AnswerRecord, Dialect, DialectTool, PartUnit, ToolItem, ToolResponse,
};
use rangeread::{ErrorKind, Reader, TruncationReason, Utf8Policy, Workspace};
use serde_json::{json, Value};

/// The sources put end to end for the long file (over 2,500 lines).
const SOURCES: &[&str] = &[
    "src/tool/render/mod.rs",
    "src/tool/serve/mod.rs",
    "src/tool/dialect/mod.rs",
    "src/tool/serve/roots.rs",
    "src/tool/serve/caps.rs",
];

/// A notebook with a markdown cell and a code cell with a stream output.
const NOTEBOOK: &str = r##"{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "Some prose."]},
  {"cell_type": "code", "execution_count": 1, "metadata": {},
   "outputs": [{"name": "stdout", "output_type": "stream", "text": ["3\n"]}],
   "source": ["print(1 + 2)"]}
 ],
 "metadata": {"language_info": {"name": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"##;

/// The files read, in a directory of their own (canonical: no link in its path).
struct Files {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Files {
    fn new() -> Files {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let copy = |from: &str, to: &str| {
            std::fs::copy(repo.join(from), root.join(to)).unwrap_or_else(|e| panic!("{from}: {e}"));
        };
        copy("tests/data/sample.txt", "sample.txt");
        copy("tests/corpus/files/image.png", "image.png");
        copy("tests/corpus/files/program.elf", "program.elf");
        let long: String = SOURCES
            .iter()
            .map(|s| std::fs::read_to_string(repo.join(s)).unwrap())
            .collect();
        std::fs::write(root.join("long.rs"), long).unwrap();
        std::fs::write(root.join("notes.ipynb"), NOTEBOOK).unwrap();
        let page = documents::stream("", b"BT /F1 12 Tf 72 720 Td (Hello from page one) Tj ET");
        std::fs::write(root.join("hello.pdf"), documents::one_page_pdf(page, true)).unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/lib.rs"), "pub fn f() {}\n").unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
        Files { _dir: dir, root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    fn bytes(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }

    fn text(&self, name: &str) -> String {
        String::from_utf8(self.bytes(name)).unwrap()
    }

    /// A tool of `preset` over the directory, under the host's `reader` settings.
    fn tool(&self, preset: &str, reader: Reader) -> DialectTool {
        DialectTool::new(Dialect::preset(preset).unwrap())
            .reader(reader)
            .workspace(Workspace::new(&self.root).unwrap())
    }
}

/// Each line's byte range in `text`, its line feed included.
fn line_spans(text: &str) -> Vec<(u64, u64)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        spans.push((start, start + line.len() as u64));
        start += line.len() as u64;
    }
    spans
}

/// What a model reads of an answer: its text items.
fn said(r: &ToolResponse) -> String {
    r.items()
        .into_iter()
        .filter_map(|i| match i {
            ToolItem::Text(t) => Some(t),
            ToolItem::Media(_) => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `seen` has `text`, as it is or inside a JSON string (a JSON answer).
fn shows(seen: &str, text: &str) -> bool {
    let escaped = serde_json::to_string(text).unwrap();
    seen.contains(text) || seen.contains(&escaped[1..escaped.len() - 1])
}

/// The record of an answer: every answer has one, and an error's is an error record
/// whose message is what the answer says.
fn record<'a>(what: &str, r: &'a ToolResponse) -> &'a AnswerRecord {
    let rec = r
        .record
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: no record"));
    assert_eq!(rec.error.is_some(), r.is_error, "{what}: {rec:?}");
    assert_eq!(rec.kind == AnswerKind::Error, r.is_error, "{what}: {rec:?}");
    if let Some(e) = &rec.error {
        assert!(shows(&said(r), &e.message), "{what}: {e:?} not in {r:?}");
    }
    rec
}

/// The number of the line that starts at byte `at`.
fn bytes_line(spans: &[(u64, u64)], at: u64) -> u64 {
    spans
        .iter()
        .position(|s| s.0 == at)
        .map_or(1, |i| i as u64 + 1)
}

/// The presets that answer with text: all but a tool that sends every file whole as one
/// media item (the MCP filesystem server's `read_media_file`), whose records
/// `a_binary_file_a_missing_file_and_a_directory_are_recorded` checks.
fn text_presets() -> Vec<&'static str> {
    Dialect::presets()
        .into_iter()
        .filter(|p| {
            let d = Dialect::preset(p).unwrap();
            d.documents.raw.as_ref().is_none_or(|r| r.others.is_none())
        })
        .collect()
}

/// Checks a record of lines of `text` against it: the lines and bytes agree with the
/// file, each line shown is in the answer, the line count and size are the file's,
/// `is_partial` says whether anything was left out, and a cut says where the next line
/// starts. Returns the lines shown.
fn check_text(what: &str, r: &ToolResponse, text: &str) -> Option<(u64, u64)> {
    let rec = record(what, r);
    assert_eq!(rec.kind, AnswerKind::Text, "{what}: {rec:?}");
    let spans = line_spans(text);
    let size = text.len() as u64;
    assert_eq!(rec.file_size, Some(size), "{what}: {rec:?}");
    if let Some(total) = rec.total_lines {
        assert_eq!(total, spans.len() as u64, "{what}: {rec:?}");
    }
    let bytes = rec
        .bytes
        .unwrap_or_else(|| panic!("{what}: no bytes in {rec:?}"));
    let whole = bytes.start == 0 && bytes.end == size;
    // A middle cut (the OpenHands SDK's) spans the whole file and leaves lines out of it.
    let left_out = rec.clipped.as_ref().and_then(|c| c.left_out);
    assert_eq!(
        rec.is_partial,
        !whole || left_out.is_some(),
        "{what}: {rec:?}"
    );
    let seen = said(r);
    let shown = &text[bytes.start as usize..bytes.end as usize];
    let first = bytes_line(&spans, bytes.start);
    let kept = shown.lines().enumerate().filter(|(i, _)| {
        let n = first + *i as u64;
        left_out.is_none_or(|o| n < o.start || n > o.end)
    });
    for (_, line) in kept.filter(|(_, l)| !l.trim().is_empty()) {
        assert!(
            shows(&seen, line),
            "{what}: the record says {line:?} was shown; the answer is {seen}"
        );
    }
    if let Some(t) = rec.truncated {
        assert_eq!(t.next_start_byte, bytes.end, "{what}: {rec:?}");
        assert!(rec.is_partial, "{what}: cut and whole: {rec:?}");
    }
    let lines = rec.lines?;
    // The bytes shown are exactly those lines (the last one may be cut in its middle).
    let (first, last) = (lines.start as usize - 1, lines.end as usize - 1);
    assert_eq!(bytes.start, spans[first].0, "{what}: {rec:?}");
    if rec.cut_lines.is_empty() {
        assert_eq!(bytes.end, spans[last].1, "{what}: {rec:?}");
    }
    if let Some(t) = rec.truncated.filter(|t| t.next_start_line.is_some()) {
        assert_eq!(t.next_start_line, Some(lines.end + 1), "{what}: {rec:?}");
    }
    Some((lines.start, lines.end))
}

#[test]
fn every_preset_records_a_whole_read_a_range_and_a_read_past_its_page() {
    let files = Files::new();
    let (sample, long) = (files.text("sample.txt"), files.text("long.rs"));
    let (sample_lines, long_lines) = (line_spans(&sample).len(), line_spans(&long).len() as u64);
    for preset in text_presets() {
        let tool = files.tool(preset, Reader::new());
        let d = tool.dialect().clone();
        let path = files.path("sample.txt");
        let call = preset_call(&d, &path, Ask::Whole, sample_lines as u64).unwrap();
        let what = format!("{preset}, whole sample.txt");
        if let Some(lines) = check_text(&what, &tool.respond(call), &sample) {
            assert_eq!(lines, (1, sample_lines as u64), "{what}");
        }
        let rec = tool
            .respond(preset_call(&d, &path, Ask::Whole, sample_lines as u64).unwrap())
            .record
            .unwrap();
        assert!(
            !rec.is_partial && rec.truncated.is_none(),
            "{what}: {rec:?}"
        );

        // Lines 1200-1230 of the long file, where the tool can ask for a range.
        let path = files.path("long.rs");
        if let Some(call) = preset_call(&d, &path, Ask::Lines(1200, 1230), long_lines) {
            let what = format!("{preset}, lines 1200-1230");
            let (s, e) = check_text(&what, &tool.respond(call), &long)
                .unwrap_or_else(|| panic!("{what}: no lines in the record"));
            // A tool may widen a short range (Cursor shows at least 200 lines).
            assert!(s <= 1200 && e >= 1230 && e < long_lines, "{what}: {s}-{e}");
        }

        // The long file without a range: past every preset's page, or its refusal.
        let what = format!("{preset}, long.rs without a range");
        let r = tool.respond(preset_call(&d, &path, Ask::Whole, long_lines).unwrap());
        let rec = record(&what, &r);
        let first_page = d
            .caps
            .tokens
            .as_ref()
            .is_some_and(|t| t.first_page.is_some());
        assert_eq!(rec.token_cap.is_some(), first_page, "{what}: {rec:?}");
        match rec.kind {
            AnswerKind::Text => {
                let shown = check_text(&what, &r, &long);
                // The tool's own count for a call without one ended the answer: the
                // record names it as the cut, and where the next call starts.
                match d.lines.default_limit.filter(|_| rec.token_cap.is_none()) {
                    Some(n) => {
                        assert_eq!(rec.default_limit, Some(n), "{what}: {rec:?}");
                        assert_eq!(shown, Some((1, n)), "{what}: {rec:?}");
                        let t = rec.truncated.unwrap_or_else(|| panic!("{what}: {rec:?}"));
                        assert_eq!(
                            (t.reason, t.limit, t.next_start_line),
                            (TruncationReason::MaxLines, n, Some(n + 1)),
                            "{what}: {rec:?}"
                        );
                        assert!(!rec.host_budget, "{what}: {rec:?}");
                    }
                    None => assert_eq!(rec.default_limit, None, "{what}: {rec:?}"),
                }
                // The agent's token cap cut a first page: the lines up to it.
                if let Some(cap) = rec.token_cap {
                    let (s, e) = shown.unwrap_or_else(|| panic!("{what}: no lines"));
                    assert!(cap.tokens > cap.max, "{what}: {rec:?}");
                    assert!(
                        s == 1 && e < long_lines && rec.is_partial,
                        "{what}: {rec:?}"
                    );
                    let next = format!("{}", e + 1);
                    assert!(
                        said(&r).contains(&next),
                        "{what}: no {next} in {}",
                        said(&r)
                    );
                }
            }
            // Zed's outline of a large file: its line count, and that it is not all.
            AnswerKind::Note => {
                assert_eq!(rec.total_lines, Some(long_lines), "{what}: {rec:?}");
                assert!(rec.is_partial && rec.lines.is_none(), "{what}: {rec:?}");
            }
            // A refusal of a read over the tool's cap (Goose's 2,000 lines unranged).
            AnswerKind::Error => {
                let e = rec.error.as_ref().unwrap();
                assert_eq!(e.kind, ErrorKind::TooLarge, "{what}: {e:?}");
                too_large(&what, rec, long.len() as u64, long_lines);
            }
            other => panic!("{what}: {other:?}"),
        }
    }
}

#[test]
fn a_host_budget_below_the_agents_is_recorded_as_the_hosts_cut() {
    let files = Files::new();
    let sample = files.text("sample.txt");
    let lines = line_spans(&sample).len() as u64;
    let hosts: [(&str, Reader, TruncationReason); 2] = [
        (
            "10 lines",
            Reader::new().max_lines(10),
            TruncationReason::MaxLines,
        ),
        (
            "300 bytes",
            Reader::new().max_bytes(300),
            TruncationReason::MaxBytes,
        ),
    ];
    for preset in text_presets() {
        for (host, reader, reason) in &hosts {
            let tool = files.tool(preset, reader.clone());
            let call = preset_call(tool.dialect(), &files.path("sample.txt"), Ask::Whole, lines);
            let what = format!("{preset}, host budget of {host}");
            let r = tool.respond(call.unwrap());
            let shown = check_text(&what, &r, &sample);
            let rec = r.record.as_ref().unwrap();
            let bytes = rec.bytes.unwrap();
            // A budget that does not apply (lines, to a byte tool) cuts nothing.
            if bytes.end == sample.len() as u64 {
                assert!(
                    rec.truncated.is_none() && !rec.host_budget,
                    "{what}: {rec:?}"
                );
                continue;
            }
            let t = rec
                .truncated
                .unwrap_or_else(|| panic!("{what}: cut, not said: {rec:?}"));
            assert_eq!(t.reason, *reason, "{what}: {rec:?}");
            assert!(rec.host_budget, "{what}: {rec:?}");
            match reason {
                TruncationReason::MaxLines => {
                    assert_eq!((t.limit, shown), (10, Some((1, 10))), "{what}: {rec:?}")
                }
                _ => assert!(bytes.end <= 300, "{what}: {rec:?}"),
            }
        }
    }
}

#[test]
fn a_start_past_the_end_is_recorded_with_the_files_line_count() {
    let files = Files::new();
    let lines = line_spans(&files.text("sample.txt")).len() as u64;
    let start = lines + 40;
    let mut asked = 0;
    for preset in text_presets() {
        let tool = files.tool(preset, Reader::new());
        let path = files.path("sample.txt");
        let Some(call) = preset_call(tool.dialect(), &path, Ask::Lines(start, start + 5), lines)
        else {
            continue;
        };
        asked += 1;
        let what = format!("{preset}, lines {start}-");
        let r = tool.respond(call);
        let rec = record(&what, &r);
        // Error or note, as the preset answers it: the same facts either way.
        assert_eq!(rec.total_lines, Some(lines), "{what}: {rec:?}");
        assert!(rec.lines.is_none(), "{what}: {rec:?}");
        match &rec.error {
            Some(e) => {
                assert_eq!(e.kind, ErrorKind::BeyondEnd, "{what}: {e:?}");
                assert_eq!(e.values["start"], json!(start), "{what}: {e:?}");
                assert_eq!(e.values["total_lines"], json!(lines), "{what}: {e:?}");
                assert!(e.parameter.is_some(), "{what}: {e:?}");
            }
            None => {
                assert_eq!(rec.kind, AnswerKind::PastEnd, "{what}: {rec:?}");
                assert_eq!(rec.past_end_start, Some(start), "{what}: {rec:?}");
            }
        }
        // The record as the bindings and a JSON host get it.
        let v = serde_json::to_value(rec).unwrap();
        assert_eq!(v["total_lines"], json!(lines), "{what}: {v}");
        match rec.kind {
            AnswerKind::Error => assert_eq!(v["error"]["kind"], json!("beyond_end"), "{v}"),
            _ => assert_eq!(
                (&v["kind"], &v["past_end_start"]),
                (&json!("past_end"), &json!(start))
            ),
        }
    }
    assert!(asked >= 12, "only {asked} presets could ask for a start");
}

#[test]
fn the_line_after_the_last_line_feed_is_recorded_as_no_line_at_the_end() {
    let files = Files::new();
    let sample = files.text("sample.txt");
    assert!(sample.ends_with('\n'));
    let lines = line_spans(&sample).len() as u64;
    for preset in text_presets() {
        let tool = files.tool(preset, Reader::new());
        let d = tool.dialect().clone();
        let path = files.path("sample.txt");
        let Some(call) = preset_call(&d, &path, Ask::Lines(lines + 1, lines + 1), lines) else {
            continue;
        };
        let what = format!("{preset}, line {}", lines + 1);
        let r = tool.respond(call);
        let rec = record(&what, &r);
        assert_eq!(rec.total_lines, Some(lines), "{what}: {rec:?}");
        assert!(rec.lines.is_none(), "{what}: {rec:?}");
        if d.lines.split_lines {
            // A tool that splits on line feeds shows the empty line after the last one.
            assert_eq!(rec.kind, AnswerKind::Text, "{what}: {rec:?}");
            let end = sample.len() as u64;
            assert_eq!(
                rec.bytes.map(|b| (b.start, b.end)),
                Some((end, end)),
                "{what}"
            );
            assert_eq!(rec.file_size, Some(end), "{what}: {rec:?}");
        } else {
            assert!(
                matches!(rec.kind, AnswerKind::PastEnd | AnswerKind::Error),
                "{what}: {rec:?}"
            );
        }
    }
}

#[test]
fn a_binary_file_a_missing_file_and_a_directory_are_recorded() {
    let files = Files::new();
    let elf = files.bytes("program.elf");
    for preset in Dialect::presets() {
        let tool = files.tool(preset, Reader::new());
        let d = tool.dialect().clone();

        let what = format!("{preset}, program.elf");
        let r =
            tool.respond(preset_call(&d, &files.path("program.elf"), Ask::Whole, 1000).unwrap());
        let rec = record(&what, &r);
        match (&rec.error, rec.kind) {
            // A tool that reads every file as UTF-8, strictly (rust-mcp-filesystem's
            // read_text_file), refuses it as text that is not UTF-8.
            (Some(e), _) if e.kind == ErrorKind::InvalidUtf8 => {
                assert_eq!(d.decoding.utf8, Utf8Policy::Strict, "{what}: {e:?}");
                assert!(e.values["offset"].is_number(), "{what}: {e:?}");
            }
            (Some(e), _) => {
                assert_eq!(e.kind, ErrorKind::Binary, "{what}: {e:?}");
                assert_eq!(e.values["file_size"], json!(elf.len()), "{what}: {e:?}");
                assert!(e.values["mime"].as_str().is_some(), "{what}: {e:?}");
                assert!(
                    e.path
                        .as_deref()
                        .is_some_and(|p| p.ends_with("program.elf")),
                    "{what}: {e:?}"
                );
                assert_eq!(rec.file_size, Some(elf.len() as u64), "{what}: {rec:?}");
            }
            // A tool that answers a binary file with a note of its own.
            (None, AnswerKind::Note) => {
                assert!(
                    rec.lines.is_none() && rec.bytes.is_none(),
                    "{what}: {rec:?}"
                );
            }
            // A tool that shows it as text (Claude Code's and Codex's tools do).
            (None, AnswerKind::Text) => {
                let text = String::from_utf8_lossy(&elf);
                let rec = r.record.as_ref().unwrap();
                assert_eq!(rec.file_size, Some(elf.len() as u64), "{what}: {rec:?}");
                assert!(rec.lines.is_some() || text.is_empty(), "{what}: {rec:?}");
            }
            // A tool that sends every file whole, as its bytes (the MCP filesystem
            // server's read_media_file).
            (None, AnswerKind::File) => {
                let sent = r.media.iter().map(|m| m.data.len()).sum::<usize>();
                assert!(sent >= elf.len(), "{what}: {rec:?}");
            }
            other => panic!("{what}: {other:?}"),
        }

        let what = format!("{preset}, a missing file");
        let r = tool.respond(preset_call(&d, &files.path("nope.txt"), Ask::Whole, 10).unwrap());
        let e = record(&what, &r).error.clone().expect("an error");
        assert_eq!(e.kind, ErrorKind::NotFound, "{what}: {e:?}");
        assert!(
            e.path.as_deref().is_some_and(|p| p.ends_with("nope.txt")),
            "{what}: {e:?}"
        );

        let what = format!("{preset}, a directory");
        let r = tool.respond(preset_call(&d, &files.path("src"), Ask::Whole, 10).unwrap());
        let rec = record(&what, &r);
        match (&rec.error, d.directory.is_some()) {
            (Some(e), false) => {
                assert_eq!(e.kind, ErrorKind::IsDirectory, "{what}: {e:?}");
                assert!(
                    e.path.as_deref().is_some_and(|p| p.ends_with("src")),
                    "{what}: {e:?}"
                );
            }
            (None, true) => {
                assert_eq!(rec.kind, AnswerKind::Listing, "{what}: {rec:?}");
                let parts = rec.parts.unwrap();
                assert_eq!(parts.unit, PartUnit::Entries, "{what}: {rec:?}");
                assert_eq!((parts.shown, parts.total), (2, 2), "{what}: {rec:?}");
                assert!(!rec.is_partial, "{what}: {rec:?}");
                let seen = said(&r);
                assert!(
                    seen.contains("lib.rs") && seen.contains("main.rs"),
                    "{what}: {seen}"
                );
            }
            other => panic!(
                "{what}: a listing form {}: {other:?}",
                d.directory.is_some()
            ),
        }
    }
}

#[test]
fn a_listing_cut_by_a_limit_or_a_clip_records_the_entries_it_shows() {
    let files = Files::new();
    let dir = files.path("many");
    std::fs::create_dir(&dir).unwrap();
    // More entries than Goose lists (50) and than OpenHands' 16,000 characters hold.
    let count = 700;
    for i in 0..count {
        let name = format!("test_fixture_recorded_response_{i:04}.json");
        std::fs::write(dir.join(name), "{}\n").unwrap();
    }
    let mut listed = 0;
    for preset in text_presets() {
        let tool = files.tool(preset, Reader::new());
        let d = tool.dialect().clone();
        if d.directory.is_none() {
            continue;
        }
        listed += 1;
        let what = format!("{preset}, a directory of {count} files");
        let r = tool.respond(preset_call(&d, &dir, Ask::Whole, 10).unwrap());
        let rec = record(&what, &r);
        let parts = rec.parts.unwrap_or_else(|| panic!("{what}: {rec:?}"));
        assert_eq!(parts.total, count, "{what}: {rec:?}");
        assert!(parts.shown < count && rec.is_partial, "{what}: {rec:?}");
        // Exactly the entries said to be shown are in the answer, whole.
        let seen = said(&r);
        let whole = (0..count)
            .filter(|i| seen.contains(&format!("test_fixture_recorded_response_{i:04}.json")))
            .count() as u64;
        assert_eq!(whole, parts.shown, "{what}: {rec:?}");
    }
    assert!(listed >= 2, "only {listed} presets list a directory");
}

#[test]
fn images_pdf_pages_and_notebook_cells_are_recorded_where_the_preset_serves_them() {
    let files = Files::new();
    let (png, pdf) = (files.bytes("image.png"), files.bytes("hello.pdf"));
    let mut served = [0; 3];
    for preset in text_presets() {
        let tool = files.tool(preset, Reader::new());
        let d = tool.dialect().clone();
        let docs = &d.documents;
        let raw = |ext: &str| {
            docs.raw
                .as_ref()
                .is_some_and(|r| r.extensions.contains_key(ext))
        };
        let call = |name: &str| {
            tool.respond(preset_call(&d, &files.path(name), Ask::Whole, 1000).unwrap())
        };

        let what = format!("{preset}, image.png");
        let r = call("image.png");
        let rec = record(&what, &r);
        if raw("png") {
            assert_eq!(rec.kind, AnswerKind::File, "{what}: {rec:?}");
            let media = rec.media.as_ref().unwrap();
            assert_eq!(
                (media.mime.as_str(), media.bytes),
                ("image/png", png.len() as u64)
            );
            served[0] += 1;
        } else if docs.images.is_some() {
            assert_eq!(rec.kind, AnswerKind::Image, "{what}: {rec:?}");
            assert_eq!(rec.file_size, Some(png.len() as u64), "{what}: {rec:?}");
            let media = rec.media.as_ref().unwrap();
            let size = |s: Option<rangeread::images::Size>| s.map(|s| (s.width, s.height));
            // The corpus's PNG is 4 by 4 pixels, sent as it is.
            assert_eq!(size(media.original), Some((4, 4)), "{what}: {rec:?}");
            assert_eq!(size(media.sent), Some((4, 4)), "{what}: {rec:?}");
            assert_eq!(media.mime, "image/png", "{what}: {rec:?}");
            served[0] += 1;
        } else {
            not_served(&what, &r, &png);
        }

        let what = format!("{preset}, hello.pdf");
        let r = call("hello.pdf");
        let rec = record(&what, &r);
        // Claude Code sends a PDF read without pages whole, as a document.
        let whole = docs.pdf.as_ref().is_some_and(|f| f.whole_as_document);
        if raw("pdf") || whole {
            assert_eq!(rec.kind, AnswerKind::File, "{what}: {rec:?}");
            let media = rec.media.as_ref().unwrap();
            assert_eq!(media.mime, "application/pdf", "{what}: {rec:?}");
            assert_eq!(media.bytes, pdf.len() as u64, "{what}: {rec:?}");
            served[1] += 1;
        } else if docs.pdf.is_some() {
            assert_eq!(rec.kind, AnswerKind::Pages, "{what}: {rec:?}");
            let parts = rec.parts.unwrap();
            assert_eq!(parts.unit, PartUnit::Pages, "{what}: {rec:?}");
            assert_eq!(
                (parts.shown, parts.total, parts.first),
                (1, 1, Some(1)),
                "{what}"
            );
            assert!(
                said(&r).contains("Hello from page one"),
                "{what}: {}",
                said(&r)
            );
            served[1] += 1;
        } else {
            not_served(&what, &r, &pdf);
        }

        let what = format!("{preset}, notes.ipynb");
        let r = call("notes.ipynb");
        if docs.notebooks.is_some() {
            let rec = record(&what, &r);
            assert_eq!(rec.kind, AnswerKind::Cells, "{what}: {rec:?}");
            let parts = rec.parts.unwrap();
            assert_eq!(parts.unit, PartUnit::Cells, "{what}: {rec:?}");
            assert_eq!((parts.shown, parts.total), (2, 2), "{what}: {rec:?}");
            assert_eq!(
                (parts.first, parts.last, parts.next),
                (Some(0), Some(1), None)
            );
            assert!(said(&r).contains("print(1 + 2)"), "{what}: {}", said(&r));
            served[2] += 1;
        } else {
            // The notebook's JSON, as text.
            check_text(&what, &r, NOTEBOOK);
        }
    }
    assert!(served.iter().all(|&n| n >= 2), "served: {served:?}");
}

#[test]
fn the_record_carries_the_count_the_text_states_and_the_empty_last_line() {
    let files = Files::new();
    let long = files.text("long.rs");
    assert!(long.ends_with('\n'));
    let lines = line_spans(&long).len() as u64;
    let path = files.path("long.rs");
    // Gemini CLI splits on `\n`: its partial header counts the empty line after the
    // final line feed, and the record says the same count.
    let gemini = files.tool("gemini", Reader::new());
    let r = gemini.respond(json!({"file_path": path}));
    let rec = record("gemini, long.rs", &r);
    assert_eq!(rec.total_lines, Some(lines), "{rec:?}");
    assert_eq!(rec.tool_total_lines, Some(lines + 1), "{rec:?}");
    assert!(!rec.empty_line, "{rec:?}");
    let said = format!("Showing lines 1-2000 of {} total lines", lines + 1);
    assert!(r.text.contains(&said), "{}", r.text);
    // A range that reaches the end shows the empty line, numbered after the last.
    let r =
        gemini.respond(json!({"file_path": path, "start_line": lines - 1, "end_line": lines + 1}));
    let rec = record("gemini, the last lines", &r);
    assert!(rec.empty_line, "{rec:?}");
    assert_eq!(
        rec.lines.map(|l| (l.start, l.end)),
        Some((lines - 1, lines))
    );
    let said = format!(
        "Showing lines {}-{} of {} total lines",
        lines - 1,
        lines + 1,
        lines + 1
    );
    assert!(r.text.contains(&said), "{}", r.text);
    // One line short of it: not shown, and the text says the read is partial.
    let r = gemini.respond(json!({"file_path": path, "start_line": lines - 1, "end_line": lines}));
    let rec = record("gemini, up to the last line", &r);
    assert!(!rec.empty_line, "{rec:?}");
    let said = format!(
        "Showing lines {}-{} of {} total lines",
        lines - 1,
        lines,
        lines + 1
    );
    assert!(r.text.contains(&said), "{}", r.text);
    // The line after the final line feed asked for alone.
    let r =
        gemini.respond(json!({"file_path": path, "start_line": lines + 1, "end_line": lines + 1}));
    let rec = record("gemini, the empty line", &r);
    assert!(rec.empty_line && rec.lines.is_none(), "{rec:?}");
    assert_eq!(rec.tool_total_lines, Some(lines + 1), "{rec:?}");
    // A tool that counts lines as the library does states `total_lines`.
    let codex = files.tool("codex", Reader::new());
    let r = codex.respond(json!({"file_path": path}));
    let rec = record("codex, long.rs", &r);
    assert_eq!(
        (rec.tool_total_lines, rec.empty_line),
        (None, false),
        "{rec:?}"
    );
}
