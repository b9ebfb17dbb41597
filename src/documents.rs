//! Reading any file a model may ask for: text as before, and the documents that are not
//! plain text (images, PDFs, notebooks), each as its own plain-data result.
//!
//! **What the caller gets:** a [`DocumentRead`], one variant per kind: `Text` (the
//! [`ReadResult`] of the selection), `Image` ([`ImageRead`]: bytes to send, sizes,
//! scale, tokens), `Pdf` ([`PdfRead`]: pages of text) or `Notebook` ([`NotebookRead`]:
//! cells). [`DocumentRead::render`] gives the text a tool returns and
//! [`DocumentRead::images`] the images to send beside it.
//!
//! The kind comes from the content, through the same classification text reads use
//! ([`crate::classify()`]): `image/png`, `image/jpeg`, `image/gif` and `image/webp` are
//! images, `application/pdf` is a PDF; a notebook is text (JSON) named `*.ipynb`. SVG is
//! text. Anything else binary is [`Error::Binary`](crate::Error::Binary), as for text reads. Paths go through
//! the workspace (confinement, protected paths) and the source step (positional reads)
//! exactly as text reads do.

use std::path::Path;

use serde::Serialize;

use crate::classify::Classification;
use crate::document::Document;
use crate::error::Result;
use crate::images::{self, ImageFormat, ImageRead, ImageRequest};
use crate::notebook::{self, CellSelection, NotebookOptions, NotebookRead};
use crate::pdf::{self, PageSelection, PdfOptions, PdfRead};
use crate::read::Reader;
use crate::render::{render, Format};
use crate::result::ReadResult;
use crate::select::{LineSelection, Selection};
use crate::source::Source;
use crate::workspace::Workspace;

/// What to read of a file of any kind; the parts that do not apply to its kind are
/// ignored (`pages` for a notebook, `cells` for a PDF ...).
///
/// The byte budget of PDF pages and notebook cells is the reader's
/// ([`Reader::max_bytes`]), which overrides `pdf.max_bytes` and `notebook.max_bytes`.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct DocumentRequest {
    /// For text: by default the whole file (within the budgets).
    pub selection: Option<Selection>,
    /// For PDFs: by default none (the overview and pages from the first).
    pub pages: PageSelection,
    /// For notebooks: by default every cell (from the first, within the budget).
    pub cells: CellSelection,
    /// For images, and images in notebook outputs: the policy and an optional crop.
    pub image: ImageRequest,
    /// The limits of PDF reads.
    pub pdf: PdfOptions,
    /// The limits of notebook reads.
    pub notebook: NotebookOptions,
}

impl DocumentRequest {
    /// A request with every default.
    pub fn new() -> DocumentRequest {
        DocumentRequest::default()
    }

    /// By default the whole text (within the budgets).
    pub fn selection(mut self, selection: impl Into<Selection>) -> DocumentRequest {
        self.selection = Some(selection.into());
        self
    }

    /// By default no page selection.
    pub fn pages(mut self, pages: PageSelection) -> DocumentRequest {
        self.pages = pages;
        self
    }

    /// By default every cell.
    pub fn cells(mut self, cells: CellSelection) -> DocumentRequest {
        self.cells = cells;
        self
    }

    /// By default the default [`ImageRequest`] (Anthropic's limits, no crop).
    pub fn image(mut self, image: ImageRequest) -> DocumentRequest {
        self.notebook.images = image.clone();
        self.image = image;
        self
    }
}

/// The result of [`Reader::read_document`]: one variant per kind of file.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)]
pub enum DocumentRead {
    /// A text file.
    Text(ReadResult),
    /// An image.
    Image(ImageRead),
    /// A PDF.
    Pdf(PdfRead),
    /// A Jupyter notebook.
    Notebook(NotebookRead),
}

impl DocumentRead {
    /// The text a tool returns: text in `format` (see [`render`]), an image's
    /// [`ImageRead::note`], a PDF's or a notebook's rendering.
    pub fn render(&self, format: Format) -> String {
        match self {
            DocumentRead::Text(r) => render(r, format),
            DocumentRead::Image(i) => i.note() + "\n",
            DocumentRead::Pdf(p) => p.render(),
            DocumentRead::Notebook(n) => n.render(),
        }
    }

    /// The images to send beside the text: the image read, or the images of a
    /// notebook's outputs, in order.
    pub fn images(&self) -> Vec<&ImageRead> {
        match self {
            DocumentRead::Image(i) => vec![i],
            DocumentRead::Notebook(n) => n
                .cells
                .iter()
                .flat_map(|c| c.outputs.iter().filter_map(|o| o.image.as_ref()))
                .collect(),
            DocumentRead::Text(_) | DocumentRead::Pdf(_) => Vec::new(),
        }
    }
}

/// The kind of a file as [`Reader::read_document`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    /// Text.
    Text,
    /// An image.
    Image(ImageFormat),
    /// A PDF.
    Pdf,
    /// A notebook.
    Notebook,
}

/// The kind of a classified file named `path` of `file_size` bytes, or the binary error.
pub(crate) fn kind_of(class: &Classification, path: &Path, file_size: u64) -> Result<DocumentKind> {
    let mime = class.mime();
    if mime == Some("application/pdf") {
        return Ok(DocumentKind::Pdf);
    }
    if let Some(f) = mime.and_then(ImageFormat::from_mime) {
        return Ok(DocumentKind::Image(f));
    }
    if let Some(e) = class.binary_error(path, file_size) {
        return Err(e);
    }
    let notebook = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"));
    Ok(if notebook {
        DocumentKind::Notebook
    } else {
        DocumentKind::Text
    })
}

impl Reader {
    /// Reads a file of any kind: text, image, PDF or notebook (see [`DocumentRead`]).
    ///
    /// # Errors
    ///
    /// As [`Source::open`], then the reader of the file's kind: [`Document::read`],
    /// [`images::read`], [`pdf::read`], [`notebook::read`]; [`Error::Binary`] for other
    /// binary files.
    ///
    /// [`Error::Binary`]: crate::Error::Binary
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{DocumentRead, DocumentRequest, Reader};
    ///
    /// let r = Reader::new().read_document("tests/data/sample.txt", &DocumentRequest::new())?;
    /// assert!(matches!(r, DocumentRead::Text(_)));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn read_document(
        &self,
        path: impl AsRef<Path>,
        request: &DocumentRequest,
    ) -> Result<DocumentRead> {
        let path = path.as_ref();
        self.retrying(|| {
            let src = Source::open_streaming_limit(path, self.stream_limit())?;
            self.read_document_from(&mut self.document(src), request)
        })
    }

    /// [`Reader::read_document`] for a path inside a workspace (confined, protected
    /// paths refused, race-free on Linux), as [`Reader::read_in`] reads text.
    ///
    /// # Errors
    ///
    /// As [`Reader::open_in`], then as [`Reader::read_document`].
    pub fn read_document_in(
        &self,
        workspace: &Workspace,
        path: impl AsRef<Path>,
        request: &DocumentRequest,
    ) -> Result<DocumentRead> {
        let path = path.as_ref();
        self.retrying(|| {
            let mut doc = self.open_in(workspace, path)?;
            self.read_document_from(&mut doc, request)
        })
    }

    /// Reads an open [`Document`] (a file, bytes in memory, a host's source) as its kind.
    ///
    /// # Errors
    ///
    /// As [`Reader::read_document`].
    pub fn read_document_from(
        &self,
        doc: &mut Document,
        request: &DocumentRequest,
    ) -> Result<DocumentRead> {
        let class = doc.classification()?;
        let (path, resolved) = doc.paths();
        let (path, resolved) = (path.to_string(), resolved.to_string());
        let kind = kind_of(&class, Path::new(&path), doc.source().len())?;
        let budget = self.byte_budget();
        let src = doc.source();
        Ok(match kind {
            DocumentKind::Text => {
                let sel = request
                    .selection
                    .unwrap_or_else(|| LineSelection::from(..).into());
                DocumentRead::Text(doc.read(sel)?)
            }
            DocumentKind::Image(f) => {
                let mut r = images::read(src, f.mime(), &request.image)?;
                (r.path, r.resolved_path) = (path, resolved);
                DocumentRead::Image(r)
            }
            DocumentKind::Pdf => {
                let mut options = request.pdf.clone();
                options.max_bytes = budget;
                let mut r = pdf::read_cached(src, request.pages, &options, doc.cache())?;
                (r.path, r.resolved_path) = (path, resolved);
                DocumentRead::Pdf(r)
            }
            DocumentKind::Notebook => {
                let mut options = request.notebook.clone();
                options.max_bytes = budget;
                let mut r = notebook::read(src, &request.cells, &options)?;
                (r.path, r.resolved_path) = (path, resolved);
                DocumentRead::Notebook(r)
            }
        })
    }
}

/// Classification errors name the kind as text reads do.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::classify;
    use crate::Error;

    #[test]
    fn kinds_come_from_content_and_the_notebook_name() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
        assert_eq!(
            kind_of(&classify(png), Path::new("x.txt"), 0).unwrap(),
            DocumentKind::Image(ImageFormat::Png)
        );
        let json = b"{\"cells\": []}";
        assert_eq!(
            kind_of(&classify(json), Path::new("a.IPYNB"), 0).unwrap(),
            DocumentKind::Notebook
        );
        assert_eq!(
            kind_of(&classify(json), Path::new("a.json"), 0).unwrap(),
            DocumentKind::Text
        );
        assert_eq!(
            kind_of(
                &classify(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"),
                Path::new("a"),
                0
            )
            .unwrap(),
            DocumentKind::Pdf
        );
        let zip = b"PK\x03\x04\x14\0\0\0\x08\0";
        assert!(matches!(
            kind_of(&classify(zip), Path::new("a.ipynb"), 0),
            Err(Error::Binary { .. })
        ));
    }
}
