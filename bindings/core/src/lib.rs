//! What the Python and Node bindings of `rangeread` share, so that both answer alike and
//! neither has logic of its own: a call's keyword options (a JSON object, as each
//! language hands it over) become a [`Reader`], a [`Request`], a [`Workspace`] or a
//! [`DialectTool`]; a read's result becomes JSON equal to the Rust result's; an error
//! becomes a [`BindError`] carrying the crate's `ErrorKind` name; a panic becomes an
//! error, never an abort.
//!
//! Option names are the Rust API's in snake_case; Node's camelCase spellings
//! (`maxLines`) are the same options. Every message names the option as the caller
//! spelled it.
//!
//! ```
//! use rangeread_bindings::{options, read, Place, Request};
//! use serde_json::json;
//!
//! let reader = options::reader(json!({"max_lines": 0}))?;
//! let request = options::request(json!({"lines": "2:+1"}))?;
//! let out = read(&reader, Place::Path, "../../tests/data/sample.txt", &request)?;
//! assert_eq!(out.to_json()["lines"], json!({"start": 2, "end": 3}));
//! # Ok::<(), rangeread_bindings::BindError>(())
//! ```

#![deny(missing_docs)]

mod error;
pub mod options;
mod output;
mod respond;

pub use error::{guard, BindError};
pub use options::Request;
pub use output::{parse_format, read, Output, Place};
pub use respond::{dialect_json, response_json, Scope};

pub use rangeread;
