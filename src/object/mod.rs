//! Objects in object storage as sources (feature `object-store`).
//!
//! An [`ObjectSource`] reads one object of S3 (or an S3-compatible store), Google Cloud
//! Storage, Azure Blob Storage or a plain HTTP(S) server through the
//! [`object_store`] crate, and answers the positional questions of a [`RandomAccess`]
//! source, so that every step of a read works on it as on a local file:
//!
//! - **Few, adaptive requests.** Opening fetches the first window (1 MiB by default) with
//!   one ranged `GET` that also tells the object's size and ETag: classification and a
//!   `head` read are answered from it. A read elsewhere fetches one window around it
//!   (half before the 64 KiB boundary below it and half after, so that a page
//!   and the summary of what surrounds it come in one request; or backward when the
//!   reader walks back from the end, as a `tail` does). A front-to-back pass longer than a
//!   window (a line count) is one streaming `GET` read at the store's speed; it starts
//!   half a window before where the count stands (what a window for it would hold) and
//!   keeps what it passes, so the page the count was for, the summary of what surrounds
//!   it, and a page just before the pass come with it. With an index directory that
//!   knows the object ([`crate::IndexCache::with_dir`]: size, ETag, first 8 KiB and line
//!   offsets), [`crate::Reader::read_in`] on a [`crate::Workspace::object`] root opens it
//!   without a request, and each read is one conditional request: a read the stored
//!   index covers is one window, and a read past what it covers (an index stored by a
//!   process that counted only part of the object) is one stream that extends the index
//!   and carries the page (and, when the read counts lines to the end, as a tail or a
//!   byte range does under [`crate::Totals::Auto`] or [`crate::Totals::Always`], runs on
//!   to the end: the count goes first and the page is read from what it passed).
//! - **A bounded block cache.** Fetched windows are kept (64 MiB by default, least
//!   recently used evicted) and shared by every read of the source.
//! - **One version.** Every request after the first is conditional on the ETag seen when
//!   the source was opened (`If-Match`; where a store has no ETag, on the last-modified
//!   time): an object replaced while it is read fails with `File changed while reading`,
//!   never with a page mixing two versions.
//! - **Synchronous.** The library stays sync: the source drives the async client on a
//!   tokio runtime the host hands it ([`ObjectConfig::runtime`]) or on a small one of
//!   its own (one worker thread). A host that is itself async calls reads from
//!   `tokio::task::spawn_blocking` (a read on a runtime thread fails with a message
//!   saying so instead of blocking the runtime).
//!
//! Credentials and endpoints come from the usual environment variables of each store
//! (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT_URL`,
//! `GOOGLE_SERVICE_ACCOUNT`, `AZURE_STORAGE_ACCOUNT_NAME`, ...), as `object_store`'s
//! `from_env` builders read them; [`ObjectSource::from_store`] takes a store a host
//! built itself.

use std::io;
use std::ops::Range;
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt, RetryConfig};

use crate::error::{Error, Result};
use crate::source::{RandomAccess, Source};

mod blocks;
mod root;

use blocks::{State, Stream};
pub use root::ObjectRoot;

/// Default window of one request (1 MiB).
pub const DEFAULT_WINDOW: u64 = 1 << 20;

/// Default memory of the block cache of one source (64 MiB).
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

/// Windows start on multiples of this (64 KiB, the line index's block).
const ALIGN: u64 = 64 << 10;

/// How an [`ObjectSource`] talks to its store.
#[derive(Debug, Clone)]
pub struct ObjectConfig {
    runtime: Option<tokio::runtime::Handle>,
    window: u64,
    cache_bytes: u64,
    /// Where requests are counted (an [`ObjectRoot`] shares one with its sources).
    counters: Option<Arc<Counters>>,
}

/// Requests and bytes, counted by every source that shares them.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    requests: AtomicU64,
    bytes: AtomicU64,
}

impl Counters {
    fn stats(&self) -> ObjectStats {
        ObjectStats {
            requests: self.requests.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
        }
    }
}

impl Default for ObjectConfig {
    fn default() -> Self {
        ObjectConfig {
            runtime: None,
            window: DEFAULT_WINDOW,
            cache_bytes: DEFAULT_CACHE_BYTES,
            counters: None,
        }
    }
}

impl ObjectConfig {
    /// The defaults: a runtime of the source's own, 1 MiB windows, a 64 MiB cache.
    pub fn new() -> ObjectConfig {
        ObjectConfig::default()
    }

    /// Drives requests on the host's tokio runtime (it must be a multi-thread runtime:
    /// the source blocks a thread of the host's, not of the runtime, on each request).
    pub fn runtime(mut self, handle: tokio::runtime::Handle) -> ObjectConfig {
        self.runtime = Some(handle);
        self
    }

    /// Bytes fetched by one request around a read that misses the cache (at least
    /// 64 KiB; default 1 MiB). Larger windows mean fewer requests and more bytes.
    pub fn window(mut self, bytes: u64) -> ObjectConfig {
        self.window = bytes.max(ALIGN);
        self
    }

    /// Memory the source may keep of fetched bytes (default 64 MiB; at least one window).
    pub fn cache_bytes(mut self, bytes: u64) -> ObjectConfig {
        self.cache_bytes = bytes;
        self
    }
}

/// Requests an [`ObjectSource`] has made, and the bytes they returned: the cost of a read
/// of remote data.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ObjectStats {
    /// Requests sent (ranged `GET`s, streams and metadata requests; retries not counted).
    pub requests: u64,
    /// Bytes received in response bodies.
    pub bytes: u64,
}

enum Runtime {
    Owned(tokio::runtime::Runtime),
    Host(tokio::runtime::Handle),
}

impl Runtime {
    fn block_on<F: std::future::Future>(&self, f: F) -> io::Result<F::Output> {
        // Blocking a thread that drives async tasks panics in tokio; a host that reads
        // from its runtime's own threads gets an error saying what to do instead.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match self {
            Runtime::Owned(rt) => rt.block_on(f),
            Runtime::Host(h) => h.block_on(f),
        }))
        .map_err(|_| {
            io::Error::other(
                "an object-store read was called on a thread that drives async tasks; call \
                 it from tokio::task::spawn_blocking (or a thread of your own)",
            )
        })
    }
}

/// One object in object storage, read by ranged requests (see the [module](self) docs).
///
/// Open it with [`ObjectSource::open`] (a URL, credentials from the environment) or
/// [`ObjectSource::from_store`], then read it like any source with
/// [`ObjectSource::into_source`] and [`crate::Reader::document`]:
///
/// ```no_run
/// use rangeread::{LineSelection, ObjectSource, Reader};
///
/// let object = ObjectSource::open("s3://logs/ci/build-4711.log")?;
/// let mut doc = Reader::new().document(object.into_source());
/// let page = doc.read(LineSelection::from(30_000_000..=30_000_250))?;
/// println!("{}", page.content);
/// # Ok::<(), rangeread::Error>(())
/// ```
pub struct ObjectSource {
    store: Arc<dyn ObjectStore>,
    location: ObjectPath,
    url: String,
    /// Size, ETag and last-modified time of the version this source reads.
    meta: object_store::ObjectMeta,
    runtime: Runtime,
    config: ObjectConfig,
    state: Mutex<State>,
    counters: Arc<Counters>,
}

impl std::fmt::Debug for ObjectSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObjectSource")
            .field("url", &self.url)
            .field("len", &self.meta.size)
            .field("e_tag", &self.meta.e_tag)
            .finish_non_exhaustive()
    }
}

impl ObjectSource {
    /// Opens the object at `url` (`s3://bucket/key`, `gs://bucket/key`,
    /// `az://container/key`, `https://host/path`), with credentials and endpoint from the
    /// environment, and fetches its first window (one request, which also tells its size
    /// and version).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] when there is no such object, [`Error::PermissionDenied`] when
    /// the store refuses the credentials, [`Error::Io`] for a URL no store understands
    /// (kind `InvalidInput`) and for anything else (the store's message included).
    pub fn open(url: &str) -> Result<ObjectSource> {
        ObjectSource::open_with(url, ObjectConfig::default())
    }

    /// Like [`ObjectSource::open`], with a configuration.
    ///
    /// # Errors
    ///
    /// As [`ObjectSource::open`].
    pub fn open_with(url: &str, config: ObjectConfig) -> Result<ObjectSource> {
        let (store, location) = store_for_url(url)?;
        ObjectSource::from_store(store, location, url, config)
    }

    /// Reads `location` of a store the host built (any `object_store` backend, with its
    /// own credentials, retries and client options); `name` is what messages, caches and
    /// persistent indexes call it (a URL, say).
    ///
    /// # Errors
    ///
    /// As [`ObjectSource::open`].
    pub fn from_store(
        store: Arc<dyn ObjectStore>,
        location: ObjectPath,
        name: &str,
        config: ObjectConfig,
    ) -> Result<ObjectSource> {
        let mut src = ObjectSource::unopened(store, location, name, config)?;
        src.open_first_window()?;
        Ok(src)
    }

    /// Opens `location` at a version an earlier read saw (`size` bytes, ETag
    /// `version`: what an index directory stored), without a request: the first read is
    /// the first request, conditional on that ETag (`If-Match`), and an object that is
    /// no longer that version fails it with [`Error::Changed`]. `None` for a version that
    /// is no ETag (a store without ETags is opened as usual).
    pub(crate) fn at_version(
        store: Arc<dyn ObjectStore>,
        location: ObjectPath,
        name: &str,
        config: ObjectConfig,
        size: u64,
        version: &str,
    ) -> Option<Result<ObjectSource>> {
        // `version()` spells a version without an ETag as `SIZE@NANOS`.
        let no_tag = version
            .strip_prefix(&format!("{size}@"))
            .is_some_and(|n| n.parse::<i64>().is_ok());
        if no_tag || size == 0 {
            return None;
        }
        Some(
            ObjectSource::unopened(store, location, name, config).map(|mut src| {
                src.meta.size = size;
                src.meta.e_tag = Some(version.to_string());
                src
            }),
        )
    }

    /// A source on `location` that has asked nothing yet (size 0, no version).
    fn unopened(
        store: Arc<dyn ObjectStore>,
        location: ObjectPath,
        name: &str,
        config: ObjectConfig,
    ) -> Result<ObjectSource> {
        let runtime = match &config.runtime {
            Some(h) => Runtime::Host(h.clone()),
            None => Runtime::Owned(
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .thread_name("rangeread-object-store")
                    .enable_all()
                    .build()
                    .map_err(|e| Error::io(FsPath::new(name), e))?,
            ),
        };
        Ok(ObjectSource {
            store,
            location,
            url: name.to_string(),
            meta: object_store::ObjectMeta {
                location: ObjectPath::default(),
                last_modified: Default::default(),
                size: 0,
                e_tag: None,
                version: None,
            },
            runtime,
            state: Mutex::new(State::default()),
            counters: config.counters.clone().unwrap_or_default(),
            config,
        })
    }

    /// The first request: the first window, unconditional, which also tells the size
    /// and the version every later request is conditional on.
    fn open_first_window(&mut self) -> Result<()> {
        let path = FsPath::new(&self.url).to_path_buf();
        let path = path.as_path();
        let first = self.get(GetRange::Bounded(0..self.config.window), true);
        match first {
            Ok((meta, range, data)) => {
                self.meta = meta;
                let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
                state.insert(range.start, data, self.config.cache_bytes);
            }
            Err(first_err) => {
                // An empty object has no byte to ask for: learn its size from its
                // metadata instead.
                if matches!(first_err, object_store::Error::NotFound { .. }) {
                    return Err(open_error(path, first_err));
                }
                self.counters.requests.fetch_add(1, Ordering::Relaxed);
                let head = self
                    .runtime
                    .block_on(self.store.head(&self.location))
                    .map_err(|e| Error::io(path, e))?;
                match head {
                    Ok(meta) if meta.size == 0 => self.meta = meta,
                    _ => return Err(open_error(path, first_err)),
                }
            }
        }
        Ok(())
    }

    /// This object as a [`Source`] to read with [`crate::Reader::document`].
    pub fn into_source(self) -> Source {
        let name = self.url.clone();
        Source::from_random_access(Arc::new(self), name)
    }

    /// A [`Source`] over a shared object source: keep the `Arc` to look at
    /// [`ObjectSource::stats`] after reads.
    pub fn source(self: &Arc<Self>) -> Source {
        Source::from_random_access(self.clone(), &self.url)
    }

    /// The object's size in bytes.
    pub fn size(&self) -> u64 {
        self.meta.size
    }

    /// The object's ETag, when the store gives one.
    pub fn e_tag(&self) -> Option<&str> {
        self.meta.e_tag.as_deref()
    }

    /// Requests made and bytes received so far.
    pub fn stats(&self) -> ObjectStats {
        self.counters.stats()
    }

    /// The options of every request after the first: conditional on the version read.
    fn options(&self, range: GetRange, first: bool) -> GetOptions {
        let mut o = GetOptions {
            range: Some(range),
            ..GetOptions::default()
        };
        if !first {
            match &self.meta.e_tag {
                Some(tag) => o.if_match = Some(tag.clone()),
                None => o.if_unmodified_since = Some(self.meta.last_modified),
            }
        }
        o
    }

    /// Whether `meta` (of a response) describes the version this source reads: a store
    /// that ignores `If-Match` is still caught by the ETag and size it reports.
    fn same_version(&self, meta: &object_store::ObjectMeta) -> bool {
        meta.size == self.meta.size && (self.meta.e_tag.is_none() || meta.e_tag == self.meta.e_tag)
    }

    /// One ranged `GET`, read whole.
    fn get(
        &self,
        range: GetRange,
        first: bool,
    ) -> object_store::Result<(object_store::ObjectMeta, Range<u64>, Bytes)> {
        let options = self.options(range, first);
        let result = self
            .runtime
            .block_on(async {
                let r = self.store.get_opts(&self.location, options).await?;
                let (meta, range) = (r.meta.clone(), r.range.clone());
                Ok((meta, range, r.bytes().await?))
            })
            .map_err(|e| object_store::Error::Generic {
                store: "rangeread",
                source: Box::new(e),
            })?;
        self.counters.requests.fetch_add(1, Ordering::Relaxed);
        if let Ok((_, _, data)) = &result {
            self.counters
                .bytes
                .fetch_add(data.len() as u64, Ordering::Relaxed);
        }
        result
    }

    /// Fetches `[start, end)` into the cache with one request.
    fn fetch(&self, st: &mut State, start: u64, end: u64) -> io::Result<()> {
        let (meta, range, data) = self
            .get(GetRange::Bounded(start..end), false)
            .map_err(read_error)?;
        if !self.same_version(&meta) || range.start != start || data.len() as u64 != end - start {
            return Err(io::ErrorKind::StaleNetworkFileHandle.into());
        }
        st.insert(start, data, self.config.cache_bytes.max(self.config.window));
        Ok(())
    }

    /// The window to fetch for a read of `[o, need_end)` that misses the cache at `pos`.
    fn window(&self, st: &State, pos: u64, need_end: u64) -> (u64, u64) {
        let len = self.meta.size;
        let gap_start = st.end_before(pos);
        let gap_end = st.start_after(pos, len);
        let w = self.config.window;
        if gap_end < len && gap_end <= need_end {
            // The read runs into cached bytes after it: a walk backward from the end
            // (a tail). Fetch the window that ends there.
            let ws = gap_end.saturating_sub(w).max(gap_start).min(pos);
            (ws, gap_end)
        } else {
            // Half the window before the read: the summary of what precedes a page looks
            // back 256 KiB (in 64 KiB blocks, and at the byte before each), and the
            // window serves it with the page and what follows it.
            let ws = (pos - pos % ALIGN).saturating_sub(w / 2).max(gap_start);
            let we = ws.saturating_add(w).max(need_end).min(gap_end).min(len);
            (ws, we)
        }
    }

    /// Whether a read that misses the cache at `pos` starts the announced pass `plan`: it
    /// is the pass itself (everything from the pass's start to `pos` is cached: the
    /// pass got there through the cache), or a read at most one window before it, which
    /// the pass's stream then carries. Any other read (a tail while a count of the front
    /// is announced) fetches its own window and leaves the pass for later.
    fn takes(&self, st: &State, plan: &Range<u64>, pos: u64) -> bool {
        if pos < plan.start {
            plan.start - pos <= self.config.window
        } else {
            pos < plan.end && st.cached_through(plan.start) >= pos
        }
    }

    /// Serves `buf` at `pos` from a stream, if one is at (or just before) `pos`, or from a
    /// new one when a front-to-back pass over `pos` was announced. Returns the bytes
    /// copied (0: no stream for `pos`).
    fn read_stream(&self, st: &mut State, pos: u64, buf: &mut [u8]) -> io::Result<usize> {
        let i = st
            .streams
            .iter()
            .position(|s| s.next <= pos && pos < s.end && pos - s.next <= self.config.window);
        let mut stream = match i {
            Some(i) => st.streams.swap_remove(i),
            None => {
                let Some(plan) = st.planned.clone().filter(|p| self.takes(st, p, pos)) else {
                    return Ok(0);
                };
                st.planned = None;
                // The stream starts where a window for `pos` would (half a window before
                // it, never over cached bytes), so that the summary of what precedes the
                // page, and a page read just before the pass, come with the pass.
                let ws = (pos - pos % ALIGN)
                    .saturating_sub(self.config.window / 2)
                    .max(st.end_before(pos));
                let options = self.options(GetRange::Bounded(ws..plan.end.max(pos + 1)), false);
                let opened = self
                    .runtime
                    .block_on(self.store.get_opts(&self.location, options))?
                    .map_err(read_error)?;
                self.counters.requests.fetch_add(1, Ordering::Relaxed);
                if !self.same_version(&opened.meta) || opened.range.start != ws {
                    return Err(io::ErrorKind::StaleNetworkFileHandle.into());
                }
                Stream {
                    next: ws,
                    end: opened.range.end,
                    pending: Bytes::new(),
                    body: opened.into_stream(),
                }
            }
        };
        // The whole buffer is filled in one trip to the runtime: the body arrives in
        // frames of a few KiB, and a trip per frame cost more than the count.
        let counters = &self.counters;
        // What the stream passes before `pos` is kept too (not dropped): the bytes before
        // a pass, and those a reader skipped over.
        let mut passed: Vec<(u64, Bytes)> = Vec::new();
        let filled = self.runtime.block_on(async {
            let mut done = 0;
            while done < buf.len() && stream.next < stream.end {
                if stream.pending.is_empty() {
                    match stream.body.next().await {
                        Some(Ok(b)) => {
                            counters.bytes.fetch_add(b.len() as u64, Ordering::Relaxed);
                            stream.pending = b;
                        }
                        Some(Err(e)) => return Err(read_error(e)),
                        None => return Err(io::Error::from(io::ErrorKind::UnexpectedEof)),
                    }
                }
                let at = pos + done as u64;
                if stream.next < at {
                    let skip = ((at - stream.next) as usize).min(stream.pending.len());
                    passed.push((stream.next, stream.pending.split_to(skip)));
                    stream.next += skip as u64;
                    continue;
                }
                let n = stream.pending.len().min(buf.len() - done);
                let piece = stream.pending.split_to(n);
                buf[done..done + n].copy_from_slice(&piece);
                stream.next += n as u64;
                done += n;
            }
            Ok(done)
        });
        let done = filled??;
        let budget = self.config.cache_bytes.max(self.config.window);
        for (at, data) in passed {
            st.insert(at, data, budget);
        }
        // What the pass read stays for the reads that follow it (the page after a count).
        st.insert(
            pos,
            Bytes::copy_from_slice(&buf[..done]),
            self.config.cache_bytes.max(self.config.window),
        );
        if stream.next < stream.end {
            st.streams.push(stream);
        }
        Ok(done)
    }
}

impl RandomAccess for ObjectSource {
    fn len(&self) -> u64 {
        self.meta.size
    }

    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let need_end = offset
            .checked_add(buf.len() as u64)
            .filter(|&e| e <= self.meta.size)
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut done = 0;
        while done < buf.len() {
            let pos = offset + done as u64;
            let n = st.copy_from_cache(pos, &mut buf[done..]);
            if n > 0 {
                done += n;
                continue;
            }
            let n = self.read_stream(&mut st, pos, &mut buf[done..])?;
            if n > 0 {
                done += n;
                continue;
            }
            let (ws, we) = self.window(&st, pos, need_end);
            self.fetch(&mut st, ws, we)?;
        }
        Ok(())
    }

    fn identity(&self) -> Option<String> {
        Some(self.url.clone())
    }

    fn version(&self) -> Option<String> {
        Some(match &self.meta.e_tag {
            Some(tag) => tag.clone(),
            None => format!(
                "{}@{}",
                self.meta.size,
                self.meta
                    .last_modified
                    .timestamp_nanos_opt()
                    .unwrap_or_default()
            ),
        })
    }

    fn will_read(&self, start: u64, end: u64) {
        // A range one window covers is fetched as one; a longer one is one stream.
        if end.saturating_sub(start) <= self.config.window {
            return;
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // A pass already announced or in progress that runs through the range (a read
        // that announced its count to the end, before the scan that begins it) stays.
        let w = self.config.window;
        let covered = st
            .planned
            .as_ref()
            .is_some_and(|p| p.start <= start && end <= p.end)
            || st
                .streams
                .iter()
                .any(|s| s.next <= start.saturating_add(w) && end <= s.end);
        if !covered {
            st.planned = Some(start..end);
        }
    }
}

/// The store and the key of `url`.
pub(crate) fn store_for_url(url: &str) -> Result<(Arc<dyn ObjectStore>, ObjectPath)> {
    let path = FsPath::new(url);
    let invalid = |reason: String| Error::Io {
        path: path.to_path_buf(),
        source: io::Error::new(io::ErrorKind::InvalidInput, reason),
    };
    let parsed = url::Url::parse(url).map_err(|e| invalid(format!("not a URL ({e})")))?;
    let key = || {
        let raw = parsed.path().trim_start_matches('/');
        ObjectPath::from_url_path(raw).map_err(|e| invalid(e.to_string()))
    };
    let retry = RetryConfig {
        max_retries: 2,
        retry_timeout: Duration::from_secs(20),
        ..RetryConfig::default()
    };
    let built: object_store::Result<Arc<dyn ObjectStore>> = match parsed.scheme() {
        "s3" | "s3a" => {
            let mut b = object_store::aws::AmazonS3Builder::from_env()
                .with_url(url)
                .with_retry(retry);
            let endpoint = std::env::var("AWS_ENDPOINT_URL")
                .or_else(|_| std::env::var("AWS_ENDPOINT"))
                .unwrap_or_default();
            if endpoint.starts_with("http://") {
                b = b.with_allow_http(true);
            }
            b.build().map(|s| Arc::new(s) as _)
        }
        "gs" => object_store::gcp::GoogleCloudStorageBuilder::from_env()
            .with_url(url)
            .with_retry(retry)
            .build()
            .map(|s| Arc::new(s) as _),
        "az" | "azure" | "abfs" | "abfss" | "adl" => {
            object_store::azure::MicrosoftAzureBuilder::from_env()
                .with_url(url)
                .with_retry(retry)
                .build()
                .map(|s| Arc::new(s) as _)
        }
        "http" | "https" => {
            let origin = &parsed[..url::Position::BeforePath];
            object_store::http::HttpBuilder::new()
                .with_url(origin)
                .with_retry(retry)
                .with_client_options(
                    object_store::ClientOptions::new().with_allow_http(parsed.scheme() == "http"),
                )
                .build()
                .map(|s| Arc::new(s) as _)
        }
        other => {
            return Err(invalid(format!(
                "no object store for the scheme \"{other}\" (use s3://, gs://, az://, http:// or https://)"
            )))
        }
    };
    let store = built.map_err(|e| invalid(e.to_string()))?;
    Ok((store, key()?))
}

/// The crate's error for a failed first request.
fn open_error(path: &FsPath, e: object_store::Error) -> Error {
    let path = path.to_path_buf();
    match e {
        object_store::Error::NotFound { .. } => Error::NotFound { path },
        object_store::Error::PermissionDenied { .. }
        | object_store::Error::Unauthenticated { .. } => Error::PermissionDenied { path },
        e => Error::Io {
            path,
            source: io::Error::other(e),
        },
    }
}

/// An I/O error for a failed request after the first: the object is gone or replaced
/// (a change), or the store failed.
fn read_error(e: object_store::Error) -> io::Error {
    match e {
        object_store::Error::NotFound { .. }
        | object_store::Error::Precondition { .. }
        | object_store::Error::NotModified { .. } => io::ErrorKind::StaleNetworkFileHandle.into(),
        object_store::Error::PermissionDenied { .. }
        | object_store::Error::Unauthenticated { .. } => {
            io::Error::new(io::ErrorKind::PermissionDenied, e)
        }
        e => io::Error::other(e),
    }
}
