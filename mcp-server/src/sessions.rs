//! `read_session_messages`: an agent's past session transcripts, served beside the read
//! tool when a store is configured.

use std::path::Path;
use std::sync::Arc;

use rangeread::sessions::{
    read_session_messages, ClaudeStore, CodexStore, JsonlFields, JsonlStore, OpenCodeStore,
    SessionQuery, SessionStore,
};
use rangeread::{Error, IndexCache};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};

use crate::error_result;

pub const SESSIONS_TOOL: &str = "read_session_messages";

const SESSIONS_DESCRIPTION: &str = "Read the messages of a past agent session (a \
    transcript). Name the session with sessionId, or find it with searchTitle (a \
    case-insensitive substring of the title; the most recently updated match wins). limit \
    (default 20) and offset select a window of messages; order is oldest (default: the \
    first messages, oldest first) or newest (the last messages, newest first). Returns \
    JSON: {sessionId, sessionTitle, messageCount, messages: [{role, content, timestamp}]}, \
    where messageCount counts the whole session.";

/// A session store shared with the blocking tasks that read it.
pub type Store = Arc<dyn SessionStore + Send + Sync>;

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

pub fn sessions_tool_definition() -> Tool {
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
pub fn run_sessions(store: &(dyn SessionStore + Send + Sync), args: Value) -> CallToolResult {
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

/// Opens the session store named by `--sessions-store` in `--sessions-dir`, scoped to the
/// sessions of the `project` directory when one is given; the JSONL stores keep their
/// transcript state in the server's index cache.
pub fn open_store(
    kind: &str,
    dir: &Path,
    project: Option<&Path>,
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
