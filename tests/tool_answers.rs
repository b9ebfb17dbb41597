//! The complete answer of every preset through the one documented call,
//! `ToolResponse::items()` (issue 38): a host that sends the items sends the model the
//! continuation of a cut answer and the images and files of the answer; what a binary
//! file gets from each preset is the table of docs/mcp.md ("Binary files"); and with a
//! cache attached, the budgets are the dialect's (or the host's where it set them) and
//! every note that names a budget names the one applied.

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use rangeread::tool::{Dialect, DialectTool, Role, ToolItem, ToolResponse};
use rangeread::{IndexCache, Reader, Workspace};
use serde_json::{json, Map, Value};

const LINES: u64 = 60_000;

/// A directory with a large text file, a PNG and an executable's first bytes.
fn files() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let big: String = (1..=LINES)
        .map(|i| format!("line {i}: the quick brown fox jumps over the lazy dog\n"))
        .collect();
    std::fs::write(root.join("big.txt"), big).unwrap();
    // A 4x4 RGBA PNG (as `convert -size 4x4 xc:white` writes it, metadata left out).
    let png: &[u8] =
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x04\0\0\0\x04\x08\x06\0\0\0\xa9\xf1\x9e~\
        \0\0\0\x0bIDATx\x9cc`\xa0\x1c\0\0\0D\0\x01\x0f\xf2\xa6\xa6\0\0\0\0IEND\xaeB`\x82";
    std::fs::write(root.join("a.png"), png).unwrap();
    // The first bytes of an x86-64 ELF executable.
    let elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0>\0\x01\0\0\0";
    std::fs::write(root.join("blob.bin"), elf).unwrap();
    (dir, root)
}

/// The arguments of a call of `d` on `path`: the path and the required parameters, and
/// with `most` the largest range its optional ones take (as much as it gives in a call).
fn args(d: &Dialect, path: &Path, most: bool) -> Value {
    let mut args = Map::new();
    // One optional bound at most (two spellings of a range conflict): a limit, else an end.
    let has_limit = d.params.iter().any(|p| p.role == Role::Limit);
    for p in &d.params {
        let v = match p.role {
            Role::Path => json!(path),
            Role::Session => json!("default"),
            Role::Limit if most && !p.required => json!(100_000),
            Role::EndLine if most && !p.required && !has_limit => json!(100_000),
            Role::Command => json!("view"),
            Role::Skip => json!(0),
            _ if !p.required => continue,
            Role::Head | Role::Tail | Role::Limit | Role::EndLine => json!(100_000),
            Role::StartLine | Role::Offset => json!(1),
            other => panic!("{}: a required {other:?} parameter {}", d.preset, p.name),
        };
        args.insert(p.name.clone(), v);
    }
    Value::Object(args)
}

fn tool(name: &str, root: &Path) -> DialectTool {
    DialectTool::new(Dialect::preset(name).unwrap()).workspace(Workspace::new(root).unwrap())
}

/// The text of an answer's items split into the lines of `big.txt` it shows and the
/// rest (a JSON answer's `content` field is its lines, the other fields the rest).
fn split(r: &ToolResponse) -> (String, String) {
    let (mut content, mut outside) = (String::new(), String::new());
    for item in r.items() {
        let ToolItem::Text(t) = item else { continue };
        let mut json: Value = match serde_json::from_str(t) {
            Ok(v @ Value::Object(_)) => v,
            _ => {
                for line in t.split('\n') {
                    let to = if line.contains("the quick brown fox") {
                        &mut content
                    } else {
                        &mut outside
                    };
                    to.push_str(line);
                    to.push('\n');
                }
                continue;
            }
        };
        if let Some(Value::String(c)) = json.as_object_mut().and_then(|o| o.remove("content")) {
            content.push_str(&c);
        }
        outside.push_str(&json.to_string());
        outside.push('\n');
    }
    (content, outside)
}

/// The last line of `big.txt` shown in `content`.
fn last_shown(content: &str) -> u64 {
    content
        .split('\n')
        .filter_map(|line| {
            let at = line.find(": the quick brown fox")?;
            line[..at].rsplit("line ").next()?.parse::<u64>().ok()
        })
        .max()
        .unwrap_or(0)
}

fn numbers(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn every_presets_answer_through_items_says_where_to_continue() {
    let (_d, root) = files();
    for name in Dialect::presets() {
        let t = tool(name, &root);
        let r = t.respond(args(t.dialect(), &root.join("big.txt"), true));
        let (content, outside) = split(&r);
        if r.is_error {
            // A cap that refuses a large read (Claude Code, Goose, Crush) says so, and
            // what to ask instead, in the error itself.
            assert!(outside.len() > 40, "{name}: {outside}");
            continue;
        }
        if let [m] = &r.media[..] {
            // A tool that sends the file whole as one item (the MCP filesystem server's
            // read_media_file): nothing is left to continue.
            let size = std::fs::metadata(root.join("big.txt")).unwrap().len() as usize;
            assert_eq!(
                m.data.len(),
                size.div_ceil(3) * 4,
                "{name}: not the whole file"
            );
            continue;
        }
        let last = last_shown(&content);
        assert!(last > 0, "{name} showed no line: {outside}");
        if last < LINES {
            let said = numbers(&outside);
            assert!(
                // The next line, the last shown, or (byte-paged) the next byte: big.txt
                // is ASCII, read from its start.
                said.contains(&(last + 1))
                    || said.contains(&last)
                    || said.contains(&(content.len() as u64)),
                "{name} showed lines up to {last} of {LINES} and its items do not say where \
                 to continue: {outside}"
            );
        }
    }
}

/// What a binary file gets, as the items show it.
fn label(r: &ToolResponse) -> &'static str {
    let items = r.items();
    let media = |p: &str| {
        items
            .iter()
            .any(|i| matches!(i, ToolItem::Media(m) if m.mime_type.starts_with(p)))
    };
    if media("image/") {
        "an image item"
    } else if media("") {
        "the file sent whole"
    } else if r.is_error && r.text.contains("Binary files are not supported") {
        "refused (`Binary files are not supported ...`)"
    } else if r.is_error {
        "refused in the peer's words"
    } else if r.text.is_empty() {
        "nothing"
    } else if r.text.contains('\u{FFFD}') || r.text.contains('\u{7f}') {
        "its bytes as text"
    } else {
        "a text saying it is not shown"
    }
}

#[test]
fn what_a_binary_file_gets_is_the_table_of_the_docs() {
    let (_d, root) = files();
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/mcp.md")).unwrap();
    let at = docs
        .find("### Binary files")
        .expect("docs/mcp.md's binary files table");
    let table = &docs[at..];
    let mut rows = Vec::new();
    for name in Dialect::presets() {
        let t = tool(name, &root);
        let png = t.respond(args(t.dialect(), &root.join("a.png"), false));
        let bin = t.respond(args(t.dialect(), &root.join("blob.bin"), false));
        if label(&png) == "an image item" {
            // The image itself, base64, is in the items.
            let image = png.items().into_iter().find_map(|i| match i {
                ToolItem::Media(m) => Some(m.data.clone()),
                ToolItem::Text(_) => None,
            });
            assert!(
                image.is_some_and(|d| d.starts_with("iVBORw0KGgo")),
                "{name}"
            );
        }
        let row = format!("| `{name}` | {} | {} |", label(&png), label(&bin));
        if !table.contains(&row) {
            rows.push(row);
        }
    }
    assert!(
        rows.is_empty(),
        "docs/mcp.md's binary files table differs; these rows are what the presets do:\n{}",
        rows.join("\n")
    );
}
/// The budget a note names: `(N lines per call)` or `(N KiB per call)` and the like.
fn named_budgets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(end) = rest.find(" per call)") {
        let open = rest[..end].rfind('(').map_or(0, |i| i + 1);
        out.push(rest[open..end].to_string());
        rest = &rest[end + 1..];
    }
    out
}

/// How a note writes a budget of `limit` lines or bytes.
fn budget_text(lines: bool, limit: u64) -> String {
    if lines {
        format!("{limit} lines")
    } else if limit.is_multiple_of(1 << 20) {
        format!("{} MiB", limit >> 20)
    } else if limit.is_multiple_of(1024) {
        format!("{} KiB", limit >> 10)
    } else {
        format!("{limit} bytes")
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// With a cache attached (either way), the budgets are the dialect's unless the host
    /// set them, and every budget a note names is one that was applied.
    #[test]
    fn a_cache_keeps_the_budgets_and_notes_name_the_applied_one(
        host_bytes in prop::option::of(2_048u64..300_000),
        host_lines in prop::option::of(50u64..5_000),
        via_reader in any::<bool>(),
    ) {
        static FILES: std::sync::OnceLock<(tempfile::TempDir, std::path::PathBuf)> =
            std::sync::OnceLock::new();
        let root = &FILES.get_or_init(files).1;
        for name in Dialect::presets() {
            let d = Dialect::preset(name).unwrap();
            let cache = Arc::new(IndexCache::new(8 << 20));
            let ws = Workspace::new(root).unwrap();
            let t = if via_reader {
                let mut r = Reader::new().cache(cache);
                if let Some(b) = host_bytes { r = r.max_bytes(b); }
                if let Some(l) = host_lines { r = r.max_lines(l); }
                DialectTool::new(d.clone()).workspace(ws).reader(r)
            } else {
                DialectTool::new(d.clone()).workspace(ws).cache(cache)
            };
            let (bytes, lines) = if via_reader {
                (host_bytes.unwrap_or(d.limits.max_bytes), host_lines.unwrap_or(d.limits.max_lines))
            } else {
                (d.limits.max_bytes, d.limits.max_lines)
            };
            prop_assert_eq!((t.budgets().max_bytes, t.budgets().max_lines), (bytes, lines));
            // A dialect's cap of ranged reads (session_read_file: 250 lines) is applied
            // unless the line budget is smaller.
            let lines = match d.lines.ranged_max {
                Some(max) if lines == 0 || max < lines => max,
                _ => lines,
            };
            let r = t.respond(args(&d, &root.join("big.txt"), true));
            let text = r.full_text();
            for named in named_budgets(&text) {
                let at = text.find(&named).unwrap_or(0);
                prop_assert!(
                    named == budget_text(true, lines) || named == budget_text(false, bytes),
                    "{}: a note names the budget ({}) but {} lines and {} bytes were applied: {}",
                    name, named, lines, bytes, &text[at.saturating_sub(200)..]
                );
            }
            if let Some(meta) = r.structured.as_ref().and_then(|s| s.get("truncated")) {
                if let Some(limit) = meta.get("limit").and_then(Value::as_u64) {
                    let reason = meta["reason"].as_str().unwrap_or("");
                    let applied = if reason == "max_lines" { lines } else { bytes };
                    prop_assert_eq!(limit, applied, "{}: {}", name, meta);
                }
            }
        }
    }
}
