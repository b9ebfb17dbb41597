//! Several roots for one tool: Zed reads in each worktree of a project (a path names its
//! worktree first) and in its global skills directory; refusals name the setting that
//! protects the path.

use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
use crate::tool::args::param;
use crate::tool::dialect::Dialect;
use crate::tool::template::fill;
use crate::workspace::Workspace;

/// The workspaces one tool reads in, and the names of the rules that protect paths in
/// them.
///
/// An absolute path is read in the root that holds it (the innermost one); a relative
/// path in the root its first component names when the dialect says so
/// ([`super::PathRules::named_roots`]), else in the first root. Each root keeps its own
/// protected patterns ([`crate::WorkspaceBuilder::protect`]).
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

    /// Adds a root; the first one added reads the relative paths no root name claims.
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

    /// The roots, in the order they were added.
    pub fn workspaces(&self) -> &[Workspace] {
        &self.roots
    }

    /// The root `path` lies in, and the path inside it.
    pub(crate) fn place(&self, path: &str, named: bool) -> Result<Placed<'_>> {
        let given = Path::new(path);
        let first = self.roots.first().ok_or_else(|| Error::OutsideWorkspace {
            path: given.to_path_buf(),
        })?;
        if given.is_absolute() {
            let holder = self
                .roots
                .iter()
                .filter(|w| given.starts_with(w.root()))
                .max_by_key(|w| w.root().as_os_str().len());
            return match holder {
                Some(workspace) => Ok(Placed {
                    workspace,
                    path: path.to_string(),
                }),
                None => Err(Error::OutsideWorkspace {
                    path: given.to_path_buf(),
                }),
            };
        }
        let mut parts = given.components();
        if let (true, Some(Component::Normal(name))) = (named, parts.next()) {
            let named = self
                .roots
                .iter()
                .find(|w| w.root().file_name() == Some(name));
            if let Some(workspace) = named {
                let rest: PathBuf = parts.collect();
                let path = if rest.as_os_str().is_empty() {
                    ".".to_string()
                } else {
                    rest.to_string_lossy().into_owned()
                };
                return Ok(Placed { workspace, path });
            }
        }
        Ok(Placed {
            workspace: first,
            path: path.to_string(),
        })
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
}

impl Roots {
    /// A failure of a read of `path` in `workspace`, as the dialect words it: the path
    /// as the caller gave it (`given`, not the path read inside the root), and a
    /// protected path's refusal naming its rule (`{rule}` of `errors.protected`;
    /// `name`: the path parameter).
    pub(crate) fn refusal(
        &self,
        d: &Dialect,
        e: Error,
        workspace: &Workspace,
        path: &str,
        given: &str,
        name: &str,
    ) -> Error {
        let e = as_given(e, given);
        match (&e, &d.errors.protected) {
            (Error::Protected { .. }, Some(t)) if t.contains("{rule}") => {
                let rule = self.rule(workspace, path).unwrap_or("protected paths");
                param(name, fill(t, &[("path", &given), ("rule", &rule)]))
            }
            _ => e,
        }
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
        other => other,
    }
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
        let at = |p: &str, named: bool| {
            let placed = roots.place(p, named).unwrap();
            (
                placed.workspace.root().file_name().unwrap().to_owned(),
                placed.path,
            )
        };
        assert_eq!(at("two/a.txt", true), ("two".into(), "a.txt".into()));
        assert_eq!(at("two/a.txt", false), ("one".into(), "two/a.txt".into()));
        assert_eq!(at("one", true), ("one".into(), ".".into()));
        assert_eq!(at("three/a", true), ("one".into(), "three/a".into()));
        let abs = base.join("two/x").to_string_lossy().into_owned();
        assert_eq!(at(&abs, true), ("two".into(), abs.clone()));
        let outside = base.join("x").to_string_lossy().into_owned();
        assert!(matches!(
            roots.place(&outside, true),
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
}
