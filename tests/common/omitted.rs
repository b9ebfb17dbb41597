//! Checks every count of left-out content in an answer against the file: the `omitted`
//! fields of a JSON answer, the summary note (`Lines 1-9 omitted (9 lines, 210 B)`,
//! `Bytes 0-215 omitted (215 B: ...)`) and the truncation note (`of N`) in any
//! rendering, for any tool that prints them.
//!
//! Used by `tests/omitted.rs` over every format of the CLI; a preset's answer can be
//! checked the same way: [`check_omitted_counts`] with the file and the byte range the
//! answer showed.

use std::ops::Range;

/// A file as the contract counts it: its bytes, the width of its code units (1 for
/// UTF-8 and legacy encodings, 2 for UTF-16, 4 for UTF-32) and where its text starts
/// (past a byte order mark).
pub struct FileFacts {
    pub bytes: Vec<u8>,
    /// Each line's byte range, terminator included, in file bytes.
    pub lines: Vec<Range<u64>>,
}

impl FileFacts {
    /// The facts of `bytes` whose text, in code units of `width` bytes (little-endian),
    /// starts at `text_start`. Written plainly, a byte at a time: the reference.
    pub fn new(bytes: &[u8], width: usize, text_start: usize) -> FileFacts {
        let mut lines = Vec::new();
        let mut start = text_start;
        let mut at = text_start;
        while at + width <= bytes.len() {
            let unit = &bytes[at..at + width];
            at += width;
            if unit[0] == b'\n' && unit[1..].iter().all(|&b| b == 0) {
                lines.push(start as u64..at as u64);
                start = at;
            }
        }
        if start < bytes.len() {
            lines.push(start as u64..bytes.len() as u64);
        }
        FileFacts {
            bytes: bytes.to_vec(),
            lines,
        }
    }

    fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Line `n` (1-based).
    fn line(&self, n: u64) -> Result<&Range<u64>, String> {
        usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| self.lines.get(i))
            .ok_or_else(|| format!("line {n} does not exist ({} lines)", self.lines.len()))
    }

    /// The bytes of lines `a..=b`.
    fn span(&self, a: u64, b: u64) -> Result<Range<u64>, String> {
        Ok(self.line(a)?.start..self.line(b)?.end)
    }

    /// Whole lines inside `[lo, hi)`.
    fn whole_lines_in(&self, lo: u64, hi: u64) -> u64 {
        self.lines
            .iter()
            .filter(|l| l.start >= lo && l.end <= hi)
            .count() as u64
    }
}

/// The size as the summaries print it: `512 B`, `31.0 KiB`, `1.5 GiB`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

/// Checks every count of omitted content in `answer` (a JSON result, or any rendering
/// with the summary and truncation notes) against `file`, for an answer that showed the
/// file bytes `shown`. Returns how many counts were checked.
///
/// # Errors
///
/// The first count that does not equal what was left out, described.
pub fn check_omitted_counts(
    file: &FileFacts,
    answer: &str,
    shown: Range<u64>,
) -> Result<usize, String> {
    let mut checked = 0;
    if let Ok(json) = serde_json::from_str::<serde_json::Value>(answer) {
        checked += check_json(file, &json, &shown)?;
        if let Some(s) = json["omitted"]["summary"].as_str() {
            checked += check_summary(file, s, &shown)?;
        }
        return Ok(checked);
    }
    for note in answer.lines().filter(|l| l.starts_with('[')) {
        checked += check_summary(file, note, &shown)?;
        checked += check_truncation(file, note)?;
    }
    Ok(checked)
}

fn check_json(
    file: &FileFacts,
    json: &serde_json::Value,
    shown: &Range<u64>,
) -> Result<usize, String> {
    let o = &json["omitted"];
    if o.is_null() {
        return Ok(0);
    }
    let want = |what: &str, got: &serde_json::Value, want: u64| match got.as_u64() {
        Some(g) if g == want => Ok(()),
        _ => Err(format!("omitted.{what} is {got}, the file left out {want}")),
    };
    want("before_bytes", &o["before_bytes"], shown.start)?;
    want("after_bytes", &o["after_bytes"], file.size() - shown.end)?;
    let mut n = 2;
    if !o["before_lines"].is_null() {
        want(
            "before_lines",
            &o["before_lines"],
            file.whole_lines_in(0, shown.start),
        )?;
        n += 1;
    }
    if !o["after_lines"].is_null() {
        want(
            "after_lines",
            &o["after_lines"],
            file.whole_lines_in(shown.end, file.size()),
        )?;
        n += 1;
    }
    Ok(n)
}

/// `a-b` or `a` as numbers.
fn range_of(s: &str) -> Result<(u64, u64), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("not a number: {t:?}"))
    };
    match s.split_once('-') {
        Some((a, b)) => Ok((num(a)?, num(b)?)),
        None => num(s).map(|a| (a, a)),
    }
}

/// Checks the parts of an omitted summary (`...; ...`) found in `text`.
fn check_summary(file: &FileFacts, text: &str, shown: &Range<u64>) -> Result<usize, String> {
    let Some(end) = text.find(" omitted (") else {
        return Ok(0);
    };
    let _ = end;
    // The summary is the part before " Structure there" / " Landmarks were".
    let text = text.trim_start_matches('[');
    let text = text.split(". Structure there").next().unwrap_or(text);
    let text = text.split(". Landmarks were").next().unwrap_or(text);
    let text = text.trim_end_matches([']', '.']);
    let mut n = 0;
    for part in text.split("; ") {
        n += check_part(file, part, shown).map_err(|e| format!("{part:?}: {e}"))?;
    }
    Ok(n)
}

fn check_part(file: &FileFacts, part: &str, shown: &Range<u64>) -> Result<usize, String> {
    let Some((what, rest)) = part.split_once(" omitted (") else {
        return Ok(0);
    };
    let inner = rest.strip_suffix(')').ok_or("no closing parenthesis")?;
    let lower = what.to_lowercase();
    let before = if let Some(r) = lower.strip_prefix("lines ").or(lower.strip_prefix("line ")) {
        // Whole lines: `Lines A-B omitted (N lines, SIZE)`.
        let (a, b) = range_of(r)?;
        let (count, size) = inner.split_once(", ").ok_or("no count and size")?;
        let count: u64 = count
            .split(' ')
            .next()
            .and_then(|c| c.parse().ok())
            .ok_or("no line count")?;
        if count != b - a + 1 {
            return Err(format!("{count} lines named for lines {a}-{b}"));
        }
        let span = file.span(a, b)?;
        if size != human_bytes(span.end - span.start) {
            return Err(format!(
                "{size} named, lines {a}-{b} hold {} bytes",
                span.end - span.start
            ));
        }
        let before = a == 1;
        let edge = if before { span.end } else { span.start };
        let want_edge = if before { shown.start } else { shown.end };
        if edge != want_edge || (!before && span.end != file.size()) {
            return Err(format!(
                "lines {a}-{b} are bytes {span:?}, the answer showed {shown:?}"
            ));
        }
        return Ok(2);
    } else {
        lower.starts_with("bytes 0-")
    };
    // A byte range: `Bytes 0-S omitted (SIZE[: held])`.
    let (lo, hi) = range_of(
        lower
            .strip_prefix("bytes ")
            .ok_or("neither lines nor bytes")?,
    )?;
    let (size, held) = match inner.split_once(": ") {
        Some((s, h)) => (s, Some(h)),
        None => (inner, None),
    };
    if size != human_bytes(hi - lo) {
        return Err(format!("{size} named for {} bytes", hi - lo));
    }
    let fits = if before {
        lo == 0 && hi == shown.start
    } else {
        lo == shown.end && hi == file.size()
    };
    if !fits {
        return Err(format!("bytes {lo}-{hi}, the answer showed {shown:?}"));
    }
    let Some(held) = held else {
        return Ok(1);
    };
    check_held(file, held, lo, hi, before)?;
    Ok(2)
}

/// `the byte order mark`, `the start of line F`, `N whole lines (lines 1-K) and the start
/// of line F`, `the rest of line L`, `the rest of line L and N whole lines (lines A-T)`.
fn check_held(file: &FileFacts, held: &str, lo: u64, hi: u64, before: bool) -> Result<(), String> {
    let inside = |n: u64, at: u64| -> Result<(), String> {
        let l = file.line(n)?;
        if l.start < at && at < l.end {
            Ok(())
        } else {
            Err(format!("byte {at} is not inside line {n} ({l:?})"))
        }
    };
    let whole = |s: &str| -> Result<(u64, u64, u64), String> {
        // `N whole line(s) (line(s) A[-B])`
        let (count, range) = s.split_once(" whole line").ok_or("no whole lines")?;
        let count: u64 = count.parse().map_err(|_| "no count")?;
        let range = range
            .split_once("(line")
            .map(|(_, r)| r.trim_start_matches('s').trim().trim_end_matches(')'))
            .ok_or("no range")?;
        let (a, b) = range_of(range)?;
        Ok((count, a, b))
    };
    if before {
        if held == "the byte order mark" {
            let first = file.line(1)?;
            return (hi == first.start && hi > 0)
                .then_some(())
                .ok_or(format!("bytes 0-{hi} are not the byte order mark"));
        }
        let (whole_part, first) = match held.rsplit_once("the start of line ") {
            Some((w, f)) => (
                w.trim_end_matches(" and "),
                f.parse::<u64>().map_err(|_| "no line")?,
            ),
            None => return Err("not a known description".into()),
        };
        inside(first, hi)?;
        let have = file.whole_lines_in(lo, hi);
        if whole_part.is_empty() {
            return (have == 0)
                .then_some(())
                .ok_or(format!("{have} whole lines left out"));
        }
        let (count, a, b) = whole(whole_part)?;
        if count != have || a != 1 || b != first - 1 || b - a + 1 != count {
            return Err(format!(
                "{count} whole lines ({a}-{b}) named, {have} left out"
            ));
        }
        return Ok(());
    }
    let rest = held
        .strip_prefix("the rest of line ")
        .ok_or("not a known description")?;
    let (last, whole_part) = match rest.split_once(" and ") {
        Some((l, w)) => (l, Some(w)),
        None => (rest, None),
    };
    let last: u64 = last.parse().map_err(|_| "no line")?;
    inside(last, lo)?;
    let have = file.whole_lines_in(lo, hi);
    match whole_part {
        None => (have == 0 && last as usize == file.lines.len())
            .then_some(())
            .ok_or(format!("{have} whole lines left out after line {last}")),
        Some(w) => {
            let (count, a, b) = whole(w)?;
            if count != have || a != last + 1 || b as usize != file.lines.len() {
                return Err(format!(
                    "{count} whole lines ({a}-{b}) named, {have} left out"
                ));
            }
            Ok(())
        }
    }
}

/// `[... truncated, showing lines S-E of N; ...]` / `showing bytes A-B of SIZE`.
fn check_truncation(file: &FileFacts, note: &str) -> Result<usize, String> {
    let Some((_, rest)) = note.split_once(" of ") else {
        return Ok(0);
    };
    if !note.starts_with("[... truncated, showing ") {
        return Ok(0);
    }
    let total: u64 = rest
        .split(';')
        .next()
        .and_then(|t| t.trim().parse().ok())
        .ok_or("no total")?;
    let want = if note.contains("showing lines ") {
        file.lines.len() as u64
    } else {
        file.size()
    };
    if total != want {
        return Err(format!("{note}: the file has {want}"));
    }
    Ok(1)
}
