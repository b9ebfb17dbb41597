//! The server's command line.

use std::ffi::OsString;
use std::path::PathBuf;

use rangeread::tool::Dialect;

/// The per-call scan budget of the server, by default.
pub const DEFAULT_MAX_SCAN_BYTES: u64 = 4 << 30;

pub struct Options {
    pub preset: String,
    pub root: PathBuf,
    pub protect: Vec<String>,
    /// Every `--root` with the patterns given for it alone (`--root-protect`); none:
    /// `root` alone.
    pub roots: Vec<(PathBuf, Vec<String>)>,
    /// `--protect-as` / `--root-protect-as`: (pattern, label).
    pub labels: Vec<(String, String)>,
    pub sessions: Vec<(String, PathBuf)>,
    /// `--max-lines`, `--max-bytes`, `--max-line-chars`: the host's budgets, over the
    /// preset's own (a cut by one says where to continue).
    pub max_lines: Option<u64>,
    pub max_bytes: Option<u64>,
    pub max_line_chars: Option<u64>,
    /// `--image-policy`: the image policy of a preset that reads images.
    pub image_policy: Option<String>,
    pub max_scan_bytes: u64,
    pub sessions_store: Option<String>,
    pub sessions_dir: Option<PathBuf>,
    pub all_projects: bool,
    pub case_insensitive: bool,
    pub index_dir: Option<PathBuf>,
    /// `--dialect FILE`: tools served instead of the preset's, one a file.
    pub dialects: Vec<Dialect>,
    /// `--no-project-rules`: the preset's rule files (`.geminiignore`, `.zed/settings.json`
    /// ...) are not read.
    pub no_project_rules: bool,
    /// `--never-open-special-files`: a FIFO or device is refused without being opened.
    pub never_open_special: bool,
}

/// The most bytes of stored line indexes `--index-dir` keeps (1 GiB: the indexes of
/// 8 TiB of files).
pub const INDEX_DIR_BYTES: u64 = 1 << 30;

pub const HELP: &str = "\
rangeread-mcp: a stdio MCP server that reads line and byte ranges of files under a root.

usage: rangeread-mcp [OPTIONS]

  --preset NAME            the tool served, as its agent serves it (name, schema,
                           description, answer, errors):
                           read_file (default: the unified tool), session_read_file,
                           file_read, fs_read, vault (the seeds' tools);
                           codex, claude-code, gemini, zed, goose, crush, forge,
                           openhands, openhands-tools, mcp-filesystem,
                           rust-mcp-filesystem (the peers')
  --dialect FILE           serve the tool a dialect JSON file describes (as the presets in
                           src/tool/dialect/presets/), instead of a preset (repeatable: one tool each)
  --root DIR               every path is resolved inside DIR (default: the current directory);
                           s3://bucket/prefix (gs://, az://, http(s)://) reads objects under
                           the prefix, credentials from the AWS_* (GOOGLE_*, AZURE_*) variables
  --protect GLOB           refuse paths matching GLOB, gitignore-style (repeatable)
  --protect-as LABEL=GLOB  as --protect, and a refusal names LABEL where the preset's
                           refusal names the rule (zed: the setting)
  --root DIR (again)       several roots: a path is read in the root it lies in (zed: in
                           the worktree its first component names), else in the first
                           (mcp-filesystem, gemini: a relative path against each in turn;
                           links judged by their real path)
  --root-protect GLOB      refuse GLOB in the root given last only (repeatable)
  --root-protect-as LABEL=GLOB   the same, labelled
  --no-project-rules       read none of the project's rule files that the preset's agent
                           honours (.geminiignore and .gitignore, .zed/settings.json,
                           .claude/settings.json, .gooseignore, .cursorignore: see
                           docs/security.md), as the agent's own switch does
                           (Gemini CLI's respectGeminiIgnore); --protect still applies
  --never-open-special-files
                           never open a FIFO, socket or device a path names, not even
                           without blocking, also when one is renamed over the name
                           mid-read (Linux: a second lookup through /proc, a few
                           microseconds a call); by default one is opened without
                           blocking and refused by its type before anything is read
  --case-insensitive       match protected paths with Unicode case folding and NFC
                           (for roots on case-insensitive file systems)
  --session NAME=DIR       session_read_file: the session NAME reads inside DIR (repeatable;
                           without any, --root is the session \"default\")
  --sessions-store KIND    serve read_session_messages on this store: claude, codex,
                           opencode or jsonl
  --sessions-dir DIR       the store's home directory (required with --sessions-store)
  --all-projects           read_session_messages sees every project of the store
  --max-lines N            the host's lines per call (default: the preset's, 2000 for most;
                           0: no limit); a cut by it says where to continue, in the
                           preset's voice
  --max-bytes N            the host's bytes per call (default: the preset's, 102400 for
                           most; 0: no limit); the preset's own stays (set it in a --dialect
                           file, /limits/max_bytes)
  --max-line-chars N       the host's characters a line before it is cut (default: the
                           preset's; 0: no limit); a cut line says how many bytes are left
                           and the byte the rest starts at
  --image-policy NAME      the limits images are sent within, for a preset that reads
                           images: anthropic (read_file's), claude-code, openai, gemini
                           or none
  --max-scan-bytes N       bytes of a file counted for line numbers in one call (default
                           4294967296, 4 GiB; 0: no limit); the count goes on in later calls
  --index-dir DIR          keep line indexes of large files in DIR (created if missing, at
                           most 1 GiB) so that a restarted server does not count them again,
                           and what reads of PDFs learned (pages, outline, page texts)
  -h, --help               print this help and exit
";

pub fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Option<Options>, String> {
    use lexopt::prelude::*;
    let mut o = Options {
        preset: "read_file".to_string(),
        root: PathBuf::from("."),
        protect: Vec::new(),
        roots: Vec::new(),
        labels: Vec::new(),
        sessions: Vec::new(),
        max_lines: None,
        max_bytes: None,
        max_line_chars: None,
        image_policy: None,
        // A model drives this server: one call never scans more than 4 GiB (about two
        // seconds) of a file to count its lines; the index keeps the count for later calls.
        max_scan_bytes: DEFAULT_MAX_SCAN_BYTES,
        sessions_store: None,
        sessions_dir: None,
        all_projects: false,
        case_insensitive: false,
        index_dir: None,
        dialects: Vec::new(),
        no_project_rules: false,
        never_open_special: false,
    };
    let mut preset_given = false;
    let mut p = lexopt::Parser::from_args(args);
    let err = |e: lexopt::Error| e.to_string();
    let number = |flag: &str, v: OsString| -> Result<u64, String> {
        v.to_str()
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| format!("{flag} expects a non-negative integer, got {v:?}"))
    };
    while let Some(arg) = p.next().map_err(err)? {
        match arg {
            Long("preset") => {
                o.preset = p.value().map_err(err)?.string().map_err(err)?;
                preset_given = true;
            }
            Long("dialect") => o.dialects.push(dialect_file(p.value().map_err(err)?)?),
            Long("root") => {
                let dir: PathBuf = p.value().map_err(err)?.into();
                if o.roots.is_empty() {
                    o.root = dir.clone();
                }
                o.roots.push((dir, Vec::new()));
            }
            Long("protect") => o
                .protect
                .push(p.value().map_err(err)?.string().map_err(err)?),
            Long(flag @ ("protect-as" | "root-protect" | "root-protect-as")) => {
                let flag = flag.to_string();
                let v = p.value().map_err(err)?.string().map_err(err)?;
                let pattern = if flag.ends_with("-as") {
                    let (label, glob) = v
                        .split_once('=')
                        .filter(|(l, g)| !l.is_empty() && !g.is_empty())
                        .ok_or_else(|| format!("--{flag} expects LABEL=GLOB, got {v:?}"))?;
                    o.labels.push((glob.to_string(), label.to_string()));
                    glob.to_string()
                } else {
                    v
                };
                if flag.starts_with("root-") {
                    let (_, own) = o
                        .roots
                        .last_mut()
                        .ok_or_else(|| format!("--{flag} applies to a --root given before it"))?;
                    own.push(pattern);
                } else {
                    o.protect.push(pattern);
                }
            }
            Long("session") => o.sessions.push(session_arg(p.value().map_err(err)?)?),
            Long("sessions-store") => {
                o.sessions_store = Some(p.value().map_err(err)?.string().map_err(err)?)
            }
            Long("sessions-dir") => o.sessions_dir = Some(p.value().map_err(err)?.into()),
            Long("all-projects") => o.all_projects = true,
            Long("case-insensitive") => o.case_insensitive = true,
            Long("no-project-rules") => o.no_project_rules = true,
            Long("never-open-special-files") => o.never_open_special = true,
            Long("index-dir") => o.index_dir = Some(p.value().map_err(err)?.into()),
            Long("max-lines") => {
                o.max_lines = Some(number("--max-lines", p.value().map_err(err)?)?)
            }
            Long("max-bytes") => {
                o.max_bytes = Some(number("--max-bytes", p.value().map_err(err)?)?)
            }
            Long("max-scan-bytes") => {
                o.max_scan_bytes = number("--max-scan-bytes", p.value().map_err(err)?)?
            }
            Long("max-line-chars") => {
                o.max_line_chars = Some(number("--max-line-chars", p.value().map_err(err)?)?)
            }
            Long("image-policy") => {
                let name = p.value().map_err(err)?.string().map_err(err)?;
                if rangeread::images::ImagePolicy::preset(&name).is_none() {
                    return Err(format!(
                        "--image-policy {name:?}: the policies are anthropic, claude-code, \
                         openai, gemini and none"
                    ));
                }
                o.image_policy = Some(name);
            }
            Short('h') | Long("help") => return Ok(None),
            other => return Err(format!("{} (see --help)", other.unexpected())),
        }
    }
    match (&o.sessions_store, &o.sessions_dir) {
        (Some(_), None) => return Err("--sessions-store needs --sessions-dir DIR".to_string()),
        (None, Some(_)) => return Err("--sessions-dir needs --sessions-store".to_string()),
        _ => {}
    }
    if o.all_projects && o.sessions_store.is_none() {
        return Err("--all-projects needs --sessions-store".to_string());
    }
    if !Dialect::preset_names().contains(&o.preset.as_str()) {
        return Err(format!(
            "--preset expects one of {}, got {:?}",
            Dialect::preset_names().join(", "),
            o.preset
        ));
    }
    if o.roots.len() > 1 && o.preset == "session_read_file" {
        return Err(
            "session_read_file reads in one directory a session: use --session NAME=DIR"
                .to_string(),
        );
    }
    if preset_given && !o.dialects.is_empty() {
        return Err("give --preset or --dialect, not both".to_string());
    }
    if !o.sessions.is_empty() && o.preset != "session_read_file" {
        return Err("--session is for --preset session_read_file".to_string());
    }
    Ok(Some(o))
}

/// A dialect read from a JSON file.
fn dialect_file(path: OsString) -> Result<Dialect, String> {
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("--dialect {}: {e}", path.to_string_lossy()))?;
    serde_json::from_str(&text).map_err(|e| format!("--dialect {}: {e}", path.to_string_lossy()))
}

/// `NAME=DIR`, split at the first `=`; DIR may be any path.
fn session_arg(v: OsString) -> Result<(String, PathBuf), String> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = v.as_bytes();
        if let Some(i) = bytes.iter().position(|&b| b == b'=') {
            let name = std::str::from_utf8(&bytes[..i])
                .map_err(|_| format!("--session expects NAME=DIR with a UTF-8 NAME, got {v:?}"))?;
            let dir = std::ffi::OsStr::from_bytes(&bytes[i + 1..]);
            if !name.is_empty() && !dir.is_empty() {
                return Ok((name.to_string(), PathBuf::from(dir)));
            }
        }
    }
    #[cfg(not(unix))]
    if let Some((name, dir)) = v.to_str().and_then(|s| s.split_once('=')) {
        if !name.is_empty() && !dir.is_empty() {
            return Ok((name.to_string(), PathBuf::from(dir)));
        }
    }
    Err(format!("--session expects NAME=DIR, got {v:?}"))
}
