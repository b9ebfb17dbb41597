//! Fonts a page sets its text in that its resources do not define.
//!
//! A page whose content selects a font (`/F1 12 Tf`) that its resources do not name (no
//! `/Font` dictionary, or no `/F1` in it) is malformed, yet poppler, pdf.js and pdfminer
//! all read its text with a default font. pdf-extract panics on it instead, and the page
//! could not be read at all. So when a page's text fails, each font name its content
//! selects and its resources lack is given a stand-in: Helvetica, one of the 14 standard
//! fonts every reader has the metrics of, in the page's own copy of its resources; and
//! the page is laid out once more. Text in a simple encoding then reads as the font's
//! codes in the standard encoding, as it does in those readers; the file itself is not
//! changed. A page that reads is never parsed for its fonts.

use std::panic::{catch_unwind, AssertUnwindSafe};

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

/// The deepest page tree the resources are looked for in (as pdf-extract, which takes the
/// first `/Resources` on the way from the page to the root).
const MAX_DEPTH: usize = 64;

/// Gives each font name `content` selects with `Tf` that the page's resources lack a
/// stand-in font, in a copy of those resources set on the page. Returns how many names it
/// gave one (0: the page is left as it was).
pub(super) fn stand_in(doc: &mut Document, page: ObjectId, content: &[u8]) -> usize {
    let selected = selected(content);
    if selected.is_empty() {
        return 0;
    }
    let mut resources = inherited(doc, page).unwrap_or_default();
    let mut fonts = resources
        .get(b"Font")
        .and_then(|o| doc.dereference(o))
        .ok()
        .and_then(|(_, o)| o.as_dict().ok())
        .cloned()
        .unwrap_or_default();
    let missing: Vec<Vec<u8>> = selected
        .into_iter()
        .filter(|name| !defines(doc, &fonts, name))
        .collect();
    if missing.is_empty() {
        return 0;
    }
    for name in &missing {
        fonts.set(name.clone(), Object::Dictionary(helvetica()));
    }
    resources.set("Font", Object::Dictionary(fonts));
    let Ok(dict) = doc.get_object_mut(page).and_then(Object::as_dict_mut) else {
        return 0;
    };
    dict.set("Resources", Object::Dictionary(resources));
    missing.len()
}

/// The font names a content stream selects with `Tf`, each once, in order (none when the
/// stream does not parse: pdf-extract then fails on it, and that failure is caught).
fn selected(content: &[u8]) -> Vec<Vec<u8>> {
    if memchr::memmem::find(content, b"Tf").is_none() {
        return Vec::new();
    }
    let Ok(Ok(c)) = catch_unwind(AssertUnwindSafe(|| Content::decode(content))) else {
        return Vec::new();
    };
    let mut names: Vec<Vec<u8>> = Vec::new();
    for op in c.operations.iter().filter(|op| op.operator == "Tf") {
        if let Some(Ok(name)) = op.operands.first().map(Object::as_name) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_vec());
            }
        }
    }
    names
}

/// The resources pdf-extract lays the page out with: the first `/Resources` from the page
/// up its `/Parent`s, dereferenced.
fn inherited(doc: &Document, page: ObjectId) -> Option<Dictionary> {
    let mut id = page;
    for _ in 0..MAX_DEPTH {
        let node = doc.get_dictionary(id).ok()?;
        if let Ok(r) = node.get(b"Resources") {
            return doc.dereference(r).ok()?.1.as_dict().ok().cloned();
        }
        id = node.get(b"Parent").ok()?.as_reference().ok()?;
    }
    None
}

/// Whether `fonts` names a font dictionary under `name`.
fn defines(doc: &Document, fonts: &Dictionary, name: &[u8]) -> bool {
    fonts
        .get(name)
        .and_then(|o| doc.dereference(o))
        .is_ok_and(|(_, o)| o.as_dict().is_ok())
}

/// The stand-in: standard Helvetica, a Type1 font without a file of its own.
fn helvetica() -> Dictionary {
    let mut d = Dictionary::new();
    d.set("Type", Object::Name(b"Font".to_vec()));
    d.set("Subtype", Object::Name(b"Type1".to_vec()));
    d.set("BaseFont", Object::Name(b"Helvetica".to_vec()));
    d
}
