//! What a call is checked for besides its parameters' types, as a dialect says: the
//! command a many-command tool is asked for, paths refused by their ending, the
//! suggestion after a refused relative path, a file-size cap on every read, and a
//! `[start, end]` range checked against the file's line count before reading.

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::read::Reader;
use crate::select::{LineSelection, Selection};
use crate::tool::args::{param, Args, Named};
use crate::tool::decode::{Plan, Way};
use crate::tool::dialect::{Dialect, Param};
use crate::tool::template::fill;
use crate::workspace::Workspace;

/// A [`crate::tool::Role::Command`] parameter: whether it was given; a command the tool
/// does not serve is refused.
pub(crate) fn command(d: &Dialect, p: &Param, names: &[&str], a: &mut Args) -> Result<bool> {
    let Some((name, value)) = a.string(names)? else {
        return Ok(false);
    };
    if p.serves.iter().any(|s| *s == value) {
        return Ok(true);
    }
    let accepted = p.serves.join(", ");
    let message = match &d.errors.command {
        Some(t) => fill(
            t,
            &[
                ("name", &name.as_str()),
                ("value", &value.as_str()),
                ("accepted", &accepted.as_str()),
            ],
        ),
        None => format!("Unsupported {name} {value:?}: this tool serves {accepted}"),
    };
    Err(param(&name, message))
}

/// A [`crate::tool::Role::LineRange`] parameter. With [`Dialect::lines`]'
/// `range_checks`, an empty list counts as absent and a value that is not two integers
/// is refused with the dialect's text.
pub(crate) fn range_arg(d: &Dialect, names: &[&str], a: &mut Args) -> Result<Named<(i64, i64)>> {
    let Some(checks) = &d.lines.range_checks else {
        return a.pair(names);
    };
    let Some((name, value)) = a.take(names)? else {
        return Ok(None);
    };
    if value.as_array().is_some_and(Vec::is_empty) {
        return Ok(None);
    }
    let shown = shown(&value);
    let mut one = Args::new(Map::from_iter([(name.clone(), value)]));
    one.pair(&[name.as_str()]).map_err(|_| {
        let message = fill(
            &checks.shape,
            &[("name", &name.as_str()), ("value", &shown.as_str())],
        );
        param(&name, message)
    })
}

/// A value as a refusal quotes it: a list as `[1, 2]`.
fn shown(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(shown).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// Refuses a path by how its name ends, before anything is looked up.
pub(crate) fn path_gate(d: &Dialect, path: &str) -> Result<()> {
    let Some(refusal) = &d.paths.refuse_suffixes else {
        return Ok(());
    };
    let lower = path.to_ascii_lowercase();
    if refusal
        .suffixes
        .iter()
        .any(|s| lower.ends_with(&s.to_ascii_lowercase()))
    {
        return Err(param(
            path_param(d),
            fill(&refusal.message, &[("path", &path)]),
        ));
    }
    Ok(())
}

/// The text after a refused relative path: the absolute path it may have meant, when
/// it names something in the workspace.
pub(crate) fn suggestion(d: &Dialect, workspace: Option<&Workspace>, path: &str) -> String {
    match (&d.paths.suggest_absolute, workspace) {
        (Some(t), Some(ws)) => match ws.resolve(path) {
            Ok(abs) => fill(t, &[("path", &abs.display().to_string())]),
            Err(_) => String::new(),
        },
        _ => String::new(),
    }
}

/// The name of the dialect's path parameter, for messages.
fn path_param(d: &Dialect) -> &str {
    d.params
        .iter()
        .find(|p| p.role == crate::tool::Role::Path)
        .map_or("path", |p| p.name.as_str())
}

/// The checks made on the file before it is read: the dialect's cap on the file's size,
/// and its checks of a `[start, end]` range against the file's lines.
pub(crate) fn before_read(
    d: &Dialect,
    reader: &Reader,
    workspace: Option<&Workspace>,
    path: &str,
    plan: &Plan,
) -> Result<()> {
    let range = match (&d.lines.range_checks, plan.way) {
        (Some(checks), Way::Range) => Some(checks),
        _ => None,
    };
    if d.caps.file_bytes.is_none() && range.is_none() {
        return Ok(());
    }
    let mut doc = match workspace {
        Some(ws) => reader.open_in(ws, path)?,
        None => reader.open(path)?,
    };
    if let Some(cap) = &d.caps.file_bytes {
        let size = doc.source().len();
        if size > cap.bytes {
            let mib = |n: u64| n as f64 / (1024.0 * 1024.0);
            let size_mib = format!("{:.1}", mib(size));
            let max_mib = (cap.bytes >> 20).to_string();
            let message = fill(
                &cap.message,
                &[
                    ("path", &path),
                    ("size", &size),
                    ("max", &cap.bytes),
                    ("size_mib", &size_mib.as_str()),
                    ("max_mib", &max_mib.as_str()),
                ],
            );
            return Err(param(path_param(d), message));
        }
    }
    let Some(checks) = range else {
        return Ok(());
    };
    let Selection::Lines(LineSelection::Range {
        start: Some(start),
        end,
    }) = plan.selection
    else {
        return Ok(());
    };
    let total = doc.total_lines().map_err(|e| binary_error(d, e, path))?;
    let total_i = i64::try_from(total).unwrap_or(i64::MAX);
    let value = format!("[{start}, {}]", end.unwrap_or(-1));
    let name = plan.start_name.as_str();
    let vals = |end: i64| {
        [
            ("name", name.to_string()),
            ("value", value.clone()),
            ("start", start.to_string()),
            ("end", end.to_string()),
            ("total", total.to_string()),
        ]
    };
    let refuse = |template: &str, end: i64| {
        let v = vals(end);
        let values: Vec<(&str, &dyn crate::tool::template::Value)> =
            v.iter().map(|(k, x)| (*k, x as _)).collect();
        Err(param(name, fill(template, &values)))
    };
    if start < 1 || start > total_i {
        return refuse(&checks.start, end.unwrap_or(-1));
    }
    let end = end.map_or(total_i, |e| e.min(total_i));
    if end < start {
        return refuse(&checks.order, end);
    }
    Ok(())
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

/// A binary file's error in the dialect's words, with the path as the caller gave it
/// (the library's error knows the MIME type only).
pub(crate) fn binary_error(d: &Dialect, e: Error, path: &str) -> Error {
    match (e, &d.errors.binary) {
        (Error::Binary { mime }, Some(t)) => param(
            path_param(d),
            fill(t, &[("path", &path), ("mime", &mime.as_str())]),
        ),
        (e, _) => e,
    }
}
