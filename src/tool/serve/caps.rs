//! Caps that refuse a read, or cut a whole-file read to its first page, instead of
//! paging it by the budgets ([`Caps`], Claude Code's Read): the file's size for a read
//! without a line count, the selected text's size for one with, and the tokens of the
//! text by an estimate from its characters. An opt-in ([`CapLift`]) raises them to the
//! room the host says the caller has left; each refusal ends with what the caller can
//! do about it (`{suffix}`).
//!
//! The work stays bounded: a read without a count is refused on the file's size before
//! anything is read, and every capped read has a byte budget a little over its cap.

use std::path::Path;

use crate::error::{Error, Result};
use crate::result::{ReadResult, Truncation, TruncationReason};
use crate::select::LineSelection;
use crate::tool::decode::paths::path_name;
use crate::tool::decode::Request;
use crate::tool::dialect::template::fill;
use crate::tool::dialect::template::size_text;
use crate::tool::dialect::{CapLift, Caps, Dialect, FirstPage, TokenCap};
use crate::tool::render::record::TokenCut;
use crate::tool::serve::ctx::Ctx;

/// What decoding may turn one byte of a file into, in UTF-8 bytes (a Windows-1252 byte
/// is up to three): the budget of a read whose file is under the size cap.
const DECODED_PER_BYTE: u64 = 3;

/// The caps of one call: the dialect's, raised when the caller opted in and the host
/// knows the room.
struct Limits {
    size: Option<u64>,
    range: Option<u64>,
    tokens: Option<u64>,
    chars_per_token: u64,
}

/// Characters a token for `path` (by its extension).
fn chars_per_token(t: &TokenCap, path: &str) -> u64 {
    let ext = Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase());
    ext.and_then(|e| t.chars_per_token_by_extension.get(&e).copied())
        .unwrap_or(t.chars_per_token)
        .max(1)
}

/// The tokens of the caller's room a lifted read may take (`None`: no lift, also when
/// that share is no more than the token cap `cap`).
fn lifted(l: &CapLift, cap: Option<u64>) -> Option<u64> {
    let room = l.room_tokens?;
    let share = (u128::from(room) * u128::from(l.room_percent) / 100) as u64;
    (share > cap.unwrap_or(0)).then_some(share)
}

fn limits(d: &Dialect, r: &Request, lift: bool) -> Limits {
    let Caps {
        file_size,
        range_size,
        tokens,
        lift: how,
        ..
    } = &d.caps;
    let cpt = tokens.as_ref().map_or(4, |t| chars_per_token(t, &r.path));
    let mut l = Limits {
        size: file_size.as_ref().map(|c| c.bytes),
        range: range_size.as_ref().map(|c| c.bytes),
        tokens: tokens.as_ref().map(|t| t.tokens),
        chars_per_token: cpt,
    };
    if let Some((how, room)) = how
        .as_ref()
        .filter(|_| lift)
        .and_then(|h| Some((h, lifted(h, l.tokens)?)))
    {
        let bytes = room
            .saturating_mul(how.bytes_per_token.unwrap_or(cpt))
            .saturating_mul(how.bytes_per_token_factor);
        l.size = l.size.map(|b| b.max(bytes));
        l.range = l.range.map(|b| b.max(bytes));
        l.tokens = l.tokens.map(|t| t.max(room));
    }
    l
}

/// The sentence a refusal ends with; `fits` tells whether the read would fit the caps
/// lifted.
fn suffix(d: &Dialect, r: &Request, fits: impl Fn(&Limits) -> bool) -> String {
    let Some(how) = &d.caps.lift else {
        return String::new();
    };
    match (how.room_tokens, r.lift) {
        (None, false) => String::new(),
        (None, true) => how.unavailable.clone(),
        (Some(_), true) => how.no_room.clone(),
        (Some(_), false) if fits(&limits(d, r, true)) => how.suggest.clone(),
        (Some(_), false) => how.no_room.clone(),
    }
}

/// The byte budget of a capped read: a little over the cap that applies to it.
pub(crate) fn max_bytes(d: &Dialect, r: &Request) -> Option<u64> {
    let l = limits(d, r, r.lift);
    match r.limit {
        None => l.size.map(|b| b.saturating_mul(DECODED_PER_BYTE)),
        Some(_) => l.range,
    }
}

/// Whether a first page cut by the token cap is numbered from line 1 whatever the offset.
pub(crate) fn first_page_from_one(d: &Dialect) -> bool {
    let page = d.caps.tokens.as_ref().and_then(|t| t.first_page.as_ref());
    page.is_some_and(|p| p.numbered_from_one)
}

/// Refuses a read without a line count of a file over the size cap, before reading.
pub(crate) fn check_size(ctx: &Ctx, r: &Request) -> Result<()> {
    let d = ctx.dialect;
    let (Some(cap), None) = (&d.caps.file_size, &r.limit) else {
        return Ok(());
    };
    let l = limits(d, r, r.lift);
    let max = l.size.unwrap_or(cap.bytes);
    let size = ctx.file_size()?;
    if size <= max {
        return Ok(());
    }
    // Judged on the size alone, as Claude Code does: the tokens are not known yet.
    let suffix = suffix(d, r, |l| l.size.is_some_and(|m| size <= m));
    let message = fill(
        &cap.message,
        &[
            ("size", &size_text(size)),
            ("max", &size_text(max)),
            ("suffix", &suffix),
        ],
    );
    Err(too_large(d, &r.path, message, ("bytes", size, max)))
}

/// Checks a read against the range and token caps: the read, or its first page with
/// the banner after it and the cap that cut it, or the refusal.
pub(crate) fn check_read(
    ctx: &Ctx,
    r: &Request,
    read: ReadResult,
) -> Result<(ReadResult, Option<(String, TokenCut)>)> {
    let d = ctx.dialect;
    let l = limits(d, r, r.lift);
    if let (Some(cap), Some(_), Some(max)) = (&d.caps.range_size, &r.limit, l.range) {
        // The cap's budget, not a smaller one of the host's (that one pages).
        let over = read
            .truncated
            .is_some_and(|t| t.reason == TruncationReason::MaxBytes && t.limit >= max);
        if over {
            let suffix = suffix(d, r, |lifted| lifted.range.is_some_and(|m| m > max));
            // The range holds more than the cap; the read stopped there, so its size is
            // not known. The caller's way out is a smaller count: that parameter.
            let parameter = r.limit.as_ref().map_or(path_name(d), |g| g.name.as_str());
            return Err(Error::Refused {
                message: fill(
                    &cap.message,
                    &[("max", &size_text(max)), ("suffix", &suffix)],
                ),
                parameter: parameter.to_string(),
                cause: Box::new(Error::TooLarge {
                    path: r.path.as_str().into(),
                    unit: "range_bytes",
                    size: None,
                    limit: crate::error::int(max),
                }),
            });
        }
    }
    let (Some(cap), Some(max)) = (&d.caps.tokens, l.tokens) else {
        return Ok((read, None));
    };
    let tokens = estimate(&read.content, l.chars_per_token);
    if tokens <= max {
        return Ok((read, None));
    }
    let suffix = suffix(d, r, |lifted| lifted.tokens.is_some_and(|t| tokens <= t));
    // A whole-file read: no count, from the first line, no pages.
    let whole =
        r.limit.is_none() && r.offset.as_ref().is_none_or(|o| o.value <= 1) && r.pages.is_none();
    match &cap.first_page {
        Some(page) if whole => {
            let v = Page {
                tokens,
                max,
                chars_per_token: l.chars_per_token,
                suffix: &suffix,
            };
            let cap = TokenCut { tokens, max };
            first_page(ctx, page, read, &v).map(|(p, banner)| (p, Some((banner, cap))))
        }
        _ => {
            let message = fill(
                &cap.message,
                &[("tokens", &tokens), ("max", &max), ("suffix", &suffix)],
            );
            Err(too_large(d, &r.path, message, ("tokens", tokens, max)))
        }
    }
}

/// A tool's refusal (`message`) of a read over one of its caps, as data: `unit`, the size
/// and the limit ([`Error::TooLarge`]); `path` as the caller gave it.
pub(crate) fn too_large(
    d: &Dialect,
    path: &str,
    message: String,
    over: (&'static str, u64, u64),
) -> Error {
    let (unit, size, limit) = over;
    Error::Refused {
        message,
        parameter: path_name(d).to_string(),
        cause: Box::new(Error::TooLarge {
            path: path.into(),
            unit,
            size: Some(crate::error::int(size)),
            limit: crate::error::int(limit),
        }),
    }
}

/// What a first page is cut by.
struct Page<'a> {
    tokens: u64,
    max: u64,
    chars_per_token: u64,
    suffix: &'a str,
}

/// The first page of a whole-file read over the token cap, and its banner.
fn first_page(
    ctx: &Ctx,
    p: &FirstPage,
    read: ReadResult,
    v: &Page,
) -> Result<(ReadResult, String)> {
    let text = read.content.as_str();
    // Lines as splitting the text on `\n` gives them.
    let total = crate::text::line_feeds(text.as_bytes()).count() as u64 + 1;
    let prefix = |n: u64| -> &str {
        let end = usize::try_from(n.saturating_sub(1))
            .ok()
            .and_then(|i| crate::text::line_feeds(text.as_bytes()).nth(i))
            .unwrap_or(text.len());
        &text[..end]
    };
    let aim = u128::from(total) * u128::from(v.max) * u128::from(p.fill_percent);
    let mut n = (aim / (u128::from(v.tokens.max(1)) * 100)) as u64;
    for _ in 0..p.shrink_steps {
        if n == 0 || estimate(prefix(n), v.chars_per_token) <= v.max {
            break;
        }
        n = n * p.shrink_percent / 100;
    }
    let path = read.resolved_path.clone();
    if n == 0 {
        return Ok(first_chars(p, read, v));
    }
    let page = ctx.read_with(
        &ctx.reader(),
        LineSelection::offset_limit(1, Some(n)).into(),
    )?;
    let banner = fill(
        &p.banner,
        &[
            ("path", &path),
            ("end", &n),
            ("total", &total),
            ("tokens", &v.tokens),
            ("max", &v.max),
            ("next", &(n + 1)),
            ("suffix", &v.suffix),
        ],
    );
    Ok((page, banner))
}

/// The first characters of a text whose first line alone is over the cap.
fn first_chars(p: &FirstPage, mut read: ReadResult, v: &Page) -> (ReadResult, String) {
    let chars = utf16_len(&read.content);
    let shown = v.max * v.chars_per_token * p.fill_percent / 100;
    let cut = usize::try_from(shown)
        .ok()
        .and_then(|s| read.content.char_indices().nth(s))
        .map_or(read.content.len(), |(i, _)| i);
    read.content.truncate(cut);
    read.raw = None;
    read.truncated = Some(Truncation {
        reason: TruncationReason::MaxBytes,
        limit: cut as u64,
        next_start_byte: read.bytes.start + cut as u64,
        next_start_line: None,
    });
    read.is_partial = true;
    let banner = fill(
        &p.chars_banner,
        &[
            ("path", &read.resolved_path),
            ("shown", &utf16_len(&read.content)),
            ("chars", &chars),
            ("tokens", &v.tokens),
            ("max", &v.max),
            ("suffix", &v.suffix),
        ],
    );
    (read, banner)
}

/// Characters as JavaScript counts them (UTF-16 code units).
fn utf16_len(text: &str) -> u64 {
    text.chars().map(|c| c.len_utf16() as u64).sum()
}

/// The token estimate of a text: `round(characters / chars_per_token)`.
fn estimate(text: &str, chars_per_token: u64) -> u64 {
    (2 * utf16_len(text) + chars_per_token) / (2 * chars_per_token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::DialectTool;
    use serde_json::json;

    #[test]
    fn sizes_as_claude_code_writes_them() {
        assert_eq!(size_text(512), "512 bytes");
        assert_eq!(size_text(300_000), "293KB");
        assert_eq!(size_text(262_144), "256KB");
        assert_eq!(size_text(1280), "1.3KB");
        assert_eq!(size_text(3_200_000), "3.1MB");
        assert_eq!(size_text(12_000_000), "11.4MB");
        assert_eq!(size_text(3 << 30), "3GB");
    }

    #[test]
    fn estimates_round_half_up() {
        assert_eq!(estimate(&"x".repeat(208_000), 4), 52_000);
        assert_eq!(estimate("xx", 4), 1);
        assert_eq!(estimate("x", 4), 0);
        assert_eq!(estimate(&"x".repeat(84_392), 2), 42_196);
        // An astral character is two UTF-16 units.
        assert_eq!(utf16_len("a😀"), 3);
    }

    /// The claude-code preset over a workspace holding `files`, with the host's room.
    fn tool(files: &[(&str, String)], room: Option<u64>) -> (tempfile::TempDir, DialectTool) {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let mut d = Dialect::preset("claude-code").unwrap();
        d.caps.lift.as_mut().unwrap().room_tokens = room;
        let ws = crate::Workspace::new(dir.path()).unwrap();
        (dir, DialectTool::new(d).workspace(ws))
    }

    fn big() -> (&'static str, String) {
        ("big.txt", format!("{}\n", "x".repeat(99)).repeat(3000))
    }

    #[test]
    fn allow_large_reads_what_fits_the_room() {
        let (_d, t) = tool(&[big()], Some(200_000));
        let r = t.respond(json!({"file_path": "big.txt", "allow_large": true}));
        assert!(!r.is_error, "{}", r.text);
        // Every line, and the empty one after the last line feed.
        assert!(r.text.starts_with("1\txxx"), "{}", &r.text[..20]);
        assert!(r
            .text
            .ends_with(&format!("\n3000\t{}\n3001\t", "x".repeat(99))));
        let r = t.respond(json!({"file_path": "big.txt"}));
        assert!(r.is_error);
        assert!(r.text.ends_with(SUGGEST), "{}", r.text);
    }

    #[test]
    fn without_room_the_refusal_says_so() {
        const NO_ROOM: &str = "other large reads in the same turn share that room).";
        // 70 % of 35,000 is 24,500, no more than the token cap: nothing lifts.
        let (_d, t) = tool(&[big()], Some(35_000));
        let r = t.respond(json!({"file_path": "big.txt"}));
        assert!(r.text.ends_with(NO_ROOM), "{}", r.text);
        // 70 % of 40,000 is 28,000 tokens, 336,000 bytes at 4 bytes a token × 3: the
        // 300,000-byte file fits by its size, though its 75,000 tokens do not.
        let (_d, t) = tool(&[big()], Some(40_000));
        let r = t.respond(json!({"file_path": "big.txt"}));
        assert!(r.text.ends_with(SUGGEST), "{}", r.text);
        // A range is refused on its tokens, over the 28,000 lifted.
        let r = t.respond(json!({"file_path": "big.txt", "offset": 1, "limit": 2000}));
        assert!(
            r.text.starts_with("File content (50000 tokens)"),
            "{}",
            r.text
        );
        assert!(r.text.ends_with(NO_ROOM), "{}", r.text);
        let (_d, t) = tool(&[big()], None);
        let r = t.respond(json!({"file_path": "big.txt", "allow_large": true}));
        assert!(r.is_error);
        assert!(r.text.ends_with(" allow_large is not available where this read runs; read it in parts with offset and limit."), "{}", r.text);
        let r = t.respond(json!({"file_path": "big.txt", "offset": 1, "limit": 10}));
        assert!(!r.is_error, "a counted read is not held to the file's size");
    }

    const SUGGEST: &str = "call Read again with allow_large: true \u{2014} only if you genuinely need all of it or the user asked for the whole file.";

    #[test]
    fn a_fresh_sessions_room_takes_files_up_to_1_402_800_bytes() {
        // A fresh session on a 200,000-token model has 167,000 tokens before it
        // compacts; 70 % of them at 4 bytes a token × 3. Claude Code 2.1.332 was seen
        // to switch between 1,400,000 and 1,425,000 bytes.
        let line = format!("{}\n", "y".repeat(99));
        let under = ("under.txt", line.repeat(14_028));
        let over = ("over.txt", format!("{}\n", line.repeat(14_028)));
        let (_d, t) = tool(&[under, over], Some(167_000));
        let r = t.respond(json!({"file_path": "under.txt"}));
        assert!(r.text.ends_with(SUGGEST), "{}", r.text);
        let r = t.respond(json!({"file_path": "over.txt"}));
        assert!(r.text.ends_with("share that room)."), "{}", r.text);
    }

    #[test]
    fn a_first_page_is_numbered_from_line_one_after_offset_zero() {
        let text = format!("{}\n", "v".repeat(99)).repeat(2500);
        let (_d, t) = tool(&[("p.txt", text.clone()), ("s.txt", "a\nb\n".into())], None);
        let r = t.respond(json!({"file_path": "p.txt", "offset": 0}));
        assert!(r.text.starts_with("1\tvvv"), "{}", &r.text[..20]);
        assert!(r.text.contains("showing lines 1-850 of 2501 total"));
        // A read that is not cut numbers from 0, as Claude Code does.
        let r = t.respond(json!({"file_path": "s.txt", "offset": 0}));
        assert_eq!(r.text, "0\ta\n1\tb\n2\t");
    }

    #[test]
    fn a_file_of_one_long_line_shows_its_first_characters() {
        let (_d, t) = tool(&[("one.txt", "q".repeat(200_000))], None);
        let r = t.respond(json!({"file_path": "one.txt"}));
        assert!(!r.is_error);
        let (page, banner) = r.text.split_once("\n\n<system-reminder>\n").unwrap();
        assert_eq!(page.len(), "1\t".len() + 85_000);
        assert!(
            banner
                .contains("showing the first 85000 of 200000 characters (50000 tokens, cap 25000)"),
            "{banner}"
        );
        // A ranged read of it is refused instead.
        let r = t.respond(json!({"file_path": "one.txt", "offset": 1, "limit": 1}));
        assert!(r.is_error);
        assert!(
            r.text
                .starts_with("File content (50000 tokens) exceeds maximum allowed tokens (25000)."),
            "{}",
            r.text
        );
    }

    #[test]
    fn the_first_page_is_as_many_lines_as_fit() {
        let (_d, t) = tool(
            &[("p.txt", format!("{}\n", "w".repeat(99)).repeat(2500))],
            None,
        );
        let r = t.respond(json!({"file_path": "p.txt"}));
        // 2501 lines (the empty one after the last line feed) of 62,500 tokens: 850 lines.
        assert!(
            r.text.contains("\n850\tw"),
            "{}",
            &r.text[r.text.len() - 400..]
        );
        assert!(!r.text.contains("\n851\t"));
        assert!(r.text.contains("showing lines 1-850 of 2501 total (62500 tokens, cap 25000). Call Read with offset=851 limit=850 for the next page"));
    }
}
