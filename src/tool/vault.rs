//! The vault's `read_file`: numbered lines of a note inside a vault whose private parts
//! are protected.
//!
//! The output is the seed's exactly: each line as `N: line`, and, when a budget stopped
//! the read, one last line `[... truncated, showing lines S-E of N; continue with
//! start_line=E+1]`. Nothing else is added, except on a line cut at the line-length
//! budget (2000 characters), which ends with `… [line truncated: N more bytes; read the
//! rest with start_byte=B]`: `start_byte` (not in the seed) reads from any byte on.
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

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::config::Totals;
use crate::error::Result;
use crate::read::Reader;
use crate::result::ReadResult;
use crate::select::{ByteSelection, LineSelection, Selection};
use crate::tool::args::{self, deserialize_via_args, missing, param, Args, JsonArgs};
use crate::tool::{lines_of, read_at, ToolResponse};
use crate::workspace::Workspace;

/// The tool's description, as served to models.
pub const DESCRIPTION: &str = "Read a note (or any text file) in the vault. Each line \
    comes back as `N: line`. start_line and end_line (1-based, inclusive) select lines; at \
    most 2000 lines and 100 KiB are returned per call, and a cut read ends with \
    `[... truncated, showing lines S-E of N; continue with start_line=E+1]`. A line longer \
    than 2000 characters is cut and marked; read the rest with start_byte. Private paths \
    are refused.";

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
    /// Read from this byte on instead (0-based): the rest of a cut line, or a page of a
    /// file with very long lines. Not with start_line/end_line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_byte: Option<u64>,
}

deserialize_via_args!(VaultReadParams);

impl VaultReadParams {
    fn from_args(mut a: Args) -> Result<VaultReadParams> {
        let path = a.string(&["path"])?;
        let start_line = a.uint(&["start_line"])?;
        let end_line = a.uint(&["end_line"])?;
        let start_byte = a.uint(&["start_byte"])?;
        a.finish("path, start_line, end_line, start_byte")?;
        let p = VaultReadParams {
            path: path.ok_or_else(|| missing(&["path"]))?.1,
            start_line: start_line.map(|v| v.1),
            end_line: end_line.map(|v| v.1),
            start_byte: start_byte.map(|v| v.1),
        };
        p.selection()?;
        Ok(p)
    }

    fn selection(&self) -> Result<Selection> {
        if let Some(b) = self.start_byte {
            if let Some(other) = [("start_line", self.start_line), ("end_line", self.end_line)]
                .iter()
                .find(|(_, v)| v.is_some())
            {
                return Err(param(
                    "start_byte",
                    format!(
                        "Conflicting parameters: {} and start_byte cannot be used together; \
                         select lines with start_line/end_line, or bytes with start_byte",
                        other.0
                    ),
                ));
            }
            return Ok(ByteSelection::new(Some(b), None).into());
        }
        let i = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        Ok(LineSelection::range(self.start_line.map(i), self.end_line.map(i)).into())
    }
}

/// The vault's `read_file` tool: every path inside the vault [`Workspace`] (protected
/// paths refused with `Access denied: "P" is a protected path`), each line as
/// `N: line`, at most 2000 lines and 100 KiB per call (the reader's defaults) with the
/// one line `[... truncated, showing lines S-E of N; continue with start_line=E+1]`
/// when more remains, and every error as `Error: MESSAGE`.
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
    /// A conflict of `start_byte` with the line parameters, then whatever
    /// [`Reader::read_in`] returns.
    pub fn call(&self, params: &VaultReadParams) -> Result<String> {
        let sel = params.selection()?;
        // A byte read numbers its lines too: count up to it.
        let reader = match sel {
            Selection::Bytes(_) => self.reader.clone().totals(Totals::Always),
            _ => self.reader.clone(),
        };
        let result = read_at(&reader, Some(&self.vault), &params.path, sel)?;
        let out = render(&result);
        reader.recycle(result.content);
        Ok(out)
    }

    /// Parses the JSON arguments of a call and answers it; an error responds
    /// `Error: MESSAGE`.
    pub fn respond(&self, args: impl JsonArgs) -> ToolResponse {
        let params = args::args_of(args).and_then(VaultReadParams::from_args);
        match params.and_then(|p| self.call(&p)) {
            Ok(text) => ToolResponse::ok(text),
            Err(e) => ToolResponse::error(format!("Error: {e}")),
        }
    }
}

/// `N: line` for each line, the cut marker on cut lines, and the one truncation line.
fn render(r: &ReadResult) -> String {
    let cuts: HashMap<u64, _> = r.cut_lines.iter().map(|c| (c.line, c)).collect();
    let first = r.lines.map(|l| l.start);
    let mut out = String::with_capacity(r.content.len() + r.content.len() / 8);
    for (i, line) in lines_of(&r.content).enumerate() {
        let n = first.map(|f| f + i as u64);
        match n {
            Some(n) => {
                let _ = write!(out, "{n}: ");
            }
            None => out.push_str("?: "),
        }
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
        if let Some(c) = n.and_then(|n| cuts.get(&n)) {
            let _ = write!(
                out,
                "… [line truncated: {} more bytes; read the rest with start_byte={}]",
                c.total_bytes - c.shown_bytes,
                c.next_start_byte
            );
        }
        out.push('\n');
    }
    if let Some(t) = r.truncated {
        let next = match t.next_start_line {
            Some(n) => format!("start_line={n}"),
            None => format!("start_byte={}", t.next_start_byte),
        };
        match (r.requested.bytes, r.lines) {
            (None, Some(l)) => {
                let of = r
                    .total_lines
                    .map_or_else(|| "?".to_string(), |n| n.to_string());
                let _ = writeln!(
                    out,
                    "[... truncated, showing lines {}-{} of {of}; continue with {next}]",
                    l.start, l.end
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "[... truncated, showing bytes {}-{} of {}; continue with {next}]",
                    r.bytes.start, r.bytes.end, r.file_size
                );
            }
        }
    }
    out
}
