//! Persistent line indexes: the directory behind [`IndexCache::with_dir`].
//!
//! A one-shot CLI or a restarted server would otherwise count a large file's lines again
//! for every deep read. With a directory, the sparse [`LineIndex`] of a file (one `u64`
//! per 64 KiB block: 128 KiB for 1 GiB) is written there once it covers enough of the
//! file, and a later process loads it instead of scanning.
//!
//! # Keys
//!
//! An entry is keyed by the source's *identity* (for a local file, `file:` and its
//! absolute path with links resolved) and *version* (device, inode, length, modification
//! and change times in nanoseconds). The file name is a hash of the identity only, so a
//! new version of a file takes its old version's place. Bytes in memory and files that
//! report size 0 (`/proc`) have no key and are never stored.
//!
//! # Trust
//!
//! Nothing read from the directory is trusted until all of this holds: the magic bytes
//! and format version, an xxh3-64 checksum over everything before it, the identity and
//! version equal to the source's, the block size and length equal to the reader's, and
//! an index a scan could have produced (one checkpoint per whole block scanned, never
//! decreasing, no more line feeds than bytes). The text layout (encoding and byte order
//! mark) is checked by the document after it classifies the file: an index built for
//! another layout is not used. A stale entry (same file, other version) or a corrupt one
//! is ignored and removed; an entry of another identity, format version or block size
//! is ignored and left to its owner. None of this is ever an error to the caller: the
//! read scans as it would without a directory.
//!
//! # Writes
//!
//! An index is written when it covers at least [`PERSIST_MIN`] bytes and either became
//! complete or grew by [`PERSIST_STEP`] since this process last wrote or loaded it.
//! Writes go to a temporary file in the same directory (created exclusively, mode 0600 on
//! Unix), are flushed with `fsync` and renamed over the entry, so a reader sees the old
//! entry or the new one, never a part; two writers each rename a whole file and the last
//! one wins. After a write the directory is brought within its byte budget by removing
//! the entries used least recently (by modification time, which a load renews);
//! temporary files older than an hour (left by a crashed writer) are removed too.
//!
//! Besides the index, an entry keeps the first bytes of the file (at most 8 KiB, the
//! classification sample): a later process classifies the file from them without reading
//! it, which for an object in object storage saves a request (with the stored size and
//! version, a deep read of an object is then one conditional request). The verdict itself
//! is recomputed, so a classifier that changes between versions of the crate needs no
//! migration. Landmarks and session state stay in memory.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::index::LineIndex;
use crate::source::Source;

mod format;

use format::{decode, encode, max_entry_size, parse, Reject};
#[cfg(feature = "pdf")]
use format::{decode_document, encode_document, max_document_size};

#[cfg(doc)]
use crate::IndexCache;

/// An index is stored once it covers at least this many bytes of its file (1 MiB): below
/// that, counting is cheaper than opening a file.
pub(crate) const PERSIST_MIN: u64 = 1 << 20;

/// An index that is not complete is written again when it grew by this many bytes
/// (32 MiB, some 4 ms of counting) since it was last written or loaded.
pub(crate) const PERSIST_STEP: u64 = 32 << 20;

/// The ending of entry file names.
const EXT: &str = "rrindex";

/// Temporary files of writers that have been gone this long are removed.
const ORPHAN_AGE: Duration = Duration::from_secs(3600);

/// The most writes this process remembers (per key) before it forgets them all.
const MAX_REMEMBERED: usize = 1 << 16;

/// What a stored index is stored under: which source it describes (`identity`) and which
/// state of it (`version`). Both are opaque bytes compared for equality; neither assumes
/// a local file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PersistKey {
    /// Which source: for a local file `file:` and its resolved absolute path.
    pub(crate) identity: Vec<u8>,
    /// Which state of it: when it differs from the stored one, the entry is stale.
    pub(crate) version: Vec<u8>,
}

impl PersistKey {
    /// The entry's file name: a hash of the identity only, so that a new version of a
    /// source replaces the old one's entry.
    fn file_name(&self) -> String {
        file_name_of(&self.identity)
    }

    /// Identity and version together, for remembering what was written.
    fn hash(&self) -> u128 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&(self.identity.len() as u64).to_le_bytes());
        h.update(&self.identity);
        h.update(&self.version);
        h.digest128()
    }
}

impl Source {
    /// The key this source's index is stored under in an index directory, or `None` when
    /// it must not be stored: bytes in memory, a streamed pseudo file, a platform that
    /// does not say which file a handle is (no inode), or a path that no longer resolves
    /// to the file that was opened.
    ///
    /// A local file is identified by its absolute path with links resolved, and its
    /// version is its device, inode, length, modification time and change time (in
    /// nanoseconds; the change time cannot be set back by any user), so a file appended
    /// to, rewritten (even with the same size and a restored modification time) or
    /// replaced by a rename has another version.
    pub(crate) fn persist_key(&self) -> Option<PersistKey> {
        // A source a host brought (an object in object storage): its own identity (a URL)
        // and version (an ETag), when it has both.
        if self.is_custom() {
            let identity = crate::RandomAccess::identity(self)?;
            let version = crate::RandomAccess::version(self)?;
            return Some(PersistKey {
                identity: source_identity(&identity),
                version: version.into_bytes(),
            });
        }
        let stamp = self.stamp()?;
        if self.is_streamed() {
            return None;
        }
        let (dev, ino) = stamp.id?;
        let resolved = std::fs::canonicalize(self.identity_path()).ok()?;
        // The path must still name the file that was opened (not a file renamed over it
        // since, nor a local file that happens to share the name of a source that is
        // not one): otherwise the entry would be filed under another file's name.
        if file_id(&resolved)? != (dev, ino) {
            return None;
        }
        let mut identity = b"file:".to_vec();
        identity.extend_from_slice(resolved.as_os_str().as_encoded_bytes());
        let mtime = stamp
            .modified
            .map_or_else(|| "none".to_string(), |t| nanos(t).to_string());
        let ctime = stamp
            .changed_at()
            .map_or_else(|| "none".to_string(), |(s, ns)| format!("{s}.{ns:09}"));
        let version = format!(
            "dev={dev} ino={ino} len={} mtime={mtime} ctime={ctime}",
            stamp.len
        );
        Some(PersistKey {
            identity,
            version: version.into_bytes(),
        })
    }
}

/// The file name of the entry of `identity`.
fn file_name_of(identity: &[u8]) -> String {
    format!("{:032x}.{EXT}", xxhash_rust::xxh3::xxh3_128(identity))
}

/// The file name of what a document reader of `kind` stored for the source of `key`.
#[cfg(feature = "pdf")]
fn document_file_name(key: &PersistKey, kind: &str) -> String {
    format!(
        "{:032x}.{kind}.{EXT}",
        xxhash_rust::xxh3::xxh3_128(&key.identity)
    )
}

/// The stored identity of a source a host brought, whose own identity is `identity`.
pub(crate) fn source_identity(identity: &str) -> Vec<u8> {
    [b"source:".as_slice(), identity.as_bytes()].concat()
}

/// `(device, inode)` of the file at `path`.
#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// Nanoseconds since the Unix epoch (negative before it).
fn nanos(t: SystemTime) -> i128 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    }
}

/// The directory of stored indexes, bounded in bytes.
#[derive(Debug)]
pub(crate) struct IndexDir {
    dir: PathBuf,
    budget: u64,
    /// How far the index of each (identity, version) was covered when this process last
    /// wrote or loaded it: what tells whether it advanced enough to be written again.
    remembered: Mutex<HashMap<u128, u64>>,
}

/// What a load found.
#[derive(Debug)]
pub(crate) enum Loaded {
    /// A verified index, and the first bytes of the file it was built from (empty when
    /// the writer had none).
    Index(LineIndex, Vec<u8>),
    /// No entry for the identity.
    Absent,
    /// An entry that failed a check and was ignored (and removed when stale or corrupt).
    Rejected,
}

/// What a store did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stored {
    /// Nothing to write: too small, or not advanced enough since the last write.
    Skipped,
    /// Written, and this many entries removed to stay within the budget.
    Written { evicted: u64 },
    /// The write failed (the directory is not writable, the disk is full): the read is
    /// not affected, and the same index is not tried again.
    Failed,
}

impl IndexDir {
    /// The directory at `dir` (created, with its parents, when missing; mode 0700 on
    /// Unix), holding at most `budget` bytes of entries.
    pub(crate) fn open(dir: &Path, budget: u64) -> std::io::Result<IndexDir> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir)?;
        if !std::fs::metadata(dir)?.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                "not a directory",
            ));
        }
        Ok(IndexDir {
            dir: dir.to_path_buf(),
            budget,
            remembered: Mutex::new(HashMap::new()),
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn budget(&self) -> u64 {
        self.budget
    }

    fn remember(&self, key: &PersistKey, scanned: u64) {
        let mut map = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_REMEMBERED {
            map.clear();
        }
        map.insert(key.hash(), scanned);
    }

    fn remembered(&self, key: &PersistKey) -> u64 {
        let map = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&key.hash()).copied().unwrap_or(0)
    }

    /// The stored index of `key` for a source of `len` bytes read with `block`-byte
    /// blocks, if there is one that passes every check.
    pub(crate) fn load(&self, key: &PersistKey, len: u64, block: u64) -> Loaded {
        let path = self.dir.join(key.file_name());
        let found = self.load_entry(&path, max_entry_size(key, len, block), |bytes| {
            let (parts, sample) = decode(bytes, key, len, block)?;
            let index = LineIndex::from_parts(parts).ok_or(Reject::Corrupt)?;
            Ok((index, sample))
        });
        match found {
            None => Loaded::Absent,
            Some(Ok((index, sample))) => {
                self.remember(key, index.scanned());
                Loaded::Index(index, sample)
            }
            Some(Err(_)) => Loaded::Rejected,
        }
    }

    /// The entry at `path` (at most `max` bytes) as `decode` reads it, or `None` when
    /// there is none. An entry used is renewed for the least-recently-used order of the
    /// budget; a stale or corrupt one is removed; one of another owner, or that cannot be
    /// read, is left alone.
    fn load_entry<T>(
        &self,
        path: &Path,
        max: usize,
        decode: impl FnOnce(&[u8]) -> Result<T, Reject>,
    ) -> Option<Result<T, Reject>> {
        let mut file = open_entry(path)?;
        let mut bytes = Vec::new();
        let verdict = match (&mut file).take(max as u64 + 1).read_to_end(&mut bytes) {
            Err(_) => Err(Reject::Foreign),
            Ok(_) if bytes.len() > max => Err(Reject::Corrupt),
            Ok(_) => decode(&bytes),
        };
        match verdict {
            Ok(_) => {
                let _ = file.set_modified(SystemTime::now());
            }
            Err(Reject::Foreign) => {}
            Err(Reject::Stale | Reject::Corrupt) => remove_if_same(&file, path),
        }
        Some(verdict)
    }

    /// The length and version of the source stored under `identity`, from an entry that
    /// is whole (checksum verified): what lets a source that is expensive to open (an
    /// object) be opened at that version without asking its store. Whether the entry
    /// still describes the source is for the source's first read to find out.
    #[cfg(feature = "object-store")]
    pub(crate) fn stored_version(&self, identity: &[u8]) -> Option<(u64, Vec<u8>)> {
        let path = self.dir.join(file_name_of(identity));
        let file = open_entry(&path)?;
        let mut bytes = Vec::new();
        file.take(self.budget.saturating_add(1))
            .read_to_end(&mut bytes)
            .ok()?;
        let entry = parse(&bytes).ok()?;
        (entry.identity == identity).then(|| (entry.parts.len, entry.version.to_vec()))
    }

    /// Removes the entry of `key` if it holds that very version: the source was found
    /// changed, and its entry must not be offered as its version again.
    pub(crate) fn remove_version(&self, key: &PersistKey) {
        let path = self.dir.join(key.file_name());
        let Some(mut file) = open_entry(&path) else {
            return;
        };
        let mut bytes = Vec::new();
        if (&mut file)
            .take(self.budget.saturating_add(1))
            .read_to_end(&mut bytes)
            .is_err()
        {
            return;
        }
        if parse(&bytes).is_ok_and(|e| e.identity == key.identity && e.version == key.version) {
            remove_if_same(&file, &path);
        }
    }

    /// Writes the index of `key`, with the file's first bytes (`sample`, the
    /// classification sample), when it advanced enough since this process last wrote or
    /// loaded it (see the module docs), then keeps the directory within its budget.
    pub(crate) fn store(&self, key: &PersistKey, index: &LineIndex, sample: &[u8]) -> Stored {
        let scanned = index.scanned();
        let before = self.remembered(key);
        let advanced =
            scanned > before && (index.is_complete() || scanned - before >= PERSIST_STEP);
        if scanned < PERSIST_MIN || !advanced {
            return Stored::Skipped;
        }
        let bytes = encode(key, &index.to_parts(), sample);
        if bytes.len() as u64 > self.budget {
            return Stored::Skipped;
        }
        // Not tried again for this index, written or not: a directory that refuses
        // writes costs one failed attempt per step, not one per read.
        self.remember(key, scanned);
        let name = key.file_name();
        match self.write_atomically(&name, &bytes) {
            Ok(()) => Stored::Written {
                evicted: self.evict(&name),
            },
            Err(_) => Stored::Failed,
        }
    }

    #[cfg(feature = "pdf")]
    /// What a document reader of `kind` (`pdf`) stored for `key`: its own bytes, at most
    /// `max_payload` of them, if the entry passes every check (see the module docs:
    /// stale and corrupt entries are removed). Kept beside the source's line index,
    /// under its own name, within the same budget.
    pub(crate) fn load_document(
        &self,
        key: &PersistKey,
        kind: &str,
        max_payload: usize,
    ) -> Option<Vec<u8>> {
        let path = self.dir.join(document_file_name(key, kind));
        let max = max_document_size(key, max_payload);
        let found = self.load_entry(&path, max, |bytes| {
            decode_document(bytes, key, kind).map(<[u8]>::to_vec)
        });
        found?.ok()
    }

    #[cfg(feature = "pdf")]
    /// Writes what a document reader of `kind` learned of the source of `key`
    /// (atomically, as line indexes are written), then keeps the directory within its
    /// budget.
    pub(crate) fn store_document(&self, key: &PersistKey, kind: &str, payload: &[u8]) -> Stored {
        let bytes = encode_document(key, kind, payload);
        if bytes.len() as u64 > self.budget {
            return Stored::Skipped;
        }
        let name = document_file_name(key, kind);
        match self.write_atomically(&name, &bytes) {
            Ok(()) => Stored::Written {
                evicted: self.evict(&name),
            },
            Err(_) => Stored::Failed,
        }
    }

    /// Writes `bytes` to a new temporary file, flushes it to disk and renames it to
    /// `name`: readers and other writers see a whole entry or none.
    fn write_atomically(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let tmp = self.dir.join(format!(
            ".{name}.{}.{}.tmp",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        let written = opts.open(&tmp).and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()?;
            std::fs::rename(&tmp, self.dir.join(name))
        });
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    /// Removes the least recently used entries (never `keep`) until the directory holds
    /// at most its budget, and temporary files of writers gone for an hour. Returns how
    /// many entries were removed.
    fn evict(&self, keep: &str) -> u64 {
        let Ok(list) = std::fs::read_dir(&self.dir) else {
            return 0;
        };
        let now = SystemTime::now();
        let mut entries = Vec::new();
        let mut total = 0u64;
        for e in list.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let Ok(meta) = e.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(UNIX_EPOCH);
            if name.starts_with('.') && name.ends_with(".tmp") {
                if now
                    .duration_since(modified)
                    .is_ok_and(|age| age > ORPHAN_AGE)
                {
                    let _ = std::fs::remove_file(e.path());
                }
                continue;
            }
            if !name.ends_with(EXT) {
                continue;
            }
            total += meta.len();
            if name != keep {
                entries.push((modified, meta.len(), e.path()));
            }
        }
        entries.sort_by_key(|(m, _, _)| *m);
        let mut evicted = 0;
        for (_, size, path) in entries {
            if total <= self.budget {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                evicted += 1;
            }
            total = total.saturating_sub(size);
        }
        evicted
    }
}

/// Opens an entry for reading: a regular file only, never through a link, and without
/// blocking (a FIFO put in its place would otherwise hang the read).
fn open_entry(path: &Path) -> Option<File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOFOLLOW;
        opts.custom_flags(flags.bits() as i32);
    }
    let file = opts.open(path).ok()?;
    file.metadata().ok()?.is_file().then_some(file)
}

/// Removes the entry at `path` if it still is the file that was read (another process
/// may have renamed a fresh entry over it since).
fn remove_if_same(file: &File, path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let same = match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        };
        if !same {
            return;
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    let _ = std::fs::remove_file(path);
}
