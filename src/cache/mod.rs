//! A shared cache of line indexes for long-running hosts.
//!
//! An MCP server answers many reads of the same files from several threads while editors,
//! build tools and the agent change them. [`IndexCache`] keeps each file's [`LineIndex`]
//! between reads, keyed by file identity (device, inode), and validates it on every use:
//!
//! - same size and modification time: reused as is;
//! - larger, and the last bytes before the old end unchanged: the file grew by appending,
//!   and the index is extended from the old end (cost: the appended bytes);
//! - anything else (smaller, same size with a new time, changed bytes): rebuilt lazily;
//! - a path that now names another file (deleted and recreated, or replaced by a rename):
//!   the old file's entry is dropped;
//! - a reader that opened the file before the state the entry describes (by the change
//!   time): the entry is left for newer readers, and this one reads without it.
//!
//! Memory is bounded by a byte budget with least-recently-used eviction.
//!
//! With [`IndexCache::with_dir`], the cache is backed by a directory: indexes that cover
//! much of a file are also written there, keyed by the file's path and version, and a
//! later process (a restarted server, the next run of a CLI) loads them instead of
//! counting the file's lines again. See [`IndexCache::with_dir`] for what is checked
//! before a stored index is used; a stale or corrupt entry is never trusted.
//!
//! The layers above the read keep what they derive from a file in the same entry, under
//! the same rules: a [`crate::Reader`] keeps the file's classification (reused while its
//! 8 KiB sample is unchanged) and its landmark blocks; the session stores keep a
//! transcript's message count and title state there, continue it over appended records,
//! and lose it with the entry when the file is rewritten, replaced or evicted. One cache
//! given to a [`crate::Reader`] and to the session stores (their `cache` setters) bounds
//! all of it with one budget.
//!
//! # Pitfalls
//!
//! Validation trusts the modification time and a 64-byte sample before the old end. A
//! writer that rewrites the middle of a file *and* grows it, keeping those 64 bytes, is
//! taken for an append; line numbers after the rewritten region would then be wrong until
//! the entry is rebuilt. Editors and log writers do not do that (they truncate and
//! rewrite, or append). A file changed twice within the time resolution of the file system
//! with the same size is not noticed; on Linux 6.13+ (multigrain timestamps) that cannot
//! happen once a stat has observed the first change.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use crate::index::LineIndex;
#[cfg(feature = "object-store")]
use crate::persist::source_identity;
use crate::persist::{IndexDir, Loaded, Stored, PERSIST_MIN};
use crate::source::Source;

mod attached;

pub(crate) use attached::Attachment;
use attached::{sample_slot, Attached};

/// Bytes of the file kept just before the indexed end, to tell an append from a rewrite.
const SAMPLE: u64 = 64;

/// A thread-safe cache of line indexes, bounded in memory.
///
/// Share one per process (`Arc<IndexCache>`) and give it to readers with
/// [`crate::Reader::cache`].
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use rangeread::{IndexCache, LineSelection, Reader};
///
/// let cache = Arc::new(IndexCache::new(64 << 20));
/// let reader = Reader::new().cache(cache.clone());
/// reader.read("tests/data/sample.txt", LineSelection::from(50..=51))?;
/// assert_eq!(cache.len(), 1);
/// // The second read reuses the index: no scan from the start of the file.
/// reader.read("tests/data/sample.txt", LineSelection::from(55..=56))?;
/// assert_eq!(cache.stats().hits, 1);
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug)]
pub struct IndexCache {
    budget: usize,
    inner: Mutex<Inner>,
    /// Where indexes outlive the process, if anywhere.
    disk: Option<IndexDir>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<(u64, u64), Entry>,
    by_path: HashMap<PathBuf, (u64, u64)>,
    /// Every entry's key once, under its `queued` tick (at most its `last_used`), oldest
    /// first: eviction looks at the first instead of visiting every entry (a host reading
    /// many new files evicts on each), and a use only sets `last_used`; an entry found
    /// used since it was queued is queued again under that use then.
    recency: BTreeSet<(u64, (u64, u64))>,
    tick: u64,
    bytes: usize,
    stats: CacheStats,
}

#[derive(Debug)]
struct Entry {
    index: LineIndex,
    len: u64,
    modified: Option<SystemTime>,
    /// The change time of that state, where the platform has one.
    changed: Option<(i64, i64)>,
    sample: Vec<u8>,
    last_used: u64,
    /// The tick the entry is queued under in `Inner::recency`.
    queued: u64,
    path: PathBuf,
    /// Whether `path` names a local file (not a source a host brought, whose identity is
    /// a URL or a name of its own): only those can be checked by [`IndexCache::prune`].
    local: bool,
    /// What layers above derived from the file (see [`IndexCache::attachment`]).
    attached: Vec<Attached>,
}

impl Entry {
    /// A new entry for the state `stamp` of `src`, with nothing attached.
    fn new(
        index: LineIndex,
        stamp: &crate::source::Stamp,
        sample: Vec<u8>,
        tick: u64,
        src: &Source,
    ) -> Entry {
        Entry {
            index,
            len: stamp.len,
            modified: stamp.modified,
            changed: stamp.changed_at(),
            sample,
            last_used: tick,
            queued: tick,
            path: src.identity_path().to_path_buf(),
            local: !src.is_custom(),
            attached: Vec::new(),
        }
    }

    fn cost(&self) -> usize {
        self.index.memory_bytes()
            + self.sample.len()
            + self.path.as_os_str().len()
            + self.attached.iter().map(|a| a.cost).sum::<usize>()
            + 128
    }

    fn is_at(&self, stamp: &crate::source::Stamp) -> bool {
        self.len == stamp.len && self.modified == stamp.modified
    }

    /// Whether the entry was made from a later state of the file than `stamp` (a reader
    /// that opened the file before it last changed). Judged by the change time, which,
    /// unlike the modification time, cannot be set back (`touch -d`, `tar`).
    fn is_after(&self, stamp: &crate::source::Stamp) -> bool {
        matches!((self.changed, stamp.changed_at()), (Some(e), Some(s)) if e > s)
    }
}

/// What a lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lookup {
    Missing,
    /// The entry describes a later state of the file than the source (opened before the
    /// file last changed): kept for newer readers, not used for this one.
    Newer,
    /// The entry was stale and is gone.
    Dropped,
    Hit,
    Extended,
}

/// Counters of what the cache did, for tests and monitoring.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups answered by an unchanged index.
    pub hits: u64,
    /// Lookups answered by an index extended over appended bytes.
    pub extended: u64,
    /// Lookups that found no usable entry.
    pub misses: u64,
    /// Entries dropped because the file changed other than by appending, or was replaced.
    pub invalidated: u64,
    /// Entries dropped to stay within the memory budget.
    pub evicted: u64,
    /// Lookups answered by an index loaded from the index directory
    /// ([`IndexCache::with_dir`]), after every check passed.
    pub loaded: u64,
    /// Entries of the index directory ignored because they were stale (the file changed
    /// since), corrupt, or of another file, format or block size.
    pub rejected: u64,
    /// Indexes written to the index directory.
    pub written: u64,
    /// Writes to the index directory that failed (reads are not affected).
    pub write_failures: u64,
    /// Entries removed from the index directory to stay within its byte budget.
    pub dir_evicted: u64,
}

impl IndexCache {
    /// A cache that keeps at most `budget_bytes` of index memory (entries included).
    pub fn new(budget_bytes: usize) -> IndexCache {
        IndexCache {
            budget: budget_bytes,
            inner: Mutex::new(Inner::default()),
            disk: None,
        }
    }

    /// Backs the cache by the directory `dir` (created with its parents when missing),
    /// which holds at most `budget_bytes` of stored indexes. Without it, indexes live
    /// only as long as the cache.
    ///
    /// A line index that covers at least 1 MiB of a file is written there when it becomes
    /// complete or has grown by 32 MiB since it was last written, so a later process
    /// reading deep lines of the same, unchanged file loads it (a few hundred
    /// microseconds for 1 GiB) instead of counting the lines up to them. Each entry
    /// takes 8 bytes per 64 KiB of file, plus its path (128 KiB for a 1 GiB file).
    ///
    /// # Guarantees
    ///
    /// - Keyed by the file's resolved absolute path and version (device, inode, length,
    ///   modification and change times): a file appended to, rewritten, or replaced has
    ///   another version, and its old entry is ignored and removed.
    /// - Checked before use: magic bytes, format version, path, version, block size,
    ///   length, an xxh3 checksum, the index's own consistency, and (when the file is
    ///   classified) its text encoding. An entry that fails is ignored, never trusted.
    /// - Written atomically (a temporary file in `dir`, `fsync`, rename): concurrent
    ///   processes reading and writing the same directory see whole entries only.
    /// - The directory stays within `budget_bytes`: after a write, the entries used
    ///   least recently (by modification time, which a load renews) are removed.
    /// - A directory that cannot be read or written (removed, read-only, full) never
    ///   fails a read: the read counts lines as it would without it
    ///   ([`CacheStats::write_failures`] counts what could not be written).
    /// - Bytes in memory and files that report size 0 (`/proc`) are never stored.
    ///
    /// # Limits
    ///
    /// The checksum detects damage, not forgery: give the directory to one user (it is
    /// created with mode 0700 and entries with 0600 on Unix). A forged line index cannot
    /// make a read return bytes of another file, only wrong line numbers of the same
    /// file; a forged PDF entry (below) can make a page read return text the file does
    /// not hold. The landmark blocks are recomputed by each process.
    ///
    /// Besides line indexes, a PDF of 1 MiB or more read through a reader with this cache
    /// leaves what the read learned (cross-reference data, page objects, outline, page
    /// sizes, the text of the pages read; see [`crate::pdf::read_cached`]) in an entry of
    /// its own beside the file's line index, under the same keys, checks and budget. A file that grew by appending is counted
    /// again from the start in a new process (within one process the cache extends it).
    /// Platforms without inode numbers (Windows) do not persist.
    ///
    /// The on-disk format and the measurements are in `docs/persistent-index.md`.
    ///
    /// # Errors
    ///
    /// [`crate::Error::Io`] when `dir` cannot be created or is not a directory.
    ///
    /// # Example
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rangeread::{IndexCache, LineSelection, Reader};
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// let cache = IndexCache::new(64 << 20).with_dir(dir.path(), 256 << 20)?;
    /// let reader = Reader::new().cache(Arc::new(cache));
    /// let page = reader.read("tests/data/sample.txt", LineSelection::from(50..=51))?;
    /// assert_eq!(page.lines.map(|l| l.start), Some(50));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn with_dir(
        mut self,
        dir: impl AsRef<std::path::Path>,
        budget_bytes: u64,
    ) -> crate::Result<IndexCache> {
        let dir = dir.as_ref();
        self.disk = Some(IndexDir::open(dir, budget_bytes).map_err(|e| crate::Error::io(dir, e))?);
        Ok(self)
    }

    /// The directory the cache is backed by ([`IndexCache::with_dir`]), if any.
    pub fn dir(&self) -> Option<&std::path::Path> {
        self.disk.as_ref().map(IndexDir::path)
    }

    /// The byte budget of the index directory (0 without one).
    pub fn dir_budget(&self) -> u64 {
        self.disk.as_ref().map_or(0, IndexDir::budget)
    }

    /// Number of files cached.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Memory held by the entries, in bytes (always within the budget).
    pub fn memory_bytes(&self) -> usize {
        self.lock().bytes
    }

    /// What the cache did so far.
    pub fn stats(&self) -> CacheStats {
        self.lock().stats
    }

    /// Drops every entry held in memory (the index directory is left as it is).
    pub fn clear(&self) {
        let mut inner = self.lock();
        inner.entries.clear();
        inner.by_path.clear();
        inner.recency.clear();
        inner.bytes = 0;
    }

    /// Drops the entry of the file at `path` (for example after it was deleted).
    pub fn forget(&self, path: &std::path::Path) {
        let mut inner = self.lock();
        if let Some(key) = inner.by_path.get(path).copied() {
            inner.remove(key);
            inner.stats.invalidated += 1;
        }
    }

    /// Drops the entries whose path no longer names the file they were built for
    /// (deleted, or replaced by another file). Costs one `stat` per entry of a local
    /// file; entries of sources a host brought (objects in object storage) are kept, as
    /// their version is checked on every use.
    pub fn prune(&self) {
        let paths: Vec<(PathBuf, (u64, u64))> = {
            let inner = self.lock();
            inner
                .by_path
                .iter()
                .filter(|(_, k)| inner.entries.get(k).is_some_and(|e| e.local))
                .map(|(p, k)| (p.clone(), *k))
                .collect()
        };
        for (path, key) in paths {
            if file_id(&path) != Some(key) {
                let mut inner = self.lock();
                if inner.by_path.get(&path) == Some(&key) {
                    inner.remove(key);
                    inner.stats.invalidated += 1;
                }
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave an entry half-written (entries are
        // replaced whole), so a poisoned lock is still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The key of `src`'s file, when the cache can hold it.
    fn key_of(src: &Source) -> Option<(&crate::source::Stamp, (u64, u64))> {
        let stamp = src.stamp()?;
        let key = stamp.id?;
        (!src.is_streamed()).then_some((stamp, key))
    }

    /// Finds the entry of `src`'s file and brings it up to date with `src`: kept when
    /// unchanged, moved forward over appended bytes (index extended, sample and stamp
    /// renewed, attachments kept), dropped otherwise.
    fn validate(&self, inner: &mut Inner, src: &Source) -> Lookup {
        let Some((stamp, key)) = Self::key_of(src) else {
            return Lookup::Missing;
        };
        inner.tick += 1;
        let tick = inner.tick;
        // A path that now names another file: its old entry is stale. An entry of this
        // file made under this very path is what the path names (no lookup by path).
        let path = src.identity_path();
        let known = inner
            .entries
            .get(&key)
            .is_some_and(|e| e.path.as_os_str() == path.as_os_str());
        let stale = if known {
            None
        } else {
            inner.by_path.get(path).copied()
        };
        if let Some(old) = stale.filter(|&old| old != key) {
            inner.remove(old);
            inner.stats.invalidated += 1;
        }
        let Some(entry) = inner.entries.get_mut(&key) else {
            return Lookup::Missing;
        };
        if entry.is_after(stamp) {
            return Lookup::Newer;
        }
        entry.last_used = tick;
        if entry.is_at(stamp) {
            return Lookup::Hit;
        }
        // Longer, whatever the time says (two writes within the time resolution of the
        // file system share one): an append when the old end is unchanged.
        if stamp.len > entry.len {
            let from = entry.len - entry.sample.len() as u64;
            let mut now = vec![0; entry.sample.len()];
            let same = src.read_exact_at(from, &mut now).is_ok() && now == entry.sample;
            if let (true, Some(sample)) = (same, tail_sample(src)) {
                let before = entry.cost();
                entry.index.extend(stamp.len);
                entry.len = stamp.len;
                entry.modified = stamp.modified;
                entry.changed = stamp.changed_at();
                entry.sample = sample;
                let after = entry.cost();
                inner.bytes = inner.bytes - before + after;
                return Lookup::Extended;
            }
        }
        inner.remove(key);
        Lookup::Dropped
    }

    fn record(inner: &mut Inner, found: Lookup) {
        let s = &mut inner.stats;
        match found {
            Lookup::Missing | Lookup::Newer => s.misses += 1,
            Lookup::Dropped => s.invalidated += 1,
            Lookup::Hit => s.hits += 1,
            Lookup::Extended => s.extended += 1,
        }
    }

    /// A valid index for `src`, if the cache has one (extended over appended bytes), in
    /// memory or else in the index directory; `true` with it when the cache holds it as it
    /// is (a hit), so that it need not be stored again unless a read learns more.
    pub(crate) fn checkout(&self, src: &Source, block: u64) -> Option<(LineIndex, bool)> {
        let found = {
            let mut inner = self.lock();
            let found = self.validate(&mut inner, src);
            if matches!(found, Lookup::Hit | Lookup::Extended) {
                Self::record(&mut inner, found);
                let (_, key) = Self::key_of(src)?;
                let index = &inner.entries.get(&key)?.index;
                let kept = found == Lookup::Hit;
                return (index.block_size() == block).then(|| (index.clone(), kept));
            }
            found
        };
        // The directory is read without holding the lock: other threads go on meanwhile.
        let loaded = match found {
            Lookup::Newer => None,
            _ => self.load(src, block),
        };
        let mut inner = self.lock();
        match &loaded {
            Some((index, _)) => {
                inner.stats.loaded += 1;
                if found == Lookup::Dropped {
                    Self::record(&mut inner, found);
                }
                self.keep_loaded(&mut inner, src, index);
            }
            None => Self::record(&mut inner, found),
        }
        drop(inner);
        let (index, sample) = loaded?;
        if !sample.is_empty() {
            // The file is classified from it, without reading it.
            let cost = sample.len();
            self.attach(src, sample_slot(), Arc::<[u8]>::from(sample), cost);
        }
        Some((index, false))
    }

    /// The stored index of `src` in the index directory, if there is a valid one, with
    /// the file's first bytes stored beside it.
    fn load(&self, src: &Source, block: u64) -> Option<(LineIndex, Vec<u8>)> {
        let disk = self.disk.as_ref()?;
        // No smaller file is ever stored: spare it the path resolution and the lookup.
        if src.len() < PERSIST_MIN {
            return None;
        }
        let key = src.persist_key()?;
        match disk.load(&key, src.len(), block) {
            Loaded::Index(index, sample) => Some((index, sample)),
            Loaded::Absent => None,
            Loaded::Rejected => {
                self.lock().stats.rejected += 1;
                None
            }
        }
    }

    /// Keeps an index loaded from the directory in memory too, unless another thread
    /// stored one for the file meanwhile.
    fn keep_loaded(&self, inner: &mut Inner, src: &Source, index: &LineIndex) {
        let Some((stamp, key)) = Self::key_of(src) else {
            return;
        };
        if inner.entries.contains_key(&key) {
            return;
        }
        let Some(sample) = tail_sample(src) else {
            return;
        };
        inner.tick += 1;
        let entry = Entry::new(index.clone(), stamp, sample, inner.tick, src);
        self.insert(inner, key, entry);
    }

    /// Stores the index of `src` (after a read extended it), evicting the least recently
    /// used entries beyond the budget. What is attached to the entry stays when the entry
    /// describes the same state of the file.
    ///
    /// With an index directory, the index is also written there when it advanced enough
    /// (see [`IndexCache::with_dir`]), after the lock is released.
    pub(crate) fn checkin(&self, src: &Source, index: &LineIndex) {
        if index.len() != src.len() || !self.checkin_memory(src, index) {
            return;
        }
        let Some(disk) = &self.disk else {
            return;
        };
        if index.scanned() < PERSIST_MIN {
            return;
        }
        let Some(key) = src.persist_key() else {
            return;
        };
        let sample = self
            .attachment::<Arc<[u8]>>(src, sample_slot(), false)
            .map(|(s, _)| s);
        let stored = disk.store(&key, index, sample.as_deref().unwrap_or_default());
        self.count_store(stored);
    }

    /// Counts what a write to the index directory did.
    fn count_store(&self, stored: Stored) {
        let mut inner = self.lock();
        let s = &mut inner.stats;
        match stored {
            Stored::Skipped => {}
            Stored::Written { evicted } => {
                s.written += 1;
                s.dir_evicted += evicted;
            }
            Stored::Failed => s.write_failures += 1,
        }
    }

    /// The in-memory part of [`IndexCache::checkin`]; `false` when `src` is an older
    /// state of the file than the cache knows, whose index is not kept anywhere.
    fn checkin_memory(&self, src: &Source, index: &LineIndex) -> bool {
        let Some((stamp, key)) = Self::key_of(src) else {
            return true;
        };
        // The entry of this very state (the classification attached it, or an earlier
        // read): its index replaced where it is, with no new sample of the file's end.
        {
            let mut inner = self.lock();
            inner.tick += 1;
            let tick = inner.tick;
            if inner.entries.get(&key).is_some_and(|e| e.is_at(stamp)) {
                self.update(&mut inner, key, |e| {
                    e.index = index.clone();
                    e.last_used = tick;
                });
                return true;
            }
        }
        let Some(sample) = tail_sample(src) else {
            // The file shrank under the read: nothing it learned is worth keeping.
            return false;
        };
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        if inner.entries.get(&key).is_some_and(|e| e.is_after(stamp)) {
            // A reader of an older state of the file: the newer entry stays.
            return false;
        }
        let mut entry = match inner.take(key) {
            Some(mut e) if e.is_at(stamp) => {
                e.index = index.clone();
                e
            }
            _ => Entry::new(index.clone(), stamp, sample, tick, src),
        };
        entry.last_used = tick;
        self.insert(&mut inner, key, entry);
        true
    }

    /// The length and version stored in the index directory for the source a host
    /// brought whose identity is `identity` (an object's URL): a source can be opened at
    /// that version without a request, its first read conditional on it.
    #[cfg(feature = "object-store")]
    pub(crate) fn stored_version(&self, identity: &str) -> Option<(u64, String)> {
        let (len, version) = self
            .disk
            .as_ref()?
            .stored_version(&source_identity(identity))?;
        Some((len, String::from_utf8(version).ok()?))
    }

    /// Forgets what is kept for the version of `src` (a source a host brought) in memory
    /// and in the index directory: the source was found changed, and that version must
    /// not be offered again.
    pub(crate) fn discard(&self, src: &Source) {
        if let Some((_, key)) = Self::key_of(src) {
            let mut inner = self.lock();
            if inner.entries.contains_key(&key) {
                inner.remove(key);
                inner.stats.invalidated += 1;
            }
        }
        if let (Some(disk), Some(key)) = (&self.disk, src.persist_key()) {
            disk.remove_version(&key);
        }
    }

    /// Inserts `entry` (not in the map) and evicts beyond the budget.
    fn insert(&self, inner: &mut Inner, key: (u64, u64), mut entry: Entry) {
        if entry.cost() > self.budget {
            return;
        }
        inner.bytes += entry.cost();
        inner.by_path.insert(entry.path.clone(), key);
        entry.queued = entry.last_used;
        inner.recency.insert((entry.queued, key));
        inner.entries.insert(key, entry);
        self.evict(inner);
    }

    /// Changes the entry under `key` where it is (as taking it out, changing it and
    /// inserting it again would, without touching the map by path): its cost counted
    /// again, an entry now over the whole budget dropped, others evicted beyond it.
    fn update(&self, inner: &mut Inner, key: (u64, u64), change: impl FnOnce(&mut Entry)) {
        let Some(e) = inner.entries.get_mut(&key) else {
            return;
        };
        let before = e.cost();
        change(e);
        let after = e.cost();
        inner.bytes = inner.bytes - before + after;
        if after > self.budget {
            inner.remove(key);
            return;
        }
        self.evict(inner);
    }

    /// Evicts the least recently used entries while the cache is over its budget.
    fn evict(&self, inner: &mut Inner) {
        while inner.bytes > self.budget {
            let Some((queued, oldest)) = inner.recency.pop_first() else {
                break;
            };
            match inner.entries.get_mut(&oldest) {
                Some(e) if e.last_used != queued => {
                    // Used since it was queued: queued again under that use.
                    e.queued = e.last_used;
                    inner.recency.insert((e.queued, oldest));
                    continue;
                }
                Some(_) => {}
                None => continue,
            }
            inner.remove(oldest);
            inner.stats.evicted += 1;
        }
        debug_assert_eq!(inner.recency.len(), inner.entries.len());
    }
}

/// The last [`SAMPLE`] bytes of `src`, to recognize an append later.
fn tail_sample(src: &Source) -> Option<Vec<u8>> {
    // A source that is not a local file keys its entries by its version: a new version
    // is a new entry, never an append, so no sample is taken (for a remote object it
    // would cost a request).
    if src.is_custom() {
        return Some(Vec::new());
    }
    let from = src.len().saturating_sub(SAMPLE);
    let mut sample = vec![0; (src.len() - from) as usize];
    src.read_exact_at(from, &mut sample).ok()?;
    Some(sample)
}

impl Inner {
    /// Takes the entry out of the maps (and out of the byte count).
    fn take(&mut self, key: (u64, u64)) -> Option<Entry> {
        let e = self.entries.remove(&key)?;
        self.bytes -= e.cost();
        self.recency.remove(&(e.queued, key));
        if self.by_path.get(&e.path) == Some(&key) {
            self.by_path.remove(&e.path);
        }
        Some(e)
    }

    fn remove(&mut self, key: (u64, u64)) {
        self.take(key);
    }
}

#[cfg(unix)]
fn file_id(path: &std::path::Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_path: &std::path::Path) -> Option<(u64, u64)> {
    None
}
