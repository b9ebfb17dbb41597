//! The stamp of one state of a source: what tells a changed or replaced file (or a new
//! version of an object) from the one a read started on.

use super::RandomAccess;

/// What identifies one state of a file: if any of these change between two `fstat`
/// calls on the same handle, the file was modified in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub(crate) len: u64,
    pub(crate) modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    ctime: (i64, i64),
    /// `(device, inode)`: which file this is, whatever its path.
    pub(crate) id: Option<(u64, u64)>,
}

impl Stamp {
    /// When the file's metadata last changed (`ctime`, which no user can set back), where
    /// the platform has it: what tells an older observation of a file from a newer one.
    pub(crate) fn changed_at(&self) -> Option<(i64, i64)> {
        #[cfg(unix)]
        return Some(self.ctime);
        #[cfg(not(unix))]
        None
    }

    /// The stamp of a source that is not a local file: the identity and the version make
    /// the key, so that a cache treats a new version like a replaced file (the key
    /// changes) and never mixes them up.
    pub(super) fn of_custom(inner: &dyn RandomAccess) -> Stamp {
        use xxhash_rust::xxh3::xxh3_64_with_seed;
        let version = inner.version().unwrap_or_default();
        let id = inner.identity().map(|name| {
            let key = format!("{name}\0{version}");
            (
                xxh3_64_with_seed(key.as_bytes(), 1),
                xxh3_64_with_seed(key.as_bytes(), 2),
            )
        });
        Stamp {
            len: inner.len(),
            modified: None,
            #[cfg(unix)]
            ctime: (0, 0),
            id,
        }
    }

    pub(super) fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            ctime: (meta.ctime(), meta.ctime_nsec()),
            #[cfg(unix)]
            id: Some((meta.dev(), meta.ino())),
            #[cfg(not(unix))]
            id: None,
        }
    }
}
