//! A selection normalized against one file: which lines or bytes to read, found through
//! the file's line index.

use crate::error::{Error, Result};
use crate::indentation::{IndentSelection, IndentSpan};
use crate::index::LineIndex;
use crate::lines::Lines;
use crate::result::{Adjustments, ByteSpan, Requested, RequestedLines};
use crate::text::{utf8, Units};

use super::{ByteSelection, LineSelection, Snap};

/// A line selection normalized against a file: what to read forward from a line, or
/// backward from the end.
pub(crate) enum Plan {
    /// Nothing (a valid empty selection).
    Empty,
    /// `count` lines (all, if `None`) from line `start`.
    Forward { start: u64, count: Option<u64> },
    /// `count` lines from line `start`, which begins at byte `offset` (found while
    /// planning, so the index is not asked again).
    At { start: u64, offset: u64, count: u64 },
    /// The last `n` lines, skipping the last `skip`.
    Tail { n: u64, skip: u64 },
}

/// What planning a line selection needs: the file's lines and index, and how to find
/// the block around a line (`block(line, offset)` gives its first and last line and
/// whether its end was found) and an indentation block (`indent(selection, offset)`).
pub(crate) struct Planner<'a, 'b> {
    pub lines: Lines<'a>,
    pub index: &'b mut LineIndex,
    #[allow(clippy::type_complexity)]
    pub block: &'b mut dyn FnMut(u64, u64) -> Result<(u64, u64, bool)>,
    pub indent: &'b mut dyn FnMut(&IndentSelection, u64) -> Result<IndentSpan>,
}

impl Planner<'_, '_> {
    /// The byte offset of line `line`, which must exist.
    fn require_line(&mut self, line: u64) -> Result<u64> {
        match self.index.line_start(self.lines.src, line)? {
            Some(off) => Ok(off),
            None => Err(Error::LineBeyondEnd {
                start: crate::error::int(line),
                total_lines: crate::error::int(self.index.total_lines(self.lines.src)?),
                parameter: "start_line".into(),
            }),
        }
    }

    /// Normalizes a line selection into a forward or a backward plan.
    pub fn plan(&mut self, sel: LineSelection) -> Result<(Requested, Plan)> {
        let req = |start: i64, end: Option<i64>| Requested {
            lines: Some(RequestedLines { start, end }),
            bytes: None,
        };
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        Ok(match sel {
            LineSelection::Head(n) => (
                req(1, Some(i(n))),
                if n == 0 {
                    Plan::Empty
                } else {
                    Plan::Forward {
                        start: 1,
                        count: Some(n),
                    }
                },
            ),
            LineSelection::Tail(n) => (
                req(-i(n), None),
                if n == 0 {
                    Plan::Empty
                } else {
                    Plan::Tail { n, skip: 0 }
                },
            ),
            LineSelection::OffsetLimit { offset, limit } => (
                req(i(offset), limit.map(|l| i(offset.saturating_add(l)) - 1)),
                match limit {
                    Some(0) => Plan::Empty,
                    count => Plan::Forward {
                        start: offset,
                        count,
                    },
                },
            ),
            LineSelection::Around { line, context } => {
                self.require_line(line)?;
                let start = line.saturating_sub(context).max(1);
                let end = line.saturating_add(context);
                (
                    req(i(start), Some(i(end))),
                    Plan::Forward {
                        start,
                        count: Some(end - start + 1),
                    },
                )
            }
            LineSelection::Block { line } => {
                let off = self.require_line(line)?;
                let (start, end, complete) = (self.block)(line, off)?;
                (
                    req(i(start), complete.then(|| i(end))),
                    Plan::Forward {
                        start,
                        count: Some(end - start + 1),
                    },
                )
            }
            LineSelection::Indentation(sel) => {
                let off = self.require_line(sel.anchor_line)?;
                let span = (self.indent)(&sel, off)?;
                match span.lines {
                    Some((start, end)) => (
                        req(i(start), span.complete.then(|| i(end))),
                        Plan::At {
                            start,
                            offset: span.offset,
                            count: end - start + 1,
                        },
                    ),
                    None => {
                        let a = i(sel.anchor_line);
                        (req(a, Some(a)), Plan::Empty)
                    }
                }
            }
            LineSelection::Range { start, end } => {
                let s = start.unwrap_or(1);
                let r = req(s, end);
                match (s > 0, end) {
                    (true, None) => (
                        r,
                        Plan::Forward {
                            start: s as u64,
                            count: None,
                        },
                    ),
                    (true, Some(e)) if e > 0 => (
                        r,
                        Plan::Forward {
                            start: s as u64,
                            count: Some((e - s) as u64 + 1),
                        },
                    ),
                    (false, None) => (
                        r,
                        Plan::Tail {
                            n: s.unsigned_abs(),
                            skip: 0,
                        },
                    ),
                    (false, Some(e)) if e < 0 => (
                        r,
                        Plan::Tail {
                            n: s.unsigned_abs(),
                            skip: e.unsigned_abs() - 1,
                        },
                    ),
                    (_, Some(e)) => {
                        // Mixed signs: resolve against the line count.
                        let total = i(self.index.total_lines(self.lines.src)?);
                        let abs = |v: i64| if v < 0 { total + 1 + v } else { v };
                        let (rs, re) = (abs(s).max(1), abs(e));
                        if rs > total {
                            if total == 0 && rs == 1 {
                                return Ok((r, Plan::Empty));
                            }
                            return Err(Error::LineBeyondEnd {
                                start: rs,
                                total_lines: total,
                                parameter: "start_line".into(),
                            });
                        }
                        if rs > re {
                            return Err(Error::LineStartAfterEnd {
                                start: s,
                                end: e,
                                parameter: "start_line".into(),
                            });
                        }
                        (
                            r,
                            Plan::Forward {
                                start: rs as u64,
                                count: Some((re - rs) as u64 + 1),
                            },
                        )
                    }
                }
            }
        })
    }
}

/// A byte selection resolved against a file: validated, clamped and snapped.
pub(crate) struct ResolvedBytes {
    pub requested: Requested,
    pub adjustments: Adjustments,
    pub start: u64,
    pub end: u64,
}

/// Validates, clamps and snaps a byte selection (the contract's messages for a start
/// after the end or beyond the file).
pub(crate) fn resolve_bytes(sel: ByteSelection, lines: &Lines<'_>) -> Result<ResolvedBytes> {
    let src = lines.src;
    let len = src.len();
    let start = sel.start.unwrap_or(0);
    let end = sel.end.unwrap_or(len);
    // Only an end the caller gave can be "before" the start; a defaulted end is the
    // file size, and a start past it is beyond the end.
    if sel.end.is_some() && start > end {
        return Err(Error::ByteStartAfterEnd {
            start: crate::error::int(start),
            end: crate::error::int(end),
            parameter: "start_byte".into(),
        });
    }
    if start > len {
        return Err(Error::ByteBeyondEnd {
            start: crate::error::int(start),
            file_size: crate::error::int(len),
            parameter: "start_byte".into(),
        });
    }
    let requested = Requested {
        lines: None,
        bytes: Some(ByteSpan { start, end }),
    };
    let end_clamped = end > len;
    let clamped_end = end.min(len);
    let units = lines.layout.units;
    let text_start = lines.layout.text_start;
    let byte_at = |pos: u64| src.byte_at(pos);
    // A byte order mark is not content: a range starting inside it starts after it.
    let (from, to) = (start.max(text_start), clamped_end.max(text_start));
    let (s, e) = match (sel.snap, units) {
        (Snap::Char, Units::Utf8) => (
            utf8::snap_start(from, len, byte_at)?.max(text_start),
            utf8::snap_end(to, len, byte_at)?,
        ),
        (Snap::Char, _) => {
            let mut read = |lo: u64, hi: u64| {
                let mut v = vec![0; usize::try_from(hi - lo).map_err(|_| src.changed())?];
                src.read_exact_at(lo, &mut v)?;
                Ok(v)
            };
            units.snap(from, to, len, text_start, &mut read)?
        }
        (Snap::Line, _) => {
            let s = lines.floor(from)?;
            let e = if to > s && lines.starts_line(to)? {
                to
            } else {
                lines.ceil(to)?
            };
            (s, e)
        }
    };
    Ok(ResolvedBytes {
        requested,
        adjustments: Adjustments {
            start_adjusted: s != start,
            end_adjusted: e != clamped_end,
            end_clamped,
        },
        start: s,
        end: e,
    })
}
