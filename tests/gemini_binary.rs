//! Gemini CLI's binary rule, `isbinaryfile` 5.0.7's count of a file's first 512 bytes
//! (`ControlBytes::SuspiciousShare`), against the verdicts the released package gave the
//! samples of tests/data/isbinaryfile_samples.json (`tests/differential/
//! isbinaryfile_check.mjs` checks those against the installed release).

use rangeread::tool::{Dialect, DialectTool};
use rangeread::{Classification, ControlBytes, Detection, EncodingPolicy, Reader};
use serde_json::json;

#[path = "common/samples.rs"]
mod samples;

/// The samples, as (name, bytes, isbinaryfile's verdict).
fn samples() -> Vec<(String, Vec<u8>, bool)> {
    samples::samples(include_str!("data/isbinaryfile_samples.json"))
}

#[test]
fn suspicious_share_calls_binary_what_isbinaryfile_does() {
    // Gemini CLI's whole set of decoding rules, as its preset names them.
    let gemini = Reader::new()
        .detection(Detection::NulMeansBinary)
        .encoding(EncodingPolicy::NoLegacy)
        .control_bytes(ControlBytes::SuspiciousShare);
    let samples = samples();
    assert!(samples.len() >= 20);
    for (name, bytes, binary) in &samples {
        let c = gemini.classify(bytes);
        assert_eq!(
            matches!(c, Classification::Binary(_)),
            *binary,
            "{name}: {c:?}"
        );
    }
    // Through the preset: refused with Gemini's words, or read.
    let d = Dialect::preset("gemini").unwrap();
    assert_eq!(d.decoding.control_bytes, ControlBytes::SuspiciousShare);
    let dir = tempfile::tempdir().unwrap();
    let ws = rangeread::Workspace::new(dir.path()).unwrap();
    let tool = DialectTool::new(d).workspace(ws);
    for (i, (name, bytes, binary)) in samples.iter().enumerate() {
        if bytes.is_empty() || name.starts_with("PDF") {
            // An empty file has its own answer; a PDF is a document to Gemini CLI.
            continue;
        }
        let file = format!("s{i}.txt");
        std::fs::write(dir.path().join(&file), bytes).unwrap();
        let r = tool.respond(json!({"file_path": file}));
        let refused = r.text == format!("Cannot display content of binary file: {file}");
        assert_eq!(refused, *binary, "{name}: {}", r.text);
    }
}
