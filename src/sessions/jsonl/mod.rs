//! The engine under the JSONL stores, by concern:
//!
//! - [`lines`]: line reading, forwards and backwards (the only place that looks for
//!   line feeds);
//! - [`decode`]: what a line is, per store ([`LineFormat`]);
//! - [`paging`]: records assembled into messages, the request's window taken;
//! - [`pass`]: a pass over the whole file, cached and continued over appended lines;
//! - [`counts`]: the exact message count, such a pass;
//! - [`titles`]: title records found over the whole file or its ends;
//! - [`retry`]: a transcript that changed while read is read again.
//!
//! This file ties them together: [`Engine`] opens a transcript (decompressing a `.zst`
//! one), keeps its per-file [`State`] in the [`IndexCache`], and answers a read.

use std::path::Path;
use std::sync::Arc;

use super::{MessagePage, MessageRequest};
use crate::cache::{Attachment, IndexCache};
use crate::error::Result;
use crate::source::Source;

pub(crate) mod counts;
pub(crate) mod decode;
pub(crate) mod lines;
pub(crate) mod paging;
pub(crate) mod pass;
pub(crate) mod retry;
#[cfg(test)]
mod tests;
pub(crate) mod titles;

pub(crate) use decode::{normalize_time, Decoded, LineFormat, Meta, Piece, Prompt, ONCE};
pub(crate) use pass::follow;
pub(crate) use retry::retry;
pub use titles::TitleScan;

use counts::Count;
use paging::read_window;
use pass::Pass;
use titles::Titles;

/// Chunk of the backward line scan (64 KiB): small chunks keep a read of the last few
/// messages small.
const WALK_CHUNK: usize = 64 << 10;

/// How much memory the store-owned cache of a session store may hold: the count and
/// title state of a transcript is a few hundred bytes, so this is room for thousands.
pub(crate) const DEFAULT_CACHE_BYTES: usize = 16 << 20;

/// By default, a compressed transcript may decompress to at most 512 MiB.
pub(crate) const DEFAULT_MAX_DECOMPRESSED: u64 = 512 << 20;

/// What the engine knows of one transcript, kept with the file's entry in the
/// [`IndexCache`]: the cache validates it (same file, unchanged or appended to) and
/// bounds it with the line indexes under one budget.
#[derive(Debug, Clone, Default)]
pub(crate) struct State {
    count: Option<Pass<Count>>,
    /// The count (with the unterminated last line, if any) and malformed lines of the
    /// file as last seen.
    count_result: Option<(u64, u64)>,
    titles: Option<Pass<Titles>>,
    /// The resolved title of the file as last seen, and how it was found.
    title: Option<(TitleScan, Option<String>)>,
}

impl State {
    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<State>()
            + self.count.as_ref().map_or(0, |c| c.state.memory_bytes())
            + self.titles.as_ref().map_or(0, |t| t.state.memory_bytes())
            + self
                .title
                .as_ref()
                .and_then(|(_, t)| t.as_ref())
                .map_or(0, String::capacity)
    }
}

/// A JSONL transcript reader for one format; what it learns of each file is kept in an
/// [`IndexCache`].
pub(crate) struct Engine<F> {
    pub(crate) fmt: F,
    pub(crate) cache: Arc<IndexCache>,
    /// Where this engine's state sits in cache entries: two stores sharing a cache (even
    /// of the same format, with other field pointers) never see each other's counts.
    slot: u64,
    /// The most a compressed transcript may decompress to.
    pub(crate) max_decompressed: u64,
}

impl<F> std::fmt::Debug for Engine<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("cached_files", &self.cache.len())
            .finish_non_exhaustive()
    }
}

impl<F: LineFormat> Engine<F> {
    pub(crate) fn new(fmt: F) -> Engine<F> {
        Engine {
            fmt,
            cache: Arc::new(IndexCache::new(DEFAULT_CACHE_BYTES)),
            slot: IndexCache::slot(),
            max_decompressed: DEFAULT_MAX_DECOMPRESSED,
        }
    }

    /// Opens a transcript: the file itself, or its decompressed bytes for `*.zst`.
    fn open(&self, path: &Path) -> Result<Source> {
        if super::zst::is_zst(path) {
            let bytes = super::zst::inflate(path, self.max_decompressed)?;
            return Ok(Source::from_bytes(bytes, path));
        }
        Source::open(path)
    }

    /// The state of the file of `src` as cached: as is when it describes this state of
    /// the file; with the per-state results cleared when the file grew by appending
    /// (the passes continue from where they stopped); empty otherwise.
    fn state(&self, src: &Source) -> State {
        match self.cache.attachment::<State>(src, self.slot, true) {
            Some((s, Attachment::Current)) => s,
            Some((s, Attachment::Grown)) => State {
                count_result: None,
                title: None,
                ..s
            },
            None => State::default(),
        }
    }

    /// Runs `f` on the cached state of `src`'s file and stores what it leaves, unless
    /// it fails.
    fn with_state<R>(&self, src: &Source, f: impl FnOnce(&mut State) -> Result<R>) -> Result<R> {
        let mut state = self.state(src);
        let r = f(&mut state)?;
        let cost = state.memory_bytes();
        self.cache.attach(src, self.slot, state, cost);
        Ok(r)
    }

    /// Reads a window of a transcript; counts and finds the title as the request and
    /// `title_scan` say.
    ///
    /// A transcript rewritten, truncated or replaced while it is read is read again,
    /// up to [`retry::RETRIES`] times, then [`crate::Error::Changed`]: a page never
    /// mixes two states of the file, and what is cached comes from one state.
    pub(crate) fn read(
        &self,
        path: &Path,
        req: &MessageRequest,
        title_scan: TitleScan,
    ) -> Result<MessagePage> {
        retry(|| self.read_once(path, req, title_scan))
    }

    fn read_once(
        &self,
        path: &Path,
        req: &MessageRequest,
        title_scan: TitleScan,
    ) -> Result<MessagePage> {
        let mut src = self.open(path)?;
        src.set_chunk_size(WALK_CHUNK);
        let (messages, mut malformed) = read_window(&src, &self.fmt, req)?;
        // Only `[0, len)` as it was at opening is read: a transcript that grows meanwhile
        // (the usual change) leaves this result consistent.
        self.with_state(&src, |st| {
            let mut message_count = None;
            if req.count {
                let (n, bad) = self.count(&src, st)?;
                message_count = Some(n);
                malformed = malformed.max(bad);
            }
            let fresh_full =
                st.count_result.is_some() || matches!(st.title, Some((TitleScan::Full, _)));
            let scan = match title_scan {
                TitleScan::Full if !(req.count || fresh_full) => TitleScan::BOUNDED,
                s => s,
            };
            let title = self.title_of(&src, st, scan)?;
            src.check_unchanged()?;
            Ok(MessagePage {
                messages,
                message_count,
                title,
                malformed_lines: malformed,
            })
        })
    }

    /// The title of a transcript, opening it.
    pub(crate) fn title(&self, path: &Path, scan: TitleScan) -> Result<Option<String>> {
        retry(|| {
            let src = self.open(path)?;
            self.with_state(&src, |st| {
                let t = self.title_of(&src, st, scan)?;
                src.check_unchanged()?;
                Ok(t)
            })
        })
    }
}
