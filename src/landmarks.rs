//! Landmarks: lines that look like structure (definitions, headings, section headers).
//!
//! The language comes from the path ([`crate::language_for`]); each language has a
//! hand-written matcher over the trimmed start of a line, with a conservative generic
//! fallback for the rest. No parser and no regular expressions: a line is judged on its
//! own (plus the code-fence state in Markdown), from its first [`HEAD_CAP`] bytes, so the
//! cost is a few comparisons per line and only the lines a caller asks about are looked
//! at.
//!
//! The rules are heuristics tuned against universal-ctags on real code
//! (`scripts/landmarks_vs_ctags.sh`, figures in `docs/landmarks-agreement.md`). What
//! counts as a landmark:
//!
//! | language | landmark lines |
//! |---|---|
//! | Rust | `fn`, `struct`, `enum`, `union`, `trait`, `impl`, `mod`, `type`, `static` items, `macro_rules!`, with any visibility and qualifiers (not `const` items: generated bindings hold thousands) |
//! | Python | `def`, `async def`, `class` |
//! | JS / TS | `function`, `class`, `interface`, `enum`, `namespace`, `type X =`, `const f = (…) =>` / `function`, class methods |
//! | Go | `func`, `type` |
//! | Java, Kotlin, C#, Scala, Swift, Dart, Groovy | type declarations (`class`, `interface`, `enum`, `record`, `struct`, `object`, `trait`, `namespace`, …), `fun` / `func` / `def`, and method declarations (`Type name(…)`) |
//! | C, C++, Objective-C | function definitions (a line with the name and `(`, not a statement, not a prototype), `struct`/`union`/`enum`/`class`/`namespace` definitions, `typedef`s, the `} name;` line that names a typedef'd struct, function-like `#define`s |
//! | Ruby | `def`, `class`, `module` |
//! | PHP | `function`, `class`, `interface`, `trait`, `enum`, `namespace` |
//! | shell | `name() {`, `function name` |
//! | SQL | `CREATE …` statements |
//! | Markdown | ATX headings (`#` to `######`) outside code fences |
//! | TOML, INI | `[section]` and `[[table]]` headers |
//! | YAML | top-level keys |
//! | Makefile | rule targets |
//! | anything else | keyword-led definitions: `def f(`, `fn f(`, `function f(`, `func f(`, `class C`, `struct S {` … |

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use memchr::memchr_iter;

use crate::cache::IndexCache;
use crate::error::Result;
use crate::result::Landmark;
use crate::source::Source;
use crate::summarize::Searched;

/// How many bytes of a line are examined and kept: a longer line is judged by its start.
pub(crate) const HEAD_CAP: usize = 1024;

/// The most characters of a line kept as a landmark's text.
pub(crate) const TEXT_CHARS: usize = 200;

/// The family of matching rules used for a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    Rust,
    Python,
    Js,
    Go,
    /// Java, Kotlin, C#, Scala, Swift, Dart, Groovy.
    Jvm,
    /// C, C++, Objective-C.
    C,
    Ruby,
    Php,
    Shell,
    Sql,
    Markdown,
    /// TOML and INI.
    Section,
    Yaml,
    Make,
    Generic,
}

impl Lang {
    /// The rules for `path`, from the same table the Markdown renderer uses.
    pub(crate) fn for_path(path: &Path) -> Lang {
        match crate::render::language_for(path) {
            Some("rust") => Lang::Rust,
            Some("python") => Lang::Python,
            Some("javascript" | "jsx" | "typescript" | "tsx" | "vue" | "svelte") => Lang::Js,
            Some("go") => Lang::Go,
            Some("java" | "kotlin" | "csharp" | "scala" | "swift" | "dart" | "groovy") => Lang::Jvm,
            Some("c" | "cpp" | "objectivec") => Lang::C,
            Some("ruby") => Lang::Ruby,
            Some("php") => Lang::Php,
            Some("bash" | "zsh" | "fish") => Lang::Shell,
            Some("sql") => Lang::Sql,
            Some("markdown") => Lang::Markdown,
            Some("toml" | "ini") => Lang::Section,
            Some("yaml") => Lang::Yaml,
            Some("makefile") => Lang::Make,
            _ => Lang::Generic,
        }
    }

    /// Whether blocks are sections that run to the next header, not indentation blocks.
    pub(crate) fn sections(self) -> bool {
        matches!(self, Lang::Markdown | Lang::Section)
    }
}

/// Judges lines in file order. Stateful only for Markdown code fences, so that a `#`
/// comment inside a fenced shell example is not taken for a heading.
#[derive(Debug, Clone)]
pub(crate) struct Matcher {
    lang: Lang,
    /// The open fence (its character and length) while inside a fenced code block.
    fence: Option<(u8, usize)>,
}

impl Matcher {
    pub(crate) fn new(lang: Lang) -> Matcher {
        Matcher { lang, fence: None }
    }

    /// Whether `line` (without its terminator; at most [`HEAD_CAP`] bytes are looked at)
    /// is a landmark.
    pub(crate) fn is_landmark(&mut self, line: &[u8]) -> bool {
        let line = &line[..line.len().min(HEAD_CAP)];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
        if self.lang == Lang::Markdown {
            return self.markdown(line);
        }
        let ind = indent(line);
        let t = trim(line);
        if t.is_empty() {
            return false;
        }
        match self.lang {
            Lang::Rust => rust(t),
            Lang::Python => python(t),
            Lang::Js => js(t, ind),
            Lang::Go => go(t),
            Lang::Jvm => jvm(t, ind),
            Lang::C => c(t, ind),
            Lang::Ruby => ruby(t),
            Lang::Php => php(t),
            Lang::Shell => shell(t),
            Lang::Sql => sql(t),
            Lang::Section => section(t),
            Lang::Yaml => ind == 0 && yaml(t),
            Lang::Make => ind == 0 && make(t),
            Lang::Markdown => false,
            Lang::Generic => generic(t),
        }
    }

    fn markdown(&mut self, line: &[u8]) -> bool {
        let ind = indent(line);
        let t = trim(line);
        if ind <= 3 {
            if let Some(&ch) = t.first().filter(|&&c| c == b'`' || c == b'~') {
                let n = t.iter().take_while(|&&c| c == ch).count();
                if n >= 3 {
                    match self.fence {
                        None => self.fence = Some((ch, n)),
                        Some((open, len)) if open == ch && n >= len && trim(&t[n..]).is_empty() => {
                            self.fence = None
                        }
                        Some(_) => {}
                    }
                    return false;
                }
            }
        }
        self.fence.is_none() && ind <= 3 && heading_level(t).is_some()
    }
}

/// The level of an ATX heading (`## x` is 2).
pub(crate) fn heading_level(t: &[u8]) -> Option<usize> {
    let n = t.iter().take_while(|&&c| c == b'#').count();
    ((1..=6).contains(&n) && matches!(t.get(n), None | Some(b' ' | b'\t'))).then_some(n)
}

/// The text reported for a landmark line: trimmed, lossy UTF-8, at most [`TEXT_CHARS`]
/// characters (a longer one ends with `…`).
pub(crate) fn landmark_text(line: &[u8]) -> String {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    let t = String::from_utf8_lossy(trim(line));
    let t = t.trim_end_matches('\u{fffd}').trim();
    match t.char_indices().nth(TEXT_CHARS) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}

/// Indentation width: spaces count 1, a tab moves to the next multiple of 8 (as Python's
/// tokenizer and GNU style count them).
pub(crate) fn indent(line: &[u8]) -> usize {
    let mut w = 0;
    for &b in line {
        match b {
            b' ' => w += 1,
            b'\t' => w = (w / 8 + 1) * 8,
            _ => break,
        }
    }
    w
}

/// The line without leading and trailing white space (and without a CR).
pub(crate) fn trim(line: &[u8]) -> &[u8] {
    let s = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let e = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(s, |i| i + 1);
    &line[s..e.max(s)]
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

fn starts_ident(s: &[u8]) -> bool {
    s.first()
        .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80)
}

/// `s` starts with the word `word` (not followed by an identifier byte): the rest, with
/// leading white space removed.
fn kw<'a>(s: &'a [u8], word: &str) -> Option<&'a [u8]> {
    let w = word.as_bytes();
    if s.len() >= w.len()
        && &s[..w.len()] == w
        && !s.get(w.len()).is_some_and(|&b| is_ident_byte(b))
    {
        Some(trim_start(&s[w.len()..]))
    } else {
        None
    }
}

/// Like [`kw`], ignoring ASCII case (SQL).
fn kw_nocase<'a>(s: &'a [u8], word: &str) -> Option<&'a [u8]> {
    let w = word.as_bytes();
    if s.len() >= w.len()
        && s[..w.len()].eq_ignore_ascii_case(w)
        && !s.get(w.len()).is_some_and(|&b| is_ident_byte(b))
    {
        Some(trim_start(&s[w.len()..]))
    } else {
        None
    }
}

fn kw_any<'a>(s: &'a [u8], words: &[&str]) -> Option<&'a [u8]> {
    words.iter().find_map(|w| kw(s, w))
}

fn trim_start(s: &[u8]) -> &[u8] {
    let i = s
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    &s[i..]
}

/// Splits off a leading identifier.
fn ident(s: &[u8]) -> Option<(&[u8], &[u8])> {
    if !starts_ident(s) {
        return None;
    }
    let n = s.iter().take_while(|&&b| is_ident_byte(b)).count();
    Some((&s[..n], &s[n..]))
}

/// Skips a balanced bracket group starting at `s[0]` (`(…)` or `<…>`); the rest trimmed.
fn skip_group(s: &[u8], open: u8, close: u8) -> Option<&[u8]> {
    if s.first() != Some(&open) {
        return None;
    }
    let mut depth = 0usize;
    for (i, &b) in s.iter().enumerate() {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(trim_start(&s[i + 1..]));
            }
        }
    }
    None
}

fn ends_with_any(t: &[u8], ends: &[&str]) -> bool {
    ends.iter().any(|e| t.ends_with(e.as_bytes()))
}

fn contains(t: &[u8], needle: &str) -> bool {
    memchr::memmem::find(t, needle.as_bytes()).is_some()
}

/// Control-flow and statement keywords that can start a line followed by `(`.
#[rustfmt::skip]
const STATEMENT_WORDS: &[&str] = &[
    "if", "else", "for", "foreach", "while", "do", "switch", "case", "return", "throw",
    "catch", "try", "sizeof", "goto", "new", "delete", "await", "yield", "using", "lock",
    "with", "match", "when", "elif", "typeof", "defined", "assert", "print", "echo",
    "until", "unless", "synchronized", "default", "function", "fixed", "checked",
    "unchecked", "static_assert", "decltype", "alignof", "offsetof", "__attribute__",
    "__asm__", "asm", "va_arg",
];

#[rustfmt::skip]
const JS_MEMBER_MODIFIERS: &[&str] = &[
    "static", "async", "get", "set", "public", "private", "protected", "readonly",
    "override", "abstract", "accessor",
];

#[rustfmt::skip]
const PHP_MODIFIERS: &[&str] = &[
    "abstract", "final", "public", "private", "protected", "static", "readonly",
];

#[rustfmt::skip]
const GENERIC_MODIFIERS: &[&str] = &[
    "pub", "export", "public", "private", "protected", "static", "async", "abstract",
];

#[rustfmt::skip]
const GENERIC_TYPES: &[&str] = &[
    "class", "struct", "interface", "trait", "impl", "module", "enum",
];

#[rustfmt::skip]
const SQL_QUALIFIERS: &[&str] = &[
    "temp", "temporary", "unique", "materialized", "global", "local", "unlogged",
    "recursive", "virtual", "external", "definer", "secure", "transient", "volatile",
    "constraint",
];

#[rustfmt::skip]
const SQL_OBJECTS: &[&str] = &[
    "table", "view", "index", "function", "procedure", "trigger", "schema", "type",
    "sequence", "database", "domain", "extension", "package", "event", "policy", "role",
    "aggregate", "operator", "collation", "cast", "rule", "server", "user",
];

fn rust(t: &[u8]) -> bool {
    if t.windows(2)
        .any(|w| (w[0] == b'$' || w[0] == b'#') && is_ident_byte(w[1]))
    {
        // A template inside `macro_rules!` or `quote!` (`fn $name(`, `impl #generics`).
        return false;
    }
    let mut s = t;
    // Attributes on the same line: `#[inline] pub fn f() {`.
    while s.starts_with(b"#[") {
        match skip_group(&s[1..], b'[', b']') {
            Some(r) => s = r,
            None => return false,
        }
    }
    if let Some(r) = kw(s, "pub") {
        s = if r.first() == Some(&b'(') {
            match skip_group(r, b'(', b')') {
                Some(r) => r,
                None => return false,
            }
        } else {
            r
        };
    }
    loop {
        if let Some(r) = kw_any(s, &["async", "unsafe", "default"]) {
            s = r;
            continue;
        }
        if let Some(r) = kw(s, "extern") {
            if kw(r, "crate").is_some() {
                return false;
            }
            s = match r.first() {
                Some(b'"') => match r[1..].iter().position(|&b| b == b'"') {
                    Some(i) => trim_start(&r[i + 2..]),
                    None => return false,
                },
                _ => r,
            };
            continue;
        }
        if let Some(r) = kw(s, "const") {
            if kw_any(r, &["fn", "unsafe", "async", "extern"]).is_some() {
                s = r;
                continue;
            }
            // `const NAME: T = …;` items are left out: generated bindings hold thousands
            // of them, and universal-ctags does not count them as definitions either.
            return false;
        }
        break;
    }
    if let Some(r) = kw(s, "fn") {
        return starts_ident(r);
    }
    if let Some(r) = kw_any(
        s,
        &["struct", "enum", "union", "trait", "mod", "type", "macro"],
    ) {
        return starts_ident(r);
    }
    if let Some(r) = kw(s, "static") {
        let r = kw(r, "mut").unwrap_or(r);
        return ident(r).is_some_and(|(_, rest)| trim_start(rest).starts_with(b":"));
    }
    if let Some(r) = kw(s, "auto") {
        return kw(r, "trait").is_some();
    }
    if s.starts_with(b"impl") && matches!(s.get(4), Some(b' ' | b'<' | b'\t')) {
        return true;
    }
    s.starts_with(b"macro_rules!")
}

fn python(t: &[u8]) -> bool {
    let s = kw(t, "async").unwrap_or(t);
    // `def name(` and `class Name:` / `class Name(`; prose in docstrings ("class of
    // problems") has no bracket or colon after the name.
    kw_any(s, &["def", "class"])
        .and_then(ident)
        .is_some_and(|(_, rest)| matches!(trim_start(rest).first(), Some(b'(' | b':' | b'[')))
}

fn js(t: &[u8], ind: usize) -> bool {
    let mut s = t;
    let mut exported = false;
    while let Some(r) = kw_any(s, &["export", "default", "declare", "abstract", "async"]) {
        exported = true;
        s = r;
    }
    if let Some(r) = kw(s, "function") {
        let r = trim_start(r.strip_prefix(b"*").unwrap_or(r));
        return starts_ident(r) || (exported && r.starts_with(b"("));
    }
    if let Some(r) = kw(s, "class") {
        return starts_ident(r) || (exported && r.starts_with(b"{"));
    }
    if let Some(r) = kw_any(s, &["interface", "enum", "namespace", "module"]) {
        return starts_ident(r) || r.starts_with(b"'") || r.starts_with(b"\"");
    }
    if let Some(r) = kw(s, "type") {
        return ident(r).is_some_and(|(_, rest)| {
            let rest = trim_start(rest);
            rest.starts_with(b"=") || rest.starts_with(b"<")
        });
    }
    if let Some(r) = kw_any(s, &["const", "let", "var"]) {
        // `const f = (…) => …`, `const f = async function …`, `const C = class …`
        let Some((_, rest)) = ident(r) else {
            return false;
        };
        let rest = trim_start(rest);
        let rest = match rest.first() {
            Some(b':') => match memchr::memchr(b'=', rest) {
                Some(i) => &rest[i..],
                None => return false,
            },
            _ => rest,
        };
        let Some(v) = rest.strip_prefix(b"=") else {
            return false;
        };
        let v = trim_start(v);
        if v.starts_with(b"=") {
            return false;
        }
        let v = kw(v, "async").unwrap_or(v);
        return kw_any(v, &["function", "class"]).is_some() || contains(v, "=>");
    }
    // Class members: `  name(…) {`, `  static async *name(…) {`, `  get x() {`.
    if ind == 0 || exported {
        return false;
    }
    js_method(s)
}

fn js_method(t: &[u8]) -> bool {
    if !t.ends_with(b"{") || t.starts_with(b"}") {
        return false;
    }
    let mut s = t;
    while let Some(r) = kw_any(s, JS_MEMBER_MODIFIERS) {
        if r.starts_with(b"(") {
            // A method named like a modifier: `get() {`.
            break;
        }
        s = r;
    }
    let s = trim_start(s.strip_prefix(b"*").unwrap_or(s));
    let s = s.strip_prefix(b"#").unwrap_or(s);
    let Some((name, rest)) = ident(s) else {
        return false;
    };
    if STATEMENT_WORDS.iter().any(|w| w.as_bytes() == name) {
        return false;
    }
    let rest = trim_start(rest.strip_prefix(b"?").unwrap_or(rest));
    let rest = if rest.starts_with(b"<") {
        match skip_group(rest, b'<', b'>') {
            Some(r) => r,
            None => return false,
        }
    } else {
        rest
    };
    if !rest.starts_with(b"(") {
        return false;
    }
    // Calls with callbacks (`it('x', () => {`) have literals or arrows in the parens.
    !(contains(rest, "=>")
        || contains(rest, "function")
        || rest.iter().any(|&b| matches!(b, b'\'' | b'"' | b'`')))
}

fn go(t: &[u8]) -> bool {
    if kw(t, "func").is_some() {
        return true;
    }
    kw(t, "type").is_some_and(|r| starts_ident(r) || r.starts_with(b"("))
}

#[rustfmt::skip]
const JVM_MODIFIERS: &[&str] = &[
    "public", "private", "protected", "internal", "static", "final", "abstract", "sealed",
    "non-sealed", "open", "override", "suspend", "inline", "data", "inner", "companion",
    "partial", "readonly", "virtual", "async", "extern", "unsafe", "lateinit", "tailrec",
    "operator", "infix", "external", "expect", "actual", "synchronized", "native",
    "transient", "volatile", "strictfp", "default", "fileprivate", "mutating",
    "nonmutating", "convenience", "required", "dynamic", "lazy", "implicit", "case",
    "value", "annotation", "const", "factory", "required", "external",
];

#[rustfmt::skip]
const JVM_DECLS: &[&str] = &[
    "class", "interface", "enum", "record", "struct", "object", "trait", "namespace", "fun",
    "func", "def", "protocol", "extension", "typealias", "delegate", "mixin", "init",
    "deinit", "constructor", "subscript",
];

fn jvm(t: &[u8], ind: usize) -> bool {
    let mut s = t;
    let mut modifiers = 0;
    loop {
        if s.starts_with(b"@interface") {
            return true;
        }
        if let Some(r) = kw_any(s, JVM_MODIFIERS) {
            if r.starts_with(b"(") || r.starts_with(b"=") || r.starts_with(b".") {
                break;
            }
            s = r;
            modifiers += 1;
            continue;
        }
        break;
    }
    if let Some(r) = kw_any(s, JVM_DECLS) {
        return starts_ident(r)
            || r.starts_with(b"(")
            || r.starts_with(b"{")
            || r.starts_with(b"<")
            || r.is_empty()
            || r.starts_with(b":");
    }
    if modifiers == 0 && ind == 0 || matches!(s.first(), Some(b'}' | b')' | b']')) {
        return false;
    }
    // A method: `[<T>] Type name(…) [throws …] {` with at least the type and the name.
    let s = if s.starts_with(b"<") {
        match skip_group(s, b'<', b'>') {
            Some(r) => r,
            None => return false,
        }
    } else {
        s
    };
    let Some(paren) = memchr::memchr(b'(', s) else {
        return false;
    };
    let head = &s[..paren];
    if head
        .iter()
        .any(|&b| matches!(b, b'=' | b'"' | b'\'' | b';' | b')'))
    {
        return false;
    }
    // Two words (type and name), or one after a modifier (a constructor: `public Foo(`).
    let words = type_and_name(head);
    if words < 2 && !(words == 1 && modifiers > 0) {
        return false;
    }
    let first = ident(s).map(|(w, _)| w).unwrap_or_default();
    // `Type name(…);` is a declaration (interface, abstract); statements start with a
    // keyword or have a single word (`call(x);`, `a.b(x);`) or an `=`.
    !STATEMENT_WORDS.iter().any(|w| w.as_bytes() == first)
        && !t.ends_with(b",")
        && !t.ends_with(b"\\")
}

/// How many space-separated words (types, the name) come before a parenthesis: generic
/// arguments, arrays and pointers stay with their word.
fn type_and_name(head: &[u8]) -> usize {
    let mut words = 0;
    let mut depth = 0i32;
    let mut in_word = false;
    for &b in trim(head) {
        match b {
            b'<' | b'[' => {
                depth += 1;
                in_word = true;
            }
            b'>' | b']' => {
                depth -= 1;
                in_word = true;
            }
            b' ' | b'\t' if depth == 0 => in_word = false,
            _ => {
                if !in_word && depth == 0 {
                    words += 1;
                }
                in_word = true;
            }
        }
    }
    words
}

/// `t` without a trailing `/* … */` or `// …` comment.
fn strip_c_comment(t: &[u8]) -> &[u8] {
    let mut t = t;
    if t.ends_with(b"*/") {
        if let Some(i) = memchr::memmem::rfind(t, b"/*") {
            if i > 0 {
                t = trim(&t[..i]);
            }
        }
    }
    if let Some(i) = memchr::memmem::find(t, b"//") {
        if i > 0 && matches!(t[i - 1], b' ' | b'\t' | b';' | b')' | b'{') {
            t = trim(&t[..i]);
        }
    }
    t
}

const C_TYPE_WORDS: &[&str] = &[
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "const",
    "struct", "union", "enum", "bool", "_Bool", "size_t",
];

fn c(t: &[u8], ind: usize) -> bool {
    let t = strip_c_comment(t);
    if t.ends_with(b"\\") {
        // A macro body or another continued line.
        return t.starts_with(b"#") && c_define(t);
    }
    if t.starts_with(b"#") {
        return c_define(t);
    }
    if t.starts_with(b"@") {
        // Objective-C containers.
        return kw_any(&t[1..], &["interface", "implementation", "protocol"]).is_some();
    }
    if ind == 0 && (t.starts_with(b"- (") || t.starts_with(b"+ (")) {
        // Objective-C methods.
        return !t.ends_with(b";");
    }
    let mut s = t;
    if let Some(r) = kw(s, "template") {
        if !r.starts_with(b"<") {
            return false;
        }
        match skip_group(r, b'<', b'>') {
            Some(r) if !r.is_empty() => s = r,
            _ => return false,
        }
    }
    if let Some(r) = kw(s, "typedef") {
        // `typedef struct` alone, its brace on the next line: the type is named on the
        // closing `} name;` line.
        return kw_any(r, &["struct", "union", "enum"]).is_none_or(|r| !r.is_empty());
    }
    let mut s2 = s;
    while let Some(r) = kw_any(s2, &["export", "static", "const", "extern", "volatile"]) {
        s2 = r;
    }
    if let Some(r) = kw_any(s2, &["struct", "union", "enum", "class", "namespace"]) {
        let r = kw_any(r, &["class", "struct"]).unwrap_or(r);
        if r.starts_with(b"{") {
            // An anonymous struct, union or enum (`static struct {`, `enum { A = 1 };`).
            return kw(s2, "namespace").is_none();
        }
        // Skip attributes such as `__attribute__((packed))` or `alignas(8)`.
        let r = skip_c_attributes(r);
        if let Some((_, rest)) = ident(r) {
            let rest = trim_start(rest);
            let rest = kw(rest, "final").unwrap_or(rest);
            if rest.is_empty() || rest.starts_with(b"{") {
                return true;
            }
            if rest.starts_with(b":") && !rest.starts_with(b"::") {
                return true;
            }
            if rest.starts_with(b"::") {
                // `namespace a::b {`
                return kw(s2, "namespace").is_some();
            }
        }
        // `struct foo *make(…)`: a function returning a struct; fall through.
    }
    if t.starts_with(b"}") {
        // `} name_t;` closes a typedef'd struct, union or enum.
        if ind > 0 {
            return false;
        }
        let r = trim_start(&t[1..]);
        let r = trim_start(r.strip_prefix(b"*").unwrap_or(r));
        return match ident(r) {
            Some((w, rest)) => {
                !STATEMENT_WORDS.iter().any(|k| k.as_bytes() == w)
                    && rest
                        .iter()
                        .all(|&b| is_ident_byte(b) || b" ,*;".contains(&b))
                    && t.ends_with(b";")
            }
            None => false,
        };
    }
    c_function(s, t, ind)
}

fn skip_c_attributes(mut r: &[u8]) -> &[u8] {
    loop {
        if let Some(a) = kw_any(r, &["__attribute__", "__declspec", "alignas", "_Alignas"]) {
            match skip_group(a, b'(', b')') {
                Some(rest) => r = rest,
                None => return r,
            }
        } else if r.starts_with(b"[[") {
            match memchr::memmem::find(r, b"]]") {
                Some(i) => r = trim_start(&r[i + 2..]),
                None => return r,
            }
        } else {
            return r;
        }
    }
}

fn c_define(t: &[u8]) -> bool {
    let r = trim_start(&t[1..]);
    match kw(r, "define").and_then(ident) {
        // Function-like macros only: the `(` follows the name directly.
        Some((_, rest)) => rest.starts_with(b"("),
        None => false,
    }
}

fn c_function(s: &[u8], t: &[u8], ind: usize) -> bool {
    if t.ends_with(b";") || t.ends_with(b",") && ind > 0 {
        return false;
    }
    let Some(paren) = memchr::memchr(b'(', s) else {
        return false;
    };
    let head = trim(&s[..paren]);
    if head.is_empty()
        || head.iter().any(|&b| {
            matches!(
                b,
                b'=' | b'"'
                    | b'\''
                    | b';'
                    | b'{'
                    | b'}'
                    | b'?'
                    | b'.'
                    | b'-'
                    | b'+'
                    | b'!'
                    | b'|'
                    | b'^'
                    | b'%'
                    | b'/'
            )
        }) && !contains(head, "operator")
    {
        return false;
    }
    if head.starts_with(b"*") || head.starts_with(b"&") || head.starts_with(b"(") {
        return false;
    }
    if head
        .windows(2)
        .enumerate()
        .any(|(i, w)| w[0] == b':' && w[1] != b':' && (i == 0 || head[i - 1] != b':'))
    {
        // `label: call(…)`, `b: Py_buffer(…)`: not a declaration (`A::b` is).
        return false;
    }
    let first = ident(head).map(|(w, _)| w).unwrap_or_default();
    if first.is_empty() && !head.starts_with(b"~") && !head.starts_with(b":") {
        return false;
    }
    if STATEMENT_WORDS.iter().any(|w| w.as_bytes() == first) {
        return false;
    }
    // The last word before `(` is the name: an identifier, maybe qualified (`A::b`,
    // `A::~A`, `operator==`).
    let last = head
        .rsplit(|&b| b == b' ' || b == b'\t' || b == b'*' || b == b'&')
        .next()
        .unwrap_or_default();
    let name_ok = contains(head, "operator")
        || last.iter().all(|&b| {
            is_ident_byte(b) || b == b':' || b == b'~' || b == b'<' || b == b'>' || b == b','
        });
    if !name_ok || last.is_empty() {
        return false;
    }
    if ind == 0 {
        // Statements never start in column 0 in C; a lone call-like line there is a
        // definition (`name(args)` under its return type, GNU style) unless it is a
        // macro invocation with literal arguments.
        // A definition whose name starts the line (its return type is on the line above)
        // declares typed parameters: `name(int a, …`, `name(void)`, `name()`. A macro
        // invocation passes bare words or literals: `LIST_HEAD(name)`, `DOC(x, "…")`.
        if type_and_name(head) >= 2 {
            return true;
        }
        if skip_group(&s[paren..], b'(', b')').is_some_and(|r| r.starts_with(b"(")) {
            // A name made by a macro: `TRANS(Open) (int type, …)`.
            return true;
        }
        let args = &s[paren + 1..];
        let first_arg = args
            .iter()
            .position(|&b| b == b',' || b == b')')
            .map_or(args, |i| &args[..i]);
        let first_arg = trim(first_arg);
        return first_arg.is_empty()
            || first_arg == b"..."
            || kw_any(first_arg, C_TYPE_WORDS).is_some()
            || (type_and_name(first_arg) >= 2 || first_arg.contains(&b'*'))
                && !first_arg
                    .iter()
                    .any(|&b| matches!(b, b'"' | b'\'' | b'=' | b'{'));
    }
    // Indented: only member functions defined in a class body (C++), with a return type.
    type_and_name(head) >= 2
        && (ends_with_any(
            t,
            &["{", ")", "const", "override", "noexcept", "final", "}"],
        ) && !t.ends_with(b"});"))
}

fn ruby(t: &[u8]) -> bool {
    if let Some(r) = kw(t, "def") {
        return !r.is_empty();
    }
    if let Some(r) = kw(t, "class") {
        return starts_ident(r);
    }
    kw(t, "module").is_some_and(starts_ident)
}

fn php(t: &[u8]) -> bool {
    let mut s = t;
    while let Some(r) = kw_any(s, PHP_MODIFIERS) {
        s = r;
    }
    if let Some(r) = kw(s, "function") {
        let r = r.strip_prefix(b"&").unwrap_or(r);
        return starts_ident(r);
    }
    if let Some(r) = kw_any(s, &["class", "interface", "trait", "enum"]) {
        return starts_ident(r);
    }
    kw(s, "namespace").is_some_and(|r| starts_ident(r) || r.starts_with(b"\\"))
}

fn shell(t: &[u8]) -> bool {
    if t.starts_with(b"#") {
        return false;
    }
    if let Some(r) = kw(t, "function") {
        return starts_ident(r) || r.first().is_some_and(|b| b.is_ascii_alphanumeric());
    }
    let n = t
        .iter()
        .take_while(|&&b| is_ident_byte(b) || b == b'-' || b == b'.' || b == b':')
        .count();
    n > 0 && trim_start(&t[n..]).starts_with(b"()")
}

fn sql(t: &[u8]) -> bool {
    let Some(mut s) = kw_nocase(t, "create") else {
        return false;
    };
    if let Some(r) = kw_nocase(s, "or") {
        s = kw_nocase(r, "replace").unwrap_or(r);
    }
    while let Some(r) = SQL_QUALIFIERS.iter().find_map(|w| kw_nocase(s, w)) {
        s = r;
    }
    SQL_OBJECTS.iter().any(|w| kw_nocase(s, w).is_some())
}

fn section(t: &[u8]) -> bool {
    if !t.starts_with(b"[") {
        return false;
    }
    // Drop a trailing comment: `[section] # note`.
    let body = match t.iter().position(|&b| b == b'#' || b == b';') {
        Some(i) => trim(&t[..i]),
        None => t,
    };
    body.len() > 2 && body.ends_with(b"]") && !body.contains(&b',') && !body.contains(&b'=')
}

fn yaml(t: &[u8]) -> bool {
    if matches!(
        t.first(),
        Some(
            b'#' | b'-'
                | b'{'
                | b'['
                | b'%'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'.'
                | b'}'
                | b']'
                | b','
        )
    ) {
        return false;
    }
    let key_end = if matches!(t.first(), Some(b'"' | b'\'')) {
        match t[1..].iter().position(|&b| b == t[0]) {
            Some(i) => i + 2,
            None => return false,
        }
    } else {
        0
    };
    let rest = &t[key_end..];
    match memchr::memchr(b':', rest) {
        Some(i) => {
            let key = &rest[..i];
            !key.contains(&b'#') && matches!(rest.get(i + 1), None | Some(b' ' | b'\t'))
        }
        None => false,
    }
}

fn make(t: &[u8]) -> bool {
    if matches!(t.first(), Some(b'#' | b'.' | b'\t')) {
        return false;
    }
    if kw_any(
        t,
        &[
            "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "define",
            "endef", "export", "override", "vpath",
        ],
    )
    .is_some()
    {
        return false;
    }
    match memchr::memchr(b':', t) {
        Some(i) => {
            let head = &t[..i];
            !head.is_empty()
                && !head.contains(&b'=')
                && !matches!(t.get(i + 1), Some(b'=' | b':'))
                && !matches!(t.get(i + 1..i + 3), Some(b":="))
        }
        None => false,
    }
}

fn generic(t: &[u8]) -> bool {
    let mut s = t;
    while let Some(r) = kw_any(s, GENERIC_MODIFIERS) {
        s = r;
    }
    let follows = |r: &[u8], chars: &[u8]| {
        ident(r).is_some_and(|(_, rest)| {
            let rest = trim_start(rest);
            rest.first().is_some_and(|b| chars.contains(b))
        })
    };
    if let Some(r) = kw_any(s, &["fn", "def", "function", "func", "fun", "sub", "proc"]) {
        return follows(r, b"(<{:");
    }
    if let Some(r) = kw_any(s, GENERIC_TYPES) {
        return follows(r, b"({:<")
            || ident(r).is_some_and(|(_, rest)| trim(rest).is_empty() && r.len() < 64);
    }
    false
}

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

/// One line as [`each_line`] hands it out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineRef<'a> {
    /// File offset of the line's first byte.
    pub start: u64,
    /// File offset just past the line (past its LF, if it has one).
    pub end: u64,
    /// The line's first bytes (at most [`HEAD_CAP`]), without the terminator.
    pub head: &'a [u8],
}

/// Calls `f` with each line of `[start, end)` in order, reading the source in chunks:
/// `start` must be a line start. A last piece without LF is handed out only when it runs
/// to the end of the source (the last line of a file); a window that ends inside a line
/// leaves that line out.
pub(crate) fn each_line(
    src: &Source,
    start: u64,
    end: u64,
    mut f: impl FnMut(LineRef<'_>) -> ControlFlow<()>,
) -> Result<()> {
    let end = end.min(src.len());
    let chunk = (src.chunk_size() as u64).max(HEAD_CAP as u64);
    let mut scratch = Vec::new();
    // The head of a line that began in an earlier chunk.
    let mut carry: Vec<u8> = Vec::new();
    let mut line_start = start;
    let mut pos = start;
    let mut stopped = false;
    while pos < end && !stopped {
        let hi = (pos + chunk).min(end);
        src.with_range(pos, hi, &mut scratch, |bytes| {
            let mut from = 0usize;
            for lf in memchr_iter(b'\n', bytes) {
                let piece = &bytes[from..lf];
                let head: &[u8] = if line_start < pos + from as u64 {
                    let room = HEAD_CAP.saturating_sub(carry.len());
                    carry.extend_from_slice(&piece[..piece.len().min(room)]);
                    &carry
                } else {
                    &piece[..piece.len().min(HEAD_CAP)]
                };
                let line_end = pos + lf as u64 + 1;
                let flow = f(LineRef {
                    start: line_start,
                    end: line_end,
                    head,
                });
                carry.clear();
                line_start = line_end;
                from = lf + 1;
                if flow.is_break() {
                    stopped = true;
                    return;
                }
            }
            let rest = &bytes[from..];
            let room = HEAD_CAP.saturating_sub(carry.len());
            carry.extend_from_slice(&rest[..rest.len().min(room)]);
        })?;
        pos = hi;
    }
    if !stopped && line_start < end && end == src.len() {
        let _ = f(LineRef {
            start: line_start,
            end,
            head: &carry,
        });
    }
    Ok(())
}

/// Bytes per landmark block: the unit in which the search around a read is done, and
/// kept in the [`IndexCache`] so that later reads near it cost lookups, not a scan.
/// (Tiny under the fuzzer, so that its small inputs span many blocks.)
#[cfg(not(fuzzing))]
pub(crate) const BLOCK: u64 = 64 << 10;
#[cfg(fuzzing)]
pub(crate) const BLOCK: u64 = 16;

/// How far past the end of its block a line that starts in it is read to be judged: a
/// line that starts in a block and runs on for more than this is not a landmark.
#[cfg(not(fuzzing))]
const STRADDLE: u64 = 64 << 10;
#[cfg(fuzzing)]
const STRADDLE: u64 = 1 << 20;

/// What the search found in one block: the landmark lines that start in it.
#[derive(Debug)]
struct Block {
    /// LF bytes in the block (`[b * BLOCK, (b + 1) * BLOCK)`, cut at the file's end).
    lfs: u64,
    /// `(line start, line end, LFs in the block before the line, text)`.
    marks: Vec<(u64, u64, u64, String)>,
    /// The file size the block was computed for, when it depends on where the file ends.
    len_at: Option<u64>,
}

impl Block {
    fn memory_bytes(&self) -> usize {
        64 + self
            .marks
            .iter()
            .map(|m| m.3.capacity() + 48)
            .sum::<usize>()
    }
}

/// The most landmark blocks kept for one file (2 MiB of it): the least recently used
/// go first, so that a log read at its growing end does not pile up the blocks of every
/// earlier end. (4 under the fuzzer, whose inputs span a few dozen blocks.)
#[cfg(not(fuzzing))]
const KEPT_BLOCKS: usize = 32;
#[cfg(fuzzing)]
const KEPT_BLOCKS: usize = 4;

/// The landmark blocks of one file, for one set of rules.
#[derive(Debug)]
struct Blocks {
    lang: Lang,
    /// Block number → the block and when it was last used.
    map: HashMap<u64, (Arc<Block>, u64)>,
    /// The heap bytes of the blocks in `map`, kept as they come and go.
    bytes: usize,
    /// A counter for the use times.
    tick: u64,
}

impl Blocks {
    fn new(lang: Lang) -> Blocks {
        Blocks {
            lang,
            map: HashMap::new(),
            bytes: 0,
            tick: 0,
        }
    }

    /// Block `b` if it is known for a file of `len` bytes; marks it used.
    fn get(&mut self, b: u64, len: u64) -> Option<Arc<Block>> {
        self.tick += 1;
        let (blk, used) = self.map.get_mut(&b)?;
        if blk.len_at.is_some_and(|l| l != len) {
            return None;
        }
        *used = self.tick;
        Some(blk.clone())
    }

    /// Keeps `blk` as block `b`, dropping the least recently used beyond [`KEPT_BLOCKS`].
    fn insert(&mut self, b: u64, blk: Arc<Block>) {
        self.tick += 1;
        self.bytes += blk.memory_bytes();
        if let Some((old, _)) = self.map.insert(b, (blk, self.tick)) {
            self.bytes -= old.memory_bytes();
        }
        while self.map.len() > KEPT_BLOCKS {
            let Some(oldest) = self
                .map
                .iter()
                .min_by_key(|(_, (_, u))| *u)
                .map(|(k, _)| *k)
            else {
                break;
            };
            if let Some((old, _)) = self.map.remove(&oldest) {
                self.bytes -= old.memory_bytes();
            }
        }
    }
}

/// The blocks computed so far for a file, shared through its cache entry.
type Shared = Arc<Mutex<Blocks>>;

/// The slot landmark blocks are attached under in every cache.
fn slot() -> u64 {
    static SLOT: OnceLock<u64> = OnceLock::new();
    *SLOT.get_or_init(IndexCache::slot)
}

/// Finds the landmark blocks of a source: from its cache entry when there is one, else
/// computed for this search only.
struct BlockSource<'a> {
    src: &'a Source,
    cache: Option<&'a IndexCache>,
    lang: Lang,
    shared: Shared,
    added: bool,
}

impl<'a> BlockSource<'a> {
    fn new(src: &'a Source, cache: Option<&'a IndexCache>, lang: Lang) -> BlockSource<'a> {
        let shared = cache
            .and_then(|c| c.attachment::<Shared>(src, slot(), false))
            .map(|(s, _)| s)
            .filter(|s| s.lock().map(|b| b.lang == lang).unwrap_or(false));
        let (shared, added) = match shared {
            Some(s) => (s, false),
            None => (Arc::new(Mutex::new(Blocks::new(lang))), true),
        };
        BlockSource {
            src,
            cache,
            lang,
            shared,
            added,
        }
    }

    /// Block `b`, computed if not known for this state of the file.
    fn get(&mut self, b: u64) -> Result<Arc<Block>> {
        let len = self.src.len();
        if let Some(blk) = self.shared.lock().ok().and_then(|mut s| s.get(b, len)) {
            return Ok(blk);
        }
        let blk = Arc::new(compute_block(self.src, self.lang, b)?);
        if let Ok(mut blocks) = self.shared.lock() {
            blocks.insert(b, blk.clone());
        }
        self.added = true;
        Ok(blk)
    }

    /// LF bytes in `[b * BLOCK, to)`, for `to` inside block `b`.
    fn lfs_before(&mut self, b: u64, to: u64) -> Result<u64> {
        let from = b * BLOCK;
        let end = ((b + 1) * BLOCK).min(self.src.len());
        // Count the shorter side.
        if to - from <= end - to {
            count_lf(self.src, from, to)
        } else {
            let blk = self.get(b)?;
            Ok(blk.lfs - count_lf(self.src, to, end)?)
        }
    }

    /// LF bytes in `[from, to)`.
    fn lfs_between(&mut self, from: u64, to: u64) -> Result<u64> {
        if from >= to {
            return Ok(0);
        }
        let (fb, tb) = (from / BLOCK, to / BLOCK);
        if fb == tb {
            return Ok(self.lfs_before(tb, to)? - self.lfs_before(fb, from)?);
        }
        let mut n = self.get(fb)?.lfs - self.lfs_before(fb, from)?;
        for b in fb + 1..tb {
            n += self.get(b)?.lfs;
        }
        if to > tb * BLOCK {
            n += self.lfs_before(tb, to)?;
        }
        Ok(n)
    }

    /// Keeps what was computed in the cache entry, with its size.
    fn keep(self) {
        let (Some(cache), true) = (self.cache, self.added) else {
            return;
        };
        let cost = self
            .shared
            .lock()
            .map(|b| b.bytes + b.map.len() * 16)
            .unwrap_or(0);
        cache.attach(self.src, slot(), self.shared, cost);
    }
}

fn count_lf(src: &Source, from: u64, to: u64) -> Result<u64> {
    if from >= to {
        return Ok(0);
    }
    let mut scratch = Vec::new();
    src.with_range(from, to, &mut scratch, |b| {
        memchr_iter(b'\n', b).count() as u64
    })
}

/// The landmark lines that start in block `b`, judged with a matcher that starts fresh
/// at the block's first line.
fn compute_block(src: &Source, lang: Lang, b: u64) -> Result<Block> {
    let len = src.len();
    let from = b * BLOCK;
    let to = ((b + 1) * BLOCK).min(len);
    let lfs = count_lf(src, from, to)?;
    let reach = to.saturating_add(STRADDLE).min(len);
    let first_whole = from == 0 || count_lf(src, from - 1, from)? == 1;
    let mut matcher = Matcher::new(lang);
    let mut marks = Vec::new();
    let mut k = 0u64;
    each_line(src, from, reach, |l| {
        if l.start >= to {
            return ControlFlow::Break(());
        }
        let this = k;
        k += 1;
        if (this > 0 || first_whole) && matcher.is_landmark(l.head) {
            marks.push((l.start, l.end, this, landmark_text(l.head)));
        }
        ControlFlow::Continue(())
    })?;
    Ok(Block {
        lfs,
        marks,
        len_at: (reach == len).then_some(len),
    })
}

/// Where a read sits, for [`around`].
pub(crate) struct Around {
    /// The page's bytes `[start, end)`.
    pub start: u64,
    pub end: u64,
    /// Its first and last line.
    pub first_line: u64,
    pub last_line: u64,
    /// Bytes looked at on each side (`u64::MAX`: everything).
    pub window: u64,
    /// The most landmarks returned.
    pub cap: usize,
}

/// Landmarks in the omitted regions around a read, nearest first (a tie goes to the line
/// above), looking at whole lines within `window` bytes on each side; and which lines
/// were searched when the window did not reach the start or the end of the file.
///
/// The search runs over [`BLOCK`]s; with a cache, the blocks are kept in the file's
/// entry (validated like its line index), so a later read nearby costs lookups and two
/// short counts.
pub(crate) fn around(
    src: &Source,
    cache: Option<&IndexCache>,
    lang: Lang,
    at: &Around,
) -> Result<(Vec<Landmark>, Searched)> {
    let len = src.len();
    let mut blocks = BlockSource::new(src, cache, lang);
    let (start, end) = (at.start, at.end);

    // Before: lines that start at or after the window's start and end at or before the
    // read's start, nearest first; the line the read starts inside is not omitted.
    let mut before: Vec<(u64, String)> = Vec::new();
    let mut searched_before = None;
    if start > 0 {
        let ws = start.saturating_sub(at.window);
        let sb = (start - 1) / BLOCK;
        // LFs from the start of the block being looked at to `start`.
        let mut to_start = blocks.lfs_before(sb, start)?;
        let mut b = sb;
        'blocks: loop {
            let blk = blocks.get(b)?;
            for (ls, _, k, text) in blk.marks.iter().rev() {
                if *ls >= start {
                    continue;
                }
                if *ls < ws {
                    break 'blocks;
                }
                let line = at.first_line.saturating_sub(to_start - k);
                if line >= at.first_line {
                    continue;
                }
                before.push((line, text.clone()));
                if before.len() >= at.cap {
                    break 'blocks;
                }
            }
            if b == 0 || b * BLOCK <= ws {
                break;
            }
            b -= 1;
            to_start += blocks.get(b)?.lfs;
        }
        if ws > 0 {
            let lfs = blocks.lfs_between(ws, start)?;
            let whole_first = count_lf(src, ws - 1, ws)? == 1;
            let whole = lfs - u64::from(!whole_first && lfs > 0);
            searched_before = Some((at.first_line.saturating_sub(whole), at.first_line - 1));
        }
    }

    // After: whole lines from the end of the read, nearest first.
    let mut after: Vec<(u64, String)> = Vec::new();
    let mut searched_after = None;
    if end < len {
        let we = end.saturating_add(at.window).min(len);
        let skip_first = end > 0 && count_lf(src, end - 1, end)? == 0;
        let eb = end / BLOCK;
        // LFs from `end` to the start of the block being looked at.
        let mut from_end = 0u64.wrapping_sub(blocks.lfs_before(eb, end)?);
        let mut stopped = false;
        let mut b = eb;
        'blocks: while b * BLOCK < we {
            let blk = blocks.get(b)?;
            for (ls, le, k, text) in &blk.marks {
                if *ls < end {
                    continue;
                }
                if *le > we {
                    break 'blocks;
                }
                let line = at.last_line + 1 + from_end.wrapping_add(*k) - u64::from(skip_first);
                after.push((line, text.clone()));
                if after.len() >= at.cap {
                    stopped = true;
                    break 'blocks;
                }
            }
            from_end = from_end.wrapping_add(blk.lfs);
            b += 1;
        }
        if we < len && !stopped {
            let lfs = blocks.lfs_between(end, we)?;
            let whole = lfs.saturating_sub(u64::from(skip_first));
            searched_after = Some((at.last_line + 1, at.last_line + whole));
        }
    }
    blocks.keep();

    // Merge by distance from the read; a tie goes to the line above.
    let mut out = Vec::new();
    let mut b = before.into_iter().peekable();
    let mut a = after.into_iter().peekable();
    while out.len() < at.cap {
        let pick_before = match (b.peek(), a.peek()) {
            (Some((bl, _)), Some((al, _))) => at.first_line - bl <= al - at.last_line,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (line, text) = if pick_before { b.next() } else { a.next() }.expect("peeked");
        out.push(Landmark { line, text });
    }
    let searched = Searched {
        before: searched_before,
        after: searched_after,
        window: at.window,
    };
    Ok((out, searched))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_blocks_are_the_most_recently_used_and_their_bytes_add_up() {
        let block = |n: usize| {
            Arc::new(Block {
                lfs: 1,
                marks: (0..n as u64)
                    .map(|i| (i, i + 1, i, "fn x() {".repeat(n)))
                    .collect(),
                len_at: None,
            })
        };
        let mut blocks = Blocks::new(Lang::Rust);
        for b in 0..KEPT_BLOCKS as u64 {
            blocks.insert(b, block(b as usize % 5));
        }
        // Block 0 is used again, so block 1 is the least recently used.
        assert!(blocks.get(0, 10).is_some());
        blocks.insert(1000, block(3));
        blocks.insert(0, block(4));
        assert_eq!(blocks.map.len(), KEPT_BLOCKS);
        assert!(blocks.get(1, 10).is_none());
        assert!(blocks.get(0, 10).is_some() && blocks.get(1000, 10).is_some());
        let sum: usize = blocks.map.values().map(|(b, _)| b.memory_bytes()).sum();
        assert_eq!(blocks.bytes, sum);
    }

    fn yes(lang: Lang, lines: &[&str]) {
        for l in lines {
            assert!(
                Matcher::new(lang).is_landmark(l.as_bytes()),
                "{lang:?} should match {l:?}"
            );
        }
    }

    fn no(lang: Lang, lines: &[&str]) {
        for l in lines {
            assert!(
                !Matcher::new(lang).is_landmark(l.as_bytes()),
                "{lang:?} should not match {l:?}"
            );
        }
    }

    #[test]
    fn rust_rules() {
        yes(
            Lang::Rust,
            &[
                "pub fn parse(s: &str) -> Result<()> {",
                "    pub(crate) async unsafe fn go() {",
                "pub(in crate::a) struct S;",
                "impl<T> Foo for Bar<T> {",
                "unsafe impl Send for X {}",
                "pub static mut COUNT: u32 = 0;",
                "macro_rules! m {",
                "    pub struct Flags: u8 {",
                "pub extern \"C\" fn f() {}",
                "mod tests {",
                "    type Item = u8;",
                "pub const fn k() -> u8 { 1 }",
                "#[inline] pub fn fast() {}",
            ],
        );
        no(
            Lang::Rust,
            &[
                "let x = fn_call();",
                "    f: fn(u32) -> u32,",
                "extern crate foo;",
                "// fn commented()",
                "use std::fmt;",
                "impl_trait_for!(X);",
                "const MAX: usize = 3;",
                "    static_assert!(x);",
                "        fn $name(&self) {",
                "impl $crate::Trait for $t {",
                "impl #impl_generics Trait for #name {",
                "#[derive(Debug)]",
                "}",
            ],
        );
    }

    #[test]
    fn c_rules() {
        yes(
            Lang::C,
            &[
                "int main(int argc, char **argv)",
                "static int foo(void) {",
                "foo (int a)",
                "struct point {",
                "typedef struct node node_t;",
                "} list_t;",
                "#define MAX(a, b) ((a) > (b) ? (a) : (b))",
                "class Foo : public Bar {",
                "namespace detail {",
                "Foo::Foo(int a)",
                "    int size() const {",
                "static const char *name_of(enum kind k)",
                "typedef struct {",
                "static struct {",
                "} *gzFile;",
                "add_all(PyObject *module, int a,",
                "main(int , char **) {",
                "TRANS(Open) (int type, const char *address)",
            ],
        );
        no(
            Lang::C,
            &[
                "int foo(void);",
                "    if (x) {",
                "    return foo(x);",
                "    foo(x);",
                "#define MAX 3",
                "#include <stdio.h>",
                "static int x = f(3);",
                "    } while (0);",
                "struct foo bar;",
                "LIST_HEAD(name)",
                "PyDoc_STRVAR(xx_doc,",
                "Copyright (c) 2000, Someone.",
                "b: Py_buffer(accept={buffer})",
                "MODULE_AUTHOR(\"me\")",
                "static void yy_accept(yyParser*);  /* Forward Declaration */",
            ],
        );
    }

    #[test]
    fn markdown_fences_hide_headings() {
        let mut m = Matcher::new(Lang::Markdown);
        let lines = [
            "# Title",
            "```sh",
            "# not a heading",
            "```",
            "## Next",
            "#nospace",
        ];
        let got: Vec<bool> = lines.iter().map(|l| m.is_landmark(l.as_bytes())).collect();
        assert_eq!(got, [true, false, false, false, true, false]);
    }

    #[test]
    fn block_steps() {
        assert_eq!(step(Lang::Rust, 0, b"    x();"), Step::Inside);
        assert_eq!(step(Lang::Rust, 0, b"}"), Step::Closes);
        assert_eq!(step(Lang::Rust, 0, b") -> u8 {"), Step::Inside);
        assert_eq!(step(Lang::Rust, 0, b"where"), Step::Inside);
        assert_eq!(step(Lang::Rust, 4, b"}"), Step::Outside);
        assert_eq!(step(Lang::Python, 0, b"x = 1"), Step::Outside);
        assert_eq!(step(Lang::Python, 0, b""), Step::Inside);
        assert_eq!(step(Lang::Ruby, 2, b"  end"), Step::Closes);
        assert_eq!(step(Lang::C, 0, b"{"), Step::Inside);
    }

    #[test]
    fn text_is_trimmed_and_capped() {
        assert_eq!(landmark_text(b"   fn x() {\r"), "fn x() {");
        let long = format!("fn {}", "é".repeat(300));
        let t = landmark_text(long.as_bytes());
        assert_eq!(t.chars().count(), TEXT_CHARS + 1);
        assert!(t.ends_with('…'));
    }
}
