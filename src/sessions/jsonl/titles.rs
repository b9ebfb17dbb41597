//! Titles: the title records of a transcript (or its first real prompt) found over the
//! whole file or its two ends, cached with the file's state.

use memchr::memmem;

use super::decode::{decode_line, Decoded, LineFormat, Meta, Piece, Prompt};
use super::lines::{forward, next_line_start, CHUNK};
use super::pass::Pass;
use super::{Engine, State};
use crate::error::Result;
use crate::source::Source;

/// How much of a transcript is searched for its title records.
///
/// Title records (Claude Code's `custom-title` and `ai-title`, a `summary`) can sit
/// anywhere in a transcript; the latest one wins. Finding them exactly means looking at
/// every line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TitleScan {
    /// Search the whole file (a SIMD substring search for the record markers; only
    /// lines that contain one are parsed), cached per file by size and modification
    /// time and continued from where it stopped when the file grows. Exact. The default.
    #[default]
    Full,
    /// Search only the first and the last `n` bytes of each file (and take a prompt
    /// title from the first `n`). Bounded cost; a title record that only appears in the
    /// middle of a file larger than `2 n` is missed.
    Bounded(u64),
}

impl TitleScan {
    /// The bounded scan with 1 MiB at each end: what a read with `count: false` uses when
    /// no full scan of the file is cached.
    pub const BOUNDED: TitleScan = TitleScan::Bounded(1 << 20);
}

/// What is known about a file's title records.
#[derive(Debug, Clone, Default)]
pub(crate) struct Titles {
    custom: Option<String>,
    ai: Option<String>,
    /// Summaries in file order.
    summaries: Vec<(String, String)>,
    /// The first real prompt's title.
    pub(crate) prompt: Option<String>,
    /// The first command's title, for a session without a real prompt.
    command: Option<String>,
}

impl Titles {
    pub(crate) fn absorb(&mut self, meta: Meta) {
        match meta {
            Meta::Custom(t) => self.custom = Some(t),
            Meta::Ai(t) => self.ai = Some(t),
            Meta::Summary { text, leaf } => self.summaries.push((text, leaf)),
        }
    }

    pub(crate) fn absorb_piece(&mut self, p: &Piece) {
        match p.prompt {
            Prompt::Real { title_at } if self.prompt.is_none() => {
                let text = p.content.get(title_at..).unwrap_or(&p.content);
                self.prompt = super::super::title_from_prompt(text);
            }
            Prompt::Command if self.command.is_none() => {
                self.command = super::super::title_from_prompt(&p.content);
            }
            _ => {}
        }
    }

    fn absorb_decoded(&mut self, d: Decoded) {
        match d {
            Decoded::Meta(m) => self.absorb(m),
            Decoded::Piece(p) => self.absorb_piece(&p),
            _ => {}
        }
    }

    /// The title: the latest custom title, else the latest AI title, else the latest
    /// summary whose leaf is a record of the file (`has_leaf`), else the first real
    /// prompt, else the first command.
    pub(crate) fn resolve(
        &self,
        mut has_leaf: impl FnMut(&str) -> Result<bool>,
    ) -> Result<Option<String>> {
        let clean = |t: &Option<String>| {
            t.as_ref()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        };
        if let Some(t) = clean(&self.custom).or_else(|| clean(&self.ai)) {
            return Ok(Some(t));
        }
        for (text, leaf) in self.summaries.iter().rev() {
            if !text.trim().is_empty() && has_leaf(leaf)? {
                return Ok(Some(text.trim().to_string()));
            }
        }
        Ok(self.prompt.clone().or_else(|| self.command.clone()))
    }

    /// Heap bytes held, for the cache's budget.
    pub(crate) fn memory_bytes(&self) -> usize {
        let s = |t: &Option<String>| t.as_ref().map_or(0, String::capacity);
        s(&self.custom)
            + s(&self.ai)
            + s(&self.prompt)
            + s(&self.command)
            + self
                .summaries
                .iter()
                .map(|(a, b)| a.capacity() + b.capacity() + 48)
                .sum::<usize>()
    }
}

impl<F: LineFormat> Engine<F> {
    pub(super) fn title_of(
        &self,
        src: &Source,
        st: &mut State,
        scan: TitleScan,
    ) -> Result<Option<String>> {
        if let Some((how, t)) = &st.title {
            if *how == scan || *how == TitleScan::Full {
                return Ok(t.clone());
            }
        }
        let t = match scan {
            TitleScan::Full => {
                let pass = self.full_titles(src, st)?;
                pass.resolve(|leaf| self.leaf_in(src, leaf, &[(0, src.len())]))?
            }
            TitleScan::Bounded(n) => self.bounded_title(src, n)?,
        };
        st.title = Some((scan, t.clone()));
        Ok(t)
    }

    /// Brings the full title scan of a file up to date and returns what it found.
    fn full_titles(&self, src: &Source, st: &mut State) -> Result<Titles> {
        if let (Some(c), Some(_)) = (&st.count, st.count_result) {
            // The counting pass saw every line of this state of the file.
            return Ok(c.state.titles.clone());
        }
        let mut pass: Pass<Titles> = st.titles.take().unwrap_or_default();
        let markers = self.fmt.title_markers();
        let finders: Vec<memmem::Finder<'_>> = markers.iter().map(memmem::Finder::new).collect();
        let fmt = &self.fmt;
        let mut titles = pass.state.clone();
        let mut tail: Option<Titles> = None;
        let done = forward(src, pass.done, src.len(), |line| {
            let found_prompt = titles.prompt.is_some();
            if finders.is_empty() && found_prompt {
                // Nothing else to look for in this format.
                return false;
            }
            let is_meta = finders.iter().any(|f| f.find(line.bytes).is_some());
            if !is_meta && found_prompt {
                return true;
            }
            let target = if line.terminated {
                &mut titles
            } else {
                tail.get_or_insert_with(|| titles.clone())
            };
            if let Some(d) = decode_line(fmt, line.bytes) {
                target.absorb_decoded(d);
            }
            true
        })?;
        pass.state = titles;
        pass.done = done;
        let result = tail.unwrap_or_else(|| pass.state.clone());
        st.titles = Some(pass);
        Ok(result)
    }

    fn bounded_title(&self, src: &Source, window: u64) -> Result<Option<String>> {
        let len = src.len();
        let head_end = len.min(window.max(1));
        let tail_from = len.saturating_sub(window).max(head_end);
        let mut titles = Titles::default();
        let fmt = &self.fmt;
        let markers = fmt.title_markers();
        let finders: Vec<memmem::Finder<'_>> = markers.iter().map(memmem::Finder::new).collect();
        let visit = |line: &[u8], titles: &mut Titles| {
            let is_meta = finders.iter().any(|f| f.find(line).is_some());
            if !is_meta && titles.prompt.is_some() {
                return;
            }
            if let Some(d) = decode_line(fmt, line) {
                titles.absorb_decoded(d);
            }
        };
        // Lines that start in the head window, read whole.
        forward(src, 0, len, |line| {
            if line.offset >= head_end {
                return false;
            }
            visit(line.bytes, &mut titles);
            true
        })?;
        if tail_from < len {
            // The first line of the tail window may be cut: start after its LF.
            let start = next_line_start(src, tail_from)?;
            forward(src, start, len, |line| {
                visit(line.bytes, &mut titles);
                true
            })?;
            let windows = [(0, head_end), (start, len)];
            return titles.resolve(|leaf| self.leaf_in(src, leaf, &windows));
        }
        titles.resolve(|leaf| self.leaf_in(src, leaf, &[(0, len)]))
    }

    /// Whether a record with uuid `leaf` lies in one of the byte ranges.
    fn leaf_in(&self, src: &Source, leaf: &str, ranges: &[(u64, u64)]) -> Result<bool> {
        let Some(marker) = self.fmt.uuid_marker(leaf) else {
            return Ok(false);
        };
        let finder = memmem::Finder::new(&marker);
        let overlap = marker.len() as u64;
        let mut scratch = Vec::new();
        for &(from, to) in ranges {
            let mut at = from;
            while at < to {
                let end = (at + CHUNK + overlap).min(to);
                let hit = src.with_range(at, end, &mut scratch, |b| finder.find(b).is_some())?;
                if hit {
                    return Ok(true);
                }
                if end == to {
                    break;
                }
                at += CHUNK;
            }
        }
        Ok(false)
    }
}
