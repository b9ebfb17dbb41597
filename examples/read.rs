//! `read`: print a part of a file, the way an agent tool would get it.
//!
//! ```text
//! cargo run --release --example read -- [SELECTION] [OPTIONS] PATH
//!   selection: --lines SPEC | --bytes A:B | --offset N [--limit M] | --head N | --tail N
//!              | --around LINE [--context N] | --block LINE | --outline
//!   options:   --format plain|colon|cat-n|codex|markdown|frontmatter|json
//!              --max-lines N --max-bytes N --max-line-chars N (0 = no limit)
//!              --snap char|line --strict-utf8 --root DIR --protect GLOB --mmap
//!              --no-summaries --max-landmarks N --landmark-window BYTES
//! ```
//!
//! `--root DIR` confines PATH to DIR (relative paths resolve against it; `..`, absolute
//! paths outside it and links that leave it are refused; race-free on Linux), and each
//! `--protect GLOB` (gitignore syntax) refuses matching paths; `--protect` alone
//! confines to the current directory. `--mmap` cannot be combined with them.
//!
//! `--around LINE` shows `--context N` lines (default 10) on each side of LINE;
//! `--block LINE` the innermost definition (or indentation block) around LINE;
//! `--outline` lists the landmarks of the whole file (`LINE: text`, or JSON).
//! `--no-summaries` skips the landmark search of partial reads (the benchmark's "off").
//!
//! Exit status 0 on success; on error 1, `error: MESSAGE` on stderr, and with
//! `--format json` also `{"error": MESSAGE, "kind": KIND}` on stdout.

use std::io::Write;
use std::process::ExitCode;

use rangeread::{
    notes, render_to, ByteSelection, Error, Format, LineSelection, Outline, ReadResult, Reader,
    Selection, Snap, Source, Totals, Utf8Policy, Workspace,
};

/// Lines shown on each side of `--around LINE` without `--context`.
const DEFAULT_CONTEXT: u64 = 10;

struct Args {
    selection: Option<Selection>,
    offset: Option<u64>,
    limit: Option<u64>,
    around: Option<u64>,
    context: Option<u64>,
    outline: bool,
    snap: Option<Snap>,
    format: Format,
    reader: Reader,
    mmap: bool,
    root: Option<String>,
    protect: Vec<String>,
    path: Option<String>,
}

fn usage() -> &'static str {
    "usage: read [--lines SPEC | --bytes A:B | --offset N [--limit M] | --head N | --tail N \
     | --around LINE [--context N] | --block LINE | --outline] \
     [--format plain|colon|cat-n|codex|markdown|frontmatter|json] [--max-lines N] \
     [--max-bytes N] [--max-line-chars N] [--snap char|line] [--strict-utf8] \
     [--root DIR] [--protect GLOB]... [--mmap] \
     [--no-summaries] [--max-landmarks N] [--landmark-window BYTES] PATH"
}

/// The CLI's own usage errors travel as selection errors: same exit code and JSON shape.
fn fail(message: impl Into<String>) -> Error {
    Error::InvalidSelection {
        message: message.into(),
    }
}

fn number(flag: &str, v: &str) -> Result<u64, Error> {
    v.parse()
        .map_err(|_| fail(format!("{flag} expects a non-negative integer, got {v:?}")))
}

fn parse_args(argv: Vec<String>) -> Result<Args, Error> {
    let mut a = Args {
        selection: None,
        offset: None,
        limit: None,
        around: None,
        context: None,
        outline: false,
        snap: None,
        format: Format::Plain,
        reader: Reader::new(),
        mmap: false,
        root: None,
        protect: Vec::new(),
        path: None,
    };
    let mut it = argv.into_iter();
    let set = |a: &mut Args, s: Selection, flag: &str| -> Result<(), Error> {
        if a.selection.is_some() || a.offset.is_some() || a.around.is_some() || a.outline {
            return Err(fail(format!("{flag}: only one selection can be given")));
        }
        a.selection = Some(s);
        Ok(())
    };
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
        match flag.as_str() {
            "--lines" => {
                let v = value()?;
                set(&mut a, LineSelection::parse(&v)?.into(), "--lines")?
            }
            "--bytes" => {
                let v = value()?;
                set(&mut a, ByteSelection::parse(&v)?.into(), "--bytes")?
            }
            "--head" => {
                let n = number("--head", &value()?)?;
                set(&mut a, LineSelection::Head(n).into(), "--head")?
            }
            "--tail" => {
                let n = number("--tail", &value()?)?;
                set(&mut a, LineSelection::Tail(n).into(), "--tail")?
            }
            "--offset" | "--around" | "--outline" => {
                if a.selection.is_some() || a.offset.is_some() || a.around.is_some() || a.outline {
                    return Err(fail(format!("{flag}: only one selection can be given")));
                }
                match flag.as_str() {
                    "--offset" => a.offset = Some(number(&flag, &value()?)?),
                    "--around" => a.around = Some(number(&flag, &value()?)?),
                    _ => a.outline = true,
                }
            }
            "--context" => a.context = Some(number("--context", &value()?)?),
            "--block" => {
                let n = number("--block", &value()?)?;
                set(&mut a, LineSelection::block(n).into(), "--block")?
            }
            "--no-summaries" => a.reader = a.reader.clone().summaries(false),
            "--max-landmarks" => {
                a.reader = a.reader.clone().max_landmarks(number(&flag, &value()?)?)
            }
            "--landmark-window" => {
                a.reader = a.reader.clone().landmark_window(number(&flag, &value()?)?)
            }
            "--limit" => a.limit = Some(number("--limit", &value()?)?),
            "--format" => a.format = value()?.parse()?,
            "--max-lines" => a.reader = a.reader.clone().max_lines(number(&flag, &value()?)?),
            "--max-bytes" => a.reader = a.reader.clone().max_bytes(number(&flag, &value()?)?),
            "--max-line-chars" => {
                a.reader = a.reader.clone().max_line_chars(number(&flag, &value()?)?)
            }
            "--snap" => a.snap = Some(value()?.parse()?),
            "--strict-utf8" => a.reader = a.reader.clone().utf8_policy(Utf8Policy::Strict),
            "--mmap" => a.mmap = true,
            "--root" => a.root = Some(value()?),
            "--protect" => a.protect.push(value()?),
            "-h" | "--help" => return Err(fail(usage())),
            f if f.starts_with("--") => return Err(fail(format!("unknown flag {f}\n{}", usage()))),
            _ => {
                if a.path.is_some() {
                    return Err(fail(format!("only one PATH can be given\n{}", usage())));
                }
                a.path = Some(arg);
            }
        }
    }
    if let Some(line) = a.around {
        let context = a.context.unwrap_or(DEFAULT_CONTEXT);
        a.selection = Some(LineSelection::around(line, context).into());
    } else if a.context.is_some() {
        return Err(fail("--context applies to --around only"));
    }
    if let Some(offset) = a.offset {
        a.selection = Some(LineSelection::offset_limit(offset, a.limit).into());
    } else if a.limit.is_some() {
        a.selection = Some(LineSelection::offset_limit(1, a.limit).into());
    }
    if let Some(snap) = a.snap {
        match a.selection {
            Some(Selection::Bytes(b)) => a.selection = Some(b.snap(snap).into()),
            _ => return Err(fail("--snap applies to --bytes only")),
        }
    }
    Ok(a)
}

enum Output {
    Read(Box<ReadResult>),
    Outline(Outline),
}

fn run(args: &Args) -> Result<Output, Error> {
    let path = args
        .path
        .as_deref()
        .ok_or_else(|| fail(format!("missing PATH\n{}", usage())))?;
    let selection = args.selection.unwrap_or_default();
    let totals = match args.format {
        Format::Plain => Totals::IfKnown,
        Format::Colon | Format::CatN | Format::Codex => Totals::Always,
        _ => Totals::Auto,
    };
    let reader = args.reader.clone().totals(totals);
    if args.root.is_some() || !args.protect.is_empty() {
        if args.mmap {
            return Err(fail("--mmap cannot be combined with --root or --protect"));
        }
        let workspace = Workspace::builder(args.root.as_deref().unwrap_or("."))
            .protect_all(args.protect.iter().cloned())
            .build()?;
        if args.outline {
            return reader
                .open_in(&workspace, path)?
                .outline()
                .map(Output::Outline);
        }
        return reader
            .read_in(&workspace, path, selection)
            .map(|r| Output::Read(Box::new(r)));
    }
    if args.mmap {
        // SAFETY: a command-line read of a file the user named; the documented hazard
        // (another process truncating the file during the read) is accepted by `--mmap`.
        let src = unsafe { Source::open_mmap(path)? };
        let mut doc = reader.document(src);
        if args.outline {
            return doc.outline().map(Output::Outline);
        }
        doc.read(selection).map(|r| Output::Read(Box::new(r)))
    } else if args.outline {
        reader.open(path)?.outline().map(Output::Outline)
    } else {
        reader
            .read(path, selection)
            .map(|r| Output::Read(Box::new(r)))
    }
}

fn write_outline(w: &mut impl Write, outline: &Outline, format: Format) -> std::io::Result<()> {
    if format == Format::Json {
        serde_json::to_writer(&mut *w, outline).map_err(std::io::Error::other)?;
        return writeln!(w);
    }
    for l in &outline.landmarks {
        writeln!(w, "{}: {}", l.line, l.text)?;
    }
    if !outline.complete {
        writeln!(
            w,
            "[outline incomplete: looked at lines 1-{} ({} of {} bytes)]",
            outline.scanned_lines, outline.scanned_bytes, outline.file_size
        )?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let json = argv.iter().any(|a| a == "--format=json")
        || argv
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json");
    let result = parse_args(argv).and_then(|a| run(&a).map(|r| (a.format, r)));
    match result {
        Ok((format, result)) => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let result = match result {
                Output::Read(r) => *r,
                Output::Outline(o) => {
                    let written = write_outline(&mut out, &o, format).and_then(|_| out.flush());
                    return match written {
                        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                            eprintln!("error: {e}");
                            ExitCode::FAILURE
                        }
                        _ => ExitCode::SUCCESS,
                    };
                }
            };
            let written = render_to(&mut out, &result, format).and_then(|_| out.flush());
            if let Err(e) = written {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
            if format == Format::Plain {
                for note in notes(&result) {
                    eprintln!("{note}");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            if json {
                println!(
                    "{}",
                    serde_json::json!({"error": e.to_string(), "kind": e.kind().as_str()})
                );
            }
            ExitCode::FAILURE
        }
    }
}
