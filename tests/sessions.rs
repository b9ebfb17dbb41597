//! `read_session_messages` over the fixtures in `tests/data/sessions/`, one directory a
//! real format (Claude Code, Codex CLI, OpenCode legacy JSON and SQLite, generic JSONL).
#![cfg(feature = "sessions")]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rangeread::sessions::{
    list_sessions, read_session_messages, read_sessions, ClaudeStore, CodexStore, JsonlFields,
    JsonlStore, OpenCodeStore, Order, SessionMessages, SessionQuery, SessionStore, Timestamp,
    TitleScan,
};
use rangeread::Error;

const DATA: &str = "tests/data/sessions";
const C1: &str = "7f3c9a10-0000-4000-8000-000000000001";
const C2: &str = "7f3c9a10-0000-4000-8000-000000000002";
const C3: &str = "7f3c9a10-0000-4000-8000-000000000003";
const X1: &str = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a51";
const X2: &str = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a52";
const X3: &str = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a53";

/// Copies a fixture tree into a temporary directory, so that tests can set modification
/// times (git does not keep them) and append to transcripts.
fn copy_fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    fn copy(from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for e in fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let dest = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &dest);
            } else {
                fs::copy(e.path(), &dest).unwrap();
            }
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join(name);
    copy(&Path::new(DATA).join(name), &root);
    (tmp, root)
}

fn set_mtime(path: &Path, secs_after_2025: u64) {
    let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_735_689_600 + secs_after_2025);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

fn claude_file(root: &Path, project: &str, id: &str) -> PathBuf {
    root.join("projects")
        .join(project)
        .join(format!("{id}.jsonl"))
}

fn contents(r: &SessionMessages) -> Vec<&str> {
    r.messages.iter().map(|m| m.content.as_str()).collect()
}

fn claude() -> ClaudeStore {
    ClaudeStore::open(Path::new(DATA).join("claude")).unwrap()
}

// ---- Claude Code ----

#[test]
fn claude_title_search_is_case_insensitive_and_most_recent_first() {
    let (_tmp, root) = copy_fixture("claude");
    set_mtime(&claude_file(&root, "-work-app", C1), 100);
    set_mtime(&claude_file(&root, "-work-app", C2), 200);
    let store = ClaudeStore::open(&root).unwrap();
    // "PARSER" is in "Fix the parser" and "Parser benchmark numbers": the newer wins.
    let r = read_session_messages(&store, &SessionQuery::title("PARSER")).unwrap();
    assert_eq!(r.session_id, C2);
    assert_eq!(r.session_title, "Parser benchmark numbers");
    let all = read_sessions(&store, &SessionQuery::title("pArSeR").limit(1)).unwrap();
    let ids: Vec<&str> = all.iter().map(|s| s.session_id.as_str()).collect();
    assert_eq!(ids, [C2, C1]);
    // Touching the other file changes the order.
    set_mtime(&claude_file(&root, "-work-app", C1), 300);
    let r = read_session_messages(&store, &SessionQuery::title("parser")).unwrap();
    assert_eq!(r.session_id, C1);
}

#[test]
fn claude_id_lookup() {
    let r = read_session_messages(&claude(), &SessionQuery::id(C3)).unwrap();
    assert_eq!(r.session_id, C3);
    assert_eq!(r.message_count, Some(3));
    assert_eq!(r.messages[2].content, "Here is a draft of the notes.");
    assert_eq!(
        r.messages[2].timestamp.as_deref(),
        Some("2025-06-03T08:01:30.000Z")
    );
}

#[test]
fn claude_counts_after_skipping_and_merging() {
    let r = read_session_messages(&claude(), &SessionQuery::id(C1).limit(100)).unwrap();
    assert_eq!(r.message_count, Some(9));
    assert_eq!(r.malformed_lines, 1);
    assert_eq!(
        contents(&r),
        [
            // A slash command reads as the user typed it (real Claude Code 2.1
            // transcripts: tests/sessions_real.rs).
            "/model",
            "The parser crashes on empty input. Can you fix it?",
            // Three records of msg_01A (thinking, text, tool_use) with a tool result after.
            "I'll look at the parser first.\n[tool: Read]",
            "Found it: `parse` indexes `tokens[0]` without checking.\n[tool: Edit]",
            "Fixed. Empty input now returns `Ok(vec![])`.",
            "Does this screenshot look right?\n[image]",
            "Please also add a test.",
            "Added `parses_empty_input`.\n[tool: Bash]",
            "All tests pass.",
        ]
    );
    let roles: Vec<&str> = r.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(
        roles,
        [
            "user",
            "user",
            "assistant",
            "assistant",
            "assistant",
            "user",
            "user",
            "assistant",
            "assistant"
        ]
    );
    // A merged reply is timestamped by its first record that has content.
    assert_eq!(
        r.messages[2].timestamp.as_deref(),
        Some("2025-06-01T10:01:06.000Z")
    );
}

#[test]
fn claude_title_sources_in_order() {
    let store = claude();
    let title = |id| {
        read_session_messages(&store, &SessionQuery::id(id).limit(0))
            .unwrap()
            .session_title
    };
    // custom-title beats the later ai-title.
    assert_eq!(title(C1), "Fix the parser");
    // A summary counts only when its leaf is in the same file (the later one is not).
    assert_eq!(title(C2), "Parser benchmark numbers");
    // No title records that apply: the first real prompt, not the /clear command.
    assert_eq!(title(C3), "Write the release notes for 0.3");
    let listed = list_sessions(&store).unwrap();
    let mut titles: Vec<&str> = listed.iter().filter_map(|s| s.title.as_deref()).collect();
    titles.sort();
    assert_eq!(
        titles,
        [
            "Fix the parser",
            "Parser benchmark numbers",
            "Write the release notes for 0.3"
        ]
    );
}

#[test]
fn claude_ai_title_when_no_custom_title() {
    let (_tmp, root) = copy_fixture("claude");
    let path = claude_file(&root, "-work-app", C1);
    let text = fs::read_to_string(&path).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.contains("\"custom-title\""))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&path, without).unwrap();
    let store = ClaudeStore::open(&root).unwrap();
    let r = read_session_messages(&store, &SessionQuery::id(C1).limit(0)).unwrap();
    assert_eq!(r.session_title, "Parser fix and tests");
}

#[test]
fn claude_subagent_files_are_not_sessions() {
    let ids: Vec<String> = list_sessions(&claude())
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids.len(), 3);
    assert!(!ids.iter().any(|i| i.starts_with("agent-")));
    let err = read_session_messages(&claude(), &SessionQuery::id("agent-5e1f")).unwrap_err();
    assert_eq!(err.kind().as_str(), "session_not_found");
}

#[test]
fn limit_offset_and_order() {
    let store = claude();
    let q = SessionQuery::id(C1);
    let r = read_session_messages(&store, &q.clone().limit(2)).unwrap();
    assert_eq!(
        contents(&r)[1],
        "The parser crashes on empty input. Can you fix it?"
    );
    let r = read_session_messages(&store, &q.clone().limit(2).offset(2)).unwrap();
    assert_eq!(
        contents(&r),
        [
            "I'll look at the parser first.\n[tool: Read]",
            "Found it: `parse` indexes `tokens[0]` without checking.\n[tool: Edit]"
        ]
    );
    let r = read_session_messages(&store, &q.clone().order(Order::Newest).limit(2)).unwrap();
    assert_eq!(
        contents(&r),
        [
            "All tests pass.",
            "Added `parses_empty_input`.\n[tool: Bash]"
        ]
    );
    assert_eq!(r.message_count, Some(9));
    let r =
        read_session_messages(&store, &q.clone().order(Order::Newest).limit(3).offset(7)).unwrap();
    assert_eq!(
        contents(&r),
        [
            "The parser crashes on empty input. Can you fix it?",
            "/model"
        ]
    );
    let r = read_session_messages(&store, &q.clone().offset(50)).unwrap();
    assert!(r.messages.is_empty());
    assert_eq!(r.message_count, Some(9));
    // The default limit is 20, and the default order the oldest first.
    let d = SessionQuery::default();
    assert_eq!((d.limit, d.order, d.count), (20, Order::Oldest, true));
}

#[test]
fn newest_first_agrees_with_oldest_first_for_every_offset() {
    let store = claude();
    let all = read_session_messages(&store, &SessionQuery::id(C1).limit(100)).unwrap();
    for offset in 0..10 {
        for limit in 0..4 {
            let q = SessionQuery::id(C1)
                .order(Order::Newest)
                .offset(offset)
                .limit(limit);
            let r = read_session_messages(&store, &q).unwrap();
            let expect: Vec<_> = all
                .messages
                .iter()
                .rev()
                .skip(offset)
                .take(limit)
                .cloned()
                .collect();
            assert_eq!(r.messages, expect, "offset {offset} limit {limit}");
        }
    }
}

#[test]
fn count_false_reports_null_and_reads_only_the_end() {
    let (_tmp, root) = copy_fixture("claude");
    let path = claude_file(&root, "-work-app", C1);
    // Garbage at the start of the file: a newest-first read without counting never
    // gets there, so it meets no malformed line.
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{}{text}", "garbage\n".repeat(1000))).unwrap();
    let store = ClaudeStore::open(&root).unwrap();
    let q = SessionQuery::id(C1)
        .order(Order::Newest)
        .limit(1)
        .count(false);
    let r = read_session_messages(&store, &q).unwrap();
    assert_eq!(r.message_count, None);
    assert_eq!(contents(&r), ["All tests pass."]);
    assert_eq!(r.malformed_lines, 0);
    assert_eq!(r.session_title, "Fix the parser");
    let json = serde_json::to_value(&r).unwrap();
    assert!(json["message_count"].is_null());
    let r = read_session_messages(&store, &q.count(true)).unwrap();
    assert_eq!((r.message_count, r.malformed_lines), (Some(9), 1001));
}

#[test]
fn transcript_that_grows_between_two_reads() {
    let (_tmp, root) = copy_fixture("claude");
    let path = claude_file(&root, "-work-app", C1);
    let store = ClaudeStore::open(&root).unwrap();
    let q = SessionQuery::id(C1).order(Order::Newest).limit(1);
    let first = read_session_messages(&store, &q).unwrap();
    assert_eq!(first.message_count, Some(9));
    assert_eq!(first.session_title, "Fix the parser");
    // Claude Code appends: a torn line first (a write in progress) ...
    let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
    let reply = r#"{"type":"assistant","uuid":"c1000000-0000-4000-8000-000000000030","timestamp":"2025-06-01T11:00:00.000Z","message":{"id":"msg_01F","model":"claude","role":"assistant","content":[{"type":"text","text":"One more thing: docs updated."}]}}"#;
    f.write_all(&reply.as_bytes()[..40]).unwrap();
    f.flush().unwrap();
    let mid = read_session_messages(&store, &q).unwrap();
    assert_eq!(mid.message_count, Some(9));
    assert_eq!(mid.malformed_lines, 2);
    // ... then the rest of it, a second record of the same reply, and a rename.
    f.write_all(&reply.as_bytes()[40..]).unwrap();
    f.write_all(b"\n").unwrap();
    let tool = r#"{"type":"assistant","uuid":"c1000000-0000-4000-8000-000000000031","timestamp":"2025-06-01T11:00:01.000Z","message":{"id":"msg_01F","model":"claude","role":"assistant","content":[{"type":"tool_use","id":"toolu_9","name":"Write","input":{}}]}}"#;
    writeln!(f, "{tool}").unwrap();
    writeln!(
        f,
        r#"{{"type":"custom-title","customTitle":"Fix the parser, with docs","sessionId":"{C1}"}}"#
    )
    .unwrap();
    drop(f);
    let second = read_session_messages(&store, &q).unwrap();
    assert_eq!(second.message_count, Some(10));
    assert_eq!(second.malformed_lines, 1);
    assert_eq!(
        contents(&second),
        ["One more thing: docs updated.\n[tool: Write]"]
    );
    assert_eq!(second.session_title, "Fix the parser, with docs");
    // The title search sees the new title too.
    let r = read_session_messages(&store, &SessionQuery::title("with docs")).unwrap();
    assert_eq!(r.session_id, C1);
}

#[test]
fn one_cache_serves_file_reads_and_transcripts() {
    use rangeread::{IndexCache, LineSelection, Reader};
    use std::sync::Arc;
    let (_tmp, root) = copy_fixture("claude");
    let path = claude_file(&root, "-work-app", C1);
    let cache = Arc::new(IndexCache::new(1 << 20));
    let reader = Reader::new().cache(cache.clone());
    let store = ClaudeStore::open(&root).unwrap().cache(cache.clone());
    let q = SessionQuery::id(C1).order(Order::Newest).limit(1);
    assert_eq!(
        read_session_messages(&store, &q).unwrap().message_count,
        Some(9)
    );
    // The transcript's count and title state sit in the file's entry, which the reader
    // then finds and fills with its line index: one entry, one budget.
    let lines = reader.read(&path, LineSelection::tail(1)).unwrap();
    assert_eq!(cache.len(), 1);
    let misses = cache.stats().misses;
    assert_eq!(
        read_session_messages(&store, &q).unwrap().message_count,
        Some(9)
    );
    assert_eq!(cache.stats().misses, misses, "the second read is a hit");
    // An appended record extends the entry (index and count alike) instead of rebuilding.
    let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
    writeln!(
        f,
        r#"{{"type":"user","uuid":"c1000000-0000-4000-8000-000000000040","timestamp":"2025-06-01T12:00:00.000Z","message":{{"role":"user","content":"And the changelog?"}}}}"#
    )
    .unwrap();
    drop(f);
    let r = read_session_messages(&store, &q).unwrap();
    assert_eq!(r.message_count, Some(10));
    assert_eq!(contents(&r), ["And the changelog?"]);
    assert_eq!(cache.stats().extended, 1);
    let total = lines.total_lines.unwrap();
    let after = reader.read(&path, LineSelection::tail(1)).unwrap();
    assert_eq!(after.total_lines, Some(total + 1));
    // Rewritten: the state goes with the entry, and the new content is counted.
    let first_two: String = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&path, first_two).unwrap();
    let r = read_session_messages(&store, &q).unwrap();
    assert_eq!(r.message_count, Some(0));
    assert!(cache.stats().invalidated >= 1);
    // A budget too small for anything keeps nothing, and reads still work.
    let tiny = Arc::new(IndexCache::new(16));
    let store = ClaudeStore::open(&root).unwrap().cache(tiny.clone());
    read_session_messages(&store, &q).unwrap();
    assert_eq!((tiny.len(), tiny.memory_bytes()), (0, 0));
}

// ---- errors ----

#[test]
fn error_when_neither_id_nor_title() {
    let err = read_session_messages(&claude(), &SessionQuery::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Either session_id or search_title must be provided"
    );
    assert_eq!(err.kind().as_str(), "invalid_query");
    let err = read_session_messages(&claude(), &SessionQuery::title("")).unwrap_err();
    assert!(matches!(err, Error::SessionQueryMissing));
}

#[test]
fn error_for_unknown_id() {
    let err = read_session_messages(&claude(), &SessionQuery::id("nope")).unwrap_err();
    assert_eq!(err.to_string(), "Session not found: \"nope\"");
    assert_eq!(err.kind().as_str(), "session_not_found");
    let err = read_session_messages(&claude(), &SessionQuery::id("../-work-app/x")).unwrap_err();
    assert_eq!(err.kind().as_str(), "session_not_found");
}

#[test]
fn error_for_no_title_match_lists_the_closest_first() {
    let err = read_session_messages(&claude(), &SessionQuery::title("relase notes")).unwrap_err();
    assert_eq!(err.kind().as_str(), "no_matching_session");
    assert!(
        err.to_string().starts_with(
            "No sessions found matching \"relase notes\". Available sessions: \
             Write the release notes for 0.3, "
        ),
        "{err}"
    );
    let Error::NoMatchingSession { available, .. } = err else {
        unreachable!()
    };
    assert_eq!(available.len(), 3);
    let err = read_session_messages(&claude(), &SessionQuery::title("prser")).unwrap_err();
    assert!(
        err.to_string()
            .contains("Available sessions: Fix the parser, Parser benchmark numbers")
            || err
                .to_string()
                .contains("Available sessions: Parser benchmark numbers, Fix the parser"),
        "{err}"
    );
}

#[test]
fn error_for_missing_store_directory() {
    for err in [
        ClaudeStore::open("tests/data/sessions/nope").unwrap_err(),
        CodexStore::open("tests/data/sessions/nope").unwrap_err(),
        OpenCodeStore::open("tests/data/sessions/nope").unwrap_err(),
        JsonlStore::open("tests/data/sessions/nope", JsonlFields::default()).unwrap_err(),
    ] {
        assert_eq!(err.kind().as_str(), "store_not_found");
        assert!(
            err.to_string().starts_with(
                "Session store not found: \"tests/data/sessions/nope\" (expected the "
            ),
            "{err}"
        );
    }
}

#[test]
fn error_for_bad_time_range_and_dates() {
    let t = |s: &str| s.parse::<Timestamp>().unwrap();
    let q = SessionQuery::id(C1)
        .since(t("2025-06-02"))
        .until(t("2025-06-01"));
    let err = read_session_messages(&claude(), &q).unwrap_err();
    assert_eq!(err.kind().as_str(), "invalid_query");
    let err = "last tuesday".parse::<Timestamp>().unwrap_err();
    assert!(err.to_string().starts_with("Invalid date \"last tuesday\""));
    let err = serde_json::from_str::<SessionQuery>(r#"{"sesionId":"x"}"#).unwrap_err();
    assert!(err.to_string().contains("unknown field `sesionId`"));
}

#[test]
fn malformed_lines_are_skipped_and_counted() {
    let r = read_session_messages(&claude(), &SessionQuery::id(C1)).unwrap();
    assert_eq!(r.malformed_lines, 1);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["malformed_lines"], 1);
    let clean = read_session_messages(&claude(), &SessionQuery::id(C3)).unwrap();
    assert!(serde_json::to_value(&clean)
        .unwrap()
        .get("malformed_lines")
        .is_none());
    let codex = CodexStore::open(Path::new(DATA).join("codex")).unwrap();
    assert_eq!(
        read_session_messages(&codex, &SessionQuery::id(X1))
            .unwrap()
            .malformed_lines,
        1
    );
}

// ---- beyond the seed ----

#[test]
fn content_search_across_sessions() {
    let (_tmp, root) = copy_fixture("claude");
    set_mtime(&claude_file(&root, "-work-app", C1), 100);
    set_mtime(&claude_file(&root, "-work-app", C2), 200);
    set_mtime(&claude_file(&root, "-work-docs", C3), 300);
    let store = ClaudeStore::open(&root).unwrap();
    let r = read_session_messages(&store, &SessionQuery::content("TOKENS[0]")).unwrap();
    assert_eq!(r.session_id, C1);
    assert_eq!(r.message_count, Some(9));
    assert_eq!(
        contents(&r),
        ["Found it: `parse` indexes `tokens[0]` without checking.\n[tool: Edit]"]
    );
    let many = read_sessions(&store, &SessionQuery::content("the")).unwrap();
    let ids: Vec<&str> = many.iter().map(|s| s.session_id.as_str()).collect();
    assert_eq!(ids, [C3, C2, C1]);
    // Content only in a tool result is not message content.
    let err = read_session_messages(&store, &SessionQuery::content("fn parse(tokens")).unwrap_err();
    assert_eq!(err.kind().as_str(), "no_matching_session");
    // Title and content together.
    let r =
        read_session_messages(&store, &SessionQuery::title("parser").containing("GB/s")).unwrap();
    assert_eq!(r.session_id, C2);
}

#[test]
fn since_and_until_filter_messages() {
    let t = |s: &str| s.parse::<Timestamp>().unwrap();
    let q = SessionQuery::id(C1)
        .since(t("2025-06-01T10:03:00Z"))
        .until(t("2025-06-01T10:05:00Z"));
    let r = read_session_messages(&claude(), &q).unwrap();
    assert_eq!(
        contents(&r),
        [
            "Fixed. Empty input now returns `Ok(vec![])`.",
            "Does this screenshot look right?\n[image]",
            "Please also add a test."
        ]
    );
    assert_eq!(r.message_count, Some(9));
    let r = read_session_messages(&claude(), &q.order(Order::Newest).limit(1)).unwrap();
    assert_eq!(contents(&r), ["Please also add a test."]);
}

#[test]
fn several_sessions_in_one_call() {
    let r = read_sessions(
        &claude(),
        &SessionQuery::ids([C3, C1]).limit(1).order(Order::Newest),
    )
    .unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].session_id.as_str(), contents(&r[0])[0]),
        (C3, "Here is a draft of the notes.")
    );
    assert_eq!(
        (r[1].session_id.as_str(), contents(&r[1])[0]),
        (C1, "All tests pass.")
    );
    let err = read_sessions(&claude(), &SessionQuery::ids([C1, "missing"])).unwrap_err();
    assert_eq!(err.to_string(), "Session not found: \"missing\"");
}

#[test]
fn camel_case_shape_is_one_call_away() {
    let r = read_session_messages(&claude(), &SessionQuery::id(C3).limit(1)).unwrap();
    let snake = serde_json::to_value(&r).unwrap();
    let keys: Vec<&str> = snake
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["message_count", "messages", "session_id", "session_title"]
    );
    let camel = serde_json::to_value(r.camel_case()).unwrap();
    let keys: Vec<&str> = camel
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["messageCount", "messages", "sessionId", "sessionTitle"]
    );
    assert_eq!(camel["messages"][0]["role"], "user");
    // Tool input in the seed's camelCase works as well.
    let q: SessionQuery = serde_json::from_str(r#"{"searchTitle":"release","limit":1}"#).unwrap();
    assert_eq!(read_session_messages(&claude(), &q).unwrap().session_id, C3);
}

#[test]
fn bounded_title_scan_finds_titles_at_both_ends() {
    let store = ClaudeStore::open(Path::new(DATA).join("claude"))
        .unwrap()
        .title_scan(TitleScan::Bounded(400));
    let listed = list_sessions(&store).unwrap();
    let c1 = listed.iter().find(|s| s.id == C1).unwrap();
    // The custom title sits in the middle of the file, outside both 400-byte windows;
    // the last ai-title is near the end.
    assert_eq!(c1.title.as_deref(), Some("Parser fix and tests"));
}

// ---- Codex CLI ----

fn codex() -> CodexStore {
    CodexStore::open(Path::new(DATA).join("codex")).unwrap()
}

#[test]
fn codex_messages_skip_injected_and_duplicates() {
    let r = read_session_messages(&codex(), &SessionQuery::id(X1)).unwrap();
    assert_eq!(
        contents(&r),
        [
            "Add a --json flag to the export command",
            // The tool calls of a turn join the agent message before them, also across
            // a tool output (real Codex 0.107 and 0.118 rollouts: each agent message is
            // one message, its tool calls with it).
            "Let me look at the export command.\n[tool: shell]\n[tool: apply_patch]",
            "Added `--json`; `export --json` prints one object per row.",
            "Thanks, ship it",
            "Done.",
        ]
    );
    assert_eq!(r.message_count, Some(5));
    // The user's turn is the `user_message` event, 1 ms after the response item.
    assert_eq!(
        r.messages[0].timestamp.as_deref(),
        Some("2025-09-01T10:00:05.001Z")
    );
    let newest = read_session_messages(
        &codex(),
        &SessionQuery::id(X1).order(Order::Newest).limit(2),
    )
    .unwrap();
    assert_eq!(contents(&newest), ["Done.", "Thanks, ship it"]);
}

#[test]
fn codex_titles_from_the_index_else_first_prompt() {
    let r = read_session_messages(&codex(), &SessionQuery::id(X1).limit(0)).unwrap();
    assert_eq!(r.session_title, "Export --json flag");
    let r = read_session_messages(&codex(), &SessionQuery::id(X3).limit(0)).unwrap();
    assert_eq!(r.session_title, "Rename the export module to report");
    let r = read_session_messages(&codex(), &SessionQuery::title("json FLAG")).unwrap();
    assert_eq!(r.session_id, X1);
}

#[test]
fn codex_index_follows_appended_names_through_the_cache() {
    use rangeread::IndexCache;
    use std::sync::Arc;
    let (_tmp, home) = copy_fixture("codex");
    let cache = Arc::new(IndexCache::new(1 << 20));
    let store = CodexStore::open(&home).unwrap().cache(cache.clone());
    let title = |q: &SessionQuery| read_session_messages(&store, q).unwrap().session_title;
    let q = SessionQuery::id(X1).limit(0);
    assert_eq!(title(&q), "Export --json flag");
    // The transcript and the session index: two files, two entries.
    assert_eq!(cache.len(), 2);
    // The fixture ends with an unterminated "not json" line; Codex appends whole lines.
    let index = home.join("session_index.jsonl");
    let mut f = fs::OpenOptions::new().append(true).open(&index).unwrap();
    writeln!(f).unwrap();
    writeln!(
        f,
        r#"{{"id":"{X1}","thread_name":"Export as JSON","updated_at":"2025-09-02T08:00:00Z"}}"#
    )
    .unwrap();
    drop(f);
    assert_eq!(title(&q), "Export as JSON");
    assert!(cache.stats().extended >= 1, "{:?}", cache.stats());
    // Rewritten: parsed again from the start.
    fs::write(
        &index,
        format!("{{\"id\":\"{X1}\",\"thread_name\":\"Fresh start\"}}\n"),
    )
    .unwrap();
    assert_eq!(title(&q), "Fresh start");
}

#[test]
fn codex_archived_early_format() {
    let r = read_session_messages(&codex(), &SessionQuery::id(X2)).unwrap();
    assert_eq!(r.session_title, "Why does the export job time out?");
    assert_eq!(
        contents(&r),
        [
            "Why does the export job time out?",
            "The job reads every row into memory first."
        ]
    );
    assert_eq!(r.messages[0].timestamp, None);
    let ids: Vec<String> = list_sessions(&codex())
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids.len(), 3);
}

// ---- OpenCode ----

#[test]
fn opencode_legacy_json_tree() {
    let store = OpenCodeStore::open(Path::new(DATA).join("opencode")).unwrap();
    let a = read_session_messages(&store, &SessionQuery::title("config loader")).unwrap();
    assert_eq!(a.session_id, "ses_6a1f00000001ffeAbCdEfGhIjK");
    assert_eq!(
        contents(&a),
        [
            "Refactor the config loader to use serde\n[file: config.rs]",
            "I'll switch the loader to serde.\n[tool: edit]",
            "Looks good",
            "Great, the loader is done.",
        ]
    );
    assert_eq!(a.message_count, Some(4));
    assert_eq!(
        a.messages[0].timestamp.as_deref(),
        Some("2025-09-01T10:00:00.000Z")
    );
    // Placeholder titles are not titles; the child (subagent) session is not listed, as
    // `opencode session list` does not list it, but its id reads it (below).
    let titles: Vec<String> = list_sessions(&store)
        .unwrap()
        .into_iter()
        .filter_map(|s| s.title)
        .collect();
    assert_eq!(
        titles,
        [
            "Explain the cache eviction policy",
            "Refactor config loader"
        ]
    );
    let err = read_session_messages(&store, &SessionQuery::title("New session")).unwrap_err();
    assert_eq!(err.kind().as_str(), "no_matching_session");
    let c =
        read_session_messages(&store, &SessionQuery::id("ses_6a1f00000003ffeAbCdEfGhIjK")).unwrap();
    assert_eq!(
        contents(&c),
        ["Find every caller of evict()", "[tool: grep]"]
    );
}

#[cfg(feature = "opencode")]
#[test]
fn opencode_sqlite_database() {
    let tmp = tempfile::tempdir().unwrap();
    let sql = fs::read_to_string(Path::new(DATA).join("opencode-db/opencode.sql")).unwrap();
    let conn = rusqlite::Connection::open(tmp.path().join("opencode.db")).unwrap();
    conn.execute_batch(&sql).unwrap();
    drop(conn);
    let store = OpenCodeStore::open(tmp.path()).unwrap();
    let r = read_session_messages(&store, &SessionQuery::title("sqlite")).unwrap();
    assert_eq!(r.session_id, "ses_7b2000000001");
    assert_eq!(r.message_count, Some(4));
    assert_eq!(
        contents(&r),
        [
            "Move session storage from JSON files to SQLite",
            "I will add a migration.\n[tool: write]",
            "Run the migration tests",
            "All 14 migration tests pass.",
        ]
    );
    let r = read_session_messages(
        &store,
        &SessionQuery::id("ses_7b2000000002")
            .order(Order::Newest)
            .limit(1),
    )
    .unwrap();
    assert_eq!(r.session_title, "Why is startup slow?");
    assert_eq!(contents(&r), ["Plugin loading is synchronous."]);
    assert_eq!(
        r.messages[0].timestamp.as_deref(),
        Some("2026-01-01T01:00:05.000Z")
    );
    let listed = list_sessions(&store).unwrap();
    assert_eq!(listed[0].id, "ses_7b2000000002");
}

#[cfg(not(feature = "opencode"))]
#[test]
fn opencode_database_without_the_feature_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("opencode.db"), b"SQLite format 3\0").unwrap();
    let err = OpenCodeStore::open(tmp.path()).unwrap_err();
    assert_eq!(err.kind().as_str(), "store");
    assert!(err.to_string().contains("`opencode` feature"), "{err}");
}

// ---- generic JSONL ----

#[test]
fn generic_jsonl_with_pointers() {
    let fields = JsonlFields::default().title(Some("/title".into()));
    let store = JsonlStore::open(Path::new(DATA).join("jsonl"), fields).unwrap();
    let r = read_session_messages(&store, &SessionQuery::title("weekly")).unwrap();
    assert_eq!(r.session_id, "chat-1");
    assert_eq!(r.message_count, Some(4));
    assert_eq!(r.malformed_lines, 1);
    assert_eq!(
        r.messages[1].content,
        "Three items:\nrelease, docs, hiring."
    );
    // Epoch seconds and offsets are normalized to UTC.
    assert_eq!(
        r.messages[1].timestamp.as_deref(),
        Some("2025-07-07T09:00:05.000Z")
    );
    assert_eq!(
        r.messages[2].timestamp.as_deref(),
        Some("2025-07-07T07:05:00.000Z")
    );

    let fields = JsonlFields::default()
        .role("/msg/author")
        .content("/msg/body")
        .timestamp(Some("/at".into()))
        .user_role("human");
    let store = JsonlStore::open(Path::new(DATA).join("jsonl"), fields).unwrap();
    let r =
        read_session_messages(&store, &SessionQuery::id("chat-2").order(Order::Newest)).unwrap();
    assert_eq!(r.session_title, "Translate 'bonjour'");
    assert_eq!(contents(&r), ["Hello.", "Translate 'bonjour'"]);
    assert_eq!(r.messages[0].role, "bot");
    let err = JsonlStore::open(
        Path::new(DATA).join("jsonl"),
        JsonlFields::default().role("role"),
    )
    .unwrap_err();
    assert_eq!(err.kind().as_str(), "invalid_query");
}

#[test]
fn stores_are_usable_as_trait_objects() {
    let stores: Vec<Box<dyn SessionStore>> = vec![Box::new(claude()), Box::new(codex())];
    for s in &stores {
        assert!(!list_sessions(s.as_ref()).unwrap().is_empty());
    }
}
