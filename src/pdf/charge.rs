//! What a page's text will decode, charged to the call's allowance before pdf-extract
//! decodes it: the page's content streams, its fonts' character maps and programs, and
//! the XObjects it draws ([`super::xobjects`]); and what the page shows (text, images).

use lopdf::{Document, Object, ObjectId};

use super::bounds::{Budget, Over};

/// Counts what the text of a page will decode before pdf-extract does: its content
/// streams, its fonts' character maps and embedded programs, and every XObject it draws
/// as often as it draws it (`super::xobjects`, which also refuses cycles); returns the
/// content (for the page table's text and image checks).
pub(super) fn page(doc: &Document, page: ObjectId, budget: &mut Budget) -> Result<Vec<u8>, Over> {
    let content = contents(doc, page, budget)?;
    let resources = doc.get_page_resources(page).ok();
    let mut dicts: Vec<&lopdf::Dictionary> = Vec::new();
    if let Some((own, inherited)) = resources {
        dicts.extend(own);
        dicts.extend(
            inherited
                .iter()
                .filter_map(|id| doc.get_dictionary(*id).ok()),
        );
    }
    for res in &dicts {
        let Ok(group) = res
            .get(b"Font")
            .and_then(|o| doc.dereference(o))
            .map(|(_, o)| o)
        else {
            continue;
        };
        let Ok(group) = group.as_dict() else { continue };
        for (_, v) in group.iter() {
            let Ok(id) = v.as_reference() else { continue };
            font(doc, id, budget)?;
        }
    }
    super::xobjects::walk(doc, &content, dicts.first().copied(), budget)?;
    Ok(content)
}

/// The content streams of `page`, decoded and charged, one after another.
pub(super) fn contents(
    doc: &Document,
    page: ObjectId,
    budget: &mut Budget,
) -> Result<Vec<u8>, Over> {
    budget.check_time()?;
    let mut content = Vec::new();
    for id in doc.get_page_contents(page) {
        content.extend(budget.stream(doc, id)?);
    }
    Ok(content)
}

/// Charges a font's streams: ToUnicode, the font files of its descriptor, its
/// descendant fonts'.
fn font(doc: &Document, id: ObjectId, budget: &mut Budget) -> Result<(), Over> {
    let Ok(dict) = doc.get_dictionary(id) else {
        return Ok(());
    };
    let mut streams = Vec::new();
    if let Ok(r) = dict.get(b"ToUnicode").and_then(Object::as_reference) {
        streams.push(r);
    }
    if let Ok(desc) = dict
        .get(b"FontDescriptor")
        .and_then(Object::as_reference)
        .and_then(|r| doc.get_dictionary(r))
    {
        for k in [&b"FontFile"[..], b"FontFile2", b"FontFile3"] {
            if let Ok(r) = desc.get(k).and_then(Object::as_reference) {
                streams.push(r);
            }
        }
    }
    for s in streams {
        budget.stream(doc, s)?;
    }
    if let Ok(Object::Array(desc)) = dict
        .get(b"DescendantFonts")
        .and_then(|o| doc.dereference(o))
        .map(|(_, o)| o)
    {
        for d in desc.iter().filter_map(|o| o.as_reference().ok()).take(4) {
            if d != id {
                font(doc, d, budget)?;
            }
        }
    }
    Ok(())
}

/// Whether content shows text (`Tj`, `TJ`, `'`, `"` after a `BT`): a byte search, no
/// parse.
pub(super) fn shows_text(content: &[u8]) -> bool {
    memchr::memmem::find(content, b"BT").is_some()
        && [&b"Tj"[..], b"TJ", b"'", b"\""]
            .iter()
            .any(|op| memchr::memmem::find(content, op).is_some())
}

/// Whether content may paint an XObject (it has a `Do`): a byte search, no parse.
pub(super) fn paints_xobjects(content: &[u8]) -> bool {
    memchr::memmem::find(content, b"Do").is_some()
}

/// Whether content paints an XObject (`Do`), and the page has an image among them.
pub(super) fn draws_images(doc: &Document, page: ObjectId, content: &[u8]) -> bool {
    paints_xobjects(content)
        && doc
            .get_page_images(page)
            .is_ok_and(|images| !images.is_empty())
}
