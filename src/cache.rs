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
//!   the old file's entry is dropped.
//!
//! Memory is bounded by a byte budget with least-recently-used eviction.
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

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::SystemTime;

use crate::index::LineIndex;
use crate::source::Source;

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
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<(u64, u64), Entry>,
    by_path: HashMap<PathBuf, (u64, u64)>,
    tick: u64,
    bytes: usize,
    stats: CacheStats,
}

#[derive(Debug)]
struct Entry {
    index: LineIndex,
    len: u64,
    modified: Option<SystemTime>,
    sample: Vec<u8>,
    last_used: u64,
    path: PathBuf,
}

impl Entry {
    fn cost(&self) -> usize {
        self.index.memory_bytes() + self.sample.len() + self.path.as_os_str().len() + 128
    }
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
}

impl IndexCache {
    /// A cache that keeps at most `budget_bytes` of index memory (entries included).
    pub fn new(budget_bytes: usize) -> IndexCache {
        IndexCache {
            budget: budget_bytes,
            inner: Mutex::new(Inner::default()),
        }
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

    /// Drops every entry.
    pub fn clear(&self) {
        let mut inner = self.lock();
        inner.entries.clear();
        inner.by_path.clear();
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
    /// (deleted, or replaced by another file). Costs one `stat` per entry.
    pub fn prune(&self) {
        let paths: Vec<(PathBuf, (u64, u64))> = {
            let inner = self.lock();
            inner.by_path.iter().map(|(p, k)| (p.clone(), *k)).collect()
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

    /// A valid index for `src`, if the cache has one (extended over appended bytes).
    pub(crate) fn checkout(&self, src: &Source, block: u64) -> Option<LineIndex> {
        let stamp = src.stamp()?;
        let key = stamp.id?;
        if src.is_streamed() {
            return None;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        // A path that now names another file: its old entry is stale.
        if let Some(old) = inner.by_path.get(src.path()).copied() {
            if old != key {
                inner.remove(old);
                inner.stats.invalidated += 1;
            }
        }
        let Some(entry) = inner.entries.get_mut(&key) else {
            inner.stats.misses += 1;
            return None;
        };
        entry.last_used = tick;
        let reusable = entry.index.block_size() == block;
        if reusable && entry.len == stamp.len && entry.modified == stamp.modified {
            let index = entry.index.clone();
            inner.stats.hits += 1;
            return Some(index);
        }
        if reusable && stamp.len > entry.len && entry.modified != stamp.modified {
            let from = entry.len - entry.sample.len() as u64;
            let mut now = vec![0; entry.sample.len()];
            let same = src.read_exact_at(from, &mut now).is_ok() && now == entry.sample;
            if same {
                let mut index = entry.index.clone();
                index.extend(stamp.len);
                inner.stats.extended += 1;
                return Some(index);
            }
        }
        inner.remove(key);
        inner.stats.invalidated += 1;
        None
    }

    /// Stores the index of `src` (after a read extended it), evicting the least recently
    /// used entries beyond the budget.
    pub(crate) fn checkin(&self, src: &Source, index: &LineIndex) {
        let Some(stamp) = src.stamp() else { return };
        let Some(key) = stamp.id else { return };
        if src.is_streamed() || index.len() != src.len() {
            return;
        }
        let from = src.len().saturating_sub(SAMPLE);
        let mut sample = vec![0; (src.len() - from) as usize];
        if src.read_exact_at(from, &mut sample).is_err() {
            return;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let entry = Entry {
            index: index.clone(),
            len: stamp.len,
            modified: stamp.modified,
            sample,
            last_used: inner.tick,
            path: src.path().to_path_buf(),
        };
        if entry.cost() > self.budget {
            inner.remove(key);
            return;
        }
        inner.remove(key);
        inner.bytes += entry.cost();
        inner.by_path.insert(entry.path.clone(), key);
        inner.entries.insert(key, entry);
        while inner.bytes > self.budget {
            let Some(oldest) = inner
                .entries
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| *k)
            else {
                break;
            };
            inner.remove(oldest);
            inner.stats.evicted += 1;
        }
    }
}

impl Inner {
    fn remove(&mut self, key: (u64, u64)) {
        if let Some(e) = self.entries.remove(&key) {
            self.bytes -= e.cost();
            if self.by_path.get(&e.path) == Some(&key) {
                self.by_path.remove(&e.path);
            }
        }
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
