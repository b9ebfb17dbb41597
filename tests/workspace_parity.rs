//! A workspace confines paths and changes nothing else: every preset answers a text
//! file, a PNG, a PDF, a notebook and two binary files (an ELF executable, a zip) the
//! same with a workspace as without one (the text, the error flag and the media items),
//! and `Reader::open` reads what `Reader::open_in` reads, failing the same way.
//!
//! The files are the repository's own (`tests/data/sample.txt`, the classification
//! corpus in `tests/corpus/files/`, whose PDF has no font, so its text fails to extract),
//! copied into a directory of their own, with a small notebook and a PDF whose page has
//! text written beside them (the repository ships neither).

mod common;
mod documents;

use std::path::{Path, PathBuf};

use common::calls::{preset_call, Ask};
use rangeread::tool::{Dialect, DialectTool, ToolItem, ToolResponse};
use rangeread::{ErrorKind, LineSelection, Reader, Workspace};
use serde_json::Value;

/// The files read: the name each gets in the directory, and where it comes from.
const SHIPPED: &[(&str, &str)] = &[
    ("sample.txt", "tests/data/sample.txt"),
    ("image.png", "tests/corpus/files/image.png"),
    ("doc.pdf", "tests/corpus/files/doc.pdf"),
    ("program.elf", "tests/corpus/files/program.elf"),
    ("archive.zip", "tests/corpus/files/archive.zip"),
];

/// A notebook with a markdown cell and a code cell with a stream output.
const NOTEBOOK: &str = r##"{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "Some prose."]},
  {"cell_type": "code", "execution_count": 1, "metadata": {},
   "outputs": [{"name": "stdout", "output_type": "stream", "text": ["3\n"]}],
   "source": ["print(1 + 2)"]}
 ],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
              "language_info": {"name": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"##;

/// The directory of the files read (canonical, so that no link is in its path).
fn files() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for (name, from) in SHIPPED {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(from);
        std::fs::copy(&from, root.join(name)).unwrap_or_else(|e| panic!("{from:?}: {e}"));
    }
    std::fs::write(root.join("notes.ipynb"), NOTEBOOK).unwrap();
    let text = documents::stream("", b"BT /F1 12 Tf 72 720 Td (Hello from page one) Tj ET");
    std::fs::write(root.join("hello.pdf"), documents::one_page_pdf(text, true)).unwrap();
    (dir, root)
}

/// The names of the files read.
fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
    names.extend(["notes.ipynb", "hello.pdf"]);
    names
}

/// The arguments of a call of `d` on `path`: the path and the parameters it requires.
fn args(d: &Dialect, path: &Path) -> Value {
    preset_call(d, path, Ask::Whole, 100).expect("a whole read")
}

/// What a model gets from an answer: the error flag and its items in order (each
/// medium with its type, its bytes and where it goes). A path may be shown relative to
/// the workspace (Gemini CLI shows it so): the root's prefix is left out of every path.
fn seen(r: &ToolResponse, root: &Path) -> (bool, Vec<String>) {
    let prefix = format!("{}/", root.display());
    let items = r
        .items()
        .into_iter()
        .map(|i| match i {
            ToolItem::Text(t) => format!("text: {t}"),
            ToolItem::Media(m) => format!("{} at {} ({}): {}", m.mime_type, m.at, m.name, m.data),
        })
        .map(|item| item.replace(&prefix, ""))
        .collect();
    (r.is_error, items)
}

#[test]
fn every_preset_answers_the_same_with_and_without_a_workspace() {
    let (_dir, root) = files();
    let mut differ = Vec::new();
    for preset in Dialect::presets() {
        let d = Dialect::preset(preset).unwrap();
        let alone = DialectTool::new(d.clone());
        let confined = DialectTool::new(d.clone()).workspace(Workspace::new(&root).unwrap());
        for name in names() {
            let call = args(&d, &root.join(name));
            let (a, b) = (alone.respond(call.clone()), confined.respond(call));
            let (a, b) = (seen(&a, &root), seen(&b, &root));
            if a != b {
                differ.push(format!(
                    "{preset} on {name}:\n  without a workspace: {a:?}\n  with one:            {b:?}"
                ));
            }
        }
    }
    // Without a workspace, the presets that send images send them (issue 42: all of
    // them refused every binary file).
    for preset in ["read_file", "claude-code", "gemini", "crush", "forge"] {
        let d = Dialect::preset(preset).unwrap();
        let r = DialectTool::new(d.clone()).respond(args(&d, &root.join("image.png")));
        let image = r
            .items()
            .into_iter()
            .any(|i| matches!(i, ToolItem::Media(m) if m.mime_type == "image/png"));
        assert!(image && !r.is_error, "{preset}: {}", r.text);
    }
    assert!(
        differ.is_empty(),
        "{} of {} answers differ:\n{}",
        differ.len(),
        Dialect::presets().len() * names().len(),
        differ.join("\n")
    );
}

#[test]
fn open_reads_what_open_in_reads_and_fails_the_same_way() {
    let (_dir, root) = files();
    let ws = Workspace::new(&root).unwrap();
    let reader = Reader::new();
    let sels = [
        LineSelection::range(Some(0), Some(5)),
        LineSelection::head(3),
        LineSelection::range(Some(1_000), None),
    ];
    for name in names() {
        for sel in &sels {
            let alone = reader.open(root.join(name)).and_then(|mut d| d.read(*sel));
            let confined = reader.open_in(&ws, name).and_then(|mut d| d.read(*sel));
            let kinds = (
                alone.as_ref().map_err(|e| e.kind()),
                confined.as_ref().map_err(|e| e.kind()),
            );
            match (&alone, &confined) {
                (Ok(a), Ok(b)) => assert_eq!(
                    (&a.content, a.lines, a.total_lines),
                    (&b.content, b.lines, b.total_lines),
                    "{name} {sel:?}"
                ),
                (Err(a), Err(b)) => assert_eq!(
                    (
                        a.kind(),
                        a.to_string()
                            .replace(&*root.join(name).to_string_lossy(), name)
                    ),
                    (b.kind(), b.to_string()),
                    "{name} {sel:?}"
                ),
                _ => panic!("{name} {sel:?}: {kinds:?}"),
            }
        }
    }
    // The arguments first, then the content: a PNG read from line 0 is a bad range.
    let png = reader
        .open(root.join("image.png"))
        .unwrap()
        .read(LineSelection::range(Some(0), Some(5)));
    assert_eq!(png.unwrap_err().kind(), ErrorKind::ZeroLine);
    let png = reader
        .open(root.join("image.png"))
        .unwrap()
        .read(LineSelection::head(5));
    assert_eq!(png.unwrap_err().kind(), ErrorKind::Binary);
}
