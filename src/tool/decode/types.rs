//! Argument types as the agent's own schema validator checks them
//! ([`Arguments`](crate::tool::Arguments)): a value of another type is refused in the
//! dialect's words, and a value the agent accepts in a form the lenient walker
//! ([`Args`]) does not (a boolean for Python's `int`, a fraction rounded for zod's
//! `number`) is put in the form it reads.

use serde_json::Value;

use crate::error::Result;
use crate::tool::decode::args::{invalid, param, Args};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Integers, Param, Role, Rounding};

/// Checks the value of `p` (spelled one of `names`) against the dialect's
/// [`Arguments`](crate::tool::Arguments), before its getter reads it.
pub(crate) fn check(d: &Dialect, p: &Param, names: &[&str], a: &mut Args) -> Result<()> {
    let rules = &d.arguments;
    if rules.unwrap_single && p.role != Role::LineRange {
        unwrap_single(names, a);
    }
    if rules.integers == Integers::Lenient && !rules.null_refused {
        return Ok(());
    }
    let Some((name, value)) = a.peek(names) else {
        return Ok(());
    };
    if rules.integers == Integers::CoercedInt && numeric(p.role) && !value.is_null() {
        return match coerced_int(value) {
            Ok(v) => {
                a.put(&name, v);
                Ok(())
            }
            Err(expected) => Err(type_error(d, p, &name, value, Some(expected))),
        };
    }
    let refuse = || type_error(d, p, &name, value, None);
    let serde = rules.integers == Integers::Unsigned;
    let fixed = match value {
        Value::Null if rules.null_refused || (serde && p.required) => return Err(refuse()),
        Value::Null => None,
        v if numeric(p.role) => match number(rules.integers, p.fraction, v) {
            Some(n) => Some(n),
            None => return Err(refuse()),
        },
        // A `[start, end]` is read by the range's own check, which quotes it as given
        // (`[True, 3]`) and takes a boolean as the `int` Python makes of it.
        Value::Array(_) if p.role == Role::LineRange && rules.integers == Integers::Python => None,
        v if serde && p.role == Role::LineNumbers && !v.is_boolean() => return Err(refuse()),
        Value::String(_) => None,
        _ if textual(p.role) => return Err(refuse()),
        _ => None,
    };
    if let Some(v) = fixed {
        a.put(&name, v);
    }
    Ok(())
}

/// `[x]` given for a parameter is `x`.
fn unwrap_single(names: &[&str], a: &mut Args) {
    let one = match a.peek(names) {
        Some((name, Value::Array(items))) if items.len() == 1 => Some((name, items[0].clone())),
        _ => None,
    };
    if let Some((name, v)) = one {
        a.put(&name, v);
    }
}

/// A number under [`Integers::CoercedInt`], in the form the lenient walker reads; else
/// the type zod names as expected (`int` for a fraction, `number` for anything else).
fn coerced_int(v: &Value) -> std::result::Result<Value, &'static str> {
    let f = match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => return Ok(v.clone()),
        Value::Number(n) => n.as_f64().ok_or("number")?,
        // The normalizer turns a string holding a number into that number.
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .ok_or("number")?,
        _ => return Err("number"),
    };
    if f.fract() == 0.0 && f.abs() < 2f64.powi(53) {
        Ok(Value::from(f as i64))
    } else {
        Err("int")
    }
}

/// A number as the rules take it, in the form the lenient walker reads; `None`: refused.
fn number(rules: Integers, fraction: Option<Rounding>, v: &Value) -> Option<Value> {
    let whole = |f: f64| f.fract() == 0.0 && f.abs() < 2f64.powi(53);
    match (rules, v) {
        (Integers::Lenient, v) => Some(v.clone()),
        (Integers::Pydantic, v) => lax_int(v),
        (Integers::Python, Value::Bool(b)) => Some(Value::from(i64::from(*b))),
        (Integers::Python, Value::Number(n)) => (n.is_i64() || n.is_u64()).then(|| v.clone()),
        (Integers::Unsigned, Value::Number(n)) => (n.is_i64() || n.is_u64()).then(|| v.clone()),
        (Integers::Integral, Value::Number(n)) => {
            n.as_f64().filter(|f| whole(*f)).map(|_| v.clone())
        }
        (Integers::Number, Value::Number(n)) => {
            let f = n.as_f64()?;
            if whole(f) || f < 0.0 {
                // A negative fraction is a negative number: the parameter's own rule.
                return Some(if whole(f) {
                    v.clone()
                } else {
                    Value::from(f.trunc() as i64 - 1)
                });
            }
            match fraction {
                Some(Rounding::Ceil) => Some(Value::from(f.ceil() as i64)),
                Some(Rounding::Trunc) => Some(Value::from(f.trunc() as i64)),
                // The walker refuses it, naming the value.
                None => Some(v.clone()),
            }
        }
        _ => None,
    }
}

/// pydantic's lax `int` of a JSON value ([`Integers::Pydantic`]); `None`: refused.
pub(crate) fn lax_int(v: &Value) -> Option<Value> {
    crate::tool::decode::validation::lax_int(v)
        .ok()
        .map(Value::from)
}

/// Roles whose value is a number.
pub(crate) fn numeric(role: Role) -> bool {
    role.is_numeric()
}

/// Roles whose value is a string.
fn textual(role: Role) -> bool {
    matches!(
        role,
        Role::Path
            | Role::Session
            | Role::Mode
            | Role::Pages
            | Role::Cells
            | Role::Crop
            | Role::Command
    )
}

/// The type a parameter's schema publishes: its own `type`, else its role's.
fn expected(p: &Param) -> String {
    if let Some(t) = p.schema.get("type").and_then(Value::as_str) {
        return t.to_string();
    }
    let role = if numeric(p.role) {
        "integer"
    } else if textual(p.role) {
        "string"
    } else {
        "value"
    };
    role.to_string()
}

/// The JSON type of a value, as validators name it.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The refusal of `value` for `p`, in the dialect's words; `zod`: the type zod names
/// as expected, where it is not the schema's.
fn type_error(
    d: &Dialect,
    p: &Param,
    name: &str,
    value: &Value,
    zod: Option<&str>,
) -> crate::error::Error {
    let expected = match zod {
        Some(t) => t.to_string(),
        None if d.arguments.integers == Integers::CoercedInt && numeric(p.role) => {
            "number".to_string()
        }
        None => expected(p),
    };
    match &d.arguments.type_error {
        Some(t) => {
            let shown = value.to_string();
            param(
                name,
                fill(
                    t,
                    &[
                        ("name", &name),
                        ("expected", &expected.as_str()),
                        ("got", &json_type(value)),
                        ("value", &shown.as_str()),
                        ("unexpected", &unexpected(value).as_str()),
                        ("tool", &d.name.as_str()),
                    ],
                ),
            )
        }
        None => invalid(name, &format!("a value of type {expected}"), value),
    }
}

/// The value as serde's `invalid type` errors name it (`Unexpected`'s display).
fn unexpected(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_u64() || n.is_i64() => format!("integer `{n}`"),
        // serde prints a float with its fraction, `2.0` as `2.0`.
        Value::Number(n) => format!("floating point `{:?}`", n.as_f64().unwrap_or_default()),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "sequence".to_string(),
        Value::Object(_) => "map".to_string(),
    }
}
