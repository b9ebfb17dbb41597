//! A project's own rules: files in the workspace root that say which paths no agent may
//! read (`.gitignore`-style files such as `.geminiignore`, `.gooseignore`,
//! `.cursorignore` and git's own nested `.gitignore`s; Zed's settings; Claude Code's
//! `permissions.deny`), read when they are first needed and read again when they change.
//!
//! The rules add to the workspace's protected patterns: a path that any rule file refuses
//! is refused, with [`crate::Error::Denied`] naming the rule, its setting and its file.
//! A rule file that cannot be used (unreadable, too large, a symbolic link, a FIFO, not
//! valid) refuses every path it could cover with [`crate::Error::RuleFile`]: the rules
//! fail closed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

mod read;
mod syntax;

pub(crate) use read::Pass;
use read::{load, Loaded, Stamp};
use syntax::{Compiled, Verdict};

/// The most bytes a rule file may hold (1 MiB); a larger one fails closed.
pub(crate) const MAX_RULE_FILE_BYTES: u64 = 1 << 20;
/// The most patterns one rule file may hold; more fail closed.
pub(crate) const MAX_RULES_PER_FILE: usize = 10_000;
/// The longest pattern, in bytes (a path is at most 4096 bytes long).
pub(crate) const MAX_RULE_BYTES: usize = 4096;
/// How many compiled rule files a workspace keeps (nested `.gitignore`s are one per
/// directory); past this the cache starts over.
const MAX_CACHED: usize = 4096;

/// The language a rule file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RuleSyntax {
    /// `.gitignore` syntax, matched as git matches it (ripgrep's `ignore` crate): `#`
    /// comments, `!` negation (the last matching line decides), a trailing `/` for
    /// directories, a `/` inside or in front anchoring at the file's directory, `*` and
    /// `?` within a name, `**` across names, `[...]` classes, `\` escapes; a path under
    /// an ignored directory is ignored whatever later lines say.
    Gitignore,
    /// Zed's settings JSON (comments and trailing commas allowed): the globs of
    /// `file_scan_exclusions` (checked first) and `private_files`, each matched against
    /// the path and each of its ancestors; a setting the file does not set (or a file
    /// that does not exist) has Zed's default.
    ZedSettings,
    /// Claude Code's settings JSON: each `Read(pattern)` of `permissions.deny`, with
    /// Claude Code's pattern syntax (`//abs` an absolute path, `~/p` under the home
    /// directory, `/p` and `./p` from the project root, `p` as in `.gitignore`; a bare
    /// `Read` denies every path).
    ClaudeSettings,
    /// No file: the `defaults` are always in force, in `.gitignore` syntax, and `path`
    /// is only their name in refusals (Gemini CLI's blocked path segments).
    Builtin,
}

/// One source of a project's rules: where it lies, in what syntax, and what is in force
/// when it is absent.
///
/// ```
/// use rangeread::{RuleFile, Workspace};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join(".geminiignore"), "foo.*\nignored/\n")?;
/// std::fs::write(dir.path().join("foo.bar"), "secret")?;
/// let ws = Workspace::builder(dir.path())
///     .rule_file(RuleFile::gitignore(".geminiignore"))
///     .build()?;
/// let err = ws.open("foo.bar").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"Access denied: "foo.bar" is refused by the rule "foo.*" of ".geminiignore""#
/// );
/// // The same answer for a path that does not exist.
/// assert!(ws.open("ignored/nothing-here").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RuleFile {
    /// The file, relative to the root, `/`-separated (`.geminiignore`,
    /// `.zed/settings.json`); for a nested file, its name in each directory.
    pub path: String,
    /// Its syntax.
    pub syntax: RuleSyntax,
    /// Read in every directory beneath the root too, each covering its own directory,
    /// the deepest deciding first (git's `.gitignore`). Only for [`RuleSyntax::Gitignore`].
    #[serde(default)]
    pub nested: bool,
    /// Read only when the root lies in a git repository (a `.git` in the root or one
    /// of its ancestors, when the workspace is built).
    #[serde(default)]
    pub in_git_repository: bool,
    /// Patterns in force when the file does not exist (Goose's `**/.env`, ...), in
    /// `.gitignore` syntax; for [`RuleSyntax::Builtin`], the patterns themselves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<String>,
    /// Match without regard to case (Gemini CLI's blocked segments).
    #[serde(default)]
    pub case_insensitive: bool,
}

impl RuleFile {
    fn new(path: impl Into<String>, syntax: RuleSyntax) -> RuleFile {
        RuleFile {
            path: path.into(),
            syntax,
            nested: false,
            in_git_repository: false,
            defaults: Vec::new(),
            case_insensitive: false,
        }
    }

    /// A file in `.gitignore` syntax at `path` (relative to the root).
    pub fn gitignore(path: impl Into<String>) -> RuleFile {
        RuleFile::new(path, RuleSyntax::Gitignore)
    }

    /// Zed's settings at `path` (`.zed/settings.json`).
    pub fn zed_settings(path: impl Into<String>) -> RuleFile {
        RuleFile::new(path, RuleSyntax::ZedSettings)
    }

    /// Claude Code's settings at `path` (`.claude/settings.json`,
    /// `.claude/settings.local.json`).
    pub fn claude_settings(path: impl Into<String>) -> RuleFile {
        RuleFile::new(path, RuleSyntax::ClaudeSettings)
    }

    /// Patterns always in force (`.gitignore` syntax), named `label` in refusals.
    pub fn builtin<I, S>(label: impl Into<String>, patterns: I) -> RuleFile
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut f = RuleFile::new(label, RuleSyntax::Builtin);
        f.defaults = patterns.into_iter().map(Into::into).collect();
        f
    }

    /// By default, only the file at `path`; `true` reads one in every directory, as git
    /// reads `.gitignore`.
    pub fn nested(mut self, yes: bool) -> RuleFile {
        self.nested = yes;
        self
    }

    /// By default, the file is read wherever the root is; `true` reads it only inside a
    /// git repository.
    pub fn in_git_repository(mut self, yes: bool) -> RuleFile {
        self.in_git_repository = yes;
        self
    }

    /// By default, an absent file refuses nothing; these patterns are in force when it
    /// is absent.
    pub fn defaults<I, S>(mut self, patterns: I) -> RuleFile
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.defaults = patterns.into_iter().map(Into::into).collect();
        self
    }

    /// By default, case matters; `true` ignores it.
    pub fn case_insensitive(mut self, yes: bool) -> RuleFile {
        self.case_insensitive = yes;
        self
    }
}

/// Why a path is refused by the rules.
#[derive(Debug, Clone)]
pub(crate) enum Hit {
    Denied {
        rule: String,
        file: PathBuf,
        setting: Option<String>,
        default: bool,
    },
    Broken {
        file: PathBuf,
        reason: String,
    },
}

impl Hit {
    /// The error for a path refused by this hit.
    pub(crate) fn error(self, path: &Path) -> crate::Error {
        let path = path.to_path_buf();
        match self {
            Hit::Denied {
                rule,
                file,
                setting,
                default,
            } => crate::Error::Denied {
                path,
                rule,
                file,
                setting,
                default,
            },
            Hit::Broken { file, reason } => crate::Error::RuleFile { path, file, reason },
        }
    }
}

struct Entry {
    stamp: Option<Stamp>,
    compiled: std::result::Result<Arc<Compiled>, String>,
}

/// The rule files of one workspace, compiled as they are needed and compiled again when
/// they change.
pub(crate) struct Rules {
    files: Vec<RuleFile>,
    root: PathBuf,
    in_repository: bool,
    cache: Mutex<HashMap<PathBuf, Entry>>,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules").field("files", &self.files).finish()
    }
}

impl Rules {
    /// The rules of `files` for the canonical `root`; reads the root's files once, so
    /// later checks only look at their stamps.
    pub(crate) fn new(root: &Path, files: Vec<RuleFile>) -> Rules {
        let in_repository = root
            .ancestors()
            .any(|d| d.join(".git").symlink_metadata().is_ok());
        let rules = Rules {
            files,
            root: root.to_path_buf(),
            in_repository,
            cache: Mutex::new(HashMap::new()),
        };
        let mut pass = Pass::default();
        for f in rules.files.iter().filter(|f| !f.nested) {
            let _ = rules.compiled(&mut pass, f, Path::new(&f.path), false, true);
        }
        rules
    }

    pub(crate) fn files(&self) -> &[RuleFile] {
        &self.files
    }

    /// Whether `rel` (relative to the root, no `..`) or one of its ancestors is refused.
    pub(crate) fn check(
        &self,
        pass: &mut Pass,
        rel: &Path,
        is_dir: bool,
    ) -> std::result::Result<(), Hit> {
        let mut prefix = PathBuf::new();
        let names: Vec<_> = rel.iter().collect();
        for (i, name) in names.iter().enumerate() {
            prefix.push(name);
            self.check_one(pass, &prefix, is_dir || i + 1 < names.len())?;
        }
        Ok(())
    }

    /// The rules on a path's spelling (its components, `..` not yet folded), as the
    /// workspace checks its protected patterns: every directory the spelling passes
    /// through, then the path, as a directory when it was spelled with a trailing `/`
    /// (`dir`), else as a file: a name a rule refuses as a file is refused before the
    /// disk is looked at, even if it is a directory that a directory-only negation
    /// (`!name/`) would allow. A spelling that climbs above the root is left to the walk.
    pub(crate) fn check_spelled(
        &self,
        pass: &mut Pass,
        pending: &std::collections::VecDeque<std::ffi::OsString>,
        dir: bool,
    ) -> std::result::Result<(), Hit> {
        let mut rel = PathBuf::new();
        for (i, c) in pending.iter().enumerate() {
            if c == ".." {
                if !rel.pop() {
                    return Ok(());
                }
                continue;
            }
            rel.push(c);
            self.check_one(pass, &rel, dir || i + 1 < pending.len())?;
        }
        Ok(())
    }

    /// Whether `rel` itself is refused, its ancestors aside.
    pub(crate) fn check_one(
        &self,
        pass: &mut Pass,
        rel: &Path,
        is_dir: bool,
    ) -> std::result::Result<(), Hit> {
        if rel.as_os_str().is_empty() {
            return Ok(());
        }
        for f in &self.files {
            if f.in_git_repository && !self.in_repository {
                continue;
            }
            if f.nested {
                // The deepest file decides first; a file that says nothing defers to
                // the one above.
                for dir in rel.ancestors().skip(1) {
                    let file = dir.join(&f.path);
                    let Some(compiled) = self.compiled(pass, f, &file, true, false)? else {
                        continue;
                    };
                    let inside = rel.strip_prefix(dir).unwrap_or(rel);
                    match compiled.verdict(inside, is_dir) {
                        Verdict::Denied(hit) => return Err(hit),
                        Verdict::Allowed => break,
                        Verdict::Silent => {}
                    }
                }
            } else {
                // A file that is not nested covers the root, wherever it lies
                // (`.zed/settings.json`, `.git/info/exclude`).
                let Some(compiled) = self.compiled(pass, f, Path::new(&f.path), false, true)?
                else {
                    continue;
                };
                if let Verdict::Denied(hit) = compiled.verdict(rel, is_dir) {
                    return Err(hit);
                }
            }
        }
        Ok(())
    }

    /// The compiled rules of the file at `rel_file`, read again if its stamp changed
    /// (the stamp taken once in `pass`); `None` when it does not exist and `defaults` is
    /// false (else its defaults).
    fn compiled(
        &self,
        pass: &mut Pass,
        f: &RuleFile,
        rel_file: &Path,
        nested: bool,
        defaults: bool,
    ) -> std::result::Result<Option<Arc<Compiled>>, Hit> {
        let broken = |reason: String| Hit::Broken {
            file: rel_file.to_path_buf(),
            reason,
        };
        if f.syntax == RuleSyntax::Builtin {
            let key = PathBuf::from(format!("\0builtin\0{}", f.path));
            return self
                .cached(key, None, || syntax::builtin(f))
                .map(Some)
                .map_err(broken);
        }
        let stamp = pass.stamp(&self.root, rel_file, nested).map_err(broken)?;
        if stamp.is_none() {
            if !defaults {
                return Ok(None);
            }
            let key = PathBuf::from(format!("\0defaults\0{}", f.path));
            return self
                .cached(key, None, || syntax::absent(f, rel_file))
                .map(Some)
                .map_err(broken);
        }
        {
            let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = cache.get(rel_file) {
                if e.stamp == stamp {
                    return e.compiled.clone().map(Some).map_err(broken);
                }
            }
        }
        let (stamp, compiled) = match load(&self.root, rel_file, nested, pass) {
            Ok(Loaded::Absent) => {
                return self.compiled(&mut Pass::default(), f, rel_file, nested, defaults)
            }
            Ok(Loaded::Text(stamp, text)) => {
                (Some(stamp), syntax::compile(f, rel_file, &text, &self.root))
            }
            Err(reason) => (stamp, Err(reason)),
        };
        self.store(rel_file.to_path_buf(), stamp, compiled)
            .map(Some)
            .map_err(broken)
    }

    /// The entry under `key` if it has `stamp`, else `make`'s, stored.
    fn cached(
        &self,
        key: PathBuf,
        stamp: Option<Stamp>,
        make: impl FnOnce() -> std::result::Result<Compiled, String>,
    ) -> std::result::Result<Arc<Compiled>, String> {
        {
            let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = cache.get(&key) {
                if e.stamp == stamp {
                    return e.compiled.clone();
                }
            }
        }
        self.store(key, stamp, make())
    }

    fn store(
        &self,
        key: PathBuf,
        stamp: Option<Stamp>,
        compiled: std::result::Result<Compiled, String>,
    ) -> std::result::Result<Arc<Compiled>, String> {
        let compiled = compiled.map(Arc::new);
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= MAX_CACHED {
            cache.clear();
        }
        cache.insert(
            key,
            Entry {
                stamp,
                compiled: compiled.clone(),
            },
        );
        compiled
    }
}

#[cfg(test)]
mod tests;
