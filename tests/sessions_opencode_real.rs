//! The OpenCode store on data directories that real OpenCode releases wrote
//! (`tests/data/sessions/real/opencode/<version>/`, how in `tests/data/sessions/SOURCES.md`):
//! the JSON trees of 0.5.29, 1.0.185 and 1.1.65, the databases of 1.2.27, 1.14.41 and
//! 1.18.33, and a 1.1.65 directory that 1.2.27 then migrated. Each directory's
//! `reference/` holds what OpenCode itself showed: `opencode session list`,
//! `opencode export <id>` (1.x) and what `opencode run` printed.
//!
//! The database tests need `--features opencode`; without it, the database directories
//! must be refused with an error naming the feature (checked here too).

#![cfg(feature = "sessions")]

mod sessions_support;
use sessions_support::{contents, read, roles};
use std::path::{Path, PathBuf};

use rangeread::sessions::{list_sessions, read_session_messages, OpenCodeStore, SessionQuery};
use rangeread::Error;
use serde_json::Value;

const REAL: &str = "tests/data/sessions/real/opencode";

/// Each version's project directory (where `opencode run` ran).
fn project(version: &str) -> String {
    format!("/tmp/oc/{version}/project")
}

fn dir(version: &str) -> PathBuf {
    Path::new(REAL).join(version)
}

fn open(version: &str) -> OpenCodeStore {
    OpenCodeStore::open(dir(version)).unwrap()
}

/// The session ids `opencode session list` printed, newest first.
fn listed_by_opencode(version: &str) -> Vec<String> {
    let text = std::fs::read_to_string(dir(version).join("reference/session-list.txt")).unwrap();
    text.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("ses_"))
        .map(str::to_string)
        .collect()
}

/// The conversation `opencode export ID` shows: (role, text) of each message with text,
/// a text part's words as stored (synthetic and ignored parts left out), a tool part as
/// `[tool: NAME]`, an attached file as `[file: NAME]`; and the session's title as
/// OpenCode has it.
fn exported(version: &str, id: &str) -> (String, Vec<(String, String)>) {
    let path = dir(version).join(format!("reference/export-{id}.json"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = Vec::new();
    for m in v["messages"].as_array().unwrap() {
        let mut parts = Vec::new();
        for p in m["parts"].as_array().unwrap() {
            let flag = |k: &str| p[k].as_bool().unwrap_or(false);
            match p["type"].as_str().unwrap() {
                "text" if !flag("synthetic") && !flag("ignored") => {
                    parts.push(p["text"].as_str().unwrap().trim_end().to_string())
                }
                "tool" => parts.push(format!("[tool: {}]", p["tool"].as_str().unwrap())),
                "file" => parts.push(format!("[file: {}]", p["filename"].as_str().unwrap())),
                _ => {}
            }
        }
        if !parts.is_empty() {
            out.push((
                m["info"]["role"].as_str().unwrap().to_string(),
                parts.join("\n"),
            ));
        }
    }
    (v["info"]["title"].as_str().unwrap().to_string(), out)
}

/// Every session `opencode session list` shows is listed, and only those; each reads as
/// `opencode export` shows it (roles, order, text), titled as OpenCode titles it unless
/// that is a placeholder.
fn reads_as_opencode_shows(version: &str) {
    let store = open(version);
    let mut ours: Vec<String> = list_sessions(&store)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    let mut theirs = listed_by_opencode(version);
    assert!(!theirs.is_empty(), "{version}: no reference list");
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "{version}");
    for id in &theirs {
        let (title, messages) = exported(version, id);
        let r = read(&store, id);
        let got: Vec<(String, String)> = r
            .messages
            .iter()
            .map(|m| (m.role.clone(), m.content.clone()))
            .collect();
        assert_eq!(got, messages, "{version} {id}");
        assert_eq!(
            r.message_count,
            Some(messages.len() as u64),
            "{version} {id}"
        );
        if !title.starts_with("New session - ") {
            assert_eq!(r.session_title, title, "{version} {id}");
        }
    }
}

// ---- the JSON trees (no feature needed) ----

#[test]
fn opencode_1_0_and_1_1_trees_read_as_opencode_exports_them() {
    reads_as_opencode_shows("1.0.185");
    reads_as_opencode_shows("1.1.65");
}

/// A turn with a tool call: OpenCode 1.x starts a new assistant message after the call
/// (the `bash` call, then the reply), as `opencode export` lists them.
#[test]
fn opencode_1_x_tool_call_and_reply_are_two_messages() {
    let r = read(&open("1.1.65"), "ses_df63638edffexkuqJcs3dkgA1T");
    assert_eq!(r.session_title, "Listing project files");
    assert_eq!(roles(&r), "uaa");
    assert_eq!(
        contents(&r),
        [
            // `opencode run` quotes a prompt that has spaces, and stores it so.
            "\"list the files here\"",
            "[tool: bash]",
            "The listing shows the files of this directory; nothing else to do."
        ]
    );
}

/// `opencode run --continue` adds turns to the last session: one session, two turns.
#[test]
fn opencode_continued_session_is_one_session() {
    let r = read(&open("1.0.185"), "ses_df627d9e5ffek41sp2Vuf5L9by");
    assert_eq!(r.session_title, "Friendly greeting");
    assert_eq!(roles(&r), "uaua");
    assert_eq!(r.messages[2].content, "\"what is the capital of France?\"");
    // Oldest first, by creation time.
    let times: Vec<&str> = r
        .messages
        .iter()
        .map(|m| m.timestamp.as_deref().unwrap())
        .collect();
    let mut sorted = times.clone();
    sorted.sort();
    assert_eq!(times, sorted);
}

/// When OpenCode could not name a session (the title request failed), it keeps the
/// placeholder `New session - <date>`, as `opencode session list` shows: the first
/// prompt titles it instead.
#[test]
fn opencode_placeholder_title_gives_way_to_the_first_prompt() {
    let store = open("1.1.65");
    let id = "ses_df621933cffeNwrJ1Zs7Pw2wEk";
    assert!(listed_by_opencode("1.1.65").contains(&id.to_string()));
    let (title, _) = exported("1.1.65", id);
    assert!(
        title.starts_with("New session - 2026-11-23T19:25"),
        "{title}"
    );
    let r = read(&store, id);
    assert_eq!(r.session_title, "\"explain what a borrow checker does\"");
    let listed = list_sessions(&store).unwrap();
    let info = listed.iter().find(|s| s.id == id).unwrap();
    assert_eq!(
        info.title.as_deref(),
        Some("\"explain what a borrow checker does\"")
    );
    // And a title search finds it by that prompt, not by the placeholder.
    let q = SessionQuery::title("borrow checker");
    assert_eq!(read_session_messages(&store, &q).unwrap().session_id, id);
    let q = SessionQuery::title("New session");
    let err = read_session_messages(&store, &q).unwrap_err();
    assert!(matches!(err, Error::NoMatchingSession { .. }), "{err}");
}

/// `opencode run --file README.md`: OpenCode stores the file's contents as `synthetic`
/// text parts ("Called the Read tool ...", the file itself) beside a `file` part and the
/// prompt; the user's turn is the prompt and the attachment, never the injected text.
#[test]
fn opencode_attached_file_is_named_and_its_injected_text_left_out() {
    let r = read(&open("1.1.65"), "ses_df611c7b0ffew18mhJt6oeQ29E");
    assert_eq!(
        r.messages[0].content,
        "\"summarize this file\"\n[file: README.md]"
    );
    assert_eq!(r.session_title, "\"summarize this file\" called");
    assert_eq!(roles(&r), "ua");
    for m in &r.messages {
        assert!(!m.content.contains("<path>"), "{}", m.content);
    }
}

/// A subagent (the `task` tool) runs in a child session, which `opencode session list`
/// does not show: it is not listed, nor offered as an available session, but its id
/// still reads it.
#[test]
fn opencode_subagent_sessions_are_not_listed_but_read_by_id() {
    let store = open("1.1.65");
    let parent = "ses_df6227e48ffeBTqQ6hSqzHpomE";
    let child = "ses_df6227a28ffeLq1y0fMEDbduhq";
    let ids: Vec<String> = list_sessions(&store)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert!(ids.contains(&parent.to_string()));
    assert!(!ids.contains(&child.to_string()), "{ids:?}");
    let p = read(&store, parent);
    assert_eq!(
        contents(&p),
        [
            "\"ask a subagent to say hello\"",
            "[tool: task]",
            "The listing shows the files of this directory; nothing else to do."
        ]
    );
    let c = read(&store, child);
    assert_eq!(c.session_title, "Greet from a subagent (@general subagent)");
    assert_eq!(
        contents(&c),
        [
            "Say hello from the subagent",
            "Reply 2: you said \"Say hello from the subagent\"."
        ]
    );
    // Not found by its title, and not among the available sessions offered instead.
    let err =
        read_session_messages(&store, &SessionQuery::title("Greet from a subagent")).unwrap_err();
    assert!(matches!(err, Error::NoMatchingSession { .. }), "{err}");
    let msg = err.to_string();
    let available = msg.split("Available sessions:").nth(1).unwrap();
    assert!(available.contains("Listing project files"), "{msg}");
    assert!(!available.contains("Greet from"), "{msg}");
}

/// OpenCode 0.5 kept one tree per git worktree, `project/<slug>/storage/`, with the
/// session files under `session/info/`, `session/message/` and `session/part/`. Each
/// assistant message holds its whole turn (the tool call and the reply after it).
#[test]
fn opencode_0_5_per_project_trees_are_read() {
    let store = open("0.5.29");
    let mut listed: Vec<(String, Option<String>)> = list_sessions(&store)
        .unwrap()
        .into_iter()
        .map(|s| (s.id, s.title))
        .collect();
    listed.sort();
    assert_eq!(
        listed,
        [
            (
                "ses_df6212d93ffeJ7ZmUnQKiEnY67".to_string(),
                // `New session - 2026-11-23T19:25:27.532Z` in the file: a placeholder.
                Some("explain what a borrow checker does".to_string())
            ),
            (
                "ses_df633b58fffevqFtmEnXaQ9zsH".to_string(),
                Some("Listing project files".to_string())
            ),
            (
                "ses_df633c749ffeqQgLOHtedkd1z2".to_string(),
                Some("Friendly greeting".to_string())
            ),
        ]
    );
    // What `opencode run` printed (reference/run1.txt, run2.txt).
    let r = read(&store, "ses_df633c749ffeqQgLOHtedkd1z2");
    assert_eq!(
        contents(&r),
        [
            "hello, who are you?",
            "Reply 1: you said \"hello, who are you?\".",
            "what is the capital of France?",
            "Reply 2: you said \"what is the capital of France?\"."
        ]
    );
    let t = read(&store, "ses_df633b58fffevqFtmEnXaQ9zsH");
    assert_eq!(
        contents(&t),
        [
            "list the files here",
            "[tool: bash]\nThe listing shows the files of this directory; nothing else to do."
        ]
    );
}

/// Scoped to a project, a 0.5 store keeps the tree named after that directory.
#[test]
fn opencode_0_5_scoped_to_its_project() {
    let store = open("0.5.29").project(project("0.5.29"));
    assert_eq!(list_sessions(&store).unwrap().len(), 3);
    let other = open("0.5.29").project("/tmp/oc/0.5.29");
    assert!(list_sessions(&other).unwrap().is_empty());
    let err = read_session_messages(&other, &SessionQuery::id("ses_df633c749ffeqQgLOHtedkd1z2"))
        .unwrap_err();
    assert!(matches!(err, Error::SessionNotFound { .. }), "{err}");
}

/// Scoped to a project, a 1.x tree keeps the sessions of the project whose worktree
/// it is (`storage/project/<id>.json`).
#[test]
fn opencode_1_x_tree_scoped_to_its_project() {
    let store = open("1.1.65").project(project("1.1.65"));
    assert_eq!(list_sessions(&store).unwrap().len(), 5);
    let other = open("1.1.65").project("/tmp/oc/1.1.65");
    assert!(list_sessions(&other).unwrap().is_empty());
}

// ---- the databases ----

#[cfg(feature = "opencode")]
#[test]
fn opencode_databases_read_as_opencode_exports_them() {
    for v in ["1.2.27", "1.14.41", "1.18.33"] {
        let store = open(v);
        assert!(store.database().is_some(), "{v}");
        reads_as_opencode_shows(v);
    }
}

#[cfg(feature = "opencode")]
#[test]
fn opencode_database_tool_call_placeholder_and_subagent() {
    let store = open("1.18.33");
    let r = read(&store, "ses_df637878bffezGoRxtgs7VZnSG");
    assert_eq!(r.session_title, "Listing project files");
    assert_eq!(
        contents(&r),
        [
            "\"list the files here\"",
            "[tool: bash]",
            "The listing shows the files of this directory; nothing else to do."
        ]
    );
    // An attached file (1.18.33 stores the `file` part before the prompt's text).
    let f = read(&store, "ses_df6122f95ffef5vW2Zv2VAknw2");
    assert_eq!(
        f.messages[0].content,
        "[file: README.md]\n\"summarize this file\""
    );
    assert!(!f.messages[0].content.contains("Called the Read tool"));
    // A placeholder title (`New session - ...` in the `session` table).
    let p = read(&store, "ses_df623cb75ffePRvCHySUwhzEIM");
    assert_eq!(p.session_title, "\"explain what a borrow checker does\"");
    // The subagent's session (`parent_id` set): read by id, not listed.
    let child = "ses_df6249838ffeGlMjSAIhlP04Eh";
    assert!(list_sessions(&store).unwrap().iter().all(|s| s.id != child));
    let c = read(&store, child);
    assert_eq!(c.session_title, "Greet from a subagent (@general subagent)");
    assert_eq!(roles(&c), "ua");
    // Scoped to the project (the `project` table's worktree, the session's directory).
    let scoped = open("1.18.33").project(project("1.18.33"));
    assert_eq!(list_sessions(&scoped).unwrap().len(), 5);
    let other = open("1.18.33").project("/tmp/oc/1.14.41/project");
    assert!(list_sessions(&other).unwrap().is_empty());
}

/// OpenCode 1.2 migrated the 1.1.65 tree into `opencode.db` and left the tree beside it:
/// the sessions are those `opencode session list` shows, each once, the new one
/// included, read from the database.
#[cfg(feature = "opencode")]
#[test]
fn opencode_migrated_tree_beside_its_database_reads_each_session_once() {
    let v = "upgrade-1.1.65-to-1.2.27";
    let store = open(v);
    assert!(store.database().is_some() && store.storage().is_some());
    reads_as_opencode_shows(v);
    let listed = list_sessions(&store).unwrap();
    assert_eq!(listed.len(), 3);
    let db = store.database().unwrap().to_path_buf();
    assert!(listed.iter().all(|s| s.path == db), "{listed:?}");
}

/// A running OpenCode keeps writing to its database through the write-ahead log; what
/// is only in the log yet is read too.
#[cfg(feature = "opencode")]
#[test]
fn opencode_database_is_read_through_its_write_ahead_log() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        dir("1.14.41").join("opencode.db"),
        tmp.path().join("opencode.db"),
    )
    .unwrap();
    let writer = rusqlite::Connection::open(tmp.path().join("opencode.db")).unwrap();
    let mode: String = writer
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    writer
        .execute(
            "UPDATE session SET title = 'Renamed while running' WHERE id = ?1",
            ["ses_df628e17effeQs6MLmrcG4bqhX"],
        )
        .unwrap();
    assert!(tmp.path().join("opencode.db-wal").is_file());
    // The writer stays open: nothing is checkpointed into the file yet.
    let store = OpenCodeStore::open(tmp.path()).unwrap();
    let r = read(&store, "ses_df628e17effeQs6MLmrcG4bqhX");
    assert_eq!(r.session_title, "Renamed while running");
    drop(writer);
}

#[cfg(not(feature = "opencode"))]
#[test]
fn opencode_databases_need_the_feature() {
    for v in ["1.2.27", "1.14.41", "1.18.33", "upgrade-1.1.65-to-1.2.27"] {
        let err = OpenCodeStore::open(dir(v)).unwrap_err();
        assert!(err.to_string().contains("`opencode` feature"), "{v}: {err}");
    }
    // The migrated tree alone, asked for explicitly: the two sessions from before.
    let legacy = OpenCodeStore::open_legacy(dir("upgrade-1.1.65-to-1.2.27")).unwrap();
    assert_eq!(list_sessions(&legacy).unwrap().len(), 2);
}
