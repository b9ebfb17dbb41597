//! `read`: print a part of a file, the way an agent tool would get it.
//!
//! ```text
//! cargo run --release --example read -- [SELECTION] [OPTIONS] PATH
//!   selection: --lines RANGE | --bytes A:B | --offset N [--limit M] | --head N | --tail N
//!              | --around LINE [--context N] | --block LINE | --outline
//!   options:   --format plain|colon|cat-n|codex|markdown|frontmatter|json
//!              --max-lines N --max-bytes N --max-line-chars N (0 = no limit)
//!              --snap char|line --strict-utf8 --root DIR --protect GLOB --mmap
//!              --case-insensitive --index-dir DIR
//!              --no-summaries --max-landmarks N --landmark-window BYTES
//!   documents: --pages SPEC --cells SPEC --crop X,Y,W,H --image-policy NAME
//!              --image-out FILE
//!              -h, --help
//! ```
//!
//! Images (PNG, JPEG, GIF, WebP), PDFs and notebooks (`*.ipynb`) are read as documents
//! (see `rangeread::DocumentRead`): `--pages 3` / `2-9` / `10-` selects PDF pages,
//! `--cells 0-4` or `--cells ID` notebook cells (numbered from 0), `--crop` a region of
//! an image in its original pixels, `--image-policy anthropic|claude-code|openai|gemini|none`
//! the limits images are fitted to. An image read prints its sizes, scale and token
//! estimate; `--image-out FILE` writes the bytes that would be sent (for a notebook, the
//! images of its outputs: FILE, then FILE-1, FILE-2 ...). `--format json` prints the
//! result as JSON. PDFs need the `pdf` feature, downscaling the `images` feature.
//!
//! Arguments are read as `OsString`s ([lexopt]): any path works, UTF-8 or not.
//!
//! `--root DIR` confines PATH to DIR (relative paths resolve against it; `..`, absolute
//! paths outside it and links that leave it are refused; race-free on Linux), and each
//! `--protect GLOB` (gitignore syntax) refuses matching paths; `--protect` alone
//! confines to the current directory. `--mmap` cannot be combined with them.
//! `--case-insensitive` matches `--protect` patterns ignoring Unicode case and NFC/NFD
//! spelling, for roots on case-folding file systems.
//!
//! PATH (or `--root`) may be an object in object storage, `s3://bucket/key` (also
//! `gs://`, `az://`, `http(s)://`), when the example is built with the `object-store`
//! feature; credentials and endpoint come from the usual environment variables
//! (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT_URL`, ...).
//! `--root s3://bucket/prefix` confines PATH to the prefix. `--object-stats` prints the
//! requests and bytes the read cost on stderr.
//!
//! `--around LINE` shows `--context N` lines (default 10) on each side of LINE;
//! `--block LINE` the innermost definition (or indentation block) around LINE;
//! `--outline` lists the landmarks of the whole file (`LINE: text`, or JSON); with
//! `--members`, also the fields and variants of types, indented under their type.
//! `--no-summaries` skips the landmark search of partial reads (the benchmark's "off").
//!
//! `--index-dir DIR` keeps line indexes of large files in DIR (created when missing, at
//! most 256 MiB), so that the next run reading deep lines of the same unchanged file loads
//! the index instead of counting lines (see `docs/persistent-index.md`), and what a read
//! of a PDF learned (its cross-reference data, pages, outline, the text of the pages read),
//! so that the next run reading the same PDF starts there. A DIR that cannot be created is
//! reported on stderr and the read goes on without it.
//!
//! Exit status 0 on success; on error 1, `error: MESSAGE` on stderr, and with
//! `--format json` also `{"error": MESSAGE, "kind": KIND}` on stdout.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use lexopt::prelude::*;
use rangeread::images::{Crop, ImagePolicy, ImageRequest};
use rangeread::{
    notes, render_to, ByteSelection, DocumentRead, DocumentRequest, Error, Format, IndexCache,
    LineSelection, Outline, OutlineDetail, ReadResult, Reader, Selection, Snap, Source, Totals,
    Utf8Policy, Workspace,
};

/// Lines shown on each side of `--around LINE` without `--context`.
const DEFAULT_CONTEXT: u64 = 10;

/// The most bytes of stored indexes `--index-dir` keeps (256 MiB: the indexes of 2 TiB
/// of files).
const INDEX_DIR_BUDGET: u64 = 256 << 20;

/// The in-memory part of the `--index-dir` cache (one process reads one file).
const INDEX_MEMORY: usize = 64 << 20;

struct Args {
    selection: Option<Selection>,
    offset: Option<u64>,
    limit: Option<u64>,
    around: Option<u64>,
    context: Option<u64>,
    outline: bool,
    members: bool,
    snap: Option<Snap>,
    format: Format,
    reader: Reader,
    mmap: bool,
    root: Option<PathBuf>,
    protect: Vec<String>,
    case_insensitive: bool,
    object_stats: bool,
    index_dir: Option<PathBuf>,
    path: Option<PathBuf>,
    document: DocumentRequest,
    crop: Option<Crop>,
    policy: Option<ImagePolicy>,
    image_out: Option<PathBuf>,
    help: bool,
}

fn usage() -> &'static str {
    "usage: read [SELECTION] [OPTIONS] PATH   (read --help for every flag)"
}

const HELP: &str = "\
read: print a part of a file, the way an agent tool would get it.

usage: read [SELECTION] [OPTIONS] PATH

selection (one of):
  --lines RANGE             lines A:B, A:, :B, A:+N, -N: (the last N), A, or :
  --bytes A:B               bytes A:B, A: or :B (0-indexed, end exclusive)
  --offset N                from line N (1-indexed), with --limit
  --limit M                 at most M lines (from line 1 without --offset)
  --head N                  the first N lines
  --tail N                  the last N lines
  --around LINE             LINE and --context lines on each side
  --context N               lines on each side of --around (default 10)
  --block LINE              the innermost definition or block around LINE
  --outline                 the landmarks of the whole file (LINE: text)
  --members                 with --outline: also the fields and variants of types,
                            indented under their type (an editor's symbol outline)
options:
  --format F                plain|colon|cat-n|codex|markdown|frontmatter|json
  --max-lines N             at most N lines (0 = no limit)
  --max-bytes N             at most N bytes (0 = no limit)
  --max-line-chars N        cut lines longer than N characters (0 = no limit)
  --max-scan-bytes N        count at most N bytes of lines per call (0 = no limit)
  --threads N               threads for a first long count (default: the cores, at most 4)
  --snap char|line          snap --bytes to characters or whole lines
  --strict-utf8             refuse invalid UTF-8 instead of replacing it
  --root DIR                confine PATH to DIR (links that leave it refused)
  --protect GLOB            refuse paths matching GLOB (gitignore syntax; repeatable)
  --case-insensitive        match --protect ignoring Unicode case and NFC/NFD
  --mmap                    read through a memory map (not with --root/--protect)
  --object-stats            print the requests and bytes an object read cost (stderr)
PATH or --root may be s3://bucket/key (also gs://, az://, http(s)://) in a build with
the object-store feature; credentials from AWS_* (GOOGLE_*, AZURE_*) variables.
  --no-summaries            skip the landmark search of partial reads
  --index-dir DIR           keep line indexes of large files (and what PDF reads
                            learned) in DIR for later runs
  --max-landmarks N         at most N landmarks in a summary
  --landmark-window BYTES   how far around a read landmarks are searched
documents (images, PDFs, notebooks):
  --pages SPEC              PDF pages: 3, 2-9 or 10- (from 1)
  --cells SPEC              notebook cells: 3, 0-4, 10- (from 0) or a cell id
  --crop X,Y,W,H            an image region, in the original's pixels
  --image-policy NAME       anthropic (default), claude-code, openai, gemini, none
  --image-out FILE          write the image to send to FILE (else its sizes are printed)
  -h, --help                print this help and exit
exit status 0 on success; on error 1, `error: MESSAGE` on stderr, and with
--format json also {\"error\": MESSAGE, \"kind\": KIND} on stdout.
";

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

/// A parser error (a missing value, an unknown flag, a value that is not UTF-8) in the
/// CLI's own words.
fn parse_error(e: lexopt::Error) -> Error {
    match e {
        lexopt::Error::UnexpectedOption(f) => fail(format!("unknown flag {f}\n{}", usage())),
        lexopt::Error::MissingValue { option: Some(f) } => fail(format!("{f} needs a value")),
        e => fail(e.to_string()),
    }
}

fn parse_args(argv: Vec<OsString>) -> Result<Args, Error> {
    parse(argv).map_err(|e| match e {
        Parse::Lexopt(e) => parse_error(e),
        Parse::Read(e) => e,
    })
}

/// The two kinds of failure while parsing.
enum Parse {
    Lexopt(lexopt::Error),
    Read(Error),
}

impl From<lexopt::Error> for Parse {
    fn from(e: lexopt::Error) -> Parse {
        Parse::Lexopt(e)
    }
}

impl From<Error> for Parse {
    fn from(e: Error) -> Parse {
        Parse::Read(e)
    }
}

fn parse(argv: Vec<OsString>) -> Result<Args, Parse> {
    let mut a = Args {
        selection: None,
        offset: None,
        limit: None,
        around: None,
        context: None,
        outline: false,
        members: false,
        snap: None,
        format: Format::Plain,
        reader: Reader::new(),
        mmap: false,
        root: None,
        protect: Vec::new(),
        case_insensitive: false,
        object_stats: false,
        index_dir: None,
        path: None,
        document: DocumentRequest::new(),
        crop: None,
        policy: None,
        image_out: None,
        help: false,
    };
    let one = |a: &Args, flag: &str| -> Result<(), Error> {
        if a.selection.is_some() || a.offset.is_some() || a.around.is_some() || a.outline {
            return Err(fail(format!("{flag}: only one selection can be given")));
        }
        Ok(())
    };
    let mut p = lexopt::Parser::from_args(argv);
    while let Some(arg) = p.next()? {
        let flag = match &arg {
            Long(f) => format!("--{f}"),
            Short(c) => format!("-{c}"),
            Value(_) => String::new(),
        };
        let text = |p: &mut lexopt::Parser| -> Result<String, Parse> { Ok(p.value()?.string()?) };
        let set = |a: &mut Args, s: Selection| -> Result<(), Parse> {
            one(a, &flag)?;
            a.selection = Some(s);
            Ok(())
        };
        match arg {
            Long("lines") => {
                let v = text(&mut p)?;
                set(&mut a, LineSelection::parse(&v)?.into())?
            }
            Long("bytes") => {
                let v = text(&mut p)?;
                set(&mut a, ByteSelection::parse(&v)?.into())?
            }
            Long("head") => {
                let n = number(&flag, &text(&mut p)?)?;
                set(&mut a, LineSelection::head(n).into())?
            }
            Long("tail") => {
                let n = number(&flag, &text(&mut p)?)?;
                set(&mut a, LineSelection::tail(n).into())?
            }
            Long("offset") => {
                one(&a, &flag)?;
                a.offset = Some(number(&flag, &text(&mut p)?)?)
            }
            Long("around") => {
                one(&a, &flag)?;
                a.around = Some(number(&flag, &text(&mut p)?)?)
            }
            Long("outline") => {
                one(&a, &flag)?;
                a.outline = true
            }
            Long("members") => {
                a.members = true;
                a.reader = a.reader.clone().outline_detail(OutlineDetail::Members)
            }
            Long("context") => a.context = Some(number(&flag, &text(&mut p)?)?),
            Long("block") => {
                let n = number(&flag, &text(&mut p)?)?;
                set(&mut a, LineSelection::block(n).into())?
            }
            Long("no-summaries") => a.reader = a.reader.clone().summaries(false),
            Long("max-landmarks") => {
                a.reader = a
                    .reader
                    .clone()
                    .max_landmarks(number(&flag, &text(&mut p)?)?)
            }
            Long("landmark-window") => {
                a.reader = a
                    .reader
                    .clone()
                    .landmark_window(number(&flag, &text(&mut p)?)?)
            }
            Long("limit") => a.limit = Some(number(&flag, &text(&mut p)?)?),
            Long("format") => a.format = text(&mut p)?.parse()?,
            Long("max-lines") => {
                a.reader = a.reader.clone().max_lines(number(&flag, &text(&mut p)?)?)
            }
            Long("max-bytes") => {
                a.reader = a.reader.clone().max_bytes(number(&flag, &text(&mut p)?)?)
            }
            Long("max-line-chars") => {
                a.reader = a
                    .reader
                    .clone()
                    .max_line_chars(number(&flag, &text(&mut p)?)?)
            }
            Long("threads") => {
                let n = number(&flag, &text(&mut p)?)?;
                a.reader = a.reader.clone().threads(usize::try_from(n).unwrap_or(1))
            }
            Long("max-scan-bytes") => {
                a.reader = a
                    .reader
                    .clone()
                    .max_scan_bytes(number(&flag, &text(&mut p)?)?)
            }
            Long("snap") => a.snap = Some(text(&mut p)?.parse()?),
            Long("strict-utf8") => a.reader = a.reader.clone().utf8_policy(Utf8Policy::Strict),
            Long("mmap") => a.mmap = true,
            Long("root") => a.root = Some(p.value()?.into()),
            Long("protect") => a.protect.push(text(&mut p)?),
            Long("case-insensitive") => a.case_insensitive = true,
            Long("object-stats") => a.object_stats = true,
            Long("index-dir") => a.index_dir = Some(p.value()?.into()),
            Long("pages") => a.document.pages = text(&mut p)?.parse()?,
            Long("cells") => a.document.cells = text(&mut p)?.parse()?,
            Long("crop") => a.crop = Some(text(&mut p)?.parse()?),
            Long("image-policy") => {
                let name = text(&mut p)?;
                a.policy = Some(ImagePolicy::preset(&name).ok_or_else(|| {
                    fail(format!(
                        "--image-policy: unknown policy {name:?} (anthropic, claude-code, \
                         openai, gemini, none)"
                    ))
                })?)
            }
            Long("image-out") => a.image_out = Some(p.value()?.into()),
            Short('h') | Long("help") => a.help = true,
            Value(v) => {
                if a.path.is_some() {
                    return Err(fail(format!("only one PATH can be given\n{}", usage())).into());
                }
                a.path = Some(v.into());
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    if let Some(line) = a.around {
        let context = a.context.unwrap_or(DEFAULT_CONTEXT);
        a.selection = Some(LineSelection::around(line, context).into());
    } else if a.context.is_some() {
        return Err(fail("--context applies to --around only").into());
    }
    if a.members && !a.outline {
        return Err(fail("--members applies to --outline only").into());
    }
    if let Some(offset) = a.offset {
        a.selection = Some(LineSelection::offset_limit(offset, a.limit).into());
    } else if a.limit.is_some() {
        a.selection = Some(LineSelection::offset_limit(1, a.limit).into());
    }
    let mut image = ImageRequest::new(a.policy.clone().unwrap_or_default());
    if let Some(c) = a.crop {
        image = image.crop(c);
    }
    a.document = std::mem::take(&mut a.document).image(image);
    if let Some(snap) = a.snap {
        match a.selection {
            Some(Selection::Bytes(b)) => a.selection = Some(b.snap(snap).into()),
            _ => return Err(fail("--snap applies to --bytes only").into()),
        }
    }
    Ok(a)
}

enum Output {
    Read(Box<ReadResult>),
    Outline(Outline),
    Document(Box<DocumentRead>),
}

/// A document read as the CLI answers it: text results as before, other kinds apart.
fn document(read: DocumentRead) -> Output {
    match read {
        DocumentRead::Text(r) => Output::Read(Box::new(r)),
        other => Output::Document(Box::new(other)),
    }
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
    let mut reader = args.reader.clone().totals(totals);
    if let Some(dir) = &args.index_dir {
        // A cache only saves time: a directory that cannot be made does not fail the read.
        match IndexCache::new(INDEX_MEMORY).with_dir(dir, INDEX_DIR_BUDGET) {
            Ok(cache) => reader = reader.cache(Arc::new(cache)),
            Err(e) => eprintln!("warning: --index-dir: {e}; reading without stored indexes"),
        }
    }
    let url_root = args.root.as_deref().is_some_and(is_url);
    if url_root || is_url(path) {
        if args.mmap {
            return Err(fail("--mmap cannot be combined with an object URL"));
        }
        return read_object(args, &reader, path, selection);
    }
    if args.root.is_some() || !args.protect.is_empty() {
        if args.mmap {
            return Err(fail("--mmap cannot be combined with --root or --protect"));
        }
        let mut workspace = Workspace::builder(args.root.as_deref().unwrap_or(".".as_ref()))
            .protect_all(args.protect.iter().cloned());
        if args.case_insensitive {
            workspace = workspace.case_insensitive(true);
        }
        let workspace = workspace.build()?;
        if args.outline {
            return reader
                .open_in(&workspace, path)?
                .outline()
                .map(Output::Outline);
        }
        let request = args.document.clone().selection(selection);
        return reader
            .read_document_in(&workspace, path, &request)
            .map(document);
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
        let request = args.document.clone().selection(selection);
        reader.read_document(path, &request).map(document)
    }
}

/// Prints a document read (JSON, or its text) and writes its images to `--image-out`.
fn write_document(
    w: &mut impl Write,
    read: &DocumentRead,
    format: Format,
    image_out: Option<&std::path::Path>,
) -> std::io::Result<()> {
    if let Some(out) = image_out {
        for (k, img) in read.images().into_iter().enumerate() {
            let path = if k == 0 {
                out.to_path_buf()
            } else {
                let mut name = out.as_os_str().to_owned();
                name.push(format!("-{k}"));
                PathBuf::from(name)
            };
            std::fs::write(&path, &img.data)?;
            eprintln!(
                "wrote {} ({} bytes, {}, {}x{})",
                path.display(),
                img.bytes,
                img.mime,
                img.sent.width,
                img.sent.height
            );
        }
    }
    if format == Format::Json {
        serde_json::to_writer(&mut *w, read).map_err(std::io::Error::other)?;
        return writeln!(w);
    }
    w.write_all(read.render(format).as_bytes())
}

/// Whether `path` is a URL of an object store (`s3://`, `gs://`, `az://`, `http(s)://`...).
fn is_url(path: &std::path::Path) -> bool {
    path.to_str()
        .and_then(|s| s.split_once("://"))
        .is_some_and(|(scheme, _)| {
            !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+')
        })
}

/// Reads an object: PATH relative to a `--root` URL, or a URL itself (confined to its
/// bucket, so that `--protect` applies to its key).
#[cfg(feature = "object-store")]
fn read_object(
    args: &Args,
    reader: &Reader,
    path: &std::path::Path,
    selection: Selection,
) -> Result<Output, Error> {
    use rangeread::ObjectRoot;
    let (root, rel) = match args.root.as_deref() {
        Some(r) => (r.to_string_lossy().into_owned(), path.to_path_buf()),
        None => {
            let url = path.to_string_lossy();
            let (scheme, rest) = url.split_once("://").unwrap_or_default();
            let bucket = rest.split('/').next().unwrap_or_default();
            // The URL itself is the path: messages name it as given.
            (format!("{scheme}://{bucket}"), path.to_path_buf())
        }
    };
    if args.case_insensitive {
        return Err(fail("--case-insensitive applies to local roots only"));
    }
    let root = ObjectRoot::open(&root)?.protect(args.protect.iter().cloned())?;
    // Through a workspace: with --index-dir, an object the directory knows is opened
    // without a request, and a read of a replaced one is retried from its new version.
    let ws = rangeread::Workspace::object(root);
    let out = if args.outline {
        (reader.open_in(&ws, &rel)).and_then(|mut doc| doc.outline().map(Output::Outline))
    } else {
        (reader.read_in(&ws, &rel, selection)).map(|r| Output::Read(Box::new(r)))
    };
    if let Some(root) = ws.object_root().filter(|_| args.object_stats) {
        let stats = root.stats();
        eprintln!(
            "object-store: {} requests, {} bytes",
            stats.requests, stats.bytes
        );
    }
    out
}

#[cfg(not(feature = "object-store"))]
fn read_object(
    _args: &Args,
    _reader: &Reader,
    path: &std::path::Path,
    _selection: Selection,
) -> Result<Output, Error> {
    Err(fail(format!(
        "{} is an object URL: this build reads local files only; build with \
         `--features object-store` to read object storage",
        path.display()
    )))
}

fn write_outline(
    w: &mut impl Write,
    outline: &Outline,
    format: Format,
    members: bool,
) -> std::io::Result<()> {
    if format == Format::Json {
        serde_json::to_writer(&mut *w, outline).map_err(std::io::Error::other)?;
        return writeln!(w);
    }
    for l in &outline.landmarks {
        // Indented by depth only when members are listed, where the depth tells a field
        // from its struct; a plain outline keeps its `LINE: text` lines.
        let indent = if members {
            "  ".repeat(usize::try_from(l.depth.unwrap_or(0)).unwrap_or(0))
        } else {
            String::new()
        };
        writeln!(w, "{}: {indent}{}", l.line, l.text)?;
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
    let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
    let json = argv.iter().any(|a| a == "--format=json")
        || argv
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == OsStr::new("json"));
    let (mut image_out, mut members) = (None, false);
    let result = parse_args(argv).and_then(|a| {
        if a.help {
            print!("{HELP}");
            return Ok(None);
        }
        image_out = a.image_out.clone();
        members = a.members;
        run(&a).map(|r| Some((a.format, r)))
    });
    let result = match result {
        Ok(None) => return ExitCode::SUCCESS,
        Ok(Some(r)) => Ok(r),
        Err(e) => Err(e),
    };
    match result {
        Ok((format, result)) => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let result = match result {
                Output::Read(r) => *r,
                Output::Document(d) => {
                    let written = write_document(&mut out, &d, format, image_out.as_deref())
                        .and_then(|_| out.flush());
                    return match written {
                        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                            eprintln!("error: {e}");
                            ExitCode::FAILURE
                        }
                        _ => ExitCode::SUCCESS,
                    };
                }
                Output::Outline(o) => {
                    let written =
                        write_outline(&mut out, &o, format, members).and_then(|_| out.flush());
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
