//! The landmark rules of C, C++ and Objective-C.

use super::*;

/// `t` without a trailing `/* … */` or `// …` comment.
pub(super) fn strip_c_comment(t: &[u8]) -> &[u8] {
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

pub(super) const C_TYPE_WORDS: &[&str] = &[
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "const",
    "struct", "union", "enum", "bool", "_Bool", "size_t",
];

pub(super) fn c(t: &[u8], ind: usize) -> bool {
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

pub(super) fn skip_c_attributes(mut r: &[u8]) -> &[u8] {
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

pub(super) fn c_define(t: &[u8]) -> bool {
    let r = trim_start(&t[1..]);
    match kw(r, "define").and_then(ident) {
        // Function-like macros only: the `(` follows the name directly.
        Some((_, rest)) => rest.starts_with(b"("),
        None => false,
    }
}

pub(super) fn c_function(s: &[u8], t: &[u8], ind: usize) -> bool {
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
