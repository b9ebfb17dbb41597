//! Loading a PDF and extracting its pages' text within the call's bounds (feature `pdf`).

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use lopdf::{Document, LoadOptions, ObjectId};
use pdf_extract::{MediaBox, OutputDev, OutputError, PlainTextOutput, Transform};

use super::bounds::{self, Budget, Over};
use super::charge;
use super::fonts;
use super::learned::{self, Facts, Overview};
use super::outline;
use super::store::Store;
use super::xref::Fail;
use super::{PageContinuation, PageInfo, PageSelection, PdfLoading, PdfOptions, PdfPage, PdfRead};
use crate::cache::IndexCache;
use crate::error::{escaped, Error, Result};
use crate::source::Source;
use crate::text::utf8::floor_boundary;

/// The kind what a read learned is kept under in an [`IndexCache`].
const LEARNED: &str = "pdf";

/// Characters laid out between two looks at the clock.
const CLOCK_EVERY: u32 = 4096;

/// The stack of the thread that parses: lopdf's parser and pdf-extract's layout recurse
/// on nested objects and XObjects (cycles are refused first, see `xobjects`); the memory
/// is reserved, and only what the recursion touches is used.
const PARSE_STACK: usize = 256 << 20;

pub(super) fn read(
    src: &Source,
    selection: PageSelection,
    options: &PdfOptions,
    cache: Option<&IndexCache>,
) -> Result<PdfRead> {
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("rangeread-pdf".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(s, || parse(src, selection, options, cache));
        match spawned {
            Ok(handle) => handle.join().unwrap_or_else(|panic| {
                Err(invalid(
                    src,
                    &format!("the parser failed ({})", panic_text(&panic)),
                ))
            }),
            // No thread to be had: parse here, with the caller's stack.
            Err(_) => parse(src, selection, options, cache),
        }
    })
}

fn parse(
    src: &Source,
    selection: PageSelection,
    options: &PdfOptions,
    cache: Option<&IndexCache>,
) -> Result<PdfRead> {
    let path = src.path();
    let limit = |message: String| Error::DocumentLimit {
        path: path.to_path_buf(),
        message,
    };
    let mut budget = Budget {
        left: options.max_decompressed_bytes,
        total: options.max_decompressed_bytes,
        deadline: Instant::now() + options.timeout,
    };
    let over = |o: Over, what: &str| match o {
        Over::Inflate(n) => limit(format!(
            "{} would decompress to more than {n} bytes {what} (max_decompressed_bytes): it \
             may be a decompression bomb. Ask for fewer pages, or raise the limit if the file \
             is trusted.",
            escaped(path)
        )),
        Over::Time => limit(format!(
            "Reading {} took longer than {} s {what} (timeout); ask for fewer pages.",
            escaped(path),
            options.timeout.as_secs()
        )),
        Over::Drawing(how) => limit(format!(
            "{} {what}: a page {how}, more than a read follows. Ask for other pages.",
            escaped(path)
        )),
        Over::Cycle((n, g)) => invalid(
            src,
            &format!(
                "{what}, XObject {n} {g} R draws itself (through the XObjects it draws), which \
                 no reader can finish; other pages may read"
            ),
        ),
    };
    let objects = |n: u64| {
        limit(format!(
            "{} has {n} objects, more than the {} a read may parse (max_objects).",
            escaped(path),
            options.max_objects
        ))
    };
    let fail = |f: Fail, what: &str| match f {
        Fail::Over(o) => over(o, what),
        Fail::Bad(m) => invalid(src, &m),
        Fail::Io(e) => e,
        Fail::Objects(n) => objects(n),
    };
    // What an earlier read left (with a cache): the text of pages read before is not
    // extracted again.
    let mut facts = Facts::default();
    let mut overview = None;
    let mut opened = match options.loading {
        PdfLoading::WholeFile => whole(src, options, &mut budget, &over, &objects)?,
        PdfLoading::OnDemand => {
            let known = cache
                .and_then(|c| c.document(src, LEARNED, learned::MAX_BYTES))
                .and_then(|b| learned::decode(&b));
            match known {
                // Every page asked for was read before: the file need not be parsed.
                Some(k) if covers(&k.facts, selection) => {
                    facts = k.facts;
                    Opened::Known {
                        page_count: facts.page_count.unwrap_or_default(),
                        title: facts.title.clone(),
                    }
                }
                known => {
                    let known = known.map(|k| {
                        facts = k.facts;
                        (k.table, k.pages)
                    });
                    let store = Store::open(
                        src,
                        &options.password,
                        options.max_objects,
                        &mut budget,
                        known,
                    )
                    .map_err(|f| fail(f, "in its cross-reference data"))?;
                    let what = match selection {
                        PageSelection::All => "across its pages",
                        PageSelection::Range { .. } => "in its page tree",
                    };
                    let (opened, ov) =
                        on_demand(store, selection, cache.is_some(), &facts, &mut budget)
                            .map_err(|f| fail(f, what))?;
                    overview = ov;
                    opened
                }
            }
        }
    };
    let page_count = opened.page_count();
    let encrypted = opened.encrypted();
    if page_count == 0 && encrypted {
        return Err(invalid(
            src,
            "it is encrypted and the password does not open it",
        ));
    }
    let (first, last) = match selection {
        PageSelection::All => (1, page_count),
        PageSelection::Range { start, end } => {
            if start > page_count {
                return Err(Error::PageBeyondEnd {
                    start: crate::error::int(start),
                    page_count: crate::error::int(page_count),
                });
            }
            (start, end.unwrap_or(page_count).min(page_count))
        }
    };
    let learned_overview = cache.is_some() && facts.overview.is_none() && overview.is_some();
    if learned_overview {
        facts.overview.clone_from(&overview);
    }
    let (outline, page_info) = match (&opened, overview) {
        (_, Some(o)) => o,
        (Opened::Whole { doc, pages, .. }, None) if selection == PageSelection::All => {
            let numbers = pages.iter().map(|(&n, &id)| (id, u64::from(n))).collect();
            let catalog = doc.catalog().cloned().unwrap_or_default();
            let outline = outline::read(&mut &**doc, &catalog, &numbers, &mut budget)
                .map_err(|f| fail(f, "in its outline"))?;
            let table =
                page_table(doc, pages, &mut budget).map_err(|o| over(o, "across its pages"))?;
            (outline, table)
        }
        _ => (Vec::new(), Vec::new()),
    };
    let mut out = Vec::new();
    let mut used = 0u64;
    let mut truncated = None;
    let mut learned_text = false;
    let mut kept: usize = facts.texts.values().map(|p| p.text.len()).sum();
    for n in first..=last {
        let mut page = match facts.texts.get(&n) {
            Some(p) => p.clone(),
            None => {
                let what = format!("by page {n}");
                let Some((doc, id, number)) =
                    opened.prepare(n, &mut budget).map_err(|f| fail(f, &what))?
                else {
                    return Err(invalid(src, &format!("its page {n} cannot be found")));
                };
                let content = charge::page(doc, id, &mut budget).map_err(|o| over(o, &what))?;
                // A page that fails is tried once more with stand-ins for fonts its
                // resources lack (the content is parsed for its fonts only then).
                let mut text = page_text(doc, number, &budget);
                if matches!(text, Err(PageError::Failed(_)))
                    && fonts::stand_in(doc, id, &content) > 0
                {
                    text = page_text(doc, number, &budget);
                }
                let doc: &Document = doc;
                let text = text.map_err(|e| match e {
                    PageError::Over(o) => over(o, &what),
                    PageError::Failed(m) => {
                        invalid(src, &format!("page {n} could not be read: {m}"))
                    }
                })?;
                let page = finish(n, text, doc, id, &content);
                // Kept for the next read (never an encrypted file's text: the index
                // directory would hold what the password protects).
                if cache.is_some()
                    && matches!(opened, Opened::Lazy { .. })
                    && !encrypted
                    && kept + page.text.len() <= learned::MAX_TEXT
                {
                    kept += page.text.len();
                    facts.texts.insert(n, page.clone());
                    learned_text = true;
                }
                page
            }
        };
        let cost = page.text.len() as u64;
        if options.max_bytes > 0 && used + cost > options.max_bytes {
            if !out.is_empty() {
                truncated = Some(PageContinuation {
                    next_page: n,
                    pages_left: last - n + 1,
                });
                break;
            }
            let cut = floor_boundary(page.text.as_bytes(), options.max_bytes as usize);
            page.text.truncate(cut);
            page.cut = true;
            if n < last {
                truncated = Some(PageContinuation {
                    next_page: n + 1,
                    pages_left: last - n,
                });
            }
            out.push(page);
            break;
        }
        used += cost;
        out.push(page);
    }
    if let (Some(cache), Opened::Lazy { store, title, .. }) = (cache, &opened) {
        if store.learned || learned_text || learned_overview {
            facts.page_count = Some(page_count);
            facts.title.clone_from(title);
            cache.keep_document(src, LEARNED, store.learned_bytes(&facts));
        }
    }
    Ok(PdfRead {
        path: path.display().to_string(),
        resolved_path: path.display().to_string(),
        file_size: src.len(),
        page_count,
        title: opened.title(),
        encrypted,
        // The outline is part of the overview; a read of chosen pages skips its cost
        // (lopdf resolves every bookmark's destination: 0.2 s for R's reference manual).
        outline,
        requested: selection.to_string(),
        page_info,
        pages: out,
        truncated,
    })
}

/// Whether what an earlier read learned answers `selection` without the file: the page
/// count and the text of every page selected (a selection past the end is answered from
/// the page count).
fn covers(known: &Facts, selection: PageSelection) -> bool {
    let (Some(count), PageSelection::Range { start, end }) = (known.page_count, selection) else {
        return false;
    };
    start > count || (start..=end.unwrap_or(count).min(count)).all(|n| known.texts.contains_key(&n))
}

/// The file opened on demand for `selection`: for the overview, everything the catalog
/// reaches loaded and read as a whole document; else the page count and the title, from
/// what an earlier read learned when it did (`known`: the page count, the title and the
/// texts kept).
fn on_demand<'s>(
    mut store: Store<'s>,
    selection: PageSelection,
    cached: bool,
    known: &Facts,
    budget: &mut Budget,
) -> Result<(Opened<'s>, Option<Overview>), Fail> {
    let title = match known.page_count {
        Some(_) => known.title.clone(),
        None => store.info(budget).ok().flatten(),
    };
    if selection == PageSelection::All {
        // The overview: the page tree, the outline and every page's content streams
        // (their size, whether they show text or draw images); a page's fonts and
        // resources only for the pages whose text is returned, and for those that draw
        // an XObject (is it an image?). An earlier overview's is taken as it was.
        let overview = match &known.overview {
            Some(o) if store.pages.len() == o.1.len() => o.clone(),
            _ => overview(&mut store, cached, budget)?,
        };
        return Ok((
            Opened::Lazy {
                store: Box::new(store),
                page_count: overview.1.len() as u64,
                title,
            },
            Some(overview),
        ));
    }
    let page_count = match known.page_count {
        Some(n) => n,
        None => {
            store.learned = true;
            store.page_count(budget)?
        }
    };
    Ok((
        Opened::Lazy {
            store: Box::new(store),
            page_count,
            title,
        },
        None,
    ))
}

/// The outline and every page's size, read on demand.
fn overview(store: &mut Store, cached: bool, budget: &mut Budget) -> Result<Overview, Fail> {
    let ids = store.all_pages(budget)?;
    let numbers = (1u64..).zip(&ids).map(|(n, &id)| (id, n)).collect();
    let catalog = store.root_dict(budget)?.unwrap_or_default();
    let outline = outline::read(store, &catalog, &numbers, budget)?;
    let mut info = Vec::with_capacity(ids.len());
    for (n, &id) in (1u64..).zip(&ids) {
        store.load_contents(id, budget)?;
        let content = charge::contents(&store.doc, id, budget)?;
        let has_images = charge::paints_xobjects(&content) && {
            store.load_page(id, budget)?;
            charge::draws_images(&store.doc, id, &content)
        };
        info.push(page_info(n, &content, has_images));
    }
    if cached {
        // Every page is known now: the next read of one goes straight to it.
        store.pages = (1u64..).zip(ids.iter().copied()).collect();
        store.learned = true;
    }
    Ok((outline, info))
}

/// A document opened for a read: parsed whole, or read on demand.
enum Opened<'s> {
    Whole {
        doc: Box<Document>,
        pages: BTreeMap<u32, ObjectId>,
        title: Option<lopdf::Object>,
        encrypted: bool,
    },
    Lazy {
        store: Box<Store<'s>>,
        page_count: u64,
        title: Option<lopdf::Object>,
    },
    /// Every page asked for is known from an earlier read ([`learned`]): nothing to
    /// prepare.
    Known {
        page_count: u64,
        title: Option<lopdf::Object>,
    },
}

impl Opened<'_> {
    fn page_count(&self) -> u64 {
        match self {
            Opened::Whole { pages, .. } => pages.len() as u64,
            Opened::Lazy { page_count, .. } | Opened::Known { page_count, .. } => *page_count,
        }
    }

    fn encrypted(&self) -> bool {
        match self {
            Opened::Whole { encrypted, .. } => *encrypted,
            Opened::Lazy { store, .. } => store.encrypted(),
            Opened::Known { .. } => false,
        }
    }

    fn title(&self) -> Option<String> {
        let t = match self {
            Opened::Whole { title, .. }
            | Opened::Lazy { title, .. }
            | Opened::Known { title, .. } => title.as_ref()?,
        };
        let s = lopdf::decode_text_string(t).ok()?;
        let s = s.trim().to_string();
        (!s.is_empty()).then_some(s)
    }

    /// Page `n` made ready for the text extractor: the document to read it from (given
    /// stand-ins for fonts the page lacks when its text fails, [`fonts`]), its id, and the
    /// number the document knows it by.
    fn prepare(
        &mut self,
        n: u64,
        budget: &mut Budget,
    ) -> Result<Option<(&mut Document, ObjectId, u32)>, Fail> {
        match self {
            Opened::Whole { doc, pages, .. } => {
                Ok(pages.get(&(n as u32)).map(|&id| (&mut **doc, id, n as u32)))
            }
            Opened::Lazy { store, .. } => {
                let Some(id) = store.page(n, budget)? else {
                    return Ok(None);
                };
                store.load_page(id, budget)?;
                store.show(id);
                Ok(Some((&mut store.doc, id, 1)))
            }
            Opened::Known { .. } => Ok(None),
        }
    }
}

/// Parses the whole file first ([`PdfLoading::WholeFile`]): the file in memory, its
/// object streams' decompression counted, then lopdf's load of every object.
fn whole(
    src: &Source,
    options: &PdfOptions,
    budget: &mut Budget,
    over: &dyn Fn(Over, &str) -> Error,
    objects: &dyn Fn(u64) -> Error,
) -> Result<Opened<'static>> {
    let path = src.path();
    if src.len() > options.max_file_bytes {
        return Err(Error::DocumentLimit {
            path: path.to_path_buf(),
            message: format!(
                "{} is {} bytes, more than the {} a PDF may have to be parsed whole \
                 (max_file_bytes). Read it on demand (PdfLoading::OnDemand), or split it \
                 first (e.g. `qpdf --split-pages=100 FILE out.pdf`).",
                escaped(path),
                src.len(),
                options.max_file_bytes
            ),
        });
    }
    let mut raw = Vec::new();
    src.read_append(0, src.len() as usize, &mut raw)?;
    src.check_unchanged()?;
    bounds::object_streams(&raw, budget).map_err(|o| over(o, "in its object streams"))?;
    let doc = load(&raw, options).map_err(|m| {
        if m.contains("password") || m.contains("ecrypt") {
            invalid(
                src,
                &format!(
                    "it is encrypted and needs a password ({m}); ask for the password and \
                     give it as PdfOptions::password"
                ),
            )
        } else {
            invalid(src, &m)
        }
    })?;
    if doc.objects.len() as u64 > options.max_objects {
        return Err(objects(doc.objects.len() as u64));
    }
    let pages = doc.get_pages();
    let encrypted = doc.was_encrypted() || doc.trailer.get(b"Encrypt").is_ok();
    let title = title(&doc);
    Ok(Opened::Whole {
        doc: Box::new(doc),
        pages,
        title,
        encrypted,
    })
}

fn invalid(src: &Source, what: &str) -> Error {
    Error::InvalidDocument {
        path: src.path().to_path_buf(),
        message: format!(
            "{} cannot be read as a PDF: {what}. If it opens elsewhere, extract its text with \
             `pdftotext FILE -`.",
            escaped(src.path())
        ),
    }
}

/// lopdf's load, a panic caught; the empty password opens files encrypted against
/// changes only.
fn load(raw: &[u8], options: &PdfOptions) -> Result<Document, String> {
    let loaded = catch_unwind(AssertUnwindSafe(|| {
        let mut doc = if options.password.is_empty() {
            Document::load_mem(raw)
        } else {
            Document::load_mem_with_options(raw, LoadOptions::with_password(&options.password))
        }?;
        if doc.is_encrypted() && doc.get_pages().is_empty() {
            doc.decrypt(&options.password)?;
        }
        Ok::<_, lopdf::Error>(doc)
    }));
    match loaded {
        Ok(Ok(doc)) => Ok(doc),
        Ok(Err(e)) => Err(e.to_string()),
        Err(panic) => Err(format!("the parser failed ({})", panic_text(&panic))),
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// Every page's content size and whether it shows text or images.
fn page_table(
    doc: &Document,
    pages: &BTreeMap<u32, ObjectId>,
    budget: &mut Budget,
) -> Result<Vec<PageInfo>, Over> {
    let mut out = Vec::with_capacity(pages.len());
    for (&n, &id) in pages {
        let content = charge::contents(doc, id, budget)?;
        let has_images = charge::draws_images(doc, id, &content);
        out.push(page_info(u64::from(n), &content, has_images));
    }
    Ok(out)
}

/// What the page table says of page `n`, whose content is `content`.
fn page_info(n: u64, content: &[u8], has_images: bool) -> PageInfo {
    PageInfo {
        page: n,
        content_bytes: content.len() as u64,
        has_text: charge::shows_text(content),
        has_images,
    }
}

enum PageError {
    Over(Over),
    Failed(String),
}

/// pdf-extract's plain-text layout of one page, stopped at the deadline, a panic caught.
fn page_text(doc: &Document, page: u32, budget: &Budget) -> Result<String, PageError> {
    budget.check_time().map_err(PageError::Over)?;
    let mut text = String::new();
    let mut timed_out = false;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut dev = Clocked {
            inner: PlainTextOutput::new(&mut text),
            deadline: budget.deadline,
            count: 0,
            timed_out: &mut timed_out,
        };
        pdf_extract::output_doc_page(doc, &mut dev, page)
    }));
    if timed_out {
        return Err(PageError::Over(Over::Time));
    }
    match result {
        Ok(Ok(())) => Ok(text),
        Ok(Err(e)) => Err(PageError::Failed(e.to_string())),
        Err(panic) => Err(PageError::Failed(format!(
            "the text extractor failed ({})",
            panic_text(&panic)
        ))),
    }
}

/// The page's record: text tidied (blank lines at the ends dropped, one final line
/// feed), flags for pages without text.
fn finish(n: u64, text: String, doc: &Document, id: ObjectId, content: &[u8]) -> PdfPage {
    let body = text.trim_start_matches(['\n', '\r']).trim_end();
    let no_text = body.chars().filter(|c| !c.is_whitespace()).count() < 3;
    let mut text = body.to_string();
    if !text.is_empty() {
        text.push('\n');
    }
    PdfPage {
        page: n,
        text_bytes: text.len() as u64,
        text,
        cut: false,
        no_text,
        likely_scanned: no_text && charge::draws_images(doc, id, content),
    }
}

/// A text output that looks at the clock every few thousand characters.
struct Clocked<'a, W: pdf_extract::ConvertToFmt> {
    inner: PlainTextOutput<W>,
    deadline: Instant,
    count: u32,
    timed_out: &'a mut bool,
}

impl<W: pdf_extract::ConvertToFmt> OutputDev for Clocked<'_, W> {
    fn begin_page(
        &mut self,
        page_num: u32,
        media_box: &MediaBox,
        art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.inner.begin_page(page_num, media_box, art_box)
    }
    fn end_page(&mut self) -> Result<(), OutputError> {
        self.inner.end_page()
    }
    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        self.count += 1;
        if self.count.is_multiple_of(CLOCK_EVERY) && Instant::now() > self.deadline {
            *self.timed_out = true;
            return Err(OutputError::FormatError(std::fmt::Error));
        }
        self.inner
            .output_character(trm, width, spacing, font_size, char)
    }
    fn begin_word(&mut self) -> Result<(), OutputError> {
        self.inner.begin_word()
    }
    fn end_word(&mut self) -> Result<(), OutputError> {
        self.inner.end_word()
    }
    fn end_line(&mut self) -> Result<(), OutputError> {
        self.inner.end_line()
    }
}

/// The Info dictionary's title object, if any.
fn title(doc: &Document) -> Option<lopdf::Object> {
    let info = doc.trailer.get(b"Info").ok()?;
    let (_, info) = doc.dereference(info).ok()?;
    let t = info.as_dict().ok()?.get(b"Title").ok()?;
    let (_, t) = doc.dereference(t).ok()?;
    Some(t.clone())
}
