//! The query of `read_session_messages`: which sessions, which messages.

use serde::{Deserialize, Serialize};

use super::{Message, Timestamp};
use crate::error::{Error, Result};

/// Which end of a session the messages are taken from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// The first messages, oldest first; `offset` counts from the start. The default.
    #[default]
    Oldest,
    /// The last messages, newest first; `offset` counts from the newest message.
    Newest,
}

impl std::str::FromStr for Order {
    type Err = Error;

    fn from_str(s: &str) -> Result<Order> {
        match s {
            "oldest" => Ok(Order::Oldest),
            "newest" => Ok(Order::Newest),
            _ => Err(Error::InvalidSessionQuery {
                message: format!("Invalid order {s:?}: expected oldest or newest"),
            }),
        }
    }
}

/// What to read: which session(s), which messages, and whether to count.
///
/// Build one with [`SessionQuery::id`], [`SessionQuery::title`] or
/// [`SessionQuery::content`] and the setters, or deserialize one from a tool's JSON
/// input: field names are snake_case, and the seed's camelCase names (`sessionId`,
/// `searchTitle`, ...) are accepted too.
///
/// ```
/// use rangeread::sessions::{Order, SessionQuery};
///
/// let q: SessionQuery = serde_json::from_str(r#"{"sessionId": "abc", "limit": 5}"#)?;
/// assert_eq!(q.session_id.as_deref(), Some("abc"));
/// assert_eq!((q.limit, q.offset, q.order, q.count), (5, 0, Order::Oldest, true));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct SessionQuery {
    /// The id of the session to read.
    #[serde(alias = "sessionId")]
    pub session_id: Option<String>,
    /// Several sessions to read in one call ([`read_sessions`](super::read_sessions)).
    #[serde(alias = "sessionIds")]
    pub session_ids: Vec<String>,
    /// A case-insensitive substring of the title; several matches are ordered most
    /// recently updated first.
    #[serde(alias = "searchTitle")]
    pub search_title: Option<String>,
    /// A case-insensitive substring of message content: only sessions with a message
    /// that contains it match, and only such messages are returned.
    #[serde(alias = "searchContent")]
    pub search_content: Option<String>,
    /// By default, at most 20 messages are returned; 0 returns none (the count and title
    /// only).
    pub limit: usize,
    /// By default, 0: how many messages to skip, from the end `order` starts at.
    pub offset: usize,
    /// By default, [`Order::Oldest`].
    pub order: Order,
    /// By default, `true`: report the exact `message_count`, which needs one (cached)
    /// pass over the whole transcript. `false` reports `null` and keeps a read of the last
    /// messages O(limit).
    pub count: bool,
    /// By default, no lower bound: only messages at or after this time. Messages without
    /// a timestamp are left out when a bound is set.
    pub since: Option<Timestamp>,
    /// By default, no upper bound: only messages at or before this time.
    pub until: Option<Timestamp>,
    /// By default, [`read_sessions`](super::read_sessions) returns at most 10 matching sessions (ids given in
    /// `session_ids` are all returned).
    #[serde(alias = "maxSessions")]
    pub max_sessions: usize,
}

impl Default for SessionQuery {
    fn default() -> Self {
        SessionQuery {
            session_id: None,
            session_ids: Vec::new(),
            search_title: None,
            search_content: None,
            limit: 20,
            offset: 0,
            order: Order::Oldest,
            count: true,
            since: None,
            until: None,
            max_sessions: 10,
        }
    }
}

impl SessionQuery {
    /// A query with the defaults and no session named (running it fails with
    /// [`Error::SessionQueryMissing`] until one is).
    pub fn new() -> SessionQuery {
        SessionQuery::default()
    }

    /// The session with this id.
    pub fn id(id: impl Into<String>) -> SessionQuery {
        SessionQuery {
            session_id: Some(id.into()),
            ..SessionQuery::default()
        }
    }

    /// Sessions whose title contains `text` (case-insensitive).
    pub fn title(text: impl Into<String>) -> SessionQuery {
        SessionQuery {
            search_title: Some(text.into()),
            ..SessionQuery::default()
        }
    }

    /// Sessions with a message whose content contains `text` (case-insensitive).
    pub fn content(text: impl Into<String>) -> SessionQuery {
        SessionQuery {
            search_content: Some(text.into()),
            ..SessionQuery::default()
        }
    }

    /// Several sessions by id, for [`read_sessions`](super::read_sessions).
    pub fn ids<I, S>(ids: I) -> SessionQuery
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        SessionQuery {
            session_ids: ids.into_iter().map(Into::into).collect(),
            ..SessionQuery::default()
        }
    }

    /// By default, at most 20 messages.
    pub fn limit(mut self, n: usize) -> SessionQuery {
        self.limit = n;
        self
    }

    /// By default, no message is skipped.
    pub fn offset(mut self, n: usize) -> SessionQuery {
        self.offset = n;
        self
    }

    /// By default, [`Order::Oldest`].
    pub fn order(mut self, order: Order) -> SessionQuery {
        self.order = order;
        self
    }

    /// By default, `true`; `false` skips the full pass that counts (`message_count`
    /// is then `None`).
    pub fn count(mut self, count: bool) -> SessionQuery {
        self.count = count;
        self
    }

    /// By default, no lower time bound.
    pub fn since(mut self, t: Timestamp) -> SessionQuery {
        self.since = Some(t);
        self
    }

    /// By default, no upper time bound.
    pub fn until(mut self, t: Timestamp) -> SessionQuery {
        self.until = Some(t);
        self
    }

    /// Adds a content search to a query by id or title.
    pub fn containing(mut self, text: impl Into<String>) -> SessionQuery {
        self.search_content = Some(text.into());
        self
    }

    /// By default, [`read_sessions`](super::read_sessions) returns at most 10 matching sessions.
    pub fn max_sessions(mut self, n: usize) -> SessionQuery {
        self.max_sessions = n;
        self
    }

    /// The window of messages this query asks each session for.
    pub fn request(&self) -> MessageRequest {
        MessageRequest {
            order: self.order,
            offset: self.offset,
            limit: self.limit,
            count: self.count,
            since: self.since,
            until: self.until,
            contains: self
                .search_content
                .as_deref()
                .filter(|s| !s.is_empty())
                .map(str::to_lowercase),
        }
    }

    pub(crate) fn validate(&self) -> Result<()> {
        if let (Some(a), Some(b)) = (self.since, self.until) {
            if a > b {
                return Err(Error::InvalidSessionQuery {
                    message: format!("Invalid time range: since ({a}) is after until ({b})"),
                });
            }
        }
        Ok(())
    }
}

/// The window of messages a store is asked for: what [`SessionStore::read_messages`](super::SessionStore::read_messages)
/// receives. Made by [`SessionQuery::request`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct MessageRequest {
    /// Which end to start from.
    pub order: Order,
    /// Matching messages to skip from that end.
    pub offset: usize,
    /// Matching messages to return at most.
    pub limit: usize,
    /// Whether to count the messages of the whole session.
    pub count: bool,
    /// Only messages at or after this time.
    pub since: Option<Timestamp>,
    /// Only messages at or before this time.
    pub until: Option<Timestamp>,
    /// Only messages whose content contains this text, already lowercased.
    pub contains: Option<String>,
}

impl MessageRequest {
    /// Whether `message` passes the time and content filters.
    pub fn matches(&self, message: &Message) -> bool {
        if self.since.is_some() || self.until.is_some() {
            let Some(t) = message.time() else {
                return false;
            };
            if self.since.is_some_and(|s| t < s) || self.until.is_some_and(|u| t > u) {
                return false;
            }
        }
        match &self.contains {
            Some(needle) => contains_ignore_case(&message.content, needle),
            None => true,
        }
    }
}

/// Case-insensitive substring test; `needle` is already lowercase.
pub(crate) fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    if haystack.is_ascii() && needle.is_ascii() {
        let h = haystack.as_bytes();
        let n = needle.as_bytes();
        if n.is_empty() {
            return true;
        }
        return h
            .windows(n.len())
            .any(|w| w.iter().zip(n).all(|(a, b)| a.to_ascii_lowercase() == *b));
    }
    haystack.to_lowercase().contains(needle)
}
