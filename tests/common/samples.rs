//! The differential samples of tests/data/*_samples.json, with the verdicts a released tool
//! gave them. tests/gemini_binary.rs and tests/openhands_view.rs each include this file
//! with `#[path]`.

/// The samples of a `{"samples": [{"name", "hex", "binary", "not_modelled"?}]}` file, as
/// (name, bytes, verdict: binary). A verdict the sample marks `not_modelled` rests on
/// something the rule does not model (binaryornot's on chardet's legacy guesses): text.
pub fn samples(json: &str) -> Vec<(String, Vec<u8>, bool)> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                hex(s["hex"].as_str().unwrap()),
                s["binary"].as_bool().unwrap() && s.get("not_modelled").is_none(),
            )
        })
        .collect()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}
