//! Allowed directories: which root a tool call's path is read in, and the path to give
//! it, under the dialect's rule for links ([`Links`]).
//!
//! One root under [`Links::Beneath`] leaves the path as the caller gave it: the
//! [`Workspace`] resolves it. Several roots, or [`Links::Inside`], first make the path
//! absolute by its spelling, as Node's `path.resolve` does (a relative path against each
//! root in turn, the first that lands inside one winning, else against the first; `.`
//! and `..` folded without looking at the disk), and refuse it when no root holds it.
//! Under [`Links::Inside`] its real path (links followed) must lie in a root too, and
//! is what is read, still beneath that root: a link swapped in after the check is
//! refused by the workspace, never followed.

use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
use crate::tool::args::param;
use crate::tool::dialect::{Dialect, Links, Role};
use crate::tool::template::fill;
use crate::workspace::Workspace;

/// Where a call's path is read: the root and the path to give it.
pub(crate) fn locate(roots: &[Workspace], d: &Dialect, asked: &str) -> Result<(Workspace, String)> {
    let Some(first) = roots.first() else {
        return Err(Error::OutsideWorkspace {
            path: PathBuf::from(asked),
        });
    };
    if roots.len() == 1 && d.paths.links == Links::Beneath {
        return Ok((first.clone(), asked.to_string()));
    }
    let abs = absolute(roots, asked);
    let Some(ws) = holder(roots, &abs) else {
        return Err(Error::OutsideWorkspace { path: abs });
    };
    if d.paths.links == Links::Beneath {
        return Ok((ws.clone(), text(&abs)));
    }
    // The real path read below is checked by the workspace; the path as asked is
    // checked here, before the disk is touched.
    let spelled = std::iter::once(ws.root())
        .chain(ws.root_alias())
        .find_map(|r| abs.strip_prefix(r).ok());
    if spelled.is_some_and(|rel| ws.is_protected(rel)) {
        return Err(Error::Protected {
            path: PathBuf::from(asked),
        });
    }
    let outside_link = |real: &Path| {
        let t = d.errors.outside_link.as_ref().or(d.errors.outside.as_ref());
        match t {
            Some(t) => param(
                path_param(d),
                fill(
                    t,
                    &[
                        ("path", &text(&abs)),
                        ("real", &text(real)),
                        ("dirs", &dirs(roots)),
                    ],
                ),
            ),
            None => Error::OutsideWorkspace { path: abs.clone() },
        }
    };
    match std::fs::canonicalize(&abs) {
        Ok(real) => match real_holder(roots, &real) {
            Some(ws) => Ok((ws.clone(), text(&real))),
            None => Err(outside_link(&real)),
        },
        // A file that does not exist is judged by its directory.
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let (Some(parent), Some(name)) = (abs.parent(), abs.file_name()) else {
                return Ok((ws.clone(), text(&abs)));
            };
            match std::fs::canonicalize(parent) {
                Ok(real_parent) => {
                    let real = real_parent.join(name);
                    match real_holder(roots, &real_parent) {
                        Some(ws) => Ok((ws.clone(), text(&real))),
                        None => Err(outside_link(&real)),
                    }
                }
                Err(_) => match &d.errors.no_parent {
                    Some(t) => Err(param(path_param(d), fill(t, &[("parent", &text(parent))]))),
                    None => Err(Error::NotFound { path: abs }),
                },
            }
        }
        // Anything else (a file where a directory should be, a loop, no permission):
        // the workspace answers it.
        Err(_) => Ok((ws.clone(), text(&abs))),
    }
}

/// The roots, for messages: their real paths, joined by `, `.
pub(crate) fn dirs(roots: &[Workspace]) -> String {
    roots
        .iter()
        .map(|w| text(w.root()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The name of the dialect's path parameter, for messages.
pub(crate) fn path_param(d: &Dialect) -> &str {
    d.params
        .iter()
        .find(|p| p.role == Role::Path)
        .map_or("path", |p| p.name.as_str())
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
