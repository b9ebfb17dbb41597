//! A PDF's objects loaded on demand: what a read reaches, nothing else.
//!
//! [`Store`] keeps the cross-reference data ([`super::xref`]) and a lopdf [`Document`]
//! that holds only the objects loaded so far: the page tree path to a page (a node's
//! kids are looked at, their subtrees skipped by `/Count`), then the page's own objects
//! (content streams, resources, fonts and their character maps, XObjects) and the
//! inherited attributes of its ancestors. An object in an object stream costs the
//! stream's decompression once a call (charged to the call's allowance, the decoded
//! objects kept until the call ends). pdf-extract then lays out the page from that
//! document as it would from a whole one: [`Store::show`] gives it a catalog whose page
//! tree holds the one page. An object whose entry is wrong is found by a scan of the
//! file (once a call), as poppler reconstructs a broken table.

use std::collections::{BTreeMap, HashMap, HashSet};

use lopdf::encryption::{decrypt_object, EncryptionState};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::bounds::Budget;
use super::scan;
use super::xref::{self, parse_direct, parse_object, window, Entry, Fail, Table};
use crate::source::Source;

/// The most objects one fetch goes through (an object in an object stream whose
/// /Length is a reference, ...).
const MAX_FETCH_DEPTH: usize = 8;

/// The deepest page tree followed (lopdf's limit).
const MAX_TREE_DEPTH: usize = 256;

/// The catalog and the page tree root [`Store::show`] puts before pdf-extract: ids no
/// file uses (object numbers are below 2^23 in practice, and lopdf's own tables are u32).
const SHOWN_CATALOG: ObjectId = (u32::MAX - 1, 0);
const SHOWN_PAGES: ObjectId = (u32::MAX - 2, 0);

/// The keys not followed when loading what a page needs: they lead to other pages
/// (`Parent`, an annotation's `P`, links' destinations) or to nothing the text needs.
const NOT_FOLLOWED: [&[u8]; 6] = [b"Parent", b"P", b"Annots", b"B", b"Thumb", b"Dest"];

pub(super) struct Store<'s> {
    src: &'s Source,
    table: Table,
    /// The decryption state and the Encrypt dictionary's id (not decrypted itself).
    crypt: Option<(EncryptionState, Option<ObjectId>)>,
    /// Object streams decoded this call, by container number: an object in one is
    /// parsed when it is asked for, not its neighbours.
    streams: HashMap<u32, Packed>,
    /// The objects loaded so far (and, after [`Store::show`], the shown catalog).
    pub doc: Document,
    /// The real trailer (without `Encrypt`).
    trailer: Dictionary,
    /// Objects looked for and not found (or not parsed).
    missing: HashSet<ObjectId>,
    /// Objects whose closure [`Store::load_page`] has loaded (for a page read after
    /// another: shared fonts are followed once).
    followed: HashSet<ObjectId>,
    /// The objects being fetched, innermost last (a fetch may need others: a stream's
    /// /Length, an object stream).
    fetching: Vec<ObjectId>,
    /// Objects loaded: bounded by `max_objects`.
    loaded: u64,
    max_objects: u64,
    /// The object of each page found so far (by this call, or by an earlier read that
    /// left what it learned, see [`super::learned`]).
    pub pages: BTreeMap<u64, ObjectId>,
    /// Whether this call learned something an earlier read did not leave: the
    /// cross-reference data read from the file, or a page found.
    pub learned: bool,
}

impl<'s> Store<'s> {
    /// Reads the cross-reference data (or takes `known`, what an earlier read of the
    /// same file found) and, for an encrypted file, opens it with the empty password or
    /// `password`.
    pub fn open(
        src: &'s Source,
        password: &str,
        max_objects: u64,
        budget: &mut Budget,
        known: Option<(Table, BTreeMap<u64, ObjectId>)>,
    ) -> Result<Store<'s>, Fail> {
        let learned = known.is_none();
        let (table, pages) = match known {
            Some(k) => k,
            None => {
                // The cross-reference data, or a scan of the file when it is missing or
                // broken.
                let base = xref::base(src)?;
                let table = match xref::sections(src, base, budget) {
                    Err(Fail::Bad(_)) => scan::scan(src, base, budget)?,
                    other => other?,
                };
                (table, BTreeMap::new())
            }
        };
        if table.entries > max_objects {
            return Err(Fail::Objects(table.entries));
        }
        let mut trailer = table.trailer.clone();
        let encrypt = trailer.remove(b"Encrypt");
        let mut store = Store {
            src,
            table,
            crypt: None,
            streams: HashMap::new(),
            doc: Document::new(),
            trailer: trailer.clone(),
            missing: HashSet::new(),
            followed: HashSet::new(),
            fetching: Vec::new(),
            loaded: 0,
            max_objects,
            pages,
            learned,
        };
        if let Some(e) = encrypt {
            store.unlock(e, password, budget)?;
        }
        store.doc.trailer = trailer;
        // A table whose catalog does not load is broken: scan the file instead.
        if !store.table.scanned && store.root_dict(budget)?.is_none() {
            store.learned = true;
            store.rescan(budget)?;
        }
        if store.root_dict(budget)?.is_none() {
            return Err(Fail::Bad("its catalog (Root) cannot be read".into()));
        }
        Ok(store)
    }

    /// What this store knows for the next read of the file (see [`super::learned`]).
    pub fn learned_bytes(&self, facts: &super::learned::Facts) -> Vec<u8> {
        super::learned::encode(&self.table, &self.pages, facts)
    }

    /// Whether the file is encrypted.
    pub fn encrypted(&self) -> bool {
        self.crypt.is_some()
    }

    fn unlock(&mut self, encrypt: Object, password: &str, budget: &mut Budget) -> Result<(), Fail> {
        let id = encrypt.as_reference().ok();
        let dict = match id {
            Some(id) => self.fetch(id, budget)?,
            None => Some(encrypt.clone()),
        };
        let mut probe = Document::new();
        probe.trailer = self.table.trailer.clone();
        if let (Some(id), Some(dict)) = (id, dict) {
            probe.objects.insert(id, dict);
        }
        let opened = ["", password].into_iter().find_map(|p| {
            probe.authenticate_password(p).ok()?;
            EncryptionState::decode(&probe, p).ok()
        });
        match opened {
            Some(state) => {
                self.crypt = Some((state, id));
                Ok(())
            }
            None => Err(Fail::Bad(
                "it is encrypted and needs a password (the password given does not open it); \
                 ask for the password and give it as PdfOptions::password"
                    .into(),
            )),
        }
    }

    /// The catalog (the trailer's `Root`).
    pub fn root_dict(&mut self, budget: &mut Budget) -> Result<Option<Dictionary>, Fail> {
        let Ok(root) = self.trailer.get(b"Root").and_then(Object::as_reference) else {
            return Ok(None);
        };
        self.dict(root, budget)
    }

    fn rescan(&mut self, budget: &mut Budget) -> Result<(), Fail> {
        let scanned = super::scan::scan(self.src, self.table.base, budget)?;
        let old = std::mem::replace(&mut self.table, scanned);
        // Objects in object streams are not seen by a scan: the old sections keep
        // telling where they are.
        self.table.sections.extend(old.sections);
        if self.trailer.get(b"Root").is_err() || self.root_dict(budget)?.is_none() {
            let mut t = self.table.trailer.clone();
            t.remove(b"Encrypt");
            self.trailer = t.clone();
            self.doc.trailer = t;
        }
        self.missing.clear();
        Ok(())
    }

    /// The object `id`, loaded into the document (once).
    pub fn get(&mut self, id: ObjectId, budget: &mut Budget) -> Result<Option<&Object>, Fail> {
        if !self.doc.objects.contains_key(&id) {
            if self.missing.contains(&id) {
                return Ok(None);
            }
            let Some(obj) = self.fetch(id, budget)? else {
                self.missing.insert(id);
                return Ok(None);
            };
            self.loaded += 1;
            if self.loaded > self.max_objects {
                return Err(Fail::Objects(self.loaded));
            }
            self.doc.objects.insert(id, obj);
        }
        Ok(self.doc.objects.get(&id))
    }

    /// The dictionary `id` (a stream's dictionary for a stream), cloned.
    pub fn dict(&mut self, id: ObjectId, budget: &mut Budget) -> Result<Option<Dictionary>, Fail> {
        Ok(match self.get(id, budget)? {
            Some(Object::Dictionary(d)) => Some(d.clone()),
            Some(Object::Stream(s)) => Some(s.dict.clone()),
            _ => None,
        })
    }

    /// `o`, or the object it refers to (loaded), cloned.
    pub fn resolve(&mut self, o: &Object, budget: &mut Budget) -> Result<Option<Object>, Fail> {
        match o {
            Object::Reference(id) => Ok(self.get(*id, budget)?.cloned()),
            other => Ok(Some(other.clone())),
        }
    }

    /// The object `id` from the file, not kept.
    fn fetch(&mut self, id: ObjectId, budget: &mut Budget) -> Result<Option<Object>, Fail> {
        budget.check_time()?;
        // An object that needs itself to be found (an object stream listed inside itself,
        // a stream whose /Length is in that stream) is not there; nor is one found
        // through more than MAX_FETCH_DEPTH others.
        if self.fetching.contains(&id) || self.fetching.len() >= MAX_FETCH_DEPTH {
            return Ok(None);
        }
        self.fetching.push(id);
        let found = self.fetch_entry(id, budget);
        self.fetching.pop();
        found
    }

    fn fetch_entry(&mut self, id: ObjectId, budget: &mut Budget) -> Result<Option<Object>, Fail> {
        match self.table.entry(self.src, id.0)? {
            Some(Entry::Normal { offset, generation }) if generation == id.1 => {
                self.normal(id, offset, budget)
            }
            Some(Entry::Compressed { container, .. }) if id.1 == 0 => {
                self.compressed(id, container, budget)
            }
            None if id.1 == 0 => self.search_streams(id, budget),
            _ => Ok(None),
        }
    }

    /// An object a scanned table does not list: in the object streams the scan found,
    /// decoded one after another until it turns up (each one's objects then listed).
    fn search_streams(
        &mut self,
        id: ObjectId,
        budget: &mut Budget,
    ) -> Result<Option<Object>, Fail> {
        while let Some(container) = self.table.object_streams.pop() {
            self.compressed((0, u16::MAX), container, budget)?;
            let found: Vec<u32> = self.streams[&container].at.keys().copied().collect();
            for n in found {
                let e = Entry::Compressed {
                    container,
                    index: 0,
                };
                self.table.insert(n, e);
            }
            self.learned = true;
            if id.1 == 0 && self.streams[&container].at.contains_key(&id.0) {
                return self.compressed(id, container, budget);
            }
        }
        Ok(None)
    }

    /// The object at `offset`: a window of the file from there, parsed, and parsed
    /// again from a larger window while it cuts the object short (a stream's `/Length`
    /// says how large).
    fn normal(
        &mut self,
        id: ObjectId,
        offset: u64,
        budget: &mut Budget,
    ) -> Result<Option<Object>, Fail> {
        let at = self.table.base + offset;
        let len = self.src.len();
        let mut size: u64 = 16 << 10;
        let mut obj = loop {
            let bytes = window(self.src, at, at.saturating_add(size))?;
            let complete = at.saturating_add(size) >= len;
            let parsed = match xref::header(&bytes) {
                Some(h) if h == id => parse_object(&bytes, id).ok(),
                _ => None,
            };
            let Some(mut obj) = parsed else {
                if !complete && xref::header(&bytes) == Some(id) {
                    size = size.saturating_mul(8);
                    continue;
                }
                // The table points at something else: it is broken (an object the
                // table does not list is null, as poppler has it, and costs no scan).
                if self.table.scanned {
                    return Ok(None);
                }
                self.rescan(budget)?;
                return self.fetch(id, budget);
            };
            if let Object::Stream(s) = &mut obj {
                if s.content.is_empty() {
                    if let Some(start) = s.start_position {
                        // An indirect /Length: the data is there when the window holds
                        // its end, or up to `endstream` when the length is unknown.
                        let length = match s.dict.get(b"Length") {
                            Ok(Object::Reference(r)) => match self.fetch(*r, budget)? {
                                Some(Object::Integer(n)) => u64::try_from(n).ok(),
                                _ => None,
                            },
                            _ => None,
                        };
                        let need = length.map(|n| start as u64 + n + 32);
                        let found = need.map_or_else(
                            || memchr::memmem::find(&bytes[start..], b"endstream").is_some(),
                            |need| need <= bytes.len() as u64,
                        );
                        if !complete && !found {
                            size = need.unwrap_or(size.saturating_mul(8)).max(size * 2);
                            continue;
                        }
                        s.set_content(stream_data(&bytes, start, length.map(|n| n as usize)));
                    }
                }
            } else if !complete && cut_short(&bytes) {
                let length = obj
                    .as_dict()
                    .ok()
                    .and_then(|d| d.get(b"Length").and_then(Object::as_i64).ok())
                    .and_then(|n| u64::try_from(n).ok())
                    .unwrap_or(0);
                size = size.saturating_mul(8).max(size + length + 4096);
                continue;
            }
            break obj;
        };
        if let Some((state, encrypt)) = &self.crypt {
            if Some(id) != *encrypt {
                // As lopdf's own load: an object that does not decrypt stays as it is.
                let _ = decrypt_object(state, id, &mut obj);
            }
        }
        Ok(Some(obj))
    }

    fn compressed(
        &mut self,
        id: ObjectId,
        container: u32,
        budget: &mut Budget,
    ) -> Result<Option<Object>, Fail> {
        if !self.streams.contains_key(&container) {
            let packed = match self.fetch((container, 0), budget)? {
                Some(Object::Stream(s)) => {
                    let data = budget.decode(&s)?;
                    Packed::new(&s.dict, data)
                }
                _ => Packed::default(),
            };
            self.streams.insert(container, packed);
        }
        Ok(self.streams[&container].object(id))
    }

    /// The number of pages: the page tree root's `/Count`, or its leaves counted when
    /// that is missing.
    pub fn page_count(&mut self, budget: &mut Budget) -> Result<u64, Fail> {
        let Some(root) = self.pages_root(budget)? else {
            return Ok(0);
        };
        let d = self.dict(root, budget)?.unwrap_or_default();
        match d.get(b"Count").and_then(Object::as_i64) {
            Ok(n) if n >= 0 => Ok(n as u64),
            _ => Ok(self.all_pages(budget)?.len() as u64),
        }
    }

    fn pages_root(&mut self, budget: &mut Budget) -> Result<Option<ObjectId>, Fail> {
        let Some(root) = self.root_dict(budget)? else {
            return Ok(None);
        };
        Ok(root.get(b"Pages").and_then(Object::as_reference).ok())
    }

    /// The kids of a page tree node (its `Kids`, resolved).
    fn kids(&mut self, node: &Dictionary, budget: &mut Budget) -> Result<Vec<ObjectId>, Fail> {
        let Ok(kids) = node.get(b"Kids") else {
            return Ok(Vec::new());
        };
        Ok(match self.resolve(kids, budget)? {
            Some(Object::Array(a)) => a.iter().filter_map(|k| k.as_reference().ok()).collect(),
            _ => Vec::new(),
        })
    }

    /// Page `n` (from 1): down the page tree, each node's kids looked at and the
    /// subtrees before the page skipped by their `/Count`. A tree whose counts do not
    /// add up is walked whole instead (as lopdf numbers pages).
    pub fn page(&mut self, n: u64, budget: &mut Budget) -> Result<Option<ObjectId>, Fail> {
        if let Some(&id) = self.pages.get(&n) {
            return Ok(Some(id));
        }
        let found = self.find_page(n, budget)?;
        if let Some(id) = found {
            self.pages.insert(n, id);
            self.learned = true;
        }
        Ok(found)
    }

    fn find_page(&mut self, n: u64, budget: &mut Budget) -> Result<Option<ObjectId>, Fail> {
        let Some(mut node) = self.pages_root(budget)? else {
            return Ok(None);
        };
        let mut left = n;
        'down: for _ in 0..MAX_TREE_DEPTH {
            let d = self.dict(node, budget)?.unwrap_or_default();
            for kid in self.kids(&d, budget)? {
                let kd = self.dict(kid, budget)?.unwrap_or_default();
                let count = match kd.get_type() {
                    Ok(b"Page") => 1,
                    Ok(b"Pages") => match kd.get(b"Count").and_then(Object::as_i64) {
                        Ok(c) if c >= 0 => c as u64,
                        _ => break 'down,
                    },
                    _ => 0,
                };
                if left > count {
                    left -= count;
                    continue;
                }
                if kd.has_type(b"Page") {
                    return Ok(Some(kid));
                }
                node = kid;
                continue 'down;
            }
            break;
        }
        let all = self.all_pages(budget)?;
        Ok(usize::try_from(n - 1)
            .ok()
            .and_then(|i| all.get(i))
            .copied())
    }

    /// Every page, in order, as lopdf's page tree iterator finds them.
    pub fn all_pages(&mut self, budget: &mut Budget) -> Result<Vec<ObjectId>, Fail> {
        let mut out = Vec::new();
        let Some(root) = self.pages_root(budget)? else {
            return Ok(out);
        };
        let mut seen = HashSet::new();
        self.walk(root, 0, &mut seen, &mut out, budget)?;
        Ok(out)
    }

    fn walk(
        &mut self,
        node: ObjectId,
        depth: usize,
        seen: &mut HashSet<ObjectId>,
        out: &mut Vec<ObjectId>,
        budget: &mut Budget,
    ) -> Result<(), Fail> {
        let d = self.dict(node, budget)?.unwrap_or_default();
        for kid in self.kids(&d, budget)? {
            if !seen.insert(kid) {
                continue;
            }
            let kd = self.dict(kid, budget)?.unwrap_or_default();
            match kd.get_type() {
                Ok(b"Page") => out.push(kid),
                Ok(b"Pages") if depth + 1 < MAX_TREE_DEPTH => {
                    self.walk(kid, depth + 1, seen, out, budget)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Loads what the text of `page` needs: its content, resources and boxes and those
    /// it inherits, with everything they refer to, other pages excepted.
    pub fn load_page(&mut self, page: ObjectId, budget: &mut Budget) -> Result<(), Fail> {
        let mut todo: Vec<Object> = Vec::new();
        let mut node = Some(page);
        for level in 0..MAX_TREE_DEPTH {
            let Some(id) = node else { break };
            let Some(d) = self.dict(id, budget)? else {
                break;
            };
            let keys: &[&[u8]] = if level == 0 {
                &[
                    b"Contents",
                    b"Resources",
                    b"MediaBox",
                    b"CropBox",
                    b"ArtBox",
                    b"Rotate",
                ]
            } else {
                &[b"Resources", b"MediaBox", b"CropBox", b"Rotate"]
            };
            todo.extend(keys.iter().filter_map(|k| d.get(k).ok().cloned()));
            node = d.get(b"Parent").and_then(Object::as_reference).ok();
        }
        self.follow(todo, budget)
    }

    /// Loads the content streams of `page` (what its size and its operators are read
    /// from), nothing else it refers to.
    pub fn load_contents(&mut self, page: ObjectId, budget: &mut Budget) -> Result<(), Fail> {
        let Some(d) = self.dict(page, budget)? else {
            return Ok(());
        };
        let Ok(contents) = d.get(b"Contents") else {
            return Ok(());
        };
        let mut seen = HashSet::new();
        self.closure(vec![contents.clone()], &mut seen, &NOT_FOLLOWED, budget)
    }

    /// Loads what `todo` reaches (other pages excepted), each object once a call.
    fn follow(&mut self, todo: Vec<Object>, budget: &mut Budget) -> Result<(), Fail> {
        let mut seen = std::mem::take(&mut self.followed);
        let done = self.closure(todo, &mut seen, &NOT_FOLLOWED, budget);
        self.followed = seen;
        done
    }

    /// Loads every object `todo` refers to, and what those refer to, through the keys
    /// not in `skip`; page tree nodes are loaded but not followed when `skip` is not
    /// empty.
    fn closure(
        &mut self,
        mut todo: Vec<Object>,
        seen: &mut HashSet<ObjectId>,
        skip: &[&[u8]],
        budget: &mut Budget,
    ) -> Result<(), Fail> {
        while let Some(o) = todo.pop() {
            match o {
                Object::Reference(id) => {
                    if !seen.insert(id) {
                        continue;
                    }
                    let Some(obj) = self.get(id, budget)? else {
                        continue;
                    };
                    match obj {
                        Object::Array(a) => todo.extend(a.iter().cloned()),
                        Object::Dictionary(d) | Object::Stream(Stream { dict: d, .. }) => {
                            let node = d.has_type(b"Page") || d.has_type(b"Pages");
                            if skip.is_empty() || !node {
                                push_values(d, skip, &mut todo);
                            }
                        }
                        _ => {}
                    }
                }
                Object::Array(a) => todo.extend(a),
                Object::Dictionary(d) => push_values(&d, skip, &mut todo),
                _ => {}
            }
        }
        Ok(())
    }

    /// Puts `page` before pdf-extract as page 1 of the document: a catalog whose page
    /// tree holds only it (the page keeps its real parent, for what it inherits).
    pub fn show(&mut self, page: ObjectId) {
        let pages: Dictionary = [
            ("Type", Object::Name(b"Pages".to_vec())),
            ("Kids", Object::Array(vec![Object::Reference(page)])),
            ("Count", Object::Integer(1)),
        ]
        .into_iter()
        .collect();
        let catalog: Dictionary = [
            ("Type", Object::Name(b"Catalog".to_vec())),
            ("Pages", Object::Reference(SHOWN_PAGES)),
        ]
        .into_iter()
        .collect();
        self.doc
            .objects
            .insert(SHOWN_PAGES, Object::Dictionary(pages));
        self.doc
            .objects
            .insert(SHOWN_CATALOG, Object::Dictionary(catalog));
        self.doc
            .trailer
            .set("Root", Object::Reference(SHOWN_CATALOG));
    }

    /// The document's title from the trailer's Info dictionary.
    pub fn info(&mut self, budget: &mut Budget) -> Result<Option<Object>, Fail> {
        let Ok(info) = self.trailer.get(b"Info").cloned() else {
            return Ok(None);
        };
        let Some(Object::Dictionary(d)) = self.resolve(&info, budget)? else {
            return Ok(None);
        };
        let Ok(t) = d.get(b"Title") else {
            return Ok(None);
        };
        self.resolve(&t.clone(), budget)
    }
}

/// A decoded object stream: its objects' places, each parsed when asked for (what
/// lopdf's `ObjectStream` reads, without parsing every object of the stream first).
#[derive(Debug, Default)]
struct Packed {
    data: Vec<u8>,
    /// Where each object starts in `data` (a number listed twice: the later place, as
    /// lopdf reads it).
    at: BTreeMap<u32, usize>,
    /// Every start, sorted: an object ends where the next one starts.
    starts: Vec<usize>,
}

impl Packed {
    fn new(dict: &Dictionary, data: Vec<u8>) -> Packed {
        let first = dict
            .get(b"First")
            .and_then(Object::as_i64)
            .ok()
            .and_then(|f| usize::try_from(f).ok());
        let header = first
            .and_then(|f| data.get(..f))
            .and_then(|h| std::str::from_utf8(h).ok());
        let (Some(first), Some(header)) = (first, header) else {
            return Packed::default();
        };
        let numbers: Vec<Option<usize>> =
            header.split_whitespace().map(|n| n.parse().ok()).collect();
        let mut at = BTreeMap::new();
        for pair in numbers.chunks_exact(2) {
            let (Some(n), Some(off)) = (pair[0], pair[1]) else {
                continue;
            };
            let (Ok(n), Some(start)) = (u32::try_from(n), first.checked_add(off)) else {
                continue;
            };
            if start < data.len() {
                at.insert(n, start);
            }
        }
        let mut starts: Vec<usize> = at.values().copied().collect();
        starts.sort_unstable();
        Packed { data, at, starts }
    }

    /// Object `id` (generation 0: objects in streams have no other), parsed.
    fn object(&self, id: ObjectId) -> Option<Object> {
        if id.1 != 0 {
            return None;
        }
        let &start = self.at.get(&id.0)?;
        let end = match self.starts.binary_search(&start) {
            Ok(i) => self.starts.get(i + 1).copied().unwrap_or(self.data.len()),
            Err(_) => self.data.len(),
        };
        parse_direct(&self.data[start..end], id).ok()
    }
}

fn push_values(d: &Dictionary, skip: &[&[u8]], todo: &mut Vec<Object>) {
    for (k, v) in d.iter() {
        if !skip.contains(&k.as_slice()) {
            todo.push(v.clone());
        }
    }
}

/// Whether an object that parsed as a plain object from `bytes` may be more: no
/// `endobj` in the window, or a `stream` keyword before it (a stream whose data the
/// window cuts parses as its dictionary).
fn cut_short(bytes: &[u8]) -> bool {
    match memchr::memmem::find(bytes, b"endobj") {
        None => true,
        Some(end) => memchr::memmem::find(&bytes[..end], b"stream").is_some(),
    }
}

/// A stream's data at `at` in `bytes`: `length` bytes when given and in bounds, else up
/// to the `endstream` keyword (its end-of-line dropped).
fn stream_data(bytes: &[u8], at: usize, length: Option<usize>) -> Vec<u8> {
    let rest = bytes.get(at..).unwrap_or_default();
    if let Some(n) = length.filter(|&n| n <= rest.len()) {
        return rest[..n].to_vec();
    }
    let end = memchr::memmem::find(rest, b"endstream").unwrap_or(rest.len());
    let mut data = &rest[..end];
    if let Some(d) = data
        .strip_suffix(b"\r\n")
        .or_else(|| data.strip_suffix(b"\n"))
    {
        data = d;
    }
    data.to_vec()
}
