//! What the real-transcript tests ask of a read: the whole session, its contents, and
//! its roles as one letter each.
#![allow(dead_code)]

use rangeread::sessions::{read_session_messages, SessionMessages, SessionQuery, SessionStore};

/// Every message of session `id` (up to 1000).
pub fn read(store: &dyn SessionStore, id: &str) -> SessionMessages {
    read_session_messages(store, &SessionQuery::id(id).limit(1000)).unwrap()
}

/// The content of each message.
pub fn contents(r: &SessionMessages) -> Vec<&str> {
    r.messages.iter().map(|m| m.content.as_str()).collect()
}

/// `u` for each user message, `a` for each other one.
pub fn roles(r: &SessionMessages) -> String {
    r.messages
        .iter()
        .map(|m| if m.role == "user" { 'u' } else { 'a' })
        .collect()
}
