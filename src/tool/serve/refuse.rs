//! Refusals by size that some tools make instead of paging: Crush refuses a section over
//! its byte budget (a file over a size, whatever the read, is refused before reading:
//! `checks::before_read`).

use crate::error::Result;
use crate::read::Reader;
use crate::result::{ReadResult, TruncationReason};
use crate::tool::decode::args::param;
use crate::tool::dialect::template::fill;
use crate::tool::dialect::Dialect;
use crate::tool::lines_of;

/// The reader for a dialect that refuses a read over its byte budget: one byte more, so
/// that a section of exactly the budget, whose last line has a line feed (not counted
/// when lines are joined), still fits. A smaller budget of the host's stays, and pages.
pub(crate) fn reader(d: &Dialect, reader: Reader) -> Reader {
    let (_, host, _) = reader.budgets();
    match (&d.caps.over_byte_budget, d.limits.max_bytes) {
        (Some(_), max) if max > 0 && (host == 0 || host >= max) => {
            reader.max_bytes(max.saturating_add(1))
        }
        _ => reader,
    }
}

/// Refuses `r` (the path given under the parameter `name`) when the dialect's caps say
/// so. `line(n)` reads line `n` as shown, for the size of the first line over the
/// budget.
pub(crate) fn check(
    d: &Dialect,
    r: &ReadResult,
    name: &str,
    line: impl FnOnce(u64) -> Result<String>,
) -> Result<()> {
    let (Some(message), max) = (&d.caps.over_byte_budget, d.limits.max_bytes) else {
        return Ok(());
    };
    if max == 0 {
        return Ok(());
    }
    // The section as the tool shows it: lines without their ends, joined by `\n`.
    let shown = |text: &str| -> u64 {
        let (count, bytes) = lines_of(text).fold((0u64, 0u64), |(n, b), l| {
            (n + 1, b + l.strip_suffix('\r').unwrap_or(l).len() as u64)
        });
        bytes + count.saturating_sub(1)
    };
    let mut size = shown(&r.content);
    let over = match r.truncated {
        // The tool's own budget refuses; a smaller one of the host's pages.
        Some(t) if t.reason == TruncationReason::MaxBytes && t.limit > max => {
            if let Some(n) = t.next_start_line {
                size += 1 + shown(&line(n)?);
            }
            true
        }
        _ => size > max,
    };
    if over {
        return Err(param(
            name,
            fill(message, &[("size", &size), ("max", &max)]),
        ));
    }
    Ok(())
}
