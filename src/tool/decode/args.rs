//! Reading tool arguments out of a JSON object, naming the parameter in every error.
//!
//! serde's derived `Deserialize` says `invalid type: integer, expected a string` without
//! the field, and accepts two aliases of one field only as "duplicate field". Models read
//! these messages and retry, so every parameter struct of the `tool` module goes through
//! this walker instead: each getter takes the accepted spellings of one parameter (the
//! canonical name first), and the messages quote the spelling the caller used.

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// A value and the parameter name the caller gave it under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Given<T> {
    pub name: String,
    pub value: T,
}

/// The arguments of one call, consumed parameter by parameter.
pub(crate) struct Args {
    map: Map<String, Value>,
}

/// A value and the spelling the caller gave it under.
pub(crate) type Named<T> = Option<(String, T)>;

impl Args {
    pub fn new(map: Map<String, Value>) -> Args {
        Args { map }
    }

    /// Removes the value of the parameter spelled one of `names`; `null` counts as absent.
    /// Returns the spelling used with the value.
    pub fn take(&mut self, names: &[&str]) -> Result<Named<Value>> {
        let mut found: Named<Value> = None;
        for &name in names {
            match self.map.remove(name) {
                None | Some(Value::Null) => {}
                Some(v) => {
                    if let Some((first, _)) = &found {
                        return Err(param(
                            name,
                            format!(
                                "Conflicting parameters: {first} and {name} name the same parameter; give only one"
                            ),
                        ));
                    }
                    found = Some((name.to_string(), v));
                }
            }
        }
        Ok(found)
    }

    /// The value of the parameter spelled one of `names` (the first spelling given),
    /// `null` included, left in place.
    pub fn peek(&self, names: &[&str]) -> Option<(String, &Value)> {
        names
            .iter()
            .find_map(|&n| self.map.get(n).map(|v| (n.to_string(), v)))
    }

    /// Replaces the value of the parameter spelled `name`.
    pub fn put(&mut self, name: &str, value: Value) {
        self.map.insert(name.to_string(), value);
    }

    /// A string parameter.
    pub fn string(&mut self, names: &[&str]) -> Result<Named<String>> {
        match self.take(names)? {
            None => Ok(None),
            Some((name, Value::String(s))) => Ok(Some((name, s))),
            Some((name, v)) => Err(invalid(&name, "a string", &v)),
        }
    }

    /// An integer: a JSON number (`10.0` too: schemas of type `number`, such as zod's,
    /// let models send integral floats), or a string of digits as some models send.
    /// `what` names what is expected, for the message.
    pub fn int(&mut self, names: &[&str], what: &str) -> Result<Named<i64>> {
        match self.take(names)? {
            None => Ok(None),
            Some((name, v)) => integral(&v)
                .and_then(|n| i64::try_from(n).ok())
                .map(|n| Some((name.clone(), n)))
                .ok_or_else(|| invalid(&name, what, &v)),
        }
    }

    /// A boolean (`true`/`false`, also as strings).
    pub fn boolean(&mut self, names: &[&str]) -> Result<Named<bool>> {
        match self.take(names)? {
            None => Ok(None),
            Some((name, Value::Bool(b))) => Ok(Some((name, b))),
            Some((name, Value::String(s))) if s == "true" || s == "false" => {
                Ok(Some((name, s == "true")))
            }
            Some((name, v)) => Err(invalid(&name, "true or false", &v)),
        }
    }

    /// Two integers `[a, b]`.
    pub fn pair(&mut self, names: &[&str]) -> Result<Named<(i64, i64)>> {
        let what = "an array of two integers [start, end]";
        match self.take(names)? {
            None => Ok(None),
            Some((name, v)) => {
                let two = v.as_array().filter(|a| a.len() == 2).and_then(|a| {
                    let n = |x: &Value| integral(x).and_then(|n| i64::try_from(n).ok());
                    Some((n(&a[0])?, n(&a[1])?))
                });
                two.map(|t| Some((name.clone(), t)))
                    .ok_or_else(|| invalid(&name, what, &v))
            }
        }
    }

    /// The parameters' names, in the map's order (by name).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }

    /// The name of a parameter no getter took, if any: a model that misspells
    /// `start_line` must not silently get the whole file.
    pub fn unknown(&self) -> Option<&str> {
        self.map.keys().next().map(String::as_str)
    }
}

/// An integer held by a JSON value: an integer, an integral float such as `10.0`, or a
/// string of digits (with an optional sign).
fn integral(v: &Value) -> Option<i128> {
    match v {
        Value::Number(n) => n.as_i64().map(i128::from).or_else(|| {
            n.as_u64().map(i128::from).or_else(|| {
                // Beyond 2^63 a float is no integer anyone means.
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 2f64.powi(63))
                    .map(|f| f as i128)
            })
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// An error about one parameter, named as the caller spelled it.
pub(crate) fn param(name: &str, message: impl Into<String>) -> Error {
    Error::InvalidParameter {
        parameter: name.to_string(),
        message: message.into(),
    }
}

/// The error for a value of the wrong type or range.
pub(crate) fn invalid(name: &str, expected: &str, got: &Value) -> Error {
    param(
        name,
        format!("Invalid {name}: expected {expected}, got {got}"),
    )
}

/// The error for a missing required parameter.
pub(crate) fn missing(names: &[&str]) -> Error {
    let (first, rest) = names.split_first().unwrap_or((&"?", &[]));
    if rest.is_empty() {
        param(first, format!("Missing required parameter {first}"))
    } else {
        param(
            first,
            format!(
                "Missing required parameter {first} (or {})",
                rest.join(", ")
            ),
        )
    }
}

/// Turns the arguments of a call into an object map.
pub(crate) fn object(value: Value) -> Result<Map<String, Value>> {
    match value {
        Value::Object(m) => Ok(m),
        Value::Null => Ok(Map::new()),
        other => Err(param(
            "arguments",
            format!("Invalid arguments: expected a JSON object, got {other}"),
        )),
    }
}

/// The arguments of a tool call as a JSON value, or as JSON text.
///
/// Implemented for [`serde_json::Value`] and for `&str` / `String` holding JSON, so a
/// host needs no `serde_json` of its own to hand over what the model sent.
pub trait JsonArgs {
    /// The arguments as a JSON value.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] (`arguments`) for text that is not JSON.
    fn into_json(self) -> Result<Value>;
}

impl JsonArgs for Value {
    fn into_json(self) -> Result<Value> {
        Ok(self)
    }
}

impl JsonArgs for &str {
    fn into_json(self) -> Result<Value> {
        serde_json::from_str(self).map_err(|e| {
            param(
                "arguments",
                format!("Invalid arguments: expected a JSON object, could not parse the text: {e}"),
            )
        })
    }
}

impl JsonArgs for String {
    fn into_json(self) -> Result<Value> {
        self.as_str().into_json()
    }
}

impl JsonArgs for &String {
    fn into_json(self) -> Result<Value> {
        self.as_str().into_json()
    }
}

/// The argument map of a call given as JSON or JSON text.
pub(crate) fn args_of(args: impl JsonArgs) -> Result<Args> {
    Ok(Args::new(object(args.into_json()?)?))
}

/// Implements `Deserialize` for a parameter struct through its `from_args` constructor,
/// so that serde users (rmcp's `Parameters<T>`, `serde_json::from_str`) get the same
/// messages as [`Args`] gives.
macro_rules! deserialize_via_args {
    ($ty:ty) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let map = <serde_json::Map<String, serde_json::Value>>::deserialize(d)?;
                <$ty>::from_args(crate::tool::decode::args::Args::new(map))
                    .map_err(<D::Error as serde::de::Error>::custom)
            }
        }
    };
}
pub(crate) use deserialize_via_args;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Args {
        Args::new(object(v).unwrap())
    }

    #[test]
    fn messages_name_the_spelling_used() {
        let e = args(json!({"file_path": 5}))
            .string(&["path", "file_path"])
            .unwrap_err();
        assert_eq!(e.to_string(), "Invalid file_path: expected a string, got 5");
        let e = args(json!({"limit": 2.5}))
            .int(&["limit"], "an integer")
            .unwrap_err();
        assert_eq!(e.to_string(), "Invalid limit: expected an integer, got 2.5");
        let e = args(json!({"start_line": "ten"}))
            .int(&["start_line"], "an integer")
            .unwrap_err();
        assert!(e.to_string().starts_with("Invalid start_line"), "{e}");
        let e = args(json!({"should_read_entire_file": 1}))
            .boolean(&["should_read_entire_file"])
            .unwrap_err();
        assert!(e.to_string().contains("should_read_entire_file"), "{e}");
    }

    #[test]
    fn null_is_absent_and_strings_of_digits_are_numbers() {
        let mut a = args(json!({"path": null, "head": "12", "start_line": "-5"}));
        assert_eq!(a.string(&["path"]).unwrap(), None);
        assert_eq!(a.int(&["head"], "").unwrap(), Some(("head".into(), 12)));
        assert_eq!(
            a.int(&["start_line"], "").unwrap(),
            Some(("start_line".into(), -5))
        );
        assert_eq!(a.unknown(), None);
    }

    #[test]
    fn two_spellings_of_one_parameter_conflict() {
        let e = args(json!({"path": "a", "filename": "b"}))
            .string(&["path", "target_file", "filename"])
            .unwrap_err();
        assert!(e.to_string().contains("path and filename"), "{e}");
    }

    #[test]
    fn unknown_parameters_are_named() {
        let mut a = args(json!({"line_start": 3, "path": "x"}));
        a.string(&["path"]).unwrap();
        assert_eq!(a.unknown(), Some("line_start"));
        assert!(object(json!([1])).is_err());
    }
}
