//! Notebooks read by cells: real notebooks from the nbconvert and nbformat sdists
//! (plots, tracebacks, ids, widgets; tests/documents/SOURCES.md), long outputs, and a
//! notebook with a 1 GB output string.

mod documents;

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use documents::fixture;
use rangeread::notebook::{self, CellSelection, NotebookOptions, NotebookRead};
use rangeread::{DocumentRead, DocumentRequest, ErrorKind, RandomAccess, Reader, Source};

fn read_with(
    path: &std::path::Path,
    cells: &str,
    reader: Reader,
) -> rangeread::Result<NotebookRead> {
    let req = DocumentRequest::new().cells(cells.parse()?);
    match reader.read_document(path, &req)? {
        DocumentRead::Notebook(n) => Ok(n),
        other => panic!("{} read as {other:?}", path.display()),
    }
}

fn read(path: &std::path::Path, cells: &str) -> rangeread::Result<NotebookRead> {
    read_with(path, cells, Reader::new())
}

#[test]
fn a_plot_is_an_image_output_and_the_outline_lists_headings() {
    let Some(path) = fixture("plots.ipynb") else {
        return;
    };
    let nb = read(&path, "13").unwrap();
    assert_eq!(nb.cell_count, 17);
    let cell = &nb.cells[0];
    assert_eq!(
        (cell.index, cell.id.as_str(), cell.cell_type.as_str()),
        (13, "cell-13", "code")
    );
    assert_eq!(cell.execution_count, Some(9));
    assert_eq!(cell.source, "plt.hist(evs.real)");
    let img = cell.outputs[1].image.as_ref().expect("the histogram");
    assert_eq!(
        (img.mime.as_str(), img.original.width, img.original.height),
        ("image/png", 152, 86)
    );
    assert_eq!(cell.outputs[1].other_data, ["application/pdf"]);
    assert!(cell.outputs[0]
        .text
        .as_deref()
        .unwrap()
        .starts_with("(array([97,  2,"));
    let DocumentRead::Notebook(_) = Reader::new()
        .read_document(&path, &DocumentRequest::new().cells("13".parse().unwrap()))
        .unwrap()
    else {
        panic!()
    };
    // The outline covers every cell, though one was read.
    assert_eq!(nb.outline[0].cell, 0);
    assert_eq!(nb.outline[0].text, "# NumPy and Matplotlib examples");
    let text = nb.render();
    assert!(text.contains("--- cell 13 [code] id=cell-13 execution_count=9 ---\nplt.hist"));
    assert!(text.contains("[Image: original 152x86, sent 152x86 image/png"));
}

#[test]
fn a_traceback_reads_without_ansi_codes() {
    let Some(path) = fixture("traceback.ipynb") else {
        return;
    };
    let raw = std::fs::read_to_string(&path).unwrap();
    assert!(raw.contains("\\u001b["), "the file has ANSI codes");
    let nb = read(&path, "").unwrap();
    let out = &nb.cells[0].outputs[0];
    assert_eq!(out.output_type, "error");
    assert_eq!(out.ename.as_deref(), Some("NameError"));
    let text = out.text.as_deref().unwrap();
    assert!(text.starts_with("NameError: name 'iAmNotDefined' is not defined\n"));
    assert!(text.contains("----> 1 iAmNotDefined"));
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn cells_are_selected_by_id_and_by_range() {
    let Some(path) = fixture("ids.ipynb") else {
        return;
    };
    let nb = read(&path, "38f37a24").unwrap();
    assert_eq!(nb.cells.len(), 1);
    assert_eq!(nb.cells[0].index, 3);
    assert_eq!(nb.cells[0].outputs[0].text.as_deref(), Some("hello\n"));
    assert_eq!(nb.language.as_deref(), Some("python"));
    assert_eq!(nb.nbformat.as_deref(), Some("4.5"));
    let nb = read(&path, "2-4").unwrap();
    let ids: Vec<_> = nb.cells.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["bb687f78", "38f37a24", "a1f70963"]);
    let nb = read(&path, "7-").unwrap();
    assert_eq!(nb.cells.iter().map(|c| c.index).collect::<Vec<_>>(), [7, 8]);

    let e = read(&path, "nope").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidRange);
    assert!(e
        .to_string()
        .contains("No cell has the id \"nope\" (the notebook has 9 cells)"));
    let e = read(&path, "9").unwrap_err();
    assert!(
        e.to_string()
            .contains("the notebook has 9 cells (numbered 0-8)"),
        "{e}"
    );
    // A notebook written without ids: `cell-N` names cell N.
    let plots = fixture("plots.ipynb").unwrap();
    assert_eq!(read(&plots, "cell-2").unwrap().cells[0].index, 2);
}

#[test]
fn the_byte_budget_pages_by_whole_cells_and_says_where_to_continue() {
    let Some(path) = fixture("widgets.ipynb") else {
        return;
    };
    let all = read_with(&path, "", Reader::new().max_bytes(0)).unwrap();
    assert!(all.truncated.is_none());
    let reader = Reader::new().max_bytes(2048);
    let mut seen = Vec::new();
    let mut next = "0-".to_string();
    loop {
        let page = read_with(&path, &next, reader.clone()).unwrap();
        assert!(!page.cells.is_empty());
        seen.extend(page.cells.iter().map(|c| c.index));
        match page.truncated.clone() {
            Some(t) => {
                assert!(page
                    .render()
                    .ends_with(&format!("continue with cells=\"{}-\"]\n", t.next_cell)));
                next = format!("{}-", t.next_cell);
            }
            None => break,
        }
    }
    let every: Vec<u64> = all.cells.iter().map(|c| c.index).collect();
    assert_eq!(seen, every, "every cell exactly once");
    assert!(seen.len() > 3, "the budget cut the notebook into pages");
}

#[test]
fn a_long_output_keeps_its_head_and_tail_with_counts() {
    let text: String = (1..=100_000).map(|i| format!("step {i} done\n")).collect();
    let nb = serde_json::json!({
        "cells": [{"cell_type": "code", "id": "long", "execution_count": 1, "metadata": {},
                   "source": ["for i in range(100000):\n", "    print(f'step {i+1} done')"],
                   "outputs": [{"output_type": "stream", "name": "stdout", "text": text}]}],
        "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5
    });
    let src = Source::from_bytes(nb.to_string().into_bytes(), "long.ipynb");
    let r = notebook::read(&src, &CellSelection::All, &NotebookOptions::default()).unwrap();
    let out = &r.cells[0].outputs[0];
    let shown = out.text.as_deref().unwrap();
    let cut = out.cut.unwrap();
    assert!(shown.starts_with("step 1 done\n") && shown.ends_with("step 100000 done\n"));
    assert!(shown.len() < 11_000);
    assert_eq!(cut.total_lines, 100_000);
    assert_eq!(cut.total_bytes, text.len() as u64);
    let kept = shown.lines().filter(|l| l.starts_with("step ")).count() as u64;
    assert_eq!(kept + cut.cut_lines, 100_000, "nothing dropped silently");
    assert!(shown.contains(&format!("[... {} lines", thousands(cut.cut_lines))));
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A notebook of `prefix`, `n` bytes of `x`, `suffix`, made up as it is read (no disk).
struct Synthetic {
    prefix: Vec<u8>,
    n: u64,
    suffix: Vec<u8>,
}

impl RandomAccess for Synthetic {
    fn len(&self) -> u64 {
        self.prefix.len() as u64 + self.n + self.suffix.len() as u64
    }
    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let (p, n) = (self.prefix.len() as u64, self.n);
        let mut at = offset;
        let mut rest = &mut buf[..];
        while !rest.is_empty() {
            let (piece, k) = if at < p {
                let k = rest.len().min((p - at) as usize);
                rest[..k].copy_from_slice(&self.prefix[at as usize..at as usize + k]);
                (k, k)
            } else if at < p + n {
                let k = rest.len().min((p + n - at) as usize);
                rest[..k].fill(b'x');
                (k, k)
            } else {
                let s = (at - p - n) as usize;
                let k = rest.len().min(self.suffix.len() - s);
                rest[..k].copy_from_slice(&self.suffix[s..s + k]);
                (k, k)
            };
            at += piece as u64;
            rest = &mut rest[k..];
        }
        Ok(())
    }
}

fn gigabyte_output() -> Source {
    let prefix = br#"{"cells": [{"cell_type": "code", "id": "big", "source": "print('x' * 10**9)", "outputs": [{"output_type": "stream", "name": "stdout", "text": ""#;
    let suffix = br##""}]}, {"cell_type": "markdown", "id": "after", "source": "# After the big one"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"##;
    let big = Synthetic {
        prefix: prefix.to_vec(),
        n: 1 << 30,
        suffix: suffix.to_vec(),
    };
    Source::from_random_access(Arc::new(big), "big.ipynb")
}

#[test]
fn a_gigabyte_output_string_is_a_clear_error_in_bounded_time() {
    let src = gigabyte_output();
    let t = Instant::now();
    let e = notebook::read(&src, &"0".parse().unwrap(), &NotebookOptions::default()).unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    assert_eq!(e.kind(), ErrorKind::DocumentLimit);
    let m = e.to_string();
    assert!(
        m.contains("Cell 0 of \"big.ipynb\" holds more than 67,108,864 bytes"),
        "{m}"
    );
    assert!(m.contains("jq"), "{m}");
}

#[test]
fn a_gigabyte_output_string_outside_the_selection_is_skipped_unheld() {
    let src = gigabyte_output();
    let t = Instant::now();
    let r = notebook::read(&src, &"after".parse().unwrap(), &NotebookOptions::default()).unwrap();
    assert!(t.elapsed() < Duration::from_secs(120), "{:?}", t.elapsed());
    assert_eq!(r.cells[0].source, "# After the big one");
    assert_eq!(r.cell_count, 2);
}

#[test]
fn nbformat_3_and_broken_json_are_invalid_documents() {
    if let Some(path) = fixture("v3.ipynb") {
        let e = read(&path, "").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidDocument);
        assert!(e.to_string().contains("nbformat 3"), "{e}");
    }
    let src = Source::from_bytes(
        br#"{"cells": [{"cell_type": "code", "sou"#.to_vec(),
        "cut.ipynb",
    );
    let e = notebook::read(&src, &CellSelection::All, &NotebookOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDocument);
    assert!(e.to_string().contains("is not a valid notebook"), "{e}");
}

#[test]
fn notebooks_go_through_the_workspace() {
    let Some(path) = fixture("ids.ipynb") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&path, dir.path().join("nb.ipynb")).unwrap();
    let ws = rangeread::Workspace::builder(dir.path())
        .protect("*.ipynb")
        .build()
        .unwrap();
    let e = Reader::new()
        .read_document_in(&ws, "nb.ipynb", &DocumentRequest::new())
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Protected);
    let ws = rangeread::Workspace::new(dir.path()).unwrap();
    let r = Reader::new()
        .read_document_in(&ws, "nb.ipynb", &DocumentRequest::new())
        .unwrap();
    let DocumentRead::Notebook(nb) = r else {
        panic!()
    };
    assert_eq!(nb.path, "nb.ipynb");
}
