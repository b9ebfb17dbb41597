//! Checks and errors of a path as the caller asked for it (its bytes, its spelling), and
//! the errors a walk turns into.

use std::path::{Component, Path};

use super::MAX_PATH_BYTES;
use crate::error::{Error, Result};

pub(super) fn loop_error(asked: &Path) -> Error {
    Error::InvalidPath {
        path: asked.to_path_buf(),
        reason: "too many levels of symbolic links",
    }
}

/// Wraps an error of a resolution step with the path as asked.
pub(super) fn map_io(asked: &Path, e: std::io::Error) -> Error {
    #[cfg(unix)]
    {
        use rustix::io::Errno;
        let code = e.raw_os_error();
        let is = |x: Errno| code == Some(x.raw_os_error());
        if is(Errno::NOTDIR) {
            // A file where a directory should be: the path names nothing.
            return Error::NotFound {
                path: asked.to_path_buf(),
            };
        }
        if is(Errno::NAMETOOLONG) {
            return Error::InvalidPath {
                path: asked.to_path_buf(),
                reason: "a name in the path is too long",
            };
        }
        if is(Errno::LOOP) {
            return loop_error(asked);
        }
    }
    Error::io(asked, e)
}

/// NUL bytes and over-long paths, refused before any system call sees them.
pub(super) fn check_bytes(path: &Path) -> Result<()> {
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes.contains(&0) {
        return Err(Error::InvalidPath {
            path: path.to_path_buf(),
            reason: "contains a NUL byte",
        });
    }
    if bytes.len() > MAX_PATH_BYTES {
        return Err(Error::InvalidPath {
            path: path.to_path_buf(),
            reason: "longer than 4096 bytes",
        });
    }
    Ok(())
}

/// Whether a path was spelled with a trailing `/` (it names a directory).
pub(super) fn ends_in_slash(p: &Path) -> bool {
    let b = p.as_os_str().as_encoded_bytes();
    b.ends_with(b"/") || (cfg!(windows) && b.ends_with(b"\\"))
}

pub(super) fn has_prefix(p: &Path) -> bool {
    matches!(p.components().next(), Some(Component::Prefix(_)))
}
