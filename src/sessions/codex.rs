//! Codex CLI transcripts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::claude::{home_dir, plain_id, read_dir};
use super::de::{Content, Str, Text};
use super::jsonl::{
    follow, normalize_time, retry, scan_lines, Decoded, Engine, LineFormat, Piece, TitleScan,
};
use super::{MessagePage, MessageRequest, SessionInfo, SessionStore, Timestamp};
use crate::cache::IndexCache;
use crate::error::{Error, Result};
use crate::source::Source;

/// The sessions of the Codex CLI, read from `$CODEX_HOME` (default `~/.codex`).
///
/// Codex writes one "rollout" JSONL file per session under
/// `sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`, and moves archived ones to
/// `archived_sessions/`; both are read. The session id is the UUID at the end of the
/// file name (or, failing that, the `id` of the first `session_meta` record). `updated`
/// is the file's modification time.
///
/// # Format versions
///
/// - Current rollouts (codex-rs 0.2x and later, mid-2025 on): one
///   `{"timestamp", "type", "payload"}` record a line, with `type` `session_meta`,
///   `response_item`, `event_msg`, `turn_context` or `compacted`.
/// - Early codex-rs rollouts: a header line (`{"id", "timestamp", "instructions"}`),
///   then bare response items (`{"type":"message", ...}`) and `{"record_type":"state"}`
///   lines.
///
/// # Messages
///
/// - Kept: `response_item` messages of role `user` and `assistant`, their
///   `input_text` / `output_text` blocks joined with `\n` (`input_image` as `[image]`);
///   tool calls (`function_call`, `custom_tool_call`, `local_shell_call`,
///   `web_search_call`) as `[tool: NAME]`. Assistant items that follow each other with
///   no tool output or user message between them are one reply, so one message.
/// - Skipped: the injected user messages (`<environment_context>`,
///   `<user_instructions>`, `# AGENTS.md instructions ...`, `<turn_aborted>`),
///   `developer` and `system` messages, `reasoning`, tool outputs, and every `event_msg`
///   (they repeat the user's and the agent's messages), `session_meta`, `turn_context`
///   and `compacted` records.
///
/// # Titles
///
/// The `thread_name` of the session in `session_index.jsonl` (an append-only file of
/// `{"id", "thread_name", "updated_at"}` lines; for an id, the newest `updated_at` wins,
/// the later line on a tie), else the first line of the first real user message.
#[derive(Debug)]
pub struct CodexStore {
    home: PathBuf,
    engine: Engine<CodexFormat>,
    /// Where the parsed `session_index.jsonl` sits in the cache.
    index_slot: u64,
}

impl CodexStore {
    /// Opens the store at `dir`, the Codex home (`$CODEX_HOME`, `~/.codex`).
    ///
    /// # Errors
    ///
    /// [`Error::StoreNotFound`] when `dir` is not a directory.
    pub fn open(dir: impl AsRef<Path>) -> Result<CodexStore> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(Error::StoreNotFound {
                path: dir.to_path_buf(),
                store: "codex",
            });
        }
        Ok(CodexStore {
            home: dir.to_path_buf(),
            engine: Engine::new(CodexFormat),
            index_slot: IndexCache::slot(),
        })
    }

    /// Opens the store at [`CodexStore::default_dir`].
    ///
    /// # Errors
    ///
    /// [`Error::StoreNotFound`] when there is no such directory.
    pub fn open_default() -> Result<CodexStore> {
        CodexStore::open(CodexStore::default_dir().unwrap_or_else(|| PathBuf::from("~/.codex")))
    }

    /// `$CODEX_HOME`, else `~/.codex`.
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(d) = std::env::var_os("CODEX_HOME").filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(d));
        }
        home_dir().map(|h| h.join(".codex"))
    }

    /// By default, the store keeps what it learns of each transcript (message counts,
    /// titles) in a cache of its own with a 16 MiB budget. Give it the cache your
    /// [`crate::Reader`] uses to keep both under one budget: transcripts are then cached
    /// by file identity, continued over appended records, and dropped when rewritten,
    /// replaced or evicted, exactly like line indexes.
    ///
    /// # Example
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rangeread::sessions::{read_session_messages, CodexStore, SessionQuery};
    /// use rangeread::{IndexCache, Reader};
    ///
    /// let cache = Arc::new(IndexCache::new(64 << 20));
    /// let reader = Reader::new().cache(cache.clone());
    /// let store = CodexStore::open("tests/data/sessions/codex")?.cache(cache.clone());
    /// let q = SessionQuery::id("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a51");
    /// assert!(read_session_messages(&store, &q)?.message_count.is_some());
    /// assert_eq!(cache.len(), 2); // the transcript, and `session_index.jsonl`
    /// # let _ = reader;
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn cache(mut self, cache: std::sync::Arc<crate::IndexCache>) -> CodexStore {
        self.engine.cache = cache;
        self
    }

    /// The Codex home being read.
    pub fn home(&self) -> &Path {
        &self.home
    }

    fn files(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for sub in ["sessions", "archived_sessions"] {
            let dir = self.home.join(sub);
            if dir.is_dir() {
                walk(&dir, 4, &mut out)?;
            }
        }
        Ok(out)
    }

    /// `thread_name` by session id, from `session_index.jsonl`: parsed once, then only
    /// the lines appended since (the state is kept in the store's cache).
    fn index(&self) -> Result<HashMap<String, String>> {
        let path = self.home.join("session_index.jsonl");
        if !path.is_file() {
            return Ok(HashMap::new());
        }
        #[derive(Deserialize)]
        struct Row<'a> {
            #[serde(borrow, default)]
            id: Str<'a>,
            #[serde(borrow, default)]
            thread_name: Str<'a>,
            #[serde(borrow, default)]
            updated_at: Str<'a>,
        }
        type Best = HashMap<String, (Option<Timestamp>, String)>;
        let take = |best: &mut Best, line: &[u8]| {
            let Ok(row) = serde_json::from_slice::<Row<'_>>(line) else {
                return;
            };
            let (Some(id), Some(name)) = (row.id.get(), row.thread_name.get()) else {
                return;
            };
            if name.trim().is_empty() {
                return;
            }
            let at = row.updated_at.get().and_then(Timestamp::parse_text);
            let newer = match best.get(id) {
                Some((Some(old), _)) => at.is_none_or(|t| t >= *old),
                _ => true,
            };
            if newer {
                best.insert(id.to_string(), (at, name.trim().to_string()));
            }
        };
        let cost = |best: &Best| {
            best.iter()
                .map(|(k, (_, v))| k.capacity() + v.capacity() + 64)
                .sum()
        };
        let best = retry(|| {
            let src = Source::open(&path)?;
            follow(&self.engine.cache, self.index_slot, &src, take, cost)
        })?;
        Ok(best.into_iter().map(|(k, (_, v))| (k, v)).collect())
    }

    fn info(&self, path: PathBuf, index: &HashMap<String, String>) -> Result<SessionInfo> {
        let id = match id_from_name(&path) {
            Some(id) => id,
            None => id_from_meta(&path)?.unwrap_or_else(|| {
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            }),
        };
        let updated = std::fs::metadata(&path)
            .ok()
            .and_then(|m| m.modified().ok())
            .map(Timestamp::from_system_time);
        Ok(SessionInfo {
            title: index.get(&id).cloned(),
            id,
            updated,
            path,
        })
    }
}

fn walk(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<()> {
    for p in read_dir(dir)? {
        if p.is_dir() {
            if depth > 0 {
                walk(&p, depth - 1, out)?;
            }
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("rollout-") && n.ends_with(".jsonl"))
        {
            out.push(p);
        }
    }
    Ok(())
}

/// The UUID at the end of `rollout-<time>-<uuid>.jsonl`.
fn id_from_name(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_str()?;
    let tail = stem.get(stem.len().checked_sub(36)?..)?;
    let is_uuid = tail.char_indices().all(|(i, c)| match i {
        8 | 13 | 18 | 23 => c == '-',
        _ => c.is_ascii_hexdigit(),
    });
    is_uuid.then(|| tail.to_string())
}

/// The id in the first record (`session_meta` payload, or an early header line).
fn id_from_meta(path: &Path) -> Result<Option<String>> {
    let src = Source::open(path)?;
    let mut id = None;
    scan_lines(&src, 0, src.len(), |_, line, _| {
        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) {
            id = v
                .pointer("/payload/id")
                .or_else(|| v.get("id"))
                .and_then(|x| x.as_str())
                .map(str::to_string);
        }
        false
    })?;
    Ok(id)
}

impl SessionStore for CodexStore {
    fn list_sessions(&self) -> Result<Vec<SessionInfo>> {
        let index = self.index()?;
        let mut out = Vec::new();
        for path in self.files()? {
            let mut info = self.info(path, &index)?;
            if info.title.is_none() {
                info.title = self.engine.title(&info.path, TitleScan::BOUNDED)?;
            }
            out.push(info);
        }
        Ok(out)
    }

    fn session(&self, id: &str) -> Result<Option<SessionInfo>> {
        if !plain_id(id) {
            return Ok(None);
        }
        let suffix = format!("-{id}.jsonl");
        let stem_name = format!("{id}.jsonl");
        let index = self.index()?;
        for path in self.files()? {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(&suffix) || name == stem_name {
                return self.info(path, &index).map(Some);
            }
        }
        // Files named otherwise: look at their first record.
        for path in self.files()? {
            if id_from_name(&path).is_none() && id_from_meta(&path)?.as_deref() == Some(id) {
                return self.info(path, &index).map(Some);
            }
        }
        Ok(None)
    }

    fn read_messages(
        &self,
        session: &SessionInfo,
        request: &MessageRequest,
    ) -> Result<MessagePage> {
        let mut page = self
            .engine
            .read(&session.path, request, TitleScan::BOUNDED)?;
        if let Some(name) = self.index()?.remove(&session.id) {
            page.title = Some(name);
        }
        Ok(page)
    }
}

/// The line format of Codex rollouts.
pub(crate) struct CodexFormat;

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Str<'a>,
    #[serde(borrow, default)]
    timestamp: Str<'a>,
    #[serde(borrow, default)]
    payload: Option<Item<'a>>,
    // Early rollouts: the item's own fields at the top level.
    #[serde(borrow, default)]
    role: Str<'a>,
    #[serde(borrow, default)]
    content: Content<'a>,
    #[serde(borrow, default)]
    name: Str<'a>,
}

#[derive(Deserialize, Default)]
struct Item<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Str<'a>,
    #[serde(borrow, default)]
    role: Str<'a>,
    #[serde(borrow, default)]
    content: Content<'a>,
    #[serde(borrow, default)]
    name: Str<'a>,
}

/// User messages that Codex injects.
const INJECTED: &[&str] = &[
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<turn_aborted>",
];

const ITEM_KINDS: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "web_search_call",
];

impl LineFormat for CodexFormat {
    fn decode(&self, line: &[u8]) -> Decoded {
        let Ok(rec) = serde_json::from_slice::<Record<'_>>(line) else {
            return Decoded::Malformed;
        };
        let kind = rec.kind.get().unwrap_or("");
        let item = if kind == "response_item" {
            match rec.payload {
                Some(item) => item,
                None => return Decoded::Malformed,
            }
        } else if ITEM_KINDS.contains(&kind) {
            Item {
                kind: rec.kind.clone(),
                role: rec.role,
                content: rec.content,
                name: rec.name,
            }
        } else {
            return Decoded::Skip;
        };
        let timestamp = rec.timestamp.get().map(normalize_time);
        let tool = |name: Option<&str>| {
            let mut t = Text::default();
            t.tool(name);
            Decoded::Piece(Piece {
                role: "assistant".into(),
                content: t.into_string(),
                timestamp: timestamp.clone(),
                merge: Some("reply".into()),
                prompt: false,
            })
        };
        match item.kind.get().unwrap_or("") {
            "message" => {}
            "function_call" | "custom_tool_call" => return tool(item.name.get()),
            "local_shell_call" => return tool(Some("shell")),
            "web_search_call" => return tool(Some("web_search")),
            "function_call_output" | "custom_tool_call_output" => return Decoded::Boundary,
            _ => return Decoded::Skip,
        }
        let role = item.role.get().unwrap_or("");
        if role != "user" && role != "assistant" {
            return Decoded::Skip;
        }
        let user = role == "user";
        let mut text = Text::default();
        match &item.content {
            Content::Text(s) => text.push(s),
            Content::Blocks(blocks) => {
                for b in blocks {
                    match b.kind.get().unwrap_or("") {
                        "input_text" | "output_text" | "text" => {
                            let t = b.text.get().unwrap_or("");
                            if !(user && injected(t)) {
                                text.push(t);
                            }
                        }
                        "input_image" => text.push("[image]"),
                        _ => {}
                    }
                }
            }
            Content::Other => {}
        }
        if text.is_empty() {
            return Decoded::Skip;
        }
        let content = text.into_string();
        if user && injected(&content) {
            return Decoded::Skip;
        }
        Decoded::Piece(Piece {
            role: role.to_string(),
            content,
            timestamp,
            merge: if user { None } else { Some("reply".into()) },
            prompt: user,
        })
    }
}

fn injected(text: &str) -> bool {
    let t = text.trim_start();
    INJECTED.iter().any(|p| t.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_file_names() {
        let p = Path::new("rollout-2025-09-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl");
        assert_eq!(
            id_from_name(p).as_deref(),
            Some("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")
        );
        assert_eq!(id_from_name(Path::new("rollout-x.jsonl")), None);
    }

    #[test]
    fn skips_injected_and_duplicate_records() {
        let env = r#"{"timestamp":"2025-09-01T10:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}]}}"#;
        assert_eq!(CodexFormat.decode(env.as_bytes()), Decoded::Skip);
        let dup = r#"{"timestamp":"2025-09-01T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}"#;
        assert_eq!(CodexFormat.decode(dup.as_bytes()), Decoded::Skip);
        let old = r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done"}]}"#;
        match CodexFormat.decode(old.as_bytes()) {
            Decoded::Piece(p) => {
                assert_eq!((p.role.as_str(), p.content.as_str()), ("assistant", "Done"))
            }
            other => panic!("{other:?}"),
        }
    }
}
