//! What a dialect's answer looks like: the `output` part of a [`crate::tool::Dialect`] (line
//! templates, header and footer, notes, markers, the outline, the answer's form).

use serde::{Deserialize, Serialize};

use crate::tool::dialect::role::Role;

/// What the answer looks like.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Output {
    /// The answer's form.
    pub form: Form,
    /// Each line (`{n}`: its number, `{line}`: its text, terminator dropped), such as
    /// `L{n}: {line}` or `{n:>6}\t{line}`; `None`: the content as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// Drop the CR of a CRLF line end.
    pub strip_cr: bool,
    /// With [`Output::strip_cr`], keep a CR that ends the file without an LF after it
    /// (Gemini CLI splits on `\r?\n`); by default it is dropped too (Claude Code's Read).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub keep_final_cr: bool,
    /// End the last line with a line feed (by default lines are joined by `\n`, the
    /// last one without).
    pub final_newline: bool,
    /// Before the lines (`{path}`, `{range}`, `{lang}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// `{range}` of a partial line read (`{start}`, `{end}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    /// `{range}` of a byte read (`{start}`, `{end}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte_range: Option<String>,
    /// Number the lines of a byte read too (by default its text is shown as it is).
    pub number_bytes: bool,
    /// After the lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footer: Option<String>,
    /// After a read cut by a budget (`{start}`, `{end}`, `{total}`, `{next}`,
    /// `{budget}`); in byte reads `{start}`/`{end}` are bytes and `{total}` the size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<String>,
    /// After a read cut by a budget the agent's own tool does not have (a host's), in
    /// a dialect without [`Output::truncated`]: where to continue, in the tool's voice
    /// (the values of [`Output::truncated`], and `{path}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub continuation: Option<String>,
    /// [`Output::truncated`] of a byte read; by default the line form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_bytes: Option<String>,
    /// `{next}` of a read that stopped at a line (`{line}`; `{skip}`: the lines before
    /// it, for tools that take lines to skip).
    pub next_line: String,
    /// `{next}` of a read that stopped inside a line (`{byte}`).
    pub next_byte: String,
    /// After a partial read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_note: Option<String>,
    /// After a line cut at the line budget (`{more}`: bytes left out, `{next}`: where
    /// the rest starts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_marker: Option<String>,
    /// The whole answer for an empty file (or one that holds only a byte order mark).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty: Option<String>,
    /// After a read without a range: the file's outline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outline: Option<OutlineForm>,
    /// How an error reads (`{message}`).
    pub error: String,
    /// Cut each shown line to at most this many UTF-8 bytes, on a character boundary
    /// (Codex: 500), marked with [`Output::cut_marker`] if it has one. The reader's
    /// characters-a-line budget ([`crate::tool::Limits::max_line_chars`]) still bounds what is read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_max_bytes: Option<u64>,
    /// Before the lines of a read that is not the whole file, or that cut a line
    /// (`{start}`, `{end}`: the lines shown, `{total}`, `{next}`: the line after them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_header: Option<String>,
    /// The ways of reading (`tail`, ...) whose answer drops the CR of CRLF line ends,
    /// numbered or not ([`Output::strip_cr`] does it for numbered lines of every read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub strip_cr_for: Vec<Role>,
    /// The ways of reading (`head`, ...) whose answer has no final line feed: the
    /// lines joined by `\n`, as the MCP filesystem server's `headFile` joins them (a
    /// CR before it stays).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub no_final_newline_for: Vec<Role>,
    /// Send the text also as structured content, `{KEY: text}` (the MCP filesystem
    /// server's `{content}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_key: Option<String>,
    /// Each line keeps its own line end (a CRLF stays, the last line ends as the file
    /// does), as Zed's `cat -n` numbering does; by default lines are joined by `\n` (see
    /// [`Output::final_newline`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub keep_line_ends: bool,
    /// Before the footer, when the file goes on after the last line shown and no budget
    /// cut the read (`{end}`: the last line shown, `{next}`: the line after it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
    /// `{range}` of the header names the lines as the call asked for them (its numbers;
    /// an open end as `end`), whenever the call named a range; by default it names the
    /// lines read, for a partial read only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub range_asked: bool,
    /// After the lines, when the file is not valid UTF-8 (its invalid bytes read as
    /// U+FFFD).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_utf8_note: Option<String>,
    /// After the lines, when the first bytes of a file read as UTF-8 hold a NUL byte
    /// ([`Output::nul_note_bytes`] of them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nul_note: Option<String>,
    /// How many bytes at the start of the file (a byte order mark counted) the NUL note
    /// looks at; 8 KiB by default. Claude Code looks at 8,000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nul_note_bytes: Option<u64>,
    /// After the lines of a file that starts `FE FF` (a UTF-16BE byte order mark), in
    /// place of the other notes: a tool that does not read that mark says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub utf16be_note: Option<String>,
    /// The invalid-UTF-8 note looks at the whole file when it is smaller than this many
    /// bytes, whatever the read selects (Claude Code reads such a file whole and judges
    /// all of it: under 10 MiB); otherwise at the text read and the first 8 KiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes_whole_file_under: Option<u64>,
    /// Where a line cut by [`Output::line_max_bytes`] ends.
    pub line_byte_cut: ByteCut,
    /// The line template when a call turns numbering off ([`Role::LineNumbers`]
    /// `false`); by default the content is shown as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unnumbered_line: Option<String>,
    /// Cut the text at this many characters before it is numbered, and end it with a
    /// notice (which so ends up in the last, partial line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clip: Option<Clip>,
    /// `[from, to]` pairs replaced in the text of each line: markup of the answer's
    /// wrapper kept out of the content (CDATA's `]]>`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub escape_lines: Vec<(String, String)>,
    /// `[from, to]` pairs replaced in the path a header shows (an XML attribute's `"`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub escape_path: Vec<(String, String)>,
}

/// Where a line cut at a number of bytes ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByteCut {
    /// At the last character boundary at or before the limit: at most that many bytes
    /// (Codex's `take_bytes_at_char_boundary`). The default.
    #[default]
    Floor,
    /// After every character that starts before the limit: a character across it is
    /// kept whole, up to 3 bytes over (Forge's `truncate_line`).
    Ceil,
}

/// A cut of the whole text at a number of characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clip {
    /// The most characters of text shown.
    pub chars: u64,
    /// What follows a cut text (or, with [`ClipKeep::HeadAndTail`], what stands for the
    /// middle left out).
    pub notice: String,
    /// Which part of a longer text is kept; by default its head.
    #[serde(default, skip_serializing_if = "ClipKeep::is_head")]
    pub keep: ClipKeep,
}

/// Which part of a text over [`Clip::chars`] is kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClipKeep {
    /// The first `chars` characters, then the notice (openhands-aci's `maybe_truncate`).
    #[default]
    Head,
    /// The head and the tail, the notice between them, `chars` characters in all
    /// (notice included; the head gets the odd one): openhands-tools' `maybe_truncate`,
    /// which keeps both ends of a long file in view.
    HeadAndTail,
}

impl ClipKeep {
    fn is_head(&self) -> bool {
        *self == ClipKeep::Head
    }
}

impl Default for Output {
    fn default() -> Self {
        Output {
            form: Form::Text,
            line: None,
            strip_cr: false,
            keep_final_cr: false,
            final_newline: false,
            header: None,
            range: None,
            byte_range: None,
            number_bytes: false,
            footer: None,
            truncated: None,
            continuation: None,
            truncated_bytes: None,
            next_line: "start_line={line}".into(),
            next_byte: "start_byte={byte}".into(),
            partial_note: None,
            cut_marker: None,
            empty: None,
            outline: None,
            error: "{message}".into(),
            line_max_bytes: None,
            partial_header: None,
            strip_cr_for: Vec::new(),
            no_final_newline_for: Vec::new(),
            structured_key: None,
            keep_line_ends: false,
            more: None,
            range_asked: false,
            invalid_utf8_note: None,
            nul_note: None,
            nul_note_bytes: None,
            utf16be_note: None,
            notes_whole_file_under: None,
            line_byte_cut: ByteCut::Floor,
            unnumbered_line: None,
            clip: None,
            escape_lines: Vec::new(),
            escape_path: Vec::new(),
        }
    }
}

/// The outline shown after a read without a range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutlineForm {
    /// Before the entries.
    pub title: String,
    /// Each landmark (`{line}`, `{text}`).
    pub entry: String,
    /// When the outline stopped early (`{lines}`: lines it covers).
    pub incomplete: String,
    /// After the entries.
    pub end: String,
}

/// The form of an answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// Text, shaped by the other fields of [`Output`].
    #[default]
    Text,
    /// The content, then the notes (omitted regions, where to continue, cut lines) as
    /// a second block, and [`crate::tool::ReadMetadata`] as structured content: the unified
    /// `read_file`.
    ContentAndNotes,
    /// Cursor's `session_read_file` JSON ([`crate::tool::SessionReadFileResponse`]).
    SessionJson,
    /// `fs_read`'s JSON `{content, metadata}` ([`crate::tool::FsReadResponse`]).
    RangeJson,
}
