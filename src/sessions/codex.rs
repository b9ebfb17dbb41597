//! Codex CLI transcripts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (and
//! compressed `rollout-*.jsonl.zst`).

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::de::{Content, Str, Text};
use super::jsonl::lines::first_line;
use super::jsonl::{follow, normalize_time, retry, Decoded, LineFormat, Piece, Prompt, TitleScan};
use super::store::{agent_dir, file_info, plain_id, require_dir, walk, JsonlShell, Project};
use super::{zst, MessagePage, MessageRequest, SessionInfo, SessionStore, Timestamp};
use crate::cache::IndexCache;
use crate::error::Result;
use crate::source::Source;

/// The sessions of the Codex CLI, read from `$CODEX_HOME` (default `~/.codex`).
///
/// Codex writes one "rollout" JSONL file per session under
/// `sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`, moves archived ones to
/// `archived_sessions/`, and compresses cold ones to `rollout-*.jsonl.zst` (deleting the
/// plain file); all of them are read. The session id is the UUID at the end of the file
/// name (or, failing that, the `id` of the first `session_meta` record). `updated` is
/// the file's modification time.
///
/// # Format versions
///
/// - Current rollouts (codex-rs 0.2x and later, mid-2025 on; read right from 0.48 to
///   0.169 on real files): one `{"timestamp", "type", "payload"}` record a line, with
///   `type` `session_meta`, `response_item`, `event_msg`, `turn_context` or `compacted`.
/// - Early codex-rs rollouts: a header line (`{"id", "timestamp", "instructions"}`),
///   then bare response items (`{"type":"message", ...}`) and `{"record_type":"state"}`
///   lines.
///
/// # Messages
///
/// The conversation the Codex UI shows:
///
/// - The user's turns are the `event_msg` `user_message` events (their `message`, with
///   `[image]` per attached image), or in rollouts from 0.15x on (0.154, 0.169), which
///   write none, the `event_msg` `item_completed` events of a `UserMessage` item. The
///   `response_item` user messages are not read in current rollouts: besides the
///   prompt they carry injected text (AGENTS.md
///   instructions, `<environment_context>`, `<skill>` blocks with a SKILL.md, the IDE's
///   "# Context from my IDE setup:" preamble), and some rollouts have the prompt only
///   as an event. Early rollouts have no events: their user messages are read, without
///   the injected ones (`<environment_context>`, `<user_instructions>`,
///   `# AGENTS.md instructions ...`, `<INSTRUCTIONS>`, `<turn_aborted>`, `<skill>`).
/// - Every assistant `message` item (each `agent_message`) is a message of its own, also
///   when only `reasoning` or a `web_search_call` lies between two. Its
///   `output_text` blocks are joined with `\n`; the tool calls that follow it in the same
///   turn (`function_call`, `custom_tool_call`, `local_shell_call`, `web_search_call`)
///   are added to it as `[tool: NAME]` (a tool call before any reply of its turn is a
///   message of its own).
/// - Skipped: `developer` and `system` messages, `reasoning`, tool outputs, the other
///   `event_msg` records (`agent_message` and `item_completed` of an `AgentMessage`
///   repeat the assistant items; `task_started` only ends the turn before),
///   `session_meta`, `turn_context`, `world_state`, `token_usage_record` and
///   `compacted` records.
///
/// # Titles
///
/// The `thread_name` of the session in `session_index.jsonl` (an append-only file of
/// `{"id", "thread_name", "updated_at"}` lines; for an id, the newest `updated_at` wins,
/// the later line on a tie), else the first line of the first user turn, after
/// "## My request for Codex:" when the IDE put its context before it (as Codex does).
///
/// # Compressed rollouts
///
/// A `rollout-*.jsonl.zst` is decompressed into memory to be read (see
/// [`CodexStore::max_decompressed`]): even its last N messages cost the whole file, and
/// nothing of it is cached between reads.
///
/// # Project scoping
///
/// [`CodexStore::project`] keeps the sessions whose `session_meta` `cwd` is the
/// directory; early rollouts, which record no `cwd`, are then left out. Listing a
/// scoped store reads the first line of every rollout.
#[derive(Debug)]
pub struct CodexStore {
    home: PathBuf,
    shell: JsonlShell<CodexFormat>,
    /// Where the parsed `session_index.jsonl` sits in the cache.
    index_slot: u64,
}

impl CodexStore {
    /// Opens the store at `dir`, the Codex home (`$CODEX_HOME`, `~/.codex`).
    ///
    /// # Errors
    ///
    /// [`crate::Error::StoreNotFound`] when `dir` is not a directory.
    pub fn open(dir: impl AsRef<Path>) -> Result<CodexStore> {
        let dir = dir.as_ref();
        require_dir(dir, "codex")?;
        Ok(CodexStore {
            home: dir.to_path_buf(),
            shell: JsonlShell::new(CodexFormat),
            index_slot: IndexCache::slot(),
        })
    }

    /// Opens the store at [`CodexStore::default_dir`].
    ///
    /// # Errors
    ///
    /// [`crate::Error::StoreNotFound`] when there is no such directory.
    pub fn open_default() -> Result<CodexStore> {
        CodexStore::open(CodexStore::default_dir().unwrap_or_else(|| PathBuf::from("~/.codex")))
    }

    /// `$CODEX_HOME`, else `~/.codex`.
    pub fn default_dir() -> Option<PathBuf> {
        agent_dir("CODEX_HOME", &[], &[".codex"])
    }

    /// By default, every project's sessions are listed and read. Scoped to `dir`, the
    /// store sees only the sessions whose `session_meta` `cwd` is that directory; an id
    /// of another project is not found, and "Available sessions" lists only this
    /// project's.
    ///
    /// ```
    /// use rangeread::sessions::{list_sessions, CodexStore};
    ///
    /// let store = CodexStore::open("tests/data/sessions/real/codex")?
    ///     .project("/Users/bernardchase/Documents/Cline");
    /// assert_eq!(list_sessions(&store)?.len(), 2);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn project(mut self, dir: impl AsRef<Path>) -> CodexStore {
        self.shell.project = Some(Project::new(dir.as_ref()));
        self
    }

    /// By default, a compressed rollout (`*.jsonl.zst`) may decompress to at most
    /// 512 MiB: it is held in memory whole while it is read (for a moment twice, while
    /// it is handed to the reader), and a larger one fails with [`crate::Error::Store`]
    /// rather than exhaust memory; a rollout whose frame declares a larger size (zstd
    /// writes it by default) fails before it is decompressed.
    pub fn max_decompressed(mut self, bytes: u64) -> CodexStore {
        self.shell.engine.max_decompressed = bytes;
        self
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
    pub fn cache(mut self, cache: Arc<crate::IndexCache>) -> CodexStore {
        self.shell.set_cache(cache);
        self
    }

    /// The Codex home being read.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Every rollout, plain or compressed; a compressed one whose plain file is still
    /// there (being compressed) is left out.
    fn files(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for sub in ["sessions", "archived_sessions"] {
            let dir = self.home.join(sub);
            if dir.is_dir() {
                out.extend(walk(&dir, 4, &is_rollout_name)?);
            }
        }
        let plain: std::collections::HashSet<PathBuf> =
            out.iter().filter(|p| !zst::is_zst(p)).cloned().collect();
        out.retain(|p| !zst::is_zst(p) || !plain.contains(&p.with_extension("")));
        Ok(out)
    }

    /// Whether the rollout at `path` is in the store's scope.
    fn in_scope(&self, path: &Path) -> Result<bool> {
        match &self.shell.project {
            None => Ok(true),
            Some(project) => Ok(header(path)?.cwd.is_some_and(|c| project.is(&c))),
        }
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
            follow(&self.shell.engine.cache, self.index_slot, &src, take, cost)
        })?;
        Ok(best.into_iter().map(|(k, (_, v))| (k, v)).collect())
    }

    fn info(&self, path: PathBuf, index: &HashMap<String, String>) -> Result<Option<SessionInfo>> {
        let id = match id_from_name(&path) {
            Some(id) => id,
            None => header(&path)?
                .id
                .unwrap_or_else(|| super::store::stem_id(&path).unwrap_or_default()),
        };
        let title = index.get(&id).cloned();
        Ok(file_info(path, id, title))
    }
}

/// A rollout's file name: `rollout-*.jsonl`, or `rollout-*.jsonl.zst`.
fn is_rollout_name(name: &str) -> bool {
    name.starts_with("rollout-") && (name.ends_with(".jsonl") || name.ends_with(".jsonl.zst"))
}

/// The UUID at the end of `rollout-<time>-<uuid>.jsonl[.zst]`.
fn id_from_name(path: &Path) -> Option<String> {
    let stem = super::store::stem_id(path)?;
    let tail = stem.get(stem.len().checked_sub(36)?..)?;
    let is_uuid = tail.char_indices().all(|(i, c)| match i {
        8 | 13 | 18 | 23 => c == '-',
        _ => c.is_ascii_hexdigit(),
    });
    is_uuid.then(|| tail.to_string())
}

/// What the first record of a rollout says.
#[derive(Debug, Default)]
struct Header {
    id: Option<String>,
    cwd: Option<String>,
}

/// The first record of a rollout (`session_meta`, or an early header line), read
/// alone: at most its first MiB, decompressed for a `.zst`.
fn header(path: &Path) -> Result<Header> {
    const LIMIT: usize = 1 << 20;
    let line = if zst::is_zst(path) {
        first_line(zst::reader(path)?, LIMIT)
    } else {
        let file = File::open(path).map_err(|e| crate::Error::io(path, e))?;
        first_line(file, LIMIT)
    }
    .map_err(|e| crate::Error::io(path, e))?;
    let Some(v) = line.and_then(|l| serde_json::from_slice::<serde_json::Value>(&l).ok()) else {
        return Ok(Header::default());
    };
    let field = |k: &str| {
        v.get("payload")
            .and_then(|p| p.get(k))
            .or_else(|| v.get(k))
            .and_then(|x| x.as_str())
            .map(str::to_string)
    };
    Ok(Header {
        id: field("id"),
        cwd: field("cwd"),
    })
}

impl SessionStore for CodexStore {
    fn list_sessions(&self) -> Result<Vec<SessionInfo>> {
        let index = self.index()?;
        let mut out = Vec::new();
        for path in self.files()? {
            if !self.in_scope(&path)? {
                continue;
            }
            let Some(mut info) = self.info(path, &index)? else {
                continue;
            };
            if info.title.is_none() {
                info.title = self.shell.engine.title(&info.path, TitleScan::BOUNDED)?;
            }
            out.push(info);
        }
        Ok(out)
    }

    fn session(&self, id: &str) -> Result<Option<SessionInfo>> {
        if !plain_id(id) {
            return Ok(None);
        }
        let index = self.index()?;
        let files = self.files()?;
        let named = files
            .iter()
            .find(|p| id_from_name(p).as_deref() == Some(id));
        let found = match named {
            Some(p) => Some(p.clone()),
            // Files named otherwise: look at their first record.
            None => {
                let mut hit = None;
                for p in files.iter().filter(|p| id_from_name(p).is_none()) {
                    if header(p)?.id.as_deref() == Some(id)
                        || super::store::stem_id(p).as_deref() == Some(id)
                    {
                        hit = Some(p.clone());
                        break;
                    }
                }
                hit
            }
        };
        match found {
            Some(path) if self.in_scope(&path)? => self.info(path, &index),
            _ => Ok(None),
        }
    }

    fn read_messages(
        &self,
        session: &SessionInfo,
        request: &MessageRequest,
    ) -> Result<MessagePage> {
        let mut page = self
            .shell
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
    /// `event_msg` `user_message`: the text the user sent.
    #[serde(borrow, default)]
    message: Str<'a>,
    /// `event_msg` `user_message`: attached images.
    #[serde(default)]
    images: Option<Vec<serde::de::IgnoredAny>>,
    #[serde(default)]
    local_images: Option<Vec<serde::de::IgnoredAny>>,
    /// `event_msg` `item_completed` (0.15x): the item, a `UserMessage` among others.
    #[serde(borrow, default)]
    item: Option<Box<Item<'a>>>,
}

/// An `event_msg`: a user turn (`user_message`; `item_completed` with a `UserMessage`
/// in 0.15x rollouts, which write no `user_message`), the start of a turn, or nothing.
fn event(ev: Item<'_>, timestamp: Option<String>) -> Decoded {
    let mut text = Text::default();
    match ev.kind.get().unwrap_or("") {
        "user_message" => {
            text.push(ev.message.get().unwrap_or("").trim_end());
            let images = ev.images.map_or(0, |v| v.len()) + ev.local_images.map_or(0, |v| v.len());
            for _ in 0..images {
                text.push("[image]");
            }
        }
        "item_completed" => {
            let Some(item) = ev.item.filter(|i| i.kind.is("UserMessage")) else {
                return Decoded::Skip;
            };
            match &item.content {
                Content::Text(s) => text.push(s.trim_end()),
                Content::Blocks(blocks) => {
                    for b in blocks {
                        match b.kind.get().unwrap_or("") {
                            "text" | "input_text" => {
                                text.push(b.text.get().unwrap_or("").trim_end())
                            }
                            "image" | "local_image" | "input_image" => text.push("[image]"),
                            _ => {}
                        }
                    }
                }
                Content::Other => {}
            }
        }
        // A new turn: its replies never join the last one of the turn before.
        "task_started" => return Decoded::Boundary,
        _ => return Decoded::Skip,
    }
    if text.is_empty() {
        return Decoded::Skip;
    }
    user_turn(text.into_string(), timestamp)
}

/// User messages that Codex injects (read only from early rollouts, which have no
/// events).
const INJECTED: &[&str] = &[
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<turn_aborted>",
    "<skill>",
];

/// Where the IDE extension's preamble ends and the user's request starts.
const IDE_REQUEST: &str = "## My request for Codex:";

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

/// The merge key of a turn's replies: tool calls join the agent message before them.
const REPLY: &str = "reply";

/// A user turn: its title starts after the IDE preamble, as Codex's own titles do.
fn user_turn(content: String, timestamp: Option<String>) -> Decoded {
    let title_at = content
        .find(IDE_REQUEST)
        .map_or(0, |i| i + IDE_REQUEST.len());
    Decoded::Piece(Piece {
        prompt: Prompt::Real { title_at },
        ..Piece::single("user", content, timestamp)
    })
}

impl LineFormat for CodexFormat {
    fn decode(&self, line: &[u8]) -> Decoded {
        let Ok(rec) = serde_json::from_slice::<Record<'_>>(line) else {
            return Decoded::Malformed;
        };
        let kind = rec.kind.get().unwrap_or("");
        let timestamp = || rec.timestamp.get().map(normalize_time);
        // Current rollouts wrap items; early ones write them bare and have no events.
        let (item, wrapped) = match kind {
            "response_item" => match rec.payload {
                Some(item) => (item, true),
                None => return Decoded::Malformed,
            },
            "event_msg" => {
                let Some(ev) = rec.payload else {
                    return Decoded::Malformed;
                };
                return event(ev, timestamp());
            }
            k if ITEM_KINDS.contains(&k) => (
                Item {
                    kind: rec.kind.clone(),
                    role: rec.role,
                    content: rec.content,
                    name: rec.name,
                    ..Item::default()
                },
                false,
            ),
            _ => return Decoded::Skip,
        };
        let tool = |name: Option<&str>| {
            let mut t = Text::default();
            t.tool(name);
            Decoded::Piece(Piece {
                merge: Some(REPLY.into()),
                opens: false,
                ..Piece::single("assistant", t.into_string(), timestamp())
            })
        };
        match item.kind.get().unwrap_or("") {
            "message" => {}
            "function_call" | "custom_tool_call" => return tool(item.name.get()),
            "local_shell_call" => return tool(Some("shell")),
            "web_search_call" => return tool(Some("web_search")),
            _ => return Decoded::Skip,
        }
        let role = item.role.get().unwrap_or("");
        let user = match role {
            "user" if wrapped => return Decoded::Skip,
            "user" => true,
            "assistant" => false,
            _ => return Decoded::Skip,
        };
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
        if user {
            return user_turn(content, timestamp());
        }
        Decoded::Piece(Piece {
            merge: Some(REPLY.into()),
            ..Piece::single("assistant", content, timestamp())
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
        let z =
            Path::new("rollout-2026-03-07T11-56-33-019cc670-966a-7b41-80e1-20b5016d8353.jsonl.zst");
        assert_eq!(
            id_from_name(z).as_deref(),
            Some("019cc670-966a-7b41-80e1-20b5016d8353")
        );
    }

    #[test]
    fn skips_injected_and_duplicate_records() {
        let env = r#"{"timestamp":"2025-09-01T10:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}]}}"#;
        assert_eq!(CodexFormat.decode(env.as_bytes()), Decoded::Skip);
        let item = r#"{"timestamp":"2025-09-01T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#;
        assert_eq!(CodexFormat.decode(item.as_bytes()), Decoded::Skip);
        let agent = r#"{"timestamp":"2025-09-01T10:00:01Z","type":"event_msg","payload":{"type":"agent_message","message":"hi"}}"#;
        assert_eq!(CodexFormat.decode(agent.as_bytes()), Decoded::Skip);
        let item = r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":"hi"}]}}}"#;
        assert_eq!(CodexFormat.decode(item.as_bytes()), Decoded::Skip);
        let ev = r##"{"timestamp":"2025-09-01T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"# Context from my IDE setup:\n\n## My request for Codex:\nhi","images":["x"]}}"##;
        match CodexFormat.decode(ev.as_bytes()) {
            Decoded::Piece(p) => {
                assert_eq!(p.role, "user");
                assert!(p.content.ends_with("hi\n[image]"), "{}", p.content);
                let Prompt::Real { title_at } = p.prompt else {
                    panic!("{:?}", p.prompt)
                };
                assert_eq!(p.content[title_at..].trim_start(), "hi\n[image]");
            }
            other => panic!("{other:?}"),
        }
        let old = r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done"}]}"#;
        match CodexFormat.decode(old.as_bytes()) {
            Decoded::Piece(p) => {
                assert_eq!((p.role.as_str(), p.content.as_str()), ("assistant", "Done"))
            }
            other => panic!("{other:?}"),
        }
    }
}
