//! PDF documents read by pages (feature `pdf`: lopdf and pdf-extract, pure Rust, no C and
//! no poppler).
//!
//! **What the caller gets:** a [`PdfRead`]: the `page_count`, the `title`, the `outline`
//! (bookmarks, with their pages), the text of the pages returned ([`PdfPage`], each under
//! a `--- page N ---` marker in [`PdfRead::render`]), pages without a text layer
//! flagged (`no_text`, `likely_scanned` when the page draws an image), and, when the
//! byte budget stopped the read before the last selected page, `truncated` with the page
//! to continue from. A read without a page selection also lists every page's
//! [`PageInfo`] (content size, text or not) and returns pages from the first until the
//! budget.
//!
//! A [`PageSelection`] parses from `"3"`, `"2-9"`, `"10-"` (pages from 1, inclusive). A
//! selection that starts past the last page is [`Error::PageBeyondEnd`], naming the page
//! count; an end past it is clamped.
//!
//! # A page costs its page
//!
//! A read goes where the pages are, as a line read goes to its line: it reads the
//! file's cross-reference data (tables and streams, through every incremental update,
//! linearized and hybrid-reference files included), then only the objects the selected
//! pages reach: the page tree path to each (subtrees before it skipped by their
//! `/Count`), its content streams, resources, fonts, character maps and XObjects, and
//! what it inherits. An object stream is decompressed when an object in it is needed,
//! once a call. The file is read where needed, with positional reads of the
//! [`Source`] (never mapped, never whole): page 1000 of a 2,415-page manual costs what
//! page 1 does, and a PDF of any size can be read. Cross-reference data that is missing
//! or points at the wrong bytes is rebuilt by a scan of the file, as poppler does. A
//! read without a selection (the overview) reads the page tree, every page's content
//! streams and the outline (bookmarks resolved through the name tree's `/Limits`), and
//! fonts only for the pages whose text it returns. [`PdfLoading::WholeFile`] parses every
//! object first instead, as reads did before.
//!
//! With an [`IndexCache`] ([`read_cached`], or a [`crate::Reader`] with a cache), what a
//! read learned (the cross-reference data, page objects, page count, title, outline and
//! page sizes, the text of the pages read; never an encrypted file's text) is kept for
//! the next read of the same, unchanged file, in memory and in the cache's index
//! directory: a second process reads a page without the cross-reference data, and a page
//! read before without laying it out again.
//!
//! # Bounded work
//!
//! A PDF is a program a stranger wrote. Every call is bounded ([`PdfOptions`]):
//!
//! - the file's size, for [`PdfLoading::WholeFile`] only (256 MiB by default: the file
//!   is then parsed in memory);
//! - the bytes decompressed, counted before the parser inflates anything: cross-reference
//!   and object streams as they are needed (all object streams first for a whole-file
//!   load), then each page's content streams, fonts' character maps and form XObjects
//!   before its text is extracted (512 MiB a call by default; a deflate bomb stops at the
//!   limit with [`Error::DocumentLimit`]);
//! - the objects (4 million by default: in the cross-reference data, and loaded by a
//!   call) and the wall-clock time (30 s by default, checked between objects, between
//!   pages and while a page's text is laid out);
//! - the XObjects a page draws are followed before the text extractor follows them: one
//!   that draws itself (which would overflow the stack, past any `catch_unwind`) is an
//!   [`Error::InvalidDocument`], more than 10,000 a page or nesting deeper than 32 an
//!   [`Error::DocumentLimit`]; and the parse runs on a thread of its own with a 256 MiB
//!   stack (reserved, not touched) for deeply nested objects;
//! - a panic inside a parser is caught and becomes [`Error::InvalidDocument`] naming the
//!   page; the process goes on.

#[cfg(feature = "pdf")]
mod bounds;
#[cfg(feature = "pdf")]
mod charge;
#[cfg(feature = "pdf")]
mod extract;
#[cfg(feature = "pdf")]
mod fonts;
#[cfg(feature = "pdf")]
mod learned;
#[cfg(feature = "pdf")]
mod outline;
#[cfg(feature = "pdf")]
mod scan;
#[cfg(feature = "pdf")]
mod store;
#[cfg(feature = "pdf")]
mod xobjects;
#[cfg(feature = "pdf")]
mod xref;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::cache::IndexCache;
use crate::error::{Error, Result};
use crate::source::Source;

/// The most bookmarks [`PdfRead::render`] shows (the result holds them all).
const OUTLINE_SHOWN: usize = 200;

/// What [`PdfRead::render_pages`] writes for a page without text (not likely scanned).
pub const NO_TEXT: &str = "[no text on this page]\n";

/// Which pages to read (numbered from 1, ranges inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PageSelection {
    /// No selection: the overview (page count, title, outline, every page's size) and
    /// pages from the first until the budget.
    #[default]
    All,
    /// Pages `start..=end` (no end: to the last page).
    Range {
        /// The first page, from 1.
        start: u64,
        /// The last page.
        end: Option<u64>,
    },
}

impl FromStr for PageSelection {
    type Err = Error;

    /// `"3"`, `"2-9"`, `"10-"`; `""` is no selection.
    ///
    /// ```
    /// use rangeread::pdf::PageSelection;
    /// assert_eq!("2-9".parse::<PageSelection>()?, PageSelection::Range { start: 2, end: Some(9) });
    /// assert_eq!(" 10- ".parse::<PageSelection>()?, PageSelection::Range { start: 10, end: None });
    /// assert!("0".parse::<PageSelection>().is_err());
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<PageSelection> {
        let t = s.trim();
        if t.is_empty() {
            return Ok(PageSelection::All);
        }
        let bad = || {
            Error::selection(format!(
                "Invalid pages \"{s}\": give one page (\"3\"), a range (\"2-9\") or an open \
                 range (\"10-\"). Pages are numbered from 1."
            ))
        };
        let num = |x: &str| x.trim().parse::<u64>().ok().filter(|&n| n > 0);
        let (start, end) = match t.split_once('-') {
            None => {
                let n = num(t).ok_or_else(bad)?;
                (n, Some(n))
            }
            Some((a, b)) => {
                let start = num(a).ok_or_else(bad)?;
                if b.trim().is_empty() {
                    (start, None)
                } else {
                    (start, Some(num(b).ok_or_else(bad)?))
                }
            }
        };
        if let Some(e) = end {
            if e < start {
                return Err(Error::selection(format!(
                    "Invalid pages \"{s}\": the first page ({start}) is after the last ({e}); \
                     give \"{e}-{start}\"."
                )));
            }
        }
        Ok(PageSelection::Range { start, end })
    }
}

impl fmt::Display for PageSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PageSelection::All => f.write_str("all"),
            PageSelection::Range { start, end } => crate::select::fmt_span(f, start, end),
        }
    }
}

/// How a read gets at a PDF's objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PdfLoading {
    /// By default: the cross-reference data (tables and streams, every incremental
    /// update; a scan of the file when it is broken), then only the objects the read
    /// reaches: the page tree path to each selected page and what its text needs. The
    /// file is read where needed, never whole: any size, a deep page as fast as the
    /// first. A read without a selection (the overview of every page and the outline)
    /// loads what the catalog reaches.
    #[default]
    OnDemand,
    /// Every object parsed first by lopdf's whole-document load, the file held in
    /// memory (and refused over [`PdfOptions::max_file_bytes`]): how reads worked
    /// before, kept as the reference the on-demand reads are tested against.
    WholeFile,
}

/// The limits of one read of a PDF.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PdfOptions {
    /// By default 100 KiB: pages are returned until their text reaches this many bytes
    /// (whole pages; a first page over it is cut); `0` means no limit.
    pub max_bytes: u64,
    /// By default 256 MiB: a [`PdfLoading::WholeFile`] read refuses larger files (it
    /// holds the file in memory); reads on demand have no size limit.
    pub max_file_bytes: u64,
    /// By default 512 MiB: the bytes a call may decompress.
    pub max_decompressed_bytes: u64,
    /// By default 4 million: documents with more objects are refused.
    pub max_objects: u64,
    /// By default 30 seconds a call.
    pub timeout: Duration,
    /// By default the empty password (which opens PDFs that are encrypted only against
    /// changes, as most are).
    pub password: String,
    /// By default [`PdfLoading::OnDemand`]: how the read gets at the objects.
    pub loading: PdfLoading,
}

impl Default for PdfOptions {
    fn default() -> Self {
        PdfOptions {
            max_bytes: 100 * 1024,
            max_file_bytes: 256 << 20,
            max_decompressed_bytes: 512 << 20,
            max_objects: 4_000_000,
            timeout: Duration::from_secs(30),
            password: String::new(),
            loading: PdfLoading::OnDemand,
        }
    }
}

/// One bookmark of the outline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutlineItem {
    /// The depth, from 1.
    pub level: u32,
    /// The bookmark's title.
    pub title: String,
    /// The page it points to, from 1.
    pub page: u64,
}

/// What is known of every page without extracting its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PageInfo {
    /// The page, from 1.
    pub page: u64,
    /// The bytes of its content streams, decompressed (a measure of how much it draws).
    pub content_bytes: u64,
    /// Whether its content shows text (text-showing operators).
    pub has_text: bool,
    /// Whether it draws images.
    pub has_images: bool,
}

/// The text of one page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PdfPage {
    /// The page, from 1.
    pub page: u64,
    /// Its text in reading order as laid out (lines and spaces from positions).
    pub text: String,
    /// The bytes of the page's whole text (more than `text` when it was cut).
    pub text_bytes: u64,
    /// Whether the text was cut to the byte budget (a single page over it).
    pub cut: bool,
    /// The page has no text layer.
    pub no_text: bool,
    /// No text, but an image: most likely a scanned page (run OCR to read it).
    pub likely_scanned: bool,
}

/// Where to continue a read that the byte budget stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PageContinuation {
    /// The first selected page not returned: ask for `pages` from here.
    pub next_page: u64,
    /// How many selected pages were not returned.
    pub pages_left: u64,
}

/// A read of a PDF's pages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PdfRead {
    /// The path as the caller spelled it.
    pub path: String,
    /// The path as resolved.
    pub resolved_path: String,
    /// The file's size in bytes.
    pub file_size: u64,
    /// The number of pages.
    pub page_count: u64,
    /// The document's title (Info dictionary), if it has one.
    pub title: Option<String>,
    /// Whether the file is encrypted (opened with the password given, empty by default).
    pub encrypted: bool,
    /// The bookmarks, in order, for a read without a selection (else empty).
    pub outline: Vec<OutlineItem>,
    /// The selection, as asked.
    pub requested: String,
    /// Every page's [`PageInfo`], for a read without a selection (else empty).
    pub page_info: Vec<PageInfo>,
    /// The pages returned.
    pub pages: Vec<PdfPage>,
    /// Set when the byte budget stopped the read before the last selected page.
    pub truncated: Option<PageContinuation>,
}

impl PdfRead {
    /// The text a tool returns: a header (pages, title), the outline and the pages
    /// without text on a read without a selection, each page under `--- page N ---`,
    /// and where to continue when the budget stopped the read.
    pub fn render(&self) -> String {
        self.render_overview() + &self.render_pages(|page| format!("--- page {page} ---\n"))
    }

    /// The header line of [`PdfRead::render`] (pages, title) and, for a read without a
    /// selection, the overview (outline, pages without text): its text before the pages.
    pub fn render_overview(&self) -> String {
        let mut s = format!("PDF {} ({} pages", self.path, self.page_count);
        if let Some(t) = &self.title {
            s += &format!(", title \"{t}\"");
        }
        if self.encrypted {
            s += ", encrypted";
        }
        s += ")\n";
        if !self.page_info.is_empty() {
            if !self.outline.is_empty() {
                s += "Outline (page):\n";
                for o in self.outline.iter().take(OUTLINE_SHOWN) {
                    let pad = "  ".repeat(o.level.max(1) as usize);
                    s += &format!("{pad}{} ({})\n", o.title, o.page);
                }
                if self.outline.len() > OUTLINE_SHOWN {
                    s += &format!(
                        "  [... {} more bookmarks in the outline]\n",
                        self.outline.len() - OUTLINE_SHOWN
                    );
                }
            }
            let textless: Vec<u64> = self
                .page_info
                .iter()
                .filter(|p| !p.has_text)
                .map(|p| p.page)
                .collect();
            if !textless.is_empty() {
                s += &format!(
                    "Pages without a text layer{}: {}\n",
                    if self.page_info.iter().any(|p| !p.has_text && p.has_images) {
                        " (those with images are likely scanned)"
                    } else {
                        ""
                    },
                    ranges(&textless)
                );
            }
        }
        s
    }

    /// The pages as [`PdfRead::render`] writes them, each under `marker(page)`, and
    /// where to continue when the budget stopped the read: the text without the header
    /// and overview.
    pub fn render_pages(&self, marker: impl Fn(u64) -> String) -> String {
        self.render_pages_with(marker, NO_TEXT)
    }

    /// [`PdfRead::render_pages`], with `no_text` written for a page without text (and
    /// not likely scanned) instead of [`NO_TEXT`]: an empty string writes nothing, as
    /// a converter that shows a textless page as nothing does.
    pub fn render_pages_with(&self, marker: impl Fn(u64) -> String, no_text: &str) -> String {
        self.render_pages_framed(marker, no_text, "")
    }

    /// As [`PdfRead::render_pages_with`], with `after_text` after the text of each page
    /// that has text.
    pub(crate) fn render_pages_framed(
        &self,
        marker: impl Fn(u64) -> String,
        no_text: &str,
        after_text: &str,
    ) -> String {
        let mut s = String::new();
        for p in &self.pages {
            s += &marker(p.page);
            if p.likely_scanned {
                s += "[no text layer: this page is an image, likely scanned; OCR would be needed to read it]\n";
            } else if p.no_text {
                s += no_text;
            }
            s += &p.text;
            if !p.text.is_empty() {
                s += after_text;
            }
            if p.cut {
                s += &format!(
                    "[... page cut at {} of its {} bytes of text]\n",
                    p.text.len(),
                    p.text_bytes
                );
            }
        }
        if let Some(t) = &self.truncated {
            s += &format!(
                "[... truncated, showing pages {}-{} of {}; continue with pages=\"{}-\"]\n",
                self.pages.first().map_or(0, |p| p.page),
                self.pages.last().map_or(0, |p| p.page),
                self.page_count,
                t.next_page
            );
        }
        s
    }
}

/// `1, 3-5, 9` for a sorted list of pages.
fn ranges(pages: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pages.len() {
        let mut j = i;
        while j + 1 < pages.len() && pages[j + 1] == pages[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            pages[i].to_string()
        } else {
            format!("{}-{}", pages[i], pages[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// Reads the pages `selection` of the PDF in `src`.
///
/// # Errors
///
/// [`Error::PageBeyondEnd`] for a selection past the last page;
/// [`Error::InvalidDocument`] for a malformed or truncated file, one that needs a
/// password, or a parser that failed; [`Error::DocumentLimit`] when a bound of
/// [`PdfOptions`] is reached; [`Error::FeatureDisabled`] without the `pdf` feature; the
/// source's errors.
pub fn read(src: &Source, selection: PageSelection, options: &PdfOptions) -> Result<PdfRead> {
    read_cached(src, selection, options, None)
}

/// [`read`], keeping what the read learned of the file in `cache` (and its index
/// directory, [`IndexCache::with_dir`]) for the next read of the same, unchanged file:
/// the cross-reference data as found, the page count, the title, and which object each
/// page read is. A later read (another process too, through the directory) starts from
/// there instead of reading the cross-reference data again. [`crate::Reader::read_document`]
/// does this with the reader's cache.
///
/// # Errors
///
/// As [`read`].
pub fn read_cached(
    src: &Source,
    selection: PageSelection,
    options: &PdfOptions,
    cache: Option<&IndexCache>,
) -> Result<PdfRead> {
    #[cfg(feature = "pdf")]
    {
        extract::read(src, selection, options, cache)
    }
    #[cfg(not(feature = "pdf"))]
    {
        let _ = (selection, options, cache);
        Err(Error::FeatureDisabled {
            path: src.path().to_path_buf(),
            feature: "pdf",
            message: format!(
                "{} is a PDF; reading its text needs the \"pdf\" feature of rangeread, which \
                 this build does not have. Build with --features pdf (the MCP server: --features \
                 documents), or extract the text with `pdftotext -layout FILE -`.",
                crate::error::escaped(src.path())
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_selections_parse_and_print() {
        for (s, want) in [("3", "3"), ("2-9", "2-9"), ("10-", "10-"), (" 4 - 4 ", "4")] {
            assert_eq!(s.parse::<PageSelection>().unwrap().to_string(), want);
        }
        for bad in ["0", "a", "3-2", "1,2", "-3", "0-4"] {
            assert!(bad.parse::<PageSelection>().is_err(), "{bad}");
        }
        assert_eq!("".parse::<PageSelection>().unwrap(), PageSelection::All);
    }

    #[test]
    fn page_lists_print_as_ranges() {
        assert_eq!(ranges(&[1, 3, 4, 5, 9]), "1, 3-5, 9");
        assert_eq!(ranges(&[]), "");
    }
}
