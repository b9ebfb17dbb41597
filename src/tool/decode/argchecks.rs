//! Parameters checked as they are decoded, as a dialect says: the command a
//! many-command tool is asked for, and the shape of a `[start, end]` range.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::tool::decode::args::{param, Args, Named};
use crate::tool::decode::types::lax_int;
use crate::tool::decode::validation::repr;
use crate::tool::decode::RangeGiven;
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Integers, Param, RangeChecks};

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

/// A `[start, end]` pair of lines.
type Pair = (i64, i64);

/// A [`crate::tool::Role::LineRange`] parameter. With [`Dialect::lines`]'
/// `range_checks`, an empty list counts as absent, and the value as given comes back
/// too: a value that is not two integers (under [`Integers::Python`], two `int`s) is
/// not read, its refusal in the dialect's words kept for after the file's checks.
pub(crate) fn range_arg(
    d: &Dialect,
    names: &[&str],
    a: &mut Args,
) -> Result<(Named<Pair>, Option<RangeGiven>)> {
    let Some(checks) = &d.lines.range_checks else {
        return Ok((a.pair(names)?, None));
    };
    let Some((name, value)) = a.take(names)? else {
        return Ok((None, None));
    };
    if value.as_array().is_some_and(Vec::is_empty) {
        return Ok((None, None));
    }
    let python = d.arguments.integers == Integers::Python;
    // pydantic makes the items integers before the tool sees them: the tool's own
    // refusals quote what it was given, `[2, 4]` for `["2", "4"]`.
    let lax = |items: &Vec<Value>| items.iter().map(lax_int).collect::<Option<Vec<Value>>>();
    let value = match value.as_array().map(lax) {
        Some(Some(ints)) if d.arguments.integers == Integers::Pydantic => Value::Array(ints),
        _ => value,
    };
    let items = value.as_array().map_or_else(Vec::new, |items| {
        let one: fn(&Value) -> String = if python { repr } else { shown };
        items.iter().map(one).collect()
    });
    let shown = if python {
        str_of(&value)
    } else {
        shown(&value)
    };
    // Python's `int`: a boolean is one (`True` is 1), a float is not.
    let int = |v: &Value| match v {
        Value::Bool(b) => Some(Value::from(i64::from(*b))),
        v if v.is_i64() || v.is_u64() => Some(v.clone()),
        _ => None,
    };
    let ints = |items: &Vec<Value>| items.iter().map(int).collect::<Option<Vec<Value>>>();
    let (typed, value) = match value.as_array().map(ints) {
        Some(Some(ints)) if python => (true, Value::Array(ints)),
        _ => (!python, value),
    };
    let refusal = shape_message(checks, &name, &shown);
    let mut one = Args::new(Map::from_iter([(name.clone(), value)]));
    let pair = if typed {
        one.pair(&[name.as_str()]).ok().flatten()
    } else {
        None
    };
    let given = RangeGiven {
        name,
        shown,
        refusal: pair.is_none().then_some(refusal),
        items,
    };
    Ok((pair, Some(given)))
}

/// The refusal of a `[start, end]` value that is not two integers, in the dialect's
/// words (`shown`: the value as they quote it).
fn shape_message(checks: &RangeChecks, name: &str, shown: &str) -> String {
    fill(&checks.shape, &[("name", &name), ("value", &shown)])
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
