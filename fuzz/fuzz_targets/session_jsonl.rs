//! Invariant: any bytes as a Claude Code or Codex transcript never panic the stores;
//! malformed lines are skipped, and newest-first is oldest-first reversed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rangeread::sessions::{read_session_messages, ClaudeStore, CodexStore, Order, SessionQuery};

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("claude/projects/-w");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("s1.jsonl"), data).unwrap();
    let codex = dir.path().join("codex/sessions/2025/01/01");
    std::fs::create_dir_all(&codex).unwrap();
    std::fs::write(codex.join("rollout-2025-01-01T00-00-00-s1.jsonl"), data).unwrap();

    let claude = ClaudeStore::open(dir.path().join("claude/projects")).unwrap();
    let old = read_session_messages(&claude, &SessionQuery::id("s1").limit(1000));
    let new = read_session_messages(&claude, &SessionQuery::id("s1").limit(1000).order(Order::Newest));
    if let (Ok(old), Ok(new)) = (old, new) {
        assert_eq!(old.message_count, new.message_count);
        let mut rev = new.messages.clone();
        rev.reverse();
        assert_eq!(old.messages, rev);
    }
    if let Ok(codex) = CodexStore::open(dir.path().join("codex")) {
        let _ = read_session_messages(&codex, &SessionQuery::title("x"));
    }
});
