//! `stress`: readers share one `IndexCache` while a writer appends to, truncates,
//! rewrites, deletes and swaps the files they read.
//!
//! ```text
//! cargo run --release --example stress -- [SECONDS] [READERS]
//! cargo run --release --example stress -- --help
//! ```
//!
//! Every line of every version of every file is `v<version> line <n> <padding>`: a read
//! is consistent when its lines carry one version and their numbers match the line
//! numbers the result reports. One of the files is a JSONL transcript whose records hold
//! those lines as messages; the readers also read its last messages through a session
//! store on the same cache: consistent when the newest message is number
//! `message_count` and the others count down from it, all of one version. The run fails
//! (exit 1) on any inconsistent read, any unexpected error, a panic, or a cache over its
//! memory budget. `tests/cache.rs` runs the same code for a few seconds.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rangeread::sessions::{read_session_messages, JsonlStore, Order, SessionQuery};
use rangeread::{Error, IndexCache, LineSelection, Reader, Selection};

/// The text of line `n` in version `v`.
pub fn line(v: u64, n: u64) -> String {
    format!("v{v} line {n} {}\n", "x".repeat((n * 7 % 23) as usize))
}

/// Line `n` of version `v` of `file`: the text itself, or in a transcript a record
/// whose message is that text.
fn record(file: &Path, v: u64, n: u64) -> String {
    let text = line(v, n);
    if is_transcript(file) {
        format!(
            "{{\"role\":\"user\",\"content\":\"{}\"}}\n",
            text.trim_end()
        )
    } else {
        text
    }
}

fn is_transcript(file: &Path) -> bool {
    file.extension().is_some_and(|e| e == "jsonl")
}

fn version(file: &Path, v: u64, lines: u64) -> String {
    (1..=lines).map(|n| record(file, v, n)).collect()
}

/// The version and number of the last whole line of `text`.
fn last_line(text: &str) -> Option<(u64, u64)> {
    let last = text.lines().last()?;
    let last = last
        .strip_prefix("{\"role\":\"user\",\"content\":\"")
        .unwrap_or(last);
    let mut p = last.split(' ');
    let v = p.next()?.strip_prefix('v')?.parse().ok()?;
    let n = p.nth(1)?.parse().ok()?;
    Some((v, n))
}

/// Checks the newest messages of the transcript against the rule above.
pub fn check_session(r: &rangeread::sessions::SessionMessages) -> Result<(), String> {
    let count = r.message_count.ok_or("no message count")?;
    let Some(first) = r.messages.first() else {
        return if count == 0 {
            Ok(())
        } else {
            Err(format!("no messages but a count of {count}"))
        };
    };
    let v: u64 = first
        .content
        .strip_prefix('v')
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no version in {:?}", first.content))?;
    for (i, m) in r.messages.iter().enumerate() {
        let n = count.checked_sub(i as u64).filter(|&n| n > 0);
        let want = n.map(|n| line(v, n));
        if want.as_deref().map(str::trim_end) != Some(m.content.as_str()) {
            return Err(format!(
                "message {i} from the end of {count} is {:?}, version {v} has {want:?}",
                m.content
            ));
        }
    }
    Ok(())
}

/// Checks one result against the rule above; a file cut inside a line may end with a
/// prefix of that line.
pub fn check(r: &rangeread::ReadResult) -> Result<(), String> {
    let Some(span) = r.lines else { return Ok(()) };
    let v: u64 = r
        .content
        .strip_prefix('v')
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no version in {:?}", r.content.get(..40)))?;
    let mut at = 0;
    for (i, got) in r.content.split_inclusive('\n').enumerate() {
        let want = line(v, span.start + i as u64);
        at += got.len();
        let whole = got == want;
        let cut_tail = at == r.content.len() && !got.ends_with('\n') && want.starts_with(got);
        if !whole && !cut_tail {
            return Err(format!(
                "line {} is {got:?}, version {v} has {want:?}",
                span.start + i as u64
            ));
        }
    }
    Ok(())
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Report {
    pub consistent: u64,
    pub changed: u64,
    pub writes: u64,
    pub max_cache_bytes: usize,
}

/// Runs readers and one writer over `files` files in `dir` for `duration`.
pub fn run(
    dir: &Path,
    duration: Duration,
    readers: usize,
    budget: usize,
) -> Result<Report, String> {
    let mut files: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("f{i}.log"))).collect();
    files.push(dir.join("chat.jsonl"));
    for (i, f) in files.iter().enumerate() {
        std::fs::write(f, version(f, i as u64, 3000)).map_err(|e| e.to_string())?;
    }
    let cache = Arc::new(IndexCache::new(budget));
    let stop = Arc::new(AtomicBool::new(false));
    let writes = Arc::new(AtomicU64::new(0));
    let writer = {
        let (files, stop, writes, dir) = (
            files.clone(),
            stop.clone(),
            writes.clone(),
            dir.to_path_buf(),
        );
        std::thread::spawn(move || -> Result<(), String> {
            let mut v = 10u64;
            while !stop.load(Ordering::Relaxed) {
                let f = &files[(v % 4) as usize];
                let io = |e: std::io::Error| e.to_string();
                match v % 5 {
                    // Rewrite in place with another version.
                    0 => std::fs::write(f, version(f, v, 500 + v * 37 % 4000)).map_err(io)?,
                    // Truncate (possibly inside a line).
                    1 => {
                        if let Ok(h) = std::fs::OpenOptions::new().write(true).open(f) {
                            let len = h.metadata().map_err(io)?.len();
                            h.set_len(len * 2 / 3).map_err(io)?;
                        }
                    }
                    // Append whole lines continuing the file's version and numbering.
                    2 => {
                        let text = std::fs::read_to_string(f).unwrap_or_default();
                        if text.ends_with('\n') {
                            let (lv, ln) = last_line(&text).unwrap_or((0, 0));
                            let more: String =
                                (ln + 1..ln + 300).map(|n| record(f, lv, n)).collect();
                            use std::io::Write;
                            let mut h = std::fs::OpenOptions::new()
                                .append(true)
                                .open(f)
                                .map_err(io)?;
                            h.write_all(more.as_bytes()).map_err(io)?;
                        }
                    }
                    // Delete, then recreate.
                    3 => {
                        let _ = std::fs::remove_file(f);
                        std::thread::sleep(Duration::from_millis(1));
                        std::fs::write(f, version(f, v, 800)).map_err(io)?;
                    }
                    // Swap: write a new version beside it and rename it over.
                    _ => {
                        let tmp = dir.join(format!("swap{v}.tmp"));
                        std::fs::write(&tmp, version(f, v, 1000 + v % 2000)).map_err(io)?;
                        std::fs::rename(&tmp, f).map_err(io)?;
                    }
                }
                writes.fetch_add(1, Ordering::Relaxed);
                v += 1;
            }
            Ok(())
        })
    };
    let deadline = Instant::now() + duration;
    let handles: Vec<_> = (0..readers)
        .map(|t| {
            let (files, cache, dir) = (files.clone(), cache.clone(), dir.to_path_buf());
            std::thread::spawn(move || -> Result<(u64, u64, usize), String> {
                let reader = Reader::new().cache(cache.clone()).retries(1);
                let (dir, tail) = (dir.clone(), SessionQuery::id("chat").order(Order::Newest));
                let store = JsonlStore::open(&dir, Default::default())
                    .map_err(|e| e.to_string())?
                    .cache(cache.clone());
                let (mut ok, mut changed, mut max_bytes) = (0, 0, 0);
                let mut k = t as u64 * 7919;
                while Instant::now() < deadline {
                    k = k
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let f = &files[(k >> 33) as usize % 4];
                    // What was read, checked; or the error.
                    let outcome = if is_transcript(f) {
                        let q = tail.clone().limit(1 + (k >> 40) as usize % 40);
                        read_session_messages(&store, &q).map(|r| check_session(&r))
                    } else {
                        let start = 1 + (k >> 40) % 4000;
                        let sel: Selection = match (k >> 20) % 5 {
                            0 => LineSelection::head(40).into(),
                            1 => LineSelection::tail(40).into(),
                            2 => LineSelection::from(start..=start + 30).into(),
                            3 => LineSelection::offset_limit(start, Some(20)).into(),
                            _ => LineSelection::range(Some(-(1 + (k % 200) as i64)), None).into(),
                        };
                        reader.read(f, sel).map(|r| check(&r))
                    };
                    match outcome {
                        Ok(checked) => {
                            checked?;
                            ok += 1;
                        }
                        Err(
                            Error::Changed { .. }
                            | Error::NotFound { .. }
                            | Error::SessionNotFound { .. }
                            | Error::LineBeyondEnd { .. },
                        ) => changed += 1,
                        Err(e) => return Err(format!("unexpected error: {e}")),
                    }
                    max_bytes = max_bytes.max(cache.memory_bytes());
                }
                Ok((ok, changed, max_bytes))
            })
        })
        .collect();
    let mut report = Report::default();
    let mut failure = None;
    for h in handles {
        match h.join() {
            Ok(Ok((ok, changed, max_bytes))) => {
                report.consistent += ok;
                report.changed += changed;
                report.max_cache_bytes = report.max_cache_bytes.max(max_bytes);
            }
            Ok(Err(e)) => failure = Some(e),
            Err(_) => failure = Some("a reader panicked".to_string()),
        }
    }
    stop.store(true, Ordering::Relaxed);
    match writer.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => failure = Some(format!("writer: {e}")),
        Err(_) => failure = Some("the writer panicked".to_string()),
    }
    report.writes = writes.load(Ordering::Relaxed);
    if report.max_cache_bytes > budget {
        failure = Some(format!(
            "cache used {} bytes over a budget of {budget}",
            report.max_cache_bytes
        ));
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

#[allow(dead_code)]
const HELP: &str = "\
stress: readers share one IndexCache while a writer changes the files they read.

usage: stress [SECONDS] [READERS]
  SECONDS      how long to run (default 10; fractions allowed)
  READERS      how many reader threads (default 8)
  -h, --help   print this help and exit
exit status 0 when every read was consistent, 1 otherwise.
";

/// `(seconds, readers)`, or `None` for `--help`.
fn parse_args() -> Result<Option<(f64, usize)>, lexopt::Error> {
    use lexopt::prelude::*;
    let (mut secs, mut readers) = (10.0, 8);
    let mut positional = 0;
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Value(v) if positional == 0 => {
                secs = v.parse()?;
                positional += 1;
            }
            Value(v) if positional == 1 => {
                readers = v.parse()?;
                positional += 1;
            }
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(Some((secs, readers)))
}

fn main() -> std::process::ExitCode {
    let (secs, readers) = match parse_args() {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{HELP}");
            return std::process::ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\nusage: stress [SECONDS] [READERS]");
            return std::process::ExitCode::FAILURE;
        }
    };
    let dir = std::env::temp_dir().join(format!("rangeread-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let result = run(&dir, Duration::from_secs_f64(secs), readers, 1 << 20);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(r) => {
            println!(
                "ok: {} consistent reads, {} changed/missing, {} writes, cache peak {} bytes",
                r.consistent, r.changed, r.writes, r.max_cache_bytes
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("FAILED: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
