//! `mcp_server`: a stdio MCP server with the tools `read_file` and (when a session store
//! is configured) `read_session_messages`, built on `rmcp` (the official Rust SDK).
//!
//! ```text
//! cargo run --release --features schemars --example mcp_server -- [--root DIR]
//!     [--protect GLOB]... [--max-lines N] [--max-bytes N] [--max-line-chars N]
//!     [--sessions-store claude|codex|opencode|jsonl --sessions-dir DIR]
//! ```
//!
//! - `read_file` takes [`rangeread::tool::ReadFileParams`]: `path` (or `target_file`,
//!   `file_path`, `filename`), lines (`start_line`/`end_line`, `offset`/`limit`, `head`,
//!   `tail`) or bytes (`start_byte`/`end_byte`). Its input schema is that struct's
//!   JSON Schema.
//! - Every path is confined to `--root` (default: the current directory), with
//!   `--protect` patterns refused (gitignore-style, repeatable).
//! - The answer is the exact text of the selection as the first content block, the notes
//!   (what was omitted, where to continue, where the rest of a cut line starts) as a
//!   second one when there are any, and the result without its content as
//!   `structuredContent`.
//! - Every failure — bad parameters, a missing file, a binary file, a path outside the
//!   root, even a panic — is a tool result with `isError: true` and the message; the
//!   server keeps serving.
//! - Budgets per call default to 2000 lines, 100 KiB and 2000 characters a line (0 = no
//!   limit). Totals are reported only when known ([`rangeread::Totals::IfKnown`]): `head`
//!   and `tail` of a 1 GiB file never count it. Line indexes are kept in an
//!   [`rangeread::IndexCache`] (64 MiB budget), so a second read deep in a large file
//!   costs no new scan; the session stores keep their per-transcript counts and titles
//!   in the same cache.
//! - `read_session_messages` reads an agent's session transcripts from the store named by
//!   `--sessions-store` (`claude`, `codex`, `opencode` or `jsonl` with the default field
//!   pointers `/role`, `/content`, `/timestamp`) in `--sessions-dir` (the store's home:
//!   Claude Code's `projects` directory or the directory holding it, `$CODEX_HOME`,
//!   OpenCode's data directory). Input, camelCase as in the seed: `sessionId` or
//!   `searchTitle`, and optionally `limit` (default 20), `offset`, `order`
//!   (`oldest`/`newest`); the snake_case spellings are accepted too. The answer is one
//!   text block of JSON: `{sessionId, sessionTitle, messageCount, messages: [{role,
//!   content, timestamp}]}`. Every failure (`Either session_id or search_title must be
//!   provided`, `Session not found: "ID"`, `No sessions found matching "X". Available
//!   sessions: ...`, bad parameters such as `Invalid limit: expected a non-negative
//!   integer, got -1`) is a tool result with `isError: true`.
//! - Without `--sessions-store`, `read_session_messages` is **not listed** by
//!   `tools/list`; a call to it anyway is an `isError` result saying that no session
//!   store is configured. `--sessions-dir` is required with `--sessions-store`, and a
//!   missing directory stops the server at startup.
//!
//! Registering it with Claude Code, Cursor and other hosts: `docs/mcp.md`.

use std::process::ExitCode;
use std::sync::Arc;

use rangeread::sessions::{
    read_session_messages, ClaudeStore, CodexStore, JsonlFields, JsonlStore, OpenCodeStore,
    SessionQuery, SessionStore,
};
use rangeread::tool::{ReadFile, ReadFileParams};
use rangeread::{Error, IndexCache, Reader, Totals, Workspace};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};

const TOOL: &str = "read_file";

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

#[derive(Clone)]
struct Server {
    tool: Arc<ReadFile>,
    schema: Arc<JsonObject>,
    /// `None` without `--sessions-store`: `read_session_messages` is then not listed.
    sessions: Option<Store>,
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
        Err(e) => error_result(&e.to_string(), e.kind().as_str()),
    }
}

impl Server {
    fn tool_definition(&self) -> Tool {
        Tool::new(TOOL, DESCRIPTION, self.schema.clone()).with_annotations(
            ToolAnnotations::with_title("Read file")
                .read_only(true)
                .destructive(false)
                .idempotent(true)
                .open_world(false),
        )
    }

    /// Runs one call to completion; every failure becomes a message.
    fn run(tool: &ReadFile, args: Value) -> CallToolResult {
        let read = ReadFileParams::from_json(args).and_then(|p| tool.call(&p));
        match read {
            Ok(result) => {
                let notes = ReadFile::notes(&result);
                let mut meta = serde_json::to_value(&result).unwrap_or(Value::Null);
                if let Some(m) = meta.as_object_mut() {
                    m.remove("content");
                }
                let mut content = vec![ContentBlock::text(result.content)];
                if !notes.is_empty() {
                    content.push(ContentBlock::text(notes.join("\n")));
                }
                let mut r = CallToolResult::success(content);
                r.structured_content = Some(meta);
                r
            }
            Err(e) => error_result(&e.to_string(), e.kind().as_str()),
        }
    }
}

fn error_result(message: &str, kind: &str) -> CallToolResult {
    let mut r = CallToolResult::error(vec![ContentBlock::text(message)]);
    r.structured_content = Some(json!({"error": message, "kind": kind}));
    r
}

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rangeread", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "read_file reads line or byte ranges of files of any size under the root.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = vec![self.tool_definition()];
        if self.sessions.is_some() {
            tools.push(sessions_tool_definition());
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        match name {
            TOOL => Some(self.tool_definition()),
            SESSIONS_TOOL if self.sessions.is_some() => Some(sessions_tool_definition()),
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
            // Store reads are blocking file (or SQLite) I/O, like read_file's.
            let result = tokio::task::spawn_blocking(move || run_sessions(store.as_ref(), args))
                .await
                .unwrap_or_else(|e| {
                    error_result(&format!("Internal error while reading: {e}"), "internal")
                });
            return Ok(result.into());
        }
        if request.name != TOOL {
            let mut names = TOOL.to_string();
            if self.sessions.is_some() {
                names.push_str(" and ");
                names.push_str(SESSIONS_TOOL);
            }
            let message = format!("Unknown tool {:?}; this server has {names}", request.name);
            return Ok(error_result(&message, "unknown_tool").into());
        }
        let tool = self.tool.clone();
        // Reads are blocking file I/O: keep them off the transport's thread. A panic in
        // a read ends its task only, and is reported like any other failure.
        let result = tokio::task::spawn_blocking(move || Server::run(&tool, args))
            .await
            .unwrap_or_else(|e| {
                error_result(&format!("Internal error while reading: {e}"), "internal")
            });
        Ok(result.into())
    }
}

struct Options {
    root: String,
    protect: Vec<String>,
    reader: Reader,
    sessions_store: Option<String>,
    sessions_dir: Option<String>,
}

const USAGE: &str = "usage: mcp_server [--root DIR] [--protect GLOB]... [--max-lines N] \
    [--max-bytes N] [--max-line-chars N] \
    [--sessions-store claude|codex|opencode|jsonl --sessions-dir DIR]";

fn parse_args(argv: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        root: ".".to_string(),
        protect: Vec::new(),
        reader: Reader::new().totals(Totals::IfKnown),
        sessions_store: None,
        sessions_dir: None,
    };
    let mut it = argv;
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let number = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag} expects a non-negative integer, got {v:?}"))
        };
        match flag.as_str() {
            "--root" => o.root = value()?,
            "--protect" => o.protect.push(value()?),
            "--max-lines" => o.reader = o.reader.max_lines(number(value()?)?),
            "--max-bytes" => o.reader = o.reader.max_bytes(number(value()?)?),
            "--max-line-chars" => o.reader = o.reader.max_line_chars(number(value()?)?),
            "--sessions-store" => o.sessions_store = Some(value()?),
            "--sessions-dir" => o.sessions_dir = Some(value()?),
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    match (&o.sessions_store, &o.sessions_dir) {
        (Some(_), None) => Err("--sessions-store needs --sessions-dir DIR".to_string()),
        (None, Some(_)) => Err("--sessions-dir needs --sessions-store".to_string()),
        _ => Ok(o),
    }
}

/// Opens the session store named by `--sessions-store` in `--sessions-dir`; the JSONL
/// stores keep their transcript state in the server's index cache.
fn open_store(kind: &str, dir: &str, cache: &Arc<IndexCache>) -> Result<Store, String> {
    let e = |e: Error| e.to_string();
    let store: Store = match kind {
        "claude" => Arc::new(ClaudeStore::open(dir).map_err(e)?.cache(cache.clone())),
        "codex" => Arc::new(CodexStore::open(dir).map_err(e)?.cache(cache.clone())),
        // SQLite and small JSON files: nothing line-indexed to keep.
        "opencode" => Arc::new(OpenCodeStore::open(dir).map_err(e)?),
        "jsonl" => Arc::new(
            JsonlStore::open(dir, JsonlFields::default())
                .map_err(e)?
                .cache(cache.clone()),
        ),
        other => {
            return Err(format!(
                "--sessions-store expects claude, codex, opencode or jsonl, got {other:?}"
            ))
        }
    };
    Ok(store)
}

fn build(o: Options) -> Result<Server, String> {
    // One cache, one budget, for file reads and session transcripts alike.
    let cache = Arc::new(IndexCache::new(CACHE_BYTES));
    let sessions = match (&o.sessions_store, &o.sessions_dir) {
        (Some(kind), Some(dir)) => Some(open_store(kind, dir, &cache)?),
        _ => None,
    };
    let server = build_reader(o, cache).map_err(|e| e.to_string())?;
    Ok(Server { sessions, ..server })
}

fn build_reader(o: Options, cache: Arc<IndexCache>) -> Result<Server, Error> {
    let ws = Workspace::builder(&o.root).protect_all(o.protect).build()?;
    let reader = o.reader.cache(cache);
    let schema = rmcp::handler::server::common::schema_for_type::<ReadFileParams>();
    Ok(Server {
        tool: Arc::new(ReadFile::with_reader(reader).workspace(ws)),
        schema,
        sessions: None,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let server = match parse_args(std::env::args().skip(1)) {
        Ok(o) => build(o),
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
    let service = match server.serve(rmcp::transport::stdio()).await {
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
