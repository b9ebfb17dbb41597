//! Claude Code transcripts: `~/.claude/projects/<encoded-cwd>/<session-id>.jsonl`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::de::{Content, Flag, Str, Text};
use super::jsonl::{normalize_time, Decoded, LineFormat, Meta, Piece, Prompt, TitleScan, ONCE};
use super::store::{
    agent_dir, file_info, plain_id, read_dir, require_dir, stem_id, walk, JsonlShell, Project,
};
use super::{MessagePage, MessageRequest, SessionInfo, SessionStore};
use crate::error::Result;

/// The sessions of Claude Code, read from its `projects` directory.
///
/// Claude Code writes one JSONL file per session,
/// `projects/<encoded-cwd>/<session-id>.jsonl`, one record a line, appended as the
/// session goes. The session id is the file name without `.jsonl`; subagent transcripts
/// (`agent-*.jsonl`, and anything in subdirectories of a project) are not sessions of
/// their own. `updated` is the file's modification time.
///
/// # Format versions
///
/// Written against the records of Claude Code 1.x and 2.x, and checked on real
/// transcripts of 2.0.76, 2.1.38, 2.1.39 and 2.1.330: `user` and `assistant` records with
/// `message.content` as a string or an array of blocks (`text`, `image`, `tool_use`,
/// `tool_result`, `thinking`); records that split one API reply per content block,
/// sharing `message.id`; and the bookkeeping records (`summary`, `custom-title`,
/// `ai-title`, `file-history-snapshot`, `system`, `progress`, `queue-operation`,
/// `attachment`, `mode`, `last-prompt`, and in 2.1.330 `api-request`, `api-request-blob`,
/// `cost-state`, `agent-name` ...). Unknown record types are skipped, so newer
/// versions keep working as long as these stay.
///
/// # Messages
///
/// The conversation Claude Code shows:
///
/// - Kept: `user` and `assistant` records. Content is the `text` blocks joined with
///   `\n`; `tool_use` blocks appear as `[tool: NAME]`, images as `[image]`;
///   `thinking` is left out. Consecutive `assistant` records with the same `message.id`
///   (tool results in between allowed) are one message, timestamped by its first record
///   with content. A slash command (`<command-name>` with `<command-message>` /
///   `<command-args>`, in either order) reads as `/name args`, a shell escape
///   (`<bash-input>`) as `!command`; newer versions (2.1.330) write the commands they
///   run themselves (`/rename`, `/resume`) as `system` records of subtype
///   `local_command`, and those read the same way, as the user's turn (2.1.38 writes
///   some commands both ways, `/mcp` as a user record and then as a `system` record:
///   that is one turn).
/// - Skipped: user records holding only tool results; injected user text, which the
///   user did not type: `<task-notification>` turns (a background task finished),
///   local command output (`<local-command-stdout>`, `<bash-stdout>` ...), caveats
///   (`<local-command-caveat>`), `<system-reminder>`s and `[Request interrupted by
///   user]` markers; `isMeta` records (a command's expanded prompt, reminders), sidechain
///   records (`isSidechain`, subagents), compaction summaries (`isCompactSummary`),
///   transcript-only records, synthetic assistant notices (`model: "<synthetic>"`),
///   records with no text left, and every record of another type.
///
/// # Titles
///
/// The latest `custom-title` (set with `/rename`), else the latest `ai-title`, else the
/// latest `summary` whose `leafUuid` is the uuid of a record in the same file (summaries
/// can describe other sessions), else the first line of the first real user prompt
/// (injected text never is one), else the first slash command (`/name args`). See
/// [`TitleScan`] for what that costs.
///
/// # Project scoping
///
/// [`ClaudeStore::project`] keeps the project folder Claude Code names after the
/// directory (`/home/me/app` → `-home-me-app`).
///
/// # Example
///
/// ```
/// use rangeread::sessions::{read_session_messages, ClaudeStore, Order, SessionQuery};
///
/// let store = ClaudeStore::open("tests/data/sessions/claude")?;
/// let q = SessionQuery::id("7f3c9a10-0000-4000-8000-000000000001").order(Order::Newest).limit(1);
/// let r = read_session_messages(&store, &q)?;
/// assert_eq!(r.messages[0].role, "assistant");
/// # Ok::<(), rangeread::Error>(())
/// ```
pub struct ClaudeStore {
    root: PathBuf,
    shell: JsonlShell<ClaudeFormat>,
}

impl std::fmt::Debug for ClaudeStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClaudeStore")
            .field("root", &self.root)
            .field("shell", &self.shell)
            .finish()
    }
}

impl ClaudeStore {
    /// Opens the store at `dir`: Claude Code's `projects` directory, or the directory
    /// that holds it (`~/.claude`, `$CLAUDE_CONFIG_DIR`).
    ///
    /// # Errors
    ///
    /// [`crate::Error::StoreNotFound`] when `dir` is not a directory.
    pub fn open(dir: impl AsRef<Path>) -> Result<ClaudeStore> {
        let dir = dir.as_ref();
        require_dir(dir, "claude")?;
        let projects = dir.join("projects");
        let root = if projects.is_dir() {
            projects
        } else {
            dir.to_path_buf()
        };
        Ok(ClaudeStore {
            root,
            shell: JsonlShell::new(ClaudeFormat),
        })
    }

    /// Opens the store at [`ClaudeStore::default_dir`].
    ///
    /// # Errors
    ///
    /// [`crate::Error::StoreNotFound`] when there is no such directory (or no home directory).
    pub fn open_default() -> Result<ClaudeStore> {
        let dir = ClaudeStore::default_dir().unwrap_or_else(|| PathBuf::from("~/.claude/projects"));
        ClaudeStore::open(dir)
    }

    /// `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`.
    pub fn default_dir() -> Option<PathBuf> {
        agent_dir("CLAUDE_CONFIG_DIR", &["projects"], &[".claude", "projects"])
    }

    /// By default, every project's sessions are listed and read. Scoped to `dir`, the
    /// store sees only the sessions Claude Code ran in that directory (the project
    /// folder named after it); an id of another project is not found, and "Available
    /// sessions" lists only this project's.
    ///
    /// ```
    /// use rangeread::sessions::{list_sessions, ClaudeStore};
    ///
    /// let store = ClaudeStore::open("tests/data/sessions/real/claude")?
    ///     .project("/home/marco/projects/spotter");
    /// assert_eq!(list_sessions(&store)?.len(), 3);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn project(mut self, dir: impl AsRef<Path>) -> ClaudeStore {
        self.shell.project = Some(Project::new(dir.as_ref()));
        self
    }

    /// By default, [`TitleScan::Full`]: titles for listing and title search come from
    /// the whole of each file.
    pub fn title_scan(mut self, scan: TitleScan) -> ClaudeStore {
        self.shell.title_scan = scan;
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
    /// use rangeread::sessions::{read_session_messages, ClaudeStore, SessionQuery};
    /// use rangeread::{IndexCache, Reader};
    ///
    /// let cache = Arc::new(IndexCache::new(64 << 20));
    /// let reader = Reader::new().cache(cache.clone());
    /// let store = ClaudeStore::open("tests/data/sessions/claude")?.cache(cache.clone());
    /// let q = SessionQuery::id("7f3c9a10-0000-4000-8000-000000000001");
    /// read_session_messages(&store, &q)?;
    /// assert_eq!(cache.len(), 1); // the transcript's count and title state
    /// # let _ = reader;
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn cache(mut self, cache: Arc<crate::IndexCache>) -> ClaudeStore {
        self.shell.set_cache(cache);
        self
    }

    /// The `projects` directory being read.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The project folders in scope.
    fn projects(&self) -> Result<Vec<PathBuf>> {
        Ok(read_dir(&self.root)?
            .into_iter()
            .filter(|p| p.is_dir())
            .filter(|p| match &self.shell.project {
                None => true,
                Some(project) => p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| project.is_claude_folder(n)),
            })
            .collect())
    }

    fn files(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for project in self.projects()? {
            out.extend(walk(&project, 0, &is_session_name)?);
        }
        Ok(out)
    }
}

/// A session's file: `*.jsonl`, not a subagent's `agent-*.jsonl`.
fn is_session_name(name: &str) -> bool {
    name.ends_with(".jsonl") && !name.starts_with("agent-")
}

impl SessionStore for ClaudeStore {
    fn list_sessions(&self) -> Result<Vec<SessionInfo>> {
        let mut out = Vec::new();
        for path in self.files()? {
            let title = self.shell.engine.title(&path, self.shell.title_scan)?;
            let id = stem_id(&path).unwrap_or_default();
            out.extend(file_info(path, id, title));
        }
        Ok(out)
    }

    fn session(&self, id: &str) -> Result<Option<SessionInfo>> {
        if !plain_id(id) {
            return Ok(None);
        }
        let name = format!("{id}.jsonl");
        let found = self
            .projects()?
            .into_iter()
            .map(|project| project.join(&name))
            .filter(|path| is_session_name(&name) && path.is_file())
            .filter_map(|path| file_info(path, id.to_string(), None));
        Ok(super::newest(found))
    }

    fn read_messages(
        &self,
        session: &SessionInfo,
        request: &MessageRequest,
    ) -> Result<MessagePage> {
        self.shell
            .engine
            .read(&session.path, request, self.shell.title_scan)
    }
}

/// The line format of Claude Code transcripts.
pub(crate) struct ClaudeFormat;

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Str<'a>,
    #[serde(borrow, default)]
    subtype: Str<'a>,
    /// The text of a `system` record (`message` holds that of `user` / `assistant`).
    #[serde(borrow, default)]
    content: Str<'a>,
    #[serde(rename = "isSidechain", default)]
    sidechain: Flag,
    #[serde(rename = "isMeta", default)]
    meta: Flag,
    #[serde(rename = "isCompactSummary", default)]
    compact: Flag,
    #[serde(rename = "isVisibleInTranscriptOnly", default)]
    transcript_only: Flag,
    #[serde(borrow, default)]
    timestamp: Str<'a>,
    #[serde(borrow, default)]
    message: Option<Msg<'a>>,
    #[serde(rename = "customTitle", borrow, default)]
    custom_title: Str<'a>,
    #[serde(rename = "aiTitle", borrow, default)]
    ai_title: Str<'a>,
    #[serde(borrow, default)]
    summary: Str<'a>,
    #[serde(rename = "leafUuid", borrow, default)]
    leaf_uuid: Str<'a>,
}

#[derive(Deserialize)]
struct Msg<'a> {
    #[serde(borrow, default)]
    id: Str<'a>,
    #[serde(borrow, default)]
    model: Str<'a>,
    #[serde(borrow, default)]
    content: Content<'a>,
}

/// User text that Claude Code injects rather than the user typing it: local command
/// output, caveats, reminders, background-task notifications, interruption markers.
const INJECTED: &[&str] = &[
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "Caveat: The messages below were generated by the user while running local commands",
    "<bash-stdout>",
    "<bash-stderr>",
    "<system-reminder>",
    "<task-notification>",
    "[Request interrupted by user",
];

/// The text between `<tag>` and `</tag>` in `s`, trimmed.
fn tag<'s>(s: &'s str, name: &str) -> Option<&'s str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let from = s.find(&open)? + open.len();
    let to = from + s[from..].find(&close)?;
    Some(s[from..to].trim())
}

/// A user turn that is a command, as the user typed it: a slash command
/// (`<command-name>` with `<command-message>` / `<command-args>`, in either order)
/// reads as `/name args`, a shell escape (`<bash-input>`) as `!command`.
fn command(text: &str) -> Option<String> {
    let head = text.trim_start();
    if head.starts_with("<command-name>") || head.starts_with("<command-message>") {
        let name = tag(head, "command-name").or_else(|| tag(head, "command-message"))?;
        let name = name.trim_start_matches('/');
        return Some(match tag(head, "command-args").filter(|a| !a.is_empty()) {
            Some(args) => format!("/{name} {args}"),
            None => format!("/{name}"),
        });
    }
    if head.starts_with("<bash-input>") {
        return Some(format!("!{}", tag(head, "bash-input")?));
    }
    None
}

impl LineFormat for ClaudeFormat {
    fn decode(&self, line: &[u8]) -> Decoded {
        let Ok(rec) = serde_json::from_slice::<Record<'_>>(line) else {
            return Decoded::Malformed;
        };
        let kind = rec.kind.get().unwrap_or("");
        let some = |s: &Str<'_>| s.get().map(str::to_string);
        match kind {
            "custom-title" => {
                return some(&rec.custom_title)
                    .map_or(Decoded::Skip, |t| Decoded::Meta(Meta::Custom(t)))
            }
            "ai-title" => {
                return some(&rec.ai_title).map_or(Decoded::Skip, |t| Decoded::Meta(Meta::Ai(t)))
            }
            "summary" => {
                return match (some(&rec.summary), some(&rec.leaf_uuid)) {
                    (Some(text), Some(leaf)) => Decoded::Meta(Meta::Summary { text, leaf }),
                    _ => Decoded::Skip,
                }
            }
            "user" | "assistant" => {}
            // Newer Claude Code (2.1.330 does) records the slash commands it runs itself
            // (`/rename`, `/resume`, `/mcp` ...) as `system` `local_command` records, not
            // as user records: they are the user's turns all the same, shown as typed.
            "system" if rec.subtype.is("local_command") && !rec.meta.0 && !rec.sidechain.0 => {
                return match rec.content.get().and_then(command) {
                    Some(content) => Decoded::Piece(Piece {
                        prompt: Prompt::Command,
                        role: "user".to_string(),
                        merge: Some(format!("{ONCE}{content}").into()),
                        content,
                        timestamp: rec.timestamp.get().map(normalize_time),
                        opens: false,
                    }),
                    None => Decoded::Skip,
                };
            }
            _ => return Decoded::Skip,
        }
        if rec.sidechain.0 || rec.meta.0 || rec.compact.0 || rec.transcript_only.0 {
            return Decoded::Skip;
        }
        let Some(msg) = rec.message else {
            return Decoded::Skip;
        };
        let user = kind == "user";
        if !user && msg.model.is("<synthetic>") {
            return Decoded::Skip;
        }
        let mut text = Text::default();
        match &msg.content {
            Content::Text(s) => text.push(s),
            Content::Blocks(blocks) => {
                for b in blocks {
                    match b.kind.get().unwrap_or("") {
                        "text" => text.push(b.text.get().unwrap_or("")),
                        "tool_use" | "server_tool_use" if !user => text.tool(b.name.get()),
                        "image" => text.push("[image]"),
                        "document" => text.push("[document]"),
                        _ => {}
                    }
                }
            }
            Content::Other => {}
        }
        if text.is_empty() {
            return Decoded::Skip;
        }
        let mut content = text.into_string();
        let mut prompt = Prompt::No;
        let mut merge = if user {
            None
        } else {
            msg.id.get().map(Into::into)
        };
        if user {
            let head = content.trim_start();
            if INJECTED.iter().any(|p| head.starts_with(p)) {
                return Decoded::Skip;
            }
            prompt = match command(head) {
                Some(c) => {
                    // The `system` record of the same command (if any) is this turn too.
                    merge = Some(format!("{ONCE}{c}").into());
                    content = c;
                    Prompt::Command
                }
                None => Prompt::Real { title_at: 0 },
            };
        }
        Decoded::Piece(Piece {
            prompt,
            role: kind.to_string(),
            content,
            timestamp: rec.timestamp.get().map(normalize_time),
            merge,
            opens: false,
        })
    }

    fn title_markers(&self) -> Vec<&[u8]> {
        vec![b"\"custom-title\"", b"\"ai-title\"", b"\"summary\""]
    }

    fn uuid_marker(&self, uuid: &str) -> Option<Vec<u8>> {
        Some(format!("\"uuid\":\"{uuid}\"").into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(line: &str) -> Piece {
        match ClaudeFormat.decode(line.as_bytes()) {
            Decoded::Piece(p) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn decodes_the_record_kinds() {
        let p = piece(
            r#"{"type":"user","message":{"role":"user","content":"Fix it"},"timestamp":"2025-06-01T10:00:00Z","uuid":"u1"}"#,
        );
        assert_eq!(
            (p.role.as_str(), p.content.as_str(), p.prompt),
            ("user", "Fix it", Prompt::Real { title_at: 0 })
        );
        assert_eq!(p.timestamp.as_deref(), Some("2025-06-01T10:00:00.000Z"));
        let a = piece(
            r#"{"type":"assistant","message":{"id":"m1","model":"claude","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Sure"},{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}]}}"#,
        );
        assert_eq!(a.content, "Sure\n[tool: Bash]");
        assert_eq!(a.merge.as_deref(), Some("m1"));
        let skip = [
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}}"#,
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"Caveat: ..."}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"id":"m","content":[{"type":"text","text":"x"}]}}"#,
            r#"{"type":"assistant","message":{"id":"m","model":"<synthetic>","content":[{"type":"text","text":"No response requested."}]}}"#,
            r#"{"type":"system","content":"hook ran","isMeta":false}"#,
            r#"{"type":"file-history-snapshot","messageId":"x","snapshot":{}}"#,
            r#"{"type":"user","message":{"content":"<local-command-stdout>ok</local-command-stdout>"}}"#,
            r#"{"type":"assistant","message":{"id":"m","content":[{"type":"thinking","thinking":"only"}]}}"#,
        ];
        for s in skip {
            assert_eq!(ClaudeFormat.decode(s.as_bytes()), Decoded::Skip, "{s}");
        }
        assert_eq!(
            ClaudeFormat.decode(b"{\"type\":\"user\",\"mess"),
            Decoded::Malformed
        );
        let cmd =
            piece(r#"{"type":"user","message":{"content":"<command-name>/model</command-name>"}}"#);
        assert_eq!(
            (cmd.content.as_str(), cmd.prompt),
            ("/model", Prompt::Command)
        );
        assert_eq!(
            ClaudeFormat.decode(br#"{"type":"custom-title","customTitle":"Mine","sessionId":"s"}"#),
            Decoded::Meta(Meta::Custom("Mine".into()))
        );
    }
}
