//! Renderers: turning a [`ReadResult`] into what a model or a terminal sees.
//!
//! `plain` writes the exact bytes; the numbered styles, `markdown` and `frontmatter` add
//! line numbers, markers for cut lines and the notes (omitted summary, continuation);
//! `json` serializes the result.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::result::{CutLine, ReadResult};

/// An output format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The exact bytes of the selection, nothing else.
    #[default]
    Plain,
    /// `12: text` per line.
    Colon,
    /// `cat -n` style: the number right-aligned in 6 columns, a tab, the text.
    CatN,
    /// Codex style: `L12: text`.
    Codex,
    /// `# File: PATH (Lines 10-20)`, a fenced block tagged with the language, notes.
    Markdown,
    /// A `---` header with `path`, `range`, `total`, `unit`, then the content.
    Frontmatter,
    /// The whole result as one JSON object.
    Json,
}

impl Format {
    /// Whether the format shows line numbers or totals (and so pays for counting).
    pub fn needs_line_numbers(self) -> bool {
        !matches!(self, Format::Plain)
    }
}

impl FromStr for Format {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "plain" => Format::Plain,
            "colon" => Format::Colon,
            "cat-n" => Format::CatN,
            "codex" => Format::Codex,
            "markdown" => Format::Markdown,
            "frontmatter" => Format::Frontmatter,
            "json" => Format::Json,
            _ => {
                return Err(Error::selection(format!(
                    "Invalid format {s:?}: expected plain, colon, cat-n, codex, markdown, frontmatter or json"
                )))
            }
        })
    }
}

/// Renders a result into a string (the `plain` format gives `content`, which holds U+FFFD
/// where the file had invalid UTF-8; [`render_to`] writes the exact bytes instead).
///
/// # Example
///
/// ```
/// use rangeread::{render, Format, LineSelection, Reader, Source};
///
/// let doc_src = Source::from_bytes(b"fn main() {\n    run();\n}\n".to_vec(), "main.rs");
/// let result = Reader::new().document(doc_src).read(LineSelection::from(2..=3))?;
/// // Numbered formats end with the notes: here, what was left out above the read.
/// let note = "[Line 1 omitted (1 line, 12 B). Structure there: fn main() { (l.1).]\n";
/// assert_eq!(render(&result, Format::Colon), format!("2:     run();\n3: }}\n{note}"));
/// assert_eq!(render(&result, Format::Codex), format!("L2:     run();\nL3: }}\n{note}"));
/// # Ok::<(), rangeread::Error>(())
/// ```
pub fn render(result: &ReadResult, format: Format) -> String {
    render_with(result, format, &RenderOptions::default())
}

/// The marker a cut line gets by default: `{more}` is the bytes left out.
pub const DEFAULT_CUT_MARKER: &str = "… [line truncated: {more} more bytes]";

/// The words the renderers add that a host may want in its own voice.
///
/// A preset names the same in its data (`output.cut_marker` of a
/// [`Dialect`](crate::tool::Dialect)); this is the form for a host that reads with
/// [`Reader`](crate::Reader) and renders with [`render_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenderOptions {
    /// What follows a line the line-length budget cut, in the numbered, markdown and
    /// frontmatter formats: `{more}` is replaced by the bytes left out, `{next}` by the
    /// file offset the rest starts at (a byte selection away), `{line}` by the line's
    /// number. By default [`DEFAULT_CUT_MARKER`]; empty for no marker.
    pub cut_marker: String,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            cut_marker: DEFAULT_CUT_MARKER.to_string(),
        }
    }
}

impl RenderOptions {
    /// These options with another cut marker (see [`RenderOptions::cut_marker`]).
    ///
    /// # Example
    ///
    /// ```
    /// use rangeread::{render_with, Format, LineSelection, Reader, RenderOptions, Source};
    ///
    /// let src = Source::from_bytes(b"short\nabcdefghij\n".to_vec(), "a.txt");
    /// let r = Reader::new().max_line_chars(5).document(src).read(LineSelection::from(1..))?;
    /// // Gemini CLI's marker for a cut line.
    /// let gemini = RenderOptions::default().cut_marker("... [truncated]");
    /// let text = render_with(&r, Format::Colon, &gemini);
    /// assert_eq!(text.lines().nth(1), Some("2: abcde... [truncated]"));
    /// let rest = RenderOptions::default().cut_marker(" [{more} more bytes from byte {next}]");
    /// let text = render_with(&r, Format::Colon, &rest);
    /// assert_eq!(text.lines().nth(1), Some("2: abcde [5 more bytes from byte 11]"));
    /// // The notes after the lines still say where the rest starts, in the contract's words.
    /// assert_eq!(text.lines().nth(2), Some("[Line 2 cut: 5 of 10 bytes shown; read the rest with start_byte=11]"));
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn cut_marker(mut self, template: impl Into<String>) -> RenderOptions {
        self.cut_marker = template.into();
        self
    }
}

/// [`render`] with the host's words ([`RenderOptions`]).
pub fn render_with(result: &ReadResult, format: Format, options: &RenderOptions) -> String {
    if format == Format::Plain {
        return result.content.clone();
    }
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = render_to_with(&mut out, result, format, options);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes a rendering of `result` to `w`; `plain` writes the exact bytes of the file.
///
/// # Errors
///
/// Whatever writing to `w` returns.
pub fn render_to(w: &mut impl Write, result: &ReadResult, format: Format) -> io::Result<()> {
    render_to_with(w, result, format, &RenderOptions::default())
}

/// [`render_to`] with the host's words ([`RenderOptions`]).
///
/// # Errors
///
/// Whatever writing to `w` returns.
pub fn render_to_with(
    w: &mut impl Write,
    result: &ReadResult,
    format: Format,
    options: &RenderOptions,
) -> io::Result<()> {
    let marker = options.cut_marker.as_str();
    match format {
        Format::Plain => w.write_all(result.raw_bytes()),
        Format::Json => {
            serde_json::to_writer(&mut *w, result).map_err(io::Error::other)?;
            w.write_all(b"\n")
        }
        Format::Colon | Format::CatN | Format::Codex => {
            write_numbered(w, result, format, marker)?;
            write_notes(w, result)
        }
        Format::Markdown => {
            let range = match (result.requested.bytes, result.lines) {
                (Some(_), _) => format!(" (Bytes {}-{})", result.bytes.start, result.bytes.end),
                (None, Some(l)) if result.is_partial => format!(" (Lines {}-{})", l.start, l.end),
                _ => String::new(),
            };
            writeln!(w, "# File: {}{}", result.path, range)?;
            let fence = fence_for(&result.content);
            writeln!(
                w,
                "{fence}{}",
                crate::syntax::language_for(Path::new(&result.path)).unwrap_or("")
            )?;
            write_lines(w, result, marker, |_, _| Ok(()))?;
            writeln!(w, "{fence}")?;
            write_notes(w, result)
        }
        Format::Frontmatter => {
            writeln!(w, "---")?;
            writeln!(w, "path: {}", result.path)?;
            match (result.requested.bytes, result.lines) {
                (None, Some(l)) => {
                    writeln!(w, "range: {}-{}", l.start, l.end)?;
                    match result.total_lines {
                        Some(t) => writeln!(w, "total: {t}")?,
                        None => writeln!(w, "total: unknown")?,
                    }
                    writeln!(w, "unit: lines")?;
                }
                _ => {
                    writeln!(w, "range: {}-{}", result.bytes.start, result.bytes.end)?;
                    writeln!(w, "total: {}", result.file_size)?;
                    writeln!(w, "unit: bytes")?;
                }
            }
            writeln!(w, "---")?;
            write_lines(w, result, marker, |_, _| Ok(()))?;
            write_notes(w, result)
        }
    }
}

/// Writes each line of `content` (without its terminator), with `prefix` before it, the
/// cut marker after it where the line was cut, and a newline.
fn write_lines<W: Write>(
    w: &mut W,
    result: &ReadResult,
    marker: &str,
    mut prefix: impl FnMut(&mut W, Option<u64>) -> io::Result<()>,
) -> io::Result<()> {
    let cuts: HashMap<u64, &CutLine> = result.cut_lines.iter().map(|c| (c.line, c)).collect();
    let first = result.lines.map(|l| l.start);
    for (i, (line, _)) in crate::text::split_lines(&result.content).enumerate() {
        let number = first.map(|f| f + i as u64);
        prefix(w, number)?;
        w.write_all(line.as_bytes())?;
        if let Some(c) = number.and_then(|n| cuts.get(&n)) {
            let more = (c.total_bytes - c.shown_bytes).to_string();
            let text = marker
                .replace("{more}", &more)
                .replace("{next}", &c.next_start_byte.to_string())
                .replace("{line}", &c.line.to_string());
            w.write_all(text.as_bytes())?;
        }
        w.write_all(b"\n")?;
    }
    Ok(())
}

fn write_numbered<W: Write>(
    w: &mut W,
    result: &ReadResult,
    format: Format,
    marker: &str,
) -> io::Result<()> {
    write_lines(w, result, marker, |w, n| match (format, n) {
        (Format::CatN, Some(n)) => write!(w, "{n:>6}\t"),
        (Format::CatN, None) => write!(w, "{:>6}\t", ""),
        (Format::Codex, Some(n)) => write!(w, "L{n}: "),
        (Format::Codex, None) => write!(w, "L?: "),
        (_, Some(n)) => write!(w, "{n}: "),
        (_, None) => write!(w, "?: "),
    })
}

/// The note lines under a rendering: what was omitted, which lines were cut by the
/// line-length budget and where the rest of each starts, and where to continue.
///
/// A host that shows `content` as it is (the `plain` format) must show these notes too,
/// or the cut lines are lost silently: `content` never holds a marker.
///
/// # Example
///
/// ```
/// use rangeread::{notes, LineSelection, Reader, Source};
///
/// let long = format!("short\n{}\n", "x".repeat(50));
/// let r = Reader::new()
///     .max_line_chars(10)
///     .document(Source::from_bytes(long.into_bytes(), "a.txt"))
///     .read(LineSelection::from(1..))?;
/// assert_eq!(notes(&r), ["[Line 2 cut: 10 of 50 bytes shown; read the rest with start_byte=16]"]);
/// # Ok::<(), rangeread::Error>(())
/// ```
pub fn notes(result: &ReadResult) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(o) = &result.omitted {
        if !o.summary.is_empty() {
            out.push(format!("[{}]", o.summary));
        }
    }
    out.extend(cut_notes(&result.cut_lines, ""));
    if let Some(t) = &result.truncated {
        let of = |unit: &str| match (unit, result.total_lines) {
            ("lines", Some(n)) => format!(" of {n}"),
            ("lines", None) => String::new(),
            _ => format!(" of {}", result.file_size),
        };
        out.push(match (t.next_start_line, result.lines) {
            (Some(next), Some(l)) if result.requested.bytes.is_none() => format!(
                "[... truncated, showing lines {}-{}{}; continue with start_line={next}]",
                l.start,
                l.end,
                of("lines")
            ),
            _ => format!(
                "[... truncated, showing bytes {}-{}{}; continue with start_byte={}]",
                result.bytes.start,
                result.bytes.end,
                of("bytes"),
                t.next_start_byte
            ),
        });
    }
    out
}

/// How many cut lines the notes name one by one; the rest are counted.
pub(crate) const MAX_CUT_NOTES: usize = 5;

/// One note per line cut by the line-length budget (the first [`MAX_CUT_NOTES`], then a
/// count, followed by `more`), saying where the rest of each starts.
pub(crate) fn cut_notes(cuts: &[CutLine], more: &str) -> Vec<String> {
    let mut out: Vec<String> = cuts
        .iter()
        .take(MAX_CUT_NOTES)
        .map(|c| {
            format!(
                "[Line {} cut: {} of {} bytes shown; read the rest with start_byte={}]",
                c.line, c.shown_bytes, c.total_bytes, c.next_start_byte
            )
        })
        .collect();
    if cuts.len() > MAX_CUT_NOTES {
        out.push(format!(
            "[{} more lines cut at the line-length budget{more}]",
            cuts.len() - MAX_CUT_NOTES
        ));
    }
    out
}

fn write_notes(w: &mut impl Write, result: &ReadResult) -> io::Result<()> {
    for n in notes(result) {
        writeln!(w, "{n}")?;
    }
    Ok(())
}

fn fence_for(content: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in content.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}
