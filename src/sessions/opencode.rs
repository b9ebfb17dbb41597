//! OpenCode sessions: the SQLite database `opencode.db` and the legacy JSON `storage/`
//! tree.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::de::Text;
use super::store::{agent_dir, plain_id, read_dir, Project};
use super::{
    title_from_prompt, Message, MessagePage, MessageRequest, SessionInfo, SessionStore, Timestamp,
};
use crate::error::{Error, Result};

/// The sessions of OpenCode, read from its data directory (default
/// `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`).
///
/// # Format versions
///
/// Checked on stores that real OpenCode releases wrote (0.5.29, 1.0.185, 1.1.65 for the
/// JSON trees; 1.2.27, 1.14.41, 1.18.33 for the database):
///
/// - `opencode.db` (1.2.27 and later write it, 1.1.65 does not; needs the crate
///   feature `opencode`, which brings rusqlite with a bundled SQLite): tables `session`
///   (`id`, `title`, `directory`, `project_id`, `parent_id`, `time_updated`, ...),
///   `message` (`id`, `session_id`, `time_created`, `data` JSON with `role` and
///   `time.created`) and `part` (`id`, `message_id`, `data` JSON with `type` and
///   `text` / `tool`). The database is opened read-only, through its write-ahead log: a
///   running OpenCode may keep writing to it.
/// - The JSON tree `storage/` (1.0.185 and 1.1.65 write it; the change from the
///   per-project trees came between 0.5.29 and 1.0): `session/<project>/<id>.json`,
///   `message/<session>/<id>.json`, `part/<message>/<id>.json`. OpenCode 1.2 leaves it
///   beside the database it migrated it to. Read without any feature.
/// - The per-project trees of OpenCode 0.x (0.5.29 writes them),
///   `project/<slug>/storage/`: `session/info/<id>.json`,
///   `session/message/<session>/<id>.json`,
///   `session/part/<session>/<message>/<id>.json`. Read without any feature.
///
/// When both hold the same session, the database wins. A build without the `opencode`
/// feature refuses a directory that has an `opencode.db` (the legacy tree beside it holds
/// only the sessions from before the database, and showing them as if they were all
/// would mislead): [`OpenCodeStore::open`] fails naming the feature, and
/// [`OpenCodeStore::open_legacy`] reads the legacy tree alone when that is what the
/// caller wants.
///
/// # Messages
///
/// What `opencode export` lists, message for message:
///
/// - Kept: `user` and `assistant` messages, oldest first (by creation time, then id).
///   Content is the `text` parts joined with `\n` (the final newline `opencode run`
///   stores after a prompt left out); `tool` parts appear as `[tool: NAME]`, `file`
///   parts as `[file: NAME]`. Each assistant message is one message: OpenCode 1.x
///   starts a new one after each tool call (a `[tool: bash]` message, then the reply),
///   0.x kept the steps of a turn in one message.
/// - Skipped: `synthetic` or `ignored` text parts (injected file contents, reminders),
///   `reasoning`, `step-start`, `step-finish`, `snapshot`, `patch` and other parts, and
///   messages left with no content.
///
/// A session is loaded whole to be read: the cost is the session's size, not the
/// window's.
///
/// # Sessions
///
/// The sessions OpenCode lists (`opencode session list`, its session picker): a
/// subagent's session (a child session, with a parent) is not listed, as Claude Code's
/// subagent transcripts are not; it can still be read by its id.
///
/// # Titles
///
/// The session's `title`, except the placeholders OpenCode sets before it has named a
/// session (`New session - <date>`, `Child session - <date>`): then the first line of
/// the first user message.
///
/// # Project scoping
///
/// [`OpenCodeStore::project`] keeps the sessions of one project: those whose project's
/// worktree (`storage/project/<id>.json`, the `project` table) or whose own `directory`
/// is the directory, and for OpenCode 0.x those of the tree named after it
/// (`project/home-me-app/` for `/home/me/app`; sessions run outside a git repository
/// are in `project/global/` and belong to no project).
#[derive(Debug)]
pub struct OpenCodeStore {
    dir: PathBuf,
    db: Option<PathBuf>,
    storage: Option<PathBuf>,
    /// The per-project trees of OpenCode 0.x, `project/<slug>/storage`, with their slug.
    project_trees: Vec<(String, PathBuf)>,
    project: Option<Project>,
}

impl OpenCodeStore {
    /// Opens the store at `dir`, OpenCode's data directory (the one that holds
    /// `opencode.db` and/or `storage/`).
    ///
    /// # Errors
    ///
    /// [`Error::StoreNotFound`] when `dir` is not a directory or holds none of
    /// `opencode.db`, `storage/` and 0.x `project/*/storage/` trees;
    /// [`Error::Store`] when it holds `opencode.db` and the crate was built without the
    /// `opencode` feature (with or without a legacy tree beside it).
    pub fn open(dir: impl AsRef<Path>) -> Result<OpenCodeStore> {
        OpenCodeStore::open_with(dir.as_ref(), true)
    }

    /// Opens only the legacy JSON tree `storage/` of `dir`, leaving any `opencode.db`
    /// aside: for a build without the `opencode` feature whose caller knows that the
    /// sessions in the database will be missing.
    ///
    /// # Errors
    ///
    /// [`Error::StoreNotFound`] when `dir` has neither a `storage/` directory nor 0.x
    /// `project/*/storage/` trees.
    pub fn open_legacy(dir: impl AsRef<Path>) -> Result<OpenCodeStore> {
        OpenCodeStore::open_with(dir.as_ref(), false)
    }

    fn open_with(dir: &Path, with_db: bool) -> Result<OpenCodeStore> {
        let db = dir.join("opencode.db");
        let storage = dir.join("storage");
        let db = (with_db && db.is_file()).then_some(db);
        let storage = storage.is_dir().then_some(storage);
        let project_trees = legacy::project_trees(dir)?;
        if !dir.is_dir() || (db.is_none() && storage.is_none() && project_trees.is_empty()) {
            return Err(Error::StoreNotFound {
                path: dir.to_path_buf(),
                store: "opencode",
            });
        }
        if let (Some(db), false) = (&db, cfg!(feature = "opencode")) {
            let beside = if storage.is_some() {
                "; the legacy storage/ tree beside it holds only the older sessions (open it \
                 alone with OpenCodeStore::open_legacy if that is what you want)"
            } else {
                ""
            };
            return Err(Error::Store {
                path: db.clone(),
                message: format!(
                    "OpenCode keeps its sessions in opencode.db, and this build of rangeread \
                     cannot read it: enable rangeread's `opencode` feature{beside}"
                ),
            });
        }
        Ok(OpenCodeStore {
            dir: dir.to_path_buf(),
            db,
            storage,
            project_trees,
            project: None,
        })
    }

    /// Opens the store at [`OpenCodeStore::default_dir`].
    ///
    /// # Errors
    ///
    /// As [`OpenCodeStore::open`].
    pub fn open_default() -> Result<OpenCodeStore> {
        OpenCodeStore::open(
            OpenCodeStore::default_dir()
                .unwrap_or_else(|| PathBuf::from("~/.local/share/opencode")),
        )
    }

    /// `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`.
    pub fn default_dir() -> Option<PathBuf> {
        agent_dir(
            "XDG_DATA_HOME",
            &["opencode"],
            &[".local", "share", "opencode"],
        )
    }

    /// By default, every project's sessions are listed and read. Scoped to `dir`, the
    /// store sees only the sessions of the project whose worktree is that directory (or
    /// that ran in it); an id of another project is not found, and "Available sessions"
    /// lists only this project's.
    pub fn project(mut self, dir: impl AsRef<Path>) -> OpenCodeStore {
        self.project = Some(Project::new(dir.as_ref()));
        self
    }

    /// The data directory being read.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The SQLite database, when the directory has one.
    pub fn database(&self) -> Option<&Path> {
        self.db.as_deref()
    }

    /// The legacy JSON tree, when the directory has one.
    pub fn storage(&self) -> Option<&Path> {
        self.storage.as_deref()
    }

    fn load(&self, session: &SessionInfo) -> Result<Vec<Message>> {
        #[cfg(feature = "opencode")]
        if self.db.as_deref() == Some(session.path.as_path()) {
            return sqlite::messages(&session.path, &session.id);
        }
        // A legacy session's path is `<tree>/session/<project or info>/<id>.json`.
        match session.path.ancestors().nth(3) {
            Some(tree) => legacy::messages(tree, &session.id),
            None => Ok(Vec::new()),
        }
    }

    /// Every legacy session in scope: the `storage/` tree's, then the 0.x per-project
    /// trees' (those of the scoped project only).
    fn legacy_sessions(&self, children: bool) -> Result<Vec<SessionInfo>> {
        let mut out = Vec::new();
        if let Some(storage) = &self.storage {
            out.extend(legacy::sessions(storage, self.project.as_ref(), children)?);
        }
        for (slug, tree) in &self.project_trees {
            if let Some(project) = &self.project {
                if !project.is_opencode_slug(slug) {
                    continue;
                }
            }
            out.extend(legacy::sessions(tree, None, children)?);
        }
        Ok(out)
    }

    fn fill_title(&self, info: &mut SessionInfo) -> Result<()> {
        if info.title.as_deref().is_some_and(is_placeholder) || info.title.is_none() {
            let messages = self.load(info)?;
            info.title = first_prompt(&messages);
        }
        Ok(())
    }
}

fn is_placeholder(title: &str) -> bool {
    let t = title.trim();
    t.is_empty() || t.starts_with("New session - ") || t.starts_with("Child session - ")
}

fn first_prompt(messages: &[Message]) -> Option<String> {
    messages
        .iter()
        .find(|m| m.role == "user")
        .and_then(|m| title_from_prompt(&m.content))
}

impl SessionStore for OpenCodeStore {
    fn list_sessions(&self) -> Result<Vec<SessionInfo>> {
        let mut by_id: HashMap<String, SessionInfo> = HashMap::new();
        for s in self.legacy_sessions(false)? {
            by_id.insert(s.id.clone(), s);
        }
        #[cfg(feature = "opencode")]
        if let Some(db) = &self.db {
            for s in sqlite::sessions(db, self.project.as_ref(), false)? {
                by_id.insert(s.id.clone(), s);
            }
        }
        let mut out: Vec<SessionInfo> = by_id.into_values().collect();
        for info in &mut out {
            self.fill_title(info)?;
        }
        Ok(out)
    }

    fn session(&self, id: &str) -> Result<Option<SessionInfo>> {
        if !plain_id(id) {
            return Ok(None);
        }
        #[cfg(feature = "opencode")]
        if let Some(db) = &self.db {
            let found = sqlite::sessions(db, self.project.as_ref(), true)?;
            if let Some(s) = found.into_iter().find(|s| s.id == id) {
                return Ok(Some(s));
            }
        }
        Ok(self.legacy_sessions(true)?.into_iter().find(|s| s.id == id))
    }

    fn read_messages(
        &self,
        session: &SessionInfo,
        request: &MessageRequest,
    ) -> Result<MessagePage> {
        let all = self.load(session)?;
        let title = match session.title.as_deref() {
            Some(t) if !is_placeholder(t) => Some(t.to_string()),
            _ => first_prompt(&all),
        };
        let mut page = MessagePage::from_messages(all, request);
        page.title = title;
        Ok(page)
    }
}

/// Turns a message's role, time and parts (`data` JSON values) into a message.
fn message(role: &str, created: Option<Timestamp>, parts: &[Value]) -> Option<Message> {
    if role != "user" && role != "assistant" {
        return None;
    }
    let mut text = Text::default();
    for p in parts {
        let flag = |k: &str| p.get(k).and_then(Value::as_bool).unwrap_or(false);
        match p.get("type").and_then(Value::as_str).unwrap_or("") {
            // `opencode run` stores a prompt with a final newline the TUI does not show.
            "text" if !flag("synthetic") && !flag("ignored") => {
                text.push(
                    p.get("text")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .trim_end(),
                );
            }
            "tool" => text.tool(p.get("tool").and_then(Value::as_str)),
            "file" => {
                let name = p
                    .get("filename")
                    .or_else(|| p.get("url"))
                    .and_then(Value::as_str)
                    .unwrap_or("file");
                text.push(&format!("[file: {name}]"));
            }
            _ => {}
        }
    }
    if text.is_empty() {
        return None;
    }
    Some(Message {
        role: role.to_string(),
        content: text.into_string(),
        timestamp: created.map(|t| t.to_string()),
    })
}

fn time_at(v: &Value, pointer: &str) -> Option<Timestamp> {
    match v.pointer(pointer)? {
        Value::Number(n) => n.as_f64().and_then(Timestamp::from_epoch_number),
        Value::String(s) => Timestamp::parse_text(s),
        _ => None,
    }
}

/// The legacy JSON tree.
mod legacy {
    use super::*;

    fn read_json(path: &Path) -> Option<Value> {
        let bytes = std::fs::read(path).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// OpenCode 0.x kept a tree per project, `project/<slug>/storage` (`global` for
    /// directories outside a git repository).
    pub(super) fn project_trees(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
        let root = dir.join("project");
        if !root.is_dir() {
            return Ok(Vec::new());
        }
        Ok(read_dir(&root)?
            .into_iter()
            .filter_map(|p| {
                let slug = p.file_name()?.to_str()?.to_string();
                let tree = p.join("storage");
                tree.join("session").is_dir().then_some((slug, tree))
            })
            .collect())
    }

    fn json_files(dir: &Path) -> Result<Vec<PathBuf>> {
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        Ok(read_dir(dir)?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
            .collect())
    }

    /// The worktree of each project, from `storage/project/<id>.json`.
    fn worktrees(storage: &Path) -> Result<HashMap<String, String>> {
        let mut out = HashMap::new();
        for file in json_files(&storage.join("project"))? {
            let Some(v) = read_json(&file) else {
                continue;
            };
            if let (Some(id), Some(w)) = (
                v.get("id").and_then(Value::as_str),
                v.get("worktree").and_then(Value::as_str),
            ) {
                out.insert(id.to_string(), w.to_string());
            }
        }
        Ok(out)
    }

    /// The sessions of a tree; a subagent's session (with a `parentID`) only when
    /// `children`.
    pub(super) fn sessions(
        storage: &Path,
        scope: Option<&Project>,
        children: bool,
    ) -> Result<Vec<SessionInfo>> {
        let root = storage.join("session");
        let mut out = Vec::new();
        if !root.is_dir() {
            return Ok(out);
        }
        let worktrees = match scope {
            Some(_) => worktrees(storage)?,
            None => HashMap::new(),
        };
        for project in read_dir(&root)? {
            let name = project.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !project.is_dir() || name == "message" || name == "part" {
                continue;
            }
            for file in json_files(&project)? {
                let Some(v) = read_json(&file) else {
                    continue;
                };
                let Some(id) = v.get("id").and_then(Value::as_str) else {
                    continue;
                };
                if !children && v.get("parentID").and_then(Value::as_str).is_some() {
                    continue;
                }
                if let Some(project) = scope {
                    let text = |k: &str| v.get(k).and_then(Value::as_str);
                    let worktree = text("projectID").and_then(|p| worktrees.get(p));
                    let inside = worktree.is_some_and(|w| project.is(w))
                        || text("directory").is_some_and(|d| project.is(d));
                    if !inside {
                        continue;
                    }
                }
                out.push(SessionInfo {
                    id: id.to_string(),
                    title: v.get("title").and_then(Value::as_str).map(str::to_string),
                    updated: time_at(&v, "/time/updated").or_else(|| time_at(&v, "/time/created")),
                    path: file.clone(),
                });
            }
        }
        Ok(out)
    }

    pub(super) fn messages(storage: &Path, session: &str) -> Result<Vec<Message>> {
        let new_layout = storage.join("message").join(session);
        let old_layout = storage.join("session").join("message").join(session);
        let dir = if new_layout.is_dir() {
            new_layout
        } else {
            old_layout
        };
        let mut rows: Vec<(Option<Timestamp>, String, Value)> = Vec::new();
        for file in json_files(&dir)? {
            let Some(v) = read_json(&file) else {
                continue;
            };
            let Some(id) = v.get("id").and_then(Value::as_str).map(str::to_string) else {
                continue;
            };
            rows.push((time_at(&v, "/time/created"), id, v));
        }
        rows.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        let mut out = Vec::new();
        for (created, id, v) in rows {
            let new_parts = storage.join("part").join(&id);
            let old_parts = storage.join("session").join("part").join(session).join(&id);
            let pdir = if new_parts.is_dir() {
                new_parts
            } else {
                old_parts
            };
            let parts: Vec<Value> = json_files(&pdir)?
                .iter()
                .filter_map(|p| read_json(p))
                .collect();
            let role = v.get("role").and_then(Value::as_str).unwrap_or("");
            out.extend(message(role, created, &parts));
        }
        Ok(out)
    }
}

/// `opencode.db`.
#[cfg(feature = "opencode")]
mod sqlite {
    use rusqlite::{Connection, OpenFlags};

    use super::*;

    fn open(db: &Path) -> Result<Connection> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(db, flags).map_err(|e| store_err(db, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(2))
            .map_err(|e| store_err(db, e))?;
        Ok(conn)
    }

    fn store_err(db: &Path, e: rusqlite::Error) -> Error {
        Error::Store {
            path: db.to_path_buf(),
            message: e.to_string(),
        }
    }

    fn columns(conn: &Connection, db: &Path, table: &str) -> Result<Vec<String>> {
        let mut stmt = conn
            .prepare(&format!("PRAGMA table_info({table})"))
            .map_err(|e| store_err(db, e))?;
        let cols = stmt
            .query_map([], |r| r.get::<_, String>(1))
            .map_err(|e| store_err(db, e))?
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| store_err(db, e))?;
        Ok(cols)
    }

    /// The worktree of each project, from the `project` table.
    fn worktrees(conn: &Connection, db: &Path) -> Result<HashMap<String, String>> {
        let cols = columns(conn, db, "project")?;
        if !cols.iter().any(|c| c == "worktree") {
            return Ok(HashMap::new());
        }
        let mut stmt = conn
            .prepare("SELECT id, worktree FROM project")
            .map_err(|e| store_err(db, e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
            })
            .map_err(|e| store_err(db, e))?;
        let mut out = HashMap::new();
        for row in rows {
            if let (id, Some(w)) = row.map_err(|e| store_err(db, e))? {
                out.insert(id, w);
            }
        }
        Ok(out)
    }

    /// The sessions of the database; a subagent's session (with a `parent_id`) only
    /// when `children`.
    pub(super) fn sessions(
        db: &Path,
        scope: Option<&Project>,
        children: bool,
    ) -> Result<Vec<SessionInfo>> {
        let conn = open(db)?;
        let cols = columns(&conn, db, "session")?;
        if cols.is_empty() {
            return Err(Error::Store {
                path: db.to_path_buf(),
                message: "no `session` table: not an OpenCode database".into(),
            });
        }
        let has = |c: &str| cols.iter().any(|x| x == c);
        let title = if has("title") { "title" } else { "NULL" };
        let updated = if has("time_updated") {
            "time_updated"
        } else if has("updated_at") {
            "updated_at"
        } else {
            "NULL"
        };
        let data = if has("data") { "data" } else { "NULL" };
        let directory = if has("directory") {
            "directory"
        } else {
            "NULL"
        };
        let project_id = if has("project_id") {
            "project_id"
        } else {
            "NULL"
        };
        let parent_id = if has("parent_id") {
            "parent_id"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT id, {title}, {updated}, {data}, {directory}, {project_id}, {parent_id} \
             FROM session"
        );
        let worktrees = match scope {
            Some(_) => worktrees(&conn, db)?,
            None => HashMap::new(),
        };
        let mut stmt = conn.prepare(&sql).map_err(|e| store_err(db, e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                ))
            })
            .map_err(|e| store_err(db, e))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, title, updated, data, directory, project_id, parent) =
                row.map_err(|e| store_err(db, e))?;
            let data: Option<Value> = data.and_then(|d| serde_json::from_str(&d).ok());
            let parent =
                parent.or_else(|| data.as_ref()?.get("parentID")?.as_str().map(str::to_string));
            if !children && parent.is_some() {
                continue;
            }
            if let Some(project) = scope {
                let text = |k: &str| data.as_ref()?.get(k)?.as_str().map(str::to_string);
                let project_id = project_id.clone().or_else(|| text("projectID"));
                let directory = directory.clone().or_else(|| text("directory"));
                let worktree = project_id.and_then(|p| worktrees.get(&p));
                let inside = worktree.is_some_and(|w| project.is(w))
                    || directory.is_some_and(|d| project.is(&d));
                if !inside {
                    continue;
                }
            }
            let title = title.or_else(|| {
                data.as_ref()
                    .and_then(|d| d.get("title"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
            let updated = updated
                .and_then(|u| Timestamp::from_epoch_number(u as f64))
                .or_else(|| data.as_ref().and_then(|d| time_at(d, "/time/updated")));
            out.push(SessionInfo {
                id,
                title,
                updated,
                path: db.to_path_buf(),
            });
        }
        Ok(out)
    }

    pub(super) fn messages(db: &Path, session: &str) -> Result<Vec<Message>> {
        let conn = open(db)?;
        let mut stmt = conn
            .prepare(
                "SELECT id, time_created, data FROM message WHERE session_id = ?1 \
                 ORDER BY time_created, id",
            )
            .map_err(|e| store_err(db, e))?;
        let rows = stmt
            .query_map([session], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })
            .map_err(|e| store_err(db, e))?
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| store_err(db, e))?;
        let mut parts: HashMap<String, Vec<Value>> = HashMap::new();
        let mut pstmt = conn
            .prepare(
                "SELECT p.message_id, p.data FROM part p JOIN message m ON p.message_id = m.id \
                 WHERE m.session_id = ?1 ORDER BY p.id",
            )
            .map_err(|e| store_err(db, e))?;
        let prows = pstmt
            .query_map([session], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
            })
            .map_err(|e| store_err(db, e))?;
        for row in prows {
            let (mid, data) = row.map_err(|e| store_err(db, e))?;
            if let Some(v) = data.and_then(|d| serde_json::from_str::<Value>(&d).ok()) {
                parts.entry(mid).or_default().push(v);
            }
        }
        let mut out = Vec::new();
        for (id, created, data) in rows {
            let data: Value = data
                .and_then(|d| serde_json::from_str(&d).ok())
                .unwrap_or(Value::Null);
            let role = data.get("role").and_then(Value::as_str).unwrap_or("");
            let created = time_at(&data, "/time/created")
                .or_else(|| created.and_then(|c| Timestamp::from_epoch_number(c as f64)));
            let empty = Vec::new();
            out.extend(message(role, created, parts.get(&id).unwrap_or(&empty)));
        }
        Ok(out)
    }
}
