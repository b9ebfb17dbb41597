//! Session workspaces: a [`Workspace`] per session identifier.

use std::collections::HashMap;
use std::sync::RwLock;

use super::Workspace;
use crate::error::{Error, Result};

/// Session workspaces: a workspace per session identifier (a session name or a task
/// id), for hosts that serve several sessions, such as a `session_read_file(session,
/// path, ...)` tool.
///
/// Safe to share between threads; lookups take a read lock and clone an `Arc`.
///
/// # Example
///
/// ```
/// use rangeread::{LineSelection, Reader, Workspace, WorkspaceRegistry};
///
/// let sessions = WorkspaceRegistry::new();
/// sessions.insert("task-42", Workspace::new("tests/data")?);
/// let ws = sessions.get("task-42")?;
/// let result = Reader::new().read_in(&ws, "sample.txt", LineSelection::head(1))?;
/// assert_eq!(result.lines.map(|l| l.start), Some(1));
///
/// let err = sessions.get("task-7").unwrap_err();
/// assert_eq!(err.to_string(), r#"Session not found: "task-7""#);
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct WorkspaceRegistry {
    sessions: RwLock<HashMap<String, Workspace>>,
}

impl WorkspaceRegistry {
    /// An empty registry.
    pub fn new() -> WorkspaceRegistry {
        WorkspaceRegistry::default()
    }

    /// Registers `workspace` under `id`, returning the one it replaces.
    pub fn insert(&self, id: impl Into<String>, workspace: Workspace) -> Option<Workspace> {
        self.write().insert(id.into(), workspace)
    }

    /// The workspace of session `id`.
    ///
    /// # Errors
    ///
    /// [`Error::SessionNotFound`] when no workspace is registered under `id`.
    pub fn get(&self, id: &str) -> Result<Workspace> {
        self.read()
            .get(id)
            .cloned()
            .ok_or_else(|| Error::SessionNotFound { id: id.to_string() })
    }

    /// Removes the workspace of session `id`, returning it.
    ///
    /// # Errors
    ///
    /// [`Error::SessionNotFound`] when no workspace is registered under `id`.
    pub fn remove(&self, id: &str) -> Result<Workspace> {
        self.write()
            .remove(id)
            .ok_or_else(|| Error::SessionNotFound { id: id.to_string() })
    }

    /// The registered session identifiers, sorted.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.read().keys().cloned().collect();
        ids.sort();
        ids
    }

    /// How many sessions are registered.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether no session is registered.
    pub fn is_empty(&self) -> bool {
        self.read().is_empty()
    }

    // A panic while holding the lock cannot leave the map half-updated (each operation
    // is one HashMap call), so a poisoned lock is used as is.
    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Workspace>> {
        self.sessions.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Workspace>> {
        self.sessions.write().unwrap_or_else(|e| e.into_inner())
    }
}
