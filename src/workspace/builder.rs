//! Building a [`Workspace`]: the root, the protected patterns, and how paths are opened.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use super::open::openat2_available;
use super::rules::{RuleFile, Rules};
use super::{check_bytes, Inner, Root, Workspace};
use crate::error::{Error, Result};
use crate::protect::{Protect, RootPaths};
use crate::walk;

/// How a [`Workspace`] resolves and opens paths. The default, [`OpenStrategy::Auto`], is
/// right for every host; the others exist for tests and for hosts that want to pin one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpenStrategy {
    /// `openat2` where the kernel has it (probed when the workspace is built), else the
    /// component walk; on platforms without `*at` calls, the path walk.
    #[default]
    Auto,
    /// The component walk, then `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` on the
    /// resolved path. Linux only: building a workspace with it fails elsewhere, or where
    /// the kernel or a sandbox refuses `openat2`.
    Openat2,
    /// The component walk, and `openat(O_NOFOLLOW)` of the last component on its
    /// directory's handle: the fallback for Unix systems without `openat2`.
    Walk,
}

#[derive(Debug, Clone)]
struct Config {
    patterns: Vec<String>,
    rules: Vec<RuleFile>,
    strategy: OpenStrategy,
    case_insensitive: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            patterns: Vec::new(),
            rules: Vec::new(),
            strategy: OpenStrategy::Auto,
            case_insensitive: cfg!(any(windows, target_os = "macos", target_os = "ios")),
        }
    }
}

/// Builds a [`Workspace`]: a root, protected patterns, and how paths are opened.
///
/// # Example
///
/// ```
/// use rangeread::Workspace;
///
/// let ws = Workspace::builder("tests/data")
///     .protect("*.pem")
///     .protect(".env*")
///     .protect("!.env.example")
///     .build()?;
/// assert!(ws.is_protected("keys/server.pem"));
/// assert!(!ws.is_protected(".env.example"));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct WorkspaceBuilder {
    root: PathBuf,
    config: Config,
}

impl WorkspaceBuilder {
    pub(super) fn new(root: PathBuf) -> WorkspaceBuilder {
        WorkspaceBuilder {
            root,
            config: Config::default(),
        }
    }

    /// By default, nothing is protected. Adds one gitignore-style pattern, matched
    /// against paths relative to the root: `*.pem` and `.env` (no slash) at any depth,
    /// `/config/local.toml` or `secrets/*.key` (a slash) from the root, `secrets/` (a
    /// trailing slash) directories only, `**` across directories, `!pattern` to re-allow
    /// what an earlier pattern protected (the last matching pattern decides). A protected
    /// directory protects everything beneath it, and what lies beneath a protected
    /// directory cannot be re-allowed, as in git. There are no comments: `#` is literal.
    ///
    /// Patterns are paths inside the root: `./secrets/` is `/secrets/`, and an absolute
    /// path under the root (`/home/me/project/secrets/`) is taken relative to it. A
    /// pattern that could never match is refused by [`WorkspaceBuilder::build`]: one with
    /// a `..` component, the root itself, or an absolute path outside the root (told from
    /// a root-anchored pattern such as `/config/local.toml` by its first name, which
    /// exists at the host's `/` and not under the root).
    pub fn protect(mut self, pattern: impl Into<String>) -> WorkspaceBuilder {
        self.config.patterns.push(pattern.into());
        self
    }

    /// Adds several patterns, as [`WorkspaceBuilder::protect`] does.
    pub fn protect_all<I, S>(mut self, patterns: I) -> WorkspaceBuilder
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.config
            .patterns
            .extend(patterns.into_iter().map(Into::into));
        self
    }

    /// By default, no project rule files are read. Adds one: a file in the root (or,
    /// [`RuleFile::nested`], in every directory) whose rules refuse paths as the
    /// protected patterns do, with [`Error::Denied`] naming the rule and its file. The
    /// file is read when the workspace is built and read again whenever it changes; a
    /// file that cannot be used refuses what it could cover ([`Error::RuleFile`]).
    ///
    /// ```
    /// use rangeread::{RuleFile, Workspace};
    ///
    /// let dir = tempfile::tempdir()?;
    /// std::fs::create_dir(dir.path().join(".zed"))?;
    /// std::fs::write(
    ///     dir.path().join(".zed/settings.json"),
    ///     r#"{ "private_files": ["**/*.privatekey"], // the project's own
    ///     }"#,
    /// )?;
    /// let ws = Workspace::builder(dir.path())
    ///     .rule_file(RuleFile::zed_settings(".zed/settings.json"))
    ///     .build()?;
    /// assert!(ws.is_protected("sub/special.privatekey"));
    /// assert!(ws.is_protected(".git/config")); // Zed's default file_scan_exclusions
    /// assert!(!ws.is_protected("sub/normal.txt"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rule_file(mut self, file: RuleFile) -> WorkspaceBuilder {
        self.config.rules.push(file);
        self
    }

    /// Adds several rule files, as [`WorkspaceBuilder::rule_file`] does.
    pub fn rule_files<I: IntoIterator<Item = RuleFile>>(mut self, files: I) -> WorkspaceBuilder {
        self.config.rules.extend(files);
        self
    }

    /// By default, patterns ignore case on Windows and macOS (whose usual file systems
    /// do: `SECRETS/KEY.PEM` opens `secrets/key.pem` there) and respect it elsewhere.
    /// Set `true` when the root lies on a case-insensitive file system elsewhere (such
    /// as a case-folded ext4 directory, or a macOS volume shared over the network), or
    /// paths could slip past a pattern by case.
    ///
    /// Case-insensitive matching folds Unicode case fully (`ſecrets`, `SECRETS` and
    /// `secrets` are one name; `ß` is `ss`) and normalizes composed and decomposed
    /// spellings (NFC and NFD: `café` typed either way), on both the patterns and the
    /// paths. Names that are not UTF-8 have their ASCII letters folded only.
    ///
    /// # Example
    ///
    /// ```
    /// let ws = rangeread::Workspace::builder("tests/data")
    ///     .protect("secrets/")
    ///     .protect("café.txt")
    ///     .case_insensitive(true)
    ///     .build()?;
    /// assert!(ws.is_protected("\u{17f}ecrets/key.pem")); // long s
    /// assert!(ws.is_protected("SECRETS/key.pem"));
    /// assert!(ws.is_protected("CAFE\u{301}.TXT")); // decomposed é
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn case_insensitive(mut self, yes: bool) -> WorkspaceBuilder {
        self.config.case_insensitive = yes;
        self
    }

    /// By default, [`OpenStrategy::Auto`].
    pub fn strategy(mut self, strategy: OpenStrategy) -> WorkspaceBuilder {
        self.config.strategy = strategy;
        self
    }

    /// Canonicalizes the root, opens a handle on it, and compiles the patterns.
    ///
    /// The handle is kept: if the root directory is later moved or replaced by a link,
    /// the workspace goes on confining paths to the directory it was built on.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] or [`Error::PermissionDenied`] for the root,
    /// [`Error::InvalidPath`] when the root is not a directory, [`Error::InvalidPattern`]
    /// for a pattern that is not a valid glob or can never match (see
    /// [`WorkspaceBuilder::protect`]), and [`Error::Io`] when
    /// [`OpenStrategy::Openat2`] was asked for where `openat2` is unavailable.
    pub fn build(self) -> Result<Workspace> {
        let given = self.root;
        if given.as_os_str().is_empty() {
            return Err(Error::NotFound { path: given });
        }
        check_bytes(&given)?;
        let root = std::fs::canonicalize(&given).map_err(|e| Error::io(&given, e))?;
        if !std::fs::metadata(&root)
            .map_err(|e| Error::io(&given, e))?
            .is_dir()
        {
            return Err(Error::InvalidPath {
                path: given,
                reason: "the workspace root is not a directory",
            });
        }
        let alias = absolute_alias(&given).filter(|a| *a != root);
        let at = RootPaths {
            root: &root,
            alias: alias.as_deref(),
        };
        let protect = Protect::new(&self.config.patterns, self.config.case_insensitive, &at)?;
        #[cfg(unix)]
        let root_dir = walk::fd::FdDir::open_root(&root).map_err(|e| Error::io(&given, e))?;
        #[cfg(not(unix))]
        let root_dir = walk::path::PathDir(root.clone());
        let openat2 = match self.config.strategy {
            OpenStrategy::Walk => false,
            OpenStrategy::Auto => openat2_available(&root_dir),
            OpenStrategy::Openat2 => {
                if !openat2_available(&root_dir) {
                    return Err(Error::Io {
                        path: given,
                        source: std::io::Error::new(
                            std::io::ErrorKind::Unsupported,
                            "openat2 is not available on this system",
                        ),
                    });
                }
                true
            }
        };
        let rules =
            (!self.config.rules.is_empty()).then(|| Arc::new(Rules::new(&root, self.config.rules)));
        Ok(Workspace {
            rules,
            root: Root::Local(Arc::new(Inner {
                root,
                alias,
                patterns: self.config.patterns,
                protect,
                root_dir,
                openat2,
            })),
        })
    }
}

/// The root as the caller spelled it, made absolute, when that spelling has no `..`
/// (an absolute path under it is accepted as under the root).
fn absolute_alias(given: &Path) -> Option<PathBuf> {
    if given
        .components()
        .any(|c| matches!(c, Component::ParentDir))
    {
        return None;
    }
    let abs = if given.is_absolute() {
        given.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(given)
    };
    Some(abs.components().collect())
}
