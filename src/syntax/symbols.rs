//! Symbols: a landmark's name with the keywords that introduce it (`pub struct Test0`,
//! `impl Display for Foo<T>`, `async def fetch`), and the members of type bodies (a Rust
//! struct's fields, an enum's variants, a Go struct's fields) that an outline with
//! [`OutlineDetail::Members`](crate::OutlineDetail::Members) lists under their type.
//!
//! A name is what a symbol list shows for an item; in Rust it is what tree-sitter's
//! outline queries of editors capture (visibility, function qualifiers, the keyword, the
//! name; an `impl`'s trait and type without the `impl<…>` parameters), so that a host can show the
//! outline an editor shows. Like the landmark rules, it is read from the line alone.

use super::*;

/// What the body of a type holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Body {
    /// Named fields: `pub name: Type,` (a Rust struct, union, or struct-like variant).
    Fields,
    /// Variants: `Name`, `Name(…)`, `Name { … }`, `Name = 1` (a Rust enum).
    Variants,
    /// Go fields: `Name Type`, `A, B int`, `Inner struct {` (an embedded type has no
    /// name and is not listed, as in Go's syntax tree).
    GoFields,
}

/// A landmark or member whose block holds members, and whether its body has opened (the
/// `{` after the header and any `where` clause: the clause's `T: Bound` lines are not
/// fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Container {
    body: Body,
    open: bool,
}

/// A member line: its name, and what its own body holds (a struct-like variant's
/// fields).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    pub name: String,
    pub container: Option<Container>,
}

/// The name of the landmark on `line` (without its terminator), when the rules of `lang`
/// know where it is.
pub(crate) fn name(lang: Lang, line: &[u8]) -> Option<String> {
    let t = trim(&line[..line.len().min(HEAD_CAP)]);
    match lang {
        Lang::Rust => rust(t).map(|(name, _)| name),
        Lang::Python | Lang::Ruby | Lang::Php | Lang::Js | Lang::Go | Lang::Jvm | Lang::Generic => {
            keyword_led(t)
        }
        _ => None,
    }
}

/// What the block of the landmark on `line` holds, when it is a type with members.
pub(crate) fn container(lang: Lang, line: &[u8]) -> Option<Container> {
    let t = trim(&line[..line.len().min(HEAD_CAP)]);
    match lang {
        Lang::Rust => rust(t).and_then(|(_, c)| c),
        Lang::Go => {
            let (_, r) = ident(kw(t, "type")?)?;
            go_struct(trim_start(r))
        }
        _ => None,
    }
}

/// `struct {` (the body opened on the line, or not yet): a Go struct's fields.
fn go_struct(r: &[u8]) -> Option<Container> {
    kw(r, "struct").map(|rest| Container {
        body: Body::GoFields,
        open: rest.contains(&b'{'),
    })
}

impl Container {
    /// Whether `line`, directly inside this container's block, is one of its members.
    pub(crate) fn member(&mut self, line: &[u8]) -> Option<Member> {
        let t = trim(&line[..line.len().min(HEAD_CAP)]);
        if !self.open {
            self.open = t.contains(&b'{');
            return None;
        }
        match self.body {
            Body::GoFields => go_field(t),
            Body::Fields => {
                let (name, rest) = rust_member(t)?;
                (rest.starts_with(b":") && !rest.starts_with(b"::")).then_some(Member {
                    name,
                    container: None,
                })
            }
            Body::Variants => {
                let (name, rest) = rust_member(t)?;
                let container = match rest.first() {
                    None | Some(b',' | b'(' | b'=') => None,
                    Some(b'{') => Some(Container {
                        body: Body::Fields,
                        open: true,
                    }),
                    Some(_) => return None,
                };
                Some(Member { name, container })
            }
        }
    }
}

/// A Rust member line past its attributes: its visibility and name (`pub(crate) a`), and
/// what follows the name.
fn rust_member(t: &[u8]) -> Option<(String, &[u8])> {
    let (vis, s) = visibility(skip_attributes(t)?)?;
    let (name, rest) = rust_ident(s)?;
    Some((join(&[vis, name]), trim_start(rest)))
}

/// A Go field line: its names (`A, B`) and, for an anonymous struct type, its fields.
fn go_field(t: &[u8]) -> Option<Member> {
    let mut names: Vec<&[u8]> = Vec::new();
    let mut s = t;
    loop {
        let (name, rest) = ident(s)?;
        names.push(name);
        match trim_start(rest).strip_prefix(b",") {
            Some(more) => s = trim_start(more),
            None => {
                s = rest;
                break;
            }
        }
    }
    // The names are followed by white space and a type: `io.Reader` and a lone `Base`
    // are embedded types, `x := 1` and `f(x)` are statements.
    let ty = trim_start(s);
    if ty.len() == s.len() || ty.is_empty() || matches!(ty[0], b'=' | b':' | b'(' | b'`') {
        return None;
    }
    Some(Member {
        name: names
            .iter()
            .map(|n| String::from_utf8_lossy(n))
            .collect::<Vec<_>>()
            .join(", "),
        container: go_struct(ty),
    })
}

/// Rust: the name of an item line and what its body holds, following the landmark rules
/// ([`super::rules`]) token by token.
fn rust(t: &[u8]) -> Option<(String, Option<Container>)> {
    let s = skip_attributes(t)?;
    let (vis, mut s) = visibility(s)?;
    // Function qualifiers are part of a function's name (`pub async fn f`), not of a
    // trait's or an impl's (`unsafe impl Send for X` is `impl Send for X`).
    let quals_start = s;
    loop {
        if let Some(r) = kw_any(s, &["async", "unsafe", "default"]) {
            s = r;
            continue;
        }
        // `const fn` is a qualifier; `const NAME: T` an item.
        if let Some(r) =
            kw(s, "const").filter(|r| kw_any(r, &["fn", "unsafe", "async", "extern"]).is_some())
        {
            s = r;
            continue;
        }
        if let Some(r) = kw(s, "extern") {
            s = match r.first() {
                Some(b'"') => trim_start(&r[r[1..].iter().position(|&b| b == b'"')? + 2..]),
                _ => r,
            };
            continue;
        }
        break;
    }
    let quals = trim(&quals_start[..quals_start.len() - s.len()]);
    if let Some(r) = kw(s, "fn") {
        let (name, _) = rust_ident(r)?;
        return Some((join(&[vis, quals, b"fn", name]), None));
    }
    if let Some(r) = s.strip_prefix(b"macro_rules!") {
        let (name, _) = rust_ident(trim_start(r))?;
        return Some((join(&[b"macro_rules!", name]), None));
    }
    if let Some(r) = kw(s, "impl") {
        let r = match r.first() {
            Some(b'<') => skip_group(r, b'<', b'>')?,
            _ => r,
        };
        return Some((rust_impl(r)?, None));
    }
    let s = kw(s, "auto").unwrap_or(s);
    for word in [
        "struct", "enum", "union", "trait", "mod", "type", "static", "const", "macro",
    ] {
        if let Some(r) = kw(s, word) {
            let r = if word == "static" {
                kw(r, "mut").unwrap_or(r)
            } else {
                r
            };
            let (name, rest) = rust_ident(r)?;
            let body = match word {
                "struct" | "union" => Some(Body::Fields),
                "enum" => Some(Body::Variants),
                _ => None,
            };
            let container = body.map(|body| Container {
                body,
                open: rest.contains(&b'{'),
            });
            return Some((join(&[vis, word.as_bytes(), name]), container));
        }
    }
    None
}

/// `impl` followed by `r` (after any generics): `impl Trait for Type` or `impl Type`,
/// the type up to its body or `where` clause.
fn rust_impl(r: &[u8]) -> Option<String> {
    let r = trim_start(r);
    let end = find_word(r, b"where")
        .or_else(|| r.iter().position(|&b| b == b'{'))
        .unwrap_or(r.len());
    let head = trim(&r[..end]);
    let head = head.strip_suffix(b";").unwrap_or(head);
    if head.is_empty() {
        return None;
    }
    Some(match find_word(head, b"for") {
        Some(i) => join(&[b"impl", trim(&head[..i]), b"for", trim(&head[i + 3..])]),
        None => join(&[b"impl", head]),
    })
}

/// Where the word `w` first stands alone in `s` (between non-identifier bytes, outside
/// `<…>`).
fn find_word(s: &[u8], w: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for i in 0..s.len() {
        match s[i] {
            b'<' => depth += 1,
            b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0
            && s[i..].starts_with(w)
            && (i == 0 || !is_ident_byte(s[i - 1]))
            && !s.get(i + w.len()).is_some_and(|&b| is_ident_byte(b))
        {
            return Some(i);
        }
    }
    None
}

/// Skips attributes on the line (`#[inline] pub fn f`); `None` when one is not closed.
fn skip_attributes(mut s: &[u8]) -> Option<&[u8]> {
    while s.starts_with(b"#[") {
        s = skip_group(&s[1..], b'[', b']')?;
    }
    Some(s)
}

/// A leading `pub`, `pub(crate)`, `pub(in path)`, and the rest.
fn visibility(s: &[u8]) -> Option<(&[u8], &[u8])> {
    match kw(s, "pub") {
        Some(r) if r.first() == Some(&b'(') => {
            let rest = skip_group(r, b'(', b')')?;
            Some((trim(&s[..s.len() - rest.len()]), rest))
        }
        Some(r) => Some((b"pub", r)),
        None => Some((b"", s)),
    }
}

/// A Rust identifier (a raw one too: `r#type`) and the rest.
fn rust_ident(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let skip = if s.starts_with(b"r#") { 2 } else { 0 };
    let (id, _) = ident(&s[skip..])?;
    let n = skip + id.len();
    Some((&s[..n], &s[n..]))
}

/// The defining keyword and what comes before it on the line (modifiers such as
/// `export`, `public static`, `async`), then the name: `async def fetch`,
/// `func (r *Reader) Read`, `export class Store`. `None` when no keyword leads a name.
fn keyword_led(t: &[u8]) -> Option<String> {
    const KEYWORDS: &[&str] = &[
        "def",
        "function",
        "func",
        "fun",
        "fn",
        "class",
        "interface",
        "struct",
        "enum",
        "trait",
        "module",
        "namespace",
        "record",
        "object",
        "type",
        "sub",
        "proc",
    ];
    let mut i = 0;
    while i < t.len() {
        if is_ident_byte(t[i]) && (i == 0 || !is_ident_byte(t[i - 1])) {
            if let Some(r) = KEYWORDS.iter().find_map(|k| kw(&t[i..], k)) {
                let kw_end = t.len() - r.len();
                let mut rest = r;
                let mut receiver: &[u8] = b"";
                if rest.first() == Some(&b'(') {
                    let after = skip_group(rest, b'(', b')')?;
                    receiver = trim(&rest[..rest.len() - after.len()]);
                    rest = after;
                }
                let (name, _) = ident(rest)?;
                return Some(join(&[trim(&t[..kw_end]), receiver, name]));
            }
        }
        i += 1;
    }
    None
}

/// The non-empty parts, each with its inner runs of white space made one space, joined
/// by a space; lossy UTF-8.
fn join(parts: &[&[u8]]) -> String {
    let mut out = String::new();
    for part in parts.iter().filter(|p| !p.is_empty()) {
        for word in String::from_utf8_lossy(part).split_ascii_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_of(lang: Lang, line: &str) -> Option<String> {
        name(lang, line.as_bytes())
    }

    /// The member name of each line in turn, as the container `c` judges it.
    fn members_of(mut c: Container, lines: &[&str]) -> Vec<Option<String>> {
        lines
            .iter()
            .map(|l| c.member(l.as_bytes()).map(|m| m.name))
            .collect()
    }

    #[test]
    fn rust_names_are_the_keywords_and_the_name() {
        let cases = [
            ("struct Test0 {", "struct Test0"),
            (
                "pub(crate) struct Flags<T: Copy> where T: Eq {",
                "pub(crate) struct Flags",
            ),
            (
                "#[inline] pub const unsafe fn go<T>(x: T) -> T {",
                "pub const unsafe fn go",
            ),
            ("pub extern \"C\" fn f() {}", "pub extern \"C\" fn f"),
            (
                "impl<T: Clone> Display for Wrapper<T> where T: Debug {",
                "impl Display for Wrapper<T>",
            ),
            ("unsafe impl Send for X {}", "impl Send for X"),
            ("impl Foo {", "impl Foo"),
            ("pub static mut COUNT: u32 = 0;", "pub static COUNT"),
            ("macro_rules! m {", "macro_rules! m"),
            ("pub(in crate::a)   enum   E {", "pub(in crate::a) enum E"),
            ("fn r#type() {}", "fn r#type"),
            ("pub unsafe trait Zeroable {", "pub trait Zeroable"),
        ];
        for (line, want) in cases {
            assert_eq!(name_of(Lang::Rust, line).as_deref(), Some(want), "{line}");
        }
        assert_eq!(name_of(Lang::Rust, "let x = 1;"), None);
    }

    #[test]
    fn keyword_led_names() {
        let cases = [
            (Lang::Python, "async def fetch(url):", "async def fetch"),
            (Lang::Python, "class Store(Base):", "class Store"),
            (
                Lang::Go,
                "func (r *Reader) Read(p []byte) (int, error) {",
                "func (r *Reader) Read",
            ),
            (
                Lang::Js,
                "export default class Store {",
                "export default class Store",
            ),
            (Lang::Jvm, "public static void main(String[] args) {", ""),
        ];
        for (lang, line, want) in cases {
            assert_eq!(
                name_of(lang, line).unwrap_or_default(),
                want,
                "{lang:?} {line}"
            );
        }
        assert_eq!(name_of(Lang::Markdown, "# Title"), None);
    }

    #[test]
    fn struct_fields_and_enum_variants_are_members() {
        let s = container(Lang::Rust, b"pub struct S<T> {").unwrap();
        let names = members_of(
            s,
            &[
                "    /// The a.",
                "    #[serde(default)]",
                "    pub(crate) a: u32,",
                "    b: Vec<T>,",
                "    // c: u8,",
                "    path::Type,",
            ],
        );
        assert_eq!(
            names,
            [
                None,
                None,
                Some("pub(crate) a".into()),
                Some("b".into()),
                None,
                None
            ]
        );

        // A `where` clause before the body holds no fields.
        let mut w = container(Lang::Rust, b"struct W<T>").unwrap();
        assert_eq!(w.member(b"where"), None);
        assert_eq!(w.member(b"    T: Clone,"), None);
        assert_eq!(w.member(b"{"), None);
        assert_eq!(w.member(b"    t: T,").unwrap().name, "t");

        let mut e = container(Lang::Rust, b"enum E {").unwrap();
        let a = e.member(b"    A,").unwrap();
        assert_eq!((a.name.as_str(), a.container), ("A", None));
        assert_eq!(e.member(b"    B(u32),").unwrap().name, "B");
        assert_eq!(e.member(b"    C = 3,").unwrap().name, "C");
        let mut d = e.member(b"    D {").unwrap().container.unwrap();
        assert_eq!(d.member(b"        x: u8,").unwrap().name, "x");
        assert_eq!(e.member(b"    }"), None);
        assert_eq!(container(Lang::Rust, b"fn f() {"), None);
        assert_eq!(container(Lang::Python, b"class A:"), None);
    }

    #[test]
    fn go_struct_fields_are_members() {
        let mut s = container(Lang::Go, b"type Server struct {").unwrap();
        let names = members_of(
            s,
            &[
                "\t// Addr is where it listens.",
                "\tAddr string `json:\"addr\"`",
                "\tA, B int",
                "\tio.Reader",
                "\t*Base",
                "\tBase",
                "\tmu sync.Mutex",
                "\thandler func(w Writer) error",
            ],
        );
        assert_eq!(
            names,
            [
                None,
                Some("Addr".into()),
                Some("A, B".into()),
                None,
                None,
                None,
                Some("mu".into()),
                Some("handler".into()),
            ]
        );
        let inner = s.member(b"\tLimits struct {").unwrap();
        assert_eq!(inner.name, "Limits");
        assert_eq!(
            inner
                .container
                .unwrap()
                .member(b"\t\tMax int")
                .unwrap()
                .name,
            "Max"
        );
        assert_eq!(container(Lang::Go, b"type Reader interface {"), None);
        assert_eq!(container(Lang::Go, b"func (s *Server) Run() {"), None);
    }
}
