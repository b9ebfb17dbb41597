//! The bounds of one call: how many bytes it may decompress, and until when it may run.
//! Streams are inflated here, counted, before lopdf or pdf-extract inflates them without
//! a limit; a stream that would go over the call's allowance stops the call.

use std::io::Read;
use std::time::Instant;

use flate2::read::{DeflateDecoder, ZlibDecoder};
use lopdf::{Document, Object, ObjectId};

/// What a bound stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Over {
    /// The decompression allowance ran out (the bytes allowed).
    Inflate(u64),
    /// The deadline passed.
    Time,
}

/// The allowance of one call.
#[derive(Debug)]
pub(super) struct Budget {
    /// Bytes the call may still decompress.
    pub left: u64,
    /// The whole allowance, for messages.
    pub total: u64,
    pub deadline: Instant,
}

impl Budget {
    pub fn check_time(&self) -> Result<(), Over> {
        if Instant::now() > self.deadline {
            Err(Over::Time)
        } else {
            Ok(())
        }
    }

    /// Inflates `raw` (zlib, or raw deflate when the header is bad, as lopdf falls back)
    /// into at most the allowance left; the bytes are charged.
    pub fn inflate(&mut self, raw: &[u8]) -> Result<Vec<u8>, Over> {
        let cap = self.left.saturating_add(1);
        let mut out = Vec::new();
        let zlib = ZlibDecoder::new(raw).take(cap).read_to_end(&mut out);
        if zlib.is_err() && out.is_empty() && raw.len() > 2 {
            let _ = DeflateDecoder::new(&raw[2..])
                .take(cap)
                .read_to_end(&mut out);
        }
        self.charge(out.len() as u64)?;
        Ok(out)
    }

    fn charge(&mut self, n: u64) -> Result<(), Over> {
        if n > self.left {
            self.left = 0;
            return Err(Over::Inflate(self.total));
        }
        self.left -= n;
        Ok(())
    }

    /// The decompressed content of a stream object, counted; a stream without filters is
    /// its bytes, one with filters other than Flate is charged at its encoded size (LZW
    /// and the image codecs are not inflated by text extraction's streams in practice).
    pub fn stream(&mut self, doc: &Document, id: ObjectId) -> Result<Vec<u8>, Over> {
        let Ok(Object::Stream(s)) = doc.get_object(id) else {
            return Ok(Vec::new());
        };
        match s.filters() {
            Ok(f) if f.first().is_some_and(|f| *f == b"FlateDecode") => self.inflate(&s.content),
            _ => {
                self.charge(s.content.len() as u64)?;
                Ok(s.content.clone())
            }
        }
    }
}

/// Counts what the object streams of the raw file inflate to, before lopdf loads (and
/// inflates) them: every `/ObjStm` dictionary is a top-level object, so its keyword is
/// in the raw bytes, and its data follows the next `stream` keyword.
pub(super) fn object_streams(raw: &[u8], budget: &mut Budget) -> Result<(), Over> {
    for at in memchr::memmem::find_iter(raw, b"/ObjStm") {
        budget.check_time()?;
        let rest = &raw[at..];
        let Some(k) = memchr::memmem::find(rest, b"stream") else {
            continue;
        };
        let mut data = &rest[k + b"stream".len()..];
        if let Some(d) = data
            .strip_prefix(b"\r\n")
            .or_else(|| data.strip_prefix(b"\n"))
        {
            data = d;
        }
        // The stream ends where the deflate data ends; the decoder stops there itself.
        budget.inflate(data)?;
    }
    Ok(())
}

/// Counts what the text of a page will inflate: its content streams, its fonts'
/// character maps and embedded programs, its form XObjects (one level), and returns the
/// content (for the page table's text and image checks).
pub(super) fn page(doc: &Document, page: ObjectId, budget: &mut Budget) -> Result<Vec<u8>, Over> {
    budget.check_time()?;
    let mut content = Vec::new();
    for id in doc.get_page_contents(page) {
        content.extend(budget.stream(doc, id)?);
    }
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
    for res in dicts {
        for key in [&b"Font"[..], b"XObject"] {
            let Ok(group) = res
                .get(key)
                .and_then(|o| doc.dereference(o))
                .map(|(_, o)| o)
            else {
                continue;
            };
            let Ok(group) = group.as_dict() else { continue };
            for (_, v) in group.iter() {
                let Ok(id) = v.as_reference() else { continue };
                referenced(doc, id, key == b"XObject", budget)?;
            }
        }
    }
    Ok(content)
}

/// Charges a font's (or form's) streams: ToUnicode, the font files of its descriptor,
/// its descendant fonts'; a form XObject's content. Images are not charged: text
/// extraction does not decode them.
fn referenced(
    doc: &Document,
    id: ObjectId,
    xobject: bool,
    budget: &mut Budget,
) -> Result<(), Over> {
    let Ok(obj) = doc.get_object(id) else {
        return Ok(());
    };
    if xobject {
        if let Object::Stream(s) = obj {
            if s.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Form") {
                budget.stream(doc, id)?;
            }
        }
        return Ok(());
    }
    let Ok(font) = obj.as_dict() else {
        return Ok(());
    };
    let mut streams = Vec::new();
    if let Ok(r) = font.get(b"ToUnicode").and_then(Object::as_reference) {
        streams.push(r);
    }
    if let Ok(desc) = font
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
    if let Ok(Object::Array(desc)) = font
        .get(b"DescendantFonts")
        .and_then(|o| doc.dereference(o))
        .map(|(_, o)| o)
    {
        for d in desc.iter().filter_map(|o| o.as_reference().ok()).take(4) {
            if d != id {
                referenced(doc, d, false, budget)?;
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

/// Whether content paints an XObject (`Do`), and the page has an image among them.
pub(super) fn draws_images(doc: &Document, page: ObjectId, content: &[u8]) -> bool {
    memchr::memmem::find(content, b"Do").is_some()
        && doc
            .get_page_images(page)
            .is_ok_and(|images| !images.is_empty())
}
