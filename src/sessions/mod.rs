//! Reading agent session transcripts: `read_session_messages`.
//!
//! An agent that can read its earlier sessions ("which session were we talking about
//! X in?") needs the last messages of transcripts that are large, append-only files.
//! This module answers that question over the real on-disk formats of Claude Code,
//! Codex CLI and OpenCode, over generic JSONL, and over any backend a host brings by
//! implementing [`SessionStore`].
//!
//! ```
//! use rangeread::sessions::{read_session_messages, ClaudeStore, Order, SessionQuery};
//!
//! let store = ClaudeStore::open("tests/data/sessions/claude")?;
//! let query = SessionQuery::title("fix the").limit(2).order(Order::Newest);
//! let result = read_session_messages(&store, &query)?;
//! assert_eq!(result.session_title, "Fix the parser");
//! assert_eq!(result.messages.len(), 2);
//! // snake_case by default; the seed's camelCase shape is one call away:
//! let json = serde_json::to_value(result.camel_case())?;
//! assert!(json.get("sessionTitle").is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The query
//!
//! A [`SessionQuery`] names a session by `session_id`, or searches `search_title`
//! (case-insensitive substring; several matches: the most recently updated first), or
//! searches message content (`search_content`). It pages with `limit` (default 20) and
//! `offset`, in `order` [`Order::Oldest`] (the first messages, oldest first; the default)
//! or [`Order::Newest`] (the last messages, newest first, `offset` counted from the newest
//! end), and filters by time with `since` / `until`. [`read_session_messages`] returns one
//! session; [`read_sessions`] returns every session asked for (`session_ids`) or matched.
//!
//! # What a message is
//!
//! Messages are conversation turns: the user's prompts and the agent's replies, as the
//! agent's own UI shows them. Tool results, meta records, injected context (environment,
//! instructions, skills, command output, background-task notices) and bookkeeping
//! records are skipped; one reply that the store wrote as several records is one
//! message; `content` is the text joined with `\n`, a tool call appears as
//! `[tool: NAME]`, an image as `[image]`, and thinking / reasoning is not content.
//! Which records count, store by store (each store's documentation has the full list):
//!
//! - [`ClaudeStore`]: `user` and `assistant` records; records sharing `message.id` are
//!   one reply; `<task-notification>` turns, local command output, caveats, reminders,
//!   `isMeta`, sidechain and compaction records are not turns; a slash command reads as
//!   `/name args`, also when Claude Code wrote it as a `system` `local_command` record
//!   (2.1.38 and 2.1.330 do; one turn when it wrote it both ways). Title: the latest
//!   `custom-title` (`/rename`), else the latest `ai-title`, else a `summary` of this
//!   session, else the first prompt.
//! - [`CodexStore`]: the user's turns are the `event_msg` `user_message` events, or from
//!   0.15x on (0.154, 0.169), which write none, the `event_msg` `item_completed` events
//!   of a `UserMessage` item (the user response items are not read: they also carry
//!   injected AGENTS.md, environment, `<skill>` and IDE text); every assistant message
//!   item is a message of its own, with the tool calls that follow it in its turn;
//!   early rollouts without events read their user items.
//! - [`OpenCodeStore`]: `user` and `assistant` messages (each assistant message on its
//!   own: 1.x starts one after each tool call), their `text` parts (not `synthetic` or
//!   `ignored` ones), `tool` and `file` parts; subagent (child) sessions are not listed;
//!   `New session - ...` / `Child session - ...` are placeholders, not titles.
//! - [`JsonlStore`]: every record with a role; one message a line.
//!
//! # Agent versions known to read right
//!
//! Checked on real files (`tests/data/sessions/real`, sources in
//! `tests/data/sessions/SOURCES.md`), against what the agent itself shows:
//!
//! - Claude Code 2.0.76, 2.1.38 and 2.1.39, from public repositories (compactions,
//!   background-task notifications, slash commands, a `summary` of another session,
//!   subagents), and 2.1.330, written here by the agent against a scripted local model
//!   (real `ai-title` and `custom-title` records, `claude -p`, `/rename`).
//! - Codex CLI 0.48, 0.107, 0.108, 0.118 and 0.154, from public repositories (VS Code,
//!   Desktop and TUI sessions, IDE context, skills, web search, a compressed `.jsonl.zst`
//!   rollout, 0.15x's `item_completed` user turns), and 0.169, written here by the agent
//!   (`codex exec`, `exec resume`, a tool call).
//! - OpenCode 0.5.29, 1.0.185 and 1.1.65 (JSON trees) and 1.2.27, 1.14.41 and 1.18.33
//!   (`opencode.db`), written here by the agent against a scripted local model, and a
//!   1.1.65 tree migrated by 1.2.27 (tool calls, `--continue`, subagents, placeholder
//!   titles), compared with `opencode export` and `opencode session list`.
//!
//! Other versions are read by the same rules as long as they write the same records:
//! Claude Code 1.x and early Codex rollouts (mid-2025, bare items) are tested on
//! hand-written records in their documented shapes only.
//!
//! # Scoping to a project
//!
//! A store can be scoped to one project directory with its `project` setter
//! ([`ClaudeStore::project`], [`CodexStore::project`], [`OpenCodeStore::project`]): it
//! then lists and finds only the sessions the agent ran there (Claude Code's project
//! folder named after the directory, Codex's `session_meta` `cwd`, OpenCode's project
//! worktree or session directory), and the "Available sessions" of a failed search
//! name only those.
//!
//! # Cost
//!
//! The JSONL stores ([`ClaudeStore`], [`CodexStore`], [`JsonlStore`]) read a transcript
//! like any huge file: the last N messages are found by walking lines backwards from the
//! end (the crate's backward line scan), so they cost O(N) whatever the file's size, and
//! the first N messages cost O(N) from the start. Two things need the whole file:
//!
//! - `message_count`, the exact number of messages in the session. What the counting
//!   pass learns is kept in an [`crate::IndexCache`] (the store's own, or the one given
//!   with the store's `cache` setter, shared with a [`crate::Reader`] under one budget):
//!   by file identity, validated on every use, continued from where it stopped when the
//!   transcript grows by appending, dropped when it is rewritten or replaced. A caller
//!   that does not need it sets `count: false`: `message_count` is then `null` and no
//!   full pass happens.
//! - Titles, for listing and title search, with [`TitleScan::Full`] (the default): a
//!   search for title records over the whole file (SIMD substring search, no JSON
//!   parsing), cached the same way. With `count: false`, the title of the session being
//!   read is taken from a cached scan when there is a fresh one, and otherwise from the
//!   first and last MiB of the file only ([`TitleScan::Bounded`]).
//!
//! Codex's compressed rollouts (`*.jsonl.zst`) have no positional reads: one is
//! decompressed into memory whole (at most [`CodexStore::max_decompressed`] bytes) to be
//! read, so even its last N messages cost the whole file, and nothing of it is cached.
//!
//! Malformed lines (a torn last line being written, garbage) are skipped and counted
//! (`malformed_lines` in the result), never fatal. A transcript rewritten, truncated or
//! replaced while it is read is read again (up to 3 times, then `File changed while
//! reading`): a page never mixes two states of the file. Codex's `session_index.jsonl`
//! is parsed once and followed over appended lines the same way. [`OpenCodeStore`]
//! keeps nothing in the cache: its SQLite database and small JSON files have no lines
//! to index.
//!
//! # Errors
//!
//! - neither an id nor a search: [`Error::SessionQueryMissing`],
//!   `Either session_id or search_title must be provided`;
//! - an unknown id: [`Error::SessionNotFound`], `Session not found: "ID"`;
//! - no title matches: [`Error::NoMatchingSession`], `No sessions found matching "X".
//!   Available sessions: A, B, C` (at most 10 titles, the closest to the search first by
//!   an approximate-substring score, so that a typo still leads somewhere);
//! - a store directory that does not exist: [`Error::StoreNotFound`];
//! - an `opencode.db` that this build cannot read (no `opencode` feature):
//!   [`Error::Store`], naming the feature, never the older legacy sessions alone.
//!
//! A tool wrapper returns every error as structured output with `isError: true`;
//! [`Error::kind`] gives a machine-readable name for it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

mod claude;
mod codex;
mod de;
mod fuzzy;
mod generic;
mod jsonl;
mod opencode;
mod query;
mod store;
mod time;
mod zst;

pub use claude::ClaudeStore;
pub use codex::CodexStore;
pub use generic::{JsonlFields, JsonlStore};
pub use jsonl::TitleScan;
pub use opencode::OpenCodeStore;
pub use query::{MessageRequest, Order, SessionQuery};
pub use time::Timestamp;

pub(crate) use query::contains_ignore_case;

/// How many titles an [`Error::NoMatchingSession`] lists.
const AVAILABLE_CAP: usize = 10;

/// One session of a store, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SessionInfo {
    /// The store's id for the session (Claude Code and Codex: the UUID of the file).
    pub id: String,
    /// The title, when the store knows one without reading the session (see each store).
    pub title: Option<String>,
    /// When the session was last updated (the file's modification time for JSONL
    /// stores).
    pub updated: Option<Timestamp>,
    /// The file (or database) the session lives in.
    pub path: PathBuf,
}

/// One conversation turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `user` or `assistant` for the built-in agent stores; whatever the role field holds
    /// for [`JsonlStore`].
    pub role: String,
    /// The text of the turn: text blocks joined with `\n`, tool calls as `[tool: NAME]`.
    pub content: String,
    /// When the turn was written, as RFC 3339 UTC (`2025-06-01T12:00:00.000Z`); the
    /// original text when it could not be parsed as a date.
    pub timestamp: Option<String>,
}

impl Message {
    /// The timestamp, parsed.
    pub fn time(&self) -> Option<Timestamp> {
        self.timestamp.as_deref().and_then(Timestamp::parse_text)
    }
}

/// The result of [`read_session_messages`]: snake_case fields with serde.
///
/// `message_count` is the number of messages in the whole session (not only in
/// `messages`), or `None` when the query set `count: false`. `malformed_lines` (how many
/// lines read for this result could not be parsed and were skipped) is serialized only
/// when it is not 0, so that the shape stays the seed's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SessionMessages {
    /// The session's id.
    pub session_id: String,
    /// The session's title (its id when it has none).
    pub session_title: String,
    /// Messages in the whole session, or `None` when counting was turned off.
    pub message_count: Option<u64>,
    /// The messages asked for, in the query's order.
    pub messages: Vec<Message>,
    /// Lines skipped because they could not be parsed, among those read.
    #[serde(skip_serializing_if = "is_zero")]
    pub malformed_lines: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl SessionMessages {
    /// The same result with the seed's camelCase field names (`sessionId`,
    /// `sessionTitle`, `messageCount`, `messages`): `serde_json::to_string(&r.camel_case())`.
    pub fn camel_case(&self) -> SessionMessagesCamel<'_> {
        SessionMessagesCamel {
            session_id: &self.session_id,
            session_title: &self.session_title,
            message_count: self.message_count,
            messages: &self.messages,
            malformed_lines: self.malformed_lines,
        }
    }
}

/// [`SessionMessages`] serialized with camelCase field names; see
/// [`SessionMessages::camel_case`].
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionMessagesCamel<'a> {
    /// The session's id.
    pub session_id: &'a str,
    /// The session's title.
    pub session_title: &'a str,
    /// Messages in the whole session, or `None`.
    pub message_count: Option<u64>,
    /// The messages asked for.
    pub messages: &'a [Message],
    /// Lines skipped because they could not be parsed.
    #[serde(skip_serializing_if = "is_zero")]
    pub malformed_lines: u64,
}

/// What a store returns for one session: the window of messages asked for, the count,
/// and what it learned about the title while reading.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MessagePage {
    /// The messages of the window, in the request's order.
    pub messages: Vec<Message>,
    /// Messages in the whole session when the request asked for a count.
    pub message_count: Option<u64>,
    /// The session's title, if the store found one (it overrides the listing's).
    pub title: Option<String>,
    /// Lines (or records) skipped because they could not be parsed.
    pub malformed_lines: u64,
}

impl MessagePage {
    /// Applies a request to all the messages of a session, oldest first: the helper for
    /// stores that load a whole session anyway (a database, an SDK).
    ///
    /// ```
    /// use rangeread::sessions::{Message, MessagePage, Order, SessionQuery};
    ///
    /// let all: Vec<Message> = (1..=5)
    ///     .map(|i| Message { role: "user".into(), content: format!("m{i}"), timestamp: None })
    ///     .collect();
    /// let req = SessionQuery::id("x").order(Order::Newest).limit(2).offset(1).request();
    /// let page = MessagePage::from_messages(all, &req);
    /// let got: Vec<_> = page.messages.iter().map(|m| m.content.as_str()).collect();
    /// assert_eq!(got, ["m4", "m3"]);
    /// assert_eq!(page.message_count, Some(5));
    /// ```
    pub fn from_messages(all: Vec<Message>, request: &MessageRequest) -> MessagePage {
        let total = all.len() as u64;
        let matching = all.into_iter().filter(|m| request.matches(m));
        let messages = match request.order {
            Order::Oldest => matching.skip(request.offset).take(request.limit).collect(),
            Order::Newest => {
                let v: Vec<Message> = matching.collect();
                v.into_iter()
                    .rev()
                    .skip(request.offset)
                    .take(request.limit)
                    .collect()
            }
        };
        MessagePage {
            messages,
            message_count: request.count.then_some(total),
            title: None,
            malformed_lines: 0,
        }
    }
}

/// A place sessions live in: lists them and reads their messages.
///
/// The built-in stores read real agent formats from disk; a host implements this trait
/// over its own backend (an SDK, a server) and gets the query, the errors and the result
/// shape of [`read_session_messages`] for free. [`MessagePage::from_messages`] does the
/// windowing for a store that loads whole sessions.
///
/// ```
/// use rangeread::sessions::*;
///
/// struct Memory(Vec<(SessionInfo, Vec<Message>)>);
///
/// impl SessionStore for Memory {
///     fn list_sessions(&self) -> rangeread::Result<Vec<SessionInfo>> {
///         Ok(self.0.iter().map(|(info, _)| info.clone()).collect())
///     }
///     fn read_messages(
///         &self,
///         session: &SessionInfo,
///         request: &MessageRequest,
///     ) -> rangeread::Result<MessagePage> {
///         let all = self.0.iter().find(|(i, _)| i.id == session.id).map(|(_, m)| m.clone());
///         Ok(MessagePage::from_messages(all.unwrap_or_default(), request))
///     }
/// }
///
/// let info = SessionInfo { id: "s1".into(), title: Some("Demo".into()), updated: None, path: "".into() };
/// let hi = Message { role: "user".into(), content: "hi".into(), timestamp: None };
/// let store = Memory(vec![(info, vec![hi])]);
/// let r = read_session_messages(&store, &SessionQuery::title("demo"))?;
/// assert_eq!((r.session_id.as_str(), r.message_count), ("s1", Some(1)));
/// # Ok::<(), rangeread::Error>(())
/// ```
pub trait SessionStore {
    /// Every session of the store, in no particular order.
    ///
    /// # Errors
    ///
    /// I/O and store errors.
    fn list_sessions(&self) -> Result<Vec<SessionInfo>>;

    /// The session with this id, if any. The default lists the sessions and looks;
    /// stores override it when an id leads to the session directly.
    ///
    /// # Errors
    ///
    /// As [`SessionStore::list_sessions`].
    fn session(&self, id: &str) -> Result<Option<SessionInfo>> {
        Ok(self.list_sessions()?.into_iter().find(|s| s.id == id))
    }

    /// Reads a window of a session's messages.
    ///
    /// # Errors
    ///
    /// I/O and store errors; a malformed record is skipped, never an error.
    fn read_messages(&self, session: &SessionInfo, request: &MessageRequest)
        -> Result<MessagePage>;
}

/// Reads the messages of one session: the one named by `session_id`, else the most
/// recently updated one whose title contains `search_title` (and, if set, with a message
/// containing `search_content`).
///
/// # Errors
///
/// [`Error::SessionQueryMissing`], [`Error::SessionNotFound`],
/// [`Error::NoMatchingSession`], [`Error::InvalidSessionQuery`], and the store's I/O
/// errors.
pub fn read_session_messages<S: SessionStore + ?Sized>(
    store: &S,
    query: &SessionQuery,
) -> Result<SessionMessages> {
    let mut q = query.clone();
    if q.session_id.is_none() && !q.session_ids.is_empty() {
        q.session_id = q.session_ids.first().cloned();
    }
    q.max_sessions = 1;
    let mut all = read_sessions(store, &q)?;
    Ok(all.swap_remove(0))
}

/// Reads several sessions in one call: every id of `session_ids` (and `session_id`),
/// in the order given, or else every session matching `search_title` /
/// `search_content`, most recently updated first, at most `max_sessions`. Each result
/// carries the query's window of its own messages.
///
/// # Errors
///
/// As [`read_session_messages`]; an unknown id fails the whole call.
pub fn read_sessions<S: SessionStore + ?Sized>(
    store: &S,
    query: &SessionQuery,
) -> Result<Vec<SessionMessages>> {
    query.validate()?;
    let request = query.request();
    let mut ids: Vec<&str> = query.session_id.iter().map(String::as_str).collect();
    ids.extend(query.session_ids.iter().map(String::as_str));
    if !ids.is_empty() {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let info = store
                .session(id)?
                .ok_or_else(|| Error::SessionNotFound { id: id.to_string() })?;
            out.push(read_one(store, &info, &request)?);
        }
        return Ok(out);
    }
    let title = query.search_title.as_deref().filter(|t| !t.is_empty());
    let content = request.contains.as_deref();
    if title.is_none() && content.is_none() {
        return Err(Error::SessionQueryMissing);
    }
    let mut sessions = store.list_sessions()?;
    sort_recent_first(&mut sessions);
    let searched = title
        .or(query.search_content.as_deref())
        .unwrap_or_default();
    let mut candidates: Vec<&SessionInfo> = match title {
        Some(t) => {
            let needle = t.to_lowercase();
            sessions
                .iter()
                .filter(|s| contains_ignore_case(display_title(s), &needle))
                .collect()
        }
        None => sessions.iter().collect(),
    };
    let mut out = Vec::new();
    let cap = query.max_sessions.max(1);
    if content.is_some() {
        // A session matches when at least one message contains the text.
        let probe = MessageRequest {
            order: Order::Newest,
            offset: 0,
            limit: 1,
            count: false,
            ..request.clone()
        };
        let mut kept = Vec::new();
        for s in candidates {
            if kept.len() == cap {
                break;
            }
            if !store.read_messages(s, &probe)?.messages.is_empty() {
                kept.push(s);
            }
        }
        candidates = kept;
    }
    if candidates.is_empty() {
        return Err(no_match(searched, &sessions));
    }
    for s in candidates.into_iter().take(cap) {
        out.push(read_one(store, s, &request)?);
    }
    Ok(out)
}

/// The most recently updated of `infos`; the first of equally recent ones.
pub(crate) fn newest(infos: impl IntoIterator<Item = SessionInfo>) -> Option<SessionInfo> {
    infos.into_iter().fold(None, |best, info| match best {
        Some(b) if info.updated > b.updated => Some(info),
        None => Some(info),
        kept => kept,
    })
}

/// Lists a store's sessions, most recently updated first.
///
/// # Errors
///
/// As [`SessionStore::list_sessions`].
pub fn list_sessions<S: SessionStore + ?Sized>(store: &S) -> Result<Vec<SessionInfo>> {
    let mut v = store.list_sessions()?;
    sort_recent_first(&mut v);
    Ok(v)
}

fn sort_recent_first(v: &mut [SessionInfo]) {
    v.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| a.id.cmp(&b.id)));
}

fn display_title(s: &SessionInfo) -> &str {
    s.title.as_deref().unwrap_or(&s.id)
}

fn read_one<S: SessionStore + ?Sized>(
    store: &S,
    info: &SessionInfo,
    request: &MessageRequest,
) -> Result<SessionMessages> {
    let page = if request.limit == 0 && !request.count && info.title.is_some() {
        MessagePage::default()
    } else {
        store.read_messages(info, request)?
    };
    Ok(SessionMessages {
        session_id: info.id.clone(),
        session_title: page
            .title
            .or_else(|| info.title.clone())
            .unwrap_or_else(|| info.id.clone()),
        message_count: page.message_count,
        messages: page.messages,
        malformed_lines: page.malformed_lines,
    })
}

/// The no-match error, listing the closest titles first (ties: most recent first).
fn no_match(query: &str, sessions: &[SessionInfo]) -> Error {
    let mut scored: Vec<(f64, usize, &str)> = sessions
        .iter()
        .enumerate()
        .map(|(i, s)| (fuzzy::score(query, display_title(s)), i, display_title(s)))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut available: Vec<String> = Vec::new();
    for (_, _, t) in scored {
        if available.len() == AVAILABLE_CAP {
            break;
        }
        if !available.iter().any(|a| a == t) {
            available.push(t.to_string());
        }
    }
    Error::NoMatchingSession {
        query: query.to_string(),
        available,
    }
}

/// A title for a session that has no title record: the first line of its first real
/// prompt, at most 100 characters.
pub(crate) fn title_from_prompt(text: &str) -> Option<String> {
    let line = crate::text::split_lines(text)
        .map(|(l, _)| l.trim())
        .find(|l| !l.is_empty())?;
    const MAX: usize = 100;
    if line.chars().count() <= MAX {
        return Some(line.to_string());
    }
    let cut: String = line.chars().take(MAX - 1).collect();
    Some(format!("{}…", cut.trim_end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_insensitive_contains() {
        assert!(contains_ignore_case("Fix the Parser", "parser"));
        assert!(contains_ignore_case("ÉTÉ chaud", "été"));
        assert!(!contains_ignore_case("abc", "abd"));
    }

    #[test]
    fn prompt_titles_are_first_line_and_capped() {
        assert_eq!(
            title_from_prompt("\n  hello\nworld").as_deref(),
            Some("hello")
        );
        let long = "x".repeat(300);
        let t = title_from_prompt(&long).unwrap();
        assert_eq!(t.chars().count(), 100);
        assert!(t.ends_with('…'));
        assert_eq!(title_from_prompt("   \n "), None);
    }
}
