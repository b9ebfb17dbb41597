//! The answer to a read without a range of a large file, for tools that answer it with
//! the file's outline rather than its first page (Zed's `read_file`).

use crate::error::Result;
use crate::result::Landmark;
use crate::tool::dialect::oversize::Oversize;
use crate::tool::dialect::template::{fill, fill_into};

/// The answer for a file of `size` bytes at `path`, or `None` when it is not over the
/// threshold. `landmarks` gives the file's outline entries (their line, block end, depth,
/// text and name); `head(n)` its text from the start, at least up to byte `n`.
pub(crate) fn answer(
    o: &Oversize,
    size: u64,
    path: &str,
    landmarks: impl FnOnce() -> Result<Vec<Landmark>>,
    head: impl FnOnce(u64) -> Result<String>,
) -> Result<Option<String>> {
    if size <= o.bytes {
        return Ok(None);
    }
    let landmarks = landmarks()?;
    if !landmarks.is_empty() {
        let mut body = fill(&o.outline_title, &[("path", &path)]);
        for l in &landmarks {
            let lines = match l.end_line.filter(|&e| e > l.line) {
                Some(end) => format!("{}-{end}", l.line),
                None => l.line.to_string(),
            };
            let indent = o
                .outline_indent
                .repeat(usize::try_from(l.depth.unwrap_or(0)).unwrap_or(0));
            fill_into(
                &mut body,
                &o.outline_entry,
                &[
                    ("indent", &indent),
                    ("text", &l.text.as_str()),
                    ("name", &l.name.as_deref().unwrap_or(&l.text)),
                    ("line", &l.line),
                    ("lines", &lines),
                ],
            );
        }
        fill_into(&mut body, &o.outline_end, &[("count", &landmarks.len())]);
        return Ok(Some(fill(&o.outline_wrapper, &[("body", &body)])));
    }
    let text = head(o.head_bytes)?;
    let max = usize::try_from(o.head_bytes).unwrap_or(usize::MAX);
    let cut = (0..=max.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let mut body = fill(&o.head_title, &[("path", &path)]);
    body.push_str(&text[..cut]);
    Ok(Some(fill(&o.head_wrapper, &[("body", &body)])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::OutlineDetail;

    fn form() -> Oversize {
        Oversize {
            bytes: 10,
            outline_title: "# {path}\n".into(),
            outline_entry: "{indent}{text} [L{lines}]\n".into(),
            outline_end: "({count})\n".into(),
            outline_wrapper: "O:{body}".into(),
            head_bytes: 4,
            head_title: "# first of {path}\n".into(),
            head_wrapper: "H:{body}".into(),
            outline_indent: " ".into(),
            outline_detail: OutlineDetail::Definitions,
        }
    }

    #[test]
    fn small_files_read_large_ones_answer_the_outline_or_their_first_bytes() {
        let never = || -> Result<Vec<Landmark>> { unreachable!() };
        let no_head = |_| -> Result<String> { unreachable!() };
        assert_eq!(answer(&form(), 10, "/p", never, no_head).unwrap(), None);
        let entry = |line, end_line, depth, text: &str, name: Option<&str>| Landmark {
            line,
            end_line,
            depth: Some(depth),
            text: text.into(),
            name: name.map(Into::into),
        };
        let with = || {
            Ok(vec![
                entry(3, Some(9), 0, "struct A {", Some("struct A")),
                entry(4, Some(4), 1, "a: u8,", Some("a")),
                entry(12, None, 0, "fn b() {}", None),
            ])
        };
        assert_eq!(
            answer(&form(), 11, "/p", with, no_head).unwrap().unwrap(),
            "O:# /p\nstruct A { [L3-9]\n a: u8, [L4]\nfn b() {} [L12]\n(3)\n"
        );
        // `{name}` shows the name, or the text where there is none.
        let named = Oversize {
            outline_entry: "{indent}{name} [L{lines}]\n".into(),
            ..form()
        };
        assert_eq!(
            answer(&named, 11, "/p", with, no_head).unwrap().unwrap(),
            "O:# /p\nstruct A [L3-9]\n a [L4]\nfn b() {} [L12]\n(3)\n"
        );
        // Cut back to a character boundary: "é" is two bytes, at bytes 3-4.
        let none = || Ok(Vec::new());
        let head = |n| {
            assert_eq!(n, 4);
            Ok("abcé and more".to_string())
        };
        assert_eq!(
            answer(&form(), 11, "/p", none, head).unwrap().unwrap(),
            "H:# first of /p\nabc"
        );
    }
}
