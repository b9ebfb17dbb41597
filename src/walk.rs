//! Resolution beneath a root: the component walk every workspace strategy shares.
//!
//! The walk holds one directory handle per resolved component and asks the operating
//! system about one name at a time, relative to the handle of its directory, never
//! following a symbolic link in the kernel. Symbolic links are read and expanded here,
//! under the rules of Linux `openat2(RESOLVE_BENEATH)`:
//!
//! - an absolute link target is refused (its meaning depends on where the root is);
//! - `..` pops the walk's own stack of directories, so it cannot climb above the root,
//!   not even for a moment (a chain that leaves the root and comes back is refused), and
//!   a directory moved elsewhere during the walk cannot lead the walk to its new parent
//!   (the kernel is asked for `..` only past the held handles, below, and its answer must
//!   be the directory the walk came through);
//! - at most [`MAX_HOPS`] links are followed in one resolution (loops end there).
//!
//! Only the deepest [`HELD`] directories keep their handles, so that a deep path (or one
//! made deep by links) cannot exhaust the process's file descriptors. A directory whose
//! handle is closed keeps its identity (device and inode). A `..` that pops to such a
//! directory opens `..` of the handle it leaves (the one the walk holds for the child),
//! and accepts it only if it is the same directory: a directory moved elsewhere in the
//! meantime is seen as a race. Every step is one or two system calls, so a walk costs
//! time linear in its components at any depth; a walk steps through at most
//! [`MAX_COMPONENTS`] components (the path's and every link target's), so one call's
//! work is bounded whatever the links.
//!
//! Protected directories are refused as they are entered, before the name is looked up
//! (a directory under one is never reached, so whether it exists is never revealed).
//!
//! What the walk produces is the resolved path inside the root, component by component,
//! and the handle of the directory holding the last component. Opening that last
//! component is the caller's step (see `workspace/open.rs`).

use std::borrow::Cow;
use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};

/// Symbolic links followed in one resolution before it is called a loop (Linux's
/// `MAXSYMLINKS`).
pub(crate) const MAX_HOPS: u32 = 40;

/// Components (names, `.` and `..`, from the path and from every link target followed)
/// one resolution steps through at most: enough to go 16,000 directories down and back
/// up, and a bound on the work of a single call.
pub(crate) const MAX_COMPONENTS: usize = 32_768;

/// Directory handles held at once by one walk.
const HELD: usize = 16;

/// Where a directory is: device and inode.
pub(crate) type DirId = (u64, u64);

/// A directory the walk can look into.
pub(crate) trait Dir: Sized {
    /// The target of `name` when it is a symbolic link, `None` when it is anything else.
    fn read_link(&self, name: &OsStr) -> io::Result<Option<OsString>>;
    /// Opens the directory `name` without following a symbolic link.
    fn open_dir(&self, name: &OsStr) -> io::Result<Self>;
    /// Opens the parent directory (`..`) of this one.
    fn open_parent(&self) -> io::Result<Self>;
    /// The directory's identity, `None` where the platform has none to give.
    fn id(&self) -> io::Result<Option<DirId>>;
}

/// What the walk asks about protection: it keeps the resolved path as the patterns see
/// it (each name through [`Guard::key`]) beside the path itself, so that each check costs
/// what one name costs to fold, plus what the patterns cost on that path.
pub(crate) trait Guard {
    /// A name as the patterns see it.
    fn key<'a>(&self, name: &'a OsStr) -> Cow<'a, OsStr>;
    /// Whether the directory at `key` (made of keys, `depth` names) may not be entered.
    fn protected(&self, key: &Path, depth: usize) -> bool;
}

/// A plain predicate on the path (tests).
impl<F: Fn(&Path) -> bool> Guard for F {
    fn key<'a>(&self, name: &'a OsStr) -> Cow<'a, OsStr> {
        Cow::Borrowed(name)
    }
    fn protected(&self, key: &Path, _depth: usize) -> bool {
        self(key)
    }
}

/// Why a walk stopped.
#[derive(Debug)]
pub(crate) enum Fail {
    /// A `..` above the root or an absolute link target.
    Outside,
    /// A directory the caller protects would be entered.
    Protected,
    /// More than [`MAX_HOPS`] symbolic links.
    Loop,
    /// More than [`MAX_COMPONENTS`] components.
    TooLong,
    /// A name changed between two looks at it (a directory swapped for a link, a
    /// directory moved): the caller starts over.
    Race,
    /// The operating system refused a step.
    Io(io::Error),
}

/// A resolved directory below the root.
struct Entry<D> {
    /// Its handle, held for the last [`HELD`] entries (a suffix: the last entry always
    /// has one).
    dir: Option<D>,
    /// Its identity, recorded when its handle is closed.
    id: Option<DirId>,
}

/// The outcome of a walk: the resolved directories, and the last component, if any.
pub(crate) struct Walked<D> {
    dirs: Vec<Entry<D>>,
    /// The resolved directories' path relative to the root.
    rel: PathBuf,
    /// The last component, not yet looked into (it is not a symbolic link as of the
    /// walk); `None` when the path resolved to a directory of `dirs` (or the root).
    pub(crate) last: Option<OsString>,
}

impl<D> Walked<D> {
    /// The resolved path relative to the root, without `.`, `..` or links.
    pub(crate) fn relative(&self) -> PathBuf {
        match &self.last {
            Some(last) => self.rel.join(last),
            None => self.rel.clone(),
        }
    }

    /// The directory holding the last component.
    pub(crate) fn parent<'a>(&'a self, root: &'a D) -> &'a D {
        current(root, &self.dirs)
    }
}

/// The handle of the deepest directory, or the root.
fn current<'a, D>(root: &'a D, dirs: &'a [Entry<D>]) -> &'a D {
    debug_assert!(dirs.last().is_none_or(|e| e.dir.is_some()));
    dirs.last().and_then(|e| e.dir.as_ref()).unwrap_or(root)
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

/// Pushes a directory, closing the handle that leaves the window of [`HELD`] (its
/// identity is kept, to check the directory `..` reaches later).
fn push<D: Dir>(dirs: &mut Vec<Entry<D>>, dir: D) -> Result<(), Fail> {
    dirs.push(Entry {
        dir: Some(dir),
        id: None,
    });
    if dirs.len() > HELD {
        let i = dirs.len() - HELD - 1;
        let e = &mut dirs[i];
        if let Some(d) = e.dir.take() {
            e.id = d.id().map_err(Fail::Io)?;
        }
    }
    Ok(())
}

/// Pops the deepest directory for a `..`; when the new deepest has no handle, opens it
/// as the popped one's parent, and checks that it is the directory the walk came
/// through.
fn pop<D: Dir>(dirs: &mut Vec<Entry<D>>) -> Result<(), Fail> {
    let child = dirs.pop().ok_or(Fail::Outside)?;
    let Some(top) = dirs.last_mut() else {
        return Ok(());
    };
    if top.dir.is_some() {
        return Ok(());
    }
    let child = child.dir.ok_or(Fail::Race)?;
    let parent = child.open_parent().map_err(Fail::Io)?;
    if top.id.is_some() && parent.id().map_err(Fail::Io)? != top.id {
        return Err(Fail::Race);
    }
    top.dir = Some(parent);
    Ok(())
}

/// Resolves `pending` (relative components: names, `.` and `..`) beneath `root`.
/// `guard` says whether a directory (by its resolved path) may not be entered; it is
/// asked before the name is looked up, for each directory on the way.
pub(crate) fn walk<D: Dir>(
    root: &D,
    mut pending: VecDeque<OsString>,
    guard: &dyn Guard,
) -> Result<Walked<D>, Fail> {
    let mut dirs: Vec<Entry<D>> = Vec::new();
    let mut rel = PathBuf::new();
    let mut key = PathBuf::new();
    let mut hops = 0;
    let mut steps = 0;
    while let Some(name) = pending.pop_front() {
        steps += 1;
        if steps > MAX_COMPONENTS {
            return Err(Fail::TooLong);
        }
        if name.is_empty() || name == "." {
            continue;
        }
        if name == ".." {
            pop(&mut dirs)?;
            rel.pop();
            key.pop();
            continue;
        }
        let through = !pending.is_empty();
        if through {
            // Used as a directory: refused if protected, before it is looked at.
            rel.push(&name);
            key.push(guard.key(&name));
            if guard.protected(&key, dirs.len() + 1) {
                return Err(Fail::Protected);
            }
        }
        let cur = current(root, &dirs);
        if let Some(target) = cur.read_link(&name).map_err(Fail::Io)? {
            if through {
                rel.pop();
                key.pop();
            }
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
        if !through {
            return Ok(Walked {
                dirs,
                rel,
                last: Some(name),
            });
        }
        // Not a link a moment ago, a link now: someone swapped it (a race).
        let dir = open_dir(cur, &name)?;
        push(&mut dirs, dir)?;
    }
    Ok(Walked {
        dirs,
        rel,
        last: None,
    })
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

        fn open_parent(&self) -> io::Result<FdDir> {
            Ok(FdDir(openat(self.fd(), "..", dir_flags(), Mode::empty())?))
        }

        fn id(&self) -> io::Result<Option<super::DirId>> {
            let st = rustix::fs::fstat(self.fd())?;
            #[allow(clippy::unnecessary_cast)] // The field types differ between platforms.
            Ok(Some((st.st_dev as u64, st.st_ino as u64)))
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

        fn open_parent(&self) -> io::Result<PathDir> {
            let parent = self.0.parent().ok_or(io::ErrorKind::NotFound)?;
            Ok(PathDir(parent.to_path_buf()))
        }

        fn id(&self) -> io::Result<Option<super::DirId>> {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let m = std::fs::symlink_metadata(&self.0)?;
                Ok(Some((m.dev(), m.ino())))
            }
            #[cfg(not(unix))]
            Ok(None)
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

    fn walk_all<D: Dir>(root: &D, pending: VecDeque<OsString>) -> Result<Walked<D>, Fail> {
        walk(root, pending, &|_: &Path| false)
    }

    /// A directory handle that counts the system calls the walk makes through it.
    #[cfg(unix)]
    struct Counting<'a>(fd::FdDir, &'a std::cell::Cell<u64>);

    #[cfg(unix)]
    impl Dir for Counting<'_> {
        fn read_link(&self, name: &OsStr) -> io::Result<Option<OsString>> {
            self.1.set(self.1.get() + 1);
            self.0.read_link(name)
        }
        fn open_dir(&self, name: &OsStr) -> io::Result<Self> {
            self.1.set(self.1.get() + 1);
            Ok(Counting(self.0.open_dir(name)?, self.1))
        }
        fn open_parent(&self) -> io::Result<Self> {
            self.1.set(self.1.get() + 1);
            Ok(Counting(self.0.open_parent()?, self.1))
        }
        fn id(&self) -> io::Result<Option<DirId>> {
            self.1.set(self.1.get() + 1);
            self.0.id()
        }
    }

    /// `depth` nested directories `d` under `root`, made with `*at` calls (the path is
    /// longer than the kernel takes at once); each level may get a link or a file.
    #[cfg(unix)]
    fn deep_tree(
        root: &Path,
        depth: usize,
        mut at_level: impl FnMut(usize, &std::os::fd::OwnedFd),
    ) {
        use rustix::fs::{mkdirat, openat, Mode, OFlags};
        let mut fd = openat(
            rustix::fs::CWD,
            root,
            OFlags::DIRECTORY | OFlags::RDONLY,
            Mode::empty(),
        )
        .unwrap();
        for level in 0..=depth {
            at_level(level, &fd);
            if level < depth {
                mkdirat(&fd, "d", Mode::from_raw_mode(0o755)).unwrap();
                fd = openat(&fd, "d", OFlags::DIRECTORY | OFlags::RDONLY, Mode::empty()).unwrap();
            }
        }
    }

    /// Removes a tree made by `deep_tree` (its files named `names`) without recursing,
    /// which would hold a handle per level: down with one handle, then up by `..`.
    #[cfg(unix)]
    fn remove_deep_tree(root: &Path, names: &[&str]) {
        use rustix::fs::{openat, unlinkat, AtFlags, Mode, OFlags};
        let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOFOLLOW;
        let mut fd = openat(rustix::fs::CWD, root, flags, Mode::empty()).unwrap();
        let mut depth = 0;
        loop {
            for name in names {
                let _ = unlinkat(&fd, *name, AtFlags::empty());
            }
            match openat(&fd, "d", flags, Mode::empty()) {
                Ok(next) => fd = next,
                Err(_) => break,
            }
            depth += 1;
        }
        for _ in 0..depth {
            fd = openat(&fd, "..", flags, Mode::empty()).unwrap();
            unlinkat(&fd, "d", AtFlags::REMOVEDIR).unwrap();
        }
    }

    /// Down 3,000 directories through links and back up through links: the walk's
    /// system calls grow with the components, not with their square.
    #[cfg(unix)]
    #[test]
    fn deep_walks_cost_linear_system_calls() {
        use rustix::fs::symlinkat;
        const DEPTH: usize = 3_000;
        const STEP: usize = 500;
        // In memory where possible: removing directories from a disk mounted with
        // `discard` takes milliseconds each.
        let dir = match Path::new("/dev/shm").is_dir() {
            true => tempfile::tempdir_in("/dev/shm").unwrap(),
            false => tempfile::tempdir().unwrap(),
        };
        std::fs::write(dir.path().join("top.txt"), "x").unwrap();
        deep_tree(dir.path(), DEPTH, |level, fd| {
            if level % STEP == 0 && level < DEPTH {
                symlinkat(format!("{}n", "d/".repeat(STEP)), fd, "n").unwrap();
            }
            if level == DEPTH {
                symlinkat("u", fd, "n").unwrap();
            }
            if level % STEP == 0 && level > 0 {
                let next = if level == STEP { "top.txt" } else { "u" };
                symlinkat(format!("{}{next}", "../".repeat(STEP)), fd, "u").unwrap();
            }
        });
        let calls = std::cell::Cell::new(0);
        let root = Counting(fd::FdDir::open_root(dir.path()).unwrap(), &calls);
        let w = walk_all(&root, comps("n")).unwrap();
        assert_eq!(w.relative(), PathBuf::from("top.txt"));
        // Per directory down: a read_link, an open and (its handle closed) an identity;
        // per `..` past the window: an open and an identity; per link: a read_link.
        // Walking from the root again at every `..` would be millions.
        let components = (2 * DEPTH + 2 * (DEPTH / STEP) + 1) as u64;
        assert!(
            calls.get() <= 3 * components,
            "{} calls for {components} components",
            calls.get()
        );
        // Above the bound of components: refused, not walked.
        let many = vec![OsString::from("."); MAX_COMPONENTS + 1];
        assert!(matches!(walk_all(&root, many.into()), Err(Fail::TooLong)));
        remove_deep_tree(dir.path(), &["n", "u"]);
    }

    /// Protected directories are refused on the way in, before they are looked up.
    #[test]
    fn protected_directories_are_not_entered() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("secrets/inner")).unwrap();
        let root = PathDir(dir.path().to_path_buf());
        let protect = |p: &Path| p == Path::new("secrets");
        for path in [
            "secrets/inner/..",
            "secrets/missing/..",
            "secrets/x",
            "secrets/../a",
        ] {
            assert!(
                matches!(walk(&root, comps(path), &protect), Err(Fail::Protected)),
                "{path}"
            );
        }
        let w = walk(&root, comps("secrets"), &protect).unwrap();
        assert_eq!(w.relative(), PathBuf::from("secrets"));
    }

    #[test]
    fn dotdot_above_root_is_outside_even_when_it_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = PathDir(dir.path().to_path_buf());
        std::fs::write(dir.path().join("f"), "x").unwrap();
        assert!(matches!(walk_all(&root, comps("../f")), Err(Fail::Outside)));
        let name = dir.path().file_name().unwrap().to_str().unwrap();
        assert!(matches!(
            walk_all(&root, comps(&format!("../{name}/f"))),
            Err(Fail::Outside)
        ));
        let w = walk_all(&root, comps("./f")).unwrap();
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
            let w = walk_all(&fd_root, comps(path)).unwrap();
            assert_eq!(w.relative(), PathBuf::from(want));
            assert!(w.dirs.iter().filter(|e| e.dir.is_some()).count() <= HELD);
            let w = walk_all(&path_root, comps(path)).unwrap();
            assert_eq!(w.relative(), PathBuf::from(want));
        }
        assert!(matches!(
            walk_all(&fd_root, comps(&escape)),
            Err(Fail::Outside)
        ));
        assert!(matches!(
            walk_all(&path_root, comps(&escape)),
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
        let w = walk_all(&root, comps("top")).unwrap();
        assert_eq!(w.relative(), PathBuf::from("a/b/f"));
        assert!(matches!(walk_all(&root, comps("loop1")), Err(Fail::Loop)));
        assert!(matches!(walk_all(&root, comps("abs")), Err(Fail::Outside)));
        let fd_root = fd::FdDir::open_root(d).unwrap();
        let w = walk_all(&fd_root, comps("top")).unwrap();
        assert_eq!(w.relative(), PathBuf::from("a/b/f"));
        assert!(matches!(
            walk_all(&fd_root, comps("loop1")),
            Err(Fail::Loop)
        ));
    }
}
