//! The texts of a dialect are templates: `{name}` stands for a value, `{name:>6}` for the
//! value right-aligned in six columns. A name the caller does not give stays as written,
//! so a template can hold braces of its own (`{}` in a code sample).

use std::fmt::Write as _;

/// Fills `template` with `values` (name, value), appending to `out`.
pub(crate) fn fill_into(out: &mut String, template: &str, values: &[(&str, &dyn Value)]) {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return;
        };
        let spec = &after[..close];
        // A width is a number, or the name of a value that holds one.
        let (name, width) = match spec.split_once(":>") {
            Some((n, w)) => (
                n,
                w.parse::<usize>().ok().or_else(|| {
                    let (_, v) = values.iter().find(|(n, _)| *n == w)?;
                    let mut s = String::new();
                    v.write(&mut s);
                    s.parse().ok()
                }),
            ),
            None => (spec, None),
        };
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => match width {
                Some(w) => {
                    let mut s = String::new();
                    v.write(&mut s);
                    let pad = w.saturating_sub(s.chars().count());
                    out.extend(std::iter::repeat_n(' ', pad));
                    out.push_str(&s);
                }
                None => v.write(out),
            },
            None => {
                out.push('{');
                out.push_str(spec);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
}

/// [`fill_into`] a new string.
pub(crate) fn fill(template: &str, values: &[(&str, &dyn Value)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    fill_into(&mut out, template, values);
    out
}

/// A value a template shows.
pub(crate) trait Value {
    fn write(&self, out: &mut String);
}

impl Value for str {
    fn write(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Value for &str {
    fn write(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Value for String {
    fn write(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Value for u64 {
    fn write(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl Value for i64 {
    fn write(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl Value for usize {
    fn write(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

/// A size as Claude Code writes it: `512 bytes`, `293KB`, `3.1MB`, `1.5GB` (one decimal,
/// `.0` dropped; ties round up, as JavaScript's `toFixed` does).
pub(crate) fn size_text(bytes: u64) -> String {
    let mut v = bytes as f64 / 1024.0;
    if v < 1.0 {
        return format!("{bytes} bytes");
    }
    let mut unit = "KB";
    for next in ["MB", "GB"] {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = next;
    }
    let tenths = (v * 10.0 + 0.5).floor() as u64;
    match tenths % 10 {
        0 => format!("{}{unit}", tenths / 10),
        t => format!("{}.{t}{unit}", tenths / 10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_names_and_widths_and_keeps_unknown_braces() {
        let n = 7u64;
        assert_eq!(fill("L{n}: {line}", &[("n", &n), ("line", &"x")]), "L7: x");
        assert_eq!(fill("{n:>6}\t", &[("n", &n)]), "     7\t");
        assert_eq!(fill("{n:>2}|", &[("n", &1234u64)]), "1234|");
        assert_eq!(fill("fn a() {} {x", &[("n", &n)]), "fn a() {} {x");
        assert_eq!(fill("{other}", &[]), "{other}");
        let w = 3usize;
        assert_eq!(fill("{n:>w}:", &[("n", &n), ("w", &w)]), "  7:");
        assert_eq!(
            fill("{n:>w}:", &[("n", &n)]),
            "7:",
            "an unknown width is none"
        );
    }
}
