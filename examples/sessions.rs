//! `sessions`: read the messages of an agent's earlier sessions, the way a
//! `read_session_messages` tool would get them.
//!
//! ```text
//! cargo run --release --example sessions -- --store claude|codex|opencode|jsonl --dir HOME
//!     [--id ID]... | [--title TEXT] [--content TEXT] | --list
//!     [--limit N] [--offset N] [--order oldest|newest] [--no-count]
//!     [--since DATE] [--until DATE] [--all-matches] [--max-sessions N]
//!     [--title-scan full|bounded] [--format text|json] [--camel-case]
//!   jsonl store only:
//!     --role-pointer P (default /role) --content-pointer P (default /content)
//!     --timestamp-pointer P (default /timestamp; "" for none)
//!     --title-pointer P (default none) --user-role ROLE (default user)
//! ```
//!
//! `--dir` is the store's home: Claude Code's `projects` directory or the directory that
//! holds it (`~/.claude`), the Codex home (`~/.codex`), OpenCode's data directory
//! (`~/.local/share/opencode`), or a directory of `*.jsonl` files; without it, the
//! store's default directory. `--id` may be repeated to read several sessions;
//! `--all-matches` returns every session matching `--title` / `--content` (at most
//! `--max-sessions`, default 10) instead of the most recent one. Several sessions print
//! as a JSON array. `--camel-case` prints the seed's field names (`sessionId`, ...).
//!
//! Exit status 0 on success; on error 1, `error: MESSAGE` on stderr, and with
//! `--format json` also `{"error": MESSAGE, "kind": KIND}` on stdout.

use std::io::Write;
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
    dir: Option<String>,
    query: SessionQuery,
    list: bool,
    all_matches: bool,
    title_scan: TitleScan,
    format: Output,
    camel: bool,
    fields: JsonlFields,
}

fn usage() -> &'static str {
    "usage: sessions --store claude|codex|opencode|jsonl [--dir HOME] \
     [--id ID]... | [--title TEXT] [--content TEXT] | --list \
     [--limit N] [--offset N] [--order oldest|newest] [--no-count] [--since DATE] \
     [--until DATE] [--all-matches] [--max-sessions N] [--title-scan full|bounded] \
     [--format text|json] [--camel-case] [--role-pointer P] [--content-pointer P] \
     [--timestamp-pointer P] [--title-pointer P] [--user-role ROLE]"
}

fn fail(message: impl Into<String>) -> Error {
    Error::InvalidSessionQuery {
        message: message.into(),
    }
}

fn number(flag: &str, v: &str) -> Result<usize, Error> {
    v.parse()
        .map_err(|_| fail(format!("{flag} expects a non-negative integer, got {v:?}")))
}

fn parse_args(argv: Vec<String>) -> Result<Args, Error> {
    let mut a = Args {
        store: "claude".into(),
        dir: None,
        query: SessionQuery::new(),
        list: false,
        all_matches: false,
        title_scan: TitleScan::Full,
        format: Output::Text,
        camel: false,
        fields: JsonlFields::default(),
    };
    let mut it = argv.into_iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || -> Result<String, Error> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => it
                    .next()
                    .ok_or_else(|| fail(format!("{flag} needs a value"))),
            }
        };
        let q = &mut a.query;
        match flag.as_str() {
            "--store" => a.store = value()?,
            "--dir" => a.dir = Some(value()?),
            "--id" => q.session_ids.push(value()?),
            "--title" => q.search_title = Some(value()?),
            "--content" => q.search_content = Some(value()?),
            "--limit" => q.limit = number(&flag, &value()?)?,
            "--offset" => q.offset = number(&flag, &value()?)?,
            "--order" => q.order = value()?.parse()?,
            "--no-count" => q.count = false,
            "--since" => q.since = Some(value()?.parse()?),
            "--until" => q.until = Some(value()?.parse()?),
            "--max-sessions" => q.max_sessions = number(&flag, &value()?)?,
            "--all-matches" => a.all_matches = true,
            "--list" => a.list = true,
            "--title-scan" => {
                a.title_scan = match value()?.as_str() {
                    "full" => TitleScan::Full,
                    "bounded" => TitleScan::BOUNDED,
                    v => {
                        return Err(fail(format!(
                            "--title-scan expects full or bounded, got {v:?}"
                        )))
                    }
                }
            }
            "--format" => {
                a.format = match value()?.as_str() {
                    "text" => Output::Text,
                    "json" => Output::Json,
                    v => return Err(fail(format!("--format expects text or json, got {v:?}"))),
                }
            }
            "--camel-case" => a.camel = true,
            "--role-pointer" => a.fields.role = value()?,
            "--content-pointer" => a.fields.content = value()?,
            "--timestamp-pointer" => {
                let v = value()?;
                a.fields.timestamp = (!v.is_empty()).then_some(v);
            }
            "--title-pointer" => {
                let v = value()?;
                a.fields.title = (!v.is_empty()).then_some(v);
            }
            "--user-role" => a.fields.user_role = value()?,
            "-h" | "--help" => return Err(fail(usage())),
            f => return Err(fail(format!("unknown argument {f}\n{}", usage()))),
        }
    }
    if a.query.session_ids.len() == 1 {
        a.query.session_id = a.query.session_ids.pop();
    }
    Ok(a)
}

fn open_store(a: &Args) -> Result<Box<dyn SessionStore>, Error> {
    let dir = |default: Option<std::path::PathBuf>| -> Result<std::path::PathBuf, Error> {
        a.dir
            .clone()
            .map(Into::into)
            .or(default)
            .ok_or_else(|| fail("--dir is required: no home directory to find the store in"))
    };
    Ok(match a.store.as_str() {
        "claude" => {
            Box::new(ClaudeStore::open(dir(ClaudeStore::default_dir())?)?.title_scan(a.title_scan))
        }
        "codex" => Box::new(CodexStore::open(dir(CodexStore::default_dir())?)?),
        "opencode" => Box::new(OpenCodeStore::open(dir(OpenCodeStore::default_dir())?)?),
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
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let json = argv
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || argv.iter().any(|a| a == "--format=json");
    match parse_args(argv).and_then(|a| run(&a)) {
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
