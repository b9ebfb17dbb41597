//! Advice in a dialect's own parameter names: what to ask instead after an error whose
//! library text names the library's parameters ([`Error::ScanBudget`] says `start_byte`
//! and `tail`, which most presets do not have).

use crate::error::{scan_stopped, Error, SCAN_CONTINUES};
use crate::tool::dialect::{Dialect, Role};

/// [`Error::ScanBudget`]'s text with its advice in `d`'s parameters: a byte range or the
/// last lines where `d` can ask for them, else only to call again; `None` for another
/// error.
pub(crate) fn scan_budget(d: &Dialect, e: &Error) -> Option<String> {
    let Error::ScanBudget {
        path,
        budget,
        scanned,
        file_size,
    } = e
    else {
        return None;
    };
    let name = |role: Role| d.params.iter().find(|p| p.role == role).map(|p| &p.name);
    let ways: Vec<String> = [
        (Role::StartByte, "a byte range"),
        (Role::Tail, "the last lines"),
    ]
    .into_iter()
    .filter_map(|(role, what)| name(role).map(|n| format!("{what} (`{n}`)")))
    .collect();
    let stopped = scan_stopped(path, *budget, *scanned, *file_size);
    Some(match ways.as_slice() {
        [] => format!("{stopped} Call again: {SCAN_CONTINUES}"),
        ways => format!(
            "{stopped} Ask for {} instead, which need no count; or call again: {SCAN_CONTINUES}",
            ways.join(" or ")
        ),
    })
}
