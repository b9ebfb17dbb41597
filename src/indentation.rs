//! `indentation`: the block of lines around an anchor line chosen by indentation alone,
//! by the rules of Codex's `read_file` indentation mode, so that any host can offer it.
//!
//! The rules (Codex CLI, `codex-rs/core/src/tools/handlers/read_file.rs`, described in
//! `docs/dialects-codex.md`):
//!
//! - A line's indentation is the number of spaces and tabs it starts with, a space
//!   counting 1 column and a tab 4 (no tab stops). A blank line (only white space) takes
//!   the indentation of the nearest non-blank line above it (0 at the top of the file):
//!   its *effective* indentation.
//! - The floor is the anchor's effective indentation minus 4 columns per level of
//!   `max_levels` (0 when `max_levels` is 0, "no limit"). Lines are taken outward from
//!   the anchor, one above and one below in turn, while their effective indentation is at
//!   or above the floor, until `cap` lines are taken.
//! - Without siblings, a side stops at its second line *at* the floor: above, the first
//!   one (the header) is taken, and after it only comment lines (`#`, `//`, `--`) when
//!   header comments are on; below, the first one (the closing line) is taken.
//! - Blank lines at both ends of what was taken are dropped; a cap of one line (or a file
//!   of one line) gives the anchor line as it is.
//!
//! The result is always a run of consecutive lines.
//!
//! Cost: the walk looks at lines, not at the file. Above the anchor it reads a window
//! that grows (16 KiB, then four times larger each time) until the walk has what it
//! needs; below, it reads line by line until the walk stops. Each side looks at most
//! `cap` lines and at most `window` bytes; only a few bytes a line are kept. Each line
//! is judged by its first KiB ([`HEAD_CAP`]), decoded to UTF-8 from any encoding.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::lines::{LineRef, Lines};
use crate::syntax::HEAD_CAP;

/// Columns a tab counts for.
const TAB_WIDTH: usize = 4;

/// The line starts that make a line a comment (a header comment above a block).
const COMMENT_PREFIXES: [&str; 3] = ["#", "//", "--"];

/// The first window above the anchor that is read.
const FIRST_WINDOW: u64 = 16 * 1024;

/// The first read below the anchor (then twice as much each time).
const FIRST_READ: u64 = 4 * 1024;

/// Codex's indentation mode as a selection: the lines around `anchor_line` that share its
/// indentation block. Build it with [`IndentSelection::new`] and the setters; read it with
/// [`LineSelection::indentation`](crate::LineSelection::indentation).
///
/// The walk takes at most `max_lines` lines, and never more than the reader's line budget
/// ([`crate::Reader::max_lines`], 2000 by default): Codex takes the smaller of its
/// `max_lines` and its `limit`, and a host that maps Codex's `limit` to the line budget
/// gets Codex's answer. The lines taken are then read like any line selection: over the
/// byte budget the read returns the first part and says where to continue, and lines
/// longer than the line-length budget are cut.
///
/// Each side of the walk looks at most 64 MiB of the file; a block that reaches further
/// is cut there (the result's `requested.lines.end` is then `None`, as it is when the line
/// cap stopped a walk that could have gone on).
///
/// # Example
///
/// ```
/// use rangeread::{IndentSelection, LineSelection, Reader, Source};
///
/// let code = "fn outer() {\n    if cond {\n        inner();\n    }\n    tail();\n}\n";
/// let mut doc = Reader::new().document(Source::from_bytes(code.as_bytes().to_vec(), "a.rs"));
/// let sel = IndentSelection::new(3).max_levels(1);
/// let r = doc.read(LineSelection::indentation(sel))?;
/// assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((2, 4)));
/// assert_eq!(r.content, "    if cond {\n        inner();\n    }\n");
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct IndentSelection {
    /// The line the block is found around, 1-based.
    pub anchor_line: u64,
    /// How many levels (of 4 columns) above the anchor's indentation the block reaches;
    /// 0, the default, means no limit.
    #[serde(default)]
    pub max_levels: u64,
    /// Whether blocks beside the anchor's, at the floor's indentation, are included;
    /// `false` by default.
    #[serde(default)]
    pub include_siblings: bool,
    /// Whether comment lines directly above the block's header are included; `true` by
    /// default.
    #[serde(default = "yes")]
    pub include_header: bool,
    /// The most lines taken; by default (`None`) the line budget is the only cap.
    #[serde(default)]
    pub max_lines: Option<u64>,
}

fn yes() -> bool {
    true
}

impl IndentSelection {
    /// The block around `anchor_line` (1-based) with Codex's defaults: no level limit,
    /// no siblings, header comments included, no cap but the line budget.
    pub fn new(anchor_line: u64) -> IndentSelection {
        IndentSelection {
            anchor_line,
            max_levels: 0,
            include_siblings: false,
            include_header: true,
            max_lines: None,
        }
    }

    /// By default there is no level limit (0): the block reaches as far up as the
    /// sibling rule lets it. With `n`, lines indented less than the anchor's indentation
    /// minus `4 * n` columns end the block.
    pub fn max_levels(mut self, n: u64) -> IndentSelection {
        self.max_levels = n;
        self
    }

    /// By default (`false`) a side stops at its second line at the floor's indentation;
    /// with `true`, the blocks beside the anchor's are taken too.
    pub fn include_siblings(mut self, yes: bool) -> IndentSelection {
        self.include_siblings = yes;
        self
    }

    /// By default (`true`) comment lines at the floor's indentation above the header are
    /// taken; with `false` the block starts at its header.
    pub fn include_header(mut self, yes: bool) -> IndentSelection {
        self.include_header = yes;
        self
    }

    /// By default (`None`) the walk takes at most the line budget's lines; with `n`, at
    /// most `n` (and still at most the budget's).
    pub fn max_lines(mut self, n: u64) -> IndentSelection {
        self.max_lines = Some(n);
        self
    }

    /// What can be checked without the file.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.anchor_line == 0 {
            return Err(Error::ZeroLine {
                field: "anchor_line",
                start: Some(0),
                end: None,
            });
        }
        if self.max_lines == Some(0) {
            return Err(Error::selection("max_lines must be greater than zero"));
        }
        Ok(())
    }
}

/// The lines a walk took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IndentSpan {
    /// First and last line, 1-based and inclusive; `None` when every line taken was
    /// blank.
    pub lines: Option<(u64, u64)>,
    /// The file offset of the first line.
    pub offset: u64,
    /// Whether the walk ended by its rules (not by the line cap or the window).
    pub complete: bool,
}

/// What the walk needs to know of one line.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// File offset of the line's first byte.
    start: u64,
    /// Effective indentation; `None` for a blank line whose non-blank line above was not
    /// read.
    indent: Option<usize>,
    blank: bool,
    comment: bool,
}

/// A line's own indentation, whether it is blank, and whether it is a comment.
fn measure(head: &[u8]) -> (usize, bool, bool) {
    let text = String::from_utf8_lossy(head);
    let indent = text
        .chars()
        .take_while(|c| matches!(c, ' ' | '\t'))
        .map(|c| if c == '\t' { TAB_WIDTH } else { 1 })
        .sum();
    let trimmed = text.trim();
    let comment = COMMENT_PREFIXES.iter().any(|p| trimmed.starts_with(p));
    (indent, trimmed.is_empty(), comment)
}

/// Folds one line into the walk's view: a blank line takes `prev`, the effective
/// indentation of the line above.
fn line(l: &LineRef<'_>, prev: &mut Option<usize>) -> Line {
    let (own, blank, comment) = measure(l.head);
    if !blank {
        *prev = Some(own);
    }
    Line {
        start: l.start,
        indent: *prev,
        blank,
        comment,
    }
}

/// How one side's walk ended.
struct Side {
    /// Lines taken, nearest first: where each starts and whether it is blank.
    taken: Vec<(u64, bool)>,
    /// Whether the side stopped at the cap or the window, not by its rules.
    cut: bool,
}

/// One side's rule: whether the next line (effective indentation `indent`) is taken.
struct Rule {
    floor: usize,
    siblings: bool,
    header: bool,
    up: bool,
    at_floor: u64,
}

impl Rule {
    fn takes(&mut self, indent: usize, comment: bool) -> bool {
        if indent < self.floor {
            return false;
        }
        if indent == self.floor && !self.siblings {
            let ok = if self.up {
                self.at_floor == 0 || (self.header && comment)
            } else {
                self.at_floor == 0
            };
            if !ok {
                return false;
            }
            self.at_floor += 1;
        }
        true
    }
}

/// How far a walk may go.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    /// The most lines taken (at least 1).
    pub cap: u64,
    /// The most bytes each side looks at.
    pub window: u64,
    /// The first window above the anchor that is read (then four times larger each time).
    pub first_window: u64,
    /// The first read below the anchor (then twice as much each time).
    pub first_read: u64,
}

impl Bounds {
    /// At most `cap` lines, each side looking at most `window` bytes.
    pub fn new(cap: u64, window: u64) -> Bounds {
        Bounds {
            cap,
            window,
            first_window: FIRST_WINDOW,
            first_read: FIRST_READ,
        }
    }
}

/// Finds the lines of an indentation block around `sel.anchor_line` (starting at byte
/// `line_off`) within `bounds`.
pub(crate) fn find_indent_block(
    lines: &Lines<'_>,
    sel: &IndentSelection,
    line_off: u64,
    bounds: Bounds,
) -> Result<IndentSpan> {
    let anchor = sel.anchor_line;
    let cap = bounds.cap.max(1);
    let window = bounds.window;
    let text_start = lines.layout.text_start;

    // The anchor line itself, and whether any line follows it.
    let mut anchor_head: Option<(usize, bool)> = None;
    let mut below = false;
    lines.each_from(line_off, bounds.first_read, HEAD_CAP, |l| {
        if anchor_head.is_none() {
            let (own, blank, _) = measure(l.head);
            anchor_head = Some((own, blank));
            return ControlFlow::Continue(());
        }
        below = true;
        ControlFlow::Break(())
    })?;
    let (anchor_own, anchor_blank) = anchor_head.unwrap_or((0, true));
    let above = line_off > text_start;
    if cap == 1 || (!above && !below) {
        return Ok(IndentSpan {
            lines: Some((anchor, anchor)),
            offset: line_off,
            complete: !above && !below,
        });
    }

    // Above: the nearest `cap` lines, in a window grown until the walk has what it needs.
    let rule = |floor: usize, up: bool| Rule {
        floor,
        siblings: sel.include_siblings,
        header: sel.include_header,
        up,
        at_floor: 0,
    };
    let floor_of = |indent: usize| {
        if sel.max_levels == 0 {
            0
        } else {
            let levels = usize::try_from(sel.max_levels).unwrap_or(usize::MAX);
            indent.saturating_sub(levels.saturating_mul(TAB_WIDTH))
        }
    };
    let keep = usize::try_from(cap).unwrap_or(usize::MAX);
    let mut size = bounds.first_window.clamp(1, window.max(1));
    let (anchor_indent, up) = loop {
        let first = lines.window_start(line_off, size)?;
        let whole = first <= text_start;
        let mut prev = whole.then_some(0);
        let mut kept: VecDeque<Line> = VecDeque::new();
        lines.each(first, line_off, HEAD_CAP, |l| {
            kept.push_back(line(&l, &mut prev));
            if kept.len() > keep {
                kept.pop_front();
            }
            ControlFlow::Continue(())
        })?;
        let last_window = whole || size >= window;
        let anchor_indent = if anchor_blank {
            match kept.back() {
                Some(l) => l.indent,
                None => whole.then_some(0),
            }
        } else {
            Some(anchor_own)
        };
        let Some(anchor_indent) = anchor_indent else {
            if last_window {
                // A blank anchor under more blank lines than the window holds.
                break (0, None);
            }
            size = size.saturating_mul(4).min(window);
            continue;
        };
        let mut r = rule(floor_of(anchor_indent), true);
        let mut taken = Vec::new();
        let mut unknown = false;
        let mut cut = false;
        for l in kept.iter().rev() {
            let Some(indent) = l.indent else {
                unknown = true;
                break;
            };
            if !r.takes(indent, l.comment) {
                break;
            }
            if taken.len() as u64 >= cap - 1 {
                cut = true;
                break;
            }
            taken.push((l.start, l.blank));
        }
        // The walk ran past the lines read (or into a blank run it could not place).
        let ran_out = unknown || (taken.len() == kept.len() && !cut && !whole);
        if ran_out && !last_window {
            size = size.saturating_mul(4).min(window);
            continue;
        }
        break (
            anchor_indent,
            Some(Side {
                taken,
                cut: cut || ran_out,
            }),
        );
    };
    let up = up.unwrap_or(Side {
        taken: Vec::new(),
        cut: true,
    });

    // Below: line by line from the anchor until the walk stops.
    let mut r = rule(floor_of(anchor_indent), false);
    let mut prev = Some(anchor_indent);
    let mut down = Side {
        taken: Vec::new(),
        cut: false,
    };
    let mut first = true;
    lines.each_from(line_off, bounds.first_read, HEAD_CAP, |l| {
        if first {
            first = false;
            return ControlFlow::Continue(());
        }
        if l.start - line_off >= window {
            down.cut = true;
            return ControlFlow::Break(());
        }
        let this = line(&l, &mut prev);
        if !r.takes(this.indent.unwrap_or(0), this.comment) {
            return ControlFlow::Break(());
        }
        if down.taken.len() as u64 >= cap - 1 {
            down.cut = true;
            return ControlFlow::Break(());
        }
        down.taken.push((this.start, this.blank));
        ControlFlow::Continue(())
    })?;

    // One line above, then one below, in turn, until the cap.
    let (mut ua, mut db, mut n) = (0usize, 0usize, 1u64);
    while n < cap {
        let mut progressed = false;
        if ua < up.taken.len() {
            ua += 1;
            n += 1;
            progressed = true;
            if n >= cap {
                break;
            }
        }
        if db < down.taken.len() {
            db += 1;
            n += 1;
            progressed = true;
        }
        if !progressed {
            break;
        }
    }
    let complete = !(ua < up.taken.len() || db < down.taken.len() || up.cut || down.cut);

    // Blank lines at both ends are dropped.
    let taken: Vec<(u64, bool)> = up.taken[..ua]
        .iter()
        .rev()
        .chain(std::iter::once(&(line_off, anchor_blank)))
        .chain(&down.taken[..db])
        .copied()
        .collect();
    let start = anchor - ua as u64;
    let Some(first) = taken.iter().position(|l| !l.1) else {
        return Ok(IndentSpan {
            lines: None,
            offset: line_off,
            complete,
        });
    };
    let last = taken.iter().rposition(|l| !l.1).unwrap_or(first);
    Ok(IndentSpan {
        lines: Some((start + first as u64, start + last as u64)),
        offset: taken[first].0,
        complete,
    })
}

/// The indentation block of `sel` (its anchor at byte `off`): at most the smaller of the
/// selection's `max_lines` and the line budget, each side looking at most
/// [`WINDOW_CAP`](crate::block::WINDOW_CAP) bytes.
pub(crate) fn indent_span(
    lines: &Lines<'_>,
    config: &Config,
    sel: &IndentSelection,
    off: u64,
) -> Result<IndentSpan> {
    let cap = sel
        .max_lines
        .unwrap_or(u64::MAX)
        .min(config.budget.max_lines.or_max());
    find_indent_block(lines, sel, off, Bounds::new(cap, crate::block::WINDOW_CAP))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;
    use crate::text::{Encoding, Layout};
    use proptest::prelude::*;

    /// The rules written plainly over the whole text: effective indentation of every
    /// line, then one line above and one below in turn.
    fn naive(text: &str, sel: &IndentSelection, cap: u64) -> Option<(u64, u64)> {
        let mut rows: Vec<&str> = text.split('\n').collect();
        if text.ends_with('\n') {
            rows.pop();
        }
        let n = rows.len();
        let own = |l: &str| -> usize {
            l.chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .map(|c| if c == '\t' { 4 } else { 1 })
                .sum()
        };
        let blank: Vec<bool> = rows.iter().map(|l| l.trim().is_empty()).collect();
        let comment: Vec<bool> = rows
            .iter()
            .map(|l| ["#", "//", "--"].iter().any(|p| l.trim().starts_with(p)))
            .collect();
        let mut eff = Vec::new();
        let mut prev = 0;
        for (i, l) in rows.iter().enumerate() {
            if !blank[i] {
                prev = own(l);
            }
            eff.push(prev);
        }
        let a = sel.anchor_line as usize - 1;
        let floor = if sel.max_levels == 0 {
            0
        } else {
            eff[a].saturating_sub(sel.max_levels as usize * 4)
        };
        let limit = cap.min(n as u64) as usize;
        if limit == 1 {
            return Some((a as u64 + 1, a as u64 + 1));
        }
        let (mut top, mut bottom) = (a, a);
        let (mut up_open, mut down_open) = (a > 0, a + 1 < n);
        let (mut up_floor, mut down_floor) = (0, 0);
        while bottom - top + 1 < limit {
            let mut moved = false;
            if up_open {
                let k = top - 1;
                let at_floor = eff[k] == floor && !sel.include_siblings;
                if eff[k] < floor
                    || (at_floor && up_floor > 0 && !(sel.include_header && comment[k]))
                {
                    up_open = false;
                } else {
                    up_floor += usize::from(at_floor);
                    top = k;
                    up_open = k > 0;
                    moved = true;
                    if bottom - top + 1 >= limit {
                        break;
                    }
                }
            }
            if down_open {
                let k = bottom + 1;
                let at_floor = eff[k] == floor && !sel.include_siblings;
                if eff[k] < floor || (at_floor && down_floor > 0) {
                    down_open = false;
                } else {
                    down_floor += usize::from(at_floor);
                    bottom = k;
                    down_open = k + 1 < n;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        while top <= bottom && blank[top] {
            top += 1;
        }
        while bottom >= top && blank[bottom] {
            if bottom == 0 {
                return None;
            }
            bottom -= 1;
        }
        (top <= bottom).then(|| (top as u64 + 1, bottom as u64 + 1))
    }

    fn row() -> impl Strategy<Value = String> {
        let indent = prop_oneof![
            Just(""),
            Just(" "),
            Just("  "),
            Just("    "),
            Just("\t"),
            Just("\t  "),
            Just("        "),
        ];
        let body = prop_oneof![
            Just("x"),
            Just("}"),
            Just("# c"),
            Just("// c"),
            Just("-- c"),
            Just(""),
            Just(" "),
            Just("é"),
            Just("\u{3000}"),
            Just("x\r"),
            Just("\r"),
        ];
        (indent, body).prop_map(|(i, b)| format!("{i}{b}"))
    }

    /// The text in UTF-8, or in UTF-16LE with a byte order mark; the layout; the file
    /// offset of each line's start.
    fn encode(text: &str, utf16: bool) -> (Vec<u8>, Layout, Vec<u64>) {
        let mut bytes = if utf16 { vec![0xFF, 0xFE] } else { Vec::new() };
        let mut starts = Vec::new();
        for line in text.split_inclusive('\n') {
            starts.push(bytes.len() as u64);
            if utf16 {
                bytes.extend(line.encode_utf16().flat_map(u16::to_le_bytes));
            } else {
                bytes.extend_from_slice(line.as_bytes());
            }
        }
        let layout = if utf16 {
            Layout::new(Encoding::Utf16Le, 2)
        } else {
            Layout::utf8()
        };
        (bytes, layout, starts)
    }

    proptest! {
        #[test]
        fn agrees_with_the_rules_written_plainly(
            rows in proptest::collection::vec(row(), 1..40),
            pick in 0usize..40,
            levels in 0u64..4,
            siblings in any::<bool>(),
            header in any::<bool>(),
            cap in prop_oneof![Just(u64::MAX), 1u64..20],
            utf16 in any::<bool>(),
            chunk in 1usize..9,
            first_window in 1u64..64,
            first_read in 1u64..64,
            last_lf in any::<bool>(),
        ) {
            let mut text: String = rows.iter().map(|r| format!("{r}\n")).collect();
            if !last_lf {
                text.pop();
            }
            let (bytes, layout, starts) = encode(&text, utf16);
            // Dropping the last line feed may drop an empty last line.
            prop_assume!(!starts.is_empty());
            let anchor = (pick % starts.len()) as u64 + 1;
            let sel = IndentSelection::new(anchor)
                .max_levels(levels)
                .include_siblings(siblings)
                .include_header(header);
            let mut src = Source::from_bytes(bytes, "t.txt");
            src.set_chunk_size(chunk);
            let lines = Lines::new(&src, layout);
            let bounds = Bounds { cap, window: u64::MAX, first_window, first_read };
            let got = find_indent_block(&lines, &sel, starts[anchor as usize - 1], bounds).unwrap();
            let want = naive(&text, &sel, cap);
            prop_assert_eq!(got.lines, want);
            if let Some((first, _)) = want {
                prop_assert_eq!(got.offset, starts[first as usize - 1]);
            }
        }
    }

    #[test]
    fn a_tab_is_four_columns_and_blank_lines_take_the_indent_above() {
        // The anchor (line 4) is at 8 columns, so one level down the floor is 4: a tab.
        let text = "fn f() {\n\tif x {\n\n        y();\n\t}\n}\n";
        let (bytes, layout, starts) = encode(text, false);
        let src = Source::from_bytes(bytes, "t.rs");
        let lines = Lines::new(&src, layout);
        let sel = IndentSelection::new(4).max_levels(1);
        let got = find_indent_block(&lines, &sel, starts[3], Bounds::new(100, u64::MAX)).unwrap();
        assert_eq!(got.lines, naive(text, &sel, 100));
        // Above: line 3 (blank, 4 columns from the tab above) is the first line at the
        // floor, line 2 (`\tif x {`, 4 columns) the second: not a comment, so not taken;
        // below: line 5 (`\t}`) is the first at the floor.
        assert_eq!(got.lines, Some((4, 5)));
    }

    #[test]
    fn a_walk_cut_by_the_cap_or_the_window_is_not_complete() {
        let (bytes, layout, starts) = encode("a\n b\n c\n d\n e\n", false);
        let src = Source::from_bytes(bytes, "t.txt");
        let lines = Lines::new(&src, layout);
        let sel = IndentSelection::new(3).include_siblings(true);
        let whole = find_indent_block(&lines, &sel, starts[2], Bounds::new(100, 1 << 20)).unwrap();
        assert_eq!((whole.lines, whole.complete), (Some((1, 5)), true));
        let capped = find_indent_block(&lines, &sel, starts[2], Bounds::new(3, 1 << 20)).unwrap();
        assert_eq!((capped.lines, capped.complete), (Some((2, 4)), false));
        let windowed = find_indent_block(&lines, &sel, starts[2], Bounds::new(100, 4)).unwrap();
        assert_eq!((windowed.lines, windowed.complete), (Some((2, 4)), false));
    }
}
