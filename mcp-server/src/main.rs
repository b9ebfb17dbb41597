//! `mcp_server`: a stdio MCP server serving one `read_file`-style tool (the unified
//! `read_file` by default, or one seed tool's preset) and, when a session store is
//! configured, `read_session_messages`; built on `rmcp` (the official Rust SDK).
//!
//! ```text
//! cargo run --release -p rangeread-mcp-server -- [--preset NAME]
//!     [--root DIR] [--protect GLOB]... [--case-insensitive] [--session NAME=DIR]...
//!     [--sessions-store claude|codex|opencode|jsonl --sessions-dir DIR [--all-projects]]
//!     [--max-lines N] [--max-bytes N] [--max-line-chars N] [--index-dir DIR]
//! ```
//!
//! `--help` lists every flag. Presets (`--preset`), each the seed tool's name, input
//! schema, description and response shape:
//!
//! | preset | tool | answer |
//! |---|---|---|
//! | `read_file` (default) | `read_file` | the content, the notes as a second block, what a host acts on (`ReadMetadata`: the range, where to continue, the fingerprint; paths relative to the root) as `structuredContent` |
//! | `session_read_file` | `session_read_file` | JSON `{success, content, linesRead, omittedContent, ...}`; the same without `content` as `structuredContent` |
//! | `file_read` | `file_read` | the numbered Markdown block, the outline after a full read |
//! | `fs_read` | `fs_read` | JSON `{content, metadata}`; `{metadata}` as `structuredContent` |
//! | `vault` | `read_file` | `N: line` and one truncation line; errors `Error: MESSAGE` |
//!
//! `--root` may be an object-store prefix, `s3://bucket/prefix` (also `gs://`, `az://`,
//! `http(s)://`), with credentials and endpoint from the usual environment variables:
//! paths then name objects under the prefix, under the same confinement rules.
//!
//! Every path is confined to `--root` (default: the current directory; for
//! `session_read_file`, to the directory of the session named in the call: `--session
//! NAME=DIR`, repeatable, and `--root` as the session `default` when none is given),
//! with `--protect` patterns refused. Every failure is a tool result with
//! `isError: true`; the server keeps serving. Tool output never shows the host's path
//! of the root: paths are relative to it.
//!
//! `read_session_messages` reads an agent's session transcripts from the store named by
//! `--sessions-store` in `--sessions-dir` (the store's home); it is listed beside any
//! preset when a store is given. Input, camelCase as in the seed: `sessionId` or
//! `searchTitle`, and optionally `limit` (default 20), `offset`, `order`
//! (`oldest`/`newest`).
//!
//! Registering it with Claude Code, Cursor and other hosts, and each preset's
//! differences from its seed: `docs/mcp.md`.

mod stdio;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use rangeread::sessions::{
    read_session_messages, ClaudeStore, CodexStore, JsonlFields, JsonlStore, OpenCodeStore,
    SessionQuery, SessionStore,
};
use rangeread::tool::file_read::{self, FileRead, FileReadParams};
use rangeread::tool::fs_read::{self, FsRead, FsReadParams};
use rangeread::tool::session_read_file::{self, SessionReadFile, SessionReadFileParams};
use rangeread::tool::vault::{self, VaultReadFile, VaultReadParams};
use rangeread::tool::{ReadFile, ReadFileParams, ToolResponse};
use rangeread::{
    BufferPool, Error, IndexCache, ObjectRoot, Reader, Totals, Workspace, WorkspaceRegistry,
};
use rmcp::handler::server::common::schema_for_type;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};

const DESCRIPTION: &str = "Read a text file, or part of it, from the workspace. Select lines \
    with start_line/end_line (1-based, inclusive; negative counts from the end), \
    offset/limit, head or tail, or bytes with start_byte/end_byte (for very long lines). \
    Without a selection the whole file is returned up to the size budget. When a response \
    is cut, a note says where to continue (start_line=N or start_byte=N). Binary files are \
    refused.";

const SESSIONS_TOOL: &str = "read_session_messages";

const SESSIONS_DESCRIPTION: &str = "Read the messages of a past agent session (a \
    transcript). Name the session with sessionId, or find it with searchTitle (a \
    case-insensitive substring of the title; the most recently updated match wins). limit \
    (default 20) and offset select a window of messages; order is oldest (default: the \
    first messages, oldest first) or newest (the last messages, newest first). Returns \
    JSON: {sessionId, sessionTitle, messageCount, messages: [{role, content, timestamp}]}, \
    where messageCount counts the whole session.";

/// The index cache's memory budget: one `u64` per 64 KiB of file, so 64 MiB covers
/// about 512 TiB of indexed files.
const CACHE_BYTES: usize = 64 << 20;

/// A session store shared with the blocking tasks that read it.
type Store = Arc<dyn SessionStore + Send + Sync>;

/// The seed tool a server serves.
enum Preset {
    ReadFile(ReadFile),
    Session(SessionReadFile),
    FileRead(FileRead),
    FsRead(FsRead),
    Vault(VaultReadFile),
}

impl Preset {
    /// The tool's name, description and input schema.
    fn definition(&self) -> Tool {
        let (name, description, schema, title) = match self {
            Preset::ReadFile(..) => (
                "read_file",
                DESCRIPTION,
                schema_for_type::<ReadFileParams>(),
                "Read file",
            ),
            Preset::Session(_) => (
                "session_read_file",
                session_read_file::DESCRIPTION,
                schema_for_type::<SessionReadFileParams>(),
                "Read a file in a session's workspace",
            ),
            Preset::FileRead(_) => (
                "file_read",
                file_read::DESCRIPTION,
                schema_for_type::<FileReadParams>(),
                "Read file",
            ),
            Preset::FsRead(_) => (
                "fs_read",
                fs_read::DESCRIPTION,
                schema_for_type::<FsReadParams>(),
                "Read a byte range",
            ),
            Preset::Vault(_) => (
                "read_file",
                vault::DESCRIPTION,
                schema_for_type::<VaultReadParams>(),
                "Read a note",
            ),
        };
        Tool::new(name, description, schema).with_annotations(
            ToolAnnotations::with_title(title)
                .read_only(true)
                .destructive(false)
                .idempotent(true)
                .open_world(false),
        )
    }

    fn name(&self) -> &'static str {
        match self {
            Preset::ReadFile(..) | Preset::Vault(_) => "read_file",
            Preset::Session(_) => "session_read_file",
            Preset::FileRead(_) => "file_read",
            Preset::FsRead(_) => "fs_read",
        }
    }

    /// Runs one call to completion; every failure becomes a tool result.
    fn run(&self, args: Value) -> CallToolResult {
        match self {
            Preset::ReadFile(tool) => run_read_file(tool, args),
            Preset::Session(tool) => json_result(tool.respond_structured(args)),
            Preset::FileRead(tool) => text_result(tool.respond(args)),
            Preset::FsRead(tool) => json_result(tool.respond_structured(args)),
            Preset::Vault(tool) => text_result(tool.respond(args)),
        }
    }
}

/// A text answer, as the seed sends it.
fn text_result(r: ToolResponse) -> CallToolResult {
    if r.is_error {
        CallToolResult::error(vec![ContentBlock::text(r.text)])
    } else {
        CallToolResult::success(vec![ContentBlock::text(r.text)])
    }
}

/// A JSON answer: the text, and the same object without its content (which the text
/// has) as `structuredContent`, for errors too when the seed answers errors in JSON.
fn json_result((r, structured): (ToolResponse, Option<Value>)) -> CallToolResult {
    let mut out = text_result(r);
    out.structured_content = structured;
    out
}

/// The unified tool: the content, the notes, and what a host needs of the rest of the
/// result ([`ReadFile::metadata`]: its path relative to the root, no field that the text
/// or the caller already has, none at its usual value). The content moves into its block
/// unserialized: it is escaped once, when the answer is written.
fn run_read_file(tool: &ReadFile, args: Value) -> CallToolResult {
    let read = ReadFileParams::from_json(args).and_then(|p| tool.call(&p));
    match read {
        Ok(mut result) => {
            let notes = ReadFile::notes(&result);
            let meta = serde_json::to_value(tool.metadata(&result)).ok();
            let mut content = vec![ContentBlock::text(std::mem::take(&mut result.content))];
            if !notes.is_empty() {
                content.push(ContentBlock::text(notes.join("\n")));
            }
            let mut r = CallToolResult::success(content);
            r.structured_content = meta;
            r
        }
        Err(e) => {
            let mut r = error_result(&e.to_string(), e.kind().as_str());
            if let (Error::InvalidParameter { parameter, .. }, Some(Value::Object(m))) =
                (&e, r.structured_content.as_mut())
            {
                m.insert("parameter".into(), Value::String(parameter.clone()));
            }
            r
        }
    }
}

#[derive(Clone)]
struct Server {
    preset: Arc<Preset>,
    /// `None` without `--sessions-store`: `read_session_messages` is then not listed.
    sessions: Option<Store>,
    /// Content buffers: the writer hands each answer's text back once it is written, and
    /// the next read fills it (no fresh pages to fault in for every large read).
    buffers: Arc<BufferPool>,
}

/// The input schema of `read_session_messages`: the seed's camelCase names.
fn sessions_schema() -> Arc<JsonObject> {
    let schema = json!({
        "type": "object",
        "properties": {
            "sessionId": {
                "type": "string",
                "description": "The id of the session to read."
            },
            "searchTitle": {
                "type": "string",
                "description": "A case-insensitive substring of the session's title, \
                    used when sessionId is not given; several matches: the most recently \
                    updated one."
            },
            "limit": {
                "type": "integer",
                "minimum": 0,
                "default": 20,
                "description": "At most this many messages (0: the count and title only)."
            },
            "offset": {
                "type": "integer",
                "minimum": 0,
                "default": 0,
                "description": "Messages to skip, from the end that order starts at."
            },
            "order": {
                "type": "string",
                "enum": ["oldest", "newest"],
                "default": "oldest",
                "description": "oldest: the first messages, oldest first; newest: the \
                    last messages, newest first."
            }
        },
        "additionalProperties": false
    });
    match schema {
        Value::Object(m) => Arc::new(m),
        _ => unreachable!("the schema is an object"),
    }
}

fn sessions_tool_definition() -> Tool {
    Tool::new(SESSIONS_TOOL, SESSIONS_DESCRIPTION, sessions_schema()).with_annotations(
        ToolAnnotations::with_title("Read session messages")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}

/// A message naming the parameter when `limit`, `offset` or `order` has a bad value
/// (serde's own messages do not name the field).
fn check_session_args(args: &Value) -> Option<String> {
    for name in ["limit", "offset"] {
        match args.get(name) {
            Some(v) if !v.is_u64() => {
                return Some(format!(
                    "Invalid {name}: expected a non-negative integer, got {v}"
                ))
            }
            _ => {}
        }
    }
    match args.get("order") {
        Some(Value::String(s)) if s == "oldest" || s == "newest" => None,
        Some(v) => Some(format!(
            "Invalid order: expected \"oldest\" or \"newest\", got {v}"
        )),
        None => None,
    }
}

/// Runs one `read_session_messages` call; every failure becomes a message.
fn run_sessions(store: &(dyn SessionStore + Send + Sync), args: Value) -> CallToolResult {
    if let Some(message) = check_session_args(&args) {
        return error_result(&message, "invalid_params");
    }
    let query: SessionQuery = match serde_json::from_value(args) {
        Ok(q) => q,
        Err(e) => return error_result(&format!("Invalid parameters: {e}"), "invalid_params"),
    };
    match read_session_messages(store, &query) {
        Ok(r) => match serde_json::to_string(&r.camel_case()) {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(e) => error_result(&format!("Could not encode the result: {e}"), "internal"),
        },
        // The tool's parameters are camelCase: name them as its schema does.
        Err(Error::SessionQueryMissing) => error_result(
            "Either sessionId or searchTitle must be provided",
            "invalid_query",
        ),
        Err(e) => error_result(&e.to_string(), e.kind().as_str()),
    }
}

/// A failure: the message for the model, and for the host what kind of failure it is
/// (the message is not repeated: the text has it).
fn error_result(message: &str, kind: &str) -> CallToolResult {
    let mut r = CallToolResult::error(vec![ContentBlock::text(message)]);
    r.structured_content = Some(json!({ "kind": kind }));
    r
}

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rangeread", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "{} reads line or byte ranges of files of any size under the root.",
                self.preset.name()
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = vec![self.preset.definition()];
        if self.sessions.is_some() {
            tools.push(sessions_tool_definition());
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        match name {
            SESSIONS_TOOL if self.sessions.is_some() => Some(sessions_tool_definition()),
            n if n == self.preset.name() => Some(self.preset.definition()),
            _ => None,
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        if request.name == SESSIONS_TOOL {
            let Some(store) = self.sessions.clone() else {
                let message = "read_session_messages is not available: no session store is \
                    configured (start the server with --sessions-store \
                    claude|codex|opencode|jsonl --sessions-dir DIR)";
                return Ok(error_result(message, "no_session_store").into());
            };
            // Store reads are blocking file (or SQLite) I/O, like the file reads.
            let result = tokio::task::spawn_blocking(move || run_sessions(store.as_ref(), args))
                .await
                .unwrap_or_else(|e| {
                    error_result(&format!("Internal error while reading: {e}"), "internal")
                });
            return Ok(result.into());
        }
        let tool = self.preset.name();
        if request.name != tool {
            let mut names = tool.to_string();
            if self.sessions.is_some() {
                names.push_str(" and ");
                names.push_str(SESSIONS_TOOL);
            }
            let message = format!("Unknown tool {:?}; this server has {names}", request.name);
            return Ok(error_result(&message, "unknown_tool").into());
        }
        let preset = self.preset.clone();
        // Reads are blocking file I/O: keep them off the transport's thread. A panic in
        // a read ends its task only, and is reported like any other failure.
        let result = tokio::task::spawn_blocking(move || preset.run(args))
            .await
            .unwrap_or_else(|e| {
                error_result(&format!("Internal error while reading: {e}"), "internal")
            });
        Ok(result.into())
    }
}

/// The per-call scan budget of the server, by default.
const DEFAULT_MAX_SCAN_BYTES: u64 = 4 << 30;

struct Options {
    preset: String,
    root: PathBuf,
    protect: Vec<String>,
    sessions: Vec<(String, PathBuf)>,
    reader: Reader,
    sessions_store: Option<String>,
    sessions_dir: Option<PathBuf>,
    all_projects: bool,
    case_insensitive: bool,
    index_dir: Option<PathBuf>,
}

/// The most bytes of stored line indexes `--index-dir` keeps (1 GiB: the indexes of
/// 8 TiB of files).
const INDEX_DIR_BYTES: u64 = 1 << 30;

const HELP: &str = "\
mcp_server: a stdio MCP server that reads line and byte ranges of files under a root.

usage: mcp_server [OPTIONS]

  --preset NAME            the tool served: read_file (default, the unified tool),
                           session_read_file, file_read, fs_read, or vault (tool read_file)
  --root DIR               every path is resolved inside DIR (default: the current directory);
                           s3://bucket/prefix (gs://, az://, http(s)://) reads objects under
                           the prefix, credentials from the AWS_* (GOOGLE_*, AZURE_*) variables
  --protect GLOB           refuse paths matching GLOB, gitignore-style (repeatable)
  --case-insensitive       match protected paths with Unicode case folding and NFC
                           (for roots on case-insensitive file systems)
  --session NAME=DIR       session_read_file: the session NAME reads inside DIR (repeatable;
                           without any, --root is the session \"default\")
  --sessions-store KIND    serve read_session_messages on this store: claude, codex,
                           opencode or jsonl
  --sessions-dir DIR       the store's home directory (required with --sessions-store)
  --all-projects           read_session_messages sees every project of the store
  --max-lines N            lines per call (default 2000; session_read_file ranges: 250; 0: no limit)
  --max-bytes N            bytes per call (default 102400; 0: no limit)
  --max-line-chars N       characters a line before it is cut (default 2000; 0: no limit)
  --max-scan-bytes N       bytes of a file counted for line numbers in one call (default
                           4294967296, 4 GiB; 0: no limit); the count goes on in later calls
  --index-dir DIR          keep line indexes of large files in DIR (created if missing, at
                           most 1 GiB) so that a restarted server does not count them again
  -h, --help               print this help and exit
";

fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Option<Options>, String> {
    use lexopt::prelude::*;
    let mut o = Options {
        preset: "read_file".to_string(),
        root: PathBuf::from("."),
        protect: Vec::new(),
        sessions: Vec::new(),
        // A model drives this server: one call never scans more than 4 GiB (about two
        // seconds) of a file to count its lines; the index keeps the count for later calls.
        reader: Reader::new()
            .totals(Totals::IfKnown)
            .max_scan_bytes(DEFAULT_MAX_SCAN_BYTES),
        sessions_store: None,
        sessions_dir: None,
        all_projects: false,
        case_insensitive: false,
        index_dir: None,
    };
    let mut max_lines = None;
    let mut p = lexopt::Parser::from_args(args);
    let err = |e: lexopt::Error| e.to_string();
    let number = |flag: &str, v: OsString| -> Result<u64, String> {
        v.to_str()
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| format!("{flag} expects a non-negative integer, got {v:?}"))
    };
    while let Some(arg) = p.next().map_err(err)? {
        match arg {
            Long("preset") => o.preset = p.value().map_err(err)?.string().map_err(err)?,
            Long("root") => o.root = p.value().map_err(err)?.into(),
            Long("protect") => o
                .protect
                .push(p.value().map_err(err)?.string().map_err(err)?),
            Long("session") => o.sessions.push(session_arg(p.value().map_err(err)?)?),
            Long("sessions-store") => {
                o.sessions_store = Some(p.value().map_err(err)?.string().map_err(err)?)
            }
            Long("sessions-dir") => o.sessions_dir = Some(p.value().map_err(err)?.into()),
            Long("all-projects") => o.all_projects = true,
            Long("case-insensitive") => o.case_insensitive = true,
            Long("index-dir") => o.index_dir = Some(p.value().map_err(err)?.into()),
            Long("max-lines") => max_lines = Some(number("--max-lines", p.value().map_err(err)?)?),
            Long("max-bytes") => {
                o.reader = o
                    .reader
                    .max_bytes(number("--max-bytes", p.value().map_err(err)?)?)
            }
            Long("max-scan-bytes") => {
                o.reader = o
                    .reader
                    .max_scan_bytes(number("--max-scan-bytes", p.value().map_err(err)?)?)
            }
            Long("max-line-chars") => {
                o.reader = o
                    .reader
                    .max_line_chars(number("--max-line-chars", p.value().map_err(err)?)?)
            }
            Short('h') | Long("help") => return Ok(None),
            other => return Err(format!("{} (see --help)", other.unexpected())),
        }
    }
    if let Some(n) = max_lines {
        o.reader = o.reader.max_lines(n);
    }
    match (&o.sessions_store, &o.sessions_dir) {
        (Some(_), None) => return Err("--sessions-store needs --sessions-dir DIR".to_string()),
        (None, Some(_)) => return Err("--sessions-dir needs --sessions-store".to_string()),
        _ => {}
    }
    if o.all_projects && o.sessions_store.is_none() {
        return Err("--all-projects needs --sessions-store".to_string());
    }
    if !o.sessions.is_empty() && o.preset != "session_read_file" {
        return Err("--session is for --preset session_read_file".to_string());
    }
    // session_read_file's 250-line cap is its own; --max-lines replaces it.
    if o.preset == "session_read_file" {
        o.preset = format!(
            "session_read_file:{}",
            max_lines.unwrap_or(session_read_file::MAX_LINES_PER_CALL)
        );
    }
    Ok(Some(o))
}

/// `NAME=DIR`, split at the first `=`; DIR may be any path.
fn session_arg(v: OsString) -> Result<(String, PathBuf), String> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = v.as_bytes();
        if let Some(i) = bytes.iter().position(|&b| b == b'=') {
            let name = std::str::from_utf8(&bytes[..i])
                .map_err(|_| format!("--session expects NAME=DIR with a UTF-8 NAME, got {v:?}"))?;
            let dir = std::ffi::OsStr::from_bytes(&bytes[i + 1..]);
            if !name.is_empty() && !dir.is_empty() {
                return Ok((name.to_string(), PathBuf::from(dir)));
            }
        }
    }
    #[cfg(not(unix))]
    if let Some((name, dir)) = v.to_str().and_then(|s| s.split_once('=')) {
        if !name.is_empty() && !dir.is_empty() {
            return Ok((name.to_string(), PathBuf::from(dir)));
        }
    }
    Err(format!("--session expects NAME=DIR, got {v:?}"))
}

/// Opens the session store named by `--sessions-store` in `--sessions-dir`, scoped to the
/// sessions of the `project` directory when one is given; the JSONL stores keep their
/// transcript state in the server's index cache.
fn open_store(
    kind: &str,
    dir: &std::path::Path,
    project: Option<&std::path::Path>,
    cache: &Arc<IndexCache>,
) -> Result<Store, String> {
    let e = |e: Error| e.to_string();
    let store: Store = match (kind, project) {
        ("claude", p) => {
            let s = ClaudeStore::open(dir).map_err(e)?.cache(cache.clone());
            Arc::new(match p {
                Some(p) => s.project(p),
                None => s,
            })
        }
        ("codex", p) => {
            let s = CodexStore::open(dir).map_err(e)?.cache(cache.clone());
            Arc::new(match p {
                Some(p) => s.project(p),
                None => s,
            })
        }
        // SQLite and small JSON files: nothing line-indexed to keep.
        ("opencode", p) => {
            let s = OpenCodeStore::open(dir).map_err(e)?;
            Arc::new(match p {
                Some(p) => s.project(p),
                None => s,
            })
        }
        // Generic JSONL has no notion of a project: every session is listed.
        ("jsonl", _) => Arc::new(
            JsonlStore::open(dir, JsonlFields::default())
                .map_err(e)?
                .cache(cache.clone()),
        ),
        (other, _) => {
            return Err(format!(
                "--sessions-store expects claude, codex, opencode or jsonl, got {other:?}"
            ))
        }
    };
    Ok(store)
}

fn build(o: Options) -> Result<Server, String> {
    // One cache, one budget, for file reads and session transcripts alike.
    let mut cache = IndexCache::new(CACHE_BYTES);
    if let Some(dir) = &o.index_dir {
        cache = cache
            .with_dir(dir, INDEX_DIR_BYTES)
            .map_err(|e| format!("--index-dir: {e}"))?;
    }
    let cache = Arc::new(cache);
    let sessions = match (&o.sessions_store, &o.sessions_dir) {
        (Some(kind), Some(dir)) => {
            // Scoped to the project under --root ("any session in the current project"),
            // unless --all-projects.
            let project = (!o.all_projects).then_some(o.root.as_path());
            Some(open_store(kind, dir, project, &cache)?)
        }
        _ => None,
    };
    let e = |e: Error| e.to_string();
    let workspace = |root: &std::path::Path| {
        // An object-store prefix (`s3://bucket/prefix`) confines like a directory.
        if let Some(url) = root.to_str().filter(|r| r.contains("://")) {
            if o.case_insensitive {
                return Err("--case-insensitive applies to local roots only".to_string());
            }
            let root = ObjectRoot::open(url)
                .and_then(|r| r.protect(o.protect.iter().cloned()))
                .map_err(e)?;
            return Ok(Workspace::object(root));
        }
        Workspace::builder(root)
            .protect_all(o.protect.iter().cloned())
            .case_insensitive(o.case_insensitive)
            .build()
            .map_err(e)
    };
    let buffers = Arc::new(BufferPool::new(2, stdio::KEEP_BYTES));
    let reader = o.reader.clone().cache(cache).buffers(buffers.clone());
    let preset = match o.preset.as_str() {
        "read_file" => {
            Preset::ReadFile(ReadFile::with_reader(reader).workspace(workspace(&o.root)?))
        }
        "file_read" => Preset::FileRead(
            FileRead::with_reader(reader.totals(Totals::Auto)).workspace(workspace(&o.root)?),
        ),
        "fs_read" => Preset::FsRead(FsRead::with_reader(reader).workspace(workspace(&o.root)?)),
        "vault" => Preset::Vault(
            VaultReadFile::new(workspace(&o.root)?).reader(reader.totals(Totals::Auto)),
        ),
        s if s.starts_with("session_read_file:") => {
            let cap: u64 = s["session_read_file:".len()..].parse().unwrap_or(0);
            let registry = WorkspaceRegistry::new();
            if o.sessions.is_empty() {
                registry.insert("default", workspace(&o.root)?);
            }
            for (name, dir) in &o.sessions {
                registry.insert(name.clone(), workspace(dir)?);
            }
            Preset::Session(
                SessionReadFile::new(registry)
                    .reader(reader.totals(Totals::Auto))
                    .max_lines(cap),
            )
        }
        other => {
            return Err(format!(
                "--preset expects read_file, session_read_file, file_read, fs_read or vault, \
                 got {other:?}"
            ))
        }
    };
    Ok(Server {
        preset: Arc::new(preset),
        sessions,
        buffers,
    })
}

/// Every call allocates a few buffers of the size of its answer (up to the byte budget,
/// or whole files with limits off). glibc raises its mmap threshold each time such a
/// buffer is freed, after which they come from the heap and fragment it: the server's
/// memory crept from 16 to 20 MiB over 1,000 reads of a 1 MiB file. A fixed threshold
/// keeps every large buffer in its own mapping, returned to the system when freed. The
/// one large buffer every read has, its content, is not freed: the writer hands it back
/// to the reader's `BufferPool` (see `stdio`), so its pages are not faulted in again.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fix_malloc_thresholds() {
    // SAFETY: mallopt only sets allocator parameters; called once, before any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fix_malloc_thresholds() {}

fn main() -> ExitCode {
    fix_malloc_thresholds();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_or_else(
            |e| {
                eprintln!("mcp_server: could not start the runtime: {e}");
                ExitCode::FAILURE
            },
            |rt| rt.block_on(serve()),
        )
}

async fn serve() -> ExitCode {
    let server = match parse_args(std::env::args_os().skip(1)) {
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Some(o)) => build(o),
        Err(e) => Err(e),
    };
    let server = match server {
        Ok(s) => s,
        Err(e) => {
            eprintln!("mcp_server: {e}");
            return ExitCode::from(2);
        }
    };
    // stdout carries the protocol: diagnostics go to stderr only.
    let transport = stdio::Stdio::new(server.buffers.clone());
    let service = match server.serve(transport).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("mcp_server: could not start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match service.waiting().await {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp_server: {e}");
            ExitCode::FAILURE
        }
    }
}
