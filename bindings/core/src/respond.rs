//! A tool's answer as JSON, the scopes a tool reads in, and a preset as JSON.

use rangeread::tool::{Dialect, ToolItem, ToolResponse};
use rangeread::Workspace;
use serde_json::{json, Value};

use crate::error::BindError;

/// Where a binding's tool resolves paths.
#[derive(Debug, Clone)]
pub enum Scope {
    /// As given.
    Paths,
    /// Inside one workspace.
    Workspace(Workspace),
    /// Inside the root a path names or lies in (Zed's worktrees, the MCP filesystem
    /// server's allowed directories).
    Roots(Vec<Workspace>),
}

/// A tool's answer: `text`, `is_error`, `notes`, `structured` (MCP's
/// `structuredContent`), `media` (`{mime_type, data, at, name}`, data as base64) and
/// `items`, the ordered content a host sends: `{"type": "text", "text"}` and
/// `{"type": "media", "mime_type", "data", "name"}`.
pub fn response_json(r: &ToolResponse) -> Value {
    let media: Vec<Value> = r
        .media
        .iter()
        .map(|m| json!({"mime_type": m.mime_type, "data": m.data, "at": m.at, "name": m.name}))
        .collect();
    let items: Vec<Value> = r
        .items()
        .into_iter()
        .map(|i| match i {
            ToolItem::Text(t) => json!({"type": "text", "text": t}),
            ToolItem::Media(m) => {
                json!({"type": "media", "mime_type": m.mime_type, "data": m.data, "name": m.name})
            }
        })
        .collect();
    json!({
        "text": r.text,
        "is_error": r.is_error,
        "notes": r.notes,
        "structured": r.structured,
        "record": r.record,
        "media": media,
        "items": items,
    })
}

/// The preset `name` as JSON: a dialect to change and give back to a tool.
///
/// # Errors
///
/// An unknown preset, naming the presets.
pub fn dialect_json(name: &str) -> Result<Value, BindError> {
    let d = Dialect::preset(name)?;
    Ok(serde_json::to_value(d).expect("dialects serialize"))
}
