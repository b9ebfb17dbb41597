//! Syntax: which lines look like structure (definitions, headings, section headers) in
//! each language, and the rules of blocks (what belongs to a definition).
//!
//! The language comes from the path ([`language_for`], which the Markdown renderer's
//! fences use too); each language has a
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

use std::path::Path;

mod blocks;
mod c;
mod rules;
mod symbols;

pub(crate) use blocks::{is_c_return_type_line, is_closer, is_preamble, step, Step};
use c::*;
use rules::*;
pub(crate) use symbols::{container, name, Container};

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
    /// The rules for `path`, from [`language_for`].
    pub(crate) fn for_path(path: &Path) -> Lang {
        match language_for(path) {
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

/// The Markdown fence language for a path, from well-known file names and extensions.
///
/// # Example
///
/// ```
/// use std::path::Path;
/// assert_eq!(rangeread::language_for(Path::new("src/lib.rs")), Some("rust"));
/// assert_eq!(rangeread::language_for(Path::new("Dockerfile")), Some("dockerfile"));
/// assert_eq!(rangeread::language_for(Path::new("notes.unknown")), None);
/// ```
pub fn language_for(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    let by_name = match name {
        "Makefile" | "makefile" | "GNUmakefile" => Some("makefile"),
        "Dockerfile" | "Containerfile" => Some("dockerfile"),
        "CMakeLists.txt" => Some("cmake"),
        "Gemfile" | "Rakefile" | "Podfile" | "Vagrantfile" => Some("ruby"),
        "Justfile" | "justfile" => Some("just"),
        "BUILD" | "WORKSPACE" | "BUILD.bazel" => Some("starlark"),
        ".bashrc" | ".bash_profile" | ".profile" | ".zshrc" => Some("bash"),
        ".gitignore" | ".dockerignore" => Some("gitignore"),
        "Cargo.lock" => Some("toml"),
        _ if name.starts_with("Dockerfile.") => Some("dockerfile"),
        _ => None,
    };
    if by_name.is_some() {
        return by_name;
    }
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" => "rust",
        "py" | "pyi" | "pyw" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "jsx" => "jsx",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "go" => "go",
        "java" => "java",
        "kt" | "kts" => "kotlin",
        "scala" | "sc" => "scala",
        "cs" => "csharp",
        "fs" | "fsx" => "fsharp",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "m" => "objectivec",
        "mm" => "objectivec",
        "swift" => "swift",
        "rb" => "ruby",
        "php" => "php",
        "pl" | "pm" => "perl",
        "lua" => "lua",
        "r" => "r",
        "jl" => "julia",
        "dart" => "dart",
        "ex" | "exs" => "elixir",
        "erl" | "hrl" => "erlang",
        "hs" => "haskell",
        "ml" | "mli" => "ocaml",
        "clj" | "cljs" | "edn" => "clojure",
        "zig" => "zig",
        "nim" => "nim",
        "v" | "sv" => "verilog",
        "vhd" | "vhdl" => "vhdl",
        "sh" | "bash" => "bash",
        "zsh" => "zsh",
        "fish" => "fish",
        "ps1" | "psm1" => "powershell",
        "bat" | "cmd" => "batch",
        "sql" => "sql",
        "html" | "htm" => "html",
        "css" => "css",
        "scss" => "scss",
        "sass" => "sass",
        "less" => "less",
        "vue" => "vue",
        "svelte" => "svelte",
        "xml" | "xsd" | "xsl" | "svg" | "plist" => "xml",
        "json" | "jsonc" | "json5" => "json",
        "jsonl" | "ndjson" => "jsonl",
        "yaml" | "yml" => "yaml",
        "toml" => "toml",
        "ini" | "cfg" | "conf" => "ini",
        "md" | "markdown" => "markdown",
        "rst" => "rst",
        "tex" => "latex",
        "proto" => "protobuf",
        "graphql" | "gql" => "graphql",
        "tf" | "hcl" => "hcl",
        "nix" => "nix",
        "dockerfile" => "dockerfile",
        "mk" => "makefile",
        "cmake" => "cmake",
        "gradle" => "groovy",
        "groovy" => "groovy",
        "diff" | "patch" => "diff",
        "csv" => "csv",
        "log" => "log",
        "txt" => "text",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
