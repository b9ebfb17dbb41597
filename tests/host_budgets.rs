//! A budget the host sets and the agent's own tool does not have never cuts an answer
//! silently (issue 42): for every preset and host budgets of 1 line, 50 lines and 1 KiB,
//! each cut answer says where to continue, and following it (the record's continuation,
//! passed back in the preset's own parameters) covers the file exactly once.

mod common;

use std::path::Path;

use common::calls::{preset_call, Ask};
use rangeread::tool::{Dialect, DialectTool, Role, ToolItem, ToolResponse};
use rangeread::{Reader, Workspace};
use serde_json::{json, Map, Value};

const LINES: usize = 300;

/// 300 lines of different lengths (11 to 101 bytes), each naming its number.
fn file() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let text: String = (1..=LINES)
        .map(|i| format!("row {i:03} {}\n", "x".repeat(i * 7 % 91)))
        .collect();
    std::fs::write(root.join("f.txt"), &text).unwrap();
    (dir, root, text)
}

/// The arguments every call of `d` carries: the path and the parameters it requires
/// (a count as large as the file, a start at its start).
fn base_args(d: &Dialect, path: &Path) -> Map<String, Value> {
    match preset_call(d, path, Ask::Whole, LINES as u64) {
        Some(Value::Object(args)) => args,
        other => panic!("{}: {other:?}", d.preset),
    }
}

/// The next call's arguments in `d`'s own parameters: from line `line` (bytes from
/// `byte` when the page ended inside a line), `None` when `d` has no way to start there.
fn continue_at(d: &Dialect, line: Option<u64>, byte: u64, total: Option<u64>) -> Option<Value> {
    let by_role = |role: Role| d.params.iter().find(|p| p.role == role).map(|p| &p.name);
    let line = match line {
        Some(l) => l,
        None => return by_role(Role::StartByte).map(|n| json!({ n: byte })),
    };
    if let Some(n) = by_role(Role::StartLine).or(by_role(Role::Offset)) {
        return Some(json!({ n: line }));
    }
    if let Some(n) = by_role(Role::Skip) {
        return Some(json!({ n: line - 1 }));
    }
    if let Some(n) = by_role(Role::LineRange) {
        return Some(json!({ n: [line, -1] }));
    }
    // A tail that counts line feeds first (rust-mcp-filesystem's) reads the whole file
    // for a count as large as it, and one line less than asked below that: no count
    // starts it at line 2. Its answer names the peer tool to continue with.
    if d.lines.tail_counts_line_feeds {
        return None;
    }
    if let (Some(n), Some(total)) = (by_role(Role::Tail), total) {
        // A tool that splits on `\n` counts the empty line after the final line feed (the
        // file here ends with one), in `tail` as in the total its answer says.
        let split = u64::from(d.lines.split_lines);
        return Some(json!({ n: total + split + 1 - line }));
    }
    by_role(Role::StartByte).map(|n| json!({ n: byte }))
}

/// What a model reads of an answer: its items (a JSON answer as its text).
fn said(r: &ToolResponse) -> String {
    let mut out = String::new();
    for item in r.items() {
        if let ToolItem::Text(t) = item {
            out.push_str(t);
            out.push('\n');
        }
    }
    out
}

fn numbers(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Follows `name`'s answers from the file's start under `host`; the byte spans shown.
fn follow(name: &str, root: &Path, text: &str, host: &dyn Fn(Reader) -> Reader) -> Vec<(u64, u64)> {
    let path = root.join("f.txt");
    let tool_of = |n: &str| {
        DialectTool::new(Dialect::preset(n).unwrap())
            .reader(host(Reader::new()))
            .workspace(Workspace::new(root).unwrap())
    };
    let mut tool = tool_of(name);
    let mut args = base_args(tool.dialect(), &path);
    let mut spans = Vec::new();
    for call in 0..=2 * text.len() {
        let r = tool.respond(Value::Object(args.clone()));
        let seen = said(&r);
        assert!(!r.is_error, "{name}, call {call} {args:?}: {seen}");
        let record = r
            .record
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no record"));
        let bytes = record
            .bytes
            .unwrap_or_else(|| panic!("{name}: no bytes in {record:?}"));
        // What the record says was shown is in the answer, line by line.
        for line in text[bytes.start as usize..bytes.end as usize].lines() {
            assert!(
                seen.contains(line),
                "{name}: {line:?} not in the answer {seen}"
            );
        }
        spans.push((bytes.start, bytes.end));
        let Some(t) = record.truncated else {
            return spans;
        };
        // The answer itself says where to continue: the next line or byte, the last line
        // shown (a tool that counts from it), or the lines left (a tail).
        let shown = record.lines.map(|l| l.end);
        let left = record.total_lines.zip(shown).map(|(n, e)| n - e);
        let nums = numbers(&seen);
        assert!(
            [t.next_start_line, Some(t.next_start_byte), shown, left]
                .iter()
                .flatten()
                .any(|n| nums.contains(n)),
            "{name} was cut ({t:?}) and does not say where to continue: {seen}"
        );
        let mut next = continue_at(
            tool.dialect(),
            t.next_start_line,
            t.next_start_byte,
            record.total_lines,
        );
        if next.is_none() {
            // A tool that cannot start inside the file names its peer's tool that can.
            let peer = name.split('/').next().unwrap();
            let other = tool.dialect().output.next_line.split(' ').next().unwrap();
            let other = format!("{peer}/{other}");
            assert!(
                Dialect::presets().contains(&other.as_str()),
                "{name}: no way to continue: {seen}"
            );
            tool = tool_of(&other);
            next = continue_at(
                tool.dialect(),
                t.next_start_line,
                t.next_start_byte,
                record.total_lines,
            );
        }
        args = base_args(tool.dialect(), &path);
        args.extend(next.unwrap().as_object().unwrap().clone());
    }
    panic!("{name}: more calls than the file has bytes");
}

#[test]
fn every_preset_under_a_host_budget_says_where_to_continue_and_covers_the_file_once() {
    let (_d, root, text) = file();
    let budgets: [(&str, &dyn Fn(Reader) -> Reader); 3] = [
        ("1 line", &|r: Reader| r.max_lines(1)),
        ("50 lines", &|r: Reader| r.max_lines(50)),
        ("1 KiB", &|r: Reader| r.max_bytes(1024)),
    ];
    let mut failed = Vec::new();
    for name in Dialect::presets() {
        let d = Dialect::preset(name).unwrap();
        if d.documents.raw.as_ref().is_some_and(|r| r.others.is_some()) {
            // A tool that sends every file whole as one media item (the MCP filesystem
            // server's read_media_file) shows no lines to page through.
            continue;
        }
        for (budget, host) in &budgets {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let spans = follow(name, &root, &text, host);
                let mut at = 0;
                for (start, end) in &spans {
                    assert_eq!(*start, at, "{name} under {budget}: {spans:?}");
                    at = *end;
                }
                assert_eq!(at, text.len() as u64, "{name} under {budget}: {spans:?}");
            }));
            if run.is_err() {
                failed.push(format!("{name} under {budget}"));
            }
        }
    }
    assert!(failed.is_empty(), "failed (see above): {failed:?}");
}

#[test]
fn claude_code_with_a_host_line_budget_says_where_to_continue_in_its_own_voice() {
    let (_d, root, _) = file();
    let tool = DialectTool::new(Dialect::preset("claude-code").unwrap())
        .reader(Reader::new().max_lines(50));
    let r = tool.respond(json!({"file_path": root.join("f.txt")}));
    assert!(!r.is_error, "{}", r.text);
    assert!(r.text.starts_with("1\trow 001"), "{}", r.text);
    assert!(r.text.contains("50\trow 050"), "{}", r.text);
    assert!(!r.text.contains("row 051"), "{}", r.text);
    let tail = &r.text[r.text.find("50\trow 050").unwrap()..];
    assert!(tail.contains("<system-reminder>"), "{tail}");
    assert!(tail.contains("offset=51"), "{tail}");
    let items: String = r
        .items()
        .iter()
        .filter_map(|i| match i {
            ToolItem::Text(t) => Some(*t),
            _ => None,
        })
        .collect();
    assert!(items.contains("offset=51"), "{items}");
}

#[test]
fn a_host_budget_under_openhands_clip_never_sends_the_model_past_lines_it_did_not_see() {
    let (_d, root, text) = file();
    // Each line of `file()` twice: the host's 200 lines are about 20 KB, over OpenHands'
    // 16,000-character clip of its output.
    let wide: String = text.lines().map(|l| format!("{l} {l}\n")).collect();
    std::fs::write(root.join("wide.txt"), &wide).unwrap();
    let tool = DialectTool::new(Dialect::preset("openhands").unwrap())
        .reader(Reader::new().max_lines(200));
    let r = tool.respond(json!({"command": "view", "path": root.join("wide.txt")}));
    assert!(!r.is_error, "{}", r.text);
    let record = r.record.as_ref().unwrap();
    let clipped = record.clipped.expect("the clip cut the text");
    assert!(!clipped.middle, "{record:?}");
    // The clip, the agent's own cut, ended the answer: its notice says so, and nothing
    // names a line after the host's cut (line 201), which would skip what the clip hid.
    let last = record.lines.expect("whole lines kept").end;
    assert!(last < 200, "{record:?}");
    assert!(
        record.truncated.is_none() && !record.host_budget,
        "{record:?}"
    );
    assert!(r.text.contains("<response clipped>"), "{}", r.text);
    assert!(!r.text.contains("201"), "{}", &r.text[r.text.len() - 600..]);
}

/// A host's line-length budget of 10 characters, for every preset: each line it cut is
/// in the record's `cut_lines`, and the answer says how many bytes were left out and
/// the byte where the rest starts; following that (the preset's byte parameter, where it
/// has one) covers every byte of the long line exactly once.
#[test]
fn every_preset_under_a_host_line_length_budget_marks_each_cut_line_with_where_the_rest_starts() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let long: String = (0..7).map(|i| format!("{i}abcdefgh")).collect();
    let text = format!("short\n{long}\nend\n");
    std::fs::write(root.join("f.txt"), &text).unwrap();
    let (line_start, line_end) = (6u64, 6 + long.len() as u64);
    let mut failed = Vec::new();
    for name in Dialect::presets() {
        let run = std::panic::catch_unwind(|| {
            let tool = DialectTool::new(Dialect::preset(name).unwrap())
                .reader(Reader::new().max_line_chars(10))
                .workspace(Workspace::new(&root).unwrap());
            let path = root.join("f.txt");
            let r = tool.respond(Value::Object(base_args(tool.dialect(), &path)));
            let seen = said(&r);
            assert!(!r.is_error, "{name}: {seen}");
            let record = r.record.as_ref().unwrap();
            if !r.media.is_empty() {
                // A tool that sends the file whole as a media item (the MCP filesystem
                // server's read_media_file) has no lines to cut: the file is its item.
                assert_eq!(r.media.len(), 1, "{name}: {record:?}");
                return;
            }
            let Some(cut) = record.cut_lines.iter().find(|c| c.line == 2) else {
                // A byte read (fs_read) cuts no line: the whole line is shown.
                assert!(
                    seen.contains(&long),
                    "{name}: cut, not in cut_lines: {seen}"
                );
                return;
            };
            assert!(record.host_line_budget, "{name}: {record:?}");
            assert_eq!(cut.total_bytes, long.len() as u64, "{name}");
            assert_eq!(cut.next_start_byte, line_start + cut.shown_bytes, "{name}");
            let shown = &long[..cut.shown_bytes as usize];
            assert!(seen.contains(shown), "{name}: {shown:?} not in {seen}");
            assert!(
                !seen.contains(&long[..cut.shown_bytes as usize + 1]),
                "{name}: {seen}"
            );
            let nums = numbers(&seen);
            let more = cut.total_bytes - cut.shown_bytes;
            // The bytes left out, or the bytes shown of how many.
            let told = nums.contains(&more)
                || (nums.contains(&cut.shown_bytes) && nums.contains(&cut.total_bytes));
            assert!(
                told && nums.contains(&cut.next_start_byte),
                "{name}: the cut line says neither {more} more bytes nor byte {}: {seen}",
                cut.next_start_byte
            );
            // The rest, read from where the answer says, as often as it says so.
            let Some(param) = tool
                .dialect()
                .params
                .iter()
                .find(|p| p.role == Role::StartByte)
                .map(|p| p.name.clone())
            else {
                return;
            };
            assert!(
                seen.contains(&format!("{param}={}", cut.next_start_byte)),
                "{name}: {seen}"
            );
            let mut got = shown.to_string();
            let mut at = cut.next_start_byte;
            while at < line_end {
                let mut args = base_args(tool.dialect(), &path);
                args.insert(param.clone(), json!(at));
                let r = tool.respond(Value::Object(args));
                let seen = said(&r);
                assert!(!r.is_error, "{name} from byte {at}: {seen}");
                let record = r.record.as_ref().unwrap();
                assert_eq!(
                    record.bytes.map(|b| b.start),
                    Some(at),
                    "{name}: {record:?}"
                );
                let next = record
                    .cut_lines
                    .iter()
                    .map(|c| c.next_start_byte)
                    .find(|&n| n > at && n <= line_end)
                    .unwrap_or(line_end);
                let piece = &text[at as usize..next as usize];
                assert!(seen.contains(piece), "{name}: {piece:?} not in {seen}");
                if next < line_end {
                    assert!(seen.contains(&format!("{param}={next}")), "{name}: {seen}");
                }
                got.push_str(piece);
                at = next;
            }
            assert_eq!(got, long, "{name}");
        });
        if run.is_err() {
            failed.push(name.to_string());
        }
    }
    assert!(failed.is_empty(), "failed (see above): {failed:?}");
}
