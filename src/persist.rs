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
//! Only the index is stored: the classification is recomputed from the first 8 KiB of
//! the file (a few microseconds), and landmarks and session state stay in memory.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::index::{IndexParts, LineIndex};
use crate::source::Source;
use crate::text::Encoding;

#[cfg(doc)]
use crate::IndexCache;

/// An index is stored once it covers at least this many bytes of its file (1 MiB): below
/// that, counting is cheaper than opening a file.
pub(crate) const PERSIST_MIN: u64 = 1 << 20;

/// An index that is not complete is written again when it grew by this many bytes
/// (32 MiB, some 4 ms of counting) since it was last written or loaded.
pub(crate) const PERSIST_STEP: u64 = 32 << 20;

/// The first bytes of every entry.
const MAGIC: &[u8; 8] = b"RRINDEX\n";

/// The layout of the entries; entries of another format version are ignored.
const FORMAT_VERSION: u32 = 1;

/// The ending of entry file names.
const EXT: &str = "rrindex";

/// Temporary files of writers that have been gone this long are removed.
const ORPHAN_AGE: Duration = Duration::from_secs(3600);

/// The most writes this process remembers (per key) before it forgets them all.
const MAX_REMEMBERED: usize = 1 << 16;

/// Bounds on the variable fields, so that a corrupt length cannot ask for much memory.
const MAX_IDENTITY: usize = 64 << 10;
const MAX_VERSION: usize = 4 << 10;
const MAX_ENCODING: usize = 64;

/// Bytes of an entry besides its variable fields and checkpoints.
const FIXED: usize = 8 + 4 + 4 + 5 * 8 + 3 * 4 + 8 + 8;

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
        format!("{:032x}.{EXT}", xxhash_rust::xxh3::xxh3_128(&self.identity))
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
                identity: [b"source:".as_slice(), identity.as_bytes()].concat(),
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
    /// A verified index.
    Index(LineIndex),
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

/// Why an entry was not trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reject {
    /// Of another identity, format version or block size: not ours to remove.
    Foreign,
    /// The same source at another version.
    Stale,
    /// Truncated, altered, or not an index a scan could produce.
    Corrupt,
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
        let Some(mut file) = open_entry(&path) else {
            return Loaded::Absent;
        };
        let max = max_entry_size(key, len, block);
        let mut bytes = Vec::new();
        if (&mut file)
            .take(max as u64 + 1)
            .read_to_end(&mut bytes)
            .is_err()
        {
            return Loaded::Rejected;
        }
        let verdict = if bytes.len() > max {
            Err(Reject::Corrupt)
        } else {
            decode(&bytes, key, len, block)
                .and_then(|parts| LineIndex::from_parts(parts).ok_or(Reject::Corrupt))
        };
        match verdict {
            Ok(index) => {
                // Renews the entry for the least-recently-used order of the budget.
                let _ = file.set_modified(SystemTime::now());
                self.remember(key, index.scanned());
                Loaded::Index(index)
            }
            Err(Reject::Foreign) => Loaded::Rejected,
            Err(Reject::Stale | Reject::Corrupt) => {
                remove_if_same(&file, &path);
                Loaded::Rejected
            }
        }
    }

    /// Writes the index of `key` when it advanced enough since this process last wrote
    /// or loaded it (see the module docs), then keeps the directory within its budget.
    pub(crate) fn store(&self, key: &PersistKey, index: &LineIndex) -> Stored {
        let scanned = index.scanned();
        let before = self.remembered(key);
        let advanced =
            scanned > before && (index.is_complete() || scanned - before >= PERSIST_STEP);
        if scanned < PERSIST_MIN || !advanced {
            return Stored::Skipped;
        }
        let bytes = encode(key, &index.to_parts());
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

/// The largest entry a key and a source of `len` bytes can have.
fn max_entry_size(key: &PersistKey, len: u64, block: u64) -> usize {
    let checkpoints = (len / block.max(1)).saturating_add(1).saturating_mul(8);
    FIXED
        .saturating_add(key.identity.len())
        .saturating_add(key.version.len())
        .saturating_add(MAX_ENCODING)
        .saturating_add(usize::try_from(checkpoints).unwrap_or(usize::MAX))
}

/// An entry's bytes. All integers are little-endian:
///
/// ```text
/// magic "RRINDEX\n" | format u32 | flags u32 (bit 0: last_is_lf)
/// block u64 | len u64 | scanned u64 | newlines u64 | text_start u64
/// encoding_len u32 | identity_len u32 | version_len u32 | checkpoint count u64
/// encoding name | identity | version | checkpoints (u64 each)
/// xxh3-64 of everything before it (u64)
/// ```
fn encode(key: &PersistKey, p: &IndexParts) -> Vec<u8> {
    let enc = p.encoding.name().as_bytes();
    let mut out = Vec::with_capacity(
        FIXED + enc.len() + key.identity.len() + key.version.len() + p.checkpoints.len() * 8,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&u32::from(p.last_is_lf).to_le_bytes());
    for v in [p.block, p.len, p.scanned, p.newlines, p.text_start] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for n in [enc.len(), key.identity.len(), key.version.len()] {
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    out.extend_from_slice(&(p.checkpoints.len() as u64).to_le_bytes());
    out.extend_from_slice(enc);
    out.extend_from_slice(&key.identity);
    out.extend_from_slice(&key.version);
    for c in &p.checkpoints {
        out.extend_from_slice(&c.to_le_bytes());
    }
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A cursor over an entry's bytes; every read fails past the end.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Reject> {
        if n > self.0.len() {
            return Err(Reject::Corrupt);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, Reject> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, Reject> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn len(&mut self, max: usize) -> Result<usize, Reject> {
        let n = self.u32()? as usize;
        if n > max {
            return Err(Reject::Corrupt);
        }
        Ok(n)
    }
}

/// The index parts stored in `bytes`, if the entry is whole and describes `key` read with
/// `block`-byte blocks at length `len`.
fn decode(bytes: &[u8], key: &PersistKey, len: u64, block: u64) -> Result<IndexParts, Reject> {
    if bytes.len() < FIXED || &bytes[..8] != MAGIC {
        return Err(Reject::Corrupt);
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut c = Cursor(&body[8..]);
    if c.u32()? != FORMAT_VERSION {
        return Err(Reject::Foreign);
    }
    if xxhash_rust::xxh3::xxh3_64(body).to_le_bytes() != sum {
        return Err(Reject::Corrupt);
    }
    let flags = c.u32()?;
    let [b, l, scanned, newlines, text_start] = [c.u64()?, c.u64()?, c.u64()?, c.u64()?, c.u64()?];
    let enc_len = c.len(MAX_ENCODING)?;
    let id_len = c.len(MAX_IDENTITY)?;
    let ver_len = c.len(MAX_VERSION)?;
    let count = c.u64()?;
    let encoding = std::str::from_utf8(c.take(enc_len)?)
        .ok()
        .and_then(Encoding::from_name)
        .ok_or(Reject::Corrupt)?;
    if c.take(id_len)? != key.identity.as_slice() {
        return Err(Reject::Foreign);
    }
    if c.take(ver_len)? != key.version.as_slice() {
        return Err(Reject::Stale);
    }
    if b != block {
        return Err(Reject::Foreign);
    }
    if l != len || flags > 1 || count.checked_mul(8) != Some(c.0.len() as u64) {
        return Err(Reject::Corrupt);
    }
    let checkpoints =
        c.0.chunks_exact(8)
            .map(|x| u64::from_le_bytes(x.try_into().expect("8 bytes")))
            .collect();
    Ok(IndexParts {
        block: b,
        len: l,
        scanned,
        newlines,
        last_is_lf: flags == 1,
        encoding,
        text_start,
        checkpoints,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> PersistKey {
        PersistKey {
            identity: b"file:/x/y.txt".to_vec(),
            version: b"v1".to_vec(),
        }
    }

    fn parts() -> IndexParts {
        IndexParts {
            block: 4,
            len: 10,
            scanned: 9,
            newlines: 3,
            last_is_lf: true,
            encoding: Encoding::Utf8,
            text_start: 0,
            checkpoints: vec![0, 1, 2],
        }
    }

    #[test]
    fn an_entry_round_trips_and_every_single_byte_change_is_caught() {
        let bytes = encode(&key(), &parts());
        assert_eq!(decode(&bytes, &key(), 10, 4), Ok(parts()));
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            assert!(decode(&b, &key(), 10, 4).is_err(), "byte {i} flipped");
        }
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n], &key(), 10, 4).is_err(), "cut at {n}");
        }
    }

    #[test]
    fn a_stale_foreign_or_mismatched_entry_says_why() {
        let bytes = encode(&key(), &parts());
        let other_version = PersistKey {
            version: b"v2".to_vec(),
            ..key()
        };
        let other_identity = PersistKey {
            identity: b"file:/x/z.txt".to_vec(),
            ..key()
        };
        assert_eq!(decode(&bytes, &other_version, 10, 4), Err(Reject::Stale));
        assert_eq!(decode(&bytes, &other_identity, 10, 4), Err(Reject::Foreign));
        assert_eq!(decode(&bytes, &key(), 10, 8), Err(Reject::Foreign));
        assert_eq!(decode(&bytes, &key(), 11, 4), Err(Reject::Corrupt));
    }

    #[test]
    fn only_states_a_scan_can_leave_are_accepted() {
        assert!(LineIndex::from_parts(parts()).is_some());
        let bad = [
            IndexParts {
                checkpoints: vec![0, 2, 1],
                ..parts()
            },
            IndexParts {
                checkpoints: vec![1, 1, 2],
                ..parts()
            },
            IndexParts {
                checkpoints: vec![0, 1],
                ..parts()
            },
            IndexParts {
                checkpoints: vec![0, 5, 6],
                ..parts()
            },
            IndexParts {
                newlines: 10,
                ..parts()
            },
            IndexParts {
                scanned: 11,
                ..parts()
            },
            IndexParts {
                block: 0,
                ..parts()
            },
            IndexParts {
                encoding: Encoding::Utf16Le,
                block: 3,
                checkpoints: vec![0, 1, 2, 3],
                ..parts()
            },
            IndexParts {
                newlines: 0,
                checkpoints: vec![0, 0, 0],
                ..parts()
            },
        ];
        for p in bad {
            assert!(LineIndex::from_parts(p.clone()).is_none(), "{p:?}");
        }
    }
}
