//! What a read without a range of a large file answers, as data (answered by
//! `render::oversize`), for tools that answer it with
//! the file's outline rather than its first page (Zed's `read_file`).

use serde::{Deserialize, Serialize};

use crate::config::OutlineDetail;

/// What a read without a range of a file larger than [`Oversize::bytes`] answers: the
/// file's outline (its landmarks: definitions, headings) in a wrapper that says how to
/// read a part; for a file without landmarks, its first [`Oversize::head_bytes`] bytes
/// (cut back to a character boundary) in a wrapper of their own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Oversize {
    /// Files larger than this many bytes.
    pub bytes: u64,
    /// Before the landmarks (`{path}`: the file's absolute path).
    pub outline_title: String,
    /// Each landmark: `{indent}` ([`Oversize::outline_indent`] once per enclosing
    /// landmark), `{text}` (its trimmed line), `{name}` (its name as an editor's symbol
    /// outline shows it, `struct Test0`, or its text where the language's rules know no
    /// name), `{line}` (its first line), `{lines}` (`L` then its line, or `first-last`
    /// when the block it opens is known to span several).
    pub outline_entry: String,
    /// After the landmarks (`{count}`: how many).
    pub outline_end: String,
    /// Around the outline (`{body}`).
    pub outline_wrapper: String,
    /// How many bytes a file without landmarks shows from its start.
    pub head_bytes: u64,
    /// Before them (`{path}`).
    pub head_title: String,
    /// Around them (`{body}`).
    pub head_wrapper: String,
    /// `{indent}` of an entry, once per level of depth.
    #[serde(default)]
    pub outline_indent: String,
    /// What the outline lists: by default the definitions; `members` adds the fields and
    /// variants of types under them, as Zed's tree-sitter outline does.
    #[serde(default)]
    pub outline_detail: OutlineDetail,
}
