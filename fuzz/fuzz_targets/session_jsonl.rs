//! Invariant: any bytes as a Claude Code or Codex transcript (plain or as a `.jsonl.zst`
//! rollout) never panic the stores, scoped to a project or not; malformed lines are
//! skipped, and newest-first is oldest-first reversed. A count kept in the cache and
//! continued over appended bytes equals a fresh count of the whole.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rangeread::sessions::{
    read_session_messages, ClaudeStore, CodexStore, Order, SessionQuery, SessionStore,
};

const X: &str = "00000000-0000-4000-8000-000000000001";
const Z: &str = "00000000-0000-4000-8000-000000000002";

/// Oldest-first and newest-first agree, in either store.
fn both_ends_agree(store: &dyn SessionStore, id: &str) {
    let old = read_session_messages(store, &SessionQuery::id(id).limit(1000));
    let new = read_session_messages(store, &SessionQuery::id(id).limit(1000).order(Order::Newest));
    if let (Ok(old), Ok(new)) = (old, new) {
        assert_eq!(old.message_count, new.message_count);
        let mut rev = new.messages.clone();
        rev.reverse();
        assert_eq!(old.messages, rev);
    }
}

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("claude/projects/-w");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("s1.jsonl"), data).unwrap();
    let codex = dir.path().join("codex/sessions/2025/01/01");
    std::fs::create_dir_all(&codex).unwrap();
    std::fs::write(codex.join(format!("rollout-2025-01-01T00-00-00-{X}.jsonl")), data).unwrap();
    // The same bytes as a compressed rollout: garbage to the decompressor.
    std::fs::write(codex.join(format!("rollout-2025-01-01T00-00-00-{Z}.jsonl.zst")), data).unwrap();

    let claude = ClaudeStore::open(dir.path().join("claude/projects")).unwrap();
    both_ends_agree(&claude, "s1");
    // The same bytes written in two steps, counted after each through one store.
    let split = data.first().map_or(0, |&b| usize::from(b) * data.len() / 256);
    let grown = dir.path().join("grown/projects/-w");
    std::fs::create_dir_all(&grown).unwrap();
    std::fs::write(grown.join("s1.jsonl"), &data[..split]).unwrap();
    let store = ClaudeStore::open(dir.path().join("grown/projects")).unwrap();
    let q = SessionQuery::id("s1").limit(3).order(Order::Newest);
    let _ = read_session_messages(&store, &q);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(grown.join("s1.jsonl"))
        .unwrap();
    std::io::Write::write_all(&mut f, &data[split..]).unwrap();
    drop(f);
    let continued = read_session_messages(&store, &q);
    let fresh = read_session_messages(&claude, &q);
    match (continued, fresh) {
        (Ok(c), Ok(f)) => {
            assert_eq!(c.message_count, f.message_count);
            assert_eq!(c.messages, f.messages);
            assert_eq!(c.session_title, f.session_title);
        }
        (c, f) => assert_eq!(c.is_ok(), f.is_ok()),
    }
    let codex = CodexStore::open(dir.path().join("codex")).unwrap();
    both_ends_agree(&codex, X);
    let _ = read_session_messages(&codex, &SessionQuery::id(Z));
    let _ = read_session_messages(&codex, &SessionQuery::title("x"));
    let scoped = CodexStore::open(dir.path().join("codex")).unwrap().project("/w");
    let _ = rangeread::sessions::list_sessions(&scoped);
});
