//! Workspaces: every path confined to a root directory, protected paths refused, and
//! session workspaces looked up by identifier.
//!
//! The guarantees, platform by platform, are documented on [`Workspace`].

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::fsopen::SpecialFiles;
use crate::protect::Protect;
use crate::walk::{self, Fail, Walked};

mod asked;
mod builder;
mod open;
mod registry;
mod rules;

use asked::{check_bytes, ends_in_slash, has_prefix, loop_error, map_io};
pub use builder::{OpenStrategy, WorkspaceBuilder};

use open::{is_race, open_regular, stat_kind, Kind, Opening};
pub use registry::WorkspaceRegistry;
use rules::{Pass, Rules};
pub use rules::{RuleFile, RuleSyntax};

/// The longest path accepted, in bytes (Linux's `PATH_MAX`).
const MAX_PATH_BYTES: usize = 4096;

/// How many times a resolution starts over when it meets a concurrent change.
const RACE_RETRIES: u32 = 3;

/// A file opened inside a [`Workspace`], with where it was found.
#[derive(Debug)]
#[non_exhaustive]
pub struct Opened {
    /// The open handle (read-only, non-blocking, close-on-exec).
    pub file: File,
    /// The absolute path of the file inside the root, links resolved.
    pub resolved_path: PathBuf,
    /// The same path relative to the root.
    pub relative_path: PathBuf,
    /// The file as looked at on its `O_PATH` handle (the same inode), when it was: the
    /// source's state at open, so that it is not asked again.
    pub(crate) looked: Option<std::fs::Metadata>,
}

/// A root directory to which every path is confined, with protected paths.
///
/// Cheap to clone (the clones share one root handle) and safe to share between threads.
/// Read through it with [`crate::Reader::read_in`] and [`crate::Reader::open_in`].
///
/// Protected patterns are matched against the path as asked (normalized) *and* the
/// resolved path, so neither `./secrets/../secrets/key.pem` nor a link `alias ->
/// secrets/key.pem` reaches a file under `secrets/`.
///
/// # How a path is resolved
///
/// A relative path resolves against the root; an absolute path must lie under the root
/// (as canonicalized, or as it was spelled when the workspace was created). What remains
/// is walked one component at a time from a handle on the root directory, under the
/// rules of Linux `openat2(RESOLVE_BENEATH)`: `..` may not climb above the root, not even
/// for a moment; a symbolic link with an absolute target is refused, even one that points
/// inside; a relative link is followed, and so is a chain of them, as long as no step
/// leaves the root; more than 40 links are a loop.
///
/// The work is bounded: each component costs one or two system calls at any depth (the
/// walk holds handles on the 16 deepest directories and opens `..` of the one it leaves
/// when it climbs past them, checking that it is the directory it came through), and a
/// resolution steps through at most 32,768 components, those of the path and of every
/// link target it follows ([`Error::InvalidPath`] beyond).
///
/// A directory that is protected is never entered: a path through it (`secrets/x/..`,
/// or `alias/x/..` with a link `alias -> secrets`) is [`Error::Protected`] whether `x`
/// exists or not, so the contents of a protected directory cannot be mapped.
///
/// # Security: race-freedom, by platform
///
/// - **Linux** ([`OpenStrategy::Openat2`], chosen by [`OpenStrategy::Auto`] when the
///   kernel has it): the walk runs on directory handles (`O_PATH`, `O_NOFOLLOW`), reading
///   links with `readlinkat`, and computes the resolved path inside the root. The file is
///   then opened by the kernel in one call, `openat2(root, resolved,
///   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)` with `O_PATH`: the
///   handle is the file that lies at the resolved path at that moment, reached without a
///   single link and without leaving the root, and opening it had no effect on the file.
///   Its type is read on that handle, and only a regular file is then opened for reading
///   (`O_NONBLOCK | O_NOCTTY | O_CLOEXEC`), through the handle itself, so a FIFO or a
///   device renamed over the name meanwhile is never opened for reading. (A resolved
///   path over 4096 bytes is opened beside its directory's handle instead.) If a
///   directory on the way was swapped for a link since the walk, the kernel refuses and
///   the whole resolution starts over (three times, then [`Error::Changed`]). The
///   protected patterns are checked on that same resolved path before anything is
///   opened.
/// - **Linux without `openat2`** (kernels before 5.6, or seccomp sandboxes that answer
///   `ENOSYS` or `EPERM`), and **other Unix systems** ([`OpenStrategy::Walk`]): the same
///   walk, and the file is opened on the handle of its directory: on Linux with
///   `openat(parent, name, O_PATH | O_NOFOLLOW)`, then for reading through that handle
///   if it is a regular file, as above; elsewhere with `openat(parent, name, O_NOFOLLOW
///   | O_NONBLOCK | ...)` after its type was read by name (a FIFO renamed over the name
///   in between is opened without blocking, and refused unread). Every step is relative to a handle the walk holds and
///   follows no link in the kernel, so a link swapped in at any point is seen (and
///   refused, or resolved under the rules) instead of followed; `..` is answered from the
///   walk's own stack (past its 16 held handles, by the kernel's `..` of the child's
///   handle, accepted only if it is the directory the walk came through).
/// - **Windows and other platforms**: the same rules are applied to paths with
///   `symlink_metadata` and `read_link`, then the file is opened by path. This checks,
///   then opens: it is *not* race-free, and a link swapped in between can be followed.
///
/// # Security: what a workspace does not protect against
///
/// - **Hard links.** A hard link is the same file under another name, indistinguishable
///   by path: a hard link `notes.txt` to `secrets/key.pem` is not a protected path, and
///   one to a file outside the root is inside. Hard links can only be made on the same
///   file system; keep secrets outside the workspace's file system when untrusted parties
///   can create files in it.
/// - **Renames inside the workspace.** Protected patterns name paths, not files: whoever
///   can rename files inside the root can move a protected file to an unprotected name.
/// - **Mount points.** A file system mounted inside the root (a bind mount of `/`) is
///   inside the root.
/// - **Files changed by other processes** while being read: see [`Error::Changed`].
///
/// # Example
///
/// ```
/// use rangeread::{Error, LineSelection, Reader, Workspace};
///
/// let ws = Workspace::builder("tests").protect("*.pem").build()?;
/// let reader = Reader::new();
/// let result = reader.read_in(&ws, "data/sample.txt", LineSelection::head(2))?;
/// assert_eq!(result.path, "data/sample.txt");
/// assert!(result.resolved_path.ends_with("sample.txt"));
///
/// let err = reader.read_in(&ws, "../Cargo.toml", LineSelection::head(2)).unwrap_err();
/// assert_eq!(err.to_string(), r#"Path "../Cargo.toml" is outside the workspace"#);
/// let err = reader.read_in(&ws, "data/server.pem", LineSelection::head(2)).unwrap_err();
/// assert!(matches!(err, Error::Protected { .. }));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Clone)]
pub struct Workspace {
    root: Root,
    /// The project's rule files ([`WorkspaceBuilder::rule_file`]).
    rules: Option<Arc<Rules>>,
}

/// What a workspace confines reads to.
#[derive(Clone)]
enum Root {
    /// A directory on a local file system.
    Local(Arc<Inner>),
    /// A prefix of an object store.
    #[cfg(feature = "object-store")]
    Object(Arc<crate::object::ObjectRoot>),
}

struct Inner {
    root: PathBuf,
    alias: Option<PathBuf>,
    patterns: Vec<String>,
    protect: Protect,
    #[cfg(unix)]
    root_dir: walk::fd::FdDir,
    #[cfg(not(unix))]
    root_dir: walk::path::PathDir,
    openat2: bool,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.root {
            Root::Local(inner) => f
                .debug_struct("Workspace")
                .field("root", &inner.root)
                .field("patterns", &inner.patterns)
                .field("openat2", &inner.openat2)
                .field("rules", &self.rules)
                .finish(),
            #[cfg(feature = "object-store")]
            Root::Object(root) => f.debug_struct("Workspace").field("object", root).finish(),
        }
    }
}

/// What the walk found, before the last step.
struct Located<D> {
    walked: Walked<D>,
    relative: PathBuf,
}

impl Workspace {
    /// A workspace on `root` with no protected paths and the default strategy.
    ///
    /// # Errors
    ///
    /// As [`WorkspaceBuilder::build`].
    ///
    /// # Example
    ///
    /// ```
    /// let ws = rangeread::Workspace::new(".")?;
    /// assert!(ws.root().is_absolute());
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn new(root: impl AsRef<Path>) -> Result<Workspace> {
        Workspace::builder(root).build()
    }

    /// A builder for a workspace on `root`.
    pub fn builder(root: impl AsRef<Path>) -> WorkspaceBuilder {
        WorkspaceBuilder::new(root.as_ref().to_path_buf())
    }

    /// A workspace on a prefix of an object store (feature `object-store`): paths name
    /// objects under the prefix, with the same confinement and protection rules
    /// ([`crate::ObjectRoot::resolve`]). [`crate::Reader::read_in`] and
    /// [`crate::Reader::open_in`] read them, and the tools of [`crate::tool`] serve them;
    /// [`Workspace::open`] (a local file handle) refuses.
    #[cfg(feature = "object-store")]
    #[cfg_attr(docsrs, doc(cfg(feature = "object-store")))]
    pub fn object(root: crate::object::ObjectRoot) -> Workspace {
        Workspace {
            root: Root::Object(Arc::new(root)),
            rules: None,
        }
    }

    /// The object-store prefix of a workspace made by [`Workspace::object`].
    #[cfg(feature = "object-store")]
    #[cfg_attr(docsrs, doc(cfg(feature = "object-store")))]
    pub fn object_root(&self) -> Option<&crate::object::ObjectRoot> {
        match &self.root {
            Root::Object(root) => Some(root),
            Root::Local(_) => None,
        }
    }

    /// The local root; every private walking method is reached only through a public
    /// method that has matched a local root first.
    fn inner(&self) -> &Inner {
        match &self.root {
            Root::Local(inner) => inner,
            #[cfg(feature = "object-store")]
            Root::Object(_) => unreachable!("object workspaces never walk a directory"),
        }
    }

    /// The root, canonicalized (an object-store prefix: its URL).
    pub fn root(&self) -> &Path {
        match &self.root {
            Root::Local(inner) => &inner.root,
            #[cfg(feature = "object-store")]
            Root::Object(root) => Path::new(root.url()),
        }
    }

    /// The root as the caller spelled it, made absolute, when that differs from
    /// [`Workspace::root`] (a root given through a link, such as macOS's `/tmp`): an
    /// absolute path under either spelling is under the root. `None` for a root spelled
    /// with `..` and for object-store prefixes.
    ///
    /// ```
    /// # #[cfg(unix)] {
    /// let dir = tempfile::tempdir()?;
    /// let base = dir.path().canonicalize()?;
    /// std::fs::create_dir(base.join("real"))?;
    /// std::os::unix::fs::symlink(base.join("real"), base.join("link"))?;
    /// let ws = rangeread::Workspace::new(base.join("link"))?;
    /// assert_eq!(ws.root(), base.join("real"));
    /// assert_eq!(ws.root_alias(), Some(base.join("link").as_path()));
    /// assert_eq!(rangeread::Workspace::new(base.join("real"))?.root_alias(), None);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn root_alias(&self) -> Option<&Path> {
        match &self.root {
            Root::Local(inner) => inner.alias.as_deref(),
            #[cfg(feature = "object-store")]
            Root::Object(_) => None,
        }
    }

    /// The protected patterns, as given.
    pub fn patterns(&self) -> &[String] {
        match &self.root {
            Root::Local(inner) => &inner.patterns,
            #[cfg(feature = "object-store")]
            Root::Object(root) => root.patterns(),
        }
    }

    /// The project's rule files ([`WorkspaceBuilder::rule_file`]), as given.
    pub fn rule_files(&self) -> &[RuleFile] {
        self.rules.as_deref().map_or(&[], Rules::files)
    }

    /// This workspace with more rule files (after its own), as
    /// [`WorkspaceBuilder::rule_file`] adds them: the same root and handle, the same
    /// protected patterns. A dialect's tool adds its agent's rule files this way
    /// ([`crate::tool::DialectTool::workspace`]). An object-store workspace has no rule
    /// files and is returned as it is.
    pub fn with_rule_files<I: IntoIterator<Item = RuleFile>>(&self, files: I) -> Workspace {
        #[cfg(feature = "object-store")]
        if let Root::Object(_) = &self.root {
            return self.clone();
        }
        let inner = self.inner();
        let mut all = self.rule_files().to_vec();
        let before = all.len();
        all.extend(files);
        if all.len() == before {
            return self.clone();
        }
        Workspace {
            root: self.root.clone(),
            rules: Some(Arc::new(Rules::new(&inner.root, all))),
        }
    }

    /// Whether files are opened through `openat2` ([`OpenStrategy::Openat2`], or
    /// [`OpenStrategy::Auto`] on a kernel that has it).
    pub fn uses_openat2(&self) -> bool {
        match &self.root {
            Root::Local(inner) => inner.openat2,
            #[cfg(feature = "object-store")]
            Root::Object(_) => false,
        }
    }

    /// Whether a path relative to the root is protected, by its spelling alone (no file
    /// system access, no link resolution): the check a host can make on a directory
    /// listing. A path that passes through a protected directory (`secrets/x/..`) is
    /// protected, as [`Workspace::open`] refuses it. Paths that climb above the root are
    /// not protected (they are outside).
    pub fn is_protected(&self, relative: impl AsRef<Path>) -> bool {
        #[cfg(feature = "object-store")]
        if let Root::Object(root) = &self.root {
            return matches!(root.resolve(relative), Err(Error::Protected { .. }));
        }
        self.check_spelling(relative).is_err()
    }

    /// The refusal [`Workspace::is_protected`] decides, as the error a read of the
    /// path gets: [`Error::Protected`] for a protected pattern, [`Error::Denied`] naming
    /// the rule and its file for a project rule, [`Error::RuleFile`] for a rule file
    /// that cannot be used. By its spelling alone, as [`Workspace::is_protected`]; a
    /// path spelled with a trailing `/` is taken for a directory.
    ///
    /// # Errors
    ///
    /// The refusal, with the path as given.
    ///
    /// ```
    /// use rangeread::{Error, RuleFile, Workspace};
    ///
    /// let dir = tempfile::tempdir()?;
    /// std::fs::write(dir.path().join(".cursorignore"), "*.key\n")?;
    /// let ws = Workspace::builder(dir.path())
    ///     .protect("secrets/")
    ///     .rule_file(RuleFile::gitignore(".cursorignore"))
    ///     .build()?;
    /// assert!(matches!(ws.check_spelling("secrets/a"), Err(Error::Protected { .. })));
    /// assert!(matches!(ws.check_spelling("deploy/x.key"), Err(Error::Denied { .. })));
    /// assert!(ws.check_spelling("src/main.rs").is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_spelling(&self, relative: impl AsRef<Path>) -> Result<()> {
        let relative = relative.as_ref();
        #[cfg(feature = "object-store")]
        if let Root::Object(root) = &self.root {
            return match root.resolve(relative) {
                Err(e @ Error::Protected { .. }) => Err(e),
                _ => Ok(()),
            };
        }
        let mut pending = VecDeque::new();
        for c in relative.components() {
            match c {
                Component::Normal(n) => pending.push_back(n.to_os_string()),
                Component::ParentDir => pending.push_back(OsString::from("..")),
                Component::CurDir => {}
                Component::RootDir | Component::Prefix(_) => return Ok(()),
            }
        }
        if self.spelled_protected(&pending) {
            return Err(Error::Protected {
                path: relative.to_path_buf(),
            });
        }
        self.spelled_rules(&mut Pass::default(), &pending, ends_in_slash(relative))
            .map_err(|hit| hit.error(relative))
    }

    /// Resolves `path` and opens it for reading: confined to the root, not protected,
    /// without blocking (a FIFO, socket or device is refused by its type and never opened
    /// for reading, even if renamed over the name while it is being opened).
    /// The caller checks the handle's type again when it wraps it
    /// ([`crate::Source::from_file`] does); [`crate::Reader::read_in`] does all of this.
    ///
    /// # Errors
    ///
    /// - [`Error::OutsideWorkspace`]: an absolute path outside the root, `..` above the
    ///   root, a link whose target is absolute or climbs above the root;
    /// - [`Error::Protected`]: the path as asked or as resolved matches a protected
    ///   pattern;
    /// - [`Error::InvalidPath`]: a NUL byte, a path over 4096 bytes or a name too long
    ///   for the file system, a link loop (more than 40 links), more than 32,768
    ///   components to resolve (links included);
    /// - [`Error::NotFound`] (also when a component that should be a directory is
    ///   not), [`Error::PermissionDenied`], [`Error::IsDirectory`],
    ///   [`Error::NotRegularFile`];
    /// - [`Error::Changed`]: the path kept changing under the resolution (three tries);
    /// - [`Error::Io`] for anything else.
    ///
    /// # Example
    ///
    /// ```
    /// let ws = rangeread::Workspace::new("tests")?;
    /// let opened = ws.open("./data/../data/sample.txt")?;
    /// assert_eq!(opened.relative_path, std::path::Path::new("data/sample.txt"));
    /// assert!(opened.resolved_path.starts_with(ws.root()));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn open(&self, path: impl AsRef<Path>) -> Result<Opened> {
        self.open_with(path.as_ref(), SpecialFiles::NeverOpened)
    }

    /// [`Workspace::open`], with what may happen to a last name that is not a regular
    /// file ([`crate::Reader::special_files`]: `NeverRead` opens it once, without
    /// blocking, before refusing it by its type).
    pub(crate) fn open_with(&self, asked: &Path, special: SpecialFiles) -> Result<Opened> {
        #[cfg(feature = "object-store")]
        if let Root::Object(root) = &self.root {
            root.resolve(asked)?;
            return Err(Error::io(
                asked,
                std::io::Error::new(
                    std::io::ErrorKind::Unsupported,
                    "an object-store workspace has no local file handles: read it through \
                     Reader::read_in or Reader::open_in",
                ),
            ));
        }
        // Each rule file is looked at once for the whole resolution.
        let pass = &mut Pass::default();
        let pending = self.prepare(pass, asked)?;
        for _ in 0..RACE_RETRIES {
            let located = self.locate(pass, asked, pending.clone())?;
            let Some(located) = located else { continue };
            match self.open_located(pass, asked, &located, special)? {
                Some((file, looked)) => {
                    return Ok(Opened {
                        file,
                        looked,
                        resolved_path: self.absolute(&located.relative),
                        relative_path: located.relative,
                    })
                }
                None => continue,
            }
        }
        Err(Error::Changed {
            path: asked.to_path_buf(),
        })
    }

    /// Resolves `path` under the same rules as [`Workspace::open`] and returns its
    /// absolute path inside the root, without opening it; directories resolve too.
    ///
    /// The answer is true when it is given: a path is not a handle, and opening the
    /// returned path later is not race-free. Read through [`Workspace::open`] or
    /// [`crate::Reader::read_in`].
    ///
    /// # Errors
    ///
    /// As [`Workspace::open`], except [`Error::IsDirectory`] and
    /// [`Error::NotRegularFile`].
    pub fn resolve(&self, path: impl AsRef<Path>) -> Result<PathBuf> {
        let asked = path.as_ref();
        #[cfg(feature = "object-store")]
        if let Root::Object(root) = &self.root {
            let (_, rel) = root.resolve(asked)?;
            return Ok(PathBuf::from(format!("{}/{rel}", root.url())));
        }
        let pass = &mut Pass::default();
        let pending = self.prepare(pass, asked)?;
        for _ in 0..RACE_RETRIES {
            if let Some(located) = self.locate(pass, asked, pending.clone())? {
                let Some(name) = &located.walked.last else {
                    return Ok(self.absolute(&located.relative));
                };
                let parent = located.walked.parent(&self.inner().root_dir);
                match stat_kind(parent, name) {
                    Ok(Kind::Link) => continue,
                    Ok(Kind::Dir) => {
                        self.check_dir(pass, asked, &located.relative)?;
                        return Ok(self.absolute(&located.relative));
                    }
                    Ok(_) => {
                        self.check_last(pass, asked, &located.relative)?;
                        return Ok(self.absolute(&located.relative));
                    }
                    Err(e) => return Err(map_io(asked, e)),
                }
            }
        }
        Err(Error::Changed {
            path: asked.to_path_buf(),
        })
    }

    fn absolute(&self, relative: &Path) -> PathBuf {
        if relative.as_os_str().is_empty() {
            self.inner().root.clone()
        } else {
            self.inner().root.join(relative)
        }
    }

    /// Checks the path as asked and turns it into relative components to walk.
    fn prepare(&self, pass: &mut Pass, asked: &Path) -> Result<VecDeque<OsString>> {
        check_bytes(asked)?;
        if asked.as_os_str().is_empty() {
            return Err(Error::NotFound {
                path: asked.to_path_buf(),
            });
        }
        let outside = || Error::OutsideWorkspace {
            path: asked.to_path_buf(),
        };
        let rest = if asked.has_root() || has_prefix(asked) {
            let inner = self.inner();
            asked
                .strip_prefix(&inner.root)
                .ok()
                .or_else(|| {
                    inner
                        .alias
                        .as_deref()
                        .and_then(|a| asked.strip_prefix(a).ok())
                })
                .ok_or_else(outside)?
        } else {
            asked
        };
        let mut pending = VecDeque::new();
        for c in rest.components() {
            match c {
                Component::Normal(n) => pending.push_back(n.to_os_string()),
                Component::ParentDir => pending.push_back(OsString::from("..")),
                Component::CurDir => {}
                Component::RootDir | Component::Prefix(_) => return Err(outside()),
            }
        }
        // The spelling is checked before the file system is touched, so a protected
        // path, and any path through a protected directory (`secrets/x/..`), gets the
        // same answer whether it exists or not.
        if self.spelled_protected(&pending) {
            return Err(Error::Protected {
                path: asked.to_path_buf(),
            });
        }
        self.spelled_rules(pass, &pending, ends_in_slash(asked))
            .map_err(|hit| hit.error(asked))?;
        Ok(pending)
    }

    /// The project's rules on the spelling ([`Rules::check_spelled`]).
    fn spelled_rules(
        &self,
        pass: &mut Pass,
        pending: &VecDeque<OsString>,
        dir: bool,
    ) -> std::result::Result<(), rules::Hit> {
        match &self.rules {
            Some(rules) => rules.check_spelled(pass, pending, dir),
            None => Ok(()),
        }
    }

    /// Whether the components, read by their spelling (`..` folded), pass through a
    /// protected directory or end on a protected path. A spelling that climbs above the
    /// root is left to the walk (it is outside).
    fn spelled_protected(&self, pending: &VecDeque<OsString>) -> bool {
        let protect = &self.inner().protect;
        let mut key = PathBuf::new();
        let mut depth = 0usize;
        for (i, c) in pending.iter().enumerate() {
            if c == ".." {
                if depth == 0 {
                    return false;
                }
                key.pop();
                depth -= 1;
                continue;
            }
            key.push(protect.key(c));
            depth += 1;
            let through = i + 1 < pending.len();
            if protect.matches_key(&key, depth, through) {
                return true;
            }
        }
        false
    }

    /// Walks the components and checks the resolved path; `None` means a race: retry.
    fn locate(
        &self,
        pass: &mut Pass,
        asked: &Path,
        pending: VecDeque<OsString>,
    ) -> Result<Option<Located<RootDir>>> {
        let walked = match walk::walk(
            &self.inner().root_dir,
            pending,
            &DirGuard(&self.inner().protect),
        ) {
            Ok(w) => w,
            Err(Fail::Race) => return Ok(None),
            Err(Fail::Protected) => {
                return Err(Error::Protected {
                    path: asked.to_path_buf(),
                })
            }
            Err(Fail::TooLong) => {
                return Err(Error::InvalidPath {
                    path: asked.to_path_buf(),
                    reason: "more than 32768 components to resolve (links included)",
                })
            }
            Err(Fail::Outside) => {
                return Err(Error::OutsideWorkspace {
                    path: asked.to_path_buf(),
                })
            }
            Err(Fail::Loop) => return Err(loop_error(asked)),
            Err(Fail::Io(e)) => return Err(map_io(asked, e)),
        };
        let relative = walked.relative();
        // The walk checked every directory on the way; the path itself is left.
        if self
            .inner()
            .protect
            .matches_one(&relative, walked.last.is_none())
        {
            return Err(Error::Protected {
                path: asked.to_path_buf(),
            });
        }
        // The rules again on the path as resolved: a link's target is judged by its
        // own name and its directories' too. The last name waits until its type is
        // known (`check_last`): a directory-only negation (`!name/`) may allow it.
        if let Some(rules) = &self.rules {
            let dirs = match walked.last {
                Some(_) => relative.parent().unwrap_or(Path::new("")),
                None => &relative,
            };
            rules
                .check(pass, dirs, true)
                .map_err(|hit| hit.error(asked))?;
        }
        Ok(Some(Located { walked, relative }))
    }

    /// Patterns for directories only (`secrets/`) apply to the last component once it is
    /// known to be a directory.
    fn check_dir(&self, pass: &mut Pass, asked: &Path, relative: &Path) -> Result<()> {
        if self.inner().protect.matches_one(relative, true) {
            return Err(Error::Protected {
                path: asked.to_path_buf(),
            });
        }
        if let Some(rules) = &self.rules {
            rules
                .check_one(pass, relative, true)
                .map_err(|hit| hit.error(asked))?;
        }
        Ok(())
    }

    /// The project's rules on the last name of a resolved path that is not a
    /// directory (directories: [`Workspace::check_dir`]).
    fn check_last(&self, pass: &mut Pass, asked: &Path, relative: &Path) -> Result<()> {
        if let Some(rules) = &self.rules {
            rules
                .check_one(pass, relative, false)
                .map_err(|hit| hit.error(asked))?;
        }
        Ok(())
    }

    /// Opens the last component; `None` means a race: retry.
    fn open_located(
        &self,
        pass: &mut Pass,
        asked: &Path,
        located: &Located<RootDir>,
        special: SpecialFiles,
    ) -> Result<Option<(File, Option<std::fs::Metadata>)>> {
        let is_dir = || Error::IsDirectory {
            path: asked.to_path_buf(),
        };
        let Some(name) = &located.walked.last else {
            return Err(is_dir());
        };
        let parent = located.walked.parent(&self.inner().root_dir);
        // Only a regular file is opened for reading: opening a device can have effects,
        // a FIFO's writer would see a reader, and a socket cannot be opened at all.
        let opening = match open_regular(self.inner(), parent, name, &located.relative, special) {
            Ok(o) => o,
            Err(e) if is_race(&e) => return Ok(None),
            Err(e) => return Err(map_io(asked, e)),
        };
        match opening {
            Opening::File(f, looked) => {
                self.check_last(pass, asked, &located.relative)?;
                Ok(Some((f, looked)))
            }
            Opening::Race | Opening::Not(Kind::Link | Kind::File) => Ok(None),
            Opening::Not(Kind::Dir) => {
                self.check_dir(pass, asked, &located.relative)?;
                Err(is_dir())
            }
            Opening::Not(Kind::Special(kind)) => {
                self.check_last(pass, asked, &located.relative)?;
                Err(Error::NotRegularFile {
                    path: asked.to_path_buf(),
                    kind,
                })
            }
        }
    }
}

/// The workspace's protected patterns, as the walk asks them about each directory.
struct DirGuard<'a>(&'a Protect);

impl walk::Guard for DirGuard<'_> {
    fn key<'a>(&self, name: &'a std::ffi::OsStr) -> std::borrow::Cow<'a, std::ffi::OsStr> {
        self.0.key(name)
    }

    fn protected(&self, key: &Path, depth: usize) -> bool {
        self.0.matches_key(key, depth, true)
    }
}

#[cfg(unix)]
type RootDir = walk::fd::FdDir;
#[cfg(not(unix))]
type RootDir = walk::path::PathDir;
