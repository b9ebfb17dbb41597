//! The rules of blocks: what above a definition belongs to it (decorators, attributes,
//! doc comments), which lines continue its header, and which close it.

use super::*;

/// Whether a line directly above a definition belongs to it: decorators, attributes, doc
/// comments (and, in C, the return type written on its own line above the name).
pub(crate) fn is_preamble(lang: Lang, t: &[u8]) -> bool {
    let comment = |prefixes: &[&str]| prefixes.iter().any(|p| t.starts_with(p.as_bytes()));
    let c_like = ["//", "/*", "*", "*/"];
    match lang {
        Lang::Rust => comment(&["#[", "#!["]) || comment(&c_like),
        Lang::Python => comment(&["@", "#"]),
        Lang::Js => comment(&["@"]) || comment(&c_like),
        Lang::Go => comment(&c_like),
        Lang::Jvm => comment(&["@", "["]) || comment(&c_like),
        Lang::C => comment(&c_like) || comment(&["[[", "__attribute__", "template"]),
        Lang::Php => comment(&["#", "@"]) || comment(&c_like),
        Lang::Ruby | Lang::Shell | Lang::Section | Lang::Yaml | Lang::Make => comment(&["#"]),
        Lang::Sql => comment(&["--"]) || comment(&c_like),
        Lang::Markdown => false,
        Lang::Generic => comment(&["#", "@"]) || comment(&c_like),
    }
}

/// In C, `name(args)` in column 0 has its return type on the line above (GNU style).
pub(crate) fn is_c_return_type_line(header: &[u8], above: &[u8]) -> bool {
    if indent(header) > 0 || indent(above) > 0 {
        return false;
    }
    let h = trim(header);
    let named_first = ident(h).is_some_and(|(_, rest)| trim_start(rest).starts_with(b"("));
    let a = trim(above);
    named_first
        && !a.is_empty()
        && !a.starts_with(b"#")
        && !a.starts_with(b"/")
        && !a.starts_with(b"*")
        && !ends_with_any(a, &[";", "}", "{", ")", ",", "\\", "/"])
}

/// What a line means for the block of a header indented `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Inside the block (or blank).
    Inside,
    /// Closes the block and belongs to it (`}` at the header's indentation).
    Closes,
    /// Outside: the block ended on an earlier line.
    Outside,
}

/// Words that continue a block at its own indentation (`else:`, `} else {`, `rescue`).
const CONTINUATION_WORDS: &[&str] = &[
    "else", "elif", "elsif", "except", "finally", "catch", "rescue", "ensure", "when", "where",
    "then", "do",
];

/// Classifies `line` against a block whose header is indented `h` (indentation rules).
pub(crate) fn step(lang: Lang, h: usize, line: &[u8]) -> Step {
    let line = &line[..line.len().min(HEAD_CAP)];
    let t = trim(line);
    if t.is_empty() {
        return Step::Inside;
    }
    let ind = indent(line);
    if ind > h {
        return Step::Inside;
    }
    if ind < h {
        return Step::Outside;
    }
    if t.starts_with(b"{") && lang != Lang::Yaml {
        // A brace on its own line under the header (Allman style).
        return Step::Inside;
    }
    if lang == Lang::Yaml && (t.starts_with(b"- ") || t == b"-") {
        // A sequence under a top-level key may start in column 0.
        return Step::Inside;
    }
    if kw_any(t, CONTINUATION_WORDS).is_some() {
        return Step::Inside;
    }
    let closer = matches!(t[0], b'}' | b')' | b']')
        || (matches!(lang, Lang::Ruby | Lang::Generic | Lang::Sql) && kw(t, "end").is_some())
        || (lang == Lang::Shell && kw_any(t, &["fi", "done", "esac"]).is_some());
    if closer {
        let opens_again = ends_with_any(t, &["{", "(", "[", ":", "=>", "->"])
            || t.ends_with(b",")
            || contains(t, " else")
            || t.starts_with(b")") && contains(t, "->");
        return if opens_again {
            Step::Inside
        } else {
            Step::Closes
        };
    }
    Step::Outside
}

/// Whether a line is a closing line (`}`, `)`, `]`, `end`…), which ends the block at its
/// own indentation rather than enclosing lines at it.
pub(crate) fn is_closer(lang: Lang, line: &[u8]) -> bool {
    let t = trim(line);
    !t.is_empty() && (step(lang, indent(line), line) == Step::Closes)
}
