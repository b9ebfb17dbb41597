//! `block L`: the innermost definition around a line, found from indentation and
//! landmarks, with bounded cost.
//!
//! The header is the nearest landmark at or above line L that is indented less than L
//! (L itself when L is a definition line) and whose block reaches L; the block runs
//! through the last non-blank line before the next non-blank line indented at or left of
//! the header, and a closing line (`}`, `)`, `end` …) at the header's indentation belongs
//! to it. Lines that continue a header at its own indentation (`{` alone, `) -> T {`,
//! `where`, `} else {`, `else:`) do not end it. Decorators, attributes and doc comments
//! directly above the header are part of the block. In Markdown the block of a heading
//! runs to the next heading of the same or a higher level; in TOML and INI, to the next
//! section header. Outside any definition the block is the enclosing indentation block
//! (the nearest less-indented line above and its block), and for a top-level line that
//! is not a definition, the statement that starts there.
//!
//! Cost: the search upwards looks at most `window` bytes above L; the search downwards
//! stops once the block is longer than the read budget (the read then pages as usual).

use std::ops::ControlFlow;

use crate::budget::{Limit, Utf8Count};
use crate::config::Config;
use crate::error::Result;
use crate::lines::Lines;
use crate::syntax::{
    heading_level, indent, is_c_return_type_line, is_closer, is_preamble, step, trim, Lang,
    Matcher, Step, HEAD_CAP,
};

/// The lines of a block, 1-indexed and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockSpan {
    pub start: u64,
    pub end: u64,
    /// Whether the downward search found the end; if not, `end` is where it stopped
    /// (past the budget), and the read pages from there as usual.
    pub complete: bool,
}

/// Bounds of the search.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Bytes above L that are looked at.
    pub window: u64,
    /// Stop the downward search after this many lines of block.
    pub max_lines: Limit,
    /// Stop the downward search after this many bytes of block.
    pub max_bytes: Limit,
}

/// The whole lines above a line, as [`Lines::before`] gives them (UTF-8 heads).
struct Before {
    lines: Vec<(u64, Vec<u8>)>,
}

impl Before {
    fn line(&self, i: usize) -> &[u8] {
        &self.lines[i].1
    }
}

/// Finds the block of line `line` (which starts at byte `line_off`).
pub(crate) fn find_block(
    lines: &Lines<'_>,
    lang: Lang,
    line: u64,
    line_off: u64,
    limits: Limits,
) -> Result<BlockSpan> {
    let before = Before {
        lines: lines.before(line_off, limits.window, HEAD_CAP)?,
    };
    let src = lines.src;
    let n = before.lines.len();
    // Landmark flags in file order (Markdown fences need the order).
    let mut matcher = Matcher::new(lang);
    let flags: Vec<bool> = (0..n)
        .map(|i| matcher.is_landmark(before.line(i)))
        .collect();

    // Line L and the next non-blank line (for the indentation of a blank L).
    let mut l_head: Vec<u8> = Vec::new();
    let mut next_nonblank_indent = None;
    lines.each(line_off, src.len(), HEAD_CAP, |l| {
        if l_head.is_empty() && l.start == line_off {
            l_head = l.head.to_vec();
            if !trim(l.head).is_empty() {
                return ControlFlow::Break(());
            }
            return ControlFlow::Continue(());
        }
        if l.end - line_off > limits.window {
            return ControlFlow::Break(());
        }
        if !trim(l.head).is_empty() {
            next_nonblank_indent = Some(indent(l.head));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })?;
    let l_is_landmark = matcher.is_landmark(&l_head);
    let line_of = |i: usize| line - (n - i) as u64;

    // `header` is an index into `before`, or `None` for L itself.
    let (header, header_indent, sections): (Option<usize>, usize, Option<usize>) = if l_is_landmark
    {
        (None, indent(&l_head), section_rank(lang, &l_head))
    } else if let Some(found) = section_header(lang, &before, &flags) {
        let rank = section_rank(lang, before.line(found));
        (Some(found), 0, rank)
    } else {
        let blank = trim(&l_head).is_empty();
        let prev_nonblank = (0..n)
            .rev()
            .map(|i| before.line(i))
            .find(|l| !trim(l).is_empty())
            .map(indent);
        let (target, closer) = if blank {
            (
                prev_nonblank
                    .unwrap_or(0)
                    .max(next_nonblank_indent.unwrap_or(0)),
                false,
            )
        } else {
            (indent(&l_head), is_closer(lang, &l_head))
        };
        // Headers must be indented less than `bound`: L's own indentation first,
        // then every line between a candidate and L that would end its block.
        let mut bound = if closer { target + 1 } else { target };
        let mut found = None;
        let mut enclosing = None;
        for j in (0..n).rev() {
            if bound == 0 {
                break;
            }
            let lj = before.line(j);
            if trim(lj).is_empty() {
                continue;
            }
            let ij = indent(lj);
            if ij < bound {
                if flags[j] {
                    found = Some(j);
                    break;
                }
                enclosing.get_or_insert(j);
            }
            let stops_at = if step(lang, ij, lj) == Step::Inside {
                ij + 1
            } else {
                ij
            };
            bound = bound.min(stops_at);
        }
        match found.or(enclosing) {
            Some(j) => (Some(j), indent(before.line(j)), None),
            None => (None, indent(&l_head), None),
        }
    };

    // Decorators, attributes and doc comments directly above the header.
    let header_idx = header.unwrap_or(n);
    let header_line = match header {
        Some(j) => before.line(j),
        None => &l_head[..],
    };
    let mut first = header_idx;
    if lang != Lang::Markdown {
        while first > 0 {
            let above = before.line(first - 1);
            let t = trim(above);
            if t.is_empty() {
                break;
            }
            let doc = is_preamble(lang, t) && indent(above) >= header_indent;
            let c_type =
                lang == Lang::C && first == header_idx && is_c_return_type_line(header_line, above);
            if !(doc || c_type) {
                break;
            }
            first -= 1;
        }
    }
    let start = if first == n { line } else { line_of(first) };

    // Downward: from the line after the header to the end of the block.
    let header_no = header.map_or(line, line_of);
    // Lines between the header and L are inside by construction.
    let mut last_inside = if header.is_some() { line - 1 } else { line };
    let mut end = None;
    let mut complete = false;
    let mut no = line;
    let start_off = line_off; // lines before L are inside by construction
    let mut first_seen = true;
    // The byte budget counts the UTF-8 bytes of the block's text.
    let mut spent = Utf8Count::new(lines, start_off);
    let mut failed = None;
    lines.each(start_off, src.len(), HEAD_CAP, |l| {
        let this = no;
        no += 1;
        let is_l = first_seen;
        first_seen = false;
        let landmark = if is_l {
            l_is_landmark
        } else {
            matcher.is_landmark(l.head)
        };
        if this == header_no {
            return ControlFlow::Continue(());
        }
        if limits.max_lines.reached(this - start) {
            end = Some(this);
            return ControlFlow::Break(());
        }
        match spent.reached(limits.max_bytes, l.start) {
            Ok(false) => {}
            Ok(true) => {
                end = Some(this);
                return ControlFlow::Break(());
            }
            Err(e) => {
                failed = Some(e);
                return ControlFlow::Break(());
            }
        }
        if let Some(rank) = sections {
            let ends = landmark && section_rank(lang, l.head).is_some_and(|r| r <= rank);
            if ends {
                end = Some(last_inside);
                complete = true;
                return ControlFlow::Break(());
            }
            if !trim(l.head).is_empty() {
                last_inside = this;
            }
            return ControlFlow::Continue(());
        }
        match step(lang, header_indent, l.head) {
            Step::Inside => {
                if !trim(l.head).is_empty() {
                    last_inside = this;
                }
                ControlFlow::Continue(())
            }
            Step::Closes => {
                end = Some(this);
                complete = true;
                ControlFlow::Break(())
            }
            Step::Outside => {
                end = Some(last_inside);
                complete = true;
                ControlFlow::Break(())
            }
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let end = match end {
        Some(e) => e,
        None => {
            complete = true;
            last_inside
        }
    };
    Ok(BlockSpan {
        start,
        end: end.max(line).max(start),
        complete,
    })
}

/// In section languages, the nearest header at or above L (L is handled by the caller).
fn section_header(lang: Lang, before: &Before, flags: &[bool]) -> Option<usize> {
    if !lang.sections() {
        return None;
    }
    (0..before.lines.len()).rev().find(|&i| flags[i])
}

/// The rank of a section header: a Markdown heading's level; 1 for TOML/INI headers.
fn section_rank(lang: Lang, line: &[u8]) -> Option<usize> {
    match lang {
        Lang::Markdown => heading_level(trim(line)),
        Lang::Section => Some(1),
        _ => None,
    }
}

/// The ends of the blocks that landmarks open, found in one pass over a file's lines in
/// order by the rules of [`find_block`]: a landmark's block ends where `block L` on the
/// landmark's line ends it. The open blocks are a stack (a line that a block's rules put
/// inside it is inside every block around it too), so a line costs a few comparisons.
pub(crate) struct BlockEnds {
    lang: Lang,
    /// Open blocks, innermost last: the caller's key, and the header's indentation (or,
    /// in section languages, the section's rank).
    open: Vec<(usize, usize)>,
    /// The last non-blank line so far.
    last_nonblank: u64,
}

impl BlockEnds {
    pub(crate) fn new(lang: Lang) -> BlockEnds {
        BlockEnds {
            lang,
            open: Vec::new(),
            last_nonblank: 0,
        }
    }

    /// Whether no block is open.
    pub(crate) fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// Takes line `no` (1-based, lines in order): ends the blocks it ends (`closed(key,
    /// last line)`) and returns how many open blocks enclose it. When the line opens a
    /// block of its own (a landmark, a member of a type), [`BlockEnds::open`] follows.
    pub(crate) fn enter(
        &mut self,
        no: u64,
        head: &[u8],
        landmark: bool,
        closed: &mut dyn FnMut(usize, u64),
    ) -> u64 {
        let blank = !head.iter().any(|b| !b.is_ascii_whitespace());
        if self.lang.sections() {
            let rank = if landmark {
                section_rank(self.lang, head)
            } else {
                None
            };
            if let Some(rank) = rank {
                while let Some(&(key, r)) = self.open.last() {
                    if r < rank {
                        break;
                    }
                    closed(key, self.last_nonblank);
                    self.open.pop();
                }
            }
            if !blank {
                self.last_nonblank = no;
            }
            return self.open.len() as u64;
        }
        if !blank {
            let ind = indent(head);
            while let Some(&(key, h)) = self.open.last() {
                // Most lines are indented deeper than the innermost header: inside.
                let inside = ind > h;
                match if inside {
                    Step::Inside
                } else {
                    step(self.lang, h, head)
                } {
                    Step::Inside => break,
                    Step::Closes => closed(key, no),
                    Step::Outside => closed(key, self.last_nonblank),
                }
                self.open.pop();
            }
            self.last_nonblank = no;
        }
        self.open.len() as u64
    }

    /// Opens the block of the line just entered (a landmark, or a member of a type that
    /// [`BlockEnds::enter`] found inside one), under `key`.
    pub(crate) fn open(&mut self, head: &[u8], landmark: bool, key: usize) {
        if self.lang.sections() {
            if let Some(rank) = landmark.then(|| section_rank(self.lang, head)).flatten() {
                self.open.push((key, rank));
            }
        } else {
            self.open.push((key, indent(head)));
        }
    }

    /// The key of the innermost open block.
    pub(crate) fn innermost(&self) -> Option<usize> {
        self.open.last().map(|&(key, _)| key)
    }

    /// The end of the file: the open blocks end at its last non-blank line.
    pub(crate) fn finish(self, closed: &mut dyn FnMut(usize, u64)) {
        for (key, _) in self.open.into_iter().rev() {
            closed(key, self.last_nonblank);
        }
    }
}

/// The most bytes above a line that a block read looks at (and holds in memory).
pub(crate) const WINDOW_CAP: u64 = 64 << 20;

/// The block around `line` (at byte `off`): its first and last line, and whether its
/// end was found within the budget.
pub(crate) fn block_span(
    lines: &Lines<'_>,
    config: &Config,
    path: &str,
    line: u64,
    off: u64,
) -> Result<(u64, u64, bool)> {
    let limits = Limits {
        // The lines above are held in memory: bound "no limit" too.
        window: config.landmark_window.capped(WINDOW_CAP),
        max_lines: config.budget.max_lines,
        max_bytes: config.budget.max_bytes,
    };
    let span = find_block(
        lines,
        Lang::for_path(std::path::Path::new(path)),
        line,
        off,
        limits,
    )?;
    Ok((span.start, span.end, span.complete))
}
