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

#[test]
fn a_value_pydantic_refuses_gets_its_report_before_the_tool_runs() {
    let (dir, t) = tool(&[("a.txt", b"x\ny\nz\n")]);
    let v = Dialect::preset("openhands-tools")
        .unwrap()
        .arguments
        .validation
        .expect("the SDK's validator");
    // The version pydantic's links name is the preset's data, not the library's.
    assert_eq!(v.version, "2.13");
    let url = "    For further information visit https://errors.pydantic.dev/2.13/v";
    let keys = "Parameters provided: ['command', 'path', 'view_range']";
    // Before the file is looked at: a missing file gets the same report.
    for path in [dir.path().join("a.txt"), dir.path().join("missing.txt")] {
        let call = |range| t.respond(json!({"command": "view", "path": path, "view_range": range}));
        let r = call(json!([1.5, 3]));
        assert!(r.is_error);
        assert_eq!(
            r.text,
            format!(
                "Error validating tool 'file_editor': 1 validation error for FileEditorAction\n\
                 view_range.0\n  Input should be a valid integer, got a number with a fractional part \
                 [type=int_from_float, input_value=1.5, input_type=float]\n{url}/int_from_float. {keys}"
            )
        );
        let r = call(json!("1,5"));
        assert_eq!(
            r.text,
            format!(
                "Error validating tool 'file_editor': 1 validation error for FileEditorAction\n\
                 view_range\n  Input should be a valid list [type=list_type, input_value='1,5', \
                 input_type=str]\n{url}/list_type. {keys}"
            )
        );
        // Two items: two errors, counted; a long value cut as pydantic cuts its repr.
        let long = "x".repeat(60);
        let r = call(json!([null, long]));
        assert!(r.text.contains(": 2 validation errors for FileEditorAction\nview_range.0\n  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]"), "{}", r.text);
        assert!(r.text.contains("view_range.1\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='xxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxx', input_type=str]"), "{}", r.text);
        assert!(!r.text.contains("[An error occurred during execution.]"));
    }
    // What pydantic accepts reaches the tool, whose refusals keep the SDK's header.
    let r = t.respond(json!({"command": "view", "path": dir.path().join("a.txt"), "view_range": [" 2.00 ", "+3"]}));
    assert!(!r.is_error, "{}", r.text);
    let r =
        t.respond(json!({"command": "view", "path": dir.path().join("a.txt"), "view_range": [2]}));
    assert!(
        r.text
            .starts_with("[An error occurred during execution.]\n"),
        "{}",
        r.text
    );
    // Without the validator in its data the tool words the refusal itself.
    let mut d = Dialect::preset("openhands-tools").unwrap();
    d.arguments.validation = None;
    let r = DialectTool::new(d).respond(
        json!({"command": "view", "path": dir.path().join("a.txt"), "view_range": [1.5, 3]}),
    );
    assert!(
        r.text.ends_with("It should be a list of two integers."),
        "{}",
        r.text
    );
}

#[test]
fn utf16_without_a_mark_that_is_valid_utf8_is_shown_as_utf8() {
    // UTF-16BE of ASCII text, no byte order mark: every byte is valid UTF-8 (zero bytes
    // included), so the SDK's editor decodes it as UTF-8 and shows NULs between the
    // letters; CR and LF each end a line (universal newlines), two lines a line.
    let be: Vec<u8> = "ab,cd\r\nef,gh\r\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    // With a letter outside ASCII (`é` is `00 E9`, invalid UTF-8) it is UTF-16 still.
    let accented: Vec<u8> = "caf\u{e9} au lait\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    let (dir, t) = tool(&[("be.txt", &be), ("accented.txt", &accented)]);
    let r = t.respond(json!({"command": "view", "path": dir.path().join("be.txt")}));
    assert!(!r.is_error, "{}", r.text);
    let body = r.text.split_once(":\n").unwrap().1;
    assert_eq!(
        body,
        "     1\t\0a\0b\0,\0c\0d\0\n     2\t\0\n     3\t\0e\0f\0,\0g\0h\0\n     4\t\0\n"
    );
    let r = t.respond(json!({"command": "view", "path": dir.path().join("accented.txt")}));
    assert!(
        r.text.ends_with("     1\tcaf\u{e9} au lait\n"),
        "{:?}",
        r.text
    );
    // The policy is the reader's `utf8_first`; by default the zero bytes make it UTF-16.
    let d = Dialect::preset("openhands-tools").unwrap();
    assert_eq!(d.decoding.encoding, rangeread::EncodingPolicy::Utf8First);
    let utf8_first = Reader::new().encoding(rangeread::EncodingPolicy::Utf8First);
    assert_eq!(
        utf8_first.classify(&be).encoding(),
        Some(rangeread::Encoding::Utf8)
    );
    assert_eq!(
        Reader::new().classify(&be).encoding(),
        Some(rangeread::Encoding::Utf16Be)
    );
    let openhands = Dialect::preset("openhands").unwrap();
    assert_eq!(
        openhands.decoding.encoding,
        rangeread::EncodingPolicy::Detect
    );
}
