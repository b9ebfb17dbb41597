//! Where a PDF's objects are: its cross-reference data, read without parsing the file.
//!
//! The last `startxref` names the newest cross-reference section: a table (`xref` ...
//! `trailer`) or a stream (`/Type /XRef`, PNG predictors and all); each section's
//! `/Prev` names the one before (incremental updates, linearized files), and a table's
//! `/XRefStm` the stream of a hybrid-reference file. A newer section's entry wins over
//! an older one's, and a hybrid file's stream fills the entries its table leaves free.
//! When any of this is missing or does not parse, [`scan`] rebuilds the table from the
//! `N G obj` headers in the file ([`super::scan`]), as poppler does. Only the bytes of the sections are
//! read (positional reads through the [`Source`]: no map, any size).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};

use lopdf::xref::XrefEntry;
use lopdf::{Dictionary, Document, Object, ObjectId, Reader};

use super::bounds::{Budget, Over};
use crate::source::Source;

/// The most sections followed through `/Prev` (a loop is cut earlier).
const MAX_SECTIONS: usize = 4096;

/// Why the cross-reference data could not be used.
#[derive(Debug)]
pub(super) enum Fail {
    /// A bound of the call.
    Over(Over),
    /// The data is not there or does not parse (the message says what).
    Bad(String),
    /// The source could not be read.
    Io(crate::error::Error),
    /// More objects than a call may load (the number found).
    Objects(u64),
}

impl From<Over> for Fail {
    fn from(o: Over) -> Fail {
        Fail::Over(o)
    }
}

impl From<crate::error::Error> for Fail {
    fn from(e: crate::error::Error) -> Fail {
        Fail::Io(e)
    }
}

/// Where an object is (lopdf's `XrefEntry`, with 64-bit offsets: lopdf's are 32-bit,
/// which would end every PDF at 4 GiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entry {
    /// Not in use.
    Free,
    /// At `offset` from the file's header, with its generation.
    Normal { offset: u64, generation: u16 },
    /// Object `index` of the object stream `container`.
    Compressed { container: u32, index: u16 },
}

/// Entries read out, by object number.
pub(super) type Parsed = BTreeMap<u32, Entry>;

/// One cross-reference section, newest first in [`Table::sections`].
#[derive(Debug)]
pub(super) enum Section {
    /// Entries read out (a scan's, a table whose entries are not 20 bytes).
    Parsed(Parsed),
    /// A cross-reference stream's rows, decoded: an entry is read out when it is looked
    /// up.
    Rows(Rows),
    /// A classic table whose entries are the standard 20 bytes each: only where its
    /// subsections are (first object, count, offset of the first entry); an entry is
    /// read when it is looked up. A hybrid file's stream follows in `stream`, for the
    /// objects the table lists as free or not at all.
    Table {
        subsections: Vec<(u32, u32, u64)>,
        stream: Option<Rows>,
    },
}

/// The decoded rows of a cross-reference stream.
#[derive(Debug)]
pub(super) struct Rows {
    pub data: Vec<u8>,
    /// The widths of the three fields.
    pub w: [usize; 3],
    /// Subsections: first object, count, first row.
    pub index: Vec<(u32, u32, usize)>,
}

impl Rows {
    fn get(&self, n: u32) -> Option<Entry> {
        let &(first, _, row0) = self
            .index
            .iter()
            .find(|&&(first, count, _)| n >= first && n - first < count)?;
        let width = self.w.iter().sum::<usize>();
        let at = (row0 + (n - first) as usize) * width;
        let row = self.data.get(at..at + width)?;
        let field = |from: usize, len: usize| -> u64 {
            row[from..from + len]
                .iter()
                .fold(0u64, |acc, &b| acc << 8 | u64::from(b))
        };
        let [w0, w1, w2] = self.w;
        let kind = if w0 == 0 { 1 } else { field(0, w0) };
        let a = field(w0, w1);
        let b = field(w0 + w1, w2);
        match kind {
            0 => Some(Entry::Free),
            1 => Some(Entry::Normal {
                offset: a,
                generation: b as u16,
            }),
            2 => Some(Entry::Compressed {
                container: u32::try_from(a).ok()?,
                index: b as u16,
            }),
            _ => None,
        }
    }

    fn len(&self) -> u64 {
        self.index.iter().map(|&(_, c, _)| u64::from(c)).sum()
    }

    fn numbers(&self) -> impl Iterator<Item = u32> + '_ {
        self.index
            .iter()
            .flat_map(|&(first, count, _)| (0..count).map(move |i| first.saturating_add(i)))
    }
}

/// The cross-reference data of a file.
#[derive(Debug)]
pub(super) struct Table {
    /// The sections, newest first: an object's entry is the first one found.
    pub sections: Vec<Section>,
    /// The newest trailer (with `Root`, `Info`, `Encrypt`, `ID`).
    pub trailer: Dictionary,
    /// Where the file's `%PDF-` header is: offsets count from there.
    pub base: u64,
    /// How many entries the sections list.
    pub entries: u64,
    /// Whether the table came from a scan of the file rather than its own data.
    pub scanned: bool,
    /// For a scanned table: the object streams found, whose objects it does not list.
    pub object_streams: Vec<u32>,
}

impl Table {
    /// The entry of object number `n`: from the newest section that lists it.
    pub fn entry(&self, src: &Source, n: u32) -> Result<Option<Entry>, Fail> {
        for s in &self.sections {
            match s {
                Section::Parsed(x) => {
                    if let Some(&e) = x.get(&n) {
                        return Ok(Some(e));
                    }
                }
                Section::Rows(r) => {
                    if let Some(e) = r.get(n) {
                        return Ok(Some(e));
                    }
                }
                Section::Table {
                    subsections,
                    stream,
                } => {
                    let own = subsections
                        .iter()
                        .find(|&&(first, count, _)| n >= first && n - first < count);
                    let own = match own {
                        Some(&(first, _, at)) => {
                            let at = at + 20 * u64::from(n - first);
                            entry20(&window(src, at, at + 20)?)
                        }
                        None => None,
                    };
                    match (own, stream.as_ref().and_then(|r| r.get(n))) {
                        (Some(Entry::Free) | None, Some(e)) => return Ok(Some(e)),
                        (Some(e), _) => return Ok(Some(e)),
                        (None, None) => {}
                    }
                }
            }
        }
        Ok(None)
    }

    /// Adds entries found later (objects of the object streams a scan found).
    pub fn insert(&mut self, n: u32, e: Entry) {
        if !matches!(self.sections.first(), Some(Section::Parsed(_))) {
            self.sections.insert(0, Section::Parsed(Parsed::new()));
        }
        if let Some(Section::Parsed(x)) = self.sections.first_mut() {
            x.entry(n).or_insert(e);
        }
    }
}

/// A 20-byte table entry (`oooooooooo ggggg n` and its end of line).
fn entry20(b: &[u8]) -> Option<Entry> {
    let digits = |r: std::ops::Range<usize>| -> Option<u64> {
        let t = b.get(r)?;
        t.iter()
            .all(u8::is_ascii_digit)
            .then(|| t.iter().fold(0u64, |a, &c| a * 10 + u64::from(c - b'0')))
    };
    if b.len() < 20 || b[10] != b' ' || b[16] != b' ' {
        return None;
    }
    let offset = digits(0..10)?;
    let generation = digits(11..16)?;
    match b[17] {
        b'n' => Some(Entry::Normal {
            offset,
            generation: u16::try_from(generation).ok()?,
        }),
        b'f' => Some(Entry::Free),
        _ => None,
    }
}

/// `end - start` bytes of `src` (fewer at its end): borrowed when the source is in
/// memory, else read.
pub(super) fn window(src: &Source, start: u64, end: u64) -> Result<Cow<'_, [u8]>, Fail> {
    let end = end.min(src.len());
    if start >= end {
        return Ok(Cow::Borrowed(&[]));
    }
    if let Some(all) = src.as_slice() {
        return Ok(Cow::Borrowed(&all[start as usize..end as usize]));
    }
    let mut buf = Vec::new();
    src.read_append(start, (end - start) as usize, &mut buf)?;
    Ok(Cow::Owned(buf))
}

/// The object `id` whose `N G obj` header starts `bytes` (leading white space
/// allowed), through lopdf's parser. A stream whose `/Length` is a reference comes back
/// with no content and its `start_position` in `bytes`.
pub(super) fn parse_object(bytes: &[u8], id: ObjectId) -> Result<Object, String> {
    let mut document = Document::new();
    document.reference_table.insert(
        id.0,
        XrefEntry::Normal {
            offset: 0,
            generation: id.1,
        },
    );
    let reader = Reader {
        buffer: bytes,
        document,
        encryption_state: None,
        raw_objects: BTreeMap::new(),
        password: None,
        strict: false,
    };
    let mut seen = HashSet::new();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        reader.get_object(id, &mut seen)
    }))
    .map_err(|_| format!("the parser failed on object {} {}", id.0, id.1))?
    .map_err(|e| format!("object {} {}: {e}", id.0, id.1))
}

/// The object written out in `bytes` without its `N G obj` header (a trailer, an
/// object of an object stream), through lopdf's parser, as object `id`.
pub(super) fn parse_direct(bytes: &[u8], id: ObjectId) -> Result<Object, String> {
    let mut wrapped = format!("{} {} obj\n", id.0, id.1).into_bytes();
    wrapped.extend_from_slice(bytes);
    wrapped.extend_from_slice(b"\nendobj\n");
    parse_object(&wrapped, id)
}

/// A dictionary written out in `bytes` (a trailer's), through lopdf's parser.
pub(super) fn parse_dict(bytes: &[u8]) -> Result<Dictionary, String> {
    match parse_direct(bytes, (0, 0))? {
        Object::Dictionary(d) => Ok(d),
        _ => Err("the trailer is not a dictionary".into()),
    }
}

/// The `N G obj` header at the start of `bytes` (after white space): the id and the
/// length of the header.
pub(super) fn header(bytes: &[u8]) -> Option<ObjectId> {
    let mut it = bytes
        .split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    let n = std::str::from_utf8(it.next()?).ok()?.parse().ok()?;
    let g = std::str::from_utf8(it.next()?).ok()?.parse().ok()?;
    let obj = it.next()?;
    (obj.starts_with(b"obj")).then_some((n, g))
}

/// Where the file's `%PDF-` header is: offsets in the file count from there.
pub(super) fn base(src: &Source) -> Result<u64, Fail> {
    let head = window(src, 0, 1024)?;
    let at = memchr::memmem::find(&head, b"%PDF-")
        .ok_or_else(|| Fail::Bad("it has no %PDF- header in its first 1024 bytes".to_string()))?;
    Ok(at as u64)
}

/// The offset (from the header) the last `startxref` names.
fn startxref(src: &Source) -> Result<u64, Fail> {
    let len = src.len();
    let tail = window(src, len.saturating_sub(1024), len)?;
    let at = memchr::memmem::rfind(&tail, b"startxref")
        .ok_or_else(|| Fail::Bad("it has no startxref".into()))?;
    let digits: String = tail[at + 9..]
        .iter()
        .skip_while(|c| c.is_ascii_whitespace())
        .take_while(|c| c.is_ascii_digit())
        .map(|&c| c as char)
        .collect();
    digits
        .parse()
        .map_err(|_| Fail::Bad("its startxref has no offset".into()))
}

/// Follows the sections from the last `startxref` through every `/Prev`.
/// Reads the cross-reference data of `src` (every section, newest first); `Fail::Bad`
/// when it is missing or broken, which the caller answers with a scan (`pdf::scan`).
pub(super) fn sections(src: &Source, base: u64, budget: &mut Budget) -> Result<Table, Fail> {
    let mut list = Vec::new();
    let mut trailer: Option<Dictionary> = None;
    let mut seen = Vec::new();
    let mut next = Some(startxref(src)?);
    while let Some(at) = next.take() {
        budget.check_time()?;
        if seen.contains(&at) || seen.len() >= MAX_SECTIONS {
            break;
        }
        seen.push(at);
        let (mut found, dict) = section(src, base + at, budget)?;
        if let Ok(stm) = dict.get(b"XRefStm").and_then(Object::as_i64) {
            // A hybrid file: the stream holds what the table lists as free or not at all.
            let stm = u64::try_from(stm).map_err(|_| Fail::Bad("a bad XRefStm".into()))?;
            if !seen.contains(&stm) {
                seen.push(stm);
                if let (Section::Rows(more), _) = section(src, base + stm, budget)? {
                    found = match found {
                        Section::Table { subsections, .. } => Section::Table {
                            subsections,
                            stream: Some(more),
                        },
                        Section::Parsed(mut x) => {
                            for n in more.numbers() {
                                if matches!(x.get(&n), None | Some(Entry::Free)) {
                                    if let Some(e) = more.get(n) {
                                        x.insert(n, e);
                                    }
                                }
                            }
                            Section::Parsed(x)
                        }
                        rows => rows,
                    };
                }
            }
        }
        next = dict
            .get(b"Prev")
            .and_then(Object::as_i64)
            .ok()
            .and_then(|p| u64::try_from(p).ok());
        list.push(found);
        if trailer.is_none() {
            trailer = Some(dict);
        }
    }
    let trailer = trailer.ok_or_else(|| Fail::Bad("it has no trailer".into()))?;
    if trailer.get(b"Root").is_err() {
        return Err(Fail::Bad("its trailer names no catalog (Root)".into()));
    }
    let entries = list
        .iter()
        .map(|s| match s {
            Section::Parsed(x) => x.len() as u64,
            Section::Rows(r) => r.len(),
            Section::Table {
                subsections,
                stream,
            } => {
                subsections
                    .iter()
                    .map(|&(_, c, _)| u64::from(c))
                    .sum::<u64>()
                    + stream.as_ref().map_or(0, Rows::len)
            }
        })
        .sum();
    Ok(Table {
        sections: list,
        trailer,
        base,
        entries,
        scanned: false,
        object_streams: Vec::new(),
    })
}

/// One section at `at` (from the file's start) and its trailer (a table's `trailer`, a
/// stream's dictionary).
fn section(src: &Source, at: u64, budget: &mut Budget) -> Result<(Section, Dictionary), Fail> {
    let head = window(src, at, at.saturating_add(64))?;
    let start = head
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(head.len());
    if head[start..].starts_with(b"xref") {
        return table(src, at + start as u64 + 4);
    }
    let mut size = 64 << 10;
    loop {
        let bytes = window(src, at, at.saturating_add(size))?;
        let complete = at.saturating_add(size) >= src.len();
        match stream(&bytes, budget, complete)? {
            Some((r, d)) => return Ok((Section::Rows(r), d)),
            None if !complete => size = size.saturating_mul(4),
            None => return Err(Fail::Bad("a cross-reference section ends early".into())),
        }
    }
}

/// A classic table from `at` (after its `xref` keyword): its subsections' headers are
/// read, their entries skipped when they are the standard 20 bytes (read out
/// otherwise), then the trailer.
fn table(src: &Source, mut at: u64) -> Result<(Section, Dictionary), Fail> {
    let bad = |m: &str| Fail::Bad(format!("its cross-reference table {m}"));
    let mut subsections = Vec::new();
    let mut parsed = Parsed::new();
    loop {
        let head = window(src, at, at.saturating_add(256))?;
        let skip = head.iter().take_while(|c| c.is_ascii_whitespace()).count();
        let rest = &head[skip..];
        if rest.starts_with(b"trailer") {
            at += (skip + 7) as u64;
            break;
        }
        let line = rest.iter().position(|&c| c == b'\n' || c == b'\r');
        let line = line.ok_or_else(|| bad("ends early"))?;
        let mut nums = rest[..line]
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty())
            .map(|t| std::str::from_utf8(t).ok()?.parse::<u32>().ok());
        let (Some(Some(first)), Some(Some(count))) = (nums.next(), nums.next()) else {
            return Err(bad("has a bad subsection"));
        };
        let mut eol = line;
        while rest.get(eol).is_some_and(|c| c.is_ascii_whitespace()) && eol < line + 2 {
            eol += 1;
        }
        let entries = at + (skip + eol) as u64;
        let span = 20 * u64::from(count);
        if entries + span > src.len() {
            return Err(bad("lists more entries than the file has bytes"));
        }
        let last = entries + span.saturating_sub(20);
        let standard = count == 0
            || (entry20(&window(src, entries, entries + 20)?).is_some()
                && entry20(&window(src, last, last + 20)?).is_some());
        if standard {
            subsections.push((first, count, entries));
            at = entries + span;
        } else {
            at = read_entries(src, entries, first, count, &mut parsed)?;
        }
    }
    let bytes = window(src, at, at.saturating_add(64 << 10))?;
    let end = memchr::memmem::find(&bytes, b"startxref").unwrap_or(bytes.len());
    let dict = parse_dict(&bytes[..end]).map_err(Fail::Bad)?;
    let section = if parsed.is_empty() {
        Section::Table {
            subsections,
            stream: None,
        }
    } else {
        // Some subsections were read out: read the others too, into one list.
        for (first, count, at) in subsections {
            read_entries(src, at, first, count, &mut parsed)?;
        }
        Section::Parsed(parsed)
    };
    Ok((section, dict))
}

/// Reads out `count` entries from `at`, however they are spaced; returns where they end.
fn read_entries(
    src: &Source,
    at: u64,
    first: u32,
    count: u32,
    into: &mut Parsed,
) -> Result<u64, Fail> {
    let bad = |m: &str| Fail::Bad(format!("its cross-reference table {m}"));
    let bytes = window(src, at, at.saturating_add(21 * u64::from(count) + 64))?;
    let mut pos = 0;
    let mut token = || -> Option<&[u8]> {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let s = pos;
        while pos < bytes.len() && !bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        (pos > s).then(|| &bytes[s..pos])
    };
    let num = |t: &[u8]| std::str::from_utf8(t).ok()?.parse::<u64>().ok();
    for i in 0..count {
        let (Some(off), Some(generation), Some(kind)) = (token(), token(), token()) else {
            return Err(bad("ends early"));
        };
        let entry = match kind.first() {
            Some(b'n') => Entry::Normal {
                offset: num(off).ok_or_else(|| bad("has a bad offset"))?,
                generation: num(generation)
                    .and_then(|g| u16::try_from(g).ok())
                    .unwrap_or(0),
            },
            Some(b'f') => Entry::Free,
            _ => return Err(bad("has a bad entry")),
        };
        into.entry(first.saturating_add(i)).or_insert(entry);
    }
    Ok(at + pos as u64)
}

/// A cross-reference stream (`N G obj << /Type /XRef /W [..] ... >> stream`).
fn stream(
    bytes: &[u8],
    budget: &mut Budget,
    complete: bool,
) -> Result<Option<(Rows, Dictionary)>, Fail> {
    let id = header(bytes)
        .ok_or_else(|| Fail::Bad("startxref does not point at a cross-reference section".into()))?;
    // A window that cuts the stream parses as its dictionary alone, or not at all.
    let s = match parse_object(bytes, id) {
        Ok(Object::Stream(s)) if !s.content.is_empty() || s.start_position.is_none() => s,
        _ if !complete => return Ok(None),
        Ok(_) => {
            return Err(Fail::Bad(
                "its cross-reference stream is not a stream".into(),
            ))
        }
        Err(e) => return Err(Fail::Bad(format!("its cross-reference stream: {e}"))),
    };
    let dict = &s.dict;
    let ints = |k: &[u8]| -> Option<Vec<u64>> {
        dict.get(k)
            .ok()?
            .as_array()
            .ok()?
            .iter()
            .map(|o| o.as_i64().ok().and_then(|v| u64::try_from(v).ok()))
            .collect()
    };
    let bad = |m: &str| Fail::Bad(format!("its cross-reference stream {m}"));
    let w = ints(b"W").filter(|w| w.len() == 3 && w.iter().all(|&x| x <= 8));
    let w = w.ok_or_else(|| bad("has a bad /W"))?;
    let size = dict
        .get(b"Size")
        .and_then(Object::as_i64)
        .map_err(|_| bad("has no /Size"))?;
    let index = ints(b"Index").unwrap_or_else(|| vec![0, size.max(0) as u64]);
    let mut plain = s.clone();
    plain.dict.remove(b"DecodeParms");
    let data = budget.decode(&plain)?;
    let data = unpredict(
        &data,
        s.dict.get(b"DecodeParms").and_then(Object::as_dict).ok(),
    )
    .ok_or_else(|| bad("has a bad predictor"))?;
    let w = [w[0] as usize, w[1] as usize, w[2] as usize];
    let width = w.iter().sum::<usize>();
    if width == 0 {
        return Err(bad("has a zero /W"));
    }
    let rows = data.len() / width;
    let mut subsections = Vec::new();
    let mut row = 0usize;
    for pair in index.chunks_exact(2) {
        let (Ok(first), Ok(count)) = (u32::try_from(pair[0]), u32::try_from(pair[1])) else {
            break;
        };
        let count = count.min(u32::try_from(rows.saturating_sub(row)).unwrap_or(u32::MAX));
        subsections.push((first, count, row));
        row += count as usize;
    }
    let rows = Rows {
        data,
        w,
        index: subsections,
    };
    Ok(Some((rows, s.dict)))
}

/// Undoes a PNG predictor (`/Predictor` 10-15: a filter byte before each row), as
/// cross-reference streams use; other predictors are left as they are.
pub(super) fn unpredict(data: &[u8], parms: Option<&Dictionary>) -> Option<Vec<u8>> {
    let get = |k: &[u8], d: i64| {
        parms
            .and_then(|p| p.get(k).and_then(Object::as_i64).ok())
            .unwrap_or(d)
    };
    if get(b"Predictor", 1) < 10 {
        return Some(data.to_vec());
    }
    let bpp = ((get(b"Colors", 1) * get(b"BitsPerComponent", 8) + 7) / 8).max(1) as usize;
    let columns = usize::try_from(get(b"Columns", 1)).ok()?;
    let row = (columns * bpp).max(1);
    let mut out: Vec<u8> = Vec::with_capacity(data.len());
    let mut prev = vec![0u8; row];
    for chunk in data.chunks(row + 1) {
        let (&kind, raw) = chunk.split_first()?;
        let mut cur = raw.to_vec();
        cur.resize(row, 0);
        for i in 0..row {
            let left = if i >= bpp { cur[i - bpp] } else { 0 };
            let up = prev[i];
            let corner = if i >= bpp { prev[i - bpp] } else { 0 };
            cur[i] = cur[i].wrapping_add(match kind {
                0 => 0,
                1 => left,
                2 => up,
                3 => ((u16::from(left) + u16::from(up)) / 2) as u8,
                4 => paeth(left, up, corner),
                _ => return None,
            });
        }
        out.extend_from_slice(&cur);
        prev = cur;
    }
    Some(out)
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_entries_are_read_from_their_20_bytes() {
        assert!(matches!(
            entry20(b"0000012345 00002 n\r\n"),
            Some(Entry::Normal {
                offset: 12345,
                generation: 2
            })
        ));
        assert!(matches!(
            entry20(b"0000000000 65535 f \n"),
            Some(Entry::Free)
        ));
        // 19-byte entries (a writer's mistake) are not taken for 20-byte ones.
        assert!(entry20(b"000012345 00000 n \n0").is_none());
    }

    #[test]
    fn png_up_rows_decode_as_cross_reference_streams_use_them() {
        // Two rows of 3 columns, each after its filter byte 2 (Up).
        let data = [2, 1, 0, 10, 2, 0, 0, 5];
        let parms: Dictionary = [
            ("Predictor", Object::Integer(12)),
            ("Columns", Object::Integer(3)),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            unpredict(&data, Some(&parms)).unwrap(),
            [1, 0, 10, 1, 0, 15]
        );
        assert_eq!(unpredict(&data, None).unwrap(), data);
    }
}
