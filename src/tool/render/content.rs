//! What a text answer does to the content on its way to the lines it shows, as a
//! dialect says: the whole text clipped at a number of characters with a notice, each
//! line cut at a number of bytes, and the wrapper's own markup escaped in each line.

use std::borrow::Cow;

use crate::result::{CutLine, ReadResult};
use crate::text::utf8;
use crate::tool::dialect::form::ClipKeep;
use crate::tool::dialect::template::fill_into;
use crate::tool::dialect::{ByteCut, Clip, Dialect, Role};

/// The text to show: the content, clipped at [`crate::tool::Output::clip`]'s characters
/// with its notice after. A read the reader's budget stopped early gets the notice too:
/// nothing is left out without saying so.
pub(crate) fn clipped<'a>(d: &Dialect, r: &'a ReadResult) -> Cow<'a, str> {
    let Some(clip) = &d.output.clip else {
        return Cow::Borrowed(&r.content);
    };
    match clip_chars(&r.content, clip) {
        Some(cut) => Cow::Owned(cut),
        None if r.truncated.is_some() => Cow::Owned(format!("{}{}", r.content, clip.notice)),
        None => Cow::Borrowed(&r.content),
    }
}

/// `text` cut after [`Clip::chars`] characters with the notice after, or `None` when it
/// is not longer.
pub(crate) fn clip_chars(text: &str, clip: &Clip) -> Option<String> {
    let limit = usize::try_from(clip.chars).unwrap_or(usize::MAX);
    if clip.keep == ClipKeep::HeadAndTail {
        return crate::text::middle_cut(text, limit, &clip.notice);
    }
    let (at, _) = text.char_indices().nth(limit)?;
    Some(format!("{}{}", &text[..at], clip.notice))
}

/// A line cut at [`crate::tool::Output::line_max_bytes`], on the side of the boundary
/// [`crate::tool::Output::line_byte_cut`] says, and how many bytes are left out; `None`
/// when the line is not longer.
pub(crate) fn byte_cut<'a>(d: &Dialect, line: &'a str) -> Option<(&'a str, u64)> {
    let max = d.output.line_max_bytes?;
    if line.len() as u64 <= max {
        return None;
    }
    let kept = match d.output.line_byte_cut {
        ByteCut::Floor => utf8::floor_str(line, max),
        ByteCut::Ceil => utf8::ceil_str(line, max),
    };
    Some((kept, (line.len() - kept.len()) as u64))
}

/// The marker after a line cut by the host's line-length budget, one the agent's own
/// tool does not have (`{more}`: bytes left out, `{next}`: where the rest starts): the
/// dialect's own when it says where the rest starts, otherwise one that does, naming
/// the tool's byte parameter when it has one. Its own marker alone would cut silently
/// or send the model to a budget it never had.
pub(crate) fn host_cut_marker(d: &Dialect) -> Cow<'_, str> {
    match &d.output.cut_marker {
        Some(m) if m.contains("{next}") => Cow::Borrowed(m),
        _ => match d.params.iter().find(|p| p.role == Role::StartByte) {
            Some(p) => Cow::Owned(format!(
                " … [line cut by the host: {{more}} more bytes; read the rest with {}={{next}}]",
                p.name
            )),
            None => Cow::Borrowed(
                " … [line cut by the host: {more} more bytes; the rest starts at byte {next}]",
            ),
        },
    }
}

/// `text` (the content as shown, unnumbered, from the read's first line) with the host's
/// [`host_cut_marker`] after each line the host's line-length budget cut.
pub(crate) fn host_marked<'a>(d: &Dialect, r: &ReadResult, text: Cow<'a, str>) -> Cow<'a, str> {
    let Some(first) = r.lines.map(|l| l.start).filter(|_| !r.cut_lines.is_empty()) else {
        return text;
    };
    let marker = host_cut_marker(d);
    let mut out = String::with_capacity(text.len() + r.cut_lines.len() * marker.len());
    let mut at = 0;
    for (i, (body, ended)) in crate::text::split_lines(&text).enumerate() {
        out.push_str(body);
        if let Some(c) = r.cut_lines.iter().find(|c| c.line == first + i as u64) {
            let max = d.output.line_max_bytes.unwrap_or(d.limits.max_line_chars);
            mark(&mut out, &marker, c, 0, max);
        }
        at += body.len();
        // The line's own terminator, as it is (a CR LF stays one).
        let term = match (ended, text[at..].starts_with('\r')) {
            (false, _) => "",
            (true, true) => "\r\n",
            (true, false) => "\n",
        };
        out.push_str(term);
        at += term.len();
    }
    Cow::Owned(out)
}

/// `marker` filled for cut line `c` (`byte_cut`: bytes the dialect's own byte cut left
/// out of what the reader kept, `max`: the dialect's line budget).
pub(crate) fn mark(out: &mut String, marker: &str, c: &CutLine, byte_cut: u64, max: u64) {
    let more = c.total_bytes - c.shown_bytes + byte_cut;
    let next = c.next_start_byte.saturating_sub(byte_cut);
    fill_into(
        out,
        marker,
        &[("more", &more), ("next", &next), ("max", &max)],
    );
}

/// `text` with each `[from, to]` pair of `pairs` replaced, in order.
pub(crate) fn escaped<'a>(text: &'a str, pairs: &[(String, String)]) -> Cow<'a, str> {
    let mut out = Cow::Borrowed(text);
    for (from, to) in pairs {
        if !from.is_empty() && out.contains(from.as_str()) {
            out = Cow::Owned(out.replace(from.as_str(), to));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::Dialect;

    fn bytes_dialect(max: u64) -> Dialect {
        let mut d = Dialect::preset("vault").unwrap();
        d.output.line_max_bytes = Some(max);
        d.output.line_byte_cut = ByteCut::Ceil;
        d
    }

    #[test]
    fn a_byte_cut_keeps_characters_that_start_before_the_limit() {
        let d = bytes_dialect(12);
        let rockets = "🚀🚀🚀🚀🚀";
        assert_eq!(byte_cut(&d, rockets), Some(("🚀🚀🚀", 8)));
        let d = bytes_dialect(13);
        assert_eq!(byte_cut(&d, rockets), Some(("🚀🚀🚀🚀", 4)));
        assert_eq!(byte_cut(&d, "short"), None);
        let d = bytes_dialect(20);
        assert_eq!(byte_cut(&d, "🚀🚀🚀🚀🚀"), None, "exactly at the limit");
        let mut floor = bytes_dialect(13);
        floor.output.line_byte_cut = ByteCut::Floor;
        assert_eq!(byte_cut(&floor, rockets), Some(("🚀🚀🚀", 8)));
        floor.output.line_max_bytes = None;
        assert_eq!(byte_cut(&floor, rockets), None);
    }

    #[test]
    fn escapes_apply_in_order() {
        let pairs = vec![
            ("&".to_string(), "&amp;".to_string()),
            ("\"".to_string(), "&quot;".to_string()),
        ];
        assert_eq!(escaped("a\"&b", &pairs), "a&quot;&amp;b");
        assert!(matches!(escaped("plain", &pairs), Cow::Borrowed(_)));
        let cdata = vec![("]]>".to_string(), "]]]]><![CDATA[>".to_string())];
        assert_eq!(escaped("x]]>y", &cdata), "x]]]]><![CDATA[>y");
    }
}
