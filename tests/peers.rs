//! The peers' own test cases: each agent's read-tool tests, extracted as data from its
//! repository at a named commit (`tests/peers/<peer>.json`, provenance in
//! `tests/peers/SOURCES.md`), run through the library with the peer's dialect and
//! through the MCP server with its preset.
//!
//! A case that the crate does not pass yet is listed in [`PENDING`] with why; the test
//! asserts that it still fails (so a fix shows up as a failure to update the list). A
//! case whose test the peer itself ignores (`peer_ignored`: its assertion fails on the
//! peer's own code) is checked against what the peer's code answers (`peer_answers`),
//! and counted apart.
//! Cases that need a document reader the build lacks (`needs`: the `images` or `pdf`
//! feature) are counted as skipped; audio and video need none (sent whole). An answer's
//! media items (images, files sent whole) are compared by `media_type` (the first item's
//! MIME type) and `inline_data` (Gemini's `{mimeType, data}`: an item's type and base64).

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use base64::Engine as _;
use rangeread::tool::{Dialect, DialectTool, Roots, ToolResponse};
use rangeread::Workspace;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

#[derive(Deserialize)]
struct PeerFile {
    peer: String,
    /// The tool's name, or the names of a peer's several tools.
    tool: Value,
    /// The input schema the peer publishes (keyed by tool name for several tools), or
    /// null.
    #[serde(default)]
    schema: Value,
    /// The description the peer publishes (as `schema`).
    #[serde(default)]
    description: Value,
    cases: Vec<Case>,
}

#[derive(Deserialize, Clone)]
struct Case {
    id: String,
    #[serde(default)]
    files: Vec<FileSpec>,
    #[serde(default)]
    config: Map<String, Value>,
    call: Map<String, Value>,
    expect: Expect,
    #[serde(default)]
    needs: Option<String>,
    /// Why the peer ignores its own test (`#[ignore]`), with `peer_answers`.
    #[serde(default)]
    peer_ignored: Option<String>,
    /// What the peer's code answers where that differs from what its test states.
    #[serde(default)]
    peer_answers: Option<Expect>,
}

#[derive(Deserialize, Clone)]
struct FileSpec {
    path: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    base64: Option<String>,
    #[serde(default)]
    repeat: Option<Repeat>,
    #[serde(default)]
    lines: Option<Lines>,
    #[serde(default)]
    dir: bool,
    #[serde(default)]
    symlink: Option<String>,
}

#[derive(Deserialize, Clone)]
struct Repeat {
    text: String,
    times: usize,
}

#[derive(Deserialize, Clone)]
struct Lines {
    prefix: String,
    count: usize,
}

#[derive(Deserialize, Serialize, Clone)]
struct Expect {
    is_error: bool,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    lines: Option<Vec<String>>,
    #[serde(default)]
    contains: Vec<String>,
    #[serde(default)]
    not_contains: Vec<String>,
    #[serde(default)]
    starts_with: Option<String>,
    #[serde(default)]
    json_subset: Option<Value>,
    #[serde(default)]
    media_type: Option<String>,
    #[serde(default)]
    inline_data: Option<Value>,
}

/// Cases the crate does not pass yet: (peer, case id, why). Each must still fail.
const PENDING: &[(&str, &str, &str)] = &[];

/// Writes a case's files under `root`.
fn materialize(root: &Path, files: &[FileSpec]) {
    for f in files {
        let p = root.join(&f.path);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        if f.dir {
            fs::create_dir_all(&p).unwrap();
            continue;
        }
        if let Some(target) = &f.symlink {
            let target = target.replace("{root}", &root.to_string_lossy());
            #[cfg(unix)]
            std::os::unix::fs::symlink(target, &p).unwrap();
            continue;
        }
        let bytes: Vec<u8> = if let Some(t) = &f.text {
            t.clone().into_bytes()
        } else if let Some(b) = &f.base64 {
            base64::engine::general_purpose::STANDARD.decode(b).unwrap()
        } else if let Some(r) = &f.repeat {
            r.text.repeat(r.times).into_bytes()
        } else if let Some(l) = &f.lines {
            (1..=l.count)
                .map(|i| format!("{}{i}\n", l.prefix))
                .collect::<String>()
                .into_bytes()
        } else {
            Vec::new()
        };
        fs::write(&p, bytes).unwrap();
    }
}

/// Replaces `{root}` in every string of a JSON value.
fn with_root(v: &Value, root: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace("{root}", root)),
        Value::Array(a) => Value::Array(a.iter().map(|x| with_root(x, root)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), with_root(x, root)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// How a peer's test set its tool up: the workspace root (relative to the case's root),
/// the protected patterns, server flags for the same, and changes to the tool's dialect
/// (JSON pointer, value), which the server takes as a `--dialect` file.
#[derive(Default)]
struct Setup {
    root: PathBuf,
    protect: Vec<String>,
    dialect: Vec<(&'static str, Value)>,
    /// The root's own patterns, and further roots with theirs (Zed's worktrees and its
    /// skills directory, the MCP filesystem server's allowed directories, Gemini CLI's
    /// project temp directory): a tool over several roots.
    own: Vec<String>,
    more_roots: Vec<(PathBuf, Vec<String>)>,
    /// The rule each labelled pattern stands for (pattern, label).
    labels: Vec<(String, String)>,
}

impl Setup {
    /// The tool over the setup's root(s).
    fn tool(&self, dialect: Dialect) -> DialectTool {
        let ws = |dir: &Path, own: &[String]| {
            Workspace::builder(dir)
                .protect_all(self.protect.iter().chain(own).cloned())
                .build()
                .unwrap()
        };
        let tool = DialectTool::new(dialect);
        if self.more_roots.is_empty() && self.own.is_empty() && self.labels.is_empty() {
            return tool.workspace(ws(&self.root, &[]));
        }
        let mut roots = Roots::new().root(ws(&self.root, &self.own));
        for (dir, own) in &self.more_roots {
            roots = roots.root(ws(dir, own));
        }
        for (pattern, label) in &self.labels {
            roots = roots.label(pattern, label);
        }
        tool.roots(roots)
    }

    /// The same as `rangeread-mcp` flags.
    fn flags(&self, cmd: &mut Command) {
        let label = |p: &String| self.labels.iter().find(|(q, _)| q == p).map(|l| &l.1);
        let protect = |cmd: &mut Command, p: &String, scope: &str| {
            match label(p) {
                Some(l) => cmd
                    .arg(format!("--{scope}protect-as"))
                    .arg(format!("{l}={p}")),
                None => cmd.arg(format!("--{scope}protect")).arg(p),
            };
        };
        for p in &self.protect {
            protect(cmd, p, "");
        }
        cmd.arg("--root").arg(&self.root);
        for p in &self.own {
            protect(cmd, p, "root-");
        }
        for (dir, own) in &self.more_roots {
            cmd.arg("--root").arg(dir);
            for p in own {
                protect(cmd, p, "root-");
            }
        }
    }
}

/// Zed's test project: each worktree a root (paths name it first), the user's
/// `file_scan_exclusions` / `private_files` for every worktree and each worktree's own
/// (`.zed/settings.json`, mirrored in `worktree_settings`), the global skills directory
/// as one more root. A refusal names the setting of the last labelled pattern that
/// matches: a worktree's own over the user's, and within one list
/// `file_scan_exclusions` (which Zed checks first) over `private_files`.
fn zed_setup(config: &Map<String, Value>, root: &Path) -> Result<Setup, String> {
    let list = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut s = Setup::default();
    let mut label = |patterns: Vec<String>, scope: &str, setting: &str| {
        for p in &patterns {
            s.labels.push((p.clone(), format!("{scope} `{setting}`")));
        }
        patterns
    };
    let mut global = label(list(config.get("private_files")), "global", "private_files");
    global.extend(label(
        list(config.get("file_scan_exclusions")),
        "global",
        "file_scan_exclusions",
    ));
    let mut roots = Vec::new();
    for w in list(config.get("worktrees")) {
        let own = config
            .get("worktree_settings")
            .and_then(|ws| ws.get(&w))
            .map(|ws| {
                let mut own = label(list(ws.get("private_files")), "worktree", "private_files");
                own.extend(label(
                    list(ws.get("file_scan_exclusions")),
                    "worktree",
                    "file_scan_exclusions",
                ));
                own
            })
            .unwrap_or_default();
        roots.push((root.join(w), own));
    }
    if let Some(dir) = config.get("global_skills_dir").and_then(Value::as_str) {
        let dir = PathBuf::from(dir.replace("{root}", &root.to_string_lossy()));
        fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        roots.push((dir, Vec::new()));
    }
    let mut roots = roots.into_iter();
    let (first, own) = roots.next().ok_or("zed: no worktrees")?;
    s.root = first;
    s.own = own;
    s.more_roots = roots.collect();
    s.protect = global;
    Ok(s)
}

/// A case's `config`, as the peer's own test harness applies it.
fn setup(peer: &str, case: &Case, root: &Path) -> Result<Setup, String> {
    if peer == "zed" {
        return zed_setup(&case.config, root);
    }
    let mut s = Setup {
        root: root.to_path_buf(),
        ..Setup::default()
    };
    let root_text = root.to_string_lossy();
    for (k, v) in &case.config {
        let v = &with_root(v, &root_text);
        match (peer, k.as_str()) {
            // rust-mcp-filesystem's setup_service(["dir1"]): the one allowed directory.
            ("rust-mcp-filesystem", "allowed_directories") => {
                let dirs = v.as_array().cloned().unwrap_or_default();
                match dirs.as_slice() {
                    [one] => s.root = root.join(one.as_str().unwrap_or_default()),
                    _ => return Err(format!("allowed_directories {v}: one directory only")),
                }
            }
            // The MCP filesystem server's directory arguments, made absolute and folded
            // by their spelling at startup (`path.resolve`).
            ("mcp-filesystem", "allowedDirectories") => {
                let dirs: Vec<PathBuf> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(|d| fold(Path::new(d)))
                    .collect();
                // The server refuses to start without them: the cases' are made.
                for d in dirs.iter().filter(|d| d.starts_with(root)) {
                    fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
                }
                let Some((first, more)) = dirs.split_first() else {
                    return Err(format!("allowedDirectories {v}: none given"));
                };
                s.root = first.clone();
                s.more_roots = more.iter().map(|d| (d.clone(), Vec::new())).collect();
            }
            // Gemini CLI's project temp directory is allowed beside the workspace; under
            // the root it is inside already.
            ("gemini", "project_temp_dir") => {
                let dir = fold(Path::new(v.as_str().unwrap_or_default()));
                if !dir.starts_with(root) {
                    s.more_roots.push((dir, Vec::new()));
                }
            }
            // Gemini CLI's respectGeminiIgnore: false stops reading .geminiignore (its
            // other rule sources stay).
            ("gemini", "respectGeminiIgnore") if v == &json!(false) => {
                let rules = Dialect::preset("gemini").map_err(|e| e.to_string())?.rules;
                let files: Vec<_> = rules
                    .files
                    .into_iter()
                    .filter(|f| f.path != ".geminiignore")
                    .collect();
                s.dialect.push(("/rules/files", json!(files)));
            }
            // Forge's max_read_lines: lines per read; 0 reads line 1 only (resolve_range's
            // edge case), which is a one-line budget here.
            ("forge", "max_read_lines") => {
                let n = v.as_u64().ok_or(format!("max_read_lines {v}"))?;
                s.dialect.push(("/limits/max_lines", json!(n.max(1))));
            }
            // Forge's max_line_chars: its per-line cut, compared in bytes.
            ("forge", "max_line_chars") => {
                s.dialect.push(("/limits/max_line_chars", v.clone()));
                s.dialect.push(("/output/line_max_bytes", v.clone()));
            }
            // Forge checks the file against the larger of its two size limits first.
            ("forge", "max_file_size_bytes" | "max_image_size_bytes") => {
                let n = |k: &str| case.config.get(k).and_then(Value::as_u64).unwrap_or(0);
                let max = n("max_file_size_bytes").max(n("max_image_size_bytes"));
                s.dialect
                    .push(("/caps/file_size_any_read/bytes", json!(max)));
            }
            // The current model's input modalities: without `image`, Forge's tool registry
            // refuses paths with an image extension before reading (tool_registry.rs:364).
            ("forge", "model_input_modalities") => {
                let modalities: Vec<&str> = match v.as_array() {
                    Some(m) => m.iter().filter_map(Value::as_str).collect(),
                    None => vec!["unknown"],
                };
                if !modalities.contains(&"image") {
                    // Endings of the raw path: a file named `.png` is refused too.
                    let extensions = [
                        ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".svg", ".pdf",
                    ];
                    let message = format!(
                        "Tool 'read' requires image modality, but model only supports: {}",
                        modalities.join(", ")
                    );
                    s.dialect.push((
                        "/paths/refused_extensions",
                        json!([{"names": extensions, "message": message, "match_suffix": true}]),
                    ));
                }
            }
            // The editor's workspace_root: where a relative path's suggestion is looked
            // up (the OpenHands runtime passes its working directory, the root here).
            ("openhands", "workspace_root") => match v.as_str() {
                None => s.dialect.push(("/paths/suggest_absolute", Value::Null)),
                Some(dir) => s.root = PathBuf::from(dir.replace("{root}", &root_text)),
            },
            // Crush's readTextFile(path, offset, limit, maxContentSize): its byte budget
            // (0: none). The view tool passes MaxViewSize, which is the preset's.
            // It is the tool's own budget (Crush refuses a section over it), so the
            // dialect's, not the server's `--max-bytes` (a host budget over it).
            ("crush", "maxContentSize") => s.dialect.push(("/limits/max_bytes", v.clone())),
            // Crush's model takes images: the preset's own answer to image files.
            ("crush", "supports_images") if v == &json!(true) => {}
            // Claude Code's working directory: the workspace root.
            ("claude-code", "cwd") if v.as_str().map(Path::new) == Some(root) => {}
            // The session's free context: unknown to the tool (an MCP server's own case),
            // or ample for a lifted read: a host that knows it sets the dialect's
            // `caps.lift.room_tokens` (the server takes it in a `--dialect` file).
            ("claude-code", "context_left") => match v.as_str() {
                Some("unknown") => {}
                Some("ample") => s.dialect.push(("/caps/lift/room_tokens", json!(200_000))),
                _ => return Err(format!("context_left {v}: unknown or ample")),
            },
            (_, other) => return Err(format!("config {other} is not applied by the harness")),
        }
    }
    Ok(s)
}

/// `.` dropped and `..` folded by the spelling alone, as Node's `path.resolve` does.
fn fold(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The tool a call names (peers with several tools: `call.tool`, else the file's
/// `tool`).
fn dialect_for(peer: &str, call: &Map<String, Value>) -> Result<Dialect, String> {
    let name = match call.get("tool").and_then(Value::as_str) {
        Some(tool) => format!("{peer}/{tool}"),
        None => peer.to_string(),
    };
    Dialect::preset(&name)
        .or_else(|e| {
            let file = peer_file(peer);
            let tool = file.tool.as_str().ok_or(e)?;
            Dialect::preset(&format!("{peer}/{tool}"))
        })
        .map_err(|e| e.to_string())
}

/// The cases of one peer.
fn peer_file(peer: &str) -> PeerFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/peers/{peer}.json"));
    serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap()
}

/// A case's `needs` that this build and platform meet: symbolic links on Unix, the
/// document readers of the build's features (notebooks need none; audio and video are
/// sent whole, with no reader).
fn needs_met(needs: Option<&str>) -> bool {
    match needs {
        None | Some("notebooks") => true,
        Some("symlinks") => cfg!(unix),
        Some("images") => cfg!(feature = "images"),
        Some("pdf") => cfg!(feature = "pdf"),
        Some("audio" | "video") => true,
        Some(_) => false,
    }
}

/// `dialect` with the setup's changes (JSON pointer, value) made.
fn changed(dialect: Dialect, changes: &[(&str, Value)]) -> Result<Dialect, String> {
    let mut v = serde_json::to_value(dialect).map_err(|e| e.to_string())?;
    for (pointer, value) in changes {
        let mut at = &mut v;
        for key in pointer.split('/').skip(1) {
            at = at
                .as_object_mut()
                .ok_or(format!("{pointer}: not an object at {key}"))?
                .entry(key)
                .or_insert(json!({}));
        }
        *at = value.clone();
    }
    serde_json::from_value(v).map_err(|e| format!("dialect changes {changes:?}: {e}"))
}

/// What the answer must be (`media`: its media items' MIME types and base64 data).
fn check(e: &Expect, text: &str, is_error: bool, media: &[(String, String)]) -> Result<(), String> {
    let mut why = Vec::new();
    if let Some(t) = &e.media_type {
        if media.first().map(|m| &m.0) != Some(t) {
            why.push(format!(
                "media type {t} expected, got {:?}",
                media.first().map(|m| &m.0)
            ));
        }
    }
    if let Some(want) = &e.inline_data {
        let found = media.iter().any(|(mime, data)| {
            want.get("mimeType").is_none_or(|m| m == mime)
                && want.get("data").is_none_or(|d| d == data)
        });
        if !found {
            let got: Vec<(&str, usize)> = media.iter().map(|m| (m.0.as_str(), m.1.len())).collect();
            why.push(format!(
                "no media item {want}; got (type, base64 length) {got:?}"
            ));
        }
    }
    if is_error != e.is_error {
        why.push(format!("is_error {is_error}, expected {}", e.is_error));
    }
    if let Some(t) = &e.text {
        if text != t {
            why.push(format!(
                "text differs:\n  got:      {text:?}\n  expected: {t:?}"
            ));
        }
    }
    if let Some(lines) = &e.lines {
        let got: Vec<&str> = text.split('\n').collect();
        if got != *lines {
            why.push(format!("lines differ: got {got:?}"));
        }
    }
    for c in &e.contains {
        if !text.contains(c.as_str()) {
            why.push(format!("does not contain {c:?}: {text:?}"));
        }
    }
    for c in &e.not_contains {
        if text.contains(c.as_str()) {
            why.push(format!("contains {c:?}"));
        }
    }
    if let Some(p) = &e.starts_with {
        if !text.starts_with(p.as_str()) {
            why.push(format!("does not start with {p:?}: {text:?}"));
        }
    }
    if let Some(sub) = &e.json_subset {
        match serde_json::from_str::<Value>(text) {
            Ok(v) if subset(sub, &v) => {}
            _ => why.push(format!("JSON does not contain {sub}: {text}")),
        }
    }
    if why.is_empty() {
        Ok(())
    } else {
        Err(why.join("; "))
    }
}

fn subset(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|x| subset(v, x))),
        _ => want == got,
    }
}

/// The text of an answer as the model reads it: its blocks joined.
fn answer_text(r: &ToolResponse) -> String {
    match &r.notes {
        Some(n) => format!("{}\n{n}", r.text),
        None => r.text.clone(),
    }
}

/// What happened to one case.
enum Outcome {
    Pass,
    Fail(String),
    Skip(String),
}

/// A case made ready to run: its files written under a fresh root, its setup applied,
/// the call with `{root}` filled in (and `tool` taken out), and the tool's dialect.
struct Prepared {
    _dir: tempfile::TempDir,
    root_text: String,
    setup: Setup,
    call: Map<String, Value>,
    dialect: Dialect,
}

fn prepare(peer: &str, case: &Case) -> Result<Prepared, String> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    materialize(&root, &case.files);
    let setup = setup(peer, case, &root)?;
    let root_text = root.to_string_lossy().into_owned();
    let mut call = match with_root(&Value::Object(case.call.clone()), &root_text) {
        Value::Object(m) => m,
        _ => unreachable!(),
    };
    let dialect = dialect_for(peer, &call).and_then(|d| changed(d, &setup.dialect))?;
    call.remove("tool");
    Ok(Prepared {
        _dir: dir,
        root_text,
        setup,
        call,
        dialect,
    })
}

/// Runs one case through the library.
fn run_library(peer: &str, case: &Case) -> Outcome {
    if let Some(n) = case.needs.as_deref().filter(|n| !needs_met(Some(n))) {
        return Outcome::Skip(format!("needs {n}"));
    }
    let Prepared {
        _dir,
        root_text,
        setup: s,
        call,
        dialect,
    } = match prepare(peer, case) {
        Ok(p) => p,
        Err(e) => return Outcome::Fail(e),
    };
    let tool = s.tool(dialect);
    let r = tool.respond(Value::Object(call));
    let expect = expect_at(&case.expect, &root_text);
    let media: Vec<(String, String)> = r
        .media
        .iter()
        .map(|m| (m.mime_type.clone(), m.data.clone()))
        .collect();
    match check(&expect, &answer_text(&r), r.is_error, &media) {
        Ok(()) => Outcome::Pass,
        Err(e) => Outcome::Fail(e),
    }
}

/// The expectation with `{root}` filled in.
fn expect_at(e: &Expect, root: &str) -> Expect {
    serde_json::from_value(with_root(&serde_json::to_value(e).unwrap(), root)).unwrap()
}

/// Runs one case through `rangeread-mcp --preset PEER` over raw JSON-RPC on stdio.
fn run_server(server: &Path, peer: &str, case: &Case) -> Outcome {
    // The server is built with its default features: both document readers.
    let met = |n: &str| matches!(n, "images" | "pdf") || needs_met(Some(n));
    if let Some(n) = case.needs.as_deref().filter(|n| !met(n)) {
        return Outcome::Skip(format!("needs {n}"));
    }
    let Prepared {
        _dir,
        root_text,
        setup: s,
        call,
        dialect,
    } = match prepare(peer, case) {
        Ok(p) => p,
        Err(e) => return Outcome::Fail(e),
    };
    let mut cmd = Command::new(server);
    // A changed dialect is served from a file of its own, outside the workspace.
    let dialect_dir = tempfile::tempdir().unwrap();
    if s.dialect.is_empty() {
        cmd.arg("--preset").arg(peer);
    } else {
        let file = dialect_dir.path().join("dialect.json");
        fs::write(&file, serde_json::to_string(&dialect).unwrap()).unwrap();
        cmd.arg("--dialect").arg(file);
    }
    s.flags(&mut cmd);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut send = |v: Value| {
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "peers", "version": "0"}}}),
    );
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": dialect.name, "arguments": Value::Object(call)}}));
    line.clear();
    out.read_line(&mut line).unwrap();
    drop(stdin);
    let _ = child.wait();
    let v: Value = match serde_json::from_str(&line) {
        Ok(v) => v,
        Err(e) => return Outcome::Fail(format!("not JSON-RPC: {e}: {line}")),
    };
    let result = &v["result"];
    let text = result["content"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    let is_error = result["isError"].as_bool().unwrap_or(false);
    // Images and audio as MCP's own content; other files whole as embedded resources.
    let media: Vec<(String, String)> = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| match i["type"].as_str() {
            Some("image" | "audio") => Some((&i["mimeType"], &i["data"])),
            Some("resource") => Some((&i["resource"]["mimeType"], &i["resource"]["blob"])),
            _ => None,
        })
        .map(|(m, d)| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(m), s(d))
        })
        .collect();
    let expect = expect_at(&case.expect, &root_text);
    match check(&expect, &text, is_error, &media) {
        Ok(()) => Outcome::Pass,
        Err(e) => Outcome::Fail(e),
    }
}

/// The presets' input schemas and descriptions against those the peer publishes: one
/// problem per tool and difference.
fn check_schemas(file: &PeerFile) -> Vec<String> {
    let tools: Vec<(String, &Value, &Value)> = match &file.tool {
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .map(|t| {
                let description = &file.description[t];
                (format!("{}/{t}", file.peer), &file.schema[t], description)
            })
            .collect(),
        // One tool: the peer's preset, or `PEER/TOOL` when the peer serves it beside
        // others (the MCP filesystem server's deprecated `read_file`).
        _ => {
            let name = match (Dialect::preset(&file.peer), file.tool.as_str()) {
                (Err(_), Some(t)) => format!("{}/{t}", file.peer),
                _ => file.peer.clone(),
            };
            vec![(name, &file.schema, &file.description)]
        }
    };
    let mut problems = Vec::new();
    for (preset, published, description) in tools {
        if published.is_null() && description.is_null() {
            continue;
        }
        let def = match Dialect::preset(&preset) {
            Ok(d) => DialectTool::new(d).definition(),
            Err(e) => {
                problems.push(format!("{preset}: {e}"));
                continue;
            }
        };
        let ours = Value::Object(def.input_schema);
        if !published.is_null() && ours != *published {
            problems.push(format!(
                "{preset}: the input schema differs from the published one:\n  ours:      {ours}\n  published: {published}"
            ));
        }
        if description.as_str().is_some_and(|d| *d != def.description) {
            problems.push(format!(
                "{preset}: the description differs from the published one"
            ));
        }
    }
    problems
}

/// Runs every case of one peer both ways; fails listing each case that failed (or that
/// passed while listed as pending).
fn run(peer: &str, server: Option<&Path>) {
    let file = peer_file(peer);
    assert_eq!(file.peer, peer);
    let mut counts: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut problems = check_schemas(&file);
    let mut ignored = Vec::new();
    for case in &file.cases {
        let pending = PENDING
            .iter()
            .find(|(p, id, _)| *p == peer && *id == case.id);
        // A test the peer ignores states what the peer's code does not give: the case is
        // what the peer answers.
        let case = &match (&case.peer_ignored, &case.peer_answers) {
            (Some(why), Some(answers)) => {
                ignored.push(format!("{} ({why})", case.id));
                Case {
                    expect: answers.clone(),
                    ..case.clone()
                }
            }
            (Some(_), None) => {
                problems.push(format!(
                    "{peer}/{}: peer_ignored without peer_answers",
                    case.id
                ));
                continue;
            }
            _ => case.clone(),
        };
        let mut ways = vec![("library", run_library(peer, case))];
        if let Some(server) = server {
            ways.push(("server", run_server(server, peer, case)));
        }
        for (way, outcome) in ways {
            let c = counts.entry(way).or_default();
            match (outcome, pending) {
                (Outcome::Pass, None) => c.0 += 1,
                (Outcome::Fail(_), Some(_)) => c.1 += 1,
                (Outcome::Skip(why), _) => {
                    c.2 += 1;
                    eprintln!("skipped {peer}/{} ({way}): {why}", case.id);
                }
                (Outcome::Fail(why), None) => {
                    c.1 += 1;
                    problems.push(format!("{peer}/{} ({way}): {why}", case.id));
                }
                (Outcome::Pass, Some((_, _, why))) => problems.push(format!(
                    "{peer}/{} ({way}) passes: remove it from PENDING ({why})",
                    case.id
                )),
            }
        }
    }
    for (way, (pass, fail, skip)) in &counts {
        eprintln!("{peer} through the {way}: {pass} passed, {fail} failed, {skip} skipped");
    }
    for case in &ignored {
        eprintln!("{peer}: the peer ignores its test {case}; passed as the peer answers");
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Each preset publishes the peer's own name and description (`run` compares the input
/// schemas).
#[test]
fn presets_publish_the_peers_descriptions() {
    for peer in ["gemini", "mcp-filesystem"] {
        let file = peer_file(peer);
        let def = DialectTool::new(dialect_for(peer, &Map::new()).unwrap()).definition();
        assert_eq!(Some(def.name.as_str()), file.tool.as_str(), "{peer}");
        assert_eq!(
            Some(def.description.as_str()),
            file.description.as_str(),
            "{peer}"
        );
    }
}

/// Every peer file in tests/peers has a test here.
#[test]
fn every_peer_file_is_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers");
    let mut peers: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    peers.sort();
    assert_eq!(peers, PEERS);
}

/// Each peer preset's name, description and input schema are the ones the peer
/// publishes (where its JSON gives them): `DialectTool::definition` against the peer
/// file's `schema` and `description`.
#[test]
fn presets_publish_the_peers_schemas() {
    let mut compared = Vec::new();
    for peer in PEERS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/peers/{peer}.json"));
        let file: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        let Ok(dialect) = Dialect::preset(peer) else {
            continue;
        };
        let def = DialectTool::new(dialect).definition();
        if let Some(tool) = file["tool"].as_str() {
            assert_eq!(def.name, tool, "{peer}: name");
        }
        if let Some(schema) = file["schema"].as_object() {
            assert_eq!(&def.input_schema, schema, "{peer}: input schema");
        }
        if let Some(description) = file["description"].as_str() {
            assert_eq!(def.description, description, "{peer}: description");
        }
        compared.push(*peer);
    }
    for peer in ["claude-code", "crush", "goose", "zed"] {
        assert!(compared.contains(&peer), "{peer} has no preset");
    }
}

const PEERS: &[&str] = &[
    "claude-code",
    "codex",
    "crush",
    "forge",
    "gemini",
    "goose",
    "mcp-filesystem",
    "openhands",
    "openhands-tools",
    "rust-mcp-filesystem",
    "zed",
];

macro_rules! peer_tests {
    ($($name:ident => $peer:expr),* $(,)?) => {$(
        #[test]
        fn $name() {
            let server = common::mcp_server_binary();
            run($peer, Some(&server));
        }
    )*};
}

peer_tests! {
    claude_code => "claude-code",
    codex => "codex",
    forge => "forge",
    gemini => "gemini",
    mcp_filesystem => "mcp-filesystem",
    openhands => "openhands",
    openhands_tools => "openhands-tools",
    crush => "crush",
    goose => "goose",
    rust_mcp_filesystem => "rust-mcp-filesystem",
    zed => "zed",
}
