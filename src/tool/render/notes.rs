//! Small parts of a text answer that some dialects add: the range as the call asked for
//! it (Goose's header), the note that the file goes on (Crush's), and the note that a
//! checked range's end was past the last line.

use crate::result::ReadResult;
use crate::select::{LineSelection, Selection};
use crate::tool::decode::{Plan, Way};
use crate::tool::dialect::template::{fill, fill_into};
use crate::tool::dialect::{Dialect, Output};

/// `{range}` of the header from the lines the call asked for ([`Output::range_asked`]):
/// its numbers, an open end as `end`; `None` for a call without a line range.
pub(crate) fn asked_range(o: &Output, plan: &Plan) -> Option<String> {
    let template = o.range.as_deref()?;
    let end = |e: Option<i64>| e.map_or_else(|| "end".to_string(), |e| e.to_string());
    let (start, end) = match plan.selection {
        _ if !plan.ranged() => return None,
        Selection::Lines(LineSelection::Range { start, end: e }) => {
            (start.unwrap_or(1).to_string(), end(e))
        }
        Selection::Lines(LineSelection::OffsetLimit { offset, limit }) => {
            let last = limit.map(|n| offset.saturating_add(n).saturating_sub(1) as i64);
            (offset.to_string(), end(last))
        }
        _ => return None,
    };
    Some(fill(template, &[("start", &start), ("end", &end)]))
}

/// [`Output::more`], when the file goes on after the lines shown and no budget cut the
/// read, or (`host_cut`) a budget the agent's own tool does not have cut it.
pub(crate) fn more(out: &mut String, template: &str, r: &ReadResult, host_cut: bool) {
    let Some(l) = r.lines else { return };
    let said = r.truncated.is_none() || host_cut;
    if said && !r.content.is_empty() && r.bytes.end < r.file_size {
        fill_into(out, template, &[("end", &l.end), ("next", &(l.end + 1))]);
    }
}

/// The note before the answer when a checked range's end was past the last line.
pub(crate) fn clamped_note(d: &Dialect, plan: &Plan, total: Option<u64>) -> Option<String> {
    let checks = d.lines.range_checks.as_ref()?;
    if plan.way != Way::Range {
        return None;
    }
    let Selection::Lines(LineSelection::Range { end: Some(e), .. }) = plan.selection else {
        return None;
    };
    let total = total?;
    (u64::try_from(e).is_ok_and(|e| e > total)).then(|| {
        fill(
            &checks.clamped,
            &[
                ("total", &total),
                ("end", &e),
                ("name", &plan.start_name.as_str()),
            ],
        )
    })
}
