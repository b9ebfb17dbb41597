//! The landmark rules of each language family but C's.

use super::*;

/// Control-flow and statement keywords that can start a line followed by `(`.
#[rustfmt::skip]
pub(super) const STATEMENT_WORDS: &[&str] = &[
    "if", "else", "for", "foreach", "while", "do", "switch", "case", "return", "throw",
    "catch", "try", "sizeof", "goto", "new", "delete", "await", "yield", "using", "lock",
    "with", "match", "when", "elif", "typeof", "defined", "assert", "print", "echo",
    "until", "unless", "synchronized", "default", "function", "fixed", "checked",
    "unchecked", "static_assert", "decltype", "alignof", "offsetof", "__attribute__",
    "__asm__", "asm", "va_arg",
];

#[rustfmt::skip]
pub(super) const JS_MEMBER_MODIFIERS: &[&str] = &[
    "static", "async", "get", "set", "public", "private", "protected", "readonly",
    "override", "abstract", "accessor",
];

#[rustfmt::skip]
pub(super) const PHP_MODIFIERS: &[&str] = &[
    "abstract", "final", "public", "private", "protected", "static", "readonly",
];

#[rustfmt::skip]
pub(super) const GENERIC_MODIFIERS: &[&str] = &[
    "pub", "export", "public", "private", "protected", "static", "async", "abstract",
];

#[rustfmt::skip]
pub(super) const GENERIC_TYPES: &[&str] = &[
    "class", "struct", "interface", "trait", "impl", "module", "enum",
];

#[rustfmt::skip]
pub(super) const SQL_QUALIFIERS: &[&str] = &[
    "temp", "temporary", "unique", "materialized", "global", "local", "unlogged",
    "recursive", "virtual", "external", "definer", "secure", "transient", "volatile",
    "constraint",
];

#[rustfmt::skip]
pub(super) const SQL_OBJECTS: &[&str] = &[
    "table", "view", "index", "function", "procedure", "trigger", "schema", "type",
    "sequence", "database", "domain", "extension", "package", "event", "policy", "role",
    "aggregate", "operator", "collation", "cast", "rule", "server", "user",
];

pub(super) fn rust(t: &[u8]) -> bool {
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

pub(super) fn python(t: &[u8]) -> bool {
    let s = kw(t, "async").unwrap_or(t);
    // `def name(` and `class Name:` / `class Name(`; prose in docstrings ("class of
    // problems") has no bracket or colon after the name.
    kw_any(s, &["def", "class"])
        .and_then(ident)
        .is_some_and(|(_, rest)| matches!(trim_start(rest).first(), Some(b'(' | b':' | b'[')))
}

pub(super) fn js(t: &[u8], ind: usize) -> bool {
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

pub(super) fn js_method(t: &[u8]) -> bool {
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

pub(super) fn go(t: &[u8]) -> bool {
    if kw(t, "func").is_some() {
        return true;
    }
    kw(t, "type").is_some_and(|r| starts_ident(r) || r.starts_with(b"("))
}

#[rustfmt::skip]
pub(super) const JVM_MODIFIERS: &[&str] = &[
    "public", "private", "protected", "internal", "static", "final", "abstract", "sealed",
    "non-sealed", "open", "override", "suspend", "inline", "data", "inner", "companion",
    "partial", "readonly", "virtual", "async", "extern", "unsafe", "lateinit", "tailrec",
    "operator", "infix", "external", "expect", "actual", "synchronized", "native",
    "transient", "volatile", "strictfp", "default", "fileprivate", "mutating",
    "nonmutating", "convenience", "required", "dynamic", "lazy", "implicit", "case",
    "value", "annotation", "const", "factory", "required", "external",
];

#[rustfmt::skip]
pub(super) const JVM_DECLS: &[&str] = &[
    "class", "interface", "enum", "record", "struct", "object", "trait", "namespace", "fun",
    "func", "def", "protocol", "extension", "typealias", "delegate", "mixin", "init",
    "deinit", "constructor", "subscript",
];

pub(super) fn jvm(t: &[u8], ind: usize) -> bool {
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
pub(super) fn type_and_name(head: &[u8]) -> usize {
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

pub(super) fn ruby(t: &[u8]) -> bool {
    if let Some(r) = kw(t, "def") {
        return !r.is_empty();
    }
    if let Some(r) = kw(t, "class") {
        return starts_ident(r);
    }
    kw(t, "module").is_some_and(starts_ident)
}

pub(super) fn php(t: &[u8]) -> bool {
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

pub(super) fn shell(t: &[u8]) -> bool {
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

pub(super) fn sql(t: &[u8]) -> bool {
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

pub(super) fn section(t: &[u8]) -> bool {
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

pub(super) fn yaml(t: &[u8]) -> bool {
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

pub(super) fn make(t: &[u8]) -> bool {
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

pub(super) fn generic(t: &[u8]) -> bool {
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
