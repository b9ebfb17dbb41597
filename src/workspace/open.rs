//! The last step of a resolution: looking at what the walk found, and opening it for
//! reading only if it is a regular file.
//!
//! A reader's default ([`SpecialFiles::NeverRead`]) opens the name once for reading,
//! without blocking, and refuses anything but a regular file by the type seen on that
//! handle before any read. With [`SpecialFiles::NeverOpened`] (and always for
//! [`Workspace::open`](crate::Workspace::open)), on Linux the file is first opened with `O_PATH`, which has no effect on the file (a
//! FIFO does not see a reader, a device driver is not called) and cannot read it. Its type
//! is looked at on that handle; only a regular file is then opened for reading, through
//! the handle itself (`/proc/self/fd/N`, the same inode whatever is renamed over the name
//! meanwhile), and the type and identity are checked again on the read handle. Without
//! `/proc` (some sandboxes), the name is opened again beside the handle and must be the
//! same file: a FIFO renamed over the name in that instant would be opened (without
//! blocking, and never read) before being refused. Elsewhere on Unix the type is looked
//! at by name first, then the file is opened without blocking and checked on its handle.

use std::fs::File;
use std::path::Path;

use super::{Inner, RootDir, MAX_PATH_BYTES};
#[cfg(not(unix))]
use crate::error::FileKind;
#[cfg(any(target_os = "linux", target_os = "android"))]
use crate::fsopen::reopen;
pub(super) use crate::fsopen::Kind;
use crate::fsopen::SpecialFiles;
#[cfg(unix)]
use crate::fsopen::{kind_of, read_flags};

/// What [`open_regular`] found.
pub(super) enum Opening {
    /// The regular file, open for reading, and what was looked at on its `O_PATH`
    /// handle when that is the same inode (the source's state, not asked again).
    File(File, Option<std::fs::Metadata>),
    /// Something else, not opened for reading.
    Not(Kind),
    /// The name changed under the steps (the caller starts over).
    Race,
}

/// What `name` in `parent` is, without opening it.
#[cfg(unix)]
pub(super) fn stat_kind(parent: &RootDir, name: &std::ffi::OsStr) -> std::io::Result<Kind> {
    use rustix::fs::{statat, AtFlags};
    let st = statat(parent.fd(), name, AtFlags::SYMLINK_NOFOLLOW)?;
    Ok(kind_of(st.st_mode))
}

#[cfg(not(unix))]
pub(super) fn stat_kind(parent: &RootDir, name: &std::ffi::OsStr) -> std::io::Result<Kind> {
    let ft = std::fs::symlink_metadata(parent.0.join(name))?.file_type();
    Ok(if ft.is_symlink() {
        Kind::Link
    } else if ft.is_dir() {
        Kind::Dir
    } else if ft.is_file() {
        Kind::File
    } else {
        Kind::Special(FileKind::Other)
    })
}

/// Opens the last component for reading if, and only if, it is a regular file.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn open_regular(
    inner: &Inner,
    parent: &RootDir,
    name: &std::ffi::OsStr,
    relative: &Path,
    special: SpecialFiles,
) -> std::io::Result<Opening> {
    use rustix::fs::{fstat, openat, openat2, Mode, OFlags, ResolveFlags};
    use rustix::io::Errno;
    let path_flags = match special {
        SpecialFiles::NeverOpened => OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        SpecialFiles::NeverRead => read_flags(),
    };
    // From the root in one kernel call when the path fits in one, so that a directory
    // moved since the walk is seen; else beside the walk's handle of the directory.
    crate::fsopen::fs_call();
    let opened = if inner.openat2 && relative.as_os_str().len() < MAX_PATH_BYTES {
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        openat2(
            inner.root_dir.fd(),
            relative,
            path_flags,
            Mode::empty(),
            resolve,
        )
    } else {
        openat(parent.fd(), name, path_flags, Mode::empty())
    };
    let handle = match opened {
        Ok(handle) => handle,
        // A socket cannot be opened for reading at all: name it by its type.
        Err(Errno::NXIO) => return Ok(Opening::Not(stat_kind(parent, name)?)),
        Err(e) => return Err(e.into()),
    };
    crate::fsopen::fs_call();
    let handle = File::from(handle);
    let meta = handle.metadata()?;
    let kind = crate::fsopen::kind_of_meta(&meta);
    if kind != Kind::File {
        return Ok(Opening::Not(kind));
    }
    if special == SpecialFiles::NeverRead {
        // Opened for reading already: what was looked at is this handle's own state.
        return Ok(Opening::File(handle, Some(meta)));
    }
    match reopen(&handle) {
        // The handle's own inode: nothing to check again, and what was looked at on the
        // handle is its state before any read.
        Ok(fd) => Ok(Opening::File(File::from(fd), Some(meta))),
        // No `/proc`: the name again, checked against the handle.
        Err(Errno::NOENT) => {
            use std::os::unix::fs::MetadataExt;
            crate::fsopen::fs_call();
            let fd = openat(parent.fd(), name, read_flags(), Mode::empty())?;
            crate::fsopen::fs_call();
            let again = fstat(&fd)?;
            if kind_of(again.st_mode) != Kind::File
                || (again.st_dev, again.st_ino) != (meta.dev(), meta.ino())
            {
                return Ok(Opening::Race);
            }
            Ok(Opening::File(File::from(fd), None))
        }
        Err(e) => Err(e.into()),
    }
}

/// Opens the last component for reading if, and only if, it is a regular file (looked at
/// by name first, then checked on the handle).
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
pub(super) fn open_regular(
    _inner: &Inner,
    parent: &RootDir,
    name: &std::ffi::OsStr,
    _relative: &Path,
    _special: SpecialFiles,
) -> std::io::Result<Opening> {
    use rustix::fs::{fstat, openat, Mode};
    let kind = stat_kind(parent, name)?;
    if kind != Kind::File {
        return Ok(Opening::Not(kind));
    }
    let fd = openat(parent.fd(), name, read_flags(), Mode::empty())?;
    if kind_of(fstat(&fd)?.st_mode) != Kind::File {
        return Ok(Opening::Race);
    }
    Ok(Opening::File(File::from(fd), None))
}

#[cfg(not(unix))]
pub(super) fn open_regular(
    _inner: &Inner,
    parent: &RootDir,
    name: &std::ffi::OsStr,
    _relative: &Path,
    _special: SpecialFiles,
) -> std::io::Result<Opening> {
    let kind = stat_kind(parent, name)?;
    if kind != Kind::File {
        return Ok(Opening::Not(kind));
    }
    let file = File::open(parent.0.join(name))?;
    if !file.metadata()?.is_file() {
        return Ok(Opening::Race);
    }
    Ok(Opening::File(file, None))
}

/// Whether `openat2` with the flags the workspace uses works here.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn openat2_available(root: &RootDir) -> bool {
    use rustix::fs::{openat2, Mode, OFlags, ResolveFlags};
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    // ENOSYS (old kernel), EPERM (seccomp), E2BIG/EINVAL (unknown fields or flags).
    openat2(
        root.fd(),
        ".",
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
        resolve,
    )
    .is_ok()
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) fn openat2_available(_root: &RootDir) -> bool {
    false
}

/// What signals that the path changed between the walk and the open: a link where the
/// walk saw none (`ELOOP` from `O_NOFOLLOW` / `RESOLVE_NO_SYMLINKS`), a directory moved
/// under a `RESOLVE_BENEATH` resolution (`EXDEV`, `EAGAIN`).
pub(super) fn is_race(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        use rustix::io::Errno;
        let code = e.raw_os_error();
        [Errno::LOOP, Errno::XDEV, Errno::AGAIN, Errno::MLINK]
            .iter()
            .any(|x| code == Some(x.raw_os_error()))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}
