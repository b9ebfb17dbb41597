//! A read through the library, and its result as the bindings hand it over.

use std::path::Path;

use rangeread::{DocumentRead, Format, Outline, ReadResult, Reader, Workspace};
use serde_json::Value;

use crate::error::BindError;
use crate::options::Request;

/// Where a read's path resolves.
#[derive(Debug, Clone, Copy)]
pub enum Place<'a> {
    /// As given (no confinement).
    Path,
    /// Inside a workspace (confined, protected paths refused).
    Workspace(&'a Workspace),
}

/// What a read returned.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Output {
    /// Lines or bytes of a text file.
    Text(ReadResult),
    /// The landmarks of a whole file.
    Outline(Outline),
    /// A file of any kind.
    Document(DocumentRead),
}

/// Reads `request` from `path` with `reader`: the one call every binding's read goes
/// through.
///
/// # Errors
///
/// The library's error for the read.
pub fn read(
    reader: &Reader,
    place: Place<'_>,
    path: impl AsRef<Path>,
    request: &Request,
) -> Result<Output, BindError> {
    let path = path.as_ref();
    Ok(match (request, place) {
        (Request::Text(sel), Place::Path) => Output::Text(reader.read(path, *sel)?),
        (Request::Text(sel), Place::Workspace(ws)) => Output::Text(reader.read_in(ws, path, *sel)?),
        (Request::Outline, Place::Path) => Output::Outline(reader.open(path)?.outline()?),
        (Request::Outline, Place::Workspace(ws)) => {
            Output::Outline(reader.open_in(ws, path)?.outline()?)
        }
        (Request::Document(d), Place::Path) => Output::Document(reader.read_document(path, d)?),
        (Request::Document(d), Place::Workspace(ws)) => {
            Output::Document(reader.read_document_in(ws, path, d)?)
        }
    })
}

impl Output {
    /// The result as the Rust result's JSON (`serde_json::to_value` of it).
    pub fn to_json(&self) -> Value {
        let v = match self {
            Output::Text(r) => serde_json::to_value(r),
            Output::Outline(o) => serde_json::to_value(o),
            Output::Document(d) => serde_json::to_value(d),
        };
        v.expect("the library's results serialize")
    }

    /// The result rendered in `format` (`plain`, `colon`, `cat-n`, `codex`, `markdown`,
    /// `frontmatter`, `json`); an outline as `LINE: text` lines, a document as its text.
    ///
    /// # Errors
    ///
    /// An unknown format.
    pub fn render(&self, format: &str) -> Result<String, BindError> {
        self.render_marked(format, None)
    }

    /// [`Output::render`] with the host's marker for a cut line (`{more}`, `{next}`,
    /// `{line}`; see [`rangeread::RenderOptions::cut_marker`]), for text.
    ///
    /// # Errors
    ///
    /// An unknown format.
    pub fn render_marked(
        &self,
        format: &str,
        cut_marker: Option<&str>,
    ) -> Result<String, BindError> {
        let f = parse_format(format)?;
        let options = match cut_marker {
            Some(m) => rangeread::RenderOptions::default().cut_marker(m),
            None => rangeread::RenderOptions::default(),
        };
        Ok(match self {
            Output::Text(r) | Output::Document(DocumentRead::Text(r)) => {
                rangeread::render_with(r, f, &options)
            }
            Output::Outline(o) if f == Format::Json => self.to_json().to_string(),
            Output::Outline(o) => o
                .landmarks
                .iter()
                .map(|l| format!("{}: {}\n", l.line, l.text))
                .collect(),
            Output::Document(d) => d.render(f),
        })
    }

    /// The exact bytes of a text read (the file's bytes, not the UTF-8 `content`).
    pub fn raw_bytes(&self) -> Option<&[u8]> {
        match self {
            Output::Text(r) => Some(r.raw_bytes()),
            Output::Document(DocumentRead::Text(r)) => Some(r.raw_bytes()),
            _ => None,
        }
    }

    /// The images to send beside the text, in order: (MIME type, bytes).
    pub fn images(&self) -> Vec<(&str, &[u8])> {
        match self {
            Output::Document(d) => d
                .images()
                .into_iter()
                .map(|i| (i.mime.as_str(), i.data.as_slice()))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A format's name (`plain`, `colon`, `cat-n`, `codex`, `markdown`, `frontmatter`,
/// `json`) as the library's [`Format`].
///
/// # Errors
///
/// An unknown format, naming the option `format`.
pub fn parse_format(format: &str) -> Result<Format, BindError> {
    format
        .parse()
        .map_err(|e: rangeread::Error| BindError::option("format", e.to_string()))
}
