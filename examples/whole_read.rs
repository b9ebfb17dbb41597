//! `whole_read`: times `Reader::read` of a whole file with the limits off, in process.
//!
//! ```text
//! cargo run --release --example whole_read -- FILE [READS] [ROUNDS]
//! cargo run --release --example whole_read -- --help
//! ```
//!
//! Reads FILE whole (`max_lines(0)`, `max_bytes(0)`, the line-length budget at its
//! default; the file opened for each read, as a tool call does) READS times a round
//! (default 200), ROUNDS rounds (default 5), and prints the mean time per read of the
//! best round and of each round. Run it under `valgrind --tool=callgrind` with `1 1` and with `21 1` for the
//! instructions per read.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use rangeread::{LineSelection, Reader};

const HELP: &str = "\
whole_read: times Reader::read of a whole file with the limits off, in process.

usage: whole_read FILE [READS] [ROUNDS]
  READS    reads a round (default 200)
  ROUNDS   rounds (default 5)
  -h, --help   print this help and exit
prints the mean time per read of the best round and of each round; exit status 0,
1 if the file could not be read, 2 for a usage error.
";

/// What to time.
struct Args {
    path: PathBuf,
    reads: u32,
    rounds: u32,
}

/// The arguments (as `OsString`s: any path works), or `None` for `--help`.
fn parse_args() -> Result<Option<Args>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut values = Vec::new();
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Value(v) if values.len() < 3 => values.push(v),
            _ => return Err(arg.unexpected()),
        }
    }
    let mut values = values.into_iter();
    let path = PathBuf::from(values.next().ok_or("missing FILE")?);
    let mut count = |default: u32| -> Result<u32, lexopt::Error> {
        values.next().map_or(Ok(default), |v| v.parse())
    };
    let (reads, rounds) = (count(200)?, count(5)?);
    Ok(Some(Args {
        path,
        reads,
        rounds,
    }))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(Some(a)) => a,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\nusage: whole_read FILE [READS] [ROUNDS] (see --help)");
            return ExitCode::from(2);
        }
    };
    match time(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Times the reads; the line to print.
fn time(args: &Args) -> Result<String, rangeread::Error> {
    let reader = Reader::new().max_lines(0).max_bytes(0);
    let mut best = f64::MAX;
    let mut each = Vec::new();
    let mut bytes = 0;
    for _ in 0..args.rounds {
        let t = Instant::now();
        for _ in 0..args.reads {
            let r = reader.read(&args.path, LineSelection::range(None, None))?;
            bytes = r.content.len();
        }
        let per = t.elapsed().as_secs_f64() * 1e3 / f64::from(args.reads.max(1));
        best = best.min(per);
        each.push(format!("{per:.3}"));
    }
    Ok(format!(
        "{bytes} bytes: best {best:.3} ms a read (rounds: {} ms)",
        each.join(", ")
    ))
}
