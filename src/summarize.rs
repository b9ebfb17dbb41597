//! What a partial read left out: counts on both sides and a human summary line.

use crate::result::{Landmark, Omitted};

/// The regions around a returned part, in lines (when known) and bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Regions {
    /// First and last line returned, when line numbers are known.
    pub lines: Option<(u64, u64)>,
    pub total_lines: Option<u64>,
    pub start_byte: u64,
    pub end_byte: u64,
    pub file_size: u64,
    /// Whether `start_byte` starts a line (a byte read may start inside one).
    pub start_at_line: bool,
    /// Whether `end_byte` ends a line (or the file).
    pub end_at_line: bool,
    /// Where line 1 starts: past a byte order mark, which no line holds.
    pub text_start: u64,
}

/// Which omitted lines the landmark search looked at, when it did not cover a whole
/// omitted region.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Searched {
    /// Lines searched before the read (`first..=last`; empty when `first > last`), or
    /// `None` when the whole region before it was searched (or none was omitted).
    pub before: Option<(u64, u64)>,
    /// Lines searched after the read, or `None` when the whole region was searched.
    pub after: Option<(u64, u64)>,
    /// The window size, in bytes on each side.
    pub window: u64,
}

/// Builds the `omitted` report; `landmarks` come from the omitted regions, nearest first,
/// and `searched` says where they were looked for.
pub(crate) fn omitted(r: Regions, landmarks: Vec<Landmark>, searched: Searched) -> Omitted {
    let before_bytes = r.start_byte;
    let after_bytes = r.file_size.saturating_sub(r.end_byte);
    let before_lines = r.lines.map(|(first, _)| first.saturating_sub(1));
    let after_lines = match (r.lines, r.total_lines) {
        (Some((_, last)), Some(total)) => Some(total.saturating_sub(last)),
        _ => None,
    };
    // Every count names exactly what was left out: whole lines with their bytes when the
    // read starts (ends) at a line boundary; else the byte range, with the whole lines
    // and the part of a line it holds.
    let mut parts = Vec::new();
    if before_bytes > 0 {
        parts.push(match (r.lines, before_lines) {
            (Some((first, _)), Some(n)) if n > 0 && r.start_at_line => format!(
                "{} omitted ({}, {})",
                line_range(1, first - 1),
                plural(n, "line"),
                human_bytes(before_bytes.saturating_sub(r.text_start))
            ),
            (Some((first, _)), Some(n)) => {
                let held = match (n, r.start_at_line) {
                    // Before line 1 and at its start: a byte order mark.
                    (0, true) => "the byte order mark".to_string(),
                    (0, false) => format!("the start of line {first}"),
                    (n, _) => format!(
                        "{} ({}) and the start of line {first}",
                        plural(n, "whole line"),
                        line_range(1, n),
                    ),
                };
                format!(
                    "Bytes 0-{before_bytes} omitted ({}: {held})",
                    human_bytes(before_bytes)
                )
            }
            _ => format!(
                "Bytes 0-{before_bytes} omitted ({})",
                human_bytes(before_bytes)
            ),
        });
    }
    if after_bytes > 0 {
        parts.push(match (r.lines, after_lines, r.total_lines) {
            (Some((_, last)), Some(n), Some(total)) if n > 0 && r.end_at_line => format!(
                "{} omitted ({}, {})",
                line_range(last + 1, total),
                plural(n, "line"),
                human_bytes(after_bytes)
            ),
            (Some((_, last)), Some(n), Some(total)) if !r.end_at_line => {
                let held = if n > 0 {
                    format!(
                        "the rest of line {last} and {} ({})",
                        plural(n, "whole line"),
                        line_range(last + 1, total)
                    )
                } else {
                    format!("the rest of line {last}")
                };
                format!(
                    "bytes {}-{} omitted ({}: {held})",
                    r.end_byte,
                    r.file_size,
                    human_bytes(after_bytes)
                )
            }
            _ => format!(
                "bytes {}-{} omitted ({})",
                r.end_byte,
                r.file_size,
                human_bytes(after_bytes)
            ),
        });
    }
    let mut summary = capitalize(parts.join("; "));
    if !summary.is_empty() {
        summary.push('.');
    }
    if !landmarks.is_empty() {
        let names: Vec<String> = landmarks
            .iter()
            .take(8)
            .map(|l| format!("{} (l.{})", shorten(&l.text, 60), l.line))
            .collect();
        summary.push_str(" Structure there: ");
        summary.push_str(&names.join(", "));
        if landmarks.len() > 8 {
            summary.push_str(&format!(" and {} more", landmarks.len() - 8));
        }
        summary.push('.');
    }
    let span = |side: Option<(u64, u64)>, where_: &str| {
        side.map(|(a, b)| match a.cmp(&b) {
            std::cmp::Ordering::Less => format!("lines {a}-{b} {where_}"),
            std::cmp::Ordering::Equal => format!("line {a} {where_}"),
            std::cmp::Ordering::Greater => format!("no whole line {where_}"),
        })
    };
    let partial: Vec<String> = [
        span(searched.before, "above the read"),
        span(searched.after, "below it"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !partial.is_empty() {
        summary.push_str(&format!(
            " Landmarks were looked for only in {} ({} on each side).",
            partial.join(" and "),
            human_bytes(searched.window)
        ));
    }
    Omitted {
        before_lines,
        after_lines,
        before_bytes,
        after_bytes,
        summary,
        landmarks,
    }
}

/// `lines 3-9`, or `line 3` for a single line.
fn line_range(a: u64, b: u64) -> String {
    if a == b {
        format!("line {a}")
    } else {
        format!("lines {a}-{b}")
    }
}

/// `1 line`, `3 lines`.
fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn capitalize(s: String) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => s,
    }
}

fn shorten(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// `512 B`, `31.0 KiB`, `1.5 GiB`.
pub(crate) fn human_bytes(n: u64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_names_both_sides_in_lines_and_sizes() {
        let o = omitted(
            Regions {
                lines: Some((10, 20)),
                total_lines: Some(40),
                start_byte: 210,
                end_byte: 530,
                file_size: 1024,
                start_at_line: true,
                end_at_line: true,
                text_start: 0,
            },
            vec![],
            Searched::default(),
        );
        assert_eq!(o.before_lines, Some(9));
        assert_eq!(o.after_lines, Some(20));
        assert_eq!(
            o.summary,
            "Lines 1-9 omitted (9 lines, 210 B); lines 21-40 omitted (20 lines, 494 B)."
        );
    }

    #[test]
    fn a_read_inside_lines_says_which_parts_of_them_were_left_out() {
        let regions = Regions {
            lines: Some((10, 20)),
            total_lines: Some(40),
            start_byte: 215,
            end_byte: 520,
            file_size: 1024,
            start_at_line: false,
            end_at_line: false,
            text_start: 0,
        };
        let o = omitted(regions, vec![], Searched::default());
        assert_eq!((o.before_lines, o.after_lines), (Some(9), Some(20)));
        assert_eq!(
            o.summary,
            "Bytes 0-215 omitted (215 B: 9 whole lines (lines 1-9) and the start of line \
             10); bytes 520-1024 omitted (504 B: the rest of line 20 and 20 whole lines \
             (lines 21-40))."
        );
        let o = omitted(
            Regions {
                lines: Some((1, 40)),
                start_byte: 2,
                end_byte: 1024,
                start_at_line: true,
                text_start: 2,
                ..regions
            },
            vec![],
            Searched::default(),
        );
        assert_eq!(o.summary, "Bytes 0-2 omitted (2 B: the byte order mark).");
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(31 * 1024), "31.0 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }
}
