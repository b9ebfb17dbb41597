//! What the layers above a read keep with a file's entry (its classification sample, what
//! a document reader learned, a session store's counts): values attached under a slot,
//! valid while the entry is, and dropped with it.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use super::{tail_sample, Entry, IndexCache, Lookup};
use crate::index::LineIndex;
use crate::persist::PERSIST_MIN;
use crate::source::Source;

/// The slot of a file's first bytes (its classification sample).
pub(super) fn sample_slot() -> u64 {
    static SLOT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SLOT.get_or_init(IndexCache::slot)
}

/// The slot what document readers learned is attached under.
#[cfg(feature = "pdf")]
fn document_slot() -> u64 {
    static SLOT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SLOT.get_or_init(IndexCache::slot)
}

/// A value attached to an entry, with the state of the file it was derived from.
pub(super) struct Attached {
    pub(super) slot: u64,
    pub(super) value: Box<dyn Any + Send + Sync>,
    pub(super) len: u64,
    pub(super) modified: Option<SystemTime>,
    pub(super) cost: usize,
}

impl std::fmt::Debug for Attached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attached")
            .field("slot", &self.slot)
            .field("len", &self.len)
            .field("cost", &self.cost)
            .finish_non_exhaustive()
    }
}

/// How an attached value relates to the file as a source sees it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attachment {
    /// Derived from this very state of the file.
    Current,
    /// Derived from an earlier state whose bytes are all still there: the file grew by
    /// appending since.
    Grown,
}

impl IndexCache {
    /// The value a layer above attached to the file of `src` under `slot` (see
    /// [`IndexCache::attach`]), if the entry is still valid, and whether it describes the
    /// file as `src` sees it or an unchanged prefix of it. `count` says whether the
    /// lookup shows in [`IndexCache::stats`] (not when the same read already looked up
    /// the file's index).
    pub(crate) fn attachment<T: Any + Clone>(
        &self,
        src: &Source,
        slot: u64,
        count: bool,
    ) -> Option<(T, Attachment)> {
        let mut inner = self.lock();
        let found = self.validate(&mut inner, src);
        if count || found == Lookup::Dropped {
            Self::record(&mut inner, found);
        }
        let (stamp, key) = Self::key_of(src)?;
        let a = inner
            .entries
            .get(&key)?
            .attached
            .iter()
            .find(|a| a.slot == slot)?;
        let value = a.value.downcast_ref::<T>()?.clone();
        let how = if a.len == stamp.len && a.modified == stamp.modified {
            Attachment::Current
        } else {
            Attachment::Grown
        };
        Some((value, how))
    }

    /// Keeps `value`, derived from the file as `src` sees it, with the file's entry under
    /// `slot` (from [`IndexCache::slot`]); `cost` is its heap size in bytes, counted
    /// against the budget. The value is dropped with the entry: when the file changes
    /// other than by appending, is replaced, or is evicted.
    pub(crate) fn attach<T: Any + Send + Sync>(
        &self,
        src: &Source,
        slot: u64,
        value: T,
        cost: usize,
    ) {
        let Some((stamp, key)) = Self::key_of(src) else {
            return;
        };
        let attached = Attached {
            slot,
            value: Box::new(value),
            len: stamp.len,
            modified: stamp.modified,
            cost: cost + std::mem::size_of::<Attached>(),
        };
        let mut inner = self.lock();
        let mut entry = match self.validate(&mut inner, src) {
            Lookup::Hit | Lookup::Extended => {
                self.update(&mut inner, key, |e| {
                    e.attached.retain(|a| a.slot != slot);
                    e.attached.push(attached);
                });
                return;
            }
            Lookup::Newer => return,
            Lookup::Missing | Lookup::Dropped => {
                let Some(sample) = tail_sample(src) else {
                    return;
                };
                Entry::new(LineIndex::new(stamp.len), stamp, sample, inner.tick, src)
            }
        };
        entry.attached.push(attached);
        self.insert(&mut inner, key, entry);
    }

    #[cfg(feature = "pdf")]
    /// What a document reader of `kind` (`"pdf"`) learned of the file of `src` and kept
    /// with [`IndexCache::keep_document`] (at most `max` bytes): from memory, else from the
    /// index directory (checked as line indexes are: identity, version, checksum; a stale
    /// or corrupt entry is removed). Never what an earlier, shorter state of a file
    /// taught: a PDF updated by appending has new cross-reference data.
    pub(crate) fn document(
        &self,
        src: &Source,
        kind: &'static str,
        max: usize,
    ) -> Option<Arc<[u8]>> {
        if let Some(((k, v), Attachment::Current)) =
            self.attachment::<(&'static str, Arc<[u8]>)>(src, document_slot(), false)
        {
            if k == kind {
                return Some(v);
            }
        }
        let disk = self.disk.as_ref()?;
        let key = src.persist_key()?;
        let payload: Arc<[u8]> = disk.load_document(&key, kind, max)?.into();
        self.lock().stats.loaded += 1;
        self.attach(src, document_slot(), (kind, payload.clone()), payload.len());
        Some(payload)
    }

    #[cfg(feature = "pdf")]
    /// Keeps what a document reader of `kind` learned of the file of `src` (its own
    /// bytes): with the file's entry in memory, and in the index directory when the cache
    /// has one and the file may be stored there (see [`IndexCache::with_dir`]).
    pub(crate) fn keep_document(&self, src: &Source, kind: &'static str, payload: Vec<u8>) {
        let payload: Arc<[u8]> = payload.into();
        self.attach(src, document_slot(), (kind, payload.clone()), payload.len());
        if src.len() < PERSIST_MIN {
            // Read again faster than an entry is opened.
            return;
        }
        let (Some(disk), Some(key)) = (&self.disk, src.persist_key()) else {
            return;
        };
        let stored = disk.store_document(&key, kind, &payload);
        self.count_store(stored);
    }

    /// The first bytes of `src` (its classification sample) when the cache keeps them:
    /// loaded from the index directory with its index, or kept by [`IndexCache::keep_sample`].
    pub(crate) fn sample(&self, src: &Source) -> Option<Arc<[u8]>> {
        // Only an index directory gives samples (`keep_sample`, `checkout`): without one
        // there is none to look up.
        self.disk.as_ref()?;
        self.attachment::<Arc<[u8]>>(src, sample_slot(), false)
            .map(|(s, _)| s)
    }

    /// Keeps the first bytes of `src`, classified from them, to store them with its index:
    /// only for files the directory may store (with a directory, at least
    /// [`PERSIST_MIN`] bytes).
    pub(crate) fn keep_sample(&self, src: &Source, sample: &[u8]) {
        if self.disk.is_some() && src.len() >= PERSIST_MIN && src.persist_key().is_some() {
            self.attach(src, sample_slot(), Arc::<[u8]>::from(sample), sample.len());
        }
    }

    /// A slot number no other user of any cache has: what a layer above attaches under.
    pub(crate) fn slot() -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }
}
