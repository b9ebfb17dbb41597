//! Notices some tools add after a file's lines about how its bytes became text
//! ([`Output::nul_note`], [`Output::invalid_utf8_note`]): NUL bytes near the start, or bytes that are not UTF-8 (read as
//! U+FFFD). One notice at most, NUL first: it says more about what the file is. The NUL
//! is looked for in the file's first bytes as they are (Claude Code's `subarray(0,
//! 8000).includes(0)`), in a file read as UTF-8: in UTF-16 a zero byte is half a
//! character.

use crate::error::Result;
use crate::result::ReadResult;
use crate::select::ByteSelection;
use crate::tool::dialect::Output;
use crate::tool::serve::ctx::Ctx;

/// The text at the start of a file the invalid-UTF-8 note looks at, and by default the
/// bytes a NUL is looked for in ([`Output::nul_note_bytes`]).
const SAMPLE: u64 = 8 * 1024;

/// The notices about the text of the file `r` was read from.
pub(crate) fn notes(ctx: &Ctx, r: &ReadResult) -> Result<Vec<String>> {
    let Output {
        invalid_utf8_note,
        nul_note,
        ..
    } = &ctx.dialect.output;
    if let Some(note) = utf16be(ctx)? {
        return Ok(vec![note]);
    }
    if invalid_utf8_note.is_none() && nul_note.is_none() {
        return Ok(Vec::new());
    }
    let covers_sample = r.bytes.start == 0 && r.bytes.end >= SAMPLE.min(r.file_size);
    let nul = nul_note.is_some() && has_nul(ctx, &r.encoding)?;
    let invalid = if covers_sample || nul {
        r.invalid_utf8.is_some()
    } else {
        let sample = ctx.read_with(
            &ctx.reader().max_bytes(0),
            ByteSelection::new(Some(0), Some(SAMPLE)).into(),
        )?;
        r.invalid_utf8.is_some() || sample.invalid_utf8.is_some()
    };
    let read_whole = r.bytes.start == 0 && r.bytes.end >= r.file_size;
    let invalid = invalid || (!nul && !read_whole && whole_file_invalid(ctx, r.file_size)?);
    let note = match (nul, invalid) {
        (true, _) => nul_note,
        (false, true) => invalid_utf8_note,
        _ => &None,
    };
    Ok(note.iter().cloned().collect())
}

/// Whether a file the dialect judges whole ([`Output::notes_whole_file_under`]) holds
/// bytes that are not UTF-8.
fn whole_file_invalid(ctx: &Ctx, size: u64) -> Result<bool> {
    let under = ctx.dialect.output.notes_whole_file_under;
    if under.is_none_or(|n| size >= n) {
        return Ok(false);
    }
    let all = ctx.read_with(
        &ctx.reader().max_bytes(0),
        ByteSelection::new(Some(0), Some(size)).into(),
    )?;
    Ok(all.invalid_utf8.is_some())
}

/// The notice of an answer that shows no line (a first line past the end), about the
/// file's first 8 KiB (or all of it, [`Output::notes_whole_file_under`]): Claude Code
/// reads the file to count its lines and says so.
pub(crate) fn unread(ctx: &Ctx) -> Result<String> {
    let Output {
        invalid_utf8_note,
        nul_note,
        ..
    } = &ctx.dialect.output;
    if let Some(note) = utf16be(ctx)? {
        return Ok(note);
    }
    if invalid_utf8_note.is_none() && nul_note.is_none() {
        return Ok(String::new());
    }
    let sample = ctx.read_with(
        &ctx.reader().max_bytes(0),
        ByteSelection::new(Some(0), Some(SAMPLE)).into(),
    )?;
    let nul = nul_note.is_some() && has_nul(ctx, &sample.encoding)?;
    let invalid =
        sample.invalid_utf8.is_some() || (!nul && whole_file_invalid(ctx, sample.file_size)?);
    let note = match (nul, invalid) {
        (true, _) => nul_note,
        (false, true) => invalid_utf8_note,
        _ => &None,
    };
    Ok(note.clone().unwrap_or_default())
}

/// [`Output::utf16be_note`], when the dialect has one and the file starts `FE FF`.
fn utf16be(ctx: &Ctx) -> Result<Option<String>> {
    let Some(note) = &ctx.dialect.output.utf16be_note else {
        return Ok(None);
    };
    Ok((head(ctx, 2)? == b"\xFE\xFF").then(|| note.clone()))
}

/// Whether the first bytes of the file ([`Output::nul_note_bytes`]) hold a NUL, when it
/// was read as UTF-8 (`encoding`).
fn has_nul(ctx: &Ctx, encoding: &str) -> Result<bool> {
    if encoding != "utf-8" {
        return Ok(false);
    }
    let n = ctx.dialect.output.nul_note_bytes.unwrap_or(SAMPLE);
    Ok(memchr::memchr(0, &head(ctx, n)?).is_some())
}

/// The file's first `n` bytes (fewer in a shorter file), as they are.
fn head(ctx: &Ctx, n: u64) -> Result<Vec<u8>> {
    let doc = ctx.document(&ctx.reader())?;
    let mut head = Vec::new();
    let n = usize::try_from(doc.source().len().min(n)).unwrap_or(usize::MAX);
    doc.source().read_append(0, n, &mut head)?;
    ctx.keep(doc);
    Ok(head)
}

#[cfg(test)]
mod tests {
    use crate::tool::{Dialect, DialectTool};
    use serde_json::json;

    #[test]
    fn one_notice_about_the_whole_file_whatever_part_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut nul = b"a\0b\n".to_vec();
        nul.extend(b"line\n".repeat(3000));
        std::fs::write(dir.path().join("nul.txt"), &nul).unwrap();
        std::fs::write(dir.path().join("both.txt"), b"caf\xe9\0\n").unwrap();
        std::fs::write(dir.path().join("bom.txt"), b"\xef\xbb\xbf").unwrap();
        let ws = crate::Workspace::new(dir.path()).unwrap();
        let t = DialectTool::new(Dialect::preset("claude-code").unwrap()).workspace(ws);
        // Far from the NUL, the read still says the file has one.
        let r = t.respond(json!({"file_path": "nul.txt", "offset": 2900, "limit": 2}));
        assert!(
            r.text
                .starts_with("2900\tline\n2901\tline\n\n[This file has NUL bytes"),
            "{}",
            r.text
        );
        let r = t.respond(json!({"file_path": "both.txt"}));
        assert!(r.text.contains("[This file has NUL bytes"), "{}", r.text);
        assert!(!r.text.contains("not valid UTF-8"), "{}", r.text);
        // A byte order mark alone is an empty file.
        let r = t.respond(json!({"file_path": "bom.txt"}));
        assert!(r.text.contains("the contents are empty"), "{:?}", r.text);
    }

    /// Claude Code looks for a NUL in the file's first 8,000 bytes as they are
    /// (`subarray(0, 8000).includes(0)`), not in the first 8 KiB of the text: a NUL at
    /// byte 8,100 is no notice, one behind 3,000 undecodable bytes is (its text is
    /// three times as long), and a UTF-16LE file's zero bytes are no NULs.
    #[test]
    fn the_nul_notice_looks_at_the_first_8000_bytes_as_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let at = |n: usize| {
            let mut b = b"x".repeat(n);
            b.extend(b"\0\n");
            b.extend(b"tail\n".repeat(10));
            b
        };
        std::fs::write(dir.path().join("late.txt"), at(8100)).unwrap();
        std::fs::write(dir.path().join("early.txt"), at(7999)).unwrap();
        let mut behind = vec![0xFF; 3000];
        behind.extend(at(2000));
        std::fs::write(dir.path().join("behind.txt"), behind).unwrap();
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("ab\ncd\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        std::fs::write(dir.path().join("utf16.txt"), utf16).unwrap();
        let ws = crate::Workspace::new(dir.path()).unwrap();
        let t = DialectTool::new(Dialect::preset("claude-code").unwrap()).workspace(ws);
        let notice = |name: &str| {
            let r = t.respond(json!({"file_path": name}));
            assert!(!r.is_error, "{name}: {}", r.text);
            if r.text.contains("[This file has NUL bytes") {
                "nul"
            } else if r.text.contains("[This file is not valid UTF-8") {
                "not_utf8"
            } else {
                "none"
            }
        };
        assert_eq!(notice("late.txt"), "none");
        assert_eq!(notice("early.txt"), "nul");
        assert_eq!(notice("behind.txt"), "nul");
        assert_eq!(notice("utf16.txt"), "none");
    }
}
