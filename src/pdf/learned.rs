//! What a read of a PDF learned, kept for the next read of the same, unchanged file
//! (with an [`crate::IndexCache`], in memory and in its index directory): the
//! cross-reference data as the read found it (sections, the trailer), the page count,
//! the title, and the objects of the pages it went to. A later read (another process
//! too) starts from there: no cross-reference stream inflated again, no page tree
//! descended again for a page read before.
//!
//! The bytes are this module's own (little-endian, every length checked against what is
//! left, so a damaged entry fails to decode rather than asking for memory); the index
//! directory adds the identity, the version and a checksum around them.

use std::collections::BTreeMap;

use lopdf::{Dictionary, Object, ObjectId};

use super::xref::{parse_dict, Entry, Parsed, Rows, Section, Table};
use super::{OutlineItem, PageInfo, PdfPage};

/// The outline and every page's [`PageInfo`], for a read without a page selection.
pub(super) type Overview = (Vec<OutlineItem>, Vec<PageInfo>);

/// The layout of the bytes; other versions are not read.
const VERSION: u32 = 2;

/// The crate that wrote them: page texts are its text extractor's, so another version's
/// are not used.
const WRITER: &str = concat!("rangeread ", env!("CARGO_PKG_VERSION"));

/// The most text kept for one file: pages read after that much are not kept.
pub(super) const MAX_TEXT: usize = 4 << 20;

/// The most bytes kept for one file (64 MiB: a cross-reference stream of 8 million
/// objects, or 3 million pages).
pub(super) const MAX_BYTES: usize = 64 << 20;

/// What a read learned.
#[derive(Debug)]
pub(super) struct Learned {
    pub table: Table,
    /// The object of page `n`, for the pages read (or every page, after an overview).
    pub pages: BTreeMap<u64, ObjectId>,
    pub facts: Facts,
}

/// What a read found out of the document itself.
#[derive(Debug, Default)]
pub(super) struct Facts {
    pub page_count: Option<u64>,
    /// The document's title (the Info dictionary's `Title`, as stored).
    pub title: Option<Object>,
    /// The text of the pages read, whole (never of an encrypted file).
    pub texts: BTreeMap<u64, PdfPage>,
    /// The outline and every page's size, once an overview was read.
    pub overview: Option<Overview>,
}

/// What a read learned, as bytes.
pub(super) fn encode(t: &Table, pages: &BTreeMap<u64, ObjectId>, facts: &Facts) -> Vec<u8> {
    let Facts {
        page_count,
        title,
        texts,
        overview,
    } = facts;
    let mut out = Vec::new();
    put32(&mut out, VERSION);
    put64(&mut out, WRITER.len() as u64);
    out.extend_from_slice(WRITER.as_bytes());
    put64(&mut out, t.base);
    put64(&mut out, t.entries);
    out.push(u8::from(t.scanned));
    put64(&mut out, t.object_streams.len() as u64);
    for &n in &t.object_streams {
        put32(&mut out, n);
    }
    let mut extra = Dictionary::new();
    if let Some(title) = title {
        extra.set("Title", title.clone());
    }
    for d in [&t.trailer, &extra] {
        let mut text = Vec::new();
        write_object(&mut text, &Object::Dictionary(d.clone()));
        put64(&mut out, text.len() as u64);
        out.extend_from_slice(&text);
    }
    put64(&mut out, page_count.unwrap_or(u64::MAX));
    put64(&mut out, pages.len() as u64);
    for (&n, &(num, generation)) in pages {
        put64(&mut out, n);
        put32(&mut out, num);
        put32(&mut out, u32::from(generation));
    }
    put64(&mut out, t.sections.len() as u64);
    for s in &t.sections {
        match s {
            Section::Parsed(x) => {
                out.push(0);
                put64(&mut out, x.len() as u64);
                for (&n, e) in x {
                    put32(&mut out, n);
                    put_entry(&mut out, e);
                }
            }
            Section::Rows(r) => {
                out.push(1);
                put_rows(&mut out, r);
            }
            Section::Table {
                subsections,
                stream,
            } => {
                out.push(2);
                put_subsections(&mut out, subsections);
                match stream {
                    Some(r) => {
                        out.push(1);
                        put_rows(&mut out, r);
                    }
                    None => out.push(0),
                }
            }
        }
    }
    put64(&mut out, texts.len() as u64);
    for (&n, p) in texts {
        put64(&mut out, n);
        out.push(u8::from(p.no_text) | u8::from(p.likely_scanned) << 1);
        put64(&mut out, p.text.len() as u64);
        out.extend_from_slice(p.text.as_bytes());
    }
    match overview {
        None => out.push(0),
        Some((outline, info)) => {
            out.push(1);
            put64(&mut out, outline.len() as u64);
            for o in outline {
                put32(&mut out, o.level);
                put64(&mut out, o.page);
                put64(&mut out, o.title.len() as u64);
                out.extend_from_slice(o.title.as_bytes());
            }
            put64(&mut out, info.len() as u64);
            for i in info {
                put64(&mut out, i.page);
                put64(&mut out, i.content_bytes);
                out.push(u8::from(i.has_text) | u8::from(i.has_images) << 1);
            }
        }
    }
    out
}

/// The bytes of [`encode`] back, or `None` when they are not whole.
pub(super) fn decode(bytes: &[u8]) -> Option<Learned> {
    let mut c = Cursor(bytes);
    if c.u32()? != VERSION {
        return None;
    }
    let n = c.count(1)?;
    if c.take(n)? != WRITER.as_bytes() {
        return None;
    }
    let base = c.u64()?;
    let entries = c.u64()?;
    let scanned = match c.u8()? {
        0 => false,
        1 => true,
        _ => return None,
    };
    let n = c.count(4)?;
    let object_streams = (0..n).map(|_| c.u32()).collect::<Option<Vec<_>>>()?;
    let trailer = c.dict()?;
    let extra = c.dict()?;
    let page_count = Some(c.u64()?).filter(|&n| n != u64::MAX);
    let n = c.count(16)?;
    let mut pages = BTreeMap::new();
    for _ in 0..n {
        let page = c.u64()?;
        let num = c.u32()?;
        let generation = u16::try_from(c.u32()?).ok()?;
        pages.insert(page, (num, generation));
    }
    let n = c.count(1)?;
    let mut sections = Vec::with_capacity(n);
    for _ in 0..n {
        sections.push(match c.u8()? {
            0 => {
                let k = c.count(4 + 11)?;
                let mut x = Parsed::new();
                for _ in 0..k {
                    let num = c.u32()?;
                    x.insert(num, c.entry()?);
                }
                Section::Parsed(x)
            }
            1 => Section::Rows(c.rows()?),
            2 => {
                let subsections = c.subsections()?;
                let stream = match c.u8()? {
                    0 => None,
                    1 => Some(c.rows()?),
                    _ => return None,
                };
                Section::Table {
                    subsections,
                    stream,
                }
            }
            _ => return None,
        });
    }
    let n = c.count(17)?;
    let mut texts = BTreeMap::new();
    for _ in 0..n {
        let page = c.u64()?;
        let flags = c.u8()?;
        let len = c.count(1)?;
        let text = std::str::from_utf8(c.take(len)?).ok()?.to_string();
        if flags > 3 {
            return None;
        }
        let p = PdfPage {
            page,
            text_bytes: text.len() as u64,
            text,
            cut: false,
            no_text: flags & 1 != 0,
            likely_scanned: flags & 2 != 0,
        };
        texts.insert(page, p);
    }
    let overview = match c.u8()? {
        0 => None,
        1 => {
            let n = c.count(20)?;
            let mut outline = Vec::with_capacity(n);
            for _ in 0..n {
                let level = c.u32()?;
                let page = c.u64()?;
                let len = c.count(1)?;
                let title = std::str::from_utf8(c.take(len)?).ok()?.to_string();
                outline.push(OutlineItem { level, title, page });
            }
            let n = c.count(17)?;
            let mut info = Vec::with_capacity(n);
            for _ in 0..n {
                let page = c.u64()?;
                let content_bytes = c.u64()?;
                let flags = c.u8()?;
                if flags > 3 {
                    return None;
                }
                info.push(PageInfo {
                    page,
                    content_bytes,
                    has_text: flags & 1 != 0,
                    has_images: flags & 2 != 0,
                });
            }
            Some((outline, info))
        }
        _ => return None,
    };
    if !c.0.is_empty() {
        return None;
    }
    Some(Learned {
        table: Table {
            sections,
            trailer,
            base,
            entries,
            scanned,
            object_streams,
        },
        pages,
        facts: Facts {
            page_count,
            title: extra.get(b"Title").ok().cloned(),
            texts,
            overview,
        },
    })
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// An entry in 11 bytes: kind, then two fields.
fn put_entry(out: &mut Vec<u8>, e: &Entry) {
    let (kind, a, b) = match *e {
        Entry::Free => (0, 0, 0),
        Entry::Normal { offset, generation } => (1, offset, generation),
        Entry::Compressed { container, index } => (2, u64::from(container), index),
    };
    out.push(kind);
    put64(out, a);
    out.extend_from_slice(&b.to_le_bytes());
}

fn put_subsections(out: &mut Vec<u8>, subsections: &[(u32, u32, u64)]) {
    put64(out, subsections.len() as u64);
    for &(first, count, at) in subsections {
        put32(out, first);
        put32(out, count);
        put64(out, at);
    }
}

fn put_rows(out: &mut Vec<u8>, r: &Rows) {
    for w in r.w {
        put64(out, w as u64);
    }
    put64(out, r.index.len() as u64);
    for &(first, count, row) in &r.index {
        put32(out, first);
        put32(out, count);
        put64(out, row as u64);
    }
    put64(out, r.data.len() as u64);
    out.extend_from_slice(&r.data);
}

/// A cursor over the bytes; every read fails past the end.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// A count of items of at least `size` bytes each: no more than the bytes left hold.
    fn count(&mut self, size: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.checked_mul(size)? <= self.0.len()).then_some(n)
    }

    fn entry(&mut self) -> Option<Entry> {
        let kind = self.u8()?;
        let a = self.u64()?;
        let b = u16::from_le_bytes(self.take(2)?.try_into().ok()?);
        Some(match kind {
            0 => Entry::Free,
            1 => Entry::Normal {
                offset: a,
                generation: b,
            },
            2 => Entry::Compressed {
                container: u32::try_from(a).ok()?,
                index: b,
            },
            _ => return None,
        })
    }

    fn dict(&mut self) -> Option<Dictionary> {
        let n = self.count(1)?;
        parse_dict(self.take(n)?).ok()
    }

    fn subsections(&mut self) -> Option<Vec<(u32, u32, u64)>> {
        let n = self.count(16)?;
        (0..n)
            .map(|_| Some((self.u32()?, self.u32()?, self.u64()?)))
            .collect()
    }

    fn rows(&mut self) -> Option<Rows> {
        let mut w = [0usize; 3];
        for x in &mut w {
            *x = usize::try_from(self.u64()?).ok().filter(|&v| v <= 8)?;
        }
        let n = self.count(16)?;
        let index = (0..n)
            .map(|_| Some((self.u32()?, self.u32()?, usize::try_from(self.u64()?).ok()?)))
            .collect::<Option<Vec<_>>>()?;
        let len = self.count(1)?;
        let data = self.take(len)?.to_vec();
        Some(Rows { data, w, index })
    }
}

/// `o` in PDF syntax (what [`parse_dict`] reads back): names with `#xx` escapes,
/// strings in hexadecimal; a stream (which no trailer holds) as `null`.
fn write_object(out: &mut Vec<u8>, o: &Object) {
    match o {
        Object::Null | Object::Stream(_) => out.extend_from_slice(b"null"),
        Object::Boolean(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Object::Integer(i) => out.extend_from_slice(i.to_string().as_bytes()),
        Object::Real(r) => {
            // Display never writes an exponent, which PDF numbers do not have.
            let r = if r.is_finite() { *r } else { 0.0 };
            out.extend_from_slice(format!("{r}").as_bytes());
        }
        Object::Name(n) => write_name(out, n),
        Object::String(s, _) => {
            out.push(b'<');
            for b in s {
                out.extend_from_slice(format!("{b:02x}").as_bytes());
            }
            out.push(b'>');
        }
        Object::Array(a) => {
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                write_object(out, x);
            }
            out.push(b']');
        }
        Object::Dictionary(d) => {
            out.extend_from_slice(b"<<");
            for (k, v) in d.iter() {
                write_name(out, k);
                out.push(b' ');
                write_object(out, v);
                out.push(b' ');
            }
            out.extend_from_slice(b">>");
        }
        Object::Reference((n, g)) => out.extend_from_slice(format!("{n} {g} R").as_bytes()),
    }
}

fn write_name(out: &mut Vec<u8>, name: &[u8]) {
    out.push(b'/');
    for &b in name {
        if (0x21..=0x7e).contains(&b) && !b"()<>[]{}/%#".contains(&b) {
            out.push(b);
        } else {
            out.extend_from_slice(format!("#{b:02x}").as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::StringFormat;

    fn enc(l: &Learned) -> Vec<u8> {
        encode(&l.table, &l.pages, &l.facts)
    }

    fn sample() -> Learned {
        let mut trailer = Dictionary::new();
        trailer.set("Root", Object::Reference((1, 0)));
        trailer.set("Size", 40);
        trailer.set(
            "ID",
            Object::Array(vec![
                Object::String(vec![0, 0xff, b'(', b')'], StringFormat::Hexadecimal),
                Object::String(b"a\\b".to_vec(), StringFormat::Literal),
            ]),
        );
        trailer.set("Odd name#/(x)", Object::Real(0.5));
        trailer.set("Tiny", Object::Real(1e-7));
        let mut parsed = Parsed::new();
        parsed.insert(
            7,
            Entry::Compressed {
                container: 30,
                index: 2,
            },
        );
        parsed.insert(8, Entry::Free);
        parsed.insert(
            9,
            Entry::Normal {
                offset: 5 << 30,
                generation: 1,
            },
        );
        let rows = Rows {
            data: vec![1, 0, 15, 0, 2, 0, 30, 1],
            w: [1, 2, 1],
            index: vec![(0, 2, 0)],
        };
        Learned {
            table: Table {
                sections: vec![
                    Section::Parsed(parsed),
                    Section::Rows(rows),
                    Section::Table {
                        subsections: vec![(0, 40, 1234)],
                        stream: None,
                    },
                ],
                trailer,
                base: 3,
                entries: 44,
                scanned: false,
                object_streams: vec![30],
            },
            pages: BTreeMap::from([(1, (5, 0)), (12, (9, 1))]),
            facts: Facts {
                page_count: Some(12),
                title: Some(Object::String(
                    "Ünïcode title".as_bytes().to_vec(),
                    StringFormat::Literal,
                )),
                overview: Some((
                    vec![OutlineItem {
                        level: 2,
                        title: "Über".into(),
                        page: 12,
                    }],
                    vec![PageInfo {
                        page: 1,
                        content_bytes: 99,
                        has_text: true,
                        has_images: true,
                    }],
                )),
                texts: BTreeMap::from([(
                    12,
                    PdfPage {
                        page: 12,
                        text: "Seite zwölf\n".into(),
                        text_bytes: 13,
                        cut: false,
                        no_text: false,
                        likely_scanned: false,
                    },
                )]),
            },
        }
    }

    #[test]
    fn what_a_read_learned_round_trips() {
        let bytes = enc(&sample());
        let back = decode(&bytes).expect("decodes");
        assert_eq!(enc(&back), bytes);
        assert_eq!(back.facts.page_count, Some(12));
        assert_eq!(back.facts.overview.as_ref().unwrap().0[0].title, "Über");
        assert_eq!(back.pages.get(&12), Some(&(9, 1)));
        assert_eq!(back.facts.texts[&12].text, "Seite zwölf\n");
        assert_eq!(
            back.table.trailer.get(b"Size").unwrap().as_i64().unwrap(),
            40
        );
        assert!(back.table.trailer.get(b"Odd name#/(x)").is_ok());
        let tiny = back.table.trailer.get(b"Tiny").unwrap().as_float().unwrap();
        assert!((tiny - 1e-7).abs() < 1e-9, "{tiny}");
        let Object::String(title, _) = back.facts.title.unwrap() else {
            panic!("the title is a string");
        };
        assert_eq!(title, "Ünïcode title".as_bytes());
    }

    #[test]
    fn bytes_cut_short_or_with_counts_too_large_do_not_decode() {
        let bytes = enc(&sample());
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n]).is_none(), "cut at {n}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer).is_none());
        // The count of object streams (after version, writer, base, entries, scanned)
        // made huge.
        let mut huge = bytes;
        let at = 4 + 8 + WRITER.len() + 17;
        huge[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode(&huge).is_none());
    }
}
