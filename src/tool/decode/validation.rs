//! The agent's own validator ([`Validation`]): a call whose values are not of the types
//! the agent's model of the tool declares is refused before the tool runs, with the
//! validator's report. pydantic's lax mode, as the OpenHands SDK validates a call's
//! arguments (`json.loads`' values through `Model.model_validate`).

use serde_json::Value;

use crate::error::Result;
use crate::tool::decode::args::{param, Args};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::validation::Validation;
use crate::tool::dialect::{Dialect, Integers, Role};

/// One failure: where (`view_range.0`), its pydantic type, and the value.
struct Failure<'a> {
    loc: String,
    kind: &'static str,
    input: &'a Value,
}

/// Refuses `a` with the dialect's validator's report when a value is not of its type;
/// `Ok` when the dialect has no validator or every value passes.
pub(crate) fn check(d: &Dialect, a: &Args) -> Result<()> {
    let Some(v) = &d.arguments.validation else {
        return Ok(());
    };
    if d.arguments.integers != Integers::Pydantic {
        return Ok(());
    }
    let mut failures = Vec::new();
    for p in &d.params {
        let names: Vec<&str> = std::iter::once(p.name.as_str())
            .chain(p.aliases.iter().map(String::as_str))
            .collect();
        let Some((name, value)) = a.peek(&names) else {
            continue;
        };
        match (p.role, value) {
            // `X | None`: `null` is the default.
            (_, Value::Null) => {}
            (Role::LineRange, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if let Err(kind) = lax_int(item) {
                        let loc = format!("{name}.{i}");
                        failures.push(Failure {
                            loc,
                            kind,
                            input: item,
                        });
                    }
                }
            }
            (Role::LineRange, other) => failures.push(Failure {
                loc: name,
                kind: "list_type",
                input: other,
            }),
            (role, other) if role.is_numeric() => {
                if let Err(kind) = lax_int(other) {
                    failures.push(Failure {
                        loc: name,
                        kind,
                        input: other,
                    });
                }
            }
            _ => {}
        }
    }
    let Some(first) = failures.first() else {
        return Ok(());
    };
    let parameter = first.loc.split('.').next().unwrap_or_default().to_string();
    Err(param(&parameter, report(d, v, a, &failures)))
}

/// The report's text.
fn report(d: &Dialect, v: &Validation, a: &Args, failures: &[Failure<'_>]) -> String {
    let errors: Vec<String> = failures
        .iter()
        .map(|f| {
            let message = v.messages.get(f.kind).map_or(f.kind, String::as_str);
            let input = cut(&repr(f.input));
            fill(
                &v.error,
                &[
                    ("loc", &f.loc.as_str()),
                    ("message", &message),
                    ("type", &f.kind),
                    ("input", &input.as_str()),
                    ("input_type", &type_name(f.input)),
                    ("version", &v.version.as_str()),
                ],
            )
        })
        .collect();
    let keys: Vec<String> = a.keys().map(|k| repr(&Value::from(k))).collect();
    let keys = format!("[{}]", keys.join(", "));
    let count = failures.len().to_string();
    let s = if failures.len() == 1 { "" } else { "s" };
    fill(
        &v.report,
        &[
            ("tool", &d.name.as_str()),
            ("count", &count.as_str()),
            ("s", &s),
            ("errors", &errors.join("\n").as_str()),
            ("keys", &keys.as_str()),
        ],
    )
}

/// pydantic's lax `int` of a `json.loads` value: `Err` with the error's type.
pub(crate) fn lax_int(v: &Value) -> std::result::Result<i64, &'static str> {
    match v {
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Ok(i),
            // Python's `int` has no bound; the tool refuses such a line by its range.
            (_, Some(u), _) => Ok(i64::try_from(u).unwrap_or(i64::MAX)),
            (_, _, Some(f)) if f.fract() != 0.0 => Err("int_from_float"),
            // pydantic-core refuses a whole float at or beyond i64's bounds.
            (_, _, Some(f)) if f >= i64::MAX as f64 || f <= i64::MIN as f64 => {
                Err("int_parsing_size")
            }
            (_, _, Some(f)) => Ok(f as i64),
            _ => Err("int_type"),
        },
        Value::String(s) => int_of_str(s).ok_or("int_parsing"),
        _ => Err("int_type"),
    }
}

/// A string as pydantic reads an `int`: blanks around, an optional sign, ASCII digits
/// with single underscores between them, and a fraction of zeros (`2.00`).
fn int_of_str(s: &str) -> Option<i64> {
    let s = s.trim_matches(|c: char| c.is_whitespace());
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let whole = match body.split_once('.') {
        Some((w, f)) if !f.is_empty() && f.bytes().all(|b| b == b'0') => w,
        Some(_) => return None,
        None => body,
    };
    let ok = !whole.is_empty()
        && whole
            .split('_')
            .all(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()));
    if !ok {
        return None;
    }
    let digits: String = whole.chars().filter(|&c| c != '_').collect();
    let n = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if negative { -n } else { n })
}

/// The Python type `json.loads` makes of a value.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// pydantic's cut of a long `repr`: over 50 characters, the first 25 and the last 24
/// around `...`.
fn cut(repr: &str) -> String {
    let n = repr.chars().count();
    if n <= 50 {
        return repr.to_string();
    }
    let head: String = repr.chars().take(25).collect();
    let tail: String = repr.chars().skip(n - 24).collect();
    format!("{head}...{tail}")
}

/// Python's `repr` of what `json.loads` makes of a value.
pub(crate) fn repr(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) if n.is_f64() => float_repr(n.as_f64().unwrap_or_default()),
        Value::Number(n) => n.to_string(),
        Value::String(s) => str_repr(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(m) => {
            let items: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", str_repr(k), repr(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// Python's `repr` of a float: the shortest digits that read back, positional from
/// 1e-4 up to 1e16 (with `.0` when whole), else `1e+16`, `1.5e-05`.
fn float_repr(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "nan"
        } else if f > 0.0 {
            "inf"
        } else {
            "-inf"
        }
        .into();
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..16).contains(&exp) {
        let s = f.to_string();
        return if s.contains('.') { s } else { format!("{s}.0") };
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// Python's `repr` of a string: in single quotes unless it holds one and no double
/// quote; backslash, the quote, `\n`, `\r`, `\t` escaped, other control characters as
/// `\xNN`.
fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_reprs() {
        assert_eq!(float_repr(1.5), "1.5");
        assert_eq!(float_repr(2.0), "2.0");
        assert_eq!(float_repr(1e15), "1000000000000000.0");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(1e20), "1e+20");
        assert_eq!(float_repr(1e-5), "1e-05");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(-9.3e18), "-9.3e+18");
        assert_eq!(str_repr("a'b"), "\"a'b\"");
        assert_eq!(str_repr("a'\"b"), "'a\\'\"b'");
        assert_eq!(str_repr("é\n"), "'é\\n'");
    }

    #[test]
    fn pydantic_lax_int() {
        let v = |s: &str| serde_json::from_str::<Value>(s).unwrap();
        for (json, want) in [
            ("true", Ok(1)),
            ("2.0", Ok(2)),
            ("\" 2.00 \"", Ok(2)),
            ("\"+1_0\"", Ok(10)),
            ("\"2.\"", Err("int_parsing")),
            ("\"1__0\"", Err("int_parsing")),
            ("\"2.5\"", Err("int_parsing")),
            ("1.5", Err("int_from_float")),
            ("1e19", Err("int_parsing_size")),
            ("null", Err("int_type")),
            ("[1]", Err("int_type")),
        ] {
            assert_eq!(lax_int(&v(json)), want, "{json}");
        }
    }
}
