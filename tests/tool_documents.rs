//! Documents through the tools: the MCP server's `read_file` (raw JSON-RPC on stdio)
//! answers a screenshot, a page of a long manual and cells of a notebook in one call
//! each, within its budget and with a summary of the rest; every provider's image
//! policy keeps the images a tool sends inside that provider's published limits.
//!
//! The documents are real (`tests/documents/setup.sh` fetches them, pinned and checked;
//! provenance in `tests/documents/SOURCES.md`); `RANGEREAD_SKIP_DOCUMENTS=1` skips these
//! tests with a notice.

mod common;
mod documents;

use std::path::Path;
use std::process::Command;

use base64::Engine as _;
use documents::fixture;
use serde_json::{json, Value};

use common::mcp::Session;

/// The unified tool's read, expected to succeed.
trait Read {
    fn read(&mut self, args: Value) -> Answer;
}

impl Read for Session {
    fn read(&mut self, args: Value) -> Answer {
        let r = self.call("read_file", args.clone());
        assert_eq!(r["isError"], json!(false), "{args}: {r}");
        Answer(r)
    }
}

/// A `tools/call` result.
struct Answer(Value);

impl Answer {
    fn items(&self) -> &Vec<Value> {
        self.0["content"].as_array().unwrap()
    }

    /// The text items, in order.
    fn texts(&self) -> Vec<&str> {
        self.items()
            .iter()
            .filter(|i| i["type"] == "text")
            .map(|i| i["text"].as_str().unwrap())
            .collect()
    }

    /// The image items: MIME type and decoded bytes.
    fn images(&self) -> Vec<(String, Vec<u8>)> {
        self.items()
            .iter()
            .filter(|i| i["type"] == "image")
            .map(|i| {
                let data = base64::engine::general_purpose::STANDARD
                    .decode(i["data"].as_str().unwrap())
                    .unwrap();
                (i["mimeType"].as_str().unwrap().to_string(), data)
            })
            .collect()
    }

    fn meta(&self) -> &Value {
        &self.0["structuredContent"]
    }
}

/// The fixtures copied into a fresh root (the fixture directory links into the unpacked
/// packages, and a workspace refuses absolute links).
fn root_with(files: &[(&str, &str)]) -> Option<tempfile::TempDir> {
    fixture("")?;
    let dir = tempfile::tempdir().unwrap();
    for (name, as_name) in files {
        std::fs::copy(fixture(name).unwrap(), dir.path().join(as_name)).unwrap();
    }
    Some(dir)
}

/// Words of a page as poppler's `pdftotext` finds them (installed by the set-up script).
fn pdftotext_words(pdf: &Path, page: u64) -> Vec<String> {
    let out = Command::new("pdftotext")
        .args(["-f", &page.to_string(), "-l", &page.to_string()])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils, installed by tests/documents/setup.sh)");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .filter(|w| w.len() > 5 && w.chars().all(char::is_alphabetic))
        .map(str::to_string)
        .collect()
}

const BUDGET: usize = 100 * 1024;

#[test]
fn an_agent_reads_a_screenshot_page_37_of_a_manual_and_cells_10_to_12_in_one_call_each() {
    let Some(dir) = root_with(&[
        ("screenshot.jpg", "screenshot.jpg"),
        ("refman.pdf", "manual.pdf"),
        ("widgets.ipynb", "widgets.ipynb"),
    ]) else {
        return;
    };
    let root = dir.path().to_str().unwrap();
    let mut s = Session::start(&["--root", root]);
    let tools = s.request("tools/list", json!({}));
    let props = &tools["tools"][0]["inputSchema"]["properties"];
    for p in ["pages", "cells", "crop"] {
        assert!(props.get(p).is_some(), "read_file takes {p}: {props}");
    }

    // A screenshot: one image item inside Anthropic's limits, and its size line.
    let a = s.read(json!({"path": "screenshot.jpg"}));
    let images = a.images();
    assert_eq!(images.len(), 1, "{:?}", a.texts());
    let (mime, sent) = documents::probe_bytes(&images[0].1);
    assert_eq!(
        (mime.as_str(), images[0].0.as_str()),
        ("image/jpeg", "image/jpeg")
    );
    assert!(
        sent.width.max(sent.height) <= 1568 && sent.pixels() <= 1_150_000,
        "{sent}"
    );
    assert!(images[0].1.len() <= 3_750_000);
    assert_eq!(
        a.items()[0]["type"],
        "image",
        "the image first, then its line"
    );
    let note = a.texts().concat();
    assert!(
        note.starts_with(&format!(
            "[Image: original 1920x1080, sent {sent} image/jpeg"
        )),
        "{note}"
    );
    let scale = format!(
        "multiply coordinates by {:.3}",
        1920.0 / f64::from(sent.width)
    );
    assert!(note.contains(&scale), "{note}");
    let tokens = u64::from(sent.width.div_ceil(28) * sent.height.div_ceil(28));
    assert_eq!(a.meta()["tokens"], json!(tokens));
    assert_eq!(a.meta()["original"], json!({"width": 1920, "height": 1080}));

    // Page 37 of R's 2,415-page reference manual: its text, and what the rest holds.
    let a = s.read(json!({"path": "manual.pdf", "pages": "37"}));
    let texts = a.texts();
    let (page, notes) = (texts[0], texts[1]);
    assert!(page.len() <= BUDGET, "{} bytes", page.len());
    assert!(page.contains("--- page 37 ---\n"));
    assert!(!page.contains("--- page 36 ---") && !page.contains("--- page 38 ---"));
    let words = pdftotext_words(&dir.path().join("manual.pdf"), 37);
    let found = words.iter().filter(|w| page.contains(w.as_str())).count();
    assert!(
        words.len() >= 10 && found * 10 >= words.len() * 9,
        "{found} of pdftotext's {} words",
        words.len()
    );
    assert!(
        notes.starts_with("Showing pages 37-37 of 2415; not shown: pages 1-36 and pages 38-2415."),
        "{notes}"
    );
    assert!(
        notes.contains("A read without pages gives the overview: the outline"),
        "{notes}"
    );
    assert!(notes.contains("Continue with pages=\"38\""), "{notes}");
    assert_eq!(a.meta()["page_count"], json!(2415));
    assert_eq!(a.meta()["pages"], json!({"start": 37, "end": 37}));

    // Cells 10-12 of a 100-cell notebook: those cells, and the outline of every cell.
    let a = s.read(json!({"path": "widgets.ipynb", "cells": "10-12"}));
    let texts = a.texts();
    let (cells, notes) = (texts[0], texts[1]);
    assert!(cells.len() <= BUDGET, "{} bytes", cells.len());
    for n in 10..=12 {
        assert!(cells.contains(&format!("--- cell {n} [")), "cell {n}");
    }
    assert!(!cells.contains("--- cell 9 [") && !cells.contains("--- cell 13 ["));
    assert!(cells.contains("Outline (cell:line):\n"), "{cells}");
    assert!(
        notes.starts_with("Showing cells 10-12 of 100 (numbered 0-99)"),
        "{notes}"
    );
    assert!(notes.contains("Continue with cells=\"13-\""), "{notes}");
    assert_eq!(a.meta()["cells"], json!([10, 11, 12]));
}

#[test]
fn a_notebook_s_plot_comes_back_as_image_content_in_its_place() {
    let Some(dir) = root_with(&[("plots.ipynb", "plots.ipynb")]) else {
        return;
    };
    let mut s = Session::start(&["--root", dir.path().to_str().unwrap()]);
    let a = s.read(json!({"path": "plots.ipynb", "cells": "13"}));
    let items = a.items();
    let at = items.iter().position(|i| i["type"] == "image").unwrap();
    let (before, after) = (
        items[at - 1]["text"].as_str().unwrap(),
        items[at + 1]["text"].as_str().unwrap(),
    );
    // The image goes where its output is: after the output's marker and text, before
    // its line.
    assert!(
        before.contains("--- cell 13 [code]")
            && before.contains("--- output 1 (display_data) ---\n"),
        "{before}"
    );
    assert!(after.starts_with("[Image: original "), "{after}");
    assert_eq!(documents::probe_bytes(&a.images()[0].1).0, "image/png");
}

#[test]
fn a_page_range_over_the_budget_pages_and_says_where_to_continue() {
    let Some(dir) = root_with(&[("refman.pdf", "manual.pdf")]) else {
        return;
    };
    let budget = 20_000;
    let root = dir.path().to_str().unwrap();
    let mut s = Session::start(&["--root", root, "--max-bytes", &budget.to_string()]);
    let a = s.read(json!({"path": "manual.pdf", "pages": "30-60"}));
    let page = a.texts()[0];
    let shown = a.meta()["pages"]["end"].as_u64().unwrap();
    assert!(shown < 60, "{shown}");
    // Whole pages until the budget; the header and the continuation line are outside it.
    let pages_text: usize = page
        .split("--- page ")
        .skip(1)
        .map(|p| p.split_once('\n').map_or(0, |x| x.1.len()))
        .sum();
    assert!(pages_text <= budget + 200, "{pages_text}");
    let next = format!("continue with pages=\"{}-\"", shown + 1);
    assert!(page.contains(&next), "{page}");
    assert_eq!(a.meta()["truncated"]["next_page"], json!(shown + 1));
}

/// The tool side of every provider's limits: `read_file` with each image policy, and
/// the claude-code preset with its own, send real images inside the provider's limits.
#[cfg(feature = "images")]
#[test]
fn every_provider_policy_keeps_the_images_a_tool_sends_inside_its_limits() {
    use rangeread::images::ImagePolicy;
    use rangeread::tool::{Dialect, DialectTool};
    let names = [
        "photo.jpg",
        "screenshot.jpg",
        "logo.png",
        "wallpaper.webp",
        "animated.gif",
    ];
    let Some(dir) = root_with(&names.map(|n| (n, n))) else {
        return;
    };
    let ws = rangeread::Workspace::new(dir.path()).unwrap();
    let mut tools = Vec::new();
    for policy in ["anthropic", "claude-code", "openai", "gemini"] {
        let mut d = Dialect::preset("read_file").unwrap();
        d.documents.images.as_mut().unwrap().policy = policy.into();
        tools.push((policy, DialectTool::new(d).workspace(ws.clone()), "path"));
    }
    let claude = DialectTool::new(Dialect::preset("claude-code").unwrap()).workspace(ws.clone());
    tools.push(("claude-code", claude, "file_path"));
    for (policy_name, tool, param) in &tools {
        let policy = ImagePolicy::preset(policy_name).unwrap();
        for name in names {
            let path = dir.path().join(name);
            let r = tool.respond(json!({ *param: path.to_str().unwrap() }));
            let what = format!("{name} by {} under {policy_name}", tool.dialect().preset);
            assert!(!r.is_error, "{what}: {}", r.text);
            assert_eq!(r.media.len(), 1, "{what}");
            let data = base64::engine::general_purpose::STANDARD
                .decode(&r.media[0].data)
                .unwrap();
            let (mime, size) = documents::probe_bytes(&data);
            assert_eq!(mime, r.media[0].mime_type, "{what}");
            documents::assert_within(&policy, size, data.len() as u64, &what);
            // The line beside it names what was sent (Claude Code's only when resized).
            let shown = format!("{size}");
            assert!(
                r.text.is_empty() || r.text.contains(&shown),
                "{what}: {}",
                r.text
            );
        }
    }
}
