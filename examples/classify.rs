//! `classify`: print how each file is classified, one line per path.
//!
//! ```text
//! cargo run --release --example classify -- PATH...
//! cargo run --release --example classify -- -   # paths from stdin, one a line
//! cargo run --release --example classify -- --help
//! ```
//!
//! Each line is `PATH<TAB>text<TAB>ENCODING[<TAB>MIME]`,
//! `PATH<TAB>binary<TAB>MIME<TAB>REASON`, or `PATH<TAB>error<TAB>MESSAGE`. At most the
//! first 8 KiB of each file are read. Arguments are read as `OsString`s ([lexopt]), so
//! any path works; a path that is not UTF-8 or holds a control character (a tab, a line
//! feed) is printed quoted and escaped (`"caf\xE9"`) so that each line stays one record.
//! Exit status 0 unless a path could not be read (1), 2 for a usage error.

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rangeread::{classify_file, Classification};

const HELP: &str = "\
classify: print how each file is classified, one line per path.

usage: classify PATH...
       classify -          (paths on stdin, one a line)
  -h, --help   print this help and exit
each line: PATH<TAB>text<TAB>ENCODING[<TAB>MIME], PATH<TAB>binary<TAB>MIME<TAB>REASON
or PATH<TAB>error<TAB>MESSAGE; exit status 0, 1 if a path could not be read.
";

/// The paths to classify (`-` reads them from stdin), or `None` for `--help`.
fn parse_args() -> Result<Option<Vec<PathBuf>>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut paths = Vec::new();
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Value(v) => paths.push(PathBuf::from(v)),
            _ => return Err(arg.unexpected()),
        }
    }
    if paths.len() == 1 && paths[0] == Path::new("-") {
        paths = stdin_paths();
    }
    Ok(Some(paths))
}

/// One path a line, as bytes (a name need not be UTF-8).
fn stdin_paths() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for line in std::io::stdin().lock().split(b'\n').map_while(Result::ok) {
        let line = line.strip_suffix(b"\r").unwrap_or(&line).to_vec();
        #[cfg(unix)]
        let name: OsString = std::os::unix::ffi::OsStringExt::from_vec(line);
        #[cfg(not(unix))]
        let name: OsString = String::from_utf8_lossy(&line).into_owned().into();
        out.push(PathBuf::from(name));
    }
    out
}

/// The path as the line shows it: as is when it is plain UTF-8, else quoted and escaped.
fn shown(path: &Path) -> String {
    match path.to_str() {
        Some(s) if !s.chars().any(char::is_control) => s.to_string(),
        _ => format!("{path:?}"),
    }
}

fn main() -> ExitCode {
    let paths = match parse_args() {
        Ok(Some(paths)) => paths,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\nusage: classify PATH... | classify - (paths on stdin)");
            return ExitCode::from(2);
        }
    };
    if paths.is_empty() {
        eprintln!("usage: classify PATH... | classify - (paths on stdin)");
        return ExitCode::from(2);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    for path in paths {
        let name = shown(&path);
        let line = match classify_file(&path) {
            Ok(Classification::Text(t)) => match t.mime {
                Some(m) => format!("{name}\ttext\t{}\t{m}", t.encoding),
                None => format!("{name}\ttext\t{}", t.encoding),
            },
            Ok(Classification::Binary(b)) => format!("{name}\tbinary\t{}\t{}", b.mime, b.reason),
            Err(e) => {
                failed = true;
                format!("{name}\terror\t{e}")
            }
        };
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    let _ = out.flush();
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
