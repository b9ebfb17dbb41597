//! One call's reading context: where the path resolved, the dialect, the reader and
//! this call's byte budget; the reads every step of a call makes through it.

use std::path::{Path, PathBuf};

use crate::config::{OutlineDetail, Totals};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::read::Reader;
use crate::result::{ReadResult, Truncation, TruncationReason};
use crate::select::{ByteSelection, LineSelection, Selection};
use crate::tool::decode::paths::path_name;
use crate::tool::decode::{bounds, Plan, Way};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::Dialect;
use crate::tool::serve::refuse;
use crate::workspace::Workspace;

/// One call's reading context.
pub(crate) struct Ctx<'a> {
    pub dialect: &'a Dialect,
    /// The tool's reader, before this call's budget.
    pub base: &'a Reader,
    pub workspace: Option<&'a Workspace>,
    pub path: &'a str,
    /// The byte budget of this call, when the dialect's caps set one.
    pub max_bytes: Option<u64>,
    /// The file as a step of this call opened it (the check for a document, the checks
    /// before the read, the read), for the steps after it: a call opens its file once.
    pub opened: std::cell::RefCell<Option<Document>>,
}

impl Ctx<'_> {
    /// The tool's reader, with this call's byte budget (a host's smaller one stays).
    pub(crate) fn reader(&self) -> Reader {
        let reader = self.base.clone();
        let (_, host, _) = reader.budgets();
        match self.max_bytes {
            Some(n) if host == 0 || n < host => reader.max_bytes(n),
            _ => reader,
        }
    }

    /// Whether the budget that cut a read is one the agent's own tool has (the
    /// dialect's, a cap's), rather than one only the host set.
    pub(crate) fn own_budget(&self, t: Truncation) -> bool {
        let d = self.dialect;
        match t.reason {
            TruncationReason::MaxLines => {
                t.limit == d.limits.max_lines || Some(t.limit) == d.lines.ranged_max
            }
            TruncationReason::MaxBytes => {
                t.limit == d.limits.max_bytes || Some(t.limit) == self.max_bytes
            }
        }
    }

    /// Whether the line-length budget the tool reads with is the agent's own (the
    /// dialect's), rather than one only the host set.
    pub(crate) fn own_line_budget(&self) -> bool {
        let (_, _, chars) = self.base.budgets();
        chars == self.dialect.limits.max_line_chars
    }

    /// Keeps `doc`, opened by a step of this call, for the steps after it. Not kept: a
    /// source that depends on the byte budget it was opened under (streamed), and one
    /// that is not the file's own bytes any more (the view of universal newlines a
    /// classification puts over it) or a host's (an object's).
    pub(crate) fn keep(&self, doc: Document) {
        let src = doc.source();
        if !src.is_streamed() && !src.is_custom() {
            *self.opened.borrow_mut() = Some(doc);
        }
    }

    /// The file this call opened, under `reader`'s configuration, else opened now with
    /// `reader`; give it back with [`Ctx::keep`] for the steps after.
    pub(crate) fn document(&self, reader: &Reader) -> Result<Document> {
        let kept = self.opened.borrow_mut().take();
        match kept {
            Some(doc) => Ok(reader.adopt(doc)),
            None => self.open(reader),
        }
    }

    /// The file opened now with `reader`, in the call's workspace if it has one.
    fn open(&self, reader: &Reader) -> Result<Document> {
        match self.workspace {
            Some(ws) => reader.open_in(ws, self.path),
            None => reader.open(self.path),
        }
    }

    /// The file's size and absolute path: from the file this call opened in its
    /// workspace, if a step opened it, else from a handle opened now ([`stat`]).
    pub(crate) fn stat(&self) -> Result<(u64, PathBuf)> {
        if self.workspace.is_some() {
            if let Some(doc) = self.opened.borrow().as_ref() {
                let (_, resolved) = doc.paths();
                return Ok((doc.source().len(), resolved.into()));
            }
        }
        stat(self.workspace, self.path)
    }

    /// The size of the file, without reading it.
    pub(crate) fn file_size(&self) -> Result<u64> {
        if let Some(doc) = self.opened.borrow().as_ref() {
            return Ok(doc.source().len());
        }
        let doc = self.document(self.base)?;
        let size = doc.source().len();
        self.keep(doc);
        Ok(size)
    }

    pub(crate) fn read_with(&self, reader: &Reader, sel: Selection) -> Result<ReadResult> {
        // The file this call opened already, read once; changed since, it is opened
        // again below, as a read that finds its file changed reopens it.
        let kept = self.opened.borrow_mut().take();
        if let Some(doc) = kept {
            let mut doc = reader.adopt(doc);
            match doc.read_one(sel) {
                Err(Error::Changed { .. }) => {}
                other => {
                    self.keep(doc);
                    return other.map_err(|e| binary_error(self.dialect, e, self.path));
                }
            }
        }
        // Opened here, as a one-shot read opens it (the selection checked first, opened
        // again while the file changes under the read), and kept for the steps after:
        // the read after a tail's look at the last byte, the line a refusal quotes, a note.
        sel.validate()
            .map_err(|e| binary_error(self.dialect, e, self.path))?;
        reader
            .retrying(|| {
                let mut doc = self.document(reader)?;
                let result = doc.read_one(sel);
                if !matches!(result, Err(Error::Changed { .. })) {
                    self.keep(doc);
                }
                result
            })
            .map_err(|e| binary_error(self.dialect, e, self.path))
    }

    /// Reads what the plan selects under the dialect's caps; with the lines asked for
    /// when a short range was widened.
    pub(crate) fn read(&self, plan: &Plan) -> Result<(ReadResult, Option<(u64, u64)>)> {
        let d = self.dialect;
        let mut reader = refuse::reader(d, self.reader());
        let lines_way = matches!(plan.way, Way::Lines | Way::OffsetLimit | Way::Range);
        if let (true, Some(max)) = (lines_way, d.lines.ranged_max) {
            // The dialect's cap of a ranged read, unless the host's budget is smaller.
            let (host, _, _) = reader.budgets();
            if host == 0 || max < host {
                reader = reader.max_lines(max);
            }
        }
        if d.output.number_bytes && plan.way == Way::Bytes {
            reader = reader.totals(Totals::Always);
        }
        if d.lines.refuse_unranged_over.is_some() && !plan.ranged() {
            reader = reader.totals(Totals::Always);
        }
        let widen = d.lines.widen_to.filter(|_| lines_way);
        let (Some(min), Some((start, end))) = (widen, bounds(&plan.selection)) else {
            return self.split_tail(&reader, plan.selection).map(|r| (r, None));
        };
        let cap = d.lines.ranged_max.unwrap_or(u64::MAX).max(1);
        let end = end.unwrap_or_else(|| start.saturating_add(cap.min(u64::MAX - 1) - 1));
        let count = end.saturating_sub(start) + 1;
        let min = min.min(cap);
        let lines = |s: u64, e: u64| -> Selection {
            let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
            LineSelection::range(Some(i(s)), Some(i(e))).into()
        };
        if count >= min {
            return self
                .read_with(&reader, lines(start, end))
                .map(|r| (r, None));
        }
        let before = (min - count) / 2;
        let s = start.saturating_sub(before).max(1);
        let e = s + min - 1;
        let r = self.read_with(&reader, lines(s, e))?;
        let Some(total) = r.total_lines else {
            return Ok((r, Some((start, end))));
        };
        if start > total {
            return Err(Error::LineBeyondEnd {
                start: crate::error::int(start),
                total_lines: crate::error::int(total),
                parameter: plan.start_name.clone(),
            });
        }
        // Clamped at the end of the file: take the lines missing from before instead.
        let got = r.lines.map_or(0, |l| l.end);
        if got < e && s > 1 && r.truncated.is_none() {
            let s2 = total.saturating_sub(min - 1).max(1);
            if s2 < s {
                return Ok((
                    self.read_with(&reader, lines(s2, total))?,
                    Some((start, end)),
                ));
            }
        }
        Ok((r, Some((start, end))))
    }

    /// Reads `selection`; a tail as the last `n` lines of a text split on `\n` (the
    /// dialect's [`split_lines`](crate::tool::LineRules::split_lines)): after a final
    /// line feed the empty line after it is one of the `n`, so `n - 1` of the file's
    /// lines; all of them when the file has no more than `n` and the dialect
    /// [counts line feeds first](crate::tool::LineRules::tail_counts_line_feeds) (the
    /// `n` lines read to find out are then the answer).
    fn split_tail(&self, reader: &Reader, selection: Selection) -> Result<ReadResult> {
        let rules = &self.dialect.lines;
        let n = match selection {
            Selection::Lines(LineSelection::Tail(n)) if n > 0 && rules.split_lines => n,
            _ => return self.read_with(reader, selection),
        };
        if rules.tail_counts_line_feeds {
            let r = self.read_with(reader, selection)?;
            let whole = r.bytes.start == 0 || (r.bom && r.bytes.start <= 4);
            // A budget may have stopped the read before the file's last byte.
            let ends_with_lf = if r.bytes.end == r.file_size {
                r.content.ends_with('\n')
            } else {
                self.ends_with_lf()?
            };
            if whole || !ends_with_lf {
                return Ok(r);
            }
        } else if !self.ends_with_lf()? {
            return self.read_with(reader, selection);
        }
        self.read_with(reader, LineSelection::Tail(n - 1).into())
    }

    /// The file's outline, listing what `detail` asks for.
    pub(crate) fn outline(&self, detail: OutlineDetail) -> Result<crate::result::Outline> {
        let reader = self.base.clone().outline_detail(detail);
        let mut doc = self.document(&reader)?;
        match doc.outline() {
            // Changed since a step opened it: the outline of the file as it is now.
            Err(Error::Changed { .. }) => self.open(&reader)?.outline(),
            other => {
                self.keep(doc);
                other
            }
        }
    }

    /// Line `n` as the tool shows it (cut at the line budget), whatever its size.
    pub(crate) fn line(&self, n: u64) -> Result<String> {
        let reader = self.base.clone().max_bytes(0);
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        let sel = LineSelection::range(Some(n), Some(n)).into();
        Ok(self.read_with(&reader, sel)?.content)
    }

    /// The text of the first `n` bytes of the file (or a little more, to a character).
    pub(crate) fn head(&self, n: u64) -> Result<String> {
        let sel = ByteSelection::new(Some(0), Some(n)).into();
        Ok(self.read_with(self.base, sel)?.content)
    }

    /// Whether the file's last byte is a line feed.
    pub(crate) fn ends_with_lf(&self) -> Result<bool> {
        let reader = self.base.clone().totals(Totals::IfKnown);
        let r = self.read_with(&reader, LineSelection::Tail(1).into())?;
        Ok(r.content.ends_with('\n'))
    }
}

/// A binary file's error in the dialect's words, with the path as the caller gave it
/// to the tool (the library's error keeps the path the file was opened with).
pub(crate) fn binary_error(d: &Dialect, e: Error, path: &str) -> Error {
    match (e, &d.errors.binary) {
        (
            Error::Binary {
                path: file,
                mime,
                file_size,
            },
            Some(t),
        ) => Error::Refused {
            message: fill(t, &[("path", &path), ("mime", &mime.as_str())]),
            parameter: path_name(d).to_string(),
            cause: Box::new(Error::Binary {
                path: file,
                mime,
                file_size,
            }),
        },
        (e, _) => e,
    }
}

/// The file's size and absolute path, from a handle opened as a read opens it (the
/// same errors: not found, a directory, outside, protected).
fn stat(ws: Option<&Workspace>, path: &str) -> Result<(u64, PathBuf)> {
    let (file, resolved) = match ws {
        Some(ws) => {
            let o = ws.open(path)?;
            (o.file, o.resolved_path)
        }
        None => {
            let p = Path::new(path);
            let m = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
            if m.is_dir() {
                return Err(Error::IsDirectory { path: p.into() });
            }
            return Ok((m.len(), p.to_path_buf()));
        }
    };
    let size = file.metadata().map_err(|e| Error::io(&resolved, e))?.len();
    Ok((size, resolved))
}
