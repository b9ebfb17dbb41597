//! Paths as some tools take them: refused by name before anything is opened (devices by
//! prefix, binary formats by extension, [`PathRules`]), and what an error message can
//! say about where the call read ([`Place`]): the working directory, the absolute path,
//! the extension, and a file of the same stem beside a missing one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::tool::decode::args::param;
use crate::tool::dialect::template::{fill, Value};
use crate::tool::dialect::{Dialect, ErrorTexts, NameRefusal, PathRules, Role};
use crate::workspace::Workspace;

/// The extension of a path's file name with its dot, in lower case (`""` for none;
/// a dot file such as `.bashrc` has none).
fn extension(path: &str) -> String {
    Path::new(path)
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy().to_lowercase()))
        .unwrap_or_default()
}

/// Refuses a path the dialect refuses by its name ([`PathRules::refused_prefixes`],
/// [`PathRules::refused_extensions`]), before it is resolved or opened.
pub(crate) fn refuse_by_name(d: &Dialect, path: &str) -> Result<()> {
    let PathRules {
        refused_prefixes,
        refused_extensions,
        ..
    } = &d.paths;
    let ext = extension(path);
    let by_prefix = refused_prefixes
        .iter()
        .find(|r| r.names.iter().any(|p| path.starts_with(p.as_str())));
    let lower = path.to_ascii_lowercase();
    let refuses = |r: &NameRefusal, name: &String| match r.match_suffix {
        true => lower.ends_with(&name.to_ascii_lowercase()),
        false => !ext.is_empty() && *name == ext,
    };
    let by_ext = || {
        refused_extensions
            .iter()
            .find(|r| r.names.iter().any(|n| refuses(r, n)))
    };
    let Some(refusal) = by_prefix.or_else(by_ext) else {
        return Ok(());
    };
    Err(param(
        path_name(d),
        fill(
            &refusal.message,
            &[("path", &controls_escaped(path)), ("ext", &ext.as_str())],
        ),
    ))
}

/// Where a call read: the values error messages show beside the library's (`{cwd}`,
/// `{abs}`, `{ext}`, `{did_you_mean}`).
#[derive(Debug, Default)]
pub(crate) struct Place {
    workspace: Option<Workspace>,
    path: String,
    cwd: String,
    abs: String,
    ext: String,
    did_you_mean: String,
    /// The call asks for the file's last lines ([`ErrorTexts::not_found_tail`]).
    tail: bool,
}

impl Place {
    /// The place of `path` in `workspace` (or in the process's working directory);
    /// what messages show is worked out by [`Place::explain`], on failure only.
    pub(crate) fn new(workspace: Option<&Workspace>, path: &str) -> Place {
        Place {
            workspace: workspace.cloned(),
            path: path.to_string(),
            ..Place::default()
        }
    }

    /// The place of a call that asks for the file's last lines, when `tail`.
    pub(crate) fn tail(mut self, tail: bool) -> Place {
        self.tail = tail;
        self
    }

    /// The text of a missing file: the tail's when the call asks for the last lines
    /// and the dialect has one.
    pub(crate) fn not_found<'a>(&self, t: &'a ErrorTexts) -> &'a Option<String> {
        match &t.not_found_tail {
            Some(_) if self.tail => &t.not_found_tail,
            _ => &t.not_found,
        }
    }

    /// The values for the message of `e`: the working directory (the workspace root),
    /// the absolute path, the extension, and `{did_you_mean}` when `e` says the file is
    /// missing and the dialect suggests a sibling.
    pub(crate) fn explain(mut self, d: &Dialect, e: &Error) -> Place {
        let cwd = match &self.workspace {
            Some(ws) => ws.root().to_path_buf(),
            None => std::env::current_dir().unwrap_or_default(),
        };
        let abs = self
            .workspace
            .as_ref()
            .and_then(|ws| ws.resolve(&self.path).ok())
            .unwrap_or_else(|| lexical(&cwd.join(&self.path)));
        self.cwd = controls_escaped(&cwd.display().to_string());
        self.abs = controls_escaped(&abs.display().to_string());
        self.ext = controls_escaped(&extension(&self.path));
        if let (Error::NotFound { .. }, Some(t)) = (e, &d.errors.did_you_mean) {
            if let Some(name) = self.sibling() {
                self.did_you_mean = fill(t, &[("name", &controls_escaped(&name))]);
            }
        }
        self
    }

    /// The values a message template can show.
    pub(crate) fn values(&self) -> [(&'static str, &dyn Value); 4] {
        [
            ("cwd", &self.cwd),
            ("abs", &self.abs),
            ("ext", &self.ext),
            ("did_you_mean", &self.did_you_mean),
        ]
    }

    /// A file beside the missing one with the same stem and another extension: the
    /// first by name, never a protected one.
    fn sibling(&self) -> Option<String> {
        let asked = Path::new(&self.path);
        let stem = asked.file_stem()?;
        let name = asked.file_name()?;
        let parent = match asked.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let dir = match &self.workspace {
            Some(ws) => ws.resolve(parent).ok()?,
            None => parent.to_path_buf(),
        };
        let mut found: Vec<String> = std::fs::read_dir(&dir)
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .filter(|n| n != name && Path::new(n).file_stem() == Some(stem))
            .filter(|n| match &self.workspace {
                Some(ws) => dir
                    .strip_prefix(ws.root())
                    .is_ok_and(|rel| !ws.is_protected(rel.join(n))),
                None => true,
            })
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        found.sort_unstable();
        found.into_iter().next()
    }
}

/// `text` with each control character written `&#N;` (as Claude Code writes them), so
/// that a file name cannot start a line of its own in a model's input.
fn controls_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            let _ = write!(out, "&#{};", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// `path` with `.` and `..` taken out lexically (for a path that does not exist).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The name of the dialect's path parameter, for messages.
pub(crate) fn path_name(d: &Dialect) -> &str {
    d.params
        .iter()
        .find(|p| p.role == Role::Path)
        .map_or("path", |p| p.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_lower_case_with_their_dot() {
        assert_eq!(extension("a/B.ZIP"), ".zip");
        assert_eq!(extension("notes.dat"), ".dat");
        assert_eq!(extension(".bashrc"), "");
        assert_eq!(extension("Makefile"), "");
        assert_eq!(controls_escaped("a\nb\u{1b}c"), "a&#10;b&#27;c");
    }

    #[test]
    fn a_sibling_of_the_same_stem_is_suggested_unless_protected() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("similar.md"), "x").unwrap();
        std::fs::write(dir.path().join("secret.key"), "x").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a.rs"), "x").unwrap();
        let ws = Workspace::builder(dir.path())
            .protect("*.key")
            .build()
            .unwrap();
        let sibling = |p: &str| Place::new(Some(&ws), p).sibling();
        assert_eq!(sibling("similar.txt").as_deref(), Some("similar.md"));
        assert_eq!(sibling("sub/a.py").as_deref(), Some("a.rs"));
        assert_eq!(sibling("secret.txt"), None);
        assert_eq!(sibling("other.txt"), None);
        let d = Dialect::preset("read_file").unwrap();
        let e = Error::NotFound {
            path: "x.txt".into(),
        };
        let place = Place::new(Some(&ws), "sub/../x.txt").explain(&d, &e);
        assert_eq!(place.abs, ws.root().join("x.txt").display().to_string());
        assert_eq!(place.cwd, ws.root().display().to_string());
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_by_name_and_fifos_by_kind() {
        use crate::tool::DialectTool;
        use serde_json::json;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let ws = Workspace::new(dir.path()).unwrap();
        let t = DialectTool::new(Dialect::preset("claude-code").unwrap()).workspace(ws.clone());
        let r = t.respond(json!({"file_path": "fifo"}));
        let abs = ws.root().join("fifo");
        assert_eq!(
            r.text,
            format!(
                "<tool_use_error>Cannot read '{}': this path names a device or process file \
                 that this tool does not read.</tool_use_error>",
                abs.display()
            )
        );
        let r = t.respond(json!({"file_path": "/proc/self/environ"}));
        assert!(
            r.is_error
                && r.text
                    .starts_with("<tool_use_error>Cannot read '/proc/self/environ'")
        );
        // Refused by extension before it is looked for.
        let r = t.respond(json!({"file_path": "missing.ZIP"}));
        assert!(r.text.contains("a binary .zip file"), "{}", r.text);
        // Images and PDFs are read (by content): a missing one is looked for.
        let r = t.respond(json!({"file_path": "shot.png"}));
        assert!(r.text.starts_with("File does not exist."), "{}", r.text);
    }
}
