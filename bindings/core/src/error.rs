//! Errors as the bindings raise them: the crate's `ErrorKind` name, its message, and its
//! values (a Python exception's attributes, a JavaScript error's `data`).

use std::panic::{catch_unwind, AssertUnwindSafe};

/// An error for a binding to raise: `kind` is the crate's `ErrorKind` name
/// (`not_found`, `invalid_range` ...), or `panic` for a Rust panic caught at the
/// boundary; `message` is the crate's `Display` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindError {
    /// The `ErrorKind` name (`ErrorKind::as_str`), or `panic`.
    pub kind: String,
    /// What happened and what to do next.
    pub message: String,
    /// The option or parameter at fault, as the caller spelled it, when one is.
    pub parameter: Option<String>,
    /// The path the error is about, as the caller gave it, when one is.
    pub path: Option<String>,
    /// The error's values by name (`start`, `total_lines`, `mime` ...:
    /// `rangeread::Error::values`), snake_case.
    pub values: serde_json::Map<String, serde_json::Value>,
}

impl BindError {
    /// An option that is unknown, of the wrong type, or in conflict with another
    /// (kind `invalid_params`).
    pub fn option(name: &str, message: impl Into<String>) -> BindError {
        BindError {
            kind: "invalid_params".into(),
            message: message.into(),
            parameter: Some(name.to_string()),
            path: None,
            values: serde_json::Map::new(),
        }
    }
}

impl BindError {
    /// [`BindError::values`] with camelCase names (`totalLines`), as JavaScript spells
    /// properties.
    pub fn values_camel(&self) -> serde_json::Map<String, serde_json::Value> {
        let camel = |name: &str| {
            let mut out = String::with_capacity(name.len());
            let mut up = false;
            for c in name.chars() {
                match c {
                    '_' => up = true,
                    c if up => {
                        out.push(c.to_ascii_uppercase());
                        up = false;
                    }
                    c => out.push(c),
                }
            }
            out
        };
        self.values
            .iter()
            .map(|(k, v)| (camel(k), v.clone()))
            .collect()
    }
}

impl std::fmt::Display for BindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BindError {}

impl From<rangeread::Error> for BindError {
    fn from(e: rangeread::Error) -> BindError {
        BindError {
            kind: e.kind().as_str().to_string(),
            message: e.to_string(),
            parameter: e.parameter().map(str::to_string),
            path: e.path().map(|p| p.to_string_lossy().into_owned()),
            values: e.values(),
        }
    }
}

/// Runs `f`, turning a panic into a [`BindError`] of kind `panic` (a binding must
/// never let a panic cross into the interpreter, where it aborts the process).
pub fn guard<T>(f: impl FnOnce() -> Result<T, BindError>) -> Result<T, BindError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".into());
            Err(BindError {
                kind: "panic".into(),
                message: format!(
                    "rangeread panicked ({what}); this is a bug: please report it with the call that caused it"
                ),
                parameter: None,
                path: None,
                values: serde_json::Map::new(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_an_error() {
        let e = guard::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(e.kind, "panic");
        assert!(e.message.contains("boom"), "{}", e.message);
    }

    #[test]
    fn crate_errors_keep_their_kind_and_text() {
        let e: BindError = rangeread::Reader::new()
            .read("no/such/file.txt", rangeread::LineSelection::head(1))
            .unwrap_err()
            .into();
        assert_eq!(e.kind, "not_found");
        assert_eq!(e.message, r#"File not found: "no/such/file.txt""#);
        assert_eq!(e.path.as_deref(), Some("no/such/file.txt"));
    }

    #[test]
    fn an_errors_values_cross_with_it() {
        let e: BindError = rangeread::Reader::new()
            .read(
                concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/sample.txt"),
                rangeread::LineSelection::from(900..),
            )
            .unwrap_err()
            .into();
        assert_eq!(e.kind, "beyond_end");
        assert_eq!(e.parameter.as_deref(), Some("start_line"));
        assert_eq!(e.values["start"], 900);
        assert_eq!(e.values["total_lines"], 60);
    }
}
