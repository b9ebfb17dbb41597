//! Parameters checked as they are decoded, as a dialect says: the command a
//! many-command tool is asked for, and the shape of a `[start, end]` range.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::tool::decode::args::{param, Args, Named};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Param};

/// A [`crate::tool::Role::Command`] parameter: whether it was given; a command the tool
/// does not serve is refused.
pub(crate) fn command(d: &Dialect, p: &Param, names: &[&str], a: &mut Args) -> Result<bool> {
    let Some((name, value)) = a.string(names)? else {
        return Ok(false);
    };
    if p.serves.contains(&value) {
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
