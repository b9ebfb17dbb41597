//! What an [`Error`] names, as data: the path it concerns, the parameter at fault and its
//! values, for hosts that fill their own fields (the bindings' attributes, a tool's record).

use std::path::Path;

use super::Error;

impl Error {
    /// The path the error concerns, as the caller gave it (`None` for errors about
    /// arguments or sessions).
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader};
    ///
    /// let err = Reader::new().read("no/such/file", LineSelection::head(1)).unwrap_err();
    /// assert_eq!(err.path(), Some(std::path::Path::new("no/such/file")));
    /// ```
    pub fn path(&self) -> Option<&Path> {
        match self {
            Error::NotFound { path }
            | Error::IsDirectory { path }
            | Error::PermissionDenied { path }
            | Error::NotRegularFile { path, .. }
            | Error::Changed { path }
            | Error::ScanBudget { path, .. }
            | Error::OutsideWorkspace { path }
            | Error::Protected { path }
            | Error::Denied { path, .. }
            | Error::RuleFile { path, .. }
            | Error::InvalidPath { path, .. }
            | Error::InvalidImage { path, .. }
            | Error::ImageTooLarge { path, .. }
            | Error::FeatureDisabled { path, .. }
            | Error::InvalidDocument { path, .. }
            | Error::DocumentLimit { path, .. }
            | Error::TooLarge { path, .. }
            | Error::Binary { path, .. }
            | Error::Io { path, .. } => Some(path),
            #[cfg(feature = "sessions")]
            Error::StoreNotFound { path, .. } | Error::Store { path, .. } => Some(path),
            Error::Refused { cause, .. } => cause.path(),
            _ => None,
        }
    }

    /// The parameter at fault, as the caller spelled it: a tool parameter's name
    /// ([`Error::InvalidParameter`]), or the one a range error is about (`start_line`,
    /// `offset`, `start_byte` ...); `None` when no parameter is.
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader};
    ///
    /// let err = Reader::new().read("tests/data/sample.txt", LineSelection::from(0..=5)).unwrap_err();
    /// assert_eq!(err.parameter(), Some("start_line"));
    /// ```
    pub fn parameter(&self) -> Option<&str> {
        match self {
            Error::InvalidParameter { parameter, .. } | Error::Refused { parameter, .. } => {
                Some(parameter)
            }
            Error::ZeroLine { field, .. } => Some(field),
            Error::LineStartAfterEnd { parameter, .. }
            | Error::LineBeyondEnd { parameter, .. }
            | Error::ByteStartAfterEnd { parameter, .. }
            | Error::ByteBeyondEnd { parameter, .. } => Some(parameter),
            _ => None,
        }
    }

    /// The error's values by name, as a host shows or branches on them (`start` and
    /// `total_lines` of [`Error::LineBeyondEnd`], `mime` and `file_size` of
    /// [`Error::Binary`] ...): the fields of the variant other than its message, numbers
    /// as numbers. A path is in [`Error::path`], a parameter in [`Error::parameter`].
    ///
    /// ```
    /// use rangeread::{LineSelection, Reader};
    ///
    /// let err = Reader::new().read("tests/data/sample.txt", LineSelection::from(900..)).unwrap_err();
    /// assert_eq!(err.values()["total_lines"], 60);
    /// assert_eq!(err.values()["start"], 900);
    /// ```
    pub fn values(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let v = match self {
            Error::Refused { cause, .. } => return cause.values(),
            Error::NotRegularFile { kind, .. } => json!({ "file_kind": kind }),
            Error::ScanBudget {
                budget,
                scanned,
                file_size,
                ..
            } => json!({ "budget": budget, "scanned": scanned, "file_size": file_size }),
            Error::ZeroLine { start, end, .. } => json!({ "start": start, "end": end }),
            Error::LineStartAfterEnd { start, end, .. } => json!({ "start": start, "end": end }),
            Error::ByteStartAfterEnd { start, end, .. } => json!({ "start": start, "end": end }),
            Error::LineBeyondEnd {
                start, total_lines, ..
            } => json!({ "start": start, "total_lines": total_lines }),
            Error::ByteBeyondEnd {
                start, file_size, ..
            } => json!({ "start": start, "file_size": file_size }),
            Error::InvalidUtf8 { offset } => json!({ "offset": offset }),
            Error::InvalidText { encoding, offset } => {
                json!({ "encoding": encoding, "offset": offset })
            }
            Error::Binary {
                mime, file_size, ..
            } => json!({ "mime": mime, "file_size": file_size }),
            Error::Denied {
                rule,
                file,
                setting,
                default,
                ..
            } => json!({
                "rule": rule,
                "file": file.to_string_lossy(),
                "setting": setting,
                "default": default,
            }),
            Error::RuleFile { file, reason, .. } => {
                json!({ "file": file.to_string_lossy(), "reason": reason })
            }
            Error::InvalidPath { reason, .. } => json!({ "reason": reason }),
            Error::InvalidPattern { pattern, .. } => json!({ "pattern": pattern }),
            Error::SessionNotFound { id } => json!({ "id": id }),
            #[cfg(feature = "sessions")]
            Error::NoMatchingSession { query, available } => {
                json!({ "query": query, "available": available })
            }
            #[cfg(feature = "sessions")]
            Error::StoreNotFound { store, .. } => json!({ "store": store }),
            Error::ImageTooLarge {
                width,
                height,
                limit,
                ..
            } => json!({ "width": width, "height": height, "limit": limit }),
            Error::FeatureDisabled { feature, .. } => json!({ "feature": feature }),
            // The size under the name a read's record gives it, where it is the file's.
            Error::TooLarge {
                unit, size, limit, ..
            } => match *unit {
                "lines" => {
                    json!({ "unit": unit, "size": size, "limit": limit, "total_lines": size })
                }
                "bytes" => json!({ "unit": unit, "size": size, "limit": limit, "file_size": size }),
                _ => json!({ "unit": unit, "size": size, "limit": limit }),
            },
            Error::PageBeyondEnd { start, page_count } => {
                json!({ "start": start, "page_count": page_count })
            }
            _ => json!({}),
        };
        match v {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        }
    }
}
