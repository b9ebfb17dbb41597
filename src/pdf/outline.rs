//! A document's outline (its bookmarks) and the page each one points to.
//!
//! The tree is walked from the catalog's `/Outlines` (first child, then next sibling),
//! and each bookmark's destination is resolved where it is: an explicit destination names
//! its page; a named one is looked up in the catalog's `/Dests` dictionary or down the
//! `/Dests` name tree by its `/Limits`, so a manual with tens of thousands of link
//! targets costs the few nodes on the way to each bookmark's, not the whole tree. Objects
//! come through [`Objects`]: from the on-demand [`Store`] or a document parsed whole.
//! Every walk is bounded (bookmarks, depth, name tree nodes) and loops are cut.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::bounds::Budget;
use super::store::Store;
use super::xref::Fail;
use super::OutlineItem;

/// The most bookmarks read.
const MAX_ITEMS: usize = 100_000;

/// The deepest bookmark nesting followed.
const MAX_LEVEL: u32 = 64;

/// The most name tree nodes looked at for one name, and the deepest path followed.
const MAX_TREE_NODES: usize = 4096;
const MAX_TREE_DEPTH: usize = 32;

/// The most indirections followed from a bookmark to its page (a destination dictionary
/// whose `/D` names another, ...).
const MAX_HOPS: usize = 8;

/// Where objects come from.
pub(super) trait Objects {
    /// `o`, or the object it refers to (`None` when there is none).
    fn resolve(&mut self, o: &Object, budget: &mut Budget) -> Result<Option<Object>, Fail>;
}

impl Objects for Store<'_> {
    fn resolve(&mut self, o: &Object, budget: &mut Budget) -> Result<Option<Object>, Fail> {
        Store::resolve(self, o, budget)
    }
}

impl Objects for &Document {
    fn resolve(&mut self, o: &Object, _: &mut Budget) -> Result<Option<Object>, Fail> {
        Ok(match o {
            Object::Reference(id) => self.get_object(*id).ok().cloned(),
            other => Some(other.clone()),
        })
    }
}

/// The bookmarks under `catalog`, in order, with their depth (from 1) and page; those
/// whose page is not one of `pages` (another document's, a broken link) are left out.
pub(super) fn read(
    objects: &mut impl Objects,
    catalog: &Dictionary,
    pages: &HashMap<ObjectId, u64>,
    budget: &mut Budget,
) -> Result<Vec<OutlineItem>, Fail> {
    let mut out = Vec::new();
    let Some(root) = dict(objects, catalog.get(b"Outlines").ok(), budget)? else {
        return Ok(out);
    };
    let dests = dict(objects, catalog.get(b"Dests").ok(), budget)?;
    let names = match dict(objects, catalog.get(b"Names").ok(), budget)? {
        Some(n) => dict(objects, n.get(b"Dests").ok(), budget)?,
        None => None,
    };
    let named = Named { dests, names };
    let mut seen = HashSet::new();
    let mut visited = 0usize;
    // Depth first, in order: an item, its children, then its next sibling.
    let mut todo = vec![(root.get(b"First").ok().cloned(), 1u32)];
    while let Some((item, level)) = todo.pop() {
        let Some(item) = item else { continue };
        if let Object::Reference(id) = item {
            if !seen.insert(id) {
                continue;
            }
        }
        visited += 1;
        if visited > MAX_ITEMS {
            break;
        }
        budget.check_time()?;
        let Some(Object::Dictionary(d)) = objects.resolve(&item, budget)? else {
            continue;
        };
        todo.push((d.get(b"Next").ok().cloned(), level));
        if level < MAX_LEVEL {
            todo.push((d.get(b"First").ok().cloned(), level + 1));
        }
        let target = match d.get(b"Dest") {
            Ok(dest) => Some(dest.clone()),
            Err(_) => match dict(objects, d.get(b"A").ok(), budget)? {
                Some(a) if a.get(b"S").and_then(Object::as_name).ok() == Some(b"GoTo") => {
                    a.get(b"D").ok().cloned()
                }
                _ => None,
            },
        };
        let Some(target) = target else { continue };
        let Some(page) = page_of(objects, target, &named, pages, budget)? else {
            continue;
        };
        let title = match d.get(b"Title") {
            Ok(t) => objects
                .resolve(t, budget)?
                .and_then(|t| lopdf::decode_text_string(&t).ok())
                .unwrap_or_default(),
            Err(_) => String::new(),
        };
        out.push(OutlineItem {
            level,
            title: title.trim().to_string(),
            page,
        });
    }
    Ok(out)
}

/// Where named destinations are.
struct Named {
    /// The catalog's `/Dests` (names as keys, PDF 1.1).
    dests: Option<Dictionary>,
    /// The root of the `/Dests` name tree of the catalog's `/Names`.
    names: Option<Dictionary>,
}

fn dict(
    objects: &mut impl Objects,
    o: Option<&Object>,
    budget: &mut Budget,
) -> Result<Option<Dictionary>, Fail> {
    let Some(o) = o else { return Ok(None) };
    Ok(match objects.resolve(o, budget)? {
        Some(Object::Dictionary(d)) => Some(d),
        _ => None,
    })
}

/// The page a destination points to.
fn page_of(
    objects: &mut impl Objects,
    mut dest: Object,
    named: &Named,
    pages: &HashMap<ObjectId, u64>,
    budget: &mut Budget,
) -> Result<Option<u64>, Fail> {
    for _ in 0..MAX_HOPS {
        let Some(d) = objects.resolve(&dest, budget)? else {
            return Ok(None);
        };
        dest = match d {
            Object::Array(a) => {
                return Ok(a
                    .first()
                    .and_then(|p| p.as_reference().ok())
                    .and_then(|id| pages.get(&id).copied()));
            }
            Object::Dictionary(d) => match d.get(b"D") {
                Ok(inner) => inner.clone(),
                Err(_) => return Ok(None),
            },
            Object::Name(name) | Object::String(name, _) => {
                let direct = named
                    .dests
                    .as_ref()
                    .and_then(|t| t.get(&name).ok().cloned());
                match direct {
                    Some(found) => found,
                    None => match &named.names {
                        Some(root) => match lookup(objects, root, &name, budget)? {
                            Some(found) => found,
                            None => return Ok(None),
                        },
                        None => return Ok(None),
                    },
                }
            }
            _ => return Ok(None),
        };
    }
    Ok(None)
}

/// The value of `key` in the name tree under `root`: down the kids whose `/Limits` hold
/// it (all kids, when a node has none).
fn lookup(
    objects: &mut impl Objects,
    root: &Dictionary,
    key: &[u8],
    budget: &mut Budget,
) -> Result<Option<Object>, Fail> {
    let mut todo = vec![(root.clone(), 0usize)];
    let mut seen = HashSet::new();
    let mut nodes = 0usize;
    while let Some((d, depth)) = todo.pop() {
        nodes += 1;
        if nodes > MAX_TREE_NODES || depth > MAX_TREE_DEPTH {
            break;
        }
        if let Some(Object::Array(names)) = d
            .get(b"Names")
            .ok()
            .map(|n| objects.resolve(n, budget))
            .transpose()?
            .flatten()
        {
            for pair in names.chunks_exact(2) {
                if string(&pair[0]) == Some(key) {
                    return Ok(Some(pair[1].clone()));
                }
            }
        }
        let kids = match d.get(b"Kids") {
            Ok(k) => match objects.resolve(k, budget)? {
                Some(Object::Array(a)) => a,
                _ => continue,
            },
            Err(_) => continue,
        };
        // In reverse, so that the first kid that may hold the key is looked at first.
        for kid in kids.into_iter().rev() {
            if let Object::Reference(id) = kid {
                if !seen.insert(id) {
                    continue;
                }
            }
            let Some(k) = dict(objects, Some(&kid), budget)? else {
                continue;
            };
            let holds = match k.get(b"Limits").and_then(Object::as_array) {
                Ok(l) if l.len() == 2 => match (string(&l[0]), string(&l[1])) {
                    (Some(lo), Some(hi)) => lo <= key && key <= hi,
                    _ => true,
                },
                _ => true,
            };
            if holds {
                todo.push((k, depth + 1));
            }
        }
    }
    Ok(None)
}

fn string(o: &Object) -> Option<&[u8]> {
    match o {
        Object::String(s, _) => Some(s),
        Object::Name(n) => Some(n),
        _ => None,
    }
}
