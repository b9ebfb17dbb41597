//! Resolution beneath a root: the component walk every workspace strategy shares.
//!
//! The walk holds one directory handle per resolved component and asks the operating
//! system about one name at a time, relative to the handle of its directory, never
//! following a symbolic link in the kernel. Symbolic links are read and expanded here,
//! under the rules of Linux `openat2(RESOLVE_BENEATH)`:
//!
//! - an absolute link target is refused (its meaning depends on where the root is);
//! - `..` pops the walk's own stack of handles and is never handed to the kernel, so it
//!   cannot climb above the root, not even for a moment (a chain that leaves the root and
//!   comes back is refused), and a directory moved elsewhere during the walk cannot lead
//!   the walk to its new parent;
//! - at most [`MAX_HOPS`] links are followed in one resolution (loops end there).
//!
//! Only the deepest [`HELD`] directories keep their handles, so that a deep path (or one
//! made deep by links) cannot exhaust the process's file descriptors. A `..` that pops
//! past them opens the chain again from the root, by name and with `O_NOFOLLOW`: a name
//! that became a link in between is seen as a race.
//!
//! What the walk produces is the resolved path inside the root, component by component,
//! and the handle of the directory holding the last component. Opening that last
//! component is the caller's step (see `workspace.rs`).

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};

/// Symbolic links followed in one resolution before it is called a loop (Linux's
/// `MAXSYMLINKS`).
pub(crate) const MAX_HOPS: u32 = 40;

/// Directory handles held at once by one walk.
const HELD: usize = 16;

/// A directory the walk can look into.
pub(crate) trait Dir: Sized {
    /// The target of `name` when it is a symbolic link, `None` when it is anything else.
    fn read_link(&self, name: &OsStr) -> io::Result<Option<OsString>>;
    /// Opens the directory `name` without following a symbolic link.
    fn open_dir(&self, name: &OsStr) -> io::Result<Self>;
}

/// Why a walk stopped.
#[derive(Debug)]
pub(crate) enum Fail {
    /// A `..` above the root or an absolute link target.
    Outside,
    /// More than [`MAX_HOPS`] symbolic links.
    Loop,
    /// A name changed between two looks at it (a directory swapped for a link):
    /// the caller starts over.
    Race,
    /// The operating system refused a step.
    Io(io::Error),
}

/// The outcome of a walk: the resolved directories, and the last component, if any.
pub(crate) struct Walked<D> {
    /// Each resolved directory below the root, by name, with its handle for the last
    /// [`HELD`] of them (the handles form a suffix: the last entry always has one).
    dirs: Vec<(OsString, Option<D>)>,
    /// The last component, not yet looked into (it is not a symbolic link as of the
    /// walk); `None` when the path resolved to a directory of `dirs` (or the root).
    pub(crate) last: Option<OsString>,
}

impl<D> Walked<D> {
    /// The resolved path relative to the root, without `.`, `..` or links.
    pub(crate) fn relative(&self) -> PathBuf {
        let mut p: PathBuf = self.dirs.iter().map(|(n, _)| n.as_os_str()).collect();
        if let Some(last) = &self.last {
            p.push(last);
        }
        p
    }

    /// The directory holding the last component.
    pub(crate) fn parent<'a>(&'a self, root: &'a D) -> &'a D {
        current(root, &self.dirs)
    }
}

/// The handle of the deepest directory, or the root.
fn current<'a, D>(root: &'a D, dirs: &'a [(OsString, Option<D>)]) -> &'a D {
    debug_assert!(dirs.last().is_none_or(|(_, d)| d.is_some()));
    dirs.last().and_then(|(_, d)| d.as_ref()).unwrap_or(root)
}

/// Opens `name` in `cur` as a directory; a name that turned into a link since it was
/// read is a race.
fn open_dir<D: Dir>(cur: &D, name: &OsStr) -> Result<D, Fail> {
    cur.open_dir(name).map_err(|e| {
        if matches!(cur.read_link(name), Ok(Some(_))) {
            Fail::Race
        } else {
            Fail::Io(e)
        }
    })
}

/// Pushes a directory, closing the handle that leaves the window of [`HELD`].
fn push<D>(dirs: &mut Vec<(OsString, Option<D>)>, name: OsString, dir: D) {
    dirs.push((name, Some(dir)));
    if dirs.len() > HELD {
        let i = dirs.len() - HELD - 1;
        dirs[i].1 = None;
    }
}

/// Opens the handles of the last [`HELD`] directories again, walking from the root by
/// name (no handle is held for the deepest one after a `..` popped past the window).
fn refill<D: Dir>(root: &D, dirs: &mut [(OsString, Option<D>)]) -> Result<(), Fail> {
    let keep_from = dirs.len().saturating_sub(HELD);
    // The handle of `dirs[i - 1]` while below the window; inside it, the slot holds it.
    let mut below: Option<D> = None;
    for i in 0..dirs.len() {
        let parent = if i > keep_from {
            dirs[i - 1].1.as_ref()
        } else {
            below.as_ref()
        };
        let dir = open_dir(parent.unwrap_or(root), &dirs[i].0)?;
        if i >= keep_from {
            dirs[i].1 = Some(dir);
        } else {
            below = Some(dir);
        }
    }
    Ok(())
}

/// Resolves `pending` (relative components: names, `.` and `..`) beneath `root`.
pub(crate) fn walk<D: Dir>(root: &D, mut pending: VecDeque<OsString>) -> Result<Walked<D>, Fail> {
    let mut dirs: Vec<(OsString, Option<D>)> = Vec::new();
    let mut hops = 0;
    while let Some(name) = pending.pop_front() {
        if name.is_empty() || name == "." {
            continue;
        }
        if name == ".." {
            if dirs.pop().is_none() {
                return Err(Fail::Outside);
            }
            if matches!(dirs.last(), Some((_, None))) {
                refill(root, &mut dirs)?;
            }
            continue;
        }
        let cur = current(root, &dirs);
        if let Some(target) = cur.read_link(&name).map_err(Fail::Io)? {
            hops += 1;
            if hops > MAX_HOPS {
                return Err(Fail::Loop);
            }
            // The target is relative to the directory holding the link: `cur`, which
            // stays the current directory.
            for c in link_components(&target)?.into_iter().rev() {
                pending.push_front(c);
            }
            continue;
        }
        if pending.is_empty() {
            return Ok(Walked {
                dirs,
                last: Some(name),
            });
        }
        // Not a link a moment ago, a link now: someone swapped it (a race).
        let dir = open_dir(cur, &name)?;
        push(&mut dirs, name, dir);
    }
    Ok(Walked { dirs, last: None })
}

/// Splits a link target into components; absolute targets are refused.
fn link_components(target: &OsStr) -> Result<Vec<OsString>, Fail> {
    if target.is_empty() {
        // Linux resolves an empty link target to ENOENT.
        return Err(Fail::Io(io::ErrorKind::NotFound.into()));
    }
    let mut out = Vec::new();
    for c in Path::new(target).components() {
        match c {
            Component::Prefix(_) | Component::RootDir => return Err(Fail::Outside),
            Component::CurDir => {}
            Component::ParentDir => out.push(OsString::from("..")),
            Component::Normal(n) => out.push(n.to_os_string()),
        }
    }
    Ok(out)
}

/// Directories as open handles, looked into with `*at` calls (Unix).
#[cfg(unix)]
pub(crate) mod fd {
    use std::ffi::{OsStr, OsString};
    use std::io;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::ffi::OsStringExt;
    use std::path::Path;

    use rustix::fs::{openat, readlinkat, Mode, OFlags};
    use rustix::io::Errno;

    /// An open directory handle.
    #[derive(Debug)]
    pub(crate) struct FdDir(pub(crate) OwnedFd);

    /// Flags for directories the walk only looks through. On Linux `O_PATH` needs no
    /// read permission (a directory with `--x` can be traversed, as by `open(2)`).
    pub(crate) fn dir_flags() -> OFlags {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let base = OFlags::PATH;
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        let base = OFlags::RDONLY;
        base | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
    }

    impl FdDir {
        /// Opens the workspace root itself (following links: the root was canonicalized).
        pub(crate) fn open_root(path: &Path) -> io::Result<FdDir> {
            let flags = dir_flags() & !OFlags::NOFOLLOW;
            Ok(FdDir(openat(rustix::fs::CWD, path, flags, Mode::empty())?))
        }

        pub(crate) fn fd(&self) -> BorrowedFd<'_> {
            self.0.as_fd()
        }
    }

    impl super::Dir for FdDir {
        fn read_link(&self, name: &OsStr) -> io::Result<Option<OsString>> {
            match readlinkat(self.fd(), name, Vec::new()) {
                Ok(target) => Ok(Some(OsString::from_vec(target.into_bytes()))),
                // EINVAL: the name exists and is not a symbolic link.
                Err(Errno::INVAL) => Ok(None),
                Err(e) => Err(e.into()),
            }
        }

        fn open_dir(&self, name: &OsStr) -> io::Result<FdDir> {
            Ok(FdDir(openat(self.fd(), name, dir_flags(), Mode::empty())?))
        }
    }
}

/// Directories as paths, looked into with `symlink_metadata` (every platform; the
/// strategy of platforms without `*at` calls, and not race-free).
#[cfg(any(not(unix), test))]
pub(crate) mod path {
    use std::ffi::{OsStr, OsString};
    use std::io;
    use std::path::PathBuf;

    /// A directory by its absolute path.
    #[derive(Debug, Clone)]
    pub(crate) struct PathDir(pub(crate) PathBuf);

    impl super::Dir for PathDir {
        fn read_link(&self, name: &OsStr) -> io::Result<Option<OsString>> {
            let p = self.0.join(name);
            if std::fs::symlink_metadata(&p)?.file_type().is_symlink() {
                Ok(Some(std::fs::read_link(&p)?.into_os_string()))
            } else {
                Ok(None)
            }
        }

        fn open_dir(&self, name: &OsStr) -> io::Result<PathDir> {
            let p = self.0.join(name);
            let meta = std::fs::symlink_metadata(&p)?;
            if meta.is_dir() {
                Ok(PathDir(p))
            } else if meta.file_type().is_symlink() {
                Err(io::Error::other("a symbolic link appeared"))
            } else {
                Err(io::Error::new(io::ErrorKind::NotFound, "not a directory"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::path::PathDir;
    use super::*;

    fn comps(p: &str) -> VecDeque<OsString> {
        p.split('/').map(OsString::from).collect()
    }

    #[test]
    fn dotdot_above_root_is_outside_even_when_it_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = PathDir(dir.path().to_path_buf());
        std::fs::write(dir.path().join("f"), "x").unwrap();
        assert!(matches!(walk(&root, comps("../f")), Err(Fail::Outside)));
        let name = dir.path().file_name().unwrap().to_str().unwrap();
        assert!(matches!(
            walk(&root, comps(&format!("../{name}/f"))),
            Err(Fail::Outside)
        ));
        let w = walk(&root, comps("./f")).unwrap();
        assert_eq!(w.relative(), PathBuf::from("f"));
    }

    /// Deeper than the window of held handles, then back up past it.
    #[cfg(unix)]
    #[test]
    fn deep_paths_hold_few_handles_and_climb_back() {
        let dir = tempfile::tempdir().unwrap();
        let depth = 3 * HELD + 5;
        let deep = "d/".repeat(depth);
        std::fs::create_dir_all(dir.path().join(&deep)).unwrap();
        std::fs::write(dir.path().join("top.txt"), "x").unwrap();
        std::fs::write(dir.path().join(&deep).join("bottom.txt"), "x").unwrap();
        let fd_root = fd::FdDir::open_root(dir.path()).unwrap();
        let path_root = PathDir(dir.path().to_path_buf());
        let up = "../".repeat(depth);
        let back = format!("{deep}{up}top.txt");
        let down_again = "d/".repeat(HELD + 3);
        let half = format!("{deep}{}{down_again}bottom.txt", "../".repeat(HELD + 3));
        let escape = format!("{deep}{up}../top.txt");
        let bottom = format!("{deep}bottom.txt");
        for (path, want) in [(&back, "top.txt"), (&half, bottom.as_str())] {
            let w = walk(&fd_root, comps(path)).unwrap();
            assert_eq!(w.relative(), PathBuf::from(want));
            assert!(w.dirs.iter().filter(|(_, d)| d.is_some()).count() <= HELD);
            let w = walk(&path_root, comps(path)).unwrap();
            assert_eq!(w.relative(), PathBuf::from(want));
        }
        assert!(matches!(walk(&fd_root, comps(&escape)), Err(Fail::Outside)));
        assert!(matches!(
            walk(&path_root, comps(&escape)),
            Err(Fail::Outside)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn links_resolve_relative_to_their_directory() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("a/b")).unwrap();
        std::fs::write(d.join("a/b/f"), "x").unwrap();
        std::os::unix::fs::symlink("b/f", d.join("a/l")).unwrap();
        std::os::unix::fs::symlink("a/l", d.join("top")).unwrap();
        std::os::unix::fs::symlink("loop2", d.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", d.join("loop2")).unwrap();
        std::os::unix::fs::symlink(d.join("a/b/f"), d.join("abs")).unwrap();
        let root = PathDir(d.to_path_buf());
        let w = walk(&root, comps("top")).unwrap();
        assert_eq!(w.relative(), PathBuf::from("a/b/f"));
        assert!(matches!(walk(&root, comps("loop1")), Err(Fail::Loop)));
        assert!(matches!(walk(&root, comps("abs")), Err(Fail::Outside)));
        let fd_root = fd::FdDir::open_root(d).unwrap();
        let w = walk(&fd_root, comps("top")).unwrap();
        assert_eq!(w.relative(), PathBuf::from("a/b/f"));
        assert!(matches!(walk(&fd_root, comps("loop1")), Err(Fail::Loop)));
    }
}
