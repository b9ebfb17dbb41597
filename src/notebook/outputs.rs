//! A cell's outputs as a model reads them: stream text, `text/plain` results, errors
//! (`ename: evalue` and the traceback, ANSI escapes removed), images through the image
//! policy; each text over its budget cut to its head and tail, with what was cut counted.

use base64::Engine;
use serde::Serialize;
use serde_json::Value;

use crate::images::{self, ImageRead, ImageRequest};
use crate::source::Source;
use crate::text::{count_lines, head_tail};

/// One output of a code cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// `stream`, `execute_result`, `display_data` or `error` (nbformat's `output_type`).
    pub output_type: String,
    /// The stream's name (`stdout`, `stderr`), for streams.
    pub name: Option<String>,
    /// The error's name (`ZeroDivisionError`), for errors.
    pub ename: Option<String>,
    /// The text shown: the stream, the `text/plain` data, or for an error
    /// `ename: evalue` and the traceback; ANSI escapes removed; when over the budget,
    /// its head, a marker line and its tail (see `cut`).
    pub text: Option<String>,
    /// What was cut from `text`, when it was over its budget.
    pub cut: Option<Cut>,
    /// An image of the output (`image/png`, `image/jpeg`, `image/gif`, `image/webp`
    /// data), read through the image policy.
    pub image: Option<ImageRead>,
    /// Why an image of the output could not be read, when it could not.
    pub image_error: Option<String>,
    /// The MIME types of the output's data that are not shown (`text/html`, widgets).
    pub other_data: Vec<String>,
}

/// What was cut from the middle of a long text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// The bytes of the whole text.
    pub total_bytes: u64,
    /// The lines of the whole text.
    pub total_lines: u64,
    /// The bytes left out.
    pub cut_bytes: u64,
    /// The lines left out (whole or partial).
    pub cut_lines: u64,
}

/// The text of a (possibly cut) long string: head, marker, tail.
pub(crate) fn cut_text(text: String, max: usize) -> (String, Option<Cut>) {
    let Some((head, tail)) = (if max == 0 {
        None
    } else {
        head_tail(&text, max)
    }) else {
        return (text, None);
    };
    let cut = Cut {
        total_bytes: text.len() as u64,
        total_lines: count_lines(&text),
        cut_bytes: (tail - head) as u64,
        cut_lines: count_lines(&text[head..tail]),
    };
    let mut out = String::with_capacity(head + (text.len() - tail) + 80);
    out.push_str(&text[..head]);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "[... {} lines ({} bytes) cut from the middle of this output ...]\n",
        images::thousands(cut.cut_lines),
        images::thousands(cut.cut_bytes)
    ));
    out.push_str(&text[tail..]);
    (out, Some(cut))
}

/// Removes ANSI escape sequences: CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL` or
/// `ESC \`) and two-byte escapes.
pub(crate) fn strip_ansi(s: &str) -> String {
    if !s.contains('\u{1b}') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A string or a list of strings (nbformat's multiline strings), joined.
fn multiline(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => Some(a.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// The image MIME types an output may carry, in the order they are preferred.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/// One output from its JSON, its text cut to `max_text` bytes, images read under
/// `request`; `label` names it in image paths (`cell 3 output 1`).
pub(crate) fn output(v: &Value, max_text: usize, request: &ImageRequest, label: &str) -> Output {
    let get = |k: &str| v.get(k);
    let output_type = get("output_type")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();
    let mut out = Output {
        output_type: output_type.clone(),
        name: get("name").and_then(Value::as_str).map(str::to_string),
        ename: None,
        text: None,
        cut: None,
        image: None,
        image_error: None,
        other_data: Vec::new(),
    };
    let text = match output_type.as_str() {
        "stream" => get("text").and_then(multiline),
        "error" => {
            let ename = get("ename").and_then(Value::as_str).unwrap_or("Error");
            let evalue = get("evalue").and_then(Value::as_str).unwrap_or("");
            out.ename = Some(ename.to_string());
            let mut t = format!("{ename}: {evalue}");
            if let Some(Value::Array(tb)) = get("traceback") {
                for line in tb.iter().filter_map(Value::as_str) {
                    t.push('\n');
                    t.push_str(line);
                }
            }
            Some(t)
        }
        _ => {
            let data = get("data").and_then(Value::as_object);
            let mut text = None;
            for (mime, value) in data.into_iter().flatten() {
                if mime == "text/plain" {
                    text = multiline(value);
                } else if IMAGE_TYPES.contains(&mime.as_str()) && out.image.is_none() {
                    match image(value, mime, request, label) {
                        Ok(img) => out.image = Some(img),
                        Err(e) => out.image_error = Some(e),
                    }
                } else {
                    out.other_data.push(mime.clone());
                }
            }
            text
        }
    };
    if let Some(t) = text {
        let (t, cut) = cut_text(strip_ansi(&t), max_text);
        out.text = Some(t);
        out.cut = cut;
    }
    out
}

/// An output's base64 image through the image policy.
fn image(
    value: &Value,
    mime: &str,
    request: &ImageRequest,
    label: &str,
) -> Result<ImageRead, String> {
    let b64: String = multiline(value)
        .ok_or("the image data is not a string")?
        .split_ascii_whitespace()
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64.as_bytes())
        .map_err(|e| format!("the {mime} data is not valid base64 ({e})"))?;
    // The content decides, as for files: an output that says PNG but holds a JPEG is
    // read as the JPEG it is.
    let class = crate::classify(&bytes);
    let actual = class.mime().unwrap_or(mime);
    let src = Source::from_bytes(bytes, label);
    images::read(&src, actual, request).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_escapes_are_removed() {
        let s = "\u{1b}[0;31mZeroDivisionError\u{1b}[0m: x \u{1b}]8;;http://a\u{7}link\u{1b}]8;;\u{1b}\\";
        assert_eq!(strip_ansi(s), "ZeroDivisionError: x link");
    }

    #[test]
    fn long_text_keeps_head_and_tail_with_counts() {
        let text: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
        let (t, cut) = cut_text(text.clone(), 200);
        let cut = cut.unwrap();
        assert!(t.starts_with("line 1\n") && t.ends_with("line 1000\n"));
        assert_eq!(cut.total_lines, 1000);
        assert_eq!(cut.total_bytes, text.len() as u64);
        let shown_lines = t.lines().count() as u64 - 1;
        assert_eq!(shown_lines + cut.cut_lines, 1000);
        assert!(t.contains(&format!("[... {} lines", cut.cut_lines)));
    }
}
