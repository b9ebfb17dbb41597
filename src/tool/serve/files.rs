//! Rules on the file itself ([`FileRules`]): extensions whose files are binary or answer a
//! text over a size, and the answer a binary file gets. They are checked before the read
//! (how much invalid UTF-8 makes a file binary is the reader's rule,
//! [`crate::Reader::invalid_utf8_binary`]), and cost nothing for a dialect without them.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, FileRules};
use crate::tool::serve::ctx::Ctx;
use crate::workspace::Workspace;

/// What the rules answer before any line is read: a text that replaces the content,
/// a refusal (`Err`), or nothing (`None`: read the file).
pub(crate) fn before(ctx: &Ctx) -> Result<Option<String>> {
    let (d, ws, path) = (ctx.dialect, ctx.workspace, ctx.path);
    let f = &d.files;
    if f.large.is_empty() && f.binary_extensions.is_empty() {
        return Ok(None);
    }
    let (size, resolved) = ctx.stat()?;
    let ext = resolved
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let has = |list: &[String]| {
        ext.as_deref()
            .is_some_and(|e| list.iter().any(|x| x.eq_ignore_ascii_case(e)))
    };
    let shown = shown(ws, &resolved, path);
    if let Some(l) = f
        .large
        .iter()
        .find(|l| size > l.bytes && has(&l.extensions))
    {
        return Ok(Some(fill(&l.answer, &[("path", &shown)])));
    }
    if has(&f.binary_extensions) {
        let mime = "application/octet-stream";
        return match binary(f, &shown, mime) {
            Some(text) => Ok(Some(text)),
            None => Err(Error::Binary {
                path: path.into(),
                mime: mime.into(),
                file_size: crate::error::int(size),
            }),
        };
    }
    Ok(None)
}

/// The answer to a file the library found binary, when the dialect answers one.
pub(crate) fn binary_answer(
    d: &Dialect,
    ws: Option<&Workspace>,
    path: &str,
    mime: &str,
) -> Option<String> {
    d.files.binary_answer.as_ref()?;
    let resolved = match ws {
        Some(ws) => ws.resolve(path).unwrap_or_else(|_| PathBuf::from(path)),
        None => PathBuf::from(path),
    };
    binary(&d.files, &shown(ws, &resolved, path), mime)
}

/// The binary answer filled in, if the dialect has one.
fn binary(f: &FileRules, shown: &str, mime: &str) -> Option<String> {
    let t = f.binary_answer.as_ref()?;
    Some(fill(t, &[("path", &shown), ("mime", &mime)]))
}

/// The path an answer names: relative to the root, `/`-separated; as asked outside a
/// workspace.
fn shown(ws: Option<&Workspace>, resolved: &Path, asked: &str) -> String {
    match ws.and_then(|w| resolved.strip_prefix(w.root()).ok()) {
        Some(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        None => asked.to_string(),
    }
}
