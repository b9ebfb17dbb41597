//! [`line_offsets`]: the bytes of a range of lines in a text, for edit tools that
//! rewrite the lines a read tool showed (by the same line rules).

use crate::error::{Error, Result};
use crate::text::line_feeds;

/// The byte span `[start, end)` of lines `start_line..=end_line` (1-indexed, inclusive)
/// in `content`, the last line's terminator included: what an edit tool replaces to
/// rewrite those lines.
///
/// Lines follow the crate's rules: a line ends at LF; CR LF ends a line with the
/// CR in its terminator; a last line without LF counts. An `end_line` past the last line
/// is clamped to the end of `content`; `start_line` 1 of empty content is `(0, 0)`.
///
/// # Errors
///
/// The messages of the contract: [`Error::ZeroLine`] for a 0,
/// [`Error::LineStartAfterEnd`], and [`Error::LineBeyondEnd`] when `start_line` is past
/// the last line.
///
/// # Example
///
/// ```
/// use rangeread::tool::line_offsets;
///
/// let text = "one\ntwo\r\nthree";
/// assert_eq!(line_offsets(text, 2, 2)?, (4, 9));
/// assert_eq!(&text[4..9], "two\r\n");
/// assert_eq!(line_offsets(text, 2, 99)?, (4, 14));
/// assert_eq!(
///     line_offsets(text, 4, 4).unwrap_err().to_string(),
///     "Invalid range specified: start_line (4) is beyond the end of the file (3 lines)."
/// );
/// # Ok::<(), rangeread::Error>(())
/// ```
pub fn line_offsets(content: &str, start_line: usize, end_line: usize) -> Result<(usize, usize)> {
    let i = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
    if start_line == 0 || end_line == 0 {
        return Err(Error::ZeroLine {
            field: if start_line == 0 {
                "start_line"
            } else {
                "end_line"
            },
            start: Some(i(start_line)),
            end: Some(i(end_line)),
        });
    }
    if start_line > end_line {
        return Err(Error::LineStartAfterEnd {
            start: i(start_line),
            end: i(end_line),
            parameter: "start_line".into(),
        });
    }
    let bytes = content.as_bytes();
    let mut lfs = line_feeds(bytes);
    let start = match start_line {
        1 => Some(0),
        n => lfs.nth(n - 2).map(|lf| lf + 1),
    };
    let start = match start {
        // Line `start_line` begins here unless this is the end of non-empty content.
        Some(s) if s < bytes.len() || (s == 0 && start_line == 1) => s,
        _ => {
            let lf = line_feeds(bytes).count() as u64;
            let total = lf + u64::from(bytes.last().is_some_and(|&b| b != b'\n'));
            return Err(Error::LineBeyondEnd {
                start: i(start_line),
                total_lines: crate::error::int(total),
                parameter: "start_line".into(),
            });
        }
    };
    let end = lfs
        .nth(end_line - start_line)
        .map_or(bytes.len(), |lf| lf + 1);
    Ok((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive model: split after each LF.
    fn naive(content: &str, s: usize, e: usize) -> Option<(usize, usize)> {
        let lines: Vec<&str> = content.split_inclusive('\n').collect();
        if s > lines.len() {
            return (s == 1 && content.is_empty()).then_some((0, 0));
        }
        let start: usize = lines[..s - 1].iter().map(|l| l.len()).sum();
        let end: usize = lines[..e.min(lines.len())].iter().map(|l| l.len()).sum();
        Some((start, end))
    }

    #[test]
    fn line_offsets_agree_with_splitting() {
        let texts = [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\nb\n",
            "\n\n\n",
            "one\r\ntwo\r\n",
            "x\ny\rz\n",
            "é\n✓\n🦀",
        ];
        for t in texts {
            for s in 1..6 {
                for e in s..8 {
                    let got = line_offsets(t, s, e).ok();
                    assert_eq!(got, naive(t, s, e), "{t:?} {s}..={e}");
                }
            }
        }
    }

    #[test]
    fn line_offsets_errors_use_the_contract_messages() {
        assert_eq!(
            line_offsets("a\n", 0, 1).unwrap_err().to_string(),
            "start_line (0) is invalid: lines are 1-indexed"
        );
        assert_eq!(
            line_offsets("a\n", 1, 0).unwrap_err().to_string(),
            "end_line (0) is invalid: lines are 1-indexed"
        );
        assert_eq!(
            line_offsets("a\nb\nc\n", 3, 2).unwrap_err().to_string(),
            "Invalid range specified: start_line (3) is greater than end_line (2)."
        );
        assert_eq!(
            line_offsets("a\nb\n", 3, 3).unwrap_err().to_string(),
            "Invalid range specified: start_line (3) is beyond the end of the file (2 lines)."
        );
        assert_eq!(line_offsets("", 1, 5).unwrap(), (0, 0));
    }
}
