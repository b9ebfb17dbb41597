//! The records of refusals by size: a file over a tool's cap, a range over Claude Code's.

use super::*;

/// Checks a refusal of a read over a tool's cap: its size is the file's (bytes, lines)
/// or the text's tokens, over the limit.
pub(super) fn too_large(what: &str, rec: &AnswerRecord, bytes: u64, lines: u64) {
    let e = rec.error.as_ref().unwrap();
    let (size, limit) = (&e.values["size"], &e.values["limit"]);
    assert!(size.as_u64() > limit.as_u64(), "{what}: {e:?}");
    match e.values["unit"].as_str() {
        Some("bytes") => {
            assert_eq!(size, &json!(bytes), "{what}: {e:?}");
            assert_eq!(rec.file_size, Some(bytes), "{what}: {rec:?}");
        }
        Some("lines") => {
            assert_eq!(size, &json!(lines), "{what}: {e:?}");
            assert_eq!(rec.total_lines, Some(lines), "{what}: {rec:?}");
        }
        Some("tokens") => {}
        other => panic!("{what}: unit {other:?}"),
    }
}

#[test]
fn a_file_over_a_tools_size_cap_is_refused_as_too_large_with_its_size() {
    let files = Files::new();
    // The sample text over and over, past 10 MiB (OpenHands refuses any read of it).
    let sample = files.text("sample.txt");
    let big = sample.repeat((10 << 20) / sample.len() + 1);
    let (bytes, lines) = (big.len() as u64, line_spans(&big).len() as u64);
    std::fs::write(files.path("big.txt"), &big).unwrap();
    let mut refused = Vec::new();
    for preset in text_presets() {
        let tool = files.tool(preset, Reader::new());
        let d = tool.dialect().clone();
        let r = tool.respond(preset_call(&d, &files.path("big.txt"), Ask::Whole, lines).unwrap());
        let what = format!("{preset}, a file of {bytes} bytes");
        let rec = record(&what, &r);
        let Some(e) = &rec.error else {
            continue;
        };
        assert_eq!(e.kind, ErrorKind::TooLarge, "{what}: {e:?}");
        too_large(&what, rec, bytes, lines);
        refused.push(preset);
    }
    // Each preset whose data caps the file's size refused it.
    let capped: Vec<&str> = Dialect::presets()
        .into_iter()
        .filter(|n| {
            let caps = Dialect::preset(n).unwrap().caps;
            let under = |c: Option<&rangeread::tool::SizeCap>| c.is_some_and(|c| c.bytes < bytes);
            under(caps.file_size.as_ref()) || under(caps.file_size_any_read.as_ref())
        })
        .collect();
    assert!(!capped.is_empty());
    for preset in capped {
        assert!(
            refused.contains(&preset),
            "{preset} did not refuse: {refused:?}"
        );
    }
}

/// A document the preset does not serve: its refusal of a binary file, its note, or
/// the file as text, recorded as such.
pub(super) fn not_served(what: &str, r: &ToolResponse, bytes: &[u8]) {
    let rec = record(what, r);
    match (&rec.error, rec.kind) {
        // Refused as text that is not UTF-8 (a strict UTF-8 tool).
        (Some(e), _) if e.kind == ErrorKind::InvalidUtf8 => {
            assert!(e.values["offset"].is_number(), "{what}: {e:?}");
        }
        (Some(e), _) => {
            assert_eq!(e.kind, ErrorKind::Binary, "{what}: {e:?}");
            assert_eq!(e.values["file_size"], json!(bytes.len()), "{what}: {e:?}");
        }
        (None, AnswerKind::Note) => {}
        (None, AnswerKind::Text) => {
            assert_eq!(rec.file_size, Some(bytes.len() as u64), "{what}: {rec:?}");
            assert!(rec.bytes.is_some(), "{what}: {rec:?}");
        }
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn a_range_over_claude_codes_range_cap_is_too_large_naming_the_count() {
    let files = Files::new();
    // Three lines of 1.2 MB each: lines 1-3 hold more than the 3.2 MB a range may.
    let line = "y".repeat(1_200_000) + "\n";
    std::fs::write(files.path("wide.txt"), line.repeat(3)).unwrap();
    let tool = files.tool("claude-code", Reader::new());
    let r = tool.respond(json!({"file_path": files.path("wide.txt"), "offset": 1, "limit": 3}));
    let what = "claude-code, lines 1-3 of 3.6 MB";
    let rec = record(what, &r);
    let e = rec
        .error
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: {rec:?}"));
    assert_eq!(e.kind, ErrorKind::TooLarge, "{what}: {e:?}");
    assert_eq!(e.parameter.as_deref(), Some("limit"), "{what}: {e:?}");
    assert!(
        e.path.as_deref().is_some_and(|p| p.ends_with("wide.txt")),
        "{what}: {e:?}"
    );
    assert_eq!(e.values["unit"], json!("range_bytes"), "{what}: {e:?}");
    assert_eq!(e.values["limit"], json!(3_200_000), "{what}: {e:?}");
    // The read stopped at the cap: the range's size is not known, only that it is over.
    assert_eq!(e.values["size"], Value::Null, "{what}: {e:?}");
    assert!(said(&r).contains("smaller limit"), "{what}: {}", said(&r));
    // Two of the lines fit the range cap; their tokens are over the token cap, a
    // refusal whose size is known.
    let r = tool.respond(json!({"file_path": files.path("wide.txt"), "offset": 1, "limit": 2}));
    let e = record(what, &r)
        .error
        .clone()
        .expect("the token cap's refusal");
    assert_eq!(e.values["unit"], json!("tokens"), "{e:?}");
    assert!(
        e.values["size"].as_u64() > e.values["limit"].as_u64(),
        "{e:?}"
    );
}
