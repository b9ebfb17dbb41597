//! What the built-in stores share: home directories, directory walking, session files,
//! project scoping, and the shell of a JSONL store (its engine, title scan, cache and
//! project), so that each store holds only what is its own.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::jsonl::{Engine, LineFormat, TitleScan};
use super::{SessionInfo, Timestamp};
use crate::error::{Error, Result};
use crate::IndexCache;

/// The user's home directory (`$HOME`, else `%USERPROFILE%`).
pub(crate) fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// `$var` (joined with `under`), else `~/` joined with `home`: where an agent keeps
/// its data.
pub(crate) fn agent_dir(var: &str, under: &[&str], home: &[&str]) -> Option<PathBuf> {
    if let Some(d) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        return Some(under.iter().fold(PathBuf::from(d), |p, s| p.join(s)));
    }
    home_dir().map(|h| home.iter().fold(h, |p, s| p.join(s)))
}

/// Fails with [`Error::StoreNotFound`] unless `dir` is a directory.
pub(crate) fn require_dir(dir: &Path, store: &'static str) -> Result<()> {
    if dir.is_dir() {
        Ok(())
    } else {
        Err(Error::StoreNotFound {
            path: dir.to_path_buf(),
            store,
        })
    }
}

/// The entries of a directory, sorted; an error names the directory.
pub(crate) fn read_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    v.sort();
    Ok(v)
}

/// The files under `dir` (at most `depth` directories down) whose name `keep` accepts,
/// sorted by path.
pub(crate) fn walk(dir: &Path, depth: u32, keep: &dyn Fn(&str) -> bool) -> Result<Vec<PathBuf>> {
    fn go(
        dir: &Path,
        depth: u32,
        keep: &dyn Fn(&str) -> bool,
        out: &mut Vec<PathBuf>,
    ) -> Result<()> {
        for p in read_dir(dir)? {
            if p.is_dir() {
                if depth > 0 {
                    go(&p, depth - 1, keep, out)?;
                }
            } else if p.file_name().and_then(|n| n.to_str()).is_some_and(keep) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    go(dir, depth, keep, &mut out)?;
    Ok(out)
}

/// Whether `id` can name a file of its own (no separators, not `.` or `..`).
pub(crate) fn plain_id(id: &str) -> bool {
    !id.is_empty() && id != "." && id != ".." && !id.contains(['/', '\\', '\0'])
}

/// The listing of a session file: `updated` is its modification time; `None` when the
/// file is gone.
pub(crate) fn file_info(path: PathBuf, id: String, title: Option<String>) -> Option<SessionInfo> {
    let meta = std::fs::metadata(&path).ok()?;
    Some(SessionInfo {
        id,
        title,
        updated: meta.modified().ok().map(Timestamp::from_system_time),
        path,
    })
}

/// The file name without `.jsonl` / `.jsonl.zst`.
pub(crate) fn stem_id(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let name = name.strip_suffix(".zst").unwrap_or(name);
    Some(name.strip_suffix(".jsonl").unwrap_or(name).to_string())
}

/// A project directory a store is scoped to, in the forms an agent may have recorded
/// it: as given, made absolute, and with symbolic links resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Project {
    forms: Vec<PathBuf>,
}

impl Project {
    pub(crate) fn new(dir: &Path) -> Project {
        let mut forms = vec![dir.to_path_buf()];
        if let Ok(abs) = std::path::absolute(dir) {
            forms.push(abs);
        }
        if let Ok(real) = std::fs::canonicalize(dir) {
            forms.push(real);
        }
        for f in &mut forms {
            let s = f.to_string_lossy();
            let trimmed = s.trim_end_matches(['/', '\\']);
            if !trimmed.is_empty() && trimmed.len() != s.len() {
                *f = PathBuf::from(trimmed);
            }
        }
        forms.dedup();
        Project { forms }
    }

    /// The directory as the caller gave it.
    pub(crate) fn dir(&self) -> &Path {
        &self.forms[0]
    }

    /// Whether a directory an agent recorded (`cwd`, a worktree) is this project.
    pub(crate) fn is(&self, recorded: &str) -> bool {
        let r = recorded.trim_end_matches(['/', '\\']);
        self.forms.iter().any(|f| f.as_os_str() == r)
    }

    /// Whether a Claude Code project folder name is this project: Claude Code names the
    /// folder after the working directory with every character that is not an ASCII
    /// letter or digit replaced by `-` (older versions replaced only separators and
    /// dots, which gives the same name for most paths).
    pub(crate) fn is_claude_folder(&self, name: &str) -> bool {
        self.forms.iter().any(|f| {
            let s = f.to_string_lossy();
            let all: String = s
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            let seps: String = s
                .chars()
                .map(|c| {
                    if matches!(c, '/' | '\\' | ':' | '.') {
                        '-'
                    } else {
                        c
                    }
                })
                .collect();
            name == all || name == seps
        })
    }

    /// Whether an OpenCode 0.x project folder name (`project/<slug>/`) is this project:
    /// OpenCode 0.x named it after the git worktree, its path components joined with `-`
    /// and every character that is not an ASCII letter, digit or `_` replaced by `-`
    /// (`/home/me/my.app` → `home-me-my-app`).
    pub(crate) fn is_opencode_slug(&self, slug: &str) -> bool {
        self.forms.iter().any(|f| {
            let s = f.to_string_lossy();
            let joined = s
                .split(['/', '\\'])
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join("-");
            let name: String = joined
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            name == slug
        })
    }
}

/// The shell every JSONL store shares: the engine for its line format, how titles are
/// searched, and the project it is scoped to.
pub(crate) struct JsonlShell<F> {
    pub(crate) engine: Engine<F>,
    pub(crate) title_scan: TitleScan,
    pub(crate) project: Option<Project>,
}

impl<F: LineFormat> JsonlShell<F> {
    pub(crate) fn new(fmt: F) -> JsonlShell<F> {
        JsonlShell {
            engine: Engine::new(fmt),
            title_scan: TitleScan::Full,
            project: None,
        }
    }

    /// The cache setter of every JSONL store.
    pub(crate) fn set_cache(&mut self, cache: Arc<IndexCache>) {
        self.engine.cache = cache;
    }
}

impl<F> std::fmt::Debug for JsonlShell<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonlShell")
            .field("title_scan", &self.title_scan)
            .field("project", &self.project.as_ref().map(Project::dir))
            .finish_non_exhaustive()
    }
}
