//! The cross-reference data rebuilt from the file itself, when the file's own is
//! missing or points at the wrong bytes (as poppler reconstructs a broken file).

use lopdf::{Dictionary, Object, ObjectId};

use super::bounds::Budget;
use super::xref::{parse_dict, parse_object, window, Entry, Fail, Parsed, Section, Table};
use crate::source::Source;

/// How many bytes of a file a scan reads at once.
const SCAN_CHUNK: u64 = 8 << 20;

/// Rebuilds the table from the file itself: every `N G obj` header (the last of an
/// object number wins, as in an updated file), the last `trailer` dictionary, else the
/// newest cross-reference stream's dictionary, else the catalog found among the
/// objects. The file is read once, in chunks, the clock looked at between them.
pub(super) fn scan(src: &Source, base: u64, budget: &mut Budget) -> Result<Table, Fail> {
    let len = src.len();
    let mut xref = Parsed::new();
    let mut trailers: Vec<u64> = Vec::new();
    let mut object_streams = Vec::new();
    let mut at = base;
    while at < len {
        budget.check_time()?;
        // Overlap the chunks so that a header across a boundary is seen whole.
        let end = at.saturating_add(SCAN_CHUNK).min(len);
        let bytes = window(src, at, end.saturating_add(64).min(len))?;
        let limit = (end - at) as usize;
        for k in memchr::memmem::find_iter(&bytes, b"obj") {
            if k >= limit + 3 {
                break;
            }
            if let Some((id, start)) = header_before(&bytes, k) {
                let offset = at + start as u64 - base;
                let dict = &bytes[k..bytes.len().min(k + 512)];
                if memchr::memmem::find(dict, b"/ObjStm").is_some() {
                    object_streams.push(id.0);
                }
                xref.insert(
                    id.0,
                    Entry::Normal {
                        offset,
                        generation: id.1,
                    },
                );
            }
        }
        for k in memchr::memmem::find_iter(&bytes[..limit], b"trailer") {
            trailers.push(at + k as u64);
        }
        at = end;
    }
    let entries = xref.len() as u64;
    let mut table = Table {
        sections: Vec::new(),
        trailer: Dictionary::new(),
        base,
        entries,
        scanned: true,
        object_streams,
    };
    for &t in trailers.iter().rev() {
        let bytes = window(src, t + 7, (t + 7 + (64 << 10)).min(len))?;
        let end = memchr::memmem::find(&bytes, b"startxref").unwrap_or(bytes.len());
        if let Ok(d) = parse_dict(&bytes[..end]) {
            if d.get(b"Root").is_ok() {
                table.trailer = d;
                table.sections.push(Section::Parsed(xref));
                return Ok(table);
            }
        }
    }
    // No trailer: a cross-reference stream's dictionary, or the catalog itself.
    let ids: Vec<(ObjectId, u64)> = xref
        .iter()
        .rev()
        .filter_map(|(&n, e)| match e {
            Entry::Normal { offset, generation } => Some(((n, *generation), *offset)),
            _ => None,
        })
        .collect();
    table.sections.push(Section::Parsed(xref));
    let mut catalog = None;
    for (id, offset) in ids {
        budget.check_time()?;
        let at = base + offset;
        // A dictionary is enough here: a stream cut short parses as its dictionary.
        let bytes = window(src, at, at + (16 << 10))?;
        let dict = match parse_object(&bytes, id) {
            Ok(Object::Stream(st)) => st.dict,
            Ok(Object::Dictionary(d)) => d,
            _ => continue,
        };
        if dict.has_type(b"XRef") && dict.get(b"Root").is_ok() {
            table.trailer = dict;
            table.trailer.remove(b"Prev");
            return Ok(table);
        }
        if catalog.is_none() && dict.has_type(b"Catalog") {
            catalog = Some(id);
        }
    }
    let root = catalog.ok_or_else(|| {
        Fail::Bad("its cross-reference data is broken and no catalog was found".into())
    })?;
    table.trailer.set("Root", Object::Reference(root));
    Ok(table)
}

/// The `N G` before the `obj` at `k` in `bytes`, and where `N` starts.
fn header_before(bytes: &[u8], k: usize) -> Option<(ObjectId, usize)> {
    let after = bytes.get(k + 3).copied().unwrap_or(b' ');
    if after.is_ascii_alphanumeric() {
        return None;
    }
    let mut i = k;
    let digits = |i: &mut usize| {
        let e = *i;
        while *i > 0 && bytes[*i - 1].is_ascii_digit() {
            *i -= 1;
        }
        (*i < e && e - *i <= 10).then(|| std::str::from_utf8(&bytes[*i..e]).ok())?
    };
    let spaces = |i: &mut usize| {
        let e = *i;
        while *i > 0 && bytes[*i - 1].is_ascii_whitespace() {
            *i -= 1;
        }
        *i < e
    };
    // `obj` may follow the generation directly only after white space.
    spaces(&mut i);
    let g: u16 = digits(&mut i)?.parse().ok()?;
    if !spaces(&mut i) {
        return None;
    }
    let n: u32 = digits(&mut i)?.parse().ok()?;
    if i > 0 && !bytes[i - 1].is_ascii_whitespace() {
        return None;
    }
    Some(((n, g), i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::xref::header;

    #[test]
    fn object_headers_are_found_before_their_obj_keyword() {
        let b = b"endobj\n12 0 obj\n<< >>";
        let k = memchr::memmem::find(b, b" obj").unwrap() + 1;
        assert_eq!(header_before(b, k), Some(((12, 0), 7)));
        // `obj` inside a word, or without a generation, is no header.
        assert_eq!(header_before(b"12 0 objx", 5), None);
        assert_eq!(header_before(b"/Type 0obj", 7), None);
        assert_eq!(header(b"  7 1 obj <<"), Some((7, 1)));
    }
}
