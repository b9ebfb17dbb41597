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

use crate::error::{Error, Result};
use crate::fsopen::SpecialFiles;
use crate::fsopen::{check_regular, open_nonblocking};
use crate::pool::BufferPool;

mod platform;
mod random_access;
mod stamp;
mod universal;

use platform::{find_holes, may_be_pseudo, may_have_holes, read_at, read_small};
pub use random_access::RandomAccess;
pub(crate) use stamp::Stamp;

/// Default size of one positional read while scanning (128 KiB). The buffer must stay in
/// the CPU's L2 cache between the copy out of the page cache and the SIMD count: on the
/// benchmark machine 128 KiB counts a cached 1 GiB file in 0.13 s, 256 KiB and more in
/// 0.45-0.6 s (see docs/performance.md).
pub(crate) const DEFAULT_CHUNK: usize = 128 << 10;

/// The most holes of a sparse file that are remembered.
pub(crate) const MAX_HOLES: usize = 4096;

/// Alignment of the buffers positional reads copy into (a cache line).
const ALIGN: usize = 64;

/// Files up to this size (8 KiB) are read whole, in one read, when they are opened:
/// classifying one reads that much anyway (the classification's sample is as large, which
/// the classify step asserts), and every later step (lines, content, the final-newline
/// check) is then served from memory instead of a positional read of a few bytes each.
pub(crate) const READ_WHOLE_UP_TO: u64 = 8 << 10;

/// Upper bound for streaming a regular file that reports size 0 when no byte budget
/// is set (64 MiB): such files (`/proc`, `/sys`) are small in practice, but the bound
/// keeps a misbehaving one from exhausting memory.
pub(crate) const STREAM_HARD_LIMIT: u64 = 64 << 20;

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
    /// A small regular file, read whole when it was opened (up to [`READ_WHOLE_UP_TO`]).
    /// It is a file like [`Backend::File`] in every other way (cached, persisted, checked
    /// for changes on its handle).
    Read {
        data: Vec<u8>,
        file: File,
        stamp: Stamp,
    },
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
        Source::open_with(path.as_ref(), limit, SpecialFiles::NeverOpened, None)
    }

    /// Like [`Source::open_streaming_limit`], with what may happen to a name that is not a
    /// regular file ([`crate::Reader::special_files`]), and the host's pool of spent
    /// buffers to read a small file into ([`Source::take_read_buffer`] hands it back).
    pub(crate) fn open_with(
        path: &Path,
        limit: u64,
        special: SpecialFiles,
        pool: Option<&BufferPool>,
    ) -> Result<Source> {
        let (file, looked) = open_nonblocking(path, special)?;
        Source::from_file_streaming_limit(file, looked, path, limit, pool)
    }

    /// Wraps a file that is already open (for example by a workspace that confines paths),
    /// checking its type on the handle as [`Source::open`] does.
    ///
    /// # Errors
    ///
    /// As [`Source::open`].
    pub fn from_file(file: File, path: impl AsRef<Path>) -> Result<Source> {
        Source::from_file_streaming_limit(file, None, path.as_ref(), STREAM_HARD_LIMIT, None)
    }

    /// A source over `file`, whose state is `looked` when the opener looked at it already
    /// (on the `O_PATH` handle of the same inode), else asked here. A small file is read
    /// whole into a buffer of `pool`, when there is one.
    pub(crate) fn from_file_streaming_limit(
        file: File,
        looked: Option<std::fs::Metadata>,
        path: &Path,
        limit: u64,
        pool: Option<&BufferPool>,
    ) -> Result<Source> {
        let meta = match looked {
            Some(meta) => meta,
            None => {
                crate::fsopen::fs_call();
                file.metadata().map_err(|e| Error::io(path, e))?
            }
        };
        check_regular(&meta, path)?;
        let stamp = Stamp::of(&meta);
        let len = meta.len();
        let pseudo = len == 0 || may_be_pseudo(&meta, &file);
        if !pseudo && len <= READ_WHOLE_UP_TO {
            let spare = pool.map(BufferPool::take).unwrap_or_default();
            if let Some(data) = read_small(&file, len, spare).map_err(|e| Error::io(path, e))? {
                return Ok(Source {
                    len: data.len() as u64,
                    backend: Backend::Read { data, file, stamp },
                    path: path.to_path_buf(),
                    chunk: DEFAULT_CHUNK,
                    resolved: None,
                    holes: std::sync::OnceLock::from(Vec::new()),
                });
            }
            // More than it said it holds: it grew meanwhile, or its size says nothing.
            // Streamed, as a pseudo file is.
        }
        let holes = std::sync::OnceLock::new();
        if !may_have_holes(&meta) {
            // Every byte has its block: no hole to look for.
            let _ = holes.set(Vec::new());
        }
        if !pseudo && len > READ_WHOLE_UP_TO {
            return Ok(Source {
                len,
                backend: Backend::File { file, stamp },
                path: path.to_path_buf(),
                chunk: DEFAULT_CHUNK,
                resolved: None,
                holes,
            });
        }
        Source::stream(file, path, limit, stamp, len)
    }

    /// A file whose size says nothing of its content (pseudo files report 0, as procfs
    /// does, or a page, as sysfs does), streamed into memory, at most `limit` bytes plus
    /// one so that a reader can tell there was more.
    fn stream(mut file: File, path: &Path, limit: u64, stamp: Stamp, len: u64) -> Result<Source> {
        let cap = limit.saturating_add(1);
        let mut data = Vec::new();
        (&mut file)
            .take(cap)
            .read_to_end(&mut data)
            .map_err(|e| Error::io(path, e))?;
        if data.is_empty() && len == 0 {
            // A real empty file: positional reads (nothing to read), cached as any file.
            return Ok(Source {
                len: 0,
                backend: Backend::File { file, stamp },
                path: path.to_path_buf(),
                chunk: DEFAULT_CHUNK,
                resolved: None,
                holes: Default::default(),
            });
        }
        Ok(Source {
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
            Backend::Read { .. } => "pread",
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
    ///
    /// A small file that was read whole when opened goes back to positional reads, so
    /// that the chunk size applies to it as to any file.
    pub fn set_chunk_size(&mut self, bytes: usize) {
        self.chunk = bytes.max(1);
        let backend = std::mem::replace(&mut self.backend, Backend::Memory(Arc::from([])));
        self.backend = match backend {
            Backend::Read { file, stamp, .. } => Backend::File { file, stamp },
            other => other,
        };
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
            Backend::Read { data, .. } => Some(data),
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
            Backend::Memory(_)
            | Backend::Streamed { .. }
            | Backend::Read { .. }
            | Backend::Mmap { .. } => {
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
                crate::fsopen::fs_call();
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
            Backend::Memory(_)
            | Backend::Streamed { .. }
            | Backend::Read { .. }
            | Backend::Custom { .. } => Vec::new(),
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
            | Backend::Streamed { file, stamp, .. }
            | Backend::Read { file, stamp, .. } => (file, stamp),
        };
        crate::fsopen::fs_call();
        let meta = file.metadata().map_err(|e| Error::io(&self.path, e))?;
        if Stamp::of(&meta) == *stamp {
            Ok(())
        } else {
            Err(self.changed())
        }
    }

    /// Whether the whole file was read into memory when the source was opened, in one
    /// read of one byte more than its size.
    pub(crate) fn read_whole_at_open(&self) -> bool {
        matches!(self.backend, Backend::Read { .. })
    }

    /// The buffer a small file was read into, for the next read to fill (the source is
    /// spent: only its owner's drop calls this). `None` for other backends.
    pub(crate) fn take_read_buffer(&mut self) -> Option<Vec<u8>> {
        match &mut self.backend {
            Backend::Read { data, .. } => Some(std::mem::take(data)),
            _ => None,
        }
    }

    /// The state of the file when the source was created; `None` for bytes in memory.
    pub(crate) fn stamp(&self) -> Option<&Stamp> {
        match &self.backend {
            Backend::Memory(_) => None,
            Backend::Custom { stamp, .. }
            | Backend::File { stamp, .. }
            | Backend::Mmap { stamp, .. }
            | Backend::Streamed { stamp, .. }
            | Backend::Read { stamp, .. } => Some(stamp),
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

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests;
