//! `mcp_server`: a stdio MCP server with one tool, `read_file`, built on `rmcp` (the
//! official Rust SDK).
//!
//! ```text
//! cargo run --release --features schemars --example mcp_server -- [--root DIR]
//!     [--protect GLOB]... [--max-lines N] [--max-bytes N] [--max-line-chars N]
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
//!   costs no new scan.
//!
//! Registering it with Claude Code, Cursor and other hosts: `docs/mcp.md`.

use std::process::ExitCode;
use std::sync::Arc;

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

/// The index cache's memory budget: one `u64` per 64 KiB of file, so 64 MiB covers
/// about 512 TiB of indexed files.
const CACHE_BYTES: usize = 64 << 20;

#[derive(Clone)]
struct Server {
    tool: Arc<ReadFile>,
    schema: Arc<JsonObject>,
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
            Err(e) => error_result(&e.to_string(), e.kind()),
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
        Ok(ListToolsResult::with_all_items(
            vec![self.tool_definition()],
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == TOOL).then(|| self.tool_definition())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != TOOL {
            let message = format!("Unknown tool {:?}; this server has {TOOL}", request.name);
            return Ok(error_result(&message, "unknown_tool").into());
        }
        let args = Value::Object(request.arguments.unwrap_or_default());
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
}

fn parse_args(argv: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        root: ".".to_string(),
        protect: Vec::new(),
        reader: Reader::new().totals(Totals::IfKnown),
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
            "-h" | "--help" => {
                return Err("usage: mcp_server [--root DIR] [--protect GLOB]... \
                            [--max-lines N] [--max-bytes N] [--max-line-chars N]"
                    .to_string())
            }
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    Ok(o)
}

fn build(o: Options) -> Result<Server, Error> {
    let ws = Workspace::builder(&o.root).protect_all(o.protect).build()?;
    let reader = o.reader.cache(Arc::new(IndexCache::new(CACHE_BYTES)));
    let schema = rmcp::handler::server::common::schema_for_type::<ReadFileParams>();
    Ok(Server {
        tool: Arc::new(ReadFile::with_reader(reader).workspace(ws)),
        schema,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let server = match parse_args(std::env::args().skip(1)) {
        Ok(o) => build(o).map_err(|e| e.to_string()),
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
