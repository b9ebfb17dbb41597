//! The XObjects a page draws, followed as pdf-extract will follow them, before it does.
//!
//! pdf-extract lays out a `Do` by running the XObject's content (any XObject's: a form's,
//! and an image's bytes read as operators) with the XObject's resources, or the caller's
//! when it has none, recursing without a limit. An XObject that draws itself, directly or
//! through others, would recurse until the stack overflows, which no `catch_unwind`
//! survives; a tree of XObjects that draw each other many times would run for ever. So
//! every `Do` is followed here first: a cycle is refused, and so are more than
//! [`MAX_VISITS`] XObjects a page or nesting deeper than [`MAX_DEPTH`]; each visit's
//! decoding is charged to the call's allowance as pdf-extract will decode it again.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

use super::bounds::{Budget, Over};

/// The most XObjects one page may draw, counting repeats.
const MAX_VISITS: u64 = 10_000;

/// The deepest nesting of XObjects drawing XObjects.
const MAX_DEPTH: usize = 32;

struct Walk<'a> {
    doc: &'a Document,
    budget: &'a mut Budget,
    /// Per XObject: the bytes its decoding costs and the names its content draws.
    seen: HashMap<ObjectId, (u64, Vec<Vec<u8>>)>,
    visits: u64,
    path: Vec<ObjectId>,
}

/// Follows every `Do` of a page's `content` under its `resources`.
pub(super) fn walk(
    doc: &Document,
    content: &[u8],
    resources: Option<&Dictionary>,
    budget: &mut Budget,
) -> Result<(), Over> {
    let mut w = Walk {
        doc,
        budget,
        seen: HashMap::new(),
        visits: 0,
        path: Vec::new(),
    };
    let names = drawn(content);
    w.follow(&names, resources)
}

/// The names a content stream draws with `Do` (none when it does not parse: pdf-extract
/// then fails on it, and that failure is caught).
fn drawn(content: &[u8]) -> Vec<Vec<u8>> {
    if memchr::memmem::find(content, b"Do").is_none() {
        return Vec::new();
    }
    let parsed = catch_unwind(AssertUnwindSafe(|| Content::decode(content)));
    let Ok(Ok(c)) = parsed else {
        return Vec::new();
    };
    c.operations
        .iter()
        .filter(|op| op.operator == "Do")
        .filter_map(|op| op.operands.first()?.as_name().ok().map(<[u8]>::to_vec))
        .collect()
}

impl Walk<'_> {
    fn follow(&mut self, names: &[Vec<u8>], resources: Option<&Dictionary>) -> Result<(), Over> {
        let Some(resources) = resources else {
            return Ok(());
        };
        let doc = self.doc;
        let Ok(xobjects) = resources
            .get(b"XObject")
            .and_then(|o| doc.dereference(o))
            .and_then(|(_, o)| o.as_dict())
        else {
            return Ok(());
        };
        for name in names {
            let Ok(id) = xobjects.get(name).and_then(Object::as_reference) else {
                continue;
            };
            let Ok(Object::Stream(stream)) = doc.get_object(id) else {
                continue;
            };
            self.visits += 1;
            if self.visits > MAX_VISITS {
                return Err(Over::Drawing(format!(
                    "draws more than {MAX_VISITS} XObjects"
                )));
            }
            if self.path.contains(&id) {
                return Err(Over::Cycle(id));
            }
            if self.path.len() >= MAX_DEPTH {
                return Err(Over::Drawing(format!(
                    "nests XObjects more than {MAX_DEPTH} deep"
                )));
            }
            self.budget.check_time()?;
            let inner = match self.seen.get(&id) {
                Some((cost, names)) => {
                    let (cost, names) = (*cost, names.clone());
                    self.budget.charge_again(cost)?;
                    names
                }
                None => {
                    let before = self.budget.left;
                    let data = self.budget.decode(stream)?;
                    let names = drawn(&data);
                    self.seen
                        .insert(id, (before - self.budget.left, names.clone()));
                    names
                }
            };
            let own = stream
                .dict
                .get(b"Resources")
                .and_then(|o| doc.dereference(o))
                .and_then(|(_, o)| o.as_dict())
                .ok();
            self.path.push(id);
            self.follow(&inner, own.or(Some(resources)))?;
            self.path.pop();
        }
        Ok(())
    }
}
