//! The last step of a read: a page made into the result (decoding, numbering,
//! truncation, omitted regions, the fingerprint's time).

use super::Document;
use crate::budget::Page;
use crate::config::{LineEndings, NulBytes};
use crate::decode::decode;
use crate::error::{Error, Result};
use crate::lines::Lines;
use crate::result::{
    Adjustments, ByteSpan, CutLine, LineEnding, LineSpan, ReadResult, Requested, Truncation,
    TruncationReason,
};
use crate::summarize::{omitted, Regions, Searched};

impl Document {
    /// Turns a page into the result: decoding, numbering, truncation, omitted regions.
    ///
    /// `lines` are the lines the page touches (for a byte page, the lines of its first
    /// and last bytes); a page that stops at a line start continues at the next line.
    pub(super) fn finish(
        &mut self,
        mut page: Page,
        lines: Option<LineSpan>,
        total_lines: Option<u64>,
        requested: Requested,
        adjustments: Adjustments,
    ) -> Result<ReadResult> {
        let file_size = self.src.len();
        let first_line = lines.map(|l| l.start);
        let budget = self.config.budget;
        let truncated = page.stop.map(|stop| Truncation {
            reason: stop.reason,
            limit: match stop.reason {
                TruncationReason::MaxLines => budget.max_lines.get(),
                TruncationReason::MaxBytes => budget.max_bytes.get(),
            }
            .unwrap_or(0),
            next_start_byte: stop.next_byte,
            next_start_line: match (stop.at_line_start, lines) {
                (true, Some(l)) => Some(l.end + 1),
                _ => None,
            },
        });
        let cut_lines: Vec<CutLine> = page
            .cuts
            .iter()
            .map(|c| CutLine {
                line: first_line.map_or(c.index + 1, |f| f + c.index),
                shown_bytes: c.shown,
                total_bytes: c.total,
                next_start_byte: c.rest_at,
            })
            .collect();
        let text = self.text()?;
        let text_start = self.layout.text_start;
        let is_partial = page.start > text_start || page.end < file_size || !cut_lines.is_empty();
        let omitted = if is_partial {
            let (landmarks, searched) = match lines {
                Some(l) if self.config.summaries => {
                    self.landmarks_around(page.start, page.end, l)?
                }
                _ => (Vec::new(), Searched::default()),
            };
            let walk = Lines::new(&self.src, self.layout);
            Some(omitted(
                Regions {
                    lines: lines.map(|l| (l.start, l.end)),
                    total_lines,
                    start_byte: page.start,
                    end_byte: page.end,
                    file_size,
                    start_at_line: walk.starts_line(page.start)?,
                    end_at_line: page.end >= file_size || walk.starts_line(page.end)?,
                    text_start,
                },
                landmarks,
                searched,
            ))
        } else {
            None
        };
        // The share of the text: a byte order mark is not counted.
        let text_bytes = file_size - text_start;
        let percent_of_file = if text_bytes == 0 {
            100.0
        } else {
            (page.content.len() as f64 * 1000.0 / text_bytes as f64).round() / 10.0
        };
        let bytes = ByteSpan {
            start: page.start,
            end: page.end,
        };
        // The fingerprint's time; its hash is made when asked (`ReadResult::fingerprint`).
        let modified_ns = self
            .src
            .stamp()
            .and_then(|s| s.modified)
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        // The page's bytes move into the text (no copy when they are valid UTF-8).
        let content = std::mem::take(&mut page.content);
        let map = |c: u64| page.file_offset(c);
        let mut decoded = decode(
            content,
            text.encoding,
            self.config.utf8,
            self.config.tables,
            map,
        )?;
        if self.config.judge.nul_bytes == NulBytes::InRead
            && memchr::memchr(0, decoded.text.as_bytes()).is_some()
        {
            return Err(Error::Binary {
                path: self.src.path().to_path_buf(),
                mime: "application/octet-stream".into(),
                file_size: crate::error::int(file_size),
            });
        }
        // From the decoded text: CR and LF are whole code units there in every encoding.
        let line_ending = LineEnding::of(decoded.text.as_bytes());
        if matches!(
            self.config.line_endings,
            LineEndings::Lf | LineEndings::Universal
        ) {
            // Offsets stay file offsets: `bytes` and the continuations count the CRs.
            decoded.text = crate::text::crlf_to_lf(std::mem::take(&mut decoded.text));
            decoded.raw = decoded.raw.map(crate::text::crlf_to_lf_bytes);
        }
        Ok(ReadResult {
            path: self.path.clone(),
            resolved_path: self.resolved_path.clone(),
            content: decoded.text,
            file_size,
            total_lines,
            encoding: text.encoding.name().to_string(),
            bom: text.bom_len > 0,
            encoding_confidence: text.confidence,
            line_ending,
            lines,
            bytes,
            requested,
            adjustments,
            truncated,
            cut_lines,
            omitted,
            is_partial,
            percent_of_file,
            invalid_utf8: decoded.invalid,
            modified_ns,
            raw: decoded.raw,
        })
    }
}
