//! Notices some tools add after a file's lines about how its bytes became text
//! ([`Output::nul_note`], [`Output::invalid_utf8_note`]): NUL bytes near the start, or bytes that are not UTF-8 (read as
//! U+FFFD). One notice at most, NUL first: it says more about what the file is.

use crate::error::Result;
use crate::result::ReadResult;
use crate::select::ByteSelection;
use crate::tool::dialect::Output;
use crate::tool::serve::ctx::Ctx;

/// The bytes at the start of a file a NUL is looked for in.
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
    let (nul, invalid) = if covers_sample {
        (has_nul(&r.content), r.invalid_utf8.is_some())
    } else {
        let sample = ctx.read_with(
            &ctx.reader().max_bytes(0),
            ByteSelection::new(Some(0), Some(SAMPLE)).into(),
        )?;
        (
            has_nul(&sample.content),
            r.invalid_utf8.is_some() || sample.invalid_utf8.is_some(),
        )
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
    let nul = has_nul(&sample.content);
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
    let doc = ctx.document(&ctx.reader())?;
    let mut head = Vec::new();
    let n = doc.source().len().min(2) as usize;
    doc.source().read_append(0, n, &mut head)?;
    ctx.keep(doc);
    Ok((head == b"\xFE\xFF").then(|| note.clone()))
}

/// Whether the first 8 KiB of text hold a NUL.
fn has_nul(text: &str) -> bool {
    let end = text.len().min(SAMPLE as usize);
    memchr::memchr(0, &text.as_bytes()[..end]).is_some()
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
}
