//! Byte sources: where the bytes of a file come from.
//!
//! Every backend answers the same positional questions ([`RandomAccess`]): positional
//! reads on an open file (the default; `pread` on Unix), bytes already in memory, an
//! opt-in memory map, objects in object storage (feature `object-store`), and whatever
//! a host brings by implementing [`RandomAccess`] itself. The rest of the crate never
//! knows which one it talks to.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, FileKind, Result};

/// Default size of one positional read while scanning (128 KiB). The buffer must stay in
/// the CPU's L2 cache between the copy out of the page cache and the SIMD count: on the
/// benchmark machine 128 KiB counts a cached 1 GiB file in 0.13 s, 256 KiB and more in
/// 0.45-0.6 s (see docs/performance.md).
pub(crate) const DEFAULT_CHUNK: usize = 128 << 10;

/// The most holes of a sparse file that are remembered.
pub(crate) const MAX_HOLES: usize = 4096;

/// Alignment of the buffers positional reads copy into (a cache line).
const ALIGN: usize = 64;

/// Upper bound for streaming a regular file that reports size 0 when no byte budget
/// is set (64 MiB): such files (`/proc`, `/sys`) are small in practice, but the bound
/// keeps a misbehaving one from exhausting memory.
pub(crate) const STREAM_HARD_LIMIT: u64 = 64 << 20;

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
    fn of_custom(inner: &dyn RandomAccess) -> Stamp {
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

    fn of(meta: &std::fs::Metadata) -> Stamp {
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

enum Backend {
    /// A source a host (or the `object-store` feature) brought.
    Custom {
        inner: Arc<dyn RandomAccess>,
        stamp: Stamp,
    },
    File {
        file: File,
        stamp: Stamp,
    },
    Memory(Arc<[u8]>),
    /// A file that reported size 0 and was streamed: the handle stays to notice a real
    /// file that was empty at open and got content while being streamed.
    Streamed {
        data: Arc<[u8]>,
        file: File,
        stamp: Stamp,
    },
    Mmap {
        map: memmap2::Mmap,
        file: File,
        stamp: Stamp,
    },
}

/// A file (or buffer) that can be read at any offset.
///
/// Create one with [`Source::open`] (positional reads), [`Source::from_bytes`] or the
/// `unsafe` [`Source::open_mmap`]. The length is fixed when the source is created; a
/// file that changes afterwards is detected by [`Source::check_unchanged`] and by short
/// reads, which surface as [`Error::Changed`].
pub struct Source {
    backend: Backend,
    path: PathBuf,
    len: u64,
    chunk: usize,
    /// The file's path as resolved (inside a workspace), when `path` is only the path as
    /// asked: what caches remember the file by.
    resolved: Option<PathBuf>,
    /// The holes of a sparse file, found on first use.
    holes: std::sync::OnceLock<Vec<(u64, u64)>>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("path", &self.path)
            .field("len", &self.len)
            .field("backend", &self.backend_name())
            .finish()
    }
}

impl Source {
    /// Opens a file for positional reads.
    ///
    /// The file is opened non-blocking and its type is checked on the open handle, so a
    /// FIFO, socket or device is refused without ever blocking or being read. A regular
    /// file that reports size 0 but has content (`/proc/self/status`) is streamed into
    /// memory, at most 64 MiB of it; use [`Source::open_streaming_limit`] to choose the
    /// bound.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`], [`Error::IsDirectory`], [`Error::PermissionDenied`],
    /// [`Error::NotRegularFile`], or [`Error::Io`] for anything else.
    ///
    /// # Example
    ///
    /// ```
    /// let src = rangeread::Source::open("Cargo.toml")?;
    /// assert!(src.len() > 0);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Source> {
        Source::open_streaming_limit(path, STREAM_HARD_LIMIT)
    }

    /// Like [`Source::open`], streaming at most `limit` bytes (plus one, so that a reader
    /// can tell there was more) of a regular file that reports size 0.
    ///
    /// # Errors
    ///
    /// As [`Source::open`].
    pub fn open_streaming_limit(path: impl AsRef<Path>, limit: u64) -> Result<Source> {
        let path = path.as_ref();
        let file = open_nonblocking(path)?;
        Source::from_file_streaming_limit(file, path, limit)
    }

    /// Wraps a file that is already open (for example by a workspace that confines paths),
    /// checking its type on the handle as [`Source::open`] does.
    ///
    /// # Errors
    ///
    /// As [`Source::open`].
    pub fn from_file(file: File, path: impl AsRef<Path>) -> Result<Source> {
        Source::from_file_streaming_limit(file, path.as_ref(), STREAM_HARD_LIMIT)
    }

    pub(crate) fn from_file_streaming_limit(
        mut file: File,
        path: &Path,
        limit: u64,
    ) -> Result<Source> {
        let meta = file.metadata().map_err(|e| Error::io(path, e))?;
        check_regular(&meta, path)?;
        let stamp = Stamp::of(&meta);
        if meta.len() == 0 || on_pseudo_fs(&file) {
            // Pseudo-files report 0 (procfs) or a page (sysfs) and hold something else:
            // stream them, bounded, and read what is there.
            let cap = limit.saturating_add(1);
            let mut data = Vec::new();
            (&mut file)
                .take(cap)
                .read_to_end(&mut data)
                .map_err(|e| Error::io(path, e))?;
            if !data.is_empty() || meta.len() > 0 {
                return Ok(Source {
                    len: data.len() as u64,
                    backend: Backend::Streamed {
                        data: Arc::from(data),
                        file,
                        stamp,
                    },
                    path: path.to_path_buf(),
                    chunk: DEFAULT_CHUNK,
                    resolved: None,
                    holes: Default::default(),
                });
            }
        }
        Ok(Source {
            len: meta.len(),
            backend: Backend::File { file, stamp },
            path: path.to_path_buf(),
            chunk: DEFAULT_CHUNK,
            resolved: None,
            holes: Default::default(),
        })
    }

    /// Opens a file through a read-only memory map.
    ///
    /// Reads then copy nothing while scanning, which helps when the same large file is
    /// read many times in one process. The default ([`Source::open`]) is usually as fast
    /// for single reads and has no hazard.
    ///
    /// # Safety
    ///
    /// The caller must ensure that no process truncates or rewrites the file while the
    /// map (this `Source`, and anything built from it) is alive. On Unix, touching a page
    /// of a mapped file that was truncated under the map raises `SIGBUS` and kills the
    /// process; memmap2's contract for `Mmap::map` cannot be upheld for a file that other
    /// processes may change, which is why this constructor is `unsafe` and opt-in. Files
    /// that change in place without shrinking make reads return a mix of old and new
    /// bytes, which [`Source::check_unchanged`] reports afterwards.
    ///
    /// # Errors
    ///
    /// As [`Source::open`]; an empty file falls back to positional reads.
    ///
    /// # Example
    ///
    /// ```
    /// // SAFETY: the file is part of this crate and nothing modifies it during the read.
    /// let src = unsafe { rangeread::Source::open_mmap("Cargo.toml")? };
    /// assert_eq!(src.backend_name(), "mmap");
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub unsafe fn open_mmap(path: impl AsRef<Path>) -> Result<Source> {
        let path = path.as_ref();
        let src = Source::open(path)?;
        let Backend::File { file, stamp } = src.backend else {
            return Ok(src);
        };
        if src.len == 0 {
            return Ok(Source {
                backend: Backend::File { file, stamp },
                ..src
            });
        }
        // SAFETY: the caller promised (per this function's contract) that the file is not
        // truncated while the map lives; the map is read-only.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        let len = map.len() as u64;
        Ok(Source {
            backend: Backend::Mmap { map, file, stamp },
            path: src.path,
            len,
            chunk: src.chunk,
            resolved: src.resolved,
            holes: Default::default(),
        })
    }

    /// Reads from bytes already in memory; `path` is only used in messages and results.
    ///
    /// # Example
    ///
    /// ```
    /// let src = rangeread::Source::from_bytes(b"a\nb\n".to_vec(), "mem.txt");
    /// assert_eq!(src.len(), 4);
    /// ```
    pub fn from_bytes(bytes: impl Into<Arc<[u8]>>, path: impl AsRef<Path>) -> Source {
        Source::memory(bytes.into(), path.as_ref().to_path_buf())
    }

    /// Reads from a source a host brings (see [`RandomAccess`]); `path` is what messages
    /// and results call it (an object's key, say).
    ///
    /// The source is cached by [`crate::IndexCache`] when it has an
    /// [`identity`](RandomAccess::identity), keyed by identity and
    /// [`version`](RandomAccess::version).
    pub fn from_random_access(inner: Arc<dyn RandomAccess>, path: impl AsRef<Path>) -> Source {
        let stamp = Stamp::of_custom(inner.as_ref());
        Source {
            len: inner.len(),
            backend: Backend::Custom { inner, stamp },
            path: path.as_ref().to_path_buf(),
            chunk: DEFAULT_CHUNK,
            resolved: None,
            holes: Default::default(),
        }
    }

    /// A hint that `[start, end)` is about to be read front to back (see
    /// [`RandomAccess::will_read`]); only sources that fetch remotely act on it.
    pub(crate) fn will_read(&self, start: u64, end: u64) {
        if let Backend::Custom { inner, .. } = &self.backend {
            inner.will_read(start.min(self.len), end.min(self.len));
        }
    }

    fn memory(bytes: Arc<[u8]>, path: PathBuf) -> Source {
        Source {
            len: bytes.len() as u64,
            backend: Backend::Memory(bytes),
            path,
            chunk: DEFAULT_CHUNK,
            resolved: None,
            holes: Default::default(),
        }
    }

    /// The length in bytes, fixed when the source was created.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the source has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The path the source was opened with.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path a cache remembers the file by: the resolved path when the source was
    /// opened inside a workspace (two workspaces may hold the same relative path), else
    /// [`Source::path`].
    pub(crate) fn identity_path(&self) -> &Path {
        self.resolved.as_deref().unwrap_or(&self.path)
    }

    pub(crate) fn set_resolved_path(&mut self, resolved: PathBuf) {
        self.resolved = Some(resolved);
    }

    /// `"pread"`, `"memory"`, `"mmap"`, `"streamed"` (a file that reports size 0), or
    /// `"custom"` (a [`RandomAccess`] source, such as an object in object storage).
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Custom { .. } => "custom",
            Backend::File { .. } => "pread",
            Backend::Memory(_) => "memory",
            Backend::Streamed { .. } => "streamed",
            Backend::Mmap { .. } => "mmap",
        }
    }

    /// Whether a host brought this source ([`Source::from_random_access`]): not a local
    /// file or bytes in memory, so reads may cost requests and go one stream at a time.
    pub(crate) fn is_custom(&self) -> bool {
        matches!(self.backend, Backend::Custom { .. })
    }

    /// Sets how many bytes one read or scan step covers. By default 128 KiB. Tiny values
    /// exercise buffer edges in tests; values below 1 are raised to 1.
    pub fn set_chunk_size(&mut self, bytes: usize) {
        self.chunk = bytes.max(1);
    }

    pub(crate) fn chunk_size(&self) -> usize {
        self.chunk
    }

    /// The whole content as a slice, for the in-memory and memory-mapped backends.
    pub(crate) fn as_slice(&self) -> Option<&[u8]> {
        match &self.backend {
            Backend::File { .. } => None,
            Backend::Custom { inner, .. } => inner.as_slice(),
            Backend::Memory(b) | Backend::Streamed { data: b, .. } => Some(b),
            Backend::Mmap { map, .. } => Some(map),
        }
    }

    /// Fills `buf` with the bytes at `offset`. A read that ends early means the file
    /// shrank since it was opened: [`Error::Changed`].
    pub(crate) fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let end = offset.checked_add(buf.len() as u64);
        if end.is_none_or(|e| e > self.len) {
            return Err(self.changed());
        }
        match &self.backend {
            Backend::Custom { inner, .. } => {
                if let Some(s) = inner.as_slice() {
                    let s = s.get(offset as usize..offset as usize + buf.len());
                    buf.copy_from_slice(s.ok_or_else(|| self.changed())?);
                    return Ok(());
                }
                inner
                    .read_exact_at(offset, buf)
                    .map_err(|e| self.custom_error(e))
            }
            Backend::Memory(_) | Backend::Streamed { .. } | Backend::Mmap { .. } => {
                let s = self.as_slice().unwrap_or_default();
                let start = offset as usize;
                buf.copy_from_slice(&s[start..start + buf.len()]);
                Ok(())
            }
            Backend::File { file, .. } => {
                let mut done = 0;
                while done < buf.len() {
                    match read_at(file, &mut buf[done..], offset + done as u64) {
                        Ok(0) => return Err(self.changed()),
                        Ok(n) => done += n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(Error::io(&self.path, e)),
                    }
                }
                Ok(())
            }
        }
    }

    /// Appends the `n` bytes at `offset` to `out`: a file is read straight into `out`'s
    /// spare capacity (no zeroing first), memory is copied once. Errors as
    /// [`Source::read_exact_at`]; `out` is then left as it was.
    pub(crate) fn read_append(&self, offset: u64, n: usize, out: &mut Vec<u8>) -> Result<()> {
        let start = out.len();
        #[cfg(unix)]
        if let Backend::File { file, .. } = &self.backend {
            if offset.checked_add(n as u64).is_none_or(|e| e > self.len) {
                return Err(self.changed());
            }
            out.reserve(n);
            while out.len() - start < n {
                let at = offset + (out.len() - start) as u64;
                let want = n - (out.len() - start);
                let got = match rustix::io::pread(file, &mut out.spare_capacity_mut()[..want], at) {
                    Ok((filled, _)) => filled.len(),
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(e) => {
                        out.truncate(start);
                        return Err(Error::io(&self.path, e.into()));
                    }
                };
                if got == 0 {
                    out.truncate(start);
                    return Err(self.changed());
                }
                // SAFETY: `pread` initialized the first `got` bytes of the spare capacity
                // (rustix hands back exactly the filled part), and `got <= want` fits in it.
                unsafe { out.set_len(out.len() + got) };
            }
            return Ok(());
        }
        out.resize(start + n, 0);
        let read = self.read_exact_at(offset, &mut out[start..]);
        if read.is_err() {
            out.truncate(start);
        }
        read
    }

    /// The holes of a sparse file: sorted, disjoint ranges `[start, end)` that read as
    /// zeros and take no disk space, found once with `SEEK_DATA` / `SEEK_HOLE` (at most
    /// [`MAX_HOLES`]; a file with more is treated as dense past them). Empty for sources
    /// in memory and where the platform or file system does not tell.
    ///
    /// A hole holds no line feed in any encoding, so walkers skip them: the cost of a
    /// read of a sparse file follows its data, not its apparent size.
    pub(crate) fn holes(&self) -> &[(u64, u64)] {
        self.holes.get_or_init(|| match &self.backend {
            Backend::File { file, .. } | Backend::Mmap { file, .. } => find_holes(file, self.len),
            Backend::Memory(_) | Backend::Streamed { .. } | Backend::Custom { .. } => Vec::new(),
        })
    }

    /// The hole that holds the byte at `pos`, if any.
    pub(crate) fn hole_at(&self, pos: u64) -> Option<(u64, u64)> {
        let holes = self.holes();
        let i = holes.partition_point(|&(_, e)| e <= pos);
        holes.get(i).copied().filter(|&(s, _)| s <= pos)
    }

    /// The start of the first hole at or after `pos` (the source's length if none).
    pub(crate) fn next_hole(&self, pos: u64) -> u64 {
        let holes = self.holes();
        let i = holes.partition_point(|&(_, e)| e <= pos);
        holes.get(i).map_or(self.len, |&(s, _)| s.max(pos))
    }

    /// The end of the last hole that ends at or before `pos` (0 if none).
    pub(crate) fn prev_hole_end(&self, pos: u64) -> u64 {
        let holes = self.holes();
        let i = holes.partition_point(|&(_, e)| e <= pos);
        i.checked_sub(1).map_or(0, |i| holes[i].1)
    }

    /// The byte at `pos` (what UTF-8 snapping looks at).
    pub(crate) fn byte_at(&self, pos: u64) -> Result<u8> {
        let mut b = [0u8];
        self.read_exact_at(pos, &mut b)?;
        Ok(b[0])
    }

    /// Calls `f` with the bytes `[start, end)`, without copying when the backend holds
    /// them in memory; otherwise through `scratch`.
    pub(crate) fn with_range<R>(
        &self,
        start: u64,
        end: u64,
        scratch: &mut Vec<u8>,
        f: impl FnOnce(&[u8]) -> R,
    ) -> Result<R> {
        debug_assert!(start <= end);
        if end > self.len {
            return Err(self.changed());
        }
        if let Some(s) = self.as_slice() {
            return Ok(f(&s[start as usize..end as usize]));
        }
        let n = usize::try_from(end - start).map_err(|_| self.changed())?;
        // Read into a 64-byte aligned window of `scratch`: the kernel's copy into a
        // misaligned buffer ran at half speed on the benchmark machine (the whole
        // 90%-deep read took 0.45 s of system time instead of 0.13 s). The buffer is
        // only grown, never cleared, so that reused scratch costs no memset.
        let need = n + ALIGN - 1;
        if scratch.len() < need {
            scratch.resize(need, 0);
        }
        let off = scratch.as_ptr().align_offset(ALIGN).min(ALIGN - 1);
        let buf = &mut scratch[off..off + n];
        self.read_exact_at(start, buf)?;
        Ok(f(buf))
    }

    /// Checks that the file still is in the state it was in when the source was created
    /// (same size, modification and change times on the open handle).
    ///
    /// # Errors
    ///
    /// [`Error::Changed`] when it is not; in-memory sources never change.
    pub fn check_unchanged(&self) -> Result<()> {
        let (file, stamp) = match &self.backend {
            Backend::Memory(_) => return Ok(()),
            Backend::Custom { inner, .. } => {
                return inner.check_unchanged().map_err(|e| self.custom_error(e))
            }
            Backend::File { file, stamp }
            | Backend::Mmap { file, stamp, .. }
            | Backend::Streamed { file, stamp, .. } => (file, stamp),
        };
        let meta = file.metadata().map_err(|e| Error::io(&self.path, e))?;
        if Stamp::of(&meta) == *stamp {
            Ok(())
        } else {
            Err(self.changed())
        }
    }

    /// The state of the file when the source was created; `None` for bytes in memory.
    pub(crate) fn stamp(&self) -> Option<&Stamp> {
        match &self.backend {
            Backend::Memory(_) => None,
            Backend::Custom { stamp, .. }
            | Backend::File { stamp, .. }
            | Backend::Mmap { stamp, .. }
            | Backend::Streamed { stamp, .. } => Some(stamp),
        }
    }

    /// Whether the bytes come from a file that reported size 0 and was streamed.
    pub(crate) fn is_streamed(&self) -> bool {
        matches!(self.backend, Backend::Streamed { .. })
    }

    pub(crate) fn changed(&self) -> Error {
        Error::Changed {
            path: self.path.clone(),
        }
    }

    /// The crate's error for an I/O error of a [`RandomAccess`] source.
    fn custom_error(&self, e: io::Error) -> Error {
        match e.kind() {
            io::ErrorKind::UnexpectedEof | io::ErrorKind::StaleNetworkFileHandle => self.changed(),
            io::ErrorKind::NotFound => Error::NotFound {
                path: self.path.clone(),
            },
            io::ErrorKind::PermissionDenied => Error::PermissionDenied {
                path: self.path.clone(),
            },
            _ => Error::io(&self.path, e),
        }
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
            Backend::File { .. } | Backend::Mmap { .. } => {
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

fn check_regular(meta: &std::fs::Metadata, path: &Path) -> Result<()> {
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
    let kind = {
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
    };
    #[cfg(not(unix))]
    let kind = FileKind::Other;
    Err(Error::NotRegularFile {
        path: path.to_path_buf(),
        kind,
    })
}

/// Opens read-only without blocking: `O_NONBLOCK` makes opening a FIFO return at once
/// (the type check on the handle then refuses it) and `O_NOCTTY` keeps a terminal device
/// from becoming the controlling terminal.
pub(crate) fn open_nonblocking(path: &Path) -> Result<File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        opts.custom_flags(flags.bits() as i32);
    }
    match crate::workspace::open_checked(path, &opts) {
        Ok(f) => Ok(f),
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

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// The holes of `file` (of `len` bytes), by `SEEK_DATA` / `SEEK_HOLE`; none where the
/// platform lacks them or the file system does not report holes.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "macos"
))]
fn find_holes(file: &File, len: u64) -> Vec<(u64, u64)> {
    use rustix::fs::{seek, SeekFrom};
    let mut holes = Vec::new();
    let mut pos = 0u64;
    while pos < len && holes.len() < MAX_HOLES {
        // The next byte of data; none (ENXIO) means the rest is a hole.
        let data = match seek(file, SeekFrom::Data(pos)) {
            Ok(d) => d.min(len),
            Err(rustix::io::Errno::NXIO) => len,
            Err(_) => break,
        };
        if data > pos {
            holes.push((pos, data));
        }
        if data >= len {
            break;
        }
        match seek(file, SeekFrom::Hole(data)) {
            Ok(h) if h > data => pos = h,
            _ => break,
        }
    }
    holes
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "macos"
)))]
fn find_holes(_file: &File, _len: u64) -> Vec<(u64, u64)> {
    Vec::new()
}

/// Whether `file` lives on a kernel pseudo file system (procfs, sysfs, debugfs, tracefs,
/// securityfs, configfs, cgroup), whose sizes say nothing of the content: sysfs reports
/// 4096 for a file of 4 bytes, procfs 0.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn on_pseudo_fs(file: &File) -> bool {
    const PSEUDO: &[u64] = &[
        0x9fa0,      // proc
        0x6265_6572, // sysfs
        0x6462_6720, // debugfs
        0x7472_6163, // tracefs
        0x7363_6673, // securityfs
        0x6265_6570, // configfs
        0x0027_e0eb, // cgroup
        0x6367_7270, // cgroup2
    ];
    rustix::fs::fstatfs(file).is_ok_and(|s| PSEUDO.contains(&(s.f_type as u64)))
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn on_pseudo_fs(_file: &File) -> bool {
    false
}
