//! `rangeread-mcp`: a stdio MCP server serving one `read_file`-style tool (the unified
//! `read_file` by default, or one seed tool's preset) and, when a session store is
//! configured, `read_session_messages`; built on `rmcp` (the official Rust SDK).
//!
//! ```text
//! cargo run --release -p rangeread-mcp-server -- [--preset NAME]
//!     [--root DIR] [--protect GLOB]... [--case-insensitive] [--session NAME=DIR]...
//!     [--sessions-store claude|codex|opencode|jsonl --sessions-dir DIR [--all-projects]]
//!     [--max-lines N] [--max-bytes N] [--max-line-chars N] [--index-dir DIR]
//!     [--image-policy NAME] [--dialect FILE]...
//! ```
//!
//! `--help` lists every flag. Each preset (`--preset`) is a dialect of the library
//! (`rangeread::tool::Dialect`): the tool's name, input schema, description, answer and
//! error texts as its agent serves them. A JSON answer is also the `structuredContent`;
//! the unified `read_file` sends what a host acts on (`ReadMetadata`) there.
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

mod options;
mod sessions;
mod stdio;

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use rangeread::tool::{Dialect, DialectTool, Role, Roots, ToolItem, ToolResponse};
use rangeread::{BufferPool, Error, IndexCache, Workspace, WorkspaceRegistry};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, ListToolsResult, PaginatedRequestParams, ResourceContents,
    ServerCapabilities, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};

use options::{parse_args, Options, HELP, INDEX_DIR_BYTES};
use sessions::{open_store, run_sessions, sessions_tool_definition, Store, SESSIONS_TOOL};

/// The index cache's memory budget: one `u64` per 64 KiB of file, so 64 MiB covers
/// about 512 TiB of indexed files.
const CACHE_BYTES: usize = 64 << 20;

#[derive(Clone)]
struct Server {
    /// The preset's tools (one, or each tool of a peer that serves several).
    tools: Arc<Vec<DialectTool>>,
    /// `None` without `--sessions-store`: `read_session_messages` is then not listed.
    sessions: Option<Store>,
    /// Content buffers: the writer hands each answer's text back once it is written, and
    /// the next read fills it (no fresh pages to fault in for every large read).
    buffers: Arc<BufferPool>,
}

impl Server {
    /// The names of the tools, for messages.
    fn names(&self) -> String {
        let names: Vec<&str> = self
            .tools
            .iter()
            .map(|t| t.dialect().name.as_str())
            .collect();
        names.join(", ")
    }

    fn tool(&self, name: &str) -> Option<usize> {
        self.tools.iter().position(|t| t.dialect().name == name)
    }
}

/// A tool's name, description and input schema, from its dialect.
fn definition(tool: &DialectTool) -> Tool {
    let def = tool.definition();
    let title = def.title.clone();
    Tool::new(def.name, def.description, Arc::new(def.input_schema)).with_annotations(
        ToolAnnotations::with_title(title)
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}

/// A tool's answer as MCP content: its text, with its images in their places (image
/// content; audio as audio content, other files sent whole as embedded resources), the
/// notes as a last block, the structured content.
fn tool_result(mut r: ToolResponse) -> CallToolResult {
    let content: Vec<ContentBlock> = if r.media.is_empty() {
        // The text moves into its block, not copied: it is the read's own buffer, which
        // the writer hands back to the reader's pool once written (`stdio`). A copy is a
        // fresh mapping per large answer, faulted in page by page (257 faults a whole
        // 1 MiB read).
        let mut blocks = vec![ContentBlock::text(std::mem::take(&mut r.text))];
        blocks.extend(r.notes.take().map(ContentBlock::text));
        blocks
    } else {
        text_and_media(&r)
    };
    let mut out = if r.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    out.structured_content = r.structured;
    out
}

/// The blocks of an answer with media items: the text cut where each goes.
fn text_and_media(r: &ToolResponse) -> Vec<ContentBlock> {
    r.items()
        .into_iter()
        .map(|item| match item {
            ToolItem::Text(t) => ContentBlock::text(t),
            ToolItem::Media(m) if m.mime_type.starts_with("image/") => {
                ContentBlock::image(m.data.clone(), m.mime_type.clone())
            }
            ToolItem::Media(m) if m.mime_type.starts_with("audio/") => {
                ContentBlock::audio(m.data.clone(), m.mime_type.clone())
            }
            ToolItem::Media(m) => {
                let uri = format!(
                    "file://{}{}",
                    if m.name.starts_with('/') { "" } else { "/" },
                    m.name
                );
                ContentBlock::resource(
                    ResourceContents::blob(m.data.clone(), uri).with_mime_type(m.mime_type.clone()),
                )
            }
        })
        .collect()
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
                self.names()
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools: Vec<Tool> = self.tools.iter().map(definition).collect();
        if self.sessions.is_some() {
            tools.push(sessions_tool_definition());
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        match name {
            SESSIONS_TOOL if self.sessions.is_some() => Some(sessions_tool_definition()),
            n => self.tool(n).map(|i| definition(&self.tools[i])),
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
        let Some(index) = self.tool(&request.name) else {
            let mut names = self.names();
            if self.sessions.is_some() {
                names.push_str(" and ");
                names.push_str(SESSIONS_TOOL);
            }
            let message = format!("Unknown tool {:?}; this server has {names}", request.name);
            return Ok(error_result(&message, "unknown_tool").into());
        };
        let tools = self.tools.clone();
        // Reads are blocking file I/O: keep them off the transport's thread. A panic in
        // a read ends its task only, and is reported like any other failure.
        let result = tokio::task::spawn_blocking(move || tool_result(tools[index].respond(args)))
            .await
            .unwrap_or_else(|e| {
                error_result(&format!("Internal error while reading: {e}"), "internal")
            });
        Ok(result.into())
    }
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
    let workspace_with = |root: &Path, own: &[String]| {
        let patterns = o.protect.iter().chain(own).cloned();
        // An object-store prefix (`s3://bucket/prefix`) confines like a directory.
        if let Some(url) = root.to_str().filter(|r| r.contains("://")) {
            if o.case_insensitive {
                return Err("--case-insensitive applies to local roots only".to_string());
            }
            #[cfg(feature = "object-store")]
            {
                let root = rangeread::ObjectRoot::open(url)
                    .and_then(|r| r.protect(patterns))
                    .map_err(e)?;
                return Ok(Workspace::object(root));
            }
            #[cfg(not(feature = "object-store"))]
            return Err(format!(
                "--root {url}: object storage needs the server's object-store feature \
                 (cargo install --path mcp-server --features object-store)"
            ));
        }
        Workspace::builder(root)
            .protect_all(patterns)
            .case_insensitive(o.case_insensitive)
            .build()
            .map_err(e)
    };
    let workspace = |root: &Path| workspace_with(root, &[]);
    // Several roots, patterns of one root, or labelled patterns: the tool reads in Roots.
    let several = o.roots.len() > 1 || o.roots.iter().any(|r| !r.1.is_empty());
    let roots = || -> Result<Roots, String> {
        let mut roots = Roots::new();
        for (dir, own) in &o.roots {
            roots = roots.root(workspace_with(dir, own)?);
        }
        for (pattern, label) in &o.labels {
            roots = roots.label(pattern.clone(), label.clone());
        }
        Ok(roots)
    };
    let buffers = Arc::new(BufferPool::new(2, stdio::KEEP_BYTES));
    let mut tools = Vec::new();
    let dialects = if o.dialects.is_empty() {
        Dialect::preset_tools(&o.preset).map_err(e)?
    } else {
        o.dialects.clone()
    };
    for mut dialect in dialects {
        // The three budget flags are the host's, over the preset's own (which stay the
        // agent's, as a refusal over its byte budget): a cut by one of them says where
        // to continue, in the preset's voice. 0 lifts the reader's budget (the crate's
        // own presets read whole files so), not a refusal the agent makes.
        let mut host = rangeread::Reader::new();
        if o.never_open_special {
            host = host.special_files(rangeread::SpecialFiles::NeverOpened);
        }
        if let Some(n) = o.max_lines {
            host = host.max_lines(n);
            if dialect.lines.ranged_max.is_some() {
                dialect.lines.ranged_max = Some(n);
            }
        }
        if let Some(n) = o.max_bytes {
            host = host.max_bytes(n);
        }
        if let Some(n) = o.max_line_chars {
            host = host.max_line_chars(n);
        }
        if let (Some(name), Some(images)) = (&o.image_policy, dialect.documents.images.as_mut()) {
            images.policy = name.clone();
        }
        if o.no_project_rules {
            dialect.rules.enabled = false;
        }
        // Session workspaces are made here: each gets the agent's rule files (the tool
        // adds them to the workspaces and roots it is given).
        let rule_files = if dialect.rules.enabled {
            dialect.rules.files.clone()
        } else {
            Vec::new()
        };
        let by_session = dialect.params.iter().any(|p| p.role == Role::Session);
        let scan = o.max_scan_bytes;
        let cache = cache.clone();
        let tool = DialectTool::new(dialect)
            .reader(host)
            .reader_with(|r| r.cache(cache).buffers(buffers.clone()).max_scan_bytes(scan));
        tools.push(if by_session {
            let registry = WorkspaceRegistry::new();
            let with_rules = |ws: Workspace| ws.with_rule_files(rule_files.iter().cloned());
            if o.sessions.is_empty() {
                registry.insert("default", with_rules(workspace(&o.root)?));
            }
            for (name, dir) in &o.sessions {
                registry.insert(name.clone(), with_rules(workspace(dir)?));
            }
            tool.sessions(registry)
        } else if several || !o.labels.is_empty() {
            if o.roots.is_empty() {
                tool.roots(roots()?.root(workspace(&o.root)?))
            } else {
                tool.roots(roots()?)
            }
        } else {
            tool.workspace(workspace(&o.root)?)
        });
    }
    Ok(Server {
        tools: Arc::new(tools),
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
                eprintln!("rangeread-mcp: could not start the runtime: {e}");
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
            eprintln!("rangeread-mcp: {e}");
            return ExitCode::from(2);
        }
    };
    // stdout carries the protocol: diagnostics go to stderr only.
    let transport = stdio::Stdio::new(server.buffers.clone());
    let service = match server.serve(transport).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rangeread-mcp: could not start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match service.waiting().await {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rangeread-mcp: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counted, not timed: a whole read's text reaches its MCP block as the same buffer
    /// (no 1 MiB copy into fresh memory per call), with the notes as a block of their
    /// own.
    #[test]
    fn a_text_answer_moves_into_its_block_without_a_copy() {
        let mut r = ToolResponse::ok("line\n".repeat(1 << 18));
        r.notes = Some("a note".into());
        let at = r.text.as_ptr();
        let out = tool_result(r);
        let text = out.content[0].as_text().expect("a text block");
        assert_eq!(text.text.as_ptr(), at, "the answer's text was copied");
        assert_eq!(text.text.len(), 5 << 18);
        assert_eq!(
            out.content[1].as_text().map(|t| t.text.as_str()),
            Some("a note")
        );
        assert_eq!(out.content.len(), 2);
    }
}
