//! What read tools differ on, as data: a [`Dialect`] names a tool's parameters and what
//! each means, its defaults and caps, what it does past the end of a file and over a
//! cap, how its answer looks and what its errors say. One decoder and one renderer
//! ([`crate::tool::DialectTool`]) serve every dialect; the presets are dialect values written as
//! JSON (`src/tool/dialect/presets/*.json`), and a host's own tool is one more value.

pub(crate) mod caps;
pub(crate) mod doc_forms;
pub(crate) mod form;
pub(crate) mod listing;
pub(crate) mod oversize;
pub(crate) mod presets;
pub(crate) mod project_rules;
pub(crate) mod role;
pub(crate) mod schema;
pub(crate) mod template;
pub(crate) mod validation;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::budget::LineUnit;
use crate::config::{ControlBytes, Detection, EncodingPolicy, LineEndings, NulBytes};
use crate::decode::CodecTables;
use crate::decode::Utf8Policy;

/// A read tool's behaviour, as data. See the [`tool`](crate::tool) module.
///
/// Build one from a preset ([`Dialect::preset`]) and change what differs, or deserialize
/// your own from JSON (the presets' files are examples of every field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dialect {
    /// The preset's name (`codex`, `claude-code`, `vault` ...), or your own.
    pub preset: String,
    /// The tool's name as the model calls it (`read_file`, `Read`, `view` ...).
    pub name: String,
    /// A short human title (MCP's `annotations.title`).
    #[serde(default)]
    pub title: String,
    /// The description the model reads. `{images}` and `{pdfs}` in it stand for what the
    /// image and PDF readers of the build do (features `images` and `pdf`): the served
    /// description ([`DialectTool::definition`](crate::tool::DialectTool::definition))
    /// promises no read the build refuses.
    pub description: String,
    /// Where the behaviour comes from: repository and commit, or release.
    #[serde(default)]
    pub source: String,
    /// The parameters, in the order the schema lists them.
    pub params: Vec<Param>,
    /// Extra keys of the input schema's top level (for example `$schema`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub schema: Map<String, Value>,
    /// How paths are taken and shown.
    #[serde(default)]
    pub paths: PathRules,
    /// How line selections are defaulted, capped and widened, and what happens past the end.
    #[serde(default)]
    pub lines: LineRules,
    /// The budgets of one call.
    #[serde(default)]
    pub limits: Limits,
    /// Caps that refuse instead of paging.
    #[serde(default)]
    pub caps: Caps,
    /// What the answer looks like.
    #[serde(default)]
    pub output: Output,
    /// The texts of errors that differ from the library's.
    #[serde(default)]
    pub errors: ErrorTexts,
    /// Ignore parameters the tool does not take, as a handler without
    /// `deny_unknown_fields` does; the schema then leaves out `additionalProperties:
    /// false`. By default an unknown parameter is refused, naming it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignore_unknown: bool,
    /// How the file's bytes become text: by default classified (binary refused,
    /// UTF-16/32 and legacy encodings decoded) and decoded lossily.
    #[serde(default)]
    pub decoding: Decoding,
    /// Rules on the file itself: extensions that are binary, what a binary or a too
    /// large file answers.
    #[serde(default, skip_serializing_if = "FileRules::is_default")]
    pub files: FileRules,
    /// A directory answers its listing in this form; by default it is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory: Option<listing::Listing>,
    /// A read without a range of a file over a size answers its outline instead (or
    /// its first bytes, when it has none); by default it answers the content, paged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oversize: Option<oversize::Oversize>,
    /// How a page-range parameter ([`Role::Pages`]) is checked; `None`: any text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<PageRules>,
    /// What the tool does with images, PDFs and notebooks; by default it reads none
    /// (images and PDFs are binary, a notebook is JSON text).
    #[serde(
        default,
        skip_serializing_if = "crate::tool::dialect::doc_forms::Documents::is_default"
    )]
    pub documents: crate::tool::dialect::doc_forms::Documents,
    /// The project's rule files the agent honours, and its words for a refusal; by
    /// default none.
    #[serde(
        default,
        skip_serializing_if = "crate::tool::dialect::project_rules::ProjectRules::is_default"
    )]
    pub rules: crate::tool::dialect::project_rules::ProjectRules,
    /// How the values of numbers and ranges are checked for type, as the agent's own
    /// schema validator checks them; by default leniently (see [`Arguments`]).
    #[serde(default, skip_serializing_if = "Arguments::is_default")]
    pub arguments: Arguments,
}

/// How a tool's arguments are checked for type before their values: what a number may
/// be sent as, whether `null` is a value, and the refusal's words.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Arguments {
    /// What a number parameter (a line, a count, a byte) and the items of a `[start,
    /// end]` range accept.
    pub integers: Integers,
    /// `null` is a value of the wrong type (JSON Schema and zod refuse it); by default
    /// a parameter given as `null` counts as absent.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub null_refused: bool,
    /// The refusal of a value of the wrong type: `{name}` as spelled, `{expected}`: the
    /// type the parameter's schema publishes (`integer`, `number`, `string`), `{got}`:
    /// the JSON type sent (`string`, `boolean`, `null`, `number`, `array`, `object`),
    /// `{value}`, `{unexpected}`: the value as serde's errors name it (`string "3"`,
    /// ``floating point `2.0` ``), `{tool}`: the tool's name. By default the library's
    /// `Invalid NAME: expected ..., got VALUE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_error: Option<String>,
    /// The agent's validator's report ([`Validation`](crate::tool::Validation)): a value
    /// it refuses is answered so, before the tool's checks, without [`Output::error`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<crate::tool::dialect::validation::Validation>,
    /// A one-element array sent for a parameter that is not an array is read as its
    /// element (`offset: [2]` is 2), as Claude Code's input normalizer does; by default
    /// it is a value of the wrong type.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unwrap_single: bool,
    /// Names dropped from a call before its parameters are read, neither advertised nor
    /// refused (Claude Code's normalizer drops `description`); by default a name no
    /// parameter takes is refused ([`ErrorTexts::unknown`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
}

impl Arguments {
    fn is_default(&self) -> bool {
        *self == Arguments::default()
    }
}

/// What a number parameter accepts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Integers {
    /// A JSON integer, an integral float (`2.0`), or a string of digits (`"2"`), as
    /// models send them. The default.
    #[default]
    Lenient,
    /// JSON Schema's `integer` (ajv: Gemini CLI): a number without a fraction, `2.0`
    /// included; a string or a boolean is refused.
    Integral,
    /// Python's `isinstance(x, int)` (OpenHands): an integer, or a boolean (`true` is
    /// 1); a float, `1.0` included, and a string are refused.
    Python,
    /// Any JSON number (zod's `number`: the MCP filesystem server); a fraction is
    /// rounded as the parameter's [`Param::fraction`] says, else refused. A string or a
    /// boolean is refused.
    Number,
    /// serde's `u64` (rust-mcp-filesystem): a JSON integer, a negative one left to the
    /// parameter's [`Param::negative`]; a float (`2.0` too), a string, a boolean and a
    /// required parameter's `null` are refused, and a boolean parameter takes only
    /// `true` or `false`.
    Unsigned,
    /// A string holding a number is that number, then zod's `number().int()` (Claude
    /// Code's Read): a number without a fraction is taken; a fraction is refused with
    /// `{expected}` `int`, any other type (a boolean, other text) with `{expected}`
    /// `number`.
    CoercedInt,
    /// pydantic's lax `int` (the OpenHands SDK's tool arguments): an integer, a boolean
    /// (`true` is 1), an integral float (`1.0`) or a string of digits (`"2"`), made an
    /// integer before the tool sees it (a refusal then quotes `[2, 4]`); a fraction is
    /// refused.
    Pydantic,
}

/// How a fraction sent for a count becomes a whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Up: a loop `while (lines < 2.5)` reads 3 lines.
    Ceil,
    /// Toward zero: `slice(-2.5)` keeps the last 2.
    Trunc,
}

/// How a tool turns a file's bytes into text: the [`Reader`](crate::Reader) options of
/// the same names, which a host's reader can override
/// ([`DialectTool::reader`](crate::tool::DialectTool::reader)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Decoding {
    /// `auto` (classify: binary refused, encodings found), `assume_utf8` (every file
    /// is UTF-8 text, a byte order mark included as U+FEFF: Codex's lossy line reader),
    /// `nul_means_binary`, `byte_order_mark`, `utf16le_mark` or `magic_only` ([`Detection`]).
    pub detection: Detection,
    /// `lossy` (invalid sequences become U+FFFD) or `strict` (refused).
    pub utf8: Utf8Policy,
    /// `detect` (legacy encodings guessed), `no_legacy`, `utf8_first`, or an encoding's label
    /// ([`EncodingPolicy`]).
    #[serde(skip_serializing_if = "is_default")]
    pub encoding: EncodingPolicy,
    /// `in_sample` or `in_read`: where a NUL byte makes a file binary ([`NulBytes`]).
    #[serde(skip_serializing_if = "is_default")]
    pub nul_bytes: NulBytes,
    /// `share`, `tolerated`, `in_head`, `sample_shares` or `suspicious_share`: whether control bytes make a file binary
    /// ([`ControlBytes`]).
    #[serde(skip_serializing_if = "is_default")]
    pub control_bytes: ControlBytes,
    /// A file without a byte order mark is binary when more than this share of its
    /// first 8 KiB is not valid UTF-8 (`isbinaryfile`: 0.1); by default such a file is
    /// decoded in the legacy encoding it looks like
    /// ([`Reader::invalid_utf8_binary`](crate::Reader::invalid_utf8_binary)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_utf8_binary: Option<f64>,
    /// `keep` or `lf` (each CR LF an LF in the content the tool renders; [`LineEndings`]).
    #[serde(skip_serializing_if = "is_default")]
    pub line_endings: LineEndings,
    /// `whatwg` or `python`: whose tables decode a legacy encoding ([`CodecTables`]; a
    /// Python agent's are Python's codecs').
    #[serde(skip_serializing_if = "is_default")]
    pub tables: CodecTables,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// One parameter of a tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// The name the schema advertises.
    pub name: String,
    /// Other spellings accepted (not advertised); a call giving two spellings of one
    /// parameter is refused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// What the parameter means.
    pub role: Role,
    /// Whether a call must give it.
    #[serde(default)]
    pub required: bool,
    /// Its description in the schema.
    #[serde(default)]
    pub description: String,
    /// Its JSON Schema when the role's default (type, minimum) is not what the tool
    /// publishes; `description` is added from the field above.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub schema: Map<String, Value>,
    /// What a 0 means; by default 0 is refused for line numbers and kept for counts and
    /// bytes. On a [`Role::LineRange`] parameter, `keep` reads a start of 0 as line 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zero: Option<Special>,
    /// What a negative number means; by default it is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative: Option<Special>,
    /// For a [`Role::Command`]: the commands this tool serves (the others are refused
    /// with [`ErrorTexts::command`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub serves: Vec<String>,
    /// A positive fraction sent for this number, under [`Integers::Number`], is rounded
    /// so; by default it is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fraction: Option<Rounding>,
}

/// What a special value (0, a negative number) of a numeric parameter does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    /// Refused with the library's message for that parameter.
    Refuse,
    /// Refused with this text (`{name}`: the parameter as spelled, `{value}`).
    Message(String),
    /// Taken as if the parameter was not given.
    Absent,
    /// Kept: a negative line counts from the end (`-1` is the last line); `offset: 0`
    /// reads from line 1 and numbers the lines from 0 (as Claude Code's Read does).
    Keep,
    /// For a `head` or `tail` count: read no line, a successful empty answer, as a loop
    /// `while (lines < n)` does with a negative `n` (the MCP filesystem server's `head:
    /// -1`).
    Empty,
}

pub use crate::tool::dialect::role::Role;

/// How paths are taken and shown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PathRules {
    /// Refuse a relative path with this text (`{path}`); by default a relative path is
    /// resolved against the workspace root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub require_absolute: Option<String>,
    /// How a path is shown in answers: as the caller gave it (`relative`, the default: a
    /// relative path stays relative, so the host's layout stays private), or `absolute`.
    pub show: PathShow,
    /// How symbolic links are judged: `beneath` the root at every step (the default), or
    /// followed wherever they point as long as the real path lies `inside` an allowed
    /// directory.
    pub links: Links,
    /// A relative path starts with the name of the root it lies in (the root
    /// directory's last component), as Zed names files by worktree: `project/src/a.rs`
    /// is `src/a.rs` in the root `/home/me/project`. A path whose first component names
    /// no root is read in the first root. By default a relative path is resolved in the
    /// (first) root as it is.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub named_roots: bool,
    /// An empty path names the workspace root (Claude Code's Read: `""` is the working
    /// directory); by default an empty path is refused.
    pub empty_is_root: bool,
    /// Paths under these prefixes are refused by name, before anything is opened
    /// (devices and process files: `/dev/`, `/proc/`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_prefixes: Option<NameRefusal>,
    /// Files with these extensions are refused before they are opened, whatever they hold
    /// (`.zip`, `.exe` ...; `{ext}` in the message: the extension with its dot, lower
    /// case); the first refusal that names the extension answers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused_extensions: Vec<NameRefusal>,
    /// Appended to the [`PathRules::require_absolute`] refusal when the relative path
    /// names something in the workspace (`{path}`: its absolute path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggest_absolute: Option<String>,
    /// The path is resolved and confined before the selection's parameters are checked
    /// together (the MCP filesystem server's `validatePath` runs before it refuses `head`
    /// with `tail`); by default a conflict is refused before the path is looked at.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub before_selection: bool,
    /// How `{dirs}` in a refusal names the last allowed directory of several (`{dir}`),
    /// after the others joined with `, `: Gemini CLI names its project temp directory,
    /// which a host gives as the last root, apart (` or the project temp directory:
    /// {dir}`). By default every directory is joined with `, `.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_root: Option<String>,
}

/// A refusal by name: a path matching one of `names` is answered with `message`
/// (`{path}`: the path as given, `{ext}`: its extension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRefusal {
    /// The prefixes or extensions (extensions with their dot, lower case).
    pub names: Vec<String>,
    /// The answer.
    pub message: String,
    /// For [`PathRules::refused_extensions`]: `names` are endings of the path as given,
    /// compared without regard to ASCII case, instead of extensions: a file named only
    /// `.png` is refused by `.png` too (Forge's image gate), and an ending may hold
    /// several dots (`.tar.gz`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub match_suffix: bool,
}

/// How a tool judges the symbolic links on a path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Links {
    /// Every step of the resolution stays beneath the root, as Linux
    /// `openat2(RESOLVE_BENEATH)` resolves (see [`crate::Workspace`]): a link with an
    /// absolute target is refused even when it points inside.
    #[default]
    Beneath,
    /// As `realpath` then a containment check (the MCP filesystem server, Gemini CLI):
    /// the path is made absolute and `..` folded by its spelling, it must lie in an
    /// allowed directory, and so must its real path (links followed, absolute ones too);
    /// a file that does not exist is judged by its directory's real path. The file is
    /// then opened beneath the allowed directory that holds its real path, so a link
    /// swapped in meanwhile is refused, not followed.
    Inside,
}

/// How a tool shows the path it read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathShow {
    /// As the caller gave it: a path relative to the workspace root stays relative, an
    /// absolute one stays absolute (nothing is made relative).
    #[default]
    Relative,
    /// The absolute path on the host.
    Absolute,
}

/// How line selections are defaulted, capped and widened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LineRules {
    /// Lines a read returns when the call gives no count (Codex and Gemini CLI: 2000);
    /// `None`: to the end, within the budgets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_limit: Option<u64>,
    /// The most lines a call that names a range returns (Cursor: 250); `None`: the
    /// line budget of [`Limits::max_lines`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranged_max: Option<u64>,
    /// A range shorter than this is widened around the request to this many lines
    /// (Cursor: 200), clamped to the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub widen_to: Option<u64>,
    /// The ways of selecting to which `start_line`/`end_line` give way when both are
    /// given (Cursor always sends its line parameters: reading the entire file, or
    /// `start_byte`, wins over them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines_yield_to: Vec<Role>,
    /// A first line without a last line reads at most
    /// [`LineRules::default_limit`] lines from it, as Gemini CLI slices
    /// `start_line` to `start_line + 2000`; by default such a range reads to the end of
    /// the file, within the budgets. (A range with its last line has no cap but the
    /// budgets: set [`Limits::max_lines`] to 0 for a tool that has none.)
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub open_range_limit: bool,
    /// What a first line past the end does.
    pub past_end: PastEndAnswer,
    /// What a call without a selection reads: the whole text by `lines` (the default),
    /// or by `bytes` (a byte-range tool: no line-length cut).
    pub whole: Unit,
    /// Refuse a read without a range of a file longer than this many lines (Goose).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refuse_unranged_over: Option<Refusal>,
    /// A file that ends with a line feed has one more, empty, line after it, as
    /// splitting the text on `\n` gives (Claude Code's Read: `a\nb\n` has 3 lines;
    /// Gemini CLI's header counts it; the MCP filesystem server's `tail: 2` of
    /// `a\nb\n` is `b\n`, the empty line one of the two).
    pub split_lines: bool,
    /// With `split_lines`: a tail of at least as many lines as the file has is the whole
    /// file, not the file less its first line (rust-mcp-filesystem 0.4.5 counts the
    /// line feeds first, and reads from the start when they are no more than asked for).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub tail_counts_line_feeds: bool,
    /// `start_line`/`end_line` out of order are read, not refused, as Zed reads them: a
    /// start of 0 is line 1, an end before the start (0 included) reads the start line
    /// alone (0s reach the range when the parameters keep them: `"zero": "keep"`). By
    /// default such a range is refused.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lenient_range: bool,
    /// A range whose end is before its start is read from the end to the start (a
    /// start of 0 or none then means line 1), instead of refused.
    pub swap_reversed: bool,
    /// [`LineRules::split_lines`] for reads without a range only: the whole text split
    /// on `\n` shows an empty last line after a final line feed, while ranges count
    /// lines as usual (OpenHands' view).
    pub split_whole: bool,
    /// A ranged read's lines are split again at every line end Python's
    /// `str.splitlines` knows besides LF (VT, FF, FS, GS, RS, NEL, U+2028, U+2029) and
    /// numbered on from the range's first line, as OpenHands' ranged view does; its
    /// whole view splits on LF alone. Off by default: a range shows its lines.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ranged_python_line_ends: bool,
    /// Check a [`Role::LineRange`] against the file's line count before reading, with
    /// these texts, instead of the library's checks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_checks: Option<RangeChecks>,
}

/// The checks of a `[start, end]` line range made against the file's line count, and
/// their texts (`{name}`: the parameter, `{value}`: the range as given, `{start}`,
/// `{end}`, `{total}`: the file's lines). An empty range counts as absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeChecks {
    /// Not two integers.
    pub shape: String,
    /// A start before line 1 or past the last line.
    pub start: String,
    /// An end (past-the-end clamped, `-1` the last line) before the start.
    pub order: String,
    /// Before the answer when the end was past the last line and clamped.
    pub clamped: String,
}

impl Default for LineRules {
    fn default() -> Self {
        LineRules {
            default_limit: None,
            ranged_max: None,
            widen_to: None,
            lines_yield_to: Vec::new(),
            open_range_limit: false,
            whole: Unit::Lines,
            past_end: PastEndAnswer::Error,
            refuse_unranged_over: None,
            split_lines: false,
            tail_counts_line_feeds: false,
            lenient_range: false,
            swap_reversed: false,
            split_whole: false,
            ranged_python_line_ends: false,
            range_checks: None,
        }
    }
}

/// The unit of a read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Lines.
    #[default]
    Lines,
    /// Bytes.
    Bytes,
}

/// How a dialect answers a first line past the end of the file (the library's own
/// choice is [`crate::PastEnd`]; this one adds the dialect's words).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PastEndAnswer {
    /// The library's error ([`crate::Error::LineBeyondEnd`], kind `beyond_end`):
    /// `Invalid range specified: start_line (X) is beyond the end of the file (N
    /// lines).`, naming the parameter as the caller spelled it.
    Error,
    /// The same error (kind `beyond_end`, its values kept), worded by this text
    /// (`{start}`, `{total}`, `{name}`).
    Message(String),
    /// A successful answer with this text instead of content (`{start}`, `{total}`).
    Note(String),
    /// A successful, empty answer.
    Empty,
    /// A successful answer of no lines under the partial header
    /// ([`Output::partial_header`]), which names them as the lines after the last:
    /// `{start}` is the line after the last, `{end}` the last, `{next}` as `{start}`
    /// (Gemini CLI slices past the end of its lines: `Showing lines 32-31 of 31`).
    EmptyPage,
}

/// A refusal: over `lines` lines, answer with `message` (`{path}`, `{total}`, `{limit}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    /// The threshold.
    pub lines: u64,
    /// The answer.
    pub message: String,
}

/// The budgets of one call (0: no limit), as [`crate::Reader`] takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Lines per call (default 2000).
    pub max_lines: u64,
    /// Bytes of content per call (default 100 KiB).
    pub max_bytes: u64,
    /// Characters a line (default 2000); longer lines are cut and marked.
    pub max_line_chars: u64,
    /// What `max_line_chars` counts: `chars` (the default), `utf16` (JavaScript's
    /// `length`) or `bytes` ([`LineUnit`]).
    #[serde(skip_serializing_if = "is_default")]
    pub line_unit: LineUnit,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_lines: 2000,
            max_bytes: 100 * 1024,
            max_line_chars: 2000,
            line_unit: LineUnit::Chars,
        }
    }
}

/// Caps that refuse a read instead of paging it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Caps {
    /// Refuse a read without a line count of a file larger than this
    /// (`{size}`, `{max}`: sizes as `293KB`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_size: Option<SizeCap>,
    /// Refuse a read whose selected text is larger than this (`{size}`, `{max}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_size: Option<SizeCap>,
    /// Refuse a read that the byte budget ([`Limits::max_bytes`]) would cut, with this
    /// text (`{size}`: the bytes of the lines selected, as shown, counted up to the
    /// first line over the budget; `{max}`: the budget), instead of answering its first
    /// part: Crush's section cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over_byte_budget: Option<String>,
    /// Refuse every read, with a range or without, of a file larger than this, before
    /// it is read (`{path}`: as given; `{bytes}`, `{kib}`, `{mib}`: its size in bytes, in
    /// KiB and MiB with two decimals; `{size_mib}`: in MiB with one; `{max}`,
    /// `{max_mib}`: the cap in bytes and in whole MiB): Goose's, Gemini CLI's, Forge's
    /// and OpenHands' file-size caps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_size_any_read: Option<SizeCap>,
    /// Refuse (or, for a whole-file read, cut to a first page) a read whose text is
    /// estimated at more tokens than this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<TokenCap>,
    /// An opt-in ([`Role::LiftCaps`]) that raises the caps to the room the caller has
    /// left, and the sentence each refusal ends with (`{suffix}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lift: Option<CapLift>,
}

pub use crate::tool::dialect::caps::{CapLift, FirstPage, SizeCap, TokenCap};
pub use crate::tool::dialect::form::{ByteCut, Clip, ClipKeep, Form, OutlineForm, Output};

/// The texts of errors that differ from the library's (`{path}`: the path as the caller
/// gave it, `{message}`: the library's text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ErrorTexts {
    /// A file that does not exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_found: Option<String>,
    /// A file that does not exist, asked for by its last lines (`{path}`); by default
    /// [`ErrorTexts::not_found`]. The MCP filesystem server looks at a file's size before
    /// it reads the end, so Node names `stat` where a whole read names `open`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_found_tail: Option<String>,
    /// A directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_directory: Option<String>,
    /// A binary file (`{mime}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
    /// Text that is not valid UTF-8 under the strict policy
    /// ([`Utf8Policy::Strict`](crate::Utf8Policy::Strict); `{message}`: the library's
    /// text, which names the first invalid byte), as a tool reading with Rust's
    /// `read_to_string` refuses it (rust-mcp-filesystem's `read_text_file`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_utf8: Option<String>,
    /// A path outside the workspace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<String>,
    /// A protected path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protected: Option<String>,
    /// A device, FIFO or socket.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_regular: Option<String>,
    /// Missing required parameter (`{name}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// A parameter the tool does not take (`{name}`, `{accepted}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
    /// A path whose real path (links followed) leaves the allowed directories (`{path}`,
    /// `{real}`, `{dirs}`); by default as [`ErrorTexts::outside`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside_link: Option<String>,
    /// A file whose directory does not exist (`{parent}`); by default not found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_parent: Option<String>,
    /// An empty path (`{name}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_path: Option<String>,
    /// Two ways of selecting in one call (`{first}`, `{second}`: the parameters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict: Option<String>,
    /// A range whose end is before its start (`{start}`, `{end}`, `{name}`: the
    /// parameter of the start as spelled, `{end_name}`: of the end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inverted: Option<String>,
    /// `{did_you_mean}` of [`ErrorTexts::not_found`] when a file of the same stem and
    /// another extension is beside the missing one (`{name}`: its file name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub did_you_mean: Option<String>,
    /// A command the tool does not serve (`{name}`, `{value}`, `{accepted}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

/// How a page-range parameter is checked (`{value}`: as given, `{max}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageRules {
    /// The most pages one call reads.
    pub max: u64,
    /// How many pages an open range (`"10-"`) counts as; `None`: to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_end_counts: Option<u64>,
    /// Not one page or one range.
    pub invalid: String,
    /// More than `max` pages.
    pub too_many: String,
}

/// Rules on the file itself, decided by its name, size and first bytes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FileRules {
    /// Files with these extensions (without the dot; compared ignoring ASCII case) are
    /// binary whatever their content.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub binary_extensions: Vec<String>,
    /// The older name of [`Decoding::invalid_utf8_binary`], still read (when both are
    /// given, that one wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary_invalid_utf8: Option<f64>,
    /// The answer, a success, for a binary file (`{path}`: relative to the root,
    /// `{mime}`); by default a binary file is an error ([`ErrorTexts::binary`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary_answer: Option<String>,
    /// Files of some extensions answer a text instead over a size.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub large: Vec<LargeFile>,
}

impl FileRules {
    fn is_default(&self) -> bool {
        *self == FileRules::default()
    }
}

/// Over `bytes`, a file with one of `extensions` answers `answer` (a success; `{path}`:
/// relative to the root) instead of its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LargeFile {
    /// The extensions, without the dot.
    pub extensions: Vec<String>,
    /// The size over which the answer replaces the content.
    pub bytes: u64,
    /// The answer.
    pub answer: String,
}
