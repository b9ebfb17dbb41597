//! [`RandomAccess`]: the positional questions every backend answers, and a host's own
//! storage implements.

use std::io;

use super::{Backend, Source};
use crate::error::Error;

/// Positional reads of bytes with a fixed length and a version: what every step of a read
/// (classification, line index, selections, budgets, landmarks, caches) asks of a source.
///
/// The built-in backends of [`Source`] (file, memory, memory map, and the object-store
/// source of the `object-store` feature) answer these questions, and [`Source`] itself
/// implements the trait. A host implements it for its own storage (a database blob, a
/// remote file system, an archive member) and reads it with
/// [`Source::from_random_access`]; everything above the source then works unchanged.
///
/// # Contract
///
/// - [`RandomAccess::len`] is fixed for the life of the handle: the length of the version
///   it reads.
/// - [`RandomAccess::read_exact_at`] fills the whole buffer or fails. When the content is
///   no longer the version the handle reads (shorter, replaced, rewritten), fail with an
///   error of kind [`io::ErrorKind::UnexpectedEof`] or
///   [`io::ErrorKind::StaleNetworkFileHandle`]: the read then ends in
///   [`Error::Changed`] (`File changed while reading`), never in a page mixing two
///   versions. [`io::ErrorKind::NotFound`] and [`io::ErrorKind::PermissionDenied`] become
///   [`Error::NotFound`] and [`Error::PermissionDenied`]; any other error [`Error::Io`].
/// - Calls come from one thread at a time per read, but a shared source may be read by
///   several reads (and a long count by several threads) at once: `Send + Sync`.
///
/// # Example
///
/// ```
/// use std::io;
/// use std::sync::Arc;
/// use rangeread::{LineSelection, RandomAccess, Reader, Source};
///
/// /// A blob that a host keeps in its own store.
/// struct Blob { bytes: Vec<u8>, generation: u64 }
///
/// impl RandomAccess for Blob {
///     fn len(&self) -> u64 { self.bytes.len() as u64 }
///     fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
///         let start = usize::try_from(offset).map_err(|_| io::ErrorKind::UnexpectedEof)?;
///         let src = self.bytes.get(start..start + buf.len()).ok_or(io::ErrorKind::UnexpectedEof)?;
///         buf.copy_from_slice(src);
///         Ok(())
///     }
///     fn identity(&self) -> Option<String> { Some("blob://notes/1".into()) }
///     fn version(&self) -> Option<String> { Some(self.generation.to_string()) }
/// }
///
/// let blob = Blob { bytes: b"one\ntwo\nthree\n".to_vec(), generation: 7 };
/// let src = Source::from_random_access(Arc::new(blob), "notes.txt");
/// let result = Reader::new().document(src).read(LineSelection::from(2..=3))?;
/// assert_eq!(result.content, "two\nthree\n");
/// # Ok::<(), rangeread::Error>(())
/// ```
pub trait RandomAccess: Send + Sync {
    /// The length in bytes of the version this handle reads.
    fn len(&self) -> u64;

    /// Whether the content is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `buf` with the bytes at `offset` (see the contract above for the errors).
    ///
    /// # Errors
    ///
    /// Any I/O error; [`io::ErrorKind::UnexpectedEof`] or
    /// [`io::ErrorKind::StaleNetworkFileHandle`] when the content changed.
    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()>;

    /// What names the content across handles and processes (a URL, a key), used by caches
    /// and persistent indexes; `None` (the default): nothing is cached for it.
    fn identity(&self) -> Option<String> {
        None
    }

    /// A stamp of the version this handle reads (an ETag, a generation, a hash): two
    /// handles with the same identity and version read the same bytes. `None` (the
    /// default) when the content never changes.
    fn version(&self) -> Option<String> {
        None
    }

    /// Checks that the content still is the version this handle reads, where that can be
    /// asked cheaply. The default trusts the reads (which fail on a change).
    ///
    /// # Errors
    ///
    /// As [`RandomAccess::read_exact_at`].
    fn check_unchanged(&self) -> io::Result<()> {
        Ok(())
    }

    /// A hint that the bytes `[start, end)` are about to be read front to back (a line
    /// count, a page): a remote source fetches them in one request or one stream instead
    /// of one request per read. The default ignores it.
    fn will_read(&self, start: u64, end: u64) {
        let _ = (start, end);
    }

    /// The whole content, when it is in memory: reads then copy nothing.
    fn as_slice(&self) -> Option<&[u8]> {
        None
    }
}

impl std::fmt::Debug for dyn RandomAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RandomAccess")
            .field("len", &self.len())
            .field("identity", &self.identity())
            .finish_non_exhaustive()
    }
}

/// Every built-in backend answers the source questions; a `Source` can stand wherever a
/// [`RandomAccess`] is wanted (to wrap it, count its reads, or hand it to a host's code).
impl RandomAccess for Source {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        Source::read_exact_at(self, offset, buf).map_err(|e| match e {
            Error::Changed { .. } => io::Error::from(io::ErrorKind::UnexpectedEof),
            Error::Io { source, .. } => source,
            e => io::Error::other(e.to_string()),
        })
    }

    fn identity(&self) -> Option<String> {
        match &self.backend {
            Backend::Custom { inner, .. } => inner.identity(),
            Backend::Memory(_) | Backend::Streamed { .. } => None,
            Backend::File { .. } | Backend::Read { .. } | Backend::Mmap { .. } => {
                Some(self.identity_path().to_string_lossy().into_owned())
            }
        }
    }

    fn version(&self) -> Option<String> {
        match &self.backend {
            Backend::Custom { inner, .. } => inner.version(),
            _ => self.stamp().map(|s| {
                let ns = s
                    .modified
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                let (dev, ino) = s.id.unwrap_or_default();
                format!("{dev}:{ino}:{}:{ns}", s.len)
            }),
        }
    }

    fn check_unchanged(&self) -> io::Result<()> {
        Source::check_unchanged(self).map_err(|_| io::ErrorKind::StaleNetworkFileHandle.into())
    }

    fn will_read(&self, start: u64, end: u64) {
        Source::will_read(self, start, end);
    }

    fn as_slice(&self) -> Option<&[u8]> {
        Source::as_slice(self)
    }
}
