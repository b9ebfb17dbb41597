//! The `openhands-tools` preset (the OpenHands SDK's `file_editor`, `view`): the
//! policies it names in its data beside the `openhands` preset's, each a `Reader` or
//! dialect option a host can set too.

use rangeread::tool::{Dialect, DialectTool, Integers};
use rangeread::{BinaryReason, Classification, ControlBytes, Reader, Workspace, CONTROL_HEAD};
use serde_json::json;

fn tool(files: &[(&str, &[u8])]) -> (tempfile::TempDir, DialectTool) {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let ws = Workspace::new(dir.path()).unwrap();
    let t = DialectTool::new(Dialect::preset("openhands-tools").unwrap()).workspace(ws);
    (dir, t)
}

#[test]
fn a_control_byte_in_the_head_makes_a_file_binary_under_in_head() {
    let line = "line: the quick brown fox jumps\n".repeat(40);
    let at = |i: usize, b: u8| {
        let mut v = line.clone().into_bytes();
        v.insert(i, b);
        v
    };
    let in_head = Reader::new().control_bytes(ControlBytes::InHead);
    let binary = |c: Classification| matches!(c, Classification::Binary(ref b) if b.reason == BinaryReason::ControlBytes);
    // One BEL or ESC in the first 512 bytes: binary; by default one is tolerated.
    for b in [0x07, 0x1B, 0x01] {
        assert!(binary(in_head.classify(&at(100, b))), "{b:#x}");
        assert!(Reader::new().classify(&at(100, b)).is_text(), "{b:#x}");
    }
    // Past the head, and the separators Python's text reading keeps (VT, FF), are text.
    assert!(in_head.classify(&at(CONTROL_HEAD + 10, 0x07)).is_text());
    assert!(in_head.classify(&at(0, 0x0B)).is_text());
    assert!(in_head.classify(&at(0, 0x0C)).is_text());
}

#[test]
fn the_preset_answers_in_the_sdk_s_words() {
    let bell = b"\x07line 1\nline 2\n";
    let (dir, t) = tool(&[("a.txt", b"x\ny\n"), ("bell.txt", bell), ("empty.txt", b"")]);
    let p = |n: &str| dir.path().join(n);
    assert_eq!(t.definition().name, "file_editor");
    // Errors carry the SDK's header; BEL files are refused as binary.
    let r = t.respond(json!({"command": "view", "path": p("bell.txt")}));
    assert!(r.is_error);
    assert!(
        r.text
            .starts_with("[An error occurred during execution.]\nFile validation failed for "),
        "{}",
        r.text
    );
    assert!(r.text.ends_with(
        "File appears to be binary and this file type cannot be read or edited by this tool."
    ));
    // A whole view has no numbered empty line after the final newline; an empty file
    // is the header alone.
    let r = t.respond(json!({"command": "view", "path": p("a.txt")}));
    let header = format!(
        "Here's the result of running `cat -n` on {}:\n",
        p("a.txt").display()
    );
    assert_eq!(r.text, format!("{header}     1\tx\n     2\ty\n"));
    let r = t.respond(json!({"command": "view", "path": p("empty.txt")}));
    assert!(!r.is_error);
    assert!(r.text.ends_with("empty.txt:\n"), "{}", r.text);
}

#[test]
fn view_range_items_are_pydantic_s_lax_ints() {
    let (dir, t) = tool(&[("a.txt", b"x\ny\nz\n")]);
    assert_eq!(
        Dialect::preset("openhands-tools")
            .unwrap()
            .arguments
            .integers,
        Integers::Pydantic
    );
    let path = dir.path().join("a.txt");
    // `"2"`, `2.0` and `true` are the integers pydantic makes of them.
    for range in [json!(["2", 3]), json!([2.0, 3]), json!([true, 1])] {
        let r = t.respond(json!({"command": "view", "path": path, "view_range": range}));
        assert!(!r.is_error, "{range}: {}", r.text);
    }
    let r = t.respond(json!({"command": "view", "path": path, "view_range": ["2", "3"]}));
    assert!(r.text.ends_with("     2\ty\n     3\tz\n"), "{}", r.text);
    // The tool's own refusal quotes what pydantic handed it.
    let r = t.respond(json!({"command": "view", "path": path, "view_range": ["0", "2"]}));
    assert!(r.is_error);
    assert!(
        r.text.contains("parameter: [0, 2]. Its first element `0`"),
        "{}",
        r.text
    );
    // A fraction is refused.
    let r = t.respond(json!({"command": "view", "path": path, "view_range": [1.5, 3]}));
    assert!(r.is_error, "{}", r.text);
}

#[test]
fn images_are_shown_and_long_output_is_cut_in_the_middle() {
    let png = [
        0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, b'I', b'H', b'D', b'R', 0,
        0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE,
    ];
    let long = "A".repeat(17_000);
    let (dir, t) = tool(&[("i.png", &png), ("long.txt", long.as_bytes())]);
    let r = t.respond(json!({"command": "view", "path": dir.path().join("i.png")}));
    assert!(!r.is_error, "{}", r.text);
    assert!(
        r.text
            .ends_with("i.png read successfully. Displaying image content."),
        "{}",
        r.text
    );
    assert_eq!(r.media.len(), 1);
    let r = t.respond(json!({"command": "view", "path": dir.path().join("long.txt")}));
    let notice = "<response clipped><NOTE>Due to the max output limit";
    let (head, tail) = r.text.split_once(notice).expect("the notice in the middle");
    assert!(
        head.ends_with('A') && tail.ends_with("AAAA\n"),
        "{}",
        r.text
    );
}
