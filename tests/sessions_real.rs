//! The stores on real transcripts (`tests/data/sessions/real/`, provenance in
//! `tests/data/sessions/SOURCES.md`): each rule of what a message is, what a title is and
//! what a project is, checked against the conversation the agent's own UI shows.

#![cfg(feature = "sessions")]

mod sessions_support;
use sessions_support::{contents, read, roles};
use std::path::Path;

use rangeread::sessions::{
    list_sessions, read_session_messages, ClaudeStore, CodexStore, OpenCodeStore, Order,
    SessionMessages, SessionQuery, SessionStore,
};
use rangeread::Error;

const REAL: &str = "tests/data/sessions/real";

/// Claude Code 2.1.39: background tasks, a compaction, a late prompt.
const GQC: &str = "258c7280-ae70-4798-800f-63464d01a85d";
/// Claude Code 2.1.39: `/compact` with arguments.
const TE4: &str = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
/// Claude Code 2.1.38: `/mcp`, its output, caveats, interruptions.
const TOOLS: &str = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
/// Claude Code 2.1.38: a custom slash command as the only prompt.
const BEADS: &str = "491e126e-1e71-469c-ade2-fcc8af567c74";
/// Claude Code 2.1.38: one prompt, one reply over several records.
const SHORT: &str = "55604662-cf2a-4331-851a-ec234028f8ca";
/// Claude Code 2.0.76: a `summary` of another session, a pasted `!` command.
const STUDIO: &str = "5da894cf-39f2-4285-8dad-323adb2d00ef";
/// Claude Code 2.0.76: five turns, `stop_hook_summary` records, `/compact`.
const HOOKS: &str = "c45af7b1-cb7c-4e51-93db-8cbb250a877a";

/// Claude Code 2.1.330 (written here against a scripted model, see SOURCES.md): a long
/// prompt Claude Code named (`ai-title`), a tool call, then `/rename` (`custom-title`).
const POEM: &str = "20c728e3-527e-4238-9782-2334f9496ec9";
/// Claude Code 2.1.330: a long prompt, named by Claude Code (`ai-title`, four times).
const PARIS: &str = "db77bd4b-a10b-4ba2-8acc-c59fe07ccc21";
/// Claude Code 2.1.330: `claude -p` with a short prompt, never named.
const PRINT: &str = "0d75d672-d161-4879-b0e3-a08daa9fc67e";
/// Claude Code 2.1.330: a prompt, `/compact`, another prompt.
const COMPACT: &str = "eabd5c01-5f31-41c3-aef5-dd0409c9d3af";
/// Claude Code 2.1.330: started, `/resume` opened and cancelled, nothing else.
const RESUME: &str = "a9ab4943-a1b8-4061-a572-958eb417e83a";

/// Codex 0.118 (VS Code): three prompts, two with the IDE preamble, 13 agent messages.
const IMPORT: &str = "019d6d46-a233-7eb1-8e9b-923935d7d416";
/// Codex 0.118: a prompt alone.
const REVIEW: &str = "019d6d44-d356-7eb3-9448-0cd00f06aadf";
/// Codex 0.48 (VS Code): IDE prompts, no reply.
const CR: &str = "019a1ca6-7599-7b71-b519-9ee83a3ffc7d";
/// Codex 0.107 (Desktop): skills, web searches, 8 agent messages.
const NEWS: &str = "019cbba4-0c42-7301-8dda-90c1e15a54ba";
/// Codex 0.108 (Desktop): compressed, `.jsonl.zst`.
const HELLO: &str = "019cc670-966a-7b41-80e1-20b5016d8353";
/// Codex 0.169 (`codex exec`, written here against a scripted model): two turns, the
/// second added by `codex exec resume --last`.
const EXEC_HELLO: &str = "01a209e4-e388-7663-9d7a-74cd275106df";
/// Codex 0.169 (`codex exec`): a tool call (`exec_command`) and the reply after it.
const EXEC_LS: &str = "01a209e4-f115-7b50-b411-dffef52cf626";
/// Codex 0.154 (TUI): the prompt as an `item_completed` `UserMessage`, an aborted turn.
const CRASH: &str = "01a0b581-909c-7773-9cf5-f4f4fbf54b67";

fn claude() -> ClaudeStore {
    ClaudeStore::open(Path::new(REAL).join("claude")).unwrap()
}

/// The transcripts Claude Code 2.1.330 wrote (`real/claude-2.1.330/`).
fn claude_2_1_330() -> ClaudeStore {
    ClaudeStore::open(Path::new(REAL).join("claude-2.1.330")).unwrap()
}

fn codex() -> CodexStore {
    CodexStore::open(Path::new(REAL).join("codex")).unwrap()
}

/// The first line of each message, at most 40 characters: enough to recognise it.
fn heads(r: &SessionMessages) -> Vec<String> {
    r.messages
        .iter()
        .map(|m| {
            m.content
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(40)
                .collect()
        })
        .collect()
}

// ---- Claude Code ----

#[test]
fn claude_task_notifications_are_not_prompts_nor_titles() {
    let r = read(&claude(), GQC);
    assert_eq!(r.session_title, "Implement spotter-gqc");
    assert_eq!(r.message_count, Some(14));
    assert_eq!(roles(&r), "uaaaaaaaaaaaua");
    assert!(
        r.messages
            .iter()
            .all(|m| !m.content.contains("task-notification")),
        "{:?}",
        heads(&r)
    );
    // The compaction summary and the interruption marker are not turns either.
    assert!(r.messages.iter().all(|m| !m
        .content
        .contains("continued from a previous conversation")
        && !m.content.contains("[Request interrupted")));
    let newest = read_session_messages(
        &claude(),
        &SessionQuery::id(GQC).order(Order::Newest).limit(2),
    )
    .unwrap();
    assert!(newest.messages[0]
        .content
        .starts_with("Yes — everything is pushed"));
    assert_eq!(newest.messages[1].content, "did you push?");
}

#[test]
fn claude_records_sharing_a_message_id_are_one_reply() {
    let r = read(&claude(), GQC);
    // Four records of `msg_01EEiRWu…` (blank text, thinking, text, three tool calls).
    assert_eq!(
        r.messages[1].content,
        "Let me start by understanding what \"spotter-gqc\" means and what work is planned.\
         \n[tool: Bash]\n[tool: Bash]\n[tool: Bash]"
    );
    // Timestamped by its first record with content (the blank first one is not).
    assert_eq!(
        r.messages[1].timestamp.as_deref(),
        Some("2026-02-11T20:36:50.411Z")
    );
    // One reply across its own tool results (`msg_01…fbcsgM`).
    let b = read(&claude(), BEADS);
    assert_eq!(
        b.messages[2].content,
        "Let me check the current project state and whether any of these are already configured.\
         \n[tool: Glob]\n[tool: WebSearch]"
    );
    assert_eq!(b.message_count, Some(5));
}

/// Thinking is left out, tool calls are named; `/model`, which 2.1.38 wrote only as a
/// `system` `local_command` record (its output, "Kept model as Default", in another),
/// is the user's last turn.
#[test]
fn claude_thinking_is_not_content_and_tool_calls_are_named() {
    let r = read(&claude(), SHORT);
    assert_eq!(
        contents(&r),
        [
            "mix phx.server doesnt seem to start",
            "Let me check the project structure and try running the server to see the error.\
             \n[tool: Bash]\n[tool: Glob]",
            "/model"
        ]
    );
}

#[test]
fn claude_slash_commands_read_as_name_and_args() {
    let r = read(&claude(), TE4);
    assert_eq!(
        heads(&r),
        [
            "Work on bead spotter-4te. Run bd show sp",
            "[tool: Bash]",
            "/compact and continue with the reamining",
            "continue implementation",
            "Let me check the current state and remai"
        ]
    );
    assert_eq!(
        r.messages[2].content,
        "/compact and continue with the reamining tasks"
    );
    assert_eq!(r.messages[2].role, "user");
    let t = read(&claude(), TOOLS);
    assert!(contents(&t).contains(&"/mcp"), "{:?}", heads(&t));
    // `<command-message>` before `<command-name>`, and arguments over several lines.
    let b = read(&claude(), BEADS);
    assert!(
        b.messages[0]
            .content
            .starts_with("/handgemacht:create-beads websearch to learn how to fastest setup credo"),
        "{}",
        b.messages[0].content
    );
}

#[test]
fn claude_local_command_output_and_caveats_are_not_prompts() {
    let r = read(&claude(), TOOLS);
    assert_eq!(r.message_count, Some(7));
    assert_eq!(roles(&r), "uaauuaa");
    // `/mcp` is written twice, as a user record and (when its dialog closed) as a
    // `system` `local_command` record: one turn.
    assert_eq!(contents(&r).iter().filter(|c| **c == "/mcp").count(), 1);
    for m in &r.messages {
        assert!(
            !m.content.contains("Reconnected to tidewave"),
            "{}",
            m.content
        );
        assert!(!m.content.contains("Caveat:"), "{}", m.content);
        assert!(!m.content.contains("local-command"), "{}", m.content);
    }
    // The `/compact` output of 2.1.39 is not a turn.
    let c = read(&claude(), TE4);
    assert!(c.messages.iter().all(|m| !m.content.contains("Compacted")));
}

#[test]
fn claude_titles_are_real_prompts_else_the_first_command() {
    let titles: Vec<(String, Option<String>)> = list_sessions(&claude())
        .unwrap()
        .into_iter()
        .map(|s| (s.id, s.title))
        .collect();
    let title = |id: &str| {
        titles
            .iter()
            .find(|(i, _)| i == id)
            .and_then(|(_, t)| t.clone())
            .unwrap()
    };
    assert_eq!(title(GQC), "Implement spotter-gqc");
    assert_eq!(title(TOOLS), "start phoenix in background");
    assert_eq!(title(SHORT), "mix phx.server doesnt seem to start");
    // The only user text is a slash command: it reads as the command.
    assert!(title(BEADS).starts_with("/handgemacht:create-beads websearch"));
    assert_eq!(title(HOOKS), "can you run a command ls -la");
    assert_eq!(titles.len(), 7);
}

#[test]
fn claude_a_summary_titles_only_the_session_its_leaf_is_in() {
    // 2.0.76 wrote a `summary` whose `leafUuid` is a record of another session: not a
    // title here; the first prompt is.
    let r = read(&claude(), STUDIO);
    assert_eq!(r.session_title, "! ls ~/.fasthooks/studio.db");
    assert_eq!(r.message_count, Some(4));
    // The same file with the leaf record appended: the summary is its title.
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("projects/-p");
    std::fs::create_dir_all(&project).unwrap();
    let name = format!("{STUDIO}.jsonl");
    let mut text = std::fs::read_to_string(
        Path::new(REAL)
            .join("claude/projects/-private-tmp-fh-myell-myhk")
            .join(&name),
    )
    .unwrap();
    text.push_str(
        r#"{"type":"user","uuid":"8ad1b62c-54f3-4768-a060-31d1a3877bac","message":{"role":"user","content":"thanks"}}"#,
    );
    text.push('\n');
    std::fs::write(project.join(&name), text).unwrap();
    let store = ClaudeStore::open(tmp.path()).unwrap();
    let r = read_session_messages(&store, &SessionQuery::id(STUDIO).limit(0)).unwrap();
    assert_eq!(r.session_title, "Exploring .claude directory and studio.db");
}

#[test]
fn claude_2_0_turns_hook_records_and_compaction() {
    let r = read(&claude(), HOOKS);
    assert_eq!(r.message_count, Some(18));
    assert_eq!(roles(&r), "uaauaauaauaauaaaau");
    assert_eq!(r.messages[13].content, "[tool: Write]\n[tool: Write]");
    // The compaction's summary, caveat and output are not turns; the command is.
    assert_eq!(r.messages[17].content, "/compact");
}

#[test]
fn claude_scoped_to_a_project_sees_only_its_sessions() {
    let store = claude().project("/home/marco/projects/spotter");
    let mut ids: Vec<String> = list_sessions(&store)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    ids.sort();
    assert_eq!(ids, [BEADS, SHORT, TOOLS]);
    // Another project's session is not found by id...
    let err = read_session_messages(&store, &SessionQuery::id(GQC)).unwrap_err();
    assert!(matches!(err, Error::SessionNotFound { .. }), "{err}");
    // ...nor listed as available.
    let err = read_session_messages(&store, &SessionQuery::title("spotter-gqc")).unwrap_err();
    let Error::NoMatchingSession { available, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(available.len(), 3, "{available:?}");
    assert!(
        !available.iter().any(|t| t.contains("Implement")),
        "{available:?}"
    );
    // A worktree is a project of its own (the folder of `/…/spotter-worktrees/spotter-gqc`).
    let gqc = claude().project("/home/USER/projects/spotter-worktrees/spotter-gqc/");
    let listed = list_sessions(&gqc).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, GQC);
    assert!(list_sessions(&claude().project("/nowhere"))
        .unwrap()
        .is_empty());
}

// ---- Claude Code 2.1.330: real `ai-title` and `custom-title` records ----

/// `/rename` (a `custom-title` record) wins over the title Claude Code generated before
/// it (two `ai-title` records): the session picker (`reference/resume-picker.txt`) shows
/// "Borrow checker poem".
#[test]
fn claude_custom_title_wins_over_ai_title() {
    let r = read(&claude_2_1_330(), POEM);
    assert_eq!(r.session_title, "Borrow checker poem");
    let file = std::fs::read_to_string(
        Path::new(REAL)
            .join("claude-2.1.330/projects/-tmp-cc-r1-project")
            .join(format!("{POEM}.jsonl")),
    )
    .unwrap();
    assert!(file.contains(r#""aiTitle":"Short poem request""#));
    // Found by the title the user gave it, not by the generated one.
    let q = SessionQuery::title("borrow checker").limit(1);
    assert_eq!(
        read_session_messages(&claude_2_1_330(), &q)
            .unwrap()
            .session_id,
        POEM
    );
    let q = SessionQuery::title("Short poem request");
    let err = read_session_messages(&claude_2_1_330(), &q).unwrap_err();
    assert!(matches!(err, Error::NoMatchingSession { .. }), "{err}");
}

/// Without `/rename`, the title Claude Code generated (`ai-title`) is the title, as the
/// picker shows it, not the first prompt.
#[test]
fn claude_ai_title_names_a_session_without_a_custom_one() {
    let r = read(&claude_2_1_330(), PARIS);
    assert_eq!(r.session_title, "Capital of France question");
    assert_eq!(roles(&r), "ua");
    assert!(r.messages[0]
        .content
        .starts_with("what is the capital of France? I am planning a trip"));
}

/// `claude -p` sessions are never named (no `ai-title`): the first prompt titles them.
#[test]
fn claude_print_mode_session_is_titled_by_its_prompt() {
    let r = read(&claude_2_1_330(), PRINT);
    assert_eq!(r.session_title, "hello, who are you?");
    assert_eq!(
        contents(&r),
        [
            "hello, who are you?",
            "Reply 5: you said \"hello, who are you?\"."
        ]
    );
}

/// The conversation of `reference/session1.txt`: prompt, reply, prompt, the tool call
/// ("Listed 1 directory"), the reply after it, and `/rename` as typed. 2.1.330 writes the
/// command as a `system` `local_command` record (its output as another, which is not a
/// turn) and appends a `<system-reminder>` naming the session (`isMeta`, not a turn);
/// its bookkeeping records (`attachment`, `api-request`, `api-request-blob`,
/// `cost-state`, `agent-name`, `last-prompt` ...) are no turns either.
#[test]
fn claude_2_1_330_turns_and_local_commands() {
    let r = read(&claude_2_1_330(), POEM);
    assert_eq!(r.message_count, Some(6));
    assert_eq!(roles(&r), "uauaau");
    assert_eq!(
        contents(&r),
        [
            "please write me a short poem about the Rust borrow checker, with four lines that \
             rhyme, and explain the joke afterwards",
            "Reply 1: you said \"please write me a short poem\".",
            "list the files here",
            "[tool: Bash]",
            "The listing shows the files of this directory; nothing else to do.",
            "/rename Borrow checker poem",
        ]
    );
    assert_eq!(r.malformed_lines, 0);
    // A session that never got a prompt holds only the command it ran. (Claude Code's
    // picker leaves such a session out; listed here, it is titled by that command.)
    let e = read(&claude_2_1_330(), RESUME);
    assert_eq!(contents(&e), ["/resume"]);
    assert_eq!(e.session_title, "/resume");
}

/// `/compact` in 2.1.330 (`reference/session-compact.txt`): the screen shows the prompt,
/// the reply, `/compact` ("Compacted"), the next prompt and its reply. Not turns: the
/// `compact_boundary` system record, the summary (`isCompactSummary`), the caveat
/// (`isMeta`) and the command's output.
#[test]
fn claude_2_1_330_compaction() {
    let r = read(&claude_2_1_330(), COMPACT);
    assert_eq!(r.session_title, "Please explain in a");
    assert_eq!(
        contents(&r),
        [
            "please explain in a few sentences how the Rust borrow checker decides when a \
             reference may be used",
            "Reply 1: you said \"please explain in a few sentences\".",
            "/compact",
            "thanks, and what about lifetimes?",
            "Reply 2: you said \"thanks, and what about lifetimes?\"."
        ]
    );
    assert_eq!(roles(&r), "uauua");
}

// ---- Codex CLI ----

#[test]
fn codex_user_turns_are_the_user_message_events() {
    let r = read(&codex(), IMPORT);
    assert_eq!(r.message_count, Some(16));
    assert_eq!(roles(&r), "uaaaaaaauaauaaaa");
    for m in &r.messages {
        assert!(
            !m.content.contains("<environment_context>"),
            "{}",
            m.content
        );
        assert!(
            !m.content.contains("AGENTS.md instructions"),
            "{}",
            m.content
        );
    }
    assert_eq!(
        r.messages[0].content,
        "review the current project directory and import it for use with codex"
    );
    // The IDE's prompt is the event's text, as the user sent it.
    assert!(r.messages[8]
        .content
        .starts_with("# Context from my IDE setup:"));
    assert!(r.messages[8].content.ends_with(
        "## My request for Codex:\nhow do i make these settings global for use in all projects"
    ));
    // 0.107: the `<skill>` block and AGENTS.md ride in response items, not in the turn.
    let n = read(&codex(), NEWS);
    assert_eq!(roles(&n).matches('u').count(), 1);
    assert!(n.messages[0]
        .content
        .starts_with("Automation: 每日重大新闻报告"));
    assert!(n.messages.iter().all(|m| !m.content.contains("<skill>")));
    // 0.48: two prompts, no reply.
    let c = read(&codex(), CR);
    assert_eq!(roles(&c), "uu");
}

#[test]
fn codex_0_15x_user_turns_are_item_completed_user_messages() {
    // 0.154 writes no `user_message` event: the turn is the `UserMessage` item.
    let r = read(&codex(), CRASH);
    assert_eq!(r.message_count, Some(1));
    assert_eq!(roles(&r), "u");
    assert!(r.messages[0]
        .content
        .starts_with("A process crashed on this Omarchy machine and I want to know why."));
    assert!(r.messages[0].content.ends_with("diagnose-crash/SKILL.md"));
    assert_eq!(
        r.messages[0].timestamp.as_deref(),
        Some("2026-09-18T17:12:44.210Z")
    );
    // The `<turn_aborted>` developer note is not a turn.
    assert_eq!(
        r.session_title,
        "A process crashed on this Omarchy machine and I want to know why."
    );
    let scoped = codex().project("/home/rileyschuit/Work");
    let listed = list_sessions(&scoped).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, CRASH);
}

#[test]
fn codex_each_agent_message_is_its_own() {
    let n = read(&codex(), NEWS);
    // 8 `agent_message`s, with `reasoning` and `web_search_call`s between them.
    assert_eq!(n.message_count, Some(9));
    assert_eq!(roles(&n), "uaaaaaaaa");
    assert!(n.messages[2].content.contains("[tool: web_search]"));
    assert!(n.messages[8]
        .content
        .starts_with("已按你给的 `$deep-research` 深度模板完成当日版"));
    let r = read(&codex(), IMPORT);
    assert!(r.messages[1]
        .content
        .starts_with("I’ll scan the current directory to understand the project layout"));
    // Its tool calls (and their outputs) follow it; the next agent message is apart.
    assert!(r.messages[1]
        .content
        .ends_with("[tool: exec_command]\n[tool: exec_command]"));
    assert!(r.messages[2]
        .content
        .starts_with("I’ve mapped the repo structure"));
    assert!(r.messages[6].content.contains("[tool: apply_patch]"));
}

#[test]
fn codex_titles_strip_the_ide_preamble() {
    let listed = list_sessions(&codex()).unwrap();
    let title = |id: &str| {
        listed
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| s.title.clone())
            .unwrap()
    };
    assert_eq!(
        title(CR),
        "conduct code review on this project and output report to docs/CR.md"
    );
    // `session_index.jsonl` names it.
    assert_eq!(title(IMPORT), "Import project directory");
    assert_eq!(
        title(REVIEW),
        "review the current project directory and import it for use with codex"
    );
    let r = read_session_messages(&codex(), &SessionQuery::id(CR).limit(0)).unwrap();
    assert_eq!(
        r.session_title,
        "conduct code review on this project and output report to docs/CR.md"
    );
}

#[test]
fn codex_compressed_rollouts_are_sessions() {
    let listed = list_sessions(&codex()).unwrap();
    let z = listed.iter().find(|s| s.id == HELLO).expect("listed");
    assert!(z.path.to_string_lossy().ends_with(".jsonl.zst"));
    assert_eq!(z.title.as_deref(), Some("hello"));
    let r = read(&codex(), HELLO);
    assert_eq!(contents(&r), ["hello"]);
    assert_eq!(r.message_count, Some(1));
    let newest = read_session_messages(
        &codex(),
        &SessionQuery::id(HELLO).order(Order::Newest).limit(1),
    )
    .unwrap();
    assert_eq!(contents(&newest), ["hello"]);
    // The memory bound holds: a limit below the decompressed size fails, saying so.
    let small = codex().max_decompressed(1000);
    let err = read_session_messages(&small, &SessionQuery::id(HELLO)).unwrap_err();
    assert_eq!(err.kind().as_str(), "store");
    assert!(err.to_string().contains("more than 1000 bytes"), "{err}");
}

#[test]
fn codex_scoped_to_a_project_sees_only_its_sessions() {
    let store = codex().project("/Users/bernardchase/Documents/Cline");
    let mut ids: Vec<String> = list_sessions(&store)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    ids.sort();
    assert_eq!(ids, [REVIEW, IMPORT]);
    let err = read_session_messages(&store, &SessionQuery::id(NEWS)).unwrap_err();
    assert!(matches!(err, Error::SessionNotFound { .. }), "{err}");
    let err = read_session_messages(&store, &SessionQuery::title("code review")).unwrap_err();
    let Error::NoMatchingSession { available, .. } = &err else {
        panic!("{err}")
    };
    let mut available = available.clone();
    available.sort();
    assert_eq!(
        available,
        [
            "Import project directory",
            "review the current project directory and import it for use with codex"
        ]
    );
    // The compressed rollout's `session_meta` is read too.
    let desk =
        codex().project("/Users/bernardchase/Documents/00003300042002/mse/y_bar/200946433/ttb");
    assert_eq!(list_sessions(&desk).unwrap().len(), 1);
    let zst = codex().project("/Users/felicity/code/agent/csv_rule_agent_back2");
    assert_eq!(list_sessions(&zst).unwrap()[0].id, HELLO);
}

/// Codex 0.169, as `codex exec` printed it (`real/codex-0.169.0/reference/`): the user's
/// turns are the `item_completed` `UserMessage` events (there is no `user_message`
/// event, and the user response items also carry `<environment_context>`); a resumed
/// session goes on in the same rollout; a tool call before the turn's reply is a
/// message of its own.
#[test]
fn codex_0_169_exec_sessions_read_as_codex_printed_them() {
    let store = CodexStore::open(Path::new(REAL).join("codex-0.169.0")).unwrap();
    let r = read(&store, EXEC_HELLO);
    assert_eq!(r.session_title, "hello, who are you?");
    assert_eq!(
        contents(&r),
        [
            "hello, who are you?",
            "Reply 1: you said \"hello, who are you?\".",
            "what is the capital of France?",
            "Reply 2: you said \"what is the capital of France?\"."
        ]
    );
    assert_eq!(r.message_count, Some(4));
    let t = read(&store, EXEC_LS);
    assert_eq!(roles(&t), "uaa");
    assert_eq!(
        contents(&t),
        [
            "list the files here",
            "[tool: exec_command]",
            "The listing shows the files of this directory; nothing else to do."
        ]
    );
    for r in [&r, &t] {
        assert!(r
            .messages
            .iter()
            .all(|m| !m.content.contains("environment_context")));
    }
    let scoped = CodexStore::open(Path::new(REAL).join("codex-0.169.0"))
        .unwrap()
        .project("/tmp/cx/r1/project");
    assert_eq!(list_sessions(&scoped).unwrap().len(), 2);
}

// ---- both ----

#[test]
fn every_real_session_reads_the_same_from_either_end() {
    let codex_0_169 = CodexStore::open(Path::new(REAL).join("codex-0.169.0")).unwrap();
    for store in [
        &claude() as &dyn SessionStore,
        &claude_2_1_330(),
        &codex(),
        &codex_0_169,
    ] {
        for s in list_sessions(store).unwrap() {
            let q = SessionQuery::id(&s.id).limit(1000);
            let oldest = read_session_messages(store, &q).unwrap();
            let mut newest = read_session_messages(store, &q.clone().order(Order::Newest)).unwrap();
            newest.messages.reverse();
            assert_eq!(oldest.messages, newest.messages, "{}", s.id);
            assert_eq!(oldest.message_count, Some(oldest.messages.len() as u64));
            assert_eq!(oldest.malformed_lines, 0, "{}", s.id);
        }
    }
}

// ---- OpenCode ----

#[test]
fn opencode_scoped_to_a_project_sees_only_its_sessions() {
    let dir = Path::new("tests/data/sessions/opencode");
    let all = list_sessions(&OpenCodeStore::open(dir).unwrap()).unwrap();
    let app = OpenCodeStore::open(dir).unwrap().project("/work/app");
    assert_eq!(list_sessions(&app).unwrap().len(), all.len());
    let other = OpenCodeStore::open(dir).unwrap().project("/work/other");
    assert!(list_sessions(&other).unwrap().is_empty());
    let err = read_session_messages(&other, &SessionQuery::id(&all[0].id)).unwrap_err();
    assert!(matches!(err, Error::SessionNotFound { .. }), "{err}");
}

/// An `opencode.db` beside a legacy tree: a build that cannot read the database says
/// so instead of showing the older sessions as if they were all.
#[test]
fn opencode_database_beside_a_legacy_tree_is_never_dropped_silently() {
    let tmp = tempfile::tempdir().unwrap();
    let storage = tmp.path().join("storage/session/p");
    std::fs::create_dir_all(&storage).unwrap();
    std::fs::write(
        storage.join("ses_1.json"),
        r#"{"id":"ses_1","title":"Old legacy session","directory":"/w","time":{"created":1,"updated":2}}"#,
    )
    .unwrap();
    #[cfg(feature = "opencode")]
    {
        let sql = std::fs::read_to_string("tests/data/sessions/opencode-db/opencode.sql").unwrap();
        let conn = rusqlite::Connection::open(tmp.path().join("opencode.db")).unwrap();
        conn.execute_batch(&sql).unwrap();
        drop(conn);
        // Both are read: the database's sessions and the legacy one.
        let store = OpenCodeStore::open(tmp.path()).unwrap();
        let mut titles: Vec<String> = list_sessions(&store)
            .unwrap()
            .into_iter()
            .filter_map(|s| s.title)
            .collect();
        titles.sort();
        assert_eq!(titles.len(), 3, "{titles:?}");
        assert!(titles.contains(&"Migrate storage to SQLite".to_string()));
        assert!(titles.contains(&"Old legacy session".to_string()));
    }
    #[cfg(not(feature = "opencode"))]
    {
        std::fs::write(tmp.path().join("opencode.db"), b"SQLite format 3\0").unwrap();
        let err = OpenCodeStore::open(tmp.path()).unwrap_err();
        assert_eq!(err.kind().as_str(), "store");
        let msg = err.to_string();
        assert!(msg.contains("`opencode` feature"), "{msg}");
        assert!(msg.contains("open_legacy"), "{msg}");
        // Asked for explicitly, the legacy tree alone is read.
        let legacy = OpenCodeStore::open_legacy(tmp.path()).unwrap();
        assert_eq!(list_sessions(&legacy).unwrap().len(), 1);
    }
}
