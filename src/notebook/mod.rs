//! Jupyter notebooks (`.ipynb`, nbformat 4) read by cells.
//!
//! **What the caller gets:** a [`NotebookRead`]: the notebook's `language`, its
//! `cell_count`, the selected [`Cell`]s (index, id, type, execution count, source and
//! [`Output`]s), an `outline` of the whole notebook (Markdown headings and code
//! definitions, by cell), and, when the byte budget stopped the read before the last
//! selected cell, `truncated` with the cell to continue from. [`NotebookRead::render`]
//! gives the text a tool returns; images of outputs are in [`Output::image`] to send
//! beside it.
//!
//! Cells are numbered from 0, as in the file's `cells` list (and jq's `.cells[N]`); a
//! cell's `id` is nbformat 4.5's `id`, or `cell-N` for cells written without one. A
//! [`CellSelection`] parses from `"3"`, `"2-9"`, `"10-"` or an id.
//!
//! The file is read in one streaming pass, whatever its size (there is no ceiling):
//! cells outside the selection are skipped without holding their outputs, so memory
//! follows what is returned. One selected cell may hold at most
//! [`NotebookOptions::max_cell_bytes`] of JSON (64 MiB by default); a longer one is an
//! [`Error::DocumentLimit`] that says how to get at it. Each output's text is cut to its
//! head and tail at [`NotebookOptions::max_output_bytes`] (10,000 bytes by default), with
//! the cut counted, never dropped silently; the cells returned stop at the byte budget,
//! by whole cells, always at least one.

mod outputs;
mod parse;

use std::fmt;
use std::rc::Rc;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{escaped, Error, Result};
use crate::images::ImageRequest;
use crate::source::Source;
use crate::stream::SourceStream;

pub use outputs::{Cut, Output};

/// Default of [`NotebookOptions::max_cell_bytes`]: 64 MiB.
pub const DEFAULT_MAX_CELL_BYTES: u64 = 64 << 20;

/// Default of [`NotebookOptions::max_output_bytes`]: 10,000 bytes.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 10_000;

/// Which cells to read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellSelection {
    /// Every cell, from the first, until the byte budget.
    #[default]
    All,
    /// Cells `start..=end` (0-indexed, inclusive; no end: to the last cell).
    Range {
        /// The first cell.
        start: u64,
        /// The last cell.
        end: Option<u64>,
    },
    /// The cell with this id (or `cell-N` for the cell at index N without an id).
    Id(String),
}

impl CellSelection {
    pub(crate) fn by_id(&self) -> bool {
        matches!(self, CellSelection::Id(_))
    }

    /// Whether the cell at `index` is selected whatever its id.
    pub(crate) fn selects_index(&self, index: u64) -> bool {
        match self {
            CellSelection::All => true,
            CellSelection::Range { start, end } => {
                index >= *start && end.is_none_or(|e| index <= e)
            }
            CellSelection::Id(_) => false,
        }
    }

    pub(crate) fn selects(&self, index: u64, id: Option<&str>) -> bool {
        match self {
            CellSelection::Id(want) => match id {
                Some(id) => id == want,
                None => *want == format!("cell-{index}"),
            },
            _ => self.selects_index(index),
        }
    }
}

impl FromStr for CellSelection {
    type Err = Error;

    /// `"3"`, `"2-9"`, `"10-"` (0-indexed, inclusive), or a cell id.
    fn from_str(s: &str) -> Result<CellSelection> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(CellSelection::All);
        }
        let num = |t: &str| t.trim().parse::<u64>().ok();
        if let Some(n) = num(s) {
            return Ok(CellSelection::Range {
                start: n,
                end: Some(n),
            });
        }
        if let Some((a, b)) = s.split_once('-') {
            if let Some(start) = num(a) {
                if b.trim().is_empty() {
                    return Ok(CellSelection::Range { start, end: None });
                }
                if let Some(end) = num(b) {
                    if end < start {
                        return Err(Error::selection(format!(
                            "Invalid cells \"{s}\": the first cell ({start}) is after the last \
                             ({end}). Cells are numbered from 0; give \"{end}-{start}\"."
                        )));
                    }
                    return Ok(CellSelection::Range {
                        start,
                        end: Some(end),
                    });
                }
            }
        }
        Ok(CellSelection::Id(s.to_string()))
    }
}

impl fmt::Display for CellSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellSelection::All => f.write_str("all"),
            CellSelection::Range { start, end } => crate::select::fmt_span(f, *start, *end),
            CellSelection::Id(id) => f.write_str(id),
        }
    }
}

/// How a notebook is read: limits and the image policy for outputs.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct NotebookOptions {
    /// By default 100 KiB: cells are returned until their rendered text reaches this
    /// many bytes (whole cells, at least one); `0` means no limit.
    pub max_bytes: u64,
    /// By default 10,000 bytes: an output's text (and a cell's source) longer than this
    /// is cut to its head and tail; `0` means no limit.
    pub max_output_bytes: u64,
    /// By default 64 MiB ([`DEFAULT_MAX_CELL_BYTES`]): the most JSON one selected cell
    /// may hold.
    pub max_cell_bytes: u64,
    /// By default 100: the most outline entries.
    pub max_outline: usize,
    /// By default the default [`ImageRequest`] (the Anthropic policy).
    pub images: ImageRequest,
}

impl Default for NotebookOptions {
    fn default() -> Self {
        NotebookOptions {
            max_bytes: 100 * 1024,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            max_cell_bytes: DEFAULT_MAX_CELL_BYTES,
            max_outline: 100,
            images: ImageRequest::default(),
        }
    }
}

/// A cell of a notebook.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// Its place in the notebook, from 0.
    pub index: u64,
    /// Its id (`cell-N` when the file has none).
    pub id: String,
    /// `code`, `markdown` or `raw`.
    pub cell_type: String,
    /// The execution count of a code cell that ran.
    pub execution_count: Option<i64>,
    /// Its source (cut to head and tail when over the output budget; see `source_cut`).
    pub source: String,
    /// What was cut from the source.
    pub source_cut: Option<Cut>,
    /// Its outputs, in order.
    pub outputs: Vec<Output>,
}

/// One line of a notebook's outline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutlineEntry {
    /// The cell it is in.
    pub cell: u64,
    /// The line within the cell's source, from 1.
    pub line: u64,
    /// The heading or definition line, trimmed.
    pub text: String,
}

/// Where to continue a read that the byte budget stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellContinuation {
    /// The first selected cell not returned: ask for `cells` from here.
    pub next_cell: u64,
    /// How many selected cells were not returned.
    pub cells_left: u64,
}

/// A read of a notebook's cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotebookRead {
    /// The path as the caller spelled it.
    pub path: String,
    /// The path as resolved.
    pub resolved_path: String,
    /// The file's size in bytes.
    pub file_size: u64,
    /// The kernel's language (`python` ...), from the notebook's metadata.
    pub language: Option<String>,
    /// `4.5` and the like.
    pub nbformat: Option<String>,
    /// How many cells the notebook has.
    pub cell_count: u64,
    /// The selection, as asked (`all`, `2-9`, an id).
    pub requested: String,
    /// The cells returned.
    pub cells: Vec<Cell>,
    /// Markdown headings and code definitions of every cell, in order (capped).
    pub outline: Vec<OutlineEntry>,
    /// Whether the outline covers every cell (false when capped).
    pub outline_complete: bool,
    /// Set when the byte budget stopped the read before the last selected cell.
    pub truncated: Option<CellContinuation>,
}

/// Reads the cells `selection` of the notebook in `src`.
///
/// # Errors
///
/// [`Error::InvalidDocument`] for JSON that is not a notebook (or an nbformat 3 one);
/// [`Error::DocumentLimit`] for a selected cell over `max_cell_bytes`;
/// [`Error::CellNotFound`] for a selection that names no cell; the source's errors.
pub fn read(
    src: &Source,
    selection: &CellSelection,
    options: &NotebookOptions,
) -> Result<NotebookRead> {
    let path = src.path();
    let state = Rc::new(parse::State {
        pos: 0.into(),
        stop: u64::MAX.into(),
        over: None.into(),
    });
    let mut counted = parse::Counted {
        inner: SourceStream::new(src),
        state: state.clone(),
    };
    let mut out = parse::Collected::default();
    let parsed = {
        // serde_json pulls a byte at a time; std's `BufReader` answers those from its
        // buffer without a call per byte (the allowance is then counted in 64 KiB steps).
        let buffered = std::io::BufReader::with_capacity(64 << 10, &mut counted);
        let mut de = serde_json::Deserializer::from_reader(buffered);
        let seed = parse::NotebookSeed {
            sel: selection,
            out: &mut out,
            state: state.clone(),
            max_cell_bytes: options.max_cell_bytes.max(1),
            outline_budget: crate::DEFAULT_OUTLINE_MAX_BYTES,
        };
        serde::de::DeserializeSeed::deserialize(seed, &mut de).and_then(|()| de.end())
    };
    if let Err(e) = parsed {
        if counted.inner.failed() {
            return Err(counted.inner.error());
        }
        if e.is_io() {
            let cell = state.over.get().unwrap_or(0);
            return Err(Error::DocumentLimit {
                path: path.to_path_buf(),
                message: format!(
                    "Cell {cell} of {} holds more than {} bytes of JSON (max_cell_bytes), more \
                     than a read may hold; read the other cells, or look into this one with \
                     jq: `jq '.cells[{cell}].outputs[0] | keys' {}` then \
                     `jq -r '.cells[{cell}].outputs[0].text' {} | head`.",
                    escaped(path),
                    crate::images::thousands(options.max_cell_bytes),
                    escaped(path),
                    escaped(path)
                ),
            });
        }
        return Err(Error::InvalidDocument {
            path: path.to_path_buf(),
            message: format!(
                "{} is not a valid notebook: {e}. Read it as text (it is JSON) to see what \
                 it holds.",
                escaped(path)
            ),
        });
    }
    src.check_unchanged()?;
    if out.worksheets || out.nbformat.is_some_and(|v| v < 4) {
        return Err(Error::InvalidDocument {
            path: path.to_path_buf(),
            message: format!(
                "{} is an nbformat 3 notebook; this reader reads nbformat 4. Convert it with \
                 `jupyter nbconvert --to notebook --nbformat 4 {}`, or read it as text.",
                escaped(path),
                escaped(path)
            ),
        });
    }
    if out.cells.is_empty() && !matches!(selection, CellSelection::All) {
        return Err(not_found(selection, &out));
    }
    Ok(assemble(src, selection, options, out))
}

fn not_found(selection: &CellSelection, out: &parse::Collected) -> Error {
    let n = out.cell_count;
    let message = match selection {
        CellSelection::Id(id) => {
            format!(
                "No cell has the id \"{id}\" (the notebook has {n} cells). Ask for cells by \
                 index (\"0-{}\"), or read the notebook without a selection to see the ids.",
                n.saturating_sub(1)
            )
        }
        _ => format!(
            "Invalid cells \"{selection}\": the notebook has {n} cells (numbered 0-{}).",
            n.saturating_sub(1)
        ),
    };
    Error::CellNotFound { message }
}

/// Turns what the pass collected into the read: cells rendered and paged, the outline.
fn assemble(
    src: &Source,
    selection: &CellSelection,
    options: &NotebookOptions,
    out: parse::Collected,
) -> NotebookRead {
    let path = src.path().display().to_string();
    let language = out.language.clone();
    let max_text = usize::try_from(options.max_output_bytes).unwrap_or(usize::MAX);
    let selected = out.cells.len() as u64;
    let mut cells = Vec::new();
    let mut used = 0u64;
    let mut truncated = None;
    for (i, raw) in out.cells.into_iter().enumerate() {
        let index = raw.index;
        let cell = cell(raw, max_text, &options.images, &path);
        let cost = render_cell(&cell, language.as_deref()).len() as u64;
        if options.max_bytes > 0 && !cells.is_empty() && used + cost > options.max_bytes {
            truncated = Some(CellContinuation {
                next_cell: index,
                cells_left: selected - i as u64,
            });
            break;
        }
        used += cost;
        cells.push(cell);
    }
    let (outline, outline_complete) =
        outline(&out.sources, language.as_deref(), options.max_outline);
    NotebookRead {
        resolved_path: path.clone(),
        path,
        file_size: src.len(),
        language,
        nbformat: out
            .nbformat
            .map(|v| format!("{v}.{}", out.nbformat_minor.unwrap_or(0))),
        cell_count: out.cell_count,
        requested: selection.to_string(),
        cells,
        outline,
        outline_complete: outline_complete && out.sources_complete,
        truncated,
    }
}

fn cell(raw: parse::RawCell, max_text: usize, images: &ImageRequest, path: &str) -> Cell {
    let index = raw.index;
    let outputs = raw
        .outputs
        .iter()
        .enumerate()
        .map(|(k, v)| {
            outputs::output(
                v,
                max_text,
                images,
                &format!("{path} cell {index} output {k}"),
            )
        })
        .collect();
    let (source, source_cut) = outputs::cut_text(raw.source, max_text);
    Cell {
        index,
        id: raw.id.unwrap_or_else(|| format!("cell-{index}")),
        cell_type: raw.cell_type,
        execution_count: raw.execution_count,
        source,
        source_cut,
        outputs,
    }
}

/// The landmarks of each cell's source: Markdown cells as Markdown, code cells in the
/// notebook's language (through the crate's one outline, [`crate::Document::outline`]).
fn outline(
    sources: &[(u64, String, String)],
    language: Option<&str>,
    max: usize,
) -> (Vec<OutlineEntry>, bool) {
    let ext = match language.unwrap_or("python") {
        "python" | "python3" => "py",
        "r" | "R" => "r",
        "julia" => "jl",
        "javascript" | "typescript" => "js",
        "rust" => "rs",
        "scala" => "scala",
        "c++" | "cpp" | "C++17" | "C++11" => "cpp",
        other => other,
    };
    let reader = crate::Reader::new().max_lines(0).max_bytes(0);
    let mut entries = Vec::new();
    for (index, kind, source) in sources {
        let name = match kind.as_str() {
            "markdown" => "cell.md".to_string(),
            "code" => format!("cell.{ext}"),
            _ => continue,
        };
        let src = Source::from_bytes(source.clone().into_bytes(), name);
        let Ok(found) = reader.document(src).outline() else {
            continue;
        };
        for l in found.landmarks {
            if entries.len() == max {
                return (entries, false);
            }
            entries.push(OutlineEntry {
                cell: *index,
                line: l.line,
                text: l.text,
            });
        }
    }
    (entries, true)
}

/// The text of one cell as [`NotebookRead::render`] writes it.
fn render_cell(cell: &Cell, language: Option<&str>) -> String {
    let mut s = String::new();
    render_cell_into(&mut s, cell, language, &mut Vec::new());
    s
}

/// [`render_cell`] appended to `s`, with where each output image goes (the offset in
/// `s` of its note line).
fn render_cell_into<'a>(
    s: &mut String,
    cell: &'a Cell,
    language: Option<&str>,
    images: &mut Vec<(usize, &'a crate::images::ImageRead)>,
) {
    *s += &format!(
        "--- cell {} [{}] id={}",
        cell.index, cell.cell_type, cell.id
    );
    if let Some(n) = cell.execution_count {
        *s += &format!(" execution_count={n}");
    }
    if cell.cell_type == "code" {
        if let Some(l) = language {
            *s += &format!(" language={l}");
        }
    }
    *s += " ---\n";
    *s += &cell.source;
    if !cell.source.is_empty() && !cell.source.ends_with('\n') {
        s.push('\n');
    }
    for (k, o) in cell.outputs.iter().enumerate() {
        *s += &format!("--- output {k} ({}", o.output_type);
        if let Some(n) = &o.name {
            *s += &format!(" {n}");
        }
        *s += ") ---\n";
        if let Some(t) = &o.text {
            *s += t;
            if !t.ends_with('\n') {
                s.push('\n');
            }
        }
        if let Some(img) = &o.image {
            images.push((s.len(), img));
            *s += &img.note();
            s.push('\n');
        }
        if let Some(e) = &o.image_error {
            *s += &format!("[image not shown: {e}]\n");
        }
        if !o.other_data.is_empty() {
            *s += &format!(
                "[also in this output, not shown: {}]\n",
                o.other_data.join(", ")
            );
        }
    }
}

impl NotebookRead {
    /// The text a tool returns: a header line, the outline when cells were left out,
    /// each cell under a `--- cell N [type] id=... ---` marker with its outputs under
    /// `--- output K (type) ---`, image outputs as their [`crate::images::ImageRead::note`], and a
    /// last line that says where to continue when the budget stopped the read.
    pub fn render(&self) -> String {
        self.render_with_images().0
    }

    /// [`NotebookRead::render`], and the images of the outputs with where each goes in
    /// the text: the byte offset of its note line (send the image there, before it).
    pub fn render_with_images(&self) -> (String, Vec<(usize, &crate::images::ImageRead)>) {
        let mut images = Vec::new();
        let mut s = format!(
            "Notebook {} ({} cells{}{})\n",
            self.path,
            self.cell_count,
            self.language
                .as_deref()
                .map(|l| format!(", {l}"))
                .unwrap_or_default(),
            self.nbformat
                .as_deref()
                .map(|v| format!(", nbformat {v}"))
                .unwrap_or_default()
        );
        let partial = self.truncated.is_some() || (self.cells.len() as u64) < self.cell_count;
        if partial && !self.outline.is_empty() {
            s += "Outline (cell:line):\n";
            for e in &self.outline {
                s += &format!("  {}:{} {}\n", e.cell, e.line, e.text);
            }
            if !self.outline_complete {
                s += "  [... outline capped]\n";
            }
        }
        for c in &self.cells {
            render_cell_into(&mut s, c, self.language.as_deref(), &mut images);
        }
        if let Some(t) = &self.truncated {
            let last = self.cells.last().map_or(0, |c| c.index);
            s += &format!(
                "[... truncated, showing cells {}-{last} of {}; continue with cells=\"{}-\"]\n",
                self.cells.first().map_or(0, |c| c.index),
                self.cell_count,
                t.next_cell
            );
        }
        (s, images)
    }
}
