//! The search for landmarks around a read and over a whole file (the outline).
//!
//! Which lines are landmarks is [`crate::syntax`]'s business; this module walks the
//! omitted regions of a read (through [`Lines`], so every encoding is searched the same
//! way) by blocks of the file, and keeps what it found in the file's [`IndexCache`]
//! entry so that later reads nearby cost lookups, not a scan.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

use crate::block::BlockEnds;
use crate::budget::Limit;
use crate::cache::IndexCache;
use crate::config::OutlineDetail;
use crate::error::Result;
use crate::lines::Lines;
use crate::result::Landmark;
use crate::summarize::Searched;
use crate::syntax::{container, landmark_text, name, Container, Lang, Matcher, HEAD_CAP};

/// Bytes per landmark block: the unit in which the search around a read is done, and
/// kept in the [`IndexCache`] so that later reads near it cost lookups, not a scan.
/// (Tiny under the fuzzer, so that its small inputs span many blocks.)
#[cfg(not(fuzzing))]
pub(crate) const BLOCK: u64 = 64 << 10;
#[cfg(fuzzing)]
pub(crate) const BLOCK: u64 = 16;

/// How far past the end of its block a line that starts in it is read to be judged: a
/// line that starts in a block and runs on for more than this is not a landmark.
#[cfg(not(fuzzing))]
const STRADDLE: u64 = 64 << 10;
#[cfg(fuzzing)]
const STRADDLE: u64 = 1 << 20;

/// What the search found in one block: the landmark lines that start in it.
#[derive(Debug)]
struct Block {
    /// LF bytes in the block (`[b * BLOCK, (b + 1) * BLOCK)`, cut at the file's end).
    lfs: u64,
    /// `(line start, line end, LFs in the block before the line, text)`.
    marks: Vec<(u64, u64, u64, String)>,
    /// The file size the block was computed for, when it depends on where the file ends.
    len_at: Option<u64>,
}

impl Block {
    fn memory_bytes(&self) -> usize {
        64 + self
            .marks
            .iter()
            .map(|m| m.3.capacity() + 48)
            .sum::<usize>()
    }
}

/// The most landmark blocks kept for one file (2 MiB of it): the least recently used
/// go first, so that a log read at its growing end does not pile up the blocks of every
/// earlier end. (4 under the fuzzer, whose inputs span a few dozen blocks.)
#[cfg(not(fuzzing))]
const KEPT_BLOCKS: usize = 32;
#[cfg(fuzzing)]
const KEPT_BLOCKS: usize = 4;

/// The landmark blocks of one file, for one set of rules.
#[derive(Debug)]
struct Blocks {
    lang: Lang,
    /// Block number → the block and when it was last used.
    map: HashMap<u64, (Arc<Block>, u64)>,
    /// The heap bytes of the blocks in `map`, kept as they come and go.
    bytes: usize,
    /// A counter for the use times.
    tick: u64,
}

impl Blocks {
    fn new(lang: Lang) -> Blocks {
        Blocks {
            lang,
            map: HashMap::new(),
            bytes: 0,
            tick: 0,
        }
    }

    /// Block `b` if it is known for a file of `len` bytes; marks it used.
    fn get(&mut self, b: u64, len: u64) -> Option<Arc<Block>> {
        self.tick += 1;
        let (blk, used) = self.map.get_mut(&b)?;
        if blk.len_at.is_some_and(|l| l != len) {
            return None;
        }
        *used = self.tick;
        Some(blk.clone())
    }

    /// Keeps `blk` as block `b`, dropping the least recently used beyond [`KEPT_BLOCKS`].
    fn insert(&mut self, b: u64, blk: Arc<Block>) {
        self.tick += 1;
        self.bytes += blk.memory_bytes();
        if let Some((old, _)) = self.map.insert(b, (blk, self.tick)) {
            self.bytes -= old.memory_bytes();
        }
        while self.map.len() > KEPT_BLOCKS {
            let Some(oldest) = self
                .map
                .iter()
                .min_by_key(|(_, (_, u))| *u)
                .map(|(k, _)| *k)
            else {
                break;
            };
            if let Some((old, _)) = self.map.remove(&oldest) {
                self.bytes -= old.memory_bytes();
            }
        }
    }
}

/// The blocks computed so far for a file, shared through its cache entry.
type Shared = Arc<Mutex<Blocks>>;

/// The slot landmark blocks are attached under in every cache.
fn slot() -> u64 {
    static SLOT: OnceLock<u64> = OnceLock::new();
    *SLOT.get_or_init(IndexCache::slot)
}

/// Finds the landmark blocks of a source: from its cache entry when there is one, else
/// computed for this search only.
struct BlockSource<'a> {
    lines: &'a Lines<'a>,
    cache: Option<&'a IndexCache>,
    lang: Lang,
    shared: Shared,
    added: bool,
}

impl<'a> BlockSource<'a> {
    fn new(lines: &'a Lines<'a>, cache: Option<&'a IndexCache>, lang: Lang) -> BlockSource<'a> {
        let shared = cache
            .and_then(|c| c.attachment::<Shared>(lines.src, slot(), false))
            .map(|(s, _)| s)
            .filter(|s| s.lock().map(|b| b.lang == lang).unwrap_or(false));
        let (shared, added) = match shared {
            Some(s) => (s, false),
            None => (Arc::new(Mutex::new(Blocks::new(lang))), true),
        };
        BlockSource {
            lines,
            cache,
            lang,
            shared,
            added,
        }
    }

    /// Block `b`, computed if not known for this state of the file.
    fn get(&mut self, b: u64) -> Result<Arc<Block>> {
        let len = self.lines.src.len();
        if let Some(blk) = self.shared.lock().ok().and_then(|mut s| s.get(b, len)) {
            return Ok(blk);
        }
        let blk = Arc::new(compute_block(self.lines, self.lang, b)?);
        if let Ok(mut blocks) = self.shared.lock() {
            blocks.insert(b, blk.clone());
        }
        self.added = true;
        Ok(blk)
    }

    /// LF bytes in `[b * BLOCK, to)`, for `to` inside block `b`.
    fn lfs_before(&mut self, b: u64, to: u64) -> Result<u64> {
        let from = b * BLOCK;
        let end = ((b + 1) * BLOCK).min(self.lines.src.len());
        // Count the shorter side.
        if to - from <= end - to {
            self.lines.count(from, to)
        } else {
            let blk = self.get(b)?;
            Ok(blk.lfs - self.lines.count(to, end)?)
        }
    }

    /// LF bytes in `[from, to)`.
    fn lfs_between(&mut self, from: u64, to: u64) -> Result<u64> {
        if from >= to {
            return Ok(0);
        }
        let (fb, tb) = (from / BLOCK, to / BLOCK);
        if fb == tb {
            return Ok(self.lfs_before(tb, to)? - self.lfs_before(fb, from)?);
        }
        let mut n = self.get(fb)?.lfs - self.lfs_before(fb, from)?;
        for b in fb + 1..tb {
            n += self.get(b)?.lfs;
        }
        if to > tb * BLOCK {
            n += self.lfs_before(tb, to)?;
        }
        Ok(n)
    }

    /// Keeps what was computed in the cache entry, with its size.
    fn keep(self) {
        let (Some(cache), true) = (self.cache, self.added) else {
            return;
        };
        let cost = self
            .shared
            .lock()
            .map(|b| b.bytes + b.map.len() * 16)
            .unwrap_or(0);
        cache.attach(self.lines.src, slot(), self.shared, cost);
    }
}

/// The landmark lines that start in block `b`, judged with a matcher that starts fresh
/// at the block's first line.
fn compute_block(lines: &Lines<'_>, lang: Lang, b: u64) -> Result<Block> {
    let len = lines.src.len();
    let from = b * BLOCK;
    let to = ((b + 1) * BLOCK).min(len);
    let lfs = lines.count(from, to)?;
    let reach = to.saturating_add(STRADDLE).min(len);
    // Block 0 begins with line 1 (past a byte order mark); another block with a whole
    // line only when the byte before it ends one.
    let first_whole = from == 0 || lines.starts_line(from)?;
    let mut matcher = Matcher::new(lang);
    let mut marks = Vec::new();
    let mut k = 0u64;
    lines.each(from, reach, HEAD_CAP, |l| {
        if l.start >= to {
            return ControlFlow::Break(());
        }
        let this = k;
        k += 1;
        if (this > 0 || first_whole) && matcher.is_landmark(l.head) {
            marks.push((l.start, l.end, this, landmark_text(l.head)));
        }
        ControlFlow::Continue(())
    })?;
    Ok(Block {
        lfs,
        marks,
        len_at: (reach == len).then_some(len),
    })
}

/// Where a read sits, for [`around`].
pub(crate) struct Around {
    /// The page's bytes `[start, end)`.
    pub start: u64,
    pub end: u64,
    /// Its first and last line.
    pub first_line: u64,
    pub last_line: u64,
    /// Bytes looked at on each side (`u64::MAX`: everything).
    pub window: u64,
    /// The most landmarks returned.
    pub cap: usize,
}

/// Landmarks in the omitted regions around a read, nearest first (a tie goes to the line
/// above), looking at whole lines within `window` bytes on each side; and which lines
/// were searched when the window did not reach the start or the end of the file.
///
/// The search runs over [`BLOCK`]s; with a cache, the blocks are kept in the file's
/// entry (validated like its line index), so a later read nearby costs lookups and two
/// short counts.
pub(crate) fn around(
    lines: &Lines<'_>,
    cache: Option<&IndexCache>,
    lang: Lang,
    at: &Around,
) -> Result<(Vec<Landmark>, Searched)> {
    let len = lines.src.len();
    let mut blocks = BlockSource::new(lines, cache, lang);
    let (start, end) = (at.start, at.end);

    // Before: lines that start at or after the window's start and end at or before the
    // read's start, nearest first; the line the read starts inside is not omitted.
    let mut before: Vec<(u64, String)> = Vec::new();
    let mut searched_before = None;
    if start > 0 {
        let ws = start.saturating_sub(at.window);
        let sb = (start - 1) / BLOCK;
        // LFs from the start of the block being looked at to `start`.
        let mut to_start = blocks.lfs_before(sb, start)?;
        let mut b = sb;
        'blocks: loop {
            let blk = blocks.get(b)?;
            for (ls, _, k, text) in blk.marks.iter().rev() {
                if *ls >= start {
                    continue;
                }
                if *ls < ws {
                    break 'blocks;
                }
                let line = at.first_line.saturating_sub(to_start - k);
                if line >= at.first_line {
                    continue;
                }
                before.push((line, text.clone()));
                if before.len() >= at.cap {
                    break 'blocks;
                }
            }
            if b == 0 || b * BLOCK <= ws {
                break;
            }
            b -= 1;
            to_start += blocks.get(b)?.lfs;
        }
        if ws > 0 {
            let lfs = blocks.lfs_between(ws, start)?;
            let whole_first = lines.starts_line(ws)?;
            let whole = lfs - u64::from(!whole_first && lfs > 0);
            searched_before = Some((at.first_line.saturating_sub(whole), at.first_line - 1));
        }
    }

    // After: whole lines from the end of the read, nearest first.
    let mut after: Vec<(u64, String)> = Vec::new();
    let mut searched_after = None;
    if end < len {
        let we = end.saturating_add(at.window).min(len);
        let skip_first = end > 0 && !lines.starts_line(end)?;
        let eb = end / BLOCK;
        // LFs from `end` to the start of the block being looked at.
        let mut from_end = 0u64.wrapping_sub(blocks.lfs_before(eb, end)?);
        let mut stopped = false;
        let mut b = eb;
        'blocks: while b * BLOCK < we {
            let blk = blocks.get(b)?;
            for (ls, le, k, text) in &blk.marks {
                if *ls < end {
                    continue;
                }
                if *le > we {
                    break 'blocks;
                }
                let line = at.last_line + 1 + from_end.wrapping_add(*k) - u64::from(skip_first);
                after.push((line, text.clone()));
                if after.len() >= at.cap {
                    stopped = true;
                    break 'blocks;
                }
            }
            from_end = from_end.wrapping_add(blk.lfs);
            b += 1;
        }
        if we < len && !stopped {
            let lfs = blocks.lfs_between(end, we)?;
            let whole = lfs.saturating_sub(u64::from(skip_first));
            searched_after = Some((at.last_line + 1, at.last_line + whole));
        }
    }
    blocks.keep();

    // Merge by distance from the read; a tie goes to the line above.
    let mut out = Vec::new();
    let mut b = before.into_iter().peekable();
    let mut a = after.into_iter().peekable();
    while out.len() < at.cap {
        let pick_before = match (b.peek(), a.peek()) {
            (Some((bl, _)), Some((al, _))) => at.first_line - bl <= al - at.last_line,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (line, text) = if pick_before { b.next() } else { a.next() }.expect("peeked");
        out.push(Landmark {
            line,
            text,
            end_line: None,
            depth: None,
            name: None,
        });
    }
    let searched = Searched {
        before: searched_before,
        after: searched_after,
        window: at.window,
    };
    Ok((out, searched))
}

/// What [`outline`] found.
pub(crate) struct Found {
    /// The landmarks, in file order.
    pub landmarks: Vec<Landmark>,
    /// Lines looked at.
    pub lines: u64,
    /// Bytes looked at (the end of the last line looked at).
    pub scanned: u64,
    /// Whether the search ran to `end` (rather than stopping at a budget).
    pub complete: bool,
}

/// The landmarks of the lines that end before `end`, in file order: at most `max_lines`
/// of them, and at most `max_bytes` of text (each text and a line feed); each with the
/// end of the block it opens, its depth and its name, found in the same pass. With
/// [`OutlineDetail::Members`], the members of types (fields, variants) are listed too,
/// under their type, and count against the same budgets. When a budget stops the
/// listing, the walk goes on (to `end` at most) only until the blocks of the listed
/// landmarks have ended.
pub(crate) fn outline(
    lines: &Lines<'_>,
    lang: Lang,
    end: u64,
    max_lines: Limit,
    max_bytes: Limit,
    detail: OutlineDetail,
) -> Result<Found> {
    let mut matcher = Matcher::new(lang);
    let mut found = Found {
        landmarks: Vec::new(),
        lines: 0,
        scanned: lines.layout.text_start.min(end),
        complete: true,
    };
    let members = detail == OutlineDetail::Members;
    // Per listed entry, what its block holds (with `members` only).
    let mut containers: Vec<Option<Container>> = Vec::new();
    let mut text_bytes = 0u64;
    let mut blocks = BlockEnds::new(lang);
    let (mut no, mut listing, mut stopped) = (0u64, true, false);
    lines.each(lines.layout.text_start, end, HEAD_CAP, |l| {
        no += 1;
        let landmark = matcher.is_landmark(l.head);
        let marks = &mut found.landmarks;
        let depth = blocks.enter(no, l.head, landmark, &mut |i, e| {
            marks[i].end_line = Some(e);
        });
        // A landmark, or a member of the type whose block the line is directly in.
        let entry = if !listing {
            None
        } else if landmark {
            let c = members.then(|| container(lang, l.head)).flatten();
            Some((name(lang, l.head), c))
        } else if let Some(c) = blocks
            .innermost()
            .and_then(|k| containers.get_mut(k))
            .and_then(Option::as_mut)
        {
            c.member(l.head).map(|m| (Some(m.name), m.container))
        } else {
            None
        };
        if let Some((name, c)) = entry {
            let text = landmark_text(l.head);
            let bytes = text_bytes + text.len() as u64 + 1;
            if max_lines.reached(found.landmarks.len() as u64) || max_bytes.exceeded(bytes) {
                found.complete = false;
                listing = false;
            } else {
                text_bytes = bytes;
                blocks.open(l.head, landmark, found.landmarks.len());
                found.landmarks.push(Landmark {
                    line: no,
                    text,
                    end_line: None,
                    depth: Some(depth),
                    name,
                });
                if members {
                    containers.push(c);
                }
            }
        }
        if !listing {
            stopped = blocks.is_empty();
            return if stopped {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            };
        }
        found.lines += 1;
        found.scanned = l.end;
        ControlFlow::Continue(())
    })?;
    if !stopped && end >= lines.src.len() {
        let marks = &mut found.landmarks;
        blocks.finish(&mut |i, e| marks[i].end_line = Some(e));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_blocks_are_the_most_recently_used_and_their_bytes_add_up() {
        let block = |n: usize| {
            Arc::new(Block {
                lfs: 1,
                marks: (0..n as u64)
                    .map(|i| (i, i + 1, i, "fn x() {".repeat(n)))
                    .collect(),
                len_at: None,
            })
        };
        let mut blocks = Blocks::new(Lang::Rust);
        for b in 0..KEPT_BLOCKS as u64 {
            blocks.insert(b, block(b as usize % 5));
        }
        // Block 0 is used again, so block 1 is the least recently used.
        assert!(blocks.get(0, 10).is_some());
        blocks.insert(1000, block(3));
        blocks.insert(0, block(4));
        assert_eq!(blocks.map.len(), KEPT_BLOCKS);
        assert!(blocks.get(1, 10).is_none());
        assert!(blocks.get(0, 10).is_some() && blocks.get(1000, 10).is_some());
        let sum: usize = blocks.map.values().map(|(b, _)| b.memory_bytes()).sum();
        assert_eq!(blocks.bytes, sum);
    }
}
