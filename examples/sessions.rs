//! `sessions`: read the messages of an agent's earlier sessions, the way a
//! `read_session_messages` tool would get them.
//!
//! ```text
//! cargo run --release --example sessions -- --store claude|codex|opencode|jsonl --dir HOME
//!     [--id ID]... | [--title TEXT] [--content TEXT] | --list
//!     [--limit N] [--offset N] [--order oldest|newest] [--no-count]
//!     [--since DATE] [--until DATE] [--all-matches] [--max-sessions N]
//!     [--project DIR] [--title-scan full|bounded] [--format text|json] [--camel-case]
//!   jsonl store only:
//!     --role-pointer P (default /role) --content-pointer P (default /content)
//!     --timestamp-pointer P (default /timestamp; "" for none)
//!     --title-pointer P (default none) --user-role ROLE (default user)
//!   opencode store only:
//!     --legacy (read only the legacy storage/ tree, leaving opencode.db aside)
//! ```
//!
//! `--dir` is the store's home: Claude Code's `projects` directory or the directory that
//! holds it (`~/.claude`), the Codex home (`~/.codex`), OpenCode's data directory
//! (`~/.local/share/opencode`), or a directory of `*.jsonl` files; without it, the
//! store's default directory. `--project DIR` keeps only the sessions the agent ran in
//! that project directory (not for `jsonl`). `--id` may be repeated to read several
//! sessions; `--all-matches` returns every session matching `--title` / `--content` (at
//! most `--max-sessions`, default 10) instead of the most recent one. Several sessions
//! print as a JSON array. `--camel-case` prints the seed's field names (`sessionId`,
//! ...). Arguments are read as `OsString`: any path works, UTF-8 or not.
//!
//! Exit status 0 on success (and for `--help`); on error 1, `error: MESSAGE` on stderr,
//! and with `--format json` also `{"error": MESSAGE, "kind": KIND}` on stdout.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use rangeread::sessions::{
    list_sessions, read_session_messages, read_sessions, ClaudeStore, CodexStore, JsonlFields,
    JsonlStore, OpenCodeStore, SessionMessages, SessionQuery, SessionStore, TitleScan,
};
use rangeread::Error;

#[derive(PartialEq)]
enum Output {
    Text,
    Json,
}

struct Args {
    store: String,
    dir: Option<PathBuf>,
    project: Option<PathBuf>,
    legacy: bool,
    query: SessionQuery,
    list: bool,
    all_matches: bool,
    title_scan: TitleScan,
    format: Output,
    camel: bool,
    fields: JsonlFields,
}

const HELP: &str = "\
usage: sessions --store claude|codex|opencode|jsonl [--dir HOME] [QUERY] [OPTIONS]

Reads the messages of an agent's earlier sessions.

  --store S               claude, codex, opencode or jsonl (default claude)
  --dir HOME              the store's home (default: the agent's own directory)
  --project DIR           only the sessions the agent ran in this project directory
  --id ID                 the session with this id (repeat for several)
  --title TEXT            the most recent session whose title contains TEXT
  --content TEXT          sessions (and messages) whose content contains TEXT
  --list                  list the sessions, most recently updated first
  --limit N               at most N messages (default 20)
  --offset N              skip N messages from the end --order starts at (default 0)
  --order oldest|newest   the first messages oldest first, or the last newest first
  --no-count              leave message_count null: a newest-N read stays O(N)
  --since DATE            only messages at or after DATE (RFC 3339)
  --until DATE            only messages at or before DATE (RFC 3339)
  --all-matches           every matching session, not only the most recent
  --max-sessions N        with --all-matches, at most N sessions (default 10)
  --title-scan full|bounded  search whole files for titles, or their ends (claude, jsonl)
  --format text|json      output format (default text)
  --camel-case            JSON with the seed's field names (sessionId, ...)
  --role-pointer P        jsonl: JSON pointer to the role (default /role)
  --content-pointer P     jsonl: JSON pointer to the content (default /content)
  --timestamp-pointer P   jsonl: JSON pointer to the time (default /timestamp; \"\" none)
  --title-pointer P       jsonl: JSON pointer to a title (default none)
  --user-role ROLE        jsonl: the role whose first message titles a session (default user)
  --legacy                opencode: read only the legacy storage/ tree, not opencode.db
  -h, --help              print this help and exit
";

/// The flags that take a UTF-8 value.
const VALUE_FLAGS: &[&str] = &[
    "--store",
    "--id",
    "--title",
    "--content",
    "--limit",
    "--offset",
    "--order",
    "--since",
    "--until",
    "--max-sessions",
    "--title-scan",
    "--format",
    "--role-pointer",
    "--content-pointer",
    "--timestamp-pointer",
    "--title-pointer",
    "--user-role",
];

fn fail(message: impl Into<String>) -> Error {
    Error::InvalidSessionQuery {
        message: message.into(),
    }
}

fn number(flag: &str, v: String) -> Result<usize, Error> {
    v.parse()
        .map_err(|_| fail(format!("{flag} expects a non-negative integer, got {v:?}")))
}

/// The parsed arguments, or `None` for `--help` (already printed).
fn parse_args(args: Vec<OsString>) -> Result<Option<Args>, Error> {
    use lexopt::prelude::*;
    let mut a = Args {
        store: "claude".into(),
        dir: None,
        project: None,
        legacy: false,
        query: SessionQuery::new(),
        list: false,
        all_matches: false,
        title_scan: TitleScan::Full,
        format: Output::Text,
        camel: false,
        fields: JsonlFields::default(),
    };
    let lex = |e: lexopt::Error| fail(format!("{e}\n{}", HELP.lines().next().unwrap_or("")));
    let mut p = lexopt::Parser::from_args(args);
    while let Some(arg) = p.next().map_err(lex)? {
        let flag = match arg {
            Long(l) => format!("--{l}"),
            Short(c) => format!("-{c}"),
            Value(v) => {
                return Err(fail(format!(
                    "unexpected argument {:?}: every value follows its flag (see --help)",
                    v.to_string_lossy()
                )))
            }
        };
        // A flag's value: a path as it is (any bytes), anything else as UTF-8 text.
        let q = &mut a.query;
        match flag.as_str() {
            "--dir" => a.dir = Some(p.value().map_err(lex)?.into()),
            "--project" => a.project = Some(p.value().map_err(lex)?.into()),
            "-h" | "--help" => {
                print!("{HELP}");
                return Ok(None);
            }
            "--no-count" => q.count = false,
            "--all-matches" => a.all_matches = true,
            "--list" => a.list = true,
            "--legacy" => a.legacy = true,
            "--camel-case" => a.camel = true,
            f if !VALUE_FLAGS.contains(&f) => {
                return Err(fail(format!("unknown argument {flag} (see --help)")))
            }
            _ => {
                let v = p.value().map_err(lex)?.into_string().map_err(|v| {
                    fail(format!(
                        "{flag} expects UTF-8 text, got {:?}",
                        v.to_string_lossy()
                    ))
                })?;
                match flag.as_str() {
                    "--store" => a.store = v,
                    "--id" => q.session_ids.push(v),
                    "--title" => q.search_title = Some(v),
                    "--content" => q.search_content = Some(v),
                    "--limit" => q.limit = number(&flag, v)?,
                    "--offset" => q.offset = number(&flag, v)?,
                    "--order" => q.order = v.parse()?,
                    "--since" => q.since = Some(v.parse()?),
                    "--until" => q.until = Some(v.parse()?),
                    "--max-sessions" => q.max_sessions = number(&flag, v)?,
                    "--title-scan" => {
                        a.title_scan = match v.as_str() {
                            "full" => TitleScan::Full,
                            "bounded" => TitleScan::BOUNDED,
                            _ => {
                                return Err(fail(format!(
                                    "--title-scan expects full or bounded, got {v:?}"
                                )))
                            }
                        }
                    }
                    "--format" => {
                        a.format = match v.as_str() {
                            "text" => Output::Text,
                            "json" => Output::Json,
                            _ => {
                                return Err(fail(format!(
                                    "--format expects text or json, got {v:?}"
                                )))
                            }
                        }
                    }
                    "--role-pointer" => a.fields.role = v,
                    "--content-pointer" => a.fields.content = v,
                    "--timestamp-pointer" => a.fields.timestamp = (!v.is_empty()).then_some(v),
                    "--title-pointer" => a.fields.title = (!v.is_empty()).then_some(v),
                    _ => a.fields.user_role = v,
                }
            }
        }
    }
    if a.query.session_ids.len() == 1 {
        a.query.session_id = a.query.session_ids.pop();
    }
    Ok(Some(a))
}

fn open_store(a: &Args) -> Result<Box<dyn SessionStore>, Error> {
    let dir = |default: Option<PathBuf>| -> Result<PathBuf, Error> {
        a.dir
            .clone()
            .or(default)
            .ok_or_else(|| fail("--dir is required: no home directory to find the store in"))
    };
    Ok(match a.store.as_str() {
        "claude" => {
            let s = ClaudeStore::open(dir(ClaudeStore::default_dir())?)?.title_scan(a.title_scan);
            match &a.project {
                Some(p) => Box::new(s.project(p)),
                None => Box::new(s),
            }
        }
        "codex" => {
            let s = CodexStore::open(dir(CodexStore::default_dir())?)?;
            match &a.project {
                Some(p) => Box::new(s.project(p)),
                None => Box::new(s),
            }
        }
        "opencode" => {
            let d = dir(OpenCodeStore::default_dir())?;
            let s = if a.legacy {
                OpenCodeStore::open_legacy(d)?
            } else {
                OpenCodeStore::open(d)?
            };
            match &a.project {
                Some(p) => Box::new(s.project(p)),
                None => Box::new(s),
            }
        }
        "jsonl" if a.project.is_some() => {
            return Err(fail(
                "--project does not apply to --store jsonl: a directory of JSONL files records \
                 no project; point --dir at the project's files instead",
            ))
        }
        "jsonl" => {
            Box::new(JsonlStore::open(dir(None)?, a.fields.clone())?.title_scan(a.title_scan))
        }
        s => {
            return Err(fail(format!(
                "--store expects claude, codex, opencode or jsonl, got {s:?}"
            )))
        }
    })
}

fn print_text(out: &mut impl Write, r: &SessionMessages, q: &SessionQuery) -> std::io::Result<()> {
    writeln!(out, "session: {}", r.session_id)?;
    writeln!(out, "title:   {}", r.session_title)?;
    let total = r
        .message_count
        .map_or_else(|| "not counted".to_string(), |n| n.to_string());
    let order = match q.order {
        rangeread::sessions::Order::Oldest => "oldest first",
        rangeread::sessions::Order::Newest => "newest first",
    };
    writeln!(
        out,
        "messages: {total} (showing {}, {order})",
        r.messages.len()
    )?;
    if r.malformed_lines > 0 {
        writeln!(out, "malformed lines skipped: {}", r.malformed_lines)?;
    }
    for (i, m) in r.messages.iter().enumerate() {
        let at = m.timestamp.as_deref().unwrap_or("-");
        writeln!(out, "\n--- {} {} {at}", q.offset + i + 1, m.role)?;
        writeln!(out, "{}", m.content)?;
    }
    Ok(())
}

fn run(a: &Args) -> Result<(), Error> {
    let store = open_store(a)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |e: std::io::Error| Error::Io {
        path: "<stdout>".into(),
        source: e,
    };
    if a.list {
        let sessions = list_sessions(store.as_ref())?;
        if a.format == Output::Json {
            serde_json::to_writer(&mut out, &sessions).map_err(|e| io(e.into()))?;
            writeln!(out).map_err(io)?;
        } else {
            for s in sessions {
                let updated = s.updated.map(|t| t.to_string()).unwrap_or_default();
                let title = s.title.as_deref().unwrap_or("");
                writeln!(out, "{}\t{updated}\t{title}", s.id).map_err(io)?;
            }
        }
        return Ok(());
    }
    let several = !a.query.session_ids.is_empty() || a.all_matches;
    let results = if several {
        read_sessions(store.as_ref(), &a.query)?
    } else {
        vec![read_session_messages(store.as_ref(), &a.query)?]
    };
    match a.format {
        Output::Json => {
            let res = match (several, a.camel) {
                (true, true) => {
                    let v: Vec<_> = results.iter().map(SessionMessages::camel_case).collect();
                    serde_json::to_writer(&mut out, &v)
                }
                (true, false) => serde_json::to_writer(&mut out, &results),
                (false, true) => serde_json::to_writer(&mut out, &results[0].camel_case()),
                (false, false) => serde_json::to_writer(&mut out, &results[0]),
            };
            res.map_err(|e| io(e.into()))?;
            writeln!(out).map_err(io)?;
        }
        Output::Text => {
            for (i, r) in results.iter().enumerate() {
                if i > 0 {
                    writeln!(out, "\n==========").map_err(io)?;
                }
                print_text(&mut out, r, &a.query).map_err(io)?;
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
    // Known before parsing, so that a parse error is reported in JSON too.
    let json = argv
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || argv.iter().any(|a| a == "--format=json");
    let result = parse_args(argv).and_then(|a| match a {
        Some(a) => run(&a),
        None => Ok(()),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            if json {
                let obj = serde_json::json!({"error": e.to_string(), "kind": e.kind().as_str()});
                // stdout may be the closed pipe that caused the error.
                let _ = writeln!(std::io::stdout(), "{obj}");
            }
            ExitCode::from(1)
        }
    }
}
