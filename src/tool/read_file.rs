//! The unified `read_file` tool: [`ReadFileParams`] in, content and notes out.

use crate::config::Totals;
use crate::error::Result;
use crate::read::Reader;
use crate::render::notes;
use crate::result::ReadResult;
use crate::tool::{read_at, ReadFileParams, ToolResponse};
use crate::workspace::Workspace;

/// A `read_file` tool that accepts every dialect of [`ReadFileParams`].
///
/// It answers with the exact text of the selection, then the note lines of
/// [`ReadFile::notes`]: what was omitted, where to continue when a budget cut the read,
/// and where the rest of each line cut by the line-length budget starts.
/// By default it never counts a whole file just to report totals ([`Totals::IfKnown`]):
/// `head` and `tail` of a huge file cost only their bytes, and a line range costs one
/// counting pass up to it.
///
/// # Example
///
/// ```
/// use rangeread::tool::ReadFile;
/// use rangeread::Workspace;
///
/// let tool = ReadFile::new().workspace(Workspace::new("tests/data")?);
/// let r = tool.respond(serde_json::json!({"file_path": "sample.txt", "offset": 2, "limit": 1}));
/// assert!(r.text.starts_with("line 2: the quick brown fox"));
/// let r = tool.respond(serde_json::json!({"path": "../../Cargo.toml"}));
/// assert_eq!((r.is_error, r.text.as_str()), (true, r#"Path "../../Cargo.toml" is outside the workspace"#));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ReadFile {
    reader: Reader,
    workspace: Option<Workspace>,
}

impl Default for ReadFile {
    fn default() -> Self {
        ReadFile::with_reader(Reader::new().totals(Totals::IfKnown))
    }
}

impl ReadFile {
    /// The tool with the default budgets (2000 lines, 100 KiB, 2000 characters a line)
    /// and [`Totals::IfKnown`].
    pub fn new() -> ReadFile {
        ReadFile::default()
    }

    /// The tool reading through `reader` (its budgets, policies and totals).
    pub fn with_reader(reader: Reader) -> ReadFile {
        ReadFile {
            reader,
            workspace: None,
        }
    }

    /// Resolves paths inside `workspace` (confined to its root, protected paths
    /// refused); by default they are opened as given.
    pub fn workspace(mut self, workspace: Workspace) -> ReadFile {
        self.workspace = Some(workspace);
        self
    }

    /// Reads what the parameters select.
    ///
    /// # Errors
    ///
    /// The conflicts of [`ReadFileParams::selection`], then whatever [`Reader::read`]
    /// (or [`Reader::read_in`] with a workspace) returns.
    pub fn call(&self, params: &ReadFileParams) -> Result<ReadResult> {
        let sel = params.selection()?;
        read_at(&self.reader, self.workspace.as_ref(), &params.path, sel)
    }

    /// The notes of a result: [`crate::notes`] (omitted regions, continuation), then
    /// one line for each line the line-length budget cut (the first
    /// [`ReadFile::MAX_CUT_NOTES`], then a count), saying where the rest starts:
    /// `content` has no marker, and a model that sees only text must learn it here.
    pub fn notes(result: &ReadResult) -> Vec<String> {
        notes(result)
    }

    /// How many cut lines [`ReadFile::notes`] names one by one.
    pub const MAX_CUT_NOTES: usize = crate::render::MAX_CUT_NOTES;

    /// The text of a result as this tool sends it: the content, then each note of
    /// [`ReadFile::notes`] on a line of its own (after a line break if the content does
    /// not end with one).
    pub fn text(result: &ReadResult) -> String {
        let mut out = result.content.clone();
        for (i, note) in ReadFile::notes(result).iter().enumerate() {
            if i == 0 && !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(note);
            out.push('\n');
        }
        out
    }

    /// Parses the JSON arguments of a call and answers it; an error's response is its
    /// message.
    pub fn respond(&self, args: impl crate::tool::JsonArgs) -> ToolResponse {
        match ReadFileParams::from_json(args).and_then(|p| self.call(&p)) {
            Ok(r) => ToolResponse::ok(ReadFile::text(&r)),
            Err(e) => ToolResponse::error(e.to_string()),
        }
    }
}
