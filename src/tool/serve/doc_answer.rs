//! Documents through a dialect: whether a call's file is one the dialect reads as an
//! image, PDF pages, notebook cells or a whole media file ([`Documents`]), and the read
//! through the library's document readers (answered by `render::documents`).

use std::path::Path;

use crate::documents::{kind_of, DocumentKind, DocumentRead, DocumentRequest};
use crate::error::{Error, Result};
use crate::images::{ImagePolicy, ImageRequest};
use crate::notebook::CellSelection;
use crate::pdf::PageSelection;
use crate::text::Encoding;
use crate::tool::decode::args::param;
use crate::tool::decode::paths::path_name;
use crate::tool::decode::{Given, Plan, Request, Way};
use crate::tool::dialect::doc_forms::PdfForm;
use crate::tool::dialect::template::fill;
use crate::tool::dialect::Dialect;
use crate::tool::render::documents::Doc;
use crate::tool::serve::ctx::Ctx;

/// The document a call reads, when the dialect reads the call's file as one; `None`: a
/// text read (or a file the dialect does not read, which the text read refuses).
pub(crate) fn read(ctx: &Ctx, request: &Request, plan: &Plan) -> Result<Option<Doc>> {
    let d = ctx.dialect;
    let docs = &d.documents;
    if docs.is_default() {
        return Ok(None);
    }
    // A document's kind comes from its content, whatever the dialect's text decoding
    // and binary rules (a text read applies those).
    // Its line ends as the file has them: no document reader reads them otherwise, and
    // the text read after this one reads the same open under its own rules.
    let reader = ctx
        .reader()
        .detection_rules(crate::config::Judge::default())
        .line_endings(crate::config::LineEndings::Keep);
    let opened = match ctx.workspace {
        Some(ws) => reader.open_in(ws, ctx.path),
        None => reader.open(ctx.path),
    };
    let mut doc = match opened {
        Ok(doc) => doc,
        // A directory is the text read's to answer (a listing, or the dialect's error).
        Err(Error::IsDirectory { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let class = doc.classification()?;
    let (path, resolved) = doc.paths();
    let (path, resolved) = (path.to_string(), resolved.to_string());
    let ext = Path::new(&resolved)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if let Some(raw) = &docs.raw {
        // Binary as a NUL-byte check calls it: UTF-16/32 guessed without a byte order
        // mark (the zero bytes) counts as binary here, as Gemini CLI's isbinaryfile has it.
        let binary = match &class {
            crate::classify::Classification::Text(t) => {
                t.bom_len == 0 && !matches!(t.encoding, Encoding::Utf8 | Encoding::Legacy(_))
            }
            crate::classify::Classification::Binary(_) => true,
        };
        if let (Some(r), true, Some(e)) = (&raw.refuse_binary, binary, ext.as_deref()) {
            let dotted = format!(".{e}");
            if r.names.contains(&dotted) {
                let values = [("path", &request.path.as_str() as _), ("ext", &e as _)];
                return Err(param(path_name(d), fill(&r.message, &values)));
            }
        }
        let sent = raw
            .mime_for(ext.as_deref(), class.mime())
            .filter(|m| binary || !raw.binary_only.iter().any(|p| m.starts_with(p.as_str())));
        if let Some(mime) = sent {
            if !raw.before_checks {
                crate::tool::serve::checks::before_read(ctx, &request.path, plan)?;
            }
            let src = doc.source();
            let size = src.len();
            if let Some(cap) = raw.max_bytes.as_ref().filter(|c| size > c.bytes) {
                let values = [("size", &size as _), ("max", &cap.bytes as _)];
                return Err(param(path_name(d), fill(&cap.message, &values)));
            }
            let mut data = Vec::new();
            src.read_append(0, usize::try_from(size).unwrap_or(usize::MAX), &mut data)?;
            src.check_unchanged()?;
            return Ok(Some(Doc::Raw {
                mime,
                data,
                path,
                resolved,
                note: raw.note.clone(),
            }));
        }
    }
    let Ok(kind) = kind_of(&class, Path::new(&path), doc.source().len()) else {
        ctx.keep(doc);
        return Ok(None);
    };
    let wanted = match kind {
        DocumentKind::Text => false,
        DocumentKind::Image(_) => docs.images.is_some(),
        DocumentKind::Pdf => docs.pdf.is_some(),
        DocumentKind::Notebook => docs.notebooks.is_some(),
    };
    if !wanted {
        // A text read: it reads the file opened here.
        ctx.keep(doc);
        return Ok(None);
    }
    let pdf_form = docs.pdf.as_ref().filter(|_| kind == DocumentKind::Pdf);
    if pdf_form.is_some_and(|f| f.ranges_ignored) {
        // The size cap still applies; the range is not the document's.
        let whole = Plan {
            way: Way::Whole,
            range_given: None,
            ..plan.clone()
        };
        crate::tool::serve::checks::before_read(ctx, &request.path, &whole)?;
    } else {
        crate::tool::serve::checks::before_read(ctx, &request.path, plan)?;
    }
    let mut req = DocumentRequest::new();
    if let Some(form) = &docs.images {
        let policy = ImagePolicy::preset(&form.policy).ok_or_else(|| {
            param(
                "policy",
                format!(
                    "Unknown image policy {:?} in the {} dialect; the presets are anthropic, \
                     claude-code, openai, gemini and none",
                    form.policy, d.preset
                ),
            )
        })?;
        let mut image = ImageRequest::new(policy);
        if let Some(g) = &request.crop {
            image = image.crop(parsed(g)?);
        }
        req = req.image(image);
    }
    if let Some(g) = &request.pages {
        req = req.pages(parsed(g)?);
    }
    if let Some(g) = &request.cells {
        req = req.cells(parsed::<CellSelection>(g)?);
    }
    if let (Some(cap), None) = (
        pdf_form.and_then(|f| f.whole_max_pages.as_ref()),
        &request.pages,
    ) {
        // The page count, from a read of the first page, before every page is read.
        let first = PageSelection::Range {
            start: 1,
            end: Some(1),
        };
        let probe = reader.read_document_from(&mut doc, &req.clone().pages(first));
        if let Ok(DocumentRead::Pdf(p)) = probe {
            if p.page_count > cap.pages {
                let max = d.pages.as_ref().map_or(cap.pages, |r| r.max);
                let values = [("count", &p.page_count as _), ("max", &max as _)];
                return Err(param(path_name(d), fill(&cap.message, &values)));
            }
        }
    }
    if let (Some(form), None) = (pdf_form.filter(|f| f.whole_as_document), &request.pages) {
        // The file itself, as Claude Code sends a PDF read without pages.
        let src = doc.source();
        let mut data = Vec::new();
        src.read_append(
            0,
            usize::try_from(src.len()).unwrap_or(usize::MAX),
            &mut data,
        )?;
        src.check_unchanged()?;
        return Ok(Some(Doc::Raw {
            mime: "application/pdf".into(),
            data,
            path,
            resolved,
            note: form.whole_header.clone(),
        }));
    }
    let read = reader
        .read_document_from(&mut doc, &req)
        .map_err(|e| beyond_end(d, pdf_form, request, e))?;
    Ok(Some(Doc::Read(Box::new(read))))
}

/// What the image reader of this build does, for a description's `{images}`: with the
/// `images` feature it resizes and crops; without it, it sends images that fit as they
/// are and refuses the rest ([`Error::FeatureDisabled`]).
const IMAGES: &str = if cfg!(feature = "images") {
    "Images (PNG, JPEG, GIF, WebP) come back as images, downscaled to the model's limits, \
     with a line giving the original and sent size and the factor that maps coordinates \
     back (crop=\"x,y,width,height\" in original pixels reads a region)."
} else {
    "Images (PNG, JPEG, GIF, WebP) within the model's limits come back as images, with a \
     line giving their size; this build cannot resize or crop, so a larger image, or a \
     crop, is refused."
};

/// What the PDF reader of this build does, for a description's `{pdfs}` (feature `pdf`).
const PDFS: &str = if cfg!(feature = "pdf") {
    "PDFs come back as the text of their pages: pages=\"3\", \"2-9\" or \"10-\" (without \
     pages: the page count, outline and the first pages)."
} else {
    "PDFs are refused: this build has no PDF reader."
};

/// The dialect's description as this build serves it: `{images}` and `{pdfs}` say what
/// the document readers compiled in do, so that a model is never promised a read that
/// the build refuses.
pub(crate) fn description(d: &Dialect) -> String {
    fill(
        &d.description,
        &[("images", &IMAGES as _), ("pdfs", &PDFS as _)],
    )
}

/// A selection parameter parsed by the library, its error naming the parameter.
fn parsed<T: std::str::FromStr<Err = Error>>(g: &Given<String>) -> Result<T> {
    g.value
        .parse()
        .map_err(|e: Error| param(&g.name, e.to_string()))
}

/// A page selection past the last page, in the dialect's text.
fn beyond_end(d: &Dialect, form: Option<&PdfForm>, request: &Request, e: Error) -> Error {
    let (Some(text), Error::PageBeyondEnd { start, page_count }) =
        (form.and_then(|f| f.beyond_end.as_ref()), &e)
    else {
        return e;
    };
    let max = d
        .pages
        .as_ref()
        .map_or(*page_count, |r| crate::error::int(r.max));
    let upto = max.min(*page_count);
    let name = request.pages.as_ref().map_or("pages", |g| g.name.as_str());
    let values = [
        ("start", start as _),
        ("total", page_count as _),
        ("max", &max as _),
        ("upto", &upto as _),
    ];
    param(name, fill(text, &values))
}
