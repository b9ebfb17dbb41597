//! The answer to a document read ([`Doc`], read by `serve::doc_answer`) in the dialect's
//! texts: image notes, PDF pages as text, notebook cells, files sent whole, with the
//! images as media items ([`ToolMedia`]) in their place.

use base64::Engine as _;
use serde_json::{json, Value};

use crate::documents::DocumentRead;
use crate::images::{ImageRead, ImageStep};
use crate::notebook::NotebookRead;
use crate::pdf::{PageSelection, PdfRead};
use crate::tool::dialect::doc_forms::CellForm;
use crate::tool::dialect::template::size_text;
use crate::tool::dialect::template::{fill, fill_into};
use crate::tool::dialect::{Dialect, Form, PathShow};
use crate::tool::{ToolMedia, ToolResponse};

/// A document read for a call.
pub(crate) enum Doc {
    /// Read by the library's document readers.
    Read(Box<DocumentRead>),
    /// A file sent whole ([`crate::tool::RawMedia`]).
    Raw {
        mime: String,
        data: Vec<u8>,
        path: String,
        resolved: String,
        /// The text sent beside it (`{path}`, `{mime}`, `{bytes}`, `{size}`: as `12KB`).
        note: Option<String>,
    },
}

/// The answer to a document read, in the dialect's form.
pub(crate) fn render(d: &Dialect, doc: Doc) -> ToolResponse {
    let unified = d.output.form == Form::ContentAndNotes;
    let mut out = ToolResponse::default();
    match doc {
        Doc::Raw {
            mime,
            data,
            path,
            resolved,
            note,
        } => {
            let shown = shown(d, &path, &resolved);
            if let Some(note) = note {
                let values = [
                    ("path", &shown as _),
                    ("mime", &mime as _),
                    ("bytes", &(data.len() as u64) as _),
                    ("size", &size_text(data.len() as u64) as _),
                ];
                out.text = fill(&note, &values);
            }
            if unified {
                out.structured = Some(json!({"kind": "file", "path": shown, "mime": mime,
                    "bytes": data.len()}));
            }
            out.media.push(media(&mime, &data, 0, shown));
        }
        Doc::Read(read) => match *read {
            DocumentRead::Text(_) => {}
            DocumentRead::Image(i) => {
                let shown = shown(d, &i.path, &i.resolved_path);
                out.text = image_note(d, &i, &shown);
                if unified {
                    let mut v = serde_json::to_value(&i).unwrap_or_default();
                    v["kind"] = json!("image");
                    v["path"] = json!(shown);
                    v.as_object_mut().map(|m| m.remove("resolved_path"));
                    out.structured = Some(v);
                }
                out.media.push(media(&i.mime, &i.data, 0, shown));
            }
            DocumentRead::Pdf(p) => {
                let shown = shown(d, &p.path, &p.resolved_path);
                if unified {
                    out.text = p.render();
                    out.notes = pdf_summary(&p);
                    out.structured = Some(pdf_meta(&p, &shown));
                } else {
                    out.text = pdf_text(d, &p, &shown);
                }
            }
            DocumentRead::Notebook(n) => {
                let shown = shown(d, &n.path, &n.resolved_path);
                let cells = d
                    .documents
                    .notebooks
                    .as_ref()
                    .and_then(|f| f.cells.as_ref());
                let images = match cells {
                    Some(form) => cell_text(form, &n, &shown, &mut out.text),
                    None => {
                        let (text, images) = n.render_with_images();
                        out.text = text;
                        images
                    }
                };
                for (at, i) in images {
                    let name = format!("{shown}#cell");
                    out.media.push(media(&i.mime, &i.data, at, name));
                }
                if unified {
                    out.notes = notebook_summary(&n);
                    out.structured = Some(notebook_meta(&n, &shown));
                }
            }
        },
    }
    out
}

/// A media item of `data` at byte `at` of the text.
fn media(mime: &str, data: &[u8], at: usize, name: String) -> ToolMedia {
    ToolMedia {
        mime_type: mime.to_string(),
        data: base64::engine::general_purpose::STANDARD.encode(data),
        at,
        name,
    }
}

/// The path an answer shows, as text answers show it: absolute where the dialect shows
/// absolute paths, else the path as the call gave it (relative to the root).
fn shown(d: &Dialect, path: &str, resolved: &str) -> String {
    match d.paths.show {
        PathShow::Absolute => resolved.to_string(),
        PathShow::Relative => path.to_string(),
    }
}

/// The text beside an image: the dialect's note (its resized note for an image sent
/// smaller), or the library's.
fn image_note(d: &Dialect, i: &ImageRead, shown: &str) -> String {
    let form = d.documents.images.as_ref();
    let resized = i.steps.contains(&ImageStep::Downscaled);
    let template = form.and_then(|f| match (resized, &f.resized_note) {
        (true, Some(t)) => Some(t),
        _ => f.note.as_ref(),
    });
    let Some(template) = template else {
        return i.note() + "\n";
    };
    let scale = format!("{:.2}", i.scale);
    let values = [
        ("original", &i.original.to_string() as _),
        ("sent", &i.sent.to_string() as _),
        ("scale", &scale as _),
        ("mime", &i.mime as _),
        ("bytes", &i.bytes as _),
        ("tokens", &i.tokens as _),
        ("policy", &i.policy as _),
        ("path", &shown as _),
    ];
    fill(template, &values)
}

/// A PDF's pages in the dialect's texts.
fn pdf_text(d: &Dialect, p: &PdfRead, shown: &str) -> String {
    let Some(form) = d.documents.pdf.as_ref() else {
        return p.render();
    };
    let whole = p.requested == PageSelection::All.to_string();
    let header = if whole {
        &form.whole_header
    } else {
        &form.header
    };
    let mut s = String::new();
    match header {
        Some(h) => {
            let (first, last) = (
                p.pages.first().map_or(0, |x| x.page),
                p.pages.last().map_or(0, |x| x.page),
            );
            let values = [
                ("path", &shown as _),
                ("size", &size_text(p.file_size) as _),
                ("count", &(p.pages.len() as u64) as _),
                ("first", &first as _),
                ("last", &last as _),
                ("total", &p.page_count as _),
            ];
            fill_into(&mut s, h, &values);
        }
        None => s += &p.render_overview(),
    }
    let no_text = form.no_text.as_deref().unwrap_or(crate::pdf::NO_TEXT);
    let first = p.pages.first().map(|x| x.page);
    let marker = |n: u64| {
        let between = form.between.as_deref().filter(|_| Some(n) != first);
        let page = match &form.page {
            Some(t) => fill(t, &[("page", &n)]),
            None => format!("--- page {n} ---\n"),
        };
        format!("{}{page}", between.unwrap_or(""))
    };
    s += &p.render_pages_framed(marker, no_text, form.text_end.as_deref().unwrap_or(""));
    if let Some(f) = &form.footer {
        s += f;
    }
    s
}

/// The cells in the dialect's cell form, appended to `out`; the output images with
/// where each goes.
fn cell_text<'a>(
    form: &CellForm,
    n: &'a NotebookRead,
    shown: &str,
    out: &mut String,
) -> Vec<(usize, &'a ImageRead)> {
    let mut images = Vec::new();
    let language = n.language.as_deref().unwrap_or(&form.default_language);
    for c in &n.cells {
        let meta = match c.cell_type.as_str() {
            "code" if language == form.default_language => String::new(),
            "code" => fill(&form.language, &[("language", &language)]),
            other => fill(&form.not_code, &[("type", &other)]),
        };
        let values = [
            ("id", &c.id as _),
            ("index", &c.index as _),
            ("type", &c.cell_type as _),
            ("source", &c.source as _),
            ("meta", &meta as _),
        ];
        fill_into(out, &form.cell, &values);
        let chars: u64 = c
            .outputs
            .iter()
            .filter_map(|o| o.text.as_ref())
            .map(|t| t.chars().count() as u64)
            .sum();
        if form.outputs_max_chars.is_some_and(|m| chars > m) {
            let text = fill(
                &form.outputs_too_large,
                &[("index", &c.index), ("path", &shown)],
            );
            fill_into(out, &form.output, &[("text", &text)]);
            out.push('\n');
            continue;
        }
        for o in &c.outputs {
            if let Some(t) = &o.text {
                fill_into(out, &form.output, &[("text", t)]);
                if !out.ends_with('\n') {
                    out.push('\n');
                }
            }
            if let Some(i) = &o.image {
                images.push((out.len(), i));
            }
        }
    }
    images
}

/// What a PDF read left out, for the unified tool's notes: the pages not shown, where
/// the outline is, and where to continue.
fn pdf_summary(p: &PdfRead) -> Option<String> {
    let (Some(first), Some(last)) = (p.pages.first(), p.pages.last()) else {
        return None;
    };
    let (first, last) = (first.page, last.page);
    if first == 1 && last == p.page_count {
        return None;
    }
    let mut notes = vec![format!(
        "Showing pages {first}-{last} of {}; not shown: {}.",
        p.page_count,
        [
            (first > 1).then(|| format!("pages 1-{}", first - 1)),
            (last < p.page_count).then(|| format!("pages {}-{}", last + 1, p.page_count)),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" and ")
    )];
    // A read of chosen pages has no outline (the library skips its cost): say where it is.
    if p.outline.is_empty() && p.requested != PageSelection::All.to_string() {
        notes.push(
            "A read without pages gives the overview: the outline (bookmarks with their \
             pages), if the PDF has one, and the pages without text."
                .into(),
        );
    }
    if p.truncated.is_none() && last < p.page_count {
        notes.push(format!(
            "Continue with pages=\"{}\" (or any page or range of 1-{}).",
            last + 1,
            p.page_count
        ));
    }
    Some(notes.join("\n"))
}

/// What a PDF read returned, for a host.
fn pdf_meta(p: &PdfRead, shown: &str) -> Value {
    json!({
        "kind": "pdf",
        "path": shown,
        "file_size": p.file_size,
        "page_count": p.page_count,
        "title": p.title,
        "pages": p.pages.first().zip(p.pages.last())
            .map(|(a, b)| json!({"start": a.page, "end": b.page})),
        "pages_without_text": p.pages.iter().filter(|x| x.no_text).map(|x| x.page)
            .collect::<Vec<_>>(),
        "truncated": p.truncated,
    })
}

/// What a notebook read left out, for the unified tool's notes.
fn notebook_summary(n: &NotebookRead) -> Option<String> {
    let (Some(first), Some(last)) = (n.cells.first(), n.cells.last()) else {
        return None;
    };
    if n.cells.len() as u64 == n.cell_count {
        return None;
    }
    let mut note = format!(
        "Showing cells {}-{} of {} (numbered 0-{}); the outline above lists the headings \
         and definitions of every cell.",
        first.index,
        last.index,
        n.cell_count,
        n.cell_count.saturating_sub(1)
    );
    if n.truncated.is_none() && last.index + 1 < n.cell_count {
        note += &format!(" Continue with cells=\"{}-\".", last.index + 1);
    }
    Some(note)
}

/// What a notebook read returned, for a host.
fn notebook_meta(n: &NotebookRead, shown: &str) -> Value {
    json!({
        "kind": "notebook",
        "path": shown,
        "file_size": n.file_size,
        "cell_count": n.cell_count,
        "language": n.language,
        "cells": n.cells.iter().map(|c| c.index).collect::<Vec<_>>(),
        "images": n.cells.iter().flat_map(|c| &c.outputs).filter(|o| o.image.is_some()).count(),
        "truncated": n.truncated,
    })
}
