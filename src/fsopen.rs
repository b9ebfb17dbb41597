//! Opening a name for reading only if it names a regular file: the race-free primitive
//! under both [`Source::open`](crate::Source::open) (a path as given, links followed) and
//! the workspace's confined resolution (`workspace::open`, which opens the last component
//! beside its directory's handle), when special files are never to be opened
//! ([`SpecialFiles::NeverOpened`]). By default ([`SpecialFiles::NeverRead`]) a read opens
//! the name once, without blocking, and refuses what is not a regular file by the type
//! seen on that handle, before any read.
//!
//! On Linux a name is first opened with `O_PATH`, which has no effect on the file (a FIFO
//! does not see a reader, a device driver is not called) and cannot read it. Its type and
//! state (size, times, identity) are looked at on that handle; only a regular file is then
//! opened for reading, through the handle itself (`/proc/self/fd/N`, the same inode
//! whatever is renamed over the name meanwhile), and the source takes that state as its
//! state at open instead of asking the read handle again. Every read handle is opened
//! without blocking and never becomes the controlling terminal.

use std::fs::{File, Metadata};
use std::path::Path;

use crate::error::{Error, FileKind, Result};

/// What a read may do to a name that is not a regular file: a FIFO, a socket or a device
/// ([`Reader::special_files`](crate::Reader::special_files)). Either way such a name is
/// refused by its type ([`Error::NotRegularFile`](crate::Error::NotRegularFile)) before
/// anything is read from it, and nothing blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialFiles {
    /// Opened once for reading, without blocking and never as the controlling terminal,
    /// and refused by the type seen on that handle: a FIFO's waiting writer or a device's
    /// driver sees an open (a serial port raises DTR), nothing is read. One lookup of the
    /// name, as `open()` then `read()` cost in any language. The default.
    #[default]
    NeverRead,
    /// Never opened for reading: on Linux the name is looked at through an `O_PATH`
    /// handle, which has no effect on the file, and only a regular file is then opened,
    /// through that handle (`/proc/self/fd/N`), so that a FIFO or device renamed over the
    /// name meanwhile is not opened either. What [`Workspace::open`](crate::Workspace::open)
    /// and [`Source::open`](crate::Source::open) do; it costs a second lookup (a few
    /// microseconds a read). Elsewhere the name is looked at before it is opened.
    NeverOpened,
}

#[cfg(test)]
thread_local! {
    static FS_CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts one file-system call of opening or reading a file (an open, a stat, a read, a
/// seek) on this thread, for the tests that bound how many a read makes.
#[inline]
pub(crate) fn fs_call() {
    #[cfg(test)]
    FS_CALLS.with(|c| c.set(c.get() + 1));
}

/// The file-system calls counted on this thread so far (tests only).
#[cfg(test)]
pub(crate) fn fs_calls() -> u64 {
    FS_CALLS.with(std::cell::Cell::get)
}

/// What a name is, looked at without following a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Link,
    Special(FileKind),
}

#[cfg(unix)]
pub(crate) fn kind_of(mode: rustix::fs::RawMode) -> Kind {
    use rustix::fs::FileType;
    match FileType::from_raw_mode(mode) {
        FileType::RegularFile => Kind::File,
        FileType::Directory => Kind::Dir,
        FileType::Symlink => Kind::Link,
        FileType::Fifo => Kind::Special(FileKind::Fifo),
        FileType::Socket => Kind::Special(FileKind::Socket),
        FileType::CharacterDevice => Kind::Special(FileKind::CharDevice),
        FileType::BlockDevice => Kind::Special(FileKind::BlockDevice),
        _ => Kind::Special(FileKind::Other),
    }
}

/// What `meta` (looked at on an `O_PATH` handle, which does not follow a link) is.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn kind_of_meta(meta: &Metadata) -> Kind {
    let ft = meta.file_type();
    if ft.is_file() {
        Kind::File
    } else if ft.is_dir() {
        Kind::Dir
    } else if ft.is_symlink() {
        Kind::Link
    } else {
        Kind::Special(special_kind(ft))
    }
}

/// Which kind of file that is neither regular, a directory nor a link `ft` is.
#[cfg(unix)]
fn special_kind(ft: std::fs::FileType) -> FileKind {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        FileKind::Fifo
    } else if ft.is_socket() {
        FileKind::Socket
    } else if ft.is_char_device() {
        FileKind::CharDevice
    } else if ft.is_block_device() {
        FileKind::BlockDevice
    } else {
        FileKind::Other
    }
}

/// Flags of every handle opened for reading: never blocks, never becomes the
/// controlling terminal, never follows a link in the last component.
#[cfg(unix)]
pub(crate) fn read_flags() -> rustix::fs::OFlags {
    use rustix::fs::OFlags;
    OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC | OFlags::NOFOLLOW
}

pub(crate) fn check_regular(meta: &std::fs::Metadata, path: &Path) -> Result<()> {
    let ft = meta.file_type();
    if ft.is_file() {
        return Ok(());
    }
    if ft.is_dir() {
        return Err(Error::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    #[cfg(unix)]
    let kind = special_kind(ft);
    #[cfg(not(unix))]
    let kind = FileKind::Other;
    Err(Error::NotRegularFile {
        path: path.to_path_buf(),
        kind,
    })
}

/// Opens read-only without blocking: `O_NONBLOCK` makes opening a FIFO return at once
/// (the type check on the handle then refuses it) and `O_NOCTTY` keeps a terminal device
/// from becoming the controlling terminal. With [`SpecialFiles::NeverOpened`], the name is
/// looked at first ([`open_checked`]) and with the handle comes what was looked at, when
/// that is the same file: the source takes its state from it instead of asking again.
pub(crate) fn open_nonblocking(
    path: &Path,
    special: SpecialFiles,
) -> Result<(File, Option<Metadata>)> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        opts.custom_flags(flags.bits() as i32);
    }
    let opened = match special {
        SpecialFiles::NeverOpened => open_checked(path, &opts),
        SpecialFiles::NeverRead => {
            // One lookup: the type is looked at on this handle before anything is read
            // (`Source::from_file_streaming_limit`), and a FIFO opened without blocking
            // returns at once.
            fs_call();
            opts.open(path).map(|f| (f, None))
        }
    };
    match opened {
        Ok(opened) => Ok(opened),
        // A socket cannot be opened at all (ENXIO); name it as the contract does.
        Err(e) if e.raw_os_error() == Some(6) => {
            if let Ok(meta) = std::fs::metadata(path) {
                check_regular(&meta, path)?;
            }
            Err(Error::io(path, e))
        }
        Err(e) => {
            // Opening a directory read-only succeeds on Linux, but not everywhere.
            if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
                return Err(Error::IsDirectory {
                    path: path.to_path_buf(),
                });
            }
            Err(Error::io(path, e))
        }
    }
}

/// Opens `path` (links followed, no workspace) for reading only if it is a regular
/// file. On Linux the path is opened with `O_PATH` first and looked at on that handle; a
/// regular file is reopened for reading through the handle (so a FIFO renamed over the
/// name meanwhile is never opened for reading), and anything else is returned as the
/// `O_PATH` handle itself, which cannot be read: the caller refuses it by its type. The
/// look at the handle comes back with it when the returned handle is the same inode (the
/// reopen through `/proc`), so that nobody asks the same file again. Elsewhere, `options`
/// open the path directly, and nothing was looked at.
pub(crate) fn open_checked(
    path: &Path,
    options: &std::fs::OpenOptions,
) -> std::io::Result<(File, Option<Metadata>)> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::{openat, Mode, OFlags};
        let _ = options;
        fs_call();
        let handle = File::from(openat(
            rustix::fs::CWD,
            path,
            OFlags::PATH | OFlags::CLOEXEC,
            Mode::empty(),
        )?);
        fs_call();
        let meta = handle.metadata()?;
        if !meta.is_file() {
            return Ok((handle, Some(meta)));
        }
        match reopen(&handle) {
            // The handle's own inode: what was looked at is this file's state before any
            // read (a change since shows in the look after the read).
            Ok(fd) => Ok((File::from(fd), Some(meta))),
            // No `/proc`: whatever the path names now. A regular file is read as any
            // other, and anything else is refused by its type on this handle (opened
            // without blocking, never read), which the source looks at itself.
            Err(rustix::io::Errno::NOENT) => {
                let flags = read_flags() & !OFlags::NOFOLLOW;
                let fd = openat(rustix::fs::CWD, path, flags, Mode::empty())?;
                Ok((File::from(fd), None))
            }
            Err(e) => Err(e.into()),
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    Ok((options.open(path)?, None))
}

/// Opens a regular file for reading through its `O_PATH` handle: the same inode,
/// whatever is renamed over its name.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn reopen(handle: &impl std::os::fd::AsFd) -> rustix::io::Result<std::os::fd::OwnedFd> {
    use std::io::Write;
    use std::os::unix::ffi::OsStrExt;
    fs_call();
    let fd = std::os::fd::AsRawFd::as_raw_fd(&handle.as_fd());
    // The name on the stack: "/proc/self/fd/" and at most 10 digits.
    let mut name = [0u8; 32];
    let mut rest = &mut name[..];
    write!(rest, "/proc/self/fd/{fd}").map_err(|_| rustix::io::Errno::NAMETOOLONG)?;
    let left = rest.len();
    let used = name.len() - left;
    let flags = read_flags() & !rustix::fs::OFlags::NOFOLLOW;
    rustix::fs::openat(
        rustix::fs::CWD,
        std::ffi::OsStr::from_bytes(&name[..used]),
        flags,
        rustix::fs::Mode::empty(),
    )
}
