//! What a dialect does with files that are not plain text, as data ([`Documents`]):
//! images through an [`ImagePolicy`](crate::images::ImagePolicy) preset, PDF pages as
//! text, notebook cells, or files sent as they are; and the texts each answer is
//! written in. By default a dialect reads none of them: images and PDFs are binary files
//! (refused with [`ErrorTexts::binary`](crate::tool::ErrorTexts::binary), or answered with
//! [`FileRules::binary_answer`](crate::tool::FileRules::binary_answer)) and a notebook is JSON
//! text, as before documents were read.
//!
//! The parameters that select pages, cells and a crop are [`Role::Pages`],
//! [`Role::Cells`] and [`Role::Crop`](crate::tool::Role::Crop).
//!
//! [`Role::Pages`]: crate::tool::Role::Pages
//! [`Role::Cells`]: crate::tool::Role::Cells

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What a tool does with images, PDFs and notebooks. See the [`tool`](crate::tool)
/// module.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Documents {
    /// Images (PNG, JPEG, GIF, WebP, by content) read through an image policy and sent
    /// as image items; `None`: not read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub images: Option<ImageForm>,
    /// PDFs (by content) read as the text of their pages (feature `pdf`); `None`: not
    /// read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pdf: Option<PdfForm>,
    /// Notebooks (`*.ipynb`) read by cells; `None`: read as JSON text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notebooks: Option<NotebookForm>,
    /// Files sent whole as one media item, undecoded (Gemini CLI's inline data, Crush's
    /// and Forge's image answers); checked before the readers above.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawMedia>,
}

impl Documents {
    /// Whether the dialect reads no document (the default).
    pub fn is_default(&self) -> bool {
        *self == Documents::default()
    }
}

/// How images are read and what text goes with them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageForm {
    /// The [`ImagePolicy`](crate::images::ImagePolicy) preset: `anthropic`,
    /// `claude-code`, `openai`, `gemini` or `none`.
    pub policy: String,
    /// The text after the image (`{original}`, `{sent}`: `WxH`; `{scale}`: with two
    /// decimals; `{mime}`, `{bytes}`, `{tokens}`, `{policy}`, `{path}`); `None`: the
    /// library's line ([`ImageRead::note`](crate::images::ImageRead::note)); `""`: no
    /// text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The text after an image sent smaller than it is (Claude Code's
    /// `[Image: original ..., displayed at ...]`); `None`: [`ImageForm::note`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resized_note: Option<String>,
}

/// How PDF pages are written. Each text left `None` is the library's
/// ([`PdfRead::render`](crate::pdf::PdfRead::render)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PdfForm {
    /// Before the pages of a read with a page selection (`{path}`, `{size}`: as
    /// `12KB`; `{count}`: pages returned, `{first}`, `{last}`, `{total}`: pages in the
    /// document).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// Before the pages of a read without a page selection (the same values); by
    /// default the library's overview (page count, title, outline, pages without text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole_header: Option<String>,
    /// Before each page (`{page}`); by default `--- page N ---` and a line feed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// Before each page but the first, ahead of `page` (openhands-aci's converter,
    /// pdfminer's: a form feed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub between: Option<String>,
    /// After the text of each page that has text (pdfminer's: the blank line after a
    /// page's last paragraph).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_end: Option<String>,
    /// After the pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footer: Option<String>,
    /// What a page without text shows; by default the library's
    /// [`NO_TEXT`](crate::pdf::NO_TEXT) (`[no text on this page]`); `""`: nothing, as
    /// openhands-aci's converter shows a PDF of drawings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_text: Option<String>,
    /// A read without a page selection of a PDF with more pages than this is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole_max_pages: Option<PageCap>,
    /// A selection that starts past the last page (`{start}`, `{total}`, `{max}`: the
    /// pages a call may read, `{upto}`: the smaller of `{total}` and `{max}`); by default
    /// the library's error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beyond_end: Option<String>,
    /// A read without a page selection sends the file itself, one `application/pdf`
    /// media item after `whole_header` (`{path}`, `{size}`), instead of its pages' text:
    /// Claude Code's `document` block. `whole_max_pages` still refuses a long one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_as_document: bool,
    /// A line range given with a PDF is neither checked nor applied: the whole document
    /// is read, as openhands-aci converts a PDF before it looks at `view_range`. By
    /// default the range is checked against the file as a text read's is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ranges_ignored: bool,
}

/// A page count over which a read is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageCap {
    /// The most pages.
    pub pages: u64,
    /// The refusal (`{count}`: the document's pages, `{max}`: the pages a call may read).
    pub message: String,
}

/// How notebook cells are written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NotebookForm {
    /// The cells' texts; `None`: the library's form
    /// ([`NotebookRead::render`](crate::notebook::NotebookRead::render): a header, the
    /// outline when cells were left out, `--- cell N [type] id=... ---` markers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<CellForm>,
}

/// The texts of a notebook's cells, as Claude Code's Read writes them:
/// `<cell id="ID"><cell_type>markdown</cell_type>SOURCE</cell id="ID">`, then each
/// output's text and images.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellForm {
    /// Each cell (`{id}`, `{index}`, `{type}`, `{source}`, `{meta}`).
    pub cell: String,
    /// `{meta}` of a cell that is not code (`{type}`).
    pub not_code: String,
    /// `{meta}` of a code cell in a language other than [`CellForm::default_language`]
    /// (`{language}`).
    pub language: String,
    /// The language whose code cells carry no `{meta}`.
    pub default_language: String,
    /// Each output's text (`{text}`), then a line feed if it does not end with one; its
    /// images after it.
    pub output: String,
    /// When a cell's output texts together are longer than this many characters, they
    /// are replaced by [`CellForm::outputs_too_large`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs_max_chars: Option<u64>,
    /// The text instead of a cell's outputs that are too long (`{index}`, `{path}`).
    #[serde(default)]
    pub outputs_too_large: String,
}

/// Files sent whole, as they are, as one media item (MIME type and base64 data): no
/// decoding, no check that the bytes are what the name says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RawMedia {
    /// Extensions (lower case, without the dot) whose files are sent, and the MIME type
    /// each is sent as.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extensions: BTreeMap<String, String>,
    /// MIME types found in the content (the classification's, from magic bytes) that
    /// are sent as themselves ([`RawMedia::sniff`]) or, with
    /// [`RawMedia::content_selects`], that select a file whatever its name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub content_types: Vec<String>,
    /// A file whose content is one of `content_types` is sent whatever its extension
    /// (Forge); by default only the extension selects.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub content_selects: bool,
    /// The MIME type sent is the content's when it is one of `content_types`, else the
    /// extension's (Crush's `http.DetectContentType`); by default the extension's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sniff: bool,
    /// Every other file, whatever its name and content, is sent whole as this MIME type
    /// (the MCP filesystem server's `read_media_file`: `application/octet-stream`); by
    /// default only the files `extensions` and `content_types` select are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub others: Option<String>,
    /// Files over this size are refused (`{size}`: bytes, `{max}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<crate::tool::SizeCap>,
    /// The text sent beside the item (`{path}`, `{mime}`, `{bytes}`); by default none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// MIME type prefixes (`audio/`, `video/`) sent whole only when the content is
    /// binary; a text file of such a name is read as text (Gemini CLI: a `.ts` or an XML
    /// `.adp` is text). By default the extension alone decides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binary_only: Vec<String>,
    /// Extensions (with their dot, lower case) refused when the content is binary, with
    /// this message (`{path}`: as given, `{ext}`): formats of a kind the tool sends but
    /// not in this encoding (Gemini CLI's unsupported audio).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refuse_binary: Option<crate::tool::NameRefusal>,
    /// The file is sent before the dialect's checks of the file (its size cap, its
    /// `lines.range_checks`): the OpenHands SDK's editor shows an image whatever its
    /// size and whatever `view_range` says. By default they come first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub before_checks: bool,
}

impl RawMedia {
    /// The MIME type a file named with `ext` (lower case) whose content is `content`
    /// is sent as, if it is sent whole.
    pub(crate) fn mime_for(&self, ext: Option<&str>, content: Option<&str>) -> Option<String> {
        let by_ext = ext.and_then(|e| self.extensions.get(e));
        let by_content = content.filter(|c| self.content_types.iter().any(|t| t == c));
        match (by_ext, by_content) {
            (Some(_), Some(c)) if self.sniff => Some(c.to_string()),
            (Some(e), _) => Some(e.clone()),
            (None, Some(c)) if self.content_selects => Some(c.to_string()),
            _ => self.others.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_media_by_extension_and_content() {
        let mut r = RawMedia {
            extensions: [("png", "image/png"), ("jpg", "image/jpeg")]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            content_types: vec!["image/jpeg".into(), "image/png".into()],
            ..RawMedia::default()
        };
        assert_eq!(
            r.mime_for(Some("png"), Some("image/jpeg")).unwrap(),
            "image/png"
        );
        assert_eq!(r.mime_for(Some("txt"), Some("image/jpeg")), None);
        r.sniff = true;
        assert_eq!(
            r.mime_for(Some("png"), Some("image/jpeg")).unwrap(),
            "image/jpeg"
        );
        assert_eq!(r.mime_for(Some("png"), None).unwrap(), "image/png");
        r.content_selects = true;
        assert_eq!(r.mime_for(None, Some("image/jpeg")).unwrap(), "image/jpeg");
        assert_eq!(r.mime_for(Some("txt"), None), None);
        r.others = Some("application/octet-stream".into());
        assert_eq!(
            r.mime_for(Some("txt"), None).unwrap(),
            "application/octet-stream"
        );
        assert_eq!(r.mime_for(Some("png"), None).unwrap(), "image/png");
    }
}
