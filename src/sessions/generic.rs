//! Generic JSONL transcripts: one record a line, fields found by JSON pointers.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::de::Text;
use super::jsonl::{normalize_time, Decoded, LineFormat, Meta, Piece, Prompt, TitleScan};
use super::store::{file_info, plain_id, require_dir, stem_id, walk, JsonlShell};
use super::{MessagePage, MessageRequest, SessionStore, Timestamp};
use crate::error::{Error, Result};

/// Where the fields of a message are in each JSONL record: JSON pointers (RFC 6901,
/// `/message/role`).
///
/// By default: role at `/role`, content at `/content`, timestamp at `/timestamp`, no
/// title records, and `user` as the role of the prompts that can stand as a title.
///
/// ```
/// use rangeread::sessions::JsonlFields;
///
/// let fields = JsonlFields::default().role("/message/role").content("/message/content");
/// assert_eq!(fields.timestamp.as_deref(), Some("/timestamp"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JsonlFields {
    /// The role of a message; a record without it is not a message.
    pub role: String,
    /// The content: a string, or an array whose strings and `text` fields are joined
    /// (objects with a `name` and a `type` containing `tool` become `[tool: NAME]`).
    pub content: String,
    /// The time of a message: RFC 3339 text, or epoch seconds or milliseconds.
    pub timestamp: Option<String>,
    /// A title; the latest record that has one names the session.
    pub title: Option<String>,
    /// The role whose first message titles a session without title records.
    pub user_role: String,
}

impl Default for JsonlFields {
    fn default() -> Self {
        JsonlFields {
            role: "/role".into(),
            content: "/content".into(),
            timestamp: Some("/timestamp".into()),
            title: None,
            user_role: "user".into(),
        }
    }
}

impl JsonlFields {
    /// By default, `/role`.
    pub fn role(mut self, pointer: impl Into<String>) -> JsonlFields {
        self.role = pointer.into();
        self
    }

    /// By default, `/content`.
    pub fn content(mut self, pointer: impl Into<String>) -> JsonlFields {
        self.content = pointer.into();
        self
    }

    /// By default, `/timestamp`; `None` for records without times.
    pub fn timestamp(mut self, pointer: Option<String>) -> JsonlFields {
        self.timestamp = pointer;
        self
    }

    /// By default, no title records.
    pub fn title(mut self, pointer: Option<String>) -> JsonlFields {
        self.title = pointer;
        self
    }

    /// By default, `user`.
    pub fn user_role(mut self, role: impl Into<String>) -> JsonlFields {
        self.user_role = role.into();
        self
    }

    fn check(&self) -> Result<()> {
        let all = [
            Some(&self.role),
            Some(&self.content),
            self.timestamp.as_ref(),
            self.title.as_ref(),
        ];
        for p in all.into_iter().flatten() {
            if !p.is_empty() && !p.starts_with('/') {
                return Err(Error::InvalidSessionQuery {
                    message: format!(
                        "Invalid JSON pointer {p:?}: it must be empty or start with '/'"
                    ),
                });
            }
        }
        Ok(())
    }
}

/// Sessions stored as JSONL files in a directory (and its subdirectories, 4 levels
/// deep): one session a `*.jsonl` file, its id the file name without `.jsonl`, one
/// message a line, never merged. `updated` is the file's modification time.
///
/// Records whose role field is missing are not messages (a record without a role that
/// has a title field is a title record); lines that are not JSON are malformed (skipped
/// and counted).
///
/// ```
/// use rangeread::sessions::{read_session_messages, JsonlFields, JsonlStore, SessionQuery};
///
/// let store = JsonlStore::open("tests/data/sessions/jsonl", JsonlFields::default().title(Some("/title".into())))?;
/// let r = read_session_messages(&store, &SessionQuery::id("chat-1"))?;
/// assert_eq!(r.session_title, "Weekly planning");
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug)]
pub struct JsonlStore {
    root: PathBuf,
    shell: JsonlShell<GenericFormat>,
}

impl JsonlStore {
    /// Opens the store at `dir` with the given field pointers.
    ///
    /// # Errors
    ///
    /// [`Error::StoreNotFound`] when `dir` is not a directory;
    /// [`Error::InvalidSessionQuery`] for a pointer that does not start with `/`.
    pub fn open(dir: impl AsRef<Path>, fields: JsonlFields) -> Result<JsonlStore> {
        let dir = dir.as_ref();
        fields.check()?;
        require_dir(dir, "jsonl")?;
        let title_marker = fields.title.as_deref().and_then(|p| {
            let key = p.rsplit('/').next()?.replace("~1", "/").replace("~0", "~");
            Some(serde_json::to_string(&key).ok()?.into_bytes())
        });
        Ok(JsonlStore {
            root: dir.to_path_buf(),
            shell: JsonlShell::new(GenericFormat {
                fields,
                marker: title_marker,
            }),
        })
    }

    /// By default, [`TitleScan::Full`] (it matters only with a title pointer).
    pub fn title_scan(mut self, scan: TitleScan) -> JsonlStore {
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
    /// use rangeread::sessions::{read_session_messages, JsonlStore, SessionQuery};
    /// use rangeread::{IndexCache, Reader};
    ///
    /// let cache = Arc::new(IndexCache::new(64 << 20));
    /// let reader = Reader::new().cache(cache.clone());
    /// let store = JsonlStore::open("tests/data/sessions/jsonl", Default::default())?.cache(cache.clone());
    /// read_session_messages(&store, &SessionQuery::id("chat-1"))?;
    /// assert_eq!(cache.len(), 1);
    /// # let _ = reader;
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn cache(mut self, cache: std::sync::Arc<crate::IndexCache>) -> JsonlStore {
        self.shell.set_cache(cache);
        self
    }

    fn files(&self) -> Result<Vec<PathBuf>> {
        walk(&self.root, 4, &|name| name.ends_with(".jsonl"))
    }
}

impl SessionStore for JsonlStore {
    fn list_sessions(&self) -> Result<Vec<super::SessionInfo>> {
        let mut out = Vec::new();
        for path in self.files()? {
            let title = self.shell.engine.title(&path, self.shell.title_scan)?;
            let id = stem_id(&path).unwrap_or_default();
            out.extend(file_info(path, id, title));
        }
        Ok(out)
    }

    fn session(&self, id: &str) -> Result<Option<super::SessionInfo>> {
        if !plain_id(id) {
            return Ok(None);
        }
        let found = self
            .files()?
            .into_iter()
            .filter(|path| stem_id(path).as_deref() == Some(id))
            .filter_map(|path| file_info(path, id.to_string(), None));
        Ok(super::newest(found))
    }

    fn read_messages(
        &self,
        session: &super::SessionInfo,
        request: &MessageRequest,
    ) -> Result<MessagePage> {
        self.shell
            .engine
            .read(&session.path, request, self.shell.title_scan)
    }
}

pub(crate) struct GenericFormat {
    fields: JsonlFields,
    /// The title pointer's last key, quoted as it appears in a record.
    marker: Option<Vec<u8>>,
}

fn text_of(v: &Value, out: &mut Text) {
    match v {
        Value::String(s) => out.push(s),
        Value::Array(items) => {
            for item in items {
                match item {
                    Value::String(s) => out.push(s),
                    Value::Object(o) => {
                        let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
                        if let Some(t) = o.get("text").and_then(Value::as_str) {
                            out.push(t);
                        } else if kind.contains("tool") && !kind.contains("result") {
                            if let Some(name) = o.get("name").and_then(Value::as_str) {
                                out.tool(Some(name));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        Value::Object(o) => {
            if let Some(t) = o.get("text") {
                text_of(t, out);
            }
        }
        _ => {}
    }
}

impl LineFormat for GenericFormat {
    fn decode(&self, line: &[u8]) -> Decoded {
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            return Decoded::Malformed;
        };
        let f = &self.fields;
        let role = v.pointer(&f.role).and_then(Value::as_str);
        let Some(role) = role else {
            let title = f
                .title
                .as_deref()
                .and_then(|p| v.pointer(p))
                .and_then(Value::as_str);
            return match title {
                Some(t) => Decoded::Meta(Meta::Custom(t.to_string())),
                None => Decoded::Skip,
            };
        };
        let mut text = Text::default();
        if let Some(c) = v.pointer(&f.content) {
            text_of(c, &mut text);
        }
        if text.is_empty() {
            return Decoded::Skip;
        }
        let timestamp = f
            .timestamp
            .as_deref()
            .and_then(|p| v.pointer(p))
            .and_then(|t| match t {
                Value::String(s) => Some(normalize_time(s)),
                Value::Number(n) => n
                    .as_f64()
                    .and_then(Timestamp::from_epoch_number)
                    .map(|t| t.to_string()),
                _ => None,
            });
        let prompt = if role == f.user_role {
            Prompt::Real { title_at: 0 }
        } else {
            Prompt::No
        };
        Decoded::Piece(Piece {
            prompt,
            ..Piece::single(role, text.into_string(), timestamp)
        })
    }

    fn title_markers(&self) -> Vec<&[u8]> {
        self.marker.iter().map(Vec::as_slice).collect()
    }
}
