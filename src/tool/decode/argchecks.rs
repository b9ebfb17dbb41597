//! Parameters checked as they are decoded, as a dialect says: the command a
//! many-command tool is asked for, and the shape of a `[start, end]` range.

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::tool::decode::args::{invalid, param, Args, Named};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Integers, Param};

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
    if d.lines.range_checks.is_none() {
        return a.pair(names);
    }
    let Some((name, value)) = a.take(names)? else {
        return Ok(None);
    };
    if value.as_array().is_some_and(Vec::is_empty) {
        return Ok(None);
    }
    let refusal = shape_error(d, &name, &value);
    let mut one = Args::new(Map::from_iter([(name.clone(), value)]));
    one.pair(&[name.as_str()]).map_err(|_| refusal)
}

/// The refusal of a `[start, end]` value that is not two integers, in the dialect's
/// words (the library's without [`crate::tool::LineRules::range_checks`]).
pub(crate) fn shape_error(d: &Dialect, name: &str, value: &Value) -> Error {
    let Some(checks) = &d.lines.range_checks else {
        return invalid(name, "an array of two integers [start, end]", value);
    };
    let python = d.arguments.integers == Integers::Python;
    let shown = if python { str_of(value) } else { shown(value) };
    let message = fill(&checks.shape, &[("name", &name), ("value", &shown.as_str())]);
    param(name, message)
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

/// A value as Python's `str()` shows what `json.loads` made of it: a string bare, in a
/// list quoted as `repr()` quotes it (`['2', '4']`), `True`, `None`, `1.0`.
fn str_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => repr(other),
    }
}

fn repr(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or_default();
            if f.fract() == 0.0 && f.abs() < 1e16 {
                format!("{f:.1}")
            } else {
                f.to_string()
            }
        }
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.contains('\'') && !s.contains('"') => format!("\"{s}\""),
        Value::String(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(m) => {
            let items: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", repr(&Value::String(k.clone())), repr(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}
