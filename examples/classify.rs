//! `classify`: print how each file is classified, one line per path.
//!
//! ```text
//! cargo run --release --example classify -- PATH...
//! cargo run --release --example classify -- -   # paths from stdin, one a line
//! ```
//!
//! Each line is `PATH<TAB>text<TAB>ENCODING[<TAB>MIME]`,
//! `PATH<TAB>binary<TAB>MIME<TAB>REASON`, or `PATH<TAB>error<TAB>MESSAGE`. At most the
//! first 8 KiB of each file are read. Exit status 0 unless a path could not be read.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use rangeread::{classify_file, Classification};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let paths: Vec<String> = if args.len() == 1 && args[0] == "-" {
        std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .collect()
    } else {
        args
    };
    if paths.is_empty() {
        eprintln!("usage: classify PATH... | classify - (paths on stdin)");
        return ExitCode::from(2);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    for path in paths {
        let line = match classify_file(&path) {
            Ok(Classification::Text(t)) => match t.mime {
                Some(m) => format!("{path}\ttext\t{}\t{m}", t.encoding),
                None => format!("{path}\ttext\t{}", t.encoding),
            },
            Ok(Classification::Binary(b)) => format!("{path}\tbinary\t{}\t{}", b.mime, b.reason),
            Err(e) => {
                failed = true;
                format!("{path}\terror\t{e}")
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
