//! Several roots for one tool, and which of them a call's path is read in.
//!
//! The dialect's path rules ([`crate::tool::PathRules`]) decide:
//! - [`crate::tool::PathRules::named_roots`]: a relative path names its root first, as Zed
//!   names files by worktree (`project/src/a.rs`); one that names no root is read in
//!   the first root as it is.
//! - One root under [`Links::Beneath`] takes the path as the caller gave it: the
//!   [`Workspace`] resolves it, every step beneath the root.
//! - Otherwise (several roots, or [`Links::Inside`]: the MCP filesystem server's
//!   allowed directories, Gemini CLI's workspace directories) the path is first made
//!   absolute by its spelling, as Node's `path.resolve` does (a relative path against
//!   each root in turn, the first that lands inside one winning, else against the
//!   first; `.` and `..` folded without looking at the disk), and refused when no root
//!   holds it (the deepest holds it). Under [`Links::Inside`] its real path (links
//!   followed) must lie in a root too, and is what is read, still beneath that root: a
//!   link swapped in after the check is refused by the workspace, never followed.
//!
//! Refusals of protected paths can name the rule that refused them ([`Roots::label`]).

use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
use crate::tool::decode::args::param;
use crate::tool::decode::paths::path_name;
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Links};
use crate::workspace::Workspace;

/// The workspaces one tool reads in, and the names of the rules that protect paths in
/// them.
///
/// An absolute path is read in the root that holds it (the innermost one); a relative
/// path in the root its first component names when the dialect says so
/// ([`crate::tool::PathRules::named_roots`]), else against each root in turn (see the
/// source of `src/tool/serve/roots.rs` for the rules, links included). Each root keeps its own protected
/// patterns ([`crate::WorkspaceBuilder::protect`]).
///
/// A refusal of a protected path can say which rule refused it: give a pattern a label
/// ([`Roots::label`]) and write `{rule}` in the dialect's `errors.protected`.
///
/// ```
/// use rangeread::tool::{Dialect, DialectTool, Roots};
/// use rangeread::Workspace;
///
/// let mut dialect = Dialect::preset("zed")?;
/// dialect.errors.protected = Some("{path} is refused by {rule}".into());
/// let roots = Roots::new()
///     .root(Workspace::builder("tests/data").protect("*.bin").build()?)
///     .label("*.bin", "the binaries rule");
/// let tool = DialectTool::new(dialect).roots(roots);
/// let r = tool.respond(r#"{"path": "data/sample.txt", "start_line": 2, "end_line": 2}"#);
/// assert_eq!(r.text, "     2\tline 2: the quick brown fox jumps over the lazy dog (1)\n");
/// let r = tool.respond(r#"{"path": "data/x.bin"}"#);
/// assert_eq!(r.text, "data/x.bin is refused by the binaries rule");
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Roots {
    roots: Vec<Workspace>,
    labels: Vec<(String, String)>,
}

/// The root a call's path lies in, and the path to read there.
pub(crate) struct Placed<'a> {
    pub workspace: &'a Workspace,
    pub path: String,
}

impl Roots {
    /// No roots: add them with [`Roots::root`].
    pub fn new() -> Roots {
        Roots::default()
    }

    /// Adds a root; the first one added reads the relative paths no root claims.
    pub fn root(mut self, workspace: Workspace) -> Roots {
        self.roots.push(workspace);
        self
    }

    /// Names the rule that `pattern` (a protected pattern of one of the roots, as it was
    /// given) stands for: a path it refuses fills `{rule}` of the dialect's
    /// `errors.protected` with `label`.
    pub fn label(mut self, pattern: impl Into<String>, label: impl Into<String>) -> Roots {
        self.labels.push((pattern.into(), label.into()));
        self
    }

    /// Each root changed by `f` (a dialect adds its rule files).
    pub(crate) fn map(mut self, f: impl Fn(Workspace) -> Workspace) -> Roots {
        self.roots = self.roots.into_iter().map(f).collect();
        self
    }

    /// The roots, in the order they were added.
    pub fn workspaces(&self) -> &[Workspace] {
        &self.roots
    }

    /// The root `path` lies in, and the path inside it, by the dialect's path rules.
    pub(crate) fn place(&self, d: &Dialect, path: &str) -> Result<Placed<'_>> {
        place(&self.roots, d, path)
    }

    /// The label of the rule that protects `path` (as read in `workspace`): the last
    /// labelled pattern of the workspace that matches it.
    pub(crate) fn rule(&self, workspace: &Workspace, path: &str) -> Option<&str> {
        let p = Path::new(path);
        let relative = p.strip_prefix(workspace.root()).unwrap_or(p);
        workspace.patterns().iter().rev().find_map(|pattern| {
            let (_, label) = self.labels.iter().find(|(p, _)| p == pattern)?;
            let one = Workspace::builder(workspace.root())
                .protect(pattern.clone())
                .build()
                .ok()?;
            one.is_protected(relative).then_some(label.as_str())
        })
    }

    /// A failure of a read of `path` in `workspace`, as the dialect words it: under
    /// named roots, the path as the caller gave it (`given`, not the path read inside
    /// the root); a protected path's refusal naming its rule (`{rule}` of
    /// `errors.protected`).
    pub(crate) fn refusal(
        &self,
        d: &Dialect,
        e: Error,
        workspace: &Workspace,
        path: &str,
        given: &str,
    ) -> Error {
        let e = if d.paths.named_roots {
            as_given(e, given)
        } else {
            e
        };
        match (&e, &d.errors.protected) {
            (Error::Protected { .. }, Some(t)) if t.contains("{rule}") => {
                let rule = self.rule(workspace, path).unwrap_or("protected paths");
                param(path_name(d), fill(t, &[("path", &given), ("rule", &rule)]))
            }
            _ => e,
        }
    }
}

impl FromIterator<Workspace> for Roots {
    fn from_iter<I: IntoIterator<Item = Workspace>>(roots: I) -> Roots {
        roots.into_iter().fold(Roots::new(), Roots::root)
    }
}

/// `e` with the path the caller gave instead of the one read inside a root.
fn as_given(e: Error, given: &str) -> Error {
    let path = PathBuf::from(given);
    match e {
        Error::NotFound { .. } => Error::NotFound { path },
        Error::IsDirectory { .. } => Error::IsDirectory { path },
        Error::PermissionDenied { .. } => Error::PermissionDenied { path },
        Error::NotRegularFile { kind, .. } => Error::NotRegularFile { path, kind },
        Error::OutsideWorkspace { .. } => Error::OutsideWorkspace { path },
        Error::Protected { .. } => Error::Protected { path },
        Error::Denied {
            rule,
            file,
            setting,
            default,
            ..
        } => Error::Denied {
            path,
            rule,
            file,
            setting,
            default,
        },
        Error::RuleFile { file, reason, .. } => Error::RuleFile { path, file, reason },
        other => other,
    }
}

/// Where a call's path (`asked`) is read among `roots`, by the dialect's path rules (see
/// the [module](self)).
pub(crate) fn place<'a>(roots: &'a [Workspace], d: &Dialect, asked: &str) -> Result<Placed<'a>> {
    let Some(first) = roots.first() else {
        return Err(Error::OutsideWorkspace {
            path: PathBuf::from(asked),
        });
    };
    let at = |workspace, path: String| Ok(Placed { workspace, path });
    if d.paths.named_roots && !Path::new(asked).has_root() {
        return match named(roots, asked) {
            Some((workspace, path)) => at(workspace, path),
            None => at(first, asked.to_string()),
        };
    }
    if roots.len() == 1 && d.paths.links == Links::Beneath {
        return at(first, asked.to_string());
    }
    let abs = absolute(roots, asked);
    let Some(ws) = holder(roots, &abs) else {
        return Err(Error::OutsideWorkspace { path: abs });
    };
    if d.paths.links == Links::Beneath {
        return at(ws, text(&abs));
    }
    // The real path read below is checked by the workspace; the path as asked is
    // checked here, before the disk is touched.
    let spelled = std::iter::once(ws.root())
        .chain(ws.root_alias())
        .find_map(|r| abs.strip_prefix(r).ok());
    if let Some(Err(e)) = spelled.map(|rel| ws.check_spelling(rel)) {
        // A project rule's refusal shows the path made absolute (Gemini CLI's
        // `resolvedPath`); a protected pattern's, the path as asked.
        let shown = match e {
            Error::Protected { .. } => asked.to_string(),
            _ => text(&abs),
        };
        return Err(as_given(e, &shown));
    }
    let outside_link = |real: &Path| {
        let t = d.errors.outside_link.as_ref().or(d.errors.outside.as_ref());
        match t {
            Some(t) => param(
                path_name(d),
                fill(
                    t,
                    &[
                        ("path", &text(&abs)),
                        ("real", &text(real)),
                        ("dirs", &dirs(roots, d)),
                    ],
                ),
            ),
            None => Error::OutsideWorkspace { path: abs.clone() },
        }
    };
    match std::fs::canonicalize(&abs) {
        Ok(real) => match real_holder(roots, &real) {
            Some(ws) => at(ws, text(&real)),
            None => Err(outside_link(&real)),
        },
        // A file that does not exist is judged by its directory.
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let (Some(parent), Some(name)) = (abs.parent(), abs.file_name()) else {
                return at(ws, text(&abs));
            };
            match std::fs::canonicalize(parent) {
                Ok(real_parent) => {
                    let real = real_parent.join(name);
                    match real_holder(roots, &real_parent) {
                        Some(ws) => at(ws, text(&real)),
                        None => Err(outside_link(&real)),
                    }
                }
                Err(_) => match &d.errors.no_parent {
                    Some(t) => Err(param(path_name(d), fill(t, &[("parent", &text(parent))]))),
                    None => Err(Error::NotFound { path: abs }),
                },
            }
        }
        // Anything else (a file where a directory should be, a loop, no permission):
        // the workspace answers it.
        Err(_) => at(ws, text(&abs)),
    }
}

/// The root a relative path names first (its directory's last component), and the
/// rest of the path (`.` for the root itself).
fn named<'a>(roots: &'a [Workspace], asked: &str) -> Option<(&'a Workspace, String)> {
    let mut parts = Path::new(asked).components();
    let Some(Component::Normal(name)) = parts.next() else {
        return None;
    };
    let workspace = roots.iter().find(|w| w.root().file_name() == Some(name))?;
    let rest: PathBuf = parts.collect();
    let path = if rest.as_os_str().is_empty() {
        ".".to_string()
    } else {
        rest.to_string_lossy().into_owned()
    };
    Some((workspace, path))
}

/// The roots, for messages: their real paths, joined by `, `.
pub(crate) fn dirs(roots: &[Workspace], d: &Dialect) -> String {
    let all: Vec<String> = roots.iter().map(|w| text(w.root())).collect();
    match (&d.paths.last_root, all.split_last()) {
        (Some(t), Some((last, rest))) if !rest.is_empty() => {
            rest.join(", ") + &fill(t, &[("dir", &last.as_str())])
        }
        _ => all.join(", "),
    }
}

fn text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// `asked` made absolute by its spelling: against each root in turn (the first that
/// lands inside one wins, else the first), `.` and `..` folded.
fn absolute(roots: &[Workspace], asked: &str) -> PathBuf {
    let p = Path::new(asked);
    if p.has_root() {
        return fold(p);
    }
    let bases = || roots.iter().map(|w| w.root_alias().unwrap_or(w.root()));
    bases()
        .map(|b| fold(&b.join(p)))
        .find(|c| holder(roots, c).is_some())
        .unwrap_or_else(|| fold(&bases().next().unwrap_or(Path::new("/")).join(p)))
}

/// `.` dropped and `..` folded by the spelling alone; `..` at the top stays there.
fn fold(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The root whose directory holds the absolute, folded `path` by its spelling (as the
/// root was spelled or as it resolved), the deepest first; none for a path with a NUL.
fn holder<'a>(roots: &'a [Workspace], path: &Path) -> Option<&'a Workspace> {
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return None;
    }
    roots
        .iter()
        .filter_map(|w| {
            let spelled = w.root_alias().filter(|a| path.starts_with(a));
            let real = Some(w.root()).filter(|r| path.starts_with(r));
            spelled
                .into_iter()
                .chain(real)
                .map(|r| r.components().count())
                .max()
                .map(|depth| (depth, w))
        })
        .max_by_key(|(depth, _)| *depth)
        .map(|(_, w)| w)
}

/// The root whose real directory holds the real path `real`, the deepest first.
fn real_holder<'a>(roots: &'a [Workspace], real: &Path) -> Option<&'a Workspace> {
    roots
        .iter()
        .filter(|w| real.starts_with(w.root()))
        .max_by_key(|w| w.root().components().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_names_its_root_first_or_lies_in_it() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for d in ["one", "two", "one/two"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        let roots = Roots::new()
            .root(Workspace::new(base.join("one")).unwrap())
            .root(Workspace::new(base.join("two")).unwrap());
        let dialect = |named: bool| {
            let mut d = Dialect::preset("zed").unwrap();
            d.paths.named_roots = named;
            d
        };
        let at = |p: &str, named: bool| {
            let placed = roots.place(&dialect(named), p).unwrap();
            (
                placed.workspace.root().file_name().unwrap().to_owned(),
                placed.path,
            )
        };
        assert_eq!(at("two/a.txt", true), ("two".into(), "a.txt".into()));
        // Not named: resolved against the roots in turn, read as an absolute path.
        let in_one = base.join("one/two/a.txt").to_string_lossy().into_owned();
        assert_eq!(at("two/a.txt", false), ("one".into(), in_one));
        let in_two = base.join("two/b").to_string_lossy().into_owned();
        assert_eq!(at("../two/b", false), ("two".into(), in_two));
        assert_eq!(at("one", true), ("one".into(), ".".into()));
        assert_eq!(at("three/a", true), ("one".into(), "three/a".into()));
        let abs = base.join("two/x").to_string_lossy().into_owned();
        assert_eq!(at(&abs, true), ("two".into(), abs.clone()));
        let outside = base.join("x").to_string_lossy().into_owned();
        assert!(matches!(
            roots.place(&dialect(true), &outside),
            Err(Error::OutsideWorkspace { .. })
        ));
    }

    #[test]
    fn a_refusal_names_the_last_labelled_pattern_that_matches() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::builder(dir.path())
            .protect_all(["*.key", "secret*", "plain"])
            .build()
            .unwrap();
        let roots = Roots::new()
            .root(ws.clone())
            .label("*.key", "keys")
            .label("secret*", "secrets");
        assert_eq!(roots.rule(&ws, "a/secret.key"), Some("secrets"));
        assert_eq!(roots.rule(&ws, "a.key"), Some("keys"));
        assert_eq!(roots.rule(&ws, "plain"), None);
        let abs = ws.root().join("b.key").to_string_lossy().into_owned();
        assert_eq!(roots.rule(&ws, &abs), Some("keys"));
    }

    #[test]
    fn folds_dots_by_spelling() {
        assert_eq!(fold(Path::new("/a/./b/../c")), Path::new("/a/c"));
        assert_eq!(fold(Path::new("/a/../../x")), Path::new("/x"));
        assert_eq!(fold(Path::new("/a//b/")), Path::new("/a/b"));
        assert_eq!(fold(Path::new("/a/...")), Path::new("/a/..."));
    }

    #[test]
    fn routes_to_the_root_that_holds_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for d in ["p", "p2", "p/q"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        let roots: Vec<Workspace> = ["p", "p2", "p/q"]
            .iter()
            .map(|d| Workspace::new(base.join(d)).unwrap())
            .collect();
        let at = |p: &str| holder(&roots, &absolute(&roots, p)).map(|w| w.root().to_path_buf());
        assert_eq!(at(&format!("{}/p/x", base.display())), Some(base.join("p")));
        assert_eq!(
            at(&format!("{}/p/q/x", base.display())),
            Some(base.join("p/q"))
        );
        assert_eq!(at(&format!("{}/p2x", base.display())), None);
        assert_eq!(
            at(&format!("{}/p/../p2/x", base.display())),
            Some(base.join("p2"))
        );
        assert_eq!(at("x"), Some(base.join("p")));
        assert_eq!(at("../p2/y"), Some(base.join("p2")));
        // Against p/q, `../x` lands in p.
        assert_eq!(at("../x"), Some(base.join("p")));
        assert_eq!(at("../../elsewhere"), None);
        assert_eq!(at(&format!("{}/p/a\0b", base.display())), None);
    }
}
