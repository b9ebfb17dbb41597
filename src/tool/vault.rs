//! The vault's `read_file`: numbered lines of a note inside a vault whose private parts
//! are protected.
//!
//! ```
//! use rangeread::tool::vault::VaultReadFile;
//! use rangeread::Workspace;
//!
//! let vault = Workspace::builder("tests").protect("secrets/").build()?;
//! let tool = VaultReadFile::new(vault);
//! let ok = tool.respond(serde_json::json!({"path": "data/sample.txt", "start_line": 2, "end_line": 3}));
//! assert!(ok.text.starts_with("2: line 2: the quick"));
//! let missing = tool.respond(serde_json::json!({"path": "data/nope.md"}));
//! assert_eq!(missing.text, r#"Error: File not found: "data/nope.md""#);
//! assert!(missing.is_error);
//! # Ok::<(), rangeread::Error>(())
//! ```

use serde::Serialize;

use crate::error::Result;
use crate::read::Reader;
use crate::render::{render, Format};
use crate::select::LineSelection;
use crate::tool::args::{self, deserialize_via_args, Args};
use crate::tool::{read_at, ToolResponse};
use crate::workspace::Workspace;

/// The parameters of the vault's `read_file`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(deny_unknown_fields))]
pub struct VaultReadParams {
    /// The note to read, relative to the vault root.
    pub path: String,
    /// First line to read, 1-based. Defaults to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub start_line: Option<u64>,
    /// Last line to read, inclusive. Defaults to the last line.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(range(min = 1)))]
    pub end_line: Option<u64>,
}

deserialize_via_args!(VaultReadParams);

impl VaultReadParams {
    fn from_args(a: Args) -> Result<VaultReadParams> {
        let (path, start_line, end_line) = a.path_and_range("path", "start_line", "end_line")?;
        Ok(VaultReadParams {
            path,
            start_line,
            end_line,
        })
    }
}

/// The vault's `read_file` tool: every path inside the vault [`Workspace`] (protected
/// paths refused with `Access denied: "P" is a protected path`), each line as
/// `N: line`, at most 2000 lines and 100 KiB per call (the reader's defaults) with the
/// note `[... truncated, showing lines S-E of N; continue with start_line=E+1]` when
/// more remains, and every error as `Error: MESSAGE`.
#[derive(Debug, Clone)]
pub struct VaultReadFile {
    reader: Reader,
    vault: Workspace,
}

impl VaultReadFile {
    /// The tool over the vault `vault`, with the default budgets.
    pub fn new(vault: Workspace) -> VaultReadFile {
        VaultReadFile {
            reader: Reader::new(),
            vault,
        }
    }

    /// Reads through `reader` (its budgets and policies) instead.
    pub fn reader(mut self, reader: Reader) -> VaultReadFile {
        self.reader = reader;
        self
    }

    /// Reads and numbers the lines.
    ///
    /// # Errors
    ///
    /// Whatever [`Reader::read_in`] returns.
    pub fn call(&self, params: &VaultReadParams) -> Result<String> {
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        let sel = LineSelection::range(params.start_line.map(i), params.end_line.map(i));
        let result = read_at(&self.reader, Some(&self.vault), &params.path, sel)?;
        Ok(render(&result, Format::Colon))
    }

    /// Parses the JSON arguments of a call and answers it; an error responds
    /// `Error: MESSAGE`.
    pub fn respond(&self, args: serde_json::Value) -> ToolResponse {
        let params = args::object(args).and_then(|m| VaultReadParams::from_args(Args::new(m)));
        match params.and_then(|p| self.call(&p)) {
            Ok(text) => ToolResponse::ok(text),
            Err(e) => ToolResponse::error(format!("Error: {e}")),
        }
    }
}
